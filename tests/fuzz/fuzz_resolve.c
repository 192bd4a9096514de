/*
 * fuzz_resolve.c - resolution files (src/sync/resolve.h), the lines a
 * user edits for --resolve: each is taken or refused with one clean
 * line naming it; a file taken names no record twice, every key it
 * holds is found again by its table and key, and each key has the shape
 * the report prints, a JSON object with nothing outside its braces.
 * Seeds: the lines of the resolve case's templates.
 */
#include "common.h"

#include "sync/resolve.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *fp = fmemopen((void *)data, size, "r");
	struct resolve *r;
	char why[512];

	if (size == 0 || fp == NULL) {
		if (fp != NULL)
			fclose(fp);
		return 0;
	}
	why[0] = '\0';
	r = resolve_read(fp, "fuzz.txt", why, sizeof why);
	fclose(fp);
	if (r == NULL) {
		FUZZ_WHY(why);
		FUZZ_CHECK(strncmp(why, "fuzz.txt", 8) == 0);
		return 0;
	}
	for (size_t i = 0; i < r->n; i++) {
		const struct resolve_line *x = &r->l[i];
		size_t len = strlen(x->key);

		FUZZ_CHECK(x->table[0] != '\0' && x->table[0] != '#');
		FUZZ_CHECK(len >= 2 && x->key[0] == '{' &&
		    x->key[len - 1] == '}');
		FUZZ_CHECK(x->line >= 1 && (i == 0 || x->line > x[-1].line));
		FUZZ_CHECK(resolve_find(r, x->table, x->key) == x);
	}
	resolve_free(r);
	return 0;
}
