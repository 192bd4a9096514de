/*
 * report_json.c - the organiser's report as JSON (see report_json.h):
 * an object whose lists hold one element a line, as crs-combat's other
 * JSON does.
 */
#include "crs/report_json.h"

#include "base/out.h"
#include "base/util.h"

/* A time as "2026-11-24T10:00:00Z", or null for 0. */
static void
json_time(FILE *fp, int64_t t)
{
	char buf[40];

	if (t == 0) {
		fputs("null", fp);
		return;
	}
	util_time_iso(buf, sizeof buf, t);
	out_json_string(fp, buf);
}

static void
chars_json(FILE *fp, const struct report *r)
{
	fputs(",\n\"characters\":[", fp);
	for (size_t i = 0; i < r->nchars; i++) {
		const struct report_char *c = &r->chars[i];

		fprintf(fp, "%s\n{\"name\":", i ? "," : "");
		out_json_string(fp, c->name);
		fprintf(fp, ",\"combats\":%lld,\"damage_dealt\":%lld,"
		    "\"damage_taken\":%lld,\"downed\":%lld,\"fumbles\":%lld}",
		    (long long)c->combats, (long long)c->dealt,
		    (long long)c->taken, (long long)c->downed,
		    (long long)c->fumbles);
	}
	fputs("\n]", fp);
}

static void
hours_json(FILE *fp, const struct report *r)
{
	fputs(",\n\"hours\":[", fp);
	for (size_t i = 0; i < r->nhours; i++) {
		fprintf(fp, "%s\n{\"hour\":", i ? "," : "");
		json_time(fp, r->hours[i].hour);
		fprintf(fp, ",\"combats\":%d}", r->hours[i].combats);
	}
	fputs("\n]", fp);
}

static void
combat_json(FILE *fp, const struct report_combat *c)
{
	fputs("{\"combat\":", fp);
	out_json_string(fp, c->key);
	fputs(",\"rules\":", fp);
	out_json_string(fp, c->rules);
	fputs(",\"fighters\":[", fp);
	for (int i = 0; i < c->nfighters; i++) {
		fputs(i ? "," : "", fp);
		out_json_string(fp, c->fighters[i]);
	}
	fputs("],\"started\":", fp);
	json_time(fp, c->started);
	fputs(",\"ended\":", fp);
	json_time(fp, c->finished);
	fprintf(fp, ",\"duration\":%lld,\"rounds\":%d,\"strikes\":%d,"
	    "\"damage\":%lld,\"downs\":%lld,\"fumbles\":%lld,"
	    "\"replays\":%s,\"story\":[", (long long)report_duration(c), c->rounds,
	    c->actions, (long long)c->dealt, (long long)c->downs,
	    (long long)c->fumbles, c->broken ? "false" : "true");
	for (size_t i = 0; i < c->nstory; i++) {
		fprintf(fp, "%s\n{\"seq\":%lld,\"text\":", i ? "," : "",
		    (long long)c->story[i].seq);
		out_json_string(fp, c->story[i].text);
		fputs("}", fp);
	}
	fputs("]}", fp);
}

/* A matchup's bases and odds, null where no strike drew a defence. */
static void
odds_json(FILE *fp, const struct report_matchup *m)
{
	if (!m->known) {
		fputs(",\"offense\":null,\"defense\":null,\"offense_lb\":null,"
		    "\"defense_lb\":null,\"p_hit\":null,\"p_hit_exact\":null",
		    fp);
		return;
	}
	fprintf(fp, ",\"offense\":%d,\"defense\":%d,\"offense_lb\":%d,"
	    "\"defense_lb\":%d,\"p_hit\":%.15g,\"p_hit_exact\":", m->base,
	    m->vs_base, m->lb, m->vs_lb, m->p_hit);
	if (m->p_exact[0])
		out_json_string(fp, m->p_exact);
	else
		fputs("null", fp);
}

static void
matchups_json(FILE *fp, const struct report *r)
{
	fputs(",\n\"matchups\":[", fp);
	for (size_t i = 0; i < r->nmatchups; i++) {
		const struct report_matchup *m = &r->matchups[i];

		fprintf(fp, "%s\n{\"attacker\":", i ? "," : "");
		out_json_string(fp, m->attacker);
		fputs(",\"target\":", fp);
		out_json_string(fp, m->target);
		fprintf(fp, ",\"kind\":\"%s\",\"count\":%d", report_kind(m),
		    m->count);
		odds_json(fp, m);
		fputs("}", fp);
	}
	fputs("\n]", fp);
}

/* The GMs' rulings: [{"gm":"Ann","rulings":2}], by name. */
static void
rulings_json(FILE *fp, const struct report *r)
{
	fputs(",\n\"rulings\":[", fp);
	for (size_t i = 0; i < r->ngms; i++) {
		fprintf(fp, "%s\n{\"gm\":", i ? "," : "");
		out_json_string(fp, r->gms[i].gm);
		fprintf(fp, ",\"rulings\":%d}", r->gms[i].rulings);
	}
	fputs("\n]", fp);
}

void
report_json_write(FILE *fp, const struct report *r)
{
	fputs("{\"since\":", fp);
	json_time(fp, r->since);
	fputs(",\"generated\":", fp);
	json_time(fp, r->now);
	fprintf(fp, ",\"combats_total\":%zu", r->ncombats);
	hours_json(fp, r);
	chars_json(fp, r);
	fputs(",\n\"combats\":[", fp);
	for (size_t i = 0; i < r->ncombats; i++) {
		fputs(i ? ",\n" : "\n", fp);
		combat_json(fp, &r->combats[i]);
	}
	fputs("\n]", fp);
	matchups_json(fp, r);
	/* Apart, as the page lists them: in none of the figures above. */
	fputs(",\n\"combats_without_strike\":[", fp);
	for (size_t i = 0; i < r->nidle; i++) {
		fputs(i ? ",\n" : "\n", fp);
		combat_json(fp, &r->idle[i]);
	}
	fputs("\n]", fp);
	rulings_json(fp, r);
	fputs("}\n", fp);
}
