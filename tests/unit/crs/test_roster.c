/*
 * test_roster.c - characters, items, powers and holdings in a real
 * database file, and the bulk import, with a second connection to the
 * same file standing in for another GM.
 */
#include <sqlite3.h>
#include "tap.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crs/roster.h"
#include "db/db.h"
#include "base/util.h"

static int
count(void *arg, const struct sheet *sh)
{
	(void)sh;
	++*(int *)arg;
	return 0;
}

/* Another GM's connection to the same file; it never waits for a lock. */
static sqlite3 *other;

static int
other_exec(const char *sql)
{
	return sqlite3_exec(other, sql, NULL, NULL, NULL);
}

/* Another GM adds a character, keyed as refkit keys it (db.h). */
static int
other_add(const char *name)
{
	char sql[256];

	snprintf(sql, sizeof sql, "INSERT INTO character (id, name, created,"
	    " updated) VALUES (%lld, '%s', 0, 0)", (long long)db_name_key(name),
	    name);
	return other_exec(sql);
}

/* Another GM renames a character, as refkit does: key and holdings. */
static void
other_rename(const char *from, const char *to)
{
	char sql[512];
	long long a = db_name_key(from), b = db_name_key(to);

	snprintf(sql, sizeof sql, "BEGIN;"
	    " UPDATE holds_item SET character_id = %lld WHERE character_id = %lld;"
	    " UPDATE holds_power SET character_id = %lld WHERE character_id = %lld;"
	    " UPDATE character SET id = %lld, name = '%s' WHERE id = %lld;"
	    " COMMIT", b, a, b, a, b, to, a);
	(void)other_exec(sql);
}

/* 1 if the other connection can take the write lock and write now. */
static int
other_can_write(void)
{
	int rc = other_exec("BEGIN IMMEDIATE");

	if (rc != SQLITE_OK)
		return 0;
	rc = other_exec("INSERT INTO combat (created) VALUES (0)");
	return other_exec("COMMIT") == SQLITE_OK && rc == SQLITE_OK;
}

/* A sheet with name, STR and, when not NULL, ';'-joined lists. */
static void
make(struct sheet *sh, const char *name, const char *str,
    const char *items, const char *powers)
{
	char why[160];

	sheet_release(sh);
	sheet_set_field(sh, SHEET_F_NAME, name, why, sizeof why);
	sheet_set_field(sh, SHEET_F_PRIMARY + P_STR, str, why, sizeof why);
	if (items)
		sheet_set_field(sh, SHEET_F_ITEMS, items, why, sizeof why);
	if (powers)
		sheet_set_field(sh, SHEET_F_POWERS, powers, why, sizeof why);
}

/*
 * Stages name (holdings when items or powers is not NULL); *missing is
 * copied, as the sheet it points into is released here.
 */
static enum roster_result
stage(struct roster_import *im, const char *name, const char *str,
    const char *items, const char *powers, const char **missing)
{
	static char copy[64];
	char where[32];
	struct sheet sh;
	enum roster_result r;

	sheet_init(&sh);
	make(&sh, name, str, items, powers);
	*missing = NULL;
	snprintf(where, sizeof where, "line %ld", im->nrows + 2);
	r = roster_import_stage(im, &sh, items != NULL || powers != NULL,
	    where, missing);
	if (*missing != NULL) {
		snprintf(copy, sizeof copy, "%s", *missing);
		*missing = copy;
	}
	sheet_release(&sh);
	return r;
}

/* The id of a character, as the other connection sees it. */
static int64_t
other_id(const char *name)
{
	sqlite3_stmt *st;
	int64_t id = 0;

	sqlite3_prepare_v2(other, "SELECT id FROM character WHERE name = ?1",
	    -1, &st, NULL);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

/* The character's STR and id and its holdings ("Sword;Mail/Heal"). */
static int
look(struct db *db, const char *name, int64_t *id, char *held, size_t sz)
{
	struct sheet sh;
	int str;

	sheet_init(&sh);
	*id = 0;
	if (roster_get(db, name, &sh, id) != ROSTER_OK)
		return -1;
	str = sh.primary[P_STR];
	snprintf(held, sz, "%s%s%s/%s%s", sh.nitems ? sh.items[0] : "",
	    sh.nitems > 1 ? ";" : "", sh.nitems > 1 ? sh.items[1] : "",
	    sh.npowers ? sh.powers[0] : "", sh.npowers > 1 ? ";..." : "");
	sheet_release(&sh);
	return str;
}

static int64_t
count_rows(struct db *db, const char *sql)
{
	struct db_stmt *st = db_prepare(db, sql);
	int64_t n;

	db_step(db, st, 0);
	n = db_column_int(st, 0);
	db_finalize(st);
	return n;
}

/* The items and power the imports hold; the probe of the lock. */
static void
import_setup(struct db *db)
{
	struct item it;
	struct power pw;

	db_begin(db);
	item_init(&it, "Sword");
	roster_item_put(db, &it, 0);
	item_release(&it);
	item_init(&it, "Mail");
	roster_item_put(db, &it, 0);
	item_release(&it);
	item_power_init(&pw, "Heal");
	roster_power_put(db, &pw, 0);
	item_power_release(&pw);
	db_commit(db);

	/* The probe sees a lock when there is one. */
	db_begin(db);
	is_int(other_can_write(), 0,
	    "the other GM waits while a write is open");
	db_rollback(db);
	is_int(other_can_write(), 1, "and writes when it is not");
}

/* A first import, then the refusals while staging. */
static void
test_import_first(struct db *db, int64_t *fred_id, int64_t *mary_id)
{
	struct roster_import im;
	const char *missing;
	char held[128];

	/* A first import; staging takes no write lock. */
	roster_import_init(&im, db, 0);
	is_int(stage(&im, "Fred", "10", "Sword;Mail", "Heal", &missing),
	    ROSTER_OK, "Fred staged");
	is_int(other_can_write(), 1,
	    "another GM writes while rows are staged");
	is_int(stage(&im, "Mary", "11", NULL, NULL, &missing), ROSTER_OK,
	    "Mary staged");
	is_int(other_can_write(), 1, "and again");
	is_int(count_rows(db, "SELECT count(*) FROM main.character"), 0,
	    "nothing in the roster before the commit");
	is_int(roster_import_commit(&im), ROSTER_OK, "committed");
	is_int(im.added, 2, "two new");
	is_int(im.replaced, 0, "none replaced");
	roster_import_release(&im);
	is_int(look(db, "Fred", fred_id, held, sizeof held), 10,
	    "Fred written");
	is_str(held, "Mail;Sword/Heal", "with his holdings");
	is_int(look(db, "Mary", mary_id, held, sizeof held), 11,
	    "Mary written");
	is_int(count_rows(db, "SELECT count(*) FROM pragma_database_list"
	    " WHERE name = 'import'"), 0, "the staging database is gone");

	/* Refusals while staging, as roster_write made them. */
	roster_import_init(&im, db, 0);
	is_int(stage(&im, "Fred", "1", NULL, NULL, &missing), ROSTER_EXISTS,
	    "a name in the roster, without replace");
	roster_import_release(&im);
	roster_import_init(&im, db, 0);
	stage(&im, "New", "1", NULL, NULL, &missing);
	is_int(stage(&im, "New", "2", NULL, NULL, &missing), ROSTER_EXISTS,
	    "a name twice in the file, without replace");
	roster_import_release(&im);
	roster_import_init(&im, db, 1);
	stage(&im, "New", "1", NULL, NULL, &missing);
	is_int(stage(&im, "New", "2", NULL, NULL, &missing), ROSTER_TWICE,
	    "a name twice in the file, with replace");
	roster_import_release(&im);
	roster_import_init(&im, db, 1);
	is_int(stage(&im, "New", "1", "Sword;Axe", NULL, &missing),
	    ROSTER_NO_ITEM, "an unknown item");
	is_str(missing, "Axe", "named");
	roster_import_release(&im);
	roster_import_init(&im, db, 1);
	is_int(stage(&im, "New", "1", "Sword", "Heal;Fly", &missing),
	    ROSTER_NO_POWER, "an unknown power");
	is_str(missing, "Fly", "named");
	roster_import_release(&im);
	is_int(count_rows(db, "SELECT count(*) FROM main.character"), 2,
	    "refused imports wrote nothing");
}

static void
test_import_replace(struct db *db, int64_t fred_id, int64_t mary_id)
{
	struct roster_import im;
	const char *missing;
	char held[128];
	int64_t id;

	/*
	 * Replace: ids kept; holdings replaced only where the row gives
	 * them (Mary's empty lists clear hers, Fred's row leaves his).
	 */
	other_exec("INSERT INTO holds_item SELECT c.id, i.id FROM character c,"
	    " item i WHERE c.name = 'Mary' AND i.name = 'Sword'");
	roster_import_init(&im, db, 1);
	stage(&im, "Fred", "20", NULL, NULL, &missing);
	stage(&im, "Mary", "21", "", "", &missing);
	stage(&im, "Tom", "22", "Mail", NULL, &missing);
	is_int(roster_import_commit(&im), ROSTER_OK, "replaced");
	is_int(im.added, 1, "one new");
	is_int(im.replaced, 2, "two replaced");
	roster_import_release(&im);
	is_int(look(db, "Fred", &id, held, sizeof held), 20, "Fred's STR");
	is_int(id, fred_id, "Fred keeps his id");
	is_str(held, "Mail;Sword/Heal", "and his holdings");
	is_int(look(db, "Mary", &id, held, sizeof held), 21, "Mary's STR");
	is_int(id, mary_id, "Mary keeps her id");
	is_str(held, "/", "her holdings cleared");
	is_int(look(db, "Tom", &id, held, sizeof held), 22, "Tom added");
	is_str(held, "Mail/", "with his");
}

static void
test_import_changed(struct db *db)
{
	struct roster_import im;
	const char *missing;

	/* Something changes between staging and the commit. */
	roster_import_init(&im, db, 0);
	stage(&im, "Ann", "1", NULL, NULL, &missing);
	stage(&im, "Bob", "2", "Sword", NULL, &missing);
	stage(&im, "Cid", "3", NULL, NULL, &missing);
	stage(&im, "Dee", "4", NULL, "Heal", &missing);
	is_int(other_add("Cid"), SQLITE_OK, "another GM adds Cid");
	is_int(roster_import_commit(&im), ROSTER_EXISTS,
	    "the commit refuses a name taken since");
	is_int(im.fault_row, 2, "at Cid's row");
	is_str(im.fault_where, "line 4", "whose place was kept");
	is_str(im.fault_name, "Cid", "naming Cid");
	roster_import_release(&im);
	is_int(count_rows(db, "SELECT count(*) FROM character WHERE name IN"
	    " ('Ann', 'Bob', 'Dee')"), 0, "all or nothing");

	roster_import_init(&im, db, 0);
	stage(&im, "Ann", "1", NULL, NULL, &missing);
	stage(&im, "Bob", "2", "Sword", NULL, &missing);
	stage(&im, "Cie", "3", NULL, NULL, &missing);
	stage(&im, "Dee", "4", NULL, "Heal", &missing);
	other_add("Cie");
	other_exec("DELETE FROM power WHERE name = 'Heal'");
	other_exec("DELETE FROM item WHERE name = 'Sword'");
	is_int(roster_import_commit(&im), ROSTER_NO_ITEM,
	    "an item removed since: the first row at fault wins");
	is_int(im.fault_row, 1, "at Bob's row");
	is_str(im.fault_where, "line 3", "whose place was kept");
	is_str(im.fault_name, "Sword", "naming the item");
	roster_import_release(&im);
	is_int(count_rows(db, "SELECT count(*) FROM character WHERE name IN"
	    " ('Ann', 'Bob', 'Dee')"), 0, "all or nothing again");
	{
		char sql[128];

		snprintf(sql, sizeof sql, "INSERT INTO item (id, name) VALUES"
		    " (%lld, 'Sword')", (long long)db_name_key("Sword"));
		other_exec(sql);
	}
}

/*
 * The places of staged rows are kept as runs that count up by one; each
 * comes back from the commit's check as the reader gave it, wherever it
 * falls in a run, whatever breaks one.
 */
static void
test_import_places(struct db *db)
{
	static const char *const where[] = {
		"line 2", "line 3", "line 5", "line 6", "index 7", "line 8",
		"line 09", "line 10", "somewhere", "somewhere", "line 0",
		"line 1", "line 99999999999999999999", "", "line 2"
	};
	const size_t n = sizeof where / sizeof *where;
	struct roster_import im;
	const char *missing;
	char name[32], sql[128];
	struct sheet sh;

	for (size_t k = 0; k < n; k++) {
		roster_import_init(&im, db, 0);
		for (size_t i = 0; i < n; i++) {
			snprintf(name, sizeof name, "Place %zu", i);
			sheet_init(&sh);
			make(&sh, name, "1", NULL, NULL);
			(void)roster_import_stage(&im, &sh, 0, where[i],
			    &missing);
			sheet_release(&sh);
		}
		snprintf(sql, sizeof sql, "Place %zu", k);
		other_add(sql);
		is_int(roster_import_commit(&im), ROSTER_EXISTS,
		    "row %zu: refused", k);
		is_int(im.fault_row, (long)k, "row %zu: at its row", k);
		is_str(im.fault_where, where[k], "row %zu: at its place", k);
		roster_import_release(&im);
		other_exec("DELETE FROM character WHERE name LIKE 'Place %'");
	}
}

static void
test_import_stale(struct db *db, int64_t fred_id)
{
	struct roster_import im;
	const char *missing;
	char held[128];
	int64_t id, ned_id;

	/*
	 * With replace, a hint gone stale (Tom renamed) and a free name
	 * taken meanwhile (Ned, who holds Mail) still come out as an
	 * upsert by name would have them.  More rows give holdings than
	 * there are holdings, so the old ones are found from the holdings
	 * this time (from the rows above).
	 */
	roster_import_init(&im, db, 1);
	stage(&im, "Tom", "30", "Sword", NULL, &missing);
	stage(&im, "Ned", "31", "Sword", NULL, &missing);
	stage(&im, "Fred", "32", "Sword", NULL, &missing);
	stage(&im, "Zed1", "1", "", NULL, &missing);
	stage(&im, "Zed2", "1", "", NULL, &missing);
	stage(&im, "Zed3", "1", "", NULL, &missing);
	other_rename("Tom", "Thomas");
	other_add("Ned");
	other_exec("INSERT INTO holds_item SELECT c.id, i.id FROM character c,"
	    " item i WHERE c.name = 'Ned' AND i.name = 'Mail'");
	ned_id = other_id("Ned");
	ok(ned_id == db_name_key("Ned") && ned_id != fred_id,
	    "Ned added meanwhile");
	is_int(roster_import_commit(&im), ROSTER_OK, "replaced again");
	is_int(im.added, 4, "Tom is new again, and the Zeds");
	is_int(im.replaced, 2, "Ned and Fred replaced");
	roster_import_release(&im);
	is_int(look(db, "Tom", &id, held, sizeof held), 30, "Tom");
	is_str(held, "Sword/", "holds the Sword");
	is_int(look(db, "Thomas", &id, held, sizeof held), 22,
	    "Thomas untouched");
	is_str(held, "Mail/", "his Mail too");
	is_int(look(db, "Ned", &id, held, sizeof held), 31, "Ned replaced");
	is_int(id, ned_id, "keeping his id");
	is_str(held, "Sword/", "his Mail gone, the Sword held");
	is_int(look(db, "Fred", &id, held, sizeof held), 32, "Fred");
	is_int(id, fred_id, "keeps his id");
	is_str(held, "Sword/", "holds only the Sword");
}

/*
 * Rows are inserted several at a time: a name twice in the file is
 * refused at its second row wherever the first one is, among the rows
 * held or already inserted, and every row of a count that is no multiple
 * of the batch is written.
 */
static void
test_import_batches(struct db *db)
{
	struct roster_import im;
	const char *missing;
	char name[32], held[128];
	int64_t id;

	for (int replace = 0; replace < 2; replace++) {
		for (int dup = 3; dup < 100; dup += 90) {
			roster_import_init(&im, db, replace);
			for (int i = 0; i < 100; i++) {
				snprintf(name, sizeof name, "Row %d", i);
				stage(&im, name, "5", NULL, NULL, &missing);
			}
			snprintf(name, sizeof name, "Row %d", dup);
			is_int(stage(&im, name, "6", NULL, NULL, &missing),
			    replace ? ROSTER_TWICE : ROSTER_EXISTS,
			    "row %d staged twice, %s replace", dup,
			    replace ? "with" : "without");
			roster_import_release(&im);
		}
	}
	roster_import_init(&im, db, 0);
	for (int i = 0; i < 100; i++) {
		snprintf(name, sizeof name, "Row %d", i);
		is_int(stage(&im, name, i % 7 ? "7" : "", NULL, NULL,
		    &missing), ROSTER_OK, "row %d staged", i);
	}
	is_int(roster_import_commit(&im), ROSTER_OK, "100 rows committed");
	is_int(im.added, 100, "all new");
	roster_import_release(&im);
	is_int(count_rows(db, "SELECT count(*) FROM character WHERE name"
	    " LIKE 'Row %'"), 100, "every row written");
	is_int(look(db, "Row 99", &id, held, sizeof held), 7, "the last one");
	is_int(look(db, "Row 98", &id, held, sizeof held), -1,
	    "a NULL stat kept NULL");
	other_exec("DELETE FROM character WHERE name LIKE 'Row %'");
}

/* The CREATE of the index that keeps names unique, or "" (caller frees). */
static char *
name_index(struct db *db)
{
	struct db_stmt *st = db_prepare(db, "SELECT sql FROM sqlite_schema"
	    " WHERE type = 'index' AND name = 'character_name'");
	char *sql = db_step(db, st, 0) == DB_ROW ? db_column_dup(st, 0) :
	    xstrdup("");

	db_finalize(st);
	return sql;
}

/* The index of names is there, with the CREATE it had before. */
static void
index_as_before(struct db *db, const char *before, const char *what)
{
	char *after = name_index(db);

	is_str(after, before, "%s", what);
	free(after);
}

/* The database is whole and the index of names holds n "Bulk" names. */
static void
index_holds(struct db *db, int n, const char *whole, const char *holds)
{
	is_int(count_rows(db, "SELECT count(*) FROM pragma_integrity_check"
	    " WHERE integrity_check <> 'ok'"), 0, "%s", whole);
	is_int(count_rows(db, "SELECT count(*) FROM character INDEXED BY"
	    " character_name WHERE name >= 'Bulk' AND name < 'Bulk~'"), n,
	    "%s", holds);
}

/*
 * Stages n rows "Bulk 00000" ... in an order that is no order of their
 * keys, every 100th holding the Sword, and commits; returns the first
 * refusal of staging or the commit's result.
 */
static enum roster_result
import_bulk(struct db *db, int replace, int n, const char *str, long *added)
{
	struct roster_import im;
	const char *missing;
	enum roster_result r = ROSTER_OK;
	char name[32];

	*added = 0;
	roster_import_init(&im, db, replace);
	for (int i = 0; i < n && r == ROSTER_OK; i++) {
		snprintf(name, sizeof name, "Bulk %05d", (i * 7919) % n);
		r = stage(&im, name, str, i % 100 ? NULL : "Sword",
		    i % 100 ? NULL : "", &missing);
	}
	if (r == ROSTER_OK) {
		r = roster_import_commit(&im);
		*added = im.added;
	}
	roster_import_release(&im);
	return r;
}

/*
 * A large import drops the index of names and builds it again within its
 * transaction (roster.c, name_index_drop): into a small roster and into
 * an empty one, the index is there after it as before, whole, and still
 * refuses a name twice; holdings, written after it, find their
 * characters; an import refused or with replace leaves it as it was.
 */
static void
test_import_index(struct db *db)
{
	char *before = name_index(db);
	char held[128];
	long added;
	int64_t id;

	is_str(before, "CREATE UNIQUE INDEX character_name ON character(name)",
	    "the roster's names are unique by an index");
	is_int(import_bulk(db, 0, 5000, "3", &added), ROSTER_OK,
	    "5000 new rows into a roster of %d", (int)count_rows(db,
	    "SELECT count(*) FROM character WHERE name NOT LIKE 'Bulk %'"));
	is_int(added, 5000, "all added");
	index_as_before(db, before, "the index is there again, the same");
	index_holds(db, 5000, "the index is whole", "and holds every new name");
	is_int(look(db, "Bulk 00000", &id, held, sizeof held), 3, "Bulk 00000");
	is_str(held, "Sword/", "holds the Sword");
	is_int(count_rows(db, "SELECT count(*) FROM holds_item h JOIN"
	    " character c ON c.id = h.character_id WHERE c.name LIKE"
	    " 'Bulk %'"), 50, "as every 100th row does");
	is_int(other_add("Bulk 00042"), SQLITE_CONSTRAINT,
	    "another GM cannot add a name taken");

	/* Refused: nothing written, the index as it was. */
	is_int(import_bulk(db, 0, 5000, "4", &added), ROSTER_EXISTS,
	    "the same rows again without replace are refused");
	index_as_before(db, before, "the index untouched");
	/* With replace, the index stays and the rows change. */
	is_int(import_bulk(db, 1, 5000, "5", &added), ROSTER_OK,
	    "the same rows with replace");
	is_int(added, 0, "none added");
	is_int(look(db, "Bulk 04999", &id, held, sizeof held), 5,
	    "the rows replaced");
	index_as_before(db, before, "the index the same");

	/* Into an empty roster. */
	other_exec("DELETE FROM holds_item; DELETE FROM holds_power;"
	    " DELETE FROM character");
	is_int(import_bulk(db, 0, 6000, "6", &added), ROSTER_OK,
	    "6000 rows into an empty roster");
	is_int(added, 6000, "all added");
	index_as_before(db, before, "the index is there again, the same");
	index_holds(db, 6000, "the database is whole",
	    "the index holds every name");
	is_int(other_add("Bulk 05999"), SQLITE_CONSTRAINT,
	    "a name taken is refused");
	is_int(look(db, "Bulk 05900", &id, held, sizeof held), 6,
	    "Bulk 05900");
	is_str(held, "Sword/", "holds the Sword");
	free(before);
}

/*
 * The rows of character that the changes after mark write, read whole;
 * *staged, how many of those changes were written beforehand.
 */
static int64_t
change_rows(struct db *db, int64_t mark, int *staged)
{
	struct db_stmt *st = db_prepare(db, "SELECT c.data, r.data, c.rest"
	    " FROM " DB_CHANGE_ROWS " WHERE c.no > ?1 ORDER BY c.no");
	sqlite3_changeset_iter *it;
	const char *tab;
	int64_t n = 0;
	int ncol, op, indirect;
	void *owned;
	size_t len;

	*staged = 0;
	db_bind_int(st, 1, mark);
	while (n >= 0 && db_step(db, st, 0) == DB_ROW) {
		const void *cs = db_change_data(st, 0, 1, &len, &owned);

		*staged += db_column_type(st, 2) != DB_NULL;
		if (sqlite3changeset_start(&it, (int)len, (void *)cs) !=
		    SQLITE_OK)
			n = -1;
		else {
			while (sqlite3changeset_next(it) == SQLITE_ROW &&
			    sqlite3changeset_op(it, &tab, &ncol, &op,
			    &indirect) == SQLITE_OK)
				n += strcmp(tab, "character") == 0;
			if (sqlite3changeset_finalize(it) != SQLITE_OK)
				n = -1;
		}
		free(owned);
	}
	db_finalize(st);
	return n;
}

/*
 * A large import's changes are written before it takes the lock, all but
 * the first bytes of each (db_rehearsal_stage): the change names them,
 * and read whole it is every row the import changed; nothing is left
 * staged (test_db.c tests a stale play and what an unfinished one left).
 */
static void
test_import_staged(struct db *db)
{
	long added;
	int staged;
	int64_t mark = db_changes_mark(db);

	is_int(import_bulk(db, 1, 3000, "7", &added), ROSTER_OK,
	    "3000 rows replaced");
	is_int(change_rows(db, mark, &staged), 3000,
	    "its changes, read whole, write the 3000 rows");
	is_int(staged, 1, "their bulk was written beforehand");
	is_int(count_rows(db, "SELECT count(*) FROM change_staged"), 0,
	    "nothing is left staged");
	is_int(count_rows(db, "SELECT count(*) FROM change_rest WHERE id NOT IN"
	    " (SELECT rest FROM change WHERE rest IS NOT NULL)"), 0,
	    "every row written beforehand is a change's");

}

static void
test_import(struct db *db)
{
	int64_t fred_id, mary_id;

	import_setup(db);
	test_import_first(db, &fred_id, &mary_id);
	test_import_replace(db, fred_id, mary_id);
	test_import_changed(db);
	test_import_places(db);
	test_import_stale(db, fred_id);
	test_import_batches(db);
	test_import_index(db);
	test_import_staged(db);
}

/* Items, a power and characters written, then all rolled back. */
static void
test_write_rollback(struct db *db)
{
	struct roster_writer w;
	struct sheet sh, got;
	struct item it;
	struct power pw;
	const char *missing = NULL;
	char why[160];

	db_begin(db);
	item_init(&it, "Sword");
	it.mod[ITEM_OR] = 5;
	is_int(roster_item_put(db, &it, 0), ROSTER_OK, "item added");
	is_int(roster_item_put(db, &it, 0), ROSTER_EXISTS, "item name taken");
	item_release(&it);
	item_init(&it, "Mail");
	it.mod[ITEM_DR] = 3;
	it.use = ITEM_WEARABLE;
	roster_item_put(db, &it, 0);
	item_release(&it);
	item_power_init(&pw, "Fire Dart");
	pw.em = 5;
	is_int(roster_power_put(db, &pw, 0), ROSTER_OK, "power added");
	item_power_release(&pw);

	roster_writer_init(&w, db);
	sheet_init(&sh);
	sheet_set_field(&sh, SHEET_F_NAME, "Fred", why, sizeof why);
	sheet_set_field(&sh, SHEET_F_PRIMARY + P_STR, "12", why, sizeof why);
	sheet_set_field(&sh, SHEET_F_ITEMS, "Sword;Mail", why, sizeof why);
	sheet_set_field(&sh, SHEET_F_POWERS, "Fire Dart", why, sizeof why);
	is_int(roster_write(&w, &sh, ROSTER_INSERT, 0, 1, &missing),
	    ROSTER_OK, "Fred written");
	is_int(roster_write(&w, &sh, ROSTER_INSERT, 0, 1, &missing),
	    ROSTER_EXISTS, "Fred twice refused");
	sheet_set_field(&sh, SHEET_F_PRIMARY + P_STR, "14", why, sizeof why);
	is_int(roster_write(&w, &sh, ROSTER_UPSERT, 0, 1, &missing),
	    ROSTER_OK, "Fred replaced");
	sheet_set_field(&sh, SHEET_F_NAME, "Mary", why, sizeof why);
	sheet_set_field(&sh, SHEET_F_ITEMS, "Axe", why, sizeof why);
	is_int(roster_write(&w, &sh, ROSTER_INSERT, 0, 1, &missing),
	    ROSTER_NO_ITEM, "unknown item refused");
	is_str(missing, "Axe", "the missing item named");
	roster_writer_release(&w);
	sheet_release(&sh);
	db_rollback(db);
	is_int(roster_get(db, "Fred", &got, NULL), ROSTER_NOT_FOUND,
	    "rollback undid it all");
}

/* A character written and committed, read back, and removed. */
static void
test_write_read(struct db *db)
{
	struct roster_writer w;
	struct sheet sh, got;
	struct item it, *held;
	const char *missing = NULL;
	char why[160];
	int64_t id;
	size_t n;
	int k = 0;

	/* Again, committed this time. */
	db_begin(db);
	item_init(&it, "Sword");
	roster_item_put(db, &it, 0);
	item_release(&it);
	roster_writer_init(&w, db);
	sheet_init(&sh);
	sheet_set_field(&sh, SHEET_F_NAME, "Fred", why, sizeof why);
	sheet_set_field(&sh, SHEET_F_PRIMARY + P_STR, "12", why, sizeof why);
	sheet_set_field(&sh, SHEET_F_GIVEN + S_DR, "7", why, sizeof why);
	sheet_set_field(&sh, SHEET_F_ITEMS, "Sword", why, sizeof why);
	roster_write(&w, &sh, ROSTER_INSERT, 0, 1, &missing);
	sheet_release(&sh);
	roster_writer_release(&w);
	db_commit(db);

	sheet_init(&got);
	is_int(roster_get(db, "Fred", &got, &id), ROSTER_OK, "Fred read");
	is_int(got.primary[P_STR], 12, "STR read back");
	is_int(got.primary[P_AGI], STATS_ABSENT, "AGI absent");
	is_int(got.given[S_DR], 7, "given DR read back");
	is_int(got.nitems, 1, "one item");
	held = roster_held_items(db, id, &n);
	is_int(n, 1, "one item record");
	is_int(held[0].mod[ITEM_OR], 0, "its modifier");
	roster_items_free(held, n);
	sheet_release(&got);
	roster_each(db, count, &k);
	is_int(k, 1, "one character in the roster");
	db_begin(db);
	is_int(roster_item_remove(db, "Sword"), ROSTER_OK, "item removed");
	db_commit(db);
	sheet_init(&got);
	roster_get(db, "Fred", &got, NULL);
	is_int(got.nitems, 0, "its holding went with it");
	sheet_release(&got);
	db_begin(db);
	is_int(roster_remove(db, "Fred"), ROSTER_OK, "Fred removed");
	is_int(roster_remove(db, "Fred"), ROSTER_NOT_FOUND, "gone");
	db_commit(db);
}

int
main(void)
{
	char path[] = "/tmp/refkit-test-roster-XXXXXX";
	int fd = mkstemp(path);
	struct db *db;

	if (fd < 0)
		return 1;
	close(fd);
	db = db_open(path);
	test_write_rollback(db);
	test_write_read(db);
	if (sqlite3_open(path, &other) != SQLITE_OK)
		return 1;
	test_import(db);
	sqlite3_close(other);
	db_close(db);
	tap_unlink_db(path);
	return tap_done();
}
