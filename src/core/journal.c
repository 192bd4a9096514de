/*
 * journal.c - append-only event logs; see journal.h.
 *
 * Every statement here is a kind's (JOURNAL_SQL) or a literal of its
 * own; every value is bound.
 */
#include "core/journal.h"
#include "db/chain.h"
#include "core/pack.h"

#include "core/cli.h"
#include "core/ruling.h"
#include "base/fit.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <err.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t
journal_latest(struct db *db, const struct journal_kind *k)
{
	struct db_stmt *st = db_prepare(db, k->sql_latest);
	int64_t id = 0;

	if (db_step(db, st, 0) == DB_ROW)
		id = db_column_int(st, 0);
	db_finalize(st);
	return id;
}

int64_t *
journal_ids(struct db *db, const struct journal_kind *k, size_t *n)
{
	struct db_stmt *st = db_prepare(db, k->sql_ids);
	int64_t *ids = NULL;
	size_t cap = 0;

	*n = 0;
	while (db_step(db, st, 0) == DB_ROW) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			ids = xreallocarray(ids, cap, sizeof *ids);
		}
		ids[(*n)++] = db_column_int(st, 0);
	}
	db_finalize(st);
	return ids;
}

struct journal_open *
journal_open_list(struct db *db, const struct journal_kind *k,
    const char *gm, size_t *n)
{
	struct db_stmt *st = db_prepare(db, k->sql_open);
	struct journal_open *v = NULL;
	size_t cap = 0;

	*n = 0;
	db_bind_text_copy(st, 1, gm);
	while (db_step(db, st, 0) == DB_ROW) {
		struct journal_open *x;

		if (*n == cap) {
			cap = cap ? 2 * cap : 8;
			v = xreallocarray(v, cap, sizeof *v);
		}
		x = &v[(*n)++];
		x->log = db_column_int(st, 0);
		x->mine = db_column_type(st, 1) == DB_NULL ? 0 :
		    db_column_int(st, 1);
		x->gm = db_column_dup(st, 2);
		x->round = db_column_int(st, 3);
		x->action = db_column_dup(st, 4);
		x->actor = db_column_dup(st, 5);
		x->sides = db_column_dup(st, 6);
	}
	db_finalize(st);
	return v;
}

void
journal_open_free(struct journal_open *o, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(o[i].gm);
		free(o[i].action);
		free(o[i].actor);
		free(o[i].sides);
	}
	free(o);
}

void
journal_open_print(struct db *db, const struct journal_kind *k,
    enum out_format fmt, const char *round)
{
	const char *cols[] = { k->what, "gm", round, "last", "sides" };
	struct journal_open *v;
	struct out *out;
	size_t n;

	v = journal_open_list(db, k, NULL, &n);
	out = out_new(stdout, fmt, OUT_ROWS, 5, cols);
	for (size_t i = 0; i < n; i++) {
		const char *key = db_key_str(db, v[i].log);
		char *last = NULL;

		if (key[strspn(key, "0123456789")] == '\0')
			out_int(out, strtol(key, NULL, 10));
		else
			out_text(out, key);
		out_text(out, v[i].gm);
		out_int(out, (long)v[i].round);
		if (v[i].action != NULL)
			last = v[i].actor ? xasprintf("%s %s", v[i].action,
			    v[i].actor) : xstrdup(v[i].action);
		out_text(out, last);
		out_text(out, v[i].sides);
		out_end_row(out);
		free(last);
	}
	out_free(out);
	journal_open_free(v, n);
}

int
journal_pin(const char *path, const struct journal_kind *k, const char *gm,
    char *key, size_t keysz)
{
	struct db *db = cli_db_open(path);
	char why[1000];
	int64_t id;

	db_begin_read(db);
	id = journal_pick(db, k, cli_gm(gm), 0, why, sizeof why);
	db_rollback(db);
	if (id != 0)
		snprintf(key, keysz, "%s", cli_key(id));
	db_close(db);
	return id != 0 ? 0 : -1;
}

char *
journal_gm(struct db *db, const struct journal_kind *k, int64_t id)
{
	struct db_stmt *st = db_prepare(db, k->sql_gm);
	char *gm = NULL;

	db_bind_int(st, 1, id);
	if (db_step(db, st, 0) == DB_ROW)
		gm = db_column_dup(st, 0);
	db_finalize(st);
	return gm;
}

/* The statements journal_pick_ahead and journal_target_ahead send. */
enum ahead { AHEAD_PICK, AHEAD_PICK_READING, AHEAD_TARGET, AHEAD_N };

/*
 * k's statement ahead, made once a kind.  A pick: of k->sql_open's
 * logs, this station's own with an act of GM ?1's, the one of the
 * latest act (on a tie, the later in the list, as journal_pick); for a
 * command that only reads, else the log of GM ?1's newest act; its key
 * set as refkit.pick for the transaction ('' for none) and returned.  A
 * target: log ?1's newest live event (k->sql_target) set as
 * refkit.before, or the largest bigint when there is none.
 */
static const char *
ahead_sql(const struct journal_kind *k, enum ahead which)
{
	static struct {
		const struct journal_kind	*k;
		char				*sql[AHEAD_N];
	} made[8];

	for (size_t i = 0; i < sizeof made / sizeof *made; i++) {
		if (made[i].k == NULL) {
			made[i].k = k;
			for (int r = 0; r < 2; r++)
				made[i].sql[r] = xasprintf("SELECT set_config("
				    "'refkit.pick', coalesce((SELECT"
				    " o.log::text FROM (SELECT q.*, row_number()"
				    " OVER () AS refkit_n FROM (%s) AS q) AS"
				    " o(log, mine) WHERE o.mine > 0 AND o.log"
				    " BETWEEN refkit_key_lo() AND refkit_key_hi()"
				    " ORDER BY o.mine DESC, o.refkit_n DESC LIMIT"
				    " 1)%s%s%s, ''), true)", k->sql_open, r ?
				    ", (" : "", !r ? "" : k->sql_last_mine ?
				    k->sql_last_mine : "SELECT NULL", r ?
				    ")::text" : "");
			made[i].sql[AHEAD_TARGET] = xasprintf("SELECT"
			    " set_config('refkit.before', coalesce(nullif((%s),"
			    " 0), 9223372036854775807)::text, true)",
			    k->sql_target);
		}
		if (made[i].k == k)
			return made[i].sql[which];
	}
	errx(1, "refkit bug: more kinds of log than ahead_sql keeps");
}

int64_t
journal_pick_ahead(struct db *db, const struct journal_kind *k,
    const char *gm, int reading)
{
	struct db_stmt *st;

	if (!db_on_server(db) || k->sql_open == NULL ||
	    (reading && k->sql_last_mine == NULL))
		return 0;
	st = db_prepare(db, ahead_sql(k, reading ? AHEAD_PICK_READING :
	    AHEAD_PICK));
	db_bind_text_copy(st, 1, gm);
	db_ask(db, st);
	db_asked_keep(db, "pick", DB_PICKED, st);
	return DB_PICKED;
}

/*
 * The log of kind k picked ahead, once its answer is in, or 0 for none:
 * its lock and the questions asked ahead for it are made its.
 */
static int64_t
picked(struct db *db, const struct journal_kind *k)
{
	struct db_stmt *st = db_asked_take(db, "pick", DB_PICKED);
	const char *v;
	int64_t id = 0;

	if (st == NULL)
		errx(1, "refkit bug: a log picked ahead, and no pick asked");
	if (db_step(db, st, 0) == DB_ROW && (v = db_column_text(st, 0)) !=
	    NULL && *v != '\0')
		id = strtoll(v, NULL, 10);
	db_finalize(st);
	db_log_picked(db, k->what, id);
	db_asked_retag(db, DB_PICKED, id);
	return id;
}

/* Appends s to b (of size bsz, holding a string), cut to fit. */
static void
say_more(char *b, size_t bsz, const char *s)
{
	size_t len = strlen(b);

	if (len + 1 < bsz)
		snprintf(b + len, bsz - len, "%s", s);
}

int64_t
journal_pick(struct db *db, const struct journal_kind *k, const char *gm,
    int reading, char *why, size_t whysz)
{
	struct journal_open *v;
	int64_t id = 0, best = 0;
	size_t n, shown = 0;

	v = journal_open_list(db, k, gm, &n);
	for (size_t i = 0; i < n; i++)
		/* On a tie (a game's acts, to the second), the newer. */
		if (v[i].mine > 0 && v[i].mine >= best &&
		    db_key_own(db, v[i].log)) {
			best = v[i].mine;
			id = v[i].log;
		}
	if (id == 0 && reading) {
		struct db_stmt *st = db_prepare(db, k->sql_last_mine);

		db_bind_text_copy(st, 1, gm);
		if (db_step(db, st, 0) == DB_ROW)
			id = db_column_int(st, 0);
		db_finalize(st);
	}
	if (id != 0) {
		journal_open_free(v, n);
		return id;
	}
	/* One line: who asked, then every open log, as many as fit. */
	snprintf(why, whysz, "GM '%s' has no %s%s", util_q(gm), k->what,
	    reading ? "" : " under way");
	if (!reading) {
		struct db_stmt *st = db_prepare(db, k->sql_last_mine);

		db_bind_text_copy(st, 1, gm);
		if (db_step(db, st, 0) == DB_ROW) {
			char one[120];

			snprintf(one, sizeof one, " (%s %s, the last one "
			    "acted in, is over)", k->what,
			    db_key_str(db, db_column_int(st, 0)));
			say_more(why, whysz, one);
		}
		db_finalize(st);
	}
	for (size_t i = 0; i < n; i++) {
		char one[400];

		snprintf(one, sizeof one, "%s %s (%s; GM %s)", k->what,
		    db_key_str(db, v[i].log), v[i].sides ? v[i].sides : "-",
		    v[i].gm ? util_q(v[i].gm) : "unknown");
		if (strlen(why) + strlen(one) + 80 >= whysz)
			break;
		say_more(why, whysz, shown ? ", " : "; open: ");
		say_more(why, whysz, one);
		shown++;
	}
	if (shown < n) {
		char more[40];

		snprintf(more, sizeof more, " and %zu more", n - shown);
		say_more(why, whysz, more);
	}
	if (n == 0)
		say_more(why, whysz, "; none is open");
	say_more(why, whysz, " (give ");
	say_more(why, whysz, k->option);
	say_more(why, whysz, " N, or start one)");
	journal_open_free(v, n);
	return 0;
}

void
journal_summaries(struct db *db, const char *sql, const char *name,
    void (*fn)(void *, const struct journal_summary *), void *arg)
{
	struct db_stmt *st = db_prepare(db, sql);

	db_bind_text_copy(st, 1, name);
	while (db_step(db, st, 0) == DB_ROW) {
		struct journal_summary s = {
			.id = db_column_int(st, 0),
			.a = db_column_text(st, 1),
			.b = db_column_text(st, 2),
			.board = db_column_text(st, 3),
			.count = db_column_int(st, 4),
			.ended = db_column_text(st, 5),
			.winner = db_column_text(st, 6),
		};

		fn(arg, &s);
	}
	db_finalize(st);
}

/* Reads log id's row through k->head; 0 if there is none. */
static int
read_head(struct db *db, const struct journal_kind *k, int64_t id,
    void *ctx)
{
	struct db_stmt *st = db_prepare(db, k->sql_head);
	int found;

	db_bind_int(st, 1, id);
	found = db_step(db, st, 0) == DB_ROW;
	if (found && k->head != NULL)
		k->head(ctx, st);
	db_finalize(st);
	return found;
}

/* Makes room for one more event. */
static void
grow(struct journal *j, size_t *cap)
{
	if (j->n < *cap)
		return;
	*cap = *cap ? 2 * *cap : 32;
	j->body = xreallocarray(j->body, *cap, j->kind->size);
	j->seq = xreallocarray(j->seq, *cap, sizeof *j->seq);
	j->undoes = xreallocarray(j->undoes, *cap, sizeof *j->undoes);
	j->undone = xreallocarray(j->undone, *cap, sizeof *j->undone);
}

/*
 * Marks what the undos reverse.  An undo names an earlier seq; an undo
 * is never itself undone, whatever a damaged row says.
 */
static void
mark_undone(struct journal *j)
{
	for (size_t i = 0; i < j->n; i++)
		j->undone[i] = 0;
	for (size_t i = 0; i < j->n; i++) {
		if (j->undoes[i] == 0)
			continue;
		for (size_t t = 0; t < i; t++)
			if (j->seq[t] == j->undoes[i] && j->undoes[t] == 0)
				j->undone[t] = 1;
	}
}

/* Reads the events st finds into j (freeing st). */
static void
events_take(struct db *db, const struct journal_kind *k, struct db_stmt *st,
    void *ctx, struct journal *j)
{
	size_t cap = 0;

	while (db_step(db, st, 0) == DB_ROW) {
		grow(j, &cap);
		j->seq[j->n] = db_column_int(st, 0);
		j->undoes[j->n] = db_column_int(st, 1);
		k->read(ctx, st, 2, j->seq[j->n], j->undoes[j->n],
		    journal_body(j, j->n));
		j->n++;
	}
	db_finalize(st);
	mark_undone(j);
}

/* The most columns an event table's insert names. */
#define JOURNAL_MAX_COLS	64

/*
 * A server's writer hashes its event before the insert (db/chain.h,
 * chain_prehash), which then goes with the transaction's other writes:
 * asked with the log, under the lock of new keys taken now (the order
 * every writer takes its locks in: its log's, then the keys'), the next
 * free key of the event table, and its columns once a connection.
 */
static void
prehash_ask(struct db *db, const struct journal_kind *k, int64_t id)
{
	struct db_stmt *st;

	if (!db_on_server(db) || k->sql_insert_hashed == NULL)
		return;
	db_lock_keys(db);
	if (db->columns_of != k->sql_columns) {
		st = db_prepare(db, k->sql_columns);
		db_ask(db, st);
		db_asked_keep(db, "columns", id, st);
	}
	st = db_prepare(db, k->sql_new_key);
	db_ask(db, st);
	db_asked_keep(db, "new key", id, st);
}

/*
 * The event table's next free key and columns for an append to log id
 * hashed ahead, into *key: 1, or 0 where they were not asked.
 */
static int
prehash_ready(struct db *db, const struct journal_kind *k, int64_t id,
    int64_t *key)
{
	struct db_stmt *st;

	if ((st = db_asked_take(db, "columns", id)) != NULL) {
		(void)db_step(db, st, 0);
		chain_columns_free(db->columns);
		db->columns = chain_columns_of(st);
		db->columns_of = k->sql_columns;
		db_finalize(st);
	}
	if ((st = db_asked_take(db, "new key", id)) != NULL) {
		if (db_step(db, st, 0) == DB_ROW) {
			db->next_key.tx_no = db->tx_no;
			db->next_key.kind = k;
			db->next_key.next = db_column_int(st, 0);
		}
		db_finalize(st);
	}
	if (db->next_key.tx_no != db->tx_no || db->next_key.kind != k ||
	    db->columns_of != k->sql_columns)
		return 0;
	*key = db->next_key.next;
	return 1;
}

/* Binds an event's insert: ?1 the log, ?2 its seq, ?3 undoes, the body. */
static void
insert_bind(struct db_stmt *st, const struct journal_kind *k, int64_t id,
    int64_t seq, int64_t undoes, const void *body)
{
	db_bind_int(st, 1, id);
	db_bind_int(st, 2, seq);
	if (undoes > 0)
		db_bind_int(st, 3, undoes);
	k->bind(st, 4, body);
}

/*
 * Appends the event hashed ahead, if it can be (prehash_ready): 0, or -1
 * with nothing sent, for the insert that returns its row.
 */
static int
append_hashed(struct db *db, const struct journal_kind *k, int64_t id,
    int64_t seq, int64_t undoes, const void *body,
    const struct chain_head *head)
{
	const char *names[JOURNAL_MAX_COLS];
	char cols[1024], *p, *save = NULL;
	size_t len = strlen(k->insert_cols);
	unsigned char hash[CHAIN_HASH_LEN];
	char hex[CHAIN_HEX_LEN];
	struct db_stmt *st;
	int64_t key;
	int n = 0;

	if (!prehash_ready(db, k, id, &key))
		return -1;
	if (len >= sizeof cols)
		errx(1, "journal: the %s insert's columns are too long",
		    k->what);
	memcpy(cols, k->insert_cols, len + 1);
	for (p = strtok_r(cols, ", ", &save); p != NULL;
	    p = strtok_r(NULL, ", ", &save)) {
		if (n == JOURNAL_MAX_COLS)
			errx(1, "journal: the %s insert has too many columns",
			    k->what);
		names[n++] = p;
	}
	if (n != k->ncols + 3)
		errx(1, "journal: the %s insert names %d columns, not %d",
		    k->what, n, k->ncols + 3);
	st = db_prepare(db, k->sql_insert_hashed);
	insert_bind(st, k, id, seq, undoes, body);
	if (chain_prehash(db, k->what, seq, key, db->columns, names, n, st,
	    head, hash) != 0) {
		/* The insert that returns its row takes that key itself. */
		db->next_key.kind = NULL;
		db_finalize(st);
		return -1;
	}
	chain_hex(hash, hex);
	db_bind_int(st, k->ncols + 4, key);
	db_bind_text(st, k->ncols + 5, hex);
	db_send(db, st);
	db_finalize(st);
	chain_head_set(db, k->what, id, seq, hash, head);
	db->next_key.next = key + 1;
	return 0;
}

/*
 * The log's next seq, known once it is loaded whole (after its snapshot)
 * under its lock: journal_next_seq need not ask the server again in this
 * transaction.
 */
static void
next_seq_known(struct db *db, const struct journal_kind *k,
    const struct journal *j)
{
	int64_t last = j->base;

	if (j->n > 0 && j->seq[j->n - 1] > last)
		last = j->seq[j->n - 1];
	db->next_seq.tx_no = db->tx_no;
	db->next_seq.kind = k;
	db->next_seq.log = j->log;
	db->next_seq.next = last + 1;
}

int
journal_load(struct db *db, const struct journal_kind *k, int64_t id,
    void *ctx, struct journal *j)
{
	struct db_stmt *ev;
	int found;

	memset(j, 0, sizeof *j);
	j->kind = k;
	db_lock_log(db, k->what, id);
	/* The row and the events asked together: one round trip. */
	ev = db_prepare(db, k->sql_load);
	db_bind_int(ev, 1, id);
	db_bind_int(ev, 2, 0);
	db_ask(db, ev);
	found = read_head(db, k, id, ctx);
	if (id == DB_PICKED && (id = picked(db, k)) == 0) {
		db_finalize(ev);
		return JOURNAL_NONE;
	}
	if (!found) {
		db_finalize(ev);
		return -1;
	}
	j->log = id;
	db_key_json(db, id, j->key_json);
	events_take(db, k, ev, ctx, j);
	next_seq_known(db, k, j);
	return 0;
}

/* How many events a snapshot comes after: k's, or $REFKIT_SNAPSHOT_EVERY. */
static int
snap_every(const struct journal_kind *k)
{
	const char *env = getenv("REFKIT_SNAPSHOT_EVERY");
	int n = k->snap_every;

	long v;

	/* A bad value is ignored rather than refused: it tunes a cache. */
	if (k->snap_every > 0 && env != NULL &&
	    util_parse_int(env, 0, 1000000, &v) == UTIL_INT_OK)
		n = (int)v;
	return n;
}

/* The question for log id's usable snapshots before seq before (0: any). */
static struct db_stmt *
snap_question(struct db *db, const struct journal_kind *k, int64_t id,
    int64_t before)
{
	struct db_stmt *st = db_prepare(db, k->sql_snap);

	db_bind_text(st, 1, k->what);
	db_bind_int(st, 2, id);
	db_bind_int(st, 3, k->snap_version);
	db_bind_int(st, 4, before > 0 || before == DB_PICKED_BEFORE ? before :
	    INT64_MAX);
	return st;
}

/* Takes the newest snapshot st finds into j (freeing st); 0 if none. */
static int
snap_take(struct db *db, struct db_stmt *st, struct journal *j)
{
	int found = db_step(db, st, 0) == DB_ROW;

	if (found) {
		const void *b = db_column_blob(st, 1);

		j->snaplen = (size_t)db_column_bytes(st, 1);
		j->snap = xmalloc(j->snaplen ? j->snaplen : 1);
		if (j->snaplen)
			memcpy(j->snap, b, j->snaplen);
		j->base = db_column_int(st, 0);
	}
	db_finalize(st);
	return found;
}

/*
 * Log id's events after the newest snapshot before seq before, read
 * with the snapshot: asked together, so that on a server the log's row,
 * its snapshot and its events come in one round trip (with what a
 * writer's append will read, k->ask).
 */
int
journal_load_recent(struct db *db, const struct journal_kind *k,
    int64_t id, int64_t before, void *ctx, struct journal *j)
{
	struct db_stmt *head, *snap = NULL, *ev = NULL;
	int found;

	memset(j, 0, sizeof *j);
	j->kind = k;
	db_lock_log(db, k->what, id);
	head = db_prepare(db, k->sql_head);
	db_bind_int(head, 1, id);
	db_ask(db, head);
	if (snap_every(k) > 0) {
		snap = snap_question(db, k, id, before);
		db_ask(db, snap);
		ev = db_prepare(db, k->sql_recent);
		db_bind_int(ev, 1, id);
		db_bind_text(ev, 2, k->what);
		db_bind_int(ev, 3, k->snap_version);
		db_bind_int(ev, 4, before > 0 || before == DB_PICKED_BEFORE ?
		    before : INT64_MAX);
	} else {
		ev = db_prepare(db, k->sql_load);
		db_bind_int(ev, 1, id);
		db_bind_int(ev, 2, 0);
	}
	db_ask(db, ev);
	/* All events after the snapshot come, whatever before is. */
	if (k->ask != NULL && db_in_write(db))
		k->ask(db, id);
	if (chain_kind_known(k->what) && db_in_write(db)) {
		chain_head_ask(db, k->what, id);
		prehash_ask(db, k, id);
	}
	found = db_step(db, head, 0) == DB_ROW;
	if (id == DB_PICKED && (id = picked(db, k)) == 0) {
		db_finalize(head);
		db_finalize(snap);
		db_finalize(ev);
		return JOURNAL_NONE;
	}
	if (found && k->head != NULL)
		k->head(ctx, head);
	db_finalize(head);
	if (!found) {
		db_finalize(snap);
		db_finalize(ev);
		return -1;
	}
	j->log = id;
	db_key_json(db, id, j->key_json);
	if (snap != NULL)
		snap_take(db, snap, j);
	events_take(db, k, ev, ctx, j);
	next_seq_known(db, k, j);
	return 0;
}

int64_t
journal_target_ahead(struct db *db, const struct journal_kind *k,
    int64_t id)
{
	struct db_stmt *st;

	if (!db_on_server(db))
		return 0;
	db_lock_log(db, k->what, id);
	st = db_prepare(db, ahead_sql(k, AHEAD_TARGET));
	db_bind_int(st, 1, id);
	db_send(db, st);
	db_finalize(st);
	return DB_PICKED_BEFORE;
}

int64_t
journal_undo_target(struct db *db, const struct journal_kind *k, int64_t id)
{
	struct db_stmt *st;
	int64_t seq = 0;

	db_lock_log(db, k->what, id);
	st = db_prepare(db, k->sql_target);

	db_bind_int(st, 1, id);
	if (db_step(db, st, 0) == DB_ROW)
		seq = db_column_int(st, 0);
	db_finalize(st);
	return seq;
}

void
journal_release(struct journal *j)
{
	if (j->kind != NULL)
		for (size_t i = 0; i < j->n; i++)
			j->kind->release(journal_body(j, i));
	free(j->body);
	free(j->seq);
	free(j->undoes);
	free(j->undone);
	free(j->snap);
	memset(j, 0, sizeof *j);
}

void *
journal_body(const struct journal *j, size_t i)
{
	return (char *)j->body + i * j->kind->size;
}

int64_t
journal_next_seq(struct db *db, const struct journal_kind *k, int64_t id)
{
	struct db_stmt *st;
	int64_t seq;

	db_lock_keys(db);
	if (db->next_seq.tx_no == db->tx_no && db->next_seq.kind == k &&
	    db->next_seq.log == id)
		return db->next_seq.next;
	st = db_prepare(db, k->sql_next);
	db_bind_int(st, 1, id);
	db_step(db, st, 0);
	seq = db_column_int(st, 0);
	db_finalize(st);
	return seq;
}

char **
journal_texts(struct db *db, const char *sql, const struct journal *j)
{
	struct db_stmt *st;
	char **t = xcalloc(j->n + 1, sizeof *t);
	size_t i = 0;

	st = db_prepare(db, sql);
	db_bind_int(st, 1, j->log);
	while (db_step(db, st, 0) == DB_ROW) {
		int64_t seq = db_column_int(st, 0);

		/* Both in seq order: a merge walk. */
		while (i < j->n && j->seq[i] < seq)
			i++;
		if (i < j->n && j->seq[i] == seq &&
		    db_column_type(st, 1) != DB_NULL)
			t[i] = db_column_dup(st, 1);
	}
	db_finalize(st);
	return t;
}

void
journal_texts_free(char **t, size_t n)
{
	for (size_t i = 0; t != NULL && i < n; i++)
		free(t[i]);
	free(t);
}

int64_t
journal_append(struct db *db, const struct journal_kind *k, int64_t id,
    int64_t undoes, const void *body)
{
	struct db_stmt *st;
	struct chain_head head;
	char key[DB_KEY_TEXT_MAX];
	int64_t seq;

	if (!db_key_own(db, id))
		db_die(db, "%s %s was started at another station, and only "
		    "that station adds to it (refkit(7))", k->what,
		    db_key_text(db, id, key));
	db_check_log(db, k->what, id);
	seq = journal_next_seq(db, k, id);
	if (chain_kind_known(k->what))
		chain_head_get(db, k->what, id, &head);

	if (chain_kind_known(k->what) &&
	    append_hashed(db, k, id, seq, undoes, body, &head) == 0)
		goto appended;
	st = db_prepare(db, k->sql_insert);
	if (db_bind_count(st) != k->ncols + 3)
		errx(1, "journal: the %s insert binds %d values, not %d",
		    k->what, db_bind_count(st), k->ncols + 3);
	insert_bind(st, k, id, seq, undoes, body);
	if (db_step(db, st, 0) != DB_ROW)
		db_die(db, "journal: the %s insert returned no row", k->what);
	/*
	 * Every kind of log in schema.sql is chained; a kind of the unit
	 * tests' own, with no hash column, is not.
	 */
	if (chain_kind_known(k->what))
		chain_append(db, k->what, id, seq, st, &head);
	else
		while (db_step(db, st, 0) == DB_ROW)
			;
	db_finalize(st);
appended:
	if (db->next_seq.tx_no == db->tx_no && db->next_seq.kind == k &&
	    db->next_seq.log == id)
		db->next_seq.next = seq + 1;
	/* The snapshots from the undone event on no longer hold. */
	if (undoes > 0) {
		st = db_prepare(db, "DELETE FROM snapshot WHERE kind = ?1"
		    " AND log = ?2 AND seq >= ?3");
		db_bind_text(st, 1, k->what);
		db_bind_int(st, 2, id);
		db_bind_int(st, 3, undoes);
		db_send(db, st);
		db_finalize(st);
	}
	return seq;
}

int
journal_snapshot_due(const struct journal_kind *k, int64_t seq)
{
	int every = snap_every(k);

	return every > 0 && seq > 0 && seq % every == 0;
}

void
journal_snapshot_put(struct db *db, const struct journal_kind *k,
    int64_t id, int64_t seq, const void *state, size_t len)
{
	struct db_stmt *st = db_prepare(db, "DELETE FROM snapshot"
	    " WHERE kind = ?1 AND log = ?2 AND version <> ?3");

	/* One version per log: a rules change leaves no dead rows. */
	db_bind_text(st, 1, k->what);
	db_bind_int(st, 2, id);
	db_bind_int(st, 3, k->snap_version);
	db_send(db, st);
	db_finalize(st);
	st = db_prepare(db, "INSERT INTO snapshot (kind, log, seq, version,"
	    " state) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (kind, log, seq)"
	    " DO UPDATE SET version = excluded.version,"
	    " state = excluded.state");
	db_bind_text(st, 1, k->what);
	db_bind_int(st, 2, id);
	db_bind_int(st, 3, seq);
	db_bind_int(st, 4, k->snap_version);
	db_bind_blob(st, 5, state, (int)len);
	db_send(db, st);
	db_finalize(st);
}

struct db_stmt *
journal_snapshots_ask(struct db *db, const struct journal_kind *k, int64_t id)
{
	struct db_stmt *st = snap_question(db, k, id, 0);

	db_ask(db, st);
	return st;
}

struct journal_snapshot *
journal_snapshots(struct db *db, const struct journal_kind *k, int64_t id,
    size_t *n)
{
	return journal_snapshots_take(db, snap_question(db, k, id, 0), n);
}

struct journal_snapshot *
journal_snapshots_take(struct db *db, struct db_stmt *st, size_t *n)
{
	struct journal_snapshot *v = NULL;
	size_t cap = 0;

	*n = 0;
	while (db_step(db, st, 0) == DB_ROW) {
		struct journal_snapshot *x;
		size_t len = (size_t)db_column_bytes(st, 1);

		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			v = xreallocarray(v, cap, sizeof *v);
		}
		x = &v[(*n)++];
		x->seq = db_column_int(st, 0);
		x->len = len;
		x->state = xmalloc(len ? len : 1);
		if (len)
			memcpy(x->state, db_column_blob(st, 1), len);
	}
	db_finalize(st);
	/* Newest first as selected: oldest first for a replay. */
	for (size_t i = 0; i < *n / 2; i++) {
		struct journal_snapshot t = v[i];

		v[i] = v[*n - 1 - i];
		v[*n - 1 - i] = t;
	}
	return v;
}

void
journal_snapshots_free(struct journal_snapshot *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i].state);
	free(s);
}

ptrdiff_t
journal_undoable(const struct journal *j)
{
	for (size_t i = j->n; i-- > 0;)
		if (!j->undone[i] && j->undoes[i] == 0)
			return (ptrdiff_t)i;
	return -1;
}

int
journal_derive(const struct journal *j,
    int (*step)(void *arg, const void *body, char *why, size_t whysz),
    void *arg, int64_t *bad, char *why, size_t whysz)
{
	return journal_derive_each(j, step, NULL, arg, bad, why, whysz);
}

int
journal_derive_each(const struct journal *j,
    int (*step)(void *arg, const void *body, char *why, size_t whysz),
    void (*before)(void *arg, size_t i), void *arg, int64_t *bad,
    char *why, size_t whysz)
{
	for (size_t i = 0; i < j->n; i++) {
		if (before != NULL)
			before(arg, i);
		if (j->undone[i] || j->undoes[i] != 0)
			continue;
		if (step(arg, journal_body(j, i), why, whysz) != 0) {
			*bad = j->seq[i];
			return -1;
		}
	}
	return 0;
}

/* ---- the walks of a kind with rules ---- */

void
journal_snapshot_after(struct db *db, const struct journal_rules *r,
    int64_t id, int64_t seq, const void *state)
{
	struct pack p = { 0 };

	if (!journal_snapshot_due(r->kind, seq))
		return;
	r->pack(state, &p);
	journal_snapshot_put(db, r->kind, id, seq, p.buf, p.len);
	free(p.buf);
}

int
journal_run_load(struct db *db, const struct journal_rules *r, int64_t id,
    struct journal_run *run)
{
	memset(run, 0, sizeof *run);
	run->lg = xcalloc(1, r->lsize);
	run->j = r->load(db, id, run->lg);
	if (run->j == NULL) {
		free(run->lg);
		run->lg = NULL;
		return -1;
	}
	run->r = r;
	run->state = xcalloc(1, r->size);
	if (r->start != NULL)
		r->start(run->state, run->lg);
	return 0;
}

void
journal_run_release(struct journal_run *run)
{
	if (run->lg != NULL)
		run->r->release(run->lg);
	free(run->lg);
	free(run->state);
	memset(run, 0, sizeof *run);
}

int64_t
journal_append_state(struct db *db, const struct journal_rules *r,
    int64_t id, const void *body, const void *state)
{
	int64_t seq = journal_append(db, r->kind, id, 0, body);

	journal_snapshot_after(db, r, id, seq, state);
	return seq;
}

/* An audit of one log: its replay, and the snapshots to compare. */
struct audit {
	const struct journal_rules	*r;
	const struct journal		*j;
	void				*state;
	size_t				 cur;	/* the event running */
	struct journal_snapshot		*snap;
	size_t				 nsnap, next;
	void				(*bad)(void *, int64_t, const char *);
	void				*arg;
	int				 nbad;
};

static void
audit_bad(struct audit *a, int64_t seq, const char *why)
{
	a->bad(a->arg, seq, why);
	a->nbad++;
}

/*
 * Compares the snapshots before seq upto (INT64_MAX: all the rest) with
 * the state the replay has reached, the state after each of them: no
 * event between them and upto has run yet.  last is the newest seq.
 */
static void
audit_snapshots(struct audit *a, int64_t upto, int64_t last)
{
	for (; a->next < a->nsnap && a->snap[a->next].seq < upto; a->next++) {
		const struct journal_snapshot *x = &a->snap[a->next];
		struct pack p = { 0 };
		int same;

		if (x->seq > last) {
			audit_bad(a, x->seq, "a snapshot after the last event");
			continue;
		}
		a->r->pack(a->state, &p);
		same = p.len == x->len && memcmp(p.buf, x->state, p.len) == 0;
		free(p.buf);
		if (!same)
			audit_bad(a, x->seq, "the snapshot of the state after "
			    "it disagrees with the replay");
	}
}

static void
audit_before(void *arg, size_t i)
{
	struct audit *a = arg;

	a->cur = i;
	audit_snapshots(a, a->j->seq[i], INT64_MAX);
}

/* Runs one event again; with go_on, one that fails is reported here. */
static int
audit_one(void *arg, const void *body, char *why, size_t whysz)
{
	struct audit *a = arg;
	char *m;

	if (a->r->step(a->state, body, why, whysz) == 0)
		return 0;
	if (!a->r->go_on)
		return -1;
	m = xasprintf("does not replay: %s", why);
	audit_bad(a, a->j->seq[a->cur], m);
	free(m);
	return 0;
}

int
journal_audit(struct db *db, const struct journal_rules *r,
    const struct journal *j, void *state,
    void (*bad)(void *arg, int64_t seq, const char *why), void *arg)
{
	struct audit a = { .r = r, .j = j, .state = state, .bad = bad,
	    .arg = arg };
	char *why = xmalloc(r->whysz), *m;
	int64_t seq;

	a.snap = journal_snapshots(db, r->kind, j->log, &a.nsnap);
	if (journal_derive_each(j, audit_one, audit_before, &a, &seq, why,
	    r->whysz) != 0) {
		m = xasprintf("does not replay: %s", why);
		audit_bad(&a, seq, m);
		free(m);
	} else
		audit_snapshots(&a, INT64_MAX, j->n ? j->seq[j->n - 1] : 0);
	journal_snapshots_free(a.snap, a.nsnap);
	free(why);
	return a.nbad;
}

int
journal_audit_log(struct db *db, const struct journal_rules *r, int64_t id,
    void (*bad)(void *arg, int64_t seq, const char *why), void *arg,
    int *events)
{
	struct journal_run run;
	int n;

	if (journal_run_load(db, r, id, &run) != 0)
		return -1;
	if (events != NULL)
		*events += (int)run.j->n;
	n = journal_audit(db, r, run.j, run.state, bad, arg);
	journal_run_release(&run);
	return n;
}

/* ---- input logs ---- */

void
journal_event_read(void *ctx, struct db_stmt *st, int col, int64_t seq,
    int64_t undoes, void *body)
{
	struct journal_event *e = body;

	(void)ctx;
	e->seq = seq;
	e->undoes = undoes;
	e->round = db_column_int(st, col);
	e->action = db_column_dup(st, col + 1);
	e->actor = db_column_dup(st, col + 2);
	e->input = db_column_dup(st, col + 3);
	e->outcome = db_column_dup(st, col + 4);
	e->ended = db_column_dup(st, col + 5);
	e->winner = db_column_dup(st, col + 6);
	e->seed = db_column_dup(st, col + 7);
	e->detail = xstrdup(db_column_json(st, col + 8));
	e->time = db_column_int(st, col + 9);
	e->gm = db_column_dup(st, col + 10);
	e->ruling = db_column_dup(st, col + 11);
	e->adjust = db_column_dup(st, col + 12);
	if (e->adjust != NULL) {
		free(e->action);
		e->action = xstrdup("adjust");
	}
}

void
journal_event_bind(struct db_stmt *st, int param, const void *body)
{
	const struct journal_event *e = body;

	db_bind_int(st, param, e->round);
	db_bind_text_copy(st, param + 1, e->action);
	db_bind_text_copy(st, param + 2, e->actor);
	db_bind_text_copy(st, param + 3, e->input);
	db_bind_text_copy(st, param + 4, e->outcome);
	db_bind_text_copy(st, param + 5, e->ended);
	db_bind_text_copy(st, param + 6, e->winner);
	db_bind_text_copy(st, param + 7, e->seed);
	db_bind_text_copy(st, param + 8, e->detail);
	db_bind_int(st, param + 9, e->time);
	db_bind_text_copy(st, param + 10, e->gm);
}

void
journal_event_release(void *body)
{
	struct journal_event *e = body;

	free(e->action);
	free(e->actor);
	free(e->input);
	free(e->outcome);
	free(e->ended);
	free(e->winner);
	free(e->seed);
	free(e->detail);
	free(e->gm);
	free(e->ruling);
	free(e->adjust);
	memset(e, 0, sizeof *e);
}

int
journal_event_recheck(const struct journal_event *e, const char *now,
    const char *said, char *why, size_t whysz)
{
	if (e->outcome != NULL && strcmp(e->outcome, now) == 0)
		return 0;
	return util_say(why, whysz, "the %s again, not the recorded '%s'",
	    said, e->outcome ? e->outcome : "-");
}

int64_t
journal_event_undo(struct db *db, const struct journal *j, size_t i,
    int64_t now, const char *gm)
{
	const struct journal_event *t = journal_body(j, i);
	struct journal_event u;
	char *detail = xasprintf("{\"action\":\"undo\",\"undoes\":%" PRId64
	    "}", t->seq);
	int64_t seq;

	memset(&u, 0, sizeof u);
	u.round = t->round;
	u.action = "undo";
	u.input = "";
	u.detail = detail;
	u.time = now;
	u.gm = (char *)gm;
	seq = journal_append(db, j->kind, j->log, t->seq, &u);
	free(detail);
	return seq;
}

/* Whether input gives one of k's options that carry dice. */
static int
typed_dice(const struct journal_kind *k, const char *input)
{
	for (const char *const *d = k->dice; d && *d && input; d++)
		for (const char *p = strstr(input, *d); p != NULL;
		    p = strstr(p + 1, *d)) {
			size_t n = strlen(*d);

			if ((p == input || p[-1] == ' ') && (p[n] == ' ' ||
			    p[n] == '='))
				return 1;
		}
	return 0;
}

void
journal_event_line(FILE *fp, const struct journal *j, size_t i,
    char round_mark, int width)
{
	const struct journal_event *e = journal_body(j, i);

	fprintf(fp, "%3" PRId64 "  %c%-3d %-*s ", e->seq, round_mark,
	    e->round, width, e->action);
	if (e->undoes != 0)
		fprintf(fp, "undoes %" PRId64, e->undoes);
	else
		cli_fput_detail_text(e->detail, fp);
	/*
	 * A die refkit rolled; else dice the GM typed in, rolled at the
	 * table: physical.
	 */
	if (e->seed != NULL)
		fputs(" [rolled by refkit]", fp);
	else if (typed_dice(j->kind, e->input))
		fputs(" [physical]", fp);
	ruling_mark(fp, e->ruling);
	fputs(j->undone[i] ? "  [undone]" : "", fp);
}

/* The actors of j's events, each once, in names[max]; how many. */
static size_t
actors(const struct journal *j, const char **names, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < j->n && n < max; i++) {
		const struct journal_event *e = journal_body(j, i);
		const char *a = e->actor;
		size_t k = 0;

		while (a != NULL && k < n && strcmp(names[k], a) != 0)
			k++;
		if (a != NULL && k == n)
			names[n++] = a;
	}
	return n;
}

char *
journal_event_fit(const struct journal *j, size_t i, char round_mark,
    int width, int cols, const char *ellipsis)
{
	const struct journal_event *e = journal_body(j, i);
	struct strbuf body = STRBUF_INIT;
	const char *names[64];
	char *head = xasprintf("%3" PRId64 "  %c%-3d %-*s ", e->seq,
	    round_mark, e->round, width, e->action);
	char *brief = xasprintf("%3" PRId64 " %s ", e->seq, e->action);
	char *text, *line, *mark = ruling_mark_text(e->ruling);
	const char *note = e->seed != NULL ? " [rolled by refkit]" :
	    typed_dice(j->kind, e->input) ? " [physical]" : "";
	struct fit_part p[5] = {
		{ head, brief, 1, 0, NULL, 0 }, { NULL, NULL, 0, 1, NULL, 0 },
		{ note, "", 0, 0, NULL, 0 },
		{ mark, *mark ? RULING_MARK_BRIEF : NULL, 0, 0, NULL, 0 },
		{ j->undone[i] ? "  [undone]" : "", NULL, 0, 0, NULL, 0 },
	};

	if (e->undoes != 0)
		strbuf_addf(&body, "undoes %" PRId64, e->undoes);
	else
		cli_fput_detail_text(e->detail, strbuf_stream(&body));
	p[1].text = text = strbuf_detach(&body, NULL);
	line = fit_line(p, 5, cols, names, actors(j, names, 64), ellipsis);
	free(mark);
	free(head);
	free(brief);
	free(text);
	return line;
}

void
journal_event_print(const struct journal *j, int json,
    const char *round_key, char round_mark, int width)
{
	if (json)
		printf("{\"%s\":%s,\"events\":[", j->kind->what,
		    j->key_json);
	for (size_t i = 0; i < j->n; i++) {
		const struct journal_event *e = journal_body(j, i);

		if (json) {
			printf("%s{\"seq\":%" PRId64 ",\"%s\":%d,"
			    "\"action\":\"%s\",\"actor\":", i ? "," : "",
			    e->seq, round_key, e->round, e->action);
			cli_json_or_null(stdout, e->actor);
			fputs(",\"input\":", stdout);
			cli_json_or_null(stdout, e->input);
			fputs(",\"seed\":", stdout);
			cli_json_or_null(stdout, e->seed);
			fputs(",\"gm\":", stdout);
			cli_json_or_null(stdout, e->gm);
			if (e->ruling != NULL) {
				fputs(",\"ruling\":", stdout);
				out_json_string(stdout, e->ruling);
			}
			printf(",\"undone\":%s,\"detail\":%s}",
			    j->undone[i] ? "true" : "false", e->detail);
			continue;
		}
		journal_event_line(stdout, j, i, round_mark, width);
		putchar('\n');
	}
	if (json)
		fputs("]}\n", stdout);
}

void
journal_bad_ran(void *b, int64_t seq, const char *why)
{
	const struct journal_bad *jb = b;

	jb->bad(jb->arg, seq, 1, why);
}

int64_t
journal_log_id(struct db *db, const struct journal_kind *k,
    const char *typed, const char *gm, int reading)
{
	char why[600] = "";
	int64_t id = typed ? db_key_parse(db, typed) :
	    journal_pick(db, k, cli_gm(gm), reading, why, sizeof why);

	if (id == 0)
		db_die(db, "%s", why);
	return id;
}

void
journal_list_path(const char *path, const struct journal_kind *k,
    enum out_format fmt, const char *round)
{
	struct db *db = cli_db_open(path);

	db_begin_read(db);
	journal_open_print(db, k, fmt, round);
	db_rollback(db);
	db_close(db);
}
