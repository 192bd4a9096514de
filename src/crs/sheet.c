/*
 * sheet.c - character sheets and their fields; see sheet.h.
 */
#include "crs/sheet.h"

#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
sheet_init(struct sheet *sh)
{
	memset(sh, 0, sizeof *sh);
	for (int i = 0; i < P_COUNT; i++)
		sh->primary[i] = STATS_ABSENT;
	for (int i = 0; i < S_COUNT; i++)
		sh->given[i] = STATS_ABSENT;
}

static void
free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

void
sheet_release(struct sheet *sh)
{
	free(sh->name);
	free(sh->player);
	free(sh->notes);
	free_names(sh->items, sh->nitems);
	free_names(sh->powers, sh->npowers);
	sheet_init(sh);
}

const char *
sheet_field_name(int f)
{
	switch (f) {
	case SHEET_F_NAME: return "name";
	case SHEET_F_PLAYER: return "player";
	case SHEET_F_NOTES: return "notes";
	case SHEET_F_ITEMS: return "items";
	case SHEET_F_POWERS: return "powers";
	}
	if (f >= SHEET_F_PRIMARY && f < SHEET_F_GIVEN)
		return stats_primary_name(f - SHEET_F_PRIMARY);
	if (f >= SHEET_F_GIVEN && f < SHEET_F_ITEMS)
		return stats_secondary_name(f - SHEET_F_GIVEN);
	return "?";
}

int
sheet_field_lookup(const char *name)
{
	for (int f = 0; f < SHEET_F_COUNT; f++)
		if (util_streq_ci(name, sheet_field_name(f)))
			return f;
	return -1;
}

static int
set_text(char **field, const char *value, enum util_text kind, size_t max,
    int required, char *why, size_t whysz)
{
	if (*value == '\0' && required) {
		snprintf(why, whysz, "must not be empty");
		return -1;
	}
	if (util_check_text(value, kind, max, why, whysz) != 0)
		return -1;
	free(*field);
	*field = *value ? xstrdup(value) : NULL;
	return 0;
}

int
sheet_add_name(struct sheet *sh, int f, const char *name, char *why,
    size_t whysz)
{
	char ***list = f == SHEET_F_ITEMS ? &sh->items : &sh->powers;
	size_t *n = f == SHEET_F_ITEMS ? &sh->nitems : &sh->npowers;

	if (item_check_name(name, why, whysz) != 0)
		return -1;
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*list)[i], name) == 0) {
			util_say(why, whysz, "names '%s' twice", name);
			return -1;
		}
	*list = xreallocarray(*list, *n + 1, sizeof **list);
	(*list)[(*n)++] = xstrdup(name);
	return 0;
}

/* Replaces a list with the ';'-separated names in value. */
static int
set_list(struct sheet *sh, int f, const char *value, char *why,
    size_t whysz)
{
	char **list = f == SHEET_F_ITEMS ? sh->items : sh->powers;
	size_t n = f == SHEET_F_ITEMS ? sh->nitems : sh->npowers;
	char *copy, *p, *sep;
	int rc = 0;

	free_names(list, n);
	if (f == SHEET_F_ITEMS) {
		sh->items = NULL;
		sh->nitems = 0;
	} else {
		sh->powers = NULL;
		sh->npowers = 0;
	}
	if (*value == '\0')
		return 0;
	copy = xstrdup(value);
	for (p = copy; rc == 0; p = sep + 1) {
		if ((sep = strchr(p, ';')) != NULL)
			*sep = '\0';
		rc = sheet_add_name(sh, f, p, why, whysz);
		if (sep == NULL)
			break;
	}
	free(copy);
	return rc;
}

int
sheet_set_field(struct sheet *sh, int f, const char *value, char *why,
    size_t whysz)
{
	int v;

	switch (f) {
	case SHEET_F_NAME:
		return set_text(&sh->name, value, UTIL_TEXT_LINE,
		    SHEET_NAME_MAX, 1, why, whysz);
	case SHEET_F_PLAYER:
		return set_text(&sh->player, value, UTIL_TEXT_LINE,
		    SHEET_PLAYER_MAX, 0, why, whysz);
	case SHEET_F_NOTES:
		return set_text(&sh->notes, value, UTIL_TEXT_NOTES,
		    SHEET_NOTES_MAX, 0, why, whysz);
	case SHEET_F_ITEMS:
	case SHEET_F_POWERS:
		return set_list(sh, f, value, why, whysz);
	}
	if (f >= SHEET_F_PRIMARY && f < SHEET_F_ITEMS) {
		int given = f >= SHEET_F_GIVEN;
		int max = given ? STATS_SECONDARY_MAX : STATS_PRIMARY_MAX;

		if (*value == '\0')
			v = STATS_ABSENT;
		else if (stats_parse_value(value, max, &v, why, whysz) != 0)
			return -1;
		if (given)
			sh->given[f - SHEET_F_GIVEN] = v;
		else
			sh->primary[f - SHEET_F_PRIMARY] = v;
		return 0;
	}
	snprintf(why, whysz, "is not a field");
	return -1;
}

void
sheet_secondary(const struct sheet *sh, enum stats_rounding rounding,
    const struct item *held, size_t nheld, struct sheet_stat out[S_COUNT])
{
	/* The items' OR, DR and MIND modifiers, by secondary stat. */
	static const int item_mod_of[S_COUNT] = {
		[S_OR] = ITEM_OR, [S_DR] = ITEM_DR, [S_MIND] = ITEM_MIND,
		[S_LIFE] = -1, [S_IN] = -1, [S_EM] = -1, [S_LB] = -1
	};

	for (int s = 0; s < S_COUNT; s++) {
		struct sheet_stat *st = &out[s];
		long eff;

		if (sh->given[s] != STATS_ABSENT) {
			st->value = sh->given[s];
			st->source = SHEET_GIVEN;
		} else {
			st->value = stats_compute(sh->primary, s, rounding);
			st->source = st->value == STATS_ABSENT ?
			    SHEET_ABSENT : SHEET_COMPUTED;
		}
		st->effective = st->value;
		if (st->value == STATS_ABSENT || item_mod_of[s] < 0)
			continue;
		eff = st->value;
		for (size_t i = 0; i < nheld; i++)
			if (item_always_on(&held[i]))
				eff += held[i].mod[item_mod_of[s]];
		st->effective = eff < 0 ? 0 : (int)eff;
	}
}

int
sheet_calc_base(int stat, int kind, int mod_side, int mod_pick)
{
	return stat + mod_pick + (kind == SHEET_MENTAL ? 0 : mod_side);
}

int
sheet_always_on(const struct item *held, size_t nheld, int mod)
{
	int sum = 0;

	for (size_t i = 0; i < nheld; i++)
		if (item_always_on(&held[i]))
			sum += held[i].mod[mod];
	return sum;
}

int
sheet_attack_base(const struct sheet_stat st[S_COUNT],
    const struct item *held, size_t nheld, int kind, int use, int *base,
    char *why, size_t whysz)
{
	int s = kind == SHEET_SHORT ? S_OR : kind == SHEET_LONG ? S_DR :
	    S_MIND;
	int have = st[s].effective;

	if (have == STATS_ABSENT) {
		snprintf(why, whysz, "has no %s", stats_secondary_name(s));
		return -1;
	}
	if (use > have) {
		snprintf(why, whysz, "has only %d %s to use, not %d", have,
		    stats_secondary_name(s), use);
		return -1;
	}
	/* A mental attacker, too, chooses how much MIND to put in. */
	*base = sheet_calc_base(use > 0 ? use : have, kind,
	    sheet_always_on(held, nheld, ITEM_OFFENSE),
	    sheet_always_on(held, nheld, ITEM_PICK));
	return 0;
}

int
sheet_defense_base(const struct sheet_stat st[S_COUNT],
    const struct item *held, size_t nheld, int kind, int *base, char *why,
    size_t whysz)
{
	int s = kind == SHEET_MENTAL ? S_MIND : S_DR;
	int have = st[s].effective;

	if (have == STATS_ABSENT) {
		snprintf(why, whysz, "has no %s", stats_secondary_name(s));
		return -1;
	}
	if (kind == SHEET_MENTAL && have == 0) {
		snprintf(why, whysz, "has a MIND of 0, which no mental attack "
		    "may target");
		return -1;
	}
	*base = sheet_calc_base(have, kind, sheet_always_on(held, nheld,
	    ITEM_DEFENSE), sheet_always_on(held, nheld, ITEM_PICK));
	return 0;
}
