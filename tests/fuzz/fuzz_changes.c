/*
 * fuzz_changes.c - changes files (src/sync/changes.h) through the same
 * FILE-based reader the tools use, twice: as given, and with their last
 * 32 bytes replaced by the right checksum, so that mutations get past
 * the checksum to the header and entry checks and to SQLite's changeset
 * iterator.  A file that is taken must be written back by the writer to
 * the same bytes (the form is canonical); one that is refused must say
 * why on one clean line.  Seeds: tests/fixtures/changes.
 */
#include "common.h"

#include <sodium.h>

#include "sync/changes.h"

/* Reads data whole; writes what was handed out into *out (if taken). */
static int
read_back(const uint8_t *data, size_t size, char **out, size_t *outlen)
{
	FILE *in = fmemopen((void *)data, size, "rb"), *copy;
	struct changes_header h;
	struct changes_entry e;
	struct changes_reader *r;
	struct changes_writer *w;
	char why[256], wwhy[256];
	int rc;

	FUZZ_CHECK(in != NULL);
	why[0] = '\0';
	if ((r = changes_reader_open(in, &h, why, sizeof why)) == NULL) {
		FUZZ_WHY(why);
		fclose(in);
		return -1;
	}
	FUZZ_CHECK(h.schema >= 1 && h.schema <= DB_SCHEMA_VERSION);
	FUZZ_CHECK(changes_check_id(h.station, wwhy, sizeof wwhy) == 0);
	FUZZ_CHECK((copy = open_memstream(out, outlen)) != NULL);
	w = changes_writer_open(copy, &h, wwhy, sizeof wwhy);
	FUZZ_CHECK(w != NULL);
	while ((rc = changes_reader_next(r, &e, why, sizeof why)) == 1) {
		FUZZ_CHECK(e.oseq >= 1 && e.len >= 1 && e.len <= size);
		FUZZ_CHECK(changes_writer_add(w, &e, wwhy, sizeof wwhy) == 0);
	}
	FUZZ_CHECK(changes_writer_close(w, wwhy, sizeof wwhy) == 0);
	fclose(copy);
	if (rc < 0) {
		FUZZ_WHY(why);
		/* The same again, not a different reason or an entry. */
		FUZZ_CHECK(changes_reader_next(r, &e, wwhy, sizeof wwhy) < 0);
		FUZZ_CHECK(strcmp(why, wwhy) == 0);
	} else
		FUZZ_CHECK(changes_reader_next(r, &e, wwhy, sizeof wwhy) == 0);
	changes_reader_free(r);
	fclose(in);
	return rc;
}

static void
one(const uint8_t *data, size_t size)
{
	char *out = NULL;
	size_t outlen = 0;

	if (read_back(data, size, &out, &outlen) == 0)
		FUZZ_CHECK(outlen == size && memcmp(out, data, size) == 0);
	free(out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *fixed;

	one(data, size);
	if (size < crypto_hash_sha256_BYTES)
		return 0;
	fixed = malloc(size);
	FUZZ_CHECK(fixed != NULL && sodium_init() >= 0);
	memcpy(fixed, data, size);
	crypto_hash_sha256(fixed + size - crypto_hash_sha256_BYTES, fixed,
	    size - crypto_hash_sha256_BYTES);
	one(fixed, size);
	free(fixed);
	return 0;
}
