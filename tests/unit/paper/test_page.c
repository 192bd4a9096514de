/*
 * test_page.c - the page description, the paper's slots, rows of boxes
 * to tick, and the sheets' verification code.
 */
#include "tap.h"

#include "paper/page.h"

static size_t
count(const struct page *pg, int kind)
{
	size_t n = 0;

	for (size_t i = 0; i < pg->n; i++)
		n += pg->items[i].kind == kind;
	return n;
}

static void
test_tally(void)
{
	struct page pg;
	double h;

	page_init(&pg, 300, 200);
	h = page_tally(&pg, 0, 0, 300, 10, 2, 20);
	is_int(count(&pg, PAGE_BOX), 20, "20 boxes, all shown");
	is_int(count(&pg, PAGE_TEXT), 0, "no note when all fit");
	is_int((long)h, 12, "one row of 12.5 points");
	page_release(&pg);

	page_init(&pg, 300, 200);
	/* (300 - 44) / 12.5 = 20 a row, 40 in two rows: 60 more. */
	page_tally(&pg, 0, 0, 300, 10, 2, 100);
	is_int(count(&pg, PAGE_BOX), 40, "two rows of 20 boxes");
	is_int(count(&pg, PAGE_TEXT), 1, "and a note");
	is_str(pg.items[pg.n - 1].text, "+60", "the note counts the rest");
	for (size_t i = 0; i < pg.n; i++)
		ok(pg.items[i].x + pg.items[i].w <= 300.001,
		    "item %zu within the width", i);
	page_release(&pg);

	page_init(&pg, 300, 200);
	page_tally(&pg, 0, 0, 300, 10, 2, 0);
	is_int((long)pg.n, 0, "no boxes for 0");
	page_release(&pg);
}

static void
test_paper(void)
{
	double x, y, w, h, pw, ph;

	is_int(page_paper_lookup("A4"), PAGE_A4, "A4");
	is_int(page_paper_lookup("letter"), PAGE_LETTER, "letter");
	is_int(page_paper_lookup("legal"), -1, "legal is not known");
	page_paper_size(PAGE_LETTER, &pw, &ph);
	is_int((long)pw, 612, "letter is 612 points wide");
	is_int((long)ph, 792, "and 792 high");
	page_slot(PAGE_A4, 2, 1, &x, &y, &w, &h);
	page_paper_size(PAGE_A4, &pw, &ph);
	ok(y > ph / 2 && y + h < ph, "the second slot in the lower half");
	ok(x + w < pw, "within the width");
}

static void
code_of(const char *key, const char *a, const char *b, char *code)
{
	struct page_code c;

	page_code_begin(&c, "crs", key);
	page_code_add(&c, a);
	page_code_add(&c, b);
	page_code_end(&c, code);
}

static void
test_code(void)
{
	const char *k1 = "0123456789abcdef0123456789abcdef";
	const char *k2 = "0123456789abcdef0123456789abcdee";
	char c1[PAGE_CODE_LEN + 1], c2[PAGE_CODE_LEN + 1],
	    c3[PAGE_CODE_LEN + 1];

	code_of(k1, "Fred", "Alice", c1);
	is_int((long)strlen(c1), PAGE_CODE_LEN, "19 characters");
	ok(c1[4] == '-' && c1[9] == '-' && c1[14] == '-', "four groups");
	code_of(k1, "Fred", "Alice", c2);
	is_str(c2, c1, "the same content, the same code");
	code_of(k2, "Fred", "Alice", c2);
	ok(strcmp(c1, c2) != 0, "another station's key, another code");
	code_of(k1, "Fre", "dAlice", c2);
	ok(strcmp(c1, c2) != 0, "fields are not merely concatenated");
	ok(page_code_parse(c1, c3) == 0, "the code parses");
	is_str(c3, c1, "as itself");
	ok(page_code_parse("0ayb 7ykx zrp0 nr4r", c3) == 0, "typed loosely");
	is_str(c3, "0AYB-7YKX-ZRP0-NR4R", "read in its printed form");
	ok(page_code_parse("OAYB-7YKX-ZRPO-NR4R", c3) == 0, "O for 0");
	is_str(c3, "0AYB-7YKX-ZRP0-NR4R", "O read as 0");
	ok(page_code_parse("iL00-0000-0000-0000", c3) == 0, "I and L");
	is_str(c3, "1100-0000-0000-0000", "read as 1");
	ok(page_code_parse("0AYB-7YKX-ZRP0-NR4", c3) != 0, "15 digits");
	ok(page_code_parse("0AYB-7YKX-ZRP0-NR4RR", c3) != 0, "17 digits");
	ok(page_code_parse("0AYB-7YKX-ZRP0-NR4U", c3) != 0, "U is not one");
	ok(page_code_parse("", c3) != 0, "empty");
}

int
main(void)
{
	struct page pg;

	page_init(&pg, 100, 50);
	page_textf(&pg, 1, 2, 30, 9, PAGE_BOLD, "%s %d", "LIFE", 20);
	page_qr(&pg, 50, 0, 40, "X");
	is_int((long)pg.n, 2, "two items");
	is_str(pg.items[0].text, "LIFE 20", "formatted text");
	is_int(pg.items[0].style, PAGE_BOLD, "its style");
	is_int((long)pg.items[1].h, 40, "a QR code is square");
	page_release(&pg);
	test_tally();
	test_paper();
	test_code();
	return tap_done();
}
