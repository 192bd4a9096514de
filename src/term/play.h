/*
 * play.h - a tool's commands typed one after another at a prompt (issue
 * #23): `crs-combat play`, `fb-duel play`, `bg-board play`.
 *
 * Each command line is run exactly as the one-shot command would run it:
 * the tool's own entry point, so that it is the same operation, the same
 * transaction and the same ledger event.  The commands run one after
 * another in a worker process beside the prompt, which keeps the
 * database's connection between them (issue #40: on a server, a session
 * connects once); a refusal exits as the one-shot command does, ending
 * that command and the worker, and the next command starts another.  On a terminal the
 * prompt has line editing, history and tab completion (libedit), and the
 * board is shown again after each command; without one, commands are
 * read one a line and only their results are printed, so that a combat
 * can be scripted from a file.
 */
#ifndef REFKIT_PLAY_H
#define REFKIT_PLAY_H

#include <stddef.h>

struct journal_kind;
struct option;

/*
 * A short form of a command: alias expands to command, whose first npos
 * words are kept as they are; the words after them, until the first that
 * starts with '-', stand for the options of opts in order ("a fred john
 * 8 6" is "attack fred john --card 8 --vs-card 6"); any further words are
 * passed on as typed.  With whole, the command's own name takes the same
 * words ("attack fred john 8 6"): only for a command that takes no more
 * than npos words of its own.  example is a line a GM can type, which
 * help shows beside the short form (issue #39).
 */
#define PLAY_ALIAS_OPTS	4
struct play_alias {
	const char	*alias;
	const char	*command;
	int		 npos;
	const char	*opts[PLAY_ALIAS_OPTS];
	int		 whole;
	const char	*example;
};

struct play_tool {
	const char	*name;		/* the tool, as its messages name it */
	/*
	 * Runs one command line of the tool, as main() would; its status.
	 * Tab asks it, in a process of its own, the candidates for the word
	 * under way as a shell's completion does (TOOL --complete,
	 * term/complete.h).
	 */
	int		(*run)(int argc, char **argv);
	const char *const *lead;	/* words put before every command */
	size_t		 nlead;		/* ("--db", PATH, "--combat", KEY) */
	const char	*leadv[8];	/* play_tool_lead's words */
	const struct play_alias *aliases;	/* ended by a NULL alias */
	const char *const *board;	/* the command shown after each */
	/*
	 * A session keeps to one log (issue #37): the one named when it
	 * began, else the one journal_pin finds in db for gm among the
	 * logs of kind (in a process of its own: the log this GM would act
	 * on now), asked until there is one and again after each start.
	 * Every command but start gets option and the key.
	 */
	const char	*log_option;	/* "--combat" */
	const char	*start;		/* "start": begins a new log */
	const struct journal_kind *kind;	/* NULL: no log is found */
	const char	*db, *gm;	/* journal_pin's path and GM */
	const char	*pinned;	/* the log named, or NULL */
};

/*
 * What a game's play session is, a table each tool fills (issue #38):
 * the tool, its entry point, its short forms, the command shown after
 * each, and the kind of log the session keeps to, named on a command
 * line by log_option and begun by the command start.
 */
struct play_game {
	const char	*name;
	int		(*run)(int argc, char **argv);
	const struct play_alias *aliases;	/* ended by a NULL alias */
	const char *const *board;
	const char	*log_option;
	const char	*start;
	const struct journal_kind *kind;
};

/*
 * Sets t up for the tool name whose command lines run runs, with the
 * short forms aliases and board the command shown after each.
 */
void play_tool_init(struct play_tool *t, const char *name,
    int (*run)(int, char **), const struct play_alias *aliases,
    const char *const *board);

/*
 * Puts option and value (not copied) before every command, when value
 * is not NULL: the --db, the log and the GM given to play.
 */
void play_tool_lead(struct play_tool *t, const char *option,
    const char *value);

/*
 * Sets t up for game g's session: every command gets --db db and --gm
 * gm (each when not NULL), and the session keeps to the log named, else
 * to the one journal_pin finds for gm.  Nothing is copied: g, db, gm and
 * named must outlive t.  Then play_run(t).
 */
void play_tool_game(struct play_tool *t, const struct play_game *g,
    const char *db, const char *gm, const char *named);

/*
 * Reads commands from standard input until its end, "quit" or "exit",
 * and runs each.  Without a terminal, returns 0 when every command
 * succeeded, else 1; on a terminal, where each refusal was seen, 0.
 */
int play_run(const struct play_tool *t);

/*
 * Expands an alias in argv (argc words, argv[argc] NULL) into a new
 * vector the caller frees (the words are argv's, and the alias table's
 * strings); *nargc is set to its length.  A first word that is no alias
 * (nor a whole alias's command) leaves the words as they are.
 */
char **play_expand(const struct play_alias *aliases, int argc,
    char **argv, int *nargc);

/*
 * A tool's own command line (argv[0] its name) with the short forms of
 * aliases expanded as play expands them, so that the one-shot command
 * takes what play takes: the command is the first word that is neither
 * an option (of shortopts and longopts, as getopt_long reads them) nor
 * an option's value.  A new vector, NULL-ended, that the caller frees
 * (its words are argv's and the table's); *nargc its length.
 */
char **play_command_line(const struct play_alias *aliases,
    const char *shortopts, const struct option *longopts, int argc,
    char **argv, int *nargc);

/*
 * The same for a tool that parses its own options, whose long options
 * that take a value are value_opts (a NULL-ended list of NULL-ended
 * lists of names without "--", as complete_tool's opts).
 */
char **play_command_line_lists(const struct play_alias *aliases,
    const char *shortopts, const char *const *const *value_opts, int argc,
    char **argv, int *nargc);

#endif
