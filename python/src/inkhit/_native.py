"""The C interface of libInkHit (inkhit.h) as ctypes declarations: structs field for field, and every function
this package calls with its argument and result types. Not API: use the classes of `inkhit`.

The library is the one inside the package (``inkhit/_lib/libInkHit.so.1``, bundled with the Swift runtime and
FreeType, HarfBuzz and FriBidi by auditwheel), or the file ``$INKHIT_LIBRARY`` names (a development build).
"""
from __future__ import annotations

import ctypes
import os
import sys
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char, c_char_p, c_double, c_float, c_int32, c_int64, c_size_t,
                    c_uint8, c_uint16, c_uint32, c_uint64, c_void_p)

__all__ = ["lib", "library_path", "Point", "Transform", "Rect"]

_HERE = os.path.dirname(os.path.abspath(__file__))


def library_path() -> str:
    """The libInkHit this process loads: ``$INKHIT_LIBRARY``, else the copy inside the package."""
    override = os.environ.get("INKHIT_LIBRARY")
    if override:
        return override
    name = "libInkHit.1.dylib" if sys.platform == "darwin" else "libInkHit.so.1"
    return os.path.join(_HERE, "_lib", name)


def _load() -> ctypes.CDLL:
    path = library_path()
    if not os.path.exists(path):
        raise ImportError("inkhit: %s is missing (a source checkout: build the wheel with `./inkhit wheel`, or set "
                          "INKHIT_LIBRARY to a libInkHit.so.1 that `./inkhit install-c` installed)" % path)
    return ctypes.CDLL(path)


lib = _load()

#: The inkhit.h version this package is written against: the library must have the same MAJOR and at least
#: this MINOR (the ABI rule of inkhit.h).
HEADER_VERSION = (1, 3)

lib.inkhit_version.argtypes = []
lib.inkhit_version.restype = c_uint32
_found = lib.inkhit_version()
if _found // 10000 != HEADER_VERSION[0] or (_found // 100) % 100 < HEADER_VERSION[1]:
    raise ImportError("inkhit: %s is libInkHit %d.%d.%d; this package needs %d.%d or a later 1.x" % (
        library_path(), _found // 10000, (_found // 100) % 100, _found % 100, *HEADER_VERSION))


# --- structs of inkhit.h, field for field (tests/test_structs.py checks every offset against a C compiler) ----

class Point(Structure):
    _fields_ = [("x", c_double), ("y", c_double)]


class Transform(Structure):
    _fields_ = [(n, c_double) for n in ("a", "b", "c", "d", "tx", "ty")]


class Rect(Structure):
    _fields_ = [(n, c_double) for n in ("min_x", "min_y", "max_x", "max_y")]


class FontInfo(Structure):
    _fields_ = [(n, c_int64) for n in ("glyph_count", "units_per_em", "face_index", "face_count", "ascender",
                                        "descender", "height")]


class ShapeCacheInfo(Structure):
    _fields_ = [(n, c_int64) for n in ("glyph_shapes", "outline_shapes", "glyph_bytes", "outline_bytes")]


class GlyphPlacement(Structure):
    _fields_ = [("font", c_void_p), ("glyph", c_uint32), ("size", c_double), ("origin", Point),
                ("transform", Transform)]


class Hit(Structure):
    _fields_ = [("hit", c_int32), ("inside", c_int32), ("placement", c_int64), ("distance", c_double)]


class IndexInfo(Structure):
    _fields_ = [("placements", c_int64), ("unique_shapes", c_int64), ("bytes_beyond_shapes", c_int64),
                ("tolerance", c_double), ("bounds", Rect)]


class Variation(Structure):
    _fields_ = [("tag", c_uint32), ("value", c_float)]


class OriginRoundingAxis(Structure):
    _fields_ = [("grid", c_double), ("bias", c_double)]


class OriginRounding(Structure):
    _fields_ = [("x", OriginRoundingAxis), ("y", OriginRoundingAxis)]


class GlyphStyle(Structure):
    _fields_ = [("struct_size", c_size_t), ("embolden", c_int32), ("hinting", c_int32), ("embolden_x", c_double),
                ("embolden_y", c_double), ("matrix_xx", c_double), ("matrix_xy", c_double), ("matrix_yx", c_double),
                ("matrix_yy", c_double), ("oblique", c_double), ("alpha_threshold", c_double),
                ("stroke_width", c_double), ("stroke_join", c_int32), ("hinting_under_transform", c_int32),
                ("miter_limit", c_double), ("origin_rounding", OriginRounding), ("ppem", c_int32),
                ("stem_darkening", c_int32)]


class SkiaFont(Structure):
    _fields_ = [("struct_size", c_size_t), ("size", c_double), ("scale_x", c_double), ("skew_x", c_double),
                ("hinting", c_int32), ("edging", c_int32), ("embolden", c_int32), ("subpixel", c_int32),
                ("baseline_snap", c_int32), ("force_auto_hinting", c_int32)]


class GlyphRun(Structure):
    _fields_ = [("struct_size", c_size_t), ("font", c_void_p), ("size", c_double), ("origin", Point),
                ("transform", Transform), ("style", POINTER(GlyphStyle)), ("position_scale", c_double),
                ("tag_base", c_uint64)]


class RunGlyph(Structure):
    _fields_ = [("glyph", c_uint32), ("reserved", c_uint32), ("x", c_double), ("y", c_double), ("tag", c_uint64)]


class QtRawFont(Structure):
    """inkhit_qt_raw_font (since 1.3)."""
    _fields_ = [("struct_size", c_size_t), ("pixel_size", c_double), ("hinting", c_int32), ("weight", c_int32),
                ("style", c_int32), ("stretch", c_int32), ("qt_version", c_uint32), ("flags", c_uint32),
                ("probe_glyph", c_uint32), ("probe_bounds", Rect), ("head", POINTER(c_uint8)), ("head_length", c_size_t)]


class HbGlyphInfo(Structure):
    _fields_ = [("codepoint", c_uint32), ("mask", c_uint32), ("cluster", c_uint32), ("var1", c_uint32),
                ("var2", c_uint32)]


class HbGlyphPosition(Structure):
    _fields_ = [("x_advance", c_int32), ("y_advance", c_int32), ("x_offset", c_int32), ("y_offset", c_int32),
                ("var", c_uint32)]


class TextLink(Structure):
    _fields_ = [("start", c_uint64), ("end", c_uint64)]


class TextAttachment(Structure):
    _fields_ = [("at", c_uint64), ("width", c_double), ("ascent", c_double), ("descent", c_double),
                ("corner_radius", c_double)]


class TextRun(Structure):
    """inkhit_text_run (since 1.1, with styled runs)."""
    _fields_ = [("start", c_uint64), ("end", c_uint64), ("set", c_uint32), ("underline", c_int32),
                ("fonts", POINTER(c_uint32)), ("font_count", c_size_t), ("size", c_double),
                ("strikethrough", c_int32), ("overline", c_int32), ("baseline_shift", c_double),
                ("letter_spacing", c_double)]


class Exclusion(Structure):
    """inkhit_exclusion (since 1.1, with styled runs)."""
    _fields_ = [("kind", c_int32), ("rect", Rect), ("path", c_char_p), ("path_length", c_size_t)]


_LAYOUT_OPTIONS_1_0 = [
    ("fonts", POINTER(c_void_p)), ("font_count", c_size_t), ("size", c_double), ("width", c_double),
    ("origin", Point), ("transform", Transform), ("tolerance", c_double), ("links", POINTER(TextLink)),
    ("link_count", c_size_t), ("attachments", POINTER(TextAttachment)), ("attachment_count", c_size_t),
    ("cache", c_void_p), ("max_lines", c_uint32), ("alignment", c_int32), ("direction", c_int32)]

class LayoutOptions(Structure):
    _fields_ = _LAYOUT_OPTIONS_1_0 + [
        ("struct_size", c_uint32), ("runs", POINTER(TextRun)), ("run_count", c_size_t),
        ("exclusions", POINTER(Exclusion)), ("exclusion_count", c_size_t), ("line_height", c_double),
        ("paragraph_spacing", c_double), ("first_line_indent", c_double)]


class LayoutInfo(Structure):
    _fields_ = [(n, c_int64) for n in ("glyph_count", "line_count", "utf16_length", "utf8_length",
                                        "truncated_start", "truncated_end")] + [("bounds", Rect)]


class LayoutGlyph(Structure):
    _fields_ = [("font", c_int64), ("glyph", c_uint32), ("right_to_left", c_uint16), ("ellipsis", c_uint16),
                ("x", c_double), ("y", c_double), ("size", c_double), ("advance", c_double),
                ("utf16_start", c_int64), ("utf16_end", c_int64), ("line", c_int64)]


class LayoutLine(Structure):
    _fields_ = [("box", Rect), ("baseline", c_double), ("utf16_start", c_int64), ("utf16_end", c_int64),
                ("content_box", Rect)]


class LayoutDecoration(Structure):
    """inkhit_layout_decoration (since 1.1, with styled runs)."""
    _fields_ = [("kind", c_int32), ("reserved", c_int32), ("rect", Rect), ("utf16_start", c_int64),
                ("utf16_end", c_int64), ("line", c_int64)]


class TextHit(Structure):
    _fields_ = [("hit", c_int32), ("kind", c_int32)] + [
        (n, c_int64) for n in ("placement", "link", "attachment", "utf16_start", "utf16_end", "utf8_start", "utf8_end",
                               "character", "line")] + [("distance", c_double)]


class Caret(Structure):
    _fields_ = [("found", c_int32), ("affinity", c_int32), ("utf16", c_int64), ("utf8", c_int64), ("line", c_int64)]


class CaretRect(Structure):
    _fields_ = [("found", c_int32), ("affinity", c_int32), ("line", c_int64), ("x", c_double), ("top", c_double),
                ("bottom", c_double), ("view_top", Point), ("view_bottom", Point)]


class Node(Structure):
    _fields_ = [("id", c_uint64), ("transform", Transform), ("bounds", Rect), ("flags", c_uint32),
                ("pointer_events", c_int32), ("alpha", c_double), ("slop_top", c_double), ("slop_left", c_double),
                ("slop_bottom", c_double), ("slop_right", c_double), ("min_width", c_double),
                ("min_height", c_double), ("shape", c_int32), ("fill_rule", c_int32), ("corner_radius", c_double),
                ("verbs", POINTER(c_uint8)), ("verb_count", c_size_t), ("points", POINTER(Point)),
                ("point_count", c_size_t), ("text", c_void_p), ("holes", c_int32)]


class NodeShape(Structure):
    _fields_ = [("struct_size", c_size_t), ("glyphs", POINTER(GlyphPlacement)), ("glyph_count", c_size_t),
                ("holes", c_int32), ("mask_width", c_uint32), ("mask_height", c_uint32),
                ("mask_alpha", POINTER(c_uint8)), ("mask_threshold", c_uint32), ("mask_length", c_size_t)]


class SceneHit(Structure):
    _fields_ = [("hit", c_int32), ("inside", c_int32), ("node", c_uint64), ("depth", c_int64), ("local", Point),
                ("distance", c_double), ("placement", c_int64), ("text", TextHit)]


#: void (*inkhit_job_emit_func)(void *user_data, const char *line, size_t length)
JobEmit = CFUNCTYPE(None, c_void_p, POINTER(c_char), c_size_t)
#: void (*inkhit_job_warn_func)(void *user_data, const char *message, size_t length)
JobWarn = CFUNCTYPE(None, c_void_p, POINTER(c_char), c_size_t)
#: void (*inkhit_release_func)(void *user_data)
ReleaseFunc = CFUNCTYPE(None, c_void_p)

#: The job runner's limits, in inkhit_job_runner_options' order (each a size_t; 0: the default).
JOB_LIMITS = ("max_line_bytes", "max_glyphs", "max_text_length", "max_links", "max_runs_and_exclusions", "max_nodes",
              "max_points", "max_fonts", "max_string_bytes", "max_output_bytes_per_job", "max_font_bytes_per_job",
              "max_shape_bytes_per_job")


class JobRunnerOptions(Structure):
    """inkhit_job_runner_options (since 1.2)."""
    _fields_ = [("struct_size", c_size_t), ("tolerance", c_double), ("max_seconds_per_job", c_double)] + [
        (n, c_size_t) for n in JOB_LIMITS] + [("strict", c_int32), ("warn", JobWarn), ("warn_user_data", c_void_p)]


class Limits(Structure):
    _fields_ = [("max_seconds_per_call", c_double), ("max_shape_bytes_per_call", c_uint64)]

# --- functions ---------------------------------------------------------------------------------------------

_status = c_int32
_handle = c_void_p
_P = POINTER

_FUNCTIONS = {
    "inkhit_font_from_path": [c_char_p, c_int32, _P(_handle)],
    "inkhit_font_from_bytes": [c_char_p, c_size_t, c_int32, _P(_handle)],
    "inkhit_font_get_info": [_handle, _P(FontInfo)],
    "inkhit_font_glyph": [_handle, c_uint32, _P(c_uint32)],
    "inkhit_font_advance": [_handle, c_uint32, _P(c_double)],
    "inkhit_font_release": [_handle],
    "inkhit_font_with_variations": [_handle, _P(Variation), c_size_t, _P(_handle)],
    "inkhit_font_get_variations": [_handle, _P(Variation), c_size_t, _P(c_size_t)],
    "inkhit_shape_cache_create": [c_size_t, _P(_handle)],
    "inkhit_shape_cache_get_info": [_handle, _P(ShapeCacheInfo)],
    "inkhit_shape_cache_clear": [_handle],
    "inkhit_shape_cache_release": [_handle],
    "inkhit_builder_create": [c_double, _P(_handle)],
    "inkhit_builder_set_prepared_radius": [_handle, c_double],
    "inkhit_builder_set_shape_forms": [_handle, c_int32],
    "inkhit_builder_add_glyph": [_handle, _handle, _P(GlyphPlacement), _P(c_size_t)],
    "inkhit_builder_add_glyphs": [_handle, _handle, _P(GlyphPlacement), c_size_t, _P(c_size_t)],
    "inkhit_builder_add_outline": [_handle, _handle, c_uint64, c_void_p, c_size_t, c_void_p, c_size_t, c_int32,
                                   _P(Transform), _P(c_size_t)],
    "inkhit_builder_count": [_handle, _P(c_size_t)],
    "inkhit_builder_build": [_handle, _P(_handle)],
    "inkhit_builder_release": [_handle],
    "inkhit_builder_add_run": [_handle, _handle, _P(GlyphRun), c_void_p, c_size_t, _P(c_size_t)],
    "inkhit_builder_add_shaped": [_handle, _handle, _P(GlyphRun), c_void_p, c_void_p, c_size_t, _P(Point),
                                  _P(c_size_t)],
    "inkhit_builder_set_tag": [_handle, c_size_t, c_uint64],
    "inkhit_glyph_style_init_sized": [_P(GlyphStyle), c_size_t],
    "inkhit_glyph_run_init": [_P(GlyphRun)],
    "inkhit_index_hit": [_handle, c_double, c_double, c_double, _P(Hit)],
    "inkhit_index_hits": [_handle, c_void_p, c_size_t, c_double, c_void_p],
    "inkhit_index_contains": [_handle, c_double, c_double, _P(c_int32)],
    "inkhit_index_topmost": [_handle, c_double, c_double, _P(c_int64)],
    "inkhit_index_get_info": [_handle, _P(IndexInfo)],
    "inkhit_index_placement_tag": [_handle, c_int64, _P(c_uint64)],
    "inkhit_index_placement_ink": [_handle, c_int64, _P(c_int32)],
    "inkhit_index_release": [_handle],
    "inkhit_layout_options_init": [_P(LayoutOptions)],
    "inkhit_layout_create_utf8": [c_char_p, c_size_t, _P(LayoutOptions), _P(_handle)],
    "inkhit_layout_get_info": [_handle, _P(LayoutInfo)],
    "inkhit_layout_glyphs": [_handle, c_size_t, c_size_t, c_void_p],
    "inkhit_layout_lines": [_handle, c_size_t, c_size_t, c_void_p],
    "inkhit_layout_hit": [_handle, c_double, c_double, c_double, c_int32, _P(TextHit)],
    "inkhit_layout_link_hit": [_handle, c_double, c_double, c_double, _P(TextHit)],
    "inkhit_layout_caret": [_handle, c_double, c_double, _P(Caret)],
    "inkhit_layout_caret_rect": [_handle, c_uint64, c_int32, _P(CaretRect)],
    "inkhit_layout_release": [_handle],
    "inkhit_node_init": [_P(Node), c_uint64],
    "inkhit_scene_create": [_P(Node), _P(_handle)],
    "inkhit_scene_add": [_handle, c_uint64, _P(Node)],
    "inkhit_scene_update": [_handle, _P(Node)],
    "inkhit_scene_set_transform": [_handle, c_uint64, _P(Transform)],
    "inkhit_scene_remove": [_handle, c_uint64],
    "inkhit_scene_path": [_handle, c_uint64, _P(c_uint64), c_size_t, _P(c_size_t)],
    "inkhit_scene_count": [_handle, _P(c_size_t)],
    "inkhit_scene_snapshot": [_handle, c_double, _P(_handle)],
    "inkhit_scene_release": [_handle],
    "inkhit_snapshot_hit": [_handle, c_double, c_double, c_double, _P(SceneHit)],
    "inkhit_snapshot_hits": [_handle, c_void_p, c_size_t, c_double, c_void_p],
    "inkhit_snapshot_release": [_handle],
}
_FUNCTIONS.update({
    "inkhit_font_instance_count": [_handle, _P(c_size_t)],
    "inkhit_font_instance_name": [_handle, c_size_t, c_char_p, c_size_t, _P(c_size_t)],
    "inkhit_font_find_instance": [_handle, c_char_p, _P(c_size_t)],
    "inkhit_font_with_instance": [_handle, c_size_t, _P(_handle)],
    "inkhit_builder_add_glyphs_numbered": [_handle, _handle, _P(GlyphPlacement), c_size_t, _P(c_size_t), _P(c_size_t)],
    "inkhit_builder_add_run_numbered": [_handle, _handle, _P(GlyphRun), c_void_p, c_size_t, _P(c_size_t), _P(c_size_t)],
    "inkhit_builder_add_shaped_numbered": [_handle, _handle, _P(GlyphRun), c_void_p, c_void_p, c_size_t, _P(Point),
                                           _P(c_size_t), _P(c_size_t)],
    "inkhit_index_hit_batch": [_handle, c_void_p, c_size_t, c_double, c_int32, c_void_p, _P(c_size_t)],
    "inkhit_layout_options_init_sized": [_P(LayoutOptions), c_size_t],
    "inkhit_layout_decoration_count": [_handle, _P(c_size_t)],
    "inkhit_layout_decorations": [_handle, c_size_t, c_size_t, c_void_p],
    "inkhit_layout_hit_decoration": [_handle, c_double, c_double, c_double, _P(TextHit), _P(c_int64)],
    "inkhit_job_runner_options_init": [_P(JobRunnerOptions)],
    "inkhit_job_runner_create_with_options": [_P(JobRunnerOptions), _P(_handle)],
    "inkhit_job_runner_run": [_handle, c_char_p, c_size_t, JobEmit, c_void_p, _P(c_size_t), _P(c_size_t)],
    "inkhit_job_runner_release": [_handle],
    "inkhit_node_shape_init": [_P(NodeShape)],
    "inkhit_scene_add_shaped": [_handle, c_uint64, _P(Node), _P(NodeShape)],
    "inkhit_scene_update_shaped": [_handle, _P(Node), _P(NodeShape)],
    "inkhit_snapshot_hit_batch": [_handle, c_void_p, c_size_t, c_double, c_int32, c_void_p, _P(c_size_t)],
    "inkhit_limits_get": [_P(Limits)],
    "inkhit_limits_set": [_P(Limits)],
    "inkhit_builder_add_path": [_handle, _handle, c_uint64, c_void_p, c_size_t, c_void_p, c_size_t, c_void_p, c_size_t,
                                c_uint32, c_int32, _P(Transform), _P(c_size_t)],
    "inkhit_skia_font_init_sized": [_P(SkiaFont), c_size_t],
    "inkhit_glyph_style_for_skia": [_P(SkiaFont), _P(Transform), _P(GlyphStyle)],
    # Qt's raster engine (1.3).
    "inkhit_qt_raw_font_init_sized": [_P(QtRawFont), c_size_t],
    "inkhit_qt_hinting": [c_int32, c_int32, c_int32, _P(c_int32)],
    "inkhit_qt_glyph_style": [_handle, _P(QtRawFont), _P(Transform), _P(GlyphStyle), _P(c_int32)],
    "inkhit_builder_add_qt_glyph_run": [_handle, _handle, _handle, _P(QtRawFont), _P(Transform), Point, c_void_p, c_size_t,
                                        _P(c_size_t), _P(c_size_t)],
})

for _name, _args in _FUNCTIONS.items():
    _f = getattr(lib, _name)
    _f.argtypes = _args
    _f.restype = _status

lib.inkhit_last_error.argtypes = []
lib.inkhit_last_error.restype = c_char_p
lib.inkhit_status_name.argtypes = [c_int32]
lib.inkhit_status_name.restype = c_char_p
lib.inkhit_version_string.argtypes = []
lib.inkhit_version_string.restype = c_char_p
lib.inkhit_handle_count.argtypes = []
lib.inkhit_handle_count.restype = c_size_t

# Constants of inkhit.h.
NON_FINITE = {"miss": 0, "error": 1}
GLYPH_EMPTY = 0x0FFFFFFF
GLYPH_UNKNOWN_FLAG = 0x10000000
DEFAULT_PREPARED_RADIUS = 3.5
MAX_PREPARED_RADIUS = 256.0
VIEW_LIMIT = 1e9                   # INKHIT_VIEW_LIMIT
IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

