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
 * The combat on the board (term/watch.h, watch_log_draw): the one whose
 * key was typed ("3", "89abcdef-3"), else the GM's.
 */
extern const struct watch_board crswatch_board;

#endif
