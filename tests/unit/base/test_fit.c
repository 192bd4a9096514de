/*
 * test_fit.c - a line fitted to 40, 60, 80 and 120 columns: what gives
 * way first (notes, then breakdowns, then names, then the start), and
 * that the outcome at the end always stays.
 */
#include "tap.h"

#include <stdlib.h>
#include <string.h>

#include "base/fit.h"

static const char *const names[] = { "Fred", "John", "Brother Amos",
    "Brother Bede", "Kestrel" };
#define NNAMES (sizeof names / sizeof names[0])

/*
 * An attack as crs/text words it, in its parts: the note goes (rank 0),
 * the breakdowns give way to their totals (1), the number (2), the totals
 * to nothing (3).
 */
static const struct fit_part attack[] = {
	{ "  7  r2  ", "7 ", 2, 0, NULL, 0 },
	{ "Brother Amos attacks Kestrel: ", NULL, 0, 1,
	    "Brother Amos attacks Kestrel", 3 },
	{ "16 (10,6) + OR 9 = 25", "25", 1, 0, "", 3 },
	{ " against 8 + DR 2 = 10", " against 10", 1, 0, "", 3 },
	{ "; hit for 15; Kestrel LIFE 20 -> 5", NULL, 0, 1, NULL, 0 },
	{ " [physical: Brother Amos]", "", 0, 0, NULL, 0 },
};
#define NATTACK (sizeof attack / sizeof attack[0])

/* A Flee that gets away, and its Catch; the outcome's words at rank 4. */
static const char *const fleeing[] = { "Fred", "John", "Grim, the Unbowed",
    "Esk" };
static const struct fit_part flee[] = {
	{ " 10  r1  ", "", 2, 0, NULL, 0 },
	{ "Esk flees: ", NULL, 0, 1, "Esk flees", 3 },
	{ "19 (10,9) + DR 5 = 24", "24", 1, 0, "", 3 },
	{ "; Catch: Fred 2 + 6 = 8", "; Catch: Fred 8", 1, 1, "", 3 },
	{ ", Grim, the Unbowed 3 + 7 = 10", ", Grim, the Unbowed 10", 1, 1,
	    "", 3 },
	{ ", John 4 + 6 = 10", ", John 10", 1, 1, "", 3 },
	{ "; gets away: out of every combat until 2026-11-23 03:13:20 UTC",
	    "; gets away until 2026-11-23 03:13:20 UTC", 4, 1, NULL, 0 },
	{ " [physical: Esk, Fred, Grim, the Unbowed, John]", "", 0, 0, NULL,
	    0 },
};
#define NFLEE (sizeof flee / sizeof flee[0])

/*
 * An initiative: each entry's breakdown gives way to its total, then the
 * totals and the word go before a name is cut; the order stays.
 */
static const char *const order[] = { "Kestrel", "Ysolde", "Brother Amos",
    "Brother Bede" };
static const struct fit_part init[] = {
	{ "  6  r1  ", "", 2, 0, NULL, 0 },
	{ "initiative:", NULL, 0, 0, "init:", 3 },
	{ " Kestrel 9 + IN 5 = 14", " Kestrel 14", 1, 1, " Kestrel", 3 },
	{ ", Ysolde 8 + IN 4 = 12", ", Ysolde 12", 1, 1, ", Ysolde", 3 },
	{ ", Brother Amos 7 + IN 3 = 10", ", Brother Amos 10", 1, 1,
	    ", Brother Amos", 3 },
	{ ", Brother Bede 6 + IN 2 = 8", ", Brother Bede 8", 1, 1,
	    ", Brother Bede", 3 },
	{ " [drawn: Kestrel, Ysolde, Brother Amos, Brother Bede]", "", 0, 0,
	    NULL, 0 },
};
#define NINIT (sizeof init / sizeof init[0])

/* p fitted to width is want, no wider, and holds each of keep. */
static void
fitted_as(const struct fit_part *p, size_t n, const char *const *nm,
    size_t nn, int width, const char *want, const char *const *keep)
{
	char *s = fit_line(p, n, width, nm, nn, "~");

	is_str(s, want, "%d columns: '%s'", width, want);
	ok(fit_width(s) <= width, "%d columns: no wider", width);
	for (; *keep; keep++)
		ok(strstr(s, *keep) != NULL, "%d columns: '%s' stays", width,
		    *keep);
	free(s);
}

static void
fitted(int width, const char *want, const char *what)
{
	char *s = fit_line(attack, NATTACK, width, names, NNAMES, "~");

	is_str(s, want, "%d columns: %s", width, what);
	ok(fit_width(s) <= width, "%d columns: no wider than the screen",
	    width);
	ok(strstr(s, "hit for 15;") != NULL && strstr(s, "LIFE 20 -> 5"),
	    "%d columns: the outcome stays", width);
	free(s);
}

static void
test_widths(void)
{
	fitted(120, "  7  r2  Brother Amos attacks Kestrel: 16 (10,6) + OR 9 = "
	    "25 against 8 + DR 2 = 10; hit for 15; Kestrel LIFE 20 -> 5",
	    "the note goes first");
	fitted(80, "7 Brother Amos attacks Kestrel: 25 against 10; hit for 15; "
	    "Kestrel LIFE 20 -> 5", "then the breakdowns, then the number's "
	    "spaces");
	fitted(60, "7 Brother A~ attacks Kes~; hit for 15; Kes~ LIFE 20 -> 5",
	    "then the totals, then the names: who acted stays");
	fitted(40, "~ Kes~; hit for 15; Kes~ LIFE 20 -> 5",
	    "the start, down to the outcome");
}

static void
test_flee(void)
{
	static const char *const who[] = { "Esk flees", "gets away", NULL };
	static const char *const away[] = { "away until", "03:13:20 UTC",
	    NULL };

	fitted_as(flee, NFLEE, fleeing, 4, 121, "Esk flees: 24; Catch: Fred 8, "
	    "Grim, the Unbowed 10, John 10; gets away: out of every combat "
	    "until 2026-11-23 03:13:20 UTC", who);
	fitted_as(flee, NFLEE, fleeing, 4, 120, "Esk flees; gets away: out of "
	    "every combat until 2026-11-23 03:13:20 UTC", who);
	fitted_as(flee, NFLEE, fleeing, 4, 80, "Esk flees; gets away: out of "
	    "every combat until 2026-11-23 03:13:20 UTC", who);
	fitted_as(flee, NFLEE, fleeing, 4, 60, "Esk flees; gets away until "
	    "2026-11-23 03:13:20 UTC", who);
	fitted_as(flee, NFLEE, fleeing, 4, 40, "~ away until 2026-11-23 "
	    "03:13:20 UTC", away);
}

static void
test_initiative(void)
{
	static const char *const full[] = { "initiative:", "Kestrel 9 + IN "
	    "5 = 14", "Brother Bede 6 + IN 2 = 8", NULL };
	static const char *const totals[] = { "initiative:", "Kestrel 14",
	    "Ysolde 12", "Brother Amos 10", "Brother Bede 8", NULL };
	static const char *const names60[] = { "init: Kestrel, Ysolde, "
	    "Brother Amos, Brother Bede", NULL };
	static const char *const names40[] = { "init: Kes~, Yso~, Brother A~, "
	    "Brother B~", NULL };

	fitted_as(init, NINIT, order, 4, 120, "  6  r1  initiative: Kestrel 9 "
	    "+ IN 5 = 14, Ysolde 8 + IN 4 = 12, Brother Amos 7 + IN 3 = 10, "
	    "Brother Bede 6 + IN 2 = 8", full);
	fitted_as(init, NINIT, order, 4, 80, "  6  r1  initiative: Kestrel 14, "
	    "Ysolde 12, Brother Amos 10, Brother Bede 8", totals);
	fitted_as(init, NINIT, order, 4, 60, "init: Kestrel, Ysolde, Brother "
	    "Amos, Brother Bede", names60);
	fitted_as(init, NINIT, order, 4, 40, "init: Kes~, Yso~, Brother A~, "
	    "Brother B~", names40);
}

static void
test_fits_already(void)
{
	struct fit_part p[] = { { "Fred passes", "", 0, 1, NULL, 0 } };
	char *s = fit_line(p, 1, 40, names, NNAMES, "~");

	is_str(s, "Fred passes", "a line that fits is as it was");
	free(s);
	s = fit_line(p, 1, 0, names, NNAMES, "~");
	is_str(s, "Fred passes", "width 0: no limit");
	free(s);
}

static void
test_prefix(void)
{
	size_t len = 0;

	ok(fit_unique_prefix(names, NNAMES, 2, &len), "Brother Amos has one");
	is_int(len, 9, "'Brother A' tells it from 'Brother Bede'");
	ok(fit_unique_prefix(names, NNAMES, 4, &len), "Kestrel has one");
	is_int(len, 3, "three characters at least");
	ok(fit_unique_prefix(names, NNAMES, 0, &len) && len == 3,
	    "Fred: 'Fre', which fit_line leaves whole ('Fre~' is no shorter)");
	{
		static const char *const two[] = { "Ann", "Anna" };

		ok(!fit_unique_prefix(two, 2, 0, &len),
		    "a name that starts another has none");
		ok(fit_unique_prefix(two, 2, 1, &len) == 0,
		    "nor the longer, which only its whole length tells");
	}
}

static void
test_words(void)
{
	static const struct fit_part p[] = {
		{ "Kestrelson and Kestrel's sword", NULL, 0, 1, NULL, 0 },
	};
	static const char *const k[] = { "Kestrel", "Amos" };
	char *s = fit_line(p, 1, 28, k, 2, "~");

	is_str(s, "Kestrelson and Kes~'s sword",
	    "whole names only, not inside a longer word");
	free(s);
}

static void
test_utf8(void)
{
	static const struct fit_part p[] = {
		{ "Émile strikes Zoë: ", NULL, 0, 1, NULL, 0 },
		{ "9 + OR 4 = 13", "13", 1, 0, NULL, 0 },
		{ "; misses", NULL, 0, 0, NULL, 0 },
	};
	static const char *const n[] = { "Émile", "Zoë" };
	char *s = fit_line(p, 3, 20, n, 2, "…");

	is_int(fit_width("Zoë…"), 4, "a UTF-8 character counts once");
	is_str(s, "… Zoë: 13; misses", "cut by characters, not bytes");
	is_int(fit_width(s), 17, "17 wide, from the space");
	free(s);
}

static void
test_fold(void)
{
	char *s = fit_fold("Esk fled: out of every combat until 14:10\n"
	    "melee: Fred, John\n", 20, 2);

	is_str(s, "Esk fled: out of\n  every combat until\n  14:10\n"
	    "melee: Fred, John\n", "folded at spaces, indented, short lines "
	    "as they were");
	free(s);
	s = fit_fold("Kestrelsonofkestrel fled\n", 10, 2);
	is_str(s, "Kestrelson\n  ofkestre\n  l fled\n",
	    "a word longer than the line is broken");
	free(s);
	s = fit_fold("a b\n", 0, 2);
	is_str(s, "a b\n", "width 0: as it was");
	free(s);
}

int
main(void)
{
	test_fold();
	test_widths();
	test_flee();
	test_initiative();
	test_fits_already();
	test_prefix();
	test_words();
	test_utf8();
	return tap_done();
}
