/*
 * lookup.c - a typed name found among a table's names (lookup.h).
 */
#include "db/lookup.h"

#include "db/db_stmt.h"
#include "base/names.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>

char *
lookup_name(struct db *db, const char *one, const char *all,
    const char *typed, const char *lead, char *why, size_t whysz)
{
	struct db_stmt *st = db_prepare(db, one);
	struct names m;
	const char *found;
	char *full = NULL;

	db_bind_text(st, 1, typed);
	if (db_step(db, st, 0) == DB_ROW && (found = db_column_text(st, 0)) !=
	    NULL)
		full = xstrdup(found);
	db_finalize(st);
	if (full != NULL)
		return full;
	names_init(&m, typed);
	st = db_prepare(db, all);
	while (db_step(db, st, 0) == DB_ROW) {
		const char *name = db_column_text(st, 0);

		if (name != NULL)
			names_add(&m, name);
	}
	db_finalize(st);
	if (names_pick(&m, &found) == NAMES_FOUND)
		full = xstrdup(found);
	else
		names_why(&m, lead, why, whysz);
	names_release(&m);
	return full;
}

int
lookup_name_buf(struct db *db, const char *one, const char *all,
    const char *typed, const char *lead, char *name, size_t sz, char *why,
    size_t whysz)
{
	char *full = lookup_name(db, one, all, typed, lead, why, whysz);

	if (full == NULL)
		return -1;
	snprintf(name, sz, "%s", full);
	free(full);
	return 0;
}
