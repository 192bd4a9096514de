/*
 * changeset.c - the bytes of a changeset, walked without SQLite; see
 * changeset.h.
 */
#include "db/changeset.h"

#include "base/util.h"

#include <limits.h>
#include <sqlite3.h>
#include <stdint.h>
#include <string.h>

/*
 * A guard before SQLite sees a changeset.  SQLite 3.40's changeset
 * iterator (Debian 12's) trusts the lengths inside a changeset: a table
 * header that runs past the end of its input makes sqlite3changeset_next
 * loop forever (later SQLite reports it as corrupt), and a varint cut
 * short by the end is read on past it.  So the bounds of every part
 * are walked here first, by the layout sqlite3session.h documents: each
 * table ('T', its column count, a primary-key flag per column, its name
 * and a NUL) followed by its changes (an operation, an indirect flag,
 * and a value per column: the old ones for a delete, the new for an
 * insert, both for an update).  Only bounds are judged here; SQLite's
 * iterator still judges the changeset, and nothing is read out of it.
 * A patchset ('P') is not a changeset and is refused.
 */
struct walk {
	const unsigned char	*p;
	size_t			 n, i;
};

/* A varint as SQLite writes them: 7 bits a byte, the ninth has 8. */
static int
walk_varint(struct walk *w, uint64_t *v)
{
	*v = 0;
	for (int k = 0; k < 9; k++) {
		unsigned char c;

		if (w->i >= w->n)
			return -1;
		c = w->p[w->i++];
		if (k == 8) {
			*v = *v << 8 | c;
			return 0;
		}
		*v = *v << 7 | (c & 0x7f);
		if ((c & 0x80) == 0)
			return 0;
	}
	return -1;
}

static int
walk_skip(struct walk *w, uint64_t len)
{
	if (len > w->n - w->i)
		return -1;
	w->i += len;
	return 0;
}

/* A record of ncol values. */
static int
walk_record(struct walk *w, uint64_t ncol)
{
	uint64_t len;

	for (uint64_t c = 0; c < ncol; c++) {
		if (w->i >= w->n)
			return -1;
		switch (w->p[w->i++]) {
		case 0:			/* not given (an update's) */
		case SQLITE_NULL:
			break;
		case SQLITE_INTEGER:
		case SQLITE_FLOAT:
			if (walk_skip(w, 8) != 0)
				return -1;
			break;
		case SQLITE_TEXT:
		case SQLITE_BLOB:
			if (walk_varint(w, &len) != 0 || len > INT_MAX ||
			    walk_skip(w, len) != 0)
				return -1;
			break;
		default:
			return -1;
		}
	}
	return 0;
}

/*
 * Walks p to its end, or with stop_at_delete set only as far as its
 * first delete: 1 when every part is in bounds (or a delete was found
 * first, *deletes then set), 0 if not.
 */
static int
changeset_walk(const unsigned char *p, size_t n, int stop_at_delete,
    int *deletes)
{
	struct walk w = { p, n, 0 };
	const unsigned char *nul;
	uint64_t ncol = 0;
	unsigned char op;

	while (w.i < w.n) {
		op = p[w.i++];
		if (op == 'T') {
			/* SQLite's own limit on a header's columns. */
			if (walk_varint(&w, &ncol) != 0 || ncol == 0 ||
			    ncol > 65536 || walk_skip(&w, ncol) != 0 ||
			    (nul = memchr(p + w.i, '\0', n - w.i)) == NULL)
				return 0;
			w.i = (size_t)(nul - p) + 1;
			continue;
		}
		/* A change: after a table, its indirect flag, its values. */
		if (ncol == 0 || walk_skip(&w, 1) != 0)
			return 0;
		if (op != SQLITE_INSERT && op != SQLITE_DELETE &&
		    op != SQLITE_UPDATE)
			return 0;
		if (op == SQLITE_DELETE) {
			*deletes = 1;
			if (stop_at_delete)
				return 1;
		}
		if (walk_record(&w, ncol) != 0 || (op == SQLITE_UPDATE &&
		    walk_record(&w, ncol) != 0))
			return 0;
	}
	return 1;
}

int
changeset_in_bounds(const void *p, size_t n)
{
	int deletes = 0;

	return changeset_walk(p, n, 0, &deletes);
}

int
changeset_has_delete(const void *cs, size_t len)
{
	int deletes = 0;

	(void)changeset_walk(cs, len, 1, &deletes);
	return deletes;
}

/* ---- writing ---- */

static void
out_bytes(struct strbuf *o, const void *p, size_t n)
{
	strbuf_add(o, p, n);
}

static void
out_byte(struct strbuf *o, unsigned char c)
{
	out_bytes(o, &c, 1);
}

/* A varint as walk_varint reads it back. */
static void
out_varint(struct strbuf *o, uint64_t v)
{
	unsigned char b[9];
	int n = 0;

	if (v >> 56 != 0) {
		b[8] = (unsigned char)(v & 0xff);
		v >>= 8;
		for (int i = 7; i >= 0; i--, v >>= 7)
			b[i] = (unsigned char)((v & 0x7f) | 0x80);
		out_bytes(o, b, 9);
		return;
	}
	do {
		b[n++] = (unsigned char)((v & 0x7f) | 0x80);
		v >>= 7;
	} while (v != 0);
	b[0] &= 0x7f;
	for (int i = n - 1; i >= 0; i--)
		out_byte(o, b[i]);
}

static void
out_be64(struct strbuf *o, uint64_t v)
{
	unsigned char b[8];

	for (int i = 7; i >= 0; i--, v >>= 8)
		b[i] = (unsigned char)(v & 0xff);
	out_bytes(o, b, sizeof b);
}

void
changeset_put_table(struct strbuf *o, const char *table, int ncol,
    const unsigned char *pk)
{
	out_byte(o, 'T');
	out_varint(o, (uint64_t)ncol);
	out_bytes(o, pk, (size_t)ncol);
	out_bytes(o, table, strlen(table) + 1);
}

void
changeset_put_change(struct strbuf *o, int op, int indirect)
{
	out_byte(o, (unsigned char)op);
	out_byte(o, indirect != 0);
}

void
changeset_put_value(struct strbuf *o, const struct changeset_value *v)
{
	uint64_t u;

	out_byte(o, (unsigned char)v->type);
	switch (v->type) {
	case SQLITE_INTEGER:
		out_be64(o, (uint64_t)v->i);
		break;
	case SQLITE_FLOAT:
		memcpy(&u, &v->f, sizeof u);
		out_be64(o, u);
		break;
	case SQLITE_TEXT:
	case SQLITE_BLOB:
		out_varint(o, v->n);
		out_bytes(o, v->p, v->n);
		break;
	default:
		break;
	}
}

void
changeset_put_sqlite_value(struct strbuf *o, sqlite3_value *v)
{
	struct changeset_value x;

	memset(&x, 0, sizeof x);
	if (v != NULL)
		x.type = sqlite3_value_type(v);
	switch (x.type) {
	case SQLITE_INTEGER:
		x.i = sqlite3_value_int64(v);
		break;
	case SQLITE_FLOAT:
		x.f = sqlite3_value_double(v);
		break;
	case SQLITE_TEXT:
		x.p = sqlite3_value_text(v);
		x.n = (size_t)sqlite3_value_bytes(v);
		break;
	case SQLITE_BLOB:
		x.p = sqlite3_value_blob(v);
		x.n = (size_t)sqlite3_value_bytes(v);
		break;
	default:
		break;
	}
	changeset_put_value(o, &x);
}
