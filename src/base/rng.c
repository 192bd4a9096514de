/*
 * rng.c - splitmix64 and xoshiro256** (Blackman and Vigna) with its jump,
 * an unbiased bounded draw by rejection, and batched unbiased dice; see
 * rng.h.
 */
#include "base/rng.h"

#include "base/util.h"

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

void
rng_jump(struct rng *r)
{
	/* x^(2^128) modulo the generator's characteristic polynomial. */
	static const uint64_t jump[4] = {
		0x180ec6d33cfd0abaULL, 0xd5a61266f0c9392cULL,
		0xa9582618e03fc9aaULL, 0x39abdc4529b1661cULL
	};
	uint64_t t[4] = { 0, 0, 0, 0 };

	for (int i = 0; i < 4; i++)
		for (int b = 0; b < 64; b++) {
			if (jump[i] >> b & 1)
				for (int k = 0; k < 4; k++)
					t[k] ^= r->s[k];
			(void)rng_next(r);
		}
	memcpy(r->s, t, sizeof r->s);
	r->nd6 = 0;
}

void
rng_stream(struct rng *r, uint64_t seed, unsigned k)
{
	rng_seed(r, seed);
	while (k-- > 0)
		rng_jump(r);
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

/*
 * The four dice of each number below 6^4, the last die first, as
 * rng_d6_fill stores them (made before main, so threads only read it).
 */
static uint32_t d6_four[1296];
_Static_assert(RNG_D6_BATCH == 16, "rng_d6_fill cuts sixteen dice in four");

__attribute__((constructor)) static void
d6_four_make(void)
{
	for (uint32_t v = 0; v < 1296; v++) {
		uint32_t x = v, w = 0;

		for (int k = 0; k < 4; k++, x /= 6)
			w |= (x % 6 + 1) << (8 * k);
		d6_four[v] = w;
	}
}

/* Four dice, the last first, at d. */
static void
d6_put4(uint8_t *d, uint32_t v)
{
	uint32_t w = d6_four[v];

	for (int k = 0; k < 4; k++)
		d[k] = (uint8_t)(w >> (8 * k));
}

void
rng_d6_fill(struct rng *r)
{
	__extension__ typedef unsigned __int128 u128;
	const uint64_t bound = UINT64_C(2821109907456);	/* 6^16 */
	uint64_t low, floor = 0;

	for (;;) {
		/*
		 * Taking a die at a time from the top of low * 6, sixteen
		 * times, is taking the base-6 digits of the top half of
		 * low * 6^16, the first die its most significant digit; the
		 * bottom half is what is left of low.  So one product, cut in
		 * four numbers of four digits, read from a table.
		 */
		u128 m = (u128)rng_next(r) * bound;
		uint64_t top = (uint64_t)(m >> 64);
		uint32_t hi = (uint32_t)(top / 1679616), lo = (uint32_t)(top %
		    1679616);		/* 6^8 */

		low = (uint64_t)m;
		d6_put4(r->d6 + 12, hi / 1296);
		d6_put4(r->d6 + 8, hi % 1296);
		d6_put4(r->d6 + 4, lo / 1296);
		d6_put4(r->d6, lo % 1296);
		/* The steps are one draw of x * 6^16: Lemire's test. */
		if (low >= bound)
			break;
		if (floor == 0)
			floor = (0 - bound) % bound;
		if (low >= floor)
			break;
	}
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

	/* The number rule of util_parse_int: digits, no leading zero. */
	if (!util_is_digits(s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end != '\0' || errno == ERANGE)
		return -1;
	*seed = v;
	return 0;
}
