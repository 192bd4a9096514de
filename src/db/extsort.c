/*
 * extsort.c - records in the order of a key, in bounded memory; see
 * extsort.h.  A run on file is its records one after another, each a
 * header (the key and the record's length) and the record's bytes.  The
 * merge reads each run through a small buffer of its own and takes the
 * least key of the runs' next records from a binary heap.
 */
#include "db/extsort.h"

#include "base/util.h"

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Each run's read buffer in the merge. */
#define EXTSORT_READ	32768

/* A record held in memory: at buf + off, the off-th byte added. */
struct held {
	int64_t	 key;
	size_t	 off;
	size_t	 len;
};

/* A record's header on file. */
struct rec_head {
	int64_t	 key;
	uint64_t len;
};

/* A run on file: from off, n records. */
struct run {
	off_t	 off;
	size_t	 n;
};

struct extsort {
	size_t		 mem;
	char		*buf;
	size_t		 len, cap;
	struct held	*held;
	size_t		 nheld, capheld;
	FILE		*fp;		/* the runs, in a file already unlinked */
	off_t		 size;		/* its bytes */
	struct run	*runs;
	int		 nruns;
};

struct extsort *
extsort_new(size_t mem)
{
	struct extsort *s = xcalloc(1, sizeof *s);

	s->mem = mem;
	return s;
}

int
extsort_runs(const struct extsort *s)
{
	return s->nruns;
}

/* By key, then in the order added (off grows with it). */
static int
held_cmp(const void *a, const void *b)
{
	const struct held *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* The file of runs, created in $TMPDIR (else /tmp) and unlinked at once. */
static FILE *
runs_file(void)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	FILE *fp;
	int fd;

	if (dir == NULL || dir[0] != '/')
		dir = "/tmp";
	path = xasprintf("%s/refkit-sort.XXXXXX", dir);
	if ((fd = mkstemp(path)) == -1)
		err(1, "cannot create a temporary file in '%s'", util_q(dir));
	(void)unlink(path);
	free(path);
	if ((fp = fdopen(fd, "w+")) == NULL)
		err(1, "cannot open a temporary file");
	return fp;
}

/* Writes the records held, sorted, as the next run. */
static void
write_run(struct extsort *s)
{
	struct run *r;

	if (s->nheld == 0)
		return;
	if (s->fp == NULL)
		s->fp = runs_file();
	qsort(s->held, s->nheld, sizeof *s->held, held_cmp);
	s->runs = xreallocarray(s->runs, (size_t)s->nruns + 1,
	    sizeof *s->runs);
	r = &s->runs[s->nruns++];
	r->off = s->size;
	r->n = s->nheld;
	for (size_t i = 0; i < s->nheld; i++) {
		struct rec_head h = { s->held[i].key, s->held[i].len };

		if (fwrite(&h, sizeof h, 1, s->fp) != 1 ||
		    fwrite(s->buf + s->held[i].off, 1, s->held[i].len,
		    s->fp) != s->held[i].len)
			err(1, "cannot write a temporary file");
		s->size += (off_t)(sizeof h + s->held[i].len);
	}
	s->nheld = 0;
	s->len = 0;
}

void
extsort_add(struct extsort *s, int64_t key, const void *rec, size_t len)
{
	struct held *h;

	if (s->nheld > 0 && s->len + len > s->mem)
		write_run(s);
	if (s->cap - s->len < len) {
		s->cap = 2 * (s->len + len);
		s->buf = xrealloc(s->buf, s->cap);
	}
	if (s->nheld == s->capheld) {
		s->capheld = 2 * s->capheld + 1024;
		s->held = xreallocarray(s->held, s->capheld, sizeof *s->held);
	}
	h = &s->held[s->nheld++];
	h->key = key;
	h->off = s->len;
	h->len = len;
	memcpy(s->buf + s->len, rec, len);
	s->len += len;
}

/* A run being read in the merge, and its next record. */
struct cursor {
	off_t	 off, end;	/* the run's bytes not yet in buf */
	size_t	 left;		/* its records not yet taken */
	char	*buf;
	size_t	 at, len, cap;
	int64_t	 key;		/* the next record's */
	size_t	 reclen;
	int	 run;
};

/* Makes n more bytes of the run readable at c->buf + c->at. */
static void
cursor_need(struct extsort *s, struct cursor *c, size_t n)
{
	size_t want;
	ssize_t got;

	if (c->len - c->at >= n)
		return;
	memmove(c->buf, c->buf + c->at, c->len - c->at);
	c->len -= c->at;
	c->at = 0;
	if (c->cap < n) {
		c->cap = n;
		c->buf = xrealloc(c->buf, c->cap);
	}
	while (c->len < n) {
		want = c->cap - c->len;
		if ((off_t)want > c->end - c->off)
			want = (size_t)(c->end - c->off);
		got = pread(fileno(s->fp), c->buf + c->len, want, c->off);
		if (got <= 0)
			err(1, "cannot read a temporary file");
		c->len += (size_t)got;
		c->off += got;
	}
}

/* Reads the header of the run's next record; 0 when there is none. */
static int
cursor_next(struct extsort *s, struct cursor *c)
{
	struct rec_head h;

	if (c->left == 0)
		return 0;
	c->left--;
	cursor_need(s, c, sizeof h);
	memcpy(&h, c->buf + c->at, sizeof h);
	c->at += sizeof h;
	c->key = h.key;
	c->reclen = (size_t)h.len;
	cursor_need(s, c, c->reclen);
	return 1;
}

/* Whether cursor a's record comes before b's. */
static int
cursor_before(const struct cursor *a, const struct cursor *b)
{
	return a->key < b->key || (a->key == b->key && a->run < b->run);
}

/* Moves heap[i] down to its place in the heap of n. */
static void
sift_down(struct cursor **heap, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct cursor *t;

		if (l < n && cursor_before(heap[l], heap[m]))
			m = l;
		if (l + 1 < n && cursor_before(heap[l + 1], heap[m]))
			m = l + 1;
		if (m == i)
			return;
		t = heap[i];
		heap[i] = heap[m];
		heap[m] = t;
		i = m;
	}
}

static void
merge(struct extsort *s, void (*fn)(void *, const void *, size_t),
    void *ctx)
{
	struct cursor *cur = xcalloc((size_t)s->nruns, sizeof *cur);
	struct cursor **heap = xcalloc((size_t)s->nruns,
	    sizeof(struct cursor *));
	size_t n = 0;

	if (fflush(s->fp) != 0)
		err(1, "cannot write a temporary file");
	for (int i = 0; i < s->nruns; i++) {
		struct cursor *c = &cur[i];

		c->run = i;
		c->off = s->runs[i].off;
		c->end = i + 1 < s->nruns ? s->runs[i + 1].off : s->size;
		c->left = s->runs[i].n;
		c->cap = EXTSORT_READ;
		c->buf = xmalloc(c->cap);
		if (cursor_next(s, c))
			heap[n++] = c;
	}
	for (size_t i = n; i-- > 0;)
		sift_down(heap, n, i);
	while (n > 0) {
		struct cursor *c = heap[0];

		fn(ctx, c->buf + c->at, c->reclen);
		c->at += c->reclen;
		if (!cursor_next(s, c))
			heap[0] = heap[--n];
		sift_down(heap, n, 0);
	}
	for (int i = 0; i < s->nruns; i++)
		free(cur[i].buf);
	free(cur);
	free(heap);
}

void
extsort_each(struct extsort *s,
    void (*fn)(void *ctx, const void *rec, size_t len), void *ctx)
{
	if (s->nruns == 0) {
		/* All in memory: no file at all. */
		if (s->nheld > 0)
			qsort(s->held, s->nheld, sizeof *s->held, held_cmp);
		for (size_t i = 0; i < s->nheld; i++)
			fn(ctx, s->buf + s->held[i].off, s->held[i].len);
	} else {
		write_run(s);
		merge(s, fn, ctx);
		/* Empty again: the next run starts the file anew. */
		if (ftruncate(fileno(s->fp), 0) != 0 ||
		    fseeko(s->fp, 0, SEEK_SET) != 0)
			err(1, "cannot empty a temporary file");
		free(s->runs);
		s->runs = NULL;
		s->nruns = 0;
		s->size = 0;
	}
	s->nheld = 0;
	s->len = 0;
}

void
extsort_free(struct extsort *s)
{
	if (s == NULL)
		return;
	if (s->fp != NULL)
		fclose(s->fp);
	free(s->buf);
	free(s->held);
	free(s->runs);
	free(s);
}
