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

/* An attack as crs/text words it, in its parts. */
static const struct fit_part attack[] = {
	{ "  7  r2  ", "7 ", 2, 0 },
	{ "Brother Amos attacks Kestrel: ", NULL, 0, 1 },
	{ "16 (10,6) + OR 9 = 25", "25", 1, 0 },
	{ " against 8 + DR 2 = 10", " against 10", 1, 0 },
	{ "; hit for 15; Kestrel LIFE 20 -> 5", NULL, 0, 1 },
	{ " [physical: Brother Amos]", "", 0, 0 },
};
#define NATTACK (sizeof attack / sizeof attack[0])

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
	fitted(60, "~ attacks Kes~: 25 against 10; hit for 15; Kes~ LIFE 20 -> "
	    "5", "then the names, then the start, at a space");
	fitted(40, "~ 10; hit for 15; Kes~ LIFE 20 -> 5",
	    "the start, down to the outcome");
}

static void
test_fits_already(void)
{
	struct fit_part p[] = { { "Fred passes", "", 0, 1 } };
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
		{ "Kestrelson and Kestrel's sword", NULL, 0, 1 },
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
		{ "Émile strikes Zoë: ", NULL, 0, 1 },
		{ "9 + OR 4 = 13", "13", 1, 0 },
		{ "; misses", NULL, 0, 0 },
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
	test_fits_already();
	test_prefix();
	test_words();
	test_utf8();
	return tap_done();
}
