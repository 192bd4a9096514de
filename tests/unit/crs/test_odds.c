/*
 * test_odds.c - exact odds: the closed forms of odds.c against a
 * brute-force walk over every draw sequence, the book's numbers, exact
 * fractions, matchups, and a chi-square test of a million virtual picks.
 */
#include "tap.h"

#include <math.h>
#include <stdlib.h>

#include "crs/odds.h"

#define TMAX 400

/*
 * The reference: walks every sequence of draws the rules allow, with its
 * probability, and adds it to dist[total].  No cleverness at all.
 */
static void
walk(struct deck d, int side, int left, int sum, int base, long double p,
    long double *dist)
{
	int n = deck_size(&d);

	if (left == 0) {
		dist[base + sum] += p;
		return;
	}
	if (n == 0) {
		dist[0] += p;	/* the deck ran out */
		return;
	}
	for (int f = 1; f <= 10; f++) {
		struct deck e = d;
		long double q = p * d.avail[f] / n;

		if (d.avail[f] == 0)
			continue;
		e.avail[f]--;
		if (f == DECK_ACE) {
			if (side == ODDS_ATTACK) {
				dist[0] += q;
				continue;
			}
			/* The special draw, the Ace held out. */
			int m = deck_size(&e);

			if (m == 0) {
				dist[0] += q;
				continue;
			}
			for (int g = 2; g <= 10; g++) {
				int tot = g == 10 ? base : base - g;

				if (e.avail[g])
					dist[tot < 0 ? 0 : tot] +=
					    q * e.avail[g] / m;
			}
		} else if (f == DECK_TEN)
			walk(e, side, left, sum + 10, base, q, dist);
		else
			walk(e, side, left - 1, sum + f, base, q, dist);
	}
}

static int
same(const struct deck *d, int k, int base, int side, const char *what)
{
	static long double ref[TMAX];
	struct odds_dist od;
	long double worst = 0, total = 0;

	memset(ref, 0, sizeof ref);
	walk(*d, side, k, 0, base, 1.0L, ref);
	odds_pick(d, k, base, side, &od);
	for (int x = 0; x < TMAX; x++) {
		long double got = x < od.n ? odds_p(od.w[x], od.den) : 0;

		total += got;
		if (fabsl(got - ref[x]) > worst)
			worst = fabsl(got - ref[x]);
	}
	odds_dist_release(&od);
	return tap_ok(worst < 1e-15L && fabsl(total - 1) < 1e-15L, __FILE__,
	    __LINE__, "%s matches the brute-force walk", what);
}

static char *
frac(struct odds_w w, struct odds_w den)
{
	static char buf[4][128];
	static int i;

	i = (i + 1) % 4;
	if (odds_fraction(w, den, buf[i], sizeof buf[i]) != 0)
		return "overflow";
	return buf[i];
}

int
main(void)
{
	struct deck d;
	struct odds_dist od, dd;
	struct odds_versus v;
	char why[128], what[128];
	int faces[12], fails = 0;

	/* The book's full deck, LB 0. */
	deck_init(&d, 0);
	odds_pick(&d, 1, 0, ODDS_ATTACK, &od);
	is_str(frac(od.fumble, od.den), "1/9", "P(fumble) = 1/9");
	is_str(frac(od.w[2], od.den), "1/10", "P(2) = 1/10");
	is_str(frac(od.w[12], od.den), "1/90", "P(12) = 1/90");
	is_str(frac(od.w[10], od.den), "0", "P(10) = 0: a 10 never stands "
	    "alone");
	is_str(frac(od.w[0], od.den), "1/9", "P(0) is the fumble");
	odds_dist_release(&od);
	/* LB 1: two 10s. */
	deck_init(&d, 1);
	odds_pick(&d, 1, 0, ODDS_ATTACK, &od);
	is_str(frac(od.fumble, od.den), "1/9", "LB 1: P(fumble) still 1/9 "
	    "(K/m)");
	is_str(frac(od.w[5], od.den), "1/11", "LB 1: P(5) = 1/11");
	is_str(frac(od.w[15], od.den), "1/55", "LB 1: P(15) = 2/11 * 1/10");
	is_str(frac(od.w[25], od.den), "1/495", "LB 1: P(25) = 2/11*1/10*1/9");
	odds_dist_release(&od);
	/* Set aside 2,3,4: P(fumble) = 1/6. */
	deck_init(&d, 0);
	deck_set_aside(&d, (int[]){ 2, 3, 4 }, 3, why, sizeof why);
	odds_pick(&d, 1, 0, ODDS_ATTACK, &od);
	is_str(frac(od.fumble, od.den), "1/6", "2,3,4 out: P(fumble) = 1/6");
	is_str(frac(od.w[2], od.den), "0", "2,3,4 out: P(2) = 0");
	odds_dist_release(&od);
	/* Only 10s left: empty. */
	deck_init(&d, 2);
	deck_parse_list("2,3,4,5,6,7,8,9", faces, 12, why, sizeof why);
	deck_set_aside(&d, faces, 8, why, sizeof why);
	d.avail[1] = 0;
	odds_pick(&d, 1, 7, ODDS_ATTACK, &od);
	is_str(frac(od.empty, od.den), "1", "only 10s: the deck runs out");
	is_str(frac(od.w[0], od.den), "1", "only 10s: total 0");
	odds_dist_release(&od);
	/* The defensive Ace from a full LB 0 deck with DR 5. */
	deck_init(&d, 0);
	odds_pick(&d, 1, 5, ODDS_DEFENSE, &od);
	/*
	 * Defence 1 is a special 4: Ace first (1/10) then the 4 of nine
	 * (1/9), or 10, Ace (1/90) then the 4 of eight: 1/90 + 1/720.
	 * Defence 5 is a special 10: Ace first, then the 10 of nine.
	 */
	is_str(frac(od.w[1], od.den), "1/80", "DR 5, special 4: defence 1");
	is_str(frac(od.w[5], od.den), "1/90", "DR 5, special 10: defence 5");
	odds_dist_release(&od);

	/* The closed forms against brute force, over many deck states. */
	for (int lb = 0; lb <= 3; lb++)
		for (int k = 1; k <= 3; k++)
			for (int mask = 0; mask < 64; mask += 7)
				for (int side = 0; side < 2; side++) {
					int n = 0;

					deck_init(&d, lb);
					for (int b = 0; b < 6; b++)
						if (mask & (1 << b))
							faces[n++] = 2 + b;
					if (mask & 32 && lb > 0)
						faces[n++] = 10;
					deck_set_aside(&d, faces, n, why,
					    sizeof why);
					snprintf(what, sizeof what, "LB %d, %d "
					    "card(s), out mask %d, %s", lb, k,
					    mask, side ? "defence" : "attack");
					fails += !same(&d, k, side ? 6 : 3, side,
					    what);
				}
	is_int(fails, 0, "no brute-force mismatch");
	/* Odd corners: only the Ace and 10s; only the Ace; nothing. */
	deck_init(&d, 2);
	deck_parse_list("2,3,4,5,6,7,8,9", faces, 12, why, sizeof why);
	deck_set_aside(&d, faces, 8, why, sizeof why);
	same(&d, 1, 4, ODDS_DEFENSE, "Ace and three 10s, defence");
	same(&d, 2, 4, ODDS_DEFENSE, "Ace and three 10s, two cards, defence");
	same(&d, 1, 4, ODDS_ATTACK, "Ace and three 10s, attack");
	d.avail[10] = 0;
	same(&d, 1, 4, ODDS_DEFENSE, "the Ace alone, defence");
	d.avail[1] = 0;
	same(&d, 1, 4, ODDS_DEFENSE, "nothing at all, defence");
	deck_init(&d, 20);
	same(&d, 1, 0, ODDS_ATTACK, "LB 20, one card");
	same(&d, 2, 8, ODDS_DEFENSE, "LB 20, two cards, defence");

	/* Large LB: exact up to where 128 bits hold; decimals beyond. */
	deck_init(&d, 20);
	odds_pick(&d, 3, 0, ODDS_ATTACK, &od);
	ok(!od.den.ovf, "LB 20, three cards: exact");
	is_str(frac(od.fumble, od.den), "1/3", "LB 20, 3 cards: P(fumble) = "
	    "3/9");
	odds_dist_release(&od);
	deck_init(&d, 1000);
	odds_pick(&d, 1, 0, ODDS_ATTACK, &od);
	ok(fabsl(odds_p(od.fumble, od.den) - 1.0L / 9) < 1e-15L,
	    "LB 1000: P(fumble) still 1/9");
	odds_dist_release(&od);

	/* A matchup: attack 10 vs defence 10, LB 0 each. */
	deck_init(&d, 0);
	odds_pick(&d, 1, 10, ODDS_ATTACK, &od);
	odds_pick(&d, 1, 10, ODDS_DEFENSE, &dd);
	odds_versus(&od, &dd, &v);
	{
		/* Reference by brute force over both distributions. */
		static long double ro[TMAX], rd[TMAX];
		long double hit = 0, ed = 0;

		memset(ro, 0, sizeof ro);
		memset(rd, 0, sizeof rd);
		walk(d, ODDS_ATTACK, 1, 0, 10, 1, ro);
		walk(d, ODDS_DEFENSE, 1, 0, 10, 1, rd);
		for (int x = 0; x < TMAX; x++)
			for (int y = 0; y < x; y++) {
				hit += ro[x] * rd[y];
				ed += ro[x] * rd[y] * (x - y);
			}
		ok(fabsl(odds_p(v.hit, v.den) - hit) < 1e-15L,
		    "P(hit) matches brute force (%.12Lf)", hit);
		ok(fabsl(odds_p(v.damage_sum, v.den) - ed) < 1e-14L,
		    "expected damage matches brute force (%.12Lf)", ed);
	}
	is_str(frac(v.hit, v.den), "34/75", "P(hit), 10 vs 10, exactly");
	odds_versus_release(&v);
	odds_dist_release(&od);
	odds_dist_release(&dd);

	/* A million virtual picks against the exact law (chi-square). */
	{
		struct rng r;
		struct deck_source src = deck_virtual(&r);
		struct deck_pick p;
		static long counts[TMAX];
		double chi = 0;
		int df = -1;
		const long N = 1000000;

		deck_init(&d, 1);
		odds_pick(&d, 1, 0, ODDS_ATTACK, &od);
		rng_seed(&r, 20261122);
		for (long i = 0; i < N; i++) {
			struct deck e = d;

			deck_pick(&e, DECK_OFFENSE, 1, &src, &p, why,
			    sizeof why);
			counts[p.value]++;
		}
		for (int x = 0; x < od.n; x++) {
			double e = (double)odds_p(od.w[x], od.den) * N;

			if (e == 0) {
				if (counts[x])
					fails++;
				continue;
			}
			chi += (counts[x] - e) * (counts[x] - e) / e;
			df++;
		}
		/* 24 degrees of freedom: the 0.1% critical value is 51.18. */
		is_int(df, 24, "25 possible values for LB 1");
		ok(chi < 51.18, "chi-square %.2f < 51.18 (df 24, alpha 0.001)",
		    chi);
		odds_dist_release(&od);
	}
	return tap_done();
}
