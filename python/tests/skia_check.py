"""Skia's pixels against inkhit.skia's answers: draw text with skia-python (A8, the glyphs and positions given to
``TextBlobBuilder.allocRunPos``), add the same glyphs with ``inkhit.skia.add_glyphs`` and judge every clear pixel
(coverage <= 5 or >= 250) whose centre lies at least 0.05 px from InkHit's outline (its signed distance there).

Used by test_skia.py (a representative grid) and, run as a script, a larger random sweep (opt-in; minutes):

    .build-python/venv/bin/python python/tests/skia_check.py [CASES] [SEED]
"""
from __future__ import annotations

import math
import random
import sys
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import skia

import inkhit
import inkhit.skia

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
CANTARELL = "/usr/share/fonts/opentype/cantarell/Cantarell-Regular.otf"
DROID = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"
INTER = "/usr/share/fonts/truetype/inter-vf/Inter.var.ttf"
TEXTS = {DEJAVU: "Hamburg&@fiQ", SERIF: "Qualität ßyz", CANTARELL: "Ways gjQ@&", DROID: "永字八法hx",
         INTER: "Rafael 0.5% W"}
HINTING = {"none": skia.FontHinting.kNone, "slight": skia.FontHinting.kSlight, "normal": skia.FontHinting.kNormal,
           "full": skia.FontHinting.kFull}
EDGING = {"alias": skia.Font.Edging.kAlias, "antiAlias": skia.Font.Edging.kAntiAlias,
          "subpixelAntiAlias": skia.Font.Edging.kSubpixelAntiAlias}
# Canvas matrices by name: (a, b, c, d, tx, ty) in InkHit's order.
CANVASES = {
    "identity": (1, 0, 0, 1, 0, 0),
    "2x": (2, 0, 0, 2, 0.3, 0.4),
    "1.5x": (1.5, 0, 0, 1.5, 0.3, 0.7),
    "rotated 30": (math.cos(math.radians(30)), math.sin(math.radians(30)), -math.sin(math.radians(30)),
                   math.cos(math.radians(30)), 40, 0),
    "rotated -17, 2x": (2 * math.cos(math.radians(-17)), 2 * math.sin(math.radians(-17)),
                        -2 * math.sin(math.radians(-17)), 2 * math.cos(math.radians(-17)), 10, 150),
    "quarter turn": (0, 1, -1, 0, 120, 5),
    "stretched 1.7 x 1.2": (1.7, 0, 0, 1.2, 0, 0),
    "skewed": (1, 0, -0.3, 1, 40, 0),
}

_KEEP: List[Any] = []      # skia-python's variation coordinates must outlive the typeface made from them


def typeface(path: str, wght: Optional[float] = None) -> Any:
    tf = skia.Typeface.MakeFromFile(path)
    if wght is None:
        return tf
    coords = skia.FontArguments.VariationPosition.Coordinates(
        [skia.FontArguments.VariationPosition.Coordinate(int.from_bytes(b"wght", "big"), wght)])
    position = skia.FontArguments.VariationPosition(coords)
    args = skia.FontArguments()
    args.setVariationDesignPosition(position)
    _KEEP.append((coords, position, args))
    return tf.makeClone(args)


def matrix(t: Tuple[float, ...]) -> Any:
    a, b, c, d, tx, ty = t
    m = skia.Matrix()
    m.setAll(a, c, tx, b, d, ty, 0, 0, 1)
    return m


@dataclass
class Case:
    path: str
    size: float
    hinting: str = "normal"
    subpixel: bool = False
    embolden: bool = False
    skew_x: float = 0.0
    scale_x: float = 1.0
    wght: Optional[float] = None
    canvas: str = "identity"
    edging: str = "antiAlias"
    baseline_snap: bool = True
    with_source: bool = False
    extra: Dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        name = self.path.rsplit("/", 1)[-1].split(".")[0]
        parts = [name + ("@%g" % self.wght if self.wght else ""), "%gpx" % self.size, self.hinting]
        parts += [p for p, on in (("subpixel", self.subpixel), ("bold", self.embolden), ("no snap", not self.baseline_snap))
                  if on]
        if self.skew_x:
            parts.append("skewX %g" % self.skew_x)
        if self.scale_x != 1:
            parts.append("scaleX %g" % self.scale_x)
        if self.edging != "antiAlias":
            parts.append(self.edging)
        return " ".join(parts) + " / " + self.canvas


def draw(case: Case) -> Tuple[np.ndarray, Any, List[int], np.ndarray, Any]:
    """Skia's A8 pixels of the case's text: positions from ``getPos`` from a fractional start, each glyph's y moved
    by a fraction of its own (so every rounding rule is seen), on the case's canvas."""
    font = skia.Font(typeface(case.path, case.wght), case.size)
    font.setHinting(HINTING[case.hinting])
    font.setSubpixel(case.subpixel)
    font.setEmbolden(case.embolden)
    font.setSkewX(case.skew_x)
    font.setScaleX(case.scale_x)
    font.setEdging(EDGING[case.edging])
    font.setBaselineSnap(case.baseline_snap)
    glyphs = font.textToGlyphs(TEXTS[case.path])
    pos = font.getPos(glyphs, skia.Point(0.3, 0))
    y0 = case.size * 1.3 + 0.41
    xy = np.array([(p.x() + 7.37, p.y() + y0 + (i * 0.37) % 1.0) for i, p in enumerate(pos)], dtype=np.float64)
    m = matrix(CANVASES[case.canvas])
    box = m.mapRect(skia.Rect.MakeLTRB(0, 0, xy[-1, 0] + case.size * 1.5 * abs(case.scale_x) + 10, case.size * 2.2 + 10))
    width, height = int(max(box.right(), 10)) + 10, int(max(box.bottom(), 10)) + 10
    surface = skia.Surface.MakeRaster(skia.ImageInfo.MakeA8(width, height))
    canvas = surface.getCanvas()
    canvas.clear(0)
    canvas.concat(m)
    blob = skia.TextBlobBuilder()
    blob.allocRunPos(font, glyphs, [skia.Point(float(x), float(y)) for x, y in xy])
    paint = skia.Paint()
    paint.setAntiAlias(True)
    canvas.drawTextBlob(blob.make(), 0, 0, paint)
    pixels = np.array(surface.makeImageSnapshot().toarray())
    if pixels.ndim == 3:
        pixels = pixels[:, :, 0]
    return pixels, font, list(glyphs), xy, canvas.getTotalMatrix()


def judge(pixels: np.ndarray, index: inkhit.Index, margin: float = 0.05) -> Tuple[int, int, List[Tuple[int, int, int]]]:
    """(judged, wrong, the first wrong pixels as (x, y, coverage)): clear pixels whose centre InkHit places at least
    `margin` px inside the ink or farther than `margin` from it."""
    ys, xs = np.nonzero((pixels <= 5) | (pixels >= 250))
    centres = np.stack([xs + 0.5, ys + 0.5], axis=1).astype(np.float64)
    answers = index.hits(centres, radius=margin)
    ink = answers["hit"] & answers["inside"] & (answers["distance"] <= -margin)
    empty = ~answers["hit"]
    judged = ink | empty
    wrong = judged & (ink != (pixels[ys, xs] >= 250))
    first = [(int(xs[i]), int(ys[i]), int(pixels[ys[i], xs[i]])) for i in np.nonzero(wrong)[0][:5]]
    return int(judged.sum()), int(wrong.sum()), first


def check(case: Case, cache: Optional[inkhit.ShapeCache] = None) -> Tuple[int, int, List[Tuple[int, int, int]]]:
    """Draws the case with Skia, adds the same glyphs with inkhit.skia.add_glyphs and judges the pixels."""
    pixels, font, glyphs, xy, total = draw(case)
    builder = inkhit.Builder(cache=cache)
    source = inkhit.Font(case.path) if case.with_source else None
    added = inkhit.skia.add_glyphs(builder, font, glyphs, xy, source=source, transform=total)
    assert len(added) == len(glyphs)
    return judge(pixels, builder.build())


def random_case(rng: random.Random) -> Case:
    path = rng.choice(list(TEXTS))
    case = Case(path=path, size=rng.choice([9, 12, 13.5, 17, 24.7, 36, 64]), hinting=rng.choice(list(HINTING)),
                subpixel=rng.random() < 0.5, canvas=rng.choice(list(CANVASES)), baseline_snap=rng.random() > 0.2,
                edging=rng.choice(["antiAlias", "antiAlias", "subpixelAntiAlias"]), with_source=rng.random() < 0.5)
    extra = rng.choice(["", "bold", "skew", "scaleX", "bold skew", "bold scaleX"])
    case.embolden = "bold" in extra
    case.skew_x = rng.choice([-0.25, 0.2]) if "skew" in extra else 0.0
    case.scale_x = rng.choice([1.3, 0.8]) if "scaleX" in extra else 1.0
    if path == INTER:
        case.wght = rng.choice([None, 300, 650])
    return case


def main(argv: List[str]) -> int:
    count = int(argv[1]) if len(argv) > 1 else 200
    rng = random.Random(int(argv[2]) if len(argv) > 2 else 1)
    cache = inkhit.ShapeCache()
    total_judged = total_wrong = 0
    for _ in range(count):
        case = random_case(rng)
        judged, wrong, first = check(case, cache)
        total_judged += judged
        total_wrong += wrong
        if wrong:
            print("%-70s %d of %d wrong, first %s" % (case, wrong, judged, first), flush=True)
    print("%d cases: %d judged pixels, %d wrong" % (count, total_judged, total_wrong))
    return 0 if total_wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
