/*
 * base/fit.c - a line fitted to a width by its parts' importance; see
 * base/fit.h.
 */
#include "base/fit.h"

#include "base/strbuf.h"
#include "base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The fewest characters a shortened name keeps: "Bro…", never "B…". */
#define FIT_PREFIX_MIN	3

/* The bytes of the character at s, of the n left. */
static size_t
char_len(const char *s, size_t n)
{
	int k = util_utf8_len(s, n);

	return k > 0 ? (size_t)k : 1;
}

int
fit_width(const char *s)
{
	size_t n = strlen(s);
	int w = 0;

	for (size_t i = 0; i < n; i += char_len(s + i, n - i))
		w++;
	return w;
}

/* Whether a and b share their first n bytes (b having that many). */
static int
shares(const char *a, const char *b, size_t n)
{
	return strlen(b) >= n && strncmp(a, b, n) == 0;
}

int
fit_unique_prefix(const char *const *names, size_t nnames, size_t i,
    size_t *len)
{
	const char *s = names[i];
	size_t n = strlen(s), k = 0;
	int chars = 0;

	while (k < n) {
		int clash = 0;

		k += char_len(s + k, n - k);
		if (++chars < FIT_PREFIX_MIN)
			continue;
		for (size_t j = 0; j < nnames && !clash; j++)
			clash = j != i && strcmp(names[j], s) != 0 &&
			    shares(s, names[j], k);
		if (!clash)
			break;
	}
	if (k >= n)
		return 0;
	*len = k;
	return 1;
}

/* Whether byte c could be inside a word (letters, digits, UTF-8). */
static int
wordy(char c)
{
	return isalnum((unsigned char)c) || (unsigned char)c >= 0x80;
}

/* The longest of the names that stands as a whole word at s; -1 if none. */
static long
name_at(const char *line, const char *s, const char *const *names,
    size_t nnames)
{
	long best = -1;
	size_t blen = 0;

	if (s > line && wordy(s[-1]))
		return -1;
	for (size_t j = 0; j < nnames; j++) {
		size_t n = strlen(names[j]);

		if (n > blen && strncmp(s, names[j], n) == 0 && !wordy(s[n])) {
			best = (long)j;
			blen = n;
		}
	}
	return best;
}

/* text with each name shortened to its unique prefix and the ellipsis. */
static void
short_names(struct strbuf *b, const char *text, const char *const *names,
    size_t nnames, const char *ellipsis)
{
	const char *s = text;

	while (*s) {
		long j = name_at(text, s, names, nnames);
		size_t len;

		if (j >= 0 && fit_unique_prefix(names, nnames, (size_t)j,
		    &len) && fit_width(names[j]) > fit_width(ellipsis) +
		    (int)len) {
			strbuf_add(b, s, len);
			strbuf_addstr(b, ellipsis);
			s += strlen(names[j]);
		} else if (j >= 0) {
			strbuf_addstr(b, names[j]);
			s += strlen(names[j]);
		} else {
			strbuf_addch(b, *s);
			s++;
		}
	}
}

/* How far fitting has gone: the ranks brief so far, the names short. */
struct stage {
	int	rank;		/* parts of rank < this are brief */
	int	names;
};

static char *
join(const struct fit_part *p, size_t n, struct stage st,
    const char *const *names, size_t nnames, const char *ellipsis)
{
	struct strbuf b = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		const char *t = p[i].terse && p[i].terse_rank < st.rank ?
		    p[i].terse : p[i].brief && p[i].rank < st.rank ?
		    p[i].brief : p[i].text;

		if (st.names && p[i].names)
			short_names(&b, t, names, nnames, ellipsis);
		else
			strbuf_addstr(&b, t);
	}
	return strbuf_detach(&b, NULL);
}

/* The lower of next and rank if rank is r or above; next < 0: none yet. */
static int
lower(int next, int rank, int r)
{
	return rank >= r && (next < 0 || rank < next) ? rank : next;
}

/* The next rank from r on that a brief or terse form has; -1 if none. */
static int
next_rank(const struct fit_part *p, size_t n, int r)
{
	int next = -1;

	for (size_t i = 0; i < n; i++) {
		if (p[i].brief)
			next = lower(next, p[i].rank, r);
		if (p[i].terse)
			next = lower(next, p[i].terse_rank, r);
	}
	return next;
}

/* s cut at its start to width characters, the ellipsis first. */
static char *
cut_start(char *s, int width, const char *ellipsis)
{
	int over = fit_width(s) - width + fit_width(ellipsis);
	size_t n = strlen(s), i = 0;
	char *out;

	if (width <= fit_width(ellipsis))
		over = fit_width(s) - width, ellipsis = "";
	for (; over > 0 && i < n; over--)
		i += char_len(s + i, n - i);
	/* Not in the middle of a word: from the space that ends it. */
	if (i > 0 && i < n && s[i] != ' ' && strchr(s + i, ' ') != NULL)
		i = (size_t)(strchr(s + i, ' ') - s);
	out = xasprintf("%s%s", ellipsis, s + i);
	free(s);
	return out;
}

char *
fit_line(const struct fit_part *p, size_t n, int width,
    const char *const *names, size_t nnames, const char *ellipsis)
{
	struct stage st = { 0, 0 };
	char *s = join(p, n, st, names, nnames, ellipsis);
	int r;

	if (width <= 0)
		return s;
	while (fit_width(s) > width && (r = next_rank(p, n, st.rank)) >= 0) {
		st.rank = r + 1;
		free(s);
		s = join(p, n, st, names, nnames, ellipsis);
	}
	if (fit_width(s) > width) {
		st.names = 1;
		free(s);
		s = join(p, n, st, names, nnames, ellipsis);
	}
	if (fit_width(s) > width)
		s = cut_start(s, width, ellipsis);
	return s;
}

unsigned
fit_columns(int width, int fixed, const int *w, size_t n, const int *drop,
    size_t ndrop)
{
	unsigned keep = n >= 32 ? ~0u : (1u << n) - 1;
	int total = fixed;

	for (size_t k = 0; k < n; k++)
		total += w[k];
	for (size_t d = 0; width > 0 && total > width && d < ndrop; d++)
		if (keep & (1u << drop[d])) {
			keep &= ~(1u << drop[d]);
			total -= w[drop[d]];
		}
	return keep;
}

/* Bytes of the first n characters of s (all of it if shorter). */
static size_t
bytes_of(const char *s, int n)
{
	size_t len = strlen(s), i = 0;

	for (; n > 0 && i < len; n--)
		i += char_len(s + i, len - i);
	return i;
}

/* One line (no newline) folded into b. */
static void
fold_line(struct strbuf *b, const char *s, size_t len, int width,
    int indent)
{
	int room = width;

	for (;;) {
		char *part = xasprintf("%.*s", (int)len, s);
		size_t cut, sp;

		if (fit_width(part) <= room) {
			strbuf_add(b, s, len);
			free(part);
			break;
		}
		cut = bytes_of(part, room);
		free(part);
		/* At the last space that fits; a word longer than that breaks. */
		for (sp = cut; sp > 0 && s[sp] != ' '; sp--)
			;
		if (sp > 0)
			cut = sp;
		strbuf_add(b, s, cut);
		strbuf_addf(b, "\n%*s", indent, "");
		while (cut < len && s[cut] == ' ')
			cut++;
		s += cut;
		len -= cut;
		room = width - indent;
	}
}

char *
fit_fold(const char *text, int width, int indent)
{
	struct strbuf b = STRBUF_INIT;

	if (indent < 0 || indent >= width / 2)
		indent = 0;
	while (*text) {
		size_t len = strcspn(text, "\n");

		if (width <= 0)
			strbuf_add(&b, text, len);
		else
			fold_line(&b, text, len, width, indent);
		text += len;
		if (*text == '\n') {
			strbuf_addch(&b, '\n');
			text++;
		}
	}
	return strbuf_detach(&b, NULL);
}
