/*
 * fb/pack.h - the byte form of a Force Battles board and duel state, for
 * the snapshots of a duel's derived state (fb/ledger.c, core/journal.h).
 * Every field is written in a fixed order with core/pack; a reader
 * checks each against its range, so that no damaged byte can make an
 * index that leaves an array, and then checks the board and the
 * counters against the rules as a whole.
 */
#ifndef REFKIT_FB_PACK_H
#define REFKIT_FB_PACK_H

#include "core/pack.h"
#include "fb/fb.h"

/* The byte form's number: change it with the form. */
#define FBPACK_FORMAT	1

void fbpack_board(struct pack *p, const struct fb_board *b);
/* Reads a board into b; u->bad if it is out of range or not a board. */
void fbpack_read_board(struct unpack *u, struct fb_board *b);

/* The state without its board pointer, which the caller owns. */
void fbpack_state(struct pack *p, const struct fb_state *s);
/*
 * Reads a state into s and points it at b, read before; u->bad if a
 * field is out of range or the counters break fb_invariants.
 */
void fbpack_read_state(struct unpack *u, const struct fb_board *b,
    struct fb_state *s);

#endif
