/*
 * crs-draw - Action Card picks by the book, and exact odds: a single
 * pick drawn by the tool or checked from cards the GM typed in, the law
 * of a pick's value, and the odds of an offence against a defence.  A
 * thin layer over deck.c and odds.c.  See crs-draw(1).
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "db/db.h"
#include "crs/complete.h"
#include "crs/deck.h"
#include "crs/odds.h"
#include "base/out.h"
#include "crs/roster.h"
#include "crs/sheet.h"
#include "paper/svg.h"
#include "base/util.h"

#define q util_q

/* One side of a pick or a matchup. */
struct side {
	int	lb;
	int	out[DECK_DRAW_MAX];
	int	nout;
	int	base;
	int	base_set;
};

struct opts {
	const char	*db;
	enum out_format	 fmt;
	int		 exact;
	int		 cards;
	int		 kind;		/* enum deck_pick_kind */
	int		 attack;	/* enum sheet_attack */
	int		 use;
	int		 have_seed;
	uint64_t	 seed;
	const char	*drawn;
	const char	*special;
	const char	*svg;		/* odds, versus: the chart's file */
	int		 full;		/* versus: the damage table too */
	struct side	 me, off, def;
	int		 off_set, def_set;
};

static const char usage_text[] =
"usage: crs-draw pick [--lb N] [--cards K] [--defensive | --initiative]\n"
"                [--base N] [--out LIST] [--seed S | --drawn LIST\n"
"                [--special CARD]] [--json | --csv]\n"
"       crs-draw odds [--lb N] [--cards K] [--defensive --base N]\n"
"                [--out LIST] [--json | --csv] [--exact] [--svg FILE]\n"
"       crs-draw versus --offense N --defense N [--offense-lb N]\n"
"                [--defense-lb N] [--offense-out LIST] [--defense-out LIST]\n"
"                [--json | --csv] [--exact] [--full] [--svg FILE]\n"
"       crs-draw versus ATTACKER DEFENDER [--long | --mental] [--use N]\n"
"                [--db PATH] [--json | --csv] [--exact] [--full]\n"
"                [--svg FILE]\n"
"\n"
"LIST is comma-separated faces: A (or 1), 2 ... 10.\n"
"\n"
"  -l, --lb N           Luck Bonus: one extra 10 per point (default 0)\n"
"  -k, --cards K        cards in the pick, each with its 10s (default 1)\n"
"      --defensive      a defence: an Ace forces the special draw\n"
"      --initiative     an initiative pick: the cards go back at once\n"
"  -b, --base N         the stat plus modifiers the pick is added to\n"
"  -o, --out LIST       cards already set aside this round\n"
"  -s, --seed S         replay a draw (default: a seed from the system)\n"
"  -d, --drawn LIST     check physical cards instead of drawing\n"
"      --special CARD   the special card drawn after a defensive Ace\n"
"      --offense N, --defense N, --offense-lb N, --defense-lb N,\n"
"      --offense-out LIST, --defense-out LIST   the two sides of versus\n"
"      --long, --mental a long range or mental attack (versus NAMES)\n"
"  -u, --use N          the OR (long range: DR) the attacker puts in\n"
"      --db PATH        the database (versus NAMES)\n"
"  -j, --json, -c, --csv   machine output\n"
"  -e, --exact          probabilities as exact fractions\n"
"      --full           versus: the chance of each damage, as a table\n"
"      --svg FILE       also write the distribution as an SVG bar chart\n"
"  -h, --help, -V, --version\n";

static void
parse_out(const char *opt, const char *s, struct side *sd)
{
	char why[128];

	sd->nout = deck_parse_list(s, sd->out, DECK_DRAW_MAX, why,
	    sizeof why);
	if (sd->nout < 0)
		cli_usage_error("%s: %s", opt, why);
}

/* A deck for one side: LB and the set-aside cards. */
static void
side_deck(const struct side *sd, const char *what, struct deck *d)
{
	char why[160];

	deck_init(d, sd->lb);
	if (deck_set_aside(d, sd->out, sd->nout, why, sizeof why) != 0)
		errx(1, "%s: %s", what, why);
}

static void
print_cards(const struct deck_pick *p)
{
	for (int i = 0; i < p->ncards; i++)
		printf("%s%s", i ? " " : "", deck_face_name(p->cards[i]));
	if (p->ncards == 0)
		printf("-");
}

/*
 * A pick as JSON: the seed (null for cards typed in), the cards, the
 * value, and a defence's special card and total or a total on --base.
 */
static void
pick_json(const struct opts *o, const struct deck_pick *p, int total)
{
	if (o->drawn)
		printf("{\"seed\":null,\"cards\":[");
	else
		printf("{\"seed\":%llu,\"cards\":[",
		    (unsigned long long)o->seed);
	for (int i = 0; i < p->ncards; i++)
		printf("%s\"%s\"", i ? "," : "", deck_face_name(p->cards[i]));
	printf("],\"value\":%d,\"fumble\":%s,\"empty\":%s", p->value,
	    p->fumble ? "true" : "false", p->empty ? "true" : "false");
	if (o->kind == DECK_DEFENSE) {
		if (p->special > 0)
			printf(",\"special\":\"%s\"",
			    deck_face_name(p->special));
		else
			printf(",\"special\":null");
		printf(",\"defense\":%d", total);
	} else if (o->me.base_set)
		printf(",\"total\":%d", total);
	printf("}\n");
}

/*
 * A pick as CSV: a header and a row with the fields of pick_json, as
 * status --csv of crs-combat writes them: yes and no as 1 and 0, an
 * absent value empty, the cards joined with ';'.
 */
static void
pick_csv(const struct opts *o, const struct deck_pick *p, int total)
{
	printf("seed,cards,value,fumble,empty%s\n", o->kind == DECK_DEFENSE ?
	    ",special,defense" : o->me.base_set ? ",total" : "");
	if (!o->drawn)
		printf("%llu", (unsigned long long)o->seed);
	putchar(',');
	for (int i = 0; i < p->ncards; i++)
		printf("%s%s", i ? ";" : "", deck_face_name(p->cards[i]));
	printf(",%d,%d,%d", p->value, p->fumble != 0, p->empty != 0);
	if (o->kind == DECK_DEFENSE)
		printf(",%s,%d", p->special > 0 ? deck_face_name(p->special) :
		    "", total);
	else if (o->me.base_set)
		printf(",%d", total);
	putchar('\n');
}

static int
cmd_pick(struct opts *o, int argc, char **argv)
{
	struct deck d;
	struct deck_pick p;
	struct rng r;
	struct deck_source src;
	struct deck_typed typed;
	int faces[DECK_DRAW_MAX], nfaces, special = 0, total;
	char why[200];

	(void)argv;
	if (argc != 0)
		cli_usage_error("pick takes options only");
	if (o->kind == DECK_DEFENSE && !o->me.base_set)
		cli_usage_error("--defensive needs --base N (DR plus "
		    "modifiers)");
	if (o->drawn && o->have_seed)
		cli_usage_error("--seed draws virtual cards; --drawn checks "
		    "physical ones: not both");
	if (o->special && !o->drawn)
		cli_usage_error("--special goes with --drawn");
	side_deck(&o->me, "--out", &d);
	if (o->drawn) {
		if ((nfaces = deck_parse_list(o->drawn, faces, DECK_DRAW_MAX,
		    why, sizeof why)) < 0)
			cli_usage_error("--drawn: %s", why);
		if (o->special && (deck_parse_list(o->special, &special, 1,
		    why, sizeof why) != 1))
			cli_usage_error("--special: %s", *why ? why :
			    "needs one card");
		typed.faces = faces;
		typed.n = nfaces;
		typed.special = special;
		src = deck_physical(&typed);
	} else {
		if (!o->have_seed)
			o->seed = rng_os_seed();
		rng_seed(&r, o->seed);
		src = deck_virtual(&r);
	}
	if (deck_pick(&d, o->kind, o->cards, &src, &p, why, sizeof why) != 0)
		errx(1, "%s", why);
	total = deck_total(&p, o->me.base);
	if (o->fmt == OUT_JSON) {
		pick_json(o, &p, total);
		return 0;
	}
	if (o->fmt == OUT_CSV) {
		pick_csv(o, &p, total);
		return 0;
	}
	if (!o->drawn)
		printf("seed     %llu\n", (unsigned long long)o->seed);
	printf("cards    ");
	print_cards(&p);
	printf("\nvalue    %d%s\n", p.value, p.fumble ? " (an Ace: fumble)" :
	    p.empty ? " (the deck ran out)" : "");
	if (o->kind == DECK_DEFENSE) {
		if (p.fumble) {
			printf("special  %s\n", p.special > 0 ?
			    deck_face_name(p.special) : "- (no card left)");
			if (p.special == 0)
				printf("defense  0 (no card left for the "
				    "special draw)\n");
			else if (p.special == DECK_TEN)
				printf("defense  %d (%d - 0: a special 10 "
				    "counts 0)\n", total, o->me.base);
			else
				printf("defense  %d (%d - %d)\n", total,
				    o->me.base, p.special);
		} else
			printf("defense  %d\n", total);
	} else if (o->me.base_set)
		printf("total    %d\n", total);
	return 0;
}

/* Prints a probability: decimal, or a fraction with --exact. */
static void
print_p(const struct opts *o, struct odds_w w, struct odds_w den,
    int json)
{
	char buf[128];

	if (o->exact && odds_fraction(w, den, buf, sizeof buf) == 0)
		printf(json ? "\"%s\"" : "%s", buf);
	else
		printf("%.15Lg", odds_p(w, den));
}

/* Refuses --exact where 128 bits could not hold the exact value. */
static void
check_exact(const struct opts *o, struct odds_w den)
{
	if (o->exact && den.ovf)
		errx(1, "--exact: this deck is too large for exact fractions; "
		    "run without --exact for decimals");
}

/* Prints a distribution of values 'from' .. n-1 as a table or rows. */
static void
print_dist(const struct opts *o, const char *label, struct odds_w *w,
    int n, int from, struct odds_w den)
{
	long double pmax = 0;
	int first = 1;

	for (int x = from; x < n; x++)
		if (odds_p(w[x], den) > pmax)
			pmax = odds_p(w[x], den);
	if (o->fmt == OUT_TABLE)
		printf("%5s  %-18s\n", label, "p");
	for (int x = from; x < n; x++) {
		if (w[x].f == 0)
			continue;
		if (o->fmt == OUT_JSON) {
			printf("%s{\"value\":%d,\"p\":", first ? "" : ",", x);
			print_p(o, w[x], den, 1);
			printf("}");
		} else if (o->fmt == OUT_CSV) {
			printf("%d,", x);
			print_p(o, w[x], den, 0);
			printf("\n");
		} else {
			char buf[128];

			if (o->exact && odds_fraction(w[x], den, buf,
			    sizeof buf) == 0)
				printf("%5d  %-18s  ", x, buf);
			else
				printf("%5d  %-18.12Lf  ", x,
				    odds_p(w[x], den));
			cli_bar(odds_p(w[x], den), pmax);
			putchar('\n');
		}
		first = 0;
	}
}

/*
 * The distribution of values 'from' .. n-1 as a bar chart in o->svg,
 * the values of weight 0 left out, as the table leaves them.
 */
static void
svg_dist(const struct opts *o, const char *title, const struct odds_w *w,
    int n, int from, struct odds_w den)
{
	char **labels = xcalloc((size_t)n + 1, sizeof *labels), *tmp;
	double *v = xcalloc((size_t)n + 1, sizeof *v);
	struct svg_chart c = { title, 0, (const char *const *)labels, 1,
	    { "p", NULL }, { v, NULL }, 4 };
	FILE *fp;

	for (int x = from; x < n; x++) {
		if (w[x].f == 0)
			continue;
		labels[c.n] = xasprintf("%d", x);
		v[c.n++] = (double)odds_p(w[x], den);
	}
	fp = cli_file_open(o->svg, &tmp);
	svg_chart_write(fp, &c);
	cli_file_done(fp, o->svg, tmp);
	for (size_t i = 0; i < c.n; i++)
		free(labels[i]);
	free(labels);
	free(v);
}

/* The weight of the mean: sum of x w[x]. */
static struct odds_w
weighted_sum(const struct odds_w *w, int n)
{
	struct odds_w s = { 0, 0, 0 };

	for (int x = 1; x < n; x++) {
		odds_u128 t;

		s.ovf |= w[x].ovf || __builtin_mul_overflow(w[x].v,
		    (odds_u128)x, &t) || __builtin_add_overflow(s.v, t, &s.v);
		s.f += w[x].f * x;
	}
	return s;
}

static int
cmd_odds(struct opts *o, int argc, char **argv)
{
	struct deck d;
	struct odds_dist od;
	struct odds_w mean;

	(void)argv;
	if (argc != 0)
		cli_usage_error("odds takes options only");
	if (o->kind == DECK_DEFENSE && !o->me.base_set)
		cli_usage_error("--defensive needs --base N");
	side_deck(&o->me, "--out", &d);
	odds_pick(&d, o->cards, o->me.base, o->kind == DECK_DEFENSE ?
	    ODDS_DEFENSE : ODDS_ATTACK, &od);
	check_exact(o, od.den);
	mean = weighted_sum(od.w, od.n);
	if (o->svg) {
		char *title = xasprintf("P(%s) of a pick of %d card%s, LB %d%s",
		    o->me.base_set ? "total" : "value", o->cards,
		    o->cards == 1 ? "" : "s", o->me.lb,
		    o->kind == DECK_DEFENSE ? ", as a defence" : "");

		svg_dist(o, title, od.w, od.n, 0, od.den);
		free(title);
	}
	if (o->fmt == OUT_JSON) {
		printf("{\"distribution\":[");
		print_dist(o, "value", od.w, od.n, 0, od.den);
		printf("],\"p_fumble\":");
		print_p(o, od.fumble, od.den, 1);
		printf(",\"p_empty\":");
		print_p(o, od.empty, od.den, 1);
		printf(",\"mean\":");
		print_p(o, mean, od.den, 1);
		printf("}\n");
	} else if (o->fmt == OUT_CSV) {
		printf("value,p\n");
		print_dist(o, "value", od.w, od.n, 0, od.den);
	} else {
		printf("deck: LB %d, %d card%s", o->me.lb, deck_size(&d),
		    deck_size(&d) == 1 ? "" : "s");
		if (o->me.nout) {
			printf(" (set aside:");
			for (int i = 0; i < o->me.nout; i++)
				printf(" %s", deck_face_name(o->me.out[i]));
			printf(")");
		}
		printf("; a pick of %d card%s%s\n", o->cards,
		    o->cards == 1 ? "" : "s", o->kind == DECK_DEFENSE ?
		    ", as a defence" : o->me.base_set ? ", with base" : "");
		print_dist(o, o->me.base_set ? "total" : "value", od.w, od.n,
		    0, od.den);
		printf("P(fumble) ");
		print_p(o, od.fumble, od.den, 0);
		if (od.empty.f > 0) {
			printf("   P(empty deck) ");
			print_p(o, od.empty, od.den, 0);
		}
		printf("   mean ");
		print_p(o, mean, od.den, 0);
		putchar('\n');
	}
	odds_dist_release(&od);
	return 0;
}

/*
 * "62.5% (5/8)": a chance for people, the exact fraction beside it
 * where 128 bits hold it.  Only a chance of exactly 0 or 1 reads 0% or
 * 100% (and needs no fraction); one that rounds to either says so.
 */
static void
percent_text(struct odds_w w, struct odds_w den)
{
	long double p = odds_p(w, den) * 100;
	char buf[128];

	if (w.f == 0 || (!den.ovf && w.v == den.v)) {
		printf("%s", w.f == 0 ? "0%" : "100%");
		return;
	}
	if (p < 0.05L)
		printf("under 0.1%%");
	else if (p > 99.95L)
		printf("over 99.9%%");
	else
		printf("%.1Lf%%", p);
	if (odds_fraction(w, den, buf, sizeof buf) == 0)
		printf(" (%s)", buf);
}

/* versus for people: P(hit), the expected damage, its range or table. */
static void
versus_text(const struct opts *o, const struct odds_versus *v,
    const char *title)
{
	int lo = 0, hi = 0;

	printf("%s\n", title);
	printf("P(hit)           ");
	percent_text(v->hit, v->den);
	printf("\nexpected damage  ");
	print_p(o, v->damage_sum, v->den, 0);
	printf("\n");
	if (v->hit.f == 0)
		return;
	if (o->full) {
		print_dist(o, "damage", v->damage, v->n, 1, v->den);
		return;
	}
	for (int x = 1; x < v->n; x++)
		if (v->damage[x].f > 0) {
			lo = lo ? lo : x;
			hi = x;
		}
	printf("damage on a hit  %d to %d (--full: the chance of each)\n", lo,
	    hi);
}

static void
print_versus(const struct opts *o, int obase, int dbase,
    const struct deck *od_deck, const struct deck *dd_deck,
    const char *title)
{
	struct odds_versus v;

	odds_strike(od_deck, obase, dd_deck, dbase, &v);
	check_exact(o, v.den);
	if (o->svg) {
		char *t = xasprintf("P(damage), %s", title);

		svg_dist(o, t, v.damage, v.n, 1, v.den);
		free(t);
	}
	if (o->fmt == OUT_JSON) {
		printf("{\"offense\":%d,\"defense\":%d,\"p_hit\":", obase,
		    dbase);
		print_p(o, v.hit, v.den, 1);
		printf(",\"expected_damage\":");
		print_p(o, v.damage_sum, v.den, 1);
		printf(",\"damage\":[");
		print_dist(o, "damage", v.damage, v.n, 1, v.den);
		printf("]}\n");
	} else if (o->fmt == OUT_CSV) {
		printf("damage,p\n");
		print_dist(o, "damage", v.damage, v.n, 1, v.den);
	} else
		versus_text(o, &v, title);
	odds_versus_release(&v);
}

/* versus ATTACKER DEFENDER: both sheets from the database. */
static void
versus_names(struct opts *o, const char *an, const char *dn)
{
	struct db *db = db_open(o->db);
	const char *names[2] = { an, dn };
	struct sheet sh[2];
	struct sheet_stat st[2][S_COUNT];
	struct deck dk[2];
	int base[2];
	char why[600], *title, *full;
	static const char *const kinds[] = { "short range", "long range",
	    "mental" };

	for (int i = 0; i < 2; i++) {
		struct item *items;
		size_t n;
		int64_t id;
		int lb;

		sheet_init(&sh[i]);
		if ((full = roster_name(db, ROSTER_CHARACTER, names[i], why,
		    sizeof why)) == NULL)
			errx(1, "%s", why);
		if (roster_get(db, full, &sh[i], &id) != ROSTER_OK)
			errx(1, "no character named '%s'", q(full));
		free(full);
		names[i] = sh[i].name;
		items = roster_held_items(db, id, &n);
		sheet_secondary(&sh[i], STATS_ROUND_WHOLE, items, n, st[i]);
		if ((i == 0 ? sheet_attack_base(st[i], items, n, o->attack,
		    o->use, &base[i], why, sizeof why) :
		    sheet_defense_base(st[i], items, n, o->attack, &base[i],
		    why, sizeof why)) != 0)
			errx(1, "'%s' %s", q(names[i]), why);
		lb = st[i][S_LB].value == STATS_ABSENT ? 0 :
		    st[i][S_LB].value;
		if (lb > DECK_LB_MAX)
			lb = DECK_LB_MAX;
		deck_init(&dk[i], lb);
		roster_items_free(items, n);
	}
	db_close(db);
	title = xasprintf("%s attack: %s, %d (LB %d), against %s, %d (LB %d)",
	    kinds[o->attack], q(names[0]), base[0], dk[0].lb, q(names[1]),
	    base[1], dk[1].lb);
	print_versus(o, base[0], base[1], &dk[0], &dk[1], title);
	free(title);
	sheet_release(&sh[0]);
	sheet_release(&sh[1]);
}

static int
cmd_versus(struct opts *o, int argc, char **argv)
{
	struct deck od, dd;
	char *title;

	if (argc == 2) {
		if (o->off_set || o->def_set)
			cli_usage_error("versus takes two names or --offense "
			    "and --defense, not both");
		versus_names(o, argv[0], argv[1]);
		return 0;
	}
	if (argc != 0)
		cli_usage_error("versus takes ATTACKER DEFENDER, or options");
	if (!o->off.base_set || !o->def.base_set)
		cli_usage_error("versus needs --offense N and --defense N");
	if (o->attack != SHEET_SHORT || o->use)
		cli_usage_error("--long, --mental and --use go with versus "
		    "ATTACKER DEFENDER");
	side_deck(&o->off, "--offense-out", &od);
	side_deck(&o->def, "--defense-out", &dd);
	title = xasprintf("offense %d (LB %d) against defense %d (LB %d)",
	    o->off.base, o->off.lb, o->def.base, o->def.lb);
	print_versus(o, o->off.base, o->def.base, &od, &dd, title);
	free(title);
	return 0;
}

enum {
	OPT_DEFENSIVE = 256, OPT_INITIATIVE, OPT_SPECIAL, OPT_OFFENSE,
	OPT_DEFENSE, OPT_OFFENSE_LB, OPT_DEFENSE_LB, OPT_OFFENSE_OUT,
	OPT_DEFENSE_OUT, OPT_LONG, OPT_MENTAL, OPT_DB, OPT_SVG,
	OPT_FULL
};

static const struct option longopts[] = {
	{ "lb", required_argument, NULL, 'l' },
	{ "cards", required_argument, NULL, 'k' },
	{ "defensive", no_argument, NULL, OPT_DEFENSIVE },
	{ "initiative", no_argument, NULL, OPT_INITIATIVE },
	{ "base", required_argument, NULL, 'b' },
	{ "out", required_argument, NULL, 'o' },
	{ "seed", required_argument, NULL, 's' },
	{ "drawn", required_argument, NULL, 'd' },
	{ "special", required_argument, NULL, OPT_SPECIAL },
	{ "offense", required_argument, NULL, OPT_OFFENSE },
	{ "defense", required_argument, NULL, OPT_DEFENSE },
	{ "offense-lb", required_argument, NULL, OPT_OFFENSE_LB },
	{ "defense-lb", required_argument, NULL, OPT_DEFENSE_LB },
	{ "offense-out", required_argument, NULL, OPT_OFFENSE_OUT },
	{ "defense-out", required_argument, NULL, OPT_DEFENSE_OUT },
	{ "long", no_argument, NULL, OPT_LONG },
	{ "mental", no_argument, NULL, OPT_MENTAL },
	{ "use", required_argument, NULL, 'u' },
	{ "db", required_argument, NULL, OPT_DB },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "full", no_argument, NULL, OPT_FULL },
	{ "json", no_argument, NULL, 'j' },
	{ "csv", no_argument, NULL, 'c' },
	{ "exact", no_argument, NULL, 'e' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/* Stats, bases and modifiers stay within this, so sums cannot overflow. */
#define BASE_MAX	100000

/*
 * The options of versus's two sides: --offense, --defense, and each
 * side's -lb and -out.
 */
static void
versus_option(struct opts *o, int ch, const char *arg)
{
	switch (ch) {
	case OPT_OFFENSE:
		o->off.base = (int)cli_int_arg("--offense", arg, 0, BASE_MAX);
		o->off.base_set = o->off_set = 1;
		break;
	case OPT_DEFENSE:
		o->def.base = (int)cli_int_arg("--defense", arg, 0, BASE_MAX);
		o->def.base_set = o->def_set = 1;
		break;
	case OPT_OFFENSE_LB:
		o->off.lb = (int)cli_int_arg("--offense-lb", arg, 0,
		    DECK_LB_MAX);
		o->off_set = 1;
		break;
	case OPT_DEFENSE_LB:
		o->def.lb = (int)cli_int_arg("--defense-lb", arg, 0,
		    DECK_LB_MAX);
		o->def_set = 1;
		break;
	case OPT_OFFENSE_OUT:
		parse_out("--offense-out", arg, &o->off);
		o->off_set = 1;
		break;
	case OPT_DEFENSE_OUT:
		parse_out("--defense-out", arg, &o->def);
		o->def_set = 1;
		break;
	}
}

/* One option, ch, as getopt_long returned it; 0 if it is none of its own. */
static int
set_option(void *op, int ch, const char *arg)
{
	struct opts *o = op;

	switch (ch) {
	case 'l':
		o->me.lb = (int)cli_int_arg("--lb", arg, 0, DECK_LB_MAX);
		break;
	case 'k':
		o->cards = (int)cli_int_arg("--cards", arg, 1,
		    DECK_CARDS_MAX);
		break;
	case OPT_DEFENSIVE:
		o->kind = DECK_DEFENSE;
		break;
	case OPT_INITIATIVE:
		o->kind = DECK_INITIATIVE;
		break;
	case 'b':
		o->me.base = (int)cli_int_arg("--base", arg, 0, BASE_MAX);
		o->me.base_set = 1;
		break;
	case 'o':
		parse_out("--out", arg, &o->me);
		break;
	case 's':
		o->seed = cli_seed_arg(arg);
		o->have_seed = 1;
		break;
	case 'd':
		o->drawn = arg;
		break;
	case OPT_SPECIAL:
		o->special = arg;
		break;
	case OPT_OFFENSE:
	case OPT_DEFENSE:
	case OPT_OFFENSE_LB:
	case OPT_DEFENSE_LB:
	case OPT_OFFENSE_OUT:
	case OPT_DEFENSE_OUT:
		versus_option(o, ch, arg);
		break;
	case OPT_LONG:
		o->attack = SHEET_LONG;
		break;
	case OPT_MENTAL:
		o->attack = SHEET_MENTAL;
		break;
	case 'u':
		o->use = (int)cli_int_arg("--use", arg, 1, BASE_MAX);
		break;
	case OPT_DB:
		o->db = arg;
		break;
	case OPT_SVG:
		o->svg = arg;
		break;
	case OPT_FULL:
		o->full = 1;
		break;
	case 'e':
		o->exact = 1;
		break;
	default:
		return 0;
	}
	return 1;
}

static const struct cli_opts options = { ":l:k:b:o:s:d:u:jcehV", longopts,
    usage_text, set_option };

int
main(int argc, char **argv)
{
	struct opts o;
	int n;

	memset(&o, 0, sizeof o);
	o.fmt = OUT_TABLE;
	o.cards = 1;
	o.kind = DECK_OFFENSE;
	o.attack = SHEET_SHORT;
	cli_init(argc, argv);
	complete_answer(argc, argv, &crscomplete_draw, longopts);
	n = cli_options(&options, argc, argv, &o, &o.fmt);
	argc -= n;
	argv += n;
	if (argc == 0)
		cli_usage_error("no command given (pick, odds or versus)");
	if (o.full && strcmp(argv[0], "versus") != 0)
		cli_usage_error("--full goes with versus");
	if (strcmp(argv[0], "pick") == 0) {
		if (o.svg)
			cli_usage_error("--svg goes with odds and versus");
		return cmd_pick(&o, argc - 1, argv + 1);
	}
	if (strcmp(argv[0], "odds") == 0) {
		if (o.drawn || o.have_seed || o.special)
			cli_usage_error("odds draws nothing: no --seed, "
			    "--drawn or --special");
		return cmd_odds(&o, argc - 1, argv + 1);
	}
	if (strcmp(argv[0], "versus") == 0)
		return cmd_versus(&o, argc - 1, argv + 1);
	cli_unknown("command", argv[0], (const char *const[]){ "pick", "odds",
	    "versus" }, 3);
}
