/*
 * page.c - a printed sheet described without drawing it, the paper sizes
 * and the sheet's verification code; see page.h.
 */
#include "paper/page.h"

#include "base/util.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void
page_init(struct page *pg, double w, double h)
{
	memset(pg, 0, sizeof *pg);
	pg->w = w;
	pg->h = h;
}

void
page_release(struct page *pg)
{
	for (size_t i = 0; i < pg->n; i++)
		free(pg->items[i].text);
	free(pg->items);
	pg->items = NULL;
	pg->n = 0;
}

static struct page_item *
add(struct page *pg, int kind, double x, double y, double w, double h,
    const char *text)
{
	struct page_item *it;

	pg->items = xreallocarray(pg->items, pg->n + 1, sizeof *pg->items);
	it = &pg->items[pg->n++];
	it->kind = kind;
	it->style = PAGE_PLAIN;
	it->centred = 0;
	it->size = 0;
	it->x = x;
	it->y = y;
	it->w = w;
	it->h = h;
	it->text = text ? xstrdup(text) : NULL;
	return it;
}

void
page_text(struct page *pg, double x, double y, double w, double size,
    int style, const char *text)
{
	add(pg, PAGE_TEXT, x, y, w, size, text)->style = style;
}

void
page_textf(struct page *pg, double x, double y, double w, double size,
    int style, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	page_text(pg, x, y, w, size, style, s);
	free(s);
}

void
page_text_centred(struct page *pg, double x, double y, double w,
    double size, int style, const char *text)
{
	struct page_item *it = add(pg, PAGE_TEXT, x, y, w, size, text);

	it->style = style;
	it->centred = 1;
}

void
page_para(struct page *pg, double x, double y, double w, double h,
    double size, const char *text)
{
	add(pg, PAGE_PARA, x, y, w, h, text)->size = size;
}

void
page_box(struct page *pg, double x, double y, double w, double h)
{
	add(pg, PAGE_BOX, x, y, w, h, NULL);
}

void
page_rule(struct page *pg, double x, double y, double w)
{
	add(pg, PAGE_RULE, x, y, w, 0, NULL);
}

void
page_qr(struct page *pg, double x, double y, double side, const char *text)
{
	add(pg, PAGE_QR, x, y, side, side, text);
}

/* Room kept after the boxes for the note of those that did not fit. */
#define TALLY_NOTE	44.0
#define TALLY_GAP	0.25	/* of a box, between two boxes */

double
page_tally(struct page *pg, double x, double y, double w, double box,
    int rows, long n)
{
	double step = box * (1 + TALLY_GAP);
	long per_row = (long)((w - TALLY_NOTE) / step), shown, row = 0;

	if (per_row < 1)
		per_row = 1;
	shown = n < per_row * rows ? n : per_row * rows;
	for (long i = 0; i < shown; i++) {
		row = i / per_row;
		page_box(pg, x + (double)(i % per_row) * step,
		    y + (double)row * step, box, box);
	}
	if (shown < n)
		page_textf(pg, x + (double)per_row * step, y + (double)row *
		    step, TALLY_NOTE, box, PAGE_PLAIN, "+%ld", n - shown);
	return shown == 0 ? box : (double)(row + 1) * step;
}

/* ---- the parts every printed sheet has ---- */

#define STRIP_LABEL	76.0	/* the width of a count's label */
#define STRIP_NAME	26.0	/* the rule and the name line */
#define STRIP_COUNT	(PAGE_STRIP_ROWS * PAGE_STRIP_BOX * (1 + TALLY_GAP) + 4)

void
page_head(struct page *pg, const char *name, const char *sub,
    const char *code, const char *check, const char *qr)
{
	double w = pg->w - PAGE_QR_SIDE - 8;

	page_text(pg, 0, 0, w, 16, PAGE_BOLD, name);
	if (sub)
		page_text(pg, 0, 24, w, 10, PAGE_PLAIN, sub);
	page_textf(pg, 0, 40, w, 10, PAGE_MONO, "Code %s", code);
	page_textf(pg, 0, 54, w, 7, PAGE_PLAIN, "check it with: %s CODE",
	    check);
	page_qr(pg, pg->w - PAGE_QR_SIDE, 0, PAGE_QR_SIDE, qr ? qr : code);
}

void
page_notes(struct page *pg, double x, double y, double w, double bottom,
    double size, double line, const char *notes, int boxed)
{
	double pad = boxed ? 6 : 0;

	if (notes && *notes == '\0')
		notes = NULL;
	if (bottom - y < 2 * line || (!boxed && notes == NULL))
		return;
	if (boxed)
		page_box(pg, x, y, w, bottom - y);
	page_text(pg, x + pad, y + pad / 2, w - 2 * pad, size, PAGE_BOLD,
	    "NOTES");
	if (notes)
		page_para(pg, x + pad, y + pad / 2 + line, w - 2 * pad,
		    bottom - y - pad - line, size, notes);
}

double
page_strip_height(int nrows)
{
	return STRIP_NAME + nrows * STRIP_COUNT;
}

double
page_strip(struct page *pg, int nrows, const char *name, const char *code)
{
	double y = pg->h - page_strip_height(nrows);

	page_rule(pg, 0, y, pg->w);
	page_text(pg, 0, y + 10, pg->w - 150, 10, PAGE_BOLD, name);
	page_text(pg, pg->w - 140, y + 11, 140, 8.5, PAGE_MONO, code);
	return y + STRIP_NAME;
}

double
page_strip_count(struct page *pg, double y, const char *label, long n)
{
	page_text(pg, 0, y, STRIP_LABEL - 4, 8.5, PAGE_BOLD, label);
	page_tally(pg, STRIP_LABEL, y, pg->w - STRIP_LABEL, PAGE_STRIP_BOX,
	    PAGE_STRIP_ROWS, n < 0 ? 0 : n);
	return y + STRIP_COUNT;
}

/* ---- paper ---- */

int
page_paper_lookup(const char *name)
{
	if (util_streq_ci(name, "a4"))
		return PAGE_A4;
	if (util_streq_ci(name, "letter"))
		return PAGE_LETTER;
	return -1;
}

void
page_paper_size(int paper, double *w, double *h)
{
	/* ISO 216's 210 x 297 mm, and 8.5 x 11 inches. */
	*w = paper == PAGE_A4 ? 595.276 : 612;
	*h = paper == PAGE_A4 ? 841.89 : 792;
}

void
page_slot(int paper, int per, int slot, double *x, double *y, double *w,
    double *h)
{
	double pw, ph, band;

	page_paper_size(paper, &pw, &ph);
	band = ph / per;
	*x = PAGE_MARGIN;
	*y = band * slot + PAGE_MARGIN;
	*w = pw - 2 * PAGE_MARGIN;
	*h = band - 2 * PAGE_MARGIN;
}

/* ---- the verification code ---- */

static const char code_domain[] = "refkit sheet v1";
/* Crockford's base 32: no I, L, O or U, to read aloud. */
static const char code_digits[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

void
page_code_begin(struct page_code *c, const char *family,
    const char *station_id)
{
	crypto_generichash_init(&c->st, (const unsigned char *)station_id,
	    strlen(station_id), crypto_generichash_BYTES);
	page_code_add(c, code_domain);
	page_code_add(c, family);
}

void
page_code_add(struct page_code *c, const char *field)
{
	size_t len = strlen(field);
	unsigned char n[8];

	for (int i = 0; i < 8; i++)
		n[i] = (unsigned char)(len >> (56 - 8 * i));
	crypto_generichash_update(&c->st, n, sizeof n);
	crypto_generichash_update(&c->st, (const unsigned char *)field, len);
}

void
page_code_addf(struct page_code *c, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	page_code_add(c, s);
	free(s);
}

void
page_code_notes(struct page_code *c, const char *notes)
{
	if (notes == NULL || *notes == '\0')
		return;
	page_code_add(c, "notes");
	page_code_add(c, notes);
}

void
page_code_end(struct page_code *c, char code[PAGE_CODE_LEN + 1])
{
	unsigned char h[crypto_generichash_BYTES];
	int k = 0;

	crypto_generichash_final(&c->st, h, sizeof h);
	for (int d = 0; d < 16; d++) {
		int bit = d * 5, v = 0;

		for (int b = 0; b < 5; b++, bit++)
			v = v << 1 | (h[bit / 8] >> (7 - bit % 8) & 1);
		if (d > 0 && d % 4 == 0)
			code[k++] = '-';
		code[k++] = code_digits[v];
	}
	code[k] = '\0';
}

/* A typed character as a digit of the code, or 0. */
static char
code_digit(int ch)
{
	ch = toupper(ch);
	if (ch == 'O')
		return '0';
	if (ch == 'I' || ch == 'L')
		return '1';
	return ch != 0 && strchr(code_digits, ch) ? (char)ch : 0;
}

int
page_code_parse(const char *typed, char code[PAGE_CODE_LEN + 1])
{
	int d = 0, k = 0;
	char v;

	for (const char *s = typed; *s; s++) {
		if (*s == '-' || *s == ' ')
			continue;
		if ((v = code_digit((unsigned char)*s)) == 0 || d == 16)
			return -1;
		if (d > 0 && d % 4 == 0)
			code[k++] = '-';
		code[k++] = v;
		d++;
	}
	code[k] = '\0';
	return d == 16 ? 0 : -1;
}
