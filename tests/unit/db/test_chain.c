/*
 * test_chain.c - the hash chains (db/chain.h) on a real file: each
 * stored hash is the one the encoding refkit.db(5) documents gives,
 * computed here independently of chain.c (its integers at the edges of
 * each byte length, NULL, text); the chain and its head follow the
 * appends; chain_verify names a row changed, removed and added, and a
 * head that does not match; chain_log chains a log again alike.
 */
#include "tap.h"

#include <sodium.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/chain.h"
#include "db/db.h"
#include "base/util.h"
#include "d6/ledger.h"

/* The encoding, as refkit.db(5) says it, built here by hand. */
struct enc {
	unsigned char	 b[4096];
	size_t		 n;
};

static void
enc_int(struct enc *e, int64_t v)
{
	int n = 0;

	/* The fewest bytes whose two's complement holds v. */
	while (n < 8) {
		int64_t lo = n == 0 ? 0 : -(INT64_C(1) << (8 * n - 1));
		int64_t hi = n == 0 ? 0 : (INT64_C(1) << (8 * n - 1)) - 1;

		if (n == 8 || (v >= lo && v <= hi))
			break;
		n++;
	}
	e->b[e->n++] = (unsigned char)(0x10 + n);
	for (int i = n - 1; i >= 0; i--)
		e->b[e->n++] = (unsigned char)((uint64_t)v >> (8 * i));
}

static void
enc_text(struct enc *e, const char *s)
{
	size_t len = strlen(s);

	e->b[e->n++] = 0x03;
	for (int i = 3; i >= 0; i--)
		e->b[e->n++] = (unsigned char)(len >> (8 * i));
	memcpy(e->b + e->n, s, len);
	e->n += len;
}

/*
 * The hash of d6_roll row id after prev, from its columns read with
 * SQLite's own calls.
 */
static void
roll_hash(struct db *db, int64_t id, const unsigned char prev[32],
    unsigned char out[32])
{
	static const char prefix[] = "refkit chain 1";
	crypto_hash_sha256_state s;
	sqlite3_stmt *st;
	struct enc e = { { 0 }, 0 };

	sqlite3_prepare_v2(db->h, "SELECT * FROM d6_roll WHERE id = ?1", -1,
	    &st, NULL);
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW)
		for (int i = 0; i < sqlite3_column_count(st); i++) {
			if (strcmp(sqlite3_column_name(st, i), "hash") == 0)
				continue;
			switch (sqlite3_column_type(st, i)) {
			case SQLITE_NULL:
				e.b[e.n++] = 0x00;
				break;
			case SQLITE_INTEGER:
				enc_int(&e, sqlite3_column_int64(st, i));
				break;
			default:
				enc_text(&e, (const char *)
				    sqlite3_column_text(st, i));
			}
		}
	sqlite3_finalize(st);
	crypto_hash_sha256_init(&s);
	crypto_hash_sha256_update(&s, (const unsigned char *)prefix,
	    sizeof prefix);
	crypto_hash_sha256_update(&s, (const unsigned char *)"rolls", 6);
	crypto_hash_sha256_update(&s, prev, 32);
	crypto_hash_sha256_update(&s, e.b, e.n);
	crypto_hash_sha256_final(&s, out);
}

static char *
text_of(struct db *db, const char *sql, int64_t arg)
{
	sqlite3_stmt *st;
	char *v = NULL;

	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, arg);
		if (sqlite3_step(st) == SQLITE_ROW &&
		    sqlite3_column_text(st, 0) != NULL)
			v = xstrdup((const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	return v;
}

/* What chain_verify reported, gathered as "SEQ-SEQ2 WHAT;". */
struct said {
	char	 text[2048];
};

static void
gather(void *arg, const struct chain_problem *p)
{
	struct said *s = arg;
	size_t len = strlen(s->text);

	snprintf(s->text + len, sizeof s->text - len, "%lld-%lld %s;",
	    (long long)p->seq, (long long)p->seq2, p->what);
}

static const char *
verify(struct db *db, int64_t tag, struct said *s, int64_t *problems)
{
	struct chain_tally t = { 0, 0, 0, 0 };

	s->text[0] = '\0';
	db_begin_read(db);
	*problems = chain_verify(db, "rolls", tag, gather, s, &t);
	db_commit(db);
	return s->text;
}

static void
exec(struct db *db, const char *sql)
{
	ok(sqlite3_exec(db->h, sql, NULL, NULL, NULL) == SQLITE_OK, "%s",
	    sql);
}

int
main(void)
{
	/* Totals at each edge of an integer's byte length. */
	static const long totals[] = {
		0, 1, 127, 128, -1, -128, -129, 32767, 32768, -32769,
		8388608, 2147483648L, -2147483649L, 549755813888L,
		INT64_MAX, INT64_MIN
	};
	const size_t n = sizeof totals / sizeof *totals;
	char dir[] = "/tmp/refkit-test-chain-XXXXXX";
	unsigned char prev[32] = { 0 }, h[32];
	char hex[CHAIN_HEX_LEN], *stored, *head;
	struct chain_head ch;
	struct said said;
	int64_t base, tag, problems;
	struct db *db;
	char *path;

	if (mkdtemp(dir) == NULL || sodium_init() < 0)
		return 1;
	path = xasprintf("%s/chain.db", dir);
	db = db_open(path);
	base = db_key_base(db);
	tag = base >> DB_KEY_BITS;

	db_begin(db);
	for (size_t i = 0; i < n; i++) {
		struct d6_logged r = { "Luke", i % 2 ? "r1" : NULL,
		    "perception", "3D", 42 + i, totals[i], 0, 0, "{}" };

		d6ledger_log_roll(db, &r, 1000 + (int64_t)i);
	}
	db_commit(db);

	for (size_t i = 0; i < n; i++) {
		roll_hash(db, base + 1 + (int64_t)i, prev, h);
		chain_hex(h, hex);
		stored = text_of(db, "SELECT hash FROM d6_roll WHERE id = ?1",
		    base + 1 + (int64_t)i);
		is_str(stored ? stored : "(none)", hex,
		    "roll %zu (total %ld): the hash the encoding gives", i + 1,
		    totals[i]);
		free(stored);
		memcpy(prev, h, sizeof prev);
	}
	db_begin_read(db);
	chain_head_get(db, "rolls", tag, &ch);
	db_commit(db);
	ok(ch.have, "the rolls have a head");
	is_int(ch.seq, (long)n, "at the last roll");
	ok(memcmp(ch.hash, prev, 32) == 0, "with its hash");
	is_int(ch.migrated, 0, "not made by a migration");

	is_str(verify(db, tag, &said, &problems), "", "untouched: it holds");
	is_int(problems, 0, "no problems");

	exec(db, "UPDATE d6_roll SET total = total + 1 WHERE id % 2147483648"
	    " = 3");
	is_str(verify(db, tag, &said, &problems),
	    "3-3 changed since it was written;", "a total changed: named");
	exec(db, "UPDATE d6_roll SET total = total - 1 WHERE id % 2147483648"
	    " = 3");
	is_str(verify(db, tag, &said, &problems), "", "put back: it holds");

	head = text_of(db, "SELECT hash FROM chain WHERE kind = 'rolls'", 0);
	exec(db, "UPDATE chain SET hash = '" "0000000000000000000000000000"
	    "000000000000000000000000000000000000' WHERE kind = 'rolls'");
	is_str(verify(db, tag, &said, &problems),
	    "16-16 does not match the chain's head;", "a head changed");
	{
		char *sql = xasprintf("UPDATE chain SET hash = '%s' WHERE"
		    " kind = 'rolls'", head);

		exec(db, sql);
		free(sql);
	}
	free(head);

	/* chain_log (the migration) gives the same hashes again. */
	db_begin(db);
	exec(db, "UPDATE d6_roll SET hash = NULL");
	is_int(chain_log(db, "rolls", tag), 0, "chain_log of the rolls");
	db_commit(db);
	stored = text_of(db, "SELECT hash FROM d6_roll ORDER BY id DESC"
	    " LIMIT 1", 0);
	chain_hex(prev, hex);
	is_str(stored ? stored : "(none)", hex, "the migration chains alike");
	free(stored);
	db_begin_read(db);
	chain_head_get(db, "rolls", tag, &ch);
	db_commit(db);
	is_int(ch.migrated, (long)n, "its head marked as the migration's");
	is_int(chain_log(db, "nothing", tag), -1, "an unknown kind refused");

	exec(db, "DELETE FROM d6_roll WHERE id % 2147483648 = 5");
	is_str(verify(db, tag, &said, &problems), "5-5 removed;",
	    "a roll removed: named");
	exec(db, "DELETE FROM d6_roll WHERE id % 2147483648 >= 15");
	is_str(verify(db, tag, &said, &problems),
	    "5-5 removed;15-16 removed: the chain's head is at event 16;",
	    "the last rolls removed: named against the head");

	db_close(db);
	{
		const char *sfx[] = { "", "-wal", "-shm" };

		for (size_t i = 0; i < sizeof sfx / sizeof *sfx; i++) {
			char *f = xasprintf("%s%s", path, sfx[i]);

			unlink(f);
			free(f);
		}
	}
	rmdir(dir);
	free(path);
	return tap_done();
}
