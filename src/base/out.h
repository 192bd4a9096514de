/*
 * out.h - rows of named fields written as an aligned table for people, or
 * as CSV or JSON for programs, with one set of calls.
 */
#ifndef REFKIT_OUT_H
#define REFKIT_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum out_format { OUT_TABLE, OUT_CSV, OUT_JSON };

enum out_shape {
	OUT_ROWS,	/* table; CSV with a header; JSON array of objects */
	OUT_OBJECT	/* exactly one row; JSON prints a lone object */
};

struct out;

/*
 * Starts output of rows whose fields are named cols[0..ncols) (the
 * strings must outlive the struct out).  Tables buffer every row to align
 * the columns; CSV and JSON stream.  out_free finishes and frees.
 */
struct out *out_new(FILE *fp, enum out_format fmt, enum out_shape shape,
    int ncols, const char *const *cols);
void out_free(struct out *o);

/* The next field of the current row.  NULL text is an absent value. */
void out_text(struct out *o, const char *s);
void out_int(struct out *o, long v);
void out_null(struct out *o);
/*
 * A moment, Unix time t: local time with its zone in tables, for people;
 * a UTC ISO-8601 stamp ("2026-11-24T10:00:00Z") in CSV and JSON.
 */
void out_time(struct out *o, int64_t t);
/* A list of names: a JSON array, ';'-joined in CSV, ", "-joined in tables. */
void out_list(struct out *o, char *const *names, size_t n);
void out_end_row(struct out *o);

/*
 * Writes s as a JSON string with quotes.  A byte that is not part of
 * valid UTF-8 is written as U+FFFD, so that the JSON stays valid.
 */
void out_json_string(FILE *fp, const char *s);
/* The same for the n bytes at s, NUL bytes among them. */
void out_json_string_len(FILE *fp, const char *s, size_t n);
/* Writes s as a CSV field, quoted only when it must be. */
void out_csv_field(FILE *fp, const char *s);

#endif
