/*
 * test_ledger.c - the ledger's queries across combats, on a database in a
 * temporary file: the flee lockout, being in another combat, the combats
 * there are, each character's history, and the derive that reports each
 * event with the state before it.
 */
#include "tap.h"

#include <stdlib.h>
#include <unistd.h>

#include "crs/ledger.h"
#include "base/util.h"

/* Appends an event of action to combat id; returns its seq. */
static int64_t
put(struct db *db, int64_t id, int action, const char *actor,
    const char *target)
{
	struct combat_event e;
	int64_t seq;

	combat_event_init(&e);
	e.action = action;
	e.round = 1;
	e.time = 1000;
	e.actor = actor ? xstrdup(actor) : NULL;
	e.target = target ? xstrdup(target) : NULL;
	ledger_append(db, id, &e);
	seq = e.seq;
	combat_event_release(&e);
	return seq;
}

/* A flee of actor in combat id, got away (hit) or caught, until then. */
static int64_t
flee(struct db *db, int64_t id, const char *actor, int hit, int64_t until)
{
	struct combat_event e;
	int64_t seq;

	combat_event_init(&e);
	e.action = COMBAT_FLEE;
	e.round = 1;
	e.time = 1000;
	e.actor = xstrdup(actor);
	e.cards = xstrdup("5");
	e.hit = hit;
	e.until = until;
	ledger_append(db, id, &e);
	seq = e.seq;
	combat_event_release(&e);
	return seq;
}

/* Undoes event seq of combat id. */
static void
undo(struct db *db, int64_t id, int64_t seq)
{
	struct combat_event e;

	combat_event_init(&e);
	e.action = COMBAT_UNDO;
	e.round = 1;
	e.time = 1000;
	e.undoes = seq;
	ledger_append(db, id, &e);
	combat_event_release(&e);
}

static void
test_lockout(struct db *db, int64_t c1, int64_t c2)
{
	int64_t combat = -1, seq, seq2;

	is_int(ledger_fled_until(db, "Ann", 1000, &combat), 0,
	    "Ann has not fled: no lockout");
	is_int(combat, 0, "... and no combat");
	seq = flee(db, c1, "Ann", 1, 4600);
	is_int(ledger_fled_until(db, "Ann", 1000, &combat), 4600,
	    "Ann fled: locked out until 4600");
	is_int(combat, c1, "... from combat 1");
	is_int(ledger_fled_until(db, "Ann", 4599, &combat), 4600,
	    "still locked out a second before");
	is_int(ledger_fled_until(db, "Ann", 4600, &combat), 0,
	    "free again at 4600");
	is_int(ledger_fled_until(db, "Bob", 1000, &combat), 0,
	    "Bob's lockout is not Ann's");
	seq2 = flee(db, c2, "Ann", 1, 9000);
	is_int(ledger_fled_until(db, "Ann", 1000, &combat), 9000,
	    "the latest lockout counts");
	is_int(combat, c2, "... from combat 2");
	undo(db, c2, seq2);
	is_int(ledger_fled_until(db, "Ann", 1000, &combat), 4600,
	    "an undone flee locks nobody out");
	undo(db, c1, seq);
	is_int(ledger_fled_until(db, "Ann", 1000, &combat), 0,
	    "both undone: no lockout");
}

static void
test_elsewhere(struct db *db, int64_t c1, int64_t c2)
{
	int64_t seq;

	is_int(ledger_fighting_elsewhere(db, "Bob", c2), c1,
	    "Bob joined combat 1, which goes on");
	is_int(ledger_fighting_elsewhere(db, "Bob", c1), 0,
	    "his own combat is no other");
	is_int(ledger_fighting_elsewhere(db, "Dee", c2), 0,
	    "Dee is in no combat");
	seq = put(db, c1, COMBAT_JOIN, "Cy", NULL);
	flee(db, c1, "Cy", 0, 0);
	is_int(ledger_fighting_elsewhere(db, "Cy", c2), c1,
	    "Cy was caught: still in combat 1");
	flee(db, c1, "Cy", 1, 5000);
	is_int(ledger_fighting_elsewhere(db, "Cy", c2), 0,
	    "Cy got away: in no combat");
	undo(db, c1, seq + 2);
	is_int(ledger_fighting_elsewhere(db, "Cy", c2), c1,
	    "the flee undone: back in combat 1");
	seq = put(db, c1, COMBAT_END, NULL, NULL);
	is_int(ledger_fighting_elsewhere(db, "Bob", c2), 0,
	    "combat 1 ended: Bob is in no combat");
	undo(db, c1, seq);
	is_int(ledger_fighting_elsewhere(db, "Bob", c2), c1,
	    "the end undone: Bob is in combat 1 again");
}

/* Collects the rows of ledger_history. */
struct rows {
	int		 n;
	char		 names[4][16];
	int64_t		 v[4][5];
};

static void
row(void *arg, const struct ledger_history *h)
{
	struct rows *r = arg;

	if (r->n == 4)
		return;
	snprintf(r->names[r->n], sizeof r->names[r->n], "%s", h->name);
	r->v[r->n][0] = h->combats;
	r->v[r->n][1] = h->dealt;
	r->v[r->n][2] = h->taken;
	r->v[r->n][3] = h->downed;
	r->v[r->n][4] = h->fumbles;
	r->n++;
}

static void
test_history(struct db *db)
{
	int64_t id = ledger_new_combat(db, "crs", 2000);
	struct combat_event e;
	struct rows r;

	put(db, id, COMBAT_JOIN, "Eve", NULL);
	combat_event_init(&e);
	e.action = COMBAT_ATTACK;
	e.round = 1;
	e.time = 2000;
	e.actor = xstrdup("Eve");
	e.target = xstrdup("Fay");
	e.offense = 12;
	e.defense = 5;
	e.hit = 1;
	e.damage = 7;
	e.life_before = 7;
	e.life_after = 0;
	e.vs_fumble = 1;
	ledger_append(db, id, &e);
	combat_event_release(&e);
	memset(&r, 0, sizeof r);
	is_int(ledger_history(db, "Eve", 2000, row, &r), 1, "Eve: one row");
	is_str(r.names[0], "Eve", "Eve's row");
	is_int(r.v[0][0], 1, "one combat");
	is_int(r.v[0][1], 7, "7 dealt");
	is_int(r.v[0][2], 0, "none taken");
	memset(&r, 0, sizeof r);
	is_int(ledger_history(db, NULL, 2000, row, &r), 2,
	    "since 2000: Eve and Fay");
	is_str(r.names[1], "Fay", "Fay second");
	is_int(r.v[1][2], 7, "Fay took 7");
	is_int(r.v[1][3], 1, "and went down");
	is_int(r.v[1][4], 1, "with a fumble");
	is_int(ledger_history(db, NULL, 2001, row, &r), 0,
	    "nothing since 2001");
	is_int(ledger_count_combats(db, 0), 3, "three combats");
	is_int(ledger_count_combats(db, 2000), 1, "one since 2000");
}

/* What the hook saw: the number of combatants before each event. */
struct seen {
	size_t		 calls;
	int		 n[8];
	int		 round[8];
};

static void
hook(void *arg, const struct combat_state *s, size_t i)
{
	struct seen *w = arg;

	if (i < 8) {
		w->n[i] = s->n;
		w->round[i] = s->round;
	}
	w->calls++;
}

/* Runs e against s and appends it, as crs-combat does. */
static void
commit(struct db *db, int64_t id, struct combat_state *s,
    struct combat_event *e)
{
	char why[300];

	e->time = 3000;
	if (combat_execute(s, e, why, sizeof why) != 0)
		printf("# refused: %s\n", why);
	ledger_append(db, id, e);
	combat_event_release(e);
}

static void
test_derive_each(struct db *db)
{
	int64_t id = ledger_new_combat(db, "crs", 3000), bad = 0;
	struct combat_state s;
	struct combat_event e;
	struct ledger l;
	struct seen w;
	char why[300];

	combat_state_init(&s);
	combat_event_init(&e);
	e.action = COMBAT_START;
	commit(db, id, &s, &e);
	for (int i = 0; i < 2; i++) {
		e.action = COMBAT_JOIN;
		e.actor = xstrdup(i ? "Hal" : "Gus");
		e.stats.life = 10;
		e.stats.or_ = e.stats.dr = 5;
		commit(db, id, &s, &e);
	}
	e.action = COMBAT_ROUND;
	commit(db, id, &s, &e);
	combat_state_release(&s);
	undo(db, id, 3);
	is_int(ledger_load(db, id, &l), 0, "the combat loads");
	memset(&w, 0, sizeof w);
	is_int(ledger_derive_each(&l, &s, hook, &w, &bad, why, sizeof why), 0,
	    "it derives");
	is_int(w.calls, 5, "the hook sees every event, the undone and undo");
	is_int(w.n[0], 0, "before the start: nobody");
	is_int(w.n[2], 1, "before Hal's join: Gus");
	is_int(w.n[3], 1, "Hal's join was undone");
	is_int(w.round[4], 2, "before the undo: round 2");
	is_int(s.n, 1, "after: Gus alone");
	is_int(s.round, 2, "in round 2");
	combat_state_release(&s);
	ledger_release(&l);
}

/* Which event an undo reverses, on a ledger built by hand. */
static void
test_undoable(void)
{
	const int actions[] = { COMBAT_START, COMBAT_JOIN, COMBAT_ATTACK,
	    COMBAT_UNDO };
	struct combat_event ev[4];
	int undone[4] = { 0, 0, 1, 0 };
	struct ledger l;
	char why[200];

	for (int i = 0; i < 4; i++) {
		combat_event_init(&ev[i]);
		ev[i].seq = i + 1;
		ev[i].action = actions[i];
	}
	ev[3].undoes = 3;
	memset(&l, 0, sizeof l);
	l.combat = 7;
	snprintf(l.key, sizeof l.key, "7");
	l.n = 4;
	l.ev = ev;
	l.undone = undone;
	why[0] = '\0';
	is_int(ledger_undoable(&l, 0, why, sizeof why), 1,
	    "undo: the join, the last that can be undone");
	is_str(why, "", "undo: no reason");
	is_int(ledger_undoable(&l, 2, why, sizeof why), 1, "undo: event 2");
	is_int(ledger_undoable(&l, 3, why, sizeof why), -1, "undo: event 3");
	is_str(why, "event 3 is already undone", "undo: it is undone");
	is_int(ledger_undoable(&l, 4, why, sizeof why), -1, "undo: event 4");
	is_str(why, "event 4 is an undo, which cannot be undone",
	    "undo: no undo of an undo");
	is_int(ledger_undoable(&l, 1, why, sizeof why), -1, "undo: event 1");
	is_str(why, "event 1 is the start, which cannot be undone",
	    "undo: no undo of the start");
	is_int(ledger_undoable(&l, 9, why, sizeof why), -1, "undo: event 9");
	is_str(why, "combat 7 has no event 9", "undo: there is none");
	l.n = 1;
	is_int(ledger_undoable(&l, 0, why, sizeof why), -1,
	    "undo: only the start");
	is_str(why, "combat 7 has nothing left to undo", "undo: nothing");
}

int
main(void)
{
	char path[] = "/tmp/refkit-test-ledger-XXXXXX";
	int fd = mkstemp(path);
	struct db *db;
	int64_t c1, c2, *ids;
	size_t n;

	if (fd < 0)
		return 1;
	close(fd);
	db = db_open(path);
	db_begin(db);
	is_int(ledger_newest(db), 0, "no combat yet");
	c1 = ledger_new_combat(db, "crs", 1000);
	c2 = ledger_new_combat(db, "crs", 1000);
	is_int(ledger_newest(db), c2, "the newest combat");
	put(db, c1, COMBAT_JOIN, "Bob", NULL);
	put(db, c2, COMBAT_JOIN, "Ann", NULL);
	test_lockout(db, c1, c2);
	test_elsewhere(db, c1, c2);
	ids = ledger_combat_ids(db, &n);
	is_int(n, 2, "two combats");
	ok(n == 2 && ids[0] == c1 && ids[1] == c2, "in order");
	free(ids);
	test_history(db);
	test_derive_each(db);
	test_undoable();
	db_commit(db);
	db_close(db);
	tap_unlink_db(path);
	return tap_done();
}
