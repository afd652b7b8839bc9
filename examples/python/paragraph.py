#!/usr/bin/env python3
"""Hit-tests a paragraph through libInkHit from Python (ctypes): which character and link each touch is on.

    python3 examples/python/paragraph.py      # after ./inkhit install-c (or with INKHIT_LIBRARY set)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from inkhit import Font, Layout, version  # noqa: E402

SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
TEXT = "Tap the link, not the gap. Touches near the ink count when you ask for a radius."


def main():
    font = Font(SANS)
    link = (TEXT.index("link"), TEXT.index("link") + 4)
    layout = Layout(TEXT, [font], size=16, width=240, links=[link])
    print("libInkHit %s: %d glyphs in %d lines" % (version, layout.info().glyph_count, layout.info().line_count))
    # View px: the "l" of "link"; the gap after "link,", without and with a 3.5 px touch radius; the hole of
    # the "o" of "not", without and with a 3.5 px radius.
    for x, y, radius in [(65.7, 8, 0), (100.5, 8, 0), (100.5, 8, 3.5), (117, 10.5, 0), (117, 10.5, 3.5)]:
        hit = layout.hit(x, y, radius)
        if hit is None:
            print("(%g, %g) r %g: miss" % (x, y, radius))
        else:
            print("(%g, %g) r %g: %r%s, line %d, %.2f px" % (x, y, radius, TEXT[hit.start:hit.end],
                                                             " (link %d)" % hit.link if hit.link is not None else "",
                                                             hit.line, hit.distance))


if __name__ == "__main__":
    main()
