/*
 * roster.h - characters, items and powers in the database: the SQL side
 * of crs-stats and of every tool that reads a character sheet.  Writers
 * run inside a transaction the caller opens with db_begin, except the
 * bulk import (roster_import_*), which opens its own.
 */
#ifndef REFKIT_ROSTER_H
#define REFKIT_ROSTER_H

#include <stddef.h>
#include <stdint.h>

#include "db/db.h"
#include "crs/item.h"
#include "crs/sheet.h"

/* Results of the roster calls. */
enum roster_result {
	ROSTER_OK,
	ROSTER_NOT_FOUND,	/* no such character, item or power */
	ROSTER_EXISTS,		/* the name is taken */
	ROSTER_NO_ITEM,		/* a held item does not exist (*missing) */
	ROSTER_NO_POWER,	/* a known power does not exist (*missing) */
	ROSTER_TWICE		/* an import names a character twice */
};

enum roster_mode {
	ROSTER_INSERT,		/* a new character; ROSTER_EXISTS if taken */
	ROSTER_UPSERT,		/* new, or replacing the one of that name */
	ROSTER_UPDATE		/* the character with the given id */
};

/* Prepared statements kept for many writes in one transaction. */
struct roster_writer {
	struct db	*db;
	int64_t		 now;		/* Unix time of this command */
	int64_t		 last_id;	/* the character roster_write wrote */
	struct db_stmt *st[10];	/* indexed by roster.c's W_* */
};

/* Prepares; roster_writer_release finalizes. */
void roster_writer_init(struct roster_writer *w, struct db *db);
void roster_writer_release(struct roster_writer *w);

/*
 * Writes sh.  With holdings set, the character's items and powers become
 * exactly sh's lists; otherwise they are left as they are.  On
 * ROSTER_NO_ITEM or ROSTER_NO_POWER, *missing points at the name in sh.
 */
enum roster_result roster_write(struct roster_writer *w,
    const struct sheet *sh, enum roster_mode mode, int64_t id,
    int holdings, const char **missing);

/*
 * A bulk import that holds the database's write lock only for a short
 * last step, so that other GMs' commands are not kept waiting while a
 * large file is read.
 *
 * roster_import_stage checks each sheet against the roster with plain
 * reads and keeps it, with the names of what it holds, in a private
 * database attached to the same connection: writing that takes no lock
 * on the database file.
 * roster_import_commit then takes the write lock (BEGIN IMMEDIATE),
 * checks again, set-based, what may have changed since (a name added, an
 * item or power removed), writes every staged sheet and holding with a
 * few INSERT ... SELECT statements and commits.  Either every sheet is
 * written or none.
 *
 * On a PostgreSQL server the sheets are kept sorted by key, and go by
 * COPY into a temporary table of the connection's (db_bulk_exclusive), or
 * into an empty roster straight into character: staging then refuses
 * nothing, and every check it makes on SQLite is made by the commit,
 * set-based, finding the same first row at fault (or by
 * roster_import_check when the reader stops at an error).
 *
 * The caller opens no transaction of its own around any of it, and
 * reads nothing through db between init and release but these calls:
 * staging keeps a read transaction open, whose view may be stale.
 */
struct import_names;

struct roster_import {
	struct db	*db;
	int		 replace;	/* replace sheets of names taken */
	int64_t		 now;		/* Unix time of this command */
	int64_t		 key0;		/* the staged rows' ids less their place
					   (0 on a server) */
	long		 nrows;		/* sheets staged, numbered from 0 */
	long		 nkept;		/* ... whose names were taken */
	long		 nholds;	/* item and power names staged */
	long		 nflagged;	/* sheets staged with holdings set */
	long		 added;		/* after a commit: new characters */
	long		 replaced;	/* after a commit: replaced ones */
	long		 fault_row;	/* after a refused commit: its row */
	char		*fault_where;	/* owned: that row's place in the file */
	char		*fault_name;	/* owned: the name it refused */
	int		 roster_empty;	/* the roster staging sees is empty */
	int		 sorted;	/* the staged rows are in key order */
	int		 sorted_kept;	/* ... those staging found, by id */
	struct db_rehearsal *rehearsal;	/* owned: the commit's writes,
					   rehearsed (roster.c) */
	int		 rehearsing;	/* ... being rehearsed now */
	int64_t		 ncopies;	/* ... the rows it left (roster.c) */
	const char	*direct;	/* ... of new rows, with no copies:
					   its write (roster.c), or NULL */
	int		 playing;	/* ... being played (db_rehearsal_play) */
	int		 refused;	/* ... and refused by a constraint */
	int64_t		 mark;		/* the newest change before staging
					   (db_changes_mark), or -1 */
	char		*run_head;	/* owned: the place run's head */
	long		 run_next;	/* ... and the number it goes on with */
	int		 later;		/* checks wait for the commit (a server) */
	int		 stage_table;	/* ... whose staging tables exist */
	long		 nsuspect;	/* ... rows whose names may be twice */
	long		 nextra;	/* ... rows with more (import_extra) */
	struct db_stmt *st[8];	/* indexed by roster.c's I_* */
	struct db_bulk	*bulk;		/* owned: the staged rows going in */
	struct db_bulk	*extra;		/* owned: ... what a server's need beside */
	struct import_names *names;	/* owned: the order of names staged */
	unsigned char	*seen;		/* owned: the names staged, hashed */
};

/*
 * Creates the staging tables and begins.  With replace, a sheet whose
 * name is taken replaces that character's sheet (which keeps its id);
 * without it, a taken name is refused.
 */
void roster_import_init(struct roster_import *im, struct db *db,
    int replace);

/*
 * Stages sh as the next row, where ("line 12") saying where it is in the
 * file, for a refusal the commit may make.  With holdings set, the character's items
 * and powers are to become exactly sh's lists; otherwise they are left
 * as they are.  Refuses with ROSTER_TWICE (with replace) or
 * ROSTER_EXISTS (without) for a name already staged, ROSTER_EXISTS for a
 * name in the roster (without replace), or ROSTER_NO_ITEM or
 * ROSTER_NO_POWER with *missing pointing at the name in sh; after a
 * refusal the import can only be released.  On a server it refuses
 * nothing: the commit does.  sh stays the caller's.
 */
enum roster_result roster_import_stage(struct roster_import *im,
    const struct sheet *sh, int holdings, const char *where,
    const char **missing);

/*
 * Writes every staged row in one write transaction and commits, setting
 * added and replaced; waits for the write lock as db_begin does.  When
 * something changed since staging (on a server: when anything is wrong),
 * refuses with what roster_import_stage
 * would have said of the first row at fault (by row, then names before
 * items before powers, then list order), sets fault_row (from 0),
 * fault_where (its where; owned by im) and fault_name (the character's name, or for ROSTER_NO_ITEM and
 * ROSTER_NO_POWER the missing name; owned by im) and writes nothing.
 * Call it once, then release.
 */
enum roster_result roster_import_commit(struct roster_import *im);

/*
 * After the reader stopped at an error of its own: the first staged row
 * that the checks a server leaves to the commit would refuse (the rows
 * staged all come before the error), with fault_row, fault_where and
 * fault_name set as roster_import_commit sets them, or ROSTER_OK.  On
 * SQLite, where staging made those checks already, ROSTER_OK.  Writes
 * nothing; call it once, then release.
 */
enum roster_result roster_import_check(struct roster_import *im);

/*
 * Rolls back what is still open, drops the staging tables and frees
 * fault_where and fault_name.
 */
void roster_import_release(struct roster_import *im);

/* The tables of named records. */
enum roster_table {
	ROSTER_CHARACTER,
	ROSTER_ITEM,
	ROSTER_POWER,
	ROSTER_ITEM_OR_POWER	/* give and take: either */
};

/*
 * The character, item or power that typed names, by base/names.h's rule
 * (exact, then but for case, then a unique prefix of the name or of a
 * word of it): its full name, which the caller frees; or NULL with the
 * refusal in why ("no character named 'Jon'; did you mean 'John'?").
 */
char *roster_name(struct db *db, enum roster_table table, const char *typed,
    char *why, size_t whysz);

/* Calls fn with every name of table, in no order (shell completion). */
void roster_names(struct db *db, enum roster_table table,
    void (*fn)(void *, const char *), void *arg);

/*
 * Loads the character called name into sh (initialised by the caller;
 * released by the caller) with its item and power names, sorted.  Sets
 * *id when id is not NULL.
 */
enum roster_result roster_get(struct db *db, const char *name,
    struct sheet *sh, int64_t *id);

/* Removes the character called name with what it holds. */
enum roster_result roster_remove(struct db *db, const char *name);

/*
 * Calls fn for every character in name order (byte order), with its
 * items and powers, until fn returns non-zero.  The sheet is only valid
 * during the call.
 */
void roster_each(struct db *db, int (*fn)(void *, const struct sheet *),
    void *ctx);

/* The items character id holds, sorted by name; free with roster_items_free. */
struct item *roster_held_items(struct db *db, int64_t id, size_t *n);
void roster_items_free(struct item *items, size_t n);

/* Items: get into an item_init'ed record, put (insert or update), remove. */
enum roster_result roster_item_get(struct db *db, const char *name,
    struct item *it, int64_t *id);
enum roster_result roster_item_put(struct db *db, const struct item *it,
    int64_t id);
enum roster_result roster_item_remove(struct db *db, const char *name);
void roster_item_each(struct db *db,
    int (*fn)(void *, const struct item *), void *ctx);

/* Powers, likewise. */
enum roster_result roster_power_get(struct db *db, const char *name,
    struct power *pw, int64_t *id);
enum roster_result roster_power_put(struct db *db, const struct power *pw,
    int64_t id);
enum roster_result roster_power_remove(struct db *db, const char *name);
/* The powers character id knows, sorted by name; free with roster_powers_free. */
struct power *roster_known_powers(struct db *db, int64_t id, size_t *n);
void roster_powers_free(struct power *powers, size_t n);
void roster_power_each(struct db *db,
    int (*fn)(void *, const struct power *), void *ctx);

/* 1 if character holds the item (power 0) or knows the power (power 1). */
int roster_holds(struct db *db, const char *character, int power,
    const char *name);
/*
 * roster_power_get and roster_holds in two halves: the question asked
 * (db_ask: on a server, its answer comes in the round trip of the next
 * statement read), then its answer taken (the statement finalized).
 */
struct db_stmt *roster_power_ask(struct db *db, const char *name);
enum roster_result roster_power_take(struct db *db, struct db_stmt *st,
    struct power *pw, int64_t *id);
struct db_stmt *roster_holds_ask(struct db *db, const char *character,
    int power, const char *name);
int roster_holds_take(struct db *db, struct db_stmt *st);

#endif
