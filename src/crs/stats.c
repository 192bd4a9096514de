/*
 * stats.c - the secondary stat formulas.
 *
 * The rule document writes each formula as a sum of quotients, e.g.
 * OR = STR/2 + AGI/8 + 1, and says results are truncated.  RULINGS reads
 * that as "evaluate exactly, truncate only the result", which in integer
 * arithmetic means putting every term over a common denominator:
 * OR = (4*STR + AGI + 8) / 8.  The per-term reading truncates each
 * quotient on its own.  Inputs are at most 1000, so no sum overflows.
 */
#include "crs/stats.h"

#include "base/util.h"

#include <stdio.h>

static const char *const primary_names[P_COUNT] = {
	"ENE", "STR", "INT", "CUN", "AGI", "CON", "CHA", "LUC", "LEVEL"
};

static const char *const secondary_names[S_COUNT] = {
	"OR", "DR", "MIND", "LIFE", "IN", "EM", "LB"
};

const char *
stats_primary_name(int p)
{
	return p >= 0 && p < P_COUNT ? primary_names[p] : "?";
}

const char *
stats_secondary_name(int s)
{
	return s >= 0 && s < S_COUNT ? secondary_names[s] : "?";
}

int
stats_primary_lookup(const char *name)
{
	for (int i = 0; i < P_COUNT; i++)
		if (util_streq_ci(name, primary_names[i]))
			return i;
	return -1;
}

int
stats_secondary_lookup(const char *name)
{
	for (int i = 0; i < S_COUNT; i++)
		if (util_streq_ci(name, secondary_names[i]))
			return i;
	return -1;
}

int
stats_rounding_lookup(const char *name)
{
	if (util_streq_ci(name, "whole"))
		return STATS_ROUND_WHOLE;
	if (util_streq_ci(name, "per-term"))
		return STATS_ROUND_PER_TERM;
	return -1;
}

int
stats_compute(const int pr[P_COUNT], int s, enum stats_rounding r)
{
	const int whole = r == STATS_ROUND_WHOLE;
	const int str = pr[P_STR], agi = pr[P_AGI], cun = pr[P_CUN];
	const int in = pr[P_INT], cha = pr[P_CHA];
	int level;

	switch (s) {
	case S_OR:
		if (str < 0 || agi < 0)
			return STATS_ABSENT;
		return whole ? (4 * str + agi + 8) / 8 : str / 2 + agi / 8 + 1;
	case S_DR:
		if (agi < 0 || str < 0 || cun < 0)
			return STATS_ABSENT;
		return whole ? (4 * agi + str + 2 * cun + 8) / 8 :
		    agi / 2 + str / 8 + cun / 4 + 1;
	case S_MIND:
		if (cha < 0 || in < 0 || cun < 0)
			return STATS_ABSENT;
		return whole ? (3 * cha + 2 * in + cun + 6) / 6 :
		    cha / 2 + in / 3 + cun / 6 + 1;
	case S_LIFE:
		return pr[P_CON] < 0 ? STATS_ABSENT : 2 * pr[P_CON];
	case S_IN:
		if (cun < 0 || agi < 0)
			return STATS_ABSENT;
		return whole ? (2 * cun + agi) / 8 : cun / 4 + agi / 8;
	case S_EM:
		/* LEVEL is whole, so both readings agree: ENE/3 + LEVEL. */
		if (pr[P_ENE] < 0)
			return STATS_ABSENT;
		level = pr[P_LEVEL] < 0 ? 0 : pr[P_LEVEL];
		return pr[P_ENE] / 3 + level;
	case S_LB:
		return pr[P_LUC] < 0 ? STATS_ABSENT : pr[P_LUC] / 6;
	}
	return STATS_ABSENT;
}

int
stats_parse_value(const char *s, int max, int *out, char *why, size_t whysz)
{
	long v;

	if (util_parse_int(s, 0, max, &v) != UTIL_INT_OK) {
		snprintf(why, whysz, "must be a whole number from 0 to %d",
		    max);
		return -1;
	}
	*out = (int)v;
	return 0;
}
