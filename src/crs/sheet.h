/*
 * sheet.h - a CRS character sheet: identity, primary stats, secondary
 * stats given directly, the items and powers held, and the secondary
 * stats derived from all of these.  Pure: no I/O, no globals.
 */
#ifndef REFKIT_SHEET_H
#define REFKIT_SHEET_H

#include <stddef.h>

#include "crs/item.h"
#include "crs/stats.h"

#define SHEET_NAME_MAX		200
#define SHEET_PLAYER_MAX	200
#define SHEET_NOTES_MAX		10000

struct sheet {
	char	*name;			/* owned */
	char	*player;		/* owned, may be NULL */
	char	*notes;			/* owned, may be NULL */
	int	 primary[P_COUNT];	/* STATS_ABSENT where not known */
	int	 given[S_COUNT];	/* STATS_ABSENT where not given */
	char	**items;		/* owned names of items held */
	size_t	 nitems;
	char	**powers;		/* owned names of powers known */
	size_t	 npowers;
};

/*
 * The fields of a sheet, in the order of the stable CSV/JSON layout:
 * name player notes ENE..LEVEL OR..LB items powers.
 */
enum sheet_field {
	SHEET_F_NAME, SHEET_F_PLAYER, SHEET_F_NOTES,
	SHEET_F_PRIMARY,			/* + enum stats_primary */
	SHEET_F_GIVEN = SHEET_F_PRIMARY + P_COUNT,	/* + stats_secondary */
	SHEET_F_ITEMS = SHEET_F_GIVEN + S_COUNT,
	SHEET_F_POWERS,
	SHEET_F_COUNT
};

/* Where a secondary stat's value comes from. */
enum sheet_source { SHEET_ABSENT, SHEET_COMPUTED, SHEET_GIVEN };

struct sheet_stat {
	int	value;		/* given, else computed, else STATS_ABSENT */
	int	effective;	/* value with always-on items, never below 0 */
	int	source;		/* enum sheet_source */
};

/* A sheet with no name, no stats and nothing held; sheet_release frees. */
void sheet_init(struct sheet *sh);
void sheet_release(struct sheet *sh);

/* The field's stable name ("name", "ENE", "OR", "items", ...). */
const char *sheet_field_name(int f);
/* Case-insensitive look-up of a field name; -1 if unknown. */
int sheet_field_lookup(const char *name);

/*
 * Sets field f from text.  An empty value clears the field (a stat becomes
 * absent, a list empty), except the name, which must not be empty.  Items
 * and powers are ';'-separated names.  Returns 0, or -1 with a predicate
 * written into why ("must be a whole number from 0 to 1000") for the
 * caller to put after the field's name.
 */
int sheet_set_field(struct sheet *sh, int f, const char *value, char *why,
    size_t whysz);

/* Appends a name to the items or powers list (f is SHEET_F_ITEMS/POWERS). */
int sheet_add_name(struct sheet *sh, int f, const char *name, char *why,
    size_t whysz);

/*
 * Fills out[S_COUNT]: each secondary stat given directly, else computed
 * from the primaries with the given rounding, else absent.  The effective
 * value adds the OR, DR and MIND modifiers of the always-on items among
 * held[0..nheld) (a NULL list means none), never going below 0.
 */
void sheet_secondary(const struct sheet *sh, enum stats_rounding rounding,
    const struct item *held, size_t nheld, struct sheet_stat out[S_COUNT]);


/* Kinds of attack, for the bases of a matchup. */
enum sheet_attack { SHEET_SHORT, SHEET_LONG, SHEET_MENTAL };

/*
 * The base of one side's calculation: the stat put in plus the table's
 * modifiers, plus the AC pick modifier (which counts in every
 * calculation) and the offense or defense modifier (which does not count
 * in a mental one).  The one place these rulings live.
 */
int sheet_calc_base(int stat, int kind, int mod_side, int mod_pick);

/* The sum of modifier mod over the always-on items among held. */
int sheet_always_on(const struct item *held, size_t nheld, int mod);

/*
 * The bases of an attack and of the defence against it, from the
 * effective stats (sheet_secondary with the held items) of each side:
 * short range uses OR, long range DR, mental MIND; the defence DR, or
 * MIND against a mental attack.  Always-on offense, defense and AC pick
 * modifiers are added (offense ones not to a mental attack).  use, when
 * above 0, is the OR (long range: DR; mental: MIND) the attacker puts in,
 * at most what he has.  Returns 0, or -1 with why set.
 */
int sheet_attack_base(const struct sheet_stat st[S_COUNT],
    const struct item *held, size_t nheld, int kind, int use, int *base,
    char *why, size_t whysz);
int sheet_defense_base(const struct sheet_stat st[S_COUNT],
    const struct item *held, size_t nheld, int kind, int *base, char *why,
    size_t whysz);

#endif
