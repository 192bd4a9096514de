/*
 * web/serve.c - refkit serve; see web/serve.h.
 *
 * Threads: libmicrohttpd's pool answers requests (SERVE_THREADS of them,
 * over epoll); the caller's thread watches the database.  A page is drawn
 * on one connection of its own (draw_db) under draw_lock, and kept in a
 * small cache by path and generation, so that a change draws each page
 * watched once, not once a viewer.  A viewer's stream of events is a
 * response read by viewer_read: it sends the page's fragment when the
 * generation moved since it last did, and otherwise suspends the
 * connection, which costs no thread; a change of the database (bump)
 * resumes every suspended stream.  state_lock guards the generation and
 * the viewers; a viewer's own buffer is touched only by the thread that
 * reads it, which MHD runs one at a time for a connection.
 */
#include "web/serve.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <microhttpd.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/util.h"
#include "core/journal.h"
#include "db/db.h"
#include "term/watch.h"
#include "web/html.h"

#define SERVE_THREADS	2
/* Connections at once, idle ones included, and a request's limits. */
#define SERVE_CONNECTIONS	4000
#define SERVE_TIMEOUT_S		10
#define SERVE_MEMORY		(32 * 1024)
/* How often SQLite's data_version is read, and a stream's keep-alive. */
#define POLL_MS		100
#define PING_MS		15000
/* Pages drawn kept, and a board's columns allowed. */
#define CACHE_N		32
#define COLS_MIN	30
#define COLS_MAX	200
/* A page reloads itself this often in a browser without scripts. */
#define REFRESH_S	10

struct viewer {
	struct MHD_Connection	*c;
	struct html_route	 r;
	int			 cols;
	int64_t			 sent;		/* the generation sent */
	int			 suspended, ping;
	struct strbuf		 out;		/* to send, from off */
	size_t			 off;
	struct viewer		*prev, *next;
};

struct page {
	char		 key[64];	/* path and columns */
	int64_t		 gen;
	int		 status;
	char		*html;
	size_t		 len;
	uint64_t	 used;
};

static struct {
	pthread_mutex_t	 state_lock;
	int64_t		 gen;
	struct viewer	*viewers;
	int		 stopping;
	pthread_mutex_t	 draw_lock;
	struct db	*draw_db;
	struct page	 cache[CACHE_N];
	uint64_t	 uses;
	int		 cols;
} S = {
	.state_lock = PTHREAD_MUTEX_INITIALIZER,
	.draw_lock = PTHREAD_MUTEX_INITIALIZER,
	.gen = 1,
};

static volatile sig_atomic_t leave;

static void
on_signal(int sig)
{
	(void)sig;
	leave = 1;
}

/*
 * The fragment of r's page for cols columns at generation gen or later,
 * from the cache or drawn now: copied into o; returns its status.
 */
static int
fragment(const struct html_route *r, int cols, int64_t gen,
    struct strbuf *o)
{
	struct page *p = NULL, *old = &S.cache[0];
	struct strbuf b = STRBUF_INIT;
	char key[64];
	int status;

	snprintf(key, sizeof key, "%s/%s?%d", r->page == HTML_BOARD ?
	    r->board->kind->what : "", r->key, cols);
	pthread_mutex_lock(&S.draw_lock);
	for (size_t i = 0; i < CACHE_N && p == NULL; i++) {
		if (strcmp(S.cache[i].key, key) == 0)
			p = &S.cache[i];
		else if (S.cache[i].used < old->used)
			old = &S.cache[i];
	}
	if (p == NULL) {
		p = old;
		free(p->html);
		memset(p, 0, sizeof *p);
		snprintf(p->key, sizeof p->key, "%s", key);
	}
	if (p->html == NULL || p->gen < gen) {
		db_begin_read(S.draw_db);
		p->status = html_fragment(&b, S.draw_db, r, cols);
		db_rollback(S.draw_db);
		free(p->html);
		p->html = strbuf_detach(&b, &p->len);
		p->gen = gen;
	}
	p->used = ++S.uses;
	strbuf_add(o, p->html, p->len);
	status = p->status;
	pthread_mutex_unlock(&S.draw_lock);
	return status;
}

/* The database changed: every stream sends its page again. */
static void
bump(int ping)
{
	pthread_mutex_lock(&S.state_lock);
	if (!ping)
		S.gen++;
	for (struct viewer *v = S.viewers; v != NULL; v = v->next) {
		v->ping |= ping;
		if (v->suspended) {
			v->suspended = 0;
			MHD_resume_connection(v->c);
		}
	}
	pthread_mutex_unlock(&S.state_lock);
}

/* v's next event: its page's fragment as an event "board", a line each. */
static void
event_board(struct viewer *v, int64_t gen)
{
	struct strbuf f = STRBUF_INIT;
	size_t i = 0;

	(void)fragment(&v->r, v->cols, gen, &f);
	strbuf_addstr(&v->out, "event: board\ndata: ");
	for (; i < f.len; i++) {
		if (f.s[i] == '\n')
			strbuf_addstr(&v->out, "\ndata: ");
		else
			strbuf_addch(&v->out, f.s[i]);
	}
	strbuf_addstr(&v->out, "\n\n");
	strbuf_release(&f);
}

static ssize_t
viewer_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct viewer *v = cls;
	size_t n;

	(void)pos;
	pthread_mutex_lock(&S.state_lock);
	if (S.stopping) {
		pthread_mutex_unlock(&S.state_lock);
		return MHD_CONTENT_READER_END_OF_STREAM;
	}
	if (v->off == v->out.len) {
		strbuf_reset(&v->out);
		v->off = 0;
		if (v->sent != S.gen) {
			int64_t gen = S.gen;

			pthread_mutex_unlock(&S.state_lock);
			event_board(v, gen);
			pthread_mutex_lock(&S.state_lock);
			v->sent = gen;
		} else if (v->ping) {
			strbuf_addstr(&v->out, ": still here\n\n");
		}
		v->ping = 0;
	}
	if (v->off == v->out.len) {
		/* Nothing to send: parked until the next change. */
		v->suspended = 1;
		MHD_suspend_connection(v->c);
		pthread_mutex_unlock(&S.state_lock);
		return 0;
	}
	pthread_mutex_unlock(&S.state_lock);
	n = v->out.len - v->off < max ? v->out.len - v->off : max;
	memcpy(buf, v->out.s + v->off, n);
	v->off += n;
	return (ssize_t)n;
}

static void
viewer_free(void *cls)
{
	struct viewer *v = cls;

	pthread_mutex_lock(&S.state_lock);
	if (v->prev != NULL)
		v->prev->next = v->next;
	else
		S.viewers = v->next;
	if (v->next != NULL)
		v->next->prev = v->prev;
	pthread_mutex_unlock(&S.state_lock);
	strbuf_release(&v->out);
	free(v);
}

/* The headers every answer has: nothing from elsewhere, nothing kept. */
static void
headers(struct MHD_Response *res, const char *type)
{
	MHD_add_response_header(res, "Content-Type", type);
	MHD_add_response_header(res, "Content-Security-Policy",
	    "default-src 'none'; style-src 'self'; script-src 'self'; "
	    "connect-src 'self'; img-src 'self'; base-uri 'none'; "
	    "form-action 'none'; frame-ancestors 'none'");
	MHD_add_response_header(res, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(res, "Referrer-Policy", "no-referrer");
	MHD_add_response_header(res, "Cache-Control", "no-store");
}

static enum MHD_Result
answer(struct MHD_Connection *c, unsigned int status, const char *type,
    const void *body, size_t len)
{
	struct MHD_Response *res;
	enum MHD_Result rc;

	res = MHD_create_response_from_buffer(len, (void *)body,
	    MHD_RESPMEM_MUST_COPY);
	if (res == NULL)
		return MHD_NO;
	headers(res, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(res, "Allow", "GET, HEAD");
	rc = MHD_queue_response(c, status, res);
	MHD_destroy_response(res);
	return rc;
}

static enum MHD_Result
plain(struct MHD_Connection *c, unsigned int status, const char *text)
{
	return answer(c, status, "text/plain; charset=utf-8", text,
	    strlen(text));
}

/* The columns a request asks for (?cols=N), else the default. */
static int
cols_of(struct MHD_Connection *c)
{
	const char *s = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND,
	    "cols");
	char *end;
	long n;

	if (s == NULL)
		return S.cols;
	n = strtol(s, &end, 10);
	if (*end != '\0' || end == s || n < COLS_MIN || n > COLS_MAX)
		return S.cols;
	return (int)n;
}

/* A stream of events: the page of path, sent again as it changes. */
static enum MHD_Result
stream(struct MHD_Connection *c, const char *path)
{
	struct MHD_Response *res;
	struct viewer *v;
	enum MHD_Result rc;

	v = xcalloc(1, sizeof *v);
	html_route(path, &v->r);
	if (v->r.page == HTML_NONE) {
		free(v);
		return plain(c, MHD_HTTP_NOT_FOUND, "not found\n");
	}
	v->c = c;
	v->cols = cols_of(c);
	res = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16384,
	    viewer_read, v, viewer_free);
	if (res == NULL) {
		free(v);
		return MHD_NO;
	}
	pthread_mutex_lock(&S.state_lock);
	v->next = S.viewers;
	if (S.viewers != NULL)
		S.viewers->prev = v;
	S.viewers = v;
	pthread_mutex_unlock(&S.state_lock);
	headers(res, "text/event-stream; charset=utf-8");
	rc = MHD_queue_response(c, MHD_HTTP_OK, res);
	MHD_destroy_response(res);
	return rc;
}

/* A page: its shell around its fragment as the database is now. */
static enum MHD_Result
page(struct MHD_Connection *c, const char *path)
{
	struct strbuf f = STRBUF_INIT, o = STRBUF_INIT;
	struct html_route r;
	char title[64], events[96];
	int64_t gen;
	int status, cols;
	enum MHD_Result rc;

	html_route(path, &r);
	if (r.page == HTML_NONE)
		return plain(c, MHD_HTTP_NOT_FOUND, "not found\n");
	cols = cols_of(c);
	pthread_mutex_lock(&S.state_lock);
	gen = S.gen;
	pthread_mutex_unlock(&S.state_lock);
	status = fragment(&r, cols, gen, &f);
	html_title(&r, title, sizeof title);
	if (cols != S.cols)
		snprintf(events, sizeof events, "/events%s?cols=%d", path,
		    cols);
	else
		snprintf(events, sizeof events, "/events%s", path);
	html_page(&o, title, f.s != NULL ? f.s : "", f.len, events,
	    REFRESH_S);
	rc = answer(c, (unsigned int)status, "text/html; charset=utf-8",
	    o.s, o.len);
	strbuf_release(&f);
	strbuf_release(&o);
	return rc;
}

static enum MHD_Result
request(void *cls, struct MHD_Connection *c, const char *url,
    const char *method, const char *version, const char *upload,
    size_t *upload_size, void **con_cls)
{
	(void)cls;
	(void)version;
	(void)upload;
	(void)con_cls;
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return plain(c, MHD_HTTP_METHOD_NOT_ALLOWED,
		    "only GET and HEAD\n");
	if (*upload_size != 0)
		return plain(c, MHD_HTTP_BAD_REQUEST, "no body here\n");
	if (strlen(url) > 200)
		return plain(c, MHD_HTTP_URI_TOO_LONG, "too long\n");
	if (strcmp(url, "/style.css") == 0)
		return answer(c, MHD_HTTP_OK, "text/css; charset=utf-8",
		    html_css, strlen(html_css));
	if (strcmp(url, "/live.js") == 0)
		return answer(c, MHD_HTTP_OK,
		    "text/javascript; charset=utf-8", html_js,
		    strlen(html_js));
	if (strncmp(url, "/events/", 8) == 0)
		return stream(c, url + 7);
	return page(c, url);
}

/*
 * The address to listen on, from "ADDR:PORT" ("[::1]:PORT" for IPv6), a
 * loopback one only: exits 2 otherwise.
 */
static socklen_t
address(const char *listen, struct sockaddr_storage *ss)
{
	struct sockaddr_in *in = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	char host[64];
	const char *colon = strrchr(listen, ':');
	char *end;
	long port;
	size_t n;

	memset(ss, 0, sizeof *ss);
	if (colon == NULL || (n = (size_t)(colon - listen)) >= sizeof host)
		errx(2, "--listen: '%s' is not ADDR:PORT", listen);
	port = strtol(colon + 1, &end, 10);
	if (*end != '\0' || end == colon + 1 || port < 0 || port > 65535)
		errx(2, "--listen: '%s' is not a port from 0 to 65535",
		    colon + 1);
	memcpy(host, listen, n);
	host[n] = '\0';
	if (strcmp(host, "localhost") == 0 || n == 0)
		snprintf(host, sizeof host, "127.0.0.1");
	if (host[0] == '[' && n > 2 && host[n - 1] == ']') {
		memmove(host, host + 1, n - 2);
		host[n - 2] = '\0';
	}
	if (inet_pton(AF_INET, host, &in->sin_addr) == 1) {
		if ((ntohl(in->sin_addr.s_addr) >> 24) != 127)
			errx(2, "--listen: %s is not this machine's own "
			    "address (127.x.x.x); this version serves only "
			    "to this machine, with no access code for other "
			    "ones", host);
		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)port);
		return sizeof *in;
	}
	if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		if (!IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr))
			errx(2, "--listen: %s is not this machine's own "
			    "address (::1); this version serves only to this "
			    "machine, with no access code for other ones",
			    host);
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)port);
		return sizeof *in6;
	}
	errx(2, "--listen: '%s' is not an address", host);
}

/* Waits for changes of db (watch_db) until a signal says to stop. */
static void
watch(struct db *db)
{
	int fd = db_watch_fd(db);
	int64_t seen = fd < 0 ? db_data_version(db) : 0, pinged = 0;
	struct timespec ts;

	while (!leave) {
		int64_t now;

		if (fd >= 0) {
			struct pollfd p = { fd, POLLIN, 0 };

			(void)poll(&p, 1, POLL_MS * 5);
			if (db_changed(db))
				bump(0);
		} else {
			int64_t v;

			(void)poll(NULL, 0, POLL_MS);
			if ((v = db_data_version(db)) != seen) {
				seen = v;
				bump(0);
			}
		}
		clock_gettime(CLOCK_MONOTONIC, &ts);
		now = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
		if (now - pinged >= PING_MS) {
			if (pinged != 0)
				bump(1);
			pinged = now;
		}
	}
}

int
serve_run(const struct serve_opts *o)
{
	const char *listen = o->listen ? o->listen : "127.0.0.1:8080";
	struct sockaddr_storage ss;
	struct MHD_Daemon *d;
	const union MHD_DaemonInfo *info;
	struct sigaction sa;
	struct db *watch_db;
	char host[INET6_ADDRSTRLEN];

	(void)address(listen, &ss);
	S.cols = o->cols > 0 ? o->cols : 64;
	/*
	 * The database as the tools leave it (made or migrated now, as any
	 * tool would), then only read: each connection refuses to write.
	 */
	S.draw_db = db_open(o->db);
	db_read_only(S.draw_db);
	watch_db = db_open(o->db);
	db_read_only(watch_db);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	d = MHD_start_daemon(MHD_USE_EPOLL_INTERNAL_THREAD |
	    MHD_ALLOW_SUSPEND_RESUME, 0, NULL, NULL, request, NULL,
	    MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
	    MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)SERVE_THREADS,
	    MHD_OPTION_CONNECTION_LIMIT, (unsigned int)SERVE_CONNECTIONS,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)SERVE_TIMEOUT_S,
	    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SERVE_MEMORY,
	    MHD_OPTION_END);
	if (d == NULL)
		errx(1, "cannot listen on %s: %s", listen, errno != 0 ?
		    strerror(errno) : "the address is taken or not allowed");
	info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	if (ss.ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr,
		    host, sizeof host);
		printf("serving on http://[%s]:%u/ (Ctrl-C stops)\n", host,
		    info != NULL ? info->port : 0);
	} else {
		inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr,
		    host, sizeof host);
		printf("serving on http://%s:%u/ (Ctrl-C stops)\n", host,
		    info != NULL ? info->port : 0);
	}
	if (fflush(stdout) != 0)
		err(1, "stdout");
	watch(watch_db);
	/* Every stream ends; then the daemon stops. */
	pthread_mutex_lock(&S.state_lock);
	S.stopping = 1;
	pthread_mutex_unlock(&S.state_lock);
	bump(1);
	MHD_stop_daemon(d);
	for (size_t i = 0; i < CACHE_N; i++)
		free(S.cache[i].html);
	db_close(watch_db);
	db_close(S.draw_db);
	return 0;
}
