/*
 * watch.c - the live board; see watch.h.  A frame is held as lines of
 * bytes with an ink per byte, so that a tool draws it once whatever
 * shows it: curses (ncursesw) puts it on the screen, cut at the screen's
 * width and height, and sends the terminal only what changed since the
 * last frame; without a terminal it is printed as plain text.
 *
 * While curses has the terminal, standard error goes to a temporary
 * file, shown once the terminal is restored: a message of a command
 * that exits meanwhile (a database error) would otherwise be written
 * into the full-screen view and wiped with it.
 */
#include "term/watch.h"

#include "db/db.h"
#include "core/journal.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <curses.h>
#include <inttypes.h>
#include <err.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

/* Without a terminal: the frame of a terminal this size. */
#define PLAIN_COLS	80
#define PLAIN_ROWS	24
/* How often the database is asked whether it changed, in ms. */
#define POLL_MS		250
/* The longest a frame stays on the screen undrawn, in ms. */
#define REDRAW_MS	10000

struct watch_line {
	char		*text;
	unsigned char	*ink;		/* an enum watch_ink per byte */
	size_t		 len, cap;
};

struct watch_frame {
	struct watch_line *line;	/* n lines, the last being written */
	size_t		 n, cap;
	int		 cols, rows;
	int		 colour, squares;
	int		 wide;		/* widths from wcwidth (a UTF-8
					   terminal), else 1 a character */
};

struct watch_frame *
watch_frame_new(int cols, int rows)
{
	struct watch_frame *f = xcalloc(1, sizeof *f);

	f->cols = cols;
	f->rows = rows;
	return f;
}

/* Empties f for a new frame of cols by rows. */
static void
frame_reset(struct watch_frame *f, int cols, int rows)
{
	for (size_t i = 0; i < f->n; i++)
		f->line[i].len = 0;
	f->n = 0;
	f->cols = cols;
	f->rows = rows;
}

void
watch_frame_free(struct watch_frame *f)
{
	if (f == NULL)
		return;
	for (size_t i = 0; i < f->cap; i++) {
		free(f->line[i].text);
		free(f->line[i].ink);
	}
	free(f->line);
	free(f);
}

/* The line being written, a first one made if there is none. */
static struct watch_line *
current(struct watch_frame *f)
{
	if (f->n == 0)
		f->n = 1;
	if (f->n > f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 32;

		f->line = xreallocarray(f->line, cap, sizeof *f->line);
		memset(f->line + f->cap, 0, (cap - f->cap) * sizeof *f->line);
		f->cap = cap;
	}
	return &f->line[f->n - 1];
}

static void
new_line(struct watch_frame *f)
{
	current(f);
	f->n++;
	current(f)->len = 0;
}

static void
add_bytes(struct watch_frame *f, int ink, const char *s, size_t n)
{
	struct watch_line *l = current(f);

	if (l->len + n > l->cap) {
		l->cap = 2 * (l->len + n) + 64;
		l->text = xrealloc(l->text, l->cap);
		l->ink = xrealloc(l->ink, l->cap);
	}
	memcpy(l->text + l->len, s, n);
	memset(l->ink + l->len, ink, n);
	l->len += n;
}

/*
 * Adds the n bytes of s: a '\n' starts a line, a tab is a space, any
 * other control character or a byte outside valid UTF-8 is '?'.
 */
static void
add_text(struct watch_frame *f, int ink, const char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		int k;

		if (c == '\n') {
			new_line(f);
			i++;
		} else if (c >= 0x20 && c < 0x7f) {
			size_t j = i;

			while (j < n && (unsigned char)s[j] >= 0x20 &&
			    (unsigned char)s[j] < 0x7f)
				j++;
			add_bytes(f, ink, s + i, j - i);
			i = j;
		} else if ((k = util_utf8_len(s + i, n - i)) > 0) {
			add_bytes(f, ink, s + i, (size_t)k);
			i += (size_t)k;
		} else {
			add_bytes(f, ink, c == '\t' ? " " : "?", 1);
			i++;
		}
	}
}

void
watch_put(struct watch_frame *f, int ink, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	add_text(f, ink, s, strlen(s));
	free(s);
}

void
watch_text(struct watch_frame *f, int ink, const char *text)
{
	add_text(f, ink, text, strlen(text));
}

/* The code point of the character of n bytes at s (valid UTF-8). */
static wchar_t
code_point(const unsigned char *s, int n)
{
	uint32_t c = n == 1 ? s[0] : n == 2 ? s[0] & 0x1f : n == 3 ?
	    s[0] & 0x0f : s[0] & 0x07;

	for (int i = 1; i < n; i++)
		c = c << 6 | (s[i] & 0x3f);
	return (wchar_t)c;
}

/*
 * The bytes (*n) and columns of the character at s, of the len bytes
 * left: 1 column a character unless the frame is on a UTF-8 terminal,
 * where wcwidth knows the wide and the zero-width ones.
 */
static int
char_width(const struct watch_frame *f, const char *s, size_t len, int *n)
{
	int k = (unsigned char)*s < 0x80 ? 1 : util_utf8_len(s, len), w;

	*n = k > 0 ? k : 1;
	if (!f->wide || k <= 1)
		return 1;
	w = wcwidth(code_point((const unsigned char *)s, k));
	return w < 0 ? 1 : w;
}

/* The columns of the n bytes at s. */
static int
text_width(const struct watch_frame *f, const char *s, size_t len)
{
	int w = 0, n;

	for (size_t i = 0; i < len; i += (size_t)n)
		w += char_width(f, s + i, len - i, &n);
	return w;
}

void
watch_cell(struct watch_frame *f, int ink, const char *s, int width)
{
	size_t len = strlen(s), i = 0;
	int w = 0, n, cw;

	/* Only what add_text keeps as it is is measured: s is clean text. */
	while (i < len && s[i] != '\n' && (cw = char_width(f, s + i,
	    len - i, &n)) + w <= width) {
		w += cw;
		i += (size_t)n;
	}
	add_text(f, ink, s, i);
	for (; w < width; w++)
		add_bytes(f, ink, " ", 1);
}

void
watch_bar(struct watch_frame *f, int ink, int n, int max, int width)
{
	int fill;

	if (max <= 0) {
		for (int k = 0; k < width; k++)
			add_bytes(f, WATCH_PLAIN, " ", 1);
		return;
	}
	if (n < 0)
		n = 0;
	if (n > max)
		n = max;
	fill = (int)(((int64_t)n * width + max / 2) / max);
	if (fill == 0 && n > 0)
		fill = 1;
	for (int k = 0; k < width; k++)
		add_bytes(f, k < fill ? ink : WATCH_DIM, k < fill ? "#" : ".",
		    1);
}

void
watch_fill(struct watch_frame *f, int ink)
{
	struct watch_line *l = current(f);

	for (int w = text_width(f, l->text, l->len); w < f->cols; w++)
		add_bytes(f, ink, " ", 1);
}

void
watch_events(struct watch_frame *f, const struct journal *j,
    char round_mark, int width)
{
	size_t k, first;

	watch_put(f, WATCH_HEAD, "LAST EVENTS\n");
	k = (size_t)watch_rows_left(f);
	if (k < WATCH_EVENTS_MIN)
		k = WATCH_EVENTS_MIN;
	first = j->n > k ? j->n - k : 0;
	for (size_t i = first; i < j->n; i++) {
		char *line = journal_event_fit(j, i, round_mark, width,
		    f->cols, watch_ellipsis(f));

		watch_put(f, i + 1 == j->n ? WATCH_BOLD : WATCH_PLAIN, "%s\n",
		    line);
		free(line);
	}
}

int
watch_none(const char *what, const char *typed, const char *start,
    char *why, size_t whysz)
{
	if (typed != NULL) {
		util_say(why, whysz, "no %s %s", what, typed);
		return WATCH_REFUSED;
	}
	util_say(why, whysz, "no %s yet (%s)", what, start);
	return WATCH_NOTHING;
}

int
watch_log_draw(void *arg, struct db *db, struct watch_frame *f, char *why,
    size_t whysz)
{
	const struct watch_log *w = arg;
	const struct watch_board *b = w->board;
	int64_t id, bad = 0;
	char whyr[600];
	int rc;

	id = w->typed ? db_key_parse(db, w->typed) : journal_pick(db, b->kind,
	    w->gm, 1, whyr, sizeof whyr);
	rc = id != 0 ? b->draw(db, id, f, &bad, whyr, sizeof whyr) :
	    WATCH_NO_LOG;
	if (rc == WATCH_NO_LOG)
		return watch_none(b->kind->what, w->typed, b->start, why,
		    whysz);
	if (rc == WATCH_NOTHING && b->replay != NULL)
		util_say(why, whysz, "%s %s: event %" PRId64 " no longer "
		    "replays (%s); see '%s'", b->kind->what,
		    db_key_str(db, id), bad, whyr, b->replay);
	else if (rc == WATCH_NOTHING)
		util_say(why, whysz, "%s %s: event %" PRId64 " does not "
		    "replay: %s", b->kind->what, db_key_str(db, id), bad,
		    whyr);
	return rc;
}

int
watch_cols(const struct watch_frame *f)
{
	return f->cols;
}

int
watch_rows_left(const struct watch_frame *f)
{
	int used = (int)f->n;

	/* The current line is free while nothing is on it. */
	if (used > 0 && f->line[used - 1].len == 0)
		used--;

	return used >= f->rows ? 0 : f->rows - used;
}

const char *
watch_ellipsis(const struct watch_frame *f)
{
	return f->wide ? "\xe2\x80\xa6" : "~";
}

int
watch_colour(const struct watch_frame *f)
{
	return f->colour;
}

int
watch_squares(const struct watch_frame *f)
{
	return f->squares;
}

/* How many of f's lines show: its height's, the empty ones at the end not. */
static size_t
shown(const struct watch_frame *f)
{
	size_t n = f->n < (size_t)f->rows ? f->n : (size_t)f->rows;

	while (n > 0 && f->line[n - 1].len == 0)
		n--;
	return n;
}

/* The bytes of line l that fit in f's width. */
static size_t
fitting(const struct watch_frame *f, const struct watch_line *l)
{
	size_t i = 0;
	int w = 0, n, cw;

	while (i < l->len && (cw = char_width(f, l->text + i, l->len - i,
	    &n)) + w <= f->cols) {
		w += cw;
		i += (size_t)n;
	}
	return i;
}

void
watch_frame_print(const struct watch_frame *f, FILE *fp)
{
	for (size_t y = 0, n = shown(f); y < n; y++) {
		const struct watch_line *l = &f->line[y];
		size_t len = fitting(f, l);

		while (len > 0 && l->text[len - 1] == ' ')
			len--;
		/* An empty line may have no text at all. */
		if (len > 0)
			fwrite(l->text, 1, len, fp);
		putc('\n', fp);
	}
}

void
watch_frame_styled(struct watch_frame *f)
{
	f->colour = 1;
	f->squares = 1;
	f->wide = 1;
}

size_t
watch_frame_lines(const struct watch_frame *f)
{
	return shown(f);
}

const char *
watch_frame_line(const struct watch_frame *f, size_t y,
    const unsigned char **ink, size_t *len)
{
	const struct watch_line *l = &f->line[y];
	size_t n = fitting(f, l);

	while (n > 0 && l->text[n - 1] == ' ')
		n--;
	*ink = l->ink;
	*len = n;
	return n > 0 ? l->text : "";
}

/* ---- the terminal ---- */

/* The terminal while curses has it. */
static struct {
	int	 on;
	SCREEN	*screen;
	int	 saved_err;	/* standard error's own descriptor */
	FILE	*errs;		/* where standard error goes meanwhile */
	attr_t	 ink[WATCH_INKS];
} term;

static volatile sig_atomic_t leave;

static void
on_signal(int sig)
{
	(void)sig;
	leave = 1;
}

/*
 * Gives the terminal back as it was, then standard error and what was
 * written to it meanwhile.  Registered with atexit, so that an exit
 * from anywhere restores the terminal.
 */
static void
restore(void)
{
	char buf[4096];
	size_t n;

	if (!term.on)
		return;
	term.on = 0;
	endwin();
	delscreen(term.screen);
	fflush(stdout);
	fflush(stderr);
	if (term.saved_err >= 0) {
		dup2(term.saved_err, STDERR_FILENO);
		close(term.saved_err);
		term.saved_err = -1;
	}
	if (term.errs != NULL) {
		rewind(term.errs);
		while ((n = fread(buf, 1, sizeof buf, term.errs)) > 0)
			fwrite(buf, 1, n, stderr);
		fclose(term.errs);
		term.errs = NULL;
	}
}

/*
 * Each ink's attributes, colour started.  The colour pairs are 1 to 4
 * for text and 10 to 17 for the squares: with 256 colours the same as
 * bg-board show paints, black on them.
 */
static void
inks(int colour, int squares)
{
	static const short sq256[8] = { 196, 208, 226, 40, 33, 129, 255, 250 };

	memset(term.ink, 0, sizeof term.ink);
	term.ink[WATCH_BOLD] = A_BOLD;
	term.ink[WATCH_DIM] = A_DIM;
	term.ink[WATCH_TITLE] = A_REVERSE | A_BOLD;
	term.ink[WATCH_HEAD] = A_BOLD;
	term.ink[WATCH_NEXT] = A_REVERSE | A_BOLD;
	term.ink[WATCH_WARN] = A_BOLD;
	term.ink[WATCH_BAD] = A_BOLD;
	if (!colour)
		return;
	use_default_colors();
	init_pair(1, COLOR_GREEN, -1);
	init_pair(2, COLOR_YELLOW, -1);
	init_pair(3, COLOR_RED, -1);
	init_pair(4, COLOR_CYAN, -1);
	term.ink[WATCH_GOOD] = COLOR_PAIR(1) | A_BOLD;
	term.ink[WATCH_WARN] = COLOR_PAIR(2) | A_BOLD;
	term.ink[WATCH_BAD] = COLOR_PAIR(3) | A_BOLD;
	term.ink[WATCH_INFO] = COLOR_PAIR(4) | A_BOLD;
	for (int k = 0; squares && k < 8; k++) {
		init_pair((short)(10 + k), COLOR_BLACK, sq256[k]);
		term.ink[WATCH_ON_RED + k] = COLOR_PAIR(10 + k) | A_BOLD;
	}
}

/* Takes the terminal; 0, or -1 if curses does not know it. */
static int
start(struct watch_frame *f)
{
	static int registered;
	struct sigaction sa;
	const char *t = getenv("TERM");
	char *cup;
	int fd;

	/* Before curses, which leaves a signal alone if it has a handler. */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	setlocale(LC_CTYPE, "");
	f->wide = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	if (t == NULL || *t == '\0') {
		warnx("cannot draw on this terminal: TERM is not set");
		return -1;
	}
	if ((term.screen = newterm(NULL, stdout, stdin)) == NULL) {
		warnx("cannot draw on this terminal (TERM is '%s')", util_q(t));
		return -1;
	}
	/* A terminal that cannot move its cursor (dumb) cannot hold a board. */
	cup = tigetstr("cup");
	if (cup == NULL || cup == (char *)-1) {
		endwin();
		delscreen(term.screen);
		warnx("cannot draw on this terminal (TERM is '%s'): it cannot "
		    "move its cursor", util_q(t));
		return -1;
	}
	if (!registered) {
		atexit(restore);
		registered = 1;
	}
	term.on = 1;
	term.saved_err = -1;
	if ((term.errs = tmpfile()) != NULL) {
		fflush(stderr);
		if ((fd = dup(STDERR_FILENO)) >= 0 &&
		    dup2(fileno(term.errs), STDERR_FILENO) >= 0)
			term.saved_err = fd;
		else if (fd >= 0)
			close(fd);
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	timeout(0);	/* live() waits in poll(2), then takes every key */
	f->colour = has_colors() && getenv("NO_COLOR") == NULL;
	/* COLORS is known once start_color has read the terminal's. */
	if (f->colour)
		start_color();
	f->squares = f->colour && COLORS >= 256;
	inks(f->colour, f->squares);
	return 0;
}

/* Line l of f at row y, cut at the screen's width. */
static void
paint_line(const struct watch_frame *f, const struct watch_line *l, int y)
{
	size_t end = fitting(f, l), i = 0;

	move(y, 0);
	while (i < end) {
		size_t j = i;

		while (j < end && l->ink[j] == l->ink[i])
			j++;
		attrset(term.ink[l->ink[i]]);
		addnstr(l->text + i, (int)(j - i));
		i = j;
	}
	attrset(A_NORMAL);
}

/* Draws a frame from the database and puts it on the screen. */
static void
paint(struct db *db, watch_draw_fn *draw, void *arg, struct watch_frame *f)
{
	char why[600];
	int rc;

	frame_reset(f, COLS, LINES);
	db_begin_read(db);
	rc = draw(arg, db, f, why, sizeof why);
	db_rollback(db);
	if (rc != 0) {
		frame_reset(f, COLS, LINES);
		watch_text(f, WATCH_TITLE, why);
		watch_fill(f, WATCH_TITLE);
		watch_text(f, WATCH_PLAIN, "\n\nwatching for it; q quits\n");
	}
	erase();
	for (size_t y = 0, n = shown(f); y < n; y++)
		paint_line(f, &f->line[y], (int)y);
	/* The way out, on the last line when the frame leaves it free. */
	if (shown(f) < (size_t)LINES && COLS > 10) {
		attrset(A_DIM);
		mvaddstr(LINES - 1, COLS - 8, "q quits");
		attrset(A_NORMAL);
	}
	refresh();
}

/* Milliseconds on a clock that never goes back. */
static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Waits up to ms, a second at most, for a key or, with fd (not -1), for
 * the database's notice.  A signal (a new size, a request to leave) ends
 * it early; one that comes just before it is seen within the second.
 */
static void
wait_for(int fd, int64_t ms)
{
	struct pollfd p[2] = { { STDIN_FILENO, POLLIN, 0 }, { fd, POLLIN, 0 } };

	(void)poll(p, fd >= 0 ? 2 : 1, ms < 0 ? 0 : ms > 1000 ? 1000 :
	    (int)ms);
}

/* Takes every key typed: 1 to leave; *dirty set to draw it all again. */
static int
keys(int *dirty)
{
	int ch;

	while ((ch = getch()) != ERR) {
		if (ch == 'q' || ch == 'Q')
			return 1;
		if (ch == KEY_RESIZE)
			*dirty = 1;
		else if (ch == 'L' - '@') {	/* Ctrl-L: all of it again */
			clearok(curscr, TRUE);
			*dirty = 1;
		}
	}
	return 0;
}

/*
 * The full-screen board, until a key or a signal says to leave.  It is
 * drawn again when another process commits: on a server as soon as the
 * server's notice comes (db_watch_fd), on SQLite when data_version,
 * polled four times a second, moves; and at least every ten seconds.
 */
static int
live(struct db *db, watch_draw_fn *draw, void *arg, struct watch_frame *f)
{
	int64_t seen, polled, drawn;
	int dirty = 1, fd;

	if (start(f) != 0)
		return 1;
	fd = db_watch_fd(db);
	seen = fd < 0 ? db_data_version(db) : 0;
	polled = drawn = now_ms();
	while (!leave) {
		if (dirty) {
			paint(db, draw, arg, f);
			drawn = now_ms();
			dirty = 0;
		}
		wait_for(fd, fd >= 0 ? REDRAW_MS - (now_ms() - drawn) :
		    POLL_MS - (now_ms() - polled));
		if (keys(&dirty))
			break;
		if (fd >= 0)
			dirty |= db_changed(db);
		else if (now_ms() - polled >= POLL_MS) {
			int64_t v = db_data_version(db);

			polled = now_ms();
			dirty |= v != seen;
			seen = v;
		}
		if (now_ms() - drawn >= REDRAW_MS)
			dirty = 1;
	}
	restore();
	return 0;
}

int
watch_run(struct db *db, watch_draw_fn *draw, void *arg)
{
	struct watch_frame *f = watch_frame_new(PLAIN_COLS, PLAIN_ROWS);
	int tty = isatty(STDOUT_FILENO) && isatty(STDIN_FILENO), rc;
	char why[600];

	/* The frame without a terminal, and a refusal before the screen. */
	db_begin_read(db);
	rc = draw(arg, db, f, why, sizeof why);
	if (rc == WATCH_REFUSED || (rc != 0 && !tty)) {
		watch_frame_free(f);
		db_die(db, "%s", why);
	}
	db_rollback(db);
	if (tty)
		rc = live(db, draw, arg, f);
	else
		watch_frame_print(f, stdout);
	watch_frame_free(f);
	return rc;
}
