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
 * A watch_draw_fn: draws the duel whose key arg is, as typed ("3",
 * "89abcdef-3"), or with arg NULL the newest (which follows a new duel
 * as it starts).  WATCH_REFUSED with why when arg names no duel;
 * WATCH_NOTHING when there is none yet, or it no longer replays.
 */
int fbwatch_draw(void *arg, struct db *db, struct watch_frame *f,
    char *why, size_t whysz);

#endif
