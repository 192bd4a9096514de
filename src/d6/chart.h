/*
 * d6/chart.h - the charts of the D6 System (seed 004) as data: damage
 * rows with their sub-rolls, scales, weapons and their range bands, the
 * lightsaber and martial arts actions, and every chart as printable
 * rows.  Pure.
 */
#ifndef REFKIT_D6_CHART_H
#define REFKIT_D6_CHART_H

#include <stddef.h>

/* The damage charts. */
enum d6_chart { D6_HUMAN, D6_STARSHIP, D6_VEHICLE };

/*
 * The row of a damage chart for a damage roll less the resistance roll:
 * 0 below 0 (no effect), then 0-3, 4-8, 9-12, 13-15, 16 and more.
 */
int d6chart_damage_row(long difference);

/* One effect of a 1D sub-roll on the starship and vehicle charts. */
struct d6_sub {
	int		 lo, hi;
	const char	*effect;
};

struct d6_damage {
	const char		*range;		/* "4-8" */
	const char		*effect;	/* "wounded" */
	const char		*detail;	/* penalty or what happens */
	const char		*armor;		/* human: the armor's state */
	const char		*extra;		/* starship: ion cannon;
						   vehicle: passengers */
	const char		*worse;		/* damage it compounds */
	int			 nsub;
	const struct d6_sub	*sub;
};

/* Row 0 .. 5 of a chart. */
const struct d6_damage *d6chart_damage_get(enum d6_chart c, int row);
/* "human", "starship", "vehicle": 0 and the chart, or -1. */
int d6chart_name(const char *name, enum d6_chart *c);

/* Scales: their modifier in dice (character 0 ... extreme 24). */
int d6chart_scale_name(const char *name, int *dice);

/* A weapon and its range bands in metres (short from min). */
struct d6_weapon {
	const char	*key;		/* "blaster-pistol" */
	const char	*name;		/* "Blaster Pistol" */
	const char	*scale;
	const char	*damage;	/* as the chart gives it */
	double		 min, shrt, medium, lng;	/* upper bounds */
};

const struct d6_weapon *d6chart_weapon_get(const char *key);
/* The i-th weapon of the chart, NULL past the end. */
const struct d6_weapon *d6chart_weapon_at(size_t i);

/*
 * The weapon that typed names by base/names.h's rule over the keys, a
 * space or '_' read as '-': exactly, but for case, or by a unique
 * beginning of a key or of one of its words ("heavy-r", "turbo").  NULL
 * with the refusal in why otherwise ("'blaster' could be ...").
 */
const struct d6_weapon *d6chart_weapon_find(const char *typed, char *why,
    size_t whysz);

/* The band of a range: "point-blank", "short", ... or NULL (too far). */
const char *d6chart_weapon_band(const struct d6_weapon *w, double metres,
    long *difficulty);

/* A lightsaber or martial arts action. */
struct d6_action {
	const char	*key;		/* "quick-strike" */
	const char	*name;
	const char	*skill;		/* what is rolled */
	int		 difficulty;	/* 0: opposed or no roll */
	const char	*against;	/* for difficulty 0: what opposes */
	int		 dmg_dice;	/* damage dice added (saber) */
	int		 dmg_str;	/* damage is Strength + dmg_dice */
	int		 dmg_fixed;	/* damage is dmg_dice alone */
	int		 has_dmg;
	const char	*effect;
	int		 reaction;	/* may be used as a reaction */
	const char	*then;		/* a second roll that follows */
};

const struct d6_action *d6chart_saber_get(const char *key);
const struct d6_action *d6chart_martial_get(const char *key);
/* The i-th action of each list, NULL past the end. */
const struct d6_action *d6chart_saber_at(size_t i);
const struct d6_action *d6chart_martial_at(size_t i);

/* The disarm chart: a row 0 .. 5 as d6chart_damage_row gives. */
struct d6_disarm {
	const char	*range;
	const char	*effect;
	const char	*detail;
	int		 to_next;	/* penalty to the foe's next action */
	int		 metres_dice;	/* the saber lands this many D away */
};

const struct d6_disarm *d6chart_disarm_get(int row);

/* A chart as rows of text, for printing. */
struct d6_table {
	const char		*key;
	const char		*title;
	int			 ncols;
	const char		*cols[7];
	int			 nrows;
	const char *const	(*rows)[7];
};

/* The table named key (or NULL), and the list of every table. */
const struct d6_table *d6chart_table_get(const char *key);
const struct d6_table *d6chart_table_at(size_t i);	/* NULL past the end */

/* Keys compare ignoring case, with ' ' and '_' as '-'. */
int d6chart_key_eq(const char *key, const char *typed);

#endif
