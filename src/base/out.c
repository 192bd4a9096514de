/*
 * out.c - table, CSV and JSON writers; see out.h.
 */
#include "base/out.h"

#include "base/strbuf.h"
#include "base/util.h"
#include "base/when.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct out {
	FILE			*fp;
	enum out_format		 fmt;
	enum out_shape		 shape;
	int			 ncols;
	const char *const	*cols;
	int			 col;		/* next field in the row */
	size_t			 nrows;		/* rows ended so far */
	/* Tables: every cell, row by row, and what each column holds. */
	char			**cells;
	size_t			 ncells, cap;
	int			*numeric;	/* 1 while all cells are numbers */
	int			*has_number;	/* 1 once a number is seen */
	/*
	 * CSV: the row being written, handed to stdio whole at its end:
	 * a call to stdio a field and a separator was a sixth of
	 * crs-stats list --csv of a million sheets.
	 */
	struct strbuf		 row;
};

struct out *
out_new(FILE *fp, enum out_format fmt, enum out_shape shape, int ncols,
    const char *const *cols)
{
	struct out *o = xcalloc(1, sizeof *o);

	o->fp = fp;
	o->fmt = fmt;
	o->shape = shape;
	o->ncols = ncols;
	o->cols = cols;
	o->numeric = xcalloc((size_t)ncols, sizeof *o->numeric);
	o->has_number = xcalloc((size_t)ncols, sizeof *o->has_number);
	for (int i = 0; i < ncols; i++)
		o->numeric[i] = 1;
	if (fmt == OUT_CSV) {
		for (int i = 0; i < ncols; i++) {
			if (i)
				putc(',', fp);
			out_csv_field(fp, cols[i]);
		}
		putc('\n', fp);
	} else if (fmt == OUT_JSON && shape == OUT_ROWS)
		putc('[', fp);
	return o;
}

void
out_json_string(FILE *fp, const char *s)
{
	out_json_string_len(fp, s, strlen(s));
}

void
out_json_string_len(FILE *fp, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + n;
	int len;

	putc('"', fp);
	for (; s < end; s++) {
		switch (*s) {
		case '"': fputs("\\\"", fp); break;
		case '\\': fputs("\\\\", fp); break;
		case '\n': fputs("\\n", fp); break;
		case '\t': fputs("\\t", fp); break;
		case '\r': fputs("\\r", fp); break;
		default:
			if (*s < 0x20 || *s == 0x7f)
				fprintf(fp, "\\u%04x", *s);
			else if (*s < 0x80)
				putc(*s, fp);
			else if ((len = util_utf8_len((const char *)s,
			    (size_t)(end - s))) > 0) {
				fwrite(s, 1, (size_t)len, fp);
				s += len - 1;
			} else
				fputs("\\ufffd", fp);
		}
	}
	putc('"', fp);
}

/* 1 if s goes into a CSV field as it is, without quotes. */
static int
csv_plain(const char *s)
{
	return strpbrk(s, ",\"\r\n") == NULL && !isspace((unsigned char)*s) &&
	    (*s == '\0' || !isspace((unsigned char)s[strlen(s) - 1]));
}

/* out_csv_field's field, onto the row being written. */
static void
csv_field_row(struct out *o, const char *s)
{
	if (csv_plain(s)) {
		strbuf_addstr(&o->row, s);
		return;
	}
	strbuf_addch(&o->row, '"');
	for (; *s; s++) {
		if (*s == '"')
			strbuf_addch(&o->row, '"');
		strbuf_addch(&o->row, *s);
	}
	strbuf_addch(&o->row, '"');
}

void
out_csv_field(FILE *fp, const char *s)
{
	if (csv_plain(s)) {
		fputs(s, fp);
		return;
	}
	putc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', fp);
		putc(*s, fp);
	}
	putc('"', fp);
}

/* Puts the separator and key that come before the next field. */
static void
field_start(struct out *o)
{
	/* More fields than columns is a bug in the caller. */
	if (o->col >= o->ncols)
		abort();
	if (o->fmt == OUT_CSV) {
		if (o->col > 0)
			strbuf_addch(&o->row, ',');
	} else if (o->fmt == OUT_JSON) {
		if (o->col == 0) {
			if (o->shape == OUT_ROWS)
				fputs(o->nrows ? ",\n" : "\n", o->fp);
			putc('{', o->fp);
		} else
			putc(',', o->fp);
		out_json_string(o->fp, o->cols[o->col]);
		putc(':', o->fp);
	}
}

/* Keeps a table cell; NULL is shown as "-". */
static void
table_cell(struct out *o, const char *s, int is_number)
{
	if (o->ncells == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 64;
		o->cells = xreallocarray(o->cells, o->cap, sizeof *o->cells);
	}
	o->cells[o->ncells++] = s ? xstrdup(s) : NULL;
	if (s && !is_number)
		o->numeric[o->col] = 0;
	if (s && is_number)
		o->has_number[o->col] = 1;
}

void
out_text(struct out *o, const char *s)
{
	if (o->fmt == OUT_TABLE)
		table_cell(o, s, 0);
	else {
		field_start(o);
		if (o->fmt == OUT_CSV)
			csv_field_row(o, s ? s : "");
		else if (s)
			out_json_string(o->fp, s);
		else
			fputs("null", o->fp);
	}
	o->col++;
}

void
out_null(struct out *o)
{
	out_text(o, NULL);
}

void
out_time(struct out *o, int64_t t)
{
	char buf[WHEN_LOCAL_SIZE];

	if (o->fmt == OUT_TABLE)
		when_local(buf, sizeof buf, t);
	else
		util_time_iso(buf, sizeof buf, t);
	out_text(o, buf);
}

/*
 * v in decimal into buf (at least 21 bytes), as "%ld" writes it: a list
 * of a million sheets writes sixteen numbers a sheet, and snprintf's
 * parsing of its format was a tenth of crs-stats list --csv.
 */
static void
decimal(char *buf, long v)
{
	char digits[24];
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
	size_t n = 0;

	do
		digits[n++] = (char)('0' + u % 10);
	while ((u /= 10) > 0);
	if (v < 0)
		*buf++ = '-';
	while (n > 0)
		*buf++ = digits[--n];
	*buf = '\0';
}

void
out_int(struct out *o, long v)
{
	char buf[32];

	decimal(buf, v);
	if (o->fmt == OUT_TABLE)
		table_cell(o, buf, 1);
	else {
		field_start(o);
		if (o->fmt == OUT_CSV)
			strbuf_addstr(&o->row, buf);
		else
			fputs(buf, o->fp);
	}
	o->col++;
}

void
out_list(struct out *o, char *const *names, size_t n)
{
	size_t len = 1, off = 0;
	char *joined;
	const char *sep = o->fmt == OUT_TABLE ? ", " : ";";
	size_t seplen = strlen(sep);

	if (o->fmt == OUT_JSON) {
		field_start(o);
		putc('[', o->fp);
		for (size_t i = 0; i < n; i++) {
			if (i)
				putc(',', o->fp);
			out_json_string(o->fp, names[i]);
		}
		putc(']', o->fp);
		o->col++;
		return;
	}
	if (n == 0) {
		out_text(o, NULL);
		return;
	}
	for (size_t i = 0; i < n; i++)
		len += strlen(names[i]) + seplen;
	joined = xmalloc(len);
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(names[i]);

		if (i) {
			memcpy(joined + off, sep, seplen);
			off += seplen;
		}
		memcpy(joined + off, names[i], l);
		off += l;
	}
	joined[off] = '\0';
	out_text(o, joined);
	free(joined);
}

void
out_end_row(struct out *o)
{
	if (o->fmt == OUT_CSV) {
		strbuf_addch(&o->row, '\n');
		fwrite(strbuf_text(&o->row), 1, o->row.len, o->fp);
		strbuf_reset(&o->row);
	} else if (o->fmt == OUT_JSON)
		putc('}', o->fp);
	o->col = 0;
	o->nrows++;
}

static void
table_print(struct out *o)
{
	size_t *width = xcalloc((size_t)o->ncols, sizeof *width);
	size_t nrows = o->ncells / (size_t)o->ncols;

	for (int c = 0; c < o->ncols; c++)
		width[c] = strlen(o->cols[c]);
	for (size_t i = 0; i < o->ncells; i++) {
		size_t w = o->cells[i] ? util_safe_width(o->cells[i]) : 1;
		size_t c = i % (size_t)o->ncols;

		if (w > width[c])
			width[c] = w;
	}
	for (size_t r = 0; r <= nrows; r++) {
		for (int c = 0; c < o->ncols; c++) {
			const char *s = r == 0 ? o->cols[c] :
			    o->cells[(r - 1) * (size_t)o->ncols + (size_t)c];
			size_t w = s ? util_safe_width(s) : 1;
			int last = c == o->ncols - 1;
			size_t pad = width[c] - w;

			if (o->numeric[c] && o->has_number[c])
				for (; pad > 0; pad--)
					putc(' ', o->fp);
			if (r == 0)
				for (const char *p = s; *p; p++)
					putc(toupper((unsigned char)*p), o->fp);
			else if (s)
				util_fputs_safe(s, o->fp);
			else
				putc('-', o->fp);
			if (!last) {
				for (; pad > 0; pad--)
					putc(' ', o->fp);
				fputs("  ", o->fp);
			}
		}
		putc('\n', o->fp);
	}
	free(width);
}

void
out_free(struct out *o)
{
	if (o == NULL)
		return;
	if (o->fmt == OUT_TABLE) {
		table_print(o);
		for (size_t i = 0; i < o->ncells; i++)
			free(o->cells[i]);
		free(o->cells);
	} else if (o->fmt == OUT_JSON)
		fputs(o->shape == OUT_ROWS ? (o->nrows ? "\n]\n" : "]\n") :
		    "\n", o->fp);
	/* A row left without its end is written as it stands. */
	if (o->row.len > 0)
		fwrite(strbuf_text(&o->row), 1, o->row.len, o->fp);
	strbuf_release(&o->row);
	free(o->numeric);
	free(o->has_number);
	free(o);
}
