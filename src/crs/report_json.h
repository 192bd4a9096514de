/*
 * report_json.h - the organiser's report (report.h) as JSON, the
 * figures of the HTML page for a program to read; the field names are
 * crs-combat(1)'s and kept stable.
 */
#ifndef REFKIT_REPORT_JSON_H
#define REFKIT_REPORT_JSON_H

#include <stdio.h>

#include "crs/report.h"

/* Writes r, finished, to fp as one JSON object. */
void report_json_write(FILE *fp, const struct report *r);

#endif
