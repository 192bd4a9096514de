/*
 * seal.c - sealed draws: the derivation of every sealed seed, the seal's
 * tables, and the verification that walks them (seal.h).
 */
#include <ctype.h>
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "db/db.h"
#include "core/seal.h"
#include "base/rng.h"
#include "sync/station.h"
#include "base/util.h"

/* The domain of a log key: no other use of the seed hashes this. */
static const char log_domain[] = "refkit seal v1";

void
seal_hex(const unsigned char *b, size_t n, char *hex)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		hex[2 * i] = digits[b[i] >> 4];
		hex[2 * i + 1] = digits[b[i] & 15];
	}
	hex[2 * n] = '\0';
}

static int
nibble(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int
seal_unhex(const char *hex, unsigned char *b, size_t n)
{
	if (strlen(hex) != 2 * n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int hi = nibble((unsigned char)hex[2 * i]);
		int lo = nibble((unsigned char)hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		b[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

static void
put64(unsigned char *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--) {
		p[i] = (unsigned char)(v & 0xff);
		v >>= 8;
	}
}

void
seal_commitment(const unsigned char seed[SEAL_BYTES], const char *station_id,
    char hex[SEAL_HEX + 1])
{
	crypto_hash_sha256_state st;
	unsigned char h[crypto_hash_sha256_BYTES];

	crypto_hash_sha256_init(&st);
	crypto_hash_sha256_update(&st, seed, SEAL_BYTES);
	crypto_hash_sha256_update(&st, (const unsigned char *)station_id,
	    strlen(station_id));
	crypto_hash_sha256_final(&st, h);
	seal_hex(h, sizeof h, hex);
}

void
seal_log_key(const unsigned char seed[SEAL_BYTES], const char *kind,
    int64_t log, unsigned char key[SEAL_BYTES])
{
	crypto_generichash_state st;
	unsigned char n[8], nul = 0;

	put64(n, (uint64_t)log);
	crypto_generichash_init(&st, seed, SEAL_BYTES, SEAL_BYTES);
	crypto_generichash_update(&st, (const unsigned char *)log_domain,
	    sizeof log_domain - 1);
	crypto_generichash_update(&st, &nul, 1);
	crypto_generichash_update(&st, (const unsigned char *)kind,
	    strlen(kind));
	crypto_generichash_update(&st, &nul, 1);
	crypto_generichash_update(&st, n, sizeof n);
	crypto_generichash_final(&st, key, SEAL_BYTES);
}

void
seal_key_hash(const unsigned char key[SEAL_BYTES], char hex[SEAL_HEX + 1])
{
	unsigned char h[crypto_hash_sha256_BYTES];

	crypto_hash_sha256(h, key, SEAL_BYTES);
	seal_hex(h, sizeof h, hex);
}

uint64_t
seal_draw_seed(const unsigned char key[SEAL_BYTES], int64_t seq,
    int64_t side, int64_t index)
{
	unsigned char m[24], h[SEAL_BYTES];
	uint64_t v = 0;

	put64(m, (uint64_t)seq);
	put64(m + 8, (uint64_t)side);
	put64(m + 16, (uint64_t)index);
	crypto_generichash(h, sizeof h, m, sizeof m, key, SEAL_BYTES);
	for (int i = 0; i < 8; i++)
		v = v << 8 | h[i];
	return v;
}

/* ---- the store ---- */

/*
 * A new seed: libsodium's, or the tests' fixed one.  The variable is
 * read here only, and named as no user would set it by chance.
 */
static void
new_seed(unsigned char seed[SEAL_BYTES])
{
	const char *t = getenv("REFKIT_TEST_SEAL_SEED");

	if (t != NULL && *t != '\0') {
		if (seal_unhex(t, seed, SEAL_BYTES) != 0)
			errx(1, "REFKIT_TEST_SEAL_SEED must be 64 hex digits");
		return;
	}
	randombytes_buf(seed, SEAL_BYTES);
}

int
seal_open(struct db *db)
{
	struct db_stmt *st;
	int open;

	st = db_prepare(db, "SELECT count(*) FROM seal_secret"
	    " WHERE revealed IS NULL");
	db_step(db, st, 0);
	open = db_column_int(st, 0) > 0;
	db_finalize(st);
	return open;
}

int
seal_create(struct db *db, int64_t now, char hex[SEAL_HEX + 1], char *why,
    size_t whysz)
{
	struct db_stmt *st;
	struct station self;
	unsigned char seed[SEAL_BYTES];
	char seedhex[SEAL_HEX + 1];

	if (seal_open(db)) {
		st = db_prepare(db, "SELECT commitment FROM seal_secret"
		    " WHERE revealed IS NULL");
		db_step(db, st, 0);
		util_say(why, whysz, "this station is sealed already (%s); "
		    "reveal that seal first (refkit reveal)",
		    db_column_text(st, 0));
		db_finalize(st);
		return -1;
	}
	new_seed(seed);
	station_self(db, &self);
	seal_commitment(seed, self.id, hex);
	seal_hex(seed, SEAL_BYTES, seedhex);
	sodium_memzero(seed, sizeof seed);
	st = db_prepare(db, "INSERT INTO seal_secret (seed, commitment,"
	    " created) VALUES (?1, ?2, ?3)");
	db_bind_text(st, 1, seedhex);
	db_bind_text(st, 2, hex);
	db_bind_int(st, 3, now);
	if (db_step(db, st, 1) == DB_CONSTRAINT) {
		db_finalize(st);
		station_release(&self);
		return util_say(why, whysz, "that seed was used before; "
		    "a seal needs a new one");
	}
	db_finalize(st);
	st = db_prepare(db, "INSERT INTO seal (commitment, station, created)"
	    " VALUES (?1, ?2, ?3)");
	db_bind_text(st, 1, hex);
	db_bind_text(st, 2, self.id);
	db_bind_int(st, 3, now);
	db_step(db, st, 0);
	db_finalize(st);
	station_release(&self);
	sodium_memzero(seedhex, sizeof seedhex);
	return 0;
}

#define SEAL_OPEN_SQL "SELECT seed, commitment FROM seal_secret" \
	" WHERE revealed IS NULL ORDER BY id DESC LIMIT 1"

void
seal_ask(struct db *db)
{
	struct db_stmt *st = db_prepare(db, SEAL_OPEN_SQL);

	db_ask(db, st);
	db_asked_keep(db, "seal", 0, st);
}

/* The open seal's seed and commitment; 0, or -1 if none is open. */
static int
open_seal(struct db *db, unsigned char seed[SEAL_BYTES],
    char commitment[SEAL_HEX + 1])
{
	struct db_stmt *st;
	int rc = -1;

	if ((st = db_asked_take(db, "seal", 0)) == NULL)
		st = db_prepare(db, SEAL_OPEN_SQL);
	if (db_step(db, st, 0) == DB_ROW) {
		if (seal_unhex(db_column_text(st, 0), seed, SEAL_BYTES) != 0)
			db_die(db, "seal_secret holds a seed that is not 64 "
			    "hex digits");
		snprintf(commitment, SEAL_HEX + 1, "%s",
		    db_column_text(st, 1));
		rc = 0;
	}
	db_finalize(st);
	return rc;
}

int
seal_draw(struct db *db, const char *kind, int64_t log, int64_t seq,
    uint64_t *seed)
{
	struct db_stmt *st;
	unsigned char s[SEAL_BYTES], key[SEAL_BYTES];
	char commitment[SEAL_HEX + 1], hash[SEAL_HEX + 1];
	int known;

	if (open_seal(db, s, commitment) != 0)
		return 0;
	seal_log_key(s, kind, log, key);
	sodium_memzero(s, sizeof s);
	*seed = seal_draw_seed(key, seq, 0, 0);
	st = db_prepare(db, "SELECT count(*) FROM seal_log WHERE kind = ?1"
	    " AND log = ?2 AND commitment = ?3");
	db_bind_text(st, 1, kind);
	db_bind_int(st, 2, log);
	db_bind_text(st, 3, commitment);
	db_step(db, st, 0);
	known = db_column_int(st, 0) > 0;
	db_finalize(st);
	if (!known) {
		seal_key_hash(key, hash);
		st = db_prepare(db, "INSERT INTO seal_log (kind, log,"
		    " first_seq, commitment, key_hash) VALUES (?1, ?2, ?3,"
		    " ?4, ?5)");
		db_bind_text(st, 1, kind);
		db_bind_int(st, 2, log);
		db_bind_int(st, 3, seq);
		db_bind_text(st, 4, commitment);
		db_bind_text(st, 5, hash);
		db_step(db, st, 0);
		db_finalize(st);
	}
	sodium_memzero(key, sizeof key);
	return 1;
}

int
seal_draw_next(struct db *db, const struct journal_kind *k, int64_t id,
    uint64_t *seed)
{
	return seal_draw(db, k->what, id, journal_next_seq(db, k, id), seed);
}

int
seal_reveal(struct db *db, int64_t now, char hex[SEAL_HEX + 1], char *why,
    size_t whysz)
{
	struct db_stmt *st;
	unsigned char seed[SEAL_BYTES];
	char commitment[SEAL_HEX + 1];

	if (open_seal(db, seed, commitment) != 0)
		return util_say(why, whysz, "this station is not sealed "
		    "(refkit seal)");
	seal_hex(seed, SEAL_BYTES, hex);
	sodium_memzero(seed, sizeof seed);
	st = db_prepare(db, "UPDATE seal_secret SET revealed = ?2"
	    " WHERE commitment = ?1");
	db_bind_text(st, 1, commitment);
	db_bind_int(st, 2, now);
	db_step(db, st, 0);
	db_finalize(st);
	st = db_prepare(db, "UPDATE seal SET revealed = ?2"
	    " WHERE commitment = ?1");
	db_bind_text(st, 1, commitment);
	db_bind_int(st, 2, now);
	db_step(db, st, 0);
	db_finalize(st);
	/*
	 * Each log's last sealed draw: its newest seq now, for the station
	 * draws from the operating system again from here on.  A log is
	 * appended to only here, so its newest seq is this station's.
	 */
	st = db_prepare(db, "UPDATE seal_log SET last_seq = CASE kind"
	    " WHEN 'combat' THEN (SELECT max(seq) FROM event"
	    " WHERE combat_id = seal_log.log)"
	    " WHEN 'duel' THEN (SELECT max(seq) FROM fb_event"
	    " WHERE duel_id = seal_log.log)"
	    " WHEN 'game' THEN (SELECT max(seq) FROM bg_event"
	    " WHERE game_id = seal_log.log)"
	    " ELSE (SELECT max(id) - refkit_key_lo() + 1 FROM d6_roll"
	    " WHERE " DB_OWN_KEY("id") ") END"
	    " WHERE commitment = ?1 AND last_seq IS NULL");
	db_bind_text(st, 1, commitment);
	db_step(db, st, 0);
	db_finalize(st);
	return 0;
}

int
seal_reveal_log(struct db *db, const char *kind, int64_t log,
    void (*fn)(void *, const unsigned char key[SEAL_BYTES]), void *arg)
{
	struct db_stmt *st;
	unsigned char seed[SEAL_BYTES], key[SEAL_BYTES];
	int n = 0;

	st = db_prepare(db, "SELECT s.seed FROM seal_log l JOIN seal_secret s"
	    " ON s.commitment = l.commitment WHERE l.kind = ?1"
	    " AND l.log = ?2 ORDER BY l.first_seq");
	db_bind_text(st, 1, kind);
	db_bind_int(st, 2, log);
	while (db_step(db, st, 0) == DB_ROW) {
		if (seal_unhex(db_column_text(st, 0), seed, SEAL_BYTES) != 0)
			db_die(db, "seal_secret holds a seed that is not 64 "
			    "hex digits");
		seal_log_key(seed, kind, log, key);
		fn(arg, key);
		n++;
	}
	db_finalize(st);
	sodium_memzero(seed, sizeof seed);
	sodium_memzero(key, sizeof key);
	return n;
}

/* ---- verification ---- */

static int
known_kind(const char *kind)
{
	return strcmp(kind, "combat") == 0 || strcmp(kind, "duel") == 0 ||
	    strcmp(kind, "game") == 0 || strcmp(kind, "rolls") == 0;
}

int
seal_proof_parse(struct db *db, const char *text, struct seal_proof *p,
    char *why, size_t whysz)
{
	char *copy = xstrdup(text), *save = NULL, *line;
	int found = 0, rc = -1;

	memset(p, 0, sizeof *p);
	for (line = strtok_r(copy, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		char kind[16], logtext[32], hex[80];
		size_t len = strlen(line);
		int n;

		while (len > 0 && isspace((unsigned char)line[len - 1]))
			line[--len] = '\0';
		line += strspn(line, " \t");
		if (*line == '\0' || *line == '#')
			continue;
		if (found++) {
			util_say(why, whysz, "give one seed or one log's key, "
			    "one line");
			goto done;
		}
		if (seal_unhex(line, p->secret, SEAL_BYTES) == 0) {
			p->whole = 1;
			continue;
		}
		n = sscanf(line, "%15s %31s %79s", kind, logtext, hex);
		if (n != 3 || !known_kind(kind)) {
			util_say(why, whysz, "a line must be a seed (64 hex "
			    "digits) or 'KIND LOG KEY', got '%s'",
			    util_q(line));
			goto done;
		}
		snprintf(p->kind, sizeof p->kind, "%.7s", kind);
		if (strcmp(kind, "rolls") == 0) {
			char *end;

			p->log = strtoll(logtext, &end, 16);
			if (*end != '\0' || p->log <= 0) {
				util_say(why, whysz, "'%s' is not a station's "
				    "tag", util_q(logtext));
				goto done;
			}
		} else if ((p->log = db_key_parse(db, logtext)) == 0) {
			util_say(why, whysz, "'%s' is not a %s's key",
			    util_q(logtext), kind);
			goto done;
		}
		if (seal_unhex(hex, p->secret, SEAL_BYTES) != 0) {
			util_say(why, whysz, "a log's key is 64 hex digits, "
			    "got '%s'", util_q(hex));
			goto done;
		}
	}
	if (!found)
		util_say(why, whysz, "no seed and no log's key in it");
	else
		rc = 0;
done:
	free(copy);
	return rc;
}

/* One row of seal_log, as verification walks them. */
struct sealed_log {
	char		 kind[SEAL_KIND_MAX];
	int64_t		 log, first, last;
	char		 hash[SEAL_HEX + 1];
};

/* The rows of seal_log of commitment c (NULL: all), into *n. */
static struct sealed_log *
sealed_logs(struct db *db, const char *c, size_t *n)
{
	struct db_stmt *st;
	struct sealed_log *v = NULL;

	*n = 0;
	st = db_prepare(db, c != NULL ? "SELECT kind, log, first_seq,"
	    " coalesce(last_seq, 0), key_hash FROM seal_log"
	    " WHERE commitment = ?1 ORDER BY kind, log, first_seq" :
	    "SELECT kind, log, first_seq, coalesce(last_seq, 0), key_hash"
	    " FROM seal_log ORDER BY kind, log, first_seq");
	if (c != NULL)
		db_bind_text(st, 1, c);
	while (db_step(db, st, 0) == DB_ROW) {
		struct sealed_log *l;

		v = xreallocarray(v, *n + 1, sizeof *v);
		l = &v[(*n)++];
		snprintf(l->kind, sizeof l->kind, "%s", db_column_text(st, 0));
		l->log = db_column_int(st, 1);
		l->first = db_column_int(st, 2);
		l->last = db_column_int(st, 3);
		snprintf(l->hash, sizeof l->hash, "%s", db_column_text(st, 4));
	}
	db_finalize(st);
	return v;
}

/* The key of a log as users see it: "rolls" logs are a station's tag. */
static const char *
log_text(struct db *db, const char *kind, int64_t log, char *buf,
    size_t sz)
{
	if (strcmp(kind, "rolls") == 0)
		snprintf(buf, sz, "%08" PRIx64, (uint64_t)log);
	else
		snprintf(buf, sz, "%s", db_key_str(db, log));
	return buf;
}

/* Runs the checker of l's kind on it under key. */
static int
check_log(struct db *db, const struct sealed_log *l,
    const unsigned char key[SEAL_BYTES], const struct seal_checker *checkers,
    size_t n, seal_bad_fn bad, void *arg, struct seal_verdict *v,
    char *why, size_t whysz)
{
	char hash[SEAL_HEX + 1], lt[DB_KEY_TEXT_MAX + 8];
	long draws;

	v->logs++;
	seal_key_hash(key, hash);
	if (strcmp(hash, l->hash) != 0) {
		bad(arg, l->kind, l->log, l->first, "the seal's record of this "
		    "log holds another key's hash");
		v->bad++;
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		char inner[512];

		if (strcmp(checkers[i].kind, l->kind) != 0)
			continue;
		if (checkers[i].check != NULL)
			draws = checkers[i].check(db, l->log, l->first,
			    l->last, key, bad, arg, inner, sizeof inner);
		else
			draws = seal_input_check(db, checkers[i].rules, l->log,
			    l->first, l->last, key, bad, arg, inner,
			    sizeof inner);
		if (draws < 0)
			return util_say(why, whysz, "%s %s: %s", l->kind,
			    log_text(db, l->kind, l->log, lt, sizeof lt),
			    inner);
		v->draws += draws;
		return 0;
	}
	return util_say(why, whysz, "no checker for logs of kind '%s'",
	    l->kind);
}

/* Counts what bad reports, for the verdict, and passes it on. */
struct counting {
	seal_bad_fn	 bad;
	void		*arg;
	long		*n;
};

static void
count_bad(void *arg, const char *kind, int64_t log, int64_t seq,
    const char *why)
{
	struct counting *c = arg;

	(*c->n)++;
	c->bad(c->arg, kind, log, seq, why);
}

int
seal_match(struct db *db, const struct seal_proof *p,
    char commitment[SEAL_HEX + 1], char *why, size_t whysz)
{
	struct db_stmt *st;
	char lt[DB_KEY_TEXT_MAX + 8], hash[SEAL_HEX + 1];
	long n = 0;

	commitment[0] = '\0';
	if (p->whole) {
		st = db_prepare(db, "SELECT commitment, station FROM seal"
		    " ORDER BY created, commitment");
		while (db_step(db, st, 0) == DB_ROW) {
			char mine[SEAL_HEX + 1];

			n++;
			seal_commitment(p->secret, db_column_text(st, 1),
			    mine);
			if (strcmp(mine, db_column_text(st, 0)) == 0)
				snprintf(commitment, SEAL_HEX + 1, "%s", mine);
		}
		db_finalize(st);
		if (n == 0)
			return util_say(why, whysz, "no seal here to verify "
			    "against (refkit seal)");
		if (commitment[0] == '\0')
			return util_say(why, whysz, "the seed does not match "
			    "the commitment of any seal here (%ld seal%s); "
			    "nothing was checked", n, n == 1 ? "" : "s");
		return 0;
	}
	seal_key_hash(p->secret, hash);
	st = db_prepare(db, "SELECT key_hash, commitment FROM seal_log"
	    " WHERE kind = ?1 AND log = ?2 ORDER BY first_seq");
	db_bind_text(st, 1, p->kind);
	db_bind_int(st, 2, p->log);
	while (db_step(db, st, 0) == DB_ROW) {
		n++;
		if (strcmp(db_column_text(st, 0), hash) == 0)
			snprintf(commitment, SEAL_HEX + 1, "%s",
			    db_column_text(st, 1));
	}
	db_finalize(st);
	if (commitment[0] != '\0')
		return 0;
	return util_say(why, whysz, n > 0 ? "the key does not match the "
	    "commitment of %s %s; nothing was checked" : "%s %s draws under "
	    "no seal", p->kind, log_text(db, p->kind, p->log, lt, sizeof lt));
}

/* Whether kind's log is among logs (n of them), which seal_log lists. */
static int
listed(const struct sealed_log *logs, size_t n, const char *kind,
    int64_t log)
{
	for (size_t i = 0; i < n; i++)
		if (logs[i].log == log && strcmp(logs[i].kind, kind) == 0)
			return 1;
	return 0;
}

/*
 * The logs seal_log does not list under the seal but whose events hold
 * the seeds the seal gives their places: their record of the seal was
 * removed, which would keep their draws from this check.  One line a
 * log, at its first such event.  The chance that a seed not drawn from
 * the seal is one it gives is 2^-64 an event.
 */
static void
unlisted(struct db *db, const unsigned char secret[SEAL_BYTES],
    const struct sealed_log *logs, size_t nl, struct counting *c)
{
	static const struct {
		const char	*kind;
		const char	*sql;
	} tables[] = {
		{ "combat", "SELECT combat_id, seq, seed FROM event"
		    " WHERE seed IS NOT NULL ORDER BY combat_id, seq" },
		{ "duel", "SELECT duel_id, seq, seed FROM fb_event"
		    " WHERE seed IS NOT NULL ORDER BY duel_id, seq" },
		{ "game", "SELECT game_id, seq, seed FROM bg_event"
		    " WHERE seed IS NOT NULL ORDER BY game_id, seq" },
		/* A station's rolls: its keys' high part, their number. */
		{ "rolls", "SELECT id / 2147483648, id % 2147483648, seed"
		    " FROM d6_roll ORDER BY id" },
	};
	unsigned char key[SEAL_BYTES];

	_Static_assert(DB_KEY_BITS == 31, "a roll's log and number");
	for (size_t t = 0; t < sizeof tables / sizeof *tables; t++) {
		struct db_stmt *st = db_prepare(db, tables[t].sql);
		int64_t log = 0;
		int have = 0, skip = 0;

		while (db_step(db, st, 0) == DB_ROW) {
			int64_t l = db_column_int(st, 0), seq;

			/* Each log once: listed, or named at its first. */
			if (!have || l != log) {
				log = l;
				have = 1;
				skip = listed(logs, nl, tables[t].kind, log);
				if (!skip)
					seal_log_key(secret, tables[t].kind,
					    log, key);
			}
			if (skip)
				continue;
			seq = db_column_int(st, 1);
			if (strtoull(db_column_text(st, 2), NULL, 10) ==
			    seal_draw_seed(key, seq, 0, 0)) {
				skip = 1;
				count_bad(c, tables[t].kind, log, seq, "drew "
				    "under this seal, but its record of the "
				    "seal (seal_log) is gone");
			}
		}
		db_finalize(st);
	}
	sodium_memzero(key, sizeof key);
}

/*
 * The seal whose commitment the seed p->secret makes, into
 * v->commitment: 0, or -1 with why set when there is none here.
 */
static int
seal_of_seed(struct db *db, const struct seal_proof *p,
    struct seal_verdict *v, char *why, size_t whysz)
{
	struct db_stmt *st;
	long seals = 0;

	st = db_prepare(db, "SELECT commitment, station FROM seal"
	    " ORDER BY created, commitment");
	while (db_step(db, st, 0) == DB_ROW) {
		char mine[SEAL_HEX + 1];

		seals++;
		seal_commitment(p->secret, db_column_text(st, 1), mine);
		if (strcmp(mine, db_column_text(st, 0)) == 0)
			snprintf(v->commitment, sizeof v->commitment, "%s",
			    mine);
	}
	db_finalize(st);
	if (seals == 0)
		return util_say(why, whysz, "no seal here to verify against "
		    "(refkit seal)");
	if (v->commitment[0] == '\0')
		return util_say(why, whysz, "the seed does not match the "
		    "commitment of any seal here (%ld seal%s); nothing was "
		    "checked", seals, seals == 1 ? "" : "s");
	return 0;
}

/* A whole seed revealed: every log of its seal, and none missing. */
static int
verify_seed(struct db *db, const struct seal_proof *p,
    const struct seal_checker *checkers, size_t n, struct counting *c,
    struct seal_verdict *v, char *why, size_t whysz)
{
	struct sealed_log *logs;
	unsigned char key[SEAL_BYTES];
	size_t nl;
	int rc;

	if ((rc = seal_of_seed(db, p, v, why, whysz)) != 0)
		return rc;
	logs = sealed_logs(db, v->commitment, &nl);
	for (size_t i = 0; i < nl && rc == 0; i++) {
		seal_log_key(p->secret, logs[i].kind, logs[i].log, key);
		rc = check_log(db, &logs[i], key, checkers, n, count_bad, c,
		    v, why, whysz);
	}
	if (rc == 0)
		unlisted(db, p->secret, logs, nl, c);
	free(logs);
	sodium_memzero(key, sizeof key);
	return rc;
}

/* One log's key revealed: checked against that log's key hash. */
static int
verify_log_key(struct db *db, const struct seal_proof *p,
    const struct seal_checker *checkers, size_t n, struct counting *c,
    struct seal_verdict *v, char *why, size_t whysz)
{
	struct sealed_log *logs;
	char hash[SEAL_HEX + 1], lt[DB_KEY_TEXT_MAX + 8];
	size_t nl;
	int rc = 0, any = 0, matched = 0;

	seal_key_hash(p->secret, hash);
	logs = sealed_logs(db, NULL, &nl);
	for (size_t i = 0; i < nl && rc == 0; i++) {
		if (strcmp(logs[i].kind, p->kind) != 0 ||
		    logs[i].log != p->log)
			continue;
		any = 1;
		if (strcmp(logs[i].hash, hash) != 0)
			continue;
		matched = 1;
		rc = check_log(db, &logs[i], p->secret, checkers, n,
		    count_bad, c, v, why, whysz);
	}
	if (rc == 0 && !matched)
		rc = util_say(why, whysz, any ? "the key does not match the "
		    "commitment of %s %s; nothing was checked" : "%s %s draws "
		    "under no seal", p->kind, log_text(db, p->kind, p->log,
		    lt, sizeof lt));
	if (rc == 0) {
		struct db_stmt *st = db_prepare(db, "SELECT commitment FROM"
		    " seal_log WHERE key_hash = ?1");

		db_bind_text(st, 1, hash);
		if (db_step(db, st, 0) == DB_ROW)
			snprintf(v->commitment, sizeof v->commitment, "%s",
			    db_column_text(st, 0));
		db_finalize(st);
	}
	free(logs);
	return rc;
}

int
seal_verify(struct db *db, const struct seal_proof *p,
    const struct seal_checker *checkers, size_t n, seal_bad_fn bad,
    void *arg, struct seal_verdict *v, char *why, size_t whysz)
{
	struct counting c = { bad, arg, NULL };

	memset(v, 0, sizeof *v);
	c.n = &v->bad;
	if (p->whole)
		return verify_seed(db, p, checkers, n, &c, v, why, whysz);
	return verify_log_key(db, p, checkers, n, &c, v, why, whysz);
}

/* ---- the input logs' checks ---- */

/*
 * A walk through an input log: the input as typed of each event
 * (typed[i], NULL when not stored); each event is drawn again from a
 * copy of the state just before it.
 */
struct seal_input {
	const struct journal_rules *r;
	void			*state;
	const char		*kind;		/* "duel", "game" */
	const struct journal	*j;
	char			**typed;
	const unsigned char	*key;
	int64_t			 log, first, last;
	seal_bad_fn		 bad;
	void			*arg;
	long			 draws;
	int64_t			 named;		/* the last seq reported */
};

/* Reports event seq of w's log as not following from the seal. */
static void
seal_input_bad(struct seal_input *w, int64_t seq, const char *why)
{
	w->named = seq;
	w->bad(w->arg, w->kind, w->log, seq, why);
}

/*
 * 1 if event i of w->j is to be drawn again from *want, its seed under
 * the seal: it is in the sealed range, drew, is no undo, holds that
 * seed, is not undone and has its input as typed (counted as a draw;
 * the seed or the typed input missing is reported, and 0).
 */
static int
seal_input_due(struct seal_input *w, size_t i, uint64_t *want)
{
	const struct journal_event *e = journal_body(w->j, i);
	uint64_t got;

	if (e->seq < w->first || (w->last > 0 && e->seq > w->last) ||
	    e->seed == NULL || e->undoes != 0)
		return 0;
	w->draws++;
	*want = seal_draw_seed(w->key, e->seq, 0, 0);
	got = strtoull(e->seed, NULL, 10);
	if (got != *want) {
		char msg[128];

		snprintf(msg, sizeof msg, "its seed is %" PRIu64 ", the seal "
		    "gives %" PRIu64, got, *want);
		seal_input_bad(w, e->seq, msg);
		return 0;
	}
	/* An undone event ran on a state the replay no longer reaches. */
	if (w->j->undone[i])
		return 0;
	if (w->typed[i] == NULL) {
		seal_input_bad(w, e->seq, "it drew dice, but its input as "
		    "typed is not recorded");
		return 0;
	}
	return 1;
}

/*
 * An event drawn again: why when its typed input did not run (NULL when
 * it did), else its input as run again, canon, against the recorded.
 */
static void
seal_input_redrawn(struct seal_input *w, int64_t seq, const char *why,
    const char *canon, const char *recorded)
{
	char *msg = NULL;

	if (why != NULL)
		msg = xasprintf("its input as typed does not run again: %s",
		    why);
	else if (strcmp(canon, recorded) != 0)
		msg = xasprintf("its dice do not follow from its seed: drawn "
		    "again '%.200s', recorded '%.200s'", canon, recorded);
	if (msg != NULL)
		seal_input_bad(w, seq, msg);
	free(msg);
}

/*
 * After the walk (journal_derive_each's rc, stop and why): a replay
 * that stopped at a sealed event is reported once.
 */
static void
seal_input_stopped(struct seal_input *w, int rc, int64_t stop,
    const char *why)
{
	char *msg;

	if (rc == 0 || stop < w->first || (w->last != 0 && stop > w->last))
		return;
	/* An event named already: only what its refusal means. */
	if (stop == w->named) {
		w->bad(w->arg, w->kind, w->log, stop, "the events after it are "
		    "not checked: the replay stops there");
		return;
	}
	msg = xasprintf("does not replay (%s); the events after it are not "
	    "checked", why);
	w->bad(w->arg, w->kind, w->log, stop, msg);
	free(msg);
}

static int
seal_input_step(void *arg, const void *body, char *why, size_t whysz)
{
	struct seal_input *w = arg;

	return w->r->step(w->state, body, why, whysz);
}

/* Event i against the seal, from the state just before it. */
static void
seal_input_before(void *arg, size_t i)
{
	struct seal_input *w = arg;
	const struct journal_event *e = journal_body(w->j, i);
	struct rng rng;
	uint64_t want;
	char *why, *canon = NULL;
	void *copy;
	int failed;

	if (!seal_input_due(w, i, &want))
		return;
	copy = xmalloc(w->r->size);
	if (w->r->copy != NULL)
		w->r->copy(copy, w->state);
	else
		memcpy(copy, w->state, w->r->size);
	why = xmalloc(w->r->whysz);
	rng_seed(&rng, want);
	failed = w->r->redraw(copy, e, w->typed[i], &rng, &canon, why,
	    w->r->whysz) < 0;
	seal_input_redrawn(w, e->seq, failed ? why : NULL, canon, e->input);
	free(canon);
	free(why);
	free(copy);
}

long
seal_input_check(struct db *db, const struct journal_rules *r, int64_t log,
    int64_t first, int64_t last, const unsigned char key[SEAL_BYTES],
    seal_bad_fn bad, void *arg, char *why, size_t whysz)
{
	struct journal_run run;
	struct seal_input w = { .r = r, .kind = r->kind->what, .key = key,
	    .log = log, .first = first, .last = last, .bad = bad,
	    .arg = arg };
	char *whyd;
	int64_t stop;
	int rc;

	if (journal_run_load(db, r, log, &run) != 0)
		return util_say(why, whysz, "no such %s", r->kind->what);
	w.j = run.j;
	w.state = run.state;
	whyd = xmalloc(r->whysz);
	w.typed = journal_texts(db, r->kind->sql_typed, w.j);
	rc = journal_derive_each(w.j, seal_input_step, seal_input_before, &w,
	    &stop, whyd, r->whysz);
	seal_input_stopped(&w, rc, stop, whyd);
	journal_texts_free(w.typed, w.j->n);
	free(whyd);
	journal_run_release(&run);
	return w.draws;
}
