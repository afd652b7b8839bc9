"""Run by test_pango.py in a venv that sees the system's PyGObject (python3-gi): a PyGObject Pango.Layout recorded
with inkhit.pango.add_layout, checked against Pango's own geometry. Prints a JSON summary."""
from __future__ import annotations

import json
import sys

import gi
import numpy as np

gi.require_version("Pango", "1.0")
gi.require_version("PangoCairo", "1.0")
from gi.repository import Pango, PangoCairo  # noqa: E402

import inkhit  # noqa: E402
import inkhit.pango  # noqa: E402

X, Y = 10.0, 20.0


def main() -> int:
    context = PangoCairo.FontMap.get_default().create_context()
    layout = Pango.Layout.new(context)
    layout.set_font_description(Pango.FontDescription.from_string("DejaVu Sans 12"))  # 16 px at 96 dpi
    layout.set_markup("Tap the <u>link</u>, not the gap.", -1)
    builder = inkhit.Builder()
    placements = inkhit.pango.add_layout(builder, layout, X, Y)
    index = builder.build()
    text = layout.get_text().encode()
    scale = Pango.SCALE
    baseline = Y + layout.get_baseline() / scale
    # Pango's logical extents of each character (layout px).
    boxes = {}
    for b in range(len(text)):
        if (text[b] & 0xC0) != 0x80:
            r = layout.index_to_pos(b)
            boxes[b] = (X + r.x / scale, X + (r.x + r.width) / scale)
    l_box = boxes[text.index(b"link")]
    stem = index.hit((l_box[0] + l_box[1]) / 2, baseline - 5)
    xs, ys = np.meshgrid(np.arange(X - 2, X + 240, 0.37), np.arange(Y - 2, Y + 24, 0.37))
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1)
    answers = index.hits(pts)
    inside = answers[answers["hit"]]
    on_ink = pts[answers["hit"]]
    tags = index.tags(inside["placement"])
    outside = [(round(x - boxes[t][0], 2), round(x - boxes[t][1], 2), t) for (x, _), t in zip(on_ink, tags.tolist())
               if not (boxes[t][0] - 3 <= x <= boxes[t][1] + 3)]
    outside_char = len(outside)
    underline = [int(t) for p, t in zip(inside["placement"].tolist(), tags.tolist()) if index.ink(p) == "path"]
    print(json.dumps({"placements": len(placements), "glyphs": len(text), "stem_tag": stem.tag if stem else None,
                      "l_byte": text.index(b"link"), "hits": int(len(inside)), "outside_char": outside_char,
                      "underline_tags": sorted(set(underline)),
                      "link_bytes": list(range(text.index(b"link"), text.index(b"link") + 4)),
                      "adapter_loaded": inkhit.pango._adapter is not None}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
