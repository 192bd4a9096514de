/*
 * rng.h - the project's one source of randomness: xoshiro256** seeded
 * through splitmix64 from a 64-bit seed.  Fully specified here, never the
 * C library's rand(), so a seed replays the same draws on any machine.
 */
#ifndef REFKIT_RNG_H
#define REFKIT_RNG_H

#include <stdint.h>

#define RNG_D6_BATCH	16	/* dice rng_d6 draws from one output */

struct rng {
	uint64_t	s[4];
	uint8_t		d6[RNG_D6_BATCH];	/* drawn ahead, last first */
	int		nd6;			/* of them still unused */
};

/*
 * 1 if two generators are in the same state (member by member: the
 * struct has padding, so memcmp could differ on equal states).
 */
int rng_equal(const struct rng *a, const struct rng *b);

/* Seeds the generator; every seed, 0 included, gives a usable state. */
void rng_seed(struct rng *r, uint64_t seed);

/*
 * Advances the generator by 2^128 outputs (Blackman and Vigna's jump
 * for xoshiro256**), in the time of 256 outputs; the dice drawn ahead
 * are dropped.  Jumps from one seed give streams that cannot overlap
 * within 2^128 outputs each, for work split over threads.
 */
void rng_jump(struct rng *r);

/*
 * Seeds r with stream k of a seed: rng_seed, then k jumps.  Stream 0 is
 * the seed's own sequence.
 */
void rng_stream(struct rng *r, uint64_t seed, unsigned k);

/* The next 64 random bits. */
uint64_t rng_next(struct rng *r);

/* A uniform whole number in [0, n), n > 0, without modulo bias. */
uint64_t rng_below(struct rng *r, uint64_t n);

/*
 * Refills r->d6 with RNG_D6_BATCH dice from one 64-bit output, by
 * Lemire and Brackett's batched multiply-and-shift: the output x is
 * read as the fraction x / 2^64 of 6^16, whose base-6 digits are the
 * dice, and the rare outputs that would bias them are drawn again.  So
 * the dice are exactly uniform and independent, sixteen for the price
 * of one output.
 */
void rng_d6_fill(struct rng *r);

/*
 * A six-sided die (1..6), for simulations that roll millions.  It draws
 * differently from rng_below, so a tool keeps to one of the two for its
 * replays to hold (fb-duel uses rng_d6, the others rng_below).
 */
static inline int
rng_d6(struct rng *r)
{
	if (r->nd6 == 0)
		rng_d6_fill(r);
	return r->d6[--r->nd6];
}

/* A seed from the operating system (getrandom), for unseeded runs. */
uint64_t rng_os_seed(void);

/* Parses a decimal seed (0 to 2^64-1).  Returns 0, or -1 if it is not one. */
int rng_parse_seed(const char *s, uint64_t *seed);

#endif
