/*
 * station.h - which station a database is.  Every refkit database is a
 * station: a place where records are made, known by 128 random bits
 * made when the database was created and by a name for people.  The
 * stations a database has received records from are known to it too.
 * See refkit(1) and refkit.db(5).
 */
#ifndef REFKIT_STATION_H
#define REFKIT_STATION_H

#include <stdint.h>

#include "db/db.h"

/* Hex digits of a station id. */
#define STATION_ID_LEN	32

struct station {
	char	 id[STATION_ID_LEN + 1];
	char	*name;			/* owned */
	int64_t	 created;		/* Unix time, seconds */
	int	 self;			/* 1 for this database's own */
};

/* This database's own station; release with station_release. */
void station_self(struct db *db, struct station *s);

/*
 * Every station the database knows, its own first, then by name; fn is
 * called with each (valid for the call only).
 */
void station_each(struct db *db, void (*fn)(void *, const struct station *),
    void *arg);

/*
 * Renames this database's station, in the caller's write transaction.
 * Returns 0, or -1 with why set when the name is not a station name.
 */
int station_rename(struct db *db, const char *name, char *why,
    size_t whysz);

void station_release(struct station *s);

#endif
