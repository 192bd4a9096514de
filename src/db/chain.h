/*
 * chain.h - hash chains over the ledgers (issue #24, refkit(7) "Trust").
 *
 * Every event of a log (a combat, a duel, a game) and every D6 roll a
 * station made carries a hash: SHA-256 (libsodium) over a fixed prefix,
 * the log's kind, the previous event's hash (32 zero bytes before the
 * first) and the event's row, every column but hash in the table's
 * order, each with its type:
 *
 *	NULL		0x00
 *	an integer	0x10 + n, then its n bytes, big-endian two's
 *			complement, n the fewest that hold it (0 for 0)
 *	a text		0x03, its length in 4 bytes big-endian, its bytes
 *	a blob		0x04, the same
 *
 * so that the same row gives the same bytes on SQLite and on a server
 * (a row that travels between stations keeps its hash).  A column added
 * to a table after hash (the gm of fb_event and bg_event, schema 16) is
 * left out while it is NULL, so that the events chained before it was
 * added keep their hashes; a value there is encoded as any other.  Each chain's
 * head (its last seq and hash) is a row of the table chain, written with
 * the event and travelling with it.  An event edited, removed, added or
 * moved, and a log's last events or the whole log removed, break the
 * chain where they were, which chain_verify finds.
 *
 * What a chain does not do: anyone with the file can compute hashes, so
 * a chain rewritten from the changed row on, head included, holds again.
 * What catches that is a head written down before (refkit head): the
 * chain has to pass through it.
 *
 * The kinds: "combat" (event, by combat_id and seq), "duel" (fb_event),
 * "game" (bg_event) and "rolls": the D6 rolls of one station, whose log
 * is the station's tag and whose seq is the roll's number there (its key
 * less the tag times 2^31).  Above the statement layer and below
 * db/db.h, which calls chain_log for the migration to schema 15.
 */
#ifndef REFKIT_CHAIN_H
#define REFKIT_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#include "db/db_stmt.h"

#define CHAIN_HASH_LEN	32		/* bytes of SHA-256 */
#define CHAIN_HEX_LEN	(2 * CHAIN_HASH_LEN + 1)	/* as text, NUL */

/* A chain's head as stored, or have 0 when it has none. */
struct chain_head {
	int		 have;
	int64_t		 seq;
	unsigned char	 hash[CHAIN_HASH_LEN];
	int64_t		 migrated;	/* 0 unless made by the migration */
};

/* 1 if kind is one of the four above. */
int chain_kind_known(const char *kind);

/*
 * Asks for the head of kind's log ahead (db_asked_keep), for the
 * chain_head_get of an append later in the same transaction.
 */
void chain_head_ask(struct db *db, const char *kind, int64_t log);

/* Reads the head of kind's log into *h. */
void chain_head_get(struct db *db, const char *kind, int64_t log,
    struct chain_head *h);

/*
 * Appending, in the caller's write transaction, after inserting event
 * seq of kind's log with "INSERT ... RETURNING *", st on its row: hashes
 * the row onto the head's hash (stepping st to its end), stores the hash in the row and makes it
 * the head.  The head must be h (read under the same lock, with
 * chain_head_get); when it is not the event before seq (a row removed
 * or added by another program), the event is chained on the head all
 * the same, so that nothing is refused at the table, with a warning
 * that refkit verify will report the break.
 */
void chain_append(struct db *db, const char *kind, int64_t log,
    int64_t seq, struct db_stmt *st, const struct chain_head *h);

/*
 * An event table's columns in the order its rows have them (SELECT *),
 * with what each holds as declared (db_column_declared).
 */
struct chain_columns {
	int		 n;
	char		**name;
	int		*type;
};

/*
 * For a server's writer, which saves a round trip by hashing an event
 * before it is inserted (issue #40): the hash of event seq of kind's log
 * onto head h, as chain_append would make it from the row that
 * "INSERT ... RETURNING *" gives back, made instead from its key id (the
 * next free one, read under the lock of new keys) and the parameters
 * bound to ins: names[j] is the column parameter j + 1 goes to, n of
 * them, and cols says the table's columns.  Returns 0, or -1 when the
 * row is not known that way (a column the insert leaves to its default,
 * a value the server would convert, a backend that cannot say what was
 * bound, a kind keyed otherwise): the caller then inserts with
 * RETURNING and calls chain_append.  After the insert with this hash,
 * chain_head_set makes it the head, as chain_append does.
 */
/* Frees cols and what it holds; NULL is none. */
void chain_columns_free(struct chain_columns *cols);
/*
 * Reads st's columns (a statement stepped, rows or none) into a new
 * struct chain_columns, for chain_columns_free.
 */
struct chain_columns *chain_columns_of(struct db_stmt *st);
int chain_prehash(struct db *db, const char *kind, int64_t seq, int64_t id,
    const struct chain_columns *cols, const char *const *names, int n,
    struct db_stmt *ins, const struct chain_head *h,
    unsigned char hash[CHAIN_HASH_LEN]);
void chain_head_set(struct db *db, const char *kind, int64_t log,
    int64_t seq, const unsigned char hash[CHAIN_HASH_LEN],
    const struct chain_head *h);

/*
 * Chains every event of kind's log as it stands, from the first, and
 * marks the head as made by the migration (schema 15).  Returns 0, or -1
 * for an unknown kind.
 */
int chain_log(struct db *db, const char *kind, int64_t log);

/* A problem chain_verify found, for its report callback. */
struct chain_problem {
	const char	*kind;
	int64_t		 log;
	int64_t		 seq, seq2;	/* the events, seq..seq2 */
	const char	*what;		/* a sentence without the log */
};

/* What chain_verify counted. */
struct chain_tally {
	int64_t		 logs, events, problems;
	int64_t		 bytes;		/* hashed, once over each event */
};

/*
 * Checks kind's log: walks its events in order, recomputing each hash
 * from the one before, and names by seq each event removed (a gap),
 * changed since it was written, moved from another seq, or added by
 * another program, then compares the head.  A log that is gone but
 * whose head remains is a problem too.  Calls bad(arg, p) for each, adds
 * to *t, and returns the number of problems, or -1 when there is no
 * such log (no row, no event, no head).
 */
int64_t chain_verify(struct db *db, const char *kind, int64_t log,
    void (*bad)(void *arg, const struct chain_problem *p), void *arg,
    struct chain_tally *t);

/*
 * The same checks over many logs, with the statements prepared once
 * (refkit verify): chain_verifier_new(db) for a verifier over db, owned
 * by the caller, who frees it with chain_verifier_free before closing
 * db; chain_verifier_check(cv, ...) is chain_verify(db, ...).
 */
struct chain_verifier;
struct chain_verifier *chain_verifier_new(struct db *db);
void chain_verifier_free(struct chain_verifier *cv);
int64_t chain_verifier_check(struct chain_verifier *cv, const char *kind,
    int64_t log, void (*bad)(void *arg, const struct chain_problem *p),
    void *arg, struct chain_tally *t);

/*
 * Calls fn(arg, kind, log) for every log of every kind, or of kind alone
 * when it is not NULL: those with events and those with a head only, in
 * order of kind and log.
 */
void chain_logs(struct db *db, const char *kind,
    void (*fn)(void *arg, const char *kind, int64_t log), void *arg);

/* A hash as 64 lowercase hexadecimal digits. */
void chain_hex(const unsigned char hash[CHAIN_HASH_LEN],
    char hex[CHAIN_HEX_LEN]);

/*
 * The heads of every chain, in order of kind and log, for refkit head:
 * fn(arg, head's kind, log, head) for each, and then the hash over all
 * of them in *all (SHA-256 over each head's kind, log, seq and hash, in
 * that order).  Returns how many.
 */
int64_t chain_heads(struct db *db, const char *kind,
    void (*fn)(void *arg, const char *kind, int64_t log,
    const struct chain_head *h), void *arg,
    unsigned char all[CHAIN_HASH_LEN]);

#endif
