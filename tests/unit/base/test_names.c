/*
 * test_names.c - the one rule by which typed names are matched (issue
 * #23): exact, case, a unique prefix of the name or a word; refusals
 * that list the candidates or suggest the closest names.
 */
#include "tap.h"

#include <stdio.h>
#include <string.h>

#include "base/names.h"

/*
 * Matches typed against the names of list (NULL-ended); returns what
 * names_pick found, or its refusal by names_why with lead "no character
 * named", in a static buffer.
 */
static const char *
match(const char *typed, const char *const *list)
{
	static char buf[512];
	struct names m;
	const char *found;

	names_init(&m, typed);
	for (size_t i = 0; list[i] != NULL; i++)
		names_add(&m, list[i]);
	if (names_pick(&m, &found) == NAMES_FOUND)
		snprintf(buf, sizeof buf, "=%s", found);
	else
		names_why(&m, "no character named", buf, sizeof buf);
	names_release(&m);
	return buf;
}

int
main(void)
{
	static const char *const table[] = { "Fred", "John", "Joanna",
	    "Grim, the Unbowed", "Mary Jo", "fred", "Éowyn", "O'Brien",
	    "Al", "Alice", NULL };
	static const char *const cmds[] = { "list", "show", "add", "set",
	    "rm", "rename", "import", "export", NULL };
	static const char *const fighters[] = { "Fred", "John", "Mary",
	    NULL };
	char why[300];
	struct names m;
	const char *found;

	/* Step 1: the exact name wins over a case-folded twin. */
	is_str(match("Fred", table), "=Fred", "exact Fred");
	is_str(match("fred", table), "=fred", "exact fred, not Fred");
	/* Step 2: but for case; two such names are ambiguous. */
	is_str(match("JOHN", table), "=John", "JOHN is John");
	is_str(match("FRED", table), "'FRED' could be 'Fred' or 'fred'",
	    "FRED: Fred or fred");
	is_str(match("al", table), "=Al", "al is Al, though Alice begins so");
	/* Step 3: a unique prefix of the name or of one of its words. */
	is_str(match("grim", table), "=Grim, the Unbowed", "grim");
	is_str(match("Unb", table), "=Grim, the Unbowed", "a later word");
	is_str(match("joa", table), "=Joanna", "joa");
	is_str(match("brien", table), "=O'Brien", "after an apostrophe");
	is_str(match("éow", table), "=Éowyn", "Latin-1 letters fold");
	is_str(match("ÉOWYN", table), "=Éowyn", "upper-case Latin-1");
	is_str(match("Jo", table),
	    "'Jo' could be 'Joanna', 'John' or 'Mary Jo'",
	    "Jo: three candidates, a word's among them");
	is_str(match("the", table), "=Grim, the Unbowed", "a middle word");
	is_str(match("Grim, t", table), "=Grim, the Unbowed",
	    "a prefix with punctuation in it");
	is_str(match("ohn", table), "no character named 'ohn'; did you "
	    "mean 'John'?", "the middle of a word is no prefix");
	/* Unknown: the closest names, by edit distance. */
	is_str(match("Jon", table), "no character named 'Jon'; did you mean "
	    "'John'?", "Jon: John");
	is_str(match("Jhon", table), "no character named 'Jhon'; did you "
	    "mean 'John'?", "a swap of two letters is one slip");
	is_str(match("Unbowd", table), "no character named 'Unbowd'; did "
	    "you mean 'Grim, the Unbowed'?", "a slip in a word of a long name");
	is_str(match("Zebediah", table), "no character named 'Zebediah'",
	    "nothing near: no suggestion");
	is_str(match("", table), "no character named ''", "empty");
	is_str(match("Fred", (const char *const[]){ NULL }),
	    "no character named 'Fred'", "no names at all");

	is_int(names_distance("kitten", "sitting", 9), 3, "kitten/sitting");
	is_int(names_distance("lsit", "list", 9), 1, "a swap");
	is_int(names_distance("abc", "ABC", 9), 0, "case folded");
	is_int(names_distance("a", "abcdef", 2), 3, "past the limit");
	is_int(names_distance("", "", 0), 0, "two empty");

	/* What completion offers: rule 3's test, any case, any word. */
	is_int(names_begins("gr", "Grim, the Unbowed"), 1, "begins the name");
	is_int(names_begins("UNB", "Grim, the Unbowed"), 1, "begins a word");
	is_int(names_begins("éo", "Éowyn"), 1, "Latin-1 folded");
	is_int(names_begins("rim", "Grim, the Unbowed"), 0, "inside a word");
	is_int(names_begins("", "Fred"), 1, "nothing typed: every name");
	is_int(names_begins(", t", "Grim, the Unbowed"), 0,
	    "punctuation begins the whole name only");
	is_int(names_begins("Grim, t", "Grim, the Unbowed"), 1,
	    "the name's start, punctuation and all");

	/* Commands: only exact; a prefix or a slip is suggested. */
	is_int(names_lookup("list", cmds, 8, 1, "command", why, sizeof why),
	    0, "list");
	is_int(names_lookup("lsit", cmds, 8, 1, "command", why, sizeof why),
	    -1, "lsit refused");
	is_str(why, "unknown command 'lsit'; did you mean 'list'?", "lsit");
	is_int(names_lookup("re", cmds, 8, 1, "command", why, sizeof why),
	    -1, "re refused");
	is_str(why, "unknown command 're'; did you mean 'rename'?",
	    "a command's prefix is suggested");
	is_int(names_lookup("ex", cmds, 8, 1, "command", why, sizeof why),
	    -1, "ex refused");
	is_str(why, "unknown command 'ex'; did you mean 'export'?", "ex");
	is_int(names_lookup("frobnicate", cmds, 8, 1, "command", why,
	    sizeof why), -1, "frobnicate");
	is_str(why, "unknown command 'frobnicate'", "no suggestion");
	/* Keywords where a prefix is enough. */
	is_int(names_lookup("exp", cmds, 8, 0, "command", why, sizeof why),
	    7, "exp is export when prefixes count");

	/* In a combat: the fighters are listed. */
	names_init(&m, "Jon");
	for (size_t i = 0; fighters[i] != NULL; i++)
		names_add(&m, fighters[i]);
	is_int(names_pick(&m, &found), NAMES_UNKNOWN, "Jon is unknown");
	names_why_in(&m, "is not in this combat", fighters, 3, "in it", why,
	    sizeof why);
	is_str(why, "'Jon' is not in this combat; did you mean 'John'? (in "
	    "it: 'Fred', 'John' and 'Mary')", "the fighters listed");
	names_release(&m);
	names_init(&m, "Zed");
	names_add(&m, "Fred");
	names_why_in(&m, "is not in this combat", fighters, 1, "in it", why,
	    sizeof why);
	is_str(why, "'Zed' is not in this combat (in it: 'Fred')",
	    "one fighter, no suggestion");
	names_release(&m);
	/* The same in one call: an index, or the refusal with everyone. */
	is_int(names_lookup_in("mar", fighters, 3, "is not in this combat",
	    "in it", why, sizeof why), 2, "mar: the third fighter");
	is_int(names_lookup_in("Jon", fighters, 3, "is not in this combat",
	    "in it", why, sizeof why), -1, "Jon: none");
	is_str(why, "'Jon' is not in this combat; did you mean 'John'? (in "
	    "it: 'Fred', 'John' and 'Mary')", "  the fighters listed");
	is_int(names_lookup_in("", fighters, 3, "is not in this combat",
	    "in it", why, sizeof why), -1, "nothing typed: none");

	/* Many candidates: eight are listed, the rest counted. */
	names_init(&m, "c");
	for (int i = 0; i < 20; i++) {
		char name[16];

		snprintf(name, sizeof name, "C%02d", i);
		names_add(&m, name);
	}
	is_int(names_pick(&m, &found), NAMES_AMBIGUOUS, "c: 20 candidates");
	names_why(&m, "no character named", why, sizeof why);
	is_str(why, "'c' could be 'C00', 'C01', 'C02', 'C03', 'C04', 'C05', "
	    "'C06', 'C07' (and 12 more)", "eight listed, twelve counted");
	names_release(&m);

	/* A control character in a name is shown escaped. */
	is_str(match("Zq", (const char *const[]){ "Zq\x1b[2J", "Zqx", NULL }),
	    "'Zq' could be 'Zq\\x1b[2J' or 'Zqx'", "escaped in the message");
	return tap_done();
}
