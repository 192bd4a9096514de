/*
 * d6/chart.c - the D6 System's charts as data.  See d6/chart.h.  Where the
 * chart is terse the wording here is ours; the numbers are the chart's.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d6/chart.h"
#include "base/names.h"
#include "base/util.h"

#define N(a)	(sizeof (a) / sizeof *(a))

int
d6chart_key_eq(const char *key, const char *typed)
{
	for (; *key && *typed; key++, typed++) {
		int c = tolower((unsigned char)*typed);

		if (c == ' ' || c == '_')
			c = '-';
		if (c != *key)
			return 0;
	}
	return *key == '\0' && *typed == '\0';
}

int
d6chart_damage_row(long d)
{
	if (d < 0)
		return 0;
	if (d <= 3)
		return 1;
	if (d <= 8)
		return 2;
	if (d <= 12)
		return 3;
	if (d <= 15)
		return 4;
	return 5;
}

/* ---- damage ---- */

static const struct d6_damage human[6] = {
	{ "below 0", "no effect", "-", "-", NULL, NULL, 0, NULL },
	{ "0-3", "stunned", "-1D for the rest of the round",
	    "light: -1 pip of protection", NULL, NULL, 0, NULL },
	{ "4-8", "wounded (/2)", "-1D until healed",
	    "heavy: -1D of protection", NULL, NULL, 0, NULL },
	{ "9-12", "incapacitated", "-2D until healed; cannot move",
	    "severe: the armor is useless", NULL, NULL, 0, NULL },
	{ "13-15", "mortally wounded", "each round roll 2D; a total not "
	    "above the rounds since the wound is death",
	    "destroyed", NULL, NULL, 0, NULL },
	{ "16+", "killed", "dead", "-", NULL, NULL, 0, NULL },
};

static const struct d6_sub ship_light[] = {
	{ 1, 2, "-1D maneuverability" }, { 3, 3, "one weapon destroyed" },
	{ 4, 4, "one weapon inoperative" }, { 5, 5, "-1D shields" },
	{ 6, 6, "-1 move" },
};
static const struct d6_sub ship_heavy[] = {
	{ 1, 2, "-2D maneuverability" },
	{ 3, 4, "one weapon system inoperative" },
	{ 5, 5, "-2D shields" }, { 6, 6, "-2 move" },
};
static const struct d6_sub ship_severe[] = {
	{ 1, 1, "engines disabled" },
	{ 2, 2, "generator overloaded: shut it down or it explodes in 3 "
	    "rounds" },
	{ 3, 3, "hyperdrives disabled" }, { 4, 4, "weapons disabled" },
	{ 5, 5, "structural damage: 1D rounds to evacuate" },
	{ 6, 6, "destroyed" },
};

static const struct d6_damage starship[6] = {
	{ "below 0", "no effect", "-", NULL, "-", "-", 0, NULL },
	{ "0-3", "shields blown", "-1D shields until repaired; a ship "
	    "without shields has its controls ionized instead (-1D "
	    "maneuverability, fire control, weapon damage and shields; "
	    "ionized for as many rounds as its maneuverability: controls "
	    "frozen 2 rounds)", NULL, "1 control ionized", "-", 0, NULL },
	{ "4-8", "lightly damaged", "roll 1D", NULL, "2 controls ionized",
	    "-", (int)N(ship_light), ship_light },
	{ "9-12", "heavily damaged", "roll 1D", NULL, "3 controls ionized",
	    "a lightly or heavily damaged ship drops one step",
	    (int)N(ship_heavy), ship_heavy },
	{ "13-15", "severely damaged", "roll 1D", NULL,
	    "4 controls ionized",
	    "a lightly, heavily or severely damaged ship drops one step",
	    (int)N(ship_severe), ship_severe },
	{ "16+", "destroyed", "the ship is destroyed", NULL, "controls dead",
	    "destroyed", 0, NULL },
};

static const struct d6_sub veh_light[] = {
	{ 1, 3, "-1D maneuverability" }, { 4, 4, "one weapon destroyed" },
	{ 5, 6, "-1 move" },
};
static const struct d6_sub veh_heavy[] = {
	{ 1, 3, "-2D maneuverability" }, { 4, 6, "-2 moves" },
};
static const struct d6_sub veh_severe[] = {
	{ 1, 2, "powerplant destroyed: it crashes, +3D damage" },
	{ 3, 3, "generator overloaded: shut it down or it explodes in 3D "
	    "rounds" },
	{ 4, 4, "all weapons shut down" },
	{ 5, 5, "structural damage: it breaks apart in 1D rounds" },
	{ 6, 6, "destroyed" },
};

static const struct d6_damage vehicle[6] = {
	{ "below 0", "no effect", "-", NULL, "-", "-", 0, NULL },
	{ "0-3", "shields blown", "-1D shields until repaired; a vehicle "
	    "without shields has its controls ionized instead (-1D "
	    "maneuverability, fire control, weapon damage and shields this "
	    "round and the next)", NULL, "-", "-", 0, NULL },
	{ "4-8", "lightly damaged", "roll 1D", NULL,
	    "1D damage to passengers", "-", (int)N(veh_light), veh_light },
	{ "9-12", "heavily damaged", "roll 1D", NULL,
	    "3D damage to passengers",
	    "a lightly or heavily damaged vehicle drops one step",
	    (int)N(veh_heavy), veh_heavy },
	{ "13-15", "severely damaged", "roll 1D", NULL,
	    "6D damage to passengers",
	    "a lightly, heavily or severely damaged vehicle drops one step",
	    (int)N(veh_severe), veh_severe },
	{ "16+", "destroyed", "the vehicle is destroyed", NULL,
	    "11D damage to passengers", "destroyed", 0, NULL },
};

const struct d6_damage *
d6chart_damage_get(enum d6_chart c, int row)
{
	if (row < 0 || row > 5)
		return NULL;
	return c == D6_HUMAN ? &human[row] : c == D6_STARSHIP ?
	    &starship[row] : &vehicle[row];
}

int
d6chart_name(const char *name, enum d6_chart *c)
{
	if (d6chart_key_eq("human", name) || d6chart_key_eq("character", name))
		*c = D6_HUMAN;
	else if (d6chart_key_eq("starship", name))
		*c = D6_STARSHIP;
	else if (d6chart_key_eq("vehicle", name))
		*c = D6_VEHICLE;
	else
		return -1;
	return 0;
}

/* ---- scale ---- */

static const struct {
	const char	*key;
	int		 dice;
} scales[] = {
	{ "character", 0 }, { "creature", 0 }, { "speeder", 2 },
	{ "mecha", 4 }, { "walker", 4 }, { "starfighter", 6 },
	{ "capital", 12 }, { "extreme", 24 },
};

int
d6chart_scale_name(const char *name, int *dice)
{
	for (size_t i = 0; i < N(scales); i++)
		if (d6chart_key_eq(scales[i].key, name)) {
			*dice = scales[i].dice;
			return 0;
		}
	return -1;
}

/* ---- weapons ---- */

/*
 * Bands: short from min to shrt, medium to medium, long to lng (metres).
 * The chart prints the submachinegun's short band as "30-10"; we read
 * it as 3-10 like the other pistols (see d6-roll(1), RULINGS).
 */
static const struct d6_weapon weapons[] = {
	{ "slugthrower", "Slugthrower", "personal", "3D", 3, 15, 45, 125 },
	{ "rifle", "Rifle", "personal", "3D+1", 3, 30, 100, 300 },
	{ "submachinegun", "Submachinegun", "personal", "4D", 3, 10, 50,
	    100 },
	{ "blaster-pistol", "Blaster Pistol", "personal", "4D", 3, 10, 30,
	    120 },
	{ "heavy-blaster-pistol", "Heavy Blaster Pistol", "personal", "5D",
	    3, 7, 25, 50 },
	{ "blaster-rifle", "Blaster Rifle", "personal", "5D", 3, 30, 100,
	    300 },
	{ "heavy-repeating-blaster", "Heavy Repeating Blaster", "personal",
	    "8D", 3, 75, 200, 500 },
	{ "speeder-light", "Light", "speeder", "1D-2D+", 50, 300, 500,
	    1000 },
	{ "speeder-medium", "Medium", "speeder", "3D-4D+", 50, 300, 800,
	    1500 },
	{ "speeder-heavy", "Heavy", "speeder", "5D+", 50, 400, 900, 2000 },
	{ "mecha-light", "Light", "mecha", "1D-2D+", 10, 500, 2000, 10000 },
	{ "mecha-medium", "Medium", "mecha", "3D-4D+", 20, 600, 3000,
	    16000 },
	{ "mecha-heavy", "Heavy", "mecha", "5D+", 50, 600, 5000, 25000 },
	{ "starfighter-blaster", "Blaster", "starfighter", "-", 200, 10000,
	    20000, 35000 },
	{ "starfighter-missiles", "Missiles", "starfighter", "-", 250, 4000,
	    17000, 30000 },
	{ "starfighter-laser-cannon", "Laser Cannon", "starfighter", "-",
	    200, 5000, 25000, 50000 },
	{ "starfighter-ion-cannon", "Ion Cannon", "starfighter", "-", 50,
	    5000, 15000, 75000 },
	{ "starfighter-proton-torpedoes", "Proton Torpedoes", "starfighter",
	    "-", 500, 15000, 0, 0 },
	{ "capital-missiles", "Missiles", "capital", "-", 3000, 25000,
	    60500, 125000 },
	{ "capital-turbolaser", "Turbolaser", "capital", "-", 5000, 30000,
	    70000, 150000 },
	{ "capital-ion-cannon", "Ion Cannon", "capital", "-", 2000, 20000,
	    50000, 100000 },
	{ "capital-proton-torpedoes", "Proton Torpedoes", "capital", "-",
	    1000, 10000, 30000, 60000 },
};

const struct d6_weapon *
d6chart_weapon_get(const char *key)
{
	for (size_t i = 0; i < N(weapons); i++)
		if (d6chart_key_eq(weapons[i].key, key))
			return &weapons[i];
	return NULL;
}

const struct d6_weapon *
d6chart_weapon_at(size_t i)
{
	return i < N(weapons) ? &weapons[i] : NULL;
}

const struct d6_weapon *
d6chart_weapon_find(const char *typed, char *why, size_t whysz)
{
	char *key = xstrdup(typed);
	const struct d6_weapon *w = NULL;
	const char *found;
	struct names m;

	/* Typed as the chart prints it: 'heavy blaster' is heavy-blaster. */
	for (char *p = key; *p != '\0'; p++)
		if (*p == ' ' || *p == '_')
			*p = '-';
	names_init(&m, key);
	free(key);
	for (size_t i = 0; i < N(weapons); i++)
		names_add(&m, weapons[i].key);
	if (names_pick(&m, &found) == NAMES_FOUND) {
		for (size_t i = 0; i < N(weapons) && w == NULL; i++)
			if (strcmp(weapons[i].key, found) == 0)
				w = &weapons[i];
	} else
		names_why(&m, "no weapon named", why, whysz);
	names_release(&m);
	return w;
}

const char *
d6chart_weapon_band(const struct d6_weapon *w, double m, long *difficulty)
{
	if (m < w->min) {
		*difficulty = 5;
		return "point-blank";
	}
	if (m <= w->shrt) {
		*difficulty = 10;
		return "short";
	}
	if (w->medium > 0 && m <= w->medium) {
		*difficulty = 15;
		return "medium";
	}
	if (w->lng > 0 && m <= w->lng) {
		*difficulty = 20;
		return "long";
	}
	return NULL;
}

/* ---- lightsaber and martial arts actions ---- */

static const struct d6_action sabers[] = {
	{ "size-up", "Size-Up Your Opponent", "Perception+Lightsaber", 0,
	    "the opponent's Perception+Lightsaber", 0, 0, 0, 0,
	    "success: learn the opponent's skill level by watching", 0,
	    NULL },
	{ "movement", "Movement", "-", 0, NULL, 0, 0, 0, 0,
	    "cautious 1/2 action, cruising 1, high speed 2, all-out 4 (and "
	    "nothing else)", 0, NULL },
	{ "quick-strike", "Quick Strike", "Lightsaber", 15, NULL, -2, 0, 0,
	    1, "damage -2D", 0, NULL },
	{ "strike", "Strike", "Lightsaber", 20, NULL, 0, 0, 0, 1,
	    "damage +0D", 0, NULL },
	{ "fierce-strike", "Fierce Strike", "Lightsaber", 25, NULL, 1, 0, 0,
	    1, "damage +1D", 0, NULL },
	{ "strong-strike", "Strong Strike", "Lightsaber", 30, NULL, 3, 0, 0,
	    1, "damage +3D", 0, NULL },
	{ "berserk-strike", "Berserk Strike", "Lightsaber", 25, NULL, 4, 0,
	    0, 1, "damage +4D; costs 1 Character Point or 1 Dark Side Point",
	    0, NULL },
	{ "full-dodge", "Full Dodge", "Dodge", 0, NULL, 0, 0, 0, 0,
	    "the roll is added to the attacker's difficulty; only with a "
	    "movement short of all-out, and no other action", 0, NULL },
	{ "full-parry", "Full Parry", "Lightsaber", 0, NULL, 0, 0, 0, 0,
	    "the roll is added to the attacker's difficulty; the next "
	    "action's difficulty is 5 lower; no other action", 0, NULL },
	{ "bare-handed-parry", "Bare-Handed Parry", "Control", 0,
	    "12 plus the lightsaber's damage (give it with --vs)", 0, 0, 0,
	    0, "needs Absorb/Dissipate Energy already active; failure: the "
	    "damage lands as usual", 0, NULL },
	{ "feint", "Feint", "Perception+Lightsaber", 0,
	    "the opponent's Perception+Lightsaber", 0, 0, 0, 0,
	    "success: the next action's difficulty is 10 lower", 0, NULL },
	{ "lock", "Lock", "Lightsaber", 20, NULL, 0, 0, 0, 0,
	    "success, then a won Strength+Lightsaber contest: both sabers "
	    "are locked and the round ends; kept by winning the contest at "
	    "each round's end; other actions -1D while locked", 0,
	    "Strength+Lightsaber against the opponent's" },
	{ "disarm", "Disarm", "Lightsaber", 30, NULL, 0, 0, 0, 0,
	    "the next action's difficulty is 10 higher; success, then the "
	    "margin of a Strength+Lightsaber contest on the disarm chart", 0,
	    "Strength+Lightsaber against the opponent's" },
};

static const struct d6_action martials[] = {
	{ "blindfighting", "Blindfighting", "Martial Arts", 25, NULL, 0, 0,
	    0, 0, "may cancel the penalties of fighting blind or in the "
	    "dark", 1, NULL },
	{ "disarm", "Disarm", "Martial Arts", 15, NULL, 0, 0, 0, 0,
	    "success: the opponent is disarmed", 0, NULL },
	{ "elbow-smash", "Elbow Smash", "Martial Arts", 5, NULL, 2, 1, 0, 1,
	    "damage Strength+2D", 0, NULL },
	{ "flip", "Flip", "Martial Arts", 15, NULL, 3, 0, 1, 1,
	    "3D damage and the opponent is knocked down", 1, NULL },
	{ "flying-kick", "Flying Kick", "Martial Arts", 20, NULL, 4, 1, 0, 1,
	    "damage Strength+4D; failure gives the opponent one more action "
	    "without penalty", 0, NULL },
	{ "foot-sweep", "Foot Sweep", "Martial Arts", 15, NULL, 0, 0, 0, 0,
	    "the opponent is down for the rest of the round", 0, NULL },
	{ "headbutt", "Headbutt", "Martial Arts", 5, NULL, 1, 1, 0, 1,
	    "damage Strength+1D, even when bound or held", 1, NULL },
	{ "hold", "Hold/Grapple", "Martial Arts", 15, NULL, 0, 0, 0, 0,
	    "the opponent is held still; kept by winning Strength against "
	    "Strength at each round's end", 0, NULL },
	{ "instant-knockdown", "Instant Knockdown", "Martial Arts", 15, NULL,
	    0, 0, 0, 0, "the opponent is down for the rest of the round", 0,
	    NULL },
	{ "instant-stand", "Instant Stand", "Martial Arts", 15, NULL, 0, 0,
	    0, 0, "stand up without spending an action", 0, NULL },
	{ "instant-stun", "Instant Stun", "Martial Arts", 15, NULL, 0, 0, 0,
	    0, "the opponent is stunned for a round", 0, NULL },
	{ "instant-wound", "Instant Wound", "Martial Arts", 20, NULL, 0, 0,
	    0, 0, "the opponent is wounded", 0, NULL },
	{ "kick", "Kick", "Brawling or Martial Arts", 5, NULL, 2, 1, 0, 1,
	    "damage Strength+2D", 0, NULL },
	{ "multiple-strikes", "Multiple Strikes", "Martial Arts", 15, NULL,
	    0, 0, 0, 0, "a second attack with no multiple-action penalty", 0,
	    NULL },
	{ "nerve-punch", "Nerve Punch", "Martial Arts", 25, NULL, 0, 0, 0, 0,
	    "one of the opponent's limbs is useless for 3D rounds", 0, NULL },
	{ "nerve-punch-2", "Nerve Punch 2", "Martial Arts", 35, NULL, 0, 0,
	    0, 0, "the opponent is knocked unconscious", 0, NULL },
	{ "power-block", "Power Block", "Martial Arts", 15, NULL, 1, 1, 0, 1,
	    "a parry that also does Strength+1D to the opponent", 1, NULL },
	{ "punch", "Punch", "Brawling or Martial Arts", 5, NULL, 1, 1, 0, 1,
	    "damage Strength+1D", 0, NULL },
	{ "reversal", "Reversal", "Strength or Martial Arts", 0,
	    "the opponent's Strength or Martial Arts, whichever is higher",
	    0, 0, 0, 0, "breaks a Hold/Grapple", 1, NULL },
	{ "silent-strike", "Silent Strike", "Martial Arts", 20, NULL, 0, 0,
	    0, 0, "only on an opponent who did not see it coming: dead or "
	    "unconscious, as the attacker chooses", 0, NULL },
	{ "spinning-kick", "Spinning Kick", "Martial Arts", 15, NULL, 1, 0,
	    0, 1, "damage +1D; failure gives the opponent one more action "
	    "without penalty", 0, NULL },
	{ "shoulder-throw", "Shoulder Throw", "Martial Arts", 15, NULL, 3, 0,
	    1, 1, "3D damage and the opponent is knocked down", 0, NULL },
	{ "weapon-block", "Weapon Block", "Martial Arts", 0,
	    "the opponent's Melee Combat", 0, 0, 0, 0,
	    "success: the melee attack is blocked", 0, NULL },
};

const struct d6_action *
d6chart_saber_get(const char *key)
{
	for (size_t i = 0; i < N(sabers); i++)
		if (d6chart_key_eq(sabers[i].key, key))
			return &sabers[i];
	if (d6chart_key_eq("beserk-strike",
	    key))	/* the seed's spelling */
		return d6chart_saber_get("berserk-strike");
	return NULL;
}

const struct d6_action *
d6chart_martial_get(const char *key)
{
	for (size_t i = 0; i < N(martials); i++)
		if (d6chart_key_eq(martials[i].key, key))
			return &martials[i];
	if (d6chart_key_eq("grapple", key))
		return d6chart_martial_get("hold");
	return NULL;
}

const struct d6_action *
d6chart_saber_at(size_t i)
{
	return i < N(sabers) ? &sabers[i] : NULL;
}

const struct d6_action *
d6chart_martial_at(size_t i)
{
	return i < N(martials) ? &martials[i] : NULL;
}

static const struct d6_disarm disarms[6] = {
	{ "below 0", "no effect", "-", 0, 0 },
	{ "0-3", "distracted", "-5 to the opponent's next action", 5, 0 },
	{ "4-8", "distracted", "-10 to the opponent's next action", 10, 0 },
	{ "9-12", "disarmed", "the saber lands 1D metres away", 0, 1 },
	{ "13-15", "disarmed", "the saber lands 2D metres away", 0, 2 },
	{ "16+", "disarmed", "the saber lands 3D metres away", 0, 3 },
};

const struct d6_disarm *
d6chart_disarm_get(int row)
{
	return row >= 0 && row <= 5 ? &disarms[row] : NULL;
}

/* ---- the charts as rows ---- */

static const char *const t_difficulty[][7] = {
	{ "very easy", "5", "point-blank", "-", "-", "2D" },
	{ "easy", "10", "short", "lightly damaged", "wounded", "3D" },
	{ "moderate", "15", "medium", "-", "incapacitated", "4D" },
	{ "difficult", "20", "long", "heavily damaged", "mortally wounded",
	    "6D" },
	{ "very difficult", "30", "-", "severely damaged", "-", "9D" },
	{ "heroic", "31+", "-", "-", "-", "10D+" },
};

static const char *const t_recovery[][7] = {
	{ "below 0", "no effect", "-", "-", "-" },
	{ "0-3", "stunned", "very easy (5)", "-", "-" },
	{ "4-8", "wounded", "easy (10)", "1D hours",
	    "3 days, then 2D: 2-4 incapacitated, 5-6 wounded, 7+ healed" },
	{ "9-12", "incapacitated", "moderate (15)", "2D hours",
	    "2 weeks, then 2D: 2-6 mortally wounded, 7-8 incapacitated, 9+ "
	    "wounded" },
	{ "13-15", "mortally wounded", "difficult (20)", "1D days",
	    "30 days, then 2D: 2-6 dies, 7-8 mortally wounded, 9+ "
	    "incapacitated" },
	{ "16+", "killed", "-", "-", "-" },
};

static const char *const t_scale[][7] = {
	{ "character (creature)", "0D" }, { "speeder", "2D" },
	{ "mecha (walker)", "4D" }, { "starfighter", "6D" },
	{ "capital", "12D" }, { "extreme", "24D" },
};

/* Built once from the structures above. */
static const char *t_human[6][7], *t_ship[6][7], *t_veh[6][7];
static const char *t_weapon[N(weapons)][7], *t_saber[N(sabers)][7];
static const char *t_martial[N(martials)][7], *t_disarm[6][7];
static char subs[3][6][400], bands[N(weapons)][4][32];
static char sdiff[N(sabers)][8], sdmg[N(sabers)][16];
static char mdiff[N(martials)][8], mdmg[N(martials)][16];

static const char *
sub_text(char *buf, size_t sz, const struct d6_damage *d)
{
	size_t len = 0;

	if (d->nsub == 0)
		return "-";
	buf[0] = '\0';
	for (int i = 0; i < d->nsub; i++) {
		const struct d6_sub *s = &d->sub[i];

		if (s->lo == s->hi)
			len += (size_t)snprintf(buf + len, sz - len, "%s%d %s",
			    i ? "; " : "", s->lo, s->effect);
		else
			len += (size_t)snprintf(buf + len, sz - len,
			    "%s%d-%d %s", i ? "; " : "", s->lo, s->hi,
			    s->effect);
		if (len >= sz)
			break;
	}
	return buf;
}

static const char *
metres(char *buf, size_t sz, double lo, double hi)
{
	if (hi <= 0)
		return "-";
	if (lo == -2)
		snprintf(buf, sz, "under %g", hi);
	else if (lo < 0)
		snprintf(buf, sz, "to %g", hi);
	else
		snprintf(buf, sz, "%g-%g", lo, hi);
	return buf;
}

static void
action_cells(const struct d6_action *a, const char **row, char *diff,
    char *dmg)
{
	row[0] = a->key;
	row[1] = a->name;
	row[2] = a->skill;
	if (a->difficulty)
		snprintf(diff, 8, "%d", a->difficulty);
	row[3] = a->difficulty ? diff : a->against ? a->against : "-";
	if (!a->has_dmg)
		row[4] = "-";
	else {
		if (a->dmg_fixed)
			snprintf(dmg, 16, "%dD", a->dmg_dice);
		else if (a->dmg_str)
			snprintf(dmg, 16, "STR%+dD", a->dmg_dice);
		else
			snprintf(dmg, 16, "%+dD", a->dmg_dice);
		row[4] = dmg;
	}
	row[5] = a->effect;
	row[6] = a->reaction ? "yes" : "no";
}

static void
build(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	for (int i = 0; i < 6; i++) {
		const struct d6_damage *h = &human[i], *s = &starship[i],
		    *v = &vehicle[i];

		t_human[i][0] = h->range;
		t_human[i][1] = h->effect;
		t_human[i][2] = h->detail;
		t_human[i][3] = h->armor;
		t_ship[i][0] = s->range;
		t_ship[i][1] = s->effect;
		t_ship[i][2] = i == 1 ? s->detail : sub_text(subs[0][i],
		    sizeof subs[0][i], s);
		t_ship[i][3] = s->extra;
		t_ship[i][4] = s->worse;
		t_veh[i][0] = v->range;
		t_veh[i][1] = v->effect;
		t_veh[i][2] = i == 1 ? v->detail : sub_text(subs[1][i],
		    sizeof subs[1][i], v);
		t_veh[i][3] = v->extra;
		t_veh[i][4] = v->worse;
		t_disarm[i][0] = disarms[i].range;
		t_disarm[i][1] = disarms[i].effect;
		t_disarm[i][2] = disarms[i].detail;
	}
	for (size_t i = 0; i < N(weapons); i++) {
		const struct d6_weapon *w = &weapons[i];

		t_weapon[i][0] = w->key;
		t_weapon[i][1] = w->scale;
		t_weapon[i][2] = w->damage;
		t_weapon[i][3] = metres(bands[i][0], 32, -2, w->min);
		t_weapon[i][4] = metres(bands[i][1], 32, w->min, w->shrt);
		t_weapon[i][5] = metres(bands[i][2], 32, -1, w->medium);
		t_weapon[i][6] = metres(bands[i][3], 32, -1, w->lng);
	}
	for (size_t i = 0; i < N(sabers); i++)
		action_cells(&sabers[i], t_saber[i], sdiff[i], sdmg[i]);
	for (size_t i = 0; i < N(martials); i++)
		action_cells(&martials[i], t_martial[i], mdiff[i], mdmg[i]);
}

#define ROWS(t)	((const char *const (*)[7])(t))

static const struct d6_table tables[] = {
	{ "difficulty", "Difficulties", 6, { "level", "number", "combat",
	    "repair", "medpack", "typical dice" }, (int)N(t_difficulty),
	    t_difficulty },
	{ "damage", "Human damage (damage less Strength)", 4, { "roll",
	    "effect", "penalty", "armor" }, 6, ROWS(t_human) },
	{ "recovery", "Human recovery", 5, { "roll", "effect", "medpack",
	    "bacta", "natural" }, (int)N(t_recovery), t_recovery },
	{ "starship", "Starship damage (damage less hull)", 5, { "roll",
	    "effect", "1D roll", "ion cannon", "already damaged" }, 6,
	    ROWS(t_ship) },
	{ "vehicle", "Vehicle damage (damage less body)", 5, { "roll",
	    "effect", "1D roll", "passengers", "already damaged" }, 6,
	    ROWS(t_veh) },
	{ "scale", "Scales", 2, { "scale", "modifier" }, (int)N(t_scale),
	    t_scale },
	{ "weapons", "Weapons: range bands in metres (short 10, medium 15, "
	    "long 20)", 7, { "weapon", "scale", "damage", "point-blank",
	    "short", "medium", "long" }, (int)N(weapons), ROWS(t_weapon) },
	{ "lightsaber", "Lightsaber actions", 7, { "action", "name", "roll",
	    "difficulty", "damage", "effect", "reaction" }, (int)N(sabers),
	    ROWS(t_saber) },
	{ "martial", "Martial arts actions", 7, { "action", "name", "roll",
	    "difficulty", "damage", "effect", "reaction" },
	    (int)N(martials), ROWS(t_martial) },
	{ "disarm", "Lightsaber disarm (contest margin)", 3, { "roll",
	    "effect", "detail" }, 6, ROWS(t_disarm) },
};

const struct d6_table *
d6chart_table_at(size_t i)
{
	if (i >= N(tables))
		return NULL;
	build();
	return &tables[i];
}

const struct d6_table *
d6chart_table_get(const char *key)
{
	const struct d6_table *t;

	for (size_t i = 0; (t = d6chart_table_at(i)) != NULL; i++)
		if (d6chart_key_eq(t->key, key))
			return t;
	if (d6chart_key_eq("human", key))
		return d6chart_table_get("damage");
	if (d6chart_key_eq("saber", key))
		return d6chart_table_get("lightsaber");
	return NULL;
}
