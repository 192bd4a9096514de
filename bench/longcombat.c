/*
 * longcombat.c DB ID EVENTS: writes combat ID of the database DB (which
 * has it started, with Ann and Bob joined) up to at least EVENTS events,
 * the way crs-combat writes them (combat_execute on the state, then
 * ledger_record, which stores the snapshots), but in one process and a
 * transaction per thousand events: rounds of initiative (Ann 9, Bob 2),
 * Ann's attack on Bob with cards drawn from the event's seed, Bob's pass
 * and the Clean Up.  For bench/combat.sh, which cannot wait for ten
 * thousand processes to build a long combat.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "crs/ledger.h"

static void
put(struct db *db, int64_t id, struct combat_state *s, int action,
    const char *actor, const char *target, uint64_t seed)
{
	struct combat_event e;
	char why[300];

	combat_event_init(&e);
	e.action = action;
	e.actor = actor ? xstrdup(actor) : NULL;
	e.target = target ? xstrdup(target) : NULL;
	e.virt = e.vs_virt = 1;
	e.seed = seed;
	e.time = db_now();
	if (action == COMBAT_INITIATIVE) {
		e.ninit = 2;
		e.init = xcalloc(2, sizeof *e.init);
		e.init[0].name = xstrdup("Ann");
		e.init[0].cards = xstrdup("9");
		e.init[1].name = xstrdup("Bob");
		e.init[1].cards = xstrdup("2");
	}
	if (combat_execute(s, &e, why, sizeof why) != 0)
		errx(1, "event %d: %s", action, why);
	ledger_record(db, id, &e, s);
	combat_event_release(&e);
}

int
main(int argc, char **argv)
{
	struct db *db;
	struct ledger l;
	struct combat_state s;
	int64_t id, bad;
	long want;
	char why[300];

	if (argc != 4)
		errx(2, "usage: longcombat DB ID EVENTS");
	db = db_open(argv[1]);
	id = strtoll(argv[2], NULL, 10);
	want = strtol(argv[3], NULL, 10);
	if (ledger_load(db, id, &l) != 0 ||
	    ledger_derive(&l, &s, &bad, why, sizeof why) != 0)
		errx(1, "combat %s does not load", argv[2]);
	ledger_release(&l);
	for (long n = ledger_undo_target(db, id); n < want;) {
		db_begin(db);
		for (int k = 0; k < 250 && n < want; k++, n += 4) {
			put(db, id, &s, COMBAT_INITIATIVE, NULL, NULL, 0);
			put(db, id, &s, COMBAT_ATTACK, "Ann", "Bob",
			    (uint64_t)n);
			put(db, id, &s, COMBAT_PASS, "Bob", NULL, 0);
			put(db, id, &s, COMBAT_ROUND, NULL, NULL, 0);
		}
		db_commit(db);
	}
	combat_state_release(&s);
	db_close(db);
	return 0;
}
