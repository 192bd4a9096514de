/*
 * test_resolve.c - resolution files (sync/resolve.c): the lines taken,
 * with comments, blank lines, CRLF ends and blanks in a key; every kind
 * of bad line refused with its number; the tables checked against a
 * database; and the template written from conflicts read back to the
 * same records, a record in several conflicts once; a missing file.
 */
#include "tap.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "sync/exchange.h"
#include "sync/resolve.h"
#include "base/util.h"

/* Reads text as a resolution file named "r.txt". */
static struct resolve *
read_text(const char *text, char *why, size_t whysz)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	struct resolve *r;

	if (fp == NULL)
		exit(1);
	why[0] = '\0';
	r = resolve_read(fp, "r.txt", why, whysz);
	fclose(fp);
	return r;
}

static void
test_good(void)
{
	char why[256];
	struct resolve *r;
	struct resolve_line *x;

	r = read_text("# a comment\n\n   \n  # another\n"
	    "character {\"id\":7} mine\n"
	    "character\t{ \"id\" : 8 ,\"name\":\"Ann Lee\" }\ttheirs\r\n"
	    "holds_item {\"character_id\":1,\"item_id\":2} ask",
	    why, sizeof why);
	ok(r != NULL, "a good file is taken (%s)", why);
	if (r == NULL)
		return;
	is_int(r->n, 3, "three lines of records");
	is_str(r->l[1].key, "{\"id\":8,\"name\":\"Ann Lee\"}",
	    "blanks outside strings go, those inside stay");
	is_int(r->l[1].line, 6, "a line knows its number");
	is_int(r->l[0].choice, EXCHANGE_MINE, "mine");
	is_int(r->l[1].choice, EXCHANGE_THEIRS, "theirs, before a CR");
	is_int(r->l[2].choice, EXCHANGE_ASK, "ask, with no newline at the end");
	x = resolve_find(r, "character", "{\"id\":8,\"name\":\"Ann Lee\"}");
	ok(x == &r->l[1], "found by table and key as the report prints it");
	ok(resolve_find(r, "item", "{\"id\":7}") == NULL,
	    "another table's record is another record");
	ok(resolve_find(r, "character", "{\"id\":9}") == NULL,
	    "a key not named is not found");
	x = resolve_find(r, "holds_item", "{\"character_id\":1,\"item_id\":2}");
	ok(x == &r->l[2], "a key of two columns");
	resolve_free(r);
	r = read_text("", why, sizeof why);
	ok(r != NULL && r->n == 0, "an empty file names nothing");
	ok(r == NULL || resolve_find(r, "character", "{}") == NULL,
	    "and finds nothing");
	resolve_free(r);
}

static void
test_bad(void)
{
	static const struct {
		const char *text, *why;
	} cases[] = {
		{ "character\n", "r.txt:1: a line is TABLE KEY CHOICE, and "
		    "this one has only 'character'" },
		{ "#\ncharacter mine\n", "r.txt:2: a line is TABLE KEY "
		    "CHOICE, and this one has no KEY" },
		{ "character {\"id\":1}\n", "r.txt:1: a line is TABLE KEY "
		    "CHOICE, and this one has no CHOICE (mine, theirs or ask)" },
		{ "character {\"id\":1} both\n", "r.txt:1: the choice must be "
		    "mine, theirs or ask, got 'both'" },
		{ "character 1 mine\n", "r.txt:1: the key must be a JSON object "
		    "as the conflict report prints it, such as {\"id\":3}, got "
		    "'1'" },
		{ "character {\"a\":\"}\" mine\n", NULL },
		{ "character {\"a\":\"\\\"} mine\n", NULL },
		{ "character {]} mine\n", NULL },
		{ "character {\"a\":1] mine\n", NULL },
		{ "character {\"a\":[1}] mine\n", NULL },
		{ "character {{{{{{{{{{{{{{{{{}}}}}}}}}}}}}}}}}}} mine\n", NULL },
		{ "character {} } mine\n", NULL },
		{ "character {} x mine\n", NULL },
		{ "character {\"id\":1} mine\ncharacter {\"id\":2} mine\n"
		    "character {\"id\":2} ask\ncharacter { \"id\":1} ask\n",
		    "r.txt:3: character {\"id\":2} is named on line 2 already" },
	};
	char why[256];

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct resolve *r = read_text(cases[i].text, why, sizeof why);

		ok(r == NULL, "bad file %zu refused", i + 1);
		if (cases[i].why != NULL)
			is_str(why, cases[i].why, "  saying why");
		else
			ok(strncmp(why, "r.txt:1: the key must be", 24) == 0,
			    "  a bad key (%s)", why);
		resolve_free(r);
	}
}

static void
test_check(struct db *db)
{
	char why[256];
	struct resolve *r;

	r = read_text("character {\"id\":1} mine\nd6_character {\"id\":1} mine\n",
	    why, sizeof why);
	is_int(resolve_check(r, db, why, sizeof why), 0,
	    "tables that travel are taken");
	resolve_free(r);
	r = read_text("character {\"id\":1} mine\nchange {\"no\":1} mine\n",
	    why, sizeof why);
	is_int(resolve_check(r, db, why, sizeof why), -1,
	    "a table of the station's own is refused");
	is_str(why, "r.txt:2: the table 'change' is this station's own, and "
	    "its records never conflict", "  saying why");
	resolve_free(r);
	r = read_text("nothing {\"id\":1} mine\n", why, sizeof why);
	is_int(resolve_check(r, db, why, sizeof why), -1,
	    "a table not here is refused");
	is_str(why, "r.txt:1: no table 'nothing' here", "  saying why");
	resolve_free(r);
}

/* A conflict with the given record, kind and answer. */
static void
add(struct exchange_apply *a, const char *table, const char *key,
    const char *kind, int64_t oseq)
{
	struct exchange_conflict *x;

	a->c = xreallocarray(a->c, a->nc + 1, sizeof *a->c);
	x = &a->c[a->nc++];
	memset(x, 0, sizeof *x);
	x->table = xstrdup(table);
	x->key = key != NULL ? xstrdup(key) : NULL;
	x->kind = kind;
	memset(x->origin, 'a', STATION_ID_LEN);
	x->oseq = oseq;
	x->theirs = xstrdup("{\"given_dr\":9}");
	x->fields = xstrdup("DR 9 there");
}

/* The file at path, whole; the caller frees it. */
static char *
slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;

	if (fp == NULL || getdelim(&buf, &cap, '\0', fp) < 0)
		exit(1);
	fclose(fp);
	return buf;
}

static void
test_template(const char *path)
{
	struct exchange_apply a;
	struct resolve *r, *back;
	char *buf, why[256];

	r = read_text("character {\"id\":1} theirs\n", why, sizeof why);
	exchange_apply_init(&a, EXCHANGE_ASK);
	a.resolve = r;
	add(&a, "character", "{\"id\":2,\"name\":\"Bo b\"}", "changed at both",
	    3);
	add(&a, "character", "{\"id\":1}", "changed at both", 4);
	add(&a, "character", "{\"id\":2,\"name\":\"Bo b\"}", "changed at both",
	    5);
	add(&a, "-", NULL, "names a record not here", 6);
	add(&a, "item", "{\"id\":1}", "removed here, changed there", 7);
	a.c[1].choice = EXCHANGE_THEIRS;
	a.c[1].by = &r->l[0];
	a.c[1].settled = 1;
	a.c[4].no_theirs = "gone";
	is_int(resolve_template(path, a.c, a.nc, r->file, why, sizeof why), 0,
	    "the template is written (%s)", why);
	buf = slurp(path);
	ok(strstr(buf, "# character: changed at both (change aaaaaaaa:3)\n"
	    "#   DR 9 there\n# character: changed at both (change aaaaaaaa:5)"
	    "\n#   DR 9 there\ncharacter {\"id\":2,\"name\":\"Bo b\"}"
	    " ask\n") != NULL, "a record's conflicts told above its line");
	ok(strstr(buf, "settled by r.txt:1\n#   DR 9 there\n"
	    "character {\"id\":1} theirs\n") != NULL,
	    "the choice that settled kept");
	ok(strstr(buf, "#   only mine can settle it: gone\nitem {\"id\":1} ask"
	    "\n") != NULL, "why only mine can settle it");
	ok(strstr(buf, "not here") == NULL, "a conflict with no key is left out");
	back = resolve_load(path, why, sizeof why);
	ok(back != NULL && back->n == 3,
	    "the template reads back, a line for each record a line can name "
	    "(%s)", why);
	if (back != NULL)
		for (size_t i = 0; i < a.nc; i++)
			ok(a.c[i].key == NULL || resolve_find(back, a.c[i].table,
			    a.c[i].key) != NULL, "  conflict %zu is named", i);
	resolve_free(back);
	free(buf);
	exchange_apply_release(&a);
	resolve_free(r);
}

int
main(void)
{
	char path[] = "/tmp/refkit-test-resolve-XXXXXX", why[256];
	int fd = mkstemp(path);
	struct db *db;

	if (fd < 0)
		return 1;
	close(fd);
	test_good();
	test_bad();
	db = db_open(path);
	test_check(db);
	db_close(db);
	{
		char *res = xasprintf("%s.res", path);

		test_template(res);
		unlink(res);
		ok(resolve_load(res, why, sizeof why) == NULL,
		    "a file not there is refused");
		ok(strncmp(why, "cannot open '", 13) == 0 &&
		    strstr(why, "': No such file or directory") != NULL,
		    "  saying why (%s)", why);
		free(res);
	}
	tap_unlink_db(path);
	return tap_done();
}
