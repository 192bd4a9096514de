/*
 * fb/page.c - a Force Battles duelist's printed board and its code; see
 * fb/page.h.
 */
#include "fb/page.h"

#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>

#define LINE	11.0
#define SMALL	8.5
#define COL	230.0	/* the stance's column */
#define GEAS_W	130.0	/* the GEAS' column */
#define BOX	8.0	/* a counter's box in the stance */
#define STRIP_N	2	/* the pool, the legs */

/* Counters the stance leaves in the pool. */
static int
pool_of(const struct fbpage_duelist *d)
{
	return fb_level_total(d->sh->level) - fb_stance_placed(d->b,
	    &d->sh->st);
}

/* 1 if the duelist rolls on the other target table (fb.h, face/alt). */
static int
alt_table(const struct fb_sheet *sh)
{
	return (sh->side == FB_LIGHT) != (sh->hand == FB_RIGHT);
}

void
fbpage_code(const struct fbpage_duelist *d, const char *station_id,
    char code[PAGE_CODE_LEN + 1])
{
	const struct fb_sheet *sh = d->sh;
	const struct fb_board *b = d->b;
	struct page_code pc;

	page_code_begin(&pc, "fb", station_id);
	page_code_add(&pc, d->name);
	page_code_addf(&pc, "%d %d %d %d %d", sh->side, sh->hand, sh->colour,
	    sh->level, sh->free_geas);
	page_code_add(&pc, b->name);
	for (int t = 0; t < FB_NT; t++) {
		page_code_add(&pc, b->tname[t]);
		page_code_addf(&pc, "%d %d", b->face[t], b->alt[t]);
	}
	page_code_addf(&pc, "%d", b->ns);
	for (int s = 0; s < b->ns; s++) {
		page_code_add(&pc, b->sname[s]);
		page_code_addf(&pc, "%d", sh->st.sph[s]);
	}
	page_code_addf(&pc, "%d %d", sh->st.att, sh->st.def);
	for (int g = 0; g < FB_NGEAS; g++)
		page_code_addf(&pc, "%d", sh->st.geas[g]);
	page_code_end(&pc, code);
}

/* A row of the stance: its name, a box per counter it may hold, n. */
static void
stance_row(struct page *pg, double y, const char *name, int n, int cap)
{
	page_text(pg, 0, y, 96, SMALL, PAGE_PLAIN, name);
	for (int k = 0; k < cap && k < FB_ATTDEF_MAX; k++)
		page_box(pg, 100 + k * (BOX + 2), y + 1, BOX, BOX);
	page_textf(pg, 100 + FB_ATTDEF_MAX * (BOX + 2) + 6, y, 24, SMALL,
	    PAGE_MONO, "%d", n);
}

/* The stance in the left column; returns the y below it. */
static double
layout_stance(const struct fbpage_duelist *d, struct page *pg, double y)
{
	const struct fb_stance *st = &d->sh->st;

	page_text(pg, 0, y, COL, SMALL, PAGE_BOLD, "STANCE");
	for (int s = 0; s < d->b->ns; s++) {
		y += LINE;
		stance_row(pg, y, d->b->sname[s], st->sph[s], FB_CAP);
	}
	stance_row(pg, y += LINE, "ATT", st->att, FB_ATTDEF_MAX);
	stance_row(pg, y += LINE, "DEF", st->def, FB_ATTDEF_MAX);
	page_textf(pg, 0, y += LINE, COL, SMALL, PAGE_BOLD, "POOL %d",
	    pool_of(d));
	return y + LINE;
}

/* The GEAS held, in the middle column. */
static void
layout_geas(const struct fbpage_duelist *d, struct page *pg, double y)
{
	double x = COL + 20, w = GEAS_W;
	int any = 0;

	page_text(pg, x, y, w, SMALL, PAGE_BOLD, "GEAS");
	for (int g = 0; g < FB_NGEAS; g++) {
		if (d->sh->st.geas[g] == 0 && g != d->sh->free_geas)
			continue;
		page_textf(pg, x, y += LINE, w, SMALL, PAGE_PLAIN, "%s %d%s",
		    fb_geas_name(g), d->sh->st.geas[g],
		    g == d->sh->free_geas ? " (free)" : "");
		any = 1;
	}
	if (!any)
		page_text(pg, x, y + LINE, w, SMALL, PAGE_PLAIN, "none");
}

/* Her target table (the one of her side and hand), at the right. */
static void
layout_table(const struct fbpage_duelist *d, struct page *pg, double y)
{
	double x = COL + 20 + GEAS_W + 10, w = pg->w - x;
	int alt = alt_table(d->sh);

	page_text(pg, x, y, w, SMALL, PAGE_BOLD, "TARGET TABLE");
	for (int face = 1; face <= 6; face++) {
		int t = d->b->table[alt][face];

		page_textf(pg, x, y += LINE, w, SMALL, PAGE_PLAIN, "%d  %s",
		    face, t >= 0 ? d->b->tname[t] : "-");
	}
}

void
fbpage_layout(const struct fbpage_duelist *d, const char *code,
    struct page *pg)
{
	const struct fb_sheet *sh = d->sh;
	char *sub = xasprintf("%s side, %s hand, %s; %s (%d counters); "
	    "board %s", sh->side == FB_DARK ? "Dark" : "Light",
	    fb_hand_name(sh->hand), fb_colour_name(sh->colour),
	    fb_level_name(sh->level), fb_level_total(sh->level), d->b->name);
	char label[32];
	double y;

	page_head(pg, d->name, sub, code, "fb-duel verify-sheet", NULL);
	free(sub);
	layout_stance(d, pg, PAGE_HEAD_H + 12);
	layout_geas(d, pg, PAGE_HEAD_H + 12);
	layout_table(d, pg, PAGE_HEAD_H + 12);
	y = page_strip(pg, STRIP_N, d->name, code);
	snprintf(label, sizeof label, "POOL %d", pool_of(d));
	y = page_strip_count(pg, y, label, pool_of(d));
	page_strip_count(pg, y, "LEGS", 2);
}
