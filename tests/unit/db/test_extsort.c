/*
 * test_extsort.c - records come back in the order of their keys, those of
 * one key in the order added, byte for byte: all in memory, and through
 * many runs on file, with records larger than a run's read buffer, empty
 * ones, the extreme keys, and a second round after the first.
 */
#include "tap.h"

#include "db/extsort.h"
#include "base/util.h"

#include <stdlib.h>

/* A record: its key, the number it was added as, and filler bytes. */
struct rec {
	int64_t	 key;
	int	 no;
	size_t	 len;
};

struct seen {
	struct rec	*want;		/* in the order expected */
	int		 n, at, bad;
	char		*bytes;
};

/* The bytes of record no, of length len: its number, then a pattern. */
static void
fill(char *buf, int no, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (char)(i < sizeof no ? ((const char *)&no)[i] :
		    (char)(no * 31 + (int)i));
}

static void
check(void *ctx, const void *rec, size_t len)
{
	struct seen *s = ctx;
	const struct rec *w;

	if (s->at >= s->n) {
		s->bad++;
		return;
	}
	w = &s->want[s->at++];
	fill(s->bytes, w->no, w->len);
	if (len != w->len || memcmp(rec, s->bytes, len) != 0)
		s->bad++;
}

static int
rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->no - y->no;
}

/*
 * Adds n records with keys from key(i) and lengths from len(i) to a sort
 * of mem bytes, and checks what comes back.  Returns the runs written.
 */
static int
round_trip(struct extsort *s, int n, int64_t (*key)(int), size_t
    (*len)(int), const char *what)
{
	struct seen seen = { 0 };
	size_t most = 0;
	int runs;

	seen.want = xcalloc((size_t)n + 1, sizeof *seen.want);
	seen.n = n;
	for (int i = 0; i < n; i++)
		if (len(i) > most)
			most = len(i);
	seen.bytes = xmalloc(most + 1);
	for (int i = 0; i < n; i++) {
		seen.want[i].key = key(i);
		seen.want[i].no = i;
		seen.want[i].len = len(i);
		fill(seen.bytes, i, len(i));
		extsort_add(s, key(i), seen.bytes, len(i));
	}
	runs = extsort_runs(s);
	qsort(seen.want, (size_t)n, sizeof *seen.want, rec_cmp);
	extsort_each(s, check, &seen);
	ok(seen.at == n && seen.bad == 0, "%s: %d records in order, %d "
	    "wrong", what, seen.at, seen.bad);
	free(seen.want);
	free(seen.bytes);
	return runs;
}

static int64_t
key_random(int i)
{
	/* A few repeats, and both signs. */
	return (int64_t)((uint64_t)(i % 977) * 0x9e3779b97f4a7c15ULL) >> 3;
}

static int64_t
key_extreme(int i)
{
	return i % 3 == 0 ? INT64_MIN : i % 3 == 1 ? INT64_MAX : 0;
}

static size_t
len_row(int i)
{
	return (size_t)(sizeof(int) + i % 120);
}

static size_t
len_big(int i)
{
	/* Every seventh larger than a run's read buffer; some empty. */
	return i % 7 == 0 ? 100000 + (size_t)i : i % 5 == 0 ? 0 :
	    sizeof(int) + (size_t)i;
}

int
main(void)
{
	struct extsort *s;
	struct seen none = { 0 };

	s = extsort_new(1 << 20);
	is_int(round_trip(s, 5000, key_random, len_row, "in memory"), 0,
	    "no run written while the records fit");
	extsort_free(s);

	s = extsort_new(4096);
	ok(round_trip(s, 20000, key_random, len_row, "many runs") > 100,
	    "many runs on file");
	/* Empty again, and usable for a second round. */
	extsort_each(s, check, &none);
	is_int(none.bad, 0, "nothing left after a round");
	ok(round_trip(s, 3000, key_extreme, len_row, "extreme keys") > 1,
	    "extreme keys, again through runs");
	extsort_free(s);

	s = extsort_new(65536);
	ok(round_trip(s, 300, key_random, len_big, "large and empty "
	    "records") > 1, "large records, through runs");
	extsort_free(s);

	s = extsort_new(100);
	extsort_each(s, check, &none);
	is_int(none.bad, 0, "an empty sort gives nothing");
	extsort_free(s);
	extsort_free(NULL);
	return tap_done();
}
