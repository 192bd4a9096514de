/*
 * bg.c - the rules of Battle Grounds: boards, line-ups, moves, battles,
 * zones and powers.  Pure; see bg.h, and bg-board(1) for the rulings.
 */
#include "bg/bg.h"
#include "core/ruling.h"
#include "base/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *const level_names[BG_NLEVEL] = { "SA", "I", "II", "III" };
static const char *const colour_names[BG_ALL + 1] = {
	"red", "orange", "yellow", "green", "blue", "purple", "white", "all"
};
static const char *const power_names[BG_NPOWER] = {
	"hypnotize", "super-sense", "swap", "telepathy", "teleport"
};
/* The line-ups: figures of each level (SA, I, II, III), basic, advanced. */
static const int lineup[2][BG_NLEVEL] = { { 2, 4, 4, 2 }, { 2, 6, 4, 4 } };

/*
 * The setup rows, from the left as the south player sees them (both are
 * symmetric): the back row, then the front row.  '*' marks the two
 * squares the Cosmic figure may start on.  The seed prints the advanced
 * one; the basic one is ours, the advanced one without its outer III
 * pair and one level I figure from each side of the front row.
 */
static const char *const setup_rows[2][2] = {
	{ "II II III* III* II II", "I I SA SA I I" },
	{ "II II III III* III* III II II", "I I I SA SA I I I" }
};

const char *bg_level_name(int level) { return level_names[level]; }
const char *bg_colour_name(int c) { return colour_names[c]; }
const char *bg_power_name(int p) { return power_names[p]; }

int
bg_level_find(const char *s)
{
	int l;

	if (strcasecmp(s, "S/A") == 0 || strcasecmp(s, "S") == 0 ||
	    strcasecmp(s, "A") == 0 || strcasecmp(s, "starter") == 0 ||
	    strcasecmp(s, "accessory") == 0)
		return BG_SA;
	if ((l = util_lookup(level_names, BG_NLEVEL, s, strcasecmp)) >= 0)
		return l;
	if (strcmp(s, "1") == 0 || strcmp(s, "2") == 0 || strcmp(s, "3") == 0)
		return s[0] - '0';
	return -1;
}

int
bg_colour_find(const char *s)
{
	return util_lookup(colour_names, BG_NSTAT, s, strcasecmp);
}

int
bg_power_find(const char *s)
{
	if (strcasecmp(s, "supersense") == 0 ||
	    strcasecmp(s, "swap-powers") == 0)
		return s[1] == 'u' || s[1] == 'U' ? BG_SUPERSENSE : BG_SWAP;
	return util_lookup(power_names, BG_NPOWER, s, strcasecmp);
}

int
bg_name_ok(const char *s)
{
	return util_name_ok(s, BG_NAMESZ - 1);
}

/* ---- teams ---- */

int
bg_team_check(const struct bg_team *t, int advanced,
    void (*bad)(void *, const char *), void *arg)
{
	static const char *const plural[BG_NLEVEL] = {
		"Starter/Accessory", "level I", "level II", "level III"
	};
	int have[BG_NLEVEL] = { 0 }, cosmic = 0, nbad = 0;
	char m[BG_WHYSZ];

#define BAD(...) do { snprintf(m, sizeof m, __VA_ARGS__); bad(arg, m); \
	nbad++; } while (0)
	for (int i = 0; i < t->n; i++) {
		have[t->f[i].level]++;
		if (t->f[i].cosmic) {
			cosmic++;
			if (t->f[i].level != BG_III)
				BAD("Cosmic figure '%s' is level %s; a Cosmic "
				    "figure is level III", t->f[i].name,
				    level_names[t->f[i].level]);
		}
		for (int j = 0; j < i; j++)
			if (strcasecmp(t->f[i].name, t->f[j].name) == 0)
				BAD("two figures are named '%s'",
				    t->f[i].name);
	}
	for (int l = 0; l < BG_NLEVEL; l++)
		if (have[l] != lineup[advanced][l])
			BAD("the %s line-up has %d %s figures, not %d",
			    advanced ? "advanced" : "basic",
			    lineup[advanced][l], plural[l], have[l]);
	if (cosmic != 1)
		BAD("a team has exactly one Cosmic figure, not %d", cosmic);
#undef BAD
	return nbad;
}

static void
ignore(void *arg, const char *m)
{
	(void)arg;
	(void)m;
}

int
bg_team_lineup(const struct bg_team *t)
{
	for (int a = 0; a < 2; a++)
		if (bg_team_check(t, a, ignore, NULL) == 0)
			return a;
	return -1;
}

/* ---- the board ---- */

static int
on_board(const struct bg_game *g, int file, int rank)
{
	return file >= 0 && file < g->w && rank >= 0 && rank < g->h;
}

int
bg_square_parse(const struct bg_game *g, const char *s)
{
	int file, rank = 0;

	if (s[0] >= 'A' && s[0] <= 'H')
		file = s[0] - 'A';
	else if (s[0] >= 'a' && s[0] <= 'h')
		file = s[0] - 'a';
	else
		return -1;
	if (s[1] < '1' || s[1] > '9' || s[2] != '\0')
		return -1;
	rank = s[1] - '1';
	return on_board(g, file, rank) ? rank * g->w + file : -1;
}

void
bg_square_name(const struct bg_game *g, int sq, char buf[4])
{
	buf[0] = (char)('a' + sq % g->w);
	buf[1] = (char)('1' + sq / g->w);
	buf[2] = '\0';
}

/* Which side's home rows hold sq (0 south, 1 north), or -1 the middle. */
static int
side_of(const struct bg_game *g, int sq)
{
	int rank = sq / g->w;

	return rank < 3 ? 0 : rank >= g->h - 3 ? 1 : -1;
}

int
bg_square_colour(const struct bg_game *g, int sq)
{
	int side = side_of(g, sq), f = sq % g->w;

	if (side < 0)
		return BG_WHITE;
	/* Colours run red to purple from each side's own left. */
	if (side == 1)
		f = g->w - 1 - f;
	if (!g->advanced)
		return f;
	return f < 3 ? f : f < 5 ? BG_ALL : f - 2;
}

int
bg_home(const struct bg_game *g, int p, int sq)
{
	return side_of(g, sq) == p;
}

/* The rank of player p's n-th row from her edge (0 her back row). */
static int
row_of(const struct bg_game *g, int p, int n)
{
	return p == 0 ? n : g->h - 1 - n;
}

int
bg_staging(const struct bg_game *g, int p, int sq)
{
	int rank = sq / g->w;

	return rank == row_of(g, p, 0) || rank == row_of(g, p, 1);
}

int
bg_setup_slot(const struct bg_game *g, int p, int sq, int *star)
{
	int rank = sq / g->w, file = sq % g->w, row;
	const char *s;
	char word[8];

	*star = 0;
	if (rank == row_of(g, p, 0))
		row = 0;
	else if (rank == row_of(g, p, 1))
		row = 1;
	else
		return -1;
	s = setup_rows[g->advanced][row];
	for (int f = 0; f <= file; f++) {
		size_t n = strcspn(s, " ");

		snprintf(word, sizeof word, "%.*s", (int)n, s);
		s += n + (s[n] == ' ');
	}
	*star = strchr(word, '*') != NULL;
	word[strcspn(word, "*")] = '\0';
	return bg_level_find(word);
}

/* ---- the game ---- */

const struct bg_figure *
bg_fig(const struct bg_game *g, int piece)
{
	return &g->team[piece / BG_MAXFIG].f[piece % BG_MAXFIG];
}

int
bg_piece_find(const struct bg_game *g, int p, const char *name)
{
	for (int i = 0; i < g->team[p].n; i++)
		if (strcasecmp(g->team[p].f[i].name, name) == 0)
			return p * BG_MAXFIG + i;
	return -1;
}

static void
put(struct bg_game *g, int piece, int sq)
{
	g->pc[piece].sq = sq;
	g->pc[piece].held = -1;
	g->at[sq] = piece;
}

void
bg_start(struct bg_game *g, const struct bg_team *a, const struct bg_team *b,
    int advanced, int safe_attack)
{
	memset(g, 0, sizeof *g);
	g->advanced = advanced;
	g->safe_attack = safe_attack;
	g->w = advanced ? 8 : 6;
	g->h = advanced ? 8 : 7;
	g->team[0] = *a;
	g->team[1] = *b;
	g->winner = -1;
	for (int i = 0; i < BG_MAXSQ; i++)
		g->at[i] = -1;
	for (int p = 0; p < 2; p++) {
		int used[BG_MAXFIG] = { 0 };

		for (int i = 0; i < BG_MAXFIG; i++) {
			g->pc[p * BG_MAXFIG + i].owner = p;
			g->pc[p * BG_MAXFIG + i].ctrl = p;
			g->pc[p * BG_MAXFIG + i].sq = -1;
			g->pc[p * BG_MAXFIG + i].held = -1;
		}
		/* Back row, then front row; the Cosmic on the first star. */
		for (int n = 0; n < 2; n++)
			for (int f = 0; f < g->w; f++) {
				int sq = row_of(g, p, n) * g->w + f, star;
				int lvl = bg_setup_slot(g, p, sq, &star), pick = -1;

				for (int i = 0; i < g->team[p].n; i++) {
					const struct bg_figure *fi =
					    &g->team[p].f[i];

					if (used[i] || fi->level != lvl)
						continue;
					/* A star takes the Cosmic first. */
					if (star && fi->cosmic) {
						pick = i;
						break;
					}
					if (!fi->cosmic && pick < 0)
						pick = i;
				}
				if (pick < 0)
					continue;	/* an unchecked team */
				used[pick] = 1;
				put(g, p * BG_MAXFIG + pick, sq);
			}
	}
}

int
bg_place(struct bg_game *g, int piece, int sq, char *why, size_t whysz)
{
	const struct bg_figure *f = bg_fig(g, piece);
	int p = g->pc[piece].owner, from = g->pc[piece].sq, other = g->at[sq];
	int star, fstar, lvl = bg_setup_slot(g, p, sq, &star);
	char name[4];

	bg_square_name(g, sq, name);
	if (g->started)
		return util_say(why, whysz, "the setup is closed once the first "
		    "move is made");
	if (from == sq)
		return util_say(why, whysz, "'%s' is already on %s", f->name, name);
	if (lvl < 0)
		return util_say(why, whysz, "%s is not one of %s's setup squares",
		    name, g->team[p].name);
	if (lvl != f->level)
		return util_say(why, whysz, "%s starts a level %s figure; '%s' is "
		    "level %s", name, level_names[lvl], f->name,
		    level_names[f->level]);
	if (f->cosmic && !star)
		return util_say(why, whysz, "the Cosmic figure '%s' starts on one "
		    "of the two starred squares", f->name);
	(void)bg_setup_slot(g, p, from, &fstar);
	if (other >= 0 && bg_fig(g, other)->cosmic && !fstar)
		return util_say(why, whysz, "the Cosmic figure '%s' on %s would "
		    "leave the starred squares", bg_fig(g, other)->name, name);
	g->at[from] = -1;
	if (other >= 0)
		put(g, other, from);
	put(g, piece, sq);
	return 0;
}

int
bg_set_has(bg_set s, int sq)
{
	return (int)(s.bits >> sq & 1u);
}

static void
set_add(bg_set *s, int sq)
{
	if (sq >= 0 && sq < BG_MAXSQ)
		s->bits |= 1ULL << sq;
}

static const int dirs[8][2] = {
	{ 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 },	/* orthogonal first */
	{ 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 }
};

/* 0 empty, 1 a foe of player c, 2 a piece of c's own. */
static int
occupant(const struct bg_game *g, int sq, int c)
{
	int p = g->at[sq];

	return p < 0 ? 0 : g->pc[p].ctrl == c ? 2 : 1;
}

bg_set
bg_moves(const struct bg_game *g, int piece)
{
	bg_set s = { 0 };
	const struct bg_piece *pc = &g->pc[piece];
	int lvl = bg_fig(g, piece)->level, c = pc->ctrl;
	int reach = lvl == BG_II ? 2 : 1;

	if (pc->sq < 0 || g->over)
		return s;
	if (lvl == BG_III) {
		/* Up to three king steps, turning freely, over empty squares. */
		unsigned long long frontier = 1ULL << pc->sq, seen = frontier;

		for (int step = 0; step < 3; step++) {
			unsigned long long next = 0;

			for (int sq = 0; sq < g->w * g->h; sq++) {
				if (!(frontier >> sq & 1u))
					continue;
				for (int d = 0; d < 8; d++) {
					int f = sq % g->w + dirs[d][0];
					int r = sq / g->w + dirs[d][1], t;

					if (!on_board(g, f, r))
						continue;
					t = r * g->w + f;
					if (seen >> t & 1u)
						continue;
					seen |= 1ULL << t;
					if (occupant(g, t, c) == 2)
						continue;
					set_add(&s, t);
					if (occupant(g, t, c) == 0)
						next |= 1ULL << t;
				}
			}
			frontier = next;
		}
		return s;
	}
	for (int d = 0; d < (lvl == BG_SA ? 4 : 8); d++)
		for (int k = 1; k <= reach; k++) {
			int f = pc->sq % g->w + k * dirs[d][0];
			int r = pc->sq / g->w + k * dirs[d][1], t, who;

			if (!on_board(g, f, r))
				break;
			t = r * g->w + f;
			who = occupant(g, t, c);
			if (who == 2)
				break;
			set_add(&s, t);
			if (who == 1)
				break;	/* an attack ends the move */
		}
	return s;
}

void
bg_move_init(struct bg_move_in *in)
{
	memset(in, 0, sizeof *in);
	in->piece = in->to = -1;
	in->stat = in->att_stat = in->def_stat = -1;
	in->release = in->release_to = in->return_to = -1;
}

int
bg_best_shared(const struct bg_figure *mine, const struct bg_figure *foe)
{
	int best = 0;

	for (int c = 1; c < BG_NSTAT; c++) {
		int d = mine->stat[c] - foe->stat[c];
		int bd = mine->stat[best] - foe->stat[best];

		if (d > bd || (d == bd && mine->stat[c] > mine->stat[best]))
			best = c;
	}
	return best;
}

int
bg_best_own(const struct bg_figure *mine)
{
	int best = 0;

	for (int c = 1; c < BG_NSTAT; c++)
		if (mine->stat[c] > mine->stat[best])
			best = c;
	return best;
}

static int
die(int *slot, struct rng *rng)
{
	if (*slot == 0)
		*slot = rng_d6(rng);
	return *slot;
}

/* The first empty square of player p's home rows, back row first. */
static int
first_empty(const struct bg_game *g, int p, int rows)
{
	for (int n = 0; n < rows; n++)
		for (int f = 0; f < g->w; f++) {
			int sq = row_of(g, p, n) * g->w + f;

			if (g->at[sq] < 0)
				return sq;
		}
	return -1;
}

/*
 * A battle's loser leaves the board: a hypnotized figure goes back to its
 * owner's home rows, any other to the winner's Holding Zone.
 */
static int
lose(struct bg_game *g, int piece, int winner, const struct bg_move_in *in,
    struct bg_report *r, char *why, size_t whysz)
{
	struct bg_piece *pc = &g->pc[piece];

	g->at[pc->sq] = -1;
	pc->sq = -1;
	r->loser = piece;
	r->loser_to = -1;
	if (pc->ctrl != pc->owner) {
		int to = in->return_to;

		if (to >= 0 && (!bg_home(g, pc->owner, to) || g->at[to] >= 0))
			return util_say(why, whysz, "--return: an empty square of "
			    "%s's home rows", g->team[pc->owner].name);
		if (to < 0)
			to = first_empty(g, pc->owner, 3);
		pc->ctrl = pc->owner;
		r->returned = 1;
		if (to >= 0) {
			put(g, piece, to);
			r->loser_to = to;
			return 0;
		}
	} else if (in->return_to >= 0)
		return util_say(why, whysz, "--return is for a hypnotized figure "
		    "that loses");
	pc->held = winner;
	if (bg_fig(g, piece)->cosmic) {
		g->over = 1;
		g->winner = winner;
	}
	return 0;
}

/* The far-end release after a move that reached the far row. */
static int
release(struct bg_game *g, int mover, const struct bg_move_in *in,
    struct bg_report *r, char *why, size_t whysz)
{
	int pick = in->release, to = in->release_to;

	if (pick >= 0 && (g->pc[pick].owner != mover || g->pc[pick].sq >= 0 ||
	    g->pc[pick].held != !mover))
		return util_say(why, whysz, "--release: '%s' is not in %s's Holding "
		    "Zone", bg_fig(g, pick)->name, g->team[!mover].name);
	if (pick < 0) {
		for (int i = 0; i < g->team[mover].n; i++) {
			int q = mover * BG_MAXFIG + i;

			if (g->pc[q].sq < 0 && g->pc[q].held == !mover &&
			    (pick < 0 || bg_fig(g, q)->level >
			    bg_fig(g, pick)->level))
				pick = q;
		}
	}
	if (to >= 0 && (!bg_staging(g, mover, to) || g->at[to] >= 0))
		return util_say(why, whysz, "--release-to: an empty square of %s's "
		    "Staging Zone", g->team[mover].name);
	if (to < 0)
		to = first_empty(g, mover, 2);
	if (pick < 0 || to < 0) {
		if (in->release >= 0 || in->release_to >= 0)
			return util_say(why, whysz, "no figure can be released: %s",
			    pick < 0 ? "none is held by the foe" :
			    "the Staging Zone is full");
		return 0;
	}
	g->pc[pick].ctrl = mover;
	put(g, pick, to);
	r->released = pick;
	r->released_to = to;
	return 0;
}

static void
report_init(struct bg_report *r)
{
	memset(r, 0, sizeof *r);
	r->piece = r->from = r->to = r->foe = r->loser = r->loser_to = -1;
	r->chooser = r->stat_att = r->stat_def = -1;
	r->released = r->released_to = -1;
}

int
bg_stat_how(const struct bg_game *g, int att_sq, int def_sq)
{
	int col = bg_square_colour(g, def_sq);

	if (col < BG_NSTAT)
		return BG_S_SQUARE;
	if (col == BG_ALL)
		return BG_S_DEFENDER;
	return bg_square_colour(g, att_sq) == BG_WHITE ? BG_S_OWN : BG_S_ROLL;
}

/* Settles the Battle Stats of a battle from the squares and the input. */
static int
battle_stat(struct bg_game *g, struct bg_move_in *in, int att, int def,
    struct rng *rng, struct bg_report *r, char *why, size_t whysz)
{
	const struct bg_figure *fa = bg_fig(g, att), *fd = bg_fig(g, def);
	int col = bg_square_colour(g, g->pc[def].sq);

	r->how = bg_stat_how(g, g->pc[att].sq, g->pc[def].sq);
	if (r->how != BG_S_ROLL && (in->statroll[0] || in->statroll[1]))
		return util_say(why, whysz, "--stat-roll: the stat is rolled for "
		    "only when the defender is on white and the attacker is "
		    "not");
	if (r->how == BG_S_ROLL) {
		int a, d;

		for (int k = 0; k < 2; k++)
			if (in->statroll[k] < 0 || in->statroll[k] > 6)
				return util_say(why, whysz, "--stat-roll: a die "
				    "reads 1 to 6");
		a = die(&in->statroll[0], rng);
		d = die(&in->statroll[1], rng);
		r->statroll[0] = a;
		r->statroll[1] = d;
		if (a == d)
			r->how = BG_S_OWN;
		else
			r->chooser = a > d ? att : def;
	}
	if (r->how == BG_S_DEFENDER)
		r->chooser = def;
	if (r->how == BG_S_SQUARE && in->stat >= 0)
		return util_say(why, whysz, "--stat: the defender's square is %s, "
		    "so the stat is %s", colour_names[col], colour_names[col]);
	if (r->how == BG_S_OWN && in->stat >= 0)
		return util_say(why, whysz, "--stat: each side picks her own stat "
		    "here; use --att-stat and --def-stat");
	if (r->how != BG_S_OWN && (in->att_stat >= 0 || in->def_stat >= 0))
		return util_say(why, whysz, "--att-stat and --def-stat are for "
		    "when each side picks her own stat");
	switch (r->how) {
	case BG_S_SQUARE:
		r->stat_att = r->stat_def = col;
		break;
	case BG_S_OWN:
		r->stat_att = in->att_stat >= 0 ? in->att_stat :
		    bg_best_own(fa);
		r->stat_def = in->def_stat >= 0 ? in->def_stat :
		    bg_best_own(fd);
		in->att_stat = r->stat_att;
		in->def_stat = r->stat_def;
		break;
	default:
		r->stat_att = in->stat >= 0 ? in->stat : r->chooser == att ?
		    bg_best_shared(fa, fd) : bg_best_shared(fd, fa);
		r->stat_def = r->stat_att;
		in->stat = r->stat_att;
		break;
	}
	r->val_att = fa->stat[r->stat_att];
	r->val_def = fd->stat[r->stat_def];
	return 0;
}

/*
 * After the dice of a battle (r filled in): the zones' credits, the
 * winner's powers, and where the loser goes.
 */
static int
settle(struct bg_game *g, const struct bg_move_in *in, struct bg_report *r,
    char *why, size_t whysz)
{
	int w = r->att_won ? r->piece : r->foe;
	int l = r->att_won ? r->foe : r->piece;
	int wc = g->pc[w].ctrl;
	int margin = r->att_won ? r->tot_att - r->tot_def :
	    r->tot_def - r->tot_att;
	const struct bg_figure *wf = bg_fig(g, w);

	r->supersense = (int)(wf->powers >> BG_SUPERSENSE & 1u);
	r->telepathy = (wf->powers >> BG_TELEPATHY & 1u) &&
	    bg_staging(g, wc, g->pc[w].sq) && margin > 2;
	g->credit[g->pc[l].ctrl] = 1;
	if (r->telepathy)
		g->credit[wc]++;
	if (!r->att_won && g->safe_attack) {
		r->loser = r->piece;
		r->loser_to = r->from;
		return 0;
	}
	if (!r->att_won)
		return lose(g, r->piece, wc, in, r, why, whysz);
	g->at[r->from] = -1;
	g->pc[r->piece].sq = -1;
	if (lose(g, r->foe, wc, in, r, why, whysz) < 0)
		return -1;
	put(g, r->piece, r->to);
	return 0;
}

/*
 * The dice given: those set in the arrays count as given, however they
 * were set; each must read 1 to 6.
 */
static int
dice_given(struct bg_move_in *in, char *why, size_t whysz)
{
	for (int k = 0; k < BG_MAXROLLS; k++) {
		if (in->roll[k] != 0 && in->nroll <= k)
			in->nroll = k + 1;
		if (in->vs[k] != 0 && in->nvs <= k)
			in->nvs = k + 1;
	}
	for (int k = 0; k < in->nroll; k++)
		if (in->roll[k] < 1 || in->roll[k] > 6)
			return util_say(why, whysz, "--roll: a die reads 1 to 6");
	for (int k = 0; k < in->nvs; k++)
		if (in->vs[k] < 1 || in->vs[k] > 6)
			return util_say(why, whysz, "--vs-roll: a die reads 1 to 6");
	return 0;
}

/* A battle of piece against def, on the square piece moves to. */
static int
battle(struct bg_game *g, struct bg_move_in *in, struct rng *rng,
    struct bg_report *r, int piece, int def, char *why, size_t whysz)
{
	int k;

	r->battle = 1;
	r->foe = def;
	if (battle_stat(g, in, piece, def, rng, r, why, whysz) < 0)
		return -1;
	for (k = 0; k < BG_MAXROLLS; k++) {
		r->die_att = die(&in->roll[k], rng);
		r->die_def = die(&in->vs[k], rng);
		r->tot_att = r->val_att + r->die_att;
		r->tot_def = r->val_def + r->die_def;
		if (r->tot_att != r->tot_def)
			break;
	}
	r->rolls = k < BG_MAXROLLS ? k + 1 : BG_MAXROLLS;
	if (in->nroll > r->rolls || in->nvs > r->rolls)
		return util_say(why, whysz, "the battle was settled by roll "
		    "%d; the rest of the dice are not used", r->rolls);
	in->nroll = in->nvs = r->rolls;
	/* Sixteen ties in a row: the defender holds (our ruling). */
	r->att_won = r->tot_att > r->tot_def;
	return settle(g, in, r, why, whysz);
}

/* Whether piece may move to: on the board, its side's, and in reach. */
static int
move_allowed(struct bg_game *g, int piece, int to, char *why, size_t whysz)
{
	char name[4];

	if (g->over)
		return util_say(why, whysz, "the game is over");
	if (piece < 0 || g->pc[piece].sq < 0)
		return util_say(why, whysz, "'%s' is not on the board",
		    piece < 0 ? "?" : bg_fig(g, piece)->name);
	if (g->pc[piece].ctrl != g->turn)
		return util_say(why, whysz, "it is %s's turn; '%s' is not theirs "
		    "to move", g->team[g->turn].name, bg_fig(g, piece)->name);
	bg_square_name(g, to, name);
	if (!bg_set_has(bg_moves(g, piece), to))
		return util_say(why, whysz, "'%s' (level %s) cannot reach %s",
		    bg_fig(g, piece)->name,
		    level_names[bg_fig(g, piece)->level], name);
	return 0;
}

/* A move, or an attack and its battle, and a release at the far end. */
static int
move_do(struct bg_game *g, struct bg_move_in *in, struct rng *rng,
    struct bg_report *r, char *why, size_t whysz)
{
	int piece = in->piece, to = in->to, me = g->turn, from, def;
	int far, was_far;
	char name[4];

	if (move_allowed(g, piece, to, why, whysz) != 0)
		return -1;
	from = g->pc[piece].sq;
	bg_square_name(g, to, name);
	r->piece = piece;
	r->from = from;
	r->to = to;
	if (dice_given(in, why, whysz) != 0)
		return -1;
	def = g->at[to];
	if (def < 0) {
		if (in->nroll || in->nvs || in->stat >= 0 ||
		    in->att_stat >= 0 || in->def_stat >= 0 ||
		    in->statroll[0] || in->statroll[1] || in->return_to >= 0)
			return util_say(why, whysz, "%s is empty: a move, not an "
			    "attack, so there is no battle", name);
		g->at[from] = -1;
		put(g, piece, to);
	} else if (battle(g, in, rng, r, piece, def, why, whysz) < 0)
		return -1;
	if (in->return_to >= 0 && !r->returned)
		return util_say(why, whysz, "--return is for a hypnotized figure "
		    "that loses");
	/* The far end: a figure that arrives there frees one of its side. */
	far = row_of(g, !me, 0);
	was_far = from / g->w == far;
	if (g->advanced && !g->over && g->pc[piece].sq == to &&
	    to / g->w == far && !was_far) {
		if (release(g, me, in, r, why, whysz) < 0)
			return -1;
	} else if (in->release >= 0 || in->release_to >= 0)
		return util_say(why, whysz, "a figure is released only when one "
		    "reaches the far end of the advanced board");
	r->ended = g->over;
	g->turn = !me;
	g->moves++;
	g->started = 1;
	return 0;
}

int
bg_move(struct bg_game *g, struct bg_move_in *in, struct rng *rng,
    struct bg_report *r, char *why, size_t whysz)
{
	struct bg_game t = *g;

	report_init(r);
	t.credit[0] = t.credit[1] = 0;
	if (move_do(&t, in, rng, r, why, whysz) < 0)
		return -1;
	*g = t;
	return 0;
}

static int
adjacent(const struct bg_game *g, int a, int b)
{
	int df = a % g->w - b % g->w, dr = a / g->w - b / g->w;

	return a != b && df >= -1 && df <= 1 && dr >= -1 && dr <= 1;
}

int
bg_power(struct bg_game *g, int piece, int power, int arg, int to,
    struct bg_report *r, char *why, size_t whysz)
{
	int me = g->turn, from;
	const struct bg_figure *f;
	char name[4];

	report_init(r);
	if (g->over)
		return util_say(why, whysz, "the game is over");
	if (piece < 0 || g->pc[piece].sq < 0 || g->pc[piece].ctrl != me)
		return util_say(why, whysz, "it is %s's turn; the power's user must "
		    "be one of their figures on the board", g->team[me].name);
	f = bg_fig(g, piece);
	if (!(f->powers >> power & 1u))
		return util_say(why, whysz, "'%s' does not have %s", f->name,
		    power_names[power]);
	if (to < 0)
		return util_say(why, whysz, "%s needs a square", power_names[power]);
	bg_square_name(g, to, name);
	from = g->pc[piece].sq;
	r->piece = piece;
	r->from = from;
	r->to = to;
	switch (power) {
	case BG_HYPNOTIZE:
		if (arg < 0 || g->pc[arg].owner == me || g->pc[arg].sq >= 0 ||
		    g->pc[arg].held != me)
			return util_say(why, whysz, "hypnotize takes a foe's figure "
			    "from %s's Holding Zone", g->team[me].name);
		if (!bg_staging(g, me, to) || g->at[to] >= 0)
			return util_say(why, whysz, "hypnotize: %s is not an empty "
			    "square of %s's Staging Zone", name,
			    g->team[me].name);
		g->pc[arg].ctrl = me;
		put(g, arg, to);
		r->foe = arg;
		break;
	case BG_SWAP:
	case BG_TELEPORT: {
		int other = g->at[to];

		if (other < 0 || other == piece || g->pc[other].ctrl != me)
			return util_say(why, whysz, "%s: %s holds none of %s's "
			    "other figures", power_names[power], name,
			    g->team[me].name);
		if (power == BG_SWAP && !bg_staging(g, me, to))
			return util_say(why, whysz, "swap: %s is not in %s's Staging "
			    "Zone", name, g->team[me].name);
		if (power == BG_TELEPORT && !adjacent(g, from, to))
			return util_say(why, whysz, "teleport: %s is not next to "
			    "'%s'", name, f->name);
		put(g, other, from);
		put(g, piece, to);
		r->foe = other;
		break;
	}
	default:
		return util_say(why, whysz, "%s works in battle, not as a turn",
		    power_names[power]);
	}
	g->credit[0] = g->credit[1] = 0;
	g->turn = !me;
	g->moves++;
	g->started = 1;
	return 0;
}

int
bg_die(struct bg_game *g, int p, int d, int back, char *why, size_t whysz)
{
	int n = __builtin_popcount(g->dicezone[p]);

	if (g->credit[p] < 1)
		return util_say(why, whysz, "%s may move a die only after losing a "
		    "battle (or a Telepathy win by 3 or more), before the next "
		    "turn", g->team[p].name);
	if (d < 0 || d >= BG_NDICE || (g->dicezone[p] >> d & 1u))
		return util_say(why, whysz, "die %d is not in %s's Staging Zone",
		    d + 1, g->team[p].name);
	if (n == BG_DICEZONE_MAX && back < 0)
		return util_say(why, whysz, "%s's Dice Zone holds %d dice already: "
		    "swap one back with --swap", g->team[p].name, n);
	if (n < BG_DICEZONE_MAX && back >= 0)
		return util_say(why, whysz, "%s's Dice Zone has room; there is "
		    "nothing to swap", g->team[p].name);
	if (back >= 0 && (back >= BG_NDICE || !(g->dicezone[p] >> back & 1u)))
		return util_say(why, whysz, "die %d is not in %s's Dice Zone",
		    back + 1, g->team[p].name);
	if (back >= 0)
		g->dicezone[p] &= ~(1u << back);
	g->dicezone[p] |= 1u << d;
	g->credit[p]--;
	return 0;
}

const char *const bg_adjust_names[] = { "DICE", NULL };

int
bg_adjust(struct bg_game *g, int p, const struct ruling_change *c, int n,
    char *why, size_t whysz)
{
	long v = g->credit[p];

	if (g->over)
		return util_say(why, whysz, "the game is over");
	for (int k = 0; k < n; k++) {
		v = ruling_apply(&c[k], v);
		if (v < 0 || v > BG_NDICE)
			return util_say(why, whysz, "%s would be %ld: %s may "
			    "move 0 to %d dice", c[k].name, v,
			    g->team[p].name, BG_NDICE);
	}
	if (v == g->credit[p])
		return util_say(why, whysz, "the ruling changes nothing");
	g->credit[p] = (int)v;
	return 0;
}

int
bg_pass(struct bg_game *g, char *why, size_t whysz)
{
	if (g->over)
		return util_say(why, whysz, "the game is over");
	g->credit[0] = g->credit[1] = 0;
	g->turn = !g->turn;
	g->moves++;
	g->started = 1;
	return 0;
}
