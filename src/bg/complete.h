/*
 * bg/complete.h - the grammar of bg-board for shell completion
 * (term/complete.h), with the names it completes: teams and the figures
 * of a game.
 */
#ifndef REFKIT_BG_COMPLETE_H
#define REFKIT_BG_COMPLETE_H

#include "term/complete.h"

extern const struct complete_tool bgcomplete_board;

#endif
