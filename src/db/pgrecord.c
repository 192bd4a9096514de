/*
 * pgrecord.c - the changes of a write transaction on a PostgreSQL
 * station, as a changeset; see pgrecord.h.
 *
 * The server's notes (refkit_rowlog, tools/pgstation.sql) are the rows
 * each statement changed: as it found them (a note "before") and as it
 * left them ("after"), in the order the statements ran.  The first note
 * of a key says what the row was when the transaction began: a before
 * note is that row, an after note says there was none.  Its last note
 * says what the row is now: an after note is the row, a before note says
 * it is gone.  Those two, for every key, are all a changeset holds.
 */
#include "db/pgrecord.h"

#include "db/changeset.h"
#include "db/db_stmt.h"
#include "base/util.h"

#include <sqlite3.h>

#include <err.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A table the notes name, as refkit_travel describes it. */
struct table {
	char		*name;
	int64_t		 ord;		/* its place in the schema */
	int		 ncol;
	unsigned char	*pk;		/* each column's place in the key */
};

/* One note: a row as a statement found or left it. */
struct image {
	int64_t			 n;	/* the order of the notes */
	size_t			 t;	/* its table, in tables[] */
	int64_t			 ord;	/* that table's place */
	int			 after;
	int			 nset;	/* values read so far */
	struct changeset_value	*v;	/* ncol; text owned */
	unsigned char		*key;	/* the key's values, encoded */
	size_t			 klen;
};

/* What one key comes to. */
struct net {
	size_t			 t;
	int64_t			 ord;
	int			 op;
	const struct image	*before, *after;
	int64_t			 first;	/* its first note */
};

struct notes {
	struct table	*tables;
	size_t		 ntables;
	struct image	*img;
	size_t		 nimg, capimg;
};

/* The notes by table, key, then order: each key's notes together. */
static int
cmp_image(const void *p, const void *q)
{
	const struct image *a = p, *b = q;
	size_t n = a->klen < b->klen ? a->klen : b->klen;
	int c;

	if (a->ord != b->ord)
		return a->ord < b->ord ? -1 : 1;
	if ((c = memcmp(a->key, b->key, n)) != 0)
		return c;
	if (a->klen != b->klen)
		return a->klen < b->klen ? -1 : 1;
	return (a->n > b->n) - (a->n < b->n);
}

/*
 * The changes by table, in the schema's order (a record before what
 * names it), then by their first note: what a changeset of SQLite's
 * holds, in an order of its own.
 */
static int
cmp_net(const void *p, const void *q)
{
	const struct net *a = p, *b = q;

	if (a->ord != b->ord)
		return a->ord < b->ord ? -1 : 1;
	return (a->first > b->first) - (a->first < b->first);
}

/* The table named name, added on first sight with its key columns. */
static size_t
table_of(struct notes *x, const char *name, int64_t ord,
    const unsigned char *pk, int ncol)
{
	struct table *t;

	for (size_t i = 0; i < x->ntables; i++)
		if (strcmp(x->tables[i].name, name) == 0)
			return i;
	if (ncol < 1)
		errx(1, "damaged record of changes: table '%s' has no "
		    "columns", util_q(name));
	x->tables = xreallocarray(x->tables, x->ntables + 1,
	    sizeof *x->tables);
	t = &x->tables[x->ntables];
	t->name = xstrdup(name);
	t->ord = ord;
	t->ncol = ncol;
	t->pk = xmalloc((size_t)ncol);
	memcpy(t->pk, pk, (size_t)ncol);
	return x->ntables++;
}

/* A value as JSON gave it: its type (json_typeof) and its text. */
static void
read_value(struct changeset_value *v, const char *jtype, const char *text,
    const char *table)
{
	char *end;

	memset(v, 0, sizeof *v);
	if (strcmp(jtype, "null") == 0) {
		v->type = SQLITE_NULL;
		return;
	}
	if (text == NULL)
		errx(1, "damaged record of changes of '%s'", util_q(table));
	if (strcmp(jtype, "string") == 0) {
		v->type = SQLITE_TEXT;
		v->p = xstrdup(text);
		v->n = strlen(text);
	} else if (strcmp(jtype, "boolean") == 0) {
		v->type = SQLITE_INTEGER;
		v->i = strcmp(text, "true") == 0;
	} else if (strcmp(jtype, "number") == 0) {
		errno = 0;
		v->i = strtoll(text, &end, 10);
		v->type = SQLITE_INTEGER;
		if (*end != '\0' || errno != 0 || end == text) {
			v->type = SQLITE_FLOAT;
			v->f = strtod(text, &end);
			if (*end != '\0' || end == text)
				errx(1, "damaged record of changes of '%s': "
				    "'%s' is no number", util_q(table),
				    util_q(text));
		}
	} else
		errx(1, "damaged record of changes of '%s': a value of JSON "
		    "type '%s'", util_q(table), util_q(jtype));
}

/* The key of a note: its key columns' values, as a changeset has them. */
static void
image_key(struct image *m, const struct table *t)
{
	struct strbuf o = STRBUF_INIT;

	for (int k = 1; k <= t->ncol; k++)
		for (int i = 0; i < t->ncol; i++)
			if (t->pk[i] == k)
				changeset_put_value(&o, &m->v[i]);
	m->key = (unsigned char *)strbuf_detach(&o, &m->klen);
}

/* Reads (and removes) the notes of this transaction, in order. */
static void
read_notes(struct db *db, struct notes *x)
{
	struct db_stmt *st;
	struct image *m = NULL;
	int64_t last = 0;

	st = db_prepare(db, "WITH d AS (DELETE FROM refkit_rowlog"
	    " RETURNING n, tbl, after, img)"
	    " SELECT d.n, d.tbl, d.after, t.ord, t.pk, e.k, json_typeof(e.v),"
	    " e.v #>> '{}' FROM d JOIN refkit_travel t ON t.tbl = d.tbl,"
	    " json_each(d.img) WITH ORDINALITY AS e(key, v, k)"
	    " ORDER BY d.n, e.k");
	while (db_step(db, st, 0) == DB_ROW) {
		int64_t n = db_column_int(st, 0), k = db_column_int(st, 5);
		const char *name = db_column_text(st, 1);
		const struct table *t;

		if (name == NULL)
			errx(1, "damaged record of changes: a row of no table");
		if (m == NULL || n != last) {
			if (x->nimg == x->capimg) {
				x->capimg = x->capimg ? 2 * x->capimg : 64;
				x->img = xreallocarray(x->img, x->capimg,
				    sizeof *x->img);
			}
			m = &x->img[x->nimg++];
			memset(m, 0, sizeof *m);
			m->n = last = n;
			m->t = table_of(x, name, db_column_int(st, 3),
			    db_column_blob(st, 4), db_column_bytes(st, 4));
			m->ord = x->tables[m->t].ord;
			m->after = db_column_int(st, 2) != 0;
			m->v = xcalloc((size_t)x->tables[m->t].ncol,
			    sizeof *m->v);
		}
		t = &x->tables[m->t];
		if (k != m->nset + 1 || k > t->ncol)
			errx(1, "damaged record of changes: a row of '%s' with "
			    "other columns than its table's", util_q(name));
		read_value(&m->v[k - 1], db_column_text(st, 6),
		    db_column_text(st, 7), t->name);
		m->nset++;
	}
	db_finalize(st);
	for (size_t i = 0; i < x->nimg; i++) {
		const struct table *t = &x->tables[x->img[i].t];

		if (x->img[i].nset != t->ncol)
			errx(1, "damaged record of changes: a row of '%s' with "
			    "other columns than its table's", util_q(t->name));
		image_key(&x->img[i], t);
	}
}

static int
same(const struct changeset_value *a, const struct changeset_value *b)
{
	uint64_t ua, ub;

	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case SQLITE_INTEGER:
		return a->i == b->i;
	case SQLITE_FLOAT:
		/* As SQLite compares them: their eight bytes. */
		memcpy(&ua, &a->f, sizeof ua);
		memcpy(&ub, &b->f, sizeof ub);
		return ua == ub;
	case SQLITE_TEXT:
	case SQLITE_BLOB:
		return a->n == b->n && (a->n == 0 ||
		    memcmp(a->p, b->p, a->n) == 0);
	default:
		return 1;
	}
}

/* Writes one key's change, as SQLite's session extension writes it. */
static void
put_net(struct strbuf *o, const struct table *t, const struct net *c)
{
	static const struct changeset_value none;

	changeset_put_change(o, c->op, 0);
	if (c->op == SQLITE_INSERT) {
		for (int i = 0; i < t->ncol; i++)
			changeset_put_value(o, &c->after->v[i]);
		return;
	}
	if (c->op == SQLITE_DELETE) {
		for (int i = 0; i < t->ncol; i++)
			changeset_put_value(o, &c->before->v[i]);
		return;
	}
	/* An update: the old key and changed values, then the new. */
	for (int i = 0; i < t->ncol; i++)
		changeset_put_value(o, t->pk[i] || !same(&c->before->v[i],
		    &c->after->v[i]) ? &c->before->v[i] : &none);
	for (int i = 0; i < t->ncol; i++)
		changeset_put_value(o, !t->pk[i] && !same(&c->before->v[i],
		    &c->after->v[i]) ? &c->after->v[i] : &none);
}

/* Whether a key's first and last notes differ in any value. */
static int
changed(const struct table *t, const struct image *a, const struct image *b)
{
	for (int i = 0; i < t->ncol; i++)
		if (!same(&a->v[i], &b->v[i]))
			return 1;
	return 0;
}

static void
notes_free(struct notes *x)
{
	for (size_t i = 0; i < x->nimg; i++) {
		const struct table *t = &x->tables[x->img[i].t];

		for (int k = 0; k < t->ncol; k++)
			if (x->img[i].v[k].type == SQLITE_TEXT)
				free((void *)x->img[i].v[k].p);
		free(x->img[i].v);
		free(x->img[i].key);
	}
	free(x->img);
	for (size_t i = 0; i < x->ntables; i++) {
		free(x->tables[i].name);
		free(x->tables[i].pk);
	}
	free(x->tables);
}

unsigned char *
pgrecord_take(struct db *db, size_t *n)
{
	struct notes x;
	struct net *c;
	struct strbuf o = STRBUF_INIT;
	size_t nc = 0, last = SIZE_MAX;

	memset(&x, 0, sizeof x);
	read_notes(db, &x);
	if (x.nimg == 0) {
		notes_free(&x);
		return NULL;
	}
	qsort(x.img, x.nimg, sizeof *x.img, cmp_image);
	c = xcalloc(x.nimg + 1, sizeof *c);
	for (size_t i = 0, j; i < x.nimg; i = j) {
		const struct image *first = &x.img[i], *end;

		for (j = i + 1; j < x.nimg && x.img[j].t == first->t &&
		    x.img[j].klen == first->klen && memcmp(x.img[j].key,
		    first->key, first->klen) == 0; j++)
			;
		end = &x.img[j - 1];
		c[nc].t = first->t;
		c[nc].ord = first->ord;
		c[nc].before = first->after ? NULL : first;
		c[nc].after = end->after ? end : NULL;
		c[nc].first = first->n;
		if (c[nc].before != NULL && c[nc].after != NULL) {
			if (!changed(&x.tables[first->t], c[nc].before,
			    c[nc].after))
				continue;
			c[nc].op = SQLITE_UPDATE;
		} else if (c[nc].before != NULL)
			c[nc].op = SQLITE_DELETE;
		else if (c[nc].after != NULL)
			c[nc].op = SQLITE_INSERT;
		else
			continue;
		nc++;
	}
	qsort(c, nc, sizeof *c, cmp_net);
	for (size_t i = 0; i < nc; i++) {
		const struct table *t = &x.tables[c[i].t];

		if (c[i].t != last)
			changeset_put_table(&o, t->name, t->ncol, t->pk);
		last = c[i].t;
		put_net(&o, t, &c[i]);
	}
	free(c);
	notes_free(&x);
	*n = o.len;
	return o.s == NULL ? NULL : (unsigned char *)strbuf_detach(&o, NULL);
}
