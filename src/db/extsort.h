/*
 * extsort.h - records put in the order of a 64-bit key, in a fixed amount
 * of memory: whenever the records held outgrow it, they are sorted and
 * written to a temporary file as a run, and the runs are read back
 * merged.  The PostgreSQL backend sends a bulk load in the order of its
 * primary key with it (db/dbpg.c), which the server then writes far
 * more cheaply than in the file's order.
 */
#ifndef REFKIT_EXTSORT_H
#define REFKIT_EXTSORT_H

#include <stddef.h>
#include <stdint.h>

struct extsort;

/*
 * A sort that holds up to about mem bytes of records before it writes a
 * run.  Free it with extsort_free.
 */
struct extsort *extsort_new(size_t mem);

/*
 * Adds the len bytes at rec, which are copied, under key.  Exits 1 with
 * a message when a run cannot be written (a full disk).
 */
void extsort_add(struct extsort *s, int64_t key, const void *rec,
    size_t len);

/* The number of runs written to the temporary file so far. */
int extsort_runs(const struct extsort *s);

/*
 * Calls fn with every record added, in ascending order of key, and those
 * of one key in the order they were added; rec is valid during the call.
 * Then the sort is empty again.  Exits 1 when the file cannot be read.
 */
void extsort_each(struct extsort *s,
    void (*fn)(void *ctx, const void *rec, size_t len), void *ctx);

/* Frees the sort and removes its file; NULL is allowed. */
void extsort_free(struct extsort *s);

#endif
