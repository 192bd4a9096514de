/*
 * item.c - item and power records and their KEY=VALUE fields; see item.h.
 */
#include "crs/item.h"

#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const mod_keys[ITEM_MOD_COUNT] = {
	"or", "dr", "mind", "pick", "offense", "defense"
};
static const char *const range_names[] = { "short", "long", "both" };
static const char *const use_names[] = {
	"supplemental", "continuous", "wearable"
};
static const char *const target_names[] = { "one", "group" };
static const char *const defend_names[] = { "dr", "mind", "none" };

#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

static int
lookup(const char *const *names, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (util_streq_ci(name, names[i]))
			return i;
	return -1;
}

const char *
item_mod_key(int m)
{
	return m >= 0 && m < ITEM_MOD_COUNT ? mod_keys[m] : "?";
}

const char *
item_range_name(int r)
{
	return r >= 0 && r < NELEM(range_names) ? range_names[r] : "?";
}

const char *
item_use_name(int u)
{
	return u >= 0 && u < NELEM(use_names) ? use_names[u] : "?";
}

int
item_range_lookup(const char *name)
{
	return lookup(range_names, NELEM(range_names), name);
}

int
item_use_lookup(const char *name)
{
	return lookup(use_names, NELEM(use_names), name);
}

const char *
item_power_target_name(int t)
{
	return t >= 0 && t < NELEM(target_names) ? target_names[t] : "?";
}

const char *
item_power_defend_name(int d)
{
	return d >= 0 && d < NELEM(defend_names) ? defend_names[d] : "?";
}

int
item_power_target_lookup(const char *name)
{
	return lookup(target_names, NELEM(target_names), name);
}

int
item_power_defend_lookup(const char *name)
{
	return lookup(defend_names, NELEM(defend_names), name);
}

int
item_check_name(const char *name, char *why, size_t whysz)
{
	if (*name == '\0') {
		snprintf(why, whysz, "must not be empty");
		return -1;
	}
	if (strchr(name, ';') != NULL) {
		/* ';' separates names in the items and powers columns. */
		snprintf(why, whysz, "must not contain ';'");
		return -1;
	}
	return util_check_text(name, UTIL_TEXT_LINE, ITEM_NAME_MAX, why,
	    whysz);
}

/* Sets an owned string field; "" clears it.  Shared by items and powers. */
static int
set_notes(char **field, const char *value, char *why, size_t whysz)
{
	if (util_check_text(value, UTIL_TEXT_NOTES, ITEM_NOTES_MAX, why,
	    whysz) != 0)
		return ITEM_SET_BAD;
	free(*field);
	*field = *value ? xstrdup(value) : NULL;
	return ITEM_SET_OK;
}

static int
set_name(char **field, const char *value, char *why, size_t whysz)
{
	if (item_check_name(value, why, whysz) != 0)
		return ITEM_SET_BAD;
	free(*field);
	*field = xstrdup(value);
	return ITEM_SET_OK;
}

/* Parses a whole number in [min, max] into *out. */
static int
set_int(int *out, const char *value, long min, long max, char *why,
    size_t whysz)
{
	long v;

	if (util_parse_int(value, min, max, &v) != UTIL_INT_OK) {
		snprintf(why, whysz, "must be a whole number from %ld to %ld",
		    min, max);
		return ITEM_SET_BAD;
	}
	*out = (int)v;
	return ITEM_SET_OK;
}

/* Parses one of names into *out. */
static int
set_enum(int *out, const char *const *names, int n, const char *value,
    char *why, size_t whysz)
{
	int v = lookup(names, n, value);

	if (v < 0) {
		size_t off = (size_t)snprintf(why, whysz, "must be ");
		for (int i = 0; i < n && off < whysz; i++)
			off += (size_t)snprintf(why + off, whysz - off,
			    "%s'%s'", i == 0 ? "" : i == n - 1 ? " or " : ", ",
			    names[i]);
		return ITEM_SET_BAD;
	}
	*out = v;
	return ITEM_SET_OK;
}

void
item_init(struct item *it, const char *name)
{
	memset(it, 0, sizeof *it);
	it->name = xstrdup(name);
	it->range = ITEM_BOTH;
	it->use = ITEM_SUPPLEMENTAL;
}

void
item_release(struct item *it)
{
	free(it->name);
	free(it->notes);
	memset(it, 0, sizeof *it);
}

int
item_set(struct item *it, const char *key, const char *value, char *why,
    size_t whysz)
{
	static const char *const yesno[] = { "no", "yes" };
	int m;

	if ((m = lookup(mod_keys, ITEM_MOD_COUNT, key)) >= 0)
		return set_int(&it->mod[m], value, -ITEM_MOD_MAX,
		    ITEM_MOD_MAX, why, whysz);
	if (util_streq_ci(key, "range"))
		return set_enum(&it->range, range_names, NELEM(range_names),
		    value, why, whysz);
	if (util_streq_ci(key, "use"))
		return set_enum(&it->use, use_names, NELEM(use_names), value,
		    why, whysz);
	if (util_streq_ci(key, "full-or"))
		return set_enum(&it->full_or, yesno, NELEM(yesno), value, why,
		    whysz);
	if (util_streq_ci(key, "notes"))
		return set_notes(&it->notes, value, why, whysz);
	if (util_streq_ci(key, "name"))
		return set_name(&it->name, value, why, whysz);
	util_say(why, whysz, "unknown item field '%s' (known: or, dr, mind, "
	    "pick, offense, defense, range, use, full-or, notes, name)", key);
	return ITEM_SET_UNKNOWN;
}

int
item_always_on(const struct item *it)
{
	return it->use == ITEM_CONTINUOUS || it->use == ITEM_WEARABLE;
}

void
item_power_init(struct power *pw, const char *name)
{
	memset(pw, 0, sizeof *pw);
	pw->name = xstrdup(name);
	pw->picks = 1;
	pw->target = POWER_ONE;
	pw->defend = POWER_VS_NONE;
}

void
item_power_release(struct power *pw)
{
	free(pw->name);
	free(pw->notes);
	memset(pw, 0, sizeof *pw);
}

int
item_power_set(struct power *pw, const char *key, const char *value, char *why,
    size_t whysz)
{
	if (util_streq_ci(key, "em"))
		return set_int(&pw->em, value, 0, POWER_EM_MAX, why, whysz);
	if (util_streq_ci(key, "picks"))
		return set_int(&pw->picks, value, 0, POWER_PICKS_MAX, why,
		    whysz);
	if (util_streq_ci(key, "bonus"))
		return set_int(&pw->bonus, value, -ITEM_MOD_MAX, ITEM_MOD_MAX,
		    why, whysz);
	if (util_streq_ci(key, "target"))
		return set_enum(&pw->target, target_names,
		    NELEM(target_names), value, why, whysz);
	if (util_streq_ci(key, "defend"))
		return set_enum(&pw->defend, defend_names,
		    NELEM(defend_names), value, why, whysz);
	if (util_streq_ci(key, "notes"))
		return set_notes(&pw->notes, value, why, whysz);
	if (util_streq_ci(key, "name"))
		return set_name(&pw->name, value, why, whysz);
	util_say(why, whysz, "unknown power field '%s' (known: em, picks, "
	    "bonus, target, defend, notes, name)", key);
	return ITEM_SET_UNKNOWN;
}

char *
item_summary(const struct item *it)
{
	static const char *const label[ITEM_MOD_COUNT] = {
		"OR", "DR", "MIND", "AC pick", "offense", "defense"
	};
	char *s = xstrdup(""), *t;

	for (int m = 0; m < ITEM_MOD_COUNT; m++) {
		if (it->mod[m] == 0)
			continue;
		t = xasprintf("%s%s%+d %s", s, *s ? ", " : "", it->mod[m],
		    label[m]);
		free(s);
		s = t;
	}
	t = xasprintf("%s%s%s range; %s%s", s, *s ? "; " : "",
	    it->range == ITEM_BOTH ? "short and long" :
	    item_range_name(it->range), item_use_name(it->use),
	    it->full_or ? "; full OR" : "");
	free(s);
	return t;
}

char *
item_power_summary(const struct power *pw)
{
	static const char *const defend[] = {
		"defended by DR", "defended by MIND", "no defence"
	};
	char *bonus = pw->bonus ? xasprintf(" %+d", pw->bonus) : xstrdup("");
	char *t = xasprintf("EM %d or more; %d pick%s + EM spent%s; %s; "
	    "%s", pw->em, pw->picks, pw->picks == 1 ? "" : "s",
	    bonus, pw->target == POWER_GROUP ? "a group" : "one target",
	    defend[pw->defend]);

	free(bonus);
	return t;
}
