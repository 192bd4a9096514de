/*
 * test_ledger_rows.c - the combat ledger on a real database file.  Two
 * combats are fought the way crs-combat fights them (combat_event_init,
 * the GM's fields, combat_execute on a state, ledger_append), with
 * events that use every column the ledger stores; then ledger_load must
 * give back every field of every event as it was executed (the INSERT
 * binds its columns by position and the read takes them by position),
 * ledger_same must agree with each event executed again, ledger_derive
 * must give the state the events made, ledger_inputs must keep the
 * inputs and drop the outcome, and an undone event must drop out.
 */
#include <sqlite3.h>
#include "tap.h"

#include <stdlib.h>
#include <unistd.h>

#include "base/util.h"
#include "crs/ledger.h"

#define NOW	1795000000

static struct db *DB;
static int64_t CID;
static struct combat_state S;
/* Every event as executed, in the order appended (both combats). */
static struct combat_event REC[80];
static int NREC;
static char why[300];

/* The first row of sql, its columns joined by '|', NULL as '~'. */
static const char *
row(const char *fmt, int64_t seq)
{
	static char out[1000];
	char *sql = xasprintf(fmt, (long long)CID, (long long)seq);
	struct db_stmt *st = db_prepare(DB, sql);
	size_t len = 0;

	out[0] = '\0';
	if (db_step(DB, st, 0) == DB_ROW)
		for (int i = 0; i < db_column_count(st); i++) {
			const char *v = db_column_text(st, i);

			len += (size_t)snprintf(out + len, sizeof out - len,
			    "%s%s", i ? "|" : "", v ? v : "~");
		}
	db_finalize(st);
	free(sql);
	return out;
}

#define SQL(cols)	"SELECT " cols " FROM event WHERE combat_id = %lld" \
	" AND seq = %lld"

/* A new event as crs-combat's new_event makes it, with a GM and seed. */
static struct combat_event *
ev(int action, const char *actor, const char *target)
{
	struct combat_event *e = &REC[NREC];

	combat_event_init(e);
	e->action = action;
	e->actor = actor ? xstrdup(actor) : NULL;
	e->target = target ? xstrdup(target) : NULL;
	e->time = NOW + NREC;
	e->seed = 1000 + (uint64_t)NREC;
	e->gm = xstrdup("Gail");
	return e;
}

/*
 * The combat GM gm's command acts on, naming none (journal_pick): 0 when
 * he has none, with the refusal kept in WHY.
 */
static char WHY[1000];

static int64_t
pick(const char *gm, int reading)
{
	WHY[0] = '\0';
	return journal_pick(DB, &ledger_kind, gm, reading, WHY, sizeof WHY);
}

/* Executes e on S, then appends it (commit_event); 0 or -1 with why. */
static int
run(struct combat_event *e)
{
	if (combat_execute(&S, e, why, sizeof why) != 0) {
		printf("# refused: %s\n", why);
		combat_event_release(e);
		return -1;
	}
	db_begin(DB);
	ledger_append(DB, CID, e);
	db_commit(DB);
	NREC++;
	return 0;
}

static int
join(const char *name, int or_, int dr, int mind, int life, int em, int lb)
{
	struct combat_event *e = ev(COMBAT_JOIN, name, NULL);

	e->stats.or_ = or_;
	e->stats.dr = dr;
	e->stats.mind = mind;
	e->stats.life = life;
	e->stats.in = 0;
	e->stats.em = em;
	e->stats.lb = lb;
	return run(e);
}

static int
range(const char *a, const char *b, int feet)
{
	struct combat_event *e = ev(COMBAT_RANGE, a, b);

	e->feet = feet;
	return run(e);
}

/* An entry of an initiative, a flee's Catches or a charge's distances. */
static struct combat_init *
entry(struct combat_event *e, const char *name, const char *cards,
    const char *ties)
{
	struct combat_init *x;

	e->init = xreallocarray(e->init, (size_t)e->ninit + 1,
	    sizeof *e->init);
	x = &e->init[e->ninit++];
	memset(x, 0, sizeof *x);
	x->name = xstrdup(name);
	x->cards = cards ? xstrdup(cards) : NULL;
	if (ties != NULL) {
		x->ties = xstrdup(ties);
		x->ties_virt = xstrdup("0");
	}
	return x;
}

/* A strike with typed cards (NULL: drawn from the seed). */
static struct combat_event *
strike(int action, const char *actor, const char *target, const char *card,
    const char *vs_card)
{
	struct combat_event *e = ev(action, actor, target);

	e->virt = card == NULL;
	e->cards = card ? xstrdup(card) : NULL;
	e->vs_virt = vs_card == NULL;
	e->vs_cards = vs_card ? xstrdup(vs_card) : NULL;
	return e;
}

static void
gear(struct combat_gear *g, const char *name, int mod, int value, int range,
    int full_or)
{
	g->name = xstrdup(name);
	g->mod[mod] = value;
	g->range = range;
	g->full_or = full_or;
}

static void
power(struct combat_event *e, const char *name, int em, int picks, int bonus,
    int target, int defend)
{
	e->power.name = xstrdup(name);
	e->power.em = em;
	e->power.picks = picks;
	e->power.bonus = bonus;
	e->power.target = target;
	e->power.defend = defend;
}

/* ---- comparing ---- */

static int
str_eq(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

/*
 * "" if every field of a equals b's, else the first that differs.  The
 * seed is kept only when a draw came from it (ledger_used_seed).
 */
static const char *
event_diff(const struct combat_event *a, const struct combat_event *b)
{
	static char out[200];
	uint64_t seed = ledger_used_seed(a) ? a->seed : 0;

#define I(f) if (a->f != b->f) { \
	snprintf(out, sizeof out, #f " %lld, read %lld", (long long)a->f, \
	    (long long)b->f); \
	return out; }
#define T(f) if (!str_eq(a->f, b->f)) { \
	snprintf(out, sizeof out, #f " '%s', read '%s'", a->f ? a->f : \
	    "(null)", b->f ? b->f : "(null)"); \
	return out; }
	I(seq) I(round) I(action) T(actor) T(target) I(range) I(kind)
	I(use) I(mod) I(vs_mod) T(cards) I(virt) T(vs_cards) I(vs_virt)
	I(special) I(undoes) I(shares) I(agreed)
	I(stats.or_) I(stats.dr) I(stats.mind) I(stats.life) I(stats.in)
	I(stats.em) I(stats.lb) I(stats.mod_offense) I(stats.mod_defense)
	I(stats.mod_pick)
	I(ninit)
	for (int i = 0; i < a->ninit; i++) {
		I(init[i].virt) I(init[i].in) I(init[i].total) I(init[i].pos)
		T(init[i].name) T(init[i].cards) T(init[i].ties)
		T(init[i].ties_virt)
	}
	if (seed != b->seed) {
		snprintf(out, sizeof out, "seed %llu, read %llu",
		    (unsigned long long)seed, (unsigned long long)b->seed);
		return out;
	}
	I(base) I(vs_base) I(offense) I(defense) I(hit) I(damage)
	I(life_before) I(life_after) I(fumble) I(vs_fumble)
	T(aimed) T(melee_pick) I(melee_n) T(melee_drawn)
	T(item.name) I(item.range) I(item.full_or)
	T(vs_item.name) I(vs_item.range) I(vs_item.full_or)
	for (int i = 0; i < ITEM_MOD_COUNT; i++) {
		I(item.mod[i]) I(vs_item.mod[i])
	}
	T(skills) T(vs_skills)
	T(power.name) I(power.em) I(power.picks) I(power.bonus)
	I(power.target) I(power.defend)
	I(em_spent) I(em_before) I(em_after) I(feet) I(until) I(free)
	I(surprise) I(negated) T(let) T(reactor) I(react_base)
	I(react_need) T(react_cards) I(react_virt) I(react_total)
	I(react_fumble) I(rules) I(lockout) T(gm) I(time)
#undef I
#undef T
	return "";
}

/* "" if two states stand the same, else the first difference. */
static const char *
state_diff(const struct combat_state *a, const struct combat_state *b)
{
	static char out[200];

	if (a->rules != b->rules || a->lockout != b->lockout)
		return "rules/lockout";
	if (a->round != b->round)
		return "round";
	if (a->ended != b->ended || a->agreed != b->agreed ||
	    a->ended_at != b->ended_at)
		return "ended";
	if (a->init_done != b->init_done || a->norder != b->norder ||
	    memcmp(a->order, b->order, sizeof a->order) != 0)
		return "initiative";
	if (a->n != b->n)
		return "combatants";
	for (int i = 0; i < a->n; i++) {
		const struct combat_fighter *f = &a->f[i];
		int j = combat_find(b, f->name);
		const struct combat_fighter *g;

		if (j < 0) {
			snprintf(out, sizeof out, "'%s' missing", f->name);
			return out;
		}
		g = &b->f[j];
		if (f->life != g->life || f->em != g->em) {
			snprintf(out, sizeof out, "'%s' LIFE %d EM %d, derived "
			    "LIFE %d EM %d", f->name, f->life, f->em, g->life,
			    g->em);
			return out;
		}
		if (f->fled != g->fled || f->until != g->until ||
		    f->dead != g->dead || f->presence != g->presence) {
			snprintf(out, sizeof out, "'%s' fled/dead", f->name);
			return out;
		}
		if (f->stance != g->stance || f->acted != g->acted ||
		    f->intimidated != g->intimidated ||
		    f->halvings != g->halvings ||
		    f->init_total != g->init_total ||
		    f->protecting != g->protecting ||
		    f->protected_by != g->protected_by ||
		    memcmp(&f->deck, &g->deck, sizeof f->deck) != 0) {
			snprintf(out, sizeof out, "'%s' round state", f->name);
			return out;
		}
	}
	if (memcmp(a->dist, b->dist, sizeof a->dist) != 0)
		return "distances";
	return "";
}

/* Loads combat id and checks every event against REC from base. */
static void
check_round_trip(int64_t id, int base, int n)
{
	struct ledger l;
	const char *d = "";
	int i;

	ok(ledger_load(DB, id, &l) == 0, "combat %lld loads", (long long)id);
	is_int(l.n, n, "with its %d events", n);
	for (i = 0; i < (int)l.n && i < n && *d == '\0'; i++)
		d = event_diff(&REC[base + i], &l.ev[i]);
	if (*d != '\0')
		printf("# event %d (%s): %s\n", i, combat_action_name(
		    REC[base + i - 1].action), d);
	is_str(d, "", "every field of every event read back as executed");
	ledger_release(&l);
}

/*
 * Executes each recorded event of combat id again from its inputs and
 * compares them with ledger_same; returns the mismatches.
 */
static int
check_same(int64_t id, int *events)
{
	static struct combat_state s;
	struct combat_event in;
	struct ledger l;
	int bad = 0;

	ledger_load(DB, id, &l);
	combat_state_init(&s);
	*events = 0;
	for (size_t i = 0; i < l.n; i++) {
		if (l.undone[i] || l.ev[i].action == COMBAT_UNDO)
			continue;
		ledger_inputs(&l.ev[i], &in);
		if (combat_execute(&s, &in, why, sizeof why) != 0 ||
		    ledger_same(&l.ev[i], &in, why, sizeof why) != 0) {
			printf("# seq %lld: %s\n", (long long)l.ev[i].seq, why);
			bad++;
		}
		(*events)++;
		combat_event_release(&in);
	}
	combat_state_release(&s);
	ledger_release(&l);
	return bad;
}

/* ---- combat 1: the CRS rules, the full action set ---- */

/* What ledger_audit said last. */
static int64_t AUDIT_SEQ;
static int AUDIT_RAN;
static char AUDIT_WHY[300];

static void
audit_bad(void *arg, int64_t seq, int ran, const char *w)
{
	(void)arg;
	if (AUDIT_SEQ == 0) {
		AUDIT_SEQ = seq;
		AUDIT_RAN = ran;
		snprintf(AUDIT_WHY, sizeof AUDIT_WHY, "%s", w);
	}
}

static struct combat_state AFTER_RANGE;	/* a shallow copy of S */
static int N_RANGE;

static void
fight_one(void)
{
	struct combat_event *e;
	struct combat_init *x;

	CID = 0;
	db_begin(DB);
	CID = ledger_new_combat(DB, "crs", NOW);
	db_commit(DB);
	combat_state_init(&S);
	e = ev(COMBAT_START, NULL, NULL);
	e->lockout = 1800;
	ok(run(e) == 0, "start, a 30 minute lockout");
	ok(join("Ann", 8, 10, 6, 30, 30, 0) == 0, "Ann joins");
	ok(join("Bob", 7, 9, 5, 25, -1, 0) == 0, "Bob joins, no EM");
	ok(join("Cy", 5, 8, 0, 20, -1, -1) == 0, "Cy joins, no LB");
	ok(join("Dee", 4, 6, 3, 15, -1, 0) == 0, "Dee joins");
	e = ev(COMBAT_JOIN, "Eve", NULL);
	e->stats = (struct combat_stats){ 6, 10, 8, 18, 0, 20, 0, 1, 2, 1 };
	ok(run(e) == 0, "Eve joins, with always-on item modifiers");
	ok(range("Ann", "Bob", 5) == 0 && range("Bob", "Cy", 5) == 0 &&
	    range("Ann", "Cy", 20) == 0 && range("Ann", "Dee", 30) == 0 &&
	    range("Ann", "Eve", 10) == 0 && range("Bob", "Dee", 30) == 0 &&
	    range("Bob", "Eve", 15) == 0 && range("Cy", "Dee", 25) == 0 &&
	    range("Cy", "Eve", 20) == 0 && range("Dee", "Eve", 10) == 0,
	    "ten distances");
	AFTER_RANGE = S;
	N_RANGE = NREC;

	/* Ann and Bob tie at 9; the tie-breaks 5 and 3 put Ann first. */
	e = ev(COMBAT_INITIATIVE, NULL, NULL);
	entry(e, "Ann", "9", "5");
	entry(e, "Bob", "9", "3");
	entry(e, "Cy", "7", NULL);
	entry(e, "Dee", "6", NULL);
	entry(e, "Eve", "5", NULL);
	ok(run(e) == 0, "initiative with a tie");
	is_int(S.f[S.order[0]].init_total, 9, "Ann first on 9");
	is_str(S.f[S.order[0]].name, "Ann", "Ann first");
	is_str(S.f[S.order[1]].name, "Bob", "Bob second");

	e = strike(COMBAT_ATTACK, "Ann", "Bob", "6", "10,2");
	gear(&e->item, "Great Axe", ITEM_OR, 8, ITEM_SHORT, 1);
	gear(&e->vs_item, "Shield", ITEM_DR, 2, ITEM_BOTH, 0);
	ok(run(e) == 0, "Ann attacks with the Great Axe, Bob's Shield");
	ok(e->offense == 22 && e->defense == 23 && !e->hit,
	    "22 against 23: a miss");
	e = strike(COMBAT_ATTACK, "Bob", "Ann", "7", "3");
	gear(&e->item, "Sword", ITEM_OR, 5, ITEM_SHORT, 0);
	ok(run(e) == 0, "Bob attacks with the Sword");
	ok(e->hit && e->damage == 6 && e->life_after == 24, "Ann 30 -> 24");
	ok(run(ev(COMBAT_BLOW, "Cy", "Bob")) == 0, "Cy takes Bob's blows");
	e = strike(COMBAT_ATTACK, "Dee", "Bob", "8", "5");
	e->range = COMBAT_LONG;
	e->melee_pick = xstrdup("Bob");
	gear(&e->item, "Bow", ITEM_OFFENSE, 3, ITEM_LONG, 0);
	ok(run(e) == 0, "Dee shoots into Bob's melee");
	is_str(e->target, "Cy", "Cy takes the blow");
	is_str(e->aimed, "Bob", "aimed at Bob");
	is_int(e->melee_n, 2, "the draw among two");
	e = strike(COMBAT_POWER, "Eve", "Dee", "6", NULL);
	e->vs_virt = 0;
	power(e, "Fire Dart", 5, 1, 0, POWER_ONE, POWER_VS_NONE);
	e->reactor = xstrdup("Ann");
	e->react_base = 2;
	e->react_need = 12;
	e->react_cards = xstrdup("7");
	ok(run(e) == 0, "Eve's Fire Dart, Ann's reaction fails");
	ok(e->em_before == 20 && e->em_after == 15 && e->em_spent == 5,
	    "EM 20 -> 15");
	ok(run(ev(COMBAT_ROUND, NULL, NULL)) == 0, "round 2");

	ok(run(ev(COMBAT_BLOW, "Cy", "Bob")) == 0, "Cy carries on");
	e = ev(COMBAT_INITIATIVE, NULL, NULL);
	entry(e, "Ann", "9", NULL);
	entry(e, "Bob", "8", NULL);
	entry(e, "Dee", "6", NULL);
	entry(e, "Eve", "5", NULL);
	ok(run(e) == 0, "initiative, round 2");
	ok(run(strike(COMBAT_MENTAL, "Ann", "Bob", "4", "3")) == 0,
	    "Ann's mental attack");
	e = strike(COMBAT_ATTACK, "Bob", "Ann", "5", "9");
	e->skills = xstrdup("Sword Mastery=+2");
	e->vs_skills = xstrdup("Parry=+1");
	e->mod = 1;
	e->vs_mod = -1;
	e->use = 6;
	ok(run(e) == 0, "Bob attacks with skills, modifiers and OR 6 put in");
	e = strike(COMBAT_ATTACK, "Dee", "Bob", "7", "2");
	e->range = COMBAT_LONG;
	e->melee_pick = xstrdup("Ann");
	gear(&e->item, "Bow", ITEM_OFFENSE, 3, ITEM_LONG, 0);
	ok(run(e) == 0, "Dee's shot hits Ann in the melee");
	e = ev(COMBAT_FLEE, "Eve", NULL);
	e->cards = xstrdup("9");
	e->let = xstrdup("Cy");
	entry(e, "Ann", "5", NULL);
	entry(e, "Bob", "4", NULL);
	entry(e, "Dee", "8", NULL);
	ok(run(e) == 0, "Eve flees; Cy lets her go");
	ok(e->hit && e->until == e->time + 1800,
	    "she gets away: out for the combat's 30 minutes");
	ok(run(ev(COMBAT_ROUND, NULL, NULL)) == 0, "round 3");

	e = ev(COMBAT_INITIATIVE, NULL, NULL);
	entry(e, "Ann", "9", NULL);
	entry(e, "Bob", "8", NULL);
	entry(e, "Cy", "7", NULL);
	entry(e, "Dee", "6", NULL);
	ok(run(e) == 0, "initiative, round 3");
	e = strike(COMBAT_MENTAL, "Ann", "Bob", "9", "2");
	e->kind = COMBAT_INTIMIDATION;
	ok(run(e) == 0, "Ann intimidates Bob");
	e = strike(COMBAT_MENTAL, "Ann", "Dee", NULL, "3");
	e->virt = 0;
	e->kind = COMBAT_INTIMIDATION;
	e->shares = 1;
	ok(run(e) == 0, "and Dee, with the same offence");
	ok(run(ev(COMBAT_PASS, "Bob", NULL)) == 0, "Bob must pass");
	e = ev(COMBAT_FLEE, "Cy", NULL);
	e->cards = xstrdup("6");
	entry(e, "Ann", "8", NULL);
	ok(run(e) == 0, "Cy tries to flee");
	ok(!e->hit && e->until == 0, "caught");
	ok(run(ev(COMBAT_PASS, "Dee", NULL)) == 0, "Dee passes");
	ok(run(ev(COMBAT_ROUND, NULL, NULL)) == 0, "round 4");

	e = ev(COMBAT_INITIATIVE, NULL, NULL);
	entry(e, "Bob", "9", NULL);
	entry(e, "Ann", "8", NULL);
	entry(e, "Cy", "7", NULL);
	entry(e, "Dee", "6", NULL);
	ok(run(e) == 0, "initiative, round 4");
	e = ev(COMBAT_CHARGE, "Bob", NULL);
	e->let = xstrdup("Ann;Cy");
	entry(e, "Dee", NULL, NULL)->in = 10;
	entry(e, "Ann", NULL, NULL)->in = 20;
	x = entry(e, "Cy", NULL, NULL);
	x->in = 20;
	ok(run(e) == 0, "Bob charges");
	e = strike(COMBAT_ATTACK, "Dee", "Bob", "5", "4");
	e->range = COMBAT_LONG;
	e->free = 1;
	ok(run(e) == 0, "Dee's free action at the charger");
	e = strike(COMBAT_POWER, "Ann", "Bob", "7,5", "3");
	power(e, "Fireball", 10, 2, 2, POWER_GROUP, POWER_VS_DR);
	e->em_spent = 12;
	ok(run(e) == 0, "Ann's Fireball on Bob");
	ok(e->em_before == 30 && e->em_after == 18, "EM 30 -> 18");
	e = strike(COMBAT_POWER, "Ann", "Cy", NULL, "6");
	e->virt = 0;
	e->shares = 1;
	power(e, "Fireball", 10, 2, 2, POWER_GROUP, POWER_VS_DR);
	ok(run(e) == 0, "on Cy");
	e = strike(COMBAT_POWER, "Ann", "Dee", NULL, "2");
	e->virt = 0;
	e->shares = 1;
	power(e, "Fireball", 10, 2, 2, POWER_GROUP, POWER_VS_DR);
	ok(run(e) == 0, "on Dee");
	is_int(e->life_after, 0, "Dee is down");
	e = strike(COMBAT_ATTACK, "Cy", "Ann", "9", "2");
	e->range = COMBAT_LONG;
	e->reactor = xstrdup("Bob");
	e->react_base = 3;
	e->react_cards = xstrdup("9");
	ok(run(e) == 0, "Cy shoots; Bob's reaction");
	ok(e->negated && e->react_total == 12, "negates it");
	is_int(pick("Gail", 0), CID, "combat 1 is current");
	e = ev(COMBAT_END, NULL, NULL);
	e->agreed = 1;
	ok(run(e) == 0, "the combat ends, agreed");
	ok(run(ev(COMBAT_DEAD, "Dee", NULL)) == 0, "Dee has died");
	e = ev(COMBAT_FLEE, "Cy", NULL);
	e->virt = 1;
	ok(run(e) == 0, "Cy's free Flee at the end");
	ok(e->free && e->hit, "free, and away");
}

/* Event seq of loaded ledger l. */
#define EV(l, seq)	(&(l).ev[(seq) - 1])

static void
check_one(int64_t id, int n)
{
	static struct combat_state s;
	struct combat_event in;
	struct ledger l;
	int64_t bad = 0;
	int events, at = N_RANGE + 1;	/* round 1's initiative */

	check_round_trip(id, 0, n);

	/* The columns, by name, hold what they say. */
	is_str(row(SQL("action, detail"), 1),
	    "start|{\"rules\":\"crs\",\"lockout\":1800}",
	    "start: rules and lockout in the detail");
	is_str(row(SQL("actor, json_extract(detail, '$.OR'),"
	    " json_extract(detail, '$.EM'), json_extract(detail, '$.LB'),"
	    " json_extract(detail, '$.mod_offense'),"
	    " json_extract(detail, '$.mod_defense'),"
	    " json_extract(detail, '$.mod_pick')"), 6), "Eve|6|20|0|1|2|1",
	    "join: the stats in the detail");
	is_str(row(SQL("json_extract(detail, '$.EM'),"
	    " json_type(detail, '$.EM')"), 3), "~|null",
	    "join: no EM is null");
	is_str(row(SQL("actor, target, feet"), 7), "Ann|Bob|5",
	    "range: feet");
	is_str(row(SQL("json_extract(detail, '$.draws[0].name'),"
	    " json_extract(detail, '$.draws[0].cards'),"
	    " json_extract(detail, '$.draws[0].ties'),"
	    " json_extract(detail, '$.draws[0].total'),"
	    " json_extract(detail, '$.draws[1].pos'), seed"), at),
	    "Ann|9|5|9|2|~", "initiative: draws and ties, no seed");
	is_str(row(SQL("range, kind, cards, vs_cards, virt, vs_virt, special,"
	    " base, vs_base, offense, defense, hit, damage, life_before,"
	    " life_after, item, vs_item, json_extract(detail, '$.item_mods'),"
	    " json_extract(detail, '$.item_range'),"
	    " json_extract(detail, '$.item_full_or'),"
	    " json_extract(detail, '$.vs_item_mods'), use, mod, vs_mod,"
	    " gm, time"), at + 1),
	    "short|~|6|10,2|0|0|~|16|11|22|23|0|0|25|25|Great Axe|Shield|"
	    "[8,0,0,0,0,0]|short|1|[0,2,0,0,0,0]|~|0|0|Gail|1795000017",
	    "attack: every column in its place");
	is_str(row(SQL("hit, damage, life_before, life_after"), at + 2),
	    "1|6|30|24", "a hit: LIFE before and after");
	is_str(row(SQL("target, aimed, range,"
	    " json_extract(detail, '$.melee_pick'),"
	    " json_extract(detail, '$.melee_n'),"
	    " json_extract(detail, '$.melee_drawn')"), at + 4),
	    "Cy|Bob|long|Bob|2|Bob", "a melee draw: aimed and drawn");
	is_str(row(SQL("power, em_spent, em_before, em_after, range,"
	    " json_extract(detail, '$.power.em'),"
	    " json_extract(detail, '$.power.target'),"
	    " json_extract(detail, '$.power.defend'),"
	    " json_extract(detail, '$.reaction.who'),"
	    " json_extract(detail, '$.reaction.need'),"
	    " json_extract(detail, '$.reaction.total'), negated"), at + 5),
	    "Fire Dart|5|20|15|~|5|one|none|Ann|12|9|0",
	    "power: EM and the reaction");
	is_str(row(SQL("use, mod, vs_mod, json_extract(detail, '$.skills'),"
	    " json_extract(detail, '$.vs_skills')"), at + 10),
	    "6|1|-1|Sword Mastery=+2|Parry=+1", "skills and modifiers");
	is_str(row(SQL("cards, offense, defense, hit, until,"
	    " json_extract(detail, '$.let'),"
	    " json_array_length(detail, '$.draws'),"
	    " json_extract(detail, '$.draws[2].name')"), at + 12),
	    "9|20|15|1|1795001828|Cy|3|Dee", "flee: catches and lockout");
	is_str(row(SQL("kind, shares, hit"), at + 15),
	    "intimidation|0|1", "an Intimidation");
	is_str(row(SQL("kind, shares, hit"), at + 16),
	    "intimidation|1|1", "a further target shares it");
	is_str(row(SQL("json_extract(detail, '$.to[2].name'),"
	    " json_extract(detail, '$.to[2].feet'),"
	    " json_extract(detail, '$.let')"), at + 22), "Cy|20|Ann;Cy",
	    "charge: the distances");
	is_str(row(SQL("free, range, hit"), at + 23), "1|long|0",
	    "a free action");
	is_str(row(SQL("shares, em_spent, em_before, em_after"), at + 25),
	    "1|0|18|18", "a group power's further target spends nothing");
	is_str(row(SQL("negated, json_extract(detail, '$.reaction.base')"),
	    at + 27), "1|3", "negated by a reaction");
	is_str(row(SQL("action, agreed"), at + 28), "end|1", "end, agreed");
	is_str(row(SQL("action, actor"), at + 29), "dead|Dee", "Dee died");
	is_str(row(SQL("free, hit, until, virt, seed"), at + 30),
	    "1|1|1795001846|1|~", "the free Flee: no draw, no seed");

	/* Every event executed again agrees with what was recorded. */
	is_int(check_same(id, &events), 0, "ledger_same: no mismatch");
	is_int(events, n, "in all %d events", n);

	/* The state the events make. */
	ok(ledger_load(DB, id, &l) == 0, "loaded");
	is_str(l.rules, "crs", "the combat's rules");
	ok(ledger_derive(&l, &s, &bad, why, sizeof why) == 0, "it derives");
	is_str(state_diff(&S, &s), "", "to the state as executed");
	is_int(s.f[combat_find(&s, "Ann")].life, 20, "Ann LIFE 20");
	is_int(s.f[combat_find(&s, "Ann")].em, 18, "Ann EM 18");
	is_int(s.f[combat_find(&s, "Bob")].life, 9, "Bob LIFE 9");
	is_int(s.f[combat_find(&s, "Eve")].em, 15, "Eve EM 15");
	ok(s.f[combat_find(&s, "Dee")].dead, "Dee dead");
	ok(s.f[combat_find(&s, "Cy")].fled, "Cy fled");
	ok(s.ended && s.agreed, "ended, agreed");
	is_str(state_diff(&AFTER_RANGE, &s), "round",
	    "state_diff tells states apart");
	combat_state_release(&s);

	/* Cut short: the state after the distances. */
	l.n = (size_t)N_RANGE;
	ok(ledger_derive(&l, &s, &bad, why, sizeof why) == 0,
	    "cut short, it derives");
	is_str(state_diff(&AFTER_RANGE, &s), "", "to the state back then");
	combat_state_release(&s);
	l.n = l.j.n;

	/* ledger_same sees a difference. */
	combat_state_init(&s);
	for (int q = 1; q <= at; q++) {
		ledger_inputs(EV(l, q), &in);
		combat_execute(&s, &in, why, sizeof why);
		combat_event_release(&in);
	}
	ledger_inputs(EV(l, at + 1), &in);
	ok(combat_execute(&s, &in, why, sizeof why) == 0,
	    "the axe attack again from its inputs");
	is_int(ledger_same(EV(l, at + 1), &in, why, sizeof why), 0,
	    "the same");
	in.defense = 20;
	ok(ledger_same(EV(l, at + 1), &in, why, sizeof why) < 0,
	    "a defence changed: not the same");
	is_str(why, "defence recorded 23, replayed 20", "why");
	combat_event_release(&in);
	combat_state_release(&s);

	/* Inputs keep what the GM said and drop the outcome. */
	ledger_inputs(EV(l, at + 1), &in);
	is_str(in.cards, "6", "typed cards kept");
	is_str(in.vs_cards, "10,2", "typed defence cards kept");
	is_str(in.item.name, "Great Axe", "the item");
	ok(in.item.mod[ITEM_OR] == 8 && in.item.full_or == 1 &&
	    in.item.range == ITEM_SHORT, "with its figures");
	is_str(in.vs_item.name, "Shield", "the defender's item");
	is_int(in.seed, EV(l, at + 1)->seed, "the seed");
	is_str(in.gm, "Gail", "the GM");
	is_int(in.time, NOW + at, "the time");
	ok(in.offense == 0 && in.defense == -1 && in.hit == 0 &&
	    in.base == 0 && in.vs_base == 0 && in.damage == 0,
	    "no offence, defence or hit");
	ok(in.life_before == -1 && in.life_after == -1, "no LIFE");
	combat_event_release(&in);
	ledger_inputs(EV(l, at + 4), &in);
	is_str(in.target, "Bob", "a melee draw's target: the declared one");
	is_str(in.melee_pick, "Bob", "the typed draw kept");
	ok(in.aimed == NULL && in.melee_drawn == NULL && in.melee_n == 0,
	    "what the draw did dropped");
	combat_event_release(&in);
	ledger_inputs(EV(l, at), &in);
	is_int(in.ninit, 5, "an initiative's five entries");
	is_str(in.init[0].cards, "9", "typed cards kept");
	is_str(in.init[0].ties, "5", "the tie-break kept");
	is_str(in.init[0].ties_virt, "0", "typed");
	ok(in.init[0].total == 0 && in.init[0].pos == 0 &&
	    in.init[0].in == 0, "totals and places dropped");
	combat_event_release(&in);
	ledger_inputs(EV(l, at + 5), &in);
	is_str(in.power.name, "Fire Dart", "the power");
	ok(in.power.em == 5 && in.power.defend == POWER_VS_NONE,
	    "its figures");
	ok(in.em_before == -1 && in.em_after == -1 && in.react_total == 0 &&
	    in.negated == 0, "EM and the reaction's outcome dropped");
	is_str(in.reactor, "Ann", "the reactor kept");
	ok(in.react_base == 2 && in.react_need == 12, "her base and need");
	is_str(in.react_cards, "7", "her typed card");
	combat_event_release(&in);
	ledger_inputs(EV(l, at + 22), &in);
	ok(in.ninit == 3 && in.init[2].in == 20, "a charge's distances kept");
	is_str(in.let, "Ann;Cy", "and who let him");
	combat_event_release(&in);
	ledger_inputs(EV(l, at + 12), &in);
	ok(in.until == 0 && in.hit == 0 && in.defense == -1,
	    "a flee's outcome dropped");
	is_str(in.init[1].cards, "4", "its typed Catch kept");
	combat_event_release(&in);
	ledger_inputs(EV(l, at + 30), &in);
	is_int(in.free, 0, "the free Flee: free is its outcome, dropped");
	combat_event_release(&in);
	ledger_inputs(EV(l, 6), &in);
	ok(in.stats.or_ == 6 && in.stats.mod_pick == 1,
	    "a join's stats kept");
	combat_event_release(&in);
	ledger_inputs(EV(l, 1), &in);
	ok(in.lockout == 1800 && in.rules == COMBAT_RULES_CRS,
	    "the start's lockout");
	combat_event_release(&in);
	ledger_release(&l);
}

/* ---- combat 2: Avatar rules, draws from seeds, an undone end ---- */

static void
fight_two(int base)
{
	static struct combat_state before_end, s;
	struct combat_event *e;
	struct ledger l;
	int64_t bad;
	int events, first;
	char seed[40];

	db_begin(DB);
	CID = ledger_new_combat(DB, "avatar", NOW);
	db_commit(DB);
	is_int(pick("Gail", 0), 0, "a combat without its start is nobody's");
	combat_state_release(&S);
	e = ev(COMBAT_START, NULL, NULL);
	e->rules = COMBAT_RULES_AVATAR;
	ok(run(e) == 0, "start, Avatar rules");
	is_int(pick("Gail", 0), CID, "the new combat is its GM's");
	ok(join("Ann", 8, 10, 6, 30, 30, 0) == 0, "Ann joins");
	ok(join("Bob", 7, 9, 5, 25, -1, 1) == 0, "Bob joins, LB 1");
	e = strike(COMBAT_ATTACK, "Ann", "Bob", "5", "3");
	e->range = COMBAT_LONG;
	e->surprise = 1;
	ok(run(e) == 0, "a Surprise attack");
	ok(range("Ann", "Bob", 5) == 0, "5 ft apart");
	ok(run(ev(COMBAT_STANCE, "Bob", NULL)) == 0,
	    "Bob takes a Defensive Stance");
	e = ev(COMBAT_INITIATIVE, NULL, NULL);
	entry(e, "Ann", "9", NULL);
	ok(run(e) == 0, "Ann alone draws initiative");
	e = strike(COMBAT_ATTACK, "Ann", "Bob", "7", "A");
	e->special = 4;
	ok(run(e) == 0, "Bob defends with an Ace, the special 4");
	is_int(e->special, 4, "the special card");
	ok(run(ev(COMBAT_ROUND, NULL, NULL)) == 0, "round 2");
	e = ev(COMBAT_INITIATIVE, NULL, NULL);
	ok(run(e) == 0, "initiative drawn from the seed");
	ok(e->ninit == 2 && e->init[0].virt && e->init[0].cards != NULL,
	    "both drawn");
	first = S.order[0];
	e = ev(COMBAT_SWAP, S.f[first].name, NULL);
	gear(&e->item, "Sword", ITEM_OR, 5, ITEM_SHORT, 0);
	ok(run(e) == 0, "an Item Swap");
	e = strike(COMBAT_ATTACK, S.f[!first].name, S.f[first].name, NULL,
	    NULL);
	e->skills = xstrdup("Brawl=+1");
	ok(run(e) == 0, "an attack with every card from the seed");
	ok(e->cards != NULL && e->vs_cards != NULL, "the cards drawn");
	before_end = S;
	e = ev(COMBAT_END, NULL, NULL);
	e->agreed = 1;
	ok(run(e) == 0, "the combat ends");
	is_int(pick("Gail", 0), 0, "no combat is current");
	is_str(WHY, "GM 'Gail' has no combat under way (combat 2, the last one "
	    "acted in, is over); none is open (give --combat N, or start one)",
	    "the refusal says which was the GM's and that none is open");
	is_int(pick("Gail", 1), CID, "a reader takes the GM's last combat");
	is_int(pick("Hal", 1), 0, "another GM's reader: none of his");

	check_round_trip(CID, base, NREC - base);
	is_str(row(SQL("surprise, range"), 4), "1|long", "surprise column");
	is_str(row(SQL("special, vs_cards"), 8), "4|A",
	    "the special card's column");
	snprintf(seed, sizeof seed, "%d", 1000 + base + 9);
	is_str(row(SQL("seed"), 10), seed,
	    "a drawn initiative keeps its seed");
	is_str(row(SQL("action, item, json_extract(detail, '$.item_mods')"),
	    11), "swap|Sword|[5,0,0,0,0,0]", "the swap's item");
	snprintf(seed, sizeof seed, "1|1|%d", 1000 + base + 11);
	is_str(row(SQL("virt, vs_virt, seed"), 12), seed,
	    "a drawn attack keeps its seed");

	/* Undo the end: it no longer ends the combat. */
	ledger_load(DB, CID, &l);
	e = ev(COMBAT_UNDO, NULL, NULL);
	e->undoes = l.ev[l.n - 1].seq;
	e->round = S.round;
	db_begin(DB);
	ledger_append(DB, CID, e);
	db_commit(DB);
	NREC++;
	ledger_release(&l);
	is_int(e->seq, 14, "the undo is seq 14");
	is_int(pick("Gail", 0), CID, "an undone end: current again");
	is_int(pick("Hal", 0), 0, "never another GM's");
	is_str(WHY, "GM 'Hal' has no combat under way; open: combat 2 (Ann, "
	    "Bob; GM Gail) (give --combat N, or start one)",
	    "the refusal lists the open combat, its fighters and GM");
	check_round_trip(CID, base, NREC - base);
	is_str(row(SQL("action, undoes, round"), 14), "undo|13|2",
	    "the undo's row");
	ledger_load(DB, CID, &l);
	ok(l.undone[12] && !l.undone[13], "the end undone, not the undo");
	ok(ledger_derive(&l, &s, &bad, why, sizeof why) == 0, "it derives");
	is_str(state_diff(&before_end, &s), "", "to the state before the end");
	ok(!s.ended, "not ended");
	is_str(l.rules, "avatar", "the combat's rules");
	combat_state_release(&s);

	/* Marked undone by the caller: Bob's join; the distance fails. */
	l.undone[2] = 1;
	ok(ledger_derive(&l, &s, &bad, why, sizeof why) < 0,
	    "without Bob's join it does not derive");
	is_int(bad, 4, "the surprise attack on him, seq 4");
	is_str(why, "'Bob' is not in this combat", "why");
	combat_state_release(&s);
	l.undone[2] = 0;
	ledger_release(&l);
	is_int(check_same(CID, &events), 0, "ledger_same: no mismatch");
	is_int(events, 12, "in the 12 events left");
}

/*
 * ---- combat 3: tie-breaks typed two deep and drawn, a Suggestion,
 * a flee nobody catches, negative item figures, a tampered row ----
 */

static void
fight_three(int base)
{
	static struct combat_state s;
	struct combat_event *e;
	struct ledger l;
	int64_t bad;
	int events, ann, bob;
	char sql[200];
	const char *d;

	db_begin(DB);
	CID = ledger_new_combat(DB, "crs", NOW);
	db_commit(DB);
	combat_state_release(&S);
	ok(run(ev(COMBAT_START, NULL, NULL)) == 0, "start, the defaults");
	e = ev(COMBAT_JOIN, "Ann", NULL);
	e->stats = (struct combat_stats){ 8, 10, 6, 30, 2, -1, 0, 0, 0, 0 };
	ok(run(e) == 0, "Ann joins, IN 2");
	ok(join("Bob", 7, 9, 5, 25, -1, 0) == 0, "Bob joins");
	ok(join("Cy", 5, 8, 4, 20, -1, 0) == 0, "Cy joins");
	/* 7 + IN 2, 9 and 9: all tie; Cy's tie-break comes from the seed. */
	e = ev(COMBAT_INITIATIVE, NULL, NULL);
	entry(e, "Ann", "7", "5;7");
	free(e->init[0].ties_virt);
	e->init[0].ties_virt = xstrdup("00");
	entry(e, "Bob", "9", "5;3");
	free(e->init[1].ties_virt);
	e->init[1].ties_virt = xstrdup("00");
	entry(e, "Cy", "9", NULL);
	ok(run(e) == 0, "a three-way tie");
	ann = combat_find(&S, "Ann");
	bob = combat_find(&S, "Bob");
	ok(S.f[ann].init_pos < S.f[bob].init_pos, "Ann before Bob");
	is_int(S.f[ann].init_total, 9, "Ann's 7 + IN 2");
	is_int(e->init[2].ties_virt[0], '1', "Cy's tie-break drawn");
	ok(ledger_used_seed(e), "so the seed is used");
	is_str(row(SQL("seed IS NOT NULL, json_extract(detail,"
	    " '$.draws[0].in'), json_extract(detail, '$.draws[0].ties')"),
	    5), "1|2|5;7", "stored: the seed, IN, both tie-breaks");
	for (int k = 0; k < S.norder; k++) {
		int who = S.order[k];

		if (who == ann) {
			e = strike(COMBAT_MENTAL, "Ann", "Bob", "4", "3");
			e->kind = COMBAT_SUGGESTION;
			e->use = 5;
			ok(run(e) == 0, "Ann's Suggestion, MIND 5 put in");
		} else if (who == bob) {
			e = strike(COMBAT_ATTACK, "Bob", "Cy", "6", "2");
			gear(&e->vs_item, "Buckler", ITEM_DR, 3, ITEM_BOTH, 0);
			e->vs_item.mod[ITEM_PICK] = -2;
			e->vs_item.mod[ITEM_DEFENSE] = -1;
			ok(run(e) == 0,
			    "Bob attacks; Cy's Buckler, minus 2 pick");
		} else {
			e = ev(COMBAT_FLEE, "Cy", NULL);
			e->cards = xstrdup("8");
			e->let = xstrdup("Ann;Bob");
			e->mod = -1;
			ok(run(e) == 0, "Cy flees; both let him go");
			ok(e->ninit == 0 && e->defense == -1 && e->hit,
			    "no Catch: he is away");
		}
	}
	ok(run(ev(COMBAT_ROUND, NULL, NULL)) == 0, "round 2");
	ok(join("Dee", 4, 6, 3, 15, -1, 0) == 0, "Dee joins late");
	is_int(S.dist[combat_find(&S, "Dee")][ann], COMBAT_DIST_LONG,
	    "at long range from everyone");
	e = strike(COMBAT_ATTACK, "Dee", "Ann", "5", "3");
	ok(run(e) < 0, "not before the next initiative");
	e = ev(COMBAT_INITIATIVE, NULL, NULL);
	entry(e, "Ann", "8", NULL);
	entry(e, "Bob", "7", NULL);
	entry(e, "Dee", "6", NULL);
	ok(run(e) == 0, "Dee draws initiative in round 2");
	is_str(row(SQL("kind, use, range"), 6 + (S.f[ann].init_pos - 1)),
	    "suggestion|5|~", "the Suggestion's kind and MIND put in");
	is_str(row(SQL("json_extract(detail, '$.vs_item_mods')"), 6 +
	    (S.f[bob].init_pos - 1)), "[0,3,0,-2,0,-1]",
	    "negative item figures");
	check_round_trip(CID, base, NREC - base);
	is_int(check_same(CID, &events), 0, "ledger_same: no mismatch");
	is_int(events, NREC - base, "in every event");
	ledger_load(DB, CID, &l);
	ok(ledger_derive(&l, &s, &bad, why, sizeof why) == 0, "it derives");
	is_str(state_diff(&S, &s), "", "to the state as executed");
	combat_state_release(&s);
	ledger_release(&l);

	/* A column changed behind the ledger's back is seen. */
	snprintf(sql, sizeof sql, "UPDATE event SET vs_base = vs_base + 1"
	    " WHERE combat_id = %lld AND action = 'attack'", (long long)CID);
	if (sqlite3_exec(DB->h, sql, NULL, NULL, NULL) != SQLITE_OK)
		db_fatal(DB, sql);
	ledger_load(DB, CID, &l);
	d = "";
	for (size_t i = 0; i < l.n && *d == '\0'; i++)
		d = event_diff(&REC[base + (int)i], &l.ev[i]);
	ok(strncmp(d, "vs_base ", 8) == 0, "event_diff sees a changed vs_base"
	    " (%s)", d);
	/* The audit runs every event again and names what disagrees. */
	AUDIT_SEQ = 0;
	ok(ledger_audit(&l, audit_bad, NULL) >= 1, "the audit finds it");
	ok(AUDIT_SEQ > 0 && AUDIT_RAN == 1, "an event that runs, at seq %lld",
	    (long long)AUDIT_SEQ);
	ok(strncmp(AUDIT_WHY, "defence base recorded ", 22) == 0,
	    "naming the defence base (%s)", AUDIT_WHY);
	ledger_release(&l);
	snprintf(sql, sizeof sql, "UPDATE event SET vs_base = vs_base - 1"
	    " WHERE combat_id = %lld AND action = 'attack'", (long long)CID);
	if (sqlite3_exec(DB->h, sql, NULL, NULL, NULL) != SQLITE_OK)
		db_fatal(DB, sql);
	ledger_load(DB, CID, &l);
	is_int(ledger_audit(&l, audit_bad, NULL), 0, "restored, it audits clean");
	ledger_release(&l);
}

int
main(void)
{
	char dir[] = "/tmp/refkit-test-ledger-XXXXXX";
	char *path, *cmd;
	struct ledger l;
	int64_t one;
	int n1;

	if (mkdtemp(dir) == NULL)
		abort();
	path = xasprintf("%s/refkit.db", dir);
	DB = db_open(path);
	is_int(pick("Gail", 0), 0, "no combat yet");
	fight_one();
	one = CID;
	n1 = NREC;
	is_int(pick("Gail", 0), 0, "combat 1 has ended: none current");
	check_one(one, n1);
	fight_two(n1);
	fight_three(NREC);
	ok(ledger_load(DB, CID + 1, &l) < 0, "no combat 4");
	ledger_release(&l);
	for (int i = 0; i < NREC; i++)
		combat_event_release(&REC[i]);
	combat_state_release(&S);
	db_close(DB);
	cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	free(cmd);
	free(path);
	return tap_done();
}
