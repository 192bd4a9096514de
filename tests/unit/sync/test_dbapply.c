/*
 * test_dbapply.c - sync/dbapply.c against SQLite's own apply: changesets
 * of every kind of conflict are applied to two databases alike, one by
 * sqlite3changeset_apply_v2 and one by dbapply_changeset, with a handler
 * that notes every question it is asked and what it saw of the row
 * there; the notes and the rows must be the same.  (On PostgreSQL,
 * tests/pg/sync-merge.sh runs the whole merge.)
 */
#include "tap.h"

#include <stdlib.h>
#include <unistd.h>

#include "db/changeset.h"
#include "db/db.h"
#include "sync/dbapply.h"
#include "base/util.h"

#include <sqlite3.h>

/* The handler's notes, and its answers: REPLACE where SQLite allows. */
struct notes {
	char	*text;
	int	 replace;	/* answer REPLACE to CONFLICT and DATA */
};

static void
note(struct notes *n, const char *s)
{
	char *t = xasprintf("%s%s", n->text ? n->text : "", s);

	free(n->text);
	n->text = t;
}

static int
handler(void *arg, int why, sqlite3_changeset_iter *it)
{
	struct notes *n = arg;
	const char *table;
	int ncol, op, indirect;
	char buf[256];

	if (why == SQLITE_CHANGESET_FOREIGN_KEY) {
		int k = 0;

		dbapply_fk_conflicts(it, &k);
		snprintf(buf, sizeof buf, "fk %d\n", k);
		note(n, buf);
		return SQLITE_CHANGESET_OMIT;
	}
	sqlite3changeset_op(it, &table, &ncol, &op, &indirect);
	snprintf(buf, sizeof buf, "%d %d %s", why, op, table);
	note(n, buf);
	if (why == SQLITE_CHANGESET_DATA || why == SQLITE_CHANGESET_CONFLICT)
		for (int i = 0; i < ncol; i++) {
			sqlite3_value *v = NULL;

			dbapply_conflict(it, i, &v);
			snprintf(buf, sizeof buf, " %s", v == NULL ? "-" :
			    sqlite3_value_type(v) == SQLITE_NULL ? "null" :
			    (const char *)sqlite3_value_text(v));
			note(n, buf);
		}
	note(n, "\n");
	if (n->replace && (why == SQLITE_CHANGESET_DATA ||
	    why == SQLITE_CHANGESET_CONFLICT))
		return SQLITE_CHANGESET_REPLACE;
	return SQLITE_CHANGESET_OMIT;
}

/* The rows of the tables the changesets touch, as text. */
static char *
rows(struct db *db)
{
	struct db_stmt *st = db_prepare(db, "SELECT 'c', id, name, given_or,"
	    " notes FROM character UNION ALL SELECT 'i', id, name, mod_or,"
	    " notes FROM item UNION ALL SELECT 'h', character_id, item_id,"
	    " NULL, NULL FROM holds_item ORDER BY 1, 2, 3");
	char *all = xstrdup("");

	while (db_step(db, st, 0) == DB_ROW) {
		char *next = xasprintf("%s%s %s %s %s %s\n", all,
		    db_column_text(st, 0), db_column_text(st, 1),
		    db_column_text(st, 2), db_column_text(st, 3) ?
		    db_column_text(st, 3) : "-", db_column_text(st, 4) ?
		    db_column_text(st, 4) : "-");
		free(all);
		all = next;
	}
	db_finalize(st);
	return all;
}

/* The changeset a write transaction of sql makes at db. */
static void *
changeset_of(struct db *db, const char *sql, int *n)
{
	struct db_stmt *st;
	void *cs = NULL;

	db_begin(db);
	db_exec(db, sql, "test writes");
	db_commit(db);
	st = db_prepare(db, "SELECT data FROM change ORDER BY no DESC"
	    " LIMIT 1");
	*n = 0;
	if (db_step(db, st, 0) == DB_ROW) {
		*n = db_column_bytes(st, 0);
		cs = xmalloc((size_t)*n);
		memcpy(cs, db_column_blob(st, 0), (size_t)*n);
	}
	db_finalize(st);
	return cs;
}

/*
 * Applies cs to a by SQLite and to b by dbapply, the same handler
 * answering; checks the notes and the rows are the same.
 */
static void
both(struct db *a, struct db *b, const void *cs, int n, int replace,
    const char *want, const char *what)
{
	struct notes na = { NULL, replace }, nb = { NULL, replace };
	struct dbapply *x = dbapply_new(b);
	char why[256] = "";
	char *ra, *rb;
	int rc;

	a->unrecorded = b->unrecorded = 1;
	db_begin(a);
	db_begin(b);
	rc = sqlite3changeset_apply_v2(a->h, n, (void *)cs, NULL, handler,
	    &na, NULL, NULL, SQLITE_CHANGESETAPPLY_NOSAVEPOINT);
	is_int(dbapply_changeset(x, cs, (size_t)n, NULL, handler, &nb, NULL,
	    why, sizeof why), rc == SQLITE_OK ? 0 : -1, "%s: both apply",
	    what);
	is_str(nb.text ? nb.text : "", na.text ? na.text : "",
	    "%s: the same questions", what);
	is_str(na.text ? na.text : "", want, "%s: the questions SQLite asks",
	    what);
	db_commit(a);
	db_commit(b);
	ra = rows(a);
	rb = rows(b);
	is_str(rb, ra, "%s: the same rows", what);
	free(ra);
	free(rb);
	free(na.text);
	free(nb.text);
	dbapply_free(x);
}

/* Runs sql at both databases, unrecorded, as their common past. */
static void
setup(struct db *a, struct db *b, const char *sql)
{
	struct db *d[2] = { a, b };

	for (int i = 0; i < 2; i++) {
		d[i]->unrecorded = 1;
		db_begin(d[i]);
		db_exec(d[i], sql, "test setup");
		db_commit(d[i]);
	}
}

static const char roster[] =
	"INSERT INTO character (id, name, given_or, created, updated)"
	" VALUES (1, 'Ann', 8, 1, 1), (2, 'Bob', 6, 1, 1), (3, 'Cy', 5, 1, 1);"
	"INSERT INTO item (id, name, mod_or) VALUES (10, 'Rope', 1),"
	" (11, 'Lamp', 0);"
	"INSERT INTO holds_item VALUES (1, 10);";

int
main(void)
{
	char dir[] = "/tmp/refkit-test-dbapply-XXXXXX";
	char *pa, *pb, *pc;
	struct db *a, *b, *c;
	void *cs;
	int n;

	if (mkdtemp(dir) == NULL)
		return 1;
	pa = xasprintf("%s/a.db", dir);
	pb = xasprintf("%s/b.db", dir);
	pc = xasprintf("%s/c.db", dir);
	a = db_open(pa);
	b = db_open(pb);
	c = db_open(pc);
	setup(a, b, roster);
	c->unrecorded = 1;
	db_begin(c);
	db_exec(c, roster, "test setup");
	db_commit(c);
	c->unrecorded = 0;

	/* Here as there: every change goes in without a question. */
	cs = changeset_of(c, "UPDATE character SET given_or = 9 WHERE id = 1;"
	    "INSERT INTO character (id, name, created, updated) VALUES"
	    " (4, 'Dee', 1, 1); INSERT INTO holds_item VALUES (4, 11);"
	    "DELETE FROM holds_item WHERE character_id = 1", &n);
	both(a, b, cs, n, 0, "", "no conflict");
	free(cs);

	/* Changed at both: DATA; a removal and an update of rows gone. */
	setup(a, b, "UPDATE character SET given_or = 7 WHERE id = 2;"
	    "UPDATE item SET notes = 'here' WHERE id = 11;"
	    "DELETE FROM character WHERE id = 3");
	cs = changeset_of(c, "UPDATE character SET given_or = 1 WHERE id = 2;"
	    "DELETE FROM item WHERE id = 11;"
	    "UPDATE character SET notes = 'x' WHERE id = 3", &n);
	both(a, b, cs, n, 0, "1 23 character 2 Bob null null null null null null"
	    " null null null null null 7 null null null null null null 1 1\n"
	    "2 23 character\n1 9 item 11 Lamp 0 0 0 0 0 0 both supplemental 0"
	    " here\n", "data and not found, omitted");
	/* Replaced, the item's removal takes its holding with it. */
	both(a, b, cs, n, 1, "1 23 character 2 Bob null null null null null null"
	    " null null null null null 7 null null null null null null 1 1\n"
	    "2 23 character\n1 9 item 11 Lamp 0 0 0 0 0 0 both supplemental 0"
	    " here\n2 9 holds_item\n", "data replaced");
	free(cs);

	/* Made at both: CONFLICT, kept and replaced. */
	setup(a, b, "INSERT INTO character (id, name, given_or, created,"
	    " updated) VALUES (5, 'Eve', 4, 1, 1)");
	cs = changeset_of(c, "INSERT INTO character (id, name, given_or,"
	    " created, updated) VALUES (5, 'Eve', 3, 2, 2)", &n);
	both(a, b, cs, n, 0, "3 18 character 5 Eve null null null null null"
	    " null null null null null null 4 null null null null null null"
	    " 1 1\n", "conflict omitted");
	both(a, b, cs, n, 1, "3 18 character 5 Eve null null null null null"
	    " null null null null null null 4 null null null null null null"
	    " 1 1\n", "conflict replaced");
	free(cs);

	/*
	 * Refused by a constraint (a name that is another's here), after
	 * the rows it was tried again with; and a refusal that the next
	 * change of the table lifts (Fay's name freed by her removal).
	 */
	setup(a, b, "INSERT INTO character (id, name, created, updated)"
	    " VALUES (6, 'Fay', 1, 1), (7, 'Gus', 1, 1)");
	cs = changeset_of(c, "INSERT INTO character (id, name, created,"
	    " updated) VALUES (8, 'Fay', 1, 1), (9, 'Hal', 1, 1)", &n);
	both(a, b, cs, n, 0, "4 18 character\n", "constraint");
	free(cs);
	c->unrecorded = 1;
	db_begin(c);
	db_exec(c, "INSERT INTO character (id, name, created, updated)"
	    " VALUES (7, 'Gus', 1, 1)", "test setup");
	db_commit(c);
	c->unrecorded = 0;
	cs = changeset_of(c, "DELETE FROM character WHERE id = 7;"
	    "INSERT INTO character (id, name, created, updated)"
	    " VALUES (12, 'Gus', 1, 1)", &n);
	both(a, b, cs, n, 0, "", "a refusal lifted later in the changeset");
	free(cs);

	/* References to records not here: counted once it is in. */
	cs = changeset_of(c, "INSERT INTO character (id, name, created,"
	    " updated) VALUES (13, 'Ivy', 1, 1);", &n);
	free(cs);
	cs = changeset_of(c, "INSERT INTO holds_item VALUES (13, 10)", &n);
	both(a, b, cs, n, 0, "fk 1\n", "dangling");
	free(cs);

	/* A damaged changeset is refused by both. */
	{
		unsigned char bad[] = { 'T', 2, 1, 0, 'x', 0, 18, 0, 1 };
		struct dbapply *x = dbapply_new(b);
		char why[256];

		b->unrecorded = 1;
		db_begin(b);
		is_int(dbapply_changeset(x, bad, sizeof bad, NULL, handler,
		    &(struct notes){ NULL, 0 }, NULL, why, sizeof why), -1,
		    "a damaged changeset is refused");
		db_rollback(b);
		dbapply_free(x);
	}

	db_close(a);
	db_close(b);
	db_close(c);
	tap_unlink_db(pa);
	tap_unlink_db(pb);
	tap_unlink_db(pc);
	rmdir(dir);
	free(pa);
	free(pb);
	free(pc);
	return tap_done();
}
