/*
 * test_watch.c - the live board's frame (issue #23): lines and inks, what
 * is cut and what is padded, bars, unsafe text made safe, and the plain
 * text a frame prints without a terminal.  The terminal itself is
 * tested under tmux (tests/watch.sh).
 */
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "term/watch.h"
#include "base/strbuf.h"
#include "core/journal.h"
#include "db/db.h"

/* f's plain text, in a static buffer. */
static const char *
text(const struct watch_frame *f)
{
	static char buf[4096];
	FILE *fp = fmemopen(buf, sizeof buf, "w");

	watch_frame_print(f, fp);
	fclose(fp);
	return buf;
}

static void
test_lines(void)
{
	struct watch_frame *f = watch_frame_new(20, 5);

	is_str(text(f), "", "an empty frame prints nothing");
	is_int(watch_rows_left(f), 5, "an empty frame has every line free");
	watch_put(f, WATCH_BOLD, "round %d", 2);
	watch_put(f, WATCH_PLAIN, "; next: %s\n", "Ann");
	is_int(watch_rows_left(f), 4, "one line written, the next free");
	watch_text(f, WATCH_PLAIN, "a\n\nb");
	is_str(text(f), "round 2; next: Ann\na\n\nb\n",
	    "lines as put, a blank one kept");
	is_int(watch_rows_left(f), 1, "the line being written is not free");
	watch_put(f, WATCH_PLAIN, "\nthis line is far longer than twenty\n"
	    "and this one is below the frame\n");
	is_str(text(f), "round 2; next: Ann\na\n\nb\n"
	    "this line is far lon\n", "cut at the width and the height");
	is_int(watch_rows_left(f), 0, "no line left");
	watch_frame_free(f);

	f = watch_frame_new(10, 3);
	watch_put(f, WATCH_PLAIN, "x   \n\n\n");
	is_str(text(f), "x\n", "trailing blanks and empty lines dropped");
	watch_frame_free(f);
}

static void
test_safe(void)
{
	struct watch_frame *f = watch_frame_new(40, 5);

	watch_put(f, WATCH_PLAIN, "a\tb\033[31mc\x7f" "d\n");
	watch_text(f, WATCH_PLAIN, "\xff\xfe ok \xc3\xa9t\xc3\xa9 \xe2\x82\n");
	is_str(text(f), "a b?[31mc?d\n?? ok \xc3\xa9t\xc3\xa9 ??\n",
	    "a tab is a space; control bytes and bad UTF-8 are '?'");
	watch_frame_free(f);
}

static void
test_cells(void)
{
	struct watch_frame *f = watch_frame_new(40, 5);

	watch_cell(f, WATCH_PLAIN, "Ann", 5);
	watch_put(f, WATCH_PLAIN, "|");
	watch_cell(f, WATCH_PLAIN, "Grim, the Unbowed", 8);
	watch_put(f, WATCH_PLAIN, "|");
	watch_cell(f, WATCH_PLAIN, "Zo\xc3\xab \xc3\x85ngstr\xc3\xb6m", 5);
	watch_put(f, WATCH_PLAIN, "|\n");
	is_str(text(f), "Ann  |Grim, th|Zo\xc3\xab \xc3\x85|\n",
	    "cells padded, or cut between characters");
	watch_frame_free(f);

	/* Each character is a column: the width counts characters. */
	f = watch_frame_new(4, 2);
	watch_put(f, WATCH_PLAIN, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\n");
	is_str(text(f), "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\n",
	    "a line of UTF-8 cut at four characters");
	watch_frame_free(f);
}

static void
test_bars(void)
{
	struct watch_frame *f = watch_frame_new(40, 9);

	watch_bar(f, WATCH_GOOD, 5, 10, 10);
	watch_put(f, WATCH_PLAIN, "|\n");
	watch_bar(f, WATCH_BAD, 1, 100, 10);
	watch_put(f, WATCH_PLAIN, "|\n");
	watch_bar(f, WATCH_BAD, 0, 10, 4);
	watch_put(f, WATCH_PLAIN, "|\n");
	watch_bar(f, WATCH_GOOD, 12, 10, 4);
	watch_put(f, WATCH_PLAIN, "|\n");
	watch_bar(f, WATCH_GOOD, 3, 0, 4);
	watch_put(f, WATCH_PLAIN, "|\n");
	watch_bar(f, WATCH_GOOD, 99, 100, 10);
	watch_put(f, WATCH_PLAIN, "|\n");
	is_str(text(f), "#####.....|\n#.........|\n....|\n####|\n    |\n"
	    "##########|\n", "bars: half, a sliver, none, over, no max, "
	    "rounded");
	watch_frame_free(f);
}

static void
test_fill(void)
{
	struct watch_frame *f = watch_frame_new(12, 3);

	watch_put(f, WATCH_TITLE, " title");
	watch_fill(f, WATCH_TITLE);
	watch_put(f, WATCH_PLAIN, "|\n");
	is_str(text(f), " title\n", "filled to the width, the rest cut");
	is_int(watch_cols(f), 12, "the frame's width");
	is_int(watch_colour(f), 0, "no colour in a plain frame");
	is_int(watch_squares(f), 0, "no squares in a plain frame");
	watch_frame_free(f);
}

static void
test_buf(void)
{
	struct strbuf b = STRBUF_INIT;
	FILE *fp = strbuf_stream(&b);
	char *text;
	size_t len;

	fprintf(fp, "two %s\n", "lines");
	fputs("and more", fp);
	text = strbuf_detach(&b, &len);
	is_str(text, "two lines\nand more", "a buffer holds what was printed");
	is_int(len, 18, "and its length");
	ok(b.fp == NULL, "its stream closed");
	free(text);
	text = strbuf_detach((strbuf_stream(&b), &b), NULL);
	is_str(text, "", "an empty buffer is an empty string");
	free(text);
}

/* A board whose draw answers as told, for watch_log_draw. */
static int draw_rc;
static int64_t draw_id;

static int
fake_draw(struct db *db, int64_t id, struct watch_frame *f, int64_t *bad,
    char *why, size_t whysz)
{
	(void)db;
	draw_id = id;
	if (draw_rc == WATCH_NOTHING) {
		*bad = 4;
		snprintf(why, whysz, "a rule says no");
	} else if (draw_rc == 0)
		watch_put(f, WATCH_PLAIN, "drawn\n");
	return draw_rc;
}

static void
test_log_draw(void)
{
	static const struct journal_kind kind = { .what = "duel" };
	struct watch_board board = { &kind, "fb-duel start A B", NULL,
	    fake_draw };
	struct watch_log w = { "7", "gm", &board };
	char dir[] = "/tmp/refkit-unit-watch-XXXXXX", path[64], why[200];
	struct watch_frame *f = watch_frame_new(40, 5);
	struct db *db;

	if (mkdtemp(dir) == NULL)
		return;
	snprintf(path, sizeof path, "%s/refkit.db", dir);
	db = db_open(path);

	draw_rc = 0;
	is_int(watch_log_draw(&w, db, f, why, sizeof why), 0, "drawn");
	is_int(draw_id, db_key_parse(db, "7"), "the log typed");
	is_str(text(f), "drawn\n", "by the board's draw");
	draw_rc = WATCH_NO_LOG;
	is_int(watch_log_draw(&w, db, f, why, sizeof why), WATCH_REFUSED,
	    "a typed key that names no log refuses");
	is_str(why, "no duel 7", "and says so by the kind's name");
	draw_rc = WATCH_NOTHING;
	is_int(watch_log_draw(&w, db, f, why, sizeof why), WATCH_NOTHING,
	    "a log that does not replay: nothing to show");
	is_str(why, "duel 7: event 4 does not replay: a rule says no",
	    "the short form");
	board.replay = "fb-duel replay";
	watch_log_draw(&w, db, f, why, sizeof why);
	is_str(why, "duel 7: event 4 no longer replays (a rule says no); "
	    "see 'fb-duel replay'", "the form that names where to see more");
	watch_frame_free(f);
	db_close(db);
	snprintf(why, sizeof why, "rm -rf '%s'", dir);
	(void)system(why);
}

int
main(void)
{
	test_lines();
	test_safe();
	test_cells();
	test_bars();
	test_fill();
	test_buf();
	test_log_draw();
	return tap_done();
}
