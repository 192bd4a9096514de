/*
 * resolve.c - resolution files, read and written; see resolve.h.
 *
 * A key is compared as text, as the report prints it: refkit writes
 * keys one way only (no spaces, integers in full), so the text of a key
 * is the key, and the template copies it verbatim.  Only the spaces and
 * tabs a person may add outside the strings are taken out.
 */
#include "sync/resolve.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

/* What separates the fields; \r for a file saved with CRLF lines. */
#define BLANK	" \t\r"

/* How deep a key's braces and brackets may go: a report's go to 2. */
#define KEY_DEPTH	16

/*
 * A copy of the key s without the blanks outside its strings, or NULL
 * if s is not shaped as one JSON object: a '{' first, braces and
 * brackets that close in turn, every string ended, nothing after the
 * last '}'.  The values are not checked: a key refkit never prints
 * matches no conflict, and the warning for it says so.
 */
static char *
key_canon(const char *s)
{
	char *k = xmalloc(strlen(s) + 1), *p = k, open[KEY_DEPTH];
	size_t depth = 0;
	int instr = 0;

	for (; *s != '\0'; s++) {
		if (instr) {
			if (*s == '\\' && s[1] != '\0')
				*p++ = *s++;
			else if (*s == '"')
				instr = 0;
		} else if (strchr(BLANK, *s) != NULL) {
			continue;
		} else if (p == k ? *s != '{' : depth == 0) {
			break;		/* not an object, or after its end */
		} else if (*s == '"') {
			instr = 1;
		} else if (*s == '{' || *s == '[') {
			if (depth == KEY_DEPTH)
				break;
			open[depth++] = *s == '{' ? '}' : ']';
		} else if (*s == '}' || *s == ']') {
			if (depth == 0 || open[--depth] != *s)
				break;
		}
		*p++ = *s;
	}
	*p = '\0';
	if (*s == '\0' && p > k && !instr && depth == 0)
		return k;
	free(k);
	return NULL;
}

static enum exchange_prefer
choice_of(const char *w, int *ok)
{
	*ok = 1;
	if (strcmp(w, "mine") == 0)
		return EXCHANGE_MINE;
	if (strcmp(w, "theirs") == 0)
		return EXCHANGE_THEIRS;
	*ok = strcmp(w, "ask") == 0;
	return EXCHANGE_ASK;
}

/*
 * Splits the line s (its blanks at either end gone) into its table,
 * key and choice, adding them to r; a comment or a blank line adds
 * nothing.  Returns 0, or -1 with why set.
 */
static int
parse_line(struct resolve *r, char *s, long no, char *why, size_t whysz)
{
	char *table, *key, *word, *canon;
	struct resolve_line *x;
	enum exchange_prefer choice;
	int ok;

	if (*s == '\0' || *s == '#')
		return 0;
	table = s;
	s += strcspn(s, BLANK);
	if (*s == '\0')
		return util_say(why, whysz, "%s:%ld: a line is TABLE KEY "
		    "CHOICE, and this one has only '%s'", r->file, no,
		    util_q(table));
	*s++ = '\0';
	key = s + strspn(s, BLANK);
	word = key + strlen(key);
	while (word > key && strchr(BLANK, word[-1]) == NULL)
		word--;
	if (word == key)
		return util_say(why, whysz, "%s:%ld: a line is TABLE KEY "
		    "CHOICE, and this one has no %s", r->file, no,
		    *key == '{' ? "CHOICE (mine, theirs or ask)" : "KEY");
	word[-1] = '\0';
	choice = choice_of(word, &ok);
	if (!ok)
		return util_say(why, whysz, "%s:%ld: the choice must be mine, "
		    "theirs or ask, got '%s'", r->file, no, util_q(word));
	if ((canon = key_canon(key)) == NULL)
		return util_say(why, whysz, "%s:%ld: the key must be a JSON "
		    "object as the conflict report prints it, such as "
		    "{\"id\":3}, got '%s'", r->file, no, util_q(key));
	r->l = xreallocarray(r->l, r->n + 1, sizeof *r->l);
	x = &r->l[r->n++];
	x->table = xstrdup(table);
	x->key = canon;
	x->choice = choice;
	x->line = no;
	x->matched = 0;
	return 0;
}

static int
cmp_record(const void *p, const void *q)
{
	const struct resolve_line *x = *(struct resolve_line *const *)p;
	const struct resolve_line *y = *(struct resolve_line *const *)q;
	int c = strcmp(x->table, y->table);

	return c != 0 ? c : strcmp(x->key, y->key);
}

static int
cmp_line(const void *p, const void *q)
{
	const struct resolve_line *x = *(struct resolve_line *const *)p;
	const struct resolve_line *y = *(struct resolve_line *const *)q;
	int c = cmp_record(p, q);

	return c != 0 ? c : (x->line > y->line) - (x->line < y->line);
}

/*
 * Sorts the lines by record for resolve_find, and refuses a record
 * named twice (even with the same choice: one of the two lines was
 * meant for another), at the earliest line that repeats one.
 */
static int
index_lines(struct resolve *r, char *why, size_t whysz)
{
	const struct resolve_line *dup = NULL, *first = NULL;

	r->by_key = xreallocarray(NULL, r->n ? r->n : 1, sizeof(struct resolve_line *));
	for (size_t i = 0; i < r->n; i++)
		r->by_key[i] = &r->l[i];
	qsort(r->by_key, r->n, sizeof(struct resolve_line *), cmp_line);
	for (size_t i = 1; i < r->n; i++)
		if (cmp_record(&r->by_key[i - 1], &r->by_key[i]) == 0 &&
		    (dup == NULL || r->by_key[i]->line < dup->line)) {
			dup = r->by_key[i];
			first = r->by_key[i - 1];
		}
	if (dup == NULL)
		return 0;
	return util_say(why, whysz, "%s:%ld: %s %s is named on line %ld "
	    "already", r->file, dup->line, util_q(dup->table),
	    util_q(dup->key), first->line);
}

struct resolve *
resolve_read(FILE *fp, const char *name, char *why, size_t whysz)
{
	struct resolve *r = xcalloc(1, sizeof *r);
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	long no = 0;
	int rc = 0;

	r->file = xstrdup(name);
	while (rc == 0 && (len = getline(&buf, &cap, fp)) >= 0) {
		char *s = buf, *end = buf + len;

		no++;
		if (strlen(buf) != (size_t)len) {
			rc = util_say(why, whysz, "%s:%ld: a NUL byte in the "
			    "line", r->file, no);
			break;
		}
		while (end > s && (end[-1] == '\n' ||
		    strchr(BLANK, end[-1]) != NULL))
			*--end = '\0';
		s += strspn(s, BLANK);
		rc = parse_line(r, s, no, why, whysz);
	}
	if (rc == 0 && ferror(fp))
		rc = util_say(why, whysz, "%s: %s", r->file, strerror(errno));
	free(buf);
	if (rc == 0)
		rc = index_lines(r, why, whysz);
	if (rc != 0) {
		resolve_free(r);
		return NULL;
	}
	return r;
}

struct resolve *
resolve_load(const char *path, char *why, size_t whysz)
{
	struct resolve *r;
	FILE *fp = fopen(path, "r");

	if (fp == NULL) {
		util_say(why, whysz, "cannot open '%s': %s", util_q(path),
		    strerror(errno));
		return NULL;
	}
	r = resolve_read(fp, path, why, whysz);
	fclose(fp);
	return r;
}

int
resolve_check(const struct resolve *r, struct db *db, char *why,
    size_t whysz)
{
	int rc = 0;

	for (size_t i = 0; i < r->n && rc == 0; i++) {
		const struct resolve_line *x = &r->l[i];
		char **names;
		unsigned char *pk;
		int n = db_table_columns(db, x->table, &names, &pk);

		for (int k = 0; k < n; k++)
			free(names[k]);
		free(names);
		free(pk);
		if (n == 0)
			rc = util_say(why, whysz, "%s:%ld: no table '%s' here",
			    r->file, x->line, util_q(x->table));
		else if (!db_table_travels(x->table))
			rc = util_say(why, whysz, "%s:%ld: the table '%s' is "
			    "this station's own, and its records never "
			    "conflict", r->file, x->line, util_q(x->table));
	}
	return rc;
}

struct resolve_line *
resolve_find(struct resolve *r, const char *table, const char *key)
{
	struct resolve_line probe, *pp = &probe, **hit;

	probe.table = (char *)table;
	probe.key = (char *)key;
	hit = bsearch(&pp, r->by_key, r->n, sizeof(struct resolve_line *), cmp_record);
	return hit != NULL ? *hit : NULL;
}

void
resolve_free(struct resolve *r)
{
	if (r == NULL)
		return;
	for (size_t i = 0; i < r->n; i++) {
		free(r->l[i].table);
		free(r->l[i].key);
	}
	free(r->l);
	free(r->by_key);
	free(r->file);
	free(r);
}

/* Conflicts by record (table, then key), each record's in their order. */
static int
cmp_conflict(const void *p, const void *q)
{
	const struct exchange_conflict *x =
	    *(const struct exchange_conflict *const *)p;
	const struct exchange_conflict *y =
	    *(const struct exchange_conflict *const *)q;
	int c = strcmp(x->table, y->table);

	if (c == 0)
		c = strcmp(x->key, y->key);
	return c != 0 ? c : (x > y) - (x < y);
}

static int
same_record(const struct exchange_conflict *x,
    const struct exchange_conflict *y)
{
	return strcmp(x->table, y->table) == 0 && strcmp(x->key, y->key) == 0;
}

/*
 * The word for a record's line: the choice its line made, if that
 * settled each of its n conflicts (a theirs that cannot settle one is
 * asked again), else ask.
 */
static const char *
template_word(const struct exchange_conflict *const *g, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (g[i]->by == NULL || !g[i]->settled)
			return "ask";
	return g[0]->choice == EXCHANGE_THEIRS ? "theirs" : "mine";
}

/* The comment lines telling one conflict, then nothing else. */
static void
template_comment(FILE *fp, const struct exchange_conflict *x,
    const char *file)
{
	fprintf(fp, "# %s: %s (change %.8s:%" PRId64 ")", x->name != NULL ?
	    x->name : x->table, x->kind, x->origin, x->oseq);
	if (x->settled && x->by != NULL)
		fprintf(fp, ", settled by %s:%ld", file, x->by->line);
	else if (x->settled)
		fputs(", settled by --prefer", fp);
	fputc('\n', fp);
	if (x->fields != NULL)
		fprintf(fp, "#   %s\n", x->fields);
	if (x->no_theirs != NULL)
		fprintf(fp, "#   only mine can settle it: %s\n", x->no_theirs);
}

static size_t
template_write(FILE *fp, const struct exchange_conflict *c, size_t nc,
    const char *file)
{
	const struct exchange_conflict **g;
	size_t n = 0, lines = 0;

	g = xreallocarray(NULL, nc ? nc : 1,
	    sizeof(const struct exchange_conflict *));
	for (size_t i = 0; i < nc; i++)
		if (c[i].key != NULL)
			g[n++] = &c[i];
	qsort(g, n, sizeof(const struct exchange_conflict *), cmp_conflict);
	fputs("# refkit resolutions: a line for each record in conflict,"
	    " TABLE KEY CHOICE.\n# Make each ask mine (keep the version"
	    " here) or theirs (take the one that\n# comes), then apply"
	    " again with --resolve and this file; ask leaves the\n#"
	    " conflict open.  See refkit(1).\n", fp);
	if (n == 0)
		fputs("#\n# No conflict here names a record, so no line can"
		    " settle one: see the\n# report.\n", fp);
	/* The records in the order of their first conflict. */
	for (size_t i = 0; i < nc; i++) {
		const struct exchange_conflict *x = &c[i], **at;
		size_t lo, hi;

		if (x->key == NULL)
			continue;
		if ((at = bsearch(&x, g, n, sizeof(const struct exchange_conflict *), cmp_conflict)) == NULL)
			continue;	/* cannot be: x is among them */
		lo = (size_t)(at - g);
		if (lo > 0 && same_record(g[lo - 1], x))
			continue;	/* not the record's first */
		for (hi = lo + 1; hi < n && same_record(g[hi], x); hi++)
			;
		fputc('\n', fp);
		for (size_t k = lo; k < hi; k++)
			template_comment(fp, g[k], file);
		fprintf(fp, "%s %s %s\n", x->table, x->key,
		    template_word(g + lo, hi - lo));
		lines++;
	}
	free(g);
	return lines;
}

int
resolve_template(const char *path, const struct exchange_conflict *c,
    size_t n, const char *file, char *why, size_t whysz)
{
	char *tmp = xasprintf("%s.tmp-%ld", path, (long)getpid());
	FILE *fp = fopen(tmp, "wx");
	int rc = 0, bad;

	if (fp == NULL) {
		rc = util_say(why, whysz, "cannot write '%s': %s",
		    util_q(tmp), strerror(errno));
		free(tmp);
		return rc;
	}
	(void)template_write(fp, c, n, file);
	bad = ferror(fp);
	if (fclose(fp) != 0 || bad || rename(tmp, path) != 0) {
		rc = util_say(why, whysz, "cannot write '%s': %s", util_q(path),
		    strerror(bad ? EIO : errno));
		unlink(tmp);
	}
	free(tmp);
	return rc;
}
