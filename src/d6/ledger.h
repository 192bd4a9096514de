/*
 * d6/ledger.h - D6 System characters kept in the database (d6_character,
 * d6_trait), with the log of the rolls made for them (d6_roll).  Readers
 * run inside a transaction the caller opens (db_begin_read or db_begin),
 * writers inside one it opens with db_begin.
 */
#ifndef REFKIT_D6_LEDGER_H
#define REFKIT_D6_LEDGER_H

#include <stdint.h>

#include "db/db.h"
#include "core/seal.h"
#include "d6/sheet.h"

/*
 * The character that typed names, by base/names.h's rule (exactly, but
 * for case, or by a unique beginning of the name or of one of its
 * words): its full name, which the caller frees; or NULL with the
 * refusal in why ("no D6 character named 'Lkue'; did you mean 'Luke'?").
 */
char *d6ledger_name(struct db *db, const char *typed, char *why,
    size_t whysz);

/*
 * Loads the character called name into s, which the caller releases with
 * d6sheet_free.  Returns 0, or -1 if there is none (s is then empty).
 */
int d6ledger_load(struct db *db, const char *name, struct d6_sheet *s);

/*
 * Stores s: a new character when s->id is 0 (-1 if the name is taken),
 * else replaces the one with that id, traits and all.  Returns 0.
 */
int d6ledger_save(struct db *db, struct d6_sheet *s, int64_t now);

/* Removes the character called name.  Returns 0, or -1 if none. */
int d6ledger_remove(struct db *db, const char *name);

/*
 * Shell completion's lists, in no order: calls fn with the name of every
 * character, or of every trait (attribute or skill) of the character
 * called name (but for case).
 */
void d6ledger_names(struct db *db, void (*fn)(void *, const char *),
    void *arg);
void d6ledger_trait_names(struct db *db, const char *name,
    void (*fn)(void *, const char *), void *arg);

/* Takes cp Character Points and fp Force Points from character id. */
void d6ledger_spend(struct db *db, int64_t id, int cp, int fp, int64_t now);

/* One line of the roster. */
struct d6_summary {
	const char	*name;
	int		 cp, fp, dsp;
	int		 attributes, skills;
};

/*
 * Calls fn for each character, by name, in one query.  The summary's name
 * is the store's, good only during the call.
 */
void d6ledger_each(struct db *db,
    void (*fn)(const struct d6_summary *, void *), void *arg);

/* A roll for the log. */
struct d6_logged {
	const char	*character;
	const char	*round;		/* NULL: none */
	const char	*trait;
	const char	*code;
	uint64_t	 seed;
	long		 total;
	int		 cp, fp;
	const char	*detail;	/* JSON */
};

/* Appends r to the roll log at time now; r stays the caller's. */
void d6ledger_log_roll(struct db *db, const struct d6_logged *r, int64_t now);

/*
 * What was spent already in a round: the Character Points and Force
 * Points of the character's logged rolls labelled round.
 */
void d6ledger_round_spent(struct db *db, const char *character,
    const char *round, int *cp, int *fp);

/*
 * Sealed rolls (core/seal.h).  The rolls of a station form one log, of
 * kind "rolls", whose log is the station's tag and whose seq is a roll's
 * number (its key less the tag times 2^31).
 */

/*
 * Under this station's seal, the seed the seal gives the next roll this
 * station logs, into *seed: 1; else 0.  In the caller's write
 * transaction, before the roll is made.
 */
int d6ledger_seal(struct db *db, uint64_t *seed);

/*
 * The sealed rolls of the station of tag log from roll first to last (0:
 * on): a seal_checker's check.  Each holds the seed key gives its
 * number, and rolled again from it (the code as rolled, the Wild Die's
 * treatment and the Character Point dice from its detail, and the
 * opposing roll), gives the dice and total it records.
 */
long d6ledger_seal_check(struct db *db, int64_t log, int64_t first,
    int64_t last, const unsigned char key[SEAL_BYTES], seal_bad_fn bad,
    void *arg, char *why, size_t whysz);

#endif
