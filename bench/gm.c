/*
 * gm.c OUT COUNT: one game master at the table, for bench/pg.sh.  Reads
 * the commands of a cycle from standard input, one a line, words split
 * at tabs (so that an SQL statement can be one word), and runs
 * them in turn, as a GM types them, until COUNT commands have run: one
 * process per command, each waited for before the next.  Writes each
 * command's wall time in microseconds to OUT, one a line.  A command that
 * does not exit 0 is reported on standard error with its line and gm
 * exits 1 at the end, so that the benchmark never counts a refusal as an
 * event.  It is C rather than a shell loop so that timing one command
 * costs no process of its own: on two cores, the date(1) that a shell
 * would need for each would be a good part of the load measured.
 */
#include <err.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#define MAX_CMDS	16
#define MAX_WORDS	32

extern char **environ;

static double
now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

int
main(int argc, char **argv)
{
	static char line[MAX_CMDS][1024];
	char *words[MAX_CMDS][MAX_WORDS + 1];
	int ncmd = 0, failed = 0;
	long count;
	FILE *out;

	if (argc != 3 || (count = strtol(argv[2], NULL, 10)) < 1)
		errx(2, "usage: gm OUT COUNT <COMMANDS");
	while (ncmd < MAX_CMDS && fgets(line[ncmd], sizeof line[ncmd],
	    stdin) != NULL) {
		int n = 0;

		line[ncmd][strcspn(line[ncmd], "\n")] = '\0';
		for (char *w = strtok(line[ncmd], "\t"); w != NULL && n <
		    MAX_WORDS; w = strtok(NULL, "\t"))
			words[ncmd][n++] = w;
		words[ncmd][n] = NULL;
		if (n > 0)
			ncmd++;
	}
	if (ncmd == 0)
		errx(2, "no commands on standard input");
	if ((out = fopen(argv[1], "w")) == NULL)
		err(1, "%s", argv[1]);
	for (long i = 0; i < count; i++) {
		char **w = words[i % ncmd];
		double t0 = now_us();
		pid_t pid;
		int status, rc;

		if ((rc = posix_spawnp(&pid, w[0], NULL, NULL, w, environ)) != 0)
			errx(1, "%s: %s", w[0], strerror(rc));
		if (waitpid(pid, &status, 0) == -1)
			err(1, "waitpid");
		fprintf(out, "%.0f\n", now_us() - t0);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			warnx("command %ld (%s) failed: %s %d", i + 1, w[0],
			    WIFEXITED(status) ? "exit" : "signal",
			    WIFEXITED(status) ? WEXITSTATUS(status) :
			    WTERMSIG(status));
			failed = 1;
		}
	}
	if (fclose(out) != 0)
		err(1, "%s", argv[1]);
	return failed;
}
