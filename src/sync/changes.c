/*
 * changes.c - the changes file; see changes.h for its format.  The
 * checksum is libsodium's SHA-256, and a changeset is judged well formed
 * by SQLite's own iterator, which reads it to the end without a database.
 * Only the bounds of a changeset's parts are walked here first, to keep
 * SQLite 3.40 from looping or reading past the end on a hostile one
 * (changeset_in_bounds).
 */
#include "sync/changes.h"

#include "db/changeset.h"
#include "base/util.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define MAGIC		"RFKTCHGS"
#define MAGIC_LEN	8
#define SUM_LEN		crypto_hash_sha256_BYTES
/* Magic and format, the part read before anything else is trusted. */
#define LEAD_LEN	(MAGIC_LEN + 4)
/*
 * The shortest file that can be read far enough to say what is wrong
 * with it: a header with an empty name, 'Z', the checksum.
 */
#define MIN_LEN		(LEAD_LEN + 4 + STATION_ID_LEN + 1 + 3 * 8 + 1 + \
			 SUM_LEN)
#define TAG_ENTRY	'E'
#define TAG_END		'Z'

struct changes_writer {
	FILE				*fp;
	uint32_t			 format;
	crypto_hash_sha256_state	 hs;
	int				 failed;	/* a write failed */
	char				 why[256];	/* how */
};

struct changes_reader {
	FILE				*fp;	/* the caller's, or tmp */
	FILE				*tmp;	/* owned: unseekable input */
	off_t				 start;	/* where the file begins */
	uint64_t			 size;	/* bytes before the checksum */
	uint64_t			 pos;	/* of those, bytes read */
	int				 past;	/* a read went past size */
	crypto_hash_sha256_state	 hs;	/* of the bytes read */
	unsigned char			 sum[SUM_LEN];	/* verified */
	uint32_t			 format;
	unsigned char			*buf;	/* owned: a changeset */
	size_t				 cap;
	unsigned char			*seen;	/* owned: a seen list */
	size_t				 seencap;
	int64_t				 n;	/* entries read */
	int				 state;	/* 1 at the end, -1 failed */
	char				 why[256];	/* when failed */
};

static int
sodium_ready(char *why, size_t whysz)
{
	/* Thread-safe, and cheap after the first call. */
	if (sodium_init() < 0)
		return util_say(why, whysz, "cannot initialize libsodium");
	return 0;
}

static void
be32_put(unsigned char *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b[i] = (unsigned char)(v >> (24 - 8 * i));
}

static void
be64_put(unsigned char *b, int64_t v)
{
	uint64_t u = (uint64_t)v;

	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(u >> (56 - 8 * i));
}

static uint32_t
be32_get(const unsigned char *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	    (uint32_t)b[2] << 8 | b[3];
}

static int64_t
be64_get(const unsigned char *b)
{
	uint64_t u = 0;

	for (int i = 0; i < 8; i++)
		u = u << 8 | b[i];
	/* Two's complement without an implementation-defined conversion. */
	if (u <= INT64_MAX)
		return (int64_t)u;
	return -(int64_t)(UINT64_MAX - u) - 1;
}

static int
check_id(const char *id, const char *what, char *why, size_t whysz)
{
	size_t n = strnlen(id, STATION_ID_LEN + 1), i;

	for (i = 0; i < n; i++)
		if (!((id[i] >= '0' && id[i] <= '9') ||
		    (id[i] >= 'a' && id[i] <= 'f')))
			break;
	if (n != STATION_ID_LEN || i < n) {
		char copy[STATION_ID_LEN + 2];

		/* Quote at most one byte more than an id, terminated. */
		memcpy(copy, id, n);
		copy[n] = '\0';
		return util_say(why, whysz, "the %s '%s' is not %d lowercase "
		    "hexadecimal digits", what, util_q(copy), STATION_ID_LEN);
	}
	return 0;
}

int
changes_check_id(const char *id, char *why, size_t whysz)
{
	return check_id(id, "station id", why, whysz);
}

/* Whether cs is a changeset SQLite's iterator reads to its end. */
static int
changeset_ok(const void *cs, size_t len)
{
	sqlite3_changeset_iter *it;
	int rc;

	if (len == 0 || len > INT_MAX || !changeset_in_bounds(cs, len))
		return 0;
	/* The iterator only reads the buffer; its prototype is not const. */
	if (sqlite3changeset_start(&it, (int)len, (void *)cs) != SQLITE_OK)
		return 0;
	while ((rc = sqlite3changeset_next(it)) == SQLITE_ROW)
		;
	return sqlite3changeset_finalize(it) == SQLITE_OK &&
	    rc == SQLITE_DONE;
}

/* What the writer takes and the reader hands out of a header. */
static int
check_header(const struct changes_header *h, char *why, size_t whysz)
{
	if (h->format > CHANGES_FORMAT)
		return util_say(why, whysz, "changes format %" PRIu32 " is "
		    "newer than this refkit's (%d)", h->format,
		    CHANGES_FORMAT);
	if (h->schema == 0)
		return util_say(why, whysz, "database schema 0 is not a "
		    "refkit schema");
	if (h->schema > DB_SCHEMA_VERSION)
		return util_say(why, whysz, "written by a newer refkit "
		    "(database schema %" PRIu32 ", this one has %d)",
		    h->schema, DB_SCHEMA_VERSION);
	if (check_id(h->station, "station id", why, whysz) != 0)
		return -1;
	if (strnlen(h->name, sizeof h->name) == sizeof h->name)
		return util_say(why, whysz, "the station name must be at "
		    "most %d bytes", STATION_NAME_MAX);
	if (db_station_name_check(h->name, why, whysz) != 0) {
		char *reason = xstrdup(why);

		util_say(why, whysz, "the station name %s", reason);
		free(reason);
		return -1;
	}
	if (h->from < 0 || h->to < h->from)
		return util_say(why, whysz, "the change numbers (%" PRId64
		    ", %" PRId64 "] are not a range", h->from, h->to);
	return 0;
}

int
changes_seen_check(const unsigned char *seen, size_t nseen,
    const char *origin, char *why, size_t whysz)
{
	if (nseen > CHANGES_SEEN_MAX)
		return util_say(why, whysz, "its seen list names %zu stations, "
		    "more than %d", nseen, CHANGES_SEEN_MAX);
	for (size_t i = 0; i < nseen; i++) {
		const unsigned char *s = seen + i * CHANGES_SEEN_LEN;
		char id[STATION_ID_LEN + 1];

		memcpy(id, s, STATION_ID_LEN);
		id[STATION_ID_LEN] = '\0';
		if (memchr(s, '\0', STATION_ID_LEN) != NULL)
			return util_say(why, whysz, "seen station %zu: the id "
			    "must not contain NUL bytes", i + 1);
		if (check_id(id, "seen station id", why, whysz) != 0)
			return -1;
		if (strcmp(id, origin) == 0)
			return util_say(why, whysz, "its seen list names its "
			    "own station %s", id);
		if (i > 0 && memcmp(s - CHANGES_SEEN_LEN, s,
		    STATION_ID_LEN) >= 0)
			return util_say(why, whysz, "its seen list is not in "
			    "increasing order of station id (at %s)", id);
		if (be64_get(s + STATION_ID_LEN) < 1)
			return util_say(why, whysz, "its seen list gives "
			    "station %s the number %" PRId64 ", not 1 or more",
			    id, be64_get(s + STATION_ID_LEN));
	}
	return 0;
}

/* The same of an entry; the caller names the entry. */
static int
check_entry(const struct changes_entry *e, char *why, size_t whysz)
{
	if (check_id(e->origin, "origin station id", why, whysz) != 0)
		return -1;
	if (e->seen != NULL && changes_seen_check(e->seen, e->nseen,
	    e->origin, why, whysz) != 0)
		return -1;
	if (e->oseq < 1)
		return util_say(why, whysz, "the sequence number %" PRId64
		    " is not 1 or more", e->oseq);
	if (e->len == 0)
		return util_say(why, whysz, "the changeset is empty");
	if (e->len > CHANGES_CHANGESET_MAX)
		return util_say(why, whysz, "the changeset of %zu bytes is "
		    "longer than 1 GiB", e->len);
	if (!changeset_ok(e->changeset, e->len))
		return util_say(why, whysz, "not a valid changeset");
	return 0;
}

/*
 * The writer.  Every byte but the checksum goes through put, which
 * hashes it; the first failed write is kept and ends the file.
 */
static void
put(struct changes_writer *w, const void *p, size_t n)
{
	if (w->failed || n == 0)
		return;
	errno = 0;
	if (fwrite(p, 1, n, w->fp) != n) {
		w->failed = 1;
		util_say(w->why, sizeof w->why, "cannot write: %s",
		    strerror(errno ? errno : EIO));
		return;
	}
	crypto_hash_sha256_update(&w->hs, p, n);
}

static void
put_u32(struct changes_writer *w, uint32_t v)
{
	unsigned char b[4];

	be32_put(b, v);
	put(w, b, sizeof b);
}

static void
put_i64(struct changes_writer *w, int64_t v)
{
	unsigned char b[8];

	be64_put(b, v);
	put(w, b, sizeof b);
}

static int
writer_failed(const struct changes_writer *w, char *why, size_t whysz)
{
	snprintf(why, whysz, "%s", w->why);
	return -1;
}

struct changes_writer *
changes_writer_open(FILE *fp, const struct changes_header *h, char *why,
    size_t whysz)
{
	struct changes_writer *w;
	unsigned char nlen;

	if (sodium_ready(why, whysz) != 0 ||
	    check_header(h, why, whysz) != 0)
		return NULL;
	w = xcalloc(1, sizeof *w);
	w->fp = fp;
	w->format = h->format ? h->format : CHANGES_FORMAT;
	crypto_hash_sha256_init(&w->hs);
	put(w, MAGIC, MAGIC_LEN);
	put_u32(w, w->format);
	put_u32(w, h->schema);
	put(w, h->station, STATION_ID_LEN);
	nlen = (unsigned char)strlen(h->name);
	put(w, &nlen, 1);
	put(w, h->name, nlen);
	put_i64(w, h->from);
	put_i64(w, h->to);
	put_i64(w, h->time);
	return w;
}

int
changes_writer_add(struct changes_writer *w, const struct changes_entry *e,
    char *why, size_t whysz)
{
	unsigned char tag = TAG_ENTRY;

	if (w->failed)
		return writer_failed(w, why, whysz);
	if (check_entry(e, why, whysz) != 0)
		return -1;
	if (w->format < 2 && e->seen != NULL)
		return util_say(why, whysz, "changes format %" PRIu32 " cannot "
		    "carry what a change's station had seen", w->format);
	put(w, &tag, 1);
	put(w, e->origin, STATION_ID_LEN);
	put_i64(w, e->oseq);
	put_i64(w, e->time);
	if (w->format >= 2) {
		put_u32(w, e->seen == NULL ? CHANGES_SEEN_UNKNOWN :
		    (uint32_t)e->nseen);
		if (e->seen != NULL)
			put(w, e->seen, e->nseen * CHANGES_SEEN_LEN);
	}
	put_u32(w, (uint32_t)e->len);
	put(w, e->changeset, e->len);
	return w->failed ? writer_failed(w, why, whysz) : 0;
}

int
changes_writer_close(struct changes_writer *w, char *why, size_t whysz)
{
	unsigned char tag = TAG_END, sum[SUM_LEN];
	int rc = 0;

	put(w, &tag, 1);
	if (!w->failed) {
		crypto_hash_sha256_final(&w->hs, sum);
		errno = 0;
		if (fwrite(sum, 1, sizeof sum, w->fp) != sizeof sum ||
		    fflush(w->fp) != 0 || ferror(w->fp)) {
			w->failed = 1;
			util_say(w->why, sizeof w->why, "cannot write: %s",
			    strerror(errno ? errno : EIO));
		}
	}
	if (w->failed)
		rc = writer_failed(w, why, whysz);
	free(w);
	return rc;
}

/*
 * The reader.  Every byte before the checksum is read through get,
 * which never reads past r->size (r->past then says so) and hashes what
 * it reads, so that the second pass can tell a file that changed under
 * it.
 */
static int
get(struct changes_reader *r, void *p, size_t n)
{
	if (n > r->size - r->pos) {
		r->past = 1;
		return -1;
	}
	errno = 0;
	if (fread(p, 1, n, r->fp) != n)
		return -1;
	crypto_hash_sha256_update(&r->hs, p, n);
	r->pos += n;
	return 0;
}

static int
get_u32(struct changes_reader *r, uint32_t *v)
{
	unsigned char b[4];

	if (get(r, b, sizeof b) != 0)
		return -1;
	*v = be32_get(b);
	return 0;
}

static int
get_i64(struct changes_reader *r, int64_t *v)
{
	unsigned char b[8];

	if (get(r, b, sizeof b) != 0)
		return -1;
	*v = be64_get(b);
	return 0;
}

/* Steps over n bytes without reading them (for damage_kind). */
static int
skip(struct changes_reader *r, uint64_t n)
{
	if (n > r->size - r->pos) {
		r->past = 1;
		return -1;
	}
	if (fseeko(r->fp, (off_t)n, SEEK_CUR) != 0)
		return -1;
	r->pos += n;
	return 0;
}

/*
 * Why a get failed: the records run past the checksum (what says how,
 * "ends inside entry 3"), an I/O error, or a file that shrank since the
 * first pass.
 */
static int
read_failed(const struct changes_reader *r, const char *what, char *why,
    size_t whysz)
{
	if (r->past)
		return util_say(why, whysz, "malformed (it %s)", what);
	if (ferror(r->fp))
		return util_say(why, whysz, "cannot read: %s",
		    strerror(errno ? errno : EIO));
	return util_say(why, whysz, "changed while it was being read");
}

/*
 * A file whose checksum does not match: it was cut short if its records
 * run past its end or leave no room for a checksum, else it is damaged.
 * Only the lengths are read, so that nothing of a damaged file is
 * trusted beyond telling the two apart.
 */
static int
damage_kind(struct changes_reader *r, uint64_t total, char *why,
    size_t whysz)
{
	unsigned char nlen, tag = 0;
	uint32_t len;

	r->size = total;
	r->pos = 0;
	if (fseeko(r->fp, r->start, SEEK_SET) != 0 ||
	    skip(r, LEAD_LEN + 4 + STATION_ID_LEN) != 0 ||
	    get(r, &nlen, 1) != 0 || skip(r, nlen + 3 * 8) != 0)
		goto out;
	while (get(r, &tag, 1) == 0 && tag == TAG_ENTRY) {
		uint32_t nseen = 0;

		if (skip(r, STATION_ID_LEN + 2 * 8) != 0 ||
		    (r->format >= 2 && (get_u32(r, &nseen) != 0 ||
		    (nseen != CHANGES_SEEN_UNKNOWN &&
		    skip(r, (uint64_t)nseen * CHANGES_SEEN_LEN) != 0))) ||
		    get_u32(r, &len) != 0 || skip(r, len) != 0)
			break;
	}
	if (!r->past && tag == TAG_END && total - r->pos < SUM_LEN)
		r->past = 1;
out:
	if (r->past)
		return util_say(why, whysz, "truncated");
	return util_say(why, whysz, "damaged (its checksum does not match)");
}

/* The magic and format in lead (n of its bytes, the file total long). */
static int
check_lead(const unsigned char *lead, size_t n, uint64_t total, char *why,
    size_t whysz)
{
	uint32_t format;

	if (total == 0)
		return util_say(why, whysz, "empty, not a refkit changes "
		    "file");
	if (memcmp(lead, MAGIC, n < MAGIC_LEN ? n : MAGIC_LEN) != 0)
		return util_say(why, whysz, "not a refkit changes file");
	if (n < LEAD_LEN)
		return util_say(why, whysz, "truncated");
	format = be32_get(lead + MAGIC_LEN);
	if (format == 0)
		return util_say(why, whysz, "not a refkit changes file "
		    "(changes format 0)");
	if (format > CHANGES_FORMAT)
		return util_say(why, whysz, "written by a newer refkit "
		    "(changes format %" PRIu32 ")", format);
	if (total < MIN_LEN)
		return util_say(why, whysz, "truncated");
	return 0;
}

/*
 * The first pass: hashes all of in but its last SUM_LEN bytes, held back
 * in a bounded buffer, and copies in to r->tmp if it is set.  Leaves
 * r->fp at the file's start, r->size and r->sum set, or refuses.
 */
static int
verify(struct changes_reader *r, FILE *in, char *why, size_t whysz)
{
	unsigned char b[SUM_LEN + 16384], lead[LEAD_LEN], sum[SUM_LEN];
	size_t keep = 0, nlead = 0, n;
	uint64_t total = 0;

	crypto_hash_sha256_init(&r->hs);
	do {
		errno = 0;
		n = fread(b + keep, 1, sizeof b - keep, in);
		if (r->tmp && n > 0 && fwrite(b + keep, 1, n, r->tmp) != n)
			break;
		for (size_t i = 0; nlead < LEAD_LEN && i < n; i++)
			lead[nlead++] = b[keep + i];
		total += n;
		keep += n;
		if (keep > SUM_LEN) {
			crypto_hash_sha256_update(&r->hs, b, keep - SUM_LEN);
			memmove(b, b + keep - SUM_LEN, SUM_LEN);
			keep = SUM_LEN;
		}
	} while (n > 0);
	if (ferror(in))
		return util_say(why, whysz, "cannot read: %s",
		    strerror(errno ? errno : EIO));
	if (r->tmp && (ferror(r->tmp) || fflush(r->tmp) != 0))
		return util_say(why, whysz, "cannot copy it to a temporary "
		    "file: %s", strerror(errno ? errno : EIO));
	if (check_lead(lead, nlead, total, why, whysz) != 0)
		return -1;
	r->format = nlead >= LEAD_LEN ? be32_get(lead + MAGIC_LEN) : 0;
	crypto_hash_sha256_final(&r->hs, sum);
	if (r->tmp)
		r->fp = r->tmp;
	if (sodium_memcmp(sum, b, SUM_LEN) != 0)
		return damage_kind(r, total, why, whysz);
	memcpy(r->sum, sum, SUM_LEN);
	r->size = total - SUM_LEN;
	if (fseeko(r->fp, r->start, SEEK_SET) != 0)
		return util_say(why, whysz, "cannot go back to its start: %s",
		    strerror(errno));
	return 0;
}

/* The second pass begins: the header, checked. */
static int
read_header(struct changes_reader *r, struct changes_header *h,
    char *why, size_t whysz)
{
	unsigned char lead[LEAD_LEN], nlen;

	memset(h, 0, sizeof *h);
	crypto_hash_sha256_init(&r->hs);
	r->pos = 0;
	r->past = 0;
	if (get(r, lead, sizeof lead) != 0 || get_u32(r, &h->schema) != 0 ||
	    get(r, h->station, STATION_ID_LEN) != 0 || get(r, &nlen, 1) != 0)
		return read_failed(r, "ends inside its header", why, whysz);
	if (nlen > STATION_NAME_MAX)
		return util_say(why, whysz, "the station name must be at "
		    "most %d bytes", STATION_NAME_MAX);
	if (get(r, h->name, nlen) != 0 || get_i64(r, &h->from) != 0 ||
	    get_i64(r, &h->to) != 0 || get_i64(r, &h->time) != 0)
		return read_failed(r, "ends inside its header", why, whysz);
	h->format = be32_get(lead + MAGIC_LEN);
	if (memchr(h->station, '\0', STATION_ID_LEN) != NULL)
		return util_say(why, whysz, "the station id must not contain "
		    "NUL bytes");
	if (memchr(h->name, '\0', nlen) != NULL)
		return util_say(why, whysz, "the station name must not "
		    "contain NUL bytes");
	return check_header(h, why, whysz);
}

struct changes_reader *
changes_reader_open(FILE *fp, struct changes_header *h, char *why,
    size_t whysz)
{
	struct changes_reader *r;

	memset(h, 0, sizeof *h);
	if (sodium_ready(why, whysz) != 0)
		return NULL;
	r = xcalloc(1, sizeof *r);
	r->fp = fp;
	if ((r->start = ftello(fp)) < 0) {
		/* A pipe: the copy is what the second pass reads. */
		r->start = 0;
		if ((r->tmp = tmpfile()) == NULL) {
			util_say(why, whysz, "cannot make a temporary file: "
			    "%s", strerror(errno));
			goto fail;
		}
	}
	if (verify(r, fp, why, whysz) != 0 ||
	    read_header(r, h, why, whysz) != 0)
		goto fail;
	return r;
fail:
	changes_reader_free(r);
	memset(h, 0, sizeof *h);
	return NULL;
}

/* At the end marker: nothing may follow, and the bytes were the same. */
static int
reader_end(struct changes_reader *r, char *why, size_t whysz)
{
	unsigned char sum[SUM_LEN];

	if (r->pos != r->size)
		return util_say(why, whysz, "malformed (%" PRIu64 " bytes "
		    "after its end marker)", r->size - r->pos);
	crypto_hash_sha256_final(&r->hs, sum);
	if (sodium_memcmp(sum, r->sum, SUM_LEN) != 0)
		return util_say(why, whysz, "changed while it was being "
		    "read");
	return 0;
}

/*
 * Reads len bytes into *buf (grown to *cap as needed); -1 with why, the
 * read's failure said as inside.  Allocates only what the file really
 * holds.
 */
static int
get_into(struct changes_reader *r, unsigned char **buf, size_t *cap,
    size_t len, const char *inside, char *why, size_t whysz)
{
	if (len > r->size - r->pos) {
		r->past = 1;
		return read_failed(r, inside, why, whysz);
	}
	if (len > *cap) {
		free(*buf);
		*buf = xmalloc(len);
		*cap = len;
	}
	if (get(r, *buf, len) != 0)
		return read_failed(r, inside, why, whysz);
	return 0;
}

/* The seen list of entry where, into r->seen; -1 with why. */
static int
read_seen(struct changes_reader *r, struct changes_entry *e,
    const char *where, const char *inside, char *why, size_t whysz)
{
	static const unsigned char none[1];
	uint32_t n;
	size_t len;

	if (get_u32(r, &n) != 0)
		return read_failed(r, inside, why, whysz);
	if (n == CHANGES_SEEN_UNKNOWN)
		return 0;
	if (n > CHANGES_SEEN_MAX)
		return util_say(why, whysz, "%s: its seen list names %" PRIu32
		    " stations, more than %d", where, n, CHANGES_SEEN_MAX);
	len = (size_t)n * CHANGES_SEEN_LEN;
	if (get_into(r, &r->seen, &r->seencap, len, inside, why, whysz) != 0)
		return -1;
	e->seen = n > 0 ? r->seen : none;
	e->nseen = n;
	return 0;
}

/* Reads entry r->n + 1 after its tag into *e; -1 with why. */
static int
read_entry(struct changes_reader *r, struct changes_entry *e, char *why,
    size_t whysz)
{
	char where[64], inside[80];
	uint32_t len;

	snprintf(where, sizeof where, "entry %" PRId64, r->n + 1);
	snprintf(inside, sizeof inside, "ends inside %s", where);
	if (get(r, e->origin, STATION_ID_LEN) != 0 ||
	    get_i64(r, &e->oseq) != 0 || get_i64(r, &e->time) != 0)
		return read_failed(r, inside, why, whysz);
	if (r->format >= 2 && read_seen(r, e, where, inside, why, whysz) != 0)
		return -1;
	if (get_u32(r, &len) != 0)
		return read_failed(r, inside, why, whysz);
	if (len > CHANGES_CHANGESET_MAX)
		return util_say(why, whysz, "%s: the changeset of %" PRIu32
		    " bytes is longer than 1 GiB", where, len);
	if (get_into(r, &r->buf, &r->cap, len, inside, why, whysz) != 0)
		return -1;
	e->changeset = r->buf;
	e->len = len;
	if (memchr(e->origin, '\0', STATION_ID_LEN) != NULL)
		return util_say(why, whysz, "%s: the origin station id must "
		    "not contain NUL bytes", where);
	if (check_entry(e, why, whysz) != 0) {
		char *reason = xstrdup(why);

		util_say(why, whysz, "%s: %s", where, reason);
		free(reason);
		return -1;
	}
	return 0;
}

int
changes_reader_next(struct changes_reader *r, struct changes_entry *e,
    char *why, size_t whysz)
{
	unsigned char tag;
	int rc = -1;

	memset(e, 0, sizeof *e);
	if (r->state != 0) {
		if (r->state < 0)
			snprintf(why, whysz, "%s", r->why);
		return r->state > 0 ? 0 : -1;
	}
	if (get(r, &tag, 1) != 0)
		read_failed(r, "has no end marker", why, whysz);
	else if (tag == TAG_END)
		rc = reader_end(r, why, whysz) == 0 ? 0 : -1;
	else if (tag != TAG_ENTRY)
		util_say(why, whysz, "entry %" PRId64 ": an unknown record "
		    "type (0x%02x)", r->n + 1, tag);
	else if (read_entry(r, e, why, whysz) == 0) {
		r->n++;
		return 1;
	}
	r->state = rc == 0 ? 1 : -1;
	if (rc != 0) {
		snprintf(r->why, sizeof r->why, "%s", why);
		memset(e, 0, sizeof *e);
	}
	return rc;
}

void
changes_reader_free(struct changes_reader *r)
{
	if (r == NULL)
		return;
	if (r->tmp != NULL)
		fclose(r->tmp);
	free(r->buf);
	free(r->seen);
	free(r);
}
