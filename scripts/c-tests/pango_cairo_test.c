/*
 * pango_cairo_test.c — the Pango adapter (inkhit_pango.h) against cairo's own pixels.
 *
 * Paragraphs laid out by Pango (DejaVu Sans and Serif with ligatures, bold, italic, sup/sub, letter
 * spacing; Droid Sans Fallback CJK in synthetic bold (FC_EMBOLDEN) and synthetic slant (FC_MATRIX); Inter's
 * named instance and a variation; Hebrew with points and Arabic, right to left; underline, double, low and
 * error underlines, overline, strikethrough; characters no font has, drawn as hex boxes; a PangoAttrShape)
 * are drawn by pango_cairo_show_layout() into A8 image surfaces at 1x, 2x and 4x (gray antialiasing, no
 * hinting; and hinting slight and full at 1x; three of them also with the font options left to fontconfig
 * and cairo at 1x and 1.5x, at 3x, and rotated at 2x), and recorded by inkhit_pango_add_layout() with the
 * same CTM and INKHIT_PANGO_SNAP_ORIGINS. Every pixel centre whose coverage is < 0.02 or > 0.98 must get the
 * same answer from the index at radius 0 (contains <=> coverage > 0.98): 0 disagreements. At 1x, an edge
 * pixel's ink area (8 x 8 samples) must be within 0.35 of its coverage (this sees a glyph half a pixel
 * off, which the judged pixels cannot).
 *
 * Tags: the placements that are glyphs carry, in drawing order, item->offset + log_clusters[i] of every glyph
 * of the layout (Pango's own glyph strings, walked here), and a hit on a decoration names the cluster that
 * Pango's own pango_layout_line_x_to_index() finds at that x on the tag's line.
 * Hostile calls: NULL builder and layout, foreign handles, unknown flags, NaN and singular transforms, an
 * empty layout, a layout of 100,000 characters; each gives its documented status. Unknown glyphs at 1.5 px
 * down to 0.05 px with hinted metrics (where Pango's hex box lines round to a width of 0 from about 1 px
 * down): recorded, never a failed call, and the index agrees with cairo's pixels.
 * The features the paragraphs are meant to exercise (FC_EMBOLDEN, a slant FC_MATRIX, a packed named
 * instance, FC_FONT_VARIATIONS, unknown glyphs, right-to-left runs, PANGO_GLYPH_EMPTY) must all occur.
 *
 *   cc pango_cairo_test.c $(pkg-config --cflags --libs inkhit-pango) -lm -o pango_cairo_test && ./pango_cairo_test
 * Prints one line per rendering and a summary; exits 1 on any failure. INKHIT_PANGO_DUMP=dir writes the
 * renderings and their disagreements as PNG files.
 */
#include <inkhit_pango.h>

#include <math.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-font.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, checks;

static void check(int ok, const char *what, int line) {
    checks++;
    if (!ok) {
        failures++;
        fprintf(stderr, "FAIL line %d: %s (%s)\n", line, what, inkhit_last_error());
    }
}
#define CHECK(cond) check((cond) ? 1 : 0, #cond, __LINE__)

/* ============================================================================================== */
/* The paragraphs                                                                                   */

typedef struct {
    const char *name;
    const char *markup;
    int width;                      /* wrap width, layout px (0: none) */
    int shape;                      /* 1: a PangoAttrShape over the text's U+FFFC */
    int all_settings;               /* 1: also drawn with the extra settings (defaults, 1.5x, 3x, rotated) */
} Paragraph;

static const Paragraph paragraphs[] = {
    {"latin",
     "<span font='DejaVu Sans 13px'>An <b>office</b> affine <i>fjord</i> with <span font='DejaVu Serif 14px'>serif "
     "ffl</span>, x<sup>2</sup> and H<sub>2</sub>O, <span letter_spacing='2048'>spaced</span>, "
     "<u>an underlined link</u>, <span underline='double'>double</span>, <span underline='low'>gyp low</span>, "
     "<span underline='error'>mispelled wrds</span>, <span overline='single'>over</span> and "
     "<s>struck through</s>.</span>", 330, 0, 1},
    {"cjk-synthetic",
     "<span font='Droid Sans Fallback 16px'>永字八法 <b>永字八法 漢字</b> <i>永字八法 漢字</i> <b><i>粗斜体</i></b> "
     "<u>下线永</u></span>", 0, 0, 1},
    {"inter",
     "<span font='Inter Bold 15px'>Hamburgefonstiv 0123</span> <span font='Inter 15px @wght=650'>Variable wght 650</span> "
     "<span font='Inter Thin 15px'>Thin</span>", 0, 0, 0},
    {"rtl",
     "<span font='DejaVu Sans 15px'>שָׁלוֹם עוֹלָם <u>קִשּׁוּר</u> مرحبا بالعالم <s>نص</s> end</span>", 0, 0, 1},
    {"unknown-glyphs",
     "<span font='DejaVu Sans 14px'>box \xcd\xb8 and \xf4\x8f\xbf\xbd and \xee\x80\x80x <b>\xcd\xb9</b> "
     "<span font='DejaVu Sans 24px'>\xf3\xb0\x80\x80</span></span>", 0, 0, 0},
    {"shape",
     "<span font='DejaVu Sans 14px'>an object \xef\xbf\xbc inline <u>under \xef\xbf\xbc it</u></span>", 0, 1, 0},
};

/* Fills a shape's ink rectangle, as an embedder's shape renderer would. */
static void draw_shape(cairo_t *cr, PangoAttrShape *attr, gboolean do_path, gpointer data) {
    (void)data;
    double x, y;
    cairo_get_current_point(cr, &x, &y);
    cairo_rectangle(cr, x + (double)attr->ink_rect.x / PANGO_SCALE, y + (double)attr->ink_rect.y / PANGO_SCALE,
                    (double)attr->ink_rect.width / PANGO_SCALE, (double)attr->ink_rect.height / PANGO_SCALE);
    if (!do_path) cairo_fill(cr);
}

static void add_shapes(PangoLayout *layout) {
    const char *text = pango_layout_get_text(layout);
    PangoAttrList *list = pango_attr_list_copy(pango_layout_get_attributes(layout));
    if (!list) list = pango_attr_list_new();
    for (const char *p = strstr(text, "\xef\xbf\xbc"); p; p = strstr(p + 3, "\xef\xbf\xbc")) {
        PangoRectangle ink = {2 * PANGO_SCALE, -10 * PANGO_SCALE, 12 * PANGO_SCALE, 9 * PANGO_SCALE};
        PangoRectangle logical = {0, -12 * PANGO_SCALE, 16 * PANGO_SCALE, 14 * PANGO_SCALE};
        PangoAttribute *a = pango_attr_shape_new(&ink, &logical);
        a->start_index = (guint)(p - text);
        a->end_index = a->start_index + 3;
        pango_attr_list_insert(list, a);
    }
    pango_layout_set_attributes(layout, list);
    pango_attr_list_unref(list);
}

/* ============================================================================================== */
/* One rendering                                                                                   */

typedef struct {
    double scale;
    cairo_hint_style_t hint;
    cairo_hint_metrics_t metrics;
    const char *name;
    double angle;                   /* radians, about the surface's top-left (then moved back into view) */
    int defaults;                   /* 1: no font options of the test's own (fontconfig's and cairo's defaults) */
} Setting;

static const Setting settings[] = {
    {1, CAIRO_HINT_STYLE_NONE, CAIRO_HINT_METRICS_OFF, "1x unhinted", 0, 0},
    {2, CAIRO_HINT_STYLE_NONE, CAIRO_HINT_METRICS_OFF, "2x unhinted", 0, 0},
    {4, CAIRO_HINT_STYLE_NONE, CAIRO_HINT_METRICS_OFF, "4x unhinted", 0, 0},
    {1, CAIRO_HINT_STYLE_SLIGHT, CAIRO_HINT_METRICS_ON, "1x hint slight", 0, 0},
    {1, CAIRO_HINT_STYLE_FULL, CAIRO_HINT_METRICS_ON, "1x hint full", 0, 0},
    {1, CAIRO_HINT_STYLE_DEFAULT, CAIRO_HINT_METRICS_DEFAULT, "1x defaults", 0, 1},
    {1.5, CAIRO_HINT_STYLE_DEFAULT, CAIRO_HINT_METRICS_DEFAULT, "1.5x defaults", 0, 1},
    {3, CAIRO_HINT_STYLE_NONE, CAIRO_HINT_METRICS_OFF, "3x unhinted", 0, 0},
    {2, CAIRO_HINT_STYLE_NONE, CAIRO_HINT_METRICS_OFF, "2x rotated", 0.2, 0},
};

/* Writes 8-bit pixels (w x h, `stride` bytes a row) as `dir/name-suffix.png`, ink black on white. */
static void dump(const char *dir, const char *name, const char *suffix, const unsigned char *pixels, int w, int h, int stride) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s-%s.png", dir, name, suffix);
    for (char *c = path + strlen(dir) + 1; *c; c++) if (*c == ' ') *c = '_';
    cairo_surface_t *out = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    unsigned char *d = cairo_image_surface_get_data(out);
    int ds = cairo_image_surface_get_stride(out);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t g = 255u - pixels[(size_t)y * stride + x];
            *(uint32_t *)(d + (size_t)y * ds + 4 * (size_t)x) = g << 16 | g << 8 | g;
        }
    cairo_surface_mark_dirty(out);
    cairo_surface_write_to_png(out, path);
    cairo_surface_destroy(out);
}

/* The glyph tags Pango's glyph strings give, in the order the adapter records glyphs: line by line, run by
 * run; within a run, unknown glyphs are not in this paragraph set's tag check (see below). */
static size_t expected_glyph_tags(PangoLayout *layout, uint64_t *tags, size_t capacity) {
    size_t n = 0;
    for (GSList *l = pango_layout_get_lines_readonly(layout); l; l = l->next) {
        PangoLayoutLine *line = l->data;
        for (GSList *r = line->runs; r; r = r->next) {
            PangoGlyphItem *run = r->data;
            int shaped = 0;
            for (GSList *a = run->item->analysis.extra_attrs; a; a = a->next)
                if (((PangoAttribute *)a->data)->klass->type == PANGO_ATTR_SHAPE) shaped = 1;
            if (shaped) continue;
            for (int i = 0; i < run->glyphs->num_glyphs && n < capacity; i++)
                tags[n++] = (uint64_t)(run->item->offset + run->glyphs->log_clusters[i]);
        }
    }
    return n;
}

/* The first byte of the cluster holding byte `index` (Pango's glyph item iterator over the layout's runs). */
static int cluster_start(PangoLayout *layout, int index) {
    const char *text = pango_layout_get_text(layout);
    for (GSList *l = pango_layout_get_lines_readonly(layout); l; l = l->next) {
        for (GSList *r = ((PangoLayoutLine *)l->data)->runs; r; r = r->next) {
            PangoGlyphItemIter it;
            if (!pango_glyph_item_iter_init_start(&it, r->data, text)) continue;
            do {
                if (index >= it.start_index && index < it.end_index) return it.start_index;
            } while (pango_glyph_item_iter_next_cluster(&it));
        }
    }
    return -1;
}

/* What the paragraphs make fontconfig and Pango do (so a machine whose fontconfig does not, say, synthesize
 * bold fails loudly instead of testing less): bits of `seen`. */
enum { SAW_EMBOLDEN = 1, SAW_SLANT = 2, SAW_NAMED_INSTANCE = 4, SAW_VARIATIONS = 8, SAW_UNKNOWN = 16, SAW_RTL = 32,
       SAW_EMPTY = 64 };
static int seen;

static void note_features(PangoLayout *layout) {
    for (GSList *l = pango_layout_get_lines_readonly(layout); l; l = l->next) {
        for (GSList *r = ((PangoLayoutLine *)l->data)->runs; r; r = r->next) {
            PangoGlyphItem *run = r->data;
            if (run->item->analysis.level & 1) seen |= SAW_RTL;
            for (int i = 0; i < run->glyphs->num_glyphs; i++) {
                if (run->glyphs->glyphs[i].glyph & PANGO_GLYPH_UNKNOWN_FLAG) seen |= SAW_UNKNOWN;
                if (run->glyphs->glyphs[i].glyph == PANGO_GLYPH_EMPTY) seen |= SAW_EMPTY;
            }
            PangoFont *font = run->item->analysis.font;
            if (!PANGO_IS_FC_FONT(font)) continue;
            FcPattern *p = pango_fc_font_get_pattern(PANGO_FC_FONT(font));
            FcBool b = FcFalse;
            int index = 0;
            FcMatrix *m = NULL;
            FcChar8 *v = NULL;
            if (FcPatternGetBool(p, FC_EMBOLDEN, 0, &b) == FcResultMatch && b) seen |= SAW_EMBOLDEN;
            if (FcPatternGetMatrix(p, FC_MATRIX, 0, &m) == FcResultMatch && m->xy != 0) seen |= SAW_SLANT;
            if (FcPatternGetInteger(p, FC_INDEX, 0, &index) == FcResultMatch && index > 0xFFFF) seen |= SAW_NAMED_INSTANCE;
            if (FcPatternGetString(p, FC_FONT_VARIATIONS, 0, &v) == FcResultMatch && v && *v) seen |= SAW_VARIATIONS;
        }
    }
}

static const double X0 = 6.5, Y0 = 4.25;           /* the layout's top-left, layout px (a fractional origin) */

static void render_and_compare(const Paragraph *para, const Setting *set, PangoFontMap *fontmap, inkhit_shape_cache cache,
                               const char *dump_dir) {
    const int W = 360, H = para->width ? 150 : 48;
    int w = (int)(W * set->scale), h = (int)((H + (set->angle != 0 ? 0.25 * W : 0)) * set->scale);
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_A8, w, h);
    cairo_t *cr = cairo_create(surface);
    if (set->angle != 0) {
        cairo_translate(cr, 0.1 * w, 0);
        cairo_rotate(cr, set->angle);
    }
    cairo_scale(cr, set->scale, set->scale);
    PangoContext *context = pango_font_map_create_context(fontmap);
    pango_cairo_update_context(cr, context);
    if (!set->defaults) {
        cairo_font_options_t *options = cairo_font_options_create();
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
        cairo_font_options_set_hint_style(options, set->hint);
        cairo_font_options_set_hint_metrics(options, set->metrics);
        pango_cairo_context_set_font_options(context, options);
        cairo_font_options_destroy(options);
    }
    if (para->shape) pango_cairo_context_set_shape_renderer(context, draw_shape, NULL, NULL);
    PangoLayout *layout = pango_layout_new(context);
    pango_layout_set_markup(layout, para->markup, -1);
    if (para->width) pango_layout_set_width(layout, para->width * PANGO_SCALE);
    if (para->shape) add_shapes(layout);
    note_features(layout);

    gint64 t0 = g_get_monotonic_time();
    cairo_move_to(cr, X0, Y0);
    pango_cairo_show_layout(cr, layout);
    cairo_surface_flush(surface);

    cairo_matrix_t m;
    cairo_get_matrix(cr, &m);
    inkhit_transform ctm = {m.xx, m.yx, m.xy, m.yy, m.x0, m.y0};
    inkhit_builder builder;
    CHECK(inkhit_builder_create(0, &builder) == INKHIT_OK);
    size_t added = 0;
    inkhit_status s = inkhit_pango_add_layout(builder, cache, layout, X0, Y0, &ctm, INKHIT_PANGO_SNAP_ORIGINS, &added);
    CHECK(s == INKHIT_OK);
    size_t count = 0;
    inkhit_builder_count(builder, &count);
    CHECK(count == added && added > 0);
    inkhit_index index;
    CHECK(inkhit_builder_build(builder, &index) == INKHIT_OK);
    gint64 t1 = g_get_monotonic_time();

    /* Pixels. */
    const unsigned char *pixels = cairo_image_surface_get_data(surface);
    int stride = cairo_image_surface_get_stride(surface);
    unsigned char *wrong = dump_dir ? calloc((size_t)w * h, 1) : NULL;
    unsigned char *on_ink = calloc((size_t)w * h, 1);             /* the index's answer at each pixel centre */
    long judged = 0, inside = 0, disagree = 0;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            int a = pixels[(size_t)y * stride + x];
            int32_t contains = 0;
            inkhit_index_contains(index, x + 0.5, y + 0.5, &contains);
            on_ink[(size_t)y * w + x] = contains != 0;
            if (a > 5 && a < 250) continue;
            judged++;
            if (a >= 250) inside++;
            if ((a >= 250) != (contains != 0)) {
                if (disagree < 5) fprintf(stderr, "  %s %s: pixel (%d, %d) coverage %d, InkHit %s\n", para->name, set->name, x, y, a,
                                          contains ? "inside" : "outside");
                disagree++;
                if (wrong) wrong[(size_t)y * w + x] = 255;
            }
        }
    }
    gint64 t2 = g_get_monotonic_time();
    /* Edge pixels (0 < coverage < 1) at 1x: the ink's area in the pixel, from 8 x 8 samples, is within 0.35 of
     * cairo's coverage (a glyph half a pixel off, as without INKHIT_PANGO_SNAP_ORIGINS, misses by up to 0.5).
     * Pixels where two placements' ink meets are skipped: cairo composites each glyph's coverage on its own
     * (1 - (1 - a)(1 - b)), which is not the area of their union. */
    long edges = 0, area_errors = 0;
    double worst = 0;
    if (set->scale == 1 && set->angle == 0) {
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int a = pixels[(size_t)y * stride + x];
                if (a == 0 || a == 255) continue;
                int n = 0, shared = 0;
                int64_t owner = -1;
                for (int sy = 0; sy < 8; sy++)
                    for (int sx = 0; sx < 8; sx++) {
                        int64_t top = -1;
                        inkhit_index_topmost(index, x + (sx + 0.5) / 8, y + (sy + 0.5) / 8, &top);
                        if (top < 0) continue;
                        n++;
                        if (owner >= 0 && top != owner) shared = 1;
                        owner = top;
                    }
                if (shared) continue;
                double error = fabs(n / 64.0 - a / 255.0);
                edges++;
                if (error > worst) worst = error;
                if (error > 0.35) area_errors++;
            }
        }
    }
    checks += 2;
    if (disagree) failures++;
    if (area_errors) {
        failures++;
        fprintf(stderr, "FAIL %s %s: %ld of %ld edge pixels are more than 0.35 off cairo's coverage (worst %.2f)\n", para->name,
                set->name, area_errors, edges, worst);
    }
    if (inside < 20) { failures++; fprintf(stderr, "FAIL %s %s: only %ld inked pixels\n", para->name, set->name, inside); }

    gint64 t3 = g_get_monotonic_time();
    /* Glyph tags in drawing order (paragraphs without unknown glyphs: those add boxes between them). */
    long tag_errors = 0, decoration_hits = 0, decoration_tag_errors = 0;
    if (strcmp(para->name, "unknown-glyphs") != 0) {
        uint64_t *expected = malloc(sizeof(uint64_t) * 4096);
        size_t n = expected_glyph_tags(layout, expected, 4096), k = 0;
        for (size_t i = 0; i < count; i++) {
            int32_t ink = 0;
            uint64_t tag = 0;
            inkhit_index_placement_ink(index, (int64_t)i, &ink);
            inkhit_index_placement_tag(index, (int64_t)i, &tag);
            if (ink == INKHIT_INK_PATH) continue;             /* decorations and shapes */
            if (k >= n || expected[k] != tag) tag_errors++;
            k++;
        }
        if (k != n) tag_errors++;
        free(expected);
    }
    /* Decorations: a hit on one names the cluster Pango finds at that x on that line. */
    for (int y = 0; y < h; y += 1) {
        for (int x = 0; x < w; x += 1) {
            if (!on_ink[(size_t)y * w + x]) continue;
            inkhit_hit hit;
            inkhit_index_hit(index, x + 0.5, y + 0.5, 0, &hit);
            if (!hit.hit) continue;
            int32_t ink = 0;
            inkhit_index_placement_ink(index, hit.placement, &ink);
            if (ink != INKHIT_INK_PATH) continue;
            uint64_t tag = 0;
            inkhit_index_placement_tag(index, hit.placement, &tag);
            /* The tag's line (Pango's index_to_line_x), its logical box; x within the line. */
            int line_number = -1, x_pos = 0;
            pango_layout_index_to_line_x(layout, (int)tag, FALSE, &line_number, &x_pos);
            PangoLayoutIter *it = pango_layout_get_iter(layout);
            for (int i = 0; i < line_number && pango_layout_iter_next_line(it); i++) {}
            PangoRectangle box;
            pango_layout_iter_get_line_extents(it, NULL, &box);
            PangoLayoutLine *line = pango_layout_iter_get_line_readonly(it);
            double ux = x + 0.5, uy = y + 0.5;                              /* device -> layout px (user space) */
            cairo_device_to_user(cr, &ux, &uy);
            double ly = (uy - Y0) * PANGO_SCALE;
            int ok = ly >= box.y - 4 * PANGO_SCALE && ly <= box.y + box.height + 4 * PANGO_SCALE;
            for (int dx = -1, found = 0; dx <= 1 && ok && !found; dx++) {   /* a layout px of slack at a boundary */
                int byte = 0, trailing = 0;
                double lx = (ux + dx - X0) * PANGO_SCALE - box.x;
                pango_layout_line_x_to_index(line, (int)lx, &byte, &trailing);
                found = cluster_start(layout, byte) == (int)tag;
                if (dx == 1 && !found) ok = 0;
            }
            pango_layout_iter_free(it);
            decoration_hits++;
            if (!ok) {
                if (decoration_tag_errors < 3 && getenv("INKHIT_PANGO_VERBOSE")) {
                    int byte = 0, trailing = 0;
                    pango_layout_xy_to_index(layout, (int)((ux - X0) * PANGO_SCALE), (int)(ly), &byte, &trailing);
                    fprintf(stderr, "  %s %s: decoration pixel (%d, %d) tag %llu, Pango finds byte %d (cluster %d)\n", para->name,
                            set->name, x, y, (unsigned long long)tag, byte, cluster_start(layout, byte));
                }
                decoration_tag_errors++;
            }
        }
    }
    if (getenv("INKHIT_PANGO_TIMES"))
        printf("  times: draw+record %.0f ms, pixels %.0f ms, edges %.0f ms, tags %.0f ms\n", (t1 - t0) / 1e3, (t2 - t1) / 1e3,
               (t3 - t2) / 1e3, (g_get_monotonic_time() - t3) / 1e3);
    checks += 2;
    if (tag_errors) failures++;
    if (decoration_tag_errors) failures++;
    printf("%-15s %-15s %4d x %-4d judged %7ld (ink %6ld): %ld disagree; edge pixels %ld, worst area error %.2f; "
           "placements %zu; glyph tags %s; decoration hits %ld, %ld named another cluster\n", para->name, set->name, w, h, judged,
           inside, disagree, edges, worst, count, tag_errors ? "WRONG" : "ok", decoration_hits, decoration_tag_errors);
    if (dump_dir) {
        dump(dump_dir, para->name, set->name, pixels, w, h, stride);
        char suffix[64];
        snprintf(suffix, sizeof suffix, "%s-wrong", set->name);
        dump(dump_dir, para->name, suffix, wrong, w, h, w);
        free(wrong);
    }
    free(on_ink);
    inkhit_index_release(index);
    inkhit_builder_release(builder);
    g_object_unref(layout);
    g_object_unref(context);
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
}

/* ============================================================================================== */
/* Hostile calls                                                                                   */

static void hostile(PangoFontMap *fontmap) {
    PangoContext *context = pango_font_map_create_context(fontmap);
    PangoLayout *layout = pango_layout_new(context);
    inkhit_builder builder;
    inkhit_builder_create(0, &builder);
    size_t added = 99;
    inkhit_transform nan_t = {NAN, 0, 0, 1, 0, 0}, singular = {1, 2, 2, 4, 0, 0};
    CHECK(inkhit_pango_add_layout(builder, NULL, NULL, 0, 0, NULL, 0, &added) == INKHIT_ERROR_NULL_ARGUMENT && added == 0);
    CHECK(strstr(inkhit_last_error(), "inkhit_pango_add_layout: layout is NULL") != NULL);
    CHECK(inkhit_pango_add_layout(NULL, NULL, layout, 0, 0, NULL, 0, &added) == INKHIT_ERROR_NULL_ARGUMENT);
    CHECK(inkhit_pango_add_layout((inkhit_builder)(uintptr_t)0xDEAD0007, NULL, layout, 0, 0, NULL, 0, &added)
          == INKHIT_ERROR_INVALID_HANDLE);
    CHECK(strncmp(inkhit_last_error(), "inkhit_pango_add_layout: builder:", 33) == 0);
    CHECK(inkhit_pango_add_layout(builder, (inkhit_shape_cache)(uintptr_t)0xDEAD0007, layout, 0, 0, NULL, 0, &added)
          == INKHIT_ERROR_INVALID_HANDLE);
    CHECK(inkhit_pango_add_layout(builder, NULL, layout, 0, 0, NULL, 0x80, &added) == INKHIT_ERROR_INVALID_ARGUMENT);
    CHECK(inkhit_pango_add_layout(builder, NULL, layout, NAN, 0, NULL, 0, &added) == INKHIT_ERROR_INVALID_ARGUMENT);
    CHECK(inkhit_pango_add_layout(builder, NULL, layout, 0, 0, &nan_t, 0, &added) == INKHIT_ERROR_INVALID_ARGUMENT);
    CHECK(inkhit_pango_add_layout(builder, NULL, layout, 0, 0, &singular, 0, &added) == INKHIT_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(inkhit_last_error(), "finite and invertible") != NULL);
    /* An empty layout: nothing drawn, nothing added. */
    CHECK(inkhit_pango_add_layout(builder, NULL, layout, 0, 0, NULL, 0, &added) == INKHIT_OK && added == 0);
    /* GTK's GL renderer: one renderer's rules at a time, and a transform that only scales (evenly) and translates
       (a builder of its own: the large layout below counts its placements). */
    inkhit_builder gl_builder;
    CHECK(inkhit_builder_create(0, &gl_builder) == INKHIT_OK);
    CHECK(inkhit_pango_add_layout(gl_builder, NULL, layout, 0, 0, NULL, INKHIT_PANGO_SNAP_ORIGINS | INKHIT_PANGO_GSK_GL, &added)
          == INKHIT_ERROR_INVALID_ARGUMENT && strstr(inkhit_last_error(), "give one"));
    inkhit_transform turned = {0.8, 0.6, -0.6, 0.8, 0, 0}, uneven = {2, 0, 0, 1, 0, 0}, twice = {2, 0, 0, 2, 5, 7};
    CHECK(inkhit_pango_add_layout(gl_builder, NULL, layout, 0, 0, &turned, INKHIT_PANGO_GSK_GL, &added) == INKHIT_ERROR_INVALID_ARGUMENT);
    CHECK(inkhit_pango_add_layout(gl_builder, NULL, layout, 0, 0, &uneven, INKHIT_PANGO_GSK_GL, &added) == INKHIT_ERROR_INVALID_ARGUMENT
          && strstr(inkhit_last_error(), "INKHIT_PANGO_GSK_GL"));
    pango_layout_set_text(layout, "Hi", -1);
    CHECK(inkhit_pango_add_layout(gl_builder, NULL, layout, 0, 0, &twice, INKHIT_PANGO_GSK_GL, &added) == INKHIT_OK && added == 2);
    inkhit_builder_release(gl_builder);
    /* A large layout: 100,000 characters in lines of 400 px. */
    GString *big = g_string_new(NULL);
    for (int i = 0; i < 10000; i++) g_string_append(big, "ink hits! ");
    pango_layout_set_text(layout, big->str, (int)big->len);
    pango_layout_set_width(layout, 400 * PANGO_SCALE);
    gint64 start = g_get_monotonic_time();
    CHECK(inkhit_pango_add_layout(builder, NULL, layout, 0, 0, NULL, INKHIT_PANGO_SNAP_ORIGINS, &added) == INKHIT_OK);
    double seconds = (g_get_monotonic_time() - start) / 1e6;
    CHECK(added == 100000);
    size_t count = 0;
    inkhit_builder_count(builder, &count);
    CHECK(count == 100000);
    printf("hostile: a layout of 100,000 characters recorded in %.2f s (%zu placements)\n", seconds, added);
    g_string_free(big, TRUE);
    inkhit_builder_release(builder);
    g_object_unref(layout);
    g_object_unref(context);
}

/* Unknown glyphs (hex boxes) among other characters at `px` px with
 * hinted metrics and full hinting, at 1x: the call succeeds and every judged pixel centre (coverage < 0.02
 * or > 0.98) gets cairo's answer (at 24 px, ink is judged: the boxes' frames). Under about 1 px
 * Pango's box lines have width 0 and its lsb is 0/0: cairo draws nothing, and the box used to be recorded
 * with a NaN point (the whole call failed with INVALID_ARGUMENT blaming inkhit_builder_add_outline). */
static void tiny_unknown_glyphs(PangoFontMap *fontmap, double px) {
    const int w = 12 + (int)(20 * px), h = 4 + (int)(2 * px);
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_A8, w, h);
    cairo_t *cr = cairo_create(surface);
    PangoContext *context = pango_font_map_create_context(fontmap);
    pango_cairo_update_context(cr, context);
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_FULL);
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_ON);
    pango_cairo_context_set_font_options(context, options);
    PangoLayout *layout = pango_layout_new(context);
    PangoFontDescription *desc = pango_font_description_from_string("DejaVu Sans");
    pango_font_description_set_absolute_size(desc, px * PANGO_SCALE);
    pango_layout_set_font_description(layout, desc);
    pango_font_description_free(desc);
    /* Two hex boxes (U+0378, unassigned; U+10FFFD), and what Pango draws as nothing (U+200B, a tab) or breaks at. */
    const char *text = "a\xcd\xb8" "b\xf4\x8f\xbf\xbd \xe2\x80\x8b\xc2\xa0\t\xe2\x80\xa8" "c";
    pango_layout_set_text(layout, text, -1);
    cairo_move_to(cr, 1, 1);
    pango_cairo_show_layout(cr, layout);
    cairo_surface_flush(surface);
    int unknown = 0;                                /* the glyphs no font has (so the boxes are asked for) */
    for (GSList *l = pango_layout_get_lines_readonly(layout); l; l = l->next)
        for (GSList *r = ((PangoLayoutLine *)l->data)->runs; r; r = r->next)
            for (int i = 0; i < ((PangoGlyphItem *)r->data)->glyphs->num_glyphs; i++)
                if (((PangoGlyphItem *)r->data)->glyphs->glyphs[i].glyph & PANGO_GLYPH_UNKNOWN_FLAG) unknown++;
    CHECK(unknown >= 2);
    inkhit_builder builder;
    inkhit_builder_create(0, &builder);
    cairo_matrix_t m;
    cairo_get_matrix(cr, &m);
    inkhit_transform ctm = {m.xx, m.yx, m.xy, m.yy, m.x0, m.y0};
    size_t added = 0;
    inkhit_status s = inkhit_pango_add_layout(builder, NULL, layout, 1, 1, &ctm, INKHIT_PANGO_SNAP_ORIGINS, &added);
    CHECK(s == INKHIT_OK);
    if (s != INKHIT_OK) fprintf(stderr, "  unknown glyphs at %g px: %s\n", px, inkhit_last_error());
    inkhit_index index = NULL;
    CHECK(inkhit_builder_build(builder, &index) == INKHIT_OK);
    const unsigned char *pixels = cairo_image_surface_get_data(surface);
    int stride = cairo_image_surface_get_stride(surface);
    long judged = 0, disagree = 0, inked = 0;
    for (int y = 0; y < h && index; y++)
        for (int x = 0; x < w; x++) {
            int a = pixels[(size_t)y * stride + x];
            if (a > 5 && a < 250) continue;
            int32_t contains = 0;
            inkhit_index_contains(index, x + 0.5, y + 0.5, &contains);
            judged++;
            if (a >= 250) inked++;
            if ((a >= 250) != (contains != 0)) disagree++;
        }
    checks += 2;
    if (disagree) failures++;
    if (px >= 24 && inked < 40) { failures++; fprintf(stderr, "FAIL unknown glyphs at %g px: only %ld inked pixels\n", px, inked); }
    printf("unknown glyphs at %-5g px (hinted): %s, %zu placements, judged %ld (ink %ld): %ld disagree\n", px,
           inkhit_status_name(s), added, judged, inked, disagree);
    inkhit_index_release(index);
    inkhit_builder_release(builder);
    g_object_unref(layout);
    g_object_unref(context);
    cairo_font_options_destroy(options);
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
}

static void note_finalized(gpointer data, GObject *gone) {
    (void)gone;
    g_atomic_int_set((gint *)data, 1);
}

int main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    const char *dump_dir = getenv("INKHIT_PANGO_DUMP");
    PangoFontMap *fontmap = pango_cairo_font_map_new();
    inkhit_shape_cache cache;
    CHECK(inkhit_shape_cache_create(SIZE_MAX, &cache) == INKHIT_OK);
    /* INKHIT_PANGO_QUICK=1 (the sanitizer run): 1x unhinted and 1x hinted full only. */
    int quick = getenv("INKHIT_PANGO_QUICK") != NULL;
    for (size_t p = 0; p < sizeof paragraphs / sizeof *paragraphs; p++)
        for (size_t s = 0; s < sizeof settings / sizeof *settings; s++) {
            if (quick && s != 0 && s != 4) continue;
            if (s >= 5 && !paragraphs[p].all_settings) continue;
            render_and_compare(&paragraphs[p], &settings[s], fontmap, cache, dump_dir);
        }
    CHECK(seen == (SAW_EMBOLDEN | SAW_SLANT | SAW_NAMED_INSTANCE | SAW_VARIATIONS | SAW_UNKNOWN | SAW_RTL | SAW_EMPTY));
    hostile(fontmap);
    const double tiny[] = {24, 6, 1.5, 1.2, 1.0, 0.8, 0.5, 0.2, 0.05};
    for (size_t i = 0; i < sizeof tiny / sizeof *tiny; i++) tiny_unknown_glyphs(fontmap, tiny[i]);
    inkhit_shape_cache_release(cache);
    /* Pango sorts fontsets on worker threads, each holding the font map until its sort ends
     * (PangoFcPatterns): wait (up to 10 s) for the font map to be finalized, wherever it happens. */
    gint finalized = 0;
    g_object_weak_ref(G_OBJECT(fontmap), note_finalized, &finalized);
    g_object_unref(fontmap);
    for (int i = 0; i < 1000 && !g_atomic_int_get(&finalized); i++) g_usleep(10000);
    CHECK(g_atomic_int_get(&finalized));
    /* The font map's fonts are gone with it, and with them the adapter's font handles: nothing leaks. */
    CHECK(inkhit_handle_count() == 0);
    printf("pango_cairo_test: %d checks, %d failure%s\n", checks, failures, failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}
