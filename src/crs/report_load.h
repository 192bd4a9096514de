/*
 * crs/report_load.h - the organiser's report (crs/report.h) loaded from
 * the combats' ledgers (crs/ledger.h), for crs-combat report and for
 * refkit serve's day figures (kinds/kinds.h).
 */
#ifndef REFKIT_CRS_REPORT_LOAD_H
#define REFKIT_CRS_REPORT_LOAD_H

#include "db/db.h"
#include "crs/report.h"

/*
 * The organiser's report's figures (crs/report.h): every character's
 * history since r->since and every combat begun since, added to r
 * (report_init'ed by the caller) in the caller's read transaction, then
 * finished (report_finish).  Each combat is replayed into a report of
 * its own, merged into r (report_merge); with a cache (not NULL), those
 * are kept, and a combat whose last event is the one it had the last
 * time is not loaded or replayed again (refkit serve's day figures,
 * added up again as play goes on).  Returns 0, or -1 when a combat
 * listed cannot be loaded.
 */
struct ledger_report_cache;
struct ledger_report_cache *ledger_report_cache_new(void);
void ledger_report_cache_free(struct ledger_report_cache *c);
int ledger_report(struct db *db, struct report *r,
    struct ledger_report_cache *c);

#endif
