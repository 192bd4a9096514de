/*
 * page.h - a printed sheet described without drawing it: lines of text,
 * boxes, rules and a QR code, placed in points from the sheet's top left
 * corner, for paper/draw.c to draw into a PDF and for the tests to read.
 * Also the paper sizes and the short verification code a printed sheet
 * carries (crs-stats(1), sheets).  Pure: no I/O, no globals.
 */
#ifndef REFKIT_PAGE_H
#define REFKIT_PAGE_H

#include <stddef.h>

#include <sodium.h>

enum page_kind { PAGE_TEXT, PAGE_BOX, PAGE_RULE, PAGE_QR, PAGE_PARA };
enum page_style { PAGE_PLAIN, PAGE_BOLD, PAGE_MONO, PAGE_MONO_BOLD,
	PAGE_STYLES };

/*
 * One thing on a sheet.  Text: y is the top of its line, w the width it
 * is cut to (ellipsized, never wrapped), h its font size; the drawing
 * keeps a line's text within x .. x + w, whatever the text; centred, it
 * is centred in that width.  A paragraph: text of font size size,
 * wrapped between words within w, newlines kept, in at most h points of
 * height (the lines past it left out, the last shown ending with an
 * ellipsis).  A box: its outline.  A rule: a dashed line from x to x + w,
 * the tear-off line.  A QR code: a square of side w holding text.
 */
struct page_item {
	int	 kind;		/* enum page_kind */
	int	 style;		/* enum page_style, for text */
	int	 centred;	/* text: centred within w */
	double	 x, y, w, h;
	double	 size;		/* a paragraph's font size */
	char	*text;		/* owned: the text, or the QR's payload */
};

struct page {
	double			 w, h;		/* the sheet's size, points */
	struct page_item	*items;		/* owned */
	size_t			 n;
};

/* An empty sheet of w x h points; page_release frees what it holds. */
void page_init(struct page *pg, double w, double h);
void page_release(struct page *pg);

/* Adds an item; text is copied. */
void page_text(struct page *pg, double x, double y, double w, double size,
    int style, const char *text);
void page_textf(struct page *pg, double x, double y, double w, double size,
    int style, const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* A line of text centred within x .. x + w. */
void page_text_centred(struct page *pg, double x, double y, double w,
    double size, int style, const char *text);
/* A paragraph of text wrapped within w, at most h points tall. */
void page_para(struct page *pg, double x, double y, double w, double h,
    double size, const char *text);
void page_box(struct page *pg, double x, double y, double w, double h);
void page_rule(struct page *pg, double x, double y, double w);
void page_qr(struct page *pg, double x, double y, double side,
    const char *text);

/*
 * A row of n boxes to tick, from (x, y), of side at most box, wrapped
 * into at most rows rows of width w; the boxes that do not fit are
 * counted in a note after the last ("+12").  Returns the height used.
 */
double page_tally(struct page *pg, double x, double y, double w, double box,
    int rows, long n);

/* ---- the parts every printed sheet has ---- */

#define PAGE_QR_SIDE	72.0	/* the QR code, at the top right */
#define PAGE_STRIP_BOX	9.0	/* a box of the strip */
#define PAGE_STRIP_ROWS	2	/* rows of boxes for a count */
/* Below the head: where a sheet's own content starts. */
#define PAGE_HEAD_H	68.0

/*
 * The head: name in large type; sub under it (NULL: nothing); the code
 * with a hint of the command that checks it ("crs-stats verify-sheet");
 * at the top right the QR code of qr, or of the code when qr is NULL.
 */
void page_head(struct page *pg, const char *name, const char *sub,
    const char *code, const char *check, const char *qr);

/*
 * A sheet's notes from (x, y) to (x + w, bottom): the heading NOTES in
 * type of size, then the notes (NULL or empty: none) wrapped, a line
 * apart from it.  Boxed: inside a box, empty for a pen when there are
 * no notes; else nothing at all without notes.  Nothing either when the
 * room is under two lines.
 */
void page_notes(struct page *pg, double x, double y, double w,
    double bottom, double size, double line, const char *notes, int boxed);

/* The height of a strip with nrows counts of boxes to tick. */
double page_strip_height(int nrows);

/*
 * The strip to tear off at the foot of the sheet, for nrows counts: the
 * dashed rule, the name and the code again.  Returns the y where the
 * first count goes.
 */
double page_strip(struct page *pg, int nrows, const char *name,
    const char *code);

/*
 * One count of the strip: label at the left (text as given), then n boxes
 * (n < 0: none) in PAGE_STRIP_ROWS rows at most.  Returns the y of the
 * next count.
 */
double page_strip_count(struct page *pg, double y, const char *label,
    long n);

/* ---- paper ---- */

enum page_paper { PAGE_A4, PAGE_LETTER };

/* "a4" or "letter" (either case); -1 if neither. */
int page_paper_lookup(const char *name);
/* The paper's size in points (1/72 inch), portrait. */
void page_paper_size(int paper, double *w, double *h);

/* Margins of the paper, and between two sheets on one page. */
#define PAGE_MARGIN	28.0

/*
 * The size of one sheet's area when per (1 or 2) sheets share a page of
 * the paper, and where sheet slot (0 .. per - 1) of a page starts.
 */
void page_slot(int paper, int per, int slot, double *x, double *y,
    double *w, double *h);

/* ---- the verification code ---- */

/* "XXXX-XXXX-XXXX-XXXX": 80 bits in Crockford's base 32, in four groups. */
#define PAGE_CODE_LEN	19

/*
 * The code of a sheet: BLAKE2b keyed by the station's id (its 32 hex
 * digits) over "refkit sheet v1", the family ("crs", "d6", "fb") and
 * every field, each preceded by its length.  Begin, add each field in
 * order, end.
 */
struct page_code {
	crypto_generichash_state	st;
};
void page_code_begin(struct page_code *c, const char *family,
    const char *station_id);
void page_code_add(struct page_code *c, const char *field);
void page_code_addf(struct page_code *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/*
 * The character's notes, last, and only when there are some: a sheet
 * without notes keeps the code it had before the notes were printed.
 */
void page_code_notes(struct page_code *c, const char *notes);
void page_code_end(struct page_code *c, char code[PAGE_CODE_LEN + 1]);

/*
 * A code as typed (either case, with or without the dashes, spaces
 * ignored, O read as 0 and I or L as 1) in its printed form.  Returns 0,
 * or -1 when it is not 16 digits of the alphabet.
 */
int page_code_parse(const char *typed, char code[PAGE_CODE_LEN + 1]);

#endif
