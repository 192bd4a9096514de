/*
 * util.c - allocation wrappers, strict number parsing, terminal-safe
 * printing and the stdout check; see util.h.
 */
#include "base/util.h"
#include "base/strbuf.h"

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		err(1, "out of memory");
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (p == NULL)
		err(1, "out of memory");
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		err(1, "out of memory");
	return q;
}

void *
xreallocarray(void *p, size_t nmemb, size_t size)
{
	if (size != 0 && nmemb > SIZE_MAX / size)
		errx(1, "out of memory");
	return xrealloc(p, nmemb * size);
}

char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (p == NULL)
		err(1, "out of memory");
	return p;
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (p == NULL)
		err(1, "out of memory");
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

char *
xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		err(1, "out of memory");
	return s;
}

enum util_int_result
util_parse_int(const char *s, long min, long max, long *out)
{
	const char *p = s;
	long v;
	char *end;

	/*
	 * The one number rule of every input path (refkit(7)): decimal
	 * digits with no leading zero and nothing around them; a sign, '-'
	 * or '+', only where the value may be negative, and never on 0.
	 * So "-0", "+5" for a stat, "010", " 5" and "5.0" are all refused.
	 */
	if (*p == '+' || *p == '-') {
		if (min >= 0)
			return UTIL_INT_SYNTAX;
		p++;
	}
	if (!util_is_digits(p))
		return UTIL_INT_SYNTAX;
	if (p != s && *p == '0')
		return UTIL_INT_SYNTAX;
	if (strlen(p) <= (sizeof v >= 8 ? 18 : 9)) {
		/*
		 * Too few digits to overflow: add them up here, which is
		 * several times quicker than strtol and counts in a large
		 * import.
		 */
		for (v = 0; *p != '\0'; p++)
			v = 10 * v + (*p - '0');
		if (*s == '-')
			v = -v;
		if (v < min || v > max)
			return UTIL_INT_RANGE;
		*out = v;
		return UTIL_INT_OK;
	}
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end != '\0')
		return UTIL_INT_SYNTAX;
	if (errno == ERANGE || v < min || v > max)
		return UTIL_INT_RANGE;
	*out = v;
	return UTIL_INT_OK;
}

int
util_is_digits(const char *s)
{
	const char *p = s;

	while (*p >= '0' && *p <= '9')
		p++;
	/* One or more digits, and no leading zero unless it is "0". */
	return p != s && *p == '\0' && (s[0] != '0' || p - s == 1);
}

int
util_streq_ci(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return 0;
	return *a == *b;
}

int
util_lookup(const char *const *names, int n, const char *s,
    int (*cmp)(const char *, const char *))
{
	for (int i = 0; i < n; i++)
		if (cmp(s, names[i]) == 0)
			return i;
	return -1;
}

int
util_name_ok(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n < 1 || n > max)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' ||
		    *s == '.'))
			return 0;
	return 1;
}

/*
 * Length of the valid UTF-8 sequence at s (2 to 4), or 0 if s does not
 * start one.  Overlong forms and surrogates count as invalid.
 */
static int
utf8_len(const unsigned char *s)
{
	int n, i;
	uint32_t c;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		c = s[0] & 0x07;
	} else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) ||
	    (n == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0;
	return n;
}

int
util_utf8_len(const char *s, size_t n)
{
	unsigned char b[5] = { 0 };

	/* utf8_len stops at a NUL; the copy puts one past the n bytes. */
	memcpy(b, s, n < 4 ? n : 4);
	return utf8_len(b);
}

/*
 * The bidirectional control that the n-byte UTF-8 sequence at s encodes
 * (the embeddings and overrides U+202A to U+202E, the isolates U+2066 to
 * U+2069, the marks U+200E, U+200F and U+061C), or 0.  They print
 * nothing, but reorder the text around them: "'A\u202eB' got" can be
 * made to read as something else.
 */
static unsigned
bidi_control(const unsigned char *s, int n)
{
	unsigned c;

	if (n == 2 && s[0] == 0xd8 && s[1] == 0x9c)
		return 0x061c;
	if (n != 3 || s[0] != 0xe2)
		return 0;
	c = (unsigned)(s[0] & 0x0f) << 12 | (unsigned)(s[1] & 0x3f) << 6 |
	    (s[2] & 0x3f);
	if (c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) ||
	    (c >= 0x2066 && c <= 0x2069))
		return c;
	return 0;
}

/*
 * Walks s as util_fputs_safe prints it; writes to fp when fp is not NULL
 * and returns the number of columns used.
 */
static size_t
safe_walk(const char *str, FILE *fp)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t w = 0;
	char buf[12];
	int n;

	while (*s) {
		if (*s >= 0x20 && *s < 0x7f) {
			if (fp)
				putc(*s, fp);
			s++;
			w++;
			continue;
		}
		if ((n = utf8_len(s)) > 0 && bidi_control(s, n) != 0) {
			snprintf(buf, sizeof buf, "\\u%04x", bidi_control(s, n));
			if (fp)
				fputs(buf, fp);
			w += strlen(buf);
			s += n;
			continue;
		}
		if (n > 0) {
			if (fp)
				fwrite(s, 1, (size_t)n, fp);
			s += n;
			w++;
			continue;
		}
		switch (*s) {
		case '\n': snprintf(buf, sizeof buf, "\\n"); break;
		case '\t': snprintf(buf, sizeof buf, "\\t"); break;
		case '\r': snprintf(buf, sizeof buf, "\\r"); break;
		default: snprintf(buf, sizeof buf, "\\x%02x", *s); break;
		}
		if (fp)
			fputs(buf, fp);
		w += strlen(buf);
		s++;
	}
	return w;
}

void
util_fputs_safe(const char *s, FILE *fp)
{
	safe_walk(s, fp);
}

/* s escaped as util_fputs_safe prints it, newly allocated. */
static char *
escaped(const char *s, size_t *len)
{
	struct strbuf b = STRBUF_INIT;

	util_fputs_safe(s, strbuf_stream(&b));
	return strbuf_detach(&b, len);
}

/* The largest n' <= n that does not cut a UTF-8 sequence of s in half. */
static size_t
utf8_floor(const char *s, size_t n)
{
	while (n > 0 && (s[n] & 0xc0) == 0x80)
		n--;
	return n;
}

char *
util_snippet(const char *s)
{
	size_t len = 0;
	char *buf = escaped(s, &len), *cut;

	if (len > UTIL_SNIPPET_MAX) {
		cut = xasprintf("%.*s...",
		    (int)utf8_floor(buf, UTIL_SNIPPET_MAX), buf);
		free(buf);
		return cut;
	}
	return buf;
}

int
util_say(char *why, size_t whysz, const char *fmt, ...)
{
	va_list ap;
	char *msg, *safe = NULL;
	size_t len = 0;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (msg == NULL || (safe = escaped(msg, &len)) == NULL) {
		snprintf(why, whysz, "out of memory");
		free(msg);
		return -1;
	}
	if (len >= whysz)
		safe[utf8_floor(safe, whysz - 1)] = '\0';
	snprintf(why, whysz, "%s", safe);
	free(safe);
	free(msg);
	return -1;
}

/*
 * The err(3) family (util.h).  Defined here, they take the place of the
 * C library's in every tool, so that no message, wherever it is raised,
 * can carry a newline or an escape sequence from what it quotes.  Not in
 * the fuzzing build (tests/fuzz/hooks.h), whose hooks take the family's
 * place so that a harness can run a whole command in-process.
 */
#ifndef REFKIT_FUZZ_HOOKS_H
static void
say(int with_errno, const char *fmt, va_list ap)
{
	int e = errno;
	char *msg = NULL, *safe = NULL;
	size_t len = 0, n;

	if (fmt != NULL && vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	if (msg != NULL) {
		n = strlen(msg);
		while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == '\r'))
			msg[--n] = '\0';
		safe = escaped(msg, &len);
	}
	fprintf(stderr, "%s: ", program_invocation_short_name);
	if (safe != NULL)
		fputs(safe, stderr);
	else if (msg != NULL)
		fputs("(a message that could not be printed)", stderr);
	if (with_errno)
		fprintf(stderr, "%s%s", fmt != NULL ? ": " : "", strerror(e));
	fputc('\n', stderr);
	free(safe);
	free(msg);
	errno = e;
}

void
vwarn(const char *fmt, va_list ap)
{
	say(1, fmt, ap);
}

void
vwarnx(const char *fmt, va_list ap)
{
	say(0, fmt, ap);
}

void
verr(int eval, const char *fmt, va_list ap)
{
	say(1, fmt, ap);
	exit(eval);
}

void
verrx(int eval, const char *fmt, va_list ap)
{
	say(0, fmt, ap);
	exit(eval);
}

void
warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(1, fmt, ap);
	va_end(ap);
}

void
warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(0, fmt, ap);
	va_end(ap);
}

void
err(int eval, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(1, fmt, ap);
	va_end(ap);
	exit(eval);
}

void
errx(int eval, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(0, fmt, ap);
	va_end(ap);
	exit(eval);
}
#endif

const char *
util_q(const char *s)
{
	/* A small ring, so that one message can quote several values. */
	static char *ring[4];
	static int next;

	free(ring[next]);
	ring[next] = util_snippet(s);
	s = ring[next];
	next = (next + 1) % 4;
	return s;
}

size_t
util_safe_width(const char *s)
{
	return safe_walk(s, NULL);
}

void
util_check_stdout(void)
{
	/* Report a lost write once, and do not let exit() flush again. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		warn("write error on standard output");
		_exit(1);
	}
}

int
util_check_text(const char *str, enum util_text kind, size_t max, char *why,
    size_t whysz)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len = strlen(str);
	int n;

	if (len > max) {
		snprintf(why, whysz, "is longer than %zu bytes", max);
		return -1;
	}
	while (*s) {
		if (*s >= 0x80) {
			if ((n = utf8_len(s)) == 0) {
				snprintf(why, whysz, "is not valid UTF-8");
				return -1;
			}
			if (bidi_control(s, n) != 0) {
				snprintf(why, whysz, "must not contain "
				    "bidirectional control characters (U+%04X)",
				    bidi_control(s, n));
				return -1;
			}
			s += n;
			continue;
		}
		if ((*s < 0x20 || *s == 0x7f) &&
		    !(kind == UTIL_TEXT_NOTES && (*s == '\n' || *s == '\t'))) {
			snprintf(why, whysz,
			    "must not contain control characters");
			return -1;
		}
		s++;
	}
	return 0;
}

int
util_split_kv(const char *arg, char **buf, const char **key,
    const char **value)
{
	char *eq;

	*buf = xstrdup(arg);
	if ((eq = strchr(*buf, '=')) == NULL || eq == *buf) {
		free(*buf);
		*buf = NULL;
		return -1;
	}
	*eq = '\0';
	*key = *buf;
	*value = eq + 1;
	return 0;
}

int
util_json_has_nul(const char *s, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		if (s[i] != '\\')
			continue;
		if (s[i + 1] == 'u' && i + 5 < n && memcmp(s + i + 2, "0000",
		    4) == 0)
			return 1;
		i++;		/* the escaped character */
	}
	return 0;
}

void
util_time_iso(char *buf, size_t sz, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	/* A year beyond int (from a damaged or hostile file): the number. */
	if (gmtime_r(&tt, &tm) == NULL ||
	    strftime(buf, sz, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, sz, "%" PRId64, t);
}
