/*
 * crs/complete.h - the grammars of crs-stats, crs-draw and crs-combat for
 * shell completion (term/complete.h), with the names they complete:
 * characters, items and powers of the roster, and the fighters of a
 * combat.
 */
#ifndef REFKIT_CRS_COMPLETE_H
#define REFKIT_CRS_COMPLETE_H

#include "term/complete.h"

extern const struct complete_tool crscomplete_stats;
extern const struct complete_tool crscomplete_draw;
extern const struct complete_tool crscomplete_combat;

#endif
