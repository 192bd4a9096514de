/*
 * combat.h - a CRS combat, round by round (seed 002, "Combat", "Combat
 * Actions", "Mental Combat"; RULINGS section 1): combatants and their
 * LIFE, decks and stances; initiative with tie-breaks; short range, long
 * range and mental actions; passing; rounds and their Clean Up; the end.
 *
 * Also the full action set (seed 002 "Combat Actions", seed 001 for the
 * Avatar 2.6 rules): distances and the Melee Check, Flee, Charge and its
 * free actions, Taking a Blow, Surprise actions, reactions, supplemental
 * items, powers and named skills.
 *
 * Pure.  The state is never stored: it is what executing the combat's
 * events in order gives.  combat_execute both runs a new event (drawing its
 * virtual cards from the event's seed) and re-runs a recorded one (the
 * typed cards as typed, the virtual ones drawn again from the seed), so
 * that the ledger can be replayed and audited through the same code.
 */
#ifndef REFKIT_COMBAT_H
#define REFKIT_COMBAT_H

#include <stddef.h>
#include <stdint.h>

#include "crs/deck.h"
#include "crs/item.h"

#define COMBAT_FIGHTERS_MAX	64
/* How long after a combat LIFE and EM come back, in seconds. */
#define COMBAT_RESTORE_SECS	600

enum combat_action {
	COMBAT_START, COMBAT_JOIN, COMBAT_ROUND, COMBAT_STANCE,
	    COMBAT_INITIATIVE, COMBAT_ATTACK,
	COMBAT_MENTAL, COMBAT_PASS, COMBAT_UNDO, COMBAT_END, COMBAT_DEAD,
	    COMBAT_RANGE, COMBAT_FLEE,
	COMBAT_CHARGE, COMBAT_BLOW, COMBAT_POWER, COMBAT_SWAP,
	COMBAT_ADJUST,		/* a GM's ruling on LIFE and EM */
	    COMBAT_ACTION_COUNT
};

enum combat_rules { COMBAT_RULES_CRS, COMBAT_RULES_AVATAR };

/* The flee lockout: the CRS leaves it to the game; Avatar 2.6, one hour. */
#define COMBAT_LOCKOUT_SECS		3600
#define COMBAT_LOCKOUT_MAX		(7 * 24 * 3600)
/* Distances, in feet, in 5 ft steps. */
#define COMBAT_FEET_MAX		100000
#define COMBAT_DIST_UNKNOWN		(-1)
#define COMBAT_DIST_LONG		(-2)	/* more than 5 ft,
    how far unknown */
/* Named skills: "Name=+3;Other=-1". */
#define COMBAT_SKILLS_MAX		16

enum combat_kind { COMBAT_KIND_ATTACK, COMBAT_SUGGESTION, COMBAT_INTIMIDATION,
    COMBAT_COERCION };

enum combat_range { COMBAT_SHORT, COMBAT_LONG };

/* A combatant's numbers as they joined; -1 where the sheet has none. */
struct combat_stats {
	int	or_, dr, mind, life, in, em, lb;
	int	mod_offense, mod_defense, mod_pick;	/* always-on items */
};

/* A supplemental item as it was used (its figures are kept with the event). */
struct combat_gear {
	char	*name;		/* owned; NULL: none */
	int	 mod[ITEM_MOD_COUNT];
	int	 range;		/* enum item_range */
	int	 full_or;
};

/* A power as it was used. */
struct combat_power {
	char	*name;		/* owned; NULL: none */
	int	 em, picks, bonus;
	int	 target;	/* enum power_target */
	int	 defend;	/* enum power_defend */
};

/*
 * One combatant's entry in a list: an initiative draw; a Catch against a
 * flee (in holds the Catch's base); a new distance after a Charge (in
 * holds the feet).
 */
struct combat_init {
	char	*name;		/* owned */
	char	*cards;		/* owned: as drawn, or as typed if !virt */
	int	 virt;
	char	*ties;		/* owned: tie-break picks, ';' between picks */
	char	*ties_virt;	/* owned: '1' or '0' per tie-break pick */
	int	 in;
	int	 total;
	int	 pos;		/* place in the order, from 1 */
};

struct combat_event {
	int64_t		 seq;
	int		 round;
	int		 action;	/* enum combat_action */
	char		*actor;		/* owned, may be NULL */
	char		*target;	/* owned, may be NULL */
	/* What the GM said. */
	int		 range;		/* enum combat_range */
	int		 kind;		/* enum combat_kind */
	int		 use;		/* OR/DR/MIND put in; 0 = all */
	int		 mod, vs_mod;
	char		*cards;		/* owned: typed, or as drawn */
	int		 virt;
	char		*vs_cards;	/* owned */
	int		 vs_virt;
	int		 special;	/* defender's special card: face, 0 =
					   none left, -1 = no special draw */
	int64_t		 undoes;
	int		 shares;	/* a further target of the strike just
					   before: its offence, no new pick */
	int		 agreed;
	struct combat_stats	 stats;		/* join */
	int		 ninit;
	struct combat_init	*init;		/* owned: initiative */
	uint64_t	 seed;		/* for the virtual draws */
	/* What came of it. */
	int		 base, vs_base;
	int		 offense, defense;	/* defense -1: not drawn */
	int		 hit, damage;
	int		 life_before, life_after;	/* the target's */
	int		 fumble, vs_fumble;
	/* The full action set. */
	char		*aimed;		/* owned: the declared target, when
					   someone else was struck */
	char		*melee_pick;	/* owned: a typed melee draw */
	int		 melee_n;	/* drawn among this many in a melee */
	char		*melee_drawn;	/* owned: whom the draw picked */
	struct combat_gear	 item, vs_item;	/* supplemental items */
	char		*skills;	/* owned: "Name=+3;Other=-1" */
	char		*vs_skills;	/* owned */
	struct combat_power	 power;
	int		 em_spent;	/* in: 0 = the minimum */
	int		 em_before, em_after;	/* the actor's; -1: none */
	int		 feet;		/* range */
	int64_t		 until;		/* flee: the lockout's end */
	int		 free;		/* a free action */
	int		 surprise;	/* a Surprise action */
	int		 negated;	/* a reaction negated it */
	char		*let;		/* owned: "A;B": who lets a flee or a
					   charge go unopposed */
	char		*reactor;	/* owned: who reacts (step 6) */
	int		 react_base, react_need;
	char		*react_cards;	/* owned */
	int		 react_virt;
	int		 react_total, react_fumble;
	int		 rules;		/* start: enum combat_rules */
	int64_t		 lockout;	/* start: seconds */
	/*
	 * A GM's ruling (core/ruling.h): its reason, owned, or NULL.  On
	 * an action it lets the actor act out of the initiative order; an
	 * adjust's changes ("LIFE=+3 EM=-2", owned) are in adjust, its
	 * outcome in life_before ... em_after.
	 */
	char		*ruling;
	char		*adjust;
	/* Bookkeeping. */
	char		*gm;		/* owned, may be NULL */
	int64_t		 time;
};

enum combat_presence { COMBAT_PENDING, COMBAT_ACTIVE };

struct combat_fighter {
	char		*name;		/* owned */
	struct combat_stats	 st;
	int		 presence;	/* enum combat_presence */
	int		 life, em;
	struct deck	 deck;
	int		 stance;	/* Defensive Stance this round */
	int		 halvings;	/* long range actions this round */
	int		 acted;		/* acted or passed this round */
	int		 intimidated;	/* must pass its next action */
	int		 dead;		/* died: LIFE and EM never come back */
	int		 init_total;
	int		 init_pos;	/* 0: no initiative this round */
	int		 fled;		/* fled the combat */
	int64_t		 until;		/* ... and may not fight until then */
	int		 melee_with;	/* short range target of his last
					   action, or -1 (Melee Check A) */
	uint64_t	 hit_by;	/* attacked at short range by these
					   since his last action (check B) */
	int		 protecting;	/* Taking a Blow for, or -1 */
	int		 protected_by;	/* -1: nobody takes blows for him */
	int		 was_protecting;	/* last round's, to carry on */
	int		 blow_carry;	/* carried on at step 1: no action */
	int		 shielded;	/* took short range blows aimed at
					   this one (Taking a Blow), or -1 */
	uint64_t	 shielded_from;	/* ... from these attackers, since
					   his last action (part of hit_by) */
	int		 last_long_at;	/* his last action was a long range
					   action at this one; -1: not */
	int		 free_offer;	/* may take a free action at this
					   charger now; -1: none */
	int		 cowed;		/* intimidated this round: no Catch */
};

struct combat_state {
	int			 rules;		/* enum combat_rules */
	int64_t			 lockout;	/* flee lockout, seconds */
	int			 struck;	/* an action has been taken */
	int			 round;
	int			 ended;
	int			 agreed;
	int64_t			 started;
	int64_t			 ended_at;
	int			 init_done;
	int			 n;
	struct combat_fighter	 f[COMBAT_FIGHTERS_MAX];
	int			 norder;
	int			 order[COMBAT_FIGHTERS_MAX];	/* into f */
	/* The strike just executed, which a further target may share. */
	int			 last_actor;	/* -1: none */
	int			 last_kind;
	int			 last_base, last_offense, last_fumble;
	int			 last_action;
	int			 dist[COMBAT_FIGHTERS_MAX][COMBAT_FIGHTERS_MAX];
};

void combat_state_init(struct combat_state *s);
void combat_state_release(struct combat_state *s);
void combat_event_init(struct combat_event *e);
void combat_event_release(struct combat_event *e);

/*
 * Runs event e against s.  Inputs are e's GM-side fields and, for sides
 * with virt == 0, the typed cards; virtual draws come from e->seed.  On
 * success fills e's outcome (and the cards drawn), updates s and returns
 * 0.  Refuses with -1 and why set, leaving s as it was.  COMBAT_UNDO is the
 * ledger's business: here it only checks the combat is there.
 */
int combat_execute(struct combat_state *s, struct combat_event *e, char *why,
    size_t whysz);

/* The combatant called name, or -1. */
int combat_find(const struct combat_state *s, const char *name);

/* Who acts next in the initiative order, or -1 (none, or no order yet). */
int combat_next(const struct combat_state *s);

/*
 * DR now: the joined DR, doubled by a Defensive Stance, then halved
 * (rounding up) once per long range action this round; -1 if none.
 */
int combat_dr_now(const struct combat_fighter *f);

/* Combatants still standing (in, LIFE above 0, not fled). */
int combat_standing(const struct combat_state *s);

/*
 * The members of i's melee (RULINGS: the Melee Check) other than i, who
 * are still in the fight, as a bit set over s->f.
 */
uint64_t combat_melee(const struct combat_state *s, int i);

/*
 * Sums named skills "Name=+3;Other=-1"; returns 0, or -1 with why set.
 * dodge, if not NULL, is set when one of them is a dodging skill
 * (Acrobatics, Fluid Motion, or a name that starts with "Dodg").
 */
int combat_skills_sum(const char *skills, int *sum, int *dodge, char *why,
    size_t whysz);

const char *combat_rules_name(int rules);

/* The counters an adjust may change: "LIFE", "EM", NULL. */
extern const char *const combat_adjust_names[];

const char *combat_action_name(int action);
int combat_action_lookup(const char *name);
const char *combat_kind_name(int kind);
int combat_kind_lookup(const char *name);

/*
 * LIFE and EM come back COMBAT_RESTORE_SECS after the end, but never to
 * the dead.  combat_restores_at is when, or 0 while the combat goes on;
 * combat_restored says whether f's are back at now; combat_to_restore
 * whether f has any LIFE or EM to get back.
 */
int64_t combat_restores_at(const struct combat_state *s);
int combat_restored(const struct combat_state *s,
    const struct combat_fighter *f, int64_t now);
int combat_to_restore(const struct combat_fighter *f);

/*
 * 1 if an executed strike e stops the strike it belongs to: a reaction
 * negated it, and a negated action reaches no more targets (step 6).
 */
int combat_stops_targets(const struct combat_event *e);

/*
 * 1 if an action may have several targets, sharing one offence: an
 * Intimidation (kind), or a power whose target is POWER_GROUP.
 */
int combat_several_targets(int action, int kind, int power_target);

/* Faces of a pick as "10,7" (newly allocated). */
char *combat_faces(const struct deck_pick *p);

#endif
