/*
 * ruling.h - a GM's ruling (issue #39): what every game's adjust and
 * out-of-turn action share.  A ruling always carries the reason the GM
 * typed; an adjust changes named counters, each written COUNTER=+N or
 * COUNTER=-N (relative) or COUNTER=N (absolute); every line that shows a
 * ruled event ends with the mark " [ruling: REASON]".  The games keep
 * their own counters, limits and events; the text forms are here once.
 * Pure but for ruling_mark, which writes to the stream it is given, and
 * the command-line helpers at the end, which stop with a usage error.
 */
#ifndef REFKIT_RULING_H
#define REFKIT_RULING_H

#include <stddef.h>
#include <stdio.h>

/* The longest reason, in bytes, and the most counters in one adjust. */
#define RULING_REASON_MAX	200
#define RULING_CHANGES_MAX	8
#define RULING_NAME_MAX		16
/* The largest number a change may carry. */
#define RULING_VALUE_MAX	100000

struct ruling_change {
	char	 name[RULING_NAME_MAX];	/* as names lists it */
	int	 rel;			/* 1: +N or -N; 0: N */
	long	 v;
};

/*
 * Checks a reason: not empty, not only blanks, at most RULING_REASON_MAX
 * bytes, no control characters.  Returns 0, or -1 with why set.
 */
int ruling_reason_check(const char *reason, char *why, size_t whysz);

/*
 * Parses one "COUNTER=+N" into c; COUNTER is matched without regard to
 * case against names (NULL-terminated) and kept as names spells it.
 * Returns 0, or -1 with why naming the argument.
 */
int ruling_change_parse(const char *arg, const char *const *names,
    struct ruling_change *c, char *why, size_t whysz);

/*
 * Parses a stored list, changes separated by one space ("LIFE=+3 EM=-2"),
 * into c (room for RULING_CHANGES_MAX); a counter named twice is refused.
 * Returns how many, or -1 with why set.
 */
int ruling_changes_parse(const char *list, const char *const *names,
    struct ruling_change *c, char *why, size_t whysz);

/*
 * Appends change c, in its canonical form, to *list (owned, NULL to
 * start): what a command stores for ruling_changes_parse to read.
 */
void ruling_changes_add(char **list, const struct ruling_change *c);

/* The value a counter at now takes under change c. */
long ruling_apply(const struct ruling_change *c, long now);

/* Writes " [ruling: REASON]" to fp when reason is not NULL. */
void ruling_mark(FILE *fp, const char *reason);

/*
 * The mark as a string the caller owns (free), "" when reason is NULL;
 * and RULING_MARK_BRIEF, what a line fitted to a narrow screen keeps of
 * it once the reason has given way (base/fit): that there was a ruling.
 */
char *ruling_mark_text(const char *reason);
#define RULING_MARK_BRIEF	" [ruling]"

/*
 * For a command line: reason, the --reason given (or NULL), checked;
 * a usage error (exit 2) names what needs it when it is missing or bad.
 */
void ruling_reason_arg(const char *reason, const char *what);

/*
 * The changes argv[0 .. argc) ("LIFE=+3" "em=-2"), checked against
 * names, as a stored list (owned); a bad or repeated one is a usage
 * error.
 */
char *ruling_changes_args(int argc, char **argv, const char *const *names);

#endif
