/*
 * bg/ledger.h - Battle Grounds teams, stat names and games in the
 * database, and the derivation of a game's state from its events.
 * Callers hold the transaction (db_begin or db_begin_read).
 */
#ifndef REFKIT_BG_LEDGER_H
#define REFKIT_BG_LEDGER_H

#include <stddef.h>
#include <stdint.h>

#include "bg/bg.h"
#include "db/db.h"
#include "core/journal.h"
#include "core/seal.h"

/* Adds a team and its figures.  -1 if the name is taken. */
int bgledger_team_add(struct db *db, const struct bg_team *t);
/*
 * The team that typed names by base/names.h's rule (team names compare
 * without case: an exact name, then a unique beginning of a name or of
 * one of its words): 0 with its name as stored in name, or -1 with the
 * refusal in why ("no team 'Rde'; did you mean 'Red'?").
 */
int bgledger_team_name(struct db *db, const char *typed,
    char name[BG_NAMESZ], char *why, size_t whysz);
/* Loads a team by name (case-insensitive).  -1 if there is none. */
int bgledger_team_load(struct db *db, const char *name, struct bg_team *t);
/* Removes a team.  -1 if there is none. */
int bgledger_team_rm(struct db *db, const char *name);
/* Calls fn for every team, by name. */
void bgledger_team_each(struct db *db, void (*fn)(void *,
    const struct bg_team *),
    void *arg);

/* The six stat names, by colour; and renaming one. */
void bgledger_stat_names(struct db *db, char names[BG_NSTAT][48]);
void bgledger_stat_set(struct db *db, int colour, const char *name);

/*
 * A game as stored: its setup and its events, journal_events
 * (core/journal.h) whose round is the turn and whose outcome is the
 * battle ("won" or "lost"); ended is "1" on the event that ended the
 * game, else NULL.
 */
struct bgledger_game {
	int64_t		id;
	int		advanced, safe_attack;
	struct bg_team	team[2];
	struct journal	j;		/* the events */
};

/* The journal's view of bg_game and bg_event. */
extern const struct journal_kind bgledger_kind;

/* Creates a game, made by GM gm; returns its id. */
int64_t bgledger_game_new(struct db *db, const struct bg_team *a,
    const struct bg_team *b, int advanced, int safe_attack, const char *gm);
/* The newest game's id, or 0. */
int64_t bgledger_game_current(struct db *db);
/*
 * Shell completion's lists, in no order: calls fn with the name of every
 * team, or of every figure of game id (a name both teams use, twice).
 */
void bgledger_team_names(struct db *db, void (*fn)(void *, const char *),
    void *arg);
void bgledger_game_figures(struct db *db, int64_t id,
    void (*fn)(void *, const char *), void *arg);
/*
 * Loads game id with every event, for what lists them all (log,
 * replay).  -1 if there is none.  Free with bgledger_game_release.
 */
int bgledger_game_load(struct db *db, int64_t id, struct bgledger_game *d);
/*
 * Loads game id from its newest snapshot usable for a state before seq
 * before (0: any) and the events after it (d->j.base is its seq), or
 * with every event if it has none or it does not read back.
 */
int bgledger_game_load_recent(struct db *db, int64_t id, int64_t before,
    struct bgledger_game *d);
/* The seq an undo of game id would take back, or 0; to load before it. */
int64_t bgledger_undo_target(struct db *db, int64_t id);
/* Every game's id in order: *n of them, an array for the caller to free. */
int64_t *bgledger_game_ids(struct db *db, size_t *n);
void bgledger_game_release(struct bgledger_game *d);

/*
 * Applies one action with its stored or canonical input to g: "place"
 * (PIECE SQUARE), "move" (bg/text's move text), "power" (PIECE POWER
 * [PIECE] SQUARE), "die" (PLAYER DIE [--swap BACK], 1-based) or "pass".
 * A move fills its dice from rng; r gets the report and *canon (when not
 * NULL) the canonical input, every die and choice filled in, for the
 * caller to free.  0 or -1 with why.
 */
int bgledger_apply(struct bg_game *g, const char *action, const char *input,
    struct rng *rng, struct bg_report *r, char **canon, char *why,
    size_t whysz);

/*
 * Under this station's seal (core/seal.h), the seed the seal gives the
 * next event of game id, into *seed: 1; else 0.  In the caller's write
 * transaction.
 */
int bgledger_seal(struct db *db, int64_t id, uint64_t *seed);

/*
 * A game's rules for the walks through its log (core/journal.h): the
 * audit, the snapshots and the check of its sealed draws
 * (seal_input_check): an event that drew dice holds the seed key gives
 * its seq, and its input as typed ("typed" in its detail); applied
 * again with that seed, it must give the canonical input, every die,
 * that it records.
 */
extern const struct journal_rules bgledger_rules;

/*
 * Derives the state: the setup (or the snapshot d was loaded from), then
 * every event loaded that is not undone.  -1 with why and *bad (the
 * event's seq) if one does not replay.
 */
int bgledger_derive(const struct bgledger_game *d, struct bg_game *g,
    int64_t *bad, char *why, size_t whysz);

/*
 * Appends e to game id (e->seq is set and returned) and, when its seq
 * is due a snapshot, stores after, the state after it, in the caller's
 * write transaction.
 */
int64_t bgledger_record(struct db *db, int64_t id, struct journal_event *e,
    const struct bg_game *after);

/*
 * Appends the undo of d's newest live event at time now, by GM gm:
 * derives into g
 * the game without it, appends the undo (*seq) and stores g as its
 * snapshot when due.  d must be loaded from before that event
 * (bgledger_undo_target).  Returns the index in d of the event taken
 * back, or -1 with why (nothing to undo, or the game does not replay).
 */
ptrdiff_t bgledger_undo(struct db *db, struct bgledger_game *d,
    struct bg_game *g, int64_t now, const char *gm, int64_t *seq, char *why,
    size_t whysz);

/*
 * Replays game d, loaded with every event (bgledger_game_load), from its
 * setup, and compares every snapshot of it with the state the replay
 * reaches after that event, byte for byte.  Calls bad(arg, seq, why) for
 * each event that does not replay and each snapshot that differs, and
 * returns how many there were.
 */
int bgledger_audit(struct db *db, const struct bgledger_game *d,
    void (*bad)(void *arg, int64_t seq, const char *why), void *arg);

/*
 * Calls fn for each game in order: the two teams, the board ("basic" or
 * "advanced"), the moves, powers and passes made, and the winner.
 */
void bgledger_game_each(struct db *db,
    void (*fn)(void *, const struct journal_summary *), void *arg);

/* How many games team name played in. */
int bgledger_team_games(struct db *db, const char *name);

#endif
