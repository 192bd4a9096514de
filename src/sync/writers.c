/*
 * writers.c - which changes here wrote each row; see writers.h.
 */
#include "sync/writers.h"

#include "db/gone.h"
#include "sync/station.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/*
 * A station: its changes here numbered floor to hi are indexed (none
 * when floor > hi), and top is the newest of them here.  A change added
 * as it is recorded only moves top: it is read when a change that had
 * not seen it comes (writers_cover), if one does.
 */
struct worigin {
	char	 id[STATION_ID_LEN + 1];
	int64_t	 floor, hi, top;
};

/* A change that wrote a row, and which of its columns. */
struct wby {
	uint32_t origin;		/* in writers.o */
	int64_t	 oseq;
	uint64_t cols;
};

/* A row: its table, a NUL and its key (gone.h's), and who wrote it. */
struct wrow {
	unsigned char	*key;		/* NULL: a free slot */
	size_t		 klen;
	uint64_t	 hash;
	struct wby	*by;
	size_t		 nby, capby;
	struct writers_ref *all;	/* once touch_all: every change */
	size_t		 nall, capall;
};

struct writers {
	struct db	*db;
	struct worigin	*o;
	size_t		 no;
	struct wrow	*row;		/* open addressing, a power of two */
	size_t		 cap, nrow;
	struct db_stmt	*range;
	int		 all;		/* every change's rows in wrow.all */
};

static uint64_t
hash_of(const unsigned char *p, size_t n)
{
	uint64_t h = 14695981039346656037ULL;	/* FNV-1a */

	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 1099511628211ULL;
	}
	return h;
}

/* The row key of table and the key values pk (npk of them). */
static unsigned char *
row_key(const char *table, sqlite3_value **pk, int npk, size_t *len)
{
	size_t tlen = strlen(table) + 1, klen;
	unsigned char *k = gone_key(pk, npk, &klen);
	unsigned char *out = xmalloc(tlen + klen);

	memcpy(out, table, tlen);
	memcpy(out + tlen, k, klen);
	free(k);
	*len = tlen + klen;
	return out;
}

static struct wrow *
slot_of(struct writers *w, const unsigned char *key, size_t klen,
    uint64_t h)
{
	size_t i = (size_t)h & (w->cap - 1);

	while (w->row[i].key != NULL && (w->row[i].hash != h ||
	    w->row[i].klen != klen || memcmp(w->row[i].key, key, klen) != 0))
		i = (i + 1) & (w->cap - 1);
	return &w->row[i];
}

static void
grow(struct writers *w)
{
	struct wrow *old = w->row;
	size_t ocap = w->cap;

	w->cap = ocap ? 2 * ocap : 1024;
	w->row = xcalloc(w->cap, sizeof *w->row);
	for (size_t i = 0; i < ocap; i++)
		if (old[i].key != NULL)
			*slot_of(w, old[i].key, old[i].klen, old[i].hash) =
			    old[i];
	free(old);
}

/* The station id's place, made with top as its newest change. */
static uint32_t
origin_of(struct writers *w, const char *id, int64_t top)
{
	for (size_t i = 0; i < w->no; i++)
		if (strcmp(w->o[i].id, id) == 0)
			return (uint32_t)i;
	w->o = xreallocarray(w->o, w->no + 1, sizeof *w->o);
	snprintf(w->o[w->no].id, sizeof w->o[w->no].id, "%s", id);
	w->o[w->no].top = w->o[w->no].hi = top;
	w->o[w->no].floor = top + 1;
	return (uint32_t)w->no++;
}

/* table's row whose key is the npk values at pk, or NULL: not indexed. */
static struct wrow *
row_find(struct writers *w, const char *table, sqlite3_value **pk, int npk)
{
	size_t klen;
	unsigned char *key = row_key(table, pk, npk, &klen);
	struct wrow *r = slot_of(w, key, klen, hash_of(key, klen));

	free(key);
	return r->key != NULL ? r : NULL;
}

struct writers *
writers_new(struct db *db)
{
	struct writers *w = xcalloc(1, sizeof *w);
	struct db_stmt *st;

	w->db = db;
	grow(w);
	/* Every station here: nothing of its indexed yet. */
	st = db_prepare(db, "SELECT s.id, (SELECT coalesce(max(c.oseq), 0)"
	    " FROM change c WHERE c.origin = s.id) FROM station s");
	while (db_step(db, st, 0) == DB_ROW)
		(void)origin_of(w, db_column_text(st, 0),
		    db_column_int(st, 1));
	db_finalize(st);
	w->range = db_prepare(db, "SELECT c.oseq, c.data, r.data FROM "
	    DB_CHANGE_ROWS " WHERE c.origin = ?1 AND c.oseq >= ?2"
	    " AND c.oseq < ?3 ORDER BY c.oseq");
	return w;
}

void
writers_free(struct writers *w)
{
	if (w == NULL)
		return;
	for (size_t i = 0; i < w->cap; i++) {
		free(w->row[i].key);
		free(w->row[i].by);
		free(w->row[i].all);
	}
	free(w->row);
	free(w->o);
	db_finalize(w->range);
	free(w);
}

/*
 * Notes that change o:oseq updated cols of the row at key (none: it
 * inserted or removed it), and with all, that it touched the row.
 */
static void
wrote(struct writers *w, unsigned char *key, size_t klen, uint32_t o,
    int64_t oseq, uint64_t cols, int all)
{
	uint64_t h = hash_of(key, klen);
	struct wrow *r;

	if (2 * (w->nrow + 1) > w->cap)
		grow(w);
	r = slot_of(w, key, klen, h);
	if (r->key == NULL) {
		r->key = key;
		r->klen = klen;
		r->hash = h;
		w->nrow++;
	} else
		free(key);
	if (all) {
		if (r->nall == r->capall) {
			r->capall = r->capall ? 2 * r->capall : 2;
			r->all = xreallocarray(r->all, r->capall,
			    sizeof *r->all);
		}
		r->all[r->nall].origin = o;
		r->all[r->nall++].oseq = oseq;
	}
	if (cols == 0)
		return;
	/* One entry a station: its newest change that wrote the row. */
	for (size_t i = 0; i < r->nby; i++)
		if (r->by[i].origin == o) {
			if (oseq > r->by[i].oseq)
				r->by[i].oseq = oseq;
			r->by[i].cols |= cols;
			return;
		}
	if (r->nby == r->capby) {
		r->capby = r->capby ? 2 * r->capby : 2;
		r->by = xreallocarray(r->by, r->capby, sizeof *r->by);
	}
	r->by[r->nby].origin = o;
	r->by[r->nby].oseq = oseq;
	r->by[r->nby++].cols = cols;
}

/*
 * Indexes change o:oseq (cs, n bytes): its updates, and with all every
 * row it touched.
 */
static int
index_change(struct writers *w, uint32_t o, int64_t oseq, const void *cs,
    size_t n, int all)
{
	sqlite3_changeset_iter *it;
	sqlite3_value *pk[64];

	if (sqlite3changeset_start(&it, (int)n, (void *)cs) != SQLITE_OK)
		return -1;
	while (sqlite3changeset_next(it) == SQLITE_ROW) {
		const char *table;
		unsigned char *pkf, *key;
		int ncol, op, indirect, npk = 0;
		uint64_t cols = 0;
		size_t klen;

		(void)sqlite3changeset_op(it, &table, &ncol, &op, &indirect);
		/*
		 * Only an update writes over a value.  A record made, or
		 * made again after a removal, is the gate's matter (gone.h):
		 * one made alike at two stations is the same record, which
		 * an update made knowing of either may change.
		 */
		if (op != SQLITE_UPDATE && !all)
			continue;
		(void)sqlite3changeset_pk(it, &pkf, &ncol);
		for (int i = 0; i < ncol; i++) {
			sqlite3_value *v = NULL;

			if (pkf[i] && npk < 64) {
				if (op == SQLITE_INSERT)
					(void)sqlite3changeset_new(it, i, &v);
				else
					(void)sqlite3changeset_old(it, i, &v);
				if (v != NULL)
					pk[npk++] = v;
				continue;
			}
			if (op == SQLITE_UPDATE &&
			    sqlite3changeset_new(it, i, &v) == SQLITE_OK &&
			    v != NULL)
				cols |= WRITERS_BIT(i);
		}
		key = row_key(table, pk, npk, &klen);
		wrote(w, key, klen, o, oseq, cols, all);
	}
	return sqlite3changeset_finalize(it) == SQLITE_OK ? 0 : -1;
}

/* Indexes station i's changes from..to here. */
static void
load(struct writers *w, size_t i, int64_t from, int64_t to)
{
	if (from > to)
		return;
	db_bind_text(w->range, 1, w->o[i].id);
	db_bind_int(w->range, 2, from);
	db_bind_int(w->range, 3, to + 1);
	while (db_step(w->db, w->range, 0) == DB_ROW) {
		void *owned;
		size_t n;
		const void *cs = db_change_data(w->range, 1, 2, &n, &owned);

		/* One refkit cannot walk was refused on its way in. */
		(void)index_change(w, (uint32_t)i, db_column_int(w->range, 0),
		    cs, n, 0);
		free(owned);
	}
	db_reset(w->range);
	db_clear(w->range);
}

int
writers_cover(struct writers *w, const char *origin, int64_t oseq,
    const unsigned char *seen, size_t nseen)
{
	int any = 0;

	(void)oseq;	/* a station's own earlier changes are all seen */
	for (size_t i = 0; i < w->no; i++) {
		struct worigin *o = &w->o[i];
		int64_t need;

		if (strcmp(o->id, origin) == 0)
			continue;
		need = gone_seen_of(seen, nseen, o->id) + 1;
		if (need > o->top)
			continue;
		any = 1;
		if (o->floor > o->hi) {
			load(w, i, need, o->top);
			o->floor = need;
		} else {
			if (need < o->floor)
				load(w, i, need, o->floor - 1);
			load(w, i, o->hi + 1, o->top);
			if (need < o->floor)
				o->floor = need;
		}
		o->hi = o->top;
	}
	return any;
}

int
writers_add(struct writers *w, const char *origin, int64_t oseq,
    const void *cs, size_t n)
{
	/* Its place first: origin_of may move w->o. */
	uint32_t i = origin_of(w, origin, 0);
	struct worigin *o = &w->o[i];

	if (oseq > o->top)
		o->top = oseq;
	if (!w->all)
		return 0;
	/* Once everything is indexed, so is each change as it comes. */
	o->hi = o->top;
	return index_change(w, i, oseq, cs, n, 1);
}

void
writers_touch_all(struct writers *w)
{
	struct db_stmt *st;

	if (w->all)
		return;
	st = db_prepare(w->db, "SELECT c.origin, c.oseq, c.data, r.data FROM "
	    DB_CHANGE_ROWS " ORDER BY c.no");
	while (db_step(w->db, st, 0) == DB_ROW) {
		const char *id = db_column_text(st, 0);
		void *owned;
		size_t n;
		const void *cs;
		uint32_t oi;
		int64_t oseq;

		if (id == NULL || strlen(id) != STATION_ID_LEN)
			continue;
		oi = origin_of(w, id, 0);
		oseq = db_column_int(st, 1);
		if (oseq > w->o[oi].top)
			w->o[oi].top = oseq;
		cs = db_change_data(st, 2, 3, &n, &owned);
		/* Its updates again, as cover would: no harm, the same. */
		(void)index_change(w, oi, oseq, cs, n, 1);
		free(owned);
	}
	db_finalize(st);
	for (size_t i = 0; i < w->no; i++) {
		w->o[i].floor = 1;
		w->o[i].hi = w->o[i].top;
	}
	w->all = 1;
}

size_t
writers_touching(struct writers *w, const char *table, sqlite3_value **pk,
    int npk, const struct writers_ref **refs)
{
	struct wrow *r = row_find(w, table, pk, npk);

	*refs = r != NULL ? r->all : NULL;
	return r != NULL ? r->nall : 0;
}

const char *
writers_origin(struct writers *w, uint32_t origin)
{
	return origin < w->no ? w->o[origin].id : NULL;
}

uint64_t
writers_unseen(struct writers *w, const char *table, sqlite3_value **pk,
    int npk, const char *origin, int64_t oseq, const unsigned char *seen,
    size_t nseen)
{
	struct wrow *r = row_find(w, table, pk, npk);
	uint64_t cols = 0;

	for (size_t i = 0; r != NULL && i < r->nby; i++) {
		const char *id = w->o[r->by[i].origin].id;
		int64_t had = strcmp(id, origin) == 0 ? oseq - 1 :
		    gone_seen_of(seen, nseen, id);

		if (r->by[i].oseq > had)
			cols |= r->by[i].cols;
	}
	return cols;
}
