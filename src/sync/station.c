/*
 * station.c - which station a database is; see station.h.  The id and
 * the first name are written by schema.sql itself (db.c gives it the
 * random bits and the name), so that no database is ever without them.
 */
#include "sync/station.h"

#include "base/util.h"

#include <err.h>
#include <stdlib.h>
#include <string.h>

static void
read_row(struct db_stmt *st, struct station *s)
{
	const char *id = db_column_text(st, 0);

	memset(s, 0, sizeof *s);
	if (id == NULL)
		id = "";
	if (strlen(id) != STATION_ID_LEN)
		errx(1, "damaged station record (id '%s')", util_q(id));
	memcpy(s->id, id, STATION_ID_LEN + 1);
	s->name = db_column_dup(st, 1);
	s->created = db_column_int(st, 2);
	s->self = db_column_int(st, 3);
}

#define STATION_COLS \
	"s.id, s.name, s.created, s.id = (SELECT id FROM station_self)"

void
station_self(struct db *db, struct station *s)
{
	struct db_stmt *st = db_prepare(db, "SELECT " STATION_COLS
	    " FROM station s JOIN station_self USING (id)");

	if (db_step(db, st, 0) != DB_ROW)
		errx(1, "'%s': damaged refkit database (it names no station "
		    "of its own)", util_q(db->path));
	read_row(st, s);
	db_finalize(st);
}

void
station_each(struct db *db, void (*fn)(void *, const struct station *),
    void *arg)
{
	struct db_stmt *st = db_prepare(db, "SELECT " STATION_COLS
	    " FROM station s ORDER BY 4 DESC, s.name, s.id");
	struct station s;

	while (db_step(db, st, 0) == DB_ROW) {
		read_row(st, &s);
		fn(arg, &s);
		station_release(&s);
	}
	db_finalize(st);
}

int
station_rename(struct db *db, const char *name, char *why, size_t whysz)
{
	struct db_stmt *st;

	if (db_station_name_check(name, why, whysz) != 0)
		return -1;
	st = db_prepare(db, "UPDATE station SET name = ?1"
	    " WHERE id = (SELECT id FROM station_self)");
	db_bind_text(st, 1, name);
	db_step(db, st, 0);
	db_finalize(st);
	return 0;
}

void
station_release(struct station *s)
{
	free(s->name);
	s->name = NULL;
}
