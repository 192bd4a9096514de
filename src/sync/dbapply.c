/*
 * dbapply.c - applying a changeset through the database layer; see
 * dbapply.h.
 *
 * What SQLite's apply does, and so what this does, change by change:
 *
 *  - an insert is made; refused by a constraint, the row with its key is
 *    looked for: found, the handler is asked about a CONFLICT (REPLACE
 *    removes that row and makes the insert again); not found, the change
 *    is put aside and tried again once the table's other changes are in,
 *    until a round makes no progress, and only then is the handler asked
 *    about a CONSTRAINT;
 *  - a removal takes the row with the key and every old value; an update
 *    changes the row with the key and the old values of the columns it
 *    changes.  No such row: the row with the key is looked for, and the
 *    handler asked about DATA (REPLACE makes the change again on the key
 *    alone) or, with none, NOTFOUND.  Refused by a constraint, the change
 *    is put aside as an insert is;
 *  - foreign keys are checked once the changeset is in: the handler is
 *    told how many references to records not here there are.
 *
 * The statements are written once, in SQL both databases take (IS NOT
 * DISTINCT FROM compares as SQLite's IS does), from the names of the
 * table's columns in this database's catalog; every value is bound.
 */
#include "sync/dbapply.h"

#include "db/changeset.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The table at hand: its columns here, and its statements. */
struct tbl {
	char		*name;
	int		 skip;		/* not applied (filter, schema) */
	int		 ncol;		/* the changeset's */
	int		 ncat;		/* the catalog's */
	char		**col;		/* ncat names (the catalog's) */
	unsigned char	*pk;		/* ncat places in the key (its) */
	int		 rowid;		/* the one key column, or -1 */
	int		 has_other;	/* a column not in the key */
	struct db_stmt	*ins, *del, *sel;
};

/* A table's columns here, read once an applier. */
struct catalog {
	char		*name;
	int		 n;
	char		**col;
	unsigned char	*pk;
	struct catalog	*next;
};

struct dbapply {
	struct db		*db;
	sqlite3			*mem;	/* makes SQLite's values of rows */
	struct catalog		*cat;
	/* The changeset at hand. */
	int			(*conflict)(void *, int,
				    sqlite3_changeset_iter *);
	void			*arg;
	const struct dbapply_hooks *hooks;
	struct tbl		 t;
	int			 fk_deferred; /* on PostgreSQL, once */
	int			 defer;	/* put refused changes aside */
	struct strbuf	 deferred;
	char			*why;
	size_t			 whysz;
};

/*
 * The conflict the handler is being asked about: the iterator and the
 * row here, or with no iterator the count of dangling references.
 */
static struct {
	sqlite3_changeset_iter	*it;
	sqlite3_value		**row;
	int			 ncol;
	int			 fk;
} here;

struct dbapply *
dbapply_new(struct db *db)
{
	struct dbapply *x = xcalloc(1, sizeof *x);

	x->db = db;
	if (sqlite3_open_v2(":memory:", &x->mem, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		errx(1, "cannot open an SQLite database in memory");
	return x;
}

static void
tbl_release(struct tbl *t)
{
	free(t->name);
	db_finalize(t->ins);
	db_finalize(t->del);
	db_finalize(t->sel);
	memset(t, 0, sizeof *t);
}

void
dbapply_free(struct dbapply *x)
{
	if (x == NULL)
		return;
	tbl_release(&x->t);
	strbuf_release(&x->deferred);
	while (x->cat != NULL) {
		struct catalog *c = x->cat;

		x->cat = c->next;
		for (int i = 0; i < c->n; i++)
			free(c->col[i]);
		free(c->col);
		free(c->pk);
		free(c->name);
		free(c);
	}
	sqlite3_close(x->mem);
	free(x);
}

int
dbapply_conflict(sqlite3_changeset_iter *it, int i, sqlite3_value **v)
{
	if (it == NULL || it != here.it)
		return sqlite3changeset_conflict(it, i, v);
	if (i < 0 || i >= here.ncol)
		return SQLITE_RANGE;
	*v = here.row[i];
	return SQLITE_OK;
}

int
dbapply_fk_conflicts(sqlite3_changeset_iter *it, int *n)
{
	if (it != NULL)
		return sqlite3changeset_fk_conflicts(it, n);
	*n = here.fk;
	return SQLITE_OK;
}

static int
fail(struct dbapply *x, const char *msg)
{
	return util_say(x->why, x->whysz, "%s", msg);
}

int
dbapply_bind(struct db_stmt *st, int i, sqlite3_value *v)
{
	if (v == NULL)
		return -1;
	switch (sqlite3_value_type(v)) {
	case SQLITE_INTEGER:
		db_bind_int(st, i, sqlite3_value_int64(v));
		break;
	case SQLITE_FLOAT:
		db_bind_double(st, i, sqlite3_value_double(v));
		break;
	case SQLITE_TEXT:
		db_bind_textn(st, i, (const char *)sqlite3_value_text(v),
		    sqlite3_value_bytes(v));
		break;
	case SQLITE_BLOB:
		db_bind_blob(st, i, sqlite3_value_blob(v),
		    sqlite3_value_bytes(v));
		break;
	default:
		db_bind_null(st, i);
		break;
	}
	return 0;
}

static sqlite3_value *
old_value(sqlite3_changeset_iter *it, int i)
{
	sqlite3_value *v = NULL;

	(void)sqlite3changeset_old(it, i, &v);
	return v;
}

static sqlite3_value *
new_value(sqlite3_changeset_iter *it, int i)
{
	sqlite3_value *v = NULL;

	(void)sqlite3changeset_new(it, i, &v);
	return v;
}

/* The WHERE of a row by its key: "a" = ?1 AND "c" = ?3 (1-based i). */
static void
put_key_where(struct strbuf *b, const struct tbl *t)
{
	const char *sep = " WHERE ";

	for (int i = 0; i < t->ncol; i++) {
		if (!t->pk[i])
			continue;
		strbuf_addstr(b, sep);
		strbuf_ident(b, t->col[i]);
		strbuf_addf(b, " = ?%d", i + 1);
		sep = " AND ";
	}
}

/* The table's statements: select, insert and delete by key. */
static void
tbl_statements(struct dbapply *x, struct tbl *t)
{
	struct strbuf b = STRBUF_INIT;
	const char *sep;

	strbuf_addstr(&b, "SELECT ");
	for (int i = 0; i < t->ncol; i++) {
		strbuf_addstr(&b, i ? ", " : "");
		strbuf_ident(&b, t->col[i]);
	}
	strbuf_addstr(&b, " FROM ");
	strbuf_ident(&b, t->name);
	put_key_where(&b, t);
	t->sel = db_prepare(x->db, b.s);
	strbuf_reset(&b);

	strbuf_addstr(&b, "INSERT INTO ");
	strbuf_ident(&b, t->name);
	strbuf_addstr(&b, " (");
	for (int i = 0; i < t->ncol; i++) {
		strbuf_addstr(&b, i ? ", " : "");
		strbuf_ident(&b, t->col[i]);
	}
	strbuf_addstr(&b, ") VALUES (");
	for (int i = 0; i < t->ncol; i++)
		strbuf_addf(&b, "%s?%d", i ? ", " : "", i + 1);
	strbuf_addstr(&b, ")");
	t->ins = db_prepare(x->db, b.s);
	strbuf_reset(&b);

	/* ?(ncol + 1) nonzero: by the key alone (SQLite's own form). */
	strbuf_addstr(&b, "DELETE FROM ");
	strbuf_ident(&b, t->name);
	put_key_where(&b, t);
	if (t->has_other) {
		strbuf_addf(&b, " AND (?%d <> 0", t->ncol + 1);
		sep = " OR ";
		for (int i = 0; i < t->ncol; i++) {
			if (t->pk[i])
				continue;
			strbuf_addstr(&b, sep);
			strbuf_ident(&b, t->col[i]);
			strbuf_addf(&b, " IS NOT DISTINCT FROM ?%d", i + 1);
			sep = " AND ";
		}
		strbuf_addstr(&b, ")");
	}
	t->del = db_prepare(x->db, b.s);
	strbuf_release(&b);
}

/*
 * Makes table the one at hand, or one passed over (t->skip) when the
 * filter says so or it is not here as the changeset has it: as SQLite,
 * which passes over a table it lacks, one with fewer columns, or one
 * whose key is another.
 */
static void
tbl_load(struct dbapply *x, sqlite3_changeset_iter *it, const char *table,
    int ncol, int (*filter)(void *, const char *))
{
	struct tbl *t = &x->t;
	struct catalog *c;
	unsigned char *pk = NULL;
	int npk = 0, min = 0;

	tbl_release(t);
	t->name = xstrdup(table);
	t->ncol = ncol;
	t->rowid = -1;
	x->defer = 1;
	if (filter != NULL && !filter(x->arg, table)) {
		t->skip = 1;
		return;
	}
	(void)sqlite3changeset_pk(it, &pk, NULL);
	for (c = x->cat; c != NULL && strcmp(c->name, table) != 0;
	    c = c->next)
		;
	if (c == NULL) {
		c = xcalloc(1, sizeof *c);
		c->name = xstrdup(table);
		c->n = db_table_columns(x->db, table, &c->col, &c->pk);
		c->next = x->cat;
		x->cat = c;
	}
	t->ncat = c->n;
	t->col = c->col;
	t->pk = c->pk;
	for (int i = 0; i < t->ncat; i++) {
		if (t->pk[i]) {
			min = i + 1;
			npk++;
			t->rowid = i;
		} else if (i < ncol)
			t->has_other = 1;
	}
	if (t->ncat == 0 || t->ncat < ncol || ncol < min ||
	    memcmp(t->pk, pk, (size_t)ncol) != 0) {
		t->skip = 1;
		return;
	}
	if (npk != 1)
		t->rowid = -1;
	tbl_statements(x, t);
}

/*
 * The row the statement found, as SQLite's values (the caller frees
 * them with sqlite3_value_free and the array), made by an SQLite
 * statement in memory that returns its parameters.
 */
static sqlite3_value **
row_values(struct dbapply *x, struct db_stmt *st, int n)
{
	sqlite3_value **v = xcalloc((size_t)n, sizeof(sqlite3_value *));
	sqlite3_stmt *s;
	struct strbuf b = STRBUF_INIT;

	strbuf_addstr(&b, "SELECT ");
	for (int i = 0; i < n; i++)
		strbuf_addf(&b, "%s?%d", i ? ", " : "", i + 1);
	if (sqlite3_prepare_v2(x->mem, b.s, -1, &s, NULL) != SQLITE_OK)
		errx(1, "cannot read a row: %s", sqlite3_errmsg(x->mem));
	strbuf_release(&b);
	for (int i = 0; i < n; i++) {
		switch (db_column_type(st, i)) {
		case DB_INTEGER:
			sqlite3_bind_int64(s, i + 1, db_column_int(st, i));
			break;
		case DB_FLOAT:
			sqlite3_bind_double(s, i + 1, db_column_double(st, i));
			break;
		case DB_TEXT:
			sqlite3_bind_text(s, i + 1, db_column_text(st, i),
			    db_column_bytes(st, i), SQLITE_TRANSIENT);
			break;
		case DB_BLOB:
			sqlite3_bind_blob(s, i + 1, db_column_blob(st, i),
			    db_column_bytes(st, i), SQLITE_TRANSIENT);
			break;
		default:
			break;
		}
	}
	if (sqlite3_step(s) != SQLITE_ROW)
		errx(1, "cannot read a row: %s", sqlite3_errmsg(x->mem));
	for (int i = 0; i < n; i++)
		if ((v[i] = sqlite3_value_dup(sqlite3_column_value(s, i))) ==
		    NULL)
			errx(1, "out of memory");
	sqlite3_finalize(s);
	return v;
}

/* Puts the change it is at aside, to be tried again (its own bytes). */
static void
defer_change(struct dbapply *x, sqlite3_changeset_iter *it)
{
	const char *table;
	int ncol, op, indirect;

	(void)sqlite3changeset_op(it, &table, &ncol, &op, &indirect);
	changeset_put_change(&x->deferred, op, indirect);
	for (int i = 0; i < ncol && op != SQLITE_INSERT; i++)
		changeset_put_sqlite_value(&x->deferred, old_value(it, i));
	for (int i = 0; i < ncol && op != SQLITE_DELETE; i++)
		changeset_put_sqlite_value(&x->deferred, new_value(it, i));
}

/*
 * Asks the handler about a conflict of type etype (DATA or CONFLICT):
 * with found set when the row with the change's key is here, found by
 * looking when replace is given; else the next type (NOTFOUND or
 * CONSTRAINT), or for a CONSTRAINT the change is put aside first.  An
 * answer of REPLACE sets *replace.  Returns 0 or -1.
 */
static int
handle(struct dbapply *x, int etype, sqlite3_changeset_iter *it,
    int *replace)
{
	struct tbl *t = &x->t;
	const char *table;
	int ncol, op, indirect, res, found = 0;

	(void)sqlite3changeset_op(it, &table, &ncol, &op, &indirect);
	if (replace != NULL) {
		db_clear(t->sel);
		for (int i = 0; i < ncol; i++)
			if (t->pk[i] && dbapply_bind(t->sel, i + 1,
			    op == SQLITE_INSERT ? new_value(it, i) :
			    old_value(it, i)) != 0)
				return fail(x, "a change without its key");
		found = db_step(x->db, t->sel, 0) == DB_ROW;
	}
	if (found) {
		here.row = row_values(x, t->sel, ncol);
		here.ncol = ncol;
		here.it = it;
		res = x->conflict(x->arg, etype, it);
		here.it = NULL;
		for (int i = 0; i < ncol; i++)
			sqlite3_value_free(here.row[i]);
		free(here.row);
		here.row = NULL;
		db_reset(t->sel);
	} else {
		if (replace != NULL)
			db_reset(t->sel);
		if (x->defer && etype == SQLITE_CHANGESET_CONFLICT) {
			defer_change(x, it);
			return 0;
		}
		res = x->conflict(x->arg, etype + 1, it);
		if (res == SQLITE_CHANGESET_REPLACE)
			return fail(x, "a conflict answered with replace where "
			    "there is no row to replace");
	}
	switch (res) {
	case SQLITE_CHANGESET_REPLACE:
		*replace = 1;
		return 0;
	case SQLITE_CHANGESET_OMIT:
		return 0;
	case SQLITE_CHANGESET_ABORT:
		return fail(x, "aborted by its conflict handler");
	default:
		return fail(x, "a conflict answered with no answer");
	}
}

static void
wrote(struct dbapply *x, int op, sqlite3_changeset_iter *it)
{
	sqlite3_value *v;
	int64_t rowid = 0;

	if (x->hooks == NULL || x->hooks->wrote == NULL)
		return;
	if (x->t.rowid >= 0) {
		v = op == SQLITE_INSERT ? new_value(it, x->t.rowid) :
		    old_value(it, x->t.rowid);
		if (v != NULL && sqlite3_value_type(v) == SQLITE_INTEGER)
			rowid = sqlite3_value_int64(v);
	}
	x->hooks->wrote(x->hooks->arg, op, x->t.name, rowid);
}

/* Whether the gate passes the insert it is at over. */
static int
passed_over(struct dbapply *x, sqlite3_changeset_iter *it)
{
	sqlite3_value *pk[64];
	int n = 0;

	if (x->hooks == NULL || x->hooks->pass_over == NULL)
		return 0;
	for (int i = 0; i < x->t.ncol && n < 64; i++)
		if (x->t.pk[i])
			pk[n++] = new_value(it, i);
	return x->hooks->pass_over(x->hooks->arg, x->t.name, pk, n);
}

/* Whether the update it is at is held back (a change's, not a retry). */
static int
held(struct dbapply *x, sqlite3_changeset_iter *it)
{
	sqlite3_value *pk[64];
	int n = 0;

	if (x->hooks == NULL || x->hooks->hold == NULL)
		return 0;
	for (int i = 0; i < x->t.ncol && n < 64; i++)
		if (x->t.pk[i])
			pk[n++] = old_value(it, i);
	return x->hooks->hold(x->hooks->arg, x->t.name, pk, n);
}

/* An update: its columns, so its statement, are its own. */
static int
apply_update(struct dbapply *x, sqlite3_changeset_iter *it, int *retry)
{
	struct tbl *t = &x->t;
	struct db_stmt *st;
	struct strbuf b = STRBUF_INIT;
	const char *sep = " SET ";
	int patch = retry == NULL, rc;

	if (!patch && held(x, it))
		return handle(x, SQLITE_CHANGESET_DATA, it, retry);
	strbuf_addstr(&b, "UPDATE ");
	strbuf_ident(&b, t->name);
	for (int i = 0; i < t->ncol; i++) {
		if (t->pk[i] || new_value(it, i) == NULL)
			continue;
		strbuf_addstr(&b, sep);
		strbuf_ident(&b, t->col[i]);
		strbuf_addf(&b, " = ?%d", 2 * i + 1);
		sep = ", ";
	}
	if (strcmp(sep, ", ") != 0) {
		strbuf_release(&b);
		return fail(x, "an update that changes nothing");
	}
	sep = " WHERE ";
	for (int i = 0; i < t->ncol; i++) {
		if (!t->pk[i] && (patch || old_value(it, i) == NULL))
			continue;
		strbuf_addstr(&b, sep);
		strbuf_ident(&b, t->col[i]);
		strbuf_addf(&b, t->pk[i] ? " = ?%d" : " IS NOT DISTINCT FROM ?%d",
		    2 * i + 2);
		sep = " AND ";
	}
	st = db_prepare(x->db, b.s);
	strbuf_release(&b);
	rc = 0;
	for (int i = 0; i < t->ncol && rc == 0; i++) {
		sqlite3_value *o = old_value(it, i), *n = new_value(it, i);

		if (t->pk[i] || (!patch && o != NULL))
			rc = dbapply_bind(st, 2 * i + 2, o);
		if (rc == 0 && n != NULL && !t->pk[i])
			rc = dbapply_bind(st, 2 * i + 1, n);
	}
	if (rc != 0) {
		db_finalize(st);
		return fail(x, "an update without its key");
	}
	rc = db_step(x->db, st, 1);
	db_finalize(st);
	if (rc == DB_CONSTRAINT)
		return handle(x, SQLITE_CHANGESET_CONFLICT, it, NULL);
	if (db_changes(x->db) == 0)
		return handle(x, SQLITE_CHANGESET_DATA, it, retry);
	wrote(x, SQLITE_UPDATE, it);
	return 0;
}

/*
 * One change (sessionApplyOneOp's part): with retry and replace given,
 * a conflict may be answered with REPLACE, which sets one of them for
 * the caller to act on; without, the change is made on its key alone.
 */
static int
apply_op(struct dbapply *x, sqlite3_changeset_iter *it, int *replace,
    int *retry)
{
	struct tbl *t = &x->t;
	const char *table;
	int ncol, op, indirect, rc;

	(void)sqlite3changeset_op(it, &table, &ncol, &op, &indirect);
	if (op == SQLITE_UPDATE)
		return apply_update(x, it, retry);
	if (op == SQLITE_DELETE) {
		db_clear(t->del);
		for (int i = 0; i < ncol; i++)
			if (dbapply_bind(t->del, i + 1, old_value(it, i)) != 0)
				return fail(x, "a removal without its values");
		if (t->has_other)
			db_bind_int(t->del, ncol + 1, retry == NULL);
		rc = db_step(x->db, t->del, 1);
		db_reset(t->del);
		if (rc == DB_CONSTRAINT)
			return handle(x, SQLITE_CHANGESET_CONFLICT, it, NULL);
		if (db_changes(x->db) == 0)
			return handle(x, SQLITE_CHANGESET_DATA, it, retry);
		wrote(x, SQLITE_DELETE, it);
		return 0;
	}
	if (passed_over(x, it))
		return 0;
	db_clear(t->ins);
	for (int i = 0; i < ncol; i++)
		if (dbapply_bind(t->ins, i + 1, new_value(it, i)) != 0)
			return fail(x, "an insert without its values");
	rc = db_step(x->db, t->ins, 1);
	db_reset(t->ins);
	if (rc == DB_CONSTRAINT)
		return handle(x, SQLITE_CHANGESET_CONFLICT, it, replace);
	wrote(x, SQLITE_INSERT, it);
	return 0;
}

/* One change, and again as its conflict's answer asks. */
static int
apply_retry(struct dbapply *x, sqlite3_changeset_iter *it)
{
	struct tbl *t = &x->t;
	int replace = 0, retry = 0, rc;

	if (apply_op(x, it, &replace, &retry) != 0)
		return -1;
	if (retry)
		return apply_op(x, it, NULL, NULL);
	if (!replace)
		return 0;
	/* The row here goes, by its key; then the insert again. */
	db_clear(t->del);
	for (int i = 0; i < t->ncol; i++)
		if (t->pk[i] && dbapply_bind(t->del, i + 1, new_value(it, i)) !=
		    0)
			return fail(x, "an insert without its key");
	if (t->has_other)
		db_bind_int(t->del, t->ncol + 1, 1);
	rc = db_step(x->db, t->del, 1);
	db_reset(t->del);
	if (rc == DB_CONSTRAINT)
		return fail(x, "the row to replace cannot be removed");
	wrote(x, SQLITE_DELETE, it);
	return apply_op(x, it, NULL, NULL);
}

/*
 * The changes put aside, tried again until none is left or a round
 * makes no progress; after that, a refusal is the handler's to answer.
 */
static int
retry_deferred(struct dbapply *x)
{
	while (x->deferred.len > 0) {
		struct strbuf cons = x->deferred, cs = STRBUF_INIT;
		sqlite3_changeset_iter *it;
		int rc = 0;

		memset(&x->deferred, 0, sizeof x->deferred);
		changeset_put_table(&cs, x->t.name, x->t.ncol, x->t.pk);
		strbuf_add(&cs, cons.s, cons.len);
		if (sqlite3changeset_start(&it, (int)cs.len, cs.s) != SQLITE_OK)
			rc = fail(x, "cannot take up a change again");
		while (rc == 0 && sqlite3changeset_next(it) == SQLITE_ROW)
			rc = apply_retry(x, it);
		if (sqlite3changeset_finalize(it) != SQLITE_OK && rc == 0)
			rc = fail(x, "cannot take up a change again");
		strbuf_release(&cs);
		if (rc != 0) {
			strbuf_release(&cons);
			return -1;
		}
		if (x->deferred.len >= cons.len)
			x->defer = 0;
		strbuf_release(&cons);
	}
	return 0;
}

/*
 * How many references to records not here the transaction has made.
 * SQLite keeps the count; PostgreSQL checks the foreign keys it was told
 * to defer when told to check them now, and on a refusal counts them
 * (refkit_check_keys, tools/pgstation.sql, in one round trip).
 */
static int
dangling(struct dbapply *x)
{
	struct db_stmt *st;
	int n = 0, hi = 0;

	if (x->db->pg == NULL) {
		sqlite3_db_status(x->db->h, SQLITE_DBSTATUS_DEFERRED_FKS, &n,
		    &hi, 0);
		return n;
	}
	st = db_prepare(x->db, "SELECT refkit_check_keys()");
	if (db_step(x->db, st, 0) == DB_ROW)
		n = (int)db_column_int(st, 0);
	db_finalize(st);
	return n;
}

int
dbapply_changeset(struct dbapply *x, const void *cs, size_t n,
    int (*filter)(void *, const char *),
    int (*conflict)(void *, int, sqlite3_changeset_iter *), void *arg,
    const struct dbapply_hooks *hooks, char *why, size_t whysz)
{
	sqlite3_changeset_iter *it;
	int rc = 0, nfk;

	x->conflict = conflict;
	x->arg = arg;
	x->hooks = hooks;
	x->why = why;
	x->whysz = whysz;
	tbl_release(&x->t);
	if (n > INT32_MAX || sqlite3changeset_start(&it, (int)n,
	    (void *)cs) != SQLITE_OK)
		return util_say(why, whysz, "a damaged changeset");
	/* On PostgreSQL they stay deferred (refkit_check_keys). */
	if (x->db->pg == NULL)
		db_exec(x->db, "PRAGMA defer_foreign_keys = 1",
		    "cannot defer the foreign keys");
	else if (!x->fk_deferred)
		db_exec(x->db, "SET CONSTRAINTS ALL DEFERRED",
		    "cannot defer the foreign keys");
	x->fk_deferred = 1;
	while (rc == 0 && sqlite3changeset_next(it) == SQLITE_ROW) {
		const char *table;
		int ncol, op, indirect;

		(void)sqlite3changeset_op(it, &table, &ncol, &op, &indirect);
		if (x->t.name == NULL || strcasecmp(table, x->t.name) != 0) {
			if (x->t.name != NULL && !x->t.skip &&
			    retry_deferred(x) != 0) {
				rc = -1;
				break;
			}
			tbl_load(x, it, table, ncol, filter);
		}
		if (!x->t.skip)
			rc = apply_retry(x, it);
	}
	if (sqlite3changeset_finalize(it) != SQLITE_OK && rc == 0)
		rc = util_say(why, whysz, "a damaged changeset");
	if (rc == 0 && x->t.name != NULL && !x->t.skip)
		rc = retry_deferred(x);
	if (rc == 0 && (nfk = dangling(x)) != 0) {
		here.fk = nfk;
		if (conflict(arg, SQLITE_CHANGESET_FOREIGN_KEY, NULL) !=
		    SQLITE_CHANGESET_OMIT)
			rc = util_say(why, whysz, "a reference to a record not "
			    "here");
		here.fk = 0;
	}
	if (x->db->pg == NULL)
		db_exec(x->db, "PRAGMA defer_foreign_keys = 0",
		    "cannot defer the foreign keys");
	strbuf_release(&x->deferred);
	tbl_release(&x->t);
	return rc;
}
