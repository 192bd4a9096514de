/*
 * test_fbledger.c - the Force Battles ledger on a real database file:
 * boards, duelists, and a duel whose events are applied the way fb-duel
 * applies them, then loaded and derived again: the same state, a
 * tampered outcome caught at its seq, undo, and the history listing.
 */
#include <sqlite3.h>
#include "tap.h"

#include <stdlib.h>
#include <unistd.h>

#include "core/journal.h"
#include "core/pack.h"
#include "base/util.h"
#include "fb/text.h"
#include "fb/ledger.h"
#include "fb/pack.h"

#define NOW	1795400000

static char why[256];

static void
exec(struct db *db, const char *sql)
{
	if (sqlite3_exec(db->h, sql, NULL, NULL, NULL) != SQLITE_OK)
		db_fatal(db, sql);
}

/* ---- boards ---- */

static void
board_name(void *arg, const char *name)
{
	char *all = arg;

	strcat(all, name);
	strcat(all, ";");
}

static void
test_boards(struct db *db)
{
	struct fb_board b, c;
	char all[200] = "";

	ok(fbledger_board_load(db, "default", &b) == 0, "board default loads");
	is_str(b.name, "default", "its name");
	is_int(b.ns, 7, "seven spheres");
	is_int(b.center, 2, "the third is the center");
	is_int(b.lower, 3u << 5, "the last two are the lower ones");
	is_str(b.sname[0], "upper-left", "sphere 1's name");
	is_str(b.tname[FB_LARM], "left-arm", "a target's name");
	is_int(b.face[FB_LARM], 2, "left-arm's face");
	is_int(b.alt[FB_LARM], 3, "and its face on the other table");
	is_int(b.touch[2], 1u << FB_HEAD | 1u << FB_LARM | 1u << FB_RARM |
	    1u << FB_TORSO, "the center touches head, both arms, torso");
	is_int(b.touch[6], 1u << FB_TORSO | 1u << FB_RLEG,
	    "lower-right touches torso and right leg");
	ok(fbledger_board_load(db, "nowhere", &c) < 0, "no board 'nowhere'");

	/* A board of its own: the default with two names changed. */
	snprintf(b.name, sizeof b.name, "Arena");
	snprintf(b.sname[0], sizeof b.sname[0], "top-left");
	snprintf(b.tname[FB_HEAD], sizeof b.tname[FB_HEAD], "skull");
	db_begin(db);
	is_int(fbledger_board_add(db, &b), 0, "board Arena added");
	db_commit(db);
	ok(fbledger_board_load(db, "arena", &c) == 0,
	    "it loads, the name in any case");
	is_str(c.name, "Arena", "named as stored");
	is_str(c.sname[0], "top-left", "its sphere name");
	is_str(c.tname[FB_HEAD], "skull", "its target name");
	is_int(c.ns, b.ns, "as many spheres");
	is_int(c.center, b.center, "the same center");
	is_int(c.lower, b.lower, "the same lower spheres");
	ok(memcmp(c.touch, b.touch, sizeof c.touch) == 0,
	    "the same touches");
	ok(memcmp(c.face, b.face, sizeof c.face) == 0 &&
	    memcmp(c.alt, b.alt, sizeof c.alt) == 0, "the same faces");
	ok(memcmp(c.table, b.table, sizeof c.table) == 0,
	    "and the same target tables");
	db_begin(db);
	is_int(fbledger_board_add(db, &b), -1, "the name is taken");
	snprintf(b.name, sizeof b.name, "ARENA");
	is_int(fbledger_board_add(db, &b), -1, "in any case");
	db_commit(db);
	fbledger_board_each(db, board_name, all);
	is_str(all, "Arena;default;", "board_each: every board by name");
}

/* ---- duelists ---- */

static void
duelist_row(void *arg, const struct fbledger_duelist *d, const char *stance)
{
	char *all = arg;
	char *s = xasprintf("%s %s %s %s|", d->name, fb_side_name(d->sh.side),
	    fb_level_name(d->sh.level), stance);

	strcat(all, s);
	free(s);
}

static void
stance(const struct fb_board *b, struct fbledger_duelist *d,
    const char *words)
{
	if (fbtext_stance_parse(b, words, &d->sh.st, why, sizeof why) < 0) {
		printf("# %s\n", why);
		abort();
	}
}

static void
new_duelist(struct fbledger_duelist *d, const struct fb_board *b,
    const char *name, int side, int hand, int colour)
{
	memset(d, 0, sizeof *d);
	snprintf(d->name, sizeof d->name, "%s", name);
	d->sh.side = side;
	d->sh.hand = hand;
	d->sh.colour = colour;
	d->sh.level = FB_LEARNER;
	d->sh.free_geas = -1;
	fb_stance_default(b, &d->sh.st);
}

static void
test_duelists(struct db *db)
{
	struct fbledger_duelist d, e;
	struct fb_board b, eb;
	char all[400] = "", *st;

	fbledger_board_load(db, "default", &b);
	new_duelist(&d, &b, "Ann", FB_LIGHT, FB_RIGHT, FB_BLUE);
	stance(&b, &d, "upper-left=2 upper-right=3 center=4 left=3 right=3"
	    " lower-left=3 lower-right=3 att=5 def=5");
	d.notes = xstrdup("keeps left");
	db_begin(db);
	is_int(fbledger_duelist_save(db, &d, &b, NOW), 0, "Ann saved");
	ok(d.id > 0, "and given an id");
	new_duelist(&e, &b, "ANN", FB_DARK, FB_LEFT, FB_RED);
	is_int(fbledger_duelist_save(db, &e, &b, NOW), -1,
	    "a second 'ANN': the name is taken");
	is_int(e.id, 0, "and no id given");
	new_duelist(&e, &b, "Bob", FB_DARK, FB_LEFT, FB_RED);
	is_int(fbledger_duelist_save(db, &e, &b, NOW), 0, "Bob saved");
	new_duelist(&e, &b, "Cyd", FB_LIGHT, FB_LEFT, FB_GREEN);
	e.sh.level = FB_TEMPLAR;
	is_int(fbledger_duelist_save(db, &e, &b, NOW), 0, "Cyd saved");
	db_commit(db);
	fbledger_duelist_release(&d);

	ok(fbledger_duelist_load(db, "ann", &d, &eb) == 0,
	    "Ann loads, the name in any case");
	is_str(d.name, "Ann", "named as stored");
	is_int(d.sh.side, FB_LIGHT, "side");
	is_int(d.sh.hand, FB_RIGHT, "hand");
	is_int(d.sh.colour, FB_BLUE, "colour");
	is_int(d.sh.level, FB_LEARNER, "level");
	is_int(d.sh.free_geas, -1, "no free GEAS");
	is_str(d.board, "default", "board");
	is_str(eb.name, "default", "and the board loaded with her");
	is_int(d.sh.st.sph[2], 4, "her stance: center 4");
	is_int(d.sh.st.sph[0], 2, "upper-left 2");
	is_int(d.sh.st.att, 5, "att 5");
	is_str(d.notes, "keeps left", "notes");
	is_int(d.created, NOW, "created");
	is_int(d.updated, NOW, "updated");

	/* An update: Bob's stance and a Diamedes' free GEAS for Ann. */
	d.sh.level = FB_DIAMEDES;
	d.sh.free_geas = FB_HEAL;
	free(d.notes);
	d.notes = NULL;
	db_begin(db);
	is_int(fbledger_duelist_save(db, &d, &b, NOW + 60), 0, "Ann updated");
	db_commit(db);
	fbledger_duelist_release(&d);
	fbledger_duelist_load(db, "Ann", &d, &eb);
	is_int(d.sh.level, FB_DIAMEDES, "the new level");
	is_int(d.sh.free_geas, FB_HEAL, "the free GEAS");
	ok(d.notes == NULL, "notes gone");
	is_int(d.created, NOW, "created kept");
	is_int(d.updated, NOW + 60, "updated moved");
	/* Back to the sheet of the duel below. */
	d.sh.level = FB_LEARNER;
	d.sh.free_geas = -1;
	db_begin(db);
	fbledger_duelist_save(db, &d, &b, NOW + 60);
	fbledger_duelist_release(&d);
	fbledger_duelist_load(db, "Bob", &d, &eb);
	stance(&b, &d, "upper-left=3 upper-right=3 center=3 left=3 right=3"
	    " lower-left=3 lower-right=3 att=4 def=5 lightning=1");
	fbledger_duelist_save(db, &d, &b, NOW + 60);
	db_commit(db);
	fbledger_duelist_release(&d);
	fbledger_duelist_load(db, "Bob", &d, &eb);
	st = fbtext_stance_format(&eb, &d.sh.st);
	is_str(st, "upper-left=3 upper-right=3 center=3 left=3 right=3"
	    " lower-left=3 lower-right=3 att=4 def=5 lightning=1",
	    "Bob's stance read back");
	free(st);
	fbledger_duelist_release(&d);

	fbledger_duelist_load(db, "Bob", &d, &eb);
	snprintf(d.name, sizeof d.name, "ann");
	db_begin(db);
	is_int(fbledger_duelist_save(db, &d, &eb, NOW + 61), -1,
	    "Bob renamed 'ann': the name is taken");
	db_commit(db);
	fbledger_duelist_release(&d);

	{
		char name[FBLEDGER_NAMESZ], bname[FB_NAMESZ];

		is_int(fbledger_duelist_name(db, "ANN", name, why, sizeof why),
		    0, "ANN: a duelist, but for case");
		is_str(name, "Ann", "  named as stored");
		is_int(fbledger_duelist_name(db, "cy", name, why, sizeof why),
		    0, "cy: a unique beginning");
		is_str(name, "Cyd", "  Cyd");
		is_int(fbledger_duelist_name(db, "Bbo", name, why, sizeof why),
		    -1, "Bbo");
		is_str(why, "no duelist 'Bbo'; did you mean 'Bob'?",
		    "  is unknown, with the nearest name");
		is_int(fbledger_board_name(db, "ar", bname, why, sizeof why),
		    0, "ar: a board by its beginning");
		is_str(bname, "Arena", "  Arena");
		is_int(fbledger_board_name(db, "nowhere", bname, why,
		    sizeof why), -1, "nowhere");
		is_str(why, "no board 'nowhere'", "  is no board");
	}
	fbledger_duelist_each(db, duelist_row, all);
	is_str(all, "Ann light learner upper-left=2 upper-right=3 center=4"
	    " left=3 right=3 lower-left=3 lower-right=3 att=5 def=5|"
	    "Bob dark learner upper-left=3 upper-right=3 center=3 left=3"
	    " right=3 lower-left=3 lower-right=3 att=4 def=5 lightning=1|"
	    "Cyd light templar upper-left=3 upper-right=3 center=3 left=3"
	    " right=3 lower-left=3 lower-right=3 att=5 def=5|",
	    "duelist_each: by name, with the stored stance");
	db_begin(db);
	is_int(fbledger_duelist_remove(db, "Cyd"), 0, "Cyd removed");
	is_int(fbledger_duelist_remove(db, "Cyd"), -1, "and gone");
	db_commit(db);
	ok(fbledger_duelist_load(db, "Cyd", &d, &eb) < 0,
	    "Cyd no longer loads");
}

/* ---- a duel ---- */

/* A state's copy whose pointers point into itself. */
static void
copy_live(struct fbledger_live *dst, const struct fbledger_live *src)
{
	*dst = *src;
	dst->np[0] = dst->names[0];
	dst->np[1] = dst->names[1];
	dst->s.b = &dst->b;
}

/* "" if a and b are the same duel state, else what differs. */
static const char *
state_diff(const struct fbledger_live *a, const struct fbledger_live *b)
{
	const struct fb_state *s = &a->s, *t = &b->s;

	if (strcmp(a->names[0], b->names[0]) != 0 ||
	    strcmp(a->names[1], b->names[1]) != 0)
		return "names";
	if (strcmp(a->b.name, b->b.name) != 0 || a->b.ns != b->b.ns)
		return "board";
	if (s->round != t->round)
		return "round";
	if (s->stage != t->stage)
		return "stage";
	if (s->attacker != t->attacker || s->last_attacker != t->last_attacker)
		return "attacker";
	if (s->over != t->over || s->winner != t->winner || s->end != t->end)
		return "over/winner";
	if (s->total != t->total || s->earned != t->earned ||
	    s->restance != t->restance || s->choose != t->choose)
		return "total/earned/restance/choose";
	if (s->target != t->target || s->die_target != t->die_target)
		return "target";
	/* fb_player is all ints: no padding to tell them apart. */
	for (int w = 0; w < 2; w++) {
		const struct fb_player *p = &s->p[w], *q = &t->p[w];

		if (memcmp(p->sph, q->sph, sizeof p->sph) != 0)
			return "spheres";
		if (p->pool != q->pool)
			return "pool";
		if (p->att != q->att || p->def != q->def)
			return "att/def";
		if (memcmp(p->geas, q->geas, sizeof p->geas) != 0)
			return "geas";
		if (memcmp(p, q, sizeof *p) != 0)
			return "player";
	}
	return "";
}

/*
 * Runs action on live as fb-duel's play() does: the options through
 * fbtext_in_option and fbtext_in_finish, then fbledger_apply, and appends
 * the event with the canonical input.  opts is NAME, VALUE pairs ending
 * in NULL (VALUE NULL for a flag).  Returns the seq, or -1 if refused.
 */
static int64_t
play(struct db *db, int64_t id, struct fbledger_live *live,
    const char *action, const char *actor, const char *const *opts,
    char **stored)
{
	struct fbledger_live *before = xcalloc(1, sizeof *before);
	struct journal_event e;
	struct fb_report r;
	struct fb_in in;
	struct rng rng, fresh;
	int64_t seq = -1;
	char *input;

	copy_live(before, live);
	fb_in_init(&in);
	for (int k = 0; opts[k] != NULL; k += 2)
		if (fbtext_in_option(&live->b, live->np, opts[k], opts[k + 1],
		    &in, why, sizeof why) < 0)
			goto out;
	if (fbtext_in_finish(&in, why, sizeof why) < 0)
		goto out;
	rng_seed(&rng, 7);
	fresh = rng;
	if (fbledger_apply(live, action, NULL, &in, &rng, &r, why,
	    sizeof why) < 0)
		goto out;
	live->s.b = &live->b;
	input = fbtext_in_format(&live->b, live->np, &in);
	memset(&e, 0, sizeof e);
	e.round = before->s.round;
	e.action = (char *)action;
	e.actor = (char *)(actor ? actor : r.attacker >= 0 ?
	    before->np[r.attacker] : NULL);
	e.input = input;
	e.outcome = strcmp(action, "round") == 0 ?
	    (char *)fb_outcome_name(r.outcome) : NULL;
	e.ended = live->s.over && !before->s.over ?
	    (char *)fb_end_name(live->s.end) : NULL;
	e.winner = e.ended && live->s.winner >= 0 ?
	    live->names[live->s.winner] : NULL;
	e.seed = !rng_equal(&rng, &fresh) ? "7" : NULL;
	e.detail = "{}";
	e.time = NOW;
	db_begin(db);
	seq = journal_append(db, &fbledger_kind, id, 0, &e);
	db_commit(db);
	if (stored != NULL)
		*stored = input;
	else
		free(input);
out:
	free(before);
	return seq;
}

/* Loads duel id and derives it into live; the derive's result. */
static int
derive(struct db *db, int64_t id, struct fbledger_duel *d,
    struct fbledger_live *live, int64_t *bad)
{
	*bad = 0;
	why[0] = '\0';
	if (fbledger_duel_load(db, id, d) < 0)
		return -2;
	return fbledger_derive(d, live, bad, why, sizeof why);
}

struct summary {
	int		n;
	char		text[400];
};

static void
summary_row(void *arg, const struct journal_summary *s)
{
	struct summary *sum = arg;
	size_t len = strlen(sum->text);

	sum->n++;
	snprintf(sum->text + len, sizeof sum->text - len, "%lld %s %s %s %d %s"
	    " %s|", (long long)(s->id & DB_KEY_MAX_NO), s->a, s->b, s->board, s->count,
	    s->ended ? s->ended : "-", s->winner ? s->winner : "-");
}

static const char *
each(struct db *db, const char *name)
{
	static struct summary sum;

	memset(&sum, 0, sizeof sum);
	fbledger_duel_each(db, name, summary_row, &sum);
	return sum.text;
}

static const char start_text[] =
    "duelist Ann light right blue learner - upper-left=2 upper-right=3"
    " center=4 left=3 right=3 lower-left=3 lower-right=3 att=5 def=5\n"
    "duelist Bob dark left red learner - upper-left=3 upper-right=3"
    " center=3 left=3 right=3 lower-left=3 lower-right=3 att=4 def=5"
    " lightning=1\n"
    "board default\n"
    "target head head 1 1\n"
    "target left-arm left-arm 2 3\n"
    "target right-arm right-arm 3 2\n"
    "target torso torso 4 4\n"
    "target left-leg left-leg 5 6\n"
    "target right-leg right-leg 6 5\n"
    "sphere upper-left - head,left-arm\n"
    "sphere upper-right - head,right-arm\n"
    "sphere center center head,left-arm,right-arm,torso\n"
    "sphere left - left-arm,torso\n"
    "sphere right - right-arm,torso\n"
    "sphere lower-left lower torso,left-leg\n"
    "sphere lower-right lower torso,right-leg\n";

static void
test_duel(struct db *db)
{
	static const char *const round1[] = { "init", "5,2", "choose",
	    "torso", "pull", "Bob:center=2,left=1", "pull", "Ann:right=1",
	    "hit", "3,3", "block", "4,4", NULL };
	static const char *const geas2[] = { "geas",
	    "Bob:lightning:1:lower-right", NULL };
	static const char *const init2[] = { "init", "3,3", NULL };
	static const char *const aim2[] = { "target-die", "4", "move",
	    "right-arm@right", NULL };
	static const char *const round2[] = { "pull", "Ann:upper-right=2",
	    "hit", "6,6", "block", "1,2", "gain", "4", "gain-from-foe", NULL,
	    NULL };
	static const char *const maim[] = { "init", "6,1", "target-die", "1",
	    "hit", "1,1", "block", "6,6", "damage", "6", NULL };
	static const char *const round3[] = { "init", "2,6", "target-die", "3",
	    "pull", "Ann:center=2,right=2", "hit", "2,2", "block", "3,3",
	    NULL };
	static const char *const maim4[] = { "init", "6,1", "target-die", "1",
	    "hit", "1,1", "block", "6,6", "damage", "1", NULL };
	static const char *const refused[] = { "choose", "head", NULL };
	struct fbledger_live *live = xcalloc(1, sizeof *live);
	struct fbledger_live *got = xcalloc(1, sizeof *got);
	struct fbledger_live *mid = xcalloc(1, sizeof *mid);
	struct fbledger_duelist a, b;
	struct fbledger_duel d;
	const struct journal_event *ev;
	struct fb_board ba, bb;
	struct journal_event e;
	struct fb_report r;
	int64_t id, bad, seq;
	ptrdiff_t u;
	char *input, *stored = NULL, sql[200];

	is_int(fbledger_duel_current(db), 0, "no duel yet");
	fbledger_duelist_load(db, "Ann", &a, &ba);
	fbledger_duelist_load(db, "Bob", &b, &bb);
	input = fbledger_start_input(&ba, &a, &b);
	is_str(input, start_text, "the start input: both sheets, the board");
	ok(fbledger_apply(live, "start", input, NULL, NULL, &r, why,
	    sizeof why) == 0, "start applies");
	live->s.b = &live->b;
	is_str(live->names[0], "Ann", "first duelist");
	is_int(live->s.round, 1, "round 1");
	db_begin(db);
	id = fbledger_duel_new(db, a.name, b.name, ba.name, NOW);
	memset(&e, 0, sizeof e);
	e.round = 1;
	e.action = "start";
	e.input = input;
	e.detail = "{}";
	e.time = NOW;
	is_int(journal_append(db, &fbledger_kind, id, 0, &e), 1,
	    "the start is seq 1");
	db_commit(db);
	free(input);
	fbledger_duelist_release(&a);
	fbledger_duelist_release(&b);
	is_int(fbledger_duel_current(db), id, "the current duel");

	seq = play(db, id, live, "round", NULL, round1, &stored);
	is_int(seq, 2, "round 1 is seq 2");
	is_str(stored, "--init 5,2 --choose torso --pull Ann:right=1"
	    " --pull Bob:center=2,left=1 --hit 3,3 --block 4,4",
	    "its stored input, canonical");
	free(stored);
	is_int(play(db, id, live, "geas", "Bob", geas2, NULL), 3,
	    "Bob's lightning, seq 3");
	is_int(play(db, id, live, "init", NULL, init2, NULL), 4,
	    "initiative, seq 4");
	is_int(live->s.attacker, 1, "a tie swaps: Bob attacks");
	is_int(play(db, id, live, "aim", NULL, aim2, NULL), 5, "aim, seq 5");
	is_int(play(db, id, live, "round", NULL, round2, NULL), 6,
	    "round 2, seq 6");
	is_int(live->s.p[0].side, FB_DARK, "Ann has turned to the Dark side");
	is_int(play(db, id, live, "round", NULL, refused, NULL), -1,
	    "a chosen target in round 3 is refused");
	is_str(why, "the target is rolled this round; it is chosen only in"
	    " the first round and after a double botch (or with Sight)",
	    "and why");

	/* Derived from the database: the state applied directly. */
	ok(derive(db, id, &d, got, &bad) == 0, "the duel derives");
	is_str(state_diff(got, live), "", "to the state applied directly");
	is_int(got->s.round, 3, "round 3");
	is_int(got->s.p[0].pool, 2, "Ann's pool 2");
	is_int(got->s.p[1].sph[4], 2, "Bob's right sphere 2");
	is_int(d.j.n, 6, "six events");
	ev = journal_body(&d.j, 1);
	is_str(ev->action, "round", "event 2's action");
	is_str(ev->actor, "Ann", "its actor, the attacker");
	is_str(ev->outcome, "hit-block", "its outcome");
	ok(ev->ended == NULL && ev->winner == NULL, "nothing ended");
	ok(ev->seed == NULL, "no die from the generator: every die given");
	ev = journal_body(&d.j, 2);
	is_str(ev->actor, "Bob", "the geas's actor");
	is_str(ev->input, "--geas Bob:lightning:1:lower-right",
	    "the geas's input");
	ok(ev->outcome == NULL, "no outcome but a round's");
	ev = journal_body(&d.j, 5);
	is_int(ev->round, 2, "round 2's round");
	is_str(ev->outcome, "botch-block", "and outcome");
	is_str(d.a, "Ann", "the duel's row: a");
	is_str(d.b, "Bob", "b");
	is_str(d.board, "default", "board");
	is_int(d.created, NOW, "created");
	fbledger_duel_release(&d);

	/* A tampered outcome: the derive stops at it, naming its seq. */
	snprintf(sql, sizeof sql, "UPDATE fb_event SET outcome = 'hit'"
	    " WHERE duel_id = %lld AND seq = 2", (long long)id);
	exec(db, sql);
	ok(derive(db, id, &d, got, &bad) < 0, "a tampered outcome: refused");
	is_int(bad, 2, "at seq 2");
	is_str(why, "the round gives 'hit-block' again, not the recorded"
	    " 'hit'", "why");
	fbledger_duel_release(&d);
	snprintf(sql, sizeof sql, "UPDATE fb_event SET outcome = NULL"
	    " WHERE duel_id = %lld AND seq = 6", (long long)id);
	exec(db, sql);
	snprintf(sql, sizeof sql, "UPDATE fb_event SET outcome = 'hit-block'"
	    " WHERE duel_id = %lld AND seq = 2", (long long)id);
	exec(db, sql);
	derive(db, id, &d, got, &bad);
	is_int(bad, 6, "an outcome taken away: refused at seq 6");
	is_str(why, "the round gives 'botch-block' again, not the recorded"
	    " '-'", "why");
	fbledger_duel_release(&d);
	snprintf(sql, sizeof sql, "UPDATE fb_event SET outcome ="
	    " 'botch-block' WHERE duel_id = %lld AND seq = 6", (long long)id);
	exec(db, sql);
	/* A tampered input (a die changed) gives another outcome. */
	snprintf(sql, sizeof sql, "UPDATE fb_event SET input = replace(input,"
	    " '--block 4,4', '--block 6,6') WHERE duel_id = %lld AND seq = 2",
	    (long long)id);
	exec(db, sql);
	ok(derive(db, id, &d, got, &bad) < 0, "a tampered input: refused");
	is_int(bad, 2, "at seq 2");
	is_str(why, "the round gives 'hit' again, not the recorded"
	    " 'hit-block'", "why");
	fbledger_duel_release(&d);
	snprintf(sql, sizeof sql, "UPDATE fb_event SET input = replace(input,"
	    " '--block 6,6', '--block 4,4') WHERE duel_id = %lld AND seq = 2",
	    (long long)id);
	exec(db, sql);
	ok(derive(db, id, &d, got, &bad) == 0, "restored, it derives again");
	fbledger_duel_release(&d);

	/* The maiming round, then its undo. */
	copy_live(mid, live);
	is_int(play(db, id, live, "round", NULL, maim, NULL), 7,
	    "the maiming round, seq 7");
	ok(live->s.over && live->s.winner == 0 && live->s.end == FB_E_MAIMED,
	    "Ann wins: maimed");
	is_str(state_diff(mid, live), "round",
	    "state_diff tells the states apart");
	is_str(each(db, NULL), "1 Ann Bob default 3 maimed Ann|",
	    "duel_each: round 3, maimed, Ann");
	derive(db, id, &d, got, &bad);
	is_str(state_diff(got, live), "", "derived: over as applied");
	ev = journal_body(&d.j, 6);
	is_str(ev->ended, "maimed", "the event's ended");
	is_str(ev->winner, "Ann", "and winner");
	u = journal_undoable(&d.j);
	is_int(u, 6, "undo would take back seq 7");
	db_begin(db);
	is_int(journal_event_undo(db, &d.j, (size_t)u, NOW + 5, NULL), 8,
	    "the undo is seq 8");
	db_commit(db);
	fbledger_duel_release(&d);
	ok(derive(db, id, &d, got, &bad) == 0, "it derives");
	is_str(state_diff(got, mid), "", "to the state before seq 7");
	ok(!got->s.over, "the duel goes on");
	ok(d.j.undone[6] && !d.j.undone[7], "seq 7 undone, the undo not");
	is_int(journal_undoable(&d.j), 5, "next undo: seq 6");
	fbledger_duel_release(&d);
	is_str(each(db, NULL), "1 Ann Bob default 2 - -|",
	    "duel_each: the undone round and its end not counted");

	copy_live(live, mid);
	is_int(play(db, id, live, "round", NULL, round3, NULL), 9,
	    "round 3 again, seq 9");
	is_int(play(db, id, live, "round", NULL, maim4, NULL), 10,
	    "round 4, seq 10");
	ok(live->s.over && live->s.winner == 0, "Ann wins");
	ok(derive(db, id, &d, got, &bad) == 0, "it derives");
	is_str(state_diff(got, live), "", "to the state applied directly");
	is_int(got->s.round, 5, "round 5");
	is_int(got->s.end, FB_E_MAIMED, "maimed");
	fbledger_duel_release(&d);
	is_str(each(db, NULL), "1 Ann Bob default 4 maimed Ann|",
	    "duel_each: 4 rounds, maimed, Ann");
	is_str(each(db, "Bob"), "1 Ann Bob default 4 maimed Ann|",
	    "Bob's duels");
	is_str(each(db, "Cyd"), "", "none for Cyd");
	is_str(each(db, "bob"), "", "the name exactly as stored");

	/* A second duel: the current one, listed after the first. */
	db_begin(db);
	is_int(fbledger_duel_new(db, "Bob", "Ann", "default", NOW + 9), id + 1,
	    "a second duel");
	db_commit(db);
	is_int(fbledger_duel_current(db), id + 1, "the newest is current");
	is_str(each(db, NULL), "1 Ann Bob default 4 maimed Ann|"
	    "2 Bob Ann default 0 - -|", "duel_each: both, in order");
	ok(fbledger_duel_load(db, id + 5, &d) < 0, "no duel 6");
	fbledger_duel_release(&d);
	free(live);
	free(got);
	free(mid);
}

/* A double botch, then a new stance (input NAME WORDS, run as is). */
static void
test_restance(struct db *db)
{
	static const char *const botch[] = { "init", "5,2", "choose", "torso",
	    "hit", "6,6", "block", "6,6", NULL };
	static const char *const next[] = { "init", "4,1", "target-die", "2",
	    "hit", "2,2", "block", "3,3", NULL };
	static const char words[] = "Ann upper-left=3 upper-right=3 center=3"
	    " left=3 right=3 lower-left=3 lower-right=3 att=5 def=5";
	struct fbledger_live *live = xcalloc(1, sizeof *live);
	struct fbledger_live *got = xcalloc(1, sizeof *got);
	struct fbledger_duel d;
	const struct journal_event *ev;
	struct journal_event e;
	struct fb_report r;
	struct fb_in in;
	struct rng rng;
	int64_t id, bad;
	int round;

	ok(fbledger_apply(live, "start", start_text, NULL, NULL, &r, why,
	    sizeof why) == 0, "a third duel starts");
	live->s.b = &live->b;
	db_begin(db);
	id = fbledger_duel_new(db, "Ann", "Bob", "default", NOW + 20);
	memset(&e, 0, sizeof e);
	e.round = 1;
	e.action = "start";
	e.input = (char *)start_text;
	e.detail = "{}";
	e.time = NOW + 20;
	journal_append(db, &fbledger_kind, id, 0, &e);
	db_commit(db);
	is_int(play(db, id, live, "round", NULL, botch, NULL), 2,
	    "round 1, seq 2");
	ok(live->s.restance & 1, "a double botch: Ann may take a new stance");
	round = live->s.round;
	fb_in_init(&in);
	rng_seed(&rng, 1);
	ok(fbledger_apply(live, "restance", words, &in, &rng, &r, why,
	    sizeof why) == 0, "Ann's new stance applies");
	is_int(live->s.p[0].sph[2], 3, "center 3 now");
	memset(&e, 0, sizeof e);
	e.round = round;
	e.action = "restance";
	e.actor = "Ann";
	e.input = (char *)words;
	e.detail = "{}";
	e.time = NOW + 21;
	db_begin(db);
	is_int(journal_append(db, &fbledger_kind, id, 0, &e), 3,
	    "the restance, seq 3");
	db_commit(db);
	is_int(play(db, id, live, "round", NULL, next, NULL), 4,
	    "round 2, seq 4");
	ok(derive(db, id, &d, got, &bad) == 0, "it derives");
	is_str(state_diff(got, live), "", "to the state applied directly");
	is_int(got->s.p[0].sph[2], live->s.p[0].sph[2],
	    "Ann's center as the new stance left it");
	ev = journal_body(&d.j, 2);
	is_str(ev->input, words, "the restance's input, as typed");
	is_str(ev->actor, "Ann", "and its actor");
	fbledger_duel_release(&d);
	free(live);
	free(got);
}

static void
test_apply_refusals(void)
{
	struct fbledger_live *live = xcalloc(1, sizeof *live);
	struct fb_report r;
	struct fb_in in;
	struct rng rng;

	fb_in_init(&in);
	rng_seed(&rng, 1);
	ok(fbledger_apply(live, "start", "duelist Ann\n", NULL, NULL, &r, why,
	    sizeof why) < 0, "a start without its second duelist");
	is_str(why, "start: duelist 2 missing", "why");
	ok(fbledger_apply(live, "start", start_text, NULL, NULL, &r, why,
	    sizeof why) == 0, "the start text applies");
	ok(fbledger_apply(live, "dance", "", &in, &rng, &r, why,
	    sizeof why) < 0, "an unknown action");
	is_str(why, "unknown action 'dance'", "why");
	ok(fbledger_apply(live, "restance", "Zed center=3", &in, &rng, &r, why,
	    sizeof why) < 0, "a restance of someone else");
	is_str(why, "'Zed' is not in this duel", "why");
	free(live);
}


/* ---- snapshots ---- */

/* 1 if live packs back to the bytes buf, len. */
static int
packs_to(const struct fbledger_live *live, const void *buf, size_t len)
{
	struct pack p = { 0 };
	int same;

	fbledger_live_pack(live, &p);
	same = p.len == len && memcmp(p.buf, buf, len) == 0;
	free(p.buf);
	return same;
}

/* A live whose one field is set out of range must not read back. */
static void
refused(const struct fbledger_live *good, void (*spoil)(struct fbledger_live *),
    const char *what)
{
	struct fbledger_live *bad = xcalloc(1, sizeof *bad);
	struct fbledger_live *back = xcalloc(1, sizeof *back);
	struct pack p = { 0 };

	copy_live(bad, good);
	spoil(bad);
	fbledger_live_pack(bad, &p);
	ok(fbledger_live_unpack(p.buf, p.len, back) != 0, "refused: %s", what);
	free(p.buf);
	free(bad);
	free(back);
}

static void spoil_stage(struct fbledger_live *l) { l->s.stage = 3; }
static void spoil_attacker(struct fbledger_live *l) { l->s.attacker = 2; }
static void spoil_colour(struct fbledger_live *l) { l->s.p[1].colour = -1; }
static void spoil_ns(struct fbledger_live *l) { l->b.ns = FB_MAXS + 1; }
static void spoil_table(struct fbledger_live *l) { l->b.table[0][3] = 6; }
static void spoil_tsph(struct fbledger_live *l) { l->b.tsph[0][0] = 5; }
static void spoil_center(struct fbledger_live *l) { l->b.center = 6; }
static void spoil_sphere(struct fbledger_live *l) { l->s.p[0].sph[0]++; }
static void spoil_target(struct fbledger_live *l) { l->s.target = FB_NT; }

static void
test_pack(void)
{
	static const char *const round1[] = { "init", "5,2", "choose",
	    "torso", "pull", "Bob:center=2,left=1", "pull", "Ann:right=1",
	    "hit", "3,3", "block", "4,4", NULL };
	struct fbledger_live *live = xcalloc(1, sizeof *live);
	struct fbledger_live *back = xcalloc(1, sizeof *back);
	struct pack p = { 0 };
	struct fb_report r;
	struct fb_in in;
	struct rng rng;
	size_t n, good = 0;

	ok(fbledger_apply(live, "start", start_text, NULL, NULL, &r, why,
	    sizeof why) == 0, "pack: a duel starts");
	live->s.b = &live->b;
	fb_in_init(&in);
	for (int k = 0; round1[k] != NULL; k += 2)
		fbtext_in_option(&live->b, live->np, round1[k], round1[k + 1],
		    &in, why, sizeof why);
	fbtext_in_finish(&in, why, sizeof why);
	rng_seed(&rng, 3);
	ok(fbledger_apply(live, "round", NULL, &in, &rng, &r, why,
	    sizeof why) == 0, "pack: and plays a round");
	live->s.b = &live->b;
	fbledger_live_pack(live, &p);
	ok(fbledger_live_unpack(p.buf, p.len, back) == 0, "it reads back");
	is_str(state_diff(back, live), "", "to the same state");
	ok(memcmp(&back->b, &live->b, sizeof back->b) == 0, "the same board");
	ok(back->s.b == &back->b && back->np[1] == back->names[1],
	    "its pointers are its own");
	ok(packs_to(back, p.buf, p.len), "and packs to the same bytes");

	/* Every short read, and one byte too many, fails. */
	for (n = 0; n < p.len; n++)
		good += fbledger_live_unpack(p.buf, n, back) == 0;
	is_int(good, 0, "no shortened form reads back");
	p.buf = xreallocarray(p.buf, p.len + 1, 1);
	p.buf[p.len] = 0;
	ok(fbledger_live_unpack(p.buf, p.len + 1, back) != 0,
	    "a byte too many");
	p.buf[0] = 4;
	ok(fbledger_live_unpack(p.buf, p.len, back) != 0, "another format");
	p.buf[0] = 2;

	/*
	 * Every byte spoiled, three ways: what still reads back is a state
	 * in range that packs to those very bytes.
	 */
	good = 0;
	for (n = 0; n < p.len; n++)
		for (int v = 0; v < 3; v++) {
			unsigned char keep = p.buf[n];

			p.buf[n] = v == 0 ? keep ^ 0xff : v == 1 ? 0x7f :
			    keep + 2;
			if (fbledger_live_unpack(p.buf, p.len, back) == 0 &&
			    !packs_to(back, p.buf, p.len))
				good++;
			p.buf[n] = keep;
		}
	is_int(good, 0, "a damaged form reads back only as what it packs");
	free(p.buf);

	refused(live, spoil_stage, "a stage out of range");
	refused(live, spoil_attacker, "an attacker 2");
	refused(live, spoil_colour, "a colour -1");
	refused(live, spoil_ns, "a board of 9 spheres");
	refused(live, spoil_table, "a target table pointing past the targets");
	refused(live, spoil_tsph, "a table the board does not build");
	refused(live, spoil_center, "a center that does not touch the head");
	refused(live, spoil_sphere, "a counter more than the duel holds");
	refused(live, spoil_target, "a target past the six");
	free(live);
	free(back);
}

/* Appends the start of a duel between Ann and Bob; its id. */
static int64_t
start_duel(struct db *db, struct fbledger_live *live)
{
	struct journal_event e;
	struct fb_report r;
	int64_t id;

	fbledger_apply(live, "start", start_text, NULL, NULL, &r, why,
	    sizeof why);
	live->s.b = &live->b;
	db_begin(db);
	id = fbledger_duel_new(db, "Ann", "Bob", "default", NOW);
	memset(&e, 0, sizeof e);
	e.round = 1;
	e.action = "start";
	e.input = (char *)start_text;
	e.detail = "{}";
	e.time = NOW;
	fbledger_record(db, id, &e, live);
	db_commit(db);
	return id;
}

/*
 * One seeded event on live: initiative, the target or a round, as the
 * stage allows, every die from rng; recorded as fb-duel records it.
 * Returns its seq, or 0 if the rules refused it (nothing written).
 */
static int64_t
seeded_event(struct db *db, int64_t id, struct fbledger_live *live,
    struct rng *rng)
{
	static const char *const actions[] = { "init", "aim", "round" };
	struct fbledger_live *next = xcalloc(1, sizeof *next);
	const char *action;
	struct journal_event e;
	struct fb_report r;
	struct fb_in in;
	int64_t seq = 0;
	int a = (int)rng_below(rng, 3);

	if (a < live->s.stage)
		a = 2;
	action = actions[a];
	fb_in_init(&in);
	if (live->s.choose && live->s.stage != FB_AIMED && a > 0)
		in.choose = (int)rng_below(rng, FB_NT);
	copy_live(next, live);
	if (fbledger_apply(next, action, NULL, &in, rng, &r, why,
	    sizeof why) == 0) {
		next->s.b = &next->b;
		memset(&e, 0, sizeof e);
		e.round = live->s.round;
		e.action = (char *)action;
		e.input = fbtext_in_format(&next->b, next->np, &in);
		e.outcome = a == 2 ? (char *)fb_outcome_name(r.outcome) : NULL;
		e.ended = next->s.over ? (char *)fb_end_name(next->s.end) :
		    NULL;
		e.detail = "{}";
		e.time = NOW;
		db_begin(db);
		seq = fbledger_record(db, id, &e, next);
		db_commit(db);
		free(e.input);
		copy_live(live, next);
	}
	free(next);
	return seq;
}

/*
 * Derives duel id from its newest snapshot (before seq before) and from
 * every event; 1 if both derive to the same bytes.  *base is the
 * snapshot's seq.
 */
static int
same_both_ways(struct db *db, int64_t id, int64_t before, int64_t *base)
{
	struct fbledger_live *a = xcalloc(1, sizeof *a);
	struct fbledger_live *b = xcalloc(1, sizeof *b);
	struct fbledger_duel d;
	struct pack p = { 0 };
	int64_t bad;
	int same;

	fbledger_duel_load_recent(db, id, before, &d);
	*base = d.j.base;
	same = fbledger_derive(&d, a, &bad, why, sizeof why) == 0;
	fbledger_duel_release(&d);
	fbledger_duel_load(db, id, &d);
	same = same && fbledger_derive(&d, b, &bad, why, sizeof why) == 0;
	fbledger_duel_release(&d);
	fbledger_live_pack(a, &p);
	same = same && packs_to(b, p.buf, p.len);
	free(p.buf);
	free(a);
	free(b);
	return same;
}

static void
no_report(void *arg, int64_t seq, const char *what)
{
	(void)seq;
	(void)what;
	++*(int *)arg;
}

/* Seeded duels, a snapshot after every event. */
static void
test_snapshots_seeded(struct db *db)
{
	struct fbledger_live *live = xcalloc(1, sizeof *live);
	struct rng rng;
	int64_t id, seq, base;
	int events = 0, diverge = 0, unused = 0, reported = 0, replayed = 0;

	setenv("REFKIT_SNAPSHOT_EVERY", "1", 1);
	for (uint64_t seed = 1; seed <= 6; seed++) {
		rng_seed(&rng, seed);
		memset(live, 0, sizeof *live);
		id = start_duel(db, live);
		for (int k = 0; k < 80 && !live->s.over; k++) {
			if ((seq = seeded_event(db, id, live, &rng)) == 0)
				continue;
			events++;
			diverge += !same_both_ways(db, id, 0, &base);
			unused += base != seq;
		}
		is_int(fbledger_audit(db, id, no_report, &reported, &replayed), 0,
		    "seed %d: the replay agrees with every snapshot",
		    (int)seed);
	}
	ok(events > 50, "the seeded duels ran %d events", events);
	is_int(replayed, events + 6, "the replay ran them and the starts");
	is_int(diverge, 0, "from a snapshot, the state of every event");
	is_int(unused, 0, "each from the snapshot after the newest event");
	is_int(reported, 0, "nothing reported");
	free(live);
}

/* Counts duel id's snapshots. */
static int
nsnaps(struct db *db, int64_t id)
{
	struct journal_snapshot *v;
	size_t n;

	v = journal_snapshots(db, &fbledger_kind, id, &n);
	journal_snapshots_free(v, n);
	return (int)n;
}

/* Undoes duel id's newest live event as fb-duel undo does. */
static int64_t
undo(struct db *db, int64_t id)
{
	struct fbledger_live *live = xcalloc(1, sizeof *live);
	struct fbledger_duel d;
	int64_t target = fbledger_undo_target(db, id), bad, seq;
	ptrdiff_t i;

	db_begin(db);
	fbledger_duel_load_recent(db, id, target > 0 ? target : 1, &d);
	fbledger_derive(&d, live, &bad, why, sizeof why);
	i = journal_undoable(&d.j);
	if (i < 0 || strcmp(((const struct journal_event *)journal_body(&d.j,
	    (size_t)i))->action, "start") == 0)
		seq = -1;
	else if (d.j.seq[i] != target)
		seq = 0;
	else
		seq = fbledger_undo(db, &d, (size_t)i, NOW, NULL);
	db_commit(db);
	fbledger_duel_release(&d);
	free(live);
	return seq;
}

/* Undos that reach back past snapshots, then snapshots of no use. */
static void
test_snapshots_undo(struct db *db)
{
	struct fbledger_live *live = xcalloc(1, sizeof *live);
	struct rng rng;
	int64_t id, base;
	int n = 0, reported = 0;
	char sql[200];

	setenv("REFKIT_SNAPSHOT_EVERY", "2", 1);
	rng_seed(&rng, 11);
	id = start_duel(db, live);
	while (n < 6 && !live->s.over)
		n += seeded_event(db, id, live, &rng) > 0;
	is_int(n, 6, "undo: seven events");
	is_int(nsnaps(db, id), 3, "snapshots after 2, 4 and 6");
	is_int(undo(db, id), 8, "undo of 7 is 8");
	ok(same_both_ways(db, id, 0, &base), "the state after it");
	is_int(base, 8, "from its snapshot");
	is_int(undo(db, id), 9, "undo of 6, past the snapshot after it");
	is_int(nsnaps(db, id), 2, "which is dropped");
	ok(same_both_ways(db, id, 0, &base), "the state after it");
	is_int(base, 4, "from the snapshot after 4");
	is_int(undo(db, id), 10, "undo of 5");
	ok(same_both_ways(db, id, 0, &base), "the state after it");
	is_int(base, 10, "from its own snapshot");
	is_int(undo(db, id), 11, "undo of 4, from the snapshot after 2");
	ok(same_both_ways(db, id, 0, &base), "the state after it");
	is_int(base, 2, "from the snapshot after 2");
	is_int(nsnaps(db, id), 1, "the snapshots after 4 and 10 dropped");
	is_int(fbledger_audit(db, id, no_report, &reported, &n), 0,
	    "the replay agrees");

	/* A snapshot of another version, or unreadable, is not used. */
	is_int(undo(db, id), 12, "undo of 3");
	snprintf(sql, sizeof sql, "UPDATE snapshot SET version = version + 1"
	    " WHERE log = %lld", (long long)id);
	exec(db, sql);
	is_int(nsnaps(db, id), 0, "another version's are not listed");
	ok(same_both_ways(db, id, 0, &base), "the state without them");
	is_int(base, 0, "from the first event");
	snprintf(sql, sizeof sql, "UPDATE snapshot SET version = version - 1,"
	    " state = x'02' WHERE log = %lld", (long long)id);
	exec(db, sql);
	ok(same_both_ways(db, id, 0, &base), "nor is a damaged one");
	is_int(base, 0, "from the first event");
	reported = 0;
	is_int(fbledger_audit(db, id, no_report, &reported, &n), 2,
	    "the replay finds both damaged");
	is_int(undo(db, id), 13, "undo of 2");
	ok(same_both_ways(db, id, 0, &base), "the state after it");
	is_int(undo(db, id), -1, "the start is never undone");
	unsetenv("REFKIT_SNAPSHOT_EVERY");
	free(live);
}

int
main(void)
{
	char dir[] = "/tmp/refkit-test-fb-ledger-XXXXXX";
	char *path, *cmd;
	struct db *db;

	if (mkdtemp(dir) == NULL)
		abort();
	setenv("REFKIT_NOW", "1795400000", 1);
	path = xasprintf("%s/refkit.db", dir);
	db = db_open(path);
	test_boards(db);
	test_duelists(db);
	test_duel(db);
	test_restance(db);
	test_apply_refusals();
	test_pack();
	test_snapshots_seeded(db);
	test_snapshots_undo(db);
	db_close(db);
	cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	free(cmd);
	free(path);
	return tap_done();
}
