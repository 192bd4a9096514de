/*
 * d6sheet.h - D6 System characters: attributes and skills as die codes,
 * Character, Force and Dark Side Points; edited in memory (pure) and
 * kept in the database (d6_character, d6_trait), with the log of the
 * rolls made for them (d6_roll).  Writers run inside a transaction the
 * caller opens with db_begin.
 */
#ifndef REFKIT_D6SHEET_H
#define REFKIT_D6SHEET_H

#include <stddef.h>
#include <stdint.h>

#include "d6/d6.h"
#include "core/db.h"

struct d6_trait {
	char		*name;
	char		*attribute;	/* NULL: this is an attribute */
	struct d6_code	 code;
};

struct d6_sheet {
	int64_t		 id;		/* 0 until stored */
	char		*name;
	int		 cp, fp, dsp;
	char		*notes;
	int		 n;
	struct d6_trait	*t;
};

/* A new sheet: 5 Character Points, 1 Force Point, as the seed starts. */
void d6sheet_new(struct d6_sheet *s, const char *name);
void d6sheet_free(struct d6_sheet *s);

/*
 * Applies one argument: ATTRIBUTE=CODE, ATTRIBUTE.SKILL=CODE, NAME=- (to
 * remove), cp=N, fp=N, dsp=N or notes=TEXT.  Returns 0, or -1 with the
 * reason in why.
 */
int d6sheet_apply(struct d6_sheet *s, const char *arg, char *why,
    size_t whysz);

/* Checks that every skill's attribute is on the sheet. */
int d6sheet_check(const struct d6_sheet *s, char *why, size_t whysz);

/*
 * The trait to roll for ref ("blaster", "dexterity", or
 * "dexterity.blaster", which falls back on dexterity when the skill is
 * missing).  *fallback is set when it did.  NULL if there is none.
 */
const struct d6_trait *d6sheet_find(const struct d6_sheet *s,
    const char *ref, int *fallback);

/* Loads the character called name.  Returns 0, or -1 if there is none. */
int d6sheet_load(struct db *db, const char *name, struct d6_sheet *s);

/*
 * Stores s: a new character when s->id is 0 (-1 if the name is taken),
 * else replaces the one with that id, traits and all.  Returns 0.
 */
int d6sheet_save(struct db *db, struct d6_sheet *s, int64_t now);

/* Removes the character called name.  Returns 0, or -1 if none. */
int d6sheet_remove(struct db *db, const char *name);

/* Takes cp Character Points and fp Force Points from character id. */
void d6sheet_spend(struct db *db, int64_t id, int cp, int fp, int64_t now);

/* One line of the roster. */
struct d6_summary {
	const char	*name;
	int		 cp, fp, dsp;
	int		 attributes, skills;
};

/* Calls fn for each character, by name, in one query. */
void d6sheet_each(struct db *db,
    void (*fn)(const struct d6_summary *, void *), void *arg);

/* A roll for the log. */
struct d6_logged {
	const char	*character;
	const char	*round;		/* NULL: none */
	const char	*trait;
	const char	*code;
	uint64_t	 seed;
	long		 total;
	int		 cp, fp;
	const char	*detail;	/* JSON */
};

void d6sheet_log_roll(struct db *db, const struct d6_logged *r, int64_t now);

/*
 * What was spent already in a round: the Character Points and Force
 * Points of the character's logged rolls labelled round.
 */
void d6sheet_round_spent(struct db *db, const char *character,
    const char *round, int *cp, int *fp);

#endif
