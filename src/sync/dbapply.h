/*
 * dbapply.h - applying a changeset through the database layer (db.h),
 * for a database that SQLite does not hold: a PostgreSQL station takes
 * in another station's changes here, where an SQLite one hands them to
 * sqlite3changeset_apply_v2 (issue #22; refkit.db(5)).
 *
 * The changeset is walked with SQLite's own iterator, and each change
 * is made with the statements SQLite's apply makes, written once for
 * both databases; a conflict calls the same handler, with the same
 * iterator and the same codes, at the same points, and its answer is
 * acted on as SQLite acts on it.  So the decisions of sync/exchange.c
 * are the same on either kind of station.  What the handler reads of
 * the row here, and the count of references to records not here, it
 * reads through dbapply_conflict and dbapply_fk_conflicts, which answer
 * for SQLite's apply as well.
 */
#ifndef REFKIT_DBAPPLY_H
#define REFKIT_DBAPPLY_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "db/db.h"

/* What the caller watches as the changes are made. */
struct dbapply_hooks {
	/*
	 * Before an insert into table: nonzero passes it over, as a
	 * BEFORE INSERT trigger's RAISE(IGNORE) does on SQLite.  pk holds
	 * the key's npk values, in the order of the table's columns.
	 */
	int	(*pass_over)(void *arg, const char *table,
		    sqlite3_value **pk, int npk);
	/*
	 * After a row of table is written (op SQLITE_INSERT, _UPDATE or
	 * _DELETE), as SQLite's update hook: rowid is the value of the
	 * table's one integer key column, else 0.
	 */
	void	(*wrote)(void *arg, int op, const char *table, int64_t rowid);
	void	*arg;
	/*
	 * Before an update of table (or NULL): nonzero holds it back, as
	 * a BEFORE UPDATE trigger's RAISE(IGNORE) does on SQLite, so that
	 * the handler is asked as for a row here that differs.  pk as for
	 * pass_over.  An update made again as a conflict's answer is not
	 * asked about.
	 */
	int	(*hold)(void *arg, const char *table, sqlite3_value **pk,
		    int npk);
};

struct dbapply;

/*
 * An applier for db, for any number of changesets in one transaction;
 * free it with dbapply_free (NULL is allowed) before closing db.
 */
struct dbapply *dbapply_new(struct db *db);
void dbapply_free(struct dbapply *x);

/*
 * Applies the n bytes of changeset cs inside the caller's transaction,
 * as sqlite3changeset_apply_v2 with SQLITE_CHANGESETAPPLY_NOSAVEPOINT:
 * filter (or NULL) chooses the tables, conflict answers each conflict
 * (SQLITE_CHANGESET_OMIT, _REPLACE where SQLite allows it, _ABORT),
 * hooks (or NULL) watch.  Foreign keys wait until the changeset is in;
 * references to records not here are then counted, and conflict is
 * called with SQLITE_CHANGESET_FOREIGN_KEY and a NULL iterator when
 * there are any.  Returns 0, or -1 with why set (a damaged changeset,
 * or an answer of ABORT or one SQLite refuses); the caller then rolls
 * back.
 */
int dbapply_changeset(struct dbapply *x, const void *cs, size_t n,
    int (*filter)(void *, const char *),
    int (*conflict)(void *, int, sqlite3_changeset_iter *), void *arg,
    const struct dbapply_hooks *hooks, char *why, size_t whysz);

/*
 * Binds v, an SQLite value as it is, to parameter i of st; returns -1
 * for a value not given (NULL: a column the change leaves out), else 0.
 */
int dbapply_bind(struct db_stmt *st, int i, sqlite3_value *v);

/*
 * For a conflict handler: value i of the row here in conflict with the
 * change it is at, as sqlite3changeset_conflict gives it (valid while
 * the handler runs), from SQLite's apply or from dbapply_changeset.
 */
int dbapply_conflict(sqlite3_changeset_iter *it, int i, sqlite3_value **v);

/*
 * For a conflict handler called with SQLITE_CHANGESET_FOREIGN_KEY: how
 * many references to records not here there are, as
 * sqlite3changeset_fk_conflicts gives it.
 */
int dbapply_fk_conflicts(sqlite3_changeset_iter *it, int *n);

#endif
