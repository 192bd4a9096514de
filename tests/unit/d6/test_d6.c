/*
 * test_d6.c - the D6 System's dice: parsing and normalising codes, the
 * limits of penalties and points, rolls with fixed seeds, exact odds
 * against the fractions and against a brute-force walk, opposed
 * odds, and a chi-square test of a million seeded rolls.
 */
#include "tap.h"

#include <math.h>
#include <stdlib.h>

#include "d6/d6.h"
#include "d6/chart.h"

static struct d6_code
code(const char *s)
{
	struct d6_code c = { 0, 0, 0 };
	char why[128];

	if (d6_parse_code(s, &c, why, sizeof why) != 0)
		printf("# unexpected: %s: %s\n", s, why);
	return c;
}

static void
parses(const char *s, int dice, int pips, int plain, const char *str)
{
	struct d6_code c;
	char why[128], buf[32];

	if (!ok(d6_parse_code(s, &c, why, sizeof why) == 0, "%s parses", s)) {
		printf("#   %s\n", why);
		return;
	}
	d6_code_str(&c, buf, sizeof buf);
	ok(c.dice == dice && c.pips == pips && c.plain == plain,
	    "%s is %dD %+d pips%s", s, dice, pips, plain ? ", plain" : "");
	is_str(buf, str, "%s prints as %s", s, str);
}

static void
refused(const char *s, const char *why_want)
{
	struct d6_code c;
	char why[128] = "";

	ok(d6_parse_code(s, &c, why, sizeof why) != 0, "'%s' is refused", s);
	is_str(why, why_want, "'%s': the reason", s);
}

static struct d6_spec
spec(const char *s, int actions, int cp, int fp, enum d6_one one)
{
	struct d6_mods m = { actions, cp, D6_CP_MAX, fp, 0, one };
	struct d6_spec sp;
	char why[160];

	if (d6_spec_make(&sp, code(s), &m, why, sizeof why) != 0)
		printf("# unexpected: %s\n", why);
	return sp;
}

static void
test_codes(void)
{
	struct d6_code c;

	parses("4D", 4, 0, 0, "4D");
	parses("4d+2", 4, 2, 0, "4D+2");
	parses("3D-1", 3, -1, 0, "3D-1");
	parses("D6", 1, 0, 1, "1D6");
	parses("2D6", 2, 0, 1, "2D6");
	parses("3d6+1", 3, 1, 1, "3D6+1");
	parses("100D+100", 100, 100, 0, "100D+100");
	parses("4D+5", 4, 5, 0, "4D+5");	/* as written; add normalises */
	refused("0D", "0D rolls nothing: a code needs at least 1D");
	refused("4D+", "a '+' must be followed by pips");
	refused("D", "'D' alone: give a count (1D, 2D) or write D6");
	refused("4X", "a die code needs a 'D' after the count (like 4D)");
	refused("-2D", "a die code cannot start with '-'");
	refused("99999999D", "at most 100D in a code");
	refused("101D", "at most 100D in a code");
	refused("4D+101", "at most 100 pips in a code");
	refused("4D8", "only six-sided dice (D or D6)");
	refused("4D+2x", "unexpected 'x' in a die code");
	refused("", "not a die code (like 4D, 4D+2, 3d6+1)");
	refused("four", "not a die code (like 4D, 4D+2, 3d6+1)");

	c = d6_code_add(code("3D+2"), 0, 1);
	ok(c.dice == 4 && c.pips == 0, "3D+2 plus 1 pip is 4D");
	c = d6_code_add(code("3D+2"), 1, 2);
	ok(c.dice == 5 && c.pips == 1, "3D+2 plus 1D+2 is 5D+1");
	c = d6_code_add(code("4D+5"), 0, 0);
	ok(c.dice == 5 && c.pips == 2, "4D+5 normalises to 5D+2");
	c = d6_code_add(code("3D+1"), 0, -2);
	ok(c.dice == 3 && c.pips == -1, "3D+1 less 2 pips is 3D-1");
	c = d6_code_add(code("3D"), 0, -4);
	ok(c.dice == 2 && c.pips == -1, "3D less 4 pips is 2D-1");
	c = d6_code_add(code("2D+1"), 24, 0);
	ok(c.dice == 26 && c.pips == 1, "2D+1 plus 24D is 26D+1");
}

static void
test_specs(void)
{
	struct d6_mods m = { 1, 0, D6_CP_SKILL, 0, 0, D6_ONE_COMPLICATION };
	struct d6_spec s;
	char why[160];

	m.actions = 3;
	ok(d6_spec_make(&s, code("4D+2"), &m, why, sizeof why) == 0 &&
	    s.code.dice == 2 && s.code.pips == 2,
	    "three actions: 4D+2 rolls 2D+2");
	m.actions = 4;
	ok(d6_spec_make(&s, code("4D+2"), &m, why, sizeof why) == 0 &&
	    s.code.dice == 1, "four actions: 4D+2 rolls 1D+2");
	m.actions = 5;
	ok(d6_spec_make(&s, code("4D+2"), &m, why, sizeof why) != 0,
	    "five actions leave 4D+2 with less than 1D");
	is_str(why, "5 actions take 4D from 4D+2, leaving less than 1D: "
	    "the action cannot be tried", "the reason");
	m.actions = 0;
	ok(d6_spec_make(&s, code("4D"), &m, why, sizeof why) != 0,
	    "zero actions are refused");
	m.actions = 1;
	m.fp = 1;
	ok(d6_spec_make(&s, code("4D+2"), &m, why, sizeof why) == 0 &&
	    s.code.dice == 8 && s.code.pips == 4 && s.wild,
	    "a Force Point: 4D+2 becomes 8D+4, still one Wild Die");
	m.actions = 2;
	ok(d6_spec_make(&s, code("4D+2"), &m, why, sizeof why) == 0 &&
	    s.code.dice == 6 && s.code.pips == 4,
	    "two actions and a Force Point: (4D+2 - 1D) doubled is 6D+4");
	m.actions = 1;
	m.cp = 1;
	ok(d6_spec_make(&s, code("4D"), &m, why, sizeof why) != 0,
	    "Character Points with a Force Point are refused");
	is_str(why, "no Character Points in a round in which a Force Point "
	    "is spent", "the reason");
	m.fp = 0;
	m.cp = 2;
	ok(d6_spec_make(&s, code("4D"), &m, why, sizeof why) == 0 &&
	    s.cp == 2, "2 Character Points on a skill roll");
	m.cp = 3;
	ok(d6_spec_make(&s, code("4D"), &m, why, sizeof why) != 0,
	    "3 Character Points on a skill roll are refused");
	m.cp_max = D6_CP_MAX;
	m.cp = 5;
	ok(d6_spec_make(&s, code("4D"), &m, why, sizeof why) == 0,
	    "5 Character Points on a reaction roll");
	m.cp = 6;
	ok(d6_spec_make(&s, code("4D"), &m, why, sizeof why) != 0,
	    "6 Character Points on a reaction roll are refused");
	m.cp = 0;
	m.fp = 1;
	ok(d6_spec_make(&s, code("100D+100"), &m, why, sizeof why) == 0 &&
	    s.code.dice == 200, "a Force Point on 100D makes 200D");
	m.fp = 0;
	m.no_wild = 1;
	ok(d6_spec_make(&s, code("4D"), &m, why, sizeof why) == 0 &&
	    !s.wild, "--no-wild");
	m.no_wild = 0;
	ok(d6_spec_make(&s, code("3d6"), &m, why, sizeof why) == 0 &&
	    !s.wild, "plain dice have no Wild Die");
}

/* Checks that a roll adds up, and returns its Wild Die's first toss. */
static int
consistent(const struct d6_spec *s, const struct d6_roll *r)
{
	long t = s->code.pips;

	for (int i = 0; i < r->ndice; i++)
		if (i != r->drop)
			t += r->dice[i];
	if (r->wild.n && !r->dropped_wild)
		t += r->complication ? 1 : r->wild.sum;
	for (int i = 0; i < r->ncp; i++)
		t += r->cp[i].sum;
	return t == r->total;
}

static void
test_rolls(void)
{
	struct d6_spec s = spec("4D+2", 1, 0, 0, D6_ONE_COMPLICATION);
	struct d6_spec drop = spec("4D+2", 1, 0, 0, D6_ONE_DROP);
	struct d6_spec none = spec("4D+2", 1, 0, 0, D6_ONE_NONE);
	struct d6_spec cp = spec("2D", 1, 5, 0, D6_ONE_COMPLICATION);
	struct d6_roll r, a, b, c;
	struct rng g, h;
	int bad = 0, ones = 0, chains = 0, cpchain = 0;
	uint64_t seed;

	rng_seed(&g, 42);
	rng_seed(&h, 42);
	d6_roll(&g, &s, &a);
	d6_roll(&h, &s, &b);
	ok(a.total == b.total && a.wild.n == b.wild.n &&
	    memcmp(a.dice, b.dice, sizeof a.dice[0] * 3) == 0,
	    "the same seed gives the same roll");
	ok(a.ndice == 3 && a.wild.n >= 1, "4D+2: 3 regular dice and the "
	    "Wild Die");

	rng_seed(&g, 7);
	for (int i = 0; i < 200000; i++) {
		d6_roll(&g, &s, &r);
		bad += !consistent(&s, &r);
		for (int j = 0; j + 1 < r.wild.n && j + 1 < D6_CHAIN_MAX; j++)
			bad += r.wild.v[j] != 6;	/* only 6s chain */
		bad += r.wild.v[r.wild.n - 1] == 6;
		bad += r.complication != (r.wild.v[0] == 1);
		chains += r.wild.n >= 3;
	}
	ok(bad == 0, "200,000 rolls add up; only 6s chain; a complication "
	    "exactly when the first toss is 1");
	ok(chains > 0, "chains of three tosses or more happen (%d)", chains);

	rng_seed(&g, 9);
	for (int i = 0; i < 20000; i++) {
		d6_roll(&g, &cp, &r);
		bad += !consistent(&cp, &r) || r.ncp != 5;
		for (int j = 0; j < 5; j++)
			cpchain += r.cp[j].n > 1;
	}
	ok(bad == 0 && cpchain > 0, "Character Point dice explode and add "
	    "(%d chains)", cpchain);

	/* The three treatments of a 1, on the same dice. */
	for (seed = 1; ; seed++) {
		rng_seed(&g, seed);
		d6_roll(&g, &s, &a);
		if (a.wild.v[0] == 1)
			break;
	}
	rng_seed(&g, seed);
	d6_roll(&g, &drop, &b);
	rng_seed(&g, seed);
	d6_roll(&g, &none, &c);
	{
		int hi = 0, sum = 0;

		for (int i = 0; i < 3; i++) {
			sum += a.dice[i];
			if (a.dice[i] > hi)
				hi = a.dice[i];
		}
		ones++;
		ok(a.complication && a.total == sum + 1 + 2,
		    "complication: the 1 counts and is flagged (seed %llu)",
		    (unsigned long long)seed);
		ok(!b.complication && b.dropped_wild && b.drop >= 0 &&
		    b.dice[b.drop] == hi && b.total == sum - hi + 2,
		    "drop: the 1 and the highest other die go");
		ok(!c.complication && c.total == sum + 1 + 2,
		    "none: the 1 just counts");
	}
	(void)ones;
}

static const char *
frac(mpq_t q)
{
	static char buf[4][256];
	static int k;

	k = (k + 1) % 4;
	gmp_snprintf(buf[k], sizeof buf[k], "%Qd", q);
	return buf[k];
}

static const char *
p_of(const char *c, long t, enum d6_one one, int cp, int fp)
{
	struct d6_spec s = spec(c, 1, cp, fp, one);
	struct d6_odds o;
	const char *r;

	d6_odds_target(&s, t, 1e-12, &o);
	r = frac(o.p_success);
	d6_odds_free(&o);
	return r;
}

/*
 * The reference: every toss sequence with its probability, exploding
 * dice followed to depth 12 (what is cut off is below 6^-12 per die).
 */
static void
walk(const struct d6_spec *s, int die, int depth, long sum, long double p,
    int first, int hi, long double *dist, int n)
{
	int nd = s->code.dice + s->cp;

	if (die == nd) {
		long v = sum + s->code.pips;

		if (v >= 0 && v < n)
			dist[v] += p;
		return;
	}
	/* Dice 0 .. k-1 regular, then the Wild Die, then the CP dice. */
	if (die < s->code.dice - (s->wild ? 1 : 0)) {
		for (int f = 1; f <= 6; f++)
			walk(s, die + 1, 0, sum + f, p / 6, 1,
			    f > hi ? f : hi, dist, n);
		return;
	}
	for (int f = 1; f <= 6; f++) {
		long double q = p / 6;

		if (f == 1 && first && die == s->code.dice - 1 && s->wild &&
		    s->one == D6_ONE_DROP) {
			walk(s, die + 1, 0, sum - hi, q, 1, hi, dist, n);
			continue;
		}
		if (f == 6 && depth < 12)
			walk(s, die, depth + 1, sum + 6, q, 0, hi, dist, n);
		else
			walk(s, die + 1, 0, sum + f, q, 1, hi, dist, n);
	}
}

static void
test_exact(void)
{
	is_str(p_of("3D", 10, D6_ONE_COMPLICATION, 0, 0), "827/1296",
	    "3D >= 10 with the 1 counting is 827/1296");
	is_str(p_of("4D+2", 15, D6_ONE_COMPLICATION, 0, 0), "1757/2592",
	    "4D+2 >= 15 is 1757/2592");
	is_str(p_of("3D", 10, D6_ONE_DROP, 0, 0), "767/1296",
	    "3D >= 10 with the drop option is 767/1296");
	is_str(p_of("3D", 10, D6_ONE_NONE, 0, 0), "827/1296",
	    "3D >= 10 with the 1 just counting is 827/1296");
	is_str(p_of("1D", 7, D6_ONE_COMPLICATION, 0, 0), "1/6",
	    "1D >= 7 needs a 6 on the Wild Die: 1/6");
	is_str(p_of("1D", 13, D6_ONE_COMPLICATION, 0, 0), "1/36",
	    "1D >= 13: 1/36");
	is_str(p_of("1D", 11, D6_ONE_COMPLICATION, 0, 0), "1/18",
	    "1D >= 11: 6 then 5, or 6 then 6: 1/18");
	is_str(p_of("1D", 601, D6_ONE_COMPLICATION, 0, 0),
	    "1/653318623500070906096690267158057820537143710472954871543071966369497141477376",
	    "1D >= 601 is exactly 6^-100, by the far-target shortcut");
	is_str(p_of("2D6", 12, D6_ONE_COMPLICATION, 0, 0), "1/36",
	    "plain 2D6 >= 12 is 1/36: no Wild Die");
	is_str(p_of("2D6", 13, D6_ONE_COMPLICATION, 0, 0), "0",
	    "plain 2D6 >= 13 is 0");
	is_str(p_of("3D", 3, D6_ONE_COMPLICATION, 0, 0), "1",
	    "3D >= 3 is certain");
	is_str(p_of("1D", 1, D6_ONE_DROP, 0, 0), "5/6",
	    "1D >= 1 with the drop option: a 1 leaves nothing, 5/6");

	/* Whole laws against the brute-force walk. */
	{
		static const char *codes[] = { "1D", "2D+1", "3D", "4D-2",
		    "3D6+1" };
		static const enum d6_one ones[] = { D6_ONE_COMPLICATION,
		    D6_ONE_DROP, D6_ONE_NONE };
		static long double ref[200];
		long double worst = 0;
		int cases = 0;

		for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
			for (int j = 0; j < 3; j++)
				for (int cp = 0; cp <= (codes[i][0] <= '2' ? 2 : 1); cp++) {
			struct d6_spec s = spec(codes[i], 1, cp, 0, ones[j]);
			struct d6_odds o;

			memset(ref, 0, sizeof ref);
			walk(&s, 0, 0, 0, 1, 1, 0, ref, 200);
			d6_odds_target(&s, 25, 1e-12, &o);
			for (long v = 0; v < 60; v++) {
				long double e = 0, d;

				if (v >= o.lo && v < o.lo + o.n)
					e = mpq_get_d(o.p[v - o.lo]);
				d = fabsl(e - ref[v]);
				if (d > worst)
					worst = d;
			}
			{
				long double t = 0, d;

				for (int v = 25; v < 200; v++)
					t += ref[v];
				d = fabsl(mpq_get_d(o.p_success) - t);
				if (d > worst)
					worst = d;
			}
			d6_odds_free(&o);
			cases++;
		}
		ok(worst < 1e-9, "%d laws (three treatments, 0-2 CP dice) "
		    "agree with a brute-force walk (worst %.3Lg)", cases,
		    worst);
	}
}

/* P(A >= B) by brute force over both walks. */
static long double
opposed_ref(const struct d6_spec *a, const struct d6_spec *b)
{
	static long double da[400], db[400];
	long double p = 0, ge = 1;

	memset(da, 0, sizeof da);
	memset(db, 0, sizeof db);
	walk(a, 0, 0, 0, 1, 1, 0, da, 400);
	walk(b, 0, 0, 0, 1, 1, 0, db, 400);
	for (int v = 0; v < 400; v++) {
		p += db[v] * ge;	/* ge = P(A >= v) */
		ge -= da[v];
	}
	return p;
}

static void
test_opposed(void)
{
	static const char *pairs[][2] = {
		{ "3D", "3D" }, { "4D+2", "3D+1" }, { "1D", "5D" },
		{ "2D6", "2D" }, { "3D", "2D6+1" }, { "2D6", "2D6" },
	};

	for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
		struct d6_spec a = spec(pairs[i][0], 1, 0, 0,
		    D6_ONE_COMPLICATION);
		struct d6_spec b = spec(pairs[i][1], 1, 0, 0, D6_ONE_DROP);
		struct d6_odds o;
		long double r = opposed_ref(&a, &b);

		d6_odds_opposed(&a, &b, 1e-12, &o);
		ok(o.exact && fabsl(mpq_get_d(o.p_success) - r) < 1e-9,
		    "%s against %s: %.12f (walk %.12Lf)", pairs[i][0],
		    pairs[i][1], mpq_get_d(o.p_success), r);
		d6_odds_free(&o);
	}
	{
		struct d6_spec a = spec("1D", 1, 0, 0, D6_ONE_NONE);
		struct d6_spec b = spec("1D6", 1, 0, 0, D6_ONE_NONE);
		struct d6_odds o;

		/* 1D (exploding) >= a plain die: 1 - P(A < B). */
		d6_odds_opposed(&a, &b, 1e-12, &o);
		is_str(frac(o.p_success), "7/12",
		    "1D (Wild) against a plain D6: 7/12, the actor wins ties");
		d6_odds_free(&o);
	}
	{
		struct d6_spec a = spec("2D", 1, 2, 0, D6_ONE_COMPLICATION);
		struct d6_spec b = spec("3D", 1, 0, 0, D6_ONE_COMPLICATION);
		struct d6_odds o;
		long double r = opposed_ref(&a, &b);

		d6_odds_opposed(&a, &b, 1e-12, &o);
		ok(!o.exact && fabsl(mpq_get_d(o.p_success) - r) < 1e-9,
		    "2D with 2 CP against 3D: not exact, within 1e-9 of the "
		    "walk (%.12f)", mpq_get_d(o.p_success));
		d6_odds_free(&o);
	}
}

/*
 * A million seeded rolls against the exact law: chi-square over the
 * totals with an expected count of at least 20, the rest pooled.
 */
static void
test_chisq(void)
{
	struct d6_spec s = spec("4D+2", 1, 0, 0, D6_ONE_COMPLICATION);
	struct d6_odds o;
	struct d6_roll r;
	struct rng g;
	static long cnt[400];
	const long n = 1000000;
	double chi = 0, pool_e = 0, pool_o = 0, mean = 0;
	int df = -1, compl = 0;

	d6_odds_target(&s, 15, 1e-12, &o);
	rng_seed(&g, 20261122);
	for (long i = 0; i < n; i++) {
		d6_roll(&g, &s, &r);
		if (r.total >= 0 && r.total < 400)
			cnt[r.total]++;
		mean += r.total;
		compl += r.complication;
	}
	for (long v = 0; v < 400; v++) {
		double e = 0;

		if (v >= o.lo && v < o.lo + o.n)
			e = mpq_get_d(o.p[v - o.lo]) * n;
		else if (v == o.lo + o.n)
			e = mpq_get_d(o.tail) * n;	/* beyond the list */
		if (e >= 20) {
			chi += (cnt[v] - e) * (cnt[v] - e) / e;
			df++;
		} else {
			pool_e += e;
			pool_o += cnt[v];
		}
	}
	if (pool_e > 0) {
		chi += (pool_o - pool_e) * (pool_o - pool_e) / pool_e;
		df++;
	}
	/* 99.9th percentile of chi-square: about df + 3.09 sqrt(2 df)
	 * + 2 (Wilson-Hilferty, generous). */
	ok(chi < df + 3.09 * sqrt(2.0 * df) + 2 + df * 0.1,
	    "a million seeded 4D+2 rolls fit the exact law: chi-square %.1f "
	    "on %d degrees of freedom", chi, df);
	ok(fabs(mean / n - o.mean) < 0.01, "their mean %.4f is the exact "
	    "mean %.4f", mean / n, o.mean);
	ok(fabs(compl / (double)n - 1.0 / 6) < 0.002,
	    "complications: %.4f of rolls, 1/6 exactly in the law (%s)",
	    compl / (double)n, frac(o.p_complication));
	d6_odds_free(&o);
}

static void
test_difficulties(void)
{
	long v = 0;

	ok(d6_difficulty_name("very-easy", &v) == 0 && v == 5, "very easy 5");
	ok(d6_difficulty_name("Easy", &v) == 0 && v == 10, "easy 10");
	ok(d6_difficulty_name("moderate", &v) == 0 && v == 15, "moderate 15");
	ok(d6_difficulty_name("difficult", &v) == 0 && v == 20,
	    "difficult 20");
	ok(d6_difficulty_name("very difficult", &v) == 0 && v == 30,
	    "very difficult 30");
	ok(d6_difficulty_name("heroic", &v) == 0 && v == 31, "heroic 31");
	ok(d6_difficulty_name("hard", &v) != 0, "'hard' is not a name");
	is_str(d6_difficulty_band(12), "moderate", "12 is moderate");
	is_str(d6_difficulty_band(31), "heroic", "31 is heroic");
}

static void
test_charts(void)
{
	static const struct { long d; int row; } b[] = {
		{ -1, 0 }, { 0, 1 }, { 3, 1 }, { 4, 2 }, { 8, 2 }, { 9, 3 },
		{ 12, 3 }, { 13, 4 }, { 15, 4 }, { 16, 5 }, { -100, 0 },
		{ 1000, 5 },
	};
	static const struct { double m; const char *band; long d; } w[] = {
		{ 0, "point-blank", 5 }, { 2.9, "point-blank", 5 },
		{ 3, "short", 10 }, { 10, "short", 10 }, { 10.5, "medium", 15 },
		{ 30, "medium", 15 }, { 31, "long", 20 }, { 120, "long", 20 },
		{ 121, NULL, 0 },
	};
	const struct d6_weapon *bp = d6chart_weapon_get("Blaster Pistol");
	const struct d6_damage *d;
	int dice = -1;

	for (size_t i = 0; i < sizeof b / sizeof *b; i++)
		is_int(d6chart_damage_row(b[i].d), b[i].row,
		    "damage difference %ld is row %d", b[i].d, b[i].row);
	d = d6chart_damage_get(D6_HUMAN, d6chart_damage_row(5));
	is_str(d->effect, "wounded (/2)", "4-8 on the human chart: wounded");
	d = d6chart_damage_get(D6_STARSHIP, d6chart_damage_row(10));
	ok(d->nsub == 4 && d->sub[1].lo == 3 && d->sub[1].hi == 4,
	    "starship 9-12: four sub-roll effects, 3-4 the second");
	d = d6chart_damage_get(D6_VEHICLE, d6chart_damage_row(20));
	is_str(d->extra, "11D damage to passengers",
	    "vehicle 16+: 11D to passengers");
	ok(bp != NULL, "the blaster pistol is found by its name");
	for (size_t i = 0; bp && i < sizeof w / sizeof *w; i++) {
		long diff = 0;
		const char *band = d6chart_weapon_band(bp, w[i].m, &diff);

		is_str(band, w[i].band, "blaster pistol at %g m", w[i].m);
		if (band)
			is_int(diff, w[i].d, "... difficulty %ld", w[i].d);
	}
	ok(d6chart_weapon_get("submachinegun")->min == 3,
	    "the submachinegun's short band starts at 3 m (RULINGS: "
	    "\"30-10\" read as 3-10)");
	ok(d6chart_weapon_get("starfighter-proton-torpedoes") &&
	    d6chart_weapon_band(d6chart_weapon_get("starfighter-proton-torpedoes"),
	    16000, &(long){0}) == NULL,
	    "starfighter proton torpedoes have no medium or long band");
	{
		char why[300];

		ok(d6chart_weapon_find("heavy repeat", why, sizeof why) ==
		    d6chart_weapon_get("heavy-repeating-blaster"),
		    "heavy repeat: a beginning, spaces read as '-'");
		ok(d6chart_weapon_find("TURBO", why, sizeof why) ==
		    d6chart_weapon_get("capital-turbolaser"),
		    "TURBO: the beginning of a word, any case");
		ok(d6chart_weapon_find("rifle", why, sizeof why) ==
		    d6chart_weapon_get("rifle"), "rifle: the exact key wins "
		    "over blaster-rifle");
		ok(d6chart_weapon_find("missiles", why, sizeof why) == NULL,
		    "missiles");
		is_str(why, "'missiles' could be 'capital-missiles' or "
		    "'starfighter-missiles'", "  is ambiguous");
		ok(d6chart_weapon_find("lightbow", why, sizeof why) == NULL,
		    "lightbow");
		is_str(why, "no weapon named 'lightbow'", "  is unknown");
	}
	ok(d6chart_scale_name("speeder", &dice) == 0 && dice == 2,
	    "speeder 2D");
	ok(d6chart_scale_name("Capital", &dice) == 0 && dice == 12,
	    "capital 12D");
	ok(d6chart_scale_name("extreme", &dice) == 0 && dice == 24,
	    "extreme 24D");
	ok(d6chart_scale_name("huge", &dice) != 0, "no 'huge' scale");
	ok(d6chart_saber_get("beserk strike") == d6chart_saber_get("berserk-strike") &&
	    d6chart_saber_get("berserk-strike")->dmg_dice == 4,
	    "the seed's spelling of Berserk Strike, +4D");
	ok(d6chart_saber_get("quick_strike")->difficulty == 15 &&
	    d6chart_saber_get("quick-strike")->dmg_dice == -2,
	    "Quick Strike: 15, -2D");
	ok(d6chart_martial_get("nerve-punch-2")->difficulty == 35,
	    "Nerve Punch 2: 35");
	ok(d6chart_martial_get("flying-kick")->dmg_str &&
	    d6chart_martial_get("flying-kick")->dmg_dice == 4,
	    "Flying Kick: Strength+4D");
	ok(d6chart_disarm_get(d6chart_damage_row(13))->metres_dice == 2,
	    "disarm margin 13: the saber lands 2D metres away");
	for (size_t i = 0; d6chart_table_at(i); i++) {
		const struct d6_table *tb = d6chart_table_at(i);
		int full = tb->rows != NULL && tb->nrows > 0;

		for (int r = 0; full && r < tb->nrows; r++)
			for (int c = 0; c < tb->ncols; c++)
				full &= tb->rows[r][c] != NULL;
		ok(full, "chart %s has every cell", tb->key);
	}
}

int
main(void)
{
	test_codes();
	test_specs();
	test_rolls();
	test_exact();
	test_opposed();
	test_chisq();
	test_difficulties();
	test_charts();
	return tap_done();
}
