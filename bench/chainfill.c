/*
 * chainfill.c DB: chains every combat of DB as it stands (chain_log, the
 * migration's own chaining, which computes the hashes the ledger
 * writes), in one transaction.  For bench/chain.sh, whose database of
 * 10,000 logs is one combat played through the ledger and copied in SQL
 * under other keys: ten thousand combats each started and ended by a
 * process of its own took an hour and a half.
 */
#include <err.h>
#include <stdlib.h>

#include "base/util.h"
#include "db/chain.h"
#include "db/db.h"

struct logs {
	int64_t	*id;
	size_t	 n, cap;
};

static void
add(void *arg, const char *kind, int64_t log)
{
	struct logs *l = arg;

	(void)kind;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 1024;
		l->id = xreallocarray(l->id, l->cap, sizeof *l->id);
	}
	l->id[l->n++] = log;
}

int
main(int argc, char **argv)
{
	struct logs l = { NULL, 0, 0 };
	struct db *db;

	if (argc != 2)
		errx(2, "usage: chainfill DB");
	db = db_open(argv[1]);
	db_begin(db);
	chain_logs(db, "combat", add, &l);
	for (size_t i = 0; i < l.n; i++)
		if (chain_log(db, "combat", l.id[i]) != 0)
			errx(1, "cannot chain combat %zu", i);
	db_commit(db);
	db_close(db);
	free(l.id);
	return 0;
}
