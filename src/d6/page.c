/*
 * d6/page.c - a D6 character's printed sheet and its code; see d6/page.h.
 */
#include "d6/page.h"

#include "base/util.h"
#include "d6/chart.h"

#include <stdio.h>
#include <stdlib.h>

#define LINE	11.0
#define SMALL	8.5
#define GAP	14.0	/* between the two columns */
#define CODE_W	44.0	/* a die code's room at the right of its column */
#define STRIP_N	3	/* CP, FP, wounds */
#define NOTES_TALL	600.0	/* from this height, the notes get a box */
#define NOTES_MIN	110.0	/* and at least this room */

void
d6page_code(const struct d6_sheet *s, const char *station_id,
    char code[PAGE_CODE_LEN + 1])
{
	struct page_code pc;

	page_code_begin(&pc, "d6", station_id);
	page_code_add(&pc, s->name);
	page_code_addf(&pc, "%d %d %d %d", s->cp, s->fp, s->dsp, s->n);
	for (int i = 0; i < s->n; i++) {
		const struct d6_trait *t = &s->t[i];

		page_code_add(&pc, t->name);
		page_code_add(&pc, t->attribute ? t->attribute : "");
		page_code_addf(&pc, "%d %d %d", t->code.dice, t->code.pips,
		    t->code.plain);
	}
	page_code_notes(&pc, s->notes);
	page_code_end(&pc, code);
}

/* Trait i at (x, y) in a column w wide: its name, its code at the right. */
static void
trait_line(const struct d6_sheet *s, int i, struct page *pg, double x,
    double y, double w)
{
	const struct d6_trait *t = &s->t[i];
	double indent = t->attribute ? 10 : 0;
	char code[32];

	d6_code_str(&t->code, code, sizeof code);
	page_text(pg, x + indent, y, w - indent - CODE_W - 4, SMALL,
	    t->attribute ? PAGE_PLAIN : PAGE_BOLD, t->name);
	page_text(pg, x + w - CODE_W, y, CODE_W, SMALL, t->attribute ?
	    PAGE_MONO : PAGE_MONO_BOLD, code);
}

/*
 * The traits in two columns from y down to bottom; when they do not all
 * fit, the last line says how many are left out.  Returns the y below
 * the longer column.
 */
static double
layout_traits(const struct d6_sheet *s, struct page *pg, double y,
    double bottom)
{
	double w = (pg->w - GAP) / 2 < 200 ? (pg->w - GAP) / 2 : 200;
	int per = bottom > y ? (int)((bottom - y) / LINE) : 0;
	int room = 2 * per, fit = s->n <= room ? s->n : room - 1;

	page_text(pg, 0, y - LINE - 4, pg->w, SMALL, PAGE_BOLD,
	    "ATTRIBUTES AND SKILLS");
	for (int i = 0; i < fit; i++)
		trait_line(s, i, pg, i < per ? 0 : w + GAP,
		    y + (i % per) * LINE, w);
	if (fit < s->n && room > 0)
		page_textf(pg, w + GAP, y + (per - 1) * LINE, w, SMALL,
		    PAGE_PLAIN, "... %d more: see d6-roll char show",
		    s->n - fit);
	if (s->n == 0)
		page_text(pg, 0, y, w, SMALL, PAGE_PLAIN, "none");
	if (fit < s->n && room > 0)
		return y + per * LINE;
	/* The first column fills before the second starts. */
	return y + (s->n == 0 ? 1 : fit < per ? fit : per) * LINE;
}

/* The wound levels of the human damage chart, a box and a label each. */
static void
layout_wounds(struct page *pg, double y)
{
	double x = 76;

	page_text(pg, 0, y, 72, SMALL, PAGE_BOLD, "WOUNDS");
	for (int row = 1; row <= 4; row++) {
		const char *effect = d6chart_damage_get(D6_HUMAN,
		    row)->effect;

		page_box(pg, x, y, PAGE_STRIP_BOX, PAGE_STRIP_BOX);
		page_text(pg, x + PAGE_STRIP_BOX + 4, y, 100, SMALL,
		    PAGE_PLAIN, effect);
		x += 110;
	}
}

void
d6page_layout(const struct d6_sheet *s, const char *code, struct page *pg)
{
	char *points = xasprintf("Character Points %d   Force Points %d   "
	    "Dark Side Points %d", s->cp, s->fp, s->dsp);
	char label[32];
	double y, foot = pg->h - page_strip_height(STRIP_N) - 6;
	int tall = pg->h >= NOTES_TALL;

	page_head(pg, s->name, points, code, "d6-roll char verify-sheet",
	    NULL);
	free(points);
	/* The notes keep some room at the foot: a box on a tall sheet. */
	y = layout_traits(s, pg, PAGE_HEAD_H + 30, foot - (tall ? NOTES_MIN :
	    s->notes && *s->notes ? 3 * LINE : 0));
	page_notes(pg, 0, y + 8, pg->w, foot, SMALL, LINE, s->notes, tall);
	y = page_strip(pg, STRIP_N, s->name, code);
	snprintf(label, sizeof label, "CP %d", s->cp);
	y = page_strip_count(pg, y, label, s->cp);
	snprintf(label, sizeof label, "FP %d", s->fp);
	y = page_strip_count(pg, y, label, s->fp);
	layout_wounds(pg, y);
}
