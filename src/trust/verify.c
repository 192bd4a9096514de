/*
 * verify.c - refkit verify; see verify.h.  A log's chain and its replay
 * are read within one read transaction of the worker that has the log;
 * a head and the sealed draws are checked after every log, each on a
 * connection of its own.
 */
#include "trust/verify.h"

#include <sys/wait.h>

#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/chain.h"
#include "core/cli.h"
#include "db/db.h"
#include "base/out.h"
#include "core/seal.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "kinds/kinds.h"

const char *
verify_log_text(const char *kind, int64_t log, char *buf, size_t sz)
{
	if (strcmp(kind, "rolls") == 0)
		snprintf(buf, sz, "rolls %08" PRIx64, (uint64_t)log);
	else
		snprintf(buf, sz, "%s %s", kind, cli_key(log));
	return buf;
}

const char *
verify_log_json(const char *kind, int64_t log, char *buf, size_t sz)
{
	if (strcmp(kind, "rolls") == 0)
		snprintf(buf, sz, "\"%08" PRIx64 "\"", (uint64_t)log);
	else
		snprintf(buf, sz, "%s", cli_key_json(log));
	return buf;
}

struct verify {
	struct db	*db;
	const struct verify_ask *a;
	struct chain_tally t;
	int64_t		 replay_bad;
	FILE		*out;		/* a problem a line: text or JSON */
	const char	*kind;		/* the log being replayed */
	int64_t		 log;
};

/* One problem, to v->out: a line, or a JSON object on a line. */
static void
say(struct verify *v, const char *kind, int64_t log, int64_t seq,
    int64_t seq2, const char *check, const char *what)
{
	char name[64];

	if (v->a->json) {
		fprintf(v->out, "{\"kind\":\"%s\",\"log\":%s,\"check\":\"%s\"",
		    kind, verify_log_json(kind, log, name, sizeof name), check);
		if (seq > 0)
			fprintf(v->out, ",\"seq\":%" PRId64 ",\"to\":%" PRId64,
			    seq, seq2);
		fprintf(v->out, ",\"what\":");
		out_json_string(v->out, what);
		fputs("}\n", v->out);
		return;
	}
	verify_log_text(kind, log, name, sizeof name);
	if (seq <= 0)
		fprintf(v->out, "%s: %s\n", name, what);
	else if (seq2 > seq)
		fprintf(v->out, "%s, events %" PRId64 "-%" PRId64 ": %s\n",
		    name, seq, seq2, what);
	else
		fprintf(v->out, "%s, event %" PRId64 ": %s\n", name, seq,
		    what);
}

/* A sealed draw that does not follow (core/seal.h). */
static void
draw_bad(void *arg, const char *kind, int64_t log, int64_t seq,
    const char *why)
{
	say(arg, kind, log, seq, seq, "draw", why);
}

static void
chain_bad(void *arg, const struct chain_problem *p)
{
	say(arg, p->kind, p->log, p->seq, p->seq2, "chain", p->what);
}

static void
replay_bad_ran(void *arg, int64_t seq, int ran, const char *why)
{
	struct verify *v = arg;
	char what[512];

	snprintf(what, sizeof what, "%s%s", ran ? "" :
	    "does not replay: ", why);
	v->replay_bad++;
	say(v, v->kind, v->log, seq, seq, "replay", what);
}

/* Replays log through its system's rules, as each tool's replay does. */
static void
replay_log(struct verify *v, const char *kind, int64_t log)
{
	const struct journal_kind *k = kinds_find(kind);

	v->kind = kind;
	v->log = log;
	if (k != NULL && k->replay != NULL)
		(void)k->replay(v->db, log, replay_bad_ran, v);
}

/*
 * The logs to verify, in order.  Several processes verify them at once
 * (a log's chain and replay read within one read transaction of its
 * worker, which is all a log's check needs), each writing, for each of
 * its logs, a record of what it counted and printed to a file of its
 * own; the parent prints the records in the logs' order.
 */
struct vlog {
	const char	*kind;		/* a literal of chain.c's */
	int64_t		 log;
	/* What its worker counted and printed. */
	int64_t		 logs, events, bytes, problems;
	char		*text;
	size_t		 len;
};

struct vlogs {
	struct vlog	*l;
	size_t		 n, cap;
};

static void
add_vlog(void *arg, const char *kind, int64_t log)
{
	struct vlogs *vl = arg;

	if (vl->n == vl->cap) {
		vl->cap = vl->cap ? 2 * vl->cap : 64;
		vl->l = xreallocarray(vl->l, vl->cap, sizeof *vl->l);
	}
	memset(&vl->l[vl->n], 0, sizeof *vl->l);
	vl->l[vl->n].kind = kind;
	vl->l[vl->n].log = log;
	vl->n++;
}

/*
 * Worker w of nw: verifies logs w, w + nw, ... of vl on a connection of
 * its own, writing a record of each to rec: "I LOGS EVENTS BYTES
 * PROBLEMS LEN", a newline and LEN bytes of what it printed.  With one
 * log named (--combat ...), one that does not exist is refused.
 */
static void
verify_worker(const struct verify_ask *a, const struct vlogs *vl, size_t w,
    size_t nw, FILE *rec)
{
	struct verify v = { .a = a };
	struct chain_verifier *cv;

	v.db = cli_db_open(a->db);
	cv = chain_verifier_new(v.db);
	db_begin_read(v.db);
	for (size_t i = w; i < vl->n; i += nw) {
		struct chain_tally before = v.t;
		int64_t replay_before = v.replay_bad, checked;
		struct strbuf b = STRBUF_INIT;
		char *buf;
		size_t len;

		v.out = strbuf_stream(&b);
		checked = chain_verifier_check(cv, vl->l[i].kind,
		    vl->l[i].log, chain_bad, &v, &v.t);
		if (checked < 0 && a->kind != NULL)
			db_die(v.db, "no %s %s", a->kind, a->log);
		if (checked >= 0 && !a->no_replay)
			replay_log(&v, vl->l[i].kind, vl->l[i].log);
		buf = strbuf_detach(&b, &len);
		fprintf(rec, "%zu %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64
		    " %zu\n", i, v.t.logs - before.logs,
		    v.t.events - before.events, v.t.bytes - before.bytes,
		    v.t.problems - before.problems + v.replay_bad -
		    replay_before, len);
		if (len > 0 && fwrite(buf, 1, len, rec) != len)
			err(1, "verify");
		free(buf);
	}
	chain_verifier_free(cv);
	db_commit(v.db);
	db_close(v.db);
	if (fflush(rec) != 0)
		err(1, "verify");
}

/* Reads a worker's records into vl. */
static void
read_records(FILE *rec, struct vlogs *vl)
{
	size_t i, len;
	int64_t logs, events, bytes, problems;

	rewind(rec);
	while (fscanf(rec, "%zu %" SCNd64 " %" SCNd64 " %" SCNd64 " %"
	    SCNd64 " %zu", &i, &logs, &events, &bytes, &problems, &len) ==
	    6) {
		if (i >= vl->n || fgetc(rec) != '\n')
			errx(1, "verify: a worker's record is damaged");
		vl->l[i].logs = logs;
		vl->l[i].events = events;
		vl->l[i].bytes = bytes;
		vl->l[i].problems = problems;
		vl->l[i].text = xmalloc(len + 1);
		if (len > 0 && fread(vl->l[i].text, 1, len, rec) != len)
			errx(1, "verify: a worker's record is damaged");
		vl->l[i].text[len] = '\0';
		vl->l[i].len = len;
	}
}

/* How many workers: a process per processor, up to 8, and per log. */
static size_t
workers(size_t nlogs)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nw = cpus < 1 ? 1 : cpus > 8 ? 8 : (size_t)cpus;

	return nlogs < nw ? (nlogs > 0 ? nlogs : 1) : nw;
}

/* Verifies vl's logs with nw workers, filling in what each found. */
static void
verify_all(const struct verify_ask *a, struct vlogs *vl, size_t nw)
{
	FILE **rec = xcalloc(nw, sizeof(FILE *));
	pid_t *pid = xcalloc(nw, sizeof *pid);
	int failed = 0;

	for (size_t w = 0; w < nw; w++)
		if ((rec[w] = tmpfile()) == NULL)
			err(1, "verify: a file for a worker");
	if (nw == 1)
		verify_worker(a, vl, 0, 1, rec[0]);
	else {
		fflush(NULL);
		for (size_t w = 0; w < nw; w++) {
			if ((pid[w] = fork()) == -1)
				err(1, "verify: fork");
			if (pid[w] == 0) {
				verify_worker(a, vl, w, nw, rec[w]);
				_exit(0);
			}
		}
		for (size_t w = 0; w < nw; w++) {
			int status;

			if (waitpid(pid[w], &status, 0) == -1 ||
			    !WIFEXITED(status) || WEXITSTATUS(status) != 0)
				failed = 1;
		}
		if (failed)
			exit(1);	/* the worker said why */
	}
	for (size_t w = 0; w < nw; w++) {
		read_records(rec[w], vl);
		fclose(rec[w]);
	}
	free(rec);
	free(pid);
}

/* Prints text, problems a line each: JSON objects joined by commas. */
static void
emit(const struct verify_ask *a, const char *text, int *first)
{
	const char *p = text, *nl;

	if (!a->json) {
		fputs(text, stdout);
		return;
	}
	for (; *p != '\0'; p = nl + 1) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p) - 1;
		printf("%s%.*s", *first ? "" : ",", (int)(nl - p), p);
		*first = 0;
	}
}

/*
 * --head DIGITS: the record still passes through the event
 * whose hash begins with DIGITS (written down from refkit head), or
 * DIGITS begin the hash over all heads as they stand.  Says which on
 * standard output (a line, or nothing with --json), or writes the
 * problem to v->out.  Returns 0, or 1 for the problem.
 */
static int
verify_head(struct verify *v)
{
	static const char *const find[] = {
		"SELECT 'combat', combat_id, seq FROM event WHERE hash LIKE ?1",
		"SELECT 'duel', duel_id, seq FROM fb_event WHERE hash LIKE ?1",
		"SELECT 'game', game_id, seq FROM bg_event WHERE hash LIKE ?1",
		"SELECT 'rolls', id / 2147483648, id % 2147483648 FROM d6_roll"
		    " WHERE hash LIKE ?1",
	};
	unsigned char all[CHAIN_HASH_LEN];
	char digits[CHAIN_HEX_LEN + 1], hex[CHAIN_HEX_LEN], name[64];
	const struct verify_ask *a = v->a;
	size_t n;
	int found = 0;

	n = strlen(a->head);
	memcpy(digits, a->head, n + 1);
	(void)chain_heads(v->db, NULL, NULL, NULL, all);
	chain_hex(all, hex);
	if (strncmp(hex, digits, n) == 0) {
		if (!v->a->json)
			printf("head %s: the hash over all heads, as it "
			    "stands\n", digits);
		return 0;
	}
	digits[n] = '%';
	digits[n + 1] = '\0';
	for (size_t i = 0; i < sizeof find / sizeof *find && !found; i++) {
		struct db_stmt *st = db_prepare(v->db, find[i]);

		db_bind_text(st, 1, digits);
		if (db_step(v->db, st, 0) == DB_ROW) {
			const char *kind = db_column_text(st, 0);

			found = 1;
			if (!v->a->json)
				printf("head %.*s: %s, event %" PRId64 "\n",
				    (int)n, digits, verify_log_text(kind,
				    db_column_int(st, 1), name, sizeof name),
				    db_column_int(st, 2));
		}
		db_finalize(st);
	}
	if (found)
		return 0;
	digits[n] = '\0';
	if (v->a->json)
		fprintf(v->out, "{\"check\":\"head\",\"head\":\"%s\",\"what\":"
		    "\"no chain passes through it\"}\n", digits);
	else
		fprintf(v->out, "head %s: no chain passes through it: the "
		    "record was changed after it was written down, or it is "
		    "another database's\n", digits);
	return 1;
}

int
verify_head_digits(const char *typed, char digits[65], char *why,
    size_t whysz)
{
	size_t n = 0;

	for (const char *p = typed; *p; p++) {
		if (*p == ' ' || *p == '-' || *p == ':')
			continue;
		if (!strchr("0123456789abcdefABCDEF", *p) ||
		    n == CHAIN_HEX_LEN - 1) {
			snprintf(why, whysz, "--head takes hexadecimal digits "
			    "as refkit head prints them, got '%s'",
			    util_q(typed));
			return -1;
		}
		digits[n++] = (char)(*p >= 'A' && *p <= 'F' ? *p - 'A' + 'a' :
		    *p);
	}
	digits[n] = '\0';
	if (n < 16) {
		snprintf(why, whysz, "--head needs at least 16 of the digits "
		    "refkit head printed, got %zu", n);
		return -1;
	}
	return 0;
}

/*
 * Runs check (verify_head, or the seal's) on a connection of its own and
 * emits what it printed; returns the problems it counted.
 */
typedef int64_t extra_fn(struct verify *v, void *arg);

static int64_t
extra(const struct verify_ask *a, extra_fn *check, void *arg, int *first)
{
	struct verify v = { .a = a };
	struct strbuf b = STRBUF_INIT;
	char *buf;
	int64_t problems;

	v.db = cli_db_open(a->db);
	v.out = strbuf_stream(&b);
	db_begin_read(v.db);
	problems = check(&v, arg);
	db_commit(v.db);
	db_close(v.db);
	buf = strbuf_detach(&b, NULL);
	emit(a, buf, first);
	free(buf);
	return problems;
}

static int64_t
head_check(struct verify *v, void *arg)
{
	(void)arg;
	return verify_head(v);
}

/* The seed or key, and the verdict on the draws it covers. */
struct sealed {
	struct seal_proof	 proof;
	struct seal_verdict	 sv;
};

static int64_t
seal_check(struct verify *v, void *arg)
{
	struct sealed *s = arg;
	char why[600];

	if (seal_verify(v->db, &s->proof, kinds_seals, kinds_nseals,
	    draw_bad, v, &s->sv, why, sizeof why) != 0)
		db_die(v->db, "%s", why);
	return s->sv.bad;
}

/* A seed or key that is not the seal's: refused before anything. */
static void
seal_first(const struct verify_ask *a, struct sealed *s)
{
	struct db *db = cli_db_open(a->db);
	char why[600];

	db_begin_read(db);
	if (seal_proof_parse(db, a->seed_text, &s->proof, why,
	    sizeof why) != 0 || seal_match(db, &s->proof, s->sv.commitment,
	    why, sizeof why) != 0)
		db_die(db, "'%s': %s", util_q(a->seed_name), why);
	db_commit(db);
	db_close(db);
}

/* The logs to verify: the one named, or every log. */
static void
logs_of(const struct verify_ask *a, struct vlogs *vl)
{
	struct db *db = cli_db_open(a->db);

	if (a->kind != NULL)
		add_vlog(vl, a->kind, db_key_parse(db, a->log));
	else {
		db_begin_read(db);
		chain_logs(db, NULL, add_vlog, vl);
		db_commit(db);
	}
	db_close(db);
}

/* The last of the output: the seal's verdict, the counts, the verdict. */
static void
summary(const struct verify_ask *a, const struct vlog *t,
    const struct seal_verdict *sv)
{
	const char *seal = a->seed_text != NULL ? "" : NULL;

	if (a->json && seal != NULL)
		printf("],\"seal\":{\"commitment\":\"%s\",\"logs\":%ld,"
		    "\"draws\":%ld,\"not_following\":%ld}", sv->commitment,
		    sv->logs, sv->draws, sv->bad);
	if (a->json)
		printf("%s,\"logs\":%" PRId64 ",\"events\":%" PRId64
		    ",\"bytes\":%" PRId64 ",\"holds\":%s}\n",
		    seal != NULL ? "" : "]", t->logs, t->events, t->bytes,
		    t->problems == 0 ? "true" : "false");
	else if (seal != NULL)
		printf("seal %.16s: %ld log%s, %ld sealed draw%s, %ld that "
		    "do%s not follow\n", sv->commitment, sv->logs, sv->logs ==
		    1 ? "" : "s", sv->draws, sv->draws == 1 ? "" : "s", sv->bad,
		    sv->bad == 1 ? "es" : "");
	if (!a->json)
		printf("%" PRId64 " log%s, %" PRId64 " event%s: %s\n", t->logs,
		    t->logs == 1 ? "" : "s", t->events, t->events == 1 ? "" :
		    "s", t->problems == 0 ? (a->no_replay ? "every chain "
		    "holds" : "every chain holds and every log replays") :
		    t->problems == 1 ? "1 problem" : "problems");
}

int
verify_run(const struct verify_ask *a)
{
	struct vlogs vl = { NULL, 0, 0 };
	struct vlog total;
	struct sealed s;
	int first = 1;

	memset(&s, 0, sizeof s);
	memset(&total, 0, sizeof total);
	if (a->seed_text != NULL)
		seal_first(a, &s);
	logs_of(a, &vl);
	verify_all(a, &vl, workers(vl.n));
	if (a->json)
		printf("{\"problems\":[");
	for (size_t i = 0; i < vl.n; i++) {
		emit(a, vl.l[i].text, &first);
		total.logs += vl.l[i].logs;
		total.events += vl.l[i].events;
		total.bytes += vl.l[i].bytes;
		total.problems += vl.l[i].problems;
		free(vl.l[i].text);
	}
	free(vl.l);
	if (a->head != NULL)
		total.problems += extra(a, head_check, NULL, &first);
	/* Then every draw the seed or key covers (core/seal.h). */
	if (a->seed_text != NULL)
		total.problems += extra(a, seal_check, &s, &first);
	summary(a, &total, &s.sv);
	return total.problems == 0 ? 0 : 1;
}
