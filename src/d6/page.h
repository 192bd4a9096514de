/*
 * d6/page.h - a D6 character's printed sheet (d6-roll char sheets): laid
 * out on a paper/page.h description for paper/draw.c, and its
 * verification code.  Pure: no I/O, no SQL, no globals.
 */
#ifndef REFKIT_D6_PAGE_H
#define REFKIT_D6_PAGE_H

#include "paper/page.h"
#include "d6/sheet.h"

/*
 * The sheet's code, keyed by station_id: over the name, the Character,
 * Force and Dark Side Points, and every attribute and skill with its die
 * code, and the notes, that is over everything the sheet prints but the
 * code.
 */
void d6page_code(const struct d6_sheet *s, const char *station_id,
    char code[PAGE_CODE_LEN + 1]);

/*
 * Lays out the sheet of s with its code on pg (page_init'ed with the
 * sheet's size): the name, the points and the code with its QR code; the
 * attributes, each with its skills under it, in two columns (as many as
 * fit, then a line saying how many more); the notes under them (on a
 * sheet to a page in a box down to the strip, empty for the pen when
 * there are none); and the strip to tear off with
 * the name, a box per Character and per Force Point, and a box per wound
 * level of the human damage chart.
 */
void d6page_layout(const struct d6_sheet *s, const char *code,
    struct page *pg);

#endif
