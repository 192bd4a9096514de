/*
 * crs/pack.c - a combat's state as bytes and back; see crs/pack.h.
 *
 * The order below is the byte form: a field added to struct
 * combat_state or struct combat_fighter is added here too, and
 * COMBAT_PACK_FORMAT raised.  On the common 64-bit ABIs the size checks
 * below fail the build when a struct grows and this file did not.
 */
#include "crs/pack.h"

#include <stdint.h>

#if defined(__x86_64__) || defined(__aarch64__)
_Static_assert(sizeof(struct combat_fighter) == 216,
    "struct combat_fighter changed: pack its new field");
_Static_assert(sizeof(struct combat_state) == 30552,
    "struct combat_state changed: pack its new field");
#endif

static void
pack_stats(struct pack *p, const struct combat_stats *st)
{
	const int v[] = { st->or_, st->dr, st->mind, st->life, st->in, st->em,
	    st->lb, st->mod_offense, st->mod_defense, st->mod_pick };

	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		pack_int(p, v[i]);
}

static void
unpack_stats(struct unpack *u, struct combat_stats *st)
{
	int *const v[] = { &st->or_, &st->dr, &st->mind, &st->life, &st->in,
	    &st->em, &st->lb, &st->mod_offense, &st->mod_defense,
	    &st->mod_pick };

	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		*v[i] = (int)unpack_range(u, INT32_MIN, INT32_MAX);
}

static void
pack_fighter(struct pack *p, const struct combat_fighter *f)
{
	pack_str(p, f->name);
	pack_stats(p, &f->st);
	pack_int(p, f->presence);
	pack_int(p, f->life);
	pack_int(p, f->em);
	pack_int(p, f->deck.lb);
	for (int c = 0; c < 11; c++)
		pack_int(p, f->deck.avail[c]);
	pack_int(p, f->stance);
	pack_int(p, f->halvings);
	pack_int(p, f->acted);
	pack_int(p, f->intimidated);
	pack_int(p, f->dead);
	pack_int(p, f->init_total);
	pack_int(p, f->init_pos);
	pack_int(p, f->fled);
	pack_int(p, f->until);
	pack_int(p, f->melee_with);
	pack_int(p, (int64_t)f->hit_by);
	pack_int(p, f->protecting);
	pack_int(p, f->protected_by);
	pack_int(p, f->was_protecting);
	pack_int(p, f->blow_carry);
	pack_int(p, f->shielded);
	pack_int(p, (int64_t)f->shielded_from);
	pack_int(p, f->last_long_at);
	pack_int(p, f->free_offer);
	pack_int(p, f->cowed);
}

/* An int field; who: one of n combatants or -1, as an index into f. */
#define INT(u)		((int)unpack_range((u), INT32_MIN, INT32_MAX))
#define WHO(u, n)	((int)unpack_range((u), -1, (n) - 1))

static void
unpack_fighter(struct unpack *u, struct combat_fighter *f, int n)
{
	f->name = unpack_str(u);
	if (f->name == NULL)
		u->bad = 1;
	unpack_stats(u, &f->st);
	f->presence = (int)unpack_range(u, COMBAT_PENDING, COMBAT_ACTIVE);
	f->life = INT(u);
	f->em = INT(u);
	f->deck.lb = (int)unpack_range(u, 0, DECK_LB_MAX);
	for (int c = 0; c < 11; c++)
		f->deck.avail[c] = (int)unpack_range(u, 0, 1 + DECK_LB_MAX);
	f->stance = INT(u);
	f->halvings = INT(u);
	f->acted = INT(u);
	f->intimidated = INT(u);
	f->dead = INT(u);
	f->init_total = INT(u);
	f->init_pos = INT(u);
	f->fled = INT(u);
	f->until = unpack_int(u);
	f->melee_with = WHO(u, n);
	f->hit_by = (uint64_t)unpack_int(u);
	f->protecting = WHO(u, n);
	f->protected_by = WHO(u, n);
	f->was_protecting = WHO(u, n);
	f->blow_carry = INT(u);
	f->shielded = WHO(u, n);
	f->shielded_from = (uint64_t)unpack_int(u);
	f->last_long_at = WHO(u, n);
	f->free_offer = WHO(u, n);
	f->cowed = INT(u);
}

void
combat_pack(const struct combat_state *s, struct pack *p)
{
	pack_int(p, COMBAT_PACK_FORMAT);
	pack_int(p, s->rules);
	pack_int(p, s->lockout);
	pack_int(p, s->struck);
	pack_int(p, s->round);
	pack_int(p, s->ended);
	pack_int(p, s->agreed);
	pack_int(p, s->started);
	pack_int(p, s->ended_at);
	pack_int(p, s->init_done);
	pack_int(p, s->n);
	for (int i = 0; i < s->n; i++)
		pack_fighter(p, &s->f[i]);
	pack_int(p, s->norder);
	for (int i = 0; i < s->norder; i++)
		pack_int(p, s->order[i]);
	pack_int(p, s->last_actor);
	pack_int(p, s->last_kind);
	pack_int(p, s->last_base);
	pack_int(p, s->last_offense);
	pack_int(p, s->last_fumble);
	pack_int(p, s->last_action);
	for (int i = 0; i < s->n; i++)
		for (int j = 0; j < s->n; j++)
			pack_int(p, s->dist[i][j]);
}

int
combat_unpack(const void *buf, size_t len, struct combat_state *s)
{
	struct unpack u;

	combat_state_init(s);
	unpack_init(&u, buf, len);
	unpack_range(&u, COMBAT_PACK_FORMAT, COMBAT_PACK_FORMAT);
	s->rules = (int)unpack_range(&u, COMBAT_RULES_CRS,
	    COMBAT_RULES_AVATAR);
	s->lockout = unpack_int(&u);
	s->struck = INT(&u);
	s->round = INT(&u);
	s->ended = INT(&u);
	s->agreed = INT(&u);
	s->started = unpack_int(&u);
	s->ended_at = unpack_int(&u);
	s->init_done = INT(&u);
	s->n = (int)unpack_range(&u, 0, COMBAT_FIGHTERS_MAX);
	for (int i = 0; i < s->n && !u.bad; i++)
		unpack_fighter(&u, &s->f[i], s->n);
	s->norder = (int)unpack_range(&u, 0, s->n);
	for (int i = 0; i < s->norder; i++)
		s->order[i] = (int)unpack_range(&u, 0, s->n - 1);
	s->last_actor = WHO(&u, s->n);
	s->last_kind = INT(&u);
	s->last_base = INT(&u);
	s->last_offense = INT(&u);
	s->last_fumble = INT(&u);
	s->last_action = INT(&u);
	for (int i = 0; i < s->n; i++)
		for (int j = 0; j < s->n; j++)
			s->dist[i][j] = INT(&u);
	if (unpack_done(&u) == 0)
		return 0;
	combat_state_release(s);
	return -1;
}
