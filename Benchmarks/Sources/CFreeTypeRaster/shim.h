// Not API: the system FreeType headers for the benchmarks' FreeType baselines (the coverage bitmap, and the
// load + render of glyphs met for the first time), seen by Swift as the module `CFreeTypeRaster`. Include
// paths come from pkg-config (`freetype2`); see README.md.
#ifndef INKHIT_BENCH_CFREETYPERASTER_SHIM_H
#define INKHIT_BENCH_CFREETYPERASTER_SHIM_H

#include <stdint.h>
#include <stdlib.h>

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_IMAGE_H

/// What `inkbench_ft_load_render` did.
typedef struct {
    /// Glyphs loaded and rendered without error.
    int64_t rendered;
    /// Bytes of the rendered 8-bit coverage bitmaps: rows × |pitch| summed over the rendered glyphs.
    int64_t bitmapBytes;
    /// The first FreeType error (0: none) and the glyph that raised it.
    int error;
    unsigned failedGlyph;
} InkBenchFTRun;

/// What a renderer does for each glyph it meets: `FT_Load_Glyph(face, g, FT_LOAD_NO_HINTING)` (the outline
/// scaled to the face's current size, unhinted) and `FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL)` (8-bit
/// anti-aliased coverage), for each of `count` glyph ids in order. The size is set beforehand with
/// `FT_Set_Char_Size`. A glyph that fails is counted in `error` and skipped.
static inline InkBenchFTRun inkbench_ft_load_render(FT_Face face, const unsigned *glyphs, long count) {
    InkBenchFTRun run = {0, 0, 0, 0};
    for (long i = 0; i < count; i++) {
        FT_Error e = FT_Load_Glyph(face, glyphs[i], FT_LOAD_NO_HINTING);
        if (e == 0) e = FT_Render_Glyph(face->glyph, FT_RENDER_MODE_NORMAL);
        if (e != 0) {
            if (run.error == 0) { run.error = e; run.failedGlyph = glyphs[i]; }
            continue;
        }
        run.rendered += 1;
        run.bitmapBytes += (int64_t)face->glyph->bitmap.rows * (int64_t)abs(face->glyph->bitmap.pitch);
    }
    return run;
}

#endif
