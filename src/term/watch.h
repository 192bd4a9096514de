/*
 * watch.h - the live board: a full-screen view of one log (a combat, a
 * duel, a game) drawn again whenever the database changes, for the
 * watch command of crs-combat, fb-duel and bg-board.  A tool hands over
 * a function that draws one frame from the database; this module owns
 * the rest: the terminal (curses), colours, keys, resizing, and noticing
 * that another process has written.
 *
 * A frame is lines of text, each byte with an ink (enum watch_ink) that
 * says what the text is rather than how it looks; the screen cuts each
 * line at its width and the frame at its height, never wrapping.
 */
#ifndef REFKIT_WATCH_H
#define REFKIT_WATCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct db;
struct watch_frame;

/*
 * What a piece of text is.  Without colours (no colours on the terminal,
 * NO_COLOR set, or a plain snapshot) the colour inks look like plain
 * text or bold; the WATCH_ON_ inks (a square of a board: black on the
 * colour) are used only when watch_squares says so.
 */
enum watch_ink {
	WATCH_PLAIN,
	WATCH_BOLD,
	WATCH_DIM,	/* out of the fight, acted, an aside */
	WATCH_TITLE,	/* the top line: reversed */
	WATCH_HEAD,	/* a table's heading */
	WATCH_NEXT,	/* who acts next: reversed */
	WATCH_GOOD,	/* green */
	WATCH_WARN,	/* yellow */
	WATCH_BAD,	/* red */
	WATCH_INFO,	/* cyan: EM, a stance */
	WATCH_ON_RED, WATCH_ON_ORANGE, WATCH_ON_YELLOW, WATCH_ON_GREEN,
	WATCH_ON_BLUE, WATCH_ON_PURPLE, WATCH_ON_WHITE, WATCH_ON_GREY,
	WATCH_INKS
};

/*
 * Adds formatted text to f in ink: to the line being written, a '\n'
 * starting the next.  A control character or a byte that is not part of
 * valid UTF-8 shows as '?'.
 */
void watch_put(struct watch_frame *f, int ink, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Adds text in ink, each of its lines as a line of f. */
void watch_text(struct watch_frame *f, int ink, const char *text);
/*
 * Adds s in ink as a cell width columns wide: cut at a character's
 * boundary if it is wider, padded with spaces if it is narrower.
 */
void watch_cell(struct watch_frame *f, int ink, const char *s, int width);
/*
 * A bar width columns wide, n of max filled ('#', in ink) and the rest
 * '.' (dim); at least one '#' for any n above 0.  Nothing but spaces for
 * a max of 0 or less.
 */
void watch_bar(struct watch_frame *f, int ink, int n, int max, int width);
/* Fills the rest of the current line, to the frame's width, in ink. */
void watch_fill(struct watch_frame *f, int ink);

/*
 * The heading "LAST EVENTS", then the newest events of input log j (a
 * duel's, a game's) as its log prints them, fitted to the frame's width
 * (journal_event_fit), as many as the lines left hold but at least
 * WATCH_EVENTS_MIN, the newest last and bold.
 */
struct journal;
#define WATCH_EVENTS_MIN	3
void watch_events(struct watch_frame *f, const struct journal *j,
    char round_mark, int width);

/*
 * The frame's width in columns, and the lines still free: those below
 * the current line, and the current line too while nothing is on it.
 */
int watch_cols(const struct watch_frame *f);
int watch_rows_left(const struct watch_frame *f);
/*
 * What marks a cut in a line fitted to the frame's width (base/fit.h):
 * an ellipsis on a UTF-8 terminal, else "~".
 */
const char *watch_ellipsis(const struct watch_frame *f);
/* Whether the frame shows colours, and the eight WATCH_ON_ inks. */
int watch_colour(const struct watch_frame *f);
int watch_squares(const struct watch_frame *f);

/*
 * Draws one frame of what arg names from db, in a read transaction
 * watch_run holds.  Returns 0; or WATCH_NOTHING with why set when there
 * is nothing to show yet (no combat yet, one that no longer replays),
 * which a live board says and watches for; or WATCH_REFUSED with why
 * when there is nothing to watch (a key that names no combat), which
 * refuses the command.
 */
#define WATCH_NOTHING	(-1)
#define WATCH_REFUSED	(-2)

/*
 * What a watch_draw_fn returns when there is no log of kind what ("combat")
 * to draw: WATCH_REFUSED, "no combat 7", when typed (a key as typed)
 * names none; WATCH_NOTHING, "no combat yet (START)", when nothing was
 * named and there is none yet, start saying how to begin one.
 */
int watch_none(const char *what, const char *typed, const char *start,
    char *why, size_t whysz);
typedef int watch_draw_fn(void *arg, struct db *db, struct watch_frame *f,
    char *why, size_t whysz);

/*
 * Runs the board of draw(arg) on db until the user leaves; returns the
 * exit status, 0.  With a terminal on standard output and input it is
 * full-screen: drawn again when another connection commits a write
 * (db_data_version, polled four times a second) and at least every ten
 * seconds, and at once for a new size; q, Q, Ctrl-C (or SIGTERM, SIGHUP)
 * leave, the terminal restored, and a message of an exit meanwhile is
 * shown after it.  Colours are used when the terminal has them and
 * NO_COLOR is not set.  What draw cannot show yet is said on the
 * screen, and watched for.
 *
 * Without a terminal it prints one frame as plain text, as a terminal of
 * 80 columns and 24 lines would show it without colours, and returns 0;
 * or, when draw has nothing to show, exits 1 with its why.  Either way a
 * draw that refuses exits 1 with its why before anything is shown.
 */
int watch_run(struct db *db, watch_draw_fn *draw, void *arg);

/*
 * A kind of log on the live board, which a game's watch module fills
 * (crs/watch.h, fb/watch.h, bg/watch.h): watch_log_draw picks the log
 * and words what cannot be shown; draw draws the log it picked.
 */
struct journal_kind;
#define WATCH_NO_LOG	(-3)
struct watch_board {
	const struct journal_kind *kind;	/* the log: what ("duel") */
	const char	*start;		/* how one begins: "fb-duel start A B" */
	/*
	 * The command that tells more of a log that no longer replays
	 * ("crs-combat replay"), or NULL.
	 */
	const char	*replay;
	/*
	 * Draws log id into f and returns 0; or WATCH_NO_LOG, nothing
	 * drawn, when there is no log id; or WATCH_NOTHING, nothing drawn,
	 * with *bad the seq of the event that does not replay and why.
	 */
	int	(*draw)(struct db *db, int64_t id, struct watch_frame *f,
		    int64_t *bad, char *why, size_t whysz);
};

/*
 * Which log a board shows (the arg of watch_log_draw): the one whose key
 * was typed, else the GM's (core/journal.h, journal_pick), of a kind.
 */
struct watch_log {
	const char	*typed;		/* its key as typed, or NULL */
	const char	*gm;		/* else the GM whose log it is */
	const struct watch_board *board;
};

/*
 * A watch_draw_fn, arg a struct watch_log: draws the log picked, the one
 * typed or else the one its GM started or acted in last that is under way,
 * else the one he acted in last (which follows his new log as it
 * starts).  WATCH_REFUSED with why when the key names no log of the
 * kind; WATCH_NOTHING when there is none yet, or it no longer replays.
 */
int watch_log_draw(void *arg, struct db *db, struct watch_frame *f,
    char *why, size_t whysz);

/*
 * A frame of cols by rows (colour and squares off) and its plain text,
 * a line each with trailing blanks dropped: what watch_run prints
 * without a terminal, and what the unit tests read.
 */
struct watch_frame *watch_frame_new(int cols, int rows);
void watch_frame_print(const struct watch_frame *f, FILE *fp);
void watch_frame_free(struct watch_frame *f);
/*
 * For a page that shows the frame elsewhere (web/page.h): colours and
 * the squares on, widths as a UTF-8 terminal's; then the lines shown,
 * and line y's bytes that fit the width, trailing blanks dropped, each
 * with its ink (*ink, as many).
 */
void watch_frame_styled(struct watch_frame *f);
size_t watch_frame_lines(const struct watch_frame *f);
const char *watch_frame_line(const struct watch_frame *f, size_t y,
    const unsigned char **ink, size_t *len);

#endif
