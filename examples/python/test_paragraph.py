#!/usr/bin/env python3
"""The Python example's test: a paragraph hit-tested through libInkHit with ctypes (inkhit.py) answers 1,200
points as `ink-hit query` answers the same text job through the Swift API — character (UTF-16 range),
glyph, line, link and distance — and hostile calls raise InkHitError with the documented status.

    python3 examples/python/test_paragraph.py --ink-hit .build/debug/ink-hit

scripts/c-abi-test.sh runs it against the installed library. Exits 1 on any difference.
"""
import argparse
import json
import math
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inkhit  # noqa: E402
from inkhit import Font, InkHitError, Layout  # noqa: E402

SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
CJK = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"
# Accents, CJK from the fallback font, an astral-plane letter (two UTF-16 units, four UTF-8 bytes), two links.
TEXT = "Tap the link, naïve 漢字 and 𝐀lpha; tap the gap after the last word. Touches near the ink count."
TRANSFORM = (0.98, 0.2, -0.2, 0.98, 10, 5)


def utf16_offset(text, i):
    return len(text[:i].encode("utf-16-le")) // 2


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ink-hit", required=True, help="the ink-hit binary (the Swift API's answers)")
    args = parser.parse_args()
    failures = []

    def expect(ok, what):
        if not ok:
            failures.append(what)

    sans, cjk = Font(SANS), Font(CJK)
    links = [(TEXT.index("link"), TEXT.index("link") + 4), (TEXT.index("𝐀"), TEXT.index("𝐀") + 5)]
    layout = Layout(TEXT, [sans, cjk], size=16, width=260, links=links, transform=TRANSFORM)
    info = layout.info()
    expect(info.line_count >= 3 and info.utf16_length == len(TEXT.encode("utf-16-le")) // 2
           and info.utf8_length == len(TEXT.encode()), "layout info")

    rng = random.Random(7)
    points = [(rng.uniform(-10, 300), rng.uniform(-5, 130)) for _ in range(1200)]
    radii = [0, 2, 4]
    job_lines = []
    for r in radii:
        job_lines.append(json.dumps({
            "id": "r%g" % r, "text": TEXT, "fonts": [{"path": SANS}, {"path": CJK}], "size": 16, "width": 260,
            "links": [{"start": utf16_offset(TEXT, s), "end": utf16_offset(TEXT, e), "tag": str(k)}
                      for k, (s, e) in enumerate(links)],
            "transform": list(TRANSFORM), "radius": r, "points": [list(p) for p in points]}, ensure_ascii=False))
    result = subprocess.run([args.ink_hit, "query", "-"], input="\n".join(job_lines) + "\n", capture_output=True,
                            text=True)
    if result.returncode != 0:
        print("ink-hit query failed: %s" % result.stderr, file=sys.stderr)
        return 1
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    expect(len(answers) == len(points) * len(radii), "ink-hit answered %d points" % len(answers))

    hits = links_hit = 0
    for a in answers:
        r = float(a["job"][1:])
        x, y = points[a["i"]]
        h = layout.hit(x, y, r)
        where = "point %d (%.3f, %.3f) r %g" % (a["i"], x, y, r)
        if not a["hit"]:
            expect(h is None, where + ": Python hit, ink-hit missed")
            continue
        hits += 1
        if h is None:
            expect(False, where + ": Python missed, ink-hit hit")
            continue
        expect(list(h.utf16) == a["utf16"], where + ": utf16 %r vs %r" % (h.utf16, a["utf16"]))
        expect(h.glyph == a["glyph"] and h.line == a["line"], where + ": glyph or line")
        expect((str(h.link) if h.link is not None else None) == a["link"], where + ": link %r vs %r" % (h.link, a["link"]))
        expect(abs(h.distance - a["distance"]) <= 0.00006, where + ": distance %r vs %r" % (h.distance, a["distance"]))
        # The character range in Python's own string: the same text as the UTF-16 range.
        expect(TEXT[h.start:h.end].encode("utf-16-le") == TEXT.encode("utf-16-le")[2 * h.utf16[0]:2 * h.utf16[1]],
               where + ": character range")
        if h.link is not None:
            links_hit += 1
            expect(links[h.link][0] <= h.start < links[h.link][1], where + ": the link's range holds the character")
    expect(hits > 150 and links_hit > 5, "the points reach the ink (%d hits) and the links (%d)" % (hits, links_hit))

    # Carets move monotonically along a line: offsets never decrease left to right (first line, LTR text).
    offsets = [layout.caret(TRANSFORM[4] + 0.98 * t - 0.2 * 9, TRANSFORM[5] + 0.2 * t + 0.98 * 9) for t in range(0, 250, 5)]
    expect(all(o is not None for o in offsets) and offsets == sorted(offsets), "carets along the first line: %r" % offsets)

    # Hostile calls: each raises with the documented status.
    def raises(status, call, needle):
        try:
            call()
            expect(False, "%s did not raise" % needle)
        except InkHitError as e:
            expect(e.status == status and needle in str(e), "%s: got %s" % (needle, e))
    raises("INKHIT_ERROR_FILE", lambda: Font("/nonexistent.ttf"), "not found")
    raises("INKHIT_ERROR_FONT", lambda: Font(__file__), "not a font")
    raises("INKHIT_ERROR_LAYOUT", lambda: Layout("short", [sans], links=[(2, 40)]), "past the end")
    raises("INKHIT_ERROR_INVALID_ARGUMENT", lambda: Layout("short", [sans], size=float("nan")), "size")
    raises("INKHIT_ERROR_INVALID_ARGUMENT", lambda: layout.hit(float("nan"), 3), "not finite")
    raises("INKHIT_ERROR_INVALID_ARGUMENT", lambda: layout.hit(3, 3, -1), "radius")
    status = inkhit.lib.inkhit_layout_create_utf8(b"ab\xffcd", 5, None, None)
    expect(status == 1, "NULL options: INKHIT_ERROR_NULL_ARGUMENT, got %d" % status)
    expect(math.isfinite(layout.hit(65.7, 20, 100).distance), "a huge radius finds the nearest glyph")

    layout.close()
    sans.close()
    cjk.close()
    raises("INKHIT_ERROR_INVALID_HANDLE", lambda: inkhit.check(inkhit.lib.inkhit_font_release(sans._handle or 1)),
           "not a handle")
    expect(inkhit.lib.inkhit_handle_count() == 0, "every handle released")

    for f in failures[:20]:
        print("FAIL: " + f, file=sys.stderr)
    print("test_paragraph.py: %d points x %d radii against ink-hit, %d hits, %d on links: %s" % (
        len(points), len(radii), hits, links_hit, "%d failure(s)" % len(failures) if failures else "all equal"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
