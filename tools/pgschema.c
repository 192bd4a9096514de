/*
 * pgschema.c - writes the PostgreSQL form of this build's schema (issue
 * #22) on standard output, so that schema.sql stays the one source: the
 * tables and indexes are those of a new SQLite database made from it
 * (db_schema_memory), in the order it made them, each statement
 * translated word by word where the two dialects differ:
 *
 *	INTEGER			BIGINT (an INTEGER PRIMARY KEY of a rowid
 *				table: an identity, as SQLite numbers it)
 *	REAL, BLOB		DOUBLE PRECISION, BYTEA
 *	TEXT			TEXT COLLATE "C": ordered by its bytes, as
 *				SQLite orders it, whatever the server's locale
 *	TEXT COLLATE NOCASE	citext COLLATE "C" (the extension), equal
 *				whatever the case
 *	x [NOT] GLOB 'p'	x COLLATE "C" [!]~ 'the regex of p'
 *	instr(x, y)		strpos(x, y)
 *	json_valid(x)		refkit_json_valid(x), defined first
 *	STRICT, WITHOUT ROWID	(nothing: every PostgreSQL table is both)
 *
 * Comments, strings and quoted names are copied as they are.  Then the
 * rows a new database holds (the default Force Battles board, Battle
 * Grounds' stats), as SQLite quotes them, but for the station's own,
 * which each database makes for itself; and the table refkit_meta, which
 * plays the part of SQLite's application_id and user_version.  Last
 * the table refkit_travel: the tables whose changes travel between
 * stations (db_table_travels), in the order of the schema, each with
 * its primary key as a changeset's header gives it, for the record of
 * changes that tools/pgstation.sql sets up on them.
 *
 * It writes the migration steps from the same source (--c): step v,
 * cut from schema.sql as SQLite runs it (db_schema_step[v]), is run
 * statement by statement on an SQLite model of the schema before it, so
 * that each statement is translated knowing the tables it acts on:
 *
 *	CREATE TABLE, CREATE INDEX	the objects it made, as SQLite keeps
 *				them, translated as above: the same text as a
 *				new database's
 *	ALTER TABLE ... ADD, DROP or RENAME COLUMN
 *				its column's type translated
 *	DROP TABLE, DROP INDEX	as it is
 *	INSERT, UPDATE, DELETE, SELECT
 *				translated as above, then as db/dbpg.c
 *				translates refkit's statements
 *	SELECT f(...) FROM ...	where f is refkit's own, which only the
 *				tools have (dbpg_client_fn): the SELECT of
 *				its arguments, the tool calling f for each
 *				row (db/dbpg.c)
 *
 * Any other statement stops the build, named: a table rebuilt by
 * renaming it aside (ALTER TABLE ... RENAME TO) has no such form, as a
 * server's foreign keys follow a table renamed, where SQLite's keep
 * naming the name, and its keys' and sequences' names stay taken.  That
 * is why a server database is migrated from DBPG_SCHEMA_OLDEST on, the
 * first version after the last such step; the model of that version is
 * cut from schema.sql's sections (db_schema_parts), and the build checks
 * that the steps after it make of it exactly the schema a new database
 * has.  --at writes that version's schema, or a later one's, for the
 * tests.
 */
#include <ctype.h>
#include <err.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "db/db.h"
#include "db/dbpg.h"

/* The words before the current one, upper-cased, for the rules above. */
struct ctx {
	FILE	*out;
	sqlite3	*h;
	char	 table[64];	/* the table at hand */
	char	 col[64];	/* the column whose definition this is */
	int	 depth;		/* of parentheses */
	int	 at_start;	/* the next word begins a column definition */
	char	**nocase;	/* "table.column" of the citext columns */
	size_t	 nnocase;
	char	 prev[2][32];	/* the last two words, [0] the last */
	int	 rowid;		/* a rowid table: INTEGER PRIMARY KEY counts */
	int	 glob;		/* the next string is a GLOB pattern */
	int	 checks;	/* CHECKs written */
	int	 alter;		/* an ALTER TABLE: ADD [COLUMN] names one */
};

static void
word_seen(struct ctx *c, const char *w, size_t n)
{
	memcpy(c->prev[1], c->prev[0], sizeof c->prev[1]);
	snprintf(c->prev[0], sizeof c->prev[0], "%.*s", (int)n, w);
	for (char *p = c->prev[0]; *p != '\0'; p++)
		*p = (char)toupper((unsigned char)*p);
}

/* A GLOB pattern's regex: anchored, * and ? as .* and ., [...] kept. */
static void
glob_regex(FILE *out, const char *s, size_t n)
{
	int inset = 0;

	fputs("'^", out);
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];

		if (inset) {
			if (ch == ']')
				inset = 0;
			if (ch == '\\')
				fputc('\\', out);
			fputc(ch, out);
		} else if (ch == '[') {
			inset = 1;
			fputc(ch, out);
		} else if (ch == '*')
			fputs(".*", out);
		else if (ch == '?')
			fputc('.', out);
		else if (strchr(".^$+(){}|\\", ch) != NULL)
			fprintf(out, "\\%c", ch);
		else
			fputc(ch, out);
	}
	fputs("$'", out);
}

/* Peeks past blanks at p for the word w (upper case), ignoring case. */
static int
next_word_is(const char *p, const char *w)
{
	size_t n = strlen(w);

	while (isspace((unsigned char)*p))
		p++;
	return strncasecmp(p, w, n) == 0 &&
	    !(isalnum((unsigned char)p[n]) || p[n] == '_');
}

static int
is_nocase(const struct ctx *c, const char *table, const char *col)
{
	char key[130];

	snprintf(key, sizeof key, "%s.%s", table, col);
	for (size_t i = 0; i < c->nnocase; i++)
		if (strcmp(c->nocase[i], key) == 0)
			return 1;
	return 0;
}

static void
add_nocase(struct ctx *c, const char *table, const char *col)
{
	char key[130];

	if (is_nocase(c, table, col))
		return;
	snprintf(key, sizeof key, "%s.%s", table, col);
	c->nocase = realloc(c->nocase, (c->nnocase + 1) * sizeof *c->nocase);
	if (c->nocase == NULL || (c->nocase[c->nnocase] = strdup(key)) == NULL)
		err(1, "out of memory");
	c->nnocase++;
}

/*
 * The columns that compare without case: those SQLite collates NOCASE,
 * and those that name one of them (a foreign key's column must have the
 * type of the column it names), to a fixed point.
 */
static void
find_nocase(struct ctx *c)
{
	sqlite3_stmt *st;
	size_t before;

	if (sqlite3_prepare_v2(c->h, "SELECT t.name, ti.name FROM sqlite_schema"
	    " t, pragma_table_info(t.name) ti WHERE t.type = 'table' AND"
	    " t.name NOT LIKE 'sqlite_%'", -1, &st, NULL) != SQLITE_OK)
		errx(1, "%s", sqlite3_errmsg(c->h));
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);
		const char *col = (const char *)sqlite3_column_text(st, 1);
		const char *coll = NULL;

		if (sqlite3_table_column_metadata(c->h, "main", t, col, NULL,
		    &coll, NULL, NULL, NULL) == SQLITE_OK && coll != NULL &&
		    strcasecmp(coll, "NOCASE") == 0)
			add_nocase(c, t, col);
	}
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(c->h, "SELECT t.name, f.\"from\", f.\"table\","
	    " coalesce(f.\"to\", (SELECT name FROM pragma_table_info(f.\"table\")"
	    " WHERE pk = 1)) FROM sqlite_schema t,"
	    " pragma_foreign_key_list(t.name) f WHERE t.type = 'table'", -1,
	    &st, NULL) != SQLITE_OK)
		errx(1, "%s", sqlite3_errmsg(c->h));
	do {
		before = c->nnocase;
		while (sqlite3_step(st) == SQLITE_ROW)
			if (is_nocase(c, (const char *)sqlite3_column_text(st, 2),
			    (const char *)sqlite3_column_text(st, 3)))
				add_nocase(c, (const char *)
				    sqlite3_column_text(st, 0), (const char *)
				    sqlite3_column_text(st, 1));
		sqlite3_reset(st);
	} while (c->nnocase > before);
	sqlite3_finalize(st);
}

/* One word of SQL; returns how far the caller skips past it. */
static size_t
word(struct ctx *c, const char *p, size_t n)
{
	char u[32];

	snprintf(u, sizeof u, "%.*s", (int)n, p);
	for (char *q = u; *q != '\0'; q++)
		*q = (char)toupper((unsigned char)*q);
	if (c->alter && c->depth == 0 && strcmp(u, "COLUMN") != 0 &&
	    (strcmp(c->prev[0], "ADD") == 0 || strcmp(c->prev[0],
	    "COLUMN") == 0))
		c->at_start = 1;
	if (c->at_start) {
		/* A column's name, unless a table constraint begins. */
		c->at_start = 0;
		if (strcmp(u, "PRIMARY") != 0 && strcmp(u, "UNIQUE") != 0 &&
		    strcmp(u, "FOREIGN") != 0 && strcmp(u, "CHECK") != 0 &&
		    strcmp(u, "CONSTRAINT") != 0)
			snprintf(c->col, sizeof c->col, "%.*s", (int)n, p);
		else
			c->col[0] = '\0';
	}
	if (strcmp(u, "INTEGER") == 0) {
		if (c->rowid && next_word_is(p + n, "PRIMARY"))
			fputs("BIGINT GENERATED BY DEFAULT AS IDENTITY", c->out);
		else
			fputs("BIGINT", c->out);
	} else if (strcmp(u, "REAL") == 0)
		fputs("DOUBLE PRECISION", c->out);
	else if (strcmp(u, "BLOB") == 0)
		fputs("BYTEA", c->out);
	else if (strcmp(u, "TEXT") == 0 && c->col[0] != '\0' &&
	    strcasecmp(c->prev[0], c->col) == 0)
		/* A column's type: its text in SQLite's byte order. */
		fputs(is_nocase(c, c->table, c->col) ? "citext COLLATE \"C\"" :
		    "TEXT COLLATE \"C\"", c->out);
	else if (strcmp(u, "COLLATE") == 0 && next_word_is(p + n, "NOCASE")) {
		/* Said by citext already (column_nocase): skip both words. */
		const char *q = p + n;

		while (isspace((unsigned char)*q))
			q++;
		word_seen(c, "NOCASE", 6);
		return (size_t)(q - p) + 6;
	} else if (strcmp(u, "GLOB") == 0) {
		fputs(strcmp(c->prev[0], "NOT") == 0 ? "!~" : "~", c->out);
		c->glob = 1;
	} else if (strcmp(u, "NOT") == 0 && next_word_is(p + n, "GLOB"))
		fputs("COLLATE \"C\"", c->out);
	else if (strcmp(u, "INSTR") == 0)
		fputs("strpos", c->out);
	else if (strcmp(u, "JSON_VALID") == 0)
		fputs("refkit_json_valid", c->out);
	else {
		if (strcmp(u, "CHECK") == 0)
			c->checks++;
		fwrite(p, 1, n, c->out);
	}
	word_seen(c, u, strlen(u));
	return n;
}

/*
 * The statement sql, translated onto c->out; a table's options are
 * dropped.  type is sqlite_schema's ("table", "index"), or "alter" for
 * an ALTER TABLE of the table name, or "dml".
 */
static void
translate(struct ctx *c, const char *type, const char *name, const char *sql)
{
	const char *p = sql, *end = sql + strlen(sql);

	if (strcmp(type, "table") == 0) {
		const char *close = strrchr(sql, ')');

		c->rowid = strstr(close ? close : sql, "WITHOUT ROWID") == NULL;
		if (close != NULL)
			end = close + 1;
	} else
		c->rowid = 0;
	c->prev[0][0] = c->prev[1][0] = '\0';
	snprintf(c->table, sizeof c->table, "%s", name);
	c->col[0] = '\0';
	c->depth = 0;
	c->at_start = 0;
	c->alter = strcmp(type, "alter") == 0;
	while (p < end) {
		if (p[0] == '-' && p + 1 < end && p[1] == '-') {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

			fwrite(p, 1, n, c->out);
			p += n;
		} else if (*p == '\'' || *p == '"') {
			const char *q = p + 1;

			for (; q < end; q++)
				if (*q == *p) {
					if (q + 1 < end && q[1] == *p)
						q++;
					else
						break;
				}
			if (*p == '\'' && c->glob)
				glob_regex(c->out, p + 1, (size_t)(q - p - 1));
			else
				fwrite(p, 1, (size_t)(q + 1 - p), c->out);
			c->glob = 0;
			p = q + 1;
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			size_t n = 1;

			while (p + n < end && (isalnum((unsigned char)p[n]) ||
			    p[n] == '_'))
				n++;
			p += word(c, p, n);
		} else {
			if (*p == '(' && c->depth++ == 0 &&
			    strcmp(type, "table") == 0)
				c->at_start = 1;
			else if (*p == ')')
				c->depth--;
			else if (*p == ',' && c->depth == 1)
				c->at_start = 1;
			fputc(*p++, c->out);
		}
	}
	c->alter = 0;
}

static void
statement(struct ctx *c, const char *type, const char *name, const char *sql)
{
	translate(c, type, name, sql);
	fputs(";\n\n", c->out);
}

/* translate's text, in a string the caller frees. */
static char *
translated(struct ctx *c, const char *type, const char *name,
    const char *sql)
{
	FILE *out = c->out;
	char *buf = NULL;
	size_t len = 0;

	if ((c->out = open_memstream(&buf, &len)) == NULL)
		err(1, "open_memstream");
	translate(c, type, name, sql);
	if (fclose(c->out) != 0)
		err(1, "open_memstream");
	c->out = out;
	return buf;
}

/* The rows of every table a new database has rows in, in order. */
static void
rows(FILE *out, sqlite3 *h)
{
	sqlite3_stmt *t, *r;
	char *sql;

	if (sqlite3_prepare_v2(h, "SELECT name, (SELECT group_concat("
	    "'quote(\"' || replace(c.name, '\"', '\"\"') || '\")', ' || '', '' || ')"
	    " FROM pragma_table_info(s.name) c) FROM sqlite_schema s"
	    " WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
	    " AND name NOT IN ('station', 'station_self') ORDER BY rowid", -1,
	    &t, NULL) != SQLITE_OK)
		errx(1, "%s", sqlite3_errmsg(h));
	while (sqlite3_step(t) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(t, 0);

		sql = sqlite3_mprintf("SELECT %s FROM \"%w\" ORDER BY 1",
		    (const char *)sqlite3_column_text(t, 1), name);
		if (sql == NULL || sqlite3_prepare_v2(h, sql, -1, &r, NULL) !=
		    SQLITE_OK)
			errx(1, "%s: %s", name, sqlite3_errmsg(h));
		while (sqlite3_step(r) == SQLITE_ROW)
			fprintf(out, "INSERT INTO %s VALUES (%s);\n", name,
			    (const char *)sqlite3_column_text(r, 0));
		sqlite3_finalize(r);
		sqlite3_free(sql);
	}
	sqlite3_finalize(t);
}

/*
 * refkit_travel's rows, after the table (create) or in place of those
 * it holds (a migration's).  The server's record of a row
 * (tools/pgstation.sql) is JSON, which tells a number from a string and
 * nothing more: a table that travels may hold only INTEGER and TEXT
 * columns, which every one does, and a new one of another type stops
 * the build here.
 */
static void
travel(FILE *out, sqlite3 *h, int create)
{
	sqlite3_stmt *t, *c;
	int ord = 0;

	if (create)
		fprintf(out, "\n-- The tables that travel between stations, "
		    "with each column's place in the\n-- primary key (0: "
		    "none), as a changeset's table header has them.\n"
		    "CREATE TABLE refkit_travel (\n"
		    "\ttbl\t\tTEXT PRIMARY KEY,\n"
		    "\tord\t\tBIGINT NOT NULL UNIQUE,\n"
		    "\tpk\t\tBYTEA NOT NULL\n);\n");
	else
		fprintf(out, "DELETE FROM refkit_travel;\n");
	if (sqlite3_prepare_v2(h, "SELECT name FROM sqlite_schema WHERE type ="
	    " 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid", -1, &t,
	    NULL) != SQLITE_OK || sqlite3_prepare_v2(h, "SELECT name, type,"
	    " pk FROM pragma_table_info(?1) ORDER BY cid", -1, &c, NULL) !=
	    SQLITE_OK)
		errx(1, "%s", sqlite3_errmsg(h));
	while (sqlite3_step(t) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(t, 0);

		if (!db_table_travels(name))
			continue;
		fprintf(out, "INSERT INTO refkit_travel VALUES ('%s', %d, '\\x",
		    name, ++ord);
		sqlite3_bind_text(c, 1, name, -1, SQLITE_STATIC);
		while (sqlite3_step(c) == SQLITE_ROW) {
			const char *type = (const char *)
			    sqlite3_column_text(c, 1);

			if (strcmp(type, "INTEGER") != 0 &&
			    strcmp(type, "TEXT") != 0)
				errx(1, "%s.%s is %s: the record of changes on "
				    "PostgreSQL takes INTEGER and TEXT columns "
				    "only (tools/pgstation.sql)", name,
				    sqlite3_column_text(c, 0), type);
			fprintf(out, "%02x", sqlite3_column_int(c, 2));
		}
		sqlite3_reset(c);
		fprintf(out, "');\n");
	}
	sqlite3_finalize(c);
	sqlite3_finalize(t);
}

static void
ctx_release(struct ctx *c)
{
	for (size_t i = 0; i < c->nnocase; i++)
		free(c->nocase[i]);
	free(c->nocase);
}

/*
 * The schema the model h holds, of version version, onto out: or, with
 * counts, only the number of CHECKs of each table, on stdout.
 */
static void
schema(FILE *out, sqlite3 *h, int version, int counts)
{
	struct ctx c;
	sqlite3_stmt *st;

	memset(&c, 0, sizeof c);
	c.out = out;
	c.h = h;
	find_nocase(&c);
	if (sqlite3_prepare_v2(h, "SELECT type, name, sql FROM sqlite_schema"
	    " WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'"
	    " ORDER BY rowid", -1, &st, NULL) != SQLITE_OK)
		errx(1, "%s", sqlite3_errmsg(h));
	if (!counts)
		fprintf(out, "-- The PostgreSQL form of refkit's schema %d, "
		    "written by tools/pgschema.c\n-- from schema.sql: do not "
		    "edit.\n\n"
		    "CREATE EXTENSION IF NOT EXISTS citext;\n\n"
		    "CREATE FUNCTION refkit_json_valid(t text) RETURNS boolean\n"
		    "LANGUAGE plpgsql IMMUTABLE AS $$\nBEGIN\n"
		    "\tPERFORM t::json;\n\tRETURN true;\n"
		    "EXCEPTION WHEN others THEN\n\tRETURN false;\nEND\n$$;\n\n",
		    version);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(st, 0);

		c.checks = 0;
		statement(&c, type, (const char *)sqlite3_column_text(st, 1),
		    (const char *)sqlite3_column_text(st, 2));
		if (counts && strcmp(type, "table") == 0)
			printf("%s %d\n", sqlite3_column_text(st, 1), c.checks);
	}
	sqlite3_finalize(st);
	if (!counts) {
		rows(out, h);
		fprintf(out, "\n-- SQLite's application_id and user_version.\n"
		    "CREATE TABLE refkit_meta (\n"
		    "\tone\t\tBIGINT PRIMARY KEY CHECK (one = 1),\n"
		    "\tapplication_id\tBIGINT NOT NULL,\n"
		    "\tversion\t\tBIGINT NOT NULL\n);\n"
		    "INSERT INTO refkit_meta VALUES (1, %d, %d);\n",
		    DB_APPLICATION_ID, version);
		travel(out, h, 1);
	}
	ctx_release(&c);
}

/*
 * A model of version v's schema: schema.sql's sections up to v, which
 * is what a new database of that version ran as long as no later step
 * rebuilt one of its tables (steps() checks that).
 */
static sqlite3 *
model_at(int v)
{
	FILE *f;
	char *sql = NULL, why[256];
	size_t len = 0;
	sqlite3 *h;

	if ((f = open_memstream(&sql, &len)) == NULL)
		err(1, "open_memstream");
	for (const struct db_schema_part *p = db_schema_parts; p->sql != NULL;
	    p++)
		if (p->since <= v)
			fputs(p->sql, f);
	if (fclose(f) != 0)
		err(1, "open_memstream");
	h = db_schema_memory_of(sql, why, sizeof why);
	free(sql);
	if (h == NULL)
		errx(1, "version %d: %s", v, why);
	return h;
}

/* ---- the steps ---- */

/* A part of a step: SQL for the server, or the SELECT a function takes. */
struct part {
	char	*fn;		/* refkit's function, or NULL */
	char	*sql;
};

struct step {
	struct part	*part;
	size_t		 n;
};

static void
step_release(struct step *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->part[i].fn);
		free(s->part[i].sql);
	}
	free(s->part);
	s->part = NULL;
	s->n = 0;
}

static void
add_part(struct step *s, const char *fn, char *sql)
{
	s->part = realloc(s->part, (s->n + 1) * sizeof *s->part);
	if (s->part == NULL || (fn != NULL && (s->part[s->n].fn =
	    strdup(fn)) == NULL))
		err(1, "out of memory");
	if (fn == NULL)
		s->part[s->n].fn = NULL;
	s->part[s->n++].sql = sql;
}

/* s past blanks and comments. */
static const char *
skip_blank(const char *s)
{
	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (s[0] == '-' && s[1] == '-')
			s += strcspn(s, "\n");
		else if (s[0] == '/' && s[1] == '*') {
			const char *e = strstr(s + 2, "*/");

			s = e != NULL ? e + 2 : s + strlen(s);
		} else
			return s;
	}
}

/* Past the quoted string or name at s. */
static const char *
skip_quoted(const char *s)
{
	char q = *s++;

	for (; *s != '\0'; s++)
		if (*s == q && s[1] == q)
			s++;
		else if (*s == q)
			return s + 1;
	return s;
}

/*
 * The first max words of sql (names unquoted), up to its first
 * parenthesis; returns how many.
 */
static int
words(const char *sql, char w[][64], int max)
{
	const char *p = sql;
	int n = 0;

	while (n < max && *(p = skip_blank(p)) != '\0' && *p != '(') {
		const char *e;

		if (*p == '"' || *p == '`' || *p == '[') {
			e = *p == '[' ? strchr(p, ']') : skip_quoted(p);
			if (e == NULL)
				break;
			snprintf(w[n++], sizeof w[0], "%.*s",
			    (int)(e - p - (*p == '[' ? 1 : 2)), p + 1);
			p = *p == '[' ? e + 1 : e;
		} else if (isalnum((unsigned char)*p) || *p == '_') {
			for (e = p; isalnum((unsigned char)*e) || *e == '_';
			    e++)
				;
			snprintf(w[n++], sizeof w[0], "%.*s", (int)(e - p), p);
			p = e;
		} else
			p++;
	}
	return n;
}

static void __attribute__((noreturn))
refuse(int v, const char *sql, const char *why)
{
	errx(1, "schema.sql, step %d: '%.*s' %s", v, (int)strcspn(sql, "\n"),
	    sql, why);
}

/*
 * The first call in sql of a function of refkit's own that the server
 * lacks (dbpg_client_fn), and *args past its opening parenthesis; NULL
 * if none.
 */
static const char *
client_call(const char *sql, const char **args)
{
	for (const char *p = sql; *p != '\0';) {
		const char *e, *q;
		char name[64];

		if (*p == '\'' || *p == '"') {
			p = skip_quoted(p);
			continue;
		}
		if (!(isalpha((unsigned char)*p) || *p == '_') || (p > sql &&
		    (isalnum((unsigned char)p[-1]) || p[-1] == '_'))) {
			p++;
			continue;
		}
		for (e = p; isalnum((unsigned char)*e) || *e == '_'; e++)
			;
		q = skip_blank(e);
		snprintf(name, sizeof name, "%.*s", (int)(e - p), p);
		if (*q == '(' && dbpg_client_fn(name) >= 0) {
			*args = q + 1;
			return p;
		}
		p = e;
	}
	return NULL;
}

/*
 * The statement sql of step v, which calls refkit's function at f, as
 * the part it is on a server: "SELECT f(args) FROM rest" becomes the
 * SELECT of the arguments, the tool calling f for each row; any other
 * form stops the build.
 */
static void
client_part(struct ctx *c, struct step *out, int v, const char *sql,
    const char *f, const char *args)
{
	const char *p = args, *after, *a;
	char name[64], *sel;
	int depth = 1;

	snprintf(name, sizeof name, "%.*s", (int)strcspn(f, " \t\n("), f);
	for (; *p != '\0' && depth > 0; p++)
		if (*p == '\'' || *p == '"')
			p = skip_quoted(p) - 1;
		else if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
	after = skip_blank(p);
	if (strncasecmp(sql, "SELECT", 6) != 0 || skip_blank(sql + 6) != f ||
	    depth != 0 || !(*after == '\0' || (strncasecmp(after, "FROM",
	    4) == 0 && isspace((unsigned char)after[4]))) ||
	    client_call(p, &a) != NULL)
		refuse(v, sql, "calls a function of refkit's own, which a "
		    "server lacks: a step calls one only as SELECT f(...) "
		    "FROM ..., once for each row (db/dbpg.c)");
	if (asprintf(&sel, "SELECT %.*s %s", (int)(p - 1 - args), args,
	    after) < 0)
		err(1, "out of memory");
	add_part(out, name, translated(c, "dml", "", sel));
	free(sel);
}

/* The largest rowid of the model's sqlite_schema. */
static sqlite3_int64
last_object(sqlite3 *h)
{
	sqlite3_stmt *q;
	sqlite3_int64 last = 0;

	if (sqlite3_prepare_v2(h, "SELECT max(rowid) FROM sqlite_schema", -1,
	    &q, NULL) != SQLITE_OK)
		errx(1, "%s", sqlite3_errmsg(h));
	if (sqlite3_step(q) == SQLITE_ROW)
		last = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return last;
}

/*
 * The objects made since last, as SQLite keeps them (the text a new
 * database's are made from), translated onto c->out.
 */
static void
made_since(struct ctx *c, sqlite3_int64 last)
{
	sqlite3_stmt *q;

	if (sqlite3_prepare_v2(c->h, "SELECT type, name, sql FROM sqlite_schema"
	    " WHERE rowid > ?1 AND sql IS NOT NULL ORDER BY rowid", -1, &q,
	    NULL) != SQLITE_OK)
		errx(1, "%s", sqlite3_errmsg(c->h));
	sqlite3_bind_int64(q, 1, last);
	while (sqlite3_step(q) == SQLITE_ROW)
		statement(c, (const char *)sqlite3_column_text(q, 0),
		    (const char *)sqlite3_column_text(q, 1),
		    (const char *)sqlite3_column_text(q, 2));
	sqlite3_finalize(q);
}

/* Whether the first n words are w[0] and the words after it, any case. */
static int
starts(char w[][64], int n, const char *w0, const char *w1)
{
	return n >= (w1 != NULL ? 2 : 1) && strcasecmp(w[0], w0) == 0 &&
	    (w1 == NULL || strcasecmp(w[1], w1) == 0);
}

/*
 * Statement sql of step v, which the model has run (made the objects
 * after last), translated onto c->out; one it cannot translate stops the
 * build.
 */
static void
translate_one(struct ctx *c, int v, const char *sql, sqlite3_int64 last)
{
	char w[8][64], *t;
	int nw = words(sql, w, 8);

	if (starts(w, nw, "CREATE", "TABLE") ||
	    starts(w, nw, "CREATE", "INDEX") ||
	    (starts(w, nw, "CREATE", "UNIQUE") && nw >= 3 &&
	    strcasecmp(w[2], "INDEX") == 0))
		made_since(c, last);
	else if (starts(w, nw, "ALTER", "TABLE") && nw >= 3) {
		for (int i = 3; i + 1 < nw; i++)
			if (strcasecmp(w[i], "RENAME") == 0 &&
			    strcasecmp(w[i + 1], "TO") == 0)
				refuse(v, sql, "renames a table, which has no "
				    "PostgreSQL form: a server's foreign keys "
				    "follow the table renamed, where SQLite's "
				    "keep the name, and its keys' names stay "
				    "taken");
		translate(c, "alter", w[2], sql);
		fputs(";\n", c->out);
	} else if (starts(w, nw, "DROP", "TABLE") ||
	    starts(w, nw, "DROP", "INDEX"))
		fprintf(c->out, "%s;\n", sql);
	else if (starts(w, nw, "INSERT", NULL) ||
	    starts(w, nw, "UPDATE", NULL) || starts(w, nw, "DELETE", NULL) ||
	    starts(w, nw, "SELECT", NULL) || starts(w, nw, "WITH", NULL)) {
		int np, extra[1], nextra;
		char *pg;

		t = translated(c, "dml", "", sql);
		pg = dbpg_translate(t, &np, extra, 0, &nextra);
		if (np > 0)
			refuse(v, sql, "has parameters, which nothing binds "
			    "in a step");
		fprintf(c->out, "%s;\n", pg);
		free(pg);
		free(t);
	} else
		refuse(v, sql, "has no PostgreSQL form");
}

/*
 * The SQL written onto c->out since it was opened on *buf (which closing
 * sets), as a part of out.
 */
static void
end_plain(struct ctx *c, struct step *out, char **buf)
{
	if (c->out == NULL)
		return;
	if (fclose(c->out) != 0)
		err(1, "open_memstream");
	c->out = NULL;
	if (*buf != NULL && **buf != '\0')
		add_part(out, NULL, *buf);
	else
		free(*buf);
	*buf = NULL;
}

/*
 * Translates step v on the model c->h, at version v - 1, statement by
 * statement, bringing the model to v, into out's parts: each statement
 * is run on the model first, so that it is translated knowing the
 * tables it made or changed.
 */
static void
translate_step(struct ctx *c, int v, struct step *out)
{
	const char *p = db_schema_step[v], *tail, *f, *args;
	char *buf = NULL, *sql;
	size_t buflen = 0, len;

	c->out = NULL;
	while (*(p = skip_blank(p)) != '\0') {
		sqlite3_stmt *st;
		sqlite3_int64 last = last_object(c->h);
		int rc;

		if (sqlite3_prepare_v2(c->h, p, -1, &st, &tail) != SQLITE_OK)
			refuse(v, p, sqlite3_errmsg(c->h));
		if (st == NULL)
			break;
		for (len = (size_t)(tail - p); len > 0 && (p[len - 1] == ';' ||
		    isspace((unsigned char)p[len - 1])); len--)
			;
		if ((sql = strndup(p, len)) == NULL)
			err(1, "out of memory");
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			;
		if (rc != SQLITE_DONE)
			refuse(v, sql, sqlite3_errmsg(c->h));
		sqlite3_finalize(st);
		find_nocase(c);
		if ((f = client_call(sql, &args)) != NULL) {
			/* What came before it, then the call. */
			end_plain(c, out, &buf);
			client_part(c, out, v, sql, f, args);
		} else {
			if (c->out == NULL && (c->out = open_memstream(&buf,
			    &buflen)) == NULL)
				err(1, "open_memstream");
			translate_one(c, v, sql, last);
		}
		free(sql);
		p = tail;
	}
	end_plain(c, out, &buf);
}

/* The first object whose row of sqlite_schema differs, or NULL. */
static char *
differs(sqlite3 *a, sqlite3 *b)
{
	static const char q[] = "SELECT name, type || ' ' || tbl_name || ' ' ||"
	    " coalesce(sql, '') FROM sqlite_schema ORDER BY name";
	sqlite3_stmt *sa, *sb;
	char *name = NULL;

	if (sqlite3_prepare_v2(a, q, -1, &sa, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(b, q, -1, &sb, NULL) != SQLITE_OK)
		errx(1, "cannot read a model's schema");
	for (;;) {
		int ra = sqlite3_step(sa), rb = sqlite3_step(sb);

		if (ra != SQLITE_ROW && rb != SQLITE_ROW)
			break;
		if (ra != rb || strcmp((const char *)sqlite3_column_text(sa,
		    0), (const char *)sqlite3_column_text(sb, 0)) != 0 ||
		    strcmp((const char *)sqlite3_column_text(sa, 1),
		    (const char *)sqlite3_column_text(sb, 1)) != 0) {
			name = strdup((const char *)sqlite3_column_text(
			    ra == SQLITE_ROW ? sa : sb, 0));
			if (name == NULL)
				err(1, "out of memory");
			break;
		}
	}
	sqlite3_finalize(sa);
	sqlite3_finalize(sb);
	return name;
}

/*
 * Steps from + 1 to DB_SCHEMA_VERSION translated into step[] (when not
 * NULL), on a model of version from, which they must bring to exactly
 * the schema a new database has.
 */
static void
steps(int from, struct step *step)
{
	struct ctx c;
	sqlite3 *fresh;
	char why[256], *name;

	memset(&c, 0, sizeof c);
	c.h = model_at(from);
	find_nocase(&c);
	for (int v = from + 1; v <= DB_SCHEMA_VERSION; v++) {
		struct step none = { NULL, 0 };

		translate_step(&c, v, step != NULL ? &step[v] : &none);
		step_release(&none);
	}
	if ((fresh = db_schema_memory(why, sizeof why)) == NULL)
		errx(1, "%s", why);
	if ((name = differs(c.h, fresh)) != NULL)
		errx(1, "schema.sql: its sections up to version %d and the "
		    "steps after it make '%s' otherwise than a new database "
		    "has it: a later step rebuilt a table, and version %d's "
		    "schema is not in schema.sql any more", from, name, from);
	sqlite3_close(fresh);
	sqlite3_close(c.h);
	ctx_release(&c);
}

/* ---- the C file ---- */

/* s as the lines of a C string literal. */
static void
c_string(const char *s)
{
	if (*s == '\0')
		printf("\t\"\"");
	while (*s != '\0') {
		putchar('\t');
		putchar('"');
		for (; *s != '\0' && *s != '\n'; s++)
			if (*s == '\\' || *s == '"' || *s == '?')
				printf("\\%c", *s);
			else if (*s == '\t')
				printf("\\t");
			else
				putchar(*s);
		if (*s == '\n') {
			printf("\\n");
			s++;
		}
		printf("\"%s", *s != '\0' ? "\n" : "");
	}
}

/* The whole of file, in a string the caller frees. */
static char *
slurp(const char *file)
{
	FILE *f = fopen(file, "r"), *m;
	char *buf = NULL, chunk[4096];
	size_t len = 0, n;

	if (f == NULL)
		err(1, "%s", file);
	if ((m = open_memstream(&buf, &len)) == NULL)
		err(1, "open_memstream");
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		fwrite(chunk, 1, n, m);
	if (ferror(f) || fclose(m) != 0)
		err(1, "%s", file);
	fclose(f);
	return buf;
}

/*
 * The server's functions, from files (tools/pgcompat.sql, then
 * tools/pgstation.sql), ended by refkit_functions(), which returns a
 * hash (FNV-1a, 64 bits, in hexadecimal) of the text before it: a tool
 * that opens a database whose functions are another build's (made or
 * migrated by it, at the same version of the schema) makes them anew
 * (db/dbpg.c), so that every statement finds this build's.  Returns a
 * string the caller frees, and the hash in hex.
 */
static char *
functions_text(char **files, int nfiles, char hex[17])
{
	uint64_t h = 1469598103934665603ULL;
	FILE *m;
	char *buf = NULL;
	size_t len = 0;

	if ((m = open_memstream(&buf, &len)) == NULL)
		err(1, "open_memstream");
	for (int i = 0; i < nfiles; i++) {
		char *text = slurp(files[i]);

		fputs(text, m);
		free(text);
	}
	if (fflush(m) != 0)
		err(1, "open_memstream");
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)buf[i]) * 1099511628211ULL;
	snprintf(hex, 17, "%016" PRIx64, h);
	fprintf(m, "\n-- This build's functions, by a hash of the text above"
	    " (tools/pgschema.c):\n-- a tool that finds another build's makes"
	    " them anew.\nCREATE OR REPLACE FUNCTION refkit_functions() RETURNS"
	    " text\nLANGUAGE sql IMMUTABLE AS $$ SELECT '%s' $$;\n", hex);
	if (fclose(m) != 0)
		err(1, "open_memstream");
	return buf;
}

/*
 * The C file every tool embeds (db/dbpg.h): the schema, the server's
 * functions from files (tools/pgcompat.sql and tools/pgstation.sql),
 * the steps from DBPG_SCHEMA_OLDEST, and refkit_travel's rows.
 */
static void
c_file(sqlite3 *fresh, char **files, int nfiles)
{
	struct step step[DB_SCHEMA_VERSION + 1];
	FILE *m;
	char *buf = NULL, hex[17];
	size_t len = 0;

	memset(step, 0, sizeof step);
	steps(DBPG_SCHEMA_OLDEST, step);
	printf("/* Generated by tools/pgschema.c from schema.sql");
	for (int i = 0; i < nfiles; i++)
		printf(", %s", files[i]);
	printf(": do not edit. */\n#include <stddef.h>\n\n"
	    "#include \"db/db.h\"\n#include \"db/dbpg.h\"\n\n"
	    "_Static_assert(DB_SCHEMA_VERSION == %d && DBPG_SCHEMA_OLDEST =="
	    " %d,\n    \"build/pgschema is not of this build\");\n\n",
	    DB_SCHEMA_VERSION, DBPG_SCHEMA_OLDEST);
	if ((m = open_memstream(&buf, &len)) == NULL)
		err(1, "open_memstream");
	schema(m, fresh, DB_SCHEMA_VERSION, 0);
	if (fclose(m) != 0)
		err(1, "open_memstream");
	printf("const char db_schema_pg_sql[] =\n");
	c_string(buf);
	printf(";\n\n");
	free(buf);
	buf = functions_text(files, nfiles, hex);
	printf("const char db_schema_pg_station[] =\n");
	c_string(buf);
	printf(";\n\nconst char db_schema_pg_functions[] = \"%s\";\n\n", hex);
	free(buf);
	for (int v = DBPG_SCHEMA_OLDEST + 1; v <= DB_SCHEMA_VERSION; v++) {
		printf("static const struct dbpg_part step_%d[] = {\n", v);
		for (size_t i = 0; i < step[v].n; i++) {
			if (step[v].part[i].fn != NULL)
				printf("\t{ \"%s\",\n", step[v].part[i].fn);
			else
				printf("\t{ NULL,\n");
			c_string(step[v].part[i].sql);
			printf(" },\n");
		}
		printf("\t{ NULL, NULL }\n};\n\n");
		step_release(&step[v]);
	}
	printf("const struct dbpg_part *const "
	    "db_schema_pg_step[DB_SCHEMA_VERSION + 1] = {\n");
	for (int v = DBPG_SCHEMA_OLDEST + 1; v <= DB_SCHEMA_VERSION; v++)
		printf("\t[%d] = step_%d,\n", v, v);
	printf("};\n\n");
	if ((m = open_memstream(&buf, &len)) == NULL)
		err(1, "open_memstream");
	travel(m, fresh, 0);
	if (fclose(m) != 0)
		err(1, "open_memstream");
	printf("const char db_schema_pg_travel[] =\n");
	c_string(buf);
	printf(";\n");
	free(buf);
}

int
main(int argc, char **argv)
{
	sqlite3 *h;
	char why[256];
	int at = 0;

	if (argc == 3 && strcmp(argv[1], "--at") == 0) {
		at = (int)strtol(argv[2], NULL, 10);
		if (at < DBPG_SCHEMA_OLDEST || at > DB_SCHEMA_VERSION)
			errx(1, "--at takes a version from %d to %d",
			    DBPG_SCHEMA_OLDEST, DB_SCHEMA_VERSION);
	} else if (argc > 1 && !(argc == 2 && strcmp(argv[1], "--checks") ==
	    0) && strcmp(argv[1], "--c") != 0 &&
	    strcmp(argv[1], "--functions") != 0) {
		fprintf(stderr, "usage: pgschema [--checks | --at version | "
		    "--c file ... | --functions file ...]\n");
		return 2;
	}
	if ((h = db_schema_memory(why, sizeof why)) == NULL)
		errx(1, "%s", why);
	if (argc > 1 && strcmp(argv[1], "--c") == 0)
		c_file(h, argv + 2, argc - 2);
	else if (argc > 1 && strcmp(argv[1], "--functions") == 0) {
		char hex[17], *text = functions_text(argv + 2, argc - 2, hex);

		fputs(text, stdout);
		free(text);
	}
	else if (at != 0) {
		sqlite3_close(h);
		steps(at, NULL);
		h = model_at(at);
		schema(stdout, h, at, 0);
	} else if (argc == 2) {
		FILE *null = fopen("/dev/null", "w");

		if (null == NULL)
			err(1, "/dev/null");
		schema(null, h, DB_SCHEMA_VERSION, 1);
		fclose(null);
	} else
		schema(stdout, h, DB_SCHEMA_VERSION, 0);
	sqlite3_close(h);
	return fflush(stdout) != 0 || ferror(stdout);
}
