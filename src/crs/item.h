/*
 * item.h - items and powers as the CRS integrates them (seed 002,
 * "Integrating Additional Game Mechanics"; Avatar 2.6 item kinds;
 * RULINGS section 1).  Pure: no I/O, no globals.
 */
#ifndef REFKIT_ITEM_H
#define REFKIT_ITEM_H

#include <stddef.h>

enum item_mod {
	ITEM_OR, ITEM_DR, ITEM_MIND, ITEM_PICK, ITEM_OFFENSE, ITEM_DEFENSE,
	ITEM_MOD_COUNT
};

enum item_range { ITEM_SHORT, ITEM_LONG, ITEM_BOTH };

enum item_use {
	ITEM_SUPPLEMENTAL,	/* one per attack and one per defence */
	ITEM_CONTINUOUS,	/* always in effect */
	ITEM_WEARABLE		/* Wearable/Continuous: always in effect */
};

/* Modifiers are whole numbers in [-ITEM_MOD_MAX, ITEM_MOD_MAX]. */
#define ITEM_MOD_MAX	1000
/* Item and power names: one line of at most this many bytes, no ';'. */
#define ITEM_NAME_MAX	200
#define ITEM_NOTES_MAX	10000

struct item {
	char	*name;		/* owned */
	int	 mod[ITEM_MOD_COUNT];
	int	 range;		/* enum item_range */
	int	 use;		/* enum item_use */
	int	 full_or;	/* 1: an attack with it must use the full OR */
	char	*notes;		/* owned, may be NULL */
};

enum power_target { POWER_ONE, POWER_GROUP };
enum power_defend { POWER_VS_DR, POWER_VS_MIND, POWER_VS_NONE };

#define POWER_EM_MAX	100000
#define POWER_PICKS_MAX	20

struct power {
	char	*name;		/* owned */
	int	 em;		/* minimum EM cost; more may be spent */
	int	 picks;		/* effect: this many AC picks ... */
	int	 bonus;		/* ... plus the EM spent plus this constant */
	int	 target;	/* enum power_target */
	int	 defend;	/* enum power_defend */
	char	*notes;		/* owned, may be NULL */
};

/* Results of item_set and item_power_set. */
#define ITEM_SET_OK		0
#define ITEM_SET_UNKNOWN	(-1)	/* no such key; why says so */
#define ITEM_SET_BAD		(-2)	/* bad value; why says why */

/*
 * Checks a name for an item or a power.  Returns 0, or -1 with the reason
 * in why.
 */
int item_check_name(const char *name, char *why, size_t whysz);

/* item_init copies name; item_release frees what the item owns. */
void item_init(struct item *it, const char *name);
void item_release(struct item *it);

/*
 * Sets one field from KEY=VALUE text: or dr mind pick offense defense
 * (signed whole numbers), range (short|long|both), use
 * (supplemental|continuous|wearable), full-or (yes|no), notes, name.
 * Keys are case-insensitive.
 */
int item_set(struct item *it, const char *key, const char *value,
    char *why, size_t whysz);

/* 1 if the item is always in effect (continuous or wearable). */
int item_always_on(const struct item *it);

/* Key and value names, as item_set reads them and the tools print them. */
const char *item_mod_key(int mod);
const char *item_range_name(int range);
const char *item_use_name(int use);
int item_range_lookup(const char *name);
int item_use_lookup(const char *name);

/* item_power_init copies name; item_power_release frees what the power owns. */
void item_power_init(struct power *pw, const char *name);
void item_power_release(struct power *pw);

/*
 * Sets one field from KEY=VALUE text: em (0 to POWER_EM_MAX), picks (0 to
 * POWER_PICKS_MAX), bonus (signed), target (one|group), defend
 * (dr|mind|none), notes, name.
 */
int item_power_set(struct power *pw, const char *key, const char *value,
    char *why, size_t whysz);

const char *item_power_target_name(int target);
const char *item_power_defend_name(int defend);
int item_power_target_lookup(const char *name);
int item_power_defend_lookup(const char *name);

/*
 * One-line summaries, as crs-stats show and the printed sheets give them;
 * the caller frees.  An item: "+5 OR, +2 DR; short range; supplemental".
 * A power: "EM 3 or more; 2 picks + EM spent +1; one target; defended by
 * DR".
 */
char *item_summary(const struct item *it);
char *item_power_summary(const struct power *pw);

#endif
