/*
 * fb/sim.h - many simulated duels between two sheets, split over jobs that
 * run on threads of their own, each on its own stream of the seed, and
 * their tallies summed.  No I/O; the result depends on the seed, the
 * number of duels and the number of jobs, never on the threads' timing.
 */
#ifndef REFKIT_FB_SIM_H
#define REFKIT_FB_SIM_H

#include <stdint.h>

#include "fb/fb.h"

#define FBSIM_HIST	1000	/* the most rounds a simulated duel plays */
#define FBSIM_MAXJOBS	256

/* What the duels came to. */
struct fbsim_tally {
	long	wins[3];		/* draws, then A's and B's wins */
	long	ends[FB_E_LIMIT + 1];	/* by FB_E_* */
	long	total;			/* rounds, over every duel */
	long	hist[FBSIM_HIST + 1];	/* duels by the rounds they took */
};

/*
 * Plays n duels, each from a copy of the started duel s0, by the built-in
 * strategy (fb_sim_duel) and at most max_rounds rounds (1 to FBSIM_HIST),
 * as jobs jobs (1 to FBSIM_MAXJOBS): job k, from 0, plays duels k + 1,
 * k + 1 + jobs, k + 1 + 2 jobs ... in turn on stream k of the seed
 * (rng_stream), and the jobs' tallies are added up.  One job is one
 * stream through every duel.  Jobs after the first run on threads of
 * their own, and on the caller's if a thread cannot be started, with the
 * same result.  s0 and its board are only read.
 *
 * Returns 0 with t filled in, or the number (from 1) of the first duel in
 * which the strategy asked for what the rules refuse, a bug.
 */
long fbsim_run(const struct fb_state *s0, uint64_t seed, long n, int jobs,
    int max_rounds, struct fbsim_tally *t);

#endif
