/*
 * common.h - small helpers for refkit's parser fuzz targets: the input as
 * a NUL-terminated string, and an assertion that stays on in every build
 * (a failed one is a crash libFuzzer keeps).
 */
#ifndef REFKIT_FUZZ_COMMON_H
#define REFKIT_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a newly allocated string (cut at an embedded NUL). */
static inline char *
fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#define FUZZ_CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: check failed: %s\n",		\
		    __FILE__, __LINE__, #cond);				\
		abort();						\
	}								\
} while (0)

/*
 * When a parser refuses, why must be a terminated, non-empty line of
 * valid UTF-8 without control characters, whatever the input held: user
 * text in a message is quoted with util_q.
 */
#define FUZZ_WHY(why) do {						\
	char fuzz_why_[64];						\
	FUZZ_CHECK((why)[0] != '\0' &&					\
	    memchr((why), '\0', sizeof (why)) != NULL);			\
	if (util_check_text((why), UTIL_TEXT_LINE, sizeof (why),		\
	    fuzz_why_, sizeof fuzz_why_) != 0) {			\
		fprintf(stderr, "why %s: ", fuzz_why_);			\
		util_fputs_safe((why), stderr);				\
		fputc('\n', stderr);					\
		abort();						\
	}								\
} while (0)

#endif
