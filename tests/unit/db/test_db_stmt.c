/*
 * test_db_stmt.c - db/db_stmt.c on SQLite: binding and reading every
 * type, NULLs, a constraint allowed or fatal, text with a NUL inside
 * refused as damage, a refusal's message with its subject and the
 * transaction rolled back, and bulk loads of many rows.  (The same on a
 * server: the golden cases run on PostgreSQL, tests/pg/db-cli.sh.)
 */
#include "tap.h"

#include <sys/wait.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "db/db.h"

/* The temporary table the tests write. */
static void
scratch(struct db *db)
{
	db_exec(db, "CREATE TEMP TABLE t (k INTEGER PRIMARY KEY, i INTEGER,"
	    " d REAL, s TEXT, b BLOB, u TEXT UNIQUE)", "cannot make t");
}

static int64_t
int_of(struct db *db, const char *sql)
{
	return db_run_text(db, sql, NULL);
}

static void
test_types(struct db *db)
{
	struct db_stmt *st;
	static const unsigned char blob[] = { 0, 1, 2, 0xff };
	char *dup;

	st = db_prepare(db, "INSERT INTO temp.t (k, i, d, s, b) VALUES"
	    " (?1, ?2, ?3, ?4, ?5)");
	is_int(db_bind_count(st), 5, "five parameters");
	db_bind_int(st, 1, 1);
	db_bind_int(st, 2, INT64_MAX);
	db_bind_double(st, 3, 2.5);
	db_bind_text(st, 4, "Ysolde \xc3\xa9");
	db_bind_blob(st, 5, blob, (int)sizeof blob);
	is_int(db_step(db, st, 0), DB_DONE, "a row written");
	is_int(db_changes(db), 1, "one row changed");
	db_reset(st);
	db_clear(st);
	db_bind_int(st, 1, 2);
	db_bind_text(st, 4, NULL);
	is_int(db_step(db, st, 0), DB_DONE, "a row of NULLs written");
	db_finalize(st);

	st = db_prepare(db, "SELECT i, d, s, b, k AS key FROM temp.t"
	    " ORDER BY k");
	is_int(db_column_count(st), 5, "five columns");
	is_int(db_step(db, st, 0), DB_ROW, "the first row");
	is_int(db_column_type(st, 0), DB_INTEGER, "an integer");
	ok(db_column_int(st, 0) == INT64_MAX, "read whole");
	is_int(db_column_type(st, 1), DB_FLOAT, "a real");
	ok(db_column_double(st, 1) == 2.5, "2.5");
	is_str(db_column_text(st, 2), "Ysolde \xc3\xa9", "text, as bound");
	is_int(db_column_bytes(st, 3), 4, "a blob of 4 bytes");
	ok(memcmp(db_column_blob(st, 3), blob, 4) == 0, "with a NUL inside");
	is_str(db_column_name(st, 4), "key", "a column's name");
	dup = db_column_dup(st, 2);
	is_str(dup, "Ysolde \xc3\xa9", "a copy the caller frees");
	free(dup);
	is_int(db_step(db, st, 0), DB_ROW, "the second row");
	is_int(db_column_type(st, 0), DB_NULL, "NULL");
	is_int(db_column_int(st, 0), 0, "reads as 0");
	ok(db_column_text(st, 2) == NULL, "NULL text is NULL");
	ok(db_column_dup(st, 2) == NULL, "and so is its copy");
	is_int(db_step(db, st, 0), DB_DONE, "no more rows");
	db_finalize(st);
	is_int(db_run_text(db, "SELECT count(*) FROM temp.t WHERE s = ?1",
	    "Ysolde \xc3\xa9"), 1, "db_run_text binds ?1");
	is_int(db_run_text(db, "UPDATE temp.t SET i = 3 WHERE k = 2", NULL),
	    1, "or counts the rows a statement changed");
}

/* A constraint is a result when allowed; the statement can run again. */
static void
test_constraint(struct db *db)
{
	struct db_stmt *st = db_prepare(db, "INSERT INTO temp.t (k, u)"
	    " VALUES (?1, 'same')");

	db_bind_int(st, 1, 10);
	is_int(db_step(db, st, 1), DB_DONE, "the first 'same'");
	db_reset(st);
	db_bind_int(st, 1, 11);
	is_int(db_step(db, st, 1), DB_CONSTRAINT, "a second is refused");
	db_bind_int(st, 1, 12);
	is_int(db_step(db, st, 1), DB_CONSTRAINT, "again, after its reset");
	db_finalize(st);
	is_int(int_of(db, "SELECT count(*) FROM temp.t WHERE u = 'same'"), 1,
	    "one row");
}

/*
 * Runs fn(db) in a child, which must exit 1 with its standard error
 * being want.
 */
static void
dies(const char *path, void (*fn)(struct db *), const char *want,
    const char *what)
{
	int fd[2], status = 0;
	char buf[512];
	ssize_t n = 0, r;
	pid_t pid;

	if (pipe(fd) != 0)
		return;
	fflush(stdout);
	if ((pid = fork()) == 0) {
		struct db *db = db_open(path);

		dup2(fd[1], 2);
		close(fd[0]);
		fn(db);
		_exit(0);
	}
	close(fd[1]);
	while ((r = read(fd[0], buf + n, sizeof buf - 1 - (size_t)n)) > 0)
		n += r;
	buf[n] = '\0';
	close(fd[0]);
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 1, "%s: exit 1",
	    what);
	is_str(buf, want, "%s: its one line", what);
}

static void
refuse_in_txn(struct db *db)
{
	db_begin(db);
	db_exec(db, "INSERT INTO item (id, name) VALUES (31, 'Gone')",
	    "cannot write");
	db_subject(db, "combat", "7");
	db_die(db, "'%s' is not in it", "fred");
}

static void
read_nul(struct db *db)
{
	struct db_stmt *st = db_prepare(db, "SELECT 'a' || char(0) || 'b'");

	(void)db_step(db, st, 0);
	(void)db_column_text(st, 0);
}

static void
fatal_constraint(struct db *db)
{
	db_begin(db);
	db_exec(db, "INSERT INTO item (id, name) VALUES (32, 'Lamp')",
	    "cannot write the item");
	db_exec(db, "INSERT INTO item (id, name) VALUES (33, 'Lamp')",
	    "cannot write the item");
}

static void
test_failures(const char *path)
{
	struct db *db;

	dies(path, refuse_in_txn, "unit-db-db_stmt: combat 7: 'fred' is not in"
	    " it\n", "a refusal");
	dies(path, fatal_constraint, "unit-db-db_stmt: cannot write the item:"
	    " UNIQUE constraint failed: item.name\n",
	    "a constraint not allowed");
	db = db_open(path);
	is_int(int_of(db, "SELECT count(*) FROM item WHERE id IN (31, 32,"
	    " 33)"), 0, "both rolled back");
	db_close(db);
	dies(path, read_nul, "unit-db-db_stmt: damaged record: its ''a' ||"
	    " char(0) || 'b'' holds a NUL character\n", "a NUL inside text");
}

/* Bulk: many rows, flushed to be read back, then ended. */
static void
test_bulk(struct db *db)
{
	struct db_bulk *b;
	char name[32];

	db_begin(db);
	b = db_bulk_begin(db, "temp.t", "k, i, s", 3, -1);
	for (int i = 0; i < 2500; i++) {
		snprintf(name, sizeof name, "row %d", i);
		db_bulk_int(b, 100 + i);
		if (i % 7 == 0)
			db_bulk_null(b);
		else
			db_bulk_int(b, i);
		db_bulk_text(b, i % 11 == 0 ? NULL : name);
	}
	db_bulk_flush(b);
	is_int(int_of(db, "SELECT count(*) FROM temp.t WHERE k >= 100"), 2500,
	    "bulk: the rows read back after a flush");
	db_bulk_int(b, 5000);
	db_bulk_int(b, 1);
	db_bulk_text(b, "last");
	db_bulk_end(b);
	db_commit(db);
	is_int(int_of(db, "SELECT count(*) FROM temp.t WHERE k >= 100"), 2501,
	    "bulk: and the last at the end");
	is_int(int_of(db, "SELECT count(*) FROM temp.t WHERE k >= 100 AND"
	    " i IS NULL"), 358, "bulk: NULLs as given");
	is_int(int_of(db, "SELECT count(*) FROM temp.t WHERE k >= 100 AND"
	    " s IS NULL"), 228, "bulk: a NULL string is NULL");
	is_int(db_bulk_exclusive(db), 0, "bulk: SQLite lets others run");
}

int
main(void)
{
	char dir[] = "/tmp/refkit-test-db-stmt-XXXXXX";
	char *path;
	struct db *db;

	if (mkdtemp(dir) == NULL)
		return 1;
	path = xasprintf("%s/s.db", dir);
	db = db_open(path);
	scratch(db);
	test_types(db);
	test_constraint(db);
	test_bulk(db);
	db_close(db);
	test_failures(path);
	tap_unlink_db(path);
	rmdir(dir);
	free(path);
	return tap_done();
}
