/*
 * fuzz_changes_show.c - changes files shown (src/sync/changes_show.h)
 * in both forms, with their last 32 bytes replaced by the right
 * checksum, so that mutations get past it to the entries and to the
 * decoding of their changesets (fuzz_changes.c fuzzes the reader alone,
 * many times faster: showing builds the schema in memory for a file at
 * this build's).  A file the reader takes must be shown, as text that is
 * safe on a terminal and as valid JSON; one it refuses must be refused
 * for the reader's reason with nothing written.  Seeds:
 * tests/fixtures/changes.
 */
#include "common.h"

#include <sodium.h>

#include "sync/changes.h"
#include "sync/changes_show.h"

/* Why the reader refuses data ("" if it takes it whole). */
static void
read_why(const uint8_t *data, size_t size, char *why, size_t whysz)
{
	FILE *in = fmemopen((void *)data, size, "rb");
	struct changes_header h;
	struct changes_entry e;
	struct changes_reader *r;
	int rc;

	FUZZ_CHECK(in != NULL);
	why[0] = '\0';
	if ((r = changes_reader_open(in, &h, why, whysz)) != NULL) {
		while ((rc = changes_reader_next(r, &e, why, whysz)) == 1)
			;
		if (rc == 0)
			why[0] = '\0';
		changes_reader_free(r);
	}
	fclose(in);
}

/* Whether text is valid JSON, by SQLite's json_valid. */
static int
json_ok(const char *text)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int valid;

	FUZZ_CHECK(sqlite3_open(":memory:", &db) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, "SELECT json_valid(?1)", -1, &st,
	    NULL) == SQLITE_OK);
	sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
	FUZZ_CHECK(sqlite3_step(st) == SQLITE_ROW);
	valid = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return valid;
}

static void
show(const uint8_t *data, size_t size)
{
	char rwhy[256];

	read_why(data, size, rwhy, sizeof rwhy);
	for (int json = 0; json < 2; json++) {
		FILE *in = fmemopen((void *)data, size, "rb"), *out;
		char *text = NULL, why[256], bad[64];
		size_t len = 0;
		int rc;

		FUZZ_CHECK(in != NULL &&
		    (out = open_memstream(&text, &len)) != NULL);
		why[0] = '\0';
		rc = changes_show(in, out, json ? OUT_JSON : OUT_TABLE, why,
		    sizeof why);
		fclose(out);
		fclose(in);
		if (rwhy[0] == '\0') {
			FUZZ_CHECK(rc == 0 && len > 0);
			/* Text with no tab: each is shown as \t. */
			FUZZ_CHECK(json ? json_ok(text) :
			    util_check_text(text, UTIL_TEXT_NOTES, SIZE_MAX,
			    bad, sizeof bad) == 0 &&
			    strchr(text, '\t') == NULL);
		} else {
			FUZZ_WHY(why);
			FUZZ_CHECK(rc == -1 && len == 0 &&
			    strcmp(why, rwhy) == 0);
		}
		free(text);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *fixed;

	if (size < crypto_hash_sha256_BYTES) {
		show(data, size);
		return 0;
	}
	fixed = malloc(size);
	FUZZ_CHECK(fixed != NULL && sodium_init() >= 0);
	memcpy(fixed, data, size);
	crypto_hash_sha256(fixed + size - crypto_hash_sha256_BYTES, fixed,
	    size - crypto_hash_sha256_BYTES);
	show(fixed, size);
	free(fixed);
	return 0;
}
