/*
 * writers.h - which changes here wrote each row, for the changes that
 * come in a merge: a change that comes was made from the values its
 * station held, and an update whose old values are still here applies
 * without a conflict from SQLite, even when what is here was written
 * since by a change it had not seen (one that put back the value it
 * replaced: an ABA).  Two stations would then take the same writes in
 * different orders with nothing settled between them (issue #42).  The
 * applier (sync/exchange.c) asks, for each row an update reaches,
 * whether a change it had not seen wrote one of the columns it sets,
 * and if one did, judges the row as a conflict.
 *
 * Only the changes that one coming in may not have seen are read: the
 * index covers, for each station, its changes from the lowest number a
 * change met so far had not seen, and grows as the apply goes on.  It
 * lives for one apply (one transaction).
 */
#ifndef REFKIT_WRITERS_H
#define REFKIT_WRITERS_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"

struct writers;

/* An index over db's record of changes, empty until covered. */
struct writers *writers_new(struct db *db);
void writers_free(struct writers *w);

/*
 * Makes sure the index holds every change here that the change
 * origin:oseq, whose seen list is seen (nseen stations), had not seen.
 * Returns whether there is any (if not, writers_unseen answers 0 for
 * every row, and nothing was read).
 */
int writers_cover(struct writers *w, const char *origin, int64_t oseq,
    const unsigned char *seen, size_t nseen);

/*
 * Notes the change origin:oseq (changeset cs, n bytes), just recorded
 * here, as the newest of its station's: read when a change that had not
 * seen it comes (writers_cover), or at once after writers_touch_all.
 * Returns -1 when cs cannot be walked, else 0.
 */
int writers_add(struct writers *w, const char *origin, int64_t oseq,
    const void *cs, size_t n);

/*
 * The columns of table's row whose key is the npk values at pk (in the
 * order of the table's columns) that a change here not seen by the
 * change origin:oseq (seen, nseen) updated, as bits: bit i for column
 * i, bit 63 for column 63 and every one after it.  Inserts and removals
 * are not counted (the gate's matter, gone.h).  0 when there is none.
 */
uint64_t writers_unseen(struct writers *w, const char *table,
    sqlite3_value **pk, int npk, const char *origin, int64_t oseq,
    const unsigned char *seen, size_t nseen);

/*
 * The whole record of changes indexed, once: every row each change
 * inserted, updated or removed, for writers_touching; the changes added
 * after are indexed so too.
 */
void writers_touch_all(struct writers *w);

/* A change: its station (writers_origin's index) and number. */
struct writers_ref {
	uint32_t origin;
	int64_t	 oseq;
};

/*
 * After writers_touch_all: every change here that touched table's row
 * whose key is the npk values at pk, at *refs (valid until the index
 * changes), in the order they were indexed; returns how many.
 */
size_t writers_touching(struct writers *w, const char *table,
    sqlite3_value **pk, int npk, const struct writers_ref **refs);
const char *writers_origin(struct writers *w, uint32_t origin);

/* Bit of column i in writers_unseen's answer. */
#define WRITERS_BIT(i)	((uint64_t)1 << ((i) < 63 ? (i) : 63))

#endif
