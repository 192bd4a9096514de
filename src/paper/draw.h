/*
 * draw.h - draws sheets described by paper/page.h into a PDF file, through
 * cairo (the PDF), pango (the text) and libqrencode (the QR codes).
 *
 * None of the three is linked: with glib, harfbuzz, fontconfig, freetype
 * and the rest they are some thirty shared libraries that the dynamic
 * loader would map at the start of every command of the tools that print,
 * for the one command in hundreds that prints.  They are loaded with
 * dlopen(3) by draw_open, as db/dbpg.c loads libpq, and called through
 * a table of pointers typed with their own headers.
 */
#ifndef REFKIT_DRAW_H
#define REFKIT_DRAW_H

#include <stddef.h>

#include "paper/page.h"

struct draw;

/*
 * Loads the libraries (once) and creates the PDF file path for sheets on
 * paper (enum page_paper), per (1 or 2) to a page.  Returns the drawing,
 * or NULL with the reason in why (a library missing, the file not
 * writable).  Every drawing is closed with draw_close.
 */
struct draw *draw_open(const char *path, int paper, int per, char *why,
    size_t whysz);

/* Draws pg in the next sheet's place, starting a page when needed. */
void draw_sheet(struct draw *d, const struct page *pg);

/*
 * Finishes the file and frees d.  Returns 0, or -1 with why set when the
 * file could not be written whole.
 */
int draw_close(struct draw *d, char *why, size_t whysz);

/*
 * Releases pango's map of fonts, kept until the process ends, so that a
 * leak checker sees less of the libraries' memory.  Harmless when
 * nothing was loaded.
 */
void draw_cleanup(void);

#endif
