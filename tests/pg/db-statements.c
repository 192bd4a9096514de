/*
 * db-statements.c - every SQL statement in src/ translated by dbpg_translate
 * and prepared on a real PostgreSQL server (issue #38), for
 * tests/pg/db-statements.sh.
 *
 *   pg-statements LIST FILE.i ...
 *
 * Each FILE.i is a source file of src/ as the C preprocessor gives it
 * (cc -E), so that macros (DB_NAME_KEY, JOURNAL_SQL ...) are expanded
 * and adjacent literals stand side by side, and the line markers say
 * where each token was written.  The statements are found from the
 * code, not from a list of them: every call of a function that sends SQL
 * (LIST's "func" lines: db_prepare, db_exec, libpq's, the wrappers) whose
 * SQL argument is a literal, or a ternary of literals, is a statement.
 * An argument that is not must be named in LIST ("dynamic"), with where
 * its statements come from (an array's or a struct member's initializers,
 * collected here too) or where they are covered instead; an argument
 * not named fails the test, so a new statement cannot be missed.
 * Statements that only ever run on SQLite are known by their code path:
 * SQLite's own functions and db_prepare_local ("func ... sqlite"), the
 * SQLite branch of a "db->pg != NULL ?" ternary, and LIST's "sqlite"
 * lines, each of which must still match a statement.
 *
 * On the server (libpq's environment: PGHOST, PGDATABASE ...), which
 * holds refkit's schema, the statements that CREATE are run first, in a
 * transaction rolled back at the end, until no more succeed (a temporary
 * table the later statements read); the rest are prepared (PQprepare),
 * their parameters' types left to the server as dbpg.c leaves them.
 * Prints "FAIL: pg/db-statements: FILE:LINE: SQL: ERROR" for each failure
 * and last "tally PASSED FAILED" for the script.
 */
#include <libpq-fe.h>

#include <ctype.h>
#include <err.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"
#include "db/db_base.h"
#include "db/dbpg.h"

enum { T_ID, T_STR, T_NUM, T_PUNCT };

struct tok {
	int	 type;
	char	*text;		/* a string's value, unquoted */
	int	 line;
};

struct src {
	char		*path;	/* src/... */
	struct tok	*t;
	size_t		 n;
};

/* How a function's SQL goes: translated (dbpg_translate), as written,
 * never to a server, or as a bulk load's table and columns. */
enum { K_TRANSLATED, K_NATIVE, K_SQLITE, K_BULK };

struct func {
	char	*name;
	int	 arg[2], narg;
	int	 kind;
};

/* A "dynamic" or "sqlite" line of LIST, and how often it matched. */
struct entry {
	int	 lineno;
	char	*file, *fn, *expr, *action, *name;
	int	 field;
	int	 used;
};

struct stmt {
	const char *file;
	char	*fn;		/* the function that sends it */
	int	 line;
	char	*sql;
	int	 kind;
};

static struct func *funcs;
static size_t nfuncs;
static struct entry *dyn, *lite;
static size_t ndyn, nlite;
static struct src *srcs;
static size_t nsrcs;
static struct stmt *stmts;
static size_t nstmts;
static int failed, passed;
static int nsites, nsqlite_api, nsqlite_branch, nsqlite_listed, ncovered;

static void
fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("FAIL: pg/db-statements: ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	failed++;
}

/* ---- reading the preprocessed sources ---- */

static void
add_tok(struct src *s, int type, const char *p, size_t n, int line)
{
	if ((s->n & (s->n - 1)) == 0 || s->n == 0)
		s->t = xreallocarray(s->t, s->n == 0 ? 1 : s->n * 2,
		    sizeof *s->t);
	s->t[s->n].type = type;
	s->t[s->n].text = xstrndup(p, n);
	s->t[s->n].line = line;
	s->n++;
}

/* A string literal's value (its escapes read) at p, after its quote. */
static const char *
read_string(struct src *s, const char *p, int line)
{
	char *v = xmalloc(strlen(p) + 1), *o = v;

	for (; *p != '"' && *p != '\0'; p++) {
		if (*p != '\\') {
			*o++ = *p;
			continue;
		}
		switch (*++p) {
		case 'n': *o++ = '\n'; break;
		case 't': *o++ = '\t'; break;
		case 'r': *o++ = '\r'; break;
		case '0': case '1': case '2': case '3': {
			int c = 0;

			for (int k = 0; k < 3 && *p >= '0' && *p <= '7'; k++)
				c = c * 8 + *p++ - '0';
			*o++ = (char)c;
			p--;
			break;
		}
		default: *o++ = *p; break;
		}
	}
	*o = '\0';
	add_tok(s, T_STR, v, (size_t)(o - v), line);
	free(v);
	return *p == '"' ? p + 1 : p;
}

/* Punctuators of two characters that matter here ("->", "==" ...). */
static size_t
punct_len(const char *p)
{
	static const char *const two[] = { "->", "==", "!=", "<=", ">=",
	    "&&", "||", "++", "--", "<<", ">>", "+=", "-=", "*=", "/=",
	    "|=", "&=" };

	for (size_t i = 0; i < sizeof two / sizeof *two; i++)
		if (strncmp(p, two[i], 2) == 0)
			return 2;
	return 1;
}

/* The line marker at p ("# 12 "src/x.c" 2"): its line, and its file. */
static const char *
marker(const char *p, int *line, char *file, size_t filesz)
{
	char *e;
	long n = strtol(p + 1, &e, 10);

	if (e != p + 1) {
		const char *q = strchr(e, '"'), *r = q ? strchr(q + 1, '"') :
		    NULL;

		*line = (int)n - 1;
		if (r != NULL && (size_t)(r - q) < filesz)
			snprintf(file, filesz, "%.*s", (int)(r - q - 1), q + 1);
	}
	return strchrnul(p, '\n');
}

/* The tokens of text that were written in the main file, s->path. */
static void
tokenize(struct src *s, const char *p)
{
	char file[4096] = "";
	int line = 1, bol = 1;

	while (*p != '\0') {
		int mine = s->path != NULL && strcmp(file, s->path) == 0;
		const char *q = p;

		if (*p == '\n') {
			line++, p++, bol = 1;
			continue;
		}
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		if (*p == '#' && bol) {
			p = marker(p, &line, file, sizeof file);
			if (s->path == NULL)
				s->path = xstrdup(file);
			continue;
		}
		bol = 0;
		if (*p == '"') {
			if (mine)
				p = read_string(s, p + 1, line);
			else
				for (p++; *p != '"' && *p; p += *p == '\\' ? 2 : 1)
					;
			p += !mine && *p == '"';
			continue;
		}
		if (*p == '\'') {
			for (p++; *p != '\'' && *p; p += *p == '\\' ? 2 : 1)
				;
			p += *p == '\'';
			if (mine)
				add_tok(s, T_NUM, q, (size_t)(p - q), line);
			continue;
		}
		if (isalnum((unsigned char)*p) || *p == '_') {
			int num = isdigit((unsigned char)*p);

			while (isalnum((unsigned char)*p) || *p == '_' ||
			    (num && *p == '.'))
				p++;
			if (mine)
				add_tok(s, num ? T_NUM : T_ID, q, (size_t)(p - q),
				    line);
			continue;
		}
		p += punct_len(p);
		if (mine)
			add_tok(s, T_PUNCT, q, (size_t)(p - q), line);
	}
}

static void
read_source(const char *ipath)
{
	FILE *f = fopen(ipath, "r");
	char *text = NULL;
	size_t cap = 0;
	ssize_t n;
	struct src *s;

	if (f == NULL)
		err(1, "%s", ipath);
	n = getdelim(&text, &cap, '\0', f);
	if (n < 0 || ferror(f))
		err(1, "%s", ipath);
	fclose(f);
	srcs = xreallocarray(srcs, nsrcs + 1, sizeof *srcs);
	s = &srcs[nsrcs++];
	memset(s, 0, sizeof *s);
	tokenize(s, text);
	if (s->path == NULL)
		errx(1, "%s: no line marker (not cc -E output)", ipath);
	free(text);
}

/* ---- LIST ---- */

/* The next word of *p, cut off; NULL at the end of the line. */
static char *
word(char **p)
{
	char *w;

	*p += strspn(*p, " \t");
	if (**p == '\0')
		return NULL;
	w = *p;
	*p += strcspn(*p, " \t");
	if (**p != '\0')
		*(*p)++ = '\0';
	return w;
}

static void
list_func(char *rest, const char *list, int lineno)
{
	static const char *const kinds[] = { "translated", "native", "sqlite",
	    "bulk" };
	char *name = word(&rest), *args = word(&rest), *kind = word(&rest);
	struct func *f;

	if (name == NULL || args == NULL || kind == NULL)
		errx(1, "%s:%d: func NAME ARG[,ARG] KIND", list, lineno);
	funcs = xreallocarray(funcs, nfuncs + 1, sizeof *funcs);
	f = &funcs[nfuncs++];
	f->name = xstrdup(name);
	f->narg = sscanf(args, "%d,%d", &f->arg[0], &f->arg[1]);
	f->kind = -1;
	for (int k = 0; k < 4; k++)
		if (strcmp(kind, kinds[k]) == 0)
			f->kind = k;
	if (f->narg < 1 || f->kind < 0)
		errx(1, "%s:%d: bad func line", list, lineno);
}

/* A copy of s, or NULL; LIST's line buffer is used again. */
static char *
dup(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

static void
list_entry(char *rest, const char *list, int lineno, int sqlite)
{
	struct entry e = { .lineno = lineno };
	char *field;

	e.file = dup(word(&rest));
	e.fn = dup(word(&rest));
	if (sqlite)
		e.expr = dup(rest + strspn(rest, " \t"));
	else {
		e.expr = dup(word(&rest));
		e.action = dup(word(&rest));
		if (e.action != NULL && strcmp(e.action, "covered") == 0)
			e.name = dup(rest + strspn(rest, " \t"));
		else {
			e.name = dup(word(&rest));
			if ((field = word(&rest)) != NULL)
				e.field = atoi(field);
		}
	}
	if (e.file == NULL || e.fn == NULL || e.expr == NULL ||
	    e.expr[0] == '\0' || (!sqlite && (e.action == NULL ||
	    (strcmp(e.action, "wrapper") != 0 && (e.name == NULL ||
	    e.name[0] == '\0')))))
		errx(1, "%s:%d: incomplete line", list, lineno);
	if (sqlite) {
		lite = xreallocarray(lite, nlite + 1, sizeof *lite);
		lite[nlite++] = e;
	} else {
		dyn = xreallocarray(dyn, ndyn + 1, sizeof *dyn);
		dyn[ndyn++] = e;
	}
}

static void
read_list(const char *list)
{
	FILE *f = fopen(list, "r");
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0;

	if (f == NULL)
		err(1, "%s", list);
	while (getline(&line, &cap, f) >= 0) {
		char *rest = line, *w;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if ((w = word(&rest)) == NULL || w[0] == '#')
			continue;
		if (strcmp(w, "func") == 0)
			list_func(rest, list, lineno);
		else if (strcmp(w, "dynamic") == 0 || strcmp(w, "sqlite") == 0)
			list_entry(rest, list, lineno, w[0] == 's');
		else
			errx(1, "%s:%d: unknown line '%s'", list, lineno, w);
	}
	free(line);
	fclose(f);
}

/* ---- finding the statements ---- */

/* Whether token i is the word or punctuator text (never a string). */
static int
is(const struct src *s, size_t i, const char *text)
{
	return i < s->n && s->t[i].type != T_STR &&
	    strcmp(s->t[i].text, text) == 0;
}

/* The closing token of the bracket at i (its index), or s->n. */
static size_t
close_of(const struct src *s, size_t i)
{
	int depth = 0;

	for (; i < s->n; i++) {
		const char *x = s->t[i].text;

		if (s->t[i].type != T_PUNCT)
			continue;
		if (strchr("([{", x[0]) != NULL && x[1] == '\0')
			depth++;
		else if (strchr(")]}", x[0]) != NULL && x[1] == '\0' &&
		    --depth == 0)
			return i;
	}
	return s->n;
}

/* The end of the expression from a: a ',' ';' or closer at its depth. */
static size_t
expr_end(const struct src *s, size_t a)
{
	while (a < s->n && !is(s, a, ",") && !is(s, a, ";") &&
	    !is(s, a, ")") && !is(s, a, "]") && !is(s, a, "}"))
		a = strchr("([{", s->t[a].text[0]) != NULL &&
		    s->t[a].type == T_PUNCT ? close_of(s, a) + 1 : a + 1;
	return a;
}

/* The tokens a..b as one word, for LIST and for messages. */
static char *
joined(const struct src *s, size_t a, size_t b)
{
	char *j = xstrdup("");

	for (size_t i = a; i < b; i++) {
		char *n = xasprintf(s->t[i].type == T_STR ? "%s\"%s\"" :
		    "%s%s", j, s->t[i].text);

		free(j);
		j = n;
	}
	return j;
}

static int
ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);

	return n >= m && strcmp(s + n - m, end) == 0;
}

/*
 * Which branch of "cond ? a : b" runs on a server, by the code path:
 * 1 for a when cond is "X->pg != NULL" (or "X->pg"), -1 for b when it is
 * "X->pg == NULL", else 0 (both may).
 */
static int
pg_branch(const struct src *s, size_t a, size_t b)
{
	char *c = joined(s, a, b);
	int r = 0;

	while (strlen(c) > 2 && c[0] == '(' && c[strlen(c) - 1] == ')') {
		memmove(c, c + 1, strlen(c));
		c[strlen(c) - 1] = '\0';
	}
	if (ends_with(c, "->pg!=((void*)0)") || ends_with(c, "->pg"))
		r = 1;
	else if (ends_with(c, "->pg==((void*)0)"))
		r = -1;
	free(c);
	return r;
}

/* A value the expression a..b can have: SQL, or the tokens it is. */
struct leaf {
	size_t	 a, b;
	char	*sql;		/* NULL: not a literal */
	int	 sqlite;	/* on a branch that runs on SQLite alone */
};

static void
add_leaf(struct leaf **l, size_t *n, size_t a, size_t b, char *sql,
    int sqlite)
{
	*l = xreallocarray(*l, *n + 1, sizeof **l);
	(*l)[*n].a = a;
	(*l)[*n].b = b;
	(*l)[*n].sql = sql;
	(*l)[(*n)++].sqlite = sqlite;
}

/* The depth-0 '?' of a..b and its ':' (*colon), or b. */
static size_t
ternary(const struct src *s, size_t a, size_t b, size_t *colon)
{
	size_t q = b;
	int nest = 0;

	for (size_t i = a; i < b; i++) {
		if (s->t[i].type == T_PUNCT && strchr("([{", s->t[i].text[0]))
			i = close_of(s, i);
		else if (is(s, i, "?") && q == b)
			q = i;
		else if (is(s, i, "?"))
			nest++;
		else if (is(s, i, ":") && q != b && nest-- == 0) {
			*colon = i;
			return q;
		}
	}
	return b;
}

/* The values the expression a..b can have, a ternary's both. */
static void
resolve(const struct src *s, size_t a, size_t b, int sqlite,
    struct leaf **l, size_t *n)
{
	size_t q, colon = b;
	char *j;
	int all = 1;

	while (b > a + 1 && is(s, a, "(") && close_of(s, a) == b - 1)
		a++, b--;
	j = joined(s, a, b);
	if (strcmp(j, "(void*)0") == 0 || strcmp(j, "0") == 0) {
		free(j);	/* NULL: no statement */
		return;
	}
	free(j);
	if ((q = ternary(s, a, b, &colon)) < b) {
		int pg = pg_branch(s, a, q);

		resolve(s, q + 1, colon, sqlite || pg < 0, l, n);
		resolve(s, colon + 1, b, sqlite || pg > 0, l, n);
		return;
	}
	for (size_t i = a; i < b; i++)
		all &= s->t[i].type == T_STR;
	if (!all || a == b) {
		add_leaf(l, n, a, b, NULL, sqlite);
		return;
	}
	j = xstrdup("");
	for (size_t i = a; i < b; i++) {
		char *x = xasprintf("%s%s", j, s->t[i].text);

		free(j);
		j = x;
	}
	add_leaf(l, n, a, b, j, sqlite);
}

static struct func *
find_func(const char *name)
{
	for (size_t i = 0; i < nfuncs; i++)
		if (strcmp(funcs[i].name, name) == 0)
			return &funcs[i];
	return NULL;
}

/*
 * The statement sql, written at file:line and sent by the function fn:
 * kept to be prepared, unless LIST says that it runs on SQLite alone.
 */
static void
add_stmt(const char *file, int line, const char *fn, const char *sql,
    int kind)
{
	for (size_t i = 0; i < nlite; i++)
		if (strcmp(lite[i].file, file) == 0 &&
		    strcmp(lite[i].fn, fn) == 0 &&
		    strstr(sql, lite[i].expr) != NULL) {
			lite[i].used++;
			nsqlite_listed++;
			return;
		}
	for (size_t i = 0; i < nstmts; i++)
		if (stmts[i].line == line && strcmp(stmts[i].file, file) == 0 &&
		    strcmp(stmts[i].sql, sql) == 0)
			return;	/* the same initializer, another caller */
	stmts = xreallocarray(stmts, nstmts + 1, sizeof *stmts);
	stmts[nstmts].file = file;
	stmts[nstmts].line = line;
	stmts[nstmts].fn = xstrdup(fn);
	stmts[nstmts].sql = xstrdup(sql);
	stmts[nstmts++].kind = kind;
}

/* The literals of the expression a..b in s, as statements. */
static int
add_expr(const struct src *s, size_t a, size_t b, const char *fn, int kind)
{
	struct leaf *l = NULL;
	size_t n = 0;
	int found = 0;

	resolve(s, a, b, 0, &l, &n);
	for (size_t i = 0; i < n; i++) {
		char *j = joined(s, l[i].a, l[i].b);

		if (l[i].sql != NULL) {
			add_stmt(s->path, s->t[l[i].a].line, fn, l[i].sql,
			    kind);
			found++;
		} else
			fail("%s:%d: '%s' in an initializer is not a literal",
			    s->path, s->t[l[i].a].line, j);
		free(j);
		free(l[i].sql);
	}
	free(l);
	return found;
}

/* Element k (from 1) of the braced list at i, as *a..*b; 0 if none. */
static int
element(const struct src *s, size_t i, int k, size_t *a, size_t *b)
{
	size_t end = close_of(s, i);

	for (size_t e = i + 1; e < end; e = *b + 1) {
		*a = e;
		*b = expr_end(s, e);
		if (--k == 0)
			return 1;
	}
	return 0;
}

/*
 * The statements of the array (or string) name's initializer in s, each
 * element's, or with field its element field (from 1) of each.
 */
static int
collect_array(const struct src *s, const char *name, int field,
    const char *fn, int kind)
{
	int found = 0;

	for (size_t i = 0; i + 1 < s->n; i++) {
		size_t j = i + 1, a, b;

		if (s->t[i].type != T_ID || strcmp(s->t[i].text, name) != 0)
			continue;
		while (is(s, j, "["))
			j = close_of(s, j) + 1;
		if (!is(s, j, "=") || (i > 0 && (is(s, i - 1, ".") ||
		    is(s, i - 1, "->"))))
			continue;
		if (!is(s, ++j, "{")) {
			found += add_expr(s, j, expr_end(s, j), fn, kind);
			continue;
		}
		for (int k = 1; element(s, j, k, &a, &b); k++) {
			while (is(s, a, "[") || is(s, a, "."))
				a = (is(s, a, "[") ? close_of(s, a) : a + 1) + 2;
			if (field > 0 && !(is(s, a, "{") &&
			    element(s, a, field, &a, &b)))
				continue;
			if (field == 0 && is(s, a, "{")) {
				/* An array of arrays: each of its elements. */
				size_t ia, ib;

				for (int m = 1; element(s, a, m, &ia, &ib); m++)
					found += add_expr(s, ia, ib, fn, kind);
				continue;
			}
			found += add_expr(s, a, b, fn, kind);
		}
	}
	return found;
}

/* The statements of every initializer ".name = ..." in src/. */
static int
collect_member(const char *name, const char *fn, int kind)
{
	int found = 0;

	for (size_t f = 0; f < nsrcs; f++) {
		const struct src *s = &srcs[f];

		for (size_t i = 0; i + 2 < s->n; i++)
			if (is(s, i, ".") && is(s, i + 1, name) &&
			    is(s, i + 2, "="))
				found += add_expr(s, i + 3, expr_end(s, i + 3),
				    fn, kind);
	}
	return found;
}

/*
 * The argument a..b of a call in fn that is not a literal: LIST must
 * name it, and say where its statements are.
 */
static void
dynamic(const struct src *s, size_t a, size_t b, const char *fn, int kind)
{
	char *j = joined(s, a, b);
	struct entry *e = NULL;
	int found = 0;

	for (size_t i = 0; i < ndyn && e == NULL; i++)
		if (strcmp(dyn[i].file, s->path) == 0 &&
		    strcmp(dyn[i].fn, fn) == 0 && strcmp(dyn[i].expr, j) == 0)
			e = &dyn[i];
	if (e == NULL) {
		fail("%s:%d: %s(): the SQL '%s' is not a literal, and the list"
		    " of dynamic statements does not name it", s->path,
		    s->t[a].line, fn, j);
		free(j);
		return;
	}
	free(j);
	e->used++;
	if (strcmp(e->action, "covered") == 0) {
		ncovered++;
		return;
	}
	if (strcmp(e->action, "wrapper") == 0) {
		/* Its callers' SQL is collected: it must be a func. */
		if (find_func(fn) == NULL)
			fail("%s:%d: %s() forwards its SQL but is no func of"
			    " the list", s->path, s->t[a].line, fn);
		return;
	}
	if (strcmp(e->action, "array") == 0)
		found = collect_array(s, e->name, e->field, fn, kind);
	else if (strcmp(e->action, "member") == 0)
		found = collect_member(e->name, fn, kind);
	else
		errx(1, "list line %d: unknown action '%s'", e->lineno,
		    e->action);
	if (found == 0)
		fail("list line %d: %s %s: no statement found", e->lineno,
		    e->action, e->name);
}

/* A bulk load's table and columns, as the SELECT of them both. */
static void
bulk(const struct src *s, size_t at[][2], const char *fn)
{
	struct leaf *t = NULL, *c = NULL;
	size_t nt = 0, nc = 0;

	resolve(s, at[0][0], at[0][1], 0, &t, &nt);
	resolve(s, at[1][0], at[1][1], 0, &c, &nc);
	if (nt == 1 && nc == 1 && t[0].sql != NULL && c[0].sql != NULL) {
		char *sql = xasprintf("SELECT %s FROM %s", c[0].sql, t[0].sql);

		add_stmt(s->path, s->t[at[0][0]].line, fn, sql, K_TRANSLATED);
		free(sql);
	} else
		dynamic(s, at[0][0], at[1][1], fn, K_TRANSLATED);
	for (size_t i = 0; i < nt; i++)
		free(t[i].sql);
	for (size_t i = 0; i < nc; i++)
		free(c[i].sql);
	free(t);
	free(c);
}

/* The call of f in fn whose '(' is at i. */
static void
call(const struct src *s, const struct func *f, const char *fn, size_t i)
{
	size_t end = close_of(s, i), at[2][2];

	nsites++;
	for (int k = 0; k < f->narg; k++) {
		size_t a, b;

		if (!element(s, i, f->arg[k], &a, &b) || b > end)
			errx(1, "%s:%d: %s has no argument %d", s->path,
			    s->t[i].line, f->name, f->arg[k]);
		at[k][0] = a;
		at[k][1] = b;
	}
	if (f->kind == K_SQLITE) {
		nsqlite_api++;	/* SQLite's own: never sent to a server */
		return;
	}
	if (f->kind == K_BULK) {
		bulk(s, at, fn);
		return;
	}
	for (int k = 0; k < f->narg; k++) {
		struct leaf *l = NULL;
		size_t n = 0;

		resolve(s, at[k][0], at[k][1], 0, &l, &n);
		for (size_t j = 0; j < n; j++) {
			if (l[j].sqlite)
				nsqlite_branch++;
			else if (l[j].sql == NULL)
				dynamic(s, l[j].a, l[j].b, fn, f->kind);
			else
				add_stmt(s->path, s->t[l[j].a].line, fn,
				    l[j].sql, f->kind);
			free(l[j].sql);
		}
		free(l);
	}
}

/* Every call of a func in s, inside a function body. */
static void
scan(const struct src *s)
{
	const char *fn = "", *cand = "";
	int depth = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct func *f;
		char *name;

		if (is(s, i, "{")) {
			if (depth++ == 0)
				fn = i > 0 && is(s, i - 1, ")") ? cand : "";
		} else if (is(s, i, "}") && --depth == 0)
			fn = "";
		if (s->t[i].type != T_ID || !is(s, i + 1, "("))
			continue;
		if (depth == 0) {
			/* A definition's name; its parameters name no call. */
			cand = s->t[i].text;
			i = close_of(s, i + 1);
			continue;
		}
		if (i >= 2 && (is(s, i - 1, ".") || is(s, i - 1, "->")))
			name = xasprintf("%s.%s", s->t[i - 2].text,
			    s->t[i].text);
		else
			name = xstrdup(s->t[i].text);
		if ((f = find_func(name)) != NULL)
			call(s, f, fn, i + 1);
		free(name);
	}
}

/* ---- on the server ---- */

/* A one-line copy of s, for a FAIL line. */
static char *
one_line(const char *s)
{
	char *c = xstrdup(s);

	for (char *p = c; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
	return c;
}

/* Runs sql in a savepoint, kept if it worked; else *why, freed later. */
static int
run(PGconn *c, const char *sql, int nparam, const Oid *types, int prepare,
    char **why, char state[6])
{
	PGresult *r;
	int ok;

	PQclear(PQexec(c, "SAVEPOINT statement"));
	r = prepare ? PQprepare(c, "", sql, nparam, types) : PQexec(c, sql);
	ok = PQresultStatus(r) == PGRES_COMMAND_OK ||
	    PQresultStatus(r) == PGRES_TUPLES_OK;
	if (!ok) {
		const char *st = PQresultErrorField(r, PG_DIAG_SQLSTATE);

		*why = one_line(PQresultErrorMessage(r));
		(*why)[strcspn(*why, "\n")] = '\0';
		snprintf(state, 6, "%s", st != NULL ? st : "?????");
	}
	PQclear(r);
	PQclear(PQexec(c, ok ? "RELEASE SAVEPOINT statement" :
	    "ROLLBACK TO SAVEPOINT statement"));
	return ok;
}

/* A statement as the server gets it: one piece of it, its parameters. */
struct piece {
	const struct stmt *st;
	char	*sql;
	int	 n;
	Oid	 type[80];
	int	 done;
};

/*
 * The parameters of p's translation, typed as dbpg_prepare types them
 * before they are bound: one the SQL never names goes as text, a name
 * key the client computes as int8; the rest are the server's to infer.
 */
static void
param_types(struct piece *p, int nparam, int nextra)
{
	char used[80] = { 0 };

	p->n = nparam + nextra < 80 ? nparam + nextra : 80;
	for (const char *c = p->sql; *c != '\0'; c++) {
		if (*c == '\'' || *c == '"') {
			for (char q = *c++; *c != '\0' && *c != q; c++)
				;
			if (*c == '\0')
				break;
		} else if (*c == '$' && isdigit((unsigned char)c[1])) {
			int k = atoi(c + 1);

			if (k >= 1 && k <= p->n)
				used[k - 1] = 1;
		}
	}
	for (int k = 0; k < p->n; k++)
		p->type[k] = k >= nparam ? 20 : used[k] ? 0 : 25;
}

/* The pieces of st, translated: its statements, split at ';'. */
static struct piece *
pieces(const struct stmt *st, struct piece *v, size_t *nv)
{
	int nparam = 0, extra[8], nextra = 0;
	char *t = st->kind == K_NATIVE ? xstrdup(st->sql) : dbpg_pin_keys(
	    dbpg_translate(st->sql, &nparam, extra, 8, &nextra),
	    INT64_C(1) << 62);
	char *p = t, *q;

	/* Only db_exec's (no parameters) may hold more than one. */
	while (*p != '\0') {
		for (q = p; *q != '\0' && (*q != ';' || nparam > 0); q++)
			if (*q == '\'' || *q == '"')
				for (char c = *q++; *q != '\0' && *q != c; q++)
					;
		if (strspn(p, " \n\t;") < (size_t)(q - p)) {
			v = xreallocarray(v, *nv + 1, sizeof *v);
			memset(&v[*nv], 0, sizeof *v);
			v[*nv].st = st;
			v[*nv].sql = xstrndup(p, (size_t)(q - p));
			param_types(&v[(*nv)++], nparam, nextra);
		}
		p = *q != '\0' ? q + 1 : q;
	}
	free(t);
	return v;
}

static void
report(const struct piece *p, const char *why)
{
	char *sql = one_line(p->sql);

	fail("%s:%d: %s(): %s: %s", p->st->file, p->st->line, p->st->fn, sql,
	    why);
	free(sql);
}

/*
 * The statements that CREATE, run (in the transaction) until no more
 * succeed, since one may need another's table; one that finds its object
 * there already was checked as well as the server checks it.
 */
static void
run_creates(PGconn *c, struct piece *v, size_t nv)
{
	char *why = NULL, state[6];
	int progress = 1;

	while (progress) {
		progress = 0;
		for (size_t i = 0; i < nv; i++) {
			if (v[i].done || strncasecmp(v[i].sql + strspn(v[i].sql,
			    " \n"), "CREATE", 6) != 0)
				continue;
			if (run(c, v[i].sql, 0, NULL, 0, &why, state)) {
				v[i].done = progress = 1;
				passed++;
			}
			free(why);
			why = NULL;
		}
	}
	for (size_t i = 0; i < nv; i++) {
		if (v[i].done || strncasecmp(v[i].sql + strspn(v[i].sql,
		    " \n"), "CREATE", 6) != 0)
			continue;
		v[i].done = 1;
		if (run(c, v[i].sql, 0, NULL, 0, &why, state) ||
		    strcmp(state, "42P07") == 0 || strcmp(state, "42710") == 0)
			passed++;
		else
			report(&v[i], why);
		free(why);
		why = NULL;
	}
}

/* Every statement on the server: the CREATEs run, the rest prepared. */
static void
on_server(void)
{
	PGconn *c = PQconnectdb("");
	struct piece *v = NULL;
	size_t nv = 0;
	char *why = NULL, state[6];

	if (PQstatus(c) != CONNECTION_OK)
		errx(1, "cannot connect: %s", PQerrorMessage(c));
	for (size_t i = 0; i < nstmts; i++)
		v = pieces(&stmts[i], v, &nv);
	PQclear(PQexec(c, "BEGIN"));
	run_creates(c, v, nv);
	for (size_t i = 0; i < nv; i++) {
		if (v[i].done)
			continue;
		if (run(c, v[i].sql, v[i].n, v[i].type, 1, &why, state))
			passed++;
		else
			report(&v[i], why);
		free(why);
		why = NULL;
	}
	PQclear(PQexec(c, "ROLLBACK"));
	PQfinish(c);
	printf("%zu statements from %d calls and their initializers,"
	    " %zu sent to the server: %d passed\n", nstmts, nsites, nv,
	    passed);
	for (size_t i = 0; i < nv; i++)
		free(v[i].sql);
	free(v);
}

/* Each line of LIST must still name something in src/. */
static void
check_list(void)
{
	for (size_t i = 0; i < ndyn; i++)
		if (dyn[i].used == 0)
			fail("list line %d: no call in %s %s() has the SQL '%s'"
			    " any more", dyn[i].lineno, dyn[i].file, dyn[i].fn,
			    dyn[i].expr);
		else
			passed++;
	for (size_t i = 0; i < nlite; i++)
		if (lite[i].used == 0)
			fail("list line %d: no statement in %s %s() has '%s'"
			    " any more", lite[i].lineno, lite[i].file,
			    lite[i].fn, lite[i].expr);
		else
			passed++;
}

int
main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: pg-statements LIST FILE.i ...\n");
		return 2;
	}
	read_list(argv[1]);
	for (int i = 2; i < argc; i++)
		read_source(argv[i]);
	for (size_t i = 0; i < nsrcs; i++)
		scan(&srcs[i]);
	on_server();
	printf("only on SQLite: %d calls of SQLite's own functions,"
	    " %d branches for SQLite, %d statements listed;"
	    " %d dynamic calls covered elsewhere; %zu list lines\n",
	    nsqlite_api, nsqlite_branch, nsqlite_listed, ncovered,
	    ndyn + nlite);
	check_list();
	printf("tally %d %d\n", passed, failed);
	return 0;
}
