/*
 * d6store.c - D6 System characters in the database (d6_character,
 * d6_trait) and the log of their rolls (d6_roll).  See d6store.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d6/d6store.h"
#include "core/util.h"

static const char *
col_text(sqlite3_stmt *st, int i)
{
	return db_column_text(st, i);
}

int
d6store_load(struct db *db, const char *name, struct d6_sheet *s)
{
	sqlite3_stmt *st;
	int found = 0;

	memset(s, 0, sizeof *s);
	st = db_prepare(db, "SELECT id, name, cp, fp, dsp, notes"
	    " FROM d6_character WHERE name = ?1");
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (db_step(db, st, 0) == SQLITE_ROW) {
		found = 1;
		s->id = sqlite3_column_int64(st, 0);
		s->name = xstrdup(col_text(st, 1));
		s->cp = sqlite3_column_int(st, 2);
		s->fp = sqlite3_column_int(st, 3);
		s->dsp = sqlite3_column_int(st, 4);
		if (col_text(st, 5))
			s->notes = xstrdup(col_text(st, 5));
	}
	sqlite3_finalize(st);
	if (!found)
		return -1;
	/* Attributes first, each followed by its skills, by name. */
	st = db_prepare(db, "SELECT name, attribute, dice, pips FROM d6_trait"
	    " WHERE character_id = ?1"
	    " ORDER BY coalesce(attribute, name), attribute IS NOT NULL,"
	    " name");
	sqlite3_bind_int64(st, 1, s->id);
	while (db_step(db, st, 0) == SQLITE_ROW) {
		struct d6_trait *t;

		s->t = xreallocarray(s->t, (size_t)s->n + 1, sizeof *s->t);
		t = &s->t[s->n++];
		t->name = xstrdup(col_text(st, 0));
		t->attribute = col_text(st, 1) ? xstrdup(col_text(st, 1)) :
		    NULL;
		t->code.dice = sqlite3_column_int(st, 2);
		t->code.pips = sqlite3_column_int(st, 3);
		t->code.plain = 0;
	}
	sqlite3_finalize(st);
	return 0;
}

int
d6store_save(struct db *db, struct d6_sheet *s, int64_t now)
{
	sqlite3_stmt *st;
	int rc;

	if (s->id == 0)
		st = db_prepare(db, "INSERT INTO d6_character"
		    " (id, name, cp, fp, dsp, notes, created, updated)"
		    " VALUES (" DB_NAME_KEY("?1") ", ?1, ?2, ?3, ?4,"
		    " ?5, ?6, ?6)");
	else
		st = db_prepare(db, "UPDATE d6_character SET name = ?1,"
		    " cp = ?2, fp = ?3, dsp = ?4, notes = ?5, updated = ?6"
		    " WHERE id = ?7");
	sqlite3_bind_text(st, 1, s->name, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, s->cp);
	sqlite3_bind_int(st, 3, s->fp);
	sqlite3_bind_int(st, 4, s->dsp);
	if (s->notes)
		sqlite3_bind_text(st, 5, s->notes, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, now);
	if (s->id)
		sqlite3_bind_int64(st, 7, s->id);
	rc = db_step(db, st, 1);
	sqlite3_finalize(st);
	if (rc == SQLITE_CONSTRAINT)
		return -1;
	if (s->id == 0)
		s->id = sqlite3_last_insert_rowid(db->h);
	st = db_prepare(db, "DELETE FROM d6_trait WHERE character_id = ?1");
	sqlite3_bind_int64(st, 1, s->id);
	db_step(db, st, 0);
	sqlite3_finalize(st);
	st = db_prepare(db, "INSERT INTO d6_trait"
	    " (character_id, name, attribute, dice, pips)"
	    " VALUES (?1, ?2, ?3, ?4, ?5)");
	for (int i = 0; i < s->n; i++) {
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		sqlite3_bind_int64(st, 1, s->id);
		sqlite3_bind_text(st, 2, s->t[i].name, -1, SQLITE_STATIC);
		if (s->t[i].attribute)
			sqlite3_bind_text(st, 3, s->t[i].attribute, -1,
			    SQLITE_STATIC);
		sqlite3_bind_int(st, 4, s->t[i].code.dice);
		sqlite3_bind_int(st, 5, s->t[i].code.pips);
		db_step(db, st, 0);
	}
	sqlite3_finalize(st);
	return 0;
}

int
d6store_remove(struct db *db, const char *name)
{
	sqlite3_stmt *st;
	int n;

	st = db_prepare(db, "DELETE FROM d6_character WHERE name = ?1");
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	db_step(db, st, 0);
	n = sqlite3_changes(db->h);
	sqlite3_finalize(st);
	return n ? 0 : -1;
}

void
d6store_spend(struct db *db, int64_t id, int cp, int fp, int64_t now)
{
	sqlite3_stmt *st;

	st = db_prepare(db, "UPDATE d6_character SET cp = cp - ?1,"
	    " fp = fp - ?2, updated = ?3 WHERE id = ?4");
	sqlite3_bind_int(st, 1, cp);
	sqlite3_bind_int(st, 2, fp);
	sqlite3_bind_int64(st, 3, now);
	sqlite3_bind_int64(st, 4, id);
	db_step(db, st, 0);
	sqlite3_finalize(st);
}

void
d6store_each(struct db *db, void (*fn)(const struct d6_summary *, void *),
    void *arg)
{
	sqlite3_stmt *st;

	st = db_prepare(db, "SELECT c.name, c.cp, c.fp, c.dsp,"
	    " count(t.name) - count(t.attribute), count(t.attribute)"
	    " FROM d6_character c"
	    " LEFT JOIN d6_trait t ON t.character_id = c.id"
	    " GROUP BY c.id ORDER BY c.name");
	while (db_step(db, st, 0) == SQLITE_ROW) {
		struct d6_summary s;

		s.name = col_text(st, 0);
		s.cp = sqlite3_column_int(st, 1);
		s.fp = sqlite3_column_int(st, 2);
		s.dsp = sqlite3_column_int(st, 3);
		s.attributes = sqlite3_column_int(st, 4);
		s.skills = sqlite3_column_int(st, 5);
		fn(&s, arg);
	}
	sqlite3_finalize(st);
}

void
d6store_log_roll(struct db *db, const struct d6_logged *r, int64_t now)
{
	sqlite3_stmt *st;
	char seed[24];

	snprintf(seed, sizeof seed, "%llu", (unsigned long long)r->seed);
	st = db_prepare(db, "INSERT INTO d6_roll (id, character, round,"
	    " trait, code, seed, total, cp, fp, detail, time) VALUES ("
	    DB_NEW_KEY("d6_roll") ", ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
	    " ?10)");
	sqlite3_bind_text(st, 1, r->character, -1, SQLITE_STATIC);
	if (r->round)
		sqlite3_bind_text(st, 2, r->round, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, r->trait, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, r->code, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, seed, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, r->total);
	sqlite3_bind_int(st, 7, r->cp);
	sqlite3_bind_int(st, 8, r->fp);
	sqlite3_bind_text(st, 9, r->detail, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 10, now);
	db_step(db, st, 0);
	sqlite3_finalize(st);
}

void
d6store_round_spent(struct db *db, const char *character, const char *round,
    int *cp, int *fp)
{
	sqlite3_stmt *st;

	*cp = *fp = 0;
	st = db_prepare(db, "SELECT coalesce(sum(cp), 0), coalesce(sum(fp), 0)"
	    " FROM d6_roll WHERE character = ?1 AND round = ?2");
	sqlite3_bind_text(st, 1, character, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, round, -1, SQLITE_STATIC);
	if (db_step(db, st, 0) == SQLITE_ROW) {
		*cp = sqlite3_column_int(st, 0);
		*fp = sqlite3_column_int(st, 1);
	}
	sqlite3_finalize(st);
}
