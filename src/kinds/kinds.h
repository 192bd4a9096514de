/*
 * kinds.h - every kind of log refkit keeps, for the commands that work
 * over all of them (refkit merge and changes apply, refkit verify), which
 * reach a game only through its journal_kind (core/journal.h): a new
 * game adds its kind here and touches no file of sync/, trust/ or
 * cmd/refkit.c.
 */
#ifndef REFKIT_KINDS_H
#define REFKIT_KINDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/journal.h"
#include "core/seal.h"

/* The kinds, NULL-terminated: CRS combats, Force Battles duels, Battle
 * Grounds games. */
extern const struct journal_kind *const kinds_all[];

/*
 * The checkers of sealed draws (core/seal.h), one per kind of log that
 * draws under a seal: the three above and the D6 System's rolls.
 */
extern const struct seal_checker kinds_seals[];
extern const size_t kinds_nseals;

/* The kind named what ("combat"), or NULL. */
const struct journal_kind *kinds_find(const char *what);

/*
 * The live board of each kind of log (term/watch.h), NULL-terminated, in
 * kinds_all's order, for what shows a board of any kind (refkit serve);
 * and the one of the kind named what, or NULL.
 */
struct watch_board;
extern const struct watch_board *const kinds_boards[];
const struct watch_board *kinds_board(const char *what);

/*
 * A character's page (refkit serve): the roster's character named name
 * (exactly), read from db in the caller's transaction.  Writes its sheet
 * as crs-stats show prints it to sheet, and its history this event (its
 * combats, damage dealt and taken, those it downed) to history, a line;
 * calls fn with each combat under way it fights in and its figures there
 * now: LIFE, its most, EM, its most (LIFE -1 when the combat does not
 * replay).  Returns 0, or -1, having written nothing, when there is no
 * such character.
 */
enum { KINDS_LIFE, KINDS_LIFE_MAX, KINDS_EM, KINDS_EM_MAX, KINDS_FIGURES };
int kinds_character(struct db *db, const char *name, FILE *sheet,
    FILE *history, void (*fn)(void *, int64_t combat, const int *figures),
    void *arg);

/*
 * Whether typed, a sheet's code as a player types or scans it (either
 * case, dashes or none), is that of name's printed sheet as it would
 * print now (crs-stats sheets, whole rounding) under the key of any
 * station the database knows, in the caller's read transaction: shown
 * gets the code in its printed form ("" when typed is none).
 */
enum kinds_sheet {
	KINDS_SHEET_MATCH,	/* it is */
	KINDS_SHEET_OTHER,	/* a code, not this sheet's now */
	KINDS_SHEET_NOT_CODE,	/* typed is no code */
	KINDS_SHEET_NOBODY	/* there is no character called name */
};
#define KINDS_SHEET_CODE_LEN	19
enum kinds_sheet kinds_sheet_check(struct db *db, const char *name,
    const char *typed, char shown[KINDS_SHEET_CODE_LEN + 1]);

/*
 * The day's figures, for the convention's page (refkit serve): those of
 * the organiser's report (crs-combat report) of the combats begun at or
 * after since, in the caller's read transaction.  The names are cut to
 * the buffers' size (a roster's names are shorter).
 */
struct kinds_day {
	int64_t		 since;
	int64_t		 combats;	/* with a strike */
	int64_t		 finished, idle;	/* idle: without a strike */
	int64_t		 rounds, strikes, dealt, downs, fumbles, rulings;
	int64_t		 busiest_hour;	/* its first second; 0: no combat */
	int		 busiest;	/* combats begun in it */
	char		 top[256];	/* who dealt the most damage, or "" */
	int64_t		 top_dealt;
	/* The most frequent matchup; count 0 when there is none. */
	char		 attacker[256], target[256];
	const char	*kind;		/* "short range", "long range", "mental" */
	int		 count, known;	/* known: p_hit is */
	double		 p_hit;
};
/*
 * Returns 0, or -1 when a combat cannot be loaded.  With a cache (not
 * NULL), what is kept of each combat's figures is added up again, and
 * only a combat that changed since the last call is replayed.
 */
struct kinds_day_cache;
struct kinds_day_cache *kinds_day_cache_new(void);
void kinds_day_cache_free(struct kinds_day_cache *c);
int kinds_day(struct db *db, int64_t since, int64_t now,
    struct kinds_day *d, struct kinds_day_cache *c);

#endif
