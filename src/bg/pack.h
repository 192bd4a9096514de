/*
 * bg/pack.h - a Battle Grounds game's derived state as bytes and back,
 * for the snapshots of its ledger (core/journal.h, bg/ledger.h), in
 * the byte form of core/pack.h.
 *
 * Only what the events change is stored: the teams, the board and the
 * options come from the game's row, so that reading a snapshot back
 * starts the game from them (bg_start) and then sets the stored fields.
 */
#ifndef REFKIT_BG_PACK_H
#define REFKIT_BG_PACK_H

#include <stddef.h>

#include "bg/bg.h"
#include "core/pack.h"

/* The byte form's number: raised whenever the order below changes. */
#define BGPACK_FORMAT	1

/* Appends g's state to p. */
void bgpack_write(const struct bg_game *g, struct pack *p);

/*
 * Reads len bytes of buf back into g, a game between a and b started
 * with advanced and safe_attack.  Returns 0, or -1 (g as it started) if
 * the bytes are short, damaged, of another form or another line-up, or
 * stand for no state the rules could reach: every number that indexes
 * an array is checked against its range first.
 */
int bgpack_read(const void *buf, size_t len, const struct bg_team *a,
    const struct bg_team *b, int advanced, int safe_attack,
    struct bg_game *g);

#endif
