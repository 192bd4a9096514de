/*
 * gmlib.c DB KEY A B COUNT OUT: a game master's station that stays
 * connected, for bench/pg.sh.  Appends COUNT events to combat KEY of the
 * database DB, which has A and B joined, in rounds of initiative (A 9,
 * B 2), A's attack on B, B's pass and the Clean Up: each event in a
 * transaction of its own that does what a crs-combat command does with
 * the database (the writers' lock, the combat derived from its newest
 * snapshot and the events after it, the event validated, appended with
 * its snapshot and histories, committed), but over one connection, so
 * that no process or connection is started per event.  Writes each
 * event's wall time in microseconds to OUT, one a line.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"
#include "crs/ledger.h"

static double
now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

int
main(int argc, char **argv)
{
	static const int cycle[] = { COMBAT_INITIATIVE, COMBAT_ATTACK,
	    COMBAT_PASS, COMBAT_ROUND };
	const char *a, *b;
	struct db *db;
	int64_t id;
	long count;
	FILE *out;

	if (argc != 7 || (count = strtol(argv[5], NULL, 10)) < 1)
		errx(2, "usage: gmlib DB KEY A B COUNT OUT");
	db = db_open(argv[1]);
	id = strtoll(argv[2], NULL, 10);
	a = argv[3];
	b = argv[4];
	if ((out = fopen(argv[6], "w")) == NULL)
		err(1, "%s", argv[6]);
	for (long n = 0; n < count; n++) {
		int action = cycle[n % 4];
		double t0 = now_us();
		struct combat_event e;
		struct combat_state s;
		struct ledger l;
		int64_t bad;
		char why[300];

		db_begin_append(db);
		if (ledger_load(db, id, &l) != 0 ||
		    ledger_derive(&l, &s, &bad, why, sizeof why) != 0)
			errx(1, "combat %s does not load", argv[2]);
		ledger_release(&l);
		combat_event_init(&e);
		e.action = action;
		e.virt = e.vs_virt = 1;
		e.seed = (uint64_t)n;
		e.time = db_now();
		if (action == COMBAT_INITIATIVE) {
			e.ninit = 2;
			e.init = xcalloc(2, sizeof *e.init);
			e.init[0].name = xstrdup(a);
			e.init[0].cards = xstrdup("9");
			e.init[1].name = xstrdup(b);
			e.init[1].cards = xstrdup("2");
		} else if (action == COMBAT_ATTACK) {
			e.actor = xstrdup(a);
			e.target = xstrdup(b);
		} else if (action == COMBAT_PASS)
			e.actor = xstrdup(b);
		if (combat_execute(&s, &e, why, sizeof why) != 0)
			errx(1, "event %ld: %s", n + 1, why);
		ledger_record(db, id, &e, &s);
		db_commit(db);
		combat_event_release(&e);
		combat_state_release(&s);
		fprintf(out, "%.0f\n", now_us() - t0);
	}
	if (fclose(out) != 0)
		err(1, "%s", argv[6]);
	db_close(db);
	return 0;
}
