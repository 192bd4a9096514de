/*
 * dbpg.h - the PostgreSQL backend of the database layer (db.h), private
 * to core/db.c.  libpq is loaded when a database is first named by a
 * PostgreSQL connection string, so that a tool working on an SQLite file
 * never pays for loading it (see dbpg.c).
 */
#ifndef REFKIT_DBPG_H
#define REFKIT_DBPG_H

#include <stddef.h>
#include <stdint.h>

struct db;
struct pg_stmt;

/*
 * Whether s names a PostgreSQL database: a "postgresql://" or
 * "postgres://" URI, or a libpq key=value connection string (its first
 * word is "keyword=").
 */
int dbpg_is_conninfo(const char *s);

/*
 * Connects to the server s names, checks what the database holds, and
 * creates refkit's schema in an empty one; exits 1 with one line on any
 * failure.  A new database's station takes the name station_name.  Sets
 * db->pg, and db->path to the database as messages name it (no password).
 */
void dbpg_open(struct db *db, const char *station_name);
void dbpg_close(struct db *db);

/*
 * Transactions: db_begin and the rest, on the server.  A write
 * transaction begun with record set has the server note the rows it
 * changes (tools/pgstation.sql).
 */
void dbpg_begin(struct db *db, int record);
void dbpg_begin_read(struct db *db);
void dbpg_commit(struct db *db);
void dbpg_rollback(struct db *db);
int dbpg_in_transaction(struct db *db);

/* The server's message for the last failure; the caller frees it. */
char *dbpg_errmsg(struct db *db);

void dbpg_exec(struct db *db, const char *sql, const char *what);

/* Statements, as db.h's. */
struct pg_stmt *dbpg_prepare(struct db *db, const char *sql);
void dbpg_finalize(struct pg_stmt *p);
void dbpg_reset(struct pg_stmt *p);
void dbpg_clear(struct pg_stmt *p);
int dbpg_step(struct db *db, struct pg_stmt *p, int allow_constraint);
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

/* The embedded build/schema-pg.sql (weak: empty in build/pgschema). */
extern const char db_schema_pg_sql[];

#endif
