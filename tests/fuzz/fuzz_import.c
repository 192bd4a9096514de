/*
 * fuzz_import.c - a roster file as crs-stats import reads it, CSV or
 * JSON (FORMAT, set by the Makefile), through the same reader the tool
 * uses; each record's sheet is released as it comes.
 */
#include "common.h"

#include "crs/import.h"

static char *
drop(void *ctx, struct sheet *sh, const unsigned char present[SHEET_F_COUNT],
    const char *where)
{
	(void)ctx;
	(void)present;
	(void)where;
	sheet_release(sh);
	return NULL;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *fp;
	char *msg;

	if (size == 0)
		return 0;
	if ((fp = fmemopen((void *)data, size, "r")) == NULL)
		abort();
	msg = import_run(fp, "fuzz", FORMAT, 0, drop, NULL);
	if (msg)
		FUZZ_CHECK(msg[0] != '\0' && strchr(msg, '\n') == NULL);
	free(msg);
	fclose(fp);
	return 0;
}
