/*
 * db_stmt.c - the statement layer: a statement, a bulk load and a
 * failure on SQLite, or handed to the PostgreSQL backend (db/dbpg.c).
 * See db_stmt.h.
 */
#include "db/db_stmt.h"
#include "db/dbpg.h"

#include "base/util.h"

#include <sqlite3.h>

#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * SQLite's message for the last failure, made plain for a GM: the
 * system's reason for an I/O failure ("disk I/O error: File too large"),
 * and what a lock that outlasted the busy timeout (db->busy_ms) means.
 */
char *
db_errmsg(struct db *db)
{
	int code, sys;

	if (db->pg != NULL)
		return dbpg_errmsg(db);
	if (db->h == NULL)
		return xstrdup("out of memory");
	code = sqlite3_extended_errcode(db->h) & 0xff;
	sys = sqlite3_system_errno(db->h);
	if (code == SQLITE_BUSY) {
		int ms = db->busy_ms;

		return ms % 1000 == 0 ?
		    xasprintf("%s: another program held it for more than "
		    "%d second%s; nothing was written, try again",
		    sqlite3_errmsg(db->h), ms / 1000, ms == 1000 ? "" : "s") :
		    xasprintf("%s: another program held it for more than "
		    "%d ms; nothing was written, try again",
		    sqlite3_errmsg(db->h), ms);
	}
	if (sys != 0 && (code == SQLITE_IOERR || code == SQLITE_CANTOPEN ||
	    code == SQLITE_FULL || code == SQLITE_READONLY ||
	    code == SQLITE_PERM))
		return xasprintf("%s: %s", sqlite3_errmsg(db->h),
		    strerror(sys));
	return xstrdup(sqlite3_errmsg(db->h));
}

void
db_fatal(struct db *db, const char *what)
{
	/* Copy the message: the rollback may replace it. */
	char *copy = db_errmsg(db), *msg;

	db_rollback(db);
	msg = xasprintf("%s: %s", what, copy);
	free(copy);
	db_fail_msg(msg);
}

void
db_die(struct db *db, const char *fmt, ...)
{
	va_list ap;
	char *msg, *full;

	db_rollback(db);
	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (db->subject[0] == '\0')
		db_fail_msg(msg);
	full = xasprintf("%s: %s", db->subject, msg);
	free(msg);
	db_fail_msg(full);
}

void
db_subject(struct db *db, const char *what, const char *key)
{
	if (what == NULL)
		db->subject[0] = '\0';
	else
		snprintf(db->subject, sizeof db->subject, "%s %s", what, key);
}

void
db_rollback(struct db *db)
{
	if (db->session != NULL)
		sqlite3session_delete(db->session);
	db->session = NULL;
	db->pg_recording = 0;
	db->appending = 0;
	db->log_lock = 0;
	db->keys_lock = 0;
	if (db->pg != NULL)
		dbpg_rollback(db);
	else if (db->h != NULL && !sqlite3_get_autocommit(db->h))
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
}

/*
 * The statement layer: a statement is SQLite's own, or the PostgreSQL
 * backend's (db/dbpg.c), with the database it belongs to for the
 * failure handler.
 */
struct db_stmt {
	struct db	*db;
	sqlite3_stmt	*s;	/* on SQLite */
	struct pg_stmt	*p;	/* on PostgreSQL */
};

struct db_stmt *
db_prepare(struct db *db, const char *sql)
{
	struct db_stmt *st = xcalloc(1, sizeof *st);

	st->db = db;
	if (db->pg != NULL)
		st->p = dbpg_prepare(db, sql);
	else if (sqlite3_prepare_v2(db->h, sql, -1, &st->s, NULL) !=
	    SQLITE_OK) {
		free(st);
		db_fatal(db, "cannot prepare a statement");
	}
	return st;
}

struct db_stmt *
db_prepare_local(struct db *db, const char *sql)
{
	struct db_stmt *st;

	if (db->pg == NULL)
		return db_prepare(db, sql);
	if (db->local == NULL && sqlite3_open_v2(":memory:", &db->local,
	    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
		errx(1, "cannot open an in-memory SQLite database: %s",
		    db->local ? sqlite3_errmsg(db->local) : "out of memory");
	st = xcalloc(1, sizeof *st);
	st->db = db;
	if (sqlite3_prepare_v2(db->local, sql, -1, &st->s, NULL) !=
	    SQLITE_OK)
		errx(1, "cannot prepare a statement: %s",
		    sqlite3_errmsg(db->local));
	return st;
}

void
db_finalize(struct db_stmt *st)
{
	if (st == NULL)
		return;
	if (st->p != NULL)
		dbpg_finalize(st->p);
	else
		sqlite3_finalize(st->s);
	free(st);
}

void
db_reset(struct db_stmt *st)
{
	if (st->p != NULL)
		dbpg_reset(st->p);
	else
		sqlite3_reset(st->s);
}

void
db_clear(struct db_stmt *st)
{
	if (st->p != NULL)
		dbpg_clear(st->p);
	else
		sqlite3_clear_bindings(st->s);
}

int
db_step(struct db *db, struct db_stmt *st, int allow_constraint)
{
	int rc;

	if (st->p != NULL)
		return dbpg_step(db, st->p, allow_constraint);
	rc = sqlite3_step(st->s);
	if (rc == SQLITE_ROW)
		return DB_ROW;
	if (rc == SQLITE_DONE)
		return DB_DONE;
	if (allow_constraint && (rc & 0xff) == SQLITE_CONSTRAINT) {
		sqlite3_reset(st->s);
		return DB_CONSTRAINT;
	}
	db_fatal(db, db->path);
}

void
db_send(struct db *db, struct db_stmt *st)
{
	if (st->p != NULL) {
		dbpg_send(db, st->p);
		return;
	}
	while (db_step(db, st, 0) == DB_ROW)
		;
	sqlite3_reset(st->s);
}

void
db_ask(struct db *db, struct db_stmt *st)
{
	if (st->p != NULL)
		dbpg_ask(db, st->p);
}

void
db_asked_keep(struct db *db, const char *tag, int64_t log,
    struct db_stmt *st)
{
	struct db_asked *a = NULL;
	size_t n = sizeof db->asked / sizeof *db->asked;

	if (db->pg == NULL) {
		db_finalize(st);
		return;
	}
	for (size_t i = 0; i < n && a == NULL; i++)
		if (db->asked[i].st == NULL || db->asked[i].tx_no != db->tx_no)
			a = &db->asked[i];
	if (a == NULL) {
		db_finalize(st);
		return;
	}
	db_finalize(a->st);
	a->tag = tag;
	a->log = log;
	a->tx_no = db->tx_no;
	a->st = st;
}

struct db_stmt *
db_asked_take(struct db *db, const char *tag, int64_t log)
{
	size_t n = sizeof db->asked / sizeof *db->asked;

	for (size_t i = 0; i < n; i++) {
		struct db_asked *a = &db->asked[i];
		struct db_stmt *st = a->st;

		if (st == NULL || a->tx_no != db->tx_no || a->log != log ||
		    strcmp(a->tag, tag) != 0)
			continue;
		a->st = NULL;
		return st;
	}
	return NULL;
}

void
db_asked_retag(struct db *db, int64_t from, int64_t to)
{
	for (size_t i = 0; i < sizeof db->asked / sizeof *db->asked; i++)
		if (db->asked[i].st != NULL && db->asked[i].tx_no ==
		    db->tx_no && db->asked[i].log == from)
			db->asked[i].log = to;
}

void
db_asked_drop(struct db *db)
{
	for (size_t i = 0; i < sizeof db->asked / sizeof *db->asked; i++) {
		db_finalize(db->asked[i].st);
		db->asked[i].st = NULL;
	}
}

int
db_in_write(struct db *db)
{
	return db->tx_write;
}

int
db_on_server(struct db *db)
{
	return db->pg != NULL;
}

int
db_bind_count(struct db_stmt *st)
{
	return st->p ? dbpg_bind_count(st->p) :
	    sqlite3_bind_parameter_count(st->s);
}

void
db_bind_int(struct db_stmt *st, int i, int64_t v)
{
	if (st->p != NULL)
		dbpg_bind_int(st->p, i, v);
	else
		sqlite3_bind_int64(st->s, i, v);
}

void
db_bind_double(struct db_stmt *st, int i, double v)
{
	if (st->p != NULL)
		dbpg_bind_double(st->p, i, v);
	else
		sqlite3_bind_double(st->s, i, v);
}

void
db_bind_null(struct db_stmt *st, int i)
{
	if (st->p != NULL)
		dbpg_bind_null(st->p, i);
	else
		sqlite3_bind_null(st->s, i);
}

void
db_bind_text(struct db_stmt *st, int i, const char *s)
{
	if (st->p != NULL)
		dbpg_bind_text(st->p, i, s, -1, 0);
	else
		sqlite3_bind_text(st->s, i, s, -1, SQLITE_STATIC);
}

void
db_bind_textn(struct db_stmt *st, int i, const char *s, int n)
{
	if (st->p != NULL)
		dbpg_bind_text(st->p, i, s, n, 0);
	else
		sqlite3_bind_text(st->s, i, s, n, SQLITE_STATIC);
}

void
db_bind_text_copy(struct db_stmt *st, int i, const char *s)
{
	if (st->p != NULL)
		dbpg_bind_text(st->p, i, s, -1, 1);
	else
		sqlite3_bind_text(st->s, i, s, -1, SQLITE_TRANSIENT);
}

void
db_bind_blob(struct db_stmt *st, int i, const void *p, int n)
{
	if (st->p != NULL)
		dbpg_bind_blob(st->p, i, p, n);
	else
		sqlite3_bind_blob(st->s, i, p, n, SQLITE_STATIC);
}

int
db_column_count(struct db_stmt *st)
{
	return st->p ? dbpg_column_count(st->p) :
	    sqlite3_column_count(st->s);
}

int64_t
db_column_int(struct db_stmt *st, int i)
{
	return st->p ? dbpg_column_int(st->p, i) :
	    sqlite3_column_int64(st->s, i);
}

double
db_column_double(struct db_stmt *st, int i)
{
	return st->p ? dbpg_column_double(st->p, i) :
	    sqlite3_column_double(st->s, i);
}

/* SQLite's type as db/db_base.h names it. */
static int
type_of(int t)
{
	switch (t) {
	case SQLITE_INTEGER:
		return DB_INTEGER;
	case SQLITE_FLOAT:
		return DB_FLOAT;
	case SQLITE_TEXT:
		return DB_TEXT;
	case SQLITE_BLOB:
		return DB_BLOB;
	default:
		return DB_NULL;
	}
}

int
db_column_type(struct db_stmt *st, int i)
{
	if (st->p != NULL)
		return dbpg_column_type(st->p, i);
	return type_of(sqlite3_column_type(st->s, i));
}

/*
 * On SQLite, the column is found once for its type and its value
 * (sqlite3_column_value), where db_column_type and then db_column_int
 * find it twice: refkit verify reads every column of a million events.
 */
void
db_column_cell(struct db_stmt *st, int i, struct db_cell *c)
{
	sqlite3_value *v;

	if (st->p != NULL) {
		c->type = dbpg_column_type(st->p, i);
		c->i = c->type == DB_INTEGER ? dbpg_column_int(st->p, i) : 0;
		c->p = c->type == DB_TEXT || c->type == DB_BLOB ?
		    dbpg_column_blob(st->p, i) : NULL;
		c->len = c->p != NULL ? dbpg_column_bytes(st->p, i) : 0;
		return;
	}
	v = sqlite3_column_value(st->s, i);
	c->type = type_of(sqlite3_value_type(v));
	c->i = c->type == DB_INTEGER ? sqlite3_value_int64(v) : 0;
	c->p = c->type == DB_TEXT || c->type == DB_BLOB ?
	    sqlite3_value_blob(v) : NULL;
	c->len = c->p != NULL ? sqlite3_value_bytes(v) : 0;
}

int
db_column_declared(struct db_stmt *st, int i)
{
	const char *t;

	if (st->p != NULL)
		return dbpg_column_declared(st->p, i);
	if ((t = sqlite3_column_decltype(st->s, i)) == NULL)
		return DB_NULL;
	if (strcasecmp(t, "INTEGER") == 0)
		return DB_INTEGER;
	if (strcasecmp(t, "TEXT") == 0)
		return DB_TEXT;
	if (strcasecmp(t, "BLOB") == 0)
		return DB_BLOB;
	return DB_NULL;
}

int
db_bound_cell(struct db_stmt *st, int i, struct db_cell *c)
{
	if (st->p == NULL)
		return -1;
	dbpg_bound_cell(st->p, i, c);
	return 0;
}

const void *
db_column_blob(struct db_stmt *st, int i)
{
	return st->p ? dbpg_column_blob(st->p, i) :
	    sqlite3_column_blob(st->s, i);
}

int
db_column_bytes(struct db_stmt *st, int i)
{
	return st->p ? dbpg_column_bytes(st->p, i) :
	    sqlite3_column_bytes(st->s, i);
}

const char *
db_column_name(struct db_stmt *st, int i)
{
	return st->p ? dbpg_column_name(st->p, i) :
	    sqlite3_column_name(st->s, i);
}

const char *
db_column_text(struct db_stmt *st, int i)
{
	const char *t;

	if (st->p != NULL)
		t = dbpg_column_text(st->p, i);
	else
		t = (const char *)sqlite3_column_text(st->s, i);
	/* Text cut short at a NUL would be read as another value. */
	if (t != NULL && strlen(t) != (size_t)db_column_bytes(st, i) &&
	    db_column_type(st, i) != DB_BLOB)
		db_fail("damaged record: its '%s' holds a NUL character",
		    util_q(db_column_name(st, i)));
	return t;
}

const char *
db_column_json(struct db_stmt *st, int i)
{
	const char *t = db_column_text(st, i);

	if (t != NULL && util_json_has_nul(t, strlen(t)))
		db_fail("damaged record: its '%s' holds a NUL character "
		    "(\\u0000)", util_q(db_column_name(st, i)));
	return t;
}

char *
db_column_dup(struct db_stmt *st, int i)
{
	const char *t = db_column_text(st, i);

	return t ? xstrdup(t) : NULL;
}

void
db_each_text(struct db *db, struct db_stmt *st,
    void (*fn)(void *, const char *), void *arg)
{
	while (db_step(db, st, 0) == DB_ROW)
		if (db_column_text(st, 0) != NULL)
			fn(arg, db_column_text(st, 0));
	db_finalize(st);
}

int64_t
db_changes(struct db *db)
{
	return db->pg ? db->pg_changes : sqlite3_changes64(db->h);
}

void
db_exec(struct db *db, const char *sql, const char *what)
{
	if (db->pg != NULL)
		dbpg_exec(db, sql, what);
	else if (sqlite3_exec(db->h, sql, NULL, NULL, NULL) != SQLITE_OK)
		db_fatal(db, what);
}

int64_t
db_run_text(struct db *db, const char *sql, const char *text)
{
	struct db_stmt *st = db_prepare(db, sql);
	int64_t v;

	db_bind_text_copy(st, 1, text);
	if (db_step(db, st, 0) == DB_ROW)
		v = db_column_int(st, 0);
	else
		v = db_changes(db);
	db_finalize(st);
	return v;
}

/*
 * Bulk loading on SQLite: the rows are held, BULK_ROWS at a time, and go
 * in by one INSERT of that many VALUES rows; a statement's start and end
 * and the seeks of its cursors cost as much as a row, and a profile of a
 * large import showed them.  Rows left over at the end go in one by one.
 * On a server, db/dbpg.c sends them by COPY.
 */
#define BULK_ROWS	32

/* A value held: an integer, NULL, or text at buf + text. */
struct bulk_value {
	int64_t	 i;
	size_t	 text;
	int	 type;		/* DB_INTEGER, DB_NULL or DB_TEXT */
};

struct db_bulk {
	struct db		*db;
	struct pg_bulk		*p;	/* on PostgreSQL */
	int			 ncols;
	int			 nval;	/* values held */
	struct bulk_value	*val;	/* BULK_ROWS rows of ncols */
	char			*buf;	/* their text */
	size_t			 len, cap;
	struct db_stmt		*one, *many;
};

/* "INSERT INTO table (columns) VALUES (?1, ...), ..." of nrows rows. */
static struct db_stmt *
bulk_prepare(struct db *db, const char *table, const char *columns,
    int ncols, int nrows)
{
	size_t cap = strlen(table) + strlen(columns) + 32 +
	    (size_t)nrows * (size_t)ncols * 10, len;
	char *sql = xmalloc(cap);
	struct db_stmt *st;
	int p = 1;

	len = (size_t)snprintf(sql, cap, "INSERT INTO %s (%s) VALUES ", table,
	    columns);
	for (int r = 0; r < nrows; r++) {
		len += (size_t)snprintf(sql + len, cap - len, "%s(",
		    r > 0 ? ", " : "");
		for (int c = 0; c < ncols; c++)
			len += (size_t)snprintf(sql + len, cap - len, "%s?%d",
			    c > 0 ? ", " : "", p++);
		len += (size_t)snprintf(sql + len, cap - len, ")");
	}
	st = db_prepare(db, sql);
	free(sql);
	return st;
}

struct db_bulk *
db_bulk_begin(struct db *db, const char *table, const char *columns,
    int ncols, int keycol)
{
	struct db_bulk *b = xcalloc(1, sizeof *b);

	b->db = db;
	b->ncols = ncols;
	if (db->pg != NULL) {
		b->p = dbpg_bulk_begin(db, table, columns, ncols, keycol);
		return b;
	}
	b->val = xcalloc((size_t)BULK_ROWS * (size_t)ncols, sizeof *b->val);
	b->one = bulk_prepare(db, table, columns, ncols, 1);
	b->many = bulk_prepare(db, table, columns, ncols, BULK_ROWS);
	return b;
}

/* The next value's slot, the rows held written first when they are full. */
static struct bulk_value *
bulk_next(struct db_bulk *b, int type)
{
	struct bulk_value *v;

	if (b->nval == BULK_ROWS * b->ncols)
		db_bulk_flush(b);
	v = &b->val[b->nval++];
	v->type = type;
	return v;
}

void
db_bulk_int(struct db_bulk *b, int64_t v)
{
	if (b->p != NULL)
		dbpg_bulk_int(b->p, v);
	else
		bulk_next(b, DB_INTEGER)->i = v;
}

void
db_bulk_null(struct db_bulk *b)
{
	if (b->p != NULL)
		dbpg_bulk_text(b->p, NULL);
	else
		(void)bulk_next(b, DB_NULL);
}

void
db_bulk_text(struct db_bulk *b, const char *s)
{
	struct bulk_value *v;
	size_t n;

	if (b->p != NULL) {
		dbpg_bulk_text(b->p, s);
		return;
	}
	if (s == NULL) {
		(void)bulk_next(b, DB_NULL);
		return;
	}
	v = bulk_next(b, DB_TEXT);
	n = strlen(s) + 1;
	if (b->cap - b->len < n) {
		b->cap = 2 * (b->len + n);
		b->buf = xrealloc(b->buf, b->cap);
	}
	memcpy(b->buf + b->len, s, n);
	v->text = b->len;
	b->len += n;
}

/*
 * Binds held row r to the parameters of the statement's row at, by
 * SQLite's own calls: a row's twenty-odd binds showed in a profile.
 */
static void
bulk_bind(struct db_bulk *b, struct db_stmt *st, int r, int at)
{
	const struct bulk_value *v = &b->val[r * b->ncols];

	for (int c = 0, i = at * b->ncols + 1; c < b->ncols; c++, i++, v++)
		if (v->type == DB_INTEGER)
			sqlite3_bind_int64(st->s, i, v->i);
		else if (v->type == DB_TEXT)
			sqlite3_bind_text(st->s, i, b->buf + v->text, -1,
			    SQLITE_STATIC);
		else
			sqlite3_bind_null(st->s, i);
}

void
db_bulk_flush(struct db_bulk *b)
{
	int nrows, r = 0;

	if (b->p != NULL) {
		dbpg_bulk_flush(b->p);
		return;
	}
	if (b->nval % b->ncols != 0)
		errx(1, "db_bulk_flush: a row is half given");
	nrows = b->nval / b->ncols;
	if (nrows == BULK_ROWS) {
		for (; r < BULK_ROWS; r++)
			bulk_bind(b, b->many, r, r);
		db_step(b->db, b->many, 0);
		db_reset(b->many);
	}
	for (; r < nrows; r++) {
		bulk_bind(b, b->one, r, 0);
		db_step(b->db, b->one, 0);
		db_reset(b->one);
	}
	b->nval = 0;
	b->len = 0;
}

void
db_bulk_free(struct db_bulk *b)
{
	if (b == NULL)
		return;
	if (b->p != NULL)
		dbpg_bulk_free(b->p);
	db_finalize(b->one);
	db_finalize(b->many);
	free(b->val);
	free(b->buf);
	free(b);
}

void
db_bulk_end(struct db_bulk *b)
{
	if (b == NULL)
		return;
	if (b->p != NULL) {
		dbpg_bulk_end(b->p);
		b->p = NULL;
	} else
		db_bulk_flush(b);
	db_bulk_free(b);
}

struct pg_bulk *
db_bulk_take(struct db_bulk *b, struct db **db)
{
	struct pg_bulk *p = b->p;

	if (p == NULL)
		errx(1, "db_bulk_insert: not a server's sorted load");
	b->p = NULL;
	*db = b->db;
	return p;
}

int
db_bulk_exclusive(struct db *db)
{
	return db->pg != NULL;
}
