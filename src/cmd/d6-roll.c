/*
 * d6-roll - the D6 System at the table: rolls with the Wild Die,
 * difficulties and opposed rolls, the multiple-action penalty, Character
 * and Force Points, damage on the charts, the charts themselves, stored
 * characters, and exact odds.  A thin layer over d6.c, d6/chart.c and
 * d6/sheet.c.  See d6-roll(1).
 */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "d6/d6.h"
#include "d6/chart.h"
#include "d6/complete.h"
#include "d6/page.h"
#include "d6/sheet.h"
#include "d6/ledger.h"
#include "db/db.h"
#include "base/names.h"
#include "base/out.h"
#include "base/rng.h"
#include "paper/sheetrun.h"
#include "base/strbuf.h"
#include "base/util.h"

#define q util_q

/* Difficulties and ranges stay within these. */
#define TARGET_MAX	10000
#define TIMES_MAX	1000000000L

struct opts {
	const char	*db;
	enum out_format	 fmt;
	int		 exact;
	int		 have_vs;
	long		 vs;
	const char	*opposed;
	struct d6_mods	 mods;
	int		 reaction;
	long		 times;
	int		 have_seed;
	uint64_t	 seed;
	const char	*resist;
	const char	*chart;
	const char	*scale;
	const char	*armor;
	int		 sub_roll;
	const char	*range;
	const char	*skill;
	const char	*damage;
	const char	*strength;
	const char	*vs_strength;
	const char	*round;
	const char	*output;	/* char sheets --output */
	int		 paper, per_page, all, sheet_opts;
};

static const char usage_text[] =
"usage: d6-roll CODE [--vs DIFFICULTY | --opposed CODE] [--actions N]\n"
"               [--cp N [--reaction] | --fp] [--wild-one complication|drop|none]\n"
"               [--no-wild] [--times N] [--seed S] [--json | --csv]\n"
"       d6-roll odds CODE [--vs DIFFICULTY | --opposed CODE] [--actions N]\n"
"               [--cp N] [--fp] [--wild-one ...] [--no-wild] [--json | --csv]\n"
"               [--exact]\n"
"       d6-roll damage CODE --resist CODE [--chart human|starship|vehicle]\n"
"               [--scale ATTACKER:TARGET] [--armor light|heavy]\n"
"               [--sub-roll N] [--seed S] [--json]\n"
"       d6-roll table [NAME] [--json | --csv]\n"
"       d6-roll weapon NAME --range METRES [--json]\n"
"       d6-roll saber ACTION --skill CODE [--damage CODE] [--opposed CODE]\n"
"               [--strength CODE --vs-strength CODE] [--vs N] [--seed S]\n"
"       d6-roll martial ACTION --skill CODE [--strength CODE]\n"
"               [--opposed CODE] [--seed S]\n"
"       d6-roll char add|set NAME [TRAIT=CODE | ATTRIBUTE.SKILL=CODE |\n"
"               TRAIT=- | cp=N | fp=N | dsp=N | notes=TEXT] ...\n"
"       d6-roll char show|rm NAME     d6-roll char list\n"
"       d6-roll char sheets NAME...|--all --output FILE.pdf [--paper a4|letter]\n"
"               [--per-page 1|2]      d6-roll char verify-sheet CODE\n"
"       d6-roll [char roll] NAME TRAIT [--round LABEL] [roll options]\n"
"\n"
"CODE is 4D, 4D+2, 3D-1 (one die is the Wild Die) or D6, 2D6, 3d6+1 (plain\n"
"dice).  DIFFICULTY is a number or very-easy, easy, moderate, difficult,\n"
"very-difficult, heroic.\n"
"\n"
"  -v, --vs D           the difficulty to meet or beat\n"
"  -o, --opposed CODE   an opposed roll: the higher total wins, ties to CODE\n"
"  -a, --actions N      actions this round: -1D for each beyond the first\n"
"      --cp N           Character Points: N more exploding dice (at most 2)\n"
"      --reaction       a reaction roll: up to 5 Character Points\n"
"      --fp             a Force Point: the code doubles\n"
"      --wild-one T     a 1 on the Wild Die: complication (default), drop\n"
"                       (it and the highest die go) or none\n"
"      --no-wild        no Wild Die\n"
"  -n, --times N        roll N times, one line each\n"
"  -s, --seed S         replay a roll (default: a seed from the system)\n"
"      --resist CODE    damage: the Strength or hull roll\n"
"      --chart C        damage: human (default), starship or vehicle\n"
"      --scale A:T      damage: attacker's and target's scales\n"
"      --armor S        damage: armor already lightly or heavily damaged\n"
"      --sub-roll N     damage: the chart's 1D, rolled at the table\n"
"      --range M        weapon: the range in metres\n"
"      --skill CODE, --damage CODE, --strength CODE, --vs-strength CODE\n"
"                       saber and martial actions\n"
"      --round LABEL    a character's roll: the round it belongs to\n"
"      --db PATH        the database (characters)\n"
"      --output FILE, --all, --paper a4|letter, --per-page 1|2\n"
"                       char sheets: the PDF file, every character, the\n"
"                       paper (A4 by default), sheets to a page (1)\n"
"  -j, --json, -c, --csv   machine output\n"
"  -e, --exact          odds as exact fractions\n"
"  -h, --help, -V, --version\n";

/* ---- small helpers ---- */

static struct d6_code
code_arg(const char *what, const char *s)
{
	struct d6_code c;
	char why[128];

	if (d6_parse_code(s, &c, why, sizeof why) != 0)
		cli_usage_error("%s '%s': %s", what, q(s), why);
	return c;
}

static void
make_spec(struct d6_spec *s, struct d6_code c, const struct d6_mods *m)
{
	char why[200];

	if (d6_spec_make(s, c, m, why, sizeof why) != 0)
		errx(1, "%s", why);
}

/* The opposing side: no penalty or points, the same Wild Die options. */
static struct d6_mods
plain_mods(const struct opts *o)
{
	struct d6_mods m = o->mods;

	m.actions = 1;
	m.cp = 0;
	m.fp = 0;
	return m;
}

static uint64_t
seed_of(const struct opts *o)
{
	return o->have_seed ? o->seed : rng_os_seed();
}

static const char *
one_name(enum d6_one one)
{
	return one == D6_ONE_DROP ? "drop" : one == D6_ONE_NONE ? "none" :
	    "complication";
}

static const char *
code_s(const struct d6_code *c)
{
	static char buf[4][32];
	static int k;

	k = (k + 1) % 4;
	d6_code_str(c, buf[k], sizeof buf[k]);
	return buf[k];
}

static void
json_ints(FILE *fp, const int *v, int n)
{
	fputc('[', fp);
	for (int i = 0; i < n; i++)
		fprintf(fp, "%s%d", i ? "," : "", v[i]);
	fputc(']', fp);
}

/* The fields of one roll, for a JSON object. */
static void
json_roll_fields(FILE *fp, const struct d6_spec *s,
    const struct d6_roll *r)
{
	fprintf(fp, "\"code\":\"%s\",\"asked\":\"%s\",\"actions\":%d,\"fp\":%s,",
	    code_s(&s->code), code_s(&s->base), s->actions,
	    s->fp ? "true" : "false");
	fprintf(fp, "\"wild_one\":");
	if (s->wild)
		fprintf(fp, "\"%s\"", one_name(s->one));
	else
		fprintf(fp, "null");
	fprintf(fp, ",\"dice\":");
	json_ints(fp, r->dice, r->ndice);
	fprintf(fp, ",\"wild\":");
	json_ints(fp, r->wild.v, r->wild.n < D6_CHAIN_MAX ? r->wild.n :
	    D6_CHAIN_MAX);
	fprintf(fp, ",\"cp\":[");
	for (int i = 0; i < r->ncp; i++) {
		if (i)
			fputc(',', fp);
		json_ints(fp, r->cp[i].v, r->cp[i].n < D6_CHAIN_MAX ?
		    r->cp[i].n : D6_CHAIN_MAX);
	}
	fprintf(fp, "],\"dropped\":");
	if (r->dropped_wild)
		r->drop >= 0 ? fprintf(fp, "%d", r->dice[r->drop]) : fprintf(fp, "0");
	else
		fprintf(fp, "null");
	fprintf(fp, ",\"pips\":%d,\"total\":%ld,\"complication\":%s",
	    s->code.pips, r->total, r->complication ? "true" : "false");
}

static void
text_chain(const struct d6_chain *c)
{
	for (int i = 0; i < c->n && i < D6_CHAIN_MAX; i++)
		printf("%s%d", i ? "+" : "", c->v[i]);
	if (c->n > D6_CHAIN_MAX)
		printf("+... (%d tosses)", c->n);
}

/* "4D+2 (asked 4D+2 ...)" and the dice, one roll, for people. */
static void
text_roll(const char *label, const struct d6_spec *s,
    const struct d6_roll *r)
{
	printf("%s %s", label, code_s(&s->code));
	if (s->actions > 1 || s->fp) {
		printf(" (%s", code_s(&s->base));
		if (s->actions > 1)
			printf(", -%dD for %d actions", s->actions - 1,
			    s->actions);
		if (s->fp)
			printf(", doubled by a Force Point");
		printf(")");
	}
	if (!s->wild && !s->code.plain)
		printf(" (no Wild Die)");
	printf("\n  dice   ");
	for (int i = 0; i < r->ndice; i++)
		printf(" %d%s", r->dice[i], i == r->drop ? "(dropped)" : "");
	if (r->ndice == 0)
		printf(" -");
	putchar('\n');
	if (r->wild.n) {
		printf("  wild    ");
		text_chain(&r->wild);
		if (r->complication)
			printf("  complication!");
		else if (r->dropped_wild)
			printf("  dropped, with the highest other die");
		else if (r->wild.n > 1)
			printf("  (exploded)");
		putchar('\n');
	}
	for (int i = 0; i < r->ncp; i++) {
		printf("  cp      ");
		text_chain(&r->cp[i]);
		putchar('\n');
	}
	if (s->code.pips)
		printf("  pips    %+d\n", s->code.pips);
	printf("  total   %ld\n", r->total);
}

static const char *
verdict(long margin)
{
	return margin >= 0 ? "success" : "failure";
}

/* ---- roll ---- */

struct rolled {
	struct d6_spec	 s, os;
	struct d6_roll	 r, or;
	int		 has_target, opposed;
	long		 target;
	uint64_t	 seed;
};

static void
do_roll(const struct opts *o, struct rolled *x, struct rng *g)
{
	x->opposed = o->opposed != NULL;
	d6_roll(g, &x->s, &x->r);
	if (x->opposed) {
		d6_roll(g, &x->os, &x->or);
		x->target = x->or.total;
	} else {
		x->target = o->vs;
	}
	x->has_target = o->have_vs || x->opposed;
}

static void
print_json_roll(FILE *fp, const struct rolled *x, long n,
    const char *extra)
{
	fprintf(fp, "{\"seed\":%llu,", (unsigned long long)x->seed);
	if (n > 0)
		fprintf(fp, "\"n\":%ld,", n);
	json_roll_fields(fp, &x->s, &x->r);
	if (x->has_target)
		fprintf(fp, ",\"difficulty\":%ld,\"success\":%s,\"margin\":%ld",
		    x->target, x->r.total >= x->target ? "true" : "false",
		    x->r.total - x->target);
	else
		fprintf(fp, ",\"difficulty\":null,\"success\":null,"
		    "\"margin\":null");
	fprintf(fp, ",\"opposed\":");
	if (x->opposed) {
		fputc('{', fp);
		json_roll_fields(fp, &x->os, &x->or);
		fputc('}', fp);
	} else {
		fprintf(fp, "null");
	}
	if (extra)
		fprintf(fp, "%s", extra);
	fputc('}', fp);
}

static void
print_text_roll(const struct rolled *x)
{
	text_roll("roll", &x->s, &x->r);
	if (x->opposed) {
		text_roll("opposed", &x->os, &x->or);
		printf("%ld against %ld: %s, margin %ld%s\n", x->r.total,
		    x->target, verdict(x->r.total - x->target),
		    x->r.total - x->target, x->r.total == x->target ?
		    " (a tie goes to the one who acts)" : "");
	} else if (x->has_target) {
		printf("difficulty %ld (%s): %s, margin %ld\n", x->target,
		    d6_difficulty_band(x->target),
		    verdict(x->r.total - x->target), x->r.total - x->target);
	}
}

static void
csv_header(void)
{
	printf("n,seed,code,total,complication,difficulty,success,margin\n");
}

static void
csv_roll(const struct rolled *x, long n)
{
	printf("%ld,%llu,%s,%ld,%d,", n, (unsigned long long)x->seed,
	    code_s(&x->s.code), x->r.total, x->r.complication);
	if (x->has_target)
		printf("%ld,%d,%ld\n", x->target, x->r.total >= x->target,
		    x->r.total - x->target);
	else
		printf(",,\n");
}

/* Writes v and a newline into p; returns the new end.  For --times. */
static char *
put_long(char *p, long v)
{
	char tmp[24];
	int n = 0;
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;

	if (v < 0)
		*p++ = '-';
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static int
cmd_roll(struct opts *o, struct d6_code c)
{
	struct rolled x;
	struct rng g;

	memset(&x, 0, sizeof x);
	make_spec(&x.s, c, &o->mods);
	if (o->opposed) {
		struct d6_mods pm = plain_mods(o);

		make_spec(&x.os, code_arg("--opposed", o->opposed), &pm);
	}
	x.seed = seed_of(o);
	rng_seed(&g, x.seed);
	if (o->times == 0) {
		do_roll(o, &x, &g);
		if (o->fmt == OUT_JSON) {
			print_json_roll(stdout, &x, 0, NULL);
			putchar('\n');
		} else if (o->fmt == OUT_CSV) {
			csv_header();
			csv_roll(&x, 1);
		} else {
			print_text_roll(&x);
			printf("seed %llu\n", (unsigned long long)x.seed);
		}
		return 0;
	}
	if (o->fmt == OUT_JSON)
		putchar('[');
	else if (o->fmt == OUT_CSV)
		csv_header();
	for (long i = 1; i <= o->times; i++) {
		do_roll(o, &x, &g);
		if (o->fmt == OUT_JSON) {
			if (i > 1)
				putchar(',');
			print_json_roll(stdout, &x, i, NULL);
		} else if (o->fmt == OUT_CSV) {
			csv_roll(&x, i);
		} else {
			char line[96], *p = put_long(line, x.r.total);

			if (x.has_target) {
				long m = x.r.total - x.target;

				memcpy(p, m >= 0 ? " success " : " failure ",
				    9);
				p += 9;
				if (m >= 0)
					*p++ = '+';
				p = put_long(p, m);
			}
			if (x.r.complication) {
				memcpy(p, " complication", 13);
				p += 13;
			}
			*p++ = '\n';
			fwrite(line, 1, (size_t)(p - line), stdout);
		}
	}
	if (o->fmt == OUT_JSON)
		printf("]\n");
	else if (o->fmt == OUT_TABLE)
		printf("seed %llu\n", (unsigned long long)x.seed);
	return 0;
}

/* ---- odds ---- */

static void
print_q(const struct opts *o, mpq_srcptr p, int json)
{
	if (o->exact)
		gmp_printf(json ? "\"%Qd\"" : "%Qd", p);
	else
		printf("%.15g", mpq_get_d(p));
}

/* The odds od of spec s, as --json. */
static void
print_odds_json(const struct opts *o, const struct d6_spec *s,
    const struct d6_odds *od, int has_target)
{
	printf("{\"code\":\"%s\",\"asked\":\"%s\",\"p_success\":",
	    code_s(&s->code), code_s(&s->base));
	if (has_target)
		print_q(o, od->p_success, 1);
	else
		printf("null");
	printf(",\"exact\":%s,\"p_complication\":",
	    od->exact ? "true" : "false");
	print_q(o, od->p_complication, 1);
	printf(",\"mean\":%.15g,\"distribution\":[", od->mean);
	for (long i = 0; i < od->n; i++) {
		printf("%s{\"value\":%ld,\"p\":", i ? "," : "",
		    od->lo + i);
		print_q(o, od->p[i], 1);
		putchar('}');
	}
	printf("],\"tail\":");
	print_q(o, od->tail, 1);
	printf("}\n");
}

/*
 * The odds od of spec s (against os when opposed) as text: the chances,
 * then the rows that round to 0.01% or more, with bars.
 */
static void
print_odds_text(const struct opts *o, const struct d6_spec *s,
    const struct d6_spec *os, const struct d6_odds *od, int has_target)
{
	double pmax = 0, below = 0;
	long first = -1, last = -1;

	printf("%s", code_s(&s->code));
	if (s->actions > 1 || s->fp)
		printf(" (%s%s%s)", code_s(&s->base), s->actions > 1 ?
		    ", multiple actions" : "", s->fp ? ", Force Point" :
		    "");
	if (s->cp)
		printf(" + %d CP %s", s->cp, s->cp == 1 ? "die" : "dice");
	if (o->opposed)
		printf(" against %s", code_s(&os->code));
	else if (o->have_vs)
		printf(" against %ld (%s)", o->vs,
		    d6_difficulty_band(o->vs));
	printf("\n");
	if (has_target) {
		printf("P(success)       ");
		print_q(o, od->p_success, 0);
		if (!od->exact)
			printf("  (within 1e-15)");
		putchar('\n');
	}
	printf("P(complication)  ");
	print_q(o, od->p_complication, 0);
	printf("\nmean             %.4f\n\n", od->mean);
	/* The rows that round to 0.01% or more. */
	for (long i = 0; i < od->n; i++) {
		double p = mpq_get_d(od->p[i]);

		if (p > pmax)
			pmax = p;
		if (p >= 0.00005) {
			if (first < 0)
				first = i;
			last = i;
		}
	}
	printf("total  p\n");
	for (long i = 0; i < od->n; i++) {
		double p = mpq_get_d(od->p[i]);

		if (i < first) {
			below += p;
			continue;
		}
		if (i > last)
			break;
		printf("%5ld  %7.4f%%  ", od->lo + i, 100 * p);
		cli_bar(p, pmax);
		putchar('\n');
	}
	if (below > 0)
		printf("below %ld: %.6f%%\n", od->lo + first,
		    100 * below);
	{
		double rest = mpq_get_d(od->tail);

		for (long i = last + 1; i < od->n; i++)
			rest += mpq_get_d(od->p[i]);
		printf("%ld and above: %.6g%%\n", od->lo + last + 1,
		    100 * rest);
	}
}

static int
cmd_odds(struct opts *o, int argc, char **argv)
{
	struct d6_spec s, os;
	struct d6_odds od;
	struct d6_code c;
	int has_target = o->have_vs || o->opposed;

	if (argc != 1)
		cli_usage_error("odds takes one die code");
	if (o->times || o->have_seed)
		cli_usage_error("odds is computed, not rolled: no --times or "
		    "--seed");
	c = code_arg("CODE", argv[0]);
	make_spec(&s, c, &o->mods);
	if (o->opposed) {
		struct d6_mods pm = plain_mods(o);

		make_spec(&os, code_arg("--opposed", o->opposed), &pm);
		d6_odds_opposed(&s, &os, 1e-10, &od);
		if (o->exact && !od.exact) {
			d6_odds_free(&od);
			errx(1, "--exact: with Character Point dice on an "
			    "opposed roll the odds are summed to within "
			    "1e-15, not exact; run without --exact");
		}
	} else {
		d6_odds_target(&s, o->have_vs ? o->vs : 0, 1e-10, &od);
	}
	if (o->fmt == OUT_JSON)
		print_odds_json(o, &s, &od, has_target);
	else if (o->fmt == OUT_CSV) {
		printf("value,p\n");
		for (long i = 0; i < od.n; i++) {
			printf("%ld,", od.lo + i);
			print_q(o, od.p[i], 0);
			putchar('\n');
		}
	} else
		print_odds_text(o, &s, &os, &od, has_target);
	d6_odds_free(&od);
	return 0;
}

/* ---- damage ---- */

/*
 * The argument of --scale, ATTACKER:TARGET: the dice of each scale, in
 * *adice and *tdice.
 */
static void
scale_arg(const char *scale, int *adice, int *tdice)
{
	char *buf = xstrdup(scale), *colon = strchr(buf, ':');

	if (colon == NULL)
		cli_usage_error("--scale: want ATTACKER:TARGET, like "
		    "character:speeder");
	*colon = '\0';
	if (d6chart_scale_name(buf, adice) != 0 ||
	    d6chart_scale_name(colon + 1, tdice) != 0)
		cli_usage_error("--scale '%s': scales are character, "
		    "speeder, mecha, starfighter, capital, extreme",
		    q(scale));
	free(buf);
}

/* The resistance code rc with the damaged armor of --armor armor. */
static struct d6_code
armor_arg(const char *armor, enum d6_chart chart, struct d6_code rc)
{
	if (chart != D6_HUMAN)
		cli_usage_error("--armor is for the human chart");
	if (util_streq_ci(armor, "light"))
		rc = d6_code_add(rc, 0, -1);
	else if (util_streq_ci(armor, "heavy"))
		rc = d6_code_add(rc, -1, 0);
	else
		cli_usage_error("--armor: want light or heavy, got "
		    "'%s'", q(armor));
	if (rc.dice < 1)
		errx(1, "--armor: the damaged armor leaves less than "
		    "1D to resist with");
	return rc;
}

/* Refuses the arguments and options that damage does not take. */
static void
damage_usage(const struct opts *o, int argc)
{
	if (argc != 1)
		cli_usage_error("damage takes one die code (the damage)");
	if (o->fmt == OUT_CSV)
		cli_usage_error("damage has no --csv; --json gives every field");
	if (o->resist == NULL)
		cli_usage_error("damage needs --resist CODE (Strength or hull)");
	if (o->mods.actions != 1 || o->mods.cp || o->mods.fp || o->times ||
	    o->have_vs || o->opposed)
		cli_usage_error("damage takes no --actions, --cp, --fp, "
		    "--times, --vs or --opposed");
}

/*
 * The JSON fields of the chart's row after its effect: the detail, the
 * armor, extra and worse, and the 1D sub-roll with its effect.
 */
static void
json_damage_row(const struct d6_damage *d, int sub, const char *sub_effect)
{
	printf(",\"detail\":");
	out_json_string(stdout, d->detail);
	printf(",\"armor\":");
	cli_json_or_null(stdout, d->armor);
	printf(",\"extra\":");
	cli_json_or_null(stdout, d->extra);
	printf(",\"worse\":");
	cli_json_or_null(stdout, d->worse);
	printf(",\"sub_roll\":");
	sub ? printf("%d", sub) : printf("null");
	printf(",\"sub_effect\":");
	cli_json_or_null(stdout, sub_effect);
}

/*
 * The text lines under the difference: the row's detail or its 1D
 * sub-roll, the armor, the passengers or ion cannon, and what a target
 * already damaged takes.
 */
static void
text_damage_row(const struct opts *o, const struct d6_damage *d,
    enum d6_chart chart, int sub, const char *sub_effect)
{
	if (strcmp(d->detail, "-") != 0 && !d->nsub)
		printf("  %s\n", d->detail);
	if (d->nsub)
		printf("  1D %s %d: %s\n", o->sub_roll ? "given" : "rolled",
		    sub, sub_effect);
	if (d->armor && strcmp(d->armor, "-") != 0)
		printf("  armor: %s\n", d->armor);
	if (d->extra && strcmp(d->extra, "-") != 0)
		printf("  %s: %s\n", chart == D6_STARSHIP ? "ion cannon" :
		    "passengers", d->extra);
	if (d->worse && strcmp(d->worse, "-") != 0 &&
	    strcmp(d->worse, "destroyed") != 0)
		printf("  already damaged: %s\n", d->worse);
}

static int
cmd_damage(struct opts *o, int argc, char **argv)
{
	struct d6_code dc, rc;
	struct d6_spec ds, rs;
	struct d6_roll dr, rr;
	struct d6_mods m = plain_mods(o);
	enum d6_chart chart = D6_HUMAN;
	int adice = 0, tdice = 0, row, sub = 0;
	const struct d6_damage *d;
	const char *sub_effect = NULL;
	struct rng g;
	uint64_t seed;
	long diff;

	damage_usage(o, argc);
	dc = code_arg("CODE", argv[0]);
	rc = code_arg("--resist", o->resist);
	if (o->chart && d6chart_name(o->chart, &chart) != 0)
		cli_usage_error("--chart: want human, starship or vehicle, "
		    "got '%s'", q(o->chart));
	if (o->scale)
		scale_arg(o->scale, &adice, &tdice);
	/* Lower against higher: the target resists with the difference;
	 * higher against lower: the attacker adds it to the damage. */
	if (tdice > adice)
		rc = d6_code_add(rc, tdice - adice, 0);
	else if (adice > tdice)
		dc = d6_code_add(dc, adice - tdice, 0);
	if (o->armor)
		rc = armor_arg(o->armor, chart, rc);
	make_spec(&ds, dc, &m);
	make_spec(&rs, rc, &m);
	seed = seed_of(o);
	rng_seed(&g, seed);
	d6_roll(&g, &ds, &dr);
	d6_roll(&g, &rs, &rr);
	diff = dr.total - rr.total;
	row = d6chart_damage_row(diff);
	d = d6chart_damage_get(chart, row);
	if (d->nsub) {
		sub = o->sub_roll ? o->sub_roll : d6_die(&g);
		for (int i = 0; i < d->nsub; i++)
			if (sub >= d->sub[i].lo && sub <= d->sub[i].hi)
				sub_effect = d->sub[i].effect;
	}
	if (o->fmt == OUT_JSON) {
		printf("{\"seed\":%llu,\"chart\":\"%s\",\"scale\":%s%s%s,"
		    "\"damage\":{", (unsigned long long)seed,
		    chart == D6_HUMAN ? "human" : chart == D6_STARSHIP ?
		    "starship" : "vehicle", o->scale ? "\"" : "",
		    o->scale ? o->scale : "null", o->scale ? "\"" : "");
		json_roll_fields(stdout, &ds, &dr);
		printf("},\"resist\":{");
		json_roll_fields(stdout, &rs, &rr);
		printf("},\"difference\":%ld,\"range\":\"%s\",\"effect\":",
		    diff, d->range);
		out_json_string(stdout, d->effect);
		json_damage_row(d, sub, sub_effect);
		printf("}\n");
		return 0;
	}
	if (adice != tdice)
		printf("scale %s: %dD to the %s\n", o->scale,
		    abs(adice - tdice), tdice > adice ? "resistance" :
		    "damage");
	text_roll("damage", &ds, &dr);
	text_roll("resist", &rs, &rr);
	printf("difference %ld (%s): %s\n", diff, d->range, d->effect);
	text_damage_row(o, d, chart, sub, sub_effect);
	printf("seed %llu\n", (unsigned long long)seed);
	return 0;
}

/* ---- charts ---- */

static int
cmd_table(struct opts *o, int argc, char **argv)
{
	const struct d6_table *t;

	if (argc > 1)
		cli_usage_error("table takes one chart name");
	if (argc == 0) {
		static const char *const cols[] = { "table", "title" };
		struct out *w = out_new(stdout, o->fmt, OUT_ROWS, 2, cols);

		for (size_t i = 0; (t = d6chart_table_at(i)) != NULL; i++) {
			out_text(w, t->key);
			out_text(w, t->title);
			out_end_row(w);
		}
		out_free(w);
		return 0;
	}
	if ((t = d6chart_table_get(argv[0])) == NULL)
		errx(1, "no chart named '%s' (d6-roll table lists them)",
		    q(argv[0]));
	if (o->fmt == OUT_TABLE)
		printf("%s\n\n", t->title);
	{
		struct out *w = out_new(stdout, o->fmt, OUT_ROWS, t->ncols,
		    t->cols);

		for (int r = 0; r < t->nrows; r++) {
			for (int c = 0; c < t->ncols; c++)
				out_text(w, t->rows[r][c]);
			out_end_row(w);
		}
		out_free(w);
	}
	return 0;
}

static int
cmd_weapon(struct opts *o, int argc, char **argv)
{
	const struct d6_weapon *w;
	const char *band;
	long difficulty = 0;
	double m;
	char *end, why[600];

	if (argc != 1)
		cli_usage_error("weapon takes one weapon name (d6-roll table "
		    "weapons lists them)");
	if ((w = d6chart_weapon_find(argv[0], why, sizeof why)) == NULL)
		errx(1, "%s (d6-roll table weapons lists them)", why);
	if (o->range == NULL)
		cli_usage_error("weapon needs --range METRES");
	m = strtod(o->range, &end);
	if (end == o->range || *end != '\0' || !(m >= 0) || m > 1e9)
		cli_usage_error("--range: want metres from 0 to 1e9, got '%s'",
		    q(o->range));
	band = d6chart_weapon_band(w, m, &difficulty);
	if (o->fmt == OUT_CSV)
		cli_usage_error("weapon has no --csv; try --json");
	if (o->fmt == OUT_JSON) {
		printf("{\"weapon\":\"%s\",\"scale\":\"%s\",\"damage\":\"%s\","
		    "\"range\":%g,\"band\":", w->key, w->scale, w->damage, m);
		cli_json_or_null(stdout, band);
		printf(",\"difficulty\":");
		band ? printf("%ld", difficulty) : printf("null");
		printf("}\n");
		return 0;
	}
	printf("%s (%s scale, damage %s) at %g m: ", w->name, w->scale,
	    w->damage, m);
	if (band)
		printf("%s range, difficulty %ld (%s)\n", band, difficulty,
		    d6_difficulty_band(difficulty));
	else
		printf("out of range (long ends at %g m)\n",
		    w->lng > 0 ? w->lng : w->shrt);
	return 0;
}

/* ---- lightsaber and martial arts ---- */

static void
contest(const struct opts *o, struct rng *g, const char *mine,
    const char *theirs, long *margin)
{
	struct d6_mods m = plain_mods(o);
	struct d6_spec a, b;
	struct d6_roll ra, rb;

	make_spec(&a, code_arg("--strength", mine), &m);
	make_spec(&b, code_arg("--vs-strength", theirs), &m);
	d6_roll(g, &a, &ra);
	d6_roll(g, &b, &rb);
	text_roll("contest", &a, &ra);
	text_roll("against", &b, &rb);
	*margin = ra.total - rb.total;
	printf("contest %ld against %ld: %s, margin %ld\n", ra.total,
	    rb.total, verdict(*margin), *margin);
}

/* The disarm chart's row for margin, its metres rolled with g. */
static void
print_disarm(struct rng *g, long margin)
{
	const struct d6_disarm *d =
	    d6chart_disarm_get(d6chart_damage_row(margin));
	int metres = 0;

	for (int i = 0; i < d->metres_dice; i++)
		metres += d6_die(g);
	printf("disarm chart %s: %s, %s", d->range, d->effect, d->detail);
	if (d->metres_dice)
		printf(" (rolled %d m)", metres);
	putchar('\n');
}

/*
 * What action a did, having made or missed its roll by margin: the
 * Strength contest that follows it (rolled with g), or its effect.
 */
static void
print_action_effect(const struct opts *o, const struct d6_action *a,
    struct rng *g, long *margin)
{
	if (*margin >= 0 && a->then) {
		if (o->strength && o->vs_strength) {
			contest(o, g, o->strength, o->vs_strength, margin);
			if (*margin < 0)
				printf("effect: none\n");
			else if (strcmp(a->key, "disarm") == 0)
				print_disarm(g, *margin);
			else
				printf("effect: %s\n", a->effect);
		} else {
			printf("next: %s (--strength CODE --vs-strength CODE)\n",
			    a->then);
		}
	} else if (*margin >= 0 || strstr(a->effect, "failure")) {
		printf("effect: %s\n", a->effect);
	}
}

/* The damage of action a, made: worked out when the options allow. */
static void
print_action_damage(const struct opts *o, const struct d6_action *a)
{
	if (a->dmg_fixed) {
		printf("damage %dD\n", a->dmg_dice);
	} else if (a->dmg_str && o->strength) {
		struct d6_code c = code_arg("--strength", o->strength);

		c = d6_code_add(c, a->dmg_dice, 0);
		printf("damage %s (Strength %s%+dD)\n", code_s(&c),
		    o->strength, a->dmg_dice);
	} else if (!a->dmg_str && o->damage) {
		struct d6_code c = code_arg("--damage", o->damage);

		c = d6_code_add(c, a->dmg_dice, 0);
		if (c.dice < 1)
			printf("damage: %s%+dD leaves less than 1D\n",
			    o->damage, a->dmg_dice);
		else
			printf("damage %s (%s%+dD)\n", code_s(&c),
			    o->damage, a->dmg_dice);
	} else {
		printf("damage %s%+dD (--%s CODE to work it out)\n",
		    a->dmg_str ? "Strength" : "weapon", a->dmg_dice,
		    a->dmg_str ? "strength" : "damage");
	}
}

static int
cmd_action(struct opts *o, int argc, char **argv, int saber)
{
	const struct d6_action *a;
	struct d6_spec s, os;
	struct d6_roll r, orr;
	struct rng g;
	uint64_t seed;
	long target, margin;

	if (o->fmt != OUT_TABLE)
		cli_usage_error("%s prints for people only: no --json or --csv",
		    saber ? "saber" : "martial");
	if (argc != 1)
		cli_usage_error("%s takes one action (d6-roll table %s lists "
		    "them)", saber ? "saber" : "martial", saber ? "lightsaber" :
		    "martial");
	a = saber ? d6chart_saber_get(argv[0]) : d6chart_martial_get(argv[0]);
	if (a == NULL)
		errx(1, "no %s action named '%s' (d6-roll table %s lists "
		    "them)", saber ? "lightsaber" : "martial arts",
		    q(argv[0]), saber ? "lightsaber" : "martial");
	if (a->skill[0] == '-')
		errx(1, "%s is not rolled: %s", a->name, a->effect);
	if (o->skill == NULL)
		cli_usage_error("%s needs --skill CODE (%s)", a->key,
		    a->skill);
	make_spec(&s, code_arg("--skill", o->skill), &o->mods);
	seed = seed_of(o);
	rng_seed(&g, seed);
	printf("%s: %s", a->name, a->skill);
	if (a->difficulty)
		printf(" against %d\n", a->difficulty);
	else
		printf(" against %s\n", a->against);
	d6_roll(&g, &s, &r);
	text_roll("roll", &s, &r);
	if (a->difficulty) {
		target = o->have_vs ? o->vs : a->difficulty;
	} else if (o->opposed) {
		struct d6_mods pm = plain_mods(o);

		make_spec(&os, code_arg("--opposed", o->opposed), &pm);
		d6_roll(&g, &os, &orr);
		text_roll("opposed", &os, &orr);
		target = orr.total;
	} else if (o->have_vs) {
		target = o->vs;
	} else {
		printf("total %ld: compare it with %s (--opposed CODE or --vs "
		    "N to have it done)\n", r.total, a->against);
		printf("seed %llu\n", (unsigned long long)seed);
		return 0;
	}
	margin = r.total - target;
	printf("%ld against %ld: %s, margin %ld\n", r.total, target,
	    verdict(margin), margin);
	print_action_effect(o, a, &g, &margin);
	if (margin >= 0 && a->has_dmg)
		print_action_damage(o, a);
	printf("seed %llu\n", (unsigned long long)seed);
	return 0;
}

/* ---- characters ---- */

static void
need_name(int argc, char **argv, const char *cmd)
{
	char why[128];

	if (argc < 1)
		cli_usage_error("char %s needs a character name", cmd);
	if (util_check_text(argv[0], UTIL_TEXT_LINE, 200, why,
	    sizeof why) != 0)
		cli_usage_error("character name: %s", why);
}

/*
 * Loads into s the character that typed names (d6ledger_name: exactly,
 * but for case, or by a unique beginning of the name or of one of its
 * words); exits 1 with the candidates or the nearest names.
 */
static void
load_named(struct db *db, const char *typed, struct d6_sheet *s)
{
	char why[600], *name = d6ledger_name(db, typed, why, sizeof why);
	int rc;

	if (name == NULL)
		db_die(db, "%s", why);
	rc = d6ledger_load(db, name, s);
	free(name);
	if (rc != 0)
		db_die(db, "no D6 character named '%s'", q(typed));
}

static void
show_sheet(const struct opts *o, const struct d6_sheet *s)
{
	if (o->fmt == OUT_JSON) {
		printf("{\"name\":");
		out_json_string(stdout, s->name);
		printf(",\"cp\":%d,\"fp\":%d,\"dsp\":%d,\"notes\":", s->cp,
		    s->fp, s->dsp);
		cli_json_or_null(stdout, s->notes);
		printf(",\"traits\":[");
		for (int i = 0; i < s->n; i++) {
			printf("%s{\"name\":", i ? "," : "");
			out_json_string(stdout, s->t[i].name);
			printf(",\"attribute\":");
			cli_json_or_null(stdout, s->t[i].attribute);
			printf(",\"code\":\"%s\"}", code_s(&s->t[i].code));
		}
		printf("]}\n");
		return;
	}
	util_fputs_safe(s->name, stdout);
	printf("  CP %d  FP %d  DSP %d\n", s->cp, s->fp, s->dsp);
	for (int i = 0; i < s->n; i++) {
		printf(s->t[i].attribute ? "    " : "  ");
		util_fputs_safe(s->t[i].name, stdout);
		printf("  %s\n", code_s(&s->t[i].code));
	}
	if (s->notes) {
		printf("  notes: ");
		util_fputs_safe(s->notes, stdout);
		putchar('\n');
	}
}

struct list_ctx {
	struct out	*w;
};

static void
list_one(const struct d6_summary *s, void *arg)
{
	struct list_ctx *c = arg;

	out_text(c->w, s->name);
	out_int(c->w, s->cp);
	out_int(c->w, s->fp);
	out_int(c->w, s->dsp);
	out_int(c->w, s->attributes);
	out_int(c->w, s->skills);
	out_end_row(c->w);
}

static int
cmd_char_roll(struct opts *o, struct db *db, const char *name,
    const char *ref);

/* ---- printed sheets ---- */

static void *
printed_load(struct db *db, const char *name, void *arg)
{
	struct d6_sheet *s = xcalloc(1, sizeof *s);

	(void)arg;
	if (d6ledger_load(db, name, s) != 0)
		db_die(db, "no D6 character named '%s'", q(name));
	return s;
}

static void
printed_release(void *s)
{
	d6sheet_free(s);
	free(s);
}

static void
printed_code(const void *s, const char *station_id,
    char code[PAGE_CODE_LEN + 1])
{
	d6page_code(s, station_id, code);
}

static void
printed_layout(const void *s, const char *code, struct page *pg)
{
	d6page_layout(s, code, pg);
}

static const struct sheetrun_ops printed_ops = {
	"D6 characters", d6ledger_names, printed_load, printed_release,
	printed_code, printed_layout, NULL
};

/* char sheets: the characters named, or every one, into a PDF. */
static int
cmd_char_sheets(struct opts *o, int argc, char **argv)
{
	struct sheetrun_names names = { NULL, 0 };
	char why[600], *name;
	struct db *db;

	if (o->all == (argc > 0))
		cli_usage_error("char sheets needs NAME... or --all");
	if (o->output == NULL)
		cli_usage_error("char sheets needs --output FILE.pdf");
	db = db_open(o->db);
	db_begin_read(db);
	if (o->all)
		sheetrun_all(db, &printed_ops, &names);
	for (int i = 0; i < argc; i++) {
		if ((name = d6ledger_name(db, argv[i], why, sizeof why)) ==
		    NULL)
			db_die(db, "%s", why);
		sheetrun_names_add(&names, name);
		free(name);
	}
	sheetrun_print(db, &printed_ops, names.v, names.n, o->output,
	    o->paper, o->per_page);
	db_rollback(db);
	db_close(db);
	sheetrun_names_free(&names);
	return 0;
}

/* char verify-sheet: whether a printed sheet matches the database. */
static int
cmd_char_verify_sheet(struct opts *o, int argc, char **argv)
{
	return cli_verify_sheet(o->db, &printed_ops, "char verify-sheet", argc,
	    argv);
}

/* char list: every character, with its points and its traits counted. */
static int
cmd_char_list(struct opts *o, int argc)
{
	static const char *const cols[] = { "name", "cp", "fp", "dsp",
	    "attributes", "skills" };
	struct list_ctx c;
	struct db *db;

	if (argc != 0)
		cli_usage_error("char list takes no arguments");
	db = db_open(o->db);
	db_begin_read(db);
	c.w = out_new(stdout, o->fmt, OUT_ROWS, 6, cols);
	d6ledger_each(db, list_one, &c);
	out_free(c.w);
	db_commit(db);
	db_close(db);
	return 0;
}

/*
 * char rm: removes the character that argv[0] names, in db's write
 * transaction, which it commits; then closes db.
 */
static int
cmd_char_rm(struct db *db, char **argv)
{
	char why[600], *name = d6ledger_name(db, argv[0], why, sizeof why);
	int rc;

	if (name == NULL)
		db_die(db, "%s", why);
	rc = d6ledger_remove(db, name);
	free(name);
	if (rc != 0)
		db_die(db, "no D6 character named '%s'", q(argv[0]));
	db_commit(db);
	db_close(db);
	return 0;
}

static int
cmd_char(struct opts *o, int argc, char **argv)
{
	const char *sub;
	struct d6_sheet s;
	struct db *db;
	char why[600];

	if (argc < 1)
		cli_usage_error("char needs add, set, show, list, rm, roll, "
		    "sheets or verify-sheet");
	sub = argv[0];
	argc--;
	argv++;
	if (strcmp(sub, "sheets") == 0)
		return cmd_char_sheets(o, argc, argv);
	if (strcmp(sub, "verify-sheet") == 0)
		return cmd_char_verify_sheet(o, argc, argv);
	if (strcmp(sub, "list") == 0)
		return cmd_char_list(o, argc);
	if (strcmp(sub, "roll") == 0) {
		if (argc != 2)
			cli_usage_error("char roll needs NAME and TRAIT");
		need_name(argc, argv, "roll");
		db = db_open(o->db);
		return cmd_char_roll(o, db, argv[0], argv[1]);
	}
	if (strcmp(sub, "add") != 0 && strcmp(sub, "set") != 0 &&
	    strcmp(sub, "show") != 0 && strcmp(sub, "rm") != 0)
		cli_unknown("char command", sub, (const char *const[]){
		    "add", "set", "show", "rm", "list", "roll", "sheets",
		    "verify-sheet" }, 8);
	need_name(argc, argv, sub);
	if ((strcmp(sub, "show") == 0 || strcmp(sub, "rm") == 0) && argc != 1)
		cli_usage_error("char %s takes only a name", sub);
	db = db_open(o->db);
	if (strcmp(sub, "show") == 0) {
		db_begin_read(db);
		load_named(db, argv[0], &s);
		db_commit(db);
		show_sheet(o, &s);
		d6sheet_free(&s);
		db_close(db);
		return 0;
	}
	db_begin(db);
	if (strcmp(sub, "rm") == 0)
		return cmd_char_rm(db, argv);
	if (strcmp(sub, "add") == 0)
		d6sheet_new(&s, argv[0]);
	else
		load_named(db, argv[0], &s);
	for (int i = 1; i < argc; i++)
		if (d6sheet_apply(&s, argv[i], why, sizeof why) != 0)
			db_die(db, "argument %d '%s': %s", i + 1,
			    q(argv[i]), why);
	if (d6sheet_check(&s, why, sizeof why) != 0)
		db_die(db, "%s", why);
	if (d6ledger_save(db, &s, db_now()) != 0)
		db_die(db, "a D6 character named '%s' already exists",
		    q(argv[0]));
	db_commit(db);
	show_sheet(o, &s);
	d6sheet_free(&s);
	db_close(db);
	return 0;
}

/*
 * Refuses, through db_die, a roll that spends points s does not have, or
 * breaks the round's rule: a Force Point or Character Points, once.
 */
static void
check_spending(const struct opts *o, struct db *db,
    const struct d6_sheet *s)
{
	int spent_cp, spent_fp;

	if (o->mods.cp > s->cp)
		db_die(db, "%s has %d Character Point%s, not %d", q(s->name),
		    s->cp, s->cp == 1 ? "" : "s", o->mods.cp);
	if (o->mods.fp && s->fp < 1)
		db_die(db, "%s has no Force Point left", q(s->name));
	if (o->round) {
		d6ledger_round_spent(db, s->name, o->round, &spent_cp, &spent_fp);
		if (o->mods.fp && spent_fp)
			db_die(db, "%s already spent a Force Point in round "
			    "'%s': one a round", q(s->name), q(o->round));
		if (o->mods.fp && spent_cp)
			db_die(db, "%s spent Character Points in round '%s': "
			    "no Force Point in the same round", q(s->name),
			    q(o->round));
		if (o->mods.cp && spent_fp)
			db_die(db, "%s spent a Force Point in round '%s': no "
			    "Character Points in the same round", q(s->name),
			    q(o->round));
	}
}

/* Logs the roll x of trait t for s, its JSON as the detail. */
static void
log_char_roll(const struct opts *o, struct db *db,
    const struct d6_sheet *s, const struct d6_trait *t,
    const struct rolled *x)
{
	struct d6_logged lg;
	struct strbuf b = STRBUF_INIT;
	char code[32], *detail;

	/* The roll's JSON is the log's detail. */
	print_json_roll(strbuf_stream(&b), x, 0, NULL);
	detail = strbuf_detach(&b, NULL);
	d6_code_str(&x->s.code, code, sizeof code);
	lg.character = s->name;
	lg.round = o->round;
	lg.trait = t->name;
	lg.code = code;
	lg.seed = x->seed;
	lg.total = x->r.total;
	lg.cp = o->mods.cp;
	lg.fp = o->mods.fp;
	lg.detail = detail;
	d6ledger_log_roll(db, &lg, db_now());
	free(detail);
}

/* The roll x of trait t for s, as --json or text. */
static void
print_char_roll(const struct opts *o, const struct d6_sheet *s,
    const struct d6_trait *t, int fallback, const struct rolled *x)
{
	if (o->fmt == OUT_JSON) {
		char extra[256];

		snprintf(extra, sizeof extra, ",\"cp_left\":%d,\"fp_left\":%d",
		    s->cp, s->fp);
		printf("{\"character\":");
		out_json_string(stdout, s->name);
		printf(",\"trait\":");
		out_json_string(stdout, t->name);
		printf(",\"fallback\":%s,\"roll\":", fallback ? "true" :
		    "false");
		print_json_roll(stdout, x, 0, extra);
		printf("}\n");
	} else {
		util_fputs_safe(s->name, stdout);
		printf(": ");
		util_fputs_safe(t->name, stdout);
		if (fallback)
			printf(" (no such skill: the attribute)");
		if (o->round) {
			printf(", round ");
			util_fputs_safe(o->round, stdout);
		}
		putchar('\n');
		print_text_roll(x);
		if (o->mods.cp || o->mods.fp)
			printf("spent %s%s; left: CP %d, FP %d\n",
			    o->mods.fp ? "a Force Point" : "",
			    o->mods.cp ? (o->mods.cp == 1 ?
			    "1 Character Point" : "Character Points") : "",
			    s->cp, s->fp);
		printf("seed %llu\n", (unsigned long long)x->seed);
	}
}

static int
cmd_char_roll(struct opts *o, struct db *db, const char *name,
    const char *ref)
{
	struct d6_sheet s;
	const struct d6_trait *t;
	struct rolled x;
	struct rng g;
	int fallback;

	if (o->times)
		cli_usage_error("a character's roll is one roll: no --times");
	if (o->round) {
		char why[128];

		if (util_check_text(o->round, UTIL_TEXT_LINE, 100, why,
		    sizeof why) != 0)
			cli_usage_error("--round: %s", why);
	}
	db_begin(db);
	load_named(db, name, &s);
	{
		char why[600];

		if ((t = d6sheet_find(&s, ref, &fallback, why,
		    sizeof why)) == NULL)
			db_die(db, "%s", why);
	}
	check_spending(o, db, &s);
	memset(&x, 0, sizeof x);
	{
		char why[200];

		if (d6_spec_make(&x.s, t->code, &o->mods, why,
		    sizeof why) != 0)
			db_die(db, "%s", why);
		if (o->opposed) {
			struct d6_mods pm = plain_mods(o);
			struct d6_code oc;

			if (d6_parse_code(o->opposed, &oc, why,
			    sizeof why) != 0)
				db_die(db, "--opposed '%s': %s", q(o->opposed),
				    why);
			if (d6_spec_make(&x.os, oc, &pm, why,
			    sizeof why) != 0)
				db_die(db, "%s", why);
		}
	}
	/* Under a seal the dice come from it (refkit(7), "Trust"). */
	if (d6ledger_seal(db, &x.seed)) {
		if (o->have_seed)
			db_die(db, "--seed is refused while this station is "
			    "sealed: its draws come from the seal (refkit "
			    "reveal ends it)");
	} else
		x.seed = seed_of(o);
	rng_seed(&g, x.seed);
	do_roll(o, &x, &g);
	s.cp -= o->mods.cp;
	s.fp -= o->mods.fp;
	log_char_roll(o, db, &s, t, &x);
	if (o->mods.cp || o->mods.fp)
		d6ledger_spend(db, s.id, o->mods.cp, o->mods.fp, db_now());
	db_commit(db);
	print_char_roll(o, &s, t, fallback, &x);
	d6sheet_free(&s);
	db_close(db);
	return 0;
}

/* ---- main ---- */

enum {
	OPT_CP = 256, OPT_FP, OPT_REACTION, OPT_WILD_ONE, OPT_NO_WILD,
	OPT_RESIST, OPT_CHART, OPT_SCALE, OPT_ARMOR, OPT_SUB_ROLL, OPT_RANGE,
	OPT_SKILL, OPT_DAMAGE, OPT_STRENGTH, OPT_VS_STRENGTH, OPT_ROUND,
	OPT_DB, OPT_OUTPUT, OPT_ALL, OPT_PAPER, OPT_PER_PAGE
};

static const struct option longopts[] = {
	{ "vs", required_argument, NULL, 'v' },
	{ "opposed", required_argument, NULL, 'o' },
	{ "actions", required_argument, NULL, 'a' },
	{ "cp", required_argument, NULL, OPT_CP },
	{ "fp", no_argument, NULL, OPT_FP },
	{ "reaction", no_argument, NULL, OPT_REACTION },
	{ "wild-one", required_argument, NULL, OPT_WILD_ONE },
	{ "no-wild", no_argument, NULL, OPT_NO_WILD },
	{ "times", required_argument, NULL, 'n' },
	{ "seed", required_argument, NULL, 's' },
	{ "resist", required_argument, NULL, OPT_RESIST },
	{ "chart", required_argument, NULL, OPT_CHART },
	{ "scale", required_argument, NULL, OPT_SCALE },
	{ "armor", required_argument, NULL, OPT_ARMOR },
	{ "sub-roll", required_argument, NULL, OPT_SUB_ROLL },
	{ "range", required_argument, NULL, OPT_RANGE },
	{ "skill", required_argument, NULL, OPT_SKILL },
	{ "damage", required_argument, NULL, OPT_DAMAGE },
	{ "strength", required_argument, NULL, OPT_STRENGTH },
	{ "vs-strength", required_argument, NULL, OPT_VS_STRENGTH },
	{ "round", required_argument, NULL, OPT_ROUND },
	{ "db", required_argument, NULL, OPT_DB },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "paper", required_argument, NULL, OPT_PAPER },
	{ "per-page", required_argument, NULL, OPT_PER_PAGE },
	{ "json", no_argument, NULL, 'j' },
	{ "csv", no_argument, NULL, 'c' },
	{ "exact", no_argument, NULL, 'e' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/*
 * The argument of --vs: a number or a difficulty's name.  A name mistyped
 * is refused with the nearest one, as every name a GM types (base/names.h);
 * a difficulty is never taken from a near name, which would set the
 * target silently.
 */
static void
parse_vs(struct opts *o, const char *s)
{
	static const char *const names[] = { "very-easy", "easy", "moderate",
	    "difficult", "very-difficult", "heroic" };
	char why[300];
	long v;

	if (d6_difficulty_name(s, &v) != 0 &&
	    util_parse_int(s, 0, TARGET_MAX, &v) != UTIL_INT_OK) {
		names_lookup(s, names, sizeof names / sizeof *names, 1,
		    "difficulty", why, sizeof why);
		if (strstr(why, "did you mean") != NULL)
			cli_usage_error("--vs: %s", why);
		cli_usage_error("--vs: want a number from 0 to %d or very-easy, "
		    "easy, moderate, difficult, very-difficult, heroic; got "
		    "'%s'", TARGET_MAX, q(s));
	}
	o->vs = v;
	o->have_vs = 1;
}

/* The argument of --wild-one. */
static enum d6_one
wild_one_arg(const char *arg)
{
	if (strcmp(arg, "complication") == 0)
		return D6_ONE_COMPLICATION;
	if (strcmp(arg, "drop") == 0)
		return D6_ONE_DROP;
	if (strcmp(arg, "none") == 0)
		return D6_ONE_NONE;
	cli_usage_error("--wild-one: want complication, drop or none, "
	    "got '%s'", q(arg));
}

/* The options of damage: --resist, --chart, --scale, --armor, --sub-roll. */
static void
damage_option(struct opts *o, int ch, const char *arg)
{
	switch (ch) {
	case OPT_RESIST:
		o->resist = arg;
		break;
	case OPT_CHART:
		o->chart = arg;
		break;
	case OPT_SCALE:
		o->scale = arg;
		break;
	case OPT_ARMOR:
		o->armor = arg;
		break;
	case OPT_SUB_ROLL:
		o->sub_roll = (int)cli_int_arg("--sub-roll", arg, 1, 6);
		break;
	}
}

/*
 * The options of saber and martial actions: --skill, --damage,
 * --strength, --vs-strength.
 */
static void
action_option(struct opts *o, int ch, const char *arg)
{
	switch (ch) {
	case OPT_SKILL:
		o->skill = arg;
		break;
	case OPT_DAMAGE:
		o->damage = arg;
		break;
	case OPT_STRENGTH:
		o->strength = arg;
		break;
	case OPT_VS_STRENGTH:
		o->vs_strength = arg;
		break;
	}
}

/* The options of char sheets: --output, --all, --paper, --per-page. */
static void
sheet_option(struct opts *o, int ch, const char *arg)
{
	switch (ch) {
	case OPT_OUTPUT:
		o->output = arg;
		o->sheet_opts = 1;
		break;
	case OPT_ALL:
		o->all = o->sheet_opts = 1;
		break;
	case OPT_PAPER:
		o->paper = cli_paper_arg(arg);
		o->sheet_opts = 1;
		break;
	case OPT_PER_PAGE:
		o->per_page = (int)cli_int_arg("--per-page", arg, 1, 2);
		o->sheet_opts = 1;
		break;
	}
}

/* One option, ch, as getopt_long returned it; 0 if it is none of its own. */
static int
set_option(void *op, int ch, const char *arg)
{
	struct opts *o = op;

	switch (ch) {
	case 'v':
		parse_vs(o, arg);
		break;
	case 'o':
		o->opposed = arg;
		break;
	case 'a':
		o->mods.actions = (int)cli_int_arg("--actions", arg,
		    1, D6_DICE_MAX + 1);
		break;
	case OPT_CP:
		o->mods.cp = (int)cli_int_arg("--cp", arg, 0, D6_CP_MAX);
		break;
	case OPT_FP:
		o->mods.fp = 1;
		break;
	case OPT_REACTION:
		o->reaction = 1;
		o->mods.cp_max = D6_CP_MAX;
		break;
	case OPT_WILD_ONE:
		o->mods.one = wild_one_arg(arg);
		break;
	case OPT_NO_WILD:
		o->mods.no_wild = 1;
		break;
	case 'n':
		o->times = cli_int_arg("--times", arg, 1, TIMES_MAX);
		break;
	case 's':
		o->seed = cli_seed_arg(arg);
		o->have_seed = 1;
		break;
	case OPT_RESIST:
	case OPT_CHART:
	case OPT_SCALE:
	case OPT_ARMOR:
	case OPT_SUB_ROLL:
		damage_option(o, ch, arg);
		break;
	case OPT_RANGE:
		o->range = arg;
		break;
	case OPT_SKILL:
	case OPT_DAMAGE:
	case OPT_STRENGTH:
	case OPT_VS_STRENGTH:
		action_option(o, ch, arg);
		break;
	case OPT_ROUND:
		o->round = arg;
		break;
	case OPT_DB:
		o->db = arg;
		break;
	case OPT_OUTPUT:
	case OPT_ALL:
	case OPT_PAPER:
	case OPT_PER_PAGE:
		sheet_option(o, ch, arg);
		break;
	case 'e':
		o->exact = 1;
		break;
	default:
		return 0;
	}
	return 1;
}

static const struct cli_opts options = { ":v:o:a:n:s:jcehV", longopts,
    usage_text, set_option };

int
main(int argc, char **argv)
{
	static struct opts o;
	struct d6_code c;
	char why[128];
	const char *cmd;
	int n;

	o.fmt = OUT_TABLE;
	o.mods.actions = 1;
	o.mods.cp_max = D6_CP_SKILL;
	o.mods.one = D6_ONE_COMPLICATION;
	o.per_page = 1;
	cli_init(argc, argv);
	complete_answer(argc, argv, &d6complete_roll, longopts);
	n = cli_options(&options, argc, argv, &o, &o.fmt);
	argc -= n;
	argv += n;
	if (argc < 1)
		cli_usage_error("give a die code, a command or a character");
	if (o.have_vs && o.opposed)
		cli_usage_error("--vs and --opposed do not go together");
	if (o.exact && strcmp(argv[0], "odds") != 0)
		cli_usage_error("--exact is for odds");
	cmd = argv[0];
	if (o.sheet_opts && (strcmp(cmd, "char") != 0 || argc < 2 ||
	    strcmp(argv[1], "sheets") != 0))
		cli_usage_error("--output, --all, --paper and --per-page go "
		    "with char sheets only");
	if (strcmp(cmd, "odds") == 0)
		return cmd_odds(&o, argc - 1, argv + 1);
	if (strcmp(cmd, "damage") == 0)
		return cmd_damage(&o, argc - 1, argv + 1);
	if (strcmp(cmd, "table") == 0)
		return cmd_table(&o, argc - 1, argv + 1);
	if (strcmp(cmd, "weapon") == 0)
		return cmd_weapon(&o, argc - 1, argv + 1);
	if (strcmp(cmd, "saber") == 0)
		return cmd_action(&o, argc - 1, argv + 1, 1);
	if (strcmp(cmd, "martial") == 0)
		return cmd_action(&o, argc - 1, argv + 1, 0);
	if (strcmp(cmd, "char") == 0)
		return cmd_char(&o, argc - 1, argv + 1);
	if (d6_parse_code(cmd, &c, why, sizeof why) == 0) {
		if (argc != 1)
			cli_usage_error("a die code rolls alone; unexpected "
			    "'%s'", q(argv[1]));
		return cmd_roll(&o, c);
	}
	if (argc == 2) {
		need_name(argc, argv, "roll");
		return cmd_char_roll(&o, db_open(o.db), argv[0], argv[1]);
	}
	cli_usage_error("'%s': %s", q(cmd), why);
}
