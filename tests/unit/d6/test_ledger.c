/*
 * test_d6store.c - D6 System characters in the database: saving,
 * loading, replacing, spending, the roster, the roll log and removal,
 * characters and traits by name, on a real file in a temporary
 * directory.
 */
#include "tap.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"

#include <sqlite3.h>
#include "base/util.h"
#include "d6/sheet.h"
#include "d6/ledger.h"

static int
int_of(struct db *db, const char *sql)
{
	sqlite3_stmt *st;
	int v = -12345;

	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* What d6ledger_each reports, gathered. */
struct roster {
	int	 n;
	char	 names[64];
	int	 attributes, skills, cp;
};

static void
collect(const struct d6_summary *s, void *arg)
{
	struct roster *r = arg;
	size_t len = strlen(r->names);

	snprintf(r->names + len, sizeof r->names - len, "%s%s",
	    r->n ? "," : "", s->name);
	r->n++;
	r->attributes += s->attributes;
	r->skills += s->skills;
	r->cp += s->cp;
}

static void
make_sheet(struct d6_sheet *s, const char *name)
{
	char why[200];

	d6sheet_new(s, name);
	if (d6sheet_apply(s, "Dexterity=3D+1", why, sizeof why) != 0 ||
	    d6sheet_apply(s, "Dexterity.Blaster=5D", why, sizeof why) != 0 ||
	    d6sheet_apply(s, "Perception=2D", why, sizeof why) != 0)
		printf("# apply: %s\n", why);
}

static void
test_save_load(struct db *db)
{
	struct d6_sheet s, t, dup;

	make_sheet(&s, "Luke");
	db_begin(db);
	is_int(d6ledger_save(db, &s, 1000), 0, "a new character is saved");
	ok(s.id > 0, "and given an id");
	make_sheet(&dup, "Luke");
	is_int(d6ledger_save(db, &dup, 1000), -1, "a taken name is refused");
	db_commit(db);
	ok(dup.id == 0, "the refused sheet has no id");
	d6sheet_free(&dup);

	db_begin_read(db);
	is_int(d6ledger_load(db, "Luke", &t), 0, "the character is loaded");
	is_int(t.id, s.id, "with its id");
	is_str(t.name, "Luke", "its name");
	is_int(t.cp, 5, "its Character Points");
	is_int(t.fp, 1, "its Force Points");
	is_int(t.n, 3, "its three traits");
	is_str(t.t[0].name, "Dexterity", "an attribute first");
	is_str(t.t[1].name, "Blaster", "then its skill");
	is_str(t.t[1].attribute, "Dexterity", "under it");
	is_int(t.t[0].code.dice * 10 + t.t[0].code.pips, 31, "3D+1 kept");
	is_str(t.t[2].name, "Perception", "then the next attribute");
	d6sheet_free(&t);
	is_int(d6ledger_load(db, "Nobody", &t), -1, "no such character");
	db_rollback(db);
	d6sheet_free(&s);
}

static void
test_replace(struct db *db)
{
	struct d6_sheet s;
	char why[200];

	db_begin(db);
	d6ledger_load(db, "Luke", &s);
	d6sheet_apply(&s, "Blaster=-", why, sizeof why);
	d6sheet_apply(&s, "notes=farm boy", why, sizeof why);
	is_int(d6ledger_save(db, &s, 2000), 0, "an edited sheet is saved");
	db_commit(db);
	d6sheet_free(&s);
	db_begin_read(db);
	d6ledger_load(db, "Luke", &s);
	is_int(s.n, 2, "its traits replaced, the skill gone");
	is_str(s.notes, "farm boy", "its notes");
	db_rollback(db);
	d6sheet_free(&s);
	is_int(int_of(db, "SELECT count(*) FROM d6_trait"), 2,
	    "no trait left behind");
	is_int(int_of(db, "SELECT updated FROM d6_character"), 2000,
	    "updated at the time given");
}

static void
test_spend_and_log(struct db *db)
{
	struct d6_logged lg = { "Luke", "r1", "Dexterity", "3D+1", 42, 14, 1,
	    0, "{}" };
	struct d6_sheet s;
	int cp, fp;

	db_begin(db);
	d6ledger_load(db, "Luke", &s);
	d6ledger_spend(db, s.id, 2, 1, 3000);
	d6ledger_log_roll(db, &lg, 3000);
	lg.cp = 2;
	lg.fp = 1;
	d6ledger_log_roll(db, &lg, 3001);
	lg.round = NULL;
	d6ledger_log_roll(db, &lg, 3002);
	db_commit(db);
	d6sheet_free(&s);

	db_begin_read(db);
	d6ledger_load(db, "Luke", &s);
	is_int(s.cp, 3, "Character Points spent");
	is_int(s.fp, 0, "a Force Point spent");
	d6sheet_free(&s);
	d6ledger_round_spent(db, "Luke", "r1", &cp, &fp);
	is_int(cp, 3, "the round's Character Points summed");
	is_int(fp, 1, "the round's Force Points summed");
	d6ledger_round_spent(db, "Luke", "r2", &cp, &fp);
	is_int(cp * 10 + fp, 0, "nothing spent in another round");
	d6ledger_round_spent(db, "Han", "r1", &cp, &fp);
	is_int(cp * 10 + fp, 0, "nor by another character");
	db_rollback(db);
	is_int(int_of(db, "SELECT count(*) FROM d6_roll"), 3,
	    "every roll logged");
	is_int(int_of(db, "SELECT count(*) FROM d6_roll WHERE round IS NULL"),
	    1, "a roll without a round");
	is_int(int_of(db, "SELECT seed = '42' FROM d6_roll LIMIT 1"), 1,
	    "the seed as decimal text");
}

static void
test_each_remove(struct db *db)
{
	struct roster r = { 0 };
	struct d6_sheet s;

	make_sheet(&s, "Han");
	db_begin(db);
	d6ledger_save(db, &s, 4000);
	db_commit(db);
	d6sheet_free(&s);
	db_begin_read(db);
	d6ledger_each(db, collect, &r);
	db_rollback(db);
	is_int(r.n, 2, "the roster has both characters");
	is_str(r.names, "Han,Luke", "by name");
	is_int(r.attributes, 4, "their attributes counted");
	is_int(r.skills, 1, "their skills counted");
	is_int(r.cp, 8, "their Character Points");

	db_begin(db);
	is_int(d6ledger_remove(db, "Luke"), 0, "a character is removed");
	is_int(d6ledger_remove(db, "Luke"), -1, "not twice");
	is_int(d6ledger_load(db, "Luke", &s), -1, "and is gone");
	db_commit(db);
	is_int(int_of(db, "SELECT count(*) FROM d6_trait"), 3,
	    "its traits went with it");
	is_int(int_of(db, "SELECT count(*) FROM d6_roll"), 3,
	    "its rolls stay in the log");
}

/* Names as a GM types them (base/names.h): characters and traits. */
static void
test_names(struct db *db)
{
	static const char *const add[] = { "Han Solo", "Hannah", "leia" };
	const struct d6_trait *t;
	struct d6_sheet s;
	char why[300], *name;
	int fallback;

	db_begin(db);
	for (size_t i = 0; i < sizeof add / sizeof add[0]; i++) {
		make_sheet(&s, add[i]);
		d6ledger_save(db, &s, 5000);
		d6sheet_free(&s);
	}
	db_commit(db);
	db_begin_read(db);
	name = d6ledger_name(db, "Han", why, sizeof why);
	is_str(name, "Han", "Han: the exact name");
	free(name);
	name = d6ledger_name(db, "LEIA", why, sizeof why);
	is_str(name, "leia", "LEIA: the name but for case, as stored");
	free(name);
	name = d6ledger_name(db, "solo", why, sizeof why);
	is_str(name, "Han Solo", "solo: the beginning of a word");
	free(name);
	name = d6ledger_name(db, "hann", why, sizeof why);
	is_str(name, "Hannah", "hann: the beginning of the name");
	free(name);
	ok(d6ledger_name(db, "ha", why, sizeof why) == NULL, "ha");
	is_str(why, "'ha' could be 'Han', 'Han Solo' or 'Hannah'",
	    "  is ambiguous");
	ok(d6ledger_name(db, "Hna", why, sizeof why) == NULL, "Hna");
	is_str(why, "no D6 character named 'Hna'; did you mean 'Han'?",
	    "  is unknown, with the nearest name");
	db_rollback(db);

	/* A trait: exact, but for case, or a unique beginning. */
	make_sheet(&s, "Han");
	d6sheet_apply(&s, "Dexterity.Dodge=4D", why, sizeof why);
	t = d6sheet_find(&s, "blast", &fallback, why, sizeof why);
	ok(t != NULL && strcmp(t->name, "Blaster") == 0 && !fallback,
	    "blast: Blaster");
	t = d6sheet_find(&s, "DEX", &fallback, why, sizeof why);
	ok(t != NULL && strcmp(t->name, "Dexterity") == 0, "DEX: Dexterity");
	t = d6sheet_find(&s, "dex.do", &fallback, why, sizeof why);
	ok(t != NULL && strcmp(t->name, "Dodge") == 0 && !fallback,
	    "dex.do: Dodge");
	t = d6sheet_find(&s, "per.blaster", &fallback, why, sizeof why);
	ok(t != NULL && strcmp(t->name, "Perception") == 0 && fallback,
	    "per.blaster: Perception has no Blaster, so Perception itself");
	ok(d6sheet_find(&s, "d", &fallback, why, sizeof why) == NULL, "d");
	is_str(why, "'d' could be 'Dexterity' or 'Dodge'", "  is ambiguous");
	ok(d6sheet_find(&s, "Percepton", &fallback, why, sizeof why) == NULL,
	    "Percepton");
	is_str(why, "Han has no trait 'Percepton'; did you mean 'Perception'? "
	    "(write ATTRIBUTE.Percepton to fall back on the attribute)",
	    "  is unknown, with the nearest name");
	ok(d6sheet_find(&s, "str.lifting", &fallback, why, sizeof why) ==
	    NULL, "str.lifting");
	is_str(why, "Han has no attribute 'str'", "  no such attribute");
	d6sheet_free(&s);
}

int
main(void)
{
	char dir[] = "/tmp/refkit-test-d6-ledger-XXXXXX";
	const char *sfx[] = { "", "-wal", "-shm" };
	char *path;
	struct db *db;

	if (mkdtemp(dir) == NULL)
		return 1;
	path = xasprintf("%s/d6.db", dir);
	db = db_open(path);
	test_save_load(db);
	test_replace(db);
	test_spend_and_log(db);
	test_each_remove(db);
	test_names(db);
	db_close(db);
	for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++) {
		char *f = xasprintf("%s%s", path, sfx[i]);

		unlink(f);
		free(f);
	}
	rmdir(dir);
	free(path);
	return tap_done();
}
