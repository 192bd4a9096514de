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

/*
 * Writes event e to fp as one line of the story: "  7  r2  Ann attacks
 * Bob: ...".  s is the state just before e (the stats it used, who may
 * act at a charger); neither is changed.
 */
void crstext_story(FILE *fp, const struct combat_state *s,
    const struct combat_event *e);

/* An undone event's line of the story: "  7  r2  (undone) attack by Ann". */
void crstext_undone(FILE *fp, const struct combat_event *e);

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

/*
 * What the status table leaves out, a line each: who fled and until
 * when, who takes the blows for whom, who is in a melee with whom.
 */
void crstext_notes(FILE *fp, const struct combat_state *s);

#endif
