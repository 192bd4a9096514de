/*
 * test_bgledger.c - the Battle Grounds ledger on a real database file:
 * teams from the fixtures, the stat names, and games whose events are
 * applied the way bg-board applies them, then loaded and derived again:
 * the same board, a tampered row caught at its seq, undo, the games
 * listing, and ended kept as 0 or 1 in SQL but read as NULL or "1".
 * Then snapshots: the byte form round trip and damaged bytes, seeded
 * random games whose state from the snapshots equals the full derivation
 * after every event and every undo, a snapshot of another version passed
 * over, and replay's audit finding an edited one.
 */
#include <sqlite3.h>
#include "tap.h"

#include <stdlib.h>
#include <unistd.h>

#include "bg/text.h"
#include "bg/ledger.h"
#include "bg/pack.h"
#include "core/journal.h"
#include "core/pack.h"
#include "base/util.h"

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
	if (bgtext_team_parse(text, t, why, sizeof why) < 0) {
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
	a = bgtext_team_format(t);
	b = bgtext_team_format(red);
	is_str(a, b, "every figure as parsed");
	free(a);
	free(b);
	ok(bgledger_team_load(db, "Nobody", t) < 0, "no team Nobody");
	{
		char name[BG_NAMESZ];

		is_int(bgledger_team_name(db, "BLUE", name, why, sizeof why), 0,
		    "BLUE: a team, but for case");
		is_str(name, "Blue", "  named as stored");
		is_int(bgledger_team_name(db, "sp", name, why, sizeof why), 0,
		    "sp: a unique beginning");
		is_str(name, "Spare", "  Spare");
		is_int(bgledger_team_name(db, "Rde", name, why, sizeof why), -1,
		    "Rde");
		is_str(why, "no team 'Rde'; did you mean 'Red'?", "  is "
		    "unknown, with the nearest name");
	}

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
		x = bgtext_team_format(&a->team[k]);
		y = bgtext_team_format(&b->team[k]);
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
	seq = bgledger_record(db, id, &e, g);
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
	/* The game's number at this station, as users see it. */
	char *t = xasprintf("%lld %s %s %s %d %s %s|",
	    (long long)(s->id & DB_KEY_MAX_NO), s->a,
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
	struct db_stmt *st = db_prepare(db, "SELECT group_concat(ended, '')"
	    " FROM (SELECT ended FROM bg_event WHERE game_id = ?1"
	    " ORDER BY seq)");

	db_bind_int(st, 1, id);
	db_step(db, st, 0);
	snprintf(out, sizeof out, "%s", db_column_text(st, 0) ?
	    db_column_text(st, 0) : "(null)");
	db_finalize(st);
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

	is_int(journal_pick(db, &bgledger_kind, "Gail", 0, why, sizeof why), 0,
	    "no game yet");
	bgledger_team_load(db, "Red", &t[0]);
	bgledger_team_load(db, "Blue", &t[1]);
	db_begin(db);
	id = bgledger_game_new(db, &t[0], &t[1], 0, 0, "Gail");
	db_commit(db);
	is_int(journal_pick(db, &bgledger_kind, "Gail", 0, why, sizeof why), id,
	    "the new game is its GM's");
	is_int(journal_pick(db, &bgledger_kind, "Hal", 0, why, sizeof why), 0,
	    "and no other GM's");
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
	is_int(journal_event_undo(db, &d.j, (size_t)u, 1795400100, NULL), 12,
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
	id = bgledger_game_new(db, &t[0], &t[1], 1, 1, NULL);
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


/* ---- snapshots ---- */

/* 1 if a and b pack to the same bytes and stand the same. */
static int
same_state(const struct bg_game *a, const struct bg_game *b)
{
	struct pack pa = { 0 }, pb = { 0 };
	int same;

	bgpack_write(a, &pa);
	bgpack_write(b, &pb);
	same = pa.len == pb.len && memcmp(pa.buf, pb.buf, pa.len) == 0 &&
	    *game_diff(a, b) == '\0';
	free(pa.buf);
	free(pb.buf);
	return same;
}

/* 1 if g packs and reads back as itself, to the same bytes. */
static int
round_trip(const struct bg_game *g)
{
	struct bg_game *back = xmalloc(sizeof *back);
	struct pack p = { 0 };
	int ok = 0;

	bgpack_write(g, &p);
	if (bgpack_read(p.buf, p.len, &g->team[0], &g->team[1], g->advanced,
	    g->safe_attack, back) == 0)
		ok = same_state(g, back);
	free(p.buf);
	free(back);
	return ok;
}

/* 1 if every square and piece of g agree, as bg.c keeps them. */
static int
consistent(const struct bg_game *g)
{
	for (int s = 0; s < BG_MAXSQ; s++)
		if (g->at[s] >= 0 && g->pc[g->at[s]].sq != s)
			return 0;
	for (int i = 0; i < 2 * BG_MAXFIG; i++)
		if (g->pc[i].sq >= 0 && (g->pc[i].sq >= g->w * g->h ||
		    g->at[g->pc[i].sq] != i))
			return 0;
	return 1;
}

/* A random power of a figure of the side on turn, as its input. */
static char *
random_power(const struct bg_game *g, struct rng *r)
{
	int me = g->turn, piece = me * BG_MAXFIG +
	    (int)rng_below(r, (uint64_t)g->team[me].n);
	int power = (int)rng_below(r, BG_NPOWER);
	int foe = !me * BG_MAXFIG + (int)rng_below(r,
	    (uint64_t)g->team[!me].n);
	char name[BG_PIECESZ], fname[BG_PIECESZ], sq[4];

	bgtext_piece_name(g, piece, name, sizeof name);
	bgtext_piece_name(g, foe, fname, sizeof fname);
	bg_square_name(g, (int)rng_below(r, (uint64_t)(g->w * g->h)), sq);
	if (power == BG_HYPNOTIZE)
		return xasprintf("%s %s %s %s", name, bg_power_name(power),
		    fname, sq);
	return xasprintf("%s %s %s", name, bg_power_name(power), sq);
}

/* A random move of the side on turn, as its input, or NULL: none. */
static char *
random_move(const struct bg_game *g, struct rng *r)
{
	char name[BG_PIECESZ], sq[4];
	int pick = -1, to = -1, n = 0;

	for (int i = 0; i < 2 * BG_MAXFIG; i++) {
		bg_set m;

		if (g->pc[i].sq < 0 || g->pc[i].ctrl != g->turn)
			continue;
		m = bg_moves(g, i);
		for (int s = 0; s < g->w * g->h; s++)
			if (bg_set_has(m, s) && rng_below(r, (uint64_t)++n) == 0) {
				pick = i;
				to = s;
			}
	}
	if (pick < 0)
		return NULL;
	bgtext_piece_name(g, pick, name, sizeof name);
	bg_square_name(g, to, sq);
	return xasprintf("%s %s", name, sq);
}

/*
 * Plays one random action on game id, which g stands for: a die when a
 * credit allows, else now and then a power, else a move or a pass.
 * Returns the seq, or -1 when the game is over.
 */
static int64_t
random_action(struct db *db, int64_t id, struct bg_game *g, struct rng *r)
{
	char *in;
	int64_t seq = -1;

	if (g->over)
		return -1;
	for (int k = 0; k < 2; k++)
		if (g->credit[k] > 0) {
			unsigned z = g->dicezone[k];
			int d = (int)rng_below(r, BG_NDICE), back = -1;

			for (int b = 0; b < BG_NDICE; b++)
				if (z >> b & 1u)
					back = b;
			in = __builtin_popcount(z) == BG_DICEZONE_MAX ?
			    xasprintf("%d %d --swap %d", k + 1, d + 1,
			    back + 1) : xasprintf("%d %d", k + 1, d + 1);
			seq = play(db, id, g, "die", in, rng_next(r), NULL);
			free(in);
			if (seq > 0)
				return seq;
		}
	for (int k = 0; k < 30 && rng_below(r, 4) == 0 && seq < 0; k++) {
		in = random_power(g, r);
		seq = play(db, id, g, "power", in, rng_next(r), NULL);
		free(in);
	}
	if (seq < 0 && rng_below(r, 10) != 0 &&
	    (in = random_move(g, r)) != NULL) {
		seq = play(db, id, g, "move", in, rng_next(r), NULL);
		free(in);
	}
	if (seq < 0)
		seq = play(db, id, g, "pass", "", rng_next(r), NULL);
	return seq;
}

/* How many of game id's snapshots lie in [lo, hi). */
static int
snaps_between(struct db *db, int64_t id, int64_t lo, int64_t hi)
{
	struct db_stmt *st = db_prepare(db, "SELECT count(*) FROM snapshot"
	    " WHERE kind = 'game' AND log = ?1 AND seq >= ?2 AND seq < ?3");
	int n;

	db_bind_int(st, 1, id);
	db_bind_int(st, 2, lo);
	db_bind_int(st, 3, hi);
	db_step(db, st, 0);
	n = db_column_int(st, 0);
	db_finalize(st);
	return n;
}

/*
 * Undoes game id's newest live event as bg-board does, from a snapshot
 * before it, into g.  Returns the seq taken back, or 0 for none; 1 in
 * *bad when a snapshot at or after it survived or the load reached past.
 */
static int64_t
undo(struct db *db, int64_t id, struct bg_game *g, int *bad)
{
	struct bgledger_game d;
	int64_t target, seq = 0, got;

	db_begin(db);
	target = bgledger_undo_target(db, id);
	bgledger_game_load_recent(db, id, target, &d);
	if (target > 0 && d.j.base >= target)
		*bad = 1;
	if (bgledger_undo(db, &d, g, 1795400000, NULL, &seq, why, sizeof why) < 0)
		target = 0;
	db_commit(db);
	if (target > 0 && snaps_between(db, id, target, seq) != 0)
		*bad = 1;
	got = target;
	bgledger_game_release(&d);
	return got;
}

/*
 * 1 if game id derived from its newest snapshot, and with every event,
 * both stand as g; *base gets the snapshot's seq.
 */
static int
check_derive(struct db *db, int64_t id, const struct bg_game *g,
    int64_t *base)
{
	struct bg_game *a = xmalloc(sizeof *a), *b = xmalloc(sizeof *b);
	struct bgledger_game d;
	int64_t bad;
	int ok;

	db_begin_read(db);
	ok = bgledger_game_load_recent(db, id, 0, &d) == 0 &&
	    bgledger_derive(&d, a, &bad, why, sizeof why) == 0;
	*base = d.j.base;
	bgledger_game_release(&d);
	ok = ok && bgledger_game_load(db, id, &d) == 0 &&
	    bgledger_derive(&d, b, &bad, why, sizeof why) == 0;
	bgledger_game_release(&d);
	db_commit(db);
	ok = ok && same_state(a, g) && same_state(b, g);
	free(a);
	free(b);
	return ok;
}

/* Counts replay's findings, keeping the last seq. */
static void
audit_bad(void *arg, int64_t seq, const char *m)
{
	int64_t *last = arg;

	(void)m;
	*last = seq;
}

static int
audit(struct db *db, int64_t id, int64_t *last)
{
	struct bgledger_game d;
	int n;

	*last = 0;
	db_begin_read(db);
	bgledger_game_load(db, id, &d);
	n = bgledger_audit(db, &d, audit_bad, last);
	bgledger_game_release(&d);
	db_commit(db);
	return n;
}

/*
 * Seeded random games, a snapshot after every `every` events: after
 * each action and each undo (one in eight), the state from the newest
 * snapshot equals the full derivation and the running game, packs back
 * to itself, and replay finds nothing.
 */
static void
test_snap_games(struct db *db, const char *every, int games, int steps)
{
	struct bg_team *t = xcalloc(2, sizeof *t);
	struct bg_game *g = xcalloc(1, sizeof *g);
	int64_t used = 0;
	int undos = 0;

	setenv("REFKIT_SNAPSHOT_EVERY", every, 1);
	bgledger_team_load(db, "Red", &t[0]);
	bgledger_team_load(db, "Blue", &t[1]);
	for (int s = 1; s <= games; s++) {
		struct rng r;
		int64_t id, base = 0, last;
		int bad = 0, n = 0, events = 0;

		rng_seed(&r, (uint64_t)s);
		db_begin(db);
		id = bgledger_game_new(db, &t[0], &t[1], 0, s % 2, NULL);
		db_commit(db);
		bg_start(g, &t[0], &t[1], 0, s % 2);
		for (int k = 0; k < steps && !bad; k++) {
			if (events > 0 && rng_below(&r, 8) == 0) {
				if (undo(db, id, g, &bad) > 0)
					undos++;
			} else if (random_action(db, id, g, &r) < 0)
				break;
			events++;
			bad |= !check_derive(db, id, g, &base) ||
			    !round_trip(g) || !consistent(g);
			used += base > 0;
			n++;
		}
		ok(!bad, "every=%s game %d (%s): the snapshot's state is the "
		    "full derivation after each of %d events", every, s,
		    s % 2 ? "safe attack" : "plain", n);
		is_int(audit(db, id, &last), 0, "every=%s game %d: replay "
		    "finds nothing", every, s);
	}
	ok(undos > 0, "every=%s: %d undos, dropping the snapshots from the "
	    "event each took back", every, undos);
	ok(db_run_text(db, "SELECT count(*) FROM bg_event WHERE action = ?1",
	    "power") > 0 && db_run_text(db, "SELECT count(*) FROM bg_event"
	    " WHERE action = ?1", "die") > 0 && db_run_text(db, "SELECT"
	    " count(*) FROM bg_event WHERE battle = ?1", "lost") > 0,
	    "every=%s: the games used powers, dice and lost battles", every);
	ok(used > 0, "every=%s: %lld derivations started from a snapshot",
	    every, (long long)used);
	unsetenv("REFKIT_SNAPSHOT_EVERY");
	free(t);
	free(g);
}

/* 1 if the bytes of g, changed by fix, no longer read back. */
static int
refused(const struct bg_game *g, void (*fix)(struct bg_game *))
{
	struct bg_game *x = xmalloc(sizeof *x);
	struct pack p = { 0 };
	int rc;

	*x = *g;
	fix(x);
	bgpack_write(x, &p);
	rc = bgpack_read(p.buf, p.len, &g->team[0], &g->team[1], g->advanced,
	    g->safe_attack, x);
	rc = rc == -1 && x->moves == 0 && consistent(x);
	free(p.buf);
	free(x);
	return rc;
}

static void
two_on_one(struct bg_game *g)
{
	g->pc[1].sq = g->pc[0].sq;
}

static void
off_board(struct bg_game *g)
{
	g->pc[0].sq = g->w * g->h;
}

static void
held_on_board(struct bg_game *g)
{
	g->pc[0].held = 1;
}

static void
over_unwon(struct bg_game *g)
{
	g->over = 1;
	g->winner = -1;
}

static void
seventh_die(struct bg_game *g)
{
	g->dicezone[1] = 1u << BG_NDICE;
}

static void
third_player(struct bg_game *g)
{
	g->pc[3].ctrl = 2;
}

/*
 * The byte form of a game in play: it reads back whole; cut short, grown
 * or with any byte changed to any value, it is refused or reads into a
 * game whose squares and pieces agree; states the rules cannot reach are
 * refused, and so are another line-up and another form.
 */
static void
test_snap_bytes(struct db *db)
{
	struct bg_team *t = xcalloc(3, sizeof *t);
	struct bg_game *g = xcalloc(1, sizeof *g), *x = xmalloc(sizeof *x);
	struct pack p = { 0 };
	struct rng r;
	int64_t id;
	int cut = 1, grown, odd = 0, readable = 0;

	bgledger_team_load(db, "Red", &t[0]);
	bgledger_team_load(db, "Blue", &t[1]);
	db_begin(db);
	id = bgledger_game_new(db, &t[0], &t[1], 0, 0, NULL);
	db_commit(db);
	bg_start(g, &t[0], &t[1], 0, 0);
	rng_seed(&r, 42);
	for (int k = 0; k < 40; k++)
		random_action(db, id, g, &r);
	ok(g->moves > 0 && round_trip(g), "a game after %d turns reads back "
	    "as itself", g->moves);
	bgpack_write(g, &p);
	ok(p.len < 120, "in %zu bytes", p.len);
	for (size_t n = 0; n < p.len; n++)
		if (bgpack_read(p.buf, n, &t[0], &t[1], 0, 0, x) != -1 ||
		    x->moves != 0)
			cut = 0;
	ok(cut, "every cut short is refused, the game as it started");
	p.buf = xrealloc(p.buf, p.len + 1);
	p.buf[p.len] = 0;
	grown = bgpack_read(p.buf, p.len + 1, &t[0], &t[1], 0, 0, x) == -1;
	ok(grown, "a byte more is refused");
	for (size_t i = 0; i < p.len; i++) {
		unsigned char was = p.buf[i];

		for (int v = 0; v < 256; v++) {
			int rc;

			p.buf[i] = (unsigned char)v;
			rc = bgpack_read(p.buf, p.len, &t[0], &t[1], 0, 0, x);
			readable += rc == 0;
			if (!consistent(x) || (rc != 0 && x->moves != 0))
				odd++;
		}
		p.buf[i] = was;
	}
	is_int(odd, 0, "any byte changed to any value: refused, or a game "
	    "whose squares and pieces agree (%d read)", readable);
	ok(refused(g, two_on_one), "two pieces on one square: refused");
	ok(refused(g, off_board), "a piece off the board's squares: refused");
	ok(refused(g, held_on_board), "a piece on the board and held: "
	    "refused");
	ok(refused(g, over_unwon), "over without a winner: refused");
	ok(refused(g, seventh_die), "a seventh die: refused");
	ok(refused(g, third_player), "a third player: refused");
	t[2] = t[1];
	t[2].n--;
	ok(bgpack_read(p.buf, p.len, &t[0], &t[2], 0, 0, x) == -1,
	    "another line-up: refused");
	p.buf[0] = 2 * (BGPACK_FORMAT + 1);	/* the next form, zigzagged */
	ok(bgpack_read(p.buf, p.len, &t[0], &t[1], 0, 0, x) == -1,
	    "another byte form: refused");
	free(p.buf);
	free(t);
	free(g);
	free(x);
}

static void
sql_id(struct db *db, const char *sql, int64_t id)
{
	struct db_stmt *st = db_prepare(db, sql);

	db_bind_int(st, 1, id);
	db_step(db, st, 0);
	db_finalize(st);
}

/*
 * Snapshots that are of no use: of another version (passed over, the
 * next older used), bytes that do not read back (every event loaded
 * instead), and one edited into another state, which commands trust but
 * replay finds.
 */
static void
test_snap_stale(struct db *db)
{
	struct bg_team *t = xcalloc(2, sizeof *t);
	struct bg_game *g = xcalloc(1, sizeof *g), *x = xmalloc(sizeof *x);
	struct pack p = { 0 };
	struct db_stmt *st;
	struct rng r;
	int64_t id, base = 0, last;
	int same;

	setenv("REFKIT_SNAPSHOT_EVERY", "4", 1);
	bgledger_team_load(db, "Red", &t[0]);
	bgledger_team_load(db, "Blue", &t[1]);
	db_begin(db);
	id = bgledger_game_new(db, &t[0], &t[1], 0, 0, NULL);
	db_commit(db);
	bg_start(g, &t[0], &t[1], 0, 0);
	rng_seed(&r, 7);
	for (int k = 0; k < 20; k++)
		random_action(db, id, g, &r);
	same = check_derive(db, id, g, &base);
	ok(same && base == 20, "20 events: "
	    "derived from the snapshot after 20 (%lld)", (long long)base);
	sql_id(db, "UPDATE snapshot SET version = version + 1 WHERE"
	    " kind = 'game' AND log = ?1 AND seq = 20", id);
	same = check_derive(db, id, g, &base);
	ok(same && base == 16, "that one of "
	    "another version: from the one after 16 (%lld)", (long long)base);
	sql_id(db, "UPDATE snapshot SET version = version + 1 WHERE"
	    " kind = 'game' AND log = ?1 AND seq <> 20", id);
	same = check_derive(db, id, g, &base);
	ok(same && base == 0, "all of another "
	    "version: from the first event (%lld)", (long long)base);
	sql_id(db, "UPDATE snapshot SET version = version - 1 WHERE"
	    " kind = 'game' AND log = ?1", id);
	is_int(audit(db, id, &last), 0, "back at their version: replay "
	    "finds nothing");
	sql_id(db, "UPDATE snapshot SET state = x'ff' WHERE kind = 'game'"
	    " AND log = ?1 AND seq = 20", id);
	same = check_derive(db, id, g, &base);
	ok(same && base == 0, "bytes that do not "
	    "read back: every event loaded instead (%lld)", (long long)base);
	is_int(audit(db, id, &last), 1, "replay finds them");
	is_int(last, 20, "at event 20");
	/* Event 8's snapshot made into another state, that reads back. */
	*x = *g;
	x->moves += 1000;
	bgpack_write(x, &p);
	st = db_prepare(db, "UPDATE snapshot SET state = ?2 WHERE"
	    " kind = 'game' AND log = ?1 AND seq = 8");
	db_bind_int(st, 1, id);
	db_bind_blob(st, 2, p.buf, (int)p.len);
	db_step(db, st, 0);
	db_finalize(st);
	free(p.buf);
	is_int(audit(db, id, &last), 2, "an edited snapshot: replay finds "
	    "it too");
	unsetenv("REFKIT_SNAPSHOT_EVERY");
	free(t);
	free(g);
	free(x);
}

int
main(void)
{
	char dir[] = "/tmp/refkit-test-bg-ledger-XXXXXX";
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
	test_snap_games(db, "1", 12, 80);
	test_snap_games(db, "5", 6, 120);
	test_snap_bytes(db);
	test_snap_stale(db);
	db_close(db);
	cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	free(cmd);
	free(path);
	return tap_done();
}
