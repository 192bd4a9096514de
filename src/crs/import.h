/*
 * import.h - reading a roster file (CSV with a header row, or a JSON array
 * of objects) into character sheets, one record at a time, with errors
 * that name the file, the line or array index, and the field.  It reads;
 * what becomes of each sheet is the caller's.
 */
#ifndef REFKIT_IMPORT_H
#define REFKIT_IMPORT_H

#include <stdio.h>

#include "crs/sheet.h"

enum import_format { IMPORT_AUTO, IMPORT_CSV, IMPORT_JSON };

/*
 * Called once per record with the sheet read from it and, in present[],
 * which fields the file gives for it, and where it is ("line 12", "index
 * 3"; valid during the call), for a refusal found later.  Returns NULL to
 * go on, or a newly allocated message (without the location, which
 * import_run adds) to stop.  The sheet is the callback's to keep or
 * release.
 */
typedef char *(*import_row_fn)(void *ctx, struct sheet *sh,
    const unsigned char present[SHEET_F_COUNT], const char *where);

/*
 * Reads fp (named file in messages) to the end.  IMPORT_AUTO takes JSON
 * when the first non-blank byte is '[', else CSV.  Returns NULL after the
 * last record, or a newly allocated message such as
 * "roster.csv: line 3: 'STR' must be a whole number from 0 to 1000,
 * got '-3'" at the first error.  When progress is set, a running count
 * goes to stderr.
 */
char *import_run(FILE *fp, const char *file, enum import_format fmt,
    int progress, import_row_fn row, void *ctx);

#endif
