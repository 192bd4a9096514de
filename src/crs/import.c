/*
 * import.c - roster files in; see import.h.  CSV is parsed by libcsv in
 * strict mode, but for lines with no quote, carriage return or NUL byte,
 * which are only split at their commas (csv_plain_line); JSON by
 * SQLite's JSON functions on a private in-memory connection, so that no
 * hand-written parser of quoting or escapes stands between a GM's file
 * and the database.
 */
#include "crs/import.h"

#include "base/util.h"

#include <csv.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PROGRESS_EVERY	8192


/* Shared state of one import. */
struct reader {
	const char	*file;
	import_row_fn	 row;
	void		*ctx;
	char		*error;		/* first error, with its location */
	int		 progress;
	long		 nrecords;
	off_t		 size;		/* bytes in the file, 0 if unknown */
	off_t		 done;		/* bytes read so far */
	/* CSV */
	int		 ncols;		/* columns in the header */
	int		*field;		/* sheet field of each column */
	long		 line;		/* the line being read */
	long		 rec_line;	/* where the current record started */
	int		 col;		/* fields seen in the current record */
	struct sheet	 sheet;
	unsigned char	 present[SHEET_F_COUNT];
	char		*value_error;	/* a field's error, before its row ends */
	int		 ended;		/* libcsv's last call ended a record */
	int		 in_record;	/* libcsv is inside a record */
};

static void
show_progress(struct reader *r, int last)
{
	/* Small imports finish too fast to need a running count. */
	if (!r->progress || r->nrecords < PROGRESS_EVERY)
		return;
	if (!last && r->nrecords % PROGRESS_EVERY != 0)
		return;
	if (r->size > 0)
		fprintf(stderr, "\rimporting: %ld records (%d%%)", r->nrecords,
		    (int)(100 * (double)r->done / (double)r->size));
	else
		fprintf(stderr, "\rimporting: %ld records", r->nrecords);
	if (last)
		putc('\n', stderr);
	fflush(stderr);
}

/* Records the first error; the format starts after "FILE: WHERE: ". */
static void
fail(struct reader *r, const char *where, char *msg)
{
	if (r->error == NULL)
		r->error = xasprintf("%s: %s: %s", r->file, where, msg);
	free(msg);
}

/*
 * A stat written the usual way, digits without a leading zero and within
 * its range, read here: sheet_set_field's general path, through the one
 * number rule, showed in the profile of a large import.  It takes the
 * rest, and words the refusals.  Returns 0 when the stat was set.
 */
static int
quick_stat(struct sheet *sh, int f, const char *value)
{
	int given = f >= SHEET_F_GIVEN, v = 0, i;

	if (f < SHEET_F_PRIMARY || f >= SHEET_F_ITEMS ||
	    (value[0] == '0' && value[1] != '\0'))
		return -1;
	for (i = 0; value[i] >= '0' && value[i] <= '9' && i < 6; i++)
		v = 10 * v + (value[i] - '0');
	if (i == 0 || value[i] != '\0' ||
	    v > (given ? STATS_SECONDARY_MAX : STATS_PRIMARY_MAX))
		return -1;
	if (given)
		sh->given[f - SHEET_F_GIVEN] = v;
	else
		sh->primary[f - SHEET_F_PRIMARY] = v;
	return 0;
}

/* Sets one field of the sheet from text; an error message on failure. */
static char *
set_field(struct sheet *sh, int f, const char *value)
{
	char why[160];
	char *snip;
	char *msg;

	if (quick_stat(sh, f, value) == 0 ||
	    sheet_set_field(sh, f, value, why, sizeof why) == 0)
		return NULL;
	snip = util_snippet(value);
	msg = xasprintf("'%s' %s, got '%s'", sheet_field_name(f), why, snip);
	free(snip);
	return msg;
}

/* Hands a finished sheet to the caller. */
static void
deliver(struct reader *r, const char *where)
{
	char *msg;

	r->nrecords++;
	if (!r->present[SHEET_F_NAME]) {
		fail(r, where, xstrdup("'name' is missing"));
		sheet_release(&r->sheet);	/* not handed over */
	} else if ((msg = r->row(r->ctx, &r->sheet, r->present,
	    where)) != NULL)
		fail(r, where, msg);
	sheet_init(&r->sheet);
	show_progress(r, 0);
}

/* CSV: libcsv calls these per field and per end of record. */

/*
 * One field, NUL-terminated at len; plain when it comes from a line
 * without quotes, carriage returns or NUL bytes (csv_plain_line).
 */
static void
field(struct reader *r, const char *s, size_t len, int plain)
{
	if (r->col == 0)
		r->rec_line = r->line;
	/* A quoted field may hold newlines; they count towards the line. */
	for (size_t i = 0; !plain && i < len; i++)
		if (s[i] == '\n')
			r->line++;
	if (!plain && memchr(s, '\0', len) != NULL) {
		if (r->value_error == NULL)
			r->value_error = xstrdup("a field holds a NUL byte");
	} else if (r->ncols == 0) {
		/* The header row: collect the column names. */
		int f = sheet_field_lookup(s);
		char *snip;

		r->field = xreallocarray(r->field, (size_t)r->col + 1,
		    sizeof *r->field);
		r->field[r->col] = f;
		if (r->value_error == NULL) {
			snip = util_snippet(s);
			if (f < 0)
				r->value_error = xasprintf("unknown column "
				    "'%s'", snip);
			else if (r->present[f])
				r->value_error = xasprintf("column '%s' "
				    "appears twice", snip);
			free(snip);
		}
		if (f >= 0)
			r->present[f] = 1;
	} else if (r->col < r->ncols && r->value_error == NULL)
		r->value_error = set_field(&r->sheet, r->field[r->col], s);
	r->col++;
}

static void
csv_field(void *data, size_t len, void *arg)
{
	struct reader *r = arg;

	r->ended = 0;
	if (r->error == NULL)
		field(r, data ? data : "", len, 0);
}

/*
 * "line N", as snprintf would make it: it is made for every record, and
 * snprintf's cost showed in a large import.
 */
static void
line_place(char where[64], long line)
{
	char digits[24];
	size_t n = 0;

	do
		digits[n++] = (char)('0' + line % 10);
	while ((line /= 10) > 0 && n < sizeof digits);
	memcpy(where, "line ", 5);
	for (size_t i = 0; i < n; i++)
		where[5 + i] = digits[n - 1 - i];
	where[5 + n] = '\0';
}

static void
csv_record(int c, void *arg)
{
	struct reader *r = arg;
	char where[64];

	r->ended = c == '\n';
	if (r->error)
		return;
	if (r->col == 0) {
		/* A blank line: skip it, but count it. */
		if (c == '\n')
			r->line++;
		return;
	}
	line_place(where, r->rec_line);
	if (r->ncols > 0 && r->col != r->ncols)
		fail(r, where, xasprintf("%d fields where the header has %d",
		    r->col, r->ncols));
	else if (r->value_error) {
		fail(r, where, r->value_error);
		r->value_error = NULL;
	} else if (r->ncols == 0) {
		r->ncols = r->col;
		if (!r->present[SHEET_F_NAME])
			fail(r, where, xstrdup("the header has no 'name' "
			    "column"));
		sheet_release(&r->sheet);
		sheet_init(&r->sheet);
	} else
		deliver(r, where);
	r->col = 0;
	if (c == '\n')
		r->line++;
}

/*
 * No character is a space to libcsv, which by default trims blanks
 * around unquoted fields: as RFC 4180 says, a field is every byte between
 * its commas, so " 5" is refused as a number whether quoted or not, just
 * as STR=' 5' is on the command line.
 */
static int
csv_is_space(unsigned char c)
{
	(void)c;
	return 0;
}

/*
 * Most lines of a roster hold no quote: those are split here, into the
 * calls libcsv would make for them, which is several times quicker than
 * libcsv's byte-at-a-time state machine.  Any other line, and every line
 * while libcsv is inside a record (a quoted field over several lines),
 * goes to libcsv, which therefore always starts a line between records.
 * line is len bytes and the '\n' after them.  Returns 0 when the line is
 * not plain and was left alone.
 */
static int
csv_plain_line(struct reader *r, char *line, size_t len)
{
	char *s = line, *end = line + len, *comma;

	if (memchr(line, '"', len) != NULL || memchr(line, '\r', len) != NULL ||
	    memchr(line, '\0', len) != NULL)
		return 0;
	if (len > 0) {
		while ((comma = memchr(s, ',', (size_t)(end - s))) != NULL &&
		    r->error == NULL) {
			*comma = '\0';
			field(r, s, (size_t)(comma - s), 1);
			s = comma + 1;
		}
		*end = '\0';
		if (r->error == NULL)
			field(r, s, (size_t)(end - s), 1);
	}
	csv_record('\n', r);
	return 1;
}

/* Hands libcsv n bytes that end a line, or the last ones of the file. */
static int
csv_feed(struct reader *r, struct csv_parser *p, const char *s, size_t n,
    int line)
{
	r->ended = 0;
	if (csv_parse(p, s, n, csv_field, csv_record, r) != n)
		return -1;
	/* Its last call ended a record only if the line's '\n' did. */
	r->in_record = !line || !r->ended;
	return 0;
}

/*
 * Reads the lines in buf[0..len), and at the end of the file (eof) the
 * bytes after the last newline too; a buffer full of one line goes to
 * libcsv as it is.  Returns how many bytes were used, or (size_t)-1 when
 * libcsv found the CSV malformed.
 */
static size_t
csv_lines(struct reader *r, struct csv_parser *p, char *buf, size_t len,
    size_t cap, int eof)
{
	size_t at = 0, n;
	char *nl;

	while (r->error == NULL &&
	    (nl = memchr(buf + at, '\n', len - at)) != NULL) {
		n = (size_t)(nl - (buf + at));
		if ((r->in_record || !csv_plain_line(r, buf + at, n)) &&
		    csv_feed(r, p, buf + at, n + 1, 1) != 0)
			return (size_t)-1;
		at += n + 1;
	}
	if (r->error == NULL && at < len && (eof || (at == 0 && len == cap))) {
		if (csv_feed(r, p, buf + at, len - at, 0) != 0)
			return (size_t)-1;
		at = len;
	}
	return at;
}

static void
read_csv(struct reader *r, FILE *fp, const char *head, size_t headlen)
{
	struct csv_parser p;
	const size_t cap = 65536;
	char *buf = xmalloc(cap);
	size_t len = headlen, n, used;
	char where[64];

	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_REPALL_NL |
	    CSV_APPEND_NULL) != 0)
		r->error = xstrdup("out of memory");
	csv_set_space_func(&p, csv_is_space);
	r->line = 1;
	memcpy(buf, head, headlen);
	r->done = (off_t)headlen;
	while (r->error == NULL) {
		n = fread(buf + len, 1, cap - len, fp);
		r->done += (off_t)n;
		len += n;
		if ((used = csv_lines(r, &p, buf, len, cap, n == 0)) ==
		    (size_t)-1)
			goto parse_error;
		if (n == 0)
			break;
		memmove(buf, buf + used, len - used);
		len -= used;
	}
	if (r->error == NULL && ferror(fp))
		r->error = xasprintf("%s: read error", r->file);
	if (r->error == NULL && csv_fini(&p, csv_field, csv_record, r) != 0)
		goto parse_error;
	if (r->error == NULL && r->ncols == 0)
		r->error = xasprintf("%s: no header row", r->file);
	csv_free(&p);
	free(buf);
	return;

parse_error:
	snprintf(where, sizeof where, "line %ld", r->col ? r->rec_line :
	    r->line);
	if (csv_error(&p) == CSV_EPARSE)
		fail(r, where, xstrdup("malformed CSV (a quote that is not "
		    "closed, or text after a closing quote)"));
	else
		fail(r, where, xstrdup(csv_strerror(csv_error(&p))));
	csv_free(&p);
	free(buf);
}

/* JSON: SQLite walks the array; each element's members become fields. */

static int
is_text_field(int f)
{
	return f == SHEET_F_NAME || f == SHEET_F_PLAYER || f == SHEET_F_NOTES;
}

/* Sets a list field from a JSON array of strings. */
static char *
set_json_list(sqlite3 *h, struct sheet *sh, int f, const char *json)
{
	sqlite3_stmt *st;
	char *msg = NULL;
	char why[160];

	sheet_set_field(sh, f, "", why, sizeof why);
	if (util_json_has_nul(json, strlen(json)))
		return xasprintf("'%s' holds a NUL character (\\u0000)",
		    sheet_field_name(f));
	if (sqlite3_prepare_v2(h, "SELECT type, value FROM json_each(?1)",
	    -1, &st, NULL) != SQLITE_OK)
		return xstrdup(sqlite3_errmsg(h));
	sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC);
	while (msg == NULL && sqlite3_step(st) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(st, 0);
		const char *v = (const char *)sqlite3_column_text(st, 1);

		if (strcmp(type, "text") != 0)
			msg = xasprintf("'%s' must be an array of names",
			    sheet_field_name(f));
		else if (sheet_add_name(sh, f, v, why, sizeof why) != 0) {
			char *snip = util_snippet(v);

			msg = xasprintf("'%s' %s, got '%s'",
			    sheet_field_name(f), why, snip);
			free(snip);
		}
	}
	sqlite3_finalize(st);
	return msg;
}

/*
 * The end of one element.  A \u0000 in it that no member's value held
 * was in a member's name, which SQLite cut short.
 */
static void
element_done(struct reader *r, const char *where, int elem_nul)
{
	if (elem_nul && r->error == NULL) {
		fail(r, where, xstrdup("a field name holds a NUL character "
		    "(\\u0000)"));
		sheet_release(&r->sheet);
		sheet_init(&r->sheet);
		return;
	}
	deliver(r, where);
}

/*
 * The rest of fp after the head already read, with it, as one string the
 * caller frees; *len is its length, which a NUL in the file makes longer
 * than strlen.
 */
static char *
slurp(FILE *fp, const char *head, size_t headlen, size_t *len)
{
	char *text = xmalloc(headlen + 1);
	size_t cap = headlen + 1, n;

	memcpy(text, head, headlen);
	*len = headlen;
	for (;;) {
		if (cap - *len < 65536) {
			cap = 2 * cap + 65536;
			text = xrealloc(text, cap);
		}
		if ((n = fread(text + *len, 1, cap - *len - 1, fp)) == 0)
			break;
		*len += n;
	}
	text[*len] = '\0';
	return text;
}

/*
 * One member, key of JSON type type, of an element whose text holds a
 * \u0000: only the \u0000 is looked for, since a member name cut at one
 * could pass for another ("name\u0000x").  Returns the refusal, or NULL.
 */
static char *
json_nul_member(const char *key, const char *type, const char *value,
    const char *raw)
{
	const char *v = strcmp(type, "text") == 0 ? raw :
	    strcmp(type, "array") == 0 ? value : NULL;
	char *snip, *msg;

	if (v == NULL || !util_json_has_nul(v, strlen(v)))
		return NULL;
	snip = util_snippet(key);
	msg = xasprintf("'%s' holds a NUL character (\\u0000)", snip);
	free(snip);
	return msg;
}

/*
 * One member of an element: the field named key set from value (of JSON
 * type type; raw is the file's own text of a number, or NULL).  Returns
 * the refusal, or NULL.
 */
static char *
json_member(struct reader *r, sqlite3 *h, const char *key, const char *type,
    const char *value, const char *raw)
{
	char *msg = NULL, *snip;
	int f;

	if ((f = sheet_field_lookup(key)) < 0) {
		snip = util_snippet(key);
		msg = xasprintf("unknown field '%s'", snip);
		free(snip);
	} else if (r->present[f])
		msg = xasprintf("'%s' appears twice", sheet_field_name(f));
	else if ((f == SHEET_F_ITEMS || f == SHEET_F_POWERS) &&
	    strcmp(type, "array") == 0)
		msg = set_json_list(h, &r->sheet, f, value);
	else if ((f == SHEET_F_ITEMS || f == SHEET_F_POWERS) &&
	    strcmp(type, "text") != 0 && strcmp(type, "null") != 0)
		msg = xasprintf("'%s' must be an array of names",
		    sheet_field_name(f));
	else if (strcmp(type, "null") == 0)
		msg = set_field(&r->sheet, f, "");
	else if (is_text_field(f) || f == SHEET_F_ITEMS ||
	    f == SHEET_F_POWERS)
		msg = strcmp(type, "text") == 0 ?
		    set_field(&r->sheet, f, value) :
		    xasprintf("'%s' must be a JSON string",
		    sheet_field_name(f));
	else if (strcmp(type, "integer") == 0 || strcmp(type, "real") == 0)
		msg = set_field(&r->sheet, f, raw ? raw : value);
	else if (strcmp(type, "text") == 0) {
		snip = util_snippet(value);
		msg = xasprintf("'%s' must be a JSON number, got the "
		    "string \"%s\"", sheet_field_name(f), snip);
		free(snip);
	} else
		msg = xasprintf("'%s' cannot be a JSON %s",
		    sheet_field_name(f), type);
	if (f >= 0)
		r->present[f] = 1;
	return msg;
}

/*
 * Whether text (len bytes) is a JSON array, checked on h; else r's error
 * says why.
 */
static int
json_is_array(struct reader *r, sqlite3 *h, const char *text, size_t len)
{
	sqlite3_stmt *st = NULL;
	int ok;

	if (sqlite3_prepare_v2(h, "SELECT json_valid(?1) AND"
	    " json_type(?1) = 'array'", -1, &st, NULL) != SQLITE_OK) {
		r->error = xasprintf("%s: %s", r->file, sqlite3_errmsg(h));
		return 0;
	}
	sqlite3_bind_text(st, 1, text, (int)len, SQLITE_STATIC);
	ok = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (!ok)
		r->error = xasprintf("%s: not valid JSON, or not an array of "
		    "objects", r->file);
	return ok;
}

/*
 * One row per member of each element; an element that is not an object
 * comes back with a NULL member key.  Column 5 is the member as the file
 * wrote it, where SQLite's value would not do: a number that is not a
 * plain nonzero integer ("-0", "100.0", "1e999" become 0, 100.0 and
 * Inf), so that the one number rule judges and quotes the user's own
 * text; and, when the file holds a \u0000 at all (?2), every string, to
 * find it.
 */
static const char json_members_sql[] =
	"SELECT a.key, a.type, m.key, m.type,"
	" m.value, CASE WHEN m.type = 'real' OR (m.type = 'integer' AND"
	" (typeof(m.atom) <> 'integer' OR m.atom = 0)) OR (?2 AND"
	" m.type = 'text') THEN a.value -> m.fullkey END,"
	" CASE WHEN ?2 THEN a.value END"
	" FROM json_each(?1) AS a"
	" LEFT JOIN json_each(CASE a.type WHEN 'object' THEN a.value"
	" ELSE '{}' END) AS m"
	" ORDER BY a.key, m.id";

/* json_members_sql's rows, element by element, until an error. */
static int
json_elements(struct reader *r, sqlite3 *h, sqlite3_stmt *elems)
{
	char where[64];
	long index = -1;
	int rc = SQLITE_DONE, elem_nul = 0;

	while (r->error == NULL && (rc = sqlite3_step(elems)) == SQLITE_ROW) {
		long i = sqlite3_column_int64(elems, 0);
		const char *atype = (const char *)sqlite3_column_text(elems, 1);
		const char *key = (const char *)sqlite3_column_text(elems, 2);
		const char *type = (const char *)sqlite3_column_text(elems, 3);
		const char *value = (const char *)sqlite3_column_text(elems, 4);
		const char *raw = (const char *)sqlite3_column_text(elems, 5);
		const char *obj = (const char *)sqlite3_column_text(elems, 6);
		char *msg;

		if (i != index) {
			if (index >= 0)
				element_done(r, where, elem_nul);
			if (r->error)
				break;
			index = i;
			snprintf(where, sizeof where, "index %ld", i);
			memset(r->present, 0, sizeof r->present);
			elem_nul = obj != NULL && util_json_has_nul(obj,
			    (size_t)sqlite3_column_bytes(elems, 6));
		}
		if (strcmp(atype, "object") != 0) {
			fail(r, where, xstrdup("not a JSON object"));
			break;
		}
		if (key == NULL)
			continue;	/* an empty object */
		if (elem_nul) {
			if ((msg = json_nul_member(key, type, value, raw))) {
				fail(r, where, msg);
				break;
			}
			continue;
		}
		if ((msg = json_member(r, h, key, type, value, raw)))
			fail(r, where, msg);
	}
	if (r->error == NULL && index >= 0 && rc == SQLITE_DONE)
		element_done(r, where, elem_nul);
	return rc;
}

static void
read_json(struct reader *r, FILE *fp, const char *head, size_t headlen)
{
	size_t len;
	char *text = slurp(fp, head, headlen, &len);
	sqlite3 *h = NULL;
	sqlite3_stmt *elems = NULL;
	int rc;

	if (ferror(fp) || memchr(text, '\0', len) != NULL) {
		r->error = xasprintf("%s: %s", r->file, ferror(fp) ?
		    "read error" : "not valid JSON (a NUL byte)");
		goto out;
	}
	if (sqlite3_open(":memory:", &h) != SQLITE_OK) {
		r->error = xasprintf("%s: %s", r->file, sqlite3_errmsg(h));
		goto out;
	}
	if (!json_is_array(r, h, text, len))
		goto out;
	if (sqlite3_prepare_v2(h, json_members_sql, -1, &elems, NULL) !=
	    SQLITE_OK) {
		r->error = xasprintf("%s: %s", r->file, sqlite3_errmsg(h));
		goto out;
	}
	sqlite3_bind_text(elems, 1, text, (int)len, SQLITE_STATIC);
	sqlite3_bind_int(elems, 2, util_json_has_nul(text, len));
	r->done = (off_t)len;
	rc = json_elements(r, h, elems);
	if (r->error == NULL && rc != SQLITE_DONE)
		r->error = xasprintf("%s: %s", r->file, sqlite3_errmsg(h));
out:
	sqlite3_finalize(elems);
	sqlite3_close(h);
	free(text);
}

char *
import_run(FILE *fp, const char *file, enum import_format fmt,
    int progress, import_row_fn row, void *ctx)
{
	struct reader r;
	char head[4096];
	size_t headlen = 0, i;
	struct stat sb;

	memset(&r, 0, sizeof r);
	r.file = file;
	r.row = row;
	r.ctx = ctx;
	r.progress = progress;
	if (fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode))
		r.size = sb.st_size;
	sheet_init(&r.sheet);
	/*
	 * Look at the first bytes, keeping what was read.  Spreadsheets
	 * often begin a UTF-8 CSV file with a byte order mark: skip it.
	 */
	headlen = fread(head, 1, sizeof head, fp);
	if (headlen >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0) {
		memmove(head, head + 3, headlen - 3);
		headlen -= 3;
	}
	if (fmt == IMPORT_AUTO) {
		for (i = 0; i < headlen && strchr(" \t\r\n", head[i]); i++)
			;
		fmt = i < headlen && head[i] == '[' ? IMPORT_JSON :
		    IMPORT_CSV;
	}
	if (fmt == IMPORT_JSON)
		read_json(&r, fp, head, headlen);
	else
		read_csv(&r, fp, head, headlen);
	if (r.error == NULL)
		show_progress(&r, 1);
	else if (r.progress && r.nrecords >= PROGRESS_EVERY)
		putc('\n', stderr);
	sheet_release(&r.sheet);
	free(r.value_error);
	free(r.field);
	return r.error;
}
