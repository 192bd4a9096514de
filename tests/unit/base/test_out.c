/*
 * test_out.c - table, CSV and JSON writers.
 */
#include "tap.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "base/out.h"

static const char *const cols[] = { "name", "OR", "items" };

static char *
render(enum out_format fmt, enum out_shape shape, int rows)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct out *o = out_new(fp, fmt, shape, 3, cols);
	char *items[] = { "Sword", "Shield" };

	for (int i = 0; i < rows; i++) {
		out_text(o, i ? "Mary \"M\", Jr" : "Fred");
		if (i)
			out_null(o);
		else
			out_int(o, 12);
		out_list(o, items, i ? 0 : 2);
		out_end_row(o);
	}
	out_free(o);
	fclose(fp);
	return buf;
}

/* v as out_int writes it in CSV, against "%ld". */
static void
int_as_printf(long v)
{
	static const char *const icols[] = { "n" };
	char *buf = NULL, want[64];
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct out *o = out_new(fp, OUT_CSV, OUT_ROWS, 1, icols);

	out_int(o, v);
	out_end_row(o);
	out_free(o);
	fclose(fp);
	snprintf(want, sizeof want, "n\n%ld\n", v);
	is_str(buf, want, "out_int %ld", v);
	free(buf);
}

/* One row of one moment in fmt, under the POSIX zone tz. */
static char *
render_time(enum out_format fmt, const char *tz)
{
	static const char *const tcols[] = { "when" };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct out *o = out_new(fp, fmt, OUT_OBJECT, 1, tcols);

	setenv("TZ", tz, 1);
	tzset();
	out_time(o, INT64_C(1795959000));
	out_end_row(o);
	out_free(o);
	fclose(fp);
	return buf;
}

int
main(void)
{
	char *s;

	s = render(OUT_TABLE, OUT_ROWS, 2);
	is_str(s, "NAME          OR  ITEMS\n"
	    "Fred          12  Sword, Shield\n"
	    "Mary \"M\", Jr   -  -\n", "table");
	free(s);
	s = render(OUT_CSV, OUT_ROWS, 2);
	is_str(s, "name,OR,items\nFred,12,Sword;Shield\n"
	    "\"Mary \"\"M\"\", Jr\",,\n", "csv");
	free(s);
	s = render(OUT_JSON, OUT_ROWS, 2);
	is_str(s, "[\n{\"name\":\"Fred\",\"OR\":12,\"items\":[\"Sword\","
	    "\"Shield\"]},\n{\"name\":\"Mary \\\"M\\\", Jr\",\"OR\":null,"
	    "\"items\":[]}\n]\n", "json rows");
	free(s);
	/* Numbers are written without printf, as printf writes them. */
	int_as_printf(0);
	int_as_printf(7);
	int_as_printf(-7);
	int_as_printf(1000);
	int_as_printf(LONG_MAX);
	int_as_printf(LONG_MIN);
	s = render(OUT_JSON, OUT_ROWS, 0);
	is_str(s, "[]\n", "json of nothing");
	free(s);
	/* A moment: local for people, UTC for programs, whatever TZ says. */
	s = render_time(OUT_TABLE, "CET-1CEST,M3.5.0,M10.5.0/3");
	is_str(s, "WHEN\n2026-11-29 14:30:00 CET\n", "time in a table");
	free(s);
	s = render_time(OUT_CSV, "CET-1CEST,M3.5.0,M10.5.0/3");
	is_str(s, "when\n2026-11-29T13:30:00Z\n", "time in csv");
	free(s);
	s = render_time(OUT_JSON, "CET-1CEST,M3.5.0,M10.5.0/3");
	is_str(s, "{\"when\":\"2026-11-29T13:30:00Z\"}\n", "time in json");
	free(s);
	s = render(OUT_JSON, OUT_OBJECT, 1);
	is_str(s, "{\"name\":\"Fred\",\"OR\":12,\"items\":[\"Sword\","
	    "\"Shield\"]}\n", "json object");
	free(s);

	{
		char *buf = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&buf, &len);

		out_json_string(fp, "a\x01\n\\");
		out_csv_field(fp, " lead");
		out_csv_field(fp, "plain");
		fclose(fp);
		is_str(buf, "\"a\\u0001\\n\\\\\"\" lead\"plain",
		    "escapes and quoting");
		free(buf);
	}
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&buf, &len);

		out_json_string_len(fp, "a\0b\xff\xc3\xa9\xc3", 7);
		fclose(fp);
		is_str(buf, "\"a\\u0000b\\ufffd\xc3\xa9\\ufffd\"",
		    "JSON of a NUL, UTF-8 and bytes that are not");
		free(buf);
	}
	return tap_done();
}
