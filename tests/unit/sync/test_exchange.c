/*
 * test_exchange.c - sync/exchange.c, one station's changes taken in by
 * another (exchange_merge, exchange_apply_entry): the rows arrive, a
 * change taken in twice is known the second time, one whose earlier
 * change is missing is refused, a change kept in two parts (schema 17)
 * arrives whole, and the watched tables give the rows their changes
 * inserted, or ask for everything once a row of theirs changed.
 * (The conflicts and their settling: tests/cli/sync-merge*.sh and
 * tests/stress/sync-converge.sh.)
 */
#include "tap.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "db/db.h"
#include "sync/exchange.h"

#include <sqlite3.h>

static int64_t
int_of(struct db *db, const char *sql)
{
	struct db_stmt *st = db_prepare(db, sql);
	int64_t v = -1;

	if (db_step(db, st, 0) == DB_ROW)
		v = db_column_int(st, 0);
	db_finalize(st);
	return v;
}

/* A recorded write of x's: one transaction, one change. */
static void
write_x(struct db *x, const char *sql)
{
	db_begin(x);
	db_exec(x, sql, "cannot write");
	db_commit(x);
}

/*
 * Merges x into y with item and power watched; returns the merge's
 * result, with the apply left in a for the caller to look at and
 * release.
 */
static int
merge(struct db *y, struct db *x, struct exchange_apply *a, char *why,
    size_t whysz)
{
	int rc;

	exchange_apply_init(a, EXCHANGE_ASK);
	(void)exchange_watch(a, "item", "SELECT id FROM item"
	    " WHERE rowid BETWEEN ?1 AND ?2");
	(void)exchange_watch(a, "power", "SELECT id FROM power"
	    " WHERE rowid BETWEEN ?1 AND ?2");
	db_begin_read(x);
	y->unrecorded = 1;
	db_begin(y);
	rc = exchange_merge(y, x, a, why, whysz);
	if (rc == 0) {
		exchange_watched(y, a);
		exchange_finish(y, a);
		db_commit(y);
	} else
		db_rollback(y);
	y->unrecorded = 0;
	db_rollback(x);
	return rc;
}

static void
test_merge(const char *dir)
{
	char *px = xasprintf("%s/x.db", dir), *py = xasprintf("%s/y.db", dir);
	struct db *x = db_open(px), *y = db_open(py);
	struct exchange_apply a;
	char why[512];
	int64_t n;

	write_x(x, "INSERT INTO item (id, name) VALUES (11, 'Lamp')");
	write_x(x, "INSERT INTO item (id, name) VALUES (12, 'Rope'),"
	    " (13, 'Mail')");
	n = int_of(x, "SELECT count(*) FROM change");
	is_int(merge(y, x, &a, why, sizeof why), 0, "merged (%s)", why);
	is_int(a.applied, n, "every change of x's new at y");
	is_int(a.nwatch, 2, "two tables watched");
	is_int(a.watch[0].nvalues, 3, "the items inserted");
	ok(a.watch[0].nvalues == 3 && a.watch[0].values[0] == 11 &&
	    a.watch[0].values[2] == 13, "in order, each once");
	is_int(a.watch[0].all, 0, "no item changed");
	is_int(a.watch[1].nvalues, 0, "no power");
	exchange_apply_release(&a);
	is_int(int_of(y, "SELECT count(*) FROM item WHERE id IN (11, 12,"
	    " 13)"), 3, "the rows are at y");

	is_int(merge(y, x, &a, why, sizeof why), 0, "merged again");
	is_int(a.applied, 0, "nothing new");
	is_int(a.known, n, "every change known");
	exchange_apply_release(&a);

	/* A change kept in two parts, as a large import keeps it. */
	write_x(x, "INSERT INTO power (id, name, em) VALUES (21, 'Heal', 4)");
	is_int(sqlite3_exec(x->h, "INSERT INTO change_rest (id, data)"
	    " SELECT 77, substr(data, 11) FROM change WHERE no ="
	    " (SELECT max(no) FROM change); UPDATE change SET"
	    " data = substr(data, 1, 10), rest = 77 WHERE no ="
	    " (SELECT max(no) FROM change)", NULL, NULL, NULL), SQLITE_OK,
	    "x's newest change kept in two parts");
	write_x(x, "UPDATE item SET name = 'Lantern' WHERE id = 11");
	is_int(merge(y, x, &a, why, sizeof why), 0, "merged (%s)", why);
	is_int(a.applied, 2, "two changes new");
	is_int(int_of(y, "SELECT em FROM power WHERE id = 21"), 4,
	    "the change in two parts arrived whole");
	is_int(a.watch[1].nvalues, 1, "the power watched");
	is_int(a.watch[0].all, 1, "an item changed: everything asked for");
	exchange_apply_release(&a);
	db_close(x);
	db_close(y);
	free(px);
	free(py);
}

/* An entry whose station's earlier change is not here is refused. */
static void
test_gap(const char *dir)
{
	char *py = xasprintf("%s/gap.db", dir);
	struct db *y = db_open(py);
	struct exchange_apply a;
	struct changes_entry e;
	static const unsigned char cs[] = { 'T', 1, 1, 0, 0 };
	char why[512];

	memset(&e, 0, sizeof e);
	memset(e.origin, 'a', STATION_ID_LEN);
	e.oseq = 3;
	e.time = 1;
	e.changeset = cs;
	e.len = sizeof cs;
	exchange_apply_init(&a, EXCHANGE_ASK);
	y->unrecorded = 1;
	db_begin(y);
	is_int(exchange_apply_entry(y, &a, &e, why, sizeof why), -1,
	    "change 3 of a station none of whose changes is here");
	is_str(why, "change aaaaaaaa:3 builds on aaaaaaaa:1, which is not"
	    " here: take in an export with an earlier --since first",
	    "refused, naming the one missing");
	db_rollback(y);
	y->unrecorded = 0;
	exchange_apply_release(&a);
	db_close(y);
	free(py);
}

int
main(void)
{
	char dir[] = "/tmp/refkit-test-exchange-XXXXXX";

	if (mkdtemp(dir) == NULL)
		return 1;
	test_merge(dir);
	test_gap(dir);
	{
		char *cmd = xasprintf("rm -rf '%s'", dir);

		if (system(cmd) != 0)
			printf("# cannot remove %s\n", dir);
		free(cmd);
	}
	return tap_done();
}
