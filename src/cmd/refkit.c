/*
 * refkit - what concerns a refkit database as a whole rather than one
 * game system: which station it is, and the exchange of its changes with
 * other stations (sync/exchange.c).  A thin layer over the core library.
 * See refkit(1).
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/chain.h"
#include "sync/changes_show.h"
#include "core/cli.h"
#include "term/complete.h"
#include "db/db.h"
#include "sync/exchange.h"
#include "base/out.h"
#include "sync/resolve.h"
#include "core/seal.h"
#include "sync/station.h"
#include "base/util.h"
#include "kinds/kinds.h"
#include "trust/verify.h"
#include "web/serve.h"

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
	const char	*kind;		/* --combat, --duel, --game: verify */
	const char	*log;		/* and its key, as typed */
	int		 all;		/* --all */
	const char	*head;		/* verify --head: digits written down */
	const char	*seed_file;	/* verify: --seed-file */
	int		 no_replay;	/* verify --no-replay */
	const char	*listen;	/* serve --listen ADDR:PORT */
	int		 cols;		/* serve --cols: a board's columns */
	int		 public_boards;	/* serve --public boards */
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
"  verify [--combat ID | --duel ID | --game ID | --all] [--head DIGITS]\n"
"         [--no-replay] [--seed-file FILE]\n"
"                       check every hash chain, then replay each log;\n"
"                       with a revealed seed, every sealed draw\n"
"  head [--combat ID | --duel ID | --game ID]\n"
"                       each log's head hash, and one over all of them\n"
"  seal                 commit to a secret seed that every virtual card\n"
"                       and die drawn here comes from, until revealed\n"
"  reveal [--combat ID | --duel ID | --game ID | --rolls]\n"
"                       print the seed and end the seal, or print one\n"
"                       log's key only\n"
"  serve [--listen ADDR:PORT] [--public boards] [--cols N]\n"
"                       the live boards in a browser, read-only (default\n"
"                       127.0.0.1:8080; another machine's browser needs\n"
"                       the access code printed, unless boards are public)\n"
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
"      --combat ID, --duel ID, --game ID\n"
"                       verify, head or reveal: that log alone\n"
"      --rolls          reveal: this station's D6 rolls\n"
"      --all            verify: every log (the default)\n"
"      --head DIGITS    verify: also that the record still passes\n"
"                       through a head written down earlier\n"
"      --no-replay      verify: the chains only, without the rules\n"
"      --seed-file FILE verify: also every sealed draw, against the\n"
"                       revealed seed or a log's key in FILE\n"
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
	out_text(o, s->name);
	out_text(o, s->id);
	out_time(o, s->created);
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
	/* reveal names a log too: the one whose key alone it prints. */
	if (o->kind && strcmp(command, "verify") != 0 &&
	    strcmp(command, "head") != 0 && strcmp(command, "reveal") != 0)
		cli_usage_error("%s takes no --%s", command, o->kind);
	if (strcmp(command, "verify") != 0 && strcmp(command, "head") != 0) {
		if (o->all)
			cli_usage_error("%s takes no --all", command);
		if (o->head)
			cli_usage_error("%s takes no --head", command);
		if (o->no_replay)
			cli_usage_error("%s takes no --no-replay", command);
	}
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
	/* Its file is the changes; what it prints is a line for people. */
	if (o->fmt == OUT_CSV)
		cli_usage_error("changes export prints for people, not CSV");
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
		    ",\"superseded\":%" PRId64 ",\"settlement\":",
		    a->applied, a->known, a->same, a->passed, a->superseded);
		if (a->settlement > 0)
			printf("%" PRId64, a->settlement);
		else
			fputs("null", stdout);
		printf(",\"conflicts\":");
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
	if (a->superseded > 0)
		printf("%s: %" PRId64 " conflict%s settled already by a later "
		    "change\n", what, a->superseded,
		    a->superseded == 1 ? "" : "s");
	if (a->settlement > 0)
		printf("%s: the settlement is this station's change %" PRId64
		    ", which the other stations will take\n", what,
		    a->settlement);
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
 * Each kind of log derives again what it derives from the events that
 * came (core/journal.h, merged): apply_begin watched its rows, in the
 * order of kinds_all.
 */
static void
merged(struct db *db, struct exchange_apply *a)
{
	size_t w = 0;

	exchange_watched(db, a);
	for (size_t i = 0; kinds_all[i] != NULL; i++) {
		const struct journal_kind *k = kinds_all[i];
		const struct exchange_watch *x;

		if (k->merge_table == NULL)
			continue;
		x = &a->watch[w++];
		if (x->all)
			k->merged(db, NULL, 0);
		else if (x->nvalues > 0)
			k->merged(db, x->values, x->nvalues);
	}
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

	exchange_finish(db, a);
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
		    resolve_template(o->resolutions_out, a->c, a->nc,
		    a->resolve != NULL ? a->resolve->file : NULL, why,
		    sizeof why) != 0)
			errx(1, "%s", why);
		conflicts_left(o, a);
		return 1;
	}
	merged(db, a);
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
	for (size_t i = 0; kinds_all[i] != NULL; i++)
		if (kinds_all[i]->merge_table != NULL)
			(void)exchange_watch(a, kinds_all[i]->merge_table,
			    kinds_all[i]->merge_rows);
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
	if (o->fmt == OUT_CSV)
		cli_usage_error("changes apply prints for people or --json, "
		    "not CSV");
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

/* A kind's clashes (core/journal.h), for people. */
struct clash {
	struct db			*db;
	const struct journal_kind	*kind;
};

static void
warn_double(void *arg, const char *name, int64_t a, int64_t b)
{
	struct clash *c = arg;
	const char *what = c->kind->what;

	/* This station's log first. */
	if (db_key_own(c->db, b) && !db_key_own(c->db, a)) {
		int64_t t = a;

		a = b;
		b = t;
	}
	warnx("warning: '%s' is in %s %s and in %s %s at once; both are "
	    "kept (end one of them)", q(name), what, db_key_str(c->db, a),
	    what, db_key_str(c->db, b));
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
	for (size_t i = 0; rc == 0 && kinds_all[i] != NULL; i++) {
		struct clash c = { db, kinds_all[i] };

		if (c.kind->clashes != NULL)
			(void)c.kind->clashes(db, warn_double, &c);
	}
	exchange_apply_release(&a);
	resolve_free(r);
	db_close(db);
	return rc;
}

/* ---- seal and reveal (core/seal.h) ---- */

/*
 * Refuses --rolls but to reveal, and --seed-file but to verify; and a
 * log named to a command that takes none.
 */
static void
no_seal_options(const struct opts *o, const char *command)
{
	int logs = strcmp(command, "verify") == 0 ||
	    strcmp(command, "head") == 0 || strcmp(command, "reveal") == 0;

	if (o->kind != NULL && (!logs || (strcmp(o->kind, "rolls") == 0 &&
	    strcmp(command, "reveal") != 0)))
		cli_usage_error("%s takes no --%s", command, o->kind);
	if (o->seed_file && strcmp(command, "verify") != 0)
		cli_usage_error("%s takes no --seed-file", command);
	/* A sealed draw is checked by replaying its event. */
	if (o->seed_file && o->no_replay)
		cli_usage_error("--seed-file checks the draws by replaying "
		    "them: it does not go with --no-replay");
}

/* seal: a new secret seed for this station, and its commitment. */
static int
cmd_seal(struct opts *o, int argc, char **argv)
{
	struct db *db;
	char hex[SEAL_HEX + 1], why[256];

	(void)argv;
	only_options(o, "seal", 0, 0, 0);
	if (argc != 0)
		cli_usage_error("seal takes no arguments");
	db = cli_db_open(o->db);
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
	if (argc != 0)
		cli_usage_error("reveal takes no arguments");
	db = cli_db_open(o->db);
	if (o->kind != NULL) {
		struct reveal_line l = { .kind = o->kind,
		    .json = o->fmt == OUT_JSON };
		int64_t log;

		db_begin_read(db);
		if (strcmp(o->kind, "rolls") == 0) {
			log = db_key_base(db) >> DB_KEY_BITS;
			snprintf(l.log, sizeof l.log, "%08" PRIx64,
			    (uint64_t)log);
		} else {
			log = db_key_parse(db, o->log);
			/* Its full form, which reads alike at any station. */
			snprintf(l.log, sizeof l.log, "%08" PRIx64 "-%" PRId64,
			    (uint64_t)(log >> DB_KEY_BITS),
			    log & DB_KEY_MAX_NO);
		}
		if (seal_reveal_log(db, o->kind, log, put_key, &l) == 0)
			db_die(db, "%s %s draws under no seal of this station",
			    o->kind, strcmp(o->kind, "rolls") == 0 ? l.log :
			    o->log);
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

/* The text of a seed file, read whole (- for stdin). */
static char *
read_seed_file(const char *path)
{
	FILE *fp = stdin;
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[4096];

	if (strcmp(path, "-") != 0) {
		fp = fopen(path, "r");
		if (fp == NULL)
			err(1, "%s", path);
	}
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

/* ---- verify and head (trust/verify.h, db/chain.h) ---- */

static int
cmd_verify(struct opts *o, int argc, char **argv)
{
	struct verify_ask a = { .db = o->db, .json = o->fmt == OUT_JSON,
	    .no_replay = o->no_replay, .kind = o->kind, .log = o->log,
	    .seed_name = o->seed_file };
	char digits[65], why[300], *text = NULL;
	int rc;

	(void)argv;
	only_options(o, "verify", 0, 0, 0);
	if (argc > 0)
		cli_usage_error("verify takes no arguments (--combat ID, "
		    "--duel ID, --game ID or --all)");
	if (o->all && o->kind)
		cli_usage_error("verify takes --all or --%s, not both",
		    o->kind);
	if (o->head != NULL) {
		if (verify_head_digits(o->head, digits, why, sizeof why) != 0)
			cli_usage_error("%s", why);
		a.head = digits;
	}
	if (o->seed_file != NULL)
		a.seed_text = text = read_seed_file(o->seed_file);
	rc = verify_run(&a);
	free(text);
	return rc;
}

struct heads {
	const struct opts *o;
	int64_t		 only;		/* --combat ID etc.: that log */
	int		 first;
	int		 printed;
};

/* A hash in groups of four digits, the first 32 of them: to read out. */
static void
print_short(const unsigned char hash[CHAIN_HASH_LEN])
{
	char hex[CHAIN_HEX_LEN];

	chain_hex(hash, hex);
	for (int i = 0; i < 32; i += 4)
		printf("%s%.4s", i ? " " : "", hex + i);
}

static void
put_head(void *arg, const char *kind, int64_t log, const struct chain_head *h)
{
	struct heads *hs = arg;
	char name[64], hex[CHAIN_HEX_LEN];

	if (hs->o->kind != NULL && log != hs->only)
		return;
	hs->printed = 1;
	if (hs->o->fmt == OUT_JSON) {
		chain_hex(h->hash, hex);
		printf("%s{\"kind\":\"%s\",\"log\":%s,\"seq\":%" PRId64
		    ",\"hash\":\"%s\",\"migrated\":", hs->first ? "" : ",",
		    kind, verify_log_json(kind, log, name, sizeof name), h->seq,
		    hex);
		if (h->migrated > 0)
			printf("%" PRId64 "}", h->migrated);
		else
			printf("null}");
		hs->first = 0;
		return;
	}
	printf("%-20s %s %-6" PRId64 " ", verify_log_text(kind, log, name,
	    sizeof name), strcmp(kind, "rolls") == 0 ? "roll " : "event",
	    h->seq);
	print_short(h->hash);
	if (h->migrated > 0)
		printf("  (chained by the migration up to %" PRId64 ")",
		    h->migrated);
	putchar('\n');
}

static int
cmd_head(struct opts *o, int argc, char **argv)
{
	struct heads hs = { .o = o, .first = 1 };
	unsigned char all[CHAIN_HASH_LEN];
	char hex[CHAIN_HEX_LEN];
	struct db *db;
	int64_t n;

	(void)argv;
	only_options(o, "head", 0, 0, 0);
	if (argc > 0)
		cli_usage_error("head takes no arguments (--combat ID, "
		    "--duel ID or --game ID)");
	if (o->all)
		cli_usage_error("head takes no --all: without a log it "
		    "prints them all");
	if (o->head)
		cli_usage_error("head takes no --head");
	if (o->no_replay)
		cli_usage_error("head takes no --no-replay");
	db = cli_db_open(o->db);
	db_begin_read(db);
	if (o->kind != NULL)
		hs.only = db_key_parse(db, o->log);
	if (o->fmt == OUT_JSON)
		printf("{\"heads\":[");
	n = chain_heads(db, o->kind, put_head, &hs, all);
	if (o->kind != NULL && !hs.printed)
		db_die(db, "%s %s has no chain head: no such %s, or none of "
		    "its events are written yet", o->kind, o->log, o->kind);
	db_commit(db);
	chain_hex(all, hex);
	if (o->fmt == OUT_JSON)
		printf("],\"all\":\"%s\"}\n", o->kind ? "" : hex);
	else if (o->kind == NULL) {
		char logs[32];

		snprintf(logs, sizeof logs, "(%" PRId64 " log%s)", n,
		    n == 1 ? "" : "s");
		printf("%-20s %-12s ", "all heads", logs);
		print_short(all);
		putchar('\n');
	}
	db_close(db);
	return 0;
}

/* serve: the live boards in a browser (web/serve.h). */
static int
cmd_serve(struct opts *o, int argc, char **argv)
{
	struct serve_opts so = { o->db, o->listen, o->cols,
	    o->public_boards };

	(void)argv;
	if (argc != 0)
		cli_usage_error("serve takes no arguments");
	if (o->fmt != OUT_TABLE)
		cli_usage_error("serve serves pages, not JSON or CSV");
	return serve_run(&so);
}

/*
 * The commands, and whether each has a CSV form: the others print one
 * record or a report, for people or in JSON, and refuse --csv rather
 * than print their text under it.  changes has none either, but its
 * sub-commands refuse --csv each in its own words.
 */
static const struct command {
	const char	*name;
	int		(*fn)(struct opts *, int, char **);
	int		 csv;
} commands[] = {
	{ "station", cmd_station, 1 },
	{ "changes", cmd_changes, 1 },
	{ "merge", cmd_merge, 0 },
	{ "verify", cmd_verify, 0 },
	{ "head", cmd_head, 0 },
	{ "seal", cmd_seal, 0 },
	{ "reveal", cmd_reveal, 0 },
	{ "serve", cmd_serve, 0 },
};

/* What refkit completes (term/complete.h): it names no records. */
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
	{ "verify", "", NULL },
	{ "head", "", NULL },
	{ "seal", "", NULL },
	{ "reveal", "", NULL },
	{ "serve", "", NULL },
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
	{ "duel", required_argument, NULL, 'D' },
	{ "game", required_argument, NULL, 'G' },
	{ "all", no_argument, NULL, 'A' },
	{ "head", required_argument, NULL, 'H' },
	{ "no-replay", no_argument, NULL, 'N' },
	{ "rolls", no_argument, NULL, 'L' },
	{ "seed-file", required_argument, NULL, 'F' },
	{ "listen", required_argument, NULL, 'I' },
	{ "cols", required_argument, NULL, 'W' },
	{ "public", required_argument, NULL, 'U' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/* A log named by --combat (C), --duel (D), --game (G) or --rolls (L). */
static void
log_option(struct opts *o, int ch, const char *arg)
{
	const char *kind = ch == 'C' ? "combat" : ch == 'D' ? "duel" :
	    ch == 'G' ? "game" : "rolls";

	if (o->kind != NULL)
		cli_usage_error("one log at a time: --%s and --%s", o->kind,
		    kind);
	o->kind = kind;
	if (ch != 'L')
		o->log = cli_key_arg(ch == 'C' ? "--combat" : ch == 'D' ?
		    "--duel" : "--game", arg);
}

/* One option of getopt_long's, into o; 0 if it is none of its own. */
static int
set_option(void *op, int ch, const char *arg)
{
	struct opts *o = op;
	char why[128];

	switch (ch) {
	case 'd':
		o->db = arg;
		break;
	case 'o':
		o->output = arg;
		break;
	case 'S':
		o->since = cli_int_arg("--since", arg, 0, INT64_MAX);
		o->have_since = 1;
		break;
	case 'P':
		if (strcmp(arg, "mine") == 0)
			o->prefer = EXCHANGE_MINE;
		else if (strcmp(arg, "theirs") == 0)
			o->prefer = EXCHANGE_THEIRS;
		else
			cli_usage_error("--prefer takes mine or theirs, got "
			    "'%s'", q(arg));
		o->have_prefer = 1;
		break;
	case 'R':
		o->resolve = arg;
		break;
	case 'T':
		o->resolutions_out = arg;
		break;
	case 'C':
	case 'D':
	case 'G':
	case 'L':
		log_option(o, ch, arg);
		break;
	case 'A':
		o->all = 1;
		break;
	case 'H':
		o->head = arg;
		break;
	case 'N':
		o->no_replay = 1;
		break;
	case 'F':
		o->seed_file = arg;
		break;
	case 'I':
		o->listen = arg;
		break;
	case 'W':
		o->cols = (int)cli_int_arg("--cols", arg, 30, 200);
		break;
	case 'U':
		if (strcmp(arg, "boards") != 0)
			cli_usage_error("--public takes boards, got '%s'",
			    q(arg));
		o->public_boards = 1;
		break;
	case 's':
		if (db_station_name_check(arg, why, sizeof why) != 0)
			cli_usage_error("--station: the station name %s, got "
			    "'%s'", why, q(arg));
		o->station = arg;
		break;
	default:
		return 0;
	}
	return 1;
}

static const struct cli_opts options = { ":d:s:o:jchV", longopts,
    usage_text, set_option };

int
main(int argc, char **argv)
{
	struct opts o = { .fmt = OUT_TABLE };
	const struct command *c;
	int n;

	cli_init(argc, argv);
	complete_answer(argc, argv, &completion, longopts);
	n = cli_options(&options, argc, argv, &o, &o.fmt);
	argc -= n;
	argv += n;
	db_station_name(o.station);
	if (argc == 0)
		cli_usage_error("no command given (station, changes, merge, "
		    "verify, head, seal, reveal, serve)");
	no_seal_options(&o, argv[0]);
	if ((o.listen != NULL || o.cols != 0 || o.public_boards) &&
	    strcmp(argv[0], "serve") != 0)
		cli_usage_error("--listen, --public and --cols go with serve "
		    "only");
	c = &commands[cli_command(argv[0], commands, sizeof commands[0],
	    sizeof commands / sizeof commands[0])];
	if (o.fmt == OUT_CSV && !c->csv)
		cli_usage_error("%s prints for people or --json, not CSV",
		    c->name);
	return c->fn(&o, argc - 1, argv + 1);
}
