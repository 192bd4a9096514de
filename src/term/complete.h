/*
 * complete.h - shell completion (issue #23): the hidden --complete mode
 * every tool answers, which completions/refkit.bash and
 * completions/_refkit call.
 *
 *   TOOL --complete CWORD -- WORD0 WORD1 ... WORDn
 *
 * WORD0 is the tool's name and the others the words of the command line
 * as the shell will pass them (quotes removed); CWORD, from 0, is the one
 * being completed, what is typed of it so far (n + 1: a word after
 * the last, empty so far).  The answer, on standard output, is the candidates that begin
 * with it, one a line, sorted, each as the whole word should read (the
 * script quotes it): the tool's commands and sub-commands, its long
 * options, the fixed values of an option, and names from the database
 * where a name is expected, which match as names.h's rule 3 does (a
 * prefix of the name or of one of its words, but for case).  A candidate
 * ending in '=' wants its value typed straight after it.  Where the word
 * is a file name the answer is the one line "\tfiles" (a tab: no
 * candidate holds a control character), and the script offers the
 * shell's own file names.
 *
 * The database is the one --db names on the line (before or after the
 * word), else the usual one (db.h), and --combat, --duel or --game on the
 * line are honoured too.  It is only read: never created, migrated or
 * written, and no lock that writers take is taken; a database that is
 * missing, foreign, of another version or out of reach gives no names.
 * Nothing is ever printed on standard error, and the exit status is 0
 * (2 for a request that is not of the form above).
 */
#ifndef REFKIT_COMPLETE_H
#define REFKIT_COMPLETE_H

#include <stddef.h>
#include <stdint.h>

struct db;
struct journal_kind;
struct option;

/* A request being answered: private to complete.c. */
struct complete;

/*
 * A command of a tool and the words after it, args: the kind of each
 * word in turn, separated by spaces.  A kind is "-" (anything: nothing
 * offered), "file", fixed words joined by '|' ("mine|theirs"), or a
 * kind of name that the tool's names() lists ("character"); a name kind
 * ending in '=' offers each name with '=' after it ("fighter=", for
 * NAME=CARDS).  A last kind ending in "..." stands for every word from
 * there on; a last word "..." repeats all the kinds before it ("fighter
 * fighter - ..." for A B FEET [A B FEET...]).  A command with sub, its
 * sub-commands, takes them as its first word.  A table ends with a NULL
 * name; its sub, if any, is a table that goes on from there (a game's
 * commands, then complete_log_cmds).
 */
struct complete_cmd {
	const char			*name;
	const char			*args;
	const struct complete_cmd	*sub;
};

/*
 * The kind of an option's value (option without its "--").  --db, which
 * every tool takes, names a file without being listed.
 */
struct complete_value {
	const char	*option;
	const char	*kind;
};

/*
 * What every tool of a log (crs-combat, fb-duel, bg-board) takes with no
 * word after it: list, log, undo, replay, play and watch.
 */
extern const struct complete_cmd complete_log_cmds[];
/* The options of the printed sheets: output, paper and per-page. */
extern const struct complete_value complete_sheet_values[];

/*
 * A kind of name that a store lists: every one in the database (each), or
 * those in the log named on the line, else its GM's (in_log, over the
 * tool's log, complete_log).  Each calls fn(arg, name) for every name.
 */
struct complete_list {
	const char	*kind;
	void		(*each)(struct db *db, void (*fn)(void *, const char *),
			    void *arg);
	void		(*in_log)(struct db *db, int64_t id,
			    void (*fn)(void *, const char *), void *arg);
};

/*
 * Which commands take a command's option (option without "--"; cmds,
 * the commands' names separated by blanks).  An option a tool's table
 * does not list goes with every command (--db, --json).  The table a
 * tool's parser refuses an option by is the one its completion offers
 * them by (issue #39): after "attack Fred --", attack's options only.
 */
struct complete_takes {
	const char	*option;
	const char	*cmds;
};

/*
 * Whether command cmd takes option (without "--") by takes, a table
 * ended by a NULL option: 1 when takes lists the option with cmd or
 * does not list it, else 0.  *cmds, when not NULL, is set to the
 * commands that take it (NULL for every command).
 */
int complete_takes(const struct complete_takes *takes, const char *option,
    const char *cmd, const char **cmds);

/*
 * The first of the n options in seen (names without "--", in the order
 * they were typed) that command cmd does not take by takes, or NULL when
 * it takes them all: what a tool that parses its own options refuses an
 * option by.  *cmds, when not NULL, is set as complete_takes sets it for
 * the one returned (NULL when none is).  The pointer returned is seen's.
 */
const char *complete_misplaced(const struct complete_takes *takes,
    const char *cmd, const char *const *seen, size_t n, const char **cmds);

/*
 * A tool's grammar.  Its options come from its getopt_long table, given
 * to complete_answer, or for a tool that parses its own, from opts (the
 * options that take a value) and flags (those that take none), each a
 * NULL-ended list of NULL-ended lists of names without "--".
 */
struct complete_tool {
	const struct complete_cmd	*cmds;		/* NULL name last */
	/* The words when the first is none of cmds (d6-roll's NAME TRAIT). */
	const char			*bare;
	const char *const *const	*opts;
	const char *const *const	*flags;
	const struct complete_value	*values;	/* NULL option last */
	/* Which commands take which options; NULL: every one takes all. */
	const struct complete_takes	*takes;		/* NULL option last */
	/* A table of values it shares (complete_sheet_values), or NULL. */
	const struct complete_value	*shared_values;
	/* The kind of log it keeps, for lists' in_log; or NULL. */
	const struct journal_kind	*log;
	const struct complete_list	*lists;		/* NULL kind last */
	/*
	 * Offers, through complete_name, the names of a kind that lists does
	 * not have: from the database (complete_db), or a list the tool knows.
	 */
	void	(*names)(struct complete *c, const char *kind);
};

/*
 * When argv[1] is "--complete", answers the request in argv for tool t,
 * whose getopt_long table is longopts (NULL for a tool without one), and
 * exits; returns otherwise.
 */
void complete_answer(int argc, char **argv, const struct complete_tool *t,
    const struct option *longopts);

/* The value of option name (without "--") on the line, or NULL. */
const char *complete_option(struct complete *c, const char *name);

/*
 * Positional word i of the line (the command is 0), from the end when
 * negative (-1: the one before the word being completed); or NULL.
 */
const char *complete_word(struct complete *c, int i);

/*
 * The database on the line, opened for reading alone when first asked
 * for (db_open_existing: none if it is not there as it should be), or
 * NULL.  complete_answer closes it.
 */
struct db *complete_db(struct complete *c);

/*
 * The log (a combat, a duel, a game) whose names are offered: the one
 * k->option names on the line (its key as users type it; 0 if it names
 * none), else the one its GM (--gm on the line, else REFKIT_GM, else the
 * login name) has under way or acted in last (journal_pick).  0 without
 * a database.
 */
int64_t complete_log(struct complete *c, const struct journal_kind *k);

/*
 * Offers name (copied) if it begins with the word being completed, as
 * names.h's rule 3 has it; arg is the struct complete, so that a store's
 * iterator of names can call it.
 */
void complete_name(void *arg, const char *name);

#endif
