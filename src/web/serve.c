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

#include <sys/resource.h>
#include <sys/socket.h>

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <microhttpd.h>
#include <poll.h>
#include <pthread.h>
#include <qrencode.h>
#include <setjmp.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/util.h"
#include "core/journal.h"
#include "base/when.h"
#include "db/db.h"
#include "kinds/kinds.h"
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
/* How long a database that failed is left before it is tried again. */
#define RETRY_MS	1000
/* The day's figures are added up again at most this often. */
#define DAY_MS		5000
/* The access code: its letters (no 0/O, 1/I/L), and how many. */
#define CODE_ALPHABET	"abcdefghjkmnpqrstuvwxyz23456789"
#define CODE_LEN	12

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
	char		 key[HTML_NAME_MAX + 96];	/* path, columns, sheet */
	int64_t		 gen;
	int		 status;
	char		*html;
	size_t		 len;
	uint64_t	 used;
};

static struct {
	pthread_mutex_t	 state_lock;
	int64_t		 gen;		/* the pages' */
	int64_t		 data_gen;	/* the database's changes seen */
	struct viewer	*viewers;
	int		 stopping;
	pthread_mutex_t	 draw_lock;
	struct db	*draw_db;
	struct page	 cache[CACHE_N];
	uint64_t	 uses;
	int		 cols;
	char		 code[CODE_LEN + 1];	/* "" on loopback */
	int		 public_boards;
	const char	*path;		/* the database, as given */
	/* Under draw_lock: the last failure, and when to try again. */
	char		 failure[512];
	int64_t		 retry_at;
	/*
	 * Under draw_lock: the day's figures for the convention's page,
	 * their time, and the database's generation they are of.
	 */
	struct kinds_day day;
	struct kinds_day_cache *day_cache;
	int		 day_ok;
	int64_t		 day_at, day_ms, day_data;
} S = {
	.state_lock = PTHREAD_MUTEX_INITIALIZER,
	.draw_lock = PTHREAD_MUTEX_INITIALIZER,
	.gen = 1,
};

static volatile sig_atomic_t leave;

static void cookie(struct MHD_Response *);

/* Whether only this machine has the address sa (127.x.x.x, ::1). */
static int
loopback(const struct sockaddr *sa)
{
	if (sa != NULL && sa->sa_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr)
		    >> 24) == 127;
	return sa != NULL && sa->sa_family == AF_INET6 &&
	    IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)sa)->sin6_addr);
}

static void
on_signal(int sig)
{
	(void)sig;
	leave = 1;
}

/* Now, in milliseconds of the monotonic clock. */
static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * The database opened, made read-only, into *db; or NULL with the
 * reason in why when it cannot be (a server down), the failure caught.
 */
static struct db *
reopen(char *why, size_t sz)
{
	struct db_catch dc;
	struct db *db;

	if (setjmp(dc.env) != 0) {
		snprintf(why, sz, "%s", dc.msg);
		return NULL;
	}
	db_catch_set(&dc);
	db = db_open(S.path);
	db_read_only(db);
	db_catch_set(NULL);
	return db;
}

/*
 * The day's figures (kinds_day) of today, local midnight on, in db's
 * open read, unless those kept are of this generation of the database
 * or younger than DAY_MS: a busy convention's every action does not
 * replay its day; the watcher draws the page again when they are due.
 */
static void
day_figures(struct db *db)
{
	struct kinds_day day;
	int64_t data, now = now_ms(), t = db_now(), since;

	pthread_mutex_lock(&S.state_lock);
	data = S.data_gen;
	pthread_mutex_unlock(&S.state_lock);
	if (S.day_ok && (S.day_data == data || now - S.day_ms < DAY_MS))
		return;
	if (when_parse("today", t, &since) != 0)
		since = t - t % 86400;
	if (S.day_cache == NULL)
		S.day_cache = kinds_day_cache_new();
	/* Kept whole: a failure caught half way leaves the last ones. */
	if ((S.day_ok = kinds_day(db, since, t, &day, S.day_cache) == 0))
		S.day = day;
	S.day_at = t;
	S.day_ms = now;
	S.day_data = data;
}

/*
 * Whether every page is to be drawn again, the database unchanged: the
 * day's figures kept are due to be added up again, or a page showed a
 * failure of the database and *retried (when it was last tried) is a
 * second ago.
 */
static int
pages_due(int64_t now, int64_t *retried)
{
	int64_t data;
	int due;

	pthread_mutex_lock(&S.state_lock);
	data = S.data_gen;
	pthread_mutex_unlock(&S.state_lock);
	pthread_mutex_lock(&S.draw_lock);
	due = S.day_ok && S.day_data != data && now - S.day_ms >= DAY_MS;
	if (S.draw_db == NULL && now - *retried >= RETRY_MS) {
		*retried = now;
		due = 1;
	}
	pthread_mutex_unlock(&S.draw_lock);
	return due;
}

/*
 * Draws r's fragment for cols columns into b on draw_db, under
 * draw_lock; returns its status.  A failure of the database does not
 * stop the server: it is caught, said on standard error, and the page
 * says it (503); the connection is given up, and opened again for the
 * next page, then at most once a second while it cannot be.
 */
static int
draw(const struct html_route *r, int cols, struct strbuf *b)
{
	struct db_catch dc;
	int status;

	if (S.draw_db == NULL) {
		if (now_ms() < S.retry_at ||
		    (S.draw_db = reopen(S.failure, sizeof S.failure)) == NULL) {
			S.retry_at = now_ms() + RETRY_MS;
			html_failure(b, S.failure);
			return MHD_HTTP_SERVICE_UNAVAILABLE;
		}
		warnx("serve: the database can be read again");
	}
	if (setjmp(dc.env) != 0) {
		warnx("serve: %s", dc.msg);
		snprintf(S.failure, sizeof S.failure, "%s", dc.msg);
		db_abandon(S.draw_db);
		S.draw_db = NULL;
		strbuf_reset(b);
		html_failure(b, S.failure);
		return MHD_HTTP_SERVICE_UNAVAILABLE;
	}
	db_catch_set(&dc);
	db_begin_read(S.draw_db);
	if (r->page == HTML_CONVENTION)
		day_figures(S.draw_db);
	status = html_fragment(b, S.draw_db, r, cols, S.day_ok ? &S.day :
	    NULL, S.day_at);
	db_rollback(S.draw_db);
	db_catch_set(NULL);
	return status;
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
	char key[HTML_NAME_MAX + 96];
	int status;

	/* Never cut: a name is at most HTML_NAME_MAX bytes. */
	snprintf(key, sizeof key, "%s/%s/%s?%d&%s&%d", r->page == HTML_BOARD ?
	    r->board->kind->what : r->page == HTML_CHARACTER ? "character" :
	    "", r->key, r->name, cols, r->sheet, r->locked);
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
		p->status = draw(r, cols, &b);
		free(p->html);
		p->html = strbuf_detach(&b, &p->len);
		/*
		 * A failure too is kept for the generation: a damaged record
		 * stays until the database changes, and while the database
		 * cannot be read the watcher moves the generation on each
		 * second.  A draw cut short by a failure loses what it had
		 * allocated; this bounds how often that happens.
		 */
		p->gen = gen;
	}
	p->used = ++S.uses;
	strbuf_add(o, p->html, p->len);
	status = p->status;
	pthread_mutex_unlock(&S.draw_lock);
	return status;
}

/*
 * The database changed (BUMP_DATA), or a page would show more now
 * (BUMP_PAGES, pages_due): every stream sends its page
 * again; or only a keep-alive is due (BUMP_PING).
 */
enum { BUMP_PING, BUMP_DATA, BUMP_PAGES };
static void
bump(int how)
{
	int ping = how == BUMP_PING;

	pthread_mutex_lock(&S.state_lock);
	if (how == BUMP_DATA)
		S.data_gen++;
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
answer_set(struct MHD_Connection *c, unsigned int status, const char *type,
    const void *body, size_t len, int set)
{
	struct MHD_Response *res;
	enum MHD_Result rc;

	res = MHD_create_response_from_buffer(len, (void *)body,
	    MHD_RESPMEM_MUST_COPY);
	if (res == NULL)
		return MHD_NO;
	headers(res, type);
	if (set)
		cookie(res);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(res, "Allow", "GET, HEAD");
	rc = MHD_queue_response(c, status, res);
	MHD_destroy_response(res);
	return rc;
}

static enum MHD_Result
answer(struct MHD_Connection *c, unsigned int status, const char *type,
    const void *body, size_t len)
{
	return answer_set(c, status, type, body, len, 0);
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

/*
 * Whether c may have what it asks: from this machine always; from
 * another, with the access code in the address (?code=) or the cookie
 * a page with it set, unless the boards are public and it is not a
 * character's page (which shows its sheet: its powers and items are
 * its player's to show).  *set is 1 when the code came in the address,
 * for the answer to set the cookie.
 */
static int
allowed(struct MHD_Connection *c, int character, int *set)
{
	const union MHD_ConnectionInfo *ci;
	const char *got;

	*set = 0;
	if (S.code[0] == '\0' || (S.public_boards && !character))
		return 1;
	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	if (ci != NULL && loopback(ci->client_addr))
		return 1;
	if ((got = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND,
	    "code")) != NULL && strlen(got) == CODE_LEN &&
	    sodium_memcmp(got, S.code, CODE_LEN) == 0) {
		*set = 1;
		return 1;
	}
	got = MHD_lookup_connection_value(c, MHD_COOKIE_KIND, "refkit_code");
	return got != NULL && strlen(got) == CODE_LEN &&
	    sodium_memcmp(got, S.code, CODE_LEN) == 0;
}

/* The cookie that keeps the code, for the pages a link leads to. */
static void
cookie(struct MHD_Response *res)
{
	char v[96];

	snprintf(v, sizeof v, "refkit_code=%s; Path=/; HttpOnly; "
	    "SameSite=Strict", S.code);
	MHD_add_response_header(res, "Set-Cookie", v);
}

/*
 * The page path names, into r, for a request with the sheet code sheet
 * (or NULL) that only that sheet lets in when locked.
 */
static void
route(const char *path, const char *sheet, int locked,
    struct html_route *r)
{
	html_route(path, r);
	if (r->page != HTML_CHARACTER)
		return;
	/* One too long to be a code stays one, not a code cut to one. */
	if (sheet != NULL)
		snprintf(r->sheet, sizeof r->sheet, "%s",
		    strlen(sheet) < sizeof r->sheet ? sheet : "-");
	r->locked = locked;
}

/* A stream of events: the page of path, sent again as it changes. */
static enum MHD_Result
stream(struct MHD_Connection *c, const char *path, const char *sheet,
    int locked)
{
	struct MHD_Response *res;
	struct viewer *v;
	enum MHD_Result rc;

	v = xcalloc(1, sizeof *v);
	route(path, sheet, locked, &v->r);
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
page(struct MHD_Connection *c, const char *path, const char *sheet,
    int locked, int set)
{
	struct strbuf f = STRBUF_INIT, o = STRBUF_INIT, ev = STRBUF_INIT;
	struct html_route r;
	char title[HTML_NAME_MAX + 32];
	int64_t gen;
	int status, cols;
	enum MHD_Result rc;

	route(path, sheet, locked, &r);
	if (r.page == HTML_NONE)
		return plain(c, MHD_HTTP_NOT_FOUND, "not found\n");
	cols = cols_of(c);
	pthread_mutex_lock(&S.state_lock);
	gen = S.gen;
	pthread_mutex_unlock(&S.state_lock);
	status = fragment(&r, cols, gen, &f);
	html_title(&r, title, sizeof title);
	strbuf_addstr(&ev, "/events");
	html_url_path(&ev, path);
	if (cols != S.cols)
		strbuf_addf(&ev, "?cols=%d", cols);
	if (r.sheet[0] != '\0') {
		strbuf_addstr(&ev, cols != S.cols ? "&sheet=" : "?sheet=");
		strbuf_url(&ev, r.sheet);
	}
	html_page(&o, title, f.s != NULL ? f.s : "", f.len, ev.s, REFRESH_S);
	strbuf_release(&ev);
	rc = answer_set(c, (unsigned int)status, "text/html; charset=utf-8",
	    o.s, o.len, set);
	strbuf_release(&f);
	strbuf_release(&o);
	return rc;
}

static enum MHD_Result
request(void *cls, struct MHD_Connection *c, const char *url,
    const char *method, const char *version, const char *upload,
    size_t *upload_size, void **con_cls)
{
	const char *sheet;
	int set, character, locked;

	(void)cls;
	(void)version;
	(void)upload;
	(void)con_cls;
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return plain(c, MHD_HTTP_METHOD_NOT_ALLOWED,
		    "only GET and HEAD\n");
	if (*upload_size != 0)
		return plain(c, MHD_HTTP_BAD_REQUEST, "no body here\n");
	if (strlen(url) > 256)
		return plain(c, MHD_HTTP_URI_TOO_LONG, "too long\n");
	if (strcmp(url, "/style.css") == 0)
		return answer(c, MHD_HTTP_OK, "text/css; charset=utf-8",
		    html_css, strlen(html_css));
	if (strcmp(url, "/live.js") == 0)
		return answer(c, MHD_HTTP_OK,
		    "text/javascript; charset=utf-8", html_js,
		    strlen(html_js));
	character = strncmp(url, "/character/", 11) == 0 ||
	    strncmp(url, "/events/character/", 18) == 0;
	sheet = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND,
	    "sheet");
	/*
	 * Without the access code, a character's page opens to the code
	 * of its sheet alone (the page says no more than 403 unless it is).
	 */
	locked = !allowed(c, character, &set);
	if (locked && !(character && sheet != NULL))
		return plain(c, MHD_HTTP_FORBIDDEN, character ?
		    "this page needs the access code that refkit serve "
		    "printed, or the code of this character's sheet\n" :
		    "this page needs the access code that refkit serve "
		    "printed: open the address it gave, with ?code=\n");
	if (strncmp(url, "/events/", 8) == 0)
		return stream(c, url + 7, sheet, locked);
	return page(c, url, sheet, locked, set);
}

/*
 * The address to listen on, from "ADDR:PORT" ("[::1]:PORT" for IPv6;
 * "localhost" or nothing for 127.0.0.1), into ss; *loop says whether
 * only this machine reaches it.  Exits 2 when it is none.
 */
static void
address(const char *listen, struct sockaddr_storage *ss, int *loop)
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
		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)port);
		*loop = loopback((struct sockaddr *)ss);
		return;
	}
	if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)port);
		*loop = loopback((struct sockaddr *)ss);
		return;
	}
	errx(2, "--listen: '%s' is not an address", host);
}

/*
 * For an address of every interface (0.0.0.0), the one to show: the
 * first IPv4 address of an interface that is up and not the loopback,
 * which phones on the same network reach; else it stays as it is.
 */
static void
lan_address(struct in_addr *out)
{
	struct ifaddrs *all, *i;

	if (getifaddrs(&all) != 0)
		return;
	for (i = all; i != NULL; i = i->ifa_next)
		if (i->ifa_addr != NULL && i->ifa_addr->sa_family == AF_INET &&
		    (ntohl(((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr)
		    >> 24) != 127) {
			*out = ((struct sockaddr_in *)i->ifa_addr)->sin_addr;
			break;
		}
	freeifaddrs(all);
}

/* A new access code, at random. */
static void
make_code(char code[CODE_LEN + 1])
{
	unsigned char r[CODE_LEN];

	randombytes_buf(r, sizeof r);
	for (size_t i = 0; i < CODE_LEN; i++)
		code[i] = CODE_ALPHABET[r[i] % (sizeof CODE_ALPHABET - 1)];
	code[CODE_LEN] = '\0';
}

/*
 * The QR code of text on the terminal, two modules a character (upper
 * and lower half blocks), with the quiet zone around it, dark on light
 * whatever the terminal's colours.
 */
static void
print_qr(const char *text)
{
	QRcode *qr = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1);
	int w;

	if (qr == NULL)
		return;
	w = qr->width;
	for (int y = -2; y < w + 2; y += 2) {
		printf("\033[30;47m");
		for (int x = -2; x < w + 2; x++) {
			int top = y >= 0 && y < w && x >= 0 && x < w &&
			    (qr->data[y * w + x] & 1);
			int bot = y + 1 >= 0 && y + 1 < w && x >= 0 && x < w &&
			    (qr->data[(y + 1) * w + x] & 1);

			fputs(top && bot ? "\xe2\x96\x88" : top ?
			    "\xe2\x96\x80" : bot ? "\xe2\x96\x84" : " ", stdout);
		}
		printf("\033[0m\n");
	}
	QRcode_free(qr);
}

/*
 * As many descriptors as the system lets this process have: a
 * convention's phones, each with a page and its stream, and the idle
 * connections a hostile client may hold, need more than the usual 1024.
 */
static void
raise_files(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/*
 * Waits up to a poll's time for a change of db, from fd (a server's
 * notices) or else its data_version last seen; bumps the generation if
 * there was one.  Returns 0, or -1 with the failure said on standard
 * error when db failed (a server gone), caught.
 */
static int
watch_once(struct db *db, int fd, int64_t *seen)
{
	struct db_catch dc;

	if (setjmp(dc.env) != 0) {
		warnx("serve: %s", dc.msg);
		return -1;
	}
	db_catch_set(&dc);
	if (fd >= 0) {
		struct pollfd p = { fd, POLLIN, 0 };

		(void)poll(&p, 1, POLL_MS * 5);
		/* A lost connection says it changed: a read says which. */
		if (db_changed(db)) {
			(void)db_data_version(db);
			bump(BUMP_DATA);
		}
	} else {
		int64_t v;

		(void)poll(NULL, 0, POLL_MS);
		if ((v = db_data_version(db)) != *seen) {
			*seen = v;
			bump(BUMP_DATA);
		}
	}
	db_catch_set(NULL);
	return 0;
}

/*
 * A watch of db begun: *fd its server's notices, or -1 on SQLite with
 * *seen its data_version now.  Returns 0, or -1 with the failure said
 * on standard error, caught.
 */
static int
watch_start(struct db *db, int *fd, int64_t *seen)
{
	struct db_catch dc;

	if (setjmp(dc.env) != 0) {
		warnx("serve: %s", dc.msg);
		return -1;
	}
	db_catch_set(&dc);
	*fd = db_watch_fd(db);
	*seen = *fd < 0 ? db_data_version(db) : 0;
	db_catch_set(NULL);
	return 0;
}

/*
 * Waits for changes of the database until a signal says to stop, on db,
 * a connection of its own (its watch begun: fd, seen), which it opens
 * again, every second until it can, when it fails; every page is drawn
 * again then.
 */
static void
watch(struct db *db, int fd, int64_t seen)
{
	int64_t pinged = 0, retried = 0, now;
	char why[512];

	while (!leave) {
		if (db == NULL) {
			if ((db = reopen(why, sizeof why)) == NULL ||
			    watch_start(db, &fd, &seen) != 0) {
				db_abandon(db);
				db = NULL;
				(void)poll(NULL, 0, RETRY_MS);
				continue;
			}
			/* The pages try the database again at once. */
			pthread_mutex_lock(&S.draw_lock);
			S.retry_at = 0;
			pthread_mutex_unlock(&S.draw_lock);
			bump(BUMP_DATA);
		}
		if (watch_once(db, fd, &seen) != 0) {
			db_abandon(db);
			db = NULL;
			bump(BUMP_DATA);
			(void)poll(NULL, 0, RETRY_MS);
			continue;
		}
		now = now_ms();
		if (pages_due(now, &retried))
			bump(BUMP_PAGES);
		if (now - pinged >= PING_MS) {
			if (pinged != 0)
				bump(BUMP_PING);
			pinged = now;
		}
	}
	db_close(db);
}

/*
 * Prints where the server listens (ss, bound to port), with the access
 * code when other machines reach it, and its QR code on a terminal.
 */
static void
announce(struct sockaddr_storage *ss, unsigned port, int loop)
{
	char host[INET6_ADDRSTRLEN], shown[160];
	int coded = S.code[0] != '\0' && !S.public_boards;

	if (ss->ss_family == AF_INET &&
	    ((struct sockaddr_in *)ss)->sin_addr.s_addr == htonl(INADDR_ANY))
		lan_address(&((struct sockaddr_in *)ss)->sin_addr);
	if (ss->ss_family == AF_INET6)
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)ss)->sin6_addr,
		    host, sizeof host);
	else
		inet_ntop(AF_INET, &((struct sockaddr_in *)ss)->sin_addr,
		    host, sizeof host);
	snprintf(shown, sizeof shown, ss->ss_family == AF_INET6 ?
	    "http://[%s]:%u/%s%s" : "http://%s:%u/%s%s", host, port,
	    coded ? "?code=" : "", coded ? S.code : "");
	printf("serving on %s (Ctrl-C stops)\n", shown);
	if (!loop && S.public_boards)
		printf("other machines reach it: every board is public, "
		    "with no access code (--public boards)\n");
	else if (!loop) {
		printf("other machines reach it: a browser needs the "
		    "address with its code once (the access code %s), then "
		    "keeps it\n", S.code);
		if (isatty(STDOUT_FILENO))
			print_qr(shown);
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
	int loop, fd;
	int64_t seen;

	address(listen, &ss, &loop);
	S.cols = o->cols > 0 ? o->cols : 64;
	S.public_boards = o->public_boards;
	if (!loop) {
		if (sodium_init() < 0)
			errx(1, "cannot start libsodium");
		make_code(S.code);
	}
	raise_files();
	/*
	 * The database as the tools leave it (made or migrated now, as any
	 * tool would), then only read: each connection refuses to write.
	 */
	S.path = o->db;
	S.draw_db = db_open(o->db);
	db_read_only(S.draw_db);
	watch_db = db_open(o->db);
	db_read_only(watch_db);
	fd = db_watch_fd(watch_db);
	seen = fd < 0 ? db_data_version(watch_db) : 0;
	/* The day's figures, added up once before the first page asks. */
	db_begin_read(S.draw_db);
	day_figures(S.draw_db);
	db_rollback(S.draw_db);
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
	announce(&ss, info != NULL ? info->port : 0, loop);
	if (fflush(stdout) != 0)
		err(1, "stdout");
	watch(watch_db, fd, seen);
	/* Every stream ends; then the daemon stops. */
	pthread_mutex_lock(&S.state_lock);
	S.stopping = 1;
	pthread_mutex_unlock(&S.state_lock);
	bump(BUMP_PING);
	MHD_stop_daemon(d);
	for (size_t i = 0; i < CACHE_N; i++)
		free(S.cache[i].html);
	kinds_day_cache_free(S.day_cache);
	db_close(S.draw_db);
	return 0;
}
