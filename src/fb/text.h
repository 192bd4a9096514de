/*
 * fb/text.h - the text forms of Force Battles: stances as KEY=VALUE words,
 * boards as lines, and a round's options.  The same parser reads what a
 * GM types and what the ledger stored, so a replay runs exactly what was
 * run.  Pure: no I/O but to the stream a caller passes (the state as
 * status shows it).
 */
#ifndef REFKIT_FB_TEXT_H
#define REFKIT_FB_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "fb/fb.h"

/*
 * Applies one KEY=VALUE word to a stance: KEY is a sphere, att, def or a
 * GEAS; VALUE 0 to 50.  Returns 0, or -1 with why.
 */
int fbtext_stance_word(const struct fb_board *b, const char *word,
    struct fb_stance *st, char *why, size_t whysz);

/* Parses space-separated words onto st (from zero).  0 or -1 with why. */
int fbtext_stance_parse(const struct fb_board *b, const char *text,
    struct fb_stance *st, char *why, size_t whysz);

/*
 * The canonical words of a stance: every sphere, att, def, and the GEAS
 * that hold counters.  Returns a string the caller frees.
 */
char *fbtext_stance_format(const struct fb_board *b, const struct fb_stance *st);

/*
 * A board as text, one line each:
 *   target ROLE NAME FACE ALT
 *   sphere NAME center|lower|- TARGET,TARGET...
 * fbtext_board_parse fills and finishes b (name set by the caller);
 * fbtext_board_format returns text the caller frees.
 */
int fbtext_board_parse(const char *text, struct fb_board *b, char *why,
    size_t whysz);
char *fbtext_board_format(const struct fb_board *b);

/* A slot by name (sphere, att, def, GEAS; see FB_SLOT_*), or -1. */
int fbtext_slot_find(const struct fb_board *b, const char *name);
const char *fbtext_slot_name(const struct fb_board *b, int slot);

/*
 * Which of a duel's two duelists (names) typed names, by base/names.h's
 * rule: exactly, but for case, or by a unique beginning of the name or
 * of one of its words.  Returns 0 or 1, or -1 with the refusal in why
 * ("'Zed' is not in this duel (in it: 'Ann' and 'Bob')").
 */
int fbtext_who(const char *const names[2], const char *typed, char *why,
    size_t whysz);

/*
 * A GEAS spec, NAME:POWER[:ARG[:ARG]] (fb-duel(1)).  names are the two
 * duelists, of whom NAME is one as fbtext_who reads it.  Returns 0, or -1
 * with why.
 */
int fbtext_geas_parse(const struct fb_board *b, const char *const names[2],
    const char *spec, struct fb_geas_in *g, char *why, size_t whysz);

/*
 * One round option.  opt is the option's name without dashes ("hit"),
 * val its value (NULL for a flag).  Returns 2 if it took val, 1 if it
 * was a flag, 0 if it is not a round option, -1 with why if it was one
 * and is wrong.
 */
int fbtext_in_option(const struct fb_board *b, const char *const names[2],
    const char *opt, const char *val, struct fb_in *in, char *why,
    size_t whysz);

/* 1 if opt is a round option that takes no value. */
int fbtext_in_is_flag(const char *opt);

/*
 * Merges each absorb spec into the foe's lightning in the same input;
 * -1 with why if one answers no lightning.
 */
int fbtext_in_finish(struct fb_in *in, char *why, size_t whysz);

/* Parses stored options ("--hit 3,4 --kick").  0 or -1 with why. */
int fbtext_in_parse(const struct fb_board *b, const char *const names[2],
    const char *text, struct fb_in *in, char *why, size_t whysz);

/* The canonical options of in, every die given.  The caller frees it. */
char *fbtext_in_format(const struct fb_board *b, const char *const names[2],
    const struct fb_in *in);

/* A duel's stage as status says it: "before initiative" ... */
const char *fbtext_stage_name(int stage);

/*
 * A duelist's GEAS that hold counters, and the free one, as "NAME N"
 * joined by ", " (the free one marked "(free)"), or "-" for none.
 */
void fbtext_geas_text(FILE *fp, const int *geas, int free_geas);

/*
 * The state s of duel key (as users see it) on board b between np[0]
 * and np[1], as fb-duel status writes it: who attacks, both boards
 * sphere by sphere, ATT, DEF, the pools and each one's GEAS.  The
 * table fits width characters (no limit if width <= 0) by its columns:
 * first the spheres' touches go, then the duelists' columns narrow to
 * what they hold, then the counters' bars go, their numbers staying.
 */
void fbtext_status_text(FILE *fp, const char *key, const struct fb_board *b,
    const char *const np[2], const struct fb_state *s, int width);

#endif
