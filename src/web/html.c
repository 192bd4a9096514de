/*
 * web/html.c - the player view's pages as HTML; see web/html.h.
 */
#include "web/html.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/util.h"
#include "base/when.h"
#include "core/journal.h"
#include "db/chain.h"
#include "db/db.h"
#include "kinds/kinds.h"
#include "term/watch.h"

/* The rows a board is drawn with: a phone scrolls the rest. */
#define BOARD_ROWS	60

/* Whether the code point of the n bytes at s is a bidirectional control. */
static int
bidi_control(const unsigned char *s, int n)
{
	uint32_t c;

	if (n == 2)
		return s[0] == 0xd8 && s[1] == 0x9c;	/* U+061C */
	if (n != 3)
		return 0;
	c = (uint32_t)(s[0] & 0x0f) << 12 | (uint32_t)(s[1] & 0x3f) << 6 |
	    (s[2] & 0x3f);
	return c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) ||
	    (c >= 0x2066 && c <= 0x2069);
}

void
html_text(struct strbuf *o, const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		int k;

		switch (c) {
		case '&': strbuf_addstr(o, "&amp;"); i++; continue;
		case '<': strbuf_addstr(o, "&lt;"); i++; continue;
		case '>': strbuf_addstr(o, "&gt;"); i++; continue;
		case '"': strbuf_addstr(o, "&quot;"); i++; continue;
		case '\'': strbuf_addstr(o, "&#39;"); i++; continue;
		default: break;
		}
		if (c < 0x80) {
			/* A control other than a line's end shows as '?'. */
			strbuf_addch(o, c < 0x20 && c != '\n' ? '?' : c);
			i++;
			continue;
		}
		if ((k = util_utf8_len(s + i, n - i)) == 0) {
			strbuf_addstr(o, "\xef\xbf\xbd");
			i++;
			continue;
		}
		if (bidi_control((const unsigned char *)s + i, k))
			strbuf_addstr(o, "\xef\xbf\xbd");
		else
			strbuf_add(o, s + i, (size_t)k);
		i += (size_t)k;
	}
}

static void
html_str(struct strbuf *o, const char *s)
{
	if (s != NULL)
		html_text(o, s, strlen(s));
}

/* A key as a URL and users type it: digits, or eight hex digits, '-', digits. */
static int
key_form(const char *s)
{
	size_t n = strlen(s), d;

	if (n == 0 || n > 20)
		return 0;
	d = strspn(s, "0123456789");
	if (d == n)
		return d <= 10;
	return n > 9 && strspn(s, "0123456789abcdef") == 8 && s[8] == '-' &&
	    strspn(s + 9, "0123456789") == n - 9 && n - 9 <= 10;
}

void
html_route(const char *path, struct html_route *r)
{
	const char *slash;
	char what[16];
	size_t n;

	memset(r, 0, sizeof *r);
	r->page = HTML_NONE;
	if (strncmp(path, "/character/", 11) == 0) {
		const char *name = path + 11;

		if ((n = strlen(name)) == 0 || n > HTML_NAME_MAX)
			return;
		for (size_t i = 0; i < n;) {
			unsigned char c = (unsigned char)name[i];
			int k;

			if (c < 0x80) {
				if (c < 0x20 || c == 0x7f)
					return;
				i++;
			} else if ((k = util_utf8_len(name + i, n - i)) == 0)
				return;
			else
				i += (size_t)k;
		}
		memcpy(r->name, name, n + 1);
		r->page = HTML_CHARACTER;
		return;
	}
	for (const char *p = path; *p != '\0'; p++)
		if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f)
			return;
	if (strstr(path, "..") != NULL || path[0] != '/')
		return;
	if (strcmp(path, "/") == 0) {
		r->page = HTML_CONVENTION;
		return;
	}
	if ((slash = strchr(path + 1, '/')) == NULL ||
	    (n = (size_t)(slash - path - 1)) >= sizeof what)
		return;
	memcpy(what, path + 1, n);
	what[n] = '\0';
	if ((r->board = kinds_board(what)) == NULL || !key_form(slash + 1) ||
	    db_key_parse(NULL, slash + 1) == 0)
		return;
	snprintf(r->key, sizeof r->key, "%s", slash + 1);
	r->page = HTML_BOARD;
}

void
html_title(const struct html_route *r, char *buf, size_t sz)
{
	if (r->page == HTML_BOARD)
		snprintf(buf, sz, "%s %s", r->board->kind->what, r->key);
	else if (r->page == HTML_CHARACTER)
		snprintf(buf, sz, "%s", r->name);
	else
		snprintf(buf, sz, "refkit");
}

void
html_url_path(struct strbuf *o, const char *path)
{
	/* Each part between its slashes as strbuf_url writes it. */
	while (*path != '\0') {
		size_t n = strcspn(path, "/");
		char *part = xstrndup(path, n);

		strbuf_url(o, part);
		free(part);
		path += n;
		if (*path == '/')
			strbuf_addch(o, *path++);
	}
}

/* The frame as lines of text, each run of one ink a span of its class. */
static void
frame_html(struct strbuf *o, const struct watch_frame *f)
{
	strbuf_addstr(o, "<pre class=\"board\" dir=\"ltr\">");
	for (size_t y = 0, n = watch_frame_lines(f); y < n; y++) {
		const unsigned char *ink;
		size_t len, i = 0;
		const char *t = watch_frame_line(f, y, &ink, &len);

		while (i < len) {
			size_t j = i;

			while (j < len && ink[j] == ink[i])
				j++;
			if (ink[i] != WATCH_PLAIN)
				strbuf_addf(o, "<span class=\"k%d\">", ink[i]);
			html_text(o, t + i, j - i);
			if (ink[i] != WATCH_PLAIN)
				strbuf_addstr(o, "</span>");
			i = j;
		}
		strbuf_addch(o, '\n');
	}
	strbuf_addstr(o, "</pre>");
}

/* A log's board: the frame watch draws, and its chain's head. */
static int
board_fragment(struct strbuf *o, struct db *db, const struct html_route *r,
    int cols)
{
	const struct watch_board *b = r->board;
	int64_t id = db_key_parse(db, r->key), bad = 0;
	struct watch_frame *f;
	struct chain_head h;
	char why[600], hex[CHAIN_HEX_LEN];
	int rc;

	f = watch_frame_new(cols, BOARD_ROWS);
	watch_frame_styled(f);
	rc = id != 0 ? b->draw(db, id, f, &bad, why, sizeof why) :
	    WATCH_NO_LOG;
	if (rc == WATCH_NO_LOG) {
		watch_frame_free(f);
		strbuf_addf(o, "<p class=\"none\">There is no %s ",
		    b->kind->what);
		html_str(o, r->key);
		strbuf_addstr(o, " in this database.</p>"
		    "<p><a href=\"/\">Everything under way</a></p>");
		return 404;
	}
	if (rc == WATCH_NOTHING) {
		strbuf_addf(o, "<p class=\"none\">Event %" PRId64 " of this "
		    "%s does not replay: ", bad, b->kind->what);
		html_str(o, why);
		strbuf_addstr(o, "</p>");
	} else
		frame_html(o, f);
	watch_frame_free(f);
	chain_head_get(db, b->kind->what, id, &h);
	if (h.have) {
		chain_hex(h.hash, hex);
		strbuf_addf(o, "<p class=\"head\">Chain head after event "
		    "%" PRId64 ": <code>%s</code></p>", h.seq, hex);
	}
	strbuf_addstr(o, "<p><a href=\"/\">Everything under way</a></p>");
	return 200;
}

/*
 * before, then n and its noun, singular or plural ("1 round", "3
 * rounds").
 */
static void
count(struct strbuf *o, const char *before, int64_t n, const char *one,
    const char *many)
{
	strbuf_addf(o, "%s<b>%" PRId64 "</b> %s", before, n,
	    n == 1 ? one : many);
}

/*
 * The day's figures, those of the organiser's report: the combats, what
 * was done in them, the busiest hour, who dealt the most damage and the
 * most frequent matchup.
 */
static void
day_fragment(struct strbuf *o, const struct kinds_day *d, int64_t at)
{
	char t[WHEN_LOCAL_SIZE];

	strbuf_addstr(o, "<section class=\"day\"><h2>The day so far</h2>");
	if (d->combats == 0 && d->idle == 0) {
		strbuf_addstr(o, "<p class=\"none\">No combat has begun today."
		    "</p>");
	} else {
		count(o, "<p id=\"day-combats\">", d->combats, "combat",
		    "combats");
		strbuf_addf(o, " with a strike (%" PRId64 " ended)",
		    d->finished);
		if (d->idle > 0)
			count(o, " and ", d->idle, "without", "without");
		count(o, ": ", d->strikes, "strike", "strikes");
		count(o, " in ", d->rounds, "round", "rounds");
		count(o, ", ", d->dealt, "point of damage", "points of damage");
		count(o, ", ", d->downs, "down", "downs");
		count(o, ", ", d->fumbles, "fumble", "fumbles");
		count(o, ", ", d->rulings, "GM ruling", "GM rulings");
		strbuf_addstr(o, ".</p><ul>");
		if (d->busiest > 0) {
			when_clock(t, sizeof t, d->busiest_hour);
			strbuf_addf(o, "<li>The busiest hour: from %.5s", t);
			count(o, ", ", d->busiest, "combat", "combats");
			strbuf_addstr(o, " begun.</li>");
		}
		if (d->top[0] != '\0') {
			strbuf_addstr(o, "<li>The most damage dealt: <bdi>");
			html_str(o, d->top);
			strbuf_addf(o, "</bdi>, %" PRId64 ".</li>", d->top_dealt);
		}
		if (d->count > 0) {
			strbuf_addstr(o, "<li>The most frequent matchup: <bdi>");
			html_str(o, d->attacker);
			strbuf_addstr(o, "</bdi> on <bdi>");
			html_str(o, d->target);
			strbuf_addf(o, "</bdi>, %s", d->kind);
			count(o, ", ", d->count, "time", "times");
			if (d->known)
				strbuf_addf(o, ", P(hit) %.1f%%",
				    100 * d->p_hit);
			strbuf_addstr(o, ".</li>");
		}
		strbuf_addstr(o, "</ul>");
	}
	when_clock(t, sizeof t, at);
	strbuf_addf(o, "<p class=\"as-of\">As of %s; the organiser's report "
	    "(crs-combat report) has the rest.</p></section>", t);
}

/* The open logs of every kind, each a link to its board. */
static int
convention_fragment(struct strbuf *o, struct db *db)
{
	size_t total = 0;

	for (size_t k = 0; kinds_all[k] != NULL; k++) {
		const struct journal_kind *kind = kinds_all[k];
		struct journal_open *v;
		size_t n;

		v = journal_open_list(db, kind, NULL, &n);
		total += n;
		if (n == 0) {
			journal_open_free(v, n);
			continue;
		}
		strbuf_addf(o, "<h2>%ss under way</h2><table><thead><tr>"
		    "<th>%s</th><th>GM</th><th>round</th><th>last</th>"
		    "<th>sides</th></tr></thead><tbody>", kind->what,
		    kind->what);
		for (size_t i = 0; i < n; i++) {
			const char *key = db_key_str(db, v[i].log);

			strbuf_addf(o, "<tr><td><a href=\"/%s/", kind->what);
			html_str(o, key);
			strbuf_addstr(o, "\">");
			html_str(o, key);
			strbuf_addstr(o, "</a></td><td>");
			html_str(o, v[i].gm);
			strbuf_addf(o, "</td><td>%" PRId64 "</td><td class=\"w\">",
			    v[i].round);
			html_str(o, v[i].action);
			if (v[i].actor != NULL) {
				strbuf_addch(o, ' ');
				html_str(o, v[i].actor);
			}
			strbuf_addstr(o, "</td><td class=\"w\">");
			html_str(o, v[i].sides);
			strbuf_addstr(o, "</td></tr>");
		}
		strbuf_addstr(o, "</tbody></table>");
		journal_open_free(v, n);
	}
	if (total == 0)
		strbuf_addstr(o, "<p class=\"none\">Nothing is under way: no "
		    "combat, duel or game has begun, or every one has "
		    "ended.</p>");
	return 200;
}

void
html_failure(struct strbuf *o, const char *why)
{
	strbuf_addstr(o, "<p class=\"failure\">The database cannot be read "
	    "now: ");
	html_str(o, why);
	strbuf_addstr(o, ". This page shows it again as soon as it can.</p>");
}

/* Each combat a character fights in, a link to its board. */
struct in_combat {
	struct db	*db;
	struct strbuf	*o;
	int		 n;
};

static void
in_combat(void *arg, int64_t log, const int *fig)
{
	struct in_combat *c = arg;
	const char *key = db_key_str(c->db, log);

	if (c->n++ == 0)
		strbuf_addstr(c->o, "<h2>In combat now</h2><ul>");
	strbuf_addstr(c->o, "<li><a href=\"/combat/");
	html_str(c->o, key);
	strbuf_addstr(c->o, "\">combat ");
	html_str(c->o, key);
	strbuf_addstr(c->o, "</a>: ");
	if (fig[KINDS_LIFE] < 0)
		strbuf_addstr(c->o, "its board says why it cannot be read");
	else {
		strbuf_addf(c->o, "LIFE <b class=\"%s\">%d</b>/%d",
		    fig[KINDS_LIFE] <= 0 ? "k8" : 2 * fig[KINDS_LIFE] <
		    fig[KINDS_LIFE_MAX] ? "k7" : "k6", fig[KINDS_LIFE],
		    fig[KINDS_LIFE_MAX]);
		if (fig[KINDS_EM_MAX] > 0)
			strbuf_addf(c->o, ", EM <b class=\"k9\">%d</b>/%d",
			    fig[KINDS_EM], fig[KINDS_EM_MAX]);
	}
	strbuf_addstr(c->o, "</li>");
}

/* What a character's page says of the sheet code it was given, if any. */
static void
sheet_said(struct strbuf *o, enum kinds_sheet check, const char *code)
{
	switch (check) {
	case KINDS_SHEET_MATCH:
		strbuf_addf(o, "<p class=\"sheet-ok\">The sheet with the code "
		    "<code>%s</code> is this character's as it is now.</p>",
		    code);
		break;
	case KINDS_SHEET_OTHER:
		strbuf_addf(o, "<p class=\"failure\">The sheet with the code "
		    "<code>%s</code> is not this character's as it is now: it "
		    "was printed before a change, or it is another "
		    "character's. The GM can print it again.</p>", code);
		break;
	case KINDS_SHEET_NOT_CODE:
		strbuf_addstr(o, "<p class=\"failure\">The sheet code given "
		    "is not one: a code is 16 letters and digits, in four "
		    "groups.</p>");
		break;
	case KINDS_SHEET_NOBODY:
		break;
	}
}

/* A character's page: the sheet, the event's history, its combats now. */
static int
character_fragment(struct strbuf *o, struct db *db, const struct html_route *r)
{
	struct strbuf sheet = STRBUF_INIT, history = STRBUF_INIT;
	struct in_combat c = { db, NULL, 0 };
	struct strbuf links = STRBUF_INIT;
	enum kinds_sheet check = KINDS_SHEET_NOBODY;
	char code[KINDS_SHEET_CODE_LEN + 1] = "";
	int rc;

	char *ts, *th;
	size_t ns, nh;

	if (r->sheet[0] != '\0')
		check = kinds_sheet_check(db, r->name, r->sheet, code);
	if (r->locked && check != KINDS_SHEET_MATCH) {
		strbuf_addstr(o, "<p class=\"failure\">This page needs the "
		    "access code that refkit serve printed, or the code of "
		    "this character's sheet as it would print now (its QR "
		    "code).</p>");
		return 403;
	}
	c.o = &links;
	rc = kinds_character(db, r->name, strbuf_stream(&sheet),
	    strbuf_stream(&history), in_combat, &c);
	ts = strbuf_detach(&sheet, &ns);
	th = strbuf_detach(&history, &nh);
	if (rc != 0) {
		strbuf_addstr(o, "<p class=\"none\">There is no character ");
		html_str(o, r->name);
		strbuf_addstr(o, " in this roster.</p><p><a href=\"/\">"
		    "Everything under way</a></p>");
		free(ts);
		free(th);
		strbuf_release(&links);
		return 404;
	}
	sheet_said(o, check, code);
	strbuf_addstr(o, "<pre class=\"sheet\" dir=\"ltr\">");
	html_text(o, ts, ns);
	strbuf_addstr(o, "</pre><p>This event: ");
	html_text(o, th, nh);
	strbuf_addstr(o, "</p>");
	free(ts);
	free(th);
	if (c.n > 0) {
		strbuf_add(o, links.s, links.len);
		strbuf_addstr(o, "</ul>");
	} else
		strbuf_addstr(o, "<p class=\"none\">In no combat under way."
		    "</p>");
	strbuf_addstr(o, "<p><a href=\"/\">Everything under way</a></p>");
	strbuf_release(&links);
	return 200;
}

int
html_fragment(struct strbuf *o, struct db *db, const struct html_route *r,
    int cols, const struct kinds_day *day, int64_t at)
{
	if (r->page == HTML_BOARD)
		return board_fragment(o, db, r, cols);
	if (r->page == HTML_CHARACTER)
		return character_fragment(o, db, r);
	if (day != NULL)
		day_fragment(o, day, at);
	return convention_fragment(o, db);
}

void
html_page(struct strbuf *o, const char *title, const char *fragment,
    size_t len, const char *events, int refresh)
{
	strbuf_addstr(o, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
	    "<meta charset=\"utf-8\">"
	    "<meta name=\"viewport\" content=\"width=device-width, "
	    "initial-scale=1\">");
	strbuf_addf(o, "<noscript><meta http-equiv=\"refresh\" "
	    "content=\"%d\"></noscript>", refresh);
	strbuf_addstr(o, "<title>");
	html_str(o, title);
	strbuf_addstr(o, "</title><link rel=\"stylesheet\" href=\"/style.css\">"
	    "<script src=\"/live.js\" defer></script></head><body><h1>");
	html_str(o, title);
	strbuf_addstr(o, "</h1><main id=\"live\" data-events=\"");
	html_str(o, events);
	strbuf_addstr(o, "\">");
	strbuf_add(o, fragment, len);
	strbuf_addstr(o, "</main></body></html>\n");
}

/* The inks of term/watch.h, as the terminal shows them on a dark screen. */
const char html_css[] =
    "body{background:#111;color:#ddd;font-family:sans-serif;margin:0.5em}"
    "h1{font-size:1.2em;margin:0.2em 0}h2{font-size:1em}"
    "a{color:#8cf}table{border-collapse:collapse}"
    "td,th{padding:0.15em 0.5em;text-align:left;border-bottom:1px solid #333}"
    "th{white-space:nowrap}td.w{overflow-wrap:anywhere}"
    "pre.sheet{font-family:'DejaVu Sans Mono',monospace;"
    "font-size:min(15px,3.2vw);unicode-bidi:isolate;white-space:pre-wrap;"
    "overflow-wrap:anywhere}"
    "pre.board{font-family:'DejaVu Sans Mono',monospace;"
    "font-size:min(15px,2.4vw);line-height:1.25;overflow-x:auto;"
    "unicode-bidi:isolate}"
    "code{word-break:break-all}.none{color:#aaa}"
    ".failure{color:#f77;font-weight:bold}.sheet-ok{color:#5d5}"
    ".as-of{color:#aaa;font-size:0.85em}"
    "#live[data-live=on]::before{content:'\\25cf  live';color:#5d5;"
    "font-size:0.8em}"
    "#live[data-live=off]::before{content:'\\25cb  reconnecting';"
    "color:#dd5;font-size:0.8em}"
    ".k1{font-weight:bold}.k2{color:#888}"
    ".k3{background:#ddd;color:#111}.k4{font-weight:bold;color:#fff}"
    ".k5{background:#ddd;color:#111;font-weight:bold}"
    ".k6{color:#5d5}.k7{color:#dd5}.k8{color:#f55}.k9{color:#5dd}"
    ".k10{background:#c33;color:#000}.k11{background:#e83;color:#000}"
    ".k12{background:#dd3;color:#000}.k13{background:#3b3;color:#000}"
    ".k14{background:#36d;color:#000}.k15{background:#a4c;color:#000}"
    ".k16{background:#eee;color:#000}.k17{background:#888;color:#000}\n";

/*
 * The page's fragment, sent again by the server as an event "board"
 * whenever it changes, the page marked live while its stream is open
 * (data-live, which the style shows); a browser without scripts
 * reloads the page instead (its <noscript> refresh).
 */
const char html_js[] =
    "(function () {\n"
    "\tvar m = document.getElementById('live');\n"
    "\tif (!m || !window.EventSource)\n"
    "\t\treturn;\n"
    "\tvar s = new EventSource(m.getAttribute('data-events'));\n"
    "\ts.addEventListener('open', function () {\n"
    "\t\tm.setAttribute('data-live', 'on');\n"
    "\t});\n"
    "\ts.addEventListener('error', function () {\n"
    "\t\tm.setAttribute('data-live', 'off');\n"
    "\t});\n"
    "\ts.addEventListener('board', function (e) {\n"
    "\t\tm.innerHTML = e.data;\n"
    "\t});\n"
    "})();\n";
