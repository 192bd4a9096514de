/*
 * test_cli.c - what the tools' main()s share: whole-number and seed
 * arguments, the shared options, the usage error, the check of every
 * argument, bars, JSON nulls and a stored event's text.  What exits or
 * prints to stdout runs in a child, whose stdout, stderr and exit status
 * are compared whole.
 */
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

#include "core/cli.h"
#include "core/journal.h"
#include "base/util.h"
#include "db/db.h"
#include "fb/ledger.h"

#define PROG	"unit-core-cli"
#define TRY	"Try '" PROG " --help' for more information.\n"

/* What a child printed and how it ended. */
struct run {
	char	out[512], err[512];
	int	status;		/* the exit status, or -1 if killed */
};

static void
drain(int fd, char *buf, size_t sz)
{
	size_t n = 0;
	ssize_t r;

	while (n + 1 < sz && (r = read(fd, buf + n, sz - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
}

/*
 * Runs fn(arg) in a child that exits 0 if fn returns; fills rn.  The
 * outputs are small, so the pipes are read after the child ends.
 */
static void
run(void (*fn)(const void *), const void *arg, struct run *rn)
{
	int po[2], pe[2], st;
	pid_t pid;

	fflush(stdout);
	if (pipe(po) != 0 || pipe(pe) != 0)
		abort();
	if ((pid = fork()) < 0)
		abort();
	if (pid == 0) {
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(pe[0]);
		fn(arg);
		exit(0);
	}
	close(po[1]);
	close(pe[1]);
	if (waitpid(pid, &st, 0) != pid)
		abort();
	drain(po[0], rn->out, sizeof rn->out);
	drain(pe[0], rn->err, sizeof rn->err);
	close(po[0]);
	close(pe[0]);
	rn->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* An int argument in a child, printing what cli_int_arg returned. */
struct int_case {
	const char *what, *s;
	long min, max;
};

static void
int_child(const void *arg)
{
	const struct int_case *c = arg;

	printf("%ld\n", cli_int_arg(c->what, c->s, c->min, c->max));
}

static void
int_refused(const char *what, const char *s, long min, long max,
    const char *want)
{
	struct int_case c = { what, s, min, max };
	struct run rn;

	run(int_child, &c, &rn);
	is_int(rn.status, 2, "%s '%s' is a usage error", what, s);
	is_str(rn.out, "", "  nothing on stdout");
	is_str(rn.err, want, "  the message and the hint");
}

static void
test_int_arg(void)
{
	is_int(cli_int_arg("--n", "7", 1, 10), 7, "7 in 1..10");
	is_int(cli_int_arg("--n", "1", 1, 10), 1, "the least");
	is_int(cli_int_arg("--n", "10", 1, 10), 10, "the most");
	is_int(cli_int_arg("--lb", "-5", -10, 10), -5, "a negative where "
	    "allowed");
	is_int(cli_int_arg("--lb", "0", -10, 10), 0, "0");
	is_int(cli_int_arg("--n", "9223372036854775807", 0, LONG_MAX),
	    LONG_MAX, "the largest long");

	int_refused("--n", "11", 1, 10, PROG ": --n must be a whole number "
	    "from 1 to 10, got '11'\n" TRY);
	int_refused("--n", "0", 1, 10, PROG ": --n must be a whole number "
	    "from 1 to 10, got '0'\n" TRY);
	int_refused("EVENT", "-3", 0, 1000, PROG ": EVENT must be a whole "
	    "number from 0 to 1000, got '-3'\n" TRY);
	int_refused("--lb", "-0", -10, 10, PROG ": --lb must be a whole "
	    "number from -10 to 10, got '-0'\n" TRY);
	int_refused("--n", "+5", 1, 10, PROG ": --n must be a whole number "
	    "from 1 to 10, got '+5'\n" TRY);
	int_refused("--n", "05", 1, 10, PROG ": --n must be a whole number "
	    "from 1 to 10, got '05'\n" TRY);
	int_refused("--n", " 5", 1, 10, PROG ": --n must be a whole number "
	    "from 1 to 10, got ' 5'\n" TRY);
	int_refused("--n", "5.0", 1, 10, PROG ": --n must be a whole number "
	    "from 1 to 10, got '5.0'\n" TRY);
	int_refused("--n", "", 1, 10, PROG ": --n must be a whole number "
	    "from 1 to 10, got ''\n" TRY);
	int_refused("--n", "9223372036854775808", 0, LONG_MAX, PROG ": --n "
	    "must be a whole number from 0 to 9223372036854775807, got "
	    "'9223372036854775808'\n" TRY);
}

static void
seed_child(const void *arg)
{
	printf("%llu\n", (unsigned long long)cli_seed_arg(arg));
}

static void
seed_refused(const char *s)
{
	struct run rn;
	char want[256];

	run(seed_child, s, &rn);
	snprintf(want, sizeof want, PROG ": --seed must be a whole number "
	    "from 0 to 18446744073709551615, got '%s'\n" TRY, s);
	is_int(rn.status, 2, "--seed '%s' is a usage error", s);
	is_str(rn.err, want, "  saying so");
}

static void
test_seed_arg(void)
{
	ok(cli_seed_arg("0") == 0, "seed 0");
	ok(cli_seed_arg("42") == 42, "seed 42");
	ok(cli_seed_arg("18446744073709551615") == UINT64_MAX, "the largest "
	    "seed");
	seed_refused("18446744073709551616");
	seed_refused("-1");
	seed_refused("007");
	seed_refused("0x10");
	seed_refused("");
}

/* cli_common_option in a child, with argv as getopt left it. */
struct opt_case {
	int ch;
	const char *arg;	/* argv[optind - 1] */
};

static void
opt_child(const void *arg)
{
	const struct opt_case *c = arg;
	char *argv[] = { PROG, (char *)c->arg, NULL };
	enum out_format fmt = OUT_TABLE;
	int r;

	optind = 2;
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "seed", required_argument, NULL, 's' },
		{ "surprise", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 }
	};

	r = cli_common_option(c->ch, argv, "usage: " PROG " [-j]\n",
	    longopts, &fmt);
	printf("%d %d\n", r, (int)fmt);
}

static void
test_common_option(void)
{
	enum out_format fmt = OUT_TABLE;
	char *argv[] = { PROG, NULL };
	struct opt_case c;
	struct run rn;

	is_int(cli_common_option('j', argv, "", NULL, &fmt), 1, "-j is shared");
	is_int(fmt, OUT_JSON, "  JSON");
	is_int(cli_common_option('c', argv, "", NULL, &fmt), 1, "-c is shared");
	is_int(fmt, OUT_CSV, "  CSV");
	is_int(cli_common_option('x', argv, "", NULL, &fmt), 0, "-x is the tool's");
	is_int(fmt, OUT_CSV, "  the format untouched");

	c = (struct opt_case){ 'h', "-h" };
	run(opt_child, &c, &rn);
	is_int(rn.status, 0, "-h exits 0");
	is_str(rn.out, "usage: " PROG " [-j]\n", "  the usage on stdout");
	is_str(rn.err, "", "  nothing on stderr");
	c = (struct opt_case){ 'V', "-V" };
	run(opt_child, &c, &rn);
	is_int(rn.status, 0, "-V exits 0");
	is_str(rn.out, PROG " (refkit) " REFKIT_VERSION "\n", "  the version");
	c = (struct opt_case){ ':', "--seed" };
	run(opt_child, &c, &rn);
	is_int(rn.status, 2, "a missing value exits 2");
	is_str(rn.out, "", "  nothing on stdout");
	is_str(rn.err, PROG ": option '--seed' needs a value\n" TRY,
	    "  naming the option");
	c = (struct opt_case){ '?', "--bogus" };
	run(opt_child, &c, &rn);
	is_int(rn.status, 2, "an unknown option exits 2");
	is_str(rn.err, PROG ": unknown option '--bogus'\n" TRY, "  naming it");
	c = (struct opt_case){ '?', "--jsno" };
	run(opt_child, &c, &rn);
	is_int(rn.status, 2, "a slip in an option exits 2");
	is_str(rn.err, PROG ": unknown option '--jsno'; did you mean "
	    "'--json'?\n" TRY, "  suggesting the option");
	c = (struct opt_case){ '?', "--s=4" };
	run(opt_child, &c, &rn);
	is_int(rn.status, 2, "a prefix of two options exits 2");
	is_str(rn.err, PROG ": unknown option '--s'; did you mean '--seed' "
	    "or '--surprise'?\n" TRY, "  listing both");
	c = (struct opt_case){ '?', "-q" };
	run(opt_child, &c, &rn);
	is_int(rn.status, 2, "an unknown short option exits 2");
	is_str(rn.err, PROG ": unknown option '-q'\n" TRY, "  no suggestion");
}

static void
usage_child(const void *arg)
{
	cli_usage_error("sim needs --n %s", (const char *)arg);
}

static void
test_usage_error(void)
{
	struct run rn;

	run(usage_child, "N", &rn);
	is_int(rn.status, 2, "a usage error exits 2");
	is_str(rn.out, "", "  nothing on stdout");
	is_str(rn.err, PROG ": sim needs --n N\n" TRY, "  the message, then "
	    "the hint");
}

/* cli_init over argv (NULL-terminated), then "fine" on stdout. */
static void
init_child(const void *arg)
{
	char **argv = (char **)arg;
	int argc = 0;

	while (argv[argc] != NULL)
		argc++;
	cli_init(argc, argv);
	puts("fine");
}

static void
test_init(void)
{
	char *good[] = { PROG, "add", "Zoë", "--notes", "two\nlines\ttab",
	    "notes=a\nb", "--notes=c\td", NULL };
	char *ctl[] = { PROG, "add", "a\033[2Jb", NULL };
	char *nl[] = { PROG, "add", "two\nlines", NULL };
	char *utf[] = { PROG, "\xff", NULL };
	char *after[] = { PROG, "--notes", "x", "y\nz", NULL };
	struct run rn;

	run(init_child, good, &rn);
	is_int(rn.status, 0, "plain arguments, UTF-8, and notes with "
	    "newlines and tabs");
	is_str(rn.out, "fine\n", "  pass");
	run(init_child, ctl, &rn);
	is_int(rn.status, 2, "an escape sequence in an argument");
	is_str(rn.err, PROG ": argument 2, 'a\\x1b[2Jb', must not contain "
	    "control characters\n" TRY, "  names it, escaped");
	is_str(rn.out, "", "  before anything runs");
	run(init_child, nl, &rn);
	is_int(rn.status, 2, "a newline outside notes");
	run(init_child, utf, &rn);
	is_int(rn.status, 2, "a byte that is not UTF-8");
	is_str(rn.err, PROG ": argument 1, '\\xff', is not valid UTF-8\n"
	    TRY, "  names it, escaped");
	run(init_child, after, &rn);
	is_int(rn.status, 2, "a newline in the argument after the notes' "
	    "value");
}

/* Writes cli_bar(p, pmax) in a child; the two numbers are in arg. */
static void
bar_child(const void *arg)
{
	const long double *v = arg;

	cli_bar(v[0], v[1]);
}

static void
bar_is(long double p, long double pmax, int want)
{
	long double v[2] = { p, pmax };
	struct run rn;
	char bars[64];

	memset(bars, '#', (size_t)want);
	bars[want] = '\0';
	run(bar_child, v, &rn);
	is_str(rn.out, bars, "a bar for %Lg of %Lg: %d", p, pmax, want);
}

static void
test_bar(void)
{
	bar_is(0, 10, 0);
	bar_is(10, 10, 40);
	bar_is(1, 4, 10);	/* 10 exactly */
	bar_is(3, 80, 2);	/* 1.5 rounds to 2 */
	bar_is(1, 100, 0);	/* 0.4 rounds to 0 */
	bar_is(5, 0, 0);	/* no largest: no bar */
}

static void
json_is(const char *s, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (fp == NULL)
		abort();
	cli_json_or_null(fp, s);
	fclose(fp);
	is_str(buf, want, "JSON of %s", s ? s : "NULL");
	free(buf);
}

static void
detail_child(const void *arg)
{
	cli_put_detail_text(arg);
}

static void
detail_is(const char *detail, const char *want)
{
	struct run rn;

	run(detail_child, detail, &rn);
	is_str(rn.out, want, "the text of %s", detail);
}

static void
test_text(void)
{
	json_is(NULL, "null");
	json_is("Luke", "\"Luke\"");
	json_is("a \"b\"\\", "\"a \\\"b\\\"\\\\\"");
	json_is("", "\"\"");

	detail_is("{\"round\":2,\"text\":\"Luke attacks.\",\"x\":1}",
	    "Luke attacks.");
	detail_is("{\"text\":\"say \\\"hi\\\" \\\\o/\"}", "say \"hi\" \\o/");
	detail_is("{\"round\":2}", "");
	detail_is("{\"text\":\"\"}", "");
	detail_is("{\"text\":\"cut", "cut");
}

/* A table such as a tool's: each entry begins with its name. */
static const struct cmd_case {
	const char	*name;
	int		 n;
} cmds[] = {
	{ "list", 1 },
	{ "log", 2 },
	{ "show", 3 },
};

static void
command_child(const void *arg)
{
	printf("%zu\n", cli_command(arg, cmds, sizeof cmds[0],
	    sizeof cmds / sizeof cmds[0]));
}

static void
test_command(void)
{
	static const struct cmd_case ended[] = {
		{ "list", 1 }, { NULL, 0 }, { "show", 3 }
	};
	struct run rn;

	is_int((int)cli_command("list", cmds, sizeof cmds[0], 3), 0,
	    "command: the first");
	is_int((int)cli_command("show", cmds, sizeof cmds[0], 3), 2,
	    "command: the last");
	is_int(cmds[cli_command("log", cmds, sizeof cmds[0], 3)].n, 2,
	    "command: its entry");
	run(command_child, "lsit", &rn);
	is_int(rn.status, 2, "command: an unknown one exits 2");
	is_str(rn.out, "", "  nothing on stdout");
	ok(strstr(rn.err, "'list'") != NULL && strstr(rn.err, TRY) != NULL,
	    "  suggesting the nearest");
	run(command_child, "show", &rn);
	is_str(rn.out, "2\n", "command: in a child too");
	is_int((int)cli_command("list", ended, sizeof ended[0], 3), 0,
	    "command: before a NULL name");
}

static void
ended_child(const void *arg)
{
	static const struct cmd_case ended[] = {
		{ "list", 1 }, { NULL, 0 }, { "show", 3 }
	};

	printf("%zu\n", cli_command(arg, ended, sizeof ended[0], 3));
}

static void
test_command_ended(void)
{
	struct run rn;

	run(ended_child, "show", &rn);
	is_int(rn.status, 2, "command: a NULL name ends the table");
	ok(strstr(rn.err, "show") != NULL, "  naming what was typed");
}

/* cli_replayed's line, read back from a temporary file. */
static void
replayed_is(int events, size_t logs, int bad, const char *want, int rc)
{
	FILE *fp = tmpfile();
	char buf[128] = "";

	if (fp == NULL)
		abort();
	is_int(cli_replayed(fp, events, logs, "duel", bad), rc,
	    "replayed: %d events, %d bad, exits %d", events, bad, rc);
	rewind(fp);
	if (fgets(buf, sizeof buf, fp) == NULL)
		buf[0] = '\0';
	fclose(fp);
	is_str(buf, want, "replayed: the line");
}

static void
test_replayed(void)
{
	replayed_is(3, 1, 0, "replayed 3 events of 1 duel: 0 mismatches\n", 0);
	replayed_is(1, 2, 1, "replayed 1 event of 2 duels: 1 mismatch\n", 1);
	replayed_is(0, 0, 0, "replayed 0 events of 0 duels: 0 mismatches\n",
	    0);
}

/* cli_json: the members written, then "text", closed. */
static void
test_json(void)
{
	struct strbuf j = STRBUF_INIT;
	FILE *fp = strbuf_stream(&j);
	char *s;

	fprintf(fp, "{\"action\":\"pass\"");
	s = cli_json_end(&j, "Ann passes.");
	is_str(s, "{\"action\":\"pass\",\"text\":\"Ann passes.\"}",
	    "json: the text last");
	free(s);
	fp = strbuf_stream(&j);
	fputs("{\"a\":1", fp);
	s = cli_json_end(&j, NULL);
	is_str(s, "{\"a\":1,\"text\":null}", "json: no text is null");
	free(s);
}

/*
 * The logs of a kind the schema has, for journal_log_id and journal_list_path: a
 * game's (the schema has no log of no game), as the tools pass theirs.
 */
#define duels	fbledger_kind

static char dbpath[64];

struct log_case {
	const char	*typed;
	int		 list;	/* journal_list_path instead, or journal_open_print */
};

static void
log_child(const void *arg)
{
	const struct log_case *c = arg;
	struct db *db;

	if (c->list == 1) {
		journal_list_path(dbpath, &duels, OUT_CSV, "round");
		return;
	}
	db = cli_db_open(dbpath);
	if (c->list == 2) {
		db_begin_read(db);
		journal_open_print(db, &duels, OUT_CSV, "round");
		db_rollback(db);
	} else
		printf("%s\n", cli_key(journal_log_id(db, &duels, c->typed, "ann",
		    0)));
	db_close(db);
}

static void
test_log(void)
{
	struct log_case c = { "7", 0 };
	struct run rn, direct;
	int fd;

	snprintf(dbpath, sizeof dbpath, "/tmp/unit-core-cli-XXXXXX");
	if ((fd = mkstemp(dbpath)) < 0)
		abort();
	close(fd);
	unlink(dbpath);
	run(log_child, &c, &rn);
	is_str(rn.out, "7\n", "log: the one typed");
	c.typed = NULL;
	run(log_child, &c, &rn);
	is_int(rn.status, 1, "log: none typed and none open exits 1");
	ok(strstr(rn.err, "GM 'ann' has no duel") != NULL,
	    "  saying whose and what: %s", rn.err);
	c.list = 1;
	run(log_child, &c, &rn);
	c.list = 2;
	run(log_child, &c, &direct);
	is_int(rn.status, 0, "log list: exits 0");
	is_str(rn.out, direct.out, "log list: journal_open_print's list");
	unlink(dbpath);
}

/* A tool's options for cli_options: -n N, -x, and the shared ones. */
struct my_opts {
	long	n;
	int	x;
};

static int
my_set(void *op, int ch, const char *arg)
{
	struct my_opts *m = op;

	switch (ch) {
	case 'n':
		m->n = cli_int_arg("-n", arg, 0, 9);
		return 1;
	case 'x':
		m->x = 1;
		return 1;
	}
	return 0;
}

static const struct option my_long[] = {
	{ "n", required_argument, NULL, 'n' },
	{ "x", no_argument, NULL, 'x' },
	{ "json", no_argument, NULL, 'j' },
	{ "csv", no_argument, NULL, 'c' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static const struct cli_opts my_table = { ":n:xjchV", my_long,
    "usage: my [-n N] [-x] WORD...\n", my_set };

static void
options_child(const void *arg)
{
	char *argv[8] = { PROG };
	int argc = 1, first;
	struct my_opts m = { 0, 0 };
	enum out_format fmt = OUT_TABLE;
	char *copy = strdup(arg);

	for (char *w = strtok(copy, " "); w && argc < 7; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	optind = 0;
	first = cli_options(&my_table, argc, argv, &m, &fmt);
	printf("n=%ld x=%d %s", m.n, m.x, fmt == OUT_JSON ? "json" :
	    fmt == OUT_CSV ? "csv" : "table");
	for (int i = first; i < argc; i++)
		printf(" %s", argv[i]);
	putchar('\n');
	free(copy);
}

static void
test_options(void)
{
	struct run rn;

	run(options_child, "-n 3 word --json -x more", &rn);
	is_int(rn.status, 0, "options: exits 0");
	is_str(rn.out, "n=3 x=1 json word more\n",
	    "options: the tool's, the shared, the words after");
	run(options_child, "word -- -x", &rn);
	is_str(rn.out, "n=0 x=0 table word -x\n", "options: -- ends them");
	run(options_child, "--help", &rn);
	is_int(rn.status, 0, "options: --help exits 0");
	is_str(rn.out, "usage: my [-n N] [-x] WORD...\n", "  its usage");
	run(options_child, "-n 12", &rn);
	is_int(rn.status, 2, "options: the tool's refusal exits 2");
	run(options_child, "--j", &rn);
	is_int(rn.status, 0, "options: a prefix of one");
	run(options_child, "--nope", &rn);
	is_int(rn.status, 2, "options: an unknown one exits 2");
	ok(strstr(rn.err, "unknown option '--nope'") != NULL, "  naming it");
	run(options_child, "-n", &rn);
	is_int(rn.status, 2, "options: a missing value exits 2");
	ok(strstr(rn.err, "needs a value") != NULL, "  saying so");
}

/* cli_verify_sheet's usage errors, before it opens anything. */
static void
verify_child(const void *arg)
{
	char *argv[] = { (char *)arg, NULL };

	cli_verify_sheet("/nonexistent/x.db", NULL, "char verify-sheet",
	    arg != NULL, argv);
}

static void
test_verify_sheet(void)
{
	struct run rn;

	run(verify_child, NULL, &rn);
	is_int(rn.status, 2, "verify-sheet: no CODE exits 2");
	is_str(rn.err, PROG ": char verify-sheet needs exactly one CODE\n"
	    TRY, "  naming the command");
	run(verify_child, "nope", &rn);
	is_int(rn.status, 2, "verify-sheet: no code's form exits 2");
}

int
main(void)
{
	test_verify_sheet();
	test_options();
	test_json();
	test_log();
	test_command();
	test_command_ended();
	test_replayed();
	test_int_arg();
	test_seed_arg();
	test_common_option();
	test_usage_error();
	test_init();
	test_bar();
	test_text();
	return tap_done();
}
