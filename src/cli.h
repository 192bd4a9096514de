/*
 * cli.h - what every tool's main() shares: the usage-error exit, the
 * output format options, and the stdout check.
 */
#ifndef REFKIT_CLI_H
#define REFKIT_CLI_H

#include "out.h"

/*
 * Prints "PROG: MESSAGE" and "Try 'PROG --help' for more information."
 * to stderr and exits 2.
 */
void cli_usage_error(const char *fmt, ...)
    __attribute__((noreturn, format(printf, 1, 2)));

/* Sets up a tool: locale-independent output and the stdout check. */
void cli_init(void);

#endif
