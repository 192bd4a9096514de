/*
 * exchange.h - changes between stations (issue #21; refkit(1), refkit(7)).
 *
 * Every write of every tool stores its changes as one row of the change
 * table (db.c).  Exporting writes rows of it as a changes file
 * (changes.h); applying replays another station's rows through SQLite's
 * changeset_apply and appends them to this station's change table, so
 * that they travel on from here too.  A change already here (the same
 * origin and oseq) is passed over, which makes applying idempotent, and
 * since a log is appended to only at the station that started it, the
 * ledgers arrive the same in any order.
 *
 * What can clash is the roster: the same named record made, changed or
 * removed at two stations.  Every change carries what its station had
 * seen (gone.h), so that of two changes of one field, one may be known
 * to come after the other: the later wins, silently, in whichever order
 * they arrive, and a station that already holds what comes takes it
 * quietly too.  Only two changes made without knowing of each other,
 * to different values, conflict; their settlement is recorded as a
 * change of the settling station, made knowing of both, which thus
 * wins over both wherever it goes (exchange_finish).  Two versions
 * that differ in nothing but their created and updated times are the
 * same record, which keeps the earliest created and the latest updated
 * of every version met without knowing of the others, so that
 * stations agree whatever order the changes come in; a version made
 * knowing of every change that wrote a time here gives its own.  A record changed here knowing of a version made the
 * way it comes is the same record too: what comes is older than what is
 * here.  A removal wins over a copy made without knowing of it, as the
 * gate has it (gone.h), at the station that made the copy too; and a
 * change made without knowing of a removal is in conflict with it even
 * where the record was made again since, knowing of the removal: it
 * was made to the record removed.
 * Anything else is a conflict: applying records it and goes on, so that
 * one run reports them all, and the caller then rolls the transaction
 * back, unless a choice settles them (mine: keep what is here; theirs:
 * take what comes, where SQLite can): the line of a resolution file
 * that names the record (resolve.h), else the preference.
 */
#ifndef REFKIT_EXCHANGE_H
#define REFKIT_EXCHANGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sync/changes.h"
#include "sync/conflict.h"
#include "db/db.h"


struct dbapply;
struct resolve;


/*
 * The rows of one table that the changes write, as the values the query
 * rows finds for them (given the rowids ?1 to ?2): for each kind of log
 * whose events came, the logs they belong to (core/journal.h, merged).
 * all is set when the changes removed or changed such a row, whose old
 * value is gone: then everything the values stand for is to be looked
 * at again.
 */
struct exchange_watch {
	const char	*table;
	const char	*rows;
	int64_t		*values;	/* see exchange_watched */
	size_t		 nvalues, capvalues;
	int		 all;
	/* Private: rowids written, lo and hi pairs. */
	int64_t		*runs;
	size_t		 nruns, capruns;
};
#define EXCHANGE_WATCH_MAX	8

struct exchange_apply {
	enum exchange_prefer prefer;
	struct resolve	*resolve;	/* per record, before prefer; or NULL */
	/* The tables watched (exchange_watch), and what they found. */
	struct exchange_watch watch[EXCHANGE_WATCH_MAX];
	size_t		 nwatch;
	int64_t		 entries;	/* read */
	int64_t		 applied;	/* new here */
	int64_t		 known;		/* here already */
	int64_t		 same;		/* rows found the same at both */
	int64_t		 passed;	/* inserts passed over (gone.h) */
	int64_t		 superseded;	/* conflicts a later change settled */
	int64_t		 settlement;	/* this station's change that records
					   the conflicts settled, or 0 */
	struct exchange_conflict *c;
	size_t		 nc, capc;
	size_t		 open;		/* conflicts not settled */
	/* Private. */
	void		*cols;
	void		*stamps;	/* times to set after a changeset */
	void		*patches;	/* values to set after a changeset */
	size_t		 npatches, cappatches;
	size_t		 nstamps, capstamps;
	int		 dangling;	/* references to records not here */
	int64_t		*runs;		/* rowids written: lo, hi pairs */
	size_t		 nruns, capruns;
	const char	*origin;
	int64_t		 oseq;
	char		 known_origin[STATION_ID_LEN + 1]; /* made known */
	void		*gate;		/* the gates, once set */
	struct dbapply	*dbapply;	/* on PostgreSQL (sync/dbapply.h) */
};

void exchange_apply_init(struct exchange_apply *a, enum exchange_prefer p);
void exchange_apply_release(struct exchange_apply *a);

/*
 * Writes this station's change rows numbered above since to fp as a
 * changes file; *n is how many, *to the highest number (the mark to
 * give --since next time).  Returns 0, or -1 with why set.  Reads only:
 * the caller holds a read transaction.
 */
int exchange_export(struct db *db, FILE *fp, int64_t since, int64_t *n,
    int64_t *to, char *why, size_t whysz);

/*
 * Makes sure the station id (named name, or its first 8 digits when
 * name is NULL; made at created, or when 0 now: its first change
 * brings the time it was made, and its name then) is known here.  Returns 0, or -1 with why set when
 * another station here has its tag (their keys would clash).
 */
int exchange_station(struct db *db, const char *id, const char *name,
    int64_t created, char *why, size_t whysz);

/*
 * Applies one entry, inside the caller's write transaction (made with
 * db->unrecorded set).  Returns 0, or -1 with why set on a failure that
 * is not a conflict (the caller rolls back).
 */
int exchange_apply_entry(struct db *db, struct exchange_apply *a,
    const struct changes_entry *e, char *why, size_t whysz);

/*
 * Applies every entry of the changes file fp, whose writer must be at
 * this database's schema.  Returns 0, or -1 with why set.
 */
int exchange_apply_file(struct db *db, FILE *fp, struct exchange_apply *a,
    char *why, size_t whysz);

/*
 * Applies every change the database other has, in its order of arrival
 * there, as exchange_apply_file would from other's export but without
 * the file: other's station is made known here, and each row of its
 * record of changes is applied as it is read.  The caller holds a read
 * transaction on other and the write transaction here.  Returns 0, or
 * -1 with why set.
 */
int exchange_merge(struct db *db, struct db *other, struct exchange_apply *a,
    char *why, size_t whysz);

/*
 * Ends the applying of changes, in the caller's write transaction: a
 * conflict that a change taken in after it settled (one made knowing
 * of the change in conflict, whose values the record now holds) is no
 * longer one, and leaves the list; then, if none is left open, the
 * answers to those settled here are recorded as this station's own
 * next change (a->settlement), each record as it now is, so that they
 * travel on and every station that takes them ends alike.
 */
void exchange_finish(struct db *db, struct exchange_apply *a);

/*
 * Watches table's rows (before the first change is applied): returns
 * its place in a->watch, whose values exchange_watched gives.  rows is
 * the caller's, and lasts.
 */
size_t exchange_watch(struct exchange_apply *a, const char *table,
    const char *rows);

/*
 * Leaves in each of a->watch the values its query gives for the rows of
 * its table that the changes applied so far inserted, each once, in
 * order.  Reads db, in the applying transaction.
 */
void exchange_watched(struct db *db, struct exchange_apply *a);

/* Writes the conflicts: for people, or as a JSON array. */
void exchange_report(FILE *fp, const struct exchange_apply *a, int json);

#endif
