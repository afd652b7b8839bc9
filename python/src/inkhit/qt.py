"""Qt from Python: the glyphs QPainter's raster engine draws of a PySide6 (or PyQt6) ``QGlyphRun``, added to a
`Builder` with Qt's rules (the library's: inkhit.h, "Qt's raster engine").

    layout = QTextLayout(text, font); ...; painter.setTransform(t); layout.draw(painter, QPointF(10, 20))
    for run in layout.glyphRuns():
        inkhit.qt.add_glyph_run(builder, run, source=fonts[run.rawFont().familyName()], transform=t,
                                origin=(10, 20), layout_draw=True)

Qt is not a dependency of this package: nothing of it is imported until a call gets a Qt object, and then only
from the module that object came from (PySide6 or PyQt6).

What is read from Qt, and why:

- the raw font's pixel size, weight and style (Qt synthesizes bold and oblique), its ``head`` table and a probe:
  the exact box of one glyph's outline as Qt makes it (``QRawFont.pathForGlyph``), which the library compares with
  the source to refuse a source Qt did not draw (another file, variable-font instance or weight) and from which
  it infers a synthesized stretch;
- the font engine's hint style, which ``QRawFont.hintingPreference()`` does not always say (the raw fonts of a
  ``QTextLayout``'s glyph runs answer ``PreferDefaultHinting`` whatever their QFont asked): full hinting gives
  whole-pixel advances that differ from the design ones; where the advances cannot tell (all whole pixels), a
  glyph drawn at x = 4 and 4.5 looks the same only when the engine does not place glyphs at quarter pixels, which
  Qt does for every hint style but full; otherwise the masks ``QRawFont.alphaMapForGlyph`` gives with and
  without hinting (under a transform scaling by 1 + 2**-16, for which Qt turns hinting off) tell vertical
  hinting from none;
- the Qt version at run time (``qVersion()``), whose rules apply.
"""
from __future__ import annotations

import ctypes
import importlib
import sys
from typing import Any, Callable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _convert as C
from . import _native as N
from ._errors import _call
from .fonts import Font, ShapeCache, _cache_handle
from .index import RUN_GLYPH_DTYPE, Builder

__all__ = ["add_glyph_run", "add_layout", "engine_hinting", "HINTING"]

#: The hint styles `engine_hinting` names, with their inkhit_glyph_style values.
HINTING = {"none": 0, "light": 1, "full": 2}

_STYLE = {0: 0, 1: 1, 2: 2}                         # QFont.Style: StyleNormal, StyleItalic, StyleOblique
_VERTICAL_SUBPIXEL_POSITIONING, _PROBE, _LAYOUT_DRAW = 1, 2, 4
_UNHINTED_SCALE = 1 + 2.0 ** -16


def _qt(obj: Any, name: str) -> Any:
    """Class `name` of the Qt binding `obj` comes from (PySide6.QtGui.QImage for a PySide6 QRawFont)."""
    module = type(obj).__module__                  # "PySide6.QtGui"
    package = module.split(".")[0]
    for sub in ("QtGui", "QtCore"):
        m = importlib.import_module(package + "." + sub)
        if hasattr(m, name):
            return getattr(m, name)
    raise C.ArgumentTypeError("inkhit.qt: %s has no %s (not a Qt object?)" % (package, name), 4)


def _value(enum: Any) -> int:
    """A Qt enum's integer (PySide6's Python enums have .value; PyQt's are ints or have .value)."""
    return int(getattr(enum, "value", enum))


def _version(obj: Any) -> int:
    """qVersion() of the binding `obj` comes from, as QT_VERSION writes it."""
    parts = (str(_qt(obj, "qVersion")()).split(".") + ["0", "0"])[:3]
    v = 0
    for p in parts:
        v = v << 8 | (int("".join(ch for ch in p if ch.isdigit()) or 0) & 0xFF)
    return v


_py_incref = ctypes.pythonapi.Py_IncRef
_py_incref.argtypes = [ctypes.py_object]
_py_incref.restype = None


def _void(method: Any, *args: Any) -> None:
    """Calls a Qt method that returns nothing. PySide6 6.12's bindings return None without a reference of their own
    from such methods: on a Python whose None is not immortal (3.11 and older) each call takes one of None's
    references, and a process dies ("deallocating None") after a few thousand. The references this call took are
    given back, so this module costs a Qt program none of them."""
    before = sys.getrefcount(None)
    method(*args)
    for _ in range(before - sys.getrefcount(None)):
        _py_incref(None)


def _pixels(image: Any) -> np.ndarray:
    """An 8-bit QImage's pixels (rows × width), copied."""
    h, w, bpl = image.height(), image.width(), image.bytesPerLine()
    if w == 0 or h == 0:
        return np.zeros((0, 0), np.uint8)
    bits = image.constBits()
    if hasattr(bits, "setsize"):                   # PyQt's sip.voidptr
        bits.setsize(h * bpl)
    data = np.frombuffer(bytes(bits), np.uint8)[: h * bpl].reshape(h, bpl)
    return data[:, :w].copy() if image.depth() == 8 else data.copy()


def _paint(raw: Any, glyph: int, x: float) -> Any:
    """`glyph` of `raw` drawn at (x, 1.5 em) into a fresh gray image, antialiased."""
    QImage, QPainter, QGlyphRun, QPointF, QColor = (_qt(raw, n) for n in ("QImage", "QPainter", "QGlyphRun", "QPointF", "QColor"))
    size = int(raw.pixelSize() * 2 + 8)
    image = QImage(size, size, QImage.Format.Format_Grayscale8)
    _void(image.fill, 0)
    painter = QPainter(image)
    _void(painter.setRenderHint, QPainter.RenderHint.Antialiasing)
    _void(painter.setPen, QColor(255, 255, 255))
    run = QGlyphRun()
    _void(run.setRawFont, raw)
    _void(run.setGlyphIndexes, [glyph])
    _void(run.setPositions, [QPointF(x, raw.pixelSize() * 1.5)])
    _void(painter.drawGlyphRun, QPointF(0, 0), run)
    _void(painter.end)
    return image


def _inked(raw: Any, glyphs: Sequence[int]) -> List[int]:
    out: List[int] = []
    for g in glyphs:
        if len(out) == 32:
            break
        if g not in out and not raw.pathForGlyph(g).isEmpty():
            out.append(g)
    return out


def _full_by_advances(raw: Any, glyphs: Sequence[int]) -> Optional[bool]:
    """True when the engine's advances are hinted (whole px, not the design ones: full hinting), False when one is
    not a whole px (no full hinting), None when they cannot tell (every advance a whole px either way)."""
    QRawFont = _qt(raw, "QRawFont")
    sample = [int(g) for g in raw.glyphIndexesForString("Hxaeo0") if int(g)]
    gs = list(dict.fromkeys(list(glyphs) + sample))
    design = raw.advancesForGlyphIndexes(gs, QRawFont.LayoutFlag.UseDesignMetrics)
    plain = raw.advancesForGlyphIndexes(gs)
    if any(abs(a.x() - b.x()) > 1e-9 for a, b in zip(design, plain)):
        return True
    if any(abs(b.x() - round(b.x())) > 1e-9 for b in plain):
        return False
    return None


#: Engines whose hint style was found ("full" or "light", which drawing cannot mistake), newest last: QRawFonts,
#: equal when they share their font engine (the raw fonts of one QTextLayout's runs do), kept alive here.
_KNOWN: List[Tuple[Any, str]] = []


def engine_hinting(raw: Any, glyphs: Sequence[int]) -> str:
    """The hint style (``"none"``, ``"light"``, ``"full"``) of the font engine behind QRawFont `raw`, found out from
    its advances and by drawing some of `glyphs` (see the module's documentation); ``"none"`` when none of them
    has ink."""
    for known, style in _KNOWN:
        if known == raw:
            return style
    style = _find_hinting(raw, glyphs)
    if style != "none":
        _KNOWN.append((raw, style))
        del _KNOWN[:-32]
    return style


def _find_hinting(raw: Any, glyphs: Sequence[int]) -> str:
    gs = _inked(raw, [int(g) for g in glyphs])
    if not gs:
        return "none"
    full = _full_by_advances(raw, gs)
    if full is None:
        full = _paint(raw, gs[0], 4.0) == _paint(raw, gs[0], 4.5)
    if full:
        return "full"
    QRawFont, QTransform = _qt(raw, "QRawFont"), _qt(raw, "QTransform")
    aa = QRawFont.AntialiasingType.PixelAntialiasing
    unhinted = QTransform(_UNHINTED_SCALE, 0, 0, 1, 0, 0)
    for g in gs:
        a = _pixels(raw.alphaMapForGlyph(g, aa))
        if a.size == 0:
            continue
        b = _pixels(raw.alphaMapForGlyph(g, aa, unhinted))
        if a.shape != b.shape or int(np.abs(a.astype(np.int16) - b.astype(np.int16)).max()) > 16:
            return "light"
    return "none"


def _transform(transform: Any) -> N.Transform:
    """A QTransform (m11, m12, m21, m22, dx, dy) or a 6-sequence (a, b, c, d, tx, ty) as an inkhit_transform."""
    if transform is not None and hasattr(transform, "m11"):
        if _value(transform.type()) >= 0x10:        # QTransform.TxProject
            raise C.InvalidArgumentError("inkhit.qt: a projective QTransform is not an affine transform", 4)
        transform = (transform.m11(), transform.m12(), transform.m21(), transform.m22(), transform.dx(), transform.dy())
    return C.transform(transform, "add_glyph_run: transform")


def _raw_font(raw: Any, glyphs: Sequence[int], flags: int) -> Tuple[N.QtRawFont, Any]:
    """`raw` read as the module's documentation says; the second value keeps the head table's bytes alive."""
    q = N.QtRawFont()
    _call(N.lib.inkhit_qt_raw_font_init_sized, ctypes.byref(q), ctypes.sizeof(q))
    q.pixel_size = C.number(raw.pixelSize(), "QRawFont.pixelSize()")
    q.hinting = HINTING[engine_hinting(raw, glyphs)]
    q.weight = C.integer(int(raw.weight()), "QRawFont.weight()", "int32_t")
    q.style = _STYLE.get(_value(raw.style()), 0)
    q.qt_version = _version(raw)
    q.flags = flags
    for g in glyphs:
        path = raw.pathForGlyph(int(g))
        if path.isEmpty():
            continue
        box = path.boundingRect()
        q.flags |= _PROBE
        q.probe_glyph = C.integer(int(g), "probe glyph", "uint32_t")
        q.probe_bounds = N.Rect(box.left(), box.top(), box.right(), box.bottom())
        break
    head = bytes(raw.fontTable("head").data())
    keep = (ctypes.c_uint8 * len(head)).from_buffer_copy(head) if head else None
    if keep is not None:
        q.head = ctypes.cast(keep, ctypes.POINTER(ctypes.c_uint8))
        q.head_length = len(head)
    return q, keep


def add_glyph_run(builder: Builder, run: Any, *, source: Font, transform: Any = None, tags: Any = None,
                  origin: Tuple[float, float] = (0.0, 0.0), layout_draw: bool = False,
                  vertical_subpixel_positioning: bool = False, cache: Optional[ShapeCache] = None) -> range:
    """Adds the glyphs QPainter's raster engine draws of `run` (a ``QGlyphRun``: of ``QTextLayout.glyphRuns()`` as
    ``QTextLayout.draw`` draws it, or one given to ``QPainter.drawGlyphRun``) through a painter whose transform is
    `transform` (its ``QTransform``, or (a, b, c, d, tx, ty); None: the identity; on a paint device with a device
    pixel ratio, ``painter.deviceTransform()``, which includes it): one placement per glyph, in order, at device px
    (query there).

    `source` is the `Font` of the file the run's raw font came from (a QRawFont names no file: fontconfig's
    ``file`` and ``index`` for its family and style, or the path given to ``QFontDatabase.addApplicationFont``
    or ``QRawFont``); the library refuses (`FontError`) a source whose ``head`` table or probe glyph says it is not
    what Qt drew — ``QRawFont(path)`` of a variable font draws its first named instance, not the defaults
    ``Font(path)`` takes. `origin` is the point given to ``drawGlyphRun``, or with `layout_draw` to
    ``QTextLayout.draw`` (Qt truncates that one to 1/64 px first); `vertical_subpixel_positioning` says the
    painter had ``QPainter.RenderHint.VerticalSubpixelPositioning``. `tags`: a sequence of one tag per glyph;
    None: the run's ``stringIndexes()`` when it has them, else each glyph's place in the run.
    Returns the placement numbers. Decorations of the run (``underline()`` and the like) are not added.
    """
    if not isinstance(builder, Builder):
        raise C.ArgumentTypeError("add_glyph_run: builder must be an inkhit.Builder", 3)
    if not isinstance(source, Font):
        raise C.ArgumentTypeError("add_glyph_run: source must be an inkhit.Font", 3)
    for what, method in (("run", "rawFont"), ("run", "glyphIndexes"), ("run", "positions")):
        if not callable(getattr(run, method, None)):
            raise C.ArgumentTypeError("add_glyph_run: %s must be a QGlyphRun (it has no %s())" % (what, method), 3)
    raw = run.rawFont()
    glyphs = [int(g) for g in run.glyphIndexes()]
    positions = list(run.positions())
    if len(positions) != len(glyphs):
        raise C.InvalidArgumentError("add_glyph_run: the run has %d glyphs and %d positions" % (len(glyphs), len(positions)), 3)
    t = _transform(transform)
    ox, oy = C.pair(origin, "add_glyph_run: origin")
    flags = (_LAYOUT_DRAW if C.flag(layout_draw, "add_glyph_run: layout_draw") else 0) | (
        _VERTICAL_SUBPIXEL_POSITIONING if C.flag(vertical_subpixel_positioning, "add_glyph_run: vertical_subpixel_positioning") else 0)
    records = np.zeros(len(glyphs), RUN_GLYPH_DTYPE)
    records["glyph"] = C.integers(glyphs, "add_glyph_run: glyphs", "uint32_t")
    records["x"] = [C.number(p.x(), "add_glyph_run: position x") for p in positions]
    records["y"] = [C.number(p.y(), "add_glyph_run: position y") for p in positions]
    if tags is None:
        strings = list(run.stringIndexes()) if callable(getattr(run, "stringIndexes", None)) else []
        records["tag"] = strings if len(strings) == len(glyphs) else np.arange(len(glyphs))
    else:
        t_tags = C.integers(tags, "add_glyph_run: tags", "uint64_t")
        if t_tags.shape[0] != len(glyphs):
            raise C.InvalidArgumentError("add_glyph_run: %d glyphs but %d tags" % (len(glyphs), t_tags.shape[0]), 3)
        records["tag"] = t_tags
    q, keep = _raw_font(raw, glyphs, flags)
    first, added = ctypes.c_size_t(), ctypes.c_size_t()
    _call(N.lib.inkhit_builder_add_qt_glyph_run, builder._handle, _cache_handle(cache), source._handle, ctypes.byref(q),
          ctypes.byref(t), N.Point(ox, oy), records.ctypes.data, records.shape[0], ctypes.byref(first),
          ctypes.byref(added))
    del keep
    return range(first.value, first.value + added.value)


Source = Union[Font, Mapping[str, Font], Callable[[Any], Font]]


def add_layout(builder: Builder, layout: Any, position: Tuple[float, float] = (0.0, 0.0), *, source: Source,
               transform: Any = None, vertical_subpixel_positioning: bool = False,
               cache: Optional[ShapeCache] = None) -> range:
    """Adds every glyph run of `layout` (a laid-out ``QTextLayout``) as ``QTextLayout.draw(painter, position)``
    draws them through a painter whose transform is `transform`: `add_glyph_run` for each of
    ``layout.glyphRuns()`` with `origin` `position` and `layout_draw`. `source` is a `Font` for every run, a
    mapping from a raw font's ``familyName()`` to its `Font`, or a callable taking the run's ``QRawFont`` and
    returning it. Tags: each glyph's place in its run (or its string index). Returns the placement numbers."""
    first: Optional[int] = None
    last = len(builder)
    for run in layout.glyphRuns():
        raw = run.rawFont()
        if isinstance(source, Font):
            font = source
        elif callable(source):
            font = source(raw)
        else:
            try:
                font = source[raw.familyName()]
            except KeyError:
                raise C.InvalidArgumentError("add_layout: source has no font for %r" % raw.familyName(), 3) from None
        r = add_glyph_run(builder, run, source=font, transform=transform, origin=position, layout_draw=True,
                          vertical_subpixel_positioning=vertical_subpixel_positioning, cache=cache)
        if first is None:
            first = r.start
        last = r.stop
    return range(last if first is None else first, last)
