/*
 * test_writers.c - sync/writers.c: which changes here updated a row that
 * a change coming in had not seen.  A station's own changes are indexed
 * from the first one the coming change's seen list leaves out; an
 * update counts for the columns it set, an insert not at all; a change
 * added as it arrives counts too; a change seen counts for nothing.
 * Once the whole record is indexed, every change that touched a row is
 * found, and one added after it too.
 * (The conflicts it brings: tests/cli/sync-converge.sh.)
 */
#include "tap.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "db/db.h"
#include "db/gone.h"
#include "sync/writers.h"

#include <sqlite3.h>

/* Another station, which the coming change is from. */
#define OTHER	"0123456789abcdef0123456789abcdef"

static void
write_x(struct db *x, const char *sql)
{
	db_begin(x);
	db_exec(x, sql, "cannot write");
	db_commit(x);
}

/* A seen list naming station id up to number n. */
static void
seen_of(unsigned char *seen, const char *id, int64_t n)
{
	memcpy(seen, id, GONE_SEEN_LEN - 8);
	for (int k = 0; k < 8; k++)
		seen[GONE_SEEN_LEN - 8 + k] = (unsigned char)((uint64_t)n >>
		    (56 - 8 * k));
}

/* writers_unseen of item id for a change of OTHER's that saw self:n. */
static uint64_t
unseen(struct writers *w, struct db *db, const char *self, int64_t id,
    int64_t n)
{
	unsigned char seen[GONE_SEEN_LEN];
	sqlite3_value *pk = NULL;
	sqlite3_stmt *st = NULL;
	uint64_t cols;

	seen_of(seen, self, n);
	writers_cover(w, OTHER, 1, seen, n > 0 ? 1 : 0);
	if (sqlite3_prepare_v2(db->h, "SELECT ?1", -1, &st, NULL) ==
	    SQLITE_OK && sqlite3_bind_int64(st, 1, id) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		pk = sqlite3_value_dup(sqlite3_column_value(st, 0));
	(void)sqlite3_finalize(st);
	if (pk == NULL)
		return UINT64_MAX;
	cols = writers_unseen(w, "item", &pk, 1, OTHER, 1, seen,
	    n > 0 ? 1 : 0);
	sqlite3_value_free(pk);
	return cols;
}

/* How many changes touched item id, by writers_touching. */
static size_t
touching(struct writers *w, struct db *db, int64_t id)
{
	const struct writers_ref *refs;
	sqlite3_value *pk = NULL;
	sqlite3_stmt *st = NULL;
	size_t n = 0;

	if (sqlite3_prepare_v2(db->h, "SELECT ?1", -1, &st, NULL) ==
	    SQLITE_OK && sqlite3_bind_int64(st, 1, id) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		pk = sqlite3_value_dup(sqlite3_column_value(st, 0));
	(void)sqlite3_finalize(st);
	if (pk != NULL)
		n = writers_touching(w, "item", &pk, 1, &refs);
	sqlite3_value_free(pk);
	return n;
}

/* Adds x's change n of its own to w. */
static int
add(struct writers *w, struct db *x, const char *self, int64_t n)
{
	struct db_stmt *st = db_prepare(x, "SELECT c.data, r.data FROM "
	    DB_CHANGE_ROWS " WHERE c.oseq = ?1 AND c.origin = ?2");
	void *owned = NULL;
	size_t len = 0;
	const void *cs = NULL;
	int rc = -1;

	db_bind_int(st, 1, n);
	db_bind_text(st, 2, self);
	if (db_step(x, st, 0) == DB_ROW) {
		cs = db_change_data(st, 0, 1, &len, &owned);
		rc = writers_add(w, self, n, cs, len);
	}
	free(owned);
	db_finalize(st);
	return rc;
}

static void
test_unseen(const char *dir)
{
	char *px = xasprintf("%s/x.db", dir);
	struct db *x = db_open(px);
	struct writers *w;
	struct db_stmt *st;
	char self[33];

	write_x(x, "INSERT INTO item (id, name) VALUES (11, 'Lamp'),"
	    " (12, 'Rope')");
	write_x(x, "UPDATE item SET name = 'Lantern' WHERE id = 11");
	write_x(x, "UPDATE item SET mod_dr = 2 WHERE id = 11");
	st = db_prepare(x, "SELECT id FROM station_self");
	(void)db_step(x, st, 0);
	snprintf(self, sizeof self, "%s", db_column_text(st, 0));
	db_finalize(st);

	w = writers_new(x);
	is_int((int)unseen(w, x, self, 11, 3), 0,
	    "a change that saw all three: nothing unseen");
	ok(unseen(w, x, self, 11, 2) == WRITERS_BIT(3),
	    "one that saw two: mod_dr, set by the third");
	ok(unseen(w, x, self, 11, 1) == (WRITERS_BIT(1) | WRITERS_BIT(3)),
	    "one that saw the insert only: name and mod_dr");
	ok(unseen(w, x, self, 11, 0) == (WRITERS_BIT(1) | WRITERS_BIT(3)),
	    "one that saw nothing: the insert does not count");
	is_int((int)unseen(w, x, self, 12, 0), 0,
	    "a row only inserted: nothing");
	is_int((int)unseen(w, x, self, 99, 0), 0, "a row not here: nothing");
	writers_free(w);

	/* A change recorded as the apply goes on. */
	w = writers_new(x);
	is_int((int)unseen(w, x, self, 12, 3), 0, "Rope: nothing yet");
	write_x(x, "UPDATE item SET mod_or = 1 WHERE id = 12");
	is_int(add(w, x, self, 4), 0, "the fourth change added");
	ok(unseen(w, x, self, 12, 3) == WRITERS_BIT(2),
	    "Rope: mod_or, by the change added");
	is_int((int)unseen(w, x, self, 12, 4), 0,
	    "not for a change that saw it");
	writers_free(w);

	/* Every change that touched a row, once the record is indexed. */
	w = writers_new(x);
	writers_touch_all(w);
	is_int((int)touching(w, x, 11), 3, "Lamp: inserted, updated twice");
	is_int((int)touching(w, x, 12), 2, "Rope: inserted, updated once");
	is_int((int)touching(w, x, 99), 0, "no row: nothing");
	write_x(x, "DELETE FROM item WHERE id = 12");
	is_int(add(w, x, self, 5), 0, "the removal added");
	is_int((int)touching(w, x, 12), 3, "Rope: and removed");
	writers_free(w);
	db_close(x);
	free(px);
}

int
main(void)
{
	char dir[] = "/tmp/refkit-test-writers-XXXXXX";

	if (mkdtemp(dir) == NULL)
		return 1;
	test_unseen(dir);
	{
		char *cmd = xasprintf("rm -rf '%s'", dir);

		if (system(cmd) != 0)
			printf("# cannot remove %s\n", dir);
		free(cmd);
	}
	return tap_done();
}
