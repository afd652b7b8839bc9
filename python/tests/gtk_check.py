"""A GTK 4 window of seven labels, recorded with inkhit.pango.add_layout and judged against its own screenshot.

Run by test_gtk.py with the system's python3-gi (GTK 4) in a venv that has the wheel, under Xvfb, once per
renderer and scale (GSK_RENDERER=cairo or gl, GDK_SCALE=1 or 2). Inside the running app, after the window has
been drawn, each label's PangoLayout is added with the transform from the layout to the window's device pixels —
the README's recipe: the scale factor times (the native's surface transform + the label's place in its native +
the layout's offsets) — and `renderer` ("cairo" or "gsk-gl"). The window is captured with `xwd -id` (the X
window of the GdkSurface), and every clearly black (<= 5) or white (>= 250) pixel whose centre lies at least
0.05 px from InkHit's outline is compared with the index's answer at its centre. Prints one JSON line:
{"renderer", "scale", "judged", "wrong", "examples", "placements"}.

Usage: gtk_check.py cairo|gsk-gl OUT.xwd   (GSK_RENDERER and GDK_SCALE set by the caller)
"""
from __future__ import annotations

import json
import os
import struct
import subprocess
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("GdkX11", "4.0")
gi.require_version("Graphene", "1.0")
from gi.repository import GdkX11, GLib, Graphene, Gtk  # noqa: E402

import numpy as np  # noqa: E402

import inkhit  # noqa: E402
import inkhit.pango  # noqa: E402

RENDERER, OUT = sys.argv[1], sys.argv[2]

# Seven labels: TrueType, CFF and CJK fonts, bold and italic (real and synthesized), an underline, a
# strikethrough, sizes from 9 to 28 px, and characters no font has (hex boxes).
LABELS = [
    '<span font="DejaVu Sans 11px">Hamburg &amp; fiQ — tap <u>the link</u> here</span>',
    '<span font="Cantarell 17px">Wave office, <b>bold</b> and <i>slanted</i></span>',
    '<span font="Droid Sans Fallback 20px">永字八法 CJK 漢字</span>',
    '<span font="DejaVu Serif 13px"><s>struck</s> and <i>italic</i> 0123456789</span>',
    '<span font="Cantarell 9px">Tiny CFF text, darkened stems, AVAWAY</span>',
    '<span font="DejaVu Sans 28px">Big <b>Qg</b>@</span>',
    '<span font="DejaVu Sans 15px">Unknown: \uE000\U0010FFFD\uFFFF boxes</span>',
]

CSS = b"window, box, label { background: white; color: black; } label { padding: 3px 5px; }"


def read_xwd(path: str) -> np.ndarray:
    """The luminance of an xwd dump (24/32-bit TrueColor, as Xvfb writes it), rows x columns."""
    with open(path, "rb") as f:
        data = f.read()
    header = struct.unpack(">25I", data[:100])
    header_size, width, height = header[0], header[4], header[5]
    byte_order, bits_per_pixel, bytes_per_line = header[7], header[11], header[12]
    ncolors = header[19]
    start = header_size + ncolors * 12
    pixels = np.frombuffer(data[start:start + bytes_per_line * height], np.uint8).reshape(height, bytes_per_line)
    assert bits_per_pixel == 32, "xwd: %d bits per pixel" % bits_per_pixel
    px = pixels[:, : width * 4].reshape(height, width, 4).astype(np.int32)
    if byte_order == 0:                            # LSBFirst: B, G, R, x
        b, g, r = px[..., 0], px[..., 1], px[..., 2]
    else:
        r, g, b = px[..., 1], px[..., 2], px[..., 3]
    return ((r + g + b) // 3).astype(np.uint8)


def record(window: Gtk.Window, labels: list) -> tuple:
    native = window.get_native()
    scale = window.get_scale_factor()
    sx, sy = native.get_surface_transform()
    builder = inkhit.Builder()
    for label in labels:
        ok, p = label.compute_point(native, Graphene.Point().init(0, 0))
        assert ok
        lx, ly = label.get_layout_offsets()
        # layout px -> device px of the surface: scale x (surface transform + place in the native + offsets).
        transform = (scale, 0, 0, scale, scale * (sx + p.x + lx), scale * (sy + p.y + ly))
        inkhit.pango.add_layout(builder, label.get_layout(), transform=transform, renderer=RENDERER)
    return builder, scale


def judge(index: "inkhit.Index", image: np.ndarray) -> tuple:
    ys, xs = np.nonzero((image <= 5) | (image >= 250))
    points = np.stack([xs + 0.5, ys + 0.5], axis=1)
    r = index.hits(points, radius=0.05)
    near = r["hit"] & (~r["inside"] | (r["distance"] > -0.05))
    judged = ~near
    ink = image[ys, xs] <= 5
    wrong = judged & (r["hit"] != ink)
    examples = [[int(xs[i]), int(ys[i]), int(image[ys[i], xs[i]])] for i in np.nonzero(wrong)[0][:8]]
    return int(judged.sum()), int(wrong.sum()), examples


def main() -> None:
    app = Gtk.Application(application_id=None, flags=0)
    result: dict = {}

    def activate(application: Gtk.Application) -> None:
        provider = Gtk.CssProvider()
        provider.load_from_data(CSS)
        window = Gtk.Window(application=application, title="inkhit", decorated=False)
        Gtk.StyleContext.add_provider_for_display(window.get_display(), provider,
                                                  Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION + 10)
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=4)
        labels = []
        for markup in LABELS:
            label = Gtk.Label()
            label.set_markup(markup)
            label.set_xalign(0)
            box.append(label)
            labels.append(label)
        window.set_child(box)
        window.present()

        def capture() -> bool:
            surface = window.get_native().get_surface()
            xid = GdkX11.X11Surface.get_xid(surface)
            subprocess.run(["xwd", "-silent", "-id", str(xid), "-out", OUT], check=True)
            builder, scale = record(window, labels)
            image = read_xwd(OUT)
            judged, wrong, examples = judge(builder.build(), image)
            result.update(renderer=RENDERER, scale=scale, judged=judged, wrong=wrong, examples=examples,
                          placements=len(builder), size=list(image.shape),
                          gsk=type(window.get_native().get_renderer()).__name__)
            application.quit()
            return False

        # Drawn and shown: a few frames after presenting.
        GLib.timeout_add(1200, capture)

    app.connect("activate", activate)
    app.run([])
    print(json.dumps(result))


if __name__ == "__main__":
    main()
