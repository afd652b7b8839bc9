"""Hypothesis properties of Index.hits: the batch equals single calls point for point (the same placement, the
same bits of distance), and a transform moves the answers with the points (an index built under T answers T(p)
as the untransformed index answers p, for rotations, scales and shears)."""
from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import inkhit

SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
_fonts = {}


def font(path: str) -> inkhit.Font:
    if path not in _fonts:
        _fonts[path] = inkhit.Font(path)
    return _fonts[path]


glyphs = st.lists(st.tuples(st.sampled_from([SANS, SERIF]), st.sampled_from("agoB@&%8ilW"),
                            st.floats(8, 60), st.floats(0, 120), st.floats(10, 90)), min_size=1, max_size=12)
points = st.lists(st.tuples(st.floats(-20, 160), st.floats(-20, 120)), min_size=1, max_size=60)
radii = st.sampled_from([0.0, 0.5, 2.0, 3.5, 9.0])


def build(items, transform=None) -> inkhit.Index:
    b = inkhit.Builder()
    for path, ch, size, x, y in items:
        b.add_glyph(font(path), font(path).glyph(ch), size, origin=(x, y), transform=transform)
    return b.build()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(glyphs, points, radii)
def test_batch_equals_single_calls(items, pts, radius) -> None:
    index = build(items)
    answers = index.hits(np.array(pts), radius)
    for (x, y), a in zip(pts, answers):
        single = index.hit(x, y, radius)
        if single is None:
            assert not a["hit"] and a["placement"] == -1 and math.isnan(a["distance"])
        else:
            assert a["hit"] and a["placement"] == single.placement and bool(a["inside"]) == single.inside
            assert a["distance"] == single.distance     # the same computation: the same bits
            if radius == 0:
                assert index.topmost(x, y) == (single.placement if single.inside else None)


transforms = st.one_of(
    st.tuples(st.floats(-math.pi, math.pi), st.floats(0.5, 3.0)).map(
        lambda t: (t[1] * math.cos(t[0]), t[1] * math.sin(t[0]), -t[1] * math.sin(t[0]), t[1] * math.cos(t[0]),
                   37.0, -11.0)),
    st.tuples(st.floats(-0.6, 0.6), st.floats(0.6, 2.5), st.floats(0.6, 2.5)).map(
        lambda t: (t[1], 0.0, t[0] * t[1], t[2], -5.0, 8.0)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(glyphs, points, transforms)
def test_a_transform_moves_the_answers_with_the_points(items, pts, t) -> None:
    plain, moved = build(items), build(items, transform=t)
    p = np.array(pts)
    a, b, c, d, tx, ty = t
    q = np.stack([a * p[:, 0] + c * p[:, 1] + tx, b * p[:, 0] + d * p[:, 1] + ty], axis=1)
    r0, r1 = plain.hits(p, 0.0), moved.hits(q, 0.0)
    # Containment is invariant. A hit within the flattening tolerance (0.01 view px) of an outline may flip,
    # so points where either side hits within 0.05 px of an outline are left out (misses have no distance: a
    # flip always has a hit on one side).
    keep = (np.nan_to_num(np.abs(r0["distance"]), nan=1e9) > 0.05) & \
           (np.nan_to_num(np.abs(r1["distance"]), nan=1e9) > 0.05)
    assert np.array_equal(r0["hit"][keep], r1["hit"][keep])
    assert np.array_equal(r0["placement"][keep], r1["placement"][keep])
