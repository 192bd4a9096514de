/*
 * test_fb.c - the Force Battles rules with given dice: the board, every
 * stance limit, initiative, the target, every outcome and end, every
 * GEAS and its timing, turning and conversion; then seeded simulations
 * that must never break an invariant.
 */
#include <string.h>

#include "tap.h"

#include "fb/fb.h"

static struct fb_board B;
static char why[FB_WHYSZ];

static struct fb_sheet
sheet(int side, int hand, int level)
{
	struct fb_sheet s;

	memset(&s, 0, sizeof s);
	s.side = side;
	s.hand = hand;
	s.colour = side == FB_DARK ? FB_RED : FB_BLUE;
	s.level = level;
	s.free_geas = -1;
	fb_stance_default(&B, &s.st);
	return s;
}

static int nbad;
static char lastbad[FB_WHYSZ];

static void
bad(void *arg, const char *m)
{
	(void)arg;
	nbad++;
	snprintf(lastbad, sizeof lastbad, "%s", m);
}

static int
check(const struct fb_sheet *s)
{
	nbad = 0;
	lastbad[0] = '\0';
	return fb_sheet_check(&B, s, bad, NULL);
}

/* Ann (Light, right) against Bob (Dark, left), Learners unless changed. */
static struct fb_state S;
static struct fb_sheet SA, SB;
static struct rng R;

static void
duel(void)
{
	fb_start(&S, &B, &SA, &SB);
	rng_seed(&R, 1);
}

static void
reset(void)
{
	SA = sheet(FB_LIGHT, FB_RIGHT, FB_LEARNER);
	SB = sheet(FB_DARK, FB_LEFT, FB_LEARNER);
}

static int
geas(int who, int power, int n, int target)
{
	struct fb_geas_in g;
	struct fb_report r;

	memset(&g, 0, sizeof g);
	g.who = who;
	g.power = power;
	g.n = n;
	g.target = target;
	g.from = -1;
	return fb_geas(&S, &g, &R, &r, why, sizeof why);
}

/* Initiative with dice a, b (then more pairs if given). */
static int
init2(int a, int b)
{
	struct fb_in in;
	struct fb_report r;

	fb_in_init(&in);
	in.init[0] = (int8_t)a;
	in.init[1] = (int8_t)b;
	in.ninit = 2;
	return fb_initiative(&S, &in, &R, &r, why, sizeof why);
}

static struct fb_report RR;

static int
round_in(struct fb_in *in)
{
	return fb_round(&S, in, &R, &RR, why, sizeof why);
}

static void
dice2(int8_t *d, int a, int b)
{
	d[0] = (int8_t)a;
	d[1] = (int8_t)b;
}

static int
sphere(const char *n)
{
	return fb_sphere_find(&B, n);
}

static int
sum_sph(int who)
{
	int n = 0;

	for (int i = 0; i < B.ns; i++)
		n += S.p[who].sph[i];
	return n;
}

static void
test_board(void)
{
	fb_board_default(&B);
	is_int(B.ns, 7, "seven spheres");
	ok(fb_touches(&B, sphere("center"), FB_HEAD) &&
	    fb_touches(&B, sphere("center"), FB_TORSO) &&
	    !fb_touches(&B, sphere("center"), FB_LLEG), "center touches "
	    "head, arms, torso");
	is_int(B.tn[FB_LLEG], 1, "only lower-left touches the left leg");
	is_int(B.table[0][2], FB_LARM, "first table: 2 is the left arm");
	is_int(B.table[1][2], FB_RARM, "other table: 2 is the right arm");
	is_int(B.table[1][6], FB_LLEG, "other table: 6 is the left leg");
	{
		struct fb_board b2 = B;

		b2.alt[FB_HEAD] = 2;
		ok(fb_board_finish(&b2, why, sizeof why) < 0,
		    "a face used twice is refused: %s", why);
		b2 = B;
		b2.touch[2] &= ~(1u << FB_HEAD);
		b2.touch[0] &= ~(1u << FB_HEAD);
		b2.touch[1] &= ~(1u << FB_HEAD);
		ok(fb_board_finish(&b2, why, sizeof why) < 0,
		    "an untouched target is refused: %s", why);
	}
}

static void
test_sheets(void)
{
	struct fb_sheet s;

	s = sheet(FB_LIGHT, FB_RIGHT, FB_LEARNER);
	is_int(check(&s), 0, "the default learner is legal");
	is_int(fb_level_total(FB_LEARNER), 31, "learner has 31");
	is_int(fb_level_total(FB_INITIATE), 35, "initiate 35");
	is_int(fb_level_total(FB_TEMPLAR), 40, "templar 40");
	is_int(fb_level_total(FB_DIAMEDES), 50, "diamedes 50");
	s.colour = FB_RED;
	is_int(check(&s), 1, "light may not play red: %s", lastbad);
	s = sheet(FB_DARK, FB_RIGHT, FB_LEARNER);
	s.colour = FB_GREEN;
	is_int(check(&s), 1, "dark plays red only: %s", lastbad);
	s = sheet(FB_LIGHT, FB_RIGHT, FB_LEARNER);
	s.st.sph[0] = 5;
	s.st.sph[1] = 1;
	is_int(check(&s), 1, "a sphere above 4: %s", lastbad);
	s = sheet(FB_LIGHT, FB_RIGHT, FB_TEMPLAR);
	s.st.att = 11;
	is_int(check(&s), 1, "ATT above 10: %s", lastbad);
	s = sheet(FB_LIGHT, FB_RIGHT, FB_TEMPLAR);
	s.st.def = 11;
	is_int(check(&s), 1, "DEF above 10: %s", lastbad);
	s = sheet(FB_LIGHT, FB_RIGHT, FB_LEARNER);
	s.st.sph[0] = 2;
	is_int(check(&s), 1, "a learner's spheres hold exactly 21: %s",
	    lastbad);
	s = sheet(FB_LIGHT, FB_RIGHT, FB_INITIATE);
	s.st.sph[0] = 4;
	is_int(check(&s), 1, "so do an initiate's: %s", lastbad);
	s = sheet(FB_LIGHT, FB_RIGHT, FB_TEMPLAR);
	s.st.sph[0] = 4;
	is_int(check(&s), 0, "a templar may put 22 in the spheres");
	s.st.sph[1] = 2;
	s.st.sph[2] = 2;
	is_int(check(&s), 1, "but not 20: %s", lastbad);
	s = sheet(FB_LIGHT, FB_RIGHT, FB_LEARNER);
	s.st.att = 6;
	is_int(check(&s), 1, "a learner places at most 31: %s", lastbad);
	s = sheet(FB_LIGHT, FB_RIGHT, FB_LEARNER);
	s.st.att = 4;
	s.st.geas[FB_RAGE] = 1;
	is_int(check(&s), 1, "no Dark GEAS on the Light side: %s", lastbad);
	s = sheet(FB_DARK, FB_RIGHT, FB_LEARNER);
	s.st.att = 4;
	s.st.geas[FB_HEAL] = 1;
	is_int(check(&s), 1, "no Light GEAS on the Dark side: %s", lastbad);
	s = sheet(FB_LIGHT, FB_RIGHT, FB_TEMPLAR);
	s.free_geas = FB_PUSH;
	is_int(check(&s), 1, "only a diamedes has a free GEAS: %s", lastbad);
	s = sheet(FB_LIGHT, FB_RIGHT, FB_DIAMEDES);
	s.free_geas = FB_CHOKE;
	is_int(check(&s), 1, "the free GEAS keeps its side: %s", lastbad);
	s.free_geas = FB_HEAL;
	is_int(check(&s), 0, "a Light diamedes may have Heal free");
	s = sheet(FB_DARK, FB_RIGHT, FB_LEARNER);
	s.colour = FB_GREEN;
	s.st.sph[0] = 5;
	s.st.att = 12;
	is_int(check(&s), 5, "every broken limit is reported: colour, "
	    "sphere, ATT, the 21, the 31");
}

static void
test_initiative(void)
{
	reset();
	duel();
	ok(init2(5, 2) == 0 && S.attacker == 0, "high roll attacks");
	reset();
	SA.st.att = 4;
	SA.st.def = 6;
	duel();
	ok(init2(3, 3) == 0 && S.attacker == 1, "a first tie goes to the "
	    "higher ATT");
	reset();
	duel();
	{
		struct fb_in in;
		struct fb_report r;

		fb_in_init(&in);
		dice2(in.init, 4, 4);
		dice2(in.init + 2, 1, 6);
		in.ninit = 4;
		ok(fb_initiative(&S, &in, &R, &r, why, sizeof why) == 0 &&
		    S.attacker == 1 && in.ninit == 4, "a first tie on equal "
		    "ATT is rolled again");
		fb_in_init(&in);
		dice2(in.init, 6, 1);
		dice2(in.init + 2, 1, 6);
		in.ninit = 4;
		S.stage = FB_OPEN;
		S.last_attacker = -1;
		ok(fb_initiative(&S, &in, &R, &r, why, sizeof why) < 0,
		    "unused initiative dice are refused: %s", why);
	}
	reset();
	duel();
	init2(6, 1);
	{
		struct fb_in in;

		fb_in_init(&in);
		in.pass = 1;
		round_in(&in);
	}
	ok(init2(2, 2) == 0 && S.attacker == 1, "a later tie swaps roles");
	reset();
	SB.st.att = 4;
	SB.st.geas[FB_SPEED] = 1;
	duel();
	ok(geas(1, FB_SPEED, 1, -1) == 0, "speed declared");
	ok(init2(6, 1) < 0, "no dice when Speed settles it: %s", why);
	{
		struct fb_in in;
		struct fb_report r;

		fb_in_init(&in);
		ok(fb_initiative(&S, &in, &R, &r, why, sizeof why) == 0 &&
		    S.attacker == 1 && r.init_how == FB_I_SPEED,
		    "speed wins initiative");
	}
	is_int(S.p[1].geas[FB_SPEED], 0, "speed spent");
	is_int(S.p[1].pool, 1, "to the pool");
	ok(geas(1, FB_SPEED, 1, -1) < 0, "speed after initiative is refused: "
	    "%s", why);
}

static void
test_target(void)
{
	struct fb_in in;
	struct fb_report r;

	reset();
	duel();
	init2(6, 1);
	fb_in_init(&in);
	in.choose = FB_TORSO;
	ok(fb_aim(&S, &in, &R, &r, why, sizeof why) == 0 &&
	    S.target == FB_TORSO, "round one: the attacker chooses");
	fb_in_init(&in);
	in.pass = 1;
	round_in(&in);
	init2(6, 1);
	fb_in_init(&in);
	in.choose = FB_HEAD;
	ok(fb_aim(&S, &in, &R, &r, why, sizeof why) < 0, "round two: no "
	    "choice: %s", why);
	fb_in_init(&in);
	in.tdie = 2;
	in.moves[0] = FB_HEAD;
	in.movesph[0] = -1;
	in.nmoves = 1;
	ok(fb_aim(&S, &in, &R, &r, why, sizeof why) == 0, "die then a move");
	is_int(r.base_target, FB_LARM, "Light right-hander: 2 is the left "
	    "arm");
	is_int(S.target, FB_HEAD, "moved to the head");
	is_int(in.movesph[0], sphere("upper-left"), "paid from upper-left "
	    "(fullest joining sphere, board order)");
	is_int(S.p[0].sph[sphere("upper-left")], 2, "one counter paid");
	is_int(S.p[0].pool, 1, "into the pool");
	reset();
	duel();
	init2(1, 6);
	fb_in_init(&in);
	in.pass = 1;
	round_in(&in);
	init2(1, 6);
	fb_in_init(&in);
	in.tdie = 2;
	in.moves[0] = FB_LLEG;
	in.movesph[0] = -1;
	in.nmoves = 1;
	ok(fb_aim(&S, &in, &R, &r, why, sizeof why) < 0, "a move to a target "
	    "not next to it is refused: %s", why);
	fb_in_init(&in);
	in.tdie = 2;
	ok(fb_aim(&S, &in, &R, &r, why, sizeof why) == 0 &&
	    r.base_target == FB_LARM, "a Dark left-hander uses the first "
	    "table too: 2 is the left arm");
}

/* The attacker, who may choose this round, chooses target t. */
static void
choose(int t)
{
	struct fb_in in;
	struct fb_report r;

	fb_in_init(&in);
	in.choose = t;
	fb_aim(&S, &in, &R, &r, why, sizeof why);
}

/* A round from a fresh duel: Ann attacks the torso, chosen. */
static void
fresh_attack(void)
{
	duel();
	init2(6, 1);
	choose(FB_TORSO);
}

static void
test_outcomes(void)
{
	struct fb_in in;

	/* hit and block: the defender's counters go back, the attacker's
	 * are spent. */
	reset();
	fresh_attack();
	fb_in_init(&in);
	in.pull[1][sphere("center")] = 2;
	in.pull[1][sphere("left")] = 1;
	in.pull[0][sphere("right")] = 1;
	dice2(in.hit, 3, 3);
	dice2(in.block, 4, 4);
	ok(round_in(&in) == 0 && RR.outcome == FB_O_HITBLOCK, "hit-block");
	is_int(RR.hit_die, 6, "Hit Die = ATT 5 + 1");
	is_int(RR.block_die, 8, "Block Die = DEF 5 + 3");
	is_int(S.p[1].sph[sphere("center")], 3, "defender's counters back");
	is_int(S.p[0].sph[sphere("right")], 2, "attacker's pull spent");
	is_int(S.p[0].pool, 1, "to her pool");

	/* botch and block: the gain, from the defender's own pool. */
	reset();
	SB.level = FB_INITIATE;		/* 35: 4 in the pool */
	SB.st.sph[0] = 2;
	SB.st.sph[1] = 4;
	fresh_attack();
	fb_in_init(&in);
	dice2(in.hit, 6, 6);
	dice2(in.block, 1, 1);
	in.gain = 3;
	ok(round_in(&in) == 0 && RR.outcome == FB_O_BOTCHBLOCK,
	    "botch-block");
	is_int(RR.gained, 3, "gains the die, 3");
	is_int(S.p[1].pool, 1, "from her pool");
	is_int(S.p[1].sph[0], 4, "fewest first: upper-left 2 -> 4 ...");
	is_int(S.p[1].sph[2], 4, "... then center 3 -> 4");

	/* The Dark defender may take from the foe's pool. */
	reset();
	SA.level = FB_INITIATE;
	fresh_attack();
	fb_in_init(&in);
	dice2(in.hit, 6, 6);
	dice2(in.block, 1, 1);
	in.gain = 6;
	in.gain_foe = 1;
	ok(round_in(&in) == 0 && RR.gained == 4 && S.p[0].pool == 0,
	    "Dark takes 4 (all there is) from the foe's pool");

	/* A Light defender taking red counters turns to the Dark side. */
	reset();
	SA.st.att = 4;
	SA.st.def = 5;
	SA.st.geas[FB_HEAL] = 1;
	SB.level = FB_INITIATE;
	duel();
	init2(1, 6);
	choose(FB_TORSO);
	fb_in_init(&in);
	dice2(in.hit, 6, 6);
	dice2(in.block, 1, 1);
	in.gain = 2;
	in.gain_foe = 1;
	ok(round_in(&in) == 0 && RR.turned == 0, "Ann takes red counters");
	ok(S.p[0].side == FB_DARK && S.p[0].colour == FB_RED, "and turns "
	    "Dark, red");
	is_int(S.p[0].geas[FB_HEAL], 0, "losing her Light GEAS");

	/* Two Light duelists: no taking from the foe. */
	reset();
	SB = sheet(FB_LIGHT, FB_LEFT, FB_INITIATE);
	fresh_attack();
	fb_in_init(&in);
	dice2(in.hit, 6, 6);
	dice2(in.block, 1, 1);
	in.gain_foe = 1;
	ok(round_in(&in) < 0, "Light takes from no pool but her own: %s",
	    why);

	/* double botch: nothing spent, both re-stance, target chosen. */
	reset();
	fresh_attack();
	fb_in_init(&in);
	in.pull[0][sphere("center")] = 2;
	dice2(in.hit, 6, 6);
	dice2(in.block, 6, 6);
	ok(round_in(&in) == 0 && RR.outcome == FB_O_DOUBLEBOTCH,
	    "double botch");
	is_int(S.p[0].sph[sphere("center")], 3, "the attacker's counters go "
	    "back");
	is_int(S.restance, 3, "both may re-stance");
	is_int(S.choose, 1, "next target is chosen");
	{
		struct fb_stance st;

		memset(&st, 0, sizeof st);
		for (int i = 0; i < 7; i++)
			st.sph[i] = 3;
		st.att = 10;
		ok(fb_restance(&S, 0, &st, why, sizeof why) == 0 &&
		    S.p[0].att == 10, "re-stance: ATT 10, DEF 0");
		st.att = 9;
		ok(fb_restance(&S, 1, &st, why, sizeof why) < 0, "a re-stance "
		    "keeps the count: %s", why);
		ok(fb_restance(&S, 0, &st, why, sizeof why) < 0, "only once: "
		    "%s", why);
	}

	/* An unblocked hit: damage below the counters. */
	reset();
	fresh_attack();
	fb_in_init(&in);
	in.pull[1][sphere("center")] = 3;
	in.pull[1][sphere("left")] = 2;
	dice2(in.hit, 1, 1);
	dice2(in.block, 6, 6);
	in.dmg = 3;
	ok(round_in(&in) == 0 && RR.outcome == FB_O_HIT && RR.lost == 3,
	    "hit: damage 3 takes 3 of 5");
	is_int(S.p[1].pool, 3, "to the defender's pool");
	is_int(sum_sph(1), 18, "2 go back");
	is_int(S.p[1].sph[sphere("center")], 1, "losses from the largest "
	    "pull first");
	ok(!S.over, "not maimed");

	/* Damage equal to the counters maims. */
	reset();
	fresh_attack();
	fb_in_init(&in);
	in.pull[1][sphere("center")] = 2;
	dice2(in.hit, 1, 1);
	dice2(in.block, 6, 6);
	in.dmg = 2;
	ok(round_in(&in) == 0 && S.over && S.end == FB_E_MAIMED &&
	    S.winner == 0, "damage 2 on 2 counters maims: Ann wins");
	ok(round_in(&in) < 0, "no round after the end: %s", why);

	/* 11 or more misses by itself; Rage and Protect lift it. */
	reset();
	fresh_attack();
	fb_in_init(&in);
	in.pull[0][sphere("center")] = 3;
	in.pull[0][sphere("right")] = 3;
	dice2(in.hit, 1, 1);
	dice2(in.block, 1, 1);
	ok(round_in(&in) == 0 && RR.hit_die == 11 && RR.hit_auto &&
	    !RR.hit_ok, "Hit Die 11 misses on a roll of 2");
	reset();
	SB.st.att = 3;
	SB.st.geas[FB_RAGE] = 2;
	duel();
	init2(1, 6);
	choose(FB_HEAD);
	ok(geas(1, FB_RAGE, 2, -1) == 0, "Bob rages with 2");
	fb_in_init(&in);
	in.pull[1][sphere("center")] = 3;
	in.pull[1][sphere("left")] = 3;
	dice2(in.hit, 6, 5);
	dice2(in.block, 6, 6);
	in.dmg = 1;
	ok(round_in(&in) == 0 && RR.hit_die == 11 && !RR.hit_auto &&
	    RR.hit_ok, "Rage: Hit Die 11 (3+6+2) hits on 11");
	ok(S.over && S.winner == 1, "the head, unguarded, is maimed");
	reset();
	SA.st.def = 3;
	SA.st.geas[FB_PROTECT] = 2;
	duel();
	init2(1, 6);
	choose(FB_TORSO);
	ok(geas(0, FB_PROTECT, 2, -1) == 0, "Ann protects with 2");
	fb_in_init(&in);
	in.pull[0][sphere("center")] = 3;
	in.pull[0][sphere("left")] = 3;
	dice2(in.hit, 1, 1);
	dice2(in.block, 6, 5);
	ok(round_in(&in) == 0 && RR.block_die == 11 && RR.block_ok,
	    "Protect: Block Die 11 blocks on 11");
	is_int(S.p[0].pool, 2, "Protect's counters spent");

	/* The kick. */
	reset();
	SB.level = FB_INITIATE;
	fresh_attack();
	fb_in_init(&in);
	in.pull[0][sphere("center")] = 1;
	dice2(in.hit, 1, 1);
	dice2(in.block, 6, 6);
	in.kick = 1;
	ok(round_in(&in) == 0 && RR.outcome == FB_O_KICK, "kick");
	is_int(S.p[0].sph[sphere("center")], 3, "the kick spends nothing");
	is_int(S.p[0].sph[sphere("upper-left")], 4, "the gained counter goes "
	    "to the first of the emptiest spheres");
	is_int(S.p[1].pool, 3, "taken from the foe's pool");
	ok(S.earned == 0 && (S.restance & 1), "initiative earned, stance free");
	ok(init2(1, 6) < 0, "no dice for an earned initiative: %s", why);
	{
		struct fb_in a;
		struct fb_report r;

		fb_in_init(&a);
		ok(fb_initiative(&S, &a, &R, &r, why, sizeof why) == 0 &&
		    S.attacker == 0 && r.init_how == FB_I_EARNED,
		    "the kicker attacks");
	}
	reset();
	fresh_attack();
	fb_in_init(&in);
	dice2(in.hit, 6, 6);
	dice2(in.block, 6, 6);
	in.kick = 1;
	ok(round_in(&in) < 0, "no kick without an unblocked hit: %s", why);

	/* Legs: two hits on the legs end the duel. */
	reset();
	SA.level = SB.level = FB_TEMPLAR;
	duel();
	for (int leg = FB_LLEG; leg <= FB_RLEG; leg++) {
		S.choose = 1;
		init2(6, 1);
		choose(leg);
		fb_in_init(&in);
		in.pull[1][sphere(leg == FB_LLEG ? "lower-left" :
		    "lower-right")] = 3;
		dice2(in.hit, 1, 1);
		dice2(in.block, 6, 6);
		in.dmg = 1;
		round_in(&in);
	}
	ok(S.over && S.end == FB_E_LEGS && S.winner == 0, "both legs hit: "
	    "the duel ends");

	/* Cut off: the attacker empties the only sphere of a leg. */
	reset();
	SA.hand = FB_LEFT;	/* left hand: left-arm, touched by ... */
	SA.st.sph[sphere("lower-left")] = 0;
	SA.st.sph[sphere("upper-left")] = 4;
	SA.st.sph[sphere("left")] = 4;
	SA.st.sph[sphere("center")] = 4;
	SA.st.sph[sphere("right")] = 3;
	SA.st.sph[sphere("upper-right")] = 3;
	SA.st.sph[sphere("lower-right")] = 3;
	SA.st.att = 5;
	SA.st.def = 5;
	duel();
	init2(6, 1);
	fb_in_init(&in);
	in.pass = 1;
	ok(round_in(&in) == 0 && S.over && S.end == FB_E_CUTOFF &&
	    S.winner == 1, "a board with an empty lower-left is cut off from "
	    "the left leg: Bob wins");
}

static void
test_geas(void)
{
	struct fb_in in;
	struct fb_geas_in g;
	struct fb_report r;

	/* Hide: the foe's GEAS cannot reach her. */
	reset();
	SA.st.att = 4;
	SA.st.geas[FB_HIDE] = 1;
	SB.st.att = 4;
	SB.st.geas[FB_LIGHTNING] = 1;
	duel();
	ok(geas(0, FB_HIDE, 1, -1) == 0, "Ann hides");
	ok(geas(1, FB_LIGHTNING, 1, -1) < 0, "Bob's lightning cannot reach "
	    "her: %s", why);
	init2(6, 1);
	ok(geas(0, FB_HIDE, 1, -1) < 0, "hide only before initiative");

	/* Lightning, answered by Absorb. */
	reset();
	SA.st.att = 3;
	SA.st.geas[FB_ABSORB] = 2;
	SB.st.att = 2;
	SB.st.geas[FB_LIGHTNING] = 3;
	duel();
	memset(&g, 0, sizeof g);
	g.who = 1;
	g.power = FB_LIGHTNING;
	g.n = 3;
	g.absorb = 1;
	g.spheres[0] = g.spheres[1] = g.spheres[2] = sphere("center");
	g.nspheres = 3;
	ok(fb_geas(&S, &g, &R, &r, why, sizeof why) == 0, "lightning 3, one "
	    "absorbed");
	is_int(r.lightning, 2, "two counters taken");
	is_int(S.p[0].sph[sphere("center")], 1, "from the center");
	is_int(S.p[0].pool, 3, "to Ann's pool (2 + the absorb counter)");
	is_int(S.p[0].geas[FB_ABSORB], 1, "one absorb counter left");
	is_int(S.p[1].pool, 3, "Bob's lightning spent");
	ok(geas(1, FB_LIGHTNING, 1, -1) < 0, "once a round: %s", why);

	/* Sight and Mind Trick, alone and together. */
	reset();
	SA.st.att = 4;
	SA.st.geas[FB_SIGHT] = 1;
	SB.st.att = 4;
	SB.st.geas[FB_MINDTRICK] = 1;
	duel();
	init2(6, 1);
	ok(geas(0, FB_SIGHT, 1, FB_HEAD) == 0, "Ann's sight on the head");
	ok(geas(1, FB_SIGHT, 1, FB_HEAD) < 0, "sight is the attacker's: %s",
	    why);
	fb_in_init(&in);
	in.tdie = 4;
	dice2(in.hit, 6, 6);
	dice2(in.block, 1, 1);
	ok(round_in(&in) == 0 && RR.sight && RR.target == FB_HEAD, "Sight "
	    "strikes the head; the die said torso");
	init2(6, 1);
	ok(geas(1, FB_MINDTRICK, 1, FB_LLEG) == 0, "Bob's mind trick");
	fb_in_init(&in);
	in.tdie = 1;
	dice2(in.hit, 6, 6);
	dice2(in.block, 1, 1);
	ok(round_in(&in) == 0 && RR.mt && RR.target == FB_LLEG, "Mind Trick "
	    "moves the attack to the left leg");
	reset();
	SA.st.att = 4;
	SA.st.geas[FB_SIGHT] = 1;
	SB.st.att = 4;
	SB.st.geas[FB_MINDTRICK] = 1;
	duel();
	init2(6, 1);
	ok(geas(0, FB_SIGHT, 1, FB_HEAD) == 0, "sight");
	ok(geas(1, FB_MINDTRICK, 1, FB_LLEG) == 0, "mind trick: %s", why);
	fb_in_init(&in);
	in.choose = FB_TORSO;
	dice2(in.hit, 6, 6);
	dice2(in.block, 1, 1);
	ok(round_in(&in) == 0 && !RR.sight && !RR.mt &&
	    RR.target == FB_TORSO, "Sight and Mind Trick cancel");
	is_int(S.p[0].geas[FB_SIGHT] + S.p[1].geas[FB_MINDTRICK], 0,
	    "both spent");

	/* Push, Pull, Jump after the Hit roll. */
	reset();
	SA.st.att = 3;
	SA.st.geas[FB_PULL] = 2;
	SB.st.att = 3;
	SB.st.geas[FB_PUSH] = 1;
	SB.st.geas[FB_JUMP] = 1;
	fresh_attack();
	fb_in_init(&in);
	dice2(in.hit, 1, 1);
	dice2(in.block, 1, 1);
	in.geas[0].who = 1;
	in.geas[0].power = FB_PUSH;
	in.geas[0].n = 1;
	in.geas[0].between = 1;
	in.ngeas = 1;
	ok(round_in(&in) == 0 && RR.outcome == FB_O_DOUBLEBOTCH, "Push: both "
	    "miss, a double botch");
	S.restance = 0;
	init2(6, 1);
	fb_in_init(&in);
	in.choose = FB_TORSO;
	dice2(in.hit, 6, 6);
	dice2(in.block, 1, 1);
	in.geas[0].who = 0;
	in.geas[0].power = FB_PULL;
	in.geas[0].n = 1;
	in.geas[0].between = 1;
	in.ngeas = 1;
	ok(round_in(&in) == 0 && RR.outcome == FB_O_HITBLOCK, "Pull: hit and "
	    "block; no gain for Bob");
	init2(6, 1);
	fb_in_init(&in);
	in.tdie = 4;
	dice2(in.hit, 1, 1);
	dice2(in.block, 1, 1);
	in.gain = 1;
	in.geas[0].who = 1;
	in.geas[0].power = FB_JUMP;
	in.geas[0].n = 1;
	in.geas[0].between = 1;
	in.ngeas = 1;
	ok(round_in(&in) == 0 && RR.outcome == FB_O_BOTCHBLOCK, "Jump: the "
	    "attack misses");
	reset();
	SA.st.att = 4;
	SA.st.geas[FB_PULL] = 1;
	SB.st.att = 4;
	SB.st.geas[FB_PUSH] = 1;
	fresh_attack();
	ok(geas(0, FB_PULL, 1, -1) == 0 && geas(1, FB_PUSH, 1, -1) == 0,
	    "push and pull before the rolls");
	fb_in_init(&in);
	dice2(in.hit, 1, 1);
	dice2(in.block, 6, 6);
	in.dmg = 6;
	ok(round_in(&in) == 0 && RR.outcome == FB_O_HIT, "Push and Pull "
	    "cancel: the dice decide");
	reset();
	SA.st.att = 4;
	SA.st.geas[FB_RAGE] = 0;
	SA.st.geas[FB_PUSH] = 1;
	fresh_attack();
	fb_in_init(&in);
	in.geas[0].who = 0;
	in.geas[0].power = FB_SIGHT;
	in.geas[0].target = FB_HEAD;
	in.geas[0].n = 1;
	in.geas[0].between = 1;
	in.ngeas = 1;
	ok(round_in(&in) < 0, "Sight cannot wait for the Hit roll: %s", why);
	ok(geas(1, FB_JUMP, 1, -1) < 0, "jump needs counters: %s", why);

	/* Heal instead of the gain. */
	reset();
	SB.level = FB_INITIATE;
	SB.st.att = 4;
	SB.st.geas[FB_HEAL] = 1;
	SB = sheet(FB_LIGHT, FB_LEFT, FB_INITIATE);
	SB.st.att = 4;
	SB.st.geas[FB_HEAL] = 1;
	SB.st.sph[0] = 1;
	SB.st.sph[1] = 1;
	SB.st.sph[2] = 4;
	SB.st.sph[3] = 4;
	SB.st.sph[4] = 4;
	fresh_attack();
	ok(geas(1, FB_HEAL, 1, -1) == 0, "Bob (Light) declares Heal");
	fb_in_init(&in);
	dice2(in.hit, 6, 6);
	dice2(in.block, 1, 1);
	ok(round_in(&in) == 0 && RR.healed == 4, "Heal fills the two "
	    "spheres at 1 up to 3 from the pool (4 counters)");
	ok(S.p[1].sph[0] == 3 && S.p[1].sph[1] == 3 && S.p[1].sph[2] == 4,
	    "spheres at 3, the full ones kept");
	is_int(RR.gained, 0, "no gain with Heal");

	/* Choke. */
	reset();
	SB.st.att = 4;
	SB.st.geas[FB_CHOKE] = 1;
	duel();
	init2(1, 6);
	ok(geas(0, FB_CHOKE, 1, -1) < 0, "choke is Dark only: %s", why);
	ok(geas(1, FB_CHOKE, 1, -1) == 0, "Bob chokes");
	fb_in_init(&in);
	in.pull[0][sphere("upper-left")] = 3;
	in.choke = 5;
	ok(round_in(&in) == 0 && RR.outcome == FB_O_CHOKE, "choke round");
	is_int(RR.choked_sphere, 3, "3 from the center");
	is_int(RR.choked_head, 2, "2 from the head's 3");
	ok(!S.over, "the head holds");
	is_int(S.p[0].sph[sphere("center")], 0, "center empty");
	is_int(S.p[0].sph[sphere("upper-left")], 1, "one back to upper-left");
	reset();
	SB.st.att = 4;
	SB.st.geas[FB_CHOKE] = 1;
	duel();
	init2(1, 6);
	geas(1, FB_CHOKE, 1, -1);
	fb_in_init(&in);
	in.choke = 4;
	ok(round_in(&in) == 0 && S.over && S.end == FB_E_MAIMED &&
	    S.winner == 1, "a choke past the center on an unguarded head "
	    "maims");

	/* The free GEAS of a diamedes. */
	reset();
	SA = sheet(FB_LIGHT, FB_RIGHT, FB_DIAMEDES);
	SA.free_geas = FB_JUMP;
	duel();
	init2(1, 6);
	ok(geas(0, FB_JUMP, 1, -1) == 0, "free Jump with an empty slot");
	is_int(S.p[0].pool, 50 - 31, "costs nothing");

	/* Conversion through the center sphere. */
	reset();
	SB.st.sph[sphere("center")] = 0;
	SB.st.sph[sphere("upper-left")] = 4;
	SB.st.sph[sphere("upper-right")] = 4;
	SB.st.sph[sphere("left")] = 4;
	SB.st.sph[sphere("right")] = 3;
	SB.st.sph[sphere("lower-left")] = 3;
	SB.st.sph[sphere("lower-right")] = 3;
	duel();
	for (int k = 0; k < 4; k++) {
		struct fb_in p;

		memset(&g, 0, sizeof g);
		g.who = 0;
		g.power = FB_CONVERT;
		g.from = FB_SLOT_ATT;
		ok(fb_geas(&S, &g, &R, &r, why, sizeof why) == 0,
		    "gift %d", k + 1);
		if (k == 0)
			ok(fb_geas(&S, &g, &R, &r, why, sizeof why) < 0,
			    "one gift a round: %s", why);
		if (S.over)
			break;
		init2(1, 6);
		fb_in_init(&p);
		p.pass = 1;
		round_in(&p);
	}
	ok(S.over && S.end == FB_E_CONVERTED && S.winner == 0, "four gifts "
	    "fill the center: converted, Ann wins");
	is_int(S.p[0].att, 1, "from Ann's ATT");
}

/* Long seeded simulations never break an invariant, even mid-duel. */
static void
test_sim(void)
{
	struct fb_sheet pairs[3][2];
	int broken = 0, refused = 0;
	long duels = 0;

	reset();
	pairs[0][0] = SA;
	pairs[0][1] = SB;
	pairs[1][0] = sheet(FB_LIGHT, FB_RIGHT, FB_TEMPLAR);
	pairs[1][0].st.geas[FB_HEAL] = 2;
	pairs[1][0].st.geas[FB_ABSORB] = 2;
	pairs[1][0].st.geas[FB_JUMP] = 1;
	pairs[1][0].st.geas[FB_MINDTRICK] = 1;
	pairs[1][0].st.geas[FB_PROTECT] = 1;
	pairs[1][0].st.geas[FB_SPEED] = 1;
	pairs[1][1] = sheet(FB_DARK, FB_LEFT, FB_DIAMEDES);
	pairs[1][1].free_geas = FB_LIGHTNING;
	pairs[1][1].st.geas[FB_RAGE] = 3;
	pairs[1][1].st.geas[FB_CHOKE] = 2;
	pairs[1][1].st.geas[FB_SPEED] = 2;
	pairs[1][1].st.geas[FB_PULL] = 1;
	pairs[1][1].st.geas[FB_SIGHT] = 2;
	pairs[2][0] = sheet(FB_LIGHT, FB_LEFT, FB_INITIATE);
	pairs[2][0].st.geas[FB_PUSH] = 2;
	pairs[2][0].st.geas[FB_HIDE] = 1;
	pairs[2][1] = sheet(FB_DARK, FB_RIGHT, FB_INITIATE);
	pairs[2][1].st.geas[FB_LIGHTNING] = 2;
	rng_seed(&R, 2026);
	for (int p = 0; p < 3; p++) {
		is_int(check(&pairs[p][0]) + check(&pairs[p][1]), 0,
		    "sim pair %d is legal", p + 1);
		for (int i = 0; i < 60000; i++) {
			int limit = i % 3 == 0 ? 1 + i % 7 : 10000;

			fb_start(&S, &B, &pairs[p][0], &pairs[p][1]);
			if (fb_sim_duel(&S, &R, limit) < 0)
				refused++;
			if (fb_invariants(&S, why, sizeof why) < 0 &&
			    broken++ == 0)
				printf("# %s\n", why);
			duels++;
		}
	}
	is_int(refused, 0, "the strategy never asks for a refused move");
	is_int(broken, 0, "no invariant broken in %ld duels (a third stopped "
	    "mid-duel)", duels);
}

/*
 * The sim's pulls and the fewest-first placing, against the rule as the
 * book plays it, one counter at a time: for every way seven spheres can
 * hold 0 to 4 counters.
 */
static void
naive_pull(const struct fb_player *p, int t, int base, int keep,
    int8_t *pull)
{
	int v[FB_MAXS], got = 0;

	memset(pull, 0, FB_MAXS);
	for (int i = 0; i < B.ns; i++)
		v[i] = p->sph[i];
	while (base + got < FB_AUTO_MISS - 1) {
		int best = -1;

		for (int i = 0; i < B.ns; i++)
			if (fb_touches(&B, i, t) && v[i] > keep &&
			    (best < 0 || v[i] > v[best]))
				best = i;
		if (best < 0)
			break;
		v[best]--;
		pull[best]++;
		got++;
	}
}

static void
test_one_at_a_time(void)
{
	int pulls_differ = 0, fills_differ = 0, configs = 0;

	reset();
	for (int c = 0; c < 78125; c++, configs++) {
		struct fb_in in;
		struct fb_player q, r;
		int8_t want[2][FB_MAXS];
		int att = c % 2, def = !att;

		duel();
		for (int i = 0, x = c; i < B.ns; i++, x /= 5)
			S.p[0].sph[i] = S.p[1].sph[i] = x % 5;
		S.p[def].def = c % 11;
		S.p[att].att = c / 11 % 11;
		S.p[att].hand = c / 2 % 2 ? FB_RIGHT : FB_LEFT;
		S.attacker = att;
		S.target = c % FB_NT;
		S.stage = FB_AIMED;
		fb_in_init(&in);
		fb_strategy_round(&S, &in);
		naive_pull(&S.p[def], S.target, S.p[def].def, 0, want[def]);
		naive_pull(&S.p[att], S.p[att].hand == FB_RIGHT ? FB_RARM :
		    FB_LARM, S.p[att].att, 2, want[att]);
		if ((memcmp(in.pull[def], want[def], FB_MAXS) != 0 ||
		    memcmp(in.pull[att], want[att], FB_MAXS) != 0) &&
		    pulls_differ++ == 0)
			printf("# pulls differ for spheres %d\n", c);
		for (int n = 0; n <= 8; n++) {
			q = r = S.p[0];
			fb_fill_fewest(&q, B.ns, n);
			for (int k = 0; k < n; k++) {
				int low = -1;

				for (int i = 0; i < B.ns; i++)
					if (r.sph[i] < FB_CAP && (low < 0 ||
					    r.sph[i] < r.sph[low]))
						low = i;
				if (low < 0)
					r.pool++;
				else
					r.sph[low]++;
			}
			if (memcmp(&q, &r, sizeof q) != 0 &&
			    fills_differ++ == 0)
				printf("# fill of %d differs for spheres %d\n",
				    n, c);
		}
	}
	is_int(pulls_differ, 0, "the sim's pulls, fullest first, match one "
	    "at a time in %d boards", configs);
	is_int(fills_differ, 0, "gains placed fewest first match one at a "
	    "time in %d boards, 0 to 8 counters", configs);
}

/* 1 if two duels are in the same state, member by member. */
static int
same_duel(const struct fb_state *x, const struct fb_state *y)
{
	return memcmp(x->p, y->p, sizeof x->p) == 0 &&
	    x->round == y->round && x->stage == y->stage &&
	    x->attacker == y->attacker &&
	    x->last_attacker == y->last_attacker &&
	    x->choose == y->choose && x->earned == y->earned &&
	    x->restance == y->restance && x->hide == y->hide &&
	    x->speed == y->speed && x->target == y->target &&
	    x->die_target == y->die_target && x->over == y->over &&
	    x->winner == y->winner && x->end == y->end &&
	    memcmp(&x->d, &y->d, sizeof x->d) == 0;
}

/*
 * Duels without GEAS take the sim's lean path; played again through the
 * stages, every one must end the same, with the generator in the same
 * state.  Several stances, sides, hands and levels, a board whose
 * spheres touch differently, and duels stopped by the round limit.
 */
static void
test_sim_lean(void)
{
	struct fb_sheet pairs[5][2];
	struct fb_board b2 = B;
	long ends[6] = { 0 }, differ = 0, duels = 0;
	struct rng r1, r2;
	struct fb_state s1, s2;

	reset();
	pairs[0][0] = SA;
	pairs[0][1] = SB;
	pairs[1][0] = sheet(FB_DARK, FB_RIGHT, FB_LEARNER);
	pairs[1][1] = sheet(FB_LIGHT, FB_LEFT, FB_LEARNER);
	{
		static const int st[7] = { 4, 4, 3, 3, 3, 2, 2 };

		memcpy(pairs[1][1].st.sph, st, sizeof st);
	}
	pairs[1][1].st.att = 7;
	pairs[1][1].st.def = 3;
	pairs[2][0] = sheet(FB_LIGHT, FB_RIGHT, FB_TEMPLAR);
	pairs[2][0].st.sph[0] = 4;
	pairs[2][0].st.att = 10;
	pairs[2][0].st.def = 6;
	pairs[2][1] = sheet(FB_LIGHT, FB_LEFT, FB_INITIATE);
	pairs[3][0] = sheet(FB_DARK, FB_LEFT, FB_INITIATE);
	pairs[3][0].st.att = 2;
	pairs[3][0].st.def = 9;
	pairs[3][1] = sheet(FB_DARK, FB_RIGHT, FB_TEMPLAR);
	pairs[3][1].st.def = 10;
	pairs[4][0] = SA;
	pairs[4][1] = SB;
	{
		/*
		 * Thin spheres on a board where upper-left alone feeds the
		 * left arm, so that boards get cut off.
		 */
		static const int t0[7] = { 1, 1, 4, 4, 4, 4, 3 };
		static const int t1[7] = { 1, 2, 4, 4, 4, 3, 3 };

		memcpy(pairs[4][0].st.sph, t0, sizeof t0);
		memcpy(pairs[4][1].st.sph, t1, sizeof t1);
	}
	b2.touch[2] &= ~(1u << FB_LARM);
	b2.touch[3] &= ~(1u << FB_LARM);
	why[0] = '\0';
	is_int(fb_board_finish(&b2, why, sizeof why), 0, "a board where "
	    "upper-left alone touches the left arm %s", why);
	for (int p = 0; p < 5; p++) {
		is_int(check(&pairs[p][0]) + check(&pairs[p][1]), 0,
		    "lean pair %d is legal", p + 1);
		rng_seed(&r1, 7 + (uint64_t)p);
		for (int i = 0; i < 20000; i++) {
			int limit = i % 5 == 0 ? 1 + i % 11 : 1000, n1, n2;

			fb_start(&s1, p == 4 ? &b2 : &B, &pairs[p][0],
			    &pairs[p][1]);
			s2 = s1;
			r2 = r1;
			n1 = fb_sim_duel(&s1, &r1, limit);
			n2 = fb_sim_duel_staged(&s2, &r2, limit);
			if ((n1 != n2 || !rng_equal(&r1, &r2) ||
			    !same_duel(&s1, &s2)) && differ++ == 0)
				printf("# pair %d duel %d: %d rounds against "
				    "%d\n", p + 1, i + 1, n1, n2);
			ends[s1.end]++;
			duels++;
		}
	}
	is_int(differ, 0, "%ld duels, lean and staged, end the same with "
	    "the same dice", duels);
	ok(ends[FB_E_MAIMED] > 0 && ends[FB_E_LEGS] > 0 &&
	    ends[FB_E_LIMIT] > 0, "ends seen: maimed %ld, legs %ld, cut-off "
	    "%ld, limit %ld", ends[FB_E_MAIMED], ends[FB_E_LEGS],
	    ends[FB_E_CUTOFF], ends[FB_E_LIMIT]);
}

int
main(void)
{
	test_board();
	test_sheets();
	test_initiative();
	test_target();
	test_outcomes();
	test_geas();
	test_sim();
	test_one_at_a_time();
	test_sim_lean();
	return tap_done();
}
