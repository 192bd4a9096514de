/*
 * pgrecord.h - the changes of a write transaction on a PostgreSQL
 * station, as the changeset SQLite's session extension would have made
 * of them (issue #22).  The server notes the rows each statement
 * changes (tools/pgstation.sql); this turns those notes into the bytes
 * that an SQLite station stores and sends, so that both kinds of
 * station exchange the same changesets.  See refkit.db(5).
 */
#ifndef REFKIT_PGRECORD_H
#define REFKIT_PGRECORD_H

#include <stddef.h>

#include "db/db_base.h"

/*
 * Takes the server's notes of the rows changed in the open write
 * transaction since the last call (they are removed from its table)
 * and returns them as one changeset, *n bytes the caller frees, or
 * NULL when no row ends the transaction other than it was: rows made
 * and removed again, or changed and changed back, are no change.  A row
 * whose key changed is removed under its old key and made under its
 * new one, as SQLite records it.  A note that is not what the schema
 * has makes it exit 1 (a damaged record).
 */
unsigned char *pgrecord_take(struct db *db, size_t *n);

#endif
