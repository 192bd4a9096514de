/*
 * db.c - opening, checking, creating and migrating the refkit database,
 * and the helpers that make every write a transaction, over the
 * statement layer (db_stmt.c), the PostgreSQL backend (dbpg.c) and the
 * record of changes (gone.c; on a server, tools/pgstation.sql).  See
 * db.h and refkit.db(5).
 */
#include "db/db.h"
#include "db/chain.h"
#include "db/changeset.h"
#include "db/dbpg.h"
#include "db/gone.h"

#include "base/util.h"

#include <sqlite3.h>

#include <ctype.h>
#include <sodium.h>
#include <err.h>
#include <inttypes.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

/*
 * How long a command waits for another GM's write before giving up, in
 * milliseconds; $REFKIT_BUSY_TIMEOUT changes it (tests shorten it rather
 * than wait ten real seconds).
 */
#define DB_BUSY_MS	10000
#define DB_BUSY_MS_MAX	3600000

static int
busy_ms(void)
{
	const char *env = getenv("REFKIT_BUSY_TIMEOUT");
	long v;

	if (env != NULL && util_parse_int(env, 0, DB_BUSY_MS_MAX, &v) ==
	    UTIL_INT_OK)
		return (int)v;
	return DB_BUSY_MS;
}

/*
 * The name a station made by this process takes (db_station_name):
 * resolved once, before anything is created, so that a bad one is
 * refused before the file is touched.
 */
static const char *station_name_given;
static char station_name_buf[STATION_NAME_MAX + 1];

void
db_station_name(const char *name)
{
	station_name_given = name;
}

int
db_station_name_check(const char *s, char *why, size_t whysz)
{
	size_t n = strlen(s);

	if (n == 0)
		return util_say(why, whysz, "must not be empty");
	if (n > STATION_NAME_MAX)
		return util_say(why, whysz, "must be at most %d bytes",
		    STATION_NAME_MAX);
	if (s[0] == ' ' || s[n - 1] == ' ')
		return util_say(why, whysz, "must not begin or end with a "
		    "space");
	return util_check_text(s, UTIL_TEXT_LINE, STATION_NAME_MAX, why,
	    whysz);
}

/*
 * The name for a new station: --station, else $REFKIT_STATION, else the
 * host name (else "station").  A bad name given either way exits 1.
 */
static const char *
station_name(void)
{
	const char *from = "--station", *s = station_name_given;
	char why[128];

	if (station_name_buf[0] != '\0')
		return station_name_buf;
	if (s == NULL) {
		from = "$REFKIT_STATION";
		s = getenv("REFKIT_STATION");
	}
	if (s != NULL) {
		if (db_station_name_check(s, why, sizeof why) != 0)
			errx(1, "%s: the station name %s, got '%s'", from, why,
			    util_q(s));
		snprintf(station_name_buf, sizeof station_name_buf, "%s", s);
	} else if (gethostname(station_name_buf,
	    sizeof station_name_buf) != 0 ||
	    station_name_buf[sizeof station_name_buf - 1] != '\0' ||
	    db_station_name_check(station_name_buf, why, sizeof why) != 0)
		snprintf(station_name_buf, sizeof station_name_buf,
		    "station");
	return station_name_buf;
}

/* refkit_new_station_id(): 128 random bits from the system, in hex. */
static void
fn_new_station_id(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	unsigned char b[16];
	char hex[33];

	(void)argc;
	(void)argv;
	if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b) {
		sqlite3_result_error(cx, "cannot get random bytes from the "
		    "system", -1);
		return;
	}
	/* The top bit set: the station's tag is then its first 8 digits. */
	b[0] |= 0x80;
	for (size_t i = 0; i < sizeof b; i++)
		snprintf(hex + 2 * i, 3, "%02x", b[i]);
	sqlite3_result_text(cx, hex, 32, SQLITE_TRANSIENT);
}

/* refkit_station_name(): the name a new station takes. */
static void
fn_station_name(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	(void)argc;
	(void)argv;
	sqlite3_result_text(cx, station_name(), -1, SQLITE_TRANSIENT);
}

/* refkit_now(): db_now(), so that a fixed test clock reaches SQL. */
static void
fn_now(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	(void)argc;
	(void)argv;
	sqlite3_result_int64(cx, db_now());
}

/* Runs sql with ?1 from and ?2 to; returns its step's result code. */
static int
rekey_run(struct db *db, const char *sql, int64_t from, int64_t to)
{
	struct db_stmt *st = db_prepare(db, sql);
	int rc;

	db_bind_int(st, 1, from);
	db_bind_int(st, 2, to);
	rc = db_step(db, st, 0);
	db_finalize(st);
	return rc;
}

int
db_rekey(struct db *db, const char *const *sql, int64_t from, int64_t to)
{
	if (from == to)
		return 0;
	if (rekey_run(db, sql[0], from, to) == DB_ROW)
		return -1;
	/* The names change before the record they name: checked at commit. */
	db_exec(db, db->pg != NULL ? "SET CONSTRAINTS ALL DEFERRED" :
	    "PRAGMA defer_foreign_keys = ON", "cannot rename");
	for (size_t i = 1; sql[i] != NULL; i++)
		(void)rekey_run(db, sql[i], from, to);
	return 0;
}

/* refkit_name_key(NAME): db_name_key. */
static void
fn_name_key(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	const unsigned char *name = sqlite3_value_text(argv[0]);

	(void)argc;
	if (name == NULL)
		sqlite3_result_null(cx);
	else
		sqlite3_result_int64(cx, db_name_key((const char *)name));
}

/* refkit_station_tag(ID): db_station_tag, for the migration to keys. */
static void
fn_station_tag(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	const unsigned char *id = sqlite3_value_text(argv[0]);

	(void)argc;
	if (id == NULL || db_station_tag((const char *)id) == 0)
		sqlite3_result_error(cx, "not a station id", -1);
	else
		sqlite3_result_int64(cx, db_station_tag((const char *)id));
}

int64_t
db_key_base(struct db *db)
{
	struct db_stmt *st;

	if (db->key_base != 0)
		return db->key_base;
	st = db_prepare(db, "SELECT id FROM station_self");
	if (db_step(db, st, 0) == DB_ROW)
		db->key_base = db_station_tag(db_column_text(st, 0)) <<
		    DB_KEY_BITS;
	db_finalize(st);
	if (db->key_base == 0)
		errx(1, "'%s' names no station of its own", util_q(db->path));
	return db->key_base;
}

int
db_key_own(struct db *db, int64_t key)
{
	int64_t base = db_key_base(db);

	return key > base && key <= base + DB_KEY_MAX_NO;
}

const char *
db_key_text(struct db *db, int64_t key, char *buf)
{
	if (db_key_own(db, key))
		snprintf(buf, DB_KEY_TEXT_MAX, "%" PRId64,
		    key - db_key_base(db));
	else
		snprintf(buf, DB_KEY_TEXT_MAX, "%08" PRIx64 "-%" PRId64,
		    (uint64_t)key >> DB_KEY_BITS, key & DB_KEY_MAX_NO);
	return buf;
}

const char *
db_key_json(struct db *db, int64_t key, char *buf)
{
	if (db_key_own(db, key))
		return db_key_text(db, key, buf);
	snprintf(buf, DB_KEY_TEXT_MAX, "\"%08" PRIx64 "-%" PRId64 "\"",
	    (uint64_t)key >> DB_KEY_BITS, key & DB_KEY_MAX_NO);
	return buf;
}

const char *
db_key_str(struct db *db, int64_t key)
{
	static char ring[4][DB_KEY_TEXT_MAX];
	static int next;

	next = (next + 1) % 4;
	return db_key_text(db, key, ring[next]);
}

const char *
db_key_jstr(struct db *db, int64_t key)
{
	static char ring[4][DB_KEY_TEXT_MAX];
	static int next;

	next = (next + 1) % 4;
	return db_key_json(db, key, ring[next]);
}

/* The number of at most 10 digits at s (no sign, no leading 0), or -1. */
static int64_t
key_no(const char *s)
{
	int64_t n = 0;
	size_t len = strlen(s);

	if (len == 0 || len > 10 || s[0] == '0' ||
	    strspn(s, "0123456789") != len)
		return -1;
	for (; *s; s++)
		n = n * 10 + (*s - '0');
	return n >= 1 && n <= DB_KEY_MAX_NO ? n : -1;
}

int64_t
db_key_parse(struct db *db, const char *text)
{
	const char *dash = strchr(text, '-');
	char id[9];
	int64_t n, tag;

	if (dash == NULL) {
		if ((n = key_no(text)) < 0)
			return 0;
		return db ? db_key_base(db) + n : 1;
	}
	if (dash - text != 8 || (n = key_no(dash + 1)) < 0)
		return 0;
	for (int i = 0; i < 8; i++)
		id[i] = (char)tolower((unsigned char)text[i]);
	id[8] = '\0';
	if ((tag = db_station_tag(id)) == 0 || !(id[0] >= '8'))
		return 0;
	return (tag << DB_KEY_BITS) + n;
}

/* refkit_key_lo(), refkit_key_hi(): the range of this station's keys. */
static void
fn_key_lo(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	(void)argc;
	(void)argv;
	sqlite3_result_int64(cx, db_key_base(sqlite3_user_data(cx)) + 1);
}

static void
fn_key_hi(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	(void)argc;
	(void)argv;
	sqlite3_result_int64(cx, db_key_base(sqlite3_user_data(cx)) +
	    DB_KEY_MAX_NO);
}

/* The functions schema.sql calls, on a connection that may create it. */
static int
add_functions(sqlite3 *h)
{
	return sqlite3_create_function(h, "refkit_name_key", 1,
	    SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, fn_name_key, NULL,
	    NULL) == SQLITE_OK &&
	    sqlite3_create_function(h, "refkit_station_tag", 1,
	    SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, fn_station_tag, NULL,
	    NULL) == SQLITE_OK &&
	    sqlite3_create_function(h, "refkit_new_station_id", 0,
	    SQLITE_UTF8, NULL, fn_new_station_id, NULL, NULL) == SQLITE_OK &&
	    sqlite3_create_function(h, "refkit_station_name", 0, SQLITE_UTF8,
	    NULL, fn_station_name, NULL, NULL) == SQLITE_OK &&
	    sqlite3_create_function(h, "refkit_now", 0, SQLITE_UTF8, NULL,
	    fn_now, NULL, NULL) == SQLITE_OK;
}

char *
db_default_path(int *is_default)
{
	const char *env;

	*is_default = 0;
	if ((env = getenv("REFKIT_DB")) != NULL && *env != '\0')
		return xstrdup(env);
	*is_default = 1;
	if ((env = getenv("XDG_DATA_HOME")) != NULL && *env == '/')
		return xasprintf("%s/refkit/refkit.db", env);
	if ((env = getenv("HOME")) == NULL || *env == '\0')
		errx(1, "cannot find the database: set REFKIT_DB, "
		    "XDG_DATA_HOME or HOME, or use --db");
	return xasprintf("%s/.local/share/refkit/refkit.db", env);
}

/* Creates every missing directory above the file path, like mkdir -p. */
static void
make_parents(const char *path)
{
	char *dir = xstrdup(path);

	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST)
			err(1, "cannot create '%s'", dir);
		*p = '/';
	}
	free(dir);
}

/*
 * Waiting for another command's write lock.  SQLite's own timeout handler
 * sleeps longer the longer it has waited (up to 100 ms a try), so that
 * among twenty GMs' processes the one that has waited longest polls least
 * often and can be passed over until its time runs out.  Here every
 * waiter tries again after 1 to 4 ms, so the lock goes to whoever asks
 * when it is free, however long he has waited, until db->busy_ms.
 */
static int
busy_wait(void *arg, int count)
{
	struct db *db = arg;
	struct timespec now, pause;
	int64_t ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
	if (count == 0)
		db->busy_since = ms;
	if (ms - db->busy_since >= db->busy_ms)
		return 0;
	pause.tv_sec = 0;
	pause.tv_nsec = (1 + count % 4) * 1000000L;
	nanosleep(&pause, NULL);
	return 1;
}

/* A write on a database opened read-only is refused before it starts. */
static void
check_writable(struct db *db)
{
	if (db->readonly)
		errx(1, "cannot write to '%s': it is on a read-only file "
		    "system (commands that only read work)", util_q(db->path));
}

int
db_table_travels(const char *table)
{
	static const char *const local[] = {
		"change", "change_rest", "change_staged", "gone",
		"station_self", "snapshot", "history", "history_combat",
		"seal_secret"
	};

	if (strncmp(table, "sqlite_", 7) == 0)
		return 0;
	for (size_t i = 0; i < sizeof local / sizeof *local; i++)
		if (strcmp(table, local[i]) == 0)
			return 0;
	return 1;
}

int
db_table_columns(struct db *db, const char *table, char ***names,
    unsigned char **pk)
{
	struct db_stmt *st;
	int n = 0;

	*names = NULL;
	*pk = NULL;
	/*
	 * PostgreSQL: the table of that very name (as SQLite compares it)
	 * in the schema refkit's tables are in, but for the server's own
	 * machinery (refkit_meta, tools/pgstation.sql), which SQLite has
	 * not; a column's place in the key is its place in the index.
	 */
	st = db_prepare(db, db->pg != NULL ?
	    "SELECT a.attname, coalesce((SELECT k.o FROM pg_index i,"
	    " unnest(i.indkey::int2[]) WITH ORDINALITY AS k(c, o)"
	    " WHERE i.indrelid = a.attrelid AND i.indisprimary"
	    " AND k.c = a.attnum), 0)"
	    " FROM pg_attribute a WHERE a.attrelid = (SELECT c.oid"
	    " FROM pg_class c WHERE c.relname = ?1 AND c.relkind = 'r'"
	    " AND c.relnamespace = current_schema()::regnamespace"
	    " AND c.relname NOT LIKE 'refkit\\_%')"
	    " AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum" :
	    "SELECT name, pk FROM pragma_table_info(?1, 'main') ORDER BY cid");
	db_bind_text(st, 1, table);
	while (db_step(db, st, 0) == DB_ROW) {
		*names = xreallocarray(*names, (size_t)n + 1, sizeof **names);
		*pk = xrealloc(*pk, (size_t)n + 1);
		(*names)[n] = xstrdup(db_column_text(st, 0));
		(*pk)[n] = (unsigned char)db_column_int(st, 1);
		n++;
	}
	db_finalize(st);
	return n;
}

static int
session_filter(void *arg, const char *table)
{
	(void)arg;
	return db_table_travels(table);
}

static void
session_end(struct db *db)
{
	if (db->session != NULL)
		sqlite3session_delete(db->session);
	db->session = NULL;
}

/*
 * The station's own row, as an insert, put before the changes of its
 * first change (cs, n bytes), so that every station that holds any of
 * its changes has its name and the time it was made as it has them
 * itself, and not the time it was first heard of.  Returns a buffer
 * that the caller frees with sqlite3_free, or NULL to keep cs as it is.
 */
static void *
with_birth(struct db *db, const void *cs, size_t n, size_t *len)
{
	static const unsigned char pk[3] = { 1, 0, 0 };
	struct strbuf o = STRBUF_INIT;
	struct changeset_value v;
	struct db_stmt *st;
	void *out = NULL;
	int outn = 0, rc;

	st = db_prepare(db, "SELECT s.id, s.name, s.created FROM station s"
	    " JOIN station_self USING (id)");
	if (db_step(db, st, 0) != DB_ROW)
		db_fatal(db, "cannot record the changes");
	changeset_put_table(&o, "station", 3, pk);
	changeset_put_change(&o, SQLITE_INSERT, 0);
	for (int i = 0; i < 2; i++) {
		memset(&v, 0, sizeof v);
		v.type = SQLITE_TEXT;
		v.p = db_column_text(st, i);
		v.n = strlen(v.p);
		changeset_put_value(&o, &v);
	}
	memset(&v, 0, sizeof v);
	v.type = SQLITE_INTEGER;
	v.i = db_column_int(st, 2);
	changeset_put_value(&o, &v);
	db_finalize(st);
	rc = sqlite3changeset_concat((int)o.len, o.s, (int)n, (void *)cs,
	    &outn, &out);
	strbuf_release(&o);
	if (rc != SQLITE_OK)
		db_fatal(db, "cannot record the changes");
	*len = (size_t)outn;
	return out;
}

/*
 * Stores cs, n bytes of changes made here, as this station's next
 * change, with what it had seen of the other stations' changes, and
 * notes the rows it removed, which copies made elsewhere must not
 * undo.  In the transaction that made them.  Its number of arrival is
 * the next, given here: PostgreSQL's own numbering (an identity column)
 * would skip the numbers of transactions rolled back, and --since marks
 * are the same on both (exchange.c numbers what it applies alike).  The
 * station's first change carries its own row too (with_birth).
 *
 * With rest, a row of change_rest that db_rehearsal_stage wrote (the
 * changeset past its first n bytes, which are cs), the change names it
 * and takes it out of change_staged; removals is then the changeset
 * whole when it removes rows (removals_n bytes), else NULL.  Never the
 * station's first change, which db_rehearsal_play records whole.
 */
/* The questions a change's writing asks, sent ahead (db_ask). */
struct change_ask {
	struct db_stmt	*last;	/* this station's last change */
	struct db_stmt	*seen;	/* gone_seen_ask's */
};

static void
change_ask(struct db *db, struct change_ask *a)
{
	/*
	 * Appenders to different logs write at once; their changes are
	 * numbered one at a time, in the order they commit (db.h).
	 */
	db_lock_keys(db);
	a->last = db_prepare(db, "SELECT coalesce(max(oseq), 0) FROM change"
	    " WHERE origin = (SELECT id FROM station_self)");
	db_ask(db, a->last);
	a->seen = gone_seen_ask(db);
}

static void
change_ask_drop(struct change_ask *a)
{
	db_finalize(a->last);
	db_finalize(a->seen);
}

static int64_t
change_write(struct db *db, const void *cs, size_t n, int64_t rest,
    const void *removals, size_t removals_n, struct change_ask *asked)
{
	struct change_ask here;
	struct db_stmt *st;
	unsigned char *seen;
	char *self;
	int64_t oseq;
	size_t nseen, blen = 0;
	void *birth = NULL;

	if (asked == NULL)
		change_ask(db, asked = &here);
	db_step(db, asked->last, 0);
	oseq = db_column_int(asked->last, 0) + 1;
	if (oseq == 1) {
		if (rest != 0)
			errx(1, "refkit bug: a staged first change");
		birth = with_birth(db, cs, n, &blen);
	}
	if (birth != NULL) {
		cs = birth;
		n = blen;
	}
	if (rest == 0) {
		removals = cs;
		removals_n = n;
	}
	seen = gone_seen_take(db, asked->seen, &nseen);
	asked->seen = NULL;
	change_ask_drop(asked);
	st = db_prepare(db, "INSERT INTO change (no, origin, oseq, time, data,"
	    " seen, rest) SELECT (SELECT coalesce(max(no), 0) + 1 FROM change),"
	    " s.id, coalesce((SELECT max(oseq) FROM change WHERE origin ="
	    " s.id), 0) + 1, ?1, ?2, ?3, ?4 FROM station_self s"
	    " RETURNING origin, oseq");
	db_bind_int(st, 1, db_now());
	db_bind_blob(st, 2, cs, (int)n);
	db_bind_blob(st, 3, seen, (int)(nseen * GONE_SEEN_LEN));
	if (rest != 0)
		db_bind_int(st, 4, rest);
	/* Its origin and number are read only to note what it removed. */
	self = NULL;
	if (removals != NULL && changeset_has_delete(removals, removals_n)) {
		if (db_step(db, st, 0) != DB_ROW)
			db_fatal(db, "cannot record the changes");
		self = xstrdup(db_column_text(st, 0));
		oseq = db_column_int(st, 1);
	} else
		db_send(db, st);
	db_finalize(st);
	if (rest != 0) {
		st = db_prepare(db, "DELETE FROM change_staged WHERE rest = ?1");
		db_bind_int(st, 1, rest);
		db_send(db, st);
		db_finalize(st);
	}
	if (self != NULL &&
	    gone_note(db, self, oseq, removals, removals_n) != 0)
		db_fatal(db, "cannot record the changes");
	sqlite3_free(birth);
	free(seen);
	free(self);
	return oseq;
}

static int64_t
change_append(struct db *db, const void *cs, size_t n)
{
	return change_write(db, cs, n, 0, NULL, 0, NULL);
}

int64_t
db_changes_record(struct db *db, const void *cs, size_t n)
{
	return change_append(db, cs, n);
}

/* Stores the transaction's changes, if any, as this station's next. */
static void
session_store(struct db *db)
{
	void *cs = NULL;
	int n = 0, rc;

	if (db->session == NULL)
		return;
	if (sqlite3session_isempty(db->session)) {
		session_end(db);
		return;
	}
	if ((rc = sqlite3session_changeset(db->session, &n, &cs)) != SQLITE_OK)
		db_die(db, "cannot record the changes of this transaction, so "
		    "nothing was written: %s%s", sqlite3_errstr(rc),
		    rc == SQLITE_NOMEM || rc == SQLITE_TOOBIG ? " (more than "
		    "one changeset can hold)" : "");
	session_end(db);
	/*
	 * Rows written with the values they had (a set within the same
	 * second as the last) are in the session, but make no changeset.
	 */
	if (n > 0)
		change_append(db, cs, (size_t)n);
	sqlite3_free(cs);
}

/*
 * The same on PostgreSQL, from the server's notes, which the server
 * makes into a changeset itself (tools/pgstation.sql).  Once the
 * station has a change of its own, the server stores them too
 * (refkit_store): the statement goes with the transaction's writes and
 * its COMMIT, and the record costs no round trip of its own.  A
 * station's first change, which carries its own row (with_birth), is
 * read back and written here, with what the change's writing asks.
 */
static void
pg_store(struct db *db)
{
	struct change_ask a;
	struct db_stmt *st;
	size_t n;

	if (!db->pg_recording)
		return;
	if (dbpg_station_started(db)) {
		db_lock_keys(db);
		st = db_prepare(db, "SELECT refkit_store(?1)");
		db_bind_int(st, 1, db_now());
		db_send(db, st);
		db_finalize(st);
		return;
	}
	change_ask(db, &a);
	st = db_prepare(db, "SELECT refkit_take_changeset()");
	if (db_step(db, st, 0) != DB_ROW || db_column_type(st, 0) == DB_NULL) {
		db_finalize(st);
		change_ask_drop(&a);
		return;
	}
	n = (size_t)db_column_bytes(st, 0);
	change_write(db, db_column_blob(st, 0), n, 0, NULL, 0, &a);
	db_finalize(st);
	dbpg_station_starts(db);
}

/* The same, whether or not the transaction records (a migration). */
static void
pg_store_now(struct db *db)
{
	int recording = db->pg_recording;

	db->pg_recording = 1;
	pg_store(db);
	db->pg_recording = recording;
}

static void
session_start(struct db *db)
{
	if (sqlite3session_create(db->h, "main", &db->session) != SQLITE_OK)
		db_fatal(db, "cannot record the changes");
	sqlite3session_table_filter(db->session, session_filter, NULL);
	if (sqlite3session_attach(db->session, NULL) != SQLITE_OK)
		db_fatal(db, "cannot record the changes");
}

void
db_begin(struct db *db)
{
	check_writable(db);
	db->tx_no++;
	db->tx_write = 1;
	db->appending = 0;
	db->log_lock = 0;
	db->keys_lock = 0;
	if (db->pg != NULL) {
		dbpg_begin(db, !db->unrecorded, 0);
		db->pg_recording = !db->unrecorded;
		return;
	}
	db_exec(db, "BEGIN IMMEDIATE", "cannot start a transaction");
	session_end(db);
	if (!db->unrecorded)
		session_start(db);
}

void
db_begin_append(struct db *db)
{
	if (db->pg == NULL) {
		db_begin(db);
		return;
	}
	check_writable(db);
	db->tx_no++;
	db->tx_write = 1;
	dbpg_begin(db, !db->unrecorded, 1);
	db->pg_recording = !db->unrecorded;
	db->appending = 1;
	db->log_lock = 0;
	db->keys_lock = 0;
}

/*
 * A log's advisory lock: its kind and key hashed (FNV-1a), with the top
 * bit set so that no log's is ever one of refkit's own locks, which are
 * small.  Two logs that share one only wait for each other.
 */
static int64_t
log_lock_key(const char *kind, int64_t id)
{
	uint64_t h = 1469598103934665603ULL;

	for (const char *c = kind; *c != '\0'; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ULL;
	for (int i = 0; i < 8; i++)
		h = (h ^ (((uint64_t)id >> (8 * i)) & 0xff)) *
		    1099511628211ULL;
	return (int64_t)(h | (UINT64_C(1) << 63));
}

void
db_lock_log(struct db *db, const char *kind, int64_t id)
{
	struct db_stmt *st;
	int64_t key;

	if (db->pg == NULL || !db->appending)
		return;
	/* The log picked ahead: its lock made by the server the same way. */
	if (id == DB_PICKED) {
		if (db->log_lock == DB_PICKED)
			return;
		if (db->log_lock != 0)
			errx(1, "refkit bug: one append transaction reads two "
			    "logs");
		st = db_prepare(db, "SELECT pg_advisory_xact_lock("
		    "refkit_log_lock(?1, ?2))");
		db_bind_text(st, 1, kind);
		db_bind_int(st, 2, DB_PICKED);
		db_send(db, st);
		db_finalize(st);
		db->log_lock = DB_PICKED;
		return;
	}
	key = log_lock_key(kind, id);
	if (db->log_lock == key)
		return;
	if (db->log_lock != 0)
		errx(1, "refkit bug: one append transaction reads two logs");
	dbpg_lock(db, key);
	db->log_lock = key;
}

void
db_log_picked(struct db *db, const char *kind, int64_t id)
{
	if (db->log_lock == DB_PICKED)
		db->log_lock = id != 0 ? log_lock_key(kind, id) : 0;
}

void
db_check_log(struct db *db, const char *kind, int64_t id)
{
	if (db->appending && db->log_lock != log_lock_key(kind, id))
		errx(1, "refkit bug: %s %" PRId64 " appended to without its "
		    "lock", kind, id);
}

void
db_lock_keys(struct db *db)
{
	if (db->pg == NULL || !db->appending || db->keys_lock)
		return;
	dbpg_lock(db, DBPG_CHANGES_LOCK);
	db->keys_lock = 1;
}

void
db_changes_flush(struct db *db)
{
	if (db->pg != NULL) {
		pg_store(db);
		return;
	}
	if (db->session == NULL)
		return;
	session_store(db);
	session_start(db);
}

/* Pauses (on 0) or resumes the record of the transaction's rows. */
static void
record_rows(struct db *db, int on)
{
	if (db->pg != NULL && db->pg_recording)
		db_exec(db, on ? "SELECT set_config('refkit.record', 'on', true)" :
		    "SELECT set_config('refkit.record', 'off', true)",
		    "cannot record the changes");
	else if (db->pg == NULL && db->session != NULL)
		(void)sqlite3session_enable(db->session, on);
}

/*
 * Steps st to its end, each row a new row of table (its columns in the
 * table's order, the first its primary key), encoded into o as the
 * record of an INSERT of it when recorded.  Returns the rows.
 */
static int64_t
encode_inserts(struct db *db, const char *table, struct db_stmt *st,
    struct strbuf *o, int recorded)
{
	unsigned char *pk = NULL;
	int64_t rows = 0;
	int ncol = 0;

	while (db_step(db, st, 0) == DB_ROW) {
		if (!recorded) {
			rows++;
			continue;
		}
		if (rows++ == 0) {
			ncol = db_column_count(st);
			pk = xcalloc((size_t)ncol, 1);
			pk[0] = 1;
			changeset_put_table(o, table, ncol, pk);
		}
		changeset_put_change(o, SQLITE_INSERT, 0);
		for (int i = 0; i < ncol; i++) {
			struct changeset_value v;

			memset(&v, 0, sizeof v);
			switch (db_column_type(st, i)) {
			case DB_INTEGER:
				v.type = SQLITE_INTEGER;
				v.i = db_column_int(st, i);
				break;
			case DB_FLOAT:
				v.type = SQLITE_FLOAT;
				v.f = db_column_double(st, i);
				break;
			case DB_TEXT:
				v.type = SQLITE_TEXT;
				v.p = db_column_text(st, i);
				v.n = strlen(v.p);
				break;
			case DB_BLOB:
				v.type = SQLITE_BLOB;
				v.p = db_column_blob(st, i);
				v.n = (size_t)db_column_bytes(st, i);
				break;
			default:
				v.type = SQLITE_NULL;
			}
			changeset_put_value(o, &v);
		}
	}
	free(pk);
	return rows;
}

int64_t
db_changes_insert(struct db *db, const char *table, struct db_stmt *st)
{
	struct strbuf o = STRBUF_INIT;
	int recorded = db->pg != NULL ? db->pg_recording :
	    db->session != NULL;
	int64_t rows;

	db_changes_flush(db);
	record_rows(db, 0);
	rows = encode_inserts(db, table, st, &o, recorded);
	record_rows(db, 1);
	if (o.len > 0)
		change_append(db, o.s, o.len);
	strbuf_release(&o);
	return rows;
}

/*
 * A rehearsal (db.h).  Its changesets are kept in schema's table
 * rehearsal, one row each, so that memory holds one at a time however
 * large the write; the session records schema's copies of the tables,
 * whose changesets name them as the database's own would.
 */
struct db_rehearsal {
	struct db		*db;
	char			*schema;	/* owned */
	const char *const	*tables;	/* the caller's */
	struct sqlite3_session	*session;	/* while recording */
	int64_t			 n;		/* changesets kept */
	int64_t			*rest;		/* [n]: each's row of change_rest
						   (db_rehearsal_stage), or 0 */
	unsigned char		*removes;	/* [n]: whether it removes rows */
	unsigned char		(*head)[4096];	/* [n]: its first bytes */
};

/*
 * A changeset kept larger than STAGE_MIN bytes is staged: all but its
 * first STAGE_HEAD bytes written into change_rest beforehand.  A row of
 * change_staged older than STAGE_ORPHAN seconds is an unfinished
 * import's, whose process is gone (refkit.db(5), schema 17).
 */
#define STAGE_MIN	65536
#define STAGE_HEAD	sizeof *((struct db_rehearsal *)0)->head
#define STAGE_ORPHAN	3600

static void
rehearsal_session(struct db_rehearsal *r)
{
	struct db *db = r->db;

	if (sqlite3session_create(db->h, r->schema, &r->session) != SQLITE_OK)
		db_fatal(db, "cannot record the changes");
	for (int i = 0; r->tables[i] != NULL; i++)
		if (sqlite3session_attach(r->session, r->tables[i]) !=
		    SQLITE_OK)
			db_fatal(db, "cannot record the changes");
}

struct db_rehearsal *
db_rehearsal_start(struct db *db, const char *schema,
    const char *const *tables)
{
	struct db_rehearsal *r;
	char *sql;

	if (db->pg != NULL)
		errx(1, "refkit bug: a rehearsal on a server");
	r = xcalloc(1, sizeof *r);
	r->db = db;
	r->schema = xstrdup(schema);
	r->tables = tables;
	/* The schema's name is the caller's own word, never a user's. */
	sql = xasprintf("CREATE TABLE IF NOT EXISTS \"%s\".rehearsal ("
	    " n INTEGER PRIMARY KEY, data BLOB NOT NULL);"
	    " DELETE FROM \"%s\".rehearsal", schema, schema);
	db_exec(db, sql, "cannot rehearse the write");
	free(sql);
	rehearsal_session(r);
	return r;
}

void
db_rehearsal_take(struct db_rehearsal *r)
{
	struct db *db = r->db;
	struct db_stmt *st;
	void *cs = NULL;
	char *sql;
	int n = 0, rc;

	if (r->session == NULL)
		return;
	if (!sqlite3session_isempty(r->session)) {
		if ((rc = sqlite3session_changeset(r->session, &n, &cs)) !=
		    SQLITE_OK)
			db_die(db, "cannot record the changes of this "
			    "transaction, so nothing was written: %s",
			    sqlite3_errstr(rc));
	}
	sqlite3session_delete(r->session);
	r->session = NULL;
	/* As session_store: rows written with the values they had. */
	if (n > 0) {
		sql = xasprintf("INSERT INTO \"%s\".rehearsal (n, data)"
		    " VALUES (?1, ?2)", r->schema);
		st = db_prepare(db, sql);
		free(sql);
		db_bind_int(st, 1, ++r->n);
		db_bind_blob(st, 2, cs, n);
		(void)db_step(db, st, 0);
		db_finalize(st);
	}
	sqlite3_free(cs);
	rehearsal_session(r);
}

int64_t
db_rehearsal_keep(struct db_rehearsal *r, const char *table,
    struct db_stmt *st)
{
	struct strbuf o = STRBUF_INIT;
	struct db_stmt *in;
	int64_t rows;
	char *sql;

	/* What the session holds comes first, as in the record. */
	db_rehearsal_take(r);
	rows = encode_inserts(r->db, table, st, &o, 1);
	if (o.len > 0) {
		sql = xasprintf("INSERT INTO \"%s\".rehearsal (n, data)"
		    " VALUES (?1, ?2)", r->schema);
		in = db_prepare(r->db, sql);
		free(sql);
		db_bind_int(in, 1, ++r->n);
		db_bind_blob(in, 2, o.s, (int)o.len);
		(void)db_step(r->db, in, 0);
		db_finalize(in);
	}
	strbuf_release(&o);
	return rows;
}

/* Removes the rows of change_rest that rests names (0 for none), n. */
static void
unstage(struct db *db, const int64_t *rests, int64_t n)
{
	struct db_stmt *st[2];

	st[0] = db_prepare(db, "DELETE FROM change_staged WHERE rest = ?1");
	st[1] = db_prepare(db, "DELETE FROM change_rest WHERE id = ?1");
	for (int64_t i = 0; i < n; i++)
		for (int k = 0; k < 2 && rests[i] != 0; k++) {
			db_bind_int(st[k], 1, rests[i]);
			(void)db_step(db, st[k], 0);
			db_reset(st[k]);
		}
	db_finalize(st[0]);
	db_finalize(st[1]);
}

/* The rows of change_rest of imports that never recorded them. */
static void
unstage_orphans(struct db *db)
{
	struct db_stmt *st;
	int64_t *old = NULL;
	size_t n = 0;

	st = db_prepare(db, "SELECT rest FROM change_staged WHERE staged < ?1");
	db_bind_int(st, 1, db_now() - STAGE_ORPHAN);
	while (db_step(db, st, 0) == DB_ROW) {
		old = xreallocarray(old, n + 1, sizeof *old);
		old[n++] = db_column_int(st, 0);
	}
	db_finalize(st);
	unstage(db, old, (int64_t)n);
	free(old);
}

/* Changeset i, st's row of it, written into change_rest beforehand. */
static void
stage_one(struct db_rehearsal *r, int64_t i, struct db_stmt *st)
{
	struct db *db = r->db;
	const unsigned char *cs = db_column_blob(st, 0);
	size_t len = (size_t)db_column_bytes(st, 0);
	struct db_stmt *in;

	r->removes[i] = changeset_has_delete(cs, len) != 0;
	memcpy(r->head[i], cs, STAGE_HEAD);
	in = db_prepare(db, "INSERT INTO change_rest (data) VALUES (?1)"
	    " RETURNING id");
	db_bind_blob(in, 1, cs + STAGE_HEAD, (int)(len - STAGE_HEAD));
	if (db_step(db, in, 0) != DB_ROW)
		db_fatal(db, "cannot record the changes");
	r->rest[i] = db_column_int(in, 0);
	db_finalize(in);
	in = db_prepare(db, "INSERT INTO change_staged (rest, staged)"
	    " VALUES (?1, ?2)");
	db_bind_int(in, 1, r->rest[i]);
	db_bind_int(in, 2, db_now());
	(void)db_step(db, in, 0);
	db_finalize(in);
}

void
db_rehearsal_stage(struct db_rehearsal *r)
{
	struct db *db = r->db;
	struct db_stmt *st;
	int64_t *large = NULL;
	size_t nlarge = 0;
	char *sql;

	db_rehearsal_stop(r);
	free(r->rest);
	free(r->removes);
	free(r->head);
	r->rest = xcalloc((size_t)r->n + 1, sizeof *r->rest);
	r->removes = xcalloc((size_t)r->n + 1, 1);
	r->head = xcalloc((size_t)r->n + 1, sizeof *r->head);
	/* Which are large: a small import takes no write lock here. */
	sql = xasprintf("SELECT n FROM \"%s\".rehearsal WHERE length(data) >"
	    " %d ORDER BY n", r->schema, STAGE_MIN);
	st = db_prepare(db, sql);
	free(sql);
	while (db_step(db, st, 0) == DB_ROW) {
		large = xreallocarray(large, nlarge + 1, sizeof *large);
		large[nlarge++] = db_column_int(st, 0);
	}
	db_finalize(st);
	if (nlarge == 0)
		return;
	db_begin(db);
	unstage_orphans(db);
	db_commit(db);
	sql = xasprintf("SELECT data FROM \"%s\".rehearsal WHERE n = ?1",
	    r->schema);
	for (size_t k = 0; k < nlarge; k++) {
		/* One changeset at a time: the lock is held a moment each. */
		db_begin(db);
		st = db_prepare(db, sql);
		db_bind_int(st, 1, large[k]);
		if (db_step(db, st, 0) == DB_ROW)
			stage_one(r, large[k], st);
		db_finalize(st);
		db_commit(db);
	}
	free(sql);
	free(large);
}

void
db_rehearsal_stop(struct db_rehearsal *r)
{
	db_rehearsal_take(r);
	if (r->session != NULL)
		sqlite3session_delete(r->session);
	r->session = NULL;
}

/*
 * Whether a change recorded after mark (its number, db_changes_mark)
 * writes a row of one of tables.  Every write of refkit's to this
 * database is recorded, a station's changes applied here too.
 */
static int
changes_since(struct db *db, int64_t mark, const char *const *tables)
{
	struct db_stmt *st = db_prepare(db, "SELECT c.data, r.data FROM "
	    DB_CHANGE_ROWS " WHERE c.no > ?1 ORDER BY c.no");
	sqlite3_changeset_iter *it;
	const char *tab;
	int found = 0, ncol, op, indirect;

	db_bind_int(st, 1, mark);
	while (!found && db_step(db, st, 0) == DB_ROW) {
		void *owned;
		size_t n;
		const void *cs = db_change_data(st, 0, 1, &n, &owned);

		/* The iterator only reads; its prototype is not const. */
		if (sqlite3changeset_start(&it, (int)n, (void *)cs) !=
		    SQLITE_OK)
			db_fatal(db, "cannot read the record of changes");
		while (!found && sqlite3changeset_next(it) == SQLITE_ROW &&
		    sqlite3changeset_op(it, &tab, &ncol, &op, &indirect) ==
		    SQLITE_OK)
			for (int i = 0; tables[i] != NULL && !found; i++)
				found = strcmp(tab, tables[i]) == 0;
		(void)sqlite3changeset_finalize(it);
		free(owned);
	}
	db_finalize(st);
	return found;
}

int64_t
db_changes_mark(struct db *db)
{
	struct db_stmt *st = db_prepare(db, "SELECT coalesce(max(no), 0)"
	    " FROM change");
	int64_t mark = 0;

	if (db_step(db, st, 0) == DB_ROW)
		mark = db_column_int(st, 0);
	db_finalize(st);
	return mark;
}

int
db_rehearsal_play(struct db_rehearsal *r, int64_t mark,
    const char *const *watch, int (*write)(void *), void *arg)
{
	struct db *db = r->db;
	struct db_stmt *st;
	char *sql;
	int first;

	db_rehearsal_stop(r);
	if (changes_since(db, mark, watch)) {
		if (r->rest != NULL)
			unstage(db, r->rest + 1, r->n);
		return -1;
	}
	/* The rows are recorded as they were in the rehearsal. */
	record_rows(db, 0);
	/*
	 * The play writes its rows and the changes kept, tens of megabytes
	 * for 200,000 characters, under the write lock: with SQLite's cache
	 * of 2 MB the pages spill into the log as they are dirtied and are
	 * read back, which took most of the time the lock was held.  Up to
	 * 64 MB (the play is the command's last write) they wait for the
	 * commit, which writes each once.
	 */
	db_exec(db, "PRAGMA cache_size = -65536", "cannot play the rehearsal");
	db_exec(db, "SAVEPOINT rehearsal", "cannot play the rehearsal");
	if (write(arg) != 0) {
		db_exec(db, "ROLLBACK TO rehearsal; RELEASE rehearsal",
		    "cannot play the rehearsal");
		record_rows(db, 1);
		if (r->rest != NULL)
			unstage(db, r->rest + 1, r->n);
		return -1;
	}
	/*
	 * Of a staged changeset, the first bytes, and the whole only when it
	 * removes rows, which gone notes; the station's first change is
	 * recorded whole, with the station's own row (with_birth).
	 */
	st = db_prepare(db, "SELECT 1 FROM change WHERE origin ="
	    " (SELECT id FROM station_self)");
	first = db_step(db, st, 0) != DB_ROW;
	db_finalize(st);
	sql = xasprintf("SELECT data FROM \"%s\".rehearsal WHERE n = ?1",
	    r->schema);
	st = db_prepare(db, sql);
	free(sql);
	for (int64_t i = 1; i <= r->n; i++) {
		int64_t rest = r->rest != NULL ? r->rest[i] : 0;

		if (rest != 0 && first) {
			unstage(db, &rest, 1);
			rest = 0;
		}
		if (rest == 0 || r->removes[i]) {
			db_bind_int(st, 1, i);
			if (db_step(db, st, 0) != DB_ROW)
				db_fatal(db, "cannot play the rehearsal");
		}
		if (rest == 0)
			(void)change_append(db, db_column_blob(st, 0),
			    (size_t)db_column_bytes(st, 0));
		else
			(void)change_write(db, r->head[i], STAGE_HEAD, rest,
			    r->removes[i] ? db_column_blob(st, 0) : NULL,
			    r->removes[i] ? (size_t)db_column_bytes(st, 0) : 0,
			    NULL);
		db_reset(st);
		first = 0;
	}
	db_finalize(st);
	db_exec(db, "RELEASE rehearsal", "cannot play the rehearsal");
	record_rows(db, 1);
	return 0;
}

void
db_rehearsal_free(struct db_rehearsal *r)
{
	if (r == NULL)
		return;
	if (r->session != NULL)
		sqlite3session_delete(r->session);
	free(r->rest);
	free(r->removes);
	free(r->head);
	free(r->schema);
	free(r);
}

const void *
db_change_data(struct db_stmt *st, int col, int rest, size_t *n,
    void **owned)
{
	size_t head, more;
	unsigned char *p;

	*owned = NULL;
	*n = head = (size_t)db_column_bytes(st, col);
	if (db_column_type(st, rest) == DB_NULL)
		return db_column_blob(st, col);
	more = (size_t)db_column_bytes(st, rest);
	p = xmalloc(head + more);
	memcpy(p, db_column_blob(st, col), head);
	memcpy(p + head, db_column_blob(st, rest), more);
	*n = head + more;
	*owned = p;
	return p;
}

void
db_begin_read(struct db *db)
{
	db->tx_no++;
	db->tx_write = 0;
	if (db->pg != NULL)
		dbpg_begin_read(db);
	else
		db_exec(db, "BEGIN", "cannot start a transaction");
}

/*
 * SQLite counts, per connection, the commits of the others; a server
 * database numbers its changes, and every write transaction records one
 * (or, applying another station's, comes with its own): the newest's
 * number, read through the primary key, costs a look at one index page.
 */
int64_t
db_data_version(struct db *db)
{
	struct db_stmt *st = db_prepare(db, db->pg != NULL ?
	    "SELECT coalesce(max(no), 0) FROM change" : "PRAGMA data_version");
	int64_t v = 0;

	if (db_step(db, st, 0) == DB_ROW)
		v = db_column_int(st, 0);
	db_finalize(st);
	return v;
}

void
db_read_only(struct db *db)
{
	db_exec(db, db->pg != NULL ? "SET default_transaction_read_only = on" :
	    "PRAGMA query_only = 1", "cannot make the connection read-only");
}

int
db_watch_fd(struct db *db)
{
	return db->pg != NULL ? dbpg_listen(db) : -1;
}

int
db_changed(struct db *db)
{
	return db->pg != NULL && dbpg_notified(db) != 0;
}

void
db_commit(struct db *db)
{
	if (db->pg != NULL) {
		pg_store(db);
		db->pg_recording = 0;
		dbpg_commit(db);
		db->appending = 0;
		db->log_lock = 0;
		db->keys_lock = 0;
		return;
	}
	session_store(db);
	db_exec(db, "COMMIT", "cannot commit");
}

/* A chunk of db_bulk_insert's rows, recorded as one change. */
static void
bulk_store(void *arg, const unsigned char *cs, size_t n)
{
	change_append(arg, cs, n);
}

int64_t
db_bulk_insert(struct db_bulk *b, const char *table, const char *columns,
    int ncols, long chunk)
{
	struct db *db;
	struct pg_bulk *p = db_bulk_take(b, &db);
	int64_t rows;

	/* The rows are recorded here, not by the server's notes. */
	db_changes_flush(db);
	record_rows(db, 0);
	rows = dbpg_bulk_insert(p, table, columns, ncols, chunk,
	    db->pg_recording ? bulk_store : NULL, db);
	record_rows(db, 1);
	db_bulk_free(b);
	return rows;
}

/*
 * Looks at the file before anything is written: returns its user_version,
 * or exits if it is not ours.  An empty file (no tables, no ids) is 0.
 * The three facts are read by one statement, hence in one read
 * transaction: another process creating the schema at the same moment
 * must not be seen half done.
 */
static int
check_identity(struct db *db)
{
	sqlite3_stmt *st;
	int app = 0, version = 0, ntables = 0, rc = SQLITE_ERROR;

	if (sqlite3_prepare_v2(db->h, "SELECT"
	    " (SELECT application_id FROM pragma_application_id),"
	    " (SELECT user_version FROM pragma_user_version),"
	    " (SELECT count(*) FROM sqlite_schema)", -1, &st,
	    NULL) == SQLITE_OK) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			app = sqlite3_column_int(st, 0);
			version = sqlite3_column_int(st, 1);
			ntables = sqlite3_column_int(st, 2);
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW) {
		int code = sqlite3_extended_errcode(db->h) & 0xff;

		/* A damaged file, or one that is not SQLite's at all. */
		if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
			errx(1, "'%s': not a refkit database (%s)", util_q(db->path),
			    sqlite3_errmsg(db->h));
		if (code == SQLITE_READONLY)
			errx(1, "cannot use '%s': the file or its directory is "
			    "read-only for this user (%s)", util_q(db->path),
			    sqlite3_errmsg(db->h));
		errx(1, "cannot read '%s': %s", util_q(db->path),
		    db_errmsg(db));
	}
	if (app == 0 && version == 0 && ntables == 0)
		return 0;
	if (app != DB_APPLICATION_ID)
		errx(1, "'%s': not a refkit database (an SQLite file of "
		    "another program)", util_q(db->path));
	if (version > DB_SCHEMA_VERSION)
		errx(1, "'%s': written by a newer refkit (schema %d; this "
		    "one knows up to %d); not changed", util_q(db->path),
		    version, DB_SCHEMA_VERSION);
	if (version < 1)
		errx(1, "'%s': damaged refkit database (schema version %d)",
		    util_q(db->path), version);
	return version;
}

/*
 * A migration's changes are recorded in parts of about this much of the
 * session extension's memory each.  The session keeps every row it has
 * seen changed until its changeset is taken, and a changeset is built
 * whole in memory, so that one session over a whole migration grew with
 * the database (972 MB for a million events) and, at ten million, passed
 * the largest changeset SQLite makes.  In parts, the memory stays flat
 * and each part is one change of its own, which a station applies as it
 * would the one.
 */
#define MIGRATE_PART_BYTES	(4 * 1024 * 1024)

/*
 * Takes the migration's changes so far as the next part: kept in a
 * temporary table (on disk, as SQLite's temporary files are), since the
 * change table itself may not have its last form yet; migrate_store
 * appends the parts once it has.  The session starts again empty.
 */
static void
migrate_take(struct db *db)
{
	struct db_stmt *st;
	void *cs = NULL;
	int n = 0, rc;

	if (db->session == NULL || sqlite3session_isempty(db->session))
		return;
	if ((rc = sqlite3session_changeset(db->session, &n, &cs)) !=
	    SQLITE_OK)
		db_die(db, "cannot record the migration's changes, so nothing "
		    "was written: %s", sqlite3_errstr(rc));
	session_end(db);
	session_start(db);
	if (n == 0) {
		sqlite3_free(cs);
		return;
	}
	st = db_prepare(db, "INSERT INTO temp.migrate_part (data) VALUES (?1)");
	db_bind_blob(st, 1, cs, n);
	db_step(db, st, 0);
	db_finalize(st);
	sqlite3_free(cs);
}

/*
 * Called between two logs of a migration step that records (the chains
 * of step 15): takes a part once the session holds enough.
 */
static void
migrate_part(struct db *db)
{
	if (db->migrating && db->session != NULL &&
	    sqlite3session_memory_used(db->session) >= MIGRATE_PART_BYTES)
		migrate_take(db);
}

/* Appends the parts taken, in order, each as this station's next change. */
static void
migrate_store(struct db *db)
{
	struct db_stmt *st;
	int64_t no = 0;
	void *cs;
	size_t n;

	for (;;) {
		st = db_prepare(db, "SELECT no, data FROM temp.migrate_part"
		    " WHERE no > ?1 ORDER BY no LIMIT 1");
		db_bind_int(st, 1, no);
		if (db_step(db, st, 0) != DB_ROW) {
			db_finalize(st);
			break;
		}
		no = db_column_int(st, 0);
		n = (size_t)db_column_bytes(st, 1);
		cs = xmalloc(n);
		memcpy(cs, db_column_blob(st, 1), n);
		db_finalize(st);
		change_append(db, cs, n);
		free(cs);
	}
	db_exec(db, "DROP TABLE temp.migrate_part", "cannot record the "
	    "migration's changes");
}

/*
 * Runs a step of a migration that records its changes, statement by
 * statement as db_exec would.  A statement led by a line "-- in parts"
 * (schema.sql) is run again until it changes no row, and the changes
 * recorded so far may go as a part after each run (migrate_part).
 */
static void
migrate_run(struct db *db, const char *sql, const char *what)
{
	static const char mark[] = "\n-- in parts\n";
	const char *head = sql, *tail;
	sqlite3_stmt *st;
	int rc, parts, changed;

	while (*head != '\0') {
		if (sqlite3_prepare_v2(db->h, head, -1, &st, &tail) !=
		    SQLITE_OK)
			db_fatal(db, what);
		if (st == NULL)		/* only comments were left */
			break;
		parts = memmem(head, (size_t)(tail - head), mark,
		    sizeof mark - 1) != NULL;
		do {
			while ((rc = sqlite3_step(st)) == SQLITE_ROW)
				;
			changed = sqlite3_changes(db->h);
			if (rc != SQLITE_DONE) {
				sqlite3_finalize(st);
				db_fatal(db, what);
			}
			sqlite3_reset(st);
			if (parts)
				migrate_part(db);
		} while (parts && changed > 0);
		sqlite3_finalize(st);
		head = tail;
	}
}

/* Creates or migrates, in one transaction, re-checking under the lock. */
static void
bring_up_to_date(struct db *db)
{
	int version;

	if (db->readonly)
		errx(1, "cannot use '%s': its schema needs updating to "
		    "version %d, and it is on a read-only file system",
		    util_q(db->path), DB_SCHEMA_VERSION);
	db_begin(db);
	/* Another process may have done it while we waited for the lock. */
	version = check_identity(db);
	if (version == 0)
		db_exec(db, db_schema_sql, "cannot create the schema");
	else {
		char *set, *what = xasprintf("cannot migrate the schema from "
		    "version %d to %d", version, DB_SCHEMA_VERSION);

		/*
		 * Each step is cut from schema.sql at its section lines
		 * (tools/embed-sql.sh): no table is written out here.  A
		 * server database is migrated by the same steps, translated
		 * by the build (db/dbpg.c).
		 */
		db->migrating = db->session != NULL;
		if (db->migrating)
			db_exec(db, "CREATE TEMP TABLE migrate_part (no INTEGER"
			    " PRIMARY KEY, data BLOB NOT NULL)", what);
		for (int v = version + 1; v <= DB_SCHEMA_VERSION; v++) {
			/*
			 * A step is the same at every station, so it is not
			 * a change to send them; but step 11's new keys are
			 * recorded, being how rows older than stations
			 * travel (refkit.db(5)), and step 15's hashes, so
			 * that a station that gets those rows later gets
			 * them chained (one that has them made the same).
			 */
			if (db->session != NULL)
				(void)sqlite3session_enable(db->session,
				    v == 11 || v == DB_SCHEMA_CHAINED);
			if (db->migrating)
				migrate_run(db, db_schema_step[v], what);
			else
				db_exec(db, db_schema_step[v], what);
			/*
			 * Step 11's changes are taken before a later step
			 * alters the tables they are of (step 15's hashes):
			 * the session extension cannot write a change of a
			 * table whose columns changed under it.  Step 15's
			 * are taken in parts as its logs are chained
			 * (fn_chain_log), and its last part here.  They
			 * are stored once the change table has its last
			 * form.
			 */
			if (db->migrating && (v == 11 ||
			    v == DB_SCHEMA_CHAINED))
				migrate_take(db);
		}
		if (db->migrating)
			migrate_store(db);
		db->migrating = 0;
		set = xasprintf("PRAGMA user_version = %d", DB_SCHEMA_VERSION);
		db_exec(db, set, what);
		free(set);
		free(what);
	}
	db_commit(db);
	/* A file the user made (touch) is changed: say so. */
	if (version == 0 && db->was_empty)
		warnx("'%s' was an empty file: it is now a refkit database",
		    util_q(db->path));
}

/*
 * WAL lets readers go on while one GM writes.  It is a property of the
 * file, so only the first open of a new file changes anything.  The
 * change needs the file to itself for a moment, and SQLite does not
 * always wait for that through the busy handler, so wait here, as long
 * as the busy timeout.
 */
static void
set_wal(struct db *db)
{
	struct timespec pause = { 0, 5 * 1000 * 1000 };
	struct db_stmt *st;
	int waited = 0, rc, is_wal = 0;

	for (;;) {
		st = db_prepare(db, "PRAGMA journal_mode");
		if (db_step(db, st, 0) == DB_ROW)
			is_wal = strcmp(db_column_text(st,
			    0), "wal") == 0;
		db_finalize(st);
		if (is_wal)
			return;
		rc = sqlite3_exec(db->h, "PRAGMA journal_mode = WAL", NULL,
		    NULL, NULL);
		if (rc == SQLITE_OK)
			return;
		if ((rc & 0xff) != SQLITE_BUSY || waited >= busy_ms())
			db_fatal(db, "cannot switch to WAL mode");
		nanosleep(&pause, NULL);
		waited += 5;
	}
}

/*
 * Why a file could not be opened, when SQLite's last errno does not say
 * (it tries read-write, then read-only, and keeps the second's ENOENT):
 * a missing or unwritable directory for a file that does not exist yet.
 */
static void __attribute__((noreturn))
open_failed(struct db *db)
{
	/* Static: the errx below exits, and a leak checker must not mind. */
	static char *dir;
	const char *slash = strrchr(db->path, '/');
	struct stat sb;

	/* The directory: "/" for "/x.db", "." for "x.db". */
	dir = slash == NULL ? xstrdup(".") : xstrndup(db->path,
	    slash == db->path ? 1 : (size_t)(slash - db->path));
	if (stat(db->path, &sb) != 0 && errno == ENOENT) {
		struct statvfs vfs;

		if (stat(dir, &sb) != 0)
			errx(1, "cannot create '%s': no directory '%s'",
			    util_q(db->path), util_q(dir));
		if (statvfs(dir, &vfs) == 0 && (vfs.f_flag & ST_RDONLY))
			errx(1, "cannot create '%s': directory '%s' is on a "
			    "read-only file system", util_q(db->path),
			    util_q(dir));
		if (access(dir, W_OK) != 0)
			errx(1, "cannot create '%s': directory '%s' is not "
			    "writable", util_q(db->path), util_q(dir));
	}
	errx(1, "cannot open '%s': %s", util_q(db->path), db_errmsg(db));
}

/*
 * The database a tool has open.  A refusal exits through errx(3) with it
 * open; at exit it is rolled back and closed, so that what SQLite holds
 * is freed (valgrind counts it lost otherwise) and nothing is left for
 * the operating system to tidy.
 */
static struct db *open_db;

/* play's worker keeps its server's connection (db_keep_connections). */
static int keeping;
static struct db *kept;

static void
close_at_exit(void)
{
	sqlite3_stmt *st;

	if (kept != NULL && kept != open_db)
		dbpg_close(kept);
	if (open_db != NULL)
		dbpg_close(open_db);
	if (open_db == NULL || open_db->h == NULL)
		return;
	while ((st = sqlite3_next_stmt(open_db->h, NULL)) != NULL)
		sqlite3_finalize(st);
	if (!sqlite3_get_autocommit(open_db->h))
		sqlite3_exec(open_db->h, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(open_db->h);
	open_db->h = NULL;
}

/* What a file of type mode is, for a refusal; NULL for a regular file. */
static const char *
file_kind(mode_t mode)
{
	if (S_ISREG(mode))
		return NULL;
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISFIFO(mode))
		return "a named pipe (FIFO)";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

/*
 * Looks at the path before SQLite does, which would otherwise write a
 * journal beside a device (/dev/null-journal) or follow nothing and say
 * only "unable to open".  Sets db->was_empty and db->readonly.
 */
static int
check_path(struct db *db)
{
	/* Static: the errx below exits, and a leak checker must not mind. */
	static char *wal;
	struct stat sb;
	struct statvfs vfs;
	const char *kind;

	/* Missing: created; other errors: the open says what they are. */
	if (lstat(db->path, &sb) != 0)
		return errno == ENOENT;
	if (S_ISLNK(sb.st_mode))
		errx(1, "cannot use '%s': it is a symbolic link, and refkit "
		    "does not follow links to a database (a link could "
		    "send the writes to another file); give the real path",
		    util_q(db->path));
	if ((kind = file_kind(sb.st_mode)) != NULL)
		errx(1, "cannot use '%s': it is %s, not a database file",
		    util_q(db->path), kind);
	db->was_empty = sb.st_size == 0;
	if (statvfs(db->path, &vfs) != 0 || !(vfs.f_flag & ST_RDONLY))
		return 0;
	db->readonly = 1;
	/*
	 * Read-only media are opened immutable, which ignores a -wal file:
	 * one that holds commits the file lacks would give stale answers.
	 */
	wal = xasprintf("%s-wal", db->path);
	if (stat(wal, &sb) == 0 && sb.st_size > 0)
		errx(1, "cannot read '%s': it has changes in '%s' not yet "
		    "written into it, and it is on a read-only file system "
		    "(open it once where it can be written)", util_q(db->path),
		    util_q(wal));
	free(wal);
	wal = NULL;
	return 0;
}

/*
 * A new database appears whole: the schema is written into a file of
 * this process's own beside it, which is then linked into place, an
 * atomic step that fails if another process got there first (its file
 * is then used).  So an empty file at the path was never made by refkit,
 * and saying so (db->was_empty) cannot mislead.  Where links are not
 * supported (FAT), or anything else fails, nothing is left behind and
 * SQLite creates the file in place as before.
 */
static void
create_whole(struct db *db)
{
	static const char *const sfx[] = { "", "-journal", "-wal", "-shm" };
	char *tmp = xasprintf("%s.new-%ld", db->path, (long)getpid());
	sqlite3 *h = NULL;
	int ok;

	unlink(tmp);
	ok = sqlite3_open_v2(tmp, &h, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX,
	    NULL) == SQLITE_OK && add_functions(h) &&
	    sqlite3_exec(h, "BEGIN", NULL, NULL, NULL) == SQLITE_OK &&
	    sqlite3_exec(h, db_schema_sql, NULL, NULL, NULL) == SQLITE_OK &&
	    sqlite3_exec(h, "COMMIT", NULL, NULL, NULL) == SQLITE_OK &&
	    sqlite3_exec(h, "PRAGMA journal_mode = WAL", NULL, NULL,
	    NULL) == SQLITE_OK;
	/* Closing the last connection checkpoints and removes the WAL. */
	if (sqlite3_close(h) != SQLITE_OK)
		ok = 0;
	if (ok)
		(void)link(tmp, db->path);
	for (size_t i = 0; i < sizeof sfx / sizeof *sfx; i++) {
		char *f = xasprintf("%s%s", tmp, sfx[i]);

		unlink(f);
		free(f);
	}
	free(tmp);
}

/*
 * The URI that opens path read-only and immutable: nothing can change
 * the file on a read-only file system, and SQLite then needs no -shm or
 * -wal beside it.  The caller frees it.
 */
static char *
immutable_uri(const char *path)
{
	/* Each byte may take three ("%3F"); "file://" and the query more. */
	size_t sz = 3 * strlen(path) + 32, len;
	char *uri = xmalloc(sz);

	len = (size_t)snprintf(uri, sz, "file:%s", path[0] == '/' ? "//" :
	    "");
	for (const char *p = path; *p; p++) {
		if (*p == '%' || *p == '?' || *p == '#')
			len += (size_t)snprintf(uri + len, sz - len, "%%%02X",
			    (unsigned char)*p);
		else
			uri[len++] = *p;
	}
	snprintf(uri + len, sz - len, "?immutable=1");
	return uri;
}

/*
 * refkit_chain_log(kind, log): chains a log's events as they stand (the
 * migration to schema 15, db/chain.h).
 */
static void
fn_chain_log(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	const char *kind = (const char *)sqlite3_value_text(argv[0]);

	(void)argc;
	if (kind == NULL || chain_log(sqlite3_user_data(cx), kind,
	    sqlite3_value_int64(argv[1])) != 0)
		sqlite3_result_error(cx, "refkit_chain_log: no such kind", -1);
	else {
		/* Between two logs, the changes so far may go as a part. */
		migrate_part(sqlite3_user_data(cx));
		sqlite3_result_null(cx);
	}
}

/* add_functions, and those that read the station of db's connection. */
static int
add_db_functions(struct db *db)
{
	return add_functions(db->h) &&
	    sqlite3_create_function(db->h, "refkit_key_lo", 0, SQLITE_UTF8,
	    db, fn_key_lo, NULL, NULL) == SQLITE_OK &&
	    sqlite3_create_function(db->h, "refkit_key_hi", 0, SQLITE_UTF8,
	    db, fn_key_hi, NULL, NULL) == SQLITE_OK &&
	    sqlite3_create_function(db->h, "refkit_gone_note", 3, SQLITE_UTF8,
	    db, gone_fn_note, NULL, NULL) == SQLITE_OK &&
	    sqlite3_create_function(db->h, "refkit_chain_log", 2, SQLITE_UTF8,
	    db, fn_chain_log, NULL, NULL) == SQLITE_OK;
}

int
db_path_is_server(const char *path)
{
	return dbpg_is_conninfo(path);
}

void
db_keep_connections(void)
{
	keeping = 1;
}

/* Lets the kept connection go: closed, as keeping would not. */
static void
kept_drop(void)
{
	struct db *db = kept;

	kept = NULL;
	if (open_db == db)
		open_db = NULL;
	keeping = 0;
	db_close(db);
	keeping = 1;
}

/* The connection kept for path, if it can serve; else NULL. */
static struct db *
kept_take(const char *path)
{
	struct db *db = kept;

	if (db == NULL)
		return NULL;
	if ((path == NULL ? db->given == NULL : db->given != NULL &&
	    strcmp(path, db->given) == 0) && dbpg_reusable(db, 0)) {
		kept = NULL;
		open_db = db;
		return db;
	}
	kept_drop();
	return NULL;
}

void
db_kept_settle(void)
{
	if (kept != NULL && !dbpg_reusable(kept, 1))
		kept_drop();
}

struct db *
db_open(const char *path)
{
	struct db *db;
	int is_default = 0, rc;

	if ((db = kept_take(path)) != NULL)
		return db;
	db = xcalloc(1, sizeof *db);

	/* Before anything can fail: db_errmsg says it of a lock. */
	db->busy_ms = busy_ms();
	/*
	 * No count of SQLite's memory (sqlite3_memory_used is never read):
	 * spares every allocation a global mutex and two counters, which a
	 * merge's millions of values feel.  It can be set only before SQLite
	 * starts, so a later call is refused, harmlessly.
	 */
	(void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	db->path = path ? xstrdup(path) : db_default_path(&is_default);
	if (open_db == NULL && atexit(close_at_exit) != 0)
		errx(1, "cannot register the database's close at exit");
	open_db = db;
	if (sodium_init() < 0)
		errx(1, "cannot start libsodium");
	if (dbpg_is_conninfo(db->path)) {
		/* What a migration step calls: on SQLite, SQL functions. */
		static const struct dbpg_client client = { gone_note,
		    chain_log, pg_store_now };

		dbpg_open(db, station_name(), &client);
		if (keeping && path != NULL)
			db->given = xstrdup(path);
		return db;
	}
	if (is_default)
		make_parents(db->path);
	if (check_path(db)) {
		(void)station_name();
		create_whole(db);
	}
	/* Every tool is one thread: spare each SQLite call its mutex. */
	if (db->readonly) {
		char *uri = immutable_uri(db->path);

		rc = sqlite3_open_v2(uri, &db->h, SQLITE_OPEN_READONLY |
		    SQLITE_OPEN_URI | SQLITE_OPEN_NOFOLLOW |
		    SQLITE_OPEN_NOMUTEX, NULL);
		free(uri);
	} else
		rc = sqlite3_open_v2(db->path, &db->h, SQLITE_OPEN_READWRITE |
		    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW |
		    SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK)
		open_failed(db);
	sqlite3_extended_result_codes(db->h, 1);
	if (!add_db_functions(db))
		db_fatal(db, "cannot register refkit's SQL functions");
	sqlite3_busy_handler(db->h, busy_wait, db);
	sqlite3_db_config(db->h, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(db->h, SQLITE_DBCONFIG_DQS_DDL, 0, NULL);
	sqlite3_db_config(db->h, SQLITE_DBCONFIG_DQS_DML, 0, NULL);
	sqlite3_db_config(db->h, SQLITE_DBCONFIG_ENABLE_TRIGGER, 1, NULL);

	if (check_identity(db) < DB_SCHEMA_VERSION) {
		(void)station_name();
		bring_up_to_date(db);
	}

	if (!db->readonly)
		set_wal(db);
	db_exec(db, "PRAGMA foreign_keys = ON", "cannot enable foreign keys");
	return db;
}

/* Whether db_default_path finds a path (it exits otherwise). */
static int
has_default_path(void)
{
	const char *env;

	return ((env = getenv("REFKIT_DB")) != NULL && *env != '\0') ||
	    ((env = getenv("XDG_DATA_HOME")) != NULL && *env == '/') ||
	    ((env = getenv("HOME")) != NULL && *env != '\0');
}

/* Whether path names a file that exists (whatever it is). */
static int
exists(const char *path)
{
	struct stat sb;

	return lstat(path, &sb) == 0;
}

/*
 * A WAL database opened for reading alone: where the -wal file is
 * missing, every commit is in the file itself, which is read as it
 * stands (immutable: no -wal or -shm made beside it, which a reader
 * could not remove again, and no lock taken); where it is there with its
 * -shm, another connection has the database open, and this one reads
 * through them as any reader does; a -wal without its -shm is a crash's,
 * which only a writer recovers.
 */
static sqlite3 *
open_existing_file(const char *path)
{
	char *wal = xasprintf("%s-wal", path), *shm = xasprintf("%s-shm", path);
	char *uri = NULL;
	sqlite3 *h = NULL;
	int rc = SQLITE_CANTOPEN;

	if (!exists(wal)) {
		uri = immutable_uri(path);
		rc = sqlite3_open_v2(uri, &h, SQLITE_OPEN_READONLY |
		    SQLITE_OPEN_URI | SQLITE_OPEN_NOFOLLOW |
		    SQLITE_OPEN_NOMUTEX, NULL);
	} else if (exists(shm))
		rc = sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY |
		    SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX, NULL);
	free(uri);
	free(wal);
	free(shm);
	if (rc != SQLITE_OK) {
		sqlite3_close(h);
		return NULL;
	}
	return h;
}

/* Whether h holds a refkit database of this build's schema. */
static int
is_current(sqlite3 *h)
{
	sqlite3_stmt *st = NULL;
	int ok;

	ok = sqlite3_prepare_v2(h, "SELECT"
	    " (SELECT application_id FROM pragma_application_id),"
	    " (SELECT user_version FROM pragma_user_version)", -1, &st,
	    NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_int(st, 0) == DB_APPLICATION_ID &&
	    sqlite3_column_int(st, 1) == DB_SCHEMA_VERSION;
	sqlite3_finalize(st);
	return ok;
}

struct db *
db_open_existing(const char *path)
{
	struct db *db;
	struct stat sb;
	int is_default;
	char *p;

	/* db_default_path exits where the environment names none. */
	if (path == NULL && !has_default_path())
		return NULL;
	p = path ? xstrdup(path) : db_default_path(&is_default);
	if (!dbpg_is_conninfo(p) && (lstat(p, &sb) != 0 ||
	    !S_ISREG(sb.st_mode) || sb.st_size == 0)) {
		free(p);
		return NULL;
	}
	(void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	if (sodium_init() < 0) {
		free(p);
		return NULL;
	}
	db = xcalloc(1, sizeof *db);
	db->path = p;
	db->readonly = 1;
	/* A reader of a WAL database seldom waits; a completion never long. */
	db->busy_ms = 250;
	if (dbpg_is_conninfo(db->path)) {
		if (dbpg_open_existing(db) != 0) {
			free(db->path);
			free(db);
			return NULL;
		}
	} else if ((db->h = open_existing_file(db->path)) == NULL ||
	    !is_current(db->h) || !add_db_functions(db)) {
		sqlite3_close(db->h);
		free(db->path);
		free(db);
		return NULL;
	} else {
		sqlite3_extended_result_codes(db->h, 1);
		sqlite3_busy_handler(db->h, busy_wait, db);
		sqlite3_db_config(db->h, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	}
	if (open_db == NULL && atexit(close_at_exit) != 0) {
		db_close(db);
		return NULL;
	}
	open_db = db;
	return db;
}

void
db_abandon(struct db *db)
{
	sqlite3_stmt *st;

	if (db == NULL)
		return;
	db_asked_drop(db);
	db_rollback(db);
	if (db->h != NULL)
		while ((st = sqlite3_next_stmt(db->h, NULL)) != NULL)
			sqlite3_finalize(st);
	if (db->local != NULL)
		while ((st = sqlite3_next_stmt(db->local, NULL)) != NULL)
			sqlite3_finalize(st);
	db_close(db);
}

void
db_close(struct db *db)
{
	if (db == NULL)
		return;
	db_asked_drop(db);
	db_rollback(db);
	/* Kept for the next command of the same session. */
	if (keeping && db->pg != NULL && kept == NULL && dbpg_idle(db)) {
		db->subject[0] = '\0';
		kept = db;
		return;
	}
	/* The kept connection keeps what it knows of the tables. */
	chain_columns_free(db->columns);
	dbpg_close(db);
	/* A statement left unfinalized makes this fail: a leak is a bug. */
	if (db->h != NULL && sqlite3_close(db->h) != SQLITE_OK)
		errx(1, "cannot close '%s': %s", util_q(db->path),
		    sqlite3_errmsg(db->h));
	if (db->local != NULL && sqlite3_close(db->local) != SQLITE_OK)
		errx(1, "cannot close the in-memory database: %s",
		    sqlite3_errmsg(db->local));
	if (open_db == db)
		open_db = NULL;
	free(db->given);
	free(db->path);
	free(db);
}

/*
 * Stand-ins for the functions schema.sql calls (add_functions, and
 * step 14's refkit_gone_note), on db_schema_memory's database, which is
 * never a station: a fixed text (the user data), else 0.
 */
static void
fn_stand_in(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	const char *text = sqlite3_user_data(cx);

	(void)argc;
	(void)argv;
	if (text != NULL)
		sqlite3_result_text(cx, text, -1, SQLITE_STATIC);
	else
		sqlite3_result_int64(cx, 0);
}

sqlite3 *
db_schema_memory(char *why, size_t whysz)
{
	return db_schema_memory_of(db_schema_sql, why, whysz);
}

sqlite3 *
db_schema_memory_of(const char *sql, char *why, size_t whysz)
{
	static const struct {
		const char	*name;
		int		 nargs;
		const char	*text;
	} fn[] = {
		{ "refkit_new_station_id", 0,
		    "00000000000000000000000000000000" },
		{ "refkit_station_name", 0, "schema" },
		{ "refkit_now", 0, NULL },
		{ "refkit_station_tag", 1, NULL },
		{ "refkit_gone_note", 3, NULL },
		{ "refkit_chain_log", 2, NULL },
	};
	sqlite3 *h = NULL;
	char *msg = NULL;
	int rc;

	rc = sqlite3_open_v2(":memory:", &h, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL);
	for (size_t i = 0; rc == SQLITE_OK && i < sizeof fn / sizeof *fn; i++)
		rc = sqlite3_create_function(h, fn[i].name, fn[i].nargs,
		    SQLITE_UTF8, (void *)fn[i].text, fn_stand_in, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(h, sql, NULL, NULL, &msg);
	if (rc != SQLITE_OK) {
		util_say(why, whysz, "cannot make the schema in memory: %s",
		    msg ? msg : h ? sqlite3_errmsg(h) : sqlite3_errstr(rc));
		sqlite3_free(msg);
		sqlite3_close(h);
		return NULL;
	}
	return h;
}
