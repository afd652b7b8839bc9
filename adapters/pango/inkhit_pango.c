/*
 * inkhit_pango.c — the Pango adapter (inkhit_pango.h): a PangoRenderer that records, instead of drawing,
 * what PangoCairoRenderer draws for a layout, through the public C interface of libInkHit only.
 *
 * The geometry is Pango's by construction: pango_renderer_draw_layout() computes every run's position and
 * every decoration rectangle (underline positions, strikethrough averages, error underline boxes) and
 * calls the class methods below; the methods turn what PangoCairoRenderer would hand cairo into
 * placements, with cairo's own conversions (Pango units to user space, user to device space, cairo-ft's
 * font matrix decomposition, cairo 1.16's whole-pixel glyph origins). Built by scripts/install-c.sh with
 * the system C compiler against pango, pangocairo, pangoft2, cairo, fontconfig and harfbuzz (pkg-config).
 */
#include "inkhit_pango.h"

#include <fontconfig/fontconfig.h>
#include <hb.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-font.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUNCTION "inkhit_pango_add_layout"

/* ============================================================================================== */
/* Paths: verbs and points for inkhit_builder_add_outline                                          */
/* ============================================================================================== */

typedef struct {
    uint8_t verbs[64];
    inkhit_point points[96];
    size_t verb_count, point_count;
} Path;

static void path_move(Path *p, double x, double y) {
    if (p->verb_count >= 64 || p->point_count >= 96) return;
    p->verbs[p->verb_count++] = INKHIT_VERB_MOVE;
    p->points[p->point_count++] = (inkhit_point){x, y};
}

static void path_line(Path *p, double x, double y) {
    if (p->verb_count >= 64 || p->point_count >= 96) return;
    p->verbs[p->verb_count++] = INKHIT_VERB_LINE;
    p->points[p->point_count++] = (inkhit_point){x, y};
}

static void path_cubic(Path *p, double x1, double y1, double x2, double y2, double x, double y) {
    if (p->verb_count >= 64 || p->point_count + 3 > 96) return;
    p->verbs[p->verb_count++] = INKHIT_VERB_CUBIC;
    p->points[p->point_count++] = (inkhit_point){x1, y1};
    p->points[p->point_count++] = (inkhit_point){x2, y2};
    p->points[p->point_count++] = (inkhit_point){x, y};
}

static void path_close(Path *p) {
    if (p->verb_count >= 64) return;
    p->verbs[p->verb_count++] = INKHIT_VERB_CLOSE;
}

/* A closed polygon of `n` points, turned so that its signed area (y down) has the sign of `sign` (+1 or -1;
 * 0 keeps it as given). */
static void path_polygon(Path *p, const inkhit_point *q, size_t n, int sign) {
    if (n < 3) return;
    double area = 0;
    for (size_t i = 0; i < n; i++) area += q[i].x * q[(i + 1) % n].y - q[(i + 1) % n].x * q[i].y;
    int reverse = sign != 0 && area * sign < 0;
    for (size_t k = 0; k < n; k++) {
        const inkhit_point *v = &q[reverse ? n - 1 - k : k];
        if (k == 0) path_move(p, v->x, v->y); else path_line(p, v->x, v->y);
    }
    path_close(p);
}

static void path_rect(Path *p, double x, double y, double w, double h, int sign) {
    inkhit_point q[4] = {{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}};
    path_polygon(p, q, 4, sign);
}

/* ============================================================================================== */
/* Fonts: one inkhit_font and style per PangoFont, kept with the font                              */
/* ============================================================================================== */

/* What Pango's cairo font draws the hex boxes of unknown glyphs with (pangocairo-font.c's hex box info). */
typedef struct {
    PangoFont *mini_font;           /* the digits' font (a reference) */
    int rows;
    double digit_width, digit_height, pad_x, pad_y, line_width, box_height, box_descent;
} HexBox;

typedef struct {
    inkhit_font font;               /* at the pattern's named instance and variations */
    int32_t embolden;               /* INKHIT_EMBOLDEN_* */
    int32_t hinting;                /* INKHIT_HINTING_* */
    int hexbox_state;               /* 0: not computed; 1: `hexbox` holds it; -1: none (a plain box is drawn) */
    HexBox hexbox;
} FontEntry;

static GMutex font_lock;            /* guards the entries' creation and their hex box info */

static GQuark font_quark(void) {
    static gsize quark = 0;
    if (g_once_init_enter(&quark)) g_once_init_leave(&quark, g_quark_from_static_string("inkhit-pango-font"));
    return (GQuark)quark;
}

static void font_entry_free(gpointer data) {
    FontEntry *e = data;
    inkhit_font_release(e->font);
    if (e->hexbox_state == 1 && e->hexbox.mini_font) g_object_unref(e->hexbox.mini_font);
    g_free(e);
}

static void release_blob(void *blob) { hb_blob_destroy(blob); }

/* The hint style cairo-ft uses for `pattern` drawn with `options` (_cairo_ft_options_merge: the options'
 * own style unless DEFAULT, the pattern's then; a pattern that turns hinting off wins). */
static int32_t hinting_for(FcPattern *pattern, const cairo_font_options_t *options) {
    FcBool antialias = FcTrue, hinting = FcTrue;
    int style = FC_HINT_FULL;
    (void)FcPatternGetBool(pattern, FC_ANTIALIAS, 0, &antialias);
    cairo_hint_style_t from_pattern = CAIRO_HINT_STYLE_DEFAULT;
    if (antialias) {
        (void)FcPatternGetBool(pattern, FC_HINTING, 0, &hinting);
        (void)FcPatternGetInteger(pattern, FC_HINT_STYLE, 0, &style);
        if (!hinting) style = FC_HINT_NONE;
        switch (style) {
        case FC_HINT_NONE: from_pattern = CAIRO_HINT_STYLE_NONE; break;
        case FC_HINT_SLIGHT: from_pattern = CAIRO_HINT_STYLE_SLIGHT; break;
        case FC_HINT_FULL: from_pattern = CAIRO_HINT_STYLE_FULL; break;
        default: from_pattern = CAIRO_HINT_STYLE_MEDIUM; break;
        }
    }
    cairo_hint_style_t hint = cairo_font_options_get_hint_style(options);
    if (hint == CAIRO_HINT_STYLE_DEFAULT) hint = from_pattern;
    if (from_pattern == CAIRO_HINT_STYLE_NONE) hint = CAIRO_HINT_STYLE_NONE;
    switch (hint) {
    case CAIRO_HINT_STYLE_NONE: return INKHIT_HINTING_NONE;
    case CAIRO_HINT_STYLE_SLIGHT: return INKHIT_HINTING_LIGHT;
    default: return INKHIT_HINTING_FULL;        /* MEDIUM, FULL (and DEFAULT) load with FT_LOAD_TARGET_NORMAL */
    }
}

/* Appends the "tag=value,..." settings of `text` whose tag is one of the font's axes, as cairo-ft parses them
 * (cairo_ft_apply_variations: malformed and unknown entries are skipped, a later one wins). */
static size_t parse_variations(const char *text, const inkhit_variation *axes, size_t axis_count,
                               inkhit_variation *out, size_t n, size_t capacity) {
    const char *p = text;
    while (p && *p && n < capacity) {
        while (g_ascii_isspace(*p)) p++;
        const char *start = p, *end = strchr(p, ',');
        if (end && end - p < 6) { p = end + 1; continue; }
        if (strlen(p) < 4) break;
        uint32_t tag = INKHIT_TAG(p[0], p[1], p[2], p[3]);
        p += 4;
        while (g_ascii_isspace(*p)) p++;
        if (*p == '=') p++;
        if (p - start < 5) { p = end ? end + 1 : NULL; continue; }
        char *after = NULL;
        double value = g_ascii_strtod(p, &after);
        while (after && g_ascii_isspace(*after)) after++;
        int well_formed = after != NULL && after != p && (*after == ',' || *after == '\0') && isfinite(value);
        for (size_t i = 0; well_formed && i < axis_count; i++) {
            if (axes[i].tag == tag) { out[n++] = (inkhit_variation){tag, (float)value}; break; }
        }
        p = end ? end + 1 : NULL;
    }
    return n;
}

/* The inkhit_font cairo draws `pattern` with: its bytes lent from Pango's HarfBuzz blob, FC_INDEX (named
 * instance packed), then FC_FONT_VARIATIONS and the font options' variations. */
static inkhit_status load_font(PangoFont *font, FcPattern *pattern, const cairo_font_options_t *options, inkhit_font *out) {
    int index = 0;
    (void)FcPatternGetInteger(pattern, FC_INDEX, 0, &index);
    inkhit_font base = NULL;
    inkhit_status s;
    hb_blob_t *blob = hb_face_reference_blob(hb_font_get_face(pango_font_get_hb_font(font)));
    unsigned int length = 0;
    const char *data = hb_blob_get_data(blob, &length);
    if (length > 0) {
        s = inkhit_font_from_borrowed_bytes((const uint8_t *)data, length, index, release_blob, blob, &base);
    } else {
        hb_blob_destroy(blob);
        FcChar8 *file = NULL;
        if (FcPatternGetString(pattern, FC_FILE, 0, &file) != FcResultMatch)
            return inkhit_report_error(INKHIT_ERROR_FONT, FUNCTION ": a font has neither font data nor FC_FILE");
        s = inkhit_font_from_path((const char *)file, index, &base);
    }
    if (s != INKHIT_OK) return s;
    inkhit_variation axes[64], settings[128];
    size_t axis_count = 0, n = 0;
    s = inkhit_font_get_variations(base, axes, 64, &axis_count);
    if (s == INKHIT_OK && axis_count > 0 && axis_count <= 64) {
        FcChar8 *text = NULL;
        if (FcPatternGetString(pattern, FC_FONT_VARIATIONS, 0, &text) == FcResultMatch)
            n = parse_variations((const char *)text, axes, axis_count, settings, n, 128);
        n = parse_variations(cairo_font_options_get_variations((cairo_font_options_t *)options), axes, axis_count, settings, n, 128);
    }
    if (n == 0) { *out = base; return INKHIT_OK; }
    s = inkhit_font_with_variations(base, settings, n, out);
    inkhit_font_release(base);
    return s;
}

/* The font's entry, made on first use and kept with the PangoFont (released when Pango finalizes it). */
static inkhit_status font_entry(PangoFont *font, FontEntry **out) {
    *out = NULL;
    if (font == NULL) return inkhit_report_error(INKHIT_ERROR_INVALID_ARGUMENT, FUNCTION ": a run has no font");
    if (!PANGO_IS_FC_FONT(font) || !PANGO_IS_CAIRO_FONT(font))
        return inkhit_report_error(INKHIT_ERROR_INVALID_ARGUMENT,
                                   FUNCTION ": the layout's fonts must come from a PangoCairo fontconfig font map "
                                   "(pango_cairo_font_map_new or the default one)");
    g_mutex_lock(&font_lock);
    FontEntry *e = g_object_get_qdata(G_OBJECT(font), font_quark());
    inkhit_status s = INKHIT_OK;
    if (e == NULL) {
        cairo_scaled_font_t *scaled = pango_cairo_font_get_scaled_font(PANGO_CAIRO_FONT(font));
        FcPattern *pattern = pango_fc_font_get_pattern(PANGO_FC_FONT(font));
        cairo_font_options_t *options = cairo_font_options_create();
        if (scaled == NULL || cairo_scaled_font_status(scaled) != CAIRO_STATUS_SUCCESS || pattern == NULL) {
            s = inkhit_report_error(INKHIT_ERROR_FONT, FUNCTION ": cairo cannot draw one of the layout's fonts");
        } else {
            cairo_scaled_font_get_font_options(scaled, options);
            inkhit_font loaded = NULL;
            s = load_font(font, pattern, options, &loaded);
            if (s == INKHIT_OK) {
                FcBool embolden = FcFalse;
                (void)FcPatternGetBool(pattern, FC_EMBOLDEN, 0, &embolden);
                e = g_new0(FontEntry, 1);
                e->font = loaded;
                e->embolden = embolden ? INKHIT_EMBOLDEN_FREETYPE : INKHIT_EMBOLDEN_NONE;
                e->hinting = hinting_for(pattern, options);
                g_object_set_qdata_full(G_OBJECT(font), font_quark(), e, font_entry_free);
            }
        }
        cairo_font_options_destroy(options);
    }
    g_mutex_unlock(&font_lock);
    *out = e;
    return s;
}

/* ============================================================================================== */
/* Glyph frames: the size and matrix cairo-ft draws a font with under a CTM                         */
/* ============================================================================================== */

typedef struct {
    double size;                    /* device px per em */
    double xx, xy, yx, yy;          /* the shape, y-up (inkhit_glyph_style's matrix) */
} GlyphFrame;

/* cairo-ft's _compute_transform for scale = font matrix x CTM (linear parts, cairo_matrix_multiply's
 * arithmetic): x_scale along the x basis, y_scale = |det| / x_scale (each at least 1), and the shape
 * normalized by them, which FreeType applies after hinting at (x_scale, y_scale). With x_scale == y_scale
 * that is a glyph of size x_scale with the shape as its matrix; otherwise the size is y_scale and the
 * matrix also stretches x by x_scale / y_scale (hinting then differs from cairo's). */
static GlyphFrame glyph_frame(const cairo_matrix_t *f, const inkhit_transform *t) {
    double sxx = f->xx * t->a + f->yx * t->c, syx = f->xx * t->b + f->yx * t->d;
    double sxy = f->xy * t->a + f->yy * t->c, syy = f->xy * t->b + f->yy * t->d;
    double det = sxx * syy - syx * sxy;
    double x_scale = hypot(sxx, syx), y_scale = x_scale != 0 ? fabs(det) / x_scale : 0;
    if (x_scale < 1.0) x_scale = 1.0;
    if (y_scale < 1.0) y_scale = 1.0;
    double ix = 1.0 / x_scale, iy = 1.0 / y_scale;
    double nxx = ix * sxx, nyx = ix * syx, nxy = iy * sxy, nyy = iy * syy;
    GlyphFrame g = {x_scale, nxx, -nxy, -nyx, nyy};
    if (x_scale != y_scale) {
        double r = x_scale / y_scale;
        g.size = y_scale;
        g.xx *= r;
        g.yx *= r;
    }
    return g;
}

/* ============================================================================================== */
/* The recorder                                                                                    */
/* ============================================================================================== */

typedef struct {
    int x0, x1;                     /* logical extent on the line, Pango units (as renderer calls give x) */
    uint64_t tag;                   /* the cluster's first byte */
} Span;

typedef struct {
    PangoRenderer parent;
    inkhit_builder builder;
    inkhit_shape_cache cache;
    double x_offset, y_offset;      /* the layout's top-left, user px (cairo's current point) */
    inkhit_transform ctm;           /* user px -> device px */
    uint32_t flags;
    inkhit_status status;           /* the first failure; drawing stops adding after it */
    size_t added;
    PangoLayoutLine *line;          /* the line `spans` belong to */
    Span *spans;
    size_t span_count, span_capacity;
    PangoLayoutRun *run;            /* the run being drawn (prepare_run) */
    int shape_glyph;                /* the next glyph of a shape run */
} Recorder;

typedef struct {
    PangoRendererClass parent_class;
} RecorderClass;

static GType recorder_get_type(void);
G_DEFINE_TYPE(Recorder, recorder, PANGO_TYPE_RENDERER)

static void recorder_finalize(GObject *object) {
    g_free(((Recorder *)object)->spans);
    G_OBJECT_CLASS(recorder_parent_class)->finalize(object);
}

/* The line being drawn: a new one drops the clusters of the last. */
static void follow_line(Recorder *r) {
    PangoLayoutLine *line = pango_renderer_get_layout_line((PangoRenderer *)r);
    if (line != r->line) {
        r->line = line;
        r->span_count = 0;
    }
}

static void add_span(Recorder *r, int x0, int x1, uint64_t tag) {
    if (x1 <= x0) return;
    if (r->span_count == r->span_capacity) {
        r->span_capacity = r->span_capacity ? 2 * r->span_capacity : 64;
        r->spans = g_renew(Span, r->spans, r->span_capacity);
    }
    r->spans[r->span_count++] = (Span){x0, x1, tag};
}

static inkhit_point to_device(const Recorder *r, double x, double y) {
    /* cairo_matrix_transform_point's arithmetic: the linear part, then the translation. */
    double dx = r->ctm.a * x + r->ctm.c * y, dy = r->ctm.b * x + r->ctm.d * y;
    return (inkhit_point){dx + r->ctm.tx, dy + r->ctm.ty};
}

/* GTK 4's GL renderer (GskGLRenderJob's compute_phase_and_pos): a glyph's position in the window's logical px
 * (device px / scale) goes to the nearest quarter px, ties up; the glyph is rendered into its texture at that
 * quarter's offset by cairo, which puts it on a whole device px (_cairo_lround), and the texture lies on whole
 * device px (scale x a whole logical px). */
static double gsk_gl_quarter(double device, double scale) { return floor(4.0 * device / scale + 0.5) / 4.0; }

/* A glyph's origin in device px: cairo 1.16's image compositor draws glyphs at _cairo_lround(x); GTK 4's GL
 * renderer at lround(scale x quarter(x / scale)) (lround(x + 0.125 x scale) for scales 1 and 2). */
static inkhit_point glyph_origin(const Recorder *r, double x, double y) {
    inkhit_point p = to_device(r, x, y);
    if (r->flags & INKHIT_PANGO_GSK_GL) {
        p.x = floor(r->ctm.a * gsk_gl_quarter(p.x, r->ctm.a) + 0.5);
        p.y = floor(r->ctm.d * gsk_gl_quarter(p.y, r->ctm.d) + 0.5);
    } else if (r->flags & INKHIT_PANGO_SNAP_ORIGINS) {
        p.x = floor(p.x + 0.5);
        p.y = floor(p.y + 0.5);
    }
    return p;
}

/* A hex box's digit's origin in device px: drawn by cairo (in GTK's GL renderer too, into the glyph's texture
 * whose pixels are the window's), snapped as cairo snaps glyphs when either flag is set. */
static inkhit_point digit_origin(const Recorder *r, double x, double y) {
    inkhit_point p = to_device(r, x, y);
    if (r->flags & (INKHIT_PANGO_SNAP_ORIGINS | INKHIT_PANGO_GSK_GL)) {
        p.x = floor(p.x + 0.5);
        p.y = floor(p.y + 0.5);
    }
    return p;
}

static int failed(Recorder *r, inkhit_status s) {
    if (s != INKHIT_OK && r->status == INKHIT_OK) r->status = s;
    return r->status != INKHIT_OK;
}

/* Adds a path (user px) with `tag`. */
static void add_path(Recorder *r, const Path *p, uint64_t tag) {
    if (r->status != INKHIT_OK || p->verb_count == 0) return;
    size_t k = 0;
    if (failed(r, inkhit_builder_add_outline(r->builder, NULL, 0, p->verbs, p->verb_count, p->points, p->point_count,
                                             INKHIT_FILL_NONZERO, &r->ctm, &k)))
        return;
    r->added++;
    if (tag != 0) failed(r, inkhit_builder_set_tag(r->builder, k, tag));
}

/* Adds glyphs of `font` at device origins (glyphs[i].x, y) with their tags; markers pass through. */
static void add_glyphs(Recorder *r, PangoFont *font, inkhit_run_glyph *glyphs, size_t count) {
    if (r->status != INKHIT_OK || count == 0) return;
    FontEntry *e;
    if (failed(r, font_entry(font, &e))) return;
    cairo_matrix_t f;
    cairo_scaled_font_get_font_matrix(pango_cairo_font_get_scaled_font(PANGO_CAIRO_FONT(font)), &f);
    GlyphFrame g = glyph_frame(&f, &r->ctm);
    inkhit_glyph_style style;
    inkhit_glyph_style_init(&style);
    style.embolden = e->embolden;
    style.hinting = e->hinting;
    style.matrix_xx = g.xx; style.matrix_xy = g.xy; style.matrix_yx = g.yx; style.matrix_yy = g.yy;
    inkhit_glyph_run run;
    inkhit_glyph_run_init(&run);
    run.font = e->font;
    run.size = g.size;
    run.style = &style;
    size_t added = 0;
    inkhit_status s = inkhit_builder_add_run(r->builder, r->cache, &run, glyphs, count, &added);
    r->added += added;
    failed(r, s);
}

/* ---------------------------------------------------------------------------------------------- */
/* Unknown glyphs: the ink PangoCairoRenderer draws for them                                       */

/* Pango's hex box metrics are "hinted" to whole device px when the font's metrics are (pangocairo-font.c). */
typedef struct {
    int hinted;
    double sx, sxi, sy, syi;        /* device px per user px along x and y, and their inverses */
} DeviceGrid;

static double hint_x(const DeviceGrid *g, double v) { return g->hinted ? ceil((v - 1e-5) * g->sx) * g->sxi : v; }
static double hint_y(const DeviceGrid *g, double v) { return g->hinted ? ceil((v - 1e-5) * g->sy) * g->syi : v; }

/* The font Pango draws a hex box's digits with: the font's description in "monospace" at `mini_size`, loaded
 * from the font's own font map with its CTM, Latin sample language and font options. */
static PangoFont *mini_font_for(PangoFont *font, const PangoMatrix *ctm, const cairo_font_options_t *options, double mini_size) {
    PangoFontMap *fontmap = pango_font_get_font_map(font);
    if (!fontmap) return NULL;
    PangoFontDescription *desc = pango_font_describe_with_absolute_size(font);
    pango_font_description_unset_fields(desc, PANGO_FONT_MASK_GRAVITY);
    pango_font_description_set_family_static(desc, "monospace");
    pango_font_description_set_absolute_size(desc, pango_units_from_double(mini_size));
    PangoContext *context = pango_font_map_create_context(fontmap);
    pango_context_set_matrix(context, ctm);
    pango_context_set_language(context, pango_script_get_sample_language(PANGO_SCRIPT_LATIN));
    pango_cairo_context_set_font_options(context, options);
    PangoFont *mini = pango_font_map_load_font(fontmap, context, desc);
    g_object_unref(context);
    pango_font_description_free(desc);
    return mini;
}

/* The box's metrics from the digits' extents and the font's (pangocairo-font.c's arithmetic). */
static void measure_hexbox(HexBox *h, cairo_scaled_font_t *scaled, cairo_scaled_font_t *mini_scaled, double mini_size,
                           const DeviceGrid *g) {
    double width = 0, height = 0;
    for (const char *d = "0123456789ABCDEF"; *d; d++) {
        char c[2] = {*d, 0};
        cairo_text_extents_t x;
        cairo_scaled_font_text_extents(mini_scaled, c, &x);
        width = MAX(width, x.width);
        height = MAX(height, x.height);
    }
    cairo_font_extents_t fe;
    cairo_scaled_font_extents(scaled, &fe);
    if (fe.ascent + fe.descent <= 0) {
        fe.ascent = PANGO_UNKNOWN_GLYPH_HEIGHT;
        fe.descent = 0;
    }
    double pad = MIN((fe.ascent + fe.descent) / 43, mini_size);
    h->digit_width = hint_x(g, width);
    h->digit_height = hint_y(g, height);
    h->pad_x = hint_x(g, pad);
    h->pad_y = hint_y(g, pad);
    h->line_width = MIN(h->pad_x, h->pad_y);
    h->box_height = 3 * h->pad_y + h->rows * (h->pad_y + h->digit_height);
    if (h->rows == 1 || h->box_height <= fe.ascent)
        h->box_descent = 2 * h->pad_y;
    else if (h->box_height <= fe.ascent + fe.descent - 2 * h->pad_y)
        h->box_descent = 2 * h->pad_y + h->box_height - fe.ascent;
    else
        h->box_descent = fe.descent * h->box_height / (fe.ascent + fe.descent);
    h->box_descent = hint_y(g, h->box_descent);
}

/* pangocairo-font.c's hex box info for `font`, computed once per font as Pango computes it. NULL: Pango draws
 * a plain box (it has no mini font). */
static const HexBox *hexbox_for(PangoFont *font, FontEntry *e) {
    g_mutex_lock(&font_lock);
    if (e->hexbox_state != 0) {
        g_mutex_unlock(&font_lock);
        return e->hexbox_state == 1 ? &e->hexbox : NULL;
    }
    e->hexbox_state = -1;
    cairo_scaled_font_t *scaled = pango_cairo_font_get_scaled_font(PANGO_CAIRO_FONT(font));
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_scaled_font_get_font_options(scaled, options);
    cairo_matrix_t ctm, fm;
    cairo_scaled_font_get_ctm(scaled, &ctm);
    cairo_scaled_font_get_font_matrix(scaled, &fm);
    PangoMatrix pango_ctm = {ctm.xx, ctm.xy, ctm.yx, ctm.yy, ctm.x0, ctm.y0};
    PangoMatrix pango_fm = {fm.xx, fm.xy, fm.yx, fm.yy, fm.x0, fm.y0};
    double size = pango_matrix_get_font_scale_factor(&pango_fm) / pango_matrix_get_font_scale_factor(&pango_ctm);
    DeviceGrid g = {cairo_font_options_get_hint_metrics(options) != CAIRO_HINT_METRICS_OFF, 1, 1, 1, 1};
    if (g.hinted) {                                      /* Pango's arithmetic: sqrt, not hypot */
        g.sx = sqrt(ctm.xx * ctm.xx + ctm.yx * ctm.yx); g.sxi = 1 / g.sx;
        g.sy = sqrt(ctm.xy * ctm.xy + ctm.yy * ctm.yy); g.syi = 1 / g.sy;
    }
    int rows = 2;
    double mini_size = size / 2.2;
    if (g.hinted) {
        mini_size = hint_y(&g, mini_size);
        if (mini_size < 6.0) {
            rows = 1;
            mini_size = MIN(MAX(size - 1, 0), 6.0);
        }
    }
    PangoFont *mini = mini_font_for(font, &pango_ctm, options, mini_size);
    cairo_font_options_destroy(options);
    cairo_scaled_font_t *mini_scaled = mini && PANGO_IS_CAIRO_FONT(mini) ? pango_cairo_font_get_scaled_font(PANGO_CAIRO_FONT(mini)) : NULL;
    if (mini_scaled == NULL || cairo_scaled_font_status(mini_scaled) != CAIRO_STATUS_SUCCESS) {
        if (mini) g_object_unref(mini);
        g_mutex_unlock(&font_lock);
        return NULL;
    }
    e->hexbox.mini_font = mini;
    e->hexbox.rows = rows;
    measure_hexbox(&e->hexbox, scaled, mini_scaled, mini_size, &g);
    e->hexbox_state = 1;
    g_mutex_unlock(&font_lock);
    return &e->hexbox;
}

/* The ink of cairo_stroke() of cairo_rectangle(x, y, w, h) with line width lw, miter joins (limit 2: a
 * square corner is mitred): a ring, and for invalid input the two diagonals with butt caps. */
static void add_frame(Recorder *r, double x, double y, double w, double h, double lw, int invalid, uint64_t tag) {
    Path p = {0};
    double d = lw / 2;
    path_rect(&p, x - d, y - d, w + lw, h + lw, 1);
    if (w - lw > 0 && h - lw > 0) path_rect(&p, x + d, y + d, w - lw, h - lw, -1);
    if (invalid) {
        double ends[2][4] = {{x, y, x + w, y + h}, {x + w, y, x, y + h}};
        for (int i = 0; i < 2; i++) {
            double dx = ends[i][2] - ends[i][0], dy = ends[i][3] - ends[i][1], len = hypot(dx, dy);
            if (len <= 0) continue;
            double nx = -dy / len * d, ny = dx / len * d;
            inkhit_point q[4] = {{ends[i][0] + nx, ends[i][1] + ny}, {ends[i][2] + nx, ends[i][3] + ny},
                                 {ends[i][2] - nx, ends[i][3] - ny}, {ends[i][0] - nx, ends[i][1] - ny}};
            path_polygon(&p, q, 4, 1);
        }
    }
    add_path(r, &p, tag);
}

/* A filled disc (cairo_arc then fill), as four cubic arcs. */
static void add_disc(Recorder *r, double cx, double cy, double radius, uint64_t tag) {
    Path p = {0};
    double k = 0.5522847498307936 * radius;
    path_move(&p, cx + radius, cy);
    path_cubic(&p, cx + radius, cy + k, cx + k, cy + radius, cx, cy + radius);
    path_cubic(&p, cx - k, cy + radius, cx - radius, cy + k, cx - radius, cy);
    path_cubic(&p, cx - radius, cy - k, cx - k, cy - radius, cx, cy - radius);
    path_cubic(&p, cx + k, cy - radius, cx + radius, cy - k, cx + radius, cy);
    path_close(&p);
    add_path(r, &p, tag);
}

static void add_polygon(Recorder *r, const inkhit_point *q, size_t n, uint64_t tag) {
    Path p = {0};
    path_polygon(&p, q, n, 0);
    add_path(r, &p, tag);
}

/* The arrow Pango draws for a tab (like U+21A6), a glyph of `advance` px at (cx, cy). */
static void add_tab_arrow(Recorder *r, const HexBox *h, double advance, double cx, double cy, uint64_t tag) {
    double y = cy + h->box_descent - 0.5 * h->box_height, offset = 0.2 * advance, x = cx + offset;
    double al = advance - 2 * offset, tl = MIN(h->digit_width, 0.75 * al), tw2 = 2.5 * h->line_width, lw2 = 0.5 * h->line_width;
    inkhit_point q[11] = {{x - lw2, y - tw2}, {x + lw2, y - tw2}, {x + lw2, y - lw2}, {x + al - tl, y - lw2},
                          {x + al - tl, y - tw2}, {x + al, y}, {x + al - tl, y + tw2}, {x + al - tl, y + lw2},
                          {x + lw2, y + lw2}, {x + lw2, y + tw2}, {x - lw2, y + tw2}};
    add_polygon(r, q, 11, tag);
}

/* The arrow Pango draws for a line break (like U+21B5). */
static void add_return_arrow(Recorder *r, const HexBox *h, double advance, double cx, double cy, uint64_t tag) {
    double offset = 0.2 * advance, al = advance - 2 * offset, tl = MIN(h->digit_width, 0.75 * al);
    double ah = al - 0.5 * tl, tw2 = 2.5 * h->line_width, x = cx + offset, y = cy - (h->box_height - al) / 2;
    double lw2 = 0.5 * h->line_width;
    inkhit_point q[9] = {{x, y}, {x + tl, y - tw2}, {x + tl, y - lw2}, {x + al - lw2, y - lw2}, {x + al - lw2, y - ah},
                         {x + al + lw2, y - ah}, {x + al + lw2, y + lw2}, {x + tl, y + lw2}, {x + tl, y + tw2}};
    add_polygon(r, q, 9, tag);
}

/* What a hex box says for `ch`: a default ignorable's nick (pango-impl-utils.h's table and layout), or its
 * code point in hex; `rows` and `cols` of it. */
static const char *hexbox_text(gunichar ch, const HexBox *h, char hex[8], int *rows, int *cols) {
    static const struct { gunichar ch; const char *nick; } ignorables[] = {
        {0x00ad, "SHY"}, {0x034f, "CGJ"}, {0x061c, "ALM"}, {0x200b, "ZWS"}, {0x200c, "ZWNJ"}, {0x200d, "ZWJ"},
        {0x200e, "LRM"}, {0x200f, "RLM"}, {0x2028, "LS"}, {0x2029, "PS"}, {0x202a, "LRE"}, {0x202b, "RLE"},
        {0x202c, "PDF"}, {0x202d, "LRO"}, {0x202e, "RLO"}, {0x2060, "WJ"}, {0x2061, "FA"}, {0x2062, "IT"},
        {0x2063, "IS"}, {0x2066, "LRI"}, {0x2067, "RLI"}, {0x2068, "FSI"}, {0x2069, "PDI"}, {0xfeff, "ZWNBS"},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(ignorables); i++) {
        if (ignorables[i].ch != ch) continue;
        size_t len = strlen(ignorables[i].nick);
        *rows = len < 4 ? 1 : 2;
        *cols = len < 4 ? (int)len : len > 4 ? 3 : 2;
        return ignorables[i].nick;
    }
    *rows = h->rows;
    *cols = (ch > 0xffff ? 6 : 4) / *rows;
    g_snprintf(hex, 8, ch > 0xffff ? "%06X" : "%04X", ch);
    return hex;
}

/* A hex box's digits: cairo_show_text of one character at a time with the mini font (glyphs: snapped). */
static void add_hexbox_digits(Recorder *r, const HexBox *h, const char *text, int rows, int cols, double lsb, double cx,
                              double cy, uint64_t tag) {
    hb_font_t *hb = pango_font_get_hb_font(h->mini_font);
    double x0 = cx + lsb + h->pad_x * 2;
    double y0 = cy + h->box_descent - h->pad_y * 2 - ((h->rows - rows) * h->digit_height / 2);
    inkhit_run_glyph digits[6];
    size_t n = 0;
    const char *p = text;
    for (int row = 0; row < rows; row++) {
        double y = y0 - (rows - 1 - row) * (h->digit_height + h->pad_y);
        for (int col = 0; col < cols && *p; col++, p++) {
            double x = x0 + col * (h->digit_width + h->pad_x);
            hb_codepoint_t g = 0;
            if (n >= 6 || !hb_font_get_nominal_glyph(hb, (hb_codepoint_t)(unsigned char)*p, &g)) continue;
            inkhit_point o = digit_origin(r, x, y);
            digits[n++] = (inkhit_run_glyph){g, 0, o.x, o.y, tag};
        }
    }
    add_glyphs(r, h->mini_font, digits, n);
}

/* What PangoCairoRenderer draws for glyph `gi` that no font has (its glyph id carries
 * PANGO_GLYPH_UNKNOWN_FLAG), at user (cx, cy), after an inkless placement for the glyph itself: a dot for a
 * space, an arrow for a tab or a line break, else a frame with the character's hex digits or nick (an X in
 * it for invalid input), or a plain box when the font has no hex box. */
static void add_unknown_glyph(Recorder *r, PangoFont *font, const PangoGlyphInfo *gi, double cx, double cy, uint64_t tag) {
    inkhit_run_glyph marker = {gi->glyph, 0, 0, 0, tag};
    add_glyphs(r, font, &marker, 1);
    FontEntry *e;
    if (r->status != INKHIT_OK || failed(r, font_entry(font, &e))) return;
    gunichar ch = gi->glyph & ~PANGO_GLYPH_UNKNOWN_FLAG;
    int invalid = gi->glyph == PANGO_GLYPH_INVALID_INPUT || ch > 0x10FFFF;
    double advance = (double)gi->geometry.width / PANGO_SCALE;
    if (r->flags & INKHIT_PANGO_GSK_GL) {
        /* GskGLGlyphLibrary draws the box into the glyph's texture with pango_cairo_show_glyph_string, at the
         * glyph's quarter px position and with a width of its ink extents (whole logical px) + 2 px, in which
         * Pango centres it. */
        inkhit_point d = to_device(r, cx, cy);
        cx += gsk_gl_quarter(d.x, r->ctm.a) - d.x / r->ctm.a;
        cy += gsk_gl_quarter(d.y, r->ctm.d) - d.y / r->ctm.d;
        PangoRectangle ink;
        pango_font_get_glyph_extents(font, gi->glyph, &ink, NULL);
        pango_extents_to_pixels(&ink, NULL);
        advance = ink.width + 2;
    }
    const HexBox *h = hexbox_for(font, e);
    if (h == NULL) {
        add_frame(r, cx + 1.5, cy + 1.5 - PANGO_UNKNOWN_GLYPH_HEIGHT, advance - 3.0, PANGO_UNKNOWN_GLYPH_HEIGHT - 3.0, 1.0, invalid, tag);
        return;
    }
    /* Lines of no width (hinted metrics under about 1 px: Pango's padding, and the line width with it, round to
     * 0; its lsb is then 0/0): cairo strokes nothing, fills a disc of radius 0 and arrows of no area as nothing,
     * and shows the digits at size 0. The glyph is inkless, as drawn: its marker alone. */
    if (!(h->line_width > 0) || !isfinite(h->box_height) || !isfinite(h->box_descent) || !isfinite(advance)) return;
    int rows = h->rows, cols = 1;
    char hex[8] = {0};
    const char *text = NULL;
    if (!invalid) {
        if (ch == 0x2423 || g_unichar_type(ch) == G_UNICODE_SPACE_SEPARATOR) {
            add_disc(r, cx + 0.5 * advance, cy + h->box_descent - 0.5 * h->box_height, 1.5 * h->line_width, tag);
            return;
        }
        if (ch == '\t') { add_tab_arrow(r, h, advance, cx, cy, tag); return; }
        if (ch == '\n' || ch == 0x2028 || ch == 0x2029) { add_return_arrow(r, h, advance, cx, cy, tag); return; }
        text = hexbox_text(ch, h, hex, &rows, &cols);
    }
    double width = 3 * h->pad_x + cols * (h->digit_width + h->pad_x);
    double lsb = (advance - width) * .5;
    lsb = floor(lsb / h->pad_x) * h->pad_x;
    add_frame(r, cx + lsb + .5 * h->pad_x, cy + h->box_descent - h->box_height + h->pad_y * 0.5, width - h->pad_x,
              h->box_height - h->pad_y, h->line_width, invalid, tag);
    if (!invalid) add_hexbox_digits(r, h, text, rows, cols, lsb, cx, cy, tag);
}

/* ---------------------------------------------------------------------------------------------- */
/* Glyph items                                                                                     */

/* PangoCairoRenderer's show_text_glyphs, recorded: unknown glyphs' ink in the loop, then the font's
 * glyphs (as cairo_show_glyphs draws them after it). `item` may be NULL (no clusters: tags 0). */
static void record_glyphs(Recorder *r, PangoFont *font, PangoGlyphString *glyphs, const PangoItem *item, int x, int y) {
    if (r->status != INKHIT_OK || glyphs->num_glyphs <= 0) return;
    double base_x = r->x_offset + (double)x / PANGO_SCALE;
    double base_y = r->y_offset + (double)y / PANGO_SCALE;
    inkhit_run_glyph *batch = g_new(inkhit_run_glyph, glyphs->num_glyphs);
    size_t n = 0;
    int x_position = 0;
    for (int i = 0; i < glyphs->num_glyphs && r->status == INKHIT_OK; i++) {
        const PangoGlyphInfo *gi = &glyphs->glyphs[i];
        uint64_t tag = item && glyphs->log_clusters ? (uint64_t)(item->offset + glyphs->log_clusters[i]) : 0;
        double cx = base_x + (double)(x_position + gi->geometry.x_offset) / PANGO_SCALE;
        double cy = gi->geometry.y_offset == 0 ? base_y : base_y + (double)(gi->geometry.y_offset) / PANGO_SCALE;
        if (gi->glyph == PANGO_GLYPH_EMPTY) {
            batch[n++] = (inkhit_run_glyph){gi->glyph, 0, 0, 0, tag};
        } else if (gi->glyph & PANGO_GLYPH_UNKNOWN_FLAG) {
            if (gi->glyph == (0x20 | PANGO_GLYPH_UNKNOWN_FLAG)) batch[n++] = (inkhit_run_glyph){gi->glyph, 0, 0, 0, tag};
            else add_unknown_glyph(r, font, gi, cx, cy, tag);
        } else {
            inkhit_point o = glyph_origin(r, cx, cy);
            batch[n++] = (inkhit_run_glyph){gi->glyph, 0, o.x, o.y, tag};
        }
        x_position += gi->geometry.width;
    }
    add_glyphs(r, font, batch, n);
    g_free(batch);
}

/* The logical extent of each cluster of the glyph item drawn at x (Pango units), for the line's decorations. */
static void record_clusters(Recorder *r, const char *text, PangoGlyphItem *item, int x) {
    PangoGlyphString *glyphs = item->glyphs;
    int *prefix = g_new(int, glyphs->num_glyphs + 1);
    prefix[0] = 0;
    for (int i = 0; i < glyphs->num_glyphs; i++) prefix[i + 1] = prefix[i] + glyphs->glyphs[i].geometry.width;
    PangoGlyphItemIter iter;
    if (text && pango_glyph_item_iter_init_start(&iter, item, text)) {
        do {
            int lo = MIN(iter.start_glyph, iter.end_glyph + 1), hi = MAX(iter.start_glyph + 1, iter.end_glyph);
            if (lo < 0) lo = 0;
            if (hi > glyphs->num_glyphs) hi = glyphs->num_glyphs;
            if (lo < hi) add_span(r, x + prefix[lo], x + prefix[hi], (uint64_t)iter.start_index);
        } while (pango_glyph_item_iter_next_cluster(&iter));
    }
    g_free(prefix);
}

static void recorder_draw_glyph_item(PangoRenderer *renderer, const char *text, PangoGlyphItem *glyph_item, int x, int y) {
    Recorder *r = (Recorder *)renderer;
    follow_line(r);
    record_clusters(r, text, glyph_item, x);
    record_glyphs(r, glyph_item->item->analysis.font, glyph_item->glyphs, glyph_item->item, x, y);
}

static void recorder_draw_glyphs(PangoRenderer *renderer, PangoFont *font, PangoGlyphString *glyphs, int x, int y) {
    record_glyphs((Recorder *)renderer, font, glyphs, NULL, x, y);
}

static void recorder_prepare_run(PangoRenderer *renderer, PangoLayoutRun *run) {
    PANGO_RENDERER_CLASS(recorder_parent_class)->prepare_run(renderer, run);
    Recorder *r = (Recorder *)renderer;
    r->run = run;
    r->shape_glyph = 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* Decorations, shapes                                                                             */

static int span_order(const void *a, const void *b) {
    const Span *s = a, *t = b;
    return (s->x0 > t->x0) - (s->x0 < t->x0);
}

/* Cuts [x0, x1) (Pango units) at the line's cluster extents: piece i is [cut[i], cut[i + 1]) with tag
 * tags[i]; the first piece starts at x0 and the last ends at x1 (overhangs go to the outer clusters). */
static size_t cut_at_clusters(Recorder *r, int x0, int x1, int *cuts, uint64_t *tags, size_t capacity) {
    Span *over = g_new(Span, r->span_count + 1);
    size_t n = 0;
    for (size_t i = 0; i < r->span_count; i++)
        if (r->spans[i].x1 > x0 && r->spans[i].x0 < x1) over[n++] = r->spans[i];
    if (n == 0) {
        /* Nothing above it: the nearest cluster of the line (tag 0 on a line without clusters). */
        uint64_t tag = 0;
        long best = -1;
        for (size_t i = 0; i < r->span_count; i++) {
            long d = r->spans[i].x1 <= x0 ? (long)x0 - r->spans[i].x1 : (long)r->spans[i].x0 - x1;
            if (best < 0 || d < best) { best = d; tag = r->spans[i].tag; }
        }
        over[n++] = (Span){x0, x1, tag};
    }
    qsort(over, n, sizeof *over, span_order);
    size_t k = 0;
    for (size_t i = 0; i < n && k < capacity; i++) {
        int start = i == 0 ? x0 : over[i].x0, end = i + 1 == n ? x1 : over[i + 1].x0;
        if (end <= start) continue;
        cuts[k] = start;
        tags[k] = over[i].tag;
        k++;
    }
    if (k > 0) cuts[k] = x1;
    g_free(over);
    return k;
}

static void recorder_draw_rectangle(PangoRenderer *renderer, PangoRenderPart part, int x, int y, int width, int height) {
    Recorder *r = (Recorder *)renderer;
    if (part == PANGO_RENDER_PART_BACKGROUND || width <= 0 || height <= 0 || r->status != INKHIT_OK) return;
    follow_line(r);
    /* cairo_rectangle(x_offset + x / PANGO_SCALE, y_offset + y / PANGO_SCALE, width / PANGO_SCALE, ...). */
    double left = r->x_offset + (double)x / PANGO_SCALE, top = r->y_offset + (double)y / PANGO_SCALE;
    double right = left + (double)width / PANGO_SCALE, bottom = top + (double)height / PANGO_SCALE;
    size_t capacity = r->span_count + 2;
    int *cuts = g_new(int, capacity + 1);
    uint64_t *tags = g_new(uint64_t, capacity);
    size_t pieces = cut_at_clusters(r, x, x + width, cuts, tags, capacity);
    for (size_t i = 0; i < pieces && r->status == INKHIT_OK; i++) {
        double a = i == 0 ? left : r->x_offset + (double)cuts[i] / PANGO_SCALE;
        double b = i + 1 == pieces ? right : r->x_offset + (double)cuts[i + 1] / PANGO_SCALE;
        Path p = {0};
        path_rect(&p, a, top, b - a, bottom - top, 1);
        add_path(r, &p, tags[i]);
    }
    g_free(cuts);
    g_free(tags);
}

/* Sutherland–Hodgman: the part of polygon `in` (n points) with a <= x <= b. */
static size_t clip_slab(const inkhit_point *in, size_t n, double a, double b, inkhit_point *out, inkhit_point *scratch) {
    size_t m = 0, k = 0;
    for (size_t i = 0; i < n; i++) {                    /* x >= a */
        inkhit_point p = in[i], q = in[(i + 1) % n];
        int pin = p.x >= a, qin = q.x >= a;
        if (pin) scratch[m++] = p;
        if (pin != qin) scratch[m++] = (inkhit_point){a, p.y + (q.y - p.y) * (a - p.x) / (q.x - p.x)};
    }
    for (size_t i = 0; i < m; i++) {                    /* x <= b */
        inkhit_point p = scratch[i], q = scratch[(i + 1) % m];
        int pin = p.x <= b, qin = q.x <= b;
        if (pin) out[k++] = p;
        if (pin != qin) out[k++] = (inkhit_point){b, p.y + (q.y - p.y) * (b - p.x) / (q.x - p.x)};
    }
    return k;
}

/* PangoCairoRenderer's error underline as a polygon (user px): a zigzag band of whole units centred in the box
 * (bx, by, bw, bh), the bottom edge left to right, then the top edge back. Writes at most 2 * units + 8 points;
 * returns how many, or 0 when the band would be larger than 4,000,000 units. */
static size_t zigzag_band(double bx, double by, double bw, double bh, inkhit_point **out) {
    const double squares = 2.5;
    double square = bh / squares, unit = (squares - 1) * square, twice = 2 * unit;
    double whole = (bw + unit / 2) / unit;
    if (!(whole < 4e6)) return 0;
    int units = (int)whole;
    bx += (bw - units * unit) / 2;
    double top = by, bottom = by + bh;
    inkhit_point *band = g_new(inkhit_point, 2 * (size_t)units + 16);
    size_t n = 0;
    double mid = bx + unit, right = bx + twice;
    int i;
    band[n++] = (inkhit_point){bx - square / 2, top + square / 2};
    for (i = 0; i < units - 2; i += 2) {
        band[n++] = (inkhit_point){mid, bottom};
        band[n++] = (inkhit_point){right, top + square};
        mid += twice;
        right += twice;
    }
    band[n++] = (inkhit_point){mid, bottom};
    if (i + 1 == units) {
        band[n++] = (inkhit_point){mid + square / 2, bottom - square / 2};
    } else if (i + 2 == units) {
        band[n++] = (inkhit_point){right + square / 2, top + square / 2};
        band[n++] = (inkhit_point){right, top};
    }
    double left = mid - unit;
    for (; i >= 0; i -= 2) {
        band[n++] = (inkhit_point){mid, bottom - square};
        band[n++] = (inkhit_point){left, top};
        left -= twice;
        mid -= twice;
    }
    *out = band;
    return n;
}

/* Adds a closed polygon of any size (user px) with `tag`. */
static void add_points(Recorder *r, const inkhit_point *q, size_t n, uint64_t tag) {
    if (r->status != INKHIT_OK || n < 3) return;
    uint8_t *verbs = g_new(uint8_t, n + 1);
    verbs[0] = INKHIT_VERB_MOVE;
    for (size_t j = 1; j < n; j++) verbs[j] = INKHIT_VERB_LINE;
    verbs[n] = INKHIT_VERB_CLOSE;
    size_t index = 0;
    if (!failed(r, inkhit_builder_add_outline(r->builder, NULL, 0, verbs, n + 1, q, n, INKHIT_FILL_NONZERO, &r->ctm, &index))) {
        r->added++;
        if (tag != 0) failed(r, inkhit_builder_set_tag(r->builder, index, tag));
    }
    g_free(verbs);
}

/* The error underline over (x, y, width, height), Pango units: the band cut at the line's clusters. */
static void recorder_draw_error_underline(PangoRenderer *renderer, int x, int y, int width, int height) {
    Recorder *r = (Recorder *)renderer;
    if (width <= 0 || height <= 0 || r->status != INKHIT_OK) return;
    follow_line(r);
    inkhit_point *band = NULL;
    size_t n = zigzag_band(r->x_offset + (double)x / PANGO_SCALE, r->y_offset + (double)y / PANGO_SCALE,
                           (double)width / PANGO_SCALE, (double)height / PANGO_SCALE, &band);
    if (n == 0) {                                        /* refuse, never drop */
        failed(r, inkhit_report_error(INKHIT_ERROR_LIMIT, FUNCTION ": an error underline longer than 4,000,000 zigzag units"));
        return;
    }
    size_t capacity = r->span_count + 2;
    int *cuts = g_new(int, capacity + 1);
    uint64_t *tags = g_new(uint64_t, capacity);
    size_t pieces = cut_at_clusters(r, x, x + width, cuts, tags, capacity);
    if ((double)pieces * (double)n > 5e7) {              /* each piece clips the whole band: bound the work */
        failed(r, inkhit_report_error(INKHIT_ERROR_LIMIT, FUNCTION ": an error underline over too many clusters to cut"));
        pieces = 0;
    }
    inkhit_point *piece = g_new(inkhit_point, 2 * n + 8), *scratch = g_new(inkhit_point, 2 * n + 8);
    for (size_t k = 0; k < pieces && r->status == INKHIT_OK; k++) {
        double a = k == 0 ? -INFINITY : r->x_offset + (double)cuts[k] / PANGO_SCALE;
        double b = k + 1 == pieces ? INFINITY : r->x_offset + (double)cuts[k + 1] / PANGO_SCALE;
        add_points(r, piece, clip_slab(band, n, a, b, piece, scratch), tags[k]);
    }
    g_free(piece);
    g_free(scratch);
    g_free(cuts);
    g_free(tags);
    g_free(band);
}

/* A PangoAttrShape glyph: its ink rectangle (whatever a shape renderer would draw there). */
static void recorder_draw_shape(PangoRenderer *renderer, PangoAttrShape *attr, int x, int y) {
    Recorder *r = (Recorder *)renderer;
    follow_line(r);
    uint64_t tag = 0;
    PangoLayoutRun *run = r->run;
    if (run && r->shape_glyph < run->glyphs->num_glyphs) {
        int i = r->shape_glyph++;
        tag = (uint64_t)(run->item->offset + run->glyphs->log_clusters[i]);
        add_span(r, x, x + run->glyphs->glyphs[i].geometry.width, tag);
    }
    if (attr->ink_rect.width <= 0 || attr->ink_rect.height <= 0 || r->status != INKHIT_OK) return;
    double bx = r->x_offset + (double)x / PANGO_SCALE, by = r->y_offset + (double)y / PANGO_SCALE;
    Path p = {0};
    path_rect(&p, bx + (double)attr->ink_rect.x / PANGO_SCALE, by + (double)attr->ink_rect.y / PANGO_SCALE,
              (double)attr->ink_rect.width / PANGO_SCALE, (double)attr->ink_rect.height / PANGO_SCALE, 1);
    add_path(r, &p, tag);
}

static void recorder_class_init(RecorderClass *klass) {
    PangoRendererClass *renderer = PANGO_RENDERER_CLASS(klass);
    renderer->draw_glyphs = recorder_draw_glyphs;
    renderer->draw_glyph_item = recorder_draw_glyph_item;
    renderer->draw_rectangle = recorder_draw_rectangle;
    renderer->draw_error_underline = recorder_draw_error_underline;
    renderer->draw_shape = recorder_draw_shape;
    renderer->prepare_run = recorder_prepare_run;
    G_OBJECT_CLASS(klass)->finalize = recorder_finalize;
}

static void recorder_init(Recorder *r) { (void)r; }

/* ============================================================================================== */
/* The call                                                                                        */
/* ============================================================================================== */

/* Checks a call's arguments (the handles through libInkHit's own calls); the transform to use in `*t`. */
static inkhit_status check_arguments(inkhit_builder builder, inkhit_shape_cache cache, PangoLayout *layout, double x, double y,
                                     const inkhit_transform *transform, uint32_t flags, inkhit_transform *t) {
    char message[320];
    size_t count = 0;
    if (builder == NULL) return inkhit_report_error(INKHIT_ERROR_NULL_ARGUMENT, FUNCTION ": builder is NULL");
    inkhit_status s = inkhit_builder_count(builder, &count);
    inkhit_shape_cache_info info;
    if (s == INKHIT_OK && cache != NULL && (s = inkhit_shape_cache_get_info(cache, &info)) != INKHIT_OK) {
        snprintf(message, sizeof message, FUNCTION ": cache: %s", inkhit_last_error());
        return inkhit_report_error(s, message);
    }
    if (s != INKHIT_OK) {
        snprintf(message, sizeof message, FUNCTION ": builder: %s", inkhit_last_error());
        return inkhit_report_error(s, message);
    }
    if (layout == NULL) return inkhit_report_error(INKHIT_ERROR_NULL_ARGUMENT, FUNCTION ": layout is NULL");
    if (!PANGO_IS_LAYOUT(layout)) return inkhit_report_error(INKHIT_ERROR_INVALID_ARGUMENT, FUNCTION ": layout is not a PangoLayout");
    if (flags & ~(uint32_t)(INKHIT_PANGO_SNAP_ORIGINS | INKHIT_PANGO_GSK_GL)) {
        snprintf(message, sizeof message, FUNCTION ": flags 0x%x has bits that are not INKHIT_PANGO_* flags", (unsigned)flags);
        return inkhit_report_error(INKHIT_ERROR_INVALID_ARGUMENT, message);
    }
    if ((flags & INKHIT_PANGO_SNAP_ORIGINS) && (flags & INKHIT_PANGO_GSK_GL)) {
        return inkhit_report_error(INKHIT_ERROR_INVALID_ARGUMENT, FUNCTION ": INKHIT_PANGO_SNAP_ORIGINS (cairo) and "
                                   "INKHIT_PANGO_GSK_GL (GTK's GL renderer) are two renderers' rules: give one");
    }
    if (!isfinite(x) || !isfinite(y)) {
        snprintf(message, sizeof message, FUNCTION ": the position (%g, %g) must be finite", x, y);
        return inkhit_report_error(INKHIT_ERROR_INVALID_ARGUMENT, message);
    }
    *t = (inkhit_transform)INKHIT_TRANSFORM_IDENTITY;
    if (transform) *t = *transform;
    /* The library's own check of a transform, once for the layout (each glyph's adds would check it again). */
    if (inkhit_transform_validate(t) != INKHIT_OK) {
        snprintf(message, sizeof message, FUNCTION ": the transform must be finite and invertible: %s", inkhit_last_error());
        return inkhit_report_error(INKHIT_ERROR_INVALID_ARGUMENT, message);
    }
    if ((flags & INKHIT_PANGO_GSK_GL) && !(t->b == 0 && t->c == 0 && t->a == t->d && t->a > 0)) {
        snprintf(message, sizeof message, FUNCTION ": with INKHIT_PANGO_GSK_GL the transform [%g, %g, %g, %g, %g, %g] must only "
                 "scale (by the widget's scale factor, the same on both axes) and translate",
                 t->a, t->b, t->c, t->d, t->tx, t->ty);
        return inkhit_report_error(INKHIT_ERROR_INVALID_ARGUMENT, message);
    }
    return INKHIT_OK;
}

inkhit_status inkhit_pango_add_layout(inkhit_builder builder, inkhit_shape_cache cache, PangoLayout *layout, double x,
                                      double y, const inkhit_transform *transform, uint32_t flags, size_t *added_out) {
    if (added_out) *added_out = 0;
    inkhit_transform t;
    inkhit_status checked = check_arguments(builder, cache, layout, x, y, transform, flags, &t);
    if (checked != INKHIT_OK) return checked;
    Recorder *r = g_object_new(recorder_get_type(), NULL);
    r->builder = builder;
    r->cache = cache;
    r->x_offset = x;
    r->y_offset = y;
    r->ctm = t;
    r->flags = flags;
    r->status = INKHIT_OK;
    pango_renderer_draw_layout((PangoRenderer *)r, layout, 0, 0);
    inkhit_status status = r->status;
    if (added_out) *added_out = r->added;
    g_object_unref(r);
    if (status != INKHIT_OK && strncmp(inkhit_last_error(), FUNCTION, strlen(FUNCTION)) != 0) {
        char message[1024];
        snprintf(message, sizeof message, FUNCTION ": %s", inkhit_last_error());
        inkhit_report_error(status, message);
    }
    return status;
}
