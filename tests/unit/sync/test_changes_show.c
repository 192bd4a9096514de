/*
 * test_changes_show.c - changes_show: the schema in memory that names a
 * changeset's columns (db_schema_memory); changesets of refkit's own
 * tables, made by a session on that schema, shown with the names at
 * this build's schema and by number at another; the text and JSON forms
 * of every kind of value; and a refused file, of which nothing is
 * written.
 */
#include <sqlite3.h>
#include "tap.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sync/changes.h"
#include "sync/changes_show.h"
#include "base/util.h"

#define ID_A	"0123456789abcdef0123456789abcdef"
#define ID_B	"fedcba9876543210fedcba9876543210"
#define T0	1764000000

static void
exec_sql(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		fprintf(stderr, "%s: %s\n", sql, msg);
		exit(1);
	}
}

/* The changeset of sql run on db; the caller frees it (sqlite3_free). */
static void *
changeset(sqlite3 *db, const char *sql, int *n)
{
	sqlite3_session *s;
	void *p = NULL;

	if (sqlite3session_create(db, "main", &s) != SQLITE_OK ||
	    sqlite3session_attach(s, NULL) != SQLITE_OK)
		exit(1);
	exec_sql(db, sql);
	if (sqlite3session_changeset(s, n, &p) != SQLITE_OK || *n <= 0)
		exit(1);
	sqlite3session_delete(s);
	return p;
}

/* A changes file at schema with the one entry cs, in memory. */
static unsigned char *
file_of(uint32_t schema, const void *cs, int n, size_t *len)
{
	struct changes_header h = { .schema = schema, .station = ID_A,
	    .name = "Table 1", .from = 0, .to = 1, .time = T0 };
	struct changes_entry e = { .origin = ID_B, .oseq = 1, .time = T0,
	    .changeset = cs, .len = (size_t)n };
	struct changes_writer *w;
	char *buf = NULL, why[256];
	FILE *fp = open_memstream(&buf, len);

	if (fp == NULL ||
	    (w = changes_writer_open(fp, &h, why, sizeof why)) == NULL ||
	    changes_writer_add(w, &e, why, sizeof why) != 0 ||
	    changes_writer_close(w, why, sizeof why) != 0) {
		fprintf(stderr, "file_of: %s\n", why);
		exit(1);
	}
	fclose(fp);
	return (unsigned char *)buf;
}

/* What changes_show writes of the file buf; the caller frees it. */
static char *
show(const unsigned char *buf, size_t len, enum out_format fmt, int *rc,
    char *why, size_t whysz)
{
	FILE *in = fmemopen((void *)buf, len, "rb"), *out;
	char *text = NULL;
	size_t n;

	if (in == NULL || (out = open_memstream(&text, &n)) == NULL)
		exit(1);
	why[0] = '\0';
	*rc = changes_show(in, out, fmt, why, whysz);
	fclose(out);
	fclose(in);
	return text;
}

/* Whether text holds want; says what it holds when it does not. */
static int
has(const char *text, const char *want)
{
	if (strstr(text, want) != NULL)
		return 1;
	printf("# want '%s' in:\n# %s\n", want, text);
	return 0;
}

static void
test_schema(void)
{
	char why[256];
	sqlite3 *h = db_schema_memory(why, sizeof why);
	sqlite3_stmt *st;

	ok(h != NULL, "the schema in memory");
	if (h == NULL) {
		printf("# %s\n", why);
		return;
	}
	if (sqlite3_prepare_v2(h, "SELECT (SELECT user_version FROM "
	    "pragma_user_version), (SELECT group_concat(name) FROM "
	    "pragma_table_info('station'))", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW)
		exit(1);
	is_int(sqlite3_column_int(st, 0), DB_SCHEMA_VERSION,
	    "at this build's version");
	is_str((const char *)sqlite3_column_text(st, 1), "id,name,created",
	    "the station table's columns");
	sqlite3_finalize(st);
	is_int(sqlite3_close(h), SQLITE_OK, "closed");
}

/* A station arrives and the stand-in station is renamed. */
static void
test_names(void)
{
	char why[256], *text;
	sqlite3 *h = db_schema_memory(why, sizeof why);
	unsigned char *file;
	size_t len;
	void *cs;
	int n, rc;

	if (h == NULL)
		exit(1);
	cs = changeset(h, "INSERT INTO station VALUES ('" ID_B "', "
	    "'table 2', 5); UPDATE station SET name = 'renamed' WHERE name = "
	    "'schema'", &n);
	file = file_of(DB_SCHEMA_VERSION, cs, n, &len);
	text = show(file, len, OUT_TABLE, &rc, why, sizeof why);
	is_int(rc, 0, "shown");
	ok(has(text, "entries  1\n\nentry 1: origin " ID_B ", oseq 1, "
	    "2025-11-24 16:00:00 UTC\n"), "the entry");
	ok(has(text, "  insert station: id='" ID_B "', name='table 2',\n"
	    "      created=5\n"), "an insert, named, wrapped");
	ok(has(text, "  update station [id='00000000000000000000000000000000"
	    "']:\n      name 'schema' -> 'renamed'\n"), "an update, named");
	free(text);
	text = show(file, len, OUT_JSON, &rc, why, sizeof why);
	ok(has(text, "{\"op\":\"insert\",\"table\":\"station\",\"new\":{"
	    "\"id\":\"" ID_B "\",\"name\":\"table 2\",\"created\":5}}"),
	    "an insert, named, in JSON");
	ok(has(text, "{\"op\":\"update\",\"table\":\"station\",\"pk\":{\"id\":"
	    "\"00000000000000000000000000000000\"},\"old\":{\"name\":"
	    "\"schema\"},\"new\":{\"name\":\"renamed\"}}"),
	    "an update, named, in JSON");
	free(text);
	free(file);

	/* The same changeset in a file of an older schema. */
	file = file_of(DB_SCHEMA_VERSION - 1, cs, n, &len);
	text = show(file, len, OUT_TABLE, &rc, why, sizeof why);
	ok(has(text, "  insert station: c1='" ID_B "', c2='table 2', c3=5\n"),
	    "an older schema: by number");
	free(text);
	free(file);
	sqlite3_free(cs);
	sqlite3_close(h);
}

static void
test_values(void)
{
	char why[256], *text, x100[101];
	sqlite3 *h;
	unsigned char *file;
	size_t len;
	void *cs;
	int n, rc;

	if (sqlite3_open(":memory:", &h) != SQLITE_OK)
		exit(1);
	exec_sql(h, "CREATE TABLE t (k INTEGER PRIMARY KEY, v)");
	cs = changeset(h, "INSERT INTO t VALUES (1, 9007199254740993), "
	    "(2, CAST(x'610062' AS TEXT)), (3, CAST(x'c328' AS TEXT)), "
	    "(4, 3.0), (5, printf('%.100c', 'x')), (6, zeroblob(20)), "
	    "(7, 'it''s')", &n);
	file = file_of(1, cs, n, &len);
	text = show(file, len, OUT_TABLE, &rc, why, sizeof why);
	is_int(rc, 0, "values shown");
	ok(has(text, "c1=1, c2=9007199254740993\n"), "an integer past 2^53");
	ok(has(text, "c2='a\\x00b'\n"), "a NUL in text");
	ok(has(text, "c2='\\xc3('\n"), "text that is not UTF-8");
	ok(has(text, "c2=3.0\n"), "a real that is whole");
	ok(has(text, "c2='xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... "
	    "(100 bytes)\n"), "long text cut");
	ok(has(text, "c2=x'00000000000000000000000000000000'... (20 bytes)\n"),
	    "a long blob cut");
	ok(has(text, "c2='it''s'\n"), "a quote doubled");
	free(text);
	text = show(file, len, OUT_JSON, &rc, why, sizeof why);
	ok(has(text, "\"c2\":9007199254740993}"), "JSON: the integer exact");
	ok(has(text, "\"c2\":\"a\\u0000b\"}"), "JSON: the NUL escaped");
	ok(has(text, "\"c2\":\"\\ufffd(\"}"), "JSON: not UTF-8, replaced");
	ok(has(text, "\"c2\":3.0}"), "JSON: the real");
	memset(x100, 'x', 100);
	x100[100] = '\0';
	ok(has(text, x100), "JSON: long text whole");
	ok(has(text, "\"c2\":{\"blob\":\"000000000000000000000000000000000000"
	    "0000\"}"), "JSON: the blob whole");
	ok(has(text, "\"c2\":\"it's\"}"), "JSON: the quote");
	free(text);
	free(file);
	sqlite3_free(cs);
	sqlite3_close(h);
}

/* A refused file: the reader's reason, and nothing written. */
static void
test_refused(void)
{
	char why[256], *text;
	sqlite3 *h;
	unsigned char *file;
	size_t len;
	void *cs;
	int n, rc;

	if (sqlite3_open(":memory:", &h) != SQLITE_OK)
		exit(1);
	exec_sql(h, "CREATE TABLE t (k INTEGER PRIMARY KEY, v)");
	cs = changeset(h, "INSERT INTO t VALUES (1, 2)", &n);
	file = file_of(1, cs, n, &len);
	for (int json = 0; json < 2; json++) {
		text = show(file, len - 1, json ? OUT_JSON : OUT_TABLE, &rc,
		    why, sizeof why);
		is_int(rc, -1, "a truncated file refused (%s)",
		    json ? "JSON" : "text");
		is_str(why, "truncated", "the reader's reason");
		is_str(text, "", "nothing written");
		free(text);
	}
	file[len / 2] ^= 1;
	text = show(file, len, OUT_TABLE, &rc, why, sizeof why);
	is_int(rc, -1, "a damaged file refused");
	is_str(why, "damaged (its checksum does not match)",
	    "the reader's reason");
	is_str(text, "", "nothing written");
	free(text);
	free(file);
	sqlite3_free(cs);
	sqlite3_close(h);
}

int
main(void)
{
	/* The times for people are local: the tests' zone is UTC. */
	setenv("TZ", "UTC0", 1);
	tzset();
	test_schema();
	test_names();
	test_values();
	test_refused();
	return tap_done();
}
