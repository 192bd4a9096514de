/*
 * dbpg.c - the database layer on a PostgreSQL server, through libpq.
 *
 * libpq is Debian's (libpq-dev for its header, libpq5 at run time).  It
 * is not linked in: it would bring a dozen shared libraries (OpenSSL,
 * Kerberos, LDAP ...) that the dynamic loader would map at the start of
 * every command, a few milliseconds that a GM working on an SQLite file
 * would wait for too.  It is loaded with dlopen(3) when a database is
 * first named by a connection string, and its functions are called
 * through the table below.
 *
 * A statement is written once, in the SQL both databases take; the few
 * SQLite forms refkit's statements use that PostgreSQL spells another way
 * are translated here (dbpg_translate), and SQLite's functions that it
 * lacks are defined under the same names in the server's schema (the end
 * of build/schema-pg.sql).  Parameters go as text, but integers (int8),
 * reals (float8) and blobs (bytea, binary); results come as text and are
 * converted by the column functions, as SQLite converts its values.
 *
 * Writers take one advisory lock, refkit's, for their transaction, as an
 * SQLite writer takes the file's write lock (BEGIN IMMEDIATE): whatever a
 * writer reads in its transaction stays true until it commits, so a
 * ledger's next sequence number is always the next, however many GMs
 * append at once, and no transaction can fail to serialize.  An appender
 * to one log (db_begin_append) takes it shared, with its log's lock and,
 * from its first new row, the lock of new keys and changes (db.h).
 * Readers take no lock and see one snapshot (db_begin_read).
 */
#include "db/dbpg.h"
#include "db/db_base.h"
#include "db/db_stmt.h"
#include "db/changeset.h"
#include "db/extsort.h"

#include "base/strbuf.h"
#include "base/util.h"

#include <libpq-fe.h>
#include <sqlite3.h>

#include <ctype.h>
#include <dlfcn.h>
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

/* The advisory lock of refkit's writers: "RFKT". */
#define PG_LOCK_KEY	"1380338516"

/* PostgreSQL's type oids (catalog/pg_type_d.h, which is the server's). */
#define OID_BOOL	16
#define OID_BYTEA	17
#define OID_INT8	20
#define OID_INT2	21
#define OID_INT4	23
#define OID_TEXT	25
#define OID_FLOAT4	700
#define OID_FLOAT8	701
#define OID_NUMERIC	1700

/* Parameters a statement can add of its own (name keys). */
#define PG_EXTRA_MAX	4

/* libpq's functions that refkit calls. */
static struct {
	__typeof__(PQconnectdb)		*connectdb;
	__typeof__(PQstatus)		*status;
	__typeof__(PQerrorMessage)	*errorMessage;
	__typeof__(PQfinish)		*finish;
	__typeof__(PQexec)		*exec;
	__typeof__(PQexecParams)	*execParams;
	__typeof__(PQresultStatus)	*resultStatus;
	__typeof__(PQresultErrorField)	*resultErrorField;
	__typeof__(PQresultErrorMessage) *resultErrorMessage;
	__typeof__(PQclear)		*clear;
	__typeof__(PQntuples)		*ntuples;
	__typeof__(PQnfields)		*nfields;
	__typeof__(PQgetvalue)		*getvalue;
	__typeof__(PQgetlength)		*getlength;
	__typeof__(PQgetisnull)		*getisnull;
	__typeof__(PQftype)		*ftype;
	__typeof__(PQfname)		*fname;
	__typeof__(PQcmdTuples)		*cmdTuples;
	__typeof__(PQtransactionStatus)	*transactionStatus;
	__typeof__(PQunescapeBytea)	*unescapeBytea;
	__typeof__(PQfreemem)		*freemem;
	__typeof__(PQdb)		*db;
	__typeof__(PQuser)		*user;
	__typeof__(PQhost)		*host;
	__typeof__(PQport)		*port;
	__typeof__(PQsetNoticeProcessor) *setNoticeProcessor;
	__typeof__(PQenterPipelineMode)	*enterPipelineMode;
	__typeof__(PQexitPipelineMode)	*exitPipelineMode;
	__typeof__(PQpipelineSync)	*pipelineSync;
	__typeof__(PQsendQueryParams)	*sendQueryParams;
	__typeof__(PQputCopyData)	*putCopyData;
	__typeof__(PQputCopyEnd)	*putCopyEnd;
	__typeof__(PQgetResult)		*getResult;
	__typeof__(PQconnectStart)	*connectStart;
	__typeof__(PQconnectPoll)	*connectPoll;
	__typeof__(PQsocket)		*socket;
	__typeof__(PQconninfo)		*conninfo;
	__typeof__(PQconninfoFree)	*conninfoFree;
	__typeof__(PQexecPrepared)	*execPrepared;
	__typeof__(PQsendQueryPrepared)	*sendQueryPrepared;
	__typeof__(PQsendPrepare)	*sendPrepare;
	__typeof__(PQconsumeInput)	*consumeInput;
	__typeof__(PQnotifies)		*notifies;
	__typeof__(PQconninfoParse)	*conninfoParse;
	__typeof__(PQflush)		*flush;
	__typeof__(PQtrace)		*trace;
	__typeof__(PQsetTraceFlags)	*setTraceFlags;
	__typeof__(PQuntrace)		*untrace;
	__typeof__(PQbackendPID)	*backendPID;
} pq;

static void
pq_load(void)
{
	static const char *const names[] = {
		"PQconnectdb", "PQstatus", "PQerrorMessage", "PQfinish",
		"PQexec", "PQexecParams", "PQresultStatus",
		"PQresultErrorField", "PQresultErrorMessage", "PQclear",
		"PQntuples", "PQnfields", "PQgetvalue", "PQgetlength",
		"PQgetisnull", "PQftype", "PQfname", "PQcmdTuples",
		"PQtransactionStatus", "PQunescapeBytea", "PQfreemem", "PQdb",
		"PQuser", "PQhost", "PQport", "PQsetNoticeProcessor",
		"PQenterPipelineMode", "PQexitPipelineMode", "PQpipelineSync",
		"PQsendQueryParams", "PQputCopyData", "PQputCopyEnd",
		"PQgetResult",
		"PQconnectStart", "PQconnectPoll", "PQsocket", "PQconninfo",
		"PQconninfoFree", "PQexecPrepared",
		"PQsendQueryPrepared", "PQsendPrepare", "PQconsumeInput",
		"PQnotifies", "PQconninfoParse", "PQflush", "PQtrace",
		"PQsetTraceFlags", "PQuntrace", "PQbackendPID"
	};
	void **slot = (void **)(void *)&pq;
	void *h;

	if (pq.connectdb != NULL)
		return;
	if ((h = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL)) == NULL)
		errx(1, "a PostgreSQL database needs libpq (Debian's package "
		    "libpq5): %s", dlerror());
	_Static_assert(sizeof pq == sizeof names / sizeof *names *
	    sizeof(void *), "one name per function of libpq");
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		void *f = dlsym(h, names[i]);

		if (f == NULL)
			errx(1, "libpq lacks %s: %s", names[i], dlerror());
		memcpy(&slot[i], &f, sizeof f);
	}
}

int
dbpg_is_conninfo(const char *s)
{
	const char *p = s;

	if (strncmp(s, "postgresql://", 13) == 0 ||
	    strncmp(s, "postgres://", 11) == 0)
		return 1;
	/* "host=/run/pg dbname=x": a keyword of letters, then "=". */
	while (*p == ' ' || *p == '\t')
		p++;
	if (!islower((unsigned char)*p))
		return 0;
	while (islower((unsigned char)*p) || *p == '_')
		p++;
	while (*p == ' ' || *p == '\t')
		p++;
	return *p == '=';
}

/* ---- SQL in PostgreSQL's dialect ---- */

static int
ident_char(int c)
{
	return isalnum(c) || c == '_';
}

/* The end of the quoted string or name that starts at s. */
static const char *
skip_quoted(const char *s)
{
	char q = *s++;

	while (*s != '\0') {
		if (*s == q && s[1] == q)
			s += 2;
		else if (*s == q)
			return s + 1;
		else
			s++;
	}
	return s;
}

/* Whether the word w (upper case) starts at s, whole. */
static int
word_at(const char *s, const char *w)
{
	size_t n = strlen(w);

	return strncasecmp(s, w, n) == 0 && !ident_char((unsigned char)s[n]);
}

/* The closing parenthesis of the one at s, and its top-level commas. */
static const char *
close_paren(const char *s, int *ncomma)
{
	int depth = 0;

	*ncomma = 0;
	for (; *s != '\0'; s++) {
		if (*s == '\'' || *s == '"') {
			s = skip_quoted(s) - 1;
			continue;
		}
		if (*s == '(')
			depth++;
		else if (*s == ')' && --depth == 0)
			return s;
		else if (*s == ',' && depth == 1)
			(*ncomma)++;
	}
	return s;
}

/*
 * The number of the parameter written at *sp, after its ? or $, and *sp
 * past its digits: 1 to 32766 (SQLite's limit), else 0.
 */
static int
param_no(const char **sp)
{
	char *end;
	long n = strtol(*sp, &end, 10);

	*sp = end;
	return n >= 1 && n <= 32766 ? (int)n : 0;
}

/*
 * json_extract(column, '$.a.b'), the form refkit's statements use, as
 * the expression that the function in the schema computes, written out:
 * called, the function's body is parsed and planned again at every call,
 * and the dozens of them in a read of the ledger were a good part of a
 * command's time on the server.  Appends it to b and returns the end of
 * the call at s; NULL, having appended nothing, for any other form (an
 * expression, a path with [n] or quotes), which keeps the call.
 */
static const char *
json_extract_inline(struct strbuf *b, const char *s)
{
	const char *a = s + 12, *col, *path, *e;
	size_t ncol, npath;
	char *keys, *x;

	while (*a == ' ')
		a++;
	if (*a++ != '(')
		return NULL;
	while (*a == ' ')
		a++;
	col = a;
	while (ident_char((unsigned char)*a) || (*a == '.' && a > col))
		a++;
	if ((ncol = (size_t)(a - col)) == 0 || isdigit((unsigned char)*col))
		return NULL;
	while (*a == ' ')
		a++;
	if (*a++ != ',')
		return NULL;
	while (*a == ' ')
		a++;
	if (strncmp(a, "'$", 2) != 0)
		return NULL;
	/* Keys of letters, digits and _, each after a dot, none a number. */
	path = a += 2;
	while (*a == '.' && ident_char((unsigned char)a[1]) &&
	    !isdigit((unsigned char)a[1]))
		while (ident_char((unsigned char)*++a))
			;
	npath = (size_t)(a - path);
	if (*a++ != '\'')
		return NULL;
	while (*a == ' ')
		a++;
	if (*a != ')')
		return NULL;
	e = a + 1;
	/* '$.a.b' is the path '{a,b}'; '$', the whole document: '{}'. */
	keys = xstrndup(npath > 0 ? path + 1 : path, npath > 0 ? npath - 1 :
	    0);
	for (char *k = keys; *k; k++)
		if (*k == '.')
			*k = ',';
	/* A boolean reads as 1 or 0, a JSON null as NULL, the rest as text. */
	x = xasprintf("(CASE json_typeof(%.*s::json #> '{%s}') WHEN 'boolean'"
	    " THEN CASE WHEN %.*s::json #>> '{%s}' = 'true' THEN '1' ELSE '0'"
	    " END ELSE %.*s::json #>> '{%s}' END)", (int)ncol, col, keys,
	    (int)ncol, col, keys, (int)ncol, col, keys);
	strbuf_addstr(b, x);
	free(x);
	free(keys);
	return e;
}

/* The parameters sql has: a bare ? is one more than the largest before. */
static int
count_params(const char *sql)
{
	int nparam = 0;

	for (const char *p = sql; *p != '\0'; p++) {
		if (*p == '\'' || *p == '"') {
			p = skip_quoted(p) - 1;
			continue;
		}
		if (*p == '?') {
			const char *d = p + 1;
			int n = isdigit((unsigned char)*d) ? param_no(&d) :
			    nparam + 1;

			if (n > nparam)
				nparam = n;
		}
	}
	return nparam;
}

/* dbpg_translate's state as it reads the statement at s. */
struct tr {
	struct strbuf	 b;
	const char	*s;
	int		 ignore;	/* an INSERT OR IGNORE not ended */
	int		 bare;		/* the last parameter's number */
	int		 prev_ident;	/* within a word */
	int		 nparam;
	int		*extra, maxextra, *nextra;
};

/* The parameter ?N or ? at t->s, as $N. */
static void
tr_param(struct tr *t)
{
	char num[16];
	int n;

	if (isdigit((unsigned char)t->s[1])) {
		t->s++;
		n = param_no(&t->s);
	} else {
		n = t->bare + 1;
		t->s++;
	}
	if (n > t->bare)
		t->bare = n;
	snprintf(num, sizeof num, "$%d", n);
	strbuf_addstr(&t->b, num);
	t->prev_ident = 0;
}

/*
 * refkit_name_key(?N) or refkit_name_key(lower(?N)) at t->s: a key the
 * client computes (dbpg.h), as an extra parameter.  0 when it is not.
 */
static int
tr_name_key(struct tr *t)
{
	const char *a = t->s + 16;
	int lower = 0, n;
	char num[16];

	if (strncasecmp(t->s, "refkit_name_key(", 16) != 0)
		return 0;
	if (strncasecmp(a, "lower(", 6) == 0) {
		lower = 1;
		a += 6;
	}
	if (*a != '?' || !isdigit((unsigned char)a[1]) ||
	    *t->nextra >= t->maxextra)
		return 0;
	a++;
	n = param_no(&a);
	if (n <= 0 || *a != ')' || (lower && a[1] != ')'))
		return 0;
	t->extra[*t->nextra] = lower ? -n : n;
	snprintf(num, sizeof num, "$%d", t->nparam + ++*t->nextra);
	strbuf_addstr(&t->b, num);
	t->s = a + 1 + lower;
	t->prev_ident = 0;
	return 1;
}

/*
 * A word at t->s that PostgreSQL says otherwise, written its way; 0 when
 * the word is to be copied as it is.
 */
static int
tr_word(struct tr *t)
{
	const char *s = t->s;

	if (word_at(s, "INSERT") && strncasecmp(s + 6, " OR IGNORE ",
	    11) == 0) {
		strbuf_addstr(&t->b, "INSERT ");
		t->s += 17;
		t->ignore = 1;
		return 1;
	}
	if (word_at(s, "RETURNING") && t->ignore) {
		strbuf_addstr(&t->b, "ON CONFLICT DO NOTHING ");
		t->ignore = 0;
	}
	/* SQLite's join-order hint; refkit's have ON or USING. */
	if (word_at(s, "CROSS") && strncasecmp(s + 5, " JOIN ", 6) == 0) {
		t->s += 6;
		return 1;
	}
	if (strncasecmp(s, "temp.", 5) == 0) {
		strbuf_addstr(&t->b, "pg_temp.");
		t->s += 5;
		return 1;
	}
	if ((word_at(s, "max") || word_at(s, "min")) && s[3] == '(') {
		int ncomma;

		close_paren(s + 3, &ncomma);
		if (ncomma > 0) {
			strbuf_addstr(&t->b, tolower(s[1]) == 'a' ? "greatest" :
			    "least");
			t->s += 3;
			t->prev_ident = 1;
			return 1;
		}
	}
	if (word_at(s, "json_extract")) {
		const char *e = json_extract_inline(&t->b, s);

		if (e != NULL) {
			t->s = e;
			t->prev_ident = 0;
			return 1;
		}
	}
	return tr_name_key(t);
}

char *
dbpg_translate(const char *sql, int *nparam, int *extra, int maxextra,
    int *nextra)
{
	struct tr t;

	*nextra = 0;
	memset(&t, 0, sizeof t);
	t.s = sql;
	t.extra = extra;
	t.maxextra = maxextra;
	t.nextra = nextra;
	*nparam = t.nparam = count_params(sql);
	while (*t.s != '\0') {
		int c = (unsigned char)*t.s;

		if (c == '\'' || c == '"') {
			const char *e = skip_quoted(t.s);

			strbuf_add(&t.b, t.s, (size_t)(e - t.s));
			t.s = e;
			t.prev_ident = 0;
		} else if (c == '?')
			tr_param(&t);
		else if (!ident_char(c) || t.prev_ident) {
			t.prev_ident = ident_char(c);
			strbuf_add(&t.b, t.s++, 1);
		} else if (!tr_word(&t)) {
			/* A word starts here, copied as it is. */
			t.prev_ident = 1;
			strbuf_add(&t.b, t.s++, 1);
		}
	}
	if (t.ignore) {
		/* After the statement, before a final ";" if any. */
		while (t.b.len > 0 && (t.b.s[t.b.len - 1] == ';' ||
		    isspace((unsigned char)t.b.s[t.b.len - 1])))
			t.b.s[--t.b.len] = '\0';
		strbuf_addstr(&t.b, " ON CONFLICT DO NOTHING");
	}
	return strbuf_detach(&t.b, NULL);
}

/* ---- connecting ---- */

struct pg_stmt {
	struct db	*db;
	char		*sql;		/* translated */
	int		 nparam;	/* the statement's own */
	int		 nextra;
	int		 extra[PG_EXTRA_MAX];
	int		 n;		/* nparam + nextra */
	const char	**val;
	char		**own;		/* copies, freed with the statement */
	int		*len;
	int		*fmt;
	Oid		*type;
	char		(*num)[32];
	PGresult	*res;
	int		 row, nrow, ncol;
	char		*unused;	/* parameters the SQL never names */
	unsigned char	**blob;		/* bytea decoded, per column */
	size_t		*bloblen;
	int		 blobrow;
	int		 asked;		/* sent by dbpg_ask, not yet stepped */
	int		 arrived;	/* its result came, rows not yet read */
	uint32_t	 picked;	/* parameters bound to DB_PICKED */
	uint32_t	 before;	/* ... to DB_PICKED_BEFORE */
};

#define CONN(db)	((PGconn *)(db)->pg)

/* ---- statements kept on the connection ---- */

/*
 * A statement the connection runs a second time is prepared on it (a
 * named statement), so that from then on the server neither parses it
 * again nor, once it has seen a few runs, plans it again: a GM's station
 * that stays connected runs the same few statements for every event.  The
 * first run goes unnamed, as it did, so that a command that runs a
 * statement once sends nothing more.  A statement is known by its SQL and
 * its parameters' types, which a prepared statement fixes.
 */
#define PG_CACHE_SLOTS	1024	/* a power of two */
#define PG_CACHE_MAX	768	/* statements kept; later ones go unnamed */

struct pg_prep {
	char		*key;		/* the SQL, a NUL, the types */
	size_t		 keylen;
	int		 uses;
	int		 prepared;	/* 1 named on the server, -1 refused */
	char		 name[24];
};

/*
 * A query sent on the connection whose result is still to be read
 * (libpq's pipeline mode).  A command's statements go out as they come
 * and wait only when the command needs an answer: a write whose result
 * nobody reads (db_send), the advisory locks and the BEGIN go with the
 * next statement that is read, or with the COMMIT; so a round trip to the
 * server carries everything up to the next read.
 */
enum pg_sent_kind {
	SENT_CHECK,		/* must work; its rows are not read */
	SENT_BEGIN,		/* a writer's BEGIN: is the server read-only? */
	SENT_PREPARE,		/* a statement prepared: refused, goes unnamed */
	SENT_SAVEPOINT,		/* the savepoint around the next statement */
	SENT_STMT		/* a statement's: its result is the caller's */
};

struct pg_sent {
	enum pg_sent_kind	 kind;
	struct pg_stmt		*stmt;	/* SENT_STMT: whose result; NULL none */
	struct pg_prep		*e;	/* SENT_PREPARE */
	const char		*what;	/* said if it fails; NULL: the path */
};

/* Past this many queries unread, they are read (the server's replies
 * must not fill the socket while refkit still sends). */
#define PG_SENT_MAX	256

/*
 * Each SQL text refkit prepares is translated once a connection
 * (dbpg_translate, dbpg_pin_keys): a session of play prepares the same
 * few statements for every command.
 */
#define PG_MEMO_SLOTS	512	/* a power of two */
#define PG_MEMO_MAX	384

struct pg_memo {
	char		*from;		/* the SQL as refkit writes it */
	char		*to;		/* as the server runs it */
	int64_t		 key_base;	/* the keys it was pinned to */
	int		 nparam, nextra, extra[PG_EXTRA_MAX];
};

struct pg_cache {
	struct pg_prep	 slot[PG_CACHE_SLOTS];
	struct pg_memo	 memo[PG_MEMO_SLOTS];
	int		 nmemo;
	int		 n;
	struct pg_sent	*sent;		/* queries sent, in order */
	size_t		 nsent, capsent;
	int		 piping;	/* the connection is in pipeline mode */
	int		 in_tx;		/* a BEGIN was sent, no COMMIT yet */
	int		 reading;	/* ... and the transaction only reads */
	int		 syncs;		/* syncs sent whose answer is unread */
	int		 pooled;	/* through a pooler (PgBouncer) */
	int		 started;	/* the station has a change of its own */
	int		 starting;	/* ... once this transaction commits */
};

static struct pg_cache *
cache_of(struct db *db)
{
	if (db->pg_cache == NULL)
		db->pg_cache = xcalloc(1, sizeof *db->pg_cache);
	return db->pg_cache;
}

static void
cache_free(struct db *db)
{
	struct pg_cache *c = db->pg_cache;

	if (c == NULL)
		return;
	for (int i = 0; i < PG_CACHE_SLOTS; i++)
		free(c->slot[i].key);
	for (int i = 0; i < PG_MEMO_SLOTS; i++) {
		free(c->memo[i].from);
		free(c->memo[i].to);
	}
	free(c->sent);
	free(c);
	db->pg_cache = NULL;
}

/* p's entry, made on its first run; NULL when the cache is full. */
static struct pg_prep *
cache_entry(struct db *db, const struct pg_stmt *p)
{
	size_t sqllen = strlen(p->sql), keylen;
	size_t tlen = (size_t)p->n * sizeof *p->type;
	uint64_t h = 1469598103934665603ULL;
	struct pg_cache *c;
	struct pg_prep *e;
	char *key;

	c = cache_of(db);
	keylen = sqllen + 1 + tlen;
	key = xmalloc(keylen);
	memcpy(key, p->sql, sqllen + 1);
	if (tlen > 0)
		memcpy(key + sqllen + 1, p->type, tlen);
	for (size_t i = 0; i < keylen; i++)
		h = (h ^ (unsigned char)key[i]) * 1099511628211ULL;
	for (size_t i = (size_t)h & (PG_CACHE_SLOTS - 1);;
	    i = (i + 1) & (PG_CACHE_SLOTS - 1)) {
		e = &c->slot[i];
		if (e->key == NULL)
			break;
		if (e->keylen == keylen && memcmp(e->key, key, keylen) == 0) {
			free(key);
			return e;
		}
	}
	if (c->n >= PG_CACHE_MAX) {
		free(key);
		return NULL;
	}
	e->key = key;
	e->keylen = keylen;
	snprintf(e->name, sizeof e->name, "refkit_%d", c->n++);
	return e;
}

/*
 * The name p runs under on this connection, or NULL when it goes
 * unnamed; *fresh is set when it is to be prepared as it runs (its
 * second run).  A statement the server refused to prepare goes unnamed.
 */
static struct pg_prep *
prepared(struct db *db, const struct pg_stmt *p, int *fresh)
{
	struct pg_prep *e = cache_entry(db, p);

	*fresh = 0;
	/* Through a pooler, the next transaction may be another session's. */
	if (cache_of(db)->pooled)
		return NULL;
	if (e == NULL || e->prepared < 0 || e->uses++ == 0)
		return NULL;
	*fresh = e->prepared == 0;
	e->prepared = 1;
	return e;
}

/* What a command says when the server went away under it. */
static const char conn_lost[] = "the connection to the server was lost; "
    "nothing of this command was written";

/* Notices (NOTICE: extension "citext" already exists) are not shown. */
static void
no_notice(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

/* The first line of libpq's message, less its "...failed: " and "FATAL:". */
static char *
first_line(const char *msg)
{
	const char *p = msg, *f;
	size_t n;

	while ((f = strstr(p, "failed: ")) != NULL &&
	    (size_t)(f - msg) < strcspn(msg, "\n"))
		p = f + 8;
	if (strncmp(p, "FATAL:", 6) == 0 || strncmp(p, "ERROR:", 6) == 0)
		p += 6;
	while (*p == ' ')
		p++;
	n = strcspn(p, "\n");
	while (n > 0 && p[n - 1] == ' ')
		n--;
	return xstrndup(p, n);
}

char *
dbpg_errmsg(struct db *db)
{
	if (db->pg == NULL)
		return xstrdup("not connected");
	if (pq.status(CONN(db)) == CONNECTION_BAD)
		return xstrdup(conn_lost);
	return first_line(pq.errorMessage(CONN(db)));
}

/* Refuses, with the server's reason for res's failure, and exits 1. */
static void __attribute__((noreturn))
pg_failed(struct db *db, PGresult *res, const char *what)
{
	const char *state = res ? pq.resultErrorField(res,
	    PG_DIAG_SQLSTATE) : NULL;
	char *msg, *full;

	if (pq.status(CONN(db)) == CONNECTION_BAD)
		msg = xstrdup(conn_lost);
	else if (state != NULL && strcmp(state, "25006") == 0)
		msg = xstrdup("the server is read-only (a standby?); nothing "
		    "was written (commands that only read work)");
	else
		msg = first_line(res ? pq.resultErrorMessage(res) :
		    pq.errorMessage(CONN(db)));
	if (res != NULL)
		pq.clear(res);
	dbpg_rollback(db);
	full = xasprintf("%s: %s", what, msg);
	free(msg);
	db_fail_msg(full);
}

/* Notes a query sent, whose result sent_read reads. */
static void
sent_add(struct db *db, enum pg_sent_kind kind, struct pg_stmt *stmt,
    struct pg_prep *e, const char *what)
{
	struct pg_cache *c = cache_of(db);

	if (c->nsent == c->capsent) {
		c->capsent = c->capsent ? 2 * c->capsent : 16;
		c->sent = xreallocarray(c->sent, c->capsent, sizeof *c->sent);
	}
	c->sent[c->nsent].kind = kind;
	c->sent[c->nsent].stmt = stmt;
	c->sent[c->nsent].e = e;
	c->sent[c->nsent].what = what;
	c->nsent++;
}

/* What one round trip came back with. */
struct pg_back {
	PGresult		*failed;	/* the first failure; caller's */
	enum pg_sent_kind	 kind;		/* its query's */
	struct pg_stmt		*stmt;
	const char		*what;
	int			 lost;		/* the connection failed */
	int			 read_only;	/* a writer's BEGIN was refused */
};

/* Takes one query's result r into b, or to the statement it is for. */
static void
sent_take(struct pg_back *b, const struct pg_sent *x, PGresult *r)
{
	ExecStatusType st = pq.resultStatus(r);

	if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
		if (x->kind == SENT_BEGIN && pq.ntuples(r) == 1 &&
		    strcmp(pq.getvalue(r, 0, 1), "on") == 0)
			b->read_only = 1;
		if (x->kind == SENT_STMT && x->stmt != NULL) {
			if (x->stmt->res != NULL)
				pq.clear(x->stmt->res);
			x->stmt->res = r;
			x->stmt->arrived = 1;
			return;
		}
		pq.clear(r);
		return;
	}
	/* One that never ran, behind the failure: it has no result. */
	if (st == PGRES_PIPELINE_ABORTED) {
		pq.clear(r);
		return;
	}
	if (x->kind == SENT_PREPARE && x->e != NULL)
		x->e->prepared = -1;
	if (b->failed != NULL) {
		pq.clear(r);
		return;
	}
	b->failed = r;
	b->kind = x->kind;
	b->stmt = x->stmt;
	b->what = x->what;
}

/*
 * The round trip: ends what was sent with a sync, then reads every
 * query's result in order, each statement's to its statement and the
 * first failure into b (the caller clears b->failed).  Leaves pipeline
 * mode, as the connection was before the first query was sent.
 */
static void
sent_read(struct db *db, struct pg_back *b)
{
	struct pg_cache *c = cache_of(db);
	PGconn *conn = CONN(db);
	size_t i = 0;

	memset(b, 0, sizeof *b);
	if (!c->piping)
		return;
	if (!pq.pipelineSync(conn))
		b->lost = 1;
	c->syncs++;
	while (!b->lost) {
		PGresult *r = pq.getResult(conn);

		if (r == NULL) {
			/* Between two queries' results; or the end. */
			if (pq.status(conn) == CONNECTION_BAD)
				b->lost = 1;
			continue;
		}
		/* A reader's end sent with a sync of its own, then ours. */
		if (pq.resultStatus(r) == PGRES_PIPELINE_SYNC) {
			pq.clear(r);
			if (--c->syncs == 0)
				break;
			continue;
		}
		if (i < c->nsent)
			sent_take(b, &c->sent[i++], r);
		else
			pq.clear(r);
	}
	c->nsent = 0;
	c->piping = 0;
	c->syncs = 0;
	if (!b->lost && !pq.exitPipelineMode(conn))
		b->lost = 1;
}

/* The writer's transaction found the server read-only: refuses. */
static void __attribute__((noreturn))
read_only_die(struct db *db)
{
	dbpg_rollback(db);
	errx(1, "cannot write to '%s': the server is read-only (a standby?); "
	    "commands that only read work", db->path);
}

/*
 * Refuses as a round trip's answer says: a writer's BEGIN on a read-only
 * server first, then the first failure; returns if there was none.
 */
static void
sent_settle(struct db *db, struct pg_back *b)
{
	if (b->read_only) {
		if (b->failed != NULL)
			pq.clear(b->failed);
		read_only_die(db);
	}
	if (b->failed != NULL)
		pg_failed(db, b->failed, b->what != NULL ? b->what : db->path);
}

/* Reads what was sent, refusing as the first failure says. */
static void
sent_check(struct db *db)
{
	struct pg_back b;

	if (db->pg_cache == NULL || !db->pg_cache->piping)
		return;
	sent_read(db, &b);
	if (b.lost)
		pg_failed(db, b.failed, b.what != NULL ? b.what : db->path);
	sent_settle(db, &b);
}

/* Puts the connection in pipeline mode, to send without waiting. */
static void
pipe_on(struct db *db)
{
	struct pg_cache *c = cache_of(db);

	if (c->piping)
		return;
	if (!pq.enterPipelineMode(CONN(db)))
		pg_failed(db, NULL, db->path);
	c->piping = 1;
}

/*
 * Sends sql, with n parameters as text, its result read with the next
 * statement read: kind says what is done with it, what what the
 * command was doing, if it fails (NULL: the database's name).
 */
static void
send_sql(struct db *db, const char *sql, int n, const char *const *v,
    enum pg_sent_kind kind, const char *what)
{
	pipe_on(db);
	if (!pq.sendQueryParams(CONN(db), sql, n, NULL, v, NULL, NULL, 0))
		pg_failed(db, NULL, db->path);
	sent_add(db, kind, NULL, NULL, what);
	/* The replies must not fill the socket while refkit still sends. */
	if (cache_of(db)->nsent >= PG_SENT_MAX)
		sent_check(db);
}

/* Runs sql (no parameters), fatal with what on failure; returns rows. */
static PGresult *
pg_run(struct db *db, const char *sql, const char *what)
{
	PGresult *res;

	sent_check(db);
	res = pq.exec(CONN(db), sql);
	ExecStatusType st = res ? pq.resultStatus(res) : PGRES_FATAL_ERROR;

	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
		pg_failed(db, res, what);
	return res;
}

void
dbpg_exec(struct db *db, const char *sql, const char *what)
{
	int np, extra[1], nextra;
	char *t = dbpg_translate(sql, &np, extra, 0, &nextra);

	/* One statement in a transaction goes with the next one read. */
	if (dbpg_in_transaction(db) && strchr(t, ';') == NULL)
		send_sql(db, t, 0, NULL, SENT_CHECK, what);
	else
		pq.clear(pg_run(db, t, what));
	free(t);
}

/* The database as users see it, without a password: for messages. */
static char *
display_name(PGconn *c)
{
	const char *host = pq.host(c), *port = pq.port(c), *user = pq.user(c),
	    *name = pq.db(c);

	/* A part libpq could not tell is left out, never "(null)". */
	return xasprintf("postgresql://%s%s%s%s%s/%s",
	    user && *user ? user : "", user && *user ? "@" : "",
	    host && *host ? host : "localhost", port && *port ? ":" : "",
	    port ? port : "", name ? name : "");
}

/*
 * Refuses a connection string that libpq cannot read ("postgresql://x@[::1",
 * a query parameter it does not know) with what was typed and libpq's
 * reason, before it is taken for the address of a server.
 */
static void
check_conninfo(const char *conninfo)
{
	PQconninfoOption *opts;
	char *msg = NULL, *why;

	if ((opts = pq.conninfoParse(conninfo, &msg)) != NULL) {
		pq.conninfoFree(opts);
		return;
	}
	why = msg != NULL ? first_line(msg) : xstrdup("out of memory");
	errx(1, "cannot read the PostgreSQL address '%s': %s",
	    util_q(conninfo), why);
}

/* A new station's id: 128 random bits, the top one set (db.c's). */
static void
new_station_id(char hex[33])
{
	unsigned char b[16];

	if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b)
		err(1, "cannot get random bytes from the system");
	b[0] |= 0x80;
	for (size_t i = 0; i < sizeof b; i++)
		snprintf(hex + 2 * i, 3, "%02x", b[i]);
}

/* Creates refkit's schema in the empty database, in the open transaction. */
static void
create_schema(struct db *db, const char *station_name)
{
	struct pg_stmt *p;
	char id[33];

	pq.clear(pg_run(db, db_schema_pg_sql, "cannot create the schema"));
	pq.clear(pg_run(db, db_schema_pg_station, "cannot create the schema"));
	new_station_id(id);
	p = dbpg_prepare(db, "INSERT INTO station (id, name, created) VALUES"
	    " (?1, ?2, ?3)");
	dbpg_bind_text(p, 1, id, -1, 0);
	dbpg_bind_text(p, 2, station_name, -1, 0);
	dbpg_bind_int(p, 3, db_now());
	dbpg_step(db, p, 0);
	dbpg_finalize(p);
	p = dbpg_prepare(db, "INSERT INTO station_self (one, id) VALUES"
	    " (1, ?1)");
	dbpg_bind_text(p, 1, id, -1, 0);
	dbpg_step(db, p, 0);
	dbpg_finalize(p);
}

/* ---- migrations ---- */

/*
 * A refusal in the open transaction: rolls it back, prints the formatted
 * message like errx(3) and exits 1.
 */
static void __attribute__((noreturn, format(printf, 2, 3)))
pg_die(struct db *db, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	dbpg_rollback(db);
	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	db_fail_msg(msg);
}

/*
 * refkit_gone_note(origin, oseq, data) of a row of change (step 14), as
 * gone_fn_note is on SQLite.
 */
static int
client_gone_note(struct db *db, struct pg_stmt *p,
    const struct dbpg_client *client)
{
	const char *origin = dbpg_column_text(p, 0);

	if (origin == NULL || dbpg_column_bytes(p, 2) < 1)
		return -1;
	return client->refkit_gone_note(db, origin, dbpg_column_int(p, 1),
	    dbpg_column_blob(p, 2), (size_t)dbpg_column_bytes(p, 2));
}

/* refkit_chain_log(kind, log) of a log (step 15), as on SQLite. */
static int
client_chain_log(struct db *db, struct pg_stmt *p,
    const struct dbpg_client *client)
{
	const char *kind = dbpg_column_text(p, 0);

	if (kind == NULL)
		return -1;
	return client->refkit_chain_log(db, kind, dbpg_column_int(p, 1));
}

/*
 * The functions of refkit's own that a step calls, which a server lacks:
 * on SQLite each is an SQL function of the connection (db_open); here
 * the step's SELECT gives its arguments (tools/pgschema.c), and the tool
 * calls it for each row, through what db_open gave dbpg_open.  why is
 * its failure, said after the step's.
 */
static const struct {
	const char	*name;
	int		 nargs;
	int		(*fn)(struct db *, struct pg_stmt *,
			    const struct dbpg_client *);
	const char	*why;
} client_fns[] = {
	{ "refkit_gone_note", 3, client_gone_note,
	    "a change holds no changeset refkit can read" },
	{ "refkit_chain_log", 2, client_chain_log,
	    "a log of a kind refkit does not chain" },
};

int
dbpg_client_fn(const char *name)
{
	for (size_t i = 0; i < sizeof client_fns / sizeof *client_fns; i++)
		if (strcasecmp(client_fns[i].name, name) == 0)
			return client_fns[i].nargs;
	return -1;
}

/* A step's part, a function of refkit's called for each row. */
static void
client_run(struct db *db, const struct dbpg_part *part, const char *what,
    const struct dbpg_client *client)
{
	struct pg_stmt *p;
	size_t i = 0;

	while (i < sizeof client_fns / sizeof *client_fns &&
	    strcmp(client_fns[i].name, part->fn) != 0)
		i++;
	if (i == sizeof client_fns / sizeof *client_fns)
		pg_die(db, "%s: this refkit has no function %s", what,
		    part->fn);
	p = dbpg_prepare(db, part->sql);
	while (dbpg_step(db, p, 0) == DB_ROW)
		if (client_fns[i].fn(db, p, client) != 0) {
			dbpg_finalize(p);
			pg_die(db, "%s: %s", what, client_fns[i].why);
		}
	dbpg_finalize(p);
}

/*
 * Brings the database, at version (read under the writers' lock, in the
 * open transaction, which the caller commits), to DB_SCHEMA_VERSION: the
 * steps in order, each cut from schema.sql and translated by the build
 * (db_schema_pg_step); then this version's refkit_travel, and the
 * server's functions and record of changes again, which give a table a
 * step added the triggers that record its changes; then the version.
 * The transaction does not record its changes (refkit.record is not
 * on): a step is the same at every station, as on SQLite, where only
 * step 11, before the oldest a server migrates from, and step 15 are
 * recorded.  Step 15's calls (the events chained) run last, once the
 * triggers of its chain table are made, with the record on, and their
 * changes are stored as the station's next (client->record_store), as
 * on SQLite.  Any failure rolls it all back and exits 1 with one line.
 */
static void
migrate(struct db *db, long version, const struct dbpg_client *client)
{
	char *what = xasprintf("cannot migrate the schema from version %ld "
	    "to %d", version, DB_SCHEMA_VERSION), *set;

	for (int v = (int)version + 1; v <= DB_SCHEMA_VERSION; v++) {
		const struct dbpg_part *p = db_schema_pg_step[v];

		if (p == NULL)
			pg_die(db, "%s: this refkit was built without its "
			    "steps", what);
		for (; p->sql != NULL; p++)
			if (p->fn == NULL)
				pq.clear(pg_run(db, p->sql, what));
			else if (v != DB_SCHEMA_CHAINED)
				client_run(db, p, what, client);
	}
	pq.clear(pg_run(db, db_schema_pg_travel, what));
	pq.clear(pg_run(db, db_schema_pg_station, what));
	if (version < DB_SCHEMA_CHAINED) {
		pq.clear(pg_run(db, "SELECT set_config('refkit.record', 'on',"
		    " true)", what));
		for (const struct dbpg_part *p =
		    db_schema_pg_step[DB_SCHEMA_CHAINED]; p != NULL &&
		    p->sql != NULL; p++)
			if (p->fn != NULL)
				client_run(db, p, what, client);
		client->record_store(db);
		pq.clear(pg_run(db, "SELECT set_config('refkit.record', 'off',"
		    " true)", what));
	}
	set = xasprintf("UPDATE refkit_meta SET version = %d",
	    DB_SCHEMA_VERSION);
	pq.clear(pg_run(db, set, what));
	free(set);
	free(what);
}

/*
 * The usual open in one round trip: the connection set up, and a refkit
 * database of this version found, with its station's keys.  Anything
 * else (an empty database, another program's, another version, one
 * made before the record of changes (no refkit_rowlog), an
 * error) returns 0 having changed nothing, and dbpg_open takes the long
 * way under the writers' lock, which says what it is.  None of that is
 * needed here: a database at this version has its schema whole (it was
 * created in one transaction), and no migration waits for it.
 */
/*
 * Whether db reaches the server through a pooler: the backend that
 * answers (server_pid, its pg_backend_pid()) is not the one the
 * connection's start named, whose number PgBouncer makes up.  Then no
 * statement is kept prepared, a reader's end goes with a sync of its
 * own (reader_end_out), and watch is refused (dbpg_listen): nothing of
 * a session outlives its transaction.
 */
static void
pooled_is(struct db *db, const char *server_pid)
{
	cache_of(db)->pooled = strtol(server_pid, NULL, 10) !=
	    (long)pq.backendPID(CONN(db));
}

static int
open_usual(struct db *db)
{
	PGresult *res = pq.exec(CONN(db), "SELECT m.application_id, m.version,"
	    " (SELECT id FROM station_self), to_regclass('refkit_rowlog') IS"
	    " NOT NULL, pg_backend_pid(), EXISTS (SELECT 1 FROM change WHERE"
	    " origin = (SELECT id FROM station_self)), refkit_functions()"
	    " FROM refkit_meta m");
	int ok = res != NULL && pq.resultStatus(res) == PGRES_TUPLES_OK &&
	    pq.ntuples(res) == 1 && pq.nfields(res) == 7 &&
	    atoll(pq.getvalue(res, 0, 0)) == DB_APPLICATION_ID &&
	    strtol(pq.getvalue(res, 0, 1), NULL, 10) == DB_SCHEMA_VERSION &&
	    pq.getvalue(res, 0, 3)[0] == 't' &&
	    strcmp(pq.getvalue(res, 0, 6), db_schema_pg_functions) == 0;

	if (ok) {
		pooled_is(db, pq.getvalue(res, 0, 4));
		cache_of(db)->started = pq.getvalue(res, 0, 5)[0] == 't';
	}
	/* The keys' base, which db_key_base would read with one more. */
	if (ok && !pq.getisnull(res, 0, 2))
		db->key_base = db_station_tag(pq.getvalue(res, 0, 2)) <<
		    DB_KEY_BITS;
	if (res != NULL)
		pq.clear(res);
	return ok;
}

/* Whether c was given a connect_timeout (or PGCONNECT_TIMEOUT). */
static int
has_timeout(PGconn *c)
{
	PQconninfoOption *opts = pq.conninfo(c);
	int t = 0;

	for (PQconninfoOption *o = opts; o != NULL && o->keyword != NULL; o++)
		if (strcmp(o->keyword, "connect_timeout") == 0 && o->val != NULL)
			t = strtol(o->val, NULL, 10) > 0;
	pq.conninfoFree(opts);
	return t;
}

/*
 * Connects as PQconnectdb does, but with no_notice in place before the
 * server says anything: a server stopping at once warns each connection
 * still starting ("terminating connection due to immediate shutdown
 * command"), and libpq's own notice processor would print that on
 * stderr, a line above the command's own.  A connection given a
 * connect_timeout is left to PQconnectdb, which alone can go on to a
 * host's next address when one does not answer in time.
 */
static PGconn *
pg_connect(const char *conninfo)
{
	PostgresPollingStatusType st = PGRES_POLLING_WRITING;
	PGconn *c = pq.connectStart(conninfo);

	if (c == NULL || pq.status(c) == CONNECTION_BAD)
		return c;
	if (has_timeout(c)) {
		pq.finish(c);
		return pq.connectdb(conninfo);
	}
	pq.setNoticeProcessor(c, no_notice, NULL);
	while (st != PGRES_POLLING_OK && st != PGRES_POLLING_FAILED) {
		struct pollfd p = { .fd = pq.socket(c), .events =
		    st == PGRES_POLLING_READING ? POLLIN : POLLOUT };

		if (p.fd < 0)
			break;
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			err(1, "cannot wait for the PostgreSQL server");
		st = pq.connectPoll(c);
	}
	return c;
}

/*
 * $REFKIT_PG_TRACE names a file that gets libpq's trace of every message
 * to and from the server after connecting (PQtrace), appended: a test
 * counts the round trips a command costs from it (tests/pg/db-trips.sh).
 */
static FILE *trace_fp;

static void
trace_on(PGconn *c)
{
	const char *path = getenv("REFKIT_PG_TRACE");

	if (path == NULL || *path == '\0')
		return;
	if (trace_fp == NULL && (trace_fp = fopen(path, "a")) == NULL)
		err(1, "%s", path);
	/* PQtrace sets the flags back to none. */
	pq.trace(c, trace_fp);
	pq.setTraceFlags(c, PQTRACE_SUPPRESS_TIMESTAMPS);
}

/* Connects db to the server its path names, or exits with one line. */
static void
pg_connect_or_die(struct db *db)
{
	char *conninfo = db->path, *msg;
	PGconn *c;

	check_conninfo(conninfo);
	c = pg_connect(conninfo);
	if (c == NULL)
		errx(1, "cannot connect to PostgreSQL: out of memory");
	db->path = display_name(c);
	free(conninfo);
	if (pq.status(c) != CONNECTION_OK) {
		char *why = first_line(pq.errorMessage(c));

		/* libpq's own words for it name its internals. */
		if (strcmp(why, "fe_sendauth: no password supplied") == 0) {
			free(why);
			why = xstrdup("the server wants a password, and none "
			    "was given");
		}
		pq.finish(c);
		msg = xasprintf("cannot connect to '%s': %s", db->path, why);
		free(why);
		db_fail_msg(msg);
	}
	db->pg = c;
	pq.setNoticeProcessor(c, no_notice, NULL);
	trace_on(c);
}

/*
 * A database of refkit's with a record of changes, at version (the
 * caller's transaction holds the writers' lock): migrated if older, in
 * that transaction, which this commits.
 */
/* Whether the database's functions are this build's (refkit_functions). */
static int
functions_ours(struct db *db)
{
	PGresult *res = pg_run(db, "SELECT p.prosrc FROM pg_catalog.pg_proc p"
	    " WHERE p.proname = 'refkit_functions' AND p.pronamespace ="
	    " current_schema()::regnamespace", "cannot read the database");
	int ours = pq.ntuples(res) == 1 &&
	    strstr(pq.getvalue(res, 0, 0), db_schema_pg_functions) != NULL &&
	    db_schema_pg_functions[0] != '\0';

	pq.clear(res);
	return ours;
}

static void
open_known(struct db *db, int has_record, int read_only,
    const struct dbpg_client *client)
{
	PGresult *res = pg_run(db, "SELECT application_id, version FROM"
	    " refkit_meta", "cannot read the database");
	long version;

	if (pq.ntuples(res) != 1 || atoll(pq.getvalue(res, 0, 0)) !=
	    DB_APPLICATION_ID)
		errx(1, "'%s': not a refkit database (its refkit_meta is "
		    "another program's)", db->path);
	version = strtol(pq.getvalue(res, 0, 1), NULL, 10);
	pq.clear(res);
	if (version > DB_SCHEMA_VERSION)
		errx(1, "'%s': written by a newer refkit (schema %ld; this "
		    "one knows up to %d); not changed", db->path, version,
		    DB_SCHEMA_VERSION);
	/* Made before a server was a station: its writes went unrecorded. */
	if (!has_record)
		errx(1, "'%s': made by an earlier refkit, which kept no "
		    "record of changes on PostgreSQL; not changed (make it "
		    "anew)", db->path);
	/*
	 * Read under the lock: another command may have migrated it while
	 * this one waited, and then there is nothing to do.
	 */
	if (version < DB_SCHEMA_VERSION) {
		if (version < DBPG_SCHEMA_OLDEST)
			errx(1, "'%s': schema %ld, older than any this refkit "
			    "migrates on PostgreSQL (%d and later); not "
			    "changed", db->path, version, DBPG_SCHEMA_OLDEST);
		if (read_only)
			errx(1, "cannot use '%s': its schema needs updating to "
			    "version %d, and the server is read-only (a "
			    "standby?)", db->path, DB_SCHEMA_VERSION);
		migrate(db, version, client);
		pq.clear(pg_run(db, "COMMIT", "cannot migrate the schema"));
		return;
	}
	/*
	 * Its functions another build's, of the same version (made or
	 * migrated by it): this build's replace them.  A standby keeps
	 * them, and a command that writes is refused there anyway.
	 */
	if (!read_only && !functions_ours(db))
		pq.clear(pg_run(db, db_schema_pg_station, "cannot bring the "
		    "server's functions up to date"));
	pq.clear(pg_run(db, "COMMIT", "cannot read the database"));
}

void
dbpg_open(struct db *db, const char *station_name,
    const struct dbpg_client *client)
{
	PGresult *res;
	long ntables;
	int has_meta, has_record, read_only;

	pq_load();
	pg_connect_or_die(db);
	if (open_usual(db))
		return;
	/*
	 * What the database holds, read under the writers' lock, so that
	 * two first commands do not both create the schema: read by a
	 * statement after the one that waits for the lock, since a
	 * statement sees the database as it was when it began.
	 */
	pq.clear(pg_run(db, "BEGIN", "cannot start a transaction"));
	pq.clear(pg_run(db, "SELECT pg_advisory_xact_lock(" PG_LOCK_KEY ")",
	    "cannot read the database"));
	res = pg_run(db, "SELECT 0,"
	    " (SELECT count(*) FROM pg_catalog.pg_class c JOIN"
	    " pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE"
	    " n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v',"
	    " 'm', 'f')), to_regclass('refkit_meta') IS NOT NULL,"
	    " to_regclass('refkit_rowlog') IS NOT NULL,"
	    " current_setting('transaction_read_only'), pg_backend_pid()",
	    "cannot read the database");
	pooled_is(db, pq.getvalue(res, 0, 5));
	ntables = strtol(pq.getvalue(res, 0, 1), NULL, 10);
	has_meta = pq.getvalue(res, 0, 2)[0] == 't';
	has_record = pq.getvalue(res, 0, 3)[0] == 't';
	read_only = strcmp(pq.getvalue(res, 0, 4), "on") == 0;
	pq.clear(res);
	if (!has_meta && ntables > 0)
		errx(1, "'%s': not a refkit database (it has tables of "
		    "another program)", db->path);
	if (!has_meta) {
		create_schema(db, station_name);
		pq.clear(pg_run(db, "COMMIT", "cannot create the schema"));
		return;
	}
	open_known(db, has_record, read_only, client);
}

int
dbpg_open_existing(struct db *db)
{
	PQconninfoOption *opts;
	PGconn *c;
	char *conninfo = db->path;

	pq_load();
	if ((opts = pq.conninfoParse(conninfo, NULL)) == NULL)
		return -1;
	pq.conninfoFree(opts);
	if ((c = pg_connect(conninfo)) == NULL)
		return -1;
	if (pq.status(c) != CONNECTION_OK) {
		pq.finish(c);
		return -1;
	}
	db->path = display_name(c);
	free(conninfo);
	db->pg = c;
	pq.setNoticeProcessor(c, no_notice, NULL);
	trace_on(c);
	if (!open_usual(db)) {
		dbpg_close(db);
		return -1;
	}
	return 0;
}

int
dbpg_idle(struct db *db)
{
	return db->pg != NULL && pq.status(CONN(db)) == CONNECTION_OK &&
	    (db->pg_cache == NULL || !db->pg_cache->in_tx);
}

int
dbpg_reusable(struct db *db, int settle)
{
	struct pg_cache *c = db->pg_cache;
	struct pollfd p;
	struct pg_back b;

	if (!dbpg_idle(db))
		return 0;
	/*
	 * A reader's end, sent and not waited for: read now, or left to
	 * come with the next command's first answer.
	 */
	if (c != NULL && c->piping && !settle)
		return 1;
	if (c != NULL && c->piping) {
		sent_read(db, &b);
		if (b.failed != NULL) {
			pq.clear(b.failed);
			return 0;
		}
		if (b.lost)
			return 0;
	}
	if (pq.transactionStatus(CONN(db)) != PQTRANS_IDLE)
		return 0;
	/*
	 * Nothing is owed now: anything the server sent since is its
	 * closing of the connection (a shutdown, a terminated backend).
	 */
	p.fd = pq.socket(CONN(db));
	p.events = POLLIN;
	p.revents = 0;
	return p.fd >= 0 && poll(&p, 1, 0) == 0;
}

void
dbpg_close(struct db *db)
{
	if (db->pg == NULL)
		return;
	dbpg_rollback(db);
	if (trace_fp != NULL)
		pq.untrace(CONN(db));
	pq.finish(CONN(db));
	db->pg = NULL;
	cache_free(db);
}

/*
 * The schema and its steps, which build/pgschema writes into every tool
 * (build/schema-pg.c); build/pgschema itself links these empty ones.
 */
__attribute__((weak)) const char db_schema_pg_sql[] = "";
__attribute__((weak)) const char db_schema_pg_station[] = "";
__attribute__((weak)) const char db_schema_pg_functions[] = "";
__attribute__((weak)) const struct dbpg_part *const
    db_schema_pg_step[DB_SCHEMA_VERSION + 1] = { NULL };
__attribute__((weak)) const char db_schema_pg_travel[] = "";

/* ---- transactions ---- */

int
dbpg_in_transaction(struct db *db)
{
	const struct pg_cache *c = db->pg_cache;

	if (db->pg == NULL)
		return 0;
	if (c != NULL && (c->in_tx || c->piping))
		return c->in_tx;
	return pq.transactionStatus(CONN(db)) != PQTRANS_IDLE;
}

/*
 * Both BEGINs are sent, not waited for: they go to the server with the
 * transaction's first statement read, in its round trip.
 */
void
dbpg_begin(struct db *db, int record, int shared)
{
	char sql[200];

	/*
	 * No JIT for a writer's statements, which are small: compiling one
	 * costs seconds, and the planner, misled by a table that autovacuum
	 * has not yet counted, asks for it (the record of changes' statement
	 * on a new database took 5 s instead of 10 ms).
	 */
	snprintf(sql, sizeof sql, "SELECT pg_advisory_xact_lock%s("
	    PG_LOCK_KEY "), current_setting('transaction_read_only'),"
	    " set_config('jit', 'off', true)%s",
	    shared ? "_shared" : "", record ?
	    ", set_config('refkit.record', 'on', true)" : "");
	send_sql(db, "BEGIN", 0, NULL, SENT_CHECK,
	    "cannot start a transaction");
	send_sql(db, sql, 0, NULL, SENT_BEGIN, "cannot start a transaction");
	cache_of(db)->in_tx = 1;
	cache_of(db)->reading = 0;
	cache_of(db)->starting = 0;
}

void
dbpg_lock(struct db *db, int64_t key)
{
	char num[24];
	const char *v = num;

	/* Taken before the statements sent after it. */
	snprintf(num, sizeof num, "%" PRId64, key);
	send_sql(db, "SELECT pg_advisory_xact_lock($1::int8)", 1, &v,
	    SENT_CHECK, NULL);
}

int
dbpg_listen(struct db *db)
{
	/* A pooler gives no session: notices would go to whoever. */
	if (cache_of(db)->pooled)
		errx(1, "cannot watch '%s' through a connection pooler "
		    "(PgBouncer?), which passes no notice of changes on: give "
		    "the server's own address", db->path);
	pq.clear(pg_run(db, "LISTEN refkit_change", "cannot watch the "
	    "database"));
	return pq.socket(CONN(db));
}

int
dbpg_notified(struct db *db)
{
	PGnotify *n;
	int count = 0;

	/* A reader's COMMIT may still be on its way: its answer is read. */
	sent_check(db);
	if (!pq.consumeInput(CONN(db)))
		return -1;
	while ((n = pq.notifies(CONN(db))) != NULL) {
		pq.freemem(n);
		count++;
	}
	return count;
}

void
dbpg_begin_read(struct db *db)
{
	send_sql(db, "BEGIN ISOLATION LEVEL REPEATABLE READ", 0, NULL,
	    SENT_CHECK, "cannot start a transaction");
	cache_of(db)->in_tx = 1;
	cache_of(db)->reading = 1;
}

/*
 * A reader's COMMIT or ROLLBACK, sent: on its way now, its answer read
 * with the next statement.  Through a pooler it goes with a sync of its
 * own, after which the pooler can give the server's connection to
 * another client; without one, the pooler would keep it for this one
 * until its next command.
 */
static void
reader_end_out(struct db *db)
{
	struct pg_cache *c = cache_of(db);

	if (c->pooled) {
		if (!pq.pipelineSync(CONN(db)))
			pg_failed(db, NULL, db->path);
		c->syncs++;
	}
	if (pq.flush(CONN(db)) != 0)
		pg_failed(db, NULL, db->path);
}

void
dbpg_commit(struct db *db)
{
	struct pg_cache *c = cache_of(db);
	struct pg_back b;

	/*
	 * A reader's COMMIT is sent, not waited for: what it read stands
	 * whatever the answer, and the answer is read with the next
	 * statement (or never, when the command ends).  It leaves now, so
	 * that no snapshot stays open on the server while a GM thinks.
	 */
	if (c->reading) {
		send_sql(db, "COMMIT", 0, NULL, SENT_CHECK, "cannot commit");
		c->in_tx = c->reading = 0;
		reader_end_out(db);
		return;
	}
	send_sql(db, "COMMIT", 0, NULL, SENT_CHECK, "cannot commit");
	c->in_tx = 0;
	sent_read(db, &b);
	if (b.lost) {
		if (b.failed != NULL)
			pq.clear(b.failed);
		errx(1, "cannot commit: the connection to the server was lost "
		    "while committing; whether this command was written, its "
		    "log tells");
	}
	sent_settle(db, &b);
	c->started |= c->starting;
	c->starting = 0;
}

int
dbpg_station_started(struct db *db)
{
	return cache_of(db)->started;
}

void
dbpg_station_starts(struct db *db)
{
	cache_of(db)->starting = 1;
}

void
dbpg_rollback(struct db *db)
{
	struct pg_cache *c = db->pg_cache;
	struct pg_back b;

	if (db->pg == NULL || pq.status(CONN(db)) != CONNECTION_OK)
		return;
	/* A reader's is sent and not waited for, as its COMMIT would be. */
	if (c != NULL && c->in_tx && c->reading) {
		c->in_tx = c->reading = 0;
		send_sql(db, "ROLLBACK", 0, NULL, SENT_CHECK, NULL);
		reader_end_out(db);
		return;
	}
	/* Only a reader's end on its way: nothing to take back. */
	if (c != NULL && c->piping && !c->in_tx)
		return;
	if (c != NULL && c->piping) {
		/* What was sent is read and let go: nothing of it stands. */
		if (c->in_tx && pq.sendQueryParams(CONN(db), "ROLLBACK", 0,
		    NULL, NULL, NULL, NULL, 0))
			sent_add(db, SENT_CHECK, NULL, NULL, NULL);
		c->in_tx = c->reading = 0;
		sent_read(db, &b);
		if (b.failed != NULL)
			pq.clear(b.failed);
	}
	if (c != NULL)
		c->in_tx = c->reading = c->starting = 0;
	if (pq.transactionStatus(CONN(db)) != PQTRANS_IDLE)
		pq.clear(pq.exec(CONN(db), "ROLLBACK"));
}

/* ---- statements ---- */

/*
 * Each call of refkit_key_lo() or refkit_key_hi() is a query of
 * station_self that the server plans and runs within the statement; the
 * connection read the station's keys as it opened, so they go in as
 * numbers.
 */
char *
dbpg_pin_keys(char *sql, int64_t base)
{
	struct strbuf b = STRBUF_INIT;
	const char *s = sql;
	char num[32];

	if (base == 0 || strstr(sql, "refkit_key_") == NULL)
		return sql;
	while (*s != '\0') {
		if (*s == '\'' || *s == '"') {
			const char *e = skip_quoted(s);

			strbuf_add(&b, s, (size_t)(e - s));
			s = e;
		} else if ((s == sql || !ident_char((unsigned char)s[-1])) &&
		    (strncmp(s, "refkit_key_lo()", 15) == 0 ||
		    strncmp(s, "refkit_key_hi()", 15) == 0)) {
			snprintf(num, sizeof num, "(%" PRId64 "::bigint)",
			    base + (s[11] == 'l' ? 1 : DB_KEY_MAX_NO));
			strbuf_addstr(&b, num);
			s += 15;
		} else
			strbuf_add(&b, s++, 1);
	}
	free(sql);
	return strbuf_detach(&b, NULL);
}

/* p's SQL as the server runs it, and its parameters: translated once. */
static void
translated(struct db *db, const char *sql, struct pg_stmt *p)
{
	struct pg_cache *c = cache_of(db);
	uint64_t h = 1469598103934665603ULL;
	struct pg_memo *m = NULL;

	for (const char *q = sql; *q != '\0'; q++)
		h = (h ^ (unsigned char)*q) * 1099511628211ULL;
	for (size_t i = (size_t)h & (PG_MEMO_SLOTS - 1);;
	    i = (i + 1) & (PG_MEMO_SLOTS - 1)) {
		m = &c->memo[i];
		if (m->from == NULL || (strcmp(m->from, sql) == 0 &&
		    m->key_base == db->key_base))
			break;
	}
	if (m->from != NULL) {
		p->sql = xstrdup(m->to);
		p->nparam = m->nparam;
		p->nextra = m->nextra;
		memcpy(p->extra, m->extra, sizeof p->extra);
		return;
	}
	p->sql = dbpg_pin_keys(dbpg_translate(sql, &p->nparam, p->extra,
	    PG_EXTRA_MAX, &p->nextra), db->key_base);
	if (c->nmemo >= PG_MEMO_MAX)
		return;
	c->nmemo++;
	m->from = xstrdup(sql);
	m->to = xstrdup(p->sql);
	m->key_base = db->key_base;
	m->nparam = p->nparam;
	m->nextra = p->nextra;
	memcpy(m->extra, p->extra, sizeof m->extra);
}

struct pg_stmt *
dbpg_prepare(struct db *db, const char *sql)
{
	struct pg_stmt *p = xcalloc(1, sizeof *p);

	p->db = db;
	translated(db, sql, p);
	p->n = p->nparam + p->nextra;
	p->val = xcalloc((size_t)p->n + 1, sizeof *p->val);
	p->own = xcalloc((size_t)p->n + 1, sizeof *p->own);
	p->len = xcalloc((size_t)p->n + 1, sizeof *p->len);
	p->fmt = xcalloc((size_t)p->n + 1, sizeof *p->fmt);
	p->type = xcalloc((size_t)p->n + 1, sizeof *p->type);
	p->num = xcalloc((size_t)p->n + 1, sizeof *p->num);
	/*
	 * A parameter the SQL does not name has no type for the server to
	 * infer ("1 = 1" for "name = ?1"): it goes as text.
	 */
	p->unused = xmalloc((size_t)p->n + 1);
	memset(p->unused, 1, (size_t)p->n + 1);
	for (const char *c = p->sql; *c != '\0'; c++) {
		if (*c == '\'' || *c == '"')
			c = skip_quoted(c) - 1;
		else if (*c == '$' && isdigit((unsigned char)c[1])) {
			const char *d = c + 1;
			int n = param_no(&d);

			if (n >= 1 && n <= p->n)
				p->unused[n - 1] = 0;
		}
	}
	for (int k = 0; k < p->nparam; k++)
		p->type[k] = p->unused[k] ? OID_TEXT : 0;
	return p;
}

static void
blobs_free(struct pg_stmt *p)
{
	if (p->blob == NULL)
		return;
	for (int i = 0; i < p->ncol; i++)
		if (p->blob[i] != NULL)
			pq.freemem(p->blob[i]);
	free(p->blob);
	free(p->bloblen);
	p->blob = NULL;
	p->bloblen = NULL;
}

void
dbpg_reset(struct pg_stmt *p)
{
	struct pg_cache *c = p->db->pg_cache;

	/* Asked, and let go before its answer came: it goes to no one. */
	if (p->asked && c != NULL)
		for (size_t i = 0; i < c->nsent; i++)
			if (c->sent[i].stmt == p)
				c->sent[i].stmt = NULL;
	p->asked = p->arrived = 0;
	blobs_free(p);
	if (p->res != NULL)
		pq.clear(p->res);
	p->res = NULL;
}

void
dbpg_finalize(struct pg_stmt *p)
{
	if (p == NULL)
		return;
	dbpg_reset(p);
	for (int i = 0; i <= p->n; i++)
		free(p->own[i]);
	free(p->own);
	free(p->val);
	free(p->len);
	free(p->fmt);
	free(p->type);
	free(p->num);
	free(p->unused);
	free(p->sql);
	free(p);
}

/* Parameter i's slot, its old copy freed; NULL when out of range. */
static int
slot(struct pg_stmt *p, int i)
{
	if (i < 1 || i > p->nparam)
		return -1;
	free(p->own[i - 1]);
	p->own[i - 1] = NULL;
	p->len[i - 1] = 0;
	p->fmt[i - 1] = 0;
	p->type[i - 1] = p->unused[i - 1] ? OID_TEXT : 0;
	if (i <= 32) {
		p->picked &= ~(UINT32_C(1) << (i - 1));
		p->before &= ~(UINT32_C(1) << (i - 1));
	}
	return i - 1;
}

void
dbpg_clear(struct pg_stmt *p)
{
	for (int i = 1; i <= p->nparam; i++)
		dbpg_bind_null(p, i);
}

int
dbpg_bind_count(struct pg_stmt *p)
{
	return p->nparam;
}

void
dbpg_bind_int(struct pg_stmt *p, int i, int64_t v)
{
	int k = slot(p, i);

	if (k < 0)
		return;
	snprintf(p->num[k], sizeof p->num[k], "%" PRId64, v);
	p->val[k] = p->num[k];
	p->type[k] = p->unused[k] ? OID_TEXT : OID_INT8;
	if (v == DB_PICKED || v == DB_PICKED_BEFORE) {
		if (k >= 32)
			errx(1, "refkit bug: a log picked ahead bound past "
			    "parameter 32");
		if (v == DB_PICKED)
			p->picked |= UINT32_C(1) << k;
		else
			p->before |= UINT32_C(1) << k;
	}
}

void
dbpg_bind_double(struct pg_stmt *p, int i, double v)
{
	int k = slot(p, i);

	if (k < 0)
		return;
	snprintf(p->num[k], sizeof p->num[k], "%.17g", v);
	p->val[k] = p->num[k];
	p->type[k] = OID_FLOAT8;
}

void
dbpg_bind_null(struct pg_stmt *p, int i)
{
	int k = slot(p, i);

	if (k >= 0)
		p->val[k] = NULL;
}

void
dbpg_bind_text(struct pg_stmt *p, int i, const char *s, int n, int copy)
{
	int k = slot(p, i);

	if (k < 0)
		return;
	if (s != NULL && (copy || (n >= 0 && s[n] != '\0')))
		s = p->own[k] = n >= 0 ? xstrndup(s, (size_t)n) : xstrdup(s);
	p->val[k] = s;
}

void
dbpg_bind_blob(struct pg_stmt *p, int i, const void *v, int n)
{
	int k = slot(p, i);

	if (k < 0)
		return;
	/* A zero-length blob is not NULL. */
	p->val[k] = v != NULL ? v : "";
	p->len[k] = n;
	p->fmt[k] = 1;
	p->type[k] = OID_BYTEA;
}

/* The name keys the statement computes from its parameters. */
static void
bind_extra(struct pg_stmt *p)
{
	for (int j = 0; j < p->nextra; j++) {
		int src = abs(p->extra[j]) - 1, k = p->nparam + j;
		const char *v = src < p->nparam ? p->val[src] : NULL;

		free(p->own[k]);
		p->own[k] = NULL;
		p->type[k] = OID_INT8;
		if (v == NULL || p->fmt[src] != 0) {
			p->val[k] = NULL;
			continue;
		}
		if (p->extra[j] < 0) {
			char *low = xstrdup(v);

			/* SQLite's lower(): ASCII letters only. */
			for (char *c = low; *c; c++)
				if (*c >= 'A' && *c <= 'Z')
					*c = (char)(*c - 'A' + 'a');
			snprintf(p->num[k], sizeof p->num[k], "%" PRId64,
			    db_name_key(low));
			free(low);
		} else
			snprintf(p->num[k], sizeof p->num[k], "%" PRId64,
			    db_name_key(v));
		p->val[k] = p->num[k];
	}
}

/*
 * p's SQL with each parameter bound to DB_PICKED written as the server's
 * refkit_pick(), the log the command picked ahead (tools/pgcompat.sql),
 * and each bound to DB_PICKED_BEFORE as refkit_before(): their values
 * are not known to the client yet.  The parameter stays, bound but not
 * named, with its type.
 */
static char *
picked_sql(const struct pg_stmt *p)
{
	struct strbuf b = STRBUF_INIT;
	const char *s = p->sql, *from = s;

	while (*s != '\0') {
		if (*s == '\'' || *s == '"') {
			s = skip_quoted(s);
			continue;
		}
		if (*s == '$' && isdigit((unsigned char)s[1])) {
			const char *d = s + 1;
			int n = param_no(&d);

			if (n >= 1 && n <= 32 && ((p->picked | p->before) &
			    (UINT32_C(1) << (n - 1)))) {
				strbuf_add(&b, from, (size_t)(s - from));
				strbuf_addstr(&b, (p->picked & (UINT32_C(1) <<
				    (n - 1))) ? "refkit_pick()" :
				    "refkit_before()");
				from = d;
			}
			s = d;
			continue;
		}
		s++;
	}
	strbuf_addstr(&b, from);
	return strbuf_detach(&b, NULL);
}

/*
 * Sends p's statement, prepared on its second run (the preparing goes in
 * the same round trip), its result for owner (p, or NULL for a write
 * nobody reads), within a savepoint when savepoint is set.
 */
static void
send_stmt(struct db *db, struct pg_stmt *p, struct pg_stmt *owner,
    int savepoint)
{
	PGconn *c = CONN(db);
	struct pg_prep *e;
	char *sql = NULL;
	int fresh, ok;

	if ((p->picked | p->before) != 0) {
		sql = p->sql;
		p->sql = picked_sql(p);
	}
	bind_extra(p);
	e = prepared(db, p, &fresh);
	if (savepoint)
		send_sql(db, "SAVEPOINT refkit_step", 0, NULL, SENT_CHECK, NULL);
	pipe_on(db);
	if (fresh) {
		if (!pq.sendPrepare(c, e->name, p->sql, p->n, p->type))
			pg_failed(db, NULL, db->path);
		sent_add(db, SENT_PREPARE, NULL, e, NULL);
	}
	ok = e != NULL ? pq.sendQueryPrepared(c, e->name, p->n, p->val, p->len,
	    p->fmt, 0) : pq.sendQueryParams(c, p->sql, p->n, p->type, p->val,
	    p->len, p->fmt, 0);
	if (sql != NULL) {
		free(p->sql);
		p->sql = sql;
	}
	if (!ok)
		pg_failed(db, NULL, db->path);
	sent_add(db, SENT_STMT, owner, NULL, NULL);
	if (savepoint)
		send_sql(db, "RELEASE SAVEPOINT refkit_step", 0, NULL,
		    SENT_CHECK, NULL);
}

void
dbpg_send(struct db *db, struct pg_stmt *p)
{
	dbpg_reset(p);
	send_stmt(db, p, NULL, 0);
	if (cache_of(db)->nsent >= PG_SENT_MAX)
		sent_check(db);
}

/* The statement's result came: its first row, or none. */
static int
stepped(struct db *db, struct pg_stmt *p)
{
	ExecStatusType rc = pq.resultStatus(p->res);
	const char *n = pq.cmdTuples(p->res);

	db->pg_changes = n && *n ? strtoll(n, NULL, 10) : 0;
	p->nrow = rc == PGRES_TUPLES_OK ? pq.ntuples(p->res) : 0;
	p->ncol = pq.nfields(p->res);
	p->row = 0;
	return p->row < p->nrow ? DB_ROW : DB_DONE;
}

void
dbpg_ask(struct db *db, struct pg_stmt *p)
{
	dbpg_reset(p);
	send_stmt(db, p, p, 0);
	p->asked = 1;
	if (cache_of(db)->nsent >= PG_SENT_MAX)
		sent_check(db);
}

int
dbpg_step(struct db *db, struct pg_stmt *p, int allow_constraint)
{
	struct pg_back b;
	const char *state;
	int savepoint;

	if (p->asked) {
		/* Its answer came in an earlier round trip, or comes now. */
		if (!p->arrived)
			sent_check(db);
		p->asked = 0;
		if (!p->arrived || p->res == NULL)
			pg_failed(db, NULL, db->path);
		p->arrived = 0;
		return stepped(db, p);
	}
	if (p->res != NULL) {
		blobs_free(p);
		if (++p->row < p->nrow)
			return DB_ROW;
		return DB_DONE;
	}
	/*
	 * A refused statement spoils PostgreSQL's transaction, where
	 * SQLite's goes on: a statement the caller may see refused runs
	 * under a savepoint.
	 */
	savepoint = allow_constraint && dbpg_in_transaction(db);
	send_stmt(db, p, p, savepoint);
	sent_read(db, &b);
	p->arrived = 0;
	if (b.read_only) {
		if (b.failed != NULL)
			pq.clear(b.failed);
		read_only_die(db);
	}
	if (!b.lost && b.failed == NULL && p->res != NULL)
		return stepped(db, p);
	dbpg_reset(p);
	state = b.failed ? pq.resultErrorField(b.failed, PG_DIAG_SQLSTATE) :
	    NULL;
	if (allow_constraint && b.stmt == p && state != NULL &&
	    strncmp(state, "23", 2) == 0 &&
	    pq.status(CONN(db)) == CONNECTION_OK) {
		pq.clear(b.failed);
		if (savepoint)
			pq.clear(pg_run(db, "ROLLBACK TO SAVEPOINT refkit_step;"
			    " RELEASE SAVEPOINT refkit_step", db->path));
		return DB_CONSTRAINT;
	}
	/* For a developer: the statement the server refused. */
	if (getenv("REFKIT_SQL_DEBUG") != NULL && b.stmt != NULL)
		fprintf(stderr, "refused: %s\n", b.stmt->sql);
	pg_failed(db, b.failed, b.what != NULL ? b.what : db->path);
}

int
dbpg_column_count(struct pg_stmt *p)
{
	return p->res ? pq.nfields(p->res) : 0;
}

static int
null_at(struct pg_stmt *p, int i)
{
	return p->res == NULL || p->row >= p->nrow || i < 0 || i >= p->ncol ||
	    pq.getisnull(p->res, p->row, i);
}

int64_t
dbpg_column_int(struct pg_stmt *p, int i)
{
	const char *v;

	if (null_at(p, i))
		return 0;
	v = pq.getvalue(p->res, p->row, i);
	switch (pq.ftype(p->res, i)) {
	case OID_BOOL:
		return v[0] == 't';
	case OID_INT2:
	case OID_INT4:
	case OID_INT8:
		return strtoll(v, NULL, 10);
	default:
		/* Text or a real: as SQLite reads a number's prefix. */
		if (strpbrk(v, ".eE") != NULL)
			return (int64_t)strtod(v, NULL);
		return strtoll(v, NULL, 10);
	}
}

double
dbpg_column_double(struct pg_stmt *p, int i)
{
	const char *v;

	if (null_at(p, i))
		return 0;
	v = pq.getvalue(p->res, p->row, i);
	if (pq.ftype(p->res, i) == OID_BOOL)
		return v[0] == 't';
	return strtod(v, NULL);
}

int
dbpg_column_type(struct pg_stmt *p, int i)
{
	if (null_at(p, i))
		return DB_NULL;
	switch (pq.ftype(p->res, i)) {
	case OID_BOOL:
	case OID_INT2:
	case OID_INT4:
	case OID_INT8:
		return DB_INTEGER;
	case OID_FLOAT4:
	case OID_FLOAT8:
		return DB_FLOAT;
	case OID_NUMERIC:
		return strchr(pq.getvalue(p->res, p->row, i), '.') ? DB_FLOAT :
		    DB_INTEGER;
	case OID_BYTEA:
		return DB_BLOB;
	default:
		return DB_TEXT;
	}
}

const void *
dbpg_column_blob(struct pg_stmt *p, int i)
{
	if (null_at(p, i))
		return NULL;
	if (pq.ftype(p->res, i) != OID_BYTEA)
		return pq.getvalue(p->res, p->row, i);
	if (p->blob == NULL) {
		p->blob = xcalloc((size_t)p->ncol, sizeof *p->blob);
		p->bloblen = xcalloc((size_t)p->ncol, sizeof *p->bloblen);
	}
	if (p->blob[i] == NULL) {
		p->blob[i] = pq.unescapeBytea((const unsigned char *)
		    pq.getvalue(p->res, p->row, i), &p->bloblen[i]);
		if (p->blob[i] == NULL)
			errx(1, "out of memory");
	}
	return p->blob[i];
}

int
dbpg_column_bytes(struct pg_stmt *p, int i)
{
	if (null_at(p, i))
		return 0;
	if (pq.ftype(p->res, i) == OID_BYTEA) {
		(void)dbpg_column_blob(p, i);
		return (int)p->bloblen[i];
	}
	return pq.getlength(p->res, p->row, i);
}

const char *
dbpg_column_text(struct pg_stmt *p, int i)
{
	const char *v;

	if (null_at(p, i))
		return NULL;
	v = pq.getvalue(p->res, p->row, i);
	if (pq.ftype(p->res, i) == OID_BOOL)
		return v[0] == 't' ? "1" : "0";
	return v;
}

int
dbpg_column_declared(struct pg_stmt *p, int i)
{
	if (p->res == NULL || i < 0 || i >= pq.nfields(p->res))
		return DB_NULL;
	switch (pq.ftype(p->res, i)) {
	case OID_INT2:
	case OID_INT4:
	case OID_INT8:
		return DB_INTEGER;
	case OID_TEXT:
		return DB_TEXT;
	case OID_BYTEA:
		return DB_BLOB;
	default:
		return DB_NULL;		/* none that db_bound_cell gives */
	}
}

void
dbpg_bound_cell(struct pg_stmt *p, int i, struct db_cell *c)
{
	int k = i - 1;

	memset(c, 0, sizeof *c);
	c->type = DB_NULL;
	if (k < 0 || k >= p->nparam || p->val[k] == NULL)
		return;
	switch (p->type[k]) {
	case OID_INT8:
		c->type = DB_INTEGER;
		c->i = strtoll(p->val[k], NULL, 10);
		return;
	case OID_FLOAT8:
		c->type = DB_FLOAT;
		return;
	case OID_BYTEA:
		c->type = DB_BLOB;
		c->p = p->val[k];
		c->len = p->len[k];
		return;
	default:
		/* Text, or any parameter the SQL does not use. */
		c->type = DB_TEXT;
		c->p = p->val[k];
		c->len = (int)strlen(p->val[k]);
	}
}

const char *
dbpg_column_name(struct pg_stmt *p, int i)
{
	return p->res && i >= 0 && i < pq.nfields(p->res) ?
	    pq.fname(p->res, i) : "?";
}

/* ---- bulk loading ---- */

/* The bytes of COPY data gathered before they are sent. */
#define PG_BULK_BUF	65536
/* The bytes of rows a sorted load holds before it writes a run. */
#define PG_BULK_RUN	(8 << 20)

/*
 * A sorted load keeps its rows as values, not yet as COPY text, so that
 * they can go into another table than its own (dbpg_bulk_insert), and be
 * recorded as they go: each value a tag and its bytes.
 */
#define VAL_NULL	'n'
#define VAL_INT		'i'	/* then the int64_t */
#define VAL_TEXT	't'	/* then a size_t length and the bytes */

struct pg_bulk {
	struct db	*db;
	int		 ncols;
	int		 col;		/* values given of the current row */
	char		*buf;
	size_t		 len, cap;
	int		 keycol;	/* the rows go sorted by it, or -1 */
	int64_t		 key;		/* the current row's */
	struct extsort	*sort;		/* the rows so far, when sorted */
	char		*copy;		/* the COPY statement */
	int		 copying;	/* ... is running */
};

/* Starts the COPY, which then has the connection to itself. */
static void
bulk_start(struct pg_bulk *b)
{
	PGresult *res;

	sent_check(b->db);
	res = pq.exec(CONN(b->db), b->copy);

	if (res == NULL || pq.resultStatus(res) != PGRES_COPY_IN)
		pg_failed(b->db, res, b->db->path);
	pq.clear(res);
	b->copying = 1;
}

/*
 * A sorted load starts its COPY only at its end, when every row is
 * known: until then the connection is free, and several such loads can
 * be open at once.
 */
struct pg_bulk *
dbpg_bulk_begin(struct db *db, const char *table, const char *columns,
    int ncols, int keycol)
{
	struct pg_bulk *b = xcalloc(1, sizeof *b);

	b->db = db;
	b->ncols = ncols;
	b->cap = PG_BULK_BUF + 1024;
	b->buf = xmalloc(b->cap);
	b->keycol = keycol;
	b->copy = xasprintf("COPY %s (%s) FROM STDIN", table, columns);
	if (keycol >= 0)
		b->sort = extsort_new(PG_BULK_RUN);
	else
		bulk_start(b);
	return b;
}

/* Sends what is gathered; a failure is the connection's, and fatal. */
static void
bulk_send(struct pg_bulk *b)
{
	if (b->len > 0 && pq.putCopyData(CONN(b->db), b->buf,
	    (int)b->len) != 1)
		pg_failed(b->db, NULL, b->db->path);
	b->len = 0;
}

/* Room for n more bytes and a separator or newline. */
static void
bulk_grow(struct pg_bulk *b, size_t n)
{
	if (b->len + n + 2 > b->cap) {
		b->cap = 2 * (b->len + n + 2);
		b->buf = xrealloc(b->buf, b->cap);
	}
}

/* Room for n more bytes, and the separator before the next value. */
static void
bulk_room(struct pg_bulk *b, size_t n)
{
	bulk_grow(b, n);
	if (b->col > 0 && b->sort == NULL)
		b->buf[b->len++] = '\t';
}

/*
 * After a value: the row's end when it is whole, and a send when full;
 * a whole row of a sorted load goes to the sort instead.
 */
static void
bulk_done(struct pg_bulk *b)
{
	if (++b->col == b->ncols) {
		b->col = 0;
		if (b->sort != NULL) {
			extsort_add(b->sort, b->key, b->buf, b->len);
			b->len = 0;
		} else
			b->buf[b->len++] = '\n';
	}
	if (b->len >= PG_BULK_BUF && b->sort == NULL)
		bulk_send(b);
}

/* v as COPY text, at the end of the buffer (with room for 21 bytes). */
static void
copy_int(struct pg_bulk *b, int64_t v)
{
	char digits[24];
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	size_t n = 0;

	/* snprintf's cost showed in a profile of a million rows. */
	do
		digits[n++] = (char)('0' + u % 10);
	while ((u /= 10) > 0);
	if (v < 0)
		b->buf[b->len++] = '-';
	while (n > 0)
		b->buf[b->len++] = digits[--n];
}

/*
 * The n bytes at s (not NUL-terminated) as COPY text, with room for 2 n
 * bytes.
 */
static void
copy_text(struct pg_bulk *b, const char *s, size_t n)
{
	char *d = b->buf + b->len;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\\' || c == '\t' || c == '\n' || c == '\r') {
			*d++ = '\\';
			c = c == '\t' ? 't' : c == '\n' ? 'n' : c == '\r' ? 'r' :
			    '\\';
		}
		*d++ = c;
	}
	b->len = (size_t)(d - b->buf);
}

void
dbpg_bulk_int(struct pg_bulk *b, int64_t v)
{
	if (b->col == b->keycol)
		b->key = v;
	bulk_room(b, 24);
	if (b->sort != NULL) {
		b->buf[b->len++] = VAL_INT;
		memcpy(b->buf + b->len, &v, sizeof v);
		b->len += sizeof v;
	} else
		copy_int(b, v);
	bulk_done(b);
}

void
dbpg_bulk_text(struct pg_bulk *b, const char *s)
{
	size_t n;

	if (s == NULL) {
		bulk_room(b, 2);
		if (b->sort != NULL)
			b->buf[b->len++] = VAL_NULL;
		else {
			memcpy(b->buf + b->len, "\\N", 2);
			b->len += 2;
		}
		bulk_done(b);
		return;
	}
	n = strlen(s);
	if (b->sort != NULL) {
		bulk_room(b, 1 + sizeof n + n);
		b->buf[b->len++] = VAL_TEXT;
		memcpy(b->buf + b->len, &n, sizeof n);
		b->len += sizeof n;
		memcpy(b->buf + b->len, s, n);
		b->len += n;
	} else {
		/* At worst every byte escaped. */
		bulk_room(b, 2 * n);
		copy_text(b, s, n);
	}
	bulk_done(b);
}

/*
 * Sends what is gathered; a sorted load's rows wait for the end, where
 * all are known.
 */
void
dbpg_bulk_flush(struct pg_bulk *b)
{
	if (b->sort == NULL)
		bulk_send(b);
}

/* One row of a sorted load, in its turn, into the COPY data as text. */
static void
bulk_sorted_row(void *arg, const void *row, size_t len)
{
	struct pg_bulk *b = arg;
	const char *p = row, *end = p + len;
	int64_t i;
	size_t n;

	/* Each value takes at most twice its bytes, or 21 for a number. */
	bulk_grow(b, 2 * len + 24 * (size_t)b->ncols);
	for (int c = 0; c < b->ncols && p < end; c++) {
		if (c > 0)
			b->buf[b->len++] = '\t';
		switch (*p++) {
		case VAL_INT:
			memcpy(&i, p, sizeof i);
			p += sizeof i;
			copy_int(b, i);
			break;
		case VAL_TEXT:
			memcpy(&n, p, sizeof n);
			p += sizeof n;
			copy_text(b, p, n);
			p += n;
			break;
		default:
			memcpy(b->buf + b->len, "\\N", 2);
			b->len += 2;
		}
	}
	b->buf[b->len++] = '\n';
	if (b->len >= PG_BULK_BUF)
		bulk_send(b);
}

/* COPY's binary format: the header, and the end after the last row. */
static const char copy_bin_head[19] = "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0";
static const char copy_bin_tail[2] = "\377\377";

static void
be_put(char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (char)(v >> (8 * (n - 1 - i)));
}

/*
 * The first ncols values of a sorted load's row into COPY data in the
 * binary format (an integer as int8, text as text), and into the
 * changeset o unless it is NULL.
 */
static void
bulk_put_binary(struct pg_bulk *b, const char *rec, size_t len, int ncols,
    struct strbuf *o)
{
	const char *p = rec, *end = rec + len;
	struct changeset_value v;
	int64_t i;
	size_t n;

	bulk_grow(b, len + 4 * (size_t)ncols + 2);
	if (o != NULL)
		changeset_put_change(o, SQLITE_INSERT, 0);
	be_put(b->buf + b->len, (uint64_t)ncols, 2);
	b->len += 2;
	for (int c = 0; c < ncols; c++) {
		memset(&v, 0, sizeof v);
		if (p >= end)
			errx(1, "dbpg_bulk_insert: a row of fewer values");
		switch (*p++) {
		case VAL_INT:
			memcpy(&i, p, sizeof i);
			p += sizeof i;
			be_put(b->buf + b->len, 8, 4);
			be_put(b->buf + b->len + 4, (uint64_t)i, 8);
			b->len += 12;
			v.type = SQLITE_INTEGER;
			v.i = i;
			break;
		case VAL_TEXT:
			memcpy(&n, p, sizeof n);
			p += sizeof n;
			if (n > INT32_MAX)
				errx(1, "dbpg_bulk_insert: a value too long");
			be_put(b->buf + b->len, (uint64_t)n, 4);
			memcpy(b->buf + b->len + 4, p, n);
			b->len += 4 + n;
			v.type = SQLITE_TEXT;
			v.p = p;
			v.n = n;
			p += n;
			break;
		default:
			be_put(b->buf + b->len, UINT32_MAX, 4);
			b->len += 4;
			v.type = SQLITE_NULL;
		}
		if (o != NULL)
			changeset_put_value(o, &v);
	}
	if (b->len >= PG_BULK_BUF)
		bulk_send(b);
}

/* Reads what the server says of the COPY; 0 when it took every row. */
static int
bulk_result(struct pg_bulk *b, PGresult **failed)
{
	PGresult *res;
	int rc = 0;

	*failed = NULL;
	while ((res = pq.getResult(CONN(b->db))) != NULL) {
		if (pq.resultStatus(res) != PGRES_COMMAND_OK && rc == 0) {
			rc = -1;
			*failed = res;
			continue;
		}
		pq.clear(res);
	}
	return rc;
}

void
dbpg_bulk_end(struct pg_bulk *b)
{
	struct db *db = b->db;
	PGresult *res;

	if (b->col != 0)
		errx(1, "dbpg_bulk_end: a row is half given");
	if (b->sort != NULL) {
		bulk_start(b);
		extsort_each(b->sort, bulk_sorted_row, b);
	}
	bulk_send(b);
	if (pq.putCopyEnd(CONN(db), NULL) != 1)
		pg_failed(db, NULL, db->path);
	if (bulk_result(b, &res) != 0) {
		if (getenv("REFKIT_SQL_DEBUG") != NULL)
			fprintf(stderr, "refused: COPY\n");
		pg_failed(db, res, db->path);
	}
	extsort_free(b->sort);
	free(b->copy);
	free(b->buf);
	free(b);
}

/* A sorted load's rows going into another table (dbpg_bulk_insert). */
struct bulk_into {
	struct pg_bulk		*b;
	const char		*table;
	int			 ncols;
	long			 chunk;
	long			 inchunk;	/* rows of this chunk sent */
	int64_t			 rows;
	unsigned char		*pk;
	struct strbuf	 o;
	void			(*store)(void *, const unsigned char *, size_t);
	void			*arg;
};

/* Ends a chunk's COPY and hands its changeset over; fatal if refused. */
static void
into_end_chunk(struct bulk_into *x)
{
	struct pg_bulk *b = x->b;
	PGresult *res;

	bulk_grow(b, sizeof copy_bin_tail);
	memcpy(b->buf + b->len, copy_bin_tail, sizeof copy_bin_tail);
	b->len += sizeof copy_bin_tail;
	bulk_send(b);
	if (pq.putCopyEnd(CONN(b->db), NULL) != 1)
		pg_failed(b->db, NULL, b->db->path);
	b->copying = 0;
	if (bulk_result(b, &res) != 0) {
		if (getenv("REFKIT_SQL_DEBUG") != NULL)
			fprintf(stderr, "refused: %s\n", b->copy);
		pg_failed(b->db, res, b->db->path);
	}
	if (x->store != NULL && x->o.len > 0)
		x->store(x->arg, (const unsigned char *)x->o.s, x->o.len);
	strbuf_reset(&x->o);
	x->inchunk = 0;
}

static void
into_row(void *arg, const void *rec, size_t len)
{
	struct bulk_into *x = arg;

	if (x->inchunk == 0) {
		bulk_start(x->b);
		bulk_grow(x->b, sizeof copy_bin_head);
		memcpy(x->b->buf + x->b->len, copy_bin_head,
		    sizeof copy_bin_head);
		x->b->len += sizeof copy_bin_head;
		if (x->store != NULL)
			changeset_put_table(&x->o, x->table, x->ncols, x->pk);
	}
	bulk_put_binary(x->b, rec, len, x->ncols, x->store != NULL ? &x->o :
	    NULL);
	x->rows++;
	if (++x->inchunk == x->chunk)
		into_end_chunk(x);
}

int64_t
dbpg_bulk_insert(struct pg_bulk *b, const char *table, const char *columns,
    int ncols, long chunk,
    void (*store)(void *, const unsigned char *, size_t), void *arg)
{
	struct bulk_into x;
	int64_t rows;

	if (b->sort == NULL || b->col != 0 || ncols > b->ncols || chunk < 1)
		errx(1, "dbpg_bulk_insert: not a whole sorted load");
	memset(&x, 0, sizeof x);
	x.b = b;
	x.table = table;
	x.ncols = ncols;
	x.chunk = chunk;
	x.store = store;
	x.arg = arg;
	/* As db_changes_insert: the key, the first column, alone. */
	x.pk = xcalloc((size_t)ncols, 1);
	x.pk[0] = 1;
	free(b->copy);
	/*
	 * In the binary format, which the server reads in less time than
	 * text: a table that travels has only BIGINT and TEXT columns
	 * (tools/pgschema.c), which int8 and text are.
	 */
	b->copy = xasprintf("COPY %s (%s) FROM STDIN (FORMAT binary)", table,
	    columns);
	extsort_each(b->sort, into_row, &x);
	if (x.inchunk > 0)
		into_end_chunk(&x);
	rows = x.rows;
	strbuf_release(&x.o);
	free(x.pk);
	extsort_free(b->sort);
	free(b->copy);
	free(b->buf);
	free(b);
	return rows;
}

void
dbpg_bulk_free(struct pg_bulk *b)
{
	PGresult *res;

	if (b == NULL)
		return;
	/* The server throws the rows away, and says so: not shown. */
	if (b->copying && pq.status(CONN(b->db)) == CONNECTION_OK &&
	    pq.putCopyEnd(CONN(b->db), "the bulk load was abandoned") == 1 &&
	    bulk_result(b, &res) != 0)
		pq.clear(res);
	extsort_free(b->sort);
	free(b->copy);
	free(b->buf);
	free(b);
}
