/*
 * test_bgio.c - the text forms of Battle Grounds: figure specs and their
 * refusals, power lists, teams as lines, pieces by name (bare, by player,
 * by team, ambiguous, by a unique beginning, unknown), every move option,
 * stored moves and their canonical text.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#include "bg/bg.h"
#include "bg/text.h"
#include "base/util.h"

static char why[BG_WHYSZ];
static struct bg_game G;

/*
 * A basic team whose figures are named as the other team's are (SA1,
 * I1 ... III2), so that bare names are ambiguous between them.
 */
static struct bg_team
team(const char *name)
{
	static const int counts[BG_NLEVEL] = { 2, 4, 4, 2 };
	struct bg_team t;

	memset(&t, 0, sizeof t);
	snprintf(t.name, sizeof t.name, "%s", name);
	for (int l = BG_III; l >= BG_SA; l--)
		for (int i = 0; i < counts[l]; i++) {
			struct bg_figure *f = &t.f[t.n++];

			snprintf(f->name, sizeof f->name, "%s%d",
			    bg_level_name(l), i + 1);
			f->level = l;
			f->cosmic = l == BG_III && i == 0;
			for (int c = 0; c < BG_NSTAT; c++)
				f->stat[c] = c + 1;
		}
	return t;
}

/* The game both teams play: Reds first, on the basic board. */
static void
start(void)
{
	struct bg_team a = team("Reds"), b = team("Blues");

	bg_start(&G, &a, &b, 0, 0);
}

/* Parses spec and expects a refusal saying want. */
static void
figure_refused(const char *spec, const char *want)
{
	struct bg_figure f;

	why[0] = '\0';
	is_int(bgtext_figure_parse(spec, &f, why, sizeof why), -1,
	    "'%s' is refused", spec);
	is_str(why, want, "  saying so");
}

static void
test_figures(void)
{
	struct bg_figure f;
	char spec[300], *s;

	is_int(bgtext_figure_parse("Thor:II:10,0,99,7,8,9", &f, why,
	    sizeof why), 0, "a spec without powers");
	is_str(f.name, "Thor", "its name");
	is_int(f.level, BG_II, "its level");
	is_int(f.cosmic, 0, "not Cosmic");
	is_int(f.stat[BG_RED], 10, "red first");
	is_int(f.stat[BG_ORANGE], 0, "orange may be 0");
	is_int(f.stat[BG_YELLOW], 99, "yellow may be 99");
	is_int(f.stat[BG_PURPLE], 9, "purple last");
	is_int(f.powers, 0, "no powers");
	s = bgtext_figure_format(&f);
	is_str(s, "Thor:II:10,0,99,7,8,9", "written back without a colon");
	free(s);

	is_int(bgtext_figure_parse("Thor:II:1,2,3,4,5,6:", &f, why, sizeof why),
	    0, "an empty power list");
	is_int(f.powers, 0, "  gives no powers");
	is_int(bgtext_figure_parse("x:s:1,2,3,4,5,6", &f, why, sizeof why), 0,
	    "'s' is a level");
	is_int(f.level, BG_SA, "  Starter/Accessory");
	is_int(bgtext_figure_parse("x:3*:1,2,3,4,5,6", &f, why, sizeof why), 0,
	    "'3*' is a level");
	is_int(f.level, BG_III, "  III");
	is_int(f.cosmic, 1, "  and Cosmic");
	s = bgtext_figure_format(&f);
	is_str(s, "x:III*:1,2,3,4,5,6", "the level written canonically");
	free(s);

	is_int(bgtext_figure_parse("Eve:sa:1,1,1,1,1,1:SWAP+Super-Sense+swap",
	    &f, why, sizeof why), 0, "powers in any case, one twice");
	is_int(f.powers, 1u << BG_SWAP | 1u << BG_SUPERSENSE, "  two powers");
	s = bgtext_figure_format(&f);
	is_str(s, "Eve:SA:1,1,1,1,1,1:super-sense+swap", "written in power "
	    "order");
	free(s);
	is_int(bgtext_figure_parse("Eve:I:1,1,1,1,1,1:supersense+swap-powers",
	    &f, why, sizeof why), 0, "the powers' other names");
	is_int(f.powers, 1u << BG_SWAP | 1u << BG_SUPERSENSE, "  the same two");

	figure_refused("Thor:II", "a figure is NAME:LEVEL:R,O,Y,G,B,P"
	    "[:POWERS]");
	figure_refused("Thor:II:1,2,3,4,5,6:swap:x", "a figure is "
	    "NAME:LEVEL:R,O,Y,G,B,P[:POWERS]");
	figure_refused(":II:1,2,3,4,5,6", "figure name '': one word of up to "
	    "31 letters, digits, '-', '_' or '.'");
	figure_refused("Th/or:II:1,2,3,4,5,6", "figure name 'Th/or': one word "
	    "of up to 31 letters, digits, '-', '_' or '.'");
	figure_refused("Thor:*:1,2,3,4,5,6", "figure 'Thor': level '' is not "
	    "SA, I, II or III");
	figure_refused("Thor:4:1,2,3,4,5,6", "figure 'Thor': level '4' is not "
	    "SA, I, II or III");
	figure_refused("Thor:I:1,2,3,4,5,6,7", "figure 'Thor': six Battle "
	    "Stats, red orange yellow green blue purple, comma-separated");
	figure_refused("Thor:I:1,2,3,4,5,", "figure 'Thor': purple must be a "
	    "whole number from 0 to 99, got ''");
	figure_refused("Thor:I:1,-2,3,4,5,6", "figure 'Thor': orange must be a "
	    "whole number from 0 to 99, got '-2'");
	figure_refused("Thor:I:1,2,3,4,5,6:hypnotize+swap+teleport+telepathy+"
	    "super-sense+swap", "figure 'Thor': too many powers");
	figure_refused("Thor:I:1,2,3,4,5,6:swap+", "figure 'Thor': unknown "
	    "power ''");

	memset(spec, 'a', sizeof spec);
	spec[256] = '\0';
	figure_refused(spec, "a figure spec is at most 255 bytes");
	spec[31] = '\0';
	is_int(bgtext_figure_parse(strcat(spec, ":I:1,1,1,1,1,1"), &f, why,
	    sizeof why), 0, "a name of 31 letters");
	memset(spec, 'a', 32);
	spec[32] = '\0';
	strcat(spec, ":I:1,1,1,1,1,1");
	figure_refused(spec, "figure name 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa': "
	    "one word of up to 31 letters, digits, '-', '_' or '.'");
}

static void
test_powers(void)
{
	char *s;

	s = bgtext_powers(0, "+");
	is_str(s, "", "no powers, an empty string");
	free(s);
	s = bgtext_powers((1u << BG_NPOWER) - 1, ", ");
	is_str(s, "hypnotize, super-sense, swap, telepathy, teleport",
	    "every power, in order, with the separator");
	free(s);
	s = bgtext_powers(1u << BG_TELEPORT, ", ");
	is_str(s, "teleport", "one power, no separator");
	free(s);
}

static void
test_teams(void)
{
	struct bg_team t;
	char *s, *big;
	size_t len;

	memset(&t, 0, sizeof t);
	is_int(bgtext_team_parse("# the reds\n"
	    "  A:I:1,1,1,1,1,1   # a comment after\r\n"
	    "\n"
	    "\t \r\n"
	    "B:III*:2,2,2,2,2,2:teleport", &t, why, sizeof why), 0,
	    "a team with comments, blanks, CRLF, no last newline");
	is_int(t.n, 2, "  two figures");
	is_str(t.f[0].name, "A", "  the first trimmed");
	is_str(t.f[1].name, "B", "  the last read");
	is_int(bgtext_team_parse("C:SA:3,3,3,3,3,3\n", &t, why, sizeof why), 0,
	    "a second text");
	is_int(t.n, 3, "  appends");
	s = bgtext_team_format(&t);
	is_str(s, "A:I:1,1,1,1,1,1\nB:III*:2,2,2,2,2,2:teleport\n"
	    "C:SA:3,3,3,3,3,3\n", "the team as lines");
	free(s);
	memset(&t, 0, sizeof t);
	s = bgtext_team_format(&t);
	is_str(s, "", "an empty team, no lines");
	free(s);

	memset(&t, 0, sizeof t);
	is_int(bgtext_team_parse("A:I:1,1,1,1,1,1\nB:I:1,1,1,1,1\n", &t, why,
	    sizeof why), -1, "a bad figure");
	is_str(why, "line 2: figure 'B': six Battle Stats, red orange yellow "
	    "green blue purple, comma-separated", "  names its line");

	/* 17 figures: one more than a team holds. */
	big = xcalloc(17, 32);
	len = 0;
	for (int i = 0; i < 17; i++)
		len += (size_t)snprintf(big + len, 17 * 32 - len,
		    "F%d:I:1,1,1,1,1,1\n", i);
	memset(&t, 0, sizeof t);
	is_int(bgtext_team_parse(big, &t, why, sizeof why), -1, "17 figures");
	is_str(why, "line 17: a team has at most 16 figures", "  refused at "
	    "the 17th");
	is_int(t.n, 16, "  after 16");
	free(big);

	big = xcalloc(1, 600);
	memset(big, ' ', 512);
	memcpy(big + 512, "A:I:1,1,1,1,1,1\n", 16);
	memset(&t, 0, sizeof t);
	is_int(bgtext_team_parse(big, &t, why, sizeof why), -1, "a line of "
	    "528 bytes");
	is_str(why, "line 1: too long", "  is too long");
	big[511 - 16] = '\0';
	memcpy(big + 511 - 16 - 15, "A:I:1,1,1,1,1,1", 15);
	memset(&t, 0, sizeof t);
	is_int(bgtext_team_parse(big, &t, why, sizeof why), 0, "a line of 495 "
	    "bytes");
	is_int(t.n, 1, "  is one figure");
	free(big);
}

static void
test_pieces(void)
{
	char buf[BG_PIECESZ];
	int p0, p1;

	start();
	p0 = bg_piece_find(&G, 0, "I1");
	p1 = bg_piece_find(&G, 1, "I1");
	ok(p0 >= 0 && p1 >= 0 && p0 != p1, "both teams have I1");
	is_int(bgtext_piece(&G, "1:I1", -1, why, sizeof why), p0, "1:I1");
	is_int(bgtext_piece(&G, "2:i1", -1, why, sizeof why), p1, "2:i1");
	is_int(bgtext_piece(&G, "blues:I1", -1, why, sizeof why), p1,
	    "a team's name in any case");
	is_int(bgtext_piece(&G, "REDS:I1", -1, why, sizeof why), p0,
	    "the other team's");
	is_int(bgtext_piece(&G, "I1", 0, why, sizeof why), p0, "a bare name: "
	    "the first player's own");
	is_int(bgtext_piece(&G, "I1", 1, why, sizeof why), p1, "  the second "
	    "player's own");
	is_int(bgtext_piece(&G, "I1", -1, why, sizeof why), -1, "a bare name "
	    "with no player to prefer");
	is_str(why, "both teams have 'I1': say 1:I1 or 2:I1", "  is "
	    "ambiguous");
	G.pc[p1].ctrl = 0;	/* hypnotized: the first player moves it */
	is_int(bgtext_piece(&G, "I1", 0, why, sizeof why), p0, "the first "
	    "player moves both: her own");
	is_int(bgtext_piece(&G, "I1", 1, why, sizeof why), p1, "  the second "
	    "moves neither: her own");
	G.pc[p0].ctrl = 1;	/* and the second moves the first's */
	is_int(bgtext_piece(&G, "I1", 0, why, sizeof why), p1, "each moves "
	    "the other's: the first player gets the one she moves");
	is_int(bgtext_piece(&G, "I1", 1, why, sizeof why), p0, "  and so does "
	    "the second");
	G.pc[p0].ctrl = 0;
	G.pc[p1].ctrl = 1;
	is_int(bgtext_piece(&G, "3:I1", -1, why, sizeof why), -1, "3:I1");
	is_str(why, "'3' is neither team (the teams: 'Reds' and 'Blues')",
	    "  no player 3");
	is_int(bgtext_piece(&G, ":I1", -1, why, sizeof why), -1, ":I1");
	is_str(why, "'' is neither team (the teams: 'Reds' and 'Blues')",
	    "  an empty team");
	is_int(bgtext_piece(&G, "Bleus:I1", -1, why, sizeof why), -1,
	    "Bleus:I1");
	is_str(why, "'Bleus' is neither team; did you mean 'Blues'? (the "
	    "teams: 'Reds' and 'Blues')", "  a slip in the team's name");
	is_int(bgtext_piece(&G, "2:Hulk", -1, why, sizeof why), -1, "2:Hulk");
	is_str(why, "'Hulk' is not a figure of Blues (its figures: 'III1', "
	    "'III2', 'II1', 'II2', 'II3', 'II4', 'I1', 'I2' (and 4 more))",
	    "  names the team and lists its figures");
	is_int(bgtext_piece(&G, "Hulk", 0, why, sizeof why), -1, "Hulk");
	is_str(why, "'Hulk' is not a figure of this game (figures of Reds: "
	    "'III1', 'III2', 'II1', 'II2', 'II3', 'II4', 'I1', 'I2' (and 4 "
	    "more))", "  nowhere: the figures of the player preferred");
	is_int(bgtext_piece(&G, "Hulk", -1, why, sizeof why), -1, "Hulk, "
	    "with no player to prefer");
	is_str(why, "'Hulk' is not a figure of this game (in it: 'III1', "
	    "'III2', 'II1', 'II2', 'II3', 'II4', 'I1', 'I2' (and 16 more))",
	    "  lists every figure");

	/* A unique beginning of a team's or a figure's name will do. */
	is_int(bgtext_piece(&G, "blu:III1", -1, why, sizeof why), BG_MAXFIG,
	    "blu:III1");
	is_int(bgtext_piece(&G, "r:i1", -1, why, sizeof why), p0, "r:i1");
	is_int(bgtext_piece(&G, "2:sa", -1, why, sizeof why), -1, "2:sa");
	is_str(why, "'sa' could be 'SA1' or 'SA2'", "  is ambiguous");
	is_int(bgtext_piece(&G, "III", 0, why, sizeof why), -1, "III");
	is_str(why, "'III' could be 'III1' or 'III2'", "  is ambiguous");
	snprintf(G.team[1].f[0].name, BG_NAMESZ, "Galactus");
	snprintf(G.team[0].f[1].name, BG_NAMESZ, "Silver-Surfer");
	is_int(bgtext_piece(&G, "gal", 0, why, sizeof why), BG_MAXFIG, "gal: "
	    "the foe's, the only one so named");
	is_int(bgtext_piece(&G, "surf", -1, why, sizeof why), 1, "surf: a "
	    "word of the name");
	is_int(bgtext_piece(&G, "1:gal", -1, why, sizeof why), -1, "1:gal");
	is_str(why, "'gal' is not a figure of Reds (its figures: 'III1', "
	    "'Silver-Surfer', 'II1', 'II2', 'II3', 'II4', 'I1', 'I2' (and 4 "
	    "more))", "  not in the team named");
	is_int(bgtext_piece(&G, "Galctus", 1, why, sizeof why), -1, "Galctus");
	is_str(why, "'Galctus' is not a figure of this game; did you mean "
	    "'Galactus'? (figures of Blues: 'Galactus', 'III2', 'II1', 'II2', "
	    "'II3', 'II4', 'I1', 'I2' (and 4 more))", "  suggests the nearest");
	start();

	bgtext_piece_name(&G, p0, buf, sizeof buf);
	is_str(buf, "1:I1", "the first team's piece");
	bgtext_piece_name(&G, p1, buf, sizeof buf);
	is_str(buf, "2:I1", "the second team's piece");
}

/* Runs one option on a fresh input and expects rc. */
static int
option(struct bg_move_in *in, const char *opt, const char *val)
{
	bg_move_init(in);
	why[0] = '\0';
	return bgtext_move_option(&G, opt, val, in, why, sizeof why);
}

static void
test_options(void)
{
	struct bg_move_in in;

	start();
	is_int(option(&in, "roll", "1,6,3"), 1, "--roll");
	is_int(in.nroll, 3, "  three dice");
	ok(in.roll[0] == 1 && in.roll[1] == 6 && in.roll[2] == 3, "  in "
	    "order");
	is_int(option(&in, "vs-roll", "2"), 1, "--vs-roll");
	is_int(in.nvs, 1, "  one die");
	is_int(in.vs[0], 2, "  read");
	is_int(option(&in, "roll", "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1"), 1,
	    "--roll with 16 dice");
	is_int(in.nroll, 16, "  all kept");
	is_int(option(&in, "roll", "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1"), -1,
	    "--roll with 17 dice");
	is_str(why, "--roll: at most 16 dice", "  refused");
	is_int(option(&in, "vs-roll", "3,7"), -1, "--vs-roll 3,7");
	is_str(why, "--vs-roll: a die reads 1 to 6, got '7'", "  names the "
	    "die");
	is_int(option(&in, "roll", "0"), -1, "--roll 0");
	is_str(why, "--roll: a die reads 1 to 6, got '0'", "  refused");
	is_int(option(&in, "roll", ""), -1, "--roll ''");
	is_str(why, "--roll: a die reads 1 to 6, got ''", "  refused");
	is_int(option(&in, "stat-roll", "5,2"), 1, "--stat-roll 5,2");
	ok(in.statroll[0] == 5 && in.statroll[1] == 2, "  attacker, "
	    "defender");
	is_int(option(&in, "stat-roll", "5"), -1, "--stat-roll 5");
	is_str(why, "--stat-roll: two dice, the attacker's then the "
	    "defender's", "  wants two");
	is_int(option(&in, "stat-roll", "5,2,1"), -1, "--stat-roll 5,2,1");
	is_str(why, "--stat-roll: at most 2 dice", "  not three");

	is_int(option(&in, "stat", "Purple"), 1, "--stat Purple");
	is_int(in.stat, BG_PURPLE, "  the chooser's pick");
	ok(in.att_stat < 0 && in.def_stat < 0, "  no own picks");
	is_int(option(&in, "att-stat", "red"), 1, "--att-stat red");
	is_int(in.att_stat, BG_RED, "  the attacker's");
	is_int(option(&in, "def-stat", "green"), 1, "--def-stat green");
	is_int(in.def_stat, BG_GREEN, "  the defender's");
	is_int(option(&in, "stat", "white"), -1, "--stat white");
	is_str(why, "--stat: 'white' is not a stat colour (red, orange, "
	    "yellow, green, blue, purple)", "  is no stat");

	is_int(option(&in, "release", "2:SA1"), 1, "--release 2:SA1");
	is_int(in.release, bg_piece_find(&G, 1, "SA1"), "  the piece");
	is_int(option(&in, "release", "SA1"), 1, "--release SA1");
	is_int(in.release, bg_piece_find(&G, 0, "SA1"), "  the mover's own "
	    "(the first player's turn)");
	is_int(option(&in, "release", "Hulk"), -1, "--release Hulk");
	is_str(why, "'Hulk' is not a figure of this game (figures of Reds: "
	    "'III1', 'III2', 'II1', 'II2', 'II3', 'II4', 'I1', 'I2' (and 4 "
	    "more))", "  refused");
	is_int(option(&in, "release-to", "B7"), 1, "--release-to B7");
	is_int(in.release_to, 6 * 6 + 1, "  b7 on a 6-wide board");
	is_int(in.return_to, -1, "  not the return");
	is_int(option(&in, "return", "f1"), 1, "--return f1");
	is_int(in.return_to, 5, "  f1");
	is_int(in.release_to, -1, "  not the release");
	is_int(option(&in, "return", "g1"), -1, "--return g1");
	is_str(why, "--return: 'g1' is not a square of this board", "  off "
	    "the basic board");
	is_int(option(&in, "release-to", "a8"), -1, "--release-to a8");
	is_str(why, "--release-to: 'a8' is not a square of this board",
	    "  past the last rank");
	is_int(option(&in, "kick", "1"), 0, "--kick is no move option");
	is_str(why, "", "  and says nothing");
}

static void
test_squares(void)
{
	char buf[4];

	start();
	is_int(bg_square_parse(&G, "a1"), 0, "a1 is 0");
	is_int(bg_square_parse(&G, "F7"), 6 * 6 + 5, "F7 the last");
	is_int(bg_square_parse(&G, "a0"), -1, "a0");
	is_int(bg_square_parse(&G, "a10"), -1, "a10");
	is_int(bg_square_parse(&G, "a"), -1, "a");
	is_int(bg_square_parse(&G, ""), -1, "nothing");
	bg_square_name(&G, 6 * 6 + 5, buf);
	is_str(buf, "f7", "the last square's name");
	bg_square_name(&G, 7, buf);
	is_str(buf, "b2", "b2");
}

/* Parses text and expects a refusal saying want. */
static void
move_refused(const char *text, const char *want)
{
	struct bg_move_in in;

	why[0] = '\0';
	is_int(bgtext_move_parse(&G, text, &in, why, sizeof why), -1,
	    "'%s' is refused", text);
	is_str(why, want, "  saying so");
}

static void
test_moves(void)
{
	struct bg_move_in in;
	char *s;

	start();
	is_int(bgtext_move_parse(&G, "I1 c3", &in, why, sizeof why), 0,
	    "a bare move");
	is_int(in.piece, bg_piece_find(&G, 0, "I1"), "  the mover's piece");
	is_int(in.to, bg_square_parse(&G, "c3"), "  to c3");
	ok(in.nroll == 0 && in.stat < 0 && in.release < 0, "  nothing else");
	s = bgtext_move_format(&G, &in);
	is_str(s, "1:I1 c3", "  written back qualified");
	free(s);

	is_int(bgtext_move_parse(&G, "2:II1  d5 --release-to a1 --return b2 "
	    "--release 1:SA2 --def-stat blue --att-stat yellow --stat-roll "
	    "6,6 --vs-roll 1,2 --roll 3,2 --stat orange", &in, why,
	    sizeof why), 0, "every option, two spaces");
	s = bgtext_move_format(&G, &in);
	is_str(s, "2:II1 d5 --stat-roll 6,6 --stat orange --att-stat yellow "
	    "--def-stat blue --roll 3,2 --vs-roll 1,2 --return b2 --release "
	    "1:SA2 --release-to a1", "  written in the canonical order");
	{
		struct bg_move_in again;
		char *s2;

		is_int(bgtext_move_parse(&G, s, &again, why, sizeof why), 0,
		    "the canonical text parses");
		s2 = bgtext_move_format(&G, &again);
		is_str(s2, s, "  to itself");
		free(s2);
	}
	free(s);

	move_refused("I1", "a move is PIECE SQUARE [--OPT VALUE]");
	move_refused("", "a move is PIECE SQUARE [--OPT VALUE]");
	move_refused("I1 c3 --roll", "a move is PIECE SQUARE [--OPT VALUE]");
	move_refused("I1 c3 --roll 1 --vs-roll 2 --roll 1 --vs-roll 2 --roll "
	    "1 --vs-roll 2 --roll 1 --vs-roll 2 --roll 1 --vs-roll 2 --roll 1 "
	    "--vs-roll 2 --roll 1 --vs-roll 2 --roll 1 --vs-roll 2 --roll 1 "
	    "--vs-roll 2 --roll 1", "a move is PIECE SQUARE [--OPT VALUE]");
	move_refused("Hulk c3", "'Hulk' is not a figure of this game (figures "
	    "of Reds: 'III1', 'III2', 'II1', 'II2', 'II3', 'II4', 'I1', 'I2' "
	    "(and 4 more))");
	move_refused("I1 z9", "'z9' is not a square of this board");
	move_refused("I1 c3 roll 3", "'roll' is not a move option");
	move_refused("I1 c3 --kick 3", "'--kick' is not a move option");
	move_refused("I1 c3 --roll 9", "--roll: a die reads 1 to 6, got '9'");
	move_refused("Hulk c3 --kick 3", "'Hulk' is not a figure of this "
	    "game (figures of Reds: 'III1', 'III2', 'II1', 'II2', 'II3', "
	    "'II4', 'I1', 'I2' (and 4 more))");
}

int
main(void)
{
	test_figures();
	test_powers();
	test_teams();
	test_pieces();
	test_options();
	test_squares();
	test_moves();
	return tap_done();
}
