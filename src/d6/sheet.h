/*
 * d6/sheet.h - D6 System characters: attributes and skills as die codes,
 * Character, Force and Dark Side Points, edited in memory.  Pure: no I/O
 * and no SQL; d6/ledger.h keeps them in the database.
 */
#ifndef REFKIT_D6_SHEET_H
#define REFKIT_D6_SHEET_H

#include <stddef.h>
#include <stdint.h>

#include "d6/d6.h"

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
 * "dexterity.blaster", which falls back on dexterity when it has no such
 * skill).  Each name is matched by base/names.h's rule: exactly, but for
 * case, or by a unique beginning of the name or of one of its words
 * ("blas", "dex.bl").  *fallback is set when it fell back.  NULL, with
 * the refusal in why, if no trait is meant or several could be.
 */
const struct d6_trait *d6sheet_find(const struct d6_sheet *s,
    const char *ref, int *fallback, char *why, size_t whysz);

#endif
