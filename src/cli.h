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

/*
 * User text made safe for a one-line message: control characters
 * escaped, cut at 60 bytes.  The result lives until four more calls.
 */
const char *cli_q(const char *s);

/* Sets up a tool: the stdout check at exit. */
void cli_init(void);

#endif
