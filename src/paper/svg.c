/*
 * svg.c - bar charts as SVG (see svg.h).  The layout is fixed arithmetic
 * on the values, so that the same figures give the same bytes: the
 * report's golden tests compare them.
 */
#include "paper/svg.h"

#include <string.h>

#define TOP		28	/* room for the legend */
#define PLOT_H		160
#define BOTTOM		90	/* room for the slanted labels */
#define LEFT		52	/* room for the scale */
#define RIGHT		12
#define BAR_W		22
#define GAP		14
#define LABEL_CHARS	14	/* code points shown under a bar */

static const char *const fills[SVG_SERIES_MAX] = { "#3b6ea5", "#c0504d" };

/* c's number of series, 1 to SVG_SERIES_MAX whatever it says. */
static int
series(const struct svg_chart *c)
{
	return c->nseries < 1 ? 1 : c->nseries > SVG_SERIES_MAX ?
	    SVG_SERIES_MAX : c->nseries;
}

void
svg_text(FILE *fp, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&#39;", fp); break;
		default: putc(*s, fp);
		}
}

/* s cut to max code points, with an ellipsis when cut. */
static void
short_text(FILE *fp, const char *s, size_t max)
{
	char buf[SVG_HLABEL_CHARS * 4 + 1];
	size_t i = 0, chars = 0;

	if (max > SVG_HLABEL_CHARS)
		max = SVG_HLABEL_CHARS;
	for (; i < sizeof buf - 1 && s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80 &&
		    chars++ == max)
			break;
		buf[i] = s[i];
	}
	/* A code point that did not fit whole is left out. */
	while (s[i] && i > 0 && ((unsigned char)s[i] & 0xc0) == 0x80)
		i--;
	buf[i] = '\0';
	svg_text(fp, buf);
	if (s[i])
		fputs("\xe2\x80\xa6", fp);
}

/* A scale's top: 1, 2 or 5 times a power of ten, at least max. */
static double
nice_top(double max)
{
	double p = 1;

	if (max <= 0)
		return 1;
	while (p * 10 <= max)
		p *= 10;
	while (p > max)
		p /= 10;
	if (max <= p)
		return p;
	if (max <= 2 * p)
		return 2 * p;
	if (max <= 5 * p)
		return 5 * p;
	return 10 * p;
}

/* The scale's top; whole numbers get four whole steps. */
static double
chart_max(const struct svg_chart *c)
{
	double max = 0, top;

	for (int s = 0; s < series(c); s++)
		for (size_t i = 0; i < c->n; i++)
			if (c->values[s][i] > max)
				max = c->values[s][i];
	top = nice_top(max);
	if (c->decimals == 0 && (long long)top % 4 != 0) {
		long long whole = ((long long)top + 3) / 4 * 4;

		top = (double)whole;
	}
	return top;
}

/* The number of code points of s. */
static size_t
chars_of(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The scale on the left: four steps, with their lines. */
static void
scale(FILE *fp, int width, double top, int decimals)
{
	for (int k = 0; k <= 4; k++) {
		int y = TOP + PLOT_H - PLOT_H * k / 4;

		fprintf(fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		    "stroke=\"#ddd\"/>\n", LEFT, y, width - RIGHT, y);
		fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" "
		    "font-size=\"10\">%.*f</text>\n", LEFT - 4, y + 3,
		    decimals, top * k / 4);
	}
}

static void
legend(FILE *fp, const struct svg_chart *c)
{
	if (series(c) < 2)
		return;
	for (int s = 0; s < series(c); s++) {
		int x = LEFT + 110 * s;

		fprintf(fp, "<rect x=\"%d\" y=\"8\" width=\"10\" height=\"10\""
		    " fill=\"%s\"/><text x=\"%d\" y=\"17\" font-size=\"11\">",
		    x, fills[s], x + 14);
		svg_text(fp, c->series[s]);
		fputs("</text>\n", fp);
	}
}

/* A bar's rectangle, with the full label and value in its title. */
static void
bar_rect(FILE *fp, const struct svg_chart *c, int s, size_t i, int x, int y,
    int w, int h)
{
	double v = c->values[s][i];

	fprintf(fp, "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%d\" "
	    "height=\"%d\" fill=\"%s\"><title>", x, y, w, h, fills[s]);
	svg_text(fp, c->labels[i]);
	if (series(c) > 1) {
		fputs(", ", fp);
		svg_text(fp, c->series[s]);
	}
	fprintf(fp, ": %.*f</title></rect>\n", c->decimals, v);
}

/* Bar i of series s, its value above it and its full label in a title. */
static void
bar(FILE *fp, const struct svg_chart *c, int s, size_t i, int x, double top)
{
	double v = c->values[s][i];
	int h = (int)(PLOT_H * v / top + 0.5);

	bar_rect(fp, c, s, i, x, TOP + PLOT_H - h, BAR_W, h);
	fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
	    "font-size=\"9\">%.*f</text>\n", x + BAR_W / 2, TOP + PLOT_H - h - 3,
	    c->decimals, v);
}

/* The <svg> element's start: its size, or 100% of its block when wide. */
static void
svg_open(FILE *fp, const struct svg_chart *c, int width, int height,
    int wide)
{
	if (wide)
		fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		    "width=\"100%%\" viewBox=\"0 0 %d %d\" role=\"img\" "
		    "aria-label=\"", width, height);
	else
		fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		    "role=\"img\" aria-label=\"", width, height, width,
		    height);
	svg_text(fp, c->title);
	fputs("\" font-family=\"DejaVu Sans, sans-serif\">\n<title>", fp);
	svg_text(fp, c->title);
	fputs("</title>\n", fp);
}

/*
 * Vertical bars; wide: spread over SVG_PAGE_W units, whatever their
 * number, so that a few hours do not leave most of the page empty; a
 * label as long as the spacing leaves room for (some 6 units a
 * character, slanted), LABEL_CHARS times four at most.
 */
static void
vbars(FILE *fp, const struct svg_chart *c, int wide)
{
	int group = BAR_W * series(c) + GAP, n = (int)(c->n ? c->n : 1);
	int width, height = TOP + PLOT_H + BOTTOM;
	size_t label = LABEL_CHARS;
	double top = chart_max(c);

	if (wide && (SVG_PAGE_W - LEFT - RIGHT) / n > group) {
		group = (SVG_PAGE_W - LEFT - RIGHT) / n;
		label = (size_t)(LABEL_CHARS + (group - BAR_W * series(c) -
		    GAP) / 8);
		if (label > 4 * LABEL_CHARS)
			label = 4 * LABEL_CHARS;
	}
	width = LEFT + RIGHT + group * n;
	if (width < 320)
		width = 320;
	if (wide && width < SVG_PAGE_W)
		width = SVG_PAGE_W;
	svg_open(fp, c, width, height, wide);
	scale(fp, width, top, c->decimals);
	legend(fp, c);
	for (size_t i = 0; i < c->n; i++) {
		int x = LEFT + (group - BAR_W * series(c)) / 2 + group * (int)i;

		for (int s = 0; s < series(c); s++)
			bar(fp, c, s, i, x + BAR_W * s, top);
		fprintf(fp, "<text class=\"label\" transform=\"translate(%d,%d)"
		    " rotate(-40)\" text-anchor=\"end\" font-size=\"10\">",
		    x + BAR_W * series(c) / 2, TOP + PLOT_H + 12);
		short_text(fp, c->labels[i], label);
		fputs("</text>\n", fp);
	}
	fputs("</svg>\n", fp);
}

void
svg_chart_write(FILE *fp, const struct svg_chart *c)
{
	vbars(fp, c, 0);
}

void
svg_chart_write_wide(FILE *fp, const struct svg_chart *c)
{
	vbars(fp, c, 1);
}

#define HB_BAR		14	/* a horizontal bar's thickness */
#define HB_GAP		10	/* between two rows */
#define HB_CHAR		6.5	/* a label's character, font size 11 */
#define HB_VALUE	48	/* room after the longest bar for its value */

/* The scale of horizontal bars, under them: four steps, with lines. */
static void
hscale(FILE *fp, const struct svg_chart *c, int x0, int plot, int bottom,
    double top)
{
	for (int k = 0; k <= 4; k++) {
		int x = x0 + plot * k / 4;

		fprintf(fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		    "stroke=\"#ddd\"/>\n", x, TOP, x, bottom);
		fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
		    "font-size=\"10\">%.*f</text>\n", x, bottom + 12,
		    c->decimals, top * k / 4);
	}
}

void
svg_hbars_write(FILE *fp, const struct svg_chart *c)
{
	int row = HB_BAR * series(c) + HB_GAP, x0, plot;
	int height = TOP + row * (int)c->n + 20;
	size_t longest = 1;
	double top = chart_max(c);

	for (size_t i = 0; i < c->n; i++)
		if (chars_of(c->labels[i]) > longest)
			longest = chars_of(c->labels[i]);
	if (longest > SVG_HLABEL_CHARS)
		longest = SVG_HLABEL_CHARS + 1;
	x0 = 12 + (int)(HB_CHAR * (double)longest);
	plot = SVG_PAGE_W - x0 - HB_VALUE;
	svg_open(fp, c, SVG_PAGE_W, height, 1);
	hscale(fp, c, x0, plot, TOP + row * (int)c->n, top);
	legend(fp, c);
	for (size_t i = 0; i < c->n; i++) {
		int y = TOP + HB_GAP / 2 + row * (int)i;

		fprintf(fp, "<text class=\"label\" x=\"%d\" y=\"%d\" "
		    "text-anchor=\"end\" font-size=\"11\">", x0 - 6,
		    y + row / 2);
		short_text(fp, c->labels[i], SVG_HLABEL_CHARS);
		fputs("</text>\n", fp);
		for (int s = 0; s < series(c); s++) {
			double v = c->values[s][i];
			int w = (int)(plot * v / top + 0.5);

			bar_rect(fp, c, s, i, x0, y + HB_BAR * s, w, HB_BAR);
			fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"10\">"
			    "%.*f</text>\n", x0 + w + 4, y + HB_BAR * s + 11,
			    c->decimals, v);
		}
	}
	fputs("</svg>\n", fp);
}
