/*
 * bg/text.h - the text forms of Battle Grounds: figure specs, teams, piece
 * names and a move's options.  The same parser reads what a GM types and
 * what the ledger stored, so a replay runs exactly what was run.  Pure:
 * no I/O but to the stream or the function a caller passes (the board
 * as show draws it).
 */
#ifndef REFKIT_BG_TEXT_H
#define REFKIT_BG_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "bg/bg.h"

/*
 * A figure spec, NAME:LEVEL[*]:R,O,Y,G,B,P[:POWER+POWER...]: LEVEL is SA,
 * I, II or III, '*' marks the Cosmic figure, then the six Battle Stats in
 * colour order (0 to 99) and any attack powers.  0 or -1 with why.
 */
int bgtext_figure_parse(const char *spec, struct bg_figure *f, char *why,
    size_t whysz);
/* The names of a set of powers joined by sep ("" for none); the caller frees it. */
char *bgtext_powers(unsigned powers, const char *sep);
/* The canonical spec of f.  The caller frees it. */
char *bgtext_figure_format(const struct bg_figure *f);

/*
 * A team's figures, one spec a line; blank lines and '#' comments are
 * skipped.  Appends to t (t->name is the caller's).  0, or -1 with why
 * naming the line.
 */
int bgtext_team_parse(const char *text, struct bg_team *t, char *why,
    size_t whysz);
/* Every figure's spec, one a line.  The caller frees it. */
char *bgtext_team_format(const struct bg_team *t);

/*
 * The player whose team s names: "1", "2", or a team's name by
 * base/names.h's rule (exactly, but for case, or by a unique beginning
 * of the name or of one of its words).  0 or 1, or -1 with the refusal
 * in why ("'Grene' is neither team; did you mean 'Green'? (the teams:
 * 'Red' and 'Green')").
 */
int bgtext_team(const struct bg_game *g, const char *s, char *why,
    size_t whysz);

/*
 * A piece by name: "NAME", or qualified "1:NAME", "2:NAME" or
 * "TEAM:NAME", each name read by base/names.h's rule: a name equal to
 * NAME but for case, else the one name it begins or one of whose words
 * it begins.  A bare name both teams use means player prefer's figure
 * (-1: refused as ambiguous).  Returns the piece, or -1 with why; an
 * unknown bare name's refusal lists prefer's figures (every figure when
 * prefer is -1).
 */
int bgtext_piece(const struct bg_game *g, const char *s, int prefer, char *why,
    size_t whysz);
/* The canonical name of a piece, "1:NAME", into buf of BG_PIECESZ. */
#define BG_PIECESZ	(BG_NAMESZ + 16)
void bgtext_piece_name(const struct bg_game *g, int piece, char *buf,
    size_t bufsz);

/*
 * One option of a move: opt without dashes ("roll", "vs-roll", "stat",
 * "att-stat", "def-stat", "stat-roll", "release", "release-to",
 * "return"), val its value.  Returns 1 if it took it, 0 if opt is not a
 * move option, -1 with why if it was one and is wrong.
 */
int bgtext_move_option(const struct bg_game *g, const char *opt,
    const char *val, struct bg_move_in *in, char *why, size_t whysz);

/* Parses a stored move, "PIECE SQUARE [--OPT VALUE ...]".  0 or -1. */
int bgtext_move_parse(const struct bg_game *g, const char *text,
    struct bg_move_in *in, char *why, size_t whysz);

/* The canonical text of a move, every die given.  The caller frees it. */
char *bgtext_move_format(const struct bg_game *g, const struct bg_move_in *in);

/*
 * The board of g as bg-board show draws it, from the far end: the files'
 * letters, then each rank's squares between its number.  Each piece of
 * text goes to put(arg, sq, text): sq is the square a cell is, for the
 * caller to paint in the square's colour (bg_square_colour), bold under
 * a figure (g->at[sq] >= 0), or -1 for the text around the squares,
 * newlines included.  With colour set the cells are drawn to be painted
 * (a figure's name, team and mark); without it each is bracketed and
 * names its colour by a letter (bgtext_legend).  The board fits width
 * characters (no limit if width <= 0): first the brackets give way to a
 * space between cells, then the ranks' numbers on the right go, then the
 * figures' names are cut to two letters.
 */
void bgtext_board(const struct bg_game *g, int colour, int width,
    void (*put)(void *arg, int sq, const char *text), void *arg);
/* What the letters of a board without colour mean, two lines. */
extern const char bgtext_legend[];

/*
 * The zones of g as show writes them under the board: each player's Dice
 * and Holding Zones, the pieces on the board and their squares, and
 * whose turn it is (or who won).
 */
void bgtext_zones(FILE *fp, const struct bg_game *g);

#endif
