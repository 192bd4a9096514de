/*
 * fb/sim.c - fb-duel sim's duels, split over POSIX threads; see fb/sim.h.
 * Each job plays on copies of its own: the started duel, the generator
 * and the tally, so that the threads share nothing they write until the
 * caller, having joined them, adds their tallies up in job order.
 */
#include "fb/sim.h"

#include <err.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "base/util.h"

struct job {
	const struct fb_state	*s0;
	uint64_t		 seed;
	unsigned		 k;		/* the job, and its stream */
	long			 n, step;	/* the duels, and jobs */
	int			 max_rounds;
	long			 bad;		/* the first duel refused */
	struct fbsim_tally	 t;
};

static void *
job_play(void *arg)
{
	struct job *j = arg;
	struct fbsim_tally t;
	struct fb_state s;
	struct rng rng;

	memset(&t, 0, sizeof t);
	rng_stream(&rng, j->seed, j->k);
	for (long i = j->k; i < j->n; i += j->step) {
		int r;

		s = *j->s0;
		if ((r = fb_sim_duel(&s, &rng, j->max_rounds)) < 0) {
			j->bad = i + 1;
			break;
		}
		t.wins[s.winner + 1]++;
		t.ends[s.end]++;
		t.hist[r > FBSIM_HIST ? FBSIM_HIST : r]++;
		t.total += r;
	}
	j->t = t;
	return NULL;
}

long
fbsim_run(const struct fb_state *s0, uint64_t seed, long n, int jobs,
    int max_rounds, struct fbsim_tally *t)
{
	struct job *j;
	pthread_t *th;
	int *started, nj, rc;
	long bad = 0;

	/* Jobs beyond the n-th would play nothing. */
	nj = n < jobs ? (int)n : jobs;
	j = xcalloc((size_t)nj, sizeof *j);
	th = xcalloc((size_t)nj, sizeof *th);
	started = xcalloc((size_t)nj, sizeof *started);
	for (int k = 0; k < nj; k++) {
		j[k].s0 = s0;
		j[k].seed = seed;
		j[k].k = (unsigned)k;
		j[k].n = n;
		j[k].step = jobs;
		j[k].max_rounds = max_rounds;
	}
	for (int k = 1; k < nj; k++)
		started[k] = pthread_create(&th[k], NULL, job_play,
		    &j[k]) == 0;
	job_play(&j[0]);
	for (int k = 1; k < nj; k++) {
		if (!started[k])
			job_play(&j[k]);
		else if ((rc = pthread_join(th[k], NULL)) != 0) {
			errno = rc;
			err(1, "cannot join a sim thread");
		}
	}
	memset(t, 0, sizeof *t);
	for (int k = 0; k < nj; k++) {
		for (int w = 0; w < 3; w++)
			t->wins[w] += j[k].t.wins[w];
		for (int e = 0; e <= FB_E_LIMIT; e++)
			t->ends[e] += j[k].t.ends[e];
		for (int r = 0; r <= FBSIM_HIST; r++)
			t->hist[r] += j[k].t.hist[r];
		t->total += j[k].t.total;
		if (j[k].bad != 0 && (bad == 0 || j[k].bad < bad))
			bad = j[k].bad;
	}
	free(started);
	free(th);
	free(j);
	return bad;
}
