/*
 * gone.c - removals that every station settles alike; see gone.h.
 */
#include "db/gone.h"

#include "db/changeset.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/*
 * A key value as gone stores it: its type, then for a number its eight
 * bytes, for text or a blob its length and bytes.  The trigger and the
 * changeset give the same values of the same columns, so the same key.
 */
static void
key_value(struct strbuf *b, sqlite3_value *v)
{
	unsigned char t = (unsigned char)sqlite3_value_type(v);
	double d;
	uint64_t u;
	size_t n;

	strbuf_add(b, &t, 1);
	switch (t) {
	case SQLITE_INTEGER:
		strbuf_be64(b, (uint64_t)sqlite3_value_int64(v));
		break;
	case SQLITE_FLOAT:
		d = sqlite3_value_double(v);
		memcpy(&u, &d, sizeof u);
		strbuf_be64(b, u);
		break;
	case SQLITE_TEXT:
	case SQLITE_BLOB:
		/* Text first, so that its bytes are the UTF-8 ones. */
		if (t == SQLITE_TEXT)
			(void)sqlite3_value_text(v);
		n = (size_t)sqlite3_value_bytes(v);
		strbuf_be64(b, n);
		strbuf_add(b, t == SQLITE_TEXT ? (const void *)
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

struct db_stmt *
gone_seen_ask(struct db *db)
{
	struct db_stmt *st = db_prepare(db, "SELECT s.id, (SELECT"
	    " max(c.oseq) FROM change c WHERE c.origin = s.id) FROM station s"
	    " WHERE s.id <> (SELECT id FROM station_self) ORDER BY s.id");

	db_ask(db, st);
	return st;
}

unsigned char *
gone_seen_take(struct db *db, struct db_stmt *st, size_t *n)
{
	struct strbuf b = STRBUF_INIT;

	*n = 0;
	while (db_step(db, st, 0) == DB_ROW) {
		const char *id = db_column_text(st, 0);

		if (db_column_type(st, 1) != DB_INTEGER || id == NULL ||
		    strlen(id) != GONE_SEEN_LEN - 8)
			continue;
		strbuf_add(&b, id, GONE_SEEN_LEN - 8);
		strbuf_be64(&b, (uint64_t)db_column_int(st, 1));
		(*n)++;
	}
	db_finalize(st);
	return (unsigned char *)strbuf_detach(&b, NULL);
}

unsigned char *
gone_key(sqlite3_value **v, int n, size_t *len)
{
	struct strbuf b = STRBUF_INIT;

	for (int i = 0; i < n; i++)
		key_value(&b, v[i]);
	return (unsigned char *)strbuf_detach(&b, len);
}

int
gone_note(struct db *db, const char *origin, int64_t oseq, const void *cs,
    size_t len)
{
	sqlite3_changeset_iter *it = NULL;
	struct db_stmt *st;
	sqlite3_value **pkv = NULL;
	int rc;

	if (!changeset_has_delete(cs, len))
		return 0;
	if (sqlite3changeset_start(&it, (int)len, (void *)cs) != SQLITE_OK)
		return -1;
	st = db_prepare(db, "INSERT INTO gone (tbl, key, origin, oseq)"
	    " VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING");
	while (sqlite3changeset_next(it) == SQLITE_ROW) {
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
		db_bind_text_copy(st, 1, table);
		db_bind_blob(st, 2, key, (int)klen);
		db_bind_text(st, 3, origin);
		db_bind_int(st, 4, oseq);
		db_send(db, st);
		free(key);
	}
	rc = sqlite3changeset_finalize(it) == SQLITE_OK ? 0 : -1;
	db_finalize(st);
	free(pkv);
	return rc;
}

void
gone_fn_note(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	const char *origin = (const char *)sqlite3_value_text(argv[0]);

	(void)argc;
	if (origin == NULL || sqlite3_value_bytes(argv[2]) < 1) {
		sqlite3_result_error(cx, "refkit_gone_note: no change", -1);
		return;
	}
	if (gone_note(sqlite3_user_data(cx), origin,
	    sqlite3_value_int64(argv[1]), sqlite3_value_blob(argv[2]),
	    (size_t)sqlite3_value_bytes(argv[2])) != 0)
		sqlite3_result_error_code(cx, SQLITE_CORRUPT);
	else
		sqlite3_result_null(cx);
}
