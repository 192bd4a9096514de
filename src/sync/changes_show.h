/*
 * changes_show.h - what a changes file (changes.h) holds, written out
 * for people or as one JSON document (refkit changes show): its header,
 * then each entry and each row its changeset inserts, updates or
 * deletes.  No refkit database is needed: a changeset names its tables
 * but not their columns, which are taken from this build's schema when
 * the file was written at the same one, and are c1, c2 ... otherwise.
 */
#ifndef REFKIT_CHANGES_SHOW_H
#define REFKIT_CHANGES_SHOW_H

#include <stddef.h>
#include <stdio.h>

#include <sqlite3.h>

#include "base/out.h"

/*
 * Reads the changes file in (from its position to its end) and writes
 * what it holds to out: as JSON when fmt is OUT_JSON, else as text.
 * The whole file is read and checked before anything is written, so
 * that a refused file leaves out untouched.  Returns 0, or -1 with why
 * set (the reader's reason, to which the caller adds the file's name).
 * Neither FILE is closed, and a failed write to out is for the caller
 * to find (util_check_stdout).
 */
int changes_show(FILE *in, FILE *out, enum out_format fmt, char *why,
    size_t whysz);

/*
 * Writes one value of a changeset as changes_show does: as JSON when
 * json is set, else as SQL-like text, shortened; NULL v is "?".
 */
void changes_put_value(FILE *fp, sqlite3_value *v, int json);

#endif
