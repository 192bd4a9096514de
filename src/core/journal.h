/*
 * journal.h - append-only event logs, the machinery every ledger shares.
 *
 * A log (a combat, a duel, a game) is a row of its kind's log table, and
 * its events are rows of the kind's event table, numbered 1, 2, 3 ... per
 * log with no gaps and never changed once written.  An undo is an event
 * too: its undoes column names the seq it reverses, and an undo is never
 * itself undone.  A log's state is not stored: it is derived by running
 * its events again in order, passing over the undone ones and the undos.
 *
 * The journal owns the keys and the order: which log an event belongs
 * to, its seq, which events an undo reverses.  A kind (struct
 * journal_kind) owns the rest of an event, its body: the columns it
 * stores, how a row becomes a body and a body becomes a row.
 *
 * Keys.  A log is known by its rowid in this database and an event by
 * (log, seq), and every read or write of those keys is made here.  A
 * later key unique across machines (a station part and this local part)
 * is therefore added in this module and in schema.sql, and no ledger
 * body or rule changes with it.
 *
 * Writers run inside the caller's write transaction (db_begin), which
 * is what keeps seq gapless among many processes: the next seq is read
 * and written under one lock.
 *
 * The D6 System's roll record (d6_roll, d6/d6store.c) is not a journal:
 * its rows are independent rolls, none is ever undone, and no state is
 * derived by running them again.
 */
#ifndef REFKIT_JOURNAL_H
#define REFKIT_JOURNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/db.h"

/* What the journal needs to know of one kind of log. */
struct journal_kind {
	const char	*what;		/* "combat": for messages */
	const char	*logs;		/* the table of logs */
	const char	*events;	/* the table of their events */
	const char	*key;		/* the event column naming the log */
	/*
	 * The body's columns, in the order read() reads and bind()
	 * binds them.  seq, undoes and the key are the journal's.
	 */
	const char	*cols;
	int		 ncols;
	/* What load selects for read(), if other than cols; may be NULL. */
	const char	*select;
	/* The log row's columns that head() reads; may be NULL. */
	const char	*head_cols;
	void		(*head)(void *ctx, sqlite3_stmt *st);
	size_t		 size;		/* of one body */
	/* Fills body from st's columns col, col + 1, ...; seq is set. */
	void		(*read)(void *ctx, sqlite3_stmt *st, int col,
			    int64_t seq, int64_t undoes, void *body);
	/* Binds body to st's parameters param, param + 1, ... */
	void		(*bind)(sqlite3_stmt *st, int param,
			    const void *body);
	/* Frees what a body owns (not the body itself). */
	void		(*release)(void *body);
};

/* A log as loaded: its events in seq order. */
struct journal {
	const struct journal_kind *kind;
	int64_t		 log;
	size_t		 n;
	void		*body;		/* n bodies of kind->size */
	int64_t		*seq;		/* each event's seq */
	int64_t		*undoes;	/* what an undo reverses, else 0 */
	int		*undone;	/* 1 where a later undo reverses it */
};

/*
 * SQL: true when event alias E of kind K is not reversed by an undo.
 * For queries across logs; K's tables are fixed names, never input.
 */
#define JOURNAL_LIVE(events, key, e) \
	" NOT EXISTS (SELECT 1 FROM " events " u_ WHERE u_." key " = " \
	e "." key " AND u_.undoes = " e ".seq)"

/* A log as a listing shows it; the strings live for the call only. */
struct journal_summary {
	int64_t		 id;
	const char	*a, *b;		/* the two sides */
	const char	*board;
	int		 count;		/* rounds, turns ... */
	const char	*ended, *winner; /* NULL while it runs */
};

/*
 * Runs query sql, whose columns are those of a journal_summary in order
 * and whose ?1 is bound to name (NULL for none), and calls fn for each
 * row.
 */
void journal_summaries(struct db *db, const char *sql, const char *name,
    void (*fn)(void *, const struct journal_summary *), void *arg);

/* The newest log of kind k, or 0. */
int64_t journal_latest(struct db *db, const struct journal_kind *k);

/*
 * Loads log id of kind k: its row, read through k->head, and every
 * event, read through k->read, both given ctx.  Returns 0, or -1 (j
 * empty) if there is no such log.  Release with journal_release.
 */
int journal_load(struct db *db, const struct journal_kind *k, int64_t id,
    void *ctx, struct journal *j);
void journal_release(struct journal *j);

/* Body i of j. */
void *journal_body(const struct journal *j, size_t i);

/*
 * Appends body to log id as its next seq, which it returns; undoes is
 * the seq an undo reverses, else 0.
 */
int64_t journal_append(struct db *db, const struct journal_kind *k,
    int64_t id, int64_t undoes, const void *body);

/*
 * The index of the newest event that is neither an undo nor undone (the
 * one an undo would reverse), or -1 if there is none.
 */
ptrdiff_t journal_undoable(const struct journal *j);

/*
 * Runs step on every event not undone and not an undo, in seq order.
 * Returns 0, or -1 when step refuses one, with *bad its seq (why is
 * step's).
 */
int journal_derive(const struct journal *j,
    int (*step)(void *arg, const void *body, char *why, size_t whysz),
    void *arg, int64_t *bad, char *why, size_t whysz);

/*
 * journal_derive, calling before(arg, i) ahead of every event i (an
 * undone one and an undo too), so that a caller can tell each event
 * from the state just before it, in the one replay.
 */
int journal_derive_each(const struct journal *j,
    int (*step)(void *arg, const void *body, char *why, size_t whysz),
    void (*before)(void *arg, size_t i), void *arg, int64_t *bad,
    char *why, size_t whysz);

/*
 * An event that stores the command's input as text, for the logs whose
 * state comes from applying the inputs again (Force Battles, Battle
 * Grounds).  Their event tables share one shape, each naming its round
 * column and its outcome column in its kind's cols:
 *   ROUND, action, actor, input, OUTCOME, ended, winner, seed, detail,
 *   time
 */
struct journal_event {
	int64_t		 seq, undoes, time;
	int		 round;		/* a round or a turn */
	char		*action, *actor, *input, *outcome, *ended, *winner;
	char		*seed, *detail;	/* all owned; some may be NULL */
};

#define JOURNAL_EVENT_COLS(round, outcome) \
	round ", action, actor, input, " outcome ", ended, winner, seed," \
	" detail, time"
#define JOURNAL_EVENT_NCOLS	10

/*
 * The kind of an input log; read and bind are journal_event's or wrap
 * them.
 */
#define JOURNAL_INPUT_KIND(what_, logs_, events_, key_, round, outcome, \
    read_, bind_, head_cols_, head_) { \
	.what = (what_), .logs = (logs_), .events = (events_), \
	.key = (key_), .cols = JOURNAL_EVENT_COLS(round, outcome), \
	.ncols = JOURNAL_EVENT_NCOLS, .size = sizeof(struct journal_event), \
	.read = (read_), .bind = (bind_), .release = journal_event_release, \
	.head_cols = (head_cols_), .head = (head_) }

void journal_event_read(void *ctx, sqlite3_stmt *st, int col, int64_t seq,
    int64_t undoes, void *body);
void journal_event_bind(sqlite3_stmt *st, int param, const void *body);
void journal_event_release(void *body);

/*
 * Checks a replayed event against the outcome it recorded: 0 if e's
 * outcome is now, else -1 with why "the SAID again, not the recorded
 * 'OUTCOME'".
 */
int journal_event_recheck(const struct journal_event *e, const char *now,
    const char *said, char *why, size_t whysz);

/*
 * Appends the undo of event i of input log j (round, seq and action
 * taken from it) at time now; returns the undo's seq.
 */
int64_t journal_event_undo(struct db *db, const struct journal *j, size_t i,
    int64_t now);

/*
 * Prints input log j on stdout as "log" shows it: a line an event, "SEQ  r3
 * ACTION  DETAIL" (round_mark 'r', the action padded to width), or with
 * json as {"KIND":ID,"events":[...]} naming the round round_key.
 */
void journal_event_print(const struct journal *j, int json,
    const char *round_key, char round_mark, int width);

#endif
