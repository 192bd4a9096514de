/*
 * strbuf.c - one growing buffer for the whole toolkit (strbuf.h).  It
 * stands on the C library alone, so that util and every other module
 * of base/ can build their text in it: even its failures are said here
 * rather than through util's err(3), which builds its message in a
 * strbuf.
 */
#include "base/strbuf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>


/*
 * Says what failed as err(3) and errx would, "PROG: WHAT[: strerror]",
 * and exits 1: a buffer that cannot grow or a misuse ends the tool.
 */
static void
die(int with_errno, const char *what)
{
	int e = errno;

	fflush(stdout);
	if (with_errno)
		fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name,
		    what, strerror(e));
	else
		fprintf(stderr, "%s: %s\n", program_invocation_short_name, what);
	exit(1);
}

/* Makes room for n more bytes and the NUL. */
static void
grow(struct strbuf *b, size_t n)
{
	size_t want;
	char *p;

	if (b->fp != NULL)
		die(0, "strbuf: written while its stream is open");
	if (n > SIZE_MAX - b->len - 1)
		die(0, "out of memory");
	want = b->len + n + 1;
	if (want <= b->cap)
		return;
	if (b->cap < 64)
		b->cap = 64;
	while (b->cap < want)
		b->cap = b->cap > SIZE_MAX / 2 ? want : b->cap * 2;
	if ((p = realloc(b->s, b->cap)) == NULL)
		die(1, "out of memory");
	b->s = p;
}

void
strbuf_add(struct strbuf *b, const void *p, size_t n)
{
	grow(b, n);
	if (n > 0)
		memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void
strbuf_addstr(struct strbuf *b, const char *s)
{
	strbuf_add(b, s, strlen(s));
}

void
strbuf_addch(struct strbuf *b, int c)
{
	char ch = (char)c;

	strbuf_add(b, &ch, 1);
}

void
strbuf_addf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	char *t;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&t, fmt, ap);
	va_end(ap);
	if (n < 0)
		die(1, "out of memory");
	strbuf_add(b, t, (size_t)n);
	free(t);
}

void
strbuf_be64(struct strbuf *b, uint64_t v)
{
	unsigned char x[8];

	for (int i = 7; i >= 0; i--, v >>= 8)
		x[i] = (unsigned char)(v & 0xff);
	strbuf_add(b, x, sizeof x);
}

/* s between two q, each q in it doubled. */
static void
quote(struct strbuf *b, const char *s, char q)
{
	const char *e;

	strbuf_addch(b, q);
	while ((e = strchr(s, q)) != NULL) {
		strbuf_add(b, s, (size_t)(e - s) + 1);
		strbuf_addch(b, q);
		s = e + 1;
	}
	strbuf_addstr(b, s);
	strbuf_addch(b, q);
}

void
strbuf_ident(struct strbuf *b, const char *name)
{
	quote(b, name, '"');
}

void
strbuf_quoted(struct strbuf *b, const char *s)
{
	quote(b, s, '\'');
}

FILE *
strbuf_stream(struct strbuf *b)
{
	if (b->fp != NULL || b->len != 0)
		die(0, "strbuf: a stream opened on a written buffer");
	free(b->s);
	b->s = NULL;
	if ((b->fp = open_memstream(&b->s, &b->len)) == NULL)
		die(1, "open_memstream");
	return b->fp;
}

/* Closes the stream: its text becomes the buffer's. */
static void
close_stream(struct strbuf *b)
{
	if (b->fp == NULL)
		return;
	if (fclose(b->fp) != 0)
		die(1, "strbuf");
	b->fp = NULL;
	b->cap = b->s != NULL ? b->len + 1 : 0;
}

char *
strbuf_detach(struct strbuf *b, size_t *len)
{
	char *s;

	close_stream(b);
	if ((s = b->s) == NULL && (s = strdup("")) == NULL)
		die(1, "out of memory");
	if (len != NULL)
		*len = b->len;
	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

const char *
strbuf_text(struct strbuf *b)
{
	if (b->fp != NULL && fflush(b->fp) != 0)
		die(1, "strbuf");
	return b->s != NULL ? b->s : "";
}

void
strbuf_reset(struct strbuf *b)
{
	if (b->fp != NULL)
		die(0, "strbuf: reset while its stream is open");
	b->len = 0;
	if (b->s != NULL)
		b->s[0] = '\0';
}

void
strbuf_release(struct strbuf *b)
{
	free(strbuf_detach(b, NULL));
}

void
strbuf_url(struct strbuf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '-' || *p == '.' ||
		    *p == '_' || *p == '~')
			strbuf_addch(b, *p);
		else
			strbuf_addf(b, "%%%02X", *p);
}
