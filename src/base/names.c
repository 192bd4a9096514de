/*
 * names.c - a typed name matched against the names it may mean: exact,
 * then but for case, then a unique prefix of the name or of one of its
 * words; otherwise the candidates or the closest names (names.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/strbuf.h"
#include "base/util.h"

/* The steps of names.h; NO_STEP: the name matched at none. */
enum { STEP_EXACT = 1, STEP_CASE, STEP_PREFIX, NO_STEP };

/*
 * Folds the case of one character at s into *out (its bytes, the same
 * number as s's): ASCII A-Z, and Latin-1's À-Þ but × (U+00C0-U+00DE but
 * U+00D7, whose UTF-8 is C3 80-C3 9E) to their small letters.  Returns
 * the number of bytes written.
 */
static size_t
fold_char(const unsigned char *s, unsigned char *out)
{
	if (*s >= 'A' && *s <= 'Z') {
		out[0] = (unsigned char)(*s + ('a' - 'A'));
		return 1;
	}
	if (s[0] == 0xc3 && s[1] >= 0x80 && s[1] <= 0x9e && s[1] != 0x97) {
		out[0] = 0xc3;
		out[1] = (unsigned char)(s[1] + 0x20);
		return 2;
	}
	out[0] = s[0];
	return 1;
}

/* A case-folded copy of s, as long as s; the caller frees it. */
static char *
fold(const char *s)
{
	size_t n = strlen(s);
	unsigned char *out = xmalloc(n + 1);
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (p[i] != '\0')
		i += fold_char(p + i, out + i);
	out[n] = '\0';
	return (char *)out;
}

/* Whether c ends a word: ASCII that is neither a letter nor a digit. */
static int
is_sep(unsigned char c)
{
	return c < 0x80 && !((c >= 'a' && c <= 'z') || (c >= 'A' &&
	    c <= 'Z') || (c >= '0' && c <= '9'));
}

/*
 * Whether the folded typed (len bytes, not empty) begins the folded name
 * f or one of its words.
 */
static int
begins_word(const char *f, const char *typed, size_t len)
{
	const unsigned char *p = (const unsigned char *)f;

	for (size_t i = 0; p[i] != '\0'; i++)
		if ((i == 0 || is_sep(p[i - 1])) && !is_sep(p[i]) &&
		    strncmp((const char *)p + i, typed, len) == 0)
			return 1;
	/* A typed name that starts with punctuation: the whole name only. */
	return strncmp(f, typed, len) == 0;
}

int
names_begins(const char *typed, const char *name)
{
	char *ft, *fn;
	int r;

	if (*typed == '\0')
		return 1;
	ft = fold(typed);
	fn = fold(name);
	r = begins_word(fn, ft, strlen(ft));
	free(ft);
	free(fn);
	return r;
}

int
names_distance(const char *a, const char *b, int limit)
{
	char *fa = fold(a), *fb = fold(b);
	size_t la = strlen(fa), lb = strlen(fb);
	int *row0, *row1, *row2, d;

	if ((la > lb ? la - lb : lb - la) > (size_t)limit) {
		free(fa);
		free(fb);
		return limit + 1;
	}
	/* Three rows of the optimal string alignment distance. */
	row0 = xcalloc(lb + 1, sizeof *row0);
	row1 = xcalloc(lb + 1, sizeof *row1);
	row2 = xcalloc(lb + 1, sizeof *row2);
	for (size_t j = 0; j <= lb; j++)
		row1[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int lowest;

		row2[0] = (int)i;
		lowest = row2[0];
		for (size_t j = 1; j <= lb; j++) {
			int cost = fa[i - 1] != fb[j - 1], v;

			v = row1[j] + 1;
			if (row2[j - 1] + 1 < v)
				v = row2[j - 1] + 1;
			if (row1[j - 1] + cost < v)
				v = row1[j - 1] + cost;
			if (i > 1 && j > 1 && fa[i - 1] == fb[j - 2] &&
			    fa[i - 2] == fb[j - 1] && row0[j - 2] + 1 < v)
				v = row0[j - 2] + 1;
			row2[j] = v;
			if (v < lowest)
				lowest = v;
		}
		if (lowest > limit) {
			free(row0);
			free(row1);
			free(row2);
			free(fa);
			free(fb);
			return limit + 1;
		}
		{
			int *t = row0;

			row0 = row1;
			row1 = row2;
			row2 = t;
		}
	}
	d = row1[lb];
	free(row0);
	free(row1);
	free(row2);
	free(fa);
	free(fb);
	return d > limit ? limit + 1 : d;
}

void
names_init(struct names *m, const char *typed)
{
	memset(m, 0, sizeof *m);
	m->typed = xstrdup(typed);
	m->fold = fold(typed);
	m->len = strlen(m->fold);
	m->step = NO_STEP;
	/* One slip in a short name, two in a longer one, three at most. */
	m->maxdist = m->len <= 4 ? 1 : m->len <= 8 ? 2 : 3;
	m->neardist = m->maxdist + 1;
}

void
names_release(struct names *m)
{
	free(m->typed);
	free(m->fold);
	free(m->exact);
	for (size_t i = 0; i < m->nbest && i < NAMES_LIST_MAX; i++)
		free(m->best[i]);
	for (size_t i = 0; i < m->nnear && i < NAMES_LIST_MAX; i++)
		free(m->near[i]);
	memset(m, 0, sizeof *m);
}

/*
 * Counts name in list (of *n names), keeping the NAMES_LIST_MAX first in
 * byte order, sorted: what a refusal lists is the same whatever order
 * the names came in (a server's scan is not a file's).
 */
static void
keep(char **list, size_t *n, const char *name)
{
	size_t kept = *n < NAMES_LIST_MAX ? *n : NAMES_LIST_MAX, at;

	for (at = 0; at < kept && strcmp(list[at], name) < 0; at++)
		continue;
	if (at < kept && strcmp(list[at], name) == 0)
		return;
	(*n)++;
	if (at == NAMES_LIST_MAX)
		return;
	if (kept == NAMES_LIST_MAX)
		free(list[--kept]);
	memmove(list + at + 1, list + at, (kept - at) * sizeof *list);
	list[at] = xstrdup(name);
}

static void
drop(char **list, size_t *n)
{
	for (size_t i = 0; i < *n && i < NAMES_LIST_MAX; i++)
		free(list[i]);
	*n = 0;
}

/*
 * The distance from the typed name to name, or to the nearest of its
 * words: a slip in one word of a long name is found as in a short one.
 * Words and typed names of fewer than four bytes are too short for a
 * slip in them to say which name was meant ("Jon" is not "Mary Jo").
 */
static int
nearness(const struct names *m, const char *name)
{
	int best = names_distance(m->typed, name, m->maxdist);
	const unsigned char *p = (const unsigned char *)name;

	for (size_t i = 0; p[i] != '\0' && best > 0; i++) {
		size_t j;
		char *word;
		int d;

		if ((i > 0 && !is_sep(p[i - 1])) || is_sep(p[i]))
			continue;
		for (j = i; p[j] != '\0' && !is_sep(p[j]); j++)
			continue;
		if ((i == 0 && p[j] == '\0') || m->len < 4)
			break;
		if (j - i < 4)
			continue;
		word = xstrndup(name + i, j - i);
		d = names_distance(m->typed, word, m->maxdist);
		free(word);
		if (d < best)
			best = d;
	}
	return best;
}

void
names_add(struct names *m, const char *name)
{
	char *f;
	int step, d;

	if (m->exact != NULL)
		return;
	if (strcmp(name, m->typed) == 0) {
		m->exact = xstrdup(name);
		return;
	}
	f = fold(name);
	if (m->len > 0 && strcmp(f, m->fold) == 0)
		step = STEP_CASE;
	else if (m->len > 0 && begins_word(f, m->fold, m->len))
		step = STEP_PREFIX;
	else
		step = NO_STEP;
	free(f);
	if (step < m->step) {
		drop(m->best, &m->nbest);
		m->step = step;
	}
	if (step == m->step && step != NO_STEP) {
		keep(m->best, &m->nbest, name);
		return;
	}
	/* Only while nothing matched is a near name of use. */
	if (m->step != NO_STEP || m->len == 0)
		return;
	d = nearness(m, name);
	if (d > m->maxdist || d > m->neardist)
		return;
	if (d < m->neardist) {
		drop(m->near, &m->nnear);
		m->neardist = d;
	}
	keep(m->near, &m->nnear, name);
}

enum names_result
names_pick(const struct names *m, const char **found)
{
	if (m->exact != NULL) {
		*found = m->exact;
		return NAMES_FOUND;
	}
	if (m->step == NO_STEP)
		return NAMES_UNKNOWN;
	if (m->nbest == 1) {
		*found = m->best[0];
		return NAMES_FOUND;
	}
	return NAMES_AMBIGUOUS;
}

/*
 * Appends the quoted names of list (the first NAMES_LIST_MAX of n) to fp
 * as "'A', 'B' or 'C'", with conj between the last two, and "(and N
 * more)" for the rest.
 */
static void
put_list(FILE *fp, char *const *list, size_t n, const char *conj)
{
	size_t shown = n < NAMES_LIST_MAX ? n : NAMES_LIST_MAX;

	for (size_t i = 0; i < shown; i++) {
		char *s = util_snippet(list[i]);

		fprintf(fp, "%s'%s'", i == 0 ? "" : i + 1 == shown && n ==
		    shown ? conj : ", ", s);
		free(s);
	}
	if (n > shown)
		fprintf(fp, " (and %zu more)", n - shown);
}

/*
 * A message is written with stdio into a strbuf's stream, then copied
 * into the caller's buffer, cut to fit, and freed.
 */
static void
text_close(struct strbuf *t, char *buf, size_t bufsz)
{
	char *s = strbuf_detach(t, NULL);

	snprintf(buf, bufsz, "%s", s);
	free(s);
}

/* "'typed' could be 'A' or 'B'", or the suggestion after an unknown. */
static void
put_why(FILE *fp, const struct names *m)
{
	if (names_pick(m, &(const char *){ NULL }) == NAMES_AMBIGUOUS) {
		char *s = util_snippet(m->typed);

		fprintf(fp, "'%s' could be ", s);
		free(s);
		put_list(fp, m->best, m->nbest, " or ");
		return;
	}
	if (m->nnear > 0) {
		fputs("; did you mean ", fp);
		put_list(fp, m->near, m->nnear, " or ");
		fputc('?', fp);
	}
}

void
names_why(const struct names *m, const char *lead, char *buf, size_t bufsz)
{
	struct strbuf t = STRBUF_INIT;
	FILE *fp = strbuf_stream(&t);

	if (names_pick(m, &(const char *){ NULL }) != NAMES_AMBIGUOUS) {
		char *s = util_snippet(m->typed);

		fprintf(fp, "%s '%s'", lead, s);
		free(s);
	}
	put_why(fp, m);
	text_close(&t, buf, bufsz);
}

void
names_why_in(const struct names *m, const char *what,
    const char *const *all, size_t nall, const char *in, char *buf,
    size_t bufsz)
{
	struct strbuf t = STRBUF_INIT;
	FILE *fp = strbuf_stream(&t);

	if (names_pick(m, &(const char *){ NULL }) == NAMES_AMBIGUOUS)
		put_why(fp, m);
	else {
		char *s = util_snippet(m->typed);

		fprintf(fp, "'%s' %s", s, what);
		free(s);
		put_why(fp, m);
		fprintf(fp, " (%s: ", in);
		put_list(fp, (char *const *)all, nall, " and ");
		if (nall == 0)
			fputs("nobody", fp);
		fputc(')', fp);
	}
	text_close(&t, buf, bufsz);
}

/*
 * Starts m on typed, offers it the n names at list, and returns the
 * index of the name it picks, or -1; m is the caller's to release.
 */
static int
pick_in(struct names *m, const char *typed, const char *const *list,
    size_t n)
{
	const char *found;

	names_init(m, typed);
	for (size_t i = 0; i < n; i++)
		names_add(m, list[i]);
	if (names_pick(m, &found) == NAMES_FOUND)
		for (size_t i = 0; i < n; i++)
			if (strcmp(list[i], found) == 0)
				return (int)i;
	return -1;
}

int
names_lookup(const char *typed, const char *const *list, size_t n,
    int exact_only, const char *what, char *why, size_t whysz)
{
	struct names m;
	int at = pick_in(&m, typed, list, n);

	if (at >= 0 && (!exact_only || m.exact != NULL)) {
		names_release(&m);
		return at;
	}
	if (exact_only && m.step != NO_STEP) {
		/*
		 * A command is never taken from a part of it: what it begins
		 * is suggested instead of what it is near.
		 */
		drop(m.near, &m.nnear);
		for (size_t i = 0; i < m.nbest && i < NAMES_LIST_MAX; i++)
			keep(m.near, &m.nnear, m.best[i]);
		m.nnear = m.nbest;
		drop(m.best, &m.nbest);
		m.step = NO_STEP;
	}
	{
		char *lead = xasprintf("unknown %s", what);

		names_why(&m, lead, why, whysz);
		free(lead);
	}
	names_release(&m);
	return -1;
}

int
names_lookup_in(const char *typed, const char *const *list, size_t n,
    const char *what, const char *in, char *why, size_t whysz)
{
	struct names m;
	int at = pick_in(&m, typed, list, n);

	if (at < 0)
		names_why_in(&m, what, list, n, in, why, whysz);
	names_release(&m);
	return at;
}
