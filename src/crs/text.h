/*
 * crs/text.h - a combat's events as the sentences of its story (the
 * log, and what each command says of the event it appended).  Text only:
 * the state a sentence reads is passed in, derived by the caller's one
 * replay (ledger_derive_each), never replayed here.
 */
#ifndef REFKIT_CRS_TEXT_H
#define REFKIT_CRS_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "crs/combat.h"

struct item;
struct sheet;
struct sheet_stat;

/*
 * A character's sheet as crs-stats show prints it, to fp: name, player,
 * notes, the primary stats, each secondary stat with its source and its
 * value with the items held, the items and the powers.  crstext_sources
 * are the sources' names (enum of sheet.h's SHEET_ABSENT ...).
 */
void crstext_sheet(FILE *fp, const struct sheet *sh,
    const struct sheet_stat *st, const struct item *items, size_t nitems);
extern const char *const crstext_sources[];

/*
 * Writes event e to fp as one line of the story: "  7  r2  Ann attacks
 * Bob: ...".  s is the state just before e (the stats it used, who may
 * act at a charger); neither is changed.
 */
void crstext_story(FILE *fp, const struct combat_state *s,
    const struct combat_event *e);

/* An undone event's line of the story: "  7  r2  (undone) attack by Ann". */
void crstext_undone(FILE *fp, const struct combat_event *e);

/*
 * Event e's line of the story (crstext_story, or crstext_undone if
 * undone is set) fitted to width characters (base/fit.h): first whose
 * cards go, then each breakdown gives way to its total, then the event's
 * number and round, then the combatants' names are cut to a prefix no
 * other name in s shares, then the start of the line; the outcome (the
 * hit, the damage, LIFE now) is at the end, the last to go.  ellipsis
 * marks a cut.  No newline; the caller owns the string.
 */
char *crstext_story_fit(const struct combat_state *s,
    const struct combat_event *e, int undone, int width,
    const char *ellipsis);

/* A combatant's figures as status and the live board show them. */
struct combat_figures {
	int	 life, em;
	int	 to_restore;	/* LIFE or EM comes back after the end */
	char	 aside[64];	/* the cards set aside: "2,10,K" */
	char	 when[32];	/* when they come back, UTC, for JSON */
	char	 local[48];	/* ... in local time, for people */
	char	 clock[16];	/* ... the local time of day alone */
};

/*
 * The figures of combatant i of s at now: LIFE and EM (back to the
 * sheet's once restored), the cards set aside, and when what is lost
 * comes back, restores being combat_restores_at(s).
 */
void crstext_figures(const struct combat_state *s, int i, int64_t now,
    int64_t restores, struct combat_figures *x);

/* The status table's columns after NAME, in their order. */
enum crstext_col {
	CRSTEXT_LIFE, CRSTEXT_EM, CRSTEXT_DR, CRSTEXT_STANCE, CRSTEXT_DOWN,
	CRSTEXT_INIT, CRSTEXT_ASIDE, CRSTEXT_RESTORES, CRSTEXT_COLS
};

/*
 * Which columns of the status table fit in width characters (bit k set:
 * column k shows), the name column being name_w wide and column k w[k]
 * wide with the space before it; all of them if width <= 0.  Columns go
 * by importance, the least useful first: RESTORES, SET ASIDE, INIT,
 * STANCE, DR, DOWN, EM; NAME and LIFE always stay.
 */
unsigned crstext_status_cols(int width, int name_w,
    const int w[CRSTEXT_COLS]);

/*
 * What the status table leaves out, a line each: who fled and until
 * when, who takes the blows for whom, and each melee once, as a group
 * ("melee: Kestrel, Ysolde, Brother Amos"), with who is engaged with
 * whom where not all of the group are ("(Kestrel with Ysolde; Ysolde
 * with Brother Amos)").
 */
void crstext_notes(FILE *fp, const struct combat_state *s);

#endif
