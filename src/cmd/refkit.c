/*
 * refkit - what concerns a refkit database as a whole rather than one
 * game system: which station it is, and the exchange of its changes with
 * other stations (so far, what a changes file holds).  A thin layer over
 * the core library.  See refkit(1).
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/changes_show.h"
#include "core/cli.h"
#include "core/db.h"
#include "core/out.h"
#include "core/station.h"
#include "core/util.h"

struct opts {
	const char	*db;
	const char	*station;
	enum out_format	 fmt;
};

static const char usage_text[] =
"usage: refkit [--db PATH] [--station NAME] [--json | --csv] COMMAND [ARG...]\n"
"\n"
"commands:\n"
"  station              this database's station: its id and name\n"
"  station list         every station this database knows\n"
"  station rename NAME  give this station another name\n"
"  changes show FILE    what a changes file holds (FILE - for stdin);\n"
"                       needs no database\n"
"\n"
"  -d, --db PATH        database (default $REFKIT_DB, else\n"
"                       $XDG_DATA_HOME/refkit/refkit.db)\n"
"  -s, --station NAME   the name of a station created now (default\n"
"                       $REFKIT_STATION, else the host name)\n"
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

	if (argc == 0 || strcmp(argv[0], "show") != 0)
		cli_usage_error("changes takes 'show FILE'%s%s%s",
		    argc ? ", got '" : "", argc ? q(argv[0]) : "",
		    argc ? "'" : "");
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

static const struct command {
	const char	*name;
	int		(*fn)(struct opts *, int, char **);
} commands[] = {
	{ "station", cmd_station },
	{ "changes", cmd_changes },
};

static const struct option longopts[] = {
	{ "db", required_argument, NULL, 'd' },
	{ "station", required_argument, NULL, 's' },
	{ "json", no_argument, NULL, 'j' },
	{ "csv", no_argument, NULL, 'c' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

int
main(int argc, char **argv)
{
	struct opts o = { NULL, NULL, OUT_TABLE };
	char why[128];
	int ch;

	cli_init(argc, argv);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":d:s:jchV", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'd':
			o.db = optarg;
			break;
		case 's':
			if (db_station_name_check(optarg, why, sizeof why) != 0)
				cli_usage_error("--station: the station name "
				    "%s, got '%s'", why, q(optarg));
			o.station = optarg;
			break;
		default:
			cli_common_option(ch, argv, usage_text, &o.fmt);
			break;
		}
	}
	argc -= optind;
	argv += optind;
	db_station_name(o.station);
	if (argc == 0)
		cli_usage_error("no command given (station, changes)");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(argv[0], commands[i].name) == 0)
			return commands[i].fn(&o, argc - 1, argv + 1);
	cli_usage_error("unknown command '%s'", q(argv[0]));
}
