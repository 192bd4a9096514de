/*
 * bgledger.h - Battle Grounds teams, stat names and games in the
 * database, and the derivation of a game's state from its events.
 * Callers hold the transaction (db_begin or db_begin_read).
 */
#ifndef REFKIT_BGLEDGER_H
#define REFKIT_BGLEDGER_H

#include <stdint.h>

#include "bg/bg.h"
#include "core/db.h"

/* Adds a team and its figures.  -1 if the name is taken. */
int bgledger_team_add(struct db *db, const struct bg_team *t);
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

/* One stored event. */
struct bgledger_event {
	int64_t		seq;
	int		turn;
	char		*action, *actor, *input, *battle, *winner, *seed;
	char		*detail;
	int		ended;
	int64_t		undoes, time;
};

/* A game as stored: its setup and events; undone[i] marks undone ones. */
struct bgledger_game {
	int64_t		id;
	int		advanced, safe_attack;
	struct bg_team	team[2];
	size_t		n;
	struct bgledger_event *ev;
	int		*undone;
};

/* Creates a game; returns its id. */
int64_t bgledger_game_new(struct db *db, const struct bg_team *a,
    const struct bg_team *b, int advanced, int safe_attack);
/* The newest game's id, or 0. */
int64_t bgledger_game_current(struct db *db);
/* Loads game id.  -1 if there is none.  Free with bgledger_game_release. */
int bgledger_game_load(struct db *db, int64_t id, struct bgledger_game *d);
void bgledger_game_release(struct bgledger_game *d);

/*
 * Applies one action with its stored or canonical input to g: "place"
 * (PIECE SQUARE), "move" (bgio's move text), "power" (PIECE POWER
 * [PIECE] SQUARE), "die" (PLAYER DIE [--swap BACK], 1-based) or "pass".
 * A move fills its dice from rng; r gets the report and *canon (when not
 * NULL) the canonical input, every die and choice filled in, for the
 * caller to free.  0 or -1 with why.
 */
int bgledger_apply(struct bg_game *g, const char *action, const char *input,
    struct rng *rng, struct bg_report *r, char **canon, char *why,
    size_t whysz);

/*
 * Derives the state: the setup, then every event not undone.  -1 with
 * why and *bad (the event's seq) if one does not replay.
 */
int bgledger_derive(const struct bgledger_game *d, struct bg_game *g,
    int64_t *bad,
    char *why, size_t whysz);

/* Appends e (seq is assigned) to game id. */
void bgledger_event_append(struct db *db, int64_t id, struct bgledger_event *e);

#endif
