/*
 * fb/page.h - a Force Battles duelist's printed board (fb-duel sheets):
 * laid out on a paper/page.h description for paper/draw.c, and its
 * verification code.  Pure: no I/O, no SQL, no globals.
 */
#ifndef REFKIT_FB_PAGE_H
#define REFKIT_FB_PAGE_H

#include "paper/page.h"
#include "fb/fb.h"

/* A duelist as the printed board shows her; the caller's. */
struct fbpage_duelist {
	const char		*name;
	const struct fb_sheet	*sh;
	const struct fb_board	*b;	/* her board */
};

/*
 * The board's code, keyed by station_id: over the name; the side, hand,
 * colour, level and free GEAS; the board's name, spheres and targets with
 * their numbers; and every counter of the stance (spheres, ATT, DEF and
 * GEAS), that is over everything it prints but the code.  The notes are
 * not printed, and not covered.
 */
void fbpage_code(const struct fbpage_duelist *d, const char *station_id,
    char code[PAGE_CODE_LEN + 1]);

/*
 * Lays out the printed board of d with its code on pg (page_init'ed with
 * the sheet's size): the name, side, hand, colour, level and board with
 * the code and its QR code; the stance, a line per sphere with a box per
 * counter it holds at most, then ATT, DEF and the pool; the GEAS; her
 * target table; and the strip to tear off with the name, a box per
 * counter of the pool and one per leg.
 */
void fbpage_layout(const struct fbpage_duelist *d, const char *code,
    struct page *pg);

#endif
