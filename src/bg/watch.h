/*
 * bg/watch.h - a Battle Grounds game as the live board shows it
 * (bg-board watch): the board as show draws it, in its colours where the
 * terminal has them, the zones, whose turn it is, and the last events as
 * the log tells them.  term/watch.h puts it on the screen.
 */
#ifndef REFKIT_BG_WATCH_H
#define REFKIT_BG_WATCH_H

#include <stddef.h>

#include "term/watch.h"

/*
 * The game on the board (term/watch.h, watch_log_draw): the one whose key
 * was typed ("3", "89abcdef-3"), else the GM's.
 */
extern const struct watch_board bgwatch_board;

#endif
