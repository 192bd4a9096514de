/*
 * crs/pack.h - a combat's derived state in the compact byte form of
 * core/pack.h, for the journal's snapshots (core/journal.h): every field
 * of struct combat_state that the rules read, in a fixed order, so that
 * the same state always gives the same bytes and a snapshot can be
 * compared with a replay byte for byte.  Pure.
 */
#ifndef REFKIT_CRS_PACK_H
#define REFKIT_CRS_PACK_H

#include <stddef.h>

#include "core/pack.h"
#include "crs/combat.h"

/* The byte form's own version; a change to it raises this. */
#define COMBAT_PACK_FORMAT	1

/* Appends s to p. */
void combat_pack(const struct combat_state *s, struct pack *p);

/*
 * Reads a state that combat_pack wrote into s (which need not be
 * initialised).  Returns 0, or -1 with s fresh (combat_state_init) if
 * the bytes are short, long or out of range.  Release s with
 * combat_state_release.
 */
int combat_unpack(const void *buf, size_t len, struct combat_state *s);

#endif
