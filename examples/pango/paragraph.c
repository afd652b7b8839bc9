/* paragraph.c — a Pango paragraph drawn with cairo and hit-tested by its ink through the Pango adapter.
 *
 *   cc paragraph.c $(pkg-config --cflags --libs inkhit-pango) -o paragraph && ./paragraph [out.png]
 *
 * The paragraph is drawn at 2x (a HiDPI surface) with pango_cairo_show_layout(); the same layout is recorded
 * with inkhit_pango_add_layout() under the same CTM; taps, in device pixels, are answered by the ink: the
 * character under a tap (its byte in the text, the placement's tag), whether the tap is on a glyph or on a
 * decoration (a link's underline names the character above it), and misses in holes and gaps.
 */
#include <inkhit_pango.h>

#include <pango/pangocairo.h>
#include <stdio.h>

static int fail(const char *what) {
    fprintf(stderr, "%s failed: %s\n", what, inkhit_last_error());
    return 1;
}

int main(int argc, char **argv) {
    const double scale = 2;                              /* device px per layout px */
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 420 * scale, 90 * scale);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_scale(cr, scale, scale);
    cairo_set_source_rgb(cr, 0, 0, 0);

    PangoLayout *layout = pango_cairo_create_layout(cr);
    pango_layout_set_width(layout, 400 * PANGO_SCALE);
    pango_layout_set_markup(layout,
                            "<span font='DejaVu Sans 16px'>Tap <span foreground='blue' underline='single'>the link</span>, "
                            "not the gap. <span font='Droid Sans Fallback 18px'><b>永字</b></span> "
                            "<s>struck</s></span>", -1);

    /* What the user sees: the layout's top-left at (10, 12) layout px. */
    cairo_move_to(cr, 10, 12);
    pango_cairo_show_layout(cr, layout);
    if (argc > 1) cairo_surface_write_to_png(surface, argv[1]);

    /* The same layout, recorded under the same CTM, origins snapped as cairo's image surface snaps them. */
    cairo_matrix_t m;
    cairo_get_matrix(cr, &m);
    inkhit_transform ctm = {m.xx, m.yx, m.xy, m.yy, m.x0, m.y0};
    inkhit_builder builder;
    inkhit_index index;
    size_t added = 0;
    if (inkhit_builder_create(0, &builder) != INKHIT_OK) return fail("inkhit_builder_create");
    if (inkhit_pango_add_layout(builder, NULL, layout, 10, 12, &ctm, INKHIT_PANGO_SNAP_ORIGINS, &added) != INKHIT_OK)
        return fail("inkhit_pango_add_layout");
    if (inkhit_builder_build(builder, &index) != INKHIT_OK) return fail("inkhit_builder_build");
    printf("%zu placements\n", added);

    /* Taps in device px, placed from what Pango says: a character's logical box (pango_layout_index_to_pos), the
     * first line's baseline, and the underline's offset and thickness from the font's metrics. */
    const char *text = pango_layout_get_text(layout);
    PangoLayoutIter *it = pango_layout_get_iter(layout);
    double baseline = 12 + (double)pango_layout_iter_get_baseline(it) / PANGO_SCALE;
    pango_layout_iter_free(it);
    PangoFontDescription *sans = pango_font_description_from_string("DejaVu Sans 16px");
    PangoFontMetrics *metrics = pango_context_get_metrics(pango_layout_get_context(layout), sans, NULL);
    double underline = baseline - (double)pango_font_metrics_get_underline_position(metrics) / PANGO_SCALE
                       + (double)pango_font_metrics_get_underline_thickness(metrics) / PANGO_SCALE / 2;
    pango_font_metrics_unref(metrics);
    pango_font_description_free(sans);
    struct { const char *what; int byte; double dx, y, radius; } taps[] = {      /* dx: from the box's centre, layout px */
        {"the stem of the l of \"link\"", 8, 0, baseline - 5, 0},
        {"the underline below the i of \"link\"", 9, 0, underline, 0},
        {"the space after \"gap.\"", 26, 0, baseline - 5, 0},
        {"the same space, with a 12 px touch radius", 26, 0, baseline - 5, 12},
        {"the central stroke of the synthetic bold 永", 27, 1.5, baseline - 6, 0},
    };
    for (size_t i = 0; i < sizeof taps / sizeof *taps; i++) {
        PangoRectangle box;                              /* layout px from the layout's origin, Pango units */
        pango_layout_index_to_pos(layout, taps[i].byte, &box);
        double x = (10 + (box.x + box.width / 2.0) / PANGO_SCALE + taps[i].dx) * scale, y = taps[i].y * scale;
        inkhit_hit hit;
        inkhit_index_hit(index, x, y, taps[i].radius, &hit);
        if (!hit.hit) {
            printf("%s (%.1f, %.1f): miss\n", taps[i].what, x, y);
            continue;
        }
        uint64_t byte = 0;
        int32_t ink = 0;
        inkhit_index_placement_tag(index, hit.placement, &byte);
        inkhit_index_placement_ink(index, hit.placement, &ink);
        const char *end = g_utf8_next_char(text + byte);
        printf("%s (%.1f, %.1f): \"%.*s\" (byte %llu) on %s, distance %.2f px\n", taps[i].what, x, y, (int)(end - (text + byte)),
               text + byte, (unsigned long long)byte, ink == INKHIT_INK_PATH ? "a decoration" : "a glyph", hit.distance);
    }
    inkhit_index_release(index);
    inkhit_builder_release(builder);
    g_object_unref(layout);
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
    return 0;
}
