/*
 * bg.h - the rules of Battle Grounds (bg-board), pure: the basic and
 * advanced boards and their colours, figures and team line-ups, the
 * setup, legal moves, battles with their Battle Stat, the Holding,
 * Staging and Dice Zones, the attack powers, the far-end release and the
 * win.  No I/O and no hidden randomness: dice come from the caller's
 * generator or are given, and every die used is written back into the
 * input, so that a recorded move replays the same game.  See bg-board(1)
 * for the rulings.
 */
#ifndef REFKIT_BG_H
#define REFKIT_BG_H

#include <stddef.h>

#include "base/rng.h"

#define BG_NAMESZ	32	/* a figure's or team's name, NUL included */
#define BG_MAXFIG	16	/* figures a team fields (the advanced line-up) */
#define BG_MAXSQ	64
#define BG_NDICE	6	/* Battle Dice a player owns */
#define BG_DICEZONE_MAX	5	/* one die stays out to roll battles */
#define BG_STAT_MAX	99
#define BG_MAXROLLS	16	/* battle re-rolls after ties, given or rolled */
#define BG_WHYSZ	600	/* a refusal that lists eight names */

/* Figure levels, in the order of their line-up counts. */
enum bg_level { BG_SA, BG_I, BG_II, BG_III, BG_NLEVEL };

/* The six colours, which are the six Battle Stats; red is Fighting Skills. */
enum bg_colour {
	BG_RED, BG_ORANGE, BG_YELLOW, BG_GREEN, BG_BLUE, BG_PURPLE, BG_NSTAT,
	BG_WHITE = BG_NSTAT,	/* a square only: the stat is rolled for */
	BG_ALL			/* a square only: the defender picks */
};

/* Attack powers (the seed's addenda), as bits of bg_figure.powers. */
enum bg_power {
	BG_HYPNOTIZE, BG_SUPERSENSE, BG_SWAP, BG_TELEPATHY, BG_TELEPORT,
	BG_NPOWER
};

struct bg_figure {
	char		name[BG_NAMESZ];
	int		level;
	int		cosmic;
	int		stat[BG_NSTAT];
	unsigned	powers;		/* bit p: has power p */
};

struct bg_team {
	char		name[BG_NAMESZ];
	int		n;
	struct bg_figure f[BG_MAXFIG];
};

/* Names and lookups (-1 if unknown; case-insensitive). */
const char *bg_level_name(int level);	/* "SA", "I", "II", "III" */
int bg_level_find(const char *s);	/* "S/A" and "A" too */
const char *bg_colour_name(int c);	/* "red" ... "white", "all" */
int bg_colour_find(const char *s);	/* the six stat colours only */
const char *bg_power_name(int p);
int bg_power_find(const char *s);
/* 1 if s is a usable figure or team name: one word, 1 to 31 bytes. */
int bg_name_ok(const char *s);

/*
 * Checks a team against a line-up (advanced 0 or 1): the count of each
 * level and exactly one Cosmic figure, of level III.  Calls bad(arg,
 * message) for each broken limit and returns how many there were.
 */
int bg_team_check(const struct bg_team *t, int advanced,
    void (*bad)(void *, const char *), void *arg);
/* The line-up a team fits: 0 basic, 1 advanced, -1 neither. */
int bg_team_lineup(const struct bg_team *t);

/*
 * A piece: one figure of one team in a game.  Pieces are numbered
 * owner * BG_MAXFIG + figure.
 */
struct bg_piece {
	int		owner;		/* 0 or 1: whose team it came from */
	int		ctrl;		/* who moves it (Hypnotize changes it) */
	int		sq;		/* its square, or -1 off the board */
	int		held;		/* off the board: whose Holding Zone */
};

struct bg_game {
	int		advanced;
	int		safe_attack;	/* option: a losing attacker stays */
	int		w, h;		/* files and ranks */
	struct bg_team	team[2];
	struct bg_piece	pc[2 * BG_MAXFIG];
	int		at[BG_MAXSQ];	/* piece on each square, or -1 */
	int		turn;		/* whose move: 0 the first team */
	int		moves;		/* turns played */
	int		started;	/* a move was made: setup is closed */
	unsigned	dicezone[2];	/* bit d: die d+1 is in the Dice Zone */
	int		credit[2];	/* dice this player may move now */
	int		over, winner;
};

/* Square helpers: index = rank * w + file, both from 0. */
int bg_square_parse(const struct bg_game *g, const char *s);	/* or -1 */
void bg_square_name(const struct bg_game *g, int sq, char buf[4]);
int bg_square_colour(const struct bg_game *g, int sq);	/* bg_colour */
/* 1 if sq is in player p's Staging Zone (her first two rows). */
int bg_staging(const struct bg_game *g, int p, int sq);
/* 1 if sq is in player p's three coloured home rows. */
int bg_home(const struct bg_game *g, int p, int sq);
/*
 * The setup slot of a square for player p: the level whose figures start
 * there, or -1; *star is set to 1 for the two Cosmic squares.
 */
int bg_setup_slot(const struct bg_game *g, int p, int sq, int *star);

/*
 * Starts a game between two checked teams (the first moves first), with
 * every figure on its setup squares in team order, the Cosmic figure on
 * the first starred square.
 */
void bg_start(struct bg_game *g, const struct bg_team *a,
    const struct bg_team *b, int advanced, int safe_attack);

/* The piece of player p's figure named name, or -1. */
int bg_piece_find(const struct bg_game *g, int p, const char *name);
const struct bg_figure *bg_fig(const struct bg_game *g, int piece);

/*
 * Setup, before the first move: swaps piece onto sq (and whatever stood
 * there onto piece's square).  Both must be the owner's setup squares of
 * the right levels, the Cosmic figure on a starred one.  0 or -1 with why.
 */
int bg_place(struct bg_game *g, int piece, int sq, char *why, size_t whysz);

/*
 * The squares piece can move to now, as a bit set over squares; foes'
 * squares among them are attacks.  Legal for any piece on the board,
 * whoever's turn it is.
 */
typedef struct { unsigned long long bits; } bg_set;
bg_set bg_moves(const struct bg_game *g, int piece);
int bg_set_has(bg_set s, int sq);

/* How a battle's stat is settled, from the squares. */
enum bg_stat_how {
	BG_S_SQUARE,	/* the defender's square's colour */
	BG_S_DEFENDER,	/* an all-colour square: the defender picks */
	BG_S_ROLL,	/* white: a roll-off, the higher roller picks */
	BG_S_OWN	/* each picks her own (both on white, or a tied roll) */
};

/*
 * How the stat of a battle between a figure on att_sq and one on def_sq
 * is settled, before any roll: BG_S_ROLL may still turn to BG_S_OWN on a
 * tied roll-off.
 */
int bg_stat_how(const struct bg_game *g, int att_sq, int def_sq);

/* What a move may be told; bg_move_init sets "not given". */
struct bg_move_in {
	int		piece, to;
	int		stat;		/* the chooser's pick, -1 none */
	int		att_stat, def_stat;	/* own picks, -1 none */
	int		statroll[2];	/* the roll-off on white, 0 none */
	int		roll[BG_MAXROLLS], vs[BG_MAXROLLS];	/* 0 none */
	int		nroll, nvs;
	int		release, release_to;	/* far end; -1 the default */
	int		return_to;	/* a hypnotized loser's square */
};
void bg_move_init(struct bg_move_in *in);

/* What a move or power did, for the record and the report. */
struct bg_report {
	int		piece, from, to;
	int		battle, foe;	/* foe: the defending piece */
	int		how, stat_att, stat_def, chooser;
	int		statroll[2];
	int		val_att, val_def;	/* the two Battle Stat values */
	int		rolls;		/* die pairs rolled (ties re-roll) */
	int		die_att, die_def;	/* the deciding pair */
	int		tot_att, tot_def;
	int		att_won;
	int		loser, loser_to;	/* loser_to: square, or -1 held */
	int		returned;	/* the loser went back to its owner */
	int		supersense, telepathy;
	int		released, released_to;	/* -1 none */
	int		ended;
};

/*
 * The player on turn moves piece to in->to: a plain move, or an attack
 * with its battle.  Dice not given (0) are rolled from rng and written
 * back.  Returns 0, or -1 with why and the game as it was.
 */
int bg_move(struct bg_game *g, struct bg_move_in *in, struct rng *rng,
    struct bg_report *r, char *why, size_t whysz);

/*
 * What the player on turn may do with a power instead of a move:
 * Hypnotize (arg: a foe's figure in her Holding Zone, to: an empty
 * square of her Staging Zone), Swap Powers (to: her figure in her Staging
 * Zone) or Teleport (to: her figure next to the user).  0 or -1 with why.
 */
int bg_power(struct bg_game *g, int piece, int power, int arg, int to,
    struct bg_report *r, char *why, size_t whysz);

/*
 * Moves die (0..5) of player p from her Staging Zone to her Dice Zone,
 * swapping back die back (0..5, -1 none) when the zone is full; needs a
 * credit from a lost battle or Telepathy.  0 or -1 with why.
 */
int bg_die(struct bg_game *g, int p, int die, int back, char *why,
    size_t whysz);

/* The player on turn passes (she has no move she wants).  0 or -1. */
int bg_pass(struct bg_game *g, char *why, size_t whysz);

/*
 * A GM's ruling (core/ruling.h) on player p's counters: DICE, the Battle
 * Dice she may still move to her Dice Zone now (0 to BG_NDICE), changed
 * by the n changes of c.  Refused, with why naming the counter, when
 * the game is over, a value leaves its bounds or nothing changes.
 */
struct ruling_change;
extern const char *const bg_adjust_names[];	/* "DICE" */
int bg_adjust(struct bg_game *g, int p, const struct ruling_change *c,
    int n, char *why, size_t whysz);

/*
 * The defaults the tool uses for a choice not given: the stat a chooser
 * picks (the most for her figure over the foe's), and her own best.
 */
int bg_best_shared(const struct bg_figure *mine, const struct bg_figure *foe);
int bg_best_own(const struct bg_figure *mine);

#endif
