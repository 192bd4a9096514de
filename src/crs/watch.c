/*
 * crs/watch.c - a combat on the live board; see crs/watch.h.  One
 * replay of the whole ledger gives both the state and, from the state
 * before each event, the last events' sentences, exactly as the log
 * words them, each fitted to the screen's width (crstext_story_fit: the
 * start of a line gives way, never its outcome).  The table is sized to
 * the screen: a wider one gets longer bars.
 */
#include "crs/watch.h"

#include "db/db.h"
#include "base/fit.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "base/when.h"
#include "crs/combat.h"
#include "crs/text.h"
#include "crs/ledger.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most events a screen shows, and the fewest it is given. */
#define EVENTS_MAX	64
#define NAME_W		16

/* The last events' sentences, kept as the replay tells them. */
struct story {
	const struct ledger	*l;
	int			 cols;			/* fitted to */
	const char		*ellipsis;
	char			*line[EVENTS_MAX];	/* a ring */
	size_t			 n;			/* told so far */
};

static void
tell(void *arg, const struct combat_state *s, size_t i)
{
	struct story *st = arg;
	char **slot = &st->line[st->n++ % EVENTS_MAX];

	free(*slot);
	*slot = crstext_story_fit(s, &st->l->ev[i], st->l->undone[i],
	    st->cols, st->ellipsis);
}

static void
story_release(struct story *st)
{
	for (size_t k = 0; k < EVENTS_MAX; k++)
		free(st->line[k]);
}

/* The top line: the same words as status's first. */
static void
title(struct watch_frame *f, const struct ledger *l,
    const struct combat_state *s)
{
	int next = combat_next(s);

	watch_put(f, WATCH_TITLE, " combat %s (GM %s, %s rules), round %d%s",
	    l->key, l->gm ? l->gm : "unknown", l->rules, s->round,
	    s->ended ? ", ended" : "");
	if (next >= 0)
		watch_put(f, WATCH_TITLE, "; next to act: %s", s->f[next].name);
	else if (!s->ended && !s->init_done)
		watch_put(f, WATCH_TITLE, "; initiative not drawn yet");
	watch_fill(f, WATCH_TITLE);
	watch_put(f, WATCH_PLAIN, "\n\n");
}

/* The widths of the bars: longer on a wider screen. */
struct widths {
	int	life, em;
};

static struct widths
widths(const struct watch_frame *f)
{
	int extra = watch_cols(f) > 80 ? watch_cols(f) - 80 : 0;
	struct widths w = { 10 + extra / 3, 6 + extra / 6 };

	if (w.life > 30)
		w.life = 30;
	if (w.em > 16)
		w.em = 16;
	return w;
}

/* LIFE's ink: green above half, yellow above a quarter, then red. */
static int
life_ink(int life, int max)
{
	return 2 * life > max ? WATCH_GOOD : 4 * life > max ? WATCH_WARN :
	    WATCH_BAD;
}

/* A word of the STATE column, after the ones before it. */
static void
state_word(struct watch_frame *f, int *any, int ink, const char *word)
{
	if (*any)
		watch_put(f, WATCH_PLAIN, ", ");
	watch_put(f, ink, "%s", word);
	*any = 1;
}

/* Fighter i's row. */
static void
row(struct watch_frame *f, const struct combat_state *s, int i,
    struct widths w, int64_t now, int64_t restores)
{
	const struct combat_fighter *fi = &s->f[i];
	struct combat_figures x = { 0 };
	int next = combat_next(s) == i, any = 0, dr = combat_dr_now(fi);
	int out = fi->dead || fi->fled || fi->presence != COMBAT_ACTIVE;
	char num[32];

	crstext_figures(s, i, now, restores, &x);
	out = out || x.life == 0;
	watch_put(f, next ? WATCH_NEXT : WATCH_PLAIN, "%s", next ? ">" : " ");
	if (fi->init_pos)
		watch_put(f, WATCH_PLAIN, " %3d ", fi->init_total);
	else
		watch_put(f, WATCH_PLAIN, " %3s ", "-");
	watch_cell(f, next ? WATCH_NEXT : out ? WATCH_DIM : WATCH_BOLD,
	    fi->name, NAME_W);
	watch_put(f, WATCH_PLAIN, " ");
	watch_bar(f, life_ink(x.life, fi->st.life), x.life, fi->st.life,
	    w.life);
	snprintf(num, sizeof num, "%d/%d", x.life, fi->st.life);
	watch_put(f, WATCH_BOLD, " %5s  ", num);
	if (fi->st.em < 0)
		watch_put(f, WATCH_DIM, "%-*s", w.em + 6, " -");
	else {
		watch_bar(f, WATCH_INFO, x.em, fi->st.em, w.em);
		snprintf(num, sizeof num, "%d/%d", x.em, fi->st.em);
		watch_put(f, WATCH_PLAIN, " %5s", num);
	}
	if (dr < 0)
		watch_put(f, WATCH_PLAIN, "  %3s  ", "-");
	else
		watch_put(f, WATCH_PLAIN, "  %3d  ", dr);
	if (fi->dead)
		state_word(f, &any, WATCH_BAD, "DEAD");
	else if (fi->fled)
		state_word(f, &any, WATCH_DIM, "FLED");
	else if (x.life == 0)
		state_word(f, &any, WATCH_BAD, "DOWN");
	if (fi->presence != COMBAT_ACTIVE)
		state_word(f, &any, WATCH_DIM, "joins next round");
	if (fi->stance)
		state_word(f, &any, WATCH_INFO, "stance");
	if (fi->intimidated)
		state_word(f, &any, WATCH_WARN, "must pass");
	if (fi->acted && !fi->stance && !s->ended && !out)
		state_word(f, &any, WATCH_DIM, "acted");
	/* After the end the cards no longer matter; when LIFE is back does. */
	if (*x.aside && !s->ended) {
		state_word(f, &any, WATCH_PLAIN, "aside ");
		watch_put(f, WATCH_BOLD, "%s", x.aside);
	}
	if (x.to_restore && s->ended) {
		state_word(f, &any, WATCH_DIM, "back at ");
		/* The local time of day will do. */
		watch_put(f, WATCH_DIM, "%s", x.clock);
	}
	watch_put(f, WATCH_PLAIN, "\n");
}

/* The table: in the initiative order, then whoever is not in it. */
static void
table(struct watch_frame *f, const struct combat_state *s, int64_t now)
{
	struct widths w = widths(f);
	int64_t restores = combat_restores_at(s);
	int listed[COMBAT_FIGHTERS_MAX] = { 0 };

	watch_put(f, WATCH_HEAD, " %4s %-*s %-*s %5s  %-*s %5s  %3s  %s\n",
	    "INIT", NAME_W, "NAME", w.life, "LIFE", "", w.em, "EM", "", "DR",
	    "STATE");
	for (int k = 0; k < s->norder; k++) {
		row(f, s, s->order[k], w, now, restores);
		listed[s->order[k]] = 1;
	}
	for (int i = 0; i < s->n; i++)
		if (!listed[i])
			row(f, s, i, w, now, restores);
}

/* The notes under the table, then the last events, as many as fit. */
static void
notes_and_events(struct watch_frame *f, const struct combat_state *s,
    const struct story *st)
{
	struct strbuf b = STRBUF_INIT;
	char *notes, *folded;
	size_t k, first;

	crstext_notes(strbuf_stream(&b), s);
	notes = strbuf_detach(&b, NULL);
	/* Every word of a note counts: folded, not cut at the edge. */
	folded = fit_fold(notes, watch_cols(f), 2);
	watch_text(f, WATCH_PLAIN, folded);
	free(folded);
	free(notes);
	watch_put(f, WATCH_HEAD, "\nLAST EVENTS\n");
	k = (size_t)watch_rows_left(f);
	if (k < WATCH_EVENTS_MIN)
		k = WATCH_EVENTS_MIN;
	if (k > EVENTS_MAX)
		k = EVENTS_MAX;
	first = st->n > k ? st->n - k : 0;
	for (size_t i = first; i < st->n; i++)
		watch_put(f, i + 1 == st->n ? WATCH_BOLD : WATCH_PLAIN, "%s\n",
		    st->line[i % EVENTS_MAX]);
}

/* Draws combat id (struct watch_board): one replay, the state and story. */
static int
draw(struct db *db, int64_t id, struct watch_frame *f, int64_t *bad,
    char *why, size_t whysz)
{
	struct ledger l;
	struct combat_state s;
	struct story st;
	int rc = 0;

	if (ledger_load_all(db, id, &l) != 0)
		return WATCH_NO_LOG;
	memset(&st, 0, sizeof st);
	st.l = &l;
	st.cols = watch_cols(f);
	st.ellipsis = watch_ellipsis(f);
	if (ledger_derive_each(&l, &s, tell, &st, bad, why, whysz) != 0)
		rc = WATCH_NOTHING;
	else {
		title(f, &l, &s);
		table(f, &s, db_now());
		notes_and_events(f, &s, &st);
	}
	story_release(&st);
	combat_state_release(&s);
	ledger_release(&l);
	return rc;
}

const struct watch_board crswatch_board = {
	.kind = &ledger_kind,
	.start = "crs-combat start NAME...",
	.replay = "crs-combat replay",
	.draw = draw,
};
