/*
 * gone.h - removals that every station settles alike (issue #21).
 *
 * A record can be made at several stations independently: the same
 * roster imported at every table gives every station its own copy of
 * each character, under the same key.  When one station removes such a
 * record, the copies that other stations made without knowing of the
 * removal must not bring it back, whatever the order in which a hub
 * takes the changes in; and a record made again by a station that had
 * seen the removal must stay.  So:
 *
 *  - every change carries what its station had seen of every other
 *    station when it was made (the seen list: for each station, the
 *    number of the last of its changes it had; changes.h);
 *  - every station keeps, in its table gone, the key of every row each
 *    change it holds removed, with that change's origin and number;
 *  - while another station's changes are applied, an insert of a row
 *    whose key a change removed that the inserting change's station had
 *    not seen is passed over (exchange.c's gate).
 *
 * A change whose seen list is not known (made before schema 14) passes
 * nothing over, as before.  refkit(7) says what this means for a GM.
 */
#ifndef REFKIT_GONE_H
#define REFKIT_GONE_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db_stmt.h"

/*
 * One station of a seen list: its id (32 lowercase hexadecimal digits)
 * and the i64 number of the last of its changes, big-endian.
 */
#define GONE_SEEN_LEN	(32 + 8)

/*
 * How many of station id's changes the seen list of nseen entries at
 * seen names: 0 if it does not name the station.
 */
int64_t gone_seen_of(const unsigned char *seen, size_t nseen,
    const char *id);

/*
 * The seen list for this station's next change: for every other station
 * it holds changes of, in increasing order of id, the number of the last
 * one, read through the database layer (on either backend).  Returns a
 * buffer the caller frees (never NULL), *n the stations in it; a
 * failure of the database is fatal (db_fatal).  In two halves, so that
 * the question goes with others: asked (db_ask), then its answer read.
 */
struct db_stmt *gone_seen_ask(struct db *db);
unsigned char *gone_seen_take(struct db *db, struct db_stmt *st, size_t *n);

/*
 * A key as table gone stores it, of the n values at v (the primary
 * key's, in the order of the table's columns): each value's SQLite type,
 * then 8 bytes big-endian of a number, or the length (8 bytes) and the
 * bytes of a text or blob.  The caller frees it.
 */
unsigned char *gone_key(sqlite3_value **v, int n, size_t *len);

/*
 * Notes in gone the key of every row that the changeset cs (len bytes,
 * well formed, of tables that travel) of change origin:oseq removes,
 * through the database layer.  Returns 0, or -1 when cs cannot be
 * walked; a failure of the database is fatal.
 */
int gone_note(struct db *db, const char *origin, int64_t oseq,
    const void *cs, size_t len);

/*
 * refkit_gone_note(origin, oseq, changeset): gone_note as an SQL
 * function, for migration 14.  Registered by db_open, with the struct
 * db as its user data.
 */
void gone_fn_note(sqlite3_context *cx, int argc, sqlite3_value **argv);

#endif
