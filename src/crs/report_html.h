/*
 * report_html.h - the organiser's report (report.h) as one HTML page
 * that needs nothing else: its style and its charts (paper/svg.h) are in
 * the page, every name escaped.
 */
#ifndef REFKIT_REPORT_HTML_H
#define REFKIT_REPORT_HTML_H

#include <stdio.h>

#include "crs/report.h"

/* Writes r, finished, to fp as a whole HTML document. */
void report_html_write(FILE *fp, const struct report *r);

#endif
