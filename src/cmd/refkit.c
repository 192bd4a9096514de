/*
 * refkit - what concerns a refkit database as a whole rather than one
 * game system: which station it is, and the exchange of its changes with
 * other stations (core/exchange.c).  A thin layer over the core library.
 * See refkit(1).
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/changes_show.h"
#include "core/cli.h"
#include "core/complete.h"
#include "core/db.h"
#include "core/exchange.h"
#include "core/out.h"
#include "core/resolve.h"
#include "core/seal.h"
#include "core/station.h"
#include "core/util.h"
#include "crs/ledger.h"
#include "bg/bgledger.h"
#include "d6/d6store.h"
#include "fb/fbledger.h"

struct opts {
	const char	*db;
	const char	*station;
	enum out_format	 fmt;
	const char	*output;	/* -o: export's file */
	int64_t		 since;		/* --since: export after this mark */
	int		 have_since;
	enum exchange_prefer prefer;	/* --prefer */
	int		 have_prefer;
	const char	*resolve;	/* --resolve: a resolution file */
	const char	*resolutions_out; /* --resolutions-out */
	const char	*log_kind;	/* reveal: --combat, --duel, --game,
					   --rolls */
	const char	*log;		/* ... and its ID as typed */
	const char	*seed_file;	/* verify-draws: --seed-file */
};

static const char usage_text[] =
"usage: refkit [--db PATH] [--station NAME] [--json | --csv] COMMAND [ARG...]\n"
"\n"
"commands:\n"
"  station              this database's station: its id and name\n"
"  station list         every station this database knows\n"
"  station rename NAME  give this station another name\n"
"  changes export -o FILE [--since MARK]\n"
"                       write the changes recorded here (after MARK)\n"
"  changes apply [--prefer WHO] [--resolve FILE] [--resolutions-out FILE]\n"
"                FILE...\n"
"                       take in other stations' changes, all or nothing\n"
"  changes show FILE    what a changes file holds\n"
"  merge [--prefer WHO] [--resolve FILE] [--resolutions-out FILE] OTHER\n"
"                       take in every change database OTHER has\n"
"  seal                 commit to a secret seed that every virtual card\n"
"                       and die drawn here comes from, until revealed\n"
"  reveal [--combat ID | --duel ID | --game ID | --rolls]\n"
"                       print the seed and end the seal, or print one\n"
"                       log's key only\n"
"  verify-draws --seed-file FILE\n"
"                       check every sealed draw against a revealed seed\n"
"                       or a log's key\n"
"\n"
"  -d, --db PATH        database (default $REFKIT_DB, else\n"
"                       $XDG_DATA_HOME/refkit/refkit.db)\n"
"  -s, --station NAME   the name of a station created now (default\n"
"                       $REFKIT_STATION, else the host name)\n"
"  -o, --output FILE    where changes export writes (- for stdout)\n"
"      --since MARK     export only the changes after MARK (a number an\n"
"                       earlier export gave)\n"
"      --prefer WHO     settle conflicts: mine keeps this station's\n"
"                       version, theirs takes the incoming one\n"
"      --resolve FILE   settle them record by record: each line of FILE\n"
"                       is TABLE KEY mine|theirs|ask; --prefer, if given,\n"
"                       settles the rest\n"
"      --resolutions-out FILE\n"
"                       when conflicts are left, write FILE listing them\n"
"                       as lines to edit for --resolve\n"
"      --combat ID, --duel ID, --game ID, --rolls\n"
"                       reveal: the key of that log alone\n"
"      --seed-file FILE verify-draws: the revealed seed or log's key\n"
"  -j, --json           JSON output\n"
"  -c, --csv            CSV output\n"
"  -h, --help           show this help\n"
"  -V, --version        show the version\n";

#define q util_q

static const char *const station_cols[] = { "station", "id", "created",
    "self" };

/* A station as a row; with self, the "self" column too (the list). */
static void
station_row(struct out *o, const struct station *s, int self)
{
	char when[32];

	util_time_iso(when, sizeof when, s->created);
	out_text(o, s->name);
	out_text(o, s->id);
	out_text(o, when);
	if (self)
		out_int(o, s->self);
	out_end_row(o);
}

static void
put_station(void *arg, const struct station *s)
{
	station_row(arg, s, 1);
}

static int
cmd_station(struct opts *o, int argc, char **argv)
{
	struct db *db;
	struct out *out;
	char why[128];

	if (argc > 0 && strcmp(argv[0], "rename") == 0) {
		if (argc != 2)
			cli_usage_error("station rename needs NAME");
		if (db_station_name_check(argv[1], why, sizeof why) != 0)
			cli_usage_error("the station name %s, got '%s'", why,
			    q(argv[1]));
		db = db_open(o->db);
		db_begin(db);
		if (station_rename(db, argv[1], why, sizeof why) != 0)
			db_die(db, "the station name %s", why);
		db_commit(db);
		db_close(db);
		return 0;
	}
	if (argc > 1 || (argc == 1 && strcmp(argv[0], "list") != 0))
		cli_usage_error("station takes 'list' or 'rename NAME', got "
		    "'%s'", q(argv[0]));
	db = db_open(o->db);
	if (argc == 1) {
		out = out_new(stdout, o->fmt, OUT_ROWS, 4, station_cols);
		station_each(db, put_station, out);
	} else {
		struct station s;

		station_self(db, &s);
		out = out_new(stdout, o->fmt, OUT_OBJECT, 3, station_cols);
		station_row(out, &s, 0);
		station_release(&s);
	}
	out_free(out);
	db_close(db);
	return 0;
}

/*
 * Refuses the options that command does not take; settle stands for
 * the options that settle conflicts.
 */
static void
only_options(const struct opts *o, const char *command, int output,
    int since, int settle)
{
	if (o->output && !output)
		cli_usage_error("%s takes no -o", command);
	if (o->have_since && !since)
		cli_usage_error("%s takes no --since", command);
	if (o->have_prefer && !settle)
		cli_usage_error("%s takes no --prefer", command);
	if (o->resolve && !settle)
		cli_usage_error("%s takes no --resolve", command);
	if (o->resolutions_out && !settle)
		cli_usage_error("%s takes no --resolutions-out", command);
}

/*
 * changes export: this station's record of changes after --since into a
 * file, which appears whole or not at all.
 */
static int
changes_export(struct opts *o, int argc)
{
	struct db *db;
	FILE *fp;
	char why[256], *tmp = NULL;
	int64_t n = 0, to = 0;
	int rc;

	only_options(o, "changes export", 1, 1, 0);
	if (argc != 0 || o->output == NULL)
		cli_usage_error("changes export needs -o FILE (- for stdout) "
		    "and nothing else");
	db = db_open(o->db);
	db_begin_read(db);
	if (strcmp(o->output, "-") == 0)
		fp = stdout;
	else {
		tmp = xasprintf("%s.tmp-%ld", o->output, (long)getpid());
		if ((fp = fopen(tmp, "wbx")) == NULL)
			err(1, "cannot write '%s'", q(tmp));
	}
	rc = exchange_export(db, fp, o->since, &n, &to, why, sizeof why);
	db_rollback(db);
	db_close(db);
	if (fp != stdout && fclose(fp) != 0 && rc == 0) {
		rc = -1;
		snprintf(why, sizeof why, "%s", strerror(errno));
	}
	if (rc == 0 && tmp != NULL && rename(tmp, o->output) != 0) {
		rc = -1;
		snprintf(why, sizeof why, "%s", strerror(errno));
	}
	if (rc != 0) {
		if (tmp != NULL)
			unlink(tmp);
		errx(1, "cannot write '%s': %s", q(o->output), why);
	}
	/* With the changes on stdout, the summary goes to stderr. */
	fprintf(tmp == NULL ? stderr : stdout, "exported %" PRId64
	    " change%s (%" PRId64 " to %" PRId64 "); next time: --since %"
	    PRId64 "\n", n, n == 1 ? "" : "s", o->since < to ? o->since : to,
	    to, to);
	free(tmp);
	return 0;
}

/* The summary of an apply or a merge. */
static void
apply_summary(const struct opts *o, const struct exchange_apply *a,
    const char *what)
{
	if (o->fmt == OUT_JSON) {
		printf("{\"applied\":%" PRId64 ",\"known\":%" PRId64
		    ",\"same\":%" PRId64 ",\"passed_over\":%" PRId64
		    ",\"conflicts\":", a->applied, a->known, a->same,
		    a->passed);
		exchange_report(stdout, a, 1);
		printf("}\n");
		return;
	}
	exchange_report(stdout, a, 0);
	printf("%s: %" PRId64 " change%s new here, %" PRId64 " here already"
	    "; %" PRId64 " record%s the same at both; %zu conflict%s "
	    "settled\n", what, a->applied, a->applied == 1 ? "" : "s",
	    a->known, a->same, a->same == 1 ? "" : "s", a->nc,
	    a->nc == 1 ? "" : "s");
	if (a->passed > 0)
		printf("%s: %" PRId64 " record%s passed over: made at a station "
		    "that had not seen %s removal at another\n", what,
		    a->passed, a->passed == 1 ? "" : "s",
		    a->passed == 1 ? "its" : "their");
}

/* Warns of each line of the resolution file that met no conflict. */
static void
warn_unmatched(const struct exchange_apply *a)
{
	const struct resolve *r = a->resolve;

	for (size_t i = 0; r != NULL && i < r->n; i++)
		if (r->l[i].matched == 0)
			warnx("warning: %s:%ld: no conflict on %s %s; the line "
			    "was not used", q(r->file), r->l[i].line,
			    q(r->l[i].table), q(r->l[i].key));
}

/* The last word when conflicts are left: what to do about them. */
static void
conflicts_left(const struct opts *o, const struct exchange_apply *a)
{
	const char *n = a->open == 1 ? "" : "s";

	if (a->dangling > 0)
		warnx("%zu conflict%s, so nothing was written; a change "
		    "that names a record not here needs the changes "
		    "that made it, applied before it", a->open, n);
	else if (o->resolutions_out != NULL)
		warnx("%zu conflict%s, so nothing was written; choose mine or "
		    "theirs for each record in '%s', then run again with "
		    "--resolve '%s'", a->open, n, q(o->resolutions_out),
		    q(o->resolutions_out));
	else
		warnx("%zu conflict%s, so nothing was written; settle %s "
		    "with --prefer mine or --prefer theirs, or record by "
		    "record with --resolve (refkit(7))", a->open, n,
		    a->open == 1 ? "it" : "them");
}

/*
 * Ends an apply: with conflicts left, nothing is written and they are
 * reported (with --resolutions-out, listed in a file to edit too);
 * else the histories of the combats whose events came are added up and
 * it all commits.
 */
static int
apply_end(struct opts *o, struct db *db, struct exchange_apply *a,
    const char *what)
{
	char why[512];

	warn_unmatched(a);
	if (a->open > 0) {
		db_rollback(db);
		if (o->fmt == OUT_JSON) {
			printf("{\"applied\":0,\"conflicts\":");
			exchange_report(stdout, a, 1);
			printf("}\n");
		} else
			exchange_report(stdout, a, 0);
		fflush(stdout);
		if (o->resolutions_out != NULL &&
		    resolve_template(o->resolutions_out, a, why,
		    sizeof why) != 0)
			errx(1, "%s", why);
		conflicts_left(o, a);
		return 1;
	}
	if (a->watch_all)
		ledger_history_rebuild_all(db);
	else {
		exchange_watched(db, a);
		ledger_history_rebuild(db, a->watched, a->nwatched);
	}
	db_commit(db);
	apply_summary(o, a, what);
	return 0;
}

/*
 * --resolve: the resolution file, read whole before the database is
 * opened, so that a bad line is refused before anything is begun;
 * NULL without the option.
 */
static struct resolve *
read_resolve(const struct opts *o)
{
	struct resolve *r;
	char why[512];

	if (o->resolve == NULL)
		return NULL;
	if ((r = resolve_load(o->resolve, why, sizeof why)) == NULL)
		errx(1, "%s", why);
	return r;
}

/*
 * Begins an apply into db: the resolution file's tables checked against
 * it, then the write transaction.
 */
static void
apply_begin(struct db *db, struct exchange_apply *a, const struct opts *o,
    struct resolve *r)
{
	char why[512];

	if (r != NULL && resolve_check(r, db, why, sizeof why) != 0)
		db_die(db, "%s", why);
	exchange_apply_init(a, o->prefer);
	a->resolve = r;
	a->watch_table = "event";
	a->watch_rows = "SELECT DISTINCT combat_id FROM event"
	    " WHERE id BETWEEN ?1 AND ?2";
	/* Another station's changes come with their own rows of change. */
	db->unrecorded = 1;
	db_begin(db);
}

/* changes apply FILE...: all of them in one transaction. */
static int
changes_apply(struct opts *o, int argc, char **argv)
{
	struct exchange_apply a;
	struct resolve *r;
	struct db *db;
	char why[256];
	int rc;

	only_options(o, "changes apply", 0, 0, 1);
	if (argc == 0)
		cli_usage_error("changes apply needs FILE... (- for stdin)");
	r = read_resolve(o);
	db = db_open(o->db);
	apply_begin(db, &a, o, r);
	for (int i = 0; i < argc; i++) {
		FILE *fp = strcmp(argv[i], "-") == 0 ? stdin :
		    fopen(argv[i], "rb");

		if (fp == NULL)
			db_die(db, "cannot open '%s': %s; nothing was written",
			    q(argv[i]), strerror(errno));
		rc = exchange_apply_file(db, fp, &a, why, sizeof why);
		if (fp != stdin)
			fclose(fp);
		if (rc != 0)
			db_die(db, "'%s': %s; nothing was written",
			    fp == stdin ? "<stdin>" : q(argv[i]), why);
	}
	rc = apply_end(o, db, &a, "applied");
	exchange_apply_release(&a);
	resolve_free(r);
	db_close(db);
	return rc;
}

/*
 * changes show FILE: read without a database, so that a file can be
 * looked at anywhere before it is taken in.
 */
static int
cmd_changes(struct opts *o, int argc, char **argv)
{
	const char *file;
	FILE *fp;
	char why[256];
	int rc;

	if (argc > 0 && strcmp(argv[0], "export") == 0)
		return changes_export(o, argc - 1);
	if (argc > 0 && strcmp(argv[0], "apply") == 0)
		return changes_apply(o, argc - 1, argv + 1);
	if (argc == 0 || strcmp(argv[0], "show") != 0)
		cli_usage_error("changes takes 'show FILE', 'export -o FILE' or "
		    "'apply FILE...'%s%s%s", argc ? ", got '" : "",
		    argc ? q(argv[0]) : "", argc ? "'" : "");
	only_options(o, "changes show", 0, 0, 0);
	if (argc != 2)
		cli_usage_error("changes show needs exactly one FILE (- for "
		    "stdin)");
	if (o->fmt == OUT_CSV)
		cli_usage_error("changes show has no CSV form (--json or "
		    "neither)");
	file = argv[1];
	if (strcmp(file, "-") == 0)
		fp = stdin;
	else if ((fp = fopen(file, "rb")) == NULL)
		err(1, "cannot open '%s'", q(file));
	rc = changes_show(fp, stdout, o->fmt, why, sizeof why);
	if (fp != stdin)
		fclose(fp);
	if (rc != 0) {
		if (fp == stdin)
			errx(1, "<stdin>: %s", why);
		errx(1, "'%s': %s", q(file), why);
	}
	return 0;
}

static void
warn_double(void *arg, const char *name, int64_t a, int64_t b)
{
	struct db *db = arg;

	/* This station's combat first. */
	if (db_key_own(db, b) && !db_key_own(db, a)) {
		int64_t t = a;

		a = b;
		b = t;
	}
	warnx("warning: '%s' is in combat %s and in combat %s at once; both "
	    "are kept (end one of them)", q(name), db_key_str(db, a),
	    db_key_str(db, b));
}

/*
 * merge OTHER: every change OTHER has that this database lacks, in one
 * transaction, as changes apply would take them from its export, read
 * straight from its record of changes.
 */
static int
cmd_merge(struct opts *o, int argc, char **argv)
{
	struct exchange_apply a;
	struct resolve *r;
	struct db *db, *other;
	struct stat sb;
	char why[256];
	int rc;

	only_options(o, "merge", 0, 0, 1);
	if (argc != 1)
		cli_usage_error("merge needs one OTHER database");
	/* A file must be there: merging never makes one. */
	if (!db_path_is_server(argv[0]) && stat(argv[0], &sb) != 0)
		err(1, "cannot merge '%s'", q(argv[0]));
	r = read_resolve(o);
	other = db_open(argv[0]);
	db_begin_read(other);
	db = db_open(o->db);
	apply_begin(db, &a, o, r);
	if (exchange_merge(db, other, &a, why, sizeof why) != 0)
		db_die(db, "'%s': %s; nothing was written", q(other->path),
		    why);
	db_rollback(other);
	db_close(other);
	rc = apply_end(o, db, &a, "merged");
	if (rc == 0)
		(void)ledger_double_booked(db, warn_double, db);
	exchange_apply_release(&a);
	resolve_free(r);
	db_close(db);
	return rc;
}

/* Refuses the options of seal, reveal and verify-draws elsewhere. */
static void
no_seal_options(const struct opts *o, const char *command, int log,
    int seed_file)
{
	if (o->log_kind && !log)
		cli_usage_error("%s takes no --%s", command, o->log_kind);
	if (o->seed_file && !seed_file)
		cli_usage_error("%s takes no --seed-file", command);
}

/* seal: a new secret seed for this station, and its commitment. */
static int
cmd_seal(struct opts *o, int argc, char **argv)
{
	struct db *db;
	char hex[SEAL_HEX + 1], why[256];

	(void)argv;
	only_options(o, "seal", 0, 0, 0);
	no_seal_options(o, "seal", 0, 0);
	if (argc != 0)
		cli_usage_error("seal takes no arguments");
	db = db_open(o->db);
	db_begin(db);
	if (seal_create(db, db_now(), hex, why, sizeof why) != 0)
		db_die(db, "%s", why);
	db_commit(db);
	if (o->fmt == OUT_JSON)
		printf("{\"commitment\":\"%s\"}\n", hex);
	else
		printf("%s\n", hex);
	db_close(db);
	return 0;
}

/* One log's key as a line of a seed file: KIND LOG KEY. */
struct reveal_line {
	const char	*kind;
	char		 log[DB_KEY_TEXT_MAX + 8];
	int		 json;
};

static void
put_key(void *arg, const unsigned char key[SEAL_BYTES])
{
	struct reveal_line *l = arg;
	char hex[SEAL_HEX + 1];

	seal_hex(key, SEAL_BYTES, hex);
	if (l->json)
		printf("{\"kind\":\"%s\",\"log\":\"%s\",\"key\":\"%s\"}\n",
		    l->kind, l->log, hex);
	else
		printf("%s %s %s\n", l->kind, l->log, hex);
}

/*
 * reveal: the open seal's seed, the seal ended; with a log named, that
 * log's key under each seal it drew under, nothing ended.
 */
static int
cmd_reveal(struct opts *o, int argc, char **argv)
{
	struct db *db;
	char hex[SEAL_HEX + 1], why[256];

	(void)argv;
	only_options(o, "reveal", 0, 0, 0);
	no_seal_options(o, "reveal", 1, 0);
	if (argc != 0)
		cli_usage_error("reveal takes no arguments");
	db = db_open(o->db);
	if (o->log_kind != NULL) {
		struct reveal_line l = { .kind = o->log_kind,
		    .json = o->fmt == OUT_JSON };
		int64_t log;

		db_begin_read(db);
		if (strcmp(o->log_kind, "rolls") == 0) {
			log = db_key_base(db) >> DB_KEY_BITS;
			snprintf(l.log, sizeof l.log, "%08" PRIx64,
			    (uint64_t)log);
		} else {
			if ((log = db_key_parse(db, o->log)) == 0)
				db_die(db, "'%s' is not a %s's ID", q(o->log),
				    o->log_kind);
			/* Its full form, which reads alike at any station. */
			snprintf(l.log, sizeof l.log, "%08" PRIx64 "-%" PRId64,
			    (uint64_t)(log >> DB_KEY_BITS),
			    log & DB_KEY_MAX_NO);
		}
		if (seal_reveal_log(db, o->log_kind, log, put_key, &l) == 0)
			db_die(db, "%s %s draws under no seal of this station",
			    o->log_kind, strcmp(o->log_kind, "rolls") == 0 ?
			    l.log : q(o->log));
		db_rollback(db);
		db_close(db);
		return 0;
	}
	db_begin(db);
	if (seal_reveal(db, db_now(), hex, why, sizeof why) != 0)
		db_die(db, "%s", why);
	db_commit(db);
	if (o->fmt == OUT_JSON)
		printf("{\"seed\":\"%s\"}\n", hex);
	else
		printf("%s\n", hex);
	db_close(db);
	return 0;
}

/* The checkers of every kind of log, one per game system. */
static const struct seal_checker checkers[] = {
	{ "combat", ledger_seal_check },
	{ "duel", fbledger_seal_check },
	{ "game", bgledger_seal_check },
	{ "rolls", d6store_seal_check },
};

static void
draw_bad(void *arg, const char *kind, int64_t log, int64_t seq,
    const char *why)
{
	struct db *db = arg;

	if (strcmp(kind, "rolls") == 0)
		printf("rolls %08" PRIx64 " roll %" PRId64 ": %s\n",
		    (uint64_t)log, seq, why);
	else
		printf("%s %s event %" PRId64 ": %s\n", kind,
		    db_key_str(db, log), seq, why);
}

/* The text of a seed file, read whole (- for stdin). */
static char *
read_seed_file(const char *path)
{
	FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[4096];

	if (fp == NULL)
		err(1, "cannot open '%s'", q(path));
	buf = xstrdup("");
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0) {
		if (len + n > 65536)
			errx(1, "'%s': too long for a seed file", q(path));
		buf = xrealloc(buf, len + n + 1);
		memcpy(buf + len, chunk, n);
		len += n;
		buf[len] = '\0';
	}
	if (ferror(fp))
		err(1, "cannot read '%s'", q(path));
	if (fp != stdin)
		fclose(fp);
	if (memchr(buf, '\0', len) != NULL)
		errx(1, "'%s' is not a seed file", q(path));
	return buf;
}

/*
 * verify-draws --seed-file FILE: the commitment, then every sealed draw
 * it covers.  Exit 0 only when every draw follows from the seal.
 */
static int
cmd_verify_draws(struct opts *o, int argc, char **argv)
{
	struct seal_proof p;
	struct seal_verdict v;
	struct db *db;
	char why[600], *text;

	(void)argv;
	only_options(o, "verify-draws", 0, 0, 0);
	no_seal_options(o, "verify-draws", 0, 1);
	if (argc != 0 || o->seed_file == NULL)
		cli_usage_error("verify-draws needs --seed-file FILE and "
		    "nothing else");
	text = read_seed_file(o->seed_file);
	db = db_open(o->db);
	db_begin_read(db);
	if (seal_proof_parse(db, text, &p, why, sizeof why) != 0)
		db_die(db, "'%s': %s", q(o->seed_file), why);
	free(text);
	if (seal_verify(db, &p, checkers, sizeof checkers /
	    sizeof checkers[0], draw_bad, db, &v, why, sizeof why) != 0)
		db_die(db, "%s", why);
	db_rollback(db);
	printf("seal %.16s: %ld log%s, %ld sealed draw%s, %ld that do%s not "
	    "follow\n", v.commitment, v.logs, v.logs == 1 ? "" : "s",
	    v.draws, v.draws == 1 ? "" : "s", v.bad, v.bad == 1 ? "es" : "");
	db_close(db);
	return v.bad > 0;
}

static const struct command {
	const char	*name;
	int		(*fn)(struct opts *, int, char **);
} commands[] = {
	{ "station", cmd_station },
	{ "changes", cmd_changes },
	{ "merge", cmd_merge },
	{ "seal", cmd_seal },
	{ "reveal", cmd_reveal },
	{ "verify-draws", cmd_verify_draws },
};

/* What refkit completes (core/complete.h): it names no records. */
static const struct complete_cmd complete_station[] = {
	{ "list", "", NULL },
	{ "rename", "", NULL },
	{ NULL, NULL, NULL }
};

static const struct complete_cmd complete_changes[] = {
	{ "export", "", NULL },
	{ "apply", "file...", NULL },
	{ "show", "file", NULL },
	{ NULL, NULL, NULL }
};

static const struct complete_cmd complete_cmds[] = {
	{ "station", NULL, complete_station },
	{ "changes", NULL, complete_changes },
	{ "merge", "file", NULL },
	{ "seal", "", NULL },
	{ "reveal", "", NULL },
	{ "verify-draws", "", NULL },
	{ NULL, NULL, NULL }
};

static const struct complete_value complete_values[] = {
	{ "db", "file" },
	{ "output", "file" },
	{ "prefer", "mine|theirs" },
	{ "resolve", "file" },
	{ "resolutions-out", "file" },
	{ "seed-file", "file" },
	{ NULL, NULL }
};

static const struct complete_tool completion = {
	.cmds = complete_cmds,
	.values = complete_values,
};

static const struct option longopts[] = {
	{ "db", required_argument, NULL, 'd' },
	{ "station", required_argument, NULL, 's' },
	{ "json", no_argument, NULL, 'j' },
	{ "csv", no_argument, NULL, 'c' },
	{ "output", required_argument, NULL, 'o' },
	{ "since", required_argument, NULL, 'S' },
	{ "prefer", required_argument, NULL, 'P' },
	{ "resolve", required_argument, NULL, 'R' },
	{ "resolutions-out", required_argument, NULL, 'T' },
	{ "combat", required_argument, NULL, 'C' },
	{ "duel", required_argument, NULL, 'U' },
	{ "game", required_argument, NULL, 'G' },
	{ "rolls", no_argument, NULL, 'L' },
	{ "seed-file", required_argument, NULL, 'F' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

int
main(int argc, char **argv)
{
	struct opts o = { .fmt = OUT_TABLE };
	char why[128];
	int ch;

	cli_init(argc, argv);
	complete_answer(argc, argv, &completion, longopts);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":d:s:o:jchV", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'd':
			o.db = optarg;
			break;
		case 'o':
			o.output = optarg;
			break;
		case 'S':
			o.since = cli_int_arg("--since", optarg, 0,
			    INT64_MAX);
			o.have_since = 1;
			break;
		case 'P':
			if (strcmp(optarg, "mine") == 0)
				o.prefer = EXCHANGE_MINE;
			else if (strcmp(optarg, "theirs") == 0)
				o.prefer = EXCHANGE_THEIRS;
			else
				cli_usage_error("--prefer takes mine or "
				    "theirs, got '%s'", q(optarg));
			o.have_prefer = 1;
			break;
		case 'R':
			o.resolve = optarg;
			break;
		case 'T':
			o.resolutions_out = optarg;
			break;
		case 'C':
		case 'U':
		case 'G':
		case 'L':
			if (o.log_kind != NULL)
				cli_usage_error("reveal names one log");
			o.log_kind = ch == 'C' ? "combat" : ch == 'U' ?
			    "duel" : ch == 'G' ? "game" : "rolls";
			o.log = optarg;
			break;
		case 'F':
			o.seed_file = optarg;
			break;
		case 's':
			if (db_station_name_check(optarg, why, sizeof why) != 0)
				cli_usage_error("--station: the station name "
				    "%s, got '%s'", why, q(optarg));
			o.station = optarg;
			break;
		default:
			cli_common_option(ch, argv, usage_text, longopts, &o.fmt);
			break;
		}
	}
	argc -= optind;
	argv += optind;
	db_station_name(o.station);
	if (argc == 0)
		cli_usage_error("no command given (station, changes, merge, "
		    "seal, reveal, verify-draws)");
	no_seal_options(&o, argv[0], strcmp(argv[0], "reveal") == 0,
	    strcmp(argv[0], "verify-draws") == 0);
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(argv[0], commands[i].name) == 0)
			return commands[i].fn(&o, argc - 1, argv + 1);
	{
		const char *known[sizeof commands / sizeof commands[0]];

		for (size_t i = 0; i < sizeof commands / sizeof commands[0];
		    i++)
			known[i] = commands[i].name;
		cli_unknown("command", argv[0], known, sizeof known /
		    sizeof known[0]);
	}
}
