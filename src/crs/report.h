/*
 * report.h - the organiser's report: a convention's combats at a glance
 * (crs-combat report).  Pure: it adds up what the caller hands it, each
 * character's history (ledger_history's rows) and each combat's ledger
 * as loaded by ledger_load_all, which it replays in memory; it reads no
 * database and writes nothing.  report_json.c and report_html.c write
 * the figures out.
 */
#ifndef REFKIT_REPORT_H
#define REFKIT_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "db/db.h"
#include "crs/ledger.h"

/* The matchups the report names, the most frequent first. */
#define REPORT_MATCHUPS_MAX	10

/* One character's figures: a row of crs-combat history. */
struct report_char {
	char		*name;		/* owned */
	int64_t		 combats, dealt, taken, downed, fumbles;
};

/* One event of a combat's story, as crs-combat log words it. */
struct report_line {
	int64_t		 seq;
	char		*text;		/* owned, without its newline */
};

struct report_combat {
	char		 key[DB_KEY_TEXT_MAX];	/* as users see it */
	char		*rules;		/* owned */
	char		**fighters;	/* owned: the names, as they joined */
	int		 nfighters;
	int64_t		 started, finished;	/* finished: 0 under way */
	int64_t		 last;		/* the last event's time */
	int		 rounds, actions;
	int64_t		 dealt, downs, fumbles;
	struct report_line	*story;	/* owned */
	size_t		 nstory;
	int		 broken;	/* the replay stopped (see replay) */
};

/*
 * Who struck whom how, and how often: P(hit) is that of one more such
 * strike from full decks, with the bases of the latest one that drew a
 * defence (odds.h); known 0 when none did, and there is no P(hit).
 */
struct report_matchup {
	char		*attacker, *target;	/* owned */
	int		 mental, range;		/* range: enum combat_range */
	int		 count, known;
	int		 base, vs_base, lb, vs_lb;
	double		 p_hit;
	char		 p_exact[96];	/* "n/d", or "" past 128 bits */
};

/* Combats started in one hour (UTC). */
struct report_hour {
	int64_t		 hour;		/* its first second */
	int		 combats;
};

/* A GM's rulings (adjusts and out-of-turn actions) that were not undone. */
struct report_gm {
	char		*gm;		/* owned; "" when not recorded */
	int		 rulings;
};

struct report {
	int64_t			 since, now;
	struct report_char	*chars;
	size_t			 nchars;
	struct report_combat	*combats;
	size_t			 ncombats;
	struct report_hour	*hours;
	size_t			 nhours;
	struct report_matchup	*matchups;	/* REPORT_MATCHUPS_MAX at most
						   once finished */
	size_t			 nmatchups;
	/*
	 * The combats in which nobody struck (no attack, mental action or
	 * power, or every one undone): listed apart, in none of the
	 * figures above, the characters' count of combats included.
	 */
	struct report_combat	*idle;
	size_t			 nidle;
	struct report_gm	*gms;		/* by name, once finished */
	size_t			 ngms;
	/*
	 * Set by the caller after report_init for the figures alone: no
	 * combat keeps its story (a page of the day's figures).
	 */
	int			 no_story;
};

/* An empty report of what happened at or after since, written at now. */
void report_init(struct report *r, int64_t since, int64_t now);
void report_release(struct report *r);

/* Adds one character's history row (copied). */
void report_add_char(struct report *r, const struct ledger_history *h);

/*
 * Adds combat l (ledger_load_all's) if it started at or after since:
 * replays it for its story, rounds, duration and matchups, into combats,
 * or into idle when nobody struck in it.  Returns 1 if it was added, 0
 * if it started before since.
 */
int report_add_combat(struct report *r, const struct ledger *l);

/*
 * Adds what one holds of its combats (report_add_combat's, before
 * report_finish) to r, copied, as if they had been added to r itself
 * in that order: their combats, idle ones, matchups (the bases of a
 * matchup one struck with become r's, as the later strike's) and
 * rulings.  A report per combat, kept, and merged into a new one in
 * the combats' order, gives the report of them all without replaying
 * a combat that did not change (ledger_report's cache).
 */
void report_merge(struct report *r, const struct report *one);

/*
 * Once everything is added: the combats per hour, the most frequent
 * matchups with their odds, and the characters' count of combats less
 * the idle ones (a row left with nothing at all is dropped).
 */
void report_finish(struct report *r);

/* How long c lasted: to its end, or so far to its last event. */
int64_t report_duration(const struct report_combat *c);

/* m's kind of strike: "short range", "long range" or "mental". */
const char *report_kind(const struct report_matchup *m);

#endif
