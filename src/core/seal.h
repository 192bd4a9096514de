/*
 * seal.h - sealed draws: commit to a secret seed before an event, draw
 * every recorded virtual card and die from it, reveal it afterwards, and
 * let anyone check that the draws followed from it (refkit(7), "Trust").
 *
 * The derivation, all of it libsodium's:
 *
 *   commitment = SHA-256(seed || station id)
 *       the 32 bytes of the seed, then the station's id as its 32
 *       lowercase hexadecimal characters;
 *   log key    = BLAKE2b-256 keyed by the seed over
 *       "refkit seal v1" NUL kind NUL log
 *       with kind "combat", "duel", "game" or "rolls" and log the log's
 *       key as 8 bytes big-endian (for "rolls", the station's tag);
 *   key hash   = SHA-256(log key), published per log so that one log's
 *       key can be revealed and checked alone;
 *   draw seed  = the first 8 bytes, big-endian, of BLAKE2b-256 keyed by
 *       the log key over seq, side and index, 8 bytes big-endian each.
 *
 * The draw seed seeds the project's generator (base/rng.h) exactly as a
 * seed from the operating system would.  Every event of refkit draws all
 * its cards or dice from one generator stream, in the order the rules
 * draw them, so side and index are 0 throughout; they are in the
 * derivation for a rule that would one day draw a side's cards from a
 * stream of its own.
 *
 * The store: seal_secret (this station's, never merged) holds the seeds;
 * seal (the commitments) and seal_log (which logs draw under which seal,
 * from which seq) travel to the other stations.  Writers run inside the
 * caller's write transaction.
 */
#ifndef REFKIT_SEAL_H
#define REFKIT_SEAL_H

#include <stddef.h>
#include <stdint.h>

#include "db/db.h"
#include "core/journal.h"

#define SEAL_BYTES	32		/* a seed, a log key, a hash */
#define SEAL_HEX	(2 * SEAL_BYTES)	/* as hex, without the NUL */
#define SEAL_KIND_MAX	8		/* "combat", ... with the NUL */

/* ---- the derivation ---- */

/* n bytes as 2n lowercase hex digits and a NUL. */
void seal_hex(const unsigned char *b, size_t n, char *hex);
/* Reads exactly 2n hex digits (either case); 0, or -1. */
int seal_unhex(const char *hex, unsigned char *b, size_t n);

void seal_commitment(const unsigned char seed[SEAL_BYTES],
    const char *station_id, char hex[SEAL_HEX + 1]);
void seal_log_key(const unsigned char seed[SEAL_BYTES], const char *kind,
    int64_t log, unsigned char key[SEAL_BYTES]);
void seal_key_hash(const unsigned char key[SEAL_BYTES],
    char hex[SEAL_HEX + 1]);
uint64_t seal_draw_seed(const unsigned char key[SEAL_BYTES], int64_t seq,
    int64_t side, int64_t index);

/* ---- the store ---- */

/*
 * Seals this station: a new seed (from libsodium's randombytes_buf, or
 * for the tests only from $REFKIT_TEST_SEAL_SEED, 64 hex digits), its
 * commitment into hex.  Returns 0, or -1 with why when a seal is still
 * unrevealed.
 */
int seal_create(struct db *db, int64_t now, char hex[SEAL_HEX + 1],
    char *why, size_t whysz);

/* 1 if this station has a seal not yet revealed, else 0. */
int seal_open(struct db *db);

/*
 * The seed of draw (kind, log, seq) under this station's open seal,
 * into *seed, noting the log under the seal when it is its first draw
 * there (seal_log).  Returns 1, or 0 (nothing written) with no seal
 * open.
 */
int seal_draw(struct db *db, const char *kind, int64_t log, int64_t seq,
    uint64_t *seed);
/*
 * Asks ahead (db_asked_keep) for the open seal, which seal_draw reads:
 * a kind's journal ask (core/journal.h).
 */
void seal_ask(struct db *db);
/* seal_draw for the event next appended to log id of kind k. */
int seal_draw_next(struct db *db, const struct journal_kind *k, int64_t id,
    uint64_t *seed);

/*
 * Reveals the open seal: its seed into hex, the seal marked revealed
 * and each of its logs' last sealed seq noted.  Returns 0, or -1 with
 * why when no seal is open.
 */
int seal_reveal(struct db *db, int64_t now, char hex[SEAL_HEX + 1],
    char *why, size_t whysz);

/*
 * Calls fn with the key of log (kind, log) under each seal of this
 * station it drew under; returns how many.
 */
int seal_reveal_log(struct db *db, const char *kind, int64_t log,
    void (*fn)(void *, const unsigned char key[SEAL_BYTES]), void *arg);

/* ---- verification ---- */

/* What verify is given: a seal's seed, or one log's key. */
struct seal_proof {
	int		 whole;		/* 1: seed; 0: key of (kind, log) */
	unsigned char	 secret[SEAL_BYTES];
	char		 kind[SEAL_KIND_MAX];
	int64_t		 log;
};

/*
 * Reads a proof from the text of a file: a line of 64 hex digits (a
 * seed), or "KIND LOG KEY" (a log's key, as refkit reveal --combat
 * prints it; LOG as db_key_parse reads it).  Blank lines and lines
 * starting with '#' are passed over.  Returns 0, or -1 with why.
 */
int seal_proof_parse(struct db *db, const char *text, struct seal_proof *p,
    char *why, size_t whysz);

/* A draw that does not follow from the seal, for the checker's caller. */
typedef void (*seal_bad_fn)(void *arg, const char *kind, int64_t log,
    int64_t seq, const char *why);

/*
 * Checks the draws of log under key from seq first to last (0: every
 * later one): each event that drew must hold the seed the key gives its
 * seq, and its virtual cards or dice must be those that seed draws.
 * Calls bad for each that does not; returns the number of draws checked,
 * or -1 with why when the log cannot be read.  Each game system has one
 * (crs/ledger.c, d6/ledger.c), or its rules for seal_input_check
 * (fb/ledger.c, bg/ledger.c).
 */
struct seal_checker {
	const char	*kind;
	long		(*check)(struct db *db, int64_t log, int64_t first,
			    int64_t last, const unsigned char key[SEAL_BYTES],
			    seal_bad_fn bad, void *arg, char *why,
			    size_t whysz);
	/* An input log's rules instead, when check is NULL. */
	const struct journal_rules *rules;
};

/*
 * The checker of an input log (fb/ledger.c, bg/ledger.c), loaded whole
 * and started by r (journal_run_load), as struct seal_checker's check
 * is called: its events store the input as run and, under a seal, the
 * input as typed (r->kind->sql_typed).  Walks the log with r->step and
 * draws each sealed event again from a copy of the state just before
 * it (r->copy, r->redraw), its dice from the seed the key gives.
 */
long seal_input_check(struct db *db, const struct journal_rules *r,
    int64_t log, int64_t first, int64_t last,
    const unsigned char key[SEAL_BYTES], seal_bad_fn bad, void *arg,
    char *why, size_t whysz);

/* What seal_verify found. */
struct seal_verdict {
	char		 commitment[SEAL_HEX + 1];
	long		 logs, draws, bad;
};

/*
 * Checks p against the seals here alone: a seed must give the
 * commitment of a seal, a key the hash of its log's key under one.
 * Returns 0 with that seal's commitment in commitment, or -1 with why
 * (nothing is checked).
 */
int seal_match(struct db *db, const struct seal_proof *p,
    char commitment[SEAL_HEX + 1], char *why, size_t whysz);

/*
 * Verifies p: its commitment first (a seed whose commitment is no
 * seal's here, or a key whose hash is not its log's, is refused: -1 with
 * why), then every log the seal covers (or p's log alone) through the
 * checker of its kind in checkers (n of them), each draw that does not
 * follow reported through bad.  Returns 0 with v filled, or -1 with why.
 */
int seal_verify(struct db *db, const struct seal_proof *p,
    const struct seal_checker *checkers, size_t n, seal_bad_fn bad,
    void *arg, struct seal_verdict *v, char *why, size_t whysz);

#endif
