/*
 * report.c - the organiser's report's figures (see report.h): each
 * combat replayed once, in memory, for its story and its sums, and the
 * matchups' odds from the odds engine.  No I/O but the story's text,
 * which crs/text.c writes into memory.
 */
#include "crs/report.h"

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crs/text.h"
#include "crs/deck.h"
#include "crs/odds.h"
#include "base/strbuf.h"
#include "base/util.h"

/* How many empty hours between two busy ones the chart still shows. */
#define HOURS_SPAN_MAX	48

void
report_init(struct report *r, int64_t since, int64_t now)
{
	memset(r, 0, sizeof *r);
	r->since = since;
	r->now = now;
}

static void
combat_release(struct report_combat *c)
{
	free(c->rules);
	for (int i = 0; i < c->nfighters; i++)
		free(c->fighters[i]);
	free(c->fighters);
	for (size_t i = 0; i < c->nstory; i++)
		free(c->story[i].text);
	free(c->story);
}

static void
matchup_release(struct report_matchup *m)
{
	free(m->attacker);
	free(m->target);
}

void
report_release(struct report *r)
{
	for (size_t i = 0; i < r->nchars; i++)
		free(r->chars[i].name);
	free(r->chars);
	for (size_t i = 0; i < r->ncombats; i++)
		combat_release(&r->combats[i]);
	free(r->combats);
	free(r->hours);
	for (size_t i = 0; i < r->nmatchups; i++)
		matchup_release(&r->matchups[i]);
	free(r->matchups);
	for (size_t i = 0; i < r->nidle; i++)
		combat_release(&r->idle[i]);
	free(r->idle);
	for (size_t i = 0; i < r->ngms; i++)
		free(r->gms[i].gm);
	free(r->gms);
	memset(r, 0, sizeof *r);
}

void
report_add_char(struct report *r, const struct ledger_history *h)
{
	struct report_char *c;

	r->chars = xreallocarray(r->chars, r->nchars + 1, sizeof *r->chars);
	c = &r->chars[r->nchars++];
	c->name = xstrdup(h->name);
	c->combats = h->combats;
	c->dealt = h->dealt;
	c->taken = h->taken;
	c->downed = h->downed;
	c->fumbles = h->fumbles;
}

/* What one replay carries from event to event. */
struct replay {
	struct report		*r;
	struct report_combat	*c;
	const struct ledger	*l;
};

/* The event's line of the story, as crs-combat log prints it. */
static void
story_line(struct replay *rp, const struct combat_state *s, size_t i)
{
	struct report_combat *c = rp->c;
	const struct combat_event *e = &rp->l->ev[i];
	struct strbuf b = STRBUF_INIT;
	FILE *fp = strbuf_stream(&b);
	char *text;
	size_t len;

	if (rp->l->undone[i])
		crstext_undone(fp, e);
	else
		crstext_story(fp, s, e);
	text = strbuf_detach(&b, &len);
	while (len > 0 && text[len - 1] == '\n')
		text[--len] = '\0';
	c->story = xreallocarray(c->story, c->nstory + 1, sizeof *c->story);
	c->story[c->nstory].seq = e->seq;
	c->story[c->nstory++].text = text;
}

static int
fighter_lb(const struct combat_state *s, const char *name)
{
	int f = combat_find(s, name);
	int lb = f < 0 ? 0 : s->f[f].st.lb;

	return lb < 0 ? 0 : lb > DECK_LB_MAX ? DECK_LB_MAX : lb;
}

/*
 * Counts strike e in its matchup, whose bases become e's unless e drew
 * no defence (an Ace, or an offence of 0).
 */
static void
matchup_add(struct report *r, const struct combat_state *s,
    const struct combat_event *e)
{
	int mental = e->action == COMBAT_MENTAL;
	int range = mental ? COMBAT_SHORT : e->range;
	struct report_matchup *m = NULL;

	for (size_t i = 0; i < r->nmatchups && m == NULL; i++)
		if (strcmp(r->matchups[i].attacker, e->actor) == 0 &&
		    strcmp(r->matchups[i].target, e->target) == 0 &&
		    r->matchups[i].mental == mental &&
		    r->matchups[i].range == range)
			m = &r->matchups[i];
	if (m == NULL) {
		r->matchups = xreallocarray(r->matchups, r->nmatchups + 1,
		    sizeof *r->matchups);
		m = &r->matchups[r->nmatchups++];
		memset(m, 0, sizeof *m);
		m->attacker = xstrdup(e->actor);
		m->target = xstrdup(e->target);
		m->mental = mental;
		m->range = range;
	}
	/* A strike that drew no defence says nothing of the defence. */
	m->count++;
	if (e->defense < 0)
		return;
	m->known = 1;
	m->base = e->base;
	m->vs_base = e->vs_base;
	m->lb = fighter_lb(s, e->actor);
	m->vs_lb = fighter_lb(s, e->target);
}

/* A strike's share of its combat's sums, and of the matchups. */
static void
strike_sums(struct replay *rp, const struct combat_state *s,
    const struct combat_event *e)
{
	struct report_combat *c = rp->c;

	c->actions++;
	if (e->target == NULL)
		return;
	c->dealt += e->damage;
	c->downs += e->life_before > 0 && e->life_after == 0;
	c->fumbles += e->fumble + e->vs_fumble;
	if (e->actor && e->action != COMBAT_POWER)
		matchup_add(rp->r, s, e);
}

/* Counts a ruling for the GM who made it. */
static void
ruling_count(struct report *r, const struct combat_event *e)
{
	const char *gm = e->gm ? e->gm : "";
	size_t i;

	for (i = 0; i < r->ngms; i++)
		if (strcmp(r->gms[i].gm, gm) == 0)
			break;
	if (i == r->ngms) {
		r->gms = xreallocarray(r->gms, r->ngms + 1, sizeof *r->gms);
		r->gms[r->ngms].gm = xstrdup(gm);
		r->gms[r->ngms++].rulings = 0;
	}
	r->gms[i].rulings++;
}

static void
replay_hook(void *arg, const struct combat_state *s, size_t i)
{
	struct replay *rp = arg;
	const struct combat_event *e = &rp->l->ev[i];

	if (!rp->r->no_story)
		story_line(rp, s, i);
	if (rp->l->undone[i])
		return;
	rp->c->last = e->time;
	if (e->ruling)
		ruling_count(rp->r, e);
	if (e->action == COMBAT_ATTACK || e->action == COMBAT_MENTAL ||
	    e->action == COMBAT_POWER)
		strike_sums(rp, s, e);
}

/* The fighters' names, in the order they joined. */
static void
fighter_names(struct report_combat *c, const struct combat_state *s)
{
	c->fighters = xcalloc((size_t)s->n + 1, sizeof *c->fighters);
	for (int i = 0; i < s->n; i++)
		c->fighters[c->nfighters++] = xstrdup(s->f[i].name);
}

/* Appends c to the array *v of *n combats. */
static void
combat_push(struct report_combat **v, size_t *n,
    const struct report_combat *c)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = *c;
}

int
report_add_combat(struct report *r, const struct ledger *l)
{
	struct report_combat one, *c = &one;
	struct replay rp = { r, c, l };
	struct combat_state s;
	int64_t bad;
	char why[300];

	if (l->n == 0 || l->ev[0].time < r->since)
		return 0;
	memset(c, 0, sizeof *c);
	snprintf(c->key, sizeof c->key, "%s", l->key);
	c->rules = xstrdup(l->rules);
	c->started = c->last = l->ev[0].time;
	/* A combat that no longer replays shows its story up to there. */
	c->broken = ledger_derive_each(l, &s, replay_hook, &rp, &bad, why,
	    sizeof why) != 0;
	c->rounds = s.round;
	c->finished = s.ended ? s.ended_at : 0;
	fighter_names(c, &s);
	combat_state_release(&s);
	if (c->actions > 0)
		combat_push(&r->combats, &r->ncombats, c);
	else
		combat_push(&r->idle, &r->nidle, c);
	return 1;
}

/* A deep copy of c. */
static struct report_combat
combat_copy(const struct report_combat *c)
{
	struct report_combat d = *c;

	d.rules = xstrdup(c->rules);
	d.fighters = xcalloc((size_t)c->nfighters + 1, sizeof *d.fighters);
	for (int i = 0; i < c->nfighters; i++)
		d.fighters[i] = xstrdup(c->fighters[i]);
	d.story = c->nstory ? xcalloc(c->nstory, sizeof *d.story) : NULL;
	for (size_t i = 0; i < c->nstory; i++) {
		d.story[i].seq = c->story[i].seq;
		d.story[i].text = xstrdup(c->story[i].text);
	}
	return d;
}

void
report_merge(struct report *r, const struct report *one)
{
	for (size_t i = 0; i < one->ncombats; i++) {
		struct report_combat c = combat_copy(&one->combats[i]);

		combat_push(&r->combats, &r->ncombats, &c);
	}
	for (size_t i = 0; i < one->nidle; i++) {
		struct report_combat c = combat_copy(&one->idle[i]);

		combat_push(&r->idle, &r->nidle, &c);
	}
	for (size_t i = 0; i < one->nmatchups; i++) {
		const struct report_matchup *x = &one->matchups[i];
		struct report_matchup *m = NULL;

		for (size_t j = 0; j < r->nmatchups && m == NULL; j++)
			if (strcmp(r->matchups[j].attacker, x->attacker) == 0 &&
			    strcmp(r->matchups[j].target, x->target) == 0 &&
			    r->matchups[j].mental == x->mental &&
			    r->matchups[j].range == x->range)
				m = &r->matchups[j];
		if (m == NULL) {
			r->matchups = xreallocarray(r->matchups,
			    r->nmatchups + 1, sizeof *r->matchups);
			m = &r->matchups[r->nmatchups++];
			*m = *x;
			m->attacker = xstrdup(x->attacker);
			m->target = xstrdup(x->target);
			continue;
		}
		m->count += x->count;
		if (x->known) {
			m->known = 1;
			m->base = x->base;
			m->vs_base = x->vs_base;
			m->lb = x->lb;
			m->vs_lb = x->vs_lb;
		}
	}
	for (size_t i = 0; i < one->ngms; i++) {
		size_t j;

		for (j = 0; j < r->ngms; j++)
			if (strcmp(r->gms[j].gm, one->gms[i].gm) == 0)
				break;
		if (j == r->ngms) {
			r->gms = xreallocarray(r->gms, r->ngms + 1,
			    sizeof *r->gms);
			r->gms[r->ngms].gm = xstrdup(one->gms[i].gm);
			r->gms[r->ngms++].rulings = 0;
		}
		r->gms[j].rulings += one->gms[i].rulings;
	}
}

static int
hour_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The combats per hour: every hour from the first busy one to the last. */
static void
count_hours(struct report *r)
{
	int64_t *h = xcalloc(r->ncombats + 1, sizeof *h);
	int64_t span;

	for (size_t i = 0; i < r->ncombats; i++)
		h[i] = r->combats[i].started - r->combats[i].started % 3600;
	qsort(h, r->ncombats, sizeof *h, hour_cmp);
	span = r->ncombats ? (h[r->ncombats - 1] - h[0]) / 3600 + 1 : 0;
	for (size_t i = 0; i < r->ncombats; i++) {
		struct report_hour *last = r->nhours ?
		    &r->hours[r->nhours - 1] : NULL;

		if (last && last->hour == h[i]) {
			last->combats++;
			continue;
		}
		/* The quiet hours in between, while the chart stays short. */
		while (span <= HOURS_SPAN_MAX && last && last->hour + 3600 <
		    h[i]) {
			r->hours = xreallocarray(r->hours, r->nhours + 1,
			    sizeof *r->hours);
			r->hours[r->nhours] = (struct report_hour){
			    r->hours[r->nhours - 1].hour + 3600, 0 };
			last = &r->hours[r->nhours++];
		}
		r->hours = xreallocarray(r->hours, r->nhours + 1,
		    sizeof *r->hours);
		r->hours[r->nhours++] = (struct report_hour){ h[i], 1 };
	}
	free(h);
}

/* The most frequent first; ties by name, so that the order is fixed. */
static int
matchup_cmp(const void *a, const void *b)
{
	const struct report_matchup *x = a, *y = b;
	int c;

	if (x->count != y->count)
		return y->count - x->count;
	if ((c = strcmp(x->attacker, y->attacker)) != 0 ||
	    (c = strcmp(x->target, y->target)) != 0)
		return c;
	if (x->mental != y->mental)
		return x->mental - y->mental;
	return x->range - y->range;
}

/* P(hit) of one more strike of m: one card from each full deck. */
static void
matchup_odds(struct report_matchup *m)
{
	struct deck da, dd;
	struct odds_versus v;

	deck_init(&da, m->lb);
	deck_init(&dd, m->vs_lb);
	odds_strike(&da, m->base, &dd, m->vs_base, &v);
	m->p_hit = (double)odds_p(v.hit, v.den);
	if (odds_fraction(v.hit, v.den, m->p_exact, sizeof m->p_exact) != 0)
		m->p_exact[0] = '\0';
	odds_versus_release(&v);
}

/*
 * The idle combats out of the characters' count of combats; a row left
 * with no combat and nothing else goes.
 */
static void
uncount_idle(struct report *r)
{
	size_t k = 0;

	for (size_t i = 0; i < r->nidle; i++)
		for (int f = 0; f < r->idle[i].nfighters; f++)
			for (size_t j = 0; j < r->nchars; j++)
				if (strcmp(r->chars[j].name,
				    r->idle[i].fighters[f]) == 0 &&
				    r->chars[j].combats > 0)
					r->chars[j].combats--;
	for (size_t j = 0; j < r->nchars; j++) {
		struct report_char *ch = &r->chars[j];

		if (ch->combats == 0 && ch->dealt == 0 && ch->taken == 0 &&
		    ch->downed == 0 && ch->fumbles == 0) {
			free(ch->name);
			continue;
		}
		r->chars[k++] = *ch;
	}
	r->nchars = k;
}

static int
gm_cmp(const void *a, const void *b)
{
	return strcmp(((const struct report_gm *)a)->gm,
	    ((const struct report_gm *)b)->gm);
}

void
report_finish(struct report *r)
{
	uncount_idle(r);
	count_hours(r);
	if (r->ngms > 0)
		qsort(r->gms, r->ngms, sizeof *r->gms, gm_cmp);
	/* qsort wants an array, even of nothing. */
	if (r->nmatchups > 0)
		qsort(r->matchups, r->nmatchups, sizeof *r->matchups,
		    matchup_cmp);
	while (r->nmatchups > REPORT_MATCHUPS_MAX)
		matchup_release(&r->matchups[--r->nmatchups]);
	for (size_t i = 0; i < r->nmatchups; i++)
		if (r->matchups[i].known)
			matchup_odds(&r->matchups[i]);
}

int64_t
report_duration(const struct report_combat *c)
{
	return (c->finished ? c->finished : c->last) - c->started;
}

const char *
report_kind(const struct report_matchup *m)
{
	if (m->mental)
		return "mental";
	return m->range == COMBAT_LONG ? "long range" : "short range";
}
