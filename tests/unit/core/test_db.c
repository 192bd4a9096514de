/*
 * test_db.c - creating the schema, migrating schema 1 to the current one,
 * and the transaction helpers, on real files in a temporary directory.
 */
#include "tap.h"

#include <stdlib.h>
#include <unistd.h>

#include "core/db.h"
#include "core/util.h"

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

int
main(void)
{
	char dir[] = "/tmp/refkit-test-db-XXXXXX";
	char *fresh, *old, *s1, *s2, *c1, *c2;
	struct db *a, *b;
	sqlite3 *h;
	const char *tables[] = { "item", "power", "holds_item", "holds_power",
	    "combat", "event", "fb_board", "fb_target", "fb_sphere", "fb_touch",
	    "fb_duelist", "fb_duel", "fb_event", "bg_stat", "bg_team",
	    "bg_figure", "bg_game", "bg_event" };

	if (mkdtemp(dir) == NULL)
		return 1;
	fresh = xasprintf("%s/fresh.db", dir);
	old = xasprintf("%s/old.db", dir);

	a = db_open(fresh);
	is_int(int_of(a->h, "PRAGMA user_version"), DB_SCHEMA_VERSION,
	    "fresh database has the current schema version");
	is_int(int_of(a->h, "PRAGMA application_id"), DB_APPLICATION_ID,
	    "fresh database has refkit's application id");
	is_int(int_of(a->h, "PRAGMA foreign_keys"), 1, "foreign keys on");
	is_int(int_of(a->h, "SELECT count(*) FROM sqlite_schema WHERE"
	    " type = 'table'"), 22, "twenty-two tables");
	ok(int_of(a->h, "SELECT journal_mode = 'wal' FROM"
	    " pragma_journal_mode") == 1, "WAL mode");
	db_close(a);
	/* Opening again changes nothing. */
	a = db_open(fresh);
	is_int(int_of(a->h, "PRAGMA user_version"), DB_SCHEMA_VERSION,
	    "reopened");

	/* Build a schema-1 file from the fixture and open it. */
	if (sqlite3_open(old, &h) != SQLITE_OK)
		return 1;
	{
		FILE *fp = fopen(SRCDIR "/tests/fixtures/schema-v1.sql", "r");
		char *sql = xcalloc(1, 65536);

		ok(fp != NULL, "fixture found");
		if (fp) {
			fread(sql, 1, 65535, fp);
			fclose(fp);
		}
		is_int(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK,
		    "fixture loaded");
		free(sql);
	}
	sqlite3_close(h);
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
	unlink(fresh);
	unlink(old);
	{
		char *w = xasprintf("%s-wal", fresh), *m = xasprintf("%s-shm",
		    fresh);

		unlink(w);
		unlink(m);
		free(w);
		free(m);
		w = xasprintf("%s-wal", old);
		m = xasprintf("%s-shm", old);
		unlink(w);
		unlink(m);
		free(w);
		free(m);
	}
	rmdir(dir);
	free(fresh);
	free(old);
	return tap_done();
}
