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
 */
#include <ctype.h>
#include <err.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/db.h"

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

/* The statement sql, translated; a table's options are dropped. */
static void
statement(struct ctx *c, const char *type, const char *name, const char *sql)
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
	fputs(";\n\n", c->out);
}

/* The rows of every table a new database has rows in, in order. */
static void
rows(sqlite3 *h)
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
			printf("INSERT INTO %s VALUES (%s);\n", name,
			    (const char *)sqlite3_column_text(r, 0));
		sqlite3_finalize(r);
		sqlite3_free(sql);
	}
	sqlite3_finalize(t);
}

/*
 * refkit_travel's rows.  The server's record of a row (core/pgrecord.c)
 * is JSON, which tells a number from a string and nothing more: a table
 * that travels may hold only INTEGER and TEXT columns, which every one
 * does, and a new one of another type stops the build here.
 */
static void
travel(sqlite3 *h)
{
	sqlite3_stmt *t, *c;
	int ord = 0;

	printf("\n-- The tables that travel between stations, with each "
	    "column's place in the\n-- primary key (0: none), as a "
	    "changeset's table header has them.\n"
	    "CREATE TABLE refkit_travel (\n"
	    "\ttbl\t\tTEXT PRIMARY KEY,\n"
	    "\tord\t\tBIGINT NOT NULL UNIQUE,\n"
	    "\tpk\t\tBYTEA NOT NULL\n);\n");
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
		printf("INSERT INTO refkit_travel VALUES ('%s', %d, '\\x", name,
		    ++ord);
		sqlite3_bind_text(c, 1, name, -1, SQLITE_STATIC);
		while (sqlite3_step(c) == SQLITE_ROW) {
			const char *type = (const char *)
			    sqlite3_column_text(c, 1);

			if (strcmp(type, "INTEGER") != 0 &&
			    strcmp(type, "TEXT") != 0)
				errx(1, "%s.%s is %s: the record of changes on "
				    "PostgreSQL takes INTEGER and TEXT columns "
				    "only (core/pgrecord.c)", name,
				    sqlite3_column_text(c, 0), type);
			printf("%02x", sqlite3_column_int(c, 2));
		}
		sqlite3_reset(c);
		printf("');\n");
	}
	sqlite3_finalize(c);
	sqlite3_finalize(t);
}

int
main(int argc, char **argv)
{
	struct ctx c;
	sqlite3 *h;
	sqlite3_stmt *st;
	char why[256];
	int counts = argc == 2 && strcmp(argv[1], "--checks") == 0;

	if (argc > 1 && !counts) {
		fprintf(stderr, "usage: pgschema [--checks]\n");
		return 2;
	}
	if ((h = db_schema_memory(why, sizeof why)) == NULL)
		errx(1, "%s", why);
	memset(&c, 0, sizeof c);
	c.out = stdout;
	c.h = h;
	find_nocase(&c);
	if (sqlite3_prepare_v2(h, "SELECT type, name, sql FROM sqlite_schema"
	    " WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'"
	    " ORDER BY rowid", -1, &st, NULL) != SQLITE_OK)
		errx(1, "%s", sqlite3_errmsg(h));
	if (counts) {
		if ((c.out = fopen("/dev/null", "w")) == NULL)
			err(1, "/dev/null");
	} else
		printf("-- The PostgreSQL form of refkit's schema %d, written by "
		    "tools/pgschema.c\n-- from schema.sql: do not edit.\n\n"
		    "CREATE EXTENSION IF NOT EXISTS citext;\n\n"
		    "CREATE FUNCTION refkit_json_valid(t text) RETURNS boolean\n"
		    "LANGUAGE plpgsql IMMUTABLE AS $$\nBEGIN\n"
		    "\tPERFORM t::json;\n\tRETURN true;\n"
		    "EXCEPTION WHEN others THEN\n\tRETURN false;\nEND\n$$;\n\n",
		    DB_SCHEMA_VERSION);
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
		rows(h);
		printf("\n-- SQLite's application_id and user_version.\n"
		    "CREATE TABLE refkit_meta (\n"
		    "\tone\t\tBIGINT PRIMARY KEY CHECK (one = 1),\n"
		    "\tapplication_id\tBIGINT NOT NULL,\n"
		    "\tversion\t\tBIGINT NOT NULL\n);\n"
		    "INSERT INTO refkit_meta VALUES (1, %d, %d);\n",
		    DB_APPLICATION_ID, DB_SCHEMA_VERSION);
		travel(h);
	}
	sqlite3_close(h);
	for (size_t i = 0; i < c.nnocase; i++)
		free(c.nocase[i]);
	free(c.nocase);
	if (counts)
		fclose(c.out);
	return fflush(stdout) != 0 || ferror(stdout);
}
