/*
 * fb/watch.h - a Force Battles duel as the live board shows it (fb-duel
 * watch): both boards as status writes them, whose initiative and what
 * stage the round is at, and the last events as the log tells them.
 * term/watch.h puts it on the screen.
 */
#ifndef REFKIT_FB_WATCH_H
#define REFKIT_FB_WATCH_H

#include <stddef.h>

#include "term/watch.h"

/*
 * The duel on the board (term/watch.h, watch_log_draw): the one whose key
 * was typed ("3", "89abcdef-3"), else the GM's.
 */
extern const struct watch_board fbwatch_board;

#endif
