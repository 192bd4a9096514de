/*
 * test_combat_text.c - the story of a combat, a sentence per event, from
 * states built by executing events by hand: each sentence reads the state
 * just before its event, as the one replay of the log passes it.
 */
#include "tap.h"

#include "crs/text.h"
#include "base/util.h"

#include <stdlib.h>
#include <time.h>

static char why[300];
static int64_t seq;

/* The story line of e against s, the state before it (a static buffer). */
static const char *
story(const struct combat_state *s, const struct combat_event *e)
{
	static char buf[600];
	FILE *fp = fmemopen(buf, sizeof buf, "w");

	if (fp == NULL)
		return "";
	crstext_story(fp, s, e);
	fclose(fp);
	return buf;
}

/*
 * Numbers e as the next event and executes it against s; returns its
 * story (a static buffer), told from the state just before it, as the
 * log tells it.
 */
static const char *
tell(struct combat_state *s, struct combat_event *e)
{
	static char line[600];
	/* A shallow copy: its names belong to s, which outlives it. */
	struct combat_state *before = xmalloc(sizeof *before);

	*before = *s;
	e->seq = ++seq;
	if (combat_execute(s, e, why, sizeof why) != 0)
		printf("# refused: %s\n", why);
	snprintf(line, sizeof line, "%s", story(before, e));
	free(before);
	combat_event_release(e);
	free(e);
	return line;
}

static struct combat_event *
ev(int action, const char *actor, const char *target)
{
	struct combat_event *e = xmalloc(sizeof *e);

	combat_event_init(e);
	e->action = action;
	e->actor = actor ? xstrdup(actor) : NULL;
	e->target = target ? xstrdup(target) : NULL;
	e->seed = 1;
	return e;
}

static struct combat_event *
joiner(const char *name, int or_, int dr, int mind, int life)
{
	struct combat_event *e = ev(COMBAT_JOIN, name, NULL);

	e->stats.or_ = or_;
	e->stats.dr = dr;
	e->stats.mind = mind;
	e->stats.life = life;
	e->stats.in = 0;
	e->stats.lb = 0;
	return e;
}

static void
init_add(struct combat_event *e, const char *name, const char *cards)
{
	struct combat_init *x;

	e->init = xreallocarray(e->init, (size_t)e->ninit + 1,
	    sizeof *e->init);
	x = &e->init[e->ninit++];
	memset(x, 0, sizeof *x);
	x->name = xstrdup(name);
	x->cards = xstrdup(cards);
}

static struct combat_event *
strike(int action, const char *a, const char *t, const char *card,
    const char *vs_card)
{
	struct combat_event *e = ev(action, a, t);

	e->cards = xstrdup(card);
	e->vs_cards = xstrdup(vs_card);
	return e;
}

int
main(void)
{
	struct combat_state s;
	struct combat_event *e;
	char when[32];

	combat_state_init(&s);
	is_str(tell(&s, ev(COMBAT_START, NULL, NULL)),
	    "  1  r1  the combat starts\n", "start");
	is_str(tell(&s, joiner("Ann", 8, 10, 6, 30)),
	    "  2  r1  Ann joins: LIFE 30, OR 8, DR 10, MIND 6, IN 0, LB 0\n",
	    "join");
	tell(&s, joiner("Bob", 7, 9, 5, 25));
	e = ev(COMBAT_RANGE, "Ann", "Bob");
	e->feet = 5;
	is_str(tell(&s, e), "  4  r1  Ann and Bob are 5 ft apart\n", "range");
	e = ev(COMBAT_INITIATIVE, NULL, NULL);
	init_add(e, "Bob", "8");
	init_add(e, "Ann", "9");
	is_str(tell(&s, e), "  5  r1  initiative: Ann 9 + IN 0 = 9, Bob 8 + "
	    "IN 0 = 8 [physical: Ann, Bob]\n", "initiative, in its order");
	e = strike(COMBAT_ATTACK, "Ann", "Bob", "6", "4");
	is_str(tell(&s, e), "  6  r1  Ann attacks Bob: 6 + OR 8 = 14 against "
	    "4 + DR 9 = 13; hit for 1; Bob LIFE 25 -> 24 [physical: Ann, Bob]\n",
	    "attack, a hit");
	e = strike(COMBAT_MENTAL, "Bob", "Ann", "9", "2");
	e->kind = COMBAT_INTIMIDATION;
	is_str(tell(&s, e), "  7  r1  Bob uses Intimidation on Ann: 9 + MIND "
	    "5 - 5 = 9 against 2 + MIND 6 = 8; succeeds: the target passes "
	    "its next action [physical: Bob, Ann]\n", "an Intimidation");
	is_str(tell(&s, ev(COMBAT_ROUND, NULL, NULL)), "  8  r2  Clean Up: "
	    "cards back, DR restored; round 2 begins\n", "the round ends");
	is_str(tell(&s, ev(COMBAT_STANCE, "Ann", NULL)),
	    "  9  r2  Ann takes a Defensive Stance\n", "stance");
	e = ev(COMBAT_INITIATIVE, NULL, NULL);
	init_add(e, "Bob", "8");
	tell(&s, e);
	e = strike(COMBAT_ATTACK, "Bob", "Ann", "A", "3");
	e->vs_virt = 1;
	free(e->vs_cards);
	e->vs_cards = NULL;
	is_str(tell(&s, e), " 11  r2  Bob attacks Ann: A: an Ace, 0; misses, "
	    "no defence drawn [physical: Bob]\n", "an Ace");
	e = strike(COMBAT_ATTACK, "Ann", "Bob", "7", "5");
	e->seq = 99;
	e->vs_virt = 1;
	e->offense = 15;
	e->defense = 5 + 9;
	e->base = 8;
	e->vs_base = 9;
	e->hit = 1;
	e->damage = 1;
	e->life_before = 24;
	e->life_after = 23;
	is_str(story(&s, e), " 99  r0  Ann attacks Bob: 7 + OR 8 = 15 against "
	    "5 + DR 9 = 14; hit for 1; Bob LIFE 24 -> 23 [physical: Ann; "
	    "drawn: Bob]\n", "cards typed and drawn: each side named");
	e->virt = 1;
	is_str(strstr(story(&s, e), "["), "[drawn: Ann, Bob]\n",
	    "cards drawn on both sides");
	combat_event_release(e);
	free(e);
	e = ev(COMBAT_END, NULL, NULL);
	e->agreed = 1;
	is_str(tell(&s, e), " 12  r2  the combat ends (all agreed)\n", "end");
	e = ev(COMBAT_FLEE, "Bob", NULL);
	e->time = 86400;
	/* Local time (TZ), here Berlin's rule: 01:00 UTC is 02:00 CET. */
	setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3", 1);
	tzset();
	is_str(tell(&s, e), " 13  r2  Bob takes the free Flee at the end: out "
	    "of every combat until 1970-01-02 02:00:00 CET\n",
	    "the free Flee");
	e = ev(COMBAT_UNDO, NULL, NULL);
	e->undoes = 6;
	is_str(tell(&s, e), " 14  r2  undo of event 6\n", "undo");
	e = ev(COMBAT_ATTACK, "Ann", "Bob");
	e->seq = 6;
	e->round = 1;
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&buf, &len);

		crstext_undone(fp, e);
		fclose(fp);
		is_str(buf, "  6  r1  (undone) attack by Ann\n", "undone");
		free(buf);
	}
	combat_event_release(e);
	free(e);
	util_time_iso(when, sizeof when, 0);
	is_str(when, "1970-01-01T00:00:00Z", "time: the epoch");
	combat_state_release(&s);
	return tap_done();
}
