/*
 * inkhit_pango.h — what pango_cairo_show_layout() draws, recorded into an InkHit index builder.
 *
 * A Pango + cairo engine lays out text with Pango and draws it with pango_cairo_show_layout(). This adapter
 * records the same layout, drawn the same way, as placements of an inkhit_builder (inkhit.h): every glyph
 * with the font file, face, named instance, variations, size, synthetic bold and slant and hinting that
 * fontconfig and cairo use, the underlines, overlines, strikethroughs and error underlines Pango draws,
 * and the boxes Pango draws for glyphs no font has. Hit-testing the built index then follows the ink
 * cairo put on the surface, pixel for pixel. Link with `pkg-config --cflags --libs inkhit-pango`.
 *
 *     cairo_move_to(cr, x, y);
 *     pango_cairo_show_layout(cr, layout);                  // what the user sees
 *
 *     inkhit_transform ctm;                                  // the same layout, recorded
 *     cairo_matrix_t m; cairo_get_matrix(cr, &m);
 *     ctm = (inkhit_transform){m.xx, m.yx, m.xy, m.yy, m.x0, m.y0};
 *     inkhit_pango_add_layout(builder, NULL, layout, x, y, &ctm, INKHIT_PANGO_SNAP_ORIGINS, &added);
 *     inkhit_builder_build(builder, &index);
 *     inkhit_index_hit(index, px, py, 0, &hit);              // px, py: device pixels
 *     inkhit_index_placement_tag(index, hit.placement, &byte);   // the character's byte in the text
 *
 * Spaces. Layout px are cairo's user space, Pango units / PANGO_SCALE, y down. `transform` is the cairo
 * CTM the layout is drawn with (user space -> device space); device space is InkHit's view space, where
 * query points and radii are given. Glyph sizes, hinting and emboldening are decided in device px, as
 * cairo decides them (a 2x CTM hints and emboldens glyphs of twice the size).
 *
 * Tags. Each placement's tag (inkhit_index_placement_tag) is the byte index, in pango_layout_get_text(),
 * of the first character of its cluster (a glyph's: item->offset + log_clusters[i]). A decoration is
 * added as one placement per cluster it covers: its shape is cut at the clusters' logical extents on its
 * line, and each piece is tagged with its cluster's first byte (pieces beyond the line's first or last
 * cluster go to that cluster), so a hit on a link's underline names the character above it. A box drawn
 * for a glyph no font has is tagged like that glyph. inkhit_index_placement_ink says which kind of ink a
 * hit is on: INKHIT_INK_OUTLINE (a glyph), INKHIT_INK_PATH (a decoration, a box, a PangoAttrShape).
 *
 * What is recorded, in the order Pango draws it:
 *   - each glyph (markers keep their number: PANGO_GLYPH_EMPTY, and unknown glyphs, are placements
 *     without ink, followed for an unknown glyph by the ink Pango draws for it: a hex box's frame and
 *     digits, a dot for a space, an arrow for a tab or a line break, an X box for invalid input; none when
 *     the box's lines have no width, as for fonts of about 1 px and less with hinted metrics, where Pango's
 *     box gets lines of width 0 and cairo draws nothing);
 *   - underlines (single, double, low, error), overlines and strikethroughs, as Pango computes them;
 *   - each PangoAttrShape, as its ink rectangle (whether or not a shape renderer draws it).
 * Backgrounds (PangoAttrBackground) are not ink and are not recorded.
 *
 * Fonts. The layout's fonts must come from a PangoCairo fontconfig font map (pango_cairo_font_map_new(),
 * the default one). Each PangoFont gets one inkhit_font, kept with the PangoFont until Pango finalizes it
 * (so inkhit_handle_count() counts them while the font map holds its fonts); its bytes are borrowed from
 * the HarfBuzz blob Pango already holds (no copy). Style, from the font's FcPattern and cairo's font
 * options, as cairo-ft merges them: FC_EMBOLDEN (INKHIT_EMBOLDEN_FREETYPE), the font matrix cairo gets
 * (FC_MATRIX, the size, Pango's gravity: inkhit_glyph_style's matrix), hinting (hint style NONE, SLIGHT
 * -> INKHIT_HINTING_LIGHT, MEDIUM, FULL -> INKHIT_HINTING_FULL), FC_INDEX's named instance and
 * FC_FONT_VARIATIONS then the font options' variations.
 *
 * Limits (documented, not silent): glyphs larger than 10,240 device px, which cairo fills as paths, are
 * still recorded with their origins snapped when asked; FC_AUTOHINT, monochrome (antialias NONE) and
 * subpixel (LCD) hinting are recorded as INKHIT_HINTING_FULL; a CTM that scales x and y differently hints
 * at the y scale (cairo hints at both); colour emoji are hit by their bitmaps' alpha (inkhit.h); vertical
 * text (a vertical gravity: FC_VERTICAL_LAYOUT, where cairo moves each glyph by its vertical bearings) is not
 * reproduced.
 */
#ifndef INKHIT_PANGO_H
#define INKHIT_PANGO_H

#include <inkhit.h>
#include <pango/pango.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Flags of inkhit_pango_add_layout (unknown bits are refused). */
enum {
    /** Round each glyph origin to whole device pixels, half up (floor(v + 0.5)), as cairo 1.16's image
     *  surfaces draw glyphs: the digits of unknown-glyph boxes too (cairo draws them as glyphs). Paths
     *  (decorations, boxes' frames) are not snapped: cairo does not snap them. Set it when you draw to
     *  an image surface with cairo 1.16 (Debian 12, Ubuntu 22.04); leave it off for vector surfaces. */
    INKHIT_PANGO_SNAP_ORIGINS = 1u << 0,
    /** GTK 4's GL renderer (GSK_RENDERER=gl, GTK's default; GtkLabel, GtkText and any widget's PangoLayout drawn
     *  by gtk_snapshot_append_layout): each glyph origin goes to the nearest quarter of a logical px (device px
     *  / scale, ties up), then to a whole device px as cairo draws the glyph into GTK's glyph texture: device
     *  lround(scale * quarter(v / scale)), which is lround(v + 0.125 * scale) for scales 1 and 2 (v in device px).
     *  Hex boxes of unknown glyphs are drawn at that quarter position, centred in their ink width (whole px) +
     *  2 px rather than the advance, their digits on whole device px. Decorations are exact. The transform must
     *  only scale (the widget's scale factor, the same on both axes, a whole number as GTK 4.8's are) and
     *  translate. Not with INKHIT_PANGO_SNAP_ORIGINS (GTK's cairo renderer, GSK_RENDERER=cairo, is
     *  pango_cairo_show_layout on an image surface: that flag). Since 1.3. */
    INKHIT_PANGO_GSK_GL = 1u << 1
};

/** Adds to `builder` what pango_cairo_show_layout() draws for `layout` with the layout's top-left at
 *  (x, y), layout px (cairo's current point), under `transform` (the cairo CTM; NULL: the identity), as
 *  the header comment says, with shapes from `cache` (NULL: the process-wide one). `flags`:
 *  INKHIT_PANGO_SNAP_ORIGINS, INKHIT_PANGO_GSK_GL (the renderer whose rules apply) or 0. Writes how many placements were added to `*added_out` unless it is NULL
 *  (inkless ones included). On failure, the placements added before it stay (as with
 *  inkhit_builder_add_glyphs); the message names what failed.
 *  Owns: nothing of the layout is kept; each PangoFont of the layout keeps its inkhit_font (see "Fonts").
 *  Threads: any, as Pango allows: not on one layout from two threads at once; calls on one builder run one
 *  batch at a time.
 *  Errors: NULL_ARGUMENT (builder, layout); INVALID_HANDLE (builder, cache); INVALID_ARGUMENT (x, y or the
 *  transform not finite, a singular transform, unknown flags or both renderers' flags, a transform that does more than
 *  scale and translate with INKHIT_PANGO_GSK_GL, a font not from a PangoCairo fontconfig font
 *  map); FILE, FONT (a font file that cannot be loaded); GLYPH, SHAPE, PLACEMENT, LIMIT (from the builder). */
inkhit_status inkhit_pango_add_layout(inkhit_builder builder, inkhit_shape_cache cache, PangoLayout *layout, double x,
                                      double y, const inkhit_transform *transform, uint32_t flags, size_t *added_out);

#ifdef __cplusplus
}
#endif

#endif /* INKHIT_PANGO_H */
