/*
 * test_bgledger.c - the Battle Grounds ledger on a real database file:
 * teams from the fixtures, the stat names, and games whose events are
 * applied the way bg-board applies them, then loaded and derived again:
 * the same board, a tampered row caught at its seq, undo, the games
 * listing, and ended kept as 0 or 1 in SQL but read as NULL or "1".
 */
#include "tap.h"

#include <stdlib.h>
#include <unistd.h>

#include "bg/bgio.h"
#include "bg/bgledger.h"
#include "core/journal.h"
#include "core/util.h"

static char why[BG_WHYSZ + 100];

static void
exec(struct db *db, const char *sql)
{
	if (sqlite3_exec(db->h, sql, NULL, NULL, NULL) != SQLITE_OK)
		db_fatal(db, sql);
}

/* A fixture's text; the caller frees it. */
static char *
slurp(const char *name)
{
	char *path = xasprintf("%s/tests/fixtures/bg/%s", SRCDIR, name);
	FILE *fp = fopen(path, "r");
	char *buf = xcalloc(1, 8192);
	size_t n;

	if (fp == NULL) {
		printf("# cannot open %s\n", path);
		abort();
	}
	n = fread(buf, 1, 8191, fp);
	buf[n] = '\0';
	fclose(fp);
	free(path);
	return buf;
}

static void
team_from(struct bg_team *t, const char *name, const char *text)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "%s", name);
	if (bgio_team_parse(text, t, why, sizeof why) < 0) {
		printf("# %s: %s\n", name, why);
		abort();
	}
}

/* ---- teams and stats ---- */

static void
team_row(void *arg, const struct bg_team *t)
{
	char *all = arg;
	char *s = xasprintf("%s %d %s|", t->name, t->n, t->f[0].name);

	strcat(all, s);
	free(s);
}

static void
test_teams(struct db *db)
{
	struct bg_team *red = xcalloc(1, sizeof *red);
	struct bg_team *blue = xcalloc(1, sizeof *blue);
	struct bg_team *t = xcalloc(1, sizeof *t);
	char *text, *a, *b, all[300] = "";

	text = slurp("red.team");
	team_from(red, "Red", text);
	free(text);
	text = slurp("blue.team");
	team_from(blue, "Blue", text);
	free(text);
	is_int(red->n, 12, "red.team: 12 figures");

	db_begin(db);
	is_int(bgledger_team_add(db, red), 0, "Red added");
	is_int(bgledger_team_add(db, blue), 0, "Blue added");
	is_int(bgledger_team_add(db, red), -1, "Red again: the name is taken");
	snprintf(t->name, sizeof t->name, "BLUE");
	t->n = 0;
	is_int(bgledger_team_add(db, t), -1, "BLUE: in any case");
	team_from(t, "Spare", "Solo:III*:1,2,3,4,5,6\n");
	is_int(bgledger_team_add(db, t), 0, "Spare added");
	db_commit(db);

	ok(bgledger_team_load(db, "red", t) == 0, "Red loads, in any case");
	is_str(t->name, "Red", "named as stored");
	is_int(t->n, 12, "12 figures");
	is_str(t->f[0].name, "Galactus", "in team order: Galactus first");
	is_int(t->f[0].level, BG_III, "level III");
	is_int(t->f[0].cosmic, 1, "the Cosmic figure");
	is_int(t->f[0].stat[BG_RED], 9, "red stat");
	is_int(t->f[0].stat[BG_PURPLE], 6, "purple stat");
	is_int(t->f[0].powers, 1u << BG_TELEPATHY, "telepathy");
	is_str(t->f[11].name, "Pixie", "Pixie last");
	is_int(t->f[11].level, BG_SA, "an S/A");
	a = bgio_team_format(t);
	b = bgio_team_format(red);
	is_str(a, b, "every figure as parsed");
	free(a);
	free(b);
	ok(bgledger_team_load(db, "Nobody", t) < 0, "no team Nobody");

	bgledger_team_each(db, team_row, all);
	is_str(all, "Blue 12 Thanos|Red 12 Galactus|Spare 1 Solo|",
	    "team_each: by name, with their figures");
	db_begin(db);
	is_int(bgledger_team_rm(db, "spare"), 0, "Spare removed");
	is_int(bgledger_team_rm(db, "Spare"), -1, "and gone");
	db_commit(db);
	ok(bgledger_team_load(db, "Spare", t) < 0, "Spare no longer loads");
	all[0] = '\0';
	bgledger_team_each(db, team_row, all);
	is_str(all, "Blue 12 Thanos|Red 12 Galactus|", "two teams left");
	is_int(bgledger_team_games(db, "Red"), 0, "Red has played no game");
	free(red);
	free(blue);
	free(t);
}

static void
test_stats(struct db *db)
{
	char names[BG_NSTAT][48];

	bgledger_stat_names(db, names);
	is_str(names[BG_RED], "Fighting Skills", "red: Fighting Skills");
	is_str(names[BG_ORANGE], "Strength", "orange: Strength");
	is_str(names[BG_YELLOW], "Agility", "yellow: Agility");
	is_str(names[BG_GREEN], "Intelligence", "green: Intelligence");
	is_str(names[BG_BLUE], "Energy", "blue: Energy");
	is_str(names[BG_PURPLE], "Durability", "purple: Durability");
	db_begin(db);
	bgledger_stat_set(db, BG_BLUE, "Psionics");
	db_commit(db);
	bgledger_stat_names(db, names);
	is_str(names[BG_BLUE], "Psionics", "blue renamed");
	is_str(names[BG_PURPLE], "Durability", "the others as they were");
}

/* ---- games ---- */

/* "" if the two games stand the same, else what differs. */
static const char *
game_diff(const struct bg_game *a, const struct bg_game *b)
{
	char *x, *y;
	int same;

	for (int k = 0; k < 2; k++) {
		x = bgio_team_format(&a->team[k]);
		y = bgio_team_format(&b->team[k]);
		same = strcmp(a->team[k].name, b->team[k].name) == 0 &&
		    strcmp(x, y) == 0;
		free(x);
		free(y);
		if (!same)
			return "teams";
	}
	if (a->advanced != b->advanced || a->safe_attack != b->safe_attack ||
	    a->w != b->w || a->h != b->h)
		return "board";
	if (memcmp(a->at, b->at, sizeof a->at) != 0)
		return "squares";
	if (memcmp(a->pc, b->pc, sizeof a->pc) != 0)
		return "pieces";
	if (a->turn != b->turn)
		return "turn";
	if (a->moves != b->moves || a->started != b->started)
		return "moves";
	if (memcmp(a->dicezone, b->dicezone, sizeof a->dicezone) != 0)
		return "dice zones";
	if (memcmp(a->credit, b->credit, sizeof a->credit) != 0)
		return "credits";
	if (a->over != b->over || a->winner != b->winner)
		return "over/winner";
	return "";
}

/*
 * Runs action on g as bg-board's play() does and appends the event with
 * the canonical input; *canon_out, when not NULL, gets that input.
 * Returns the seq, or -1 if refused.
 */
static int64_t
play(struct db *db, int64_t id, struct bg_game *g, const char *action,
    const char *input, uint64_t seed, char **canon_out)
{
	struct bg_game *before = xmalloc(sizeof *before);
	struct journal_event e;
	struct bg_report r;
	struct rng rng, fresh;
	char *canon, seedtext[24];
	int64_t seq = -1;

	*before = *g;
	rng_seed(&rng, seed);
	fresh = rng;
	if (bgledger_apply(g, action, input, &rng, &r, &canon, why,
	    sizeof why) < 0)
		goto out;
	snprintf(seedtext, sizeof seedtext, "%llu", (unsigned long long)seed);
	memset(&e, 0, sizeof e);
	e.round = before->moves + 1;
	e.action = (char *)action;
	e.actor = strcmp(action, "die") == 0 ? g->team[canon[0] - '1'].name :
	    strcmp(action, "place") == 0 ? g->team[r.piece / BG_MAXFIG].name :
	    before->team[before->turn].name;
	e.input = canon;
	e.outcome = r.battle ? (char *)(r.att_won ? "won" : "lost") : NULL;
	e.ended = g->over ? "1" : NULL;
	e.winner = g->over ? g->team[g->winner].name : NULL;
	e.seed = !rng_equal(&rng, &fresh) ? seedtext : NULL;
	e.detail = "{}";
	e.time = 1795400000;
	db_begin(db);
	seq = journal_append(db, &bgledger_kind, id, 0, &e);
	db_commit(db);
	if (canon_out != NULL)
		*canon_out = canon;
	else
		free(canon);
out:
	free(before);
	return seq;
}

static int
derive(struct db *db, int64_t id, struct bgledger_game *d, struct bg_game *g,
    int64_t *bad)
{
	*bad = 0;
	why[0] = '\0';
	if (bgledger_game_load(db, id, d) < 0)
		return -2;
	return bgledger_derive(d, g, bad, why, sizeof why);
}

static void
summary_row(void *arg, const struct journal_summary *s)
{
	char *all = arg;
	char *t = xasprintf("%lld %s %s %s %d %s %s|", (long long)s->id, s->a,
	    s->b, s->board, s->count, s->ended ? s->ended : "-",
	    s->winner ? s->winner : "-");

	strcat(all, t);
	free(t);
}

static const char *
games(struct db *db)
{
	static char all[400];

	all[0] = '\0';
	bgledger_game_each(db, summary_row, all);
	return all;
}

/* The ended column of game id's events, as SQL keeps it. */
static const char *
ended_column(struct db *db, int64_t id)
{
	static char out[200];
	sqlite3_stmt *st = db_prepare(db, "SELECT group_concat(ended, '')"
	    " FROM (SELECT ended FROM bg_event WHERE game_id = ?1"
	    " ORDER BY seq)");

	sqlite3_bind_int64(st, 1, id);
	db_step(db, st, 0);
	snprintf(out, sizeof out, "%s", db_column_text(st, 0) ?
	    db_column_text(st, 0) : "(null)");
	sqlite3_finalize(st);
	return out;
}

static void
test_game(struct db *db)
{
	struct bg_team *t = xcalloc(2, sizeof *t);
	struct bg_game *g = xcalloc(1, sizeof *g);
	struct bg_game *got = xcalloc(1, sizeof *got);
	struct bg_game *mid = xcalloc(1, sizeof *mid);
	struct bgledger_game d;
	const struct journal_event *ev;
	char *canon = NULL, sql[200];
	int64_t id, bad;
	ptrdiff_t u;

	is_int(bgledger_game_current(db), 0, "no game yet");
	bgledger_team_load(db, "Red", &t[0]);
	bgledger_team_load(db, "Blue", &t[1]);
	db_begin(db);
	id = bgledger_game_new(db, &t[0], &t[1], 0, 0);
	db_commit(db);
	is_int(bgledger_game_current(db), id, "the new game is current");
	bg_start(g, &t[0], &t[1], 0, 0);

	is_int(play(db, id, g, "place", "Rogue f2", 1, &canon), 1,
	    "a setup swap, seq 1");
	is_str(canon, "1:Rogue f2", "stored as 1:Rogue f2");
	free(canon);
	is_int(play(db, id, g, "place", "Rogue a1", 1, NULL), -1,
	    "Rogue on a II's square: refused");
	is_str(why, "a1 starts a level II figure; 'Rogue' is level I", "why");
	play(db, id, g, "place", "Galactus d1", 1, NULL);
	play(db, id, g, "place", "Thor d1", 1, NULL);
	is_int(play(db, id, g, "move", "Iceman a3", 1, NULL), 4,
	    "a plain move, seq 4");
	play(db, id, g, "move", "Toad a5", 1, NULL);
	play(db, id, g, "move", "Iceman a4", 1, NULL);
	is_int(play(db, id, g, "move", "Toad a4 --stat-roll 5,2 --roll 1,2"
	    " --vs-roll 4,6", 1, &canon), 7, "Toad attacks Iceman, seq 7");
	is_str(canon, "2:Toad a4 --stat-roll 5,2 --stat red --roll 1,2"
	    " --vs-roll 4,6", "the canonical move: the stat picked filled in");
	free(canon);
	is_int(play(db, id, g, "die", "Blue 2", 1, &canon), 8,
	    "Blue's die to the Dice Zone, seq 8");
	is_str(canon, "2 2", "stored as '2 2'");
	free(canon);
	is_int(play(db, id, g, "power", "Storm teleport f2", 1, &canon), 9,
	    "Storm teleports, seq 9");
	is_str(canon, "1:Storm teleport f2", "stored qualified");
	free(canon);
	play(db, id, g, "move", "Abomination a5", 1, NULL);
	*mid = *g;
	is_int(play(db, id, g, "move", "Iceman a5 --roll 6 --vs-roll 1", 1,
	    NULL), 11, "Iceman attacks Abomination, seq 11");
	is_int(g->pc[BG_MAXFIG + 2].held, 0,
	    "Abomination in Red's Holding Zone");

	ok(derive(db, id, &d, got, &bad) == 0, "the game derives");
	is_str(game_diff(got, g), "", "to the board applied directly");
	is_int(got->moves, 7, "seven turns played");
	is_int(got->turn, 1, "Blue to move");
	is_int(got->dicezone[1], 1u << 1, "Blue's die 2 in her Dice Zone");
	is_int(d.j.n, 11, "eleven events");
	ev = journal_body(&d.j, 0);
	is_int(ev->round, 1, "a place's turn: 1");
	is_str(ev->actor, "Red", "its actor, the figure's team");
	ok(ev->outcome == NULL && ev->ended == NULL && ev->winner == NULL,
	    "no battle, not ended: NULLs");
	ev = journal_body(&d.j, 6);
	is_int(ev->round, 4, "Toad's attack on turn 4");
	is_str(ev->actor, "Blue", "by Blue");
	is_str(ev->outcome, "lost", "the battle lost");
	ok(ev->seed == NULL, "every die given: no seed");
	ev = journal_body(&d.j, 7);
	is_int(ev->round, 5, "the die on turn 5");
	is_str(ev->actor, "Blue", "by the team named");
	ev = journal_body(&d.j, 10);
	is_str(ev->outcome, "won", "Iceman's battle won");
	is_str(d.team[0].name, "Red", "the game's row: team 1");
	is_str(d.team[1].name, "Blue", "team 2");
	is_int(d.team[0].n, 12, "team 1's figures from its spec");
	ok(d.advanced == 0 && d.safe_attack == 0, "basic, no safe attack");
	bgledger_game_release(&d);

	/* Tampered rows: the derive stops at them, naming the seq. */
	snprintf(sql, sizeof sql, "UPDATE bg_event SET battle = 'won'"
	    " WHERE game_id = %lld AND seq = 7", (long long)id);
	exec(db, sql);
	ok(derive(db, id, &d, got, &bad) < 0, "a tampered battle: refused");
	is_int(bad, 7, "at seq 7");
	is_str(why, "the battle is lost again, not the recorded 'won'", "why");
	bgledger_game_release(&d);
	snprintf(sql, sizeof sql, "UPDATE bg_event SET battle = 'lost'"
	    " WHERE game_id = %lld AND seq = 7", (long long)id);
	exec(db, sql);
	snprintf(sql, sizeof sql, "UPDATE bg_event SET input ="
	    " '1:Iceman a5 --roll 1 --vs-roll 6' WHERE game_id = %lld"
	    " AND seq = 11", (long long)id);
	exec(db, sql);
	ok(derive(db, id, &d, got, &bad) < 0, "a tampered input: refused");
	is_int(bad, 11, "at seq 11");
	is_str(why, "the battle is lost again, not the recorded 'won'", "why");
	bgledger_game_release(&d);
	snprintf(sql, sizeof sql, "UPDATE bg_event SET input = '1:Rogue a1'"
	    " WHERE game_id = %lld AND seq = 1", (long long)id);
	exec(db, sql);
	ok(derive(db, id, &d, got, &bad) < 0, "a place refused: refused");
	is_int(bad, 1, "at seq 1");
	is_str(why, "a1 starts a level II figure; 'Rogue' is level I",
	    "the rule's reason");
	bgledger_game_release(&d);
	snprintf(sql, sizeof sql, "UPDATE bg_event SET input = CASE seq"
	    " WHEN 1 THEN '1:Rogue f2' ELSE '1:Iceman a5 --roll 6 --vs-roll 1'"
	    " END WHERE game_id = %lld AND seq IN (1, 11)", (long long)id);
	exec(db, sql);
	ok(derive(db, id, &d, got, &bad) == 0, "restored, it derives");
	bgledger_game_release(&d);


	/* Undo Iceman's attack. */
	bgledger_game_load(db, id, &d);
	u = journal_undoable(&d.j);
	is_int(u, 10, "undo would take back seq 11");
	db_begin(db);
	is_int(journal_event_undo(db, &d.j, (size_t)u, 1795400100), 12,
	    "the undo is seq 12");
	db_commit(db);
	bgledger_game_release(&d);
	ok(derive(db, id, &d, got, &bad) == 0, "it derives");
	is_str(game_diff(got, mid), "", "to the board before seq 11");
	ok(d.j.undone[10], "seq 11 undone");
	ev = journal_body(&d.j, 11);
	is_int(ev->round, 7, "the undo in the undone event's turn");
	bgledger_game_release(&d);
	is_str(games(db), "1 Red Blue basic 6 - -|",
	    "game_each: six turns, the undone one not counted");

	/* The same attack with dice from a seed: they are stored. */
	*g = *mid;
	is_int(play(db, id, g, "move", "Iceman a5", 7, &canon), 13,
	    "Iceman attacks again, seeded, seq 13");
	is_str(canon, "1:Iceman a5 --roll 5 --vs-roll 2",
	    "the dice rolled are in the input");
	free(canon);
	is_int(play(db, id, g, "pass", "", 1, NULL), 14, "Blue passes, seq 14");
	is_int(play(db, id, g, "pass", "now", 1, NULL), -1,
	    "a pass with words: refused");
	is_str(why, "pass takes nothing", "why");
	ok(derive(db, id, &d, got, &bad) == 0, "it derives");
	is_str(game_diff(got, g), "", "to the board applied directly");
	ev = journal_body(&d.j, 12);
	is_str(ev->seed, "7", "the seed kept, a die came from it");
	is_str(ev->outcome, "lost", "Iceman lost");
	ev = journal_body(&d.j, 13);
	is_str(ev->action, "pass", "the pass");
	is_str(ev->actor, "Blue", "by Blue");
	is_str(ev->input, "", "with an empty input");
	bgledger_game_release(&d);
	is_str(games(db), "1 Red Blue basic 8 - -|",
	    "game_each: eight turns");
	is_str(ended_column(db, id), "00000000000000",
	    "bg_event.ended: 0 on every event, undo included");
	/*
	 * A tampered input that turns the recorded battle into a plain move
	 * (the row still says 'lost'): the replay fights no battle, and says
	 * so.
	 */
	snprintf(sql, sizeof sql, "UPDATE bg_event SET input = '1:Iceman b4'"
	    " WHERE game_id = %lld AND seq = 13", (long long)id);
	exec(db, sql);
	ok(derive(db, id, &d, got, &bad) < 0 && bad == 13,
	    "a recorded battle replayed as a plain move is refused at 13");
	is_str(why, "the move fights no battle again, not the recorded 'lost'",
	    "saying the battle is gone");
	bgledger_game_release(&d);
	snprintf(sql, sizeof sql, "UPDATE bg_event SET input ="
	    " '1:Iceman a5 --roll 5 --vs-roll 2' WHERE game_id = %lld"
	    " AND seq = 13", (long long)id);
	exec(db, sql);
	ok(derive(db, id, &d, got, &bad) == 0, "restored, it derives");
	is_str(game_diff(got, g), "", "to the board applied directly");
	bgledger_game_release(&d);
	free(t);
	free(g);
	free(got);
	free(mid);
}

/* An advanced game whose Cosmic figure falls: ended and winner. */
static void
test_ended(struct db *db)
{
	static const char adv[] = "Apoc:III*:5,5,5,5,5,5\n"
	    "Horse1:III:4,4,4,4,4,4\nHorse2:III:4,4,4,4,4,4\n"
	    "Horse3:III:4,4,4,4,4,4\n"
	    "Guard1:II:3,3,3,3,3,3\nGuard2:II:3,3,3,3,3,3\n"
	    "Guard3:II:3,3,3,3,3,3\nGuard4:II:3,3,3,3,3,3\n"
	    "Grunt1:I:2,2,2,2,2,2\nGrunt2:I:2,2,2,2,2,2\n"
	    "Grunt3:I:2,2,2,2,2,2\nGrunt4:I:2,2,2,2,2,2\n"
	    "Grunt5:I:2,2,2,2,2,2\nGrunt6:I:2,2,2,2,2,2\n"
	    "Pup1:SA:1,1,1,1,1,1\nPup2:SA:1,1,1,1,1,1\n";
	struct bg_team *t = xcalloc(2, sizeof *t);
	struct bg_game *g = xcalloc(1, sizeof *g);
	struct bg_game *got = xcalloc(1, sizeof *got);
	struct bgledger_game d;
	const struct journal_event *ev;
	char *x = xcalloc(1, sizeof adv + 32), *p, *q;
	int64_t id, bad;

	/* Xmen: the same figures, each name with an X before it. */
	for (p = (char *)adv, q = x; *p; p++) {
		if (p == adv || p[-1] == '\n')
			*q++ = 'X';
		*q++ = *p;
	}
	team_from(&t[0], "Apocalypse", adv);
	team_from(&t[1], "Xmen", x);
	free(x);
	db_begin(db);
	bgledger_team_add(db, &t[0]);
	bgledger_team_add(db, &t[1]);
	id = bgledger_game_new(db, &t[0], &t[1], 1, 1);
	db_commit(db);
	bg_start(g, &t[0], &t[1], 1, 1);
	play(db, id, g, "move", "Grunt3 c3", 1, NULL);
	play(db, id, g, "move", "XGrunt3 c6", 1, NULL);
	play(db, id, g, "move", "Horse1 c4", 1, NULL);
	play(db, id, g, "move", "XHorse1 d5", 1, NULL);
	play(db, id, g, "move", "Horse1 d5 --att-stat red --def-stat blue"
	    " --roll 2 --vs-roll 5", 1, NULL);
	play(db, id, g, "die", "Apocalypse 1", 1, NULL);
	play(db, id, g, "move", "XHorse1 c4 --roll 6 --vs-roll 1", 1, NULL);
	play(db, id, g, "move", "Grunt3 b4", 1, NULL);
	ok(!g->over, "not over yet");
	is_int(play(db, id, g, "move", "XHorse1 d1 --stat red --roll 6"
	    " --vs-roll 1", 1, NULL), 9, "XHorse1 takes Apoc, seq 9");
	ok(g->over && g->winner == 1, "the game is over: Xmen won");
	is_int(play(db, id, g, "move", "Grunt1 a3", 1, NULL), -1,
	    "no move after the end");

	ok(derive(db, id, &d, got, &bad) == 0, "the game derives");
	is_str(game_diff(got, g), "", "to the board applied directly");
	ok(d.advanced == 1 && d.safe_attack == 1, "advanced, safe attack");
	ev = journal_body(&d.j, 7);
	ok(ev->ended == NULL && ev->winner == NULL,
	    "an event that ended nothing: ended NULL");
	ev = journal_body(&d.j, 8);
	is_str(ev->ended, "1", "the last: ended \"1\"");
	is_str(ev->winner, "Xmen", "and the winner");
	is_str(ev->outcome, "won", "the battle won");
	bgledger_game_release(&d);
	is_str(ended_column(db, id), "000000001",
	    "bg_event.ended in SQL: 0, then 1 on the last");
	is_str(games(db), "1 Red Blue basic 8 - -|"
	    "2 Apocalypse Xmen advanced 8 - Xmen|",
	    "game_each: 8 turns (the die not counted) and the winner");
	is_int(bgledger_game_current(db), id, "the newest game is current");
	is_int(bgledger_team_games(db, "red"), 1, "Red played one game");
	is_int(bgledger_team_games(db, "XMEN"), 1, "Xmen one");
	is_int(bgledger_team_games(db, "Nobody"), 0, "Nobody none");
	ok(bgledger_game_load(db, id + 1, &d) < 0, "no game 3");
	bgledger_game_release(&d);
	free(t);
	free(g);
	free(got);
}

int
main(void)
{
	char dir[] = "/tmp/refkit-test-bgledger-XXXXXX";
	char *path, *cmd;
	struct db *db;

	if (mkdtemp(dir) == NULL)
		abort();
	setenv("REFKIT_NOW", "1795400000", 1);
	path = xasprintf("%s/refkit.db", dir);
	db = db_open(path);
	test_teams(db);
	test_stats(db);
	test_game(db);
	test_ended(db);
	db_close(db);
	cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	free(cmd);
	free(path);
	return tap_done();
}
