/*
 * base/fit.h - a line of text fitted to a width by the importance of its
 * parts.  A line is a list of parts: each has its full text and, if it
 * may give way, a brief form (a breakdown of arithmetic reduced to its
 * total, a note dropped) and a rank saying how soon; a part may have a
 * terse form too, shorter still, at a later rank (a total dropped, "Fred
 * attacks John: " to "Fred attacks John").  The outcome of an event is a
 * part without a brief form: it stays.  Fitting takes, in order, until
 * the line fits:
 *   1. the brief and terse forms, the lowest rank first, a whole rank at
 *      a time;
 *   2. the names (of the combat, the duel, ...) in the parts that allow
 *      it, each cut to the shortest prefix (3 characters at least) no
 *      other name shares, with an
 *      ellipsis ("Brother Amos" beside "Bronn" -> "Brot…");
 *   3. the start of the line, cut with an ellipsis: the end, where the
 *      outcome is, is the last to go.
 * Widths are counted in characters (a UTF-8 sequence is one).  Pure: no
 * I/O, no state.
 */
#ifndef REFKIT_BASE_FIT_H
#define REFKIT_BASE_FIT_H

#include <stddef.h>

struct fit_part {
	const char	*text;		/* the full form */
	const char	*brief;		/* the short form ("" drops it), or
					   NULL: the part never changes */
	int		 rank;		/* the lower, the sooner it is brief */
	int		 names;		/* names in it may be shortened */
	const char	*terse;		/* shorter than brief, or NULL */
	int		 terse_rank;	/* when terse replaces brief; above
					   rank */
};

/*
 * The n parts of p joined and fitted to width characters (no limit if
 * width <= 0), the names[nnames] shortened where step 2 comes to it, with
 * ellipsis (e.g. "…" on a UTF-8 terminal, "~" elsewhere) marking a cut.
 * The caller owns the returned string (free).
 */
char *fit_line(const struct fit_part *p, size_t n, int width,
    const char *const *names, size_t nnames, const char *ellipsis);

/*
 * text with each line longer than width characters folded at its last
 * space that fits (a word longer than a line is broken), the lines it
 * continues on indented by indent spaces; as it is if width <= 0.  For
 * sentences under a table, whose every word counts.  The caller owns it.
 */
char *fit_fold(const char *text, int width, int indent);

/*
 * Which of a table's n columns fit in width characters (bit k set:
 * column k shows), column k being w[k] wide with the space before it and
 * the columns that always show fixed wide together: the columns in
 * drop[ndrop] go in that order, the least useful first, until the rest
 * fits.  All of them if width <= 0.  A column not in drop always shows.
 */
unsigned fit_columns(int width, int fixed, const int *w, size_t n,
    const int *drop, size_t ndrop);

/* The characters of s: a valid UTF-8 sequence counts as one. */
int fit_width(const char *s);

/*
 * The shortest prefix of names[i], of 3 characters at least, that no
 * other of the names starts with, in *len bytes; 0 if no prefix shorter than the name is unique
 * (it is a prefix of another, or as long as the other's start).
 */
int fit_unique_prefix(const char *const *names, size_t nnames, size_t i,
    size_t *len);

#endif
