/*
 * rng.h - the project's one source of randomness: xoshiro256** seeded
 * through splitmix64 from a 64-bit seed.  Fully specified here, never the
 * C library's rand(), so a seed replays the same draws on any machine.
 */
#ifndef REFKIT_RNG_H
#define REFKIT_RNG_H

#include <stdint.h>

struct rng {
	uint64_t	s[4];
};

/* Seeds the generator; every seed, 0 included, gives a usable state. */
void rng_seed(struct rng *r, uint64_t seed);

/* The next 64 random bits. */
uint64_t rng_next(struct rng *r);

/* A uniform whole number in [0, n), n > 0, without modulo bias. */
uint64_t rng_below(struct rng *r, uint64_t n);

/*
 * A die of 1..sides (sides > 0), by Lemire's multiply-and-shift with
 * rejection: as unbiased as rng_below and without its divisions, for
 * simulations that roll millions.  It draws differently from rng_below,
 * so a tool keeps to one of the two for its replays to hold.
 */
int rng_die(struct rng *r, int sides);

/* A seed from the operating system (getrandom), for unseeded runs. */
uint64_t rng_os_seed(void);

/* Parses a decimal seed (0 to 2^64-1).  Returns 0, or -1 if it is not one. */
int rng_parse_seed(const char *s, uint64_t *seed);

#endif
