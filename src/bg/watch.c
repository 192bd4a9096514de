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
#include "core/journal.h"
#include "base/util.h"

#include <err.h>
#include <stdio.h>
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
	char *text = NULL, *last;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	if (fp == NULL)
		err(1, "out of memory");
	bgtext_zones(fp, g);
	if (fclose(fp) != 0)
		err(1, "out of memory");
	if (len > 0 && text[len - 1] == '\n')
		text[--len] = '\0';
	if ((last = strrchr(text, '\n')) != NULL)
		*last++ = '\0';
	watch_put(f, WATCH_PLAIN, "%s%s", last ? text : "", last ? "\n" : "");
	watch_put(f, WATCH_BOLD, "%s\n", last ? last : text);
	free(text);
}

int
bgwatch_draw(void *arg, struct db *db, struct watch_frame *f, char *why,
    size_t whysz)
{
	const struct watch_log *w = arg;
	const char *typed = w->typed;
	struct bgledger_game d;
	struct bg_game *g;
	struct painter p;
	int64_t id, bad = 0;
	char whyr[BG_WHYSZ];

	id = typed ? db_key_parse(db, typed) : journal_pick(db,
	    &bgledger_kind, w->gm, 1, whyr, sizeof whyr);
	if (id == 0 || bgledger_game_load(db, id, &d) != 0)
		return watch_none("game", typed,
		    "bg-board new TEAM1 TEAM2", why, whysz);
	g = xcalloc(1, sizeof *g);
	if (bgledger_derive(&d, g, &bad, whyr, sizeof whyr) != 0) {
		util_say(why, whysz, "game %s: event %lld does not replay: %s",
		    db_key_str(db, id), (long long)bad, whyr);
		free(g);
		bgledger_game_release(&d);
		return WATCH_NOTHING;
	}
	watch_put(f, WATCH_TITLE, " game %s: %s (south, rows 1-3) against %s "
	    "(north); the %s board", db_key_str(db, id), g->team[0].name,
	    g->team[1].name, g->advanced ? "advanced" : "basic");
	watch_fill(f, WATCH_TITLE);
	watch_put(f, WATCH_PLAIN, "\n");
	p.f = f;
	p.g = g;
	p.colour = watch_squares(f);
	bgtext_board(g, p.colour, paint, &p);
	if (!p.colour)
		watch_text(f, WATCH_DIM, bgtext_legend);
	zones(f, g);
	watch_put(f, WATCH_PLAIN, "\n");
	watch_events(f, &d.j, 't', 6);
	free(g);
	bgledger_game_release(&d);
	return 0;
}
