/*
 * web/serve.h - refkit serve: the live boards (web/html.h) over HTTP, for
 * any browser, read-only, from the database the tools write, on GNU
 * libmicrohttpd.  One connection draws every page, under one lock, each
 * page's fragment drawn once per change of the database however many
 * watch it; another watches the database (SQLite's data_version, polled
 * ten times a second; a server's LISTEN) and wakes every page's stream
 * of events (Server-Sent Events) when it changes.
 */
#ifndef REFKIT_WEB_SERVE_H
#define REFKIT_WEB_SERVE_H

struct serve_opts {
	const char	*db;		/* the database, as db_open takes it */
	const char	*listen;	/* "ADDR:PORT", or NULL: 127.0.0.1:8080 */
	int		 cols;		/* a board's columns, by default */
	int		 public_boards;	/* --public boards: no code for them */
};

/*
 * Serves until SIGINT or SIGTERM, having printed the address on standard
 * output; returns the exit status.  Port 0 takes a free port.  On an
 * address other machines reach (not 127.x or ::1), every page asks for
 * an access code, made at random now and printed in the address (with
 * its QR code when standard output is a terminal), which a browser then
 * keeps as a cookie; with public_boards, the boards and the convention
 * need none.  A usage error (a bad address) exits 2, a failure to start
 * 1.
 */
int serve_run(const struct serve_opts *o);

#endif
