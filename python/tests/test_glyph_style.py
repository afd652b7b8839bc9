"""GlyphStyle's values as the docs state them: what each embolden value grows (FreeType's right and up only, a
stroke on every side), a bool refused, and the renderer fields (origin rounding, stroke joins, hinting under
transforms, ppem, stem darkening, the ecosystems' hinting names) each answering as the job format's member of the
same name through ink-hit."""
from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest

import inkhit
from skia_check import DEJAVU


def _edges(style: inkhit.GlyphStyle) -> tuple:
    """The ink's left, right, top and bottom edges of an 'l' at 40 px (origin (20.3, 60)), by bisection on
    horizontal and vertical lines through its stem."""
    font = inkhit.Font(DEJAVU)
    builder = inkhit.Builder()
    builder.add_glyph(font, font.glyph("l"), 40, origin=(20.3, 60), style=style)
    index = builder.build()

    def edge(inside: tuple, outside: tuple) -> float:
        a, b = np.array(inside, float), np.array(outside, float)
        assert index.hit(*a) is not None and index.hit(*b) is None
        for _ in range(50):
            m = (a + b) / 2
            if index.hit(*m) is not None:
                a = m
            else:
                b = m
        return float(np.abs(a - np.array(inside)).max())
    centre = (20.3 + font.advance(font.glyph("l")) * 40 / font.units_per_em / 2, 45.0)
    cx, cy = centre
    return (edge(centre, (cx - 10, cy)), edge(centre, (cx + 10, cy)), edge((cx, 45.0), (cx, 10.0)),
            edge((cx, 59.0), (cx, 70.0)))


def test_embolden_values_grow_what_the_docs_say() -> None:
    thin = _edges(inkhit.GlyphStyle(embolden={"stroke": 0.0}))
    freetype = _edges(inkhit.GlyphStyle(embolden="freetype"))
    # FT_GlyphSlot_Embolden at 40 px: 40/24 px, the ink grows right and up only.
    assert freetype[0] == pytest.approx(thin[0], abs=0.02) and freetype[3] == pytest.approx(thin[3], abs=0.02)
    assert freetype[1] - thin[1] == pytest.approx(40 / 24, abs=0.05) and freetype[2] - thin[2] == pytest.approx(40 / 24, abs=0.05)
    stroke = _edges(inkhit.GlyphStyle(embolden={"stroke": 2.0, "join": "round"}))
    assert all(s - t == pytest.approx(1.0, abs=0.02) for s, t in zip(stroke, thin)), "a stroke grows every side by half"
    skia = _edges(inkhit.GlyphStyle(embolden="skia"))
    assert all(s - t == pytest.approx(40 / 32 / 2, abs=0.02) for s, t in zip(skia, thin))
    with pytest.raises(TypeError):
        inkhit.GlyphStyle(embolden=True)._struct()
    with pytest.raises(inkhit.InvalidArgumentError):
        inkhit.GlyphStyle(embolden={"stroke": 1, "width": 2})._struct()


_FIELDS = [
    ({"originRounding": "quarterPixelX"}, {"origin_rounding": "quarterPixelX"}),
    ({"originRounding": {"x": {"grid": 0.25, "bias": 0.015625}, "y": "wholePixel"}}, {"origin_rounding": ((0.25, 1 / 64), (1, 0.5))}),
    ({"embolden": {"stroke": 1.3, "join": "bevel"}}, {"embolden": {"stroke": 1.3, "join": "bevel"}}),
    ({"embolden": "skia", "hinting": "normal"}, {"embolden": "skia", "hinting": "normal"}),
    ({"hinting": "full", "matrix": [1, 0.25, 0, 1], "hintingUnderTransform": "offWhenNotAxisAligned"},
     {"hinting": "full", "matrix": (1, 0.25, 0, 1), "hinting_under_transform": "offWhenNotAxisAligned"}),
    ({"hinting": "slight", "matrix": [1.3, 0, 0, 1], "ppem": "perAxis"}, {"hinting": "slight", "matrix": (1.3, 0, 0, 1), "ppem": "perAxis"}),
    ({"hinting": "full", "ppem": "view"}, {"hinting": "full", "ppem": "view"}),
    ({"hinting": "mono"}, {"hinting": "mono"}),
    ({"stemDarkening": True, "hinting": "light"}, {"stem_darkening": True, "hinting": "light"}),
]


@pytest.mark.parametrize("job_members, fields", _FIELDS)
def test_each_field_answers_as_the_job_member(job_members: dict, fields: dict, ink_hit: str) -> None:
    font = inkhit.Font("/usr/share/fonts/opentype/cantarell/Cantarell-Regular.otf")
    glyphs = [font.glyph(c) for c in "gRa"]
    origins = [(10.37 + 11.3 * i, 30.61 + 0.29 * i) for i in range(3)]
    transform = (1.5, 0, 0, 1.5, 0.2, 0.1)
    xs, ys = np.meshgrid(np.arange(10, 70, 0.37), np.arange(15, 50, 0.31))
    points = np.stack([xs.ravel(), ys.ravel()], axis=1)
    for style in (inkhit.GlyphStyle(**fields), inkhit.GlyphStyle.of(job_members)):
        builder = inkhit.Builder()
        builder.add_glyphs(font, glyphs, origins, 14, transform=transform, style=style)
        ours = builder.build().hits(points)["hit"]
        job = {"id": 1, "fonts": [dict({"path": "/usr/share/fonts/opentype/cantarell/Cantarell-Regular.otf"}, **job_members)],
               "size": 14, "glyphs": [{"font": 0, "id": g, "x": x, "y": y} for g, (x, y) in zip(glyphs, origins)],
               "transform": list(transform), "points": points.tolist()}
        out = subprocess.run([ink_hit, "query", "--strict", "-"], input=json.dumps(job) + "\n", capture_output=True,
                             text=True, check=True).stdout.splitlines()
        theirs = np.array([json.loads(line)["hit"] for line in out])
        assert (ours == theirs).all(), (fields, int((ours != theirs).sum()))
    assert ours.sum() > 500
