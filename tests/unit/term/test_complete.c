/*
 * test_complete.c - the shared machinery of --complete (issue #38): a
 * game's table of commands going on into complete_log_cmds, the shared
 * values of the printed sheets, --db naming a file for every tool, and
 * a list of names that a store gives; the table of which commands take
 * which options, by which completion offers them after a command and a
 * tool that parses its own refuses them.  complete_answer exits, so each
 * request runs in a child whose standard output is read back.
 */
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "term/complete.h"

static const struct complete_cmd sub_cmds[] = {
	{ "add", "", NULL },
	{ NULL, NULL, complete_log_cmds }
};

static const struct complete_cmd cmds[] = {
	{ "lunge", "fighter", NULL },
	{ "team", NULL, sub_cmds },
	{ NULL, NULL, complete_log_cmds }
};

static const struct complete_value values[] = {
	{ "side", "light|dark" },
	{ NULL, NULL }
};

static int listed;

/* A store's list: called only with a database, which these have not. */
static void
each(struct db *db, void (*fn)(void *, const char *), void *arg)
{
	(void)db;
	listed = 1;
	fn(arg, "Anakin");
}

static const struct complete_list lists[] = {
	{ "fighter", each, NULL },
	{ NULL, NULL, NULL }
};

/* Its options, as a tool that parses its own lists them. */
static const char *const value_opts[] = {
	"db", "side", "output", "paper", NULL
};
static const char *const *const opts[] = { value_opts, NULL };

/* --side goes with lunge and team, --output with team; --db with all. */
static const struct complete_takes takes[] = {
	{ "side", "lunge team" },
	{ "output", "team" },
	{ NULL, NULL }
};

static const struct complete_tool tool = {
	.cmds = cmds,
	.opts = opts,
	.takes = takes,
	.values = values,
	.shared_values = complete_sheet_values,
	.lists = lists,
};

/* What the tool answers for the words after "--complete CWORD --". */
static const char *
answer(const char *cword, ...)
{
	static char buf[2048];
	char *argv[16] = { "t", "--complete", (char *)cword, "--", "t" };
	int argc = 5, fd[2], status;
	ssize_t n, got = 0;
	va_list ap;
	pid_t pid;

	va_start(ap, cword);
	while ((argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	fflush(stdout);
	if (pipe(fd) != 0 || (pid = fork()) == -1)
		return "(no child)";
	if (pid == 0) {
		close(fd[0]);
		dup2(fd[1], STDOUT_FILENO);
		complete_answer(argc, argv, &tool, NULL);
		_exit(3);
	}
	close(fd[1]);
	while ((n = read(fd[0], buf + got, sizeof buf - 1 - (size_t)got)) > 0)
		got += n;
	buf[got] = '\0';
	close(fd[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? buf :
	    "(failed)";
}

int
main(void)
{
	is_str(answer("1", "", NULL),
	    "list\nlog\nlunge\nplay\nreplay\nteam\nundo\nwatch\n",
	    "a game's commands, then every log's");
	is_str(answer("1", "l", NULL), "list\nlog\nlunge\n",
	    "those that begin the word");
	is_str(answer("2", "team", "", NULL),
	    "add\nlist\nlog\nplay\nreplay\nundo\nwatch\n",
	    "a sub-table goes on into another too");
	is_str(answer("2", "replay", "", NULL), "",
	    "a shared command takes no word");
	is_str(answer("2", "--paper", "", NULL), "a4\nletter\n",
	    "a shared value");
	is_str(answer("2", "--side", "d", NULL), "dark\n", "the tool's own");
	is_str(answer("2", "--db", "x", NULL), "\tfiles\n",
	    "--db names a file though no table lists it");
	is_str(answer("1", "--output=", NULL), "\tfiles\n",
	    "--output too, from the shared table");
	is_str(answer("4", "--db", "/nonexistent/refkit.db", "lunge", "",
	    NULL), "", "a list of names without a database: none");
	ok(!listed, "and the store is not asked");
	is_str(answer("2", "lunge", "--", NULL), "--db\n--paper\n--side\n",
	    "after a command, its options and those of every command");
	is_str(answer("2", "team", "--", NULL),
	    "--db\n--output\n--paper\n--side\n", "another command's");
	is_str(answer("1", "--", NULL), "--db\n--output\n--paper\n--side\n",
	    "before a command, every option");
	is_str(answer("2", "lungee", "--", NULL),
	    "--db\n--output\n--paper\n--side\n",
	    "after a word that is no command, every option");
	{
		const char *seen[] = { "db", "side", "output", "paper" };
		const char *who = "unset";

		ok(complete_takes(takes, "side", "team", &who) &&
		    strcmp(who, "lunge team") == 0,
		    "a command listed second takes its option");
		ok(!complete_takes(takes, "output", "lunge", &who) &&
		    strcmp(who, "team") == 0,
		    "a command not listed does not, and *cmds says who does");
		ok(!complete_takes(takes, "side", "lung", NULL),
		    "a prefix of a listed command is not it");
		ok(complete_takes(takes, "db", "lunge", &who) && who == NULL,
		    "an option the table does not list goes with every one");
		is_str(complete_misplaced(takes, "lunge", seen, 4, &who),
		    "output", "the first option the command does not take");
		is_str(who, "team", "with the commands that do");
		ok(complete_misplaced(takes, "team", seen, 4, &who) == NULL &&
		    who == NULL, "none when it takes them all");
		ok(complete_misplaced(takes, "lunge", seen, 2, NULL) == NULL,
		    "only the n given are looked at");
	}
	return tap_done();
}
