/*
 * kinds.c - every kind of log refkit keeps (kinds.h).
 */
#include "kinds/kinds.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "bg/ledger.h"
#include "bg/watch.h"
#include "crs/ledger.h"
#include "crs/printed.h"
#include "crs/report.h"
#include "crs/report_load.h"
#include "crs/roster.h"
#include "crs/sheet.h"
#include "crs/text.h"
#include "crs/watch.h"
#include "d6/ledger.h"
#include "fb/ledger.h"
#include "fb/watch.h"
#include "paper/sheetrun.h"

_Static_assert(KINDS_SHEET_CODE_LEN == PAGE_CODE_LEN, "a sheet code's length");

const struct journal_kind *const kinds_all[] = {
	&ledger_kind, &fbledger_kind, &bgledger_kind, NULL
};

const struct watch_board *const kinds_boards[] = {
	&crswatch_board, &fbwatch_board, &bgwatch_board, NULL
};

const struct seal_checker kinds_seals[] = {
	{ "combat", ledger_seal_check, NULL },
	{ "duel", NULL, &fbledger_rules },
	{ "game", NULL, &bgledger_rules },
	{ "rolls", d6ledger_seal_check, NULL },
};
const size_t kinds_nseals = sizeof kinds_seals / sizeof kinds_seals[0];

const struct journal_kind *
kinds_find(const char *what)
{
	for (size_t i = 0; kinds_all[i] != NULL; i++)
		if (strcmp(kinds_all[i]->what, what) == 0)
			return kinds_all[i];
	return NULL;
}

const struct watch_board *
kinds_board(const char *what)
{
	for (size_t i = 0; kinds_boards[i] != NULL; i++)
		if (strcmp(kinds_boards[i]->kind->what, what) == 0)
			return kinds_boards[i];
	return NULL;
}

/* Whether a fighter of a combat is the one sought (ledger_fighters). */
struct fighter_sought {
	const char	*name;
	int		 found;
};

static void
fighter_is(void *arg, const char *name)
{
	struct fighter_sought *f = arg;

	f->found |= strcmp(f->name, name) == 0;
}

static void
history_line(void *arg, const struct ledger_history *h)
{
	FILE *fp = arg;

	fprintf(fp, "%" PRId64 " combat%s: dealt %" PRId64 ", taken %" PRId64
	    ", downed %" PRId64 ", fumbles %" PRId64 "\n", h->combats,
	    h->combats == 1 ? "" : "s", h->dealt, h->taken, h->downed,
	    h->fumbles);
}

/* name's figures in combat log now (kinds_character), LIFE -1 if none. */
static void
figures_in(struct db *db, int64_t log, const char *name,
    int fig[KINDS_FIGURES])
{
	struct ledger l;
	struct combat_state s;
	int64_t bad;
	char why[256];

	fig[KINDS_LIFE] = -1;
	fig[KINDS_LIFE_MAX] = fig[KINDS_EM] = fig[KINDS_EM_MAX] = 0;
	if (ledger_load(db, log, &l) != 0)
		return;
	if (ledger_derive(&l, &s, &bad, why, sizeof why) == 0)
		for (int i = 0; i < s.n; i++)
			if (strcmp(s.f[i].name, name) == 0) {
				fig[KINDS_LIFE] = s.f[i].life;
				fig[KINDS_LIFE_MAX] = s.f[i].st.life;
				fig[KINDS_EM] = s.f[i].em;
				fig[KINDS_EM_MAX] = s.f[i].st.em;
			}
	combat_state_release(&s);
	ledger_release(&l);
}

int
kinds_character(struct db *db, const char *name, FILE *sheet, FILE *history,
    void (*fn)(void *, int64_t combat, const int *figures), void *arg)
{
	struct sheet sh;
	struct sheet_stat st[S_COUNT];
	struct journal_open *open;
	struct item *items;
	size_t nitems, n;
	int64_t id;

	sheet_init(&sh);
	if (roster_get(db, name, &sh, &id) != ROSTER_OK) {
		sheet_release(&sh);
		return -1;
	}
	items = roster_held_items(db, id, &nitems);
	sheet_secondary(&sh, STATS_ROUND_WHOLE, items, nitems, st);
	crstext_sheet(sheet, &sh, st, items, nitems);
	roster_items_free(items, nitems);
	sheet_release(&sh);
	if (ledger_history(db, name, 0, history_line, history) == 0)
		fprintf(history, "no combat yet\n");
	open = journal_open_list(db, &ledger_kind, NULL, &n);
	for (size_t i = 0; i < n; i++) {
		struct fighter_sought f = { name, 0 };

		ledger_fighters(db, open[i].log, fighter_is, &f);
		if (f.found) {
			int fig[KINDS_FIGURES];

			figures_in(db, open[i].log, name, fig);
			fn(arg, open[i].log, fig);
		}
	}
	journal_open_free(open, n);
	return 0;
}

enum kinds_sheet
kinds_sheet_check(struct db *db, const char *name, const char *typed,
    char shown[KINDS_SHEET_CODE_LEN + 1])
{
	enum stats_rounding whole = STATS_ROUND_WHOLE;
	struct sheetrun_ops ops = { "characters", crsprinted_names,
	    crsprinted_load, crsprinted_release, crsprinted_code, NULL,
	    &whole };
	struct sheet sh;
	char *names[1];
	int found;

	shown[0] = '\0';
	sheet_init(&sh);
	found = roster_get(db, name, &sh, NULL) == ROSTER_OK;
	sheet_release(&sh);
	if (!found)
		return KINDS_SHEET_NOBODY;
	if (page_code_parse(typed, shown) != 0) {
		shown[0] = '\0';
		return KINDS_SHEET_NOT_CODE;
	}
	names[0] = (char *)name;
	return sheetrun_find(db, &ops, names, 1, shown) != NULL ?
	    KINDS_SHEET_MATCH : KINDS_SHEET_OTHER;
}

struct kinds_day_cache {
	struct ledger_report_cache	*crs;
};

struct kinds_day_cache *
kinds_day_cache_new(void)
{
	struct kinds_day_cache *c = xcalloc(1, sizeof *c);

	c->crs = ledger_report_cache_new();
	return c;
}

void
kinds_day_cache_free(struct kinds_day_cache *c)
{
	if (c == NULL)
		return;
	ledger_report_cache_free(c->crs);
	free(c);
}

int
kinds_day(struct db *db, int64_t since, int64_t now, struct kinds_day *d,
    struct kinds_day_cache *c)
{
	struct report r;

	memset(d, 0, sizeof *d);
	d->since = since;
	report_init(&r, since, now);
	r.no_story = 1;
	if (ledger_report(db, &r, c != NULL ? c->crs : NULL) != 0) {
		report_release(&r);
		return -1;
	}
	d->combats = (int64_t)r.ncombats;
	d->idle = (int64_t)r.nidle;
	for (size_t i = 0; i < r.ncombats; i++) {
		const struct report_combat *rc = &r.combats[i];

		d->finished += rc->finished != 0;
		d->rounds += rc->rounds;
		d->strikes += rc->actions;
		d->dealt += rc->dealt;
		d->downs += rc->downs;
		d->fumbles += rc->fumbles;
	}
	for (size_t i = 0; i < r.ngms; i++)
		d->rulings += r.gms[i].rulings;
	for (size_t i = 0; i < r.nhours; i++)
		if (r.hours[i].combats > d->busiest) {
			d->busiest = r.hours[i].combats;
			d->busiest_hour = r.hours[i].hour;
		}
	for (size_t i = 0; i < r.nchars; i++)
		if (r.chars[i].dealt > d->top_dealt) {
			d->top_dealt = r.chars[i].dealt;
			snprintf(d->top, sizeof d->top, "%s", r.chars[i].name);
		}
	if (r.nmatchups > 0) {
		const struct report_matchup *m = &r.matchups[0];

		snprintf(d->attacker, sizeof d->attacker, "%s", m->attacker);
		snprintf(d->target, sizeof d->target, "%s", m->target);
		d->kind = report_kind(m);
		d->count = m->count;
		d->known = m->known;
		d->p_hit = m->p_hit;
	}
	report_release(&r);
	return 0;
}
