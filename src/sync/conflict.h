/*
 * conflict.h - a conflict that applying another station's changes meets
 * (exchange.h), and the choices that settle one: what exchange records
 * and reports, and what a resolution file (resolve.h) names.
 */
#ifndef REFKIT_CONFLICT_H
#define REFKIT_CONFLICT_H

#include <stdint.h>

#include "sync/station.h"

enum exchange_prefer {
	EXCHANGE_ASK,		/* every conflict stays one */
	EXCHANGE_MINE,		/* keep this station's version */
	EXCHANGE_THEIRS		/* take the incoming version */
};

struct resolve_line;
struct sqlite3_value;

/*
 * One conflict, for the report.  The strings are owned, but for the
 * static kind and no_theirs, and by, which is the resolution set's.
 */
struct exchange_conflict {
	char		*table;
	const char	*kind;		/* static: see exchange.c */
	char		 origin[STATION_ID_LEN + 1];
	int64_t		 oseq;
	char		*key;		/* JSON object: the primary key */
	char		*mine;		/* JSON object, or NULL: here */
	char		*theirs;	/* JSON object, or NULL: incoming */
	const char	*no_theirs;	/* why only mine can settle it */
	enum exchange_prefer choice;	/* the choice it met, if any */
	const struct resolve_line *by;	/* whose: a line, or NULL: prefer */
	int		 settled;	/* by that choice */
	char		*name;		/* the record's name, or NULL */
	char		*fields;	/* what differs, for people, or NULL */
	char		*columns;	/* JSON array: those columns' names */
	/* Private: the record and its columns in conflict, for the end. */
	int		 ncol;
	struct sqlite3_value **pk;	/* ncol entries, NULL off the key */
	int		*cols;		/* ncols column numbers */
	int		 ncols;
};

#endif
