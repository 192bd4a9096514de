/*
 * test_play.c - the short forms play expands (issue #23), and a game's
 * session as its table sets it up (issue #38).
 */
#include "tap.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "core/journal.h"
#include "term/play.h"

static const struct play_alias aliases[] = {
	{ "a", "attack", 2, { "--card", "--vs-card" }, 1, "a k g 8 6" },
	{ "m", "mental", 2, { "--card", "--vs-card" }, 0, "m k g 8 6" },
	{ "u", "undo", 0, { NULL }, 0, "u" },
	{ "p", "pass", 1, { NULL }, 0, "p k" },
	{ NULL, NULL, 0, { NULL }, 0, NULL }
};

static const struct option longopts[] = {
	{ "db", required_argument, NULL, 1 },
	{ "long", no_argument, NULL, 2 },
	{ "output", required_argument, NULL, 3 },
	{ "json", no_argument, NULL, 'j' },
	{ NULL, 0, NULL, 0 }
};

static char *expand_as(int command_line, const char *line);

/* The expansion of the words of line, as play expands them. */
static char *
expand(const char *line)
{
	return expand_as(0, line);
}

/* The same, as a tool's one-shot command line (its name first). */
static char *
oneshot(const char *line)
{
	return expand_as(1, line);
}

/* The expansion of the words of line (blank-separated), joined by '|'. */
static char *
expand_as(int command_line, const char *line)
{
	static char out[256];
	char *copy = strdup(line), *words[16], **v;
	int n = 0, nv;

	for (char *w = strtok(copy, " "); w && n < 15; w = strtok(NULL, " "))
		words[n++] = w;
	words[n] = NULL;
	v = command_line ? play_command_line(aliases, ":jo:", longopts, n,
	    words, &nv) : play_expand(aliases, n, words, &nv);
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

static int
run_nothing(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* play_tool_game: the table's fields, the lead, the log kept to. */
static void
test_game(void)
{
	static const struct journal_kind kind;
	static const char *const board[] = { "show", NULL };
	static const struct play_game g = { "bg-board", run_nothing,
	    aliases, board, "--game", "new", &kind };
	struct play_tool t;

	play_tool_game(&t, &g, "x.db", "ann", "3");
	is_str(t.name, "bg-board", "game: the tool's name");
	ok(t.run == run_nothing && t.aliases == aliases && t.board == board,
	    "game: its entry, short forms and board");
	is_int((int)t.nlead, 4, "game: --db and --gm lead");
	is_str(t.lead[0], "--db", "game: --db first");
	is_str(t.lead[1], "x.db", "game: the database");
	is_str(t.lead[2], "--gm", "game: then --gm");
	is_str(t.lead[3], "ann", "game: the GM");
	is_str(t.log_option, "--game", "game: the log's option");
	is_str(t.start, "new", "game: the command that begins a log");
	ok(t.kind == &kind, "game: the kind journal_pin looks in");
	is_str(t.db, "x.db", "game: journal_pin's database");
	is_str(t.gm, "ann", "game: journal_pin's GM");
	is_str(t.pinned, "3", "game: the log named");

	play_tool_game(&t, &g, NULL, NULL, NULL);
	is_int((int)t.nlead, 0, "game: no --db, no --gm: no lead");
	ok(t.db == NULL && t.gm == NULL && t.pinned == NULL,
	    "game: the defaults left to journal_pin");
}

int
main(void)
{
	test_game();
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
	is_str(expand("attack x y 8 6"), "attack|x|y|--card|8|--vs-card|6",
	    "a whole alias: the command takes its words too");
	is_str(expand("attack x y z --card 7"), "attack|x|y|z|--card|7",
	    "an option typed too: the words as typed, for the tool to refuse");
	is_str(expand("a x y 8 --vs-card=6"), "attack|x|y|--card|8|--vs-card=6",
	    "the options not typed are still taken bare");
	is_str(expand("mental x y z"), "mental|x|y|z",
	    "not whole: the command's words as typed");
	is_str(expand("m x y 8"), "mental|x|y|--card|8", "its short form");
	is_str(oneshot("t attack k g 10,10,9 2"),
	    "t|attack|k|g|--card|10,10,9|--vs-card|2",
	    "one-shot: the words play takes");
	is_str(oneshot("t --db x.db -j --long a k g 1 2"),
	    "t|--db|x.db|-j|--long|attack|k|g|--card|1|--vs-card|2",
	    "one-shot: options and values before the command");
	is_str(oneshot("t --db=a -o u a"), "t|--db=a|-o|u|attack",
	    "one-shot: the value of a short option is no command");
	is_str(oneshot("t --d x.db -jo u a k g 1"),
	    "t|--d|x.db|-jo|u|attack|k|g|--card|1",
	    "one-shot: a prefix of a long option, a cluster of short ones");
	is_str(oneshot("t -- a k g 1"), "t|--|a|k|g|1",
	    "one-shot: nothing after --");
	is_str(oneshot("t --json"), "t|--json", "one-shot: no command");
	{
		static const char *const own[] = { "db", "init", NULL };
		static const char *const *const lists[] = { own, NULL };
		char *w[] = { "t", "--init", "a", "--json", "u", "4", NULL };
		char **v;
		int n;

		v = play_command_line_lists(aliases, "o:", lists, 6, w, &n);
		ok(n == 6 && strcmp(v[4], "undo") == 0 && strcmp(v[2], "a") == 0
		    && v[6] == NULL, "one-shot by lists: a value, then the alias");
		free(v);
	}
	is_str(expand("au x"), "au|x", "an alias only whole");
	return tap_done();
}
