"""The ctypes declarations are inkhit.h's structs field for field: a C program compiled against the repository's
header prints every struct's size and every field's offset, and they must equal ctypes' (the compiler is the
oracle). Also the numpy record types laid over C structs (HIT_DTYPE, SCENE_HIT_DTYPE, RUN_GLYPH_DTYPE)."""
from __future__ import annotations

import ctypes
import os
import subprocess

import pytest

import inkhit
from inkhit import _native as N
from conftest import which
from glyph_jobs import REPO

STRUCTS = {
    "inkhit_point": N.Point, "inkhit_transform": N.Transform, "inkhit_rect": N.Rect, "inkhit_font_info": N.FontInfo,
    "inkhit_shape_cache_info": N.ShapeCacheInfo, "inkhit_glyph_placement": N.GlyphPlacement, "inkhit_hit": N.Hit,
    "inkhit_index_info": N.IndexInfo, "inkhit_variation": N.Variation, "inkhit_glyph_style": N.GlyphStyle,
    "inkhit_glyph_run": N.GlyphRun, "inkhit_run_glyph": N.RunGlyph, "inkhit_hb_glyph_info": N.HbGlyphInfo,
    "inkhit_hb_glyph_position": N.HbGlyphPosition, "inkhit_text_link": N.TextLink,
    "inkhit_text_attachment": N.TextAttachment, "inkhit_layout_options": N.LayoutOptions,
    "inkhit_layout_info": N.LayoutInfo, "inkhit_layout_glyph": N.LayoutGlyph, "inkhit_layout_line": N.LayoutLine,
    "inkhit_text_hit": N.TextHit, "inkhit_caret": N.Caret, "inkhit_caret_rect": N.CaretRect, "inkhit_node": N.Node,
    "inkhit_scene_hit": N.SceneHit, "inkhit_text_run": N.TextRun, "inkhit_exclusion": N.Exclusion,
    "inkhit_layout_decoration": N.LayoutDecoration, "inkhit_node_shape": N.NodeShape,
    "inkhit_job_runner_options": N.JobRunnerOptions, "inkhit_limits": N.Limits, "inkhit_skia_font": N.SkiaFont,
    "inkhit_origin_rounding": N.OriginRounding, "inkhit_qt_raw_font": N.QtRawFont,
}


@pytest.fixture(scope="module")
def c_layout(tmp_path_factory: pytest.TempPathFactory) -> dict:
    cc = which("cc")
    assert cc, "no C compiler (./inkhit deps installs gcc)"
    lines = ["#include <inkhit.h>", "#include <stdio.h>", "#include <stddef.h>", "int main(void) {"]
    for name, struct in STRUCTS.items():
        lines.append('printf("%s %%zu\\n", sizeof(%s));' % (name, name))
        for field, _ in struct._fields_:
            lines.append('printf("%s.%s %%zu\\n", offsetof(%s, %s));' % (name, field, name, field))
    # The 1.0 names of fields that 1.3 renamed (the same storage, a union in the header).
    for name, field in [("inkhit_text_hit", "glyph"), ("inkhit_scene_hit", "glyph")]:
        lines.append('printf("%s.%s %%zu\\n", offsetof(%s, %s));' % (name, field, name, field))
    lines += ["return 0;", "}"]
    work = tmp_path_factory.mktemp("structs")
    (work / "layout.c").write_text("\n".join(lines))
    subprocess.run([cc, "-std=c11", "-I", os.path.join(REPO, "Sources", "CInkHit", "include"), str(work / "layout.c"),
                    "-o", str(work / "layout")], check=True)
    out = subprocess.run([str(work / "layout")], check=True, capture_output=True, text=True).stdout
    return {k: int(v) for k, v in (line.split() for line in out.splitlines())}


@pytest.mark.parametrize("name", sorted(STRUCTS))
def test_struct_matches_the_header(name: str, c_layout: dict) -> None:
    struct = STRUCTS[name]
    assert ctypes.sizeof(struct) == c_layout[name]
    for field, _ in struct._fields_:
        assert getattr(struct, field).offset == c_layout["%s.%s" % (name, field)], field


def test_record_dtypes_lie_over_the_structs(c_layout: dict) -> None:
    assert inkhit.HIT_DTYPE.itemsize == c_layout["inkhit_hit"]
    assert inkhit.HIT_DTYPE.fields["placement"][1] == c_layout["inkhit_hit.placement"]
    assert inkhit.HIT_DTYPE.fields["distance"][1] == c_layout["inkhit_hit.distance"]
    assert inkhit.SCENE_HIT_DTYPE.itemsize == c_layout["inkhit_scene_hit"]
    text = c_layout["inkhit_scene_hit.text"]
    # The 1.0 names (glyph, text_glyph) lie on the same fields as placement and text_placement, as in C's unions.
    for ours, theirs in [("node", "node"), ("depth", "depth"), ("distance", "distance"), ("placement", "placement"),
                         ("glyph", "glyph")]:
        assert inkhit.SCENE_HIT_DTYPE.fields[ours][1] == c_layout["inkhit_scene_hit." + theirs]
    for ours, theirs in [("link", "link"), ("utf8_end", "utf8_end"), ("line", "line"), ("text_distance", "distance"),
                         ("text_placement", "placement"), ("text_glyph", "glyph")]:
        assert inkhit.SCENE_HIT_DTYPE.fields[ours][1] == text + c_layout["inkhit_text_hit." + theirs]
    assert inkhit.RUN_GLYPH_DTYPE.itemsize == c_layout["inkhit_run_glyph"]
    assert inkhit.RUN_GLYPH_DTYPE.fields["tag"][1] == c_layout["inkhit_run_glyph.tag"]
    assert inkhit.HB_GLYPH_INFO_DTYPE.itemsize == c_layout["inkhit_hb_glyph_info"]
    assert inkhit.HB_GLYPH_POSITION_DTYPE.itemsize == c_layout["inkhit_hb_glyph_position"]
