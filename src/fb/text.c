/*
 * fb/text.c - Force Battles text: stances, boards, round options and GEAS
 * specs, read and written in one canonical form.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fb/text.h"
#include "base/fit.h"
#include "base/names.h"
#include "base/strbuf.h"
#include "base/util.h"

static int
number(const char *s, long min, long max, long *out)
{
	return util_parse_int(s, min, max, out) == UTIL_INT_OK ? 0 : -1;
}

int
fbtext_slot_find(const struct fb_board *b, const char *name)
{
	int i = fb_sphere_find(b, name), g;

	if (i >= 0)
		return i;
	if (strcasecmp(name, "att") == 0)
		return FB_SLOT_ATT;
	if (strcasecmp(name, "def") == 0)
		return FB_SLOT_DEF;
	g = fb_geas_find(name);
	if (g >= 0 && g < FB_NGEAS)
		return FB_SLOT_GEAS + g;
	return -1;
}

const char *
fbtext_slot_name(const struct fb_board *b, int slot)
{
	if (slot < FB_MAXS)
		return b->sname[slot];
	if (slot == FB_SLOT_ATT)
		return "att";
	if (slot == FB_SLOT_DEF)
		return "def";
	return fb_geas_name(slot - FB_SLOT_GEAS);
}

static int *
stance_slot(struct fb_stance *st, int slot)
{
	if (slot < FB_MAXS)
		return &st->sph[slot];
	if (slot == FB_SLOT_ATT)
		return &st->att;
	if (slot == FB_SLOT_DEF)
		return &st->def;
	return &st->geas[slot - FB_SLOT_GEAS];
}

int
fbtext_stance_word(const struct fb_board *b, const char *word,
    struct fb_stance *st, char *why, size_t whysz)
{
	const char *eq = strchr(word, '=');
	char key[FB_NAMESZ + 8];
	long v;
	int slot;

	if (eq == NULL || eq == word || (size_t)(eq - word) >= sizeof key)
		return util_say(why, whysz, "'%s' is not SLOT=COUNT", word);
	memcpy(key, word, (size_t)(eq - word));
	key[eq - word] = '\0';
	if ((slot = fbtext_slot_find(b, key)) < 0)
		return util_say(why, whysz, "'%s' is not a sphere, att, def or a "
		    "GEAS of board '%s'", key, b->name);
	if (number(eq + 1, 0, 50, &v) < 0)
		return util_say(why, whysz, "'%s' must be a whole number from 0 to "
		    "50, got '%s'", key, eq + 1);
	*stance_slot(st, slot) = (int)v;
	return 0;
}

int
fbtext_stance_parse(const struct fb_board *b, const char *text,
    struct fb_stance *st, char *why, size_t whysz)
{
	char *copy = xstrdup(text), *save = NULL, *w;
	int rc = 0;

	memset(st, 0, sizeof *st);
	for (w = strtok_r(copy, " ", &save); w != NULL && rc == 0;
	    w = strtok_r(NULL, " ", &save))
		rc = fbtext_stance_word(b, w, st, why, whysz);
	free(copy);
	return rc;
}

char *
fbtext_stance_format(const struct fb_board *b, const struct fb_stance *st)
{
	struct strbuf t = STRBUF_INIT;

	for (int i = 0; i < b->ns; i++)
		strbuf_addf(&t, "%s%s=%d", i ? " " : "", b->sname[i],
		    st->sph[i]);
	strbuf_addf(&t, " att=%d def=%d", st->att, st->def);
	for (int g = 0; g < FB_NGEAS; g++)
		if (st->geas[g])
			strbuf_addf(&t, " %s=%d", fb_geas_name(g),
			    st->geas[g]);
	return strbuf_detach(&t, NULL);
}

/* ---- boards ---- */

/* A "target ROLE NAME FACE ALT" line of a board, in n words w. */
static int
board_target(struct fb_board *b, char w[][64], int n, int lineno,
    unsigned *roles, char *why, size_t whysz)
{
	long face, alt;
	int t;

	if (n != 5)
		return util_say(why, whysz, "line %d: want 'target ROLE NAME "
		    "FACE ALT'", lineno);
	if ((t = fb_role_find(w[1])) < 0)
		return util_say(why, whysz, "line %d: '%s' is not a target "
		    "role", lineno, w[1]);
	if (*roles & 1u << t)
		return util_say(why, whysz, "line %d: a second '%s'", lineno,
		    w[1]);
	if (!fb_name_ok(w[2], FB_NAMESZ - 1))
		return util_say(why, whysz, "line %d: '%s' is not a name "
		    "(letters, digits, '-', '_', '.')", lineno, w[2]);
	if (number(w[3], 1, 6, &face) < 0 || number(w[4], 1, 6, &alt) < 0)
		return util_say(why, whysz, "line %d: faces are 1 to 6",
		    lineno);
	*roles |= 1u << t;
	memcpy(b->tname[t], w[2], strlen(w[2]) + 1);
	b->face[t] = (int)face;
	b->alt[t] = (int)alt;
	return 0;
}

/* A "sphere NAME center|lower|- TARGET,..." line, in n words w. */
static int
board_sphere(struct fb_board *b, char w[][64], int n, int lineno,
    int *centers, char *why, size_t whysz)
{
	char *tsave = NULL, *tok;
	int i = b->ns;

	if (n != 4)
		return util_say(why, whysz, "line %d: want 'sphere NAME "
		    "center|lower|- TARGET,...'", lineno);
	if (i == FB_MAXS)
		return util_say(why, whysz, "line %d: more than %d spheres",
		    lineno, FB_MAXS);
	if (!fb_name_ok(w[1], FB_NAMESZ - 1))
		return util_say(why, whysz, "line %d: '%s' is not a name",
		    lineno, w[1]);
	if (strcmp(w[2], "center") != 0 && strcmp(w[2], "lower") != 0 &&
	    strcmp(w[2], "-") != 0)
		return util_say(why, whysz, "line %d: a sphere's role is "
		    "center, lower or -", lineno);
	memcpy(b->sname[i], w[1], strlen(w[1]) + 1);
	if (strcmp(w[2], "center") == 0) {
		b->center = i;
		(*centers)++;
	} else if (strcmp(w[2], "lower") == 0)
		b->lower |= 1u << i;
	b->ns++;
	for (tok = strtok_r(w[3], ",", &tsave); tok != NULL;
	    tok = strtok_r(NULL, ",", &tsave)) {
		int t = fb_role_find(tok);

		if (t < 0)
			return util_say(why, whysz, "line %d: '%s' is not a "
			    "target role", lineno, tok);
		b->touch[i] |= 1u << t;
	}
	return 0;
}

int
fbtext_board_parse(const char *text, struct fb_board *b, char *why,
    size_t whysz)
{
	char *copy = xstrdup(text), *line, *next;
	char name[FB_NAMESZ];
	unsigned roles = 0;
	int lineno = 0, rc = 0, centers = 0;

	snprintf(name, sizeof name, "%s", b->name);
	memset(b, 0, sizeof *b);
	snprintf(b->name, sizeof b->name, "%s", name);
	b->center = -1;
	/* Blank lines count too, so that a refusal names the right line. */
	for (line = copy; line != NULL && rc == 0; line = next) {
		char w[5][64], extra[2];
		int n;

		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		lineno++;
		while (*line == ' ' || *line == '\t')
			line++;
		if (*line == '\0' || *line == '#')
			continue;
		n = sscanf(line, "%63s %63s %63s %63s %63s %1s", w[0], w[1],
		    w[2], w[3], w[4], extra);
		if (n >= 1 && strcmp(w[0], "target") == 0)
			rc = board_target(b, w, n, lineno, &roles, why, whysz);
		else if (n >= 1 && strcmp(w[0], "sphere") == 0)
			rc = board_sphere(b, w, n, lineno, &centers, why,
			    whysz);
		else
			rc = util_say(why, whysz, "line %d: a line starts with "
			    "'target' or 'sphere'", lineno);
	}
	free(copy);
	if (rc < 0)
		return rc;
	if (roles != (1u << FB_NT) - 1)
		return util_say(why, whysz, "a board has one target of each role: "
		    "head, left-arm, right-arm, torso, left-leg, right-leg");
	if (centers != 1)
		return util_say(why, whysz, "a board has exactly one center sphere");
	return fb_board_finish(b, why, whysz);
}

char *
fbtext_board_format(const struct fb_board *b)
{
	struct strbuf o = STRBUF_INIT;

	for (int t = 0; t < FB_NT; t++)
		strbuf_addf(&o, "target %s %s %d %d\n", fb_role_name(t),
		    b->tname[t], b->face[t], b->alt[t]);
	for (int i = 0; i < b->ns; i++) {
		const char *sep = "";

		strbuf_addf(&o, "sphere %s %s ", b->sname[i], i == b->center ?
		    "center" : (b->lower & 1u << i) ? "lower" : "-");
		for (int t = 0; t < FB_NT; t++)
			if (b->touch[i] & 1u << t) {
				strbuf_addf(&o, "%s%s", sep, fb_role_name(t));
				sep = ",";
			}
		strbuf_addch(&o, '\n');
	}
	return strbuf_detach(&o, NULL);
}

/* ---- GEAS specs and round options ---- */

int
fbtext_who(const char *const names[2], const char *typed, char *why,
    size_t whysz)
{
	return names_lookup_in(typed, names, 2, "is not in this duel", "in it",
	    why, whysz);
}

/* fbtext_who for the n bytes at s. */
static int
who_find(const char *const names[2], const char *s, size_t n, char *why,
    size_t whysz)
{
	char *typed = xstrndup(s, n);
	int w = fbtext_who(names, typed, why, whysz);

	free(typed);
	return w;
}

/* Lightning's parts after NAME:POWER: [COUNT[:SPHERE,SPHERE...]]. */
static int
geas_lightning(const struct fb_board *b, int np, char **part,
    struct fb_geas_in *g, char *why, size_t whysz)
{
	char *ssave = NULL;
	long v;

	if (np > 4)
		return util_say(why, whysz, "lightning takes COUNT and "
		    "SPHERE,SPHERE...");
	if (np >= 3 && number(part[2], 1, 50, &v) < 0)
		return util_say(why, whysz, "lightning: '%s' is not a count "
		    "from 1 to 50", part[2]);
	if (np >= 3)
		g->n = (int)v;
	if (np < 4)
		return 0;
	for (char *t = strtok_r(part[3], ",", &ssave); t != NULL;
	    t = strtok_r(NULL, ",", &ssave)) {
		int i = fb_sphere_find(b, t);

		if (i < 0)
			return util_say(why, whysz, "'%s' is not a sphere", t);
		if (g->nspheres == 8 || g->nspheres == g->n)
			return util_say(why, whysz, "lightning names at most "
			    "one sphere per counter, 8 in all");
		g->spheres[g->nspheres++] = i;
	}
	return 0;
}

int
fbtext_geas_parse(const struct fb_board *b, const char *const names[2],
    const char *spec, struct fb_geas_in *g, char *why, size_t whysz)
{
	char *copy = xstrdup(spec), *part[5], *save = NULL;
	int np = 0, rc = 0;
	long v;

	memset(g, 0, sizeof *g);
	g->target = -1;
	g->from = -1;
	g->n = 1;
	for (char *p = strtok_r(copy, ":", &save); p != NULL;
	    p = strtok_r(NULL, ":", &save)) {
		if (np == 5) {
			free(copy);
			return util_say(why, whysz, "'%s': too many parts", spec);
		}
		part[np++] = p;
	}
	if (np < 2) {
		rc = util_say(why, whysz, "'%s' is not NAME:POWER", spec);
		goto out;
	}
	if ((g->who = fbtext_who(names, part[0], why, whysz)) < 0) {
		rc = -1;
		goto out;
	}
	if ((g->power = fb_geas_find(part[1])) < 0) {
		rc = util_say(why, whysz, "'%s' is not a GEAS", part[1]);
		goto out;
	}
	switch (g->power) {
	case FB_LIGHTNING:
		rc = geas_lightning(b, np, part, g, why, whysz);
		break;
	case FB_ABSORB: case FB_RAGE: case FB_PROTECT:
		if (np > 3)
			rc = util_say(why, whysz, "%s takes one COUNT",
			    fb_geas_name(g->power));
		else if (np == 3 && number(part[2], 1, 50, &v) < 0)
			rc = util_say(why, whysz, "%s: '%s' is not a count from 1 "
			    "to 50", fb_geas_name(g->power), part[2]);
		else if (np == 3)
			g->n = (int)v;
		else
			g->n = 0;	/* all the slot holds; see fb_duel.c */
		break;
	case FB_SIGHT: case FB_MINDTRICK:
		if (np != 3 || (g->target = fb_target_find(b, part[2])) < 0)
			rc = util_say(why, whysz, "%s takes the TARGET to strike",
			    fb_geas_name(g->power));
		break;
	case FB_CONVERT:
		if (np != 3 || (g->from = fbtext_slot_find(b, part[2])) < 0)
			rc = util_say(why, whysz, "convert takes the SLOT the "
			    "counter comes from (a sphere, att, def or a "
			    "GEAS)");
		break;
	default:
		if (np != 2)
			rc = util_say(why, whysz, "%s takes nothing after its name",
			    fb_geas_name(g->power));
		break;
	}
out:
	free(copy);
	return rc;
}

/* "3,4" into n dice of 1..6. */
static int
dice(const char *val, int8_t *out, int n, int max, char *why, size_t whysz,
    const char *opt)
{
	char *copy = xstrdup(val), *save = NULL, *t;
	int k = 0, rc = 0;
	long v;

	for (t = strtok_r(copy, ",", &save); t != NULL && rc == 0;
	    t = strtok_r(NULL, ",", &save)) {
		if (k == max)
			rc = util_say(why, whysz, "--%s: at most %d dice", opt, max);
		else if (number(t, 1, 6, &v) < 0)
			rc = util_say(why, whysz, "--%s: a die reads 1 to 6, got "
			    "'%s'", opt, t);
		else
			out[k++] = (int8_t)v;
	}
	free(copy);
	if (rc == 0 && n > 0 && k != n)
		rc = util_say(why, whysz, "--%s takes %d dice", opt, n);
	return rc < 0 ? -1 : k;
}

/* "center=2,left=1" into counts per slot (spheres only unless any). */
static int
counts(const struct fb_board *b, const char *val, int8_t *out, int any,
    const char *opt, char *why, size_t whysz)
{
	char *copy = xstrdup(val), *save = NULL, *t;
	int rc = 0;

	for (t = strtok_r(copy, ",", &save); t != NULL && rc == 0;
	    t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		long v;
		int slot;

		if (eq == NULL) {
			rc = util_say(why, whysz, "--%s: '%s' is not SLOT=COUNT",
			    opt, t);
			break;
		}
		*eq = '\0';
		slot = any ? fbtext_slot_find(b, t) : fb_sphere_find(b, t);
		if (slot < 0)
			rc = util_say(why, whysz, "--%s: '%s' is not a %s", opt, t,
			    any ? "sphere or GEAS" : "sphere");
		else if (number(eq + 1, 0, 50, &v) < 0)
			rc = util_say(why, whysz, "--%s: '%s' is not a count from "
			    "0 to 50", opt, eq + 1);
		else
			out[slot] = (int8_t)v;
	}
	free(copy);
	return rc;
}

int
fbtext_in_is_flag(const char *opt)
{
	return strcmp(opt, "pass") == 0 || strcmp(opt, "kick") == 0 ||
	    strcmp(opt, "gain-from-foe") == 0;
}

/* --move TARGET[@SPHERE]: the target moved to, and the sphere paying. */
static int
in_move(const struct fb_board *b, const char *val, struct fb_in *in,
    char *why, size_t whysz)
{
	char t[64];
	const char *at = strchr(val, '@');
	size_t n = at ? (size_t)(at - val) : strlen(val);
	int k;

	if (in->nmoves == 8)
		return util_say(why, whysz, "--move: at most 8 moves");
	if (n >= sizeof t)
		return util_say(why, whysz, "--move: '%s' is not a target",
		    val);
	memcpy(t, val, n);
	t[n] = '\0';
	if ((k = fb_target_find(b, t)) < 0)
		return util_say(why, whysz, "--move: '%s' is not a target", t);
	in->moves[in->nmoves] = (int8_t)k;
	in->movesph[in->nmoves] = -1;
	if (at != NULL) {
		if ((k = fb_sphere_find(b, at + 1)) < 0)
			return util_say(why, whysz, "--move: '%s' is not a "
			    "sphere", at + 1);
		in->movesph[in->nmoves] = (int8_t)k;
	}
	in->nmoves++;
	return 2;
}

int
fbtext_in_option(const struct fb_board *b, const char *const names[2],
    const char *opt, const char *val, struct fb_in *in, char *why,
    size_t whysz)
{
	int k;

	if (strcmp(opt, "pass") == 0)
		return in->pass = 1;
	if (strcmp(opt, "kick") == 0)
		return in->kick = 1;
	if (strcmp(opt, "gain-from-foe") == 0)
		return in->gain_foe = 1;
	if (val == NULL)
		return util_say(why, whysz, "--%s needs a value", opt);
	if (strcmp(opt, "init") == 0) {
		if ((k = dice(val, in->init, 0, 32, why, whysz, opt)) < 0)
			return -1;
		in->ninit = k;
		return 2;
	}
	if (strcmp(opt, "hit") == 0 || strcmp(opt, "block") == 0)
		return dice(val, opt[0] == 'h' ? in->hit : in->block, 2, 2,
		    why, whysz, opt) < 0 ? -1 : 2;
	if (strcmp(opt, "target-die") == 0 || strcmp(opt, "damage") == 0 ||
	    strcmp(opt, "gain") == 0 || strcmp(opt, "choke-die") == 0) {
		int8_t *slot = opt[0] == 't' ? &in->tdie : opt[0] == 'd' ?
		    &in->dmg : opt[0] == 'g' ? &in->gain : &in->choke;

		return dice(val, slot, 1, 1, why, whysz, opt) < 0 ? -1 : 2;
	}
	if (strcmp(opt, "choose") == 0) {
		if ((in->choose = fb_target_find(b, val)) < 0)
			return util_say(why, whysz, "--choose: '%s' is not a target",
			    val);
		return 2;
	}
	if (strcmp(opt, "move") == 0)
		return in_move(b, val, in, why, whysz);
	if (strcmp(opt, "pull") == 0) {
		const char *colon = strchr(val, ':');
		char who[FB_WHYSZ];
		int w;

		if (colon == NULL)
			return util_say(why, whysz, "--pull: want NAME:SPHERE=N,... "
			    "for a duelist of this duel, got '%s'", val);
		if ((w = who_find(names, val, (size_t)(colon - val), who,
		    sizeof who)) < 0)
			return util_say(why, whysz, "--pull: %s", who);
		return counts(b, colon + 1, in->pull[w], 0, opt, why,
		    whysz) < 0 ? -1 : 2;
	}
	if (strcmp(opt, "place") == 0) {
		in->place_set = 1;
		return counts(b, val, in->place, 1, opt, why, whysz) < 0 ?
		    -1 : 2;
	}
	if (strcmp(opt, "return") == 0) {
		in->ret_set = 1;
		return counts(b, val, in->ret, 0, opt, why, whysz) < 0 ?
		    -1 : 2;
	}
	if (strcmp(opt, "geas") == 0 || strcmp(opt, "after-hit") == 0) {
		if (in->ngeas == 8)
			return util_say(why, whysz, "at most 8 GEAS in one command");
		if (fbtext_geas_parse(b, names, val, &in->geas[in->ngeas], why,
		    whysz) < 0)
			return -1;
		in->geas[in->ngeas++].between = opt[0] == 'a';
		return 2;
	}
	return 0;
}

int
fbtext_in_finish(struct fb_in *in, char *why, size_t whysz)
{
	int k = 0;

	for (int i = 0; i < in->ngeas; i++) {
		struct fb_geas_in *a = &in->geas[i];
		int j;

		if (a->power != FB_ABSORB) {
			in->geas[k++] = *a;
			continue;
		}
		for (j = 0; j < in->ngeas; j++)
			if (in->geas[j].power == FB_LIGHTNING &&
			    in->geas[j].who != a->who &&
			    in->geas[j].between == a->between)
				break;
		if (j == in->ngeas)
			return util_say(why, whysz, "absorb answers the foe's "
			    "lightning in the same command");
		in->geas[j].absorb = a->n > 0 ? a->n : in->geas[j].n;
	}
	in->ngeas = k;
	return 0;
}

int
fbtext_in_parse(const struct fb_board *b, const char *const names[2],
    const char *text, struct fb_in *in, char *why, size_t whysz)
{
	char *copy = xstrdup(text), *save = NULL, *w;
	int rc = 0;

	fb_in_init(in);
	for (w = strtok_r(copy, " ", &save); w != NULL && rc == 0;
	    w = strtok_r(NULL, " ", &save)) {
		const char *val = NULL;

		if (strncmp(w, "--", 2) != 0) {
			rc = util_say(why, whysz, "'%s' is not an option", w);
			break;
		}
		if (!fbtext_in_is_flag(w + 2) &&
		    (val = strtok_r(NULL, " ", &save)) == NULL) {
			rc = util_say(why, whysz, "'%s' needs a value", w);
			break;
		}
		rc = fbtext_in_option(b, names, w + 2, val, in, why, whysz);
		if (rc == 0)
			rc = util_say(why, whysz, "'%s' is not a round option", w);
		rc = rc < 0 ? -1 : 0;
	}
	free(copy);
	if (rc == 0)
		rc = fbtext_in_finish(in, why, whysz);
	return rc;
}

static void
put_counts(FILE *fp, const struct fb_board *b, const char *opt,
    const char *prefix, const int8_t *v, int nslot)
{
	const char *sep = "";

	fprintf(fp, " --%s %s", opt, prefix);
	for (int k = 0; k < nslot; k++)
		if (v[k]) {
			fprintf(fp, "%s%s=%d", sep, fbtext_slot_name(b, k), v[k]);
			sep = ",";
		}
	if (*sep == '\0')
		fprintf(fp, "%s=0", b->sname[0]);
}

static void
put_geas(FILE *fp, const struct fb_board *b, const char *const names[2],
    const struct fb_geas_in *g)
{
	const char *opt = g->between ? "after-hit" : "geas";

	fprintf(fp, " --%s %s:%s", opt, names[g->who], fb_geas_name(g->power));
	switch (g->power) {
	case FB_LIGHTNING:
		fprintf(fp, ":%d", g->n);
		for (int k = 0; k < g->nspheres; k++)
			fprintf(fp, "%c%s", k ? ',' : ':',
			    b->sname[g->spheres[k]]);
		if (g->absorb)
			fprintf(fp, " --%s %s:absorb:%d", opt,
			    names[!g->who], g->absorb);
		break;
	case FB_RAGE: case FB_PROTECT:
		fprintf(fp, ":%d", g->n);
		break;
	case FB_SIGHT: case FB_MINDTRICK:
		fprintf(fp, ":%s", b->tname[g->target]);
		break;
	case FB_CONVERT:
		fprintf(fp, ":%s", fbtext_slot_name(b, g->from));
		break;
	default:
		break;
	}
}

char *
fbtext_in_format(const struct fb_board *b, const char *const names[2],
    const struct fb_in *in)
{
	struct strbuf o = STRBUF_INIT;
	FILE *fp = strbuf_stream(&o);
	char *buf;

	for (int k = 0; k < in->ngeas; k++)
		if (!in->geas[k].between)
			put_geas(fp, b, names, &in->geas[k]);
	for (int k = 0; k < in->ninit; k++)
		fprintf(fp, "%s%d", k ? "," : " --init ", in->init[k]);
	if (in->choose >= 0)
		fprintf(fp, " --choose %s", b->tname[in->choose]);
	if (in->tdie)
		fprintf(fp, " --target-die %d", in->tdie);
	for (int k = 0; k < in->nmoves; k++) {
		fprintf(fp, " --move %s", b->tname[in->moves[k]]);
		if (in->movesph[k] >= 0)
			fprintf(fp, "@%s", b->sname[in->movesph[k]]);
	}
	if (in->pass)
		fprintf(fp, " --pass");
	for (int w = 0; w < 2; w++) {
		int any = 0;
		char prefix[64];

		for (int i = 0; i < FB_MAXS; i++)
			any |= in->pull[w][i];
		snprintf(prefix, sizeof prefix, "%s:", names[w]);
		if (any)
			put_counts(fp, b, "pull", prefix, in->pull[w], b->ns);
	}
	if (in->hit[0])
		fprintf(fp, " --hit %d,%d", in->hit[0], in->hit[1]);
	for (int k = 0; k < in->ngeas; k++)
		if (in->geas[k].between)
			put_geas(fp, b, names, &in->geas[k]);
	if (in->block[0])
		fprintf(fp, " --block %d,%d", in->block[0], in->block[1]);
	if (in->choke)
		fprintf(fp, " --choke-die %d", in->choke);
	if (in->kick)
		fprintf(fp, " --kick");
	if (in->dmg)
		fprintf(fp, " --damage %d", in->dmg);
	if (in->gain_foe)
		fprintf(fp, " --gain-from-foe");
	if (in->gain)
		fprintf(fp, " --gain %d", in->gain);
	if (in->place_set)
		put_counts(fp, b, "place", "", in->place, FB_NSLOT);
	if (in->ret_set)
		put_counts(fp, b, "return", "", in->ret, b->ns);
	buf = strbuf_detach(&o, NULL);
	if (buf[0] == ' ')
		memmove(buf, buf + 1, strlen(buf));
	return buf;
}

/* ---- the state as status shows it ---- */

const char *
fbtext_stage_name(int stage)
{
	return stage == FB_OPEN ? "before initiative" : stage == FB_INIT ?
	    "initiative rolled" : "target fixed";
}

void
fbtext_geas_text(FILE *fp, const int *geas, int free_geas)
{
	int any = 0;

	for (int g = 0; g < FB_NGEAS; g++)
		if (geas[g] || g == free_geas) {
			fprintf(fp, "%s%s %d%s", any++ ? ", " : "",
			    fb_geas_name(g), geas[g], g == free_geas ?
			    " (free)" : "");
		}
	if (!any)
		fputs("-", fp);
}

/* A sphere's counters: "##.. 2". */
static void
counters_text(FILE *fp, int n)
{
	char bar[FB_CAP + 1];

	for (int k = 0; k < FB_CAP; k++)
		bar[k] = k < n ? '#' : '.';
	bar[FB_CAP] = '\0';
	fprintf(fp, "%s %d", bar, n);
}

/*
 * The status table's columns that may go, the first to go first, once the
 * duelists' columns are as narrow as what they hold.
 */
enum { FBCOL_TOUCHES, FBCOL_BARS, FBCOL_N };

/* How the status table fits: a duelist's column's width, what shows. */
struct fbcols {
	int		 pw;
	unsigned	 show;	/* bit FBCOL_*: shows */
};

/* The width of sphere i's touches, joined by commas. */
static int
touches_width(const struct fb_board *b, int i)
{
	int n = 0;

	for (int t = 0; t < FB_NT; t++)
		if (fb_touches(b, i, t))
			n += (n ? 1 : 0) + (int)strlen(b->tname[t]);
	return n;
}

/* The status table's columns fitted to width (see fbtext_status_text). */
static struct fbcols
status_cols(const struct fb_board *b, const char *const np[2],
    const struct fb_state *s, int width)
{
	static const int drop[] = { FBCOL_TOUCHES, FBCOL_BARS };
	struct fbcols c = { 14, 0 };
	int w[FBCOL_N] = { (int)strlen("touches"), 2 * (FB_CAP + 1) };

	for (int i = 0; i < b->ns; i++)
		if (touches_width(b, i) > w[FBCOL_TOUCHES])
			w[FBCOL_TOUCHES] = touches_width(b, i);
	c.show = fit_columns(width, 13 + 2 * c.pw, w, FBCOL_N, drop, 0);
	if (width <= 0 || 13 + 2 * c.pw + w[FBCOL_TOUCHES] <= width)
		return c;
	/* Narrower: a duelist's column as wide as its widest line. */
	c.pw = FB_CAP + 4;
	for (int k = 0; k < 2; k++) {
		int n = (int)strlen(np[k]) > (int)strlen(fb_side_name(
		    s->p[k].side)) ? (int)strlen(np[k]) :
		    (int)strlen(fb_side_name(s->p[k].side));

		if (n + 1 > c.pw)
			c.pw = n + 1;
	}
	c.show = fit_columns(width, 13 + 2 * (c.pw - FB_CAP - 1), w,
	    FBCOL_N, drop, 2);
	return c;
}

/* Sphere i's row: each duelist's counters, then what it touches. */
static void
sphere_row(FILE *fp, const struct fb_board *b, const struct fb_state *s,
    int i, struct fbcols c)
{
	const char *sep = "";
	int bars = c.show & (1u << FBCOL_BARS);

	fprintf(fp, "%-12s ", b->sname[i]);
	for (int w = 0; w < 2; w++) {
		if (bars)
			counters_text(fp, s->p[w].sph[i]);
		else
			fprintf(fp, "%d", s->p[w].sph[i]);
		if (w == 1 && !(c.show & (1u << FBCOL_TOUCHES))) {
			/* The last column: no padding after it. */
			fputs(s->p[w].gift && i == b->center ? "*" : "", fp);
			continue;
		}
		fprintf(fp, "%s%*s", s->p[w].gift && i == b->center ? "*" :
		    " ", c.pw - (bars ? FB_CAP + 3 : 2), "");
	}
	for (int t = 0; t < FB_NT; t++)
		if ((c.show & (1u << FBCOL_TOUCHES)) && fb_touches(b, i, t)) {
			fprintf(fp, "%s%s", sep, b->tname[t]);
			sep = ",";
		}
	putc('\n', fp);
}

void
fbtext_status_text(FILE *fp, const char *key, const struct fb_board *b,
    const char *const np[2], const struct fb_state *s, int width)
{
	struct fbcols c = status_cols(b, np, s, width);
	int touches = c.show & (1u << FBCOL_TOUCHES);
	struct strbuf t = STRBUF_INIT;
	FILE *out = fp;
	char *head, *folded;

	/* The lines above the table fold to the width, every word kept. */
	fp = strbuf_stream(&t);
	fprintf(fp, "duel %s on board %s, round %d, %s", key, b->name,
	    s->round, fbtext_stage_name(s->stage));
	if (s->stage != FB_OPEN)
		fprintf(fp, ": %s attacks", np[s->attacker]);
	if (s->stage == FB_AIMED)
		fprintf(fp, " %s", b->tname[s->target]);
	if (s->over)
		fprintf(fp, "\nover (%s): %s", fb_end_name(s->end),
		    s->winner < 0 ? "a draw" : np[s->winner]);
	else if (s->stage == FB_OPEN && s->earned >= 0)
		fprintf(fp, "\n%s has earned the initiative", np[s->earned]);
	else if (s->stage == FB_OPEN && s->last_attacker >= 0)
		fprintf(fp, "\n%s attacked last", np[s->last_attacker]);
	if (!s->over && s->choose)
		fprintf(fp, "; the attacker chooses the target");
	head = strbuf_detach(&t, NULL);
	folded = fit_fold(head, width, 2);
	fp = out;
	fputs(folded, fp);
	free(folded);
	free(head);
	fprintf(fp, "\n\n%-12s %-*s %-*s%s\n", "", c.pw, np[0],
	    touches ? c.pw : 0, np[1], touches ? " touches" : "");
	fprintf(fp, "%-12s %-*s %-*s\n", "", c.pw, fb_side_name(s->p[0].side),
	    touches ? c.pw : 0, fb_side_name(s->p[1].side));
	for (int i = 0; i < b->ns; i++)
		sphere_row(fp, b, s, i, c);
	fprintf(fp, "%-12s %-*d %-*d\n", "ATT", c.pw, s->p[0].att,
	    touches ? c.pw : 0, s->p[1].att);
	fprintf(fp, "%-12s %-*d %-*d\n", "DEF", c.pw, s->p[0].def,
	    touches ? c.pw : 0, s->p[1].def);
	fprintf(fp, "%-12s %-*d %-*d\n", "pool", c.pw, s->p[0].pool,
	    touches ? c.pw : 0, s->p[1].pool);
	for (int w = 0; w < 2; w++) {
		fprintf(fp, "%s GEAS: ", np[w]);
		fbtext_geas_text(fp, s->p[w].geas, s->p[w].free_geas);
		if (s->p[w].legs)
			fprintf(fp, "; legs hit: %s%s",
			    s->p[w].legs & 1 ? "left " : "",
			    s->p[w].legs & 2 ? "right" : "");
		if (s->p[w].gift)
			fprintf(fp, "; %d gift counter%s in the center (*)",
			    s->p[w].gift, s->p[w].gift > 1 ? "s" : "");
		if (s->restance >> w & 1)
			fprintf(fp, "; may take a new stance");
		putc('\n', fp);
	}
}
