/*
 * sheets-floor.c - the floor of bench/sheets.sh: writes the same text as
 * the printed sheets, a page per sheet, into a PDF through cairo's own
 * text calls (no pango, no layout, no QR code, no boxes).  Reads
 * the sheets as text (crs-stats show of each), separated by form feeds.
 *   sheets-floor IN.txt OUT.pdf
 */
#include <cairo.h>
#include <cairo-pdf.h>
#include <err.h>
#include <stdio.h>
#include <string.h>

int
main(int argc, char **argv)
{
	char line[4096];
	cairo_surface_t *s;
	cairo_t *cr;
	FILE *in;
	double y = 40;

	if (argc != 3)
		errx(2, "usage: sheets-floor IN.txt OUT.pdf");
	if ((in = fopen(argv[1], "r")) == NULL)
		err(1, "%s", argv[1]);
	s = cairo_pdf_surface_create(argv[2], 595.276, 841.89);
	cr = cairo_create(s);
	cairo_select_font_face(cr, "DejaVu Sans Mono",
	    CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 8.5);
	while (fgets(line, sizeof line, in) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '\f') {
			cairo_show_page(cr);
			y = 40;
			continue;
		}
		cairo_move_to(cr, 28, y);
		cairo_show_text(cr, line);
		y += 11;
	}
	cairo_show_page(cr);
	cairo_destroy(cr);
	cairo_surface_finish(s);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
		errx(1, "%s", cairo_status_to_string(cairo_surface_status(s)));
	cairo_surface_destroy(s);
	return 0;
}
