"""The API as the issue names it: fonts, builders (glyphs one by one, numpy batches, HarfBuzz arrays, outlines,
styles, tags), answers, errors with one class per status and the library's message, layouts, scenes, jobs."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

import inkhit

SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
INTER = "/usr/share/fonts/truetype/inter-vf/Inter.var.ttf"


@pytest.fixture(scope="module")
def sans() -> inkhit.Font:
    return inkhit.Font(SANS)


def test_font_facts(sans: inkhit.Font) -> None:
    assert sans.units_per_em == 2048 and sans.glyph_count > 5000
    assert sans.glyph("A") == 36 and sans.glyph(ord("A")) == 36     # as the fixtures' HarfBuzz shaping gives
    assert sans.glyph(0x10FFFD) == 0
    assert sans.advance(36) == 1401.0                                # DejaVu Sans 'A' (hmtx)
    assert sans.variations == {}


def test_variable_fonts_by_axis_and_by_instance() -> None:
    bold = inkhit.Font(INTER, instance="Bold")
    assert bold.variations["wght"] == 700
    assert inkhit.Font(INTER, instance=12).variations == bold.variations        # 0-based, as jobs count
    assert inkhit.Font(INTER, variations={"wght": 650}).variations["wght"] == 650
    assert inkhit.Font(INTER, variations={"wght": 1200}).variations["wght"] == 900   # clamped as FreeType does
    assert inkhit.Font(INTER, face=(13 << 16)).variations == bold.variations       # FreeType's packed index
    assert bold.instances == inkhit.Font(INTER).instances and "Semi Bold Italic" in bold.instances
    assert inkhit.Font(INTER, instance="semi bold italic").variations == \
        inkhit.Font(INTER, instance=bold.instances.index("Semi Bold Italic")).variations
    assert inkhit.Font(SANS).instances == []
    with pytest.raises(inkhit.FontError, match='no named instance "Heavy"'):
        inkhit.Font(INTER, instance="Heavy")
    with pytest.raises(inkhit.FontError, match="axis"):
        inkhit.Font(INTER, variations={"XXXX": 1})


@pytest.mark.parametrize("call, cls, needle", [
    (lambda: inkhit.Font("/nonexistent.ttf"), inkhit.FileError, "inkhit_font_from_path"),
    (lambda: inkhit.Font(b"not a font"), inkhit.FontError, "inkhit_font_from_bytes"),
    (lambda: inkhit.Font(SANS, face=3), inkhit.FontError, "face"),
    (lambda: inkhit.Builder(tolerance=-1), inkhit.InvalidArgumentError, "tolerance"),
    (lambda: inkhit.Builder().add_glyph(inkhit.Font(SANS), 10**6, 16), inkhit.GlyphError, "glyph"),
    (lambda: inkhit.Builder().add_glyph(inkhit.Font(SANS), 36, float("nan")), inkhit.InvalidArgumentError, "size"),
    (lambda: inkhit.Builder().add_glyph(inkhit.Font(SANS), 36, 16, transform=(0, 0, 0, 0, 0, 0)),
     inkhit.PlacementError, "singular"),
    (lambda: inkhit.Layout("short", [inkhit.Font(SANS)], links=[(2, 40)]), inkhit.LayoutError, "link"),
    (lambda: inkhit.Scene(inkhit.Node(1)).remove(1), inkhit.SceneError, "root"),
])
def test_each_status_has_its_class_and_the_librarys_message(call, cls, needle) -> None:
    with pytest.raises(cls) as caught:
        call()
    e = caught.value
    assert isinstance(e, inkhit.Error) and e.status == cls.status
    assert e.status_name == "INKHIT_ERROR_" + {1: "NULL_ARGUMENT", 2: "INVALID_HANDLE", 3: "INVALID_ARGUMENT",
                                               5: "FILE", 6: "FONT", 7: "GLYPH", 9: "PLACEMENT", 10: "LAYOUT",
                                               11: "SCENE"}[e.status]
    assert needle in str(e)


def test_bad_radii_and_points_raise_the_librarys_errors(sans: inkhit.Font) -> None:
    b = inkhit.Builder()
    b.add_glyph(sans, sans.glyph("H"), 40, origin=(0, 40))
    index = b.build()
    with pytest.raises(inkhit.InvalidArgumentError, match="inkhit_index_hit: radius"):
        index.hit(1, 1, -1)
    with pytest.raises(inkhit.InvalidArgumentError, match="inkhit_index_hit_batch: radius"):
        index.hits([[1, 1]], float("nan"))
    # A single query's non-finite point is the library's INVALID_ARGUMENT; a batch answers it as a miss (or
    # refuses the batch when asked to).
    with pytest.raises(inkhit.InvalidArgumentError, match="inkhit_index_hit: the point"):
        index.hit(float("nan"), 3)
    with pytest.raises(inkhit.InvalidArgumentError, match="inkhit_index_topmost"):
        index.topmost(float("inf"), 0)
    answers = index.hits([[float("nan"), 1], [6, 20]])
    assert list(answers["hit"]) == [False, True]
    with pytest.raises(inkhit.InvalidArgumentError, match=r"points\[0\] \(nan, 1\).*nothing was answered"):
        index.hits([[float("nan"), 1], [6, 20]], non_finite="error")
    with pytest.raises(inkhit.InvalidArgumentError, match=r"\(N, 2\)"):
        index.hits(np.zeros((4, 3)))


def test_shape_forms_change_the_cache_not_the_answers(sans: inkhit.Font) -> None:
    pts = np.random.default_rng(2).uniform([0, 0], [200, 50], (4000, 2))
    answers, cached = [], []
    for forms in ["whenReused", "full", "lean"]:
        cache = inkhit.ShapeCache()
        b = inkhit.Builder(shape_forms=forms, cache=cache)
        b.add_glyphs(sans, [sans.glyph(c) for c in "Forms"], [[10 + 30 * i, 40.0] for i in range(5)], 40)
        answers.append(b.build().hits(pts, 1.5).tobytes())
        cached.append(cache.info()["glyph_bytes"])
    assert answers[0] == answers[1] == answers[2]
    assert cached[1] > 2 * cached[0] and cached[2] == cached[0]   # full forms: grids, near lists, stamps
    with pytest.raises(inkhit.InvalidArgumentError, match="shape_forms"):
        inkhit.Builder(shape_forms="fast")


def test_a_batch_of_glyphs_equals_glyphs_one_by_one(sans: inkhit.Font) -> None:
    ids = np.array([sans.glyph(c) for c in "Batch"], dtype=np.uint32)
    origins = np.array([[10 + 14 * i, 30.0] for i in range(5)])
    t = (0.9, 0.3, -0.3, 0.9, 5, 2)
    one = inkhit.Builder()
    for g, o in zip(ids, origins):
        one.add_glyph(sans, int(g), 20, origin=tuple(o), transform=t)
    many = inkhit.Builder()
    assert many.add_glyphs(sans, ids, origins, 20, transform=t) == range(0, 5)
    pts = np.random.default_rng(1).uniform([0, 0], [100, 60], (3000, 2))
    a, b = one.build().hits(pts, 1.5), many.build().hits(pts, 1.5)
    assert a.tobytes() == b.tobytes() and a["hit"].sum() > 200


def test_harfbuzz_arrays_place_glyphs_by_the_pen(sans: inkhit.Font) -> None:
    # hb_shape()'s arrays by hand: advances and offsets in font units (scale 2048), y up, clusters as tags.
    ids = [sans.glyph(c) for c in "Wave"]
    infos = np.zeros(4, inkhit.HB_GLYPH_INFO_DTYPE)
    infos["codepoint"], infos["cluster"] = ids, [0, 1, 2, 3]
    pos = np.zeros(4, inkhit.HB_GLYPH_POSITION_DTYPE)
    pos["x_advance"] = [sans.advance(g) - 100 for g in ids]   # a kerned run
    pos["y_offset"] = [0, 80, 0, -40]
    k = 24 / 2048
    b = inkhit.Builder()
    placements, pen = b.add_shaped(sans, infos, pos, 24, k, origin=(5, 30), tag_base=100)
    assert placements == range(0, 4)
    assert pen == pytest.approx((5 + sum(pos["x_advance"]) * k, 30))
    ref = inkhit.Builder()
    x = 0
    for i, g in enumerate(ids):
        ref.add_glyph(sans, g, 24, origin=(5 + x * k, 30 - int(pos["y_offset"][i]) * k))
        x += int(pos["x_advance"][i])
    pts = np.random.default_rng(2).uniform([0, 0], [90, 40], (3000, 2))
    index = b.build()
    assert index.hits(pts).tobytes() == ref.build().hits(pts).tobytes()
    assert [index.tag(i) for i in range(4)] == [100, 101, 102, 103]


def test_outlines_of_your_own(sans: inkhit.Font) -> None:
    b = inkhit.Builder()
    square = b.add_outline("MLLLZ", [(0, 0), (10, 0), (10, 10), (0, 10)], tag=5)
    ring = b.add_outline("MLLLZMLLLZ", [(20, 0), (40, 0), (40, 20), (20, 20), (25, 5), (35, 5), (35, 15), (25, 15)],
                         fill_rule="evenodd", transform=(1, 0, 0, 1, 0, 0))
    curve = b.add_outline(["M", "Q", "Z"], [(50, 0), (60, 20), (70, 0)])
    index = b.build()
    assert index.hit(5, 5).placement == square and index.tag(square) == 5 and index.ink(square) == "path"
    assert index.hit(30, 10) is None and index.hit(22, 10).placement == ring       # the even-odd hole
    assert index.hit(60, 5).placement == curve and index.hit(60, 10.5) is None    # the quad's apex is y = 10
    assert index.hit(11, 5) is None and index.hit(11, 5, 1.5).distance == pytest.approx(1.0, abs=1e-6)


def test_styles_by_object_or_by_the_job_formats_mapping(sans: inkhit.Font) -> None:
    pts = np.random.default_rng(3).uniform([0, 0], [60, 50], (2000, 2))
    answers = []
    for style in (inkhit.GlyphStyle(embolden="freetype", oblique="freetype"), {"embolden": "freetype",
                                                                                "oblique": "freetype"}, None):
        b = inkhit.Builder()
        b.add_glyph(sans, sans.glyph("m"), 40, origin=(5, 40), style=style)
        answers.append(b.build().hits(pts))
    assert answers[0].tobytes() == answers[1].tobytes()
    assert answers[0]["hit"].sum() > answers[2]["hit"].sum() + 20     # synthetic bold has more ink


def test_names_before_1_3_still_work_with_a_deprecation_warning(sans: inkhit.Font) -> None:
    """One name per thing (docs/vocabulary.md); the spellings of 1.2 are still accepted, each with a warning."""
    with pytest.deprecated_call():
        node = inkhit.Node(1, bounds=(0, 0, 100, 100), clips=False)
    assert node.clips_children is False and node.clips is None
    with pytest.deprecated_call():
        scene = inkhit.Scene(inkhit.Node(1, bounds=(0, 0, 50, 50), shape="round-rect", corner_radius=10))
    assert scene.snapshot().hit(25, 25).node == 1 and scene.snapshot().hit(1, 1) is None   # a round rect's corner
    with pytest.deprecated_call():
        inkhit.Builder(shape_forms="when_reused")
    b = inkhit.Builder()
    b.add_glyph(sans, sans.glyph("o"), 40, origin=(10, 40))
    assert b.build().ink(0) == "outline"
    hits = inkhit.Scene(inkhit.Node(1, bounds=(0, 0, 10, 10))).snapshot().hits(np.array([[5.0, 5.0]]))
    assert hits["glyph"][0] == hits["placement"][0] == -1 and hits["text_glyph"][0] == hits["text_placement"][0]
