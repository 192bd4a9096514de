/*
 * d6.c - the D6 System's dice: codes, rolls and exact odds.  See d6.h.
 */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d6/d6.h"
#include "base/util.h"

/* ---- die codes ---- */

/*
 * Reads digits at *p into *v, which stops growing past max (the caller
 * refuses it).  Returns 0, or -1 if there is no digit.
 */
static int
digits(const char **p, long max, long *v)
{
	const char *s = *p;
	long x = 0;

	if (!isdigit((unsigned char)*s))
		return -1;
	for (; isdigit((unsigned char)*s); s++)
		if (x <= max)
			x = x * 10 + (*s - '0');
	*p = s;
	*v = x;
	return 0;
}

int
d6_parse_code(const char *s, struct d6_code *c, char *why, size_t whysz)
{
	const char *p = s;
	long n = 1, pips = 0, faces;
	int plain = 0;

	if (*p == '-' || *p == '+') {
		util_say(why, whysz, "a die code cannot start with '%c'", *p);
		return -1;
	}
	if (isdigit((unsigned char)*p)) {
		digits(&p, 1000000, &n);
		if (n > D6_DICE_MAX) {
			snprintf(why, whysz, "at most %dD in a code",
			    D6_DICE_MAX);
			return -1;
		}
	} else if (*p != 'D' && *p != 'd') {
		snprintf(why, whysz, "not a die code (like 4D, 4D+2, 3d6+1)");
		return -1;
	}
	if (*p != 'D' && *p != 'd') {
		snprintf(why, whysz, "a die code needs a 'D' after the count"
		    " (like 4D)");
		return -1;
	}
	p++;
	if (isdigit((unsigned char)*p)) {
		if (digits(&p, 1000000, &faces) != 0 || faces != 6) {
			snprintf(why, whysz, "only six-sided dice (D or D6)");
			return -1;
		}
		plain = 1;
	} else if (p == s + 1) {
		snprintf(why, whysz, "'D' alone: give a count (1D, 2D) or"
		    " write D6");
		return -1;
	}
	if (*p == '+' || *p == '-') {
		int neg = *p == '-';

		p++;
		if (digits(&p, 1000000, &pips) != 0) {
			snprintf(why, whysz, "a '%c' must be followed by pips",
			    neg ? '-' : '+');
			return -1;
		}
		if (pips > D6_PIPS_MAX) {
			snprintf(why, whysz, "at most %d pips in a code",
			    D6_PIPS_MAX);
			return -1;
		}
		if (neg)
			pips = -pips;
	}
	if (*p != '\0') {
		util_say(why, whysz, "unexpected '%c' in a die code", *p);
		return -1;
	}
	if (n == 0) {
		snprintf(why, whysz, "0D rolls nothing: a code needs at"
		    " least 1D");
		return -1;
	}
	c->dice = (int)n;
	c->pips = (int)pips;
	c->plain = plain;
	return 0;
}

void
d6_code_str(const struct d6_code *c, char *buf, size_t sz)
{
	if (c->pips == 0)
		snprintf(buf, sz, "%dD%s", c->dice, c->plain ? "6" : "");
	else
		snprintf(buf, sz, "%dD%s%+d", c->dice, c->plain ? "6" : "",
		    c->pips);
}

struct d6_code
d6_code_add(struct d6_code c, int dice, int pips)
{
	long d = (long)c.dice + dice, p = (long)c.pips + pips;

	while (p >= 3) {
		d++;
		p -= 3;
	}
	while (p <= -3) {
		d--;
		p += 3;
	}
	c.dice = (int)d;
	c.pips = (int)p;
	return c;
}

int
d6_spec_make(struct d6_spec *s, struct d6_code base,
    const struct d6_mods *m, char *why, size_t whysz)
{
	struct d6_code c = base;
	char buf[32];

	memset(s, 0, sizeof *s);
	d6_code_str(&base, buf, sizeof buf);
	if (m->actions < 1) {
		snprintf(why, whysz, "--actions must be at least 1");
		return -1;
	}
	if (m->actions > 1) {
		if ((long)c.dice - (m->actions - 1) < 1) {
			snprintf(why, whysz, "%d actions take %dD from %s, "
			    "leaving less than 1D: the action cannot be tried",
			    m->actions, m->actions - 1, buf);
			return -1;
		}
		c.dice -= m->actions - 1;
	}
	if (m->fp && m->cp > 0) {
		snprintf(why, whysz, "no Character Points in a round in which"
		    " a Force Point is spent");
		return -1;
	}
	if (m->cp < 0 || m->cp > m->cp_max) {
		snprintf(why, whysz, "at most %d Character Points on %s",
		    m->cp_max, m->cp_max == D6_CP_MAX ? "a reaction roll" :
		    "a skill or attribute roll (5 on a reaction, --reaction)");
		return -1;
	}
	if (m->fp) {
		c.dice *= 2;
		c.pips *= 2;
	}
	if (c.dice > D6_ROLL_MAX) {
		snprintf(why, whysz, "%s would roll %dD, more than the %dD a"
		    " roll may have", buf, c.dice, D6_ROLL_MAX);
		return -1;
	}
	s->code = c;
	s->base = base;
	s->wild = !c.plain && !m->no_wild;
	s->one = m->one;
	s->cp = m->cp;
	s->fp = m->fp;
	s->actions = m->actions;
	return 0;
}

/* ---- rolling ---- */

int
d6_die(struct rng *r)
{
	return 1 + (int)rng_below(r, 6);
}

static void
explode(struct rng *r, struct d6_chain *c)
{
	int v;

	c->n = 0;
	c->sum = 0;
	do {
		v = d6_die(r);
		if (c->n < D6_CHAIN_MAX)
			c->v[c->n] = v;
		c->n++;
		c->sum += v;
	} while (v == 6);
}

void
d6_roll(struct rng *r, const struct d6_spec *s, struct d6_roll *out)
{
	long total = s->code.pips;

	out->ndice = s->code.dice - (s->wild ? 1 : 0);
	out->drop = -1;
	out->dropped_wild = 0;
	out->complication = 0;
	out->wild.n = 0;
	out->wild.sum = 0;
	for (int i = 0; i < out->ndice; i++) {
		out->dice[i] = d6_die(r);
		total += out->dice[i];
	}
	if (s->wild) {
		explode(r, &out->wild);
		if (out->wild.v[0] != 1 || s->one == D6_ONE_NONE) {
			total += out->wild.sum;
		} else if (s->one == D6_ONE_COMPLICATION) {
			total += 1;
			out->complication = 1;
		} else {
			out->dropped_wild = 1;
			for (int i = 0; i < out->ndice; i++)
				if (out->drop < 0 ||
				    out->dice[i] > out->dice[out->drop])
					out->drop = i;
			if (out->drop >= 0)
				total -= out->dice[out->drop];
		}
	}
	out->ncp = s->cp;
	for (int i = 0; i < s->cp; i++) {
		explode(r, &out->cp[i]);
		total += out->cp[i].sum;
	}
	out->total = total;
}

/* ---- difficulties ---- */

static const struct {
	const char	*name;
	long		 value;
} difficulties[] = {
	{ "very-easy", 5 }, { "easy", 10 }, { "moderate", 15 },
	{ "difficult", 20 }, { "very-difficult", 30 }, { "heroic", 31 },
};

int
d6_difficulty_name(const char *name, long *value)
{
	for (size_t i = 0; i < sizeof difficulties / sizeof *difficulties;
	    i++) {
		const char *a = difficulties[i].name, *b = name;

		/* "very easy", "very_easy" and "Very-Easy" all match. */
		while (*a && *b && (tolower((unsigned char)*b) == *a ||
		    (*a == '-' && (*b == ' ' || *b == '_')))) {
			a++;
			b++;
		}
		if (*a == '\0' && *b == '\0') {
			*value = difficulties[i].value;
			return 0;
		}
	}
	return -1;
}

const char *
d6_difficulty_band(long v)
{
	if (v <= 5)
		return "very easy";
	if (v <= 10)
		return "easy";
	if (v <= 15)
		return "moderate";
	if (v <= 20)
		return "difficult";
	if (v <= 30)
		return "very difficult";
	return "heroic";
}

/* ---- exact odds ---- */

/*
 * A truncated law: P(total = lo + i) = w[i] / 6^e for i < n; totals at
 * or beyond lo + n are not tracked (their mass is 1 minus the rest).
 */
struct pmf {
	long		 lo;
	long		 n;
	unsigned long	 e;
	mpz_t		*w;
};

static void
pmf_init(struct pmf *f, long lo, long n, unsigned long e)
{
	f->lo = lo;
	f->n = n < 0 ? 0 : n;
	f->e = e;
	f->w = xcalloc((size_t)(f->n ? f->n : 1), sizeof *f->w);
	for (long i = 0; i < f->n; i++)
		mpz_init(f->w[i]);
}

static void
pmf_clear(struct pmf *f)
{
	for (long i = 0; i < f->n; i++)
		mpz_clear(f->w[i]);
	free(f->w);
	f->w = NULL;
	f->n = 0;
}

/* Multiplies every weight by 6^k and adds k to e. */
static void
pmf_raise(struct pmf *f, unsigned long k)
{
	mpz_t m;

	if (k == 0)
		return;
	mpz_init(m);
	mpz_ui_pow_ui(m, 6, k);
	for (long i = 0; i < f->n; i++)
		mpz_mul(f->w[i], f->w[i], m);
	mpz_clear(m);
	f->e += k;
}

/*
 * The sum of k dice each in 1 .. faces, as counts (over faces^k, e = 0),
 * sums below cap.  One array is convolved in place, die by die, with
 * prefix sums: each new count is a difference of two of them.
 */
static void
pmf_uniform_sum(struct pmf *f, int k, int faces, long cap)
{
	long full = (long)k * (faces - 1) + 1, size, cur = 1;
	mpz_t *s;

	size = full < cap ? full : cap;
	if (size < 1)
		size = 1;
	pmf_init(f, k, size, 0);
	if (cap <= 0) {
		pmf_clear(f);
		pmf_init(f, k, 0, 0);
		return;
	}
	mpz_set_ui(f->w[0], 1);
	s = xcalloc((size_t)size + 1, sizeof *s);
	for (long i = 0; i <= size; i++)
		mpz_init(s[i]);
	for (int d = 0; d < k; d++) {
		long next = cur + faces - 1;

		/* After d + 1 dice the lowest sum is d + 1. */
		if (next > cap - (d + 1))
			next = cap - (d + 1);
		if (next > size)
			next = size;
		if (next < 0)
			next = 0;
		for (long i = 0; i < cur; i++)
			mpz_add(s[i + 1], s[i], f->w[i]);
		for (long i = 0; i < next; i++) {
			long hi = i + 1 < cur ? i + 1 : cur;
			long lo = i - faces + 1 > 0 ? i - faces + 1 : 0;

			if (hi > lo)
				mpz_sub(f->w[i], s[hi], s[lo]);
			else
				mpz_set_ui(f->w[i], 0);
		}
		cur = next;
	}
	for (long i = 0; i <= size; i++)
		mpz_clear(s[i]);
	free(s);
	/* Keep the first cur counts. */
	for (long i = cur; i < f->n; i++)
		mpz_clear(f->w[i]);
	f->n = cur;
}

/* Regular D6s: the same, with the denominator a power of 6. */
static void
pmf_dice(struct pmf *f, int k, long cap)
{
	pmf_uniform_sum(f, k, 6, cap);
	f->e = (unsigned long)k;
}

/* A copy of src moved up by shift, times 6^-extra, values below cap. */
static void
pmf_copy(struct pmf *dst, const struct pmf *src, long shift,
    unsigned long extra, long cap)
{
	long lo = src->lo + shift, n = src->n;

	if (lo + n > cap)
		n = cap - lo;
	pmf_init(dst, lo, n, src->e + extra);
	for (long i = 0; i < dst->n; i++)
		mpz_set(dst->w[i], src->w[i]);
}

/*
 * f plus one exploding die (6j + r, r = 1 .. 5, with probability
 * 6^-(j+1)), values below cap; f is replaced.  Because the die's law
 * repeats itself a sixth as large every six values, the sum obeys
 *	g[v] = (f[v-1] + ... + f[v-5]) / 6 + g[v-6] / 6,
 * which makes this linear in the number of totals.
 */
static void
pmf_add_explode(struct pmf *f, long cap)
{
	long lo = f->lo + 1, n = f->n ? cap - lo : 0;
	unsigned long eg;
	struct pmf g;
	mpz_t m, t;

	if (n < 0)
		n = 0;
	eg = f->e + (unsigned long)(n > 0 ? (n - 1) / 6 + 2 : 1);
	pmf_init(&g, lo, n, eg);
	mpz_inits(m, t, NULL);
	mpz_ui_pow_ui(m, 6, eg - f->e - 1);
	for (long i = 0; i < n; i++) {
		mpz_set_ui(t, 0);
		for (long r = 1; r <= 5; r++) {
			long j = i + 1 - r;

			if (j >= 0 && j < f->n)
				mpz_add(t, t, f->w[j]);
		}
		mpz_mul(g.w[i], t, m);
		if (i >= 6) {
			mpz_divexact_ui(t, g.w[i - 6], 6);
			mpz_add(g.w[i], g.w[i], t);
		}
	}
	mpz_clears(m, t, NULL);
	pmf_clear(f);
	*f = g;
}

/* into += from (the two laws as parts of one), from is freed. */
static void
pmf_mix(struct pmf *into, struct pmf *from)
{
	long lo, hi;
	struct pmf g;

	if (from->n == 0) {
		pmf_clear(from);
		return;
	}
	if (into->e < from->e)
		pmf_raise(into, from->e - into->e);
	else
		pmf_raise(from, into->e - from->e);
	lo = into->n && into->lo < from->lo ? into->lo : from->lo;
	hi = from->lo + from->n;
	if (into->n && into->lo + into->n > hi)
		hi = into->lo + into->n;
	pmf_init(&g, lo, hi - lo, into->e);
	for (long i = 0; i < into->n; i++)
		mpz_add(g.w[into->lo + i - lo], g.w[into->lo + i - lo],
		    into->w[i]);
	for (long i = 0; i < from->n; i++)
		mpz_add(g.w[from->lo + i - lo], g.w[from->lo + i - lo],
		    from->w[i]);
	pmf_clear(into);
	pmf_clear(from);
	*into = g;
}

/*
 * k dice less the highest of them, as weights over 6^k, values below
 * cap: among the throws whose highest die is exactly m, the sum less m.
 */
static void
pmf_drop_high(struct pmf *f, int k, long cap)
{
	struct pmf prev = { 0, 0, 0, NULL };
	long n;

	if (k == 0) {
		pmf_init(f, 0, cap > 0 ? 1 : 0, 0);
		if (f->n)
			mpz_set_ui(f->w[0], 1);
		return;
	}
	pmf_init(f, 0, 0, (unsigned long)k);
	for (int m = 1; m <= 6; m++) {
		struct pmf cur, part;

		/* Sums of k dice each at most m, every sum below cap + 6. */
		pmf_uniform_sum(&cur, k, m, cap + 6);
		n = cur.n;
		if (cur.lo - m + n > cap)
			n = cap - (cur.lo - m);
		pmf_init(&part, cur.lo - m, n, (unsigned long)k);
		for (long i = 0; i < part.n; i++) {
			long pi = cur.lo + i - prev.lo;

			mpz_set(part.w[i], cur.w[i]);
			if (prev.n > 0 && pi >= 0 && pi < prev.n)
				mpz_sub(part.w[i], part.w[i], prev.w[pi]);
		}
		pmf_clear(&prev);
		prev = cur;
		pmf_mix(f, &part);
	}
	pmf_clear(&prev);
}

/* The law of s's total, exact for every total below cap. */
static void
pmf_spec(const struct d6_spec *s, long cap, struct pmf *f)
{
	long c = cap - s->code.pips;	/* the cap before the pips */
	int k = s->code.dice - (s->wild ? 1 : 0);

	pmf_dice(f, k, c);
	if (s->wild) {
		struct pmf reg = *f, part;

		/* First toss 6: 6 plus a fresh exploding die. */
		pmf_copy(f, &reg, 0, 0, c - 6);
		pmf_add_explode(f, c - 6);
		f->lo += 6;
		f->e += 1;
		/* First toss 2 .. 5. */
		for (int t = 2; t <= 5; t++) {
			pmf_copy(&part, &reg, t, 1, c);
			pmf_mix(f, &part);
		}
		/* First toss 1. */
		if (s->one == D6_ONE_DROP) {
			pmf_drop_high(&part, k, c);
			part.e += 1;
		} else {
			pmf_copy(&part, &reg, 1, 1, c);
		}
		pmf_mix(f, &part);
		pmf_clear(&reg);
	}
	for (int i = 0; i < s->cp; i++)
		pmf_add_explode(f, c);
	f->lo += s->code.pips;
}

/*
 * P = w / 6^e into q, in lowest terms.  The denominator has no prime
 * factors but 2 and 3, so removing those from w is the whole reduction
 * (much cheaper than a general gcd).
 */
static void
set_q(mpq_t q, const mpz_t w, unsigned long e)
{
	mpz_ptr num = mpq_numref(q), den = mpq_denref(q);
	unsigned long t2, t3 = 0;

	if (mpz_sgn(w) == 0) {
		mpq_set_ui(q, 0, 1);
		return;
	}
	mpz_set(num, w);
	t2 = mpz_scan1(num, 0);
	if (t2 > e)
		t2 = e;
	mpz_tdiv_q_2exp(num, num, t2);
	while (t3 < e && mpz_divisible_ui_p(num, 3)) {
		mpz_divexact_ui(num, num, 3);
		t3++;
	}
	mpz_ui_pow_ui(den, 3, e - t3);
	mpz_mul_2exp(den, den, e - t2);
}

/* a / b as a double, for numbers beyond a double's range too. */
static double
ratio(const mpz_t a, const mpz_t b)
{
	long ea, eb;
	double da = mpz_get_d_2exp(&ea, a), db = mpz_get_d_2exp(&eb, b);

	return db == 0 ? 0 : ldexp(da / db, (int)(ea - eb));
}

/* Number of dice that can explode. */
static int
exploders(const struct d6_spec *s)
{
	return (s->wild ? 1 : 0) + s->cp;
}

/* The highest total without an explosion: every die a 6, one more. */
static long
plain_top(const struct d6_spec *s)
{
	return 6L * (s->code.dice + s->cp) + s->code.pips;
}

/* The lowest total. */
static long
bottom(const struct d6_spec *s)
{
	long lo = s->code.dice + s->cp + s->code.pips;

	if (s->wild && s->one == D6_ONE_DROP)
		lo = (s->code.dice >= 2 ? s->code.dice - 2 : 0) + s->cp +
		    s->code.pips;
	return lo;
}

/* The mean total: an exploding die averages 3.5 + mean / 6 = 4.2. */
static double
spec_mean(const struct d6_spec *s)
{
	double m = s->code.pips + 4.2 * s->cp, den = 1, dm = 0;
	int k = s->code.dice - (s->wild ? 1 : 0);
	struct pmf d;

	if (!s->wild)
		return m + 3.5 * s->code.dice;
	if (s->one != D6_ONE_DROP)
		return m + 3.5 * k + 4.2;
	/* A first toss of 1 leaves the k dice less the highest; 2 .. 5
	 * and 6 plus an exploding die add to all k. */
	pmf_drop_high(&d, k, 6L * k + 1);
	for (int i = 0; i < k; i++)
		den *= 6;
	for (long i = 0; i < d.n; i++)
		dm += (double)(d.lo + i) * mpz_get_d(d.w[i]) / den;
	pmf_clear(&d);
	return m + 3.5 * k * 5 / 6 + dm / 6 + (14 + 10.2) / 6;
}

/* Lists f's totals from its lowest until less than tail_max is left. */
static void
fill_list(struct d6_odds *o, const struct pmf *f, long lo, double tail_max)
{
	mpz_t acc, den, rest;
	long n = 0;

	mpz_inits(acc, den, rest, NULL);
	mpz_ui_pow_ui(den, 6, f->e);
	o->lo = lo;
	for (long v = lo; ; v++) {
		long i = v - f->lo;

		if (i >= 0 && i < f->n)
			mpz_add(acc, acc, f->w[i]);
		n++;
		mpz_sub(rest, den, acc);
		if (ratio(rest, den) < tail_max || i + 1 >= f->n)
			break;
	}
	o->n = n;
	o->p = xcalloc((size_t)n, sizeof *o->p);
	for (long j = 0; j < n; j++) {
		long i = lo + j - f->lo;

		mpq_init(o->p[j]);
		if (i >= 0 && i < f->n)
			set_q(o->p[j], f->w[i], f->e);
	}
	set_q(o->tail, rest, f->e);
	mpz_clears(acc, den, rest, NULL);
}

/*
 * A cap past which less than tail_max of s's law lies.  A total of
 * plain_top + 6j or more needs j explosions among the x exploding dice,
 * whose chance is at most C(j+x-1, x-1) 6^-j.
 */
static long
list_cap(const struct d6_spec *s, double tail_max)
{
	int x = exploders(s);
	long cap = plain_top(s) + 1, j = 0;

	if (x == 0)
		return cap;
	for (;;) {
		double b = 1;

		for (int i = 1; i < x; i++)
			b = b * (double)(j + i) / i;
		for (long i = 0; i < j; i++)
			b /= 6;
		if (b < tail_max / 2)
			break;
		j++;
	}
	return cap + 6 * j;
}

static void
odds_init(struct d6_odds *o, const struct d6_spec *s)
{
	mpq_inits(o->tail, o->p_complication, o->p_success, NULL);
	o->exact = 1;
	if (s->wild && s->one == D6_ONE_COMPLICATION)
		mpq_set_ui(o->p_complication, 1, 6);
}

/* P(total >= t) from a law f exact below t (cap >= t). */
static void
p_at_least(mpq_t out, const struct pmf *f, long t)
{
	mpz_t rem;

	mpz_init(rem);
	mpz_ui_pow_ui(rem, 6, f->e);
	for (long i = 0; i < f->n && f->lo + i < t; i++)
		mpz_sub(rem, rem, f->w[i]);
	set_q(out, rem, f->e);
	mpz_clear(rem);
}

void
d6_odds_target(const struct d6_spec *s, long target, double tail_max,
    struct d6_odds *o)
{
	struct pmf f;
	long cap = list_cap(s, tail_max), t = target, top = plain_top(s);
	unsigned long shrink = 0;

	odds_init(o, s);
	/*
	 * With one exploding die, P(total >= t) = P(total >= t - 6) / 6
	 * from top + 19 on: far targets cost nothing.  With none, nothing
	 * reaches past top.
	 */
	if (exploders(s) == 1 && t > top + 19) {
		shrink = (unsigned long)((t - (top + 13)) / 6);
		t -= 6 * (long)shrink;
	} else if (exploders(s) == 0 && t > top + 1) {
		t = top + 1;
	}
	if (t > cap)
		cap = t;
	pmf_spec(s, cap, &f);
	fill_list(o, &f, bottom(s), tail_max);
	p_at_least(o->p_success, &f, t);
	if (shrink) {
		mpq_t q;
		mpz_t d;

		mpq_init(q);
		mpz_init(d);
		mpz_ui_pow_ui(d, 6, shrink);
		mpq_set_z(q, d);
		mpq_div(o->p_success, o->p_success, q);
		mpq_clear(q);
		mpz_clear(d);
	}
	o->mean = spec_mean(s);
	pmf_clear(&f);
}

void
d6_odds_opposed(const struct d6_spec *a, const struct d6_spec *b,
    double tail_max, struct d6_odds *o)
{
	struct pmf fa, fb;
	long b0, cap, ia = 0;
	mpz_t rem, sum, block, t;
	mpq_t q, r;
	int geometric = exploders(a) == 1 && exploders(b) == 1;

	odds_init(o, a);
	/*
	 * P(A >= B) = sum over b of P(B = b) P(A >= b).  Past b0 (each
	 * side's top + 13) both factors shrink sixfold every six totals, so
	 * the rest of the sum is the six terms from b0 times 36/35.  With
	 * no exploding die on a side the sum is finite; with several on
	 * both, it is summed until what is left is below 1e-17.
	 */
	b0 = plain_top(a) + 13;
	if (plain_top(b) + 13 > b0)
		b0 = plain_top(b) + 13;
	if (geometric || exploders(b) == 0)
		cap = b0 + 6;
	else if (exploders(a) == 0)
		cap = plain_top(a) + 1;
	else {
		struct d6_spec both = *b;

		both.cp = exploders(a) + exploders(b);
		cap = list_cap(&both, 1e-17);
		o->exact = 0;
	}
	if (cap < b0 + 6)
		cap = b0 + 6;
	if (cap < list_cap(a, tail_max))
		cap = list_cap(a, tail_max);
	pmf_spec(a, cap, &fa);
	pmf_spec(b, cap, &fb);
	/* Weights over 6^(fa.e + fb.e); rem is 6^fa.e P(A >= v). */
	mpz_inits(rem, sum, block, t, NULL);
	mpz_ui_pow_ui(rem, 6, fa.e);
	for (long i = 0; i < fb.n; i++) {
		long v = fb.lo + i;

		if (geometric && v >= b0 + 6)
			break;
		while (ia < fa.n && fa.lo + ia < v)
			mpz_sub(rem, rem, fa.w[ia++]);
		mpz_mul(t, fb.w[i], rem);
		mpz_add(geometric && v >= b0 ? block : sum,
		    geometric && v >= b0 ? block : sum, t);
	}
	mpq_inits(q, r, NULL);
	mpz_mul_ui(t, block, 36);
	mpq_set_num(q, t);
	mpz_set_ui(t, 35);
	mpq_set_den(q, t);
	mpq_canonicalize(q);
	mpq_set_z(r, sum);
	mpq_add(q, q, r);
	mpz_ui_pow_ui(t, 6, fa.e + fb.e);
	mpq_set_z(r, t);
	mpq_div(o->p_success, q, r);
	fill_list(o, &fa, bottom(a), tail_max);
	o->mean = spec_mean(a);
	mpq_clears(q, r, NULL);
	mpz_clears(rem, sum, block, t, NULL);
	pmf_clear(&fa);
	pmf_clear(&fb);
}

void
d6_odds_free(struct d6_odds *o)
{
	for (long i = 0; i < o->n; i++)
		mpq_clear(o->p[i]);
	free(o->p);
	o->p = NULL;
	mpq_clears(o->tail, o->p_complication, o->p_success, NULL);
}
