/*
 * kinds.c - every kind of log refkit keeps (kinds.h).
 */
#include "kinds/kinds.h"

#include <stddef.h>

#include "bg/bgledger.h"
#include "crs/ledger.h"
#include "fb/fbledger.h"

const struct journal_kind *const kinds_all[] = {
	&ledger_kind, &fbledger_kind, &bgledger_kind, NULL
};
