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
 * Keys.  A log is known by its key (db_base.h: unique across stations,
 * the station's tag and its own count) and an event by (log, seq); every
 * read or write of those keys is made here.  A log is appended to only
 * at the station that started it, so two stations never write the same
 * (log, seq), and merged ledgers never conflict.
 *
 * Writers run inside the caller's write transaction (db_begin), which
 * is what keeps seq gapless among many processes: the next seq is read
 * and written under one lock.
 *
 * The D6 System's roll record (d6_roll, d6/ledger.c) is not a journal:
 * its rows are independent rolls, none is ever undone, and no state is
 * derived by running them again.
 */
#ifndef REFKIT_JOURNAL_H
#define REFKIT_JOURNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "db/db.h"
#include "base/out.h"

/* What the journal needs to know of one kind of log. */
struct journal_kind {
	const char	*what;		/* "combat": for messages, and the
					   snapshot table's kind */
	/*
	 * Its statements, string literals that JOURNAL_SQL makes from the
	 * kind's table and column names at compile time: the SQL is never
	 * built at run time, and every value in it is bound.
	 */
	const char	*sql_latest;	/* the newest log's id */
	const char	*sql_head;	/* log ?1's row, for head() */
	const char	*sql_load;	/* log ?1's events after seq ?2 */
	const char	*sql_next;	/* log ?1's next seq */
	const char	*sql_insert;	/* an event: ?1 log, ?2 seq, ?3
					   undoes, then ncols body columns;
					   its row returned, to be hashed
					   (db/chain.h) */
	/*
	 * On a server (issue #40): the same insert with the event's key
	 * and hash as its last two parameters, known before it is sent
	 * (db/chain.h, chain_prehash), so that it needs no round trip of
	 * its own; the columns of sql_insert's parameters, in order; the
	 * event table's columns (no row); its next free key of this
	 * station's.
	 */
	const char	*sql_insert_hashed;
	const char	*insert_cols;
	const char	*sql_columns;
	const char	*sql_new_key;
	const char	*sql_target;	/* log ?1's newest live event */
	const char	*sql_snap;	/* its usable snapshots, newest first */
	const char	*sql_recent;	/* log ?1's events after its newest
					   usable snapshot (kind ?2, version
					   ?3, before seq ?4), in one query
					   with sql_snap's answer */
	const char	*sql_ids;	/* every log's id, in order */
	/*
	 * An input log's inputs as typed (JOURNAL_INPUT_KIND): per event,
	 * its seq and the text, for a seal's check (core/seal.h).
	 */
	const char	*sql_typed;
	int		 ncols;		/* the body's columns */
	void		(*head)(void *ctx, struct db_stmt *st);
	size_t		 size;		/* of one body */
	/* Fills body from st's columns col, col + 1, ...; seq is set. */
	void		(*read)(void *ctx, struct db_stmt *st, int col,
			    int64_t seq, int64_t undoes, void *body);
	/* Binds body to st's parameters param, param + 1, ... */
	void		(*bind)(struct db_stmt *st, int param,
			    const void *body);
	/* Frees what a body owns (not the body itself). */
	void		(*release)(void *body);
	/*
	 * Asks ahead (db_asked_keep) what an append to log id will read,
	 * when a writer loads the log: its questions go in the load's round
	 * trip on a server.  NULL: none.
	 */
	void		(*ask)(struct db *db, int64_t id);
	/*
	 * Snapshots (below): one after every snap_every-th event, 0 for
	 * none; snap_version names the state's byte form and the rules
	 * that derived it.
	 */
	int		 snap_every;
	int64_t		 snap_version;
	/*
	 * An input log's options that carry dice ("--hit", ...; NULL
	 * ends it): an event whose input has one and no seed rolled
	 * physical dice (journal_event_line).
	 */
	const char *const *dice;
	/*
	 * Whose log it is (issue #37): the option that names one
	 * ("--combat"), and the logs not ended, oldest first, ?1 bound to a
	 * GM's name, each row: its id; the newest of that GM's events in it
	 * (a number that orders them: the GM's latest act is the largest),
	 * or NULL; the GM who started it; its round or turn; its last
	 * event's action and actor; its sides, as "A, B".  sql_last_mine:
	 * the log, ended or not, of GM ?1's newest event, for a command
	 * that only reads.  sql_gm: the GM who started log ?1.
	 */
	const char	*option;
	const char	*sql_open;
	const char	*sql_last_mine;
	const char	*sql_gm;
	/*
	 * After another station's changes are taken in (refkit merge and
	 * changes apply, in their transaction), for a kind that derives
	 * more than its snapshots from its events (NULL otherwise): the
	 * rows of merge_table that came belong to the logs merge_rows
	 * gives for rowids ?1 to ?2, and merged(db, logs, n) derives that
	 * again for those logs; for all of them, merged(db, NULL, 0), when
	 * the changes removed or changed such a row.  After a merge that
	 * commits, clashes (NULL: none can be) calls fn(arg, name, a, b)
	 * for each record in two of the kind's logs a and b at once, and
	 * returns how many.
	 */
	const char	*merge_table;
	const char	*merge_rows;
	void		(*merged)(struct db *db, const int64_t *logs,
			    size_t n);
	int		(*clashes)(struct db *db, void (*fn)(void *,
			    const char *, int64_t, int64_t), void *arg);
	/*
	 * refkit verify: replays log through the kind's rules, calling
	 * bad(arg, seq, ran, why) for each event that does not run (ran 0)
	 * or does not come out as recorded (ran 1), and each snapshot that
	 * differs (ran 1); returns how many, or -1 when the log cannot be
	 * read.
	 */
	int		(*replay)(struct db *db, int64_t log, void (*bad)(
			    void *, int64_t, int, const char *), void *arg);
};

/*
 * For a kind whose audit calls bad(arg, seq, why) for an event that does
 * not come out as recorded: journal_bad_ran, given a struct journal_bad,
 * calls the replay's bad with ran 1.
 */
struct journal_bad {
	void	(*bad)(void *arg, int64_t seq, int ran, const char *why);
	void	*arg;
};
void journal_bad_ran(void *b, int64_t seq, const char *why);

/*
 * A kind's statements, from its log table, event table, the event
 * column naming the log, the log columns head() reads ("1" for none),
 * the event columns read() reads, the columns bind() binds and their
 * parameters ("?, ?, ..." as many as ncols).
 */
#define JOURNAL_SQL(logs, events, key, head_cols, select, cols, params) \
	.sql_latest = "SELECT coalesce(max(id), 0) FROM " logs \
	    " WHERE " DB_OWN_KEY("id"), \
	.sql_head = "SELECT " head_cols " FROM " logs " WHERE id = ?1", \
	.sql_load = "SELECT seq, undoes, " select " FROM " events \
	    " WHERE " key " = ?1 AND seq > ?2 ORDER BY seq", \
	.sql_next = "SELECT coalesce(max(seq), 0) + 1 FROM " events \
	    " WHERE " key " = ?1", \
	.sql_insert = "INSERT INTO " events " (id, " key ", seq, undoes, " \
	    cols ") VALUES (" DB_NEW_KEY(events) ", ?1, ?2, ?3, " params ")" \
	    " RETURNING *", \
	.sql_insert_hashed = "INSERT INTO " events " (" key ", seq, undoes, " \
	    cols ", id, hash) VALUES (?1, ?2, ?3, " params ", ?, ?)", \
	.insert_cols = key ", seq, undoes, " cols, \
	.sql_columns = "SELECT * FROM " events " LIMIT 0", \
	.sql_new_key = "SELECT " DB_NEW_KEY(events), \
	.sql_target = "SELECT coalesce(max(seq), 0) FROM " events " e" \
	    " WHERE e." key " = ?1 AND e.undoes IS NULL AND" \
	    JOURNAL_LIVE(events, key, "e"), \
	.sql_snap = "SELECT s.seq, s.state FROM snapshot s" \
	    " WHERE s.kind = ?1 AND s.log = ?2 AND s.version = ?3" \
	    " AND s.seq < ?4 AND NOT EXISTS (SELECT 1 FROM " events " u" \
	    " WHERE u." key " = ?2 AND u.seq > s.seq" \
	    " AND u.undoes <= s.seq) ORDER BY s.seq DESC", \
	.sql_recent = "SELECT seq, undoes, " select " FROM " events \
	    " WHERE " key " = ?1 AND seq > coalesce((SELECT s.seq" \
	    " FROM snapshot s WHERE s.kind = ?2 AND s.log = ?1" \
	    " AND s.version = ?3 AND s.seq < ?4 AND NOT EXISTS (SELECT 1" \
	    " FROM " events " u WHERE u." key " = ?1 AND u.seq > s.seq" \
	    " AND u.undoes <= s.seq) ORDER BY s.seq DESC LIMIT 1), 0)" \
	    " ORDER BY seq", \
	.sql_ids = "SELECT id FROM " logs " ORDER BY id"

/*
 * A kind's snap_version: its state's byte form (format), and a checksum
 * of the sources that derive the state (SNAP_RULES_SUM, which the
 * Makefile gives a game's ledger.c), so that a change of the rules
 * passes over every snapshot stored before it.
 */
#ifndef SNAP_RULES_SUM
#define SNAP_RULES_SUM		0
#endif
#define JOURNAL_SNAP_VERSION(format) \
	((int64_t)(format) << 32 | (int64_t)SNAP_RULES_SUM)

/*
 * A log as loaded: its events in seq order, all of them, or only those
 * after a snapshot (base > 0), whose state then stands for the ones
 * before.
 */
struct journal {
	const struct journal_kind *kind;
	int64_t		 log;
	char		 key_json[DB_KEY_TEXT_MAX];	/* log, for JSON */
	size_t		 n;
	void		*body;		/* n bodies of kind->size */
	int64_t		*seq;		/* each event's seq */
	int64_t		*undoes;	/* what an undo reverses, else 0 */
	int		*undone;	/* 1 where a later undo reverses it */
	int64_t		 base;		/* the snapshot's seq, or 0 */
	unsigned char	*snap;		/* the state after base, owned */
	size_t		 snaplen;
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

/* The newest log of kind k that this station started, or 0. */
int64_t journal_latest(struct db *db, const struct journal_kind *k);

/*
 * The ids of every log of kind k, in order: an array of *n, which the
 * caller frees (NULL when there are none).
 */
int64_t *journal_ids(struct db *db, const struct journal_kind *k, size_t *n);

/* A log not yet ended, as k->sql_open gives it. */
struct journal_open {
	int64_t		 log;
	int64_t		 mine;		/* the GM's latest act, 0 if none */
	char		*gm;		/* who started it, or NULL */
	int64_t		 round;
	char		*action, *actor;	/* its last event; NULL */
	char		*sides;		/* "A, B" */
};

/*
 * The logs of kind k not yet ended, oldest first, with gm's acts in
 * them; *n is set to their number.  The caller frees the array with
 * journal_open_free.
 */
struct journal_open *journal_open_list(struct db *db,
    const struct journal_kind *k, const char *gm, size_t *n);
void journal_open_free(struct journal_open *o, size_t n);

/*
 * Prints the logs of kind k not yet ended, oldest first, as a table, CSV
 * or JSON (fmt): the log's number, its GM, its round (or turn, named
 * round), its last event ("attack Fred") and its sides.
 */
void journal_open_print(struct db *db, const struct journal_kind *k,
    enum out_format fmt, const char *round);

/*
 * The log a command acts on when it names none (issue #37): of the logs
 * of kind k that this station started and that have not ended, the one
 * GM gm most recently started or acted in.  When gm has none, a command
 * that only reads (reading) takes the log of gm's newest act, ended or
 * not.  Returns the log, or 0 with why saying that gm has none and
 * listing the open logs with their numbers, sides and GMs, in one line.
 */
int64_t journal_pick(struct db *db, const struct journal_kind *k,
    const char *gm, int reading, char *why, size_t whysz);

/*
 * The same pick on a server, made by the server in the round trip that
 * reads the log (issue #40): asks it and returns DB_PICKED, which
 * journal_load_recent takes for the log picked and makes the log's key
 * once the answer is in (j->log); it returns JOURNAL_NONE when there was
 * none, and the command picks again the usual way (journal_pick) to say
 * why.  Returns 0, having asked nothing, on SQLite: pick the usual way.
 */
#define JOURNAL_NONE	(-2)
/*
 * For an undo on a server, log id's newest live event (k->sql_target)
 * picked in the round trip that reads the log: sent, under the log's
 * lock, and DB_PICKED_BEFORE returned, which journal_load_recent takes
 * for "before it" (the snapshot the undo needs); 0 on SQLite.  id may be
 * DB_PICKED.
 */
int64_t journal_target_ahead(struct db *db, const struct journal_kind *k,
    int64_t id);
int64_t journal_pick_ahead(struct db *db, const struct journal_kind *k,
    const char *gm, int reading);

/*
 * The log of kind k a command acts on: the one typed (a key as users
 * type it, cli_key_arg), else GM gm's (cli_gm, journal_pick; reading for
 * a command that only reads).  Neither is an error through db_die, which
 * says why (within 600 bytes: a refusal that lists eight logs).
 */
int64_t journal_log_id(struct db *db, const struct journal_kind *k,
    const char *typed, const char *gm, int reading);

/*
 * A tool's list: the open logs of kind k in the database at path (opened
 * with cli_db_open), in format fmt, round naming their count
 * (journal_open_print).
 */
void journal_list_path(const char *path, const struct journal_kind *k,
    enum out_format fmt, const char *round);

/*
 * For a play session (term/play.h): opens the database at path, and
 * writes into key, as users type it, the log of kind k that GM gm would
 * act on now (journal_pick).  Returns 0, or -1 when there is none.
 */
int journal_pin(const char *path, const struct journal_kind *k,
    const char *gm, char *key, size_t keysz);

/*
 * The GM who started log id of kind k (the first event's, or the one
 * recorded with the log), or NULL; the caller frees it.
 */
char *journal_gm(struct db *db, const struct journal_kind *k, int64_t id);

/*
 * Loads log id of kind k: its row, read through k->head, and every
 * event, read through k->read, both given ctx.  Returns 0, or -1 (j
 * empty) if there is no such log.  Release with journal_release.  id
 * may be DB_PICKED, as for journal_load_recent.
 */
int journal_load(struct db *db, const struct journal_kind *k, int64_t id,
    void *ctx, struct journal *j);
/*
 * The same from the newest snapshot usable for a state before seq
 * before (0: any; DB_PICKED_BEFORE: journal_target_ahead's): j->base is
 * its seq, j->snap its bytes, and j holds the events after it only.
 * Without one, the same as journal_load.  With id DB_PICKED (the log
 * journal_pick_ahead asked for), j->log is the log picked, or the
 * return is JOURNAL_NONE when none was.
 */
int journal_load_recent(struct db *db, const struct journal_kind *k,
    int64_t id, int64_t before, void *ctx, struct journal *j);
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
 * The seq the next event appended to log id will take, in the caller's
 * write transaction (which keeps it the next): for what derives from an
 * event's place before the event is run (a sealed draw, core/seal.h).
 */
int64_t journal_next_seq(struct db *db, const struct journal_kind *k,
    int64_t id);

/*
 * Per event of j, a text that query sql gives (its ?1 bound to j's log,
 * its rows seq and the text): an array of j->n strings, NULL where the
 * query gave none, owned, to free with journal_texts_free.
 */
char **journal_texts(struct db *db, const char *sql, const struct journal *j);
void journal_texts_free(char **t, size_t n);

/*
 * The seq of log id's newest event that is neither an undo nor undone,
 * or 0: what an undo reverses by default, to load the log from a
 * snapshot before it (journal_load_recent).
 */
int64_t journal_undo_target(struct db *db, const struct journal_kind *k,
    int64_t id);

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
 * Snapshots.  A log's state after event seq can be stored with it, so
 * that a command derives its state from the newest snapshot and the
 * events after it rather than from the first event.  A snapshot is a
 * cache, never a record: it is of one version of the kind's byte form
 * and rules (k->snap_version), and a snapshot of another version is
 * never used; an undo that reaches back past one drops it, as it
 * appends; replays derive from the first event and compare.  The table
 * is shared by every kind (snapshot in schema.sql).
 */

/* 1 if the state after event seq is due a snapshot. */
int journal_snapshot_due(const struct journal_kind *k, int64_t seq);

/*
 * Stores the state after event seq of log id (len bytes of state), in
 * the caller's write transaction, replacing one of another version.
 */
void journal_snapshot_put(struct db *db, const struct journal_kind *k,
    int64_t id, int64_t seq, const void *state, size_t len);

/* A stored snapshot, as journal_snapshots lists them. */
struct journal_snapshot {
	int64_t		 seq;
	unsigned char	*state;		/* owned */
	size_t		 len;
};

/*
 * The usable snapshots of log id (of k's version, no undo after them
 * reaching back past them), oldest first: *n of them, an array to free
 * with journal_snapshots_free.
 */
struct journal_snapshot *journal_snapshots(struct db *db,
    const struct journal_kind *k, int64_t id, size_t *n);
void journal_snapshots_free(struct journal_snapshot *s, size_t n);
/*
 * The same in two halves, so that a load's round trip brings them too:
 * the question asked (db_ask, after the log's lock), its answer read.
 */
struct db_stmt *journal_snapshots_ask(struct db *db,
    const struct journal_kind *k, int64_t id);
struct journal_snapshot *journal_snapshots_take(struct db *db,
    struct db_stmt *st, size_t *n);

/*
 * The rules of a kind whose state is derived by running its events
 * again, for the walks through a log that every such kind shares: the
 * snapshots (journal_snapshot_after), the audit (journal_audit) and, for
 * an input log, a seal's check (seal_input_check, core/seal.h).  A state
 * is an object the caller allocates and starts; the walks only run
 * events on it, pack it and copy it.
 */
struct pack;
struct rng;
struct journal_event;
struct journal_rules {
	const struct journal_kind *kind;
	size_t		 size;		/* of a state */
	size_t		 whysz;		/* of the kind's refusals */
	/* Runs one stored event again on state: 0, or -1 with why. */
	int		(*step)(void *state, const void *body, char *why,
			    size_t whysz);
	/* Appends state's byte form, its snapshot, to p. */
	void		(*pack)(const void *state, struct pack *p);
	/*
	 * 1: an event that does not run again is reported and the audit
	 * goes on past it; 0: the audit stops there, as what follows a
	 * broken event means nothing.
	 */
	int		 go_on;
	/*
	 * A log as the kind loads it whole (a struct of lsize bytes, with
	 * its journal): load fills lg and returns its journal, or NULL
	 * when there is no log id; start starts state for its first event
	 * (NULL: a state of zeros); release frees what lg owns.
	 */
	size_t		 lsize;
	const struct journal *(*load)(struct db *db, int64_t id, void *lg);
	void		(*start)(void *state, const void *lg);
	void		(*release)(void *lg);
	/* Makes dst a copy of src (NULL: a copy of its bytes will do). */
	void		(*copy)(void *dst, const void *src);
	/*
	 * An input log's event e run again on state from its input as
	 * typed, its dice drawn from rng: 0 with *canon its input as run
	 * (owned), or -1 with why.
	 */
	int		(*redraw)(void *state, const struct journal_event *e,
			    const char *typed, struct rng *rng, char **canon,
			    char *why, size_t whysz);
};

/* A log loaded whole for a walk, and a state started for it. */
struct journal_run {
	const struct journal_rules *r;
	void			*lg;	/* the kind's log, owned */
	const struct journal	*j;	/* its journal */
	void			*state;	/* owned */
};

/*
 * Loads log id of r's kind into run and starts its state.  Returns 0,
 * or -1 (run empty) when there is no such log.  Release with
 * journal_run_release.
 */
int journal_run_load(struct db *db, const struct journal_rules *r,
    int64_t id, struct journal_run *run);
void journal_run_release(struct journal_run *run);

/*
 * Stores state, packed by r->pack, as the snapshot after event seq of
 * log id, if seq is due one; in the caller's write transaction.
 */
void journal_snapshot_after(struct db *db, const struct journal_rules *r,
    int64_t id, int64_t seq, const void *state);

/*
 * Appends body to log id as its next seq, which it returns (no undo),
 * and stores state, the state after it, as journal_snapshot_after does.
 */
int64_t journal_append_state(struct db *db, const struct journal_rules *r,
    int64_t id, const void *body, const void *state);

/*
 * Runs every event of j (loaded whole) again on state, which the caller
 * has started, and compares each stored snapshot with the state it
 * reached; calls bad(arg, seq, why) for each event that does not run
 * (r->go_on) and each snapshot that differs or follows the last event.
 * Returns how many.
 */
int journal_audit(struct db *db, const struct journal_rules *r,
    const struct journal *j, void *state,
    void (*bad)(void *arg, int64_t seq, const char *why), void *arg);

/*
 * journal_audit of log id, loaded and started by r; adds its number of
 * events to *events (events may be NULL).  Returns -1 when there is no
 * such log.
 */
int journal_audit_log(struct db *db, const struct journal_rules *r,
    int64_t id, void (*bad)(void *arg, int64_t seq, const char *why),
    void *arg, int *events);

/*
 * An event that stores the command's input as text, for the logs whose
 * state comes from applying the inputs again (Force Battles, Battle
 * Grounds).  Their event tables share one shape, each naming its round
 * column and its outcome column in its kind's cols:
 *   ROUND, action, actor, input, OUTCOME, ended, winner, seed, detail,
 *   time, gm
 */
struct journal_event {
	int64_t		 seq, undoes, time;
	int		 round;		/* a round or a turn */
	char		*action, *actor, *input, *outcome, *ended, *winner;
	char		*seed, *detail;	/* all owned; some may be NULL */
	char		*gm;		/* who wrote it (schema 16), or NULL */
	/*
	 * A GM's ruling (core/ruling.h), kept in detail and read from it:
	 * its reason, and an adjust's changes ("ATT=+1"), or NULL.  An
	 * adjust is stored under one of the kind's own actions (its
	 * table's CHECK lists no other) and read back as "adjust".
	 */
	char		*ruling, *adjust;
};

#define JOURNAL_EVENT_COLS(round, outcome) \
	round ", action, actor, input, " outcome ", ended, winner, seed," \
	" detail, time, gm"
#define JOURNAL_EVENT_NCOLS	11

/*
 * The designated initializers of an input log's kind, for its
 * { ... } with its snapshot fields; read and bind are journal_event's or
 * wrap them.  All but the functions are string literals.
 */
#define JOURNAL_INPUT_KIND(what_, logs, events, key, round, outcome, \
    read_, bind_, head_cols, head_) \
	.what = (what_), \
	JOURNAL_SQL(logs, events, key, head_cols, \
	    JOURNAL_EVENT_COLS(round, outcome) ", json_extract(detail," \
	    " '$.ruling'), json_extract(detail, '$.adjust')", \
	    JOURNAL_EVENT_COLS(round, outcome), \
	    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?"), \
	.sql_typed = "SELECT seq, json_extract(detail, '$.typed') FROM " \
	    events " WHERE " key " = ?1 ORDER BY seq", \
	.ncols = JOURNAL_EVENT_NCOLS, .size = sizeof(struct journal_event), \
	.read = (read_), .bind = (bind_), .release = journal_event_release, \
	.head = (head_)

void journal_event_read(void *ctx, struct db_stmt *st, int col, int64_t seq,
    int64_t undoes, void *body);
void journal_event_bind(struct db_stmt *st, int param, const void *body);
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
 * taken from it) at time now, by GM gm; returns the undo's seq.
 */
int64_t journal_event_undo(struct db *db, const struct journal *j, size_t i,
    int64_t now, const char *gm);

/*
 * Prints input log j on stdout as "log" shows it: a line an event, "SEQ  r3
 * ACTION  DETAIL" (round_mark 'r', the action padded to width), or with
 * json as {"KIND":ID,"events":[...]} naming the round round_key.
 */
void journal_event_print(const struct journal *j, int json,
    const char *round_key, char round_mark, int width);
/*
 * Event i of j as journal_event_line words it, fitted to cols characters
 * (base/fit.h): first the dice note goes, then the round and the
 * padding beside the number and the action, then the actors' names are
 * cut to a unique prefix, then the start; ellipsis marks a cut.  The
 * caller owns it.
 */
char *journal_event_fit(const struct journal *j, size_t i, char round_mark,
    int width, int cols, const char *ellipsis);
/* Event i of j as a line of that log, without its newline, to fp. */
void journal_event_line(FILE *fp, const struct journal *j, size_t i,
    char round_mark, int width);

#endif
