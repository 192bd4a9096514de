/*
 * crs/complete.c - what crs-stats, crs-draw and crs-combat complete
 * (term/complete.h): the words each command takes, and the roster's and
 * a combat's names.  Over the stores: roster and ledger.
 */
#include "crs/complete.h"

#include "db/db.h"
#include "crs/ledger.h"
#include "crs/roster.h"

#include <string.h>

/* The fields a sheet takes as KEY=VALUE (crs-stats(1)). */
#define PRIMARY	"ENE=|STR=|INT=|CUN=|AGI=|CON=|CHA=|LUC=|LEVEL="
#define FIELDS	PRIMARY "|OR=|DR=|MIND=|LIFE=|IN=|EM=|LB=|player=|notes="

/* The roster's names. */
static void
names(struct complete *c, const char *kind)
{
	static const struct {
		const char		*kind;
		enum roster_table	 table;
	} roster[] = {
		{ "character", ROSTER_CHARACTER },
		{ "item", ROSTER_ITEM },
		{ "power", ROSTER_POWER },
		{ "item-or-power", ROSTER_ITEM_OR_POWER },
	};
	struct db *db;

	for (size_t i = 0; i < sizeof roster / sizeof roster[0]; i++)
		if (strcmp(kind, roster[i].kind) == 0 &&
		    (db = complete_db(c)) != NULL)
			roster_names(db, roster[i].table, complete_name, c);
}

static const struct complete_cmd stats_item[] = {
	{ "add", "- or=|dr=|mind=|pick=|offense=|defense=|range=|use=|"
	    "full-or=|notes=...", NULL },
	{ "set", "item or=|dr=|mind=|pick=|offense=|defense=|range=|use=|"
	    "full-or=|notes=...", NULL },
	{ "rm", "item", NULL },
	{ "list", "", NULL },
	{ NULL, NULL, NULL }
};

static const struct complete_cmd stats_power[] = {
	{ "add", "- em=|picks=|bonus=|target=|defend=|notes=...", NULL },
	{ "set", "power em=|picks=|bonus=|target=|defend=|notes=...", NULL },
	{ "rm", "power", NULL },
	{ "list", "", NULL },
	{ NULL, NULL, NULL }
};

static const struct complete_cmd stats_cmds[] = {
	{ "calc", PRIMARY "...", NULL },
	{ "add", "- " FIELDS "...", NULL },
	{ "set", "character " FIELDS "...", NULL },
	{ "rm", "character", NULL },
	{ "show", "character", NULL },
	{ "list", "", NULL },
	{ "item", NULL, stats_item },
	{ "power", NULL, stats_power },
	{ "give", "character item-or-power", NULL },
	{ "take", "character item-or-power", NULL },
	{ "import", "file", NULL },
	{ "export", "", NULL },
	{ "sheets", "character...", NULL },
	{ "verify-sheet", "", NULL },
	{ NULL, NULL, NULL }
};

static const struct complete_value stats_values[] = {
	{ "rounding", "whole|per-term" },
	{ "format", "csv|json" },
	{ NULL, NULL }
};

const struct complete_tool crscomplete_stats = {
	.cmds = stats_cmds,
	.values = stats_values,
	.shared_values = complete_sheet_values,
	.names = names,
};

static const struct complete_cmd draw_cmds[] = {
	{ "pick", "", NULL },
	{ "odds", "", NULL },
	{ "versus", "character character", NULL },
	{ NULL, NULL, NULL }
};

static const struct complete_value draw_values[] = {
	{ "svg", "file" },
	{ NULL, NULL }
};

const struct complete_tool crscomplete_draw = {
	.cmds = draw_cmds,
	.values = draw_values,
	.names = names,
};

static const struct complete_cmd combat_cmds[] = {
	{ "start", "character...", NULL },
	{ "join", "character", NULL },
	{ "stance", "fighter", NULL },
	{ "init", "fighter=...", NULL },
	{ "attack", "fighter fighter", NULL },
	{ "mental", "fighter fighter...", NULL },
	{ "power", "fighter power fighter...", NULL },
	{ "range", "fighter fighter - ...", NULL },
	{ "flee", "fighter", NULL },
	{ "charge", "fighter fighter=...", NULL },
	{ "blow", "fighter fighter", NULL },
	{ "swap", "fighter item", NULL },
	{ "pass", "fighter", NULL },
	{ "round", "", NULL },
	{ "end", "", NULL },
	{ "dead", "fighter", NULL },
	{ "adjust", "fighter LIFE=|EM=...", NULL },
	{ "status", "", NULL },
	{ "history", "", NULL },
	{ "report", "", NULL },
	{ NULL, NULL, complete_log_cmds }
};

static const struct complete_value combat_values[] = {
	{ "rules", "crs|avatar" },
	{ "kind", "attack|suggestion|intimidation|coercion" },
	{ "item", "item" },
	{ "vs-item", "item" },
	{ "char", "character" },
	{ "melee-hit", "fighter" },
	{ "react", "fighter" },
	{ "catch", "fighter=" },
	{ "let", "fighter" },
	{ "output", "file" },
	{ "reason", "-" },
	{ NULL, NULL }
};

/*
 * The options of crs-combat's commands; the others (--db, --combat,
 * --gm, --seed, --json, --csv) go with every one.  crs-combat refuses an
 * option by this table, in this order, and completes by it.
 */
static const struct complete_takes combat_takes[] = {
	{ "long", "attack" },
	{ "use", "attack mental" },
	{ "card", "attack mental power flee" },
	{ "vs-card", "attack mental power" },
	{ "vs-special", "attack mental power" },
	{ "mod", "attack mental power flee" },
	{ "vs-mod", "attack mental power" },
	{ "kind", "mental" },
	{ "agreed", "end" },
	{ "char", "history" },
	{ "since", "history report" },
	{ "output", "report" },
	{ "rules", "start" },
	{ "lockout", "start" },
	{ "item", "attack mental" },
	{ "vs-item", "attack mental power" },
	{ "skill", "attack mental power flee" },
	{ "vs-skill", "attack mental power" },
	{ "free", "attack swap" },
	{ "surprise", "attack mental" },
	{ "melee-hit", "attack" },
	{ "react", "attack mental power" },
	{ "react-base", "attack mental power" },
	{ "react-need", "attack mental power" },
	{ "react-card", "attack mental power" },
	{ "em", "power" },
	{ "catch", "flee" },
	{ "let", "flee charge" },
	{ "dry-run", "undo" },
	{ "reason", "adjust attack mental power pass flee charge blow swap" },
	{ "out-of-turn", "attack mental power pass flee charge blow swap" },
	{ NULL, NULL }
};

/* The fighters of the combat --combat names, else of its GM's. */
static const struct complete_list combat_lists[] = {
	{ "fighter", NULL, ledger_fighters },
	{ NULL, NULL, NULL }
};

const struct complete_tool crscomplete_combat = {
	.cmds = combat_cmds,
	.values = combat_values,
	.takes = combat_takes,
	.log = &ledger_kind,
	.lists = combat_lists,
	.names = names,
};
