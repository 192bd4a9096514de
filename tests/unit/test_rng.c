/*
 * test_rng.c - the generator gives the published xoshiro256** sequence
 * (checked against an independent implementation), repeats per seed, and
 * bounded draws stay in range without bias.
 */
#include "tap.h"

#include "rng.h"

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
	return tap_done();
}
