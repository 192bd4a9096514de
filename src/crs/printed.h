/*
 * crs/printed.h - a CRS character as its printed sheet shows it
 * (crs/page.h), loaded from the roster in the caller's read: the parts
 * of paper/sheetrun.h's table that crs-stats sheets and verify-sheet
 * use, and that refkit serve uses to check a sheet's code on a
 * character's page (kinds/kinds.h).
 */
#ifndef REFKIT_CRS_PRINTED_H
#define REFKIT_CRS_PRINTED_H

#include "db/db.h"
#include "paper/page.h"
#include "crs/item.h"
#include "crs/page.h"
#include "crs/sheet.h"

struct crsprinted {
	struct sheet		 sh;
	struct item		*items;
	struct power		*powers;
	struct crspage_char	 c;	/* over the fields above */
};

/* Calls fn with the name of every character, in any order. */
void crsprinted_names(struct db *db, void (*fn)(void *, const char *),
    void *arg);
/*
 * The character called name, which exists (else exits 1 through the
 * roster's refusal), its secondary stats rounded as *(enum
 * stats_rounding *)rounding says; a struct crsprinted, released by
 * crsprinted_release.
 */
void *crsprinted_load(struct db *db, const char *name, void *rounding);
void crsprinted_release(void *printed);
/* Its sheet's code under the key of station_id (crspage_code). */
void crsprinted_code(const void *printed, const char *station_id,
    char code[PAGE_CODE_LEN + 1]);

#endif
