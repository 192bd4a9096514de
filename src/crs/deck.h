/*
 * deck.h - a character's Action Card deck and the AC Pick, by the book
 * (seed 002, "Action Cards"; RULINGS section 1): Ace, 2 to 9, one 10 plus
 * one per point of LB; chains of 10s; the Ace as fumble, and in defence
 * the special draw; cards set aside until Clean Up; the empty deck.
 * Pure: cards come from a card source the caller passes in.
 */
#ifndef REFKIT_DECK_H
#define REFKIT_DECK_H

#include <stddef.h>

#include "base/rng.h"

#define DECK_ACE	1
#define DECK_TEN	10
/* LB is a whole number from 0 to this. */
#define DECK_LB_MAX	1000
/* A pick draws 1 to this many cards, each with its chain of 10s. */
#define DECK_CARDS_MAX	20
/* The most cards one pick can draw: every card of the largest deck. */
#define DECK_DRAW_MAX	(9 + 1 + DECK_LB_MAX)

/*
 * The cards in the deck now: avail[1] is the Ace (0 or 1), avail[2..9]
 * the faces 2 to 9 (0 or 1 each), avail[10] the 10s (0 to 1 + LB).  A
 * card drawn and set aside is simply not available until deck_clean_up.
 */
struct deck {
	int	lb;
	int	avail[11];
};

enum deck_pick_kind {
	DECK_OFFENSE,		/* any pick outside a defence */
	DECK_DEFENSE,		/* an Ace forces the special draw */
	DECK_INITIATIVE		/* its cards go back at once */
};

/* What one pick did. */
struct deck_pick {
	int	kind;			/* enum deck_pick_kind */
	int	ncards;
	int	cards[DECK_DRAW_MAX];	/* faces in the order drawn */
	int	value;			/* sum of the cards; 0 on fumble/empty */
	int	fumble;			/* an Ace came up */
	int	empty;			/* a card was needed and none was left */
	int	special;		/* defence after a fumble: the special
					   card's face, 0 if none was left, -1
					   if there was no special draw */
};

/*
 * Where cards come from.  draw returns the face of the next card, taken
 * from the available cards of d (ace_out: the Ace is held out of this
 * draw), or 0 if it has none to give; -1 refuses, with the reason in why.
 * The engine removes the card from the deck itself.
 */
struct deck_source {
	int	(*draw)(void *ctx, const struct deck *d, int ace_out,
		    char *why, size_t whysz);
	void	*ctx;
};

/* A virtual source: uniform draws from the generator. */
struct deck_source deck_virtual(struct rng *r);

/*
 * A physical source: the faces typed by the GM, in order, then special
 * (the card of a defensive special draw, 0 for none given).  The engine
 * checks each against the deck and the rules.
 */
struct deck_typed {
	const int	*faces;
	int		 n;
	int		 next;
	int		 special;
	int		 special_used;
};
struct deck_source deck_physical(struct deck_typed *t);

/* A full deck for LB lb (0 to DECK_LB_MAX). */
void deck_init(struct deck *d, int lb);

/* Clean Up: every set-aside card back into the deck. */
void deck_clean_up(struct deck *d);

/* Cards available now. */
int deck_size(const struct deck *d);

/*
 * Sets aside faces[0..n) as if drawn earlier in the round.  Returns 0, or
 * -1 with why set ("an Ace is never set aside", "the 7 is set aside
 * twice", "only 2 10s in a deck of LB 1").
 */
int deck_set_aside(struct deck *d, const int *faces, int n, char *why,
    size_t whysz);

/*
 * Makes one pick of ncards cards (1 to DECK_CARDS_MAX), each with its
 * chain of 10s, from d through src, and updates d: offence and defence
 * cards stay out (Aces go back), initiative cards all go back.  Returns
 * 0, or -1 if the source refused (why says why; d is then unchanged).
 * With a physical source, every typed card must be used.
 */
int deck_pick(struct deck *d, int kind, int ncards, struct deck_source *src,
    struct deck_pick *p, char *why, size_t whysz);

/*
 * The result of a calculation built on a pick: base (the stat plus
 * modifiers) + the pick; 0 on a fumble or an empty deck; for a defensive
 * fumble, base minus the special card (a 10 counting 0, no card giving a
 * total of 0), never below 0.
 */
int deck_total(const struct deck_pick *p, int base);

/* "A", "2" ... "10". */
const char *deck_face_name(int face);

/*
 * Parses a comma-separated list of faces: "A" or "1" for the Ace, "2" to
 * "10".  Returns the count, or -1 with why set.  faces holds max entries.
 */
int deck_parse_list(const char *s, int *faces, int max, char *why,
    size_t whysz);

#endif
