/*
 * fuzz_fb.c - fb-duel's text forms on the default board: stances
 * ("torso=4 att=6 heal=1"), boards, GEAS specs and a round's stored
 * options.  The first byte, '0' to '4', picks the parser.  What parses
 * must print back to the same thing; GEAS and round inputs are then
 * played on a fresh duel, where a refusal must leave the duel as it was
 * and an accepted stage must keep every counter accounted for.
 */
#include "common.h"

#include "fb/fb.h"
#include "fb/text.h"
#include "base/rng.h"

static struct fb_board B;
static const char *const names[2] = { "Ann", "Bob" };

static struct fb_sheet
sheet(int side)
{
	struct fb_sheet s;

	memset(&s, 0, sizeof s);
	s.side = side;
	s.hand = side;
	s.colour = side == FB_DARK ? FB_RED : FB_BLUE;
	s.level = 0;
	s.free_geas = -1;
	fb_stance_default(&B, &s.st);
	return s;
}

static void
ignore(void *arg, const char *m)
{
	(void)arg;
	FUZZ_CHECK(m[0] != '\0');
}

static void
duel(struct fb_state *s)
{
	struct fb_sheet a = sheet(FB_LIGHT), b = sheet(FB_DARK);

	fb_start(s, &B, &a, &b);
}

static void
stance(const char *text, int side)
{
	struct fb_stance st, back;
	struct fb_sheet sh = sheet(side);
	char why[FB_WHYSZ] = "", *canon;

	if (fbtext_stance_parse(&B, text, &st, why, sizeof why) != 0) {
		FUZZ_WHY(why);
		return;
	}
	canon = fbtext_stance_format(&B, &st);
	FUZZ_CHECK(fbtext_stance_parse(&B, canon, &back, why, sizeof why) == 0);
	FUZZ_CHECK(memcmp(&st, &back, sizeof st) == 0);
	sh.st = st;
	(void)fb_sheet_check(&B, &sh, ignore, NULL);
	free(canon);
}

static void
board(const char *text)
{
	static struct fb_board b, back;
	char why[FB_WHYSZ] = "", *canon, *again;

	memset(&b, 0, sizeof b);
	if (fbtext_board_parse(text, &b, why, sizeof why) != 0) {
		FUZZ_WHY(why);
		return;
	}
	canon = fbtext_board_format(&b);
	memset(&back, 0, sizeof back);
	FUZZ_CHECK(fbtext_board_parse(canon, &back, why, sizeof why) == 0);
	again = fbtext_board_format(&back);
	FUZZ_CHECK(strcmp(canon, again) == 0);
	free(canon);
	free(again);
}

static void
geas(const char *text, uint64_t seed)
{
	static struct fb_state s, before;
	struct fb_geas_in g;
	struct rng r;
	struct fb_report rep;
	char why[FB_WHYSZ] = "";

	if (fbtext_geas_parse(&B, names, text, &g, why, sizeof why) != 0) {
		FUZZ_WHY(why);
		return;
	}
	duel(&s);
	before = s;
	rng_seed(&r, seed);
	if (fb_geas(&s, &g, &r, &rep, why, sizeof why) != 0) {
		FUZZ_WHY(why);
		FUZZ_CHECK(memcmp(&s, &before, sizeof s) == 0);
	}
	FUZZ_CHECK(fb_invariants(&s, why, sizeof why) == 0);
}

static void
round_in(const char *text, uint64_t seed)
{
	static struct fb_state s, before;
	struct fb_in in, back;
	struct rng r;
	struct fb_report rep;
	char why[FB_WHYSZ] = "", *canon, *again;

	fb_in_init(&in);
	if (fbtext_in_parse(&B, names, text, &in, why, sizeof why) != 0) {
		FUZZ_WHY(why);
		return;
	}
	duel(&s);
	rng_seed(&r, seed);
	before = s;
	if (fb_initiative(&s, &in, &r, &rep, why, sizeof why) != 0) {
		FUZZ_CHECK(memcmp(&s, &before, sizeof s) == 0);
		return;
	}
	before = s;
	if (fb_aim(&s, &in, &r, &rep, why, sizeof why) != 0) {
		FUZZ_CHECK(memcmp(&s, &before, sizeof s) == 0);
		return;
	}
	before = s;
	if (fb_round(&s, &in, &r, &rep, why, sizeof why) != 0)
		FUZZ_CHECK(memcmp(&s, &before, sizeof s) == 0);
	FUZZ_CHECK(fb_invariants(&s, why, sizeof why) == 0);
	/* Every die is now given: the canonical text replays the same. */
	canon = fbtext_in_format(&B, names, &in);
	fb_in_init(&back);
	FUZZ_CHECK(fbtext_in_parse(&B, names, canon, &back, why,
	    sizeof why) == 0);
	again = fbtext_in_format(&B, names, &back);
	FUZZ_CHECK(strcmp(canon, again) == 0);
	free(canon);
	free(again);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (size < 1)
		return 0;
	if (B.ns == 0) {
		char why[FB_WHYSZ];

		fb_board_default(&B);
		if (fb_board_finish(&B, why, sizeof why) != 0)
			abort();
	}
	s = fuzz_str(data + 1, size - 1);
	switch ((uint8_t)(data[0] - '0') % 5) {
	case 0: stance(s, FB_LIGHT); break;
	case 1: stance(s, FB_DARK); break;
	case 2: board(s); break;
	case 3: geas(s, size); break;
	default: round_in(s, size); break;
	}
	free(s);
	return 0;
}
