/*
 * measure.c - runs a command and reports its wall time and peak resident
 * memory: "SECONDS KILOBYTES".  Used by bench/run.sh so that both sides of
 * a benchmark are measured the same way, with nothing to install.
 */
#include <err.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	int status;
	pid_t pid;

	if (argc < 2)
		errx(2, "usage: measure COMMAND [ARG...]");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		err(127, "%s", argv[1]);
	}
	if (wait4(pid, &status, 0, &ru) == -1)
		err(1, "wait4");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%.3f %ld\n", (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, ru.ru_maxrss);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		errx(1, "%s failed (status %d)", argv[1], status);
	return 0;
}
