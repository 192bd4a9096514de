/*
 * test_fbsim.c - the sim split over jobs: one job is the single stream
 * duel for duel, more jobs are their streams dealt the duels in turn, the
 * same result every run, and jobs beyond the number of duels change
 * nothing; on the lean path and the stage-by-stage one.
 */
#include <string.h>

#include "tap.h"

#include "fb/fb.h"
#include "fb/sim.h"

static struct fb_board B;

static struct fb_sheet
sheet(int side, int hand, int level)
{
	struct fb_sheet s;

	memset(&s, 0, sizeof s);
	s.side = side;
	s.hand = hand;
	s.colour = side == FB_DARK ? FB_RED : FB_BLUE;
	s.level = level;
	s.free_geas = -1;
	fb_stance_default(&B, &s.st);
	return s;
}

/* The tally fbsim_run must give, played here duel by duel. */
static void
by_hand(const struct fb_state *s0, uint64_t seed, long n, int jobs,
    int maxr, struct fbsim_tally *t)
{
	memset(t, 0, sizeof *t);
	for (int k = 0; k < jobs; k++) {
		struct rng rng;

		rng_stream(&rng, seed, (unsigned)k);
		for (long i = k; i < n; i += jobs) {
			struct fb_state s = *s0;
			int r = fb_sim_duel(&s, &rng, maxr);

			t->wins[s.winner + 1]++;
			t->ends[s.end]++;
			t->hist[r]++;
			t->total += r;
		}
	}
}

static int
same(const struct fbsim_tally *a, const struct fbsim_tally *b)
{
	return memcmp(a, b, sizeof *a) == 0;
}

static long
duels(const struct fbsim_tally *t)
{
	long n = 0;

	for (int r = 0; r <= FBSIM_HIST; r++)
		n += t->hist[r];
	return n;
}

static void
pair(const char *what, const struct fb_state *s0, long n, int maxr)
{
	struct fbsim_tally t, t2, want;

	is_int(fbsim_run(s0, 5, n, 1, maxr, &t), 0, "%s: one job plays", what);
	by_hand(s0, 5, n, 1, maxr, &want);
	ok(same(&t, &want), "%s: one job is the seed's one stream", what);
	is_int(duels(&t), n, "%s: every duel counted once", what);
	is_int(t.wins[0] + t.wins[1] + t.wins[2], n,
	    "%s: every duel won or drawn", what);
	is_int(fbsim_run(s0, 5, n, 3, maxr, &t), 0, "%s: three jobs play",
	    what);
	by_hand(s0, 5, n, 3, maxr, &want);
	ok(same(&t, &want), "%s: three jobs are streams 0-2 dealt the duels "
	    "in turn", what);
	fbsim_run(s0, 5, n, 3, maxr, &t2);
	ok(same(&t, &t2), "%s: three jobs again, the same result", what);
	fbsim_run(s0, 5, n, 2, maxr, &t2);
	ok(!same(&t, &t2), "%s: two jobs, another result", what);
	fbsim_run(s0, 5, 4, 4, maxr, &t);
	fbsim_run(s0, 5, 4, 200, maxr, &t2);
	ok(same(&t, &t2), "%s: jobs beyond the duels change nothing", what);
}

int
main(void)
{
	struct fb_sheet a, b;
	struct fb_state s0;

	fb_board_default(&B);
	a = sheet(FB_LIGHT, FB_RIGHT, FB_LEARNER);
	b = sheet(FB_DARK, FB_LEFT, FB_LEARNER);
	fb_start(&s0, &B, &a, &b);
	pair("learners", &s0, 20000, FBSIM_HIST);
	pair("learners, 3 rounds at most", &s0, 2000, 3);
	a = sheet(FB_LIGHT, FB_RIGHT, FB_TEMPLAR);
	a.st.geas[FB_HEAL] = 2;
	a.st.geas[FB_PROTECT] = 2;
	a.st.geas[FB_JUMP] = 1;
	b = sheet(FB_DARK, FB_LEFT, FB_DIAMEDES);
	b.free_geas = FB_LIGHTNING;
	b.st.geas[FB_RAGE] = 3;
	b.st.geas[FB_CHOKE] = 2;
	b.st.geas[FB_SPEED] = 2;
	fb_start(&s0, &B, &a, &b);
	pair("GEAS, stage by stage", &s0, 5000, FBSIM_HIST);
	return tap_done();
}
