/*
 * stats.h - the CRS primary and secondary stats and the formulas that turn
 * one into the other (seed 002, "Secondary Stats"; RULINGS section 1).
 * Pure: no I/O, no globals.
 */
#ifndef REFKIT_STATS_H
#define REFKIT_STATS_H

#include <stddef.h>

enum stats_primary {
	P_ENE, P_STR, P_INT, P_CUN, P_AGI, P_CON, P_CHA, P_LUC, P_LEVEL,
	P_COUNT
};

enum stats_secondary {
	S_OR, S_DR, S_MIND, S_LIFE, S_IN, S_EM, S_LB,
	S_COUNT
};

enum stats_rounding {
	STATS_ROUND_WHOLE,	/* truncate only the final result (default) */
	STATS_ROUND_PER_TERM	/* truncate each division, as some groups do */
};

/* A stat that is not known (primary) or cannot be computed (secondary). */
#define STATS_ABSENT	(-1)
/* Primary stats are whole numbers from 0 to STATS_PRIMARY_MAX. */
#define STATS_PRIMARY_MAX	1000
/* A secondary stat given directly is a whole number from 0 to this. */
#define STATS_SECONDARY_MAX	100000

/* Upper-case names as printed: "ENE" ... "LEVEL", "OR" ... "LB". */
const char *stats_primary_name(int p);
const char *stats_secondary_name(int s);

/* Case-insensitive look-up of a name; -1 if it is not a stat. */
int stats_primary_lookup(const char *name);
int stats_secondary_lookup(const char *name);

/*
 * Computes secondary stat s from the primaries (STATS_ABSENT where not
 * known).  Returns STATS_ABSENT when an input the formula needs is missing.
 * LEVEL is the one optional input: EM treats a missing LEVEL as 0.
 */
int stats_compute(const int primary[P_COUNT], int s,
    enum stats_rounding rounding);

/*
 * Parses a stat value: a whole decimal number from 0 to max.  Returns 0
 * and sets *out, or -1 and writes why into why (e.g. "must be a whole
 * number from 0 to 1000"); the caller adds the field name and value.
 */
int stats_parse_value(const char *s, int max, int *out, char *why,
    size_t whysz);

/* Parses "whole" or "per-term"; -1 if neither. */
int stats_rounding_lookup(const char *name);

#endif
