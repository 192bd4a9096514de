/*
 * d6/ledger.c - D6 System characters in the database (d6_character,
 * d6_trait) and the log of their rolls (d6_roll).  See d6/ledger.h.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d6/ledger.h"
#include "db/chain.h"
#include "db/lookup.h"
#include "base/util.h"

static const char *
col_text(struct db_stmt *st, int i)
{
	return db_column_text(st, i);
}

char *
d6ledger_name(struct db *db, const char *typed, char *why, size_t whysz)
{
	return lookup_name(db, "SELECT name FROM d6_character WHERE name = ?1",
	    "SELECT name FROM d6_character", typed, "no D6 character named",
	    why, whysz);
}

int
d6ledger_load(struct db *db, const char *name, struct d6_sheet *s)
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
d6ledger_save(struct db *db, struct d6_sheet *s, int64_t now)
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
d6ledger_remove(struct db *db, const char *name)
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
d6ledger_spend(struct db *db, int64_t id, int cp, int fp, int64_t now)
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
d6ledger_each(struct db *db, void (*fn)(const struct d6_summary *, void *),
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
d6ledger_log_roll(struct db *db, const struct d6_logged *r, int64_t now)
{
	struct db_stmt *st;
	struct chain_head head;
	int64_t base, tag;
	char seed[24];

	/* A station's rolls are one chain (db/chain.h). */
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
d6ledger_round_spent(struct db *db, const char *character, const char *round,
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
d6ledger_names(struct db *db, void (*fn)(void *, const char *), void *arg)
{
	db_each_text(db, db_prepare(db, "SELECT name FROM d6_character"), fn,
	    arg);
}

void
d6ledger_trait_names(struct db *db, const char *name,
    void (*fn)(void *, const char *), void *arg)
{
	struct db_stmt *st = db_prepare(db, "SELECT DISTINCT t.name FROM"
	    " d6_trait t JOIN d6_character c ON c.id = t.character_id"
	    " WHERE lower(c.name) = lower(?1)");

	db_bind_text(st, 1, name);
	db_each_text(db, st, fn, arg);
}

/* ---- sealed rolls ---- */

int
d6ledger_seal(struct db *db, uint64_t *seed)
{
	struct db_stmt *st;
	int64_t n;

	db_lock_keys(db);
	st = db_prepare(db, "SELECT coalesce(max(id) - refkit_key_lo() + 1,"
	    " 0) + 1 FROM d6_roll WHERE " DB_OWN_KEY("id"));
	db_step(db, st, 0);
	n = db_column_int(st, 0);
	db_finalize(st);
	return seal_draw(db, "rolls", db_key_base(db) >> DB_KEY_BITS, n,
	    seed);
}

/* A list of dice as the detail writes it: [a,b,...]. */
static void
ints_text(char *buf, size_t sz, const int *v, int n)
{
	size_t k = 0;

	k += (size_t)snprintf(buf + k, sz - k, "[");
	for (int i = 0; i < n && k < sz; i++)
		k += (size_t)snprintf(buf + k, sz - k, "%s%d", i ? "," : "",
		    v[i]);
	if (k < sz)
		snprintf(buf + k, sz - k, "]");
}

/* The chains of Character Point dice as the detail writes them. */
static void
cp_text(char *buf, size_t sz, const struct d6_roll *r)
{
	size_t k = (size_t)snprintf(buf, sz, "[");

	for (int i = 0; i < r->ncp && k < sz; i++) {
		if (i)
			k += (size_t)snprintf(buf + k, sz - k, ",");
		if (k < sz)
			ints_text(buf + k, sz - k, r->cp[i].v, r->cp[i].n <
			    D6_CHAIN_MAX ? r->cp[i].n : D6_CHAIN_MAX);
		k = strlen(buf);
	}
	if (k < sz)
		snprintf(buf + k, sz - k, "]");
}

/* The number of lists in a detail's "cp": its top-level '['s. */
static int
cp_count(const char *s)
{
	int depth = 0, n = 0;

	for (; s != NULL && *s; s++)
		if (*s == '[' && ++depth == 2)
			n++;
		else if (*s == ']')
			depth--;
	return n;
}

/* A spec from the detail's fields: code, wild_one, cp chains. */
static int
spec_of(const char *code, const char *wild_one, int cp, struct d6_spec *s,
    char *why, size_t whysz)
{
	memset(s, 0, sizeof *s);
	if (code == NULL || d6_parse_code(code, &s->code, why, whysz) != 0)
		return util_say(why, whysz, "its code '%s' does not read",
		    code ? code : "");
	s->base = s->code;
	s->actions = 1;
	s->wild = wild_one != NULL;
	s->one = wild_one == NULL ? D6_ONE_COMPLICATION :
	    strcmp(wild_one, "drop") == 0 ? D6_ONE_DROP :
	    strcmp(wild_one, "none") == 0 ? D6_ONE_NONE :
	    D6_ONE_COMPLICATION;
	s->cp = cp;
	return 0;
}

/* Compares what one side rolled again with its detail's fields. */
static int
same_roll(const struct d6_roll *r, const char *dice, const char *wild,
    const char *cp, char *why, size_t whysz)
{
	char buf[1024];

	ints_text(buf, sizeof buf, r->dice, r->ndice);
	if (dice == NULL || strcmp(buf, dice) != 0)
		return util_say(why, whysz, "its dice do not follow from its "
		    "seed: drawn again %s, recorded %s", buf, dice ? dice :
		    "none");
	ints_text(buf, sizeof buf, r->wild.v, r->wild.n < D6_CHAIN_MAX ?
	    r->wild.n : D6_CHAIN_MAX);
	if (wild == NULL || strcmp(buf, wild) != 0)
		return util_say(why, whysz, "its Wild Die does not follow from "
		    "its seed: drawn again %s, recorded %s", buf, wild ?
		    wild : "none");
	if (cp != NULL) {
		cp_text(buf, sizeof buf, r);
		if (strcmp(buf, cp) != 0)
			return util_say(why, whysz, "its Character Point dice "
			    "do not follow from its seed: drawn again %s, "
			    "recorded %s", buf, cp);
	}
	return 0;
}

long
d6ledger_seal_check(struct db *db, int64_t log, int64_t first, int64_t last,
    const unsigned char key[SEAL_BYTES], seal_bad_fn bad, void *arg,
    char *why, size_t whysz)
{
	struct db_stmt *st;
	int64_t base = log << DB_KEY_BITS;
	long draws = 0;

	(void)why;
	(void)whysz;
	st = db_prepare(db, "SELECT id, seed, code, total,"
	    " json_extract(detail, '$.wild_one'), json_extract(detail, '$.dice'),"
	    " json_extract(detail, '$.wild'), json_extract(detail, '$.cp'),"
	    " json_extract(detail, '$.opposed.code'),"
	    " json_extract(detail, '$.opposed.wild_one'),"
	    " json_extract(detail, '$.opposed.dice'),"
	    " json_extract(detail, '$.opposed.wild'),"
	    " json_extract(detail, '$.opposed.total')"
	    " FROM d6_roll WHERE id BETWEEN ?1 AND ?2 ORDER BY id");
	db_bind_int(st, 1, base + first);
	db_bind_int(st, 2, last > 0 ? base + last : base + DB_KEY_MAX_NO);
	while (db_step(db, st, 0) == DB_ROW) {
		int64_t n = db_column_int(st, 0) - base;
		uint64_t want = seal_draw_seed(key, n, 0, 0), got;
		const char *seed = db_column_text(st, 1);
		struct d6_spec s;
		struct d6_roll r;
		struct rng g;
		char msg[1200], w[1100];

		draws++;
		got = seed ? strtoull(seed, NULL, 10) : 0;
		if (got != want) {
			snprintf(msg, sizeof msg, "its seed is %" PRIu64 ", the "
			    "seal gives %" PRIu64, got, want);
			bad(arg, "rolls", log, n, msg);
			continue;
		}
		rng_seed(&g, want);
		if (spec_of(db_column_text(st, 2), db_column_text(st, 4),
		    cp_count(db_column_text(st, 7)), &s, w, sizeof w) != 0) {
			bad(arg, "rolls", log, n, w);
			continue;
		}
		d6_roll(&g, &s, &r);
		if (same_roll(&r, db_column_text(st, 5), db_column_text(st, 6),
		    db_column_text(st, 7), w, sizeof w) != 0) {
			bad(arg, "rolls", log, n, w);
			continue;
		}
		if (r.total != db_column_int(st, 3)) {
			snprintf(msg, sizeof msg, "its total does not follow "
			    "from its seed: rolled again %ld, recorded %"
			    PRId64, r.total, db_column_int(st, 3));
			bad(arg, "rolls", log, n, msg);
			continue;
		}
		if (db_column_type(st, 8) == DB_NULL)
			continue;
		/* The opposing roll, from the same generator after it. */
		if (spec_of(db_column_text(st, 8), db_column_text(st, 9), 0,
		    &s, w, sizeof w) != 0) {
			bad(arg, "rolls", log, n, w);
			continue;
		}
		d6_roll(&g, &s, &r);
		if (same_roll(&r, db_column_text(st, 10),
		    db_column_text(st, 11), NULL, w, sizeof w) != 0 ||
		    (r.total != db_column_int(st, 12) && snprintf(w, sizeof w,
		    "its total does not follow from its seed") > 0)) {
			snprintf(msg, sizeof msg, "the opposing roll: %s", w);
			bad(arg, "rolls", log, n, msg);
		}
	}
	db_finalize(st);
	return draws;
}
