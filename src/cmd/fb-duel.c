/*
 * fb-duel - referee and simulate Force Battles Advanced duels.  A thin
 * main over fb.c (the rules), fb/text.c (the text forms) and fb/ledger.c
 * (the database).  See fb-duel(1).
 */
#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/ruling.h"
#include "db/db.h"
#include "term/play.h"
#include "fb/fb.h"
#include "fb/complete.h"
#include "fb/text.h"
#include "fb/ledger.h"
#include "fb/page.h"
#include "fb/sim.h"
#include "fb/watch.h"
#include "base/rng.h"
#include "paper/sheetrun.h"
#include "base/strbuf.h"
#include "base/util.h"

static const char usage[] =
"usage: fb-duel [--db FILE] [--duel ID] [--gm NAME] COMMAND ...\n"
"  sheet add NAME [--side S] [--hand H] [--colour C] [--level L]\n"
"            [--free-geas G] [--board B] [--notes T] [SLOT=N ...]\n"
"  sheet set NAME [options as for add] [--clear] [SLOT=N ...]\n"
"  sheet show NAME [--json]      sheet list [--json|--csv]\n"
"  sheet rm NAME\n"
"  stance NAME [--clear] [SLOT=N ...]\n"
"  board list | board show [NAME] | board add NAME FILE\n"
"  start A B\n"
"  geas NAME POWER [ARG] [--spheres S,S] [--absorb N] [--seed S]\n"
"  init [--init A,B ...] [--seed S]\n"
"  target [--choose T | --target-die N] [--move T[@SPHERE] ...]\n"
"  round [--pass] [--pull NAME:SPHERE=N,...] [--hit D,D] [--block D,D]\n"
"        [--damage N] [--gain N] [--gain-from-foe] [--kick]\n"
"        [--choke-die N] [--place SLOT=N,...] [--return SPHERE=N,...]\n"
"        [--geas NAME:POWER[:ARG]] [--after-hit NAME:POWER] [--seed S]\n"
"        (and init's and target's options)\n"
"  restance NAME SLOT=N ...\n"
"  adjust NAME ATT|DEF|POOL=+N|-N|N ... --reason TEXT   a GM's ruling\n"
"  status [--json]   log [--json]   history [NAME] [--json|--csv]\n"
"  list [--json|--csv]  the duels not over: GM, round, last event\n"
"  watch [DUEL]      the boards, drawn again as the duel changes\n"
"  undo [--dry-run]   replay [DUEL]\n"
"  play [DUEL]        commands at a prompt (r: round, s: status, u: undo)\n"
"  sim A B --n N [--seed S] [--max-rounds R] [--jobs N] [--json]\n"
"  sheets NAME...|--all -o FILE.pdf [--paper a4|letter] [--per-page 1|2]\n"
"                     printed boards, ready to print\n"
"  verify-sheet CODE  whether a printed board matches the database\n"
"Without --duel, the duel this GM (--gm, REFKIT_GM, else the login name)\n"
"last started or acted in that is not over is used.\n";

struct opts {
	const char	*db;
	enum out_format	 fmt;
	int		 have_seed;
	uint64_t	 seed;
	const char	*duel;		/* as typed: "3", "89abcdef-3" */
	const char	*gm;		/* --gm */
	const char	*side, *hand, *colour, *level, *free_geas, *board;
	const char	*notes, *spheres;
	const char	*reason;	/* adjust: the GM's ruling, why */
	int		 clear, absorb, dry_run;
	long		 n, max_rounds;
	int		 jobs;
	const char	*output;	/* sheets */
	int		 paper, per_page, all;
	int		 nargs;
	char		**args;
	/* round options, checked once the duel's board is known */
	int		 nround;
	const char	*ropt[64], *rval[64];	/* ropt's are owned */
	char		*spec;		/* geas's round value, owned */
	/* Every long option on the line, for fbcomplete_duel.takes. */
	int		 nseen;
	const char	*seen[64];
};

static struct opts o;

/* Room for a refusal that lists eight names (base/names.h). */
static char why[600];
/* The input a command records, reachable until exit whatever path leaves. */
static char *held;

static const char *
q(const char *s)
{
	return util_q(s);
}

/* ---- arguments ---- */

static const char *const value_opts[] = {
	"db", "seed", "duel", "gm", "side", "hand", "colour", "level", "free-geas",
	"board", "notes", "spheres", "absorb", "n", "max-rounds", "jobs",
	"output", "paper", "per-page", "reason", NULL
};
static const char *const round_value_opts[] = {
	"init", "choose", "target-die", "move", "pull", "hit", "block",
	"damage", "gain", "choke-die", "place", "return", "geas",
	"after-hit", NULL
};

/*
 * An unknown long option (typed, with its "--"): refused, suggesting the
 * nearest of every option fb-duel takes.
 */
static void
unknown_option(const char *typed)
{
	static const char *const others[] = { "help", "version", "json",
	    "csv", "clear", "dry-run", "pass", "kick", "gain-from-foe",
	    "all" };
	const char *known[64];
	size_t n = 0;

	for (size_t i = 0; value_opts[i] != NULL; i++)
		known[n++] = value_opts[i];
	for (size_t i = 0; round_value_opts[i] != NULL; i++)
		known[n++] = round_value_opts[i];
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
		known[n++] = others[i];
	cli_unknown_option(typed, known, n);
}

/* The entry of list that is s, or NULL. */
static const char *
in_list(const char *const *list, const char *s)
{
	for (; *list != NULL; list++)
		if (strcmp(*list, s) == 0)
			return *list;
	return NULL;
}

/* Notes option name (without "--", kept until exit) as on the line. */
static void
saw(const char *name)
{
	if (o.nseen == 64)
		cli_usage_error("too many options");
	o.seen[o.nseen++] = name;
}

static void
own_option(const char *opt, const char *val)
{
	saw(opt);
	if (strcmp(opt, "db") == 0)
		o.db = val;
	else if (strcmp(opt, "seed") == 0) {
		o.seed = cli_seed_arg(val);
		o.have_seed = 1;
	} else if (strcmp(opt, "duel") == 0)
		o.duel = cli_key_arg("--duel", val);
	else if (strcmp(opt, "gm") == 0)
		o.gm = val;
	else if (strcmp(opt, "side") == 0)
		o.side = val;
	else if (strcmp(opt, "hand") == 0)
		o.hand = val;
	else if (strcmp(opt, "colour") == 0)
		o.colour = val;
	else if (strcmp(opt, "level") == 0)
		o.level = val;
	else if (strcmp(opt, "free-geas") == 0)
		o.free_geas = val;
	else if (strcmp(opt, "board") == 0)
		o.board = val;
	else if (strcmp(opt, "notes") == 0)
		o.notes = val;
	else if (strcmp(opt, "spheres") == 0)
		o.spheres = val;
	else if (strcmp(opt, "absorb") == 0)
		o.absorb = (int)cli_int_arg("--absorb", val, 1, 50);
	else if (strcmp(opt, "n") == 0)
		o.n = cli_int_arg("--n", val, 1, 1000000000L);
	else if (strcmp(opt, "max-rounds") == 0)
		o.max_rounds = cli_int_arg("--max-rounds", val, 1, 100000);
	else if (strcmp(opt, "jobs") == 0)
		o.jobs = (int)cli_int_arg("--jobs", val, 1, FBSIM_MAXJOBS);
	else if (strcmp(opt, "output") == 0)
		o.output = val;
	else if (strcmp(opt, "reason") == 0)
		o.reason = val;
	else if (strcmp(opt, "paper") == 0)
		o.paper = cli_paper_arg(val);
	else if (strcmp(opt, "per-page") == 0)
		o.per_page = (int)cli_int_arg("--per-page", val, 1, 2);
}

/*
 * One of fb-duel's own flags, which take no value (help, version, the
 * output formats, --clear, --dry-run, --all): applied, and 1; else 0.
 */
static int
own_flag(const char *a)
{
	if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
		fputs(usage, stdout);
		exit(0);
	}
	if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
		puts("fb-duel (refkit) " REFKIT_VERSION);
		exit(0);
	}
	if (strcmp(a, "-j") == 0 || strcmp(a, "--json") == 0)
		o.fmt = OUT_JSON;
	else if (strcmp(a, "-c") == 0 || strcmp(a, "--csv") == 0)
		o.fmt = OUT_CSV;
	else if (strcmp(a, "--clear") == 0)
		o.clear = 1;
	else if (strcmp(a, "--dry-run") == 0)
		o.dry_run = 1;
	else if (strcmp(a, "--all") == 0)
		o.all = 1;
	else
		return 0;
	if (a[1] == '-')
		saw(a + 2);
	return 1;
}

static void
parse_args(int argc, char **argv)
{
	int rest = 0;

	/* main() may run more than once (fuzzing, and each line of play). */
	free(o.args);
	for (int i = 0; i < o.nround; i++)
		free((char *)o.ropt[i]);
	free(o.spec);
	memset(&o, 0, sizeof o);
	o.fmt = OUT_TABLE;
	o.per_page = 1;
	o.args = xcalloc((size_t)argc + 1, sizeof *o.args);
	for (int i = 1; i < argc; i++) {
		char *a = argv[i], opt[64];
		const char *val = NULL, *eq;

		if (rest || a[0] != '-' || a[1] == '\0') {
			o.args[o.nargs++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			rest = 1;
			continue;
		}
		if (own_flag(a))
			continue;
		if (strcmp(a, "-o") == 0) {
			if (i + 1 == argc)
				cli_usage_error("'-o' needs a value");
			own_option("output", argv[++i]);
			continue;
		}
		if (a[1] != '-' || strlen(a + 2) >= sizeof opt)
			cli_usage_error("unknown option '%s'", q(a));
		eq = strchr(a + 2, '=');
		snprintf(opt, sizeof opt, "%.*s", eq ? (int)(eq - a - 2) :
		    (int)strlen(a + 2), a + 2);
		if (fbtext_in_is_flag(opt)) {
			if (eq != NULL)
				cli_usage_error("'--%s' takes no value", opt);
		} else if (in_list(value_opts, opt) ||
		    in_list(round_value_opts, opt)) {
			if (eq != NULL)
				val = eq + 1;
			else if (i + 1 < argc)
				val = argv[++i];
			else
				cli_usage_error("'--%s' needs a value", opt);
		} else
			unknown_option(a);
		if (in_list(value_opts, opt))
			own_option(in_list(value_opts, opt), val);
		else {
			if (o.nround == 64)
				cli_usage_error("too many round options");
			saw(o.ropt[o.nround] = xstrdup(opt));
			o.rval[o.nround++] = val;
		}
	}
}

static uint64_t
seed_of(void)
{
	return o.have_seed ? o.seed : rng_os_seed();
}

/* ---- sheets ---- */

struct collect {
	int	n;
	char	msg[32][FB_WHYSZ];
};

static void
collect_bad(void *arg, const char *m)
{
	struct collect *c = arg;

	if (c->n < 32)
		snprintf(c->msg[c->n], FB_WHYSZ, "%s", m);
	c->n++;
}

/*
 * The duelist that typed names (fbledger_duelist_name: exactly, but for
 * case, or by a unique beginning of the name or of one of its words),
 * loaded into d with her board b; exits 1 with the candidates or the
 * nearest names.
 */
static void
load_duelist(struct db *db, const char *typed, struct fbledger_duelist *d,
    struct fb_board *b)
{
	char name[FBLEDGER_NAMESZ];

	if (fbledger_duelist_name(db, typed, name, why, sizeof why) < 0)
		db_die(db, "%s", why);
	if (fbledger_duelist_load(db, name, d, b) < 0)
		db_die(db, "no duelist '%s'", q(typed));
}

/* The board that typed names, by the same rule, loaded into b. */
static void
load_board(struct db *db, const char *typed, struct fb_board *b)
{
	char name[FB_NAMESZ];

	if (fbledger_board_name(db, typed, name, why, sizeof why) < 0)
		db_die(db, "%s", why);
	if (fbledger_board_load(db, name, b) < 0)
		db_die(db, "no board '%s'", q(typed));
}

/* Applies the sheet options and words to d; refusals are usage-free. */
static void
edit_sheet(struct db *db, struct fbledger_duelist *d, struct fb_board *b,
    int first, int words)
{
	struct collect c = { 0 };

	if (o.board != NULL) {
		load_board(db, o.board, b);
		if (!first)
			fb_stance_default(b, &d->sh.st);
	}
	if (o.side != NULL) {
		if (strcmp(o.side, "light") != 0 && strcmp(o.side, "dark") != 0)
			db_die(db, "--side: want light or dark, got '%s'",
			    q(o.side));
		d->sh.side = o.side[0] == 'd' ? FB_DARK : FB_LIGHT;
		if (o.colour == NULL && first)
			d->sh.colour = d->sh.side == FB_DARK ? FB_RED : FB_BLUE;
	}
	if (o.hand != NULL) {
		if (strcmp(o.hand, "left") != 0 && strcmp(o.hand, "right") != 0)
			db_die(db, "--hand: want left or right, got '%s'",
			    q(o.hand));
		d->sh.hand = o.hand[0] == 'l' ? FB_LEFT : FB_RIGHT;
	}
	if (o.colour != NULL && (d->sh.colour = fb_colour_find(o.colour)) < 0)
		db_die(db, "--colour: want green, orange, blue, red, purple or "
		    "yellow, got '%s'", q(o.colour));
	if (o.level != NULL && (d->sh.level = fb_level_find(o.level)) < 0)
		db_die(db, "--level: want learner, initiate, templar or "
		    "diamedes, got '%s'", q(o.level));
	if (o.free_geas != NULL) {
		if (strcmp(o.free_geas, "-") == 0)
			d->sh.free_geas = -1;
		else if ((d->sh.free_geas = fb_geas_find(o.free_geas)) < 0 ||
		    d->sh.free_geas == FB_CONVERT)
			db_die(db, "--free-geas: '%s' is not a GEAS",
			    q(o.free_geas));
	}
	if (o.notes != NULL) {
		char r[128];

		if (util_check_text(o.notes, UTIL_TEXT_NOTES, 10000, r,
		    sizeof r) != 0)
			db_die(db, "--notes: %s", r);
		free(d->notes);
		d->notes = xstrdup(o.notes);
	}
	if (o.clear)
		memset(&d->sh.st, 0, sizeof d->sh.st);
	for (int i = words; i < o.nargs; i++)
		if (fbtext_stance_word(b, o.args[i], &d->sh.st, why,
		    sizeof why) < 0)
			db_die(db, "%s", why);
	if (fb_sheet_check(b, &d->sh, collect_bad, &c) > 0) {
		for (int i = 0; i < c.n && i < 32; i++)
			warnx("%s: %s", d->name, c.msg[i]);
		db_die(db, "%s: %d broken limit%s; nothing changed", d->name,
		    c.n, c.n == 1 ? "" : "s");
	}
}

static void
json_stance(FILE *fp, const struct fb_board *b, const struct fb_stance *st)
{
	fputs("\"spheres\":{", fp);
	for (int i = 0; i < b->ns; i++)
		fprintf(fp, "%s\"%s\":%d", i ? "," : "", b->sname[i],
		    st->sph[i]);
	fprintf(fp, "},\"att\":%d,\"def\":%d,\"geas\":{", st->att, st->def);
	for (int g = 0, k = 0; g < FB_NGEAS; g++)
		if (st->geas[g])
			fprintf(fp, "%s\"%s\":%d", k++ ? "," : "",
			    fb_geas_name(g), st->geas[g]);
	fputc('}', fp);
}

/* A duelist's board as a stance, for json_stance. */
static struct fb_stance
player_stance(const struct fb_player *p)
{
	struct fb_stance st;

	memcpy(st.sph, p->sph, sizeof st.sph);
	st.att = p->att;
	st.def = p->def;
	memcpy(st.geas, p->geas, sizeof st.geas);
	return st;
}

static void
show_sheet(const struct fbledger_duelist *d, const struct fb_board *b)
{
	const struct fb_stance *st = &d->sh.st;
	int pool = fb_level_total(d->sh.level) - fb_stance_placed(b, st);
	int sum = 0;

	if (o.fmt == OUT_JSON) {
		printf("{\"name\":");
		cli_json_or_null(stdout, d->name);
		printf(",\"side\":\"%s\",\"hand\":\"%s\",\"colour\":\"%s\","
		    "\"level\":\"%s\",\"counters\":%d,\"free_geas\":",
		    fb_side_name(d->sh.side), fb_hand_name(d->sh.hand), fb_colour_name(d->sh.colour),
		    fb_level_name(d->sh.level), fb_level_total(d->sh.level));
		cli_json_or_null(stdout, d->sh.free_geas >= 0 ?
		    fb_geas_name(d->sh.free_geas) : NULL);
		printf(",\"board\":\"%s\",", b->name);
		json_stance(stdout, b, st);
		printf(",\"pool\":%d,\"notes\":", pool);
		cli_json_or_null(stdout, d->notes);
		printf("}\n");
		return;
	}
	printf("name       %s\nside       %s\nhand       %s\ncolour     %s\n"
	    "level      %s (%d counters)\nfree GEAS  %s\nboard      %s\n",
	    d->name, fb_side_name(d->sh.side), fb_hand_name(d->sh.hand), fb_colour_name(d->sh.colour),
	    fb_level_name(d->sh.level), fb_level_total(d->sh.level),
	    d->sh.free_geas >= 0 ? fb_geas_name(d->sh.free_geas) : "-",
	    b->name);
	fputs("spheres    ", stdout);
	for (int i = 0; i < b->ns; i++) {
		printf("%s%s %d", i ? ", " : "", b->sname[i], st->sph[i]);
		sum += st->sph[i];
	}
	printf(" (%d)\nATT        %d\nDEF        %d\nGEAS       ", sum, st->att,
	    st->def);
	fbtext_geas_text(stdout, st->geas, d->sh.free_geas);
	printf("\npool       %d\nnotes      ", pool);
	if (d->notes)
		util_fputs_safe(d->notes, stdout);
	else
		fputs("-", stdout);
	putchar('\n');
}

struct listing {
	int	n;
};

static void
list_one(void *arg, const struct fbledger_duelist *d, const char *stance)
{
	struct listing *l = arg;

	if (o.fmt == OUT_JSON) {
		printf("%s{\"name\":", l->n ? "," : "");
		cli_json_or_null(stdout, d->name);
		printf(",\"side\":\"%s\",\"hand\":\"%s\",\"colour\":\"%s\","
		    "\"level\":\"%s\",\"board\":\"%s\",\"stance\":\"%s\"}",
		    fb_side_name(d->sh.side), fb_hand_name(d->sh.hand), fb_colour_name(d->sh.colour),
		    fb_level_name(d->sh.level), d->board, stance);
	} else if (o.fmt == OUT_CSV)
		printf("%s,%s,%s,%s,%s,%s,\"%s\"\n", d->name,
		    fb_side_name(d->sh.side), fb_hand_name(d->sh.hand), fb_colour_name(d->sh.colour),
		    fb_level_name(d->sh.level), d->board, stance);
	else
		printf("%-16s %-5s %-5s %-6s %-8s %-8s %s\n", d->name,
		    fb_side_name(d->sh.side), fb_hand_name(d->sh.hand), fb_colour_name(d->sh.colour),
		    fb_level_name(d->sh.level), d->board, stance);
	l->n++;
}

static void
need(int n, const char *what)
{
	if (o.nargs < n)
		cli_usage_error("%s", what);
}

/* sheet list: every duelist, as a table, JSON or CSV. */
static void
sheet_list(struct db *db)
{
	struct listing l = { 0 };

	db_begin_read(db);
	if (o.fmt == OUT_JSON)
		putchar('[');
	else if (o.fmt == OUT_CSV)
		puts("name,side,hand,colour,level,board,stance");
	else
		printf("%-16s %-5s %-5s %-6s %-8s %-8s %s\n", "NAME", "SIDE",
		    "HAND", "COLOUR", "LEVEL", "BOARD", "STANCE");
	fbledger_duelist_each(db, list_one, &l);
	if (o.fmt == OUT_JSON)
		puts("]");
	db_commit(db);
}

static int
cmd_sheet(void)
{
	struct fbledger_duelist d;
	struct fb_board b;
	struct db *db;
	const char *sub;

	need(2, "sheet: add, set, show, list or rm");
	sub = o.args[1];
	db = cli_db_open(o.db);
	if (strcmp(sub, "list") == 0) {
		sheet_list(db);
		db_close(db);
		return 0;
	}
	need(3, "sheet: a NAME");
	if (strcmp(sub, "add") == 0) {
		if (!fb_name_ok(o.args[2], FBLEDGER_NAMESZ - 1))
			errx(1, "'%s': a name is 1 to 40 letters, digits, "
			    "'-', '_' or '.'", q(o.args[2]));
		memset(&d, 0, sizeof d);
		snprintf(d.name, sizeof d.name, "%s", o.args[2]);
		d.sh.side = FB_LIGHT;
		d.sh.hand = FB_RIGHT;
		d.sh.colour = FB_BLUE;
		d.sh.level = FB_LEARNER;
		d.sh.free_geas = -1;
		db_begin(db);
		load_board(db, o.board ? o.board : "default", &b);
		fb_stance_default(&b, &d.sh.st);
		edit_sheet(db, &d, &b, 1, 3);
		if (fbledger_duelist_save(db, &d, &b, db_now()) < 0)
			db_die(db, "duelist '%s' already exists", d.name);
		db_commit(db);
		printf("added %s\n", d.name);
		fbledger_duelist_release(&d);
	} else if (strcmp(sub, "set") == 0) {
		db_begin(db);
		load_duelist(db, o.args[2], &d, &b);
		edit_sheet(db, &d, &b, 0, 3);
		fbledger_duelist_save(db, &d, &b, db_now());
		db_commit(db);
		printf("updated %s\n", d.name);
		fbledger_duelist_release(&d);
	} else if (strcmp(sub, "show") == 0) {
		db_begin_read(db);
		load_duelist(db, o.args[2], &d, &b);
		db_commit(db);
		show_sheet(&d, &b);
		fbledger_duelist_release(&d);
	} else if (strcmp(sub, "rm") == 0) {
		char name[FBLEDGER_NAMESZ];

		db_begin(db);
		if (fbledger_duelist_name(db, o.args[2], name, why,
		    sizeof why) < 0)
			db_die(db, "%s", why);
		if (fbledger_duelist_remove(db, name) < 0)
			db_die(db, "no duelist '%s'", q(o.args[2]));
		db_commit(db);
		printf("removed %s\n", name);
	} else
		cli_unknown("sheet command", sub, (const char *const[]){
		    "add", "set", "list", "show", "rm" }, 5);
	db_close(db);
	return 0;
}

/* ---- printed boards ---- */

/* A duelist as her printed board shows her. */
struct printed {
	struct fbledger_duelist	d;
	struct fb_board		b;
	struct fbpage_duelist	p;
};

static void *
printed_load(struct db *db, const char *name, void *arg)
{
	struct printed *p = xcalloc(1, sizeof *p);

	(void)arg;
	if (fbledger_duelist_load(db, name, &p->d, &p->b) < 0)
		db_die(db, "no duelist '%s'", q(name));
	p->p.name = p->d.name;
	p->p.sh = &p->d.sh;
	p->p.b = &p->b;
	return p;
}

static void
printed_release(void *arg)
{
	struct printed *p = arg;

	fbledger_duelist_release(&p->d);
	free(p);
}

static void
printed_code(const void *arg, const char *station_id,
    char code[PAGE_CODE_LEN + 1])
{
	fbpage_code(&((const struct printed *)arg)->p, station_id, code);
}

static void
printed_layout(const void *arg, const char *code, struct page *pg)
{
	fbpage_layout(&((const struct printed *)arg)->p, code, pg);
}

static const struct sheetrun_ops printed_ops = {
	"duelists", fbledger_duelist_names, printed_load, printed_release,
	printed_code, printed_layout, NULL
};

/* sheets: the duelists named, or every one, as printed boards. */
static int
cmd_sheets(void)
{
	struct sheetrun_names names = { NULL, 0 };
	char name[FBLEDGER_NAMESZ];
	struct db *db;

	if (o.all == (o.nargs > 1))
		cli_usage_error("sheets needs NAME... or --all");
	if (o.output == NULL)
		cli_usage_error("sheets needs -o FILE.pdf");
	db = cli_db_open(o.db);
	db_begin_read(db);
	if (o.all)
		sheetrun_all(db, &printed_ops, &names);
	for (int i = 1; i < o.nargs; i++) {
		if (fbledger_duelist_name(db, o.args[i], name, why,
		    sizeof why) < 0)
			db_die(db, "%s", why);
		sheetrun_names_add(&names, name);
	}
	sheetrun_print(db, &printed_ops, names.v, names.n, o.output,
	    o.paper, o.per_page);
	db_rollback(db);
	db_close(db);
	sheetrun_names_free(&names);
	return 0;
}

/* verify-sheet CODE: whether a printed board matches the database. */
static int
cmd_verify_sheet(void)
{
	return cli_verify_sheet(o.db, &printed_ops, "verify-sheet", o.nargs - 1,
	    o.args + 1);
}

/* stance NAME [WORDS]: sets the stance if words are given, then shows it. */
static int
cmd_stance(void)
{
	struct fbledger_duelist d;
	struct fb_board b;
	struct db *db;

	need(2, "stance: a NAME");
	db = cli_db_open(o.db);
	db_begin(db);
	load_duelist(db, o.args[1], &d, &b);
	if (o.nargs > 2 || o.clear) {
		edit_sheet(db, &d, &b, 0, 2);
		fbledger_duelist_save(db, &d, &b, db_now());
	} else {
		struct collect c = { 0 };

		if (fb_sheet_check(&b, &d.sh, collect_bad, &c) > 0)
			for (int i = 0; i < c.n && i < 32; i++)
				warnx("%s: %s", d.name, c.msg[i]);
	}
	db_commit(db);
	show_sheet(&d, &b);
	fbledger_duelist_release(&d);
	db_close(db);
	return 0;
}

/* ---- boards ---- */

static void
board_name(void *arg, const char *name)
{
	(void)arg;
	puts(name);
}

static int
cmd_board(void)
{
	struct fb_board b;
	struct db *db;
	const char *sub;

	need(2, "board: list, show or add");
	sub = o.args[1];
	db = cli_db_open(o.db);
	if (strcmp(sub, "list") == 0) {
		db_begin_read(db);
		fbledger_board_each(db, board_name, NULL);
		db_commit(db);
	} else if (strcmp(sub, "show") == 0) {
		const char *name = o.nargs > 2 ? o.args[2] : "default";
		char *text;

		db_begin_read(db);
		load_board(db, name, &b);
		db_commit(db);
		text = fbtext_board_format(&b);
		fputs(text, stdout);
		free(text);
	} else if (strcmp(sub, "add") == 0) {
		FILE *fp;
		/* Static: a refusal exits with it, and valgrind must not mind. */
		static char *text;
		size_t cap = 0;
		ssize_t n;
		int nul;

		need(4, "board add: NAME FILE");
		text = NULL;
		if (!fb_name_ok(o.args[2], FB_NAMESZ - 1))
			errx(1, "'%s': a board name is 1 to 23 letters, "
			    "digits, '-', '_' or '.'", q(o.args[2]));
		if ((fp = fopen(o.args[3], "r")) == NULL)
			err(1, "%s", q(o.args[3]));
		n = getdelim(&text, &cap, '\0', fp);
		if (ferror(fp) || n < 0)
			errx(1, "%s: cannot read", q(o.args[3]));
		/* Text past a NUL would be dropped without a word. */
		nul = (n > 0 && text[n - 1] == '\0') || fgetc(fp) != EOF;
		fclose(fp);
		if (nul)
			errx(1, "%s: a NUL byte in a text file", q(o.args[3]));
		memset(&b, 0, sizeof b);
		snprintf(b.name, sizeof b.name, "%s", o.args[2]);
		if (fbtext_board_parse(text, &b, why, sizeof why) < 0)
			errx(1, "%s: %s", q(o.args[3]), why);
		free(text);
		text = NULL;
		db_begin(db);
		if (fbledger_board_add(db, &b) < 0)
			db_die(db, "board '%s' already exists", b.name);
		db_commit(db);
		printf("added board %s\n", b.name);
	} else
		cli_unknown("board command", sub, (const char *const[]){
		    "list", "show", "add" }, 3);
	db_close(db);
	return 0;
}

/* ---- the duel ---- */

static const char *
tname(const struct fbledger_live *l, int t)
{
	return t >= 0 ? l->b.tname[t] : "-";
}

/* The GEAS of a geas action, with what lightning took. */
static void
report_geas_text(FILE *fp, const char *const *nm, const struct fb_in *in,
    const struct fb_report *r)
{
	for (int k = 0; k < in->ngeas; k++) {
		const struct fb_geas_in *g = &in->geas[k];

		fprintf(fp, "%s%s uses %s", k ? " " : "", nm[g->who],
		    fb_geas_name(g->power));
		if (g->power == FB_LIGHTNING)
			fprintf(fp, " (%d): %d absorbed, %d counter%s taken",
			    g->n, r->absorbed, r->lightning,
			    r->lightning == 1 ? "" : "s");
		fputc('.', fp);
	}
}

/* The initiative and, but for a whole round, the target aimed at. */
static void
report_aim_text(FILE *fp, const struct fbledger_live *before,
    const char *action, const struct fb_in *in, const struct fb_report *r)
{
	const char *const *nm = before->np;
	int a = r->attacker;

	if (r->stage_from == FB_OPEN && a >= 0) {
		fputs("Initiative", fp);
		for (int k = 0; k + 1 < in->ninit; k += 2)
			fprintf(fp, "%s %d-%d", k ? "," : "", in->init[k],
			    in->init[k + 1]);
		fprintf(fp, " (%s): %s attacks. ",
		    fb_init_how_name(r->init_how), nm[a]);
	}
	if (r->base_target >= 0 && strcmp(action, "round") != 0) {
		fprintf(fp, "Target %s", tname(before, r->base_target));
		if (r->chose)
			fputs(" (chosen)", fp);
		else
			fprintf(fp, " (die %d)", r->tdie);
		if (r->move_cost)
			fprintf(fp, ", moved to %s for %d counter%s",
			    tname(before, r->target), r->move_cost,
			    r->move_cost == 1 ? "" : "s");
		fputs(". ", fp);
	}
}

/* What a whole round came to: a pass, a choke, or the dice and after. */
static void
report_round_text(FILE *fp, const struct fbledger_live *before,
    const struct fb_report *r)
{
	const char *const *nm = before->np;
	int a = r->attacker;

	switch (r->outcome) {
	case FB_O_PASS:
		fprintf(fp, "%s does not attack.", nm[a]);
		break;
	case FB_O_CHOKE:
		fprintf(fp, "%s chokes %s: die %d, %d from the center sphere, "
		    "%d from the head.", nm[a], nm[!a], r->dmg,
		    r->choked_sphere, r->choked_head);
		break;
	default:
		fprintf(fp, "%s attacks %s%s: Hit Die %d rolls %d (%s), Block "
		    "Die %d rolls %d (%s): %s", nm[a], tname(before, r->target),
		    r->mt ? " (Mind Trick)" : r->sight ? " (Sight)" : "",
		    r->hit_die, r->hit_roll, r->hit_auto ? "11+ misses" :
		    r->hit_ok ? "hit" : "botch", r->block_die, r->block_roll,
		    r->block_auto ? "11+ misses" : r->block_ok ? "block" :
		    "botch", fb_outcome_name(r->outcome));
		if (r->outcome == FB_O_HIT)
			fprintf(fp, ", damage %d takes %d", r->dmg, r->lost);
		if (r->outcome == FB_O_BOTCHBLOCK && r->healed)
			fprintf(fp, ", Heal restores %d", r->healed);
		else if (r->outcome == FB_O_BOTCHBLOCK)
			fprintf(fp, ", %s gains %d of %d%s", nm[!a], r->gained,
			    r->gain, r->gain_foe ? " from the foe's pool" : "");
		if (r->outcome == FB_O_KICK)
			fprintf(fp, ", %s gains %d and the next initiative",
			    nm[a], r->gained);
		fputc('.', fp);
	}
}

/* A GM's ruling: the counters it changed, before and after. */
static void
report_adjust_text(FILE *fp, const struct fbledger_live *before,
    const struct fbledger_live *after, int w)
{
	const struct fb_player *a = &before->s.p[w], *b = &after->s.p[w];
	const int was[3] = { a->att, a->def, a->pool };
	const int now[3] = { b->att, b->def, b->pool };
	const char *const label[3] = { "ATT", "DEF", "pool" };
	int n = 0;

	fprintf(fp, "The GM adjusts %s:", before->np[w]);
	for (int i = 0; i < 3; i++)
		if (was[i] != now[i])
			fprintf(fp, "%s %s %d -> %d", n++ ? "," : "", label[i],
			    was[i], now[i]);
	fputc('.', fp);
}

/* The report as a sentence, for the terminal and the log. */
static char *
report_text(const struct fbledger_live *before,
    const struct fbledger_live *after,
    const char *action, const struct fb_in *in, const struct fb_report *r)
{
	struct strbuf b = STRBUF_INIT;
	FILE *fp = strbuf_stream(&b);
	const char *const *nm = before->np;
	char *buf;
	size_t len;

	if (strcmp(action, "start") == 0)
		fprintf(fp, "%s and %s take their stances on board %s.",
		    nm[0], nm[1], after->b.name);
	else if (strcmp(action, "restance") == 0)
		fprintf(fp, "%s takes a new stance.", nm[r->attacker]);
	else if (strcmp(action, "adjust") == 0)
		report_adjust_text(fp, before, after, r->attacker);
	else if (strcmp(action, "geas") == 0 && in != NULL)
		report_geas_text(fp, nm, in, r);
	else {
		report_aim_text(fp, before, action, in, r);
		if (strcmp(action, "round") == 0)
			report_round_text(fp, before, r);
	}
	if (r->turned >= 0)
		fprintf(fp, " %s turns to the Dark side.", nm[r->turned]);
	if (after->s.over)
		fprintf(fp, " The duel is over (%s): %s.",
		    fb_end_name(after->s.end), after->s.winner < 0 ? "a draw" :
		    after->np[after->s.winner]);
	buf = strbuf_detach(&b, &len);
	while (len > 0 && buf[len - 1] == ' ')
		buf[--len] = '\0';
	return buf;
}

static char *
report_json(const struct fbledger_live *before,
    const struct fbledger_live *after,
    const char *action, const struct fb_report *r, const char *text)
{
	struct strbuf j = STRBUF_INIT;
	FILE *fp = strbuf_stream(&j);
	const char *const *nm = before->np;
	int a = r->attacker;

	fprintf(fp, "{\"action\":\"%s\",\"round\":%d", action,
	    before->s.round);
	if (strcmp(action, "round") == 0 || strcmp(action, "init") == 0 ||
	    strcmp(action, "aim") == 0) {
		fprintf(fp, ",\"attacker\":");
		cli_json_or_null(fp, a >= 0 ? nm[a] : NULL);
		if (r->stage_from == FB_OPEN)
			fprintf(fp, ",\"initiative\":\"%s\"",
			    fb_init_how_name(r->init_how));
		fprintf(fp, ",\"target_die\":%d,\"chose\":%s,\"move_cost\":%d",
		    r->tdie, r->chose ? "true" : "false", r->move_cost);
	}
	if (strcmp(action, "round") == 0) {
		fprintf(fp, ",\"outcome\":\"%s\",\"target\":",
		    fb_outcome_name(r->outcome));
		cli_json_or_null(fp, r->target >= 0 ?
		    before->b.tname[r->target] : NULL);
		fprintf(fp, ",\"mind_trick\":%s,\"sight\":%s,\"hit_die\":%d,"
		    "\"hit_roll\":%d,\"hit\":%s,\"hit_auto_miss\":%s,"
		    "\"block_die\":%d,\"block_roll\":%d,\"block\":%s,"
		    "\"block_auto_miss\":%s,\"damage\":%d,\"lost\":%d,"
		    "\"gain\":%d,\"gained\":%d,\"gain_from_foe\":%s,"
		    "\"healed\":%d,\"choked_sphere\":%d,\"choked_head\":%d",
		    r->mt ? "true" : "false", r->sight ? "true" : "false",
		    r->hit_die, r->hit_roll, r->hit_ok ? "true" : "false",
		    r->hit_auto ? "true" : "false", r->block_die,
		    r->block_roll, r->block_ok ? "true" : "false",
		    r->block_auto ? "true" : "false", r->dmg, r->lost, r->gain,
		    r->gained, r->gain_foe ? "true" : "false", r->healed,
		    r->choked_sphere, r->choked_head);
	}
	fprintf(fp, ",\"lightning\":%d,\"absorbed\":%d,\"spent\":[%d,%d],"
	    "\"turned\":", r->lightning, r->absorbed, r->spent[0],
	    r->spent[1]);
	cli_json_or_null(fp, r->turned >= 0 ? nm[r->turned] : NULL);
	fprintf(fp, ",\"ended\":");
	cli_json_or_null(fp, after->s.over ? fb_end_name(after->s.end) : NULL);
	fprintf(fp, ",\"winner\":");
	cli_json_or_null(fp, after->s.over && after->s.winner >= 0 ?
	    after->np[after->s.winner] : NULL);
	return cli_json_end(&j, text);
}



/*
 * The duel a command works on: --duel, or the one this GM started or
 * acted in last that is not over (reading: else the one he acted in
 * last).  Every refusal after it names the duel.
 */
static int64_t
duel_id(struct db *db, int reading)
{
	return journal_log_id(db, &fbledger_kind, o.duel, o.gm, reading);
}

/* How load_duel loads: from the newest snapshot, or every event. */
#define FROM_SNAPSHOT	0
#define EVERY_EVENT	(-1)

/*
 * Opens duel id and derives its state: from its newest snapshot, every
 * event (EVERY_EVENT), or from a snapshot before a seq (from > 0).
 */
static void
load_duel(struct db *db, int64_t id, int64_t from, struct fbledger_duel *d,
    struct fbledger_live *live)
{
	int64_t bad = 0;
	int rc;

	if (from == EVERY_EVENT)
		rc = fbledger_duel_load(db, id, d);
	else
		rc = fbledger_duel_load_recent(db, id, from, d);
	if (rc < 0)
		db_die(db, "no duel %s", cli_key(id));
	db_subject(db, "duel", cli_key(id));
	if (fbledger_derive(d, live, &bad, why, sizeof why) < 0)
		db_die(db, "event %lld does not replay: %s", (long long)bad,
		    why);
}

/* Of the duel's two duelists, the one who names as typed (fbtext_who). */
static const char *
play_actor(struct db *db, const struct fbledger_live *before,
    const char *who)
{
	int w = fbtext_who(before->np, who, why, sizeof why);

	if (w < 0)
		db_die(db, "%s", why);
	return before->np[w];
}

/*
 * The round options into in, now that the duel's board and names are
 * known; and with --absorb, the foe's ABSORB against a lone GEAS.
 */
static void
round_options(struct db *db, struct fbledger_live *live, struct fb_in *in)
{
	for (int k = 0; k < o.nround; k++) {
		int rc = fbtext_in_option(&live->b, live->np, o.ropt[k],
		    o.rval[k], in, why, sizeof why);

		if (rc < 0)
			db_die(db, "%s", why);
	}
	if (o.absorb && in->ngeas == 1) {
		struct fb_geas_in *g = &in->geas[1];

		memset(g, 0, sizeof *g);
		g->who = !in->geas[0].who;
		g->power = FB_ABSORB;
		g->n = o.absorb;
		g->target = g->from = -1;
		in->ngeas = 2;
	}
}

/*
 * Fills e for an action from the duel before it, after it (live) and its
 * report r: the round, action, actor, outcome, end and winner; the other
 * fields empty.
 */
static void
play_event(struct journal_event *e, const char *action, const char *actor,
    const struct fbledger_live *before, struct fbledger_live *live,
    const struct fb_report *r)
{
	memset(e, 0, sizeof *e);
	e->round = before->s.round;
	e->action = (char *)action;
	e->actor = (char *)(actor ? actor : r->attacker >= 0 ?
	    before->np[r->attacker] : NULL);
	e->outcome = strcmp(action, "round") == 0 ?
	    (char *)fb_outcome_name(r->outcome) : NULL;
	e->ended = live->s.over && !before->s.over ?
	    (char *)fb_end_name(live->s.end) : NULL;
	e->winner = e->ended && live->s.winner >= 0 ?
	    live->names[live->s.winner] : NULL;
}

/*
 * An adjust's event: its reason and changes go into the detail; the
 * action column's CHECK has no "adjust", so it is stored as a restance
 * (core/journal.h reads it back as adjust).  Returns the new detail.
 */
static char *
adjust_stored(struct journal_event *e, char *detail, const char *words)
{
	e->action = "restance";
	detail = cli_json_add_text(detail, "adjust", words);
	return cli_json_add_text(detail, "ruling", o.reason);
}

/* What an action says once recorded: its sentence, or its JSON. */
static void
play_said(const char *action, const char *sentence, const char *detail)
{
	if (o.fmt == OUT_JSON) {
		printf("%s\n", detail);
		return;
	}
	fputs(sentence, stdout);
	ruling_mark(stdout, strcmp(action, "adjust") == 0 ? o.reason : NULL);
	putchar('\n');
}

/*
 * Runs an action on the current duel and records it.  who is the duelist
 * a geas or a restance names as typed (NULL for the others), matched
 * against the duel's two (fbtext_who); the event records her full name,
 * and a restance's input is that name and its stance words.
 */
static int
play(const char *action, struct fb_in *in, const char *words,
    const char *who)
{
	struct fbledger_duel d;
	struct fbledger_live *before = xcalloc(1, sizeof *before);
	struct fbledger_live *live = xcalloc(1, sizeof *live);
	struct journal_event e;
	struct fb_report r;
	struct rng rng, fresh;
	struct db *db;
	uint64_t seed = seed_of();
	char *input, *sentence, *detail, seedtext[24], *typed = NULL;
	const char *text = NULL, *actor = NULL;
	int64_t id;
	int sealed;

	db = cli_db_open(o.db);
	db_begin_append(db);
	id = duel_id(db, 0);
	load_duel(db, id, FROM_SNAPSHOT, &d, live);
	*before = *live;
	before->np[0] = before->names[0];
	before->np[1] = before->names[1];
	if (live->s.over)
		db_die(db, "over (%s)", fb_end_name(live->s.end));
	if (who != NULL)
		actor = play_actor(db, before, who);
	if (words != NULL)
		text = held = xasprintf("%s %s", actor, words);
	round_options(db, live, in);
	if (text == NULL && fbtext_in_finish(in, why, sizeof why) < 0)
		db_die(db, "%s", why);
	/* Under a seal the dice come from it (refkit(7), "Trust"). */
	if ((sealed = fbledger_seal(db, id, &seed)) && o.have_seed)
		db_die(db, "--seed is refused while this station is sealed: "
		    "its draws come from the seal (refkit reveal ends it)");
	/* The dice as given, which a check of the seal draws from. */
	if (sealed && text == NULL)
		typed = fbtext_in_format(&live->b, live->np, in);
	rng_seed(&rng, seed);
	fresh = rng;
	if (fbledger_apply(live, action, text, in, &rng, &r, why,
	    sizeof why) < 0)
		db_die(db, "%s", why);
	live->s.b = &live->b;
	input = text ? xstrdup(text) : fbtext_in_format(&live->b, live->np, in);
	sentence = report_text(before, live, action, in, &r);
	detail = report_json(before, live, action, &r, sentence);
	snprintf(seedtext, sizeof seedtext, "%llu", (unsigned long long)seed);
	play_event(&e, action, actor, before, live, &r);
	if (strcmp(action, "adjust") == 0)
		detail = adjust_stored(&e, detail, words);
	e.input = input;
	/* The seed matters only if a die came from it. */
	e.seed = !rng_equal(&rng, &fresh) ? seedtext : NULL;
	if (e.seed != NULL && typed != NULL)
		detail = cli_json_add_text(detail, "typed", typed);
	e.detail = detail;
	e.time = db_now();
	e.gm = (char *)cli_gm(o.gm);
	fbledger_record(db, id, &e, live);
	db_commit(db);
	play_said(action, sentence, detail);
	free(input);
	free(sentence);
	free(detail);
	free(typed);
	free(before);
	free(live);
	fbledger_duel_release(&d);
	db_close(db);
	free(held);
	held = NULL;
	return 0;
}

static int
cmd_start(void)
{
	struct fbledger_duelist a, b;
	struct fb_board ba, bb;
	struct fbledger_live *live = xcalloc(1, sizeof *live);
	struct fb_report r;
	struct journal_event e;
	struct db *db;
	char *input, *text, *detail;
	int64_t id;

	need(3, "start: two duelists, A B");
	if (o.duel)
		cli_usage_error("start begins a new duel: --duel names one to "
		    "act in");
	db = cli_db_open(o.db);
	db_begin(db);
	load_duelist(db, o.args[1], &a, &ba);
	load_duelist(db, o.args[2], &b, &bb);
	if (a.id == b.id)
		db_die(db, "a duel needs two duelists");
	if (strcmp(ba.name, bb.name) != 0)
		db_die(db, "'%s' plays on board '%s' and '%s' on '%s'", a.name,
		    ba.name, b.name, bb.name);
	for (int w = 0; w < 2; w++) {
		struct collect c = { 0 };
		struct fbledger_duelist *x = w ? &b : &a;

		if (fb_sheet_check(&ba, &x->sh, collect_bad, &c) > 0)
			db_die(db, "%s: %s", x->name, c.msg[0]);
	}
	input = fbledger_start_input(&ba, &a, &b);
	if (fbledger_apply(live, "start", input, NULL, NULL, &r, why,
	    sizeof why) < 0)
		db_die(db, "%s", why);
	live->s.b = &live->b;
	id = fbledger_duel_new(db, a.name, b.name, ba.name, db_now());
	text = report_text(live, live, "start", NULL, &r);
	detail = report_json(live, live, "start", &r, text);
	memset(&e, 0, sizeof e);
	e.round = 1;
	e.action = "start";
	e.input = input;
	e.detail = detail;
	e.time = db_now();
	e.gm = (char *)cli_gm(o.gm);
	fbledger_record(db, id, &e, live);
	db_commit(db);
	printf("duel %s: %s\n", cli_key(id), text);
	free(input);
	free(text);
	free(detail);
	free(live);
	fbledger_duelist_release(&a);
	fbledger_duelist_release(&b);
	db_close(db);
	return 0;
}

static int
cmd_geas(void)
{
	struct fb_in in;
	char *spec;
	int k;

	need(3, "geas: NAME POWER [ARG]");
	spec = xasprintf("%s:%s%s%s%s%s", o.args[1], o.args[2],
	    o.nargs > 3 ? ":" : "", o.nargs > 3 ? o.args[3] : "",
	    o.spheres ? ":" : "", o.spheres ? o.spheres : "");
	if (o.spheres && o.nargs <= 3)
		cli_usage_error("--spheres: give lightning's COUNT first");
	fb_in_init(&in);
	/* Hand the spec over as a round option so that names resolve. */
	if (o.nround == 64)
		cli_usage_error("too many round options");
	k = o.nround;
	o.ropt[k] = xstrdup("geas");
	o.rval[k] = o.spec = spec;
	o.nround++;
	return play("geas", &in, NULL, o.args[1]);
}

static int
cmd_restance(void)
{
	struct fb_in in;
	/* Static: a refusal exits with it, and valgrind must not mind. */
	static char *words;
	struct strbuf b = STRBUF_INIT;

	need(3, "restance: NAME SLOT=N ...");
	/* The stance words, which the input records after the full name. */
	for (int i = 2; i < o.nargs; i++)
		strbuf_addf(&b, "%s%s", i > 2 ? " " : "", o.args[i]);
	words = strbuf_detach(&b, NULL);
	fb_in_init(&in);
	play("restance", &in, words, o.args[1]);
	free(words);
	words = NULL;
	return 0;
}

/*
 * adjust NAME COUNTER=+N ... --reason TEXT: a GM's ruling on a duelist's
 * ATT, DEF and pool, an event of its own (fb.c checks the values).
 */
static int
cmd_adjust(void)
{
	struct fb_in in;
	/* Static: a refusal exits with it, and valgrind must not mind. */
	static char *changes;

	need(3, "adjust: NAME COUNTER=+N, -N or N ... (ATT, DEF, POOL)");
	ruling_reason_arg(o.reason, "adjust");
	changes = ruling_changes_args(o.nargs - 2, o.args + 2,
	    fb_adjust_names);
	fb_in_init(&in);
	play("adjust", &in, changes, o.args[1]);
	free(changes);
	changes = NULL;
	return 0;
}

/* ---- status, log, history, undo ---- */

/* The state of a duel as one JSON object. */
static void
status_json(int64_t id, const char *gm, const struct fbledger_live *l)
{
	const struct fb_state *s = &l->s;

	printf("{\"duel\":%s,\"gm\":", cli_key_json(id));
	cli_json_or_null(stdout, gm);
	printf(",\"board\":\"%s\",\"round\":%d,\"stage\":\"%s\","
	    "\"attacker\":", l->b.name, s->round, fbtext_stage_name(s->stage));
	cli_json_or_null(stdout, s->stage != FB_OPEN ?
	    l->np[s->attacker] : NULL);
	printf(",\"last_attacker\":");
	cli_json_or_null(stdout, s->last_attacker >= 0 ?
	    l->np[s->last_attacker] : NULL);
	printf(",\"target\":");
	cli_json_or_null(stdout, s->stage == FB_AIMED ?
	    l->b.tname[s->target] : NULL);
	printf(",\"chooses_target\":%s,\"earned_initiative\":",
	    s->choose ? "true" : "false");
	cli_json_or_null(stdout, s->earned >= 0 ? l->np[s->earned] :
	    NULL);
	printf(",\"over\":%s,\"ended\":", s->over ? "true" : "false");
	cli_json_or_null(stdout, s->over ? fb_end_name(s->end) : NULL);
	printf(",\"winner\":");
	cli_json_or_null(stdout, s->over && s->winner >= 0 ?
	    l->np[s->winner] : NULL);
	printf(",\"duelists\":[");
	for (int w = 0; w < 2; w++) {
		const struct fb_player *p = &s->p[w];

		printf("%s{\"name\":\"%s\",\"side\":\"%s\",\"hand\":"
		    "\"%s\",\"colour\":\"%s\",\"level\":\"%s\",",
		    w ? "," : "", l->np[w], fb_side_name(p->side),
		    fb_hand_name(p->hand),
		    fb_colour_name(p->colour), fb_level_name(p->level));
		struct fb_stance st = player_stance(p);

		json_stance(stdout, &l->b, &st);
		printf(",\"pool\":%d,\"gift\":%d,\"legs_hit\":%d,"
		    "\"may_restance\":%s}", p->pool, p->gift,
		    (p->legs & 1) + (p->legs >> 1 & 1),
		    (s->restance >> w & 1) ? "true" : "false");
	}
	printf("]}\n");
}

/* The state of a duel as a table of the two boards. */
static void
status_text(int64_t id, const char *gm, const struct fbledger_live *l)
{
	char *key = xasprintf("%s (GM %s)", cli_key(id), gm ? util_q(gm) :
	    "unknown");

	fbtext_status_text(stdout, key, &l->b, l->np, &l->s, cli_columns());
	free(key);
}

static int
cmd_status(void)
{
	struct fbledger_duel d;
	struct fbledger_live *l = xcalloc(1, sizeof *l);
	struct db *db;
	int64_t id;
	char *gm;

	db = cli_db_open(o.db);
	db_begin_read(db);
	id = duel_id(db, 1);
	load_duel(db, id, FROM_SNAPSHOT, &d, l);
	gm = journal_gm(db, &fbledger_kind, id);
	db_commit(db);
	l->s.b = &l->b;
	if (o.fmt == OUT_JSON)
		status_json(id, gm, l);
	else
		status_text(id, gm, l);
	free(gm);
	fbledger_duel_release(&d);
	free(l);
	db_close(db);
	return 0;
}

static int
cmd_log(void)
{
	struct fbledger_duel d;
	struct fbledger_live *l = xcalloc(1, sizeof *l);
	struct db *db;

	db = cli_db_open(o.db);
	db_begin_read(db);
	load_duel(db, duel_id(db, 1), EVERY_EVENT, &d, l);
	db_commit(db);
	journal_event_print(&d.j, o.fmt == OUT_JSON, "round", 'r', 8);
	fbledger_duel_release(&d);
	free(l);
	db_close(db);
	return 0;
}

/* list: the duels not over, each with its GM, round and last event. */
static int
cmd_list(void)
{
	if (o.nargs > 1)
		cli_usage_error("list takes no arguments");
	journal_list_path(o.db, &fbledger_kind, o.fmt, "round");
	return 0;
}

/* The live board (term/watch.h): the duel, drawn again as it changes. */
static int
cmd_watch(void)
{
	struct watch_log w;
	struct db *db;
	int rc;

	if (o.nargs > 2)
		cli_usage_error("watch takes at most one DUEL");
	if (o.nargs == 2)
		o.duel = cli_key_arg("DUEL", o.args[1]);
	if (o.fmt != OUT_TABLE)
		cli_usage_error("watch draws the boards, not JSON or CSV");
	w.typed = o.duel;
	w.board = &fbwatch_board;
	w.gm = cli_gm(o.gm);
	db = cli_db_open(o.db);
	rc = watch_run(db, watch_log_draw, &w);
	db_close(db);
	return rc;
}

/* One row of "history". */
static void
history_row(void *arg, const struct journal_summary *s)
{
	int *n = arg;

	if (o.fmt == OUT_JSON) {
		printf("%s{\"duel\":%s,\"a\":\"%s\",\"b\":\"%s\","
		    "\"board\":\"%s\",\"rounds\":%d,\"ended\":",
		    *n ? "," : "", cli_key_json(s->id), s->a, s->b, s->board,
		    s->count);
		cli_json_or_null(stdout, s->ended);
		printf(",\"winner\":");
		cli_json_or_null(stdout, s->winner);
		putchar('}');
	} else if (o.fmt == OUT_CSV)
		printf("%s,%s,%s,%s,%d,%s,%s\n", cli_key(s->id), s->a,
		    s->b, s->board, s->count, s->ended ? s->ended : "",
		    s->winner ? s->winner : "");
	else
		printf("%-5s %-16s %-16s %-8s %6d  %-10s %s\n",
		    cli_key(s->id), s->a, s->b, s->board, s->count,
		    s->ended ? s->ended : "-", s->winner ? s->winner :
		    s->ended ? "draw" : "-");
	(*n)++;
}

static int
cmd_history(void)
{
	struct db *db;
	int n = 0;

	db = cli_db_open(o.db);
	db_begin_read(db);
	if (o.fmt == OUT_JSON)
		putchar('[');
	else if (o.fmt == OUT_CSV)
		puts("duel,a,b,board,rounds,ended,winner");
	else
		printf("%-5s %-16s %-16s %-8s %6s  %-10s %s\n", "DUEL", "A",
		    "B", "BOARD", "ROUNDS", "ENDED", "WINNER");
	fbledger_duel_each(db, o.nargs > 1 ? o.args[1] : NULL, history_row,
	    &n);
	db_commit(db);
	if (o.fmt == OUT_JSON)
		puts("]");
	db_close(db);
	return 0;
}

static int
cmd_undo(void)
{
	struct fbledger_duel d;
	struct fbledger_live *l = xcalloc(1, sizeof *l);
	const struct journal_event *t;
	struct db *db;
	ptrdiff_t i;
	int64_t id, target;

	db = cli_db_open(o.db);
	db_begin_append(db);
	/* An undo may take back the event that ended the duel. */
	id = duel_id(db, 1);
	/* From a snapshot before the event taken back, which it needs. */
	target = fbledger_undo_target(db, id);
	load_duel(db, id, target > 0 ? target : 1, &d, l);
	i = journal_undoable(&d.j);
	/* The start is the duel itself: "undo" never takes it back. */
	if (i < 0 || strcmp((t = journal_body(&d.j, (size_t)i))->action,
	    "start") == 0)
		db_die(db, "nothing to undo");
	fbledger_undo(db, &d, (size_t)i, db_now(), cli_gm(o.gm));
	/* --dry-run: the same undo, rolled back; only said. */
	if (o.dry_run)
		db_rollback(db);
	else
		db_commit(db);
	printf("%s event %lld (%s, round %d)\n", o.dry_run ? "undo would "
	    "reverse" : "undid", (long long)t->seq, t->action, t->round);
	fbledger_duel_release(&d);
	free(l);
	db_close(db);
	return 0;
}

/* Says what a replay found wrong with one event of duel *arg. */
static void
replay_bad(void *arg, int64_t seq, const char *what)
{
	printf("duel %s event %lld: %s\n", cli_key(*(int64_t *)arg),
	    (long long)seq, what);
}

static int
cmd_replay(void)
{
	struct db *db;
	int64_t *ids, one[1] = { 0 };
	size_t n = 0;
	int bad = 0, events = 0, m;

	if (o.nargs > 2)
		cli_usage_error("replay takes at most one DUEL");
	if (o.nargs == 2)
		o.duel = cli_key_arg("DUEL", o.args[1]);
	db = cli_db_open(o.db);
	db_begin_read(db);
	if (o.duel)
		one[0] = db_key_parse(db, o.duel);
	if (one[0] != 0) {
		ids = one;
		n = 1;
	} else
		ids = fbledger_duel_ids(db, &n);
	for (size_t k = 0; k < n; k++) {
		if ((m = fbledger_audit(db, ids[k], replay_bad, &ids[k],
		    &events)) < 0)
			db_die(db, "no duel %s", cli_key(ids[k]));
		bad += m;
	}
	db_rollback(db);
	db_close(db);
	if (ids != one)
		free(ids);
	return cli_replayed(stdout, events, n, "duel", bad);
}

/* ---- sim ---- */

/* The Wilson score interval at 95% for k of n. */
static void
wilson(long k, long n, double *lo, double *hi)
{
	double z = 1.959963984540054, p = (double)k / (double)n;
	double d = 1 + z * z / (double)n;
	double c = p + z * z / (2 * (double)n);
	double h = z * sqrt(p * (1 - p) / (double)n + z * z /
	    (4 * (double)n * (double)n));

	*lo = (c - h) / d;
	*hi = (c + h) / d;
}

/* A sim: how it was run, and what its duels came to. */
struct sim_tally {
	uint64_t	   seed;
	int		   maxr;	/* the round limit */
	int		   jobs;
	struct fbsim_tally d;
	int		   median, p90;	/* rounds */
};

/* The median and the 90th percentile of the rounds, from the histogram. */
static void
sim_percentiles(struct sim_tally *t)
{
	long acc = 0;

	for (int r = 0; r <= FBSIM_HIST; r++) {
		if (acc < (o.n + 1) / 2 && acc + t->d.hist[r] >= (o.n + 1) / 2)
			t->median = r;
		if (acc < o.n - o.n / 10 && acc + t->d.hist[r] >= o.n -
		    o.n / 10)
			t->p90 = r;
		acc += t->d.hist[r];
	}
}

static void
sim_json(const struct sim_tally *t, const char *an, const char *bn)
{
	printf("{\"a\":\"%s\",\"b\":\"%s\",\"n\":%ld,\"seed\":\"%llu\",",
	    an, bn, o.n, (unsigned long long)t->seed);
	/* One job prints what a sim printed before there were jobs. */
	if (t->jobs > 1)
		printf("\"jobs\":%d,", t->jobs);
	printf("\"max_rounds\":%d,\"results\":[", t->maxr);
	for (int k = 0; k < 3; k++) {
		long w = t->d.wins[k == 2 ? 0 : k + 1];
		double lo, hi;

		wilson(w, o.n, &lo, &hi);
		printf("%s{\"who\":", k ? "," : "");
		cli_json_or_null(stdout, k == 0 ? an : k == 1 ? bn : NULL);
		printf(",\"wins\":%ld,\"rate\":%.6f,\"ci95\":[%.6f,%.6f]}", w,
		    (double)w / (double)o.n, lo, hi);
	}
	printf("],\"rounds\":{\"mean\":%.4f,\"median\":%d,\"p90\":%d,"
	    "\"histogram\":{", (double)t->d.total / (double)o.n, t->median,
	    t->p90);
	for (int r = 0, k = 0; r <= FBSIM_HIST; r++)
		if (t->d.hist[r])
			printf("%s\"%d\":%ld", k++ ? "," : "", r, t->d.hist[r]);
	printf("}},\"ended\":{");
	for (int e = FB_E_MAIMED, k = 0; e <= FB_E_LIMIT; e++)
		printf("%s\"%s\":%ld", k++ ? "," : "", fb_end_name(e),
		    t->d.ends[e]);
	printf("}}\n");
}

/* Bars of the duels by rounds, up to 40 rounds, the rest in one line. */
static void
sim_histogram(const long *hist)
{
	long mx = 0;
	int top = 0;

	for (int r = 0; r <= FBSIM_HIST; r++) {
		if (hist[r] > mx)
			mx = hist[r];
		if (hist[r])
			top = r;
	}
	for (int r = 1; r <= top && r <= 40; r++)
		if (hist[r]) {
			printf("%6d %8ld ", r, hist[r]);
			cli_bar((long double)hist[r], (long double)mx);
			putchar('\n');
		}
	if (top > 40) {
		long rest = 0;

		for (int r = 41; r <= FBSIM_HIST; r++)
			rest += hist[r];
		printf("%6s %8ld\n", ">40", rest);
	}
}

static void
sim_text(const struct sim_tally *t, const char *an, const char *bn)
{
	printf("%ld duels, %s against %s, seed %llu", o.n, an, bn,
	    (unsigned long long)t->seed);
	if (t->jobs > 1)
		printf(", %d jobs", t->jobs);
	fputs("\n\n", stdout);
	printf("%-16s %10s %8s  %s\n", "", "WINS", "RATE", "95% INTERVAL");
	for (int k = 0; k < 3; k++) {
		long w = t->d.wins[k == 2 ? 0 : k + 1];
		double lo, hi;

		wilson(w, o.n, &lo, &hi);
		printf("%-16s %10ld %7.2f%%  %.2f%% - %.2f%%\n",
		    k == 0 ? an : k == 1 ? bn : "draw", w,
		    100.0 * (double)w / (double)o.n, 100 * lo, 100 * hi);
	}
	printf("\nrounds: mean %.2f, median %d, 90%% within %d\n",
	    (double)t->d.total / (double)o.n, t->median, t->p90);
	sim_histogram(t->d.hist);
	printf("\nended by:");
	for (int e = FB_E_MAIMED; e <= FB_E_LIMIT; e++)
		printf(" %s %ld%s", fb_end_name(e), t->d.ends[e],
		    e < FB_E_LIMIT ? "," : "\n");
}

/* The online cores, the jobs of a sim by default. */
static int
online_cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > FBSIM_MAXJOBS ? FBSIM_MAXJOBS : (int)n;
}

static int
cmd_sim(void)
{
	struct fbledger_duelist a, b;
	struct fb_board ba, bb;
	struct fb_state s0;
	struct db *db;
	struct sim_tally t;
	long bad;

	memset(&t, 0, sizeof t);
	need(3, "sim: two duelists, A B");
	if (o.n == 0)
		cli_usage_error("sim needs --n N, the number of duels to "
		    "play");
	t.seed = seed_of();
	t.maxr = o.max_rounds ? (int)o.max_rounds : FBSIM_HIST;
	if (t.maxr > FBSIM_HIST)
		t.maxr = FBSIM_HIST;
	t.jobs = o.jobs ? o.jobs : online_cores();
	db = cli_db_open(o.db);
	db_begin_read(db);
	load_duelist(db, o.args[1], &a, &ba);
	load_duelist(db, o.args[2], &b, &bb);
	if (strcmp(ba.name, bb.name) != 0)
		db_die(db, "'%s' and '%s' play on different boards", a.name,
		    b.name);
	db_commit(db);
	db_close(db);
	fb_start(&s0, &ba, &a.sh, &b.sh);	/* every duel starts so */
	if ((bad = fbsim_run(&s0, t.seed, o.n, t.jobs, t.maxr, &t.d)) != 0)
		errx(1, "duel %ld: the strategy asked for what the rules "
		    "refuse", bad);
	sim_percentiles(&t);
	if (o.fmt == OUT_JSON)
		sim_json(&t, a.name, b.name);
	else
		sim_text(&t, a.name, b.name);
	fbledger_duelist_release(&a);
	fbledger_duelist_release(&b);
	return 0;
}

static int fb_duel(int argc, char **argv);

/*
 * The short forms (term/play.h), which play and the one-shot command
 * both take: "i 5,2" is "init --init 5,2".
 */
static const struct play_alias aliases[] = {
	{ "i", "init", 0, { "--init" }, 0, "i 5,2" },
	{ "t", "target", 0, { "--choose" }, 0, "t torso" },
	{ "r", "round", 0, { NULL }, 0,
	    "r --init 5,2 --choose torso --hit 2,2 --block 4,4" },
	{ "s", "status", 0, { NULL }, 0, "s" },
	{ "u", "undo", 0, { NULL }, 0, "u" },
	{ "l", "log", 0, { NULL }, 0, "l" },
	{ NULL, NULL, 0, { NULL }, 0, NULL }
};


/*
 * play [DUEL]: commands at a prompt, each run as its one-shot form; the
 * session keeps to one duel: the one named, else its GM's not over, else
 * the one it starts.
 */
static int
cmd_play(void)
{
	static const char *const board[] = { "status", NULL };
	static const struct play_game session = { "fb-duel", fb_duel, aliases,
	    board, "--duel", "start", &fbledger_kind };
	struct play_tool t;

	if (o.nargs > 2)
		cli_usage_error("play takes at most one DUEL");
	if (o.nargs == 2)
		o.duel = cli_key_arg("DUEL", o.args[1]);
	play_tool_game(&t, &session, o.db, o.gm, o.duel);
	return play_run(&t);
}

/* init, target (the event "aim") and round: a round's steps. */
static int
cmd_step(void)
{
	static struct fb_in in;
	const char *cmd = o.args[0];

	fb_in_init(&in);
	if (o.nargs > 1)
		cli_usage_error("%s: unexpected '%s'", cmd, q(o.args[1]));
	return play(strcmp(cmd, "target") == 0 ? "aim" : cmd, &in, NULL,
	    NULL);
}

/* The commands, in the order an unknown one's suggestion weighs them. */
static const struct command {
	const char	*name;
	int		(*run)(void);
} commands[] = {
	{ "sheet", cmd_sheet },
	{ "board", cmd_board },
	{ "start", cmd_start },
	{ "stance", cmd_stance },
	{ "init", cmd_step },
	{ "target", cmd_step },
	{ "round", cmd_step },
	{ "geas", cmd_geas },
	{ "restance", cmd_restance },
	{ "adjust", cmd_adjust },
	{ "status", cmd_status },
	{ "list", cmd_list },
	{ "log", cmd_log },
	{ "watch", cmd_watch },
	{ "history", cmd_history },
	{ "undo", cmd_undo },
	{ "replay", cmd_replay },
	{ "sim", cmd_sim },
	{ "play", cmd_play },
	{ "sheets", cmd_sheets },
	{ "verify-sheet", cmd_verify_sheet },
};

int
main(int argc, char **argv)
{
	return fb_duel(argc, argv);
}

/* One command line, as main() runs it: play runs each of its lines so. */
static int
fb_duel(int argc, char **argv)
{
	static char **words;
	const char *cmd, *bad, *cmds;
	size_t c;

	cli_init(argc, argv);
	complete_answer(argc, argv, &fbcomplete_duel, NULL);
	/* The words play takes are the command line's too. */
	free(words);
	argv = words = play_command_line_lists(aliases, "o:",
	    fbcomplete_duel.opts, argc, argv, &argc);
	parse_args(argc, argv);
	if (o.nargs == 0)
		cli_usage_error("no command given (sheet, board, start, "
		    "stance, init, target, round, geas, restance, adjust, "
		    "status, "
		    "list, log, watch, undo, replay, history, sim, play, sheets or "
		    "verify-sheet)");
	cmd = o.args[0];
	c = cli_command(cmd, commands, sizeof commands[0],
	    sizeof commands / sizeof commands[0]);
	/*
	 * An option goes with the commands its table says (fb/complete.c),
	 * once the command is known to be one.
	 */
	bad = complete_misplaced(fbcomplete_duel.takes, cmd, o.seen,
	    (size_t)o.nseen, &cmds);
	if (bad != NULL && strcmp(cmds, "sheets") == 0)
		cli_usage_error("-o, --all, --paper and --per-page go with "
		    "sheets only");
	if (bad != NULL && strcmp(cmds, "adjust") == 0)
		cli_usage_error("--%s goes with adjust only", bad);
	if (bad != NULL)
		cli_usage_error("'--%s' is not an option of '%s'", bad, q(cmd));
	return commands[c].run();
}
