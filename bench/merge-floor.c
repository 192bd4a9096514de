/*
 * merge-floor.c - the floor of bench/merge.sh (issue #40): the station's
 * changesets applied to a hub by SQLite's own sqlite3changeset_apply_v2,
 * with nothing of refkit's around it: no gate, no conflict reported, no
 * change kept to travel on, no history added up.  It reads the same
 * changesets refkit merge reads (each change's data followed by its row
 * of change_rest, in the order they were written) and applies them to a
 * hub in the same starting state, in one transaction, foreign keys on
 * as refkit has them.  A conflict omits the change (refkit's merge of a
 * station into a new hub meets none).
 *   merge-floor HUB.db STATION.db
 */
#include <err.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

/* A conflict is passed over; a fresh hub has none. */
static int
on_conflict(void *arg, int why, sqlite3_changeset_iter *it)
{
	(void)arg;
	(void)why;
	(void)it;
	return SQLITE_CHANGESET_OMIT;
}

static void
run(sqlite3 *h, const char *sql)
{
	if (sqlite3_exec(h, sql, NULL, NULL, NULL) != SQLITE_OK)
		errx(1, "%s: %s", sql, sqlite3_errmsg(h));
}

int
main(int argc, char **argv)
{
	sqlite3 *h;
	sqlite3_stmt *at, *st;
	unsigned char *buf = NULL;
	size_t cap = 0;
	long n = 0;

	if (argc != 3)
		errx(2, "usage: merge-floor HUB.db STATION.db");
	if (sqlite3_open(argv[1], &h) != SQLITE_OK)
		errx(1, "%s: %s", argv[1], sqlite3_errmsg(h));
	run(h, "PRAGMA foreign_keys = ON");
	if (sqlite3_prepare_v2(h, "ATTACH ?1 AS s", -1, &at, NULL) != SQLITE_OK)
		errx(1, "%s", sqlite3_errmsg(h));
	sqlite3_bind_text(at, 1, argv[2], -1, SQLITE_STATIC);
	if (sqlite3_step(at) != SQLITE_DONE)
		errx(1, "%s: %s", argv[2], sqlite3_errmsg(h));
	sqlite3_finalize(at);
	run(h, "BEGIN IMMEDIATE");
	if (sqlite3_prepare_v2(h, "SELECT c.data, r.data FROM s.change c"
	    " LEFT JOIN s.change_rest r ON r.id = c.rest ORDER BY c.no", -1,
	    &st, NULL) != SQLITE_OK)
		errx(1, "%s", sqlite3_errmsg(h));
	while (sqlite3_step(st) == SQLITE_ROW) {
		size_t a = (size_t)sqlite3_column_bytes(st, 0);
		size_t b = (size_t)sqlite3_column_bytes(st, 1);

		/* A changeset in two rows is one buffer, as refkit reads it. */
		if (a + b > cap && (buf = realloc(buf, cap = a + b)) == NULL)
			err(1, "realloc");
		memcpy(buf, sqlite3_column_blob(st, 0), a);
		if (b > 0)
			memcpy(buf + a, sqlite3_column_blob(st, 1), b);
		if (sqlite3changeset_apply_v2(h, (int)(a + b), buf, NULL,
		    on_conflict, NULL, NULL, NULL,
		    SQLITE_CHANGESETAPPLY_NOSAVEPOINT) != SQLITE_OK)
			errx(1, "change %ld: %s", n + 1, sqlite3_errmsg(h));
		n++;
	}
	sqlite3_finalize(st);
	run(h, "COMMIT");
	run(h, "DETACH s");
	free(buf);
	if (sqlite3_close(h) != SQLITE_OK)
		errx(1, "close: %s", sqlite3_errmsg(h));
	return n > 0 ? 0 : 1;
}
