/*
 * combat_text.h - a combat's events as the sentences of its story (the
 * log, and what each command says of the event it appended).  Text only:
 * the state a sentence reads is passed in, derived by the caller's one
 * replay (ledger_derive_each), never replayed here.
 */
#ifndef REFKIT_COMBAT_TEXT_H
#define REFKIT_COMBAT_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "crs/combat.h"

/*
 * Writes event e to fp as one line of the story: "  7  r2  Ann attacks
 * Bob: ...".  s is the state just before e (the stats it used, who may
 * act at a charger); neither is changed.
 */
void combat_text_story(FILE *fp, const struct combat_state *s,
    const struct combat_event *e);

/* An undone event's line of the story: "  7  r2  (undone) attack by Ann". */
void combat_text_undone(FILE *fp, const struct combat_event *e);

#endif
