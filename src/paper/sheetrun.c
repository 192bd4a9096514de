/*
 * sheetrun.c - the loops of the sheets and verify-sheet commands; see
 * sheetrun.h.
 */
#include "paper/sheetrun.h"

#include "paper/draw.h"
#include "sync/station.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
sheetrun_print(struct db *db, const struct sheetrun_ops *ops,
    char *const *names, size_t n, const char *path, int paper, int per)
{
	struct station self;
	struct draw *d;
	char why[600], code[PAGE_CODE_LEN + 1];
	double x, y, w, h;
	int closed;

	station_self(db, &self);
	if ((d = draw_open(path, paper, per, why, sizeof why)) == NULL)
		db_die(db, "%s", why);
	page_slot(paper, per, 0, &x, &y, &w, &h);
	for (size_t i = 0; i < n; i++) {
		void *sheet = ops->load(db, names[i], ops->arg);
		struct page pg;

		ops->code(sheet, self.id, code);
		page_init(&pg, w, h);
		ops->layout(sheet, code, &pg);
		draw_sheet(d, &pg);
		page_release(&pg);
		ops->release(sheet);
	}
	station_release(&self);
	closed = draw_close(d, why, sizeof why);
	draw_cleanup();
	if (closed != 0)
		db_die(db, "%s", why);
}

struct ids {
	char	(*v)[STATION_ID_LEN + 1];
	size_t	  n;
};

static void
add_id(void *arg, const struct station *s)
{
	struct ids *ids = arg;

	ids->v = xreallocarray(ids->v, ids->n + 1, sizeof *ids->v);
	memcpy(ids->v[ids->n++], s->id, STATION_ID_LEN + 1);
}

const char *
sheetrun_find(struct db *db, const struct sheetrun_ops *ops,
    char *const *names, size_t n, const char *code)
{
	struct ids ids = { NULL, 0 };
	char got[PAGE_CODE_LEN + 1];
	const char *found = NULL;

	station_each(db, add_id, &ids);
	for (size_t i = 0; i < n && found == NULL; i++) {
		void *sheet = ops->load(db, names[i], ops->arg);

		for (size_t k = 0; k < ids.n && found == NULL; k++) {
			ops->code(sheet, ids.v[k], got);
			if (strcmp(got, code) == 0)
				found = names[i];
		}
		ops->release(sheet);
	}
	free(ids.v);
	return found;
}

void
sheetrun_verify(struct db *db, const struct sheetrun_ops *ops,
    const char *code)
{
	struct sheetrun_names l = { NULL, 0 };
	const char *found;

	db_begin_read(db);
	ops->names(db, sheetrun_names_add, &l);
	sheetrun_names_sort(&l);
	if ((found = sheetrun_find(db, ops, l.v, l.n, code)) == NULL)
		db_die(db, "no sheet has the code %s now: the sheet was "
		    "altered, or its character changed since it was printed",
		    code);
	db_rollback(db);
	printf("the sheet of '");
	util_fputs_safe(found, stdout);
	printf("' with code %s matches the database\n", code);
	sheetrun_names_free(&l);
}

void
sheetrun_all(struct db *db, const struct sheetrun_ops *ops,
    struct sheetrun_names *l)
{
	ops->names(db, sheetrun_names_add, l);
	sheetrun_names_sort(l);
	if (l->n == 0)
		db_die(db, "no %s to print", ops->what);
}

void
sheetrun_names_add(void *arg, const char *name)
{
	struct sheetrun_names *l = arg;

	l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
	l->v[l->n++] = xstrdup(name);
}

static int
by_bytes(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
sheetrun_names_sort(struct sheetrun_names *l)
{
	if (l->n > 1)
		qsort(l->v, l->n, sizeof *l->v, by_bytes);
}

void
sheetrun_names_free(struct sheetrun_names *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}
