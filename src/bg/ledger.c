/*
 * bg/ledger.c - Battle Grounds teams and games in the database, and the
 * derivation of a game's state from its events.  See bg/ledger.h.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bg/text.h"
#include "bg/ledger.h"
#include "bg/pack.h"
#include "db/lookup.h"
#include "core/pack.h"
#include "base/util.h"
#include "core/ruling.h"

int
bgledger_team_add(struct db *db, const struct bg_team *t)
{
	struct db_stmt *st;
	int64_t id;
	int rc;

	st = db_prepare(db, "INSERT INTO bg_team (id, name, created)"
	    " VALUES (" DB_NAME_KEY("lower(?1)") ", ?1, ?2) RETURNING id");
	db_bind_text(st, 1, t->name);
	db_bind_int(st, 2, db_now());
	rc = db_step(db, st, 1);
	id = rc == DB_ROW ? db_column_int(st, 0) : 0;
	db_finalize(st);
	if (rc == DB_CONSTRAINT)
		return -1;
	st = db_prepare(db, "INSERT INTO bg_figure (team_id, pos, name, level,"
	    " cosmic, red, orange, yellow, green, blue, purple, powers)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
	for (int i = 0; i < t->n; i++) {
		const struct bg_figure *f = &t->f[i];
		char *pw = bgtext_powers(f->powers, "+");

		db_bind_int(st, 1, id);
		db_bind_int(st, 2, i + 1);
		db_bind_text(st, 3, f->name);
		db_bind_text(st, 4, bg_level_name(f->level));
		db_bind_int(st, 5, f->cosmic);
		for (int c = 0; c < BG_NSTAT; c++)
			db_bind_int(st, 6 + c, f->stat[c]);
		db_bind_text_copy(st, 12, pw);
		free(pw);
		db_step(db, st, 0);
		db_reset(st);
	}
	db_finalize(st);
	return 0;
}

#define TEAM_SELECT "SELECT t.name, f.name, f.level, f.cosmic, f.red," \
	" f.orange, f.yellow, f.green, f.blue, f.purple, f.powers, t.id" \
	" FROM bg_team t LEFT JOIN bg_figure f ON f.team_id = t.id"

/* Adds the figure of a TEAM_SELECT row to t, if the row has one. */
static void
team_row(struct db_stmt *st, struct bg_team *t)
{
	struct bg_figure *f;
	const char *pw;

	snprintf(t->name, sizeof t->name, "%s",
	    db_column_text(st, 0));
	if (db_column_type(st, 1) == DB_NULL || t->n == BG_MAXFIG)
		return;
	f = &t->f[t->n++];
	snprintf(f->name, sizeof f->name, "%s",
	    db_column_text(st, 1));
	f->level = bg_level_find(db_column_text(st, 2));
	f->cosmic = db_column_int(st, 3);
	for (int c = 0; c < BG_NSTAT; c++)
		f->stat[c] = db_column_int(st, 4 + c);
	pw = db_column_text(st, 10);
	while (pw != NULL && *pw) {
		size_t n = strcspn(pw, "+");
		char word[32];
		int p;

		snprintf(word, sizeof word, "%.*s", (int)n, pw);
		if ((p = bg_power_find(word)) >= 0)
			f->powers |= 1u << p;
		pw += n + (pw[n] == '+');
	}
}

int
bgledger_team_name(struct db *db, const char *typed, char name[BG_NAMESZ],
    char *why, size_t whysz)
{
	return lookup_name_buf(db, "SELECT name FROM bg_team WHERE name = ?1",
	    "SELECT name FROM bg_team", typed, "no team", name, BG_NAMESZ, why,
	    whysz);
}

int
bgledger_team_load(struct db *db, const char *name, struct bg_team *t)
{
	struct db_stmt *st;
	int found = 0;

	memset(t, 0, sizeof *t);
	st = db_prepare(db, TEAM_SELECT " WHERE t.name = ?1 ORDER BY f.pos");
	db_bind_text(st, 1, name);
	while (db_step(db, st, 0) == DB_ROW) {
		team_row(st, t);
		found = 1;
	}
	db_finalize(st);
	return found ? 0 : -1;
}

int
bgledger_team_rm(struct db *db, const char *name)
{
	return db_run_text(db, "DELETE FROM bg_team WHERE name = ?1",
	    name) > 0 ? 0 : -1;
}

void
bgledger_team_each(struct db *db, void (*fn)(void *, const struct bg_team *),
    void *arg)
{
	/* One query: a team's rows come together, in figure order. */
	struct db_stmt *st = db_prepare(db, TEAM_SELECT
	    " ORDER BY t.name, t.id, f.pos");
	struct bg_team *t = xcalloc(1, sizeof *t);
	int64_t id = -1;

	while (db_step(db, st, 0) == DB_ROW) {
		int64_t row = db_column_int(st, 11);

		if (id >= 0 && row != id) {
			fn(arg, t);
			memset(t, 0, sizeof *t);
		}
		id = row;
		team_row(st, t);
	}
	if (id >= 0)
		fn(arg, t);
	db_finalize(st);
	free(t);
}

void
bgledger_stat_names(struct db *db, char names[BG_NSTAT][48])
{
	struct db_stmt *st = db_prepare(db, "SELECT colour, name FROM bg_stat");

	for (int c = 0; c < BG_NSTAT; c++)
		snprintf(names[c], 48, "%s", bg_colour_name(c));
	while (db_step(db, st, 0) == DB_ROW) {
		int c = bg_colour_find(db_column_text(st,
		    0));

		if (c >= 0)
			snprintf(names[c], 48, "%s",
			    db_column_text(st, 1));
	}
	db_finalize(st);
}

void
bgledger_stat_set(struct db *db, int colour, const char *name)
{
	struct db_stmt *st = db_prepare(db, "UPDATE bg_stat SET name = ?2"
	    " WHERE colour = ?1");

	db_bind_text(st, 1, bg_colour_name(colour));
	db_bind_text(st, 2, name);
	db_step(db, st, 0);
	db_finalize(st);
}

/* ---- games ---- */

int64_t
bgledger_game_new(struct db *db, const struct bg_team *a,
    const struct bg_team *b, int advanced, int safe_attack, const char *gm)
{
	struct db_stmt *st;
	char *sa = bgtext_team_format(a), *sb = bgtext_team_format(b);
	int64_t id;

	st = db_prepare(db, "INSERT INTO bg_game (id, team1, team2,"
	    " advanced, safe_attack, spec1, spec2, created, gm) VALUES ("
	    DB_NEW_KEY("bg_game") ", ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
	    " RETURNING id");
	db_bind_text(st, 1, a->name);
	db_bind_text(st, 2, b->name);
	db_bind_int(st, 3, advanced);
	db_bind_int(st, 4, safe_attack);
	db_bind_text(st, 5, sa);
	db_bind_text(st, 6, sb);
	db_bind_int(st, 7, db_now());
	db_bind_text_copy(st, 8, gm);
	db_step(db, st, 0);
	id = db_column_int(st, 0);
	db_finalize(st);
	free(sa);
	free(sb);
	return id;
}

/*
 * bg_event keeps ended as 0 or 1, where a journal_event has "1" or NULL;
 * the rest of the row is the shared shape.
 */
static void
event_read(void *ctx, struct db_stmt *st, int col, int64_t seq,
    int64_t undoes, void *body)
{
	struct journal_event *e = body;

	journal_event_read(ctx, st, col, seq, undoes, body);
	if (e->ended != NULL && strcmp(e->ended, "1") != 0) {
		free(e->ended);
		e->ended = NULL;
	}
}

static void
event_bind(struct db_stmt *st, int param, const void *body)
{
	const struct journal_event *e = body;

	journal_event_bind(st, param, body);
	db_bind_int(st, param + 5, e->ended != NULL);
}

/* Reading a game's row: the teams as specs, parsed once it is read. */
struct head {
	struct bgledger_game	*d;
	char			*spec[2];
};

static void
game_head(void *ctx, struct db_stmt *st)
{
	struct head *h = ctx;

	for (int k = 0; k < 2; k++) {
		snprintf(h->d->team[k].name, sizeof h->d->team[k].name, "%s",
		    db_column_text(st, k));
		h->spec[k] = db_column_dup(st, 4 + k);
	}
	h->d->advanced = db_column_int(st, 2);
	h->d->safe_attack = db_column_int(st, 3);
}

/*
 * Snapshots: after every BGLEDGER_SNAP_EVERY-th event, of the byte form
 * BGPACK_FORMAT and of these sources (JOURNAL_SNAP_VERSION).
 */
#define BGLEDGER_SNAP_EVERY	16

/* The options of a move's input that give dice (bg/text.c). */
static const char *const bg_dice[] = {
	"--roll", "--vs-roll", "--stat-roll", NULL
};

/* The kind's replay (core/journal.h): the game loaded and audited. */
static int
bgledger_replay(struct db *db, int64_t id, void (*bad)(void *, int64_t,
    int, const char *), void *arg)
{
	struct journal_bad b = { bad, arg };

	return journal_audit_log(db, &bgledger_rules, id, journal_bad_ran, &b,
	    NULL);
}

/* What an append reads that the load can ask for: the open seal. */
static void
ask_ahead(struct db *db, int64_t id)
{
	(void)id;
	seal_ask(db);
}

const struct journal_kind bgledger_kind = {
	JOURNAL_INPUT_KIND("game", "bg_game", "bg_event", "game_id", "turn",
	    "battle", event_read, event_bind,
	    "team1, team2, advanced, safe_attack, spec1, spec2", game_head),
	/*
	 * A game starts with no event: its GM's acts in it are the one
	 * that made it and his events, ordered to the second (on a tie,
	 * the newer game).
	 */
	.option = "--game",
	.sql_open = "SELECT g.id, (SELECT max(t) FROM (SELECT m.time AS t"
	    " FROM bg_event m WHERE m.game_id = g.id AND m.gm = ?1 UNION ALL"
	    " SELECT g.created WHERE g.gm = ?1) AS a), g.gm,"
	    " coalesce(l.turn, 0), l.action, l.actor, g.team1 || ', ' ||"
	    " g.team2 FROM bg_game g LEFT JOIN bg_event l ON l.game_id = g.id"
	    " AND l.seq = (SELECT max(s.seq) FROM bg_event s WHERE s.game_id ="
	    " g.id) WHERE NOT EXISTS (SELECT 1 FROM bg_event x WHERE"
	    " x.game_id = g.id AND x.ended = 1 AND" JOURNAL_LIVE("bg_event",
	    "game_id", "x") ") ORDER BY g.id",
	.sql_last_mine = "SELECT id FROM (SELECT e.game_id AS id, e.time AS"
	    " t FROM bg_event e WHERE e.gm = ?1 UNION ALL SELECT g.id,"
	    " g.created FROM bg_game g WHERE g.gm = ?1) AS a ORDER BY t DESC,"
	    " id DESC LIMIT 1",
	.sql_gm = "SELECT gm FROM bg_game WHERE id = ?1",
	.snap_every = BGLEDGER_SNAP_EVERY,
	.snap_version = JOURNAL_SNAP_VERSION(BGPACK_FORMAT),
	.dice = bg_dice,
	.replay = bgledger_replay,
	.ask = ask_ahead,
};

int64_t
bgledger_game_current(struct db *db)
{
	return journal_latest(db, &bgledger_kind);
}

void
bgledger_team_names(struct db *db, void (*fn)(void *, const char *),
    void *arg)
{
	db_each_text(db, db_prepare(db, "SELECT name FROM bg_team"), fn, arg);
}

void
bgledger_game_figures(struct db *db, int64_t id,
    void (*fn)(void *, const char *), void *arg)
{
	struct db_stmt *st = db_prepare(db, "SELECT spec1, spec2 FROM bg_game"
	    " WHERE id = ?1");
	struct bg_team *t = xcalloc(2, sizeof *t);
	char why[BG_WHYSZ];
	int ok = 0;

	db_bind_int(st, 1, id);
	if (db_step(db, st, 0) == DB_ROW)
		ok = bgtext_team_parse(db_column_text(st, 0), &t[0], why,
		    sizeof why) == 0 && bgtext_team_parse(db_column_text(st, 1),
		    &t[1], why, sizeof why) == 0;
	db_finalize(st);
	for (int k = 0; ok && k < 2; k++)
		for (int i = 0; i < t[k].n; i++)
			fn(arg, t[k].f[i].name);
	free(t);
}

/* How game_load_at loads: every event, whatever the snapshots. */
#define LOAD_ALL	(-1)

/* 1 if d's snapshot reads back into a game. */
static int
snap_reads(const struct bgledger_game *d)
{
	struct bg_game *g = xmalloc(sizeof *g);
	int ok = bgpack_read(d->j.snap, d->j.snaplen, &d->team[0],
	    &d->team[1], d->advanced, d->safe_attack, g) == 0;

	free(g);
	return ok;
}

/*
 * Loads game id into d: every event (before LOAD_ALL), or those after
 * the newest snapshot usable before seq before (0: any).  A snapshot
 * that does not read back is passed over for all the events.
 */
static int
game_load_at(struct db *db, int64_t id, int64_t before,
    struct bgledger_game *d)
{
	struct head h = { .d = d };
	char why[BG_WHYSZ];
	int rc;

	memset(d, 0, sizeof *d);
	d->id = id;
	if (before == LOAD_ALL)
		rc = journal_load(db, &bgledger_kind, id, &h, &d->j);
	else
		rc = journal_load_recent(db, &bgledger_kind, id, before, &h,
		    &d->j);
	for (int k = 0; k < 2 && rc == 0; k++)
		if (bgtext_team_parse(h.spec[k], &d->team[k], why,
		    sizeof why) < 0) {
			free(h.spec[0]);
			free(h.spec[1]);
			db_die(db, "game %lld: team %d: %s", (long long)id,
			    k + 1, why);
		}
	free(h.spec[0]);
	free(h.spec[1]);
	if (rc == 0 && d->j.snap != NULL && !snap_reads(d)) {
		journal_release(&d->j);
		h.spec[0] = h.spec[1] = NULL;
		rc = journal_load(db, &bgledger_kind, id, &h, &d->j);
		free(h.spec[0]);
		free(h.spec[1]);
	}
	return rc;
}

int
bgledger_game_load(struct db *db, int64_t id, struct bgledger_game *d)
{
	return game_load_at(db, id, LOAD_ALL, d);
}

int
bgledger_game_load_recent(struct db *db, int64_t id, int64_t before,
    struct bgledger_game *d)
{
	return game_load_at(db, id, before > 0 ? before : 0, d);
}

int64_t
bgledger_undo_target(struct db *db, int64_t id)
{
	return journal_undo_target(db, &bgledger_kind, id);
}

int64_t *
bgledger_game_ids(struct db *db, size_t *n)
{
	return journal_ids(db, &bgledger_kind, n);
}

void
bgledger_game_release(struct bgledger_game *d)
{
	journal_release(&d->j);
	memset(d, 0, sizeof *d);
}

void
bgledger_game_each(struct db *db,
    void (*fn)(void *, const struct journal_summary *), void *arg)
{
	journal_summaries(db, "SELECT g.id, g.team1, g.team2,"
	    " CASE g.advanced WHEN 1 THEN 'advanced' ELSE 'basic' END,"
	    " (SELECT count(*) FROM bg_event e WHERE e.game_id = g.id AND"
	    "  e.action IN ('move', 'power', 'pass') AND"
	    JOURNAL_LIVE("bg_event", "game_id", "e") "), NULL,"
	    " (SELECT e.winner FROM bg_event e WHERE e.game_id = g.id AND"
	    "  e.ended = 1 AND" JOURNAL_LIVE("bg_event", "game_id", "e") ")"
	    " FROM bg_game g ORDER BY g.id", NULL, fn, arg);
}

int
bgledger_team_games(struct db *db, const char *name)
{
	/*
	 * A game's team names compare without case, as teams do; lower()
	 * and not COLLATE NOCASE, which a server has no collation for.
	 * Team names are ASCII, which both dialects' lower() fold alike.
	 */
	return (int)db_run_text(db, "SELECT count(*) FROM bg_game WHERE"
	    " lower(team1) = lower(?1) OR lower(team2) = lower(?1)", name);
}

/* ---- applying and deriving ---- */

static int
words(char *buf, char **w, int max)
{
	int n = 0;

	for (char *p = strtok(buf, " "); p != NULL; p = strtok(NULL, " "))
		if (n++ < max)
			w[n - 1] = p;
	return n;
}

static int
fail(char *why, size_t whysz, const char *m)
{
	snprintf(why, whysz, "%s", m);
	return -1;
}

static int
apply_power(struct bg_game *g, char *buf, struct bg_report *r, char **canon,
    char *why, size_t whysz)
{
	char *w[5], name[BG_PIECESZ], arg[BG_PIECESZ] = "", sq[4];
	int n = words(buf, w, 5), piece, power, foe = -1, to;

	if (n < 3 || n > 4)
		return fail(why, whysz, "power: FIGURE POWER [FOE] SQUARE");
	if ((piece = bgtext_piece(g, w[0], g->turn, why, whysz)) < 0)
		return -1;
	if ((power = bg_power_find(w[1])) < 0) {
		util_say(why, whysz, "unknown power '%s'", w[1]);
		return -1;
	}
	if (n == 4 && (foe = bgtext_piece(g, w[2], !g->turn, why, whysz)) < 0)
		return -1;
	if (power == BG_HYPNOTIZE && foe < 0)
		return fail(why, whysz, "hypnotize names the foe's figure to "
		    "take from the Holding Zone");
	if (power != BG_HYPNOTIZE && foe >= 0)
		return fail(why, whysz, "only hypnotize names a second figure");
	if ((to = bg_square_parse(g, w[n - 1])) < 0) {
		util_say(why, whysz, "'%s' is not a square of this board",
		    w[n - 1]);
		return -1;
	}
	if (bg_power(g, piece, power, foe, to, r, why, whysz) < 0)
		return -1;
	if (canon != NULL) {
		bgtext_piece_name(g, piece, name, sizeof name);
		if (foe >= 0)
			bgtext_piece_name(g, foe, arg, sizeof arg);
		bg_square_name(g, to, sq);
		*canon = xasprintf("%s %s%s%s %s", name, bg_power_name(power),
		    foe >= 0 ? " " : "", arg, sq);
	}
	return 0;
}

static int
apply_die(struct bg_game *g, char *buf, char **canon, char *why,
    size_t whysz)
{
	char *w[5];
	int n = words(buf, w, 5), p;
	long d, back = 0;

	if (n != 2 && n != 4)
		return fail(why, whysz, "die: TEAM DIE [--swap DIE]");
	if ((p = bgtext_team(g, w[0], why, whysz)) < 0)
		return -1;
	if (util_parse_int(w[1], 1, BG_NDICE, &d) != UTIL_INT_OK ||
	    (n == 4 && (strcmp(w[2], "--swap") != 0 ||
	    util_parse_int(w[3], 1, BG_NDICE, &back) != UTIL_INT_OK)))
		return fail(why, whysz, "a Battle Die is numbered 1 to 6");
	if (bg_die(g, p, (int)d - 1, (int)back - 1, why, whysz) < 0)
		return -1;
	if (canon != NULL)
		*canon = n == 4 ? xasprintf("%d %ld --swap %ld", p + 1, d,
		    back) : xasprintf("%d %ld", p + 1, d);
	return 0;
}

/*
 * A GM's ruling: "TEAM DICE=+1" (the team as typed, or its number as
 * stored), canonical "P DICE=+1".
 */
static int
apply_adjust(struct bg_game *g, char *buf, char **canon, char *why,
    size_t whysz)
{
	struct ruling_change c[RULING_CHANGES_MAX];
	char *sp = strchr(buf, ' ');
	int p, n;

	if (sp == NULL)
		return fail(why, whysz, "adjust: TEAM COUNTER=+N...");
	*sp = '\0';
	if ((p = bgtext_team(g, buf, why, whysz)) < 0 ||
	    (n = ruling_changes_parse(sp + 1, bg_adjust_names, c, why,
	    whysz)) < 0 || bg_adjust(g, p, c, n, why, whysz) < 0)
		return -1;
	if (canon != NULL)
		*canon = xasprintf("%d %s", p + 1, sp + 1);
	return 0;
}

int
bgledger_apply(struct bg_game *g, const char *action, const char *input,
    struct rng *rng, struct bg_report *r, char **canon, char *why,
    size_t whysz)
{
	char *buf = xstrdup(input);
	int rc = -1;

	memset(r, 0, sizeof *r);
	r->piece = r->foe = r->loser = r->released = -1;
	if (canon != NULL)
		*canon = NULL;
	if (strcmp(action, "move") == 0) {
		struct bg_move_in in;

		if (bgtext_move_parse(g, input, &in, why, whysz) == 0 &&
		    bg_move(g, &in, rng, r, why, whysz) == 0) {
			rc = 0;
			if (canon != NULL)
				*canon = bgtext_move_format(g, &in);
		}
	} else if (strcmp(action, "place") == 0) {
		char *w[3], name[BG_PIECESZ], sq[4];
		int piece = -1, to;

		if (words(buf, w, 3) != 2)
			rc = fail(why, whysz, "place: FIGURE SQUARE");
		else if ((piece = bgtext_piece(g, w[0], -1, why, whysz)) < 0)
			rc = -1;
		else if ((to = bg_square_parse(g, w[1])) < 0) {
			rc = util_say(why, whysz, "'%s' is not a square of "
			    "this board", w[1]);
		} else if ((rc = bg_place(g, piece, to, why, whysz)) == 0 &&
		    canon != NULL) {
			bgtext_piece_name(g, piece, name, sizeof name);
			bg_square_name(g, to, sq);
			*canon = xasprintf("%s %s", name, sq);
		}
		r->piece = rc == 0 ? piece : -1;
	} else if (strcmp(action, "power") == 0)
		rc = apply_power(g, buf, r, canon, why, whysz);
	else if (strcmp(action, "die") == 0)
		rc = apply_die(g, buf, canon, why, whysz);
	else if (strcmp(action, "adjust") == 0)
		rc = apply_adjust(g, buf, canon, why, whysz);
	else if (strcmp(action, "pass") == 0) {
		if (input[0] != '\0')
			rc = fail(why, whysz, "pass takes nothing");
		else if ((rc = bg_pass(g, why, whysz)) == 0 && canon != NULL)
			*canon = xstrdup("");
	} else
		util_say(why, whysz, "unknown action '%s'", action);
	free(buf);
	return rc;
}

/*
 * Runs one stored event again; a move must fight the battle it fought,
 * ending as it did, or fight none if it fought none.
 */
static int
replay_one(void *arg, const void *body, char *why, size_t whysz)
{
	const struct journal_event *e = body;
	struct bg_report r;
	struct rng rng;
	const char *won;
	char said[32];

	/* Every die is in the inputs; a generator is only a safety net. */
	rng_seed(&rng, 0);
	if (bgledger_apply(arg, e->action, e->input, &rng, &r, NULL, why,
	    whysz) < 0)
		return -1;
	if (strcmp(e->action, "move") != 0 || (!r.battle && !e->outcome))
		return 0;
	won = !r.battle ? "" : r.att_won ? "won" : "lost";
	snprintf(said, sizeof said, r.battle ? "battle is %s" :
	    "move fights no battle", won);
	return journal_event_recheck(e, won, said, why, whysz);
}

/* Starts g from d's snapshot, or from the setup if d has none. */
static void
derive_start(const struct bgledger_game *d, struct bg_game *g)
{
	/* game_load_at has read the snapshot back once already. */
	if (d->j.snap == NULL || bgpack_read(d->j.snap, d->j.snaplen,
	    &d->team[0], &d->team[1], d->advanced, d->safe_attack, g) != 0)
		bg_start(g, &d->team[0], &d->team[1], d->advanced,
		    d->safe_attack);
}

int
bgledger_derive(const struct bgledger_game *d, struct bg_game *g,
    int64_t *bad, char *why, size_t whysz)
{
	derive_start(d, g);
	return journal_derive(&d->j, replay_one, g, bad, why, whysz);
}

/* A game's state to its rules' walks (core/journal.h). */
static void
pack_game(const void *g, struct pack *p)
{
	bgpack_write(g, p);
}

/* A move drawn again from its input as typed, for a seal's check. */
static int
redraw(void *g, const struct journal_event *e, const char *typed,
    struct rng *rng, char **canon, char *why, size_t whysz)
{
	struct bg_report r;

	return bgledger_apply(g, e->action, typed, rng, &r, canon, why,
	    whysz);
}

static const struct journal *
load_game(struct db *db, int64_t id, void *lg)
{
	struct bgledger_game *d = lg;

	return bgledger_game_load(db, id, d) == 0 ? &d->j : NULL;
}

static void
start_game(void *g, const void *lg)
{
	const struct bgledger_game *d = lg;

	bg_start(g, &d->team[0], &d->team[1], d->advanced, d->safe_attack);
}

static void
release_game(void *lg)
{
	bgledger_game_release(lg);
}

/* A move that does not run again is reported, and the audit goes on. */
const struct journal_rules bgledger_rules = {
	.kind = &bgledger_kind, .size = sizeof(struct bg_game),
	.whysz = BG_WHYSZ, .step = replay_one, .pack = pack_game,
	.go_on = 1, .lsize = sizeof(struct bgledger_game), .load = load_game,
	.start = start_game, .release = release_game, .redraw = redraw,
};

int64_t
bgledger_record(struct db *db, int64_t id, struct journal_event *e,
    const struct bg_game *after)
{
	e->seq = journal_append_state(db, &bgledger_rules, id, e, after);
	return e->seq;
}

ptrdiff_t
bgledger_undo(struct db *db, struct bgledger_game *d, struct bg_game *g,
    int64_t now, const char *gm, int64_t *seq, char *why, size_t whysz)
{
	ptrdiff_t i = journal_undoable(&d->j);
	int64_t bad;

	if (i < 0) {
		snprintf(why, whysz, "nothing to undo in game %lld",
		    (long long)d->id);
		return -1;
	}
	/* The state after the undo is the game without the event. */
	d->j.undone[i] = 1;
	if (bgledger_derive(d, g, &bad, why, whysz) != 0) {
		d->j.undone[i] = 0;
		return -1;
	}
	*seq = journal_event_undo(db, &d->j, (size_t)i, now, gm);
	journal_snapshot_after(db, &bgledger_rules, d->id, *seq, g);
	return i;
}

int
bgledger_audit(struct db *db, const struct bgledger_game *d,
    void (*bad)(void *arg, int64_t seq, const char *why), void *arg)
{
	struct bg_game *g = xcalloc(1, sizeof *g);
	int n;

	start_game(g, d);
	n = journal_audit(db, &bgledger_rules, &d->j, g, bad, arg);
	free(g);
	return n;
}

/* ---- sealed draws ---- */

int
bgledger_seal(struct db *db, int64_t id, uint64_t *seed)
{
	return seal_draw_next(db, &bgledger_kind, id, seed);
}
