/*
 * bg-board - referee a game of Battle Grounds.  A thin main over bg.c
 * (the rules), bg/text.c (the text forms) and bg/ledger.c (the database).
 * See bg-board(1).
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bg/complete.h"
#include "bg/text.h"
#include "bg/ledger.h"
#include "bg/watch.h"
#include "core/cli.h"
#include "db/db.h"
#include "term/play.h"
#include "base/fit.h"
#include "base/rng.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "core/ruling.h"

#define q util_q

static const char usage[] =
"usage: bg-board [--db FILE] [--game N] [--gm NAME] COMMAND ...\n"
"  team add TEAM [SPEC ...] [--file FILE]   (SPEC: NAME:LEVEL[*]:R,O,Y,G,B,P"
"[:POWERS])\n"
"  team show TEAM [--json]   team list [--json|--csv]   team rm TEAM\n"
"  stat [COLOUR NAME]\n"
"  new [--advanced] [--safe-attack] TEAM1 TEAM2\n"
"  place FIGURE SQUARE\n"
"  moves FIGURE [--json]\n"
"  move FIGURE SQUARE [--roll D,.. --vs-roll D,..] [--stat C]\n"
"       [--stat-roll A,D] [--att-stat C --def-stat C] [--return SQUARE]\n"
"       [--release FIGURE] [--release-to SQUARE] [--seed S]\n"
"  power FIGURE hypnotize FOE SQUARE | power FIGURE swap|teleport SQUARE\n"
"  die TEAM N [--swap M]     pass\n"
"  adjust TEAM DICE=+N|-N|N --reason TEXT   a GM's ruling\n"
"  show [--plain] [--json]   log [--json]   games [--json|--csv]\n"
"  list [--json|--csv]       the games not over: GM, turn, last event\n"
"  undo [--dry-run]   replay [GAME]   watch [GAME]\n"
"  play [GAME]   commands at a prompt (m FIGURE SQUARE, s: show, u: undo)\n"
"Without --game, the game this GM (--gm, REFKIT_GM, else the login name)\n"
"last made or acted in that is not over is used.\n";

struct opts {
	const char	*db, *file;
	enum out_format	 fmt;
	const char	*game;		/* as typed: "3", "89abcdef-3" */
	const char	*gm;		/* --gm */
	int		 have_seed, advanced, safe_attack, plain, dry_run;
	uint64_t	 seed;
	const char	*swap;
	const char	*reason;	/* adjust: the GM's ruling, why */
	int		 nmv;
	const char	*mvopt[16], *mvval[16];
	/* The long options on the line, as typed, for bgcomplete_board.takes. */
	int		 nseen;
	const char	*seen[64];
	int		 nargs;
	char		**args;
};

static struct opts o;

static char why[BG_WHYSZ];
static char *held;	/* the command's input text, reachable until exit */

/* Holds p (the input being built) where an error exit still sees it. */
static char *
hold(char *p)
{
	held = p;
	return p;
}

enum {
	OPT_DB = 256, OPT_GAME, OPT_SEED, OPT_FILE, OPT_ADVANCED, OPT_SAFE,
	OPT_PLAIN, OPT_SWAP, OPT_MOVE, OPT_DRY_RUN, OPT_GM, OPT_REASON
};

static const struct option longopts[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "game", required_argument, NULL, OPT_GAME },
	{ "gm", required_argument, NULL, OPT_GM },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "file", required_argument, NULL, OPT_FILE },
	{ "advanced", no_argument, NULL, OPT_ADVANCED },
	{ "safe-attack", no_argument, NULL, OPT_SAFE },
	{ "plain", no_argument, NULL, OPT_PLAIN },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "swap", required_argument, NULL, OPT_SWAP },
	{ "reason", required_argument, NULL, OPT_REASON },
	{ "roll", required_argument, NULL, OPT_MOVE },
	{ "vs-roll", required_argument, NULL, OPT_MOVE },
	{ "stat", required_argument, NULL, OPT_MOVE },
	{ "att-stat", required_argument, NULL, OPT_MOVE },
	{ "def-stat", required_argument, NULL, OPT_MOVE },
	{ "stat-roll", required_argument, NULL, OPT_MOVE },
	{ "release", required_argument, NULL, OPT_MOVE },
	{ "release-to", required_argument, NULL, OPT_MOVE },
	{ "return", required_argument, NULL, OPT_MOVE },
	{ "json", no_argument, NULL, 'j' },
	{ "csv", no_argument, NULL, 'c' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/*
 * The short forms (term/play.h), which play and the one-shot command
 * both take: "m Rogue a3" is "move Rogue a3".
 */
static const struct play_alias aliases[] = {
	{ "m", "move", 2, { NULL }, 0, "m Thor c3" },
	{ "s", "show", 0, { NULL }, 0, "s" },
	{ "u", "undo", 0, { NULL }, 0, "u" },
	{ "p", "pass", 0, { NULL }, 0, "p" },
	{ "l", "log", 0, { NULL }, 0, "l" },
	{ NULL, NULL, 0, { NULL }, 0, NULL }
};

static void
parse_args(int argc, char **argv)
{
	int ch, idx;

	static char **words;

	complete_answer(argc, argv, &bgcomplete_board, longopts);
	/* The words play takes are the command line's too. */
	free(words);
	argv = words = play_command_line(aliases, ":jchV", longopts, argc,
	    argv, &argc);
	memset(&o, 0, sizeof o);	/* main() may run more than once (fuzzing) */
	o.fmt = OUT_TABLE;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":jchV", longopts, &idx)) != -1) {
		switch (ch) {
		case OPT_DB:
			o.db = optarg;
			break;
		case OPT_GAME:
			o.game = cli_key_arg("--game", optarg);
			break;
		case OPT_GM:
			o.gm = optarg;
			break;
		case OPT_SEED:
			o.seed = cli_seed_arg(optarg);
			o.have_seed = 1;
			break;
		case OPT_FILE:
			o.file = optarg;
			break;
		case OPT_ADVANCED:
			o.advanced = 1;
			break;
		case OPT_SAFE:
			o.safe_attack = 1;
			break;
		case OPT_PLAIN:
			o.plain = 1;
			break;
		case OPT_DRY_RUN:
			o.dry_run = 1;
			break;
		case OPT_SWAP:
			o.swap = optarg;
			break;
		case OPT_REASON:
			o.reason = optarg;
			break;
		case OPT_MOVE:
			if (strpbrk(optarg, " \t\n") != NULL || *optarg == '\0')
				cli_usage_error("'--%s' takes one word",
				    longopts[idx].name);
			if (o.nmv == 16)
				cli_usage_error("too many move options");
			o.mvopt[o.nmv] = longopts[idx].name;
			o.mvval[o.nmv++] = optarg;
			break;
		case 'V':
			puts("bg-board (refkit) " REFKIT_VERSION);
			exit(0);
		default:
			if (!cli_common_option(ch, argv, usage, longopts, &o.fmt))
				cli_usage_error("unexpected option");
			break;
		}
		if (ch >= OPT_DB) {
			if (o.nseen == 64)
				cli_usage_error("too many options");
			o.seen[o.nseen++] = longopts[idx].name;
		}
	}
	o.args = argv + optind;
	o.nargs = argc - optind;
}

static void
need_args(int min, int max, const char *what)
{
	if (o.nargs < min || o.nargs > max)
		cli_usage_error("usage: bg-board %s", what);
}

/* ---- teams ---- */

static struct bg_team teams[2];

struct bad {
	const char	*team;
	int		 n;
};

static void
bad_line(void *arg, const char *m)
{
	struct bad *b = arg;

	warnx("team '%s': %s", b->team, m);
	b->n++;
}

static char *
slurp(const char *path)
{
	FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (fp == NULL)
		err(1, "%s", path);
	do {
		if (cap - len < 4096) {
			cap = cap ? 2 * cap : 8192;
			if (cap > (1u << 20))
				errx(1, "%s: a team file is at most 1 MB",
				    q(path));
			buf = xrealloc(buf, cap);
		}
		n = fread(buf + len, 1, cap - len - 1, fp);
		len += n;
	} while (n > 0);
	if (ferror(fp))
		err(1, "%s", path);
	if (fp != stdin)
		fclose(fp);
	buf[len] = '\0';
	if (strlen(buf) != len) {
		free(buf);
		errx(1, "%s: a NUL byte in a text file", q(path));
	}
	return buf;
}

static void
print_figure_row(const struct bg_figure *f)
{
	char *pw = bgtext_powers(f->powers, ",");

	printf("%-20s %-4s%s", f->name, bg_level_name(f->level),
	    f->cosmic ? "*" : " ");
	for (int c = 0; c < BG_NSTAT; c++)
		printf(" %4d", f->stat[c]);
	printf("  %s\n", pw[0] ? pw : "-");
	free(pw);
}

static void
json_team(const struct bg_team *t)
{
	int lineup = bg_team_lineup(t);

	printf("{\"team\":\"%s\",\"lineup\":", t->name);
	cli_json_or_null(stdout, lineup < 0 ? NULL : lineup ? "advanced" :
	    "basic");
	printf(",\"figures\":[");
	for (int i = 0; i < t->n; i++) {
		const struct bg_figure *f = &t->f[i];

		printf("%s{\"name\":\"%s\",\"level\":\"%s\",\"cosmic\":%s",
		    i ? "," : "", f->name, bg_level_name(f->level),
		    f->cosmic ? "true" : "false");
		for (int c = 0; c < BG_NSTAT; c++)
			printf(",\"%s\":%d", bg_colour_name(c), f->stat[c]);
		printf(",\"powers\":[");
		for (int p = 0, n = 0; p < BG_NPOWER; p++)
			if (f->powers >> p & 1u)
				printf("%s\"%s\"", n++ ? "," : "",
				    bg_power_name(p));
		printf("]}");
	}
	printf("]}");
}

static void
list_one(void *arg, const struct bg_team *t)
{
	int *n = arg, lineup = bg_team_lineup(t);
	const char *fits = lineup < 0 ? "-" : lineup ? "advanced" : "basic";

	if (o.fmt == OUT_JSON) {
		if ((*n)++)
			putchar(',');
		json_team(t);
	} else if (o.fmt == OUT_CSV)
		printf("%s,%d,%s\n", t->name, t->n, fits);
	else
		printf("%-20s %7d  %s\n", t->name, t->n, fits);
}

/* team add TEAM [SPEC ...] [--file FILE] */
static void
team_add(struct bg_team *t)
{
	struct db *db;
	struct bad b = { NULL, 0 };
	char *text;

	if (o.nargs < 3)
		cli_usage_error("usage: bg-board team add TEAM [SPEC "
		    "...] [--file FILE]");
	if (!bg_name_ok(o.args[2]))
		errx(1, "team name '%s': one word of up to %d letters, "
		    "digits, '-', '_' or '.'", q(o.args[2]),
		    BG_NAMESZ - 1);
	snprintf(t->name, sizeof t->name, "%s", o.args[2]);
	for (int i = 3; i < o.nargs; i++) {
		if (t->n == BG_MAXFIG)
			errx(1, "team '%s': at most %d figures",
			    t->name, BG_MAXFIG);
		if (bgtext_figure_parse(o.args[i], &t->f[t->n], why,
		    sizeof why) < 0)
			errx(1, "%s", why);
		t->n++;
	}
	if (o.file != NULL) {
		text = hold(slurp(o.file));
		if (bgtext_team_parse(text, t, why, sizeof why) < 0)
			errx(1, "%s: %s", q(o.file), why);
		free(text);
	}
	if (bg_team_lineup(t) < 0) {
		b.team = t->name;
		bg_team_check(t, t->n > 12, bad_line, &b);
		errx(1, "team '%s' not added: it fits neither the basic "
		    "nor the advanced line-up", t->name);
	}
	db = cli_db_open(o.db);
	db_begin(db);
	if (bgledger_team_add(db, t) < 0)
		db_die(db, "team '%s' already exists", t->name);
	db_commit(db);
	db_close(db);
	printf("added team %s: %d figures, the %s line-up\n", t->name,
	    t->n, bg_team_lineup(t) ? "advanced" : "basic");
}

/*
 * Loads into t the team that typed names (bgledger_team_name: exactly,
 * but for case, or by a unique beginning of the name or of one of its
 * words); exits 1 with the candidates or the nearest names.
 */
static void
load_team(struct db *db, const char *typed, struct bg_team *t)
{
	char name[BG_NAMESZ];

	if (bgledger_team_name(db, typed, name, why, sizeof why) < 0)
		db_die(db, "%s", why);
	if (bgledger_team_load(db, name, t) < 0)
		db_die(db, "no team '%s'", q(typed));
}

/* team show TEAM */
static void
team_show(struct bg_team *t)
{
	struct db *db;
	char names[BG_NSTAT][48];

	need_args(3, 3, "team show TEAM");
	db = cli_db_open(o.db);
	db_begin_read(db);
	load_team(db, o.args[2], t);
	bgledger_stat_names(db, names);
	db_commit(db);
	db_close(db);
	if (o.fmt == OUT_JSON) {
		json_team(t);
		putchar('\n');
	} else {
		int lineup = bg_team_lineup(t);

		printf("team %s: %d figures, %s\n", t->name, t->n,
		    lineup < 0 ? "fits no line-up" : lineup ?
		    "the advanced line-up" : "the basic line-up");
		printf("%-20s %-5s %4s %4s %4s %4s %4s %4s  %s\n",
		    "FIGURE", "LEVEL", "RED", "ORNG", "YELL", "GRN",
		    "BLUE", "PURP", "POWERS");
		for (int i = 0; i < t->n; i++)
			print_figure_row(&t->f[i]);
		printf("stats:");
		for (int c = 0; c < BG_NSTAT; c++)
			printf(" %s=%s", bg_colour_name(c), names[c]);
		printf("\n");
	}
}

/* team list */
static void
team_list(void)
{
	struct db *db;
	int n = 0;

	need_args(2, 2, "team list");
	db = cli_db_open(o.db);
	db_begin_read(db);
	if (o.fmt == OUT_JSON)
		putchar('[');
	else if (o.fmt == OUT_CSV)
		puts("team,figures,lineup");
	else
		printf("%-20s %7s  %s\n", "TEAM", "FIGURES", "LINE-UP");
	bgledger_team_each(db, list_one, &n);
	if (o.fmt == OUT_JSON)
		puts("]");
	db_commit(db);
	db_close(db);
}

/* team rm TEAM: its games keep their own copy */
static void
team_rm(void)
{
	struct db *db;
	char name[BG_NAMESZ];
	int used;

	need_args(3, 3, "team rm TEAM");
	db = cli_db_open(o.db);
	db_begin(db);
	if (bgledger_team_name(db, o.args[2], name, why, sizeof why) < 0)
		db_die(db, "%s", why);
	used = bgledger_team_games(db, name);
	if (bgledger_team_rm(db, name) < 0)
		db_die(db, "no team '%s'", q(o.args[2]));
	db_commit(db);
	db_close(db);
	printf("removed team %s%s\n", name, used ? " (its games "
	    "keep their own copy)" : "");
}

static int
cmd_team(void)
{
	const char *sub = o.nargs > 1 ? o.args[1] : "";
	struct bg_team *t = &teams[0];

	if (strcmp(sub, "add") == 0)
		team_add(t);
	else if (strcmp(sub, "show") == 0)
		team_show(t);
	else if (strcmp(sub, "list") == 0)
		team_list();
	else if (strcmp(sub, "rm") == 0)
		team_rm();
	else
		cli_usage_error("team: add, show, list or rm");
	return 0;
}

static int
cmd_stat(void)
{
	char names[BG_NSTAT][48];
	struct db *db;

	if (o.nargs != 1 && o.nargs != 3)
		cli_usage_error("usage: bg-board stat [COLOUR NAME]");
	db = cli_db_open(o.db);
	if (o.nargs == 3) {
		int c = bg_colour_find(o.args[1]);

		if (c < 0)
			errx(1, "'%s' is not a stat colour (red, orange, "
			    "yellow, green, blue, purple)", q(o.args[1]));
		if (c == BG_RED)
			errx(1, "red is Fighting Skills by the rules");
		if (util_check_text(o.args[2], UTIL_TEXT_LINE, 40, why,
		    sizeof why) < 0 || o.args[2][0] == '\0')
			errx(1, "stat name: %s", why[0] ? why : "empty");
		db_begin(db);
		bgledger_stat_set(db, c, o.args[2]);
		db_commit(db);
	}
	db_begin_read(db);
	bgledger_stat_names(db, names);
	db_commit(db);
	db_close(db);
	for (int c = 0; c < BG_NSTAT; c++)
		printf("%-7s %s\n", bg_colour_name(c), names[c]);
	return 0;
}

/* ---- games ---- */

struct live {
	struct bgledger_game	d;
	struct bg_game	g;
	char		stat[BG_NSTAT][48];
};

/*
 * One command runs per process, so its large structures are static:
 * nothing to free on the paths that exit with an error.
 */
static struct live live;
static struct bg_game game;



/*
 * The game a command works on: --game, or the one this GM made or acted
 * in last that is not over (reading: else the one he acted in last).
 * Every refusal after it names the game.
 */
static int64_t
game_id(struct db *db, int reading)
{
	return journal_log_id(db, &bgledger_kind, o.game, o.gm, reading);
}

/* How load_from loads: from the newest snapshot, or every event. */
#define FROM_SNAPSHOT	0
#define EVERY_EVENT	(-1)

/*
 * Loads and derives game id: from is FROM_SNAPSHOT, EVERY_EVENT, or a
 * seq to load from a snapshot before.  A game that no longer replays
 * stops.
 */
static void
load_from(struct db *db, int64_t id, int64_t from, struct live *l)
{
	int64_t bad = 0;
	int rc;

	if (from == EVERY_EVENT)
		rc = bgledger_game_load(db, id, &l->d);
	else
		rc = bgledger_game_load_recent(db, id, from, &l->d);
	if (rc < 0)
		db_die(db, "no game %s", cli_key(id));
	db_subject(db, "game", cli_key(id));
	if (bgledger_derive(&l->d, &l->g, &bad, why, sizeof why) < 0)
		db_die(db, "event %lld does not replay: %s", (long long)bad,
		    why);
	bgledger_stat_names(db, l->stat);
}

/* Loads and derives the game from its newest snapshot. */
static int64_t
load_game(struct db *db, struct live *l, int reading)
{
	int64_t id = game_id(db, reading);

	load_from(db, id, FROM_SNAPSHOT, l);
	return id;
}

static const char *
fig(const struct bg_game *g, int piece)
{
	return bg_fig(g, piece)->name;
}

static const char *
sqname(const struct bg_game *g, int sq, char buf[4])
{
	bg_square_name(g, sq, buf);
	return buf;
}

/* How a battle's stat was chosen, in brackets, for move_text. */
static void
stat_text(FILE *fp, const struct live *l, const struct bg_report *r)
{
	const struct bg_game *g = &l->g;
	int def = r->foe;

	switch (r->how) {
	case BG_S_SQUARE:
		fprintf(fp, " (the square is %s: %s)",
		    bg_colour_name(r->stat_att), l->stat[r->stat_att]);
		break;
	case BG_S_DEFENDER:
		fprintf(fp, " (an all-colour square: %s picks %s)",
		    fig(g, def), l->stat[r->stat_att]);
		break;
	case BG_S_ROLL:
		fprintf(fp, " (white: roll-off %d-%d, %s picks %s)",
		    r->statroll[0], r->statroll[1], fig(g, r->chooser),
		    l->stat[r->stat_att]);
		break;
	default:
		if (r->statroll[0])
			fprintf(fp, " (white: roll-off %d-%d tied, ",
			    r->statroll[0], r->statroll[1]);
		else
			fprintf(fp, " (both on white, ");
		fprintf(fp, "each picks: %s, %s)", l->stat[r->stat_att],
		    l->stat[r->stat_def]);
		break;
	}
}

/* The sentence of a move, for the terminal and the log. */
static char *
move_text(const struct live *l, const struct bg_game *before,
    const struct bg_report *r)
{
	const struct bg_game *g = &l->g;
	char a[4], b[4];
	struct strbuf t = STRBUF_INIT;
	FILE *fp = strbuf_stream(&t);
	int att = r->piece, def = r->foe;

	if (!r->battle)
		fprintf(fp, "%s moves %s from %s to %s.",
		    before->team[before->turn].name, fig(g, att),
		    sqname(g, r->from, a), sqname(g, r->to, b));
	else {
		fprintf(fp, "%s attacks %s on %s", fig(g, att), fig(g, def),
		    sqname(g, r->to, a));
		stat_text(fp, l, r);
		fprintf(fp, ": %d+%d=%d against %d+%d=%d", r->val_att,
		    r->die_att, r->tot_att, r->val_def, r->die_def, r->tot_def);
		if (r->rolls > 1)
			fprintf(fp, " after %d tied roll%s", r->rolls - 1,
			    r->rolls > 2 ? "s" : "");
		fprintf(fp, ": %s wins.", r->att_won ? fig(g, att) :
		    fig(g, def));
		if (!r->att_won && before->safe_attack)
			fprintf(fp, " %s stays on %s.", fig(g, att),
			    sqname(g, r->from, a));
		else if (r->returned && r->loser_to >= 0)
			fprintf(fp, " %s, hypnotized, goes back to %s on %s.",
			    fig(g, r->loser), g->team[r->loser / BG_MAXFIG].name,
			    sqname(g, r->loser_to, a));
		else
			fprintf(fp, " %s goes to %s's Holding Zone.",
			    fig(g, r->loser),
			    g->team[g->pc[r->loser].held].name);
		if (r->supersense)
			fprintf(fp, " Super Sense: %s may read one of %s's "
			    "Battle Dice.", before->team[before->pc[r->att_won ?
			    att : def].ctrl].name, before->team[before->pc[
			    r->att_won ? def : att].ctrl].name);
		if (r->telepathy)
			fprintf(fp, " Telepathy: %s may move a die to the Dice "
			    "Zone.", before->team[before->pc[r->att_won ?
			    att : def].ctrl].name);
	}
	if (r->released >= 0)
		fprintf(fp, " Reaching the far end frees %s to %s.",
		    fig(g, r->released), sqname(g, r->released_to, a));
	if (g->over)
		fprintf(fp, " %s captures the Cosmic figure: %s wins the game.",
		    g->team[g->winner].name, g->team[g->winner].name);
	for (int p = 0; p < 2; p++)
		if (g->credit[p] > 0 && !g->over)
			fprintf(fp, " %s may move %s to the Dice Zone ('bg-board "
			    "die').", g->team[p].name, g->credit[p] > 1 ?
			    "two dice" : "a die");
	return strbuf_detach(&t, NULL);
}

static char *
json_text(const char *action, const char *input, const char *text)
{
	struct strbuf j = STRBUF_INIT;
	FILE *fp = strbuf_stream(&j);

	fprintf(fp, "{\"action\":\"%s\",\"input\":", action);
	cli_json_or_null(fp, input);
	return cli_json_end(&j, text);
}

static char *
report_json(const struct live *l, const char *action, const char *input,
    const struct bg_report *r, const char *text)
{
	const struct bg_game *g = &l->g;
	char sq[4], name[BG_PIECESZ];
	struct strbuf j = STRBUF_INIT;
	FILE *fp;

	if (strcmp(action, "move") != 0)
		return json_text(action, input, text);
	fp = strbuf_stream(&j);
	bgtext_piece_name(g, r->piece, name, sizeof name);
	fprintf(fp, "{\"action\":\"move\",\"input\":");
	cli_json_or_null(fp, input);
	fprintf(fp, ",\"figure\":\"%s\",\"from\":\"%s\"", name,
	    sqname(g, r->from, sq));
	fprintf(fp, ",\"to\":\"%s\",\"battle\":", sqname(g, r->to, sq));
	if (r->battle) {
		static const char *const hows[] = { "square", "defender",
		    "roll", "own" };

		bgtext_piece_name(g, r->foe, name, sizeof name);
		fprintf(fp, "{\"defender\":\"%s\",\"how\":\"%s\","
		    "\"stat_roll\":[%d,%d],\"attacker_stat\":\"%s\","
		    "\"defender_stat\":\"%s\",\"attacker\":[%d,%d,%d],"
		    "\"defender_dice\":[%d,%d,%d],\"rolls\":%d,"
		    "\"attacker_won\":%s,\"supersense\":%s,\"telepathy\":%s}",
		    name, hows[r->how], r->statroll[0], r->statroll[1],
		    bg_colour_name(r->stat_att), bg_colour_name(r->stat_def),
		    r->val_att, r->die_att, r->tot_att, r->val_def, r->die_def,
		    r->tot_def, r->rolls, r->att_won ? "true" : "false",
		    r->supersense ? "true" : "false",
		    r->telepathy ? "true" : "false");
	} else
		fprintf(fp, "null");
	fprintf(fp, ",\"released\":");
	if (r->released >= 0) {
		bgtext_piece_name(g, r->released, name, sizeof name);
		fprintf(fp, "\"%s\"", name);
	} else
		fprintf(fp, "null");
	fprintf(fp, ",\"ended\":%s,\"winner\":", g->over ? "true" : "false");
	cli_json_or_null(fp, g->over ? g->team[g->winner].name : NULL);
	return cli_json_end(&j, text);
}

/*
 * The sentence of an action, for the terminal and the log: from the game
 * after it (l) and before it, its report r and its input as recorded.
 */
static char *
action_text(const struct live *l, const struct bg_game *before,
    const char *action, const char *canon, const struct bg_report *r)
{
	char a[4];

	if (strcmp(action, "move") == 0)
		return move_text(l, before, r);
	if (strcmp(action, "place") == 0)
		return xasprintf("%s sets %s on %s.",
		    l->g.team[r->piece / BG_MAXFIG].name, fig(&l->g, r->piece),
		    sqname(&l->g, l->g.pc[r->piece].sq, a));
	if (strcmp(action, "power") == 0 && strstr(canon, " hypnotize "))
		return xasprintf("%s uses Hypnotize: %s now fights for %s, "
		    "on %s.", fig(&l->g, r->piece), fig(&l->g, r->foe),
		    before->team[before->turn].name, sqname(&l->g, r->to, a));
	if (strcmp(action, "power") == 0) {
		char b[4];

		return xasprintf("%s uses %s: %s to %s, %s to %s.",
		    fig(&l->g, r->piece), strstr(canon, " teleport ") ?
		    "Teleport" : "Swap Powers", fig(&l->g, r->piece),
		    sqname(&l->g, r->to, a), fig(&l->g, r->foe),
		    sqname(&l->g, r->from, b));
	}
	if (strcmp(action, "die") == 0)
		return xasprintf("%s moves die %s to the Dice Zone.",
		    l->g.team[canon[0] - '1'].name, canon + 2);
	if (strcmp(action, "adjust") == 0)
		return xasprintf("The GM adjusts %s: DICE %d -> %d.",
		    l->g.team[canon[0] - '1'].name,
		    before->credit[canon[0] - '1'],
		    l->g.credit[canon[0] - '1']);
	return xasprintf("%s passes.", before->team[before->turn].name);
}

/* Runs one action on the current game and records it. */
static int
play(const char *action, const char *input)
{
	struct live *l = &live;
	struct bg_game *before = &game;
	struct journal_event e;
	struct bg_report r;
	struct rng rng, fresh;
	struct db *db;
	uint64_t seed = o.have_seed ? o.seed : rng_os_seed();
	char *canon, *text, *detail, seedtext[24];
	int64_t id;
	int sealed;

	db = cli_db_open(o.db);
	db_begin_append(db);
	id = load_game(db, l, 0);
	*before = l->g;
	if (l->g.over)
		db_die(db, "over: %s won",
		    l->g.team[l->g.winner].name);
	/* Under a seal the dice come from it (refkit(7), "Trust"). */
	if ((sealed = bgledger_seal(db, id, &seed)) && o.have_seed)
		db_die(db, "--seed is refused while this station is sealed: "
		    "its draws come from the seal (refkit reveal ends it)");
	rng_seed(&rng, seed);
	fresh = rng;
	if (bgledger_apply(&l->g, action, input, &rng, &r, &canon, why,
	    sizeof why) < 0)
		db_die(db, "%s", why);
	text = action_text(l, before, action, canon, &r);
	detail = report_json(l, action, canon, &r, text);
	snprintf(seedtext, sizeof seedtext, "%llu", (unsigned long long)seed);
	memset(&e, 0, sizeof e);
	e.round = before->moves + 1;
	e.action = (char *)action;
	e.actor = strcmp(action, "die") == 0 ||
	    strcmp(action, "adjust") == 0 ? l->g.team[canon[0] - '1'].name :
	    strcmp(action, "place") == 0 ? l->g.team[r.piece / BG_MAXFIG].name :
	    before->team[before->turn].name;
	e.input = canon;
	e.outcome = r.battle ? (char *)(r.att_won ? "won" : "lost") : NULL;
	e.ended = l->g.over ? "1" : NULL;
	e.winner = l->g.over ? l->g.team[l->g.winner].name : NULL;
	/* The seed matters only if a die came from it. */
	e.seed = !rng_equal(&rng, &fresh) ? seedtext : NULL;
	/* The input as given, which a check of the seal draws from. */
	if (e.seed != NULL && sealed)
		detail = cli_json_add_text(detail, "typed", input);
	/*
	 * A ruling's reason and changes go into the detail; the action
	 * column's CHECK has no "adjust", so it is stored as a die event
	 * (core/journal.h reads it back as adjust).
	 */
	if (strcmp(action, "adjust") == 0) {
		e.action = "die";
		detail = cli_json_add_text(detail, "adjust", strchr(canon, ' ')
		    + 1);
		detail = cli_json_add_text(detail, "ruling", o.reason);
	}
	e.detail = detail;
	e.time = db_now();
	e.gm = (char *)cli_gm(o.gm);
	bgledger_record(db, id, &e, &l->g);
	db_commit(db);
	if (o.fmt == OUT_JSON)
		printf("%s\n", detail);
	else {
		fputs(text, stdout);
		ruling_mark(stdout, strcmp(action, "adjust") == 0 ? o.reason :
		    NULL);
		putchar('\n');
	}
	free(canon);
	free(text);
	free(detail);
	bgledger_game_release(&l->d);
	db_close(db);
	return 0;
}

/* The words of the command line from index from, joined by spaces. */
static char *
join_args(int from)
{
	char *out = xstrdup(""), *next;

	for (int i = from; i < o.nargs; i++) {
		if (strpbrk(o.args[i], " \t\n") != NULL)
			cli_usage_error("'%s': one word each", q(o.args[i]));
		next = xasprintf("%s%s%s", out, i > from ? " " : "",
		    o.args[i]);
		free(out);
		out = next;
	}
	return out;
}

/*
 * An action whose input is the words after its name, from min to max of
 * them with the name (place, power); form is its usage line.
 */
static int
play_words(const char *action, int min, int max, const char *form)
{
	char *input;

	need_args(min, max, form);
	input = hold(join_args(1));
	play(action, input);
	free(input);
	return 0;
}

static int
cmd_place(void)
{
	return play_words("place", 3, 3, "place FIGURE SQUARE");
}

static int
cmd_pass(void)
{
	need_args(1, 1, "pass");
	return play("pass", "");
}

/*
 * adjust TEAM COUNTER=+N ... --reason TEXT: a GM's ruling on a player's
 * counters, an event of its own (bg.c checks the values).
 */
static int
cmd_adjust(void)
{
	char *changes, *input;

	need_args(3, 2 + RULING_CHANGES_MAX, "adjust TEAM DICE=+N|-N|N "
	    "--reason TEXT");
	ruling_reason_arg(o.reason, "adjust");
	if (strpbrk(o.args[1], " \t\n") != NULL)
		cli_usage_error("'%s': one word each", q(o.args[1]));
	changes = hold(ruling_changes_args(o.nargs - 2, o.args + 2,
	    bg_adjust_names));
	input = xasprintf("%s %s", o.args[1], changes);
	free(changes);
	hold(input);
	play("adjust", input);
	free(input);
	held = NULL;
	return 0;
}

static int
cmd_move(void)
{
	char *input, *next;

	need_args(3, 3, "move FIGURE SQUARE [options]");
	input = hold(join_args(1));
	for (int k = 0; k < o.nmv; k++) {
		next = xasprintf("%s --%s %s", input, o.mvopt[k], o.mvval[k]);
		free(input);
		input = hold(next);
	}
	play("move", input);
	free(input);
	return 0;
}

static int
cmd_new(void)
{
	struct bg_team *t = teams;
	struct bg_game *g = &game;
	struct db *db;
	int64_t id;

	need_args(3, 3, "new [--advanced] [--safe-attack] TEAM1 TEAM2");
	if (o.game)
		cli_usage_error("new makes a new game: --game names one to act "
		    "in");
	db = cli_db_open(o.db);
	db_begin(db);
	for (int k = 0; k < 2; k++) {
		struct bad b = { NULL, 0 };

		load_team(db, o.args[1 + k], &t[k]);
		b.team = t[k].name;
		if (bg_team_check(&t[k], o.advanced, bad_line, &b) > 0)
			db_die(db, "team '%s' does not fit the %s line-up",
			    t[k].name, o.advanced ? "advanced" : "basic");
	}
	if (util_streq_ci(t[0].name, t[1].name))
		db_die(db, "a team cannot play itself");
	id = bgledger_game_new(db, &t[0], &t[1], o.advanced, o.safe_attack,
	    cli_gm(o.gm));
	db_commit(db);
	db_close(db);
	bg_start(g, &t[0], &t[1], o.advanced, o.safe_attack);
	printf("game %s: %s against %s on the %s board (%dx%d); %s moves "
	    "first.\n", cli_key(id), t[0].name, t[1].name, o.advanced ?
	    "advanced" : "basic", g->w, g->h, t[0].name);
	return 0;
}

static int
cmd_moves(void)
{
	struct live *l = &live;
	struct db *db;
	bg_set s;
	int piece, n = 0;
	char a[4];

	need_args(2, 2, "moves FIGURE");
	db = cli_db_open(o.db);
	db_begin_read(db);
	load_game(db, l, 1);
	db_commit(db);
	db_close(db);
	if ((piece = bgtext_piece(&l->g, o.args[1], l->g.turn, why,
	    sizeof why)) < 0)
		errx(1, "%s", why);
	if (l->g.pc[piece].sq < 0)
		errx(1, "'%s' is not on the board", fig(&l->g, piece));
	s = bg_moves(&l->g, piece);
	if (o.fmt == OUT_JSON)
		printf("{\"figure\":\"%s\",\"square\":\"%s\",\"moves\":[",
		    fig(&l->g, piece), sqname(&l->g, l->g.pc[piece].sq, a));
	else
		printf("%s (level %s) on %s%s:\n", fig(&l->g, piece),
		    bg_level_name(bg_fig(&l->g, piece)->level),
		    sqname(&l->g, l->g.pc[piece].sq, a),
		    l->g.pc[piece].ctrl == l->g.turn ? "" : " (not on turn)");
	for (int sq = 0; sq < l->g.w * l->g.h; sq++) {
		/* By bg_stat_how; the square's colour is named apart. */
		static const char *const json_how[] = { NULL,
		    "defender's choice", "roll-off", "own choice" };
		static const char *const text_how[] = { NULL,
		    "all-colour square: the defender picks the stat",
		    "white: a roll-off picks the stat",
		    "both on white: each picks her own" };
		int foe = l->g.at[sq], col, how;

		if (!bg_set_has(s, sq))
			continue;
		col = bg_square_colour(&l->g, sq);
		how = foe < 0 ? -1 : bg_stat_how(&l->g, l->g.pc[piece].sq, sq);
		if (o.fmt == OUT_JSON) {
			printf("%s{\"square\":\"%s\",\"attack\":", n ? "," : "",
			    sqname(&l->g, sq, a));
			cli_json_or_null(stdout, foe >= 0 ? fig(&l->g, foe) :
			    NULL);
			printf(",\"stat\":");
			cli_json_or_null(stdout, how < 0 ? NULL :
			    how == BG_S_SQUARE ? bg_colour_name(col) :
			    json_how[how]);
			putchar('}');
		} else if (how < 0)
			printf("  %s\n", sqname(&l->g, sq, a));
		else if (how == BG_S_SQUARE)
			printf("  %s  attack %s (%s: %d against %d)\n",
			    sqname(&l->g, sq, a), fig(&l->g, foe),
			    l->stat[col], bg_fig(&l->g, piece)->stat[col],
			    bg_fig(&l->g, foe)->stat[col]);
		else
			printf("  %s  attack %s (%s)\n", sqname(&l->g, sq, a),
			    fig(&l->g, foe), text_how[how]);
		n++;
	}
	if (o.fmt == OUT_JSON)
		puts("]}");
	else if (n == 0)
		puts("  no legal move");
	bgledger_game_release(&l->d);
	return 0;
}

static int
cmd_power(void)
{
	return play_words("power", 4, 5, "power FIGURE POWER [FOE] SQUARE");
}

static int
cmd_die(void)
{
	char *input, *next;

	need_args(3, 3, "die TEAM N [--swap M]");
	input = hold(join_args(1));
	if (o.swap != NULL) {
		if (strpbrk(o.swap, " \t\n") != NULL)
			cli_usage_error("'--swap' takes one word");
		next = xasprintf("%s --swap %s", input, o.swap);
		free(input);
		input = hold(next);
	}
	play("die", input);
	free(input);
	return 0;
}

/* ---- show, log, games, undo ---- */

static const char *
ansi_bg(int col)
{
	static const char *const code[] = {
		"48;5;196", "48;5;208", "48;5;226", "48;5;40", "48;5;33",
		"48;5;129", "48;5;255", "48;5;250"
	};

	return code[col];
}

/* A square in its colour, bold under a figure; the rest as it is. */
static void
ansi_put(void *arg, int sq, const char *text)
{
	const struct bg_game *g = arg;

	if (sq < 0)
		fputs(text, stdout);
	else
		printf("\033[%s;30m%s%s\033[0m",
		    ansi_bg(bg_square_colour(g, sq)), g->at[sq] >= 0 ?
		    "\033[1m" : "", text);
}

static void
plain_put(void *arg, int sq, const char *text)
{
	(void)arg;
	(void)sq;
	fputs(text, stdout);
}

static void
show_board(const struct live *l, int colour)
{
	bgtext_board(&l->g, colour, cli_columns(), colour ? ansi_put :
	    plain_put, (void *)&l->g);
}

/* text folded to the terminal's width, every word kept. */
static void
show_folded(const char *text)
{
	char *folded = fit_fold(text, cli_columns(), 2);

	fputs(folded, stdout);
	free(folded);
}

static void
show_zones(const struct live *l)
{
	struct strbuf b = STRBUF_INIT;
	char *text;

	bgtext_zones(strbuf_stream(&b), &l->g);
	text = strbuf_detach(&b, NULL);
	show_folded(text);
	free(text);
}

static void
show_json(const struct live *l, int64_t id, const char *gm)
{
	const struct bg_game *g = &l->g;
	char a[4];
	int n = 0;

	printf("{\"game\":%s,\"gm\":", cli_key_json(id));
	cli_json_or_null(stdout, gm);
	printf(",\"advanced\":%s,\"teams\":[\"%s\",\"%s\"],"
	    "\"turn\":%d,\"to_move\":\"%s\",\"over\":%s,\"winner\":",
	    g->advanced ? "true" : "false", g->team[0].name,
	    g->team[1].name, g->moves + 1, g->team[g->turn].name,
	    g->over ? "true" : "false");
	cli_json_or_null(stdout, g->over ? g->team[g->winner].name : NULL);
	printf(",\"dice_zone\":[");
	for (int p = 0; p < 2; p++) {
		printf("%s[", p ? "," : "");
		for (int d = 0, k = 0; d < BG_NDICE; d++)
			if (g->dicezone[p] >> d & 1u)
				printf("%s%d", k++ ? "," : "", d + 1);
		putchar(']');
	}
	printf("],\"pieces\":[");
	for (int i = 0; i < 2 * BG_MAXFIG; i++) {
		if (i % BG_MAXFIG >= g->team[i / BG_MAXFIG].n)
			continue;
		printf("%s{\"team\":\"%s\",\"name\":\"%s\",\"square\":",
		    n++ ? "," : "", g->team[i / BG_MAXFIG].name, fig(g, i));
		cli_json_or_null(stdout, g->pc[i].sq >= 0 ? sqname(g,
		    g->pc[i].sq, a) : NULL);
		printf(",\"held_by\":");
		cli_json_or_null(stdout, g->pc[i].sq < 0 && g->pc[i].held >= 0 ?
		    g->team[g->pc[i].held].name : NULL);
		printf(",\"controller\":\"%s\"}", g->team[g->pc[i].ctrl].name);
	}
	puts("]}");
}

static int
cmd_show(void)
{
	struct live *l = &live;
	struct db *db;
	int64_t id;
	int colour;
	char *gm;

	need_args(1, 1, "show [--plain] [--json]");
	db = cli_db_open(o.db);
	db_begin_read(db);
	id = load_game(db, l, 1);
	gm = journal_gm(db, &bgledger_kind, id);
	db_commit(db);
	db_close(db);
	colour = !o.plain && isatty(STDOUT_FILENO) && getenv("NO_COLOR") ==
	    NULL;
	if (o.fmt == OUT_JSON)
		show_json(l, id, gm);
	else {
		char *title = xasprintf("game %s (GM %s): %s (south, rows "
		    "1-3) against %s (north); the %s board\n", cli_key(id),
		    gm ? q(gm) : "unknown", l->g.team[0].name,
		    l->g.team[1].name, l->g.advanced ? "advanced" : "basic");

		show_folded(title);
		free(title);
		show_board(l, colour);
		if (!colour)
			show_folded(bgtext_legend);
		show_zones(l);
	}
	free(gm);
	bgledger_game_release(&l->d);
	return 0;
}

static int
cmd_log(void)
{
	struct live *l = &live;
	struct db *db;

	need_args(1, 1, "log [--json]");
	db = cli_db_open(o.db);
	db_begin_read(db);
	load_from(db, game_id(db, 1), EVERY_EVENT, l);
	db_commit(db);
	journal_event_print(&l->d.j, o.fmt == OUT_JSON, "turn", 't', 6);
	bgledger_game_release(&l->d);
	db_close(db);
	return 0;
}

/* list: the games not over, each with its GM, turn and last event. */
static int
cmd_list(void)
{
	need_args(1, 1, "list [--json|--csv]");
	journal_list_path(o.db, &bgledger_kind, o.fmt, "turn");
	return 0;
}

/* The live board (term/watch.h): the game, drawn again as it changes. */
static int
cmd_watch(void)
{
	struct watch_log w;
	struct db *db;
	int rc;

	need_args(1, 2, "watch [GAME]");
	if (o.nargs == 2)
		o.game = cli_key_arg("GAME", o.args[1]);
	if (o.fmt != OUT_TABLE)
		cli_usage_error("watch draws a board, not JSON or CSV");
	w.typed = o.game;
	w.board = &bgwatch_board;
	w.gm = cli_gm(o.gm);
	db = cli_db_open(o.db);
	rc = watch_run(db, watch_log_draw, &w);
	db_close(db);
	return rc;
}

/* One row of "games". */
static void
games_row(void *arg, const struct journal_summary *s)
{
	int *n = arg;

	if (o.fmt == OUT_JSON) {
		printf("%s{\"game\":%s,\"team1\":\"%s\",\"team2\":"
		    "\"%s\",\"board\":\"%s\",\"turns\":%d,\"winner\":",
		    *n ? "," : "", cli_key_json(s->id), s->a, s->b, s->board,
		    s->count);
		cli_json_or_null(stdout, s->winner);
		putchar('}');
	} else if (o.fmt == OUT_CSV)
		printf("%s,%s,%s,%s,%d,%s\n", cli_key(s->id), s->a,
		    s->b, s->board, s->count, s->winner ? s->winner : "");
	else
		printf("%-5s %-16s %-16s %-8s %5d  %s\n", cli_key(s->id),
		    s->a, s->b, s->board, s->count, s->winner ?
		    s->winner : "-");
	(*n)++;
}

static int
cmd_games(void)
{
	struct db *db;
	int n = 0;

	need_args(1, 1, "games [--json|--csv]");
	db = cli_db_open(o.db);
	db_begin_read(db);
	if (o.fmt == OUT_JSON)
		putchar('[');
	else if (o.fmt == OUT_CSV)
		puts("game,team1,team2,board,turns,winner");
	else
		printf("%-5s %-16s %-16s %-8s %5s  %s\n", "GAME", "TEAM1",
		    "TEAM2", "BOARD", "TURNS", "WINNER");
	bgledger_game_each(db, games_row, &n);
	db_commit(db);
	if (o.fmt == OUT_JSON)
		puts("]");
	db_close(db);
	return 0;
}

static int
cmd_undo(void)
{
	struct live *l = &live;
	const struct journal_event *t;
	struct db *db;
	ptrdiff_t i;
	int64_t id, seq;

	need_args(1, 1, "undo");
	db = cli_db_open(o.db);
	db_begin_append(db);
	/* An undo may take back the event that ended the game. */
	id = game_id(db, 1);
	/* From a snapshot before the event taken back, which it needs. */
	load_from(db, id, bgledger_undo_target(db, id), l);
	if ((i = bgledger_undo(db, &l->d, &l->g, db_now(), cli_gm(o.gm), &seq,
	    why, sizeof why)) < 0)
		db_die(db, "%s", why);
	/* --dry-run: the same undo, rolled back; only said. */
	if (o.dry_run)
		db_rollback(db);
	else
		db_commit(db);
	t = journal_body(&l->d.j, (size_t)i);
	printf("%s event %lld (%s, turn %d)\n", o.dry_run ? "undo would "
	    "reverse" : "undid", (long long)t->seq, t->action, t->round);
	bgledger_game_release(&l->d);
	db_close(db);
	return 0;
}

/* Says what the replay found wrong with one event of game *arg. */
static void
replay_bad(void *arg, int64_t seq, const char *m)
{
	printf("game %s event %lld: %s\n", cli_key(*(int64_t *)arg),
	    (long long)seq, m);
}

/* Replays game id; returns its mismatches and adds its events. */
static int
replay_game(struct db *db, int64_t id, int *events)
{
	struct live *l = &live;
	int bad;

	if (bgledger_game_load(db, id, &l->d) < 0)
		db_die(db, "no game %s", cli_key(id));
	*events += (int)l->d.j.n;
	bad = bgledger_audit(db, &l->d, replay_bad, &id);
	bgledger_game_release(&l->d);
	return bad;
}

static int
cmd_replay(void)
{
	struct db *db;
	int64_t *ids, one[1];
	size_t n;
	int bad = 0, events = 0;

	need_args(1, 2, "replay [GAME]");
	if (o.nargs == 2)
		o.game = cli_key_arg("GAME", o.args[1]);
	db = cli_db_open(o.db);
	db_begin_read(db);
	if (o.game) {
		one[0] = db_key_parse(db, o.game);
		ids = one;
		n = 1;
	} else
		ids = bgledger_game_ids(db, &n);
	for (size_t k = 0; k < n; k++)
		bad += replay_game(db, ids[k], &events);
	if (ids != one)
		free(ids);
	db_rollback(db);
	db_close(db);
	return cli_replayed(stdout, events, n, "game", bad);
}

static int bg_board(int argc, char **argv);

/*
 * play [GAME]: commands at a prompt, each run as its one-shot form; the
 * session keeps to one game: the one named, else its GM's not over,
 * else the one it makes.
 */
static int
cmd_play(void)
{
	static const char *const board[] = { "show", NULL };
	static const struct play_game session = { "bg-board", bg_board,
	    aliases, board, "--game", "new", &bgledger_kind };
	struct play_tool t;

	if (o.nargs > 2)
		cli_usage_error("play takes at most one GAME");
	if (o.nargs == 2)
		o.game = cli_key_arg("GAME", o.args[1]);
	play_tool_game(&t, &session, o.db, o.gm, o.game);
	return play_run(&t);
}

/* The commands, in the order an unknown one's suggestion weighs them. */
static const struct command {
	const char	*name;
	int		(*run)(void);
} commands[] = {
	{ "team", cmd_team },
	{ "stat", cmd_stat },
	{ "new", cmd_new },
	{ "place", cmd_place },
	{ "moves", cmd_moves },
	{ "move", cmd_move },
	{ "power", cmd_power },
	{ "die", cmd_die },
	{ "pass", cmd_pass },
	{ "adjust", cmd_adjust },
	{ "show", cmd_show },
	{ "log", cmd_log },
	{ "watch", cmd_watch },
	{ "games", cmd_games },
	{ "list", cmd_list },
	{ "undo", cmd_undo },
	{ "replay", cmd_replay },
	{ "play", cmd_play },
};

int
main(int argc, char **argv)
{
	return bg_board(argc, argv);
}

/* One command line, as main() runs it: play runs each of its lines so. */
static int
bg_board(int argc, char **argv)
{
	const char *cmd, *bad, *cmds;
	size_t c;

	cli_init(argc, argv);
	parse_args(argc, argv);
	if (o.nargs == 0)
		cli_usage_error("no command given (team, new, show, moves, "
		    "move, place, die, power, pass, adjust, undo, log, "
		    "watch, games, replay, stat or play)");
	cmd = o.args[0];
	c = cli_command(cmd, commands, sizeof commands[0],
	    sizeof commands / sizeof commands[0]);
	/*
	 * An option goes with the commands its table says (bg/complete.c),
	 * once the command is known to be one.
	 */
	bad = complete_misplaced(bgcomplete_board.takes, cmd, o.seen,
	    (size_t)o.nseen, &cmds);
	if (bad != NULL && strcmp(cmds, "adjust") == 0)
		cli_usage_error("--%s goes with adjust only", bad);
	if (bad != NULL)
		cli_usage_error("'--%s' is not an option of '%s'", bad, q(cmd));
	return commands[c].run();
}
