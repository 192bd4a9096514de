/*
 * db_stmt.h - the statement layer of the database module: statements,
 * bulk loads and the single failure handler, the same on SQLite and on
 * a PostgreSQL server (db/dbpg.h, below it).  db/db.h opens the
 * database and makes every write a transaction, over it.
 */
#ifndef REFKIT_DB_STMT_H
#define REFKIT_DB_STMT_H

#include <stddef.h>
#include <stdint.h>

#include "db/db_base.h"

/*
 * Statements.  Every query goes through these, never through a database
 * library's own calls, so that the code above does not know which
 * library holds the database.  Parameters are numbered from 1 and
 * written ?1, ?2 ... in the SQL; columns are numbered from 0.  What
 * db_step and db_column_type return is in db/db_base.h.
 */
struct db_stmt;

/* Prepares sql; fatal on failure.  The caller finalizes the statement. */
struct db_stmt *db_prepare(struct db *db, const char *sql);
/*
 * A statement of no table, only SQL's own functions (JSON's, to read a
 * value apart), run in this process: on SQLite on db's connection, on a
 * server on a private in-memory SQLite one (closed by db_close), so that
 * taking a value apart costs no round trip to the server.
 */
struct db_stmt *db_prepare_local(struct db *db, const char *sql);

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

/*
 * Runs st, a write whose rows (if any) and count of changes nobody
 * reads, to its end; any failure is fatal.  On SQLite it runs now; on a
 * server it is sent and not waited for: it goes in the round trip of the
 * next statement that is read, or of the COMMIT, and a failure is
 * reported there.  The bindings may change as soon as it returns.
 */
void db_send(struct db *db, struct db_stmt *st);

/*
 * Asks st's question ahead of its answer: on a server it is sent now and
 * its result read in one round trip with whatever is read next, so that
 * questions that do not depend on each other cost one trip together;
 * db_step then reads its rows as usual.  On SQLite it runs at db_step.
 * st must not be bound again before it is stepped.
 */
void db_ask(struct db *db, struct db_stmt *st);

/*
 * A question asked ahead (db_ask) by one module for another, which reads
 * the answer later in the same transaction: db_asked_keep keeps st (the
 * database's from then on) under tag and log; db_asked_take gives it
 * back, asked and not yet stepped, to the code that would have asked it
 * itself, or NULL (asked in another transaction, never asked, or on
 * SQLite, where asking ahead saves nothing: st is finalized there).
 * db_in_write says whether the transaction begun last writes: only a
 * writer's questions are worth asking ahead.
 */
void db_asked_keep(struct db *db, const char *tag, int64_t log,
    struct db_stmt *st);
struct db_stmt *db_asked_take(struct db *db, const char *tag, int64_t log);
void db_asked_drop(struct db *db);
/* The questions kept under log from are now log to's (a log picked ahead). */
void db_asked_retag(struct db *db, int64_t from, int64_t to);
int db_in_write(struct db *db);
/* 1 on a server (PostgreSQL), 0 on SQLite. */
int db_on_server(struct db *db);

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
 * Column i's type and value at once: i for an integer (0 otherwise), p
 * and len for a text's or a blob's bytes (NULL and 0 otherwise), valid
 * as db_column_blob's are.
 */
struct db_cell {
	int		 type;
	int64_t		 i;
	const void	*p;
	int		 len;
};
void db_column_cell(struct db_stmt *st, int i, struct db_cell *c);
/*
 * What column i of st's table holds as declared: DB_INTEGER, DB_TEXT,
 * DB_BLOB, or DB_NULL for another type or none; known before any row.
 */
int db_column_declared(struct db_stmt *st, int i);
/*
 * Parameter i (from 1) of st as it was bound, in *c, its text or bytes
 * the statement's until it is bound again: 0, or -1 where the backend
 * does not say (SQLite).  An integer bound on a server comes back as
 * one, text as text.
 */
int db_bound_cell(struct db_stmt *st, int i, struct db_cell *c);
/* Column i's name, as the statement gives it. */
const char *db_column_name(struct db_stmt *st, int i);

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

/*
 * Steps st (prepared and bound) to its end, calling fn with the text of
 * its first column in each row that has one (valid during the call
 * only), and finalizes it: a list of names.
 */
void db_each_text(struct db *db, struct db_stmt *st,
    void (*fn)(void *, const char *), void *arg);

/* The number of rows the last INSERT, UPDATE or DELETE changed. */
int64_t db_changes(struct db *db);

/*
 * Runs sql, one or more statements without parameters; fatal with what
 * on failure.
 */
void db_exec(struct db *db, const char *sql, const char *what);

/*
 * Runs the one statement sql with ?1 bound to text (NULL for none).
 * Returns the first column of its first row as an integer, or for a
 * statement that returns no row the number of rows it changed.
 */
int64_t db_run_text(struct db *db, const char *sql, const char *text);

/*
 * Rolls back the open transaction, if any, and throws away what it
 * recorded of its changes (db_begin, db.h); a no-op outside one.
 */
void db_rollback(struct db *db);

/*
 * The single failure handler: rolls back any open transaction, prints
 * "PROG: WHAT: THE LIBRARY'S MESSAGE" and exits 1.
 */
void db_fatal(struct db *db, const char *what)
    __attribute__((noreturn));

/*
 * For a refused command inside a transaction: rolls back, prints the
 * formatted message like errx(3) and exits 1.  Once a command knows the
 * log it works on, the message begins with it (db_subject).
 */
void db_die(struct db *db, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3)));

/*
 * What every later db_die message is about, WHAT and KEY ("combat",
 * "7" for "combat 7"), put before it with a colon; WHAT NULL for
 * nothing.  The text is copied (and cut).
 */
void db_subject(struct db *db, const char *what, const char *key);

/*
 * The database library's message for the last failure, as db_fatal
 * prints it, made plain for a GM: the system's reason for an I/O
 * failure, and what a lock that outlasted the busy timeout means.  The
 * caller frees it.
 */
char *db_errmsg(struct db *db);

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
 * runs beside the process (db/extsort.h) so that memory stays flat, and
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
 * Whether a bulk load's rows cannot be read, nor (without a keycol) other
 * statements run, before db_bulk_end: a server's COPY.  A caller that
 * looks rows up as it loads others must then check them afterwards
 * instead, set-based; on a server a look-up a row would cost a round
 * trip anyway.
 */
int db_bulk_exclusive(struct db *db);

/*
 * For db_bulk_insert (db.h), which ends a server's sorted load its own
 * way: the server's part of the load b, taken out of it (b is then for
 * db_bulk_free alone), with *db set to b's database.  Exits 1 (a refkit
 * bug) when b is not a server's load.
 */
struct pg_bulk *db_bulk_take(struct db_bulk *b, struct db **db);

#endif
