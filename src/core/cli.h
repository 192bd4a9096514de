/*
 * cli.h - what every tool's main() shares: the usage-error exit, the
 * output format options, and the stdout check.
 */
#ifndef REFKIT_CLI_H
#define REFKIT_CLI_H

#include "paper/page.h"
#include <stdint.h>
#include <stdio.h>

#include "base/out.h"
#include "base/strbuf.h"

/*
 * Prints "PROG: MESSAGE" and "Try 'PROG --help' for more information."
 * to stderr and exits 2; inside play (cli_play_hint), the hint is play's
 * own help instead.
 */
void cli_usage_error(const char *fmt, ...)
    __attribute__((noreturn, format(printf, 1, 2)));

/*
 * The command line being run is one typed at play's prompt (issue #39),
 * whose first word is cmd: a usage error points to "help CMD" there,
 * or to "help" when cmd is no command of the tool, not to --help, whose
 * usage is the command line's.  cmd is not copied.
 */
void cli_play_hint(const char *cmd);

/*
 * Handles an option every tool shares: -j/--json, -c/--csv, -h/--help
 * (prints usage, exits 0), -V/--version (exits 0), and getopt's ':' (a
 * missing value) and '?' (unknown, or a prefix of several), which exit 2
 * suggesting the nearest of longopts (getopt_long's table).  Returns 1
 * if ch was one of them, else 0.  Call with opterr = 0 and a leading ':'
 * in the short options.
 */
struct option;
int cli_common_option(int ch, char **argv, const char *usage,
    const struct option *longopts, enum out_format *fmt);

/*
 * A tool's options as a table (issue #38): getopt_long's short options
 * (beginning with ':') and long ones, the usage --help prints, and set,
 * which takes one option ch (its value arg) into the tool's o and
 * returns 1, or returns 0 for one it leaves to cli_common_option.
 */
struct cli_opts {
	const char		*shortopts;
	const struct option	*longopts;
	const char		*usage;
	int			(*set)(void *o, int ch, const char *arg);
};

/*
 * Reads the options of argv through t into o (and --json or --csv into
 * fmt); an option neither t->set nor cli_common_option takes is a usage
 * error.  Options may come between the words; "--" ends them.  Returns
 * the index in argv of the first word that is no option (optind).
 */
int cli_options(const struct cli_opts *t, int argc, char **argv, void *o,
    enum out_format *fmt);

/*
 * A usage error for a word that names none of the n words at known (a
 * command, a sub-command, an option): "unknown WHAT 'lsit'; did you mean
 * 'list'?" (base/names.h: the words it begins or is a slip away from).
 */
void cli_unknown(const char *what, const char *typed,
    const char *const *known, size_t n) __attribute__((noreturn));

/*
 * The command a tool's command table names cmd (issue #38: the tools
 * dispatch so, as git's builtins do): the table holds n entries of size
 * bytes, each beginning with its name (a const char *); a NULL name ends
 * it early.  Returns the entry's index; a cmd that names none is a usage
 * error suggesting the nearest of the names, in the table's order
 * (cli_unknown).
 */
size_t cli_command(const char *cmd, const void *table, size_t size,
    size_t n);

/*
 * The same for an unknown long option (typed with its "--" and perhaps
 * "=VALUE"), suggesting the nearest of the n options at known, given
 * without their "--".
 */
void cli_unknown_option(const char *typed, const char *const *known,
    size_t n) __attribute__((noreturn));

/*
 * A whole-number option or argument from min to max; a usage error
 * naming what ("--lb", "EVENT") otherwise.
 */
long cli_int_arg(const char *what, const char *s, long min, long max);

/* --paper's value, enum page_paper; a usage error if it is none. */
int cli_paper_arg(const char *s);

/*
 * A printed sheet's code as typed (paper/page.h), in its printed form; a
 * usage error if it is not one.
 */
void cli_sheet_code_arg(const char *s, char code[PAGE_CODE_LEN + 1]);

/*
 * Checks that s has the form of a record's key as users type it (db.h:
 * "3", or another station's "89abcdef-3"), and returns it; otherwise a
 * usage error naming what.  db_key_parse then gives the key.
 */
const char *cli_key_arg(const char *what, const char *s);

/*
 * Opens the database at path (db_open) and keeps its station's key base,
 * so that cli_key and cli_key_json show a key as users see it (db.h:
 * "3", another station's "89abcdef-3"; in JSON a number or a string)
 * even after the database is closed.  From a small ring of buffers, so
 * that one printf can show several.
 */
struct db *cli_db_open(const char *path);
const char *cli_key(int64_t key);
const char *cli_key_json(int64_t key);

struct sheetrun_ops;

/*
 * verify-sheet CODE, the argc words at argv after the command: the code
 * of a printed sheet checked against every sheet ops prints from the
 * database at path (sheetrun_verify).  form is the command as its usage
 * error names it ("char verify-sheet").  Returns 0; a mismatch exits 1.
 */
int cli_verify_sheet(const char *path, const struct sheetrun_ops *ops,
    const char *form, int argc, char **argv);

/*
 * Who the GM is (issue #37): given (--gm) if not NULL, else $REFKIT_GM,
 * else the login name of the user the process runs as, else "gm".  A
 * name that is no single line of at most 200 bytes is a usage error
 * naming where it came from.  The string is static or the environment's.
 */
const char *cli_gm(const char *given);

/* A --seed value (0 to 2^64-1); a usage error otherwise. */
uint64_t cli_seed_arg(const char *s);

/*
 * A file a command writes whole or not at all, as refkit changes export
 * does: cli_file_open creates path.tmp-PID (*tmp, owned until
 * cli_file_done), and cli_file_done closes it and puts it in place of
 * path.  Either exits 1 on a failure ("cannot write 'path': why"), the
 * temporary file removed.
 */
FILE *cli_file_open(const char *path, char **tmp);
void cli_file_done(FILE *fp, const char *path, char *tmp);

/*
 * The last line of a tool's replay, to fp: "replayed 3 events of 1 duel:
 * 0 mismatches", what being the kind of log (in the singular).  Returns
 * the replay's exit status: 1 if any event did not match, else 0.
 */
int cli_replayed(FILE *fp, int events, size_t logs, const char *what,
    int bad);

/*
 * The width a table on stdout must fit: the terminal's (TIOCGWINSZ) if
 * stdout is one, else $COLUMNS if it is a number, else 0 (no limit).
 */
int cli_columns(void);

/* A bar of up to 40 '#' on stdout for p of the largest pmax. */
void cli_bar(long double p, long double pmax);

/* Writes s as a JSON string, or null when s is NULL. */
void cli_json_or_null(FILE *fp, const char *s);

/*
 * The JSON object json (which it frees) with the member "key": text
 * added at its end; the caller owns the result.
 */
char *cli_json_add_text(char *json, const char *key, const char *text);

/*
 * A JSON object written in memory, as an event's detail is: its members
 * before "text" written to b's stream (strbuf_stream), cli_json_end adds
 * "text": text (null if NULL), closes the object and returns it, which
 * the caller owns.
 */
char *cli_json_end(struct strbuf *b, const char *text);

/*
 * Prints the "text" member of a stored event's detail JSON to stdout,
 * its escapes undone enough for a log line; nothing if it has none.
 */
void cli_put_detail_text(const char *detail);
/* The same to fp. */
void cli_fput_detail_text(const char *detail, FILE *fp);

/*
 * Sets up a tool: the stdout check at exit, and the check of every
 * argument (valid UTF-8, no control characters but newlines and tabs in
 * a notes value), which exits 2 naming the first bad one; but not those
 * of a completion request (term/complete.h), which its answer reads.
 */
void cli_init(int argc, char **argv);

#endif
