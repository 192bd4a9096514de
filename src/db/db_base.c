/*
 * db_base.c - the arithmetic of keys and the clock as stored, which
 * both backends and everything over them use; see db_base.h.
 */
#include "db/db_base.h"

#include "base/util.h"

#include <err.h>
#include <setjmp.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int64_t
db_now(void)
{
	const char *fixed = getenv("REFKIT_NOW");
	long v;

	/* A fixed clock, for tests and for re-enacting a session. */
	if (fixed && util_parse_int(fixed, 0, 253402300799L, &v) ==
	    UTIL_INT_OK)
		return v;
	return (int64_t)time(NULL);
}

int64_t
db_station_tag(const char *id)
{
	int64_t tag = 0;

	for (int i = 0; i < 8; i++) {
		const char *hex = "0123456789abcdef";
		const char *d = id[i] ? strchr(hex, id[i]) : NULL;

		if (d == NULL)
			return 0;
		tag = tag * 16 + (d - hex);
	}
	return tag | (INT64_C(1) << 31);
}

int64_t
db_name_key(const char *name)
{
	unsigned char h[8];
	uint64_t v = 0;

	crypto_generichash(h, sizeof h, (const unsigned char *)name,
	    strlen(name), NULL, 0);
	for (size_t i = 0; i < sizeof h; i++)
		v = v << 8 | h[i];
	return (int64_t)((v & ((UINT64_C(1) << 62) - 1)) | UINT64_C(1) << 62);
}

/* This thread's catch of failures (db_catch_set), or NULL. */
static __thread struct db_catch *catcher;

void
db_catch_set(struct db_catch *c)
{
	catcher = c;
}

void
db_fail_msg(char *msg)
{
	struct db_catch *c = catcher;

	if (c == NULL)
		errx(1, "%s", msg);
	catcher = NULL;
	snprintf(c->msg, sizeof c->msg, "%s", msg);
	free(msg);
	longjmp(c->env, 1);
}

void
db_fail(const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	db_fail_msg(msg);
}
