/*
 * test_bg.c - the Battle Grounds rules with given dice: both boards'
 * colours, line-ups and the setup, every level's moves with blocked paths
 * and edges, every Battle Stat case, battles and re-rolls, the zones and
 * dice, each attack power, the far-end release, the Cosmic capture, and
 * the text forms.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#include "bg/bg.h"
#include "bg/text.h"

static char why[BG_WHYSZ];
static struct bg_game G;
static struct rng R;

static int nbad;
static char lastbad[BG_WHYSZ];

static void
bad(void *arg, const char *m)
{
	(void)arg;
	nbad++;
	snprintf(lastbad, sizeof lastbad, "%s", m);
}

/*
 * A team for a line-up.  Figure k has red = 10 + k and every other stat
 * k % 5 + 1; the first level III figure is the Cosmic one.
 */
static struct bg_team
team(const char *name, int advanced)
{
	static const int counts[2][BG_NLEVEL] = { { 2, 4, 4, 2 },
	    { 2, 6, 4, 4 } };
	struct bg_team t;
	int k = 0;

	memset(&t, 0, sizeof t);
	snprintf(t.name, sizeof t.name, "%s", name);
	for (int l = BG_III; l >= BG_SA; l--)
		for (int i = 0; i < counts[advanced][l]; i++, k++) {
			struct bg_figure *f = &t.f[t.n++];

			snprintf(f->name, sizeof f->name, "%s%s%d", name,
			    bg_level_name(l), i + 1);
			f->level = l;
			f->cosmic = l == BG_III && i == 0;
			f->stat[BG_RED] = 10 + k;
			for (int c = 1; c < BG_NSTAT; c++)
				f->stat[c] = k % 5 + 1;
		}
	return t;
}

static int
sq(const char *s)
{
	return bg_square_parse(&G, s);
}

static void
start(int advanced)
{
	struct bg_team a = team("A", advanced), b = team("B", advanced);

	bg_start(&G, &a, &b, advanced, 0);
	rng_seed(&R, 1);
}

/* Takes every piece off the board (not held). */
static void
clear(void)
{
	for (int i = 0; i < BG_MAXSQ; i++)
		G.at[i] = -1;
	for (int i = 0; i < 2 * BG_MAXFIG; i++) {
		G.pc[i].sq = -1;
		G.pc[i].held = -1;
	}
}

static int
pc(int p, const char *name)
{
	char full[BG_NAMESZ];

	snprintf(full, sizeof full, "%s%s", p ? "B" : "A", name);
	return bg_piece_find(&G, p, full);
}

static void
set(int piece, const char *s)
{
	G.pc[piece].sq = sq(s);
	G.pc[piece].held = -1;
	G.at[sq(s)] = piece;
}

static int
count(bg_set s)
{
	return __builtin_popcountll(s.bits);
}

/* The squares of a set, "a1 b2 ...", for exact comparisons. */
static const char *
list(bg_set s)
{
	static char buf[256];
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < G.w * G.h; i++)
		if (bg_set_has(s, i)) {
			char n[4];

			bg_square_name(&G, i, n);
			len += (size_t)snprintf(buf + len, sizeof buf - len,
			    "%s%s", len ? " " : "", n);
		}
	return buf;
}

static int
move(int piece, const char *to, struct bg_move_in *in, struct bg_report *r)
{
	in->piece = piece;
	in->to = sq(to);
	return bg_move(&G, in, &R, r, why, sizeof why);
}

static void
test_boards(void)
{
	static const char *const names[] = { "red", "orange", "yellow",
	    "green", "blue", "purple", "white", "all" };
	char got[200];
	size_t len = 0;
	int star;

	start(0);
	is_int(G.w * 10 + G.h, 67, "the basic board is 6 by 7");
	for (const char *const *s = (const char *const[]){ "a1", "f1", "a3",
	    "c2", "a4", "f4", "a7", "f7", "f5", "d6", NULL }; *s; s++)
		len += (size_t)snprintf(got + len, sizeof got - len, "%s=%s ",
		    *s, names[bg_square_colour(&G, sq(*s))]);
	is_str(got, "a1=red f1=purple a3=red c2=yellow a4=white f4=white "
	    "a7=purple f7=red f5=red d6=yellow ", "basic colours run red to "
	    "purple from each side's left; the middle row is white");
	ok(sq("g1") < 0 && sq("a8") < 0 && sq("a0") < 0 && sq("") < 0 &&
	    sq("a10") < 0, "squares off the basic board are refused");
	is_int(bg_setup_slot(&G, 0, sq("c1"), &star), BG_III, "c1 starts a "
	    "level III figure");
	ok(star, "c1 is a Cosmic square");
	is_int(bg_setup_slot(&G, 1, sq("d7"), &star) * 10 + star, BG_III * 10 +
	    1, "d7 is the north's other Cosmic square");
	is_int(bg_setup_slot(&G, 0, sq("c2"), &star), BG_SA, "c2 starts a "
	    "Starter/Accessory figure");
	is_int(bg_setup_slot(&G, 0, sq("a3"), &star), -1, "row 3 is not a "
	    "setup row");
	is_int(G.at[sq("c1")], pc(0, "III1"), "the Cosmic figure starts on "
	    "the first star");
	is_int(G.at[sq("d1")], pc(0, "III2"), "the other III on the second");
	is_int(G.at[sq("c7")], pc(1, "III1"), "the north's Cosmic on c7");
	is_int(G.at[sq("a2")], pc(0, "I1"), "level I figures fill the front "
	    "row in team order");
	ok(bg_staging(&G, 0, sq("f2")) && !bg_staging(&G, 0, sq("a3")) &&
	    bg_staging(&G, 1, sq("a6")) && !bg_staging(&G, 1, sq("a5")),
	    "the Staging Zone is each side's first two rows");

	start(1);
	is_int(G.w * 10 + G.h, 88, "the advanced board is 8 by 8");
	len = 0;
	for (const char *const *s = (const char *const[]){ "a1", "c1", "d1",
	    "e3", "f1", "h1", "a4", "h5", "h8", "e8", "a8", "f6", NULL }; *s;
	    s++)
		len += (size_t)snprintf(got + len, sizeof got - len, "%s=%s ",
		    *s, names[bg_square_colour(&G, sq(*s))]);
	is_str(got, "a1=red c1=yellow d1=all e3=all f1=green h1=purple "
	    "a4=white h5=white h8=red e8=all a8=purple f6=yellow ",
	    "advanced colours: two all-colour middle columns, two white rows");
	is_int(G.at[sq("d1")], pc(0, "III1"), "advanced: the Cosmic on d1");
	is_int(G.at[sq("c1")], pc(0, "III2"), "advanced: other IIIs on c1");
	is_int(G.at[sq("e1")], pc(0, "III3"), "... e1");
	is_int(G.at[sq("f1")], pc(0, "III4"), "... and f1");
	is_int(G.at[sq("d2")], pc(0, "SA1"), "advanced: S/A on d2 and e2");
}

static void
test_lineups(void)
{
	struct bg_team t = team("A", 0);

	nbad = 0;
	is_int(bg_team_check(&t, 0, bad, NULL), 0, "a basic team passes");
	is_int(bg_team_lineup(&t), 0, "and fits the basic line-up");
	nbad = 0;
	is_int(bg_team_check(&t, 1, bad, NULL), 2, "not the advanced one: "
	    "its level I and level III counts");
	t = team("A", 1);
	is_int(bg_team_lineup(&t), 1, "an advanced team fits the advanced "
	    "line-up");
	t = team("A", 0);
	t.n--;	/* drops an SA figure */
	nbad = 0;
	bg_team_check(&t, 0, bad, NULL);
	is_str(lastbad, "the basic line-up has 2 Starter/Accessory figures, "
	    "not 1", "a missing figure is named by level");
	t = team("A", 0);
	t.f[1].cosmic = 1;
	nbad = 0;
	bg_team_check(&t, 0, bad, NULL);
	is_str(lastbad, "a team has exactly one Cosmic figure, not 2", "two "
	    "Cosmic figures are refused");
	t = team("A", 0);
	t.f[0].cosmic = 0;
	t.f[2].cosmic = 1;	/* a level II */
	nbad = 0;
	is_int(bg_team_check(&t, 0, bad, NULL), 1, "a level II Cosmic figure: "
	    "one complaint");
	is_str(lastbad, "Cosmic figure 'AII1' is level II; a Cosmic figure is "
	    "level III", "and it says why");
	t = team("A", 0);
	snprintf(t.f[5].name, sizeof t.f[5].name, "aii1");
	nbad = 0;
	bg_team_check(&t, 0, bad, NULL);
	is_str(lastbad, "two figures are named 'aii1'", "names are unique, "
	    "ignoring case");
}

static void
test_setup(void)
{
	struct bg_game keep;
	int a, b;

	start(0);
	a = pc(0, "I1");
	b = pc(0, "I4");
	is_int(bg_place(&G, a, sq("f2"), why, sizeof why), 0, "two level I "
	    "figures swap squares");
	ok(G.at[sq("f2")] == a && G.at[sq("a2")] == b && G.pc[b].sq ==
	    sq("a2"), "each on the other's square");
	keep = G;
	ok(bg_place(&G, a, sq("a1"), why, sizeof why) < 0 &&
	    memcmp(&keep, &G, sizeof G) == 0, "a level I figure cannot start "
	    "on a level II square, and nothing changes");
	is_str(why, "a1 starts a level II figure; 'AI1' is level I", "the "
	    "reason names both levels");
	ok(bg_place(&G, a, sq("a3"), why, sizeof why) < 0, "row 3 is not a "
	    "setup square");
	ok(bg_place(&G, a, sq("a6"), why, sizeof why) < 0, "nor the foe's "
	    "rows");
	is_int(bg_place(&G, pc(0, "III2"), sq("c1"), why, sizeof why), 0,
	    "basic: both III squares are starred, so the two may swap");
	start(1);
	ok(bg_place(&G, pc(0, "III1"), sq("c1"), why, sizeof why) < 0,
	    "advanced: the Cosmic figure cannot start on c1 (no star)");
	is_str(why, "the Cosmic figure 'AIII1' starts on one of the two "
	    "starred squares", "and says so");
	ok(bg_place(&G, pc(0, "III2"), sq("d1"), why, sizeof why) < 0,
	    "nor be swapped off its star onto c1");
	is_int(bg_place(&G, pc(0, "III1"), sq("e1"), why, sizeof why), 0,
	    "but may take the other star, e1");
	start(0);
	G.started = 1;
	ok(bg_place(&G, a, sq("f2"), why, sizeof why) < 0, "no setup after "
	    "the first move");
}

static void
test_moves(void)
{
	int sa, i1, ii, iii, foe, own;

	start(0);
	clear();
	sa = pc(0, "SA1");
	set(sa, "c3");
	is_str(list(bg_moves(&G, sa)), "c2 b3 d3 c4", "S/A: one square "
	    "orthogonally");
	set(pc(1, "I1"), "d4");
	set(pc(1, "I2"), "c4");
	is_str(list(bg_moves(&G, sa)), "c2 b3 d3 c4", "S/A attacks "
	    "orthogonally (c4) but not diagonally (d4)");
	G.at[sq("c3")] = -1;
	set(sa, "a1");
	is_str(list(bg_moves(&G, sa)), "b1 a2", "S/A in a corner: two");
	set(pc(0, "SA2"), "b1");
	is_str(list(bg_moves(&G, sa)), "a2", "an own figure blocks");

	start(0);
	clear();
	i1 = pc(0, "I1");
	set(i1, "c3");
	is_int(count(bg_moves(&G, i1)), 8, "level I: eight squares");
	set(pc(1, "I1"), "d4");
	ok(bg_set_has(bg_moves(&G, i1), sq("d4")), "level I attacks "
	    "diagonally");
	G.at[sq("c3")] = -1;
	set(i1, "f7");
	is_str(list(bg_moves(&G, i1)), "e6 f6 e7", "level I at the far "
	    "corner: three");

	start(0);
	clear();
	ii = pc(0, "II1");
	set(ii, "c3");
	is_str(list(bg_moves(&G, ii)), "a1 c1 e1 b2 c2 d2 a3 b3 d3 e3 b4 c4 "
	    "d4 a5 c5 e5", "level II: one or two squares in a straight line");
	own = pc(0, "I1");
	foe = pc(1, "I1");
	set(own, "c4");
	set(foe, "d4");
	is_str(list(bg_moves(&G, ii)), "a1 c1 e1 b2 c2 d2 a3 b3 d3 e3 b4 d4 "
	    "a5", "an own figure blocks its line; a foe ends it as an attack");
	G.at[sq("c3")] = -1;
	set(ii, "a7");
	is_str(list(bg_moves(&G, ii)), "a5 c5 a6 b6 b7 c7", "level II at an "
	    "edge");

	start(0);
	clear();
	iii = pc(0, "III2");
	set(iii, "c4");
	is_int(count(bg_moves(&G, iii)), 6 * 7 - 1, "level III in the open "
	    "reaches every square within three steps (all of this board but "
	    "its own)");
	/* A wall of its own figures with one gap. */
	set(pc(0, "II1"), "b3");
	set(pc(0, "II2"), "c3");
	set(pc(0, "II3"), "d3");
	set(pc(0, "II4"), "b4");
	set(pc(0, "I1"), "d4");
	set(pc(0, "I2"), "b5");
	set(pc(0, "I3"), "c5");
	set(pc(1, "I1"), "d5");
	is_str(list(bg_moves(&G, iii)), "d5", "boxed in, level III can only "
	    "attack the foe in the gap; it cannot pass through it");
	G.at[sq("d5")] = -1;
	G.pc[pc(1, "I1")].sq = -1;
	is_int(count(bg_moves(&G, iii)), 17, "through the gap it turns: d5, "
	    "then five squares, then eleven more");
	ok(bg_set_has(bg_moves(&G, iii), sq("f5")) &&
	    !bg_set_has(bg_moves(&G, iii), sq("a1")), "f5 is three steps "
	    "away, a1 is not reachable");
}

static void
test_stats(void)
{
	struct bg_move_in in;
	struct bg_report r;
	int att, def;

	/* A figure: red 10+k, others k%5+1 (see team()). */
	start(0);
	clear();
	att = pc(0, "I1");	/* k = 6: red 16, others 2 */
	def = pc(1, "I2");	/* k = 7: red 17, others 3 */
	set(att, "b2");
	set(def, "c3");		/* yellow */
	bg_move_init(&in);
	in.roll[0] = 5;
	in.vs[0] = 3;
	is_int(move(att, "c3", &in, &r), 0, "an attack on yellow");
	is_int(r.how * 10 + r.stat_att, BG_S_SQUARE * 10 + BG_YELLOW, "the "
	    "square's colour is the stat for both");
	is_int(r.tot_att * 100 + r.tot_def, 706, "2+5 against 3+3");
	ok(r.att_won && G.at[sq("c3")] == att && G.pc[def].sq < 0 &&
	    G.pc[def].held == 0, "the attacker takes the square; the loser "
	    "goes to the winner's Holding Zone");
	ok(G.at[sq("b2")] < 0, "the attacker's square is left empty");
	is_int(G.credit[1], 1, "the loser may move a die to the Dice Zone");
	is_int(G.turn, 1, "the turn passes");

	start(0);
	clear();
	set(att, "b3");
	set(def, "c4");		/* white, attacker on orange */
	bg_move_init(&in);
	in.statroll[0] = 2;
	in.statroll[1] = 5;
	in.roll[0] = 1;
	in.vs[0] = 1;
	is_int(move(att, "c4", &in, &r), 0, "an attack on white from colour");
	is_int(r.how, BG_S_ROLL, "the stat is rolled off");
	is_int(r.chooser, def, "the higher roller (the defender) picks");
	is_int(r.stat_att, BG_RED, "and picks her best over the foe: red");
	is_int(in.stat, BG_RED, "the pick is written back for the record");
	ok(!r.att_won && G.pc[att].held == 1 && G.at[sq("b3")] < 0,
	    "17+1 beats 16+1: the attacker is captured");

	start(0);
	clear();
	set(att, "b3");
	set(def, "c4");
	bg_move_init(&in);
	in.statroll[0] = 4;
	in.statroll[1] = 4;
	in.att_stat = BG_BLUE;
	in.def_stat = BG_GREEN;
	in.roll[0] = 6;
	in.vs[0] = 4;
	is_int(move(att, "c4", &in, &r), 0, "a tied roll-off");
	is_int(r.how, BG_S_OWN, "a tie: each picks her own");
	is_int(r.val_att * 10 + r.val_def, 23, "blue 2 against green 3");
	ok(r.att_won, "2+6 beats 3+4");

	start(0);
	clear();
	set(att, "b4");
	set(def, "c4");
	bg_move_init(&in);
	in.roll[0] = 2;
	in.vs[0] = 6;
	is_int(move(att, "c4", &in, &r), 0, "both on white");
	is_int(r.how * 100 + r.stat_att * 10 + r.stat_def, BG_S_OWN * 100 +
	    BG_RED * 10 + BG_RED, "each picks her own, by default her best");
	is_int(r.statroll[0], 0, "no roll-off when both stand on white");

	start(1);
	clear();
	att = pc(0, "I1");	/* advanced: k = 8, others 4 */
	def = pc(1, "I2");	/* k = 9, others 5 */
	set(att, "c2");
	set(def, "d3");		/* an all-colour square */
	bg_move_init(&in);
	in.stat = BG_PURPLE;
	in.roll[0] = 4;
	in.vs[0] = 3;
	in.roll[1] = 6;
	in.vs[1] = 1;
	is_int(move(att, "d3", &in, &r), 0, "an all-colour square");
	is_int(r.how * 10 + r.chooser, BG_S_DEFENDER * 10 + def, "the "
	    "defender picks");
	is_int(r.val_att * 10 + r.val_def, 45, "purple: 4 against 5");
	is_int(r.rolls, 2, "8 all, then a second roll");
	is_int(r.tot_att * 100 + r.tot_def, 1006, "10 against 6");
	ok(r.att_won, "the attacker wins the re-roll");
	bg_move_init(&in);
	start(1);
	clear();
	set(att, "c2");
	set(def, "d3");
	in.roll[0] = 6;
	in.vs[0] = 1;
	is_int(move(att, "d3", &in, &r), 0, "the defender's pick by default");
	is_int(r.stat_att, BG_RED, "her best over the foe (red 19 to 18)");
}

static void
test_refusals(void)
{
	struct bg_move_in in;
	struct bg_report r;
	struct bg_game keep;
	int att, def;

	start(0);
	att = pc(0, "I1");
	def = pc(1, "I2");
	clear();
	set(att, "b2");
	set(def, "c3");
	keep = G;
	bg_move_init(&in);
	in.stat = BG_BLUE;
	ok(move(att, "c3", &in, &r) < 0 && memcmp(&keep, &G, sizeof G) == 0,
	    "--stat on a coloured square is refused, nothing changed");
	is_str(why, "--stat: the defender's square is yellow, so the stat is "
	    "yellow", "and says so");
	bg_move_init(&in);
	in.roll[0] = 5;
	ok(move(att, "b3", &in, &r) < 0, "dice for a plain move are refused");
	bg_move_init(&in);
	in.roll[0] = 1;
	in.vs[0] = 6;
	in.roll[1] = 2;
	in.vs[1] = 2;
	ok(move(att, "c3", &in, &r) < 0 && memcmp(&keep, &G, sizeof G) == 0,
	    "dice beyond the deciding pair are refused");
	is_str(why, "the battle was settled by roll 1; the rest of the dice "
	    "are not used", "naming the deciding roll");
	bg_move_init(&in);
	ok(move(def, "c2", &in, &r) < 0, "the foe's figure is not the mover's");
	is_str(why, "it is A's turn; 'BI2' is not theirs to move", "whose "
	    "turn it is");
	ok(move(att, "b5", &in, &r) < 0, "out of reach");
	is_str(why, "'AI1' (level I) cannot reach b5", "the reach names the "
	    "level");
	bg_move_init(&in);
	in.roll[0] = 7;
	ok(move(att, "c3", &in, &r) < 0, "a die of 7");
}

static void
test_battles(void)
{
	struct bg_move_in in;
	struct bg_report r;
	struct bg_team a = team("A", 0), b = team("B", 0);
	int att, def;

	/* Ties are re-rolled. */
	start(0);
	att = pc(0, "I1");
	def = pc(1, "I2");
	clear();
	set(att, "b2");
	set(def, "c3");
	bg_move_init(&in);
	in.roll[0] = 4;
	in.vs[0] = 3;	/* 2+4 = 3+3 */
	in.roll[1] = 1;
	in.vs[1] = 2;
	is_int(move(att, "c3", &in, &r), 0, "a tie, then a second roll");
	is_int(r.rolls * 100 + r.tot_att * 10 + r.tot_def, 235, "two rolls; "
	    "3 against 5");
	ok(!r.att_won && G.pc[att].held == 1, "the defender wins");
	is_int(G.credit[0], 1, "the losing attacker's side gets the die move");

	/* A losing attacker stays under --safe-attack. */
	bg_start(&G, &a, &b, 0, 1);
	clear();
	set(att, "b2");
	set(def, "c3");
	bg_move_init(&in);
	in.roll[0] = 1;
	in.vs[0] = 6;
	is_int(move(att, "c3", &in, &r), 0, "safe attack");
	ok(G.at[sq("b2")] == att && G.pc[att].sq == sq("b2") &&
	    G.pc[def].sq == sq("c3"), "the losing attacker stays; the defender "
	    "does not move");

	/* The Cosmic figure captured ends the game. */
	start(0);
	clear();
	set(att, "b6");
	set(pc(1, "III1"), "c7");	/* k = 0: red 10, purple... */
	set(pc(1, "I1"), "a7");
	bg_move_init(&in);
	in.roll[0] = 6;
	in.vs[0] = 1;
	is_int(move(att, "c7", &in, &r), 0, "an attack on the Cosmic figure");
	ok(G.over && G.winner == 0 && r.att_won, "capturing it wins the game");
	bg_move_init(&in);
	ok(move(pc(1, "I1"), "a6", &in, &r) < 0, "no move after the end");
	is_str(why, "the game is over", "says so");

	/* The Cosmic attacker lost also ends it. */
	start(0);
	clear();
	set(pc(0, "III1"), "c3");
	set(def, "c4");
	bg_move_init(&in);
	in.att_stat = in.def_stat = -1;
	in.statroll[0] = 1;
	in.statroll[1] = 6;
	in.stat = BG_RED;
	in.roll[0] = 1;
	in.vs[0] = 6;
	is_int(move(pc(0, "III1"), "c4", &in, &r), 0, "the Cosmic attacks");
	ok(G.over && G.winner == 1, "and losing it loses the game");

	/* Telepathy and Super Sense. */
	a.f[9].powers = 1u << BG_TELEPATHY | 1u << BG_SUPERSENSE;	/* AI4 */
	bg_start(&G, &a, &b, 0, 0);
	clear();
	set(pc(0, "I4"), "b2");		/* k = 9: red 19, others 5 */
	set(def, "c3");
	bg_move_init(&in);
	in.roll[0] = 4;
	in.vs[0] = 1;
	is_int(move(pc(0, "I4"), "c3", &in, &r), 0, "a Telepathy figure "
	    "attacks from its Staging Zone");
	ok(r.telepathy && r.supersense && G.credit[0] == 1 &&
	    G.credit[1] == 1, "won by 5: Telepathy gives a die move; Super "
	    "Sense is noted; the loser gets hers");
	bg_start(&G, &a, &b, 0, 0);
	clear();
	set(pc(0, "I4"), "b3");
	set(def, "c4");
	bg_move_init(&in);
	in.statroll[0] = 6;
	in.statroll[1] = 1;
	in.stat = BG_YELLOW;
	in.roll[0] = 4;
	in.vs[0] = 1;
	is_int(move(pc(0, "I4"), "c4", &in, &r), 0, "from outside the "
	    "Staging Zone");
	ok(!r.telepathy && G.credit[0] == 0, "Telepathy is off there");
	bg_start(&G, &a, &b, 0, 0);
	clear();
	set(pc(0, "I4"), "b2");
	set(def, "c3");
	bg_move_init(&in);
	in.roll[0] = 1;
	in.vs[0] = 1;	/* 5+1 against 3+1: by 2 */
	is_int(move(pc(0, "I4"), "c3", &in, &r), 0, "a win by 2");
	ok(!r.telepathy, "Telepathy needs more than 2");
}

static void
test_dice(void)
{
	start(0);
	ok(bg_die(&G, 0, 0, -1, why, sizeof why) < 0, "no die move without a "
	    "lost battle");
	G.credit[0] = 1;
	is_int(bg_die(&G, 0, 2, -1, why, sizeof why), 0, "after one, die 3 "
	    "goes to the Dice Zone");
	is_int((int)G.dicezone[0], 4, "it is there");
	ok(bg_die(&G, 0, 3, -1, why, sizeof why) < 0, "one move per credit");
	G.credit[0] = 1;
	ok(bg_die(&G, 0, 2, -1, why, sizeof why) < 0, "die 3 is already "
	    "there");
	G.dicezone[0] = 0x1f;
	ok(bg_die(&G, 0, 5, -1, why, sizeof why) < 0, "five in the zone: a "
	    "sixth needs a swap");
	is_int(bg_die(&G, 0, 5, 0, why, sizeof why), 0, "swapping die 1 back");
	is_int((int)G.dicezone[0], 0x3e, "die 6 in, die 1 out");
	G.credit[0] = 1;
	G.dicezone[0] = 1;
	ok(bg_die(&G, 0, 3, 0, why, sizeof why) < 0, "no swap while there is "
	    "room");
	G.credit[0] = 1;
	is_int(bg_pass(&G, why, sizeof why), 0, "a pass");
	is_int(G.credit[0], 0, "the credit lapses with the next turn");
}

static void
test_powers(void)
{
	struct bg_team a = team("A", 0), b = team("B", 0);
	struct bg_move_in in;
	struct bg_report r;
	int user, victim, other;

	a.f[4].powers = 1u << BG_HYPNOTIZE | 1u << BG_SWAP |
	    1u << BG_TELEPORT;	/* AII3 */
	bg_start(&G, &a, &b, 0, 0);
	rng_seed(&R, 1);
	clear();
	user = pc(0, "II3");
	victim = pc(1, "I3");
	set(user, "c3");
	G.pc[victim].held = 0;	/* captured earlier by A */
	is_int(bg_power(&G, user, BG_HYPNOTIZE, victim, sq("a2"), &r, why,
	    sizeof why), 0, "Hypnotize a captured foe into the Staging Zone");
	ok(G.at[sq("a2")] == victim && G.pc[victim].ctrl == 0 &&
	    G.pc[victim].owner == 1, "it stands there, fighting for A");
	is_int(G.turn, 1, "a power is the turn");
	G.turn = 0;
	ok(bg_power(&G, user, BG_HYPNOTIZE, victim, sq("b2"), &r, why,
	    sizeof why) < 0, "not twice: it is no longer held");
	/* It loses a battle: back to its owner's home rows. */
	set(pc(1, "II1"), "b3");
	bg_move_init(&in);
	in.return_to = sq("e5");	/* b3 is orange: no roll-off */
	in.roll[0] = 1;
	in.vs[0] = 6;
	is_int(move(victim, "b3", &in, &r), 0, "the hypnotized figure "
	    "attacks and loses");
	ok(r.returned && G.pc[victim].sq == sq("e5") && G.pc[victim].ctrl ==
	    1, "it goes back to its owner, on the square the owner chose");

	bg_start(&G, &a, &b, 0, 0);
	clear();
	set(user, "c4");
	other = pc(0, "I1");
	set(other, "a1");
	is_int(bg_power(&G, user, BG_SWAP, -1, sq("a1"), &r, why, sizeof why),
	    0, "Swap Powers with a figure in the Staging Zone");
	ok(G.at[sq("a1")] == user && G.at[sq("c4")] == other, "they change "
	    "places");
	G.turn = 0;
	set(pc(0, "I2"), "a4");
	ok(bg_power(&G, user, BG_SWAP, -1, sq("a4"), &r, why, sizeof why) < 0,
	    "not with one outside the Staging Zone");
	is_int(bg_power(&G, other, BG_TELEPORT, -1, sq("b4"), &r, why,
	    sizeof why), -1, "a figure without Teleport cannot");
	set(pc(0, "I3"), "b2");
	is_int(bg_power(&G, user, BG_TELEPORT, -1, sq("b2"), &r, why,
	    sizeof why), 0, "Teleport swaps with a figure next to it");
	G.turn = 0;
	ok(bg_power(&G, user, BG_TELEPORT, -1, sq("c4"), &r, why,
	    sizeof why) < 0, "not with one two squares off");
	ok(bg_power(&G, user, BG_TELEPATHY, -1, sq("c4"), &r, why,
	    sizeof why) < 0, "Telepathy is not a turn's action");
}

static void
test_release(void)
{
	struct bg_move_in in;
	struct bg_report r;
	int runner = pc(0, "I1");

	start(1);
	clear();
	set(runner, "a7");
	G.pc[pc(0, "II2")].held = 1;	/* held by the foe */
	G.pc[pc(0, "I3")].held = 1;
	bg_move_init(&in);
	is_int(move(runner, "a8", &in, &r), 0, "advanced: a figure reaches "
	    "the far end");
	is_int(r.released, pc(0, "II2"), "the highest level held is freed");
	is_int(r.released_to, sq("a1"), "onto the first empty square of the "
	    "Staging Zone");
	ok(G.pc[pc(0, "II2")].sq == sq("a1") && G.pc[pc(0, "II2")].ctrl == 0,
	    "it is back in play");
	G.turn = 0;
	bg_move_init(&in);
	ok(move(runner, "b8", &in, &r) == 0 && r.released < 0, "moving along "
	    "the far row frees no one");
	start(1);
	clear();
	set(runner, "a7");
	G.pc[pc(0, "II2")].held = 1;
	G.pc[pc(0, "I3")].held = 1;
	bg_move_init(&in);
	in.release = pc(0, "I3");
	in.release_to = sq("d2");
	is_int(move(runner, "a8", &in, &r), 0, "the player may choose whom "
	    "and where");
	ok(G.at[sq("d2")] == pc(0, "I3"), "as chosen");
	G.turn = 0;
	bg_move_init(&in);
	in.release = pc(0, "II2");
	ok(move(runner, "a7", &in, &r) < 0, "no release without reaching the "
	    "far end");
	start(0);
	clear();
	set(runner, "a6");
	G.pc[pc(0, "II2")].held = 1;
	bg_move_init(&in);
	ok(move(runner, "a7", &in, &r) == 0 && r.released < 0, "the basic "
	    "board has no release");
}

static void
test_text(void)
{
	struct bg_figure f;
	struct bg_move_in in;
	char *s;

	is_int(bgtext_figure_parse("Hulk:III*:9,8,5,7,9,6:telepathy+teleport",
	    &f, why, sizeof why), 0, "a figure spec");
	ok(f.level == BG_III && f.cosmic && f.stat[BG_PURPLE] == 6 &&
	    f.powers == (1u << BG_TELEPATHY | 1u << BG_TELEPORT), "read whole");
	s = bgtext_figure_format(&f);
	is_str(s, "Hulk:III*:9,8,5,7,9,6:telepathy+teleport", "written back "
	    "the same");
	free(s);
	ok(bgtext_figure_parse("Hulk:IV:1,2,3,4,5,6", &f, why, sizeof why) < 0,
	    "level IV is refused");
	is_str(why, "figure 'Hulk': level 'IV' is not SA, I, II or III",
	    "with the level");
	ok(bgtext_figure_parse("Hulk:I:1,2,3,4,5", &f, why, sizeof why) < 0,
	    "five stats are refused");
	ok(bgtext_figure_parse("Hulk:I:1,2,3,4,5,100", &f, why, sizeof why) < 0,
	    "a stat over 99 is refused");
	is_str(why, "figure 'Hulk': purple must be a whole number from 0 to "
	    "99, got '100'", "naming the stat");
	ok(bgtext_figure_parse("Big Guy:I:1,2,3,4,5,6", &f, why, sizeof why) <
	    0, "a name with a space is refused");
	ok(bgtext_figure_parse("Hulk:I:1,2,3,4,5,6:flying", &f, why,
	    sizeof why) < 0, "an unknown power is refused");
	{
		struct bg_team t;

		memset(&t, 0, sizeof t);
		ok(bgtext_team_parse("# x\nA:I:1,1,1,1,1,1\n\nB:I:1,1,1,1,x,1\n",
		    &t, why, sizeof why) < 0, "a bad line in a team");
		is_str(why, "line 4: figure 'B': blue must be a whole number "
		    "from 0 to 99, got 'x'", "names its line");
	}
	start(0);
	is_int(bgtext_move_parse(&G, "1:AI1 a3 --roll 3,4 --vs-roll 3,2 --stat "
	    "red", &in, why, sizeof why), 0, "a stored move");
	s = bgtext_move_format(&G, &in);
	is_str(s, "1:AI1 a3 --stat red --roll 3,4 --vs-roll 3,2", "and its "
	    "canonical form");
	free(s);
	ok(bgtext_move_parse(&G, "1:AI1 a3 --kick 1", &in, why, sizeof why) < 0,
	    "an unknown option is refused");
	is_int(bgtext_piece(&G, "bi1", 0, why, sizeof why), pc(1, "I1"), "a "
	    "figure by name, any case");
	is_int(bgtext_piece(&G, "B:BI1", 0, why, sizeof why), pc(1, "I1"),
	    "or by TEAM:NAME");
	ok(bgtext_piece(&G, "C:BI1", 0, why, sizeof why) < 0, "an unknown team");
}

int
main(void)
{
	test_boards();
	test_lineups();
	test_setup();
	test_moves();
	test_stats();
	test_refusals();
	test_battles();
	test_dice();
	test_powers();
	test_release();
	test_text();
	return tap_done();
}
