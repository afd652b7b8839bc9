"""A fuzzer of the Python binding (issue 28): Hypothesis drives the public API with hostile numbers (bools, huge
and negative integers, NaN and infinities, numpy scalars of every width), hostile arrays (wrong shapes, dtypes,
ragged lists, object arrays) and hostile strings, and every call must either return or raise the package's own
exception (`inkhit.Error`; a value that cannot be converted is an `InvalidArgumentError`): never a crash, a hang,
an unbounded allocation, or an exception that leaked from ctypes or numpy (OverflowError, ctypes.ArgumentError,
numpy's ValueError), which would mean a value went through unconverted.

Not collected with the other tests (its name has no test_ prefix): scripts/python-test.sh runs it in a process of
its own under an address-space cap (prlimit), so an abort or an allocation past the cap fails the run. Each call
is held to 2 s by the library's per-call limits. INKHIT_FUZZ_EXAMPLES sets the examples per test (default 400:
a few tens of seconds in all); INKHIT_FUZZ_RANDOM=1 draws other examples than CI's.
"""
from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import inkhit
from inkhit import _native as N

SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
INTER = "/usr/share/fonts/truetype/inter-vf/Inter.var.ttf"
EXAMPLES = int(os.environ.get("INKHIT_FUZZ_EXAMPLES", "400"))

#: The same examples every run (CI); INKHIT_FUZZ_RANDOM=1 draws new ones (a search, not a regression run).
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get("INKHIT_FUZZ_RANDOM"),
                database=None, suppress_health_check=list(HealthCheck))

# --- hostile values ---------------------------------------------------------------------------------------------

edge_ints = st.sampled_from([0, 1, -1, 2**31 - 1, -2**31, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**63 - 1, -2**63,
                             2**63, 2**64 - 1, 2**64, -2**64, 10**30, 0x0FFFFFFF, 0x10000000, 0xFFFFFFFF])
ints = st.one_of(edge_ints, st.integers(-2**70, 2**70), st.integers(-50, 3000))
floats = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.floats(-1e3, 1e3),
                   st.sampled_from([0.0, -0.0, 1e-320, 1e308, -1e308, float("nan"), float("inf"), -float("inf"), 5e-324]))
numpy_scalars = st.one_of(
    st.builds(np.float32, st.floats(width=32, allow_nan=True)), st.builds(np.float64, floats),
    st.builds(np.int64, st.integers(-2**63, 2**63 - 1)), st.builds(np.uint64, st.integers(0, 2**64 - 1)),
    st.builds(np.int8, st.integers(-128, 127)), st.builds(np.bool_, st.booleans()))
junk = st.one_of(st.none(), st.booleans(), st.text(max_size=8), st.binary(max_size=8), st.just([]), st.just(()),
                 st.just({}), st.just(object()), st.just(1j))
numbers = st.one_of(ints, floats, numpy_scalars, st.booleans())
anything = st.one_of(numbers, junk)


@st.composite
def arrays(draw) -> object:
    """Point-like arrays: the right (N, 2) shape often, other shapes, dtypes and ragged lists too."""
    kind = draw(st.integers(0, 6))
    n = draw(st.integers(0, 12))
    if kind == 0:
        return draw(st.lists(st.tuples(floats, floats), max_size=12))
    if kind == 1:
        shape = draw(st.sampled_from([(n, 2), (n,), (n, 3), (2, n, 2), (n, 1), (0,), (0, 2), (1, 2, 2)]))
        dtype = draw(st.sampled_from([np.float64, np.float32, np.int64, np.uint8, np.bool_, np.complex128, object]))
        values = draw(st.lists(floats, min_size=int(np.prod(shape)), max_size=int(np.prod(shape))))
        a = np.array(values, dtype=np.float64).reshape(shape)
        with np.errstate(all="ignore"):
            return a.astype(dtype) if dtype is not object else a.astype(object)
    if kind == 2:
        return draw(st.lists(st.lists(numbers, max_size=3), max_size=6))             # ragged
    if kind == 3:
        values = draw(st.lists(floats, min_size=2 * n, max_size=2 * n))
        return np.asfortranarray(np.array(values, dtype=np.float64).reshape(n, 2))           # column-major
    if kind == 4:
        return np.array([[draw(numbers), draw(numbers)] for _ in range(n)], dtype=object)
    if kind == 5:
        return draw(junk)
    return np.zeros((n, 2))[:, ::-1] if n else np.zeros((0, 2))                      # a non-contiguous view


def call(f, *args, **kwargs) -> object:
    """`f(*args, **kwargs)`: returns its result, or None when it raised the package's own error. Any other
    exception fails the example (it escaped the strict conversion or the library's statuses)."""
    try:
        return f(*args, **kwargs)
    except inkhit.Error:
        return None


@pytest.fixture(scope="module", autouse=True)
def _bounded_calls():
    # Every call that builds shapes gives up after 2 s (a hostile size or text is bounded before it is built;
    # this is the safety net the library's own limits give), and uses at most 64 MiB of shapes.
    before = N.Limits()
    N.lib.inkhit_limits_get(before)
    N.lib.inkhit_limits_set(N.Limits(2.0, 64 << 20))
    yield
    N.lib.inkhit_limits_set(before)


@pytest.fixture(scope="module")
def world():
    font = inkhit.Font(SANS)
    builder = inkhit.Builder()
    builder.add_glyphs(font, [font.glyph(c) for c in "Fuzz"], [[10 + 20 * i, 40.0] for i in range(4)], 30)
    index = builder.build()
    layout = inkhit.Layout("Tap the link, not the gap.", [font], size=16, links=[(8, 12)])
    scene = inkhit.Scene(inkhit.Node(1, bounds=(0, 0, 200, 100)))
    scene.add(1, inkhit.Node(2, bounds=(0, 0, 120, 20), shape="text", text=layout))
    return {"font": font, "index": index, "layout": layout, "snapshot": scene.snapshot()}


# --- the public API ---------------------------------------------------------------------------------------------

@FUZZ
@given(x=anything, y=anything, radius=anything, points=arrays(), placement=anything,
       non_finite=st.sampled_from(["miss", "error", "skip", 0, None]))
def test_index_queries(world, x, y, radius, points, placement, non_finite) -> None:
    index = world["index"]
    h = call(index.hit, x, y, radius)
    assert h is None or (0 <= h.placement < 4 and h.tag == 0)
    call(index.contains, x, y)
    call(index.topmost, x, y)
    out = call(index.hits, points, radius, non_finite=non_finite)
    if out is not None:
        assert out.dtype == inkhit.HIT_DTYPE and ((out["placement"] >= -1) & (out["placement"] < 4)).all()
    call(index.tag, placement)
    call(index.ink, placement)
    call(index.tags, points)


@FUZZ
@given(glyph=anything, size=anything, origin=st.one_of(arrays(), st.tuples(anything, anything)),
       transform=st.one_of(st.none(), st.lists(anything, max_size=7), arrays()), tag=anything,
       embolden=anything, oblique=anything, hinting=anything, matrix=st.one_of(arrays(), st.lists(anything, max_size=5)),
       threshold=anything)
def test_adding_glyphs(world, glyph, size, origin, transform, tag, embolden, oblique, hinting, matrix, threshold) -> None:
    font = world["font"]
    builder = inkhit.Builder()
    style = call(inkhit.GlyphStyle, embolden=embolden, oblique=oblique, hinting=hinting, matrix=matrix,
                 alpha_threshold=threshold)
    k = call(builder.add_glyph, font, glyph, size, origin=origin, transform=transform, tag=tag, style=style)
    assert k is None or k == 0
    r = call(builder.add_glyphs, font, origin, origin, size, transform=transform, tags=glyph)
    assert r is None or isinstance(r, range)
    call(builder.set_tag, glyph, tag)
    call(builder.add_outline, "MLLZ", origin, transform=transform, tag=tag, key=glyph)
    call(builder.add_outline, origin, [(0, 0), (1, 1)])
    index = builder.build()
    call(index.hits, origin, size)
    assert len(index) == len(builder)


@FUZZ
@given(face=anything, instance=st.one_of(anything, st.sampled_from(["Bold", "bold", "", "\x00", "Thin Italic"])),
       variations=st.one_of(st.none(), st.dictionaries(st.text(max_size=5), anything, max_size=3),
                            st.lists(st.tuples(st.text(max_size=5), anything), max_size=3)),
       data=st.one_of(st.binary(max_size=64), st.just(b"\x00\x01\x00\x00" + b"\x00" * 60)))
def test_fonts(face, instance, variations, data) -> None:
    f = call(inkhit.Font, INTER, face=face, instance=instance, variations=variations)
    if f is not None:
        assert f.units_per_em > 0 and isinstance(f.variations, dict)
        call(f.glyph, face)
        call(f.advance, face)
    assert call(inkhit.Font, data, face=face, instance=instance) is None    # never a font: always the library's error


@FUZZ
@given(text=st.text(max_size=40), size=anything, width=anything, origin=st.tuples(anything, anything),
       links=st.lists(st.tuples(anything, anything), max_size=3), max_lines=anything,
       runs=st.lists(st.builds(inkhit.TextRun, start=anything, end=anything, size=st.one_of(st.none(), anything),
                               underline=st.one_of(st.none(), anything), letter_spacing=st.one_of(st.none(), anything)),
                     max_size=2),
       x=anything, y=anything, radius=anything, offset=anything,
       mode=st.sampled_from(["ink", "character-boxes", "line-boxes", "ink-or-empty-glyph-boxes", "bogus", 1]))
def test_layouts(world, text, size, width, origin, links, max_lines, runs, x, y, radius, offset, mode) -> None:
    layout = call(inkhit.Layout, text, [world["font"]], size=size, width=width, origin=origin, links=links,
                  max_lines=max_lines, runs=runs)
    for l in (layout, world["layout"]):
        if l is None:
            continue
        call(l.hit, x, y, radius, mode=mode)
        call(l.link, x, y, radius)
        call(l.caret, x, y)
        call(l.caret_rect, offset)
        assert len(l.glyphs()) == l.glyph_count


@FUZZ
@given(node_id=anything, bounds=st.one_of(st.tuples(anything, anything, anything, anything), arrays()),
       shape=st.sampled_from(["box", "roundRect", "ellipse", "path", "mask", "glyphs", "text", "star"]),
       mask=st.tuples(anything, anything, st.one_of(st.binary(max_size=40), anything), anything),
       slop=st.lists(anything, max_size=5), alpha=anything, hidden=anything, points=arrays(), radius=anything)
def test_scenes(world, node_id, bounds, shape, mask, slop, alpha, hidden, points, radius) -> None:
    scene = inkhit.Scene(inkhit.Node(1, bounds=(0, 0, 100, 100)))
    # The member the shape reads (a member of another shape is refused: test_text_and_jobs).
    members = {"path": (["M", "L", "L", "Z"], points), "glyphs": [(world["font"], 36, 20, (0, 20))],
               "text": world["layout"], "mask": mask}
    node = inkhit.Node(2, bounds=bounds, shape=shape, slop=slop, alpha=alpha, hidden=hidden,
                       **{k: v for k, v in members.items() if k == shape})
    call(scene.add, 1, node)
    call(scene.add, node_id, inkhit.Node(3, bounds=(0, 0, 10, 10)))
    call(scene.remove, node_id)
    snapshot = call(scene.snapshot)
    for s in (snapshot, world["snapshot"]):
        if s is not None:
            call(s.hit, radius, radius, radius)
            out = call(s.hits, points, radius)
            assert out is None or out.dtype == inkhit.SCENE_HIT_DTYPE


@FUZZ
@given(lines=st.lists(st.one_of(
    st.text(max_size=60),
    st.builds(lambda r, p: '{"id":1,"fonts":[{"path":"%s"}],"size":20,"glyphs":[{"id":36,"x":0,"y":20}],"radius":%s,'
                           '"points":%s}' % (SANS, r, p), st.sampled_from(["0", "-1", "1e308", "3.5", "\"x\"", "null"]),
              st.sampled_from(["[]", "[[1,1]]", "[[1e309,1]]", "[1,1]", "{}"]))), max_size=4),
    limit=st.one_of(st.none(), anything))
def test_jobs(lines, limit) -> None:
    limits = {} if limit is None else {"max_points": limit}
    runner = call(inkhit.JobRunner, strict=False, warn=[], **limits)
    if runner is not None:
        for line in lines:
            out = call(runner.run, line)
            assert out is None or all(isinstance(o, str) for o in out)
