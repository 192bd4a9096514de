/*
 * test_when.c - local times written and the --since forms read, with a
 * fixed now and a POSIX TZ string (no tzdata needed).
 */
#include "tap.h"

#include <stdlib.h>
#include <time.h>

#include "base/when.h"

/* 2026-11-29T09:00:00Z, 10:00 in Berlin. */
#define NOW	INT64_C(1795942800)

static int64_t
parsed(const char *s)
{
	int64_t t = -12345;

	if (when_parse(s, NOW, &t) != 0)
		return -1;
	return t;
}

int
main(void)
{
	char buf[WHEN_LOCAL_SIZE];

	setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3", 1);
	tzset();
	when_local(buf, sizeof buf, INT64_C(1795959000));
	is_str(buf, "2026-11-29 14:30:00 CET", "local time in winter");
	when_local(buf, sizeof buf, INT64_C(1784118600));
	is_str(buf, "2026-07-15 14:30:00 CEST", "local time in summer");
	when_clock(buf, sizeof buf, INT64_C(1795959000));
	is_str(buf, "14:30:00", "time of day");

	/* 14:30 in Berlin on the 29th is 13:30 UTC: 1795959000. */
	is_int(parsed("14:30"), 1795959000, "14:30 is today");
	is_int(parsed("14:30:00"), 1795959000, "14:30:00 is today");
	is_int(parsed("2026-11-29 14:30"), 1795959000, "local date and time");
	is_int(parsed("2026-11-29 14:30:00"), 1795959000, "with seconds");
	is_int(parsed("2026-11-29T14:30:00"), 1795959000,
	    "ISO without a zone is local");
	is_int(parsed("2026-11-29T14:30"), 1795959000, "ISO to the minute");
	is_int(parsed("2026-11-29T13:30:00Z"), 1795959000, "UTC stamp");
	is_int(parsed("2026-11-29T13:30Z"), 1795959000, "UTC to the minute");
	is_int(parsed("1795959000"), 1795959000, "seconds");
	is_int(parsed("0"), 0, "the epoch");
	is_int(parsed("2026-07-15 14:30"), 1784118600, "summer time");
	/* Berlin's midnights: 23:00 UTC the day before. */
	is_int(parsed("2026-11-29"), 1795906800, "a date is its midnight");
	is_int(parsed("today"), 1795906800, "today");
	is_int(parsed("Today"), 1795906800, "Today");
	is_int(parsed("yesterday"), 1795820400, "yesterday");
	is_int(parsed("2h"), 1795942800 - 7200, "2h");
	is_int(parsed("30m"), 1795942800 - 1800, "30m");
	is_int(parsed("3d"), 1795942800 - 3 * 86400, "3d");
	is_int(parsed("0m"), 1795942800, "0m is now");

	is_int(parsed(""), -1, "empty");
	is_int(parsed("h"), -1, "a unit alone");
	is_int(parsed("2x"), -1, "an unknown unit");
	is_int(parsed("-2h"), -1, "a negative time ago");
	is_int(parsed("02h"), -1, "a leading zero");
	is_int(parsed("99999d"), -1, "before 1970");
	is_int(parsed("tomorrow"), -1, "tomorrow");
	is_int(parsed("2026-02-30"), -1, "a day that does not exist");
	is_int(parsed("2026-02-30T10:00:00Z"), -1, "nor in UTC");
	is_int(parsed("2026-13-01"), -1, "month 13");
	is_int(parsed("25:00"), -1, "hour 25");
	is_int(parsed("14:30Z"), -1, "a clock with Z");
	is_int(parsed("2026-11-29Z"), -1, "a date with Z");
	is_int(parsed("2026-11-29T14:30:00+01:00"), -1, "an offset");
	is_int(parsed(" 14:30"), -1, "a leading blank");
	is_int(parsed("14:30 "), -1, "a trailing blank");

	setenv("TZ", "UTC0", 1);
	tzset();
	when_local(buf, sizeof buf, INT64_C(1795959000));
	is_str(buf, "2026-11-29 13:30:00 UTC", "UTC");
	is_int(parsed("today"), 1795910400, "today in UTC");
	is_int(parsed("2026-11-29T13:30:00"), 1795959000, "local is UTC");
	return tap_done();
}
