/*
 * resolve.h - resolution files: a choice for each record in conflict,
 * one a line, read by --resolve, and the template --resolutions-out
 * writes from a report (refkit(1), issue #21).
 *
 * A line is "TABLE KEY CHOICE": a table whose records travel, the
 * record's key as the conflict report prints it (a JSON object; spaces
 * and tabs outside its strings do not count), and mine, theirs or ask.
 * Blank lines and lines whose first character that is not a space is
 * '#' are passed over.  A line names a record, not a conflict: its
 * choice answers every conflict the changes meet on that record, as
 * --prefer would for that record alone.  ask makes no choice.
 */
#ifndef REFKIT_RESOLVE_H
#define REFKIT_RESOLVE_H

#include <stddef.h>
#include <stdio.h>

#include "db/db.h"
#include "sync/conflict.h"

struct resolve_line {
	char		*table;
	char		*key;		/* as the report prints it */
	enum exchange_prefer choice;	/* EXCHANGE_ASK for ask */
	long		 line;		/* from 1 */
	size_t		 matched;	/* conflicts it was asked about */
};

struct resolve {
	char		*file;		/* the name, for messages */
	struct resolve_line *l;		/* in the file's order */
	size_t		 n;
	struct resolve_line **by_key;	/* l, by table and key */
};

/*
 * Reads a resolution file from fp, named name in messages.  Returns a
 * resolution set the caller frees with resolve_free, or NULL with why
 * set to "NAME:LINE: what is wrong" for a bad line (a missing field, a
 * key that is not a JSON object, a choice other than mine, theirs or
 * ask, a record named twice) or "NAME: why" for a read error.
 */
struct resolve *resolve_read(FILE *fp, const char *name, char *why,
    size_t whysz);

/*
 * resolve_read of the file at path; why says so too when it cannot be
 * opened.
 */
struct resolve *resolve_load(const char *path, char *why, size_t whysz);

/*
 * Checks that every table the lines name is one of db's that travel
 * between stations.  Returns 0, or -1 with why set as resolve_read
 * does.  Reads only, outside any transaction.
 */
int resolve_check(const struct resolve *r, struct db *db, char *why,
    size_t whysz);

/*
 * The line that names the record of table with key (as the report
 * prints it), or NULL.  The line is r's.
 */
struct resolve_line *resolve_find(struct resolve *r, const char *table,
    const char *key);

void resolve_free(struct resolve *r);

/*
 * Writes the resolution template of the n conflicts c to the file at
 * path, which appears whole or not at all: a line for each record in
 * conflict that a line can name, after comment lines telling its
 * conflicts, with the choice the resolution file (file, or NULL: none)
 * made for it if that settled them all, else ask.  A record in several
 * conflicts gets one line.  Returns 0, or -1 with why set.
 */
int resolve_template(const char *path, const struct exchange_conflict *c,
    size_t n, const char *file, char *why, size_t whysz);

#endif
