/*
 * bgledger.c - Battle Grounds teams and games in the database, and the
 * derivation of a game's state from its events.  See bgledger.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bg/bgio.h"
#include "bg/bgledger.h"
#include "core/util.h"

int
bgledger_team_add(struct db *db, const struct bg_team *t)
{
	sqlite3_stmt *st;
	int64_t id;
	int rc;

	st = db_prepare(db, "INSERT INTO bg_team (name, created) VALUES"
	    " (?1, ?2)");
	sqlite3_bind_text(st, 1, t->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, db_now());
	rc = db_step(db, st, 1);
	sqlite3_finalize(st);
	if (rc == SQLITE_CONSTRAINT)
		return -1;
	id = sqlite3_last_insert_rowid(db->h);
	st = db_prepare(db, "INSERT INTO bg_figure (team_id, pos, name, level,"
	    " cosmic, red, orange, yellow, green, blue, purple, powers)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
	for (int i = 0; i < t->n; i++) {
		const struct bg_figure *f = &t->f[i];
		char *pw = bgio_powers(f->powers, "+");

		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int(st, 2, i + 1);
		sqlite3_bind_text(st, 3, f->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, bg_level_name(f->level), -1,
		    SQLITE_STATIC);
		sqlite3_bind_int(st, 5, f->cosmic);
		for (int c = 0; c < BG_NSTAT; c++)
			sqlite3_bind_int(st, 6 + c, f->stat[c]);
		sqlite3_bind_text(st, 12, pw, -1, SQLITE_TRANSIENT);
		free(pw);
		db_step(db, st, 0);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return 0;
}

#define TEAM_SELECT "SELECT t.name, f.name, f.level, f.cosmic, f.red," \
	" f.orange, f.yellow, f.green, f.blue, f.purple, f.powers, t.id" \
	" FROM bg_team t LEFT JOIN bg_figure f ON f.team_id = t.id"

/* Adds the figure of a TEAM_SELECT row to t, if the row has one. */
static void
team_row(sqlite3_stmt *st, struct bg_team *t)
{
	struct bg_figure *f;
	const char *pw;

	snprintf(t->name, sizeof t->name, "%s",
	    db_column_text(st, 0));
	if (sqlite3_column_type(st, 1) == SQLITE_NULL || t->n == BG_MAXFIG)
		return;
	f = &t->f[t->n++];
	snprintf(f->name, sizeof f->name, "%s",
	    db_column_text(st, 1));
	f->level = bg_level_find(db_column_text(st, 2));
	f->cosmic = sqlite3_column_int(st, 3);
	for (int c = 0; c < BG_NSTAT; c++)
		f->stat[c] = sqlite3_column_int(st, 4 + c);
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
bgledger_team_load(struct db *db, const char *name, struct bg_team *t)
{
	sqlite3_stmt *st;
	int found = 0;

	memset(t, 0, sizeof *t);
	st = db_prepare(db, TEAM_SELECT " WHERE t.name = ?1 ORDER BY f.pos");
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	while (db_step(db, st, 0) == SQLITE_ROW) {
		team_row(st, t);
		found = 1;
	}
	sqlite3_finalize(st);
	return found ? 0 : -1;
}

int
bgledger_team_rm(struct db *db, const char *name)
{
	sqlite3_stmt *st = db_prepare(db, "DELETE FROM bg_team WHERE"
	    " name = ?1");

	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	db_step(db, st, 0);
	sqlite3_finalize(st);
	return sqlite3_changes(db->h) > 0 ? 0 : -1;
}

void
bgledger_team_each(struct db *db, void (*fn)(void *, const struct bg_team *),
    void *arg)
{
	/* One query: a team's rows come together, in figure order. */
	sqlite3_stmt *st = db_prepare(db, TEAM_SELECT
	    " ORDER BY t.name, t.id, f.pos");
	struct bg_team *t = xcalloc(1, sizeof *t);
	int64_t id = -1;

	while (db_step(db, st, 0) == SQLITE_ROW) {
		int64_t row = sqlite3_column_int64(st, 11);

		if (id >= 0 && row != id) {
			fn(arg, t);
			memset(t, 0, sizeof *t);
		}
		id = row;
		team_row(st, t);
	}
	if (id >= 0)
		fn(arg, t);
	sqlite3_finalize(st);
	free(t);
}

void
bgledger_stat_names(struct db *db, char names[BG_NSTAT][48])
{
	sqlite3_stmt *st = db_prepare(db, "SELECT colour, name FROM bg_stat");

	for (int c = 0; c < BG_NSTAT; c++)
		snprintf(names[c], 48, "%s", bg_colour_name(c));
	while (db_step(db, st, 0) == SQLITE_ROW) {
		int c = bg_colour_find(db_column_text(st,
		    0));

		if (c >= 0)
			snprintf(names[c], 48, "%s",
			    db_column_text(st, 1));
	}
	sqlite3_finalize(st);
}

void
bgledger_stat_set(struct db *db, int colour, const char *name)
{
	sqlite3_stmt *st = db_prepare(db, "UPDATE bg_stat SET name = ?2"
	    " WHERE colour = ?1");

	sqlite3_bind_text(st, 1, bg_colour_name(colour), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	db_step(db, st, 0);
	sqlite3_finalize(st);
}

/* ---- games ---- */

int64_t
bgledger_game_new(struct db *db, const struct bg_team *a,
    const struct bg_team *b,
    int advanced, int safe_attack)
{
	sqlite3_stmt *st;
	char *sa = bgio_team_format(a), *sb = bgio_team_format(b);
	int64_t id;

	st = db_prepare(db, "INSERT INTO bg_game (team1, team2, advanced,"
	    " safe_attack, spec1, spec2, created) VALUES (?1, ?2, ?3, ?4,"
	    " ?5, ?6, ?7)");
	sqlite3_bind_text(st, 1, a->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, b->name, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, advanced);
	sqlite3_bind_int(st, 4, safe_attack);
	sqlite3_bind_text(st, 5, sa, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, sb, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 7, db_now());
	db_step(db, st, 0);
	sqlite3_finalize(st);
	id = sqlite3_last_insert_rowid(db->h);
	free(sa);
	free(sb);
	return id;
}

int64_t
bgledger_game_current(struct db *db)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT coalesce(max(id), 0)"
	    " FROM bg_game");
	int64_t id;

	db_step(db, st, 0);
	id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

int
bgledger_game_load(struct db *db, int64_t id, struct bgledger_game *d)
{
	sqlite3_stmt *st;
	char why[BG_WHYSZ];
	int found = 0;
	size_t cap = 0;

	memset(d, 0, sizeof *d);
	st = db_prepare(db, "SELECT team1, team2, advanced, safe_attack, spec1,"
	    " spec2 FROM bg_game WHERE id = ?1");
	sqlite3_bind_int64(st, 1, id);
	if (db_step(db, st, 0) == SQLITE_ROW) {
		found = 1;
		d->id = id;
		d->advanced = sqlite3_column_int(st, 2);
		d->safe_attack = sqlite3_column_int(st, 3);
		for (int k = 0; k < 2; k++) {
			snprintf(d->team[k].name, sizeof d->team[k].name, "%s",
			    db_column_text(st, k));
			if (bgio_team_parse(db_column_text(st,
			    4 + k), &d->team[k], why, sizeof why) < 0) {
				sqlite3_finalize(st);
				db_die(db, "game %lld: team %d: %s",
				    (long long)id, k + 1, why);
			}
		}
	}
	sqlite3_finalize(st);
	if (!found)
		return -1;
	st = db_prepare(db, "SELECT seq, turn, action, actor, input, battle,"
	    " ended, winner, seed, undoes, detail, time FROM bg_event"
	    " WHERE game_id = ?1 ORDER BY seq");
	sqlite3_bind_int64(st, 1, id);
	while (db_step(db, st, 0) == SQLITE_ROW) {
		struct bgledger_event *e;

		if (d->n == cap) {
			cap = cap ? 2 * cap : 16;
			d->ev = xreallocarray(d->ev, cap, sizeof *d->ev);
		}
		e = &d->ev[d->n++];
		e->seq = sqlite3_column_int64(st, 0);
		e->turn = sqlite3_column_int(st, 1);
		e->action = db_column_dup(st, 2);
		e->actor = db_column_dup(st, 3);
		e->input = db_column_dup(st, 4);
		e->battle = db_column_dup(st, 5);
		e->ended = sqlite3_column_int(st, 6);
		e->winner = db_column_dup(st, 7);
		e->seed = db_column_dup(st, 8);
		e->undoes = sqlite3_column_int64(st, 9);
		e->detail = xstrdup(db_column_json(st, 10));
		e->time = sqlite3_column_int64(st, 11);
	}
	sqlite3_finalize(st);
	d->undone = xcalloc(d->n + 1, sizeof *d->undone);
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->ev[i].action, "undo") == 0)
			for (size_t j = 0; j < i; j++)
				if (d->ev[j].seq == d->ev[i].undoes)
					d->undone[j] = 1;
	return 0;
}

void
bgledger_game_release(struct bgledger_game *d)
{
	for (size_t i = 0; i < d->n; i++) {
		struct bgledger_event *e = &d->ev[i];

		free(e->action);
		free(e->actor);
		free(e->input);
		free(e->battle);
		free(e->winner);
		free(e->seed);
		free(e->detail);
	}
	free(d->ev);
	free(d->undone);
	memset(d, 0, sizeof *d);
}

void
bgledger_event_append(struct db *db, int64_t id, struct bgledger_event *e)
{
	sqlite3_stmt *st;

	st = db_prepare(db, "SELECT coalesce(max(seq), 0) + 1 FROM bg_event"
	    " WHERE game_id = ?1");
	sqlite3_bind_int64(st, 1, id);
	db_step(db, st, 0);
	e->seq = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	st = db_prepare(db, "INSERT INTO bg_event (game_id, seq, turn, action,"
	    " actor, input, battle, ended, winner, seed, undoes, detail, time)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)");
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, e->seq);
	sqlite3_bind_int(st, 3, e->turn);
	sqlite3_bind_text(st, 4, e->action, -1, SQLITE_STATIC);
	db_bind_text_or_null(st, 5, e->actor);
	sqlite3_bind_text(st, 6, e->input, -1, SQLITE_STATIC);
	db_bind_text_or_null(st, 7, e->battle);
	sqlite3_bind_int(st, 8, e->ended);
	db_bind_text_or_null(st, 9, e->winner);
	db_bind_text_or_null(st, 10, e->seed);
	if (e->undoes > 0)
		sqlite3_bind_int64(st, 11, e->undoes);
	sqlite3_bind_text(st, 12, e->detail, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 13, e->time);
	db_step(db, st, 0);
	sqlite3_finalize(st);
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
	if ((piece = bgio_piece(g, w[0], g->turn, why, whysz)) < 0)
		return -1;
	if ((power = bg_power_find(w[1])) < 0) {
		util_say(why, whysz, "unknown power '%s'", w[1]);
		return -1;
	}
	if (n == 4 && (foe = bgio_piece(g, w[2], !g->turn, why, whysz)) < 0)
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
		bgio_piece_name(g, piece, name, sizeof name);
		if (foe >= 0)
			bgio_piece_name(g, foe, arg, sizeof arg);
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
	int n = words(buf, w, 5), p = -1;
	long d, back = 0;

	if (n != 2 && n != 4)
		return fail(why, whysz, "die: TEAM DIE [--swap DIE]");
	for (int k = 0; k < 2; k++)
		if (util_streq_ci(w[0], g->team[k].name) ||
		    (w[0][0] == '1' + k && w[0][1] == '\0'))
			p = k;
	if (p < 0) {
		util_say(why, whysz, "'%s' is neither team", w[0]);
		return -1;
	}
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

		if (bgio_move_parse(g, input, &in, why, whysz) == 0 &&
		    bg_move(g, &in, rng, r, why, whysz) == 0) {
			rc = 0;
			if (canon != NULL)
				*canon = bgio_move_format(g, &in);
		}
	} else if (strcmp(action, "place") == 0) {
		char *w[3], name[BG_PIECESZ], sq[4];
		int piece = -1, to;

		if (words(buf, w, 3) != 2)
			rc = fail(why, whysz, "place: FIGURE SQUARE");
		else if ((piece = bgio_piece(g, w[0], -1, why, whysz)) < 0)
			rc = -1;
		else if ((to = bg_square_parse(g, w[1])) < 0) {
			rc = util_say(why, whysz, "'%s' is not a square of "
			    "this board", w[1]);
		} else if ((rc = bg_place(g, piece, to, why, whysz)) == 0 &&
		    canon != NULL) {
			bgio_piece_name(g, piece, name, sizeof name);
			bg_square_name(g, to, sq);
			*canon = xasprintf("%s %s", name, sq);
		}
		r->piece = rc == 0 ? piece : -1;
	} else if (strcmp(action, "power") == 0)
		rc = apply_power(g, buf, r, canon, why, whysz);
	else if (strcmp(action, "die") == 0)
		rc = apply_die(g, buf, canon, why, whysz);
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

int
bgledger_derive(const struct bgledger_game *d, struct bg_game *g, int64_t *bad,
    char *why, size_t whysz)
{
	struct rng rng;
	struct bg_report r;

	/* Every die is in the inputs; a generator is only a safety net. */
	rng_seed(&rng, 0);
	bg_start(g, &d->team[0], &d->team[1], d->advanced, d->safe_attack);
	for (size_t i = 0; i < d->n; i++) {
		const struct bgledger_event *e = &d->ev[i];

		if (d->undone[i] || strcmp(e->action, "undo") == 0)
			continue;
		*bad = e->seq;
		if (bgledger_apply(g, e->action, e->input, &rng, &r, NULL, why,
		    whysz) < 0)
			return -1;
		if (strcmp(e->action, "move") == 0 && r.battle &&
		    (e->battle == NULL || strcmp(e->battle, r.att_won ? "won" :
		    "lost") != 0)) {
			snprintf(why, whysz, "the battle is %s again, not the "
			    "recorded '%s'", r.att_won ? "won" : "lost",
			    e->battle ? e->battle : "-");
			return -1;
		}
	}
	return 0;
}
