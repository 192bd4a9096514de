/*
 * gone.c - removals that every station settles alike; see gone.h.
 */
#include "core/gone.h"

#include "core/changeset.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

/* A growing byte buffer, for keys and seen lists. */
struct buf {
	unsigned char	*p;
	size_t		 n, cap;
};

static void
buf_put(struct buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = b->cap ? 2 * b->cap : 64;
		while (b->cap < b->n + n)
			b->cap *= 2;
		b->p = xrealloc(b->p, b->cap);
	}
	if (n > 0)
		memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void
buf_be64(struct buf *b, uint64_t v)
{
	unsigned char x[8];

	for (int i = 7; i >= 0; i--, v >>= 8)
		x[i] = (unsigned char)(v & 0xff);
	buf_put(b, x, sizeof x);
}

/*
 * A key value as gone stores it: its type, then for a number its eight
 * bytes, for text or a blob its length and bytes.  The trigger and the
 * changeset give the same values of the same columns, so the same key.
 */
static void
key_value(struct buf *b, sqlite3_value *v)
{
	unsigned char t = (unsigned char)sqlite3_value_type(v);
	double d;
	uint64_t u;
	size_t n;

	buf_put(b, &t, 1);
	switch (t) {
	case SQLITE_INTEGER:
		buf_be64(b, (uint64_t)sqlite3_value_int64(v));
		break;
	case SQLITE_FLOAT:
		d = sqlite3_value_double(v);
		memcpy(&u, &d, sizeof u);
		buf_be64(b, u);
		break;
	case SQLITE_TEXT:
	case SQLITE_BLOB:
		/* Text first, so that its bytes are the UTF-8 ones. */
		if (t == SQLITE_TEXT)
			(void)sqlite3_value_text(v);
		n = (size_t)sqlite3_value_bytes(v);
		buf_be64(b, n);
		buf_put(b, t == SQLITE_TEXT ? (const void *)
		    sqlite3_value_text(v) : sqlite3_value_blob(v), n);
		break;
	default:
		break;
	}
}

int64_t
gone_seen_of(const unsigned char *seen, size_t nseen, const char *id)
{
	for (size_t i = 0; i < nseen; i++) {
		const unsigned char *s = seen + i * GONE_SEEN_LEN;
		uint64_t u = 0;

		if (memcmp(s, id, GONE_SEEN_LEN - 8) != 0)
			continue;
		for (int k = 0; k < 8; k++)
			u = u << 8 | s[GONE_SEEN_LEN - 8 + k];
		/* The numbers are 1 or more (changes_seen_check). */
		return u <= INT64_MAX ? (int64_t)u : 0;
	}
	return 0;
}

unsigned char *
gone_seen_now(sqlite3 *h, size_t *n, int *rc)
{
	struct buf b = { NULL, 0, 0 };
	sqlite3_stmt *st;

	*n = 0;
	*rc = sqlite3_prepare_v2(h, "SELECT s.id, (SELECT max(c.oseq) FROM"
	    " change c WHERE c.origin = s.id) FROM station s WHERE s.id <>"
	    " (SELECT id FROM station_self) ORDER BY s.id", -1, &st, NULL);
	if (*rc != SQLITE_OK)
		return NULL;
	while ((*rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *id = sqlite3_column_text(st, 0);

		if (sqlite3_column_type(st, 1) != SQLITE_INTEGER ||
		    id == NULL || sqlite3_column_bytes(st, 0) !=
		    GONE_SEEN_LEN - 8)
			continue;
		buf_put(&b, id, GONE_SEEN_LEN - 8);
		buf_be64(&b, (uint64_t)sqlite3_column_int64(st, 1));
		(*n)++;
	}
	sqlite3_finalize(st);
	if (*rc != SQLITE_DONE) {
		free(b.p);
		return NULL;
	}
	*rc = SQLITE_OK;
	if (b.p == NULL)
		b.p = xmalloc(1);
	return b.p;
}

unsigned char *
gone_key(sqlite3_value **v, int n, size_t *len)
{
	struct buf b = { NULL, 0, 0 };

	for (int i = 0; i < n; i++)
		key_value(&b, v[i]);
	if (b.p == NULL)
		b.p = xmalloc(1);
	*len = b.n;
	return b.p;
}

int
gone_note(sqlite3 *h, const char *origin, int64_t oseq, const void *cs,
    size_t len)
{
	sqlite3_changeset_iter *it = NULL;
	sqlite3_stmt *st = NULL;
	sqlite3_value **pkv = NULL;
	int rc;

	if (!changeset_has_delete(cs, len))
		return SQLITE_OK;
	rc = sqlite3_prepare_v2(h, "INSERT INTO gone (tbl, key, origin, oseq)"
	    " VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING", -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3changeset_start(&it, (int)len, (void *)cs);
	while (rc == SQLITE_OK && sqlite3changeset_next(it) == SQLITE_ROW) {
		const char *table;
		unsigned char *pk, *key;
		size_t klen;
		int ncol, op, indirect, nk = 0;

		(void)sqlite3changeset_op(it, &table, &ncol, &op, &indirect);
		if (op != SQLITE_DELETE)
			continue;
		(void)sqlite3changeset_pk(it, &pk, &ncol);
		pkv = xreallocarray(pkv, (size_t)ncol, sizeof(sqlite3_value *));
		for (int i = 0; i < ncol; i++)
			if (pk[i] && sqlite3changeset_old(it, i,
			    &pkv[nk]) == SQLITE_OK && pkv[nk] != NULL)
				nk++;
		key = gone_key(pkv, nk, &klen);
		sqlite3_bind_text(st, 1, table, -1, SQLITE_TRANSIENT);
		sqlite3_bind_blob(st, 2, key, (int)klen, free);
		sqlite3_bind_text(st, 3, origin, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, oseq);
		(void)sqlite3_step(st);
		rc = sqlite3_reset(st);
	}
	if (it != NULL && sqlite3changeset_finalize(it) != SQLITE_OK &&
	    rc == SQLITE_OK)
		rc = SQLITE_CORRUPT;
	sqlite3_finalize(st);
	free(pkv);
	return rc;
}

void
gone_fn_note(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	const char *origin = (const char *)sqlite3_value_text(argv[0]);
	int rc;

	(void)argc;
	if (origin == NULL || sqlite3_value_bytes(argv[2]) < 1) {
		sqlite3_result_error(cx, "refkit_gone_note: no change", -1);
		return;
	}
	rc = gone_note(sqlite3_context_db_handle(cx), origin,
	    sqlite3_value_int64(argv[1]), sqlite3_value_blob(argv[2]),
	    (size_t)sqlite3_value_bytes(argv[2]));
	if (rc != SQLITE_OK)
		sqlite3_result_error_code(cx, rc);
	else
		sqlite3_result_null(cx);
}
