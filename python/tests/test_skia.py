"""inkhit.skia against Skia's own pixels (skia-python 144.1, A8 surfaces): the glyphs Skia drew, added with
``inkhit.skia.add_glyphs``, answer every clear pixel (coverage <= 5 or >= 250) whose centre lies at least 0.05 px
from InkHit's outline as Skia drew it. A representative grid: TrueType (DejaVu), CFF (Cantarell), CJK (Droid),
a variable font at a non-default weight (Inter at wght 650); every hinting level, subpixel positioning on and off,
fake bold, skewX, scaleX, 2×, 1.5×, rotated, quarter-turned, stretched and skewed canvases, large glyphs Skia
draws as paths. Each rule is also shown to matter: without it the same pixels disagree. The larger random sweep
is python/tests/skia_check.py, run by hand.

The style comes from the library (inkhit_glyph_style_for_skia), so these tests test the C rules a C++ Skia host
uses too.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
import skia

import inkhit
import inkhit.skia
from skia_check import CANTARELL, DEJAVU, DROID, INTER, SERIF, Case, check, draw, judge

_GRID = [
    # Fonts × every hinting level, subpixel on and off.
    *[Case(path, size, hinting, subpixel=(k % 2 == 1), wght=650 if path == INTER else None, with_source=(k % 3 == 0))
      for path, sizes in ((DEJAVU, (12, 17, 24.7, 36)), (CANTARELL, (13.5, 17, 24.7, 36)), (DROID, (12, 17, 24.7, 36)),
                          (INTER, (12, 17, 24.7, 36)))
      for k, (hinting, size) in enumerate(zip(("none", "slight", "normal", "full"), sizes))],
    # Fake bold at the ratio's ends and between, skew, scaleX.
    Case(DEJAVU, 12, "normal", embolden=True), Case(DEJAVU, 64, "none", subpixel=True, embolden=True),
    Case(SERIF, 36, "slight", embolden=True), Case(CANTARELL, 24.7, "normal", subpixel=True, embolden=True),
    Case(INTER, 17, "normal", embolden=True, wght=650), Case(DROID, 24.7, "none", embolden=True),
    Case(DEJAVU, 17, "normal", skew_x=-0.25), Case(INTER, 24.7, "slight", subpixel=True, skew_x=0.2, wght=300),
    Case(DEJAVU, 17, "normal", scale_x=1.3), Case(INTER, 13.5, "slight", scale_x=1.3),
    Case(CANTARELL, 17, "full", subpixel=True, scale_x=0.8), Case(SERIF, 17, "normal", embolden=True, skew_x=-0.25),
    Case(DEJAVU, 12.7, "slight"), Case(DEJAVU, 17, "normal", subpixel=True, baseline_snap=False),
    Case(CANTARELL, 17, "normal", edging="subpixelAntiAlias"),
    # Canvases.
    Case(DEJAVU, 17, "normal", canvas="2x"), Case(SERIF, 13.5, "full", subpixel=True, embolden=True, canvas="2x"),
    Case(CANTARELL, 17, "slight", canvas="1.5x"), Case(DEJAVU, 17, "normal", subpixel=True, canvas="rotated 30"),
    Case(INTER, 24.7, "normal", embolden=True, canvas="rotated 30", wght=650),
    Case(DROID, 17, "slight", subpixel=True, canvas="rotated -17, 2x"),
    Case(DEJAVU, 17, "full", subpixel=True, canvas="quarter turn"),
    Case(SERIF, 24.7, "normal", embolden=True, scale_x=1.3, canvas="stretched 1.7 x 1.2"),
    Case(DEJAVU, 17, "normal", subpixel=True, canvas="skewed"),
    # Large glyphs: Skia draws them as paths (over 256 device px per em).
    Case(DEJAVU, 130, "normal", embolden=True, canvas="2x"),
]


def test_skias_pixels_over_the_grid() -> None:
    cache = inkhit.ShapeCache()
    total_judged = 0
    failures = []
    for case in _GRID:
        judged, wrong, first = check(case, cache)
        total_judged += judged
        assert judged > 1000, "%s: only %d pixels judged" % (case, judged)
        if wrong:
            failures.append("%s: %d of %d wrong, first %s" % (case, wrong, judged, first))
    assert not failures, "\n".join(failures)
    assert total_judged > 500_000


def _judge_with(case: Case, change) -> int:
    """Wrong pixels of `case` with the library's style changed by `change(style) -> style` (positions and canvas
    as inkhit.skia gives them)."""
    pixels, font, glyphs, xy, total = draw(case)
    t = inkhit.skia.transform_of(total)
    style = change(inkhit.skia.glyph_style(font, t))
    builder = inkhit.Builder()
    builder.add_glyphs(inkhit.Font(case.path, variations={"wght": case.wght} if case.wght else None), glyphs, xy,
                       case.size, transform=t, style=style)
    return judge(pixels, builder.build())[1]


_R = dataclasses.replace


@pytest.mark.parametrize("cases, change, what", [
    ([Case(p, s, "none") for p in (DEJAVU, SERIF, INTER, CANTARELL) for s in (12, 17, 24.7, 36)],
     lambda s: _R(s, origin_rounding="none"), "whole-pixel origins"),
    ([Case(p, s, "none", embolden=True) for p in (DEJAVU, SERIF) for s in (17, 36)],
     lambda s: _R(s, embolden="freetype"), "fake bold as a centred stroke, not FreeType's"),
    ([Case(p, s, "normal", skew_x=-0.25) for p in (DEJAVU, SERIF, INTER) for s in (12, 17, 24.7)],
     lambda s: _R(s, hinting="full", hinting_under_transform="keep"), "no hinting for skewed glyphs"),
    ([Case(INTER, s, h, scale_x=1.3) for s in (12, 13.5, 17) for h in ("slight", "normal")],
     lambda s: _R(s, ppem="uniform"), "hinting at scaleX × size"),
    ([Case(p, 12, "normal", canvas="2x") for p in (DEJAVU, SERIF)], lambda s: _R(s, ppem="perAxis"),
     "hinting at the device size"),
    ([Case(p, s, "none", subpixel=True, canvas="rotated 30") for p in (DEJAVU, SERIF, INTER, DROID) for s in (12, 17, 24.7, 36)],
     lambda s: _R(s, origin_rounding="quarterPixelX"), "¼-px origins on both axes when rotated"),
], ids=["origins", "fake bold", "skew", "scaleX", "2x canvas", "rotated origins"])
def test_each_rule_matters(cases, change, what: str) -> None:
    """The same pixels judged with one rule undone disagree somewhere (the judged pixels forgive small moves: a
    clear pixel lies about half a pixel inside or outside the ink, so each rule shows over a set of cases)."""
    assert sum(check(c)[1] for c in cases) == 0
    assert sum(_judge_with(c, change) for c in cases) > 0, "without %s the pixels should disagree" % what


def test_a_notch_that_fake_bold_nearly_closes() -> None:
    """The one place measured where Skia's fake bold cannot be matched exactly: where two strokes of a glyph meet
    at a narrow angle, the stroke nearly closes the notch between them, and the notch's tip lies where the two
    offset curves cross — ill-conditioned, (w/2)/sin(θ/2) from the corner. Skia approximates offset curves by
    quadratics (SkPathStroker) and its tip lands ~0.8 px lower than the exact offsets' in Droid Sans Fallback's
    永 at 36 px: 1 of 24,342 judged pixels (the sweep: about 1 in a million judged pixels of fake bold text)."""
    judged, wrong, first = check(Case(DROID, 36, "none", embolden=True))
    assert judged > 20_000 and wrong <= 1, first


def test_aliased_text_is_hinted_for_one_bit_and_off_only_by_dropouts() -> None:
    """kAlias edging: Skia hints with FT_LOAD_TARGET_MONO and draws 1-bit masks. InkHit answers for the outline;
    FreeType's 1-bit rasteriser also lights dropout pixels beside thin diagonals (outside the outline by 0.07 to
    0.25 px), and Skia's own 1-bit fill of fake bold flattens curves coarsely. Measured: 5 of 9,772 judged pixels
    (DejaVu 17 px, normal hinting, subpixel), 0 without subpixel positioning; the hinting itself must be the 1-bit
    one (normal hinting instead: hundreds wrong)."""
    case = Case(DEJAVU, 17, "normal", edging="alias")
    judged, wrong, first = check(case)
    assert judged > 5000 and wrong <= judged // 1000, first
    assert _judge_with(case, lambda s: _R(s, hinting="full")) > 50


def test_the_style_is_the_librarys() -> None:
    tf = skia.Typeface.MakeFromFile(DEJAVU)
    font = skia.Font(tf, 17)
    font.setSubpixel(True)
    font.setEmbolden(True)
    style = inkhit.skia.glyph_style(font)
    ratio = 1 / 24 + (17 - 9) / 27 * (1 / 32 - 1 / 24)
    assert style.hinting == "full" and style.ppem == "view" and style.hinting_under_transform == "offWhenNotAxisAligned"
    assert style.embolden == {"stroke": pytest.approx(17 * ratio), "join": "miter", "miter_limit": 4}
    assert style.origin_rounding == "quarterPixelX"
    turned = inkhit.skia.glyph_style(font, skia.Matrix.RotateDeg(30))
    assert turned.hinting == "none" and turned.origin_rounding == ((0.25, 0.125), (0.25, 0.125))
    font.setForceAutoHinting(True)
    with pytest.raises(inkhit.InvalidArgumentError, match="forceAutoHinting"):
        inkhit.skia.glyph_style(font)
    with pytest.raises(inkhit.ArgumentTypeError if hasattr(inkhit, "ArgumentTypeError") else TypeError):
        inkhit.skia.glyph_style(object())


def test_sources_and_transforms_in_every_form() -> None:
    """A rebuilt font and a source give the same answers; a 6-tuple and an skia.Matrix are the same canvas; a
    variable typeface's position reaches the source."""
    pixels, font, glyphs, xy, total = draw(Case(INTER, 24.7, "normal", subpixel=True, wght=650, canvas="1.5x"))
    answers = []
    for source, transform in ((None, total), (inkhit.Font(INTER), inkhit.skia.transform_of(total)),
                              (inkhit.Font(INTER), total)):
        builder = inkhit.Builder()
        inkhit.skia.add_glyphs(builder, font, glyphs, [skia.Point(*p) for p in xy], source=source, transform=transform,
                               tags=np.arange(len(glyphs)))
        index = builder.build()
        assert judge(pixels, index)[1] == 0
        ys, xs = np.nonzero(pixels >= 0)
        answers.append(index.hits(np.stack([xs + 0.5, ys + 0.5], axis=1).astype(float))["placement"])
        assert index.tag(len(glyphs) - 1) == len(glyphs) - 1
    assert all((a == answers[0]).all() for a in answers)
    with pytest.raises(inkhit.InvalidArgumentError, match="positions"):
        inkhit.skia.add_glyphs(inkhit.Builder(), font, glyphs, xy[:-1])


def test_text_blobs_are_read_run_by_run() -> None:
    """add_text_blob reads each run's font settings and positions (full, horizontal, default and RSXform
    positioning) and draws like add_glyphs: Skia's pixels of the blob agree."""
    tf = skia.Typeface.MakeFromFile(DEJAVU)
    bold = skia.Font(tf, 19)
    bold.setEmbolden(True)
    bold.setSubpixel(True)
    plain = skia.Font(skia.Typeface.MakeFromFile(CANTARELL), 15)
    plain.setHinting(skia.FontHinting.kSlight)
    b = skia.TextBlobBuilder()
    g1 = bold.textToGlyphs("Blob")
    b.allocRunPos(bold, g1, [skia.Point(10.3 + 13.1 * i, 30.6) for i in range(len(g1))])
    g2 = plain.textToGlyphs("horizontal")
    b.allocRunPosH(plain, g2, [7.2 * i for i in range(len(g2))], 60.3)
    g3 = plain.textToGlyphs("default")
    b.allocRun("default", plain, 12.4, 90.55)
    g4 = bold.textToGlyphs("rs")
    b.allocRunRSXform(bold, g4, [skia.RSXform(math.cos(0.4), math.sin(0.4), 150 + 15 * i, 40) for i in range(len(g4))])
    blob = b.make()
    surface = skia.Surface.MakeRaster(skia.ImageInfo.MakeA8(260, 140))
    canvas = surface.getCanvas()
    canvas.clear(0)
    canvas.translate(3.25, 5.5)
    canvas.drawTextBlob(blob, 2.1, 1.3, skia.Paint(AntiAlias=True))
    pixels = np.array(surface.makeImageSnapshot().toarray())
    pixels = pixels[:, :, 0] if pixels.ndim == 3 else pixels
    builder = inkhit.Builder()
    runs = inkhit.skia.add_text_blob(builder, blob, 2.1, 1.3, transform=canvas.getTotalMatrix())
    assert [len(r) for r in runs] == [len(g1), len(g2), len(g3), len(g4)]
    judged, wrong, first = judge(pixels, builder.build())
    assert judged > 20_000 and wrong == 0, first


def test_paths_as_skia_iterates_them() -> None:
    """add_path: a circle (four conics) and a rounded rectangle from skia.Path, each against its analytic edge."""
    path = skia.Path()
    path.addCircle(30, 30, 10)
    path.addRRect(skia.RRect.MakeRectXY(skia.Rect.MakeLTRB(60, 10, 100, 50), 8, 8))
    builder = inkhit.Builder()
    inkhit.skia.add_path(builder, path, transform=skia.Matrix.Translate(5, 0), tag=7)
    index = builder.build()
    angles = np.linspace(0, 2 * math.pi, 64, endpoint=False)
    inside = np.stack([35 + 9.98 * np.cos(angles), 30 + 9.98 * np.sin(angles)], axis=1)
    outside = np.stack([35 + 10.02 * np.cos(angles), 30 + 10.02 * np.sin(angles)], axis=1)
    assert index.hits(inside)["hit"].all() and not index.hits(outside)["hit"].any()
    # The rounded corner's arc: centre (73, 18), radius 8 (the rectangle moved 5 px right).
    corner = np.stack([73 - 7.98 * np.cos(angles[:16] / 4), 18 - 7.98 * np.sin(angles[:16] / 4)], axis=1)
    assert index.hits(corner)["hit"].all()
    assert index.tag(index.hit(35, 30).placement) == 7
    inverse = skia.Path()
    inverse.addCircle(0, 0, 5)
    inverse.setFillType(skia.PathFillType.kInverseWinding)
    with pytest.raises(inkhit.InvalidArgumentError, match="inverse"):
        inkhit.skia.add_path(inkhit.Builder(), inverse)
