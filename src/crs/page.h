/*
 * crs/page.h - a CRS character's printed sheet (crs-stats sheets): what
 * it says, laid out on a paper/page.h description for paper/draw.c, and
 * its verification code.  Pure: no I/O, no SQL, no globals.
 */
#ifndef REFKIT_CRS_PAGE_H
#define REFKIT_CRS_PAGE_H

#include <stddef.h>

#include "paper/page.h"
#include "crs/item.h"
#include "crs/sheet.h"

/* Everything a printed sheet shows of one character; the caller's. */
struct crspage_char {
	const struct sheet	*sh;
	struct sheet_stat	 st[S_COUNT];	/* with the held items */
	const struct item	*items;		/* held, sorted by name */
	size_t			 nitems;
	const struct power	*powers;	/* known, sorted by name */
	size_t			 npowers;
	const char		*qr;		/* the QR code's text, or
						   NULL: the code */
};

/*
 * The sheet's code, keyed by station_id: over the name, the player, every
 * primary stat, every secondary stat's value, source and effective value,
 * every item held with all of its fields, the notes, and every power
 * known with all of its fields, that is over everything the sheet prints
 * but the code itself (the deck, the big stats and the boxes of the strip
 * follow from the secondary stats).
 */
void crspage_code(const struct crspage_char *c, const char *station_id,
    char code[PAGE_CODE_LEN + 1]);

/*
 * Lays out the sheet of c with its code on pg (page_init'ed by the
 * caller with the sheet's size): the name, player and code with its QR
 * code; the primary stats; OR, DR, LIFE, EM and IN in boxes of large
 * digits; the secondary stats with their value and effective value, and
 * a SOURCE column only when one was given or is missing; the AC deck;
 * the items and powers (as many as the height leaves room for, then a
 * line saying how many more); the notes (on a sheet to a page, in a box
 * down to the strip, empty for the pen when there are none); and at the
 * foot the tear-off strip with the name again and a box per LIFE and per
 * EM point.  A sheet of 600 points or more is laid out larger.
 */
void crspage_layout(const struct crspage_char *c, const char *code,
    struct page *pg);

#endif
