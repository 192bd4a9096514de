/*
 * test_strbuf.c - the one growing buffer: bytes, text, formats, keys,
 * SQL identifiers, and the stream that gathers what a FILE writer wrote.
 */
#include "tap.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"

static void
test_add(void)
{
	struct strbuf b = STRBUF_INIT;
	char *s;
	size_t n;

	is_str(strbuf_text(&b), "", "an empty buffer reads as \"\"");
	strbuf_addstr(&b, "attack");
	strbuf_addch(&b, ' ');
	strbuf_addf(&b, "%s %d", "Fred", 12);
	is_str(strbuf_text(&b), "attack Fred 12", "strings, a char, a format");
	for (int i = 0; i < 1000; i++)
		strbuf_addch(&b, 'x');
	is_int((long long)b.len, 1014, "grows past its first allocation");
	ok(b.s[b.len] == '\0', "always NUL-terminated");
	strbuf_reset(&b);
	is_str(strbuf_text(&b), "", "reset empties it");
	ok(b.cap >= 1015, "and keeps its memory");
	for (int i = 0; i < 1014; i++)
		strbuf_addch(&b, 'y');
	s = strbuf_detach(&b, &n);
	is_int((long long)n, 1014, "detach gives the length");
	ok(b.s == NULL && b.len == 0 && b.cap == 0, "and leaves it empty");
	free(s);
	s = strbuf_detach(&b, &n);
	is_str(s, "", "an empty buffer detaches as \"\", not NULL");
	is_int((long long)n, 0, "of length 0");
	free(s);
}

static void
test_bytes(void)
{
	struct strbuf b = STRBUF_INIT;
	static const unsigned char want[] = {
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0, 'z'
	};

	strbuf_be64(&b, 0x0102030405060708ull);
	strbuf_add(&b, "\0z", 2);
	is_int((long long)b.len, 10, "eight bytes of a key, then two");
	ok(memcmp(b.s, want, sizeof want) == 0,
	    "most significant byte first; a NUL kept as a byte");
	strbuf_release(&b);
	ok(b.s == NULL && b.len == 0, "release empties it");
}

static void
test_ident(void)
{
	struct strbuf b = STRBUF_INIT;

	strbuf_ident(&b, "character");
	strbuf_addch(&b, ' ');
	strbuf_ident(&b, "a\"b\"\"");
	strbuf_addch(&b, ' ');
	strbuf_ident(&b, "");
	is_str(strbuf_text(&b), "\"character\" \"a\"\"b\"\"\"\"\" \"\"",
	    "identifiers quoted, their quotes doubled");
	strbuf_release(&b);
	strbuf_quoted(&b, "O'Brien's");
	is_str(strbuf_text(&b), "'O''Brien''s'",
	    "a literal quoted, its single quotes doubled");
	strbuf_release(&b);
}

static void
test_stream(void)
{
	struct strbuf b = STRBUF_INIT;
	FILE *fp = strbuf_stream(&b);
	char *s;
	size_t n;

	fprintf(fp, "round %d", 3);
	is_str(strbuf_text(&b), "round 3", "the text so far, stream open");
	fputs(": Fred attacks", fp);
	s = strbuf_detach(&b, &n);
	is_str(s, "round 3: Fred attacks", "detach closes the stream");
	is_int((long long)n, 21, "with its length");
	ok(b.fp == NULL, "and the buffer has no stream after");
	free(s);
	fp = strbuf_stream(&b);
	fputs("again", fp);
	strbuf_release(&b);
	ok(b.fp == NULL && b.s == NULL, "release closes a stream too");
	(void)strbuf_stream(&b);
	s = strbuf_detach(&b, NULL);
	is_str(s, "", "a stream that wrote nothing gives \"\"");
	free(s);
}

int
main(void)
{
	test_add();
	test_bytes();
	test_ident();
	test_stream();
	return tap_done();
}
