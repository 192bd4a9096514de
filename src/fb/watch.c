/*
 * fb/watch.c - a duel on the live board; see fb/watch.h.  The boards are
 * fb/text's status text, its first line the title and the lines of who
 * attacks under it in bold; the events are the log's lines.
 */
#include "fb/watch.h"

#include "db/db.h"
#include "core/journal.h"
#include "base/util.h"
#include "fb/text.h"
#include "fb/ledger.h"

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The status text of live, a line at a time in its ink. */
static void
boards(struct watch_frame *f, const char *key, const struct fbledger_live *l)
{
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	int n = 0, blank = 0, head = 0;

	if (fp == NULL)
		err(1, "out of memory");
	fbtext_status_text(fp, key, &l->b, l->np, &l->s);
	if (fclose(fp) != 0)
		err(1, "out of memory");
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

int
fbwatch_draw(void *arg, struct db *db, struct watch_frame *f, char *why,
    size_t whysz)
{
	const struct watch_log *w = arg;
	const char *typed = w->typed;
	struct fbledger_duel d;
	struct fbledger_live *live;
	int64_t id, bad = 0;
	char whyr[300];

	id = typed ? db_key_parse(db, typed) : journal_pick(db,
	    &fbledger_kind, w->gm, 1, whyr, sizeof whyr);
	if (id == 0 || fbledger_duel_load(db, id, &d) != 0)
		return watch_none("duel", typed,
		    "fb-duel start A B", why, whysz);
	live = xcalloc(1, sizeof *live);
	if (fbledger_derive(&d, live, &bad, whyr, sizeof whyr) != 0) {
		util_say(why, whysz, "duel %s: event %lld does not replay: %s",
		    db_key_str(db, id), (long long)bad, whyr);
		free(live);
		fbledger_duel_release(&d);
		return WATCH_NOTHING;
	}
	live->s.b = &live->b;
	boards(f, db_key_str(db, id), live);
	watch_put(f, WATCH_PLAIN, "\n");
	watch_events(f, &d.j, 'r', 8);
	free(live);
	fbledger_duel_release(&d);
	return 0;
}
