/*
 * rng.c - splitmix64 and xoshiro256** (Blackman and Vigna), an unbiased
 * bounded draw by rejection, and batched unbiased dice; see rng.h.
 */
#include "rng.h"

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int
rng_equal(const struct rng *a, const struct rng *b)
{
	/* Only the batch's unused dice are state (rng_seed leaves the rest). */
	return memcmp(a->s, b->s, sizeof a->s) == 0 && a->nd6 == b->nd6 &&
	    memcmp(a->d6, b->d6, (size_t)a->nd6) == 0;
}

void
rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
	r->nd6 = 0;
}

static uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t
rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t
rng_below(struct rng *r, uint64_t n)
{
	/* Values below 2^64 mod n would make small results likelier. */
	uint64_t floor = (0 - n) % n;
	uint64_t x;

	do
		x = rng_next(r);
	while (x < floor);
	return x % n;
}

/* 6^RNG_D6_BATCH, well below 2^64. */
#define D6_BOUND	2821109907456ULL

void
rng_d6_fill(struct rng *r)
{
	__extension__ typedef unsigned __int128 u128;
	/* 6^k, for the k-th step of the chain below. */
	static const uint64_t pow6[RNG_D6_BATCH] = {
		1ULL, 6ULL, 36ULL, 216ULL, 1296ULL, 7776ULL, 46656ULL,
		279936ULL, 1679616ULL, 10077696ULL, 60466176ULL, 362797056ULL,
		2176782336ULL, 13060694016ULL, 78364164096ULL, 470184984576ULL
	};
	uint64_t x, floor = 0;
	uint8_t d[RNG_D6_BATCH];	/* a local: stores to it alias nothing */

	/*
	 * Die k is the top of 6 times the fraction left after k dice, and
	 * that fraction is x * 6^k mod 2^64: so each die is worked out on
	 * its own, not down a chain of dependent multiplies.
	 */
	for (;;) {
		x = rng_next(r);
		for (int k = 0; k < RNG_D6_BATCH; k++) {
			u128 m = (u128)(x * pow6[k]) * 6;

			/* The first die is used first, from the top. */
			d[RNG_D6_BATCH - 1 - k] = (uint8_t)(m >> 64) + 1;
		}
		/* The whole chain is one draw of x * 6^16: Lemire's test. */
		if (x * D6_BOUND >= D6_BOUND)
			break;
		if (floor == 0)
			floor = (0 - D6_BOUND) % D6_BOUND;
		if (x * D6_BOUND >= floor)
			break;
	}
	memcpy(r->d6, d, sizeof d);
	r->nd6 = RNG_D6_BATCH;
}

uint64_t
rng_os_seed(void)
{
	uint64_t seed;

	if (getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed)
		err(1, "cannot get a random seed from the system");
	return seed;
}

int
rng_parse_seed(const char *s, uint64_t *seed)
{
	char *end;
	unsigned long long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end != '\0' || errno == ERANGE)
		return -1;
	*seed = v;
	return 0;
}
