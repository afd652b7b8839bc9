"""Hit what Skia drew: glyphs as an ``skia.Font`` draws them (skia-python), through the library's Skia rules.

Skia (Chrome, Android, Flutter) decides a few things about a glyph's ink that its positions do not say: it rounds
each origin on the device (whole pixels, or ¼ px with subpixel positioning), strokes fake bold, hints only
axis-aligned text (at the device size, ``scaleX`` apart), hints aliased text for 1-bit masks and draws large
glyphs as paths. The library knows these rules (inkhit.h's ``inkhit_glyph_style_for_skia``, Swift's
``GlyphStyle.skia``); this module reads an ``skia.Font``'s settings into ``inkhit_skia_font`` and adds the glyphs
with the style the library returns. skia-python is not a dependency: the objects are read by duck typing (their
getters), and ``skia`` is imported only to lay out a text blob run that has no positions.

    import skia, inkhit, inkhit.skia
    font = skia.Font(skia.Typeface.MakeFromFile(path), 17)
    glyphs = font.textToGlyphs("Hamburg")
    positions = font.getPos(glyphs, skia.Point(10, 30))
    builder = skia.TextBlobBuilder(); builder.allocRunPos(font, glyphs, positions)
    canvas.drawTextBlob(builder.make(), 0, 0, paint)

    hits = inkhit.Builder()
    inkhit.skia.add_glyphs(hits, font, glyphs, positions, transform=canvas.getTotalMatrix())
    index = hits.build()          # index.hit(x, y) in device px, as Skia drew them

Spaces: `positions` are canvas-local (what ``allocRunPos`` takes); `transform` is the canvas's total matrix
(local → device px), as a 6-tuple in InkHit's order ``(a, b, c, d, tx, ty)`` (``x' = a*x + c*y + tx``) or an
``skia.Matrix``; queries are device px. Fill paints only (a stroke paint's outline is not modelled).
"""
from __future__ import annotations

import ctypes
import struct
from collections import OrderedDict
from threading import Lock
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from . import _convert as C
from . import _native as N
from ._errors import _call
from .fonts import Font, GlyphStyle
from .index import RUN_GLYPH_DTYPE, Builder

__all__ = ["add_glyphs", "add_text_blob", "add_path", "glyph_style", "settings", "font_source", "transform_of"]

_NONE = ctypes.c_int32(0)


def transform_of(matrix: Any, what: str = "transform") -> Tuple[float, float, float, float, float, float]:
    """`matrix` (an ``skia.Matrix`` without perspective, a 6-sequence in InkHit's order, or None for the identity)
    as ``(a, b, c, d, tx, ty)``: an ``skia.Matrix``'s scaleX, skewY, skewX, scaleY, translateX, translateY."""
    if matrix is None:
        return (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    if hasattr(matrix, "getScaleX") and hasattr(matrix, "getSkewY"):
        if hasattr(matrix, "hasPerspective") and matrix.hasPerspective():
            raise C.InvalidArgumentError("%s: a perspective matrix is not modelled (Skia draws such glyphs as paths)" % what, 3)
        return (C.number(matrix.getScaleX(), what), C.number(matrix.getSkewY(), what), C.number(matrix.getSkewX(), what),
                C.number(matrix.getScaleY(), what), C.number(matrix.getTranslateX(), what),
                C.number(matrix.getTranslateY(), what))
    t = C.transform(matrix, what)
    return (t.a, t.b, t.c, t.d, t.tx, t.ty)


def settings(font: Any) -> N.SkiaFont:
    """The ``inkhit_skia_font`` of an ``skia.Font`` (or anything with its getters): getSize, getScaleX, getSkewX,
    getHinting, getEdging, isEmbolden, isSubpixel, isBaselineSnap, isForceAutoHinting. The library checks the
    values (`glyph_style` raises its error: a forced auto-hinter, for one, is not modelled)."""
    f = N.SkiaFont()
    _call(N.lib.inkhit_skia_font_init_sized, ctypes.byref(f), ctypes.sizeof(f))
    try:
        f.size = C.number(font.getSize(), "skia font size")
        f.scale_x = C.number(font.getScaleX(), "skia font scaleX")
        f.skew_x = C.number(font.getSkewX(), "skia font skewX")
        f.hinting = C.integer(int(font.getHinting()), "skia font hinting", "int32_t")
        f.edging = C.integer(int(font.getEdging()), "skia font edging", "int32_t")
        f.embolden = int(C.flag(bool(font.isEmbolden()), "skia font embolden"))
        f.subpixel = int(C.flag(bool(font.isSubpixel()), "skia font subpixel"))
        f.baseline_snap = int(C.flag(bool(font.isBaselineSnap()), "skia font baselineSnap"))
        f.force_auto_hinting = int(C.flag(bool(font.isForceAutoHinting()), "skia font forceAutoHinting"))
    except AttributeError as e:
        raise C.ArgumentTypeError("font must be an skia.Font (or have its getters): %s" % e, 3) from None
    return f


def glyph_style(font: Any, transform: Any = None) -> GlyphStyle:
    """The `GlyphStyle` Skia draws `font`'s glyphs with on a canvas whose total matrix is `transform` (see
    `transform_of`): the library's ``inkhit_glyph_style_for_skia``. Use it with the font's size, that transform
    and the canvas-local positions (`add_glyphs` does)."""
    s = N.GlyphStyle()
    _call(N.lib.inkhit_glyph_style_init_sized, ctypes.byref(s), ctypes.sizeof(s))
    t = N.Transform(*transform_of(transform))
    _call(N.lib.inkhit_glyph_style_for_skia, ctypes.byref(settings(font)), ctypes.byref(t), ctypes.byref(s))
    return GlyphStyle._from_struct(s)


# Fonts rebuilt from typefaces, by the typeface's unique id and variation position (a few, newest kept).
_SOURCES: "OrderedDict[Any, Font]" = OrderedDict()
_SOURCES_LOCK = Lock()
_MAX_SOURCES = 16


def _position(typeface: Any) -> List[Tuple[str, float]]:
    """The typeface's variation design position as (tag, value) pairs (empty for a font that does not vary)."""
    if not hasattr(typeface, "getVariationDesignPosition"):
        return []
    out = []
    for c in typeface.getVariationDesignPosition() or []:
        tag = int(c.axis)
        out.append((tag.to_bytes(4, "big").decode("latin-1"), float(c.value)))
    return out


def _sfnt(typeface: Any) -> bytes:
    """The typeface's font file rebuilt from its tables (``getTableTags`` / ``getTableData``): an sfnt with a table
    directory, each table 4-byte aligned, as the font's own file lays them out (checksums are FreeType's to ignore)."""
    tags = [int(t) for t in typeface.getTableTags()]
    if not tags:
        raise C.InvalidArgumentError("the typeface gives no tables (pass source=, an inkhit.Font over its file)", 3)
    tables = [(t, bytes(typeface.getTableData(t))) for t in sorted(tags)]
    flavour = b"OTTO" if any(t in (0x43464620, 0x43464632) for t, _ in tables) else b"\x00\x01\x00\x00"
    n = len(tables)
    power = 1
    while power * 2 <= n:
        power *= 2
    header = flavour + struct.pack(">HHHH", n, power * 16, power.bit_length() - 1, n * 16 - power * 16)
    offset = 12 + 16 * n
    directory, body = b"", b""
    for tag, data in tables:
        directory += struct.pack(">IIII", tag, 0, offset + len(body), len(data))
        body += data + b"\0" * (-len(data) % 4)
    return header + directory + body


def font_source(typeface: Any, source: Optional[Font] = None) -> Font:
    """An `inkhit.Font` for ``skia.Typeface`` `typeface` at its variation position: `source` (a font over the same
    file or bytes) at that position, or without it the typeface's tables rebuilt into a font (kept for reuse)."""
    position = _position(typeface)
    if source is not None:
        if not isinstance(source, Font):
            raise C.ArgumentTypeError("source must be an inkhit.Font, not %s" % type(source).__name__, 3)
        return Font._at(source, position) if position else source
    if typeface is None:
        raise C.InvalidArgumentError("the skia font has no typeface (Skia's default): pass source=", 3)
    key = (typeface.uniqueID() if hasattr(typeface, "uniqueID") else id(typeface), tuple(position))
    with _SOURCES_LOCK:
        if key in _SOURCES:
            _SOURCES.move_to_end(key)
            return _SOURCES[key]
    base = Font(_sfnt(typeface))
    font = Font._at(base, position) if position else base
    with _SOURCES_LOCK:
        _SOURCES[key] = font
        while len(_SOURCES) > _MAX_SOURCES:
            _SOURCES.popitem(last=False)
    return font


def _xy(positions: Any, what: str) -> np.ndarray:
    """Positions as an (N, 2) array: skia.Points (``x()``, ``y()``), pairs, or an (N, 2) array."""
    if isinstance(positions, np.ndarray):
        return C.points(positions, what)
    given = C.items(positions, what)
    if given and callable(getattr(given[0], "x", None)):
        try:
            return C.points(np.array([(float(p.x()), float(p.y())) for p in given], dtype=np.float64).reshape(-1, 2), what)
        except (AttributeError, TypeError) as e:
            raise C.ArgumentTypeError("%s: %s" % (what, e), 3) from None
    return C.points(given if given else np.zeros((0, 2)), what)


def add_glyphs(builder: Builder, font: Any, glyphs: Any, positions: Any, *, source: Optional[Font] = None,
               transform: Any = None, tags: Any = None) -> range:
    """Adds glyphs as Skia draws them with `font` (an ``skia.Font``): `glyphs` and `positions` as given to
    ``TextBlobBuilder.allocRunPos`` (glyph ids; canvas-local origins on the baseline: skia.Points, pairs or an
    (N, 2) array), on a canvas whose total matrix is `transform` (an ``skia.Matrix`` or a 6-tuple in InkHit's
    order; None: the identity). `source` is an `inkhit.Font` over the same font file or bytes (the typeface's
    variation position is applied to it); without it the font is rebuilt from the typeface's tables. `tags`: an
    optional (N,) array of tags. Returns the placement numbers; queries are device px.

    The style is the library's (`glyph_style`): origins rounded on the device as Skia rounds them, fake bold as
    Skia's stroke, hinting at the device size only for axis-aligned text, ``scaleX`` as a separate x size,
    1-bit hinting for aliased text, large glyphs as Skia's paths.
    """
    t = transform_of(transform)
    style = glyph_style(font, t)
    inkhit_font = font_source(font.getTypeface() if hasattr(font, "getTypeface") else None, source)
    ids = C.integers(glyphs if not isinstance(glyphs, (list, tuple)) else [int(g) for g in glyphs],
                     "inkhit.skia.add_glyphs: glyphs", "uint32_t")
    xy = _xy(positions, "inkhit.skia.add_glyphs: positions")
    if xy.shape[0] != ids.shape[0]:
        raise C.InvalidArgumentError("inkhit.skia.add_glyphs: %d glyphs but %d positions" % (ids.shape[0], xy.shape[0]), 3)
    return builder.add_glyphs(inkhit_font, ids, xy, C.number(font.getSize(), "skia font size"), transform=t,
                              style=style, tags=tags)


def add_path(builder: Builder, path: Any, transform: Any = None, *, tag: Optional[int] = None,
             key: Optional[int] = None) -> int:
    """Adds an ``skia.Path`` as Skia iterates it (``skia.Path.Iter``: each segment with its start point, conics
    with their weights) through `Builder.add_outline`, filled by its fill type (winding or even-odd; inverse
    fills are refused), placed by `transform` (path units → view px: an ``skia.Matrix`` or a 6-tuple). Returns
    the placement's number."""
    fill = int(path.getFillType())
    if fill not in (0, 1):
        raise C.InvalidArgumentError("inkhit.skia.add_path: inverse fill types are not modelled", 3)
    it = type(path).Iter(path, False)
    verbs: List[int] = []
    points: List[Tuple[float, float]] = []
    weights: List[float] = []
    # SkPath::Verb: move 0, line 1, quad 2, conic 3, cubic 4, close 5, done 6 → INKHIT_VERB_*.
    codes = {0: 0, 1: 1, 2: 2, 3: 5, 4: 3, 5: 4}
    while True:
        verb, pts = it.next()
        v = int(verb)
        if v == 6:
            break
        if v not in codes:
            raise C.InvalidArgumentError("inkhit.skia.add_path: an unknown path verb %d" % v, 3)
        verbs.append(codes[v])
        if v != 5:
            points.extend((float(p.x()), float(p.y())) for p in pts)
        if v == 3:
            weights.append(float(it.conicWeight()))
    return builder.add_outline(np.array(verbs, dtype=np.uint8), np.array(points, dtype=np.float64).reshape(-1, 2),
                               transform=transform_of(transform), fill_rule="nonzero" if fill == 0 else "evenodd",
                               tag=tag, key=key, weights=weights, start_points=True)


# --- text blobs ---------------------------------------------------------------------------------------------------


def _blob_runs(blob: Any) -> List[dict]:
    """The runs of an ``skia.TextBlob``: skia-python's ``TextBlob.Iter`` gives each run's typeface and glyphs;
    the font settings and positions come from the blob's serialized form (``SkTextBlobPriv::Flatten``: bounds,
    then per run the glyph count, positioning, offset, the font (``SkFontPriv::Flatten``), glyphs and positions),
    checked against the iterator's glyphs."""
    data = bytes(blob.serialize())
    iterated = [(run.fTypeface, list(run.fGlyphIndices)) for run in type(blob).Iter(blob)]
    at = 16
    runs = []

    def take(fmt: str) -> Tuple:
        nonlocal at
        size = struct.calcsize(fmt)
        if at + size > len(data):
            raise ValueError("the blob's data ends early")
        values = struct.unpack_from(fmt, data, at)
        at += size
        return values

    def array(what: str) -> bytes:
        nonlocal at
        (n,) = take("<I")
        if at + n > len(data):
            raise ValueError("%s runs past the blob's data" % what)
        out = data[at:at + n]
        at += n + (-n % 4)
        return out

    try:
        while True:
            (count,) = take("<I")
            if count == 0:
                break
            (pe,) = take("<I")
            positioning, extended = pe & 0x3, bool(pe & 0x4)
            if extended:
                take("<I")
            ox, oy = take("<ff")
            (packed,) = take("<I")
            size = float((packed >> 16) & 0xFF) if packed & (1 << 31) else take("<f")[0]
            scale_x = take("<f")[0] if packed & (1 << 30) else 1.0
            skew_x = take("<f")[0] if packed & (1 << 29) else 0.0
            if packed & (1 << 28):
                (index,) = take("<i")
                if index < 0:                         # a typeface written by a serial proc: its bytes follow
                    at += -index + (index % 4)
            flags = (packed >> 4) & 0xFFF
            glyphs = np.frombuffer(array("glyphs"), dtype="<u2").astype(np.uint32)
            scalars = {0: 0, 1: 1, 2: 2, 3: 4}[positioning]
            pos = np.frombuffer(array("positions"), dtype="<f4").astype(np.float64)
            if extended:
                array("clusters")
                array("text")
            if glyphs.shape[0] != count or pos.shape[0] != count * scalars:
                raise ValueError("a run's arrays do not match its glyph count")
            runs.append({"offset": (ox, oy), "size": size, "scale_x": scale_x, "skew_x": skew_x,
                         "hinting": packed & 0x3, "edging": (packed >> 2) & 0x3, "flags": flags,
                         "positioning": positioning, "glyphs": glyphs, "pos": pos.reshape(count, scalars) if scalars else pos})
    except (ValueError, KeyError, struct.error) as e:
        raise C.InvalidArgumentError("inkhit.skia.add_text_blob: this blob's serialized form is not one this version "
                                     "reads (%s); add its runs with add_glyphs" % e, 3) from None
    if len(runs) != len(iterated) or any(list(r["glyphs"]) != g for r, (_, g) in zip(runs, iterated)):
        raise C.InvalidArgumentError("inkhit.skia.add_text_blob: the blob's serialized runs do not match its iterator; "
                                     "add its runs with add_glyphs", 3)
    for r, (typeface, _) in zip(runs, iterated):
        r["typeface"] = typeface
    return runs


class _RunFont:
    """A text blob run's font settings with an ``skia.Font``'s getters (SkFont's flags: force auto-hinting 1,
    embedded bitmaps 2, subpixel 4, linear metrics 8, embolden 16, baseline snap 32)."""

    def __init__(self, run: dict) -> None:
        self._r = run

    def getSize(self) -> float: return self._r["size"]
    def getScaleX(self) -> float: return self._r["scale_x"]
    def getSkewX(self) -> float: return self._r["skew_x"]
    def getHinting(self) -> int: return self._r["hinting"]
    def getEdging(self) -> int: return self._r["edging"]
    def isForceAutoHinting(self) -> bool: return bool(self._r["flags"] & 1)
    def isSubpixel(self) -> bool: return bool(self._r["flags"] & 4)
    def isEmbolden(self) -> bool: return bool(self._r["flags"] & 16)
    def isBaselineSnap(self) -> bool: return bool(self._r["flags"] & 32)
    def getTypeface(self) -> Any: return self._r["typeface"]


def _skia_font(run: dict) -> Any:
    """An ``skia.Font`` with the run's settings (imported here: only runs without positions need Skia's advances)."""
    import skia  # noqa: PLC0415 - skia is optional
    # The iterator's typeface is a reference skia-python cannot hand to skia.Font: its serialized copy can be.
    typeface = skia.Typeface.MakeDeserialize(run["typeface"].serialize(skia.Typeface.SerializeBehavior.kDoIncludeData),
                                             skia.FontMgr())
    f = skia.Font(typeface, run["size"], run["scale_x"], run["skew_x"])
    f.setHinting(skia.FontHinting(run["hinting"]))
    f.setEdging(skia.Font.Edging(run["edging"]))
    for bit, setter in ((1, f.setForceAutoHinting), (2, f.setEmbeddedBitmaps), (4, f.setSubpixel), (8, f.setLinearMetrics),
                        (16, f.setEmbolden), (32, f.setBaselineSnap)):
        setter(bool(run["flags"] & bit))
    return f


def add_text_blob(builder: Builder, blob: Any, x: float = 0.0, y: float = 0.0, *, sources: Optional[Sequence[Font]] = None,
                  transform: Any = None) -> List[range]:
    """Adds every run of an ``skia.TextBlob`` drawn with ``canvas.drawTextBlob(blob, x, y, paint)`` on a canvas whose
    total matrix is `transform`: each run with its own font settings and positions (default, horizontal, full
    and RSXform positioning; an RSXform glyph is drawn under its own matrix, and in a blob with RSXform runs Skia
    leaves the other runs at the blob's origin, without x, y). `sources` optionally gives an
    `inkhit.Font` per run (None entries rebuild the font from the typeface). Returns each run's placement
    numbers. Each glyph's tag is its index in its run."""
    t = transform_of(transform)
    runs = _blob_runs(blob)
    if sources is not None and len(sources) != len(runs):
        raise C.InvalidArgumentError("inkhit.skia.add_text_blob: %d sources for %d runs" % (len(sources), len(runs)), 3)
    bx, by = C.number(x, "inkhit.skia.add_text_blob: x"), C.number(y, "inkhit.skia.add_text_blob: y")
    added = []
    # Skia (SkDevice::simplifyGlyphRunRSXFormAndRedraw) draws a blob that has an RSXform run run by run, and then
    # puts the other runs at the blob's own origin: drawTextBlob's x, y move only the RSXform glyphs.
    has_rsxform = any(r["positioning"] == 3 for r in runs)
    for k, run in enumerate(runs):
        font = _RunFont(run)
        source = None if sources is None else sources[k]
        moved = run["positioning"] == 3 or not has_rsxform
        ox, oy = run["offset"][0] + (bx if moved else 0.0), run["offset"][1] + (by if moved else 0.0)
        n = run["glyphs"].shape[0]
        tags = np.arange(n, dtype=np.uint64)
        if run["positioning"] == 3:                   # RSXform: (scos, ssin, tx, ty) per glyph
            first = None
            for i in range(n):
                sc, ss, tx, ty = run["pos"][i]
                # The glyph's matrix [scos -ssin tx + ox; ssin scos ty + oy], then the canvas.
                a, b, c, d, e, f = t
                m = (a * sc + c * ss, b * sc + d * ss, a * -ss + c * sc, b * -ss + d * sc,
                     a * (tx + ox) + c * (ty + oy) + e, b * (tx + ox) + d * (ty + oy) + f)
                r = add_glyphs(builder, font, run["glyphs"][i:i + 1], np.zeros((1, 2)), source=source, transform=m,
                               tags=tags[i:i + 1])
                first = r.start if first is None else first
            added.append(range(first if first is not None else len(builder), len(builder)))
            continue
        if run["positioning"] == 2:
            xy = run["pos"] + (ox, oy)
        elif run["positioning"] == 1:
            xy = np.stack([run["pos"][:, 0] + ox, np.full(n, oy)], axis=1)
        else:
            pts = _skia_font(run).getPos([int(g) for g in run["glyphs"]])
            xy = np.array([(p.x() + ox, p.y() + oy) for p in pts], dtype=np.float64).reshape(-1, 2)
        added.append(add_glyphs(builder, font, run["glyphs"], xy, source=source, transform=t, tags=tags))
    return added
