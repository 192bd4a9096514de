/*
 * fb/complete.c - what fb-duel completes (fb/complete.h), over fb/ledger.
 * fb-duel parses its own options: they are listed here, as its usage
 * gives them (tests/complete.sh checks that every one is offered).
 */
#include "fb/complete.h"

#include "fb/ledger.h"

#define GEAS	"push|pull|jump|sight|speed|hide|mind-trick|heal|protect|" \
		"absorb|lightning|rage|choke"

static const struct complete_cmd sheet_cmds[] = {
	{ "add", "", NULL },
	{ "set", "duelist", NULL },
	{ "show", "duelist", NULL },
	{ "list", "", NULL },
	{ "rm", "duelist", NULL },
	{ NULL, NULL, NULL }
};

static const struct complete_cmd board_cmds[] = {
	{ "list", "", NULL },
	{ "show", "board", NULL },
	{ "add", "- file", NULL },
	{ NULL, NULL, NULL }
};

static const struct complete_cmd cmds[] = {
	{ "sheet", NULL, sheet_cmds },
	{ "board", NULL, board_cmds },
	{ "start", "duelist duelist", NULL },
	{ "stance", "duelist", NULL },
	{ "init", "", NULL },
	{ "target", "", NULL },
	{ "round", "", NULL },
	{ "geas", "fighter " GEAS, NULL },
	{ "restance", "fighter", NULL },
	{ "adjust", "fighter ATT=|DEF=|POOL=...", NULL },
	{ "status", "", NULL },
	{ "history", "duelist", NULL },
	{ "sim", "duelist duelist", NULL },
	{ "sheets", "duelist...", NULL },
	{ "verify-sheet", "", NULL },
	{ NULL, NULL, complete_log_cmds }
};

/* fb-duel's own options and a round's, which take a value... */
static const char *const own_opts[] = {
	"db", "seed", "duel", "gm", "side", "hand", "colour", "level", "free-geas",
	"board", "notes", "spheres", "absorb", "n", "max-rounds", "jobs",
	"output", "paper", "per-page", "reason", NULL
};
static const char *const round_opts[] = {
	"init", "choose", "target-die", "move", "pull", "hit", "block",
	"damage", "gain", "choke-die", "place", "return", "geas",
	"after-hit", NULL
};
static const char *const *const opts[] = { own_opts, round_opts, NULL };

/* ... and those that take none. */
static const char *const flag_names[] = {
	"json", "csv", "clear", "dry-run", "pass", "kick", "gain-from-foe",
	"help", "version", "all", NULL
};
static const char *const *const flags[] = { flag_names, NULL };

static const struct complete_value values[] = {
	{ "side", "light|dark" },
	{ "hand", "left|right" },
	{ "colour", "green|orange|blue|red|purple|yellow" },
	{ "level", "learner|initiate|templar|diamedes" },
	{ "free-geas", GEAS },
	{ "board", "board" },
	{ NULL, NULL }
};

/* A round's steps, which all take a round's options (fb-duel(1)). */
#define STEPS	"init target round"

/*
 * The options of fb-duel's commands; the others (--db, --duel, --gm,
 * --seed, --json, --csv) go with every one.  fb-duel refuses an option
 * by this table and completes by it.
 */
static const struct complete_takes takes[] = {
	{ "side", "sheet" },
	{ "hand", "sheet" },
	{ "colour", "sheet" },
	{ "level", "sheet" },
	{ "free-geas", "sheet" },
	{ "board", "sheet" },
	{ "notes", "sheet" },
	{ "clear", "sheet stance" },
	{ "spheres", "geas" },
	{ "absorb", "geas " STEPS },
	{ "n", "sim" },
	{ "max-rounds", "sim" },
	{ "jobs", "sim" },
	{ "output", "sheets" },
	{ "paper", "sheets" },
	{ "per-page", "sheets" },
	{ "all", "sheets" },
	{ "dry-run", "undo" },
	{ "reason", "adjust" },
	{ "init", STEPS },
	{ "choose", STEPS },
	{ "target-die", STEPS },
	{ "move", STEPS },
	{ "pull", STEPS },
	{ "hit", STEPS },
	{ "block", STEPS },
	{ "damage", STEPS },
	{ "gain", STEPS },
	{ "choke-die", STEPS },
	{ "place", STEPS },
	{ "return", STEPS },
	{ "geas", STEPS },
	{ "after-hit", STEPS },
	{ "pass", STEPS },
	{ "kick", STEPS },
	{ "gain-from-foe", STEPS },
	{ NULL, NULL }
};

/*
 * Duelists and boards, and the two of the duel --duel names, else of
 * its GM's.
 */
static const struct complete_list lists[] = {
	{ "duelist", fbledger_duelist_names, NULL },
	{ "board", fbledger_board_each, NULL },
	{ "fighter", NULL, fbledger_duel_names },
	{ NULL, NULL, NULL }
};

const struct complete_tool fbcomplete_duel = {
	.cmds = cmds,
	.opts = opts,
	.flags = flags,
	.values = values,
	.takes = takes,
	.shared_values = complete_sheet_values,
	.log = &fbledger_kind,
	.lists = lists,
};
