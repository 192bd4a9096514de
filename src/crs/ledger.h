/*
 * ledger.h - the combat ledger in the database: combats, their events
 * appended one row each and never changed, the state derived from them,
 * and the audit that replays them.  Writers run inside the caller's
 * transaction (db_begin).
 */
#ifndef REFKIT_LEDGER_H
#define REFKIT_LEDGER_H

#include <stddef.h>
#include <stdint.h>

#include "crs/combat.h"
#include "db/db.h"
#include "core/journal.h"
#include "core/seal.h"

/*
 * A combat's events in seq order; undone[i] marks an undone one.  n, ev
 * and undone show the journal's j.n, j.body and j.undone, which own
 * them; a caller may shorten n or mark more undone before deriving.
 * Loaded from a snapshot (j.base > 0), the events are those after it,
 * and deriving starts from its state.
 */
struct ledger {
	int64_t			 combat;
	char			 key[DB_KEY_TEXT_MAX];	/* as users see it */
	char			*rules;		/* owned */
	char			*gm;		/* who started it, owned; or
						   NULL */
	size_t			 n;
	struct combat_event	*ev;
	int			*undone;
	struct journal		 j;
	struct journal_snapshot	*snaps;		/* ledger_load_all's */
	size_t			 nsnaps;
};

/* The journal's view of combat and event. */
extern const struct journal_kind ledger_kind;

/* Creates a combat and returns its id. */
int64_t ledger_new_combat(struct db *db, const char *rules, int64_t now);


/*
 * Calls fn with the name of every fighter who joined combat id (by
 * start or join) and whose joining was not undone, in no order: shell
 * completion's, which derives nothing.
 */
void ledger_fighters(struct db *db, int64_t id,
    void (*fn)(void *, const char *), void *arg);

/*
 * Loads combat id from its newest snapshot: the events after it, which
 * ledger_derive runs on its state.  Returns 0, or -1 if there is no such
 * combat.  id may be DB_PICKED (journal_pick_ahead): l->combat is then
 * the combat picked, and JOURNAL_NONE says none was.
 */
int ledger_load(struct db *db, int64_t id, struct ledger *l);
/* The same from a snapshot before event seq before, for an undo of it. */
int ledger_load_before(struct db *db, int64_t id, int64_t before,
    struct ledger *l);
/*
 * Every event of combat id, and its snapshots for ledger_audit to
 * compare: for the log and the replay.
 */
int ledger_load_all(struct db *db, int64_t id, struct ledger *l);
/* The seq an undo without a seq takes back (or the start's), or 0. */
int64_t ledger_undo_target(struct db *db, int64_t id);
void ledger_release(struct ledger *l);

/*
 * Makes in a fresh copy of what rec was given: the GM's choices, the
 * typed cards, the seed, the time; none of the outcome.
 */
void ledger_inputs(const struct combat_event *rec, struct combat_event *in);

/*
 * The state after every event that is not undone, each executed again.
 * Returns 0, or -1 with why set and *bad the seq of the event that would
 * not run.
 */
int ledger_derive(const struct ledger *l, struct combat_state *s, int64_t *bad,
    char *why, size_t whysz);

/*
 * Compares a recorded event with the same event executed again; returns
 * 0 if they agree, else -1 with the first difference in why.
 */
int ledger_same(const struct combat_event *rec, const struct combat_event *now,
    char *why, size_t whysz);

/* 1 if executing e drew anything from its seed. */
int ledger_used_seed(const struct combat_event *e);

/*
 * Audits combat l, loaded with ledger_load_all: runs every event that
 * is not undone again from its inputs and compares it with what was
 * recorded (ledger_same), and each snapshot with the state the replay
 * reaches at it.  For each event that does not run (ran 0) or does not
 * agree (ran 1), and each snapshot that does not agree (ran 1, seq its
 * event's), calls bad(arg, seq, ran, why) and goes on.  Returns the
 * number of mismatches.
 */
int ledger_audit(const struct ledger *l,
    void (*bad)(void *, int64_t seq, int ran, const char *why), void *arg);

/*
 * Under this station's seal (core/seal.h), sets e->seed to the seed the
 * seal gives e's place, the next seq of combat id, and returns 1; else
 * returns 0 with e unchanged.  In the caller's write transaction, before
 * e is executed and appended.
 */
int ledger_seal(struct db *db, int64_t id, struct combat_event *e);

/*
 * The sealed draws of combat log from seq first to last (0: on): a
 * seal_checker's check (core/seal.h).  Each event that drew a virtual
 * card must hold the seed key gives its seq, and replay as recorded
 * from it (ledger_audit redraws its cards from the seed).
 */
long ledger_seal_check(struct db *db, int64_t log, int64_t first,
    int64_t last, const unsigned char key[SEAL_BYTES], seal_bad_fn bad,
    void *arg, char *why, size_t whysz);

/* Appends e to combat id as its next seq, which it sets. */
void ledger_append(struct db *db, int64_t id, struct combat_event *e);
/*
 * The same, and when the event is due one, a snapshot of after, the
 * state that executing e left: what the commands call.
 */
void ledger_record(struct db *db, int64_t id, struct combat_event *e,
    const struct combat_state *after);

/*
 * Queries across combats, for crs-combat.
 */

/* The newest combat, ended or not, or 0. */
int64_t ledger_newest(struct db *db);

/*
 * A fled character may not fight until his lockout ends: the latest end
 * of a lockout of name's (a flee of his, not undone) that still runs at
 * now, with *combat the combat he fled; 0 and *combat 0 if none runs.
 */
int64_t ledger_fled_until(struct db *db, const char *name, int64_t now,
    int64_t *combat);

/*
 * Nobody in a combat can be surprised: a combat other than combat that
 * name joined (not undone), that has not ended, and that he has not fled;
 * 0 if there is none.
 */
int64_t ledger_fighting_elsewhere(struct db *db, const char *name,
    int64_t combat);

/* Every combat's id, oldest first: *n of them, an array the caller frees. */
int64_t *ledger_combat_ids(struct db *db, size_t *n);

/* One character's history (name belongs to the query, for the call only). */
struct ledger_history {
	const char	*name;
	int64_t		 combats, dealt, taken, downed, fumbles;
};

/*
 * The name that typed means among those with a history (db/lookup.h's
 * rule: a character that fought may since have left the roster), or
 * NULL with the refusal in why ("no combat history for 'Jon'; did you
 * mean 'John'?").  The caller frees it.
 */
char *ledger_history_name(struct db *db, const char *typed, char *why,
    size_t whysz);

/*
 * Calls fn with each character's history of events at or after since
 * (undone ones left out), by name; only name's when name is not NULL.
 * Returns the number of rows.  It reads the histories ledger_append
 * keeps (history and history_combat), and the events only of combats
 * that straddle since.
 */
int ledger_history(struct db *db, const char *name, int64_t since,
    void (*fn)(void *, const struct ledger_history *), void *arg);

/*
 * The same, added up from the events alone: the query ledger_history
 * answered before the histories were kept, for the tests to check them
 * against.
 */
int ledger_history_scan(struct db *db, const char *name, int64_t since,
    void (*fn)(void *, const struct ledger_history *), void *arg);

/* The number of combats created at or after since. */
int64_t ledger_count_combats(struct db *db, int64_t since);

/*
 * Adds up again, from their events, the histories (history_combat and
 * history) of the n combats given and of everyone in them: for events
 * that arrived from another station (refkit changes apply), which came
 * without the sums ledger_append keeps.  In the caller's transaction.
 */
void ledger_history_rebuild(struct db *db, const int64_t *combats,
    size_t n);

/*
 * The same for every combat, those whose events are gone too: for
 * changes that removed or changed events, which no tool does.
 */
void ledger_history_rebuild_all(struct db *db);

/*
 * Calls fn with each character who is in two combats under way at once
 * (neither ended, the character neither fled nor dead in either, as far
 * as the events say), naming both combats; returns how many pairs.
 */
int ledger_double_booked(struct db *db, void (*fn)(void *, const char *,
    int64_t, int64_t), void *arg);

/*
 * ledger_derive, calling hook(arg, s, i) before each event i of l (an
 * undone one and an undo too) with s the state just before it, so that a
 * caller can report every event from the one replay.
 */
int ledger_derive_each(const struct ledger *l, struct combat_state *s,
    void (*hook)(void *, const struct combat_state *, size_t), void *arg,
    int64_t *bad, char *why, size_t whysz);

/*
 * Which event of l an undo reverses: the one numbered seq, or with seq 0
 * the last one that is not undone, the start or an undo.  Returns its
 * index in l->ev, or -1 with why set: there is none, or it cannot be
 * undone (the start, an undo, one undone already).
 */
long ledger_undoable(const struct ledger *l, int64_t seq, char *why,
    size_t whysz);

#endif
