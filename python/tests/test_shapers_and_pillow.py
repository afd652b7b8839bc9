"""Other renderers' glyphs: uharfbuzz's shaped buffers taken as uharfbuzz gives them (horizontal and vertical),
against Skia drawing the same glyph outlines at HarfBuzz's positions; and the README's Pillow recipe (glyph ids from
the cmap, origins from ``getlength`` prefixes, full hinting) against the pixels ``ImageDraw.text`` draws."""
from __future__ import annotations

import numpy as np
import pytest
import skia
import uharfbuzz as hb
from PIL import Image, ImageDraw, ImageFont

import inkhit
from skia_check import CANTARELL, DEJAVU, DROID, INTER, SERIF, judge


def _shape(path: str, text: str, direction: str) -> tuple:
    face = hb.Face(hb.Blob.from_file_path(path))
    font = hb.Font(face)                      # scale: units per em, so positions are font units
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    buf.direction = direction
    hb.shape(font, buf)
    return font, buf


def _skia_at_harfbuzz_positions(path: str, buf: object, size: float, scale: float, origin: tuple, shape: tuple) -> np.ndarray:
    """Skia's A8 pixels of each glyph's outline (skia.Font.getPath, unhinted) drawn at its HarfBuzz position: the
    pen from `origin` summing the advances, plus the glyph's offsets, y up in HarfBuzz, so subtracted."""
    font = skia.Font(skia.Typeface.MakeFromFile(path), size)
    surface = skia.Surface.MakeRaster(skia.ImageInfo.MakeA8(*shape))
    canvas = surface.getCanvas()
    canvas.clear(0)
    paint = skia.Paint(AntiAlias=True)
    px = py = 0
    k = size / scale
    for info, pos in zip(buf.glyph_infos, buf.glyph_positions):
        path_ = font.getPath(info.codepoint)
        if path_ is not None:
            canvas.save()
            canvas.translate(origin[0] + (px + pos.x_offset) * k, origin[1] - (py + pos.y_offset) * k)
            canvas.drawPath(path_, paint)
            canvas.restore()
        px += pos.x_advance
        py += pos.y_advance
    pixels = np.array(surface.makeImageSnapshot().toarray())
    return pixels[:, :, 0] if pixels.ndim == 3 else pixels


@pytest.mark.parametrize("path, text, direction, size, origin, shape", [
    (DEJAVU, "Wave fiŁ Tö, ffi!", "ltr", 27, (8.3, 40.6), (330, 60)),
    (SERIF, "שלום עולם", "rtl", 31, (6.1, 45.2), (260, 70)),
    (DROID, "永字八法", "ttb", 33, (40.4, 6.7), (90, 170)),
    (DEJAVU, "AV|", "ttb", 29, (30.2, 4.4), (80, 120)),
])
def test_uharfbuzz_buffers_as_uharfbuzz_gives_them(path: str, text: str, direction: str, size: float, origin: tuple,
                                                  shape: tuple) -> None:
    hb_font, buf = _shape(path, text, direction)
    scale = hb_font.scale[0]
    pixels = _skia_at_harfbuzz_positions(path, buf, size, scale, origin, shape)
    font = inkhit.Font(path)
    builder = inkhit.Builder()
    added, pen = builder.add_shaped(font, buf.glyph_infos, buf.glyph_positions, size, size / scale, origin=origin,
                                    tag_base=100)
    assert len(added) == len(buf.glyph_infos)
    advance = (sum(p.x_advance for p in buf.glyph_positions), sum(p.y_advance for p in buf.glyph_positions))
    assert pen == pytest.approx((origin[0] + advance[0] * size / scale, origin[1] - advance[1] * size / scale))
    if direction == "ttb":
        assert pen[1] > origin[1] + size, "a vertical run moves the pen down"
    index = builder.build()
    judged, wrong, first = judge(pixels, index)
    assert judged > 2000 and wrong == 0, first
    assert [index.tag(i) for i in added] == [100 + info.cluster for info in buf.glyph_infos]
    # The same run from numpy records of HarfBuzz's layout: the same placements.
    infos = np.array([(i.codepoint, 0, i.cluster, 0, 0) for i in buf.glyph_infos], inkhit.HB_GLYPH_INFO_DTYPE)
    positions = np.array([(p.x_advance, p.y_advance, p.x_offset, p.y_offset, 0) for p in buf.glyph_positions],
                         inkhit.HB_GLYPH_POSITION_DTYPE)
    again = inkhit.Builder()
    assert again.add_shaped(font, infos, positions, size, size / scale, origin=origin, tag_base=100)[1] == pen
    ys, xs = np.nonzero(pixels >= 0)
    centres = np.stack([xs + 0.5, ys + 0.5], axis=1).astype(float)
    assert (again.build().hits(centres)["placement"] == index.hits(centres)["placement"]).all()


# Pillow (13, basic layout) keeps each glyph's x (its fractional pen) and draws the baseline on a whole pixel,
# rounded in FreeType's y-up frame: y to ceil(y - 1/2) (a baseline at 25.5 is drawn at 25). Positions are 1/64 px,
# so a bias a 128th under 1/2 rounds y's ties down.
PILLOW = inkhit.GlyphStyle(hinting="full", origin_rounding=((0, 0), (1, 0.5 - 1 / 128)))


def test_pillow_recipe() -> None:
    """The README's recipe for text ImageDraw.text drew (basic layout): every clear pixel agrees, at sizes where
    hinting moves stems (11 to 33 px) and from fractional start points, ties included. (Pillow's wheels carry their
    own FreeType, 2.14.3 in Pillow 13, and InkHit the system's, 2.12.1: their hinting agrees on these fonts; the
    recipe is measured at 0 of 502,959 judged pixels over 72 random cases of six fonts.)"""
    checked = 0
    for path, size, text, xy in ((DEJAVU, 13, "Hamburg fiQ@& 0.5%", (5.3, 20.6)), (DEJAVU, 24, "Wave, Tö!", (7.5, 33.5)),
                                  (SERIF, 17, "Quality ßyz", (3.5, 25.5)), (SERIF, 11, "AVATAR Ty To", (2.7, 18.49)),
                                  (DROID, 13, "永字八法 hx", (4.5, 28.5)), (CANTARELL, 16, "Ways gjQ@&", (3.9, 22.25)),
                                  (INTER, 33, "Rafael 0.5%", (2.5, 40.75))):
        pil = ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC)
        image = Image.new("L", (int(xy[0] + pil.getlength(text)) + 10, int(xy[1] + size) + 6), 0)
        ImageDraw.Draw(image).text(xy, text, fill=255, font=pil, anchor="ls")
        pixels = np.array(image)
        # The recipe: glyph ids from the cmap, each origin at the start plus the prefix's length, full hinting.
        font = inkhit.Font(path)
        ids = [font.glyph(ch) for ch in text]
        origins = [(xy[0] + pil.getlength(text[:i]), xy[1]) for i in range(len(text))]
        builder = inkhit.Builder()
        builder.add_glyphs(font, ids, origins, size, style=PILLOW)
        judged, wrong, first = judge(pixels, builder.build())
        assert judged > 1000 and wrong == 0, (path, size, first)
        checked += judged
    assert checked > 30_000
    # Each part of the recipe matters: unhinted outlines, or origins left where they were given, disagree.
    for style in (inkhit.GlyphStyle(origin_rounding=PILLOW.origin_rounding), inkhit.GlyphStyle(hinting="full")):
        wrong = 0
        for path, size, xy in ((DEJAVU, 13, (5.3, 20.6)), (SERIF, 16, (3.5, 25.5)), (DEJAVU, 11, (2.6, 15.4))):
            text = "Hamburg fiQ@&"
            pil = ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC)
            image = Image.new("L", (int(xy[0] + pil.getlength(text)) + 10, int(xy[1] + size) + 6), 0)
            ImageDraw.Draw(image).text(xy, text, fill=255, font=pil, anchor="ls")
            font = inkhit.Font(path)
            builder = inkhit.Builder()
            builder.add_glyphs(font, [font.glyph(c) for c in text], [(xy[0] + pil.getlength(text[:i]), xy[1])
                                                                    for i in range(len(text))], size, style=style)
            wrong += judge(np.array(image), builder.build())[1]
        assert wrong > 0, style
