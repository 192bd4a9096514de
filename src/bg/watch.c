/*
 * bg/watch.c - a game on the live board; see bg/watch.h.  The board and
 * the zones are bg/text's, as show has them; a square is painted with the
 * frame's ink of its colour, which it has only on a terminal of 256
 * colours; elsewhere the squares name their colours by letter, as show
 * --plain draws them.
 */
#include "bg/watch.h"

#include "bg/text.h"
#include "bg/ledger.h"
#include "db/db.h"
#include "base/fit.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

/* What a square is painted with, by its colour (enum bg_colour). */
static const int square_ink[] = {
	WATCH_ON_RED, WATCH_ON_ORANGE, WATCH_ON_YELLOW, WATCH_ON_GREEN,
	WATCH_ON_BLUE, WATCH_ON_PURPLE, WATCH_ON_WHITE, WATCH_ON_GREY
};

struct painter {
	struct watch_frame	*f;
	const struct bg_game	*g;
	int			 colour;
};

static void
paint(void *arg, int sq, const char *text)
{
	struct painter *p = arg;

	watch_put(p->f, sq >= 0 && p->colour ?
	    square_ink[bg_square_colour(p->g, sq)] : WATCH_PLAIN, "%s", text);
}

/* The zones, the last line (whose turn, or who won) in bold. */
static void
zones(struct watch_frame *f, const struct bg_game *g)
{
	struct strbuf b = STRBUF_INIT;
	char *text, *last;
	size_t len;

	bgtext_zones(strbuf_stream(&b), g);
	text = strbuf_detach(&b, NULL);
	/* Every piece's square counts: folded, not cut at the edge. */
	last = fit_fold(text, watch_cols(f), 2);
	free(text);
	text = last;
	len = strlen(text);
	if (len > 0 && text[len - 1] == '\n')
		text[--len] = '\0';
	if ((last = strrchr(text, '\n')) != NULL)
		*last++ = '\0';
	watch_put(f, WATCH_PLAIN, "%s%s", last ? text : "", last ? "\n" : "");
	watch_put(f, WATCH_BOLD, "%s\n", last ? last : text);
	free(text);
}

/* The title, the board in its colours or with its legend, the zones. */
static void
game(struct watch_frame *f, const char *key, const struct bg_game *g)
{
	struct painter p = { f, g, watch_squares(f) };

	watch_put(f, WATCH_TITLE, " game %s: %s (south, rows 1-3) against %s "
	    "(north); the %s board", key, g->team[0].name, g->team[1].name,
	    g->advanced ? "advanced" : "basic");
	watch_fill(f, WATCH_TITLE);
	watch_put(f, WATCH_PLAIN, "\n");
	bgtext_board(g, p.colour, watch_cols(f), paint, &p);
	if (!p.colour) {
		char *legend = fit_fold(bgtext_legend, watch_cols(f), 2);

		watch_text(f, WATCH_DIM, legend);
		free(legend);
	}
	zones(f, g);
	watch_put(f, WATCH_PLAIN, "\n");
}

/* Draws game id (struct watch_board). */
static int
draw(struct db *db, int64_t id, struct watch_frame *f, int64_t *bad,
    char *why, size_t whysz)
{
	struct bgledger_game d;
	struct bg_game *g;
	int rc = 0;

	if (bgledger_game_load(db, id, &d) != 0)
		return WATCH_NO_LOG;
	g = xcalloc(1, sizeof *g);
	if (bgledger_derive(&d, g, bad, why, whysz) != 0)
		rc = WATCH_NOTHING;
	else {
		game(f, db_key_str(db, id), g);
		watch_events(f, &d.j, 't', 6);
	}
	free(g);
	bgledger_game_release(&d);
	return rc;
}

const struct watch_board bgwatch_board = {
	.kind = &bgledger_kind,
	.start = "bg-board new TEAM1 TEAM2",
	.draw = draw,
};
