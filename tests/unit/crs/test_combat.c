/*
 * test_combat.c - the combat engine alone, without a database: events
 * built by hand with typed cards, executed against a state, so that each
 * rule the engine holds can be checked by its numbers and its refusals.
 */
#include "tap.h"

#include "crs/combat.h"
#include "base/util.h"

#include <stdlib.h>

static char why[300];

/* A new event of the given action (names copied; either may be NULL). */
static struct combat_event *
ev(int action, const char *actor, const char *target)
{
	struct combat_event *e = xmalloc(sizeof *e);

	combat_event_init(e);
	e->action = action;
	e->actor = actor ? xstrdup(actor) : NULL;
	e->target = target ? xstrdup(target) : NULL;
	e->seed = 1;
	return e;
}

/* Executes e against s and frees it; returns combat_execute's result. */
static int
run(struct combat_state *s, struct combat_event *e)
{
	int rc;

	why[0] = '\0';
	rc = combat_execute(s, e, why, sizeof why);
	if (rc != 0)
		printf("# refused: %s\n", why);
	combat_event_release(e);
	free(e);
	return rc;
}

/* A combatant joins with these numbers (IN 0, LB 0, no EM). */
static int
join(struct combat_state *s, const char *name, int or_, int dr, int mind,
    int life)
{
	struct combat_event *e = ev(COMBAT_JOIN, name, NULL);

	e->stats.or_ = or_;
	e->stats.dr = dr;
	e->stats.mind = mind;
	e->stats.life = life;
	e->stats.in = 0;
	e->stats.lb = 0;
	return run(s, e);
}

/* A fresh combat under rules, with Ann, Bob and Cy 5 ft from each other. */
static void
setup(struct combat_state *s, int rules)
{
	struct combat_event *e = ev(COMBAT_START, NULL, NULL);

	combat_state_init(s);
	e->rules = rules;
	run(s, e);
	join(s, "Ann", 8, 10, 6, 30);
	join(s, "Bob", 7, 9, 5, 25);
	join(s, "Cy", 5, 8, 4, 20);
	for (int i = 0; i < 3; i++) {
		e = ev(COMBAT_RANGE, s->f[i].name, s->f[(i + 1) % 3].name);
		e->feet = 5;
		run(s, e);
	}
}

/* One typed initiative entry of e. */
static void
init_add(struct combat_event *e, const char *name, const char *cards)
{
	struct combat_init *x;

	e->init = xreallocarray(e->init, (size_t)e->ninit + 1,
	    sizeof *e->init);
	x = &e->init[e->ninit++];
	memset(x, 0, sizeof *x);
	x->name = xstrdup(name);
	x->cards = xstrdup(cards);
}

/* Initiative with typed cards: "Ann=9", "Bob=8", ... (NULL-terminated). */
static int
init(struct combat_state *s, const char *const *pairs)
{
	struct combat_event *e = ev(COMBAT_INITIATIVE, NULL, NULL);

	for (; *pairs; pairs += 2)
		init_add(e, pairs[0], pairs[1]);
	return run(s, e);
}

/* A physical attack with typed cards; its event is kept for the caller. */
static struct combat_event *
attack(const char *a, const char *t, int range, int use, const char *card,
    const char *vs_card)
{
	struct combat_event *e = ev(COMBAT_ATTACK, a, t);

	e->range = range;
	e->use = use;
	e->cards = xstrdup(card);
	e->vs_cards = vs_card ? xstrdup(vs_card) : NULL;
	e->vs_virt = vs_card == NULL;
	return e;
}

/* A supplemental item for an event's attacker. */
static void
gear(struct combat_event *e, const char *name, int or_, int range, int full_or)
{
	e->item.name = xstrdup(name);
	e->item.mod[ITEM_OR] = or_;
	e->item.range = range;
	e->item.full_or = full_or;
}

/*
 * RULINGS section 1: a full-OR item takes the whole OR at short range,
 * under the CRS as under Avatar 2.6; the whole of it is accepted.
 */
static void
test_full_or(int rules)
{
	const char *const order[] = { "Ann", "9", "Bob", "8", "Cy", "7", NULL };
	const char *rn = combat_rules_name(rules);
	struct combat_state s;
	struct combat_event *e;

	setup(&s, rules);
	is_int(init(&s, order), 0, "%s: initiative", rn);
	e = attack("Ann", "Bob", COMBAT_SHORT, 4, "6", "4");
	gear(e, "Maul", 4, ITEM_SHORT, 1);
	is_int(run(&s, e), -1, "%s: full-OR Maul with --use 4 refused", rn);
	is_str(why, "'Maul' must be used with the full OR (12): no pulling "
	    "the punch", "%s: the refusal names the item", rn);
	is_int(s.f[0].acted, 0, "%s: the refusal leaves Ann's turn", rn);
	is_int(s.f[0].deck.avail[6], 1, "%s: ... and her 6 in the deck", rn);
	e = attack("Ann", "Bob", COMBAT_SHORT, 12, "6", "4");
	gear(e, "Maul", 4, ITEM_SHORT, 1);
	is_int(run(&s, e), 0, "%s: --use 12, the whole OR, accepted", rn);
	is_int(s.f[1].life, 25 - (6 + 12 - (4 + 9)), "%s: Bob takes 5", rn);
	/* An item without the flag may still pull the punch. */
	e = attack("Bob", "Ann", COMBAT_SHORT, 3, "7", "2");
	gear(e, "Dagger", 2, ITEM_SHORT, 0);
	is_int(run(&s, e), 0, "%s: a Dagger may pull the punch", rn);
	combat_state_release(&s);
}

/* A one-actor event (blow, pass, round: actor NULL). */
static int
act(struct combat_state *s, int action, const char *actor, const char *target)
{
	return run(s, ev(action, actor, target));
}

/*
 * RULINGS section 1: the protector who took a short range blow aimed at
 * the one he protects is in a melee with the attacker, never apart from
 * the one he protects; he may carry the Taking a Blow on at step 1, and
 * the melee lasts through it.  A melee of his own still stops him.
 */
static void
test_blow_carry(void)
{
	const char *const r1[] = { "Cy", "9", "Ann", "8", "Bob", "7", "Dee",
	    "6", NULL };
	const char *const r2[] = { "Ann", "8", "Bob", "7", "Dee", "6", NULL };
	struct combat_state s;
	struct combat_event *e;
	uint64_t ann = UINT64_C(1) << 0;
	uint64_t dee = UINT64_C(1) << 3;

	setup(&s, COMBAT_RULES_CRS);
	join(&s, "Dee", 4, 6, 3, 15);
	e = ev(COMBAT_RANGE, "Dee", "Cy");
	e->feet = 5;
	run(&s, e);
	is_int(init(&s, r1), 0, "blow: initiative");
	is_int(act(&s, COMBAT_BLOW, "Cy", "Bob"), 0,
	    "Cy takes the blows for Bob");
	e = attack("Ann", "Bob", COMBAT_SHORT, 0, "7", "3");
	is_int(run(&s, e), 0, "Ann attacks Bob at short range");
	is_int(s.f[2].life, 20 - (7 + 8 - (3 + 8)), "Cy takes the blow");
	is_int(combat_melee(&s, 2), ann, "Cy is in a melee with Ann");
	is_int(act(&s, COMBAT_PASS, "Bob", NULL), 0, "Bob passes");
	is_int(act(&s, COMBAT_PASS, "Dee", NULL), 0, "Dee passes");
	is_int(act(&s, COMBAT_ROUND, NULL, NULL), 0, "round 2");
	is_int(act(&s, COMBAT_BLOW, "Cy", "Bob"), 0,
	    "Cy carries the Taking a Blow on at step 1");
	is_str(why, "", "no reason given");
	is_int(s.f[2].protecting, 1, "Cy protects Bob");
	is_int(s.f[2].blow_carry, 1, "Cy takes no other action");
	is_int(combat_melee(&s, 2), ann, "the melee with Ann lasts");
	is_int(combat_melee(&s, 0), UINT64_C(1) << 2, "Ann's melee is Cy");
	is_int(init(&s, r2), 0, "round 2 initiative without Cy");
	e = attack("Ann", "Bob", COMBAT_SHORT, 0, "6", "2");
	is_int(run(&s, e), 0, "Ann attacks Bob again");
	is_int(act(&s, COMBAT_PASS, "Bob", NULL), 0, "Bob passes again");
	/* Dee's own attack on Cy is a melee that Bob is not in. */
	e = attack("Dee", "Cy", COMBAT_SHORT, 0, "5", "4");
	is_int(run(&s, e), 0, "Dee attacks Cy");
	is_int(combat_melee(&s, 2), ann | dee,
	    "Cy is in a melee with Ann, Dee");
	is_int(act(&s, COMBAT_ROUND, NULL, NULL), 0, "round 3");
	is_int(act(&s, COMBAT_BLOW, "Cy", "Bob"), -1,
	    "a melee of his own stops the carry-over");
	is_str(why, "'Cy' is in a melee without 'Bob' and may not take a blow "
	    "for him", "its reason");
	combat_state_release(&s);
}

/*
 * RULINGS section 1: a Surprise action comes before round 1, so it halves
 * no DR, and every card it drew (the offence, each target's defence) is
 * back in its deck for round 1's initiative.
 */
static void
test_surprise(void)
{
	const char *const order[] = { "Ann", "5", "Bob", "3", "Cy", "4", NULL };
	struct combat_state s;
	struct combat_event *e;

	setup(&s, COMBAT_RULES_CRS);
	e = ev(COMBAT_RANGE, "Ann", "Bob");
	e->feet = 20;
	run(&s, e);
	e = attack("Ann", "Bob", COMBAT_LONG, 0, "5", "3");
	e->surprise = 1;
	is_int(run(&s, e), 0, "a long range Surprise attack");
	is_int(s.f[0].halvings, 0, "it halves no DR");
	is_int(combat_dr_now(&s.f[0]), 10, "Ann's DR is still 10");
	is_int(s.f[0].deck.avail[5], 0, "her 5 is out until initiative");
	is_int(s.f[1].deck.avail[3], 0, "Bob's 3 too");
	is_int(init(&s, order), 0, "round 1 initiative draws the 5 and the 3");
	is_int(s.f[0].init_total, 5, "Ann's initiative is 5");
	is_int(deck_size(&s.f[0].deck), 10, "Ann's deck is whole again");
	is_int(deck_size(&s.f[1].deck), 10, "Bob's deck is whole again");
	e = attack("Ann", "Bob", COMBAT_LONG, 0, "5", "3");
	is_int(run(&s, e), 0, "the same cards again in round 1");
	is_int(combat_dr_now(&s.f[0]), 5, "round 1's first halving: 10 to 5");
	combat_state_release(&s);

	/* An Intimidation of two: the shared offence and both defences. */
	setup(&s, COMBAT_RULES_CRS);
	e = ev(COMBAT_MENTAL, "Ann", "Bob");
	e->kind = COMBAT_INTIMIDATION;
	e->cards = xstrdup("5");
	e->vs_cards = xstrdup("3");
	e->surprise = 1;
	is_int(run(&s, e), 0, "a Surprise Intimidation of Bob");
	e = ev(COMBAT_MENTAL, "Ann", "Cy");
	e->kind = COMBAT_INTIMIDATION;
	e->shares = 1;
	e->vs_cards = xstrdup("4");
	is_int(run(&s, e), 0, "... and of Cy, sharing its offence");
	is_int(s.f[2].deck.avail[4], 0, "Cy's 4 is out until initiative");
	is_int(init(&s, order), 0, "round 1 initiative: 5, 3 and 4 are back");
	for (int i = 0; i < 3; i++)
		is_int(deck_size(&s.f[i].deck), 10, "%s's deck is whole",
		    s.f[i].name);
	combat_state_release(&s);
}

/* Executes e against s, keeping e for the caller to look at and free. */
static int
run_keep(struct combat_state *s, struct combat_event *e)
{
	int rc;

	why[0] = '\0';
	if ((rc = combat_execute(s, e, why, sizeof why)) != 0)
		printf("# refused: %s\n", why);
	return rc;
}

/* Frees an event made by ev(). */
static void
drop(struct combat_event *e)
{
	combat_event_release(e);
	free(e);
}

/*
 * Step 6: a negated action reaches no more targets; an action that was
 * not negated goes on to the next one.  Only an Intimidation and a group
 * power have several targets.
 */
static void
test_stops_targets(void)
{
	const char *const order[] = { "Ann", "9", "Bob", "8", "Cy", "7", NULL };
	struct combat_state s;
	struct combat_event *e;

	setup(&s, COMBAT_RULES_CRS);
	is_int(init(&s, order), 0, "stops: initiative");
	e = ev(COMBAT_MENTAL, "Ann", "Bob");
	e->kind = COMBAT_INTIMIDATION;
	e->cards = xstrdup("5");
	e->vs_cards = xstrdup("3");
	e->reactor = xstrdup("Cy");
	e->react_cards = xstrdup("4");
	e->react_base = 0;
	e->react_need = 5;
	is_int(run_keep(&s, e), 0, "an Intimidation, Cy reacts with 4 of 5");
	is_int(e->negated, 0, "the reaction fails");
	is_int(combat_stops_targets(e), 0, "it goes on to the next target");
	drop(e);
	combat_state_release(&s);

	setup(&s, COMBAT_RULES_CRS);
	is_int(init(&s, order), 0, "stops: initiative again");
	e = ev(COMBAT_MENTAL, "Ann", "Bob");
	e->kind = COMBAT_INTIMIDATION;
	e->cards = xstrdup("5");
	e->vs_cards = xstrdup("3");
	e->reactor = xstrdup("Cy");
	e->react_cards = xstrdup("6");
	e->react_base = 0;
	e->react_need = 5;
	is_int(run_keep(&s, e), 0, "Cy reacts with 6 of 5");
	is_int(e->negated, 1, "the Intimidation is negated");
	is_int(e->offense, 0, "no offence drawn");
	is_int(combat_stops_targets(e), 1, "it reaches no more targets");
	drop(e);
	e = ev(COMBAT_MENTAL, "Ann", "Cy");
	e->kind = COMBAT_INTIMIDATION;
	e->shares = 1;
	e->vs_cards = xstrdup("4");
	is_int(run(&s, e), -1, "a further target after a negated one");
	combat_state_release(&s);

	ok(combat_several_targets(COMBAT_MENTAL, COMBAT_INTIMIDATION,
	    POWER_ONE), "an Intimidation has several targets");
	ok(!combat_several_targets(COMBAT_MENTAL, COMBAT_SUGGESTION,
	    POWER_ONE), "a Suggestion has one");
	ok(!combat_several_targets(COMBAT_ATTACK, COMBAT_KIND_ATTACK,
	    POWER_GROUP), "an attack has one");
	ok(combat_several_targets(COMBAT_POWER, COMBAT_KIND_ATTACK,
	    POWER_GROUP), "a group power has several");
	ok(!combat_several_targets(COMBAT_POWER, COMBAT_KIND_ATTACK,
	    POWER_ONE), "a power of one target has one");
}

/* Ann, Bob and Cy in initiative order Ann 9, Bob 8, Cy 7 (no ties). */
static const char *const abc[] = { "Ann", "9", "Bob", "8", "Cy", "7", NULL };

/* A combatant with EM joins (IN 0, LB 0). */
static int
join_em(struct combat_state *s, const char *name, int or_, int dr, int mind,
    int life, int em)
{
	struct combat_event *e = ev(COMBAT_JOIN, name, NULL);

	e->stats.or_ = or_;
	e->stats.dr = dr;
	e->stats.mind = mind;
	e->stats.life = life;
	e->stats.em = em;
	e->stats.in = 0;
	e->stats.lb = 0;
	return run(s, e);
}

/* A distance between a and b. */
static int
range(struct combat_state *s, const char *a, const char *b, int feet)
{
	struct combat_event *e = ev(COMBAT_RANGE, a, b);

	e->feet = feet;
	return run(s, e);
}

static void
test_start(void)
{
	struct combat_state s;
	struct combat_event *e;

	combat_state_init(&s);
	e = ev(COMBAT_START, NULL, NULL);
	e->rules = COMBAT_RULES_AVATAR;
	e->lockout = 600;
	is_int(run(&s, e), -1, "start: Avatar with a 10 minute lockout");
	is_str(why, "under Avatar 2.6 the flee lockout is one hour",
	    "start: the reason");
	e = ev(COMBAT_START, NULL, NULL);
	e->lockout = -1;
	is_int(run(&s, e), -1, "start: a lockout below 0");
	is_str(why, "a flee lockout is 0 to 10080 minutes", "start: why");
	e = ev(COMBAT_START, NULL, NULL);
	e->lockout = 600;
	e->time = 5000;
	is_int(run(&s, e), 0, "start: CRS with a 10 minute lockout");
	is_int(s.lockout, 600, "start: the lockout is kept");
	is_int(s.rules, COMBAT_RULES_CRS, "start: CRS rules");
	is_int(s.started, 5000, "start: the time it started");
	is_int(s.round, 1, "start: round 1");
	combat_state_release(&s);
}

static void
test_join(void)
{
	struct combat_state s;
	struct combat_event *e;

	setup(&s, COMBAT_RULES_CRS);
	is_int(s.n, 3, "join: three joined");
	is_int(s.f[1].life, 25, "join: Bob's LIFE is his sheet's");
	is_int(s.f[1].presence, COMBAT_ACTIVE, "join: Bob fights now");
	is_int(deck_size(&s.f[1].deck), 10, "join: a deck of 10 (LB 0)");
	is_int(join(&s, "Bob", 1, 1, 1, 1), -1, "join: Bob twice");
	is_str(why, "'Bob' is already in this combat", "join: why");
	e = ev(COMBAT_JOIN, "Dee", NULL);
	is_int(run(&s, e), -1, "join: no LIFE");
	is_str(why, "'Dee' has no LIFE", "join: why no LIFE");
	is_int(init(&s, abc), 0, "join: initiative");
	is_int(join(&s, "Dee", 4, 6, 3, 15), 0, "join: Dee after initiative");
	is_int(s.f[3].presence, COMBAT_PENDING, "join: Dee waits a round");
	is_int(s.dist[3][0], COMBAT_DIST_LONG, "join: Dee enters at long "
	    "range");
	is_int(act(&s, COMBAT_PASS, "Dee", NULL), -1, "join: Dee cannot act");
	is_str(why, "'Dee' joins at the start of the next round",
	    "join: why not");
	combat_state_release(&s);
}

static void
test_stance_round(void)
{
	const char *const bc[] = { "Bob", "8", "Cy", "7", NULL };
	const char *const all[] = { "Ann", "9", "Bob", "8", "Cy", "7", NULL };
	struct combat_state s;
	struct combat_event *e;

	setup(&s, COMBAT_RULES_CRS);
	is_int(act(&s, COMBAT_STANCE, "Ann", NULL), 0, "stance: Ann");
	is_int(s.f[0].stance, 1, "stance: taken");
	is_int(combat_dr_now(&s.f[0]), 20, "stance: DR 10 doubled");
	is_int(act(&s, COMBAT_STANCE, "Ann", NULL), -1, "stance: twice");
	is_str(why, "'Ann' is already in a Defensive Stance", "stance: why");
	is_int(init(&s, all), -1, "stance: Ann draws no initiative");
	is_str(why, "'Ann' draws no initiative this round (in a Defensive "
	    "Stance)", "stance: why no initiative");
	is_int(init(&s, bc), 0, "stance: initiative of Bob and Cy");
	is_int(s.norder, 2, "stance: two in the order");
	is_int(s.f[0].init_pos, 0, "stance: Ann has no place");
	is_int(act(&s, COMBAT_STANCE, "Bob", NULL), -1,
	    "stance: after initiative");
	is_str(why, "a Defensive Stance is taken before initiative",
	    "stance: why so late");
	e = attack("Bob", "Ann", COMBAT_SHORT, 0, "6", "5");
	is_int(run(&s, e), 0, "stance: Bob attacks Ann");
	is_int(s.f[0].life, 30, "stance: 6 + 7 = 13 against 5 + 20 = 25");
	is_int(s.f[1].deck.avail[6], 0, "round: Bob's 6 is out");
	is_int(act(&s, COMBAT_ROUND, NULL, NULL), 0, "round: Clean Up");
	is_int(s.round, 2, "round: round 2");
	is_int(s.init_done, 0, "round: no initiative yet");
	is_int(s.f[0].stance, 0, "round: the stance is over");
	is_int(combat_dr_now(&s.f[0]), 10, "round: Ann's DR is 10 again");
	is_int(s.f[1].deck.avail[6], 1, "round: Bob's 6 is back");
	is_int(s.f[1].acted, 0, "round: Bob may act again");
	e = ev(COMBAT_ROUND, NULL, NULL);
	is_int(run_keep(&s, e), 0, "round: another");
	is_int(e->round, 3, "round: the event is of round 3");
	drop(e);
	combat_state_release(&s);
}

static void
test_initiative(void)
{
	struct combat_state s;
	struct combat_event *e;

	setup(&s, COMBAT_RULES_CRS);
	e = ev(COMBAT_INITIATIVE, NULL, NULL);
	init_add(e, "Ann", "9");
	e->init[0].ties = xstrdup("5");
	e->init[0].ties_virt = xstrdup("0");
	init_add(e, "Bob", "9");
	e->init[1].ties = xstrdup("3");
	e->init[1].ties_virt = xstrdup("0");
	init_add(e, "Cy", "10,2");
	is_int(run_keep(&s, e), 0, "initiative: Ann and Bob tie at 9");
	is_int(s.norder, 3, "initiative: three in the order");
	is_int(s.order[0], 2, "initiative: Cy first (10,2)");
	is_int(s.f[2].init_total, 12, "initiative: a 10 draws again: 12");
	is_int(s.order[1], 0, "initiative: Ann second (tie-break 5)");
	is_int(s.order[2], 1, "initiative: Bob third (tie-break 3)");
	is_int(s.f[0].init_total, 9, "initiative: Ann's total is 9");
	is_int(s.f[0].init_pos, 2, "initiative: Ann's place");
	is_int(e->init[0].pos, 2, "initiative: the event's place for Ann");
	is_str(e->init[1].ties, "3", "initiative: Bob's tie-break kept");
	is_int(deck_size(&s.f[0].deck), 10, "initiative: cards go back");
	drop(e);
	is_int(combat_next(&s), 2, "initiative: Cy acts next");
	is_int(act(&s, COMBAT_PASS, "Ann", NULL), -1, "initiative: not Ann");
	is_str(why, "'Cy' acts before 'Ann' in the initiative order: 'Cy' "
	    "acts or passes first, or the GM rules (--out-of-turn --reason "
	    "TEXT)", "initiative: why not");
	is_int(init(&s, abc), -1, "initiative: twice");
	is_str(why, "initiative is already drawn this round",
	    "initiative: why not twice");
	is_int(act(&s, COMBAT_PASS, "Cy", NULL), 0, "pass: Cy passes");
	is_int(s.f[2].acted, 1, "pass: Cy has acted");
	is_int(combat_next(&s), 0, "pass: Ann is next");
	is_int(act(&s, COMBAT_PASS, "Cy", NULL), -1, "pass: Cy again");
	is_str(why, "'Cy' has already acted this round", "pass: why not");
	combat_state_release(&s);
}

static void
test_attack(void)
{
	struct combat_state s;
	struct combat_event *e;

	setup(&s, COMBAT_RULES_CRS);
	is_int(range(&s, "Ann", "Bob", 20), 0, "range: Ann and Bob 20 ft");
	is_int(s.dist[1][0], 20, "range: both ways");
	is_int(range(&s, "Ann", "Ann", 5), -1, "range: Ann and Ann");
	is_str(why, "a distance is between two combatants", "range: why");
	is_int(range(&s, "Ann", "Cy", 7), -1, "range: 7 ft");
	is_str(why, "a distance is 0 to 100000 ft in 5 ft steps, not 7",
	    "range: why not 7");
	is_int(init(&s, abc), 0, "attack: initiative");
	is_int(range(&s, "Ann", "Cy", 10), -1, "range: after initiative");
	is_str(why, "distances are set at the start of a round, before "
	    "initiative", "range: why not now");
	e = attack("Ann", "Bob", COMBAT_SHORT, 0, "6", "4");
	is_int(run(&s, e), -1, "attack: short range at 20 ft");
	is_str(why, "'Bob' is 20 ft from 'Ann': short range needs 5 ft or "
	    "less (--long)", "attack: why not");
	e = attack("Ann", "Bob", COMBAT_LONG, 0, "5", "3");
	is_int(run_keep(&s, e), 0, "attack: long range at 20 ft");
	is_int(e->base, 10, "attack: base DR 10");
	is_int(e->offense, 15, "attack: 5 + DR 10");
	is_int(e->defense, 12, "attack: 3 + DR 9");
	is_int(e->hit, 1, "attack: a hit");
	is_int(e->damage, 3, "attack: 15 - 12");
	is_int(e->life_before, 25, "attack: Bob had 25");
	is_int(e->life_after, 22, "attack: Bob has 22");
	drop(e);
	is_int(s.f[1].life, 22, "attack: Bob's LIFE");
	is_int(s.f[0].halvings, 1, "attack: Ann's DR is halved");
	is_int(combat_dr_now(&s.f[0]), 5, "attack: to 5");
	e = attack("Bob", "Cy", COMBAT_SHORT, 3, "2", "9");
	is_int(run_keep(&s, e), 0, "attack: Bob puts 3 OR in");
	is_int(e->offense, 5, "attack: 2 + 3");
	is_int(e->defense, 17, "attack: 9 + DR 8");
	is_int(e->hit, 0, "attack: a miss");
	is_int(e->damage, 0, "attack: no damage");
	drop(e);
	is_int(combat_melee(&s, 2), UINT64_C(1) << 1,
	    "attack: Cy is in a melee with Bob");
	e = attack("Cy", "Ann", COMBAT_SHORT, 0, "A", NULL);
	is_int(run_keep(&s, e), 0, "attack: Cy draws an Ace");
	is_int(e->fumble, 1, "attack: a fumble");
	is_int(e->offense, 0, "attack: offence 0");
	is_int(e->defense, -1, "attack: no defence drawn");
	is_int(e->hit, 0, "attack: a miss");
	drop(e);
	combat_state_release(&s);
}

static void
test_mental(void)
{
	struct combat_state s;
	struct combat_event *e;

	setup(&s, COMBAT_RULES_CRS);
	is_int(init(&s, abc), 0, "mental: initiative");
	e = ev(COMBAT_MENTAL, "Ann", "Bob");
	e->kind = COMBAT_INTIMIDATION;
	e->cards = xstrdup("9");
	e->vs_cards = xstrdup("2");
	is_int(run_keep(&s, e), 0, "mental: Ann intimidates Bob");
	is_int(e->offense, 10, "mental: 9 + MIND 6 - 5");
	is_int(e->defense, 7, "mental: 2 + MIND 5");
	is_int(e->hit, 1, "mental: it succeeds");
	is_int(e->damage, 0, "mental: no damage");
	drop(e);
	is_int(s.f[1].intimidated, 1, "mental: Bob must pass");
	e = attack("Bob", "Cy", COMBAT_SHORT, 0, "5", "5");
	is_int(run(&s, e), -1, "mental: Bob may not attack");
	is_str(why, "'Bob' was intimidated and must pass this action",
	    "mental: why not");
	is_int(act(&s, COMBAT_PASS, "Bob", NULL), 0, "mental: Bob passes");
	is_int(s.f[1].intimidated, 0, "mental: and is free again");
	e = ev(COMBAT_MENTAL, "Cy", "Ann");
	e->kind = COMBAT_KIND_ATTACK;
	e->cards = xstrdup("10,2");
	e->vs_cards = xstrdup("3");
	is_int(run_keep(&s, e), 0, "mental: Cy's mental attack on Ann");
	is_int(e->offense, 16, "mental: 10,2 + MIND 4");
	is_int(e->defense, 9, "mental: 3 + MIND 6");
	is_int(e->damage, 7, "mental: 16 - 9");
	drop(e);
	is_int(s.f[0].life, 23, "mental: Ann's LIFE 30 -> 23");
	is_int(act(&s, COMBAT_ROUND, NULL, NULL), 0, "mental: round 2");
	is_int(init(&s, abc), 0, "mental: initiative again");
	e = ev(COMBAT_MENTAL, "Ann", "Cy");
	e->kind = COMBAT_COERCION;
	e->cards = xstrdup("10,2");
	e->vs_cards = xstrdup("4");
	is_int(run_keep(&s, e), 0, "mental: a Coercion of Cy");
	is_int(e->offense, 8, "mental: 10,2 + MIND 6 - 10");
	is_int(e->defense, 8, "mental: 4 + MIND 4");
	is_int(e->hit, 0, "mental: a tie fails");
	drop(e);
	combat_state_release(&s);
}

/* Ann (EM 10) uses a power, Zap: 3 EM, picks 1, +2, against DR. */
static struct combat_event *
zap(const char *target, int em, int picks, const char *card,
    const char *vs_card)
{
	struct combat_event *e = ev(COMBAT_POWER, "Ann", target);

	e->power.name = xstrdup("Zap");
	e->power.em = 3;
	e->power.picks = picks;
	e->power.bonus = 2;
	e->power.target = POWER_ONE;
	e->power.defend = POWER_VS_DR;
	e->em_spent = em;
	e->cards = card ? xstrdup(card) : NULL;
	e->vs_cards = vs_card ? xstrdup(vs_card) : NULL;
	return e;
}

static void
test_power(void)
{
	const char *const order[] = { "Ann", "9", "Bob", "8", NULL };
	struct combat_state s;
	struct combat_event *e;

	combat_state_init(&s);
	run(&s, ev(COMBAT_START, NULL, NULL));
	join_em(&s, "Ann", 8, 10, 6, 30, 10);
	join(&s, "Bob", 7, 9, 5, 25);
	is_int(init(&s, order), 0, "power: initiative");
	is_int(run(&s, zap("Bob", 2, 1, "7", "2")), -1, "power: 2 EM of 3");
	is_str(why, "'Zap' costs at least 3 EM, not 2", "power: why not");
	is_int(run(&s, zap("Bob", 11, 1, "7", "2")), -1, "power: 11 EM");
	is_str(why, "'Ann' has 10 EM left: 11 would take it below 0",
	    "power: why not 11");
	is_int(s.f[0].em, 10, "power: a refusal spends nothing");
	e = zap("Bob", 0, 1, "7", "2");
	is_int(run_keep(&s, e), 0, "power: Zap at its cost");
	is_int(e->em_spent, 3, "power: 3 EM spent");
	is_int(e->em_before, 10, "power: EM 10 before");
	is_int(e->em_after, 7, "power: EM 7 after");
	is_int(e->base, 5, "power: base 3 EM + 2");
	is_int(e->offense, 12, "power: 7 + 5");
	is_int(e->defense, 11, "power: 2 + DR 9");
	is_int(e->damage, 1, "power: 12 - 11");
	drop(e);
	is_int(s.f[0].em, 7, "power: Ann's EM is 7");
	is_int(s.f[1].life, 24, "power: Bob's LIFE is 24");
	is_int(run(&s, zap("Bob", 0, 1, "8", "3")), -1, "power: Ann again");
	is_str(why, "'Ann' has already acted this round", "power: why not");
	is_int(act(&s, COMBAT_PASS, "Bob", NULL), 0, "power: Bob passes");
	is_int(act(&s, COMBAT_ROUND, NULL, NULL), 0, "power: round 2");
	is_int(init(&s, order), 0, "power: initiative again");
	e = zap("Bob", 5, 0, NULL, "3");
	is_int(run_keep(&s, e), 0, "power: Zap with 5 EM and no pick");
	is_int(e->offense, 7, "power: 5 EM + 2, no card");
	is_int(e->defense, 12, "power: 3 + DR 9");
	is_int(e->hit, 0, "power: a miss");
	drop(e);
	is_int(s.f[0].em, 2, "power: EM 7 - 5");
	combat_state_release(&s);
}

static void
test_flee(void)
{
	struct combat_state s;
	struct combat_event *e;

	setup(&s, COMBAT_RULES_CRS);
	is_int(init(&s, abc), 0, "flee: initiative");
	e = ev(COMBAT_FLEE, "Ann", NULL);
	e->cards = xstrdup("2");
	init_add(e, "Bob", "10,3");
	init_add(e, "Cy", "3");
	e->time = 1000;
	is_int(run_keep(&s, e), 0, "flee: Ann tries");
	is_int(e->offense, 12, "flee: 2 + DR 10");
	is_int(e->init[0].total, 22, "flee: Bob's Catch 10,3 + DR 9");
	is_int(e->init[1].total, 11, "flee: Cy's Catch 3 + DR 8");
	is_int(e->defense, 22, "flee: the best Catch");
	is_int(e->hit, 0, "flee: caught");
	drop(e);
	is_int(s.f[0].fled, 0, "flee: Ann is still here");
	is_int(s.f[0].acted, 1, "flee: and has acted");
	e = ev(COMBAT_FLEE, "Bob", NULL);
	e->cards = xstrdup("8");
	init_add(e, "Bob", "9");
	is_int(run(&s, e), -1, "flee: Bob catching himself");
	is_str(why, "'Bob' cannot catch: he is the one fleeing",
	    "flee: why not");
	e = ev(COMBAT_FLEE, "Bob", NULL);
	e->cards = xstrdup("8");
	e->let = xstrdup("Cy");
	init_add(e, "Ann", "5");
	e->time = 1000;
	is_int(run_keep(&s, e), 0, "flee: Bob flees, Cy lets him go");
	is_int(e->ninit, 1, "flee: only Ann tries to catch him");
	is_int(e->offense, 17, "flee: 8 + DR 9");
	is_int(e->defense, 15, "flee: 5 + DR 10");
	is_int(e->hit, 1, "flee: he gets away");
	is_int(e->until, 1000 + COMBAT_LOCKOUT_SECS, "flee: for an hour");
	drop(e);
	is_int(s.f[1].fled, 1, "flee: Bob has fled");
	is_int(combat_standing(&s), 2, "flee: two still standing");
	e = ev(COMBAT_END, NULL, NULL);
	is_int(run(&s, e), -1, "end: two standing");
	is_str(why, "2 combatants are still standing: end --agreed if all "
	    "of them agree", "end: why not");
	e = ev(COMBAT_END, NULL, NULL);
	e->agreed = 1;
	e->time = 2000;
	is_int(run(&s, e), 0, "end: agreed");
	is_int(s.ended, 1, "end: ended");
	is_int(s.ended_at, 2000, "end: when");
	is_int(act(&s, COMBAT_PASS, "Cy", NULL), -1, "end: no more actions");
	is_str(why, "this combat has ended", "end: why not");
	e = ev(COMBAT_FLEE, "Cy", NULL);
	e->time = 2100;
	is_int(run_keep(&s, e), 0, "flee: Cy's free Flee at the end");
	is_int(e->free, 1, "flee: free");
	is_int(e->hit, 1, "flee: uncontested");
	is_int(e->until, 2100 + COMBAT_LOCKOUT_SECS, "flee: locked out");
	drop(e);
	is_int(act(&s, COMBAT_FLEE, "Cy", NULL), -1, "flee: twice");
	is_str(why, "'Cy' has fled already", "flee: why not twice");
	is_int(act(&s, COMBAT_UNDO, NULL, NULL), 0,
	    "undo: the engine lets the ledger undo");
	is_int(s.ended, 1, "undo: and changes nothing");
	combat_state_release(&s);
}

static void
test_dead(void)
{
	const char *const order[] = { "Ann", "9", "Dee", "8", NULL };
	struct combat_state s;
	struct combat_event *e;

	combat_state_init(&s);
	run(&s, ev(COMBAT_START, NULL, NULL));
	join(&s, "Ann", 8, 10, 6, 30);
	join(&s, "Dee", 4, 6, 3, 3);
	range(&s, "Ann", "Dee", 5);
	is_int(act(&s, COMBAT_DEAD, "Dee", NULL), -1, "dead: Dee is up");
	is_str(why, "'Dee' is not down (LIFE 3): only a combatant at LIFE 0 "
	    "can have died", "dead: why not");
	is_int(init(&s, order), 0, "dead: initiative");
	e = attack("Ann", "Dee", COMBAT_SHORT, 0, "9", "2");
	is_int(run_keep(&s, e), 0, "dead: Ann strikes Dee");
	is_int(e->damage, 9, "dead: 17 - 8");
	is_int(e->life_after, 0, "dead: LIFE never below 0");
	drop(e);
	is_int(combat_next(&s), -1, "dead: Dee, down, does not act");
	is_int(act(&s, COMBAT_DEAD, "Dee", NULL), 0, "dead: Dee died");
	is_int(s.f[1].dead, 1, "dead: dead");
	is_int(act(&s, COMBAT_DEAD, "Dee", NULL), -1, "dead: twice");
	is_str(why, "'Dee' is already dead", "dead: why not twice");
	is_int(act(&s, COMBAT_END, NULL, NULL), 0, "end: one standing");
	combat_state_release(&s);
}

/* A GM's event with a ruling (issue #39): an adjust, or an action. */
static struct combat_event *
ruled(int action, const char *actor, const char *adjust, const char *reason)
{
	struct combat_event *e = ev(action, actor, NULL);

	e->adjust = adjust ? xstrdup(adjust) : NULL;
	e->ruling = reason ? xstrdup(reason) : NULL;
	return e;
}

/*
 * Rulings: an adjust keeps LIFE and EM within 0 and the sheet's, needs
 * a reason, never reaches the dead; out of turn lifts only the order.
 */
static void
test_ruling(void)
{
	const char *const order[] = { "Ann", "9", "Bob", "8", "Cy", "7",
	    NULL };
	struct combat_state s;
	struct combat_event *e;

	setup(&s, COMBAT_RULES_CRS);
	is_int(init(&s, order), 0, "ruling: initiative");
	is_int(run(&s, ruled(COMBAT_PASS, "Cy", NULL, NULL)), -1,
	    "ruling: Cy not in turn");
	is_int(run(&s, ruled(COMBAT_PASS, "Cy", NULL, "not ready")), 0,
	    "ruling: Cy out of turn");
	is_int(combat_next(&s), 0, "ruling: Ann still next");
	is_int(run(&s, ruled(COMBAT_PASS, "Cy", NULL, "again")), -1,
	    "ruling: once a round all the same");
	is_str(why, "'Cy' has already acted this round", "ruling: why not");
	e = ruled(COMBAT_ADJUST, "Bob", "LIFE=-5", "prop broke");
	is_int(run_keep(&s, e), 0, "ruling: Bob LIFE -5");
	is_int(e->life_before, 25, "ruling: LIFE before");
	is_int(e->life_after, 20, "ruling: LIFE after");
	is_int(e->em_after, -1, "ruling: Bob has no EM");
	drop(e);
	is_int(s.f[1].life, 20, "ruling: the state's LIFE");
	is_int(run(&s, ruled(COMBAT_ADJUST, "Bob", "LIFE=+6", "heal")), -1,
	    "ruling: not above the sheet");
	is_str(why, "LIFE would be 26: 'Bob' has LIFE 0 to 25 (the sheet's)",
	    "ruling: why not");
	is_int(run(&s, ruled(COMBAT_ADJUST, "Bob", "EM=1", "em")), -1,
	    "ruling: no EM to adjust");
	is_int(run(&s, ruled(COMBAT_ADJUST, "Bob", "LIFE=20", "same")), -1,
	    "ruling: nothing changes");
	is_int(run(&s, ruled(COMBAT_ADJUST, "Bob", "LIFE=1", NULL)), -1,
	    "ruling: no reason, no ruling");
	is_int(run(&s, ruled(COMBAT_ADJUST, "Bob", "LIFE=0", "fell")), 0,
	    "ruling: Bob down");
	is_int(act(&s, COMBAT_DEAD, "Bob", NULL), 0, "ruling: Bob died");
	is_int(run(&s, ruled(COMBAT_ADJUST, "Bob", "LIFE=5", "back")), -1,
	    "ruling: not the dead");
	is_str(why, "'Bob' has died: a ruling adjusts only a fighter still in "
	    "the combat", "ruling: why not the dead");
	combat_state_release(&s);
}

static void
test_charge_swap(void)
{
	const char *const order[] = { "Bob", "9", "Ann", "8", "Cy", "7", NULL };
	struct combat_state s;
	struct combat_event *e;

	setup(&s, COMBAT_RULES_AVATAR);
	range(&s, "Ann", "Bob", 30);
	range(&s, "Ann", "Cy", 30);
	is_int(init(&s, order), 0, "charge: initiative");
	e = attack("Bob", "Ann", COMBAT_LONG, 0, "2", "10,4");
	is_int(run(&s, e), 0, "charge: Bob shoots at Ann");
	is_int(s.f[1].last_long_at, 0, "charge: at Ann");
	e = ev(COMBAT_CHARGE, "Ann", NULL);
	init_add(e, "Bob", "x");
	e->init[0].in = 10;
	is_int(run(&s, e), 0, "charge: Ann charges to 10 ft from Bob");
	is_int(s.dist[0][1], 10, "charge: 10 ft from Bob");
	is_int(s.dist[0][2], COMBAT_DIST_UNKNOWN, "charge: Cy, unknown");
	is_int(s.f[0].acted, 1, "charge: Ann has acted");
	is_int(s.f[1].free_offer, 0, "charge: Bob may act at Ann, free");
	is_int(s.f[2].free_offer, -1, "charge: Cy may not");
	e = ev(COMBAT_SWAP, "Cy", NULL);
	e->item.name = xstrdup("Bow");
	e->free = 1;
	is_int(run(&s, e), -1, "swap: Cy has no free Item Swap");
	is_str(why, "'Cy' has no free Item Swap: only one whose last action "
	    "was a long range action at the charger, right after the Charge",
	    "swap: why not");
	e = ev(COMBAT_SWAP, "Bob", NULL);
	e->item.name = xstrdup("Bow");
	e->free = 1;
	is_int(run(&s, e), 0, "swap: Bob's free Item Swap");
	is_int(s.f[1].free_offer, -1, "swap: the free action is used");
	is_int(s.f[1].acted, 1, "swap: Bob had acted already");
	e = ev(COMBAT_SWAP, "Cy", NULL);
	e->item.name = xstrdup("Bow");
	is_int(run(&s, e), 0, "swap: Cy's Item Swap is his action");
	is_int(s.f[2].acted, 1, "swap: Cy has acted");
	combat_state_release(&s);

	setup(&s, COMBAT_RULES_CRS);
	is_int(init(&s, abc), 0, "charge: initiative, all at 5 ft");
	is_int(act(&s, COMBAT_CHARGE, "Ann", NULL), -1, "charge: from 5 ft");
	is_str(why, "'Ann' is 5 ft from 'Bob', who objects: no Charge (--let "
	    "NAME if he does not)", "charge: why not");
	is_int(act(&s, COMBAT_PASS, "Ann", NULL), 0, "swap: Ann passes");
	e = ev(COMBAT_SWAP, "Bob", NULL);
	e->item.name = xstrdup("Bow");
	is_int(run(&s, e), -1, "swap: under the CRS");
	is_str(why, "Item Swap is an Avatar 2.6 action (start --rules "
	    "avatar)", "swap: why not");
	is_int(act(&s, COMBAT_BLOW, "Bob", "Bob"), -1, "blow: for himself");
	is_str(why, "'Bob' cannot take a blow for himself", "blow: why not");
	is_int(act(&s, COMBAT_BLOW, "Bob", "Ann"), 0, "blow: Bob for Ann");
	is_int(s.f[1].protecting, 0, "blow: Bob protects Ann");
	is_int(s.f[0].protected_by, 1, "blow: Ann is protected by Bob");
	e = attack("Cy", "Ann", COMBAT_SHORT, 0, "10,2", "2");
	is_int(run_keep(&s, e), 0, "blow: Cy strikes at Ann");
	is_str(e->target, "Bob", "blow: Bob is struck");
	is_str(e->aimed, "Ann", "blow: it was aimed at Ann");
	is_int(e->damage, 17 - 11, "blow: 10,2 + 5 against 2 + 9");
	drop(e);
	is_int(s.f[1].life, 19, "blow: Bob's LIFE 25 -> 19");
	is_int(s.f[0].life, 30, "blow: Ann is untouched");
	combat_state_release(&s);
}

/* LIFE and EM come back ten minutes after the end, never to the dead. */
static void
test_restore(void)
{
	struct combat_state s;
	struct combat_event *e;

	setup(&s, COMBAT_RULES_CRS);
	is_int(init(&s, abc), 0, "restore: initiative");
	e = attack("Ann", "Bob", COMBAT_SHORT, 0, "6", "2");
	is_int(run(&s, e), 0, "restore: Ann hits Bob for 3");
	is_int(s.f[1].life, 22, "restore: Bob's LIFE 25 -> 22");
	is_int(combat_to_restore(&s.f[1]), 1, "restore: Bob has LIFE to get");
	is_int(combat_to_restore(&s.f[0]), 0, "restore: Ann has not");
	is_int(combat_restores_at(&s), 0, "restore: not while it goes on");
	is_int(combat_restored(&s, &s.f[1], INT32_MAX), 0,
	    "restore: nothing back before the end");
	e = ev(COMBAT_END, NULL, NULL);
	e->agreed = 1;
	e->time = 1000;
	is_int(run(&s, e), 0, "restore: the end, at 1000");
	is_int(combat_restores_at(&s), 1000 + COMBAT_RESTORE_SECS,
	    "restore: ten minutes later");
	is_int(combat_restored(&s, &s.f[1], 1599), 0,
	    "restore: not a second before");
	is_int(combat_restored(&s, &s.f[1], 1600), 1, "restore: back at 1600");
	s.f[1].dead = 1;
	is_int(combat_restored(&s, &s.f[1], 1600), 0,
	    "restore: never for the dead");
	is_int(combat_to_restore(&s.f[1]), 0, "restore: the dead get nothing");
	combat_state_release(&s);
}

int
main(void)
{
	test_full_or(COMBAT_RULES_CRS);
	test_full_or(COMBAT_RULES_AVATAR);
	test_blow_carry();
	test_surprise();
	test_stops_targets();
	test_start();
	test_join();
	test_stance_round();
	test_initiative();
	test_attack();
	test_mental();
	test_power();
	test_flee();
	test_dead();
	test_ruling();
	test_charge_swap();
	test_restore();
	return tap_done();
}
