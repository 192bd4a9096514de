/*
 * test_pack.c - the compact byte form: integers and strings round-trip
 * at their edges, the bytes are the documented varints, and a short,
 * long or damaged input is caught rather than read past.
 */
#include "tap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/pack.h"

static void
test_ints(void)
{
	const int64_t v[] = { 0, 1, -1, 63, -64, 64, -65, 127, 128, 300,
	    INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN };
	size_t n = sizeof v / sizeof v[0];
	struct pack p = { 0 };
	struct unpack u;

	for (size_t i = 0; i < n; i++)
		pack_int(&p, v[i]);
	unpack_init(&u, p.buf, p.len);
	for (size_t i = 0; i < n; i++) {
		int64_t got = unpack_int(&u);

		ok(got == v[i], "int %zu round-trips", i);
	}
	is_int(unpack_done(&u), 0, "read whole");
	free(p.buf);

	/* zigzag varints: 0 -> 00, -1 -> 01, 1 -> 02, 64 -> 80 01. */
	memset(&p, 0, sizeof p);
	pack_int(&p, 0);
	pack_int(&p, -1);
	pack_int(&p, 1);
	pack_int(&p, 64);
	is_int(p.len, 5, "four small ints take five bytes");
	ok(p.buf[0] == 0 && p.buf[1] == 1 && p.buf[2] == 2 &&
	    p.buf[3] == 0x80 && p.buf[4] == 1, "the bytes are zigzag varints");
	free(p.buf);
}

static void
test_strings(void)
{
	struct pack p = { 0 };
	struct unpack u;
	char buf[8], *s;

	pack_str(&p, "Grim, the Unbowed");
	pack_str(&p, NULL);
	pack_str(&p, "");
	pack_str(&p, "Ann");
	unpack_init(&u, p.buf, p.len);
	s = unpack_str(&u);
	is_str(s, "Grim, the Unbowed", "a string round-trips");
	free(s);
	ok(unpack_str(&u) == NULL, "NULL stays NULL");
	s = unpack_str(&u);
	is_str(s, "", "an empty string stays empty, not NULL");
	free(s);
	unpack_strbuf(&u, buf, sizeof buf);
	is_str(buf, "Ann", "into a buffer");
	is_int(unpack_done(&u), 0, "read whole");
	free(p.buf);

	memset(&p, 0, sizeof p);
	pack_str(&p, "too long for eight");
	unpack_init(&u, p.buf, p.len);
	unpack_strbuf(&u, buf, sizeof buf);
	ok(u.bad && buf[0] == '\0', "a string longer than the buffer is bad");
	free(p.buf);
}

static void
test_damage(void)
{
	struct pack p = { 0 };
	struct unpack u;
	char *s;

	pack_int(&p, 300);
	pack_str(&p, "Ann");
	/* Every cut short of the whole is caught. */
	for (size_t len = 0; len < p.len; len++) {
		unpack_init(&u, p.buf, len);
		unpack_int(&u);
		s = unpack_str(&u);
		free(s);
		ok(unpack_done(&u) != 0, "cut at %zu: caught", len);
	}
	/* A byte too many is caught too. */
	unpack_init(&u, p.buf, p.len - 1);
	unpack_init(&u, p.buf, p.len);
	unpack_int(&u);
	free(unpack_str(&u));
	is_int(unpack_done(&u), 0, "the whole reads");
	free(p.buf);

	memset(&p, 0, sizeof p);
	pack_int(&p, 5);
	pack_int(&p, 7);
	unpack_init(&u, p.buf, p.len);
	is_int(unpack_int(&u), 5, "first");
	is_int(unpack_done(&u), -1, "bytes left over are not done");
	unpack_init(&u, p.buf, p.len);
	is_int(unpack_range(&u, 0, 4), 0, "out of range gives lo");
	ok(u.bad, "and is bad");
	free(p.buf);

	/* A varint that never ends, and a length beyond the end. */
	{
		unsigned char run[12];

		memset(run, 0xff, sizeof run);
		unpack_init(&u, run, sizeof run);
		unpack_int(&u);
		ok(u.bad, "an endless varint is bad");
		run[0] = 40;	/* a string of 39 bytes, with 11 there */
		unpack_init(&u, run, sizeof run);
		ok(unpack_str(&u) == NULL && u.bad, "a length past the end "
		    "is bad");
	}
	/* A NUL inside a string cannot be a C string. */
	{
		unsigned char nul[] = { 4, 'a', 0, 'b' };

		unpack_init(&u, nul, sizeof nul);
		ok(unpack_str(&u) == NULL && u.bad, "a NUL inside is bad");
	}
}

int
main(void)
{
	test_ints();
	test_strings();
	test_damage();
	return tap_done();
}
