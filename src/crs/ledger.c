/*
 * ledger.c - combats and events in SQL; see ledger.h.
 */
#include "crs/ledger.h"

#include "db/lookup.h"
#include "base/out.h"
#include "core/pack.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "crs/pack.h"

#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t
ledger_new_combat(struct db *db, const char *rules, int64_t now)
{
	struct db_stmt *st = db_prepare(db, "INSERT INTO combat (id, rules,"
	    " created) VALUES (" DB_NEW_KEY("combat") ", ?1, ?2) RETURNING id");
	int64_t id;

	db_bind_text(st, 1, rules);
	db_bind_int(st, 2, now);
	db_step(db, st, 0);
	id = db_column_int(st, 0);
	db_finalize(st);
	return id;
}

static char *
col_text(struct db_stmt *st, int c)
{
	const char *s = db_column_text(st, c);

	return s ? xstrdup(s) : NULL;
}

static int
col_int(struct db_stmt *st, int c, int dflt)
{
	return db_column_type(st, c) == DB_NULL ? dflt :
	    db_column_int(st, c);
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
	DETAIL("reaction.fumble") "," DETAIL("melee_n") "," DETAIL("melee_drawn") "," \
	DETAIL("ruling") "," DETAIL("adjust")
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
read_detail(struct db_stmt *st, int c, struct combat_event *e)
{
	const char *s;

	if ((s = db_column_text(st, c)) != NULL)
		e->rules = strcmp(s, "avatar") == 0 ? COMBAT_RULES_AVATAR :
		    COMBAT_RULES_CRS;
	if (db_column_type(st, c + 1) != DB_NULL)
		e->lockout = db_column_int(st, c + 1);
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
	e->ruling = col_text(st, c + 26);
	e->adjust = col_text(st, c + 27);
}

/* What reading a combat's events keeps for the whole load. */
struct reader {
	struct db	*db;
	struct ledger	*l;
	struct db_stmt *inits;		/* an initiative's draws */
};

/*
 * Reads the list in an event's detail: an initiative's draws, a flee's
 * catches or a charge's distances.
 */
static void
read_draws(struct reader *rd, const char *detail, struct combat_event *e)
{
	struct db_stmt *it = rd->inits;

	db_bind_text_copy(it, 1, detail);
	db_bind_text(it, 2, e->action == COMBAT_CHARGE ? "$.to" :
	    "$.draws");
	while (db_step(rd->db, it, 0) == DB_ROW) {
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
	db_reset(it);
}

/*
 * Reads one event row from column col on: the journal's read for the
 * combat kind.
 */
static void
read_event(void *ctx, struct db_stmt *st, int col, int64_t seq,
    int64_t undoes, void *body)
{
	struct reader *rd = ctx;
	struct combat_event *e = body;
	const char *s;
	int *stat[] = { &e->stats.or_, &e->stats.dr, &e->stats.mind,
	    &e->stats.life, &e->stats.in, &e->stats.em, &e->stats.lb,
	    &e->stats.mod_offense, &e->stats.mod_defense,
	    &e->stats.mod_pick };

	combat_event_init(e);
	e->seq = seq;
	e->round = db_column_int(st, col + 1);
	e->action = combat_action_lookup(db_column_text(st, col + 2));
	e->actor = col_text(st, col + 3);
	e->target = col_text(st, col + 4);
	s = db_column_text(st, col + 5);
	e->range = s && strcmp(s, "long") == 0 ? COMBAT_LONG : COMBAT_SHORT;
	s = db_column_text(st, col + 6);
	e->kind = s ? combat_kind_lookup(s) : COMBAT_KIND_ATTACK;
	e->use = col_int(st, col + 7, 0);
	e->mod = col_int(st, col + 8, 0);
	e->vs_mod = col_int(st, col + 9, 0);
	e->cards = col_text(st, col + 10);
	e->virt = col_int(st, col + 11, 0);
	e->vs_cards = col_text(st, col + 12);
	e->vs_virt = col_int(st, col + 13, 0);
	s = db_column_text(st, col + 14);
	if (s == NULL)
		e->special = -1;
	else {
		int f;
		char why[100];

		e->special = *s && deck_parse_list(s, &f, 1, why,
		    sizeof why) == 1 ? f : 0;
	}
	e->base = col_int(st, col + 15, 0);
	e->vs_base = col_int(st, col + 16, 0);
	e->offense = col_int(st, col + 17, 0);
	e->defense = col_int(st, col + 18, -1);
	e->hit = col_int(st, col + 19, 0);
	e->damage = col_int(st, col + 20, 0);
	e->life_before = col_int(st, col + 21, -1);
	e->life_after = col_int(st, col + 22, -1);
	e->fumble = col_int(st, col + 23, 0);
	e->vs_fumble = col_int(st, col + 24, 0);
	e->undoes = undoes;
	e->agreed = col_int(st, col + 26, 0);
	if ((s = db_column_text(st, col + 27)) != NULL)
		e->seed = strtoull(s, NULL, 10);
	e->gm = col_text(st, col + 28);
	e->time = db_column_int(st, col + 29);
	e->shares = col_int(st, col + 30, 0);
	for (int i = 0; i < 10; i++)
		*stat[i] = col_int(st, col + 31 + i, i < 7 ? -1 : 0);
	e->aimed = col_text(st, col + 42);
	e->item.name = col_text(st, col + 43);
	e->vs_item.name = col_text(st, col + 44);
	e->power.name = col_text(st, col + 45);
	e->em_spent = col_int(st, col + 46, 0);
	e->em_before = col_int(st, col + 47, -1);
	e->em_after = col_int(st, col + 48, -1);
	e->feet = col_int(st, col + 49, 0);
	e->until = db_column_int(st, col + 50);
	e->free = col_int(st, col + 51, 0);
	e->surprise = col_int(st, col + 52, 0);
	e->negated = col_int(st, col + 53, 0);
	/* Most events have no detail: their defaults stand. */
	if (strcmp(db_column_json(st, col + 41), "{}") != 0)
		read_detail(st, col + COL_DETAIL, e);
	if (e->action == COMBAT_INITIATIVE || e->action == COMBAT_FLEE ||
	    e->action == COMBAT_CHARGE)
		read_draws(rd, db_column_json(st, col + 41), e);
	/* An adjust is stored as a stance with its changes (event_bind). */
	if (e->action == COMBAT_STANCE && e->adjust != NULL)
		e->action = COMBAT_ADJUST;
}

/*
 * Snapshots: after every LEDGER_SNAP_EVERY-th event, of the byte form
 * COMBAT_PACK_FORMAT and of these sources (JOURNAL_SNAP_VERSION).
 */
#define LEDGER_SNAP_EVERY	16
#define LEDGER_SNAP_VERSION	JOURNAL_SNAP_VERSION(COMBAT_PACK_FORMAT)

/* How ledger_load_at loads: from a snapshot before a seq, or all. */
#define LOAD_ALL	(-1)

/*
 * Loads combat id into l: every event (before LOAD_ALL), or those after
 * the newest snapshot usable before seq before (0: any).  A snapshot
 * that does not read back is passed over for all the events.
 */
static int
ledger_load_at(struct db *db, int64_t id, int64_t before, struct ledger *l)
{
	struct reader rd = { .db = db, .l = l };
	int rc;

	memset(l, 0, sizeof *l);
	l->combat = id;
	db_key_text(db, id, l->key);
	rd.inits = db_prepare_local(db, "SELECT json_extract(value, '$.name'),"
	    " json_extract(value, '$.cards'), json_extract(value, '$.virt'),"
	    " json_extract(value, '$.ties'),"
	    " json_extract(value, '$.ties_virt'),"
	    " coalesce(json_extract(value, '$.in'),"
	    " json_extract(value, '$.feet')), json_extract(value, '$.total'),"
	    " json_extract(value, '$.pos') FROM json_each(?1, ?2)");
	if (before == LOAD_ALL)
		rc = journal_load(db, &ledger_kind, id, &rd, &l->j);
	else
		rc = journal_load_recent(db, &ledger_kind, id, before, &rd,
		    &l->j);
	/* A combat picked ahead (DB_PICKED) is known now. */
	if (rc == 0 && id != l->j.log) {
		id = l->combat = l->j.log;
		db_key_text(db, id, l->key);
	}
	if (rc == 0 && l->j.snap != NULL) {
		struct combat_state *s = xmalloc(sizeof *s);

		if (combat_unpack(l->j.snap, l->j.snaplen, s) != 0) {
			journal_release(&l->j);
			free(l->rules);
			l->rules = NULL;
			rc = journal_load(db, &ledger_kind, id, &rd, &l->j);
		} else
			combat_state_release(s);
		free(s);
	}
	db_finalize(rd.inits);
	l->n = l->j.n;
	l->ev = l->j.body;
	l->undone = l->j.undone;
	return rc;
}

int
ledger_load(struct db *db, int64_t id, struct ledger *l)
{
	return ledger_load_at(db, id, 0, l);
}

int
ledger_load_before(struct db *db, int64_t id, int64_t before,
    struct ledger *l)
{
	return ledger_load_at(db, id, before > 0 || before == DB_PICKED_BEFORE ?
	    before : 1, l);
}

int
ledger_load_all(struct db *db, int64_t id, struct ledger *l)
{
	struct db_stmt *snaps;
	int rc;

	/* Asked with the load's questions, under the log's lock. */
	db_lock_log(db, ledger_kind.what, id);
	snaps = journal_snapshots_ask(db, &ledger_kind, id);
	if ((rc = ledger_load_at(db, id, LOAD_ALL, l)) != 0) {
		db_finalize(snaps);
		return rc;
	}
	l->snaps = journal_snapshots_take(db, snaps, &l->nsnaps);
	return 0;
}

int64_t
ledger_undo_target(struct db *db, int64_t id)
{
	return journal_undo_target(db, &ledger_kind, id);
}

void
ledger_release(struct ledger *l)
{
	journal_snapshots_free(l->snaps, l->nsnaps);
	journal_release(&l->j);
	free(l->rules);
	free(l->gm);
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
	in->ruling = dup_or_null(r->ruling);
	in->adjust = dup_or_null(r->adjust);
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

/* What a combat's derivation carries: the state and the caller's hook. */
struct replay {
	struct combat_state	*s;
	void			(*hook)(void *, const struct combat_state *,
				    size_t);
	void			*arg;
};

/* One event's inputs executed again on the state. */
static int
replay_one(void *arg, const void *body, char *why, size_t whysz)
{
	struct replay *rp = arg;
	struct combat_event in;
	int rc;

	ledger_inputs(body, &in);
	rc = combat_execute(rp->s, &in, why, whysz);
	combat_event_release(&in);
	return rc;
}

static void
replay_before(void *arg, size_t i)
{
	struct replay *rp = arg;

	rp->hook(rp->arg, rp->s, i);
}

int
ledger_derive_each(const struct ledger *l, struct combat_state *s,
    void (*hook)(void *, const struct combat_state *, size_t), void *arg,
    int64_t *bad, char *why, size_t whysz)
{
	/* The caller may have cut the log short or marked more undone. */
	struct journal view = l->j;
	struct replay rp = { .s = s, .hook = hook, .arg = arg };

	view.n = l->n;
	view.undone = l->undone;
	/* From the snapshot, which ledger_load_at has read back once. */
	if (l->j.snap == NULL ||
	    combat_unpack(l->j.snap, l->j.snaplen, s) != 0)
		combat_state_init(s);
	return journal_derive_each(&view, replay_one, hook ? replay_before :
	    NULL, &rp, bad, why, whysz);
}

int
ledger_derive(const struct ledger *l, struct combat_state *s, int64_t *bad,
    char *why, size_t whysz)
{
	return ledger_derive_each(l, s, NULL, NULL, bad, why, whysz);
}

/* What an audit carries from one event to the next. */
struct audit {
	struct combat_state	 s;
	void			(*bad)(void *, int64_t, int, const char *);
	void			*arg;
	int			 nbad;
	const struct ledger	*l;
	size_t			 snap;		/* the next to compare */
};

/*
 * Compares the snapshots up to seq upto (INT64_MAX: all the rest) with
 * the state the replay has reached, which is the state after each of
 * them: none of the events between changed it.
 */
static void
audit_snapshots(struct audit *a, int64_t upto, int64_t last)
{
	const struct ledger *l = a->l;

	for (; a->snap < l->nsnaps && l->snaps[a->snap].seq < upto;
	    a->snap++) {
		const struct journal_snapshot *x = &l->snaps[a->snap];
		struct pack p = { 0 };

		combat_pack(&a->s, &p);
		if (x->seq > last)
			a->bad(a->arg, x->seq, 1, "a snapshot after the last "
			    "event");
		else if (p.len != x->len || memcmp(p.buf, x->state, p.len) != 0)
			a->bad(a->arg, x->seq, 1, "the snapshot of the state "
			    "after it disagrees with the replay");
		else {
			free(p.buf);
			continue;
		}
		free(p.buf);
		a->nbad++;
	}
}

static void
audit_before(void *arg, size_t i)
{
	struct audit *a = arg;

	audit_snapshots(a, a->l->j.seq[i], INT64_MAX);
}

/* Runs one event again and compares; never stops the derive. */
static int
audit_one(void *arg, const void *body, char *why, size_t whysz)
{
	struct audit *a = arg;
	const struct combat_event *rec = body;
	struct combat_event in;
	int ran = 1;

	ledger_inputs(rec, &in);
	if (combat_execute(&a->s, &in, why, whysz) != 0)
		ran = 0;
	if (!ran || ledger_same(rec, &in, why, whysz) != 0) {
		a->bad(a->arg, rec->seq, ran, why);
		a->nbad++;
	}
	combat_event_release(&in);
	return 0;
}

int
ledger_audit(const struct ledger *l,
    void (*bad)(void *, int64_t seq, int ran, const char *why), void *arg)
{
	struct audit a = { .bad = bad, .arg = arg, .l = l };
	struct journal view = l->j;
	int64_t none;
	char why[300];

	view.n = l->n;
	view.undone = l->undone;
	combat_state_init(&a.s);
	journal_derive_each(&view, audit_one, audit_before, &a, &none, why,
	    sizeof why);
	audit_snapshots(&a, INT64_MAX, l->n ? l->j.seq[l->n - 1] : 0);
	combat_state_release(&a.s);
	return a.nbad;
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
	if (r->action == COMBAT_ADJUST) {
		DIFF_INT(life_before, "LIFE before");
		DIFF_INT(life_after, "LIFE after");
		DIFF_INT(em_before, "EM before");
		DIFF_INT(em_after, "EM after");
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
	struct strbuf b = STRBUF_INIT;
	FILE *fp = strbuf_stream(&b);
	const struct combat_stats *s = &e->stats;
	int first = 1;

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
	json_key_string(fp, &first, "ruling", e->ruling);
	json_key_string(fp, &first, "adjust", e->adjust);
	putc('}', fp);
	return strbuf_detach(&b, NULL);
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

/*
 * The combat kind's columns after the journal's (combat_id, seq,
 * undoes), in the order event_bind binds them: P(0) is round.
 */
#define EVENT_INS \
	"round, action, actor, target, range, kind, use, mod, vs_mod, cards," \
	" virt, vs_cards, vs_virt, special, base, vs_base, offense, defense," \
	" hit, damage, life_before, life_after, fumble, vs_fumble, agreed," \
	" detail, seed, gm, time, shares, aimed, item, vs_item, power," \
	" em_spent, em_before, em_after, feet, until, free, surprise, negated"
#define EVENT_NINS	42
#define P(k)	(param + (k))

/* A strike's columns: the cards, both sides' figures and the outcome. */
static void
bind_strike(struct db_stmt *st, int param, const struct combat_event *e)
{
	if (e->use > 0)
		db_bind_int(st, P(6), e->use);
	db_bind_text_copy(st, P(9), e->cards);
	db_bind_text_copy(st, P(11), e->vs_cards);
	if (e->special > 0)
		db_bind_text(st, P(13), deck_face_name(e->special));
	else if (e->special == 0)
		db_bind_text(st, P(13), "");
	db_bind_int(st, P(14), e->base);
	db_bind_int(st, P(16), e->offense);
	if (e->defense >= 0) {
		db_bind_int(st, P(15), e->vs_base);
		db_bind_int(st, P(17), e->defense);
	}
	db_bind_int(st, P(18), e->hit);
	db_bind_int(st, P(19), e->damage);
	if (e->life_after >= 0) {
		db_bind_int(st, P(20), e->life_before);
		db_bind_int(st, P(21), e->life_after);
	}
}

/* Binds event e: the journal's bind for the combat kind. */
static void
event_bind(struct db_stmt *st, int param, const void *body)
{
	const struct combat_event *e = body;
	int strike = e->action == COMBAT_ATTACK || e->action == COMBAT_MENTAL ||
	    e->action == COMBAT_POWER || e->action == COMBAT_FLEE;
	char *detail, seed[24];

	db_bind_int(st, P(0), e->round);
	/*
	 * An adjust is written as a stance that carries its changes in
	 * detail: the action column's CHECK lists the actions of schema 12,
	 * and a server's table cannot be rebuilt to widen it (refkit.db(5)).
	 */
	db_bind_text(st, P(1), combat_action_name(e->action ==
	    COMBAT_ADJUST ? COMBAT_STANCE : e->action));
	db_bind_text_copy(st, P(2), e->actor);
	db_bind_text_copy(st, P(3), e->target);
	if (e->action == COMBAT_ATTACK)
		db_bind_text(st, P(4), e->range == COMBAT_LONG ? "long" :
		    "short");
	if (e->action == COMBAT_MENTAL)
		db_bind_text(st, P(5), combat_kind_name(e->kind));
	if (strike)
		bind_strike(st, param, e);
	db_bind_int(st, P(7), e->mod);
	db_bind_int(st, P(8), e->vs_mod);
	db_bind_int(st, P(10), e->virt);
	db_bind_int(st, P(12), e->vs_virt);
	db_bind_int(st, P(22), e->fumble);
	db_bind_int(st, P(23), e->vs_fumble);
	db_bind_int(st, P(24), e->agreed);
	detail = detail_json(e);
	db_bind_text_copy(st, P(25), detail);
	free(detail);
	snprintf(seed, sizeof seed, "%" PRIu64, e->seed);
	if (ledger_used_seed(e))
		db_bind_text_copy(st, P(26), seed);
	db_bind_text_copy(st, P(27), e->gm);
	db_bind_int(st, P(28), e->time);
	db_bind_int(st, P(29), e->shares);
	db_bind_text_copy(st, P(30), e->aimed);
	db_bind_text_copy(st, P(31), e->item.name);
	db_bind_text_copy(st, P(32), e->vs_item.name);
	db_bind_text_copy(st, P(33), e->power.name);
	if (e->action == COMBAT_ADJUST) {
		db_bind_int(st, P(20), e->life_before);
		db_bind_int(st, P(21), e->life_after);
		if (e->em_after >= 0) {
			db_bind_int(st, P(35), e->em_before);
			db_bind_int(st, P(36), e->em_after);
		}
	}
	if (e->action == COMBAT_POWER) {
		db_bind_int(st, P(34), e->em_spent);
		db_bind_int(st, P(35), e->em_before);
		db_bind_int(st, P(36), e->em_after);
	}
	if (e->action == COMBAT_RANGE)
		db_bind_int(st, P(37), e->feet);
	if (e->action == COMBAT_FLEE && e->hit)
		db_bind_int(st, P(38), e->until);
	db_bind_int(st, P(39), e->free);
	db_bind_int(st, P(40), e->surprise);
	db_bind_int(st, P(41), e->negated);
}
#undef P

/* The combat's row. */
static void
combat_head(void *ctx, struct db_stmt *st)
{
	struct reader *rd = ctx;

	rd->l->rules = col_text(st, 0);
	rd->l->gm = col_text(st, 1);
}

static void
event_release(void *body)
{
	combat_event_release(body);
}

/* The parameters of EVENT_INS. */
#define Q6	"?, ?, ?, ?, ?, ?"
#define Q	Q6 ", " Q6 ", " Q6 ", " Q6 ", " Q6 ", " Q6 ", " Q6

/* A WHERE term: combat c (an expression) has not ended. */
#define OPEN_COMBAT(c) \
	" NOT EXISTS (SELECT 1 FROM event x_ WHERE x_.combat_id = " c \
	" AND x_.action = 'end' AND" JOURNAL_LIVE("event", "combat_id", \
	"x_") ")"

/* The kind's merged: the histories added up again (ledger.h). */
static void
ledger_merged(struct db *db, const int64_t *combats, size_t n)
{
	if (combats == NULL)
		ledger_history_rebuild_all(db);
	else
		ledger_history_rebuild(db, combats, n);
}

/* The kind's replay (core/journal.h): the combat loaded and audited. */
static int
ledger_replay(struct db *db, int64_t id, void (*bad)(void *, int64_t, int,
    const char *), void *arg)
{
	struct ledger l;
	int n;

	if (ledger_load_all(db, id, &l) != 0)
		return -1;
	n = ledger_audit(&l, bad, arg);
	ledger_release(&l);
	return n;
}

/* What an append reads that the load can ask for: the open seal. */
static void
ask_ahead(struct db *db, int64_t id)
{
	(void)id;
	seal_ask(db);
}

const struct journal_kind ledger_kind = {
	.what = "combat",
	.option = "--combat",
	.sql_open = "SELECT c.id, (SELECT max(m.id) FROM event m WHERE"
	    " m.combat_id = c.id AND m.gm = ?1), (SELECT f.gm FROM event f"
	    " WHERE f.combat_id = c.id AND f.seq = 1), l.round,"
	    /* An adjust is stored as a stance (event_bind). */
	    " CASE WHEN l.action = 'stance' AND l.detail <> '{}' AND"
	    " json_extract(l.detail, '$.adjust') IS NOT NULL THEN 'adjust'"
	    " ELSE l.action END, l.actor, (SELECT group_concat(j.actor, ', ') FROM (SELECT"
	    " e.actor FROM event e WHERE e.combat_id = c.id AND e.action ="
	    " 'join' AND e.actor IS NOT NULL AND" JOURNAL_LIVE("event",
	    "combat_id", "e") " ORDER BY e.seq) AS j) FROM combat c JOIN"
	    " event l ON l.combat_id = c.id AND l.seq = (SELECT max(s.seq)"
	    " FROM event s WHERE s.combat_id = c.id) WHERE"
	    OPEN_COMBAT("c.id") " ORDER BY c.id",
	.sql_last_mine = "SELECT combat_id FROM event WHERE gm = ?1"
	    " ORDER BY id DESC LIMIT 1",
	.sql_gm = "SELECT gm FROM event WHERE combat_id = ?1 AND seq = 1",
	JOURNAL_SQL("combat", "event", "combat_id", "rules, (SELECT f.gm FROM"
	    " event f WHERE f.combat_id = combat.id AND f.seq = 1)", EVENT_COLS,
	    EVENT_INS, Q),
	.ncols = EVENT_NINS,
	.size = sizeof(struct combat_event),
	.read = read_event,
	.bind = event_bind,
	.release = event_release,
	.head = combat_head,
	.snap_every = LEDGER_SNAP_EVERY,
	.snap_version = LEDGER_SNAP_VERSION,
	.merge_table = "event",
	.merge_rows = "SELECT DISTINCT combat_id FROM event"
	    " WHERE id BETWEEN ?1 AND ?2",
	.merged = ledger_merged,
	.clashes = ledger_double_booked,
	.replay = ledger_replay,
	.ask = ask_ahead,
};

#undef Q
#undef Q6

/*
 * The histories (history_combat and history in schema.sql) hold what
 * ledger_history adds up, so that it need not read the events.  They
 * change here only, in the transaction that appends an event: a new event
 * adds its share for its actor and its target, and an undo takes away the
 * share its event added.
 */

/*
 * The share of event ?2 of combat ?1 in the histories: a row for its
 * actor and one for its target, where the event counts for them, with
 * dealt, taken, downed, fumbles and the time.  These are the terms of
 * LEDGER_HISTORY_SQL below, and of the backfill in schema.sql.
 */
/* 1 for an event that took its target down, else 0 (an integer on
 * every backend, where a comparison is a boolean on PostgreSQL). */
#define EV_DOWNED \
	"(CASE WHEN life_after = 0 AND life_before > 0 THEN 1 ELSE 0 END)"

#define HISTORY_SHARE \
	"SELECT actor AS name, damage AS dealt, 0 AS taken, 0 AS downed," \
	" fumble AS fumbles, time AS t FROM event" \
	" WHERE combat_id = ?1 AND seq = ?2 AND actor IS NOT NULL" \
	" AND action IN ('join', 'attack', 'mental', 'power')" \
	" UNION ALL" \
	" SELECT target, 0, damage, " EV_DOWNED "," \
	" vs_fumble, time FROM event" \
	" WHERE combat_id = ?1 AND seq = ?2 AND target IS NOT NULL" \
	" AND action IN ('attack', 'mental', 'power')"

/*
 * Event seq's shares of combat id, by fighter (one who is both actor and
 * target has two), unless an undo names the event already (which only a
 * ledger written by hand can hold).
 */
#define HISTORY_SUMS_IF(undos) \
	"SELECT name, count(*) AS n, coalesce(sum(dealt), 0) AS dealt," \
	" coalesce(sum(taken), 0) AS taken, coalesce(sum(downed), 0) AS downed," \
	" coalesce(sum(fumbles), 0) AS fumbles, min(t) AS t" \
	" FROM (" HISTORY_SHARE ") AS s WHERE (SELECT count(*) FROM event" \
	" WHERE combat_id = ?1 AND undoes = ?2) = " undos " GROUP BY name"
#define HISTORY_SUMS	HISTORY_SUMS_IF("0")
/* The same for the undo just written: the event counts until it. */
#define HISTORY_UNDONE	HISTORY_SUMS_IF("1")

/* The fighters whose share of combat ?1 was the undone event alone. */
#define UNDONE_ALONE \
	"SELECT s.name FROM (" HISTORY_UNDONE ") AS s JOIN history_combat c" \
	" ON c.name = s.name AND c.combat_id = ?1 WHERE c.events = s.n"

/*
 * The histories' statements, each of ?1 combat id and ?2 event seq, none
 * reading anything back (no round trip of their own on a server).
 *
 * ADD_EVENT, two: event seq's shares added, first to each fighter's
 * whole history, one combat more where the fighter had no share in this
 * combat yet; then to the fighter's share of this combat.  (The CHECKs
 * hold for the row an upsert would insert: it inserts one combat, and
 * the update adds one or none.)
 *
 * TAKE_BACK, four: event seq taken out, the undo that names it just
 * written (unless an undo before it did): a fighter's whole history
 * first, which loses this combat where the fighter's share of it was
 * this event alone (and goes with its last combat); then the share of
 * this combat, which goes with its last event.  The CHECKs hold
 * throughout.
 */
#define ADD_EVENT	0
#define ADD_EVENT_N	2
#define TAKE_BACK	2
#define TAKE_BACK_N	4
static const char *const history_sql[] = {
	"INSERT INTO history AS h (name, combats, dealt,"
	" taken, downed, fumbles, first_time) SELECT name, 1, dealt, taken,"
	" downed, fumbles, t FROM (" HISTORY_SUMS ") AS x WHERE true"
	" ON CONFLICT (name) DO UPDATE SET"
	" combats = h.combats + CASE WHEN EXISTS (SELECT 1 FROM"
	" history_combat c WHERE c.name = excluded.name AND"
	" c.combat_id = ?1) THEN 0 ELSE 1 END,"
	" dealt = h.dealt + excluded.dealt,"
	" taken = h.taken + excluded.taken,"
	" downed = h.downed + excluded.downed,"
	" fumbles = h.fumbles + excluded.fumbles,"
	" first_time = min(h.first_time, excluded.first_time)",
	"INSERT INTO history_combat AS h (name, events,"
	" dealt, taken, downed, fumbles, combat_id, first_time,"
	" last_time) SELECT name, n, dealt, taken, downed, fumbles, ?1, t,"
	" t FROM (" HISTORY_SUMS ") AS x WHERE true"
	" ON CONFLICT (name, combat_id) DO UPDATE SET"
	" events = h.events + excluded.events,"
	" dealt = h.dealt + excluded.dealt,"
	" taken = h.taken + excluded.taken,"
	" downed = h.downed + excluded.downed,"
	" fumbles = h.fumbles + excluded.fumbles,"
	" first_time = min(h.first_time, excluded.first_time),"
	" last_time = max(h.last_time, excluded.last_time)",
	"DELETE FROM history WHERE combats = 1 AND name IN (" UNDONE_ALONE ")",
	"UPDATE history AS h SET"
	" combats = h.combats - CASE WHEN c.events = s.n THEN 1 ELSE 0 END,"
	" dealt = h.dealt - s.dealt, taken = h.taken - s.taken,"
	" downed = h.downed - s.downed, fumbles = h.fumbles - s.fumbles"
	" FROM (" HISTORY_UNDONE ") AS s JOIN history_combat c"
	" ON c.name = s.name AND c.combat_id = ?1 WHERE h.name = s.name",
	"DELETE FROM history_combat WHERE combat_id = ?1 AND name IN ("
	UNDONE_ALONE ")",
	"UPDATE history_combat AS c SET events = c.events - s.n,"
	" dealt = c.dealt - s.dealt, taken = c.taken - s.taken,"
	" downed = c.downed - s.downed, fumbles = c.fumbles - s.fumbles"
	" FROM (" HISTORY_UNDONE ") AS s"
	" WHERE c.name = s.name AND c.combat_id = ?1"
};

/* Runs history_sql's n statements from first for event seq of combat id. */
static void
history_run(struct db *db, int first, int n, int64_t id, int64_t seq)
{
	for (int i = 0; i < n; i++) {
		struct db_stmt *st = db_prepare(db, history_sql[first + i]);

		db_bind_int(st, 1, id);
		db_bind_int(st, 2, seq);
		db_send(db, st);
		db_finalize(st);
	}
}

void
ledger_record(struct db *db, int64_t id, struct combat_event *e,
    const struct combat_state *after)
{
	struct pack p = { 0 };

	ledger_append(db, id, e);
	if (!journal_snapshot_due(&ledger_kind, e->seq))
		return;
	combat_pack(after, &p);
	journal_snapshot_put(db, &ledger_kind, id, e->seq, p.buf, p.len);
	free(p.buf);
}

void
ledger_append(struct db *db, int64_t id, struct combat_event *e)
{
	e->seq = journal_append(db, &ledger_kind, id,
	    e->action == COMBAT_UNDO ? e->undoes : 0, e);
	if (e->action == COMBAT_UNDO)
		history_run(db, TAKE_BACK, TAKE_BACK_N, id, e->undoes);
	else
		history_run(db, ADD_EVENT, ADD_EVENT_N, id, e->seq);
}

/*
 * The queries crs-combat asks of the ledger: the rules that look across
 * combats (the flee lockout, being in another combat), the combats there
 * are, and each character's history.
 */

void
ledger_fighters(struct db *db, int64_t id, void (*fn)(void *, const char *),
    void *arg)
{
	struct db_stmt *st = db_prepare(db, "SELECT DISTINCT e.actor FROM"
	    " event e WHERE e.combat_id = ?1 AND e.action = 'join' AND"
	    " e.actor IS NOT NULL AND" JOURNAL_LIVE("event", "combat_id", "e"));

	db_bind_int(st, 1, id);
	db_each_text(db, st, fn, arg);
}

int64_t
ledger_newest(struct db *db)
{
	/* This station's newest; failing that, the newest received. */
	struct db_stmt *st = db_prepare(db, "SELECT coalesce((SELECT max(id)"
	    " FROM combat WHERE " DB_OWN_KEY("id") "), (SELECT id FROM combat"
	    " ORDER BY created DESC, id DESC LIMIT 1), 0)");
	int64_t id;

	db_step(db, st, 0);
	id = db_column_int(st, 0);
	db_finalize(st);
	return id;
}

int64_t
ledger_fled_until(struct db *db, const char *name, int64_t now,
    int64_t *combat)
{
	struct db_stmt *st = db_prepare(db, "SELECT until, combat_id"
	    " FROM event ev WHERE actor = ?1 AND action = 'flee'"
	    " AND until > ?2 AND" JOURNAL_LIVE("event", "combat_id", "ev")
	    " ORDER BY until DESC LIMIT 1");
	int64_t until = 0;

	*combat = 0;
	db_bind_text(st, 1, name);
	db_bind_int(st, 2, now);
	if (db_step(db, st, 0) == DB_ROW &&
	    db_column_type(st, 0) != DB_NULL) {
		until = db_column_int(st, 0);
		*combat = db_column_int(st, 1);
	}
	db_finalize(st);
	return until;
}

int64_t
ledger_fighting_elsewhere(struct db *db, const char *name, int64_t combat)
{
	struct db_stmt *st = db_prepare(db, "SELECT ev.combat_id FROM event ev"
	    " WHERE ev.actor = ?1 AND ev.action = 'join'"
	    " AND ev.combat_id <> ?2 AND"
	    JOURNAL_LIVE("event", "combat_id", "ev")
	    " AND NOT EXISTS (SELECT 1 FROM event x WHERE x.combat_id ="
	    "  ev.combat_id AND ((x.action = 'end') OR (x.action = 'flee'"
	    "  AND x.actor = ?1 AND x.hit = 1)) AND"
	    JOURNAL_LIVE("event", "combat_id", "x") ")");
	int64_t id = 0;

	db_bind_text(st, 1, name);
	db_bind_int(st, 2, combat);
	if (db_step(db, st, 0) == DB_ROW)
		id = db_column_int(st, 0);
	db_finalize(st);
	return id;
}

int
ledger_double_booked(struct db *db, void (*fn)(void *, const char *,
    int64_t, int64_t), void *arg)
{
	/* A join still in force: its combat not ended, no flee got away. */
#define IN_FORCE(e) \
	e ".action = 'join' AND" JOURNAL_LIVE("event", "combat_id", e) \
	" AND NOT EXISTS (SELECT 1 FROM event x WHERE x.combat_id =" \
	" " e ".combat_id AND (x.action = 'end' OR (x.action IN ('flee'," \
	" 'dead') AND x.actor = " e ".actor AND (x.action = 'dead' OR" \
	" x.hit = 1))) AND" JOURNAL_LIVE("event", "combat_id", "x") ")"
	struct db_stmt *st = db_prepare(db, "SELECT DISTINCT a.actor,"
	    " a.combat_id, b.combat_id FROM event a JOIN event b"
	    " ON b.actor = a.actor AND b.combat_id > a.combat_id"
	    " WHERE " IN_FORCE("a") " AND " IN_FORCE("b")
	    " ORDER BY a.actor, a.combat_id, b.combat_id");
#undef IN_FORCE
	int n = 0;

	while (db_step(db, st, 0) == DB_ROW) {
		fn(arg, db_column_text(st, 0), db_column_int(st, 1),
		    db_column_int(st, 2));
		n++;
	}
	db_finalize(st);
	return n;
}

/* The ids one query gives, as an array the caller frees; *n of them. */
static int64_t *
ids_of(struct db *db, const char *sql, size_t *n)
{
	struct db_stmt *st = db_prepare(db, sql);
	int64_t *ids = NULL;

	*n = 0;
	while (db_step(db, st, 0) == DB_ROW) {
		ids = xreallocarray(ids, *n + 1, sizeof *ids);
		ids[(*n)++] = db_column_int(st, 0);
	}
	db_finalize(st);
	return ids;
}

/*
 * Adding up the histories of some combats again, from their events: one
 * combat at a time, so that what SQLite sorts is one combat's events,
 * however many combats a merge brought.  temp.rebuild_n gathers the
 * names in them, before and after, whose totals are then summed anew.
 */
enum { RB_NAMES, RB_DROP, RB_ADD, RB_N };
static const char *const rebuild_combat_sql[RB_N] = {
	[RB_NAMES] = "INSERT OR IGNORE INTO temp.rebuild_n"
	" SELECT name FROM history_combat WHERE combat_id = ?1",
	[RB_DROP] = "DELETE FROM history_combat WHERE combat_id = ?1",
	[RB_ADD] = "INSERT INTO history_combat (name, combat_id, events,"
	" dealt, taken, downed, fumbles, first_time, last_time)"
	" WITH d AS ("
	"  SELECT actor AS name, combat_id, damage AS dealt, 0 AS taken,"
	"  0 AS downed, fumble AS fumbles, time FROM event ev"
	"  WHERE combat_id = ?1 AND actor IS NOT NULL"
	"  AND action IN ('join', 'attack', 'mental', 'power') AND"
	JOURNAL_LIVE("event", "combat_id", "ev")
	"  UNION ALL"
	"  SELECT target, combat_id, 0, damage,"
	"  " EV_DOWNED ", vs_fumble, time FROM event ev"
	"  WHERE combat_id = ?1 AND target IS NOT NULL"
	"  AND action IN ('attack', 'mental', 'power') AND"
	JOURNAL_LIVE("event", "combat_id", "ev") ")"
	" SELECT name, combat_id, count(*), sum(coalesce(dealt, 0)),"
	" sum(coalesce(taken, 0)), sum(coalesce(downed, 0)),"
	" sum(coalesce(fumbles, 0)), min(time), max(time)"
	" FROM d GROUP BY name, combat_id"
};

static const char rebuild_totals_sql[] =
	"DELETE FROM history WHERE name IN (SELECT name FROM temp.rebuild_n);"
	"INSERT INTO history (name, combats, dealt, taken, downed, fumbles,"
	" first_time)"
	" SELECT name, count(*), sum(dealt), sum(taken), sum(downed),"
	" sum(fumbles), min(first_time) FROM history_combat"
	" WHERE name IN (SELECT name FROM temp.rebuild_n) GROUP BY name;"
	"DROP TABLE temp.rebuild_n;";

void
ledger_history_rebuild(struct db *db, const int64_t *combats, size_t n)
{
	/* Names gathered before the combat's rows go, and after. */
	static const int steps[] = { RB_NAMES, RB_DROP, RB_ADD, RB_NAMES };
	struct db_stmt *st[RB_N];

	if (n == 0)
		return;
	db_exec(db, "CREATE TEMP TABLE IF NOT EXISTS rebuild_n"
	    " (name TEXT PRIMARY KEY); DELETE FROM temp.rebuild_n",
	    "cannot add up the histories");
	for (int k = 0; k < RB_N; k++)
		st[k] = db_prepare(db, rebuild_combat_sql[k]);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < sizeof steps / sizeof *steps; k++) {
			struct db_stmt *s = st[steps[k]];

			db_reset(s);
			db_bind_int(s, 1, combats[i]);
			db_step(db, s, 0);
		}
	for (int k = 0; k < RB_N; k++)
		db_finalize(st[k]);
	db_exec(db, rebuild_totals_sql, "cannot add up the histories");
}

void
ledger_history_rebuild_all(struct db *db)
{
	size_t n;
	int64_t *ids = ids_of(db, "SELECT id FROM combat"
	    " UNION SELECT combat_id FROM history_combat", &n);

	ledger_history_rebuild(db, ids, n);
	free(ids);
}

int64_t *
ledger_combat_ids(struct db *db, size_t *n)
{
	return journal_ids(db, &ledger_kind, n);
}

/*
 * Per character: what it did (as actor) and what was done to it (as
 * target), leaving out undone events, added up from the events.  The
 * two conditions pick the rows: for one character they are "actor = ?1"
 * and "target = ?1", so that only that character's rows are read,
 * through the actor and target indexes.  This is what the histories
 * hold; ledger_history_scan keeps it, to check them by.
 */
#define LEDGER_HISTORY_SQL(actor_is, target_is) \
	"WITH d AS (" \
	" SELECT actor AS name, combat_id, damage AS dealt, 0 AS taken," \
	"  0 AS downed, fumble AS fumbles FROM event ev" \
	"  WHERE " actor_is " AND time >= ?2" \
	"  AND action IN ('join', 'attack', 'mental', 'power') AND" \
	JOURNAL_LIVE("event", "combat_id", "ev") \
	" UNION ALL" \
	" SELECT target, combat_id, 0, damage," \
	"  " EV_DOWNED ", vs_fumble FROM event ev" \
	"  WHERE " target_is " AND time >= ?2" \
	"  AND action IN ('attack', 'mental', 'power') AND" \
	JOURNAL_LIVE("event", "combat_id", "ev") ")" \
	" SELECT name, count(DISTINCT combat_id), sum(coalesce(dealt, 0))," \
	"  sum(coalesce(taken, 0)), sum(coalesce(downed, 0))," \
	"  sum(coalesce(fumbles, 0)) FROM d GROUP BY name ORDER BY name"

/*
 * The same from the histories.  A character whose events all came at or
 * after since (history.first_time) is its history row as it stands.  For
 * another, its combats with an event since (last_time) count whole when
 * all their events did (first_time), and the few that straddle since are
 * added up from their events, as above.  name_is picks the characters:
 * "name = ?1" or "1 = 1".  The CROSS JOIN keeps SQLite to that order, so
 * that it reads each character's combats since through
 * history_combat_since rather than all of that index.
 */
#define LEDGER_HISTORY_SUM_SQL(name_is) \
	"WITH p AS (SELECT name FROM history" \
	"  WHERE " name_is " AND first_time < ?2)," \
	" c AS (SELECT h.* FROM p CROSS JOIN history_combat h" \
	"  USING (name) WHERE h.last_time >= ?2)," \
	" d AS (" \
	" SELECT name, combat_id, dealt, taken, downed, fumbles FROM c" \
	"  WHERE first_time >= ?2" \
	" UNION ALL" \
	" SELECT c.name, c.combat_id, ev.damage, 0, 0, ev.fumble" \
	"  FROM c JOIN event ev ON ev.actor = c.name" \
	"  AND ev.combat_id = c.combat_id" \
	"  WHERE c.first_time < ?2 AND ev.time >= ?2" \
	"  AND ev.action IN ('join', 'attack', 'mental', 'power') AND" \
	JOURNAL_LIVE("event", "combat_id", "ev") \
	" UNION ALL" \
	" SELECT c.name, c.combat_id, 0, ev.damage," \
	"  (CASE WHEN ev.life_after = 0 AND ev.life_before > 0 THEN 1" \
	"  ELSE 0 END), ev.vs_fumble" \
	"  FROM c JOIN event ev ON ev.target = c.name" \
	"  AND ev.combat_id = c.combat_id" \
	"  WHERE c.first_time < ?2 AND ev.time >= ?2" \
	"  AND ev.action IN ('attack', 'mental', 'power') AND" \
	JOURNAL_LIVE("event", "combat_id", "ev") ")" \
	" SELECT name, combats, dealt, taken, downed, fumbles FROM history" \
	"  WHERE " name_is " AND first_time >= ?2" \
	" UNION ALL" \
	" SELECT name, count(DISTINCT combat_id), sum(coalesce(dealt, 0))," \
	"  sum(coalesce(taken, 0)), sum(coalesce(downed, 0))," \
	"  sum(coalesce(fumbles, 0)) FROM d GROUP BY name" \
	" ORDER BY name"

/* Runs a history query st and calls fn with each row. */
static int
history_rows(struct db *db, struct db_stmt *st, const char *name,
    int64_t since, void (*fn)(void *, const struct ledger_history *),
    void *arg)
{
	struct ledger_history h;
	int rows = 0;

	if (name)
		db_bind_text(st, 1, name);
	db_bind_int(st, 2, since);
	while (db_step(db, st, 0) == DB_ROW) {
		h.name = db_column_text(st, 0);
		h.combats = db_column_int(st, 1);
		h.dealt = db_column_int(st, 2);
		h.taken = db_column_int(st, 3);
		h.downed = db_column_int(st, 4);
		h.fumbles = db_column_int(st, 5);
		fn(arg, &h);
		rows++;
	}
	db_finalize(st);
	return rows;
}

char *
ledger_history_name(struct db *db, const char *typed, char *why,
    size_t whysz)
{
	return lookup_name(db, "SELECT name FROM history WHERE name = ?1",
	    "SELECT name FROM history", typed, "no combat history for", why,
	    whysz);
}

int
ledger_history(struct db *db, const char *name, int64_t since,
    void (*fn)(void *, const struct ledger_history *), void *arg)
{
	return history_rows(db, db_prepare(db, name ?
	    LEDGER_HISTORY_SUM_SQL("name = ?1") :
	    LEDGER_HISTORY_SUM_SQL("1 = 1")), name, since, fn, arg);
}

int
ledger_history_scan(struct db *db, const char *name, int64_t since,
    void (*fn)(void *, const struct ledger_history *), void *arg)
{
	return history_rows(db, db_prepare(db, name ?
	    LEDGER_HISTORY_SQL("actor = ?1", "target = ?1") :
	    LEDGER_HISTORY_SQL("actor IS NOT NULL", "target IS NOT NULL")),
	    name, since, fn, arg);
}

int64_t
ledger_count_combats(struct db *db, int64_t since)
{
	struct db_stmt *st = db_prepare(db, "SELECT count(*) FROM combat"
	    " WHERE created >= ?1");
	int64_t n;

	db_bind_int(st, 1, since);
	db_step(db, st, 0);
	n = db_column_int(st, 0);
	db_finalize(st);
	return n;
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
		snprintf(why, whysz, "combat %s has no event %" PRId64,
		    l->key, seq);
	else if (k == 0)
		snprintf(why, whysz, "combat %s has nothing left to undo",
		    l->key);
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

/* ---- sealed draws ---- */

int
ledger_seal(struct db *db, int64_t id, struct combat_event *e)
{
	uint64_t seed;

	if (!seal_draw_next(db, &ledger_kind, id, &seed))
		return 0;
	e->seed = seed;
	return 1;
}

/* What ledger_seal_check's replay reports, and of which seqs. */
struct seal_audit {
	seal_bad_fn		 bad;
	void			*arg;
	int64_t			 log, first, last;
	const struct ledger	*l;
};

/* A replay's mismatch, if at a sealed event that drew cards. */
static void
seal_audit_bad(void *arg, int64_t seq, int ran, const char *why)
{
	struct seal_audit *a = arg;
	char msg[400];
	size_t i = 0;

	if (seq < a->first || (a->last > 0 && seq > a->last))
		return;
	while (i < a->l->n && a->l->ev[i].seq != seq)
		i++;
	if (i == a->l->n || !ledger_used_seed(&a->l->ev[i]))
		return;
	snprintf(msg, sizeof msg, "its cards do not follow from its seed "
	    "(%s%s)", ran ? "" : "it does not run again: ", why);
	a->bad(a->arg, "combat", a->log, seq, msg);
}

long
ledger_seal_check(struct db *db, int64_t log, int64_t first, int64_t last,
    const unsigned char key[SEAL_BYTES], seal_bad_fn bad, void *arg,
    char *why, size_t whysz)
{
	struct seal_audit a = { bad, arg, log, first, last, NULL };
	struct ledger l;
	long draws = 0;

	if (ledger_load_all(db, log, &l) != 0)
		return util_say(why, whysz, "no such combat");
	a.l = &l;
	for (size_t i = 0; i < l.n; i++) {
		const struct combat_event *e = &l.ev[i];
		uint64_t want;

		if (e->seq < first || (last > 0 && e->seq > last) ||
		    !ledger_used_seed(e))
			continue;
		draws++;
		want = seal_draw_seed(key, e->seq, 0, 0);
		if (e->seed != want) {
			char msg[128];

			snprintf(msg, sizeof msg, "its seed is %" PRIu64
			    ", the seal gives %" PRIu64, e->seed, want);
			bad(arg, "combat", log, e->seq, msg);
		}
	}
	/* The cards: every event run again from its seed, as replay does. */
	(void)ledger_audit(&l, seal_audit_bad, &a);
	ledger_release(&l);
	return draws;
}
