/*
 * d6sheet.c - D6 System characters in memory and in the database.  See
 * d6sheet.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d6/d6sheet.h"
#include "core/util.h"

void
d6sheet_new(struct d6_sheet *s, const char *name)
{
	memset(s, 0, sizeof *s);
	s->name = xstrdup(name);
	s->cp = 5;
	s->fp = 1;
}

static void
trait_free(struct d6_trait *t)
{
	free(t->name);
	free(t->attribute);
}

void
d6sheet_free(struct d6_sheet *s)
{
	for (int i = 0; i < s->n; i++)
		trait_free(&s->t[i]);
	free(s->t);
	free(s->name);
	free(s->notes);
	memset(s, 0, sizeof *s);
}

static int
find(const struct d6_sheet *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (util_streq_ci(s->t[i].name, name))
			return i;
	return -1;
}

/* A trait name: 1 to 100 bytes, one line, no '.' or '='. */
static int
good_name(const char *n, char *why, size_t whysz)
{
	char r[128];

	if (strchr(n, '.') || strchr(n, '=') || *n == '\0') {
		snprintf(why, whysz, "a trait name must be non-empty, without "
		    "'.' or '='");
		return -1;
	}
	if (util_check_text(n, UTIL_TEXT_LINE, 100, r, sizeof r) != 0) {
		snprintf(why, whysz, "trait name: %s", r);
		return -1;
	}
	if (util_streq_ci(n, "cp") || util_streq_ci(n, "fp") ||
	    util_streq_ci(n, "dsp") || util_streq_ci(n, "notes")) {
		util_say(why, whysz, "'%s' is a sheet field, not a trait", n);
		return -1;
	}
	return 0;
}

static int
points(const char *key, const char *v, long max, int *out, char *why,
    size_t whysz)
{
	long n;

	if (util_parse_int(v, 0, max, &n) != UTIL_INT_OK) {
		snprintf(why, whysz, "%s: want a whole number from 0 to %ld",
		    key, max);
		return -1;
	}
	*out = (int)n;
	return 0;
}

int
d6sheet_apply(struct d6_sheet *s, const char *arg, char *why,
    size_t whysz)
{
	char *buf, *dot, r[128];
	const char *key, *val;
	struct d6_code c;
	int i, rc = -1;

	if (util_split_kv(arg, &buf, &key, &val) != 0) {
		snprintf(why, whysz, "want TRAIT=CODE, ATTRIBUTE.SKILL=CODE, "
		    "TRAIT=- or cp=/fp=/dsp=/notes=");
		return -1;
	}
	if (util_streq_ci(key, "cp"))
		rc = points("cp", val, 10000, &s->cp, why, whysz);
	else if (util_streq_ci(key, "fp"))
		rc = points("fp", val, 1000, &s->fp, why, whysz);
	else if (util_streq_ci(key, "dsp"))
		rc = points("dsp", val, 1000, &s->dsp, why, whysz);
	else if (util_streq_ci(key, "notes")) {
		if (util_check_text(val, UTIL_TEXT_NOTES, 10000, r,
		    sizeof r) != 0)
			snprintf(why, whysz, "notes: %s", r);
		else {
			free(s->notes);
			s->notes = *val ? xstrdup(val) : NULL;
			rc = 0;
		}
	} else {
		const char *name = key, *attr = NULL;

		if ((dot = strchr(buf, '.')) != NULL) {
			*dot = '\0';
			attr = buf;
			name = dot + 1;
			if (good_name(attr, why, whysz) != 0)
				goto out;
		}
		if (good_name(name, why, whysz) != 0)
			goto out;
		i = find(s, name);
		if (strcmp(val, "-") == 0) {
			if (i < 0) {
				util_say(why, whysz, "%s has no trait '%s'",
				    s->name, name);
				goto out;
			}
			trait_free(&s->t[i]);
			memmove(&s->t[i], &s->t[i + 1],
			    (size_t)(s->n - i - 1) * sizeof *s->t);
			s->n--;
			rc = 0;
			goto out;
		}
		if (d6_parse_code(val, &c, r, sizeof r) != 0) {
			snprintf(why, whysz, "%s: %s", name, r);
			goto out;
		}
		if (c.plain) {
			snprintf(why, whysz, "%s: a trait is a D6 code like "
			    "3D+1, not plain dice", name);
			goto out;
		}
		if (attr && util_streq_ci(attr, name)) {
			snprintf(why, whysz, "%s cannot be a skill of itself",
			    name);
			goto out;
		}
		if (i < 0) {
			s->t = xreallocarray(s->t, (size_t)s->n + 1,
			    sizeof *s->t);
			i = s->n++;
			s->t[i].name = xstrdup(name);
			s->t[i].attribute = NULL;
		}
		free(s->t[i].attribute);
		s->t[i].attribute = attr ? xstrdup(attr) : NULL;
		s->t[i].code = c;
		rc = 0;
	}
out:
	free(buf);
	return rc;
}

int
d6sheet_check(const struct d6_sheet *s, char *why, size_t whysz)
{
	for (int i = 0; i < s->n; i++) {
		const struct d6_trait *t = &s->t[i];
		int a;

		if (t->attribute == NULL)
			continue;
		a = find(s, t->attribute);
		if (a < 0) {
			snprintf(why, whysz, "skill %s: %s has no attribute "
			    "'%s'", t->name, s->name, t->attribute);
			return -1;
		}
		if (s->t[a].attribute != NULL) {
			util_say(why, whysz, "skill %s: '%s' is a skill, not "
			    "an attribute", t->name, t->attribute);
			return -1;
		}
	}
	return 0;
}

const struct d6_trait *
d6sheet_find(const struct d6_sheet *s, const char *ref, int *fallback)
{
	const char *dot = strchr(ref, '.');
	int i;

	*fallback = 0;
	if (dot == NULL)
		return (i = find(s, ref)) >= 0 ? &s->t[i] : NULL;
	if ((i = find(s, dot + 1)) >= 0 && s->t[i].attribute &&
	    strlen(s->t[i].attribute) == (size_t)(dot - ref) &&
	    strncasecmp(s->t[i].attribute, ref, (size_t)(dot - ref)) == 0)
		return &s->t[i];
	for (i = 0; i < s->n; i++)
		if (s->t[i].attribute == NULL &&
		    strlen(s->t[i].name) == (size_t)(dot - ref) &&
		    strncasecmp(s->t[i].name, ref, (size_t)(dot - ref)) == 0) {
			*fallback = 1;
			return &s->t[i];
		}
	return NULL;
}

/* ---- the database ---- */

static const char *
col_text(sqlite3_stmt *st, int i)
{
	return db_column_text(st, i);
}

int
d6sheet_load(struct db *db, const char *name, struct d6_sheet *s)
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
d6sheet_save(struct db *db, struct d6_sheet *s, int64_t now)
{
	sqlite3_stmt *st;
	int rc;

	if (s->id == 0)
		st = db_prepare(db, "INSERT INTO d6_character"
		    " (name, cp, fp, dsp, notes, created, updated)"
		    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)");
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
d6sheet_remove(struct db *db, const char *name)
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
d6sheet_spend(struct db *db, int64_t id, int cp, int fp, int64_t now)
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
d6sheet_each(struct db *db, void (*fn)(const struct d6_summary *, void *),
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
d6sheet_log_roll(struct db *db, const struct d6_logged *r, int64_t now)
{
	sqlite3_stmt *st;
	char seed[24];

	snprintf(seed, sizeof seed, "%llu", (unsigned long long)r->seed);
	st = db_prepare(db, "INSERT INTO d6_roll (character, round, trait,"
	    " code, seed, total, cp, fp, detail, time)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
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
d6sheet_round_spent(struct db *db, const char *character, const char *round,
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
