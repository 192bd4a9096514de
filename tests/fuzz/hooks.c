/*
 * hooks.c - see hooks.h.  Compiled without the renaming, so that the real
 * exit(3) and the real warn(3) family are the ones called here.
 */
#include "hooks.h"

#include <err.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/util.h"

jmp_buf *refkit_fuzz_jmp;
int refkit_fuzz_status;

void
refkit_fuzz_exit(int status)
{
	if (refkit_fuzz_jmp == NULL)
		exit(status);
	refkit_fuzz_status = status;
	longjmp(*refkit_fuzz_jmp, 1);
}

static char scratch[] = "/tmp/refkit-fuzz-out-XXXXXX";

static void
remove_scratch(void)
{
	unlink(scratch);
}

struct _IO_FILE *
refkit_fuzz_fopen(const char *path, const char *mode)
{
	static int made;

	if (refkit_fuzz_jmp == NULL || strpbrk(mode, "wax+") == NULL)
		return fopen(path, mode);
	if (!made) {
		int fd = mkstemp(scratch);

		if (fd < 0)
			abort();
		close(fd);
		made = 1;
		atexit(remove_scratch);
	}
	return fopen(scratch, "wb");
}

void
refkit_fuzz__exit(int status)
{
	if (refkit_fuzz_jmp == NULL)
		_exit(status);
	refkit_fuzz_exit(status);
}

/* A message must be one clean line: see hooks.h. */
static void
check(const char *fmt, va_list ap, int with_errno)
{
	char msg[8192], why[128];
	va_list copy;

	va_copy(copy, ap);
	vsnprintf(msg, sizeof msg, fmt, copy);
	va_end(copy);
	if (util_check_text(msg, UTIL_TEXT_LINE, sizeof msg, why,
	    sizeof why) != 0) {
		fprintf(stderr, "hooks: a message %s%s: ", why,
		    with_errno ? " (err)" : "");
		util_fputs_safe(msg, stderr);
		fputc('\n', stderr);
		abort();
	}
}

void
refkit_fuzz_vwarn(const char *fmt, va_list ap)
{
	check(fmt, ap, 1);
	vwarn(fmt, ap);
}

void
refkit_fuzz_vwarnx(const char *fmt, va_list ap)
{
	check(fmt, ap, 0);
	vwarnx(fmt, ap);
}

void
refkit_fuzz_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	refkit_fuzz_vwarn(fmt, ap);
	va_end(ap);
}

void
refkit_fuzz_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	refkit_fuzz_vwarnx(fmt, ap);
	va_end(ap);
}

void
refkit_fuzz_verr(int eval, const char *fmt, va_list ap)
{
	refkit_fuzz_vwarn(fmt, ap);
	refkit_fuzz_exit(eval);
}

void
refkit_fuzz_verrx(int eval, const char *fmt, va_list ap)
{
	refkit_fuzz_vwarnx(fmt, ap);
	refkit_fuzz_exit(eval);
}

void
refkit_fuzz_err(int eval, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	refkit_fuzz_verr(eval, fmt, ap);
}

void
refkit_fuzz_errx(int eval, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	refkit_fuzz_verrx(eval, fmt, ap);
}

/* A tool's exit-time stdout check is skipped: the harness goes on. */
int
refkit_fuzz_atexit(void (*fn)(void))
{
	(void)fn;
	return 0;
}
