/*
 * ledger.c - combats and events in SQL; see ledger.h.
 */
#include "crs/ledger.h"

#include "core/out.h"
#include "core/util.h"

#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t
ledger_new_combat(struct db *db, const char *rules, int64_t now)
{
	sqlite3_stmt *st = db_prepare(db, "INSERT INTO combat (rules,"
	    " created) VALUES (?1, ?2)");
	int64_t id;

	sqlite3_bind_text(st, 1, rules, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	db_step(db, st, 0);
	id = sqlite3_last_insert_rowid(db->h);
	sqlite3_finalize(st);
	return id;
}

/* An event is undone when an undo event of its combat names it. */
#define NOT_UNDONE(e) \
	" NOT EXISTS (SELECT 1 FROM event u WHERE u.combat_id = " e \
	".combat_id AND u.undoes = " e ".seq)"

int64_t
ledger_current(struct db *db)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT max(c.id) FROM combat c"
	    " WHERE NOT EXISTS (SELECT 1 FROM event e WHERE e.combat_id ="
	    " c.id AND e.action = 'end' AND" NOT_UNDONE("e") ")");
	int64_t id = 0;

	if (db_step(db, st, 0) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

static char *
col_text(sqlite3_stmt *st, int c)
{
	const char *s = db_column_text(st, c);

	return s ? xstrdup(s) : NULL;
}

static int
col_int(sqlite3_stmt *st, int c, int dflt)
{
	return sqlite3_column_type(st, c) == SQLITE_NULL ? dflt :
	    sqlite3_column_int(st, c);
}

/* Only a join's detail holds stats: the others skip the JSON parse. */
#define JOIN_STAT(k) \
	" CASE action WHEN 'join' THEN json_extract(detail, '$." k "') END"
#define EVENT_COLS \
	"seq, round, action, actor, target, range, kind, use, mod, vs_mod," \
	" cards, virt, vs_cards, vs_virt, special, base, vs_base, offense," \
	" defense, hit, damage, life_before, life_after, fumble, vs_fumble," \
	" undoes, agreed, seed, gm, time, shares," JOIN_STAT("OR") "," \
	JOIN_STAT("DR") "," JOIN_STAT("MIND") "," JOIN_STAT("LIFE") "," \
	JOIN_STAT("IN") "," JOIN_STAT("EM") "," JOIN_STAT("LB") "," \
	JOIN_STAT("mod_offense") "," JOIN_STAT("mod_defense") "," \
	JOIN_STAT("mod_pick") ", detail, aimed, item, vs_item, power," \
	" em_spent, em_before, em_after, feet, until, free, surprise," \
	" negated," DETAIL("rules") "," DETAIL("lockout") "," \
	DETAIL("item_mods") "," DETAIL("item_range") "," \
	DETAIL("item_full_or") "," DETAIL("vs_item_mods") "," \
	DETAIL("vs_item_range") "," DETAIL("vs_item_full_or") "," \
	DETAIL("power.em") "," DETAIL("power.picks") "," \
	DETAIL("power.bonus") "," DETAIL("power.target") "," \
	DETAIL("power.defend") "," DETAIL("skills") "," \
	DETAIL("vs_skills") "," DETAIL("let") "," DETAIL("melee_pick") "," \
	DETAIL("reaction.who") "," DETAIL("reaction.base") "," \
	DETAIL("reaction.need") "," DETAIL("reaction.cards") "," \
	DETAIL("reaction.virt") "," DETAIL("reaction.total") "," \
	DETAIL("reaction.fumble") "," DETAIL("melee_n") "," DETAIL("melee_drawn")
/* The rest of the detail; most events have none, and skip the parse. */
#define DETAIL(k) \
	" CASE WHEN detail <> '{}' THEN json_extract(detail, '$." k "') END"
/* The first column of the detail keys, after the fixed ones. */
#define COL_DETAIL	54

/* Six modifiers from the JSON array "[1,0,0,0,0,0]". */
static void
read_mods(const char *s, int mod[ITEM_MOD_COUNT])
{
	if (s == NULL)
		return;
	for (int i = 0; i < ITEM_MOD_COUNT && *s; i++) {
		s += strspn(s, "[, ");
		mod[i] = (int)strtol(s, (char **)&s, 10);
	}
}

/* The detail keys that have no column of their own. */
static void
read_detail(sqlite3_stmt *st, int c, struct combat_event *e)
{
	const char *s;

	if ((s = db_column_text(st, c)) != NULL)
		e->rules = strcmp(s, "avatar") == 0 ? COMBAT_RULES_AVATAR :
		    COMBAT_RULES_CRS;
	if (sqlite3_column_type(st, c + 1) != SQLITE_NULL)
		e->lockout = sqlite3_column_int64(st, c + 1);
	read_mods(db_column_text(st, c + 2), e->item.mod);
	if ((s = db_column_text(st, c + 3)) != NULL)
		e->item.range = item_range_lookup(s);
	e->item.full_or = col_int(st, c + 4, 0);
	read_mods(db_column_text(st, c + 5),
	    e->vs_item.mod);
	if ((s = db_column_text(st, c + 6)) != NULL)
		e->vs_item.range = item_range_lookup(s);
	e->vs_item.full_or = col_int(st, c + 7, 0);
	e->power.em = col_int(st, c + 8, 0);
	e->power.picks = col_int(st, c + 9, 0);
	e->power.bonus = col_int(st, c + 10, 0);
	if ((s = db_column_text(st, c + 11)) != NULL)
		e->power.target = item_power_target_lookup(s);
	if ((s = db_column_text(st, c + 12)) != NULL)
		e->power.defend = item_power_defend_lookup(s);
	e->skills = col_text(st, c + 13);
	e->vs_skills = col_text(st, c + 14);
	e->let = col_text(st, c + 15);
	e->melee_pick = col_text(st, c + 16);
	e->reactor = col_text(st, c + 17);
	e->react_base = col_int(st, c + 18, 0);
	e->react_need = col_int(st, c + 19, 1);
	e->react_cards = col_text(st, c + 20);
	e->react_virt = col_int(st, c + 21, 0);
	e->react_total = col_int(st, c + 22, 0);
	e->react_fumble = col_int(st, c + 23, 0);
	e->melee_n = col_int(st, c + 24, 0);
	e->melee_drawn = col_text(st, c + 25);
}

/*
 * Reads one event row.  inits is the prepared statement that reads an
 * initiative's draws, kept for the whole load.
 */
static void
read_event(struct db *db, sqlite3_stmt *st, sqlite3_stmt *inits,
    struct combat_event *e)
{
	const char *s;
	int *stat[] = { &e->stats.or_, &e->stats.dr, &e->stats.mind,
	    &e->stats.life, &e->stats.in, &e->stats.em, &e->stats.lb,
	    &e->stats.mod_offense, &e->stats.mod_defense,
	    &e->stats.mod_pick };

	combat_event_init(e);
	e->seq = sqlite3_column_int64(st, 0);
	e->round = sqlite3_column_int(st, 1);
	e->action = combat_action_lookup(db_column_text(st,
	    2));
	e->actor = col_text(st, 3);
	e->target = col_text(st, 4);
	s = db_column_text(st, 5);
	e->range = s && strcmp(s, "long") == 0 ? COMBAT_LONG : COMBAT_SHORT;
	s = db_column_text(st, 6);
	e->kind = s ? combat_kind_lookup(s) : COMBAT_KIND_ATTACK;
	e->use = col_int(st, 7, 0);
	e->mod = col_int(st, 8, 0);
	e->vs_mod = col_int(st, 9, 0);
	e->cards = col_text(st, 10);
	e->virt = col_int(st, 11, 0);
	e->vs_cards = col_text(st, 12);
	e->vs_virt = col_int(st, 13, 0);
	s = db_column_text(st, 14);
	if (s == NULL)
		e->special = -1;
	else {
		int f;
		char why[100];

		e->special = *s && deck_parse_list(s, &f, 1, why,
		    sizeof why) == 1 ? f : 0;
	}
	e->base = col_int(st, 15, 0);
	e->vs_base = col_int(st, 16, 0);
	e->offense = col_int(st, 17, 0);
	e->defense = col_int(st, 18, -1);
	e->hit = col_int(st, 19, 0);
	e->damage = col_int(st, 20, 0);
	e->life_before = col_int(st, 21, -1);
	e->life_after = col_int(st, 22, -1);
	e->fumble = col_int(st, 23, 0);
	e->vs_fumble = col_int(st, 24, 0);
	e->undoes = sqlite3_column_int64(st, 25);
	e->agreed = col_int(st, 26, 0);
	if ((s = db_column_text(st, 27)) != NULL)
		e->seed = strtoull(s, NULL, 10);
	e->gm = col_text(st, 28);
	e->time = sqlite3_column_int64(st, 29);
	e->shares = col_int(st, 30, 0);
	for (int i = 0; i < 10; i++)
		*stat[i] = col_int(st, 31 + i, i < 7 ? -1 : 0);
	e->aimed = col_text(st, 42);
	e->item.name = col_text(st, 43);
	e->vs_item.name = col_text(st, 44);
	e->power.name = col_text(st, 45);
	e->em_spent = col_int(st, 46, 0);
	e->em_before = col_int(st, 47, -1);
	e->em_after = col_int(st, 48, -1);
	e->feet = col_int(st, 49, 0);
	e->until = sqlite3_column_int64(st, 50);
	e->free = col_int(st, 51, 0);
	e->surprise = col_int(st, 52, 0);
	e->negated = col_int(st, 53, 0);
	/* Most events have no detail: their defaults stand. */
	if (strcmp(db_column_json(st, 41), "{}") != 0)
		read_detail(st, COL_DETAIL, e);
	if (e->action == COMBAT_INITIATIVE || e->action == COMBAT_FLEE ||
	    e->action == COMBAT_CHARGE) {
		sqlite3_stmt *it = inits;

		sqlite3_bind_text(it, 1, db_column_json(st, 41), -1,
		    SQLITE_TRANSIENT);
		sqlite3_bind_text(it, 2, e->action == COMBAT_CHARGE ? "$.to" :
		    "$.draws", -1, SQLITE_STATIC);
		while (db_step(db, it, 0) == SQLITE_ROW) {
			struct combat_init *x;

			e->init = xreallocarray(e->init, (size_t)e->ninit + 1,
			    sizeof *e->init);
			x = &e->init[e->ninit++];
			memset(x, 0, sizeof *x);
			x->name = col_text(it, 0);
			if (x->name == NULL)
				x->name = xstrdup("");
			x->cards = col_text(it, 1);
			x->virt = col_int(it, 2, 0);
			x->ties = col_text(it, 3);
			x->ties_virt = col_text(it, 4);
			x->in = col_int(it, 5, 0);
			x->total = col_int(it, 6, 0);
			x->pos = col_int(it, 7, 0);
		}
		sqlite3_reset(it);
	}
}

int
ledger_load(struct db *db, int64_t id, struct ledger *l)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT rules FROM combat"
	    " WHERE id = ?1"), *inits;
	size_t cap = 0;
	int found;

	memset(l, 0, sizeof *l);
	sqlite3_bind_int64(st, 1, id);
	found = db_step(db, st, 0) == SQLITE_ROW;
	if (found)
		l->rules = col_text(st, 0);
	sqlite3_finalize(st);
	if (!found)
		return -1;
	l->combat = id;
	st = db_prepare(db, "SELECT " EVENT_COLS " FROM event"
	    " WHERE combat_id = ?1 ORDER BY seq");
	inits = db_prepare(db, "SELECT json_extract(value, '$.name'),"
	    " json_extract(value, '$.cards'), json_extract(value, '$.virt'),"
	    " json_extract(value, '$.ties'),"
	    " json_extract(value, '$.ties_virt'),"
	    " coalesce(json_extract(value, '$.in'),"
	    " json_extract(value, '$.feet')), json_extract(value, '$.total'),"
	    " json_extract(value, '$.pos') FROM json_each(?1, ?2)");
	sqlite3_bind_int64(st, 1, id);
	while (db_step(db, st, 0) == SQLITE_ROW) {
		if (l->n == cap) {
			cap = cap ? 2 * cap : 64;
			l->ev = xreallocarray(l->ev, cap, sizeof *l->ev);
			l->undone = xreallocarray(l->undone, cap,
			    sizeof *l->undone);
		}
		read_event(db, st, inits, &l->ev[l->n]);
		l->undone[l->n] = 0;
		l->n++;
	}
	sqlite3_finalize(st);
	sqlite3_finalize(inits);
	/* Undo events point back; an undo is never itself undone. */
	for (size_t i = 0; i < l->n; i++)
		if (l->ev[i].action == COMBAT_UNDO)
			for (size_t j = 0; j < i; j++)
				if (l->ev[j].seq == l->ev[i].undoes)
					l->undone[j] = 1;
	return 0;
}

void
ledger_release(struct ledger *l)
{
	for (size_t i = 0; i < l->n; i++)
		combat_event_release(&l->ev[i]);
	free(l->ev);
	free(l->undone);
	free(l->rules);
	memset(l, 0, sizeof *l);
}

static char *
dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void
ledger_inputs(const struct combat_event *r, struct combat_event *in)
{
	combat_event_init(in);
	in->seq = r->seq;
	in->action = r->action;
	in->actor = dup_or_null(r->actor);
	in->target = dup_or_null(r->target);
	in->range = r->range;
	in->kind = r->kind;
	in->use = r->use;
	in->mod = r->mod;
	in->vs_mod = r->vs_mod;
	in->virt = r->virt;
	in->cards = r->virt ? NULL : dup_or_null(r->cards);
	in->vs_virt = r->vs_virt;
	in->vs_cards = r->vs_virt ? NULL : dup_or_null(r->vs_cards);
	in->special = r->vs_virt ? -1 : r->special;
	in->undoes = r->undoes;
	in->shares = r->shares;
	in->agreed = r->agreed;
	in->stats = r->stats;
	in->seed = r->seed;
	in->gm = dup_or_null(r->gm);
	in->time = r->time;
	/* The declared target; a typed melee draw is an input too. */
	if (r->aimed) {
		free(in->target);
		in->target = xstrdup(r->aimed);
	}
	in->melee_pick = dup_or_null(r->melee_pick);
	in->item = r->item;
	in->item.name = dup_or_null(r->item.name);
	in->vs_item = r->vs_item;
	in->vs_item.name = dup_or_null(r->vs_item.name);
	in->skills = dup_or_null(r->skills);
	in->vs_skills = dup_or_null(r->vs_skills);
	in->power = r->power;
	in->power.name = dup_or_null(r->power.name);
	in->em_spent = r->em_spent;
	in->feet = r->feet;
	in->free = r->action == COMBAT_FLEE ? 0 : r->free;
	in->surprise = r->surprise;
	in->let = dup_or_null(r->let);
	in->reactor = dup_or_null(r->reactor);
	in->react_base = r->react_base;
	in->react_need = r->react_need;
	in->react_virt = r->react_virt;
	in->react_cards = r->react_virt ? NULL : dup_or_null(r->react_cards);
	in->rules = r->rules;
	in->lockout = r->lockout;
	if (r->ninit) {
		in->init = xcalloc((size_t)r->ninit, sizeof *in->init);
		in->ninit = r->ninit;
		for (int i = 0; i < r->ninit; i++) {
			in->init[i].name = xstrdup(r->init[i].name);
			in->init[i].virt = r->init[i].virt;
			in->init[i].cards = r->init[i].virt ? NULL :
			    dup_or_null(r->init[i].cards);
			/* Virtual tie-breaks are marked and drawn again. */
			in->init[i].ties = dup_or_null(r->init[i].ties);
			in->init[i].ties_virt = dup_or_null(
			    r->init[i].ties_virt);
			/* A charge's distances are what the GM said. */
			if (r->action == COMBAT_CHARGE)
				in->init[i].in = r->init[i].in;
		}
	}
}

int
ledger_derive(const struct ledger *l, struct combat_state *s, int64_t *bad,
    char *why, size_t whysz)
{
	combat_state_init(s);
	for (size_t i = 0; i < l->n; i++) {
		struct combat_event in;
		int rc;

		if (l->undone[i] || l->ev[i].action == COMBAT_UNDO)
			continue;
		ledger_inputs(&l->ev[i], &in);
		rc = combat_execute(s, &in, why, whysz);
		combat_event_release(&in);
		if (rc != 0) {
			*bad = l->ev[i].seq;
			return -1;
		}
	}
	return 0;
}

static int
str_same(const char *a, const char *b)
{
	return (a == NULL || *a == '\0') ? (b == NULL || *b == '\0') :
	    (b != NULL && strcmp(a, b) == 0);
}

int
ledger_same(const struct combat_event *r, const struct combat_event *n,
    char *why,
    size_t whysz)
{
#define DIFF_INT(f, label) \
	if (r->f != n->f) { \
		snprintf(why, whysz, "%s recorded %d, replayed %d", label, \
		    r->f, n->f); \
		return -1; \
	}
#define DIFF_STR(f, label) \
	if (!str_same(r->f, n->f)) { \
		snprintf(why, whysz, "%s recorded '%s', replayed '%s'", \
		    label, r->f ? r->f : "", n->f ? n->f : ""); \
		return -1; \
	}
	if (r->action == COMBAT_ATTACK || r->action == COMBAT_MENTAL ||
	    r->action == COMBAT_POWER) {
		DIFF_STR(target, "target");
		DIFF_INT(negated, "negated");
		DIFF_INT(react_total, "reaction");
		DIFF_INT(em_after, "EM after");
		DIFF_STR(cards, "cards");
		DIFF_STR(vs_cards, "defence cards");
		DIFF_INT(special, "special card");
		DIFF_INT(base, "offence base");
		DIFF_INT(offense, "offence");
		DIFF_INT(defense, "defence");
		DIFF_INT(hit, "hit");
		DIFF_INT(damage, "damage");
		DIFF_INT(life_before, "LIFE before");
		DIFF_INT(life_after, "LIFE after");
		DIFF_INT(fumble, "fumble");
		DIFF_INT(vs_fumble, "defence fumble");
		if (r->defense >= 0) {
			DIFF_INT(vs_base, "defence base");
		}
	}
	if (r->action == COMBAT_FLEE) {
		DIFF_STR(cards, "cards");
		DIFF_INT(offense, "flee");
		DIFF_INT(defense, "best catch");
		DIFF_INT(hit, "fled");
	}
	if (r->action == COMBAT_INITIATIVE || r->action == COMBAT_FLEE) {
		DIFF_INT(ninit, "initiative draws");
		for (int i = 0; i < r->ninit; i++) {
			const struct combat_init *a = &r->init[i], *b = NULL;

			for (int j = 0; j < n->ninit; j++)
				if (strcmp(n->init[j].name, a->name) == 0)
					b = &n->init[j];
			if (b == NULL || !str_same(a->cards, b->cards) ||
			    a->total != b->total || a->pos != b->pos ||
			    !str_same(a->ties, b->ties)) {
				snprintf(why, whysz, "initiative of '%s' "
				    "recorded %s = %d, place %d; replayed "
				    "%s = %d, place %d", a->name, a->cards ?
				    a->cards : "-", a->total, a->pos, b &&
				    b->cards ? b->cards : "-", b ? b->total :
				    0, b ? b->pos : 0);
				return -1;
			}
		}
	}
	return 0;
#undef DIFF_INT
#undef DIFF_STR
}

static void
json_key_string(FILE *fp, int *first, const char *key, const char *val)
{
	if (val == NULL)
		return;
	fprintf(fp, "%s\"%s\":", *first ? "" : ",", key);
	out_json_string(fp, val);
	*first = 0;
}

static void
json_key_int(FILE *fp, int *first, const char *key, long long val)
{
	fprintf(fp, "%s\"%s\":%lld", *first ? "" : ",", key, val);
	*first = 0;
}

static void
json_gear(FILE *fp, int *first, const char *prefix, const struct combat_gear *g)
{
	char key[40];

	if (g->name == NULL)
		return;
	snprintf(key, sizeof key, "%s_mods", prefix);
	fprintf(fp, "%s\"%s\":[", *first ? "" : ",", key);
	for (int i = 0; i < ITEM_MOD_COUNT; i++)
		fprintf(fp, "%s%d", i ? "," : "", g->mod[i]);
	fputs("]", fp);
	*first = 0;
	snprintf(key, sizeof key, "%s_range", prefix);
	json_key_string(fp, first, key, item_range_name(g->range));
	snprintf(key, sizeof key, "%s_full_or", prefix);
	json_key_int(fp, first, key, g->full_or);
}

/* The list of an initiative, a flee's catches or a charge's distances. */
static void
json_list(FILE *fp, const struct combat_event *e)
{
	fputs(e->action == COMBAT_CHARGE ? "\"to\":[" : "\"draws\":[", fp);
	for (int i = 0; i < e->ninit; i++) {
		const struct combat_init *x = &e->init[i];

		fputs(i ? ",{\"name\":" : "{\"name\":", fp);
		out_json_string(fp, x->name);
		if (e->action == COMBAT_CHARGE) {
			fprintf(fp, ",\"feet\":%d}", x->in);
			continue;
		}
		fputs(",\"cards\":", fp);
		out_json_string(fp, x->cards ? x->cards : "");
		fprintf(fp, ",\"virt\":%d,\"in\":%d,\"total\":%d,"
		    "\"pos\":%d", x->virt, x->in, x->total, x->pos);
		if (x->ties) {
			fputs(",\"ties\":", fp);
			out_json_string(fp, x->ties);
			fputs(",\"ties_virt\":", fp);
			out_json_string(fp, x->ties_virt ? x->ties_virt : "");
		}
		putc('}', fp);
	}
	fputs("]", fp);
}

/* The event's detail: what has no column of its own, as JSON. */
static char *
detail_json(const struct combat_event *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	const struct combat_stats *s = &e->stats;
	int first = 1;

	if (fp == NULL)
		err(1, "out of memory");
	putc('{', fp);
	if (e->action == COMBAT_JOIN) {
		const char *names[] = { "OR", "DR", "MIND", "LIFE", "IN", "EM",
		    "LB" };
		const int v[] = { s->or_, s->dr, s->mind, s->life, s->in,
		    s->em, s->lb };

		for (int i = 0; i < 7; i++)
			if (v[i] < 0)
				fprintf(fp, "\"%s\":null,", names[i]);
			else
				fprintf(fp, "\"%s\":%d,", names[i], v[i]);
		fprintf(fp, "\"mod_offense\":%d,\"mod_defense\":%d,"
		    "\"mod_pick\":%d", s->mod_offense, s->mod_defense,
		    s->mod_pick);
		first = 0;
	} else if (e->action == COMBAT_INITIATIVE ||
	    (e->action == COMBAT_FLEE &&
	    e->ninit) || e->action == COMBAT_CHARGE) {
		json_list(fp, e);
		first = 0;
	} else if (e->action == COMBAT_START && (e->rules != COMBAT_RULES_CRS ||
	    e->lockout != COMBAT_LOCKOUT_SECS)) {
		json_key_string(fp, &first, "rules",
		    combat_rules_name(e->rules));
		json_key_int(fp, &first, "lockout", e->lockout);
	}
	json_gear(fp, &first, "item", &e->item);
	json_gear(fp, &first, "vs_item", &e->vs_item);
	if (e->power.name) {
		fprintf(fp, "%s\"power\":{\"em\":%d,\"picks\":%d,"
		    "\"bonus\":%d,\"target\":\"%s\",\"defend\":\"%s\"}",
		    first ? "" : ",", e->power.em, e->power.picks,
		    e->power.bonus, item_power_target_name(e->power.target),
		    item_power_defend_name(e->power.defend));
		first = 0;
	}
	json_key_string(fp, &first, "skills", e->skills);
	json_key_string(fp, &first, "vs_skills", e->vs_skills);
	json_key_string(fp, &first, "let", e->let);
	json_key_string(fp, &first, "melee_pick", e->melee_pick);
	if (e->melee_n)
		json_key_int(fp, &first, "melee_n", e->melee_n);
	json_key_string(fp, &first, "melee_drawn", e->melee_drawn);
	if (e->reactor) {
		fprintf(fp, "%s\"reaction\":{\"who\":", first ? "" : ",");
		out_json_string(fp, e->reactor);
		fprintf(fp, ",\"base\":%d,\"need\":%d,\"cards\":",
		    e->react_base, e->react_need);
		out_json_string(fp, e->react_cards ? e->react_cards : "");
		fprintf(fp, ",\"virt\":%d,\"total\":%d,\"fumble\":%d}",
		    e->react_virt, e->react_total, e->react_fumble);
		first = 0;
	}
	putc('}', fp);
	fclose(fp);
	return buf;
}

int
ledger_used_seed(const struct combat_event *e)
{
	if (e->action == COMBAT_ATTACK || e->action == COMBAT_MENTAL ||
	    e->action == COMBAT_POWER)
		return e->virt || (e->vs_virt && e->vs_cards != NULL) ||
		    (e->reactor && e->react_virt) || (e->melee_n > 0 &&
		    e->melee_pick == NULL);
	if (e->action == COMBAT_FLEE && (e->virt && !e->free))
		return 1;
	if (e->action == COMBAT_INITIATIVE || e->action == COMBAT_FLEE)
		for (int i = 0; i < e->ninit; i++)
			if (e->init[i].virt || (e->init[i].ties_virt &&
			    strchr(e->init[i].ties_virt, '1')))
				return 1;
	return 0;
}

void
ledger_append(struct db *db, int64_t id, struct combat_event *e)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT coalesce(max(seq), 0) + 1"
	    " FROM event WHERE combat_id = ?1");
	int strike = e->action == COMBAT_ATTACK || e->action == COMBAT_MENTAL ||
	    e->action == COMBAT_POWER || e->action == COMBAT_FLEE;
	char *detail, seed[24];

	sqlite3_bind_int64(st, 1, id);
	db_step(db, st, 0);
	e->seq = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	st = db_prepare(db, "INSERT INTO event (combat_id, seq, round,"
	    " action, actor, target, range, kind, use, mod, vs_mod, cards,"
	    " virt, vs_cards, vs_virt, special, base, vs_base, offense,"
	    " defense, hit, damage, life_before, life_after, fumble,"
	    " vs_fumble, undoes, agreed, detail, seed, gm, time, shares,"
	    " aimed, item, vs_item, power, em_spent, em_before, em_after,"
	    " feet, until, free, surprise, negated)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
	    " ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25,"
	    " ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34, ?35, ?36, ?37, ?38,"
	    " ?39, ?40, ?41, ?42, ?43, ?44, ?45)");
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, e->seq);
	sqlite3_bind_int(st, 3, e->round);
	sqlite3_bind_text(st, 4, combat_action_name(e->action), -1,
	    SQLITE_STATIC);
	db_bind_text_or_null(st, 5, e->actor);
	db_bind_text_or_null(st, 6, e->target);
	if (e->action == COMBAT_ATTACK)
		sqlite3_bind_text(st, 7, e->range == COMBAT_LONG ? "long" :
		    "short", -1, SQLITE_STATIC);
	if (e->action == COMBAT_MENTAL)
		sqlite3_bind_text(st, 8, combat_kind_name(e->kind), -1,
		    SQLITE_STATIC);
	if (strike) {
		if (e->use > 0)
			sqlite3_bind_int(st, 9, e->use);
		db_bind_text_or_null(st, 12, e->cards);
		db_bind_text_or_null(st, 14, e->vs_cards);
		if (e->special > 0)
			sqlite3_bind_text(st, 16, deck_face_name(e->special),
			    -1, SQLITE_STATIC);
		else if (e->special == 0)
			sqlite3_bind_text(st, 16, "", -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 17, e->base);
		sqlite3_bind_int(st, 19, e->offense);
		if (e->defense >= 0) {
			sqlite3_bind_int(st, 18, e->vs_base);
			sqlite3_bind_int(st, 20, e->defense);
		}
		sqlite3_bind_int(st, 21, e->hit);
		sqlite3_bind_int(st, 22, e->damage);
		if (e->life_after >= 0) {
			sqlite3_bind_int(st, 23, e->life_before);
			sqlite3_bind_int(st, 24, e->life_after);
		}
	}
	sqlite3_bind_int(st, 10, e->mod);
	sqlite3_bind_int(st, 11, e->vs_mod);
	sqlite3_bind_int(st, 13, e->virt);
	sqlite3_bind_int(st, 15, e->vs_virt);
	sqlite3_bind_int(st, 25, e->fumble);
	sqlite3_bind_int(st, 26, e->vs_fumble);
	if (e->action == COMBAT_UNDO)
		sqlite3_bind_int64(st, 27, e->undoes);
	sqlite3_bind_int(st, 28, e->agreed);
	detail = detail_json(e);
	sqlite3_bind_text(st, 29, detail, -1, SQLITE_TRANSIENT);
	free(detail);
	snprintf(seed, sizeof seed, "%" PRIu64, e->seed);
	if (ledger_used_seed(e))
		sqlite3_bind_text(st, 30, seed, -1, SQLITE_TRANSIENT);
	db_bind_text_or_null(st, 31, e->gm);
	sqlite3_bind_int64(st, 32, e->time);
	sqlite3_bind_int(st, 33, e->shares);
	db_bind_text_or_null(st, 34, e->aimed);
	db_bind_text_or_null(st, 35, e->item.name);
	db_bind_text_or_null(st, 36, e->vs_item.name);
	db_bind_text_or_null(st, 37, e->power.name);
	if (e->action == COMBAT_POWER) {
		sqlite3_bind_int(st, 38, e->em_spent);
		sqlite3_bind_int(st, 39, e->em_before);
		sqlite3_bind_int(st, 40, e->em_after);
	}
	if (e->action == COMBAT_RANGE)
		sqlite3_bind_int(st, 41, e->feet);
	if (e->action == COMBAT_FLEE && e->hit)
		sqlite3_bind_int64(st, 42, e->until);
	sqlite3_bind_int(st, 43, e->free);
	sqlite3_bind_int(st, 44, e->surprise);
	sqlite3_bind_int(st, 45, e->negated);
	db_step(db, st, 0);
	sqlite3_finalize(st);
}

/*
 * The queries crs-combat asks of the ledger: the rules that look across
 * combats (the flee lockout, being in another combat), the combats there
 * are, and each character's history.
 */

/* An event ev is undone when an undo event of its combat names it. */
#define LEDGER_Q_NOT_UNDONE(ev) \
	" NOT EXISTS (SELECT 1 FROM event u WHERE u.combat_id =" \
	"  " ev ".combat_id AND u.undoes = " ev ".seq)"

int64_t
ledger_newest(struct db *db)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT coalesce(max(id), 0)"
	    " FROM combat");
	int64_t id;

	db_step(db, st, 0);
	id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

int64_t
ledger_fled_until(struct db *db, const char *name, int64_t now,
    int64_t *combat)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT max(until), combat_id"
	    " FROM event ev WHERE actor = ?1 AND action = 'flee'"
	    " AND until > ?2 AND" LEDGER_Q_NOT_UNDONE("ev"));
	int64_t until = 0;

	*combat = 0;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, now);
	if (db_step(db, st, 0) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) != SQLITE_NULL) {
		until = sqlite3_column_int64(st, 0);
		*combat = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return until;
}

int64_t
ledger_fighting_elsewhere(struct db *db, const char *name, int64_t combat)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT ev.combat_id FROM event ev"
	    " WHERE ev.actor = ?1 AND ev.action = 'join'"
	    " AND ev.combat_id <> ?2 AND" LEDGER_Q_NOT_UNDONE("ev")
	    " AND NOT EXISTS (SELECT 1 FROM event x WHERE x.combat_id ="
	    "  ev.combat_id AND ((x.action = 'end') OR (x.action = 'flee'"
	    "  AND x.actor = ?1 AND x.hit = 1)) AND"
	    LEDGER_Q_NOT_UNDONE("x") ")");
	int64_t id = 0;

	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, combat);
	if (db_step(db, st, 0) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

int64_t *
ledger_combat_ids(struct db *db, size_t *n)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT id FROM combat ORDER BY id");
	int64_t *ids = NULL;

	*n = 0;
	while (db_step(db, st, 0) == SQLITE_ROW) {
		ids = xreallocarray(ids, *n + 1, sizeof *ids);
		ids[(*n)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	return ids;
}

/*
 * Per character: what it did (as actor) and what was done to it (as
 * target), leaving out undone events.  The two conditions pick the rows:
 * for one character they are "actor = ?1" and "target = ?1", so that only
 * that character's rows are read, through the actor and target indexes.
 */
#define LEDGER_HISTORY_SQL(actor_is, target_is) \
	"WITH d AS (" \
	" SELECT actor AS name, combat_id, damage AS dealt, 0 AS taken," \
	"  0 AS downed, fumble AS fumbles FROM event ev" \
	"  WHERE " actor_is " AND time >= ?2" \
	"  AND action IN ('join', 'attack', 'mental', 'power') AND" \
	LEDGER_Q_NOT_UNDONE("ev") \
	" UNION ALL" \
	" SELECT target, combat_id, 0, damage," \
	"  life_after = 0 AND life_before > 0, vs_fumble FROM event ev" \
	"  WHERE " target_is " AND time >= ?2" \
	"  AND action IN ('attack', 'mental', 'power') AND" \
	LEDGER_Q_NOT_UNDONE("ev") ")" \
	" SELECT name, count(DISTINCT combat_id), sum(coalesce(dealt, 0))," \
	"  sum(coalesce(taken, 0)), sum(coalesce(downed, 0))," \
	"  sum(coalesce(fumbles, 0)) FROM d GROUP BY name ORDER BY name"

int
ledger_history(struct db *db, const char *name, int64_t since,
    void (*fn)(void *, const struct ledger_history *), void *arg)
{
	sqlite3_stmt *st = db_prepare(db, name ?
	    LEDGER_HISTORY_SQL("actor = ?1", "target = ?1") :
	    LEDGER_HISTORY_SQL("actor IS NOT NULL", "target IS NOT NULL"));
	struct ledger_history h;
	int rows = 0;

	if (name)
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, since);
	while (db_step(db, st, 0) == SQLITE_ROW) {
		h.name = db_column_text(st, 0);
		h.combats = sqlite3_column_int64(st, 1);
		h.dealt = sqlite3_column_int64(st, 2);
		h.taken = sqlite3_column_int64(st, 3);
		h.downed = sqlite3_column_int64(st, 4);
		h.fumbles = sqlite3_column_int64(st, 5);
		fn(arg, &h);
		rows++;
	}
	sqlite3_finalize(st);
	return rows;
}

int64_t
ledger_count_combats(struct db *db, int64_t since)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT count(*) FROM combat"
	    " WHERE created >= ?1");
	int64_t n;

	sqlite3_bind_int64(st, 1, since);
	db_step(db, st, 0);
	n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

int
ledger_derive_each(const struct ledger *l, struct combat_state *s,
    void (*hook)(void *, const struct combat_state *, size_t), void *arg,
    int64_t *bad, char *why, size_t whysz)
{
	combat_state_init(s);
	for (size_t i = 0; i < l->n; i++) {
		struct combat_event in;
		int rc;

		if (hook)
			hook(arg, s, i);
		if (l->undone[i] || l->ev[i].action == COMBAT_UNDO)
			continue;
		ledger_inputs(&l->ev[i], &in);
		rc = combat_execute(s, &in, why, whysz);
		combat_event_release(&in);
		if (rc != 0) {
			*bad = l->ev[i].seq;
			return -1;
		}
	}
	return 0;
}

long
ledger_undoable(const struct ledger *l, int64_t seq, char *why, size_t whysz)
{
	size_t k = 0;

	for (size_t i = l->n; i-- > 0;) {
		const struct combat_event *x = &l->ev[i];

		if (seq ? x->seq != seq : (l->undone[i] ||
		    x->action == COMBAT_UNDO || x->action == COMBAT_START))
			continue;
		k = i + 1;
		break;
	}
	if (k == 0 && seq)
		snprintf(why, whysz, "combat %" PRId64 " has no event %" PRId64,
		    l->combat, seq);
	else if (k == 0)
		snprintf(why, whysz, "combat %" PRId64 " has nothing left to "
		    "undo", l->combat);
	else if (l->ev[k - 1].action == COMBAT_UNDO ||
	    l->ev[k - 1].action == COMBAT_START)
		snprintf(why, whysz, "event %" PRId64 " is %s, which cannot be "
		    "undone", l->ev[k - 1].seq, l->ev[k - 1].action ==
		    COMBAT_UNDO ? "an undo" : "the start");
	else if (l->undone[k - 1])
		snprintf(why, whysz, "event %" PRId64 " is already undone",
		    l->ev[k - 1].seq);
	else
		return (long)k - 1;
	return -1;
}
