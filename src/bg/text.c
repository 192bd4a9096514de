/*
 * bg/text.c - the text forms of Battle Grounds; see bg/text.h.
 */
#include "bg/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fit.h"
#include "base/names.h"
#include "base/util.h"

/* Splits s at sep into at most max fields of buf; returns the count. */
static int
split(char *buf, int sep, char **field, int max)
{
	int n = 0;

	field[n++] = buf;
	for (char *p = buf; *p; p++)
		if (*p == sep) {
			*p = '\0';
			if (n == max)
				return max + 1;
			field[n++] = p + 1;
		}
	return n;
}

int
bgtext_figure_parse(const char *spec, struct bg_figure *f, char *why,
    size_t whysz)
{
	char buf[256], *part[5], *num[7], *pw[BG_NPOWER + 1];
	int n, k;
	size_t len;

	memset(f, 0, sizeof *f);
	if (strlen(spec) >= sizeof buf)
		return util_say(why, whysz, "a figure spec is at most %zu bytes",
		    sizeof buf - 1);
	snprintf(buf, sizeof buf, "%s", spec);
	n = split(buf, ':', part, 4);
	if (n < 3 || n > 4)
		return util_say(why, whysz, "a figure is NAME:LEVEL:R,O,Y,G,B,P"
		    "[:POWERS]");
	if (!bg_name_ok(part[0]))
		return util_say(why, whysz, "figure name '%s': one word of up to %d "
		    "letters, digits, '-', '_' or '.'", part[0], BG_NAMESZ - 1);
	snprintf(f->name, sizeof f->name, "%s", part[0]);
	len = strlen(part[1]);
	if (len > 0 && part[1][len - 1] == '*') {
		f->cosmic = 1;
		part[1][len - 1] = '\0';
	}
	if ((f->level = bg_level_find(part[1])) < 0)
		return util_say(why, whysz, "figure '%s': level '%s' is not SA, I, "
		    "II or III", f->name, part[1]);
	if (split(part[2], ',', num, 6) != 6)
		return util_say(why, whysz, "figure '%s': six Battle Stats, red "
		    "orange yellow green blue purple, comma-separated",
		    f->name);
	for (k = 0; k < BG_NSTAT; k++) {
		long v;

		if (util_parse_int(num[k], 0, BG_STAT_MAX, &v) != UTIL_INT_OK)
			return util_say(why, whysz, "figure '%s': %s must be a whole "
			    "number from 0 to %d, got '%s'", f->name,
			    bg_colour_name(k), BG_STAT_MAX, num[k]);
		f->stat[k] = (int)v;
	}
	if (n == 4 && part[3][0] != '\0') {
		int np = split(part[3], '+', pw, BG_NPOWER);

		if (np > BG_NPOWER)
			return util_say(why, whysz, "figure '%s': too many powers",
			    f->name);
		for (k = 0; k < np; k++) {
			int p = bg_power_find(pw[k]);

			if (p < 0)
				return util_say(why, whysz, "figure '%s': unknown "
				    "power '%s'", f->name, pw[k]);
			f->powers |= 1u << p;
		}
	}
	return 0;
}

char *
bgtext_powers(unsigned powers, const char *sep)
{
	char buf[128] = "";
	size_t len = 0;

	for (int p = 0; p < BG_NPOWER; p++)
		if (powers >> p & 1u)
			len += (size_t)snprintf(buf + len, sizeof buf - len,
			    "%s%s", len ? sep : "", bg_power_name(p));
	return xstrdup(buf);
}

char *
bgtext_figure_format(const struct bg_figure *f)
{
	char *pw = bgtext_powers(f->powers, "+"), *out;

	out = xasprintf("%s:%s%s:%d,%d,%d,%d,%d,%d%s%s", f->name,
	    bg_level_name(f->level), f->cosmic ? "*" : "", f->stat[0],
	    f->stat[1], f->stat[2], f->stat[3], f->stat[4], f->stat[5],
	    pw[0] ? ":" : "", pw);
	free(pw);
	return out;
}

int
bgtext_team_parse(const char *text, struct bg_team *t, char *why, size_t whysz)
{
	int line = 0;
	char err[BG_WHYSZ];

	while (*text) {
		size_t n = strcspn(text, "\n");
		char buf[512], *s, *e;

		line++;
		if (n >= sizeof buf)
			return util_say(why, whysz, "line %d: too long", line);
		snprintf(buf, sizeof buf, "%.*s", (int)n, text);
		text += n + (text[n] == '\n');
		buf[strcspn(buf, "#")] = '\0';
		for (s = buf; *s == ' ' || *s == '\t' || *s == '\r'; s++)
			;
		for (e = s + strlen(s); e > s && (e[-1] == ' ' ||
		    e[-1] == '\t' || e[-1] == '\r'); e--)
			;
		*e = '\0';
		if (*s == '\0')
			continue;
		if (t->n == BG_MAXFIG)
			return util_say(why, whysz, "line %d: a team has at most %d "
			    "figures", line, BG_MAXFIG);
		if (bgtext_figure_parse(s, &t->f[t->n], err, sizeof err) < 0)
			return util_say(why, whysz, "line %d: %s", line, err);
		t->n++;
	}
	return 0;
}

char *
bgtext_team_format(const struct bg_team *t)
{
	char *out = xstrdup("");

	for (int i = 0; i < t->n; i++) {
		char *f = bgtext_figure_format(&t->f[i]), *next;

		next = xasprintf("%s%s\n", out, f);
		free(out);
		free(f);
		out = next;
	}
	return out;
}

int
bgtext_team(const struct bg_game *g, const char *s, char *why, size_t whysz)
{
	const char *const all[2] = { g->team[0].name, g->team[1].name };

	if ((s[0] == '1' || s[0] == '2') && s[1] == '\0')
		return s[0] - '1';
	return names_lookup_in(s, all, 2, "is neither team", "the teams", why,
	    whysz);
}

/*
 * The figure of player p's team that s names by base/names.h's rule, or
 * -1 with the refusal in why, which lists the team's figures.
 */
static int
team_piece(const struct bg_game *g, int p, const char *s, char *why,
    size_t whysz)
{
	const struct bg_team *t = &g->team[p];
	const char *all[BG_MAXFIG];
	char *what = xasprintf("is not a figure of %s", t->name);
	int i;

	for (i = 0; i < t->n; i++)
		all[i] = t->f[i].name;
	i = names_lookup_in(s, all, (size_t)t->n, what, "its figures", why,
	    whysz);
	free(what);
	return i < 0 ? -1 : p * BG_MAXFIG + i;
}

/*
 * The full name that a bare s means among both teams' figures, into
 * full: s itself when a figure has it but for case (bg_piece_find), else
 * the one name that s begins, or one of whose words it begins.  -1 with
 * the refusal in why, which lists the figures of prefer's team (both
 * teams' when prefer is -1).
 */
static int
game_name(const struct bg_game *g, const char *s, int prefer,
    char full[BG_NAMESZ], char *why, size_t whysz)
{
	const char *all[2 * BG_MAXFIG], *found;
	struct names m;
	size_t n = 0;
	int rc = -1;

	names_init(&m, s);
	for (int p = 0; p < 2; p++)
		for (int i = 0; i < g->team[p].n; i++) {
			names_add(&m, g->team[p].f[i].name);
			if (prefer < 0 || p == prefer)
				all[n++] = g->team[p].f[i].name;
		}
	if (names_pick(&m, &found) == NAMES_FOUND) {
		snprintf(full, BG_NAMESZ, "%s", found);
		rc = 0;
	} else {
		char *in = prefer < 0 ? xstrdup("in it") :
		    xasprintf("figures of %s", g->team[prefer].name);

		names_why_in(&m, "is not a figure of this game", all, n, in,
		    why, whysz);
		free(in);
	}
	names_release(&m);
	return rc;
}

int
bgtext_piece(const struct bg_game *g, const char *s, int prefer, char *why,
    size_t whysz)
{
	const char *colon = strchr(s, ':');
	char full[BG_NAMESZ];
	int found[2];

	if (colon != NULL) {
		char *team = xstrndup(s, (size_t)(colon - s));
		int p = bgtext_team(g, team, why, whysz);

		free(team);
		return p < 0 ? -1 : team_piece(g, p, colon + 1, why, whysz);
	}
	found[0] = bg_piece_find(g, 0, s);
	found[1] = bg_piece_find(g, 1, s);
	if (found[0] < 0 && found[1] < 0) {
		/* No name but for case: the one that s begins. */
		if (game_name(g, s, prefer, full, why, whysz) < 0)
			return -1;
		s = full;
		found[0] = bg_piece_find(g, 0, s);
		found[1] = bg_piece_find(g, 1, s);
	}
	if (found[0] >= 0 && found[1] >= 0) {
		if (prefer >= 0) {
			/* The figure player prefer moves, else her own. */
			for (int k = 0; k < 2; k++)
				if (g->pc[found[k]].ctrl == prefer &&
				    g->pc[found[!k]].ctrl != prefer)
					return found[k];
			return found[prefer];
		}
		return util_say(why, whysz, "both teams have '%s': say 1:%s or "
		    "2:%s", s, s, s);
	}
	return found[0] >= 0 ? found[0] : found[1];
}

void
bgtext_piece_name(const struct bg_game *g, int piece, char *buf, size_t bufsz)
{
	snprintf(buf, bufsz, "%d:%s", piece / BG_MAXFIG + 1,
	    bg_fig(g, piece)->name);
}

/* A comma-separated list of dice (1 to 6) into d[0..max). */
static int
dice_list(const char *opt, const char *val, int *d, int max, int *n,
    char *why, size_t whysz)
{
	char buf[128], *f[BG_MAXROLLS + 1];
	int k;

	if (strlen(val) >= sizeof buf)
		return util_say(why, whysz, "--%s: too long", opt);
	snprintf(buf, sizeof buf, "%s", val);
	k = split(buf, ',', f, max);
	if (k > max)
		return util_say(why, whysz, "--%s: at most %d dice", opt, max);
	for (int i = 0; i < k; i++) {
		long v;

		if (util_parse_int(f[i], 1, 6, &v) != UTIL_INT_OK)
			return util_say(why, whysz, "--%s: a die reads 1 to 6, got "
			    "'%s'", opt, f[i]);
		d[i] = (int)v;
	}
	*n = k;
	return 0;
}

int
bgtext_move_option(const struct bg_game *g, const char *opt, const char *val,
    struct bg_move_in *in, char *why, size_t whysz)
{
	int n = 0, c;

	if (strcmp(opt, "roll") == 0)
		return dice_list(opt, val, in->roll, BG_MAXROLLS, &in->nroll,
		    why, whysz) < 0 ? -1 : 1;
	if (strcmp(opt, "vs-roll") == 0)
		return dice_list(opt, val, in->vs, BG_MAXROLLS, &in->nvs, why,
		    whysz) < 0 ? -1 : 1;
	if (strcmp(opt, "stat-roll") == 0) {
		if (dice_list(opt, val, in->statroll, 2, &n, why, whysz) < 0)
			return -1;
		if (n != 2)
			return util_say(why, whysz, "--stat-roll: two dice, the "
			    "attacker's then the defender's");
		return 1;
	}
	if (strcmp(opt, "stat") == 0 || strcmp(opt, "att-stat") == 0 ||
	    strcmp(opt, "def-stat") == 0) {
		if ((c = bg_colour_find(val)) < 0)
			return util_say(why, whysz, "--%s: '%s' is not a stat "
			    "colour (red, orange, yellow, green, blue, purple)",
			    opt, val);
		if (opt[0] == 's')
			in->stat = c;
		else if (opt[0] == 'a')
			in->att_stat = c;
		else
			in->def_stat = c;
		return 1;
	}
	if (strcmp(opt, "release") == 0) {
		in->release = bgtext_piece(g, val, g->turn, why, whysz);
		return in->release < 0 ? -1 : 1;
	}
	if (strcmp(opt, "release-to") == 0 || strcmp(opt, "return") == 0) {
		int sq = bg_square_parse(g, val);

		if (sq < 0)
			return util_say(why, whysz, "--%s: '%s' is not a square of "
			    "this board", opt, val);
		*(opt[1] == 'e' && opt[2] == 'l' ? &in->release_to :
		    &in->return_to) = sq;
		return 1;
	}
	return 0;
}

int
bgtext_move_parse(const struct bg_game *g, const char *text,
    struct bg_move_in *in, char *why, size_t whysz)
{
	char *buf = xstrdup(text), *tok[40];
	int n = 0, rc = 0;

	bg_move_init(in);
	for (char *p = strtok(buf, " "); p != NULL; p = strtok(NULL, " "))
		if (n < 40)
			tok[n++] = p;
	if (n < 2 || n > 38 || n % 2 != 0) {
		free(buf);
		return util_say(why, whysz, "a move is PIECE SQUARE [--OPT VALUE]");
	}
	if ((in->piece = bgtext_piece(g, tok[0], g->turn, why, whysz)) < 0)
		rc = -1;
	else if ((in->to = bg_square_parse(g, tok[1])) < 0)
		rc = util_say(why, whysz, "'%s' is not a square of this board",
		    tok[1]);
	for (int k = 2; k < n && rc == 0; k += 2) {
		int took = strncmp(tok[k], "--", 2) != 0 ? 0 :
		    bgtext_move_option(g, tok[k] + 2, tok[k + 1], in, why, whysz);

		/* A wrong value keeps the option's own reason. */
		if (took < 0)
			rc = -1;
		else if (took == 0)
			rc = util_say(why, whysz, "'%s' is not a move option",
			    tok[k]);
	}
	free(buf);
	return rc;
}

static char *
join_dice(const int *d, int n)
{
	char buf[64] = "";
	size_t len = 0;

	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%d",
		    i ? "," : "", d[i]);
	return xstrdup(buf);
}

char *
bgtext_move_format(const struct bg_game *g, const struct bg_move_in *in)
{
	char piece[BG_PIECESZ], sq[4], *out, *next;

	bgtext_piece_name(g, in->piece, piece, sizeof piece);
	bg_square_name(g, in->to, sq);
	out = xasprintf("%s %s", piece, sq);
#define ADD(...) do { next = xasprintf(__VA_ARGS__); free(out); \
	out = next; } while (0)
	if (in->statroll[0])
		ADD("%s --stat-roll %d,%d", out, in->statroll[0],
		    in->statroll[1]);
	if (in->stat >= 0)
		ADD("%s --stat %s", out, bg_colour_name(in->stat));
	if (in->att_stat >= 0)
		ADD("%s --att-stat %s", out, bg_colour_name(in->att_stat));
	if (in->def_stat >= 0)
		ADD("%s --def-stat %s", out, bg_colour_name(in->def_stat));
	if (in->nroll > 0) {
		char *a = join_dice(in->roll, in->nroll);
		char *b = join_dice(in->vs, in->nvs);

		ADD("%s --roll %s --vs-roll %s", out, a, b);
		free(a);
		free(b);
	}
	if (in->return_to >= 0) {
		bg_square_name(g, in->return_to, sq);
		ADD("%s --return %s", out, sq);
	}
	if (in->release >= 0) {
		bgtext_piece_name(g, in->release, piece, sizeof piece);
		ADD("%s --release %s", out, piece);
	}
	if (in->release_to >= 0) {
		bg_square_name(g, in->release_to, sq);
		ADD("%s --release-to %s", out, sq);
	}
#undef ADD
	return out;
}

/* ---- the board as show draws it ---- */

const char bgtext_legend[] =
    "squares: R O Y G B P the stat colours, W white, * all colours (lower "
    "case under a figure);\nfigures: NAME1/NAME2 the team, * Cosmic, ~ "
    "hypnotized\n";

/*
 * What of the board may go on a narrow screen, the first to go first:
 * the brackets around the cells (a space between them instead), the
 * ranks' numbers on the right, the names' last two letters.
 */
enum { BGCOL_BRACKETS, BGCOL_RIGHT, BGCOL_NAMES, BGCOL_N };

/* How the board fits: a cell's width without brackets, what shows. */
struct bgcols {
	int		 cell;		/* 7, or 5 with short names */
	int		 brackets;	/* "[...]"; else a space between */
	int		 right;
};

static struct bgcols
board_cols(const struct bg_game *g, int colour, int width)
{
	static const int drop[] = { BGCOL_BRACKETS, BGCOL_RIGHT, BGCOL_NAMES };
	int w[BGCOL_N];
	int gaps = colour ? 0 : g->w - 1;
	unsigned show;

	w[BGCOL_BRACKETS] = colour ? 0 : 2 * g->w - gaps;
	w[BGCOL_RIGHT] = g->h >= 10 ? 3 : 2;
	w[BGCOL_NAMES] = 2 * g->w;
	show = fit_columns(width, 3 + 5 * g->w + gaps, w, BGCOL_N, drop,
	    BGCOL_N);
	return (struct bgcols){ show & (1u << BGCOL_NAMES) ? 7 : 5,
	    !colour && (show & (1u << BGCOL_BRACKETS)),
	    (show & (1u << BGCOL_RIGHT)) != 0 };
}

/* The text between file f's cell and the next: a space without brackets. */
static const char *
gap(const struct bg_game *g, int colour, struct bgcols c, int f)
{
	return !colour && !c.brackets && f < g->w - 1 ? " " : "";
}

/* The files' letters, each over the middle of its cells. */
static void
board_files(const struct bg_game *g, int colour, struct bgcols c,
    void (*put)(void *arg, int sq, const char *text), void *arg)
{
	int cw = c.cell + (c.brackets ? 2 : 0), left = (cw - 1) / 2;
	char buf[32];

	put(arg, -1, "   ");
	for (int f = 0; f < g->w; f++) {
		snprintf(buf, sizeof buf, "%*s%c%*s%s", left, "", 'a' + f,
		    cw - 1 - left, "", gap(g, colour, c, f));
		put(arg, -1, buf);
	}
	put(arg, -1, "\n");
}

/* Square sq's cell: a piece's name's start, team, mark, colour. */
static void
board_cell(const struct bg_game *g, int colour, struct bgcols c, int sq,
    char *cell, size_t size)
{
	static const char initial[] = "ROYGBPW*";
	int p = g->at[sq], col = bg_square_colour(g, sq), nw = c.cell - 3;

	if (p >= 0)
		snprintf(cell, size, "%-*.*s%d%c%c", nw, nw,
		    bg_fig(g, p)->name, p / BG_MAXFIG + 1,
		    g->pc[p].ctrl != g->pc[p].owner ? '~' :
		    bg_fig(g, p)->cosmic ? '*' : ' ',
		    colour ? ' ' : col == BG_ALL ? '*' :
		    initial[col] + 'a' - 'A');
	else
		snprintf(cell, size, "%*s%c%*s", (c.cell - 1) / 2, "",
		    colour ? ' ' : initial[col], c.cell - 1 - (c.cell - 1) / 2,
		    "");
}

void
bgtext_board(const struct bg_game *g, int colour, int width,
    void (*put)(void *arg, int sq, const char *text), void *arg)
{
	struct bgcols c = board_cols(g, colour, width);
	char buf[32], cell[16];

	board_files(g, colour, c, put, arg);
	for (int r = g->h - 1; r >= 0; r--) {
		snprintf(buf, sizeof buf, "%2d ", r + 1);
		put(arg, -1, buf);
		for (int f = 0; f < g->w; f++) {
			int sq = r * g->w + f;

			board_cell(g, colour, c, sq, cell, sizeof cell);
			snprintf(buf, sizeof buf, c.brackets ? "[%s]" : "%s",
			    cell);
			put(arg, sq, buf);
			if (*gap(g, colour, c, f))
				put(arg, -1, gap(g, colour, c, f));
		}
		snprintf(buf, sizeof buf, c.right ? " %d\n" : "\n", r + 1);
		put(arg, -1, buf);
	}
}

void
bgtext_zones(FILE *fp, const struct bg_game *g)
{
	char a[4];

	for (int p = 0; p < 2; p++) {
		int n = 0;

		fprintf(fp, "%s (%s): Dice Zone", g->team[p].name, p ?
		    "north" : "south");
		for (int d = 0; d < BG_NDICE; d++)
			if (g->dicezone[p] >> d & 1u)
				fprintf(fp, "%s%d", n++ ? "," : " ", d + 1);
		fprintf(fp, "%s; Holding Zone:", n ? "" : " empty");
		n = 0;
		for (int i = 0; i < 2 * BG_MAXFIG; i++)
			if (i % BG_MAXFIG < g->team[i / BG_MAXFIG].n &&
			    g->pc[i].sq < 0 && g->pc[i].held == p)
				fprintf(fp, "%s %s (%s)", n++ ? "," : "",
				    bg_fig(g, i)->name,
				    g->team[i / BG_MAXFIG].name);
		fprintf(fp, "%s\n", n ? "" : " empty");
	}
	fprintf(fp, "pieces:");
	for (int i = 0, n = 0; i < 2 * BG_MAXFIG; i++)
		if (i % BG_MAXFIG < g->team[i / BG_MAXFIG].n &&
		    g->pc[i].sq >= 0) {
			bg_square_name(g, g->pc[i].sq, a);
			fprintf(fp, "%s %s=%s%s", n++ % 6 ? "," : "\n ", a,
			    bg_fig(g, i)->name, g->pc[i].ctrl !=
			    g->pc[i].owner ? " (hypnotized)" : "");
		}
	putc('\n', fp);
	if (g->over)
		fprintf(fp, "game over: %s captured the Cosmic figure and "
		    "won.\n", g->team[g->winner].name);
	else
		fprintf(fp, "turn %d: %s to move.\n", g->moves + 1,
		    g->team[g->turn].name);
}
