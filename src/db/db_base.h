/*
 * db_base.h - what every layer of the database module shares, below
 * both backends: the handle of an open database, what a refkit database
 * is (its application id and schema version), the codes a statement
 * returns, the arithmetic of keys and the clock as stored.  The
 * statement layer is db/db_stmt.h, on db/dbpg.h; opening,
 * migrations, transactions and keys as users see them are db/db.h,
 * over it all.
 */
#ifndef REFKIT_DB_BASE_H
#define REFKIT_DB_BASE_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

/* The schema this build writes (schema.sql's user_version). */
#define DB_SCHEMA_VERSION	17
/* The version whose migration chains the events (db/chain.h). */
#define DB_SCHEMA_CHAINED	15
/* PRAGMA application_id of a refkit database: "RFKT". */
#define DB_APPLICATION_ID	0x52464b54

struct sqlite3;
struct sqlite3_session;
struct chain_columns;

/*
 * An open database.  The rules and storage modules see only its path and
 * the functions of db.h; h and session are SQLite's, for the station
 * machinery (sync/exchange, db/gone), which includes sqlite3.h itself.
 */
struct db {
	struct sqlite3 *h;
	char	*path;		/* owned */
	char	*given;		/* the address db_open was given (kept) */
	int	 readonly;	/* on a read-only file system: reads only */
	int	 was_empty;	/* an existing file of 0 bytes when opened */
	int	 busy_ms;	/* how long to wait for another's lock */
	int64_t	 busy_since;	/* when the current wait began, in ms */
	int64_t	 key_base;	/* this station's keys less their number */
	struct sqlite3_session *session; /* the write transaction's changes */
	int	 unrecorded;	/* db_begin records no changes (applying) */
	void	*pg;		/* libpq's connection, or NULL on SQLite */
	int64_t	 pg_changes;	/* the rows the last statement changed */
	int	 pg_recording;	/* the server notes this transaction's rows */
	struct pg_cache *pg_cache; /* statements prepared on the connection */
	struct sqlite3 *local;	/* on a server: db_prepare_local's, or NULL */
	int	 appending;	/* the transaction is db_begin_append's */
	int64_t	 log_lock;	/* the log it locked (db_lock_log), or 0;
				   DB_PICKED: the log picked ahead */
	int	 keys_lock;	/* it holds the lock of new keys and changes */
	char	 subject[64];	/* db_die's messages are about it, or "" */
	int	 migrating;	/* a migration's changes go by parts (db.c) */
	int64_t	 tx_no;		/* transactions begun: what the memo holds */
	int	 tx_write;	/* the last one begun writes */
	struct db_asked {	/* questions asked ahead (db_asked_keep) */
		const char	*tag;
		int64_t		 log, tx_no;
		struct db_stmt	*st;
	} asked[8];
	struct {		/* the next seq of the log last loaded */
		int64_t		 tx_no;	/* in this transaction, or stale */
		const void	*kind;	/* the journal kind */
		int64_t		 log, next;
	} next_seq;
	/*
	 * A server's writer hashing its events ahead (core/journal.c): the
	 * event table's columns, read once a connection's use (columns_of
	 * its question), and the next free key of that table in this
	 * transaction, which holds the lock of new keys.
	 */
	struct chain_columns *columns;
	const char *columns_of;
	struct {
		int64_t		 tx_no;
		const void	*kind;
		int64_t		 next;
	} next_key;
};

/*
 * A key that stands for the log a writer's command picked on the server
 * in the same round trip (core/journal.c, journal_pick_ahead): bound to
 * a statement on a server, it is the server's refkit_pick(); never a
 * record's key, never bound on SQLite.
 */
#define DB_PICKED	INT64_MIN
/*
 * The same for a seq picked on the server ahead of the read that needs
 * it (journal_target_ahead: an undo's target): its refkit_before().
 */
#define DB_PICKED_BEFORE	(INT64_MIN + 1)

/* What db_step returns. */
#define DB_ROW		100	/* a row is ready to read */
#define DB_DONE		101	/* the statement has run to its end */
#define DB_CONSTRAINT	19	/* refused by a constraint (if allowed) */

/* What db_column_type returns. */
#define DB_INTEGER	1
#define DB_FLOAT	2
#define DB_TEXT		3
#define DB_BLOB		4
#define DB_NULL		5

/*
 * Keys.  A record that more than one station can create (a character, an
 * item, a power, a combat and its events, a duel, a game, a D6 roll ...)
 * has an id unique across stations: the station's tag times 2^31 plus a
 * number the station counts 1, 2, 3 ... per table.  The tag is the first
 * 32 bits of the station's id with the top one set (a new station's id
 * has it set already, so the tag is its first eight hex digits), which
 * puts every key in [2^62, 2^63).  Two stations whose tags agree cannot
 * be merged; refkit(1) says so.  See refkit.db(5), and db.h for a key as
 * users see it.
 */
#define DB_KEY_BITS	31
#define DB_KEY_MAX_NO	((INT64_C(1) << DB_KEY_BITS) - 1)

/* The tag of the station whose id (32 hex digits) is given, or 0. */
int64_t db_station_tag(const char *id);

/*
 * A named record (a character, an item, a power, a D6 character, a
 * duelist, a team) is the same record wherever it is made: its key comes
 * from its name, 62 bits of its BLAKE2b hash with the bit 2^62 set, so
 * that two stations that add "Ann" give her the same key, and a merge
 * compares the two.  A rename gives the record its new name's key.  The
 * names that compare without case (duelists, teams) are hashed in lower
 * case.
 */
int64_t db_name_key(const char *name);
/* An SQL expression for the key of the name expression expr. */
#define DB_NAME_KEY(expr)	"refkit_name_key(" expr ")"

/* The current time as stored in the database: Unix time in seconds. */
int64_t db_now(void);

/*
 * A program that must outlive a failed read (refkit serve: a page that
 * cannot be drawn says why, with 503, and the next one is tried) sets a
 * catch around it on its thread.  While one is set, a failure that
 * would exit 1 (db_fatal and db_die of db/db_stmt.h, a server's
 * refusal, a lost or refused connection, a damaged record) rolls back
 * as ever, keeps its message in msg, clears the catch and returns to
 * env's setjmp with 1.  What the
 * interrupted code had allocated is lost; so is the connection's state:
 * the caller gives it up with db_abandon (db.h) and opens another.
 */
struct db_catch {
	jmp_buf	 env;
	char	 msg[512];
};
/* Sets c as this thread's catch; NULL clears it. */
void db_catch_set(struct db_catch *c);
/*
 * The end of every failure: to the catch, if one is set, with the
 * formatted message; else printed like errx(3), exiting 1.
 */
void db_fail(const char *fmt, ...)
    __attribute__((noreturn, format(printf, 1, 2)));
/* The same with the message made: msg, allocated, which it frees. */
void db_fail_msg(char *msg) __attribute__((noreturn));

#endif
