/*
 * namekey.c - a loadable extension of the sqlite3 shell's that gives it
 * refkit_name_key(NAME), the key refkit gives a character's row
 * (db_name_key, compiled in from src/db/db_base.c), so that the import's
 * keyed floor (bench/floor-import-keyed.sql) makes the rows refkit makes,
 * ids included.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include <sodium.h>

#include "db/db_base.h"

int sqlite3_namekey_init(sqlite3 *, char **, const sqlite3_api_routines *);

static void
name_key(sqlite3_context *c, int argc, sqlite3_value **argv)
{
	const unsigned char *s = sqlite3_value_text(argv[0]);

	(void)argc;
	if (s == NULL)
		sqlite3_result_null(c);
	else
		sqlite3_result_int64(c, db_name_key((const char *)s));
}

int
sqlite3_namekey_init(sqlite3 *db, char **err,
    const sqlite3_api_routines *api)
{
	(void)err;
	SQLITE_EXTENSION_INIT2(api);
	if (sodium_init() < 0)
		return SQLITE_ERROR;
	return sqlite3_create_function(db, "refkit_name_key", 1,
	    SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, name_key, NULL, NULL);
}
