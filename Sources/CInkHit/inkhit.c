// The functions of inkhit.h written in C (the rest are Swift, Sources/InkHitC), and compile-time checks of
// the ABI: the sizes and offsets below are what the library was released with. A change that breaks one
// breaks the ABI rule in inkhit.h: add a new struct instead (or, for a struct with a size field such as
// inkhit_layout_options, new fields after the ones it had).
#include "inkhit.h"
#include "inkhit_runtime.h"

#include <stddef.h>
#include <string.h>

#define INKHIT_STRING2(x) #x
#define INKHIT_STRING(x) INKHIT_STRING2(x)

uint32_t inkhit_version(void) { return INKHIT_VERSION; }

const char *inkhit_version_string(void) {
    return INKHIT_STRING(INKHIT_VERSION_MAJOR) "." INKHIT_STRING(INKHIT_VERSION_MINOR) "." INKHIT_STRING(INKHIT_VERSION_PATCH);
}

const char *inkhit_last_error(void) { return ihr_error(); }

size_t inkhit_handle_count(void) { return ihr_live_count(); }

inkhit_status inkhit_report_error(inkhit_status status, const char *message) {
    if (message == NULL) message = "";
    ihr_set_error(message, strlen(message));
    return status;
}

const char *inkhit_status_name(inkhit_status status) {
    switch (status) {
    case INKHIT_OK: return "INKHIT_OK";
    case INKHIT_ERROR_NULL_ARGUMENT: return "INKHIT_ERROR_NULL_ARGUMENT";
    case INKHIT_ERROR_INVALID_HANDLE: return "INKHIT_ERROR_INVALID_HANDLE";
    case INKHIT_ERROR_INVALID_ARGUMENT: return "INKHIT_ERROR_INVALID_ARGUMENT";
    case INKHIT_ERROR_INVALID_TEXT: return "INKHIT_ERROR_INVALID_TEXT";
    case INKHIT_ERROR_FILE: return "INKHIT_ERROR_FILE";
    case INKHIT_ERROR_FONT: return "INKHIT_ERROR_FONT";
    case INKHIT_ERROR_GLYPH: return "INKHIT_ERROR_GLYPH";
    case INKHIT_ERROR_SHAPE: return "INKHIT_ERROR_SHAPE";
    case INKHIT_ERROR_PLACEMENT: return "INKHIT_ERROR_PLACEMENT";
    case INKHIT_ERROR_LAYOUT: return "INKHIT_ERROR_LAYOUT";
    case INKHIT_ERROR_SCENE: return "INKHIT_ERROR_SCENE";
    case INKHIT_ERROR_LIMIT: return "INKHIT_ERROR_LIMIT";
    default: return "INKHIT_UNKNOWN_STATUS";
    }
}

// MARK: The ABI of version 1 (x86-64 and arm64 Linux and macOS: LP64).

_Static_assert(sizeof(inkhit_status) == 4, "inkhit_status");
_Static_assert(sizeof(inkhit_point) == 16, "inkhit_point");
_Static_assert(sizeof(inkhit_transform) == 48, "inkhit_transform");
_Static_assert(sizeof(inkhit_rect) == 32, "inkhit_rect");
_Static_assert(sizeof(inkhit_font_info) == 56, "inkhit_font_info");
_Static_assert(sizeof(inkhit_shape_cache_info) == 32, "inkhit_shape_cache_info");
_Static_assert(sizeof(inkhit_glyph_placement) == 88, "inkhit_glyph_placement");
_Static_assert(offsetof(inkhit_glyph_placement, transform) == 40, "inkhit_glyph_placement.transform");
_Static_assert(sizeof(inkhit_hit) == 24, "inkhit_hit");
_Static_assert(sizeof(inkhit_index_info) == 64, "inkhit_index_info");
_Static_assert(sizeof(inkhit_text_link) == 16, "inkhit_text_link");
_Static_assert(sizeof(inkhit_text_attachment) == 40, "inkhit_text_attachment");
_Static_assert(offsetof(inkhit_layout_options, max_lines) == 144, "inkhit_layout_options.max_lines");
// inkhit_layout_options grew in 1.1: version 1.0's 160 bytes keep their offsets; `struct_size` lies in what
// was 1.0's tail padding, so a 1.0 caller's struct holds it.
_Static_assert(offsetof(inkhit_layout_options, struct_size) == 156, "inkhit_layout_options.struct_size");
_Static_assert(offsetof(inkhit_layout_options, runs) == 160, "inkhit_layout_options.runs (1.0 ended at 160)");
_Static_assert(sizeof(inkhit_layout_options) == 216, "inkhit_layout_options");
_Static_assert(sizeof(inkhit_text_run) == 72, "inkhit_text_run");
_Static_assert(sizeof(inkhit_exclusion) == 56, "inkhit_exclusion");
_Static_assert(sizeof(inkhit_layout_decoration) == 64, "inkhit_layout_decoration");
_Static_assert(sizeof(inkhit_layout_info) == 80, "inkhit_layout_info");
_Static_assert(sizeof(inkhit_layout_glyph) == 72, "inkhit_layout_glyph");
_Static_assert(sizeof(inkhit_layout_line) == 88, "inkhit_layout_line");
_Static_assert(sizeof(inkhit_text_hit) == 88, "inkhit_text_hit");
_Static_assert(sizeof(inkhit_caret) == 32, "inkhit_caret");
_Static_assert(sizeof(inkhit_caret_rect) == 72, "inkhit_caret_rect");
_Static_assert(sizeof(inkhit_node) == 216, "inkhit_node");
_Static_assert(offsetof(inkhit_node, holes) == 208, "inkhit_node.holes");
_Static_assert(sizeof(inkhit_scene_hit) == 144, "inkhit_scene_hit");

// Since 1.1: the growable structs (a leading struct_size) and the ones laid out as HarfBuzz's.
_Static_assert(sizeof(inkhit_variation) == 8, "inkhit_variation (hb_variation_t)");
_Static_assert(offsetof(inkhit_glyph_style, alpha_threshold) == 72, "inkhit_glyph_style.alpha_threshold");
// inkhit_glyph_style grew in 1.2: version 1.1's 80 bytes keep their offsets; the new fields follow them.
_Static_assert(offsetof(inkhit_glyph_style, stroke_width) == 80, "inkhit_glyph_style.stroke_width (1.1 ended at 80)");
_Static_assert(offsetof(inkhit_glyph_style, origin_rounding) == 104, "inkhit_glyph_style.origin_rounding");
_Static_assert(sizeof(inkhit_glyph_style) == 144, "inkhit_glyph_style");
_Static_assert(sizeof(inkhit_origin_rounding) == 32, "inkhit_origin_rounding");
_Static_assert(sizeof(inkhit_glyph_run) == 112, "inkhit_glyph_run");
_Static_assert(offsetof(inkhit_glyph_run, tag_base) == 104, "inkhit_glyph_run.tag_base");
_Static_assert(sizeof(inkhit_run_glyph) == 32, "inkhit_run_glyph");
_Static_assert(sizeof(inkhit_hb_glyph_info) == 20, "inkhit_hb_glyph_info (hb_glyph_info_t)");
_Static_assert(sizeof(inkhit_hb_glyph_position) == 20, "inkhit_hb_glyph_position (hb_glyph_position_t)");
_Static_assert(offsetof(inkhit_hb_glyph_info, cluster) == 8, "inkhit_hb_glyph_info.cluster");
_Static_assert(offsetof(inkhit_hb_glyph_position, y_offset) == 12, "inkhit_hb_glyph_position.y_offset");
