/*
 * changes_show.c - a changes file written out for people or as JSON; see
 * changes_show.h.  What each entry shows goes to a temporary file as it
 * is read, and is copied out only once the reader has taken the file to
 * its end: the text form's header counts the entries, and a file refused
 * in its middle (an entry the checksum vouches for but the reader does
 * not) leaves nothing half written.  Only changesets the reader handed
 * out are iterated, since SQLite 3.40's iterator can loop forever on a
 * malformed one (changes.c).
 */
#include "sync/changes_show.h"

#include "sync/changes.h"
#include "db/db.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "base/when.h"

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * The text form shows a text value's first TEXT_MAX bytes and a blob's
 * first BLOB_MAX, and wraps a change's values under INDENT rather than
 * make a line wider than WIDTH columns (a value alone may).  JSON shows
 * every byte.
 */
#define TEXT_MAX	48
#define BLOB_MAX	16
#define WIDTH		79
#define INDENT		"      "

/* The columns of the table a change is in. */
struct cols {
	char		*table;		/* owned */
	int		 n;
	unsigned char	*pk;		/* owned: the changeset's n flags */
	char		**name;		/* owned: n names, or NULL: c1 ... */
};

struct show {
	FILE		*fp;		/* owned: the temporary file */
	int		 json;
	int		 named;		/* the file is at this build's schema */
	sqlite3		*schema;	/* owned: that schema, once needed */
	sqlite3_stmt	*info;		/* owned: its columns of a table */
	struct cols	 cols;		/* of the change at hand */
	/* The text form's line of values. */
	size_t		 at;		/* its width so far */
	int		 items;		/* values on it so far */
	const char	*first;		/* what comes before the first */
};

/* Which values of a change to show. */
enum pick {
	PICK_ALL,			/* every one given */
	PICK_PK,			/* the primary key's */
	PICK_CHANGED			/* an update's changed columns */
};

static void
cols_release(struct cols *c)
{
	if (c->name != NULL)
		for (int i = 0; i < c->n; i++)
			free(c->name[i]);
	free(c->name);
	free(c->pk);
	free(c->table);
	memset(c, 0, sizeof *c);
}

/*
 * The statement that lists a table's columns in this build's schema,
 * made the first time it is needed; NULL when the file is at another
 * schema, or the schema cannot be made (the columns are then c1 ...).
 */
static sqlite3_stmt *
table_info(struct show *s)
{
	char why[256];

	if (s->info == NULL && s->named) {
		s->named = 0;		/* tried once */
		if ((s->schema = db_schema_memory(why, sizeof why)) != NULL &&
		    sqlite3_prepare_v2(s->schema, "SELECT name, pk FROM "
		    "pragma_table_info(?1, 'main') ORDER BY cid", -1,
		    &s->info, NULL) == SQLITE_OK)
			s->named = 1;
	}
	return s->named ? s->info : NULL;
}

/*
 * Sets s->cols for table with n columns, pk its changeset's primary key
 * flags.  The names are the schema's when it has that table with as many
 * columns and the same primary key.
 */
static void
cols_for(struct show *s, const char *table, int n, const unsigned char *pk)
{
	struct cols *c = &s->cols;
	sqlite3_stmt *st;
	char **name;
	int i = 0, ok = 1;

	if (c->table != NULL && c->n == n && strcmp(c->table, table) == 0 &&
	    memcmp(c->pk, pk, (size_t)n) == 0)
		return;
	cols_release(c);
	c->table = xstrdup(table);
	c->n = n;
	c->pk = xmalloc((size_t)n);
	memcpy(c->pk, pk, (size_t)n);
	if ((st = table_info(s)) == NULL)
		return;
	name = xcalloc((size_t)n, sizeof *name);
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	while (ok && sqlite3_step(st) == SQLITE_ROW) {
		const char *col = (const char *)sqlite3_column_text(st, 0);

		ok = i < n && col != NULL &&
		    (sqlite3_column_int(st, 1) > 0) == (pk[i] != 0);
		if (ok)
			name[i++] = xstrdup(col);
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (ok && i == n) {
		c->name = name;
		return;
	}
	while (i > 0)
		free(name[--i]);
	free(name);
}

static const char *
col_name(const struct show *s, int i, char *buf, size_t sz)
{
	if (s->cols.name != NULL)
		return s->cols.name[i];
	snprintf(buf, sz, "c%d", i + 1);
	return buf;
}

/* Value i of the change, old or new; NULL when the change has none. */
static sqlite3_value *
value(sqlite3_changeset_iter *it, int old, int i)
{
	sqlite3_value *v = NULL;

	if ((old ? sqlite3changeset_old(it, i, &v) :
	    sqlite3changeset_new(it, i, &v)) != SQLITE_OK)
		return NULL;
	return v;
}

static int
picked(struct show *s, sqlite3_changeset_iter *it, enum pick p, int i)
{
	switch (p) {
	case PICK_PK:
		return s->cols.pk[i] != 0;
	case PICK_CHANGED:
		return value(it, 0, i) != NULL;
	default:
		return 1;
	}
}

/* A real as a number that reads back the same, with a point or 'e'. */
static void
put_real(FILE *fp, double d, int json)
{
	char buf[40];

	/* SQLite reads a NaN in a changeset as NULL; JSON has no inf. */
	if (isnan(d))
		fputs(json ? "null" : "NULL", fp);
	else if (isinf(d))
		fputs(d < 0 ? (json ? "-9e999" : "-Inf") :
		    (json ? "9e999" : "Inf"), fp);
	else {
		snprintf(buf, sizeof buf, "%.15g", d);
		if (strtod(buf, NULL) != d)
			snprintf(buf, sizeof buf, "%.17g", d);
		fputs(buf, fp);
		if (strspn(buf, "-0123456789") == strlen(buf))
			fputs(".0", fp);
	}
}

/*
 * Text as an SQL literal, 'it''s', in what util_fputs_safe lets through
 * to a terminal; a NUL byte is shown as \x00 like the other control
 * bytes.  Cut after max bytes with the whole length.
 */
static void
put_text_plain(FILE *fp, const unsigned char *s, size_t n, size_t max)
{
	size_t cut = n, i, j;

	if (n > max) {
		cut = max;
		while (cut > 0 && (s[cut] & 0xc0) == 0x80)
			cut--;
	}
	putc('\'', fp);
	for (i = 0; i < cut; i = j + 1) {
		char *part;

		for (j = i; j < cut && s[j] != '\'' && s[j] != '\0'; j++)
			;
		part = xstrndup((const char *)s + i, j - i);
		util_fputs_safe(part, fp);
		free(part);
		if (j < cut)
			fputs(s[j] == '\'' ? "''" : "\\x00", fp);
	}
	putc('\'', fp);
	if (cut < n)
		fprintf(fp, "... (%zu bytes)", n);
}

/* A blob as x'00ff' (text) or {"blob":"00ff"} (JSON). */
static void
put_blob(FILE *fp, const unsigned char *b, size_t n, int json)
{
	size_t shown = json || n <= BLOB_MAX ? n : BLOB_MAX;

	fputs(json ? "{\"blob\":\"" : "x'", fp);
	for (size_t i = 0; i < shown; i++)
		fprintf(fp, "%02x", b[i]);
	fputs(json ? "\"}" : "'", fp);
	if (shown < n)
		fprintf(fp, "... (%zu bytes)", n);
}

/* A value, or (the text form) "?" for one the change does not give. */
void
changes_put_value(FILE *fp, sqlite3_value *v, int json)
{
	const unsigned char *p;
	size_t n;

	if (v == NULL) {
		fputs("?", fp);
		return;
	}
	switch (sqlite3_value_type(v)) {
	case SQLITE_INTEGER:
		fprintf(fp, "%" PRId64, (int64_t)sqlite3_value_int64(v));
		break;
	case SQLITE_FLOAT:
		put_real(fp, sqlite3_value_double(v), json);
		break;
	case SQLITE_TEXT:
		/* The text first, then its length, as SQLite asks. */
		if ((p = sqlite3_value_text(v)) == NULL)
			p = (const unsigned char *)"";
		n = (size_t)sqlite3_value_bytes(v);
		if (json)
			out_json_string_len(fp, (const char *)p, n);
		else
			put_text_plain(fp, p, n, TEXT_MAX);
		break;
	case SQLITE_BLOB:
		p = sqlite3_value_blob(v);
		n = (size_t)sqlite3_value_bytes(v);
		put_blob(fp, p, p != NULL ? n : 0, json);
		break;
	default:
		fputs(json ? "null" : "NULL", fp);
		break;
	}
}

/* The text form: fixed text on the line of values. */
static void
line_put(struct show *s, const char *text)
{
	fputs(text, s->fp);
	s->at += util_safe_width(text);
}

/*
 * The text form: column i's value, "name=value", or with was set an
 * update's "name old -> new", as the next on the line, which wraps
 * rather than pass WIDTH.
 */
static void
line_item(struct show *s, int i, int was, sqlite3_value *old,
    sqlite3_value *v)
{
	char buf[16], *item;
	size_t w;
	const char *sep = s->items > 0 ? ", " : s->first;
	struct strbuf b = STRBUF_INIT;
	FILE *mem = strbuf_stream(&b);

	fputs(col_name(s, i, buf, sizeof buf), mem);
	if (was) {
		putc(' ', mem);
		changes_put_value(mem, old, 0);
		fputs(" -> ", mem);
	} else
		putc('=', mem);
	changes_put_value(mem, v, 0);
	item = strbuf_detach(&b, NULL);
	w = util_safe_width(item);
	/* Room for the item and the comma after it. */
	if (s->at + strlen(sep) + w + 1 > WIDTH &&
	    s->at > sizeof INDENT - 1) {
		fputs(s->items > 0 ? ",\n" INDENT : "\n" INDENT, s->fp);
		s->at = sizeof INDENT - 1;
	} else
		line_put(s, sep);
	line_put(s, item);
	s->items++;
	free(item);
}

/* The text form: the values picked, old or new, on the line. */
static void
line_values(struct show *s, sqlite3_changeset_iter *it, int old,
    enum pick p, const char *first)
{
	sqlite3_value *v;

	s->items = 0;
	s->first = first;
	for (int i = 0; i < s->cols.n; i++)
		if (picked(s, it, p, i) && (v = value(it, old, i)) != NULL)
			line_item(s, i, 0, NULL, v);
}

/* JSON: ,"key":{"name":value,...} of the values picked, old or new. */
static void
json_values(struct show *s, const char *key, sqlite3_changeset_iter *it,
    int old, enum pick p)
{
	sqlite3_value *v;
	char buf[16];
	int k = 0;

	fprintf(s->fp, ",\"%s\":{", key);
	for (int i = 0; i < s->cols.n; i++) {
		if (!picked(s, it, p, i) || (v = value(it, old, i)) == NULL)
			continue;
		if (k++ > 0)
			putc(',', s->fp);
		out_json_string(s->fp, col_name(s, i, buf, sizeof buf));
		putc(':', s->fp);
		changes_put_value(s->fp, v, 1);
	}
	putc('}', s->fp);
}

/* The change the iterator is at, the nth of its entry (from 0). */
static void
show_change(struct show *s, sqlite3_changeset_iter *it, int nth)
{
	const char *table, *opname;
	unsigned char *pk;
	int ncol, op, indirect;

	sqlite3changeset_op(it, &table, &ncol, &op, &indirect);
	sqlite3changeset_pk(it, &pk, &ncol);
	cols_for(s, table, ncol, pk);
	opname = op == SQLITE_INSERT ? "insert" : op == SQLITE_DELETE ?
	    "delete" : "update";
	if (s->json) {
		fprintf(s->fp, "%s{\"op\":\"%s\",\"table\":",
		    nth > 0 ? ",\n" : "\n", opname);
		out_json_string(s->fp, table);
		if (op == SQLITE_UPDATE) {
			json_values(s, "pk", it, 1, PICK_PK);
			json_values(s, "old", it, 1, PICK_CHANGED);
			json_values(s, "new", it, 0, PICK_CHANGED);
		} else
			json_values(s, op == SQLITE_INSERT ? "new" : "old", it,
			    op == SQLITE_DELETE, PICK_ALL);
		putc('}', s->fp);
		return;
	}
	s->at = 0;
	line_put(s, "  ");
	line_put(s, opname);
	line_put(s, " ");
	/* The table's name as the file has it, made safe to print. */
	util_fputs_safe(table, s->fp);
	s->at += util_safe_width(table);
	if (op == SQLITE_UPDATE) {
		sqlite3_value *v;

		line_values(s, it, 1, PICK_PK, " [");
		line_put(s, s->items > 0 ? "]:" : " []:");
		s->items = 0;
		s->first = " ";
		for (int i = 0; i < ncol; i++)
			if ((v = value(it, 0, i)) != NULL)
				line_item(s, i, 1, value(it, 1, i), v);
	} else {
		line_put(s, ":");
		line_values(s, it, op == SQLITE_DELETE, PICK_ALL, " ");
	}
	putc('\n', s->fp);
}

/*
 * What the origin had seen of other stations: JSON null when not known,
 * else an object of station id to number; the text form says it on a
 * line of its own, by the ids' first eight digits, when it is known.
 */
static void
show_seen(struct show *s, const struct changes_entry *e)
{
	if (e->seen == NULL) {
		if (s->json)
			fputs("null", s->fp);
		return;
	}
	fputs(s->json ? "{" : "  had seen", s->fp);
	if (!s->json && e->nseen == 0)
		fputs(" no other station's changes", s->fp);
	for (size_t i = 0; i < e->nseen; i++) {
		const unsigned char *p = e->seen + i * CHANGES_SEEN_LEN;
		char id[STATION_ID_LEN + 1];

		memcpy(id, p, STATION_ID_LEN);
		id[STATION_ID_LEN] = '\0';
		if (s->json)
			fprintf(s->fp, "%s\"%s\":%" PRId64, i ? "," : "", id,
			    gone_seen_of(p, 1, id));
		else
			fprintf(s->fp, "%s %.8s:%" PRId64, i ? "," : "", id,
			    gone_seen_of(p, 1, id));
	}
	fputs(s->json ? "}" : "\n", s->fp);
}

/* Entry n (from 1), e, written to the temporary file. */
static int
show_entry(struct show *s, const struct changes_entry *e, int64_t n,
    char *why, size_t whysz)
{
	sqlite3_changeset_iter *it;
	char when[WHEN_LOCAL_SIZE];
	int rc, nth = 0;

	/* UTC in JSON, local time (TZ) for people. */
	if (s->json)
		util_time_iso(when, sizeof when, e->time);
	else
		when_local(when, sizeof when, e->time);
	if (s->json) {
		fprintf(s->fp, "%s{\"origin\":\"%s\",\"oseq\":%" PRId64
		    ",\"time\":\"%s\",\"seen\":", n > 1 ? ",\n" : "\n",
		    e->origin, e->oseq, when);
		show_seen(s, e);
		fputs(",\"changes\":[", s->fp);
	} else {
		fprintf(s->fp, "\nentry %" PRId64 ": origin %s, oseq %" PRId64
		    ", %s\n", n, e->origin, e->oseq, when);
		show_seen(s, e);
	}
	/* The reader has checked it (changes.h); SQLite only reads it. */
	if (sqlite3changeset_start(&it, (int)e->len,
	    (void *)e->changeset) != SQLITE_OK)
		return util_say(why, whysz, "entry %" PRId64 ": not a valid "
		    "changeset", n);
	while ((rc = sqlite3changeset_next(it)) == SQLITE_ROW)
		show_change(s, it, nth++);
	if (sqlite3changeset_finalize(it) != SQLITE_OK || rc != SQLITE_DONE)
		return util_say(why, whysz, "entry %" PRId64 ": not a valid "
		    "changeset", n);
	if (s->json)
		fputs("]}", s->fp);
	return 0;
}

/* The header, then the entries from the temporary file, to out. */
static int
put_all(struct show *s, const struct changes_header *h, int64_t n,
    FILE *out, char *why, size_t whysz)
{
	char when[WHEN_LOCAL_SIZE], buf[16384];
	size_t len;

	if (s->json)
		util_time_iso(when, sizeof when, h->time);
	else
		when_local(when, sizeof when, h->time);
	if (s->json) {
		fprintf(out, "{\"format\":%" PRIu32 ",\"schema\":%" PRIu32
		    ",\"station\":{\"id\":\"%s\",\"name\":", h->format,
		    h->schema, h->station);
		out_json_string(out, h->name);
		fprintf(out, "},\"from\":%" PRId64 ",\"to\":%" PRId64
		    ",\"time\":\"%s\",\"entries\":[", h->from, h->to, when);
	} else {
		fprintf(out, "format   %" PRIu32 "\nschema   %" PRIu32
		    "\nstation  %s ", h->format, h->schema, h->station);
		put_text_plain(out, (const unsigned char *)h->name,
		    strlen(h->name), sizeof h->name);
		fprintf(out, "\nrange    (%" PRId64 ", %" PRId64 "]\n"
		    "time     %s\nentries  %" PRId64 "\n", h->from, h->to, when,
		    n);
	}
	rewind(s->fp);
	while ((len = fread(buf, 1, sizeof buf, s->fp)) > 0 &&
	    fwrite(buf, 1, len, out) == len)
		;
	if (ferror(s->fp))
		return util_say(why, whysz, "cannot read a temporary file: %s",
		    strerror(errno ? errno : EIO));
	if (s->json)
		fputs("]}\n", out);
	return 0;
}

int
changes_show(FILE *in, FILE *out, enum out_format fmt, char *why,
    size_t whysz)
{
	struct changes_header h;
	struct changes_entry e;
	struct changes_reader *r;
	struct show s;
	int64_t n = 0;
	int rc;

	if ((r = changes_reader_open(in, &h, why, whysz)) == NULL)
		return -1;
	memset(&s, 0, sizeof s);
	s.json = fmt == OUT_JSON;
	s.named = h.schema == DB_SCHEMA_VERSION;
	errno = 0;
	if ((s.fp = tmpfile()) == NULL)
		rc = util_say(why, whysz, "cannot make a temporary file: %s",
		    strerror(errno ? errno : EIO));
	else {
		while ((rc = changes_reader_next(r, &e, why, whysz)) == 1)
			if ((rc = show_entry(&s, &e, ++n, why, whysz)) != 0)
				break;
		errno = 0;
		if (rc == 0 && (fflush(s.fp) != 0 || ferror(s.fp)))
			rc = util_say(why, whysz, "cannot write a temporary "
			    "file: %s", strerror(errno ? errno : EIO));
		if (rc == 0)
			rc = put_all(&s, &h, n, out, why, whysz);
		fclose(s.fp);
	}
	cols_release(&s.cols);
	sqlite3_finalize(s.info);
	sqlite3_close(s.schema);
	changes_reader_free(r);
	return rc;
}
