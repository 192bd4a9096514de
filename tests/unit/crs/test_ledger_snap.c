/*
 * test_ledger_snap.c - snapshots of a combat's state (core/journal.h) on
 * a real database file.  Long seeded combats of four are fought the way
 * crs-combat fights them, with undos of the last event and of events
 * further back, snapshots taken after every few events; after every
 * command the state derived from the newest snapshot must be the state
 * derived from the first event, byte for byte.  An undo must drop the
 * snapshots it reaches back past; a snapshot of another version must be
 * ignored, one that does not read back passed over, and one whose state
 * was changed reported by the audit.
 */
#include "tap.h"

#include <stdlib.h>
#include <unistd.h>

#include "core/pack.h"
#include "base/util.h"
#include "crs/pack.h"
#include "crs/ledger.h"

#define NOW	1795000000

static struct db *DB;
static char why[300];
static uint64_t lcg = 12345;
/* What the checks saw, for the summary tests. */
static int from_snapshot, agreed, disagreed, undos, undos_past, hits;

static unsigned
pick(unsigned n)
{
	lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(lcg >> 33) % n;
}

/* The state of combat id as packed bytes: from a snapshot or not. */
static struct pack
state_of(int64_t id, int all, int64_t *base)
{
	struct ledger l;
	struct combat_state s;
	struct pack p = { 0 };
	int64_t bad;

	if (all)
		ledger_load_all(DB, id, &l);
	else
		ledger_load(DB, id, &l);
	*base = l.j.base;
	if (ledger_derive(&l, &s, &bad, why, sizeof why) != 0)
		printf("# derive stops at %lld: %s\n", (long long)bad, why);
	combat_pack(&s, &p);
	combat_state_release(&s);
	ledger_release(&l);
	return p;
}

/* The two derivations agree. */
static void
check(int64_t id)
{
	int64_t base, none;
	struct pack a = state_of(id, 0, &base), b = state_of(id, 1, &none);

	if (base > 0)
		from_snapshot++;
	if (a.len == b.len && memcmp(a.buf, b.buf, a.len) == 0)
		agreed++;
	else
		disagreed++;
	free(a.buf);
	free(b.buf);
}

/* Runs e as a command does: derive, execute, record; -1 if refused. */
static int
run(int64_t id, struct combat_event *e)
{
	struct ledger l;
	struct combat_state s;
	int64_t bad;
	int rc = -1;

	db_begin(DB);
	ledger_load(DB, id, &l);
	if (ledger_derive(&l, &s, &bad, why, sizeof why) == 0 &&
	    combat_execute(&s, e, why, sizeof why) == 0) {
		ledger_record(DB, id, e, &s);
		rc = 0;
	}
	db_commit(DB);
	combat_state_release(&s);
	ledger_release(&l);
	combat_event_release(e);
	return rc;
}

/* Undoes event seq (0: the last) as crs-combat undo does; -1 if not. */
static int
undo(int64_t id, int64_t seq)
{
	struct ledger l;
	struct combat_state s;
	struct combat_event e;
	int64_t bad, target = seq ? seq : ledger_undo_target(DB, id);
	long k;
	int rc = -1;

	db_begin(DB);
	ledger_load_before(DB, id, target, &l);
	if ((k = ledger_undoable(&l, seq, why, sizeof why)) >= 0) {
		l.undone[k] = 1;
		if (ledger_derive(&l, &s, &bad, why, sizeof why) == 0) {
			combat_event_init(&e);
			e.action = COMBAT_UNDO;
			e.undoes = l.ev[k].seq;
			e.round = s.round;
			e.time = NOW;
			ledger_record(DB, id, &e, &s);
			combat_event_release(&e);
			rc = 0;
		}
		combat_state_release(&s);
	}
	db_commit(DB);
	ledger_release(&l);
	return rc;
}

static void
event(struct combat_event *e, int action, const char *actor,
    const char *target)
{
	combat_event_init(e);
	e->action = action;
	e->actor = actor ? xstrdup(actor) : NULL;
	e->target = target ? xstrdup(target) : NULL;
	e->time = NOW;
	e->seed = lcg;
}

static const char *const who[] = { "Ann", "Bob", "Cy", "Dee" };

/* The newest snapshot's seq of combat id, or 0. */
static int64_t
newest_snapshot(int64_t id)
{
	struct db_stmt *st = db_prepare(DB, "SELECT coalesce(max(seq), 0)"
	    " FROM snapshot WHERE kind = 'combat' AND log = ?1");
	int64_t seq;

	db_bind_int(st, 1, id);
	db_step(DB, st, 0);
	seq = db_column_int(st, 0);
	db_finalize(st);
	return seq;
}

/* Who acts next in combat id, or NULL. */
static const char *
next_up(int64_t id)
{
	struct ledger l;
	struct combat_state s;
	const char *a = NULL;
	int64_t bad;
	int k;

	ledger_load(DB, id, &l);
	if (ledger_derive(&l, &s, &bad, why, sizeof why) == 0 &&
	    (k = combat_next(&s)) >= 0)
		for (int i = 0; i < 4; i++)
			if (strcmp(s.f[k].name, who[i]) == 0)
				a = who[i];
	combat_state_release(&s);
	ledger_release(&l);
	return a;
}

/* One round: initiative, everyone acts or passes, an undo now and then. */
static void
round_of(int64_t id)
{
	struct combat_event e;

	event(&e, COMBAT_INITIATIVE, NULL, NULL);
	run(id, &e);
	check(id);
	for (int i = 0; i < 4; i++) {
		const char *a = next_up(id), *t = who[pick(4)];

		if (a == NULL)
			break;

		if (t == a || pick(4) == 0)
			event(&e, COMBAT_PASS, a, NULL);
		else
			event(&e, COMBAT_ATTACK, a, t);
		e.virt = e.vs_virt = 1;
		if (e.action == COMBAT_ATTACK && run(id, &e) == 0)
			hits++;
		else if (e.action == COMBAT_PASS && run(id, &e) == 0)
			;
		else {
			event(&e, COMBAT_PASS, a, NULL);
			run(id, &e);
		}
		check(id);
		if (pick(6) == 0) {
			int64_t snap = newest_snapshot(id);
			int64_t target = ledger_undo_target(DB, id);

			if (undo(id, 0) == 0) {
				undos++;
				if (target <= snap)
					undos_past++;
				ok(newest_snapshot(id) < target ||
				    newest_snapshot(id) > target,
				    "no snapshot at the undone event %lld",
				    (long long)target);
			}
			check(id);
		}
	}
	event(&e, COMBAT_ROUND, NULL, NULL);
	run(id, &e);
	check(id);
}

static int64_t
fight(int rounds)
{
	struct combat_event e;
	int64_t id;

	db_begin(DB);
	id = ledger_new_combat(DB, "crs", NOW);
	db_commit(DB);
	event(&e, COMBAT_START, NULL, NULL);
	run(id, &e);
	for (int i = 0; i < 4; i++) {
		event(&e, COMBAT_JOIN, who[i], NULL);
		e.stats = (struct combat_stats){ 6 + i, 8 + i, 5, 400, i, -1,
		    1, 0, 0, 0 };
		run(id, &e);
	}
	for (int r = 0; r < rounds; r++)
		round_of(id);
	return id;
}

static void
count_bad(void *arg, int64_t seq, int ran, const char *w)
{
	(void)seq;
	(void)ran;
	(void)w;
	++*(int *)arg;
}

static int
audit_bad(int64_t id)
{
	struct ledger l;
	int n = 0;

	ledger_load_all(DB, id, &l);
	ledger_audit(&l, count_bad, &n);
	ledger_release(&l);
	return n;
}

static void
exec(const char *sql, int64_t a, int64_t b)
{
	struct db_stmt *st = db_prepare(DB, sql);

	db_bind_int(st, 1, a);
	db_bind_int(st, 2, b);
	db_step(DB, st, 0);
	db_finalize(st);
}

/* Snapshots that must not be trusted: another version, bad bytes. */
static void
test_untrusted(int64_t id)
{
	int64_t snap = newest_snapshot(id), base;
	struct pack p;

	/* A newer-looking row of another version holds nonsense. */
	exec("INSERT INTO snapshot (kind, log, seq, version, state)"
	    " VALUES ('combat', ?1, ?2, 1, x'00')", id, snap + 1000);
	p = state_of(id, 0, &base);
	is_int(base, snap, "a snapshot of another version is ignored");
	free(p.buf);
	check(id);
	exec("DELETE FROM snapshot WHERE log = ?1 AND seq = ?2", id,
	    snap + 1000);

	/* The newest of this version that does not read back. */
	exec("UPDATE snapshot SET state = x'0203' WHERE kind = 'combat'"
	    " AND log = ?1 AND seq = ?2", id, snap);
	p = state_of(id, 0, &base);
	is_int(base, 0, "a snapshot that does not read back is passed over");
	free(p.buf);
	check(id);
	is_int(audit_bad(id), 1, "... and the audit reports it");
}

/* A snapshot whose state reads back but is not the replay's. */
static void
test_changed(int64_t id)
{
	struct ledger l;
	struct combat_state s;
	struct pack p = { 0 };
	int64_t bad, snap;

	is_int(audit_bad(id), 0, "the audit finds every snapshot right");
	ledger_load(DB, id, &l);
	snap = l.j.base;
	ok(snap > 0, "loaded from snapshot %lld", (long long)snap);
	combat_unpack(l.j.snap, l.j.snaplen, &s);
	s.f[0].life -= 7;
	combat_pack(&s, &p);
	combat_state_release(&s);
	ledger_release(&l);
	db_begin(DB);
	journal_snapshot_put(DB, &ledger_kind, id, snap, p.buf, p.len);
	db_commit(DB);
	free(p.buf);
	is_int(audit_bad(id), 1, "a changed snapshot is reported");
	(void)bad;
}

int
main(void)
{
	char dir[] = "/tmp/refkit-test-snap-XXXXXX";
	char *path, *cmd;
	int64_t a, b;

	if (mkdtemp(dir) == NULL)
		abort();
	path = xasprintf("%s/refkit.db", dir);
	DB = db_open(path);

	setenv("REFKIT_SNAPSHOT_EVERY", "5", 1);
	a = fight(40);
	setenv("REFKIT_SNAPSHOT_EVERY", "1", 1);
	b = fight(15);
	printf("# %d checks, %d from a snapshot; %d attacks; %d undos, %d "
	    "past one\n", agreed + disagreed, from_snapshot, hits, undos,
	    undos_past);
	ok(hits > 100, "the fighters attack");
	is_int(disagreed, 0, "the state from a snapshot is always the "
	    "state from the first event");
	ok(from_snapshot > (agreed + disagreed) / 2, "most loads start "
	    "from a snapshot");
	ok(undos_past >= 3, "undos reached back past a snapshot");

	/* An undo further back, by seq, past several snapshots. */
	setenv("REFKIT_SNAPSHOT_EVERY", "5", 1);
	{
		int64_t last = ledger_undo_target(DB, a);

		ok(undo(a, last) == 0, "undo of event %lld by its seq",
		    (long long)last);
		check(a);
	}
	is_int(disagreed, 0, "still the same");
	test_changed(a);
	test_untrusted(b);
	is_int(disagreed, 0, "the untrusted snapshots change nothing");

	setenv("REFKIT_SNAPSHOT_EVERY", "0", 1);
	{
		int64_t base;
		struct pack p = state_of(a, 0, &base);

		is_int(base, 0, "REFKIT_SNAPSHOT_EVERY=0 loads every event");
		free(p.buf);
	}

	db_close(DB);
	cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	free(cmd);
	free(path);
	return tap_done();
}
