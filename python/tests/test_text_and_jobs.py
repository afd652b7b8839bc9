"""Layouts (hits on characters and links, carets), scenes and jobs through the Python API, against `ink-hit
query` answering the same text and scene jobs (the Swift API, run as a process)."""
from __future__ import annotations

import json

import numpy as np
import pytest

import inkhit
from conftest import run

SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
CJK = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"
# Accents, CJK from the fallback font, an astral-plane letter (two UTF-16 units, four UTF-8 bytes), two links.
TEXT = "Tap the link, naïve 漢字 and 𝐀lpha; tap the gap after the last word. Touches near the ink count."
TRANSFORM = (0.98, 0.2, -0.2, 0.98, 10, 5)


def utf16(text: str, i: int) -> int:
    return len(text[:i].encode("utf-16-le")) // 2


def test_layout_hits_equal_ink_hits_text_jobs(ink_hit: str) -> None:
    links = [(TEXT.index("link"), TEXT.index("link") + 4), (TEXT.index("𝐀"), TEXT.index("𝐀") + 5)]
    layout = inkhit.Layout(TEXT, [inkhit.Font(SANS), inkhit.Font(CJK)], size=16, width=260, links=links,
                           transform=TRANSFORM)
    points = np.random.default_rng(7).uniform([-10, -5], [300, 130], (1200, 2))
    jobs = [json.dumps({"id": "r%g" % r, "text": TEXT, "fonts": [{"path": SANS}, {"path": CJK}], "size": 16,
                        "width": 260, "links": [{"start": utf16(TEXT, s), "end": utf16(TEXT, e), "tag": str(k)}
                                                for k, (s, e) in enumerate(links)],
                        "transform": list(TRANSFORM), "radius": r, "points": points.tolist()}, ensure_ascii=False)
            for r in (0, 2, 4)]
    result = run([ink_hit, "query", "-"], input="\n".join(jobs) + "\n")
    assert result.returncode == 0, result.stderr
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == 3600
    # run_jobs answers the same jobs with the same bytes.
    assert list(inkhit.run_jobs(jobs, raw=True)) == result.stdout.splitlines()
    hits = links_hit = 0
    for a in answers:
        r = float(a["job"][1:])
        h = layout.hit(*points[a["i"]], r)
        if not a["hit"]:
            assert h is None
            continue
        hits += 1
        assert h is not None and list(h.utf16) == a["utf16"] and h.placement == a["glyph"] and h.line == a["line"]
        assert h.placement == a["placement"] == a["glyph"] and h.inside == a["inside"]
        assert (str(h.link) if h.link is not None else None) == a["link"]
        assert abs(h.distance - a["distance"]) <= 0.00006
        assert TEXT[h.start:h.end].encode("utf-16-le") == TEXT.encode("utf-16-le")[2 * h.utf16[0]:2 * h.utf16[1]]
        links_hit += h.link is not None
    assert hits > 150 and links_hit > 5


def test_carets_and_caret_rects() -> None:
    layout = inkhit.Layout("Tap the link", [inkhit.Font(SANS)], size=16)
    offsets = [layout.caret(x, 9).offset for x in range(0, 100, 3)]
    assert offsets == sorted(offsets) and offsets[0] == 0 and offsets[-1] == 12
    rects = [layout.caret_rect(i) for i in range(13)]
    assert all(a.x < b.x for a, b in zip(rects, rects[1:]))
    assert rects[0].x == 0 and rects[0].top < rects[0].bottom
    glyphs = layout.glyphs()
    assert glyphs.shape == (12,) and glyphs["advance"][0] > 0 and rects[1].x == pytest.approx(glyphs["advance"][0])
    assert layout.lines().shape == (1,) and layout.line_count == 1


def test_scene_snapshots_answer_as_ink_hits_scene_jobs() -> None:
    layout = inkhit.Layout("Tap", [inkhit.Font(SANS)], size=16)
    scene = inkhit.Scene(inkhit.Node(1, bounds=(0, 0, 300, 200)))
    scene.add(1, inkhit.Node(2, bounds=(0, 0, 20, 20), min_size=(44, 44), transform=(1, 0, 0, 1, 100, 100)))
    scene.add(1, inkhit.Node(3, bounds=(0, 0, 60, 40), shape="ellipse", transform=(1, 0, 0, 1, 10, 10)))
    scene.add(3, inkhit.Node(4, bounds=(0, 0, 40, 20), shape="text", text=layout, transform=(1, 0, 0, 1, 15, 10)))
    # A point on the T's ink, found through the layout itself (its view space is the node's local space).
    on_t = next((x, y) for x in np.arange(0, 10, 0.25) for y in np.arange(0, 16, 0.25)
                if (h := layout.hit(x, y)) is not None and h.start == 0 and h.distance < -0.2)
    snap = scene.snapshot()
    assert snap.hit(95, 95).node == 2                     # the 20 x 20 button grown to 44 x 44
    assert snap.hit(40, 45).node == 3                     # inside the ellipse, below the text
    assert snap.hit(12, 12).node == 1                     # the ellipse's corner is not the ellipse
    t = snap.hit(10 + 15 + on_t[0], 10 + 10 + on_t[1])    # scene px: node 3 at (10, 10), node 4 at (15, 10) in it
    assert t.node == 4 and t.text is not None and (t.text.start, t.text.end) == (0, 1)
    assert t.placement == 0 and t.inside and t.text.placement == 0 and t.text.inside
    with pytest.deprecated_call():                        # the 1.0 name of placement still answers
        assert t.glyph == 0 and t.text.glyph == 0
    assert snap.hit(12, 12).placement is None             # a box node: no glyph answered
    assert scene.path(4) == [1, 3, 4] and len(scene) == 4
    scene.set_transform(2, (1, 0, 0, 1, 200, 100))
    assert snap.hit(95, 95).node == 2 and scene.snapshot().hit(95, 95).node == 1   # snapshots never change
    pts = np.array([[95, 95], [40, 45], [12, 12], [25 + on_t[0], 20 + on_t[1]]])
    batch = snap.hits(pts)
    assert list(batch["node"]) == [2, 3, 1, 4] and batch["hit"].all() and batch["link"][3] == -1


def test_glyph_and_mask_nodes() -> None:
    font = inkhit.Font(SANS)
    o = font.glyph(ord("o"))
    scene = inkhit.Scene(inkhit.Node(1, bounds=(0, 0, 200, 100), pointer_events="box-none"))
    scene.add(1, inkhit.Node(2, bounds=(0, 0, 40, 50), shape="glyphs", glyphs=[(font, o, 40, (0, 40))]))
    scene.add(1, inkhit.Node(3, bounds=(0, 0, 40, 20), shape="mask", mask=(2, 1, bytes([255, 0]), 0),
                             transform=(1, 0, 0, 1, 100, 0)))
    snap = scene.snapshot()
    stroke = snap.hit(4, 29)                              # the "o"'s left stroke; its counter misses
    assert stroke.node == 2 and stroke.placement == 0 and stroke.inside
    assert snap.hit(12, 29) is None
    assert snap.hit(110, 10).node == 3 and snap.hit(130, 10) is None    # the opaque and transparent pixels
    scene.update(inkhit.Node(3, bounds=(0, 0, 40, 20), shape="mask", mask=(2, 1, bytes([0, 255]), 0),
                             transform=(1, 0, 0, 1, 100, 0)))
    assert scene.snapshot().hit(130, 10).node == 3 and snap.hit(130, 10) is None
    with pytest.raises(inkhit.LimitError):
        scene.add(1, inkhit.Node(4, bounds=(0, 0, 1, 1), shape="mask", mask=(5000, 5000, b"", 0)))
    # A member only another shape reads is refused, never dropped: a mask on a box, a path on a mask.
    with pytest.raises(inkhit.InvalidArgumentError, match="mask is given, but the node's shape is 'box'"):
        scene.add(1, inkhit.Node(5, bounds=(0, 0, 4, 4), mask=(2, 2, bytes(4), 0)))
    with pytest.raises(inkhit.InvalidArgumentError, match="path is given"):
        scene.add(1, inkhit.Node(6, bounds=(0, 0, 4, 4), shape="mask", mask=(2, 2, bytes(4), 0), path=(["M"], [[0, 0]])))
    assert scene.snapshot().hit(1, 1) is None or scene.snapshot().hit(1, 1).node not in (5, 6)


def test_run_jobs_error_lines_and_iteration() -> None:
    lines = ['{"id": "bad", "fonts": [{"path": "/nonexistent.ttf"}], "glyphs": [], "points": []}',
             "",
             '{"id": 2, "fonts": [{"path": "%s"}], "size": 40, "glyphs": [{"id": 43, "x": 0, "y": 40}],'
             ' "points": [[5.5, 30], [100, 100]]}' % SANS]
    out = list(inkhit.run_jobs(lines))
    assert out[0]["job"] == "bad" and "nonexistent" in out[0]["error"]
    assert [o["hit"] for o in out[1:]] == [True, False] and out[1]["glyph"] == 0
    assert out[1]["placement"] == 0 and out[1]["inside"] is True and out[2]["placement"] is None and out[2]["inside"] is False
    assert list(inkhit.run_jobs("\n".join(lines))) == out   # one string holding the lines
    runner = inkhit.JobRunner()
    runner.run("\n".join(lines))
    assert (runner.jobs, runner.failed) == (2, 1)
