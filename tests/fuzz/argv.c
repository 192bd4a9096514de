/*
 * argv.c - a libFuzzer harness that runs one tool's whole main() (built
 * with -Dmain=refkit_tool_main and -DTOOL='"crs-stats"') on command lines
 * taken from the input, all in one process.
 *
 * The input is up to 16 lines; each line is one invocation of the tool,
 * its words split at blanks, with '...' quoting as in the golden
 * transcripts (tests/expected), which seed the corpus.  Every input starts
 * from the same fresh database, so a line that adds a character makes the
 * next line's "show" meaningful, and one input never sees another's.
 *
 * Whatever database a line names (--db), SQLite is handed this harness's
 * own file: a fuzzed path must never create or touch a file elsewhere.
 * An exit inside the tool jumps back here (hooks.c); the connections it
 * left open are closed, so the next line is not locked out.  Memory the
 * tool would have left to exit() is not freed, so leak detection is off
 * for these targets (make fuzz).
 */
#include "hooks.h"

#include "db/db.h"
#include "db/dbpg.h"
#include "term/play.h"

#include <fcntl.h>
#include <getopt.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int refkit_tool_main(int argc, char *argv[]);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

extern char *program_invocation_name;
extern char *program_invocation_short_name;

int __real_sqlite3_open_v2(const char *, sqlite3 **, int, const char *);
int __real_sqlite3_open(const char *, sqlite3 **);
int __real_sqlite3_close(sqlite3 *);
int __wrap_sqlite3_open_v2(const char *, sqlite3 **, int, const char *);
int __wrap_sqlite3_open(const char *, sqlite3 **);
int __wrap_sqlite3_close(sqlite3 *);
void __wrap_dbpg_open(struct db *, const char *, const struct dbpg_client *);
int __wrap_play_run(const struct play_tool *);
struct serve_opts;
int __wrap_serve_run(const struct serve_opts *);
int __wrap_dbpg_open_existing(struct db *);

#define MAXOPEN		16
#define MAXLINES	16
#define MAXWORDS	64
#define MAXINPUT	(64 * 1024)

static sqlite3 *open_dbs[MAXOPEN];
static char dbpath[256];
static char *template;		/* the fresh database's bytes */
static size_t template_len;

static void
track(sqlite3 *h)
{
	for (int i = 0; i < MAXOPEN; i++)
		if (open_dbs[i] == NULL) {
			open_dbs[i] = h;
			return;
		}
	abort();		/* a tool opening 16 databases is a bug */
}

static const char *
redirect(const char *filename)
{
	if (strcmp(filename, ":memory:") == 0)
		return filename;
	return dbpath;
}

/* A fuzzed PostgreSQL connection string is never tried. */
void
__wrap_dbpg_open(struct db *db, const char *station,
    const struct dbpg_client *client)
{
	(void)station;
	(void)client;
	errx(1, "'%s': no PostgreSQL server while fuzzing", db->path);
}

/*
 * play would read the fuzzer's standard input and fork a process per
 * command: never while fuzzing (its lines are the golden cases' and
 * tests/tty's).
 */
int
__wrap_play_run(const struct play_tool *t)
{
	errx(1, "%s play: not while fuzzing", t->name);
}

/*
 * refkit serve would listen until a signal: never while fuzzing (tests/
 * serve.sh runs it), and without it no fuzzer links libmicrohttpd.
 */
int
__wrap_serve_run(const struct serve_opts *o)
{
	(void)o;
	errx(1, "refkit serve: not while fuzzing");
}

/* Nor one a completion (TOOL --complete) names: no database, silently. */
int
__wrap_dbpg_open_existing(struct db *db)
{
	(void)db;
	return -1;
}

int
__wrap_sqlite3_open_v2(const char *filename, sqlite3 **h, int flags,
    const char *vfs)
{
	int rc = __real_sqlite3_open_v2(redirect(filename), h, flags, vfs);

	if (*h)
		track(*h);
	return rc;
}

int
__wrap_sqlite3_open(const char *filename, sqlite3 **h)
{
	int rc = __real_sqlite3_open(redirect(filename), h);

	if (*h)
		track(*h);
	return rc;
}

int
__wrap_sqlite3_close(sqlite3 *h)
{
	int rc = __real_sqlite3_close(h);

	if (rc == SQLITE_OK)
		for (int i = 0; i < MAXOPEN; i++)
			if (open_dbs[i] == h)
				open_dbs[i] = NULL;
	return rc;
}

/* What exit() would have done for the connections a tool left open. */
static void
close_left_open(void)
{
	for (int i = 0; i < MAXOPEN; i++) {
		sqlite3 *h = open_dbs[i];
		sqlite3_stmt *st;

		if (h == NULL)
			continue;
		while ((st = sqlite3_next_stmt(h, NULL)) != NULL)
			sqlite3_finalize(st);
		if (!sqlite3_get_autocommit(h))
			sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
		if (__real_sqlite3_close(h) != SQLITE_OK)
			abort();
		open_dbs[i] = NULL;
	}
}

static void
remove_db(void)
{
	static const char *const sfx[] = { "", "-wal", "-shm", "-journal" };
	char p[sizeof dbpath + 16];

	for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++) {
		snprintf(p, sizeof p, "%s%s", dbpath, sfx[i]);
		unlink(p);
	}
}

static void
write_file(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || write(fd, buf, len) != (ssize_t)len || close(fd) != 0)
		abort();
}

/* Runs one command line; its status is of no interest here. */
static void
run(char *argv[], int argc)
{
	jmp_buf jb;

	optind = 0;		/* glibc: start getopt afresh */
	opterr = 1;
	optarg = NULL;
	if (setjmp(jb) == 0) {
		refkit_fuzz_jmp = &jb;
		refkit_tool_main(argc, argv);
	}
	refkit_fuzz_jmp = NULL;
	close_left_open();
	fflush(stdout);
	clearerr(stdout);
}

/* Splits line into words at blanks, '...' quoting a run. */
static int
split(char *line, char *argv[], int max)
{
	int argc = 1;
	char *r = line, *w;

	argv[0] = (char *)TOOL;
	while (*r && argc < max - 1) {
		while (*r == ' ' || *r == '\t')
			r++;
		if (*r == '\0')
			break;
		argv[argc++] = w = r;
		while (*r && *r != ' ' && *r != '\t') {
			if (*r == '\'') {
				r++;
				while (*r && *r != '\'')
					*w++ = *r++;
				if (*r)
					r++;
			} else
				*w++ = *r++;
		}
		if (*r)
			r++;
		*w = '\0';
	}
	argv[argc] = NULL;
	return argc;
}

/*
 * A line whose work grows with a number on purpose (fb-duel sim --n) is
 * cut off at 1000: a million simulated duels is not a hang.
 */
static int
too_slow(char *argv[], int argc)
{
	for (int i = 1; i < argc; i++) {
		const char *v = NULL;

		if (strcmp(argv[i], "--n") == 0 && i + 1 < argc)
			v = argv[i + 1];
		else if (strncmp(argv[i], "--n=", 4) == 0)
			v = argv[i] + 4;
		if (v && strtol(v, NULL, 10) > 1000)
			return 1;
	}
	return 0;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");
	FILE *fp;
	long len;

	(void)argc;
	(void)argv;
	snprintf(dbpath, sizeof dbpath, "%s/refkit-fuzz-%s-%ld.db",
	    tmp && *tmp ? tmp : "/tmp", TOOL, (long)getpid());
	setenv("REFKIT_DB", dbpath, 1);
	setenv("NO_COLOR", "1", 1);
	setenv("TZ", "UTC", 1);
	program_invocation_name = program_invocation_short_name = (char *)TOOL;
	if (freopen("/dev/null", "r", stdin) == NULL)
		abort();

	/* The fresh database every input starts from: the schema alone. */
	remove_db();
	db_close(db_open(dbpath));
	if ((fp = fopen(dbpath, "rb")) == NULL || fseek(fp, 0, SEEK_END) != 0 ||
	    (len = ftell(fp)) <= 0 || fseek(fp, 0, SEEK_SET) != 0)
		abort();
	template_len = (size_t)len;
	if ((template = malloc(template_len)) == NULL ||
	    fread(template, 1, template_len, fp) != template_len)
		abort();
	fclose(fp);
	atexit(remove_db);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char buf[MAXINPUT + 1];
	char *argv[MAXWORDS + 1];
	char *line, *next;
	int n = 0;

	if (size > MAXINPUT)
		return -1;	/* long strings have their own cases */
	memcpy(buf, data, size);
	buf[size] = '\0';
	remove_db();
	write_file(dbpath, template, template_len);
	for (line = buf; line && n < MAXLINES; line = next, n++) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		int argc = split(line, argv, MAXWORDS + 1);

		if (!too_slow(argv, argc))
			run(argv, argc);
	}
	return 0;
}
