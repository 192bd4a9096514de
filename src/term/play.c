/*
 * play.c - a prompt at which a tool's commands are typed one after
 * another (play.h).  Each command runs in a child process through the
 * tool's own entry point, as the one-shot command does; the prompt is
 * libedit's, with history and tab completion.
 */
#include "term/play.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <ctype.h>
#include <getopt.h>
#include <histedit.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fit.h"
#include "base/names.h"
#include "base/util.h"
#include "core/cli.h"
#include "core/journal.h"
#include "db/db.h"

/* The alias argv0 is, or whose command it is when that takes its words. */
static const struct play_alias *
alias_of(const struct play_alias *aliases, const char *argv0)
{
	const struct play_alias *a = NULL;

	for (size_t j = 0; aliases && aliases[j].alias; j++)
		if (strcmp(aliases[j].alias, argv0) == 0)
			return &aliases[j];
	for (size_t j = 0; aliases && aliases[j].alias; j++)
		if (aliases[j].whole && strcmp(aliases[j].command, argv0) == 0)
			a = &aliases[j];
	return a;
}

/* Whether option opt is among the words, alone or as "OPT=VALUE". */
static int
typed_too(int argc, char **argv, const char *opt)
{
	size_t n = strlen(opt);

	for (int i = 1; i < argc; i++)
		if (strncmp(argv[i], opt, n) == 0 && (argv[i][n] == '\0' ||
		    argv[i][n] == '='))
			return 1;
	return 0;
}

char **
play_expand(const struct play_alias *aliases, int argc, char **argv,
    int *nargc)
{
	const struct play_alias *a = argc > 0 ? alias_of(aliases, argv[0]) :
	    NULL;
	char **out = xcalloc((size_t)argc * 2 + 2, sizeof *out);
	int n = 0, i = 1, k = 0;

	if (a == NULL) {
		memcpy(out, argv, (size_t)argc * sizeof *out);
		*nargc = argc;
		return out;
	}
	out[n++] = (char *)a->command;
	for (; i < argc && i <= a->npos; i++)
		out[n++] = argv[i];
	/*
	 * Bare words after the names stand for the alias's options, unless
	 * the option is typed too: "attack a b c --card 7" is a word too many
	 * (a third target?), which the command refuses, not a second --card.
	 */
	for (; i < argc && argv[i][0] != '-' && k < PLAY_ALIAS_OPTS &&
	    a->opts[k] != NULL && !typed_too(argc, argv, a->opts[k]);
	    i++, k++) {
		out[n++] = (char *)a->opts[k];
		out[n++] = argv[i];
	}
	for (; i < argc; i++)
		out[n++] = argv[i];
	out[n] = NULL;
	*nargc = n;
	return out;
}

/* Whether word w is an option that takes the word after it as its value. */
static int
takes_value(const char *w, const char *shortopts,
    const struct option *longopts)
{
	const char *s;

	if (w[0] != '-' || w[1] == '\0')
		return 0;
	if (w[1] == '-') {
		size_t len = strcspn(w + 2, "=");
		const struct option *found = NULL;
		int nfound = 0;

		if (w[2 + len] == '=')
			return 0;
		/* getopt_long takes a unique prefix too. */
		for (const struct option *o = longopts; o && o->name; o++)
			if (strncmp(o->name, w + 2, len) == 0) {
				if (strlen(o->name) == len) {
					found = o;
					nfound = 1;
					break;
				}
				found = o;
				nfound++;
			}
		return nfound == 1 && found->has_arg == required_argument;
	}
	/* A cluster "-jo FILE": the last letter that takes a value. */
	for (const char *c = w + 1; *c; c++)
		if ((s = strchr(shortopts, *c)) != NULL && *c != ':' &&
		    s[1] == ':')
			return c[1] == '\0';
	return 0;
}

char **
play_command_line(const struct play_alias *aliases, const char *shortopts,
    const struct option *longopts, int argc, char **argv, int *nargc)
{
	char **tail, **out;
	int i = 1, n;

	for (; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0 || argv[i][0] != '-' ||
		    argv[i][1] == '\0')
			break;
		if (takes_value(argv[i], shortopts, longopts))
			i++;
	}
	if (i >= argc || strcmp(argv[i], "--") == 0) {
		out = xcalloc((size_t)argc + 1, sizeof *out);
		memcpy(out, argv, (size_t)argc * sizeof *out);
		*nargc = argc;
		return out;
	}
	tail = play_expand(aliases, argc - i, argv + i, &n);
	out = xcalloc((size_t)(i + n) + 1, sizeof *out);
	memcpy(out, argv, (size_t)i * sizeof *out);
	memcpy(out + i, tail, (size_t)n * sizeof *out);
	free(tail);
	*nargc = i + n;
	return out;
}

char **
play_command_line_lists(const struct play_alias *aliases,
    const char *shortopts, const char *const *const *value_opts, int argc,
    char **argv, int *nargc)
{
	struct option *lo;
	size_t n = 0, k = 0;
	char **v;

	for (size_t l = 0; value_opts && value_opts[l]; l++)
		for (size_t i = 0; value_opts[l][i]; i++)
			n++;
	lo = xcalloc(n + 1, sizeof *lo);
	for (size_t l = 0; value_opts && value_opts[l]; l++)
		for (size_t i = 0; value_opts[l][i]; i++) {
			lo[k].name = value_opts[l][i];
			lo[k++].has_arg = required_argument;
		}
	v = play_command_line(aliases, shortopts, lo, argc, argv, nargc);
	free(lo);
	return v;
}

/* The log the session keeps to, as users type its key; "" for none yet. */
static char pinned[64];

/* Whether the words are a command that takes the session's log. */
static int
takes_pin(const struct play_tool *t, int argc, char **argv)
{
	if (pinned[0] == '\0' || t->log_option == NULL)
		return 0;
	if (argc > 0 && t->start != NULL && strcmp(argv[0], t->start) == 0)
		return 0;
	for (int i = 0; i < argc; i++)
		if (strncmp(argv[i], t->log_option, strlen(t->log_option)) == 0)
			return 0;
	return 1;
}

/*
 * The word vector of one command: the tool's name, the lead, the
 * session's log, the words.
 */
static char **
full_argv(const struct play_tool *t, int argc, char **argv, int complete,
    int *n)
{
	char **v = xcalloc(t->nlead + (size_t)argc + 5, sizeof *v);
	int k = 0;

	v[k++] = (char *)t->name;
	for (size_t i = 0; i < t->nlead; i++)
		v[k++] = (char *)t->lead[i];
	/* A completion's request carries the pin inside it (ask_tool). */
	if (!complete && takes_pin(t, argc, argv)) {
		v[k++] = (char *)t->log_option;
		v[k++] = pinned;
	}
	for (int i = 0; i < argc; i++)
		v[k++] = argv[i];
	v[k] = NULL;
	*n = k;
	return v;
}

/*
 * A child's words, held where a leak checker sees them until it exits:
 * the request exits from wherever it ends.  Volatile: stores that are
 * never read would otherwise be dropped.
 */
static char **volatile child_words, **volatile child_argv;

/* The session's worker: its process, and the socket to it. */
static struct {
	pid_t	pid;		/* 0: none is running */
	int	fd;
} worker = { 0, -1 };

/*
 * Standard input becomes /dev/null: the commands read nothing from the
 * session's input, which is the script, and at exit stdio would set its
 * shared offset back to what this copy of the buffer had not read, so
 * that the session would read those lines again.
 */
static void
input_away(void)
{
	int fd;

	if ((fd = open("/dev/null", O_RDONLY)) < 0 ||
	    dup2(fd, STDIN_FILENO) < 0)
		_exit(1);
	close(fd);
}

/*
 * A completion's request, in a child of its own, silent as a shell's
 * completion is.  The commands themselves run in the session's worker
 * (below).
 */
static void
child(const struct play_tool *t, int argc, char **argv)
{
	int n;

	if (worker.fd >= 0)
		close(worker.fd);
	input_away();
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGHUP, SIG_IGN);
	setlocale(LC_ALL, "C");
	child_words = argv;
	child_argv = full_argv(t, argc, argv, 1, &n);
	/* getopt starts afresh, as in a new process. */
	optind = 0;
	if (freopen("/dev/null", "w", stderr) == NULL)
		_exit(1);
	exit(t->run(n, child_argv));
}

/*
 * The worker runs the session's commands one after another, each as
 * the one-shot tool runs it (its entry point, its transaction, its
 * event), in one process that keeps the database's connection between
 * them (db_keep_connections): on a server, a command pays no new
 * connection.  A refusal exits as the one-shot command does, and ends
 * the worker with it; the next command starts a new one.  Ctrl-C stops
 * the command under way and the worker with it; the worker finishes a
 * command when the terminal goes (its transaction is whole either way).
 *
 * A request is a kind ('C' a command, 'P' which log the session keeps
 * to) and words, each a length and its bytes; the answer to 'C' is the
 * command's status, to 'P' the log's key (its length, then it).
 */
static int
read_full(int fd, void *buf, size_t n)
{
	char *p = buf;

	while (n > 0) {
		ssize_t got = read(fd, p, n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		p += got;
		n -= (size_t)got;
	}
	return 0;
}

static int
write_full(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n > 0) {
		ssize_t put = send(fd, p, n, MSG_NOSIGNAL);

		if (put < 0 && errno == EINTR)
			continue;
		if (put <= 0)
			return -1;
		p += put;
		n -= (size_t)put;
	}
	return 0;
}

/* A request's words, read into one vector (freed by words_free). */
static char **
words_read(int fd, int *n)
{
	uint32_t count, len;
	char **v;

	if (read_full(fd, &count, sizeof count) != 0 || count > 4096)
		return NULL;
	v = xcalloc((size_t)count + 1, sizeof *v);
	for (uint32_t i = 0; i < count; i++) {
		if (read_full(fd, &len, sizeof len) != 0 || len > 1U << 24)
			exit(1);
		v[i] = xmalloc((size_t)len + 1);
		if (read_full(fd, v[i], len) != 0)
			exit(1);
		v[i][len] = '\0';
	}
	*n = (int)count;
	return v;
}

static void
words_free(char **v)
{
	for (size_t i = 0; v != NULL && v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

/* Which log the worker's session would act on now, into key ("": none). */
static void
worker_pin(const struct play_tool *t, char *key, size_t keysz)
{
	int saved = dup(STDERR_FILENO), dn = open("/dev/null", O_WRONLY);

	/* Silent: a command run next says what is wrong. */
	key[0] = '\0';
	fflush(stderr);
	if (dn >= 0)
		dup2(dn, STDERR_FILENO);
	if (journal_pin(t->db, t->kind, t->gm, key, keysz) != 0)
		key[0] = '\0';
	fflush(stderr);
	if (saved >= 0)
		dup2(saved, STDERR_FILENO);
	if (dn >= 0)
		close(dn);
	if (saved >= 0)
		close(saved);
}

/* One command line, in the worker: its status. */
static int
worker_run(const struct play_tool *t, int n, char **v)
{
	int rc;

	/* A refusal points to play's help, not to --help (v[0]: its word). */
	cli_play_hint(v[0][0] != '\0' ? v[0] : NULL);
	/* getopt starts afresh, as in a new process. */
	optind = 0;
	signal(SIGINT, SIG_DFL);
	rc = t->run(n - 1, v + 1);
	signal(SIGINT, SIG_IGN);
	/* A lost write ends the worker, as it ends a one-shot command. */
	util_check_stdout();
	fflush(stderr);
	return rc;
}

/* Whether the session is at a terminal, where a GM reads and types. */
static int at_terminal;

/*
 * While the GM reads the answer and types, what the connection still
 * has on its way is read, unless the next command is already there.  A
 * script's next command is always on its way: what is owed comes with
 * it, at no cost (and a session's round trips are the same every run).
 */
static void
settle(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN, .revents = 0 };

	if (at_terminal && poll(&p, 1, 0) == 0)
		db_kept_settle();
}

static void
worker_main(const struct play_tool *t, int fd)
{
	char kind, key[sizeof pinned];
	char **v;
	int n;

	input_away();
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGHUP, SIG_IGN);
	setlocale(LC_ALL, "C");
	db_keep_connections();
	while (read_full(fd, &kind, 1) == 0 && (v = words_read(fd, &n)) != NULL) {
		int32_t rc;
		uint32_t len;

		if (kind == 'P') {
			worker_pin(t, key, sizeof key);
			len = (uint32_t)strlen(key);
			if (write_full(fd, &len, sizeof len) != 0 ||
			    write_full(fd, key, len) != 0)
				exit(1);
			settle(fd);
		} else if (n > 1) {
			child_argv = v;
			rc = worker_run(t, n, v);
			child_argv = NULL;
			if (write_full(fd, &rc, sizeof rc) != 0)
				exit(1);
			settle(fd);
		} else
			exit(1);
		words_free(v);
	}
	/* The session is over: the connection is closed at exit. */
	exit(0);
}

static int
worker_start(const struct play_tool *t)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		warn("socketpair");
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	if ((worker.pid = fork()) < 0) {
		warn("fork");
		close(sv[0]);
		close(sv[1]);
		worker.pid = 0;
		return -1;
	}
	if (worker.pid == 0) {
		close(sv[0]);
		worker_main(t, sv[1]);
	}
	close(sv[1]);
	worker.fd = sv[0];
	return 0;
}

/*
 * The worker has gone (a refusal, Ctrl-C, a lost connection): its
 * status, as a command's; quiet says nothing of a signal.
 */
static int
worker_gone(int quiet)
{
	int status;

	close(worker.fd);
	worker.fd = -1;
	while (waitpid(worker.pid, &status, 0) < 0)
		if (errno != EINTR) {
			warn("waitpid");
			worker.pid = 0;
			return 1;
		}
	worker.pid = 0;
	if (WIFSIGNALED(status)) {
		if (!quiet)
			warnx("the command was stopped (%s); whatever it was "
			    "writing was not written",
			    strsignal(WTERMSIG(status)));
		return 1;
	}
	return WEXITSTATUS(status) != 0 ? WEXITSTATUS(status) : 1;
}

/* Sends the worker a request of kind and words; -1 if it is gone. */
static int
worker_send(const struct play_tool *t, char kind, int n, char **v)
{
	uint32_t count = (uint32_t)n;

	if (worker.pid == 0 && worker_start(t) != 0)
		return -1;
	fflush(stdout);
	fflush(stderr);
	if (write_full(worker.fd, &kind, 1) != 0 ||
	    write_full(worker.fd, &count, sizeof count) != 0)
		return -1;
	for (int i = 0; i < n; i++) {
		uint32_t len = (uint32_t)strlen(v[i]);

		if (write_full(worker.fd, &len, sizeof len) != 0 ||
		    write_full(worker.fd, v[i], len) != 0)
			return -1;
	}
	return 0;
}

/* Ends the session's worker, which closes its connection. */
static void
worker_stop(void)
{
	if (worker.pid != 0) {
		shutdown(worker.fd, SHUT_WR);
		(void)worker_gone(1);
	}
}

/* Runs the words as one command of the tool; its exit status. */
static int
run_words(const struct play_tool *t, int argc, char **argv)
{
	int32_t rc;
	char **v;
	int n;

	/* The command's own first word, for its refusal's hint, first. */
	v = full_argv(t, argc, argv, 0, &n);
	memmove(v + 1, v, ((size_t)n + 1) * sizeof *v);
	v[0] = argc > 0 ? argv[0] : "";
	n++;
	/* One that went between commands is started again, once. */
	if (worker_send(t, 'C', n, v) != 0) {
		if (worker.pid != 0)
			(void)worker_gone(1);
		if (worker_send(t, 'C', n, v) != 0) {
			free(v);
			if (worker.pid != 0)
				return worker_gone(0);
			return 1;
		}
	}
	free(v);
	if (read_full(worker.fd, &rc, sizeof rc) != 0)
		return worker_gone(0);
	return rc;
}

/*
 * Asks the worker which log this session keeps to now, and keeps it if
 * there is one.  A refusal there ends only the worker, silently.
 */
static void
pin_ask(const struct play_tool *t)
{
	char key[sizeof pinned];
	uint32_t len;

	if (t->kind == NULL)
		return;
	if (worker_send(t, 'P', 0, NULL) != 0 ||
	    read_full(worker.fd, &len, sizeof len) != 0 ||
	    len >= sizeof key || read_full(worker.fd, key, len) != 0) {
		if (worker.pid != 0)
			(void)worker_gone(1);
		return;
	}
	if (len > 0) {
		key[len] = '\0';
		memcpy(pinned, key, (size_t)len + 1);
	}
}

static int help(const struct play_tool *t, int argc, char **argv);

/*
 * Runs one line: "quit" and "exit" end the session (-1), help says what
 * play takes, an alias is expanded.  Returns the command's status.
 */
static int
run_line(const struct play_tool *t, int argc, char **argv)
{
	char **v;
	int n, rc;

	if (argc == 1 && (strcmp(argv[0], "quit") == 0 ||
	    strcmp(argv[0], "exit") == 0))
		return -1;
	if (strcmp(argv[0], "help") == 0)
		return help(t, argc, argv);
	v = play_expand(t->aliases, argc, argv, &n);
	rc = run_words(t, n, v);
	/* A new log is the session's from now on. */
	if (rc == 0 && t->start != NULL && n > 0 && strcmp(v[0], t->start) == 0)
		pinned[0] = '\0';
	if (pinned[0] == '\0')
		pin_ask(t);
	free(v);
	return rc;
}

/* Commands one a line from standard input, without a terminal. */
static int
scripted(const struct play_tool *t)
{
	Tokenizer *tok = tok_init(NULL);
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0;
	int failed = 0;

	while (getline(&line, &cap, stdin) >= 0) {
		const char **words;
		int argc, rc;

		lineno++;
		tok_reset(tok);
		if ((rc = tok_str(tok, line, &argc, &words)) != 0) {
			warnx("line %ld: %s", lineno, rc > 0 ? "a quote is "
			    "not closed" : "cannot be split into words");
			failed = 1;
			continue;
		}
		if (argc == 0 || words[0][0] == '#')
			continue;
		if ((rc = run_line(t, argc, (char **)words)) < 0)
			break;
		failed |= rc != 0;
	}
	free(line);
	tok_end(tok);
	if (ferror(stdin)) {
		warn("standard input");
		failed = 1;
	}
	return failed;
}

/* ---- on a terminal ---- */

static char prompt_text[80];

static char *
prompt(EditLine *el)
{
	(void)el;
	return prompt_text;
}

/*
 * The lines the tool prints on standard output for the words (its name
 * first, no lead), run in a child and silent on standard error; empty
 * lines and "\tfiles" (the shell's file names, which play does not
 * offer) left out.  *n is set to their number.
 */
static char **
tool_lines(const struct play_tool *t, int argc, char **words, size_t *n)
{
	int fd[2], status;
	pid_t pid;
	FILE *fp;
	char *line = NULL, **v = NULL;
	size_t cap = 0;
	ssize_t len;

	*n = 0;
	if (pipe(fd) != 0)
		return NULL;
	fflush(stdout);
	if ((pid = fork()) < 0) {
		close(fd[0]);
		close(fd[1]);
		return NULL;
	}
	if (pid == 0) {
		struct play_tool bare = *t;

		close(fd[0]);
		if (dup2(fd[1], STDOUT_FILENO) < 0)
			_exit(1);
		close(fd[1]);
		/* The words carry what they need: no lead before them. */
		bare.nlead = 0;
		child(&bare, argc, words);
	}
	close(fd[1]);
	if ((fp = fdopen(fd[0], "r")) == NULL) {
		close(fd[0]);
		waitpid(pid, &status, 0);
		return NULL;
	}
	while ((len = getline(&line, &cap, fp)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (len == 0 || line[0] == '\t')
			continue;
		v = xreallocarray(v, *n + 1, sizeof *v);
		v[(*n)++] = xstrdup(line);
	}
	free(line);
	fclose(fp);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		continue;
	return v;
}

static void
lines_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/*
 * The tool's answer to a completion request for the last of the words
 * (argc of them, the last the one under way): its candidates, one a line
 * (term/complete.h), asked in a child as the shell's completion asks.
 */
static char **
ask_tool(const struct play_tool *t, int argc, char **words, size_t *n)
{
	char **req, **v, cword[16];
	int k = 0;
	/* --complete CWORD -- TOOL LEAD... WORDS... */
	int pin = takes_pin(t, argc, words);

	req = xcalloc(t->nlead + (size_t)argc + 7, sizeof *req);
	snprintf(cword, sizeof cword, "%zu", t->nlead + (size_t)argc +
	    (pin ? 2 : 0));
	req[k++] = "--complete";
	req[k++] = cword;
	req[k++] = "--";
	req[k++] = (char *)t->name;
	for (size_t i = 0; i < t->nlead; i++)
		req[k++] = (char *)t->lead[i];
	/* The names offered are those of the session's own log. */
	if (pin) {
		req[k++] = (char *)t->log_option;
		req[k++] = pinned;
	}
	for (int i = 0; i < argc; i++)
		req[k++] = words[i];
	v = tool_lines(t, k, req, n);
	free(req);
	return v;
}

/* ---- help: the short forms and each command's usage (issue #39) ---- */

/*
 * What help reads: the tool's usage (its --help, without the first line)
 * and its commands, as its completion offers them as a first word.
 */
struct usage {
	char	**line, **cmd;
	size_t	  nline, ncmd;
};

static void
usage_load(const struct play_tool *t, struct usage *u)
{
	char *help[] = { "--help", NULL }, *first[] = { "--complete", "1",
	    "--", (char *)t->name, "", NULL };

	u->line = tool_lines(t, 1, help, &u->nline);
	u->cmd = tool_lines(t, 5, first, &u->ncmd);
}

static void
usage_free(struct usage *u)
{
	lines_free(u->line, u->nline);
	lines_free(u->cmd, u->ncmd);
}

/* Whether s begins with command word (then a blank or its end). */
static int
starts_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	return strncmp(s, word, n) == 0 && (s[n] == ' ' || s[n] == '\0');
}

/*
 * Where on a line of the usage the next part begins: after a run of
 * three blanks or more, a word that is one of the tool's commands
 * ("status [--json]   log [--json]"); else the line's end.
 */
static const char *
part_end(const struct usage *u, const char *p)
{
	for (; *p; p++) {
		const char *q = p;

		while (*q == ' ')
			q++;
		if (q - p < 3 || *q == '\0')
			continue;
		for (size_t i = 0; i < u->ncmd; i++)
			if (starts_word(q, u->cmd[i]))
				return p;
		p = q - 1;
	}
	return p;
}

/*
 * Prints (when out is not NULL) every part of the usage that begins with
 * cmd, with the lines that go on from it; returns how many there are.
 * The first part's words are copied into first.
 */
static int
usage_of(const struct usage *u, const char *cmd, FILE *out, char *first,
    size_t size)
{
	int found = 0;

	for (size_t i = 0; i < u->nline; i++) {
		const char *l = u->line[i], *p, *end;

		/* The commands are the lines indented by two. */
		if (strncmp(l, "  ", 2) != 0 || l[2] == ' ')
			continue;
		for (p = l + 2; *p; p = end) {
			while (*p == ' ')
				p++;
			end = part_end(u, p);
			if (!starts_word(p, cmd))
				continue;
			if (found++ == 0 && first != NULL)
				snprintf(first, size, "%.*s", (int)(end - p), p);
			if (out == NULL)
				continue;
			fprintf(out, "%.*s\n", (int)(end - p), p);
			/* The lines indented deeper go on from a whole line. */
			for (size_t j = i + 1; *end == '\0' && j < u->nline &&
			    strncmp(u->line[j], "   ", 3) == 0; j++)
				fprintf(out, "%s\n", u->line[j] + 2);
		}
	}
	return found;
}

/*
 * The words of a command that are not options, from the first part of
 * its usage ("attack ATTACKER TARGET [--long]": "ATTACKER TARGET").
 */
static void
usage_args(const char *first, char *args, size_t size)
{
	const char *p = strchr(first, ' '), *end;

	args[0] = '\0';
	if (p == NULL)
		return;
	for (end = ++p; *end; end++)
		if ((end[0] == ' ' && end[1] == ' ') || ((end == p ||
		    end[-1] == ' ') && strchr("[-(|", *end) != NULL &&
		    (end[0] != '[' || end[1] == '-')))
			break;
	while (end > p && end[-1] == ' ')
		end--;
	snprintf(args, size, "%.*s", (int)(end - p), p);
}

/*
 * A short form as help writes it: "a ATTACKER TARGET [CARD [VS-CARD]]",
 * the names of its options' values in capitals, each one optional.
 */
static void
short_form(const struct usage *u, const struct play_alias *a, char *buf,
    size_t size)
{
	char first[400] = "", args[300];
	size_t len, k = 0;

	usage_of(u, a->command, NULL, first, sizeof first);
	usage_args(first, args, sizeof args);
	len = (size_t)snprintf(buf, size, "%s%s%s", a->alias, *args ? " " :
	    "", args);
	for (; k < PLAY_ALIAS_OPTS && a->opts[k] != NULL && len < size; k++) {
		len += (size_t)snprintf(buf + len, size - len, " [");
		for (const char *o = a->opts[k] + 2; *o && len + 1 < size; o++)
			buf[len++] = (char)toupper((unsigned char)*o);
		buf[len] = '\0';
	}
	for (; k > 0 && len + 1 < size; k--)
		buf[len++] = ']';
	buf[len < size ? len : size - 1] = '\0';
}

/* The short forms, one a line with an example, then the other commands. */
static int
help_all(const struct play_tool *t, const struct usage *u)
{
	const struct play_alias *a;
	char form[200];
	int width = 0, cwidth = 0, rc = 0;
	size_t col;

	for (a = t->aliases; a && a->alias; a++) {
		short_form(u, a, form, sizeof form);
		if ((int)strlen(form) > width)
			width = (int)strlen(form);
		if ((int)strlen(a->command) > cwidth)
			cwidth = (int)strlen(a->command);
	}
	printf("Short forms, each with an example (help COMMAND for its "
	    "options):\n");
	for (a = t->aliases; a && a->alias; a++) {
		short_form(u, a, form, sizeof form);
		printf("  %-*s  %-*s  %s\n", width, form, cwidth, a->command,
		    a->example ? a->example : "(no example)");
		rc |= a->example == NULL;
	}
	printf("Other commands, typed in full:\n ");
	col = 1;
	for (size_t i = 0; i < u->ncmd; i++) {
		int short_one = 0;

		for (a = t->aliases; a && a->alias; a++)
			short_one |= strcmp(a->command, u->cmd[i]) == 0;
		if (short_one || strcmp(u->cmd[i], "play") == 0)
			continue;
		if (col + strlen(u->cmd[i]) + 1 > 72) {
			printf("\n ");
			col = 1;
		}
		col += (size_t)printf(" %s", u->cmd[i]);
		/* A command the usage does not show has no help: a defect. */
		if (usage_of(u, u->cmd[i], NULL, NULL, 0) == 0) {
			warnx("no help for '%s'", u->cmd[i]);
			rc = 1;
		}
	}
	printf("\nquit or Ctrl-D leaves; Tab completes a command, an option "
	    "or a name.\n");
	return rc;
}

/*
 * What a short form's example stands for, as play expands it; and the
 * same words after the command's own name, where it takes them.
 */
static void
help_example(const struct play_alias *a)
{
	struct play_alias one[2];
	char *copy = xstrdup(a->example), *w[32], **v, *save = NULL;
	int n = 0, nv;

	/* This alias alone, whatever the table's others are. */
	one[0] = *a;
	memset(&one[1], 0, sizeof one[1]);

	for (char *p = strtok_r(copy, " ", &save); p != NULL && n < 31;
	    p = strtok_r(NULL, " ", &save))
		w[n++] = p;
	w[n] = NULL;
	v = play_expand(one, n, w, &nv);
	printf("  is:");
	for (int i = 0; i < nv; i++)
		printf(" %s", v[i]);
	putchar('\n');
	if (a->whole) {
		printf("  also typed: %s", a->command);
		for (int i = 1; i < n; i++)
			printf(" %s", w[i]);
		putchar('\n');
	}
	free(v);
	free(copy);
}

/* A command's usage, and its short form with an example if it has one. */
static int
help_one(const struct play_tool *t, const struct usage *u, const char *w)
{
	const struct play_alias *a = alias_of(t->aliases, w), *s = a;
	const char *cmd = a ? a->command : w;
	char form[200];
	int n = 0;

	/* A command is found by a unique prefix, as names are. */
	if (a == NULL) {
		for (size_t i = 0; i < u->ncmd; i++)
			if (strcmp(u->cmd[i], w) == 0) {
				cmd = u->cmd[i];
				n = 1;
				break;
			} else if (strncmp(u->cmd[i], w, strlen(w)) == 0 &&
			    n++ == 0)
				cmd = u->cmd[i];
		if (n != 1) {
			warnx("%s '%s'; help lists the commands", n ? "more than "
			    "one command begins with" : "no command", w);
			return 1;
		}
		for (a = t->aliases; a && a->alias; a++)
			if (strcmp(a->command, cmd) == 0)
				break;
		s = a && a->alias ? a : NULL;
	}
	if (usage_of(u, cmd, stdout, NULL, 0) == 0) {
		warnx("no help for '%s'", cmd);
		return 1;
	}
	if (s == NULL)
		return 0;
	short_form(u, s, form, sizeof form);
	printf("short form: %s\n", form);
	if (s->example == NULL) {
		printf("example: (none)\n");
		return 1;
	}
	printf("example: %s\n", s->example);
	if (s->opts[0] != NULL)
		help_example(s);
	return 0;
}

/* help [COMMAND]: what play takes, from the tool's own tables. */
static int
help(const struct play_tool *t, int argc, char **argv)
{
	struct usage u;
	int rc;

	if (argc > 2) {
		warnx("help takes at most one COMMAND");
		return 1;
	}
	usage_load(t, &u);
	rc = argc == 1 ? help_all(t, &u) : help_one(t, &u, argv[1]);
	usage_free(&u);
	return rc;
}

/* A word as the tokenizer reads it back: quoted when it needs to be. */
static char *
quoted(const char *w)
{
	size_t n = 3;
	char *out, *p;

	if (*w != '\0' && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"
	    "KLMNOPQRSTUVWXYZ0123456789_.,:=+-/@%") == strlen(w))
		return xstrdup(w);
	for (const char *s = w; *s; s++)
		n += *s == '\'' ? 4 : 1;
	p = out = xmalloc(n);
	*p++ = '\'';
	for (const char *s = w; *s; s++)
		if (*s == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else
			*p++ = *s;
	*p++ = '\'';
	*p = '\0';
	return out;
}

/* Adds w to the candidates (of *n) if typed begins it or one of its words. */
static void
candidate(char ***v, size_t *n, const char *w, const char *typed)
{
	if (!names_begins(typed, w))
		return;
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*v)[i], w) == 0)
			return;
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = xstrdup(w);
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The candidates the tool gives for the line up to start, the word typed
 * (li's buffer), added to *v.
 */
static void
tool_candidates(const struct play_tool *t, const LineInfo *li,
    const char *start, char *typed, char ***v, size_t *n)
{
	/* The words before, as the tokenizer splits them, and typed. */
	Tokenizer *tok = tok_init(NULL);
	char *before = xstrndup(li->buffer, (size_t)(start - li->buffer));
	const char **w;
	char **words, **ex, **got;
	int argc = 0, nex;
	size_t ngot;

	if (tok_str(tok, before, &argc, &w) != 0)
		argc = 0;
	words = xcalloc((size_t)argc + 2, sizeof *words);
	for (int i = 0; i < argc; i++)
		words[i] = (char *)w[i];
	words[argc] = typed;
	/* A short form is asked about as what it stands for. */
	ex = play_expand(t->aliases, argc + 1, words, &nex);
	got = ask_tool(t, nex, ex, &ngot);
	for (size_t i = 0; i < ngot; i++) {
		candidate(v, n, got[i], "");
		free(got[i]);
	}
	free(got);
	free(ex);
	free(words);
	free(before);
	tok_end(tok);
}

/*
 * The one candidate v in place of the word from start to the cursor,
 * quoted where it needs it, and a blank after it.
 */
static void
complete_with(EditLine *el, const LineInfo *li, const char *start,
    const char *v)
{
	char *q = quoted(v);
	int chars = 0;

	/* libedit counts characters, not bytes. */
	for (const char *p = start; p < li->cursor; p++)
		chars += (*p & 0xc0) != 0x80;
	el_deletestr(el, chars);
	el_insertstr(el, q);
	/* "John=" wants its value straight after it. */
	if (q[strlen(q) - 1] != '=')
		el_insertstr(el, " ");
	free(q);
}

/*
 * Tab: completes the word before the cursor with a command or an alias
 * (the first word), an option (a word that starts with '-'), or a name
 * (the others); lists the candidates when there are several.
 */
static unsigned char
complete(EditLine *el, int ch)
{
	const struct play_tool *t;
	const LineInfo *li = el_line(el);
	const char *start = li->buffer, *p;
	char *typed, **v = NULL;
	size_t n = 0;
	int first = 1, open = 0;
	unsigned char rc = CC_REFRESH;

	(void)ch;
	if (el_get(el, EL_CLIENTDATA, &t) != 0)
		return CC_ERROR;
	/* The word under way: after the last blank outside quotes. */
	for (p = li->buffer; p < li->cursor; p++)
		if (open) {
			if (*p == open)
				open = 0;
		} else if (*p == '\'' || *p == '"')
			open = *p;
		else if (*p == ' ' || *p == '\t')
			start = p + 1;
	for (p = li->buffer; p < start; p++)
		if (*p != ' ' && *p != '\t')
			first = 0;
	typed = xstrndup(start, (size_t)(li->cursor - start));
	if (typed[0] == '\'' || typed[0] == '"')
		memmove(typed, typed + 1, strlen(typed));
	tool_candidates(t, li, start, typed, &v, &n);
	if (first) {
		for (size_t i = 0; t->aliases && t->aliases[i].alias; i++)
			candidate(&v, &n, t->aliases[i].alias, typed);
		candidate(&v, &n, "quit", typed);
		candidate(&v, &n, "help", typed);
	}
	if (n == 1)
		complete_with(el, li, start, v[0]);
	else if (n > 1) {
		qsort(v, n, sizeof *v, by_name);
		putchar('\n');
		for (size_t i = 0; i < n; i++) {
			util_fputs_safe(v[i], stdout);
			fputs(i + 1 < n ? "   " : "\n", stdout);
		}
		rc = CC_REDISPLAY;
	} else
		rc = CC_ERROR;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	free(typed);
	return rc;
}

/* The first line, folded to the terminal's width rather than wrapped. */
static void
greet(const struct play_tool *t)
{
	char *hello = xasprintf("%s: type a command (help for the list; Tab "
	    "completes, Ctrl-D leaves)\n", t->name);
	char *folded = fit_fold(hello, cli_columns(), 2);

	fputs(folded, stdout);
	free(folded);
	free(hello);
}

/* The board, as the tool's board command shows it. */
static void
show_board(const struct play_tool *t)
{
	int n = 0;

	while (t->board && t->board[n])
		n++;
	if (n > 0) {
		putchar('\n');
		run_words(t, n, (char **)t->board);
	}
}

/* Whether the board is not shown again after command w: help, the board. */
static int
quiet_after(const struct play_tool *t, const char *w)
{
	const struct play_alias *a = alias_of(t->aliases, w);

	if (a != NULL)
		w = a->command;
	return strcmp(w, "help") == 0 || t->board == NULL ||
	    strcmp(w, t->board[0]) == 0;
}

/* ~/.local/state/refkit/TOOL.history ($XDG_STATE_HOME), or NULL. */
static char *
history_path(const struct play_tool *t)
{
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	char *dir, *path;

	if (state != NULL && *state == '/')
		dir = xasprintf("%s/refkit", state);
	else if (home != NULL && *home == '/')
		dir = xasprintf("%s/.local/state/refkit", home);
	else
		return NULL;
	path = xasprintf("%s/%s.history", dir, t->name);
	/* Made as mkdir -p would; a failure only loses the history. */
	for (char *p = dir + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(dir, 0700);
			*p = '/';
		}
	mkdir(dir, 0700);
	free(dir);
	return path;
}

static int
interactive(const struct play_tool *t)
{
	EditLine *el;
	History *hist;
	HistEvent ev;
	Tokenizer *tok = tok_init(NULL);
	char *hpath = history_path(t);

	/* libedit reads the terminal's characters in its locale. */
	setlocale(LC_CTYPE, "");
	/* Ctrl-C stops a command, not the session (the worker's own). */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	snprintf(prompt_text, sizeof prompt_text, "%s> ", t->name);
	if ((el = el_init(t->name, stdin, stdout, stderr)) == NULL)
		errx(1, "cannot set up the terminal's line editing");
	hist = history_init();
	history(hist, &ev, H_SETSIZE, 1000);
	history(hist, &ev, H_SETUNIQUE, 1);
	if (hpath != NULL)
		history(hist, &ev, H_LOAD, hpath);
	el_set(el, EL_EDITOR, "emacs");
	el_set(el, EL_PROMPT, prompt);
	el_set(el, EL_HIST, history, hist);
	el_set(el, EL_CLIENTDATA, (void *)t);
	el_set(el, EL_ADDFN, "refkit-complete", "complete a command, an "
	    "option or a name", complete);
	el_set(el, EL_BIND, "^I", "refkit-complete", NULL);
	el_source(el, NULL);
	greet(t);
	show_board(t);
	for (;;) {
		const char *line, **words;
		int count, argc, rc;

		if ((line = el_gets(el, &count)) == NULL) {
			if (count < 0 && errno == EINTR)
				continue;
			putchar('\n');
			break;
		}
		tok_reset(tok);
		if ((rc = tok_str(tok, line, &argc, &words)) != 0) {
			warnx("%s", rc > 0 ? "a quote is not closed" :
			    "the line cannot be split into words");
			continue;
		}
		if (argc == 0 || words[0][0] == '#')
			continue;
		history(hist, &ev, H_ENTER, line);
		/* A refusal was seen on the screen: the session goes on. */
		if ((rc = run_line(t, argc, (char **)words)) < 0)
			break;
		/*
		 * The board again after a change: not after a refusal, which
		 * changed nothing and would scroll its message away, nor
		 * after help or the board itself.
		 */
		if (rc == 0 && !quiet_after(t, words[0]))
			show_board(t);
	}
	if (hpath != NULL)
		history(hist, &ev, H_SAVE, hpath);
	free(hpath);
	history_end(hist);
	el_end(el);
	tok_end(tok);
	return 0;
}

void
play_tool_init(struct play_tool *t, const char *name,
    int (*run)(int, char **), const struct play_alias *aliases,
    const char *const *board)
{
	memset(t, 0, sizeof *t);
	t->name = name;
	t->run = run;
	t->aliases = aliases;
	t->board = board;
	t->lead = t->leadv;
}

void
play_tool_lead(struct play_tool *t, const char *option, const char *value)
{
	if (value == NULL)
		return;
	if (t->nlead + 2 > sizeof t->leadv / sizeof t->leadv[0])
		abort();
	t->leadv[t->nlead++] = option;
	t->leadv[t->nlead++] = value;
}

void
play_tool_game(struct play_tool *t, const struct play_game *g,
    const char *db, const char *gm, const char *named)
{
	play_tool_init(t, g->name, g->run, g->aliases, g->board);
	play_tool_lead(t, "--db", db);
	play_tool_lead(t, "--gm", gm);
	t->log_option = g->log_option;
	t->start = g->start;
	t->kind = g->kind;
	t->db = db;
	t->gm = gm;
	t->pinned = named;
}

int
play_run(const struct play_tool *t)
{
	int rc;

	/* Known to the worker, which pin_ask may start. */
	at_terminal = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	pinned[0] = '\0';
	if (t->pinned != NULL)
		snprintf(pinned, sizeof pinned, "%s", t->pinned);
	else
		pin_ask(t);
	if (at_terminal)
		rc = interactive(t);
	else
		rc = scripted(t);
	worker_stop();
	return rc;
}
