/*
 * test_d6page.c - a D6 character's printed sheet: what it lays out, the
 * lists giving way on a short sheet, and what the code covers.
 */
#include "tap.h"

#include "d6/page.h"

#include <stdio.h>

static const char key[] = "0123456789abcdef0123456789abcdef";

static size_t
count(const struct page *pg, int kind, const char *text)
{
	size_t n = 0;

	for (size_t i = 0; i < pg->n; i++)
		n += pg->items[i].kind == kind && (text == NULL ||
		    (pg->items[i].text && strstr(pg->items[i].text, text)));
	return n;
}

int
main(void)
{
	struct d6_sheet s;
	struct page pg;
	char why[160], a[PAGE_CODE_LEN + 1], b[PAGE_CODE_LEN + 1], arg[64];

	d6sheet_new(&s, "Luke");
	d6sheet_apply(&s, "Dexterity=3D+1", why, sizeof why);
	d6sheet_apply(&s, "Dexterity.Blaster=5D", why, sizeof why);
	d6sheet_apply(&s, "fp=2", why, sizeof why);
	d6page_code(&s, key, a);
	page_init(&pg, 539, 786);
	d6page_layout(&s, a, &pg);
	is_int(count(&pg, PAGE_TEXT, "Luke"), 2, "the name, and on the strip");
	is_int(count(&pg, PAGE_TEXT, "Blaster"), 1, "the skill");
	is_int(count(&pg, PAGE_TEXT, "5D"), 1, "its code");
	/* 5 CP, 2 FP, 4 wound levels, and the notes' box. */
	is_int(count(&pg, PAGE_BOX, NULL), 5 + 2 + 4 + 1, "a box per point "
	    "and wound level, and one for the notes");
	is_int(count(&pg, PAGE_TEXT, "NOTES"), 1, "the notes' heading");
	is_int(count(&pg, PAGE_TEXT, "mortally wounded"), 1, "the chart's "
	    "wound levels");
	is_int(count(&pg, PAGE_QR, a), 1, "the QR code holds the code");
	page_release(&pg);

	d6sheet_apply(&s, "notes=farm boy", why, sizeof why);
	d6page_code(&s, key, b);
	ok(strcmp(a, b) != 0, "the notes, printed, are covered");
	page_init(&pg, 539, 365);
	d6page_layout(&s, b, &pg);
	is_int(count(&pg, PAGE_PARA, "farm boy"), 1, "the notes printed, "
	    "on half a page too");
	page_release(&pg);
	d6sheet_apply(&s, "notes=", why, sizeof why);
	d6page_code(&s, key, b);
	is_str(b, a, "and back");
	d6sheet_apply(&s, "Dexterity.Blaster=5D+1", why, sizeof why);
	d6page_code(&s, key, b);
	ok(strcmp(a, b) != 0, "a skill's code is covered");
	d6sheet_apply(&s, "Dexterity.Blaster=5D", why, sizeof why);
	d6sheet_apply(&s, "cp=4", why, sizeof why);
	d6page_code(&s, key, b);
	ok(strcmp(a, b) != 0, "the Character Points are covered");

	/* Sixty skills on a sheet two share a page with. */
	for (int i = 0; i < 60; i++) {
		snprintf(arg, sizeof arg, "Dexterity.Skill%02d=4D", i);
		d6sheet_apply(&s, arg, why, sizeof why);
	}
	page_init(&pg, 539, 365);
	d6page_layout(&s, a, &pg);
	is_int(count(&pg, PAGE_TEXT, "more: see d6-roll char show"), 1,
	    "the skills that do not fit are counted");
	for (size_t i = 0; i < pg.n; i++)
		if (pg.items[i].y > 365 || pg.items[i].x + pg.items[i].w >
		    539.001)
			ok(0, "item %zu outside the sheet", i);
	page_release(&pg);
	d6sheet_free(&s);
	return tap_done();
}
