/*
 * fb.c - the rules of Force Battles Advanced.  Every rule sits in one
 * place here; fb-duel(1) lists the readings taken where the rules are
 * silent.  Pure: dice come from the caller's generator or the input.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "fb/fb.h"
#include "core/ruling.h"
#include "base/util.h"

static const char *const geas_names[FB_NGEAS + 1] = {
	"push", "pull", "jump", "sight", "speed", "hide", "mind-trick",
	"heal", "protect", "absorb", "lightning", "rage", "choke", "convert"
};
static const char *const level_names[] = {
	"learner", "initiate", "templar", "diamedes"
};
static const int level_totals[] = { 31, 35, 40, 50 };
static const char *const colour_names[FB_NCOLOUR] = {
	"green", "orange", "blue", "red", "purple", "yellow"
};
static const char *const role_names[FB_NT] = {
	"head", "left-arm", "right-arm", "torso", "left-leg", "right-leg"
};
static const char *const outcome_names[] = {
	"none", "pass", "hit-block", "botch-block", "double-botch", "hit",
	"kick", "choke"
};
static const char *const end_names[] = {
	"none", "maimed", "cut-off", "legs", "converted", "limit"
};
static const char *const init_names[] = {
	"roll", "tie-att", "tie-swap", "speed", "earned", "tie-first"
};

const char *fb_geas_name(int g) { return geas_names[g]; }
const char *fb_level_name(int l) { return level_names[l]; }
const char *fb_colour_name(int c) { return colour_names[c]; }
const char *fb_role_name(int t) { return role_names[t]; }
const char *fb_outcome_name(int o) { return outcome_names[o]; }
const char *fb_end_name(int e) { return end_names[e]; }
const char *fb_init_how_name(int h) { return init_names[h]; }
const char *fb_side_name(int side) { return side == FB_DARK ? "dark" : "light"; }
const char *fb_hand_name(int hand) { return hand == FB_LEFT ? "left" : "right"; }
int fb_level_total(int level) { return level_totals[level]; }

int
fb_geas_find(const char *name)
{
	if (strcasecmp(name, "lightning-absorb") == 0)
		return FB_ABSORB;
	return util_lookup(geas_names, FB_NGEAS + 1, name, strcasecmp);
}

int
fb_role_find(const char *name)
{
	return util_lookup(role_names, FB_NT, name, strcasecmp);
}

int
fb_name_ok(const char *s, size_t max)
{
	return util_name_ok(s, max);
}

int
fb_level_find(const char *name)
{
	return util_lookup(level_names, 4, name, strcasecmp);
}

int
fb_colour_find(const char *name)
{
	return util_lookup(colour_names, FB_NCOLOUR, name, strcasecmp);
}

int
fb_geas_side(int g)
{
	switch (g) {
	case FB_LIGHTNING: case FB_CHOKE: case FB_RAGE:
		return FB_DARK;
	case FB_ABSORB: case FB_HEAL: case FB_PROTECT: case FB_CONVERT:
		return FB_LIGHT;
	default:
		return -1;
	}
}

/* ---- the board ---- */

void
fb_board_default(struct fb_board *b)
{
	static const char *const sn[7] = {
		"upper-left", "upper-right", "center", "left", "right",
		"lower-left", "lower-right"
	};
	static const unsigned touch[7] = {
		1u << FB_HEAD | 1u << FB_LARM,
		1u << FB_HEAD | 1u << FB_RARM,
		1u << FB_HEAD | 1u << FB_LARM | 1u << FB_RARM | 1u << FB_TORSO,
		1u << FB_LARM | 1u << FB_TORSO,
		1u << FB_RARM | 1u << FB_TORSO,
		1u << FB_TORSO | 1u << FB_LLEG,
		1u << FB_TORSO | 1u << FB_RLEG,
	};
	static const int face[FB_NT] = { 1, 2, 3, 4, 5, 6 };
	static const int alt[FB_NT] = { 1, 3, 2, 4, 6, 5 };
	char why[FB_WHYSZ];

	memset(b, 0, sizeof *b);
	snprintf(b->name, sizeof b->name, "default");
	for (int t = 0; t < FB_NT; t++) {
		snprintf(b->tname[t], sizeof b->tname[t], "%s", role_names[t]);
		b->face[t] = face[t];
		b->alt[t] = alt[t];
	}
	b->ns = 7;
	for (int i = 0; i < 7; i++) {
		snprintf(b->sname[i], sizeof b->sname[i], "%s", sn[i]);
		b->touch[i] = touch[i];
	}
	b->center = 2;
	b->lower = 1u << 5 | 1u << 6;
	(void)fb_board_finish(b, why, sizeof why);
}

int
fb_board_finish(struct fb_board *b, char *why, size_t whysz)
{
	unsigned seen[2] = { 0, 0 }, covered = 0;

	if (b->ns < 1 || b->ns > FB_MAXS)
		return util_say(why, whysz, "a board has 1 to %d spheres, not %d",
		    FB_MAXS, b->ns);
	for (int t = 0; t < FB_NT; t++) {
		if (b->tname[t][0] == '\0')
			return util_say(why, whysz, "the %s target has no name",
			    role_names[t]);
		for (int k = 0; k < 2; k++) {
			int f = k ? b->alt[t] : b->face[t];

			if (f < 1 || f > 6 || (seen[k] & 1u << f))
				return util_say(why, whysz, "target '%s': %s %d is "
				    "not a free face from 1 to 6", b->tname[t],
				    k ? "alt" : "face", f);
			seen[k] |= 1u << f;
			b->table[k][f] = t;
		}
		for (int u = 0; u < t; u++)
			if (strcasecmp(b->tname[u], b->tname[t]) == 0)
				return util_say(why, whysz, "two targets are "
				    "named '%s'", b->tname[t]);
	}
	for (int i = 0; i < b->ns; i++) {
		if (b->sname[i][0] == '\0')
			return util_say(why, whysz, "sphere %d has no name", i + 1);
		if (b->touch[i] == 0 || b->touch[i] >= 1u << FB_NT)
			return util_say(why, whysz, "sphere '%s' touches no target",
			    b->sname[i]);
		for (int u = 0; u < b->ns; u++)
			if (u < i && strcasecmp(b->sname[u], b->sname[i]) == 0)
				return util_say(why, whysz, "two spheres are "
				    "named '%s'", b->sname[i]);
		for (int t = 0; t < FB_NT; t++)
			if (strcasecmp(b->sname[i], b->tname[t]) == 0)
				return util_say(why, whysz, "'%s' names both a "
				    "sphere and a target", b->sname[i]);
		covered |= b->touch[i];
	}
	for (int t = 0; t < FB_NT; t++)
		if (!(covered & 1u << t))
			return util_say(why, whysz, "no sphere touches target '%s'",
			    b->tname[t]);
	if (b->center < 0 || b->center >= b->ns ||
	    !(b->touch[b->center] & 1u << FB_HEAD))
		return util_say(why, whysz, "the center sphere must be one that "
		    "touches the head");
	if (b->lower == 0 || b->lower >= 1u << b->ns)
		return util_say(why, whysz, "the board needs its bottom spheres");
	for (int i = b->ns; i < FB_MAXS; i++)
		b->touch[i] = 0;
	for (int t = 0; t < FB_NT; t++) {
		b->tn[t] = 0;
		for (int i = 0; i < b->ns; i++)
			if (b->touch[i] & 1u << t)
				b->tsph[t][b->tn[t]++] = i;
	}
	return 0;
}

int
fb_sphere_find(const struct fb_board *b, const char *name)
{
	for (int i = 0; i < b->ns; i++)
		if (strcasecmp(name, b->sname[i]) == 0)
			return i;
	return -1;
}

int
fb_target_find(const struct fb_board *b, const char *name)
{
	for (int t = 0; t < FB_NT; t++)
		if (strcasecmp(name, b->tname[t]) == 0)
			return t;
	return fb_role_find(name);
}

int
fb_touches(const struct fb_board *b, int s, int t)
{
	return (b->touch[s] >> t) & 1u;
}

/* ---- sheets and stances ---- */

void
fb_stance_default(const struct fb_board *b, struct fb_stance *st)
{
	memset(st, 0, sizeof *st);
	for (int i = 0; i < b->ns; i++)
		st->sph[i] = 3;
	st->att = 5;
	st->def = 5;
}

static int
sphere_sum(const struct fb_board *b, const int *sph)
{
	int n = 0;

	for (int i = 0; i < b->ns; i++)
		n += sph[i];
	return n;
}

int
fb_stance_placed(const struct fb_board *b, const struct fb_stance *st)
{
	int n = sphere_sum(b, st->sph) + st->att + st->def;

	for (int g = 0; g < FB_NGEAS; g++)
		n += st->geas[g];
	return n;
}

int
fb_sheet_check(const struct fb_board *b, const struct fb_sheet *sh,
    void (*bad)(void *, const char *), void *arg)
{
	const struct fb_stance *st = &sh->st;
	char m[FB_WHYSZ];
	int nbad = 0, spheres = sphere_sum(b, st->sph);
	int total = level_totals[sh->level], placed;

#define BAD(...) do { snprintf(m, sizeof m, __VA_ARGS__); bad(arg, m); \
	nbad++; } while (0)
	if (sh->side == FB_DARK && sh->colour != FB_RED)
		BAD("the Dark side plays red counters only, not %s",
		    colour_names[sh->colour]);
	if (sh->side == FB_LIGHT && sh->colour == FB_RED)
		BAD("the Light side may not play red counters");
	for (int i = 0; i < b->ns; i++) {
		if (st->sph[i] < 0)
			BAD("sphere '%s' holds %d counters; it cannot hold "
			    "fewer than 0", b->sname[i], st->sph[i]);
		else if (st->sph[i] > FB_CAP)
			BAD("sphere '%s' holds %d counters; a sphere holds "
			    "at most %d", b->sname[i], st->sph[i], FB_CAP);
	}
	if (st->att < 0 || st->att > FB_ATTDEF_MAX)
		BAD("ATT holds %d counters; it holds 0 to %d", st->att,
		    FB_ATTDEF_MAX);
	if (st->def < 0 || st->def > FB_ATTDEF_MAX)
		BAD("DEF holds %d counters; it holds 0 to %d", st->def,
		    FB_ATTDEF_MAX);
	for (int g = 0; g < FB_NGEAS; g++) {
		if (st->geas[g] < 0)
			BAD("GEAS '%s' holds %d counters", geas_names[g],
			    st->geas[g]);
		else if (st->geas[g] > 0 && fb_geas_side(g) >= 0 &&
		    fb_geas_side(g) != sh->side)
			BAD("GEAS '%s' is for the %s side only; a %s "
			    "duelist may not hold counters in it",
			    geas_names[g], fb_side_name(fb_geas_side(g)) ,
			    fb_side_name(sh->side));
	}
	if (sh->level <= FB_INITIATE && spheres != 21)
		BAD("the spheres hold %d counters; a %s starts with exactly "
		    "21 in them", spheres, level_names[sh->level]);
	else if (sh->level > FB_INITIATE && spheres < 21)
		BAD("the spheres hold %d counters; a %s starts with at "
		    "least 21 in them", spheres, level_names[sh->level]);
	placed = fb_stance_placed(b, st);
	if (placed > total)
		BAD("the stance places %d counters; a %s has %d", placed,
		    level_names[sh->level], total);
	if (sh->free_geas >= 0) {
		if (sh->level != FB_DIAMEDES)
			BAD("only a diamedes has a free GEAS, not a %s",
			    level_names[sh->level]);
		else if (fb_geas_side(sh->free_geas) >= 0 &&
		    fb_geas_side(sh->free_geas) != sh->side)
			BAD("the free GEAS '%s' is for the %s side only",
			    geas_names[sh->free_geas],
			    fb_side_name(fb_geas_side(sh->free_geas)));
	}
#undef BAD
	return nbad;
}

/* ---- the duel ---- */

void
fb_in_init(struct fb_in *in)
{
	/*
	 * The GEAS list is written whole by whoever adds to it.  A copy
	 * from a template, not memset: compilers clear this size with a
	 * string instruction whose start-up costs the sim a tenth of its
	 * time.
	 */
	static const struct fb_in fresh = {
		.choose = -1,
		.movesph = { -1, -1, -1, -1, -1, -1, -1, -1 }
	};

	memcpy(in, &fresh, offsetof(struct fb_in, geas));
}

/* A player's spheres from a stance; those the board lacks hold 0. */
static void
set_spheres(const struct fb_board *b, int *dst, const int *src)
{
	for (int i = 0; i < FB_MAXS; i++)
		dst[i] = i < b->ns ? src[i] : 0;
}

static void
player_from_sheet(const struct fb_board *b, struct fb_player *p,
    const struct fb_sheet *sh)
{
	memset(p, 0, sizeof *p);
	p->side = sh->side;
	p->hand = sh->hand;
	p->colour = sh->colour;
	p->level = sh->level;
	p->free_geas = sh->free_geas;
	set_spheres(b, p->sph, sh->st.sph);
	p->att = sh->st.att;
	p->def = sh->st.def;
	memcpy(p->geas, sh->st.geas, sizeof p->geas);
	p->pool = level_totals[sh->level] - fb_stance_placed(b, &sh->st);
}

void
fb_start(struct fb_state *s, const struct fb_board *b,
    const struct fb_sheet *a, const struct fb_sheet *bsheet)
{
	memset(s, 0, sizeof *s);
	s->b = b;
	player_from_sheet(b, &s->p[0], a);
	player_from_sheet(b, &s->p[1], bsheet);
	s->total = level_totals[a->level] + level_totals[bsheet->level];
	s->round = 1;
	s->stage = FB_OPEN;
	s->attacker = -1;
	s->last_attacker = -1;
	s->choose = 1;
	s->earned = -1;
	s->winner = -1;
	s->target = -1;
	s->die_target = -1;
	s->d.sight_target = s->d.mt_target = -1;
}

int
fb_board_count(const struct fb_state *s, int who)
{
	const struct fb_player *p = &s->p[who];
	int n = sphere_sum(s->b, p->sph) + p->att + p->def;

	for (int g = 0; g < FB_NGEAS; g++)
		n += p->geas[g];
	return n;
}

int
fb_invariants(const struct fb_state *s, char *why, size_t whysz)
{
	int sum = 0;

	for (int w = 0; w < 2; w++) {
		const struct fb_player *p = &s->p[w];

		for (int i = 0; i < s->b->ns; i++)
			if (p->sph[i] < 0 || p->sph[i] > FB_CAP)
				return util_say(why, whysz, "player %d sphere '%s' "
				    "holds %d", w + 1, s->b->sname[i],
				    p->sph[i]);
		for (int g = 0; g < FB_NGEAS; g++)
			if (p->geas[g] < 0)
				return util_say(why, whysz, "player %d GEAS '%s' "
				    "holds %d", w + 1, geas_names[g],
				    p->geas[g]);
		if (p->att < 0 || p->att > FB_ATTDEF_MAX || p->def < 0 ||
		    p->def > FB_ATTDEF_MAX || p->pool < 0)
			return util_say(why, whysz, "player %d: ATT %d, DEF %d, "
			    "pool %d", w + 1, p->att, p->def, p->pool);
		if (p->gift < 0 || p->gift > p->sph[s->b->center])
			return util_say(why, whysz, "player %d: %d gift counters "
			    "in a center of %d", w + 1, p->gift,
			    p->sph[s->b->center]);
		sum += fb_board_count(s, w) + p->pool;
	}
	if (sum != s->total)
		return util_say(why, whysz, "%d counters in play; the duel began "
		    "with %d", sum, s->total);
	return 0;
}

static int
die(int8_t *slot, struct rng *rng)
{
	if (*slot == 0)
		*slot = (int8_t)rng_d6(rng);
	return *slot;
}

/* The target a player's hand works from, and her kicking leg. */
static int
hand_target(const struct fb_player *p)
{
	return p->hand == FB_RIGHT ? FB_RARM : FB_LARM;
}

/* Which target table an attacker uses: 0 the book's first one. */
static int
table_of(const struct fb_player *p)
{
	/* The first for a Light right-hander and a Dark left-hander. */
	return (p->side == FB_DARK) ^ (p->hand == FB_LEFT);
}

/*
 * The target struck this round: Sight's or Mind Trick's when only one
 * of them was used, else where the die and the paid moves put it.  *how
 * is 1 for Sight, 2 for Mind Trick, 0 for neither.
 */
static int
struck_target(const struct fb_state *s, int *how)
{
	int sight = (s->d.used[s->attacker] >> FB_SIGHT) & 1u;
	int mt = (s->d.used[!s->attacker] >> FB_MINDTRICK) & 1u;

	*how = sight && !mt ? 1 : mt && !sight ? 2 : 0;
	return *how == 1 ? s->d.sight_target : *how == 2 ? s->d.mt_target :
	    s->target;
}

/* Takes n counters from sphere i, keeping the gift count honest. */
static void
take_sphere(const struct fb_state *s, struct fb_player *p, int i, int n)
{
	p->sph[i] -= n;
	if (i == s->b->center && p->gift > p->sph[i])
		p->gift = p->sph[i];
}

/* Targets whose every touching sphere is empty, as a mask. */
static unsigned
cut_off(const struct fb_state *s, int who)
{
	unsigned fed = 0;

	for (int i = 0; i < FB_MAXS; i++)
		fed |= s->b->touch[i] & (0u - (unsigned)(s->p[who].sph[i] > 0));
	return ~fed & ((1u << FB_NT) - 1);
}

static void
finish(struct fb_state *s, int end, int winner)
{
	s->over = 1;
	s->end = end;
	s->winner = winner;
}

/* The ends any change can bring: a board cut off from a target. */
static void
check_cut_off(struct fb_state *s)
{
	int c0, c1;

	if (s->over)
		return;
	c0 = cut_off(s, 0) != 0;
	c1 = cut_off(s, 1) != 0;
	if (c0 || c1)
		finish(s, FB_E_CUTOFF, c0 && c1 ? -1 : c0 ? 1 : 0);
}

/*
 * Spends n counters of GEAS g to the user's pool.  A DIAMEDES's free
 * GEAS pays for one counter of each use.
 */
static void
spend(struct fb_player *p, int g, int n, struct fb_report *r, int who)
{
	if (p->free_geas == g)
		n--;
	if (n <= 0)
		return;
	p->geas[g] -= n;
	p->pool += n;
	r->spent[who] += n;
}

static int
has_counters(const struct fb_player *p, int g, int n)
{
	return p->geas[g] >= n - (p->free_geas == g);
}

/* Lightning: n strikes on the foe's spheres, the first a absorbed. */
static int
lightning(struct fb_state *s, struct fb_geas_in *g, struct fb_report *r,
    char *why, size_t whysz)
{
	struct fb_player *me = &s->p[g->who], *foe = &s->p[!g->who];
	int n = g->n, a = g->absorb;

	if (a < 0 || a > n)
		return util_say(why, whysz, "absorb %d of %d lightning counters",
		    a, n);
	if (a > 0 && foe->side != FB_LIGHT)
		return util_say(why, whysz, "only the Light side absorbs "
		    "lightning");
	if (a > 0 && !has_counters(foe, FB_ABSORB, a))
		return util_say(why, whysz, "the foe has %d counters in "
		    "'absorb', not %d", foe->geas[FB_ABSORB], a);
	if (g->nspheres > n)
		return util_say(why, whysz, "%d spheres named for %d lightning "
		    "counters", g->nspheres, n);
	/* Check the named spheres before anything moves. */
	{
		int want[FB_MAXS] = { 0 };

		for (int k = a; k < g->nspheres; k++)
			if (++want[g->spheres[k]] > foe->sph[g->spheres[k]])
				return util_say(why, whysz, "the foe's sphere '%s' "
				    "holds only %d", s->b->sname[g->spheres[k]],
				    foe->sph[g->spheres[k]]);
	}
	spend(me, FB_LIGHTNING, n, r, g->who);
	if (a > 0)
		spend(foe, FB_ABSORB, a, r, !g->who);
	r->absorbed = a;
	for (int k = a; k < n; k++) {
		int i = k < g->nspheres ? g->spheres[k] : -1;

		if (i < 0) {
			for (int j = 0; j < s->b->ns; j++)
				if (foe->sph[j] > 0 &&
				    (i < 0 || foe->sph[j] > foe->sph[i]))
					i = j;
			if (i < 0)
				break;
			if (k < (int)(sizeof g->spheres / sizeof g->spheres[0])) {
				g->spheres[k] = i;
				g->nspheres = k + 1;
			}
		}
		take_sphere(s, foe, i, 1);
		foe->pool++;
		r->lightning++;
	}
	return 0;
}

/* Whether a GEAS may be declared now; between: after the Hit roll. */
static int
geas_allowed(const struct fb_state *s, const struct fb_geas_in *g,
    int between, char *why, size_t whysz)
{
	const struct fb_player *p = &s->p[g->who];
	const char *gn = geas_names[g->power];
	int att = s->attacker, roles = s->stage != FB_OPEN || between;

	if (fb_geas_side(g->power) >= 0 && fb_geas_side(g->power) != p->side)
		return util_say(why, whysz, "'%s' is for the %s side only", gn,
		    fb_side_name(fb_geas_side(g->power)));
	if (s->hide & 1u << !g->who)
		return util_say(why, whysz, "no GEAS reaches a duelist who hides; "
		    "the foe hides this round");
	if (s->d.used[g->who] & 1u << g->power)
		return util_say(why, whysz, "'%s' is already used this round", gn);
	if (between && g->power != FB_PUSH && g->power != FB_PULL &&
	    g->power != FB_JUMP && g->power != FB_HEAL &&
	    g->power != FB_LIGHTNING)
		return util_say(why, whysz, "only push, pull, jump, heal and "
		    "lightning wait for the Hit roll; '%s' comes before the "
		    "rolls", gn);
	switch (g->power) {
	case FB_HIDE:
	case FB_SPEED:
		if (s->stage != FB_OPEN || between)
			return util_say(why, whysz, "'%s' comes before initiative",
			    gn);
		if (g->power == FB_SPEED && s->earned >= 0)
			return util_say(why, whysz, "initiative is already earned "
			    "by last round's kick");
		break;
	case FB_SIGHT: case FB_PULL: case FB_RAGE: case FB_CHOKE:
	case FB_MINDTRICK: case FB_JUMP: case FB_PROTECT: case FB_HEAL:
		if (!roles)
			return util_say(why, whysz, "'%s' belongs to a role; use "
			    "it after initiative", gn);
		if ((g->power == FB_SIGHT || g->power == FB_PULL ||
		    g->power == FB_RAGE || g->power == FB_CHOKE) &&
		    g->who != att)
			return util_say(why, whysz, "'%s' is the attacker's GEAS",
			    gn);
		if ((g->power == FB_MINDTRICK || g->power == FB_JUMP ||
		    g->power == FB_PROTECT || g->power == FB_HEAL) &&
		    g->who == att)
			return util_say(why, whysz, "'%s' is the defender's GEAS",
			    gn);
		break;
	case FB_PUSH:
		if (!roles)
			return util_say(why, whysz, "'push' works on an attack; "
			    "use it after initiative");
		break;
	default:
		break;
	}
	if (g->power == FB_CONVERT) {
		const struct fb_player *foe = &s->p[!g->who];

		if (foe->side != FB_DARK)
			return util_say(why, whysz, "only a Dark side foe can be "
			    "turned");
		if (foe->sph[s->b->center] >= FB_CAP)
			return util_say(why, whysz, "the foe's center sphere is "
			    "full");
		return 0;
	}
	if ((g->power == FB_SIGHT || g->power == FB_MINDTRICK) &&
	    (g->target < 0 || g->target >= FB_NT))
		return util_say(why, whysz, "'%s' needs the target to strike", gn);
	if (g->n < 1)
		return util_say(why, whysz, "'%s' uses at least 1 counter", gn);
	if (g->n > 1 && g->power != FB_LIGHTNING && g->power != FB_RAGE &&
	    g->power != FB_PROTECT)
		return util_say(why, whysz, "'%s' uses 1 counter, not %d", gn,
		    g->n);
	if (!has_counters(p, g->power, g->n))
		return util_say(why, whysz, "'%s' holds %d counters; %d needed",
		    gn, p->geas[g->power], g->n);
	return 0;
}

/*
 * CONVERT: a counter of g's duelist, from the slot g names, becomes the
 * foe's, at the centre; the foe's gifts are counted.
 */
static int
geas_convert(struct fb_state *s, struct fb_geas_in *g, char *why,
    size_t whysz)
{
	struct fb_player *p = &s->p[g->who], *foe = &s->p[!g->who];
	int f = g->from;

	if (f < 0 || f >= FB_NSLOT || (f < FB_MAXS && f >= s->b->ns))
		return util_say(why, whysz, "convert: name the slot the "
		    "counter comes from");
	if (f < FB_MAXS) {
		if (p->sph[f] < 1)
			return util_say(why, whysz, "sphere '%s' is empty",
			    s->b->sname[f]);
		take_sphere(s, p, f, 1);
	} else if (f == FB_SLOT_ATT || f == FB_SLOT_DEF) {
		int *v = f == FB_SLOT_ATT ? &p->att : &p->def;

		if (*v < 1)
			return util_say(why, whysz, "%s is empty",
			    f == FB_SLOT_ATT ? "ATT" : "DEF");
		(*v)--;
	} else {
		if (p->geas[f - FB_SLOT_GEAS] < 1)
			return util_say(why, whysz, "GEAS '%s' is empty",
			    geas_names[f - FB_SLOT_GEAS]);
		p->geas[f - FB_SLOT_GEAS]--;
	}
	foe->sph[s->b->center]++;
	foe->gift++;
	if (foe->gift >= FB_CAP)
		finish(s, FB_E_CONVERTED, g->who);
	check_cut_off(s);
	return 0;
}

/* Declares g on s; s is a scratch copy, so a refusal may leave it. */
static int
geas_do(struct fb_state *s, struct fb_geas_in *g, int between,
    struct fb_report *r, char *why, size_t whysz)
{
	struct fb_player *p = &s->p[g->who];

	if (s->over)
		return util_say(why, whysz, "the duel is over");
	if (g->who < 0 || g->who > 1 || g->power < 0 ||
	    g->power > FB_CONVERT)
		return util_say(why, whysz, "no such duelist or GEAS");
	if (geas_allowed(s, g, between, why, whysz) < 0)
		return -1;
	s->d.used[g->who] |= 1u << g->power;
	switch (g->power) {
	case FB_CONVERT:
		return geas_convert(s, g, why, whysz);
	case FB_HIDE:
		s->hide |= 1u << g->who;
		break;
	case FB_SPEED:
		s->speed |= 1u << g->who;
		break;
	case FB_SIGHT:
		s->d.sight_target = g->target;
		break;
	case FB_MINDTRICK:
		s->d.mt_target = g->target;
		break;
	case FB_RAGE:
	case FB_PROTECT: {
		if (g->power == FB_RAGE)
			s->d.rage = g->n;
		else
			s->d.protect = g->n;
		spend(p, g->power, g->n, r, g->who);
		return 0;
	}
	case FB_CHOKE: s->d.choke = 1; break;
	case FB_HEAL: s->d.heal = 1; break;
	case FB_PUSH: s->d.push = 1; break;
	case FB_PULL: s->d.pull = 1; break;
	case FB_JUMP: s->d.jump = 1; break;
	case FB_LIGHTNING:
		if (lightning(s, g, r, why, whysz) < 0)
			return -1;
		check_cut_off(s);
		return 0;
	default:
		break;
	}
	spend(p, g->power, 1, r, g->who);
	return 0;
}

static void
report_init(struct fb_report *r, const struct fb_state *s)
{
	memset(r, 0, sizeof *r);
	r->stage_from = s->stage;
	r->attacker = s->attacker;
	r->target = r->base_target = -1;
	r->turned = -1;
}

int
fb_geas(struct fb_state *s, struct fb_geas_in *g, struct rng *rng,
    struct fb_report *r, char *why, size_t whysz)
{
	struct fb_state t = *s;

	(void)rng;
	report_init(r, s);
	if (g->between)
		return util_say(why, whysz, "only a round's own GEAS wait for the "
		    "Hit roll");
	if (geas_do(&t, g, 0, r, why, whysz) < 0)
		return -1;
	r->ended = t.over;
	*s = t;
	return 0;
}

/*
 * Who attacks after one pair of initiative dice: the higher, or on a tie
 * the one who did not attack last round, or before any round the higher
 * ATT; -1 when the tie stands (*how says which rule settled it).
 */
static int
init_pair(const struct fb_state *s, int d0, int d1, int *how)
{
	if (d0 != d1)
		return d0 > d1 ? 0 : 1;
	if (s->last_attacker >= 0) {
		*how = FB_I_TIE_SWAP;
		return !s->last_attacker;
	}
	if (s->p[0].att != s->p[1].att) {
		*how = FB_I_TIE_ATT;
		return s->p[0].att > s->p[1].att ? 0 : 1;
	}
	return -1;
}

static int
init_do(struct fb_state *s, struct fb_in *in, struct rng *rng,
    struct fb_report *r, char *why, size_t whysz)
{
	int a = -1, how = FB_I_ROLL, pairs = 0;

	if (s->over)
		return util_say(why, whysz, "the duel is over");
	if (s->stage != FB_OPEN)
		return util_say(why, whysz, "initiative is already settled this "
		    "round");
	if (in->ninit % 2 != 0)
		return util_say(why, whysz, "initiative dice come in pairs, one "
		    "for each duelist");
	if (s->earned >= 0) {
		a = s->earned;
		how = FB_I_EARNED;
	} else if (s->speed == 1u || s->speed == 2u) {
		a = s->speed == 1u ? 0 : 1;
		how = FB_I_SPEED;
	}
	if (a >= 0 && in->ninit > 0)
		return util_say(why, whysz, "initiative is %s; no dice are rolled",
		    how == FB_I_EARNED ? "earned by last round's kick" :
		    "won by Speed");
	while (a < 0) {
		int d0, d1;

		if (pairs == 16) {
			a = 0;
			how = FB_I_TIE_FIRST;
			break;
		}
		d0 = die(&in->init[2 * pairs], rng);
		d1 = die(&in->init[2 * pairs + 1], rng);
		if (d0 < 1 || d0 > 6 || d1 < 1 || d1 > 6)
			return util_say(why, whysz, "an initiative die reads 1 to 6");
		pairs++;
		a = init_pair(s, d0, d1, &how);
	}
	if (in->ninit > 2 * pairs)
		return util_say(why, whysz, "initiative was settled by pair %d; "
		    "the rest of the dice are not used", pairs);
	in->ninit = 2 * pairs;
	s->attacker = a;
	s->last_attacker = a;
	s->earned = -1;
	s->restance = 0;
	s->stage = FB_INIT;
	r->init_how = how;
	r->attacker = a;
	return 0;
}

int
fb_initiative(struct fb_state *s, struct fb_in *in, struct rng *rng,
    struct fb_report *r, char *why, size_t whysz)
{
	struct fb_state t = *s;

	report_init(r, s);
	if (init_do(&t, in, rng, r, why, whysz) < 0)
		return -1;
	*s = t;
	return 0;
}

/* The sphere paying a move from target u to v, or -1 for none. */
static int
move_sphere(const struct fb_state *s, const struct fb_player *p, int u,
    int v, int want)
{
	int best = -1;

	for (int i = 0; i < s->b->ns; i++) {
		if (!fb_touches(s->b, i, u) || !fb_touches(s->b, i, v) ||
		    p->sph[i] < 1)
			continue;
		if (want >= 0 && i != want)
			continue;
		if (best < 0 || p->sph[i] > p->sph[best])
			best = i;
	}
	return best;
}

static int
adjacent(const struct fb_board *b, int u, int v)
{
	for (int i = 0; i < b->ns; i++)
		if (fb_touches(b, i, u) && fb_touches(b, i, v))
			return 1;
	return 0;
}

static int
aim_do(struct fb_state *s, struct fb_in *in, struct rng *rng,
    struct fb_report *r, char *why, size_t whysz)
{
	struct fb_player *p;
	int t;

	if (s->stage == FB_OPEN && init_do(s, in, rng, r, why, whysz) < 0)
		return -1;
	if (s->stage != FB_INIT)
		return util_say(why, whysz, "the target is already fixed this "
		    "round");
	p = &s->p[s->attacker];
	if (in->choose >= 0) {
		if (!s->choose)
			return util_say(why, whysz, "the target is rolled this "
			    "round; it is chosen only in the first round and "
			    "after a double botch (or with Sight)");
		if (in->tdie != 0)
			return util_say(why, whysz, "a chosen target has no die");
		t = in->choose;
		r->chose = 1;
	} else {
		if (in->tdie < 0 || in->tdie > 6)
			return util_say(why, whysz, "the target die reads 1 to 6");
		t = s->b->table[table_of(p)][die(&in->tdie, rng)];
		r->tdie = in->tdie;
	}
	r->base_target = t;
	s->die_target = t;
	for (int k = 0; k < in->nmoves; k++) {
		int v = in->moves[k], i;

		if (v < 0 || v >= FB_NT || v == t || !adjacent(s->b, t, v))
			return util_say(why, whysz, "'%s' does not lie next to "
			    "'%s'", v >= 0 && v < FB_NT ? s->b->tname[v] :
			    "?", s->b->tname[t]);
		if (in->movesph[k] >= 0 && (!fb_touches(s->b, in->movesph[k],
		    t) || !fb_touches(s->b, in->movesph[k], v)))
			return util_say(why, whysz, "sphere '%s' does not join "
			    "'%s' and '%s'", s->b->sname[in->movesph[k]],
			    s->b->tname[t], s->b->tname[v]);
		i = move_sphere(s, p, t, v, in->movesph[k]);
		if (i < 0)
			return util_say(why, whysz, "no counter left to pay the "
			    "move from '%s' to '%s'", s->b->tname[t],
			    s->b->tname[v]);
		in->movesph[k] = i;
		take_sphere(s, p, i, 1);
		p->pool++;
		r->move_cost++;
		r->spent[s->attacker]++;
		t = v;
	}
	s->target = t;
	r->target = t;
	s->stage = FB_AIMED;
	return 0;
}

int
fb_aim(struct fb_state *s, struct fb_in *in, struct rng *rng,
    struct fb_report *r, char *why, size_t whysz)
{
	struct fb_state t = *s;

	report_init(r, s);
	if (aim_do(&t, in, rng, r, why, whysz) < 0)
		return -1;
	check_cut_off(&t);
	r->ended = t.over;
	*s = t;
	return 0;
}

/* Moves counters pulled from spheres (pull[]) into a target. */
static int
pull_into(struct fb_state *s, int who, int target, const int8_t *pull,
    char *why, size_t whysz)
{
	struct fb_player *p = &s->p[who];
	int n = 0;

	for (int i = 0; i < s->b->ns; i++) {
		if (pull[i] == 0)
			continue;
		if (pull[i] < 0 || !fb_touches(s->b, i, target))
			return util_say(why, whysz, "sphere '%s' does not touch "
			    "'%s'", s->b->sname[i], s->b->tname[target]);
		if (pull[i] > p->sph[i])
			return util_say(why, whysz, "sphere '%s' holds %d, not %d",
			    s->b->sname[i], p->sph[i], pull[i]);
		take_sphere(s, p, i, pull[i]);
		n += pull[i];
	}
	for (int i = s->b->ns; i < FB_MAXS; i++)
		if (pull[i] != 0)
			return util_say(why, whysz, "no such sphere");
	return n;
}

/*
 * Gives a player's pulled counters (pull) back to their spheres but lost
 * of them, the losses taken one at a time from the largest contribution
 * (the first of equals).  1 if a sphere pulled from is left empty.
 */
static int
give_back(struct fb_player *p, int ns, const int8_t *pull, int lost)
{
	int empty = 0;
	int back[FB_MAXS] = { 0 };

	for (int i = 0; i < ns; i++)
		back[i] = pull[i];
	while (lost > 0) {
		int big = 0;

		for (int i = 1; i < ns; i++)
			if (back[i] > back[big])
				big = i;
		back[big]--;
		lost--;
	}
	for (int i = 0; i < ns; i++) {
		p->sph[i] += back[i];
		empty |= pull[i] > 0 && p->sph[i] == 0;
	}
	return empty;
}

/*
 * Puts n counters back from a target into the spheres touching it: as
 * placed by ret when given, else where they came from (pull), the
 * losses taken from the largest contribution first.
 */
static int
put_back(struct fb_state *s, int who, int target, const int8_t *pull, int n,
    const struct fb_in *in, char *why, size_t whysz)
{
	struct fb_player *p = &s->p[who];
	int sum = 0;

	if (in != NULL && in->ret_set) {
		for (int i = 0; i < FB_MAXS; i++) {
			if (in->ret[i] == 0)
				continue;
			if (i >= s->b->ns || in->ret[i] < 0 ||
			    !fb_touches(s->b, i, target))
				return util_say(why, whysz, "--return: a sphere that "
				    "touches '%s'", s->b->tname[target]);
			if (p->sph[i] + in->ret[i] > FB_CAP)
				return util_say(why, whysz, "--return: sphere '%s' "
				    "would hold %d", s->b->sname[i],
				    p->sph[i] + in->ret[i]);
			sum += in->ret[i];
		}
		if (sum != n)
			return util_say(why, whysz, "--return places %d counters; "
			    "%d go back", sum, n);
		for (int i = 0; i < s->b->ns; i++)
			p->sph[i] += in->ret[i];
		return 0;
	}
	for (int i = 0; i < s->b->ns; i++)
		sum += pull[i];
	(void)give_back(p, s->b->ns, pull, sum - n);
	return 0;
}

/*
 * How many spheres hold each number of counters, 0 to FB_CAP, counted
 * in one register: four bits a number (a board has at most FB_MAXS
 * spheres), so that the count of one never waits on the store of the
 * last, as an array's increments would (the sim's hottest loop).
 */
#define FB_AT_ONE(v)	(UINT32_C(1) << (4 * (v)))
#define FB_AT(at, v)	((int)(((at) >> (4 * (v))) & 0xf))
_Static_assert(FB_MAXS < 16 && 4 * (FB_CAP + 1) <= 32,
    "the counts fit their four bits");

/*
 * Places n gained counters in a player's spheres, fewest first, one at a
 * time, the first of equals first; what does not fit goes to her pool.
 * That is filling up to a level: raise every sphere below the highest
 * level the counters reach, then one more to each sphere at that level,
 * in board order, while counters last.  The level comes from a count of
 * the spheres at each height: raising every sphere to L + 1 costs what
 * raising them to L did, plus one for each sphere at L or below.
 */
void
fb_fill_fewest(struct fb_player *p, int ns, int n)
{
	uint32_t at = 0;
	int level = 0, need = 0, upto = 0;

	for (int i = 0; i < ns; i++)
		at += FB_AT_ONE(p->sph[i]);
	/* Find the highest level whose cost fits in n. */
	for (;;) {
		upto += FB_AT(at, level);
		if (level == FB_CAP || need + upto > n)
			break;
		need += upto;
		level++;
	}
	n -= need;
	for (int i = 0; i < ns; i++) {
		int v = p->sph[i] < level ? level : p->sph[i];

		if (v == level && n > 0 && level < FB_CAP) {
			v++;
			n--;
		}
		p->sph[i] = v;
	}
	p->pool += n;
}

/* Places n gained counters: by in->place, or fewest-first in spheres. */
static int
place_gain(struct fb_state *s, int who, int n, const struct fb_in *in,
    char *why, size_t whysz)
{
	struct fb_player *p = &s->p[who];

	if (in->place_set) {
		int sum = 0;

		for (int k = 0; k < FB_NSLOT; k++) {
			int v = in->place[k];

			if (v == 0)
				continue;
			if (v < 0 || (k < FB_MAXS && k >= s->b->ns) ||
			    k == FB_SLOT_ATT || k == FB_SLOT_DEF)
				return util_say(why, whysz, "--place: gained "
				    "counters go to spheres or GEAS slots");
			if (k < FB_MAXS && p->sph[k] + v > FB_CAP)
				return util_say(why, whysz, "--place: sphere '%s' "
				    "would hold %d", s->b->sname[k],
				    p->sph[k] + v);
			if (k >= FB_SLOT_GEAS &&
			    fb_geas_side(k - FB_SLOT_GEAS) >= 0 &&
			    fb_geas_side(k - FB_SLOT_GEAS) != p->side)
				return util_say(why, whysz, "--place: '%s' is for "
				    "the %s side only",
				    geas_names[k - FB_SLOT_GEAS],
				    fb_side_name(fb_geas_side(k -
				    FB_SLOT_GEAS)));
			sum += v;
		}
		if (sum > n)
			return util_say(why, whysz, "--place puts %d counters; %d "
			    "were gained", sum, n);
		for (int k = 0; k < s->b->ns; k++)
			p->sph[k] += in->place[k];
		for (int g = 0; g < FB_NGEAS; g++)
			p->geas[g] += in->place[FB_SLOT_GEAS + g];
		p->pool += n - sum;
		return 0;
	}
	fb_fill_fewest(p, s->b->ns, n);
	return 0;
}

/* A Light duelist who takes red counters turns to the Dark side. */
static void
turn_dark(struct fb_state *s, int who, struct fb_report *r)
{
	struct fb_player *p = &s->p[who];

	p->side = FB_DARK;
	p->colour = FB_RED;
	p->turned++;
	for (int g = 0; g < FB_NGEAS; g++)
		if (fb_geas_side(g) == FB_LIGHT) {
			p->pool += p->geas[g];
			p->geas[g] = 0;
		}
	if (p->free_geas >= 0 && fb_geas_side(p->free_geas) == FB_LIGHT)
		p->free_geas = -1;
	r->turned = who;
}

/* Heal: spheres below 3 are raised to 3 from the pool, evenly. */
static int
heal(struct fb_state *s, int who)
{
	struct fb_player *p = &s->p[who];
	int n = 0;

	for (int level = 1; level <= 3; level++)
		for (int i = 0; i < s->b->ns && p->pool > 0; i++)
			if (p->sph[i] < level) {
				p->sph[i]++;
				p->pool--;
				n++;
			}
	return n;
}

/*
 * A round as the rules play it, a phase each: the GEAS and the
 * initiative that open it, the aim, then the attacker's pass, a choke in
 * place of the attack, or the attack itself (the pulls, the Hit and Block
 * dice, where the counters go), and the end that clears the round.  A
 * phase that refuses leaves the state half done; fb_round works on a copy
 * and drops it.
 */
struct strike {
	int	 att, def;	/* the attacker and the defender */
	int	 tgt, ht;	/* the target struck, the attacker's hand */
	int	 hp, bp;	/* counters pulled into the hand, the target */
	int	 outcome;	/* FB_O_* */
};

/* GEAS before initiative (Hide, Speed), initiative, then the others. */
static int
round_open(struct fb_state *s, struct strike *st, struct fb_in *in,
    struct rng *rng, struct fb_report *r, char *why, size_t whysz)
{
	for (int k = 0; k < in->ngeas; k++)
		if (!in->geas[k].between && (in->geas[k].power == FB_HIDE ||
		    in->geas[k].power == FB_SPEED) &&
		    geas_do(s, &in->geas[k], 0, r, why, whysz) < 0)
			return -1;
	if (s->stage == FB_OPEN && init_do(s, in, rng, r, why, whysz) < 0)
		return -1;
	st->att = s->attacker;
	st->def = !st->att;
	r->attacker = st->att;
	for (int k = 0; k < in->ngeas; k++)
		if (!in->geas[k].between && in->geas[k].power != FB_HIDE &&
		    in->geas[k].power != FB_SPEED &&
		    geas_do(s, &in->geas[k], 0, r, why, whysz) < 0)
			return -1;
	return 0;
}

/* The attacker aims, unless she passes or chokes instead. */
static int
round_aim(struct fb_state *s, struct fb_in *in, struct rng *rng,
    struct fb_report *r, char *why, size_t whysz)
{
	if (in->pass || s->d.choke) {
		if (s->stage == FB_AIMED && in->pass)
			;	/* aimed, then thought better of it */
		else if (in->choose >= 0 || in->tdie != 0 || in->nmoves > 0)
			return util_say(why, whysz, "%s; there is no target",
			    in->pass ? "the attacker passes" :
			    "a choke replaces the attack");
	} else if (s->stage == FB_INIT) {
		if (aim_do(s, in, rng, r, why, whysz) < 0)
			return -1;
	} else if (in->choose >= 0 || in->tdie != 0 || in->nmoves > 0)
		return util_say(why, whysz, "the target is already fixed this "
		    "round");
	return 0;
}

/* The attacker passes: nobody pulls and nothing is rolled. */
static int
round_pass(const struct fb_in *in, char *why, size_t whysz)
{
	for (int i = 0; i < FB_MAXS; i++)
		if (in->pull[0][i] || in->pull[1][i])
			return util_say(why, whysz, "nobody pulls when the "
			    "attacker passes");
	if (in->kick || in->dmg || in->gain || in->hit[0] || in->block[0])
		return util_say(why, whysz, "the attacker passes; nothing is "
		    "rolled");
	return 0;
}

/*
 * A choke in place of the attack: the die drains the centre sphere, then
 * the head, and maims when it drains the head dry.
 */
static int
round_choke(struct fb_state *s, const struct strike *st, struct fb_in *in,
    struct rng *rng, struct fb_report *r, char *why, size_t whysz)
{
	struct fb_player *D = &s->p[st->def];
	int drain, c = s->b->center, head;

	for (int i = 0; i < FB_MAXS; i++)
		if (in->pull[st->att][i])
			return util_say(why, whysz, "a choke replaces the "
			    "attack; the attacker pulls nothing");
	if (in->hit[0] || in->hit[1] || in->block[0] ||
	    in->block[1] || in->dmg || in->gain || in->kick)
		return util_say(why, whysz, "a choke replaces the attack; "
		    "only the choke die is rolled");
	head = pull_into(s, st->def, FB_HEAD, in->pull[st->def], why, whysz);
	if (head < 0)
		return -1;
	drain = die(&in->choke, rng);
	if (drain < 1 || drain > 6)
		return util_say(why, whysz, "the choke die reads 1 to 6");
	r->dmg = drain;
	r->choked_sphere = drain < D->sph[c] ? drain : D->sph[c];
	take_sphere(s, D, c, r->choked_sphere);
	D->pool += r->choked_sphere;
	drain -= r->choked_sphere;
	r->target = FB_HEAD;
	if (drain > 0 && drain >= head) {
		r->choked_head = head;
		D->pool += head;
		finish(s, FB_E_MAIMED, st->att);
	} else {
		r->choked_head = drain;
		D->pool += drain;
		if (put_back(s, st->def, FB_HEAD, in->pull[st->def],
		    head - drain, in, why, whysz) < 0)
			return -1;
	}
	r->lost = r->choked_sphere + r->choked_head;
	return 0;
}

/* The target struck, then the defender's and the attacker's pulls. */
static int
round_pull(struct fb_state *s, struct strike *st, struct fb_in *in,
    struct fb_report *r, char *why, size_t whysz)
{
	int how;

	if (in->choke != 0)
		return util_say(why, whysz, "no choke die: nobody chokes this "
		    "round");
	st->tgt = struck_target(s, &how);
	r->sight = how == 1;
	r->mt = how == 2;
	r->target = st->tgt;
	r->base_target = s->die_target;
	st->ht = hand_target(&s->p[st->att]);
	if ((st->bp = pull_into(s, st->def, st->tgt, in->pull[st->def], why,
	    whysz)) < 0 ||
	    (st->hp = pull_into(s, st->att, st->ht, in->pull[st->att], why,
	    whysz)) < 0)
		return -1;
	return 0;
}

/*
 * Roll for attack and defence: the Hit dice, the GEAS used between the
 * rolls, the Block dice, then the outcome and the dice it allows.
 */
static int
round_roll(struct fb_state *s, struct strike *st, struct fb_in *in,
    struct rng *rng, struct fb_report *r, char *why, size_t whysz)
{
	int att = st->att, def = st->def, hit_die, block_die, hit_ok, block_ok;

	hit_die = s->p[att].att + st->hp + s->d.rage;
	block_die = s->p[def].def + st->bp + s->d.protect;
	r->hit_die = hit_die;
	r->block_die = block_die;
	if (in->hit[0] < 0 || in->hit[0] > 6 || in->hit[1] < 0 ||
	    in->hit[1] > 6 || in->block[0] < 0 || in->block[0] > 6 ||
	    in->block[1] < 0 || in->block[1] > 6)
		return util_say(why, whysz, "a die reads 1 to 6");
	r->hit_roll = die(&in->hit[0], rng) + die(&in->hit[1], rng);
	r->hit_auto = hit_die >= FB_AUTO_MISS &&
	    !(s->d.used[att] & 1u << FB_RAGE);
	hit_ok = !r->hit_auto && r->hit_roll <= hit_die;
	for (int k = 0; k < in->ngeas; k++)
		if (in->geas[k].between &&
		    geas_do(s, &in->geas[k], 1, r, why, whysz) < 0)
			return -1;
	r->block_roll = die(&in->block[0], rng) + die(&in->block[1], rng);
	r->block_auto = block_die >= FB_AUTO_MISS &&
	    !(s->d.used[def] & 1u << FB_PROTECT);
	block_ok = !r->block_auto && r->block_roll <= block_die;
	if (s->d.jump)
		hit_ok = 0;
	if (s->d.push && !s->d.pull)
		hit_ok = block_ok = 0;
	else if (s->d.pull && !s->d.push)
		hit_ok = block_ok = 1;
	r->hit_ok = hit_ok;
	r->block_ok = block_ok;

	if (hit_ok && block_ok)
		st->outcome = FB_O_HITBLOCK;
	else if (!hit_ok && !block_ok)
		st->outcome = FB_O_DOUBLEBOTCH;
	else if (!hit_ok)
		st->outcome = FB_O_BOTCHBLOCK;
	else
		st->outcome = in->kick ? FB_O_KICK : FB_O_HIT;
	if (in->kick && st->outcome != FB_O_KICK)
		return util_say(why, whysz, "a kick needs a hit the defender "
		    "failed to block");
	if (in->gain != 0 && (st->outcome != FB_O_BOTCHBLOCK || s->d.heal))
		return util_say(why, whysz, "no gain die: the defender gains "
		    "only by blocking a botched attack without Heal");
	if (in->dmg != 0 && st->outcome != FB_O_HIT)
		return util_say(why, whysz, "no damage die: the attack did not "
		    "land unblocked");
	return 0;
}

/* A hit unblocked: the damage die, and a maim when it empties the target. */
static int
settle_hit(struct fb_state *s, const struct strike *st, struct fb_in *in,
    struct rng *rng, struct fb_report *r, char *why, size_t whysz)
{
	struct fb_player *A = &s->p[st->att], *D = &s->p[st->def];
	int d = die(&in->dmg, rng);

	if (d < 1 || d > 6)
		return util_say(why, whysz, "the damage die reads 1 to 6");
	r->dmg = d;
	if (d >= st->bp) {
		r->lost = st->bp;
		D->pool += st->bp;
		finish(s, FB_E_MAIMED, st->att);
	} else {
		r->lost = d;
		D->pool += d;
		if (put_back(s, st->def, st->tgt, in->pull[st->def],
		    st->bp - d, in, why, whysz) < 0)
			return -1;
	}
	if (st->tgt == FB_LLEG || st->tgt == FB_RLEG)
		D->legs |= 1u << (st->tgt == FB_RLEG);
	A->pool += st->hp;
	r->spent[st->att] += st->hp;
	return 0;
}

/*
 * A botched attack blocked: the defender heals with Heal, else gains the
 * gain die's counters from her pool or, on the Dark side, the foe's.
 */
static int
settle_gain(struct fb_state *s, const struct strike *st, struct fb_in *in,
    struct rng *rng, struct fb_report *r, char *why, size_t whysz)
{
	struct fb_player *A = &s->p[st->att], *D = &s->p[st->def];

	if (s->d.heal) {
		r->healed = heal(s, st->def);
		return 0;
	}
	r->gain = die(&in->gain, rng);
	if (r->gain < 1 || r->gain > 6)
		return util_say(why, whysz, "the gain die reads 1 to 6");
	if (in->gain_foe) {
		if (D->side == FB_LIGHT && A->side == FB_LIGHT)
			return util_say(why, whysz, "only the Dark side "
			    "takes from the foe's pool");
		r->gained = r->gain < A->pool ? r->gain : A->pool;
		A->pool -= r->gained;
		r->gain_foe = 1;
	} else {
		r->gained = r->gain < D->pool ? r->gain : D->pool;
		D->pool -= r->gained;
	}
	if (place_gain(s, st->def, r->gained, in, why, whysz) < 0)
		return -1;
	if (in->gain_foe && D->side == FB_LIGHT && r->gained > 0)
		turn_dark(s, st->def, r);
	return 0;
}

/* Where every counter goes after the dice, then the legs. */
static int
round_settle(struct fb_state *s, const struct strike *st, struct fb_in *in,
    struct rng *rng, struct fb_report *r, char *why, size_t whysz)
{
	struct fb_player *A = &s->p[st->att], *D = &s->p[st->def];
	int att = st->att, def = st->def;

	switch (st->outcome) {
	case FB_O_HIT:
		if (settle_hit(s, st, in, rng, r, why, whysz) < 0)
			return -1;
		break;
	case FB_O_KICK:
		/* A kick spends nothing; the kicker re-stances freely. */
		if (put_back(s, def, st->tgt, in->pull[def], st->bp, in, why,
		    whysz) < 0 || put_back(s, att, st->ht, in->pull[att],
		    st->hp, NULL, why, whysz) < 0)
			return -1;
		if (D->pool > 0) {
			D->pool--;
			r->gained = 1;
			if (place_gain(s, att, 1, in, why, whysz) < 0)
				return -1;
		}
		s->earned = att;
		s->restance |= 1u << att;
		break;
	case FB_O_DOUBLEBOTCH:
		if (put_back(s, def, st->tgt, in->pull[def], st->bp, in, why,
		    whysz) < 0 || put_back(s, att, st->ht, in->pull[att],
		    st->hp, NULL, why, whysz) < 0)
			return -1;
		s->restance = 3u;
		break;
	case FB_O_BOTCHBLOCK:
	case FB_O_HITBLOCK:
		if (put_back(s, def, st->tgt, in->pull[def], st->bp, in, why,
		    whysz) < 0)
			return -1;
		A->pool += st->hp;
		r->spent[att] += st->hp;
		if (st->outcome == FB_O_BOTCHBLOCK &&
		    settle_gain(s, st, in, rng, r, why, whysz) < 0)
			return -1;
		break;
	}
	if (!s->over && (D->legs & 3u) == 3u)
		finish(s, FB_E_LEGS, att);
	return 0;
}

/* The round ends: who is cut off, and a clean slate for the next. */
static void
round_end(struct fb_state *s, int outcome, struct fb_report *r)
{
	r->outcome = outcome;
	check_cut_off(s);
	r->ended = s->over;
	s->round++;
	s->stage = FB_OPEN;
	s->choose = outcome == FB_O_DOUBLEBOTCH;
	s->hide = s->speed = 0;
	memset(&s->d, 0, sizeof s->d);
	s->d.sight_target = s->d.mt_target = -1;
	s->target = s->die_target = -1;
}

static int
round_do(struct fb_state *s, struct fb_in *in, struct rng *rng,
    struct fb_report *r, char *why, size_t whysz)
{
	struct strike st = { 0 };

	if (s->over)
		return util_say(why, whysz, "the duel is over");
	if (round_open(s, &st, in, rng, r, why, whysz) < 0)
		return -1;
	if (s->over)
		return 0;
	if (round_aim(s, in, rng, r, why, whysz) < 0)
		return -1;
	if (in->pass) {
		if (round_pass(in, why, whysz) < 0)
			return -1;
		st.outcome = FB_O_PASS;
	} else if (s->d.choke) {
		if (round_choke(s, &st, in, rng, r, why, whysz) < 0)
			return -1;
		st.outcome = FB_O_CHOKE;
	} else if (round_pull(s, &st, in, r, why, whysz) < 0 ||
	    round_roll(s, &st, in, rng, r, why, whysz) < 0 ||
	    round_settle(s, &st, in, rng, r, why, whysz) < 0)
		return -1;
	round_end(s, st.outcome, r);
	return 0;
}

int
fb_round(struct fb_state *s, struct fb_in *in, struct rng *rng,
    struct fb_report *r, char *why, size_t whysz)
{
	struct fb_state t = *s;

	report_init(r, s);
	if (round_do(&t, in, rng, r, why, whysz) < 0)
		return -1;
	*s = t;
	return 0;
}

int
fb_restance(struct fb_state *s, int who, const struct fb_stance *st,
    char *why, size_t whysz)
{
	struct fb_player *p = &s->p[who];
	int have = fb_board_count(s, who), want;

	if (s->over)
		return util_say(why, whysz, "the duel is over");
	if (!(s->restance & 1u << who) || s->stage != FB_OPEN)
		return util_say(why, whysz, "a new stance is taken only after a "
		    "double botch or a successful kick, before the next "
		    "initiative");
	for (int i = 0; i < s->b->ns; i++)
		if (st->sph[i] < 0 || st->sph[i] > FB_CAP)
			return util_say(why, whysz, "sphere '%s' would hold %d; a "
			    "sphere holds 0 to %d", s->b->sname[i],
			    st->sph[i], FB_CAP);
	if (st->att < 0 || st->att > FB_ATTDEF_MAX || st->def < 0 ||
	    st->def > FB_ATTDEF_MAX)
		return util_say(why, whysz, "ATT and DEF hold 0 to %d each",
		    FB_ATTDEF_MAX);
	for (int g = 0; g < FB_NGEAS; g++)
		if (st->geas[g] < 0 || (st->geas[g] > 0 &&
		    fb_geas_side(g) >= 0 && fb_geas_side(g) != p->side))
			return util_say(why, whysz, "GEAS '%s' may not hold %d",
			    geas_names[g], st->geas[g]);
	want = fb_stance_placed(s->b, st);
	if (want != have)
		return util_say(why, whysz, "the new stance places %d counters; "
		    "the board holds %d (the pool stays as it is)", want,
		    have);
	set_spheres(s->b, p->sph, st->sph);
	p->att = st->att;
	p->def = st->def;
	memcpy(p->geas, st->geas, sizeof p->geas);
	if (p->gift > p->sph[s->b->center])
		p->gift = p->sph[s->b->center];
	s->restance &= ~(1u << who);
	check_cut_off(s);
	return 0;
}

const char *const fb_adjust_names[] = { "ATT", "DEF", "POOL", NULL };

int
fb_adjust(struct fb_state *s, int who, const struct ruling_change *c,
    int n, char *why, size_t whysz)
{
	struct fb_player *p = &s->p[who];
	int v[3] = { p->att, p->def, p->pool };
	const int max[3] = { FB_ATTDEF_MAX, FB_ATTDEF_MAX,
	    FB_POOL_ADJUST_MAX };

	if (s->over)
		return util_say(why, whysz, "the duel is over");
	for (int k = 0; k < n; k++) {
		int i = util_lookup(fb_adjust_names, 3, c[k].name, strcmp);
		long x = ruling_apply(&c[k], v[i]);

		if (x < 0 || x > max[i])
			return util_say(why, whysz, "%s would be %ld: it holds "
			    "0 to %d", c[k].name, x, max[i]);
		v[i] = (int)x;
	}
	if (v[0] == p->att && v[1] == p->def && v[2] == p->pool)
		return util_say(why, whysz, "the ruling changes nothing");
	s->total += v[0] - p->att + v[1] - p->def + v[2] - p->pool;
	p->att = v[0];
	p->def = v[1];
	p->pool = v[2];
	return 0;
}

/* ---- the built-in strategy of fb-duel sim ---- */

/* Counters in the spheres touching target t, for each t. */
static void
guard(const struct fb_state *s, int who, int *n)
{
	for (int t = 0; t < FB_NT; t++) {
		n[t] = 0;
		for (int k = 0; k < s->b->tn[t]; k++)
			n[t] += s->p[who].sph[s->b->tsph[t][k]];
	}
}

/* The foe's target whose spheres hold the fewest counters (the first). */
static int
weakest_target(const struct fb_state *s, int foe)
{
	int n[FB_NT], best = 0;

	guard(s, foe, n);
	for (int t = 1; t < FB_NT; t++)
		best = n[t] < n[best] ? t : best;
	return best;
}

static void
add_geas(struct fb_in *in, int who, int power, int n, int target)
{
	struct fb_geas_in *g;

	if (in->ngeas >= 8)
		return;
	g = &in->geas[in->ngeas++];
	memset(g, 0, sizeof *g);
	g->who = who;
	g->power = power;
	g->n = n;
	g->target = target;
}

static int
can(const struct fb_state *s, int who, int g)
{
	const struct fb_player *p = &s->p[who];

	return has_counters(p, g, 1) &&
	    (fb_geas_side(g) < 0 || fb_geas_side(g) == p->side) &&
	    !(s->hide & 1u << !who);
}

void
fb_strategy_geas(const struct fb_state *s, int who, struct fb_in *in)
{
	const struct fb_player *foe = &s->p[!who];

	if (s->stage == FB_OPEN) {
		if (can(s, who, FB_SPEED) && s->earned < 0)
			add_geas(in, who, FB_SPEED, 1, -1);
		if (can(s, who, FB_LIGHTNING)) {
			int n = s->p[who].free_geas == FB_LIGHTNING ? 1 :
			    s->p[who].geas[FB_LIGHTNING] < 2 ?
			    s->p[who].geas[FB_LIGHTNING] : 2;
			struct fb_geas_in *g;

			add_geas(in, who, FB_LIGHTNING, n, -1);
			g = &in->geas[in->ngeas - 1];
			g->absorb = foe->side == FB_LIGHT ?
			    (foe->free_geas == FB_ABSORB ? 1 :
			    foe->geas[FB_ABSORB] < n ?
			    foe->geas[FB_ABSORB] : n) : 0;
		}
		return;
	}
	if (who == s->attacker) {
		if (can(s, who, FB_CHOKE) && foe->sph[s->b->center] <= 2)
			add_geas(in, who, FB_CHOKE, 1, -1);
		else {
			if (can(s, who, FB_SIGHT))
				add_geas(in, who, FB_SIGHT, 1,
				    weakest_target(s, !who));
			if (can(s, who, FB_RAGE))
				add_geas(in, who, FB_RAGE,
				    s->p[who].geas[FB_RAGE] > 0 ?
				    s->p[who].geas[FB_RAGE] : 1, -1);
		}
	} else {
		if (can(s, who, FB_PROTECT))
			add_geas(in, who, FB_PROTECT,
			    s->p[who].geas[FB_PROTECT] > 0 ?
			    s->p[who].geas[FB_PROTECT] : 1, -1);
		if (can(s, who, FB_MINDTRICK)) {
			/* The target her spheres guard best (the first). */
			int n[FB_NT], best = 0;

			guard(s, who, n);
			for (int t = 1; t < FB_NT; t++)
				best = n[t] > n[best] ? t : best;
			add_geas(in, who, FB_MINDTRICK, 1, best);
		}
	}
}

void
fb_strategy_aim(const struct fb_state *s, struct fb_in *in)
{
	if (s->choose)
		in->choose = weakest_target(s, !s->attacker);
}

/*
 * Pulls for who into target t: the defender fills her Block Die up to
 * 10 from the fullest spheres; the attacker, whose pulls are spent,
 * takes only from spheres holding 3 or more and leaves 2 in each.
 * Returns the counters pulled.
 *
 * Fullest first, one counter at a time (the first of equals first), is
 * water-filling: find the lowest level whose excess fits in want, take
 * all of it, then one more from each sphere at that level, in board
 * order, while want lasts.  The excess over L is the excess over L + 1
 * plus one for each sphere above L, so a count of the spheres at each
 * height finds the level without a pass per level.
 */
static int
strategy_pull(const struct fb_state *s, int who, int t, int base,
    int keep, int8_t *pull)
{
	const struct fb_player *p = &s->p[who];
	const int *ts = s->b->tsph[t];
	int n = s->b->tn[t], want = FB_AUTO_MISS - 1 - base, level = FB_CAP;
	uint32_t at = 0;
	int above = 0, over = 0, got = 0;

	if (want <= 0)
		return 0;
	for (int k = 0; k < n; k++)
		at += FB_AT_ONE(p->sph[ts[k]]);
	while (level > keep) {
		over += FB_AT(at, level);	/* spheres above level - 1 */
		if (above + over > want)
			break;
		above += over;
		level--;
	}
	want -= above;
	for (int k = 0; k < n; k++) {
		int v = p->sph[ts[k]];
		int take = v > level ? v - level : 0;

		if (v >= level && want > 0 && level > keep) {
			take++;
			want--;
		}
		pull[ts[k]] = (int8_t)take;
		got += take;
	}
	return got;
}

void
fb_strategy_round(const struct fb_state *s, struct fb_in *in)
{
	int att = s->attacker, def = !att, how, tgt;

	if (s->d.choke)
		return;
	tgt = struck_target(s, &how);
	(void)strategy_pull(s, def, tgt, s->p[def].def, 0, in->pull[def]);
	(void)strategy_pull(s, att, hand_target(&s->p[att]), s->p[att].att,
	    2, in->pull[att]);
	/* A Dark defender takes her gain from the richer pool. */
	if (s->p[def].side == FB_DARK && s->p[att].pool > s->p[def].pool)
		in->gain_foe = 1;
}

/* GEAS that answer the Hit roll (in->hit already rolled). */
static void
strategy_between(const struct fb_state *s, struct fb_in *in, int hit_ok)
{
	int att = s->attacker, def = !att;

	if (hit_ok && can(s, def, FB_JUMP))
		add_geas(in, def, FB_JUMP, 1, -1);
	else if (hit_ok && can(s, def, FB_PUSH))
		add_geas(in, def, FB_PUSH, 1, -1);
	else if (!hit_ok && can(s, att, FB_PULL))
		add_geas(in, att, FB_PULL, 1, -1);
	else if (!hit_ok && can(s, def, FB_HEAL)) {
		int low = 0;

		for (int i = 0; i < s->b->ns; i++)
			low += s->p[def].sph[i] < 3 ? 3 - s->p[def].sph[i] : 0;
		if (low >= 2)
			add_geas(in, def, FB_HEAL, 1, -1);
	}
	for (int k = 0; k < in->ngeas; k++)
		in->geas[k].between = 1;
}

/*
 * Kicks when the attack lands unblocked on a target the damage die would
 * maim no more than one time in three (5 or more counters there).
 */
static void
strategy_kick(const struct fb_state *s, struct fb_in *in, int hit_roll,
    int hit_die, struct rng *rng)
{
	int def = !s->attacker, bp = 0, block_die, block_roll;

	if (hit_roll > hit_die || (hit_die >= FB_AUTO_MISS &&
	    !(s->d.used[s->attacker] & 1u << FB_RAGE)))
		return;
	for (int i = 0; i < s->b->ns; i++)
		bp += in->pull[def][i];
	block_die = s->p[def].def + bp + s->d.protect;
	block_roll = die(&in->block[0], rng) + die(&in->block[1], rng);
	if ((block_roll > block_die || (block_die >= FB_AUTO_MISS &&
	    !(s->d.used[def] & 1u << FB_PROTECT))) && bp >= 5)
		in->kick = 1;
}

/* Applies the GEAS the strategy chose, then forgets them. */
static void
sim_geas(struct fb_state *s, struct fb_in *in, struct fb_report *r)
{
	char why[FB_WHYSZ];

	for (int k = 0; k < in->ngeas && !s->over; k++)
		(void)geas_do(s, &in->geas[k], 0, r, why, sizeof why);
	in->ngeas = 0;
}

/* A player's pulls into target t spent: gone from her spheres. */
static void
spend_pull(struct fb_player *p, const struct fb_board *b, int t,
    const int8_t *pull)
{
	for (int k = 0; k < b->tn[t]; k++)
		p->sph[b->tsph[t][k]] -= pull[b->tsph[t][k]];
}

/* Initiative as init_do rules it: 16 tied pairs give it to the first. */
static int
lean_initiative(struct fb_state *s, struct rng *rng)
{
	int att = s->earned;

	for (int pairs = 0; att < 0; pairs++) {
		int d0, d1, how;

		if (pairs == 16) {
			att = 0;
			break;
		}
		d0 = rng_d6(rng);
		d1 = rng_d6(rng);
		att = init_pair(s, d0, d1, &how);
	}
	return att;
}

/*
 * Where the counters go after the lean round's dice.  Pulls that all go
 * back move nothing; a spent pull leaves its spheres for the pool.
 * Returns 1 when the damage emptied a sphere.
 */
static int
lean_settle(struct fb_state *s, const struct strike *st, const int8_t *pa,
    const int8_t *pd, int gain_foe, struct rng *rng)
{
	const struct fb_board *b = s->b;
	struct fb_player *A = &s->p[st->att], *D = &s->p[st->def];
	int ns = b->ns, empty = 0;

	switch (st->outcome) {
	case FB_O_HIT: {
		int d = rng_d6(rng);

		spend_pull(A, b, st->ht, pa);
		A->pool += st->hp;
		spend_pull(D, b, st->tgt, pd);
		if (d >= st->bp) {
			D->pool += st->bp;
			finish(s, FB_E_MAIMED, st->att);
		} else {
			D->pool += d;
			empty = give_back(D, ns, pd, d);
		}
		if (st->tgt == FB_LLEG || st->tgt == FB_RLEG)
			D->legs |= 1u << (st->tgt == FB_RLEG);
		break;
	}
	case FB_O_KICK:
		if (D->pool > 0) {
			D->pool--;
			fb_fill_fewest(A, ns, 1);
		}
		s->earned = st->att;
		s->restance = 1u << st->att;
		break;
	case FB_O_DOUBLEBOTCH:
		s->restance = 3u;
		break;
	case FB_O_BOTCHBLOCK:
	case FB_O_HITBLOCK: {
		int gain, *from;

		spend_pull(A, b, st->ht, pa);
		A->pool += st->hp;
		if (st->outcome == FB_O_HITBLOCK)
			break;
		gain = rng_d6(rng);
		from = gain_foe ? &A->pool : &D->pool;
		gain = gain < *from ? gain : *from;
		*from -= gain;
		fb_fill_fewest(D, ns, gain);
		break;
	}
	}
	return empty;
}

/*
 * One round of the sim between duelists with no GEAS (no counters in any
 * GEAS slot, no free GEAS, no gift), as the stages and the strategy play
 * it, without the input, the report and the checks: the same dice in the
 * same order, the same counters moved, the same state after.  unit-fb
 * plays duels both ways and compares them.
 */
static void
lean_round(struct fb_state *s, struct rng *rng)
{
	const struct fb_board *b = s->b;
	struct fb_player *A, *D;
	struct strike st;
	int8_t pa[FB_MAXS] = { 0 }, pd[FB_MAXS] = { 0 };
	int hit_die, block_die, hit_ok, block_ok, hit_roll, block_roll;
	int gain_foe, empty;

	st.att = lean_initiative(s, rng);
	st.def = !st.att;
	s->attacker = s->last_attacker = st.att;
	s->earned = -1;
	s->restance = 0;
	A = &s->p[st.att];
	D = &s->p[st.def];

	/* The target, and the pulls. */
	st.tgt = s->choose ? weakest_target(s, st.def) :
	    b->table[table_of(A)][rng_d6(rng)];
	st.ht = hand_target(A);
	st.bp = strategy_pull(s, st.def, st.tgt, D->def, 0, pd);
	st.hp = strategy_pull(s, st.att, st.ht, A->att, 2, pa);
	gain_foe = (D->side == FB_DARK) & (A->pool > D->pool);

	/* The rolls: Hit, then Block (the kick's look comes between). */
	hit_die = A->att + st.hp;
	block_die = D->def + st.bp;
	hit_roll = rng_d6(rng);
	hit_roll += rng_d6(rng);
	block_roll = rng_d6(rng);
	block_roll += rng_d6(rng);
	hit_ok = hit_die < FB_AUTO_MISS && hit_roll <= hit_die;
	block_ok = block_die < FB_AUTO_MISS && block_roll <= block_die;
	if (hit_ok)
		st.outcome = block_ok ? FB_O_HITBLOCK :
		    st.bp >= 5 ? FB_O_KICK : FB_O_HIT;
	else
		st.outcome = block_ok ? FB_O_BOTCHBLOCK : FB_O_DOUBLEBOTCH;

	empty = lean_settle(s, &st, pa, pd, gain_foe, rng);
	if (!s->over && (D->legs & 3u) == 3u)
		finish(s, FB_E_LEGS, st.att);
	/*
	 * Nobody was cut off when the round began.  The attacker's pulls
	 * leave 2 in a sphere, and the defender's come back but for the
	 * damage, so only damage can empty a sphere.
	 */
	if (empty)
		check_cut_off(s);
	s->round++;
	s->choose = st.outcome == FB_O_DOUBLEBOTCH;
}

/*
 * 1 if the duel can take the lean path: nobody holds any GEAS, and
 * nobody is cut off from a target yet.
 */
static int
geasless(const struct fb_state *s)
{
	for (int w = 0; w < 2; w++) {
		if (s->p[w].free_geas >= 0 || s->p[w].gift != 0 ||
		    cut_off(s, w) != 0)
			return 0;
		for (int g = 0; g < FB_NGEAS; g++)
			if (s->p[w].geas[g] != 0)
				return 0;
	}
	return 1;
}

int
fb_sim_duel(struct fb_state *s, struct rng *rng, int max_rounds)
{
	if (s->stage != FB_OPEN || !geasless(s))
		return fb_sim_duel_staged(s, rng, max_rounds);
	while (!s->over) {
		if (s->round > max_rounds) {
			finish(s, FB_E_LIMIT, -1);
			break;
		}
		lean_round(s, rng);
	}
	return s->round - 1;
}

/*
 * The sim works on s directly: the strategy never asks for what the rules
 * refuse, and a refusal (a bug) stops the duel with -1.
 */
int
fb_sim_duel_staged(struct fb_state *s, struct rng *rng, int max_rounds)
{
	struct fb_report r;
	struct fb_in in;
	char why[FB_WHYSZ];
	int geasy = 0;

	/* The strategy spends GEAS counters and never adds any. */
	for (int w = 0; w < 2; w++) {
		geasy |= s->p[w].free_geas >= 0;
		for (int g = 0; g < FB_NGEAS; g++)
			geasy |= s->p[w].geas[g] > 0;
	}
	while (!s->over) {
		int att, def, hp = 0, hit_die, hit_roll;

		if (s->round > max_rounds) {
			finish(s, FB_E_LIMIT, -1);
			break;
		}
		fb_in_init(&in);
		if (geasy) {
			fb_strategy_geas(s, 0, &in);
			fb_strategy_geas(s, 1, &in);
			sim_geas(s, &in, &r);
			if (s->over)
				break;
		}
		if (init_do(s, &in, rng, &r, why, sizeof why) < 0)
			return -1;
		att = s->attacker;
		def = !att;
		if (geasy) {
			fb_strategy_geas(s, att, &in);
			fb_strategy_geas(s, def, &in);
			sim_geas(s, &in, &r);
			if (s->over)
				break;
		}
		if (!s->d.choke) {
			fb_strategy_aim(s, &in);
			if (aim_do(s, &in, rng, &r, why, sizeof why) < 0)
				return -1;
			in.choose = -1;
			in.tdie = 0;
		}
		fb_strategy_round(s, &in);
		/* See the Hit roll, as the duelists would, before answering. */
		if (!s->d.choke) {
			for (int i = 0; i < s->b->ns; i++)
				hp += in.pull[att][i];
			hit_die = s->p[att].att + hp + s->d.rage;
			hit_roll = die(&in.hit[0], rng) + die(&in.hit[1], rng);
			if (geasy)
				strategy_between(s, &in, hit_roll <= hit_die &&
				    (hit_die < FB_AUTO_MISS ||
				    (s->d.used[att] & 1u << FB_RAGE)));
			if (in.ngeas == 0)
				strategy_kick(s, &in, hit_roll, hit_die, rng);
		}
		if (round_do(s, &in, rng, &r, why, sizeof why) < 0)
			return -1;
	}
	return s->round - 1;
}
