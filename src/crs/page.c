/*
 * crs/page.c - a CRS character's printed sheet and its code; see
 * crs/page.h.  Every position is in points from the sheet's top left;
 * the sheet's height decides how many items and powers are listed, so
 * that one layout serves a sheet to a page and two.
 */
#include "crs/page.h"

#include "base/util.h"
#include "crs/deck.h"
#include "crs/stats.h"

#include <stdio.h>
#include <stdlib.h>

#define LINE		11.0	/* a line of the stats and lists */
#define SMALL		8.5	/* their font size */
#define COL		210.0	/* the stats column's width */

static const char *const source_names[] = { "-", "computed", "given" };

/* ---- the code ---- */

void
crspage_code(const struct crspage_char *c, const char *station_id,
    char code[PAGE_CODE_LEN + 1])
{
	struct page_code pc;

	page_code_begin(&pc, "crs", station_id);
	page_code_add(&pc, c->sh->name);
	page_code_add(&pc, c->sh->player ? c->sh->player : "");
	for (int p = 0; p < P_COUNT; p++)
		page_code_addf(&pc, "%d", c->sh->primary[p]);
	for (int s = 0; s < S_COUNT; s++)
		page_code_addf(&pc, "%d %d %d", c->st[s].value,
		    c->st[s].source, c->st[s].effective);
	page_code_addf(&pc, "items %zu", c->nitems);
	for (size_t i = 0; i < c->nitems; i++) {
		const struct item *it = &c->items[i];

		page_code_add(&pc, it->name);
		page_code_addf(&pc, "%d %d %d %d %d %d %d %d %d", it->mod[0],
		    it->mod[1], it->mod[2], it->mod[3], it->mod[4],
		    it->mod[5], it->range, it->use, it->full_or);
	}
	page_code_addf(&pc, "powers %zu", c->npowers);
	for (size_t i = 0; i < c->npowers; i++) {
		const struct power *pw = &c->powers[i];

		page_code_add(&pc, pw->name);
		page_code_addf(&pc, "%d %d %d %d %d", pw->em, pw->picks,
		    pw->bonus, pw->target, pw->defend);
	}
	page_code_end(&pc, code);
}

/* ---- the layout ---- */

static void
layout_primary(const struct crspage_char *c, struct page *pg, double y)
{
	char *s = xstrdup(""), *t;

	for (int p = 0; p < P_COUNT; p++) {
		if (c->sh->primary[p] == STATS_ABSENT)
			t = xasprintf("%s%s %s -", s, *s ? "  " : "",
			    stats_primary_name(p));
		else
			t = xasprintf("%s%s %s %d", s, *s ? "  " : "",
			    stats_primary_name(p), c->sh->primary[p]);
		free(s);
		s = t;
	}
	page_text(pg, 0, y, pg->w, SMALL, PAGE_MONO, s);
	free(s);
}

/* The secondary stats as a table; returns the y below it. */
static double
layout_secondary(const struct crspage_char *c, struct page *pg, double y)
{
	page_text(pg, 0, y, COL, SMALL, PAGE_MONO_BOLD,
	    "STAT    VALUE  SOURCE    EFFECTIVE");
	for (int s = 0; s < S_COUNT; s++) {
		const struct sheet_stat *st = &c->st[s];

		y += LINE;
		if (st->source == SHEET_ABSENT)
			page_textf(pg, 0, y, COL, SMALL, PAGE_MONO,
			    "%-5s       -  -                 -",
			    stats_secondary_name(s));
		else
			page_textf(pg, 0, y, COL, SMALL, PAGE_MONO,
			    "%-5s %7d  %-8s  %9d", stats_secondary_name(s),
			    st->value, source_names[st->source],
			    st->effective);
	}
	return y + LINE;
}

/* The AC deck the character draws from: Ace, 2 to 9, 1 + LB 10s. */
static void
layout_deck(const struct crspage_char *c, struct page *pg, double y)
{
	int lb = c->st[S_LB].value < 0 ? 0 : c->st[S_LB].value;
	struct deck d;

	deck_init(&d, lb);
	page_text(pg, 0, y, COL, SMALL, PAGE_BOLD, "AC DECK");
	page_textf(pg, 0, y + LINE, COL, SMALL, PAGE_PLAIN,
	    "Ace, 2 to 9, %d x 10 (LB %d): %d cards", 1 + lb, lb,
	    deck_size(&d));
}

/* The lines of the lists, each with its style; the caller frees. */
struct list_line {
	int	 style;
	char	*text;
};

static size_t
list_lines(const struct crspage_char *c, struct list_line **out)
{
	size_t n = 0, max = c->nitems + c->npowers + 4;
	struct list_line *l = xreallocarray(NULL, max, sizeof *l);
	char *sum;

	l[n++] = (struct list_line){ PAGE_BOLD, xstrdup("ITEMS") };
	for (size_t i = 0; i < c->nitems; i++) {
		sum = item_summary(&c->items[i]);
		l[n++] = (struct list_line){ PAGE_PLAIN, xasprintf("%s: %s",
		    c->items[i].name, sum) };
		free(sum);
	}
	if (c->nitems == 0)
		l[n++] = (struct list_line){ PAGE_PLAIN, xstrdup("none") };
	l[n++] = (struct list_line){ PAGE_BOLD,
	    xstrdup("POWERS (EM COST, PICKS, TARGET)") };
	for (size_t i = 0; i < c->npowers; i++) {
		sum = item_power_summary(&c->powers[i]);
		l[n++] = (struct list_line){ PAGE_PLAIN, xasprintf("%s: %s",
		    c->powers[i].name, sum) };
		free(sum);
	}
	if (c->npowers == 0)
		l[n++] = (struct list_line){ PAGE_PLAIN, xstrdup("none") };
	*out = l;
	return n;
}

/*
 * The items and powers, a line each, in the column right of the stats
 * down to bottom; when they do not all fit, the last line says how many
 * are left out.
 */
static void
layout_lists(const struct crspage_char *c, struct page *pg, double y,
    double bottom)
{
	double x = COL + 14;
	struct list_line *l;
	size_t total = list_lines(c, &l), room, fit;

	room = bottom > y ? (size_t)((bottom - y) / LINE) : 0;
	fit = total <= room ? total : room > 0 ? room - 1 : 0;
	for (size_t k = 0; k < fit; k++, y += LINE)
		page_text(pg, x, y, pg->w - x, SMALL, l[k].style, l[k].text);
	if (fit < total && room > 0)
		page_textf(pg, x, y, pg->w - x, SMALL, PAGE_PLAIN,
		    "... %zu more lines: see crs-stats show", total - fit);
	for (size_t k = 0; k < total; k++)
		free(l[k].text);
	free(l);
}

/* The tear-off strip at the foot: a box per LIFE and per EM point. */
static void
layout_strip(const struct crspage_char *c, const char *code,
    struct page *pg)
{
	const struct sheet_stat *life = &c->st[S_LIFE], *em = &c->st[S_EM];
	double y = page_strip(pg, 2, c->sh->name, code);
	char label[32];

	snprintf(label, sizeof label, life->value < 0 ? "LIFE -" :
	    "LIFE %d", life->effective);
	y = page_strip_count(pg, y, label, life->value < 0 ? 0 :
	    life->effective);
	snprintf(label, sizeof label, em->value < 0 ? "EM -" : "EM %d",
	    em->effective);
	page_strip_count(pg, y, label, em->value < 0 ? 0 : em->effective);
}

void
crspage_layout(const struct crspage_char *c, const char *code,
    struct page *pg)
{
	double y;

	char *player = xasprintf("Player: %s", c->sh->player ?
	    c->sh->player : "-");

	page_head(pg, c->sh->name, player, code, "crs-stats verify-sheet");
	free(player);
	layout_primary(c, pg, PAGE_HEAD_H + 12);
	y = layout_secondary(c, pg, PAGE_HEAD_H + 30);
	layout_deck(c, pg, y + 6);
	layout_lists(c, pg, PAGE_HEAD_H + 30, pg->h - page_strip_height(2) -
	    6);
	layout_strip(c, code, pg);
}
