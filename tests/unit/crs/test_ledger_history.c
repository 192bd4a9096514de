/*
 * test_ledger_history.c - the histories ledger_append keeps (history and
 * history_combat), on a database in a temporary file.  A generated ledger
 * of many combats, fought at once by several characters, with events of
 * every kind, undos (some of an event undone already or of an undo, which
 * crs-combat refuses but the ledger takes) and times that tie, go back and
 * start below 0, must give ledger_history the figures the events give
 * ledger_history_scan, for every character and all of them, since many
 * times; and so must the same database brought from version 7 by the
 * migration's backfill.
 */
#include <sqlite3.h>
#include "tap.h"

#include <inttypes.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/util.h"
#include "crs/ledger.h"

#define NCOMBATS	40
#define NSINCE		32

static const char *const names[] = {
	"Ann", "Bob", "Cy", "Dee", "Eli", "Flo", "Gus", "ann"
};
#define NNAMES	(sizeof names / sizeof names[0])

/* The times to ask since: a spread over the events' and the ends. */
static int64_t since[NSINCE];

static uint64_t rnd_state = 0x9e3779b97f4a7c15ULL;

/* A number from 0 to n - 1 (xorshift64*). */
static int
rnd(int n)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return (int)((rnd_state * 0x2545f4914f6cdd1dULL >> 33) % (uint64_t)n);
}

static char *
some_name(void)
{
	return xstrdup(names[rnd(NNAMES)]);
}

/*
 * Appends a random event to combat id, whose last seq is *seq, at time t:
 * what ledger_append is given, not what the rules would allow.
 */
static void
put_random(struct db *db, int64_t id, int64_t *seq, int64_t t)
{
	static const int strikes[] = { COMBAT_ATTACK, COMBAT_MENTAL,
	    COMBAT_POWER, COMBAT_FLEE };
	struct combat_event e;
	int r = rnd(100);

	combat_event_init(&e);
	e.round = 1 + rnd(5);
	e.time = t;
	if (r < 12) {
		e.action = COMBAT_JOIN;
		e.actor = some_name();
		e.stats.life = 10;
	} else if (r < 70) {
		e.action = strikes[rnd(4)];
		e.actor = rnd(20) ? some_name() : NULL;
		e.target = rnd(20) ? some_name() : NULL;
		e.offense = rnd(20);
		e.hit = rnd(2);
		e.damage = rnd(10);
		if (rnd(4)) {
			e.life_before = rnd(3) ? rnd(12) : 0;
			e.life_after = rnd(3) ? rnd(e.life_before + 1) : 0;
		}
		e.fumble = rnd(7) == 0;
		e.vs_fumble = rnd(7) == 0;
		if (e.action == COMBAT_POWER)
			e.em_before = e.em_after = 0;
	} else if (r < 78) {
		e.action = COMBAT_PASS;
		e.actor = some_name();
	} else {
		/*
		 * Most often an event before, of any kind and undone or
		 * not; now and then the next seq, undone before it comes.
		 */
		e.action = COMBAT_UNDO;
		e.undoes = *seq > 0 && rnd(30) ? 1 + rnd((int)*seq) :
		    *seq + 2;
	}
	ledger_append(db, id, &e);
	*seq = e.seq;
	combat_event_release(&e);
}

/* The ledger: combats started one by one, several running at a time. */
static void
generate(struct db *db)
{
	int64_t ids[NCOMBATS], seqs[NCOMBATS], t = -40;
	int started = 0, ended = 0, n = 0;

	db_begin(db);
	while (ended < NCOMBATS) {
		int k;

		if (started < NCOMBATS && (started == ended || rnd(12) == 0)) {
			ids[started] = ledger_new_combat(db, "crs", t);
			seqs[started++] = 0;
		}
		k = ended + rnd(started - ended);
		put_random(db, ids[k], &seqs[k], t);
		if (seqs[k] >= 20 + rnd(200)) {
			/* The oldest running combat ends in its stead. */
			ids[k] = ids[ended];
			seqs[k] = seqs[ended];
			ended++;
		}
		/* Times tie, step on, and now and then go back. */
		t += rnd(10) == 0 ? -rnd(15) : rnd(4);
		n++;
	}
	db_commit(db);
	printf("# %d events in %d combats, times from -40 to %" PRId64 "\n",
	    n, NCOMBATS, t);
}

/* The history rows, one line each, in a string that grows. */
static void
add_line(void *arg, const struct ledger_history *h)
{
	char **s = arg;
	char *next = xasprintf("%s%s %" PRId64 " %" PRId64 " %" PRId64
	    " %" PRId64 " %" PRId64 "\n", *s, h->name, h->combats, h->dealt,
	    h->taken, h->downed, h->fumbles);

	free(*s);
	*s = next;
}

/* Every history since t: all characters', then each one's and nobody's. */
static char *
histories(struct db *db, int64_t t,
    int (*history)(struct db *, const char *, int64_t,
    void (*)(void *, const struct ledger_history *), void *))
{
	char *s = xstrdup("");

	history(db, NULL, t, add_line, &s);
	for (size_t i = 0; i < NNAMES; i++)
		history(db, names[i], t, add_line, &s);
	history(db, "Nobody", t, add_line, &s);
	return s;
}

/* The times to ask since: from the events, with the ends beyond them. */
static void
pick_since(struct db *db)
{
	struct db_stmt *st = db_prepare(db, "SELECT DISTINCT time FROM event"
	    " ORDER BY time");
	int64_t *t = NULL;
	size_t n = 0;

	while (db_step(db, st, 0) == DB_ROW) {
		t = xreallocarray(t, n + 1, sizeof *t);
		t[n++] = db_column_int(st, 0);
	}
	db_finalize(st);
	since[0] = INT64_MIN;
	since[1] = 0;
	since[2] = t[0] - 1;
	since[3] = t[n - 1] + 1;
	for (int i = 4; i < NSINCE; i++)
		since[i] = t[(size_t)(i - 4) * (n - 1) / (NSINCE - 5)] +
		    (i % 2);
	free(t);
}

/*
 * The histories against the events; returns them all, since each time,
 * for the migrated database to match.
 */
static char *
check_all(struct db *db, const char *what)
{
	char *all = xstrdup("");
	int same = 0, rows = 0;

	db_begin_read(db);
	for (int i = 0; i < NSINCE; i++) {
		char *kept = histories(db, since[i], ledger_history);
		char *scan = histories(db, since[i], ledger_history_scan);
		char *next;

		if (strcmp(kept, scan) == 0)
			same++;
		else
			printf("# %s, since %" PRId64 ":\n# kept:\n%s# scan:\n"
			    "%s", what, since[i], kept, scan);
		for (const char *p = kept; *p; p++)
			rows += *p == '\n';
		next = xasprintf("%s%s", all, kept);
		free(all);
		all = next;
		free(kept);
		free(scan);
	}
	db_rollback(db);
	is_int(same, NSINCE, "%s: the histories since %d times are the "
	    "events' (%d rows)", what, NSINCE, rows);
	return all;
}

/* The first column of the first row of sql, an integer. */
static int64_t
int_of(struct db *db, const char *sql)
{
	struct db_stmt *st = db_prepare(db, sql);
	int64_t v;

	db_step(db, st, 0);
	v = db_column_int(st, 0);
	db_finalize(st);
	return v;
}

/*
 * What the tables hold: each history_combat row the events of its
 * combat not undone, within its time bounds; each history row the sum of
 * its history_combat rows.
 */
static void
check_tables(struct db *db, const char *what)
{
	const char *events =
	    "WITH d AS ("
	    " SELECT actor AS name, combat_id, damage AS dealt, 0 AS taken,"
	    "  0 AS downed, fumble AS fumbles, time FROM event ev"
	    "  WHERE actor IS NOT NULL"
	    "  AND action IN ('join', 'attack', 'mental', 'power') AND"
	    JOURNAL_LIVE("event", "combat_id", "ev")
	    " UNION ALL"
	    " SELECT target, combat_id, 0, damage,"
	    "  life_after = 0 AND life_before > 0, vs_fumble, time"
	    "  FROM event ev WHERE target IS NOT NULL"
	    "  AND action IN ('attack', 'mental', 'power') AND"
	    JOURNAL_LIVE("event", "combat_id", "ev") "),"
	    " e AS (SELECT name, combat_id, count(*) AS events,"
	    "  sum(coalesce(dealt, 0)) AS dealt,"
	    "  sum(coalesce(taken, 0)) AS taken,"
	    "  sum(coalesce(downed, 0)) AS downed,"
	    "  sum(coalesce(fumbles, 0)) AS fumbles, min(time) AS lo,"
	    "  max(time) AS hi FROM d GROUP BY name, combat_id)";
	char *sql;

	sql = xasprintf("%s SELECT (SELECT count(*) FROM e) -"
	    " (SELECT count(*) FROM e JOIN history_combat h"
	    " USING (name, combat_id) WHERE h.events = e.events"
	    " AND h.dealt = e.dealt AND h.taken = e.taken"
	    " AND h.downed = e.downed AND h.fumbles = e.fumbles"
	    " AND h.first_time <= e.lo AND h.last_time >= e.hi)"
	    " + (SELECT count(*) FROM history_combat) -"
	    " (SELECT count(*) FROM e)", events);
	is_int(int_of(db, sql), 0, "%s: history_combat is the events'",
	    what);
	free(sql);
	ok(int_of(db, "SELECT count(*) FROM history") > 0 &&
	    int_of(db, "SELECT count(*) FROM history h WHERE NOT EXISTS"
	    " (SELECT 1 FROM (SELECT name, count(*) AS combats,"
	    " sum(dealt) AS dealt, sum(taken) AS taken, sum(downed) AS downed,"
	    " sum(fumbles) AS fumbles, min(first_time) AS first_time"
	    " FROM history_combat GROUP BY name) s WHERE s.name = h.name"
	    " AND s.combats = h.combats AND s.dealt = h.dealt"
	    " AND s.taken = h.taken AND s.downed = h.downed"
	    " AND s.fumbles = h.fumbles AND h.first_time <= s.first_time)") ==
	    0 && int_of(db, "SELECT count(DISTINCT name) FROM history_combat") ==
	    int_of(db, "SELECT count(*) FROM history"),
	    "%s: history is the sum of history_combat", what);
}

/*
 * Makes the file at path a version 7 database again: no histories (and
 * no snapshots, stations or hash chains, which came later).
 */
static void
to_version_7(const char *path)
{
	sqlite3 *h;

	ok(sqlite3_open(path, &h) == SQLITE_OK && sqlite3_exec(h,
	    "DROP TABLE history; DROP TABLE history_combat;"
	    " DROP TABLE snapshot; DROP TABLE station_self; DROP TABLE gone;"
	    " DROP TABLE seal_log; DROP TABLE seal; DROP TABLE seal_secret;"
	    " DROP TABLE change_staged; DROP TABLE change_rest;"
	    " DROP TABLE change; DROP TABLE station; DROP TABLE chain;"
	    " DROP INDEX event_by_gm; DROP INDEX fb_event_by_gm;"
	    " DROP INDEX bg_event_by_gm; ALTER TABLE fb_event DROP COLUMN gm;"
	    " ALTER TABLE bg_event DROP COLUMN gm;"
	    " ALTER TABLE bg_game DROP COLUMN gm;"
	    " ALTER TABLE event DROP COLUMN hash;"
	    " ALTER TABLE fb_event DROP COLUMN hash;"
	    " ALTER TABLE bg_event DROP COLUMN hash;"
	    " ALTER TABLE d6_roll DROP COLUMN hash;"
	    " PRAGMA user_version = 7", NULL, NULL, NULL) == SQLITE_OK,
	    "back to version 7");
	sqlite3_close(h);
}

int
main(void)
{
	char path[] = "/tmp/refkit-test-history-XXXXXX";
	int fd = mkstemp(path);
	struct db *db;
	char *kept, *migrated;

	if (fd < 0)
		return 1;
	close(fd);
	db = db_open(path);
	generate(db);
	ok(int_of(db, "SELECT count(*) FROM event WHERE action = 'undo'") >
	    100 && int_of(db, "SELECT count(*) FROM event e WHERE EXISTS"
	    " (SELECT 1 FROM event u WHERE u.combat_id = e.combat_id"
	    " AND u.undoes = e.seq AND u.seq < e.seq)") > 0 &&
	    int_of(db, "SELECT count(*) FROM (SELECT 1 FROM event"
	    " WHERE undoes IS NOT NULL GROUP BY combat_id, undoes"
	    " HAVING count(*) > 1)") > 0 &&
	    int_of(db, "SELECT count(*) FROM event WHERE time < 0") > 0,
	    "the ledger has undos, double undos, undos before their event"
	    " and times below 0");
	pick_since(db);
	check_tables(db, "kept");
	kept = check_all(db, "kept");
	db_close(db);

	to_version_7(path);
	db = db_open(path);
	is_int(int_of(db, "PRAGMA user_version"), DB_SCHEMA_VERSION,
	    "migrated to the current version");
	check_tables(db, "migrated");
	migrated = check_all(db, "migrated");
	is_str(migrated, kept, "the migrated histories are those kept");
	free(kept);
	free(migrated);

	/* Appending and undoing go on from the migrated histories. */
	rnd_state = 42;
	generate(db);
	check_tables(db, "migrated, then appended");
	free(check_all(db, "migrated, then appended"));
	db_close(db);
	tap_unlink_db(path);
	return tap_done();
}
