/*
 * test_fbio.c - the text forms of Force Battles: slots by name, stance
 * words and their text, boards as lines and every refusal of a line,
 * GEAS specs power by power, duelists by name, each round option, stored
 * options and their canonical text.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#include "fb/fb.h"
#include "fb/text.h"

static char why[FB_WHYSZ];
static struct fb_board B;
static const char *const NAMES[2] = { "Luke", "Vader" };

/* The default board of RULINGS 2, as fbtext_board_format writes it. */
#define DEFAULT_BOARD \
	"target head head 1 1\n" \
	"target left-arm left-arm 2 3\n" \
	"target right-arm right-arm 3 2\n" \
	"target torso torso 4 4\n" \
	"target left-leg left-leg 5 6\n" \
	"target right-leg right-leg 6 5\n" \
	"sphere upper-left - head,left-arm\n" \
	"sphere upper-right - head,right-arm\n" \
	"sphere center center head,left-arm,right-arm,torso\n" \
	"sphere left - left-arm,torso\n" \
	"sphere right - right-arm,torso\n" \
	"sphere lower-left lower torso,left-leg\n" \
	"sphere lower-right lower torso,right-leg\n"

static void
test_slots(void)
{
	fb_board_default(&B);
	is_int(fbtext_slot_find(&B, "center"), 2, "a sphere by name");
	is_int(fbtext_slot_find(&B, "LOWER-right"), 6, "  in any case");
	is_int(fbtext_slot_find(&B, "Att"), FB_SLOT_ATT, "att");
	is_int(fbtext_slot_find(&B, "DEF"), FB_SLOT_DEF, "def");
	is_int(fbtext_slot_find(&B, "lightning"), FB_SLOT_GEAS + FB_LIGHTNING,
	    "a GEAS");
	is_int(fbtext_slot_find(&B, "lightning-absorb"), FB_SLOT_GEAS +
	    FB_ABSORB, "  by its other name");
	is_int(fbtext_slot_find(&B, "convert"), -1, "convert is no slot");
	is_int(fbtext_slot_find(&B, "head"), -1, "a target is no slot");
	is_int(fbtext_slot_find(&B, ""), -1, "nothing");
	is_str(fbtext_slot_name(&B, 0), "upper-left", "the first sphere's name");
	is_str(fbtext_slot_name(&B, FB_SLOT_ATT), "att", "att's");
	is_str(fbtext_slot_name(&B, FB_SLOT_DEF), "def", "def's");
	is_str(fbtext_slot_name(&B, FB_SLOT_GEAS + FB_MINDTRICK), "mind-trick",
	    "a GEAS's");
}

/* Applies word to a fresh stance and expects a refusal saying want. */
static void
word_refused(const char *word, const char *want)
{
	struct fb_stance st;

	memset(&st, 0, sizeof st);
	why[0] = '\0';
	is_int(fbtext_stance_word(&B, word, &st, why, sizeof why), -1,
	    "'%s' is refused", word);
	is_str(why, want, "  saying so");
}

static void
test_stances(void)
{
	struct fb_stance st;
	char *s;

	fb_board_default(&B);
	memset(&st, 0, sizeof st);
	is_int(fbtext_stance_word(&B, "center=4", &st, why, sizeof why), 0,
	    "center=4");
	is_int(st.sph[2], 4, "  in the center");
	is_int(fbtext_stance_word(&B, "ATT=50", &st, why, sizeof why), 0,
	    "ATT=50");
	is_int(st.att, 50, "  the most a word gives");
	is_int(fbtext_stance_word(&B, "def=0", &st, why, sizeof why), 0,
	    "def=0");
	is_int(fbtext_stance_word(&B, "hide=2", &st, why, sizeof why), 0,
	    "hide=2");
	is_int(st.geas[FB_HIDE], 2, "  a GEAS slot");
	word_refused("center", "'center' is not SLOT=COUNT");
	word_refused("=3", "'=3' is not SLOT=COUNT");
	word_refused("abcdefghijklmnopqrstuvwxyzabcdef=1", "'abcdefghijklmnop"
	    "qrstuvwxyzabcdef=1' is not SLOT=COUNT");
	word_refused("head=1", "'head' is not a sphere, att, def or a GEAS of "
	    "board 'default'");
	word_refused("center=51", "'center' must be a whole number from 0 to "
	    "50, got '51'");
	word_refused("center=-1", "'center' must be a whole number from 0 to "
	    "50, got '-1'");
	word_refused("center=", "'center' must be a whole number from 0 to "
	    "50, got ''");

	is_int(fbtext_stance_parse(&B, "  center=1 def=2  rage=3 center=4 ",
	    &st, why, sizeof why), 0, "words with spaces, one twice");
	is_int(st.sph[2], 4, "  the last word wins");
	is_int(st.sph[0], 0, "  from zero");
	is_int(st.att, 0, "  att from zero");
	is_int(st.def, 2, "  def");
	s = fbtext_stance_format(&B, &st);
	is_str(s, "upper-left=0 upper-right=0 center=4 left=0 right=0 "
	    "lower-left=0 lower-right=0 att=0 def=2 rage=3", "every sphere, "
	    "att, def and the GEAS held");
	free(s);
	is_int(fbtext_stance_parse(&B, "", &st, why, sizeof why), 0,
	    "no words");
	is_int(fbtext_stance_parse(&B, "left=1 x=2 right=3", &st, why,
	    sizeof why), -1, "a bad word among good ones");
	is_str(why, "'x' is not a sphere, att, def or a GEAS of board "
	    "'default'", "  names it");
	is_int(st.sph[4], 0, "  and the words after it are not read");

	fb_stance_default(&B, &st);
	s = fbtext_stance_format(&B, &st);
	is_str(s, "upper-left=3 upper-right=3 center=3 left=3 right=3 "
	    "lower-left=3 lower-right=3 att=5 def=5", "the default stance");
	free(s);
}

/* Parses text as a board and expects a refusal saying want. */
static void
board_refused(const char *text, const char *want, const char *what)
{
	struct fb_board b;

	memset(&b, 0, sizeof b);
	why[0] = '\0';
	is_int(fbtext_board_parse(text, &b, why, sizeof why), -1, "%s", what);
	is_str(why, want, "  saying so");
}

static void
test_boards(void)
{
	struct fb_board b, d;
	char *s;

	memset(&b, 0, sizeof b);
	snprintf(b.name, sizeof b.name, "mine");
	is_int(fbtext_board_parse("# the default board\n\n  " DEFAULT_BOARD,
	    &b, why, sizeof why), 0, "the default board as text, with a "
	    "comment and blanks");
	is_str(b.name, "mine", "  keeps the caller's name");
	is_int(b.ns, 7, "  seven spheres");
	is_int(b.center, 2, "  the center");
	is_int(b.lower, 1u << 5 | 1u << 6, "  the lower two");
	is_int(b.face[FB_LARM], 2, "  a face");
	is_int(b.alt[FB_LARM], 3, "  an alt face");
	fb_board_default(&d);
	ok(memcmp(b.touch, d.touch, sizeof b.touch) == 0, "  touches as the "
	    "default board's");
	s = fbtext_board_format(&b);
	is_str(s, DEFAULT_BOARD, "written back the same");
	free(s);

	board_refused("target head head 1\n", "line 1: want 'target ROLE NAME "
	    "FACE ALT'", "a target of four words");
	board_refused("target head head 1 1 1\n", "line 1: want 'target ROLE "
	    "NAME FACE ALT'", "a target of six words");
	board_refused("\n# c\ntarget neck neck 1 1\n", "line 3: 'neck' is not "
	    "a target role", "an unknown role, lines counted");
	board_refused("target head head 1 1\ntarget head top 2 2\n", "line 2: "
	    "a second 'head'", "a role twice");
	board_refused("target head he/ad 1 1\n", "line 1: 'he/ad' is not a "
	    "name (letters, digits, '-', '_', '.')", "a bad target name");
	board_refused("target head head 0 1\n", "line 1: faces are 1 to 6",
	    "face 0");
	board_refused("target head head 1 7\n", "line 1: faces are 1 to 6",
	    "alt 7");
	board_refused("sphere a center\n", "line 1: want 'sphere NAME "
	    "center|lower|- TARGET,...'", "a sphere of three words");
	board_refused("sphere a+ - head\n", "line 1: 'a+' is not a name",
	    "a bad sphere name");
	board_refused("sphere a middle head\n", "line 1: a sphere's role is "
	    "center, lower or -", "an unknown sphere role");
	board_refused("sphere a - head,neck\n", "line 1: 'neck' is not a "
	    "target role", "a sphere touching no role");
	board_refused("sphere a - head\nsphere b - head\nsphere c - head\n"
	    "sphere d - head\nsphere e - head\nsphere f - head\n"
	    "sphere g - head\nsphere h - head\nsphere i - head\n",
	    "line 9: more than 8 spheres", "nine spheres");
	board_refused("spheres a - head\n", "line 1: a line starts with "
	    "'target' or 'sphere'", "a misspelt line");
	board_refused("sphere center center head,torso\n", "a board has one "
	    "target of each role: head, left-arm, right-arm, torso, left-leg, "
	    "right-leg", "no targets");
	board_refused("target head head 1 1\n"
	    "target left-arm left-arm 2 3\n"
	    "target right-arm right-arm 3 2\n"
	    "target torso torso 4 4\n"
	    "target left-leg left-leg 5 6\n"
	    "target right-leg right-leg 6 5\n"
	    "sphere a - head,left-arm,right-arm,torso,left-leg,right-leg\n",
	    "a board has exactly one center sphere", "no center");
	board_refused("target head head 1 1\n"
	    "target left-arm left-arm 2 3\n"
	    "target right-arm right-arm 3 2\n"
	    "target torso torso 4 4\n"
	    "target left-leg left-leg 5 6\n"
	    "target right-leg right-leg 6 5\n"
	    "sphere a center head,left-arm,right-arm,torso,left-leg,right-leg\n"
	    "sphere b center head\n",
	    "a board has exactly one center sphere", "two centers");
	board_refused("target head head 1 1\n"
	    "target left-arm left-arm 2 3\n"
	    "target right-arm right-arm 3 2\n"
	    "target torso torso 4 4\n"
	    "target left-leg left-leg 5 6\n"
	    "target right-leg right-leg 6 5\n"
	    "sphere head center head,left-arm,right-arm,torso,left-leg,"
	    "right-leg\n",
	    "'head' names both a sphere and a target", "fb_board_finish's "
	    "refusals come through");
}

/* Parses spec and expects a refusal saying want. */
static void
geas_refused(const char *spec, const char *want)
{
	struct fb_geas_in g;

	why[0] = '\0';
	is_int(fbtext_geas_parse(&B, NAMES, spec, &g, why, sizeof why), -1,
	    "'%s' is refused", spec);
	is_str(why, want, "  saying so");
}

static void
test_geas(void)
{
	struct fb_geas_in g;

	fb_board_default(&B);
	is_int(fbtext_geas_parse(&B, NAMES, "vader:push", &g, why, sizeof why),
	    0, "vader:push");
	is_int(g.who, 1, "  the second duelist, any case");
	is_int(g.power, FB_PUSH, "  push");
	is_int(g.n, 1, "  one counter");
	ok(g.target == -1 && g.from == -1 && g.nspheres == 0, "  nothing "
	    "else");
	is_int(fbtext_geas_parse(&B, NAMES, "Luke:lightning", &g, why,
	    sizeof why), 0, "lightning alone");
	is_int(g.n, 1, "  one counter");
	is_int(fbtext_geas_parse(&B, NAMES, "Luke:lightning:3:center,left", &g,
	    why, sizeof why), 0, "lightning with a count and spheres");
	is_int(g.n, 3, "  three");
	is_int(g.nspheres, 2, "  two spheres");
	ok(g.spheres[0] == 2 && g.spheres[1] == 3, "  center, then left");
	is_int(fbtext_geas_parse(&B, NAMES, "Luke:rage", &g, why, sizeof why),
	    0, "rage alone");
	is_int(g.n, 0, "  all the slot holds");
	is_int(fbtext_geas_parse(&B, NAMES, "Luke:Lightning-Absorb:50", &g, why,
	    sizeof why), 0, "absorb by its other name, 50");
	is_int(g.power, FB_ABSORB, "  absorb");
	is_int(g.n, 50, "  fifty");
	is_int(fbtext_geas_parse(&B, NAMES, "Luke:sight:torso", &g, why,
	    sizeof why), 0, "sight at the torso");
	is_int(g.target, FB_TORSO, "  the target");
	is_int(fbtext_geas_parse(&B, NAMES, "Luke:mind-trick:right-leg", &g, why,
	    sizeof why), 0, "mind-trick at the right leg");
	is_int(g.target, FB_RLEG, "  the target");
	is_int(fbtext_geas_parse(&B, NAMES, "Luke:convert:att", &g, why,
	    sizeof why), 0, "convert from att");
	is_int(g.power, FB_CONVERT, "  convert");
	is_int(g.from, FB_SLOT_ATT, "  from att");

	geas_refused("Luke", "'Luke' is not NAME:POWER");
	geas_refused("", "'' is not NAME:POWER");
	geas_refused("Luke:lightning:1:center:x:y", "'Luke:lightning:1:center:"
	    "x:y': too many parts");
	geas_refused("Yoda:push", "'Yoda' is not in this duel (in it: 'Luke' "
	    "and 'Vader')");
	geas_refused("Vadr:push", "'Vadr' is not in this duel; did you mean "
	    "'Vader'? (in it: 'Luke' and 'Vader')");
	is_int(fbtext_geas_parse(&B, NAMES, "va:push", &g, why, sizeof why),
	    0, "va:push");
	is_int(g.who, 1, "  a unique beginning of the name");
	{
		static const char *const two[2] = { "Ann", "Anakin" };

		is_int(fbtext_who(two, "ANN", why, sizeof why), 0, "ANN: Ann, "
		    "but for case");
		is_int(fbtext_who(two, "an", why, sizeof why), -1, "an");
		is_str(why, "'an' could be 'Anakin' or 'Ann'",
		    "  is ambiguous");
		is_int(fbtext_who(two, "anak", why, sizeof why), 1,
		    "anak: Anakin");
	}
	geas_refused("Luke:fly", "'fly' is not a GEAS");
	geas_refused("Luke:lightning:1:center:x", "lightning takes COUNT and "
	    "SPHERE,SPHERE...");
	geas_refused("Luke:lightning:0", "lightning: '0' is not a count from "
	    "1 to 50");
	geas_refused("Luke:lightning:2:center,neck", "'neck' is not a sphere");
	geas_refused("Luke:lightning:1:center,left", "lightning names at most "
	    "one sphere per counter, 8 in all");
	geas_refused("Luke:protect:1:2", "protect takes one COUNT");
	geas_refused("Luke:rage:51", "rage: '51' is not a count from 1 to 50");
	geas_refused("Luke:sight", "sight takes the TARGET to strike");
	geas_refused("Luke:mind-trick:center", "mind-trick takes the TARGET "
	    "to strike");
	geas_refused("Luke:convert:head", "convert takes the SLOT the counter "
	    "comes from (a sphere, att, def or a GEAS)");
	geas_refused("Luke:heal:2", "heal takes nothing after its name");
}

/* Runs one option on a fresh input; returns its rc. */
static int
option(struct fb_in *in, const char *opt, const char *val)
{
	fb_in_init(in);
	why[0] = '\0';
	return fbtext_in_option(&B, NAMES, opt, val, in, why, sizeof why);
}

static void
test_options(void)
{
	struct fb_in in;

	fb_board_default(&B);
	ok(fbtext_in_is_flag("pass") && fbtext_in_is_flag("kick") &&
	    fbtext_in_is_flag("gain-from-foe"), "the three flags");
	ok(!fbtext_in_is_flag("hit") && !fbtext_in_is_flag("--pass"), "  and "
	    "no others");
	is_int(option(&in, "pass", NULL), 1, "--pass is a flag");
	is_int(in.pass, 1, "  set");
	is_int(option(&in, "kick", NULL), 1, "--kick");
	is_int(in.kick, 1, "  set");
	is_int(option(&in, "gain-from-foe", NULL), 1, "--gain-from-foe");
	is_int(in.gain_foe, 1, "  set");
	is_int(option(&in, "hit", NULL), -1, "--hit without a value");
	is_str(why, "--hit needs a value", "  refused");
	is_int(option(&in, "bogus", "1"), 0, "--bogus is no round option");

	is_int(option(&in, "init", "6,1,3,3"), 2, "--init 6,1,3,3");
	is_int(in.ninit, 4, "  four dice");
	ok(in.init[0] == 6 && in.init[3] == 3, "  in order");
	is_int(option(&in, "hit", "3,4"), 2, "--hit 3,4");
	ok(in.hit[0] == 3 && in.hit[1] == 4, "  both dice");
	is_int(option(&in, "block", "6,6"), 2, "--block 6,6");
	ok(in.block[0] == 6 && in.block[1] == 6, "  both dice");
	is_int(option(&in, "hit", "3"), -1, "--hit 3");
	is_str(why, "--hit takes 2 dice", "  wants two");
	is_int(option(&in, "block", "1,2,3"), -1, "--block 1,2,3");
	is_str(why, "--block: at most 2 dice", "  not three");
	is_int(option(&in, "hit", "3,7"), -1, "--hit 3,7");
	is_str(why, "--hit: a die reads 1 to 6, got '7'", "  names the die");
	is_int(option(&in, "target-die", "5"), 2, "--target-die 5");
	is_int(in.tdie, 5, "  set");
	is_int(option(&in, "damage", "6"), 2, "--damage 6");
	is_int(in.dmg, 6, "  set");
	is_int(option(&in, "gain", "1"), 2, "--gain 1");
	is_int(in.gain, 1, "  set");
	is_int(option(&in, "choke-die", "2"), 2, "--choke-die 2");
	is_int(in.choke, 2, "  set");
	is_int(option(&in, "damage", "2,3"), -1, "--damage 2,3");
	is_str(why, "--damage: at most 1 dice", "  one die");

	is_int(option(&in, "choose", "Left-Leg"), 2, "--choose Left-Leg");
	is_int(in.choose, FB_LLEG, "  the target");
	is_int(option(&in, "choose", "center"), -1, "--choose center");
	is_str(why, "--choose: 'center' is not a target", "  refused");
	is_int(option(&in, "move", "torso@left"), 2, "--move torso@left");
	is_int(in.nmoves, 1, "  one move");
	is_int(in.moves[0], FB_TORSO, "  to the torso");
	is_int(in.movesph[0], 3, "  paid from left");
	is_int(option(&in, "move", "head"), 2, "--move head");
	is_int(in.movesph[0], -1, "  paid from the fullest");
	is_int(option(&in, "move", "neck@left"), -1, "--move neck@left");
	is_str(why, "--move: 'neck' is not a target", "  names the target");
	is_int(option(&in, "move", "head@neck"), -1, "--move head@neck");
	is_str(why, "--move: 'neck' is not a sphere", "  names the sphere");
	fb_in_init(&in);
	for (int k = 0; k < 8; k++)
		fbtext_in_option(&B, NAMES, "move", "head", &in, why,
		    sizeof why);
	is_int(in.nmoves, 8, "eight moves");
	is_int(fbtext_in_option(&B, NAMES, "move", "head", &in, why,
	    sizeof why), -1, "  and a ninth");
	is_str(why, "--move: at most 8 moves", "  refused");

	is_int(option(&in, "pull", "vader:center=2,LEFT=1"), 2, "--pull "
	    "vader:center=2,LEFT=1");
	ok(in.pull[1][2] == 2 && in.pull[1][3] == 1, "  into the second "
	    "duelist's pulls");
	is_int(in.pull[0][2], 0, "  not the first's");
	is_int(option(&in, "pull", "center=2"), -1, "--pull without a name");
	is_str(why, "--pull: want NAME:SPHERE=N,... for a duelist of this "
	    "duel, got 'center=2'", "  refused");
	is_int(option(&in, "pull", "Yoda:center=1"), -1, "--pull Yoda:...");
	is_str(why, "--pull: 'Yoda' is not in this duel (in it: 'Luke' and "
	    "'Vader')", "  refused, naming who is");
	is_int(option(&in, "pull", "l:center=1"), 2, "--pull l:center=1");
	is_int(in.pull[0][2], 1, "  the first duelist's, by the beginning");
	is_int(option(&in, "pull", "Luke:att=1"), -1, "--pull from att");
	is_str(why, "--pull: 'att' is not a sphere", "  spheres only");
	is_int(option(&in, "pull", "Luke:center"), -1, "--pull Luke:center");
	is_str(why, "--pull: 'center' is not SLOT=COUNT", "  wants a count");
	is_int(option(&in, "return", "left=51"), -1, "--return left=51");
	is_str(why, "--return: '51' is not a count from 0 to 50", "  too many");
	is_int(option(&in, "return", "left=2"), 2, "--return left=2");
	is_int(in.ret_set, 1, "  given");
	is_int(in.ret[3], 2, "  two to left");
	is_int(option(&in, "place", "heal=1,center=2"), 2, "--place "
	    "heal=1,center=2");
	is_int(in.place_set, 1, "  given");
	ok(in.place[FB_SLOT_GEAS + FB_HEAL] == 1 && in.place[2] == 2,
	    "  a GEAS slot and a sphere");
	is_int(option(&in, "place", "head=1"), -1, "--place head=1");
	is_str(why, "--place: 'head' is not a sphere or GEAS", "  refused");

	is_int(option(&in, "geas", "Luke:hide"), 2, "--geas Luke:hide");
	is_int(in.ngeas, 1, "  one GEAS");
	is_int(in.geas[0].between, 0, "  before the rolls");
	is_int(option(&in, "after-hit", "Vader:rage:2"), 2, "--after-hit");
	is_int(in.geas[0].between, 1, "  between the rolls");
	is_int(option(&in, "geas", "Luke:fly"), -1, "--geas Luke:fly");
	is_str(why, "'fly' is not a GEAS", "  the spec's reason");
	fb_in_init(&in);
	for (int k = 0; k < 8; k++)
		fbtext_in_option(&B, NAMES, "geas", "Luke:jump", &in, why,
		    sizeof why);
	is_int(fbtext_in_option(&B, NAMES, "geas", "Luke:jump", &in, why,
	    sizeof why), -1, "a ninth GEAS");
	is_str(why, "at most 8 GEAS in one command", "  refused");
}

static void
test_finish(void)
{
	struct fb_in in;

	fb_board_default(&B);
	fb_in_init(&in);
	fbtext_in_option(&B, NAMES, "geas", "Vader:absorb:2", &in, why,
	    sizeof why);
	fbtext_in_option(&B, NAMES, "geas", "Luke:lightning:3", &in, why,
	    sizeof why);
	fbtext_in_option(&B, NAMES, "geas", "Luke:hide", &in, why, sizeof why);
	is_int(fbtext_in_finish(&in, why, sizeof why), 0, "absorb before the "
	    "lightning it answers");
	is_int(in.ngeas, 2, "  merged into it");
	is_int(in.geas[0].power, FB_LIGHTNING, "  the lightning first");
	is_int(in.geas[0].absorb, 2, "  absorbing 2");
	is_int(in.geas[1].power, FB_HIDE, "  then hide");

	fb_in_init(&in);
	fbtext_in_option(&B, NAMES, "geas", "Luke:lightning:3", &in, why,
	    sizeof why);
	fbtext_in_option(&B, NAMES, "geas", "Vader:absorb", &in, why,
	    sizeof why);
	is_int(fbtext_in_finish(&in, why, sizeof why), 0, "absorb with no "
	    "count");
	is_int(in.geas[0].absorb, 3, "  absorbs all the lightning");

	fb_in_init(&in);
	fbtext_in_option(&B, NAMES, "geas", "Luke:lightning:3", &in, why,
	    sizeof why);
	fbtext_in_option(&B, NAMES, "geas", "Luke:absorb:1", &in, why,
	    sizeof why);
	is_int(fbtext_in_finish(&in, why, sizeof why), -1, "absorbing one's "
	    "own lightning");
	is_str(why, "absorb answers the foe's lightning in the same command",
	    "  refused");

	fb_in_init(&in);
	fbtext_in_option(&B, NAMES, "geas", "Luke:lightning:3", &in, why,
	    sizeof why);
	fbtext_in_option(&B, NAMES, "after-hit", "Vader:absorb:1", &in, why,
	    sizeof why);
	is_int(fbtext_in_finish(&in, why, sizeof why), -1, "absorbing a "
	    "lightning of the other moment");
}

/* Parses text and expects a refusal saying want. */
static void
in_refused(const char *text, const char *want)
{
	struct fb_in in;

	why[0] = '\0';
	is_int(fbtext_in_parse(&B, NAMES, text, &in, why, sizeof why), -1,
	    "'%s' is refused", text);
	is_str(why, want, "  saying so");
}

static void
test_parse_format(void)
{
	struct fb_in in;
	char *s, *s2;

	fb_board_default(&B);
	is_int(fbtext_in_parse(&B, NAMES, "", &in, why, sizeof why), 0,
	    "no options");
	s = fbtext_in_format(&B, NAMES, &in);
	is_str(s, "", "  and no text");
	free(s);

	is_int(fbtext_in_parse(&B, NAMES, "--kick  --gain 2 --damage 4 "
	    "--block 5,1 --after-hit Luke:lightning:2:center,left "
	    "--hit 2,2 --pull vader:center=0,right=2 --pass "
	    "--move torso@right --target-die 3 --choose head --init 4,4,6,1 "
	    "--geas Vader:sight:torso --geas luke:convert:hide "
	    "--after-hit Vader:absorb --choke-die 6 --gain-from-foe "
	    "--place lightning=1 --return right=1 --geas Luke:rage:4 "
	    "--geas Vader:push", &in, why, sizeof why), 0, "every option, out "
	    "of order");
	s = fbtext_in_format(&B, NAMES, &in);
	is_str(s, "--geas Vader:sight:torso --geas Luke:convert:hide "
	    "--geas Luke:rage:4 --geas Vader:push --init 4,4,6,1 "
	    "--choose head --target-die 3 --move torso@right --pass "
	    "--pull Vader:right=2 --hit 2,2 "
	    "--after-hit Luke:lightning:2:center,left "
	    "--after-hit Vader:absorb:2 --block 5,1 --choke-die 6 --kick "
	    "--damage 4 --gain-from-foe --gain 2 --place lightning=1 "
	    "--return right=1", "  in the canonical order, names as the duel "
	    "spells them");
	is_int(fbtext_in_parse(&B, NAMES, s, &in, why, sizeof why), 0,
	    "the canonical text parses");
	s2 = fbtext_in_format(&B, NAMES, &in);
	is_str(s2, s, "  to itself");
	free(s);
	free(s2);

	is_int(fbtext_in_parse(&B, NAMES, "--place center=0 --return left=0",
	    &in, why, sizeof why), 0, "a place and a return of nothing");
	s = fbtext_in_format(&B, NAMES, &in);
	is_str(s, "--place upper-left=0 --return upper-left=0", "  still "
	    "written, as the first sphere");
	free(s);

	in_refused("hit 3,4", "'hit' is not an option");
	in_refused("--hit", "'--hit' needs a value");
	in_refused("--bogus 1", "'--bogus' is not a round option");
	in_refused("--hit 3", "--hit takes 2 dice");
	in_refused("--geas Luke:absorb", "absorb answers the foe's lightning "
	    "in the same command");
}

int
main(void)
{
	test_slots();
	test_stances();
	test_boards();
	test_geas();
	test_options();
	test_finish();
	test_parse_format();
	return tap_done();
}
