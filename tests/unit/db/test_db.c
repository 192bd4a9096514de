/*
 * test_db.c - creating the schema, migrating schema 1 and schema 3 to the
 * current one, and the transaction helpers, on real files in a temporary
 * directory.
 */
#include "tap.h"

#include <stdlib.h>
#include <unistd.h>

#include "db/db.h"
#include "db/dbpg.h"

#include <sqlite3.h>
#include "base/util.h"

static int
int_of(sqlite3 *h, const char *sql)
{
	sqlite3_stmt *st;
	int v = -12345;

	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* The shape of every table and index: columns, types, keys, CHECKs. */
static char *
shape(sqlite3 *h)
{
	sqlite3_stmt *st;
	char *all = xstrdup("");

	sqlite3_prepare_v2(h, "SELECT m.name, p.cid, p.name, p.type,"
	    " p.\"notnull\", p.dflt_value, p.pk FROM sqlite_schema m,"
	    " pragma_table_xinfo(m.name) p WHERE m.type = 'table'"
	    " UNION ALL SELECT name, 0, tbl_name, type, 0, NULL, 0"
	    " FROM sqlite_schema WHERE type = 'index'"
	    " ORDER BY 1, 2", -1, &st, NULL);
	while (sqlite3_step(st) == SQLITE_ROW) {
		char *next = xasprintf("%s%s.%s.%s.%s.%d.%s.%d\n", all,
		    sqlite3_column_text(st, 0), sqlite3_column_text(st, 1),
		    sqlite3_column_text(st, 2), sqlite3_column_text(st, 3),
		    sqlite3_column_int(st, 4),
		    sqlite3_column_text(st, 5) ?
		    (const char *)sqlite3_column_text(st, 5) : "-",
		    sqlite3_column_int(st, 6));
		free(all);
		all = next;
	}
	sqlite3_finalize(st);
	return all;
}

/* The CHECK and REFERENCES clauses, with all white space removed. */
static char *
constraints(sqlite3 *h, const char *table)
{
	sqlite3_stmt *st;
	char *sql = NULL, *p, *q;

	sqlite3_prepare_v2(h, "SELECT sql FROM sqlite_schema WHERE name = ?1",
	    -1, &st, NULL);
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		sql = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (sql == NULL)
		return xstrdup("");
	for (p = q = sql; *p; p++)
		if (*p != ' ' && *p != '\t' && *p != '\n')
			*q++ = *p;
	*q = '\0';
	return sql;
}

/* Every CREATE statement, by name, as SQLite keeps it. */
static char *
texts(sqlite3 *h)
{
	sqlite3_stmt *st;
	char *all = xstrdup("");

	sqlite3_prepare_v2(h, "SELECT name, sql FROM sqlite_schema"
	    " ORDER BY name", -1, &st, NULL);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *sql = (const char *)sqlite3_column_text(st, 1);
		char *next = xasprintf("%s%s: %s\n", all,
		    sqlite3_column_text(st, 0), sql ? sql : "-");

		free(all);
		all = next;
	}
	sqlite3_finalize(st);
	return all;
}

/* Makes the file path from tests/fixtures/NAME; 0 if it worked. */
static int
load_fixture(const char *path, const char *name)
{
	char *file = xasprintf("%s/tests/fixtures/%s", SRCDIR, name);
	FILE *fp = fopen(file, "r");
	char *sql = xcalloc(1, 65536);
	sqlite3 *h;
	int rc = -1;

	free(file);
	if (fp == NULL) {
		free(sql);
		return -1;
	}
	fread(sql, 1, 65535, fp);
	fclose(fp);
	if (sqlite3_open(path, &h) == SQLITE_OK &&
	    sqlite3_exec(h, sql, NULL, NULL, NULL) == SQLITE_OK)
		rc = 0;
	sqlite3_close(h);
	free(sql);
	return rc;
}

/* Removes the database at path, with its -wal and -shm. */
static void
remove_db(const char *path)
{
	const char *sfx[] = { "", "-wal", "-shm" };

	for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++) {
		char *f = xasprintf("%s%s", path, sfx[i]);

		unlink(f);
		free(f);
	}
}

/*
 * A schema-3 database, made by the C strings migrations were before
 * schema.sql held them: step 4 rebuilds its event table, which must end
 * as a new database's, rows and all.
 */
static void
test_schema3(sqlite3 *fresh, const char *path)
{
	struct db *db;
	char *s1, *s2, *c1, *c2;

	is_int(load_fixture(path, "schema-v3.sql"), 0,
	    "schema-3 fixture loaded");
	db = db_open(path);
	is_int(int_of(db->h, "PRAGMA user_version"), DB_SCHEMA_VERSION,
	    "schema 3 migrated to the current version");
	s1 = shape(fresh);
	s2 = shape(db->h);
	is_str(s2, s1, "its tables and indexes match a fresh schema");
	free(s1);
	free(s2);
	c1 = constraints(fresh, "event");
	c2 = constraints(db->h, "event");
	is_str(c2, c1, "its rebuilt event has the fresh constraints");
	free(c1);
	free(c2);
	is_int(int_of(db->h, "SELECT count(*) FROM event WHERE"
	    " (seq = 1 AND action = 'start') OR (seq = 2 AND"
	    " actor = 'Old Tom')"), 2, "its combat events kept");
	is_int(int_of(db->h, "SELECT count(*) FROM sqlite_schema WHERE"
	    " name = 'event_v3'"), 0, "the old event table gone");
	is_int(sqlite3_exec(db->h, "INSERT INTO event (combat_id, seq, round,"
	    " action, time) SELECT id, 3, 1, 'flee', 0 FROM combat", NULL,
	    NULL, NULL),
	    SQLITE_OK, "a schema-4 action is accepted");
	db_close(db);
}

/* Keys: their text both ways, and a name's key, exactly. */
static void
test_keys(struct db *db)
{
	int64_t base = db_key_base(db), foreign;
	char buf[DB_KEY_TEXT_MAX];

	ok(base >= INT64_C(1) << 62 && base % (INT64_C(1) << 31) == 0,
	    "the key base: a tag times 2^31, at least 2^62");
	is_int(db_key_parse(db, "3"), base + 3, "'3' is this station's 3");
	is_str(db_key_text(db, base + 3, buf), "3", "and shows as 3");
	is_str(db_key_json(db, base + 3, buf), "3", "a number in JSON");
	foreign = (INT64_C(0x89abcdef) << 31) + 7;
	if (db_key_own(db, foreign))
		foreign += INT64_C(1) << 31;
	ok(!db_key_own(db, foreign), "another station's key");
	is_int(db_key_parse(db, db_key_text(db, foreign, buf)), foreign,
	    "another station's key reads back from its text");
	ok(strchr(db_key_json(db, foreign, buf), '"') != NULL,
	    "a string in JSON");
	is_int(db_key_parse(NULL, "2147483647"), 1, "the highest number");
	is_int(db_key_parse(NULL, "2147483648"), 0, "one more: refused");
	is_int(db_key_parse(NULL, "0"), 0, "0 refused");
	is_int(db_key_parse(NULL, "03"), 0, "a leading 0 refused");
	is_int(db_key_parse(NULL, "89abcdef-0"), 0, "number 0 refused");
	is_int(db_key_parse(NULL, "09abcdef-1"), 0, "a tag without its top "
	    "bit refused");
	is_int(db_key_parse(NULL, "89ABCDEF-1"), (INT64_C(0x89abcdef) << 31) +
	    1, "a tag in capitals read");
	is_int(db_station_tag("0123456789abcdef0123456789abcdef"),
	    INT64_C(0x81234567), "an old station's tag: its top bit set");
	/* BLAKE2b-64 of the name, its top two bits 01. */
	is_int(db_name_key("Ann"), INT64_C(6841901430824408670),
	    "the key of 'Ann'");
	is_int(db_name_key("ann"), INT64_C(5565005939136000933),
	    "of 'ann', another");
	is_int(db_name_key(""), INT64_C(7252660547403494068), "of ''");
}

/* db/dbpg.c: refkit's SQL in PostgreSQL's dialect. */
static void
test_pg_translate(void)
{
	static const struct {
		const char *sql, *want;
		int nparam, nextra, extra0;
	} t[] = {
		{ "SELECT a FROM t WHERE b = ?1 AND c = ?2", "SELECT a FROM t"
		    " WHERE b = $1 AND c = $2", 2, 0, 0 },
		/* A bare ? is one more than the largest before it. */
		{ "VALUES (?1, ?3, ?, ?)", "VALUES ($1, $3, $4, $5)", 5, 0,
		    0 },
		/* Nothing inside quotes is touched. */
		{ "SELECT '?1 temp.x', \"max(\" FROM t", "SELECT '?1 temp.x',"
		    " \"max(\" FROM t", 0, 0, 0 },
		{ "INSERT OR IGNORE INTO h VALUES (?1, ?2)", "INSERT INTO h"
		    " VALUES ($1, $2) ON CONFLICT DO NOTHING", 2, 0, 0 },
		{ "INSERT OR IGNORE INTO h SELECT 1 RETURNING id", "INSERT INTO"
		    " h SELECT 1 ON CONFLICT DO NOTHING RETURNING id", 0, 0, 0 },
		/* Scalar max and min; the aggregates stay. */
		{ "SELECT max(a, b), min(x, f(y, z)), max(c)", "SELECT"
		    " greatest(a, b), least(x, f(y, z)), max(c)", 0, 0, 0 },
		{ "DELETE FROM temp.n; SELECT amax(a, b)", "DELETE FROM"
		    " pg_temp.n; SELECT amax(a, b)", 0, 0, 0 },
		{ "SELECT 1 FROM p CROSS JOIN q USING (n)", "SELECT 1 FROM p"
		    " JOIN q USING (n)", 0, 0, 0 },
		/* A name key is computed by refkit, as a parameter. */
		{ "VALUES (refkit_name_key(?1), ?1, ?2)", "VALUES ($3, $1, $2)",
		    2, 1, 1 },
		{ "VALUES (refkit_name_key(lower(?2)), ?1, ?2)", "VALUES ($3,"
		    " $1, $2)", 2, 1, -2 },
		{ "SELECT refkit_name_key(name) FROM c", "SELECT"
		    " refkit_name_key(name) FROM c", 0, 0, 0 },
		/* json_extract of a column at a plain path, written out. */
		{ "SELECT json_extract(detail, '$.power.em') FROM e", "SELECT"
		    " (CASE json_typeof(detail::json #> '{power,em}') WHEN"
		    " 'boolean' THEN CASE WHEN detail::json #>> '{power,em}' ="
		    " 'true' THEN '1' ELSE '0' END ELSE detail::json #>>"
		    " '{power,em}' END) FROM e", 0, 0, 0 },
		{ "SELECT JSON_EXTRACT( e.v ,'$' ), ?1", "SELECT (CASE"
		    " json_typeof(e.v::json #> '{}') WHEN 'boolean' THEN CASE"
		    " WHEN e.v::json #>> '{}' = 'true' THEN '1' ELSE '0' END ELSE"
		    " e.v::json #>> '{}' END), $1", 1, 0, 0 },
		/* Any other form stays a call of the schema's function. */
		{ "SELECT json_extract(?1, '$.a'), json_extract(d, '$.a[0]'),"
		    " json_extract(d, '$.0'), json_extract(d, '$.a.'),"
		    " json_extract(d, '$..a'), json_extract(d, \"$.a\"),"
		    " json_extract(d, '$.a', '$.b'), json_extract(lower(d), '$.a')",
		    "SELECT json_extract($1, '$.a'), json_extract(d, '$.a[0]'),"
		    " json_extract(d, '$.0'), json_extract(d, '$.a.'),"
		    " json_extract(d, '$..a'), json_extract(d, \"$.a\"),"
		    " json_extract(d, '$.a', '$.b'), json_extract(lower(d), '$.a')",
		    1, 0, 0 },
	};

	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		int np, extra[4] = { 0 }, ne;
		char *got = dbpg_translate(t[i].sql, &np, extra, 4, &ne);

		is_str(got, t[i].want, "pg: %s", t[i].sql);
		is_int(np, t[i].nparam, "pg: %s: parameters", t[i].sql);
		is_int(ne, t[i].nextra, "pg: %s: its own", t[i].sql);
		is_int(extra[0], t[i].extra0, "pg: %s: from", t[i].sql);
		free(got);
	}
	{
		char *sql = dbpg_pin_keys(xstrdup("SELECT refkit_key_lo(),"
		    " xrefkit_key_lo(), 'refkit_key_hi()', refkit_key_hi()"),
		    INT64_C(0x89abcdef) << 31);

		is_str(sql, "SELECT (4960124515297263617::bigint),"
		    " xrefkit_key_lo(), 'refkit_key_hi()',"
		    " (4960124517444747263::bigint)", "pg: keys pinned");
		free(sql);
		sql = dbpg_pin_keys(xstrdup("SELECT refkit_key_lo()"), 0);
		is_str(sql, "SELECT refkit_key_lo()", "pg: keys not yet known");
		free(sql);
	}
	is_int(dbpg_is_conninfo("postgresql://u@h/db"), 1, "a URI");
	is_int(dbpg_is_conninfo("postgres:///db?host=/run/pg"), 1,
	    "another");
	is_int(dbpg_is_conninfo("host=/run/pg dbname=x"), 1, "key=value");
	is_int(dbpg_is_conninfo(" dbname = x"), 1, "spaced");
	is_int(dbpg_is_conninfo("refkit.db"), 0, "a file");
	is_int(dbpg_is_conninfo("dir/a=b.db"), 0, "a path with =");
	is_int(dbpg_is_conninfo("/tmp/postgresql://x"), 0, "absolute");
}

/* The data of the newest change, and its length, or NULL. */
static void *
last_change(sqlite3 *h, int *n)
{
	sqlite3_stmt *st;
	void *data = NULL;

	*n = 0;
	if (sqlite3_prepare_v2(h, "SELECT data FROM change ORDER BY no DESC"
	    " LIMIT 1", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		*n = sqlite3_column_bytes(st, 0);
		data = xmalloc((size_t)*n + 1);
		memcpy(data, sqlite3_column_blob(st, 0), (size_t)*n);
	}
	sqlite3_finalize(st);
	return data;
}

/* Every row of character, as text. */
static char *
characters(sqlite3 *h)
{
	sqlite3_stmt *st;
	char *all = xstrdup("");

	sqlite3_prepare_v2(h, "SELECT id, name, str, created FROM character"
	    " ORDER BY id", -1, &st, NULL);
	while (sqlite3_step(st) == SQLITE_ROW) {
		char *next = xasprintf("%s%lld %s %d %lld\n", all,
		    (long long)sqlite3_column_int64(st, 0),
		    sqlite3_column_text(st, 1), sqlite3_column_int(st, 2),
		    (long long)sqlite3_column_int64(st, 3));
		free(all);
		all = next;
	}
	sqlite3_finalize(st);
	return all;
}

static int
no_conflict(void *ctx, int why, sqlite3_changeset_iter *it)
{
	(void)ctx;
	(void)why;
	(void)it;
	return SQLITE_CHANGESET_ABORT;
}

/*
 * db_changes_insert records an INSERT's rows as the session would: one
 * row's change is the session's to the byte; several rows are one
 * change, which another database takes in to hold the same rows.
 */
static void
test_changes_insert(const char *dir)
{
	static const char one[] = "INSERT INTO character (id, name, str,"
	    " created, updated) VALUES (?1, 'Ann', 7, 100, 100) RETURNING *";
	static const char three[] = "INSERT INTO character (id, name, str,"
	    " created, updated) SELECT ?1 + n, 'Bob ' || n, n, 5, 5 FROM"
	    " (SELECT 1 AS n UNION ALL SELECT 2 UNION ALL SELECT 3)"
	    " RETURNING *";
	char *px = xasprintf("%s/ins-x.db", dir);
	char *py = xasprintf("%s/ins-y.db", dir);
	char *pz = xasprintf("%s/ins-z.db", dir);
	struct db *x = db_open(px), *y = db_open(py), *z = db_open(pz);
	struct db_stmt *st;
	void *cx, *cy;
	int nx, ny, before;
	char *rows_y, *rows_z;

	/* A first change each, which carries the station's own row. */
	for (int k = 0; k < 2; k++) {
		struct db *w = k ? y : x;

		db_begin(w);
		db_exec(w, "UPDATE station SET name = 'w' WHERE id ="
		    " (SELECT id FROM station_self)", "cannot rename");
		db_commit(w);
	}
	db_begin(x);
	st = db_prepare(x, one);
	db_bind_int(st, 1, db_name_key("Ann"));
	is_int(db_step(x, st, 0), DB_ROW, "an insert through the session");
	db_finalize(st);
	db_commit(x);
	db_begin(y);
	st = db_prepare(y, one);
	db_bind_int(st, 1, db_name_key("Ann"));
	is_int(db_changes_insert(y, "character", st), 1,
	    "db_changes_insert: one row added");
	db_finalize(st);
	db_commit(y);
	cx = last_change(x->h, &nx);
	cy = last_change(y->h, &ny);
	ok(cx != NULL && cy != NULL && nx == ny && memcmp(cx, cy,
	    (size_t)nx) == 0, "its change is the session's, byte for byte");
	free(cx);
	free(cy);

	before = int_of(y->h, "SELECT count(*) FROM change");
	db_begin(y);
	st = db_prepare(y, three);
	db_bind_int(st, 1, db_name_key("Bob"));
	is_int(db_changes_insert(y, "character", st), 3, "three rows added");
	db_finalize(st);
	db_commit(y);
	is_int(int_of(y->h, "SELECT count(*) FROM change"), before + 1,
	    "as one change");
	cy = last_change(y->h, &ny);
	sqlite3_exec(z->h, "PRAGMA foreign_keys = OFF", NULL, NULL, NULL);
	is_int(sqlite3changeset_apply(z->h, ny, cy, NULL, no_conflict, NULL),
	    SQLITE_OK, "which another database takes in");
	rows_y = characters(y->h);
	rows_z = characters(z->h);
	ok(strstr(rows_y, rows_z) != NULL && strstr(rows_z, "Bob 3 3 5") !=
	    NULL, "and holds the three rows then");
	free(cy);
	free(rows_y);
	free(rows_z);
	db_close(x);
	db_close(y);
	db_close(z);
	remove_db(px);
	remove_db(py);
	remove_db(pz);
	free(px);
	free(py);
	free(pz);
}

/*
 * db_data_version (a live board's poll) moves when another connection
 * commits, and not for a read or a rollback.
 */
static void
test_data_version(const char *dir)
{
	char *path = xasprintf("%s/version.db", dir);
	struct db *x = db_open(path), *y = db_open(path);
	int64_t v0 = db_data_version(x), v1;

	is_int(db_data_version(x), v0, "data version: the same when idle");
	db_begin_read(y);
	is_int(int_of(y->h, "SELECT count(*) FROM item"), 0,
	    "data version: another connection reads");
	db_rollback(y);
	is_int(db_data_version(x), v0, "data version: a read moves nothing");
	db_begin(y);
	sqlite3_exec(y->h, "INSERT INTO item (name) VALUES ('Lamp')", NULL,
	    NULL, NULL);
	db_rollback(y);
	is_int(db_data_version(x), v0,
	    "data version: a rollback moves nothing");
	db_begin(y);
	sqlite3_exec(y->h, "INSERT INTO item (name) VALUES ('Lamp')", NULL,
	    NULL, NULL);
	db_commit(y);
	v1 = db_data_version(x);
	ok(v1 != v0, "data version: another connection's commit moves it");
	is_int(db_data_version(x), v1, "data version: then stays");
	db_close(y);
	db_close(x);
	remove_db(path);
	free(path);
}

/* The text of the first column of sql's first row (caller frees). */
static char *
str_of(sqlite3 *h, const char *sql)
{
	sqlite3_stmt *st;
	char *v = NULL;

	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v != NULL ? v : xstrdup("");
}

/* db_rehearsal_play's write: the copies over the database's own. */
static int
play_copies(void *arg)
{
	db_exec(arg, "INSERT INTO main.character SELECT * FROM reh.character"
	    " WHERE true ON CONFLICT (id) DO UPDATE SET str = excluded.str,"
	    " notes = excluded.notes", "cannot play");
	return 0;
}

/* A rehearsal of n characters Reh 1 ... whose STR is str, stopped. */
static struct db_rehearsal *
rehearse(struct db *db, int n, int str)
{
	static const char *const tables[] = { "character", NULL };
	struct db_rehearsal *r;
	char *sql;

	db_begin_read(db);
	r = db_rehearsal_start(db, "reh", tables);
	sql = xasprintf("WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL"
	    " SELECT i + 1 FROM k WHERE i < %d) INSERT INTO reh.character"
	    " (id, name, str, notes, created, updated) SELECT i, 'Reh ' || i,"
	    " %d, printf('%%.80c', 'x'), 1, 1 FROM k WHERE true"
	    " ON CONFLICT (id) DO UPDATE SET str = excluded.str", n, str);
	db_exec(db, sql, "cannot rehearse");
	free(sql);
	db_rehearsal_stop(r);
	db_commit(db);
	return r;
}

/* The insert and update ops in the changes after mark, read whole. */
static int
ops_since(struct db *db, int64_t mark, int *staged)
{
	struct db_stmt *st = db_prepare(db, "SELECT c.data, r.data, c.rest"
	    " FROM " DB_CHANGE_ROWS " WHERE c.no > ?1");
	sqlite3_changeset_iter *it;
	int n = 0;

	*staged = 0;
	db_bind_int(st, 1, mark);
	while (db_step(db, st, 0) == DB_ROW) {
		void *owned;
		size_t len;
		const void *cs = db_change_data(st, 0, 1, &len, &owned);

		*staged += db_column_type(st, 2) != DB_NULL;
		if (sqlite3changeset_start(&it, (int)len, (void *)cs) ==
		    SQLITE_OK) {
			while (sqlite3changeset_next(it) == SQLITE_ROW)
				n++;
			if (sqlite3changeset_finalize(it) != SQLITE_OK)
				n = -1000000;
		}
		free(owned);
	}
	db_finalize(st);
	return n;
}

/*
 * A rehearsal's large changesets are written beforehand, all but their
 * first bytes (db_rehearsal_stage), and a play records them naming
 * those rows: read whole, they are what was rehearsed, and nothing is
 * left staged.  A play refused (a change since the mark) takes its rows
 * out again; an hour-old staged row of an import that never played goes
 * with the next stage, a newer one stays; a small changeset is kept
 * whole in its change.
 */
static void
test_rehearsal_stage(const char *dir)
{
	char *path = xasprintf("%s/stage.db", dir);
	struct db *db = db_open(path);
	struct db_rehearsal *r;
	int64_t mark;
	int staged;

	char *create = str_of(db->h, "SELECT 'CREATE TABLE reh.' ||"
	    " substr(sql, 14) FROM sqlite_schema WHERE name = 'character'");

	db_exec(db, "ATTACH '' AS reh", "cannot attach");
	db_exec(db, create, "cannot copy the table");
	free(create);
	db_begin(db);
	db_exec(db, "INSERT INTO item (id, name) VALUES (1, 'Lamp')",
	    "cannot write");
	db_commit(db);

	mark = db_changes_mark(db);
	r = rehearse(db, 2000, 5);
	db_rehearsal_stage(r);
	is_int(int_of(db->h, "SELECT count(*) FROM change_staged"), 1,
	    "stage: one changeset of 2000 rows written beforehand");
	db_begin(db);
	is_int(db_rehearsal_play(r, mark, (const char *const[]){ "character",
	    NULL }, play_copies, db), 0, "stage: played");
	db_commit(db);
	db_rehearsal_free(r);
	is_int(ops_since(db, mark, &staged), 2000,
	    "stage: the change, read whole, is the 2000 rows");
	is_int(staged, 1, "stage: naming its rest");
	is_int(int_of(db->h, "SELECT length(data) FROM change ORDER BY no"
	    " DESC LIMIT 1"), 4096, "stage: its row holds 4096 bytes");
	is_int(int_of(db->h, "SELECT count(*) FROM change_staged"), 0,
	    "stage: nothing left staged");

	/* Refused: a change since the mark. */
	mark = db_changes_mark(db);
	r = rehearse(db, 2000, 6);
	db_exec(db, "INSERT INTO change_rest (id, data) VALUES (900001, x'00'),"
	    " (900002, x'00'); INSERT INTO change_staged (rest, staged)"
	    " VALUES (900001, unixepoch() - 3700), (900002, unixepoch())",
	    "cannot write");
	db_rehearsal_stage(r);
	is_int(int_of(db->h, "SELECT count(*) FROM change_staged"), 2,
	    "stage: the hour-old row gone, the new one and this one there");
	db_begin(db);
	db_exec(db, "UPDATE character SET str = 9 WHERE id = 7",
	    "cannot write");
	db_commit(db);
	db_begin(db);
	is_int(db_rehearsal_play(r, mark, (const char *const[]){ "character",
	    NULL }, play_copies, db), -1, "stage: a stale play refused");
	db_commit(db);
	db_rehearsal_free(r);
	is_int(int_of(db->h, "SELECT count(*) FROM change_rest WHERE id NOT"
	    " IN (SELECT rest FROM change WHERE rest IS NOT NULL)"), 1,
	    "stage: its rows taken out, the new one left");
	is_int(int_of(db->h, "SELECT rest FROM change_staged"), 900002,
	    "stage: which is still staged");

	/* Small: whole in its row. */
	mark = db_changes_mark(db);
	r = rehearse(db, 20, 7);
	db_rehearsal_stage(r);
	db_begin(db);
	is_int(db_rehearsal_play(r, mark, (const char *const[]){ "character",
	    NULL }, play_copies, db), 0, "stage: 20 rows played");
	db_commit(db);
	db_rehearsal_free(r);
	is_int(ops_since(db, mark, &staged), 20, "stage: the 20 rows");
	is_int(staged, 0, "stage: whole in their change");
	db_close(db);
	remove_db(path);
	free(path);
}

int
main(void)
{
	char dir[] = "/tmp/refkit-test-db-XXXXXX";
	char *fresh, *old, *v3, *s1, *s2, *c1, *c2;
	struct db *a, *b;
	const char *tables[] = { "item", "power", "holds_item", "holds_power",
	    "combat", "event", "fb_board", "fb_target", "fb_sphere", "fb_touch",
	    "fb_duelist", "fb_duel", "fb_event", "bg_stat", "bg_team",
	    "bg_figure", "bg_game", "bg_event" };

	if (mkdtemp(dir) == NULL)
		return 1;
	fresh = xasprintf("%s/fresh.db", dir);
	old = xasprintf("%s/old.db", dir);
	v3 = xasprintf("%s/v3.db", dir);

	a = db_open(fresh);
	is_int(int_of(a->h, "PRAGMA user_version"), DB_SCHEMA_VERSION,
	    "fresh database has the current schema version");
	is_int(int_of(a->h, "PRAGMA application_id"), DB_APPLICATION_ID,
	    "fresh database has refkit's application id");
	is_int(int_of(a->h, "PRAGMA foreign_keys"), 1, "foreign keys on");
	is_int(int_of(a->h, "SELECT count(*) FROM sqlite_schema WHERE"
	    " type = 'table'"), 35, "thirty-five tables");
	test_keys(a);
	test_pg_translate();
	ok(int_of(a->h, "SELECT journal_mode = 'wal' FROM"
	    " pragma_journal_mode") == 1, "WAL mode");
	db_close(a);
	/* Opening again changes nothing. */
	a = db_open(fresh);
	is_int(int_of(a->h, "PRAGMA user_version"), DB_SCHEMA_VERSION,
	    "reopened");

	/* Build a schema-1 file from the fixture and open it. */
	is_int(load_fixture(old, "schema-v1.sql"), 0, "fixture loaded");
	b = db_open(old);
	is_int(int_of(b->h, "PRAGMA user_version"), DB_SCHEMA_VERSION,
	    "schema 1 migrated to the current version");
	is_int(int_of(b->h, "SELECT str FROM character WHERE"
	    " name = 'Old Tom'"), 10, "the old character kept");
	s1 = shape(a->h);
	s2 = shape(b->h);
	is_str(s2, s1, "migrated tables and indexes match a fresh schema");
	is_int(int_of(b->h, "SELECT count(*) FROM fb_touch WHERE"
	    " board = 'default'"), 16, "migration adds the default board");
	is_int(int_of(b->h, "SELECT count(*) FROM bg_stat"), 6,
	    "migration adds the six stat names");
	is_int(int_of(b->h, "SELECT count(*) FROM station s JOIN"
	    " station_self USING (id) WHERE length(s.id) = 32"), 1,
	    "migration makes the database a station");
	is_int(int_of(a->h, "SELECT count(*) FROM station s JOIN"
	    " station_self USING (id) WHERE length(s.id) = 32"), 1,
	    "a new database is a station");
	{
		char *att = xasprintf("ATTACH '%s' AS o", old);

		ok(sqlite3_exec(a->h, att, NULL, NULL, NULL) == SQLITE_OK,
		    "attach the migrated database");
		is_int(int_of(a->h, "SELECT count(*) FROM main.station m,"
		    " o.station x WHERE m.id = x.id"), 0,
		    "two databases, two station ids");
		sqlite3_exec(a->h, "DETACH o", NULL, NULL, NULL);
		free(att);
	}
	for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
		c1 = constraints(a->h, tables[i]);
		c2 = constraints(b->h, tables[i]);
		is_str(c2, c1, "migrated %s has the fresh constraints",
		    tables[i]);
		free(c1);
		free(c2);
	}
	free(s1);
	free(s2);
	/* Every step came from schema.sql, so even the text is the same. */
	s1 = texts(a->h);
	s2 = texts(b->h);
	is_str(s2, s1, "migrated CREATE statements are a fresh schema's");
	free(s1);
	free(s2);
	for (int v = 2; v <= DB_SCHEMA_VERSION; v++)
		ok(db_schema_step[v] != NULL && strstr(db_schema_step[v],
		    "-- @") != NULL, "step %d is cut from schema.sql", v);
	test_schema3(a->h, v3);
	test_changes_insert(dir);
	test_data_version(dir);
	test_rehearsal_stage(dir);

	/* A transaction rolled back leaves nothing. */
	db_begin(a);
	sqlite3_exec(a->h, "INSERT INTO item (name) VALUES ('Sword')", NULL,
	    NULL, NULL);
	db_rollback(a);
	is_int(int_of(a->h, "SELECT count(*) FROM item"), 0, "rolled back");
	/* The CHECKs hold even against direct SQL. */
	is_int(sqlite3_exec(a->h, "INSERT INTO character (name, str, created,"
	    " updated) VALUES ('X', 1001, 0, 0)", NULL, NULL, NULL) & 0xff,
	    SQLITE_CONSTRAINT, "STR 1001 refused by the schema");
	is_int(sqlite3_exec(a->h, "INSERT INTO character (name, str, created,"
	    " updated) VALUES ('X', '12', 0, 0)", NULL, NULL, NULL), SQLITE_OK,
	    "STRICT coerces '12' to an integer");
	is_int(sqlite3_exec(a->h, "INSERT INTO character (name, str, created,"
	    " updated) VALUES ('Y', 'twelve', 0, 0)", NULL, NULL, NULL) &
	    0xff, SQLITE_CONSTRAINT, "STRICT refuses text in an INTEGER");
	is_int(sqlite3_exec(a->h, "INSERT INTO holds_item VALUES (999, 999)",
	    NULL, NULL, NULL) & 0xff, SQLITE_CONSTRAINT,
	    "foreign keys enforced");
	db_close(a);
	db_close(b);
	remove_db(fresh);
	remove_db(old);
	remove_db(v3);
	rmdir(dir);
	free(fresh);
	free(old);
	free(v3);
	return tap_done();
}
