/*
 * test_report.c - the organiser's report's figures (report.c) over
 * combats fought through the rules and recorded in a database in a
 * temporary file, as crs-combat records them: each combat's sums, rounds,
 * duration and story, the matchups and their odds against the odds
 * engine, the hours, --since; and the report's JSON and the SVG charts
 * (paper/svg.c) it draws: escaping, cut labels, a bar a figure.
 */
#include "tap.h"

#include <stdlib.h>
#include <unistd.h>

#include "paper/svg.h"
#include "base/util.h"
#include "crs/ledger.h"
#include "crs/odds.h"
#include "crs/report.h"
#include "crs/report_load.h"
#include "crs/report_json.h"

static struct combat_state st;
static int64_t now;

/* Executes e against s and records it in combat id, as commit_event. */
static void
put(struct db *db, int64_t id, struct combat_event *e)
{
	char why[300];

	e->time = now;
	if (combat_execute(&st, e, why, sizeof why) != 0)
		printf("# refused: %s\n", why);
	ledger_record(db, id, e, &st);
	combat_event_release(e);
}

static void
join(struct db *db, int64_t id, const char *name, int or_, int dr, int lb,
    int life)
{
	struct combat_event e;

	combat_event_init(&e);
	e.action = COMBAT_JOIN;
	e.actor = xstrdup(name);
	e.stats = (struct combat_stats){ or_, dr, 5, life, 3, -1, lb, 0, 0, 0 };
	put(db, id, &e);
}

static void
init2(struct db *db, int64_t id, const char *a, const char *b)
{
	struct combat_event e;

	combat_event_init(&e);
	e.action = COMBAT_INITIATIVE;
	e.init = xcalloc(2, sizeof *e.init);
	e.ninit = 2;
	e.init[0].name = xstrdup(a);
	e.init[0].cards = xstrdup("9");
	e.init[1].name = xstrdup(b);
	e.init[1].cards = xstrdup("2");
	put(db, id, &e);
}

/* An attack with typed cards; vs NULL: no defence is typed. */
static void
attack(struct db *db, int64_t id, const char *a, const char *t,
    const char *cards, const char *vs)
{
	struct combat_event e;

	combat_event_init(&e);
	e.action = COMBAT_ATTACK;
	e.actor = xstrdup(a);
	e.target = xstrdup(t);
	e.cards = xstrdup(cards);
	e.vs_cards = vs ? xstrdup(vs) : NULL;
	put(db, id, &e);
}

static void
plain(struct db *db, int64_t id, int action)
{
	struct combat_event e;

	combat_event_init(&e);
	e.action = action;
	e.agreed = 1;
	put(db, id, &e);
}

/*
 * Combat 1 at 10:00: Ann (OR 8, LB 1) hits Bob (DR 6, LB 2, LIFE 5) for
 * 4, Bob fumbles, a new round, Ann downs Bob (a hit of 9 on LIFE 1),
 * the end 5 minutes on.
 * Combat 2 at 12:30, under way: Bob hits Ann once.
 */
static void
fight(struct db *db, int64_t *c1, int64_t *c2)
{
	now = 36000;
	*c1 = ledger_new_combat(db, "crs", now);
	combat_state_init(&st);
	plain(db, *c1, COMBAT_START);
	join(db, *c1, "Ann", 8, 10, 1, 20);
	join(db, *c1, "Bob", 6, 6, 2, 5);
	init2(db, *c1, "Ann", "Bob");
	attack(db, *c1, "Ann", "Bob", "8", "6");
	attack(db, *c1, "Bob", "Ann", "A", NULL);
	plain(db, *c1, COMBAT_ROUND);
	init2(db, *c1, "Ann", "Bob");
	now += 300;
	attack(db, *c1, "Ann", "Bob", "9", "2");
	plain(db, *c1, COMBAT_END);
	combat_state_release(&st);
	now = 45000;
	*c2 = ledger_new_combat(db, "crs", now);
	combat_state_init(&st);
	plain(db, *c2, COMBAT_START);
	join(db, *c2, "Bob", 6, 6, 2, 5);
	join(db, *c2, "Ann", 8, 10, 1, 20);
	init2(db, *c2, "Bob", "Ann");
	now += 60;
	attack(db, *c2, "Bob", "Ann", "9", "3");
	combat_state_release(&st);
}

static void
add_row(void *arg, const struct ledger_history *h)
{
	report_add_char(arg, h);
}

static void
load(struct db *db, struct report *r, int64_t since)
{
	size_t n;
	int64_t *ids = ledger_combat_ids(db, &n);

	report_init(r, since, 50000);
	ledger_history(db, NULL, since, add_row, r);
	for (size_t i = 0; i < n; i++) {
		struct ledger l;

		if (ledger_load_all(db, ids[i], &l) == 0) {
			report_add_combat(r, &l);
			ledger_release(&l);
		}
	}
	free(ids);
	report_finish(r);
}

/* P(hit) of offence base ob (LB ol) against defence db (LB dl), exactly. */
static void
versus(int ob, int ol, int dbase, int dl, char *buf, size_t sz)
{
	struct deck a, d;
	struct odds_dist x, y;
	struct odds_versus v;

	/* The long way, not odds_strike, which report.c uses. */
	deck_init(&a, ol);
	deck_init(&d, dl);
	odds_pick(&a, 1, ob, ODDS_ATTACK, &x);
	odds_pick(&d, 1, dbase, ODDS_DEFENSE, &y);
	odds_versus(&x, &y, &v);
	odds_fraction(v.hit, v.den, buf, sz);
	odds_versus_release(&v);
	odds_dist_release(&x);
	odds_dist_release(&y);
}

static void
test_combats(const struct report *r)
{
	const struct report_combat *c = &r->combats[0];

	is_int(r->ncombats, 2, "two combats");
	is_int(c->rounds, 2, "combat 1: two rounds");
	is_int(c->actions, 3, "combat 1: three strikes");
	/* A hit's damage counts whole, past the LIFE left (1 of it). */
	is_int(c->dealt, 4 + 9, "combat 1: damage 4, then 9");
	is_int(c->downs, 1, "combat 1: Bob downed");
	is_int(c->fumbles, 1, "combat 1: Bob's Ace");
	is_int(report_duration(c), 300, "combat 1: five minutes");
	ok(c->finished != 0, "combat 1 ended");
	is_int(c->nstory, 10, "combat 1: a story line an event");
	ok(strstr(c->story[4].text, "Ann attacks Bob") != NULL,
	    "the story as log words it: %s", c->story[4].text);
	is_int(c->nfighters, 2, "two fighters");
	c = &r->combats[1];
	is_int(c->finished, 0, "combat 2 under way");
	is_int(report_duration(c), 60, "combat 2: a minute so far");
	is_int(r->nhours, 3, "10:00, a quiet 11:00, 12:00");
	is_int(r->hours[1].combats, 0, "11:00 is quiet");
	is_int(r->hours[2].hour, 43200, "12:00");
}

static void
test_matchups(const struct report *r)
{
	char want[96];

	is_int(r->nmatchups, 2, "two matchups");
	is_str(r->matchups[0].attacker, "Ann", "Ann's is the most frequent");
	is_int(r->matchups[0].count, 2, "twice");
	is_int(r->matchups[0].base, 8, "her OR");
	is_int(r->matchups[0].vs_base, 6, "his DR");
	versus(8, 1, 6, 2, want, sizeof want);
	is_str(r->matchups[0].p_exact, want, "P(hit) as the odds engine's");
	/* Bob's fumble drew no defence; his hit in combat 2 did. */
	ok(r->matchups[1].known, "Bob's P(hit) from combat 2");
	is_int(r->matchups[1].count, 2, "Bob struck twice");
	is_str(report_kind(&r->matchups[1]), "short range", "its kind");
}

static void
test_chars(const struct report *r)
{
	is_int(r->nchars, 2, "two characters");
	is_str(r->chars[0].name, "Ann", "by name");
	is_int(r->chars[0].dealt, 13, "Ann dealt 13");
	is_int(r->chars[1].downed, 1, "Bob downed once");
	is_int(r->chars[1].fumbles, 1, "Bob's fumble");
}

/* What fn writes of r, in a buffer the caller frees. */
static char *
written(void (*fn)(FILE *, const struct report *), const struct report *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	fn(fp, r);
	fclose(fp);
	return text;
}

static void
test_since(struct db *db)
{
	struct report r;
	char *json;

	load(db, &r, 40000);
	is_int(r.ncombats, 1, "since: combat 2 alone");
	is_int(r.nhours, 1, "since: one hour");
	json = written(report_json_write, &r);
	ok(strstr(json, "\"since\":\"1970-01-01T11:06:40Z\"") != NULL,
	    "since in the JSON");
	free(json);
	report_release(&r);
	load(db, &r, 90000);
	is_int(r.ncombats + r.nchars + r.nhours + r.nmatchups, 0,
	    "nothing since later");
	report_release(&r);
}

static int
count(const char *s, const char *what)
{
	int n = 0;

	for (; (s = strstr(s, what)) != NULL; s++)
		n++;
	return n;
}

static void
test_svg(void)
{
	static const char *const labels[] = {
	    "<b>&\"'", "\xd7\xa9\xd7\x9c\xd7\x9e\xd7\x94 \xd7\x94\xd7\x9e"
	    "\xd7\x9c\xd7\x9a \xd7\x90\xd7\x91 \xd7\xa9\xd7\x9c\xd7\x9e"
	    "\xd7\x94", "Zo\xc3\xab" };
	double a[] = { 1, 2, 3 }, b[] = { 0, 5, 0.5 };
	struct svg_chart c = { "a <title>", 3, labels, 2, { "dealt", "taken" },
	    { a, b }, 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	svg_chart_write(fp, &c);
	fclose(fp);
	is_int(count(text, "<rect class=\"bar\""), 6, "a bar a figure");
	ok(strstr(text, "<b>") == NULL && strstr(text,
	    "&lt;b&gt;&amp;&quot;&#39;") != NULL, "labels escaped");
	ok(strstr(text, "a &lt;title&gt;") != NULL, "the title escaped");
	/* 17 code points: 14 whole ones and an ellipsis, all in the title. */
	ok(strstr(text, "\xd7\x91 \xd7\xa9\xe2\x80\xa6<") != NULL &&
	    strstr(text, "\xd7\x9e\xd7\x94, dealt: 2") != NULL,
	    "a long label cut whole, and whole in the tooltip");
	free(text);
}

/* Horizontal bars: labels whole up to 60 code points, across 960 units. */
static void
test_hbars(void)
{
	static const char *const labels[] = { "Grim, the Unbowed of the North",
	    "0123456789012345678901234567890123456789012345678901234567890123"
	    "456789" };
	double a[] = { 4, 0 }, b[] = { 2, 20 };
	struct svg_chart c = { "damage", 2, labels, 2, { "dealt", "taken" },
	    { a, b }, 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	svg_hbars_write(fp, &c);
	fclose(fp);
	is_int(count(text, "<rect class=\"bar\""), 4, "hbars: a bar a figure");
	ok(strstr(text, ">Grim, the Unbowed of the North</text>") != NULL,
	    "hbars: a name of 30 characters whole");
	ok(strstr(text, ">012345678901234567890123456789012345678901234567890"
	    "123456789\xe2\x80\xa6</text>") != NULL,
	    "hbars: one of 70 cut at 60");
	ok(strstr(text, "width=\"100%\" viewBox=\"0 0 960 ") != NULL,
	    "hbars: the page's width");
	/* Label column 12 + 6.5 x 61 = 408; plot 960 - 408 - 48 = 504. */
	ok(strstr(text, "x=\"408\" y=\"85\" width=\"504\" height=\"14\"")
	    != NULL, "hbars: the longest bar spans the plot");
	free(text);
}

/* r's report as JSON, in a buffer the caller frees. */
static char *
json_of(const struct report *r)
{
	return written(report_json_write, r);
}

/*
 * ledger_report, which replays each combat into a report of its own and
 * merges them, says what the combats added to one report say; with a
 * cache, again, from the cache; and once a combat changed, its change.
 */
static void
test_merged(struct db *db, int64_t c2)
{
	struct ledger_report_cache *cache = ledger_report_cache_new();
	struct report direct, merged;
	char *want, *got;

	load(db, &direct, 0);
	want = json_of(&direct);
	report_release(&direct);
	for (int pass = 0; pass < 3; pass++) {
		report_init(&merged, 0, 50000);
		db_begin_read(db);
		is_int(ledger_report(db, &merged, pass == 0 ? NULL : cache), 0,
		    "ledger_report, pass %d", pass);
		db_rollback(db);
		got = json_of(&merged);
		is_str(got, want, "merged as added, pass %d (%s)", pass,
		    pass == 0 ? "no cache" : pass == 1 ? "cache filled" :
		    "from the cache");
		free(got);
		report_release(&merged);
	}
	free(want);
	/* Combat 2 ends: the cache replays it, and only it. */
	now += 60;
	db_begin(db);
	plain(db, c2, COMBAT_END);
	db_commit(db);
	load(db, &direct, 0);
	want = json_of(&direct);
	report_release(&direct);
	report_init(&merged, 0, 50000);
	db_begin_read(db);
	ledger_report(db, &merged, cache);
	db_rollback(db);
	got = json_of(&merged);
	is_str(got, want, "the cache after combat 2 ended");
	ok(merged.combats[1].finished != 0, "combat 2 ended, in the cache's");
	free(got);
	free(want);
	report_release(&merged);
	ledger_report_cache_free(cache);
}

int
main(void)
{
	char path[] = "/tmp/refkit-test-report-XXXXXX";
	int fd = mkstemp(path);
	struct db *db;
	struct report r;
	int64_t c1, c2;

	if (fd < 0)
		return 1;
	close(fd);
	db = db_open(path);
	db_begin(db);
	fight(db, &c1, &c2);
	db_commit(db);
	load(db, &r, 0);
	test_combats(&r);
	test_matchups(&r);
	test_chars(&r);
	report_release(&r);
	test_since(db);
	test_merged(db, c2);
	test_svg();
	test_hbars();
	db_close(db);
	tap_unlink_db(path);
	return tap_done();
}
