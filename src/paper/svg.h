/*
 * svg.h - bar charts as SVG, written by refkit itself: the organiser's
 * report (crs/report_html.c) and crs-draw --svg draw with it.  Text
 * only: the chart goes to a stream, every label escaped.
 */
#ifndef REFKIT_SVG_H
#define REFKIT_SVG_H

#include <stddef.h>
#include <stdio.h>

#define SVG_SERIES_MAX	2

/*
 * n categories, each a group of nseries bars (1 or 2) of the values
 * given.  Labels and series names are user text, shown cut to a few
 * characters under the bars and whole in each bar's tooltip.  A value
 * is written with decimals digits after the point.
 */
struct svg_chart {
	const char		*title;		/* the chart's accessible name */
	size_t			 n;
	const char *const	*labels;
	int			 nseries;
	const char		*series[SVG_SERIES_MAX];
	const double		*values[SVG_SERIES_MAX];
	int			 decimals;
};

/*
 * Writes c to fp as one <svg> element, fit to stand alone in a file or
 * inline in an HTML page; each bar is a <rect class="bar">.
 */
void svg_chart_write(FILE *fp, const struct svg_chart *c);

/*
 * The same chart spread over the width of the page it is in: drawn on
 * SVG_PAGE_W units, scaled to 100% of its block, its labels left whole
 * up to as many characters as the bars' spacing leaves room for.
 */
void svg_chart_write_wide(FILE *fp, const struct svg_chart *c);

/*
 * The same figures as horizontal bars across the page's width, a row
 * per category with its label whole at the left (up to
 * SVG_HLABEL_CHARS code points), for names: nothing cut that fits.
 */
void svg_hbars_write(FILE *fp, const struct svg_chart *c);

#define SVG_PAGE_W		960
#define SVG_HLABEL_CHARS	60

/* Writes s to fp escaped for XML and HTML text and attribute values. */
void svg_text(FILE *fp, const char *s);

#endif
