/*
 * fuzz_deck.c - card lists as the GM types them (--drawn, --out): the
 * list parser, then the faces set aside or used as a physical pick on a
 * deck, which must refuse or take them without breaking the deck.
 */
#include "common.h"

#include "crs/deck.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size), *second;
	int faces[32], out[32], n, nout = 0, lb;
	char why[256];
	struct deck d;
	struct deck_pick p;

	/* "DRAWN|OUT": the cards typed, then those set aside. */
	if ((second = strchr(s, '|')) != NULL)
		*second++ = '\0';
	why[0] = '\0';
	n = deck_parse_list(s, faces, 32, why, sizeof why);
	if (n < 0) {
		FUZZ_WHY(why);
		free(s);
		return 0;
	}
	FUZZ_CHECK(n <= 32);
	for (int i = 0; i < n; i++)
		FUZZ_CHECK(faces[i] >= 1 && faces[i] <= 10);
	if (second && (nout = deck_parse_list(second, out, 32, why,
	    sizeof why)) < 0)
		nout = 0;
	lb = size % (DECK_LB_MAX + 1);
	deck_init(&d, lb);
	int before = deck_size(&d);

	if (nout > 0 && deck_set_aside(&d, out, nout, why, sizeof why) != 0) {
		FUZZ_WHY(why);
		FUZZ_CHECK(deck_size(&d) == before);
	}
	for (int kind = 0; kind < 3; kind++) {
		struct deck_typed t = { faces, n, 0, 0, 0 };
		struct deck_source src = deck_physical(&t);
		struct deck copy = d;
		int size0 = deck_size(&d);

		why[0] = '\0';
		if (deck_pick(&copy, kind, 1 + (int)(size % DECK_CARDS_MAX),
		    &src, &p, why, sizeof why) != 0) {
			FUZZ_WHY(why);
			FUZZ_CHECK(memcmp(&copy, &d, sizeof d) == 0);
		} else
			FUZZ_CHECK(deck_size(&copy) <= size0);
	}
	free(s);
	return 0;
}
