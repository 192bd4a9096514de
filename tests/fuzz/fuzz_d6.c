/*
 * fuzz_d6.c - D6 die codes ("4D+2", "3d6-1") and difficulty names: a
 * code that parses must print in a form that parses back to itself.
 */
#include "common.h"

#include "d6/d6.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	char why[256], buf[64];
	struct d6_code c, back;
	long v;

	why[0] = '\0';
	if (d6_parse_code(s, &c, why, sizeof why) == 0) {
		d6_code_str(&c, buf, sizeof buf);
		FUZZ_CHECK(d6_parse_code(buf, &back, why, sizeof why) == 0);
		FUZZ_CHECK(back.dice == c.dice && back.pips == c.pips &&
		    back.plain == c.plain);
		FUZZ_CHECK(c.dice >= 0);
	} else
		FUZZ_WHY(why);
	if (d6_difficulty_name(s, &v) == 0)
		(void)d6_difficulty_band(v);
	free(s);
	return 0;
}
