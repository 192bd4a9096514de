/*
 * fb/complete.h - the grammar of fb-duel for shell completion
 * (term/complete.h), with the names it completes: duelists, boards, the
 * two of a duel, and the FORCE GEAS.
 */
#ifndef REFKIT_FB_COMPLETE_H
#define REFKIT_FB_COMPLETE_H

#include "term/complete.h"

extern const struct complete_tool fbcomplete_duel;

#endif
