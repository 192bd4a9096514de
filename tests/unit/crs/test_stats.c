/*
 * test_stats.c - the secondary stat formulas (RULINGS section 1), with
 * exact numbers, both truncation readings and absent inputs.
 */
#include "tap.h"

#include "crs/stats.h"

/* A full set of primaries: ENE STR INT CUN AGI CON CHA LUC LEVEL. */
static void
set(int p[P_COUNT], int ene, int str, int in, int cun, int agi, int con,
    int cha, int luc, int level)
{
	p[P_ENE] = ene; p[P_STR] = str; p[P_INT] = in; p[P_CUN] = cun;
	p[P_AGI] = agi; p[P_CON] = con; p[P_CHA] = cha; p[P_LUC] = luc;
	p[P_LEVEL] = level;
}

static void
absent(int p[P_COUNT])
{
	for (int i = 0; i < P_COUNT; i++)
		p[i] = STATS_ABSENT;
}

int
main(void)
{
	int p[P_COUNT];
	const enum stats_rounding W = STATS_ROUND_WHOLE;
	const enum stats_rounding T = STATS_ROUND_PER_TERM;
	char why[128];
	int v;

	/* The edge: STR=3 AGI=4 is 1.5+0.5+1 = 3 whole, 1+0+1 = 2. */
	absent(p);
	p[P_STR] = 3;
	p[P_AGI] = 4;
	is_int(stats_compute(p, S_OR, W), 3, "OR STR=3 AGI=4 whole is 3");
	is_int(stats_compute(p, S_OR, T), 2, "OR STR=3 AGI=4 per-term is 2");
	is_int(stats_compute(p, S_DR, W), STATS_ABSENT, "DR needs CUN");
	is_int(stats_compute(p, S_LIFE, W), STATS_ABSENT, "LIFE needs CON");
	is_int(stats_compute(p, S_EM, W), STATS_ABSENT, "EM needs ENE");
	is_int(stats_compute(p, S_LB, W), STATS_ABSENT, "LB needs LUC");
	is_int(stats_compute(p, S_MIND, W), STATS_ABSENT, "MIND needs CHA");
	is_int(stats_compute(p, S_IN, W), STATS_ABSENT, "IN needs CUN");

	/* A worked character: ENE 30 STR 12 INT 10 CUN 14 AGI 16 CON 10
	 * CHA 12 LUC 12 LEVEL 2. */
	set(p, 30, 12, 10, 14, 16, 10, 12, 12, 2);
	is_int(stats_compute(p, S_OR, W), 9, "OR 6+2+1");
	is_int(stats_compute(p, S_DR, W), 14, "DR 8+1.5+3.5+1 = 14");
	is_int(stats_compute(p, S_DR, T), 13, "DR per-term 8+1+3+1");
	is_int(stats_compute(p, S_MIND, W), 12, "MIND 6+3.33+2.33+1 = 12.67");
	is_int(stats_compute(p, S_MIND, T), 12, "MIND per-term 6+3+2+1");
	is_int(stats_compute(p, S_LIFE, W), 20, "LIFE 2*CON");
	is_int(stats_compute(p, S_IN, W), 5, "IN 3.5+2 = 5.5");
	is_int(stats_compute(p, S_IN, T), 5, "IN per-term 3+2");
	is_int(stats_compute(p, S_EM, W), 12, "EM 10+2");
	is_int(stats_compute(p, S_LB, W), 2, "LB 12/6");

	/* Fractions that add up past a whole only when kept exact. */
	set(p, 2, 1, 2, 3, 7, 0, 1, 5, STATS_ABSENT);
	is_int(stats_compute(p, S_OR, W), 2, "OR (4+7+8)/8 = 2.375");
	is_int(stats_compute(p, S_OR, T), 1, "OR per-term 0+0+1");
	is_int(stats_compute(p, S_DR, W), 5, "DR (28+1+6+8)/8 = 5.375");
	is_int(stats_compute(p, S_DR, T), 4, "DR per-term 3+0+0+1");
	is_int(stats_compute(p, S_MIND, W), 2, "MIND (3+4+3+6)/6 = 2.67");
	is_int(stats_compute(p, S_MIND, T), 1, "MIND per-term 0+0+0+1");
	is_int(stats_compute(p, S_IN, W), 1, "IN (6+7)/8 = 1.625");
	is_int(stats_compute(p, S_IN, T), 0, "IN per-term 0+0");
	is_int(stats_compute(p, S_EM, W), 0, "EM ENE 2, LEVEL absent = 0");
	is_int(stats_compute(p, S_LB, W), 0, "LB 5/6 = 0");
	is_int(stats_compute(p, S_LIFE, W), 0, "LIFE of CON 0 is 0");

	/* All zeros, and all at the maximum. */
	set(p, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	is_int(stats_compute(p, S_OR, W), 1, "OR of zeros is 1");
	is_int(stats_compute(p, S_DR, W), 1, "DR of zeros is 1");
	is_int(stats_compute(p, S_MIND, W), 1, "MIND of zeros is 1");
	is_int(stats_compute(p, S_IN, W), 0, "IN of zeros is 0");
	set(p, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000);
	is_int(stats_compute(p, S_OR, W), 626, "OR max (5008/8)");
	is_int(stats_compute(p, S_DR, W), 876, "DR max (7008/8)");
	is_int(stats_compute(p, S_MIND, W), 1001, "MIND max (6006/6)");
	is_int(stats_compute(p, S_LIFE, W), 2000, "LIFE max");
	is_int(stats_compute(p, S_IN, W), 375, "IN max");
	is_int(stats_compute(p, S_EM, W), 1333, "EM max 333+1000");
	is_int(stats_compute(p, S_LB, W), 166, "LB max");
	is_int(stats_compute(p, S_DR, T), 876, "DR max per-term 500+125+250+1");

	/* Parsing values. */
	ok(stats_parse_value("0", 1000, &v, why, sizeof why) == 0 && v == 0,
	    "0 parses");
	ok(stats_parse_value("1000", 1000, &v, why, sizeof why) == 0 &&
	    v == 1000, "1000 parses");
	/* No sign on a value that cannot be negative (refkit(7)). */
	ok(stats_parse_value("+7", 1000, &v, why, sizeof why) != 0,
	    "+7 refused");
	ok(stats_parse_value("010", 1000, &v, why, sizeof why) != 0,
	    "010 refused");
	ok(stats_parse_value("-0", 1000, &v, why, sizeof why) != 0,
	    "-0 refused");
	ok(stats_parse_value("1001", 1000, &v, why, sizeof why) != 0,
	    "1001 refused");
	is_str(why, "must be a whole number from 0 to 1000", "the reason");
	ok(stats_parse_value("-3", 1000, &v, why, sizeof why) != 0,
	    "-3 refused");
	ok(stats_parse_value("7.5", 1000, &v, why, sizeof why) != 0,
	    "7.5 refused");
	ok(stats_parse_value("", 1000, &v, why, sizeof why) != 0,
	    "empty refused");
	ok(stats_parse_value(" 7", 1000, &v, why, sizeof why) != 0,
	    "leading space refused");
	ok(stats_parse_value("0x10", 1000, &v, why, sizeof why) != 0,
	    "hex refused");
	ok(stats_parse_value("99999999999999999999", 1000, &v, why,
	    sizeof why) != 0, "overflow refused");
	ok(stats_parse_value("twelve", 1000, &v, why, sizeof why) != 0,
	    "words refused");

	/* Names. */
	is_int(stats_primary_lookup("agi"), P_AGI, "agi is AGI");
	is_int(stats_primary_lookup("Level"), P_LEVEL, "Level is LEVEL");
	is_int(stats_primary_lookup("OR"), -1, "OR is not primary");
	is_int(stats_secondary_lookup("mind"), S_MIND, "mind is MIND");
	is_int(stats_rounding_lookup("per-term"), STATS_ROUND_PER_TERM,
	    "per-term");
	is_int(stats_rounding_lookup("round"), -1, "round is not a mode");
	return tap_done();
}
