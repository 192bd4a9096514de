/*
 * test_combat.c - the combat engine alone, without a database: events
 * built by hand with typed cards, executed against a state, so that each
 * rule the engine holds can be checked by its numbers and its refusals.
 */
#include "tap.h"

#include "crs/combat.h"
#include "core/util.h"

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
	why[0] = '\0';
	return combat_execute(s, e, why, sizeof why);
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

int
main(void)
{
	test_full_or(COMBAT_RULES_CRS);
	test_full_or(COMBAT_RULES_AVATAR);
	test_blow_carry();
	test_surprise();
	test_stops_targets();
	return tap_done();
}
