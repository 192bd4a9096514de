/*
 * complete.c - the --complete mode of every tool (complete.h): the
 * request read, the command line walked by the tool's grammar to the
 * word being completed, the candidates that begin it collected, sorted
 * and printed.  The tool supplies its grammar and the names of its
 * database; everything else is here.
 */
#include "term/complete.h"

#include "core/cli.h"
#include "db/db.h"
#include "core/journal.h"
#include "base/names.h"
#include "base/util.h"

#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the word being completed is. */
enum want {
	WANT_NOTHING,
	WANT_OPTION,		/* a long option */
	WANT_VALUE,		/* the value of option opt */
	WANT_WORD		/* positional word number pos */
};

struct complete {
	const struct complete_tool	*t;
	const struct option		*longopts;
	char				**w;	/* the words, w[0] the tool */
	int				 nw;
	int				 cword;
	/* The options given on the line, by their full names. */
	const char			**optname, **optval;
	int				 nopt;
	/* The positional words before the one being completed. */
	const char			**pos;
	int				 npos;
	/* What the candidates begin with, and what goes around them. */
	const char			*typed;
	char				*before;	/* "--rules=", or "" */
	const char			*after;		/* "=", or "" */
	char				**cand;
	size_t				 ncand;
	int				 files;
	struct db			*db;
	int				 db_tried;
};

/*
 * The full name of the option typed (len bytes, without "--"), which
 * getopt_long also takes by a unique prefix, and in *value whether it
 * takes a value; NULL for an option the tool does not have.
 */
static const char *
find_option(const struct complete *c, const char *typed, size_t len,
    int *value)
{
	const struct option *found = NULL;
	int nfound = 0;

	if (c->longopts != NULL) {
		for (const struct option *o = c->longopts; o->name; o++) {
			if (strncmp(o->name, typed, len) != 0)
				continue;
			if (strlen(o->name) == len) {
				found = o;
				nfound = 1;
				break;
			}
			if (nfound++ == 0)
				found = o;
		}
		if (nfound != 1)
			return NULL;
		*value = found->has_arg == required_argument;
		return found->name;
	}
	/* A tool that parses its own options takes whole names only. */
	for (int v = 1; v >= 0; v--) {
		const char *const *const *lists = v ? c->t->opts : c->t->flags;

		for (size_t l = 0; lists != NULL && lists[l] != NULL; l++)
			for (size_t i = 0; lists[l][i] != NULL; i++)
				if (strlen(lists[l][i]) == len &&
				    strncmp(lists[l][i], typed, len) == 0) {
					*value = v;
					return lists[l][i];
				}
	}
	return NULL;
}

/* The long option of short option ch, or NULL. */
static const struct option *
short_option(const struct complete *c, int ch)
{
	if (c->longopts == NULL)
		return NULL;
	for (const struct option *o = c->longopts; o->name; o++)
		if (o->val == ch)
			return o;
	return NULL;
}

static void
given(struct complete *c, const char *name, const char *value)
{
	c->optname[c->nopt] = name;
	c->optval[c->nopt++] = value;
}

const char *
complete_option(struct complete *c, const char *name)
{
	/* The last one given, as getopt_long leaves it. */
	for (int i = c->nopt - 1; i >= 0; i--)
		if (strcmp(c->optname[i], name) == 0)
			return c->optval[i];
	return NULL;
}

/*
 * Walks the words as the tool's parser would, keeping the options'
 * values (from every word but the one being completed) and the
 * positional words before it.  Returns what that word is; *opt is the
 * option whose value it is (WANT_VALUE).
 */
static enum want
walk(struct complete *c, const char **opt)
{
	const char *expect = NULL;
	enum want want = WANT_NOTHING;
	int rest = 0;

	for (int i = 1; i < c->nw; i++) {
		const char *a = c->w[i], *eq;
		int value = 0;

		if (i == c->cword) {
			if (expect != NULL) {
				*opt = expect;
				want = WANT_VALUE;
			} else if (!rest && a[0] == '-' && a[1] == '-' &&
			    (eq = strchr(a, '=')) != NULL) {
				*opt = find_option(c, a + 2,
				    (size_t)(eq - a - 2), &value);
				free(c->before);
				c->before = xstrndup(a, (size_t)(eq - a + 1));
				c->typed = eq + 1;
				want = *opt != NULL && value ? WANT_VALUE :
				    WANT_NOTHING;
			} else if (!rest && a[0] == '-')
				/* "-" too; a short option is left as it is. */
				want = a[1] == '\0' || a[1] == '-' ?
				    WANT_OPTION : WANT_NOTHING;
			else
				want = WANT_WORD;
			expect = NULL;
			continue;
		}
		if (expect != NULL) {
			given(c, expect, a);
			expect = NULL;
		} else if (rest || a[0] != '-' || a[1] == '\0') {
			if (i < c->cword)
				c->pos[c->npos++] = a;
		} else if (strcmp(a, "--") == 0)
			rest = 1;
		else if (a[1] == '-') {
			const char *name;

			eq = strchr(a, '=');
			name = find_option(c, a + 2, eq ? (size_t)(eq - a - 2) :
			    strlen(a + 2), &value);
			if (name != NULL && eq != NULL)
				given(c, name, eq + 1);
			else if (name != NULL && value)
				expect = name;
			else if (name != NULL)
				given(c, name, "");
		} else {
			/* A cluster of short options: "-jd PATH", "-dPATH". */
			for (const char *s = a + 1; *s; s++) {
				const struct option *o = short_option(c,
				    (unsigned char)*s);

				if (o == NULL || o->has_arg != required_argument)
					continue;
				if (s[1] != '\0')
					given(c, o->name, s + 1);
				else
					expect = o->name;
				break;
			}
		}
	}
	/* A word after the last: empty so far. */
	if (c->cword >= c->nw) {
		*opt = expect;
		want = expect != NULL ? WANT_VALUE : WANT_WORD;
	}
	return want;
}

/* Offers s, prefixed and suffixed, if it begins what is typed. */
static void
offer(struct complete *c, const char *s, int as_name)
{
	size_t n = strlen(c->typed);

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return;	/* one candidate a line, always */
	if (*s == '\0' || (as_name ? !names_begins(c->typed, s) :
	    strncmp(s, c->typed, n) != 0))
		return;
	c->cand = xreallocarray(c->cand, c->ncand + 1, sizeof *c->cand);
	c->cand[c->ncand++] = xasprintf("%s%s%s", c->before, s, c->after);
}

void
complete_name(void *arg, const char *name)
{
	offer(arg, name, 1);
}

const char *
complete_word(struct complete *c, int i)
{
	if (i < 0)
		i += c->npos;
	return i >= 0 && i < c->npos ? c->pos[i] : NULL;
}

struct db *
complete_db(struct complete *c)
{
	const char *path = complete_option(c, "db");
	char *home = NULL;

	if (c->db_tried)
		return c->db;
	c->db_tried = 1;
	/* The shell would have made "~/x.db" the home's. */
	if (path != NULL && strncmp(path, "~/", 2) == 0 &&
	    getenv("HOME") != NULL)
		path = home = xasprintf("%s%s", getenv("HOME"), path + 1);
	/* A server that does not answer is not waited for long. */
	setenv("PGCONNECT_TIMEOUT", "3", 0);
	c->db = db_open_existing(path != NULL && *path ? path : NULL);
	free(home);
	return c->db;
}

int64_t
complete_log(struct complete *c, const struct journal_kind *k)
{
	struct db *db = complete_db(c);
	const char *key = complete_option(c, k->option + 2);
	char why[1000];

	if (db == NULL)
		return 0;
	if (key != NULL)
		return db_key_parse(db, key);
	return journal_pick(db, k, cli_gm(complete_option(c, "gm")), 1, why,
	    sizeof why);
}

const struct complete_cmd complete_log_cmds[] = {
	{ "list", "", NULL },
	{ "log", "", NULL },
	{ "undo", "", NULL },
	{ "replay", "", NULL },
	{ "play", "", NULL },
	{ "watch", "", NULL },
	{ NULL, NULL, NULL }
};

const struct complete_value complete_sheet_values[] = {
	{ "output", "file" },
	{ "paper", "a4|letter" },
	{ "per-page", "1|2" },
	{ NULL, NULL }
};

/* Row cmd of a table, or the first of the table its end goes on to. */
static const struct complete_cmd *
cmd_at(const struct complete_cmd *cmd)
{
	while (cmd != NULL && cmd->name == NULL && cmd->sub != NULL)
		cmd = cmd->sub;
	return cmd != NULL && cmd->name != NULL ? cmd : NULL;
}

/* Offers the names of kind, from the tool's lists or its names(). */
static void
offer_names(struct complete *c, const char *kind)
{
	const struct complete_list *l = c->t->lists;
	struct db *db;
	int64_t id;

	while (l != NULL && l->kind != NULL && strcmp(l->kind, kind) != 0)
		l++;
	if (l == NULL || l->kind == NULL) {
		if (c->t->names != NULL)
			c->t->names(c, kind);
		return;
	}
	if ((db = complete_db(c)) == NULL)
		return;
	if (l->each != NULL)
		l->each(db, complete_name, c);
	else if (c->t->log != NULL &&
	    (id = complete_log(c, c->t->log)) != 0)
		l->in_log(db, id, complete_name, c);
}

/* Offers what a word of kind may be (complete.h). */
static void
offer_kind(struct complete *c, const char *kind)
{
	size_t n = strlen(kind);
	char *name;

	if (strcmp(kind, "-") == 0)
		return;
	if (strcmp(kind, "file") == 0) {
		c->files = 1;
		return;
	}
	if (strchr(kind, '|') != NULL) {
		char *words = xstrdup(kind), *save = NULL;

		for (char *t = strtok_r(words, "|", &save); t != NULL;
		    t = strtok_r(NULL, "|", &save))
			offer(c, t, 0);
		free(words);
		return;
	}
	if (n > 0 && kind[n - 1] == '=') {
		/* NAME=VALUE: once the '=' is typed, the value is free. */
		if (strchr(c->typed, '=') != NULL)
			return;
		c->after = "=";
		n--;
	}
	name = xstrndup(kind, n);
	offer_names(c, name);
	free(name);
}

/* The kind of word number i of args (complete.h), or "-". */
static char *
kind_at(const char *args, int i)
{
	char *copy = xstrdup(args ? args : ""), *save = NULL, *k[32];
	char *kind;
	int n = 0, m;
	size_t len;

	for (char *t = strtok_r(copy, " ", &save); t != NULL && n < 32;
	    t = strtok_r(NULL, " ", &save))
		k[n++] = t;
	if (n == 0)
		kind = xstrdup("-");
	else if (strcmp(k[n - 1], "...") == 0 && (m = n - 1) > 0)
		kind = xstrdup(k[i % m]);
	else if (i < n - 1)
		kind = xstrdup(k[i]);
	else if ((len = strlen(k[n - 1])) > 3 &&
	    strcmp(k[n - 1] + len - 3, "...") == 0)
		kind = xstrndup(k[n - 1], len - 3);
	else
		kind = xstrdup(i == n - 1 ? k[i] : "-");
	free(copy);
	return kind;
}

static const struct complete_cmd *
find_cmd(const struct complete_cmd *cmds, const char *name)
{
	for (cmds = cmd_at(cmds); cmds != NULL; cmds = cmd_at(cmds + 1))
		if (strcmp(cmds->name, name) == 0)
			return cmds;
	return NULL;
}

/* Offers what positional word number i may be. */
static void
offer_word(struct complete *c, int i)
{
	const struct complete_cmd *cmd, *sub;
	const char *args;
	char *kind;
	int at;

	if (i == 0) {
		for (cmd = cmd_at(c->t->cmds); cmd != NULL;
		    cmd = cmd_at(cmd + 1))
			offer(c, cmd->name, 0);
		if (c->t->bare == NULL)
			return;
	}
	if (i == 0 || (cmd = find_cmd(c->t->cmds, c->pos[0])) == NULL) {
		args = c->t->bare;
		at = i;
	} else if (cmd->sub != NULL && i == 1) {
		for (sub = cmd_at(cmd->sub); sub != NULL;
		    sub = cmd_at(sub + 1))
			offer(c, sub->name, 0);
		return;
	} else if (cmd->sub != NULL) {
		if ((sub = find_cmd(cmd->sub, c->pos[1])) == NULL)
			return;
		args = sub->args;
		at = i - 2;
	} else {
		args = cmd->args;
		at = i - 1;
	}
	if (args == NULL)
		return;
	kind = kind_at(args, at);
	offer_kind(c, kind);
	free(kind);
}

int
complete_takes(const struct complete_takes *takes, const char *option,
    const char *cmd, const char **cmds)
{
	size_t n = strlen(cmd);

	if (cmds != NULL)
		*cmds = NULL;
	for (; takes != NULL && takes->option != NULL; takes++) {
		if (strcmp(takes->option, option) != 0)
			continue;
		if (cmds != NULL)
			*cmds = takes->cmds;
		for (const char *p = takes->cmds; (p = strstr(p, cmd)) != NULL;
		    p += n)
			if ((p == takes->cmds || p[-1] == ' ') &&
			    (p[n] == ' ' || p[n] == '\0'))
				return 1;
		return 0;
	}
	return 1;
}

const char *
complete_misplaced(const struct complete_takes *takes, const char *cmd,
    const char *const *seen, size_t n, const char **cmds)
{
	for (size_t i = 0; i < n; i++)
		if (!complete_takes(takes, seen[i], cmd, cmds))
			return seen[i];
	if (cmds != NULL)
		*cmds = NULL;
	return NULL;
}

/*
 * Offers option name (without "--") unless the command on the line is
 * one the tool's table says does not take it.
 */
static void
offer_option(struct complete *c, const char *name)
{
	char *s;

	if (c->npos > 0 && find_cmd(c->t->cmds, c->pos[0]) != NULL &&
	    !complete_takes(c->t->takes, name, c->pos[0], NULL))
		return;
	s = xasprintf("--%s", name);
	offer(c, s, 0);
	free(s);
}

/* Offers the long options of the tool that the command takes. */
static void
offer_options(struct complete *c)
{
	if (c->longopts != NULL) {
		for (const struct option *o = c->longopts; o->name; o++)
			offer_option(c, o->name);
		return;
	}
	for (int v = 0; v < 2; v++) {
		const char *const *const *lists = v ? c->t->opts : c->t->flags;

		for (size_t l = 0; lists != NULL && lists[l] != NULL; l++)
			for (size_t i = 0; lists[l][i] != NULL; i++)
				offer_option(c, lists[l][i]);
	}
}

/* The kind of option opt's value, or NULL for none known. */
static const char *
value_kind(const struct complete *c, const char *opt)
{
	const struct complete_value *tables[] = {
		c->t->values, c->t->shared_values
	};

	for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
		for (const struct complete_value *v = tables[i]; v != NULL &&
		    v->option != NULL; v++)
			if (strcmp(v->option, opt) == 0)
				return v->kind;
	return strcmp(opt, "db") == 0 ? "file" : NULL;
}

static int
by_bytes(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Prints the answer: the candidates sorted and once each, or files. */
static void
answer(struct complete *c)
{
	if (c->files) {
		fputs("\tfiles\n", stdout);
		return;
	}
	if (c->ncand > 0)
		qsort(c->cand, c->ncand, sizeof *c->cand, by_bytes);
	for (size_t i = 0; i < c->ncand; i++)
		if (i == 0 || strcmp(c->cand[i], c->cand[i - 1]) != 0)
			printf("%s\n", c->cand[i]);
}

/*
 * Nothing of a completion reaches the terminal but its answer: whatever
 * a damaged or busy database makes the layers below say goes to
 * /dev/null.  Not in the fuzz build (tests/fuzz/hooks.h, included into
 * every file there), whose harness runs command after command in one
 * process and reports on standard error.
 */
static void
silence(void)
{
#ifndef REFKIT_FUZZ_HOOKS_H
	int fd = open("/dev/null", O_WRONLY);

	if (fd >= 0 && fd != STDERR_FILENO) {
		(void)dup2(fd, STDERR_FILENO);
		close(fd);
	}
#endif
}

void
complete_answer(int argc, char **argv, const struct complete_tool *t,
    const struct option *longopts)
{
	struct complete c;
	const char *opt = NULL, *kind;
	long cword;

	if (argc < 2 || strcmp(argv[1], "--complete") != 0)
		return;
	silence();
	if (argc < 5 || strcmp(argv[3], "--") != 0 ||
	    util_parse_int(argv[2], 0, argc - 4, &cword) != UTIL_INT_OK)
		exit(2);
	memset(&c, 0, sizeof c);
	c.t = t;
	c.longopts = longopts;
	c.w = argv + 4;
	c.nw = argc - 4;
	c.cword = (int)cword;
	c.optname = xcalloc((size_t)c.nw, sizeof *c.optname);
	c.optval = xcalloc((size_t)c.nw, sizeof *c.optval);
	c.pos = xcalloc((size_t)c.nw, sizeof *c.pos);
	c.typed = c.cword < c.nw ? c.w[c.cword] : "";
	c.before = xstrdup("");
	c.after = "";
	switch (walk(&c, &opt)) {
	case WANT_OPTION:
		offer_options(&c);
		break;
	case WANT_VALUE:
		if (opt != NULL && (kind = value_kind(&c, opt)) != NULL)
			offer_kind(&c, kind);
		break;
	case WANT_WORD:
		offer_word(&c, c.npos);
		break;
	case WANT_NOTHING:
		break;
	}
	answer(&c);
	if (c.db != NULL)
		db_close(c.db);
	for (size_t i = 0; i < c.ncand; i++)
		free(c.cand[i]);
	free(c.cand);
	free(c.before);
	free(c.optname);
	free(c.optval);
	free(c.pos);
	exit(fflush(stdout) != 0 || ferror(stdout) ? 1 : 0);
}
