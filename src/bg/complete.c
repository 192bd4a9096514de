/*
 * bg/complete.c - what bg-board completes (bg/complete.h), over bg/ledger.
 */
#include "bg/complete.h"

#include "bg/ledger.h"
#include "db/db.h"

#include <string.h>

/* Teams, and the figures of the game --game names, else of its GM's. */
static void
names(struct complete *c, const char *kind)
{
	struct db *db = complete_db(c);
	int64_t id;

	if (db == NULL)
		return;
	if (strcmp(kind, "team") == 0)
		bgledger_team_names(db, complete_name, c);
	else if (strcmp(kind, "figure") == 0 &&
	    (id = complete_log(c, &bgledger_kind)) != 0)
		bgledger_game_figures(db, id, complete_name, c);
}

#define COLOUR	"red|orange|yellow|green|blue|purple"

static const struct complete_cmd team_cmds[] = {
	{ "add", "", NULL },
	{ "show", "team", NULL },
	{ "list", "", NULL },
	{ "rm", "team", NULL },
	{ NULL, NULL, NULL }
};

static const struct complete_cmd cmds[] = {
	{ "team", NULL, team_cmds },
	{ "stat", COLOUR, NULL },
	{ "new", "team team", NULL },
	{ "place", "figure", NULL },
	{ "moves", "figure", NULL },
	{ "move", "figure", NULL },
	{ "power", "figure hypnotize|swap|teleport figure", NULL },
	{ "die", "team", NULL },
	{ "pass", "", NULL },
	{ "show", "", NULL },
	{ "log", "", NULL },
	{ "games", "", NULL },
	{ "list", "", NULL },
	{ "undo", "", NULL },
	{ "replay", "", NULL },
	{ "play", "", NULL },
	{ "watch", "", NULL },
	{ NULL, NULL, NULL }
};

static const struct complete_value values[] = {
	{ "db", "file" },
	{ "file", "file" },
	{ "stat", COLOUR },
	{ "att-stat", COLOUR },
	{ "def-stat", COLOUR },
	{ "release", "figure" },
	{ NULL, NULL }
};

const struct complete_tool bgcomplete_board = {
	.cmds = cmds,
	.values = values,
	.names = names,
};
