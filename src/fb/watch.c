/*
 * fb/watch.c - a duel on the live board; see fb/watch.h.  The boards are
 * fb/text's status text, its first line the title and the lines of who
 * attacks under it in bold; the events are the log's lines.
 */
#include "fb/watch.h"

#include "db/db.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "fb/text.h"
#include "fb/ledger.h"

#include <stdlib.h>
#include <string.h>

/* The status text of live, a line at a time in its ink. */
static void
boards(struct watch_frame *f, const char *key, const struct fbledger_live *l)
{
	struct strbuf b = STRBUF_INIT;
	char *text, *line, *save = NULL;
	int n = 0, blank = 0, head = 0;

	fbtext_status_text(strbuf_stream(&b), key, &l->b, l->np, &l->s,
	    watch_cols(f));
	text = strbuf_detach(&b, NULL);
	/* strtok_r would pass over the blank line: split by hand. */
	for (line = text; line && *line; line = save) {
		if ((save = strchr(line, '\n')) != NULL)
			*save++ = '\0';
		if (n == 0) {
			watch_put(f, WATCH_TITLE, " %s", line);
			watch_fill(f, WATCH_TITLE);
			watch_put(f, WATCH_PLAIN, "\n");
		} else if (*line == '\0') {
			watch_put(f, WATCH_PLAIN, "\n");
			/* The table's first line names the duelists. */
			head = ++blank == 1;
		} else {
			watch_put(f, blank == 0 ? WATCH_BOLD : head ?
			    WATCH_HEAD : WATCH_PLAIN, "%s\n", line);
			head = 0;
		}
		n++;
	}
	free(text);
}

/* Draws duel id (struct watch_board): the boards, then the events. */
static int
draw(struct db *db, int64_t id, struct watch_frame *f, int64_t *bad,
    char *why, size_t whysz)
{
	struct fbledger_duel d;
	struct fbledger_live *live;
	int rc = 0;

	if (fbledger_duel_load(db, id, &d) != 0)
		return WATCH_NO_LOG;
	live = xcalloc(1, sizeof *live);
	if (fbledger_derive(&d, live, bad, why, whysz) != 0)
		rc = WATCH_NOTHING;
	else {
		live->s.b = &live->b;
		boards(f, db_key_str(db, id), live);
		watch_put(f, WATCH_PLAIN, "\n");
		watch_events(f, &d.j, 'r', 8);
	}
	free(live);
	fbledger_duel_release(&d);
	return rc;
}

const struct watch_board fbwatch_board = {
	.kind = &fbledger_kind,
	.start = "fb-duel start A B",
	.draw = draw,
};
