/*
 * chain.c - hash chains over the ledgers: see chain.h.
 */
#include "db/chain.h"

#include "base/util.h"

#include <err.h>
#include <inttypes.h>
#include <nettle/sha2.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the hash of every event starts with: the chain's form, 1. */
static const char chain_prefix[] = "refkit chain 1";

/* 2^31: a D6 roll's key is its station's tag times this plus its seq. */
#define ROLL_TAG	INT64_C(2147483648)

/*
 * The logs of an event table's col, each found by a seek on the index
 * of (col, seq) from the one before, where "SELECT col FROM t" read
 * every event's entry (a million of them for ten logs).
 */
#define LOGS_OF(t, col) \
	"WITH RECURSIVE l(x) AS (SELECT min(" col ") FROM " t " UNION ALL" \
	" SELECT (SELECT min(" col ") FROM " t " WHERE " col " > l.x)" \
	" FROM l WHERE l.x IS NOT NULL)"

/*
 * Each kind's statements.  rows: the log's events in order, every
 * column (SELECT *); update: an event's hash; logs: the logs that have
 * events or a row of their own; log: 1 if log ?1 has its row.
 */
static const struct kind {
	const char	*name;
	const char	*rows;
	const char	*update;
	const char	*logs;
	const char	*log;
	int		 rolls;
} kinds[] = {
	{ "combat",
	    "SELECT * FROM event WHERE combat_id = ?1 ORDER BY seq",
	    "UPDATE event SET hash = ?1 WHERE id = ?2",
	    LOGS_OF("event", "combat_id") " SELECT id FROM combat UNION"
	    " SELECT x FROM l WHERE x IS NOT NULL"
	    " UNION SELECT log FROM chain WHERE kind = 'combat' ORDER BY 1",
	    "SELECT count(*) FROM combat WHERE id = ?1", 0 },
	{ "duel",
	    "SELECT * FROM fb_event WHERE duel_id = ?1 ORDER BY seq",
	    "UPDATE fb_event SET hash = ?1 WHERE id = ?2",
	    LOGS_OF("fb_event", "duel_id") " SELECT id FROM fb_duel UNION"
	    " SELECT x FROM l WHERE x IS NOT NULL"
	    " UNION SELECT log FROM chain WHERE kind = 'duel' ORDER BY 1",
	    "SELECT count(*) FROM fb_duel WHERE id = ?1", 0 },
	{ "game",
	    "SELECT * FROM bg_event WHERE game_id = ?1 ORDER BY seq",
	    "UPDATE bg_event SET hash = ?1 WHERE id = ?2",
	    LOGS_OF("bg_event", "game_id") " SELECT id FROM bg_game UNION"
	    " SELECT x FROM l WHERE x IS NOT NULL"
	    " UNION SELECT log FROM chain WHERE kind = 'game' ORDER BY 1",
	    "SELECT count(*) FROM bg_game WHERE id = ?1", 0 },
	{ "rolls",
	    "SELECT * FROM d6_roll WHERE id >= ?1 * 2147483648"
	    " AND id < (?1 + 1) * 2147483648 ORDER BY id",
	    "UPDATE d6_roll SET hash = ?1 WHERE id = ?2",
	    "SELECT id / 2147483648 FROM d6_roll UNION SELECT log FROM chain"
	    " WHERE kind = 'rolls' ORDER BY 1",
	    NULL, 1 },
};
#define NKINDS	(sizeof kinds / sizeof *kinds)

static const struct kind *
kind_of(const char *name)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (strcmp(kinds[i].name, name) == 0)
			return &kinds[i];
	return NULL;
}

/* The kind of that name; a refkit bug if there is none. */
static const struct kind *
kind_need(const char *name)
{
	const struct kind *k = kind_of(name);

	if (k == NULL)
		errx(1, "the hash chain: no kind %s", util_q(name));
	return k;
}

int
chain_kind_known(const char *kind)
{
#ifdef REFKIT_BENCH_NO_CHAIN
	/* bench/chain.sh's build: logs appended to without their chain. */
	(void)kind;
	return 0;
#else
	return kind_of(kind) != NULL;
#endif
}

void
chain_hex(const unsigned char hash[CHAIN_HASH_LEN], char hex[CHAIN_HEX_LEN])
{
	sodium_bin2hex(hex, CHAIN_HEX_LEN, hash, CHAIN_HASH_LEN);
}

/*
 * Reads the 64 hex digits at hex (NUL-terminated or not) into hash; 0,
 * or -1 if they are not that.
 */
static int
unhex(const void *hex, unsigned char hash[CHAIN_HASH_LEN])
{
	const unsigned char *p = hex;

	if (p == NULL)
		return -1;
	for (int i = 0; i < CHAIN_HASH_LEN; i++) {
		int d[2];

		for (int j = 0; j < 2; j++) {
			int c = p[2 * i + j];

			if (c >= '0' && c <= '9')
				d[j] = c - '0';
			else if (c >= 'a' && c <= 'f')
				d[j] = c - 'a' + 10;
			else
				return -1;	/* a NUL ends it too */
		}
		hash[i] = (unsigned char)(d[0] << 4 | d[1]);
	}
	return 0;
}

/* A hash's 64 lowercase digits, without a NUL: to compare a stored one. */
static void
hex_of(const unsigned char hash[CHAIN_HASH_LEN], char hex[2 * CHAIN_HASH_LEN])
{
	static const char digit[] = "0123456789abcdef";

	for (int i = 0; i < CHAIN_HASH_LEN; i++) {
		hex[2 * i] = digit[hash[i] >> 4];
		hex[2 * i + 1] = digit[hash[i] & 0xf];
	}
}

/* ---- a row's bytes ---- */

/*
 * An event's row as chain.h encodes it, with what the chain needs of
 * it: its key, its seq, where the seq's 8 bytes are (to try it at
 * another seq), the hash it carries.
 */
struct row {
	unsigned char	*enc;
	size_t		 len, cap;
	size_t		 seq_at;	/* offset of seq's bytes, or SIZE_MAX */
	size_t		 seq_len;	/* and how many */
	int64_t		 id, seq;
	const void	*hex;		/* its hash's digits, until the next
					   step, or NULL */
	int		 has;		/* carries a well-formed hash */
	unsigned char	 stored[CHAIN_HASH_LEN];
	int		 placed;	/* verify: its place in the chain found */
};

/* Makes room in r for n more bytes. */
static void
grow(struct row *r, size_t n)
{
	r->cap = r->cap ? 2 * r->cap : 512;
	while (r->cap < r->len + n)
		r->cap *= 2;
	r->enc = xrealloc(r->enc, r->cap);
}

/* Called for every column of every row verify reads: kept inline. */
static inline void
put(struct row *r, const void *p, size_t n)
{
	if (n == 0)
		return;
	if (__builtin_expect(r->len + n > r->cap || r->enc == NULL, 0))
		grow(r, n);
	memcpy(r->enc + r->len, p, n);
	r->len += n;
}

static void
put_be(unsigned char *b, uint64_t v, int n)
{
	for (int i = n - 1; i >= 0; i--, v >>= 8)
		b[i] = (unsigned char)(v & 0xff);
}

/*
 * An integer as chain.h encodes it, into b (9 bytes): 0x10 plus the
 * number of bytes that follow, then its fewest two's complement bytes,
 * big-endian (none for 0).  Returns how many bytes in all.
 */
static int
int_encode(int64_t v, unsigned char b[9])
{
	/*
	 * The bits of v's magnitude, ~v's for a negative v, then one for
	 * the sign: n is the fewest bytes that hold them.
	 */
	uint64_t m = v < 0 ? ~(uint64_t)v : (uint64_t)v;
	int bits = m == 0 ? 0 : 64 - __builtin_clzll(m);
	int n = v == 0 ? 0 : (bits + 8) / 8;

	b[0] = (unsigned char)(0x10 + n);
	put_be(b + 1, (uint64_t)v, n);
	return 1 + n;
}

/*
 * Where a statement's columns are: those the chain reads by name, found
 * once for all its rows.
 */
struct layout {
	int		 n;
	int		 hash, id, seq;		/* -1: none */
};

/* Notes in l that column i, of that name, is one the chain reads. */
static void
layout_mark(struct layout *l, int i, const char *name)
{
	if (strcmp(name, "hash") == 0)
		l->hash = i;
	else if (strcmp(name, "id") == 0)
		l->id = i;
	else if (strcmp(name, "seq") == 0)
		l->seq = i;
}

static void
layout_of(struct db_stmt *st, struct layout *l)
{
	l->n = db_column_count(st);
	l->hash = l->id = l->seq = -1;
	for (int i = 0; i < l->n; i++)
		layout_mark(l, i, db_column_name(st, i));
}

/*
 * Reads st's current row (SELECT * of an event table, or RETURNING *),
 * whose columns l says, into r, encoded: every column but hash, and
 * but a NULL in a column after hash (chain.h).  The seq
 * is its column's, or for a roll its key's low 31 bits.  A text's bytes
 * are read as they are stored (a blob's read), whatever they hold.
 */
/*
 * Puts cell c, column i of a row whose columns l says, into r as
 * chain.h encodes it (hash is the caller's to skip): 0, or -1 for a
 * number with a fraction, which has no encoding.
 */
static int
cell_put(const struct layout *l, int i, const struct db_cell *c,
    struct row *r)
{
	unsigned char b[9];

	switch (c->type) {
	case DB_NULL:
		/*
		 * A column added after hash (the GM of a duel's or a game's
		 * event, schema 16) is left out while NULL, so that the
		 * rows chained before it was added keep their hashes.
		 */
		if (l->hash >= 0 && i > l->hash)
			break;
		b[0] = 0x00;
		put(r, b, 1);
		break;
	case DB_INTEGER: {
		int len;

		if (i == l->id)
			r->id = c->i;
		else if (i == l->seq) {
			r->seq = c->i;
			r->seq_at = r->len;
		}
		len = int_encode(c->i, b);
		if (i == l->seq)
			r->seq_len = (size_t)len;
		put(r, b, (size_t)len);
		break;
	}
	case DB_TEXT:
	case DB_BLOB:
		b[0] = c->type == DB_TEXT ? 0x03 : 0x04;
		put_be(b + 1, (uint64_t)c->len, 4);
		put(r, b, 5);
		if (c->len > 0)
			put(r, c->p, (size_t)c->len);
		break;
	default:
		return -1;
	}
	return 0;
}

static void __attribute__((noreturn))
fraction_die(struct db *db, const struct kind *k, const char *column)
{
	db_die(db, "the hash chain: column %s of a %s event holds a number "
	    "with a fraction", util_q(column), k->name);
}

static void
row_start(struct row *r)
{
	r->len = 0;
	r->seq_at = SIZE_MAX;
	r->hex = NULL;
	r->has = 0;
	r->id = r->seq = 0;
	r->placed = 0;
}

/*
 * Reads st's current row (SELECT * of an event table, or RETURNING *),
 * whose columns l says, into r, encoded: every column but hash, and
 * but a NULL in a column after hash (chain.h).  The seq
 * is its column's, or for a roll its key's low 31 bits.  A text's bytes
 * are read as they are stored (a blob's read), whatever they hold.
 */
static void
row_read(struct db *db, const struct kind *k, struct db_stmt *st,
    const struct layout *l, struct row *r)
{
	row_start(r);
	for (int i = 0; i < l->n; i++) {
		struct db_cell c;

		db_column_cell(st, i, &c);
		if (i == l->hash) {
			/* Read as digits here, decoded when needed. */
			r->hex = c.type == DB_TEXT &&
			    c.len == 2 * CHAIN_HASH_LEN ? c.p : NULL;
			continue;
		}
		if (cell_put(l, i, &c, r) != 0)
			fraction_die(db, k, db_column_name(st, i));
	}
	if (k->rolls)
		r->seq = r->id % ROLL_TAG;
}

/*
 * The hash of r's bytes after prev, with seq in place of its own (to
 * try an event at another place).
 */
static void
row_hash(const struct kind *k, const unsigned char prev[CHAIN_HASH_LEN],
    const struct row *r, int64_t seq, unsigned char out[CHAIN_HASH_LEN])
{
	struct sha256_ctx s;

	sha256_init(&s);
	sha256_update(&s, sizeof chain_prefix,
	    (const uint8_t *)chain_prefix);
	sha256_update(&s, strlen(k->name) + 1, (const uint8_t *)k->name);
	sha256_update(&s, CHAIN_HASH_LEN, prev);
	if (r->seq_at != SIZE_MAX && seq != r->seq) {
		unsigned char b[9];
		size_t after = r->seq_at + r->seq_len;

		sha256_update(&s, r->seq_at, r->enc);
		sha256_update(&s, (size_t)int_encode(seq, b), b);
		sha256_update(&s, r->len - after, r->enc + after);
	} else
		sha256_update(&s, r->len, r->enc);
	sha256_digest(&s, SHA256_DIGEST_SIZE, out);
}

/* ---- heads ---- */

static struct db_stmt *
head_question(struct db *db, const char *kind, int64_t log)
{
	struct db_stmt *st = db_prepare(db, "SELECT seq, hash, migrated"
	    " FROM chain WHERE kind = ?1 AND log = ?2");

	db_bind_text(st, 1, kind);
	db_bind_int(st, 2, log);
	return st;
}

void
chain_head_ask(struct db *db, const char *kind, int64_t log)
{
	struct db_stmt *st = head_question(db, kind, log);

	db_ask(db, st);
	db_asked_keep(db, kind, log, st);
}

/* Reads a head into *h by st (head_question's, bound), left reset. */
static void
head_read(struct db *db, struct db_stmt *st, struct chain_head *h)
{
	memset(h, 0, sizeof *h);
	if (db_step(db, st, 0) == DB_ROW &&
	    unhex(db_column_text(st, 1), h->hash) == 0) {
		h->have = 1;
		h->seq = db_column_int(st, 0);
		h->migrated = db_column_int(st, 2);
	}
	db_reset(st);
}

void
chain_head_get(struct db *db, const char *kind, int64_t log,
    struct chain_head *h)
{
	struct db_stmt *st;

	if ((st = db_asked_take(db, kind, log)) == NULL)
		st = head_question(db, kind, log);
	head_read(db, st, h);
	db_finalize(st);
}

/* Makes seq and hash the head of kind's log; migrated as chain.h says. */
static void
head_put(struct db *db, const char *kind, int64_t log, int64_t seq,
    const unsigned char hash[CHAIN_HASH_LEN], int64_t migrated)
{
	struct db_stmt *st;
	char hex[CHAIN_HEX_LEN];

	chain_hex(hash, hex);
	st = db_prepare(db, "INSERT INTO chain (kind, log, seq, hash,"
	    " migrated) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (kind, log)"
	    " DO UPDATE SET seq = excluded.seq, hash = excluded.hash,"
	    " migrated = coalesce(excluded.migrated, chain.migrated)");
	db_bind_text(st, 1, kind);
	db_bind_int(st, 2, log);
	db_bind_int(st, 3, seq);
	db_bind_text(st, 4, hex);
	if (migrated > 0)
		db_bind_int(st, 5, migrated);
	db_send(db, st);
	db_finalize(st);
}

/* Stores hash in event id of kind k. */
static void
row_put(struct db *db, const struct kind *k, int64_t id,
    const unsigned char hash[CHAIN_HASH_LEN])
{
	struct db_stmt *st;
	char hex[CHAIN_HEX_LEN];

	chain_hex(hash, hex);
	st = db_prepare(db, k->update);
	db_bind_text(st, 1, hex);
	db_bind_int(st, 2, id);
	db_send(db, st);
	db_finalize(st);
}

/*
 * "combat 3", "the D6 rolls of this station", for the warning of an
 * append, which is always to a log of this station's: its number is
 * the key's low bits (db/db.h).
 */
static void
log_name(const struct kind *k, int64_t log, char *buf, size_t sz)
{
	if (k->rolls)
		snprintf(buf, sz, "the D6 rolls of this station");
	else
		snprintf(buf, sz, "%s %" PRId64, k->name, log & DB_KEY_MAX_NO);
}

/*
 * Warns when h is not the head an append of event seq would follow
 * (chain.h, chain_append).
 */
static void
head_check(const struct kind *k, int64_t log, int64_t seq,
    const struct chain_head *h)
{
	if (h->have ? h->seq != seq - 1 : seq != 1) {
		char name[80];

		log_name(k, log, name, sizeof name);
		warnx("%s: its hash chain's head is at %s%" PRId64 ", not at "
		    "%" PRId64 ": an event was removed or added by another "
		    "program (refkit verify names it)", name,
		    h->have ? "event " : "", h->have ? h->seq : 0, seq - 1);
	}
}

void
chain_append(struct db *db, const char *kind, int64_t log, int64_t seq,
    struct db_stmt *st, const struct chain_head *h)
{
	static const unsigned char zero[CHAIN_HASH_LEN];
	const struct kind *k = kind_need(kind);
	struct layout l;
	struct row r = { 0 };
	unsigned char hash[CHAIN_HASH_LEN];

	layout_of(st, &l);
	row_read(db, k, st, &l, &r);
	/* The insert ends before its row is written to again. */
	while (db_step(db, st, 0) == DB_ROW)
		;

	head_check(k, log, seq, h);
	row_hash(k, h->have ? h->hash : zero, &r, seq, hash);
	row_put(db, k, r.id, hash);
	head_put(db, kind, log, seq, hash, 0);
	free(r.enc);
}

void
chain_columns_free(struct chain_columns *cols)
{
	if (cols == NULL)
		return;
	for (int i = 0; i < cols->n; i++)
		free(cols->name[i]);
	free(cols->name);
	free(cols->type);
	free(cols);
}

struct chain_columns *
chain_columns_of(struct db_stmt *st)
{
	struct chain_columns *cols = xcalloc(1, sizeof *cols);

	cols->n = db_column_count(st);
	cols->name = xcalloc((size_t)cols->n + 1, sizeof *cols->name);
	cols->type = xcalloc((size_t)cols->n + 1, sizeof *cols->type);
	for (int i = 0; i < cols->n; i++) {
		cols->name[i] = xstrdup(db_column_name(st, i));
		cols->type[i] = db_column_declared(st, i);
	}
	return cols;
}

int
chain_prehash(struct db *db, const char *kind, int64_t seq, int64_t id,
    const struct chain_columns *cols, const char *const *names, int n,
    struct db_stmt *ins, const struct chain_head *h,
    unsigned char hash[CHAIN_HASH_LEN])
{
	static const unsigned char zero[CHAIN_HASH_LEN];
	const struct kind *k = kind_need(kind);
	struct layout l = { cols->n, -1, -1, -1 };
	struct row r = { 0 };
	int ok = 1;

	if (k->rolls)
		return -1;
	for (int i = 0; i < cols->n; i++)
		layout_mark(&l, i, cols->name[i]);
	if (l.hash < 0 || l.id < 0 || l.seq < 0)
		return -1;
	row_start(&r);
	for (int i = 0; i < cols->n && ok; i++) {
		struct db_cell c;
		int j = 0;

		if (i == l.hash)
			continue;
		if (i == l.id) {
			memset(&c, 0, sizeof c);
			c.type = DB_INTEGER;
			c.i = id;
		} else {
			/*
			 * Its parameter, or none (a default the server
			 * gives); stored as bound, or converted: then not
			 * known here.
			 */
			while (j < n && strcmp(names[j], cols->name[i]) != 0)
				j++;
			ok = j < n && db_bound_cell(ins, j + 1, &c) == 0 &&
			    (c.type == DB_NULL || c.type == cols->type[i]);
		}
		if (ok && cell_put(&l, i, &c, &r) != 0)
			fraction_die(db, k, cols->name[i]);
	}
	if (ok && r.seq != seq)
		ok = 0;
	if (ok)
		row_hash(k, h->have ? h->hash : zero, &r, seq, hash);
	free(r.enc);
	return ok ? 0 : -1;
}

void
chain_head_set(struct db *db, const char *kind, int64_t log, int64_t seq,
    const unsigned char hash[CHAIN_HASH_LEN], const struct chain_head *h)
{
	head_check(kind_need(kind), log, seq, h);
	head_put(db, kind, log, seq, hash, 0);
}

/* ---- a whole log ---- */

/* The events of kind k's log, in order: *n rows to free with rows_free. */
static struct row *
rows_load(struct db *db, const struct kind *k, int64_t log, size_t *n)
{
	struct db_stmt *st;
	struct layout l = { 0, -1, -1, -1 };
	struct row *rows = NULL;
	size_t cap = 0;

	*n = 0;
	st = db_prepare(db, k->rows);
	db_bind_int(st, 1, log);
	while (db_step(db, st, 0) == DB_ROW) {
		if (*n == 0)
			layout_of(st, &l);
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			rows = xreallocarray(rows, cap, sizeof *rows);
		}
		memset(&rows[*n], 0, sizeof *rows);
		row_read(db, k, st, &l, &rows[*n]);
		rows[*n].has = unhex(rows[*n].hex, rows[*n].stored) == 0;
		rows[*n].hex = NULL;
		(*n)++;
	}
	db_finalize(st);
	return rows;
}

static void
rows_free(struct row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(rows[i].enc);
	free(rows);
}

int
chain_log(struct db *db, const char *kind, int64_t log)
{
	static const unsigned char zero[CHAIN_HASH_LEN];
	const struct kind *k = kind_of(kind);
	unsigned char prev[CHAIN_HASH_LEN];
	struct row *rows;
	size_t n;

	if (k == NULL)
		return -1;
	rows = rows_load(db, k, log, &n);
	memcpy(prev, zero, sizeof prev);
	for (size_t i = 0; i < n; i++) {
		row_hash(k, prev, &rows[i], rows[i].seq, prev);
		row_put(db, k, rows[i].id, prev);
	}
	if (n > 0)
		head_put(db, kind, log, rows[n - 1].seq, prev,
		    rows[n - 1].seq);
	rows_free(rows, n);
	return 0;
}

/* ---- verify ---- */

/* At most this many problems are named per log; the rest are counted. */
#define NAMED_MAX	20

struct verify {
	const struct kind *k;
	int64_t		 log;
	void		(*bad)(void *, const struct chain_problem *);
	void		*arg;
	int64_t		 problems;
};

static void
problem(struct verify *v, int64_t seq, int64_t seq2, const char *what)
{
	struct chain_problem p;

	if (++v->problems > NAMED_MAX)
		return;
	p.kind = v->k->name;
	p.log = v->log;
	p.seq = seq;
	p.seq2 = seq2;
	p.what = what;
	v->bad(v->arg, &p);
}

/* The same with "WHAT event N", what it says of event n. */
static void
problem_at(struct verify *v, int64_t seq, int64_t seq2, const char *what,
    int64_t n, const char *after)
{
	char buf[160];

	snprintf(buf, sizeof buf, "%s event %" PRId64 "%s", what, n, after);
	problem(v, seq, seq2, buf);
}

/* The row at seq, in rows sorted by seq, or NULL. */
static struct row *
row_at(struct row *rows, size_t n, int64_t seq)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rows[mid].seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && rows[lo].seq == seq ? &rows[lo] : NULL;
}

/*
 * Trying every row at a place whose own row does not fit costs a hash
 * each: a log damaged all over is not searched past this many.
 */
#define SEARCH_MAX	200000

/*
 * The common case, in one pass and bounded memory: 1 if kind k's log
 * holds, every event 1, 2 ... n carrying the hash computed over the one
 * before and itself, and the head at the last; with *n and *bytes what
 * it read.  0 at the first thing that does not hold, which chain_verify
 * then names.
 */
static int
verify_fast(struct db *db, struct db_stmt **stp, const struct kind *k,
    int64_t log, const struct chain_head *head, int64_t *n, int64_t *bytes)
{
	struct sha256_ctx base, s;
	unsigned char prev[CHAIN_HASH_LEN] = { 0 }, h[CHAIN_HASH_LEN];
	char hex[2 * CHAIN_HASH_LEN];
	struct layout l = { 0, -1, -1, -1 };
	struct row r = { 0 };
	struct db_stmt *st;
	size_t fixed = sizeof chain_prefix + strlen(k->name) + 1 +
	    CHAIN_HASH_LEN;
	int holds = 1;

	*n = *bytes = 0;
	sha256_init(&base);
	sha256_update(&base, sizeof chain_prefix,
	    (const uint8_t *)chain_prefix);
	sha256_update(&base, strlen(k->name) + 1, (const uint8_t *)k->name);
	if (*stp == NULL)
		*stp = db_prepare(db, k->rows);
	st = *stp;
	db_bind_int(st, 1, log);
	while (holds && db_step(db, st, 0) == DB_ROW) {
		if (*n == 0)
			layout_of(st, &l);
		row_read(db, k, st, &l, &r);
		if (r.hex == NULL || r.seq != *n + 1) {
			holds = 0;
			break;
		}
		s = base;
		sha256_update(&s, sizeof prev, prev);
		sha256_update(&s, r.len, r.enc);
		sha256_digest(&s, SHA256_DIGEST_SIZE, h);
		hex_of(h, hex);
		if (memcmp(hex, r.hex, 2 * CHAIN_HASH_LEN) != 0)
			holds = 0;
		memcpy(prev, h, sizeof prev);
		(*n)++;
		*bytes += (int64_t)(fixed + r.len);
	}
	db_reset(st);
	free(r.enc);
	if (holds)
		holds = head->have ? head->seq == *n &&
		    memcmp(head->hash, prev, sizeof prev) == 0 : *n == 0;
	return holds;
}

/*
 * chain_verify's walk over a log's places 1, 2 ... in order, each event
 * hashed onto the one found before it: prev is that one's hash (known
 * while every place so far was filled), filled the last place filled,
 * end the last place an event can have been removed from (the head's,
 * when there is one: places after it were never filled), gap the first
 * of the places empty since, after the first filled past the head.
 */
struct walk {
	struct verify		*v;
	const struct chain_head	*head;
	struct row		*rows;
	size_t			 n, searched;
	unsigned char		 prev[CHAIN_HASH_LEN];
	int64_t			 end, gap, filled, after;
	int			 known;
};

/*
 * The event at place seq: r, the row there, when its hash fits, else
 * one moved from another place whose hash fits here (named so), else
 * NULL.
 */
static struct row *
walk_find(struct walk *w, struct row *r, int64_t seq)
{
	const struct kind *k = w->v->k;
	unsigned char h[CHAIN_HASH_LEN];

	if (!w->known)
		return NULL;
	if (r != NULL && !r->placed && r->has) {
		row_hash(k, w->prev, r, seq, h);
		if (memcmp(h, r->stored, sizeof h) == 0)
			return r;
	}
	for (size_t i = 0; i < w->n && w->searched < SEARCH_MAX; i++) {
		struct row *q = &w->rows[i];

		if (q->placed || !q->has || q == r)
			continue;
		w->searched++;
		row_hash(k, w->prev, q, seq, h);
		if (memcmp(h, q->stored, sizeof h) == 0) {
			problem_at(w->v, q->seq, q->seq, "moved: it was "
			    "written as", seq, "");
			return q;
		}
	}
	return NULL;
}

/* Place seq holds r, which carries no hash: taken away, or added? */
static void
walk_unhashed(struct walk *w, struct row *r, int64_t seq)
{
	const struct kind *k = w->v->k;
	struct row *r2 = row_at(w->rows, w->n, seq + 1);
	unsigned char h[CHAIN_HASH_LEN], h2[CHAIN_HASH_LEN];
	int fits = 0;

	row_hash(k, w->prev, r, seq, h);
	if (w->known && r2 == NULL && w->head->have && w->head->seq == seq)
		fits = memcmp(h, w->head->hash, sizeof h) == 0;
	else if (w->known && r2 != NULL && r2->has) {
		row_hash(k, h, r2, seq + 1, h2);
		fits = memcmp(h2, r2->stored, sizeof h2) == 0;
	}
	if (!fits) {
		problem(w->v, seq, seq, "added by another program (it "
		    "carries no hash)");
		return;
	}
	problem(w->v, seq, seq, "its hash was removed (the event is as it "
	    "was written)");
	memcpy(w->prev, h, sizeof w->prev);
}

/* One place of the walk. */
static void
walk_place(struct walk *w, int64_t seq)
{
	struct row *r = row_at(w->rows, w->n, seq);
	struct row *q = walk_find(w, r, seq);

	if (q == NULL && (r == NULL || r->placed)) {
		/* Nothing here: the chain goes on unchecked. */
		if (w->gap == 0)
			w->gap = seq;
		w->known = 0;
		return;
	}
	if (w->gap > 0 && w->gap <= w->end)
		problem(w->v, w->gap, seq - 1 < w->end ? seq - 1 : w->end,
		    "removed");
	w->gap = 0;
	w->filled = seq;
	if (q == NULL && !r->has) {
		r->placed = 1;
		walk_unhashed(w, r, seq);
		return;
	}
	if (w->head->have && seq > w->head->seq && w->after == 0)
		w->after = seq;
	if (q == NULL && w->known)
		problem(w->v, seq, seq, "changed since it was written");
	if (q == NULL)
		q = r;
	q->placed = 1;
	memcpy(w->prev, q->stored, sizeof w->prev);
	w->known = 1;
}

/* What the walk's end and the head say. */
static void
walk_end(struct walk *w)
{
	const struct chain_head *head = w->head;

	if (w->gap > 0 && w->gap <= w->end) {
		if (head->have)
			problem_at(w->v, w->gap, w->end, "removed: the "
			    "chain's head is at", w->end, "");
		else
			problem(w->v, w->gap, w->end, "removed");
	}
	if (!head->have) {
		if (w->n > 0)
			problem(w->v, w->filled, w->filled, "its chain's "
			    "head is gone");
	} else if (w->after > 0)
		problem_at(w->v, w->after, w->filled, "added after the "
		    "chain's head (at", head->seq, ")");
	else if (head->seq == w->filled && w->known &&
	    memcmp(head->hash, w->prev, sizeof w->prev) != 0)
		problem(w->v, w->filled, w->filled, "does not match the "
		    "chain's head");
}

/*
 * A verifier's statements, prepared the first time a kind's log is
 * checked and kept for the next: with a statement prepared three times
 * a log, verify of 10,000 logs spent more time preparing than hashing.
 */
struct chain_verifier {
	struct db	*db;
	struct db_stmt	*head;
	struct db_stmt	*rows[NKINDS], *log[NKINDS];
};

struct chain_verifier *
chain_verifier_new(struct db *db)
{
	struct chain_verifier *cv = xcalloc(1, sizeof *cv);

	cv->db = db;
	return cv;
}

void
chain_verifier_free(struct chain_verifier *cv)
{
	if (cv == NULL)
		return;
	db_finalize(cv->head);
	for (size_t i = 0; i < NKINDS; i++) {
		db_finalize(cv->rows[i]);
		db_finalize(cv->log[i]);
	}
	free(cv);
}

/* Whether log has its row, for a kind whose logs have rows. */
static int
log_has_row(struct chain_verifier *cv, const struct kind *k, int64_t log)
{
	struct db_stmt **st = &cv->log[k - kinds];
	int has;

	if (k->log == NULL)
		return 1;
	if (*st == NULL)
		*st = db_prepare(cv->db, k->log);
	db_bind_int(*st, 1, log);
	has = db_step(cv->db, *st, 0) == DB_ROW && db_column_int(*st, 0) > 0;
	db_reset(*st);
	return has;
}

int64_t
chain_verify(struct db *db, const char *kind, int64_t log,
    void (*bad)(void *arg, const struct chain_problem *p), void *arg,
    struct chain_tally *t)
{
	struct chain_verifier *cv = chain_verifier_new(db);
	int64_t r = chain_verifier_check(cv, kind, log, bad, arg, t);

	chain_verifier_free(cv);
	return r;
}

int64_t
chain_verifier_check(struct chain_verifier *cv, const char *kind,
    int64_t log, void (*bad)(void *arg, const struct chain_problem *p),
    void *arg, struct chain_tally *t)
{
	struct db *db = cv->db;
	const struct kind *k = kind_need(kind);
	struct verify v = { k, log, bad, arg, 0 };
	struct chain_head head;
	struct walk w;
	int64_t last, fast_n, fast_bytes;
	int has_row;

	if (cv->head == NULL)
		cv->head = head_question(db, kind, log);
	else {
		db_bind_text(cv->head, 1, kind);
		db_bind_int(cv->head, 2, log);
	}
	head_read(db, cv->head, &head);
	has_row = log_has_row(cv, k, log);
	if (verify_fast(db, &cv->rows[k - kinds], k, log, &head, &fast_n,
	    &fast_bytes) && (has_row || fast_n > 0)) {
		t->logs++;
		t->events += fast_n;
		t->bytes += fast_bytes;
		return 0;
	}
	memset(&w, 0, sizeof w);
	w.v = &v;
	w.head = &head;
	w.rows = rows_load(db, k, log, &w.n);
	if (!has_row && w.n == 0 && !head.have) {
		rows_free(w.rows, w.n);
		return -1;
	}
	t->logs++;
	t->events += (int64_t)w.n;
	for (size_t i = 0; i < w.n; i++)
		t->bytes += (int64_t)(sizeof chain_prefix + strlen(k->name) +
		    1 + CHAIN_HASH_LEN + w.rows[i].len);
	if (!has_row)
		problem(&v, 0, 0, w.n > 0 ? "its row is gone, but its events "
		    "remain" : "its row is gone, but its chain's head remains");
	w.known = 1;
	last = w.n > 0 ? w.rows[w.n - 1].seq : 0;
	w.end = head.have ? head.seq : last;
	for (int64_t seq = 1; seq <= (head.have && head.seq > last ?
	    head.seq : last); seq++)
		walk_place(&w, seq);
	walk_end(&w);
	rows_free(w.rows, w.n);
	if (v.problems > NAMED_MAX) {
		struct chain_problem p = { kind, log, 0, 0, NULL };
		char what[80];

		snprintf(what, sizeof what, "and %" PRId64 " more problems",
		    v.problems - NAMED_MAX);
		p.what = what;
		bad(arg, &p);
	}
	t->problems += v.problems;
	return v.problems;
}

void
chain_logs(struct db *db, const char *kind,
    void (*fn)(void *arg, const char *kind, int64_t log), void *arg)
{
	for (size_t i = 0; i < NKINDS; i++) {
		struct db_stmt *st;

		if (kind != NULL && strcmp(kind, kinds[i].name) != 0)
			continue;
		st = db_prepare(db, kinds[i].logs);
		while (db_step(db, st, 0) == DB_ROW)
			fn(arg, kinds[i].name, db_column_int(st, 0));
		db_finalize(st);
	}
}

int64_t
chain_heads(struct db *db, const char *kind,
    void (*fn)(void *arg, const char *kind, int64_t log,
    const struct chain_head *h), void *arg,
    unsigned char all[CHAIN_HASH_LEN])
{
	struct sha256_ctx s;
	struct db_stmt *st;
	int64_t count = 0;

	sha256_init(&s);
	sha256_update(&s, sizeof chain_prefix,
	    (const uint8_t *)chain_prefix);
	if (kind != NULL) {
		st = db_prepare(db, "SELECT kind, log, seq, hash, migrated"
		    " FROM chain WHERE kind = ?1 ORDER BY log");
		db_bind_text(st, 1, kind);
	} else
		st = db_prepare(db, "SELECT kind, log, seq, hash, migrated"
		    " FROM chain ORDER BY kind, log");
	while (db_step(db, st, 0) == DB_ROW) {
		struct chain_head h = { 1, 0, { 0 }, 0 };
		const char *kname = db_column_text(st, 0);
		unsigned char b[16];

		if (kname == NULL || unhex(db_column_text(st, 3), h.hash) != 0)
			db_die(db, "the hash chain: a head that is not one");
		h.seq = db_column_int(st, 2);
		h.migrated = db_column_int(st, 4);
		put_be(b, (uint64_t)db_column_int(st, 1), 8);
		put_be(b + 8, (uint64_t)h.seq, 8);
		sha256_update(&s, strlen(kname) + 1, (const uint8_t *)kname);
		sha256_update(&s, sizeof b, b);
		sha256_update(&s, sizeof h.hash, h.hash);
		if (fn != NULL)
			fn(arg, kname, db_column_int(st, 1), &h);
		count++;
	}
	db_finalize(st);
	sha256_digest(&s, SHA256_DIGEST_SIZE, all);
	return count;
}
