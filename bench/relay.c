/*
 * relay.c - a TCP relay that delays every byte by a set time each way:
 * a network with a round trip of 2 x DELAY milliseconds between refkit
 * and its server, for bench/pg.sh (issue #40).
 *
 *   relay LISTEN-PORT TARGET-PORT DELAY-MS
 *
 * Listens on 127.0.0.1:LISTEN-PORT; each connection it accepts gets one
 * to 127.0.0.1:TARGET-PORT, and what either side sends reaches the
 * other DELAY-MS milliseconds after it was read, in order.  One process,
 * poll(2), as many connections as come; it runs until killed.  A
 * benchmark's tool, not refkit's: no options, errors end it.
 */
#include <arpa/inet.h>
#include <err.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAXCONN	256
#define CHUNK	65536

/* Bytes read from one side, due at the other at a time. */
struct chunk {
	struct chunk	*next;
	int64_t		 due;		/* ns, CLOCK_MONOTONIC */
	size_t		 len, off;
	char		 data[];
};

/* One direction: from fd "from" to fd "to", chunks in order. */
struct pipe {
	int		 from, to;
	struct chunk	*head, *tail;
	int		 closed;	/* from has ended */
};

struct conn {
	struct pipe	 up, down;	/* client to server, server back */
	int		 used;
};

static struct conn conns[MAXCONN];
static int64_t delay;

static int64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int
dial(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
	    .sin_port = htons((uint16_t)port) };
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0)
		err(1, "connect to port %d", port);
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return fd;
}

static void
conn_close(struct conn *c)
{
	struct pipe *p[2] = { &c->up, &c->down };

	for (int i = 0; i < 2; i++)
		while (p[i]->head != NULL) {
			struct chunk *k = p[i]->head;

			p[i]->head = k->next;
			free(k);
		}
	close(c->up.from);
	close(c->up.to);
	c->used = 0;
}

/* Reads what from has into a chunk due delay from now; 0 at its end. */
static int
pipe_read(struct pipe *p)
{
	struct chunk *k = malloc(sizeof *k + CHUNK);
	ssize_t n;

	if (k == NULL)
		err(1, "malloc");
	if ((n = read(p->from, k->data, CHUNK)) <= 0) {
		free(k);
		return n < 0 && errno == EINTR ? 1 : 0;
	}
	k->len = (size_t)n;
	k->off = 0;
	k->due = now_ns() + delay;
	k->next = NULL;
	if (p->tail != NULL)
		p->tail->next = k;
	else
		p->head = k;
	p->tail = k;
	return 1;
}

/* Writes what is due; -1 if the other side is gone. */
static int
pipe_write(struct pipe *p, int64_t t)
{
	while (p->head != NULL && p->head->due <= t) {
		struct chunk *k = p->head;
		ssize_t n = write(p->to, k->data + k->off, k->len - k->off);

		if (n < 0)
			return errno == EINTR || errno == EAGAIN ? 0 : -1;
		k->off += (size_t)n;
		if (k->off < k->len)
			return 0;
		p->head = k->next;
		if (p->head == NULL)
			p->tail = NULL;
		free(k);
	}
	return 0;
}

static void
accept_one(int lfd, int target)
{
	int fd = accept(lfd, NULL, NULL), one = 1;

	if (fd < 0)
		return;
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	for (int i = 0; i < MAXCONN; i++)
		if (!conns[i].used) {
			struct conn *c = &conns[i];
			int s = dial(target);

			memset(c, 0, sizeof *c);
			c->used = 1;
			c->up.from = c->down.to = fd;
			c->up.to = c->down.from = s;
			return;
		}
	close(fd);
}

/* Until the next chunk is due, in ms for poll; -1 if none waits. */
static int
next_wait(int64_t t)
{
	int64_t best = -1;

	for (int i = 0; i < MAXCONN; i++) {
		struct pipe *p[2] = { &conns[i].up, &conns[i].down };

		if (!conns[i].used)
			continue;
		for (int j = 0; j < 2; j++)
			if (p[j]->head != NULL && (best < 0 ||
			    p[j]->head->due < best))
				best = p[j]->head->due;
	}
	if (best < 0)
		return -1;
	return best <= t ? 0 : (int)((best - t + 999999) / 1000000);
}

int
main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int lfd, one = 1, target;

	if (argc != 4)
		errx(2, "usage: relay LISTEN-PORT TARGET-PORT DELAY-MS");
	a.sin_port = htons((uint16_t)atoi(argv[1]));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	target = atoi(argv[2]);
	delay = (int64_t)(atof(argv[3]) * 1e6);
	if ((lfd = socket(AF_INET, SOCK_STREAM, 0)) < 0 ||
	    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
	    bind(lfd, (struct sockaddr *)&a, sizeof a) != 0 ||
	    listen(lfd, 64) != 0)
		err(1, "listen on port %s", argv[1]);
	for (;;) {
		struct pollfd pf[1 + 2 * MAXCONN];
		int idx[1 + 2 * MAXCONN], n = 1, wait;
		int64_t t = now_ns();

		pf[0] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		for (int i = 0; i < MAXCONN; i++) {
			if (!conns[i].used)
				continue;
			pf[n] = (struct pollfd){ .fd = conns[i].up.from,
			    .events = conns[i].up.closed ? 0 : POLLIN };
			idx[n++] = 2 * i;
			pf[n] = (struct pollfd){ .fd = conns[i].down.from,
			    .events = conns[i].down.closed ? 0 : POLLIN };
			idx[n++] = 2 * i + 1;
		}
		wait = next_wait(t);
		if (poll(pf, (nfds_t)n, wait) < 0 && errno != EINTR)
			err(1, "poll");
		if (pf[0].revents & POLLIN)
			accept_one(lfd, target);
		for (int k = 1; k < n; k++) {
			struct conn *c = &conns[idx[k] / 2];
			struct pipe *p = idx[k] % 2 ? &c->down : &c->up;

			if (c->used && (pf[k].revents & (POLLIN | POLLHUP)) &&
			    !p->closed && !pipe_read(p))
				p->closed = 1;
		}
		t = now_ns();
		for (int i = 0; i < MAXCONN; i++) {
			struct conn *c = &conns[i];

			if (!c->used)
				continue;
			if (pipe_write(&c->up, t) < 0 ||
			    pipe_write(&c->down, t) < 0 ||
			    ((c->up.closed || c->down.closed) &&
			    c->up.head == NULL && c->down.head == NULL))
				conn_close(c);
		}
	}
}
