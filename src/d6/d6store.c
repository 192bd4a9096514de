/*
 * d6store.c - D6 System characters in the database (d6_character,
 * d6_trait) and the log of their rolls (d6_roll).  See d6store.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d6/d6store.h"
#include "core/chain.h"
#include "core/lookup.h"
#include "core/util.h"

static const char *
col_text(struct db_stmt *st, int i)
{
	return db_column_text(st, i);
}

char *
d6store_name(struct db *db, const char *typed, char *why, size_t whysz)
{
	return lookup_name(db, "SELECT name FROM d6_character WHERE name = ?1",
	    "SELECT name FROM d6_character", typed, "no D6 character named",
	    why, whysz);
}

int
d6store_load(struct db *db, const char *name, struct d6_sheet *s)
{
	struct db_stmt *st;
	int found = 0;

	memset(s, 0, sizeof *s);
	st = db_prepare(db, "SELECT id, name, cp, fp, dsp, notes"
	    " FROM d6_character WHERE name = ?1");
	db_bind_text(st, 1, name);
	if (db_step(db, st, 0) == DB_ROW) {
		found = 1;
		s->id = db_column_int(st, 0);
		s->name = xstrdup(col_text(st, 1));
		s->cp = db_column_int(st, 2);
		s->fp = db_column_int(st, 3);
		s->dsp = db_column_int(st, 4);
		if (col_text(st, 5))
			s->notes = xstrdup(col_text(st, 5));
	}
	db_finalize(st);
	if (!found)
		return -1;
	/* Attributes first, each followed by its skills, by name. */
	st = db_prepare(db, "SELECT name, attribute, dice, pips FROM d6_trait"
	    " WHERE character_id = ?1"
	    " ORDER BY coalesce(attribute, name), attribute IS NOT NULL,"
	    " name");
	db_bind_int(st, 1, s->id);
	while (db_step(db, st, 0) == DB_ROW) {
		struct d6_trait *t;

		s->t = xreallocarray(s->t, (size_t)s->n + 1, sizeof *s->t);
		t = &s->t[s->n++];
		t->name = xstrdup(col_text(st, 0));
		t->attribute = col_text(st, 1) ? xstrdup(col_text(st, 1)) :
		    NULL;
		t->code.dice = db_column_int(st, 2);
		t->code.pips = db_column_int(st, 3);
		t->code.plain = 0;
	}
	db_finalize(st);
	return 0;
}

int
d6store_save(struct db *db, struct d6_sheet *s, int64_t now)
{
	struct db_stmt *st;
	int rc;

	if (s->id == 0)
		st = db_prepare(db, "INSERT INTO d6_character"
		    " (id, name, cp, fp, dsp, notes, created, updated)"
		    " VALUES (" DB_NAME_KEY("?1") ", ?1, ?2, ?3, ?4,"
		    " ?5, ?6, ?6) RETURNING id");
	else
		st = db_prepare(db, "UPDATE d6_character SET name = ?1,"
		    " cp = ?2, fp = ?3, dsp = ?4, notes = ?5, updated = ?6"
		    " WHERE id = ?7");
	db_bind_text(st, 1, s->name);
	db_bind_int(st, 2, s->cp);
	db_bind_int(st, 3, s->fp);
	db_bind_int(st, 4, s->dsp);
	if (s->notes)
		db_bind_text(st, 5, s->notes);
	db_bind_int(st, 6, now);
	if (s->id)
		db_bind_int(st, 7, s->id);
	rc = db_step(db, st, 1);
	if (rc == DB_ROW)
		s->id = db_column_int(st, 0);
	db_finalize(st);
	if (rc == DB_CONSTRAINT)
		return -1;
	st = db_prepare(db, "DELETE FROM d6_trait WHERE character_id = ?1");
	db_bind_int(st, 1, s->id);
	db_step(db, st, 0);
	db_finalize(st);
	st = db_prepare(db, "INSERT INTO d6_trait"
	    " (character_id, name, attribute, dice, pips)"
	    " VALUES (?1, ?2, ?3, ?4, ?5)");
	for (int i = 0; i < s->n; i++) {
		db_reset(st);
		db_clear(st);
		db_bind_int(st, 1, s->id);
		db_bind_text(st, 2, s->t[i].name);
		if (s->t[i].attribute)
			db_bind_text(st, 3, s->t[i].attribute);
		db_bind_int(st, 4, s->t[i].code.dice);
		db_bind_int(st, 5, s->t[i].code.pips);
		db_step(db, st, 0);
	}
	db_finalize(st);
	return 0;
}

int
d6store_remove(struct db *db, const char *name)
{
	struct db_stmt *st;
	int n;

	st = db_prepare(db, "DELETE FROM d6_character WHERE name = ?1");
	db_bind_text(st, 1, name);
	db_step(db, st, 0);
	n = db_changes(db);
	db_finalize(st);
	return n ? 0 : -1;
}

void
d6store_spend(struct db *db, int64_t id, int cp, int fp, int64_t now)
{
	struct db_stmt *st;

	st = db_prepare(db, "UPDATE d6_character SET cp = cp - ?1,"
	    " fp = fp - ?2, updated = ?3 WHERE id = ?4");
	db_bind_int(st, 1, cp);
	db_bind_int(st, 2, fp);
	db_bind_int(st, 3, now);
	db_bind_int(st, 4, id);
	db_step(db, st, 0);
	db_finalize(st);
}

void
d6store_each(struct db *db, void (*fn)(const struct d6_summary *, void *),
    void *arg)
{
	struct db_stmt *st;

	st = db_prepare(db, "SELECT c.name, c.cp, c.fp, c.dsp,"
	    " count(t.name) - count(t.attribute), count(t.attribute)"
	    " FROM d6_character c"
	    " LEFT JOIN d6_trait t ON t.character_id = c.id"
	    " GROUP BY c.id ORDER BY c.name");
	while (db_step(db, st, 0) == DB_ROW) {
		struct d6_summary s;

		s.name = col_text(st, 0);
		s.cp = db_column_int(st, 1);
		s.fp = db_column_int(st, 2);
		s.dsp = db_column_int(st, 3);
		s.attributes = db_column_int(st, 4);
		s.skills = db_column_int(st, 5);
		fn(&s, arg);
	}
	db_finalize(st);
}

void
d6store_log_roll(struct db *db, const struct d6_logged *r, int64_t now)
{
	struct db_stmt *st;
	struct chain_head head;
	int64_t base, tag;
	char seed[24];

	/* A station's rolls are one chain (core/chain.h). */
	base = db_key_base(db);
	tag = base >> DB_KEY_BITS;
	chain_head_get(db, "rolls", tag, &head);
	snprintf(seed, sizeof seed, "%llu", (unsigned long long)r->seed);
	st = db_prepare(db, "INSERT INTO d6_roll (id, character, round,"
	    " trait, code, seed, total, cp, fp, detail, time) VALUES ("
	    DB_NEW_KEY("d6_roll") ", ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
	    " ?10) RETURNING *");
	db_bind_text(st, 1, r->character);
	if (r->round)
		db_bind_text(st, 2, r->round);
	db_bind_text(st, 3, r->trait);
	db_bind_text(st, 4, r->code);
	db_bind_text(st, 5, seed);
	db_bind_int(st, 6, r->total);
	db_bind_int(st, 7, r->cp);
	db_bind_int(st, 8, r->fp);
	db_bind_text(st, 9, r->detail);
	db_bind_int(st, 10, now);
	if (db_step(db, st, 0) != DB_ROW)
		db_die(db, "the D6 roll's insert returned no row");
	chain_append(db, "rolls", tag, db_column_int(st, 0) - base, st,
	    &head);
	db_finalize(st);
}

void
d6store_round_spent(struct db *db, const char *character, const char *round,
    int *cp, int *fp)
{
	struct db_stmt *st;

	*cp = *fp = 0;
	st = db_prepare(db, "SELECT coalesce(sum(cp), 0), coalesce(sum(fp), 0)"
	    " FROM d6_roll WHERE character = ?1 AND round = ?2");
	db_bind_text(st, 1, character);
	db_bind_text(st, 2, round);
	if (db_step(db, st, 0) == DB_ROW) {
		*cp = db_column_int(st, 0);
		*fp = db_column_int(st, 1);
	}
	db_finalize(st);
}

void
d6store_names(struct db *db, void (*fn)(void *, const char *), void *arg)
{
	db_each_text(db, db_prepare(db, "SELECT name FROM d6_character"), fn,
	    arg);
}

void
d6store_trait_names(struct db *db, const char *name,
    void (*fn)(void *, const char *), void *arg)
{
	struct db_stmt *st = db_prepare(db, "SELECT DISTINCT t.name FROM"
	    " d6_trait t JOIN d6_character c ON c.id = t.character_id"
	    " WHERE lower(c.name) = lower(?1)");

	db_bind_text(st, 1, name);
	db_each_text(db, st, fn, arg);
}
