/*
 * crs/printed.c - a CRS character as its printed sheet shows it; see
 * crs/printed.h.
 */
#include "crs/printed.h"

#include <stdlib.h>

#include "base/util.h"
#include "crs/roster.h"
#include "crs/stats.h"

void
crsprinted_names(struct db *db, void (*fn)(void *, const char *), void *arg)
{
	roster_names(db, ROSTER_CHARACTER, fn, arg);
}

void *
crsprinted_load(struct db *db, const char *name, void *rounding)
{
	struct crsprinted *p = xcalloc(1, sizeof *p);
	int64_t id;

	sheet_init(&p->sh);
	if (roster_get(db, name, &p->sh, &id) != ROSTER_OK)
		db_die(db, "no character named '%s'", util_q(name));
	p->c.sh = &p->sh;
	p->items = roster_held_items(db, id, &p->c.nitems);
	p->powers = roster_known_powers(db, id, &p->c.npowers);
	p->c.items = p->items;
	p->c.powers = p->powers;
	sheet_secondary(&p->sh, *(const enum stats_rounding *)rounding,
	    p->items, p->c.nitems, p->c.st);
	return p;
}

void
crsprinted_release(void *arg)
{
	struct crsprinted *p = arg;

	roster_items_free(p->items, p->c.nitems);
	roster_powers_free(p->powers, p->c.npowers);
	sheet_release(&p->sh);
	free(p);
}

void
crsprinted_code(const void *arg, const char *station_id,
    char code[PAGE_CODE_LEN + 1])
{
	crspage_code(&((const struct crsprinted *)arg)->c, station_id, code);
}
