/*
 * report_html.c - the organiser's report as a page (see report_html.h).
 * Names go through svg_text, in <bdi> so that a right-to-left name
 * keeps to its cell, and cells cut only a very long name with an
 * ellipsis (its whole text in the title); the story wraps anywhere.
 * The charts take the page's width, the characters' and the combats'
 * as horizontal bars with their names whole at the left.
 */
#include "crs/report_html.h"

#include <stdlib.h>
#include <string.h>

#include "paper/svg.h"
#include "base/util.h"
#include "base/when.h"

static const char style[] =
"body{font-family:'DejaVu Sans',sans-serif;margin:1.5rem auto;"
"max-width:70rem;padding:0 1rem;color:#222;background:#fff}\n"
"h1{font-size:1.6rem}h2{font-size:1.25rem;margin-top:2rem;"
"border-bottom:1px solid #ccc}h3{font-size:1.05rem}\n"
"table{border-collapse:collapse;width:100%}\n"
"th,td{border-bottom:1px solid #e4e4e4;padding:.2rem .4rem;"
"text-align:right;white-space:nowrap}\n"
"th{background:#f2f2f2;white-space:normal}th.name,td.name,td.list"
"{text-align:left}\n"
".cut{display:inline-block;max-width:24rem;overflow:hidden;"
"text-overflow:ellipsis;white-space:nowrap;vertical-align:bottom}\n"
"td.list{white-space:normal}.nw{white-space:nowrap}\n"
"td.list .cut{max-width:14rem}\n"
".wide{overflow-x:auto}\n"
".chart{overflow-x:auto;max-width:100%}.chart svg{display:block}\n"
"pre.story{white-space:pre-wrap;overflow-wrap:anywhere;"
"background:#f8f8f8;padding:.5rem;font-size:.85rem}\n"
".meta,.empty,.legend{color:#555}.empty{font-style:italic}\n"
".legend{font-size:.85rem;margin:.3rem 0 0}\n";

/* An opening tag's text, then s escaped, then the closing tag. */
static void
put(FILE *fp, const char *open, const char *s, const char *close)
{
	fputs(open, fp);
	svg_text(fp, s);
	fputs(close, fp);
}

/* A name, cut with an ellipsis if long, whole in its title. */
static void
name_text(FILE *fp, const char *name)
{
	put(fp, "<bdi class=\"cut\" title=\"", name, "\">");
	put(fp, "", name, "</bdi>");
}

static void
name_cell(FILE *fp, const char *name)
{
	fputs("<td class=\"name\">", fp);
	name_text(fp, name);
	fputs("</td>", fp);
}

/* The report is read by people: local time (TZ), with its zone. */
static void
time_text(FILE *fp, int64_t t)
{
	char buf[WHEN_LOCAL_SIZE];

	when_local(buf, sizeof buf, t);
	fputs(buf, fp);
}

/* "2026-11-22 14:05", local, to the minute, for a narrow cell. */
static void
minute_text(FILE *fp, int64_t t)
{
	char buf[WHEN_LOCAL_SIZE];

	when_local(buf, sizeof buf, t);
	fprintf(fp, "%.16s", buf);
}

/* "1 h 05 min", "12 min 30 s" or "40 s". */
static void
duration_text(FILE *fp, int64_t secs)
{
	if (secs >= 3600)
		fprintf(fp, "%lld h %02lld min", (long long)(secs / 3600),
		    (long long)(secs % 3600 / 60));
	else if (secs >= 60)
		fprintf(fp, "%lld min %02lld s", (long long)(secs / 60),
		    (long long)(secs % 60));
	else
		fprintf(fp, "%lld s", (long long)secs);
}

static void
heading(FILE *fp, const struct report *r)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
	    "content=\"width=device-width, initial-scale=1\">\n"
	    "<title>refkit: the organiser's report</title>\n<style>\n", fp);
	fputs(style, fp);
	fputs("</style>\n</head>\n<body>\n<h1>The organiser's report</h1>\n"
	    "<p class=\"meta\">Written ", fp);
	time_text(fp, r->now);
	if (r->since) {
		fputs("; combats since ", fp);
		time_text(fp, r->since);
	}
	fprintf(fp, "; <span id=\"total\">%zu</span> combat%s with a "
	    "strike", r->ncombats, r->ncombats == 1 ? "" : "s");
	if (r->nidle)
		fprintf(fp, ", <a href=\"#idle\"><span id=\"idle-total\">"
		    "%zu</span> without</a>", r->nidle);
	fputs(".</p>\n", fp);
}

/* Frees a chart's n labels and its values. */
static void
chart_free(char **labels, size_t n, double *v)
{
	for (size_t i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	free(v);
}

/*
 * A chart in its own block, whose id the tests find it by, across the
 * page: of names as horizontal bars (hbars), else as columns.
 */
static void
chart(FILE *fp, const char *id, const struct svg_chart *c, int hbars)
{
	fprintf(fp, "<div class=\"chart\" id=\"%s\">\n", id);
	if (hbars)
		svg_hbars_write(fp, c);
	else
		svg_chart_write_wide(fp, c);
	fputs("</div>\n", fp);
}

static void
hours_section(FILE *fp, const struct report *r)
{
	char **labels = xcalloc(r->nhours + 1, sizeof *labels);
	double *v = xcalloc(r->nhours + 1, sizeof *v);
	char zone[WHEN_LOCAL_SIZE], *title;
	struct svg_chart c = { NULL, r->nhours,
	    (const char *const *)labels, 1, { "combats", NULL }, { v, NULL },
	    0 };

	/* The hours are UTC's; their labels say when they began locally. */
	when_local(zone, sizeof zone, r->now);
	title = xasprintf("Combats with a strike started per hour (%s)",
	    strrchr(zone, ' ') ? strrchr(zone, ' ') + 1 : "local time");
	c.title = title;
	for (size_t i = 0; i < r->nhours; i++) {
		char buf[WHEN_LOCAL_SIZE];

		when_local(buf, sizeof buf, r->hours[i].hour);
		/* "2026-11-22 15:00:00 CET": "11-22 15:00". */
		labels[i] = xasprintf("%.5s %.5s", buf + 5, buf + 11);
		v[i] = r->hours[i].combats;
	}
	fputs("<h2 id=\"per-hour\">Combats per hour</h2>\n", fp);
	chart(fp, "chart-hours", &c, 0);
	chart_free(labels, r->nhours, v);
	free(title);
}

/* Two figures of every character, side by side. */
static void
chars_chart(FILE *fp, const struct report *r, const char *id,
    const char *title, const char *a, const char *b, int dealt)
{
	const char **labels = xcalloc(r->nchars + 1, sizeof *labels);
	double *v = xcalloc(2 * r->nchars + 1, sizeof *v);
	struct svg_chart c = { title, r->nchars, labels, 2, { a, b },
	    { v, v + r->nchars }, 0 };

	for (size_t i = 0; i < r->nchars; i++) {
		const struct report_char *ch = &r->chars[i];

		labels[i] = ch->name;
		v[i] = (double)(dealt ? ch->dealt : ch->downed);
		v[r->nchars + i] = (double)(dealt ? ch->taken : ch->fumbles);
	}
	chart(fp, id, &c, 1);
	free(labels);
	free(v);
}

static void
chars_section(FILE *fp, const struct report *r)
{
	fputs("<h2 id=\"characters\">Damage, downs and fumbles per "
	    "character</h2>\n", fp);
	if (r->nchars == 0) {
		fputs("<p class=\"empty\">No character struck or was struck."
		    "</p>\n", fp);
		return;
	}
	chars_chart(fp, r, "chart-damage", "Damage dealt and taken",
	    "dealt", "taken", 1);
	chars_chart(fp, r, "chart-downs", "Downs and fumbles", "downed",
	    "fumbles", 0);
	fputs("<div class=\"wide\"><table id=\"table-characters\">\n<tr><th class=\"name\">name"
	    "</th><th>combats</th><th>damage dealt</th><th>damage taken</th>"
	    "<th>downed</th><th>fumbles</th></tr>\n", fp);
	for (size_t i = 0; i < r->nchars; i++) {
		const struct report_char *c = &r->chars[i];

		fputs("<tr class=\"char\">", fp);
		name_cell(fp, c->name);
		fprintf(fp, "<td>%lld</td><td>%lld</td><td>%lld</td>"
		    "<td>%lld</td><td>%lld</td></tr>\n", (long long)c->combats,
		    (long long)c->dealt, (long long)c->taken,
		    (long long)c->downed, (long long)c->fumbles);
	}
	fputs("</table></div>\n", fp);
}

static void
matchups_section(FILE *fp, const struct report *r)
{
	fputs("<h2 id=\"matchups\">The most frequent matchups</h2>\n", fp);
	if (r->nmatchups == 0) {
		fputs("<p class=\"empty\">No attack was made.</p>\n", fp);
		return;
	}
	fputs("<div class=\"wide\"><table id=\"table-matchups\">\n<tr><th class=\"name\">attacker"
	    "</th><th class=\"name\">target</th><th>kind</th><th>times</th>"
	    "<th>offence (LB)</th><th>defence (LB)</th><th>P(hit)</th>"
	    "</tr>\n", fp);
	for (size_t i = 0; i < r->nmatchups; i++) {
		const struct report_matchup *m = &r->matchups[i];

		fputs("<tr class=\"matchup\">", fp);
		name_cell(fp, m->attacker);
		name_cell(fp, m->target);
		fprintf(fp, "<td>%s</td><td>%d</td>", report_kind(m),
		    m->count);
		if (!m->known) {
			fputs("<td>-</td><td>-</td><td>-</td></tr>\n", fp);
			continue;
		}
		fprintf(fp, "<td>%d (%d)</td><td>%d (%d)</td><td>%.1f%%</td>"
		    "</tr>\n", m->base, m->lb, m->vs_base, m->vs_lb,
		    100 * m->p_hit);
	}
	fputs("</table></div>\n<p class=\"legend\" id=\"legend-matchups\">"
	    "P(hit): of one more such strike, one card from each full deck; "
	    "its exact fraction is in <code>crs-combat report --json</code>. "
	    "&ldquo;-&rdquo;: no strike of the matchup drew a defence (an "
	    "Ace, or an offence of 0), so there are no bases to reckon its "
	    "odds from.</p>\n", fp);
}

/* Each combat's rounds and minutes, side by side. */
static void
combats_chart(FILE *fp, const struct report *r)
{
	char **labels = xcalloc(r->ncombats + 1, sizeof *labels);
	double *v = xcalloc(2 * r->ncombats + 1, sizeof *v);
	struct svg_chart c = { "Rounds and minutes of each combat",
	    r->ncombats, (const char *const *)labels, 2,
	    { "rounds", "minutes" }, { v, v + r->ncombats }, 0 };

	for (size_t i = 0; i < r->ncombats; i++) {
		/* Whole minutes, cut down: the table has the seconds. */
		int64_t minutes = report_duration(&r->combats[i]) / 60;

		labels[i] = xasprintf("combat %s", r->combats[i].key);
		v[i] = r->combats[i].rounds;
		v[r->ncombats + i] = (double)minutes;
	}
	chart(fp, "chart-combats", &c, 1);
	chart_free(labels, r->ncombats, v);
}

static void
combat_row(FILE *fp, const struct report_combat *c)
{
	fprintf(fp, "<tr class=\"combat\"><td class=\"name\"><a href=\""
	    "#combat-%s\">combat %s</a></td><td class=\"list\">", c->key,
	    c->key);
	/* Each name with its comma, so that a line never starts with one. */
	for (int i = 0; i < c->nfighters; i++) {
		fputs("<span class=\"nw\">", fp);
		name_text(fp, c->fighters[i]);
		fputs(i + 1 < c->nfighters ? ",</span> " : "</span>", fp);
	}
	fputs("</td><td>", fp);
	minute_text(fp, c->started);
	fputs("</td><td>", fp);
	duration_text(fp, report_duration(c));
	fprintf(fp, "%s</td><td>%d</td><td>%d</td><td>%lld</td><td>%lld</td>"
	    "<td>%lld</td></tr>\n", c->finished ? "" : " so far", c->rounds,
	    c->actions, (long long)c->dealt, (long long)c->downs,
	    (long long)c->fumbles);
}

static void
combats_section(FILE *fp, const struct report *r)
{
	fputs("<h2 id=\"combats\">The combats</h2>\n", fp);
	combats_chart(fp, r);
	fputs("<div class=\"wide\"><table id=\"table-combats\">\n<tr><th class=\"name\">combat"
	    "</th><th class=\"name\">fighters</th><th>started</th>"
	    "<th>lasted</th><th>rounds</th><th>strikes</th><th>damage</th>"
	    "<th>downs</th><th>fumbles</th></tr>\n", fp);
	for (size_t i = 0; i < r->ncombats; i++)
		combat_row(fp, &r->combats[i]);
	fputs("</table></div>\n<p class=\"legend\">strikes: attacks, mental "
	    "actions and powers, undone ones left out; \"so far\": still "
	    "under way, up to its last event.</p>\n", fp);
}

/* The combats in which nobody struck, a line each, out of the figures. */
static void
idle_section(FILE *fp, const struct report *r)
{
	fputs("<h2 id=\"idle\">Combats without a strike</h2>\n<p class=\""
	    "legend\">Started, but nobody attacked, acted or used a power: "
	    "not counted in the figures above.</p>\n<ul id=\"list-idle\">\n",
	    fp);
	for (size_t i = 0; i < r->nidle; i++) {
		const struct report_combat *c = &r->idle[i];

		fprintf(fp, "<li class=\"idle\">combat %s (", c->key);
		for (int f = 0; f < c->nfighters; f++) {
			put(fp, "<bdi>", c->fighters[f], "</bdi>");
			fputs(f + 1 < c->nfighters ? ", " : "", fp);
		}
		fputs("), started ", fp);
		minute_text(fp, c->started);
		fputs(c->finished ? ", ended after " : ", under way for ", fp);
		duration_text(fp, report_duration(c));
		fputs("</li>\n", fp);
	}
	fputs("</ul>\n", fp);
}

/* The longest of c's fighters' names that text starts with, or NULL. */
static const char *
name_at(const struct report_combat *c, const char *text)
{
	const char *best = NULL;

	for (int i = 0; i < c->nfighters; i++) {
		size_t len = strlen(c->fighters[i]);

		if (len > 0 && strncmp(text, c->fighters[i], len) == 0 &&
		    (best == NULL || len > strlen(best)))
			best = c->fighters[i];
	}
	return best;
}

/*
 * A line of the story, each fighter's name in <bdi>: a right-to-left name
 * keeps the figures after it on their side.
 */
static void
story_text(FILE *fp, const struct report_combat *c, const char *text)
{
	char one[2] = { 0, 0 };

	while (*text) {
		const char *name = name_at(c, text);

		if (name) {
			put(fp, "<bdi>", name, "</bdi>");
			text += strlen(name);
			continue;
		}
		one[0] = *text++;
		svg_text(fp, one);
	}
}

static void
story_section(FILE *fp, const struct report_combat *c)
{
	fprintf(fp, "<section class=\"story\" id=\"combat-%s\">\n<h3>Combat "
	    "%s (%s rules)</h3>\n<pre class=\"story\">", c->key, c->key,
	    c->rules);
	for (size_t i = 0; i < c->nstory; i++) {
		story_text(fp, c, c->story[i].text);
		putc('\n', fp);
	}
	if (c->broken)
		fputs("(the combat no longer replays from here: see "
		    "crs-combat replay)\n", fp);
	fputs("</pre>\n<p><a href=\"#combats\">back to the combats</a></p>\n"
	    "</section>\n", fp);
}

/* How many rulings each GM made (crs-combat(1), "GM rulings"). */
static void
rulings_section(FILE *fp, const struct report *r)
{
	if (r->ngms == 0)
		return;
	fputs("<h2 id=\"rulings\">GM rulings</h2>\n<table>\n"
	    "<tr><th>GM</th><th>Rulings</th></tr>\n", fp);
	for (size_t i = 0; i < r->ngms; i++) {
		fputs("<tr>", fp);
		name_cell(fp, *r->gms[i].gm ? r->gms[i].gm : "(not recorded)");
		fprintf(fp, "<td>%d</td></tr>\n",
		    r->gms[i].rulings);
	}
	fputs("</table>\n", fp);
}

void
report_html_write(FILE *fp, const struct report *r)
{
	heading(fp, r);
	if (r->ncombats == 0 && r->nchars == 0 && r->nidle == 0) {
		fputs("<p class=\"empty\" id=\"empty\">No combat was recorded"
		    "; there is nothing to report.</p>\n</body>\n</html>\n",
		    fp);
		return;
	}
	if (r->ncombats)
		hours_section(fp, r);
	chars_section(fp, r);
	matchups_section(fp, r);
	rulings_section(fp, r);
	if (r->ncombats)
		combats_section(fp, r);
	if (r->nidle)
		idle_section(fp, r);
	if (r->ncombats)
		fputs("<h2 id=\"stories\">The combats, event by event</h2>\n",
		    fp);
	for (size_t i = 0; i < r->ncombats; i++)
		story_section(fp, &r->combats[i]);
	fputs("</body>\n</html>\n", fp);
}
