/*
 * fb/pack.c - the byte form of a Force Battles board and duel state.  One
 * walk per structure names its fields in order with their ranges, and
 * runs either way: writing, or reading and checking.  The two can then
 * never disagree on the order.  See fb/pack.h.
 */
#include <string.h>

#include "fb/pack.h"

/* Counters, which are not indices: a bound that no duel reaches. */
#define COUNT_MAX	1000

/* A walk writes into p, or (p NULL) reads from u. */
struct walk {
	struct pack	*p;
	struct unpack	*u;
};

static void
w_int(struct walk *w, int *v, int lo, int hi)
{
	if (w->p != NULL)
		pack_int(w->p, *v);
	else
		*v = (int)unpack_range(w->u, lo, hi);
}

static void
w_uns(struct walk *w, unsigned *v, unsigned hi)
{
	if (w->p != NULL)
		pack_int(w->p, *v);
	else
		*v = (unsigned)unpack_range(w->u, 0, hi);
}

static void
w_ints(struct walk *w, int *v, size_t n, int lo, int hi)
{
	for (size_t i = 0; i < n; i++)
		w_int(w, &v[i], lo, hi);
}

static void
w_str(struct walk *w, char *buf, size_t sz)
{
	if (w->p != NULL)
		pack_str(w->p, buf);
	else
		unpack_strbuf(w->u, buf, sz);
}

static void
walk_board(struct walk *w, struct fb_board *b)
{
	w_str(w, b->name, sizeof b->name);
	for (int t = 0; t < FB_NT; t++)
		w_str(w, b->tname[t], sizeof b->tname[t]);
	w_ints(w, b->face, FB_NT, 1, 6);
	w_ints(w, b->alt, FB_NT, 1, 6);
	w_int(w, &b->ns, 1, FB_MAXS);
	for (int i = 0; i < FB_MAXS; i++)
		w_str(w, b->sname[i], sizeof b->sname[i]);
	for (int i = 0; i < FB_MAXS; i++)
		w_uns(w, &b->touch[i], (1u << FB_NT) - 1);
	w_int(w, &b->center, 0, FB_MAXS - 1);
	w_uns(w, &b->lower, (1u << FB_MAXS) - 1);
	for (int k = 0; k < 2; k++)
		w_ints(w, b->table[k], 7, 0, FB_NT - 1);
	w_ints(w, b->tn, FB_NT, 0, FB_MAXS);
	for (int t = 0; t < FB_NT; t++)
		w_ints(w, b->tsph[t], FB_MAXS, 0, FB_MAXS - 1);
}

static void
walk_player(struct walk *w, struct fb_player *p)
{
	w_int(w, &p->side, FB_LIGHT, FB_DARK);
	w_int(w, &p->hand, FB_LEFT, FB_RIGHT);
	w_int(w, &p->colour, 0, FB_NCOLOUR - 1);
	w_int(w, &p->level, FB_LEARNER, FB_DIAMEDES);
	w_int(w, &p->free_geas, -1, FB_NGEAS - 1);
	w_ints(w, p->sph, FB_MAXS, 0, COUNT_MAX);
	w_int(w, &p->att, 0, COUNT_MAX);
	w_int(w, &p->def, 0, COUNT_MAX);
	w_ints(w, p->geas, FB_NGEAS, 0, COUNT_MAX);
	w_int(w, &p->pool, 0, COUNT_MAX);
	w_int(w, &p->gift, 0, COUNT_MAX);
	w_int(w, &p->legs, 0, 3);
	w_int(w, &p->turned, 0, COUNT_MAX);
}

static void
walk_state(struct walk *w, struct fb_state *s)
{
	struct fb_decl *d = &s->d;

	walk_player(w, &s->p[0]);
	walk_player(w, &s->p[1]);
	w_int(w, &s->total, 0, 2 * COUNT_MAX);
	w_int(w, &s->round, 1, INT32_MAX);
	w_int(w, &s->stage, FB_OPEN, FB_AIMED);
	w_int(w, &s->attacker, -1, 1);
	w_int(w, &s->last_attacker, -1, 1);
	w_int(w, &s->choose, 0, 1);
	w_int(w, &s->earned, -1, 1);
	w_uns(w, &s->restance, 3);
	w_uns(w, &s->hide, 3);
	w_uns(w, &s->speed, 3);
	/* Bit g of used, for every GEAS and the gift (FB_CONVERT). */
	w_uns(w, &d->used[0], (1u << (FB_NGEAS + 1)) - 1);
	w_uns(w, &d->used[1], (1u << (FB_NGEAS + 1)) - 1);
	w_int(w, &d->rage, 0, COUNT_MAX);
	w_int(w, &d->protect, 0, COUNT_MAX);
	w_int(w, &d->sight_target, -1, FB_NT - 1);
	w_int(w, &d->mt_target, -1, FB_NT - 1);
	w_int(w, &d->choke, 0, 1);
	w_int(w, &d->heal, 0, 1);
	w_int(w, &d->push, 0, 1);
	w_int(w, &d->pull, 0, 1);
	w_int(w, &d->jump, 0, 1);
	w_int(w, &s->die_target, -1, FB_NT - 1);
	w_int(w, &s->target, -1, FB_NT - 1);
	w_int(w, &s->over, 0, 1);
	w_int(w, &s->winner, -1, 1);
	w_int(w, &s->end, FB_E_NONE, FB_E_LIMIT);
}

void
fbpack_board(struct pack *p, const struct fb_board *b)
{
	struct walk w = { .p = p };
	struct fb_board copy = *b;

	walk_board(&w, &copy);
}

void
fbpack_read_board(struct unpack *u, struct fb_board *b)
{
	struct walk w = { .u = u };
	struct fb_board again;
	char why[FB_WHYSZ];

	memset(b, 0, sizeof *b);
	walk_board(&w, b);
	if (u->bad)
		return;
	/* A board the rules accept, whose tables are the ones it builds. */
	again = *b;
	if (fb_board_finish(&again, why, sizeof why) != 0 ||
	    memcmp(&again, b, sizeof again) != 0)
		u->bad = 1;
}

void
fbpack_state(struct pack *p, const struct fb_state *s)
{
	struct walk w = { .p = p };
	struct fb_state copy = *s;

	walk_state(&w, &copy);
}

void
fbpack_read_state(struct unpack *u, const struct fb_board *b,
    struct fb_state *s)
{
	struct walk w = { .u = u };
	char why[FB_WHYSZ];

	memset(s, 0, sizeof *s);
	walk_state(&w, s);
	s->b = b;
	if (!u->bad && fb_invariants(s, why, sizeof why) != 0)
		u->bad = 1;
}
