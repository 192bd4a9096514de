/*
 * crs-stats - CRS character sheets: secondary stats from primary stats,
 * the roster of characters with their items and powers, import and
 * export.  A thin layer over the core library: parse the command line,
 * call the library, print.  See crs-stats(1).
 */
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cli.h"
#include "db/db.h"
#include "paper/page.h"
#include "paper/sheetrun.h"
#include "crs/complete.h"
#include "crs/import.h"
#include "crs/text.h"
#include "crs/item.h"
#include "base/out.h"
#include "crs/roster.h"
#include "crs/sheet.h"
#include "crs/page.h"
#include "crs/printed.h"
#include "crs/stats.h"
#include "base/strbuf.h"
#include "base/util.h"

struct opts {
	const char		*db;
	enum out_format		 fmt;
	enum stats_rounding	 rounding;
	int			 replace;
	enum import_format	 informat;
	int			 informat_set;
	const char		*output;	/* sheets -o */
	int			 paper;		/* enum page_paper */
	int			 per_page;	/* 1 or 2 */
	int			 all;		/* sheets --all */
	int			 sheet_opts;	/* any of the four given */
};

static const char usage_text[] =
"usage: crs-stats [--db PATH] [--json | --csv] [--rounding whole|per-term]\n"
"                 COMMAND [ARG...]\n"
"\n"
"commands:\n"
"  calc KEY=VALUE...            secondary stats from primary stats\n"
"  add NAME [KEY=VALUE...]      add a character\n"
"  set NAME KEY=VALUE...        change a character's fields\n"
"  rm NAME                      remove a character\n"
"  show NAME                    a character's sheet\n"
"  list                         every character's secondary stats\n"
"  item add|set NAME [KEY=VALUE...], item rm NAME, item list\n"
"  power add|set NAME [KEY=VALUE...], power rm NAME, power list\n"
"  give CHARACTER ITEM-OR-POWER give an item or teach a power\n"
"  take CHARACTER ITEM-OR-POWER take it back\n"
"  import [--replace] [--format csv|json] FILE   (- for stdin)\n"
"  export [--format csv|json]\n"
"  sheets NAME...|--all -o FILE.pdf [--paper a4|letter] [--per-page 1|2]\n"
"                               print-ready sheets\n"
"  verify-sheet CODE            whether a printed sheet is still true\n"
"\n"
"keys: ENE STR INT CUN AGI CON CHA LUC LEVEL (primary), OR DR MIND LIFE\n"
"IN EM LB (given directly), player, notes, name, items, powers\n"
"\n"
"  -d, --db PATH        database (default $REFKIT_DB, else\n"
"                       $XDG_DATA_HOME/refkit/refkit.db)\n"
"  -j, --json           JSON output\n"
"  -c, --csv            CSV output\n"
"  -r, --rounding MODE  whole (default) or per-term truncation\n"
"      --replace        import: replace characters already present\n"
"      --format FMT     import/export: csv or json\n"
"  -o, --output FILE    sheets: the PDF file to write\n"
"      --all            sheets: every character\n"
"      --paper PAPER    sheets: a4 (default) or letter\n"
"      --per-page N     sheets: 1 (default) or 2 sheets to a page\n"
"  -h, --help           show this help\n"
"  -V, --version        show the version\n";

/* Messages quote user text through this, so it cannot drive a terminal. */
#define q util_q

/* Applies KEY=VALUE arguments to a sheet; exits 1 on a bad one. */
static void
apply_sheet_args(struct db *db, struct sheet *sh, int argc, char **argv)
{
	char why[160];

	for (int i = 0; i < argc; i++) {
		const char *key, *value;
		char *buf;
		int f;

		if (util_split_kv(argv[i], &buf, &key, &value) != 0)
			cli_usage_error("'%s' is not KEY=VALUE", q(argv[i]));
		if ((f = sheet_field_lookup(key)) < 0) {
			if (db)
				db_rollback(db);
			errx(1, "unknown field '%s' (known: name, player, "
			    "notes, ENE STR INT CUN AGI CON CHA LUC LEVEL, "
			    "OR DR MIND LIFE IN EM LB, items, powers)",
			    q(key));
		}
		if (sheet_set_field(sh, f, value, why, sizeof why) != 0) {
			if (db)
				db_rollback(db);
			errx(1, "'%s' %s, got '%s'", sheet_field_name(f), why,
			    q(value));
		}
		free(buf);
	}
}

/* calc: no database, just the formulas. */
static int
cmd_calc(struct opts *o, int argc, char **argv)
{
	struct sheet sh;
	struct sheet_stat st[S_COUNT];
	const char *cols[S_COUNT];
	struct out *out;

	if (argc == 0)
		cli_usage_error("calc needs KEY=VALUE arguments");
	sheet_init(&sh);
	for (int i = 0; i < argc; i++) {
		/* calc reads primary stats only: nothing else means anything. */
		size_t keylen = strcspn(argv[i], "=");
		char key[256];

		if (argv[i][keylen] != '=' || keylen == 0)
			continue;	/* apply_sheet_args reports it */
		snprintf(key, sizeof key, "%.*s", (int)keylen, argv[i]);
		if (stats_primary_lookup(key) < 0)
			errx(1, "unknown stat '%s' (calc takes ENE STR INT "
			    "CUN AGI CON CHA LUC LEVEL)", q(key));
	}
	apply_sheet_args(NULL, &sh, argc, argv);
	sheet_secondary(&sh, o->rounding, NULL, 0, st);
	if (o->fmt == OUT_TABLE) {
		for (int s = 0; s < S_COUNT; s++)
			if (st[s].value == STATS_ABSENT)
				printf("%-4s  -\n", stats_secondary_name(s));
			else
				printf("%-4s  %d\n", stats_secondary_name(s),
				    st[s].value);
	} else {
		for (int s = 0; s < S_COUNT; s++)
			cols[s] = stats_secondary_name(s);
		out = out_new(stdout, o->fmt, OUT_OBJECT, S_COUNT, cols);
		for (int s = 0; s < S_COUNT; s++)
			if (st[s].value == STATS_ABSENT)
				out_null(out);
			else
				out_int(out, st[s].value);
		out_end_row(out);
		out_free(out);
	}
	sheet_release(&sh);
	return 0;
}

/*
 * The full name of the character, item or power that typed names
 * (roster_name: exact, but for case, or a unique prefix); exits 1 with
 * the candidates or the nearest names.  The names found are kept here
 * until exit, whatever path leaves.
 */
static char **named_kept;
static size_t named_n;

static char *
named(struct db *db, enum roster_table table, const char *typed)
{
	char why[600], *full = roster_name(db, table, typed, why, sizeof why);

	if (full == NULL)
		db_die(db, "%s", why);
	named_kept = xreallocarray(named_kept, named_n + 1,
	    sizeof *named_kept);
	named_kept[named_n++] = full;
	return full;
}

/* Reports a roster result that is not ROSTER_OK and exits 1. */
static void
roster_fail(struct db *db, enum roster_result r, const char *name,
    const char *missing)
{
	switch (r) {
	case ROSTER_NOT_FOUND:
		db_die(db, "no character named '%s'", q(name));
	case ROSTER_EXISTS:
		db_die(db, "a character named '%s' already exists", q(name));
	case ROSTER_NO_ITEM:
		db_die(db, "no item named '%s'", q(missing));
	case ROSTER_NO_POWER:
		db_die(db, "no power named '%s'", q(missing));
	case ROSTER_OK:
	case ROSTER_TWICE:
		break;
	}
}

/* add and set: one character, one transaction. */
static int
cmd_add_set(struct opts *o, int argc, char **argv, int adding)
{
	struct db *db;
	struct roster_writer w;
	struct sheet sh;
	enum roster_result r;
	const char *missing = NULL;
	char why[160], *name = NULL;
	int64_t id = 0;

	if (argc < 1 || (!adding && argc < 2))
		cli_usage_error("%s needs NAME%s", adding ? "add" : "set",
		    adding ? " [KEY=VALUE...]" : " KEY=VALUE...");
	db = db_open(o->db);
	db_begin(db);
	sheet_init(&sh);
	if (adding) {
		if (sheet_set_field(&sh, SHEET_F_NAME, argv[0], why,
		    sizeof why) != 0)
			db_die(db, "'name' %s, got '%s'", why, q(argv[0]));
	} else {
		name = named(db, ROSTER_CHARACTER, argv[0]);
		if (roster_get(db, name, &sh, &id) != ROSTER_OK)
			roster_fail(db, ROSTER_NOT_FOUND, name, NULL);
	}
	apply_sheet_args(db, &sh, argc - 1, argv + 1);
	roster_writer_init(&w, db);
	r = roster_write(&w, &sh, adding ? ROSTER_INSERT : ROSTER_UPDATE, id,
	    1, &missing);
	roster_writer_release(&w);
	if (r != ROSTER_OK)
		roster_fail(db, r, sh.name, missing);
	db_commit(db);
	sheet_release(&sh);
	db_close(db);
	return 0;
}

static int
cmd_add(struct opts *o, int argc, char **argv)
{
	return cmd_add_set(o, argc, argv, 1);
}

static int
cmd_set(struct opts *o, int argc, char **argv)
{
	return cmd_add_set(o, argc, argv, 0);
}

static int
cmd_rm(struct opts *o, int argc, char **argv)
{
	struct db *db;
	char *name;

	if (argc != 1)
		cli_usage_error("rm needs exactly one NAME");
	db = db_open(o->db);
	db_begin(db);
	name = named(db, ROSTER_CHARACTER, argv[0]);
	if (roster_remove(db, name) != ROSTER_OK)
		roster_fail(db, ROSTER_NOT_FOUND, name, NULL);
	db_commit(db);
	db_close(db);
	return 0;
}

/* The field names of show --json and --csv. */
static const char *const show_cols[] = {
	"name", "player", "notes",
	"ENE", "STR", "INT", "CUN", "AGI", "CON", "CHA", "LUC", "LEVEL",
	"OR", "DR", "MIND", "LIFE", "IN", "EM", "LB",
	"OR_source", "DR_source", "MIND_source", "LIFE_source", "IN_source",
	"EM_source", "LB_source",
	"OR_effective", "DR_effective", "MIND_effective", "LIFE_effective",
	"IN_effective", "EM_effective", "LB_effective",
	"items", "powers"
};

static void
out_stat(struct out *out, int v)
{
	if (v == STATS_ABSENT)
		out_null(out);
	else
		out_int(out, v);
}

static int
cmd_show(struct opts *o, int argc, char **argv)
{
	struct db *db;
	struct sheet sh;
	struct sheet_stat st[S_COUNT];
	struct item *items;
	size_t nitems;
	int64_t id;
	struct out *out;
	char *name;

	if (argc != 1)
		cli_usage_error("show needs exactly one NAME");
	db = db_open(o->db);
	sheet_init(&sh);
	/* One read transaction, so the sheet and its items agree. */
	db_begin_read(db);
	name = named(db, ROSTER_CHARACTER, argv[0]);
	if (roster_get(db, name, &sh, &id) != ROSTER_OK)
		roster_fail(db, ROSTER_NOT_FOUND, name, NULL);
	items = roster_held_items(db, id, &nitems);
	db_rollback(db);
	sheet_secondary(&sh, o->rounding, items, nitems, st);
	if (o->fmt == OUT_TABLE)
		crstext_sheet(stdout, &sh, st, items, nitems);
	else {
		out = out_new(stdout, o->fmt, OUT_OBJECT,
		    (int)(sizeof show_cols / sizeof show_cols[0]), show_cols);
		out_text(out, sh.name);
		out_text(out, sh.player);
		out_text(out, sh.notes);
		for (int p = 0; p < P_COUNT; p++)
			out_stat(out, sh.primary[p]);
		for (int s = 0; s < S_COUNT; s++)
			out_stat(out, st[s].value);
		for (int s = 0; s < S_COUNT; s++)
			out_text(out, crstext_sources[st[s].source]);
		for (int s = 0; s < S_COUNT; s++)
			out_stat(out, st[s].effective);
		out_list(out, sh.items, sh.nitems);
		out_list(out, sh.powers, sh.npowers);
		out_end_row(out);
		out_free(out);
	}
	roster_items_free(items, nitems);
	sheet_release(&sh);
	db_close(db);
	return 0;
}

/* The stable field names of list --json/--csv, import and export. */
static const char *const sheet_cols[SHEET_F_COUNT] = {
	"name", "player", "notes",
	"ENE", "STR", "INT", "CUN", "AGI", "CON", "CHA", "LUC", "LEVEL",
	"OR", "DR", "MIND", "LIFE", "IN", "EM", "LB", "items", "powers"
};

static const char *const list_table_cols[] = {
	"name", "player", "OR", "DR", "MIND", "LIFE", "IN", "EM", "LB"
};

struct list_ctx {
	struct out		*out;
	enum out_format		 fmt;
	enum stats_rounding	 rounding;
	int			 export;	/* given stats only */
};

static int
list_one(void *arg, const struct sheet *sh)
{
	struct list_ctx *c = arg;
	struct sheet_stat st[S_COUNT];

	sheet_secondary(sh, c->rounding, NULL, 0, st);
	out_text(c->out, sh->name);
	out_text(c->out, sh->player);
	if (c->fmt == OUT_TABLE) {
		for (int s = 0; s < S_COUNT; s++)
			out_stat(c->out, st[s].value);
		out_end_row(c->out);
		return 0;
	}
	out_text(c->out, sh->notes);
	for (int p = 0; p < P_COUNT; p++)
		out_stat(c->out, sh->primary[p]);
	for (int s = 0; s < S_COUNT; s++)
		out_stat(c->out, c->export ? sh->given[s] : st[s].value);
	out_list(c->out, sh->items, sh->nitems);
	out_list(c->out, sh->powers, sh->npowers);
	out_end_row(c->out);
	return 0;
}

static void
list_or_export(struct opts *o, enum out_format fmt, int export)
{
	struct db *db = db_open(o->db);
	struct list_ctx c = { NULL, fmt, o->rounding, export };

	if (fmt == OUT_TABLE)
		c.out = out_new(stdout, fmt, OUT_ROWS,
		    (int)(sizeof list_table_cols / sizeof list_table_cols[0]),
		    list_table_cols);
	else
		c.out = out_new(stdout, fmt, OUT_ROWS, SHEET_F_COUNT,
		    sheet_cols);
	db_begin_read(db);
	roster_each(db, list_one, &c);
	db_rollback(db);
	out_free(c.out);
	db_close(db);
}

static int
cmd_list(struct opts *o, int argc, char **argv)
{
	(void)argv;
	if (argc != 0)
		cli_usage_error("list takes no arguments");
	list_or_export(o, o->fmt, 0);
	return 0;
}

static int
cmd_export(struct opts *o, int argc, char **argv)
{
	(void)argv;
	if (argc != 0)
		cli_usage_error("export takes no arguments");
	if (o->informat_set)
		o->fmt = o->informat == IMPORT_JSON ? OUT_JSON : OUT_CSV;
	list_or_export(o, o->fmt == OUT_JSON ? OUT_JSON : OUT_CSV, 1);
	return 0;
}

/* What an import says of a row it refuses (the reader adds where). */
static char *
import_refusal(enum roster_result r, const char *name)
{
	switch (r) {
	case ROSTER_EXISTS:
		return xasprintf("'name' '%s' is already in the roster (use "
		    "--replace to replace it)", q(name));
	case ROSTER_TWICE:
		return xasprintf("'name' '%s' appears twice in the file",
		    q(name));
	case ROSTER_NO_ITEM:
		return xasprintf("'items': no item named '%s'", q(name));
	case ROSTER_NO_POWER:
		return xasprintf("'powers': no power named '%s'", q(name));
	case ROSTER_OK:
	case ROSTER_NOT_FOUND:
		break;
	}
	return xstrdup("cannot import");
}

static char *
import_one(void *arg, struct sheet *sh,
    const unsigned char present[SHEET_F_COUNT], const char *where)
{
	struct roster_import *im = arg;
	const char *missing = NULL;
	enum roster_result r;
	char *msg = NULL;

	r = roster_import_stage(im, sh, present[SHEET_F_ITEMS] ||
	    present[SHEET_F_POWERS], where, &missing);
	if (r != ROSTER_OK)
		msg = import_refusal(r, r == ROSTER_NO_ITEM ||
		    r == ROSTER_NO_POWER ? missing : sh->name);
	sheet_release(sh);
	return msg;
}

/*
 * import: the reader stages each row through roster_import, taking no
 * write lock, then one short transaction writes them all.
 */
static int
cmd_import(struct opts *o, int argc, char **argv)
{
	struct db *db;
	struct roster_import im;
	enum roster_result r;
	FILE *fp;
	const char *file;
	char *msg;
	size_t len;
	long added, replaced;
	enum import_format fmt = o->informat;

	if (argc != 1)
		cli_usage_error("import needs exactly one FILE (- for stdin)");
	file = argv[0];
	if (!o->informat_set && (len = strlen(file)) > 5 &&
	    util_streq_ci(file + len - 5, ".json"))
		fmt = IMPORT_JSON;
	else if (!o->informat_set && len > 4 &&
	    util_streq_ci(file + len - 4, ".csv"))
		fmt = IMPORT_CSV;
	if (strcmp(file, "-") == 0) {
		fp = stdin;
		file = "<stdin>";
	} else if ((fp = fopen(file, "r")) == NULL)
		err(1, "cannot open '%s'", q(file));
	db = db_open(o->db);
	roster_import_init(&im, db, o->replace);
	msg = import_run(fp, file, fmt, isatty(STDERR_FILENO), import_one,
	    &im);
	/* A row before the reader's error may be at fault (on a server). */
	r = msg == NULL ? roster_import_commit(&im) : roster_import_check(&im);
	if (r != ROSTER_OK) {
		char *why = import_refusal(r, im.fault_name);

		free(msg);
		msg = xasprintf("%s: %s: %s", file, im.fault_where, why);
		free(why);
	}
	added = im.added;
	replaced = im.replaced;
	roster_import_release(&im);
	if (fp != stdin)
		fclose(fp);
	if (msg != NULL)
		db_die(db, "%s", msg);
	db_close(db);
	if (o->fmt == OUT_TABLE)
		printf("imported %ld character%s (%ld new, %ld replaced)\n",
		    added + replaced, added + replaced == 1 ? "" : "s", added,
		    replaced);
	return 0;
}

/* give and take: resolve the name to an item or a power. */
static int
cmd_give_take(struct opts *o, int argc, char **argv, int giving)
{
	struct db *db;
	struct sheet sh;
	struct item it;
	struct power pw;
	struct roster_writer w;
	const char *missing;
	char *thing, *name;
	int is_item, is_power, f;
	int64_t id;
	char why[160];

	if (argc != 2)
		cli_usage_error("%s needs CHARACTER ITEM-OR-POWER",
		    giving ? "give" : "take");
	db = db_open(o->db);
	db_begin(db);
	sheet_init(&sh);
	item_init(&it, "");
	item_power_init(&pw, "");
	name = named(db, ROSTER_CHARACTER, argv[0]);
	thing = named(db, ROSTER_ITEM_OR_POWER, argv[1]);
	if (roster_get(db, name, &sh, &id) != ROSTER_OK)
		roster_fail(db, ROSTER_NOT_FOUND, name, NULL);
	is_item = roster_item_get(db, thing, &it, NULL) == ROSTER_OK;
	is_power = roster_power_get(db, thing, &pw, NULL) == ROSTER_OK;
	if (!is_item && !is_power)
		db_die(db, "no item or power named '%s'", q(thing));
	if (is_item && is_power)
		db_die(db, "'%s' is both an item and a power; remove or rename "
		    "one of them", q(thing));
	f = is_item ? SHEET_F_ITEMS : SHEET_F_POWERS;
	if (giving) {
		if (sheet_add_name(&sh, f, thing, why, sizeof why) != 0)
			db_die(db, "'%s' already %s '%s'", q(sh.name),
			    is_item ? "holds" : "knows", q(thing));
	} else {
		char **list = is_item ? sh.items : sh.powers;
		size_t *n = is_item ? &sh.nitems : &sh.npowers;
		size_t i;

		for (i = 0; i < *n && strcmp(list[i], thing) != 0; i++)
			;
		if (i == *n)
			db_die(db, "'%s' does not %s '%s'", q(sh.name),
			    is_item ? "hold" : "know", q(thing));
		free(list[i]);
		list[i] = list[--*n];
	}
	roster_writer_init(&w, db);
	if (roster_write(&w, &sh, ROSTER_UPDATE, id, 1, &missing) !=
	    ROSTER_OK)
		db_fatal(db, "cannot update the holdings");
	roster_writer_release(&w);
	db_commit(db);
	item_release(&it);
	item_power_release(&pw);
	sheet_release(&sh);
	db_close(db);
	return 0;
}

static int
cmd_give(struct opts *o, int argc, char **argv)
{
	return cmd_give_take(o, argc, argv, 1);
}

static int
cmd_take(struct opts *o, int argc, char **argv)
{
	return cmd_give_take(o, argc, argv, 0);
}

/* item and power: add, set, rm, list. */

static const char *const item_cols[] = {
	"name", "or", "dr", "mind", "pick", "offense", "defense", "range",
	"use", "full-or", "notes"
};

static const char *const power_cols[] = {
	"name", "em", "picks", "bonus", "target", "defend", "notes"
};

static int
item_row(void *arg, const struct item *it)
{
	struct out *out = arg;

	out_text(out, it->name);
	for (int m = 0; m < ITEM_MOD_COUNT; m++)
		out_int(out, it->mod[m]);
	out_text(out, item_range_name(it->range));
	out_text(out, item_use_name(it->use));
	out_text(out, it->full_or ? "yes" : "no");
	out_text(out, it->notes);
	out_end_row(out);
	return 0;
}

static int
power_row(void *arg, const struct power *pw)
{
	struct out *out = arg;

	out_text(out, pw->name);
	out_int(out, pw->em);
	out_int(out, pw->picks);
	out_int(out, pw->bonus);
	out_text(out, item_power_target_name(pw->target));
	out_text(out, item_power_defend_name(pw->defend));
	out_text(out, pw->notes);
	out_end_row(out);
	return 0;
}

/* Applies KEY=VALUE arguments to an item or a power. */
static void
apply_thing_args(struct db *db, int is_item, void *thing, int argc,
    char **argv)
{
	char why[200];

	for (int i = 0; i < argc; i++) {
		const char *key, *value;
		char *buf;
		int rc;

		if (util_split_kv(argv[i], &buf, &key, &value) != 0)
			cli_usage_error("'%s' is not KEY=VALUE", q(argv[i]));
		rc = is_item ? item_set(thing, key, value, why, sizeof why) :
		    item_power_set(thing, key, value, why, sizeof why);
		if (rc == ITEM_SET_UNKNOWN)
			db_die(db, "%s", why);
		if (rc == ITEM_SET_BAD)
			db_die(db, "'%s' %s, got '%s'", key, why, q(value));
		free(buf);
	}
}

/* item list and power list: every item, or every power, a row each. */
static int
thing_list(struct opts *o, int argc, int is_item)
{
	const char *kind = is_item ? "item" : "power";
	struct db *db;
	struct out *out;

	if (argc != 1)
		cli_usage_error("%s list takes no arguments", kind);
	db = db_open(o->db);
	if (is_item) {
		out = out_new(stdout, o->fmt, OUT_ROWS, 11, item_cols);
		roster_item_each(db, item_row, out);
	} else {
		out = out_new(stdout, o->fmt, OUT_ROWS, 7, power_cols);
		roster_power_each(db, power_row, out);
	}
	out_free(out);
	db_close(db);
	return 0;
}

/* item rm and power rm: removes the one that argv[1] names. */
static int
thing_rm(struct opts *o, int argc, char **argv, int is_item)
{
	const char *kind = is_item ? "item" : "power";
	struct db *db;
	enum roster_result r;
	char *name;

	if (argc != 2)
		cli_usage_error("%s rm needs exactly one NAME", kind);
	db = db_open(o->db);
	db_begin(db);
	name = named(db, is_item ? ROSTER_ITEM : ROSTER_POWER, argv[1]);
	r = is_item ? roster_item_remove(db, name) :
	    roster_power_remove(db, name);
	if (r != ROSTER_OK)
		db_die(db, "no %s named '%s'", kind, q(name));
	db_commit(db);
	db_close(db);
	return 0;
}

static int
cmd_thing(struct opts *o, int argc, char **argv, int is_item)
{
	const char *kind = is_item ? "item" : "power";
	const char *sub;
	struct db *db;
	struct item it;
	struct power pw;
	enum roster_result r;
	int64_t id = 0;
	char why[160], *full = NULL;

	if (argc < 1)
		cli_usage_error("%s needs add, set, rm or list", kind);
	sub = argv[0];
	if (strcmp(sub, "list") == 0)
		return thing_list(o, argc, is_item);
	if (strcmp(sub, "rm") == 0)
		return thing_rm(o, argc, argv, is_item);
	if (strcmp(sub, "add") != 0 && strcmp(sub, "set") != 0) {
		char what[32];

		snprintf(what, sizeof what, "%s command", kind);
		cli_unknown(what, sub, (const char *const[]){ "add", "set",
		    "rm", "list" }, 4);
	}
	if (argc < 2 || (sub[0] == 's' && argc < 3))
		cli_usage_error("%s %s needs NAME%s", kind, sub,
		    sub[0] == 's' ? " KEY=VALUE..." : " [KEY=VALUE...]");
	if (item_check_name(argv[1], why, sizeof why) != 0)
		errx(1, "%s name %s, got '%s'", kind, why, q(argv[1]));
	db = db_open(o->db);
	db_begin(db);
	if (sub[0] == 's') {
		full = named(db, is_item ? ROSTER_ITEM : ROSTER_POWER,
		    argv[1]);
		argv[1] = full;
	}
	item_init(&it, argv[1]);
	item_power_init(&pw, argv[1]);
	if (sub[0] == 's') {
		r = is_item ? roster_item_get(db, argv[1], &it, &id) :
		    roster_power_get(db, argv[1], &pw, &id);
		if (r != ROSTER_OK)
			db_die(db, "no %s named '%s'", kind, q(argv[1]));
	}
	apply_thing_args(db, is_item, is_item ? (void *)&it : (void *)&pw,
	    argc - 2, argv + 2);
	r = is_item ? roster_item_put(db, &it, id) :
	    roster_power_put(db, &pw, id);
	if (r == ROSTER_EXISTS)
		db_die(db, "%s '%s' already exists", kind,
		    q(is_item ? it.name : pw.name));
	db_commit(db);
	item_release(&it);
	item_power_release(&pw);
	db_close(db);
	return 0;
}

static int
cmd_item(struct opts *o, int argc, char **argv)
{
	return cmd_thing(o, argc, argv, 1);
}

static int
cmd_power(struct opts *o, int argc, char **argv)
{
	return cmd_thing(o, argc, argv, 0);
}

/*
 * With REFKIT_SERVE_URL set (the address refkit serve gives), the QR code
 * holds the address of the character's page there, the code after
 * "?sheet=", which verify-sheet takes as it takes the code.
 */
static void
printed_layout(const void *arg, const char *code, struct page *pg)
{
	const struct crsprinted *p = arg;
	const char *base = getenv("REFKIT_SERVE_URL");
	struct crspage_char c = p->c;
	struct strbuf u = STRBUF_INIT;
	size_t n;

	if (base != NULL && *base != '\0') {
		n = strlen(base);
		strbuf_add(&u, base, base[n - 1] == '/' ? n - 1 : n);
		strbuf_addstr(&u, "/character/");
		strbuf_url(&u, p->sh.name);
		strbuf_addf(&u, "?sheet=%s", code);
		c.qr = u.s;
	}
	crspage_layout(&c, code, pg);
	strbuf_release(&u);
}

/* The characters sheets names: every one with --all, else those typed. */
static void
sheets_names(struct opts *o, const struct sheetrun_ops *ops, struct db *db,
    int argc, char **argv, struct sheetrun_names *l)
{
	memset(l, 0, sizeof *l);
	if (o->all) {
		sheetrun_all(db, ops, l);
		return;
	}
	for (int i = 0; i < argc; i++)
		sheetrun_names_add(l, named(db, ROSTER_CHARACTER, argv[i]));
}

/* sheets: every sheet built and drawn in turn, in one read transaction. */
static int
cmd_sheets(struct opts *o, int argc, char **argv)
{
	struct sheetrun_ops ops = { "characters", crsprinted_names,
	    crsprinted_load, crsprinted_release, crsprinted_code,
	    printed_layout, &o->rounding };
	struct sheetrun_names names;
	struct db *db;

	if (o->all == (argc > 0))
		cli_usage_error("sheets needs NAME... or --all");
	if (o->output == NULL)
		cli_usage_error("sheets needs -o FILE.pdf");
	db = db_open(o->db);
	db_begin_read(db);
	sheets_names(o, &ops, db, argc, argv, &names);
	sheetrun_print(db, &ops, names.v, names.n, o->output, o->paper,
	    o->per_page);
	db_rollback(db);
	sheetrun_names_free(&names);
	db_close(db);
	return 0;
}

/*
 * verify-sheet: the code of every character's sheet as it would print
 * now, under the key of every station known (a sheet may have been
 * printed at another station whose records were merged here).
 */
static int
cmd_verify_sheet(struct opts *o, int argc, char **argv)
{
	struct sheetrun_ops ops = { "characters", crsprinted_names,
	    crsprinted_load, crsprinted_release, crsprinted_code,
	    printed_layout, &o->rounding };

	return cli_verify_sheet(o->db, &ops, "verify-sheet", argc, argv);
}

static const struct command {
	const char	*name;
	int		(*fn)(struct opts *, int, char **);
} commands[] = {
	{ "calc", cmd_calc },
	{ "add", cmd_add },
	{ "set", cmd_set },
	{ "rm", cmd_rm },
	{ "show", cmd_show },
	{ "list", cmd_list },
	{ "item", cmd_item },
	{ "power", cmd_power },
	{ "give", cmd_give },
	{ "take", cmd_take },
	{ "import", cmd_import },
	{ "export", cmd_export },
	{ "sheets", cmd_sheets },
	{ "verify-sheet", cmd_verify_sheet },
};

enum { OPT_REPLACE = 256, OPT_FORMAT, OPT_ALL, OPT_PAPER, OPT_PER_PAGE };

static const struct option longopts[] = {
	{ "db", required_argument, NULL, 'd' },
	{ "json", no_argument, NULL, 'j' },
	{ "csv", no_argument, NULL, 'c' },
	{ "rounding", required_argument, NULL, 'r' },
	{ "replace", no_argument, NULL, OPT_REPLACE },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "output", required_argument, NULL, 'o' },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "paper", required_argument, NULL, OPT_PAPER },
	{ "per-page", required_argument, NULL, OPT_PER_PAGE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/* The options of sheets. */
static void
sheet_option(struct opts *o, int ch, const char *arg)
{
	o->sheet_opts = 1;
	switch (ch) {
	case 'o':
		o->output = arg;
		break;
	case OPT_ALL:
		o->all = 1;
		break;
	case OPT_PAPER:
		o->paper = cli_paper_arg(arg);
		break;
	default:
		o->per_page = (int)cli_int_arg("--per-page", arg, 1, 2);
		break;
	}
}

/* One option, ch, as getopt_long returned it; 0 if it is none of its own. */
static int
set_option(void *op, int ch, const char *arg)
{
	struct opts *o = op;
	int r;

	switch (ch) {
	case 'd':
		o->db = arg;
		break;
	case 'r':
		if ((r = stats_rounding_lookup(arg)) < 0)
			cli_usage_error("--rounding must be 'whole' or "
			    "'per-term', got '%s'", q(arg));
		o->rounding = r;
		break;
	case OPT_REPLACE:
		o->replace = 1;
		break;
	case 'o':
	case OPT_ALL:
	case OPT_PAPER:
	case OPT_PER_PAGE:
		sheet_option(o, ch, arg);
		break;
	case OPT_FORMAT:
		if (util_streq_ci(arg, "csv"))
			o->informat = IMPORT_CSV;
		else if (util_streq_ci(arg, "json"))
			o->informat = IMPORT_JSON;
		else
			cli_usage_error("--format must be 'csv' or 'json', got "
			    "'%s'", q(arg));
		o->informat_set = 1;
		break;
	default:
		return 0;
	}
	return 1;
}

static const struct cli_opts options = { ":d:jcr:o:hV", longopts,
    usage_text, set_option };

int
main(int argc, char **argv)
{
	struct opts o = { NULL, OUT_TABLE, STATS_ROUND_WHOLE, 0, IMPORT_AUTO,
	    0, NULL, PAGE_A4, 1, 0, 0 };
	const struct command *c;
	int n;

	cli_init(argc, argv);
	complete_answer(argc, argv, &crscomplete_stats, longopts);
	/*
	 * Options may come before or after the command; "--" ends them, for
	 * a name that starts with '-'.
	 */
	n = cli_options(&options, argc, argv, &o, &o.fmt);
	argc -= n;
	argv += n;
	if (argc == 0)
		cli_usage_error("no command given (calc, add, set, rm, show, "
		    "list, item, power, give, take, import, export, sheets or "
		    "verify-sheet)");
	c = &commands[cli_command(argv[0], commands, sizeof commands[0],
	    sizeof commands / sizeof commands[0])];
	if (o.sheet_opts && c->fn != cmd_sheets)
		cli_usage_error("-o, --all, --paper and --per-page go with "
		    "sheets only");
	if (o.replace && c->fn != cmd_import)
		cli_usage_error("--replace goes with import only");
	if (o.informat_set && c->fn != cmd_import && c->fn != cmd_export)
		cli_usage_error("--format goes with import and export only");
	return c->fn(&o, argc - 1, argv + 1);
}
