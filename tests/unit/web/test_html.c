/*
 * test_html.c - the player view's HTML (web/html.h): what a name becomes
 * on a page (every markup character a reference, every bidirectional
 * control U+FFFD, a control or a broken byte never itself), and which
 * paths name a page.
 */
#include "tap.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "core/journal.h"
#include "term/watch.h"
#include "web/html.h"

static char *
text(const char *s, size_t n)
{
	struct strbuf o = STRBUF_INIT;

	html_text(&o, s, n);
	return o.s != NULL ? strbuf_detach(&o, NULL) : calloc(1, 1);
}

static void
is_text(const char *in, const char *want, const char *what)
{
	char *got = text(in, strlen(in));

	is_str(got, want, "%s", what);
	free(got);
}

static void
route(const char *path, enum html_page page, const char *what,
    const char *key)
{
	struct html_route r;

	html_route(path, &r);
	is_int(r.page, page, "%s: the page", path);
	if (page == HTML_BOARD) {
		is_str(r.board->kind->what, what, "%s: the kind", path);
		is_str(r.key, key, "%s: the key", path);
	}
}

int
main(void)
{
	char *got;

	is_text("Ann", "Ann", "plain text as it is");
	is_text("<script>alert('x')</script>",
	    "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;",
	    "markup as references");
	is_text("Bob & \"Co\"", "Bob &amp; &quot;Co&quot;", "& and quotes");
	is_text("Zo\xc3\xab", "Zo\xc3\xab", "UTF-8 as it is");
	is_text("Eve\xe2\x80\xaelin", "Eve\xef\xbf\xbdlin", "U+202E replaced");
	is_text("a\xe2\x80\x8e" "b\xe2\x80\x8f" "c\xe2\x80\xaa" "d",
	    "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c\xef\xbf\xbd" "d",
	    "U+200E, U+200F, U+202A replaced");
	is_text("x\xe2\x81\xa6y\xe2\x81\xa9z", "x\xef\xbf\xbdy\xef\xbf\xbdz",
	    "U+2066 and U+2069 replaced");
	is_text("\xd8\x9c" "ab", "\xef\xbf\xbd" "ab", "U+061C replaced");
	is_text("\xe2\x80\x8d", "\xe2\x80\x8d",
	    "U+200D (a joiner, not a control of direction) kept");
	is_text("a\xff" "b\xc3", "a\xef\xbf\xbd" "b\xef\xbf\xbd",
	    "broken UTF-8 as U+FFFD");
	is_text("a\tb\x1b[31m", "a?b?[31m", "controls as '?'");
	is_text("two\nlines", "two\nlines", "a line's end kept");
	got = text("a\0b", 3);
	is_str(got, "a?b", "a NUL as '?'");
	free(got);

	route("/", HTML_CONVENTION, NULL, NULL);
	route("/combat/3", HTML_BOARD, "combat", "3");
	route("/duel/12", HTML_BOARD, "duel", "12");
	route("/game/89abcdef-2", HTML_BOARD, "game", "89abcdef-2");
	route("/combat/89ABCDEF-2", HTML_NONE, NULL, NULL);
	route("/combat/0", HTML_NONE, NULL, NULL);
	route("/combat/", HTML_NONE, NULL, NULL);
	route("/combat/3/", HTML_NONE, NULL, NULL);
	route("/combat/12345678901", HTML_NONE, NULL, NULL);
	route("/combat/1x", HTML_NONE, NULL, NULL);
	route("/rolls/1", HTML_NONE, NULL, NULL);
	route("/combat/../etc/passwd", HTML_NONE, NULL, NULL);
	route("/..", HTML_NONE, NULL, NULL);
	route("//", HTML_NONE, NULL, NULL);
	route("/combat/3 x", HTML_NONE, NULL, NULL);
	route("/combat/3\xc3\xa9", HTML_NONE, NULL, NULL);
	route("combat/3", HTML_NONE, NULL, NULL);
	route("/index.html", HTML_NONE, NULL, NULL);
	route("/character/Ann", HTML_CHARACTER, NULL, NULL);
	route("/character/Bob & \"Co\" / 2", HTML_CHARACTER, NULL, NULL);
	route("/character/Zo\xc3\xab", HTML_CHARACTER, NULL, NULL);
	route("/character/", HTML_NONE, NULL, NULL);
	route("/character/A\x01" "B", HTML_NONE, NULL, NULL);
	route("/character/A\x7f" "B", HTML_NONE, NULL, NULL);
	route("/character/A\xff" "B", HTML_NONE, NULL, NULL);
	{
		char name[12 + HTML_NAME_MAX + 2];
		struct html_route r;

		memcpy(name, "/character/", 11);
		memset(name + 11, 'x', HTML_NAME_MAX);
		name[11 + HTML_NAME_MAX] = '\0';
		html_route(name, &r);
		is_int(r.page, HTML_CHARACTER, "a name of HTML_NAME_MAX bytes");
		is_int(strlen(r.name), HTML_NAME_MAX, "... kept whole");
		name[11 + HTML_NAME_MAX] = 'x';
		name[12 + HTML_NAME_MAX] = '\0';
		html_route(name, &r);
		is_int(r.page, HTML_NONE, "a name over HTML_NAME_MAX bytes");
	}
	{
		struct strbuf o = STRBUF_INIT;

		html_url_path(&o, "/character/Bob & \"Co\"/\xc3\xab");
		is_str(o.s, "/character/Bob%20%26%20%22Co%22/%C3%AB",
		    "a path as a URL's");
		strbuf_release(&o);
	}
	return tap_done();
}
