/*
 * d6.h - the D6 System's dice (seed 004, RULINGS section 3): die codes,
 * the Wild Die and its three treatments of a 1, the multiple-action
 * penalty, Character and Force Points, seeded rolls, and exact odds.
 * Pure: no I/O, randomness only through struct rng.
 *
 * Exact odds use GMP rationals.  A total that the Wild Die (or a
 * Character Point die) can push without bound has a distribution with no
 * last value, but the chance of meeting a target is a finite sum (one
 * minus the chance of every smaller total), so it is exact; an opposed
 * roll is exact too when each side has one exploding die, because the
 * far tail is a geometric series (ratio 1/36 every six totals).
 */
#ifndef REFKIT_D6_H
#define REFKIT_D6_H

#include <gmp.h>
#include <stddef.h>

#include "base/rng.h"

#define D6_DICE_MAX	100	/* dice in a code as written */
#define D6_PIPS_MAX	100	/* pips in a code as written, either sign */
#define D6_ROLL_MAX	250	/* dice in one roll, after every adjustment */
#define D6_CP_MAX	5	/* Character Points on a reaction roll */
#define D6_CP_SKILL	2	/* ... on a skill or attribute roll */
#define D6_CHAIN_MAX	32	/* tosses of one exploding die kept */

/*
 * A die code: dice D6s plus pips.  plain is set for codes written the
 * common way (D6, 2D6, 3d6+1), which roll with no Wild Die.
 */
struct d6_code {
	int	dice;
	int	pips;
	int	plain;
};

/*
 * Parses "ND", "ND+P", "ND-P" (D in either case) or "NDX" / "DX" with
 * X = 6 (plain dice).  Returns 0, or -1 with the reason in why.
 */
int d6_parse_code(const char *s, struct d6_code *c, char *why,
    size_t whysz);

/* Writes the code as "4D+2" or, plain, "3D6+1". */
void d6_code_str(const struct d6_code *c, char *buf, size_t sz);

/*
 * c plus dice and pips, with pips carried into dice three at a time so
 * that they stay between -2 and +2 (3D+2 plus 1 pip is 4D).  Pips
 * already outside that range in c are carried too.
 */
struct d6_code d6_code_add(struct d6_code c, int dice, int pips);

/* What a 1 on the Wild Die's first toss does. */
enum d6_one {
	D6_ONE_COMPLICATION,	/* it counts, and flags a complication */
	D6_ONE_DROP,		/* it and the highest other die are removed */
	D6_ONE_NONE		/* it counts, nothing else */
};

/* Everything that decides how a roll is made. */
struct d6_spec {
	struct d6_code	code;	/* as rolled: after penalty and Force Point */
	struct d6_code	base;	/* as asked */
	int		wild;	/* one of the dice is the Wild Die */
	enum d6_one	one;
	int		cp;	/* Character Point dice, rolled after */
	int		fp;	/* a Force Point doubled the code */
	int		actions;	/* actions this round (penalty actions-1 D) */
};

/* What a roll may combine: the limits of RULINGS section 3. */
struct d6_mods {
	int		actions;	/* >= 1 */
	int		cp;		/* >= 0 */
	int		cp_max;		/* D6_CP_SKILL or D6_CP_MAX */
	int		fp;		/* 0 or 1 */
	int		no_wild;
	enum d6_one	one;
};

/*
 * Builds the spec of base under mods: the action penalty first (a roll
 * left with less than 1D cannot be tried), then the Force Point's
 * doubling, then the Character Points (never with a Force Point, at
 * most cp_max).  Returns 0, or -1 with the reason in why.
 */
int d6_spec_make(struct d6_spec *s, struct d6_code base,
    const struct d6_mods *m, char *why, size_t whysz);

/* One exploding die's tosses: a 6 adds and tosses again. */
struct d6_chain {
	int	n;			/* tosses (v keeps the first 32) */
	int	v[D6_CHAIN_MAX];
	long	sum;
};

struct d6_roll {
	int		ndice;		/* regular dice */
	int		dice[D6_ROLL_MAX];
	struct d6_chain	wild;		/* n == 0 when there is no Wild Die */
	int		ncp;
	struct d6_chain	cp[D6_CP_MAX];
	int		drop;		/* dropped regular die's index, or -1 */
	int		dropped_wild;	/* the Wild Die's 1 was removed */
	int		complication;
	long		total;
};

/* Rolls s with r. */
void d6_roll(struct rng *r, const struct d6_spec *s, struct d6_roll *out);

/* A single plain 1D6 (the sub-rolls of the damage charts). */
int d6_die(struct rng *r);

/* Difficulty names: 0 and the number, or -1 for an unknown name. */
int d6_difficulty_name(const char *name, long *value);
/* The name of the band a difficulty number falls in. */
const char *d6_difficulty_band(long value);

/*
 * The exact law of a roll.  Probabilities are GMP rationals; p_success
 * is set by d6_odds_target and d6_odds_opposed.
 */
struct d6_odds {
	long	 lo;		/* the lowest possible total */
	long	 n;		/* totals lo .. lo+n-1 are listed */
	mpq_t	*p;		/* their probabilities */
	mpq_t	 tail;		/* P(total >= lo+n) */
	mpq_t	 p_complication;
	mpq_t	 p_success;
	int	 exact;		/* p_success is exact (else within 1e-15) */
	double	 mean;		/* the mean total */
};

/*
 * The distribution of s, listed from its lowest total until less than
 * tail_max lies beyond, and P(total >= target).  Free with
 * d6_odds_free.
 */
void d6_odds_target(const struct d6_spec *s, long target, double tail_max,
    struct d6_odds *o);

/*
 * The distribution of a and P(a's total >= b's total): the one who acts
 * wins ties.
 */
void d6_odds_opposed(const struct d6_spec *a, const struct d6_spec *b,
    double tail_max, struct d6_odds *o);

void d6_odds_free(struct d6_odds *o);

#endif
