/*
 * fb/ledger.c - Force Battles boards, duelists and duels in the database,
 * and the derivation of a duel's state from its events.  See fb/ledger.h.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb/text.h"
#include "fb/ledger.h"
#include "fb/pack.h"
#include "core/ruling.h"
#include "db/lookup.h"
#include "base/util.h"

int
fbledger_board_name(struct db *db, const char *typed, char name[FB_NAMESZ],
    char *why, size_t whysz)
{
	return lookup_name_buf(db, "SELECT name FROM fb_board WHERE name = ?1",
	    "SELECT name FROM fb_board", typed, "no board", name, FB_NAMESZ,
	    why, whysz);
}

int
fbledger_duelist_name(struct db *db, const char *typed,
    char name[FBLEDGER_NAMESZ], char *why, size_t whysz)
{
	return lookup_name_buf(db, "SELECT name FROM fb_duelist"
	    " WHERE name = ?1", "SELECT name FROM fb_duelist", typed,
	    "no duelist", name, FBLEDGER_NAMESZ, why, whysz);
}

int
fbledger_board_load(struct db *db, const char *name, struct fb_board *b)
{
	struct db_stmt *st;
	char why[FB_WHYSZ];
	int found = 0;

	memset(b, 0, sizeof *b);
	b->center = -1;
	st = db_prepare(db, "SELECT name FROM fb_board WHERE name = ?1");
	db_bind_text(st, 1, name);
	if (db_step(db, st, 0) == DB_ROW) {
		snprintf(b->name, sizeof b->name, "%s",
		    db_column_text(st, 0));
		found = 1;
	}
	db_finalize(st);
	if (!found)
		return -1;
	st = db_prepare(db, "SELECT role, name, face, alt FROM fb_target"
	    " WHERE board = ?1");
	db_bind_text(st, 1, b->name);
	while (db_step(db, st, 0) == DB_ROW) {
		int t = fb_role_find(db_column_text(st, 0));

		if (t < 0)
			continue;
		snprintf(b->tname[t], FB_NAMESZ, "%s",
		    db_column_text(st, 1));
		b->face[t] = db_column_int(st, 2);
		b->alt[t] = db_column_int(st, 3);
	}
	db_finalize(st);
	st = db_prepare(db, "SELECT s.pos, s.name, s.role, t.role FROM"
	    " fb_sphere s LEFT JOIN fb_touch t ON t.board = s.board AND"
	    " t.pos = s.pos WHERE s.board = ?1 ORDER BY s.pos");
	db_bind_text(st, 1, b->name);
	while (db_step(db, st, 0) == DB_ROW) {
		int pos = db_column_int(st, 0) - 1;
		const char *role = db_column_text(st, 2);
		const char *t = db_column_text(st, 3);

		if (pos < 0 || pos >= FB_MAXS)
			continue;
		if (pos >= b->ns)
			b->ns = pos + 1;
		snprintf(b->sname[pos], FB_NAMESZ, "%s",
		    db_column_text(st, 1));
		if (role != NULL && strcmp(role, "center") == 0)
			b->center = pos;
		if (role != NULL && strcmp(role, "lower") == 0)
			b->lower |= 1u << pos;
		if (t != NULL && fb_role_find(t) >= 0)
			b->touch[pos] |= 1u << fb_role_find(t);
	}
	db_finalize(st);
	if (fb_board_finish(b, why, sizeof why) < 0)
		db_die(db, "board '%s' in the database: %s", name, why);
	return 0;
}

int
fbledger_board_add(struct db *db, const struct fb_board *b)
{
	struct db_stmt *st;
	int rc;

	st = db_prepare(db, "INSERT INTO fb_board (name) VALUES (?1)");
	db_bind_text(st, 1, b->name);
	rc = db_step(db, st, 1);
	db_finalize(st);
	if (rc == DB_CONSTRAINT)
		return -1;
	st = db_prepare(db, "INSERT INTO fb_target (board, role, name, face,"
	    " alt) VALUES (?1, ?2, ?3, ?4, ?5)");
	for (int t = 0; t < FB_NT; t++) {
		db_bind_text(st, 1, b->name);
		db_bind_text(st, 2, fb_role_name(t));
		db_bind_text(st, 3, b->tname[t]);
		db_bind_int(st, 4, b->face[t]);
		db_bind_int(st, 5, b->alt[t]);
		db_step(db, st, 0);
		db_reset(st);
	}
	db_finalize(st);
	st = db_prepare(db, "INSERT INTO fb_sphere (board, pos, name, role)"
	    " VALUES (?1, ?2, ?3, ?4)");
	for (int i = 0; i < b->ns; i++) {
		db_bind_text(st, 1, b->name);
		db_bind_int(st, 2, i + 1);
		db_bind_text(st, 3, b->sname[i]);
		if (i == b->center)
			db_bind_text(st, 4, "center");
		else if (b->lower & 1u << i)
			db_bind_text(st, 4, "lower");
		else
			db_bind_null(st, 4);
		db_step(db, st, 0);
		db_reset(st);
	}
	db_finalize(st);
	st = db_prepare(db, "INSERT INTO fb_touch (board, pos, role)"
	    " VALUES (?1, ?2, ?3)");
	for (int i = 0; i < b->ns; i++)
		for (int t = 0; t < FB_NT; t++) {
			if (!(b->touch[i] & 1u << t))
				continue;
			db_bind_text(st, 1, b->name);
			db_bind_int(st, 2, i + 1);
			db_bind_text(st, 3, fb_role_name(t));
			db_step(db, st, 0);
			db_reset(st);
		}
	db_finalize(st);
	return 0;
}

void
fbledger_board_each(struct db *db, void (*fn)(void *, const char *), void *arg)
{
	struct db_stmt *st = db_prepare(db, "SELECT name FROM fb_board"
	    " ORDER BY name");

	while (db_step(db, st, 0) == DB_ROW)
		fn(arg, db_column_text(st, 0));
	db_finalize(st);
}

static void
duelist_row(struct db_stmt *st, struct fbledger_duelist *d)
{
	const char *fg = db_column_text(st, 6);

	memset(d, 0, sizeof *d);
	d->id = db_column_int(st, 0);
	snprintf(d->name, sizeof d->name, "%s",
	    db_column_text(st, 1));
	d->sh.side = strcmp(db_column_text(st, 2),
	    "dark") == 0 ? FB_DARK : FB_LIGHT;
	d->sh.hand = strcmp(db_column_text(st, 3),
	    "left") == 0 ? FB_LEFT : FB_RIGHT;
	d->sh.colour = fb_colour_find(db_column_text(st,
	    4));
	d->sh.level = fb_level_find(db_column_text(st, 5));
	d->sh.free_geas = fg ? fb_geas_find(fg) : -1;
	snprintf(d->board, sizeof d->board, "%s",
	    db_column_text(st, 7));
	d->notes = db_column_dup(st, 9);
	d->created = db_column_int(st, 10);
	d->updated = db_column_int(st, 11);
}

#define DUELIST_COLS "id, name, side, hand, colour, level, free_geas," \
	" board, stance, notes, created, updated"

int
fbledger_duelist_load(struct db *db, const char *name,
    struct fbledger_duelist *d,
    struct fb_board *b)
{
	struct db_stmt *st;
	char why[FB_WHYSZ], *stance = NULL;
	int found = 0;

	st = db_prepare(db, "SELECT " DUELIST_COLS " FROM fb_duelist"
	    " WHERE name = ?1");
	db_bind_text(st, 1, name);
	if (db_step(db, st, 0) == DB_ROW) {
		duelist_row(st, d);
		stance = db_column_dup(st, 8);
		found = 1;
	}
	db_finalize(st);
	if (!found)
		return -1;
	if (fbledger_board_load(db, d->board, b) < 0)
		db_die(db, "duelist '%s': no board '%s'", d->name, d->board);
	if (fbtext_stance_parse(b, stance, &d->sh.st, why, sizeof why) < 0)
		db_die(db, "duelist '%s': stored stance: %s", d->name, why);
	free(stance);
	return 0;
}

void
fbledger_duelist_release(struct fbledger_duelist *d)
{
	free(d->notes);
	d->notes = NULL;
}

int
fbledger_duelist_save(struct db *db, struct fbledger_duelist *d,
    const struct fb_board *b, int64_t now)
{
	struct db_stmt *st;
	char *stance = fbtext_stance_format(b, &d->sh.st);
	int rc;

	if (d->id == 0)
		st = db_prepare(db, "INSERT INTO fb_duelist (id, name, side,"
		    " hand, colour, level, free_geas, board, stance, notes,"
		    " created, updated) VALUES (" DB_NAME_KEY("lower(?1)")
		    ", ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10)"
		    " RETURNING id");
	else {
		st = db_prepare(db, "UPDATE fb_duelist SET name = ?1, side ="
		    " ?2, hand = ?3, colour = ?4, level = ?5, free_geas = ?6,"
		    " board = ?7, stance = ?8, notes = ?9, updated = ?10"
		    " WHERE id = ?11");
		db_bind_int(st, 11, d->id);
	}
	db_bind_text(st, 1, d->name);
	db_bind_text(st, 2, fb_side_name(d->sh.side));
	db_bind_text(st, 3, fb_hand_name(d->sh.hand));
	db_bind_text(st, 4, fb_colour_name(d->sh.colour));
	db_bind_text(st, 5, fb_level_name(d->sh.level));
	if (d->sh.free_geas >= 0)
		db_bind_text(st, 6, fb_geas_name(d->sh.free_geas));
	db_bind_text(st, 7, b->name);
	db_bind_text(st, 8, stance);
	if (d->notes != NULL)
		db_bind_text(st, 9, d->notes);
	db_bind_int(st, 10, now);
	rc = db_step(db, st, 1);
	if (rc == DB_ROW)
		d->id = db_column_int(st, 0);
	db_finalize(st);
	free(stance);
	if (rc == DB_CONSTRAINT)
		return -1;
	return 0;
}

int
fbledger_duelist_remove(struct db *db, const char *name)
{
	return db_run_text(db, "DELETE FROM fb_duelist WHERE name = ?1",
	    name) > 0 ? 0 : -1;
}

void
fbledger_duelist_each(struct db *db,
    void (*fn)(void *, const struct fbledger_duelist *, const char *),
    void *arg)
{
	struct db_stmt *st = db_prepare(db, "SELECT " DUELIST_COLS
	    " FROM fb_duelist ORDER BY name");
	struct fbledger_duelist d;

	while (db_step(db, st, 0) == DB_ROW) {
		duelist_row(st, &d);
		fn(arg, &d, db_column_text(st, 8));
		fbledger_duelist_release(&d);
	}
	db_finalize(st);
}

/* ---- duels and events ---- */


int64_t
fbledger_duel_current(struct db *db)
{
	return journal_latest(db, &fbledger_kind);
}

void
fbledger_duelist_names(struct db *db, void (*fn)(void *, const char *),
    void *arg)
{
	db_each_text(db, db_prepare(db, "SELECT name FROM fb_duelist"), fn,
	    arg);
}

void
fbledger_duel_names(struct db *db, int64_t id,
    void (*fn)(void *, const char *), void *arg)
{
	struct db_stmt *st = db_prepare(db, "SELECT a FROM fb_duel WHERE"
	    " id = ?1 UNION SELECT b FROM fb_duel WHERE id = ?1");

	db_bind_int(st, 1, id);
	db_each_text(db, st, fn, arg);
}

int64_t
fbledger_duel_new(struct db *db, const char *a, const char *b,
    const char *board, int64_t now)
{
	struct db_stmt *st = db_prepare(db, "INSERT INTO fb_duel (id, a, b,"
	    " board, created) VALUES (" DB_NEW_KEY("fb_duel") ", ?1, ?2, ?3,"
	    " ?4) RETURNING id");
	int64_t id;

	db_bind_text(st, 1, a);
	db_bind_text(st, 2, b);
	db_bind_text(st, 3, board);
	db_bind_int(st, 4, now);
	db_step(db, st, 0);
	id = db_column_int(st, 0);
	db_finalize(st);
	return id;
}

/* The duel's row. */
static void
duel_head(void *ctx, struct db_stmt *st)
{
	struct fbledger_duel *d = ctx;

	d->a = db_column_dup(st, 0);
	d->b = db_column_dup(st, 1);
	d->board = db_column_dup(st, 2);
	d->created = db_column_int(st, 3);
}

/* The options of a duel's input that give dice (fb/text.c). */
static const char *const fb_dice[] = {
	"--init", "--hit", "--block", "--target-die", "--damage", "--gain",
	"--choke-die", NULL
};

/* The kind's replay (core/journal.h): fbledger_audit. */
static int
fbledger_replay(struct db *db, int64_t id, void (*bad)(void *, int64_t,
    int, const char *), void *arg)
{
	struct journal_bad b = { bad, arg };
	int events = 0;

	return fbledger_audit(db, id, journal_bad_ran, &b, &events);
}

/* What an append reads that the load can ask for: the open seal. */
static void
ask_ahead(struct db *db, int64_t id)
{
	(void)id;
	seal_ask(db);
}

const struct journal_kind fbledger_kind = {
	JOURNAL_INPUT_KIND("duel", "fb_duel", "fb_event", "duel_id", "round",
	    "outcome", journal_event_read, journal_event_bind,
	    "a, b, board, created", duel_head),
	.option = "--duel",
	.sql_open = "SELECT d.id, (SELECT max(m.id) FROM fb_event m WHERE"
	    " m.duel_id = d.id AND m.gm = ?1), (SELECT f.gm FROM fb_event f"
	    " WHERE f.duel_id = d.id AND f.seq = 1), l.round, l.action,"
	    " l.actor, d.a || ', ' || d.b FROM fb_duel d JOIN fb_event l ON"
	    " l.duel_id = d.id AND l.seq = (SELECT max(s.seq) FROM fb_event s"
	    " WHERE s.duel_id = d.id) WHERE NOT EXISTS (SELECT 1 FROM"
	    " fb_event x WHERE x.duel_id = d.id AND x.ended IS NOT NULL AND"
	    JOURNAL_LIVE("fb_event", "duel_id", "x") ") ORDER BY d.id",
	.sql_last_mine = "SELECT duel_id FROM fb_event WHERE gm = ?1"
	    " ORDER BY id DESC LIMIT 1",
	.sql_gm = "SELECT gm FROM fb_event WHERE duel_id = ?1 AND seq = 1",
	/* After every 16th event, of the byte form FBPACK_FORMAT and of
	 * these sources (JOURNAL_SNAP_VERSION). */
	.snap_every = 16,
	.snap_version = JOURNAL_SNAP_VERSION(FBPACK_FORMAT),
	.dice = fb_dice,
	.replay = fbledger_replay,
	.ask = ask_ahead,
};

int64_t *
fbledger_duel_ids(struct db *db, size_t *n)
{
	return journal_ids(db, &fbledger_kind, n);
}

int
fbledger_duel_load(struct db *db, int64_t id, struct fbledger_duel *d)
{
	memset(d, 0, sizeof *d);
	d->id = id;
	return journal_load(db, &fbledger_kind, id, d, &d->j);
}

int
fbledger_duel_load_recent(struct db *db, int64_t id, int64_t before,
    struct fbledger_duel *d)
{
	struct fbledger_live *live;
	int rc;

	memset(d, 0, sizeof *d);
	d->id = id;
	if (journal_load_recent(db, &fbledger_kind, id, before, d, &d->j) != 0)
		return -1;
	if (d->j.snap == NULL)
		return 0;
	/* A snapshot that does not read back is passed over. */
	live = xmalloc(sizeof *live);
	rc = fbledger_live_unpack(d->j.snap, d->j.snaplen, live);
	free(live);
	if (rc == 0)
		return 0;
	fbledger_duel_release(d);
	return fbledger_duel_load(db, id, d);
}

int64_t
fbledger_undo_target(struct db *db, int64_t id)
{
	return journal_undo_target(db, &fbledger_kind, id);
}

void
fbledger_duel_release(struct fbledger_duel *d)
{
	journal_release(&d->j);
	free(d->a);
	free(d->b);
	free(d->board);
	memset(d, 0, sizeof *d);
}

void
fbledger_duel_each(struct db *db, const char *name,
    void (*fn)(void *, const struct journal_summary *), void *arg)
{
	journal_summaries(db, "SELECT d.id, d.a, d.b, d.board,"
	    " (SELECT max(round) FROM fb_event e WHERE e.duel_id = d.id AND"
	    "  e.action = 'round' AND" JOURNAL_LIVE("fb_event", "duel_id", "e")
	    "), e.ended, e.winner FROM fb_duel d LEFT JOIN fb_event e ON"
	    " e.duel_id = d.id AND e.ended IS NOT NULL AND"
	    JOURNAL_LIVE("fb_event", "duel_id", "e")
	    /* ?1 compared before it is tested for NULL: PostgreSQL takes
	     * a parameter's type from its first use. */
	    " WHERE d.a = ?1 OR d.b = ?1 OR ?1 IS NULL ORDER BY d.id", name,
	    fn, arg);
}

/* ---- derivation ---- */

char *
fbledger_start_input(const struct fb_board *b, const struct fbledger_duelist *a,
    const struct fbledger_duelist *bb)
{
	const struct fbledger_duelist *d[2] = { a, bb };
	char *board = fbtext_board_format(b), *out, *line[2];

	for (int w = 0; w < 2; w++) {
		char *stance = fbtext_stance_format(b, &d[w]->sh.st);

		line[w] = xasprintf("duelist %s %s %s %s %s %s %s\n",
		    d[w]->name, fb_side_name(d[w]->sh.side),
		    fb_hand_name(d[w]->sh.hand),
		    fb_colour_name(d[w]->sh.colour),
		    fb_level_name(d[w]->sh.level), d[w]->sh.free_geas >= 0 ?
		    fb_geas_name(d[w]->sh.free_geas) : "-", stance);
		free(stance);
	}
	out = xasprintf("%s%sboard %s\n%s", line[0], line[1], b->name, board);
	free(line[0]);
	free(line[1]);
	free(board);
	return out;
}

/* Reads the start input into live and starts the duel. */
static int
apply_start(struct fbledger_live *live, const char *text, char *why,
    size_t whysz)
{
	struct fb_sheet sh[2];
	char *copy = xstrdup(text), *board = copy, *lines[2];
	int rc = 0;

	memset(live, 0, sizeof *live);
	for (int w = 0; w < 2; w++) {
		char *nl = strchr(board, '\n');

		if (strncmp(board, "duelist ", 8) != 0 || nl == NULL) {
			free(copy);
			snprintf(why, whysz, "start: duelist %d missing", w + 1);
			return -1;
		}
		*nl = '\0';
		lines[w] = board + 8;
		board = nl + 1;
	}
	if (strncmp(board, "board ", 6) != 0 || strchr(board, '\n') == NULL) {
		free(copy);
		snprintf(why, whysz, "start: board missing");
		return -1;
	}
	{
		char *nl = strchr(board, '\n');

		*nl = '\0';
		snprintf(live->b.name, sizeof live->b.name, "%s", board + 6);
		board = nl + 1;
	}
	if (fbtext_board_parse(board, &live->b, why, whysz) < 0) {
		free(copy);
		return -1;
	}
	for (int w = 0; w < 2 && rc == 0; w++) {
		char name[FBLEDGER_NAMESZ], side[8], hand[8], colour[8],
		    level[12];
		char fg[16];
		int used = 0;

		if (sscanf(lines[w], "%40s %7s %7s %7s %11s %15s %n", name, side,
		    hand, colour, level, fg, &used) != 6) {
			rc = -1;
			snprintf(why, whysz, "start: duelist %d unreadable",
			    w + 1);
			break;
		}
		snprintf(live->names[w], FBLEDGER_NAMESZ, "%s", name);
		sh[w].side = strcmp(side, "dark") == 0 ? FB_DARK : FB_LIGHT;
		sh[w].hand = strcmp(hand, "left") == 0 ? FB_LEFT : FB_RIGHT;
		sh[w].colour = fb_colour_find(colour);
		sh[w].level = fb_level_find(level);
		sh[w].free_geas = strcmp(fg, "-") == 0 ? -1 : fb_geas_find(fg);
		if (sh[w].colour < 0 || sh[w].level < 0) {
			rc = -1;
			snprintf(why, whysz, "start: duelist %d unreadable",
			    w + 1);
			break;
		}
		rc = fbtext_stance_parse(&live->b, lines[w] + used, &sh[w].st,
		    why, whysz);
	}
	free(copy);
	if (rc < 0)
		return -1;
	live->np[0] = live->names[0];
	live->np[1] = live->names[1];
	fb_start(&live->s, &live->b, &sh[0], &sh[1]);
	return 0;
}

/* Rage and Protect with no count use all their slot holds. */
static void
resolve_counts(const struct fb_state *s, struct fb_in *in)
{
	for (int k = 0; in != NULL && k < in->ngeas; k++) {
		struct fb_geas_in *g = &in->geas[k];
		const struct fb_player *p = &s->p[g->who];

		if ((g->power == FB_RAGE || g->power == FB_PROTECT) &&
		    g->n == 0)
			g->n = p->geas[g->power] + (p->free_geas == g->power);
	}
}

/*
 * A GM's ruling: "NAME ATT=+1 POOL=-2", the duelist's full name and the
 * changes as stored (core/ruling.h).
 */
static int
apply_adjust(struct fbledger_live *live, const char *input,
    struct fb_report *r, char *why, size_t whysz)
{
	struct ruling_change c[RULING_CHANGES_MAX];
	const char *sp = input ? strchr(input, ' ') : NULL;
	int who = -1, n;

	for (int w = 0; w < 2 && sp != NULL; w++)
		if (strlen(live->names[w]) == (size_t)(sp - input) &&
		    strncmp(live->names[w], input, (size_t)(sp - input)) == 0)
			who = w;
	if (who < 0)
		return util_say(why, whysz, "adjust: NAME COUNTER=+N...");
	if ((n = ruling_changes_parse(sp + 1, fb_adjust_names, c, why,
	    whysz)) < 0)
		return -1;
	r->attacker = who;
	return fb_adjust(&live->s, who, c, n, why, whysz);
}

int
fbledger_apply(struct fbledger_live *live, const char *action,
    const char *input,
    struct fb_in *in, struct rng *rng, struct fb_report *r, char *why,
    size_t whysz)
{
	memset(r, 0, sizeof *r);
	r->turned = -1;
	if (strcmp(action, "start") == 0)
		return apply_start(live, input, why, whysz);
	live->s.b = &live->b;
	if (strcmp(action, "adjust") == 0)
		return apply_adjust(live, input, r, why, whysz);
	if (strcmp(action, "restance") == 0) {
		struct fb_stance st;
		const char *sp = strchr(input, ' ');
		char name[FBLEDGER_NAMESZ];
		int who;

		if (sp == NULL || (size_t)(sp - input) >= sizeof name) {
			snprintf(why, whysz, "restance: NAME WORDS...");
			return -1;
		}
		memcpy(name, input, (size_t)(sp - input));
		name[sp - input] = '\0';
		who = util_streq_ci(name, live->names[0]) ? 0 :
		    util_streq_ci(name, live->names[1]) ? 1 : -1;
		if (who < 0) {
			return util_say(why, whysz, "'%s' is not in this duel",
			    name);
		}
		if (fbtext_stance_parse(&live->b, sp + 1, &st, why, whysz) < 0)
			return -1;
		r->attacker = who;
		return fb_restance(&live->s, who, &st, why, whysz);
	}
	resolve_counts(&live->s, in);
	if (strcmp(action, "geas") == 0) {
		struct fb_state keep = live->s;
		struct fb_report one;

		for (int k = 0; k < in->ngeas; k++) {
			if (fb_geas(&live->s, &in->geas[k], rng, &one, why,
			    whysz) < 0) {
				live->s = keep;
				return -1;
			}
			r->lightning += one.lightning;
			r->absorbed += one.absorbed;
			r->spent[0] += one.spent[0];
			r->spent[1] += one.spent[1];
			r->ended = one.ended;
		}
		return 0;
	}
	if (strcmp(action, "init") == 0)
		return fb_initiative(&live->s, in, rng, r, why, whysz);
	if (strcmp(action, "aim") == 0)
		return fb_aim(&live->s, in, rng, r, why, whysz);
	if (strcmp(action, "round") == 0)
		return fb_round(&live->s, in, rng, r, why, whysz);
	util_say(why, whysz, "unknown action '%s'", action);
	return -1;
}

/* Runs one stored event again; a round must give what it gave. */
static int
replay_one(void *arg, const void *body, char *why, size_t whysz)
{
	struct fbledger_live *live = arg;
	const struct journal_event *e = body;
	struct fb_report r;
	struct fb_in in;
	struct rng rng;
	char said[64];

	/* Every die is in the inputs; a generator is only a safety net. */
	rng_seed(&rng, 0);
	fb_in_init(&in);
	if (strcmp(e->action, "start") != 0 &&
	    strcmp(e->action, "restance") != 0 &&
	    strcmp(e->action, "adjust") != 0 &&
	    fbtext_in_parse(&live->b, live->np, e->input, &in, why, whysz) < 0)
		return -1;
	if (fbledger_apply(live, e->action, e->input, &in, &rng, &r, why,
	    whysz) < 0)
		return -1;
	if (strcmp(e->action, "round") != 0)
		return 0;
	snprintf(said, sizeof said, "round gives '%s'",
	    fb_outcome_name(r.outcome));
	return journal_event_recheck(e, fb_outcome_name(r.outcome), said,
	    why, whysz);
}

int
fbledger_derive(const struct fbledger_duel *d, struct fbledger_live *live,
    int64_t *bad, char *why, size_t whysz)
{
	/* From the snapshot, which fbledger_duel_load_recent read once. */
	if (d->j.snap != NULL &&
	    fbledger_live_unpack(d->j.snap, d->j.snaplen, live) != 0) {
		*bad = d->j.base;
		return util_say(why, whysz, "its snapshot does not read back");
	}
	return journal_derive(&d->j, replay_one, live, bad, why, whysz);
}

/* ---- snapshots ---- */

void
fbledger_live_pack(const struct fbledger_live *live, struct pack *p)
{
	pack_int(p, FBPACK_FORMAT);
	pack_str(p, live->names[0]);
	pack_str(p, live->names[1]);
	fbpack_board(p, &live->b);
	fbpack_state(p, &live->s);
}

int
fbledger_live_unpack(const void *buf, size_t len, struct fbledger_live *live)
{
	struct unpack u;

	memset(live, 0, sizeof *live);
	unpack_init(&u, buf, len);
	unpack_range(&u, FBPACK_FORMAT, FBPACK_FORMAT);
	unpack_strbuf(&u, live->names[0], sizeof live->names[0]);
	unpack_strbuf(&u, live->names[1], sizeof live->names[1]);
	fbpack_read_board(&u, &live->b);
	fbpack_read_state(&u, &live->b, &live->s);
	live->np[0] = live->names[0];
	live->np[1] = live->names[1];
	return unpack_done(&u);
}

/* A duel's state to its rules' walks (core/journal.h). */
static void
pack_live(const void *live, struct pack *p)
{
	fbledger_live_pack(live, p);
}

/* A copy of a duel's state, pointing into itself. */
static void
copy_live(void *dst, const void *src)
{
	struct fbledger_live *copy = dst;

	*copy = *(const struct fbledger_live *)src;
	copy->np[0] = copy->names[0];
	copy->np[1] = copy->names[1];
	copy->s.b = &copy->b;
}

/* An event drawn again from its input as typed, for a seal's check. */
static int
redraw(void *arg, const struct journal_event *e, const char *typed,
    struct rng *rng, char **canon, char *why, size_t whysz)
{
	struct fbledger_live *live = arg;
	struct fb_report r;
	struct fb_in in;

	fb_in_init(&in);
	if (fbtext_in_parse(&live->b, live->np, typed, &in, why, whysz) < 0 ||
	    fbledger_apply(live, e->action, typed, &in, rng, &r, why,
	    whysz) < 0)
		return -1;
	*canon = fbtext_in_format(&live->b, live->np, &in);
	return 0;
}

static const struct journal *
load_duel(struct db *db, int64_t id, void *lg)
{
	struct fbledger_duel *d = lg;

	return fbledger_duel_load(db, id, d) == 0 ? &d->j : NULL;
}

static void
release_duel(void *lg)
{
	fbledger_duel_release(lg);
}

/*
 * What follows an event that does not run means nothing: go_on 0.  A
 * duel starts from nothing, its first event setting it up.
 */
const struct journal_rules fbledger_rules = {
	.kind = &fbledger_kind, .size = sizeof(struct fbledger_live),
	.whysz = FB_WHYSZ, .step = replay_one, .pack = pack_live,
	.go_on = 0, .lsize = sizeof(struct fbledger_duel), .load = load_duel,
	.release = release_duel, .copy = copy_live, .redraw = redraw,
};

int64_t
fbledger_record(struct db *db, int64_t id, struct journal_event *e,
    const struct fbledger_live *after)
{
	e->seq = journal_append_state(db, &fbledger_rules, id, e, after);
	return e->seq;
}

int64_t
fbledger_undo(struct db *db, struct fbledger_duel *d, size_t i, int64_t now,
    const char *gm)
{
	struct fbledger_live *live;
	int64_t seq = journal_event_undo(db, &d->j, i, now, gm), bad;
	char why[FB_WHYSZ];

	if (!journal_snapshot_due(&fbledger_kind, seq))
		return seq;
	/* The state after the undo: the duel without event i. */
	live = xcalloc(1, sizeof *live);
	d->j.undone[i] = 1;
	if (fbledger_derive(d, live, &bad, why, sizeof why) != 0)
		db_die(db, "duel %lld: event %lld does not replay: %s",
		    (long long)d->id, (long long)bad, why);
	journal_snapshot_after(db, &fbledger_rules, d->id, seq, live);
	free(live);
	return seq;
}

int
fbledger_audit(struct db *db, int64_t id,
    void (*bad)(void *, int64_t, const char *), void *arg, int *events)
{
	return journal_audit_log(db, &fbledger_rules, id, bad, arg, events);
}

/* ---- sealed draws ---- */

int
fbledger_seal(struct db *db, int64_t id, uint64_t *seed)
{
	return seal_draw_next(db, &fbledger_kind, id, seed);
}
