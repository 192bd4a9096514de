/*
 * changeset.h - the bytes of an SQLite changeset, walked without
 * SQLite's iterator (which, in SQLite 3.40, trusts the lengths inside
 * one): the guard the changes file reader puts before every changeset,
 * and the quick question whether one removes a row; and written without
 * a session, for a PostgreSQL station, whose server records the rows a
 * transaction changed (tools/pgstation.sql), and for the changes an apply
 * takes up again (sync/dbapply.c).  The lowest part of the stations'
 * code: it knows nothing of refkit's database.
 */
#ifndef REFKIT_CHANGESET_H
#define REFKIT_CHANGESET_H

#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"

struct sqlite3_value;

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

/*
 * A changeset being written: a buffer that grows (zeroed to begin
 * with; the caller frees p), to which a table and then its changes are
 * added, and so on.  The bytes are those SQLite's session extension
 * writes: a table header ('T', the column count, for each column its
 * place in the primary key or 0, the name and a NUL), then each change
 * (the operation, an indirect flag, and a value per column: the
 * old ones of a delete, the new of an insert, and for an update the old
 * values of the key and of the columns it changes, then the new values
 * of those columns, the others not given).  The changeset grows in a
 * strbuf (base/strbuf.h) that the caller starts as STRBUF_INIT and
 * frees.
 */

/*
 * A value: type SQLITE_INTEGER (i), SQLITE_FLOAT (f), SQLITE_TEXT or
 * SQLITE_BLOB (n bytes at p), SQLITE_NULL, or 0 for one not given.
 */
struct changeset_value {
	int		 type;
	int64_t		 i;
	double		 f;
	const void	*p;
	size_t		 n;
};

void changeset_put_table(struct strbuf *o, const char *table,
    int ncol, const unsigned char *pk);
/*
 * A change of the table last put: SQLITE_INSERT, _DELETE or _UPDATE, and
 * whether it was made indirectly (as SQLite marks the rows a foreign
 * key's action changed).
 */
void changeset_put_change(struct strbuf *o, int op, int indirect);
void changeset_put_value(struct strbuf *o,
    const struct changeset_value *v);
/* The same from one of SQLite's values; NULL puts one not given. */
void changeset_put_sqlite_value(struct strbuf *o,
    struct sqlite3_value *v);

#endif
