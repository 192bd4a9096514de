/*
 * lookup.h - a name typed by a GM found among the names a database holds
 * (a character, an item, a power, a D6 character, a duelist, a board, a
 * team), by the one rule of base/names.h.
 */
#ifndef REFKIT_LOOKUP_H
#define REFKIT_LOOKUP_H

#include <stddef.h>

struct db;

/*
 * The name that typed means.  one is a query of the name as stored (one
 * text column) with a row when typed (?1) is a name exactly, which an
 * index answers; where names compare without case (a duelist, a board, a
 * team) that is a name equal to typed but for case, returned as stored.
 * Only when it has no row are the names that all lists (a query of one
 * text column: every name of the table) matched by names.h's rule, one
 * at a time, so that a roster of any size is matched in bounded memory.
 * Returns the full name (the caller frees it), or NULL with the refusal
 * in why: "LEAD 'Jon'; did you mean 'John'?", or "'Jo' could be 'John'
 * or 'Joanna'".  Reads in the caller's transaction when one is open.
 */
char *lookup_name(struct db *db, const char *one, const char *all,
    const char *typed, const char *lead, char *why, size_t whysz);

/* The same into name, a buffer of sz bytes: 0, or -1 with why. */
int lookup_name_buf(struct db *db, const char *one, const char *all,
    const char *typed, const char *lead, char *name, size_t sz, char *why,
    size_t whysz);

#endif
