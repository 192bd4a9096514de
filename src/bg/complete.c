/*
 * bg/complete.c - what bg-board completes (bg/complete.h), over bg/ledger.
 */
#include "bg/complete.h"

#include "bg/ledger.h"

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
	/* One fixed word: the '|' makes it one (term/complete.h). */
	{ "adjust", "team DICE=|...", NULL },
	{ "show", "", NULL },
	{ "games", "", NULL },
	{ NULL, NULL, complete_log_cmds }
};

static const struct complete_value values[] = {
	{ "file", "file" },
	{ "stat", COLOUR },
	{ "att-stat", COLOUR },
	{ "def-stat", COLOUR },
	{ "release", "figure" },
	{ "reason", "-" },
	{ NULL, NULL }
};

/*
 * The options of bg-board's commands; the others (--db, --game, --gm,
 * --json, --csv) go with every one.  bg-board refuses an option by this
 * table and completes by it.
 */
static const struct complete_takes takes[] = {
	{ "file", "team" },
	{ "advanced", "new" },
	{ "safe-attack", "new" },
	{ "plain", "show" },
	{ "seed", "move" },
	{ "dry-run", "undo" },
	{ "reason", "adjust" },
	{ "swap", "die" },
	{ "roll", "move" },
	{ "vs-roll", "move" },
	{ "stat", "move" },
	{ "att-stat", "move" },
	{ "def-stat", "move" },
	{ "stat-roll", "move" },
	{ "release", "move" },
	{ "release-to", "move" },
	{ "return", "move" },
	{ NULL, NULL }
};

/* Teams, and the figures of the game --game names, else of its GM's. */
static const struct complete_list lists[] = {
	{ "team", bgledger_team_names, NULL },
	{ "figure", NULL, bgledger_game_figures },
	{ NULL, NULL, NULL }
};

const struct complete_tool bgcomplete_board = {
	.cmds = cmds,
	.values = values,
	.takes = takes,
	.log = &bgledger_kind,
	.lists = lists,
};
