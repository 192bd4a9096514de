/*
 * test_changes.c - the changes file: real changesets from a session on
 * an in-memory database written to a real file and read back field by
 * field; the bytes as changes.h documents them; every truncation and
 * every single bit flipped refused whole; newer formats and schemas, bad
 * ids, names and entries refused by the writer and, hand-made, by the
 * reader; a full disk, a pipe, a file that changes between the reader's
 * passes; and the committed fixtures (tests/fixtures/changes), which a
 * later refkit must still read.  "unit-sync-changes --fixtures DIR" writes
 * those fixtures anew (the fuzz seeds are made from them).
 */
#include <sqlite3.h>
#include "tap.h"

#include <dirent.h>
#include <errno.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sync/changes.h"
#include "base/util.h"

#define ID_A	"0123456789abcdef0123456789abcdef"
#define ID_B	"fedcba9876543210fedcba9876543210"
#define T0	1764000000

/* A changeset made by a real session. */
struct cs {
	void	*p;
	int	 n;
};

#define NCS	4

static void
exec_sql(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		fprintf(stderr, "%s: %s\n", sql, msg);
		exit(1);
	}
}

/*
 * Four changesets, one session each over the same database: inserts,
 * updates and a delete, every type of value, and one of about 100 kB (so
 * that a file of it does not fit a pipe's buffer).
 */
static void
make_changesets(struct cs *cs)
{
	static const char *const steps[NCS] = {
		"INSERT INTO t VALUES (1, 'Ann', 3), (2, 'Bob', 4);"
		"INSERT INTO u VALUES ('x', x'00ff')",
		"UPDATE t SET n = n + 0.5 WHERE id = 1;"
		"DELETE FROM t WHERE id = 2",
		"INSERT INTO t VALUES (3, 'Cl\xc3\xa9o', NULL);"
		"UPDATE u SET v = x'0102' WHERE k = 'x'",
		"INSERT INTO u VALUES ('big', randomblob(100000))",
	};
	sqlite3 *db;
	sqlite3_session *s;

	if (sqlite3_open(":memory:", &db) != SQLITE_OK)
		exit(1);
	exec_sql(db, "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT,"
	    " n INTEGER); CREATE TABLE u (k TEXT PRIMARY KEY, v BLOB)");
	for (int i = 0; i < NCS; i++) {
		if (sqlite3session_create(db, "main", &s) != SQLITE_OK ||
		    sqlite3session_attach(s, NULL) != SQLITE_OK)
			exit(1);
		exec_sql(db, steps[i]);
		if (sqlite3session_changeset(s, &cs[i].n, &cs[i].p) !=
		    SQLITE_OK || cs[i].n <= 0)
			exit(1);
		sqlite3session_delete(s);
	}
	sqlite3_close(db);
}

static struct changes_header
header(void)
{
	struct changes_header h = {
		.schema = DB_SCHEMA_VERSION, .station = ID_A,
		.name = "Table 1", .from = 0, .to = 4, .time = T0,
	};

	return h;
}

/*
 * The seen lists of the entries: station A's say what A had of B (the
 * first says nothing: an empty list), B's are not known, as a change
 * made before schema 14 would be.  With seen_lists 0, none is known (a
 * format 1 file).
 */
static int seen_lists = 1;
static unsigned char seen_b[CHANGES_SEEN_LEN];
static const unsigned char seen_none[1];

static struct changes_entry
entry(const char *origin, int64_t oseq, const struct cs *c)
{
	struct changes_entry e = { .oseq = oseq, .time = T0 - 100 + oseq,
	    .changeset = c->p, .len = (size_t)c->n };

	snprintf(e.origin, sizeof e.origin, "%s", origin);
	if (seen_lists && strcmp(origin, ID_A) == 0 && oseq > 1) {
		uint64_t u = (uint64_t)(oseq - 1);

		memcpy(seen_b, ID_B, STATION_ID_LEN);
		for (int i = 7; i >= 0; i--, u >>= 8)
			seen_b[STATION_ID_LEN + i] = (unsigned char)u;
		e.seen = seen_b;
		e.nseen = 1;
	} else if (seen_lists && strcmp(origin, ID_A) == 0) {
		e.seen = seen_none;
		e.nseen = 0;
	}
	return e;
}

/* Writes h and the first n changesets of cs, alternating origins. */
static int
write_file(FILE *fp, const struct changes_header *h, const struct cs *cs,
    int n, char *why, size_t whysz)
{
	struct changes_writer *w = changes_writer_open(fp, h, why, whysz);

	if (w == NULL)
		return -1;
	for (int i = 0; i < n; i++) {
		struct changes_entry e = entry(i % 2 ? ID_B : ID_A, i + 1,
		    &cs[i]);

		if (changes_writer_add(w, &e, why, whysz) != 0) {
			changes_writer_close(w, why, whysz);
			return -1;
		}
	}
	return changes_writer_close(w, why, whysz);
}

/* The file made of h and n changesets, in memory; the caller frees. */
static unsigned char *
file_bytes(const struct changes_header *h, const struct cs *cs, int n,
    size_t *len)
{
	char *buf = NULL, why[256];
	FILE *fp = open_memstream(&buf, len);

	if (fp == NULL || write_file(fp, h, cs, n, why, sizeof why) != 0) {
		fprintf(stderr, "write_file: %s\n", why);
		exit(1);
	}
	fclose(fp);
	return (unsigned char *)buf;
}

/*
 * Reads a whole file from fp: "" when it is taken, else why it is not;
 * *n is set to the entries handed out.
 */
static const char *
read_fp(FILE *fp, int *n)
{
	static char why[256];
	struct changes_header h;
	struct changes_entry e;
	struct changes_reader *r;
	int rc;

	*n = 0;
	if ((r = changes_reader_open(fp, &h, why, sizeof why)) == NULL)
		return why;
	while ((rc = changes_reader_next(r, &e, why, sizeof why)) == 1)
		(*n)++;
	changes_reader_free(r);
	return rc == 0 ? "" : why;
}

static const char *
read_mem(const unsigned char *buf, size_t len, int *n)
{
	FILE *fp = fmemopen((void *)buf, len, "rb");
	const char *why;

	if (fp == NULL)
		exit(1);
	why = read_fp(fp, n);
	fclose(fp);
	return why;
}

/* Puts a new checksum on a file changed by hand. */
static void
resum(unsigned char *buf, size_t len)
{
	crypto_hash_sha256(buf + len - 32, buf, len - 32);
}

/* A file built by hand, byte by byte, as changes.h documents it. */
struct raw {
	unsigned char	b[4096];
	size_t		n;
};

static void
raw_put(struct raw *r, const void *p, size_t n)
{
	if (r->n + n > sizeof r->b)
		exit(1);
	memcpy(r->b + r->n, p, n);
	r->n += n;
}

static void
raw_u32(struct raw *r, uint32_t v)
{
	unsigned char b[4] = { (unsigned char)(v >> 24),
	    (unsigned char)(v >> 16), (unsigned char)(v >> 8),
	    (unsigned char)v };

	raw_put(r, b, 4);
}

static void
raw_i64(struct raw *r, int64_t v)
{
	uint64_t u = (uint64_t)v;

	raw_u32(r, (uint32_t)(u >> 32));
	raw_u32(r, (uint32_t)u);
}

static void
raw_header(struct raw *r, uint32_t schema, const char *id, const char *name)
{
	unsigned char nlen = (unsigned char)strlen(name);

	r->n = 0;
	raw_put(r, "RFKTCHGS", 8);
	raw_u32(r, seen_lists ? 2 : 1);
	raw_u32(r, schema);
	raw_put(r, id, 32);
	raw_put(r, &nlen, 1);
	raw_put(r, name, nlen);
	raw_i64(r, 0);
	raw_i64(r, 4);
	raw_i64(r, T0);
}

/* An entry up to its length: the changeset's bytes are the caller's. */
static void
raw_entry_head(struct raw *r, const char *origin, int64_t oseq,
    uint32_t len)
{
	raw_put(r, "E", 1);
	raw_put(r, origin, 32);
	raw_i64(r, oseq);
	raw_i64(r, T0 - 100 + oseq);
	if (seen_lists && strcmp(origin, ID_A) != 0)
		raw_u32(r, 0xffffffff);
	else if (seen_lists && oseq > 1) {
		raw_u32(r, 1);
		raw_put(r, ID_B, 32);
		raw_i64(r, oseq - 1);
	} else if (seen_lists)
		raw_u32(r, 0);
	raw_u32(r, len);
}

static void
raw_entry(struct raw *r, const char *origin, int64_t oseq, const void *cs,
    uint32_t len)
{
	raw_entry_head(r, origin, oseq, len);
	raw_put(r, cs, len);
}

static void
raw_end(struct raw *r)
{
	raw_put(r, "Z", 1);
	r->n += 32;
	resum(r->b, r->n);
}

static void
test_round_trip(const struct cs *cs)
{
	struct changes_header h = header(), got;
	struct changes_reader *r;
	struct changes_entry e;
	char why[256];
	FILE *fp = tmpfile();
	int i, rc = 0;

	is_int(write_file(fp, &h, cs, NCS, why, sizeof why), 0,
	    "four entries written to a file");
	rewind(fp);
	r = changes_reader_open(fp, &got, why, sizeof why);
	ok(r != NULL, "read back");
	if (r == NULL) {
		printf("# %s\n", why);
		fclose(fp);
		return;
	}
	ok(got.schema == DB_SCHEMA_VERSION && got.from == 0 && got.to == 4 &&
	    got.time == T0, "the header's numbers");
	is_str(got.station, ID_A, "the header's station");
	is_str(got.name, "Table 1", "the header's name");
	for (i = 0; i < NCS; i++) {
		struct changes_entry want = entry(i % 2 ? ID_B : ID_A, i + 1,
		    &cs[i]);

		if ((rc = changes_reader_next(r, &e, why, sizeof why)) != 1)
			break;
		ok(strcmp(e.origin, want.origin) == 0 &&
		    e.oseq == want.oseq && e.time == want.time &&
		    (e.seen == NULL) == (want.seen == NULL) &&
		    e.nseen == want.nseen && (e.nseen == 0 ||
		    memcmp(e.seen, want.seen, e.nseen * CHANGES_SEEN_LEN) ==
		    0) && e.len == want.len &&
		    memcmp(e.changeset, want.changeset, e.len) == 0,
		    "entry %d: every field and byte", i + 1);
	}
	is_int(i, NCS, "every entry");
	if (rc < 0)
		printf("# %s\n", why);
	is_int(changes_reader_next(r, &e, why, sizeof why), 0, "then the end");
	is_int(changes_reader_next(r, &e, why, sizeof why), 0, "and again");
	changes_reader_free(r);
	fclose(fp);
}

/* The writer's bytes are those of changes.h, built here by hand. */
static void
test_bytes(const struct cs *cs)
{
	struct changes_header h = header();
	struct raw want = { .n = 0 };
	unsigned char *got;
	size_t len;

	got = file_bytes(&h, cs, 2, &len);
	raw_header(&want, DB_SCHEMA_VERSION, ID_A, "Table 1");
	raw_entry(&want, ID_A, 1, cs[0].p, (uint32_t)cs[0].n);
	raw_entry(&want, ID_B, 2, cs[1].p, (uint32_t)cs[1].n);
	raw_end(&want);
	ok(len == want.n && memcmp(got, want.b, len) == 0,
	    "the bytes are as changes.h documents them");
	free(got);

	raw_header(&want, DB_SCHEMA_VERSION, ID_A, "Table 1");
	raw_end(&want);
	is_int(want.n, 12 + 4 + 32 + 1 + 7 + 24 + 1 + 32, "no entries: "
	    "header, end, checksum");
	got = file_bytes(&h, cs, 0, &len);
	ok(len == want.n && memcmp(got, want.b, len) == 0,
	    "a file of no entries");
	free(got);
}

static void
test_truncated(const struct cs *cs)
{
	struct changes_header h = header();
	size_t len, bad = 0, said = 0;
	unsigned char *buf = file_bytes(&h, cs, 3, &len);
	int n;

	is_str(read_mem(buf, len, &n), "", "the whole file is taken");
	for (size_t cut = 0; cut < len; cut++) {
		const char *why = read_mem(buf, cut, &n);

		bad += why[0] != '\0' && n == 0;
		said += strcmp(why, cut ? "truncated" :
		    "empty, not a refkit changes file") == 0;
	}
	is_int(bad, len, "cut at each of %zu lengths: refused, no entry "
	    "handed out", len);
	is_int(said, len, "each said to be truncated (or empty)");
	free(buf);
}

static void
test_bit_flips(const struct cs *cs)
{
	struct changes_header h = header();
	size_t len, bad = 0, damaged = 0;
	unsigned char *buf = file_bytes(&h, cs, 1, &len);
	int n;

	for (size_t bit = 0; bit < 8 * len; bit++) {
		const char *why;

		buf[bit / 8] ^= 1u << bit % 8;
		why = read_mem(buf, len, &n);
		bad += why[0] != '\0' && n == 0;
		damaged += strcmp(why, "damaged (its checksum does not "
		    "match)") == 0;
		buf[bit / 8] ^= 1u << bit % 8;
	}
	is_int(bad, 8 * len, "each of %zu bits flipped: refused whole",
	    8 * len);
	ok(damaged > 8 * len - 200, "most said to be damaged (%zu)",
	    damaged);
	buf[len / 2] ^= 0x10;
	is_str(read_mem(buf, len, &n), "damaged (its checksum does not "
	    "match)", "a byte in the middle");
	buf[len / 2] ^= 0x10;
	buf[len - 1] ^= 1;
	is_str(read_mem(buf, len, &n), "damaged (its checksum does not "
	    "match)", "the checksum itself");
	free(buf);
}

static void
test_not_changes(const struct cs *cs)
{
	struct changes_header h = header();
	size_t len;
	unsigned char *buf = file_bytes(&h, cs, 1, &len);
	const unsigned char sqlite[] = "SQLite format 3";
	int n;

	is_str(read_mem(sqlite, sizeof sqlite, &n),
	    "not a refkit changes file", "a database is not one");
	is_str(read_mem((const unsigned char *)"RFK", 3, &n), "truncated",
	    "the start of the magic: truncated");
	buf[11] = 3;
	is_str(read_mem(buf, len, &n), "written by a newer refkit "
	    "(changes format 3)", "a newer format, before its checksum");
	buf[11] = 0;
	is_str(read_mem(buf, len, &n), "not a refkit changes file "
	    "(changes format 0)", "format 0");
	free(buf);
}

static void
test_header_checks(const struct cs *cs)
{
	struct changes_header h = header();
	char why[256], newer[80];
	struct raw r = { .n = 0 };
	int n;

	snprintf(newer, sizeof newer, "written by a newer refkit (database "
	    "schema %d, this one has %d)", DB_SCHEMA_VERSION + 1,
	    DB_SCHEMA_VERSION);
	h.schema = DB_SCHEMA_VERSION + 1;
	ok(changes_writer_open(stdout, &h, why, sizeof why) == NULL,
	    "the writer refuses a newer schema");
	is_str(why, newer, "saying so");
	raw_header(&r, DB_SCHEMA_VERSION + 1, ID_A, "Table 1");
	raw_end(&r);
	is_str(read_mem(r.b, r.n, &n), newer, "so does the reader");
	raw_header(&r, DB_SCHEMA_VERSION - 1, ID_A, "Table 1");
	raw_end(&r);
	is_str(read_mem(r.b, r.n, &n), "", "an older schema is the caller's "
	    "to judge");
	raw_header(&r, 0, ID_A, "Table 1");
	raw_end(&r);
	is_str(read_mem(r.b, r.n, &n), "database schema 0 is not a refkit "
	    "schema", "schema 0");

	h = header();
	snprintf(h.station, sizeof h.station, "xyz");
	ok(changes_writer_open(stdout, &h, why, sizeof why) == NULL,
	    "the writer refuses a short station id");
	is_str(why, "the station id 'xyz' is not 32 lowercase hexadecimal "
	    "digits", "with its reason");
	raw_header(&r, DB_SCHEMA_VERSION, "0123456789ABCDEF0123456789abcdef",
	    "Table 1");
	raw_end(&r);
	is_str(read_mem(r.b, r.n, &n), "the station id "
	    "'0123456789ABCDEF0123456789abcdef' is not 32 lowercase "
	    "hexadecimal digits", "the reader refuses upper case");
	is_int(changes_check_id(ID_B, why, sizeof why), 0, "an id is taken");

	h = header();
	snprintf(h.name, sizeof h.name, " Table");
	ok(changes_writer_open(stdout, &h, why, sizeof why) == NULL,
	    "the writer refuses a bad name: %s", why);
	raw_header(&r, DB_SCHEMA_VERSION, ID_A, "Ta\033ble");
	raw_end(&r);
	is_str(read_mem(r.b, r.n, &n), "the station name must not contain "
	    "control characters", "so does the reader");
	raw_header(&r, DB_SCHEMA_VERSION, ID_A, "");
	raw_end(&r);
	is_str(read_mem(r.b, r.n, &n), "the station name must not be empty",
	    "an empty name");
	h = header();
	h.from = 5;
	ok(changes_writer_open(stdout, &h, why, sizeof why) == NULL,
	    "the writer refuses a range backwards: %s", why);
	(void)cs;
}

static void
test_entry_checks(const struct cs *cs)
{
	struct changes_header h = header();
	struct changes_entry e = entry(ID_A, 1, &cs[0]);
	char why[256], *buf = NULL;
	size_t len;
	FILE *fp = open_memstream(&buf, &len);
	struct changes_writer *w = changes_writer_open(fp, &h, why,
	    sizeof why);
	int n;

	e.len = 0;
	is_int(changes_writer_add(w, &e, why, sizeof why), -1,
	    "the writer refuses an empty changeset");
	is_str(why, "the changeset is empty", "saying so");
	e = entry(ID_A, 0, &cs[0]);
	is_int(changes_writer_add(w, &e, why, sizeof why), -1,
	    "and sequence number 0: %s", why);
	e = entry("0123", 1, &cs[0]);
	is_int(changes_writer_add(w, &e, why, sizeof why), -1,
	    "and a bad origin: %s", why);
	e = entry(ID_A, 1, &cs[0]);
	e.changeset = "not a changeset";
	e.len = 15;
	is_int(changes_writer_add(w, &e, why, sizeof why), -1,
	    "and bytes that are not a changeset: %s", why);
	e = entry(ID_A, 1, &cs[0]);
	is_int(changes_writer_add(w, &e, why, sizeof why), 0,
	    "then takes a good entry");
	is_int(changes_writer_close(w, why, sizeof why), 0, "and closes");
	fclose(fp);
	is_str(read_mem((unsigned char *)buf, len, &n), "", "a good file");
	is_int(n, 1, "of the one good entry");
	free(buf);
}

/* Changesets the writer would refuse, made by hand for the reader. */
static void
test_bad_changesets(const struct cs *cs)
{
	static const struct {
		const char	*bytes;
		uint32_t	 len;
		const char	*why, *what;
	} hand[] = {
		{ "\x54\x01\x01t\0\x12\0\x05", 8, "",
		    "a changeset made by hand" },
		{ "\x54\x01\x00", 3, "entry 1: not a valid changeset",
		    "a table name without its NUL (SQLite 3.40 would loop "
		    "forever)" },
		{ "\x54\x7f", 2, "entry 1: not a valid changeset",
		    "a table header of 127 columns and nothing after" },
		{ "\x54\x81", 2, "entry 1: not a valid changeset",
		    "a column count cut short (SQLite 3.40 reads on past it)" },
		{ "\x54\x01\x01t\0\x12\0\x01\0\0", 10,
		    "entry 1: not a valid changeset", "an integer cut short" },
		{ "\x54\x01\x01t\0\x12\0\x09", 8,
		    "entry 1: not a valid changeset", "an unknown value type" },
		{ "\x12\0\x05", 3, "entry 1: not a valid changeset",
		    "a change before any table" },
		{ "\x50\x01\x01t\0\x12\0\x05", 8,
		    "entry 1: not a valid changeset", "a patchset" },
	};
	struct raw r = { .n = 0 };
	int n;

	raw_header(&r, DB_SCHEMA_VERSION, ID_A, "T");
	raw_entry(&r, ID_A, 1, cs[0].p, (uint32_t)cs[0].n);
	raw_entry(&r, ID_A, 2, "", 0);
	raw_end(&r);
	is_str(read_mem(r.b, r.n, &n), "entry 2: the changeset is empty",
	    "an empty changeset entry");
	is_int(n, 1, "after the good one");

	raw_header(&r, DB_SCHEMA_VERSION, ID_A, "T");
	raw_entry(&r, ID_A, 1, cs[0].p, (uint32_t)cs[0].n);
	raw_entry(&r, ID_A, 2, cs[1].p, (uint32_t)cs[1].n - 3);
	raw_end(&r);
	is_str(read_mem(r.b, r.n, &n), "entry 2: not a valid changeset",
	    "a changeset cut short");

	for (size_t i = 0; i < sizeof hand / sizeof hand[0]; i++) {
		raw_header(&r, DB_SCHEMA_VERSION, ID_A, "T");
		raw_entry(&r, ID_A, 1, hand[i].bytes, hand[i].len);
		raw_end(&r);
		is_str(read_mem(r.b, r.n, &n), hand[i].why, "%s",
		    hand[i].what);
	}
}

/* Records around the changesets the writer would refuse. */
static void
test_bad_records(const struct cs *cs)
{
	struct raw r = { .n = 0 };
	int n;

	raw_header(&r, DB_SCHEMA_VERSION, ID_A, "T");
	raw_entry(&r, "0123456789abcdef0123456789abcde\n", 1, cs[0].p,
	    (uint32_t)cs[0].n);
	raw_end(&r);
	is_str(read_mem(r.b, r.n, &n), "entry 1: the origin station id "
	    "'0123456789abcdef0123456789abcde\\n' is not 32 lowercase "
	    "hexadecimal digits", "a bad origin, quoted safely");

	raw_header(&r, DB_SCHEMA_VERSION, ID_A, "T");
	raw_entry(&r, ID_A, -1, cs[0].p, (uint32_t)cs[0].n);
	raw_end(&r);
	is_str(read_mem(r.b, r.n, &n), "entry 1: the sequence number -1 is "
	    "not 1 or more", "a negative sequence number");

	raw_header(&r, DB_SCHEMA_VERSION, ID_A, "T");
	raw_entry_head(&r, ID_A, 1, 0xffffffff);
	raw_end(&r);
	is_str(read_mem(r.b, r.n, &n), "entry 1: the changeset of "
	    "4294967295 bytes is longer than 1 GiB", "a huge length");

	raw_header(&r, DB_SCHEMA_VERSION, ID_A, "T");
	raw_entry_head(&r, ID_A, 1, 1000);
	raw_end(&r);
	is_str(read_mem(r.b, r.n, &n), "malformed (it ends inside entry 1)",
	    "a length past the end, with a good checksum");

	raw_header(&r, DB_SCHEMA_VERSION, ID_A, "T");
	raw_put(&r, "X", 1);
	raw_end(&r);
	is_str(read_mem(r.b, r.n, &n), "entry 1: an unknown record type "
	    "(0x58)", "an unknown record");

	raw_header(&r, DB_SCHEMA_VERSION, ID_A, "T");
	raw_put(&r, "Zjunk", 5);
	r.n += 32;
	resum(r.b, r.n);
	is_str(read_mem(r.b, r.n, &n), "malformed (4 bytes after its end "
	    "marker)", "bytes after the end");

	raw_header(&r, DB_SCHEMA_VERSION, ID_A, "T");
	raw_entry(&r, ID_A, 1, cs[0].p, (uint32_t)cs[0].n);
	r.n += 32;
	resum(r.b, r.n);
	is_str(read_mem(r.b, r.n, &n), "malformed (it has no end marker)",
	    "no end marker, with a good checksum");
}

static void
test_dev_full(const struct cs *cs)
{
	struct changes_header h = header();
	char why[256];
	FILE *fp = fopen("/dev/full", "w");

	if (fp == NULL) {
		ok(1, "# SKIP no /dev/full");
		return;
	}
	is_int(write_file(fp, &h, cs, NCS, why, sizeof why), -1,
	    "writing to /dev/full fails");
	is_str(why, "cannot write: No space left on device", "saying why");
	fclose(fp);

	/* Small enough to stay in the buffer until close. */
	fp = fopen("/dev/full", "w");
	is_int(write_file(fp, &h, cs, 1, why, sizeof why), -1,
	    "a small file fails at close");
	is_str(why, "cannot write: No space left on device", "saying why");
	fclose(fp);
}

/* A writer process feeds a pipe; the reader copies it to a tmpfile. */
static void
test_pipe(const struct cs *cs)
{
	struct changes_header h = header();
	size_t len;
	unsigned char *buf = file_bytes(&h, cs, NCS, &len);
	int fd[2], status, n;
	pid_t pid;
	FILE *fp;

	ok(len > 65536, "a file larger than a pipe's buffer (%zu)", len);
	if (pipe(fd) != 0 || (pid = fork()) < 0)
		exit(1);
	if (pid == 0) {
		close(fd[0]);
		_exit(write(fd[1], buf, len) == (ssize_t)len ? 0 : 1);
	}
	close(fd[1]);
	fp = fdopen(fd[0], "rb");
	is_str(read_fp(fp, &n), "", "read from a pipe");
	is_int(n, NCS, "every entry");
	fclose(fp);
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the writer wrote");

	/* A damaged file through a pipe is refused as from a file. */
	buf[100] ^= 1;
	if (pipe(fd) != 0 || (pid = fork()) < 0)
		exit(1);
	if (pid == 0) {
		close(fd[0]);
		_exit(write(fd[1], buf, len) == (ssize_t)len ? 0 : 1);
	}
	close(fd[1]);
	fp = fdopen(fd[0], "rb");
	is_str(read_fp(fp, &n), "damaged (its checksum does not match)",
	    "damaged, through a pipe");
	fclose(fp);
	waitpid(pid, &status, 0);
	free(buf);
}

/*
 * A file that changes between the reader's two passes: a stream whose
 * bytes are another file's once it has been rewound.
 */
struct two {
	const unsigned char	*a, *b;
	size_t			 len;
	off_t			 pos;
	int			 rewound;
};

static ssize_t
two_read(void *c, char *p, size_t n)
{
	struct two *t = c;
	size_t left = t->len - (size_t)t->pos;

	if (n > left)
		n = left;
	memcpy(p, (t->rewound ? t->b : t->a) + t->pos, n);
	t->pos += (off_t)n;
	return (ssize_t)n;
}

static int
two_seek(void *c, off64_t *off, int whence)
{
	struct two *t = c;

	if (whence == SEEK_SET) {
		t->rewound = 1;
		t->pos = *off;
	} else if (whence == SEEK_CUR)
		*off = t->pos += *off;
	else
		return -1;
	return 0;
}

static void
test_changed(const struct cs *cs)
{
	struct changes_header h = header();
	size_t len;
	unsigned char *a = file_bytes(&h, cs, 2, &len), *b = xmalloc(len);
	struct two t = { a, b, len, 0, 0 };
	cookie_io_functions_t io = { .read = two_read, .seek = two_seek };
	FILE *fp;
	int n;

	/*
	 * The second entry's time, a byte of the second pass's file (B's
	 * entry: its seen count says not known).
	 */
	memcpy(b, a, len);
	b[len - 32 - 1 - cs[1].n - 4 - 4 - 1] ^= 1;
	fp = fopencookie(&t, "rb", io);
	is_str(read_fp(fp, &n), "changed while it was being read",
	    "a file that changes under the reader");
	is_int(n, 2, "is refused at its end");
	fclose(fp);
	free(a);
	free(b);
}

/* The file starts at fp's position, not necessarily at 0. */
static void
test_offset(const struct cs *cs)
{
	struct changes_header h = header();
	FILE *fp = tmpfile();
	char why[256];
	int n;

	fputs("prefix", fp);
	write_file(fp, &h, cs, 2, why, sizeof why);
	fseek(fp, 6, SEEK_SET);
	is_str(read_fp(fp, &n), "", "a file read from an offset");
	is_int(n, 2, "with its entries");
	fclose(fp);
}

/* Reads a file and writes what it handed out: the same bytes again. */
static int
rewrite_same(const unsigned char *buf, size_t len)
{
	FILE *in = fmemopen((void *)buf, len, "rb"), *out;
	char *copy = NULL, why[256];
	size_t clen;
	struct changes_header h;
	struct changes_entry e;
	struct changes_reader *r;
	struct changes_writer *w;
	int rc, same;

	if ((r = changes_reader_open(in, &h, why, sizeof why)) == NULL) {
		printf("# %s\n", why);
		fclose(in);
		return 0;
	}
	out = open_memstream(&copy, &clen);
	w = changes_writer_open(out, &h, why, sizeof why);
	while ((rc = changes_reader_next(r, &e, why, sizeof why)) == 1)
		changes_writer_add(w, &e, why, sizeof why);
	rc |= changes_writer_close(w, why, sizeof why);
	fclose(out);
	same = rc == 0 && clen == len && memcmp(copy, buf, len) == 0;
	changes_reader_free(r);
	fclose(in);
	free(copy);
	return same;
}

static unsigned char *
slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *buf = xmalloc(1 << 20);

	if (fp == NULL)
		exit(1);
	*len = fread(buf, 1, 1 << 20, fp);
	fclose(fp);
	return buf;
}

/* The fixtures written by a past refkit: still read, byte for byte. */
static void
test_fixtures(void)
{
	const char *dir = SRCDIR "/tests/fixtures/changes";
	DIR *d = opendir(dir);
	struct dirent *de;
	int seen = 0;

	ok(d != NULL, "the fixtures are there");
	while (d != NULL && (de = readdir(d)) != NULL) {
		char *path;
		unsigned char *buf;
		size_t len;
		int n;

		if (de->d_name[0] == '.')
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		buf = slurp(path, &len);
		is_str(read_mem(buf, len, &n), "", "fixture %s is read",
		    de->d_name);
		ok(rewrite_same(buf, len), "fixture %s is written the same",
		    de->d_name);
		seen++;
		free(buf);
		free(path);
	}
	ok(seen >= 4, "%d fixtures", seen);
	if (d != NULL)
		closedir(d);
}

/* A seen list entry, by hand: id and number. */
static void
raw_seen(struct raw *r, const char *id, int64_t n)
{
	raw_put(r, id, 32);
	raw_i64(r, n);
}

/* An entry of station A whose seen list is given raw (count, then s). */
static const char *
read_seen_list(const struct cs *cs, uint32_t count, void (*s)(struct raw *))
{
	static struct raw r;
	int n;

	raw_header(&r, DB_SCHEMA_VERSION, ID_A, "T");
	raw_put(&r, "E", 1);
	raw_put(&r, ID_A, 32);
	raw_i64(&r, 2);
	raw_i64(&r, T0);
	raw_u32(&r, count);
	if (s != NULL)
		s(&r);
	raw_u32(&r, (uint32_t)cs[0].n);
	raw_put(&r, cs[0].p, (size_t)cs[0].n);
	raw_end(&r);
	return read_mem(r.b, r.n, &n);
}

static void seen_unsorted(struct raw *r)
{
	raw_seen(r, ID_B, 1);
	raw_seen(r, "1123456789abcdef0123456789abcdef", 1);
}
static void seen_own(struct raw *r) { raw_seen(r, ID_A, 1); }
static void seen_zero(struct raw *r) { raw_seen(r, ID_B, 0); }
static void seen_upper(struct raw *r)
{
	raw_seen(r, "FEDCBA9876543210FEDCBA9876543210", 1);
}
static void seen_two(struct raw *r)
{
	raw_seen(r, "1123456789abcdef0123456789abcdef", 7);
	raw_seen(r, ID_B, 3);
}

/*
 * The seen lists (format 2): read back as written; a format 1 file has
 * none and is written again as format 1; the writer will not put one in
 * a format 1 file; a list out of order, naming its own station, with a
 * number below 1 or a bad id, too long or past the end is refused.
 */
static void
test_seen(const struct cs *cs)
{
	struct changes_header h = header(), got;
	struct changes_entry e;
	struct changes_reader *r;
	struct changes_writer *w;
	unsigned char *buf;
	char why[256], *mem = NULL;
	size_t len, mlen;
	FILE *fp;

	buf = file_bytes(&h, cs, 3, &len);
	fp = fmemopen(buf, len, "rb");
	r = changes_reader_open(fp, &got, why, sizeof why);
	is_int(r != NULL ? (int)got.format : -1, 2, "a new file is format 2");
	ok(r != NULL && changes_reader_next(r, &e, why, sizeof why) == 1 &&
	    e.seen != NULL && e.nseen == 0, "A's first change had seen "
	    "nothing of B");
	ok(r != NULL && changes_reader_next(r, &e, why, sizeof why) == 1 &&
	    e.seen == NULL, "B's change: not known");
	ok(r != NULL && changes_reader_next(r, &e, why, sizeof why) == 1 &&
	    e.nseen == 1 && gone_seen_of(e.seen, e.nseen, ID_B) == 2 &&
	    gone_seen_of(e.seen, e.nseen, ID_A) == 0, "A's third had seen "
	    "B's 2, and names no other");
	changes_reader_free(r);
	fclose(fp);
	free(buf);

	seen_lists = 0;
	h.format = 1;
	buf = file_bytes(&h, cs, 2, &len);
	fp = fmemopen(buf, len, "rb");
	r = changes_reader_open(fp, &got, why, sizeof why);
	is_int(r != NULL ? (int)got.format : -1, 1, "format 1 is still read");
	ok(r != NULL && changes_reader_next(r, &e, why, sizeof why) == 1 &&
	    e.seen == NULL, "its entries have no seen list");
	changes_reader_free(r);
	fclose(fp);
	ok(rewrite_same(buf, len), "and it is written again as format 1");
	free(buf);
	seen_lists = 1;

	fp = open_memstream(&mem, &mlen);
	w = changes_writer_open(fp, &h, why, sizeof why);
	e = entry(ID_A, 2, &cs[0]);
	is_int(changes_writer_add(w, &e, why, sizeof why), -1,
	    "the writer will not put a seen list in format 1");
	is_str(why, "changes format 1 cannot carry what a change's station "
	    "had seen", "saying so");
	changes_writer_close(w, why, sizeof why);
	fclose(fp);
	free(mem);

	is_str(read_seen_list(cs, 2, seen_two), "", "a list of two in order");
	is_str(read_seen_list(cs, 2, seen_unsorted), "entry 1: its seen "
	    "list is not in increasing order of station id (at "
	    "1123456789abcdef0123456789abcdef)", "out of order");
	is_str(read_seen_list(cs, 1, seen_own), "entry 1: its seen list "
	    "names its own station " ID_A, "its own station");
	is_str(read_seen_list(cs, 1, seen_zero), "entry 1: its seen list "
	    "gives station " ID_B " the number 0, not 1 or more",
	    "a number below 1");
	is_str(read_seen_list(cs, 1, seen_upper), "entry 1: the seen station "
	    "id 'FEDCBA9876543210FEDCBA9876543210' is not 32 lowercase "
	    "hexadecimal digits", "a bad id");
	is_str(read_seen_list(cs, 65537, NULL), "entry 1: its seen list "
	    "names 65537 stations, more than 65536", "too long");
	is_str(read_seen_list(cs, 1000, NULL), "malformed (it ends inside "
	    "entry 1)", "past the end");
}

/* unit-changes --fixtures DIR: writes the fixtures (and fuzz seeds). */
static int
write_fixtures(const char *dir, const struct cs *cs)
{
	struct changes_header h = header();
	/* Format 1 files (before seen lists), then one of format 2. */
	struct { const char *name; int n, format; } f[] = {
		{ "empty.changes", 0, 1 }, { "one.changes", 1, 1 },
		{ "three.changes", 3, 1 }, { "seen.changes", 3, 2 },
	};
	char why[256];

	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
		char *path = xasprintf("%s/%s", dir, f[i].name);
		FILE *fp = fopen(path, "wb");

		h.to = f[i].n;
		h.format = (uint32_t)f[i].format;
		seen_lists = f[i].format >= 2;
		if (fp == NULL || write_file(fp, &h, cs, f[i].n, why,
		    sizeof why) != 0 || fclose(fp) != 0) {
			fprintf(stderr, "%s: %s\n", path,
			    fp ? why : strerror(errno));
			return 1;
		}
		free(path);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct cs cs[NCS];
	int rc;

	make_changesets(cs);
	if (argc == 3 && strcmp(argv[1], "--fixtures") == 0)
		rc = write_fixtures(argv[2], cs);
	else {
		test_round_trip(cs);
		test_bytes(cs);
		test_truncated(cs);
		test_bit_flips(cs);
		test_not_changes(cs);
		test_header_checks(cs);
		test_entry_checks(cs);
		test_bad_changesets(cs);
		test_bad_records(cs);
		test_dev_full(cs);
		test_pipe(cs);
		test_changed(cs);
		test_offset(cs);
		test_seen(cs);
		test_fixtures();
		rc = tap_done();
	}
	for (int i = 0; i < NCS; i++)
		sqlite3_free(cs[i].p);
	return rc;
}
