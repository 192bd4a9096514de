/*
 * test_rng.c - the generator gives the published xoshiro256** sequence
 * (checked against an independent implementation), repeats per seed, and
 * bounded draws stay in range without bias, and batched dice are the
 * base-6 digits of one output scaled to 6^16; the jump's streams.
 */
#include "tap.h"

#include "base/rng.h"

/* The dice rng_d6 must give from output x: the digits of x * 6^16 / 2^64. */
static void
digits(uint64_t x, int *d)
{
	__extension__ typedef unsigned __int128 u128;
	uint64_t bound = 1, top;

	for (int k = 0; k < RNG_D6_BATCH; k++)
		bound *= 6;
	top = (uint64_t)(((u128)x * bound) >> 64);
	for (int k = RNG_D6_BATCH - 1; k >= 0; k--) {
		d[k] = (int)(top % 6) + 1;
		top /= 6;
	}
}

static void
test_d6(void)
{
	struct rng r, r2;
	int want[RNG_D6_BATCH], same = 1, faces[7] = { 0 }, out = 0;

	rng_seed(&r, 1);
	r2 = r;
	for (int batch = 0; batch < 3; batch++) {
		digits(rng_next(&r2), want);
		for (int k = 0; k < RNG_D6_BATCH; k++)
			same &= rng_d6(&r) == want[k];
	}
	ok(same, "rng_d6: three batches are the base-6 digits of three "
	    "outputs, first digit first");
	rng_seed(&r, 99);
	for (int i = 0; i < 600000; i++) {
		int d = rng_d6(&r);

		if (d < 1 || d > 6)
			out++;
		else
			faces[d]++;
	}
	is_int(out, 0, "rng_d6 stays within 1..6");
	ok(faces[1] > 99000 && faces[1] < 101000 && faces[2] > 99000 &&
	    faces[2] < 101000 && faces[3] > 99000 && faces[3] < 101000 &&
	    faces[4] > 99000 && faces[4] < 101000 && faces[5] > 99000 &&
	    faces[5] < 101000 && faces[6] > 99000 && faces[6] < 101000,
	    "rng_d6 is even over 600000 dice: %d %d %d %d %d %d", faces[1],
	    faces[2], faces[3], faces[4], faces[5], faces[6]);
	rng_seed(&r, 5);
	(void)rng_d6(&r);
	rng_seed(&r, 5);
	rng_seed(&r2, 5);
	ok(rng_d6(&r) == rng_d6(&r2) && r.nd6 == RNG_D6_BATCH - 1,
	    "reseeding drops the dice drawn ahead");
}

/*
 * The streams: known answers from an independent implementation (in
 * which x^(2^128) modulo the characteristic polynomial, found by
 * Berlekamp-Massey, gave the jump's constants); stream 0 is the seed's
 * own sequence; a jump commutes with a step, as a power of the step
 * must; and it drops the dice drawn ahead.
 */
static void
test_stream(void)
{
	struct rng r, r2;
	int same = 1;

	rng_stream(&r, 1, 1);
	ok(rng_next(&r) == 0x332802f81eaae9d0ULL &&
	    rng_next(&r) == 0x02d18d7749b84f96ULL,
	    "seed 1, stream 1, first two outputs");
	rng_stream(&r, 1, 2);
	ok(rng_next(&r) == 0xc00b7581fee144e3ULL &&
	    rng_next(&r) == 0x3108407c917a55d4ULL,
	    "seed 1, stream 2, first two outputs");
	rng_stream(&r, 5, 2);
	ok(rng_next(&r) == 0x16f45a6478c72180ULL,
	    "seed 5, stream 2, first output");
	rng_stream(&r, 5, 1);
	ok(rng_next(&r) == 0x293c8fef77ac8c03ULL,
	    "seed 5, stream 1, first output");
	rng_stream(&r, 9, 0);
	rng_seed(&r2, 9);
	for (int i = 0; i < 100; i++)
		same &= rng_next(&r) == rng_next(&r2);
	ok(same, "stream 0 is the seed's own sequence");
	rng_seed(&r, 3);
	rng_seed(&r2, 3);
	(void)rng_next(&r);
	rng_jump(&r);
	rng_jump(&r2);
	(void)rng_next(&r2);
	ok(rng_equal(&r, &r2), "a jump commutes with a step");
	rng_seed(&r, 3);
	(void)rng_d6(&r);
	rng_jump(&r);
	is_int(r.nd6, 0, "a jump drops the dice drawn ahead");
}

int
main(void)
{
	struct rng r, r2;
	uint64_t seed;
	int counts[3] = { 0, 0, 0 }, bad = 0;

	rng_seed(&r, 0);
	ok(rng_next(&r) == 0x99ec5f36cb75f2b4ULL, "seed 0, first output");
	ok(rng_next(&r) == 0xbf6e1f784956452aULL, "seed 0, second output");
	ok(rng_next(&r) == 0x1a5f849d4933e6e0ULL, "seed 0, third output");
	rng_seed(&r, 42);
	ok(rng_next(&r) == 0x15780b2e0c2ec716ULL, "seed 42, first output");
	rng_seed(&r, 7);
	rng_seed(&r2, 7);
	for (int i = 0; i < 1000; i++)
		if (rng_next(&r) != rng_next(&r2))
			bad++;
	is_int(bad, 0, "the same seed repeats");
	rng_seed(&r, 1);
	for (int i = 0; i < 300000; i++) {
		uint64_t x = rng_below(&r, 3);

		if (x > 2)
			bad++;
		else
			counts[x]++;
	}
	is_int(bad, 0, "rng_below(3) stays below 3");
	ok(counts[0] > 99000 && counts[0] < 101000 && counts[1] > 99000 &&
	    counts[1] < 101000, "rng_below(3) is even: %d %d %d", counts[0],
	    counts[1], counts[2]);
	is_int(rng_below(&r, 1), 0, "rng_below(1) is 0");
	ok(rng_parse_seed("18446744073709551615", &seed) == 0 &&
	    seed == UINT64_MAX, "the largest seed parses");
	ok(rng_parse_seed("18446744073709551616", &seed) != 0,
	    "2^64 is refused");
	ok(rng_parse_seed("-1", &seed) != 0, "-1 is refused");
	ok(rng_parse_seed("12x", &seed) != 0, "12x is refused");
	ok(rng_parse_seed("", &seed) != 0, "empty is refused");
	test_d6();
	test_stream();
	return tap_done();
}
