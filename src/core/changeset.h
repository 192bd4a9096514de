/*
 * changeset.h - the bytes of an SQLite changeset, walked without
 * SQLite's iterator (which, in SQLite 3.40, trusts the lengths inside
 * one): the guard the changes file reader puts before every changeset,
 * and the quick question whether one removes a row.  The lowest part of
 * the stations' code: it knows nothing of refkit's database.
 */
#ifndef REFKIT_CHANGESET_H
#define REFKIT_CHANGESET_H

#include <stddef.h>

/*
 * Whether every part of the n bytes at p (table headers, changes,
 * values) lies inside them, by the layout sqlite3session.h documents.
 * Only bounds are judged; a patchset is refused.
 */
int changeset_in_bounds(const void *p, size_t n);

/*
 * Whether the changeset cs, which changeset_in_bounds takes, has a
 * delete; stops at the first.
 */
int changeset_has_delete(const void *cs, size_t len);

#endif
