/*
 * dbpg.h - the PostgreSQL backend of the database layer, private to it:
 * under the statement layer (db/db_stmt.c), which hands it a
 * statement on a server, and db/db.c, which opens a server's database
 * and runs its transactions.  Of the database module it uses
 * db/db_base.h alone.  libpq is loaded when a database is first named
 * by a PostgreSQL connection string, so that a tool working on an SQLite
 * file never pays for loading it (see dbpg.c).
 */
#ifndef REFKIT_DBPG_H
#define REFKIT_DBPG_H

#include <stddef.h>
#include <stdint.h>

struct db;
struct pg_stmt;
struct db_cell;

/*
 * Whether s names a PostgreSQL database: a "postgresql://" or
 * "postgres://" URI, or a libpq key=value connection string (its first
 * word is "keyword=").
 */
int dbpg_is_conninfo(const char *s);

/*
 * The functions of refkit's own that a migration step calls
 * (dbpg_client_fn), each under its name in SQL, which on SQLite db_open
 * registers on the connection as SQL functions, and on a server hands
 * to dbpg_open, which calls them for each row of the step's SELECT:
 * refkit_gone_note(origin, oseq, changeset) is gone_note (db/gone.h).
 */
struct dbpg_client {
	int	(*refkit_gone_note)(struct db *db, const char *origin,
		    int64_t oseq, const void *cs, size_t len);
	int	(*refkit_chain_log)(struct db *db, const char *kind,
		    int64_t log);
	/*
	 * Stores what the open transaction changed, as recorded so far, as
	 * this station's next change (the hashes of the migration to 15,
	 * which a station that takes those events later must get).
	 */
	void	(*record_store)(struct db *db);
};

/*
 * Connects to the server s names, checks what the database holds, and
 * creates refkit's schema in an empty one or migrates an older one
 * (through client's functions); exits 1 with one line on any failure.
 * A new database's station takes the name station_name.  Sets db->pg,
 * and db->path to the database as messages name it (no password).
 */
void dbpg_open(struct db *db, const char *station_name,
    const struct dbpg_client *client);
/*
 * The same for reading alone (db_open_existing): connects, and keeps
 * the connection only if the database is refkit's at this build's
 * schema, found by one query that takes no lock; creates, migrates and
 * prints nothing.  Returns 0 with db->pg set, or -1.
 */
int dbpg_open_existing(struct db *db);
void dbpg_close(struct db *db);

/*
 * A connection kept between commands (db_keep_connections): dbpg_idle
 * says whether it is open and outside any transaction of refkit's (a
 * reader's end may still be on its way).  dbpg_reusable says whether
 * it can serve another command.  With settle, it reads that end (a
 * round trip, made while the session waits for its GM) and checks that
 * the server has not closed the connection since, which anything it
 * sent unasked shows; without, a connection whose reader's end is still
 * on its way is taken as it is, the end to come with the next answer.
 * Neither exits.
 */
int dbpg_idle(struct db *db);
int dbpg_reusable(struct db *db, int settle);

/*
 * Transactions: db_begin and the rest, on the server.  A write
 * transaction begun with record set has the server note the rows it
 * changes (tools/pgstation.sql).
 */
void dbpg_begin(struct db *db, int record, int shared);
/*
 * Takes advisory lock key for the transaction: a log's
 * (db_lock_log), or the lock of the record of changes (shared set: the
 * transaction holds the writers' lock shared).
 */
void dbpg_lock(struct db *db, int64_t key);
/*
 * Listens for the notice a commit that records a change sends
 * (tools/pgstation.sql); returns the connection's socket, which is
 * readable when one may have come.  Outside a transaction.
 */
int dbpg_listen(struct db *db);
/* How many notices came since the last call; -1: the connection is lost. */
int dbpg_notified(struct db *db);
/* The advisory lock of the record of changes ("RFKC"). */
#define DBPG_CHANGES_LOCK	INT64_C(1380338499)
void dbpg_begin_read(struct db *db);
void dbpg_commit(struct db *db);
void dbpg_rollback(struct db *db);
int dbpg_in_transaction(struct db *db);
/*
 * Whether this station has a change of its own on record (read as the
 * connection opened, or since committed by it), after which a writer's
 * changes are stored by the server (refkit_store, tools/pgstation.sql)
 * with its COMMIT; and, before that commit, that the transaction stores
 * one.  A station's first change carries its own row, which the client
 * adds (db.c).
 */
int dbpg_station_started(struct db *db);
void dbpg_station_starts(struct db *db);

/* The server's message for the last failure; the caller frees it. */
char *dbpg_errmsg(struct db *db);

void dbpg_exec(struct db *db, const char *sql, const char *what);

/* Statements, as db_stmt.h's. */
struct pg_stmt *dbpg_prepare(struct db *db, const char *sql);
void dbpg_finalize(struct pg_stmt *p);
void dbpg_reset(struct pg_stmt *p);
void dbpg_clear(struct pg_stmt *p);
int dbpg_step(struct db *db, struct pg_stmt *p, int allow_constraint);
void dbpg_send(struct db *db, struct pg_stmt *p);
void dbpg_ask(struct db *db, struct pg_stmt *p);
int dbpg_bind_count(struct pg_stmt *p);
void dbpg_bind_int(struct pg_stmt *p, int i, int64_t v);
void dbpg_bind_double(struct pg_stmt *p, int i, double v);
void dbpg_bind_null(struct pg_stmt *p, int i);
void dbpg_bind_text(struct pg_stmt *p, int i, const char *s, int n,
    int copy);
void dbpg_bind_blob(struct pg_stmt *p, int i, const void *v, int n);
int dbpg_column_count(struct pg_stmt *p);
int64_t dbpg_column_int(struct pg_stmt *p, int i);
double dbpg_column_double(struct pg_stmt *p, int i);
int dbpg_column_type(struct pg_stmt *p, int i);
const void *dbpg_column_blob(struct pg_stmt *p, int i);
int dbpg_column_bytes(struct pg_stmt *p, int i);
const char *dbpg_column_text(struct pg_stmt *p, int i);
const char *dbpg_column_name(struct pg_stmt *p, int i);
/* What column i holds as declared (DB_INTEGER, DB_TEXT, DB_BLOB; else
 * DB_NULL), known with no row. */
int dbpg_column_declared(struct pg_stmt *p, int i);
/* Parameter i (from 1) as bound, in *c (its text or bytes the
 * statement's). */
void dbpg_bound_cell(struct pg_stmt *p, int i, struct db_cell *c);

/*
 * Bulk loading (db_bulk_*) by COPY ... FROM STDIN in its text format:
 * the rows are written into a buffer, sent whenever it fills (or, with a
 * keycol, sorted first: all are sent at the end), and the server's
 * verdict on them comes at dbpg_bulk_end.  NULL text is NULL.
 */
struct pg_bulk;
struct pg_bulk *dbpg_bulk_begin(struct db *db, const char *table,
    const char *columns, int ncols, int keycol);
void dbpg_bulk_int(struct pg_bulk *b, int64_t v);
void dbpg_bulk_text(struct pg_bulk *b, const char *s);
void dbpg_bulk_flush(struct pg_bulk *b);
void dbpg_bulk_end(struct pg_bulk *b);
/*
 * Ends the sorted load b (freed) by writing the first ncols values of
 * its rows into table (columns) instead of its own table, by a COPY of
 * chunk rows at a time, in the order of its key; with store not NULL,
 * each chunk's rows as the changeset of their INSERT (table's primary
 * key its first column alone), handed to store once the server took
 * them.  Returns the rows written; a refusal is fatal.
 */
int64_t dbpg_bulk_insert(struct pg_bulk *b, const char *table,
    const char *columns, int ncols, long chunk,
    void (*store)(void *, const unsigned char *, size_t), void *arg);
void dbpg_bulk_free(struct pg_bulk *b);

/*
 * The statement sql in PostgreSQL's dialect: ?N as $N, and the few
 * SQLite forms refkit's statements use that PostgreSQL spells another
 * way (refkit.db(5), "PostgreSQL").  *nextra is set to the number of
 * parameters added after the statement's own, extra[k] naming the one
 * whose name key parameter nparam + 1 + k is (negative: of its lower
 * case).  The caller frees the result.  For the unit tests.
 */
char *dbpg_translate(const char *sql, int *nparam, int *extra,
    int maxextra, int *nextra);

/*
 * sql (taken, and freed unless returned) with refkit_key_lo() and
 * refkit_key_hi() replaced by the values they have at the station whose
 * keys start after base; sql itself when base is 0 (not known) or it has
 * no such call.  The caller frees the result.  For the unit tests.
 */
char *dbpg_pin_keys(char *sql, int64_t base);

/*
 * The oldest schema a server database is migrated from.  A server
 * database was first made at version 14; 13 is the first version from
 * which every step has a PostgreSQL form (tools/pgschema.c: steps 12 and
 * 13 rebuild tables by renaming them aside, which a server cannot
 * follow), so the build writes its schema too, and the tests migrate it.
 * An older one is refused untouched.
 */
#define DBPG_SCHEMA_OLDEST	13

/*
 * What build/pgschema writes from schema.sql, tools/pgcompat.sql and
 * tools/pgstation.sql, and every tool embeds (build/schema-pg.c; weak
 * and empty in build/pgschema itself, which writes them):
 *
 *   db_schema_pg_sql       a new database's tables, indexes and rows;
 *   db_schema_pg_station   the server's functions and its record of
 *                          changes, run after the tables and again after
 *                          a migration, or when a database's are another
 *                          build's (every statement in them may find
 *                          its object there already);
 *   db_schema_pg_functions the hash of them that refkit_functions(), the
 *                          last of them, returns;
 *   db_schema_pg_step[v]   what brings a database at version v - 1 to v,
 *                          for v after DBPG_SCHEMA_OLDEST: parts, ended
 *                          by a NULL sql, each SQL for the server (fn
 *                          NULL) or the SELECT of the arguments of
 *                          refkit's function fn, which the tool calls
 *                          for each row (dbpg_client_fn);
 *   db_schema_pg_travel    refkit_travel's rows of this version, in
 *                          place of those a migrated database held.
 */
struct dbpg_part {
	const char	*fn;
	const char	*sql;
};
extern const char db_schema_pg_sql[];
extern const char db_schema_pg_station[];
extern const char db_schema_pg_functions[];
extern const struct dbpg_part *const db_schema_pg_step[];
extern const char db_schema_pg_travel[];

/*
 * Whether a migration step can call the function name (schema.sql, as
 * SELECT name(...) FROM ...) on a server, where the tool calls it for
 * each row: its number of arguments if so, else -1.
 */
int dbpg_client_fn(const char *name);

#endif
