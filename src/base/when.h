/*
 * when.h - times for people: written in the local time zone (TZ), and
 * read back from the forms a referee types (a local time, "today",
 * "2h").  Machine formats keep UTC; util_time_iso writes those.
 */
#ifndef REFKIT_WHEN_H
#define REFKIT_WHEN_H

#include <stddef.h>
#include <stdint.h>

/* What a buffer for when_local needs. */
#define WHEN_LOCAL_SIZE	48

/*
 * Writes Unix time t as local time with its zone, "2026-11-29 14:30:05
 * CET", into buf; as its number of seconds when localtime(3) cannot hold
 * its year.
 */
void when_local(char *buf, size_t sz, int64_t t);

/* The local time of day of t alone, "14:30:05", for a narrow column. */
void when_clock(char *buf, size_t sz, int64_t t);

/*
 * Reads s as a moment and writes its Unix time to *t (a clock time is
 * today's, even when it is still to come).
 * The forms: seconds since 1970 ("1764400000"); a UTC stamp
 * ("2026-11-29T13:30:00Z"); a local date ("2026-11-29", its midnight),
 * a local date and time ("2026-11-29 14:30", "2026-11-29T14:30:00"), a
 * local time of today ("14:30", "14:30:05"); "today" and "yesterday"
 * (their local midnight); a time ago ("30m", "2h", "3d").  Pure but for
 * the time zone, which is the process's (TZ).  Returns 0, or -1 when s
 * is none of these.
 */
int when_parse(const char *s, int64_t now, int64_t *t);

/* The forms when_parse accepts, in one phrase for a usage message. */
extern const char when_forms[];

#endif
