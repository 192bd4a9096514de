/*
 * test_util.c - number parsing, text checks, terminal-safe printing.
 */
#include "tap.h"

#include <limits.h>
#include <stdlib.h>
#include <strings.h>

#include "base/util.h"

static char *
safe(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	util_fputs_safe(s, fp);
	fclose(fp);
	return buf;
}

int
main(void)
{
	long v;
	char why[100];
	char *s;
	const char *key, *value;
	char *buf;

	is_int(util_parse_int("42", 0, 100, &v), UTIL_INT_OK, "42");
	is_int(v, 42, "42's value");
	is_int(util_parse_int("-5", -10, 10, &v), UTIL_INT_OK, "-5");
	is_int(util_parse_int("101", 0, 100, &v), UTIL_INT_RANGE, "101");
	is_int(util_parse_int("", 0, 100, &v), UTIL_INT_SYNTAX, "empty");
	is_int(util_parse_int("-", 0, 100, &v), UTIL_INT_SYNTAX, "sign only");
	is_int(util_parse_int("4x", 0, 100, &v), UTIL_INT_SYNTAX, "4x");
	is_int(util_parse_int("1e3", 0, 10000, &v), UTIL_INT_SYNTAX, "1e3");
	is_int(util_parse_int("9223372036854775808", 0, LONG_MAX, &v),
	    UTIL_INT_RANGE, "past LONG_MAX");
	/* The one number rule: no leading zero, no sign on 0, a sign only
	 * where the value may be negative, nothing around the digits. */
	is_int(util_parse_int("0", 0, 100, &v), UTIL_INT_OK, "0");
	is_int(util_parse_int("+5", -10, 10, &v), UTIL_INT_OK, "+5 signed");
	is_int(v, 5, "+5's value");
	is_int(util_parse_int("+5", 0, 10, &v), UTIL_INT_SYNTAX,
	    "+5 where no sign is allowed");
	is_int(util_parse_int("-5", 0, 10, &v), UTIL_INT_SYNTAX,
	    "-5 where no sign is allowed");
	is_int(util_parse_int("-0", -10, 10, &v), UTIL_INT_SYNTAX, "-0");
	is_int(util_parse_int("+0", -10, 10, &v), UTIL_INT_SYNTAX, "+0");
	is_int(util_parse_int("010", 0, 100, &v), UTIL_INT_SYNTAX, "010");
	is_int(util_parse_int("-05", -10, 10, &v), UTIL_INT_SYNTAX, "-05");
	is_int(util_parse_int("00", 0, 100, &v), UTIL_INT_SYNTAX, "00");
	is_int(util_parse_int(" 5", 0, 100, &v), UTIL_INT_SYNTAX, "' 5'");
	is_int(util_parse_int("5 ", 0, 100, &v), UTIL_INT_SYNTAX, "'5 '");
	is_int(util_parse_int("5.0", 0, 100, &v), UTIL_INT_SYNTAX, "5.0");
	is_int(util_parse_int("-10", -10, 10, &v), UTIL_INT_OK, "-10");
	is_int(v, -10, "-10's value");
	ok(util_is_digits("0") && util_is_digits("10") &&
	    !util_is_digits("01") && !util_is_digits("") &&
	    !util_is_digits("1a"), "util_is_digits");
	ok(util_streq_ci("Level", "LEVEL"), "case-insensitive equal");
	ok(!util_streq_ci("LEV", "LEVEL"), "prefix is not equal");

	{
		static const char *const names[] = { "red", "Green", "blue" };

		is_int(util_lookup(names, 3, "Green", strcmp), 1,
		    "lookup: exact");
		is_int(util_lookup(names, 3, "green", strcmp), -1,
		    "lookup: case counts");
		is_int(util_lookup(names, 2, "blue", strcmp), -1,
		    "lookup: only the first n names");
		is_int(util_lookup(names, 3, "GREEN", strcasecmp), 1,
		    "lookup, strcasecmp: case folded");
		is_int(util_lookup(names, 3, "BLUE", strcasecmp), 2,
		    "lookup, strcasecmp: the last");
		is_int(util_lookup(names, 3, "gre", strcasecmp), -1,
		    "lookup, strcasecmp: no prefix");
		is_int(util_lookup(names, 0, "red", strcasecmp), -1,
		    "lookup, strcasecmp: no names");
	}
	ok(util_name_ok("Team-1_a.b", 10), "name_ok: letters, digits, -_.");
	ok(!util_name_ok("Team-1_a.b", 9), "name_ok: longer than max");
	ok(!util_name_ok("", 9), "name_ok: empty");
	ok(!util_name_ok("a b", 9), "name_ok: a space");
	ok(!util_name_ok("caf\xc3\xa9", 9), "name_ok: ASCII only");

	is_int(util_check_text("caf\xc3\xa9", UTIL_TEXT_LINE, 10, why,
	    sizeof why), 0, "UTF-8 accepted");
	is_int(util_check_text("\xc0\xaf", UTIL_TEXT_LINE, 10, why,
	    sizeof why), -1, "overlong UTF-8 refused");
	is_int(util_check_text("\xed\xa0\x80", UTIL_TEXT_LINE, 10, why,
	    sizeof why), -1, "surrogate refused");
	is_int(util_check_text("a\tb", UTIL_TEXT_LINE, 10, why, sizeof why),
	    -1, "tab refused in a line");
	is_int(util_check_text("a\tb", UTIL_TEXT_NOTES, 10, why, sizeof why),
	    0, "tab allowed in notes");
	is_int(util_check_text("\x1b[2J", UTIL_TEXT_NOTES, 10, why,
	    sizeof why), -1, "escape refused in notes");
	is_int(util_check_text("abcdef", UTIL_TEXT_LINE, 5, why, sizeof why),
	    -1, "too long");
	is_str(why, "is longer than 5 bytes", "too long's why");

	s = safe("a\nb\x1b[0m\xff\xc3\xa9");
	is_str(s, "a\\nb\\x1b[0m\\xff\xc3\xa9", "escapes shown");
	free(s);
	is_int(util_safe_width("a\nb"), 4, "width counts the escape");
	is_int(util_safe_width("caf\xc3\xa9"), 4, "width of UTF-8");

	is_int(util_split_kv("STR=12", &buf, &key, &value), 0, "split");
	is_str(key, "STR", "key");
	is_str(value, "12", "value");
	free(buf);
	is_int(util_split_kv("notes=a=b", &buf, &key, &value), 0, "split 2");
	is_str(value, "a=b", "value keeps later '='");
	free(buf);
	is_int(util_split_kv("=12", &buf, &key, &value), -1, "no key");
	is_int(util_split_kv("STR", &buf, &key, &value), -1, "no '='");

	is_int(util_utf8_len("\xc3\xa9", 2), 2, "UTF-8 of 2 bytes");
	is_int(util_utf8_len("\xc3\xa9", 1), 0, "cut short by its length");
	is_int(util_utf8_len("\xf0\x9f\x8e\xb2x", 5), 4, "of 4 bytes");
	is_int(util_utf8_len("a", 1), 0, "ASCII is not a sequence");
	{
		char when[32];

		util_time_iso(when, sizeof when, 1795000000);
		is_str(when, "2026-11-18T11:06:40Z", "a time");
		util_time_iso(when, sizeof when, INT64_MAX);
		is_str(when, "9223372036854775807", "a time past gmtime's");
	}
	return tap_done();
}
