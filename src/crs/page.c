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
#include <string.h>

/*
 * The sizes of a sheet: a tall one (a sheet to a page) reads larger, and
 * keeps room at the foot for the notes; one of half a page fits its
 * lines between the head and the strip.
 */
struct dims {
	double	line, small;	/* a line of the tables and lists, its font */
	double	col;		/* the stats column's width */
	double	box_h, big, label;	/* the big stats' boxes */
	int	tall;
};

#define TALL_H		600.0	/* from this height, a sheet is tall */
#define BOX_GAP		8.0	/* between two big stats' boxes */
#define NOTES_MIN	110.0	/* the notes' least room on a tall sheet */

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
	page_code_notes(&pc, c->sh->notes);
	page_code_end(&pc, code);
}

/* ---- the layout ---- */

static void
dims_of(const struct page *pg, struct dims *d)
{
	if (pg->h >= TALL_H)
		*d = (struct dims){ 14, 10.5, 200, 84, 48, 11, 1 };
	else
		*d = (struct dims){ 11, 8.5, 182, 40, 22, 8, 0 };
}

static void
layout_primary(const struct crspage_char *c, struct page *pg,
    const struct dims *d, double y)
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
	page_text(pg, 0, y, pg->w, d->small, PAGE_MONO, s);
	free(s);
}

/*
 * The stats read in play, each in a box of its own in digits large
 * enough to read at arm's length: the effective value, with the items
 * always in use.  Returns the y below the boxes.
 */
static double
layout_big(const struct crspage_char *c, struct page *pg,
    const struct dims *d, double y)
{
	static const int big[] = { S_OR, S_DR, S_LIFE, S_EM, S_IN };
	double w = (pg->w - 4 * BOX_GAP) / 5, size;

	for (int k = 0; k < 5; k++) {
		const struct sheet_stat *st = &c->st[big[k]];
		double x = k * (w + BOX_GAP);
		char value[16] = "-";

		if (st->source != SHEET_ABSENT)
			snprintf(value, sizeof value, "%d", st->effective);
		page_box(pg, x, y, w, d->box_h);
		page_text(pg, x + 5, y + 3, w - 10, d->label, PAGE_BOLD,
		    stats_secondary_name(big[k]));
		/* DejaVu Sans Bold's digits are 0.7 em wide: a long value
		 * gets smaller digits, never an ellipsis. */
		size = (w - 6) / (0.7 * (double)strlen(value));
		if (size > d->big)
			size = d->big;
		page_text_centred(pg, x, y + d->label + 3 + (d->big - size) *
		    0.6, w, size, PAGE_BOLD, value);
	}
	return y + d->box_h;
}

/*
 * The secondary stats as a table, with a SOURCE column only when a value
 * was given or is missing (a computed one says nothing there); a dash
 * says a value is missing, under a line saying so.  Returns the y below.
 */
static double
layout_secondary(const struct crspage_char *c, struct page *pg,
    const struct dims *d, double y)
{
	int source = 0, absent = 0;

	for (int s = 0; s < S_COUNT; s++) {
		source |= c->st[s].source != SHEET_COMPUTED;
		absent |= c->st[s].source == SHEET_ABSENT;
	}
	page_text(pg, 0, y, d->col, d->small, PAGE_MONO_BOLD, source ?
	    "STAT  VALUE  EFFECTIVE  SOURCE" : "STAT  VALUE  EFFECTIVE");
	for (int s = 0; s < S_COUNT; s++) {
		const struct sheet_stat *st = &c->st[s];

		y += d->line;
		if (st->source == SHEET_ABSENT)
			page_textf(pg, 0, y, d->col, d->small, PAGE_MONO,
			    "%-5s %5s  %9s  not set", stats_secondary_name(s),
			    "-", "-");
		else
			page_textf(pg, 0, y, d->col, d->small, PAGE_MONO,
			    "%-5s %5d  %9d%s", stats_secondary_name(s),
			    st->value, st->effective, st->source ==
			    SHEET_GIVEN ? "  given" : "");
	}
	y += d->line;
	if (absent) {
		page_text(pg, 0, y, d->col, d->small * 0.85, PAGE_PLAIN,
		    "-: not set, and nothing to compute it from");
		y += d->line;
	}
	return y;
}

/* The AC deck the character draws from: Ace, 2 to 9, 1 + LB 10s. */
static double
layout_deck(const struct crspage_char *c, struct page *pg,
    const struct dims *d, double y)
{
	int lb = c->st[S_LB].value < 0 ? 0 : c->st[S_LB].value;
	struct deck dk;

	deck_init(&dk, lb);
	if (!d->tall) {
		page_textf(pg, 0, y, d->col, d->small, PAGE_PLAIN,
		    "AC deck: %d cards, %d x 10 (LB %d)", deck_size(&dk),
		    1 + lb, lb);
		return y + d->line;
	}
	page_text(pg, 0, y, d->col, d->small, PAGE_BOLD, "AC DECK");
	page_textf(pg, 0, y + d->line, d->col, d->small, PAGE_PLAIN,
	    "Ace, 2 to 9, %d x 10 (LB %d): %d cards", 1 + lb, lb,
	    deck_size(&dk));
	return y + 2 * d->line;
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

/* DejaVu Sans's mean advance, of its size: a line's width estimated. */
#define CHAR_EM		0.56

/* The lines that text of font size takes in w: 1, or 2 when it is long. */
static size_t
list_need(const char *text, double size, double w)
{
	return (double)strlen(text) * size * CHAR_EM > w ? 2 : 1;
}

/*
 * The items and powers in the column right of the stats down to bottom,
 * a line each, or two (wrapped) for a long one; when they do not all
 * fit, the last line says how many are left out.  Returns the y below
 * the last line.
 */
static double
layout_lists(const struct crspage_char *c, struct page *pg,
    const struct dims *d, double y, double bottom)
{
	double x = d->col + 14, w = pg->w - x;
	struct list_line *l;
	size_t total = list_lines(c, &l), room, used = 0, k, need, all = 0;
	int cut;

	room = bottom > y ? (size_t)((bottom - y) / d->line) : 0;
	for (k = 0; k < total; k++)
		all += list_need(l[k].text, d->small, w);
	/* A line kept for the note of the rest, when they will not all fit. */
	if ((cut = all > room && room > 0))
		room--;
	for (k = 0; k < total; k++, used += need) {
		need = list_need(l[k].text, d->small, w);
		if (used + need > room)
			break;
		if (need == 1)
			page_text(pg, x, y, w, d->small, l[k].style,
			    l[k].text);
		else
			page_para(pg, x, y, w, 2 * d->line, d->small,
			    l[k].text);
		y += (double)need * d->line;
	}
	if (k < total && cut) {
		page_textf(pg, x, y, w, d->small, PAGE_PLAIN,
		    "... %zu more lines: see crs-stats show", total - k);
		y += d->line;
	}
	for (k = 0; k < total; k++)
		free(l[k].text);
	free(l);
	return y;
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
	double y, left, lists, foot = pg->h - page_strip_height(2) - 6;
	struct dims d;
	char *player = xasprintf("Player: %s", c->sh->player ?
	    c->sh->player : "-");

	dims_of(pg, &d);
	page_head(pg, c->sh->name, player, code, "crs-stats verify-sheet",
	    c->qr);
	free(player);
	layout_primary(c, pg, &d, PAGE_HEAD_H + 4);
	y = layout_big(c, pg, &d, PAGE_HEAD_H + 8 + d.line) + 8;
	left = layout_secondary(c, pg, &d, y);
	left = layout_deck(c, pg, &d, left + (d.tall ? 6 : 2));
	if (!d.tall) {
		lists = layout_lists(c, pg, &d, y, foot);
		page_notes(pg, d.col + 14, lists + 2, pg->w - d.col - 14, foot,
		    d.small, d.line, c->sh->notes, 0);
	} else {
		lists = layout_lists(c, pg, &d, y, foot - NOTES_MIN);
		y = (left > lists ? left : lists) + 8;
		/* The notes in a box down to the strip, for the pen too. */
		page_notes(pg, 0, y, pg->w, foot, d.small, d.line,
		    c->sh->notes, 1);
	}
	layout_strip(c, code, pg);
}
