/*
 * test_fbpage.c - a duelist's printed board: what it lays out and what
 * the code covers.
 */
#include "tap.h"

#include "fb/page.h"

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
	struct fb_board b;
	struct fb_sheet sh = { FB_LIGHT, FB_RIGHT, FB_BLUE, FB_TEMPLAR, -1,
	    { { 0 }, 0, 0, { 0 } } };
	struct fbpage_duelist d = { "Anakin", &sh, &b };
	struct page pg;
	char a[PAGE_CODE_LEN + 1], c[PAGE_CODE_LEN + 1];
	int pool;

	fb_board_default(&b);
	fb_stance_default(&b, &sh.st);
	sh.st.geas[FB_JUMP] = 2;
	pool = fb_level_total(FB_TEMPLAR) - fb_stance_placed(&b, &sh.st);
	fbpage_code(&d, key, a);
	page_init(&pg, 539, 365);
	fbpage_layout(&d, a, &pg);
	is_int(count(&pg, PAGE_TEXT, "Anakin"), 2, "the name, and on the "
	    "strip");
	is_int(count(&pg, PAGE_TEXT, "jump 2"), 1, "the GEAS held");
	is_int(count(&pg, PAGE_TEXT, "templar (40 counters)"), 1,
	    "the level");
	/* A box per counter a slot may hold, the pool's, the legs'. */
	is_int(count(&pg, PAGE_BOX, NULL), b.ns * FB_CAP + 2 * FB_ATTDEF_MAX +
	    pool + 2, "the boxes");
	is_int(count(&pg, PAGE_QR, a), 1, "the QR code holds the code");
	for (size_t i = 0; i < pg.n; i++)
		if (pg.items[i].y > 365 || pg.items[i].x + pg.items[i].w >
		    539.001)
			ok(0, "item %zu outside the sheet", i);
	page_release(&pg);
	sh.st.att++;
	fbpage_code(&d, key, c);
	ok(strcmp(a, c) != 0, "ATT is covered");
	sh.st.att--;
	sh.hand = FB_LEFT;
	fbpage_code(&d, key, c);
	ok(strcmp(a, c) != 0, "the hand is covered");
	sh.hand = FB_RIGHT;
	fbpage_code(&d, key, c);
	is_str(c, a, "as printed, the same code");
	return tap_done();
}
