/*
 * crs/text.c - the story of a combat, an event a sentence; see
 * crs/text.h.  Each action kind has its story function in one table.
 * The state each function reads is the one just before its event, as the
 * one replay that derives the combat passes it: nothing here executes an
 * event.
 */
#include "crs/text.h"

#include "crs/item.h"
#include "crs/sheet.h"
#include "crs/stats.h"

#include "core/ruling.h"
#include "base/fit.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "base/when.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Text of a calculation: "8 + OR 8 = 16", "10,A: fumble, 0". */
static void
calc_text(FILE *fp, const char *cards, int fumble, int total, int base,
    const char *stat, int statval, int penalty)
{
	int mods = base - statval + penalty;
	int pick = total - base;

	if (fumble) {
		fprintf(fp, "%s: an Ace, 0", cards ? cards : "");
		return;
	}
	if (cards == NULL || *cards == '\0' || total == 0) {
		fprintf(fp, "%s%s0", cards && *cards ? cards : "no card",
		    cards && *cards ? ": " : " left: ");
		return;
	}
	fprintf(fp, "%d", pick);
	if (strchr(cards, ','))
		fprintf(fp, " (%s)", cards);
	fprintf(fp, " + %s %d", stat, statval);
	if (penalty)
		fprintf(fp, " - %d", penalty);
	if (mods)
		fprintf(fp, " %c %d", mods < 0 ? '-' : '+', abs(mods));
	fprintf(fp, " = %d", total);
}

/* The item and skills of one side, after its calculation. */
static void
note(FILE *fp, const char *item, const char *skills, int rules)
{
	if (item == NULL && skills == NULL)
		return;
	fprintf(fp, " (");
	if (item)
		fprintf(fp, "%s %s", rules == COMBAT_RULES_AVATAR ? "reveals" :
		    "with", item);
	if (skills) {
		fprintf(fp, "%sskills ", item ? "; " : "");
		for (const char *p = skills; *p; p++)
			if (*p == ';')
				fputs(", ", fp);
			else
				putc(*p, fp);
	}
	fprintf(fp, ")");
}

/* The entries of e's list in their order: "A 9 + 3 = 12, B ...". */
static void
entries_text(FILE *fp, const struct combat_event *e, const char *first,
    int in_word)
{
	for (int pos = 1; pos <= e->ninit; pos++)
		for (int i = 0; i < e->ninit; i++) {
			const struct combat_init *x = &e->init[i];

			if (x->pos != pos)
				continue;
			fprintf(fp, "%s %s %s + %s%d = %d", pos > 1 ? "," :
			    first, x->name, x->cards, in_word ? "IN " : "",
			    x->in, x->total);
			if (in_word && x->ties)
				fprintf(fp, " (tie-break %s)", x->ties);
		}
}

typedef void story_fn(FILE *, const struct combat_state *,
    const struct combat_event *);

static void
story_start(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	(void)s;
	(void)e;
	fprintf(fp, "the combat starts");
}

/* ", NAME v", or ", NAME -" for a stat the character has none of. */
static void
stat_text(FILE *fp, const char *name, int v)
{
	if (v == STATS_ABSENT)
		fprintf(fp, ", %s -", name);
	else
		fprintf(fp, ", %s %d", name, v);
}

static void
story_join(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	fprintf(fp, "%s joins: LIFE %d", e->actor, e->stats.life);
	if (e->stats.em >= 0)
		fprintf(fp, ", EM %d", e->stats.em);
	stat_text(fp, "OR", e->stats.or_);
	stat_text(fp, "DR", e->stats.dr);
	stat_text(fp, "MIND", e->stats.mind);
	stat_text(fp, "IN", e->stats.in);
	fprintf(fp, ", LB %d%s", e->stats.lb < 0 ? 0 : e->stats.lb,
	    s->init_done ? " (fights from the next round)" : "");
}

static void
story_round(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	(void)e;
	fprintf(fp, "Clean Up: cards back, DR restored; round %d begins",
	    s->round + 1);
}

static void
story_stance(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	(void)s;
	fprintf(fp, "%s takes a Defensive Stance", e->actor);
}

static void
story_initiative(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	(void)s;
	fprintf(fp, "initiative:");
	entries_text(fp, e, "", 1);
}

static void
story_range(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	(void)s;
	fprintf(fp, "%s and %s are %d ft apart", e->actor, e->target,
	    e->feet);
}

static void
story_blow(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	fprintf(fp, "%s takes the blows for %s%s", e->actor, e->target,
	    s->init_done ? "" : " (carried on from the last round)");
}

static void
story_swap(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	(void)s;
	fprintf(fp, "%s swaps to %s%s", e->actor, e->item.name,
	    e->free ? " (free, after the Charge)" : "");
}

/* A Charge: the new distances, and who has a free action at him. */
static void
story_charge(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	int a = combat_find(s, e->actor), any = 0;

	fprintf(fp, "%s charges", e->actor);
	for (int i = 0; i < e->ninit; i++)
		fprintf(fp, "%s %d ft from %s", i ? "," : ": now",
		    e->init[i].in, e->init[i].name);
	for (int j = 0; j < s->n; j++)
		if (j != a && s->f[j].last_long_at == a &&
		    s->f[j].presence == COMBAT_ACTIVE && s->f[j].life &&
		    !s->f[j].fled) {
			fprintf(fp, "%s %s", any ? "," : "; a free long range "
			    "action at him for", s->f[j].name);
			any = 1;
		}
	if (any && s->rules == COMBAT_RULES_AVATAR)
		fprintf(fp, " (or a free Item Swap)");
}

/* A Flee: the flee's draw against every Catch, or the free Flee. */
static void
story_flee(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	int a = combat_find(s, e->actor);
	char when[WHEN_LOCAL_SIZE];

	if (e->free) {
		when_local(when, sizeof when, e->until);
		fprintf(fp, "%s takes the free Flee at the end: out of every "
		    "combat until %s", e->actor, when);
		return;
	}
	fprintf(fp, "%s flees: ", e->actor);
	calc_text(fp, e->cards, e->fumble, e->offense, e->base, "DR",
	    a < 0 ? 0 : combat_dr_now(&s->f[a]), 0);
	note(fp, NULL, e->skills, s->rules);
	entries_text(fp, e, "; Catch:", 0);
	if (e->hit) {
		when_local(when, sizeof when, e->until);
		fprintf(fp, "; gets away: out of every combat until %s",
		    when);
	} else
		fprintf(fp, "; caught (%d > %d)", e->defense, e->offense);
}

/* The Intimidation and Coercion penalties to the offence. */
static int
strike_penalty(const struct combat_event *e)
{
	if (e->action != COMBAT_MENTAL)
		return 0;
	return e->kind == COMBAT_INTIMIDATION ? 5 :
	    e->kind == COMBAT_COERCION ? 10 : 0;
}

/* A strike's declaration: who does what to whom (the melee draw too). */
static void
strike_declared(FILE *fp, const struct combat_event *e)
{
	const char *hit;

	if (e->surprise)
		fprintf(fp, "surprise! ");
	if (e->free)
		fprintf(fp, "free action: ");
	if (e->action == COMBAT_POWER) {
		fprintf(fp, "%s uses %s on %s", e->actor, e->power.name,
		    e->target);
		if (!e->shares)
			fprintf(fp, " (%d EM: EM %d -> %d)", e->em_spent,
			    e->em_before, e->em_after);
		fprintf(fp, ": ");
		return;
	}
	if (e->action == COMBAT_MENTAL) {
		fprintf(fp, "%s uses %s on %s: ", e->actor,
		    e->kind == COMBAT_KIND_ATTACK ? "a mental attack" :
		    e->kind == COMBAT_SUGGESTION ? "Suggestion" :
		    e->kind == COMBAT_INTIMIDATION ? "Intimidation" :
		    "Coercion", e->target);
		return;
	}
	fprintf(fp, "%s %s %s", e->actor, e->range == COMBAT_LONG ?
	    "attacks at long range" : "attacks", e->aimed ? e->aimed :
	    e->target);
	if (e->melee_n)
		fprintf(fp, ", in a melee: the draw among %d %s %s",
		    e->melee_n, e->melee_pick ? "(physical) picks" : "picks",
		    e->melee_drawn ? e->melee_drawn : "?");
	hit = e->melee_drawn ? e->melee_drawn : e->aimed ? e->aimed :
	    e->target;
	if (strcmp(hit, e->target) != 0)
		fprintf(fp, ", and %s takes the blow", e->target);
	fprintf(fp, ": ");
}

/* A strike a reaction negated (step 6). */
static void
strike_negated(FILE *fp, const struct combat_event *e)
{
	fprintf(fp, "%s reacts: ", e->reactor);
	calc_text(fp, e->react_cards, e->react_fumble, e->react_total,
	    e->react_base, "base", e->react_base, 0);
	fprintf(fp, ", needs %d: the action is negated", e->react_need);
}

/* A strike's offence: shared, a power's EM, or a pick and a stat. */
static void
strike_offence(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	int a = combat_find(s, e->actor);
	int mental = e->action == COMBAT_MENTAL;
	const char *stat = mental ? "MIND" : e->range == COMBAT_LONG ? "DR" :
	    "OR";
	int avail = a < 0 ? 0 : mental ? s->f[a].st.mind :
	    e->range == COMBAT_LONG ? combat_dr_now(&s->f[a]) :
	    s->f[a].st.or_;

	if (e->shares)
		fprintf(fp, "the same %s, %d", e->action == COMBAT_POWER ?
		    "effect" : "offence", e->offense);
	else if (e->action == COMBAT_POWER && e->power.picks == 0)
		fprintf(fp, "EM %d %c %d = %d", e->em_spent, e->base -
		    e->em_spent < 0 ? '-' : '+', abs(e->base - e->em_spent),
		    e->offense);
	else if (e->action == COMBAT_POWER)
		calc_text(fp, e->cards, e->fumble, e->offense, e->base, "EM",
		    e->em_spent, 0);
	else
		calc_text(fp, e->cards, e->fumble, e->offense, e->base, stat,
		    e->use > 0 ? e->use : avail, strike_penalty(e));
	if (!e->shares)
		note(fp, e->item.name, e->skills, s->rules);
	if (e->reactor)
		fprintf(fp, " (%s's reaction, %d, fails)", e->reactor,
		    e->react_total);
}

/* A strike's defence, after " against ". */
static void
strike_defence(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	int t = combat_find(s, e->target);
	int vs_mind = e->action == COMBAT_MENTAL || (e->action ==
	    COMBAT_POWER && e->power.defend == POWER_VS_MIND);
	int none = e->action == COMBAT_POWER && e->power.defend ==
	    POWER_VS_NONE;

	fputs(none ? " against no defence" : " against ", fp);
	if (e->vs_fumble) {
		if (e->special > 0)
			fprintf(fp, "%s: an Ace, then %s: %d - %d = %d",
			    e->vs_cards, deck_face_name(e->special),
			    e->vs_base, e->special == DECK_TEN ? 0 :
			    e->special, e->defense);
		else
			fprintf(fp, "%s: an Ace, no card left: 0",
			    e->vs_cards);
	} else if (!none)
		calc_text(fp, e->vs_cards, 0, e->defense, e->vs_base,
		    vs_mind ? "MIND" : "DR", t < 0 ? 0 : vs_mind ?
		    s->f[t].st.mind : combat_dr_now(&s->f[t]), 0);
	note(fp, e->vs_item.name, e->vs_skills, s->rules);
}

/* What came of a strike: a miss, a mental success, or the damage. */
static void
strike_outcome(FILE *fp, const struct combat_event *e)
{
	int effect = e->action == COMBAT_MENTAL &&
	    e->kind != COMBAT_KIND_ATTACK;

	if (!e->hit)
		fprintf(fp, "; %s", effect ? "fails" : "misses");
	else if (effect)
		fprintf(fp, "; succeeds%s", e->kind == COMBAT_INTIMIDATION ?
		    ": the target passes its next action" : "");
	else
		fprintf(fp, "; hit for %d; %s LIFE %d -> %d%s", e->damage,
		    e->target, e->life_before, e->life_after,
		    e->life_after == 0 ? " (down)" : "");
}

/* An attack, a mental action or a power, in the phases of a strike. */
static void
story_strike(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	strike_declared(fp, e);
	if (e->negated) {
		strike_negated(fp, e);
		return;
	}
	strike_offence(fp, s, e);
	if (e->defense < 0) {
		fprintf(fp, "; misses, no defence drawn");
		return;
	}
	strike_defence(fp, s, e);
	strike_outcome(fp, e);
}

static void
story_pass(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	(void)s;
	fprintf(fp, "%s passes", e->actor);
}

static void
story_undo(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	(void)s;
	fprintf(fp, "undo of event %" PRId64 "", e->undoes);
}

static void
story_end(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	(void)s;
	fprintf(fp, "the combat ends%s", e->agreed ? " (all agreed)" : "");
}

static void
story_dead(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	(void)s;
	fprintf(fp, "%s is dead: LIFE and EM will not come back", e->actor);
}

/* A GM's ruling on LIFE and EM: the counters it changed. */
static void
story_adjust(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	(void)s;
	fprintf(fp, "the GM adjusts %s:", e->actor);
	if (e->life_after != e->life_before)
		fprintf(fp, " LIFE %d -> %d", e->life_before, e->life_after);
	if (e->em_after != e->em_before)
		fprintf(fp, "%s EM %d -> %d", e->life_after != e->life_before ?
		    "," : "", e->em_before, e->em_after);
}

static story_fn *const story_fns[COMBAT_ACTION_COUNT] = {
	[COMBAT_START] = story_start,
	[COMBAT_JOIN] = story_join,
	[COMBAT_ROUND] = story_round,
	[COMBAT_STANCE] = story_stance,
	[COMBAT_INITIATIVE] = story_initiative,
	[COMBAT_ATTACK] = story_strike,
	[COMBAT_MENTAL] = story_strike,
	[COMBAT_PASS] = story_pass,
	[COMBAT_UNDO] = story_undo,
	[COMBAT_END] = story_end,
	[COMBAT_DEAD] = story_dead,
	[COMBAT_RANGE] = story_range,
	[COMBAT_FLEE] = story_flee,
	[COMBAT_CHARGE] = story_charge,
	[COMBAT_BLOW] = story_blow,
	[COMBAT_POWER] = story_strike,
	[COMBAT_SWAP] = story_swap,
	[COMBAT_ADJUST] = story_adjust,
};

/* Who drew cards in an event, each name once per kind of draw. */
struct sources {
	const char	*physical[2 * COMBAT_FIGHTERS_MAX + 2];
	const char	*drawn[2 * COMBAT_FIGHTERS_MAX + 2];
	int		 nphysical, ndrawn;
};

static void
source_add(const char **list, int *n, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (strcmp(list[i], name) == 0)
			return;
	list[(*n)++] = name;
}

/* name's cards, if any: typed in (physical) or drawn by refkit. */
static void
source_note(struct sources *w, const char *name, const char *cards,
    int virt)
{
	if (name == NULL || cards == NULL || *cards == '\0')
		return;
	if (virt)
		source_add(w->drawn, &w->ndrawn, name);
	else
		source_add(w->physical, &w->nphysical, name);
}

static void
sources_list(FILE *fp, const char *word, const char *const *list, int n)
{
	fprintf(fp, "%s:", word);
	for (int i = 0; i < n; i++)
		fprintf(fp, "%s %s", i ? "," : "", list[i]);
}

/* e's k-th entry in the order they are told (an initiative's order). */
static const struct combat_init *
entry_at(const struct combat_event *e, int k)
{
	for (int i = 0; i < e->ninit; i++)
		if (e->init[i].pos == k + 1)
			return &e->init[i];
	return &e->init[k];
}

/*
 * After an event's sentence, whose cards were physical (typed in by the
 * GM) and whose refkit drew: " [physical: Fred; drawn: John]".  Nothing
 * for an event without cards.
 */
static void
sources_text(FILE *fp, const struct combat_event *e)
{
	struct sources w = { .nphysical = 0, .ndrawn = 0 };

	source_note(&w, e->actor, e->cards, e->virt);
	source_note(&w, e->target, e->vs_cards, e->vs_virt);
	source_note(&w, e->reactor, e->react_cards, e->react_virt);
	for (int k = 0; k < e->ninit; k++) {
		const struct combat_init *x = entry_at(e, k);

		source_note(&w, x->name, x->cards, x->virt);
		for (const char *v = x->ties_virt; v && *v; v++)
			source_note(&w, x->name, "tie", *v == '1');
	}
	if (w.nphysical + w.ndrawn == 0)
		return;
	fputs(" [", fp);
	if (w.nphysical)
		sources_list(fp, "physical", w.physical, w.nphysical);
	if (w.nphysical && w.ndrawn)
		fputs("; ", fp);
	if (w.ndrawn)
		sources_list(fp, "drawn", w.drawn, w.ndrawn);
	fputc(']', fp);
}

void
crstext_story(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	fprintf(fp, "%3" PRId64 "  r%-2d ", e->seq, e->round);
	if (e->action >= 0 && e->action < COMBAT_ACTION_COUNT &&
	    story_fns[e->action])
		story_fns[e->action](fp, s, e);
	sources_text(fp, e);
	ruling_mark(fp, e->ruling);
	putc('\n', fp);
}

void
crstext_undone(FILE *fp, const struct combat_event *e)
{
	fprintf(fp, "%3" PRId64 "  r%-2d (undone) %s %s %s", e->seq,
	    e->round, combat_action_name(e->action), e->action ==
	    COMBAT_ADJUST ? "of" : "by", e->actor ? e->actor : "the GM");
	ruling_mark(fp, e->ruling);
	putc('\n', fp);
}

/*
 * A line being fitted to a width (crstext_story_fit): its parts, and the
 * strings they point to, owned here.
 */
struct parts {
	struct fit_part	 p[COMBAT_FIGHTERS_MAX + 8];
	char		*own[2 * COMBAT_FIGHTERS_MAX + 24];
	size_t		 n, nown;
};

/* The fitting ranks: what gives way first has the lowest. */
#define RANK_SOURCES	0	/* whose cards: the first to go */
#define RANK_SUM	1	/* a breakdown: its total stays */
#define RANK_SEQ	2	/* the event's number and round */
#define RANK_TOTAL	3	/* the totals themselves, before a name */
#define RANK_WORDS	4	/* an outcome's words, never its figures */

/* Adds a part: text and brief (NULL: it never changes) are taken over. */
static void
part(struct parts *ps, char *text, char *brief, int rank, int names)
{
	ps->p[ps->n++] = (struct fit_part){ .text = text, .brief = brief,
	    .rank = rank, .names = names };
	ps->own[ps->nown++] = text;
	if (brief != NULL)
		ps->own[ps->nown++] = brief;
}

/* The last part's terse form, at rank (taken over). */
static void
part_terse(struct parts *ps, char *terse, int rank)
{
	ps->p[ps->n - 1].terse = terse;
	ps->p[ps->n - 1].terse_rank = rank;
	ps->own[ps->nown++] = terse;
}

/* s without its last n bytes (a ": " that the total followed). */
static char *
chopped(const char *s, size_t n)
{
	size_t len = strlen(s);

	return xasprintf("%.*s", (int)(len > n ? len - n : 0), s);
}

typedef void part_fn(FILE *, const struct combat_state *,
    const struct combat_event *);

/* What fn writes of e, as a string the caller owns. */
static char *
written(part_fn *fn, const struct combat_state *s,
    const struct combat_event *e)
{
	struct strbuf b = STRBUF_INIT;

	fn(strbuf_stream(&b), s, e);
	return strbuf_detach(&b, NULL);
}

static void
declared_fn(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	(void)s;
	strike_declared(fp, e);
}

static void
defence_fn(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	strike_defence(fp, s, e);
}

static void
outcome_fn(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	(void)s;
	strike_outcome(fp, e);
}

static void
sources_fn(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	(void)s;
	sources_text(fp, e);
}

static void
story_fn_any(FILE *fp, const struct combat_state *s,
    const struct combat_event *e)
{
	if (e->action >= 0 && e->action < COMBAT_ACTION_COUNT &&
	    story_fns[e->action])
		story_fns[e->action](fp, s, e);
}

/*
 * A strike's parts: who does what to whom, then the offence and the
 * defence, each of which may give way to its total and then to nothing
 * (before a name is shortened), then the outcome.
 */
static void
strike_parts(struct parts *ps, const struct combat_state *s,
    const struct combat_event *e)
{
	int none = e->action == COMBAT_POWER && e->power.defend ==
	    POWER_VS_NONE;
	char *declared = written(declared_fn, s, e);

	part(ps, declared, NULL, 0, 1);
	part_terse(ps, chopped(declared, 2), RANK_TOTAL);
	part(ps, written(strike_offence, s, e), xasprintf("%d", e->offense),
	    RANK_SUM, 1);
	part_terse(ps, xstrdup(""), RANK_TOTAL);
	if (e->defense < 0) {
		part(ps, xstrdup("; misses, no defence drawn"), NULL, 0, 0);
		return;
	}
	part(ps, written(defence_fn, s, e), none ?
	    xstrdup(" against no defence") : xasprintf(" against %d",
	    e->defense), RANK_SUM, 1);
	part_terse(ps, xstrdup(""), RANK_TOTAL);
	part(ps, written(outcome_fn, s, e), NULL, 0, 1);
}

/* One entry of an initiative or a Catch: its total, its breakdown. */
static void
entry_parts(struct parts *ps, const struct combat_init *x, const char *sep,
    int in_word)
{
	struct strbuf b = STRBUF_INIT;

	strbuf_addf(&b, "%s %s %s + %s%d = %d", sep, x->name, x->cards,
	    in_word ? "IN " : "", x->in, x->total);
	if (in_word && x->ties)
		strbuf_addf(&b, " (tie-break %s)", x->ties);
	part(ps, strbuf_detach(&b, NULL), xasprintf("%s %s %d", sep,
	    x->name, x->total), RANK_SUM, 1);
	part_terse(ps, xasprintf("%s %s", sep, x->name), RANK_TOTAL);
}

/* The entries of e in their order, as parts; the first after first. */
static void
entries_parts(struct parts *ps, const struct combat_event *e,
    const char *first, int in_word)
{
	size_t room = sizeof ps->p / sizeof ps->p[0] - 4;

	for (int k = 0; k < e->ninit && ps->n < room; k++)
		entry_parts(ps, entry_at(e, k), k ? "," : first, in_word);
}

/*
 * An initiative's parts: each entry's breakdown gives way to its total,
 * the totals and the word to their short forms before a name is cut; the
 * order, which is the outcome, stays.
 */
static void
initiative_parts(struct parts *ps, const struct combat_event *e)
{
	part(ps, xstrdup("initiative:"), NULL, 0, 0);
	part_terse(ps, xstrdup("init:"), RANK_TOTAL);
	entries_parts(ps, e, "", 1);
}

/*
 * A Flee's parts: who flees, the flee's draw and every Catch (breakdowns
 * to totals, then the totals to nothing), then the outcome, whose words
 * (not its time) give way last.
 */
static void
flee_parts(struct parts *ps, const struct combat_state *s,
    const struct combat_event *e)
{
	int a = combat_find(s, e->actor);
	char when[WHEN_LOCAL_SIZE];
	struct strbuf b = STRBUF_INIT;
	FILE *fp = strbuf_stream(&b);
	size_t first = ps->n;

	part(ps, xasprintf("%s flees: ", e->actor), NULL, 0, 1);
	part_terse(ps, xasprintf("%s flees", e->actor), RANK_TOTAL);
	calc_text(fp, e->cards, e->fumble, e->offense, e->base, "DR",
	    a < 0 ? 0 : combat_dr_now(&s->f[a]), 0);
	note(fp, NULL, e->skills, s->rules);
	part(ps, strbuf_detach(&b, NULL), xasprintf("%d", e->offense),
	    RANK_SUM, 0);
	part_terse(ps, xstrdup(""), RANK_TOTAL);
	entries_parts(ps, e, "; Catch:", 0);
	for (size_t k = first + 2; k < ps->n; k++)
		ps->p[k].terse = "", ps->p[k].terse_rank = RANK_TOTAL;
	when_local(when, sizeof when, e->until);
	if (e->hit) {
		part(ps, xasprintf("; gets away: out of every combat until "
		    "%s", when), xasprintf("; gets away until %s", when),
		    RANK_WORDS, 1);
	} else
		part(ps, xasprintf("; caught (%d > %d)", e->defense,
		    e->offense), NULL, 0, 1);
}

char *
crstext_story_fit(const struct combat_state *s,
    const struct combat_event *e, int undone, int width,
    const char *ellipsis)
{
	struct parts ps = { .n = 0, .nown = 0 };
	const char *names[COMBAT_FIGHTERS_MAX];
	char *line;

	part(&ps, xasprintf("%3" PRId64 "  r%-2d ", e->seq, e->round),
	    xstrdup(""), RANK_SEQ, 0);
	if (undone)
		part(&ps, xasprintf("(undone) %s %s %s",
		    combat_action_name(e->action), e->action ==
		    COMBAT_ADJUST ? "of" : "by", e->actor ? e->actor :
		    "the GM"), NULL, 0, 1);
	else if (e->action >= 0 && e->action < COMBAT_ACTION_COUNT &&
	    story_fns[e->action] == story_strike && !e->negated)
		strike_parts(&ps, s, e);
	else if (e->action == COMBAT_INITIATIVE)
		initiative_parts(&ps, e);
	else if (e->action == COMBAT_FLEE && !e->free)
		flee_parts(&ps, s, e);
	else
		part(&ps, written(story_fn_any, s, e), NULL, 0, 1);
	if (!undone)
		part(&ps, written(sources_fn, s, e), xstrdup(""),
		    RANK_SOURCES, 0);
	if (e->ruling != NULL)
		part(&ps, ruling_mark_text(e->ruling),
		    xstrdup(RULING_MARK_BRIEF), RANK_SOURCES, 0);
	for (int i = 0; i < s->n; i++)
		names[i] = s->f[i].name;
	line = fit_line(ps.p, ps.n, width, names, (size_t)s->n, ellipsis);
	for (size_t k = 0; k < ps.nown; k++)
		free(ps.own[k]);
	return line;
}

void
crstext_figures(const struct combat_state *s, int i, int64_t now,
    int64_t restores, struct combat_figures *x)
{
	const struct combat_fighter *f = &s->f[i];
	char *p = x->aside, *end = x->aside + sizeof x->aside;

	x->life = f->life;
	x->em = f->em;
	x->to_restore = combat_to_restore(f);
	if (combat_restored(s, f, now)) {
		x->life = f->st.life;
		x->em = f->st.em;
		x->to_restore = 0;
	}
	x->aside[0] = '\0';
	for (int c = 2; c <= 10; c++) {
		int out = (c == 10 ? 1 + f->deck.lb : 1) - f->deck.avail[c];

		for (int k = 0; k < out && p < end - 4; k++)
			p += snprintf(p, (size_t)(end - p), "%s%s", p ==
			    x->aside ? "" : ",", deck_face_name(c));
	}
	x->when[0] = x->local[0] = x->clock[0] = '\0';
	if (s->ended || restores == 0) {
		util_time_iso(x->when, sizeof x->when, restores);
		when_local(x->local, sizeof x->local, restores);
		when_clock(x->clock, sizeof x->clock, restores);
	}
}

unsigned
crstext_status_cols(int width, int name_w, const int w[CRSTEXT_COLS])
{
	static const int drop[] = { CRSTEXT_RESTORES, CRSTEXT_ASIDE,
	    CRSTEXT_INIT, CRSTEXT_STANCE, CRSTEXT_DR, CRSTEXT_DOWN,
	    CRSTEXT_EM };
	return fit_columns(width, name_w, w, CRSTEXT_COLS, drop,
	    sizeof drop / sizeof drop[0]);
}

#define BIT(i)	(UINT64_C(1) << (i))

/* Whether f is still in the fight: joined, standing, not fled. */
static int
standing(const struct combat_fighter *f)
{
	return f->presence == COMBAT_ACTIVE && f->life != 0 && !f->fled;
}

/* Who is engaged with i (combat_melee, both ways); none if i is out. */
static uint64_t
engaged(const struct combat_state *s, int i)
{
	uint64_t m;

	if (!standing(&s->f[i]))
		return 0;
	m = combat_melee(s, i);
	for (int j = 0; j < s->n; j++)
		if (j != i && standing(&s->f[j]) &&
		    (combat_melee(s, j) & BIT(i)))
			m |= BIT(j);
	return m;
}

/* The melee group of i: all whom a chain of engagements reaches. */
static uint64_t
group(const struct combat_state *s, int i)
{
	uint64_t g = BIT(i), seen = 0;

	while (g != seen) {
		seen = g;
		for (int j = 0; j < s->n; j++)
			if (g & BIT(j))
				g |= engaged(s, j);
	}
	return g;
}

/* One melee group's line; its pairs if not everyone is engaged with all. */
static void
melee_line(FILE *fp, const struct combat_state *s, uint64_t g)
{
	int all = 1, k = 0;

	fprintf(fp, "melee:");
	for (int j = 0; j < s->n; j++)
		if (g & BIT(j)) {
			fprintf(fp, "%s %s", k++ ? "," : "", s->f[j].name);
			all = all && (engaged(s, j) | BIT(j)) == g;
		}
	if (!all) {
		fprintf(fp, " (");
		k = 0;
		for (int i = 0; i < s->n; i++)
			for (int j = i + 1; j < s->n; j++)
				if ((g & BIT(i)) && (engaged(s, i) & BIT(j)))
					fprintf(fp, "%s%s with %s", k++ ? "; " :
					    "", s->f[i].name, s->f[j].name);
		fprintf(fp, ")");
	}
	fprintf(fp, "\n");
}

/*
 * Each melee once, as a group: those linked by a chain of engagements.
 * Whom a long range action may hit is the target's own melee (RULINGS),
 * so where some of a group are not engaged with each other, its pairs
 * follow.
 */
static void
melees(FILE *fp, const struct combat_state *s)
{
	uint64_t done = 0;

	for (int i = 0; i < s->n; i++) {
		uint64_t g;

		if ((done & BIT(i)) || engaged(s, i) == 0)
			continue;
		g = group(s, i);
		done |= g;
		melee_line(fp, s, g);
	}
}

void
crstext_notes(FILE *fp, const struct combat_state *s)
{
	char when[WHEN_LOCAL_SIZE];

	for (int i = 0; i < s->n; i++) {
		const struct combat_fighter *f = &s->f[i];

		if (f->fled) {
			when_local(when, sizeof when, f->until);
			fprintf(fp, "%s fled: out of every combat until %s\n",
			    f->name, when);
		}
		if (f->protecting >= 0)
			fprintf(fp, "%s takes the blows for %s\n", f->name,
			    s->f[f->protecting].name);
	}
	if (!s->ended)
		melees(fp, s);
}

const char *const crstext_sources[] = { "absent", "computed", "given" };

void
crstext_sheet(FILE *fp, const struct sheet *sh, const struct sheet_stat *st,
    const struct item *items, size_t nitems)
{
	fprintf(fp, "name     ");
	util_fputs_safe(sh->name, fp);
	fprintf(fp, "\nplayer   ");
	util_fputs_safe(sh->player ? sh->player : "-", fp);
	fprintf(fp, "\nnotes    ");
	util_fputs_safe(sh->notes ? sh->notes : "-", fp);
	fprintf(fp, "\nprimary ");
	for (int p = 0; p < P_COUNT; p++)
		if (sh->primary[p] == STATS_ABSENT)
			fprintf(fp, " %s -", stats_primary_name(p));
		else
			fprintf(fp, " %s %d", stats_primary_name(p),
			    sh->primary[p]);
	fprintf(fp, "\n\nSTAT  VALUE  SOURCE    EFFECTIVE\n");
	for (int s = 0; s < S_COUNT; s++) {
		if (st[s].source == SHEET_ABSENT) {
			fprintf(fp, "%-4s      -  absent            -\n",
			    stats_secondary_name(s));
			continue;
		}
		fprintf(fp, "%-4s  %5d  %-8s  %9d\n", stats_secondary_name(s),
		    st[s].value, crstext_sources[st[s].source],
		    st[s].effective);
	}
	fprintf(fp, "\nitems   ");
	if (nitems == 0)
		fprintf(fp, " -");
	for (size_t i = 0; i < nitems; i++) {
		char *sum = item_summary(&items[i]);

		fprintf(fp, "%s", i ? "\n         " : " ");
		util_fputs_safe(items[i].name, fp);
		fprintf(fp, " (%s)", sum);
		free(sum);
	}
	fprintf(fp, "\npowers  ");
	if (sh->npowers == 0)
		fprintf(fp, " -");
	for (size_t i = 0; i < sh->npowers; i++) {
		fprintf(fp, "%s", i ? ", " : " ");
		util_fputs_safe(sh->powers[i], fp);
	}
	fputc('\n', fp);
}
