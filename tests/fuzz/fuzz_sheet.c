/*
 * fuzz_sheet.c - KEY=VALUE lines as crs-stats reads them: the field name,
 * its value (stats, names, ';'-lists), and the secondary stats computed
 * from whatever was accepted; plus the bare number parsers.
 */
#include "common.h"

#include "crs/sheet.h"
#include "crs/stats.h"
#include "base/util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size), *line, *next, *buf;
	const char *key, *value;
	char why[256];
	struct sheet sh;
	struct sheet_stat out[S_COUNT];
	long l;
	int v;

	sheet_init(&sh);
	for (line = s; line; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		why[0] = '\0';
		if (stats_parse_value(line, 1000, &v, why, sizeof why) == 0)
			FUZZ_CHECK(v >= 0 && v <= 1000);
		else
			FUZZ_WHY(why);
		if (util_parse_int(line, -5, 5, &l) == UTIL_INT_OK)
			FUZZ_CHECK(l >= -5 && l <= 5);
		(void)util_check_text(line, UTIL_TEXT_LINE, 64, why, sizeof why);
		if (util_split_kv(line, &buf, &key, &value) != 0)
			continue;
		int f = sheet_field_lookup(key);

		why[0] = '\0';
		if (f >= 0 && sheet_set_field(&sh, f, value, why, sizeof why) != 0)
			FUZZ_WHY(why);
		free(buf);
	}
	sheet_secondary(&sh, STATS_ROUND_WHOLE, NULL, 0, out);
	sheet_secondary(&sh, STATS_ROUND_PER_TERM, NULL, 0, out);
	sheet_release(&sh);
	free(s);
	return 0;
}
