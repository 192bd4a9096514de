/*
 * test_ruling.c - a GM's ruling: the reason's check, the parsing of
 * COUNTER=+N, -N and N, a stored list and its refusals, applying a
 * change, and the mark.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#include "core/ruling.h"

static const char *const names[] = { "LIFE", "EM", NULL };

static void
test_reason(void)
{
	char why[200], long_reason[RULING_REASON_MAX + 2];

	is_int(ruling_reason_check("prop broke", why, sizeof why), 0,
	    "a reason");
	is_int(ruling_reason_check("", why, sizeof why), -1, "empty");
	is_str(why, "a ruling needs a reason, got an empty one", "says so");
	is_int(ruling_reason_check("  ", why, sizeof why), -1, "blanks");
	is_int(ruling_reason_check("a\nb", why, sizeof why), -1, "two lines");
	is_str(why, "a ruling's reason must be one line of text", "says so");
	memset(long_reason, 'x', sizeof long_reason - 1);
	long_reason[sizeof long_reason - 1] = '\0';
	is_int(ruling_reason_check(long_reason, why, sizeof why), -1,
	    "201 bytes");
	long_reason[RULING_REASON_MAX] = '\0';
	is_int(ruling_reason_check(long_reason, why, sizeof why), 0,
	    "200 bytes");
}

static void
test_change(void)
{
	struct ruling_change c;
	char why[300];

	is_int(ruling_change_parse("life=+3", names, &c, why, sizeof why), 0,
	    "life=+3");
	is_str(c.name, "LIFE", "named as the list spells it");
	is_int(c.rel, 1, "relative");
	is_int(c.v, 3, "by 3");
	is_int(ruling_apply(&c, 5), 8, "5 + 3");
	is_int(ruling_change_parse("EM=-2", names, &c, why, sizeof why), 0,
	    "EM=-2");
	is_int(ruling_apply(&c, 5), 3, "5 - 2");
	is_int(ruling_change_parse("LIFE=12", names, &c, why, sizeof why), 0,
	    "LIFE=12");
	is_int(c.rel, 0, "absolute");
	is_int(ruling_apply(&c, 5), 12, "set to 12");
	is_int(ruling_change_parse("HP=3", names, &c, why, sizeof why), -1,
	    "an unknown counter");
	is_str(why, "'HP=3' must be COUNTER=+N, COUNTER=-N or COUNTER=N with "
	    "COUNTER LIFE or EM", "says which");
	is_int(ruling_change_parse("LIFE", names, &c, why, sizeof why), -1,
	    "no value");
	is_int(ruling_change_parse("LIFE=", names, &c, why, sizeof why), -1,
	    "an empty value");
	is_int(ruling_change_parse("LIFE=1.5", names, &c, why, sizeof why), -1,
	    "not whole");
	is_int(ruling_change_parse("LIFE=+100001", names, &c, why, sizeof why),
	    -1, "too large");
	is_str(why, "'LIFE=+100001': LIFE takes +N, -N or N, a whole number "
	    "up to 100000", "says so");
	is_int(ruling_change_parse("=3", names, &c, why, sizeof why), -1,
	    "no counter");
}

static void
test_list(void)
{
	struct ruling_change c[RULING_CHANGES_MAX];
	char why[300], *list = NULL;
	struct ruling_change one = { "LIFE", 1, 3 }, two = { "EM", 0, 0 };

	ruling_changes_add(&list, &one);
	ruling_changes_add(&list, &two);
	is_str(list, "LIFE=+3 EM=0", "stored form");
	is_int(ruling_changes_parse(list, names, c, why, sizeof why), 2,
	    "read back");
	is_int(c[1].rel, 0, "EM set");
	free(list);
	one.v = -4;
	list = NULL;
	ruling_changes_add(&list, &one);
	is_str(list, "LIFE=-4", "a negative change");
	free(list);
	is_int(ruling_changes_parse("LIFE=1 life=+2", names, c, why,
	    sizeof why), -1, "LIFE twice");
	is_str(why, "LIFE is changed twice in one ruling", "says so");
	is_int(ruling_changes_parse("", names, c, why, sizeof why), -1,
	    "nothing");
	is_str(why, "a ruling changes at least one counter", "says so");
}

static void
test_mark(void)
{
	char buf[100] = "";
	FILE *fp = fmemopen(buf, sizeof buf, "w");

	ruling_mark(fp, NULL);
	ruling_mark(fp, "prop broke");
	fclose(fp);
	is_str(buf, " [ruling: prop broke]", "the mark, none without");
}

int
main(void)
{
	test_reason();
	test_change();
	test_list();
	test_mark();
	return tap_done();
}
