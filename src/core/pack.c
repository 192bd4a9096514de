/*
 * pack.c - the compact byte form of derived state; see pack.h.
 */
#include "core/pack.h"

#include "base/util.h"

#include <stdlib.h>
#include <string.h>

static void
put_byte(struct pack *p, unsigned char c)
{
	if (p->len == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 256;
		p->buf = xreallocarray(p->buf, p->cap, 1);
	}
	p->buf[p->len++] = c;
}

static void
put_varint(struct pack *p, uint64_t v)
{
	while (v >= 0x80) {
		put_byte(p, (unsigned char)(v | 0x80));
		v >>= 7;
	}
	put_byte(p, (unsigned char)v);
}

void
pack_int(struct pack *p, int64_t v)
{
	/* zigzag: 0, -1, 1, -2 ... become 0, 1, 2, 3 ... */
	put_varint(p, ((uint64_t)v << 1) ^ (v < 0 ? UINT64_MAX : 0));
}

void
pack_str(struct pack *p, const char *s)
{
	size_t n;

	if (s == NULL) {
		put_varint(p, 0);
		return;
	}
	n = strlen(s);
	put_varint(p, (uint64_t)n + 1);
	for (size_t i = 0; i < n; i++)
		put_byte(p, (unsigned char)s[i]);
}

void
unpack_init(struct unpack *u, const void *buf, size_t len)
{
	u->p = buf;
	u->end = u->p + len;
	u->bad = buf == NULL && len > 0;
}

static uint64_t
get_varint(struct unpack *u)
{
	uint64_t v = 0;

	for (int shift = 0; !u->bad; shift += 7) {
		if (u->p == u->end || shift > 63) {
			u->bad = 1;
			break;
		}
		v |= (uint64_t)(*u->p & 0x7f) << shift;
		if ((*u->p++ & 0x80) == 0)
			return v;
	}
	return 0;
}

int64_t
unpack_int(struct unpack *u)
{
	uint64_t z = get_varint(u);

	return (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
}

int64_t
unpack_range(struct unpack *u, int64_t lo, int64_t hi)
{
	int64_t v = unpack_int(u);

	if (u->bad || v < lo || v > hi) {
		u->bad = 1;
		return lo;
	}
	return v;
}

/* The length of the next string plus 1, 0 for NULL; its bytes follow. */
static size_t
get_len(struct unpack *u)
{
	uint64_t n = get_varint(u);

	if (u->bad || n > (uint64_t)(u->end - u->p) + 1) {
		u->bad = 1;
		return 0;
	}
	return (size_t)n;
}

char *
unpack_str(struct unpack *u)
{
	size_t n = get_len(u);
	char *s;

	if (n == 0)
		return NULL;
	if (memchr(u->p, '\0', n - 1) != NULL) {
		u->bad = 1;
		return NULL;
	}
	s = xmalloc(n);
	memcpy(s, u->p, n - 1);
	s[n - 1] = '\0';
	u->p += n - 1;
	return s;
}

void
unpack_strbuf(struct unpack *u, char *buf, size_t sz)
{
	size_t n = get_len(u);

	buf[0] = '\0';
	if (n == 0 || n > sz || memchr(u->p, '\0', n - 1) != NULL) {
		u->bad = 1;
		return;
	}
	memcpy(buf, u->p, n - 1);
	buf[n - 1] = '\0';
	u->p += n - 1;
}

int
unpack_done(const struct unpack *u)
{
	return u->bad || u->p != u->end ? -1 : 0;
}
