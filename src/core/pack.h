/*
 * pack.h - a compact, portable byte form for derived state: integers as
 * zigzag varints (small magnitudes take one byte, whatever the host's
 * int size or byte order) and strings with their length.  The journal's
 * snapshots are written with it (core/journal.h).
 *
 * A writer only grows its buffer.  A reader never reads past its end:
 * a short or damaged input sets bad and yields zeros and empty strings
 * from then on, so that a decoder checks bad once, at the end.
 */
#ifndef REFKIT_PACK_H
#define REFKIT_PACK_H

#include <stddef.h>
#include <stdint.h>

struct pack {
	unsigned char	*buf;	/* owned; free(3) it */
	size_t		 len, cap;
};

struct unpack {
	const unsigned char	*p, *end;
	int			 bad;
};

void pack_int(struct pack *p, int64_t v);
/* A string or NULL; NULL and "" are told apart. */
void pack_str(struct pack *p, const char *s);

void unpack_init(struct unpack *u, const void *buf, size_t len);
int64_t unpack_int(struct unpack *u);
/* An integer that must lie in [lo, hi]; bad (and lo) otherwise. */
int64_t unpack_range(struct unpack *u, int64_t lo, int64_t hi);
/* A string newly allocated, or NULL as packed. */
char *unpack_str(struct unpack *u);
/* A string into buf of size sz; bad if it does not fit or was NULL. */
void unpack_strbuf(struct unpack *u, char *buf, size_t sz);
/* 0 if u was read whole and well, else -1. */
int unpack_done(const struct unpack *u);

#endif
