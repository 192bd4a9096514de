/*
 * tap.h - a minimal Test Anything Protocol producer for the unit tests.
 * Each check prints "ok N - what" or "not ok N - what" with the values
 * that differed; tap_done() prints the plan and gives the exit status.
 */
#ifndef REFKIT_TAP_H
#define REFKIT_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int tap_n, tap_failed;

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

#define is_int(got, want, ...) do {					\
	long tap_g_ = (long)(got), tap_w_ = (long)(want);		\
	if (!tap_ok(tap_g_ == tap_w_, __FILE__, __LINE__, __VA_ARGS__))	\
		printf("#   got %ld, want %ld\n", tap_g_, tap_w_);	\
} while (0)

#define is_str(got, want, ...) do {					\
	const char *tap_g_ = (got), *tap_w_ = (want);			\
	int tap_same_ = (tap_g_ == NULL && tap_w_ == NULL) ||		\
	    (tap_g_ && tap_w_ && strcmp(tap_g_, tap_w_) == 0);		\
	if (!tap_ok(tap_same_, __FILE__, __LINE__, __VA_ARGS__))	\
		printf("#   got '%s', want '%s'\n",			\
		    tap_g_ ? tap_g_ : "(null)", tap_w_ ? tap_w_ : "(null)"); \
} while (0)

__attribute__((format(printf, 4, 5)))
static int
tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("%sok %d - ", pass ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!pass) {
		tap_failed++;
		printf("#   at %s:%d\n", file, line);
	}
	return pass;
}

/* Removes the test database at path with its -wal and -shm files. */
static inline void
tap_unlink_db(const char *path)
{
	static const char *const ext[] = { "", "-wal", "-shm" };
	char p[4096];

	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof p, "%s%s", path, ext[i]);
		unlink(p);
	}
}

static int
tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
