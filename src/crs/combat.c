/*
 * combat.c - the CRS combat engine; see combat.h.
 */
#include "crs/combat.h"

#include "base/rng.h"
#include "core/ruling.h"
#include "crs/sheet.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const action_names[COMBAT_ACTION_COUNT] = {
	"start", "join", "round", "stance", "initiative", "attack", "mental",
	"pass", "undo", "end", "dead", "range", "flee", "charge", "blow",
	"power", "swap", "adjust"
};

const char *const combat_adjust_names[] = { "LIFE", "EM", NULL };

static const char *const kind_names[] = {
	"attack", "suggestion", "intimidation", "coercion"
};

const char *
combat_action_name(int a)
{
	return a >= 0 && a < COMBAT_ACTION_COUNT ? action_names[a] : "?";
}

int
combat_action_lookup(const char *name)
{
	return util_lookup(action_names, COMBAT_ACTION_COUNT, name, strcmp);
}

const char *
combat_kind_name(int k)
{
	return k >= 0 && k <= COMBAT_COERCION ? kind_names[k] : "?";
}

int
combat_kind_lookup(const char *name)
{
	for (int k = 0; k <= COMBAT_COERCION; k++)
		if (util_streq_ci(name, kind_names[k]))
			return k;
	return -1;
}

const char *
combat_rules_name(int rules)
{
	return rules == COMBAT_RULES_AVATAR ? "avatar" : "crs";
}

void
combat_state_init(struct combat_state *s)
{
	memset(s, 0, sizeof *s);
	s->round = 1;
	s->last_actor = -1;
	s->lockout = COMBAT_LOCKOUT_SECS;
	for (int i = 0; i < COMBAT_FIGHTERS_MAX; i++)
		for (int j = 0; j < COMBAT_FIGHTERS_MAX; j++)
			s->dist[i][j] = COMBAT_DIST_UNKNOWN;
}

void
combat_state_release(struct combat_state *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->f[i].name);
	combat_state_init(s);
}

void
combat_event_init(struct combat_event *e)
{
	memset(e, 0, sizeof *e);
	e->special = -1;
	e->defense = -1;
	e->life_before = e->life_after = -1;
	e->stats.or_ = e->stats.dr = e->stats.mind = e->stats.life = -1;
	e->stats.in = e->stats.em = e->stats.lb = -1;
	e->em_before = e->em_after = -1;
	e->react_need = 1;
	e->lockout = COMBAT_LOCKOUT_SECS;
}

void
combat_event_release(struct combat_event *e)
{
	free(e->actor);
	free(e->target);
	free(e->cards);
	free(e->vs_cards);
	free(e->gm);
	free(e->aimed);
	free(e->melee_pick);
	free(e->melee_drawn);
	free(e->item.name);
	free(e->vs_item.name);
	free(e->skills);
	free(e->vs_skills);
	free(e->power.name);
	free(e->let);
	free(e->reactor);
	free(e->react_cards);
	free(e->ruling);
	free(e->adjust);
	for (int i = 0; i < e->ninit; i++) {
		free(e->init[i].name);
		free(e->init[i].cards);
		free(e->init[i].ties);
		free(e->init[i].ties_virt);
	}
	free(e->init);
	combat_event_init(e);
}

int
combat_find(const struct combat_state *s, const char *name)
{
	if (name == NULL)
		return -1;
	for (int i = 0; i < s->n; i++)
		if (strcmp(s->f[i].name, name) == 0)
			return i;
	return -1;
}

int
combat_dr_now(const struct combat_fighter *f)
{
	int dr = f->st.dr;

	if (dr < 0)
		return -1;
	if (f->stance)
		dr *= 2;
	for (int i = 0; i < f->halvings; i++)
		dr = (dr + 1) / 2;
	return dr;
}

int
combat_next(const struct combat_state *s)
{
	if (!s->init_done || s->ended)
		return -1;
	for (int i = 0; i < s->norder; i++) {
		const struct combat_fighter *f = &s->f[s->order[i]];

		if (!f->acted && f->life != 0 && !f->fled)
			return s->order[i];
	}
	return -1;
}

int
combat_standing(const struct combat_state *s)
{
	int n = 0;

	for (int i = 0; i < s->n; i++)
		if (s->f[i].presence == COMBAT_ACTIVE && s->f[i].life != 0 &&
		    !s->f[i].fled)
			n++;
	return n;
}

/* Still in the fight: joined, standing, not fled. */
static int
fighting(const struct combat_fighter *f)
{
	return f->presence == COMBAT_ACTIVE && f->life != 0 && !f->fled;
}

uint64_t
combat_melee(const struct combat_state *s, int i)
{
	const struct combat_fighter *f = &s->f[i];
	uint64_t m = f->hit_by;

	if (f->melee_with >= 0)
		m |= UINT64_C(1) << f->melee_with;
	/* Who is down or gone is no longer in it. */
	for (int j = 0; j < s->n; j++)
		if (!fighting(&s->f[j]))
			m &= ~(UINT64_C(1) << j);
	return m & ~(UINT64_C(1) << i);
}

int
combat_skills_sum(const char *skills, int *sum, int *dodge, char *why,
    size_t whysz)
{
	const char *p = skills;
	int n = 0;

	*sum = 0;
	if (dodge)
		*dodge = 0;
	while (p && *p) {
		size_t len = strcspn(p, ";");
		char *one = xstrndup(p, len), *eq = strrchr(one, '=');
		long v;

		if (eq == NULL || eq == one || util_parse_int(eq + 1,
		    -ITEM_MOD_MAX, ITEM_MOD_MAX, &v) != UTIL_INT_OK) {
			snprintf(why, whysz, "a skill is NAME=N with N from "
			    "%d to %d, got '%.60s'", -ITEM_MOD_MAX,
			    ITEM_MOD_MAX, one);
			free(one);
			return -1;
		}
		*eq = '\0';
		if (dodge && (util_streq_ci(one, "acrobatics") ||
		    util_streq_ci(one, "fluid motion") ||
		    strncasecmp(one, "dodg", 4) == 0))
			*dodge = 1;
		free(one);
		*sum += (int)v;
		if (++n > COMBAT_SKILLS_MAX) {
			snprintf(why, whysz, "at most %d skills a side",
			    COMBAT_SKILLS_MAX);
			return -1;
		}
		p += len + (p[len] == ';');
	}
	return 0;
}

char *
combat_faces(const struct deck_pick *p)
{
	/* Each face takes at most 3 bytes with its comma. */
	size_t size = (size_t)p->ncards * 3 + 1, off = 0;
	char *s = xmalloc(size);

	s[0] = '\0';
	for (int i = 0; i < p->ncards && off < size; i++)
		off += (size_t)snprintf(s + off, size - off, "%s%s", i ? "," :
		    "", deck_face_name(p->cards[i]));
	return s;
}

int64_t
combat_restores_at(const struct combat_state *s)
{
	return s->ended ? s->ended_at + COMBAT_RESTORE_SECS : 0;
}

int
combat_restored(const struct combat_state *s, const struct combat_fighter *f,
    int64_t now)
{
	return s->ended && now >= combat_restores_at(s) && !f->dead;
}

int
combat_to_restore(const struct combat_fighter *f)
{
	return !f->dead && (f->life < f->st.life || (f->em >= 0 &&
	    f->em < f->st.em));
}

int
combat_stops_targets(const struct combat_event *e)
{
	return e->negated;
}

int
combat_several_targets(int action, int kind, int power_target)
{
	return (action == COMBAT_MENTAL && kind == COMBAT_INTIMIDATION) ||
	    (action == COMBAT_POWER && power_target == POWER_GROUP);
}

/*
 * One pick for a side: typed cards (and special card) when virt is 0,
 * else drawn from the generator.  On success, *cards holds what was drawn.
 */
static int
side_pick_k(struct deck *d, int kind, int k, struct rng *r, int virt,
    char **cards, int special, struct deck_pick *p, const char *who,
    char *why, size_t whysz)
{
	int faces[DECK_DRAW_MAX], n;
	struct deck_typed t;
	struct deck_source src;
	char reason[200];

	if (virt)
		src = deck_virtual(r);
	else {
		if (*cards == NULL || **cards == '\0') {
			snprintf(why, whysz, "%s: no cards given", who);
			return -1;
		}
		if ((n = deck_parse_list(*cards, faces, DECK_DRAW_MAX,
		    reason, sizeof reason)) < 0) {
			snprintf(why, whysz, "%s: %s", who, reason);
			return -1;
		}
		t.faces = faces;
		t.n = n;
		t.special = special > 0 ? special : 0;
		src = deck_physical(&t);
	}
	if (deck_pick(d, kind, k, &src, p, reason, sizeof reason) != 0) {
		snprintf(why, whysz, "%s: %s", who, reason);
		return -1;
	}
	free(*cards);
	*cards = combat_faces(p);
	return 0;
}

static int
side_pick(struct deck *d, int kind, struct rng *r, int virt, char **cards,
    int special, struct deck_pick *p, const char *who, char *why,
    size_t whysz)
{
	return side_pick_k(d, kind, 1, r, virt, cards, special, p, who, why,
	    whysz);
}

/* Checks that name is in the combat and can be acted on; returns index. */
static int
present(const struct combat_state *s, const char *name, const char *role,
    char *why, size_t whysz)
{
	int i = combat_find(s, name);

	if (i < 0) {
		util_say(why, whysz, "'%s' is not in this combat", name ?
		    name : "");
		return -1;
	}
	if (s->f[i].presence == COMBAT_PENDING) {
		util_say(why, whysz, "'%s' joins at the start of the next "
		    "round", name);
		return -1;
	}
	if (s->f[i].fled) {
		util_say(why, whysz, "%s '%s' has fled the combat", role, name);
		return -1;
	}
	if (s->f[i].life == 0) {
		util_say(why, whysz, "%s '%s' is down (LIFE 0)", role, name);
		return -1;
	}
	return i;
}

/*
 * Checks that e's actor may act now: its turn, not yet acted.  A GM's
 * ruling (e->ruling) lets him act out of the initiative order, never
 * twice in a round, and only out of it.
 */
static int
may_act(const struct combat_state *s, const struct combat_event *e,
    char *why, size_t whysz)
{
	const char *name = e->actor;
	int i = present(s, name, "the actor", why, whysz), next;

	if (i < 0)
		return -1;
	if (s->f[i].stance) {
		util_say(why, whysz, "'%s' is in a Defensive Stance and takes "
		    "no action this round", name);
		return -1;
	}
	if (s->f[i].blow_carry) {
		util_say(why, whysz, "'%s' carried on Taking a Blow and takes "
		    "no other action this round", name);
		return -1;
	}
	if (!s->init_done) {
		snprintf(why, whysz, "no initiative yet this round (init)");
		return -1;
	}
	if (s->f[i].acted) {
		util_say(why, whysz, "'%s' has already acted this round", name);
		return -1;
	}
	if (s->f[i].init_pos == 0) {
		util_say(why, whysz, "'%s' drew no initiative this round",
		    name);
		return -1;
	}
	if ((next = combat_next(s)) != i && e->ruling == NULL) {
		util_say(why, whysz, "'%s' acts before '%s' in the initiative "
		    "order: '%s' acts or passes first, or the GM rules "
		    "(--out-of-turn --reason TEXT)", s->f[next].name, name,
		    s->f[next].name);
		return -1;
	}
	/* A ruling is never recorded for what the rules allow anyway. */
	if (next == i && e->ruling != NULL) {
		util_say(why, whysz, "'%s' is next in the initiative order: "
		    "no ruling is needed (leave out --out-of-turn)", name);
		return -1;
	}
	return i;
}

static int
do_join(struct combat_state *s, struct combat_event *e, struct rng *r,
    char *why, size_t whysz)
{
	struct combat_fighter *f;

	(void)r;
	if (combat_find(s, e->actor) >= 0) {
		util_say(why, whysz, "'%s' is already in this combat",
		    e->actor);
		return -1;
	}
	if (s->n == COMBAT_FIGHTERS_MAX) {
		snprintf(why, whysz, "a combat holds at most %d combatants",
		    COMBAT_FIGHTERS_MAX);
		return -1;
	}
	if (e->stats.life < 0) {
		util_say(why, whysz, "'%s' has no LIFE", e->actor);
		return -1;
	}
	f = &s->f[s->n++];
	memset(f, 0, sizeof *f);
	f->name = xstrdup(e->actor);
	f->st = e->stats;
	/* Before initiative a round's combatants are still being named. */
	f->presence = s->init_done ? COMBAT_PENDING : COMBAT_ACTIVE;
	f->life = f->st.life;
	f->em = f->st.em;
	f->melee_with = f->protecting = f->protected_by = -1;
	f->was_protecting = f->last_long_at = f->free_offer = -1;
	f->shielded = -1;
	deck_init(&f->deck, f->st.lb < 0 ? 0 : f->st.lb);
	/* After the first round has begun, newcomers enter at long range. */
	if (s->round > 1 || s->init_done)
		for (int j = 0; j < s->n - 1; j++)
			s->dist[s->n - 1][j] = s->dist[j][s->n - 1] =
			    COMBAT_DIST_LONG;
	return 0;
}

/* The initiative entry for name in e, creating a virtual one. */
static struct combat_init *
init_entry(struct combat_event *e, const char *name)
{
	struct combat_init *it;

	for (int i = 0; i < e->ninit; i++)
		if (strcmp(e->init[i].name, name) == 0)
			return &e->init[i];
	e->init = xreallocarray(e->init, (size_t)e->ninit + 1,
	    sizeof *e->init);
	it = &e->init[e->ninit++];
	memset(it, 0, sizeof *it);
	it->name = xstrdup(name);
	it->virt = 1;
	return it;
}

/* The k-th ';'-separated item of list, newly allocated, or NULL. */
static char *
nth_pick(const char *list, int k)
{
	const char *p = list;

	if (list == NULL)
		return NULL;
	for (int i = 0; i < k; i++) {
		if ((p = strchr(p, ';')) == NULL)
			return NULL;
		p++;
	}
	return xstrndup(p, strcspn(p, ";"));
}

/* Appends text to an owned ';'-separated list (sep 0: no separator). */
static void
append(char **list, const char *text, int sep)
{
	char *t = xasprintf("%s%s%s", *list ? *list : "", *list && sep ?
	    ";" : "", text);

	free(*list);
	*list = t;
}

/*
 * Tie-break pick k of a combatant: the k-th typed one when there is one
 * (typed_virt says which of them were virtual), else a virtual draw.  It
 * is appended to it->ties and it->ties_virt.
 */
static int
tie_pick(struct combat_fighter *f, struct combat_init *it, int k,
    const char *typed, const char *typed_virt, struct rng *r, int *value,
    char *why, size_t whysz)
{
	char *pick = nth_pick(typed, k);
	int virt = pick == NULL || (typed_virt != NULL &&
	    (int)strlen(typed_virt) > k && typed_virt[k] == '1');
	struct deck_pick p;
	char who[80];

	snprintf(who, sizeof who, "'%s' tie-break %d", f->name, k + 1);
	if (side_pick(&f->deck, DECK_INITIATIVE, r, virt, &pick, 0, &p, who,
	    why, whysz) != 0) {
		free(pick);
		return -1;
	}
	*value = deck_total(&p, 0);
	append(&it->ties, pick, 1);
	append(&it->ties_virt, virt ? "1" : "0", 0);
	free(pick);
	return 0;
}

/* Refuses initiative already drawn, or typed for someone who draws none. */
static int
init_refused(const struct combat_state *s, const struct combat_event *e,
    char *why, size_t whysz)
{
	if (s->init_done) {
		snprintf(why, whysz, "initiative is already drawn this round");
		return -1;
	}
	for (int i = 0; i < e->ninit; i++) {
		int j = combat_find(s, e->init[i].name);

		if (j < 0 || !fighting(&s->f[j]) || s->f[j].stance ||
		    s->f[j].blow_carry) {
			util_say(why, whysz, "'%s' draws no initiative this "
			    "round (%s)", e->init[i].name, j < 0 ? "not in "
			    "this combat" : s->f[j].fled ? "fled" :
			    s->f[j].presence != COMBAT_ACTIVE ?
			    "joins next round" : s->f[j].life == 0 ? "down" :
			    s->f[j].stance ? "in a Defensive Stance" :
			    "Taking a Blow");
			return -1;
		}
	}
	return 0;
}

/*
 * The draws of an initiative: who[a] drew the keys key[a][0..klen[a]-1],
 * his total and then each tie-break pick; typed[a] and typed_virt[a] are
 * the tie-breaks typed for him, read as they are needed.
 */
struct init_draws {
	int	 n;
	int	 who[COMBAT_FIGHTERS_MAX];
	int	 key[COMBAT_FIGHTERS_MAX][32], klen[COMBAT_FIGHTERS_MAX];
	char	*typed[COMBAT_FIGHTERS_MAX], *typed_virt[COMBAT_FIGHTERS_MAX];
};

/* Everyone who may draws his initiative pick: the first key. */
static int
init_first(struct combat_state *s, struct combat_event *e,
    struct init_draws *d, struct rng *r, char *why, size_t whysz)
{
	for (int i = 0; i < s->n; i++) {
		struct combat_fighter *f = &s->f[i];
		struct combat_init *it;
		struct deck_pick p;
		char label[240];
		int a;

		if (!fighting(f) || f->stance || f->blow_carry)
			continue;
		it = init_entry(e, f->name);
		snprintf(label, sizeof label, "'%s' initiative", f->name);
		/* The typed tie-breaks are read from here on, and rebuilt. */
		a = d->n++;
		d->typed[a] = it->ties;
		d->typed_virt[a] = it->ties_virt;
		it->ties = it->ties_virt = NULL;
		d->who[a] = i;
		d->klen[a] = 1;
		if (side_pick(&f->deck, DECK_INITIATIVE, r, it->virt,
		    &it->cards, 0, &p, label, why, whysz) != 0)
			return -1;
		it->in = f->st.in < 0 ? 0 : f->st.in;
		it->total = deck_total(&p, it->in);
		d->key[a][0] = it->total;
	}
	if (d->n == 0) {
		snprintf(why, whysz, "nobody can draw initiative this round");
		return -1;
	}
	return 0;
}

/*
 * Break ties: everyone whose key equals another's draws one more single
 * pick, without IN, until all keys differ.
 */
static int
init_ties(struct combat_state *s, struct combat_event *e,
    struct init_draws *d, struct rng *r, char *why, size_t whysz)
{
	for (int pass = 0; pass < 31; pass++) {
		int tied[COMBAT_FIGHTERS_MAX], any = 0;

		for (int a = 0; a < d->n; a++) {
			tied[a] = 0;
			for (int b = 0; b < d->n; b++)
				if (a != b && d->klen[a] == d->klen[b] &&
				    memcmp(d->key[a], d->key[b], sizeof(int) *
				    (size_t)d->klen[a]) == 0)
					tied[a] = 1;
			any |= tied[a];
		}
		if (!any)
			break;
		for (int a = 0; a < d->n; a++) {
			struct combat_fighter *f = &s->f[d->who[a]];

			if (!tied[a])
				continue;
			if (tie_pick(f, init_entry(e, f->name), d->klen[a] - 1,
			    d->typed[a], d->typed_virt[a], r,
			    &d->key[a][d->klen[a]], why, whysz) != 0)
				return -1;
			d->klen[a]++;
		}
	}
	return 0;
}

/* Order: the highest key first, compared pick by pick. */
static void
init_order(struct combat_state *s, struct combat_event *e,
    struct init_draws *d)
{
	for (int a = 0; a < d->n; a++)
		for (int b = a + 1; b < d->n; b++) {
			int swap = 0, tw, tl, tk[32];

			for (int k = 0; k < d->klen[a] && k < d->klen[b]; k++)
				if (d->key[a][k] != d->key[b][k]) {
					swap = d->key[b][k] > d->key[a][k];
					break;
				}
			if (!swap)
				continue;
			tw = d->who[a];
			tl = d->klen[a];
			memcpy(tk, d->key[a], sizeof tk);
			d->who[a] = d->who[b];
			d->klen[a] = d->klen[b];
			memcpy(d->key[a], d->key[b], sizeof d->key[a]);
			d->who[b] = tw;
			d->klen[b] = tl;
			memcpy(d->key[b], tk, sizeof tk);
		}
	s->norder = d->n;
	for (int a = 0; a < d->n; a++) {
		s->order[a] = d->who[a];
		s->f[d->who[a]].init_total = d->key[a][0];
		s->f[d->who[a]].init_pos = a + 1;
		init_entry(e, s->f[d->who[a]].name)->pos = a + 1;
	}
	s->init_done = 1;
}

/* Initiative: the draws, the tie-breaks, the order. */
static int
do_initiative(struct combat_state *s, struct combat_event *e, struct rng *r,
    char *why, size_t whysz)
{
	struct init_draws *d;
	struct combat_state *save;
	int rc;

	if (init_refused(s, e, why, whysz) != 0)
		return -1;
	d = xcalloc(1, sizeof *d);
	save = xmalloc(sizeof *save);
	*save = *s;
	/*
	 * A Surprise action comes before round 1 (RULINGS section 1): it is
	 * no part of the round, so it does not halve DR, and the cards it
	 * drew (offence, defences, a reaction) go back before round 1's
	 * initiative.  Before that initiative nothing else draws a card that
	 * stays out, so every deck is whole again.
	 */
	if (s->round == 1)
		for (int i = 0; i < s->n; i++)
			deck_clean_up(&s->f[i].deck);
	rc = init_first(s, e, d, r, why, whysz) != 0 ||
	    init_ties(s, e, d, r, why, whysz) != 0 ? -1 : 0;
	if (rc == 0)
		init_order(s, e, d);
	else
		*s = *save;
	for (int a = 0; a < d->n; a++) {
		free(d->typed[a]);
		free(d->typed_virt[a]);
	}
	free(d);
	free(save);
	return rc;
}

#define BIT(i)	(UINT64_C(1) << (i))

/* Whether an item of this range works for an action at that range. */
static int
gear_fits(const struct combat_gear *g, int ranged)
{
	if (g->name == NULL || ranged < 0 || g->range == ITEM_BOTH)
		return 1;
	return g->range == (ranged ? ITEM_LONG : ITEM_SHORT);
}

/* 1 if name is in the ';'-separated list. */
static int
in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p;) {
		size_t len = strcspn(p, ";");

		if (len == n && strncmp(p, name, n) == 0)
			return 1;
		p += len + (p[len] == ';');
	}
	return 0;
}

/* Checks that every name of a ';'-separated list is in the combat. */
static int
list_known(const struct combat_state *s, const char *list, char *why,
    size_t whysz)
{
	for (const char *p = list; p && *p;) {
		size_t len = strcspn(p, ";");
		char *one = xstrndup(p, len);
		int i = combat_find(s, one);

		if (i < 0)
			util_say(why, whysz, "'%s' is not in this combat", one);
		free(one);
		if (i < 0)
			return -1;
		p += len + (p[len] == ';');
	}
	return 0;
}

/* Ends the protection someone gives i (i took an action other than Flee). */
static void
unprotect(struct combat_state *s, int i)
{
	int p = s->f[i].protected_by;

	if (p >= 0) {
		s->f[p].protecting = -1;
		s->f[i].protected_by = -1;
	}
}

/* Ends the protection i gives. */
static void
stop_protecting(struct combat_state *s, int i)
{
	int q = s->f[i].protecting;

	if (q >= 0) {
		s->f[q].protected_by = -1;
		s->f[i].protecting = -1;
	}
}

/*
 * i took the action his turn allowed: for the Melee Check his last action
 * is this one (a short range attack at short, else none), and whoever
 * took blows for him stops unless he fled.
 */
static void
took_action(struct combat_state *s, int i, int short_at, int flee)
{
	struct combat_fighter *f = &s->f[i];

	f->acted = 1;
	f->hit_by = 0;
	f->melee_with = short_at;
	f->shielded = -1;
	f->shielded_from = 0;
	if (!flee)
		unprotect(s, i);
}

/* Refuses an action from someone who must pass after an Intimidation. */
static int
not_cowed(const struct combat_state *s, int i, char *why, size_t whysz)
{
	if (s->f[i].intimidated) {
		util_say(why, whysz, "'%s' was intimidated and must pass this "
		    "action", s->f[i].name);
		return -1;
	}
	return 0;
}

static const char *
dist_text(int feet, char *buf, size_t sz)
{
	if (feet == COMBAT_DIST_LONG)
		snprintf(buf, sz, "more than 5 ft");
	else
		snprintf(buf, sz, "%d ft", feet);
	return buf;
}

enum { DEF_DR, DEF_MIND, DEF_NONE };

/*
 * The defence of an attack, a mental action or a power, unless the
 * offence is 0.  ranged: 1 long range, 0 short, -1 no range.
 */
static int
defend(struct combat_state *s, struct combat_event *e, int t, int how,
    int ranged, struct rng *r, char *why, size_t whysz)
{
	struct combat_fighter *f = &s->f[t];
	const struct combat_gear *g = &e->vs_item;
	struct deck_pick q;
	int stat, skills, dodge;

	if (e->offense == 0 || how == DEF_NONE) {
		/* An offence of 0 misses: nobody draws against it. */
		if (!e->vs_virt && e->vs_cards && *e->vs_cards) {
			snprintf(why, whysz, e->offense == 0 ? "no defence is "
			    "drawn against an offence of 0" : "nothing defends "
			    "against this power: no defence cards");
			return -1;
		}
		free(e->vs_cards);
		e->vs_cards = NULL;
		e->defense = e->offense == 0 ? -1 : 0;
		e->vs_base = 0;
		e->special = -1;
		e->vs_fumble = 0;
		return 0;
	}
	stat = how == DEF_MIND ? f->st.mind : combat_dr_now(f);
	if (stat < 0) {
		util_say(why, whysz, "'%s' has no %s", f->name, how ==
		    DEF_MIND ? "MIND" : "DR");
		return -1;
	}
	if (combat_skills_sum(e->vs_skills, &skills, &dodge, why, whysz) != 0)
		return -1;
	if (dodge && s->rules == COMBAT_RULES_AVATAR && f->protecting >= 0) {
		util_say(why, whysz, "'%s' is Taking a Blow: under Avatar 2.6 "
		    "no dodging skill (Acrobatics, Fluid Motion, Dodge)",
		    f->name);
		return -1;
	}
	if (!gear_fits(g, how == DEF_DR ? ranged : -1)) {
		util_say(why, whysz, "'%s' works at %s range only", g->name,
		    item_range_name(g->range));
		return -1;
	}
	stat += how == DEF_MIND ? g->mod[ITEM_MIND] : g->mod[ITEM_DR];
	e->vs_base = sheet_calc_base(stat + e->vs_mod + skills, how ==
	    DEF_MIND ? SHEET_MENTAL : SHEET_SHORT, f->st.mod_defense +
	    g->mod[ITEM_DEFENSE], f->st.mod_pick + g->mod[ITEM_PICK]);
	if (side_pick(&f->deck, DECK_DEFENSE, r, e->vs_virt, &e->vs_cards,
	    e->special, &q, "the defence", why, whysz) != 0)
		return -1;
	e->special = q.special;
	e->vs_fumble = q.fumble;
	e->defense = deck_total(&q, e->vs_base);
	return 0;
}

/* Who acts in a strike, and whether he may; returns his index or -1. */
static int
striker(struct combat_state *s, struct combat_event *e, char *why, size_t whysz)
{
	int physical = e->action == COMBAT_ATTACK, a;

	if (e->shares) {
		a = combat_find(s, e->actor);
		if (a < 0 || s->last_actor != a || s->last_action !=
		    e->action || !combat_several_targets(e->action, e->kind,
		    e->power.target) || (e->action == COMBAT_MENTAL &&
		    s->last_kind != COMBAT_INTIMIDATION)) {
			snprintf(why, whysz, "only an Intimidation or a group "
			    "power has several targets, and they follow it at "
			    "once");
			return -1;
		}
		return a;
	}
	if (e->surprise) {
		if ((a = present(s, e->actor, "the actor", why, whysz)) < 0)
			return -1;
		if (s->struck || s->round != 1 || s->init_done) {
			snprintf(why, whysz, "a Surprise action comes before "
			    "the combat's first initiative, and only one");
			return -1;
		}
		if (e->action == COMBAT_POWER || (physical && e->range !=
		    COMBAT_LONG)) {
			snprintf(why, whysz, "a Surprise action is a long "
			    "range or a mental action");
			return -1;
		}
		return a;
	}
	if (e->free) {
		int c;

		if ((a = present(s, e->actor, "the actor", why, whysz)) < 0)
			return -1;
		c = s->f[a].free_offer;
		if (!physical || e->range != COMBAT_LONG) {
			snprintf(why, whysz, "a free action after a Charge is "
			    "a long range attack at the charger");
			return -1;
		}
		if (c < 0 || strcmp(s->f[c].name, e->target) != 0) {
			util_say(why, whysz, "'%s' has no free action at '%s': "
			    "only one whose last action was a long range "
			    "action at the charger, right after the Charge",
			    e->actor, e->target);
			return -1;
		}
		if (s->f[a].stance || s->f[a].protecting >= 0) {
			util_say(why, whysz, "'%s' is %s and takes no action",
			    e->actor, s->f[a].stance ? "in a Defensive Stance"
			    : "Taking a Blow");
			return -1;
		}
		return a;
	}
	if ((a = may_act(s, e, why, whysz)) < 0 ||
	    not_cowed(s, a, why, whysz) != 0)
		return -1;
	return a;
}

/*
 * Whom a strike hits: the declared target d, or a member of d's melee
 * drawn at random (long range), or whoever takes the blow for him
 * (physical attacks).  Returns the index, or -1.  *shield is the one
 * whose blow a protector took, or -1.
 */
static int
strike_target(struct combat_state *s, struct combat_event *e, int a, int d,
    int *shield, struct rng *r, char *why, size_t whysz)
{
	int t = d, p, members[COMBAT_FIGHTERS_MAX], n = 0;
	uint64_t m = e->action == COMBAT_ATTACK && e->range == COMBAT_LONG &&
	    !e->shares ? combat_melee(s, d) & ~BIT(a) : 0;

	*shield = -1;
	if (e->melee_pick && m == 0) {
		util_say(why, whysz, "no melee draw: '%s' is in no melee, or "
		    "this is no long range attack", s->f[d].name);
		return -1;
	}
	if (e->action != COMBAT_ATTACK)
		return t;
	if (m) {
		m |= BIT(d);
		for (int j = 0; j < s->n; j++)
			if (m & BIT(j))
				members[n++] = j;
		if (e->melee_pick) {
			t = combat_find(s, e->melee_pick);
			if (t < 0 || !(m & BIT(t))) {
				util_say(why, whysz, "the melee draw '%s' is "
				    "not in the melee of '%s'", e->melee_pick,
				    s->f[d].name);
				return -1;
			}
		} else
			t = members[rng_below(r, (uint64_t)n)];
		e->melee_n = n;
		free(e->melee_drawn);
		e->melee_drawn = xstrdup(s->f[t].name);
	}
	p = s->f[t].protected_by;
	if (p >= 0 && p != a && fighting(&s->f[p])) {
		*shield = t;
		t = p;
	}
	return t;
}

/* A strike in the making: who, at whom, with what. */
struct strike {
	int	 a, d, t;	/* the actor, the declared target, the one
				   struck */
	int	 shield;	/* whose blow a protector took, or -1 */
	int	 physical, mental, power;
	int	 ranged;	/* 1 long range, 0 short, -1 no range */
	int	 how;		/* DEF_DR, DEF_MIND or DEF_NONE */
	int	 avail, penalty, skills;
};

/* Declared and checked: who strikes whom, at what range, who is struck. */
static int
strike_declare(struct combat_state *s, struct combat_event *e,
    struct strike *k, struct rng *r, char *why, size_t whysz)
{
	char b1[40];

	if ((k->a = striker(s, e, why, whysz)) < 0 ||
	    (k->d = present(s, e->target, "the target", why, whysz)) < 0)
		return -1;
	if (k->a == k->d) {
		util_say(why, whysz, "'%s' cannot target himself", e->actor);
		return -1;
	}
	if (k->physical) {
		int feet = s->dist[k->a][k->d];

		if (e->range == COMBAT_SHORT && (feet == COMBAT_DIST_LONG ||
		    feet > 5)) {
			util_say(why, whysz, "'%s' is %s from '%s': short "
			    "range needs 5 ft or less (--long)", e->target,
			    dist_text(feet, b1, sizeof b1), e->actor);
			return -1;
		}
		if (e->range == COMBAT_LONG && feet >= 0 && feet <= 5) {
			util_say(why, whysz, "'%s' is %d ft from '%s': long "
			    "range needs more than 5 ft", e->target, feet,
			    e->actor);
			return -1;
		}
	}
	if ((k->t = strike_target(s, e, k->a, k->d, &k->shield, r, why,
	    whysz)) < 0)
		return -1;
	if (k->t != k->d) {
		free(e->aimed);
		e->aimed = e->target;
		e->target = xstrdup(s->f[k->t].name);
	}
	return 0;
}

/* The defence the strike meets, the skills and the item it uses. */
static int
strike_means(struct combat_state *s, struct combat_event *e,
    struct strike *k, char *why, size_t whysz)
{
	const struct combat_fighter *ft = &s->f[k->t];
	const struct combat_gear *g = &e->item;

	k->how = k->physical ? DEF_DR : k->mental ? DEF_MIND :
	    e->power.defend == POWER_VS_DR ? DEF_DR :
	    e->power.defend == POWER_VS_MIND ? DEF_MIND : DEF_NONE;
	if (k->how == DEF_MIND && ft->st.mind <= 0) {
		util_say(why, whysz, "'%s' has %s: no mental action may target "
		    "him", e->target, ft->st.mind == 0 ? "a MIND of 0" :
		    "no MIND");
		return -1;
	}
	if (combat_skills_sum(e->skills, &k->skills, NULL, why, whysz) != 0)
		return -1;
	if (g->name && k->power) {
		snprintf(why, whysz, "a power takes no supplemental item");
		return -1;
	}
	if (!gear_fits(g, k->ranged)) {
		util_say(why, whysz, "'%s' works at %s range only", g->name,
		    item_range_name(g->range));
		return -1;
	}
	return 0;
}

/* A power's EM: at least its cost, paid from what the caster has. */
static int
strike_em(struct combat_state *s, struct combat_event *e,
    const struct strike *k, char *why, size_t whysz)
{
	struct combat_fighter *fa = &s->f[k->a];
	int spend = e->shares ? 0 : e->em_spent ? e->em_spent : e->power.em;

	if (e->power.name == NULL) {
		snprintf(why, whysz, "no power given");
		return -1;
	}
	if (fa->em < 0) {
		util_say(why, whysz, "'%s' has no EM", e->actor);
		return -1;
	}
	if (spend < e->power.em && !e->shares) {
		util_say(why, whysz, "'%s' costs at least %d EM, not %d",
		    e->power.name, e->power.em, spend);
		return -1;
	}
	if (spend > fa->em) {
		util_say(why, whysz, "'%s' has %d EM left: %d would take it "
		    "below 0", e->actor, fa->em, spend);
		return -1;
	}
	e->em_spent = spend;
	e->em_before = fa->em;
	fa->em -= spend;
	e->em_after = fa->em;
	return 0;
}

/* The stat put into an attack or a mental action: OR, DR or MIND. */
static int
strike_stat(struct combat_state *s, struct combat_event *e,
    struct strike *k, char *why, size_t whysz)
{
	const struct combat_fighter *fa = &s->f[k->a];
	const struct combat_gear *g = &e->item;
	int stat = k->mental ? fa->st.mind : k->ranged == 1 ?
	    combat_dr_now(fa) : fa->st.or_;
	const char *statname = k->mental ? "MIND" : k->ranged == 1 ? "DR" :
	    "OR";

	if (stat < 0) {
		util_say(why, whysz, "'%s' has no %s", e->actor, statname);
		return -1;
	}
	k->avail = stat + g->mod[k->mental ? ITEM_MIND : k->ranged == 1 ?
	    ITEM_DR : ITEM_OR];
	if (k->avail < 0)
		k->avail = 0;
	k->penalty = !k->mental ? 0 : e->kind == COMBAT_INTIMIDATION ? 5 :
	    e->kind == COMBAT_COERCION ? 10 : 0;
	if (e->use > k->avail) {
		util_say(why, whysz, "'%s' has only %d %s to put in, not %d",
		    e->actor, k->avail, statname, e->use);
		return -1;
	}
	if (e->use < 0) {
		snprintf(why, whysz, "at least 1 %s must be put in", statname);
		return -1;
	}
	/*
	 * A full-OR item takes the whole stat at every range and under both
	 * rule sets: seed 001 says so at short range, and RULINGS section 1
	 * reads the CRS's "unless an item demands full OR" the same way, so
	 * the CRS's silence is no licence to pull.
	 */
	if (g->full_or && k->physical && e->use > 0 && e->use < k->avail) {
		util_say(why, whysz, "'%s' must be used with the full %s (%d): "
		    "no pulling the punch", g->name, statname, k->avail);
		return -1;
	}
	return 0;
}

/* Step 6: a reaction may negate the action before it resolves. */
static int
strike_react(struct combat_state *s, struct combat_event *e,
    const struct strike *k, struct rng *r, char *why, size_t whysz)
{
	struct deck_pick q;
	int x;

	e->negated = 0;
	if (e->reactor == NULL || e->shares)
		return 0;
	if ((x = present(s, e->reactor, "the reactor", why, whysz)) < 0)
		return -1;
	if (x == k->a) {
		util_say(why, whysz, "'%s' cannot react to his own action",
		    e->reactor);
		return -1;
	}
	if (side_pick(&s->f[x].deck, DECK_OFFENSE, r, e->react_virt,
	    &e->react_cards, 0, &q, "the reaction", why, whysz) != 0)
		return -1;
	e->react_fumble = q.fumble;
	e->react_total = deck_total(&q, e->react_base);
	e->negated = e->react_total >= e->react_need;
	return 0;
}

/* The offence of a strike that goes ahead: its base and its pick. */
static int
strike_pick(struct combat_state *s, struct combat_event *e,
    const struct strike *k, struct rng *r, char *why, size_t whysz)
{
	struct combat_fighter *fa = &s->f[k->a];
	const struct combat_gear *g = &e->item;
	struct deck_pick p;

	if (k->power)
		e->base = e->em_spent + e->power.bonus + e->mod + k->skills;
	else
		e->base = sheet_calc_base((e->use > 0 ? e->use : k->avail) -
		    k->penalty + e->mod + k->skills, k->mental ?
		    SHEET_MENTAL : SHEET_SHORT, fa->st.mod_offense +
		    g->mod[ITEM_OFFENSE], fa->st.mod_pick + g->mod[ITEM_PICK]);
	if (k->power && e->power.picks == 0) {
		if (!e->virt && e->cards && *e->cards) {
			util_say(why, whysz, "'%s' draws no card",
			    e->power.name);
			return -1;
		}
		free(e->cards);
		e->cards = NULL;
		e->fumble = 0;
		e->offense = e->base < 0 ? 0 : e->base;
		return 0;
	}
	if (side_pick_k(&fa->deck, DECK_OFFENSE, k->power ? e->power.picks :
	    1, r, e->virt, &e->cards, 0, &p, "the offence", why, whysz) != 0)
		return -1;
	e->fumble = p.fumble;
	e->offense = deck_total(&p, e->base);
	return 0;
}

/* The offence: none when negated, the one shared, or a new pick. */
static int
strike_offence(struct combat_state *s, struct combat_event *e,
    const struct strike *k, struct rng *r, char *why, size_t whysz)
{
	if (e->negated) {
		free(e->cards);
		free(e->vs_cards);
		e->cards = e->vs_cards = NULL;
		e->base = e->offense = e->fumble = 0;
		e->defense = e->special = -1;
		e->vs_fumble = 0;
		return 0;
	}
	if (!e->shares)
		return strike_pick(s, e, k, r, why, whysz);
	/* The offence was drawn once, for every target. */
	if (e->cards && *e->cards && !e->virt) {
		snprintf(why, whysz, "a further target shares the offence: no "
		    "cards of its own");
		return -1;
	}
	e->base = s->last_base;
	e->offense = s->last_offense;
	e->fumble = 0;
	e->virt = 0;
	free(e->cards);
	e->cards = NULL;
	return 0;
}

/* The damage, and what the strike leaves for the rest of the round. */
static void
strike_resolve(struct combat_state *s, struct combat_event *e,
    const struct strike *k)
{
	struct combat_fighter *fa = &s->f[k->a], *ft = &s->f[k->t];
	int ranged = k->ranged == 1;

	e->hit = !e->negated && e->defense >= 0 && e->offense > e->defense;
	e->damage = e->hit && (!k->mental || e->kind == COMBAT_KIND_ATTACK) ?
	    e->offense - e->defense : 0;
	e->life_before = ft->life;
	ft->life = ft->life > e->damage ? ft->life - e->damage : 0;
	e->life_after = ft->life;
	if (k->mental && e->kind == COMBAT_INTIMIDATION && e->hit)
		ft->intimidated = ft->cowed = 1;
	if (!e->negated && k->physical && ranged && !e->surprise)
		fa->halvings++;
	if (!e->negated && k->physical && !ranged) {
		ft->hit_by |= BIT(k->a);
		if (k->shield >= 0) {
			ft->shielded = k->shield;
			ft->shielded_from |= BIT(k->a);
		}
	}
	if (!e->shares) {
		if (!e->free && !e->surprise)
			took_action(s, k->a, k->physical && !ranged &&
			    !e->negated ? k->t : -1, 0);
		if (e->free)
			fa->free_offer = -1;
		fa->last_long_at = k->physical && ranged ? k->d : -1;
	}
	s->struck = 1;
	s->last_actor = e->negated ? -1 : k->a;
	s->last_action = e->action;
	s->last_kind = k->mental ? e->kind : -1;
	s->last_base = e->base;
	s->last_offense = e->offense;
}

/*
 * An attack, a mental action or a power, in the phases of the rules:
 * declared and checked, the stat or EM put in, a reaction (step 6), the
 * offence, the defence, the damage.  A refusal leaves s as it was.
 */
static int
do_strike(struct combat_state *s, struct combat_event *e, struct rng *r,
    char *why, size_t whysz)
{
	struct combat_state *save = xmalloc(sizeof *save);
	struct strike k;
	int rc;

	*save = *s;
	memset(&k, 0, sizeof k);
	k.physical = e->action == COMBAT_ATTACK;
	k.mental = e->action == COMBAT_MENTAL;
	k.power = e->action == COMBAT_POWER;
	k.ranged = k.physical ? e->range == COMBAT_LONG : -1;
	rc = strike_declare(s, e, &k, r, why, whysz) != 0 ||
	    strike_means(s, e, &k, why, whysz) != 0 ||
	    (k.power ? strike_em(s, e, &k, why, whysz) :
	    strike_stat(s, e, &k, why, whysz)) != 0 ||
	    strike_react(s, e, &k, r, why, whysz) != 0 ||
	    strike_offence(s, e, &k, r, why, whysz) != 0 ||
	    (!e->negated && defend(s, e, k.t, k.how, k.ranged, r, why,
	    whysz) != 0) ? -1 : 0;
	if (rc == 0)
		strike_resolve(s, e, &k);
	else
		*s = *save;
	free(save);
	return rc;
}

/* A distance between two combatants, at the start of a round. */
static int
do_range(struct combat_state *s, struct combat_event *e, struct rng *r,
    char *why, size_t whysz)
{
	int a, b;

	(void)r;
	if ((a = present(s, e->actor, "the combatant", why, whysz)) < 0 ||
	    (b = present(s, e->target, "the combatant", why, whysz)) < 0)
		return -1;
	if (a == b) {
		snprintf(why, whysz, "a distance is between two combatants");
		return -1;
	}
	if (s->init_done) {
		snprintf(why, whysz, "distances are set at the start of a "
		    "round, before initiative");
		return -1;
	}
	if (e->feet < 0 || e->feet > COMBAT_FEET_MAX || e->feet % 5 != 0) {
		snprintf(why, whysz, "a distance is 0 to %d ft in 5 ft steps, "
		    "not %d", COMBAT_FEET_MAX, e->feet);
		return -1;
	}
	s->dist[a][b] = s->dist[b][a] = e->feet;
	return 0;
}

/* The free Flee at the end of a combat: uncontested. */
static int
flee_at_end(struct combat_state *s, struct combat_event *e, char *why,
    size_t whysz)
{
	int a;

	if ((a = combat_find(s, e->actor)) < 0) {
		util_say(why, whysz, "'%s' is not in this combat", e->actor ?
		    e->actor : "");
		return -1;
	}
	if (s->f[a].dead || s->f[a].fled) {
		util_say(why, whysz, "'%s' has %s", e->actor, s->f[a].dead ?
		    "died" : "fled already");
		return -1;
	}
	if ((e->cards && *e->cards) || e->ninit) {
		snprintf(why, whysz, "the free Flee at the end of a combat is "
		    "uncontested: no cards");
		return -1;
	}
	e->free = 1;
	e->hit = 1;
	s->f[a].fled = 1;
	s->f[a].until = e->until = e->time + s->lockout;
	return 0;
}

/* 1 if j may try to catch a, who flees: in the fight, and willing. */
static int
may_catch(const struct combat_state *s, const struct combat_event *e, int a,
    int j)
{
	return j != a && fighting(&s->f[j]) && !s->f[j].cowed &&
	    !in_list(e->let, s->f[j].name);
}

/* Typed catches must name someone who may catch. */
static int
flee_typed_catches(const struct combat_state *s, const struct combat_event *e,
    int a, char *why, size_t whysz)
{
	for (int i = 0; i < e->ninit; i++) {
		int j = combat_find(s, e->init[i].name);

		if (j < 0 || !may_catch(s, e, a, j)) {
			util_say(why, whysz, "'%s' cannot catch: %s",
			    e->init[i].name, j < 0 ? "not in this combat" :
			    j == a ? "he is the one fleeing" :
			    !fighting(&s->f[j]) ? "not in the fight" :
			    s->f[j].cowed ? "intimidated this round" :
			    "he lets him go");
			return -1;
		}
	}
	return 0;
}

/* Every challenger's Catch: pick + DR; returns the best, or -1 (none). */
static int
flee_catches(struct combat_state *s, struct combat_event *e, int a,
    struct rng *r, int *best, char *why, size_t whysz)
{
	*best = -1;
	for (int j = 0, pos = 0; j < s->n; j++) {
		struct combat_fighter *c = &s->f[j];
		struct combat_init *it;
		struct deck_pick q;
		char who[240];
		int cdr;

		if (!may_catch(s, e, a, j))
			continue;
		it = init_entry(e, c->name);
		cdr = combat_dr_now(c);
		it->in = sheet_calc_base(cdr < 0 ? 0 : cdr, SHEET_SHORT, 0,
		    c->st.mod_pick);
		it->pos = ++pos;
		snprintf(who, sizeof who, "'%s' catch", c->name);
		if (side_pick(&c->deck, DECK_OFFENSE, r, it->virt, &it->cards,
		    0, &q, who, why, whysz) != 0)
			return -1;
		it->total = deck_total(&q, it->in);
		if (it->total > *best)
			*best = it->total;
	}
	return 0;
}

/* Flee: pick + DR + modifiers against every challenger's Catch. */
static int
do_flee(struct combat_state *s, struct combat_event *e, struct rng *r,
    char *why, size_t whysz)
{
	struct combat_state *save;
	struct combat_fighter *f;
	struct deck_pick p;
	int a, skills, dr, best;

	if (s->ended)
		return flee_at_end(s, e, why, whysz);
	if (e->free) {
		snprintf(why, whysz, "the free Flee comes after the end of the "
		    "combat");
		return -1;
	}
	if ((a = may_act(s, e, why, whysz)) < 0 ||
	    not_cowed(s, a, why, whysz) != 0 ||
	    list_known(s, e->let, why, whysz) != 0 ||
	    combat_skills_sum(e->skills, &skills, NULL, why, whysz) != 0)
		return -1;
	f = &s->f[a];
	if ((dr = combat_dr_now(f)) < 0) {
		util_say(why, whysz, "'%s' has no DR", e->actor);
		return -1;
	}
	if (flee_typed_catches(s, e, a, why, whysz) != 0)
		return -1;
	save = xmalloc(sizeof *save);
	*save = *s;
	e->base = sheet_calc_base(dr + e->mod + skills, SHEET_SHORT, 0,
	    f->st.mod_pick);
	if (side_pick(&f->deck, DECK_OFFENSE, r, e->virt, &e->cards, 0, &p,
	    "the flee", why, whysz) != 0 ||
	    flee_catches(s, e, a, r, &best, why, whysz) != 0) {
		*s = *save;
		free(save);
		return -1;
	}
	free(save);
	e->fumble = p.fumble;
	e->offense = deck_total(&p, e->base);
	e->defense = best;
	e->hit = e->offense >= best;
	took_action(s, a, -1, 1);
	if (e->hit) {
		f->fled = 1;
		f->until = e->until = e->time + s->lockout;
		stop_protecting(s, a);
		unprotect(s, a);
	}
	s->struck = 1;
	return 0;
}

/* Charge: a new position; free actions to those who shot at the charger. */
static int
do_charge(struct combat_state *s, struct combat_event *e, struct rng *r,
    char *why, size_t whysz)
{
	uint64_t m;
	int a;

	(void)r;
	if ((a = may_act(s, e, why, whysz)) < 0 ||
	    not_cowed(s, a, why, whysz) != 0 ||
	    list_known(s, e->let, why, whysz) != 0)
		return -1;
	if ((m = combat_melee(s, a)) != 0) {
		int j = 0;

		while (!(m & BIT(j)))
			j++;
		util_say(why, whysz, "'%s' is in a melee (with '%s') and may "
		    "not Charge", e->actor, s->f[j].name);
		return -1;
	}
	for (int j = 0; j < s->n; j++)
		if (j != a && fighting(&s->f[j]) && s->dist[a][j] >= 0 &&
		    s->dist[a][j] <= 5 && !in_list(e->let, s->f[j].name)) {
			util_say(why, whysz, "'%s' is %d ft from '%s', who "
			    "objects: no Charge (--let NAME if he does not)",
			    e->actor, s->dist[a][j], s->f[j].name);
			return -1;
		}
	for (int i = 0; i < e->ninit; i++) {
		int j = combat_find(s, e->init[i].name), feet = e->init[i].in;

		if (j < 0 || j == a) {
			util_say(why, whysz, "'%s' %s", e->init[i].name, j < 0 ?
			    "is not in this combat" : "is the one charging");
			return -1;
		}
		if (feet < 0 || feet > COMBAT_FEET_MAX || feet % 5 != 0) {
			snprintf(why, whysz, "a distance is 0 to %d ft in 5 ft "
			    "steps, not %d", COMBAT_FEET_MAX, feet);
			return -1;
		}
	}
	/* Distances not given are no longer known. */
	for (int j = 0; j < s->n; j++)
		s->dist[a][j] = s->dist[j][a] = COMBAT_DIST_UNKNOWN;
	for (int i = 0; i < e->ninit; i++) {
		int j = combat_find(s, e->init[i].name);

		s->dist[a][j] = s->dist[j][a] = e->init[i].in;
	}
	took_action(s, a, -1, 0);
	s->f[a].last_long_at = -1;
	for (int j = 0; j < s->n; j++)
		if (j != a && fighting(&s->f[j]) && s->f[j].last_long_at == a)
			s->f[j].free_offer = a;
	s->struck = 1;
	return 0;
}

/* Taking a Blow: in his own action, or carried on at step 1. */
static int
do_blow(struct combat_state *s, struct combat_event *e, struct rng *r,
    char *why, size_t whysz)
{
	int p, q, feet;
	uint64_t m;

	(void)r;
	if ((q = present(s, e->target, "the protected", why, whysz)) < 0)
		return -1;
	if (!s->init_done) {
		if ((p = present(s, e->actor, "the protector", why,
		    whysz)) < 0)
			return -1;
		if (s->f[p].was_protecting != q) {
			util_say(why, whysz, "'%s' was not Taking a Blow for "
			    "'%s' last round: he declares it in his own "
			    "action", e->actor, e->target);
			return -1;
		}
		if (s->f[p].stance || s->f[p].blow_carry) {
			util_say(why, whysz, "'%s' is %s", e->actor,
			    s->f[p].stance ? "in a Defensive Stance" :
			    "already Taking a Blow");
			return -1;
		}
	} else if ((p = may_act(s, e, why, whysz)) < 0 ||
	    not_cowed(s, p, why, whysz) != 0)
		return -1;
	if (p == q) {
		util_say(why, whysz, "'%s' cannot take a blow for himself",
		    e->actor);
		return -1;
	}
	feet = s->dist[p][q];
	if (feet == COMBAT_DIST_LONG || feet > 5) {
		char b[40];

		util_say(why, whysz, "'%s' is %s from '%s': Taking a Blow "
		    "needs short range", e->target, dist_text(feet, b,
		    sizeof b), e->actor);
		return -1;
	}
	/*
	 * The blows he took for q were aimed at q: that melee is q's too, not
	 * one apart from him (RULINGS section 1), so it never stops him
	 * carrying on, or taking the blows for q again.
	 */
	m = combat_melee(s, p);
	if (s->f[p].shielded == q)
		m &= ~s->f[p].shielded_from;
	if (m != 0 && !(m & BIT(q))) {
		util_say(why, whysz, "'%s' is in a melee without '%s' and may "
		    "not take a blow for him", e->actor, e->target);
		return -1;
	}
	if (s->f[q].protected_by >= 0 && s->f[q].protected_by != p) {
		util_say(why, whysz, "'%s' takes the blows for '%s' already",
		    s->f[s->f[q].protected_by].name, e->target);
		return -1;
	}
	/*
	 * Carried on at step 1, it is the Taking a Blow he took last round
	 * going on, not a new action: the melee that the blows he took made
	 * lasts, for the Melee Check and the status, until he does act.
	 */
	if (s->init_done)
		took_action(s, p, -1, 0);
	else {
		s->f[p].acted = 1;
		unprotect(s, p);
		s->f[p].blow_carry = 1;
	}
	s->f[p].last_long_at = -1;
	stop_protecting(s, p);
	s->f[p].protecting = q;
	s->f[q].protected_by = p;
	s->struck = 1;
	return 0;
}

/* Item Swap (Avatar 2.6): an action, or the free one after a Charge. */
static int
do_swap(struct combat_state *s, struct combat_event *e, struct rng *r,
    char *why, size_t whysz)
{
	int a;

	(void)r;
	if (s->rules != COMBAT_RULES_AVATAR) {
		snprintf(why, whysz, "Item Swap is an Avatar 2.6 action "
		    "(start --rules avatar)");
		return -1;
	}
	if (e->item.name == NULL) {
		snprintf(why, whysz, "no item given");
		return -1;
	}
	if (e->free) {
		if ((a = present(s, e->actor, "the actor", why, whysz)) < 0)
			return -1;
		if (s->f[a].free_offer < 0) {
			util_say(why, whysz, "'%s' has no free Item Swap: only "
			    "one whose last action was a long range action at "
			    "the charger, right after the Charge", e->actor);
			return -1;
		}
		s->f[a].free_offer = -1;
		s->f[a].last_long_at = -1;
		return 0;
	}
	if ((a = may_act(s, e, why, whysz)) < 0 ||
	    not_cowed(s, a, why, whysz) != 0)
		return -1;
	took_action(s, a, -1, 0);
	s->f[a].last_long_at = -1;
	return 0;
}

static int
do_start(struct combat_state *s, struct combat_event *e, struct rng *r,
    char *why, size_t whysz)
{
	(void)r;
	if (e->lockout < 0 || e->lockout > COMBAT_LOCKOUT_MAX) {
		snprintf(why, whysz, "a flee lockout is 0 to %d minutes",
		    COMBAT_LOCKOUT_MAX / 60);
		return -1;
	}
	if (e->rules == COMBAT_RULES_AVATAR && e->lockout !=
	    COMBAT_LOCKOUT_SECS) {
		snprintf(why, whysz, "under Avatar 2.6 the flee lockout is one "
		    "hour");
		return -1;
	}
	s->started = e->time;
	s->rules = e->rules;
	s->lockout = e->lockout;
	return 0;
}

/*
 * Clean Up: cards back, stances and DR reset, then the next round, which
 * newcomers enter.
 */
static int
do_round(struct combat_state *s, struct combat_event *e, struct rng *r,
    char *why, size_t whysz)
{
	(void)r;
	(void)why;
	(void)whysz;
	for (int i = 0; i < s->n; i++) {
		struct combat_fighter *f = &s->f[i];

		deck_clean_up(&f->deck);
		f->stance = f->halvings = f->acted = 0;
		f->init_total = f->init_pos = 0;
		f->presence = COMBAT_ACTIVE;
		f->cowed = f->blow_carry = 0;
		/* Taking a Blow lapses unless carried on at step 1. */
		f->was_protecting = f->protecting;
	}
	for (int i = 0; i < s->n; i++)
		s->f[i].protecting = s->f[i].protected_by = -1;
	s->init_done = 0;
	s->norder = 0;
	s->round++;
	e->round = s->round;
	return 0;
}

static int
do_stance(struct combat_state *s, struct combat_event *e, struct rng *r,
    char *why, size_t whysz)
{
	int i;

	(void)r;
	if ((i = present(s, e->actor, "the combatant", why, whysz)) < 0)
		return -1;
	if (s->init_done) {
		snprintf(why, whysz, "a Defensive Stance is taken before "
		    "initiative");
		return -1;
	}
	if (s->f[i].stance) {
		util_say(why, whysz, "'%s' is already in a Defensive Stance",
		    e->actor);
		return -1;
	}
	s->f[i].stance = 1;
	s->f[i].acted = 1;
	return 0;
}

static int
do_pass(struct combat_state *s, struct combat_event *e, struct rng *r,
    char *why, size_t whysz)
{
	int i;

	(void)r;
	if ((i = may_act(s, e, why, whysz)) < 0)
		return -1;
	/* Doing nothing keeps whoever takes blows for him. */
	took_action(s, i, -1, 1);
	s->f[i].intimidated = 0;
	return 0;
}

/* An undo is the ledger's business: here the combat is only there. */
static int
do_undo(struct combat_state *s, struct combat_event *e, struct rng *r,
    char *why, size_t whysz)
{
	(void)s;
	(void)e;
	(void)r;
	(void)why;
	(void)whysz;
	return 0;
}

static int
do_end(struct combat_state *s, struct combat_event *e, struct rng *r,
    char *why, size_t whysz)
{
	(void)r;
	if (!e->agreed && combat_standing(s) > 1) {
		snprintf(why, whysz, "%d combatants are still standing: end "
		    "--agreed if all of them agree", combat_standing(s));
		return -1;
	}
	s->ended = 1;
	s->agreed = e->agreed;
	s->ended_at = e->time;
	return 0;
}

/* What LIFE 0 means is the game's; the GM says who died. */
static int
do_dead(struct combat_state *s, struct combat_event *e, struct rng *r,
    char *why, size_t whysz)
{
	int i;

	(void)r;
	if ((i = combat_find(s, e->actor)) < 0) {
		util_say(why, whysz, "'%s' is not in this combat", e->actor ?
		    e->actor : "");
		return -1;
	}
	if (s->f[i].life != 0) {
		util_say(why, whysz, "'%s' is not down (LIFE %d): only a "
		    "combatant at LIFE 0 can have died", e->actor,
		    s->f[i].life);
		return -1;
	}
	if (s->f[i].dead) {
		util_say(why, whysz, "'%s' is already dead", e->actor);
		return -1;
	}
	s->f[i].dead = 1;
	return 0;
}

/*
 * A GM's ruling on a fighter's LIFE and EM (issue #39): each within 0 and
 * the sheet's value, which a ruling restores and never raises; never on
 * one who fled or died (undo the death instead).
 */
static int
adjust_one(const struct combat_fighter *f, const struct ruling_change *c,
    int *life, int *em, char *why, size_t whysz)
{
	int em_c = strcmp(c->name, "EM") == 0;
	int max = em_c ? f->st.em : f->st.life;
	long v = ruling_apply(c, em_c ? *em : *life);

	if (em_c && f->st.em < 0)
		return util_say(why, whysz, "'%s' has no EM to adjust",
		    f->name), -1;
	if (v < 0 || v > max)
		return util_say(why, whysz, "%s would be %ld: '%s' has %s 0 "
		    "to %d (the sheet's)", c->name, v, f->name, c->name, max),
		    -1;
	*(em_c ? em : life) = (int)v;
	return 0;
}

static int
do_adjust(struct combat_state *s, struct combat_event *e, struct rng *r,
    char *why, size_t whysz)
{
	struct ruling_change c[RULING_CHANGES_MAX];
	struct combat_fighter *f;
	int i, n, life, em;

	(void)r;
	if (e->ruling == NULL || e->adjust == NULL) {
		snprintf(why, whysz, "an adjust needs its changes and a "
		    "reason");
		return -1;
	}
	if ((i = combat_find(s, e->actor)) < 0)
		return util_say(why, whysz, "'%s' is not in this combat",
		    e->actor ? e->actor : ""), -1;
	f = &s->f[i];
	if (f->fled || f->dead)
		return util_say(why, whysz, "'%s' has %s: a ruling adjusts "
		    "only a fighter still in the combat", f->name, f->fled ?
		    "fled" : "died"), -1;
	if ((n = ruling_changes_parse(e->adjust, combat_adjust_names, c, why,
	    whysz)) < 0)
		return -1;
	life = f->life;
	em = f->em;
	for (int k = 0; k < n; k++)
		if (adjust_one(f, &c[k], &life, &em, why, whysz) != 0)
			return -1;
	if (life == f->life && em == f->em)
		return util_say(why, whysz, "the ruling changes nothing: '%s' "
		    "has LIFE %d already", f->name, f->life), -1;
	e->life_before = f->life;
	e->life_after = f->life = life;
	e->em_before = f->st.em < 0 ? -1 : f->em;
	e->em_after = f->st.em < 0 ? -1 : (f->em = em);
	return 0;
}

typedef int action_fn(struct combat_state *, struct combat_event *,
    struct rng *, char *, size_t);

/* What each action does to the state. */
static action_fn *const actions[COMBAT_ACTION_COUNT] = {
	[COMBAT_START] = do_start,
	[COMBAT_JOIN] = do_join,
	[COMBAT_ROUND] = do_round,
	[COMBAT_STANCE] = do_stance,
	[COMBAT_INITIATIVE] = do_initiative,
	[COMBAT_ATTACK] = do_strike,
	[COMBAT_MENTAL] = do_strike,
	[COMBAT_PASS] = do_pass,
	[COMBAT_UNDO] = do_undo,
	[COMBAT_END] = do_end,
	[COMBAT_DEAD] = do_dead,
	[COMBAT_RANGE] = do_range,
	[COMBAT_FLEE] = do_flee,
	[COMBAT_CHARGE] = do_charge,
	[COMBAT_BLOW] = do_blow,
	[COMBAT_POWER] = do_strike,
	[COMBAT_SWAP] = do_swap,
	[COMBAT_ADJUST] = do_adjust,
};

static int
execute(struct combat_state *s, struct combat_event *e, char *why,
    size_t whysz)
{
	struct rng r;

	rng_seed(&r, e->seed);
	if (s->ended && e->action != COMBAT_UNDO && e->action != COMBAT_DEAD &&
	    e->action != COMBAT_FLEE) {
		snprintf(why, whysz, "this combat has ended");
		return -1;
	}
	e->round = s->round;
	/* The free actions a Charge offers last until something else. */
	if (!e->free)
		for (int i = 0; i < s->n; i++)
			s->f[i].free_offer = -1;
	if (e->action < 0 || e->action >= COMBAT_ACTION_COUNT) {
		snprintf(why, whysz, "unknown action");
		return -1;
	}
	return actions[e->action](s, e, &r, why, whysz);
}

int
combat_execute(struct combat_state *s, struct combat_event *e, char *why,
    size_t whysz)
{
	int keep = s->last_actor, rc;

	/* Only the event right after a strike may share its offence. */
	if (!e->shares)
		s->last_actor = -1;
	if ((rc = execute(s, e, why, whysz)) != 0)
		s->last_actor = keep;
	return rc;
}
