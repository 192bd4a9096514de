/*
 * hooks.h - the fuzz build's stand-ins for exit(3), _exit(2), err(3) and
 * atexit(3).  The Makefile compiles refkit's sources for fuzzing with
 * -Dexit=refkit_fuzz_exit and so on, so that a harness can run a tool's
 * whole main() many times in one process: an exit while a harness runs
 * the tool jumps back to it; outside one it really exits.
 *
 * Every message that goes through the err(3) family is checked on the way
 * out: one line of valid UTF-8 with no control character, whatever the
 * input held.  A message that is not aborts, which the fuzzer reports.
 */
#ifndef REFKIT_FUZZ_HOOKS_H
#define REFKIT_FUZZ_HOOKS_H

#include <setjmp.h>
#include <stdarg.h>

/* Set by a harness around a call of a tool's main(); NULL otherwise. */
extern jmp_buf *refkit_fuzz_jmp;
/* The status of the exit that jumped back. */
extern int refkit_fuzz_status;

void refkit_fuzz_exit(int status) __attribute__((noreturn));
void refkit_fuzz__exit(int status) __attribute__((noreturn));
void refkit_fuzz_err(int eval, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3)));
void refkit_fuzz_errx(int eval, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3)));
void refkit_fuzz_verr(int eval, const char *fmt, va_list ap)
    __attribute__((noreturn));
void refkit_fuzz_verrx(int eval, const char *fmt, va_list ap)
    __attribute__((noreturn));
void refkit_fuzz_warn(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
void refkit_fuzz_warnx(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
void refkit_fuzz_vwarn(const char *fmt, va_list ap);
void refkit_fuzz_vwarnx(const char *fmt, va_list ap);
int refkit_fuzz_atexit(void (*fn)(void));
/*
 * fopen(3), except that while a harness runs a tool a file opened for
 * writing is a scratch file of the harness's, wherever the fuzzed command
 * line pointed it (refkit changes export -o): a fuzzed path must never
 * create or change a file elsewhere.  Reading opens the path asked for.
 */
struct _IO_FILE;
struct _IO_FILE *refkit_fuzz_fopen(const char *path, const char *mode);

#endif
