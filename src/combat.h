/*
 * combat.h - a CRS combat, round by round (seed 002, "Combat", "Combat
 * Actions", "Mental Combat"; RULINGS section 1): combatants and their
 * LIFE, decks and stances; initiative with tie-breaks; short range, long
 * range and mental actions; passing; rounds and their Clean Up; the end.
 *
 * Pure.  The state is never stored: it is what executing the combat's
 * events in order gives.  cb_execute both runs a new event (drawing its
 * virtual cards from the event's seed) and re-runs a recorded one (the
 * typed cards as typed, the virtual ones drawn again from the seed), so
 * that the ledger can be replayed and audited through the same code.
 */
#ifndef REFKIT_COMBAT_H
#define REFKIT_COMBAT_H

#include <stddef.h>
#include <stdint.h>

#include "deck.h"

#define CB_FIGHTERS_MAX	64
/* How long after a combat LIFE and EM come back, in seconds. */
#define CB_RESTORE_SECS	600

enum cb_action {
	CB_START, CB_JOIN, CB_ROUND, CB_STANCE, CB_INITIATIVE, CB_ATTACK,
	CB_MENTAL, CB_PASS, CB_UNDO, CB_END, CB_DEAD, CB_ACTION_COUNT
};

enum cb_kind { CB_KIND_ATTACK, CB_SUGGESTION, CB_INTIMIDATION, CB_COERCION };

enum cb_range { CB_SHORT, CB_LONG };

/* A combatant's numbers as they joined; -1 where the sheet has none. */
struct cb_stats {
	int	or_, dr, mind, life, in, em, lb;
	int	mod_offense, mod_defense, mod_pick;	/* always-on items */
};

/* One combatant's initiative draw. */
struct cb_init {
	char	*name;		/* owned */
	char	*cards;		/* owned: as drawn, or as typed if !virt */
	int	 virt;
	char	*ties;		/* owned: tie-break picks, ';' between picks */
	char	*ties_virt;	/* owned: '1' or '0' per tie-break pick */
	int	 in;
	int	 total;
	int	 pos;		/* place in the order, from 1 */
};

struct cb_event {
	int64_t		 seq;
	int		 round;
	int		 action;	/* enum cb_action */
	char		*actor;		/* owned, may be NULL */
	char		*target;	/* owned, may be NULL */
	/* What the GM said. */
	int		 range;		/* enum cb_range */
	int		 kind;		/* enum cb_kind */
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
	struct cb_stats	 stats;		/* join */
	int		 ninit;
	struct cb_init	*init;		/* owned: initiative */
	uint64_t	 seed;		/* for the virtual draws */
	/* What came of it. */
	int		 base, vs_base;
	int		 offense, defense;	/* defense -1: not drawn */
	int		 hit, damage;
	int		 life_before, life_after;	/* the target's */
	int		 fumble, vs_fumble;
	/* Bookkeeping. */
	char		*gm;		/* owned, may be NULL */
	int64_t		 time;
};

enum cb_presence { CB_PENDING, CB_ACTIVE };

struct cb_fighter {
	char		*name;		/* owned */
	struct cb_stats	 st;
	int		 presence;	/* enum cb_presence */
	int		 life, em;
	struct deck	 deck;
	int		 stance;	/* Defensive Stance this round */
	int		 halvings;	/* long range actions this round */
	int		 acted;		/* acted or passed this round */
	int		 intimidated;	/* must pass its next action */
	int		 dead;		/* died: LIFE and EM never come back */
	int		 init_total;
	int		 init_pos;	/* 0: no initiative this round */
};

struct cb_state {
	int			 round;
	int			 ended;
	int			 agreed;
	int64_t			 started;
	int64_t			 ended_at;
	int			 init_done;
	int			 n;
	struct cb_fighter	 f[CB_FIGHTERS_MAX];
	int			 norder;
	int			 order[CB_FIGHTERS_MAX];	/* indexes into f */
	/* The strike just executed, which a further target may share. */
	int			 last_actor;	/* -1: the last event was none */
	int			 last_kind;
	int			 last_base, last_offense, last_fumble;
};

void cb_state_init(struct cb_state *s);
void cb_state_release(struct cb_state *s);
void cb_event_init(struct cb_event *e);
void cb_event_release(struct cb_event *e);

/*
 * Runs event e against s.  Inputs are e's GM-side fields and, for sides
 * with virt == 0, the typed cards; virtual draws come from e->seed.  On
 * success fills e's outcome (and the cards drawn), updates s and returns
 * 0.  Refuses with -1 and why set, leaving s as it was.  CB_UNDO is the
 * ledger's business: here it only checks the combat is there.
 */
int cb_execute(struct cb_state *s, struct cb_event *e, char *why,
    size_t whysz);

/* The combatant called name, or -1. */
int cb_find(const struct cb_state *s, const char *name);

/* Who acts next in the initiative order, or -1 (none, or no order yet). */
int cb_next(const struct cb_state *s);

/*
 * DR now: the joined DR, doubled by a Defensive Stance, then halved
 * (rounding up) once per long range action this round; -1 if none.
 */
int cb_dr_now(const struct cb_fighter *f);

/* Combatants still standing (in, LIFE above 0). */
int cb_standing(const struct cb_state *s);

const char *cb_action_name(int action);
int cb_action_lookup(const char *name);
const char *cb_kind_name(int kind);
int cb_kind_lookup(const char *name);

/* Faces of a pick as "10,7" (newly allocated). */
char *cb_faces(const struct deck_pick *p);

#endif
