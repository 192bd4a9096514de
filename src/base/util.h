/*
 * util.h - small helpers shared by the whole toolkit: allocation that
 * exits on failure, strict integer parsing, text escaping for terminals,
 * and the check that standard output reached its destination.
 */
#ifndef REFKIT_UTIL_H
#define REFKIT_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define REFKIT_VERSION "0.1.0"

/* Allocation wrappers: they never return NULL; on failure they exit 1. */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
void *xreallocarray(void *p, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Returns a newly allocated string the caller frees. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap)
    __attribute__((format(printf, 1, 0)));

/* Results of util_parse_int. */
enum util_int_result {
	UTIL_INT_OK = 0,
	UTIL_INT_SYNTAX,	/* empty, not a whole number, trailing junk */
	UTIL_INT_RANGE		/* a whole number, but outside [min, max] */
};

/*
 * Parses a whole decimal number by the one rule of every input path: no
 * surrounding space, no leading zero, a sign ('-' or '+') only when min
 * is negative and never on 0; then checks min <= value <= max.  On
 * UTIL_INT_OK *out is set.
 */
enum util_int_result util_parse_int(const char *s, long min, long max,
    long *out);

/* Whether s is one or more decimal digits with no leading zero ("0" is). */
int util_is_digits(const char *s);

/* ASCII case-insensitive equality. */
int util_streq_ci(const char *a, const char *b);

/*
 * The index of s in a table of n names, or -1, compared by cmp: strcmp
 * for an exact name, strcasecmp for one but for ASCII case.
 */
int util_lookup(const char *const *names, int n, const char *s,
    int (*cmp)(const char *, const char *));

/*
 * Whether s is a plain name: 1 to max characters, each an ASCII letter
 * or digit, '-', '_' or '.' (a board's, a team's, a figure's ...).
 */
int util_name_ok(const char *s, size_t max);

/*
 * Writes s to fp with control characters and invalid UTF-8 made visible
 * (\n, \t, \x1b, ...), and the bidirectional controls that reorder text
 * (\u202e, ...), so that stored text can never drive a terminal nor
 * turn a line around.
 */
void util_fputs_safe(const char *s, FILE *fp);

/*
 * A short copy of s for a message: escaped as util_fputs_safe does, cut
 * at UTIL_SNIPPET_MAX bytes with "...".  The caller frees it.
 */
#define UTIL_SNIPPET_MAX	60
char *util_snippet(const char *s);

/*
 * The same for quoting in a message at once: the result lives until four
 * more calls, so that one message can quote several values.  Every
 * message that repeats what a user typed or a file held quotes it so.
 */
const char *util_q(const char *s);

/*
 * Formats a refusal's reason into why (whysz bytes) with every control
 * character and invalid UTF-8 byte escaped, so that a quoted value can
 * never break the message's line or drive a terminal.  Returns -1, for
 * "return util_say(why, whysz, ...)".
 */
int util_say(char *why, size_t whysz, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * The length of the valid UTF-8 sequence of 2 to 4 bytes that starts the
 * n bytes at s, or 0 if none does (ASCII included).  Overlong forms and
 * surrogates are not valid.
 */
int util_utf8_len(const char *s, size_t n);

/* Display width of s as util_fputs_safe would print it. */
size_t util_safe_width(const char *s);

/*
 * err(3), errx, warn, warnx and their v forms are refkit's own (util.c),
 * with the platform's output: "PROG: MESSAGE[: strerror]".  The message
 * is escaped as util_fputs_safe prints, so that whatever a message
 * quotes (input, a file's name, a server's or a library's words) stays
 * on its one line and cannot drive a terminal; a message's own trailing
 * newlines are dropped.
 */

/*
 * Registered with atexit() by every tool: flushes stdout and exits 1 with
 * a message if anything written to it was lost (a full disk, a closed
 * pipe).
 */
void util_check_stdout(void);

/* What util_check_text accepts. */
enum util_text {
	UTIL_TEXT_LINE,		/* one line: no control characters at all */
	UTIL_TEXT_NOTES		/* free text: newlines and tabs allowed */
};

/*
 * Checks that s is valid UTF-8 of at most max bytes with no control
 * characters beyond those kind allows, and no bidirectional control
 * (U+202A to U+202E, U+2066 to U+2069, U+200E, U+200F, U+061C) of any
 * kind.  Returns 0, or -1 with the reason written into why.
 */
int util_check_text(const char *s, enum util_text kind, size_t max,
    char *why, size_t whysz);

/*
 * Splits "KEY=VALUE" at the first '=' into newly pointed-to parts of buf
 * (a copy the caller owns).  Returns -1 if there is no '=' or no key.
 */
int util_split_kv(const char *arg, char **buf, const char **key,
    const char **value);

/*
 * Whether the JSON text s (n bytes) holds the escape \u0000.  SQLite's
 * JSON functions cut a string at the NUL it decodes to, so such text is
 * refused rather than read short.  A backslash occurs only inside JSON
 * strings, so stepping over each escape pair finds every one.
 */
int util_json_has_nul(const char *s, size_t n);

/*
 * Writes Unix time t as "2026-11-24T10:00:00Z" (UTC) into buf, or as its
 * number of seconds when gmtime(3) cannot hold its year.
 */
void util_time_iso(char *buf, size_t sz, int64_t t);
#endif
