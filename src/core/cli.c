/*
 * cli.c - shared pieces of the tools' main()s; see cli.h.
 */
#include "core/cli.h"
#include "db/db.h"
#include "paper/sheetrun.h"

#include "base/names.h"
#include "base/rng.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

extern char *program_invocation_short_name;

/* Inside play: the command typed ("" when it is none), else NULL. */
static const char *play_cmd;

void
cli_play_hint(const char *cmd)
{
	play_cmd = cmd != NULL ? cmd : "";
}

void
cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
	if (play_cmd != NULL && *play_cmd != '\0')
		fprintf(stderr, "Type 'help %s' for its short form and "
		    "options.\n", play_cmd);
	else if (play_cmd != NULL)
		fputs("Type 'help' for the commands.\n", stderr);
	else
		fprintf(stderr, "Try '%s --help' for more information.\n",
		    program_invocation_short_name);
	exit(2);
}

void
cli_init(int argc, char **argv)
{
	static int registered;
	char why[128];

	/* Once: play's worker runs one command line after another. */
	if (!registered && atexit(util_check_stdout) != 0)
		abort();
	registered = 1;
	/* A completion request's words are being typed (term/complete.h). */
	if (argc > 1 && strcmp(argv[1], "--complete") == 0)
		return;
	/*
	 * Every argument is checked before any is used: valid UTF-8, and no
	 * control character (an escape sequence pasted into a name, a stray
	 * newline), except newlines and tabs in a notes value.
	 */
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int notes = strncasecmp(a, "notes=", 6) == 0 ||
		    strncmp(a, "--notes=", 8) == 0 ||
		    (i > 1 && strcmp(argv[i - 1], "--notes") == 0);

		if (util_check_text(a, notes ? UTIL_TEXT_NOTES :
		    UTIL_TEXT_LINE, SIZE_MAX, why, sizeof why) != 0)
			cli_usage_error("argument %d, '%s', %s", i, util_q(a),
			    why);
	}
}

void
cli_unknown(const char *what, const char *typed, const char *const *known,
    size_t n)
{
	char why[600];

	/* An unknown command has no help of its own in play. */
	if (play_cmd != NULL && strcmp(what, "command") == 0)
		play_cmd = "";
	/* A word that is known after all is refused for what it is not. */
	if (names_lookup(typed, known, n, 1, what, why, sizeof why) >= 0)
		cli_usage_error("'%s' is not a %s here", util_q(typed), what);
	cli_usage_error("%s", why);
}

size_t
cli_command(const char *cmd, const void *table, size_t size, size_t n)
{
	const char **known = xcalloc(n ? n : 1, sizeof *known);
	size_t i;

	for (i = 0; i < n; i++) {
		/* An entry begins with its name: a pointer to it is one. */
		known[i] = *(const char *const *)(const void *)
		    ((const char *)table + i * size);
		if (known[i] == NULL)
			break;
		if (strcmp(known[i], cmd) == 0) {
			free(known);
			return i;
		}
	}
	cli_unknown("command", cmd, known, i);
}

void
cli_unknown_option(const char *typed, const char *const *known, size_t n)
{
	const char **dashed = xcalloc(n ? n : 1, sizeof *dashed);
	char *word = xstrdup(typed), *eq = NULL;

	/* "--lb=3": the option is "--lb". */
	if (strncmp(word, "--", 2) == 0 && (eq = strchr(word, '=')) != NULL)
		*eq = '\0';
	for (size_t i = 0; i < n; i++) {
		dashed[i] = xasprintf("--%s", known[i]);
		/* getopt's '?' for "--json=1": an option that takes no value. */
		if (eq != NULL && strcmp(dashed[i], word) == 0)
			cli_usage_error("option '%s' takes no value",
			    util_q(word));
	}
	/* Only a long option has names near it. */
	cli_unknown("option", word, dashed, strncmp(word, "--", 2) == 0 ? n :
	    0);
}

int
cli_common_option(int ch, char **argv, const char *usage,
    const struct option *longopts, enum out_format *fmt)
{
	switch (ch) {
	case 'j':
		*fmt = OUT_JSON;
		return 1;
	case 'c':
		*fmt = OUT_CSV;
		return 1;
	case 'h':
		fputs(usage, stdout);
		exit(0);
	case 'V':
		printf("%s (refkit) %s\n", program_invocation_short_name,
		    REFKIT_VERSION);
		exit(0);
	case ':':
		cli_usage_error("option '%s' needs a value",
		    util_q(argv[optind - 1]));
	case '?': {
		size_t n = 0;
		const char **names;

		while (longopts != NULL && longopts[n].name != NULL)
			n++;
		names = xcalloc(n ? n : 1, sizeof *names);
		for (size_t i = 0; i < n; i++)
			names[i] = longopts[i].name;
		cli_unknown_option(argv[optind - 1], names, n);
	}
	}
	return 0;
}

int
cli_options(const struct cli_opts *t, int argc, char **argv, void *o,
    enum out_format *fmt)
{
	int ch;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, t->shortopts, t->longopts,
	    NULL)) != -1)
		if (!t->set(o, ch, optarg) &&
		    !cli_common_option(ch, argv, t->usage, t->longopts, fmt))
			cli_usage_error("unexpected option");
	return optind;
}

void
cli_json_or_null(FILE *fp, const char *s)
{
	if (s)
		out_json_string(fp, s);
	else
		fputs("null", fp);
}

char *
cli_json_add_text(char *json, const char *key, const char *text)
{
	struct strbuf b = STRBUF_INIT;
	size_t n = strlen(json);
	FILE *fp;

	if (n < 2 || json[n - 1] != '}')
		errx(1, "cannot add '%s' to a JSON object", key);
	fp = strbuf_stream(&b);
	fwrite(json, 1, n - 1, fp);
	fprintf(fp, "%s\"%s\":", n > 2 ? "," : "", key);
	out_json_string(fp, text);
	fputc('}', fp);
	free(json);
	return strbuf_detach(&b, NULL);
}

void
cli_put_detail_text(const char *detail)
{
	cli_fput_detail_text(detail, stdout);
}

void
cli_fput_detail_text(const char *detail, FILE *fp)
{
	const char *t = strstr(detail, "\"text\":\"");

	if (t == NULL)
		return;
	for (t += 8; *t && *t != '"'; t++)
		putc(*t == '\\' && t[1] ? *++t : *t, fp);
}

long
cli_int_arg(const char *what, const char *s, long min, long max)
{
	long v;

	if (util_parse_int(s, min, max, &v) != UTIL_INT_OK)
		cli_usage_error("%s must be a whole number from %ld to %ld, "
		    "got '%s'", what, min, max, util_q(s));
	return v;
}

int
cli_paper_arg(const char *s)
{
	int paper = page_paper_lookup(s);

	if (paper < 0)
		cli_usage_error("--paper must be 'a4' or 'letter', got '%s'",
		    util_q(s));
	return paper;
}

void
cli_sheet_code_arg(const char *s, char code[PAGE_CODE_LEN + 1])
{
	const char *at = strstr(s, "?sheet="), *amp;
	char part[64];

	/*
	 * A sheet's QR code read by a phone: the address of its character's
	 * page (REFKIT_SERVE_URL, crs-stats(1)), the code after "?sheet=".
	 */
	if (at == NULL)
		at = strstr(s, "&sheet=");
	if (at != NULL) {
		at += 7;
		amp = strchr(at, '&');
		snprintf(part, sizeof part, "%.*s", (int)(amp != NULL ?
		    (size_t)(amp - at) : strlen(at)), at);
		if (page_code_parse(part, code) == 0)
			return;
	}
	if (page_code_parse(s, code) != 0)
		cli_usage_error("'%s' is not a sheet's code (16 letters and "
		    "digits, as printed: XXXX-XXXX-XXXX-XXXX)", util_q(s));
}

const char *
cli_key_arg(const char *what, const char *s)
{
	if (db_key_parse(NULL, s) == 0)
		cli_usage_error("%s must be a number from 1 to %" PRId64 ", or "
		    "another station's key (89abcdef-3), got '%s'", what,
		    DB_KEY_MAX_NO, util_q(s));
	return s;
}

/* Only its key_base: the database last opened by cli_db_open. */
static struct db keys;

struct db *
cli_db_open(const char *path)
{
	struct db *db = db_open(path);

	keys.key_base = db_key_base(db);
	return db;
}

const char *
cli_key(int64_t key)
{
	return db_key_str(&keys, key);
}

const char *
cli_key_json(int64_t key)
{
	return db_key_jstr(&keys, key);
}

const char *
cli_gm(const char *given)
{
	static char login[256];
	const char *gm = given, *from = "--gm";
	char why[128];

	if (gm == NULL) {
		gm = getenv("REFKIT_GM");
		from = "REFKIT_GM";
	}
	if (gm == NULL || *gm == '\0') {
		/*
		 * The user the process runs as, not getlogin(3): a GM's
		 * commands are run from scripts and sessions without a
		 * terminal, and must still be one GM's.
		 */
		struct passwd *pw = getpwuid(geteuid());

		snprintf(login, sizeof login, "%s",
		    pw && pw->pw_name && *pw->pw_name ? pw->pw_name : "gm");
		gm = login;
		from = "the login name";
	}
	if (util_check_text(gm, UTIL_TEXT_LINE, 200, why, sizeof why) != 0)
		cli_usage_error("the GM's name (%s) %s, got '%s'", from, why,
		    util_q(gm));
	return gm;
}

uint64_t
cli_seed_arg(const char *s)
{
	uint64_t seed;

	if (rng_parse_seed(s, &seed) != 0)
		cli_usage_error("--seed must be a whole number from 0 to "
		    "18446744073709551615, got '%s'", util_q(s));
	return seed;
}

FILE *
cli_file_open(const char *path, char **tmp)
{
	FILE *fp;

	/* Made here alone ("x"), so that the rename moves nothing else. */
	*tmp = xasprintf("%s.tmp-%ld", path, (long)getpid());
	if ((fp = fopen(*tmp, "wbx")) == NULL)
		errx(1, "cannot write '%s': %s", util_q(path), strerror(errno));
	return fp;
}

void
cli_file_done(FILE *fp, const char *path, char *tmp)
{
	if ((ferror(fp) | fclose(fp)) != 0 || rename(tmp, path) != 0) {
		int e = errno;

		unlink(tmp);
		errx(1, "cannot write '%s': %s", util_q(path), strerror(e));
	}
	free(tmp);
}

int
cli_columns(void)
{
	const char *c = getenv("COLUMNS");
	struct winsize ws;
	char *end;
	long n;

	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ,
	    &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	if (c == NULL || *c == '\0')
		return 0;
	n = strtol(c, &end, 10);
	return *end == '\0' && n > 0 && n < 10000 ? (int)n : 0;
}

void
cli_bar(long double p, long double pmax)
{
	int n = pmax > 0 ? (int)(40 * p / pmax + 0.5L) : 0;

	for (int i = 0; i < n; i++)
		putchar('#');
}

int
cli_replayed(FILE *fp, int events, size_t logs, const char *what, int bad)
{
	fprintf(fp, "replayed %d event%s of %zu %s%s: %d mismatch%s\n",
	    events, events == 1 ? "" : "s", logs, what, logs == 1 ? "" : "s",
	    bad, bad == 1 ? "" : "es");
	return bad ? 1 : 0;
}

char *
cli_json_end(struct strbuf *b, const char *text)
{
	FILE *fp = b->fp;

	fprintf(fp, ",\"text\":");
	cli_json_or_null(fp, text);
	fputc('}', fp);
	return strbuf_detach(b, NULL);
}

int
cli_verify_sheet(const char *path, const struct sheetrun_ops *ops,
    const char *form, int argc, char **argv)
{
	char want[PAGE_CODE_LEN + 1];
	struct db *db;

	if (argc != 1)
		cli_usage_error("%s needs exactly one CODE", form);
	cli_sheet_code_arg(argv[0], want);
	db = cli_db_open(path);
	sheetrun_verify(db, ops, want);
	db_close(db);
	return 0;
}
