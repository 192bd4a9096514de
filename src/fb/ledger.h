/*
 * fb/ledger.h - Force Battles in the database: boards, duelists, duels
 * and their events, and the state derived by running the events again.
 * Writers run inside the caller's transaction (db_begin).
 */
#ifndef REFKIT_FB_LEDGER_H
#define REFKIT_FB_LEDGER_H

#include <stdint.h>

#include "db/db.h"
#include "core/journal.h"
#include "core/pack.h"
#include "core/seal.h"
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

/*
 * The board, or the duelist, that typed names by base/names.h's rule
 * (their names compare without case: an exact name, then a unique
 * beginning of a name or of one of its words): 0 with its name as stored
 * in name, or -1 with the refusal in why ("no duelist 'Vadr'; did you
 * mean 'Vader'?", "'d' could be 'Dooku' or 'Dume'").
 */
int fbledger_board_name(struct db *db, const char *typed,
    char name[FB_NAMESZ], char *why, size_t whysz);
int fbledger_duelist_name(struct db *db, const char *typed,
    char name[FBLEDGER_NAMESZ], char *why, size_t whysz);

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
/*
 * Shell completion's lists, in no order: calls fn with the name of every
 * duelist, or of the two of duel id.
 */
void fbledger_duelist_names(struct db *db, void (*fn)(void *, const char *),
    void *arg);
void fbledger_duel_names(struct db *db, int64_t id,
    void (*fn)(void *, const char *), void *arg);
/* Every duel's id in order, *n of them; the caller frees the array. */
int64_t *fbledger_duel_ids(struct db *db, size_t *n);
/*
 * Loads duel id with all its events; 0, or -1 if there is none.  For
 * the log and the replay: the other commands load from a snapshot.
 */
int fbledger_duel_load(struct db *db, int64_t id, struct fbledger_duel *d);
/*
 * Loads duel id from its newest snapshot usable for a state before seq
 * before (0: any): d->j.snap holds the state after event d->j.base, and
 * d->j the events after it, which fbledger_derive runs on that state.
 * Without a snapshot that reads back, every event.  0, or -1 if there
 * is no such duel.
 */
int fbledger_duel_load_recent(struct db *db, int64_t id, int64_t before,
    struct fbledger_duel *d);
/* The seq an undo takes back (the newest live event's), or 0. */
int64_t fbledger_undo_target(struct db *db, int64_t id);
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
	const char	*np[2];		/* names[], for fb/text */
	struct fb_state	s;
};

/*
 * The byte form of live for a snapshot, appended to p (core/pack.h):
 * the names, the board, then the state, every field in a fixed order.
 */
void fbledger_live_pack(const struct fbledger_live *live, struct pack *p);
/*
 * Reads len bytes of that form into live, its pointers set to its own
 * board and names.  Returns 0, or -1 if the bytes are damaged, out of
 * range or of another form (live is then meaningless).
 */
int fbledger_live_unpack(const void *buf, size_t len,
    struct fbledger_live *live);

/*
 * Appends e to duel id as its next seq, which it sets, with a snapshot
 * of after (the state e left) when that seq is due one; returns the
 * seq.  In the caller's write transaction.
 */
int64_t fbledger_record(struct db *db, int64_t id, struct journal_event *e,
    const struct fbledger_live *after);
/*
 * Under this station's seal (core/seal.h), the seed the seal gives the
 * next event of duel id, into *seed: 1; else 0.  In the caller's write
 * transaction.
 */
int fbledger_seal(struct db *db, int64_t id, uint64_t *seed);

/*
 * A duel's rules for the walks through its log (core/journal.h): the
 * audit, the snapshots and the check of its sealed draws
 * (seal_input_check): an event that drew dice holds the seed key gives
 * its seq, and its input as typed (the dice given, "typed" in its
 * detail); run again from there with that seed, it must draw the dice
 * its input records.
 */
extern const struct journal_rules fbledger_rules;

/*
 * Takes back event i of duel d (loaded with it among its events) and,
 * when the undo's seq is due a snapshot, stores the state after the
 * undo, derived anew with event i undone.  gm is who undoes it.  Returns
 * the undo's seq.
 */
int64_t fbledger_undo(struct db *db, struct fbledger_duel *d, size_t i,
    int64_t now, const char *gm);

/*
 * Replays duel id from its first event and compares each of its
 * snapshots with the state the replay reaches after that event.  For
 * an event that no longer replays (the replay of that duel stops
 * there) and each snapshot that disagrees, calls bad(arg, seq, why).
 * Adds the duel's events to *events; returns the mismatches, or -1 if
 * there is no duel id.
 */
int fbledger_audit(struct db *db, int64_t id,
    void (*bad)(void *arg, int64_t seq, const char *why), void *arg,
    int *events);

/* The start event's input: the board and both sheets.  Caller frees. */
char *fbledger_start_input(const struct fb_board *b,
    const struct fbledger_duelist *a,
    const struct fbledger_duelist *bb);

/*
 * Runs one event's action on live: "start" (input as above), "geas",
 * "init", "aim", "round" (input the options), "restance" (input "NAME
 * WORDS...") or "adjust", a GM's ruling (input "NAME ATT=+1 ...", stored
 * as a restance whose detail holds adjust: core/journal.h).  in receives the parsed options with the dice used.
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
