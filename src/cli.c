/*
 * cli.c - shared pieces of the tools' main()s; see cli.h.
 */
#include "cli.h"

#include "import.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

extern char *program_invocation_short_name;

void
cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n",
	    program_invocation_short_name);
	exit(2);
}

void
cli_init(void)
{
	if (atexit(util_check_stdout) != 0)
		abort();
}

const char *
cli_q(const char *s)
{
	/* A small ring, so that one message can quote several values. */
	static char *ring[4];
	static int next;

	free(ring[next]);
	ring[next] = import_snippet(s);
	s = ring[next];
	next = (next + 1) % 4;
	return s;
}
