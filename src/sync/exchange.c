/*
 * exchange.c - exporting and applying changes between stations; see
 * exchange.h.
 */
#include "sync/exchange.h"

#include "sync/changes_show.h"
#include "db/changeset.h"
#include "sync/dbapply.h"
#include "db/gone.h"
#include "base/out.h"
#include "sync/resolve.h"
#include "sync/station.h"
#include "sync/writers.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <ctype.h>
#include <err.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The conflicts, as the report names them. */
#define K_BOTH_MADE	"made at both, differently"
#define K_BOTH_CHANGED	"changed at both"
#define K_GONE_HERE	"removed here, changed there"
#define K_GONE_THERE	"changed here, removed there"
#define K_REFUSED	"refused by the schema here"
#define K_DANGLING	"names a record not here"

/* Why theirs cannot settle a conflict SQLite will not let be replaced. */
#define NT_GONE		"the record is not here to take the change"
#define NT_REFUSED	"the schema here refuses the version that comes"

/* The column names of the tables met, from this database's schema. */
struct cols {
	char		*table;
	int		 n;
	char		**name;
	struct cols	*next;
};

/*
 * The times a row is to have once its changeset is in: the earliest
 * created and the latest updated of the versions a conflict met.  An
 * answer to a conflict keeps one version whole, so they are set after.
 */
struct stamp {
	struct cols	*c;
	int		 ncol;
	sqlite3_value	**pk;		/* ncol entries, NULL off the key */
	int		 has_created, has_updated;
	int		 set_created, set_updated;	/* as they are, not
							   min and max */
	int64_t		 created, updated;
};

/*
 * Values to set in a row once its changeset is in: the columns of a
 * change that win over the row here, when others of the same change do
 * not (or a conflict's, as it was settled).  SQLite's answer to a
 * conflict takes or leaves the change whole, so these are set after.
 */
struct patch {
	struct cols	*c;
	int		 ncol;
	sqlite3_value	**pk;		/* ncol entries, NULL off the key */
	sqlite3_value	**set;		/* ncol entries, NULL: left alone */
};

static void
values_free(sqlite3_value **v, int n)
{
	if (v == NULL)
		return;
	for (int k = 0; k < n; k++)
		sqlite3_value_free(v[k]);
	free(v);
}

static void
conflict_release(struct exchange_conflict *x)
{
	free(x->table);
	free(x->key);
	free(x->mine);
	free(x->theirs);
	free(x->name);
	free(x->fields);
	free(x->columns);
	values_free(x->pk, x->ncol);
	free(x->cols);
}

static void
patches_clear(struct exchange_apply *a)
{
	struct patch *p = a->patches;

	for (size_t i = 0; i < a->npatches; i++) {
		values_free(p[i].pk, p[i].ncol);
		values_free(p[i].set, p[i].ncol);
	}
	a->npatches = 0;
}

static int row_seen(struct db_stmt *st, int i, struct changes_entry *e);
static struct changeset_value *here_values(sqlite3_changeset_iter *it,
    int ncol);
static sqlite3_value **key_values(sqlite3_changeset_iter *it, int op,
    int ncol);

void
exchange_apply_init(struct exchange_apply *a, enum exchange_prefer p)
{
	memset(a, 0, sizeof *a);
	a->prefer = p;
}

static void
stamps_clear(struct exchange_apply *a)
{
	struct stamp *x = a->stamps;

	for (size_t i = 0; i < a->nstamps; i++) {
		for (int k = 0; k < x[i].ncol; k++)
			sqlite3_value_free(x[i].pk[k]);
		free(x[i].pk);
	}
	a->nstamps = 0;
}

/*
 * The gates (gone.h): while a changeset is applied, a temporary trigger
 * on every table gone has rows of passes over (RAISE(IGNORE)) the insert
 * of a row that a change removed which the station of the change at
 * hand had not seen.  A second one holds back the update of such a row
 * (one made again since), which SQLite then hands to the conflict
 * handler as one whose row here differs (judge_again): the change was
 * made to the record that was removed, not to the one made again.  The
 * change at hand is set before each changeset.  On PostgreSQL the
 * applier asks the same questions before each insert and each update
 * (sync/dbapply.h), of the same tables.
 */
struct gate {
	struct db		*db;
	const char		*origin;
	int64_t			 oseq;
	const unsigned char	*seen;		/* NULL: not known */
	size_t			 nseen;
	int64_t			*passed;	/* the apply's count */
	int			 applying;	/* a changeset, not a patch */
	struct db_stmt		*find;
	char			**tables;	/* gated */
	size_t			 ntables;
	/*
	 * The writers of the rows here (sync/writers.h), once a change
	 * with a seen list came: the second trigger holds back, as well,
	 * an update of a row that a change the change at hand had not seen
	 * wrote, so that the handler judges it.  An update the handler
	 * then lets through is made again by SQLite, which the trigger
	 * lets pass (pass_once).  held_tables: the tables with only that
	 * trigger.
	 */
	struct writers		*writers;
	int			 pass_once;
	char			**held_tables;
	size_t			 nheld_tables;
};

/*
 * The gate's question: whether a change that the station of the change
 * at hand had not seen removed table's row of the n key values at key.
 * A change whose seen list is not known passes nothing over.
 */
static int
gate_unseen(struct gate *g, const char *table, sqlite3_value **keyv, int n)
{
	unsigned char *key;
	size_t klen;
	int pass = 0;

	if (g->seen == NULL || n < 1)
		return 0;
	key = gone_key(keyv, n, &klen);
	db_bind_text(g->find, 1, table);
	db_bind_blob(g->find, 2, key, (int)klen);
	while (!pass && db_step(g->db, g->find, 0) == DB_ROW) {
		const char *origin = db_column_text(g->find, 0);
		int64_t no = db_column_int(g->find, 1), had;

		if (origin == NULL)
			continue;
		/* A station has seen its own changes before this one. */
		if (strcmp(origin, g->origin) == 0)
			had = g->oseq - 1;
		else
			had = gone_seen_of(g->seen, g->nseen, origin);
		pass = no > had;
	}
	db_reset(g->find);
	db_clear(g->find);
	free(key);
	return pass;
}

/* The gate's question for an insert, which it then passes over. */
static int
gate_passes(struct gate *g, const char *table, sqlite3_value **keyv, int n)
{
	int pass = gate_unseen(g, table, keyv, n);

	if (pass)
		(*g->passed)++;
	return pass;
}

/*
 * The columns of table's row whose key is the n values at keyv that a
 * change the change at hand had not seen updated (writers_unseen), and
 * the second trigger's other question: whether there are any.
 */
static uint64_t
unseen_of(struct gate *g, const char *table, sqlite3_value **keyv, int n)
{
	return g->writers != NULL && g->seen != NULL && n > 0 ?
	    writers_unseen(g->writers, table, keyv, n, g->origin, g->oseq,
	    g->seen, g->nseen) : 0;
}

static int
writers_held(struct gate *g, const char *table, sqlite3_value **keyv,
    int n)
{
	return unseen_of(g, table, keyv, n) != 0;
}

/* refkit_gone(table, key values...), the trigger's question. */
static void
fn_gone(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	const char *table = argc > 0 ? (const char *)
	    sqlite3_value_text(argv[0]) : NULL;

	sqlite3_result_int(cx, table != NULL &&
	    gate_passes(sqlite3_user_data(cx), table, argv + 1, argc - 1));
}

/*
 * refkit_gone_held(table, key values...), the second trigger's: the
 * same question for an update, while a changeset is applied (the
 * values set after it are refkit's own).
 */
static void
fn_gone_held(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	struct gate *g = sqlite3_user_data(cx);
	const char *table = argc > 0 ? (const char *)
	    sqlite3_value_text(argv[0]) : NULL;

	if (table == NULL || !g->applying) {
		sqlite3_result_int(cx, 0);
		return;
	}
	if (g->pass_once) {
		g->pass_once = 0;
		sqlite3_result_int(cx, 0);
		return;
	}
	sqlite3_result_int(cx, gate_unseen(g, table, argv + 1, argc - 1) ||
	    writers_held(g, table, argv + 1, argc - 1));
}

/*
 * The gate of one table.  The key's columns are given in the table's
 * order, as a changeset has them.  A table this schema lacks (gone
 * never names one) takes no gate.
 */
/*
 * The start of a trigger that asks fn whether a row of table may be
 * written: CREATE TEMP TRIGGER refkit_WHAT_TABLE BEFORE OP ... WHEN
 * fn('table', then the key columns follow.
 */
static void
gate_sql(struct strbuf *b, const char *what, const char *op,
    const char *fn, const char *table)
{
	char *name = xasprintf("refkit_%s_%s", what, table);

	strbuf_addstr(b, "CREATE TEMP TRIGGER IF NOT EXISTS ");
	strbuf_ident(b, name);
	strbuf_addf(b, " BEFORE %s ON main.", op);
	strbuf_ident(b, table);
	strbuf_addf(b, " WHEN %s(", fn);
	strbuf_quoted(b, table);
	free(name);
}

static int
gated(const struct gate *g, const char *table)
{
	for (size_t i = 0; i < g->ntables; i++)
		if (strcmp(g->tables[i], table) == 0)
			return 1;
	return 0;
}

/* Whether table has the second trigger, on SQLite. */
static int
has_hold(const struct gate *g, const char *table)
{
	if (gated(g, table))
		return 1;
	for (size_t i = 0; i < g->nheld_tables; i++)
		if (strcmp(g->held_tables[i], table) == 0)
			return 1;
	return 0;
}

/*
 * Makes the trigger WHAT on table, BEFORE OP, which asks fn about the
 * key columns of row (new or old).  Returns SQLite's code.
 */
static int
trigger_make(struct db *db, const char *what, const char *op,
    const char *fn, const char *row, const char *table)
{
	struct strbuf s = STRBUF_INIT;
	struct db_stmt *st;
	int ncol = 0, rc = SQLITE_OK;

	gate_sql(&s, what, op, fn, table);
	st = db_prepare(db, "SELECT name FROM pragma_table_info(?1, 'main')"
	    " WHERE pk > 0 ORDER BY cid");
	db_bind_text(st, 1, table);
	while (db_step(db, st, 0) == DB_ROW) {
		strbuf_addf(&s, ", %s.", row);
		strbuf_ident(&s, db_column_text(st, 0));
		ncol++;
	}
	db_finalize(st);
	strbuf_addstr(&s, ") BEGIN SELECT RAISE(IGNORE); END");
	if (ncol > 0)
		rc = sqlite3_exec(db->h, s.s, NULL, NULL, NULL);
	strbuf_release(&s);
	return rc;
}

static void
gate_table(struct gate *g, const char *table)
{
	struct db *db = g->db;

	if (db->pg == NULL && (trigger_make(db, "gone", "INSERT",
	    "refkit_gone", "new", table) != SQLITE_OK ||
	    trigger_make(db, "held", "UPDATE", "refkit_gone_held", "old",
	    table) != SQLITE_OK))
		db_fatal(db, "cannot watch for records removed elsewhere");
	g->tables = xreallocarray(g->tables, g->ntables + 1,
	    sizeof *g->tables);
	g->tables[g->ntables++] = xstrdup(table);
}

/*
 * The second trigger alone on table, for the writers' question, unless
 * it is there.  PostgreSQL's applier asks every table (pg_hold).
 */
static void
hold_table(struct gate *g, const char *table)
{
	struct db *db = g->db;

	if (db->pg != NULL || has_hold(g, table))
		return;
	if (trigger_make(db, "held", "UPDATE", "refkit_gone_held", "old",
	    table) != SQLITE_OK)
		db_fatal(db, "cannot watch for changes not seen");
	g->held_tables = xreallocarray(g->held_tables, g->nheld_tables + 1,
	    sizeof *g->held_tables);
	g->held_tables[g->nheld_tables++] = xstrdup(table);
}


/* A gate on every table gone has rows of that has none yet. */
static void
gates_more(struct db *db, struct exchange_apply *a)
{
	struct gate *g = a->gate;
	struct db_stmt *st;
	char *last = xstrdup("");

	if (g == NULL) {
		g = a->gate = xcalloc(1, sizeof *g);
		g->db = db;
		g->passed = &a->passed;
		if (db->pg == NULL && (sqlite3_create_function(db->h,
		    "refkit_gone", -1, SQLITE_UTF8, g, fn_gone, NULL, NULL) !=
		    SQLITE_OK || sqlite3_create_function(db->h,
		    "refkit_gone_held", -1, SQLITE_UTF8, g, fn_gone_held, NULL,
		    NULL) != SQLITE_OK))
			db_fatal(db, "cannot register refkit's SQL functions");
		g->find = db_prepare(db, "SELECT origin, oseq FROM gone"
		    " WHERE tbl = ?1 AND key = ?2");
	}
	/* The tables gone has rows of, each found by one seek. */
	st = db_prepare(db, "SELECT min(tbl) FROM gone WHERE tbl > ?1");
	for (;;) {
		const char *t;

		db_bind_text_copy(st, 1, last);
		if (db_step(db, st, 0) != DB_ROW ||
		    (t = db_column_text(st, 0)) == NULL)
			break;
		free(last);
		last = xstrdup(t);
		db_reset(st);
		if (!gated(g, last))
			gate_table(g, last);
	}
	db_finalize(st);
	free(last);
}

/* The triggers of the n tables at t dropped, if there, and t freed. */
static void
triggers_drop(struct gate *g, char **t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *sql = sqlite3_mprintf("DROP TRIGGER IF EXISTS "
		    "temp.\"refkit_gone_%w\"; DROP TRIGGER IF EXISTS "
		    "temp.\"refkit_held_%w\"", t[i], t[i]);

		if (sql != NULL && g->db->pg == NULL)
			(void)sqlite3_exec(g->db->h, sql, NULL, NULL, NULL);
		sqlite3_free(sql);
		free(t[i]);
	}
	free(t);
}

/* The gates taken away (after the transaction, which may have). */
static void
gates_release(struct exchange_apply *a)
{
	struct gate *g = a->gate;

	if (g == NULL)
		return;
	triggers_drop(g, g->tables, g->ntables);
	triggers_drop(g, g->held_tables, g->nheld_tables);
	writers_free(g->writers);
	db_finalize(g->find);
	if (g->db->pg == NULL) {
		(void)sqlite3_create_function(g->db->h, "refkit_gone", -1,
		    SQLITE_UTF8, NULL, NULL, NULL, NULL);
		(void)sqlite3_create_function(g->db->h, "refkit_gone_held",
		    -1, SQLITE_UTF8, NULL, NULL, NULL, NULL);
	}
	free(g);
	a->gate = NULL;
}

void
exchange_apply_release(struct exchange_apply *a)
{
	struct cols *c, *next;

	gates_release(a);
	dbapply_free(a->dbapply);
	for (size_t i = 0; i < a->nc; i++)
		conflict_release(&a->c[i]);
	free(a->c);
	patches_clear(a);
	free(a->patches);
	for (size_t i = 0; i < a->nwatch; i++) {
		free(a->watch[i].values);
		free(a->watch[i].runs);
	}
	stamps_clear(a);
	free(a->stamps);
	for (c = a->cols; c != NULL; c = next) {
		next = c->next;
		for (int i = 0; i < c->n; i++)
			free(c->name[i]);
		free(c->name);
		free(c->table);
		free(c);
	}
	memset(a, 0, sizeof *a);
}

/* The column names of table here, cached in a. */
static struct cols *
cols_of(struct db *db, struct exchange_apply *a, const char *table)
{
	struct cols *c;
	unsigned char *pk;

	for (c = a->cols; c != NULL; c = c->next)
		if (strcmp(c->table, table) == 0)
			return c;
	c = xcalloc(1, sizeof *c);
	c->table = xstrdup(table);
	c->n = db_table_columns(db, table, &c->name, &pk);
	free(pk);
	c->next = a->cols;
	a->cols = c;
	return c;
}

/* Whether column i is a time of making or changing, not the record. */
static int
is_stamp(const struct cols *c, int i)
{
	return i < c->n && (strcmp(c->name[i], "created") == 0 ||
	    strcmp(c->name[i], "updated") == 0);
}

/* Whether two values are the same (type and value). */
static int
same_value(sqlite3_value *x, sqlite3_value *y)
{
	int t = sqlite3_value_type(x);

	if (t != sqlite3_value_type(y))
		return 0;
	switch (t) {
	case SQLITE_NULL:
		return 1;
	case SQLITE_INTEGER:
		return sqlite3_value_int64(x) == sqlite3_value_int64(y);
	case SQLITE_FLOAT:
		return sqlite3_value_double(x) == sqlite3_value_double(y);
	default:
		/* An empty text or blob has no bytes, and may have no pointer. */
		return sqlite3_value_bytes(x) == sqlite3_value_bytes(y) &&
		    (sqlite3_value_bytes(x) == 0 ||
		    memcmp(sqlite3_value_blob(x), sqlite3_value_blob(y),
		    (size_t)sqlite3_value_bytes(x)) == 0);
	}
}

/* What a change gives: its old or new values, or the row here. */
enum side { OLD, NEW, HERE };

static sqlite3_value *
side_value(sqlite3_changeset_iter *it, enum side s, int i)
{
	sqlite3_value *v = NULL;

	if (s == OLD)
		(void)sqlite3changeset_old(it, i, &v);
	else if (s == NEW)
		(void)sqlite3changeset_new(it, i, &v);
	else
		(void)dbapply_conflict(it, i, &v);
	return v;
}

/*
 * The values of one side as a JSON object: every column it gives, or
 * with pk_only, the primary key's and the name's.
 */
static char *
values_json(const struct cols *c, sqlite3_changeset_iter *it, enum side s,
    int ncol, int pk_only)
{
	unsigned char *pk = NULL;
	int npk = 0, first = 1;
	struct strbuf b = STRBUF_INIT;
	FILE *fp = strbuf_stream(&b);

	(void)sqlite3changeset_pk(it, &pk, &npk);
	fputc('{', fp);
	for (int i = 0; i < ncol; i++) {
		sqlite3_value *v;

		/* The key, and the name people know the record by. */
		if (pk_only && !(pk != NULL && i < npk && pk[i]) &&
		    !(i < c->n && strcmp(c->name[i], "name") == 0))
			continue;
		if ((v = side_value(it, s, i)) == NULL)
			continue;
		fputs(first ? "" : ",", fp);
		first = 0;
		if (i < c->n)
			out_json_string(fp, c->name[i]);
		else
			fprintf(fp, "\"c%d\"", i + 1);
		fputc(':', fp);
		changes_put_value(fp, v, 1);
	}
	fputc('}', fp);
	return strbuf_detach(&b, NULL);
}

/*
 * The name of a record removed here that a change comes to change (its
 * update carries the key and the columns it changes, not the name):
 * read from the change that removed it, which gone names.  Returns the
 * key with the name added, or NULL when there is none to add.
 */
/*
 * key (a JSON object) with "name": v added before its closing brace;
 * *name set to v when it is text.
 */
static char *
key_and_name(const char *key, sqlite3_value *v, char **name)
{
	struct strbuf b = STRBUF_INIT;
	FILE *fp = strbuf_stream(&b);

	fprintf(fp, "%.*s,\"name\":", (int)strlen(key) - 1, key);
	changes_put_value(fp, v, 1);
	fputc('}', fp);
	if (sqlite3_value_type(v) == SQLITE_TEXT)
		*name = xstrdup((const char *)sqlite3_value_text(v));
	return strbuf_detach(&b, NULL);
}

/*
 * In changeset m (mn bytes), the removal from table of the row whose
 * key (gone_key's form) is k: its column ni, or NULL.  pk and pkv are
 * the caller's, for ncol columns.
 */
static sqlite3_value *
removed_value(const void *mcs, size_t mn, const char *table, int ncol,
    const unsigned char *pk, sqlite3_value **pkv, const unsigned char *k,
    size_t klen, int ni)
{
	sqlite3_changeset_iter *m;
	sqlite3_value *v = NULL;

	if (sqlite3changeset_start(&m, (int)mn, (void *)mcs) != SQLITE_OK)
		return NULL;
	while (v == NULL && sqlite3changeset_next(m) == SQLITE_ROW) {
		const char *t;
		int n, op, indirect, nk = 0, same;
		size_t mlen;
		unsigned char *mk;

		(void)sqlite3changeset_op(m, &t, &n, &op, &indirect);
		if (op != SQLITE_DELETE || n != ncol || strcmp(t, table) != 0)
			continue;
		for (int i = 0; i < n; i++)
			if (pk[i] && sqlite3changeset_old(m, i, &pkv[nk]) ==
			    SQLITE_OK && pkv[nk] != NULL)
				nk++;
		mk = gone_key(pkv, nk, &mlen);
		same = mlen == klen && memcmp(mk, k, klen) == 0;
		free(mk);
		if (same && sqlite3changeset_old(m, ni, &v) != SQLITE_OK)
			v = NULL;
	}
	/* The value lives as long as the iterator: duplicated. */
	if (v != NULL && (v = sqlite3_value_dup(v)) == NULL)
		err(1, "out of memory");
	(void)sqlite3changeset_finalize(m);
	return v;
}

/*
 * The name of a record removed here that a change comes to change (its
 * update carries the key and the columns it changes, not the name):
 * read from the change that removed it, which gone names.  Returns the
 * key with the name added, or NULL when there is none to add.
 */
static char *
key_with_removed_name(struct db *db, const struct cols *c,
    sqlite3_changeset_iter *it, const char *table, const char *key,
    char **name)
{
	sqlite3_value **pkv = NULL, *v = NULL;
	struct db_stmt *st;
	unsigned char *pk, *k;
	char *out = NULL;
	size_t klen;
	int ncol, ni = -1, nk = 0;
	void *owned = NULL;

	for (int i = 0; i < c->n; i++)
		if (strcmp(c->name[i], "name") == 0)
			ni = i;
	if (ni < 0 || strstr(key, "\"name\":") != NULL ||
	    sqlite3changeset_pk(it, &pk, &ncol) != SQLITE_OK)
		return NULL;
	pkv = xcalloc((size_t)ncol + 1, sizeof(sqlite3_value *));
	for (int i = 0; i < ncol; i++)
		if (pk[i] && (pkv[nk] = side_value(it, OLD, i)) != NULL)
			nk++;
	k = gone_key(pkv, nk, &klen);
	st = db_prepare(db, "SELECT c.data, r.data FROM gone g JOIN change c"
	    " ON c.origin = g.origin AND c.oseq = g.oseq"
	    " LEFT JOIN change_rest r ON r.id = c.rest"
	    " WHERE g.tbl = ?1 AND g.key = ?2 ORDER BY c.no DESC LIMIT 1");
	db_bind_text(st, 1, table);
	db_bind_blob(st, 2, k, (int)klen);
	if (db_step(db, st, 0) == DB_ROW) {
		size_t mn;
		const void *mcs = db_change_data(st, 0, 1, &mn, &owned);

		v = removed_value(mcs, mn, table, ncol, pk, pkv, k, klen, ni);
	}
	if (v != NULL) {
		out = key_and_name(key, v, name);
		sqlite3_value_free(v);
	}
	db_finalize(st);
	free(owned);
	free(k);
	free(pkv);
	return out;
}

/* Whether change o1:s1, whose seen list is seen1 (NULL: not known), was
 * made knowing of change o2:s2. */
static int
had_seen(const char *o1, int64_t s1, const unsigned char *seen1, size_t n1,
    const char *o2, int64_t s2)
{
	if (strcmp(o1, o2) == 0)
		return s1 > s2;
	return seen1 != NULL && gone_seen_of(seen1, n1, o2) >= s2;
}

/* A value as the database layer reads it, for comparing with SQLite's. */
static void
cv_column(struct db_stmt *st, int i, struct changeset_value *v)
{
	memset(v, 0, sizeof *v);
	v->type = db_column_type(st, i);
	switch (v->type) {
	case DB_INTEGER:
		v->i = db_column_int(st, i);
		break;
	case DB_FLOAT:
		v->f = db_column_double(st, i);
		break;
	case DB_TEXT:
	case DB_BLOB:
		v->p = v->type == DB_TEXT ? (const void *)db_column_text(st, i) :
		    db_column_blob(st, i);
		v->n = (size_t)db_column_bytes(st, i);
		break;
	default:
		v->type = SQLITE_NULL;
		break;
	}
}

static void
cv_value(sqlite3_value *x, struct changeset_value *v)
{
	memset(v, 0, sizeof *v);
	v->type = sqlite3_value_type(x);
	switch (v->type) {
	case SQLITE_INTEGER:
		v->i = sqlite3_value_int64(x);
		break;
	case SQLITE_FLOAT:
		v->f = sqlite3_value_double(x);
		break;
	case SQLITE_TEXT:
	case SQLITE_BLOB:
		v->p = v->type == SQLITE_TEXT ?
		    (const void *)sqlite3_value_text(x) : sqlite3_value_blob(x);
		v->n = (size_t)sqlite3_value_bytes(x);
		break;
	default:
		break;
	}
}

static int
same_cv(const struct changeset_value *x, sqlite3_value *y)
{
	struct changeset_value w;

	cv_value(y, &w);
	if (x->type != w.type)
		return 0;
	switch (x->type) {
	case SQLITE_INTEGER:
		return x->i == w.i;
	case SQLITE_FLOAT:
		return x->f == w.f;
	case SQLITE_TEXT:
	case SQLITE_BLOB:
		return x->n == w.n && (x->n == 0 || memcmp(x->p, w.p, x->n) == 0);
	default:
		return 1;
	}
}

/*
 * Who holds a record's values here.  For each column asked about (and
 * for the record's absence, slot ncol), the changes in this station's
 * record of changes that wrote the value it holds (removed it): how
 * many, whether one of them was made knowing of the change c in
 * question (then c is old news for that column), and whether c was made
 * knowing of all of them (then c is news).
 */
struct support {
	int	 ncol;
	int	*n;		/* ncol + 1 counts */
	int	*knew_c;	/* one of them knew of c */
	int	*c_knew;	/* c knew of every one */
	/*
	 * While they are read: one of them knew of a change alike c
	 * (below); c knew of one of them.  An alike change stands for c
	 * only when c knew of none of them: c, made knowing of what is
	 * here and making the record otherwise (a settlement), is a choice
	 * of its own, which a writer that knew only the alike making did
	 * not see.
	 */
	int	*by_alike, *c_some;
	/*
	 * Changes here that made the record just as c makes it (alike):
	 * a value written knowing of one of them was written knowing of
	 * what c brings, so it counts as made knowing of c.
	 */
	struct change_ref {
		char	 origin[STATION_ID_LEN + 1];
		int64_t	 oseq;
	}	*alike;
	size_t	 nalike;
	/*
	 * Whether c is a removal, before which an insert made without
	 * knowing of it gives way (gone.h): counted as known to c.
	 */
	int	 removal;
	/*
	 * Which changes are read: all (0), only those c knew of or that
	 * knew of c (1), or only the others (2), made without knowing of
	 * each other; a change left out is not even opened.
	 */
	int	 only;
	/*
	 * The apply's index of the rows each change touched (writers.h),
	 * or NULL: then every change of the record is opened.
	 */
	struct writers *w;
};

static void
support_init(struct support *s, int ncol, struct writers *w)
{
	s->ncol = ncol;
	s->n = xcalloc((size_t)ncol + 1, sizeof *s->n);
	s->knew_c = xcalloc((size_t)ncol + 1, sizeof *s->knew_c);
	s->c_knew = xcalloc((size_t)ncol + 1, sizeof *s->c_knew);
	s->by_alike = xcalloc((size_t)ncol + 1, sizeof *s->by_alike);
	s->c_some = xcalloc((size_t)ncol + 1, sizeof *s->c_some);
	s->alike = NULL;
	s->nalike = 0;
	s->removal = 0;
	s->only = 0;
	s->w = w;
	for (int i = 0; i <= ncol; i++)
		s->c_knew[i] = 1;
}

static void
support_release(struct support *s)
{
	free(s->n);
	free(s->knew_c);
	free(s->c_knew);
	free(s->by_alike);
	free(s->c_some);
	free(s->alike);
}

/* Whether the change m is at a row of table whose key is pk's. */
static int
at_row(sqlite3_changeset_iter *m, const char *table, int ncol,
    sqlite3_value **pk, int *op)
{
	const char *t;
	int n, indirect;

	(void)sqlite3changeset_op(m, &t, &n, op, &indirect);
	if (n != ncol || strcmp(t, table) != 0)
		return 0;
	for (int i = 0; i < ncol; i++) {
		sqlite3_value *v = NULL;

		if (pk[i] == NULL)
			continue;
		if (*op == SQLITE_INSERT)
			(void)sqlite3changeset_new(m, i, &v);
		else
			(void)sqlite3changeset_old(m, i, &v);
		if (v == NULL || !same_value(v, pk[i]))
			return 0;
	}
	return 1;
}

/*
 * The key's values of pk (ncol entries, NULL off the key), in order, *nk
 * of them, in an array the caller frees.
 */
static sqlite3_value **
key_only(sqlite3_value **pk, int ncol, int *nk)
{
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): of pointers */
	sqlite3_value **keyv = xcalloc((size_t)ncol + 1, sizeof *keyv);

	*nk = 0;
	for (int i = 0; i < ncol; i++)
		if (pk[i] != NULL)
			keyv[(*nk)++] = pk[i];
	return keyv;
}

/*
 * The apply's index of the rows each change here touched (writers.h),
 * made the first time a conflict asks; NULL before any change came.
 */
static struct writers *
touch_index(struct db *db, struct exchange_apply *a)
{
	struct gate *g = a->gate;

	if (g == NULL)
		return NULL;
	if (g->writers == NULL)
		g->writers = writers_new(db);
	writers_touch_all(g->writers);
	return g->writers;
}

/*
 * The changes of this station's record that may touch a row: through
 * the apply's index, only those that did (one seek each); without one,
 * every change.  Each row read gives c.origin, c.oseq, c.seen, c.data
 * and r.data.
 */
struct rec_iter {
	struct db		*db;
	struct db_stmt		*st;
	struct writers		*w;
	const struct writers_ref *refs;
	size_t			 n, i;
};

static void
rec_open(struct rec_iter *r, struct db *db, struct writers *w,
    const char *table, sqlite3_value **pk, int ncol)
{
	sqlite3_value **keyv;
	int nk;

	memset(r, 0, sizeof *r);
	r->db = db;
	if (w == NULL) {
		r->st = db_prepare(db, "SELECT c.origin, c.oseq, c.seen,"
		    " c.data, r.data FROM " DB_CHANGE_ROWS
		    " ORDER BY c.no DESC");
		return;
	}
	r->w = w;
	keyv = key_only(pk, ncol, &nk);
	r->n = nk > 0 ? writers_touching(w, table, keyv, nk, &r->refs) : 0;
	free(keyv);
	r->st = db_prepare(db, "SELECT c.origin, c.oseq, c.seen, c.data,"
	    " r.data FROM " DB_CHANGE_ROWS " WHERE c.origin = ?1 AND"
	    " c.oseq = ?2");
}

static int
rec_next(struct rec_iter *r)
{
	if (r->w == NULL)
		return db_step(r->db, r->st, 0);
	while (r->i < r->n) {
		const struct writers_ref *f = &r->refs[r->i++];

		db_reset(r->st);
		db_bind_text(r->st, 1, writers_origin(r->w, f->origin));
		db_bind_int(r->st, 2, f->oseq);
		if (db_step(r->db, r->st, 0) == DB_ROW)
			return DB_ROW;
	}
	return DB_DONE;
}

static void
rec_close(struct rec_iter *r)
{
	db_finalize(r->st);
}

/*
 * Counts the change m is at (op, at the row in question) for each column
 * whose value here it wrote (or the record's absence, that it removed):
 * knew, knew_d and alike as support_find has them.
 */
static void
support_count(struct support *s, sqlite3_changeset_iter *m, int op,
    const struct changeset_value *here, const int *want, int knew,
    int knew_d, int alike)
{
	for (int i = 0; i <= s->ncol; i++) {
		sqlite3_value *v = NULL;

		if (i == s->ncol) {
			if (here != NULL || op != SQLITE_DELETE)
				continue;
		} else {
			if (here == NULL || !want[i] || op == SQLITE_DELETE)
				continue;
			(void)sqlite3changeset_new(m, i, &v);
			if (v == NULL || !same_cv(&here[i], v))
				continue;
		}
		s->n[i]++;
		s->knew_c[i] |= knew && !alike;
		s->by_alike[i] |= alike;
		s->c_some[i] |= knew_d;
		s->c_knew[i] &= knew_d || (s->removal && op == SQLITE_INSERT &&
		    !knew);
	}
}

/*
 * Fills s for the row of table with key pk (ncol values, NULL off the
 * key), whose values here are here (NULL: the row is not here), asked
 * about the columns want[i] nonzero, and the change origin:oseq (seen,
 * nseen).  Reads the changes that touched the row, through the apply's
 * index when s->w is set, else the whole record: only a conflict asks.
 */
static void
support_find(struct db *db, struct support *s, const char *table,
    sqlite3_value **pk, const struct changeset_value *here,
    const int *want, const char *origin, int64_t oseq,
    const unsigned char *seen, size_t nseen)
{
	struct db_stmt *st;
	int ncol = s->ncol;
	struct rec_iter ri;

	rec_open(&ri, db, s->w, table, pk, ncol);
	st = ri.st;
	while (rec_next(&ri) == DB_ROW) {
		sqlite3_changeset_iter *m;
		struct changes_entry d;
		const char *dorigin = db_column_text(st, 0);
		int64_t doseq = db_column_int(st, 1);
		int knew, knew_d, alike = 0;
		const void *dcs;
		void *owned;
		size_t dn;

		if (dorigin == NULL || (strcmp(dorigin, origin) == 0 &&
		    doseq == oseq) || row_seen(st, 2, &d) != 0)
			continue;
		knew = had_seen(dorigin, doseq, d.seen, d.nseen, origin, oseq);
		for (size_t k = 0; k < s->nalike && !knew && !alike; k++)
			alike = had_seen(dorigin, doseq, d.seen, d.nseen,
			    s->alike[k].origin, s->alike[k].oseq);
		knew |= alike;
		knew_d = had_seen(origin, oseq, seen, nseen, dorigin, doseq);
		if ((s->only == 1 && !knew && !knew_d) ||
		    (s->only == 2 && (knew || knew_d)))
			continue;
		dcs = db_change_data(st, 3, 4, &dn, &owned);
		if (sqlite3changeset_start(&m, (int)dn, (void *)dcs) !=
		    SQLITE_OK) {
			free(owned);
			continue;
		}
		while (sqlite3changeset_next(m) == SQLITE_ROW) {
			int op;

			if (at_row(m, table, ncol, pk, &op))
				support_count(s, m, op, here, want, knew,
				    knew_d, alike);
		}
		(void)sqlite3changeset_finalize(m);
		free(owned);
	}
	rec_close(&ri);
	for (int i = 0; i <= ncol; i++)
		s->knew_c[i] |= s->by_alike[i] && !s->c_some[i];
}

/* What a column in question comes to. */
enum verdict {
	V_HERE,		/* what is here was made knowing of the change */
	V_THEIRS,	/* the change was made knowing of what is here */
	V_OPEN		/* neither: a conflict */
};

static enum verdict
verdict(const struct support *s, int i)
{
	if (s->knew_c[i])
		return V_HERE;
	if (s->n[i] > 0 && s->c_knew[i])
		return V_THEIRS;
	return V_OPEN;
}

/*
 * The word the tools use for a column: the CRS's stats in capitals (a
 * stat given directly, given_or, as OR), any other by its name.
 */
static void
put_word(FILE *fp, const struct cols *c, int i)
{
	static const char *const upper[] = {
		"ene", "str", "int", "cun", "agi", "con", "cha", "luc", "level"
	};
	const char *name = i < c->n ? c->name[i] : NULL;
	int up = 0;

	if (name == NULL) {
		fprintf(fp, "c%d", i + 1);
		return;
	}
	if (strcmp(c->table, "character") == 0) {
		if (strncmp(name, "given_", 6) == 0) {
			name += 6;
			up = 1;
		}
		for (size_t k = 0; k < sizeof upper / sizeof *upper; k++)
			up |= strcmp(name, upper[k]) == 0;
	}
	for (; *name != '\0'; name++)
		fputc(up ? toupper((unsigned char)*name) : *name, fp);
}

/* A value as the tools show it: a missing one as '-'. */
static void
put_shown(FILE *fp, sqlite3_value *v)
{
	if (v == NULL || sqlite3_value_type(v) == SQLITE_NULL)
		fputc('-', fp);
	else if (sqlite3_value_type(v) == SQLITE_TEXT)
		fprintf(fp, "'%s'", util_q((const char *)sqlite3_value_text(v)));
	else
		changes_put_value(fp, v, 0);
}

/* x's key, to find the row again at the end. */
static void
conflict_key(struct exchange_conflict *x, sqlite3_changeset_iter *it,
    int op, int ncol)
{
	unsigned char *pkf = NULL;
	int npk = 0;

	x->ncol = ncol;
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): of pointers */
	x->pk = xcalloc((size_t)ncol, sizeof *x->pk);
	(void)sqlite3changeset_pk(it, &pkf, &npk);
	for (int i = 0; i < ncol && i < npk; i++) {
		sqlite3_value *v;

		if (!pkf[i] || (v = side_value(it, op == SQLITE_INSERT ? NEW :
		    OLD, i)) == NULL)
			continue;
		if ((x->pk[i] = sqlite3_value_dup(v)) == NULL)
			err(1, "out of memory");
	}
}

/*
 * x's columns in conflict (open, ncol flags): their numbers, their
 * names as a JSON array, and for people each with the row here's value
 * (when here) and side there's.
 */
static void
conflict_fields(struct exchange_conflict *x, struct cols *c,
    sqlite3_changeset_iter *it, int ncol, const int *open, int here,
    enum side there)
{
	struct strbuf fb = STRBUF_INIT, cb = STRBUF_INIT;
	FILE *fp = strbuf_stream(&fb), *cp = strbuf_stream(&cb);

	x->cols = xcalloc((size_t)ncol, sizeof *x->cols);
	fputc('[', cp);
	for (int i = 0; i < ncol; i++) {
		if (!open[i])
			continue;
		fputs(x->ncols ? "; " : "", fp);
		fputs(x->ncols ? "," : "", cp);
		x->cols[x->ncols++] = i;
		if (i < c->n)
			out_json_string(cp, c->name[i]);
		else
			fprintf(cp, "\"c%d\"", i + 1);
		put_word(fp, c, i);
		fputc(' ', fp);
		if (here) {
			put_shown(fp, side_value(it, HERE, i));
			fputs(" here, ", fp);
		}
		put_shown(fp, side_value(it, there, i));
		fputs(" there", fp);
	}
	fputc(']', cp);
	if (x->ncols > 0)
		x->fields = strbuf_detach(&fb, NULL);
	else
		strbuf_release(&fb);
	x->columns = strbuf_detach(&cb, NULL);
}

/*
 * Records a conflict of the change it is at, and of the row here when
 * here is set, and the values that come when theirs is.  open (ncol
 * flags, or NULL) names the columns in conflict, told for people with
 * the row here's values and those of side there (NEW, or OLD for a
 * removal).  The caller settles it, or leaves it open.
 */
static struct exchange_conflict *
add_conflict(struct db *db, struct exchange_apply *a,
    sqlite3_changeset_iter *it, const char *kind, int here, int theirs,
    const int *open, enum side there)
{
	const char *table;
	int ncol, op, indirect;
	struct exchange_conflict *x;
	struct cols *c;
	char *named = NULL;

	(void)sqlite3changeset_op(it, &table, &ncol, &op, &indirect);
	c = cols_of(db, a, table);
	if (a->nc == a->capc) {
		a->capc = a->capc ? 2 * a->capc : 8;
		a->c = xrealloc(a->c, a->capc * sizeof *a->c);
	}
	x = &a->c[a->nc++];
	memset(x, 0, sizeof *x);
	x->table = xstrdup(table);
	x->kind = kind;
	snprintf(x->origin, sizeof x->origin, "%s", a->origin);
	x->oseq = a->oseq;
	x->key = values_json(c, it, op == SQLITE_INSERT ? NEW : OLD, ncol, 1);
	if (strcmp(kind, K_GONE_HERE) == 0 && (named = key_with_removed_name(db,
	    c, it, table, x->key, &x->name)) != NULL) {
		free(x->key);
		x->key = named;
	}
	if (here)
		x->mine = values_json(c, it, HERE, ncol, 0);
	if (theirs)
		x->theirs = values_json(c, it, op == SQLITE_DELETE ? OLD : NEW,
		    ncol, 0);
	/* The record by its name, if it has one. */
	for (int i = 0; i < ncol && i < c->n && x->name == NULL; i++) {
		sqlite3_value *v;

		if (strcmp(c->name[i], "name") != 0)
			continue;
		if ((v = side_value(it, here ? HERE : op == SQLITE_INSERT ?
		    NEW : OLD, i)) != NULL && sqlite3_value_type(v) ==
		    SQLITE_TEXT)
			x->name = xstrdup((const char *)sqlite3_value_text(v));
	}
	conflict_key(x, it, op, ncol);
	if (open != NULL)
		conflict_fields(x, c, it, ncol, open, here, there);
	return x;
}

/*
 * Notes that the columns set[i] of the row the change is at are to be
 * given the change's new values once its changeset is in.
 */
static void
patch_note(struct exchange_apply *a, struct cols *c,
    sqlite3_changeset_iter *it, int op, int ncol, const int *set)
{
	struct patch x, *p;
	unsigned char *pk = NULL;
	int npk = 0, any = 0;

	memset(&x, 0, sizeof x);
	x.c = c;
	x.ncol = ncol;
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): of pointers */
	x.pk = xcalloc((size_t)ncol, sizeof *x.pk);
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): of pointers */
	x.set = xcalloc((size_t)ncol, sizeof *x.set);
	(void)sqlite3changeset_pk(it, &pk, &npk);
	for (int i = 0; i < ncol; i++) {
		sqlite3_value *v;

		if (i < npk && pk[i] && (v = side_value(it, op ==
		    SQLITE_INSERT ? NEW : OLD, i)) != NULL &&
		    (x.pk[i] = sqlite3_value_dup(v)) == NULL)
			err(1, "out of memory");
		if (set[i] && (v = side_value(it, NEW, i)) != NULL) {
			if ((x.set[i] = sqlite3_value_dup(v)) == NULL)
				err(1, "out of memory");
			any = 1;
		}
	}
	if (!any) {
		values_free(x.pk, ncol);
		values_free(x.set, ncol);
		return;
	}
	if (a->npatches == a->cappatches) {
		a->cappatches = a->cappatches ? 2 * a->cappatches : 8;
		a->patches = xreallocarray(a->patches, a->cappatches,
		    sizeof x);
	}
	p = a->patches;
	p[a->npatches++] = x;
}

/* Sets the values patch_note noted, once the changeset is in. */
static int
patches_apply(struct db *db, struct exchange_apply *a, char *why,
    size_t whysz)
{
	struct patch *p = a->patches;
	int rc = 0;

	for (size_t i = 0; i < a->npatches && rc == 0; i++) {
		struct strbuf q = STRBUF_INIT;
		struct db_stmt *st;
		int n = 0, npk = 0;

		strbuf_addstr(&q, "UPDATE ");
		strbuf_ident(&q, p[i].c->table);
		strbuf_addstr(&q, " SET");
		for (int k = 0; k < p[i].ncol && k < p[i].c->n; k++)
			if (p[i].set[k] != NULL) {
				strbuf_addstr(&q, n++ ? ", " : " ");
				strbuf_ident(&q, p[i].c->name[k]);
				strbuf_addf(&q, " = ?%d", k + 1);
			}
		for (int k = 0; k < p[i].ncol && k < p[i].c->n; k++)
			if (p[i].pk[k] != NULL) {
				strbuf_addstr(&q, npk++ ? " AND " : " WHERE ");
				strbuf_ident(&q, p[i].c->name[k]);
				strbuf_addf(&q, " = ?%d", p[i].ncol + k + 1);
			}
		if (n == 0 || npk == 0) {
			strbuf_release(&q);
			continue;
		}
		st = db_prepare(db, q.s);
		strbuf_release(&q);
		for (int k = 0; k < p[i].ncol && k < p[i].c->n; k++) {
			if (p[i].set[k] != NULL)
				(void)dbapply_bind(st, k + 1, p[i].set[k]);
			if (p[i].pk[k] != NULL)
				(void)dbapply_bind(st, p[i].ncol + k + 1,
				    p[i].pk[k]);
		}
		if (db_step(db, st, 1) == DB_CONSTRAINT)
			rc = util_say(why, whysz, "cannot set the values of a "
			    "row of %s: refused by the schema", p[i].c->table);
		db_finalize(st);
	}
	patches_clear(a);
	return rc;
}

/*
 * The answer to conflict x: the choice of the resolution line that
 * names its record, else the preference, as SQLite's answer.  Mine
 * keeps the row here (omit); theirs takes what comes (replace), unless
 * no_theirs says why SQLite cannot, when it stays open like one no
 * choice met.
 */
static int
settle(struct exchange_apply *a, struct exchange_conflict *x,
    const char *no_theirs)
{
	struct resolve_line *r = NULL;

	x->choice = a->prefer;
	x->no_theirs = no_theirs;
	if (a->resolve != NULL && x->key != NULL &&
	    (r = resolve_find(a->resolve, x->table, x->key)) != NULL) {
		r->matched++;
		/* ask makes no choice: the preference has its say. */
		if (r->choice != EXCHANGE_ASK) {
			x->choice = r->choice;
			x->by = r;
		}
	}
	if (x->choice == EXCHANGE_MINE ||
	    (x->choice == EXCHANGE_THEIRS && no_theirs == NULL)) {
		x->settled = 1;
		return x->choice == EXCHANGE_THEIRS ?
		    SQLITE_CHANGESET_REPLACE : SQLITE_CHANGESET_OMIT;
	}
	a->open++;
	return SQLITE_CHANGESET_OMIT;
}

/*
 * The times of the row whose version here differs from the one that
 * comes: want[i] set for each, vd[i] V_OPEN for every column.  Returns
 * how many.
 */
static int
stamps_differ(struct cols *c, sqlite3_changeset_iter *it, int op, int ncol,
    int *want, enum verdict *vd)
{
	int nwant = 0;

	for (int i = 0; i < ncol; i++) {
		sqlite3_value *h, *v;

		vd[i] = V_OPEN;
		if (!is_stamp(c, i))
			continue;
		h = side_value(it, HERE, i);
		v = side_value(it, NEW, i);
		if (op == SQLITE_UPDATE && v == NULL)
			v = side_value(it, OLD, i);
		if (h != NULL && v != NULL && !same_value(h, v)) {
			want[i] = 1;
			nwant++;
		}
	}
	return nwant;
}

/*
 * The changes related to this one first, which are few when it meets a
 * version made apart (the same roster imported at two stations, where
 * every record comes here): a time none of them wrote is the two
 * versions' to settle by min and max (vd[i] V_OPEN), and the others
 * need not be opened.  A time that a change the incoming one knew of
 * wrote is here's (V_HERE); one written by a change it knew of and by
 * no other, theirs (V_THEIRS).
 */
static void
stamps_judge(struct db *db, struct exchange_apply *a, struct cols *c,
    sqlite3_changeset_iter *it, int op, int ncol, int *want,
    enum verdict *vd)
{
	struct gate *g = a->gate;
	struct changeset_value *here = here_values(it, ncol);
	sqlite3_value **key = key_values(it, op, ncol);
	struct support su;
	int nwant = 0;

	support_init(&su, ncol, touch_index(db, a));
	su.only = 1;
	support_find(db, &su, c->table, key, here, want, a->origin, a->oseq,
	    g->seen, g->nseen);
	for (int i = 0; i < ncol; i++) {
		if (!want[i])
			continue;
		if (su.knew_c[i])
			vd[i] = V_HERE;
		else if ((want[i] = su.n[i] > 0) != 0)
			nwant++;
	}
	support_release(&su);
	/* Written by a change it knew of, and by no other? */
	if (nwant > 0) {
		support_init(&su, ncol, touch_index(db, a));
		su.only = 2;
		support_find(db, &su, c->table, key, here, want, a->origin,
		    a->oseq, g->seen, g->nseen);
		for (int i = 0; i < ncol; i++)
			if (want[i] && vd[i] != V_HERE)
				vd[i] = su.n[i] > 0 ? V_OPEN : V_THEIRS;
		support_release(&su);
	}
	free(here);
	free(key);
}

/*
 * Into x, the earliest created and the latest updated of the versions
 * as vd judged them (here's alone, theirs alone, or both), and whether
 * the judged one is to be set.
 */
static void
stamp_times(struct cols *c, sqlite3_changeset_iter *it, int op, int ncol,
    const enum verdict *vd, struct stamp *x)
{
	for (int i = 0; i < ncol && i < c->n; i++) {
		int cr = strcmp(c->name[i], "created") == 0;
		sqlite3_value *v[3];

		if (!is_stamp(c, i))
			continue;
		v[0] = side_value(it, HERE, i);
		v[1] = side_value(it, NEW, i);
		v[2] = op == SQLITE_UPDATE && v[1] == NULL ?
		    side_value(it, OLD, i) : NULL;
		/* Known to be older than the time here, or newer. */
		if (vd[i] == V_HERE)
			v[1] = v[2] = NULL;
		else if (vd[i] == V_THEIRS)
			v[0] = NULL;
		for (int k = 0; k < 3; k++) {
			int64_t t;

			if (v[k] == NULL ||
			    sqlite3_value_type(v[k]) != SQLITE_INTEGER)
				continue;
			t = sqlite3_value_int64(v[k]);
			if (cr && (!x->has_created || t < x->created)) {
				x->created = t;
				x->has_created = 1;
			} else if (!cr && (!x->has_updated || t > x->updated)) {
				x->updated = t;
				x->has_updated = 1;
			}
		}
		if (vd[i] != V_OPEN && cr)
			x->set_created = x->has_created;
		else if (vd[i] != V_OPEN)
			x->set_updated = x->has_updated;
	}
}

/* Keeps x, with the row's key, for stamps_apply. */
static void
stamp_keep(struct exchange_apply *a, struct cols *c,
    sqlite3_changeset_iter *it, int op, int ncol, struct stamp *x)
{
	unsigned char *pk = NULL;
	int npk = 0;

	(void)sqlite3changeset_pk(it, &pk, &npk);
	x->c = c;
	x->ncol = ncol;
	x->pk = xcalloc((size_t)ncol, sizeof(sqlite3_value *));
	for (int i = 0; i < ncol && i < npk; i++) {
		sqlite3_value *v;

		if (!pk[i])
			continue;
		v = side_value(it, op == SQLITE_INSERT ? NEW : OLD, i);
		if (v != NULL && (x->pk[i] = sqlite3_value_dup(v)) == NULL)
			err(1, "out of memory");
	}
	if (a->nstamps == a->capstamps) {
		a->capstamps = a->capstamps ? 2 * a->capstamps : 8;
		a->stamps = xreallocarray(a->stamps, a->capstamps,
		    sizeof *x);
	}
	((struct stamp *)a->stamps)[a->nstamps++] = *x;
}

/*
 * Notes the times of the row here and of the version that comes (its
 * new values, or for an update the old where it changes none), to be
 * set by stamps_apply: whichever version a conflict keeps, the row
 * ends with the earliest created and the latest updated of them, and
 * so with the same times whatever order the versions come in.  That is
 * for versions made without knowing of each other: a time is judged
 * as any other value first (judge_row), so that a version made knowing
 * of every change that wrote the time here (a settlement, say, that
 * met a record removed and made again, which is newer than the one
 * removed) gives its own, and one that a change here was made knowing
 * of gives none.
 */
static void
stamp_note(struct db *db, struct exchange_apply *a, struct cols *c,
    sqlite3_changeset_iter *it, int op, int ncol)
{
	struct stamp x;
	int *want = xcalloc((size_t)ncol, sizeof *want);
	enum verdict *vd = xcalloc((size_t)ncol, sizeof *vd);

	memset(&x, 0, sizeof x);
	if (stamps_differ(c, it, op, ncol, want, vd) > 0 && a->gate != NULL &&
	    a->origin != NULL)
		stamps_judge(db, a, c, it, op, ncol, want, vd);
	stamp_times(c, it, op, ncol, vd, &x);
	free(want);
	free(vd);
	if (x.has_created || x.has_updated)
		stamp_keep(a, c, it, op, ncol, &x);
}

/* Sets the times stamp_note noted, once the changeset is in. */
static int
stamps_apply(struct db *db, struct exchange_apply *a, char *why,
    size_t whysz)
{
	struct stamp *x = a->stamps;
	int rc = 0;

	for (size_t i = 0; i < a->nstamps && rc == 0; i++) {
		char *sql;
		struct db_stmt *st;
		int n = 2, npk;

		sql = sqlite3_mprintf("UPDATE \"%w\" SET", x[i].c->table);
		for (int k = 0; k < x[i].c->n && sql != NULL; k++) {
			if (strcmp(x[i].c->name[k], "created") == 0 &&
			    x[i].has_created)
				sql = sqlite3_mprintf("%z%s created = %s", sql,
				    n++ > 2 ? "," : "", x[i].set_created ?
				    "?1" : "min(created, ?1)");
			else if (strcmp(x[i].c->name[k], "updated") == 0 &&
			    x[i].has_updated)
				sql = sqlite3_mprintf("%z%s updated = %s", sql,
				    n++ > 2 ? "," : "", x[i].set_updated ?
				    "?2" : "max(updated, ?2)");
		}
		npk = 0;
		for (int k = 0; k < x[i].ncol && k < x[i].c->n && sql != NULL;
		    k++) {
			if (x[i].pk[k] == NULL)
				continue;
			sql = sqlite3_mprintf("%z %s \"%w\" = ?%d", sql,
			    npk++ ? "AND" : "WHERE", x[i].c->name[k], k + 3);
		}
		if (sql == NULL)
			err(1, "out of memory");
		/* No time column here, or no key to find the row by. */
		if (n == 2 || npk == 0) {
			sqlite3_free(sql);
			continue;
		}
		st = db_prepare(db, sql);
		sqlite3_free(sql);
		db_bind_int(st, 1, x[i].created);
		db_bind_int(st, 2, x[i].updated);
		for (int k = 0; k < x[i].ncol; k++)
			if (x[i].pk[k] != NULL)
				(void)dbapply_bind(st, k + 3, x[i].pk[k]);
		if (db_step(db, st, 1) == DB_CONSTRAINT)
			rc = util_say(why, whysz, "cannot set the times of a "
			    "row of %s: refused by the schema", x[i].c->table);
		db_finalize(st);
	}
	stamps_clear(a);
	return rc;
}

/*
 * Notes in s->alike the changes here that inserted the row that the
 * insert it is at brings, the same but for its times.  A value here
 * written knowing of one of them was written knowing of the record as
 * it comes, which is then older news (the same roster imported at two
 * stations, one of which changed a character since).  Only a change
 * that knew of such an insert counts: the insert itself may not have
 * taken here (a conflict kept another version), so its being in the
 * record of changes alone says nothing of the row.  Read from the
 * record of changes, which only such a conflict needs.
 */
static void
alike_find(struct db *db, const struct cols *c, sqlite3_changeset_iter *it,
    const char *table, int ncol, struct support *s)
{
	struct db_stmt *st;
	size_t cap = 0;
	sqlite3_value **pk = key_values(it, SQLITE_INSERT, ncol);
	struct rec_iter ri;

	rec_open(&ri, db, s->w, table, pk, ncol);
	free(pk);
	st = ri.st;
	while (rec_next(&ri) == DB_ROW) {
		sqlite3_changeset_iter *m;
		const char *origin = db_column_text(st, 0);
		int found = 0;
		void *owned;
		size_t mn;
		const void *mcs = db_change_data(st, 3, 4, &mn, &owned);

		if (origin == NULL || strlen(origin) != STATION_ID_LEN ||
		    sqlite3changeset_start(&m, (int)mn, (void *)mcs) !=
		    SQLITE_OK) {
			free(owned);
			continue;
		}
		while (!found && sqlite3changeset_next(m) == SQLITE_ROW) {
			const char *t;
			int n, op, indirect;

			(void)sqlite3changeset_op(m, &t, &n, &op, &indirect);
			if (op != SQLITE_INSERT || n != ncol ||
			    strcmp(t, table) != 0)
				continue;
			found = 1;
			for (int i = 0; i < ncol && found; i++) {
				sqlite3_value *x = NULL, *y = NULL;

				if (is_stamp(c, i))
					continue;
				(void)sqlite3changeset_new(m, i, &x);
				(void)sqlite3changeset_new(it, i, &y);
				if (x == NULL || y == NULL ? x != y :
				    !same_value(x, y))
					found = 0;
			}
		}
		(void)sqlite3changeset_finalize(m);
		free(owned);
		if (!found)
			continue;
		if (s->nalike == cap) {
			cap = cap ? 2 * cap : 4;
			s->alike = xreallocarray(s->alike, cap,
			    sizeof *s->alike);
		}
		memcpy(s->alike[s->nalike].origin, origin, STATION_ID_LEN + 1);
		s->alike[s->nalike++].oseq = db_column_int(st, 1);
	}
	rec_close(&ri);
}

/* The context of the conflict handler and the table filter. */
struct apply_ctx {
	struct db		*db;
	struct exchange_apply	*a;
	char			*local;	/* a table met that does not travel */
};

/*
 * Only the tables that travel take changes: a changeset that touches
 * another (a station's own identity, its record of changes, a cache)
 * was not made by refkit, and the caller refuses it.
 */
static int
travels(void *arg, const char *table)
{
	struct apply_ctx *x = arg;

	if (db_table_travels(table))
		return 1;
	if (x->local == NULL)
		x->local = xstrdup(table);
	return 0;
}

/*
 * Whether the row here differs from side s only in its times (or not
 * at all), over the columns s gives.
 */
static int
same_but_stamps(const struct cols *c, sqlite3_changeset_iter *it,
    enum side s, int ncol)
{
	for (int i = 0; i < ncol; i++) {
		sqlite3_value *v = side_value(it, s, i);
		sqlite3_value *h = side_value(it, HERE, i);

		if (v == NULL || h == NULL || is_stamp(c, i))
			continue;
		if (!same_value(v, h))
			return 0;
	}
	return 1;
}

/*
 * References to records not here, never settled.  SQLite asks once a
 * changeset is in, with an iterator that names no row, only how many
 * references in the transaction dangle: the first change that leaves
 * more of them than before is the one reported.  The rows stay until
 * the caller rolls back, which an open conflict makes it do.
 */
static int
dangling(struct exchange_apply *a, sqlite3_changeset_iter *it)
{
	struct exchange_conflict *x;
	int n = 0;

	(void)dbapply_fk_conflicts(it, &n);
	if (n <= a->dangling)
		return SQLITE_CHANGESET_OMIT;
	a->dangling = n;
	if (a->capc == a->nc) {
		a->capc = a->capc ? 2 * a->capc : 8;
		a->c = xrealloc(a->c, a->capc * sizeof *a->c);
	}
	x = &a->c[a->nc++];
	memset(x, 0, sizeof *x);
	x->table = xstrdup("-");
	x->kind = K_DANGLING;
	snprintf(x->origin, sizeof x->origin, "%s", a->origin);
	x->oseq = a->oseq;
	a->open++;
	return SQLITE_CHANGESET_OMIT;
}

/*
 * The row here's values (here), the row the change is at, for the
 * question whose they are.
 */
static struct changeset_value *
here_values(sqlite3_changeset_iter *it, int ncol)
{
	struct changeset_value *h = xcalloc((size_t)ncol, sizeof *h);

	for (int i = 0; i < ncol; i++) {
		sqlite3_value *v = side_value(it, HERE, i);

		if (v != NULL)
			cv_value(v, &h[i]);
		else
			h[i].type = SQLITE_NULL;
	}
	return h;
}

/* The key's values of the change it is at (ncol, NULL off the key). */
static sqlite3_value **
key_values(sqlite3_changeset_iter *it, int op, int ncol)
{
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): of pointers */
	sqlite3_value **pk = xcalloc((size_t)ncol, sizeof *pk);
	unsigned char *f = NULL;
	int n = 0;

	(void)sqlite3changeset_pk(it, &f, &n);
	for (int i = 0; i < ncol && i < n; i++)
		if (f[i])
			pk[i] = side_value(it, op == SQLITE_INSERT ? NEW : OLD,
			    i);
	return pk;
}

/*
 * The columns of table's row that the update it is at (whose key is pk,
 * ncol values, NULL off the key) reaches which a change that the change
 * at hand had not seen wrote (sync/writers.h), as writers_unseen's bits;
 * 0 for any other change.
 */
static uint64_t
unseen_cols(struct apply_ctx *x, sqlite3_changeset_iter *it, int op,
    int ncol, sqlite3_value **pk)
{
	struct gate *g = x->a->gate;
	sqlite3_value **keyv;
	const char *table;
	int n, o, indirect, nk;
	uint64_t cols;

	if (op != SQLITE_UPDATE || g == NULL || g->writers == NULL)
		return 0;
	(void)sqlite3changeset_op(it, &table, &n, &o, &indirect);
	keyv = key_only(pk, ncol, &nk);
	cols = unseen_of(g, table, keyv, nk);
	free(keyv);
	return cols;
}

/*
 * Whether the update it is at sets a column (not a time, not the key)
 * that a change the change at hand had not seen wrote.
 */
static int
unseen_set(struct apply_ctx *x, sqlite3_changeset_iter *it,
    const struct cols *c, int ncol)
{
	sqlite3_value **pk = key_values(it, SQLITE_UPDATE, ncol);
	uint64_t cols = unseen_cols(x, it, SQLITE_UPDATE, ncol, pk);
	int hit = 0;

	for (int i = 0; i < ncol && !hit && cols != 0; i++)
		hit = pk[i] == NULL && !is_stamp(c, i) &&
		    side_value(it, NEW, i) != NULL &&
		    (cols & WRITERS_BIT(i)) != 0;
	free(pk);
	return hit;
}

/*
 * An insert or an update that meets a row here that differs from it:
 * column by column, what the change gives wins where the row here is
 * what the change was made from (an update's old value) or where the
 * change was made knowing of what is here; the row here wins where it
 * was made knowing of the change.  Any other column is in conflict,
 * which the choice settles (mine: the row here's value; theirs: the
 * change's).  A column whose value here is the update's old one was
 * made from it, unless a change the update had not seen wrote it since
 * (put it back): then it is judged as the others.  The change is never
 * taken whole: the columns it wins are set after its changeset
 * (patch_note).
 */
static int
judge_row(struct apply_ctx *x, sqlite3_changeset_iter *it, struct cols *c,
    int op, int ncol, const char *kind)
{
	struct exchange_apply *a = x->a;
	struct gate *g = a->gate;
	struct changeset_value *here = here_values(it, ncol);
	sqlite3_value **pk = key_values(it, op, ncol);
	int *want = xcalloc((size_t)ncol, sizeof *want);
	int *theirs = xcalloc((size_t)ncol, sizeof *theirs);
	int *open = xcalloc((size_t)ncol, sizeof *open);
	int nwant = 0, nopen = 0, rc = SQLITE_CHANGESET_OMIT;
	uint64_t unseen = unseen_cols(x, it, op, ncol, pk);
	struct support s;

	for (int i = 0; i < ncol; i++) {
		sqlite3_value *n = side_value(it, NEW, i), *o;

		if (n == NULL || is_stamp(c, i) || pk[i] != NULL ||
		    same_cv(&here[i], n))
			continue;
		o = op == SQLITE_UPDATE ? side_value(it, OLD, i) : NULL;
		if (o != NULL && same_cv(&here[i], o) &&
		    (unseen & WRITERS_BIT(i)) == 0)
			theirs[i] = 1;
		else {
			want[i] = 1;
			nwant++;
		}
	}
	support_init(&s, ncol, touch_index(x->db, a));
	if (nwant > 0 && op == SQLITE_INSERT)
		alike_find(x->db, c, it, c->table, ncol, &s);
	if (nwant > 0)
		support_find(x->db, &s, c->table, pk, here, want, a->origin,
		    a->oseq, g->seen, g->nseen);
	for (int i = 0; i < ncol; i++) {
		if (!want[i])
			continue;
		switch (verdict(&s, i)) {
		case V_THEIRS:
			theirs[i] = 1;
			break;
		case V_OPEN:
			open[i] = 1;
			nopen++;
			break;
		default:
			break;
		}
	}
	if (nopen == 0)
		a->same++;
	else {
		struct exchange_conflict *y = add_conflict(x->db, a, it, kind,
		    1, 1, open, NEW);

		(void)settle(a, y, NULL);
		if (y->settled && y->choice == EXCHANGE_THEIRS)
			for (int i = 0; i < ncol; i++)
				theirs[i] |= open[i];
	}
	patch_note(a, c, it, op, ncol, theirs);
	stamp_note(x->db, a, c, it, op, ncol);
	support_release(&s);
	free(here);
	free(pk);
	free(want);
	free(theirs);
	free(open);
	return rc;
}

/*
 * A removal that meets a row here that differs from the one removed:
 * it goes through if it was made knowing of every value here that
 * differs, or of every one but those an insert made without knowing of
 * it wrote (a copy, which gives way to the removal here as the gate
 * passes it over elsewhere); it stays out if one of them was made
 * knowing of it, and is in conflict otherwise.
 */
static int
judge_removal(struct apply_ctx *x, sqlite3_changeset_iter *it,
    struct cols *c, int ncol)
{
	struct exchange_apply *a = x->a;
	struct gate *g = a->gate;
	struct changeset_value *here = here_values(it, ncol);
	sqlite3_value **pk = key_values(it, SQLITE_DELETE, ncol);
	int *want = xcalloc((size_t)ncol, sizeof *want);
	int nwant = 0, knew = 0, open = 0, rc;
	struct support s;

	for (int i = 0; i < ncol; i++) {
		sqlite3_value *o = side_value(it, OLD, i);

		if (o != NULL && !is_stamp(c, i) && pk[i] == NULL &&
		    !same_cv(&here[i], o)) {
			want[i] = 1;
			nwant++;
		}
	}
	support_init(&s, ncol, touch_index(x->db, a));
	s.removal = 1;
	if (nwant > 0)
		support_find(x->db, &s, c->table, pk, here, want, a->origin,
		    a->oseq, g->seen, g->nseen);
	for (int i = 0; i < ncol; i++) {
		if (!want[i])
			continue;
		switch (verdict(&s, i)) {
		case V_HERE:
			knew = 1;
			break;
		case V_OPEN:
			open = 1;
			break;
		default:
			break;
		}
	}
	if (nwant > 0 && !open) {
		a->same++;
		rc = knew ? SQLITE_CHANGESET_OMIT : SQLITE_CHANGESET_REPLACE;
	} else
		rc = settle(a, add_conflict(x->db, a, it, K_GONE_THERE, 1, 1,
		    want, OLD), NULL);
	support_release(&s);
	free(here);
	free(pk);
	free(want);
	return rc;
}

/*
 * A change to a row that is not here: old news if a removal here was
 * made knowing of it, else a conflict that only mine can settle.
 */
static int
judge_gone(struct apply_ctx *x, sqlite3_changeset_iter *it, struct cols *c,
    int op, int ncol)
{
	struct exchange_apply *a = x->a;
	struct gate *g = a->gate;
	sqlite3_value **pk = key_values(it, op, ncol);
	int *open = xcalloc((size_t)ncol, sizeof *open);
	struct support s;
	int old;

	support_init(&s, ncol, touch_index(x->db, a));
	support_find(x->db, &s, c->table, pk, NULL, open, a->origin, a->oseq,
	    g->seen, g->nseen);
	old = s.knew_c[ncol];
	support_release(&s);
	free(pk);
	if (old) {
		free(open);
		a->same++;
		return SQLITE_CHANGESET_OMIT;
	}
	for (int i = 0; i < ncol; i++)
		open[i] = side_value(it, NEW, i) != NULL && !is_stamp(c, i);
	old = settle(a, add_conflict(x->db, a, it, K_GONE_HERE, 0, 1, open,
	    NEW), NT_GONE);
	free(open);
	return old;
}

/*
 * An update of a row that a change removed which the station of the
 * update had not seen, and that is here again, made since by a change
 * that had (the gate held the update back): the update was made to the
 * record that was removed, not to this one.  Old news if one of those
 * removals was made knowing of it; otherwise it is in conflict with
 * them, as it is at a station where the record is not here
 * (judge_gone), and as at the station that made it, where the removals
 * meet its values (judge_removal).  Theirs sets the values it brings
 * that differ from the row's, mine keeps the row.  Returns -1 when no
 * such removal is here: the update is judged as any other.
 */
static int
judge_again(struct apply_ctx *x, sqlite3_changeset_iter *it,
    struct cols *c, int ncol)
{
	struct exchange_apply *a = x->a;
	struct gate *g = a->gate;
	sqlite3_value **pk, **keyv;
	struct exchange_conflict *y;
	struct db_stmt *st;
	unsigned char *key;
	size_t klen;
	int *open, nk = 0, unseen = 0, knew = 0;

	if (g == NULL || g->seen == NULL)
		return -1;
	pk = key_values(it, SQLITE_UPDATE, ncol);
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): of pointers */
	keyv = xcalloc((size_t)ncol + 1, sizeof *keyv);
	for (int i = 0; i < ncol; i++)
		if (pk[i] != NULL)
			keyv[nk++] = pk[i];
	key = gone_key(keyv, nk, &klen);
	free(keyv);
	st = db_prepare(x->db, "SELECT g.origin, g.oseq, c.seen FROM gone g"
	    " LEFT JOIN change c ON c.origin = g.origin AND c.oseq = g.oseq"
	    " WHERE g.tbl = ?1 AND g.key = ?2");
	db_bind_text(st, 1, c->table);
	db_bind_blob(st, 2, key, (int)klen);
	while (nk > 0 && db_step(x->db, st, 0) == DB_ROW) {
		const char *origin = db_column_text(st, 0);
		int64_t no = db_column_int(st, 1), had;
		struct changes_entry d;

		if (origin == NULL || row_seen(st, 2, &d) != 0)
			continue;
		if (strcmp(origin, a->origin) == 0)
			had = a->oseq - 1;
		else
			had = gone_seen_of(g->seen, g->nseen, origin);
		if (no <= had)
			continue;
		unseen = 1;
		knew |= had_seen(origin, no, d.seen, d.nseen, a->origin,
		    a->oseq);
	}
	db_finalize(st);
	free(key);
	if (!unseen) {
		free(pk);
		return -1;
	}
	if (knew) {
		free(pk);
		a->same++;
		return SQLITE_CHANGESET_OMIT;
	}
	open = xcalloc((size_t)ncol, sizeof *open);
	for (int i = 0; i < ncol; i++) {
		sqlite3_value *n = side_value(it, NEW, i);
		sqlite3_value *h = side_value(it, HERE, i);

		open[i] = n != NULL && h != NULL && pk[i] == NULL &&
		    !is_stamp(c, i) && !same_value(n, h);
	}
	y = add_conflict(x->db, a, it, K_GONE_HERE, 1, 1, open, NEW);
	(void)settle(a, y, NULL);
	if (y->settled && y->choice == EXCHANGE_THEIRS)
		patch_note(a, c, it, SQLITE_UPDATE, ncol, open);
	stamp_note(x->db, a, c, it, SQLITE_UPDATE, ncol);
	free(open);
	free(pk);
	return SQLITE_CHANGESET_OMIT;
}

/*
 * A station's own row, as its first change brings it (db.c): its name
 * and the time it was made, which win over what this station put in
 * when it first heard of it.  Anything else of the table is as any
 * other's.
 */
static int
station_birth(struct apply_ctx *x, sqlite3_changeset_iter *it,
    struct cols *c, int ncol)
{
	int *set = xcalloc((size_t)ncol, sizeof *set);
	sqlite3_value *id = side_value(it, NEW, 0);

	if (id == NULL || sqlite3_value_type(id) != SQLITE_TEXT ||
	    strcmp((const char *)sqlite3_value_text(id), x->a->origin) != 0) {
		free(set);
		return -1;
	}
	for (int i = 1; i < ncol; i++)
		set[i] = 1;
	patch_note(x->a, c, it, SQLITE_INSERT, ncol, set);
	free(set);
	return SQLITE_CHANGESET_OMIT;
}

static int
on_conflict(void *arg, int why, sqlite3_changeset_iter *it)
{
	struct apply_ctx *x = arg;
	struct exchange_apply *a = x->a;
	struct gate *g = a->gate;
	const char *table;
	int ncol, op, indirect, rc;
	struct cols *c;

	if (why == SQLITE_CHANGESET_FOREIGN_KEY)
		return dangling(a, it);
	(void)sqlite3changeset_op(it, &table, &ncol, &op, &indirect);
	c = cols_of(x->db, a, table);
	switch (why) {
	case SQLITE_CHANGESET_CONFLICT:
		if (strcmp(table, "station") == 0 &&
		    (rc = station_birth(x, it, c, ncol)) >= 0)
			return rc;
		/*
		 * An insert whose key is here: the same record as it is
		 * here, or judged field by field (judge_row: it may be one
		 * made here alike and changed since).
		 */
		if (same_but_stamps(c, it, NEW, ncol)) {
			a->same++;
			stamp_note(x->db, a, c, it, op, ncol);
			return SQLITE_CHANGESET_OMIT;
		}
		return judge_row(x, it, c, op, ncol, K_BOTH_MADE);
	case SQLITE_CHANGESET_DATA:
		/*
		 * The row here is not what the change was made from.  If
		 * it already is what the change makes, or differs from the
		 * row it was made from only in its times, nothing clashes.
		 */
		if (op == SQLITE_UPDATE && same_but_stamps(c, it, NEW, ncol)) {
			a->same++;
			stamp_note(x->db, a, c, it, op, ncol);
			return SQLITE_CHANGESET_OMIT;
		}
		if (op == SQLITE_UPDATE &&
		    (rc = judge_again(x, it, c, ncol)) >= 0)
			return rc;
		if (same_but_stamps(c, it, OLD, ncol)) {
			/*
			 * Made from what is here (but for its times), but
			 * what is here may have been put back by a change it
			 * had not seen.
			 */
			if (op == SQLITE_UPDATE && unseen_set(x, it, c, ncol))
				return judge_row(x, it, c, op, ncol,
				    K_BOTH_CHANGED);
			a->same++;
			if (op == SQLITE_UPDATE)
				stamp_note(x->db, a, c, it, op, ncol);
			/*
			 * SQLite makes it again, without its old values, and
			 * the trigger is not to hold it back then.
			 */
			if (op == SQLITE_UPDATE && g != NULL &&
			    x->db->pg == NULL && has_hold(g, table))
				g->pass_once = 1;
			return SQLITE_CHANGESET_REPLACE;
		}
		if (op == SQLITE_DELETE)
			return judge_removal(x, it, c, ncol);
		return judge_row(x, it, c, op, ncol, K_BOTH_CHANGED);
	case SQLITE_CHANGESET_NOTFOUND:
		/* Removed at both: nothing clashes. */
		if (op == SQLITE_DELETE) {
			a->same++;
			return SQLITE_CHANGESET_OMIT;
		}
		return judge_gone(x, it, c, op, ncol);
	default:
		/* SQLITE_CHANGESET_CONSTRAINT */
		return settle(a, add_conflict(x->db, a, it, K_REFUSED, 0, 1,
		    NULL, NEW), NT_REFUSED);
	}
}

static int
cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return (a > b) - (a < b);
}

/* Sorts w's values and drops repeats. */
static void
values_squeeze(struct exchange_watch *w)
{
	size_t n = 0;

	if (w->nvalues == 0)
		return;
	qsort(w->values, w->nvalues, sizeof *w->values, cmp_i64);
	for (size_t i = 1; i < w->nvalues; i++)
		if (w->values[i] != w->values[n])
			w->values[++n] = w->values[i];
	w->nvalues = n + 1;
}

/*
 * Adds t to w's values.  A value is mostly its predecessor's (a log's
 * events come together), and the list is squeezed before it grows, so
 * that it holds about as many values as are distinct.
 */
static void
values_add(struct exchange_watch *w, int64_t t)
{
	if (w->nvalues > 0 && w->values[w->nvalues - 1] == t)
		return;
	if (w->nvalues == w->capvalues) {
		values_squeeze(w);
		if (2 * w->nvalues >= w->capvalues) {
			w->capvalues = w->capvalues ? 2 * w->capvalues : 64;
			w->values = xreallocarray(w->values, w->capvalues,
			    sizeof *w->values);
		}
	}
	w->values[w->nvalues++] = t;
}

static int
cmp_run(const void *x, const void *y)
{
	return cmp_i64(x, y);
}

/*
 * Sorts the runs of rowids and joins those that touch or overlap.  A
 * changeset holds its rows in no order, so the runs come in pieces; in
 * order they join up again.
 */
static void
runs_squeeze(struct exchange_watch *w)
{
	size_t n = 0;
	int64_t *r = w->runs;

	if (w->nruns == 0)
		return;
	qsort(r, w->nruns, 2 * sizeof *r, cmp_run);
	for (size_t i = 1; i < w->nruns; i++) {
		if (r[2 * i] <= r[2 * n + 1] || (r[2 * n + 1] != INT64_MAX &&
		    r[2 * i] == r[2 * n + 1] + 1)) {
			if (r[2 * i + 1] > r[2 * n + 1])
				r[2 * n + 1] = r[2 * i + 1];
			continue;
		}
		n++;
		r[2 * n] = r[2 * i];
		r[2 * n + 1] = r[2 * i + 1];
	}
	w->nruns = n + 1;
}

/*
 * Notes that w's table's row k is written: in the last run, or a new
 * one, the list being squeezed before it grows, so that it holds about
 * as many runs as the rows written make in order.
 */
static void
run_add(struct exchange_watch *w, int64_t k)
{
	int64_t *r = w->nruns > 0 ? &w->runs[2 * (w->nruns - 1)] : NULL;

	if (r != NULL && k >= r[0] && k <= r[1])
		return;
	if (r != NULL && r[1] != INT64_MAX && k == r[1] + 1) {
		r[1] = k;
		return;
	}
	if (r != NULL && r[0] != INT64_MIN && k == r[0] - 1) {
		r[0] = k;
		return;
	}
	if (w->runs == NULL || w->nruns == w->capruns) {
		runs_squeeze(w);
		if (w->runs == NULL || 2 * w->nruns >= w->capruns) {
			w->capruns = w->capruns ? 2 * w->capruns : 64;
			w->runs = xreallocarray(w->runs, w->capruns,
			    2 * sizeof *w->runs);
		}
	}
	w->runs[2 * w->nruns] = k;
	w->runs[2 * w->nruns + 1] = k;
	w->nruns++;
}

/*
 * SQLite's update hook while a changeset is applied, for the rows of the
 * watched table it writes.  A row inserted is noted by its rowid, all
 * the hook is given: a station's rows come with consecutive rowids, so
 * the notes are a few runs, whose values are read once the changes are
 * in (exchange_watched).  (The preupdate hook, which could give the
 * values at once, costs SQLite a record to unpack and memory for every
 * row: an eighth of a merge.)  A row removed or changed, which no tool
 * does to a log, takes its old value with it, so it makes everything
 * watched.
 */
static void
on_write(void *arg, int op, const char *schema, const char *table,
    sqlite3_int64 rowid)
{
	struct exchange_apply *a = arg;

	if (strcmp(schema, "main") != 0)
		return;
	for (size_t i = 0; i < a->nwatch; i++) {
		struct exchange_watch *w = &a->watch[i];

		if (strcmp(table, w->table) != 0)
			continue;
		if (op == SQLITE_INSERT)
			run_add(w, rowid);
		else
			w->all = 1;
	}
}

/* On PostgreSQL: on_write, from the applier (sync/dbapply.h). */
static void
pg_wrote(void *arg, int op, const char *table, int64_t rowid)
{
	on_write(arg, op, "main", table, rowid);
}

/* On PostgreSQL: the gate's question, from the applier. */
static int
pg_pass_over(void *arg, const char *table, sqlite3_value **pk, int npk)
{
	struct exchange_apply *a = arg;

	return a->gate != NULL && gated(a->gate, table) &&
	    gate_passes(a->gate, table, pk, npk);
}

/* On PostgreSQL: the second gate's question (fn_gone_held). */
static int
pg_hold(void *arg, const char *table, sqlite3_value **pk, int npk)
{
	struct exchange_apply *a = arg;

	return a->gate != NULL && ((gated(a->gate, table) &&
	    gate_unseen(a->gate, table, pk, npk)) ||
	    writers_held(a->gate, table, pk, npk));
}

size_t
exchange_watch(struct exchange_apply *a, const char *table, const char *rows)
{
	struct exchange_watch *w;

	if (a->nwatch == EXCHANGE_WATCH_MAX)
		errx(1, "refkit bug: more than %d tables watched",
		    EXCHANGE_WATCH_MAX);
	w = &a->watch[a->nwatch];
	memset(w, 0, sizeof *w);
	w->table = table;
	w->rows = rows;
	return a->nwatch++;
}

void
exchange_watched(struct db *db, struct exchange_apply *a)
{
	struct db_stmt *st;

	for (size_t k = 0; k < a->nwatch; k++) {
		struct exchange_watch *w = &a->watch[k];

		runs_squeeze(w);
		if (w->nruns > 0) {
			st = db_prepare(db, w->rows);
			for (size_t i = 0; i < w->nruns; i++) {
				db_reset(st);
				db_bind_int(st, 1, w->runs[2 * i]);
				db_bind_int(st, 2, w->runs[2 * i + 1]);
				while (db_step(db, st, 0) == DB_ROW)
					if (db_column_type(st, 0) ==
					    SQLITE_INTEGER)
						values_add(w,
						    db_column_int(st, 0));
			}
			db_finalize(st);
			w->nruns = 0;
		}
		values_squeeze(w);
	}
}

int
exchange_station(struct db *db, const char *id, const char *name,
    int64_t created, char *why, size_t whysz)
{
	struct db_stmt *st;
	char fallback[9];
	int64_t tag = db_station_tag(id);
	int rc;

	st = db_prepare(db, "SELECT id, name FROM station WHERE id <> ?1");
	db_bind_text(st, 1, id);
	while ((rc = db_step(db, st, 0)) == DB_ROW)
		if (db_station_tag(db_column_text(st, 0)) == tag)
			break;
	if (rc == DB_ROW) {
		snprintf(why, whysz, "station %s and station '%s' (%s) have "
		    "the same key tag %08" PRIx64 ", so their records cannot "
		    "be told apart; one of them must be a new station "
		    "(refkit(7))", id, util_q(db_column_text(st, 1)),
		    db_column_text(st, 0), (uint64_t)tag);
		db_finalize(st);
		return -1;
	}
	db_finalize(st);
	snprintf(fallback, sizeof fallback, "%.8s", id);
	st = db_prepare(db, "INSERT INTO station (id, name, created)"
	    " VALUES (?1, ?2, ?3) ON CONFLICT (id) DO NOTHING");
	db_bind_text(st, 1, id);
	db_bind_text(st, 2, name ? name : fallback);
	db_bind_int(st, 3, created > 0 ? created : db_now());
	db_step(db, st, 0);
	db_finalize(st);
	return 0;
}

/*
 * Where e stands among its station's changes here, which build on each
 * other and so are always its 1, 2 ... newest: 1 if it is here already
 * (not newer), 0 if it is the next, -1 with why set if one before it is
 * missing.
 */
static int
entry_place(struct db *db, const struct changes_entry *e, char *why,
    size_t whysz)
{
	struct db_stmt *st = db_prepare(db, "SELECT coalesce(max(oseq), 0)"
	    " FROM change WHERE origin = ?1");
	int64_t newest;

	db_bind_text(st, 1, e->origin);
	db_step(db, st, 0);
	newest = db_column_int(st, 0);
	db_finalize(st);
	if (e->oseq <= newest)
		return 1;
	if (e->oseq > newest + 1)
		return util_say(why, whysz, "change %.8s:%" PRId64 " builds on "
		    "%.8s:%" PRId64 ", which is not here: take in an export "
		    "with an earlier --since first", e->origin, e->oseq,
		    e->origin, newest + 1);
	return 0;
}

/*
 * Before e's changeset (the change at hand, g's): the writers of every
 * row here that e may not have seen indexed, and on SQLite the second
 * trigger on each table where e updates a row that one of them wrote.
 */
static void
writers_ready(struct db *db, struct gate *g, const struct changes_entry *e)
{
	sqlite3_changeset_iter *it;
	sqlite3_value *pk[64];

	if (g->writers == NULL)
		g->writers = writers_new(db);
	if (!writers_cover(g->writers, e->origin, e->oseq, e->seen,
	    e->nseen) || db->pg != NULL || sqlite3changeset_start(&it,
	    (int)e->len,
	    (void *)e->changeset) != SQLITE_OK)
		return;
	while (sqlite3changeset_next(it) == SQLITE_ROW) {
		const char *table;
		unsigned char *pkf;
		int ncol, op, indirect, npk = 0;

		(void)sqlite3changeset_op(it, &table, &ncol, &op, &indirect);
		if (op != SQLITE_UPDATE)
			continue;
		(void)sqlite3changeset_pk(it, &pkf, &ncol);
		for (int i = 0; i < ncol && npk < 64; i++)
			if (pkf[i] && sqlite3changeset_old(it, i, &pk[npk]) ==
			    SQLITE_OK && pk[npk] != NULL)
				npk++;
		if (writers_held(g, table, pk, npk))
			hold_table(g, table);
	}
	/* A damaged changeset fails in the apply, which says so. */
	(void)sqlite3changeset_finalize(it);
}

/*
 * Applies e's changeset through the gate and the conflict handler: on a
 * server by the applier (sync/dbapply.h), else by SQLite with the update
 * hook watching.  Returns SQLITE_OK, or else with failed set.
 */
static int
entry_changeset(struct db *db, struct exchange_apply *a,
    const struct changes_entry *e, struct apply_ctx *x, char *failed,
    size_t failedsz)
{
	struct gate *g = a->gate;
	int rc;

	if (db->pg != NULL) {
		struct dbapply_hooks h = { pg_pass_over, pg_wrote, a,
		    pg_hold };

		if (a->dbapply == NULL)
			a->dbapply = dbapply_new(db);
		return dbapply_changeset(a->dbapply, e->changeset, e->len,
		    travels, on_conflict, x, &h, failed, failedsz) == 0 ?
		    SQLITE_OK : SQLITE_ERROR;
	}
	if (a->nwatch > 0)
		(void)sqlite3_update_hook(db->h, on_write, a);
	g->applying = 1;
	rc = sqlite3changeset_apply_v2(db->h, (int)e->len,
	    (void *)e->changeset, travels, on_conflict, x, NULL, NULL,
	    SQLITE_CHANGESETAPPLY_NOSAVEPOINT);
	g->applying = 0;
	(void)sqlite3_update_hook(db->h, NULL, NULL);
	/* A damaged one leaves no message on the connection. */
	if (rc != SQLITE_OK)
		snprintf(failed, failedsz, "%s", (rc & 0xff) == SQLITE_CORRUPT ?
		    "a damaged changeset" : sqlite3_errmsg(db->h));
	return rc;
}

/*
 * e, applied, joins this station's record as it came, and what it
 * removed is noted: copies made without knowing cannot undo it.
 */
static void
entry_record(struct db *db, struct exchange_apply *a,
    const struct changes_entry *e)
{
	struct gate *g = a->gate;
	struct db_stmt *st = db_prepare(db, "INSERT INTO change (no, origin,"
	    " oseq, time, data, seen) VALUES ((SELECT coalesce(max(no), 0) +"
	    " 1 FROM change), ?1, ?2, ?3, ?4, ?5)");

	db_bind_text(st, 1, e->origin);
	db_bind_int(st, 2, e->oseq);
	db_bind_int(st, 3, e->time);
	db_bind_blob(st, 4, e->changeset, (int)e->len);
	if (e->seen != NULL)
		db_bind_blob(st, 5, e->seen,
		    (int)(e->nseen * CHANGES_SEEN_LEN));
	db_step(db, st, 0);
	db_finalize(st);
	if (g != NULL && g->writers != NULL && writers_add(g->writers,
	    e->origin, e->oseq, e->changeset, e->len) != 0)
		db_fatal(db, "cannot note the rows a change wrote");
	if (changeset_has_delete(e->changeset, e->len)) {
		if (gone_note(db, e->origin, e->oseq, e->changeset,
		    e->len) != 0)
			db_fatal(db, "cannot note the records removed");
		gates_more(db, a);
	}
}

int
exchange_apply_entry(struct db *db, struct exchange_apply *a,
    const struct changes_entry *e, char *why, size_t whysz)
{
	struct apply_ctx x = { db, a, NULL };
	struct gate *g;
	char failed[256];
	int rc;

	a->entries++;
	if ((rc = entry_place(db, e, why, whysz)) != 0) {
		a->known += rc > 0;
		return rc > 0 ? 0 : -1;
	}
	/* Each station once an apply: a merge brings thousands of one. */
	if (strcmp(a->known_origin, e->origin) != 0) {
		if (exchange_station(db, e->origin, NULL, 0, why, whysz) != 0)
			return -1;
		snprintf(a->known_origin, sizeof a->known_origin, "%s",
		    e->origin);
	}
	a->origin = e->origin;
	a->oseq = e->oseq;
	if (a->gate == NULL)
		gates_more(db, a);
	g = a->gate;
	g->origin = e->origin;
	g->oseq = e->oseq;
	g->seen = e->seen;
	g->nseen = e->nseen;
	if (e->seen != NULL)
		writers_ready(db, g, e);
	rc = entry_changeset(db, a, e, &x, failed, sizeof failed);
	a->origin = NULL;
	if (rc != SQLITE_OK || x.local != NULL) {
		stamps_clear(a);
		patches_clear(a);
		if (x.local != NULL) {
			util_say(why, whysz, "change %.8s:%" PRId64 " changes "
			    "the table '%s', which is this station's own",
			    e->origin, e->oseq, util_q(x.local));
			free(x.local);
			return -1;
		}
		return util_say(why, whysz, "change %.8s:%" PRId64 " cannot be "
		    "applied: %s", e->origin, e->oseq, failed);
	}
	if (patches_apply(db, a, why, whysz) != 0 ||
	    stamps_apply(db, a, why, whysz) != 0)
		return -1;
	entry_record(db, a, e);
	a->applied++;
	return 0;
}

int
exchange_apply_file(struct db *db, FILE *fp, struct exchange_apply *a,
    char *why, size_t whysz)
{
	struct changes_header h;
	struct changes_reader *r;
	struct changes_entry e;
	int rc;

	if ((r = changes_reader_open(fp, &h, why, whysz)) == NULL)
		return -1;
	if (h.schema != DB_SCHEMA_VERSION) {
		changes_reader_free(r);
		return util_say(why, whysz, "written at schema %" PRIu32
		    ", and this database is at %d: both stations need the "
		    "same refkit", h.schema, DB_SCHEMA_VERSION);
	}
	if (exchange_station(db, h.station, h.name, 0, why, whysz) != 0) {
		changes_reader_free(r);
		return -1;
	}
	while ((rc = changes_reader_next(r, &e, why, whysz)) == 1)
		if (exchange_apply_entry(db, a, &e, why, whysz) != 0) {
			rc = -1;
			break;
		}
	changes_reader_free(r);
	return rc;
}

/*
 * The seen list of a row of change read by st (column i) into e: NULL
 * when not known; -1 when it is no list refkit writes.
 */
static int
row_seen(struct db_stmt *st, int i, struct changes_entry *e)
{
	static const unsigned char none[1];
	size_t n;

	e->seen = NULL;
	e->nseen = 0;
	if (db_column_type(st, i) == DB_NULL)
		return 0;
	if (db_column_type(st, i) != DB_BLOB)
		return -1;
	n = (size_t)db_column_bytes(st, i);
	if (n % CHANGES_SEEN_LEN != 0)
		return -1;
	e->seen = n > 0 ? db_column_blob(st, i) : none;
	e->nseen = n / CHANGES_SEEN_LEN;
	return 0;
}

int
exchange_merge(struct db *db, struct db *other, struct exchange_apply *a,
    char *why, size_t whysz)
{
	struct station self;
	struct db_stmt *st;
	int rc = 0;

	station_self(other, &self);
	rc = exchange_station(db, self.id, self.name, self.created, why,
	    whysz);
	station_release(&self);
	if (rc != 0)
		return -1;
	st = db_prepare(other, "SELECT c.origin, c.oseq, c.time, c.data,"
	    " c.seen, r.data FROM " DB_CHANGE_ROWS " ORDER BY c.no");
	while (rc == 0 && db_step(other, st, 0) == DB_ROW) {
		struct changes_entry e;
		const char *origin = db_column_text(st, 0);
		void *owned;

		e.oseq = db_column_int(st, 1);
		e.time = db_column_int(st, 2);
		e.changeset = db_change_data(st, 3, 5, &e.len, &owned);
		if (changes_check_id(origin, why, whysz) != 0 ||
		    e.oseq < 1 || e.len == 0 || row_seen(st, 4, &e) != 0 ||
		    (e.seen != NULL && changes_seen_check(e.seen, e.nseen,
		    origin, why, whysz) != 0)) {
			rc = util_say(why, whysz, "a row of its record of "
			    "changes is not one refkit writes (origin '%s', "
			    "number %" PRId64 ", %zu bytes)", util_q(origin),
			    e.oseq, e.len);
			free(owned);
			break;
		}
		memcpy(e.origin, origin, sizeof e.origin);
		rc = exchange_apply_entry(db, a, &e, why, whysz);
		free(owned);
	}
	db_finalize(st);
	return rc;
}

/*
 * The row of y's record as it is now, read by the statement returned
 * (to finalize), or NULL when it is not here.
 */
static struct db_stmt *
row_now(struct db *db, struct cols *c, const struct exchange_conflict *y)
{
	struct strbuf q = STRBUF_INIT;
	struct db_stmt *st;
	int npk = 0;

	strbuf_addstr(&q, "SELECT * FROM ");
	strbuf_ident(&q, c->table);
	for (int k = 0; k < y->ncol && k < c->n; k++)
		if (y->pk[k] != NULL) {
			strbuf_addstr(&q, npk++ ? " AND " : " WHERE ");
			strbuf_ident(&q, c->name[k]);
			strbuf_addf(&q, " = ?%d", k + 1);
		}
	st = db_prepare(db, q.s);
	strbuf_release(&q);
	for (int k = 0; k < y->ncol && k < c->n; k++)
		if (y->pk[k] != NULL)
			(void)dbapply_bind(st, k + 1, y->pk[k]);
	if (npk == 0 || db_step(db, st, 0) != DB_ROW ||
	    db_column_count(st) != y->ncol) {
		db_finalize(st);
		return NULL;
	}
	return st;
}

/* Whether conflict y is one whose record a change made since settled. */
static int
superseded(struct db *db, struct exchange_apply *a,
    const struct exchange_conflict *y)
{
	struct cols *c;
	struct db_stmt *st;
	struct changeset_value *here = NULL;
	struct support s;
	int *want, done = 0;

	if (y->pk == NULL || strcmp(y->kind, K_REFUSED) == 0 ||
	    strcmp(y->kind, K_DANGLING) == 0)
		return 0;
	c = cols_of(db, a, y->table);
	want = xcalloc((size_t)y->ncol, sizeof *want);
	for (int k = 0; k < y->ncols; k++)
		want[y->cols[k]] = 1;
	if ((st = row_now(db, c, y)) != NULL) {
		here = xcalloc((size_t)y->ncol, sizeof *here);
		for (int i = 0; i < y->ncol; i++)
			cv_column(st, i, &here[i]);
	}
	support_init(&s, y->ncol, touch_index(db, a));
	support_find(db, &s, y->table, y->pk, here, want, y->origin, y->oseq,
	    NULL, 0);
	if (here == NULL)
		done = s.knew_c[y->ncol];
	else if (y->ncols > 0) {
		done = 1;
		for (int k = 0; k < y->ncols; k++)
			done &= s.knew_c[y->cols[k]];
	}
	support_release(&s);
	free(here);
	free(want);
	db_finalize(st);
	return done;
}

static int
cmp_conflict_table(const void *x, const void *y)
{
	const struct exchange_conflict *const *p = x, *const *q = y;
	int c = strcmp((*p)->table, (*q)->table);

	return c != 0 ? c : strcmp((*p)->key, (*q)->key);
}

/*
 * Puts each record of the conflicts settled here (g, n of them, in
 * order of table and key) as it now is into a changeset: an insert of
 * the row, or, where it is not here, a removal.
 */
static void
settlement_put(struct db *db, struct exchange_apply *a,
    struct exchange_conflict **g, size_t n, struct strbuf *o)
{
	const char *table = NULL;

	for (size_t i = 0; i < n; i++) {
		struct exchange_conflict *y = g[i];
		struct cols *c = cols_of(db, a, y->table);
		struct db_stmt *st;
		struct changeset_value v;

		if (i > 0 && cmp_conflict_table(&g[i - 1], &g[i]) == 0)
			continue;
		if (c->n != y->ncol)
			continue;
		if (table == NULL || strcmp(table, y->table) != 0) {
			unsigned char *kf = NULL;
			char **names = NULL;
			int nn = db_table_columns(db, y->table, &names, &kf);

			for (int k = 0; k < nn; k++)
				free(names[k]);
			free(names);
			if (nn != c->n) {
				free(kf);
				continue;
			}
			changeset_put_table(o, y->table, c->n, kf);
			free(kf);
			table = y->table;
		}
		if ((st = row_now(db, c, y)) != NULL) {
			changeset_put_change(o, SQLITE_INSERT, 0);
			for (int k = 0; k < c->n; k++) {
				cv_column(st, k, &v);
				changeset_put_value(o, &v);
			}
			db_finalize(st);
			continue;
		}
		changeset_put_change(o, SQLITE_DELETE, 0);
		for (int k = 0; k < c->n; k++) {
			if (y->pk[k] != NULL)
				changeset_put_sqlite_value(o, y->pk[k]);
			else {
				memset(&v, 0, sizeof v);
				v.type = SQLITE_NULL;
				changeset_put_value(o, &v);
			}
		}
	}
}

void
exchange_finish(struct db *db, struct exchange_apply *a)
{
	struct exchange_conflict **g;
	struct strbuf o = STRBUF_INIT;
	size_t n = 0, kept = 0;

	for (size_t i = 0; i < a->nc; i++) {
		struct exchange_conflict *y = &a->c[i];

		if (superseded(db, a, y)) {
			if (!y->settled)
				a->open--;
			a->superseded++;
			conflict_release(y);
			continue;
		}
		a->c[kept++] = *y;
	}
	a->nc = kept;
	if (a->open > 0 || a->nc == 0)
		return;
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): of pointers */
	g = xreallocarray(NULL, a->nc, sizeof *g);
	for (size_t i = 0; i < a->nc; i++)
		if (a->c[i].settled && a->c[i].pk != NULL &&
		    strcmp(a->c[i].kind, K_REFUSED) != 0 && a->c[i].key != NULL)
			g[n++] = &a->c[i];
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): of pointers */
	qsort(g, n, sizeof *g, cmp_conflict_table);
	settlement_put(db, a, g, n, &o);
	free(g);
	if (o.len > 0)
		a->settlement = db_changes_record(db, o.s, o.len);
	strbuf_release(&o);
}

int
exchange_export(struct db *db, FILE *fp, int64_t since, int64_t *n,
    int64_t *to, char *why, size_t whysz)
{
	struct changes_header h;
	struct changes_writer *w;
	struct station self;
	struct db_stmt *st;

	memset(&h, 0, sizeof h);
	station_self(db, &self);
	h.schema = DB_SCHEMA_VERSION;
	snprintf(h.station, sizeof h.station, "%s", self.id);
	snprintf(h.name, sizeof h.name, "%s", self.name);
	station_release(&self);
	st = db_prepare(db, "SELECT coalesce(max(no), 0) FROM change");
	db_step(db, st, 0);
	h.to = db_column_int(st, 0);
	db_finalize(st);
	h.from = since < h.to ? since : h.to;
	h.time = db_now();
	if ((w = changes_writer_open(fp, &h, why, whysz)) == NULL)
		return -1;
	*n = 0;
	st = db_prepare(db, "SELECT c.origin, c.oseq, c.time, c.data, c.seen,"
	    " r.data FROM " DB_CHANGE_ROWS " WHERE c.no > ?1 AND c.no <= ?2"
	    " ORDER BY c.no");
	db_bind_int(st, 1, h.from);
	db_bind_int(st, 2, h.to);
	while (db_step(db, st, 0) == DB_ROW) {
		struct changes_entry e;
		void *owned;
		int bad;

		snprintf(e.origin, sizeof e.origin, "%s",
		    db_column_text(st, 0));
		e.oseq = db_column_int(st, 1);
		e.time = db_column_int(st, 2);
		e.changeset = db_change_data(st, 3, 5, &e.len, &owned);
		bad = (row_seen(st, 4, &e) != 0 && util_say(why, whysz,
		    "change %.8s:%" PRId64 " has a seen list refkit does not"
		    " write", e.origin, e.oseq) != 0) ||
		    changes_writer_add(w, &e, why, whysz) != 0;
		free(owned);
		if (bad) {
			db_finalize(st);
			(void)changes_writer_close(w, why, whysz);
			return -1;
		}
		(*n)++;
	}
	db_finalize(st);
	*to = h.to;
	return changes_writer_close(w, why, whysz);
}

static void
json_or_null(FILE *fp, const char *s)
{
	if (s != NULL)
		out_json_string(fp, s);
	else
		fputs("null", fp);
}

static const char *
choice_word(enum exchange_prefer p)
{
	return p == EXCHANGE_MINE ? "mine" : p == EXCHANGE_THEIRS ? "theirs" :
	    NULL;
}

/* Whether x stays open for a choice of theirs that cannot settle it. */
static int
theirs_refused(const struct exchange_conflict *x)
{
	return !x->settled && x->choice == EXCHANGE_THEIRS &&
	    x->no_theirs != NULL;
}

/* One conflict as a JSON object (refkit(1) names its fields). */
static void
report_json(FILE *fp, const struct exchange_apply *a,
    const struct exchange_conflict *x)
{
	fprintf(fp, "{\"table\":");
	out_json_string(fp, x->table);
	fprintf(fp, ",\"conflict\":");
	out_json_string(fp, x->kind);
	fprintf(fp, ",\"name\":");
	json_or_null(fp, x->name);
	fprintf(fp, ",\"differ\":%s", x->columns != NULL ? x->columns : "[]");
	fprintf(fp, ",\"origin\":\"%s\",\"oseq\":%" PRId64 ",\"key\":%s,"
	    "\"mine\":%s,\"theirs\":%s,\"settled\":%s,\"settled_by\":%s,"
	    "\"choice\":", x->origin, x->oseq, x->key ? x->key : "null",
	    x->mine ? x->mine : "null", x->theirs ? x->theirs : "null",
	    x->settled ? "true" : "false", !x->settled ? "null" :
	    x->by != NULL ? "\"resolve\"" : "\"prefer\"");
	json_or_null(fp, choice_word(x->choice));
	fprintf(fp, ",\"resolution\":");
	if (x->by != NULL) {
		fprintf(fp, "{\"file\":");
		out_json_string(fp, a->resolve->file);
		fprintf(fp, ",\"line\":%ld}", x->by->line);
	} else
		fputs("null", fp);
	fprintf(fp, ",\"open_because\":");
	json_or_null(fp, theirs_refused(x) ? x->no_theirs : NULL);
	fputc('}', fp);
}

/* One conflict for people: the record, how it ended, both versions. */
static void
report_text(FILE *fp, const struct exchange_apply *a,
    const struct exchange_conflict *x)
{
	if (x->key == NULL) {
		/* Dangling: no row to name. */
		fprintf(fp, "change %.8s:%" PRId64 " %s\n", x->origin,
		    x->oseq, x->kind);
		return;
	}
	fprintf(fp, "%s %s: %s", x->table, x->name != NULL ? x->name : x->key,
	    x->kind);
	if (x->fields != NULL)
		fprintf(fp, ": %s", x->fields);
	fprintf(fp, " (change %.8s:%" PRId64 ")", x->origin, x->oseq);
	if (x->settled && x->by != NULL)
		fprintf(fp, ", settled by %s:%ld (%s)", a->resolve->file,
		    x->by->line, choice_word(x->choice));
	else if (x->settled)
		fputs(", settled by --prefer", fp);
	fputc('\n', fp);
	if (!theirs_refused(x))
		return;
	if (x->by != NULL)
		fprintf(fp, "  open:  theirs (%s:%ld)", a->resolve->file,
		    x->by->line);
	else
		fputs("  open:  --prefer theirs", fp);
	fprintf(fp, " cannot settle it: %s; only mine can\n", x->no_theirs);
}

void
exchange_report(FILE *fp, const struct exchange_apply *a, int json)
{
	if (json)
		fputc('[', fp);
	for (size_t i = 0; i < a->nc; i++) {
		if (json) {
			fputs(i ? "," : "", fp);
			report_json(fp, a, &a->c[i]);
		} else
			report_text(fp, a, &a->c[i]);
	}
	if (json)
		fputs("]\n", fp);
}
