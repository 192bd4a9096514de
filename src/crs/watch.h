/*
 * crs/watch.h - a combat as the live board shows it (crs-combat
 * watch): the round, the initiative order and who acts next, LIFE and EM
 * as bars and numbers, stances, who is down, dead or fled, the cards set
 * aside, and the last events as the log tells them.  It reads the
 * combat through the ledger and words it through crs/text;
 * term/watch.h puts it on the screen.
 */
#ifndef REFKIT_CRS_WATCH_H
#define REFKIT_CRS_WATCH_H

#include <stddef.h>

#include "term/watch.h"

/*
 * A watch_draw_fn, arg a struct watch_log: draws the combat whose
 * key was typed ("3", "89abcdef-3"), or else the one the GM started or
 * acted in last that is under way, else the one he acted in last (which
 * follows his new combat as it starts).  WATCH_REFUSED with why when the
 * key names no combat; WATCH_NOTHING when there is none yet, or it no
 * longer replays.
 */
int crswatch_draw(void *arg, struct db *db, struct watch_frame *f,
    char *why, size_t whysz);

#endif
