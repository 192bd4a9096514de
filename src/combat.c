/*
 * combat.c - the CRS combat engine; see combat.h.
 */
#include "combat.h"

#include "rng.h"
#include "sheet.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const action_names[CB_ACTION_COUNT] = {
	"start", "join", "round", "stance", "initiative", "attack", "mental",
	"pass", "undo", "end", "dead"
};

static const char *const kind_names[] = {
	"attack", "suggestion", "intimidation", "coercion"
};

const char *
cb_action_name(int a)
{
	return a >= 0 && a < CB_ACTION_COUNT ? action_names[a] : "?";
}

int
cb_action_lookup(const char *name)
{
	for (int a = 0; a < CB_ACTION_COUNT; a++)
		if (strcmp(name, action_names[a]) == 0)
			return a;
	return -1;
}

const char *
cb_kind_name(int k)
{
	return k >= 0 && k <= CB_COERCION ? kind_names[k] : "?";
}

int
cb_kind_lookup(const char *name)
{
	for (int k = 0; k <= CB_COERCION; k++)
		if (util_streq_ci(name, kind_names[k]))
			return k;
	return -1;
}

void
cb_state_init(struct cb_state *s)
{
	memset(s, 0, sizeof *s);
	s->round = 1;
	s->last_actor = -1;
}

void
cb_state_release(struct cb_state *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->f[i].name);
	cb_state_init(s);
}

void
cb_event_init(struct cb_event *e)
{
	memset(e, 0, sizeof *e);
	e->special = -1;
	e->defense = -1;
	e->life_before = e->life_after = -1;
	e->stats.or_ = e->stats.dr = e->stats.mind = e->stats.life = -1;
	e->stats.in = e->stats.em = e->stats.lb = -1;
}

void
cb_event_release(struct cb_event *e)
{
	free(e->actor);
	free(e->target);
	free(e->cards);
	free(e->vs_cards);
	free(e->gm);
	for (int i = 0; i < e->ninit; i++) {
		free(e->init[i].name);
		free(e->init[i].cards);
		free(e->init[i].ties);
		free(e->init[i].ties_virt);
	}
	free(e->init);
	cb_event_init(e);
}

int
cb_find(const struct cb_state *s, const char *name)
{
	if (name == NULL)
		return -1;
	for (int i = 0; i < s->n; i++)
		if (strcmp(s->f[i].name, name) == 0)
			return i;
	return -1;
}

int
cb_dr_now(const struct cb_fighter *f)
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
cb_next(const struct cb_state *s)
{
	if (!s->init_done || s->ended)
		return -1;
	for (int i = 0; i < s->norder; i++) {
		const struct cb_fighter *f = &s->f[s->order[i]];

		if (!f->acted && f->life != 0)
			return s->order[i];
	}
	return -1;
}

int
cb_standing(const struct cb_state *s)
{
	int n = 0;

	for (int i = 0; i < s->n; i++)
		if (s->f[i].presence == CB_ACTIVE && s->f[i].life != 0)
			n++;
	return n;
}

char *
cb_faces(const struct deck_pick *p)
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

/*
 * One pick for a side: typed cards (and special card) when virt is 0,
 * else drawn from the generator.  On success, *cards holds what was drawn.
 */
static int
side_pick(struct deck *d, int kind, struct rng *r, int virt, char **cards,
    int special, struct deck_pick *p, const char *who, char *why,
    size_t whysz)
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
	if (deck_pick(d, kind, 1, &src, p, reason, sizeof reason) != 0) {
		snprintf(why, whysz, "%s: %s", who, reason);
		return -1;
	}
	free(*cards);
	*cards = cb_faces(p);
	return 0;
}

/* Checks that name is in the combat and can be acted on; returns index. */
static int
present(const struct cb_state *s, const char *name, const char *role,
    char *why, size_t whysz)
{
	int i = cb_find(s, name);

	if (i < 0) {
		snprintf(why, whysz, "'%s' is not in this combat", name ?
		    name : "");
		return -1;
	}
	if (s->f[i].presence == CB_PENDING) {
		snprintf(why, whysz, "'%s' joins at the start of the next "
		    "round", name);
		return -1;
	}
	if (s->f[i].life == 0) {
		snprintf(why, whysz, "%s '%s' is down (LIFE 0)", role, name);
		return -1;
	}
	return i;
}

/* Checks that the actor may act now: its turn, not yet acted. */
static int
may_act(const struct cb_state *s, const char *name, char *why,
    size_t whysz)
{
	int i = present(s, name, "the actor", why, whysz), next;

	if (i < 0)
		return -1;
	if (s->f[i].stance) {
		snprintf(why, whysz, "'%s' is in a Defensive Stance and takes "
		    "no action this round", name);
		return -1;
	}
	if (!s->init_done) {
		snprintf(why, whysz, "no initiative yet this round (init)");
		return -1;
	}
	if (s->f[i].acted) {
		snprintf(why, whysz, "'%s' has already acted this round", name);
		return -1;
	}
	if (s->f[i].init_pos == 0) {
		snprintf(why, whysz, "'%s' drew no initiative this round",
		    name);
		return -1;
	}
	if ((next = cb_next(s)) != i) {
		snprintf(why, whysz, "'%s' acts before '%s' in the initiative "
		    "order: '%s' acts or passes first", s->f[next].name, name,
		    s->f[next].name);
		return -1;
	}
	return i;
}

static int
do_join(struct cb_state *s, struct cb_event *e, char *why, size_t whysz)
{
	struct cb_fighter *f;

	if (cb_find(s, e->actor) >= 0) {
		snprintf(why, whysz, "'%s' is already in this combat",
		    e->actor);
		return -1;
	}
	if (s->n == CB_FIGHTERS_MAX) {
		snprintf(why, whysz, "a combat holds at most %d combatants",
		    CB_FIGHTERS_MAX);
		return -1;
	}
	if (e->stats.life < 0) {
		snprintf(why, whysz, "'%s' has no LIFE", e->actor);
		return -1;
	}
	f = &s->f[s->n++];
	memset(f, 0, sizeof *f);
	f->name = xstrdup(e->actor);
	f->st = e->stats;
	/* Before initiative a round's combatants are still being named. */
	f->presence = s->init_done ? CB_PENDING : CB_ACTIVE;
	f->life = f->st.life;
	f->em = f->st.em;
	deck_init(&f->deck, f->st.lb < 0 ? 0 : f->st.lb);
	return 0;
}

/* The initiative entry for name in e, creating a virtual one. */
static struct cb_init *
init_entry(struct cb_event *e, const char *name)
{
	struct cb_init *it;

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
tie_pick(struct cb_fighter *f, struct cb_init *it, int k,
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

static int
do_initiative(struct cb_state *s, struct cb_event *e, struct rng *r,
    char *why, size_t whysz)
{
	int who[CB_FIGHTERS_MAX], n = 0, rc = -1;
	int key[CB_FIGHTERS_MAX][32], klen[CB_FIGHTERS_MAX];
	char *typed[CB_FIGHTERS_MAX], *typed_virt[CB_FIGHTERS_MAX];
	struct cb_state save;

	if (s->init_done) {
		snprintf(why, whysz, "initiative is already drawn this round");
		return -1;
	}
	for (int i = 0; i < e->ninit; i++) {
		int j = cb_find(s, e->init[i].name);

		if (j < 0 || s->f[j].presence != CB_ACTIVE ||
		    s->f[j].life == 0 || s->f[j].stance) {
			snprintf(why, whysz, "'%s' draws no initiative this "
			    "round (%s)", e->init[i].name, j < 0 ? "not in "
			    "this combat" : s->f[j].presence != CB_ACTIVE ?
			    "joins next round" : s->f[j].life == 0 ? "down" :
			    "in a Defensive Stance");
			return -1;
		}
	}
	save = *s;
	for (int i = 0; i < s->n; i++) {
		struct cb_fighter *f = &s->f[i];
		struct cb_init *it;
		struct deck_pick p;
		char label[240];

		if (f->presence != CB_ACTIVE || f->life == 0 || f->stance)
			continue;
		it = init_entry(e, f->name);
		snprintf(label, sizeof label, "'%s' initiative", f->name);
		/* The typed tie-breaks are read from here on, and rebuilt. */
		typed[n] = it->ties;
		typed_virt[n] = it->ties_virt;
		it->ties = it->ties_virt = NULL;
		who[n] = i;
		klen[n] = 1;
		n++;
		if (side_pick(&f->deck, DECK_INITIATIVE, r, it->virt,
		    &it->cards, 0, &p, label, why, whysz) != 0)
			goto out;
		it->in = f->st.in < 0 ? 0 : f->st.in;
		it->total = deck_total(&p, it->in);
		key[n - 1][0] = it->total;
	}
	if (n == 0) {
		snprintf(why, whysz, "nobody can draw initiative this round");
		goto out;
	}
	/*
	 * Break ties: everyone whose key equals another's draws one more
	 * single pick, without IN, until all keys differ.
	 */
	for (int pass = 0; pass < 31; pass++) {
		int tied[CB_FIGHTERS_MAX], any = 0;

		for (int a = 0; a < n; a++) {
			tied[a] = 0;
			for (int b = 0; b < n; b++)
				if (a != b && klen[a] == klen[b] &&
				    memcmp(key[a], key[b], sizeof(int) *
				    (size_t)klen[a]) == 0)
					tied[a] = 1;
			any |= tied[a];
		}
		if (!any)
			break;
		for (int a = 0; a < n; a++) {
			if (!tied[a])
				continue;
			if (tie_pick(&s->f[who[a]], init_entry(e,
			    s->f[who[a]].name), klen[a] - 1, typed[a],
			    typed_virt[a], r, &key[a][klen[a]], why,
			    whysz) != 0)
				goto out;
			klen[a]++;
		}
	}
	/* Order: the highest key first, compared pick by pick. */
	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++) {
			int swap = 0, tw, tl, tk[32];

			for (int k = 0; k < klen[a] && k < klen[b]; k++)
				if (key[a][k] != key[b][k]) {
					swap = key[b][k] > key[a][k];
					break;
				}
			if (!swap)
				continue;
			tw = who[a];
			tl = klen[a];
			memcpy(tk, key[a], sizeof tk);
			who[a] = who[b];
			klen[a] = klen[b];
			memcpy(key[a], key[b], sizeof key[a]);
			who[b] = tw;
			klen[b] = tl;
			memcpy(key[b], tk, sizeof tk);
		}
	s->norder = n;
	for (int a = 0; a < n; a++) {
		s->order[a] = who[a];
		s->f[who[a]].init_total = key[a][0];
		s->f[who[a]].init_pos = a + 1;
		init_entry(e, s->f[who[a]].name)->pos = a + 1;
	}
	s->init_done = 1;
	rc = 0;
out:
	for (int a = 0; a < n; a++) {
		free(typed[a]);
		free(typed_virt[a]);
	}
	if (rc != 0)
		*s = save;
	return rc;
}

/* The defence of an attack or a mental action, unless the offence is 0. */
static int
defend(struct cb_state *s, struct cb_event *e, int t, int kind_mental,
    struct rng *r, char *why, size_t whysz)
{
	struct cb_fighter *f = &s->f[t];
	struct deck_pick q;
	int stat = kind_mental ? f->st.mind : cb_dr_now(f);

	if (e->offense == 0) {
		/* An offence of 0 misses: nobody draws against it. */
		if (!e->vs_virt && e->vs_cards && *e->vs_cards) {
			snprintf(why, whysz, "no defence is drawn against an "
			    "offence of 0");
			return -1;
		}
		free(e->vs_cards);
		e->vs_cards = NULL;
		e->defense = -1;
		e->special = -1;
		e->vs_fumble = 0;
		return 0;
	}
	if (stat < 0) {
		snprintf(why, whysz, "'%s' has no %s", f->name, kind_mental ?
		    "MIND" : "DR");
		return -1;
	}
	e->vs_base = sheet_calc_base(stat + e->vs_mod, kind_mental ?
	    SHEET_MENTAL : SHEET_SHORT, f->st.mod_defense, f->st.mod_pick);
	if (side_pick(&f->deck, DECK_DEFENSE, r, e->vs_virt, &e->vs_cards,
	    e->special, &q, "the defence", why, whysz) != 0)
		return -1;
	e->special = q.special;
	e->vs_fumble = q.fumble;
	e->defense = deck_total(&q, e->vs_base);
	return 0;
}

static int
do_strike(struct cb_state *s, struct cb_event *e, struct rng *r, char *why,
    size_t whysz)
{
	int mental = e->action == CB_MENTAL;
	int a, t, avail, penalty = 0;
	struct cb_fighter *fa, *ft;
	struct deck_pick p;
	struct cb_state save = *s;
	const char *statname;

	if (e->shares) {
		/* A further target of the Intimidation just made. */
		a = cb_find(s, e->actor);
		if (!mental || e->kind != CB_INTIMIDATION || a < 0 ||
		    s->last_actor != a || s->last_kind != CB_INTIMIDATION) {
			snprintf(why, whysz, "only an Intimidation has several "
			    "targets, and they follow it at once");
			return -1;
		}
	} else if ((a = may_act(s, e->actor, why, whysz)) < 0)
		return -1;
	if ((t = present(s, e->target, "the target", why, whysz)) < 0)
		return -1;
	if (a == t) {
		snprintf(why, whysz, "'%s' cannot target himself", e->actor);
		return -1;
	}
	fa = &s->f[a];
	ft = &s->f[t];
	if (fa->intimidated) {
		snprintf(why, whysz, "'%s' was intimidated and must pass this "
		    "action", e->actor);
		return -1;
	}
	if (mental) {
		if (ft->st.mind <= 0) {
			snprintf(why, whysz, "'%s' has %s: no mental action "
			    "may target him", e->target, ft->st.mind == 0 ?
			    "a MIND of 0" : "no MIND");
			return -1;
		}
		avail = fa->st.mind;
		statname = "MIND";
		penalty = e->kind == CB_INTIMIDATION ? 5 :
		    e->kind == CB_COERCION ? 10 : 0;
	} else {
		avail = e->range == CB_LONG ? cb_dr_now(fa) : fa->st.or_;
		statname = e->range == CB_LONG ? "DR" : "OR";
	}
	if (avail < 0) {
		snprintf(why, whysz, "'%s' has no %s", e->actor, statname);
		return -1;
	}
	if (e->use > avail) {
		snprintf(why, whysz, "'%s' has only %d %s to put in, not %d",
		    e->actor, avail, statname, e->use);
		return -1;
	}
	if (e->use < 0) {
		snprintf(why, whysz, "at least 1 %s must be put in", statname);
		return -1;
	}
	if (e->shares) {
		/* The offence was drawn once, for every target. */
		if (e->cards && *e->cards && !e->virt) {
			snprintf(why, whysz, "a further target shares the "
			    "offence: no cards of its own");
			return -1;
		}
		e->base = s->last_base;
		e->offense = s->last_offense;
		e->fumble = 0;
		e->virt = 0;
		free(e->cards);
		e->cards = NULL;
	} else {
		e->base = sheet_calc_base((e->use > 0 ? e->use : avail) -
		    penalty + e->mod, mental ? SHEET_MENTAL : SHEET_SHORT,
		    fa->st.mod_offense, fa->st.mod_pick);
		if (side_pick(&fa->deck, DECK_OFFENSE, r, e->virt, &e->cards,
		    0, &p, "the offence", why, whysz) != 0) {
			*s = save;
			return -1;
		}
		e->fumble = p.fumble;
		e->offense = deck_total(&p, e->base);
	}
	if (defend(s, e, t, mental, r, why, whysz) != 0) {
		*s = save;
		return -1;
	}
	e->hit = e->defense >= 0 && e->offense > e->defense;
	e->damage = e->hit && (!mental || e->kind == CB_KIND_ATTACK) ?
	    e->offense - e->defense : 0;
	e->life_before = ft->life;
	ft->life = ft->life > e->damage ? ft->life - e->damage : 0;
	e->life_after = ft->life;
	if (mental && e->kind == CB_INTIMIDATION && e->hit)
		ft->intimidated = 1;
	if (!mental && e->range == CB_LONG)
		fa->halvings++;
	fa->acted = 1;
	s->last_actor = a;
	s->last_kind = mental ? e->kind : -1;
	s->last_base = e->base;
	s->last_offense = e->offense;
	return 0;
}

static int execute(struct cb_state *, struct cb_event *, char *, size_t);

int
cb_execute(struct cb_state *s, struct cb_event *e, char *why, size_t whysz)
{
	int keep = s->last_actor, rc;

	/* Only the event right after a strike may share its offence. */
	if (!e->shares)
		s->last_actor = -1;
	if ((rc = execute(s, e, why, whysz)) != 0)
		s->last_actor = keep;
	return rc;
}

static int
execute(struct cb_state *s, struct cb_event *e, char *why, size_t whysz)
{
	struct rng r;
	int i;

	rng_seed(&r, e->seed);
	if (s->ended && e->action != CB_UNDO && e->action != CB_DEAD) {
		snprintf(why, whysz, "this combat has ended");
		return -1;
	}
	e->round = s->round;
	switch (e->action) {
	case CB_START:
		s->started = e->time;
		return 0;
	case CB_JOIN:
		return do_join(s, e, why, whysz);
	case CB_ROUND:
		/* Clean Up: cards back, stances and DR reset, then the next
		 * round, which newcomers enter. */
		for (i = 0; i < s->n; i++) {
			struct cb_fighter *f = &s->f[i];

			deck_clean_up(&f->deck);
			f->stance = f->halvings = f->acted = 0;
			f->init_total = f->init_pos = 0;
			f->presence = CB_ACTIVE;
		}
		s->init_done = 0;
		s->norder = 0;
		s->round++;
		e->round = s->round;
		return 0;
	case CB_STANCE:
		if ((i = present(s, e->actor, "the combatant", why, whysz)) < 0)
			return -1;
		if (s->init_done) {
			snprintf(why, whysz, "a Defensive Stance is taken "
			    "before initiative");
			return -1;
		}
		if (s->f[i].stance) {
			snprintf(why, whysz, "'%s' is already in a Defensive "
			    "Stance", e->actor);
			return -1;
		}
		s->f[i].stance = 1;
		s->f[i].acted = 1;
		return 0;
	case CB_INITIATIVE:
		return do_initiative(s, e, &r, why, whysz);
	case CB_ATTACK:
	case CB_MENTAL:
		return do_strike(s, e, &r, why, whysz);
	case CB_PASS:
		if ((i = may_act(s, e->actor, why, whysz)) < 0)
			return -1;
		s->f[i].acted = 1;
		s->f[i].intimidated = 0;
		return 0;
	case CB_UNDO:
		return 0;
	case CB_END:
		if (!e->agreed && cb_standing(s) > 1) {
			snprintf(why, whysz, "%d combatants are still standing: "
			    "end --agreed if all of them agree",
			    cb_standing(s));
			return -1;
		}
		s->ended = 1;
		s->agreed = e->agreed;
		s->ended_at = e->time;
		return 0;
	case CB_DEAD:
		/* What LIFE 0 means is the game's; the GM says who died. */
		if ((i = cb_find(s, e->actor)) < 0) {
			snprintf(why, whysz, "'%s' is not in this combat",
			    e->actor ? e->actor : "");
			return -1;
		}
		if (s->f[i].life != 0) {
			snprintf(why, whysz, "'%s' is not down (LIFE %d): only "
			    "a combatant at LIFE 0 can have died", e->actor,
			    s->f[i].life);
			return -1;
		}
		if (s->f[i].dead) {
			snprintf(why, whysz, "'%s' is already dead", e->actor);
			return -1;
		}
		s->f[i].dead = 1;
		return 0;
	}
	snprintf(why, whysz, "unknown action");
	return -1;
}
