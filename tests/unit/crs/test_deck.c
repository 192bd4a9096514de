/*
 * test_deck.c - the deck and the pick engine: chains of 10s, Aces,
 * the defensive special draw, set-aside cards, the empty deck, and the
 * physical-card checks.
 */
#include "tap.h"

#include "crs/deck.h"

/* Runs a physical pick of the typed faces; returns deck_pick's result. */
static int
typed(struct deck *d, int kind, int ncards, const int *faces, int n,
    int special, struct deck_pick *p, char *why, size_t whysz)
{
	struct deck_typed t = { faces, n, 0, special, 0 };
	struct deck_source src = deck_physical(&t);

	why[0] = '\0';
	return deck_pick(d, kind, ncards, &src, p, why, whysz);
}

int
main(void)
{
	struct deck d;
	struct deck_pick p;
	char why[200];
	int faces[DECK_DRAW_MAX];

	deck_init(&d, 0);
	is_int(deck_size(&d), 10, "LB 0 deck has 10 cards");
	deck_init(&d, 3);
	is_int(deck_size(&d), 13, "LB 3 deck has 13 cards");
	is_int(d.avail[10], 4, "four 10s");

	/* A 10 then a 7: 17, both set aside. */
	deck_init(&d, 1);
	is_int(typed(&d, DECK_OFFENSE, 1, (int[]){ 10, 7 }, 2, 0, &p, why,
	    sizeof why), 0, "10,7 accepted");
	is_int(p.value, 17, "10,7 is 17");
	is_int(p.ncards, 2, "two cards drawn");
	is_int(d.avail[10], 1, "one 10 left");
	is_int(d.avail[7], 0, "the 7 is set aside");
	is_int(deck_total(&p, 5), 22, "base 5 + 17");
	/* The set-aside 7 cannot come up again this round. */
	is_int(typed(&d, DECK_OFFENSE, 1, (int[]){ 7 }, 1, 0, &p, why,
	    sizeof why), -1, "set-aside 7 refused");
	is_str(why, "card 1: the 7 is not in the deck (drawn or set aside "
	    "this round)", "its reason");
	/* Set-aside cards stay out across picks until Clean Up. */
	is_int(typed(&d, DECK_OFFENSE, 1, (int[]){ 3 }, 1, 0, &p, why,
	    sizeof why), 0, "a second pick of the round");
	is_int(deck_size(&d), 8, "three cards out after two picks");
	deck_clean_up(&d);
	is_int(deck_size(&d), 11, "Clean Up puts every card back");
	ok(d.avail[7] == 1 && d.avail[3] == 1 && d.avail[10] == 2,
	    "the 7, the 3 and both 10s are back");
	/* Two 10s in a row with LB 1, then the chain needs a third card. */
	is_int(typed(&d, DECK_OFFENSE, 1, (int[]){ 10, 10, 3 }, 3, 0, &p,
	    why, sizeof why), 0, "10,10,3 with LB 1");
	is_int(p.value, 23, "10,10,3 is 23");
	deck_clean_up(&d);
	is_int(typed(&d, DECK_OFFENSE, 1, (int[]){ 10, 10, 10 }, 3, 0, &p,
	    why, sizeof why), -1, "a third 10 with LB 1 refused");
	is_str(why, "card 3: no 10 is left in the deck (LB 1 gives 2; the "
	    "rest are drawn or set aside)", "its reason");
	is_int(typed(&d, DECK_OFFENSE, 1, (int[]){ 10 }, 1, 0, &p, why,
	    sizeof why), -1, "a pick ending on a 10 refused");
	is_str(why, "the pick stops right after a 10: a 10 must be followed "
	    "by another card", "its reason");
	is_int(typed(&d, DECK_OFFENSE, 1, (int[]){ 1, 5 }, 2, 0, &p, why,
	    sizeof why), -1, "a card after an Ace refused");
	is_str(why, "card 2: the 5 comes after the pick was over (an Ace "
	    "ends it)", "its reason");
	is_int(typed(&d, DECK_OFFENSE, 1, (int[]){ 4, 5 }, 2, 0, &p, why,
	    sizeof why), -1, "a card too many refused");
	is_int(typed(&d, DECK_OFFENSE, 2, (int[]){ 4 }, 1, 0, &p, why,
	    sizeof why), -1, "too few for two cards refused");
	is_str(why, "the pick needs another card", "its reason");
	is_int(d.avail[4], 1, "a refused pick leaves the deck as it was");

	/* An Ace anywhere is a fumble; the Ace goes back, the rest stay out. */
	deck_clean_up(&d);
	is_int(typed(&d, DECK_OFFENSE, 2, (int[]){ 10, 6, 1 }, 3, 0, &p, why,
	    sizeof why), 0, "10,6,A in a two-card pick");
	ok(p.fumble, "fumble");
	is_int(p.value, 0, "value 0");
	is_int(deck_total(&p, 12), 0, "a fumble zeroes the modifiers too");
	is_int(d.avail[1], 1, "the Ace is back");
	is_int(d.avail[6], 0, "the 6 stays out");
	is_int(d.avail[10], 1, "the 10 stays out");

	/* Multi-card picks sum, each card with its chain. */
	deck_init(&d, 2);
	is_int(typed(&d, DECK_OFFENSE, 3, (int[]){ 2, 10, 10, 9, 3 }, 5, 0,
	    &p, why, sizeof why), 0, "three cards with a chain in the middle");
	is_int(p.value, 34, "2 + 10+10+9 + 3");

	/* Initiative: the deck is unchanged afterwards. */
	deck_init(&d, 1);
	is_int(typed(&d, DECK_INITIATIVE, 1, (int[]){ 10, 8 }, 2, 0, &p, why,
	    sizeof why), 0, "initiative 10,8");
	is_int(deck_total(&p, 5), 23, "IN 5 + 18");
	is_int(deck_size(&d), 11, "initiative cards go back at once");
	is_int(typed(&d, DECK_INITIATIVE, 1, (int[]){ 1 }, 1, 0, &p, why,
	    sizeof why), 0, "initiative Ace");
	is_int(deck_total(&p, 5), 0, "IN + Ace = 0");

	/* The defensive Ace: base minus the special card. */
	deck_init(&d, 0);
	is_int(typed(&d, DECK_DEFENSE, 1, (int[]){ 1 }, 1, 4, &p, why,
	    sizeof why), 0, "defence Ace, special 4");
	is_int(p.special, 4, "special 4");
	is_int(deck_total(&p, 12), 8, "DR 12 - 4");
	is_int(deck_total(&p, 3), 0, "DR 3 - 4 stops at 0");
	is_int(d.avail[1], 1, "the Ace is back after the special draw");
	is_int(d.avail[4], 0, "the special card is set aside");
	deck_clean_up(&d);
	is_int(typed(&d, DECK_DEFENSE, 1, (int[]){ 1 }, 1, 10, &p, why,
	    sizeof why), 0, "defence Ace, special 10");
	is_int(deck_total(&p, 12), 12, "a special 10 counts 0 and forces "
	    "nothing");
	deck_clean_up(&d);
	is_int(typed(&d, DECK_DEFENSE, 1, (int[]){ 1 }, 1, 1, &p, why,
	    sizeof why), -1, "the Ace as special card refused");
	is_int(typed(&d, DECK_DEFENSE, 1, (int[]){ 1 }, 1, 0, &p, why,
	    sizeof why), -1, "a defensive Ace needs its special card");
	is_int(typed(&d, DECK_OFFENSE, 1, (int[]){ 5 }, 1, 3, &p, why,
	    sizeof why), -1, "a special card without a defensive Ace refused");
	/* Nothing left for the special draw: the defence is 0. */
	deck_init(&d, 0);
	is_int(deck_parse_list("2,3,4,5,6,7,8,9,10", faces, 20, why,
	    sizeof why), 9, "nine faces parsed");
	is_int(deck_set_aside(&d, faces, 9, why, sizeof why), 0,
	    "all but the Ace set aside");
	is_int(typed(&d, DECK_DEFENSE, 1, (int[]){ 1 }, 1, 0, &p, why,
	    sizeof why), 0, "defence Ace with nothing else left");
	is_int(p.special, 0, "no special card");
	is_int(deck_total(&p, 12), 0, "defence 0");
	/* An empty deck: the calculation is 0. */
	deck_init(&d, 0);
	deck_set_aside(&d, faces, 9, why, sizeof why);
	{
		struct rng r;
		struct deck_source src = deck_virtual(&r);

		rng_seed(&r, 1);
		d.avail[1] = 0;
		is_int(deck_pick(&d, DECK_OFFENSE, 1, &src, &p, why,
		    sizeof why), 0, "pick from an empty deck");
		ok(p.empty, "empty");
		is_int(deck_total(&p, 9), 0, "empty gives 0");
	}
	/* A 10 whose follow-up finds no card. */
	deck_init(&d, 0);
	d.avail[1] = 0;
	deck_set_aside(&d, faces, 8, why, sizeof why);
	is_int(typed(&d, DECK_OFFENSE, 1, (int[]){ 10 }, 1, 0, &p, why,
	    sizeof why), 0, "a lone 10 and nothing after it");
	ok(p.empty, "empty after the 10");
	is_int(deck_total(&p, 7), 0, "0 as a fumble would be");

	/* Set-aside checks and LIST parsing. */
	deck_init(&d, 0);
	is_int(deck_set_aside(&d, (int[]){ 1 }, 1, why, sizeof why), -1,
	    "an Ace cannot be set aside");
	is_int(deck_set_aside(&d, (int[]){ 10, 10 }, 2, why, sizeof why), -1,
	    "two 10s with LB 0");
	is_str(why, "more 10s set aside than the 1 in a deck of LB 0", "why");
	is_int(deck_set_aside(&d, (int[]){ 3, 3 }, 2, why, sizeof why), -1,
	    "a 3 twice");
	is_int(deck_size(&d), 10, "failed set-asides change nothing");
	is_int(deck_parse_list("A,1,10,2", faces, 20, why, sizeof why), 4,
	    "A,1,10,2");
	ok(faces[0] == 1 && faces[1] == 1 && faces[2] == 10 && faces[3] == 2,
	    "faces read");
	is_int(deck_parse_list("11", faces, 20, why, sizeof why), -1, "11");
	is_str(why, "'11' is not a card (A or 1, 2 to 10)", "11's reason");
	is_int(deck_parse_list("K", faces, 20, why, sizeof why), -1, "K");
	is_int(deck_parse_list("3,,4", faces, 20, why, sizeof why), -1,
	    "an empty entry");
	is_int(deck_parse_list("0", faces, 20, why, sizeof why), -1, "0");
	is_int(deck_parse_list("+3", faces, 20, why, sizeof why), -1, "+3");
	is_int(deck_parse_list("", faces, 20, why, sizeof why), 0, "nothing");

	/* Virtual picks follow the same rules: every card accounted for. */
	{
		struct rng r;
		struct deck_source src = deck_virtual(&r);
		int badsum = 0, badaside = 0;

		rng_seed(&r, 99);
		for (int i = 0; i < 20000; i++) {
			int s = 0;

			deck_init(&d, i % 4);
			deck_pick(&d, DECK_OFFENSE, 1 + i % 3, &src, &p, why,
			    sizeof why);
			for (int c = 0; c < p.ncards; c++)
				s += p.cards[c] == 1 ? 0 : p.cards[c];
			if (!p.fumble && !p.empty && s != p.value)
				badsum++;
			if (deck_size(&d) != 10 + i % 4 - p.ncards +
			    (p.fumble ? 1 : 0))
				badaside++;
		}
		is_int(badsum, 0, "virtual values are the card sums");
		is_int(badaside, 0, "virtual picks set aside all but the Ace");
	}
	return tap_done();
}
