/*
 * sheetrun.h - what every tool's sheets and verify-sheet commands share:
 * the loop that loads each sheet from the database, lays it out and
 * draws it, one at a time so that memory stays flat however many are
 * printed; and the search of the sheet whose code a player shows.  A
 * family gives its own loading, code and layout through the table below.
 */
#ifndef REFKIT_SHEETRUN_H
#define REFKIT_SHEETRUN_H

#include <stddef.h>

#include "db/db.h"
#include "paper/page.h"

struct sheetrun_ops {
	/* What the sheets are of, plural: "characters", "duelists". */
	const char *what;
	/* Calls fn with the name of every sheet, in any order. */
	void	 (*names)(struct db *db, void (*fn)(void *, const char *),
		    void *arg);
	/* Loads the sheet called name (which exists); the caller releases. */
	void	*(*load)(struct db *db, const char *name, void *arg);
	void	 (*release)(void *sheet);
	/* Its code under the key of station_id (paper/page.h). */
	void	 (*code)(const void *sheet, const char *station_id,
		    char code[PAGE_CODE_LEN + 1]);
	/* Its layout, with its code, on pg (already of the sheet's size). */
	void	 (*layout)(const void *sheet, const char *code,
		    struct page *pg);
	void	*arg;
};

/*
 * Draws the sheets of names[0 .. n) into the PDF file path, on paper
 * (enum page_paper), per to a page, keyed with this station's id.  Runs
 * inside the caller's read transaction; a failure (the libraries missing,
 * the file not writable) goes through db_die, exiting 1.
 */
void sheetrun_print(struct db *db, const struct sheetrun_ops *ops,
    char *const *names, size_t n, const char *path, int paper, int per);

/*
 * The name among names[0 .. n) whose sheet has code now, under the key
 * of any station the database knows; NULL if none.  In the caller's read
 * transaction; the name returned is one of names.
 */
const char *sheetrun_find(struct db *db, const struct sheetrun_ops *ops,
    char *const *names, size_t n, const char *code);

/*
 * verify-sheet: in a read transaction of its own, finds the sheet whose
 * code is code (its printed form, cli_sheet_code_arg) and says so on
 * standard output ("the sheet of 'Fred' with code ... matches the
 * database"); if none has it, exits 1 through db_die with a line saying
 * so.
 */
void sheetrun_verify(struct db *db, const struct sheetrun_ops *ops,
    const char *code);

/* A list of names, collected, sorted, freed. */
struct sheetrun_names {
	char	**v;
	size_t	  n;
};

/*
 * The names of every sheet, in byte order, into l (zeroed by the
 * caller); none exits 1 through db_die ("no duelists to print").
 */
void sheetrun_all(struct db *db, const struct sheetrun_ops *ops,
    struct sheetrun_names *l);

/* Adds a copy of name to the struct sheetrun_names at arg. */
void sheetrun_names_add(void *arg, const char *name);
/* Sorts the names in byte order, as the rosters list them. */
void sheetrun_names_sort(struct sheetrun_names *l);
void sheetrun_names_free(struct sheetrun_names *l);

#endif
