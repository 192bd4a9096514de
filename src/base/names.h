/*
 * names.h - a name as a GM types it, matched against the names it may
 * mean (issue #23).  One rule for every tool and every kind of record (a
 * character, an item, a power, a fighter in a combat, a duelist, a team,
 * a figure, a D6 character), and for the commands and options of a tool:
 *
 *   1. a name equal to what was typed wins;
 *   2. else a name equal to it but for case;
 *   3. else the one name that it begins, or one of whose words it begins,
 *      but for case ("grim" and "unb" find "Grim, the Unbowed");
 *   4. else nothing: several names at one step are ambiguous (each is
 *      listed), and no name at all is unknown (the closest names are
 *      suggested, by edit distance).
 *
 * Case is folded for ASCII and for the Latin-1 letters (À-Þ, but for ×);
 * other letters must be typed in their case.  A word is a run of
 * letters, digits and non-ASCII characters: spaces, commas, hyphens,
 * apostrophes and other ASCII punctuation separate words.
 *
 * The names are fed one at a time (names_add), so that a roster of a
 * million names is matched in bounded memory; the module does no I/O.
 */
#ifndef REFKIT_NAMES_H
#define REFKIT_NAMES_H

#include <stddef.h>

/* How many names a refusal lists at most (the others are counted). */
#define NAMES_LIST_MAX	8

enum names_result {
	NAMES_FOUND = 0,	/* one name: names_found */
	NAMES_AMBIGUOUS,	/* several at the best step */
	NAMES_UNKNOWN		/* none */
};

/* A match in progress: fields private to names.c. */
struct names {
	char	*typed;		/* owned copy */
	char	*fold;		/* typed, case folded */
	size_t	 len;
	char	*exact;		/* step 1's name, owned */
	char	*best[NAMES_LIST_MAX];	/* the best step's names, owned */
	size_t	 nbest;		/* how many names reached that step */
	int	 step;		/* 2 or 3, the best step so far; 4 none */
	char	*near[NAMES_LIST_MAX];	/* the closest names, owned */
	size_t	 nnear;
	int	 neardist;	/* their distance; > names_maxdist: none */
	int	 maxdist;
};

/* Starts matching typed (copied).  Release with names_release. */
void names_init(struct names *m, const char *typed);
void names_release(struct names *m);

/* Offers one name (copied if kept); names may come in any order. */
void names_add(struct names *m, const char *name);

/*
 * The outcome once every name is offered.  With NAMES_FOUND, *found is
 * the name meant, owned by m (valid until names_release).
 */
enum names_result names_pick(const struct names *m, const char **found);

/*
 * Writes the refusal of an outcome other than NAMES_FOUND to buf:
 *   'jo' could be 'John' or 'Joanna'
 *   'jo' could be 'A', 'B', ... or 'H' (and 3 more)
 *   LEAD 'Jon'; did you mean 'John'?
 *   LEAD 'Xyzzy'
 * lead says what is missing ("no character named").  Names are quoted
 * and escaped as util_q does.
 */
void names_why(const struct names *m, const char *lead, char *buf,
    size_t bufsz);

/*
 * The same for a name looked for among the few names of one place (the
 * fighters of a combat), which an unknown name's refusal lists:
 *   'Jon' is not in this combat; did you mean 'John'? (in it: 'Fred',
 *   'John')
 * where what is "is not in this combat" and in is "in it".
 */
void names_why_in(const struct names *m, const char *what,
    const char *const *all, size_t nall, const char *in, char *buf,
    size_t bufsz);

/*
 * Resolves typed among the n names at list (for a tool's commands, a
 * sub-command, a keyword): the index of the name meant by the steps
 * above, or -1 with the refusal in why, of the form
 *   "unknown WHAT 'lsit'; did you mean 'list'?"
 * With exact_only set, only step 1 finds a name (a command is never
 * taken from a prefix), and the others only suggest.
 */
int names_lookup(const char *typed, const char *const *list, size_t n,
    int exact_only, const char *what, char *why, size_t whysz);

/*
 * Whether typed begins name or one of its words, but for case: the test
 * of step 3, which the names of steps 1 and 2 pass too.  An empty typed
 * begins every name.  For shell completion (term/complete.h), which
 * offers every name it begins.
 */
int names_begins(const char *typed, const char *name);

/*
 * Resolves typed among the n names of one place at list (the duelists of
 * a duel, a game's teams, a team's figures) by the steps above: the
 * index of the name meant, or -1 with names_why_in's refusal in why,
 * which lists them all:
 *   "'Zed' WHAT (IN: 'Ann' and 'Bob')"
 */
int names_lookup_in(const char *typed, const char *const *list, size_t n,
    const char *what, const char *in, char *why, size_t whysz);

/*
 * The edit distance (insertions, deletions, substitutions and swaps of
 * two neighbours) between a and b, case folded, or limit + 1 once it is
 * known to exceed limit.
 */
int names_distance(const char *a, const char *b, int limit);

#endif
