/*
 * test_play.c - the short forms play expands (issue #23).
 */
#include "tap.h"

#include <stdlib.h>
#include <string.h>

#include "term/play.h"

static const struct play_alias aliases[] = {
	{ "a", "attack", 2, { "--card", "--vs-card" } },
	{ "u", "undo", 0, { NULL } },
	{ "p", "pass", 1, { NULL } },
	{ NULL, NULL, 0, { NULL } }
};

/* The expansion of the words of line (blank-separated), joined by '|'. */
static char *
expand(const char *line)
{
	static char out[256];
	char *copy = strdup(line), *words[16], **v;
	int n = 0, nv;

	for (char *w = strtok(copy, " "); w && n < 15; w = strtok(NULL, " "))
		words[n++] = w;
	words[n] = NULL;
	v = play_expand(aliases, n, words, &nv);
	out[0] = '\0';
	for (int i = 0; i < nv; i++) {
		strcat(out, i ? "|" : "");
		strcat(out, v[i]);
	}
	if (v[nv] != NULL)
		strcat(out, "|(not ended)");
	free(v);
	free(copy);
	return out;
}

int
main(void)
{
	is_str(expand("a grim jo 8 6"),
	    "attack|grim|jo|--card|8|--vs-card|6", "a with both cards");
	is_str(expand("a grim jo 8"), "attack|grim|jo|--card|8",
	    "a with the attacker's card");
	is_str(expand("a grim jo"), "attack|grim|jo", "a drawing both");
	is_str(expand("a grim jo 8 6 --long"),
	    "attack|grim|jo|--card|8|--vs-card|6|--long", "an option after");
	is_str(expand("a grim jo --long 8"), "attack|grim|jo|--long|8",
	    "after an option, words go as typed");
	is_str(expand("a grim jo 8 6 7"),
	    "attack|grim|jo|--card|8|--vs-card|6|7", "a word too many");
	is_str(expand("a grim"), "attack|grim", "too few: the tool says so");
	is_str(expand("u"), "undo", "u");
	is_str(expand("u 4"), "undo|4", "u 4: the event is no option");
	is_str(expand("p john"), "pass|john", "p");
	is_str(expand("attack x y"), "attack|x|y", "no alias");
	is_str(expand("au x"), "au|x", "an alias only whole");
	return tap_done();
}
