/*
 * db.h - the one way every tool opens and writes the refkit database:
 * where it lives, the checks before anything is touched, the schema and
 * its migrations, keys, and transactions, which record every write's
 * changes.  The top of the database module (db/db.c).
 */
#ifndef REFKIT_DB_H
#define REFKIT_DB_H

#include <stddef.h>
#include <stdint.h>

/*
 * The layers under this one, which every includer of db.h sees: the
 * handle (struct db), what a refkit database is, the codes a statement
 * returns, the arithmetic of keys and the clock (db/db_base.h); then
 * statements, bulk loads and the single failure handler, the same on
 * both backends (db/db_stmt.h).
 */
#include "db/db_stmt.h"

struct db_rehearsal;

/*
 * The tables whose changes travel between stations.  The others are this
 * database's own: which station it is, the record of changes itself, and
 * what is derived from the logs (snapshots, histories), which each
 * station derives for itself.
 */
int db_table_travels(const char *table);

/*
 * The columns of table in this database, in their order: *names (the
 * caller frees each and the array) and *pk, each column's place in the
 * primary key, 1, 2 ..., or 0 (the caller frees it).  Returns how many,
 * 0 when there is no such table (then nothing is to be freed).  Each
 * backend reads its own catalog.
 */
int db_table_columns(struct db *db, const char *table, char ***names,
    unsigned char **pk);

/*
 * Returns the database path the tools use when --db is not given:
 * $REFKIT_DB, else $XDG_DATA_HOME/refkit/refkit.db, else
 * $HOME/.local/share/refkit/refkit.db.  The caller frees it.  *is_default
 * is set to 1 for the last two, whose directories db_open creates.
 */
char *db_default_path(int *is_default);

/* The longest station name, in bytes. */
#define STATION_NAME_MAX	64

/*
 * Names the station that db_open creates, with a new database or when it
 * migrates one made before stations: name (--station) if not NULL, else
 * $REFKIT_STATION, else the host name.  Call before db_open.
 */
void db_station_name(const char *name);

/*
 * Checks a station name: 1 to STATION_NAME_MAX bytes of UTF-8 on one
 * line, no space at either end.  Returns 0, or -1 with why set.
 */
int db_station_name_check(const char *s, char *why, size_t whysz);

/*
 * Keys as this station makes them and users see them.  A key is a
 * station's tag times 2^31 plus a number the station counts, or comes
 * from a record's name: db/db_base.h (DB_KEY_BITS, db_station_tag,
 * db_name_key).
 */
/* The longest key as text: "89abcdef-2147483647". */
#define DB_KEY_TEXT_MAX	24

/*
 * An INSERT's value for the id column of table (a literal): the next key
 * of this station in it.  Through SQL functions db_open registers.
 */
#define DB_NEW_KEY(table) \
	"(coalesce((SELECT id FROM " table " WHERE id BETWEEN" \
	" refkit_key_lo() AND refkit_key_hi() ORDER BY id DESC LIMIT 1)," \
	" refkit_key_lo() - 1) + 1)"
/* A WHERE term: id (a column) is this station's. */
#define DB_OWN_KEY(id) \
	"(" id " BETWEEN refkit_key_lo() AND refkit_key_hi())"

/*
 * Gives a record the key to instead of from, in the caller's write
 * transaction: for a rename.  sql (NULL at the end) is the record's
 * statements, with ?1 from and ?2 to: first a query that has a row when
 * another record has the key to already (then -1, nothing changed), then
 * the updates of every column that names it and of the record's own id.
 * Returns 0 or -1.
 */
int db_rekey(struct db *db, const char *const *sql, int64_t from,
    int64_t to);

/* This station's tag times 2^31: its keys are that plus 1, 2, 3 ... */
int64_t db_key_base(struct db *db);

/* Whether key was made by this station. */
int db_key_own(struct db *db, int64_t key);

/*
 * A key as users see and type it: this station's as its number ("3"),
 * another's as its tag in hex, a hyphen and its number ("89abcdef-3").
 * buf has DB_KEY_TEXT_MAX bytes; returns buf.
 */
const char *db_key_text(struct db *db, int64_t key, char *buf);

/* The same for JSON: a number for this station's keys, else a string. */
const char *db_key_json(struct db *db, int64_t key, char *buf);

/*
 * db_key_text and db_key_json into a small ring of buffers of their own,
 * so that one printf can show several keys.
 */
const char *db_key_str(struct db *db, int64_t key);
const char *db_key_jstr(struct db *db, int64_t key);

/*
 * The key that text (as db_key_text writes it) names, or 0 if text is
 * not one.  db may be NULL to check the form only (a number is then 1).
 */
int64_t db_key_parse(struct db *db, const char *text);

/*
 * Whether path names a database on a PostgreSQL server (a connection
 * string, as db_open takes it) rather than a file.
 */
int db_path_is_server(const char *path);

/*
 * Opens (creating if needed) the database at path, or at the default path
 * when path is NULL.  A path that is a PostgreSQL connection string
 * ("postgresql://...", "postgres://..." or libpq's "key=value ...") opens
 * that database on its server instead (db/dbpg.c), creating refkit's
 * schema in it when it is empty.  A path that is not a regular file (a device, a
 * FIFO, a socket, a directory, a symbolic link) is refused before SQLite
 * sees it, and nothing is created beside it.  A file that is not a refkit
 * database, or was written by a newer refkit, is refused untouched; an
 * older schema is migrated in one transaction; an existing empty file is
 * made a refkit database, with a note on stderr.  A database on a
 * read-only file system is opened for reading only (db->readonly), and
 * db_begin refuses to write to it.  Exits 1 with a message on any
 * failure.  Free the result with db_close.
 */
struct db *db_open(const char *path);

/*
 * Opens the database at path (NULL: the default path) for reading only,
 * and only if it is a refkit database of this build's schema, for shell
 * completion (term/complete.h): nothing is created, migrated or written
 * (a file is opened as it stands, a server's database by
 * dbpg_open_existing), no lock that writers take is taken, and no
 * message is printed.  Returns NULL, having changed nothing, for
 * anything else: no such file, not a regular one, another program's or
 * another version's, a server out of reach.  Free it with db_close.
 */
struct db *db_open_existing(const char *path);

/*
 * Makes db read-only for good, for a program that only reads but must
 * see every commit as it comes (refkit serve): SQLite's query_only, a
 * server session's default_transaction_read_only.  A write then fails
 * through the usual handler.
 */
void db_read_only(struct db *db);

/*
 * Rolls back what is still open and closes.  Exits 1 if closing fails,
 * which it does while a statement is left unfinalized.
 */
void db_close(struct db *db);

/*
 * Gives up db after a failure caught with db_catch_set (db_stmt.h):
 * every statement the interrupted code left open is finalized unseen,
 * the transaction rolled back, and db closed as db_close does.
 */
void db_abandon(struct db *db);

/*
 * From now on, a server's connection outlives db_close: it is rolled
 * back and kept, and the next db_open of the same address has it again,
 * without connecting or checking the schema anew (play's commands, run
 * one after another in one process, term/play.h).  A connection the
 * server has closed since, or one left inside a transaction, is let go
 * and db_open connects afresh.  A file's database is closed as before.
 */
void db_keep_connections(void);

/*
 * Reads what the kept connection still has on its way (a reader's end,
 * sent and not waited for), while the session waits for its next
 * command, and lets the connection go if it cannot serve again.
 */
void db_kept_settle(void);

/*
 * BEGIN IMMEDIATE (waiting up to the busy timeout for other writers),
 * COMMIT and ROLLBACK.  Failures of begin and commit are fatal.
 */
/*
 * Transactions.  db_begin starts a write transaction and records its
 * changes (SQLite's session extension, on the tables db_table_travels
 * names; on PostgreSQL the server's notes, tools/pgstation.sql); db_commit
 * stores them as one row of change, made by this station, in the same
 * transaction, unless there were none.  With db->unrecorded set,
 * db_begin records nothing: for applying another station's changes,
 * which come with their own rows of change.
 */
void db_begin(struct db *db);
/*
 * Stores the n bytes of changeset cs as this station's next change, as
 * db_commit stores a transaction's, inside the caller's write
 * transaction; for changes made without a session (a settlement of
 * conflicts, sync/exchange.c).  Returns the change's number (oseq).
 */
int64_t db_changes_record(struct db *db, const void *cs, size_t n);
/*
 * A write transaction that appends to one log that exists (a combat's
 * ledger, a duel's, a board's), as db_begin's in all else.  On SQLite it
 * is db_begin's.  On a server, writers that append to different logs go
 * on at once: each holds the writers' lock shared, where db_begin's
 * holders hold it alone, and the log's own lock (db_lock_log) from
 * before it reads the log until it commits; only the record of changes,
 * numbered in the order they commit, is written by one at a time.  Such
 * a transaction reads nothing that another appender writes but its log:
 * a command that checks another log (a character in another combat, a
 * flee's lockout) begins with db_begin.
 */
void db_begin_append(struct db *db);
/*
 * Takes the lock of log id of kind (its table's name) for the rest of an
 * append transaction, waiting for the appender that holds it; a no-op
 * in any other transaction and on SQLite.  core/journal.c takes it as it
 * reads a log; one append transaction appends to one log.
 */
void db_lock_log(struct db *db, const char *kind, int64_t id);
/*
 * The log picked ahead on the server (DB_PICKED, whose lock
 * db_lock_log had the server take) is log id of kind; 0: none was, and
 * no lock is held.
 */
void db_log_picked(struct db *db, const char *kind, int64_t id);
/*
 * Exits 1 (a refkit bug) unless the transaction may append to log id:
 * it is not an append transaction, or it holds that log's lock.
 */
void db_check_log(struct db *db, const char *kind, int64_t id);
/*
 * In an append transaction on a server, waits for the lock of new keys
 * and of the record of changes, which it then holds until it commits:
 * from its first new row on, appenders write one at a time, so that a
 * new row's key (DB_NEW_KEY) is the next.  A no-op elsewhere.
 */
void db_lock_keys(struct db *db);
/*
 * Stores the changes so far as a change of their own and goes on
 * recording: a write too large to hold in memory whole calls it every
 * few thousand rows.  The changes stay part of the transaction.
 */
void db_changes_flush(struct db *db);
/*
 * Runs st, an INSERT into table that returns every column of the rows it
 * adds (RETURNING them in the table's order, its primary key, alone,
 * first), and records those rows as one change of this station's, built
 * from what st returns rather than by the record a write transaction
 * keeps otherwise: a server notes each row there a value at a time
 * (tools/pgstation.sql), which for a bulk write costs many times the
 * write.  The changes recorded before come first.  st is stepped to its
 * end; returns the rows added.
 */
int64_t db_changes_insert(struct db *db, const char *table,
    struct db_stmt *st);
/*
 * A rehearsal, on SQLite only, for a large write that must hold the write
 * lock briefly: the write is made first, outside the lock, on copies of
 * the rows it changes, kept in an attached database (schema, such as a
 * private one of ATTACH ''), and its changes kept; under the lock the
 * rows the copies hold are written over the database's own, and the
 * changes kept are recorded (db_rehearsal_play).  db_rehearsal_start
 * records the changes then made to tables (NULL-terminated: tables of
 * the same names and columns as the database's own, in schema) as the
 * record of a write transaction would (db_begin); db_rehearsal_take
 * keeps those made so far as one changeset, in a table of schema's, and
 * goes on, as db_changes_flush does; db_rehearsal_stop takes the rest
 * and stops recording.  Free it with db_rehearsal_free, which keeps the
 * changesets until schema is detached.
 */
struct db_rehearsal *db_rehearsal_start(struct db *db, const char *schema,
    const char *const *tables);
void db_rehearsal_take(struct db_rehearsal *r);
void db_rehearsal_stop(struct db_rehearsal *r);
/*
 * Keeps, as the rehearsal's next changeset, the INSERT of each row st
 * reads (stepped to its end): new rows of table, their columns in the
 * table's order, the first its primary key, as db_changes_insert records
 * them.  For a write of new rows only that the caller can read before
 * it makes them, so that no copy need be written to record them; the
 * changes the session holds are kept first.  Returns the rows.
 */
int64_t db_rehearsal_keep(struct db_rehearsal *r, const char *table,
    struct db_stmt *st);
/*
 * The number of the newest change recorded (0 with none): taken in a
 * read transaction before the rows a rehearsal is made from are read,
 * so that db_rehearsal_play can tell whether they were written since.
 */
int64_t db_changes_mark(struct db *db);
/*
 * In the write transaction of db_begin, before anything is written in
 * it: unless a change recorded after mark writes one of the tables watch
 * names (NULL-terminated), calls write(arg) with the record of the
 * transaction's rows paused, which writes the rows the rehearsal left
 * over the database's own, and then records the changesets kept as this
 * station's changes, as db_changes_flush would have recorded the same
 * writes.  Returns 0; or -1, having written and recorded nothing, when
 * such a change was found or write returned nonzero (it found the rows
 * not as they were rehearsed), the transaction then going on as before
 * the call.
 */
int db_rehearsal_play(struct db_rehearsal *r, int64_t mark,
    const char *const *watch, int (*write)(void *), void *arg);
/*
 * Outside any transaction, after db_rehearsal_stop: writes the bulk of
 * each large changeset kept into change_rest beforehand, each in a short
 * write transaction of its own where nothing reads it (refkit.db(5),
 * schema 17), so that db_rehearsal_play holds the write lock only for
 * the rows and a few bytes of each change.  A play that does not record
 * them (it returns -1) takes them out again in its transaction; an
 * import that never plays leaves them for the next to remove, an hour
 * later.  With no changeset that large, it writes nothing and takes no
 * write lock.
 */
void db_rehearsal_stage(struct db_rehearsal *r);
void db_rehearsal_free(struct db_rehearsal *r);
/*
 * A change's changeset, from a row of a query over DB_CHANGE_ROWS that
 * selects c.data as column col and r.data as column rest: a large one
 * keeps its bytes past the first few in change_rest (refkit.db(5),
 * schema 17).  Returns its bytes, n of them, which the statement holds
 * until its next step, or else *owned, which the caller frees.
 */
#define DB_CHANGE_ROWS	"change c LEFT JOIN change_rest r ON r.id = c.rest"
const void *db_change_data(struct db_stmt *st, int col, int rest, size_t *n,
    void **owned);
/* A read transaction, so that several queries see one state. */
void db_begin_read(struct db *db);
void db_commit(struct db *db);
/* db_rollback is db/db_stmt.h's, the failure handler's first step. */

/*
 * A number that changes when another connection commits a write to the
 * database, for a reader that watches it (term/watch.h): SQLite's PRAGMA
 * data_version, a server database's newest change.  Outside a
 * transaction.
 */
int64_t db_data_version(struct db *db);
/*
 * On a server, a descriptor that is readable when another connection may
 * have committed a change (PostgreSQL's LISTEN; db_changed says whether
 * one did); -1 on SQLite, whose readers poll db_data_version.  Outside a
 * transaction.
 */
int db_watch_fd(struct db *db);
/*
 * On a server, 1 if a change was committed since the last call (or the
 * connection was lost: the next statement says so), else 0.
 */
int db_changed(struct db *db);

/*
 * On a server, ends the load b, which has a keycol, by writing the
 * first ncols values of its rows into table (columns, its names there)
 * instead of b's own table, in the caller's write transaction, in the
 * order of the keycol, which must be the first column and table's
 * primary key, and whose values must be unique.  Each chunk rows are
 * recorded as one change of this station's, built from the values given
 * as db_changes_insert builds it from the rows an INSERT returns, not by
 * the server's notes; the changes recorded before come first.  Those
 * values must then be the row's own: every column of table, in its
 * order.  Returns the rows written; a row the table refuses is fatal.
 * Frees b.
 */
int64_t db_bulk_insert(struct db_bulk *b, const char *table,
    const char *columns, int ncols, long chunk);

/*
 * schema.sql, generated by the build (schema.c, tools/embed-sql.sh):
 * db_schema_sql is what a new database runs; db_schema_step[v] brings a
 * database at version v - 1 to v, for v from 2 to DB_SCHEMA_VERSION (the
 * parts of schema.sql marked "-- @since v" and "-- @migrate v").
 */
extern const char db_schema_sql[];
extern const char *const db_schema_step[DB_SCHEMA_VERSION + 1];

/*
 * db_schema_sql again, a part per section of schema.sql with the version
 * that added it (0: the PRAGMAs before the first), ended by a NULL sql:
 * the parts up to version v are what a new database of version v ran,
 * as long as no later step rebuilt one of its tables.  Only in
 * build/pgschema, which writes an older version's schema for a server
 * (build/schema-parts.c, from tools/embed-sql.sh --parts).
 */
struct db_schema_part {
	int		 since;
	const char	*sql;
};
extern const struct db_schema_part db_schema_parts[];

/*
 * A new in-memory database holding this build's schema (db_schema_sql),
 * with stand-ins for the functions schema.sql calls, so that the layout
 * of its tables can be read without a refkit database (refkit changes
 * show takes column names from it).  The caller closes it with
 * sqlite3_close.  Returns NULL with why set on failure.
 */
struct sqlite3 *db_schema_memory(char *why, size_t whysz);

/* The same, holding what sql makes instead. */
struct sqlite3 *db_schema_memory_of(const char *sql, char *why,
    size_t whysz);

#endif
