/*
 * versus.c - times the exact matchup behind "crs-draw versus": every
 * offence 0..40 against every defence 0..40, with LB 0..3 on each side,
 * each evaluated exactly (both pick laws, P(hit), expected damage and the
 * damage distribution).  Prints the count, the total time and the time
 * per evaluation, and a checksum so the work cannot be optimised away.
 */
#include <stdio.h>
#include <time.h>

#include "crs/odds.h"

int
main(void)
{
	struct timespec t0, t1;
	long double check = 0;
	long n = 0;
	double secs;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int olb = 0; olb <= 3; olb++)
		for (int dlb = 0; dlb <= 3; dlb++)
			for (int o = 0; o <= 40; o++)
				for (int d = 0; d <= 40; d++) {
					struct deck od, dd;
					struct odds_dist a, b;
					struct odds_versus v;

					deck_init(&od, olb);
					deck_init(&dd, dlb);
					odds_pick(&od, 1, o, ODDS_ATTACK, &a);
					odds_pick(&dd, 1, d, ODDS_DEFENSE, &b);
					odds_versus(&a, &b, &v);
					check += odds_p(v.hit, v.den) +
					    odds_p(v.damage_sum, v.den);
					odds_versus_release(&v);
					odds_dist_release(&a);
					odds_dist_release(&b);
					n++;
				}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("%ld %.6f %.3f %.6Lf\n", n, secs, secs / (double)n * 1e6,
	    check);
	return 0;
}
