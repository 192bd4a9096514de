/*
 * changes.h - the changes file, in which one station's changesets travel
 * to another (issue #21).  A changes file holds a header, a sequence of
 * entries, each one changeset made by SQLite's session extension with
 * the station and sequence number it was made at, an end marker, and a
 * SHA-256 of everything before it.  The format:
 *
 *	magic		8 bytes "RFKTCHGS"
 *	format		u32, 1 or CHANGES_FORMAT
 *	schema		u32, the database schema of the writer, 1 to
 *			DB_SCHEMA_VERSION
 *	station		32 bytes, the writer's station id (lowercase hex)
 *	name length	u8, 1 to STATION_NAME_MAX
 *	name		the writer's station name (UTF-8, one line)
 *	from, to	i64 each, the change numbers (from, to] of the
 *			writer's change log it covers, 0 <= from <= to
 *	time		i64, when it was written (Unix seconds)
 *	then, any number of times:
 *	  'E'		one byte: an entry
 *	  origin	32 bytes, the station id the change was made at
 *	  oseq		i64 >= 1, its sequence number there
 *	  time		i64, when it was made (Unix seconds)
 *	  seen count	u32 (format 2 on; format 1 has neither this nor
 *			the next): how many stations follow, or
 *			CHANGES_SEEN_UNKNOWN
 *	  seen		that many times, in increasing order of id: a
 *			station id (32 bytes), not the origin's, and the
 *			i64 >= 1 number of the last of that station's
 *			changes the origin had when it made this one
 *	  length	u32, 1 to CHANGES_CHANGESET_MAX
 *	  changeset	length bytes, a well-formed changeset
 *	'Z'		one byte: the end
 *	checksum	32 bytes, SHA-256 of every byte before it
 *
 * Every integer is big-endian, u32 unsigned, i64 two's complement.  The
 * form is canonical: the writer turns what the reader hands out back
 * into the same bytes.
 *
 * The writer and the reader stream, so that their memory stays flat in
 * the size of the file (the reader's grows to its largest changeset).
 * Neither owns the FILE it is given, nor exits on bad data: a refusal is
 * -1 (or NULL) with a one-line reason in why, to which the caller adds
 * the file's name.
 */
#ifndef REFKIT_CHANGES_H
#define REFKIT_CHANGES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "db/db.h"
#include "db/gone.h"
#include "sync/station.h"

/* The format this build writes, and the newest it reads. */
#define CHANGES_FORMAT		2
/* A seen count that says the change was made before stations kept one. */
#define CHANGES_SEEN_UNKNOWN	UINT32_C(0xffffffff)
/* The bytes of one station in a seen list: its id and an i64. */
#define CHANGES_SEEN_LEN	GONE_SEEN_LEN
/* The most stations a seen list may name. */
#define CHANGES_SEEN_MAX	65536
/* The largest changeset an entry may carry, in bytes (1 GiB). */
#define CHANGES_CHANGESET_MAX	(1u << 30)

struct changes_header {
	uint32_t	format;		/* 1 or 2; the writer takes 0 as 2 */
	uint32_t	schema;		/* the writer's DB_SCHEMA_VERSION */
	char		station[STATION_ID_LEN + 1];
	char		name[STATION_NAME_MAX + 1];
	int64_t		from, to;	/* the change numbers (from, to] */
	int64_t		time;		/* written, Unix seconds */
};

struct changes_entry {
	char		 origin[STATION_ID_LEN + 1];
	int64_t		 oseq;		/* >= 1 */
	int64_t		 time;		/* made, Unix seconds */
	/*
	 * What the origin had of the other stations' changes when it made
	 * this one (the "seen" list): nseen entries of CHANGES_SEEN_LEN
	 * bytes as in the file; seen is NULL when that is not known (a
	 * change made before schema 14, or one read from a format 1 file).
	 */
	const unsigned char *seen;
	size_t		 nseen;
	const void	*changeset;
	size_t		 len;		/* 1 to CHANGES_CHANGESET_MAX */
};

struct changes_writer;
struct changes_reader;

/*
 * Starts a changes file on fp, writing its header h.  Returns a writer to
 * finish with changes_writer_close, or NULL with why set when h is not a
 * header the reader would take (nothing is written then).
 */
struct changes_writer *changes_writer_open(FILE *fp,
    const struct changes_header *h, char *why, size_t whysz);

/*
 * Writes entry e (its changeset must be well formed and not empty).
 * Returns 0, or -1 with why set: a bad entry, which is not written and
 * leaves the writer usable, or a write error, after which every call
 * fails and close only frees.
 */
int changes_writer_add(struct changes_writer *w,
    const struct changes_entry *e, char *why, size_t whysz);

/*
 * Writes the end marker and the checksum, flushes fp and frees w.
 * Returns 0, or -1 with why set if anything written was lost (a full
 * disk: the file is then not a changes file).  The caller still closes
 * fp, and checks that too.
 */
int changes_writer_close(struct changes_writer *w, char *why,
    size_t whysz);

/*
 * Opens the changes file read from fp's current position to its end.
 * The whole file's checksum is verified first, in one pass with a
 * bounded buffer, so that a damaged or truncated file is refused before
 * any entry is handed out; input that cannot seek (a pipe) is copied to
 * a temporary file on the way.  Then the header is read into *h.
 * Returns a reader to free with changes_reader_free, or NULL with why
 * set.  A file written at a schema newer than DB_SCHEMA_VERSION is
 * refused; the caller compares h->schema with its own database's.
 */
struct changes_reader *changes_reader_open(FILE *fp,
    struct changes_header *h, char *why, size_t whysz);

/*
 * Reads the next entry into *e.  Its changeset is in a buffer the reader
 * owns, valid until the next call.  Returns 1 with an entry, 0 at the
 * end (the file was read whole and unchanged), or -1 with why set; after
 * 0 or -1 it returns the same again.
 */
int changes_reader_next(struct changes_reader *r, struct changes_entry *e,
    char *why, size_t whysz);

/* Frees r and its temporary file, if any; fp is the caller's. */
void changes_reader_free(struct changes_reader *r);

/*
 * Checks a seen list of the change made at origin: ids valid, in
 * increasing order, not origin's, numbers 1 or more.  Returns 0, or -1
 * with why set.
 */
int changes_seen_check(const unsigned char *seen, size_t nseen,
    const char *origin, char *why, size_t whysz);

/*
 * Checks a station id: STATION_ID_LEN lowercase hexadecimal digits.
 * Returns 0, or -1 with why set.
 */
int changes_check_id(const char *id, char *why, size_t whysz);

#endif
