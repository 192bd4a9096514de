/*
 * test_journal.c - the journal on a real database file: append and its
 * gapless seq, undo marking, what undo would take back, the derive loop,
 * the shared input-event shape, the walks of a kind with rules (ids,
 * snapshots after an event, the audit), and seq kept gapless when two
 * processes, each with its own connection, append to one log at once.
 */
#include <sqlite3.h>
#include "tap.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/journal.h"
#include "core/pack.h"
#include "base/util.h"

/* A kind of its own: logs in t_log, events in t_event, a body a word. */
struct body {
	char	*word;
};

static void
body_read(void *ctx, struct db_stmt *st, int col, int64_t seq, int64_t undoes,
    void *v)
{
	struct body *b = v;

	(void)seq;
	(void)undoes;
	*(int *)ctx += 1;
	b->word = db_column_dup(st, col);
}

static void
body_bind(struct db_stmt *st, int param, const void *v)
{
	const struct body *b = v;

	db_bind_text_copy(st, param, b->word);
}

static void
body_release(void *v)
{
	struct body *b = v;

	free(b->word);
}

/* The fields of a kind whose logs are t_log's, named what. */
#define WORD_KIND(what_) \
	.what = (what_), \
	JOURNAL_SQL("t_log", "t_event", "log_id", "1", "word", "word", "?"), \
	.ncols = 1, \
	.size = sizeof(struct body), \
	.read = body_read, \
	.bind = body_bind, \
	.release = body_release

static const struct journal_kind kind = {
	WORD_KIND("test"),
};

static const struct journal_kind input_kind = {
	JOURNAL_INPUT_KIND("duel", "fb_duel", "fb_event", "duel_id", "round",
	    "outcome", journal_event_read, journal_event_bind, "1", NULL),
};

static void
exec(struct db *db, const char *sql)
{
	if (sqlite3_exec(db->h, sql, NULL, NULL, NULL) != SQLITE_OK)
		db_fatal(db, sql);
}

static int64_t
new_log(struct db *db)
{
	exec(db, "INSERT INTO t_log (id) VALUES (" DB_NEW_KEY("t_log") ")");
	return sqlite3_last_insert_rowid(db->h);
}

static int64_t
append(struct db *db, int64_t log, int64_t undoes, const char *word)
{
	struct body b = { .word = (char *)word };
	int64_t seq;

	db_begin(db);
	seq = journal_append(db, &kind, log, undoes, &b);
	db_commit(db);
	return seq;
}

/* derive's step: joins the words, refusing "bad". */
static int
join_words(void *arg, const void *v, char *why, size_t whysz)
{
	const struct body *b = v;
	char *all = arg;

	if (strcmp(b->word, "bad") == 0)
		return util_say(why, whysz, "bad word");
	strcat(all, b->word);
	return 0;
}

static void
test_append_undo_derive(struct db *db)
{
	struct journal j;
	int64_t a = new_log(db), b = new_log(db), bad = 0;
	char all[100] = "", why[100] = "";
	int reads = 0;

	is_int(journal_latest(db, &kind), b, "latest is the newest log");
	is_int(append(db, a, 0, "x"), 1, "first seq of a is 1");
	is_int(append(db, a, 0, "y"), 2, "then 2");
	is_int(append(db, b, 0, "p"), 1, "seq counts per log: b starts at 1");
	is_int(append(db, a, 0, "z"), 3, "a goes on at 3");
	is_int(append(db, a, 2, "undo"), 4, "an undo takes a seq too");

	ok(journal_load(db, &kind, a, &reads, &j) == 0, "log a loads");
	is_int(j.n, 4, "four events");
	is_int(reads, 4, "read() called once an event, with ctx");
	is_int(j.seq[3], 4, "seq in order");
	is_int(j.undoes[3], 2, "the undo names seq 2");
	ok(!j.undone[0] && j.undone[1] && !j.undone[2] && !j.undone[3],
	    "only seq 2 is undone");
	is_str(((struct body *)journal_body(&j, 2))->word, "z",
	    "journal_body gives body 2");
	is_int(journal_undoable(&j), 2, "undo would take back seq 3 next");
	ok(journal_derive(&j, join_words, all, &bad, why, sizeof why) == 0,
	    "derive runs");
	is_str(all, "xz", "derive skips the undone event and the undo");
	journal_release(&j);

	/* Undo the rest: nothing is left to take back. */
	append(db, a, 3, "undo");
	append(db, a, 1, "undo");
	/* An undo naming an undo changes nothing: undos are never undone. */
	append(db, a, 4, "undo");
	journal_load(db, &kind, a, &reads, &j);
	is_int(journal_undoable(&j), -1, "nothing left to undo");
	ok(!j.undone[3], "an undo is never itself undone");
	all[0] = '\0';
	journal_derive(&j, join_words, all, &bad, why, sizeof why);
	is_str(all, "", "every word undone");
	journal_release(&j);

	append(db, b, 0, "bad");
	append(db, b, 0, "q");
	journal_load(db, &kind, b, &reads, &j);
	all[0] = '\0';
	ok(journal_derive(&j, join_words, all, &bad, why, sizeof why) < 0,
	    "derive stops at a refused event");
	is_int(bad, 2, "and names its seq");
	is_str(why, "bad word", "with the step's reason");
	is_str(all, "p", "the events before it ran");
	journal_release(&j);

	ok(journal_load(db, &kind, 999, &reads, &j) < 0, "no log 999");
	is_int(j.n, 0, "and nothing loaded");
	journal_release(&j);
}

/* The shared shape of the Force Battles and Battle Grounds events. */
static void
test_input_event(struct db *db)
{
	struct journal_event e;
	struct journal j;
	const struct journal_event *r;
	int64_t duel;

	db_begin(db);
	exec(db, "INSERT INTO fb_duel (id, a, b, board, created)"
	    " VALUES (" DB_NEW_KEY("fb_duel") ", 'Ana', 'Bo', 'default', 1)");
	duel = sqlite3_last_insert_rowid(db->h);
	memset(&e, 0, sizeof e);
	e.round = 3;
	e.action = "round";
	e.actor = "Ana";
	e.input = "--att 4";
	e.outcome = "hit";
	e.seed = "42";
	e.detail = "{\"text\":\"Ana hits.\"}";
	e.time = 1000;
	is_int(journal_append(db, &input_kind, duel, 0, &e), 1, "seq 1");
	db_commit(db);

	journal_load(db, &input_kind, duel, NULL, &j);
	r = journal_body(&j, 0);
	is_int(r->seq, 1, "seq read back");
	is_int(r->round, 3, "round read back");
	is_str(r->action, "round", "action");
	is_str(r->actor, "Ana", "actor");
	is_str(r->input, "--att 4", "input");
	is_str(r->outcome, "hit", "outcome column");
	ok(r->ended == NULL && r->winner == NULL, "ended, winner NULL");
	is_str(r->seed, "42", "seed");
	is_str(r->detail, "{\"text\":\"Ana hits.\"}", "detail");
	is_int(r->time, 1000, "time");

	db_begin(db);
	is_int(journal_event_undo(db, &j, 0, 2000, "Ref"), 2, "the undo is seq 2");
	db_commit(db);
	journal_release(&j);
	journal_load(db, &input_kind, duel, NULL, &j);
	r = journal_body(&j, 1);
	is_str(r->action, "undo", "undo event's action");
	is_int(r->undoes, 1, "it undoes seq 1");
	is_int(r->round, 3, "in the round of what it undoes");
	is_str(r->detail, "{\"action\":\"undo\",\"undoes\":1}",
	    "its detail");
	is_int(r->time, 2000, "at the time given");
	ok(j.undone[0], "seq 1 is undone");
	journal_release(&j);
}

/* The same kind with rules: a state is the words joined, snapshots
 * after every second event. */
static const struct journal_kind snap_kind = {
	WORD_KIND("game"),	/* a kind the snapshot table allows */
	.snap_every = 2,
	.snap_version = 7,
};

struct words {
	char	all[100];
};

/* A log as the rules load it: its journal, and the reads it took. */
struct words_log {
	struct journal	j;
	int		reads;
};

static int
words_step(void *state, const void *body, char *why, size_t whysz)
{
	struct words *w = state;

	return join_words(w->all, body, why, whysz);
}

static void
words_pack(const void *state, struct pack *p)
{
	const struct words *w = state;

	pack_str(p, w->all);
}

static const struct journal *
words_load(struct db *db, int64_t id, void *lg)
{
	struct words_log *l = lg;

	return journal_load(db, &snap_kind, id, &l->reads, &l->j) == 0 ?
	    &l->j : NULL;
}

static void
words_start(void *state, const void *lg)
{
	struct words *w = state;

	(void)lg;
	strcpy(w->all, ">");
}

static void
words_release(void *lg)
{
	struct words_log *l = lg;

	journal_release(&l->j);
}

static struct journal_rules rules = {
	.kind = &snap_kind, .size = sizeof(struct words), .whysz = 100,
	.step = words_step, .pack = words_pack, .lsize =
	sizeof(struct words_log), .load = words_load, .start = words_start,
	.release = words_release,
};

/* What an audit reported: the seqs and the last reason. */
struct seen {
	int64_t	seq[8];
	int	n;
	char	why[200];
};

static void
seen_bad(void *arg, int64_t seq, const char *why)
{
	struct seen *s = arg;

	if (s->n < 8)
		s->seq[s->n++] = seq;
	snprintf(s->why, sizeof s->why, "%s", why);
}

/* Appends word to log of snap_kind, with no snapshot. */
static void
append_word(struct db *db, int64_t log, const char *word)
{
	struct body b = { .word = (char *)word };

	db_begin(db);
	journal_append(db, &snap_kind, log, 0, &b);
	db_commit(db);
}

/* Appends word to log, the state after it being all. */
static int64_t
append_state(struct db *db, int64_t log, const char *word, const char *all)
{
	struct body b = { .word = (char *)word };
	struct words w;
	int64_t seq;

	snprintf(w.all, sizeof w.all, "%s", all);
	db_begin(db);
	seq = journal_append_state(db, &rules, log, &b, &w);
	db_commit(db);
	return seq;
}

static void
test_rules(struct db *db)
{
	struct journal_run run;
	struct seen s = { 0 };
	struct db_stmt *st;
	size_t n;
	int64_t log = new_log(db), *ids = journal_ids(db, &snap_kind, &n);
	int events = 0;

	ok(n >= 3 && ids[n - 1] == log && ids[0] < ids[1],
	    "journal_ids: every log, in order");
	free(ids);

	is_int(append_state(db, log, "a", ">a"), 1, "append_state: seq 1");
	is_int(append_state(db, log, "b", ">ab"), 2, "seq 2");
	is_int(append_state(db, log, "c", ">abc"), 3, "seq 3");
	st = db_prepare(db, "SELECT group_concat(seq) FROM snapshot"
	    " WHERE log = ?1");
	db_bind_int(st, 1, log);
	db_step(db, st, 0);
	is_str(db_column_text(st, 0), "2",
	    "a snapshot after seq 2 only, as due");
	db_finalize(st);

	ok(journal_run_load(db, &rules, log, &run) == 0, "run_load loads");
	is_int(run.j->n, 3, "the log whole");
	is_str(((struct words *)run.state)->all, ">", "its state started");
	is_int(journal_audit(db, &rules, run.j, run.state, seen_bad, &s), 0,
	    "a clean log audits clean");
	is_str(((struct words *)run.state)->all, ">abc", "every event run");
	journal_run_release(&run);
	ok(journal_run_load(db, &rules, 999, &run) < 0 && run.lg == NULL,
	    "no log 999 to run");

	/* A snapshot that differs, and one after the last event. */
	db_begin(db);
	journal_snapshot_put(db, &snap_kind, log, 2, "x", 1);
	journal_snapshot_put(db, &snap_kind, log, 5, "y", 1);
	db_commit(db);
	is_int(journal_audit_log(db, &rules, log, seen_bad, &s, &events), 2,
	    "audit_log: two bad snapshots");
	is_int(events, 3, "its events counted");
	ok(s.n == 2 && s.seq[0] == 2 && s.seq[1] == 5, "named by seq");
	is_str(s.why, "a snapshot after the last event", "the later one");
	ok(journal_audit_log(db, &rules, 999, seen_bad, &s, NULL) < 0,
	    "no log 999 to audit");

	/* A broken event: reported and gone past (go_on), or the end. */
	db_begin(db);
	exec(db, "DELETE FROM snapshot");
	db_commit(db);
	append_word(db, log, "bad");
	append_word(db, log, "d");
	memset(&s, 0, sizeof s);
	rules.go_on = 1;
	is_int(journal_audit_log(db, &rules, log, seen_bad, &s, NULL), 1,
	    "go_on: one event does not replay");
	ok(s.n == 1 && s.seq[0] == 4, "seq 4");
	is_str(s.why, "does not replay: bad word", "with the step's reason");
	memset(&s, 0, sizeof s);
	rules.go_on = 0;
	append_state(db, log, "e", "whatever");
	is_int(journal_audit_log(db, &rules, log, seen_bad, &s, NULL), 1,
	    "no go_on: the audit stops at it");
	ok(s.n == 1 && s.seq[0] == 4, "seq 4, and no snapshot compared");
}

/*
 * Two processes, each with its own connection, append n events each to
 * one log, every one in its own transaction.  The seqs must come out
 * 1 .. 2n with none missing and none twice.
 */
static void
test_two_writers(const char *path)
{
	enum { N = 300 };
	struct db *db;
	struct db_stmt *st;
	pid_t pid[2];
	int64_t log;
	int status, good = 1;

	db = db_open(path);
	log = new_log(db);
	db_close(db);
	for (int w = 0; w < 2; w++) {
		if ((pid[w] = fork()) == -1)
			abort();
		if (pid[w] == 0) {
			struct db *mine = db_open(path);

			for (int i = 0; i < N; i++)
				append(mine, log, 0, w ? "b" : "a");
			db_close(mine);
			_exit(0);
		}
	}
	for (int w = 0; w < 2; w++) {
		waitpid(pid[w], &status, 0);
		good = good && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	}
	ok(good, "both writers finished");
	db = db_open(path);
	st = db_prepare(db, "SELECT count(*), count(DISTINCT seq), min(seq),"
	    " max(seq), sum(word = 'a') FROM t_event WHERE log_id = ?1");
	db_bind_int(st, 1, log);
	db_step(db, st, 0);
	is_int(db_column_int(st, 0), 2 * N, "every append stored");
	is_int(db_column_int(st, 1), 2 * N, "no seq twice");
	is_int(db_column_int(st, 2), 1, "seq starts at 1");
	is_int(db_column_int(st, 3), 2 * N, "and ends at 2n: no gap");
	is_int(db_column_int(st, 4), N, "each writer's events are there");
	db_finalize(st);
	db_close(db);
}

int
main(void)
{
	char dir[] = "/tmp/refkit-test-journal-XXXXXX";
	char *path, *cmd;
	struct db *db;

	if (mkdtemp(dir) == NULL)
		abort();
	path = xasprintf("%s/refkit.db", dir);
	db = db_open(path);
	exec(db, "CREATE TABLE t_log (id INTEGER PRIMARY KEY) STRICT;"
	    "CREATE TABLE t_event (id INTEGER PRIMARY KEY,"
	    " log_id INTEGER NOT NULL REFERENCES t_log(id),"
	    " seq INTEGER NOT NULL, undoes INTEGER, word TEXT,"
	    " UNIQUE (log_id, seq)) STRICT");
	test_append_undo_derive(db);
	test_input_event(db);
	test_rules(db);
	db_close(db);
	test_two_writers(path);
	cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	free(cmd);
	free(path);
	return tap_done();
}
