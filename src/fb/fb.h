/*
 * fb.h - the rules of Force Battles Advanced (fb-duel), pure: the board as
 * data, sheets and stances with their limits, and a duel played stage by
 * stage (GEAS, initiative, target, the round).  No I/O, no database, no
 * hidden randomness: dice come from the caller's generator or are given,
 * and every die used is written back into the input, so that a recorded
 * input replays the same duel.  See fb-duel(1) for the rulings.
 */
#ifndef REFKIT_FB_H
#define REFKIT_FB_H

#include <stddef.h>
#include <stdint.h>

#include "base/rng.h"

#define FB_MAXS		8	/* spheres a board may have */
#define FB_NT		6	/* targets, one per role */
#define FB_NAMESZ	24
#define FB_CAP		4	/* counters a sphere holds at most */
#define FB_ATTDEF_MAX	10	/* counters ATT or DEF hold at most */
#define FB_AUTO_MISS	11	/* a Hit or Block Die this high misses */
#define FB_WHYSZ	160

/* Target roles; a board's targets are indexed by them. */
enum fb_target {
	FB_HEAD, FB_LARM, FB_RARM, FB_TORSO, FB_LLEG, FB_RLEG
};

enum fb_side { FB_LIGHT, FB_DARK };
enum fb_hand { FB_LEFT, FB_RIGHT };
enum fb_level { FB_LEARNER, FB_INITIATE, FB_TEMPLAR, FB_DIAMEDES };

enum fb_geas {
	FB_PUSH, FB_PULL, FB_JUMP, FB_SIGHT, FB_SPEED, FB_HIDE, FB_MINDTRICK,
	FB_HEAL, FB_PROTECT, FB_ABSORB, FB_LIGHTNING, FB_RAGE, FB_CHOKE,
	FB_NGEAS,
	FB_CONVERT = FB_NGEAS	/* the Light side's gift; not a slot */
};

enum fb_colour {
	FB_GREEN, FB_ORANGE, FB_BLUE, FB_RED, FB_PURPLE, FB_YELLOW, FB_NCOLOUR
};

/*
 * A board: six targets (one per role) with their faces on the two
 * target tables, and up to FB_MAXS spheres, each touching a set of
 * targets.  face[t] is t's number on the table of a Light right-hander
 * (and a Dark left-hander); alt[t] its number on the other table.
 */
struct fb_board {
	char		name[FB_NAMESZ];
	char		tname[FB_NT][FB_NAMESZ];
	int		face[FB_NT], alt[FB_NT];
	int		ns;
	char		sname[FB_MAXS][FB_NAMESZ];
	unsigned	touch[FB_MAXS];	/* bit t: touches target t */
	int		center;		/* the center sphere */
	unsigned	lower;		/* bit s: one of the bottom spheres */
	int		table[2][7];	/* [alt][face] -> target */
	int		tn[FB_NT];	/* spheres touching each target */
	int		tsph[FB_NT][FB_MAXS];
};

/* The default board of RULINGS 2. */
void fb_board_default(struct fb_board *b);

/*
 * Finishes a board whose names, faces, touches, center and lower are
 * filled in: checks it and builds the tables.  Returns 0, or -1 with why.
 */
int fb_board_finish(struct fb_board *b, char *why, size_t whysz);

/* Sphere or target index by name (case-insensitive), or -1. */
int fb_sphere_find(const struct fb_board *b, const char *name);
int fb_target_find(const struct fb_board *b, const char *name);
/* 1 if sphere s and target t touch. */
int fb_touches(const struct fb_board *b, int s, int t);

/* Names, and lookups by name (-1 if unknown). */
const char *fb_geas_name(int g);	/* "mind-trick", "convert" */
int fb_geas_find(const char *name);	/* "lightning-absorb" too */
const char *fb_side_name(int side);
const char *fb_hand_name(int hand);		/* "left", "right" */
int fb_role_find(const char *name);		/* "left-arm" -> FB_LARM */
/*
 * 1 if s is a usable name for a duelist, board, sphere or target: 1 to
 * max letters, digits, '-', '_' or '.' (one word, so that stored inputs
 * can name it).
 */
int fb_name_ok(const char *s, size_t max);
const char *fb_level_name(int level);
int fb_level_find(const char *name);
const char *fb_colour_name(int c);
int fb_colour_find(const char *name);
const char *fb_role_name(int t);	/* "head", "left-arm" ... */
/* Counters a level has, and the Light/Dark limit of a GEAS. */
int fb_level_total(int level);
/* -1 open to both, else the only side that may use it. */
int fb_geas_side(int g);

/* A sheet's stance: counters in each slot; the rest is the pool. */
struct fb_stance {
	int		sph[FB_MAXS];
	int		att, def;
	int		geas[FB_NGEAS];
};

struct fb_sheet {
	int		side, hand, colour, level;
	int		free_geas;	/* DIAMEDES only; -1 none */
	struct fb_stance st;
};

/* The default stance: 3 in every sphere, then ATT and DEF 5 each. */
void fb_stance_default(const struct fb_board *b, struct fb_stance *st);

/* Counters a stance places, and those it leaves for the pool. */
int fb_stance_placed(const struct fb_board *b, const struct fb_stance *st);

/*
 * Checks a sheet against its level and side.  Calls bad(arg, message)
 * once for each broken limit and returns how many there were.
 */
int fb_sheet_check(const struct fb_board *b, const struct fb_sheet *sh,
    void (*bad)(void *, const char *), void *arg);

/* One duelist in a duel. */
struct fb_player {
	int		side, hand, colour, level, free_geas;
	int		sph[FB_MAXS];
	int		att, def;
	int		geas[FB_NGEAS];
	int		pool;
	int		gift;	/* the foe's counters in my center sphere */
	int		legs;	/* bit 0 left leg hit, bit 1 right leg hit */
	int		turned;	/* times this duelist changed side */
};

enum fb_stage { FB_OPEN, FB_INIT, FB_AIMED };

enum fb_outcome {
	FB_O_NONE, FB_O_PASS, FB_O_HITBLOCK, FB_O_BOTCHBLOCK,
	FB_O_DOUBLEBOTCH, FB_O_HIT, FB_O_KICK, FB_O_CHOKE
};

enum fb_end {
	FB_E_NONE, FB_E_MAIMED, FB_E_CUTOFF, FB_E_LEGS, FB_E_CONVERTED,
	FB_E_LIMIT
};

/* What was declared for the round under way, and by whom. */
struct fb_decl {
	unsigned	used[2];	/* bit g: GEAS g used this round */
	int		rage, protect;	/* counters committed */
	int		sight_target, mt_target;
	int		choke;		/* the attacker chokes */
	int		heal, push, pull, jump;
};

struct fb_state {
	const struct fb_board *b;	/* the caller's, outlives the state */
	struct fb_player p[2];
	int		 total;		/* counters in the duel, for checks */
	int		 round;		/* the round under way, from 1 */
	int		 stage;
	int		 attacker;	/* this round's, once initiative is rolled */
	int		 last_attacker;	/* -1 before the first initiative */
	int		 choose;	/* the attacker picks the target */
	int		 earned;	/* initiative earned by a kick, or -1 */
	unsigned	 restance;	/* bit i: player i may re-stance */
	unsigned	 hide, speed;	/* bit i: declared before initiative */
	struct fb_decl	 d;
	int		 die_target;	/* before moves and GEAS */
	int		 target;	/* after paid moves */
	int		 over, winner, end;	/* winner -1: a draw */
};

/* Starts a duel between two checked sheets on board b. */
void fb_start(struct fb_state *s, const struct fb_board *b,
    const struct fb_sheet *a, const struct fb_sheet *bsheet);

/*
 * Dice of a stage: a die given (1..6) is taken as rolled at the table; 0
 * is rolled from rng and written back.
 */

/* A GEAS use (or the Light side's gift, FB_CONVERT). */
struct fb_geas_in {
	int		who, power;
	int		n;		/* counters, where a GEAS takes several */
	int		target;		/* Sight and Mind Trick; -1 none */
	int		spheres[8];	/* Lightning: the foe's spheres, in order */
	int		nspheres;
	int		absorb;		/* the foe's answer to Lightning */
	int		from;		/* convert: slot given (see fb_slot) */
	int		between;	/* after the Hit roll (round only) */
};

/*
 * Slots of a player's board, for placements: 0..ns-1 spheres, then
 * FB_SLOT_ATT, FB_SLOT_DEF and FB_SLOT_GEAS + g.
 */
#define FB_SLOT_ATT	FB_MAXS
#define FB_SLOT_DEF	(FB_MAXS + 1)
#define FB_SLOT_GEAS	(FB_MAXS + 2)
#define FB_NSLOT	(FB_SLOT_GEAS + FB_NGEAS)

/* Everything a round can be told; fb_in_init sets "not given". */
struct fb_in {
	/* initiative: pairs (a, b), more than one only after ties */
	int8_t		init[32];
	int		ninit;
	/* target */
	int		choose;		/* chosen target, -1 none */
	int8_t		tdie;
	int8_t		moves[8];	/* targets moved to, in order */
	int8_t		movesph[8];	/* sphere paying each, -1 the fullest */
	int		nmoves;
	/* the round */
	int		pass;
	int8_t		pull[2][FB_MAXS];	/* into target / hand target */
	int8_t		hit[2], block[2];
	int8_t		dmg, gain, choke;
	int		kick;
	int		gain_foe;	/* take the gain from the foe's pool */
	int8_t		place[FB_NSLOT];/* where gained counters go */
	int		place_set;
	int8_t		ret[FB_MAXS];	/* where the target's counters go back */
	int		ret_set;
	int		ngeas;
	struct fb_geas_in geas[8];	/* last: fb_in_init skips it */
};

void fb_in_init(struct fb_in *in);

/* What happened, for the record and the report. */
struct fb_report {
	int		stage_from;
	int		init_how;	/* see fb_init_how_name */
	int		attacker;
	int		target, base_target, tdie, chose, move_cost;
	int		mt, sight;	/* applied (not cancelled) */
	int		hit_die, block_die, hit_roll, block_roll;
	int		hit_ok, block_ok, hit_auto, block_auto;
	int		outcome;
	int		dmg, lost;	/* damage rolled, counters it took */
	int		gain, gained, gain_foe;
	int		healed;
	int		lightning, absorbed, choked_sphere, choked_head;
	int		spent[2];	/* to each player's own pool */
	int		turned;		/* who turned to the Dark side, -1 */
	int		ended;
};

/* How initiative was settled. */
enum fb_init_how {
	FB_I_ROLL, FB_I_TIE_ATT, FB_I_TIE_SWAP, FB_I_SPEED, FB_I_EARNED,
	FB_I_TIE_FIRST
};
const char *fb_init_how_name(int how);
const char *fb_outcome_name(int o);
const char *fb_end_name(int e);

/*
 * The stages.  Each returns 0, or -1 with why set and the state as it
 * was (a refused stage changes nothing).
 *
 * fb_geas: declares a GEAS or a gift, with its immediate effects.
 * fb_initiative: rolls initiative (stage OPEN -> INIT).
 * fb_aim: fixes the target and pays its moves (INIT -> AIMED).
 * fb_round: runs whatever stages are left of the round, then the pulls,
 * rolls, outcome, counters and end; the state is ready for the next
 * round.
 * fb_restance: a new stance mid-duel, for who may (after a double botch
 * or a kick).
 */
int fb_geas(struct fb_state *s, struct fb_geas_in *g, struct rng *rng,
    struct fb_report *r, char *why, size_t whysz);
int fb_initiative(struct fb_state *s, struct fb_in *in, struct rng *rng,
    struct fb_report *r, char *why, size_t whysz);
int fb_aim(struct fb_state *s, struct fb_in *in, struct rng *rng,
    struct fb_report *r, char *why, size_t whysz);
int fb_round(struct fb_state *s, struct fb_in *in, struct rng *rng,
    struct fb_report *r, char *why, size_t whysz);
int fb_restance(struct fb_state *s, int who, const struct fb_stance *st,
    char *why, size_t whysz);

/*
 * A GM's ruling (core/ruling.h) on who's counters: ATT and DEF (0 to
 * FB_ATTDEF_MAX) and the pool (0 to FB_POOL_ADJUST_MAX), changed by the
 * n changes of c; the counters a ruling adds or takes out change the
 * duel's total with them.  Refused, with why naming the counter, when
 * the duel is over, a value leaves its bounds or nothing changes.
 */
#define FB_POOL_ADJUST_MAX	100
struct ruling_change;
extern const char *const fb_adjust_names[];	/* "ATT", "DEF", "POOL" */
int fb_adjust(struct fb_state *s, int who, const struct ruling_change *c,
    int n, char *why, size_t whysz);

/*
 * Places n gained counters in p's first ns spheres, fewest first, one at
 * a time (the first of equals first); what does not fit goes to her pool.
 */
void fb_fill_fewest(struct fb_player *p, int ns, int n);

/* Counters a player holds on her board (not the pool). */
int fb_board_count(const struct fb_state *s, int who);

/*
 * Checks the invariants: counters conserved, no sphere above 4, nothing
 * negative.  Returns 0, or -1 with why.
 */
int fb_invariants(const struct fb_state *s, char *why, size_t whysz);

/*
 * The built-in strategy of fb-duel sim, for player who at the stage the
 * duel is in: fills in what a player decides (never the dice).
 */
void fb_strategy_geas(const struct fb_state *s, int who, struct fb_in *in);
void fb_strategy_aim(const struct fb_state *s, struct fb_in *in);
void fb_strategy_round(const struct fb_state *s, struct fb_in *in);

/*
 * Plays one whole duel by the strategy; returns the rounds it took, or -1
 * if the strategy asked for a move the rules refuse (a bug).  A duel
 * where nobody holds any GEAS takes a lean path; fb_sim_duel_staged plays
 * every duel through the stages above, the same dice in the same order,
 * and the tests hold the two to the same result.
 */
int fb_sim_duel(struct fb_state *s, struct rng *rng, int max_rounds);
int fb_sim_duel_staged(struct fb_state *s, struct rng *rng, int max_rounds);

#endif
