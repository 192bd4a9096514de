/*
 * roster.h - characters, items and powers in the database: the SQL side
 * of crs-stats and of every tool that reads a character sheet.  Writers
 * run inside a transaction the caller opens with db_begin.
 */
#ifndef REFKIT_ROSTER_H
#define REFKIT_ROSTER_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "item.h"
#include "sheet.h"

/* Results of the roster calls. */
enum roster_result {
	ROSTER_OK,
	ROSTER_NOT_FOUND,	/* no such character, item or power */
	ROSTER_EXISTS,		/* the name is taken */
	ROSTER_NO_ITEM,		/* a held item does not exist (*missing) */
	ROSTER_NO_POWER		/* a known power does not exist (*missing) */
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
	sqlite3_stmt	*st[10];	/* indexed by roster.c's W_* */
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
void roster_power_each(struct db *db,
    int (*fn)(void *, const struct power *), void *ctx);

/* 1 if character holds the item (power 0) or knows the power (power 1). */
int roster_holds(struct db *db, const char *character, int power,
    const char *name);

#endif
