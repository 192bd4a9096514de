/*
 * strbuf.h - one growing buffer of bytes or text for the whole toolkit,
 * in place of each module's own: SQL and keys built piece by piece, and
 * text that functions writing to a stream produce (the sentences of a
 * log, a table) gathered into one string.
 *
 * A buffer starts as STRBUF_INIT and is filled either by the strbuf_add
 * functions or through its stream (strbuf_stream), never both at once.
 * Its bytes are always followed by a NUL, so that text can be read as a
 * string; they may hold NULs of their own.  Memory runs out as it does
 * for xmalloc: the tool exits with a message.
 */
#ifndef REFKIT_STRBUF_H
#define REFKIT_STRBUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct strbuf {
	char	*s;		/* the bytes, NUL-terminated; NULL while empty */
	size_t	 len;		/* how many, without the NUL */
	size_t	 cap;		/* allocated, with room for the NUL */
	FILE	*fp;		/* the stream writing into s, or NULL */
};

#define STRBUF_INIT	{ NULL, 0, 0, NULL }

void strbuf_add(struct strbuf *b, const void *p, size_t n);
void strbuf_addstr(struct strbuf *b, const char *s);
void strbuf_addch(struct strbuf *b, int c);
void strbuf_addf(struct strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* v as eight bytes, the most significant first (a key's sort order). */
void strbuf_be64(struct strbuf *b, uint64_t v);
/*
 * name as an SQL identifier: in double quotes, each double quote in it
 * doubled (SQLite's and PostgreSQL's rule alike).
 */
void strbuf_ident(struct strbuf *b, const char *name);
/* s as an SQL string literal: in single quotes, each one in it doubled. */
void strbuf_quoted(struct strbuf *b, const char *s);
/*
 * Adds s as a part of a URL's path or query: every byte but a letter, a
 * digit, '-', '.', '_' and '~' as %XX.
 */
void strbuf_url(struct strbuf *b, const char *s);

/*
 * A stream whose writes go to the buffer (open_memstream), for the
 * functions that write to a FILE; what it wrote is the buffer's once
 * strbuf_detach or strbuf_text closes it.  The buffer must be empty.
 */
FILE *strbuf_stream(struct strbuf *b);

/*
 * The bytes (never NULL: "" for an empty buffer), which the caller
 * frees, and their count in *len unless len is NULL; the buffer is empty
 * again.  Closes the stream first, if there is one.
 */
char *strbuf_detach(struct strbuf *b, size_t *len);
/*
 * The text written so far, NUL-terminated, left in the buffer: the
 * stream, if any, is flushed, not closed.
 */
const char *strbuf_text(struct strbuf *b);
/* Empties the buffer for more, keeping its memory (no stream open). */
void strbuf_reset(struct strbuf *b);
/* Empties the buffer and frees what it held (closing its stream). */
void strbuf_release(struct strbuf *b);

#endif
