/*
 * ruling.c - a GM's ruling: its reason, its changes, its mark; see
 * ruling.h.
 */
#include "core/ruling.h"

#include "base/util.h"
#include "core/cli.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int
ruling_reason_check(const char *reason, char *why, size_t whysz)
{
	const unsigned char *p;
	int seen = 0;

	if (reason == NULL || strlen(reason) > RULING_REASON_MAX) {
		snprintf(why, whysz, "a ruling's reason must be 1 to %d "
		    "bytes", RULING_REASON_MAX);
		return -1;
	}
	for (p = (const unsigned char *)reason; *p; p++) {
		if (*p < 0x20 || *p == 0x7f) {
			snprintf(why, whysz, "a ruling's reason must be one "
			    "line of text");
			return -1;
		}
		if (*p != ' ')
			seen = 1;
	}
	if (!seen) {
		snprintf(why, whysz, "a ruling needs a reason, got an empty "
		    "one");
		return -1;
	}
	return 0;
}

/* The names of names as a sentence ("LIFE or EM"), in buf. */
static const char *
names_said(const char *const *names, char *buf, size_t bufsz)
{
	size_t len = 0, n = 0;

	while (names[n] != NULL)
		n++;
	buf[0] = '\0';
	for (size_t i = 0; i < n && len < bufsz; i++)
		len += (size_t)snprintf(buf + len, bufsz - len, "%s%s",
		    i == 0 ? "" : i == n - 1 ? " or " : ", ", names[i]);
	return buf;
}

int
ruling_change_parse(const char *arg, const char *const *names,
    struct ruling_change *c, char *why, size_t whysz)
{
	const char *eq = strchr(arg, '='), *v;
	char said[120];
	size_t len;
	long n;
	int i;

	len = eq ? (size_t)(eq - arg) : 0;
	for (i = 0; names[i] != NULL; i++)
		if (len > 0 && strlen(names[i]) == len &&
		    strncasecmp(names[i], arg, len) == 0)
			break;
	if (eq == NULL || names[i] == NULL) {
		util_say(why, whysz, "'%s' must be COUNTER=+N, COUNTER=-N or "
		    "COUNTER=N with COUNTER %s", arg, names_said(names, said,
		    sizeof said));
		return -1;
	}
	v = eq + 1;
	c->rel = *v == '+' || *v == '-';
	if (util_parse_int(v + (*v == '+'), -RULING_VALUE_MAX,
	    RULING_VALUE_MAX, &n) != UTIL_INT_OK || (!c->rel && n < 0)) {
		util_say(why, whysz, "'%s': %s takes +N, -N or N, a whole "
		    "number up to %d", arg, names[i], RULING_VALUE_MAX);
		return -1;
	}
	snprintf(c->name, sizeof c->name, "%s", names[i]);
	c->v = n;
	return 0;
}

int
ruling_changes_parse(const char *list, const char *const *names,
    struct ruling_change *c, char *why, size_t whysz)
{
	char *copy = xstrdup(list), *save = NULL;
	int n = 0;

	for (char *w = strtok_r(copy, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save)) {
		if (n == RULING_CHANGES_MAX) {
			snprintf(why, whysz, "a ruling changes at most %d "
			    "counters", RULING_CHANGES_MAX);
			n = -1;
			break;
		}
		if (ruling_change_parse(w, names, &c[n], why, whysz) != 0) {
			n = -1;
			break;
		}
		for (int k = 0; k < n; k++)
			if (strcmp(c[k].name, c[n].name) == 0) {
				util_say(why, whysz, "%s is changed twice in "
				    "one ruling", c[n].name);
				free(copy);
				return -1;
			}
		n++;
	}
	free(copy);
	if (n == 0) {
		snprintf(why, whysz, "a ruling changes at least one counter");
		return -1;
	}
	return n;
}

void
ruling_changes_add(char **list, const struct ruling_change *c)
{
	char *t = xasprintf("%s%s%s=%s%ld", *list ? *list : "", *list ? " " :
	    "", c->name, c->rel && c->v >= 0 ? "+" : "", c->v);

	free(*list);
	*list = t;
}

long
ruling_apply(const struct ruling_change *c, long now)
{
	return c->rel ? now + c->v : c->v;
}

void
ruling_mark(FILE *fp, const char *reason)
{
	if (reason != NULL)
		fprintf(fp, " [ruling: %s]", reason);
}

char *
ruling_mark_text(const char *reason)
{
	return reason != NULL ? xasprintf(" [ruling: %s]", reason) :
	    xstrdup("");
}

void
ruling_reason_arg(const char *reason, const char *what)
{
	char why[200];

	if (reason == NULL)
		cli_usage_error("%s needs --reason TEXT: a ruling always says "
		    "why", what);
	if (ruling_reason_check(reason, why, sizeof why) != 0)
		cli_usage_error("--reason: %s", why);
}

char *
ruling_changes_args(int argc, char **argv, const char *const *names)
{
	struct ruling_change c[RULING_CHANGES_MAX];
	char why[300], *list = NULL;

	for (int i = 0; i < argc; i++) {
		if (ruling_change_parse(argv[i], names, &c[0], why,
		    sizeof why) != 0)
			cli_usage_error("%s", why);
		ruling_changes_add(&list, &c[0]);
	}
	if (list == NULL || ruling_changes_parse(list, names, c, why,
	    sizeof why) < 0)
		cli_usage_error("%s", list == NULL ? "a ruling changes at "
		    "least one counter" : why);
	return list;
}
