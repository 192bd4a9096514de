/*
 * d6/sheet.c - D6 System characters in memory: made, edited by KEY=VALUE
 * arguments, checked, searched.  Pure: d6/ledger.c keeps them in the
 * database.  See d6/sheet.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d6/sheet.h"
#include "base/names.h"
#include "base/util.h"

void
d6sheet_new(struct d6_sheet *s, const char *name)
{
	memset(s, 0, sizeof *s);
	s->name = xstrdup(name);
	s->cp = 5;
	s->fp = 1;
}

static void
trait_free(struct d6_trait *t)
{
	free(t->name);
	free(t->attribute);
}

void
d6sheet_free(struct d6_sheet *s)
{
	for (int i = 0; i < s->n; i++)
		trait_free(&s->t[i]);
	free(s->t);
	free(s->name);
	free(s->notes);
	memset(s, 0, sizeof *s);
}

static int
find(const struct d6_sheet *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (util_streq_ci(s->t[i].name, name))
			return i;
	return -1;
}

/* A trait name: 1 to 100 bytes, one line, no '.' or '='. */
static int
good_name(const char *n, char *why, size_t whysz)
{
	char r[128];

	if (strchr(n, '.') || strchr(n, '=') || *n == '\0') {
		snprintf(why, whysz, "a trait name must be non-empty, without "
		    "'.' or '='");
		return -1;
	}
	if (util_check_text(n, UTIL_TEXT_LINE, 100, r, sizeof r) != 0) {
		snprintf(why, whysz, "trait name: %s", r);
		return -1;
	}
	if (util_streq_ci(n, "cp") || util_streq_ci(n, "fp") ||
	    util_streq_ci(n, "dsp") || util_streq_ci(n, "notes")) {
		util_say(why, whysz, "'%s' is a sheet field, not a trait", n);
		return -1;
	}
	return 0;
}

static int
points(const char *key, const char *v, long max, int *out, char *why,
    size_t whysz)
{
	long n;

	if (util_parse_int(v, 0, max, &n) != UTIL_INT_OK) {
		snprintf(why, whysz, "%s: want a whole number from 0 to %ld",
		    key, max);
		return -1;
	}
	*out = (int)n;
	return 0;
}

/* TRAIT=- or ATTRIBUTE.SKILL=-: the trait name gone from s. */
static int
trait_remove(struct d6_sheet *s, int i, const char *name, char *why,
    size_t whysz)
{
	if (i < 0)
		return util_say(why, whysz, "%s has no trait '%s'", s->name,
		    name);
	trait_free(&s->t[i]);
	memmove(&s->t[i], &s->t[i + 1], (size_t)(s->n - i - 1) *
	    sizeof *s->t);
	s->n--;
	return 0;
}

/*
 * buf is TRAIT or ATTRIBUTE.SKILL (cut at its dot here), val its code or
 * "-": the trait set, made or removed.
 */
static int
trait_apply(struct d6_sheet *s, char *buf, const char *key,
    const char *val, char *why, size_t whysz)
{
	const char *name = key, *attr = NULL;
	char *dot, r[128];
	struct d6_code c;
	int i;

	if ((dot = strchr(buf, '.')) != NULL) {
		*dot = '\0';
		attr = buf;
		name = dot + 1;
		if (good_name(attr, why, whysz) != 0)
			return -1;
	}
	if (good_name(name, why, whysz) != 0)
		return -1;
	i = find(s, name);
	if (strcmp(val, "-") == 0)
		return trait_remove(s, i, name, why, whysz);
	if (d6_parse_code(val, &c, r, sizeof r) != 0) {
		snprintf(why, whysz, "%s: %s", name, r);
		return -1;
	}
	if (c.plain) {
		snprintf(why, whysz, "%s: a trait is a D6 code like 3D+1, not "
		    "plain dice", name);
		return -1;
	}
	if (attr && util_streq_ci(attr, name)) {
		snprintf(why, whysz, "%s cannot be a skill of itself", name);
		return -1;
	}
	if (i < 0) {
		s->t = xreallocarray(s->t, (size_t)s->n + 1, sizeof *s->t);
		i = s->n++;
		s->t[i].name = xstrdup(name);
		s->t[i].attribute = NULL;
	}
	free(s->t[i].attribute);
	s->t[i].attribute = attr ? xstrdup(attr) : NULL;
	s->t[i].code = c;
	return 0;
}

int
d6sheet_apply(struct d6_sheet *s, const char *arg, char *why,
    size_t whysz)
{
	char *buf, r[128];
	const char *key, *val;
	int rc = -1;

	if (util_split_kv(arg, &buf, &key, &val) != 0) {
		snprintf(why, whysz, "want TRAIT=CODE, ATTRIBUTE.SKILL=CODE, "
		    "TRAIT=- or cp=/fp=/dsp=/notes=");
		return -1;
	}
	if (util_streq_ci(key, "cp"))
		rc = points("cp", val, 10000, &s->cp, why, whysz);
	else if (util_streq_ci(key, "fp"))
		rc = points("fp", val, 1000, &s->fp, why, whysz);
	else if (util_streq_ci(key, "dsp"))
		rc = points("dsp", val, 1000, &s->dsp, why, whysz);
	else if (util_streq_ci(key, "notes")) {
		if (util_check_text(val, UTIL_TEXT_NOTES, 10000, r,
		    sizeof r) != 0)
			snprintf(why, whysz, "notes: %s", r);
		else {
			free(s->notes);
			s->notes = *val ? xstrdup(val) : NULL;
			rc = 0;
		}
	} else
		rc = trait_apply(s, buf, key, val, why, whysz);
	free(buf);
	return rc;
}

int
d6sheet_check(const struct d6_sheet *s, char *why, size_t whysz)
{
	for (int i = 0; i < s->n; i++) {
		const struct d6_trait *t = &s->t[i];
		int a;

		if (t->attribute == NULL)
			continue;
		a = find(s, t->attribute);
		if (a < 0) {
			snprintf(why, whysz, "skill %s: %s has no attribute "
			    "'%s'", t->name, s->name, t->attribute);
			return -1;
		}
		if (s->t[a].attribute != NULL) {
			util_say(why, whysz, "skill %s: '%s' is a skill, not "
			    "an attribute", t->name, t->attribute);
			return -1;
		}
	}
	return 0;
}

/* Which of a sheet's traits a name is matched against. */
enum among { ANY_TRAIT, ATTRIBUTES, SKILLS_OF };

static int
among(const struct d6_trait *t, enum among which, const char *attr)
{
	return which == ANY_TRAIT || (which == ATTRIBUTES ? t->attribute ==
	    NULL : t->attribute != NULL && util_streq_ci(t->attribute, attr));
}

/*
 * The trait of s that typed names among those which (and attr, for
 * SKILLS_OF) allows, by base/names.h's rule: its index, or -1.  m holds
 * the outcome for a refusal; the caller releases it.
 */
static int
match(const struct d6_sheet *s, const char *typed, enum among which,
    const char *attr, struct names *m)
{
	const char *found;

	names_init(m, typed);
	for (int i = 0; i < s->n; i++)
		if (among(&s->t[i], which, attr))
			names_add(m, s->t[i].name);
	if (names_pick(m, &found) != NAMES_FOUND)
		return -1;
	for (int i = 0; i < s->n; i++)
		if (among(&s->t[i], which, attr) &&
		    strcmp(s->t[i].name, found) == 0)
			return i;
	return -1;
}

/*
 * The refusal of m into why: "'bl' could be 'blaster' or 'block'", or
 * "Luke has no WHAT 'dodj'; did you mean 'dodge'?" and then tail.
 */
static void
refuse(const struct d6_sheet *s, const struct names *m, const char *what,
    const char *tail, char *why, size_t whysz)
{
	char *lead = xasprintf("%s has no %s", s->name, what);
	char said[512];

	names_why(m, lead, said, sizeof said);
	free(lead);
	if (names_pick(m, &(const char *){ NULL }) == NAMES_AMBIGUOUS)
		tail = "";
	util_say(why, whysz, "%s%s", said, tail);
}

const struct d6_trait *
d6sheet_find(const struct d6_sheet *s, const char *ref, int *fallback,
    char *why, size_t whysz)
{
	const char *dot = strchr(ref, '.');
	struct names m;
	char *attr, *tail;
	int a, i;

	*fallback = 0;
	if (dot == NULL) {
		if ((i = match(s, ref, ANY_TRAIT, NULL, &m)) < 0) {
			tail = xasprintf(" (write ATTRIBUTE.%s to fall back on "
			    "the attribute)", ref);
			refuse(s, &m, "trait", tail, why, whysz);
			free(tail);
		}
		names_release(&m);
		return i < 0 ? NULL : &s->t[i];
	}
	attr = xstrndup(ref, (size_t)(dot - ref));
	a = match(s, attr, ATTRIBUTES, NULL, &m);
	free(attr);
	if (a < 0) {
		refuse(s, &m, "attribute", "", why, whysz);
		names_release(&m);
		return NULL;
	}
	names_release(&m);
	/* A skill the attribute does not have is rolled on the attribute. */
	i = match(s, dot + 1, SKILLS_OF, s->t[a].name, &m);
	if (i < 0 && names_pick(&m, &(const char *){ NULL }) ==
	    NAMES_AMBIGUOUS) {
		refuse(s, &m, "skill", "", why, whysz);
		names_release(&m);
		return NULL;
	}
	names_release(&m);
	if (i >= 0)
		return &s->t[i];
	*fallback = 1;
	return &s->t[a];
}
