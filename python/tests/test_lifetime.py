"""No lifetime footguns: every object keeps what the library still uses, release is automatic and idempotent,
and objects work from many threads. Each step deletes what it no longer names and collects garbage, then the
survivor must still answer as before (answers compared with ones taken while everything was alive)."""
from __future__ import annotations

import gc
import threading

import numpy as np
import pytest

import inkhit

SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
def same(a: np.ndarray, b: np.ndarray) -> bool:
    """Two answer arrays are equal field by field (NaN distances of misses equal)."""
    return all(np.array_equal(a[f], b[f]) for f in ("hit", "inside", "placement")) and \
        np.array_equal(a["distance"], b["distance"], equal_nan=True)


POINTS = np.array([[x, y] for x in np.linspace(0, 140, 60) for y in np.linspace(0, 50, 25)])


def _index_and_reference():
    font = inkhit.Font(open(SANS, "rb").read())          # from bytes: the Python bytes object dies at once
    builder = inkhit.Builder()
    glyphs = np.array([font.glyph(c) for c in "Lifetime"])
    origins = np.stack([10 + 16 * np.arange(len(glyphs)), np.full(len(glyphs), 40.0)], axis=1)
    builder.add_glyphs(font, glyphs, origins, 24.0, tags=np.arange(len(glyphs)) * 7)
    index = builder.build()
    return font, builder, index, index.hits(POINTS, 2.0).copy()


def test_an_index_outlives_its_font_builder_and_buffers() -> None:
    gc.collect()                                          # earlier tests' garbage is not this test's handles
    before = inkhit.handle_count()
    font, builder, index, reference = _index_and_reference()
    del font
    gc.collect()
    builder.close()
    builder.close()                                       # idempotent
    del builder
    gc.collect()
    points = POINTS.copy()
    answers = index.hits(points, 2.0)
    del points                                            # the answers are the array's own memory
    gc.collect()
    assert same(answers, reference)
    assert answers["hit"].sum() > 100
    hit = index.hit(*POINTS[np.argmax(reference["hit"])], 2.0)
    assert hit is not None and hit.tag == 7 * hit.placement
    del index, answers, hit
    gc.collect()
    assert inkhit.handle_count() == before                # everything released, nothing twice


def test_a_layout_keeps_its_text_and_fonts() -> None:
    def make():
        text = "".join(["Tap ", "the ", "link"])          # a string nobody else holds
        return inkhit.Layout(text, [inkhit.Font(SANS)], size=16, links=[(8, 12)])
    layout = make()
    gc.collect()
    hit = layout.hit(65.7, 8, 3.5)
    assert hit is not None and layout.text[hit.start:hit.end] == "l" and hit.link == 0


def test_a_scene_keeps_its_text_layouts() -> None:
    layout = inkhit.Layout("Tap the link", [inkhit.Font(SANS)], size=16, links=[(8, 12)])
    scene = inkhit.Scene(inkhit.Node(1, bounds=(0, 0, 200, 100)))
    scene.add(1, inkhit.Node(2, bounds=(0, 0, 120, 20), shape="text", text=layout))
    del layout
    gc.collect()
    snapshot = scene.snapshot()
    scene.close()
    del scene
    gc.collect()
    hit = snapshot.hit(65.7, 8)
    assert hit is not None and hit.node == 2 and hit.text is not None and hit.text.link == 0
    assert (hit.text.start, hit.text.end) == (8, 9)


def test_closed_objects_raise_and_context_managers_release() -> None:
    gc.collect()
    before = inkhit.handle_count()
    with inkhit.Font(SANS) as font:
        with inkhit.Builder() as builder:
            builder.add_glyph(font, font.glyph("o"), 40, origin=(0, 40))
            with builder.build() as index:
                assert index.hit(11.5, 26.0) is None          # the hole of the o
                assert index.hit(3.5, 26.0) is not None       # its left stroke
    assert inkhit.handle_count() == before
    with pytest.raises(inkhit.InvalidHandleError, match="already released"):
        index.hit(0, 0)
    with pytest.raises(inkhit.InvalidHandleError, match="inkhit_font_glyph: font is a font handle that was already released"):
        font.glyph("a")
    assert index.closed and font.closed


def test_threads_query_one_index_while_it_is_closed() -> None:
    _, _, index, reference = _index_and_reference()
    errors = []
    start = threading.Barrier(5)

    def query() -> None:
        start.wait()
        for _ in range(200):
            try:
                answers = index.hits(POINTS, 2.0)
            except inkhit.InvalidHandleError:
                return                                    # closed under us: a clean error, never a crash
            if not same(answers, reference):
                errors.append("a thread got other answers")
                return

    threads = [threading.Thread(target=query) for _ in range(4)]
    for t in threads:
        t.start()
    start.wait()
    for _ in range(50):
        index.hits(POINTS[:10], 0.0)
    index.close()                                         # while the others may be inside a call
    for t in threads:
        t.join()
    assert not errors
    with pytest.raises(inkhit.InvalidHandleError):
        index.hits(POINTS)


def test_threads_add_to_one_builder_and_get_distinct_numbers() -> None:
    font = inkhit.Font(SANS)
    builder = inkhit.Builder()
    numbers: list = []
    lock = threading.Lock()

    def add(k: int) -> None:
        got = [builder.add_glyph(font, font.glyph("x"), 12, origin=(k * 10, 20 + i), tag=k * 1000 + i) for i in range(50)]
        with lock:
            numbers.extend((n, k * 1000 + i) for i, n in enumerate(got))

    threads = [threading.Thread(target=add, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    index = builder.build()
    assert sorted(n for n, _ in numbers) == list(range(200))
    assert all(index.tag(n) == tag for n, tag in numbers)   # each add's number names its own placement
