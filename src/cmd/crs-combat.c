/*
 * crs-combat - run a CRS combat at the table and keep its record: each
 * command appends one event to the combat's ledger, whose replay through
 * the engine is the combat's state.  A thin layer over combat.c (the
 * rules), crs/text.c (the story) and ledger.c (the record and its
 * queries): it parses, opens the database, calls them and prints.  See
 * crs-combat(1).
 */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/cli.h"
#include "core/ruling.h"
#include "crs/combat.h"
#include "crs/text.h"
#include "crs/watch.h"
#include "db/db.h"
#include "base/names.h"
#include "crs/complete.h"
#include "crs/ledger.h"
#include "base/out.h"
#include "base/when.h"
#include "crs/report.h"
#include "crs/report_load.h"
#include "crs/report_html.h"
#include "crs/report_json.h"
#include "term/play.h"
#include "crs/roster.h"
#include "crs/sheet.h"
#include "base/fit.h"
#include "base/strbuf.h"
#include "base/util.h"

#define q util_q

struct opts {
	const char	*db;
	const char	*combat;	/* as typed: "3", "89abcdef-3" */
	const char	*gm;
	enum out_format	 fmt;
	int		 have_seed;
	uint64_t	 seed;
	int		 range, kind, use, mod, vs_mod, agreed;
	const char	*card, *vs_card, *vs_special, *character, *since;
	const char	*output;	/* report: the HTML file */
	int		 action;	/* enum combat_action of the command */
	int		 reading;	/* status, log: any combat will do */
	/* The full action set. */
	int		 rules;		/* start: enum combat_rules */
	int64_t		 lockout;	/* start: seconds; -1: the default */
	const char	*item, *vs_item, *melee_hit, *react, *react_card;
	char		*skills, *vs_skills;	/* "Name=+3;Other=-1" */
	char		*let;		/* "A;B" */
	char		*catches;	/* "A=CARDS;B=CARDS" */
	int		 free, surprise, em, react_base, react_need;
	int		 dry_run;	/* undo: say what, change nothing */
	const char	*reason;	/* a GM's ruling: why */
	int		 out_of_turn;	/* an action out of the order */
};

static const char usage_text[] =
"usage: crs-combat [--db PATH] [--combat ID] [--gm NAME] [--seed S]\n"
"                  [--json | --csv] COMMAND [ARG...]\n"
"\n"
"  start NAME... [--rules crs|avatar] [--lockout MINUTES]\n"
"  join NAME            a character joins (from the next round once\n"
"                       initiative is drawn)\n"
"  stance NAME          a Defensive Stance this round (before init)\n"
"  init [NAME=CARDS[/TIE...]...]   initiative; cards given are physical\n"
"  attack ATTACKER TARGET [--long] [--use N] [--card LIST]\n"
"         [--vs-card LIST [--vs-special CARD]] [--mod N] [--vs-mod N]\n"
"         [--item ITEM] [--vs-item ITEM] [--skill NAME=N] [--vs-skill NAME=N]\n"
"         [--free] [--surprise] [--melee-hit NAME]\n"
"         [--react NAME --react-base N [--react-need N] [--react-card LIST]]\n"
"         [--out-of-turn --reason TEXT]\n"
"  mental ATTACKER TARGET [--kind attack|suggestion|intimidation|coercion]\n"
"         [--use N] [--card LIST] [--vs-card LIST] [--mod N] [--vs-mod N]\n"
"         [--out-of-turn --reason TEXT]\n"
"  power CASTER POWER TARGET... [--em N] [--card LIST] [--vs-card LIST[/...]]\n"
"         [--out-of-turn --reason TEXT]\n"
"  range A B FEET [A B FEET...]   distances, at the start of a round\n"
"  flee NAME [--card LIST] [--catch NAME=CARDS]... [--let NAME]...\n"
"  charge NAME [OTHER=FEET...] [--let NAME]...\n"
"  blow PROTECTOR PROTECTED   Taking a Blow\n"
"  swap NAME ITEM [--free]    Item Swap (Avatar 2.6)\n"
"  pass NAME            the combatant does nothing this round\n"
"  round                Clean Up, and the next round\n"
"  end [--agreed]       the combat ends\n"
"  dead NAME            a combatant at LIFE 0 died (no restoring)\n"
"  adjust NAME LIFE=+N|-N|N [EM=...] --reason TEXT   a GM's ruling\n"
"  (any action) --out-of-turn --reason TEXT   out of the order, a ruling\n"
"  undo [EVENT] [--dry-run]  reverse the last event, or the one given\n"
"  play [COMBAT]        type commands at a prompt, the board shown after\n"
"                       each (a a b 8 6: attack a b --card 8 --vs-card 6)\n"
"  status               LIFE, EM, DR, stance and cards of everyone\n"
"  list                 the combats under way: GM, round, last event\n"
"  log [COMBAT]         every event, as a story\n"
"  watch [COMBAT]       a live board, drawn again as the combat changes\n"
"  replay [COMBAT]      re-derive every outcome and report differences\n"
"  history [--char NAME] [--since TIME]\n"
"  report [--since TIME] (-o FILE.html | --json)   the organiser's report\n"
"\n"
"Without --combat, the combat this GM (--gm, REFKIT_GM, else the login\n"
"name) last started or acted in that has not ended is used.\n";

/* The event every command starts from. */
static void
new_event(struct opts *o, struct combat_event *e, int action)
{
	combat_event_init(e);
	e->action = action;
	e->time = db_now();
	e->seed = o->have_seed ? o->seed : rng_os_seed();
	e->gm = xstrdup(cli_gm(o->gm));
	/* A ruling is never implied: only a typed reason makes one. */
	if (o->reason != NULL && (o->out_of_turn || action == COMBAT_ADJUST))
		e->ruling = xstrdup(o->reason);
}


/*
 * The combat a command works on: --combat, or the one this GM started or
 * acted in last that has not ended (a reading command: else the one he
 * acted in last).  Every refusal after it names the combat.
 */
static int64_t
combat_id(struct db *db, struct opts *o)
{
	char why[1000];
	int64_t id = o->combat ? db_key_parse(db, o->combat) :
	    journal_pick(db, &ledger_kind, cli_gm(o->gm), o->reading, why,
	    sizeof why);

	if (id == 0)
		db_die(db, "%s", why);
	db_subject(db, "combat", cli_key(id));
	/* Checked again where events are appended (journal_append). */
	if (!o->reading && !db_key_own(db, id))
		db_die(db, "started at another station, and only that station "
		    "adds to it (refkit(7))");
	return id;
}

/* How load_each loads: from the newest snapshot, or every event. */
#define FROM_SNAPSHOT	0
#define EVERY_EVENT	(-1)

/*
 * The combat a command works on, for load_each: --combat's, else on a
 * server the one picked in the round trip that reads it (DB_PICKED,
 * journal_pick_ahead), else its GM's (combat_id).
 */
static int64_t
combat_ahead(struct db *db, struct opts *o)
{
	int64_t id = 0;

	if (o->combat == NULL)
		id = journal_pick_ahead(db, &ledger_kind, cli_gm(o->gm),
		    o->reading);
	return id != 0 ? id : combat_id(db, o);
}

/* Loads combat id as load_each says. */
static int
load_from(struct db *db, int64_t id, int64_t from, struct ledger *l)
{
	if (from == EVERY_EVENT)
		return ledger_load_all(db, id, l);
	if (from > 0 || from == DB_PICKED_BEFORE)
		return ledger_load_before(db, id, from, l);
	return ledger_load(db, id, l);
}

/*
 * Loads and derives combat id (DB_PICKED: picked ahead, and none picked
 * is said as combat_id says it, for o), calling hook (if not NULL)
 * before each event with the state before it; a combat that no longer
 * replays stops.  from is FROM_SNAPSHOT, EVERY_EVENT, or a seq to load
 * from a snapshot before.
 */
static void
load_each(struct db *db, struct opts *o, int64_t id, int64_t from,
    struct ledger *l, struct combat_state *s,
    void (*hook)(void *, const struct combat_state *, size_t), void *arg)
{
	int64_t bad = 0;
	char why[300];
	int rc = load_from(db, id, from, l);

	/* None picked ahead: picked again, which says why (or finds one). */
	if (rc == JOURNAL_NONE) {
		id = combat_id(db, o);
		rc = load_from(db, id, from, l);
	}
	if (rc != 0) {
		db_subject(db, NULL, NULL);
		db_die(db, "no combat %s", cli_key(id));
	}
	id = l->combat;
	db_subject(db, "combat", cli_key(id));
	if (ledger_derive_each(l, s, hook, arg, &bad, why, sizeof why) != 0)
		db_die(db, "event %" PRId64 " no longer replays (%s); see "
		    "'crs-combat replay'", bad, why);
}

/* Loads and derives the combat from its newest snapshot. */
static void
load(struct db *db, struct opts *o, struct ledger *l, struct combat_state *s)
{
	load_each(db, o, combat_ahead(db, o), FROM_SNAPSHOT, l, s, NULL, NULL);
}

/*
 * Names as typed are resolved to full names (base/names.h), kept here so
 * that they live until exit whatever path leaves.
 */
static char **resolved;
static size_t nresolved;

static const char *
keep_name(char *full)
{
	resolved = xreallocarray(resolved, nresolved + 1, sizeof *resolved);
	resolved[nresolved++] = full;
	return full;
}

/* The character, item or power of the roster that typed names. */
static const char *
roster_full(struct db *db, enum roster_table table, const char *typed)
{
	char why[600], *full = roster_name(db, table, typed, why, sizeof why);

	if (full == NULL)
		db_die(db, "%s", why);
	return keep_name(full);
}

/*
 * The fighter of combat s that typed names: exactly, but for case, or by
 * a unique prefix of the name or a word of it; otherwise exits 1 with the
 * candidates, or the nearest names and everyone in the combat.
 */
static const char *
fighter(struct db *db, const struct combat_state *s, const char *typed)
{
	const char **all = xcalloc((size_t)s->n + 1, sizeof *all);
	char why[900];
	int at;

	for (int i = 0; i < s->n; i++)
		all[i] = s->f[i].name;
	at = names_lookup_in(typed, all, (size_t)s->n, "is not in this combat",
	    "in it", why, sizeof why);
	free(all);
	if (at < 0)
		db_die(db, "%s", why);
	return keep_name(xstrdup(s->f[at].name));
}

/* Resolves argv[0..argc) in place as fighters of s. */
static void
fighters(struct db *db, const struct combat_state *s, int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		argv[i] = (char *)fighter(db, s, argv[i]);
}

/*
 * A list of names ("A;B", --let) with each resolved as a fighter of s;
 * the caller frees it.
 */
static char *
fighter_list(struct db *db, const struct combat_state *s, const char *list)
{
	char *copy = xstrdup(list), *save = NULL, *out = NULL;

	for (char *t = strtok_r(copy, ";", &save); t; t = strtok_r(NULL, ";",
	    &save)) {
		char *next = xasprintf("%s%s%s", out ? out : "", out ? ";" : "",
		    fighter(db, s, t));

		free(out);
		out = next;
	}
	free(copy);
	return out ? out : xstrdup("");
}

/* The numbers a character brings into a combat, from the roster. */
static void
sheet_stats(struct db *db, const char *name, struct combat_stats *cs)
{
	struct sheet sh;
	struct sheet_stat st[S_COUNT];
	struct item *items;
	size_t n;
	int64_t id;

	sheet_init(&sh);
	if (roster_get(db, name, &sh, &id) != ROSTER_OK)
		db_die(db, "no character named '%s'", q(name));
	items = roster_held_items(db, id, &n);
	sheet_secondary(&sh, STATS_ROUND_WHOLE, items, n, st);
	cs->or_ = st[S_OR].effective;
	cs->dr = st[S_DR].effective;
	cs->mind = st[S_MIND].effective;
	cs->life = st[S_LIFE].effective;
	cs->in = st[S_IN].effective;
	cs->em = st[S_EM].effective;
	cs->lb = st[S_LB].effective > DECK_LB_MAX ? DECK_LB_MAX :
	    st[S_LB].effective;
	cs->mod_offense = sheet_always_on(items, n, ITEM_OFFENSE);
	cs->mod_defense = sheet_always_on(items, n, ITEM_DEFENSE);
	cs->mod_pick = sheet_always_on(items, n, ITEM_PICK);
	roster_items_free(items, n);
	sheet_release(&sh);
	if (cs->life < 0)
		db_die(db, "'%s' has no LIFE on the sheet, and cannot fight",
		    q(name));
}

/*
 * A fled character may not fight until his lockout ends: refuses name if
 * a successful flee of his, not undone, still runs at now.
 */
static void
check_lockout(struct db *db, const char *name, int64_t now)
{
	int64_t combat, until = ledger_fled_until(db, name, now, &combat);
	char when[WHEN_LOCAL_SIZE];

	if (until != 0) {
		when_local(when, sizeof when, until);
		db_die(db, "'%s' fled combat %s and may not fight until %s",
		    q(name), cli_key(combat), when);
	}
}

/*
 * Nobody in a combat can be surprised: refuses name if he joined another
 * combat that has not ended, and has not fled it.
 */
static void
check_not_fighting(struct db *db, const char *name, int64_t combat)
{
	int64_t other = ledger_fighting_elsewhere(db, name, combat);

	if (other != 0)
		db_die(db, "'%s' is in combat %s: no Surprise action against "
		    "someone in a combat", q(name), cli_key(other));
}

/* A supplemental item of the database, as the event keeps it. */
static void
gear_from_db(struct db *db, const char *name, struct combat_gear *g)
{
	struct item it;

	name = roster_full(db, ROSTER_ITEM, name);
	item_init(&it, name);
	if (roster_item_get(db, name, &it, NULL) != ROSTER_OK)
		db_die(db, "no item named '%s'", q(name));
	if (item_always_on(&it))
		db_die(db, "'%s' is %s: always in effect, never declared",
		    q(name), item_use_name(it.use));
	g->name = xstrdup(name);
	memcpy(g->mod, it.mod, sizeof g->mod);
	g->range = it.range;
	g->full_or = it.full_or;
	item_release(&it);
}

/*
 * The questions of power_from_db, asked ahead with the combat's (the
 * same round trip on a server) by the caster and the power as typed.
 */
struct power_asked {
	const char	*caster;	/* as typed */
	struct db_stmt	*def, *holds;
};

static void
power_ask(struct db *db, const char *caster, const char *typed,
    struct power_asked *a)
{
	a->caster = caster;
	a->def = roster_power_ask(db, typed);
	a->holds = roster_holds_ask(db, caster, 1, typed);
}

/*
 * A power of the database, as the event keeps it: the power named as
 * typed and whether caster (the fighter's full name) knows it, asked
 * ahead in a, and again where the caster was typed otherwise; a name
 * that is no power's is looked up as a name typed short (or refused),
 * and its power asked again.
 */
static void
power_from_db(struct db *db, const char *caster, const char *name,
    struct power_asked *a, struct combat_power *p)
{
	struct power pw;
	struct db_stmt *def, *holds;
	const char *typed = name;

	if (a->def == NULL)
		power_ask(db, caster, typed, a);
	def = a->def;
	holds = a->holds;
	a->def = a->holds = NULL;
	item_power_init(&pw, name);
	if (roster_power_take(db, def, &pw, NULL) == ROSTER_OK) {
		name = keep_name(xstrdup(pw.name));
		if (strcmp(caster, a->caster) != 0) {
			db_finalize(holds);
			holds = roster_holds_ask(db, caster, 1, name);
		}
	} else {
		db_finalize(holds);
		name = roster_full(db, ROSTER_POWER, typed);
		def = roster_power_ask(db, name);
		holds = roster_holds_ask(db, caster, 1, name);
		if (roster_power_take(db, def, &pw, NULL) != ROSTER_OK) {
			db_finalize(holds);
			item_power_release(&pw);
			db_die(db, "no power named '%s'", q(name));
		}
	}
	if (!roster_holds_take(db, holds))
		db_die(db, "'%s' does not know the power '%s'", q(caster),
		    q(name));
	p->name = xstrdup(name);
	p->em = pw.em;
	p->picks = pw.picks;
	p->bonus = pw.bonus;
	p->target = pw.target;
	p->defend = pw.defend;
	item_power_release(&pw);
}

/* Items are held by whoever uses them: checked once the target is known. */
static void
check_holdings(struct db *db, const struct combat_event *e)
{
	if (e->item.name && !roster_holds(db, e->actor, 0, e->item.name))
		db_die(db, "'%s' does not hold '%s'", q(e->actor),
		    q(e->item.name));
	if (e->vs_item.name && !roster_holds(db, e->target, 0,
	    e->vs_item.name))
		db_die(db, "'%s' does not hold '%s'", q(e->target),
		    q(e->vs_item.name));
}

/*
 * Runs e against s and appends it; refuses with nothing written.  Under
 * a seal, e draws from the seed the seal gives its place (refkit(7),
 * "Trust"), which an explicit --seed would bypass.
 */
static void
commit_event(struct db *db, int64_t id, struct combat_state *s,
    struct combat_event *e, const struct opts *o)
{
	char why[300];

	if (ledger_seal(db, id, e) && o->have_seed)
		db_die(db, "--seed is refused while this station is sealed: "
		    "its draws come from the seal (refkit reveal ends it)");
	if (combat_execute(s, e, why, sizeof why) != 0)
		db_die(db, "%s", why);
	ledger_record(db, id, e, s);
}

/* Prints the outcome of a new event: the same sentence as the log. */
static void
print_outcome(FILE *fp, struct opts *o, const struct combat_state *before,
    const struct combat_event *e, int64_t id)
{
	if (o->fmt == OUT_JSON) {
		fprintf(fp, "{\"combat\":%s,\"seq\":%" PRId64
		    ",\"round\":%d,\"action\":\"%s\"", cli_key_json(id), e->seq, e->round,
		    combat_action_name(e->action));
		if (e->target) {
			fprintf(fp, ",\"target\":");
			out_json_string(fp, e->target);
		}
		if (e->action == COMBAT_FLEE)
			fprintf(fp, ",\"fled\":%s", e->hit ? "true" : "false");
		if (e->action == COMBAT_FLEE && e->hit)
			fprintf(fp, ",\"until\":%" PRId64, e->until);
		if (e->action == COMBAT_POWER)
			fprintf(fp, ",\"em_after\":%d", e->em_after);
		if (e->negated)
			fprintf(fp, ",\"negated\":true");
		if (e->action == COMBAT_ADJUST) {
			fprintf(fp, ",\"actor\":");
			out_json_string(fp, e->actor);
			fprintf(fp, ",\"life_before\":%d,\"life_after\":%d",
			    e->life_before, e->life_after);
			if (e->em_after >= 0)
				fprintf(fp, ",\"em_before\":%d,\"em_after\":"
				    "%d", e->em_before, e->em_after);
		}
		if (e->ruling) {
			fprintf(fp, ",\"ruling\":");
			out_json_string(fp, e->ruling);
		}
		if (e->action == COMBAT_ATTACK || e->action == COMBAT_MENTAL ||
		    e->action == COMBAT_POWER) {
			fprintf(fp, ",\"offense\":%d,\"defense\":", e->offense);
			if (e->defense < 0)
				fprintf(fp, "null");
			else
				fprintf(fp, "%d", e->defense);
			fprintf(fp, ",\"hit\":%s,\"damage\":%d,"
			    "\"life_after\":%d", e->hit ? "true" : "false",
			    e->damage, e->life_after);
		}
		fprintf(fp, "}\n");
		return;
	}
	crstext_story(fp, before, e);
}

static int
cmd_start(struct opts *o, int argc, char **argv)
{
	struct db *db;
	struct combat_state s;
	struct combat_event e;
	int64_t id;

	if (argc < 1)
		cli_usage_error("start needs at least one NAME");
	if (o->combat)
		cli_usage_error("start begins a new combat: --combat names one "
		    "to act in");
	(void)cli_gm(o->gm);	/* a bad name is a usage error, first */
	db = cli_db_open(o->db);
	db_begin(db);
	/* One fighter, one combat: a GM who means it joins him there. */
	for (int i = 0; i < argc; i++) {
		const char *name = roster_full(db, ROSTER_CHARACTER, argv[i]);
		int64_t other = ledger_fighting_elsewhere(db, name, 0);

		if (other != 0) {
			char *gm = journal_gm(db, &ledger_kind, other);
			char who[256];

			/* Copied: db_die exits, and nothing may be lost. */
			snprintf(who, sizeof who, "%s", gm ? q(gm) : "unknown");
			free(gm);
			/*
			 * Another station's combat is as its last merge
			 * left it, and only that station can end it: the
			 * fighter has likely walked over since.
			 */
			if (!db_key_own(db, other))
				warnx("warning: '%s' is in combat %s (GM %s) "
				    "of another station, not ended when it "
				    "was last merged here; this combat starts "
				    "all the same (a merge warns if both are "
				    "still under way)", q(name), cli_key(other),
				    who);
			else
				db_die(db, "'%s' is in combat %s (GM %s), "
				    "which has not ended: fight on there "
				    "(--combat %s join NAME) or end it first",
				    q(name), cli_key(other), who,
				    cli_key(other));
		}
		argv[i] = (char *)name;
	}
	id = ledger_new_combat(db, combat_rules_name(o->rules), db_now());
	combat_state_init(&s);
	new_event(o, &e, COMBAT_START);
	e.rules = o->rules;
	if (o->lockout >= 0)
		e.lockout = o->lockout;
	commit_event(db, id, &s, &e, o);
	combat_event_release(&e);
	for (int i = 0; i < argc; i++) {
		check_lockout(db, argv[i], db_now());
		new_event(o, &e, COMBAT_JOIN);
		e.actor = xstrdup(argv[i]);
		sheet_stats(db, argv[i], &e.stats);
		commit_event(db, id, &s, &e, o);
		combat_event_release(&e);
	}
	db_commit(db);
	if (o->fmt == OUT_JSON)
		printf("{\"combat\":%s}\n", cli_key_json(id));
	else {
		printf("combat %s (%s rules) starts:", cli_key(id),
		    combat_rules_name(o->rules));
		for (int i = 0; i < s.n; i++)
			printf("%s %s (LIFE %d)", i ? "," : "", s.f[i].name,
			    s.f[i].life);
		printf("\n");
	}
	combat_state_release(&s);
	db_close(db);
	return 0;
}

/* A new entry for name at the end of e's list (initiative, Catch, Charge). */
static struct combat_init *
new_entry(struct combat_event *e, const char *name)
{
	struct combat_init *x;

	e->init = xreallocarray(e->init, (size_t)e->ninit + 1,
	    sizeof *e->init);
	x = &e->init[e->ninit++];
	memset(x, 0, sizeof *x);
	x->name = xstrdup(name);
	return x;
}

/* init NAME=CARDS[/TIE...]: typed initiative cards, NAME a fighter of s. */
static void
init_args(struct db *db, const struct combat_state *s,
    struct combat_event *e, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		const char *key, *value;
		char *buf, *slash;
		struct combat_init *x;

		if (util_split_kv(argv[i], &buf, &key, &value) != 0)
			cli_usage_error("'%s' is not NAME=CARDS", q(argv[i]));
		x = new_entry(e, fighter(db, s, key));
		if ((slash = strchr(value, '/')) != NULL) {
			size_t nt = 1;

			x->ties = xstrdup(slash + 1);
			for (char *p = x->ties; *p; p++)
				if (*p == '/') {
					*p = ';';
					nt++;
				}
			x->ties_virt = xcalloc(nt + 1, 1);
			memset(x->ties_virt, '0', nt);
			*slash = '\0';
		}
		x->cards = xstrdup(value);
		x->virt = 0;
		free(buf);
	}
}

/* The usage checks of a strike, before the database; returns its targets. */
static int
strike_usage(const struct opts *o, int argc, const char *vs)
{
	int action = o->action, nvs = 0;
	int ntargets = argc - (action == COMBAT_POWER ? 2 : 1);

	if (o->range == COMBAT_LONG && action == COMBAT_MENTAL)
		cli_usage_error("a mental action has no range: no --long");
	if (ntargets > 1 && action == COMBAT_MENTAL &&
	    !combat_several_targets(action, o->kind, POWER_ONE))
		cli_usage_error("only an Intimidation may have several "
		    "targets");
	if (ntargets > 1 && o->vs_special)
		cli_usage_error("--vs-special goes with one target");
	for (const char *p = vs; p && *p; p++)
		nvs += *p == '/';
	if (vs && nvs + 1 != ntargets)
		cli_usage_error("--vs-card needs one list per target, joined "
		    "with '/', got %d for %d targets", nvs + 1, ntargets);
	return ntargets;
}

/* What every target of a strike shares: the power, the defender's item. */
struct strike_shared {
	struct combat_power	 pw;
	struct combat_gear	 vs_item;
	struct power_asked	 asked;		/* a power's, asked ahead */
};

/*
 * The event of a strike by actor at its i-th target, from the options;
 * cards are the target's typed defence cards, or NULL.
 */
static void
strike_event(struct opts *o, struct db *db, struct combat_event *e,
    const char *actor, const char *target, int i, const char *cards,
    const struct strike_shared *sh)
{
	char why[300];

	new_event(o, e, o->action);
	e->actor = xstrdup(actor);
	e->target = xstrdup(target);
	e->range = o->range;
	e->kind = o->action == COMBAT_MENTAL ? o->kind : COMBAT_KIND_ATTACK;
	e->use = o->use;
	e->mod = o->mod;
	e->vs_mod = o->vs_mod;
	e->shares = i > 0;
	e->virt = i == 0 && o->card == NULL;
	e->cards = i == 0 && o->card ? xstrdup(o->card) : NULL;
	e->vs_virt = cards == NULL;
	e->vs_cards = cards ? xstrdup(cards) : NULL;
	if (o->vs_special) {
		int f;

		if (deck_parse_list(o->vs_special, &f, 1, why, sizeof why) != 1)
			cli_usage_error("--vs-special: %s", why);
		e->special = f;
	}
	if (o->item && i == 0)
		gear_from_db(db, o->item, &e->item);
	if (o->vs_item) {
		e->vs_item = sh->vs_item;
		e->vs_item.name = xstrdup(sh->vs_item.name);
	}
	e->skills = o->skills && i == 0 ? xstrdup(o->skills) : NULL;
	e->vs_skills = o->vs_skills ? xstrdup(o->vs_skills) : NULL;
	e->free = o->free;
	e->surprise = o->surprise && i == 0;
	e->melee_pick = o->melee_hit ? xstrdup(o->melee_hit) : NULL;
	if (o->react && i == 0) {
		e->reactor = xstrdup(o->react);
		e->react_base = o->react_base;
		e->react_need = o->react_need;
		e->react_virt = o->react_card == NULL;
		e->react_cards = o->react_card ? xstrdup(o->react_card) : NULL;
	}
	if (o->action == COMBAT_POWER) {
		e->power = sh->pw;
		e->power.name = xstrdup(sh->pw.name);
		e->em_spent = i == 0 ? o->em : 0;
	}
	/* Each target's draws get their own seed. */
	if (i > 0 && o->have_seed)
		e->seed = o->seed + (uint64_t)i;
}

/* What a strike says of one target's event (one of ntargets). */
static void
strike_report(FILE *fp, struct opts *o, const struct combat_state *before,
    const struct combat_event *e, int64_t combat, int ntargets)
{
	if (ntargets == 1)
		print_outcome(fp, o, before, e, combat);
	else if (o->fmt == OUT_JSON) {
		fprintf(fp, "{\"combat\":%s,\"seq\":%" PRId64
		    ",\"target\":", cli_key_json(combat), e->seq);
		out_json_string(fp, e->target);
		fprintf(fp, ",\"offense\":%d,\"defense\":", e->offense);
		if (e->defense < 0)
			fprintf(fp, "null");
		else
			fprintf(fp, "%d", e->defense);
		fprintf(fp, ",\"hit\":%s}\n", e->hit ? "true" : "false");
	} else
		crstext_story(fp, before, e);
}

/*
 * The checks of a strike against the database: the power and its
 * targets, and (RULINGS section 1) whom a Surprise action may take.
 */
static void
strike_db_checks(struct opts *o, struct db *db, char **argv,
    const char *const *targets, int ntargets, int64_t combat,
    struct strike_shared *sh)
{
	if (o->action == COMBAT_POWER) {
		power_from_db(db, argv[0], argv[1], &sh->asked, &sh->pw);
		if (ntargets > 1 && !combat_several_targets(o->action,
		    COMBAT_KIND_ATTACK, sh->pw.target))
			db_die(db, "'%s' has one target, not %d", q(argv[1]),
			    ntargets);
	}
	if (o->surprise)
		for (int i = 0; i < ntargets; i++) {
			check_lockout(db, targets[i], db_now());
			check_not_fighting(db, targets[i], combat);
		}
	if (o->surprise)
		check_lockout(db, argv[0], db_now());
	if (o->vs_item)
		gear_from_db(db, o->vs_item, &sh->vs_item);
}

/*
 * attack, mental and power: one event per target.  Several targets share
 * one offence (an Intimidation, or a group power), each with its own
 * defence draw; --vs-card gives their cards in order, joined with '/'.
 * Everything is written, or nothing; nothing is said until then.
 */
static int
cmd_strike(struct opts *o, int argc, char **argv)
{
	struct db *db;
	struct ledger l;
	struct combat_state s, before;
	struct combat_event e;
	struct strike_shared sh;
	char *vs = o->vs_card ? xstrdup(o->vs_card) : NULL, *save = NULL;
	char *cards, *text;
	const char *const *targets = (const char *const *)argv +
	    (o->action == COMBAT_POWER ? 2 : 1);
	struct strbuf b = STRBUF_INIT;
	FILE *report;
	int ntargets = strike_usage(o, argc, vs), stop;

	memset(&sh, 0, sizeof sh);
	db = cli_db_open(o->db);
	/* A Surprise checks the other combats: all writers wait for it. */
	if (o->surprise)
		db_begin(db);
	else
		db_begin_append(db);
	/* On a server, the power is asked with the combat: one round trip. */
	if (o->action == COMBAT_POWER && db_on_server(db))
		power_ask(db, argv[0], argv[1], &sh.asked);
	load(db, o, &l, &s);
	/* argv: the attacker, the power if any, then the targets. */
	argv[0] = (char *)fighter(db, &s, argv[0]);
	/* A Surprise's targets are not in the combat: the roster's. */
	for (int i = 0; i < ntargets; i++)
		((char **)targets)[i] = o->surprise ? (char *)roster_full(db,
		    ROSTER_CHARACTER, targets[i]) : (char *)fighter(db, &s,
		    targets[i]);
	strike_db_checks(o, db, argv, targets, ntargets, l.combat, &sh);
	before = s;
	report = strbuf_stream(&b);
	for (int i = 0; i < ntargets; i++) {
		cards = vs ? strtok_r(i == 0 ? vs : NULL, "/", &save) : NULL;
		strike_event(o, db, &e, argv[0], targets[i], i, cards, &sh);
		commit_event(db, l.combat, &s, &e, o);
		check_holdings(db, &e);
		strike_report(report, o, &before, &e, l.combat, ntargets);
		stop = combat_stops_targets(&e);
		combat_event_release(&e);
		if (stop)
			break;
	}
	db_commit(db);
	text = strbuf_detach(&b, NULL);
	fputs(text, stdout);
	free(text);
	free(vs);
	free(sh.pw.name);
	free(sh.vs_item.name);
	combat_state_release(&s);
	ledger_release(&l);
	db_close(db);
	return 0;
}

/*
 * NAME=VALUE entries of a list ("A=9;B=10,4"): typed Catch cards, or a
 * Charge's new distances in feet (feet set).
 */
static void
entries(struct db *db, const struct combat_state *s, struct combat_event *e,
    const char *list, int feet)
{
	char *copy = xstrdup(list), *save = NULL;

	for (char *t = strtok_r(copy, ";", &save); t; t = strtok_r(NULL, ";",
	    &save)) {
		const char *key, *value;
		char *buf;
		struct combat_init *x;

		if (util_split_kv(t, &buf, &key, &value) != 0)
			cli_usage_error("'%s' is not NAME=%s", q(t), feet ?
			    "FEET" : "CARDS");
		x = new_entry(e, fighter(db, s, key));
		if (feet)
			x->in = (int)cli_int_arg("FEET", value, 0,
			    COMBAT_FEET_MAX);
		else
			x->cards = xstrdup(value);
		free(buf);
	}
	free(copy);
}

/* range A B FEET, as many as given: all of them, or none. */
static int
cmd_range(struct opts *o, int argc, char **argv)
{
	struct db *db;
	struct ledger l;
	struct combat_state s;
	struct combat_event e;

	db = cli_db_open(o->db);
	db_begin_append(db);
	load(db, o, &l, &s);
	for (int i = 0; i < argc; i += 3)
		fighters(db, &s, 2, argv + i);
	for (int i = 0; i < argc; i += 3) {
		new_event(o, &e, COMBAT_RANGE);
		e.actor = xstrdup(argv[i]);
		e.target = xstrdup(argv[i + 1]);
		e.feet = (int)cli_int_arg("FEET", argv[i + 2], 0,
		    COMBAT_FEET_MAX);
		commit_event(db, l.combat, &s, &e, o);
		combat_event_release(&e);
	}
	db_commit(db);
	for (int i = 0; i < argc; i += 3)
		if (o->fmt != OUT_JSON)
			printf("%s and %s are %s ft apart\n",
			    argv[i], argv[i + 1], argv[i + 2]);
	if (o->fmt == OUT_JSON)
		printf("{\"combat\":%s,\"distances\":%d}\n",
		    cli_key_json(l.combat), argc / 3);
	combat_state_release(&s);
	ledger_release(&l);
	db_close(db);
	return 0;
}

/* The commands that append one event to the current combat. */
static int
cmd_event(struct opts *o, int argc, char **argv)
{
	int action = o->action;
	struct db *db;
	struct ledger l;
	struct combat_state s, before;
	struct combat_event e;

	db = cli_db_open(o->db);
	/* A join checks the other combats (a flee's lockout). */
	if (action == COMBAT_JOIN)
		db_begin(db);
	else
		db_begin_append(db);
	load(db, o, &l, &s);
	new_event(o, &e, action);
	if (action == COMBAT_JOIN)
		argv[0] = (char *)roster_full(db, ROSTER_CHARACTER, argv[0]);
	else if (action != COMBAT_INITIATIVE && action != COMBAT_END)
		fighters(db, &s, action == COMBAT_BLOW ? 2 : argc > 0, argv);
	switch (action) {
	case COMBAT_JOIN:
		check_lockout(db, argv[0], e.time);
		e.actor = xstrdup(argv[0]);
		sheet_stats(db, argv[0], &e.stats);
		break;
	case COMBAT_BLOW:
		e.actor = xstrdup(argv[0]);
		e.target = xstrdup(argv[1]);
		break;
	case COMBAT_SWAP:
		e.actor = xstrdup(argv[0]);
		gear_from_db(db, argv[1], &e.item);
		check_holdings(db, &e);
		e.free = o->free;
		break;
	case COMBAT_FLEE:
		e.actor = xstrdup(argv[0]);
		e.mod = o->mod;
		e.virt = o->card == NULL;
		e.cards = o->card ? xstrdup(o->card) : NULL;
		e.skills = o->skills ? xstrdup(o->skills) : NULL;
		e.let = o->let ? fighter_list(db, &s, o->let) : NULL;
		if (o->catches)
			entries(db, &s, &e, o->catches, 0);
		break;
	case COMBAT_CHARGE:
		e.actor = xstrdup(argv[0]);
		e.let = o->let ? fighter_list(db, &s, o->let) : NULL;
		for (int i = 1; i < argc; i++)
			entries(db, &s, &e, argv[i], 1);
		break;
	case COMBAT_STANCE:
	case COMBAT_PASS:
	case COMBAT_DEAD:
		e.actor = xstrdup(argv[0]);
		break;
	case COMBAT_INITIATIVE:
		init_args(db, &s, &e, argc, argv);
		break;
	case COMBAT_END:
		e.agreed = o->agreed;
		break;
	}
	/*
	 * The state before, for the sentence that reports the event: a
	 * shallow copy, whose names belong to s.
	 */
	before = s;
	commit_event(db, l.combat, &s, &e, o);
	db_commit(db);
	print_outcome(stdout, o, &before, &e, l.combat);
	combat_event_release(&e);
	combat_state_release(&s);
	ledger_release(&l);
	db_close(db);
	return 0;
}

/*
 * adjust NAME COUNTER=+N... --reason TEXT: a GM's ruling on a fighter's
 * LIFE and EM, an event of its own (combat.c checks the values).
 */
static int
cmd_adjust(struct opts *o, int argc, char **argv)
{
	struct db *db;
	struct ledger l;
	struct combat_state s, before;
	struct combat_event e;
	char *changes;

	ruling_reason_arg(o->reason, "adjust");
	changes = ruling_changes_args(argc - 1, argv + 1,
	    combat_adjust_names);
	db = cli_db_open(o->db);
	db_begin_append(db);
	load(db, o, &l, &s);
	new_event(o, &e, COMBAT_ADJUST);
	e.actor = xstrdup(fighter(db, &s, argv[0]));
	e.adjust = changes;
	before = s;
	commit_event(db, l.combat, &s, &e, o);
	db_commit(db);
	print_outcome(stdout, o, &before, &e, l.combat);
	combat_event_release(&e);
	combat_state_release(&s);
	ledger_release(&l);
	db_close(db);
	return 0;
}

/* The state just before event k, kept from a replay. */
struct before_k {
	size_t			 k;
	struct combat_state	 s;	/* its names belong to the replay's */
};

static void
keep_before(void *arg, const struct combat_state *s, size_t i)
{
	struct before_k *b = arg;

	if (i == b->k)
		b->s = *s;
}

/*
 * Loads combat id for undoing event target (0: the newest it can), from
 * a snapshot before that event, whose state the undo needs: on a server
 * the event is picked in the round trip that reads the combat
 * (journal_target_ahead); on SQLite, the newest snapshot, whose load has
 * every event after it, unless no event after it can be undone.
 */
static void
load_undo(struct db *db, struct opts *o, int64_t id, int64_t target,
    struct ledger *l)
{
	struct combat_state s;
	char why[300];
	int64_t from = target;

	if (target == 0)
		from = journal_target_ahead(db, &ledger_kind, id);
	load_each(db, o, id, from != 0 ? from : FROM_SNAPSHOT, l, &s, NULL,
	    NULL);
	id = l->combat;
	if (target == 0 && ledger_undoable(l, 0, why, sizeof why) < 0) {
		combat_state_release(&s);
		ledger_release(l);
		load_each(db, o, id, ledger_undo_target(db, id), l, &s, NULL,
		    NULL);
	}
	combat_state_release(&s);
}

static int
cmd_undo(struct opts *o, int argc, char **argv)
{
	struct db *db;
	struct ledger l;
	struct combat_state s;
	struct before_k pre;
	struct combat_event e;
	int64_t target = 0, bad;
	size_t k;
	long u;
	char why[300];

	if (argc > 1)
		cli_usage_error("undo takes at most one EVENT");
	if (argc == 1)
		target = cli_int_arg("EVENT", argv[0], 1, INT32_MAX);
	db = cli_db_open(o->db);
	db_begin_append(db);
	load_undo(db, o, combat_ahead(db, o), target, &l);
	if ((u = ledger_undoable(&l, target, why, sizeof why)) < 0)
		db_die(db, "%s", why);
	k = (size_t)u;
	/*
	 * Nothing that came after may depend on it.  The same replay keeps
	 * the state just before it, for the sentence that says what was
	 * undone.
	 */
	l.undone[k] = 1;
	pre.k = k;
	if (ledger_derive_each(&l, &s, keep_before, &pre, &bad, why,
	    sizeof why) != 0)
		db_die(db, "cannot undo event %" PRId64 ": event %" PRId64
		    " depends on it (%s); undo that first", l.ev[k].seq, bad,
		    why);
	if (o->dry_run) {
		/* What undo would reverse, nothing written. */
		db_rollback(db);
		if (o->fmt == OUT_JSON)
			printf("{\"combat\":%s,\"undoes\":%" PRId64 "}\n",
			    cli_key_json(l.combat), l.ev[k].seq);
		else {
			printf("undo would reverse: ");
			crstext_story(stdout, &pre.s, &l.ev[k]);
		}
		combat_state_release(&s);
		ledger_release(&l);
		db_close(db);
		return 0;
	}
	new_event(o, &e, COMBAT_UNDO);
	e.undoes = l.ev[k].seq;
	e.round = s.round;
	ledger_record(db, l.combat, &e, &s);
	db_commit(db);
	if (o->fmt == OUT_JSON)
		printf("{\"combat\":%s,\"seq\":%" PRId64 ",\"undoes\":"
		    "%" PRId64 "}\n", cli_key_json(l.combat), e.seq, e.undoes);
	else {
		/* Say what was reversed: the event, as the log tells it. */
		printf("undid: ");
		crstext_story(stdout, &pre.s, &l.ev[k]);
	}
	combat_event_release(&e);
	combat_state_release(&s);
	ledger_release(&l);
	db_close(db);
	return 0;
}

/* The width of the name column: 16, or the widest name as shown. */
static int
name_width(const struct combat_state *s)
{
	size_t w = 16;

	for (int i = 0; i < s->n; i++)
		if (util_safe_width(s->f[i].name) > w)
			w = util_safe_width(s->f[i].name);
	return (int)w;
}

/*
 * The status table as it fits the screen: the name column's width and
 * the columns shown (crstext_status_cols).
 */
struct status_table {
	int		 name_w, width;
	unsigned	 cols;
};

/* The table's columns after NAME: the space before, width, alignment. */
static const struct {
	const char	*sep;
	int		 width, left;
} status_fmt[CRSTEXT_COLS] = {
	{ " ", 9, 1 }, { " ", 9, 1 }, { " ", 4, 0 }, { "  ", 6, 1 },
	{ " ", 5, 1 }, { " ", 4, 1 }, { " ", 14, 1 }, { " ", 0, 1 },
};

static const char *const status_heads[CRSTEXT_COLS] = {
	"LIFE", "EM", "DR", "STANCE", "DOWN", "INIT", "SET ASIDE", "RESTORES"
};

/* A line of the table: name (NULL: the heading) and the shown cells. */
static void
status_line(const struct status_table *t, const char *name,
    const char *const cell[CRSTEXT_COLS])
{
	struct strbuf b = STRBUF_INIT;
	FILE *fp = strbuf_stream(&b);
	char *line;
	size_t len;

	if (name == NULL)
		fprintf(fp, "%-*s", t->name_w, "NAME");
	else {
		util_fputs_safe(name, fp);
		fprintf(fp, "%*s", (int)((size_t)t->name_w -
		    util_safe_width(name)), "");
	}
	for (int k = 0; k < CRSTEXT_COLS; k++)
		if (t->cols & (1u << k))
			fprintf(fp, status_fmt[k].left ? "%s%-*s" : "%s%*s",
			    status_fmt[k].sep, status_fmt[k].width, cell[k]);
	line = strbuf_detach(&b, &len);
	/* A column dropped at the end leaves its neighbour's padding. */
	while (len > 0 && line[len - 1] == ' ')
		line[--len] = '\0';
	printf("%s\n", line);
	free(line);
}

/* The RESTORES cell of combatant f. */
static const char *
restores_cell(const struct combat_state *s, const struct combat_figures *x)
{
	return !x->to_restore ? "-" : s->ended ? x->local :
	    "10 min after the end";
}

/* The table fitted to width (cli_columns; 0: no limit). */
static struct status_table
status_table(const struct combat_state *s, int width)
{
	struct status_table t = { name_width(s), width, 0 };
	int w[CRSTEXT_COLS];
	int64_t restores = combat_restores_at(s);
	struct combat_figures x;

	for (int k = 0; k < CRSTEXT_COLS; k++)
		w[k] = (int)strlen(status_fmt[k].sep) + status_fmt[k].width;
	w[CRSTEXT_RESTORES] = 1 + (int)strlen(status_heads[CRSTEXT_RESTORES]);
	for (int i = 0; i < s->n; i++) {
		int n;

		crstext_figures(s, i, db_now(), restores, &x);
		n = 1 + (int)strlen(restores_cell(s, &x));
		if (n > w[CRSTEXT_RESTORES])
			w[CRSTEXT_RESTORES] = n;
	}
	t.cols = crstext_status_cols(width, t.name_w, w);
	return t;
}

/*
 * status's first line; on a narrow screen who acts next goes on a line
 * of its own rather than wrap.
 */
static void
status_title(const struct ledger *l, const struct combat_state *s,
    int width)
{
	struct strbuf b = STRBUF_INIT;
	FILE *fp = strbuf_stream(&b);
	int next = combat_next(s);
	char *head, *tail;

	fprintf(fp, "combat %s (GM ", cli_key(l->combat));
	util_fputs_safe(l->gm ? l->gm : "unknown", fp);
	fprintf(fp, "), round %d%s", s->round, s->ended ? ", ended" : "");
	if (next >= 0) {
		fprintf(fp, "; next to act: ");
		util_fputs_safe(s->f[next].name, fp);
	} else if (!s->ended && !s->init_done)
		fprintf(fp, "; initiative not drawn yet");
	head = strbuf_detach(&b, NULL);
	if (width > 0 && fit_width(head) > width &&
	    (tail = strstr(head, "; ")) != NULL) {
		*tail = '\0';
		printf("%s\n%s\n", head, tail + 2);
	} else
		printf("%s\n", head);
	free(head);
}

/* The first line of status, or the opening of its JSON. */
static void
status_head(const struct opts *o, const struct ledger *l,
    const struct combat_state *s, const struct status_table *t)
{
	int next = combat_next(s);

	if (o->fmt == OUT_JSON) {
		printf("{\"combat\":%s,\"gm\":", cli_key_json(l->combat));
		cli_json_or_null(stdout, l->gm);
		printf(",\"round\":%d,\"rules\":\"%s\",\"ended\":%s,"
		    "\"next\":", s->round, l->rules, s->ended ? "true" : "false");
		if (next >= 0)
			out_json_string(stdout, s->f[next].name);
		else
			printf("null");
		printf(",\"combatants\":[");
		return;
	}
	status_title(l, s, t->width);
	status_line(t, NULL, status_heads);
}

/* Prints n if have is set, else null. */
static void
json_int_if(int have, int64_t n)
{
	if (have)
		printf("%" PRId64, n);
	else
		printf("null");
}

/* The JSON of combatant i, after the combatants before it. */
static void
status_json(const struct combat_state *s, int i,
    const struct combat_figures *x)
{
	const struct combat_fighter *f = &s->f[i];

	printf("%s{\"name\":", i ? "," : "");
	out_json_string(stdout, f->name);
	printf(",\"LIFE\":%d,\"LIFE_max\":%d,\"EM\":", x->life, f->st.life);
	if (f->st.em < 0)
		printf("null,\"EM_max\":null");
	else
		printf("%d,\"EM_max\":%d", x->em, f->st.em);
	printf(",\"DR\":");
	json_int_if(combat_dr_now(f) >= 0, combat_dr_now(f));
	printf(",\"stance\":%s,\"down\":%s,\"dead\":%s,\"joined\":%s,"
	    "\"initiative\":", f->stance ? "true" : "false", x->life == 0 ?
	    "true" : "false", f->dead ? "true" : "false", f->presence ==
	    COMBAT_ACTIVE ? "true" : "false");
	json_int_if(f->init_pos != 0, f->init_total);
	printf(",\"set_aside\":[");
	for (const char *t = x->aside; *t;) {
		size_t len = strcspn(t, ",");

		printf("%s\"%.*s\"", t == x->aside ? "" : ",", (int)len, t);
		t += len + (t[len] == ',');
	}
	printf("],\"fled\":%s,\"until\":", f->fled ? "true" : "false");
	json_int_if(f->fled, f->until);
	printf(",\"protecting\":");
	if (f->protecting >= 0)
		out_json_string(stdout, s->f[f->protecting].name);
	else
		printf("null");
	printf(",\"melee\":[");
	for (int j = 0, k = 0; j < s->n; j++)
		if (combat_melee(s, i) & (UINT64_C(1) << j)) {
			printf("%s", k++ ? "," : "");
			out_json_string(stdout, s->f[j].name);
		}
	printf("],\"restores_at\":");
	if (x->to_restore && s->ended)
		printf("\"%s\"", x->when);
	else
		printf("null");
	printf("}");
}

/* The table row of combatant f. */
static void
status_row(const struct status_table *t, const struct combat_state *s,
    const struct combat_fighter *f, const struct combat_figures *x)
{
	char lifes[24], ems[24], drs[12], init[12];
	const char *cell[CRSTEXT_COLS];

	snprintf(lifes, sizeof lifes, "%d/%d", x->life, f->st.life);
	if (f->st.em < 0)
		snprintf(ems, sizeof ems, "-");
	else
		snprintf(ems, sizeof ems, "%d/%d", x->em, f->st.em);
	if (combat_dr_now(f) < 0)
		snprintf(drs, sizeof drs, "-");
	else
		snprintf(drs, sizeof drs, "%d", combat_dr_now(f));
	if (f->init_pos)
		snprintf(init, sizeof init, "%d", f->init_total);
	else
		snprintf(init, sizeof init, "-");
	cell[CRSTEXT_LIFE] = lifes;
	cell[CRSTEXT_EM] = ems;
	cell[CRSTEXT_DR] = drs;
	cell[CRSTEXT_STANCE] = f->stance ? "yes" : "no";
	cell[CRSTEXT_DOWN] = f->dead ? "dead" : x->life == 0 ? "yes" : "no";
	cell[CRSTEXT_INIT] = init;
	cell[CRSTEXT_ASIDE] = *x->aside ? x->aside : "-";
	cell[CRSTEXT_RESTORES] = restores_cell(s, x);
	status_line(t, f->name, cell);
}

/* The notes under the table, a long one folded to the width. */
static void
status_notes(const struct combat_state *s, int width)
{
	struct strbuf b = STRBUF_INIT;
	char *notes, *folded;

	crstext_notes(strbuf_stream(&b), s);
	notes = strbuf_detach(&b, NULL);
	folded = fit_fold(notes, width, 2);
	fputs(folded, stdout);
	free(folded);
	free(notes);
}

/* status --csv's columns: the keys of its JSON, a row per combatant. */
static const char *const status_cols[] = {
	"combat", "round", "name", "LIFE", "LIFE_max", "EM", "EM_max", "DR",
	"stance", "down", "dead", "joined", "initiative", "set_aside", "fled",
	"until", "protecting", "melee", "restores_at"
};

/* Combatant i as a CSV row of status_cols: 1 and 0 for yes and no. */
static void
status_csv(struct out *out, const struct ledger *l,
    const struct combat_state *s, int i, const struct combat_figures *x)
{
	const struct combat_fighter *f = &s->f[i];
	char *melee[64], *aside;
	size_t nm = 0;

	out_text(out, cli_key(l->combat));
	out_int(out, s->round);
	out_text(out, f->name);
	out_int(out, x->life);
	out_int(out, f->st.life);
	f->st.em < 0 ? out_null(out) : out_int(out, x->em);
	f->st.em < 0 ? out_null(out) : out_int(out, f->st.em);
	combat_dr_now(f) < 0 ? out_null(out) : out_int(out, combat_dr_now(f));
	out_int(out, f->stance != 0);
	out_int(out, x->life == 0);
	out_int(out, f->dead != 0);
	out_int(out, f->presence == COMBAT_ACTIVE);
	f->init_pos ? out_int(out, f->init_total) : out_null(out);
	aside = xstrdup(x->aside);
	for (char *c = aside; (c = strchr(c, ',')) != NULL;)
		*c = ';';
	out_text(out, *aside ? aside : NULL);
	free(aside);
	out_int(out, f->fled != 0);
	f->fled ? out_int(out, f->until) : out_null(out);
	out_text(out, f->protecting >= 0 ? s->f[f->protecting].name : NULL);
	for (int j = 0; j < s->n && nm < 64; j++)
		if (combat_melee(s, i) & (UINT64_C(1) << j))
			melee[nm++] = s->f[j].name;
	out_list(out, melee, nm);
	out_text(out, x->to_restore && s->ended ? x->when : NULL);
	out_end_row(out);
}

static int
cmd_status(struct opts *o, int argc, char **argv)
{
	struct db *db;
	struct ledger l;
	struct combat_state s;
	struct combat_figures x;
	struct status_table t;
	struct out *out = NULL;
	int64_t now = db_now(), restores;

	(void)argv;
	if (argc != 0)
		cli_usage_error("status takes no arguments");
	db = cli_db_open(o->db);
	db_begin_read(db);
	load(db, o, &l, &s);
	db_rollback(db);
	restores = combat_restores_at(&s);
	t = status_table(&s, o->fmt == OUT_JSON ? 0 : cli_columns());
	if (o->fmt == OUT_CSV)
		out = out_new(stdout, OUT_CSV, OUT_ROWS, (int)(sizeof status_cols
		    / sizeof *status_cols), status_cols);
	else
		status_head(o, &l, &s, &t);
	for (int i = 0; i < s.n; i++) {
		crstext_figures(&s, i, now, restores, &x);
		if (out != NULL)
			status_csv(out, &l, &s, i, &x);
		else if (o->fmt == OUT_JSON)
			status_json(&s, i, &x);
		else
			status_row(&t, &s, &s.f[i], &x);
	}
	if (out != NULL)
		out_free(out);
	else if (o->fmt == OUT_JSON)
		printf("]}\n");
	else
		status_notes(&s, t.width);
	combat_state_release(&s);
	ledger_release(&l);
	db_close(db);
	return 0;
}

/*
 * Whether cards were physical (typed in) rather than drawn by refkit:
 * true or false, null when no card was drawn.
 */
static void
physical_json(const char *key, const char *cards, int virt)
{
	printf(",\"%s\":%s", key, cards == NULL || *cards == '\0' ? "null" :
	    virt ? "false" : "true");
}

/* An initiative entry's cards, after its name: cards, physical, total. */
static void
order_json(const struct combat_init *x)
{
	printf(",\"cards\":\"%s\"", x->cards ? x->cards : "");
	physical_json("physical", x->cards, x->virt);
	if (x->ties) {
		printf(",\"ties\":\"%s\",\"ties_physical\":[", x->ties);
		for (const char *v = x->ties_virt; v && *v; v++)
			printf("%s%s", v > x->ties_virt ? "," : "", *v == '1' ?
			    "false" : "true");
		putchar(']');
	}
	printf(",\"total\":%d}", x->total);
}

/* The fields of the full action set, where an event has them. */
static void
event_json_more(const struct combat_event *e)
{
	const char *keys[] = { "aimed", "item", "vs_item", "power", "skills",
	    "vs_skills", "reactor" };
	const char *vals[] = { e->aimed, e->item.name, e->vs_item.name,
	    e->power.name, e->skills, e->vs_skills, e->reactor };

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (vals[i]) {
			printf(",\"%s\":", keys[i]);
			out_json_string(stdout, vals[i]);
		}
	if (e->action == COMBAT_POWER)
		printf(",\"em_spent\":%d,\"em_before\":%d,\"em_after\":%d",
		    e->em_spent, e->em_before, e->em_after);
	if (e->action == COMBAT_ADJUST && e->em_after >= 0)
		printf(",\"em_before\":%d,\"em_after\":%d", e->em_before,
		    e->em_after);
	if (e->adjust) {
		printf(",\"adjust\":");
		out_json_string(stdout, e->adjust);
	}
	if (e->ruling) {
		printf(",\"ruling\":");
		out_json_string(stdout, e->ruling);
	}
	if (e->action == COMBAT_RANGE)
		printf(",\"feet\":%d", e->feet);
	if (e->action == COMBAT_FLEE && e->hit)
		printf(",\"until\":%" PRId64, e->until);
	if (e->action == COMBAT_FLEE && e->ninit) {
		printf(",\"catches\":[");
		for (int i = 0; i < e->ninit; i++) {
			printf("%s{\"name\":", i ? "," : "");
			out_json_string(stdout, e->init[i].name);
			order_json(&e->init[i]);
		}
		printf("]");
	}
	if (e->action == COMBAT_CHARGE) {
		printf(",\"to\":[");
		for (int i = 0; i < e->ninit; i++) {
			printf("%s{\"name\":", i ? "," : "");
			out_json_string(stdout, e->init[i].name);
			printf(",\"feet\":%d}", e->init[i].in);
		}
		printf("]");
	}
	if (e->reactor) {
		printf(",\"reaction\":%d", e->react_total);
		physical_json("reaction_physical", e->react_cards,
		    e->react_virt);
	}
	if (e->free)
		printf(",\"free\":true");
	if (e->surprise)
		printf(",\"surprise\":true");
	if (e->negated)
		printf(",\"negated\":true");
}

/* The JSON of one event for log --json. */
static void
event_json(const struct combat_event *e, int undone, int first)
{
	printf("%s{\"seq\":%" PRId64 ",\"round\":%d,\"action\":\"%s\"",
	    first ? "\n" : ",\n", e->seq, e->round,
	    combat_action_name(e->action));
	printf(",\"actor\":");
	cli_json_or_null(stdout, e->actor);
	printf(",\"target\":");
	cli_json_or_null(stdout, e->target);
	if (e->action == COMBAT_ATTACK)
		printf(",\"range\":\"%s\"", e->range == COMBAT_LONG ? "long" :
		    "short");
	if (e->action == COMBAT_MENTAL)
		printf(",\"kind\":\"%s\"", combat_kind_name(e->kind));
	if (e->action == COMBAT_ATTACK || e->action == COMBAT_MENTAL ||
	    e->action == COMBAT_POWER || e->action == COMBAT_FLEE) {
		printf(",\"cards\":\"%s\",\"vs_cards\":", e->cards ?
		    e->cards : "");
		if (e->vs_cards)
			printf("\"%s\"", e->vs_cards);
		else
			printf("null");
		physical_json("cards_physical", e->cards, e->virt);
		physical_json("vs_cards_physical", e->vs_cards, e->vs_virt);
		printf(",\"offense\":%d,\"defense\":", e->offense);
		if (e->defense < 0)
			printf("null");
		else
			printf("%d", e->defense);
		printf(",\"hit\":%s,\"damage\":%d,\"life_before\":%d,"
		    "\"life_after\":%d,\"fumble\":%s", e->hit ? "true" :
		    "false", e->damage, e->life_before, e->life_after,
		    e->fumble ? "true" : "false");
	} else if (e->action == COMBAT_ADJUST)
		printf(",\"cards\":null,\"vs_cards\":null,"
		    "\"cards_physical\":null,\"vs_cards_physical\":null,"
		    "\"offense\":null,"
		    "\"defense\":null,\"hit\":null,\"damage\":null,"
		    "\"life_before\":%d,\"life_after\":%d", e->life_before,
		    e->life_after);
	else
		printf(",\"cards\":null,\"vs_cards\":null,"
		    "\"cards_physical\":null,\"vs_cards_physical\":null,"
		    "\"offense\":null,"
		    "\"defense\":null,\"hit\":null,\"damage\":null,"
		    "\"life_before\":null,\"life_after\":null");
	if (e->action == COMBAT_UNDO)
		printf(",\"undoes\":%" PRId64, e->undoes);
	event_json_more(e);
	if (e->action == COMBAT_INITIATIVE) {
		printf(",\"order\":[");
		for (int pos = 1; pos <= e->ninit; pos++)
			for (int i = 0; i < e->ninit; i++)
				if (e->init[i].pos == pos) {
					printf("%s{\"name\":", pos > 1 ? "," :
					    "");
					out_json_string(stdout,
					    e->init[i].name);
					order_json(&e->init[i]);
				}
		printf("]");
	}
	printf(",\"undone\":%s,\"seed\":", undone ? "true" : "false");
	if (ledger_used_seed(e))
		printf("\"%" PRIu64 "\"", e->seed);
	else
		printf("null");
	printf(",\"gm\":");
	cli_json_or_null(stdout, e->gm);
	printf(",\"time\":%" PRId64 "}", e->time);
}

static const char *const log_cols[] = {
	"seq", "round", "action", "actor", "target", "range", "kind", "cards",
	"vs_cards", "offense", "defense", "hit", "damage", "life_before",
	"life_after", "fumble", "undone", "undoes", "seed", "gm", "time",
	"aimed", "item", "vs_item", "power", "em_spent", "em_after", "feet",
	"until", "free", "surprise", "negated", "cards_physical",
	"vs_cards_physical", "adjust", "ruling"
};

/* 1 for physical cards, 0 for cards refkit drew, empty for none. */
static void
physical_csv(struct out *out, const char *cards, int virt)
{
	if (cards == NULL || *cards == '\0')
		out_null(out);
	else
		out_int(out, !virt);
}

/* One event as a CSV row of log_cols. */
static void
event_csv(struct out *out, const struct combat_event *e, int undone)
{
	int strike = e->action == COMBAT_ATTACK || e->action == COMBAT_MENTAL ||
	    e->action == COMBAT_POWER || e->action == COMBAT_FLEE;
	char seed[24];

	out_int(out, e->seq);
	out_int(out, e->round);
	out_text(out, combat_action_name(e->action));
	out_text(out, e->actor);
	out_text(out, e->target);
	out_text(out, e->action == COMBAT_ATTACK ? (e->range == COMBAT_LONG ?
	    "long" :
	    "short") : NULL);
	out_text(out, e->action == COMBAT_MENTAL ? combat_kind_name(e->kind) :
	    NULL);
	out_text(out, strike ? e->cards : NULL);
	out_text(out, strike ? e->vs_cards : NULL);
	if (strike) {
		out_int(out, e->offense);
		if (e->defense < 0)
			out_null(out);
		else
			out_int(out, e->defense);
		out_int(out, e->hit);
		out_int(out, e->damage);
		out_int(out, e->life_before);
		out_int(out, e->life_after);
		out_int(out, e->fumble);
	} else
		for (int i = 0; i < 7; i++)
			if (e->action == COMBAT_ADJUST && (i == 4 || i == 5))
				out_int(out, i == 4 ? e->life_before :
				    e->life_after);
			else
				out_null(out);
	out_int(out, undone);
	if (e->action == COMBAT_UNDO)
		out_int(out, e->undoes);
	else
		out_null(out);
	snprintf(seed, sizeof seed, "%" PRIu64, e->seed);
	out_text(out, ledger_used_seed(e) ? seed : NULL);
	out_text(out, e->gm);
	out_int(out, e->time);
	out_text(out, e->aimed);
	out_text(out, e->item.name);
	out_text(out, e->vs_item.name);
	out_text(out, e->power.name);
	if (e->action == COMBAT_POWER) {
		out_int(out, e->em_spent);
		out_int(out, e->em_after);
	} else if (e->action == COMBAT_ADJUST && e->em_after >= 0) {
		out_null(out);
		out_int(out, e->em_after);
	} else {
		out_null(out);
		out_null(out);
	}
	if (e->action == COMBAT_RANGE)
		out_int(out, e->feet);
	else
		out_null(out);
	if (e->action == COMBAT_FLEE && e->hit)
		out_int(out, e->until);
	else
		out_null(out);
	out_int(out, e->free);
	out_int(out, e->surprise);
	out_int(out, e->negated);
	physical_csv(out, strike ? e->cards : NULL, e->virt);
	physical_csv(out, strike ? e->vs_cards : NULL, e->vs_virt);
	out_text(out, e->adjust);
	out_text(out, e->ruling);
	out_end_row(out);
}

/* The story of the log, written as the one replay goes. */
struct log_story {
	const struct ledger	*l;
	FILE			*fp;
};

static void
log_line(void *arg, const struct combat_state *s, size_t i)
{
	struct log_story *ls = arg;

	if (ls->l->undone[i])
		crstext_undone(ls->fp, &ls->l->ev[i]);
	else
		crstext_story(ls->fp, s, &ls->l->ev[i]);
}

static int
cmd_log(struct opts *o, int argc, char **argv)
{
	struct db *db;
	struct ledger l;
	struct combat_state s;
	struct log_story ls = { &l, NULL };
	struct strbuf b = STRBUF_INIT;
	char *text;

	if (argc > 1)
		cli_usage_error("log takes at most one COMBAT");
	if (argc == 1)
		o->combat = cli_key_arg("COMBAT", argv[0]);
	db = cli_db_open(o->db);
	db_begin_read(db);
	if (o->fmt != OUT_CSV && o->fmt != OUT_JSON)
		ls.fp = strbuf_stream(&b);
	/* Nothing is said until the whole combat has replayed. */
	load_each(db, o, combat_ahead(db, o), EVERY_EVENT, &l, &s,
	    ls.fp ? log_line : NULL, &ls);
	db_rollback(db);
	if (o->fmt == OUT_CSV) {
		struct out *out = out_new(stdout, OUT_CSV, OUT_ROWS,
		    (int)(sizeof log_cols / sizeof log_cols[0]), log_cols);

		for (size_t i = 0; i < l.n; i++)
			event_csv(out, &l.ev[i], l.undone[i]);
		out_free(out);
	} else if (o->fmt == OUT_JSON) {
		printf("[");
		for (size_t i = 0; i < l.n; i++)
			event_json(&l.ev[i], l.undone[i], i == 0);
		printf("\n]\n");
	} else {
		text = strbuf_detach(&b, NULL);
		printf("combat %s (%s rules)\n", cli_key(l.combat), l.rules);
		fputs(text, stdout);
		free(text);
	}
	combat_state_release(&s);
	ledger_release(&l);
	db_close(db);
	return 0;
}

/* list: the combats under way, each with its GM, round and last event. */
static int
cmd_list(struct opts *o, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	journal_list_path(o->db, &ledger_kind, o->fmt, "round");
	return 0;
}

/* The live board (term/watch.h): the combat, drawn again as it changes. */
static int
cmd_watch(struct opts *o, int argc, char **argv)
{
	struct watch_log w;
	struct db *db;
	int rc;

	if (argc > 1)
		cli_usage_error("watch takes at most one COMBAT");
	if (argc == 1)
		o->combat = cli_key_arg("COMBAT", argv[0]);
	if (o->fmt != OUT_TABLE)
		cli_usage_error("watch draws a board, not JSON or CSV");
	w.typed = o->combat;
	w.board = &crswatch_board;
	w.gm = cli_gm(o->gm);
	db = cli_db_open(o->db);
	rc = watch_run(db, watch_log_draw, &w);
	db_close(db);
	return rc;
}

/* Says what an audit found wrong with one event of combat *arg. */
static void
replay_bad(void *arg, int64_t seq, int ran, const char *why)
{
	printf("combat %s event %" PRId64 ": %s%s\n", cli_key(*(int64_t *)arg),
	    seq, ran ? "" : "does not replay: ", why);
}

/* Replays one combat; returns the number of mismatches. */
static int
replay_one(struct db *db, int64_t id, int *events)
{
	struct ledger l;
	int bad;

	if (ledger_load_all(db, id, &l) != 0)
		errx(1, "no combat %s", cli_key(id));
	*events += (int)l.n;
	bad = ledger_audit(&l, replay_bad, &id);
	ledger_release(&l);
	return bad;
}

static int
cmd_replay(struct opts *o, int argc, char **argv)
{
	struct db *db;
	int bad = 0, events = 0;
	size_t combats = 0;

	if (argc > 1)
		cli_usage_error("replay takes at most one COMBAT");
	if (argc == 1)
		o->combat = cli_key_arg("COMBAT", argv[0]);
	db = cli_db_open(o->db);
	db_begin_read(db);
	if (o->combat) {
		int64_t id = db_key_parse(db, o->combat);

		bad = replay_one(db, id, &events);
		combats = 1;
	} else {
		size_t n;
		int64_t *ids = ledger_combat_ids(db, &n);

		for (size_t i = 0; i < n; i++) {
			bad += replay_one(db, ids[i], &events);
			combats++;
		}
		free(ids);
	}
	db_rollback(db);
	db_close(db);
	return cli_replayed(stdout, events, combats, "combat", bad);
}

/* --since s as Unix time: a local or UTC time, today, 2h (base/when). */
static int64_t
parse_time(const char *s)
{
	int64_t t;

	if (when_parse(s, db_now(), &t) != 0)
		cli_usage_error("--since must be %s, got '%s'", when_forms,
		    q(s));
	return t;
}

static const char *const history_cols[] = {
	"name", "combats", "damage_dealt", "damage_taken", "downed", "fumbles"
};

/* What cmd_history adds up while it prints the rows. */
struct history_sum {
	struct out	*out;
	int64_t		 tot[5];
};

static void
history_row(void *arg, const struct ledger_history *h)
{
	struct history_sum *sum = arg;
	int64_t v[5] = { h->combats, h->dealt, h->taken, h->downed,
	    h->fumbles };

	out_text(sum->out, h->name);
	for (int c = 0; c < 5; c++) {
		out_int(sum->out, v[c]);
		sum->tot[c] += v[c];
	}
	out_end_row(sum->out);
}

static int
cmd_history(struct opts *o, int argc, char **argv)
{
	struct db *db;
	struct history_sum sum;
	int64_t since = o->since ? parse_time(o->since) : 0;
	char *name = NULL, why[600];
	int rows;

	(void)argv;
	if (argc != 0)
		cli_usage_error("history takes options only");
	db = cli_db_open(o->db);
	db_begin_read(db);
	/* "fred" or "Fr" for Fred, as everywhere a name is typed. */
	if (o->character && (name = ledger_history_name(db, o->character, why,
	    sizeof why)) == NULL)
		db_die(db, "%s", why);
	memset(&sum, 0, sizeof sum);
	sum.out = out_new(stdout, o->fmt, OUT_ROWS, 6, history_cols);
	rows = ledger_history(db, name, since, history_row, &sum);
	if (o->fmt == OUT_TABLE && rows > 1 && !name) {
		out_text(sum.out, "(all)");
		out_int(sum.out, ledger_count_combats(db, since));
		for (int k = 1; k < 5; k++)
			out_int(sum.out, sum.tot[k]);
		out_end_row(sum.out);
	}
	out_free(sum.out);
	db_commit(db);
	free(name);
	db_close(db);
	return 0;
}

/* The report's figures: every character's history, every combat since. */
static void
report_load(struct db *db, struct report *r)
{
	db_begin_read(db);
	if (ledger_report(db, r, NULL) != 0)
		db_die(db, "a combat cannot be loaded for the report");
	db_rollback(db);
}

/* Writes the HTML page to path, all of it or nothing. */
static void
report_file(const struct report *r, const char *path)
{
	char *tmp;
	FILE *fp = cli_file_open(path, &tmp);

	report_html_write(fp, r);
	cli_file_done(fp, path, tmp);
}

static int
cmd_report(struct opts *o, int argc, char **argv)
{
	struct db *db;
	struct report r;

	(void)argv;
	if (argc != 0)
		cli_usage_error("report takes options only");
	if (o->fmt == OUT_CSV)
		cli_usage_error("report writes HTML or --json, not CSV");
	if ((o->output == NULL) == (o->fmt != OUT_JSON))
		cli_usage_error("report needs -o FILE.html or --json, "
		    "one of them");
	report_init(&r, o->since ? parse_time(o->since) : 0, db_now());
	db = cli_db_open(o->db);
	report_load(db, &r);
	db_close(db);
	if (o->output)
		report_file(&r, o->output);
	else
		report_json_write(stdout, &r);
	report_release(&r);
	return 0;
}

enum {
	OPT_COMBAT = 256, OPT_GM, OPT_LONG, OPT_CARD, OPT_VS_CARD,
	OPT_VS_SPECIAL, OPT_MOD, OPT_VS_MOD, OPT_KIND, OPT_AGREED, OPT_CHAR,
	OPT_SINCE, OPT_SEED, OPT_USE, OPT_DB, OPT_RULES, OPT_LOCKOUT,
	OPT_ITEM, OPT_VS_ITEM, OPT_SKILL, OPT_VS_SKILL, OPT_FREE,
	OPT_SURPRISE, OPT_MELEE_HIT, OPT_REACT, OPT_REACT_BASE,
	OPT_REACT_NEED, OPT_REACT_CARD, OPT_EM, OPT_CATCH, OPT_LET,
	OPT_DRY_RUN, OPT_OUTPUT, OPT_REASON, OPT_OUT_OF_TURN, OPT_LAST
};

#define SHORTOPTS ":jchVo:"

static const struct option longopts[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "combat", required_argument, NULL, OPT_COMBAT },
	{ "gm", required_argument, NULL, OPT_GM },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "long", no_argument, NULL, OPT_LONG },
	{ "use", required_argument, NULL, OPT_USE },
	{ "card", required_argument, NULL, OPT_CARD },
	{ "vs-card", required_argument, NULL, OPT_VS_CARD },
	{ "vs-special", required_argument, NULL, OPT_VS_SPECIAL },
	{ "mod", required_argument, NULL, OPT_MOD },
	{ "vs-mod", required_argument, NULL, OPT_VS_MOD },
	{ "kind", required_argument, NULL, OPT_KIND },
	{ "agreed", no_argument, NULL, OPT_AGREED },
	{ "char", required_argument, NULL, OPT_CHAR },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "rules", required_argument, NULL, OPT_RULES },
	{ "lockout", required_argument, NULL, OPT_LOCKOUT },
	{ "item", required_argument, NULL, OPT_ITEM },
	{ "vs-item", required_argument, NULL, OPT_VS_ITEM },
	{ "skill", required_argument, NULL, OPT_SKILL },
	{ "vs-skill", required_argument, NULL, OPT_VS_SKILL },
	{ "free", no_argument, NULL, OPT_FREE },
	{ "surprise", no_argument, NULL, OPT_SURPRISE },
	{ "melee-hit", required_argument, NULL, OPT_MELEE_HIT },
	{ "react", required_argument, NULL, OPT_REACT },
	{ "react-base", required_argument, NULL, OPT_REACT_BASE },
	{ "react-need", required_argument, NULL, OPT_REACT_NEED },
	{ "react-card", required_argument, NULL, OPT_REACT_CARD },
	{ "em", required_argument, NULL, OPT_EM },
	{ "catch", required_argument, NULL, OPT_CATCH },
	{ "let", required_argument, NULL, OPT_LET },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "reason", required_argument, NULL, OPT_REASON },
	{ "out-of-turn", no_argument, NULL, OPT_OUT_OF_TURN },
	{ "json", no_argument, NULL, 'j' },
	{ "csv", no_argument, NULL, 'c' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/* Appends item to a ';'-separated list. */
static void
list_add(char **list, const char *item, const char *what)
{
	char *t;

	if (*item == '\0' || strchr(item, ';'))
		cli_usage_error("%s: no ';' and not empty, got '%s'", what,
		    q(item));
	t = xasprintf("%s%s%s", *list ? *list : "", *list ? ";" : "", item);
	free(*list);
	*list = t;
}

/* --skill NAME=N: checked, then kept as "NAME=N". */
static void
skill_add(char **list, const char *arg, const char *opt)
{
	const char *eq = strrchr(arg, '=');
	long v;

	if (eq == NULL || eq == arg || util_parse_int(eq + 1, -ITEM_MOD_MAX,
	    ITEM_MOD_MAX, &v) != UTIL_INT_OK)
		cli_usage_error("%s must be NAME=N with N from %d to %d, got "
		    "'%s'", opt, -ITEM_MOD_MAX, ITEM_MOD_MAX, q(arg));
	list_add(list, arg, opt);
}

/* The options every command reads, and those of the basic commands. */
static int
opt_basic(struct opts *o, int ch)
{
	int k;

	switch (ch) {
	case OPT_DB:
		o->db = optarg;
		break;
	case OPT_COMBAT:
		o->combat = cli_key_arg("--combat", optarg);
		break;
	case OPT_GM:
		o->gm = optarg;
		break;
	case OPT_SEED:
		o->seed = cli_seed_arg(optarg);
		o->have_seed = 1;
		break;
	case OPT_LONG:
		o->range = COMBAT_LONG;
		break;
	case OPT_USE:
		o->use = (int)cli_int_arg("--use", optarg, 1, 100000);
		break;
	case OPT_CARD:
		o->card = optarg;
		break;
	case OPT_VS_CARD:
		o->vs_card = optarg;
		break;
	case OPT_VS_SPECIAL:
		o->vs_special = optarg;
		break;
	case OPT_MOD:
		o->mod = (int)cli_int_arg("--mod", optarg, -100000, 100000);
		break;
	case OPT_VS_MOD:
		o->vs_mod = (int)cli_int_arg("--vs-mod", optarg, -100000,
		    100000);
		break;
	case OPT_KIND:
		if ((k = combat_kind_lookup(optarg)) < 0)
			cli_usage_error("--kind must be attack, suggestion, "
			    "intimidation or coercion, got '%s'", q(optarg));
		o->kind = k;
		break;
	case OPT_AGREED:
		o->agreed = 1;
		break;
	case OPT_CHAR:
		o->character = optarg;
		break;
	case OPT_SINCE:
		o->since = optarg;
		break;
	default:
		return 0;
	}
	return 1;
}

/*
 * One supplemental item per attack and one per defence (seed 001;
 * RULINGS section 1): a second is refused, never silently put in place
 * of the first.
 */
static void
opt_item(struct opts *o, int ch)
{
	const char **slot = ch == OPT_ITEM ? &o->item : &o->vs_item;

	if (*slot)
		cli_usage_error("--%s given twice ('%s', '%s'): one "
		    "supplemental item per %s", ch == OPT_ITEM ? "item" :
		    "vs-item", q(*slot), q(optarg), ch == OPT_ITEM ? "attack" :
		    "defence");
	*slot = optarg;
}

/* The options of start and of the full action set. */
static int
opt_actions(struct opts *o, int ch)
{
	switch (ch) {
	case OPT_RULES:
		if (strcmp(optarg, "crs") == 0)
			o->rules = COMBAT_RULES_CRS;
		else if (strcmp(optarg, "avatar") == 0)
			o->rules = COMBAT_RULES_AVATAR;
		else
			cli_usage_error("--rules must be crs or avatar, got "
			    "'%s'", q(optarg));
		break;
	case OPT_LOCKOUT:
		o->lockout = 60 * cli_int_arg("--lockout", optarg, 0,
		    COMBAT_LOCKOUT_MAX / 60);
		break;
	case OPT_ITEM:
	case OPT_VS_ITEM:
		opt_item(o, ch);
		break;
	case OPT_SKILL:
		skill_add(&o->skills, optarg, "--skill");
		break;
	case OPT_VS_SKILL:
		skill_add(&o->vs_skills, optarg, "--vs-skill");
		break;
	case OPT_FREE:
		o->free = 1;
		break;
	case OPT_SURPRISE:
		o->surprise = 1;
		break;
	case OPT_MELEE_HIT:
		o->melee_hit = optarg;
		break;
	default:
		return 0;
	}
	return 1;
}

/* The options of a reaction, a power, a Flee and a Charge. */
static int
opt_more(struct opts *o, int ch)
{
	switch (ch) {
	case OPT_REACT:
		o->react = optarg;
		break;
	case OPT_REACT_BASE:
		o->react_base = (int)cli_int_arg("--react-base", optarg,
		    -100000, 100000);
		break;
	case OPT_REACT_NEED:
		o->react_need = (int)cli_int_arg("--react-need", optarg, 0,
		    100000);
		break;
	case OPT_REACT_CARD:
		o->react_card = optarg;
		break;
	case OPT_EM:
		o->em = (int)cli_int_arg("--em", optarg, 1, POWER_EM_MAX);
		break;
	case OPT_CATCH:
		list_add(&o->catches, optarg, "--catch");
		break;
	case OPT_LET:
		list_add(&o->let, optarg, "--let");
		break;
	case OPT_DRY_RUN:
		o->dry_run = 1;
		break;
	case OPT_OUTPUT:
		o->output = optarg;
		break;
	case OPT_REASON:
		o->reason = optarg;
		break;
	case OPT_OUT_OF_TURN:
		o->out_of_turn = 1;
		break;
	default:
		return 0;
	}
	return 1;
}

/* Reads the options into o, marking in seen each command option given. */
static void
parse_opts(struct opts *o, int *seen, int argc, char **argv)
{
	int ch;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, SHORTOPTS, longopts, NULL)) != -1) {
		if (ch == 'o')
			ch = OPT_OUTPUT;
		if (ch >= 256 && ch < OPT_LAST)
			seen[ch - 256] = 1;
		if (!opt_basic(o, ch) && !opt_actions(o, ch) &&
		    !opt_more(o, ch))
			cli_common_option(ch, argv, usage_text, longopts, &o->fmt);
	}
}

/*
 * A list of commands as a table of options has it ("attack mental
 * power") as a sentence says it ("attack, mental or power"), in a static
 * buffer.
 */
static const char *
commands_said(const char *cmds)
{
	static char said[200];
	char word[40];
	size_t len = 0;
	int n = 0, total = 0, off;

	for (const char *p = cmds; sscanf(p, "%39s%n", word, &off) == 1;
	    p += off)
		total++;
	for (const char *p = cmds; sscanf(p, "%39s%n", word, &off) == 1 &&
	    len < sizeof said; p += off, n++)
		len += (size_t)snprintf(said + len, sizeof said - len, "%s%s",
		    n == 0 ? "" : n == total - 1 ? " or " : ", ", word);
	return said;
}

/*
 * Each command option goes with its commands (the table completion
 * offers them by, crs/complete.c), and some with another.
 */
static void
check_opts(const struct opts *o, const int *seen, const char *cmd)
{
	const struct complete_takes *t = crscomplete_combat.takes;

	for (; t->option != NULL; t++) {
		const struct option *lo = longopts;
		const char *cmds;

		while (lo->name != NULL && strcmp(lo->name, t->option) != 0)
			lo++;
		if (lo->name == NULL || lo->val < 256 || !seen[lo->val - 256])
			continue;
		if (!complete_takes(t, t->option, cmd, &cmds))
			cli_usage_error("--%s goes with %s", t->option,
			    commands_said(cmds));
	}
	if (o->vs_special && !o->vs_card)
		cli_usage_error("--vs-special goes with --vs-card");
	if ((seen[OPT_REACT_BASE - 256] || seen[OPT_REACT_NEED - 256] ||
	    o->react_card) && !o->react)
		cli_usage_error("--react-base, --react-need and --react-card "
		    "go with --react");
	if (o->free && o->surprise)
		cli_usage_error("--free and --surprise do not go together");
	if (o->out_of_turn)
		ruling_reason_arg(o->reason, "--out-of-turn");
	else if (o->reason && strcmp(cmd, "adjust") != 0)
		cli_usage_error("--reason goes with adjust or --out-of-turn");
}

/*
 * The commands: what runs each, for which action, and how many arguments
 * it takes (min, max with -1 for any, in steps of step); needs is the
 * usage error when they are not so.  A reading command may work on a
 * combat that has ended (the newest, without --combat).
 */
static int crs_combat(int argc, char **argv);
static int cmd_play(struct opts *o, int argc, char **argv);

static const struct command {
	const char	*name;
	int		(*run)(struct opts *, int, char **);
	int		 action;
	int		 min, max, step;
	const char	*needs;
	int		 reading;
} commands[] = {
	{ "start", cmd_start, COMBAT_START, 0, -1, 1, NULL, 0 },
	{ "join", cmd_event, COMBAT_JOIN, 1, 1, 1,
	    "join needs exactly one NAME", 0 },
	{ "stance", cmd_event, COMBAT_STANCE, 1, 1, 1,
	    "stance needs exactly one NAME", 0 },
	{ "pass", cmd_event, COMBAT_PASS, 1, 1, 1,
	    "pass needs exactly one NAME", 0 },
	{ "dead", cmd_event, COMBAT_DEAD, 1, 1, 1,
	    "dead needs exactly one NAME", 1 },
	{ "flee", cmd_event, COMBAT_FLEE, 1, 1, 1,
	    "flee needs exactly one NAME", 1 },
	{ "charge", cmd_event, COMBAT_CHARGE, 1, -1, 1, "charge needs NAME",
	    0 },
	{ "blow", cmd_event, COMBAT_BLOW, 2, 2, 1,
	    "blow needs PROTECTOR PROTECTED", 0 },
	{ "swap", cmd_event, COMBAT_SWAP, 2, 2, 1, "swap needs NAME ITEM", 0 },
	{ "adjust", cmd_adjust, COMBAT_ADJUST, 2, 1 + RULING_CHANGES_MAX, 1,
	    "adjust needs NAME and COUNTER=+N, -N or N (LIFE, EM)", 0 },
	{ "range", cmd_range, COMBAT_RANGE, 3, -1, 3,
	    "range needs A B FEET, as often as needed", 0 },
	{ "init", cmd_event, COMBAT_INITIATIVE, 0, -1, 1, NULL, 0 },
	{ "attack", cmd_strike, COMBAT_ATTACK, 2, 2, 1,
	    "attack needs ATTACKER TARGET [CARDS [VS-CARDS]]", 0 },
	{ "mental", cmd_strike, COMBAT_MENTAL, 2, -1, 1,
	    "mental needs ATTACKER TARGET [TARGET...]", 0 },
	{ "power", cmd_strike, COMBAT_POWER, 3, -1, 1,
	    "power needs CASTER POWER TARGET...", 0 },
	{ "round", cmd_event, COMBAT_ROUND, 0, 0, 1,
	    "round takes no arguments", 0 },
	{ "end", cmd_event, COMBAT_END, 0, 0, 1, "end takes no arguments",
	    0 },
	/* After the end, undo and the free Flee work on the newest combat. */
	{ "undo", cmd_undo, COMBAT_UNDO, 0, -1, 1, NULL, 1 },
	{ "status", cmd_status, -1, 0, -1, 1, NULL, 1 },
	{ "list", cmd_list, -1, 0, 0, 1, "list takes no arguments", 1 },
	{ "log", cmd_log, -1, 0, -1, 1, NULL, 1 },
	{ "watch", cmd_watch, -1, 0, -1, 1, NULL, 1 },
	{ "replay", cmd_replay, -1, 0, -1, 1, NULL, 1 },
	{ "history", cmd_history, -1, 0, -1, 1, NULL, 1 },
	{ "report", cmd_report, -1, 0, -1, 1, NULL, 1 },
	{ "play", cmd_play, -1, 0, 1, 1, "play takes at most one COMBAT", 1 },
	{ NULL, NULL, 0, 0, 0, 0, NULL, 0 }
};

/*
 * The short forms a GM types at a busy table (term/play.h), which play
 * and the one-shot command both take: "attack k g 10,10,9 2" is "attack
 * k g --card 10,10,9 --vs-card 2".  A mental action takes several
 * targets, so only its short form takes the cards bare.
 */
static const struct play_alias aliases[] = {
	{ "a", "attack", 2, { "--card", "--vs-card" }, 1,
	    "a Fred John 10,6 9" },
	{ "m", "mental", 2, { "--card", "--vs-card" }, 0,
	    "m Mary John 8 4" },
	{ "i", "init", 0, { NULL }, 0, "i Fred=9 John=4 Mary=2" },
	{ "p", "pass", 1, { NULL }, 0, "p Mary" },
	{ "n", "round", 0, { NULL }, 0, "n" },
	{ "s", "status", 0, { NULL }, 0, "s" },
	{ "u", "undo", 0, { NULL }, 0, "u" },
	{ "l", "log", 0, { NULL }, 0, "l" },
	{ NULL, NULL, 0, { NULL }, 0, NULL }
};

/*
 * play [COMBAT]: commands typed at a prompt, each run as its one-shot
 * form (term/play.h), with the aliases a GM types at a busy table.  The
 * session keeps to one combat: the one named, else its GM's under way,
 * else the one it starts.
 */
static int
cmd_play(struct opts *o, int argc, char **argv)
{
	static const char *const board[] = { "status", NULL };
	static const struct play_game session = { "crs-combat", crs_combat,
	    aliases, board, "--combat", "start", &ledger_kind };
	struct play_tool t;

	if (argc == 1)
		o->combat = cli_key_arg("COMBAT", argv[0]);
	play_tool_game(&t, &session, o->db, o->gm, o->combat);
	return play_run(&t);
}

/* One command line, as main() runs it: play runs each of its lines so. */
static int
crs_combat(int argc, char **argv)
{
	/* Static: the lists it builds live as long as the process. */
	static struct opts o;
	static char **words;
	int seen[OPT_LAST - 256];
	const struct command *c;
	const char *cmd;

	memset(&o, 0, sizeof o);
	memset(seen, 0, sizeof seen);
	/* play's worker runs one command line after another. */
	for (size_t i = 0; i < nresolved; i++)
		free(resolved[i]);
	nresolved = 0;
	o.fmt = OUT_TABLE;
	o.lockout = -1;
	o.react_need = 1;
	cli_init(argc, argv);
	complete_answer(argc, argv, &crscomplete_combat, longopts);
	/* The words play takes are the command line's too. */
	free(words);
	argv = words = play_command_line(aliases, SHORTOPTS, longopts, argc,
	    argv, &argc);
	parse_opts(&o, seen, argc, argv);
	argc -= optind;
	argv += optind;
	if (argc == 0)
		cli_usage_error("no command given (start, join, init, "
		    "attack, mental, power, pass, stance, range, flee, "
		    "charge, blow, swap, round, dead, adjust, end, undo, status, "
		    "list, "
		    "log, watch, replay, history, report or play)");
	cmd = argv[0];
	argc--;
	argv++;
	check_opts(&o, seen, cmd);
	c = &commands[cli_command(cmd, commands, sizeof commands[0],
	    sizeof commands / sizeof commands[0])];
	if (argc < c->min || (c->max >= 0 && argc > c->max) ||
	    argc % c->step != 0)
		cli_usage_error("%s", c->needs);
	o.action = c->action;
	o.reading = c->reading;
	return c->run(&o, argc, argv);
}

int
main(int argc, char **argv)
{
	return crs_combat(argc, argv);
}
