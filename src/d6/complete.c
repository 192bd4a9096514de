/*
 * d6/complete.c - what d6-roll completes (d6/complete.h), over d6/chart's
 * lists and d6/ledger.
 */
#include "d6/complete.h"

#include "db/db.h"
#include "d6/chart.h"
#include "d6/ledger.h"

#include <string.h>

/*
 * The charts' keys, which need no database, and the traits of the
 * character named before the trait ("NAME TRAIT", "char roll NAME
 * TRAIT").
 */
static void
names(struct complete *c, const char *kind)
{
	struct db *db;
	const struct d6_table *t;
	const struct d6_weapon *w;
	const struct d6_action *a;

	if (strcmp(kind, "table") == 0)
		for (size_t i = 0; (t = d6chart_table_at(i)) != NULL; i++)
			complete_name(c, t->key);
	else if (strcmp(kind, "weapon") == 0)
		for (size_t i = 0; (w = d6chart_weapon_at(i)) != NULL; i++)
			complete_name(c, w->key);
	else if (strcmp(kind, "saber") == 0)
		for (size_t i = 0; (a = d6chart_saber_at(i)) != NULL; i++)
			complete_name(c, a->key);
	else if (strcmp(kind, "martial") == 0)
		for (size_t i = 0; (a = d6chart_martial_at(i)) != NULL; i++)
			complete_name(c, a->key);
	else if (strcmp(kind, "trait") == 0 && complete_word(c, -1) != NULL &&
	    (db = complete_db(c)) != NULL)
		d6ledger_trait_names(db, complete_word(c, -1), complete_name,
		    c);
}

#define POINTS	"cp=|fp=|dsp=|notes="

static const struct complete_cmd char_cmds[] = {
	{ "add", "- " POINTS "...", NULL },
	{ "set", "character " POINTS "...", NULL },
	{ "show", "character", NULL },
	{ "rm", "character", NULL },
	{ "list", "", NULL },
	{ "roll", "character trait", NULL },
	{ "sheets", "character...", NULL },
	{ "verify-sheet", "", NULL },
	{ NULL, NULL, NULL }
};

static const struct complete_cmd cmds[] = {
	{ "odds", "", NULL },
	{ "damage", "", NULL },
	{ "table", "table", NULL },
	{ "weapon", "weapon", NULL },
	{ "saber", "saber", NULL },
	{ "martial", "martial", NULL },
	{ "char", NULL, char_cmds },
	{ NULL, NULL, NULL }
};

#define DIFFICULTY "very-easy|easy|moderate|difficult|very-difficult|heroic"

static const struct complete_value values[] = {
	{ "vs", DIFFICULTY },
	{ "wild-one", "complication|drop|none" },
	{ "chart", "human|starship|vehicle" },
	{ "armor", "light|heavy" },
	{ NULL, NULL }
};

static const struct complete_list lists[] = {
	{ "character", d6ledger_names, NULL },
	{ NULL, NULL, NULL }
};

const struct complete_tool d6complete_roll = {
	.cmds = cmds,
	/* d6-roll CODE, or a character's roll: NAME TRAIT. */
	.bare = "character trait",
	.values = values,
	.shared_values = complete_sheet_values,
	.lists = lists,
	.names = names,
};
