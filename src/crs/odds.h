/*
 * odds.h - exact odds of Action Card picks and of offence against
 * defence, by enumeration, never by sampling.  Pure.
 *
 * Every probability is an integer weight over a common denominator.  The
 * weights are kept exactly (128-bit) and, beside them, as long doubles;
 * for decks so large that an exact weight would overflow, only the long
 * double stands (odds_w.ovf), which still gives 15 or more significant
 * digits.
 */
#ifndef REFKIT_ODDS_H
#define REFKIT_ODDS_H

#include <stddef.h>

#include "crs/deck.h"

__extension__ typedef unsigned __int128 odds_u128;

/* A non-negative whole weight, exact unless ovf, and approximately f. */
struct odds_w {
	odds_u128	v;
	long double	f;
	int		ovf;
};

/* The distribution of a calculation's total: P(total = x) = w[x] / den. */
struct odds_dist {
	int		 n;		/* totals 0 .. n-1 */
	int		 cap;		/* of w (grown by doubling) */
	struct odds_w	*w;		/* owned; free with odds_dist_release */
	struct odds_w	 den;
	struct odds_w	 fumble;	/* weight of an Ace in the pick */
	struct odds_w	 empty;		/* weight of running out of cards */
};

enum odds_side { ODDS_ATTACK, ODDS_DEFENSE };

/*
 * The distribution of base + a pick of ncards cards from deck d: as an
 * attack (a fumble or an empty deck gives 0) or as a defence (a fumble
 * subtracts the special card from base; a 10 there counts 0; no card
 * left gives 0).  Totals never go below 0.  base may be negative (it is
 * then treated as 0 where it stands alone).
 */
void odds_pick(const struct deck *d, int ncards, int base, int side,
    struct odds_dist *out);
void odds_dist_release(struct odds_dist *dist);

/* Offence against defence: P(hit) and the damage distribution. */
struct odds_versus {
	struct odds_w	 den;
	struct odds_w	 hit;		/* weight of offence > defence */
	struct odds_w	 damage_sum;	/* sum of damage times its weight */
	int		 n;		/* damage values 0 .. n-1 */
	struct odds_w	*damage;	/* owned; damage[0] is unused */
};

void odds_versus(const struct odds_dist *off, const struct odds_dist *def,
    struct odds_versus *out);
void odds_versus_release(struct odds_versus *v);

/*
 * One strike: a pick of one card from deck od on base obase, as an
 * attack, against one from dd on dbase, as a defence (odds_versus).
 */
void odds_strike(const struct deck *od, int obase, const struct deck *dd,
    int dbase, struct odds_versus *out);

/* w / den as a long double. */
long double odds_p(struct odds_w w, struct odds_w den);

/*
 * Writes w / den as a reduced fraction "n/d" into buf.  Returns 0, or -1
 * if the exact value overflowed.
 */
int odds_fraction(struct odds_w w, struct odds_w den, char *buf,
    size_t bufsz);

#endif
