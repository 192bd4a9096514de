/*
 * test_seal.c - the sealed draws' derivation gives the values an
 * independent implementation gives (Python's hashlib, whose BLAKE2b and
 * SHA-256 are not libsodium's; the values are in the comments' commands),
 * and the store: one open seal at a time, a log noted at its first
 * draw, the reveal, the proofs a seed file holds, and the verification
 * that refuses a wrong seed before checking anything.
 */
#include "tap.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "core/seal.h"
#include "base/util.h"

/*
 * seed = bytes(range(32)); station id "8123456789abcdef0123456789abcdef";
 * log = (0x81234567 << 31) + 3, the third combat of that station:
 *   sha256(seed + id)
 *   blake2b(b"refkit seal v1\0combat\0" + pack(">q", log), key=seed,
 *       digest_size=32)
 *   unpack(">Q", blake2b(pack(">qqq", seq, side, index), key=key,
 *       digest_size=32)[:8])
 */
#define ID	"8123456789abcdef0123456789abcdef"
#define LOG	((INT64_C(0x81234567) << 31) + 3)

static void
test_derivation(void)
{
	unsigned char seed[SEAL_BYTES], key[SEAL_BYTES];
	char hex[SEAL_HEX + 1];

	for (int i = 0; i < SEAL_BYTES; i++)
		seed[i] = (unsigned char)i;
	seal_commitment(seed, ID, hex);
	is_str(hex, "976c3a2ec112df561b1f1b7b42321b73"
	    "cd0204da1eed05af35ce03f27444eaaf", "the commitment is "
	    "SHA-256 of the seed and the station's id");
	seal_log_key(seed, "combat", LOG, key);
	seal_hex(key, SEAL_BYTES, hex);
	is_str(hex, "506d152cc034c5791a39102156362f68"
	    "a57f7082386636accb45dc70872c034f", "a combat's key is BLAKE2b "
	    "keyed by the seed");
	seal_key_hash(key, hex);
	is_str(hex, "69c16ec2c7cfd5ee484a4d6f79ca5536"
	    "ce4526ab31d8c66a3e4102fe79f9ed4a", "the key's hash is its "
	    "SHA-256");
	ok(seal_draw_seed(key, 1, 0, 0) == UINT64_C(8879680231006731272),
	    "the seed of seq 1");
	ok(seal_draw_seed(key, 57, 0, 0) == UINT64_C(10509424314317643899),
	    "the seed of seq 57");
	ok(seal_draw_seed(key, 57, 1, 2) == UINT64_C(2219952624181261591),
	    "side and index change it");
	seal_log_key(seed, "rolls", INT64_C(0x81234567), key);
	seal_hex(key, SEAL_BYTES, hex);
	is_str(hex, "3bb33c988a0d79de2c1de76c31fd541d"
	    "1b18e8a9c801bb7a7e03fb191e50ecad", "the rolls' key: the kind "
	    "and the station's tag");
	ok(seal_unhex("0g", key, 1) != 0 && seal_unhex("abc", key, 1) != 0 &&
	    seal_unhex("AB", key, 1) == 0 && key[0] == 0xab,
	    "hex is read exactly");
}

/* A checker that counts its calls and reports one bad draw. */
static int calls;

static long
check_one(struct db *db, int64_t log, int64_t first, int64_t last,
    const unsigned char key[SEAL_BYTES], seal_bad_fn bad, void *arg,
    char *why, size_t whysz)
{
	(void)db;
	(void)key;
	(void)why;
	(void)whysz;
	calls++;
	if (first == 1 && last == 0)
		bad(arg, "combat", log, 2, "made up");
	return 5;
}

static void
count_bad(void *arg, const char *kind, int64_t log, int64_t seq,
    const char *why)
{
	(void)kind;
	(void)log;
	(void)seq;
	(void)why;
	(*(int *)arg)++;
}

static void
test_store(struct db *db)
{
	static const struct seal_checker checkers[] = {
		{ "combat", check_one, NULL },
	};
	struct seal_proof p;
	struct seal_verdict v;
	char hex[SEAL_HEX + 1], seedhex[SEAL_HEX + 1], why[300], *text;
	uint64_t s1, s2;
	int64_t log = db_key_base(db) + 1;
	int bad = 0;

	ok(seal_open(db) == 0, "a new station is not sealed");
	db_begin(db);
	ok(seal_draw(db, "combat", log, 1, &s1) == 0, "no seal, no sealed "
	    "draw");
	ok(seal_create(db, 100, hex, why, sizeof why) == 0, "sealed");
	ok(seal_create(db, 101, hex, why, sizeof why) != 0 &&
	    strstr(why, "sealed already") != NULL, "sealed once: %s", why);
	ok(seal_draw(db, "combat", log, 1, &s1) == 1 &&
	    seal_draw(db, "combat", log, 2, &s2) == 1 && s1 != s2,
	    "sealed draws");
	db_commit(db);
	ok(seal_open(db) == 1, "the seal is open");
	db_begin_read(db);

	{
		struct db_stmt *st = db_prepare(db, "SELECT count(*),"
		    " min(first_seq) FROM seal_log");

		db_step(db, st, 0);
		ok(db_column_int(st, 0) == 1 && db_column_int(st, 1) == 1,
		    "the log is noted once, from its first sealed draw");
		db_finalize(st);
	}
	db_rollback(db);
	db_begin(db);
	ok(seal_reveal(db, 200, seedhex, why, sizeof why) == 0, "revealed");
	ok(seal_reveal(db, 201, hex, why, sizeof why) != 0, "revealed once");
	db_commit(db);
	ok(seal_open(db) == 0, "no seal open after the reveal");
	db_begin_read(db);
	ok(seal_proof_parse(db, seedhex, &p, why, sizeof why) == 0 &&
	    p.whole, "a seed file");
	ok(seal_verify(db, &p, checkers, 1, count_bad, &bad, &v, why,
	    sizeof why) == 0 && v.logs == 1 && v.draws == 5 && v.bad == 1 &&
	    bad == 1 && calls == 1, "the seed verifies, the checker's bad "
	    "draw counted: %ld logs, %ld draws, %ld bad", v.logs, v.draws,
	    v.bad);
	text = xstrdup(seedhex);
	text[0] = text[0] == '0' ? '1' : '0';
	ok(seal_proof_parse(db, text, &p, why, sizeof why) == 0 &&
	    seal_verify(db, &p, checkers, 1, count_bad, &bad, &v, why,
	    sizeof why) != 0 && strstr(why, "does not match the "
	    "commitment") != NULL && calls == 1, "a wrong seed is refused, "
	    "nothing checked: %s", why);
	free(text);
	ok(seal_proof_parse(db, "# a comment\n\n", &p, why, sizeof why) != 0,
	    "an empty file is refused: %s", why);
	ok(seal_proof_parse(db, "combat 1 xyz", &p, why, sizeof why) != 0,
	    "a key of the wrong form is refused: %s", why);
	ok(seal_proof_parse(db, "deck 1 00", &p, why, sizeof why) != 0,
	    "an unknown kind is refused: %s", why);
	db_rollback(db);
}

int
main(void)
{
	char dir[] = "/tmp/refkit-test-seal-XXXXXX";
	char *path, *cmd;
	struct db *db;

	if (sodium_init() < 0)
		abort();
	test_derivation();
	if (mkdtemp(dir) == NULL)
		abort();
	path = xasprintf("%s/refkit.db", dir);
	db = db_open(path);
	test_store(db);
	db_close(db);
	cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	free(cmd);
	free(path);
	return tap_done();
}
