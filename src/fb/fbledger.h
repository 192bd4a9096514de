/*
 * fbledger.h - Force Battles in the database: boards, duelists, duels
 * and their events, and the state derived by running the events again.
 * Writers run inside the caller's transaction (db_begin).
 */
#ifndef REFKIT_FBLEDGER_H
#define REFKIT_FBLEDGER_H

#include <stdint.h>

#include "core/db.h"
#include "core/journal.h"
#include "fb/fb.h"

#define FBLEDGER_NAMESZ	41

struct fbledger_duelist {
	int64_t		id;
	char		name[FBLEDGER_NAMESZ];
	char		board[FB_NAMESZ];
	struct fb_sheet	sh;
	char		*notes;		/* owned, may be NULL */
	int64_t		created, updated;
};

/* Loads board name; 0, or -1 if there is none. */
int fbledger_board_load(struct db *db, const char *name, struct fb_board *b);
/* Stores a new board (b->name); 0, or -1 if the name is taken. */
int fbledger_board_add(struct db *db, const struct fb_board *b);
/* Calls fn for each board name in order. */
void fbledger_board_each(struct db *db, void (*fn)(void *, const char *),
    void *arg);

/*
 * Loads duelist name and her board; 0, or -1 if there is none.  Release
 * with fbledger_duelist_release.
 */
int fbledger_duelist_load(struct db *db, const char *name,
    struct fbledger_duelist *d,
    struct fb_board *b);
void fbledger_duelist_release(struct fbledger_duelist *d);
/* Inserts (d->id == 0; -1 if the name is taken) or updates d. */
int fbledger_duelist_save(struct db *db, struct fbledger_duelist *d,
    const struct fb_board *b, int64_t now);
/* Removes duelist name; 0, or -1 if there was none. */
int fbledger_duelist_remove(struct db *db, const char *name);
/* Calls fn for each duelist by name (stance and board not loaded). */
void fbledger_duelist_each(struct db *db,
    void (*fn)(void *, const struct fbledger_duelist *, const char *stance),
    void *arg);

/*
 * A duel as stored.  Its events are journal_events (core/journal.h): the
 * round, the action, the input with every die filled in, and the outcome
 * column (outcome), ended and winner repeated for queries.
 */
struct fbledger_duel {
	int64_t		id;
	char		*a, *b, *board;	/* owned */
	int64_t		created;
	struct journal	j;		/* the events */
};

/* The journal's view of fb_duel and fb_event. */
extern const struct journal_kind fbledger_kind;

/* The newest duel, or 0. */
int64_t fbledger_duel_current(struct db *db);
/* Loads duel id with its events; 0, or -1 if there is none. */
int fbledger_duel_load(struct db *db, int64_t id, struct fbledger_duel *d);
void fbledger_duel_release(struct fbledger_duel *d);
/* Creates a duel and returns its id. */
int64_t fbledger_duel_new(struct db *db, const char *a, const char *b,
    const char *board, int64_t now);
/*
 * Calls fn for each duel in order, or each that name (exactly as
 * stored) fought in when name is not NULL: a, b, the board, the last
 * round played, how it ended and who won.
 */
void fbledger_duel_each(struct db *db, const char *name,
    void (*fn)(void *, const struct journal_summary *), void *arg);

/* What a duel's events make: the board, the names and the state. */
struct fbledger_live {
	struct fb_board	b;
	char		names[2][FBLEDGER_NAMESZ];
	const char	*np[2];		/* names[], for fbio */
	struct fb_state	s;
};

/* The start event's input: the board and both sheets.  Caller frees. */
char *fbledger_start_input(const struct fb_board *b,
    const struct fbledger_duelist *a,
    const struct fbledger_duelist *bb);

/*
 * Runs one event's action on live: "start" (input as above), "geas",
 * "init", "aim", "round" (input the options) or "restance" (input "NAME
 * WORDS...").  in receives the parsed options with the dice used.
 * Returns 0, or -1 with why and live unchanged.
 */
int fbledger_apply(struct fbledger_live *live, const char *action,
    const char *input,
    struct fb_in *in, struct rng *rng, struct fb_report *r, char *why,
    size_t whysz);

/*
 * The state after every event that is not undone.  Returns 0, or -1 with
 * why and *bad the seq of the event that would not run again.
 */
int fbledger_derive(const struct fbledger_duel *d, struct fbledger_live *live,
    int64_t *bad, char *why, size_t whysz);

#endif
