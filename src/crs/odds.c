/*
 * odds.c - exact pick and matchup odds; see odds.h.
 *
 * A pick of K cards, each with its chain of 10s, reads a well-shuffled
 * deck from the top until K cards that are not 10s have come up (an Ace
 * among them ends it).  So, with t 10s and m other cards in the deck:
 *
 *  - the number j of 10s drawn has the negative hypergeometric law
 *    C(j+K-1, K-1) C(t-j+m-K, m-K) / C(t+m, m), whatever the other cards
 *    are, since the pattern of 10s and non-10s is independent of the
 *    order of the non-10s;
 *  - the K non-10 cards are a uniformly random K-subset of the m, so the
 *    Ace is among them with probability K/m, and otherwise their sum has
 *    the law of the sums of K-subsets of the faces present;
 *  - the pick's value is 10 j plus that sum.
 *
 * A defensive fumble's special draw takes the next card of the shuffled
 * deck after the Ace.  If the Ace is the r-th non-10 card (each r equally
 * likely), that card is a 10 with probability t/(t+m) (the gap after any
 * one non-10 card holds a 10 with that probability); otherwise it is the
 * next non-10 card, uniform over the m-1 others, or nothing when r = m.
 *
 * tests/unit/test_odds.c checks all of this against a brute-force
 * enumeration of every draw sequence.
 */
#include "crs/odds.h"

#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct odds_w
w_int(unsigned long long x)
{
	struct odds_w w = { x, (long double)x, 0 };

	return w;
}

static struct odds_w
w_add(struct odds_w a, struct odds_w b)
{
	struct odds_w r;

	r.ovf = a.ovf || b.ovf || __builtin_add_overflow(a.v, b.v, &r.v);
	r.f = a.f + b.f;
	return r;
}

static struct odds_w
w_mul(struct odds_w a, struct odds_w b)
{
	struct odds_w r;

	r.ovf = a.ovf || b.ovf || __builtin_mul_overflow(a.v, b.v, &r.v);
	r.f = a.f * b.f;
	return r;
}

static int
w_zero(struct odds_w a)
{
	return a.f == 0;
}

/* C(n, k) as a weight; 0 outside 0 <= k <= n. */
static struct odds_w
binom(int n, int k)
{
	struct odds_w r = w_int(1);

	if (k < 0 || n < 0 || k > n)
		return w_int(0);
	if (k > n - k)
		k = n - k;
	for (int i = 0; i < k; i++) {
		/* r * (n - i) / (i + 1) is exact at every step. */
		odds_u128 x;

		if (!r.ovf && __builtin_mul_overflow(r.v, (odds_u128)(n - i),
		    &x))
			r.ovf = 1;
		else if (!r.ovf)
			r.v = x / (odds_u128)(i + 1);
		r.f = r.f * (long double)(n - i) / (long double)(i + 1);
	}
	return r;
}

/* Adds weight x to the total t of dist, growing it as needed. */
static void
put(struct odds_dist *d, int t, struct odds_w x)
{
	if (t < 0)
		t = 0;
	if (t >= d->n) {
		int n = t + 1;

		/* Doubling: a long tail of totals must not cost n^2 copies. */
		if (n > d->cap) {
			d->cap = n > 2 * d->cap ? n : 2 * d->cap;
			d->w = xreallocarray(d->w, (size_t)d->cap, sizeof *d->w);
		}
		for (int i = d->n; i < n; i++)
			d->w[i] = w_int(0);
		d->n = n;
	}
	d->w[t] = w_add(d->w[t], x);
}

/* sums[c][s]: the c-subsets of the nf faces (at most k) with sum s. */
static void
face_sums(const int *faces, int nf, int k,
    unsigned long long sums[DECK_CARDS_MAX + 1][45])
{
	memset(sums, 0, (DECK_CARDS_MAX + 1) * sizeof *sums);
	sums[0][0] = 1;
	for (int i = 0; i < nf; i++)
		for (int c = (k < nf ? k : nf); c >= 1; c--)
			for (int s = 44; s >= faces[i]; s--)
				sums[c][s] += sums[c - 1][s - faces[i]];
}

/*
 * No Ace among the k cards picked from m faces among t 10s: j 10s and
 * a k-subset with sum s, each total weighed by scale.
 */
static void
pick_no_ace(struct odds_dist *out, int t, int m, int k, int base,
    unsigned long long sums[DECK_CARDS_MAX + 1][45], struct odds_w scale)
{
	for (int j = 0; j <= t; j++) {
		struct odds_w nh = w_mul(binom(j + k - 1, k - 1),
		    binom(t - j + m - k, m - k));

		if (w_zero(nh))
			continue;
		for (int s = 0; s <= 44; s++) {
			int total;

			if (sums[k][s] == 0)
				continue;
			total = base + 10 * j + s;
			put(out, total < 0 ? 0 : total, w_mul(w_mul(nh,
			    w_int(sums[k][s])), scale));
		}
	}
}

/*
 * The defence's fumble: the special card drawn after the Ace, a 10
 * (which counts 0), one of the nf faces (taken off base), or none left.
 */
static void
defence_special(struct odds_dist *out, int k, int m, int t, int base,
    const int *faces, int nf, struct odds_w scale_ten,
    struct odds_w scale_face, struct odds_w scale_none)
{
	int kk = k < m ? k : m;		/* how many r make a fumble */
	int rr = k < m - 1 ? k : m - 1;	/* ... with a card after */
	int btotal = base < 0 ? 0 : base;

	/* A 10 as the special card counts 0: the defence is base. */
	put(out, btotal, w_mul(w_int((unsigned long long)kk *
	    (unsigned long long)t), scale_ten));
	for (int i = 0; i < nf && rr > 0; i++)
		put(out, base - faces[i] < 0 ? 0 : base - faces[i],
		    w_mul(w_int((unsigned long long)rr), scale_face));
	if (k >= m)
		put(out, 0, scale_none);
}

void
odds_pick(const struct deck *dk, int k, int base, int side,
    struct odds_dist *out)
{
	const int t = dk->avail[DECK_TEN];
	const int ace = dk->avail[DECK_ACE];
	int m = 0, faces[9] = { 0 }, nf = 0;
	/* sums[c][s]: c-subsets of the non-Ace non-10 faces with sum s. */
	unsigned long long sums[DECK_CARDS_MAX + 1][45];
	struct odds_w d0, scale_pick, scale_ten, scale_face, scale_none;
	int fumble_possible, mm1;

	memset(out, 0, sizeof *out);
	for (int f = 2; f <= 9; f++)
		if (dk->avail[f])
			faces[nf++] = f;
	m = nf + ace;
	fumble_possible = ace && m > 0;
	face_sums(faces, nf, k, sums);

	/*
	 * The common denominator: D0 = C(t+m, m) C(m, K) for the pick, times
	 * m (t+m) (m-1) so that the special draw's terms fit too.
	 */
	d0 = k <= m ? w_mul(binom(t + m, m), binom(m, k)) : w_int(1);
	mm1 = m > 1 ? m - 1 : 1;
	if (side == ODDS_DEFENSE && fumble_possible) {
		scale_pick = w_int((unsigned long long)m * (unsigned long
		    long)(t + m) * (unsigned long long)mm1);
		scale_ten = w_mul(d0, w_int((unsigned long long)mm1));
		scale_face = w_mul(d0, w_int((unsigned long long)m));
		scale_none = w_mul(d0, w_int((unsigned long long)m *
		    (unsigned long long)mm1));
	} else
		scale_pick = scale_ten = scale_face = scale_none = w_int(1);
	out->den = w_mul(d0, scale_pick);

	if (m >= k && m > 0)
		pick_no_ace(out, t, m, k, base, sums, scale_pick);
	else if (!ace) {
		/* Every card is drawn, and the deck runs out. */
		out->empty = out->den;
		put(out, 0, out->empty);
		return;
	}
	if (!fumble_possible) {
		if (out->n == 0)
			put(out, 0, w_int(0));
		return;
	}
	/* The Ace is among the K non-10 cards (certainly, when m <= K). */
	if (k <= m)
		out->fumble = w_mul(w_mul(binom(t + m, m), binom(m - 1, k - 1)),
		    scale_pick);
	else
		out->fumble = out->den;
	if (side == ODDS_ATTACK)
		put(out, 0, out->fumble);
	else
		defence_special(out, k, m, t, base, faces, nf, scale_ten,
		    scale_face, scale_none);
}

void
odds_dist_release(struct odds_dist *d)
{
	free(d->w);
	memset(d, 0, sizeof *d);
}

void
odds_versus(const struct odds_dist *off, const struct odds_dist *def,
    struct odds_versus *out)
{
	/* cum[x]: weight of a defence below x. */
	struct odds_w *cum = xcalloc((size_t)off->n + 1, sizeof *cum);
	int *nzd = xcalloc((size_t)def->n + 1, sizeof *nzd), nnzd = 0;

	memset(out, 0, sizeof *out);
	out->den = w_mul(off->den, def->den);
	out->hit = w_int(0);
	out->damage_sum = w_int(0);
	out->n = off->n > 1 ? off->n : 1;
	out->damage = xcalloc((size_t)out->n, sizeof *out->damage);
	for (int i = 0; i < out->n; i++)
		out->damage[i] = w_int(0);
	cum[0] = w_int(0);
	for (int x = 1; x <= off->n; x++)
		cum[x] = x - 1 < def->n ? w_add(cum[x - 1], def->w[x - 1]) :
		    cum[x - 1];
	for (int y = 0; y < def->n; y++)
		if (!w_zero(def->w[y]))
			nzd[nnzd++] = y;
	for (int x = 1; x < off->n; x++) {
		if (w_zero(off->w[x]))
			continue;
		out->hit = w_add(out->hit, w_mul(off->w[x], cum[x]));
		for (int i = 0; i < nnzd && nzd[i] < x; i++) {
			struct odds_w p = w_mul(off->w[x], def->w[nzd[i]]);
			int dmg = x - nzd[i];

			out->damage[dmg] = w_add(out->damage[dmg], p);
			out->damage_sum = w_add(out->damage_sum,
			    w_mul(p, w_int((unsigned long long)dmg)));
		}
	}
	free(cum);
	free(nzd);
}

void
odds_strike(const struct deck *od, int obase, const struct deck *dd,
    int dbase, struct odds_versus *out)
{
	struct odds_dist a, b;

	odds_pick(od, 1, obase, ODDS_ATTACK, &a);
	odds_pick(dd, 1, dbase, ODDS_DEFENSE, &b);
	odds_versus(&a, &b, out);
	odds_dist_release(&a);
	odds_dist_release(&b);
}

void
odds_versus_release(struct odds_versus *v)
{
	free(v->damage);
	memset(v, 0, sizeof *v);
}

long double
odds_p(struct odds_w w, struct odds_w den)
{
	if (!w.ovf && !den.ovf)
		return den.v ? (long double)w.v / (long double)den.v : 0;
	return den.f ? w.f / den.f : 0;
}

static odds_u128
gcd(odds_u128 a, odds_u128 b)
{
	while (b) {
		odds_u128 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Writes x in decimal; returns the length. */
static size_t
u128_str(odds_u128 x, char *buf)
{
	char tmp[48];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + (int)(x % 10));
		x /= 10;
	} while (x);
	for (i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = '\0';
	return n;
}

int
odds_fraction(struct odds_w w, struct odds_w den, char *buf, size_t bufsz)
{
	char a[48], b[48];
	odds_u128 g;

	if (w.ovf || den.ovf || den.v == 0)
		return -1;
	if (w.v == 0) {
		snprintf(buf, bufsz, "0");
		return 0;
	}
	g = gcd(w.v, den.v);
	u128_str(w.v / g, a);
	u128_str(den.v / g, b);
	if (den.v / g == 1)
		snprintf(buf, bufsz, "%s", a);
	else
		snprintf(buf, bufsz, "%s/%s", a, b);
	return 0;
}
