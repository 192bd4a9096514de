/*
 * kinds.c - every kind of log refkit keeps (kinds.h).
 */
#include "kinds/kinds.h"

#include <stddef.h>
#include <string.h>

#include "bg/ledger.h"
#include "bg/watch.h"
#include "crs/ledger.h"
#include "crs/watch.h"
#include "d6/ledger.h"
#include "fb/ledger.h"
#include "fb/watch.h"

const struct journal_kind *const kinds_all[] = {
	&ledger_kind, &fbledger_kind, &bgledger_kind, NULL
};

const struct watch_board *const kinds_boards[] = {
	&crswatch_board, &fbwatch_board, &bgwatch_board, NULL
};

const struct seal_checker kinds_seals[] = {
	{ "combat", ledger_seal_check, NULL },
	{ "duel", NULL, &fbledger_rules },
	{ "game", NULL, &bgledger_rules },
	{ "rolls", d6ledger_seal_check, NULL },
};
const size_t kinds_nseals = sizeof kinds_seals / sizeof kinds_seals[0];

const struct journal_kind *
kinds_find(const char *what)
{
	for (size_t i = 0; kinds_all[i] != NULL; i++)
		if (strcmp(kinds_all[i]->what, what) == 0)
			return kinds_all[i];
	return NULL;
}

const struct watch_board *
kinds_board(const char *what)
{
	for (size_t i = 0; kinds_boards[i] != NULL; i++)
		if (strcmp(kinds_boards[i]->kind->what, what) == 0)
			return kinds_boards[i];
	return NULL;
}
