/*
 * db.h - the one way every tool opens and writes the refkit database:
 * where it lives, the checks before anything is touched, the schema and
 * its migrations, transactions, and the single SQLite failure handler.
 */
#ifndef REFKIT_DB_H
#define REFKIT_DB_H

#include <stddef.h>
#include <stdint.h>

/* The schema this build writes (schema.sql's user_version). */
#define DB_SCHEMA_VERSION	14
/* PRAGMA application_id of a refkit database: "RFKT". */
#define DB_APPLICATION_ID	0x52464b54

struct sqlite3;
struct sqlite3_session;

/*
 * An open database.  The rules and storage modules see only its path and
 * the functions below; h and session are SQLite's, for the station
 * machinery (core/exchange, core/gone), which includes sqlite3.h itself.
 */
struct db {
	struct sqlite3 *h;
	char	*path;		/* owned */
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
	int	 appending;	/* the transaction is db_begin_append's */
	int64_t	 log_lock;	/* the log it locked (db_lock_log), or 0 */
	int	 keys_lock;	/* it holds the lock of new keys and changes */
};

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
 * Keys.  A record that more than one station can create (a character, an
 * item, a power, a combat and its events, a duel, a game, a D6 roll ...)
 * has an id unique across stations: the station's tag times 2^31 plus a
 * number the station counts 1, 2, 3 ... per table.  The tag is the first
 * 32 bits of the station's id with the top one set (a new station's id
 * has it set already, so the tag is its first eight hex digits), which
 * puts every key in [2^62, 2^63).  Two stations whose tags agree cannot
 * be merged; refkit(1) says so.  See refkit.db(5).
 */
#define DB_KEY_BITS	31
#define DB_KEY_MAX_NO	((INT64_C(1) << DB_KEY_BITS) - 1)
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

/* The tag of the station whose id (32 hex digits) is given, or 0. */
int64_t db_station_tag(const char *id);

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
 * that database on its server instead (core/dbpg.c), creating refkit's
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
 * Rolls back what is still open and closes.  Exits 1 if closing fails,
 * which it does while a statement is left unfinalized.
 */
void db_close(struct db *db);

/*
 * BEGIN IMMEDIATE (waiting up to the busy timeout for other writers),
 * COMMIT and ROLLBACK.  Failures of begin and commit are fatal.
 */
/*
 * Transactions.  db_begin starts a write transaction and records its
 * changes (SQLite's session extension, on the tables db_table_travels
 * names; on PostgreSQL the server's notes, core/pgrecord.h); db_commit
 * stores them as one row of change, made by this station, in the same
 * transaction, unless there were none.  With db->unrecorded set,
 * db_begin records nothing: for applying another station's changes,
 * which come with their own rows of change.
 */
void db_begin(struct db *db);
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
struct db_stmt;
int64_t db_changes_insert(struct db *db, const char *table,
    struct db_stmt *st);
/* A read transaction, so that several queries see one state. */
void db_begin_read(struct db *db);
void db_commit(struct db *db);
void db_rollback(struct db *db);

/*
 * Statements.  Every query goes through these, never through a database
 * library's own calls, so that the code above does not know which
 * library holds the database.  Parameters are numbered from 1 and
 * written ?1, ?2 ... in the SQL; columns are numbered from 0.
 */
struct db_stmt;

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

/* Prepares sql; fatal on failure.  The caller finalizes the statement. */
struct db_stmt *db_prepare(struct db *db, const char *sql);

/* Frees a statement; NULL is allowed. */
void db_finalize(struct db_stmt *st);

/* Makes a statement ready to run again; its bindings stay. */
void db_reset(struct db_stmt *st);

/* Sets every parameter back to NULL. */
void db_clear(struct db_stmt *st);

/*
 * Steps st.  Returns DB_ROW or DB_DONE; a constraint failure returns
 * DB_CONSTRAINT when allow_constraint is set (the statement is reset);
 * anything else is fatal.
 */
int db_step(struct db *db, struct db_stmt *st, int allow_constraint);

/* The number of the largest parameter in the statement's SQL. */
int db_bind_count(struct db_stmt *st);

/*
 * Binding parameter i.  Text and blobs are not copied: they must stay
 * as they are until the statement is stepped to its end, reset or
 * finalized; db_bind_text_copy copies.  A NULL string binds NULL.
 */
void db_bind_int(struct db_stmt *st, int i, int64_t v);
void db_bind_double(struct db_stmt *st, int i, double v);
void db_bind_null(struct db_stmt *st, int i);
void db_bind_text(struct db_stmt *st, int i, const char *s);
void db_bind_textn(struct db_stmt *st, int i, const char *s, int n);
void db_bind_text_copy(struct db_stmt *st, int i, const char *s);
void db_bind_blob(struct db_stmt *st, int i, const void *p, int n);

/*
 * Column i of the current row.  db_column_int of NULL is 0; a blob is
 * valid until the next step, reset or finalize.
 */
int db_column_count(struct db_stmt *st);
int64_t db_column_int(struct db_stmt *st, int i);
double db_column_double(struct db_stmt *st, int i);
int db_column_type(struct db_stmt *st, int i);
const void *db_column_blob(struct db_stmt *st, int i);
int db_column_bytes(struct db_stmt *st, int i);

/*
 * Column i of the current row as text owned by the statement (valid
 * until the next step, reset or finalize), or NULL.  Text with a NUL
 * inside, which C would read cut short, exits 1 as a damaged record.
 * Every text read goes through it.
 */
const char *db_column_text(struct db_stmt *st, int i);

/*
 * The same for a column of JSON text, which must also not hold the
 * escape \u0000: SQLite's JSON functions would cut the string there.
 */
const char *db_column_json(struct db_stmt *st, int i);

/* Column i of the current row as a string the caller frees, or NULL. */
char *db_column_dup(struct db_stmt *st, int i);

/* The number of rows the last INSERT, UPDATE or DELETE changed. */
int64_t db_changes(struct db *db);

/*
 * Runs sql, one or more statements without parameters; fatal with what
 * on failure.
 */
void db_exec(struct db *db, const char *sql, const char *what);

/*
 * The single failure handler: rolls back any open transaction, prints
 * "PROG: WHAT: THE LIBRARY'S MESSAGE" and exits 1.
 */
void db_fatal(struct db *db, const char *what)
    __attribute__((noreturn));

/*
 * For a refused command inside a transaction: rolls back, prints the
 * formatted message like errx(3) and exits 1.
 */
void db_die(struct db *db, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3)));

/*
 * Bulk loading: many rows into one table, far quicker than an INSERT a
 * row.  db_bulk_begin names the table and its columns (refkit's own SQL
 * text, a comma-separated list of ncols names); each row is then given
 * as ncols values in that order, which are copied.  On SQLite the rows
 * go in by INSERTs of many rows at a time, and other statements may run
 * between them (db_bulk_flush first, to read the rows back); on a server
 * they go in by COPY, which keeps the connection to itself until
 * db_bulk_end, so no other statement may run meanwhile
 * (db_bulk_exclusive).  A row the table refuses is fatal, at the latest
 * at db_bulk_end.
 *
 * keycol, when not -1, is a column of integers (from 0) by which the rows
 * may be put in order: a server then gets them sorted by it, in a file of
 * runs beside the process (core/extsort.h) so that memory stays flat, and
 * keeps a table whose primary key comes in that order far more cheaply.
 * Which order they reach the table in is then not to be relied on.  Such
 * a load is sent whole at db_bulk_end, and holds the connection only
 * then: several can be open at once, ended one after the other.
 */
struct db_bulk;

/* Starts a bulk load; fatal on failure.  Ended by db_bulk_end or _free. */
struct db_bulk *db_bulk_begin(struct db *db, const char *table,
    const char *columns, int ncols, int keycol);
void db_bulk_int(struct db_bulk *b, int64_t v);
void db_bulk_null(struct db_bulk *b);
/* A NULL string is NULL. */
void db_bulk_text(struct db_bulk *b, const char *s);
/* Writes the rows held so far; a row must not be half given. */
void db_bulk_flush(struct db_bulk *b);
/* Writes every row and ends the load; NULL is allowed. */
void db_bulk_end(struct db_bulk *b);
/* Ends the load, throwing away the rows not yet written; NULL allowed. */
void db_bulk_free(struct db_bulk *b);

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
 * Whether a bulk load's rows cannot be read, nor (without a keycol) other
 * statements run, before db_bulk_end: a server's COPY.  A caller that
 * looks rows up as it loads others must then check them afterwards
 * instead, set-based; on a server a look-up a row would cost a round
 * trip anyway.
 */
int db_bulk_exclusive(struct db *db);

/*
 * Runs the one statement sql with ?1 bound to text (NULL for none).
 * Returns the first column of its first row as an integer, or for a
 * statement that returns no row the number of rows it changed.
 */
int64_t db_run_text(struct db *db, const char *sql, const char *text);

/* The current time as stored in the database: Unix time in seconds. */
int64_t db_now(void);

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
