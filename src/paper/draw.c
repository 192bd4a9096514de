/*
 * draw.c - sheets into a PDF file through cairo, pango and libqrencode,
 * each loaded with dlopen(3) when the first sheet is drawn; see draw.h.
 * The one module that knows these libraries: what a sheet says and where
 * is decided by the pure builders over paper/page.h.
 */
#include "paper/draw.h"

#include "base/util.h"

#include <cairo.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>
#include <qrencode.h>

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The functions refkit calls, in the order of their names below. */
static struct {
	__typeof__(cairo_pdf_surface_create_for_stream) *pdf_create;
	__typeof__(cairo_create)			*create;
	__typeof__(cairo_destroy)			*destroy;
	__typeof__(cairo_surface_finish)		*surface_finish;
	__typeof__(cairo_surface_destroy)		*surface_destroy;
	__typeof__(cairo_surface_status)		*surface_status;
	__typeof__(cairo_status_to_string)		*status_to_string;
	__typeof__(cairo_show_page)			*show_page;
	__typeof__(cairo_set_source_rgb)		*set_source_rgb;
	__typeof__(cairo_set_line_width)		*set_line_width;
	__typeof__(cairo_set_dash)			*set_dash;
	__typeof__(cairo_rectangle)			*rectangle;
	__typeof__(cairo_stroke)			*stroke;
	__typeof__(cairo_fill)				*fill;
	__typeof__(cairo_move_to)			*move_to;
	__typeof__(cairo_line_to)			*line_to;
	__typeof__(pango_cairo_create_layout)		*create_layout;
	__typeof__(pango_cairo_show_layout)		*show_layout;
	__typeof__(pango_cairo_font_map_set_default)	*font_map_set_default;
	__typeof__(pango_layout_set_text)		*layout_set_text;
	__typeof__(pango_layout_set_width)		*layout_set_width;
	__typeof__(pango_layout_set_ellipsize)		*layout_set_ellipsize;
	__typeof__(pango_layout_set_single_paragraph_mode) *layout_single;
	__typeof__(pango_layout_set_auto_dir)		*layout_auto_dir;
	__typeof__(pango_layout_set_alignment)		*layout_set_alignment;
	__typeof__(pango_layout_set_wrap)		*layout_set_wrap;
	__typeof__(pango_layout_set_height)		*layout_set_height;
	__typeof__(pango_layout_set_font_description)	*layout_set_font;
	__typeof__(pango_font_description_from_string)	*font_from_string;
	__typeof__(pango_font_description_set_absolute_size) *font_set_size;
	__typeof__(pango_font_description_free)		*font_free;
	__typeof__(g_object_unref)			*object_unref;
	__typeof__(g_utf8_make_valid)			*utf8_make_valid;
	__typeof__(g_free)				*g_free;
	__typeof__(QRcode_encodeString)			*qr_encode;
	__typeof__(QRcode_free)				*qr_free;
} lib;

static const char *const lib_names[] = {
	"cairo_pdf_surface_create_for_stream", "cairo_create",
	"cairo_destroy", "cairo_surface_finish", "cairo_surface_destroy",
	"cairo_surface_status", "cairo_status_to_string", "cairo_show_page",
	"cairo_set_source_rgb", "cairo_set_line_width", "cairo_set_dash",
	"cairo_rectangle", "cairo_stroke", "cairo_fill", "cairo_move_to",
	"cairo_line_to",
	"pango_cairo_create_layout", "pango_cairo_show_layout",
	"pango_cairo_font_map_set_default", "pango_layout_set_text",
	"pango_layout_set_width", "pango_layout_set_ellipsize",
	"pango_layout_set_single_paragraph_mode", "pango_layout_set_auto_dir",
	"pango_layout_set_alignment", "pango_layout_set_wrap",
	"pango_layout_set_height",
	"pango_layout_set_font_description",
	"pango_font_description_from_string",
	"pango_font_description_set_absolute_size",
	"pango_font_description_free", "g_object_unref", "g_utf8_make_valid",
	"g_free", "QRcode_encodeString", "QRcode_free"
};

/*
 * pango's cairo library brings cairo, pango, glib, fontconfig and the
 * rest as its dependencies, where dlsym finds them; libqrencode stands
 * alone.  $REFKIT_TEST_PANGOCAIRO names another file instead of the
 * first, for the test of a machine without them.
 */
static const char *const lib_files[] = {
	"libpangocairo-1.0.so.0", "libqrencode.so.4"
};
static void *lib_handles[2];

/* The font of each enum page_style, DejaVu's (fonts-dejavu-core). */
static const char *const style_fonts[] = {
	"DejaVu Sans", "DejaVu Sans Bold", "DejaVu Sans Mono",
	"DejaVu Sans Mono Bold"
};

struct draw {
	FILE			*fp;
	char			*path;		/* owned */
	int			 paper, per, slot, pages, failed;
	cairo_surface_t		*surface;
	cairo_t			*cr;
	PangoLayout		*layout;
	PangoFontDescription	*fonts[PAGE_STYLES];
};

static void *
lib_sym(size_t i)
{
	void *f = NULL;

	for (size_t k = 0; k < 2 && f == NULL; k++)
		f = dlsym(lib_handles[k], lib_names[i]);
	return f;
}

static int
lib_load(char *why, size_t whysz)
{
	void **slot = (void **)(void *)&lib;
	const char *test = getenv("REFKIT_TEST_PANGOCAIRO");

	_Static_assert(sizeof lib == sizeof lib_names / sizeof *lib_names *
	    sizeof(void *), "one name per function");
	if (lib.pdf_create != NULL)
		return 0;
	for (size_t k = 0; k < 2; k++) {
		const char *file = k == 0 && test ? test : lib_files[k];

		if ((lib_handles[k] = dlopen(file, RTLD_NOW | RTLD_LOCAL)) ==
		    NULL) {
			snprintf(why, whysz, "printing sheets needs cairo, "
			    "pango and libqrencode (Debian's libpangocairo-"
			    "1.0-0 and libqrencode4): %s", dlerror());
			return -1;
		}
	}
	for (size_t i = 0; i < sizeof lib_names / sizeof *lib_names; i++) {
		void *f = lib_sym(i);

		if (f == NULL) {
			snprintf(why, whysz, "the library lacks %s",
			    lib_names[i]);
			return -1;
		}
		memcpy(&slot[i], &f, sizeof f);
	}
	return 0;
}

static cairo_status_t
write_out(void *arg, const unsigned char *data, unsigned int len)
{
	struct draw *d = arg;

	if (fwrite(data, 1, len, d->fp) != len) {
		d->failed = errno ? errno : EIO;
		return CAIRO_STATUS_WRITE_ERROR;
	}
	return CAIRO_STATUS_SUCCESS;
}

struct draw *
draw_open(const char *path, int paper, int per, char *why, size_t whysz)
{
	struct draw *d;
	double w, h;

	if (lib_load(why, whysz) != 0)
		return NULL;
	d = xcalloc(1, sizeof *d);
	if ((d->fp = fopen(path, "wb")) == NULL) {
		snprintf(why, whysz, "'%s': %s", util_q(path),
		    strerror(errno));
		free(d);
		return NULL;
	}
	d->path = xstrdup(path);
	d->paper = paper;
	d->per = per;
	page_paper_size(paper, &w, &h);
	d->surface = lib.pdf_create(write_out, d, w, h);
	d->cr = lib.create(d->surface);
	d->layout = lib.create_layout(d->cr);
	lib.layout_single(d->layout, TRUE);
	/* Every line starts at the left, a right-to-left name too. */
	lib.layout_auto_dir(d->layout, FALSE);
	lib.layout_set_ellipsize(d->layout, PANGO_ELLIPSIZE_END);
	for (int s = 0; s < PAGE_STYLES; s++)
		d->fonts[s] = lib.font_from_string(style_fonts[s]);
	return d;
}

/*
 * A line, cut with an ellipsis at its width, or a paragraph, wrapped
 * between words and cut with one at its height.
 */
static void
draw_text(struct draw *d, const struct page_item *it, double x, double y)
{
	char *valid = lib.utf8_make_valid(it->text, -1);
	int para = it->kind == PAGE_PARA;
	double size = para ? it->size : it->h;

	lib.layout_single(d->layout, !para);
	lib.layout_set_wrap(d->layout, PANGO_WRAP_WORD_CHAR);
	lib.layout_set_height(d->layout, para ? (int)(it->h * PANGO_SCALE) :
	    -1);
	lib.layout_set_alignment(d->layout, it->centred ? PANGO_ALIGN_CENTER :
	    PANGO_ALIGN_LEFT);
	lib.font_set_size(d->fonts[it->style], size * PANGO_SCALE);
	lib.layout_set_font(d->layout, d->fonts[it->style]);
	lib.layout_set_width(d->layout, (int)(it->w * PANGO_SCALE));
	lib.layout_set_text(d->layout, valid, -1);
	lib.g_free(valid);
	lib.move_to(d->cr, x, y);
	lib.show_layout(d->cr, d->layout);
}

static void
draw_qr(struct draw *d, const struct page_item *it, double x, double y)
{
	QRcode *qr = lib.qr_encode(it->text, 0, QR_ECLEVEL_M, QR_MODE_8, 1);
	double m;

	if (qr == NULL)
		return;
	/* Four modules of quiet zone on each side, as the standard asks. */
	m = it->w / (qr->width + 8);
	for (int r = 0; r < qr->width; r++)
		for (int c = 0; c < qr->width; c++)
			if (qr->data[r * qr->width + c] & 1)
				lib.rectangle(d->cr, x + (c + 4) * m,
				    y + (r + 4) * m, m, m);
	lib.fill(d->cr);
	lib.qr_free(qr);
}

static void
draw_item(struct draw *d, const struct page_item *it, double x, double y)
{
	static const double dash[] = { 4, 3 };

	switch (it->kind) {
	case PAGE_TEXT:
	case PAGE_PARA:
		draw_text(d, it, x, y);
		break;
	case PAGE_BOX:
		lib.rectangle(d->cr, x, y, it->w, it->h);
		lib.stroke(d->cr);
		break;
	case PAGE_RULE:
		lib.set_dash(d->cr, dash, 2, 0);
		lib.move_to(d->cr, x, y);
		lib.line_to(d->cr, x + it->w, y);
		lib.stroke(d->cr);
		lib.set_dash(d->cr, NULL, 0, 0);
		break;
	case PAGE_QR:
		draw_qr(d, it, x, y);
		break;
	}
}

void
draw_sheet(struct draw *d, const struct page *pg)
{
	double x, y, w, h;

	if (d->slot == d->per) {
		lib.show_page(d->cr);
		d->slot = 0;
	}
	page_slot(d->paper, d->per, d->slot++, &x, &y, &w, &h);
	lib.set_source_rgb(d->cr, 0, 0, 0);
	lib.set_line_width(d->cr, 0.6);
	for (size_t i = 0; i < pg->n; i++)
		draw_item(d, &pg->items[i], x + pg->items[i].x,
		    y + pg->items[i].y);
	d->pages++;
}

int
draw_close(struct draw *d, char *why, size_t whysz)
{
	cairo_status_t st;
	int r = 0;

	if (d->pages > 0)
		lib.show_page(d->cr);
	for (int s = 0; s < PAGE_STYLES; s++)
		lib.font_free(d->fonts[s]);
	lib.object_unref(d->layout);
	lib.destroy(d->cr);
	lib.surface_finish(d->surface);
	st = lib.surface_status(d->surface);
	lib.surface_destroy(d->surface);
	if (fclose(d->fp) != 0 && d->failed == 0)
		d->failed = errno;
	if (d->failed != 0 || st != CAIRO_STATUS_SUCCESS) {
		snprintf(why, whysz, "'%s': %s", util_q(d->path),
		    d->failed ? strerror(d->failed) :
		    lib.status_to_string(st));
		r = -1;
	}
	free(d->path);
	free(d);
	return r;
}

void
draw_cleanup(void)
{
	if (lib.pdf_create == NULL)
		return;
	/*
	 * Not cairo_debug_reset_static_data nor FcFini: pango loads its
	 * fonts on a thread of its own, and either may then find a font
	 * still in use and abort.  What fontconfig keeps is left to the
	 * leak checkers' suppressions (tests/lsan.supp, tests/valgrind.supp).
	 */
	lib.font_map_set_default(NULL);
}
