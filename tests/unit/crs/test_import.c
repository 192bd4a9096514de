/*
 * test_import.c - CSV and JSON roster files, good and bad.
 */
#include "tap.h"

#include <stdlib.h>

#include "crs/import.h"
#include "base/util.h"

struct seen {
	int	n;
	char	names[8][32];
	int	str[8];
	int	nitems[8];
	char	where[8][16];
};

static char *
keep(void *arg, struct sheet *sh, const unsigned char present[],
    const char *where)
{
	struct seen *s = arg;

	(void)present;
	if (s->n < 8) {
		snprintf(s->names[s->n], 32, "%s", sh->name);
		snprintf(s->where[s->n], 16, "%s", where);
		s->str[s->n] = sh->primary[P_STR];
		s->nitems[s->n] = (int)sh->nitems;
	}
	s->n++;
	sheet_release(sh);
	return NULL;
}

static char *
run(const char *text, enum import_format fmt, struct seen *s)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	char *msg;

	memset(s, 0, sizeof *s);
	msg = import_run(fp, "t", fmt, 0, keep, s);
	fclose(fp);
	return msg;
}

static void
expect_error(const char *text, enum import_format fmt, const char *want,
    const char *what)
{
	struct seen s;
	char *msg = run(text, fmt, &s);

	is_str(msg, want, "%s", what);
	free(msg);
}

/* CSV files: good ones, and each refusal. */
static void
test_csv(void)
{
	struct seen s;
	char *msg;

	msg = run("name,STR,items\nFred,12,Sword;Shield\n\n\"Mary, Q\",,\n",
	    IMPORT_AUTO, &s);
	is_str(msg, NULL, "good CSV");
	is_int(s.n, 2, "two records");
	is_str(s.names[1], "Mary, Q", "quoted name");
	is_int(s.str[0], 12, "STR");
	is_int(s.str[1], STATS_ABSENT, "empty STR is absent");
	is_int(s.nitems[0], 2, "two items");
	is_str(s.where[0], "line 2", "a CSV record's place");
	is_str(s.where[1], "line 4", "after a blank line");
	msg = run("\xef\xbb\xbfname,STR\r\nA,1\r\n", IMPORT_AUTO, &s);
	is_str(msg, NULL, "a byte order mark is skipped");
	is_int(s.n, 1, "one record after the byte order mark");
	msg = run("agi,NAME\r\n1,A\r\n2,B\r\n", IMPORT_CSV, &s);
	is_str(msg, NULL, "CRLF, any order, any case");
	is_int(s.n, 2, "two CRLF records");
	msg = run("name,notes\nA,\"two\nlines\"\nB,x\nC,\"y\n", IMPORT_CSV,
	    &s);
	is_str(msg, "t: line 5: malformed CSV (a quote that is not closed, "
	    "or text after a closing quote)", "unclosed quote, line counted "
	    "across a quoted newline");
	free(msg);
	expect_error("name,STR\nA,1\nB,-3\n", IMPORT_CSV,
	    "t: line 3: 'STR' must be a whole number from 0 to 1000, got '-3'",
	    "negative STR");
	expect_error("name,STR\nA,7.5\n", IMPORT_CSV,
	    "t: line 2: 'STR' must be a whole number from 0 to 1000, got '7.5'",
	    "fractional STR");
	expect_error("name,STR\nA,1,2\n", IMPORT_CSV,
	    "t: line 2: 3 fields where the header has 2", "too many fields");
	expect_error("name,STR\nA\n", IMPORT_CSV,
	    "t: line 2: 1 fields where the header has 2", "too few fields");
	expect_error("name,SPEED\nA,1\n", IMPORT_CSV,
	    "t: line 1: unknown column 'SPEED'", "unknown column");
	expect_error("name,STR,str\n", IMPORT_CSV,
	    "t: line 1: column 'str' appears twice", "column twice");
	expect_error("STR\n1\n", IMPORT_CSV,
	    "t: line 1: the header has no 'name' column", "no name column");
	expect_error("name,STR\n\"A\"x,1\n", IMPORT_CSV,
	    "t: line 2: malformed CSV (a quote that is not closed, or text "
	    "after a closing quote)", "text after a quote");
	expect_error("", IMPORT_CSV, "t: no header row", "empty file");
	expect_error("name\n,\n", IMPORT_CSV,
	    "t: line 2: 2 fields where the header has 1", "blank name row");
	expect_error("name\n\"\"\n", IMPORT_CSV,
	    "t: line 2: 'name' must not be empty, got ''", "empty name");
}

/*
 * Lines without quotes are split by the reader itself, the others by
 * libcsv: the two take turns, a quoted field over several lines keeps
 * libcsv to the end of its record, and the places and refusals come out
 * as from libcsv alone.
 */
static void
test_csv_mixed(void)
{
	struct seen s;
	char *msg, *text;
	size_t n = 70000;

	msg = run("name,notes,STR\nA,,1\n\"B\",\"x\ny\nz\",2\nC,w,3\r\n"
	    "\nD,\"v\",4\nE,,1000", IMPORT_CSV, &s);
	is_str(msg, NULL, "plain and quoted lines");
	is_int(s.n, 5, "five records");
	is_str(s.names[2], "C", "the record after a quoted field");
	is_str(s.where[2], "line 6", "counted across its newlines");
	is_str(s.where[3], "line 8", "then a CRLF line and a blank one");
	is_int(s.str[4], 1000, "a last line without a newline");
	is_str(s.where[4], "line 9", "and its place");
	expect_error("name,STR\nA,1\nB,x\"y\n", IMPORT_CSV,
	    "t: line 3: malformed CSV (a quote that is not closed, or text "
	    "after a closing quote)", "a quote inside an unquoted field");
	expect_error("name,notes\nA,\"x\nB,y\n", IMPORT_CSV,
	    "t: line 2: malformed CSV (a quote that is not closed, or text "
	    "after a closing quote)", "a quote never closed");
	expect_error("name,STR\nA,1\nB,2\n\nC\n", IMPORT_CSV,
	    "t: line 5: 1 fields where the header has 2", "after a blank line");
	text = xmalloc(n + 32);
	memcpy(text, "name,notes\nA,", 13);
	memset(text + 13, 'x', n);
	memcpy(text + 13 + n, "\nB,y\n", 6);
	text[n + 19] = '\0';
	msg = run(text, IMPORT_CSV, &s);
	is_str(msg, "t: line 2: 'notes' is longer than 10000 bytes, got '"
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'",
	    "a line longer than the reader's buffer");
	free(msg);
	free(text);
}

/* JSON files: good ones, and each refusal. */
static void
test_json(void)
{
	struct seen s;
	char *msg;

	msg = run(" [{\"name\":\"Fred\",\"STR\":12,\"items\":[\"Sword\"]},"
	    "{\"name\":\"Mary\",\"str\":null}]", IMPORT_AUTO, &s);
	is_str(msg, NULL, "good JSON");
	is_int(s.n, 2, "two objects");
	is_int(s.str[0], 12, "JSON STR");
	is_int(s.nitems[0], 1, "JSON items");
	is_int(s.str[1], STATS_ABSENT, "JSON null is absent");
	is_str(s.where[1], "index 1", "a JSON record's place");
	msg = run("[]", IMPORT_JSON, &s);
	is_str(msg, NULL, "empty array");
	is_int(s.n, 0, "no records");
	expect_error("[{\"name\":\"A\"},{\"name\":\"B\",\"STR\":7.5}]",
	    IMPORT_JSON, "t: index 1: 'STR' must be a whole number from 0 to "
	    "1000, got '7.5'", "JSON fraction");
	expect_error("[{\"name\":\"A\",\"speed\":1}]", IMPORT_JSON,
	    "t: index 0: unknown field 'speed'", "JSON unknown field");
	expect_error("[{\"name\":\"A\"}, 3]", IMPORT_JSON,
	    "t: index 1: not a JSON object", "JSON non-object");
	expect_error("[{\"STR\":1}]", IMPORT_JSON,
	    "t: index 0: 'name' is missing", "JSON without a name");
	expect_error("[{\"name\":\"A\"", IMPORT_JSON,
	    "t: not valid JSON, or not an array of objects", "broken JSON");
	expect_error("{\"name\":\"A\"}", IMPORT_JSON,
	    "t: not valid JSON, or not an array of objects", "not an array");
	expect_error("[{\"name\":true}]", IMPORT_JSON,
	    "t: index 0: 'name' must be a JSON string", "JSON true");
	expect_error("[{\"name\":5}]", IMPORT_JSON,
	    "t: index 0: 'name' must be a JSON string", "JSON number name");
}

/* A \u0000 in a JSON file. */
static void
test_json_nul(void)
{
	struct seen s;
	char *msg;

	/* A \u0000 is refused wherever it is, naming the index and field. */
	expect_error("[{\"name\":\"A\"},{\"name\":\"Fred\\u0000 impostor\"}]",
	    IMPORT_JSON, "t: index 1: 'name' holds a NUL character (\\u0000)",
	    "JSON NUL in a name");
	expect_error("[{\"name\":\"A\",\"notes\":\"before\\u0000after\"}]",
	    IMPORT_JSON, "t: index 0: 'notes' holds a NUL character "
	    "(\\u0000)", "JSON NUL in notes");
	expect_error("[{\"name\":\"A\",\"player\":\"\\u0000\"}]",
	    IMPORT_JSON, "t: index 0: 'player' holds a NUL character "
	    "(\\u0000)", "JSON NUL alone");
	expect_error("[{\"name\":\"A\",\"items\":[\"S\\u0000\"]}]",
	    IMPORT_JSON, "t: index 0: 'items' holds a NUL character "
	    "(\\u0000)", "JSON NUL in a list");
	expect_error("[{\"name\":\"A\",\"na\\u0000me\":\"B\"}]",
	    IMPORT_JSON, "t: index 0: a field name holds a NUL character "
	    "(\\u0000)", "JSON NUL in a field name");
	expect_error("[{\"name\":\"A\",\"name\\u0000x\":\"B\"}]",
	    IMPORT_JSON, "t: index 0: a field name holds a NUL character "
	    "(\\u0000)", "JSON NUL in a name that is cut to 'name'");
	msg = run("[{\"name\":\"A\",\"notes\":\"a\\\\u0000b\"}]", IMPORT_JSON,
	    &s);
	is_str(msg, NULL, "an escaped backslash before u0000 is no NUL");
}

/* Numbers as the files write them, and the last refusals. */
static void
test_numbers(void)
{
	struct seen s;
	char *msg;

	/* Numbers: the file's own text is judged and quoted. */
	expect_error("[{\"name\":\"A\",\"STR\":-0}]", IMPORT_JSON,
	    "t: index 0: 'STR' must be a whole number from 0 to 1000, got "
	    "'-0'", "JSON -0");
	expect_error("[{\"name\":\"A\",\"STR\":100.0}]", IMPORT_JSON,
	    "t: index 0: 'STR' must be a whole number from 0 to 1000, got "
	    "'100.0'", "JSON 100.0");
	expect_error("[{\"name\":\"A\",\"STR\":1e999}]", IMPORT_JSON,
	    "t: index 0: 'STR' must be a whole number from 0 to 1000, got "
	    "'1e999'", "JSON 1e999");
	expect_error("[{\"name\":\"A\",\"STR\":9223372036854775808}]",
	    IMPORT_JSON, "t: index 0: 'STR' must be a whole number from 0 to "
	    "1000, got '9223372036854775808'", "JSON past int64");
	expect_error("[{\"name\":\"A\",\"STR\":\"5\"}]", IMPORT_JSON,
	    "t: index 0: 'STR' must be a JSON number, got the string \"5\"",
	    "JSON string for a number");
	msg = run("[{\"name\":\"A\",\"STR\":0,\"AGI\":7}]", IMPORT_JSON, &s);
	is_str(msg, NULL, "JSON 0 and 7");
	is_int(s.str[0], 0, "JSON 0 is 0");

	/* CSV: a field is every byte between the commas (RFC 4180). */
	expect_error("name,STR\nA, 5\n", IMPORT_CSV,
	    "t: line 2: 'STR' must be a whole number from 0 to 1000, got ' 5'",
	    "CSV unquoted space");
	expect_error("name,STR\nA,\" 5\"\n", IMPORT_CSV,
	    "t: line 2: 'STR' must be a whole number from 0 to 1000, got ' 5'",
	    "CSV quoted space");
	expect_error("name,STR\nA,+5\n", IMPORT_CSV,
	    "t: line 2: 'STR' must be a whole number from 0 to 1000, got '+5'",
	    "CSV +5");
	expect_error("name,STR\nA,010\n", IMPORT_CSV,
	    "t: line 2: 'STR' must be a whole number from 0 to 1000, got '010'",
	    "CSV 010");
	expect_error("name,STR\nA,-0\n", IMPORT_CSV,
	    "t: line 2: 'STR' must be a whole number from 0 to 1000, got '-0'",
	    "CSV -0");
	expect_error("[{\"name\":\"A\",\"items\":[1]}]", IMPORT_JSON,
	    "t: index 0: 'items' must be an array of names", "JSON items");
	expect_error("[{\"name\":\"A\",\"name\":\"B\"}]", IMPORT_JSON,
	    "t: index 0: 'name' appears twice", "JSON key twice");
}

int
main(void)
{
	test_csv();
	test_csv_mixed();
	test_json();
	test_json_nul();
	test_numbers();
	return tap_done();
}
