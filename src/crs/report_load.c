/*
 * crs/report_load.c - the organiser's report loaded from the ledgers;
 * see crs/report_load.h.
 */
#include "crs/report_load.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "crs/ledger.h"

/* One combat's report, kept with its newest event's number. */
struct cached_report {
	int64_t		 id, last;
	struct report	 r;
	int		 seen;		/* listed in this call */
};

struct ledger_report_cache {
	int64_t			 since;
	struct cached_report	*v;
	size_t			 n;
	size_t			 next;	/* after the last found: the next
					   one asked, the combats listed in
					   the same order each time */
};

struct ledger_report_cache *
ledger_report_cache_new(void)
{
	return xcalloc(1, sizeof(struct ledger_report_cache));
}

void
ledger_report_cache_free(struct ledger_report_cache *c)
{
	if (c == NULL)
		return;
	for (size_t i = 0; i < c->n; i++)
		report_release(&c->v[i].r);
	free(c->v);
	free(c);
}

/*
 * Combat id's report, whose newest event is last: the cache's if it
 * has this one, else replayed now (and kept, when c is not NULL) into
 * *fresh.  NULL when it cannot be loaded.
 */
static const struct report *
combat_report(struct db *db, const struct report *r, int64_t id,
    int64_t last, struct ledger_report_cache *c, struct report *fresh)
{
	struct cached_report *k = NULL;
	struct ledger l;

	for (size_t i = 0; c != NULL && i < c->n && k == NULL; i++) {
		size_t j = (c->next + i) % c->n;

		if (c->v[j].id == id) {
			k = &c->v[j];
			c->next = j + 1;
		}
	}
	if (k != NULL && k->last == last) {
		k->seen = 1;
		return &k->r;
	}
	if (ledger_load_all(db, id, &l) != 0)
		return NULL;
	report_init(fresh, r->since, r->now);
	fresh->no_story = r->no_story;
	report_add_combat(fresh, &l);
	ledger_release(&l);
	if (c == NULL)
		return fresh;
	if (k == NULL) {
		c->v = xreallocarray(c->v, c->n + 1, sizeof *c->v);
		k = &c->v[c->n++];
	} else
		report_release(&k->r);
	k->id = id;
	k->last = last;
	k->r = *fresh;
	k->seen = 1;
	memset(fresh, 0, sizeof *fresh);
	return &k->r;
}

/* Drops the cache's combats not listed this time (another day's). */
static void
cache_sweep(struct ledger_report_cache *c)
{
	size_t k = 0;

	for (size_t i = 0; i < c->n; i++) {
		if (!c->v[i].seen) {
			report_release(&c->v[i].r);
			continue;
		}
		c->v[i].seen = 0;
		c->v[k++] = c->v[i];
	}
	c->n = k;
}

/* Adds each history row to the report. */
static void
report_row(void *arg, const struct ledger_history *h)
{
	report_add_char(arg, h);
}

/*
 * The combats begun since: by the time the combat row was made, an
 * hour's margin for a station's clock (report_add_combat keeps only
 * those whose first event is since), each with its newest event's
 * number, which any change of an append-only log moves on.
 */
int
ledger_report(struct db *db, struct report *r, struct ledger_report_cache *c)
{
	struct db_stmt *st = db_prepare(db, "SELECT c.id, (SELECT max(e.seq)"
	    " FROM event e WHERE e.combat_id = c.id) FROM combat c"
	    " WHERE c.created >= ?1 - 3600 ORDER BY c.id");
	int64_t (*ids)[2] = NULL;
	size_t n = 0;
	int rc = 0;

	if (c != NULL && c->since != r->since) {
		for (size_t i = 0; i < c->n; i++)
			report_release(&c->v[i].r);
		c->n = 0;
		c->since = r->since;
	}
	db_bind_int(st, 1, r->since);
	while (db_step(db, st, 0) == DB_ROW) {
		ids = xreallocarray(ids, n + 1, sizeof *ids);
		ids[n][0] = db_column_int(st, 0);
		ids[n++][1] = db_column_int(st, 1);
	}
	db_finalize(st);
	ledger_history(db, NULL, r->since, report_row, r);
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct report fresh;
		const struct report *one = combat_report(db, r, ids[i][0],
		    ids[i][1], c, &fresh);

		if (one == NULL) {
			rc = -1;
			break;
		}
		report_merge(r, one);
		if (c == NULL)
			report_release(&fresh);
	}
	free(ids);
	if (c != NULL)
		cache_sweep(c);
	if (rc == 0)
		report_finish(r);
	return rc;
}

