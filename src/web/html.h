/*
 * web/html.h - the player view's pages (refkit serve, web/serve.h) as
 * HTML: the convention's open logs and each log's live board, drawn by
 * the same board the terminal's watch draws (term/watch.h), every text
 * of a name or a note escaped.  A page is a shell around one fragment,
 * the part that changes, which the page's stream of events sends again
 * whenever the database changes (web/serve.c); the shell and the
 * fragment are made here, read in the caller's read transaction.
 */
#ifndef REFKIT_WEB_HTML_H
#define REFKIT_WEB_HTML_H

#include <stddef.h>
#include <stdint.h>

struct db;
struct strbuf;

/*
 * Adds the n bytes at s to o as HTML text: &, <, >, " and ' as
 * references, and every bidirectional control (U+061C, U+200E, U+200F,
 * U+202A to U+202E, U+2066 to U+2069) as U+FFFD, so that no name can
 * reorder what the page shows around it.
 */
void html_text(struct strbuf *o, const char *s, size_t n);

/*
 * What a path names, parsed (html_route): the convention ("/"), a log's
 * board ("/combat/3", "/duel/89abcdef-2"), or nothing.
 */
enum html_page { HTML_NONE, HTML_CONVENTION, HTML_BOARD, HTML_CHARACTER };
#define HTML_NAME_MAX	200
struct html_route {
	enum html_page	 page;
	const struct watch_board *board;	/* HTML_BOARD: its kind */
	char		 key[32];		/* ... the log's key as typed */
	char		 name[HTML_NAME_MAX + 1];	/* HTML_CHARACTER's */
	/*
	 * Not the path's but the request's, set by the caller: a
	 * character's sheet code (?sheet=) as given, "" if none; and
	 * whether the page is only for a client who shows that sheet,
	 * as it is now (one without the access code).
	 */
	char		 sheet[32];
	int		 locked;
};
/*
 * Parses path (without its query, its %XX already decoded) into r: a
 * page, or HTML_NONE for any other path, one with "..", a byte that is
 * not printable ASCII or a key that is not one (db/db.h, db_key_parse).
 * A character's page, /character/NAME, takes any name of valid UTF-8
 * without a control, up to HTML_NAME_MAX bytes.  The form only: whether
 * the log or the character is there is the fragment's to say.
 */
void html_route(const char *path, struct html_route *r);

/*
 * The fragment of r's page, read from db into o, for a board cols
 * columns wide.  Returns 200, or 404 with o saying that there is no
 * such log or character.  A character's page with a sheet code says
 * whether it is the sheet's code as it would print now; a locked one
 * is 403, saying nothing of the character, unless it is.  The
 * convention's page shows day, the day's figures (kinds_day) as of
 * its time at, unless day is NULL.
 */
struct kinds_day;
int html_fragment(struct strbuf *o, struct db *db,
    const struct html_route *r, int cols, const struct kinds_day *day,
    int64_t at);

/*
 * The fragment of a page that cannot be drawn because the database
 * failed (a server gone): why, and that the page tries again itself.
 */
void html_failure(struct strbuf *o, const char *why);

/*
 * The whole page: title, the fragment, and what keeps it live: the
 * stream of events at events (a path of this server), read by
 * /live.js, or without scripts a reload every refresh seconds.
 */
void html_page(struct strbuf *o, const char *title, const char *fragment,
    size_t len, const char *events, int refresh);

/* The title of r's page ("combat 3", "refkit"). */
void html_title(const struct html_route *r, char *buf, size_t sz);

/*
 * Adds path to o as a URL's path: each byte that is not a letter, a
 * digit, '-', '.', '_', '~' or '/' as %XX.
 */
void html_url_path(struct strbuf *o, const char *path);

/* The two files every page loads: its style and its script. */
extern const char html_css[];
extern const char html_js[];

#endif
