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
 * A watch_draw_fn: draws the game whose key arg is, as typed ("3",
 * "89abcdef-3"), or with arg NULL the newest (which follows a new game
 * as it starts).  WATCH_REFUSED with why when arg names no game;
 * WATCH_NOTHING when there is none yet, or it no longer replays.
 */
int bgwatch_draw(void *arg, struct db *db, struct watch_frame *f,
    char *why, size_t whysz);

#endif
