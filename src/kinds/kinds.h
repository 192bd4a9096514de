/*
 * kinds.h - every kind of log refkit keeps, for the commands that work
 * over all of them (refkit merge and changes apply), which reach a game
 * only through its journal_kind (core/journal.h): a new game adds its
 * kind here and touches no file of sync/ or cmd/refkit.c.
 */
#ifndef REFKIT_KINDS_H
#define REFKIT_KINDS_H

#include "core/journal.h"

/* The kinds, NULL-terminated: CRS combats, Force Battles duels, Battle
 * Grounds games. */
extern const struct journal_kind *const kinds_all[];

#endif
