/*
 * when.c - times for people in the local time zone, written and read;
 * see when.h.  Everything stored, hashed or written for programs stays in
 * UTC (util_time_iso): only what a person reads or types is local.
 */
#include "base/when.h"
#include "base/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

const char when_forms[] = "a local time (2026-11-29 14:30, or 14:30 for "
    "today), a date (2026-11-29), today, yesterday, a time ago (30m, 2h, "
    "3d), a UTC time (2026-11-29T13:30:00Z) or seconds since 1970";

/* Unix time t through strftime's fmt in local time, or the number. */
static void
local_text(char *buf, size_t sz, int64_t t, const char *fmt)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (localtime_r(&tt, &tm) == NULL ||
	    strftime(buf, sz, fmt, &tm) == 0)
		snprintf(buf, sz, "%" PRId64, t);
}

void
when_local(char *buf, size_t sz, int64_t t)
{
	local_text(buf, sz, t, "%Y-%m-%d %H:%M:%S %Z");
}

void
when_clock(char *buf, size_t sz, int64_t t)
{
	local_text(buf, sz, t, "%H:%M:%S");
}

/* "30m", "2h", "3d": now less that many minutes, hours or days. */
static int
parse_ago(const char *s, int64_t now, int64_t *t)
{
	size_t n = strlen(s);
	char num[16];
	long v;
	int64_t unit;

	if (n < 2 || n > sizeof num)
		return -1;
	switch (s[n - 1]) {
	case 'm':
		unit = 60;
		break;
	case 'h':
		unit = 3600;
		break;
	case 'd':
		unit = 86400;
		break;
	default:
		return -1;
	}
	memcpy(num, s, n - 1);
	num[n - 1] = '\0';
	/* Ten thousand days reach back before 1970 from any time now. */
	if (util_parse_int(num, 0, 10000L * 86400 / unit, &v) != UTIL_INT_OK)
		return -1;
	*t = now - (int64_t)v * unit;
	return *t < 0 ? -1 : 0;
}

/*
 * Local time tm (its date normalised by mktime) as Unix time; -1 when
 * the date does not exist (2026-02-30), which mktime would move on.
 */
static int
from_local(struct tm *tm, int64_t *t)
{
	int y = tm->tm_year, m = tm->tm_mon, d = tm->tm_mday;
	time_t tt;

	tm->tm_isdst = -1;
	if ((tt = mktime(tm)) == (time_t)-1 || tm->tm_year != y ||
	    tm->tm_mon != m || tm->tm_mday != d)
		return -1;
	*t = (int64_t)tt;
	return 0;
}

/* "today" and "yesterday": the local midnight that began them. */
static int
parse_day(const char *s, int64_t now, int64_t *t)
{
	time_t tt = (time_t)now;
	struct tm tm;
	int back;

	if (strcasecmp(s, "today") == 0)
		back = 0;
	else if (strcasecmp(s, "yesterday") == 0)
		back = 1;
	else
		return -1;
	if (localtime_r(&tt, &tm) == NULL)
		return -1;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_mday -= back;
	tm.tm_isdst = -1;
	if ((tt = mktime(&tm)) == (time_t)-1)
		return -1;
	*t = (int64_t)tt;
	return 0;
}

/* The written forms, longest first so that each must be read whole. */
enum form { FORM_DATETIME, FORM_DATE, FORM_CLOCK };

static const struct {
	const char	*fmt;
	enum form	 form;
} forms[] = {
	{ "%Y-%m-%dT%H:%M:%S", FORM_DATETIME },
	{ "%Y-%m-%dT%H:%M", FORM_DATETIME },
	{ "%Y-%m-%d %H:%M:%S", FORM_DATETIME },
	{ "%Y-%m-%d %H:%M", FORM_DATETIME },
	{ "%Y-%m-%d", FORM_DATE },
	{ "%H:%M:%S", FORM_CLOCK },
	{ "%H:%M", FORM_CLOCK },
};

/* s in forms[i]: a date and time (UTC with a Z), a date, or a clock. */
static int
parse_form(const char *s, size_t i, int64_t now, int64_t *t)
{
	struct tm tm, today;
	const char *end;
	time_t tt = (time_t)now;

	memset(&tm, 0, sizeof tm);
	if ((end = strptime(s, forms[i].fmt, &tm)) == NULL)
		return -1;
	if (forms[i].form == FORM_DATETIME && strcmp(end, "Z") == 0) {
		int d = tm.tm_mday;

		tt = timegm(&tm);
		if (tt == (time_t)-1 || gmtime_r(&tt, &tm) == NULL ||
		    tm.tm_mday != d)
			return -1;
		*t = (int64_t)tt;
		return 0;
	}
	if (*end != '\0')
		return -1;
	if (forms[i].form == FORM_CLOCK) {
		if (localtime_r(&tt, &today) == NULL)
			return -1;
		tm.tm_year = today.tm_year;
		tm.tm_mon = today.tm_mon;
		tm.tm_mday = today.tm_mday;
	}
	return from_local(&tm, t);
}

int
when_parse(const char *s, int64_t now, int64_t *t)
{
	long v;

	if (util_parse_int(s, 0, INT32_MAX, &v) == UTIL_INT_OK) {
		*t = v;
		return 0;
	}
	if (parse_ago(s, now, t) == 0 || parse_day(s, now, t) == 0)
		return 0;
	/* strptime skips leading blanks; a stamp here has none. */
	if (*s == ' ' || *s == '\t')
		return -1;
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
		if (parse_form(s, i, now, t) == 0)
			return *t < 0 ? -1 : 0;
	return -1;
}
