/*
 * test_sheetpage.c - a CRS character's printed sheet: what it lays out,
 * that everything stays within the sheet, how the lists give way on a
 * short sheet, and what the code covers.
 */
#include "tap.h"

#include "crs/page.h"

#include <stdlib.h>

static const char key[] = "0123456789abcdef0123456789abcdef";

/* Fred with STR 12 AGI 16 CUN 14 CON 10 ENE 30 LUC 12 LEVEL 2. */
static void
fred(struct sheet *sh, struct item *items, struct power *pw)
{
	static const char *const kv[][2] = {
		{ "name", "Fred" }, { "player", "Alice" }, { "STR", "12" },
		{ "AGI", "16" }, { "CUN", "14" }, { "CON", "10" },
		{ "ENE", "30" }, { "LUC", "12" }, { "LEVEL", "2" },
		{ "INT", "10" }, { "CHA", "12" }
	};
	char why[160];

	sheet_init(sh);
	for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
		sheet_set_field(sh, sheet_field_lookup(kv[i][0]), kv[i][1],
		    why, sizeof why);
	item_init(&items[0], "Chain Mail");
	item_set(&items[0], "dr", "+3", why, sizeof why);
	item_set(&items[0], "use", "wearable", why, sizeof why);
	item_power_init(pw, "Fireball");
	item_power_set(pw, "em", "5", why, sizeof why);
	item_power_set(pw, "picks", "2", why, sizeof why);
}

static void
prepare(struct crspage_char *c, const struct sheet *sh,
    const struct item *items, size_t ni, const struct power *pw, size_t np)
{
	c->sh = sh;
	c->qr = NULL;
	c->items = items;
	c->nitems = ni;
	c->powers = pw;
	c->npowers = np;
	sheet_secondary(sh, STATS_ROUND_WHOLE, items, ni, c->st);
}

static const struct page_item *
find(const struct page *pg, const char *text)
{
	for (size_t i = 0; i < pg->n; i++)
		if (pg->items[i].text && strstr(pg->items[i].text, text))
			return &pg->items[i];
	return NULL;
}

static size_t
count(const struct page *pg, int kind)
{
	size_t n = 0;

	for (size_t i = 0; i < pg->n; i++)
		n += pg->items[i].kind == kind;
	return n;
}

static const char notes[] = "Sworn to the Grey Order; owes Mary a favour.\n"
    "Carries the broken seal of the old keep.";

/*
 * OR 9, DR 17, LIFE 20, EM 12 and IN 5 (effective), each in a box with
 * its name, the value centred in digits of 48 points on a sheet to a
 * page, 22 on half of one.
 */
static void
big_stats(const struct page *pg, double h)
{
	static const char *const want[] = { "9", "17", "20", "12", "5" };
	size_t k = 0;

	for (size_t i = 0; i < pg->n && k < 5; i++) {
		const struct page_item *it = &pg->items[i];

		if (it->kind == PAGE_TEXT && it->centred &&
		    strcmp(it->text, want[k]) == 0 &&
		    it->h == (h > 600 ? 48 : 22))
			k++;
	}
	is_int((long)k, 5, "%.0f: OR, DR, LIFE, EM, IN in big digits", h);
}

static void
test_layout(struct crspage_char *c, double h)
{
	struct page pg;
	char code[PAGE_CODE_LEN + 1];
	const struct page_item *it;
	int inside = 1;

	crspage_code(c, key, code);
	page_init(&pg, 539, h);
	crspage_layout(c, code, &pg);
	ok(find(&pg, "Fred") != NULL, "%.0f: the name", h);
	ok(find(&pg, "Player: Alice") != NULL, "%.0f: the player", h);
	it = find(&pg, "DR   ");
	ok(it && strcmp(it->text, "DR       14         17") == 0,
	    "%.0f: DR 14, 17 with the chain mail, no source: computed", h);
	is_str(find(&pg, "STAT ")->text, "STAT  VALUE  EFFECTIVE",
	    "%.0f: no SOURCE column when every value is computed", h);
	big_stats(&pg, h);
	ok(find(&pg, "Chain Mail: +3 DR; short and long range; wearable") != NULL,
	    "%.0f: the item with its modifiers and use", h);
	ok(find(&pg, "Fireball: EM 5 or more; 2 picks") != NULL,
	    "%.0f: the power with its EM cost and picks", h);
	ok(find(&pg, h > 600 ? "3 x 10 (LB 2): 12 cards" :
	    "AC deck: 12 cards, 3 x 10 (LB 2)") != NULL,
	    "%.0f: the deck for LB 2", h);
	/* LIFE 20 and EM 12: a box each; five big stats; the notes' box. */
	is_int(count(&pg, PAGE_BOX), 20 + 12 + 5 + (h > 600),
	    "%.0f: a box per LIFE and EM, per big stat, for the notes", h);
	it = find(&pg, "Sworn to");
	ok(it && it->kind == PAGE_PARA && strcmp(it->text, notes) == 0,
	    "%.0f: the notes printed whole, wrapped", h);
	is_int(count(&pg, PAGE_RULE), 1, "%.0f: the tear-off rule", h);
	is_int(count(&pg, PAGE_QR), 1, "%.0f: one QR code", h);
	it = find(&pg, code);
	ok(it != NULL, "%.0f: the code printed", h);
	for (size_t i = 0; i < pg.n; i++)
		if (pg.items[i].kind == PAGE_QR)
			is_str(pg.items[i].text, c->qr ? c->qr : code,
			    "%.0f: the QR holds %s", h, c->qr ?
			    "the address given" : "the code");
	for (size_t i = 0; i < pg.n; i++) {
		const struct page_item *p = &pg.items[i];
		double bottom = p->y + (p->kind == PAGE_TEXT ? p->h * 1.3 :
		    p->h);

		if (p->kind == PAGE_PARA && p->h < p->size * 1.3)
			inside = 0;

		if (p->x < 0 || p->y < 0 || p->x + p->w > pg.w + 0.001 ||
		    bottom > pg.h + 0.001)
			inside = 0;
	}
	ok(inside, "%.0f: every item within the sheet", h);
	page_release(&pg);
}

/*
 * Mary: four stats given and three missing: the SOURCE column says so
 * for them, and a line says what the dashes are.
 */
static void
test_given(const struct crspage_char *fred)
{
	static const char *const kv[][2] = { { "name", "Mary" },
	    { "OR", "8" }, { "DR", "12" }, { "MIND", "6" }, { "LIFE", "20" } };
	struct crspage_char c = *fred;
	struct sheet sh;
	struct page pg;
	char why[160];

	sheet_init(&sh);
	for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
		sheet_set_field(&sh, sheet_field_lookup(kv[i][0]), kv[i][1],
		    why, sizeof why);
	prepare(&c, &sh, NULL, 0, NULL, 0);
	page_init(&pg, 539, 786);
	crspage_layout(&c, "0000-0000-0000-0000", &pg);
	is_str(find(&pg, "STAT ")->text, "STAT  VALUE  EFFECTIVE  SOURCE",
	    "a SOURCE column when a value is given");
	is_str(find(&pg, "OR   ")->text, "OR        8          8  given",
	    "OR given");
	is_str(find(&pg, "EM   ")->text, "EM        -          -  not set",
	    "EM missing");
	ok(find(&pg, "-: not set") != NULL, "the dashes explained");
	ok(find(&pg, "NOTES") != NULL && find(&pg, "Sworn") == NULL,
	    "no notes: the box, empty");
	page_release(&pg);
	sheet_release(&sh);
}

/* Sixty items on a sheet two share a page with. */
static void
test_many(const struct sheet *sh)
{
	struct item items[60];
	struct crspage_char c;
	struct page pg;
	char name[32];
	size_t lines = 0;
	const struct page_item *more;

	for (int i = 0; i < 60; i++) {
		snprintf(name, sizeof name, "Item %02d", i);
		item_init(&items[i], name);
	}
	prepare(&c, sh, items, 60, NULL, 0);
	page_init(&pg, 539, 365);
	crspage_layout(&c, "0000-0000-0000-0000", &pg);
	for (size_t i = 0; i < pg.n; i++)
		lines += pg.items[i].text &&
		    strncmp(pg.items[i].text, "Item ", 5) == 0;
	ok(lines > 5 && lines < 60, "some of the 60 items listed (%zu)",
	    lines);
	more = find(&pg, "more lines");
	ok(more != NULL, "and a line for the rest");
	if (more)
		ok(strstr(more->text, "... ") == more->text, "%s", more->text);
	page_release(&pg);
	for (int i = 0; i < 60; i++)
		item_release(&items[i]);
}

static void
test_code(const struct sheet *sh, struct item *items, struct power *pw)
{
	struct crspage_char c;
	struct sheet copy;
	char a[PAGE_CODE_LEN + 1], b[PAGE_CODE_LEN + 1], why[160];

	prepare(&c, sh, items, 1, pw, 1);
	crspage_code(&c, key, a);
	items[0].mod[ITEM_DR] = 4;
	prepare(&c, sh, items, 1, pw, 1);
	crspage_code(&c, key, b);
	ok(strcmp(a, b) != 0, "an item's modifier is covered");
	items[0].mod[ITEM_DR] = 3;
	pw->em = 4;
	prepare(&c, sh, items, 1, pw, 1);
	crspage_code(&c, key, b);
	ok(strcmp(a, b) != 0, "a power's EM cost is covered");
	pw->em = 5;
	prepare(&c, sh, items, 1, pw, 0);
	crspage_code(&c, key, b);
	ok(strcmp(a, b) != 0, "a power taken away is caught");
	sheet_init(&copy);
	sheet_set_field(&copy, SHEET_F_NAME, "Fred", why, sizeof why);
	prepare(&c, &copy, items, 1, pw, 1);
	crspage_code(&c, key, b);
	ok(strcmp(a, b) != 0, "the stats are covered");
	sheet_release(&copy);
	prepare(&c, sh, items, 1, pw, 1);
	crspage_code(&c, key, b);
	is_str(b, a, "back as printed, the same code");
}

int
main(void)
{
	struct sheet sh;
	struct item items[1];
	struct power pw;
	struct crspage_char c;
	char why[160], a[PAGE_CODE_LEN + 1], b[PAGE_CODE_LEN + 1];

	fred(&sh, items, &pw);
	prepare(&c, &sh, items, 1, &pw, 1);
	sheet_set_field(&sh, SHEET_F_NOTES, notes, why, sizeof why);
	test_layout(&c, 786);
	test_layout(&c, 365);
	c.qr = "http://192.168.1.20:8080/character/Fred?sheet=0AYB-7YKX-ZRP0-NR4R";
	test_layout(&c, 786);
	c.qr = NULL;
	test_given(&c);
	crspage_code(&c, key, a);
	sheet_set_field(&sh, SHEET_F_NOTES, "Sworn to the Red Order", why,
	    sizeof why);
	crspage_code(&c, key, b);
	ok(strcmp(a, b) != 0, "the notes, printed, are covered");
	test_many(&sh);
	test_code(&sh, items, &pw);
	item_release(&items[0]);
	item_power_release(&pw);
	sheet_release(&sh);
	return tap_done();
}
