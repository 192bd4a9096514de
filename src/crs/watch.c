/*
 * crs/watch.c - a combat on the live board; see crs/watch.h.  One
 * replay of the whole ledger gives both the state and, from the state
 * before each event, the last events' sentences, exactly as the log
 * words them, each fitted to the screen's width (crstext_story_fit: the
 * start of a line gives way, never its outcome).  The table is sized to
 * the screen: a wider one gets longer bars, a narrow one shorter bars and
 * then fewer columns.
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

/*
 * The table's columns after the next mark and beside NAME and LIFE's
 * figures, which always show.  On a narrow screen the bars shrink (EM's
 * to 3, then LIFE's to 5), then whole columns go, the least useful
 * first: EM's bar, INIT, DR, LIFE's bar, EM, STATE (drop[] below).
 */
enum col { COL_INIT, COL_LIFEBAR, COL_EMBAR, COL_EM, COL_DR, COL_STATE,
	COL_N };

/* The widths: the bars, and each column's with the spaces before it. */
struct widths {
	int		 life, em;	/* the bars */
	int		 w[COL_N];
	unsigned	 cols;		/* bit k set: column k shows */
};

#define FIXED_W		(1 + 1 + NAME_W + 6)	/* mark, NAME, LIFE's */
#define LIFE_MIN	5
#define EM_MIN		3
#define STATE_MAX	30	/* past this much, STATE is cut at the edge */

/* The STATE column's words of a row, and their inks. */
struct state {
	int	 n;
	int	 ink[8];
	char	 word[8][96];
};

/* Adds a word to the STATE of a row. */
static void
state_add(struct state *st, int ink, const char *fmt, const char *arg)
{
	if (st->n >= 8)
		return;
	st->ink[st->n] = ink;
	snprintf(st->word[st->n++], sizeof st->word[0], fmt, arg);
}

/* Fighter i's STATE words, x its figures. */
static void
state_of(const struct combat_state *s, int i,
    const struct combat_figures *x, struct state *st)
{
	const struct combat_fighter *fi = &s->f[i];
	int out = fi->dead || fi->fled || fi->presence != COMBAT_ACTIVE ||
	    x->life == 0;

	st->n = 0;
	if (fi->dead)
		state_add(st, WATCH_BAD, "%s", "DEAD");
	else if (fi->fled)
		state_add(st, WATCH_DIM, "%s", "FLED");
	else if (x->life == 0)
		state_add(st, WATCH_BAD, "%s", "DOWN");
	if (fi->presence != COMBAT_ACTIVE)
		state_add(st, WATCH_DIM, "%s", "joins next round");
	if (fi->stance)
		state_add(st, WATCH_INFO, "%s", "stance");
	if (fi->intimidated)
		state_add(st, WATCH_WARN, "%s", "must pass");
	if (fi->acted && !fi->stance && !s->ended && !out)
		state_add(st, WATCH_DIM, "%s", "acted");
	/* After the end the cards no longer matter; when LIFE is back does. */
	if (*x->aside && !s->ended)
		state_add(st, WATCH_BOLD, "aside %s", x->aside);
	if (x->to_restore && s->ended)
		state_add(st, WATCH_DIM, "back at %s", x->clock);
}

/* The characters of a STATE cell. */
static int
state_width(const struct state *st)
{
	int n = 0;

	for (int k = 0; k < st->n; k++)
		n += (k ? 2 : 0) + fit_width(st->word[k]);
	return n;
}

/* The widest STATE of s's rows, at least the heading's. */
static int
states_width(const struct combat_state *s, int64_t now, int64_t restores)
{
	int widest = (int)strlen("STATE");

	for (int i = 0; i < s->n; i++) {
		struct combat_figures x = { 0 };
		struct state st;

		crstext_figures(s, i, now, restores, &x);
		state_of(s, i, &x, &st);
		if (state_width(&st) > widest)
			widest = state_width(&st);
	}
	return widest;
}

/* The columns' sum, what shows of them and the fixed ones. */
static int
total(const struct widths *w)
{
	int n = FIXED_W;

	for (int k = 0; k < COL_N; k++)
		n += w->w[k];
	return n;
}

/* The bars: longer on a wider screen, shorter on a narrow one. */
static struct widths
widths(const struct watch_frame *f, int state_w)
{
	static const int drop[] = { COL_EMBAR, COL_INIT, COL_DR, COL_LIFEBAR,
	    COL_EM, COL_STATE };
	int cols = watch_cols(f);
	int extra = cols > 80 ? cols - 80 : 0;
	struct widths w = { 10 + extra / 3, 6 + extra / 6, { 0 }, 0 };
	int over, cut;

	if (w.life > 30)
		w.life = 30;
	if (w.em > 16)
		w.em = 16;
	w.w[COL_INIT] = 4;
	w.w[COL_EM] = 7;
	w.w[COL_DR] = 5;
	w.w[COL_STATE] = 2 + (state_w < STATE_MAX ? state_w : STATE_MAX);
	w.w[COL_LIFEBAR] = 1 + w.life;
	w.w[COL_EMBAR] = 1 + w.em;
	over = total(&w) - cols;
	cut = over < w.em - EM_MIN ? over : w.em - EM_MIN;
	if (cut > 0)
		w.em -= cut, over -= cut;
	cut = over < w.life - LIFE_MIN ? over : w.life - LIFE_MIN;
	if (cut > 0)
		w.life -= cut;
	w.w[COL_LIFEBAR] = 1 + w.life;
	w.w[COL_EMBAR] = 1 + w.em;
	w.cols = fit_columns(cols, FIXED_W, w.w, COL_N, drop,
	    sizeof drop / sizeof drop[0]);
	return w;
}

/* LIFE's ink: green above half, yellow above a quarter, then red. */
static int
life_ink(int life, int max)
{
	return 2 * life > max ? WATCH_GOOD : 4 * life > max ? WATCH_WARN :
	    WATCH_BAD;
}

/* Whether column k shows. */
#define SHOWS(w, k)	((w).cols & (1u << (k)))

/* Fighter i's EM: its bar and its figures, where they show. */
static void
em_cells(struct watch_frame *f, const struct combat_fighter *fi,
    const struct combat_figures *x, struct widths w)
{
	char num[32];

	if (SHOWS(w, COL_EMBAR)) {
		watch_put(f, WATCH_PLAIN, "  ");
		if (fi->st.em < 0)
			watch_put(f, WATCH_DIM, "%-*s", w.em, " -");
		else
			watch_bar(f, WATCH_INFO, x->em, fi->st.em, w.em);
	}
	if (!SHOWS(w, COL_EM))
		return;
	snprintf(num, sizeof num, "%d/%d", x->em, fi->st.em);
	watch_put(f, fi->st.em < 0 ? WATCH_DIM : WATCH_PLAIN, "%s%5s",
	    SHOWS(w, COL_EMBAR) ? " " : "  ", fi->st.em < 0 ?
	    SHOWS(w, COL_EMBAR) ? "" : "-" : num);
}

/* Fighter i's STATE, where it shows. */
static void
state_cell(struct watch_frame *f, const struct combat_state *s, int i,
    const struct combat_figures *x, struct widths w)
{
	struct state st;

	if (!SHOWS(w, COL_STATE))
		return;
	state_of(s, i, x, &st);
	if (st.n > 0)
		watch_put(f, WATCH_PLAIN, "  ");
	for (int k = 0; k < st.n; k++) {
		if (k)
			watch_put(f, WATCH_PLAIN, ", ");
		watch_put(f, st.ink[k], "%s", st.word[k]);
	}
}

/* Fighter i's row. */
static void
row(struct watch_frame *f, const struct combat_state *s, int i,
    struct widths w, int64_t now, int64_t restores)
{
	const struct combat_fighter *fi = &s->f[i];
	struct combat_figures x = { 0 };
	int next = combat_next(s) == i, dr = combat_dr_now(fi);
	int out = fi->dead || fi->fled || fi->presence != COMBAT_ACTIVE;
	char num[32];

	crstext_figures(s, i, now, restores, &x);
	out = out || x.life == 0;
	watch_put(f, next ? WATCH_NEXT : WATCH_PLAIN, "%s", next ? ">" : " ");
	if (SHOWS(w, COL_INIT) && fi->init_pos)
		watch_put(f, WATCH_PLAIN, " %3d", fi->init_total);
	else if (SHOWS(w, COL_INIT))
		watch_put(f, WATCH_PLAIN, " %3s", "-");
	watch_put(f, WATCH_PLAIN, " ");
	watch_cell(f, next ? WATCH_NEXT : out ? WATCH_DIM : WATCH_BOLD,
	    fi->name, NAME_W);
	if (SHOWS(w, COL_LIFEBAR)) {
		watch_put(f, WATCH_PLAIN, " ");
		watch_bar(f, life_ink(x.life, fi->st.life), x.life,
		    fi->st.life, w.life);
	}
	snprintf(num, sizeof num, "%d/%d", x.life, fi->st.life);
	watch_put(f, WATCH_BOLD, " %5s", num);
	em_cells(f, fi, &x, w);
	if (SHOWS(w, COL_DR) && dr < 0)
		watch_put(f, WATCH_PLAIN, "  %3s", "-");
	else if (SHOWS(w, COL_DR))
		watch_put(f, WATCH_PLAIN, "  %3d", dr);
	state_cell(f, s, i, &x, w);
	watch_put(f, WATCH_PLAIN, "\n");
}

/* The table's heading, for the columns that show. */
static void
heading(struct watch_frame *f, struct widths w)
{
	struct strbuf b = STRBUF_INIT;
	FILE *fp = strbuf_stream(&b);
	char *line;
	size_t len;

	fprintf(fp, " %s %-*s", SHOWS(w, COL_INIT) ? "INIT" : "", NAME_W,
	    "NAME");
	if (SHOWS(w, COL_LIFEBAR))
		fprintf(fp, " %-*s %5s", w.life, "LIFE", "");
	else
		fprintf(fp, " %5s", "LIFE");
	if (SHOWS(w, COL_EMBAR))
		fprintf(fp, "  %-*s", w.em, "EM");
	if (SHOWS(w, COL_EM))
		fprintf(fp, SHOWS(w, COL_EMBAR) ? " %5s" : "  %5s",
		    SHOWS(w, COL_EMBAR) ? "" : "EM");
	if (SHOWS(w, COL_DR))
		fprintf(fp, "  %3s", "DR");
	if (SHOWS(w, COL_STATE))
		fprintf(fp, "  STATE");
	line = strbuf_detach(&b, &len);
	while (len > 0 && line[len - 1] == ' ')
		line[--len] = '\0';
	watch_put(f, WATCH_HEAD, "%s\n", line);
	free(line);
}

/* The table: in the initiative order, then whoever is not in it. */
static void
table(struct watch_frame *f, const struct combat_state *s, int64_t now)
{
	int64_t restores = combat_restores_at(s);
	struct widths w = widths(f, states_width(s, now, restores));
	int listed[COMBAT_FIGHTERS_MAX] = { 0 };

	heading(f, w);
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
