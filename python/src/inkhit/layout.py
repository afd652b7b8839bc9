"""Laid-out text: HarfBuzz shaping with font fallback, bidi, wrapping, links, attachments, styled runs; hits that
land on characters, links, carets."""
from __future__ import annotations

import ctypes
import warnings
from dataclasses import dataclass
from typing import Any, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _convert as C
from . import _native as N
from ._errors import _call
from ._handle import Owned
from .fonts import Font, ShapeCache, _cache_handle

__all__ = ["Layout", "TextHit", "Caret", "CaretRect", "TextRun", "Attachment", "Exclusion", "Decoration"]

_ALIGN = {"left": 0, "center": 1, "right": 2}
_DIRECTION = {"auto": 0, "ltr": 1, "rtl": 2}
_MODE = {"ink": 0, "ink-or-empty-glyph-boxes": 1, "character-boxes": 2, "line-boxes": 3}
_KIND = ("ink", "radius", "box")
_AFFINITY = {"downstream": 0, "upstream": 1}
_UNDERLINE = {False: 0, "none": 0, "single": 1, True: 1, "double": 2}
_EXCLUSION = {"rect": 0, "ellipse": 1, "path": 2}


def _font(what: str, font: Any) -> int:
    if not isinstance(font, Font):
        raise C.ArgumentTypeError("%s must be an inkhit.Font, not %s" % (what, type(font).__name__), 3)
    return font._handle
_DECORATION = ("underline", "strikethrough", "overline")


@dataclass(frozen=True)
class Attachment:
    """An inline object (image, formula) on a U+FFFC at character `at` of the text: `width` wide, `ascent` above
    and `descent` below the baseline, corners rounded by `corner_radius` (layout px). Hit as its box, on top."""
    at: int
    width: float
    ascent: float
    descent: float = 0.0
    corner_radius: float = 0.0


@dataclass(frozen=True)
class TextRun:
    """A styled run over characters ``start ..< end`` of the text (str indexes); None leaves a member as the
    paragraph (or an earlier run) has it. Later runs win per member where runs overlap.

    Attributes:
        fonts: the run's fallback chain, as `Font` objects of the layout's `fonts` or indexes into it.
        size: px per em. underline: ``"single"``, ``"double"`` or False. strikethrough, overline: bools.
        baseline_shift: layout px, positive moves the baseline up. letter_spacing: layout px after each grapheme.
    """
    start: int
    end: int
    fonts: Optional[Sequence[Union[int, Font]]] = None
    size: Optional[float] = None
    underline: Union[None, bool, str] = None
    strikethrough: Optional[bool] = None
    overline: Optional[bool] = None
    baseline_shift: Optional[float] = None
    letter_spacing: Optional[float] = None


@dataclass(frozen=True)
class Exclusion:
    """A shape, layout px (the space of `origin`), that lines flow around: ``Exclusion.rect(x, y, w, h)``,
    ``Exclusion.ellipse(x, y, w, h)`` or ``Exclusion.path("M0 100 L40 100 L0 140 Z")`` (SVG path data, nonzero)."""
    kind: str
    box: Tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    path_data: str = ""

    @staticmethod
    def rect(x: float, y: float, w: float, h: float) -> "Exclusion":
        """The rectangle with top-left (x, y), `w` × `h` layout px."""
        return Exclusion("rect", (x, y, w, h))

    @staticmethod
    def ellipse(x: float, y: float, w: float, h: float) -> "Exclusion":
        """The ellipse inscribed in the rectangle (x, y, w, h), layout px."""
        return Exclusion("ellipse", (x, y, w, h))

    @staticmethod
    def path(data: str) -> "Exclusion":
        """SVG path data (M L H V C S Q T Z, absolute or relative; no arcs), layout px, filled nonzero."""
        return Exclusion("path", path_data=data)


@dataclass(frozen=True)
class TextHit:
    """What a point on laid-out text hit.

    Attributes:
        start, end: the character under the point as indexes of the Python string (inside a ligature: the
            component under it; on the ellipsis: the range it cut).
        utf16, utf8: the same range as UTF-16 and UTF-8 offsets.
        placement: the placement hit, an index into `Layout.glyphs` (not a glyph id), None on an attachment or a
            decoration (`glyph` is its name before 1.3, deprecated).
        link: index into `links` of the link over the character, or None. attachment: index into
            `attachments`, or None. decoration: ``"underline"``, ``"strikethrough"``, ``"overline"`` or None.
        character: grapheme index. line: line index.
        distance: signed distance to the ink hit, view px, negative inside (0 for box modes).
        kind: ``"ink"`` (on the ink), ``"radius"`` (within the radius), ``"box"`` (a box mode).
        inside: ``kind != "radius"``.
    """
    start: int
    end: int
    utf16: Tuple[int, int]
    utf8: Tuple[int, int]
    placement: Optional[int]
    link: Optional[int]
    attachment: Optional[int]
    decoration: Optional[str]
    character: int
    line: int
    distance: float
    kind: str

    @property
    def glyph(self) -> Optional[int]:
        """`placement` under its name before 1.3 (deprecated: it holds a placement, never a glyph id)."""
        warnings.warn("TextHit.glyph is TextHit.placement", DeprecationWarning, 2)
        return self.placement

    @property
    def inside(self) -> bool:
        """True when the point is on the ink (or inside an attachment's box, or decided by a box mode), False
        when it is only within the radius."""
        return self.kind != "radius"


@dataclass(frozen=True)
class Caret:
    """Where a caret goes: the insertion offset `offset` (index of the Python string, 0 … len), its UTF-16 and
    UTF-8 offsets, the line, and the side of a line break it sticks to (``"downstream"`` / ``"upstream"``)."""
    offset: int
    utf16: int
    utf8: int
    line: int
    affinity: str


@dataclass(frozen=True)
class CaretRect:
    """Where a caret is drawn: a vertical segment at `x` from `top` to `bottom` (layout px), and its ends in
    view px (`view_top`, `view_bottom`)."""
    x: float
    top: float
    bottom: float
    view_top: Tuple[float, float]
    view_bottom: Tuple[float, float]
    line: int
    affinity: str


@dataclass(frozen=True)
class Decoration:
    """One decoration stroke (hit as ink under the glyphs): `kind`, its rectangle (x, y, w, h, layout px), the
    characters it runs under (str indexes ``start ..< end``) and its line."""
    kind: str
    rect: Tuple[float, float, float, float]
    start: int
    end: int
    line: int


class _Offsets:
    """Conversions between indexes of a Python string and its UTF-8 / UTF-16 offsets (built once, numpy)."""

    def __init__(self, text: str) -> None:
        self.utf8 = text.encode("utf-8", "surrogatepass")
        raw = np.frombuffer(self.utf8, dtype=np.uint8)
        starts = np.flatnonzero((raw & 0xC0) != 0x80)
        self.byte_of_char = np.append(starts, len(self.utf8)).astype(np.int64)
        widths = np.diff(self.byte_of_char)
        self.units_of_char = np.concatenate(([0], np.cumsum(np.where(widths == 4, 2, 1)))).astype(np.int64)

    def byte(self, i: Any, what: str) -> int:
        """The UTF-8 offset of str index `i` (past the end: as many bytes past it, for the library to refuse)."""
        i = C.integer(i, what, "uint64_t")
        n = len(self.byte_of_char) - 1
        return int(self.byte_of_char[i]) if i <= n else int(self.byte_of_char[n]) + (i - n)

    def char_of_byte(self, b: int) -> int:
        return int(np.searchsorted(self.byte_of_char, b, side="left"))

    def char_of_unit(self, u: int) -> int:
        return int(np.searchsorted(self.units_of_char, u, side="left"))


class Layout(Owned):
    """`text` laid out in `fonts` (fallback order: each character takes the first font that has it).

    Args:
        text: the paragraph(s) (``\\n`` breaks lines). Offsets (links, runs, attachments, carets, hits) are
            indexes of this Python string.
        fonts: one or more `Font` objects.
        size: px per em (layout px). width: wrap width, layout px (None: only newlines break lines).
        origin: top-left of the text box, layout px. transform: layout px → view px (a, b, c, d, tx, ty).
        tolerance: flattening tolerance, view px. links: ``(start, end)`` ranges (hits name them by index).
        attachments: `Attachment` objects. max_lines: most lines (0: no limit); a cut line ends in "…".
        alignment: ``"left"``, ``"center"``, ``"right"``. direction: ``"auto"``, ``"ltr"``, ``"rtl"``.
        runs: `TextRun` objects (styled runs). exclusions: `Exclusion` shapes lines flow around.
        line_height: a multiple of the natural line height. paragraph_spacing, first_line_indent: layout px.
        cache: where glyph shapes come from (None: the process-wide cache).

    The layout copies the text and keeps its fonts alive inside the library; it is immutable and may be queried
    from many threads at once.
    """

    _kind = "Layout"

    def __init__(self, text: str, fonts: Sequence[Font], size: float = 16.0, width: Optional[float] = None,
                 origin: Tuple[float, float] = (0.0, 0.0), transform: Any = None, tolerance: float = 0.01,
                 links: Sequence[Tuple[int, int]] = (), attachments: Sequence[Attachment] = (), max_lines: int = 0,
                 alignment: str = "left", direction: str = "auto", runs: Sequence[TextRun] = (),
                 exclusions: Sequence[Exclusion] = (), line_height: Optional[float] = None,
                 paragraph_spacing: float = 0.0, first_line_indent: float = 0.0,
                 cache: Optional[ShapeCache] = None) -> None:
        if not isinstance(text, str):
            raise C.ArgumentTypeError("Layout: text must be a str, not %s" % type(text).__name__, 3)
        self.text = text
        self.fonts = C.items(fonts, "Layout: fonts")
        self.links = [tuple(C.items(l, "Layout: links[%d] (start, end)" % i, 2)) for i, l in enumerate(C.items(links, "Layout: links"))]
        attachments = C.items(attachments, "Layout: attachments")
        runs = C.items(runs, "Layout: runs")
        exclusions = C.items(exclusions, "Layout: exclusions")
        self._offsets = _Offsets(text)
        o = N.LayoutOptions()
        _call(N.lib.inkhit_layout_options_init_sized, ctypes.byref(o), ctypes.sizeof(N.LayoutOptions))
        keep: List[Any] = []   # everything the options point to, alive until the call returns
        for r in runs:
            if not isinstance(r, TextRun):
                raise C.ArgumentTypeError("Layout: runs are inkhit.TextRun objects, not %s" % type(r).__name__, 3)
            for f in C.items(r.fonts or (), "TextRun.fonts"):
                if isinstance(f, Font) and f not in self.fonts:
                    self.fonts.append(f)
        handles = [_font("Layout: fonts[%d]" % i, f) for i, f in enumerate(self.fonts)]
        font_array = (ctypes.c_void_p * max(1, len(handles)))(*handles)
        o.fonts = ctypes.cast(font_array, ctypes.POINTER(ctypes.c_void_p))
        o.font_count = len(handles)
        o.size = C.number(size, "Layout: size")
        o.width = 0.0 if width is None else C.number(width, "Layout: width")
        o.origin = N.Point(*C.pair(origin, "Layout: origin"))
        o.transform = C.transform(transform, "Layout: transform")
        o.tolerance = C.number(tolerance, "Layout: tolerance")
        b = self._offsets.byte
        link_array = (N.TextLink * max(1, len(self.links)))(*[
            N.TextLink(b(l[0], "Layout: links[%d] start" % i), b(l[1], "Layout: links[%d] end" % i))
            for i, l in enumerate(self.links)])
        o.links, o.link_count = link_array, len(self.links)
        for a in attachments:
            if not isinstance(a, Attachment):
                raise C.ArgumentTypeError("Layout: attachments are inkhit.Attachment objects, not %s" % type(a).__name__, 3)
        att = (N.TextAttachment * max(1, len(attachments)))(*[
            N.TextAttachment(b(a.at, "Layout: attachments[%d].at" % i), C.number(a.width, "Attachment.width"),
                             C.number(a.ascent, "Attachment.ascent"), C.number(a.descent, "Attachment.descent"),
                             C.number(a.corner_radius, "Attachment.corner_radius"))
            for i, a in enumerate(attachments)])
        o.attachments, o.attachment_count = att, len(attachments)
        o.max_lines = C.integer(max_lines, "Layout: max_lines", "uint32_t")
        o.alignment = C.choice(alignment, _ALIGN, "Layout: alignment")
        o.direction = C.choice(direction, _DIRECTION, "Layout: direction")
        o.cache = _cache_handle(cache)
        keep += [font_array, link_array, att]
        self._styled_options(o, runs, exclusions, line_height, paragraph_spacing, first_line_indent, keep)
        handle = ctypes.c_void_p()
        _call(N.lib.inkhit_layout_create_utf8, self._offsets.utf8, len(self._offsets.utf8), ctypes.byref(o),
              ctypes.byref(handle))
        self._own(handle.value, N.lib.inkhit_layout_release)  # type: ignore[arg-type]
        info = N.LayoutInfo()
        _call(N.lib.inkhit_layout_get_info, handle, ctypes.byref(info))
        self._info = info

    def _styled_options(self, o: Any, runs: Sequence[TextRun], exclusions: Sequence[Exclusion],
                        line_height: Optional[float], paragraph_spacing: float, first_line_indent: float,
                        keep: List[Any]) -> None:
        b = self._offsets.byte
        c_runs = (N.TextRun * max(1, len(runs)))()
        for i, r in enumerate(runs):
            c = c_runs[i]
            what = "Layout: runs[%d]" % i
            c.start, c.end = b(r.start, what + ".start"), b(r.end, what + ".end")
            if r.fonts is not None:
                idx = [C.integer(f, what + ".fonts", "uint32_t") if not isinstance(f, Font) else self.fonts.index(f)
                       for f in C.items(r.fonts, what + ".fonts")]
                arr = (ctypes.c_uint32 * max(1, len(idx)))(*idx)
                keep.append(arr)
                c.fonts, c.font_count, c.set = arr, len(idx), c.set | 1
            if r.size is not None:
                c.size, c.set = C.number(r.size, what + ".size"), c.set | 2
            if r.underline is not None:
                c.underline, c.set = C.choice(r.underline, _UNDERLINE, what + ".underline"), c.set | 4
            if r.strikethrough is not None:
                c.strikethrough, c.set = int(C.flag(r.strikethrough, what + ".strikethrough")), c.set | 8
            if r.overline is not None:
                c.overline, c.set = int(C.flag(r.overline, what + ".overline")), c.set | 16
            if r.baseline_shift is not None:
                c.baseline_shift, c.set = C.number(r.baseline_shift, what + ".baseline_shift"), c.set | 32
            if r.letter_spacing is not None:
                c.letter_spacing, c.set = C.number(r.letter_spacing, what + ".letter_spacing"), c.set | 64
        c_ex = (N.Exclusion * max(1, len(exclusions)))()
        for i, e in enumerate(exclusions):
            what = "Layout: exclusions[%d]" % i
            if not isinstance(e, Exclusion):
                raise C.ArgumentTypeError("%s is an inkhit.Exclusion, not %s" % (what, type(e).__name__), 3)
            c_ex[i].kind = C.choice(e.kind, _EXCLUSION, what + ".kind")
            x, y, w, h = (C.number(v, what + ".box") for v in C.items(e.box, what + ".box", 4))
            c_ex[i].rect = N.Rect(x, y, x + w, y + h)
            if e.kind == "path":
                if not isinstance(e.path_data, str):
                    raise C.ArgumentTypeError("%s.path_data is a str" % what, 3)
                data = e.path_data.encode("utf-8", "surrogatepass")
                keep.append(data)
                c_ex[i].path, c_ex[i].path_length = data, len(data)
        keep += [c_runs, c_ex]
        o.runs, o.run_count = c_runs, len(runs)
        o.exclusions, o.exclusion_count = c_ex, len(exclusions)
        o.line_height = 0.0 if line_height is None else C.number(line_height, "Layout: line_height")
        o.paragraph_spacing = C.number(paragraph_spacing, "Layout: paragraph_spacing")
        o.first_line_indent = C.number(first_line_indent, "Layout: first_line_indent")

    # --- facts ------------------------------------------------------------------------------------------

    @property
    def glyph_count(self) -> int:
        """Number of laid-out glyphs."""
        return self._info.glyph_count

    @property
    def line_count(self) -> int:
        """Number of lines."""
        return self._info.line_count

    @property
    def bounds(self) -> Tuple[float, float, float, float]:
        """Union of the line boxes (min_x, min_y, max_x, max_y), layout px."""
        r = self._info.bounds
        return (r.min_x, r.min_y, r.max_x, r.max_y)

    @property
    def truncated(self) -> Optional[Tuple[int, int]]:
        """The character range cut by `max_lines` (str indexes), or None."""
        i = self._info
        if i.truncated_start < 0:
            return None
        return (self._offsets.char_of_unit(i.truncated_start), self._offsets.char_of_unit(i.truncated_end))

    def glyphs(self) -> np.ndarray:
        """Every positioned glyph, line by line (what a renderer draws): a structured array with ``font`` (index
        into `fonts`), ``glyph`` (id), ``right_to_left``, ``ellipsis``, ``x``, ``y`` (origin on the baseline,
        layout px), ``size`` (px per em), ``advance`` (layout px), ``utf16_start``, ``utf16_end``, ``line``."""
        n = self._info.glyph_count
        out = np.zeros(n, _struct_dtype(N.LayoutGlyph))
        _call(N.lib.inkhit_layout_glyphs, self._handle, 0, n, out.ctypes.data if n else None)
        return out

    def lines(self) -> np.ndarray:
        """Every line: ``box_*`` (line box, layout px), ``baseline`` (y, layout px), ``utf16_start``,
        ``utf16_end``, ``content_box_*`` (the inked and advancing content, layout px)."""
        n = self._info.line_count
        out = np.zeros(n, _struct_dtype(N.LayoutLine))
        _call(N.lib.inkhit_layout_lines, self._handle, 0, n, out.ctypes.data if n else None)
        return out

    def decorations(self) -> List[Decoration]:
        """The decoration strokes (underlines, strikethroughs, overlines) of the styled runs, line by line."""
        n = ctypes.c_size_t()
        _call(N.lib.inkhit_layout_decoration_count, self._handle, ctypes.byref(n))
        arr = (N.LayoutDecoration * max(1, n.value))()
        _call(N.lib.inkhit_layout_decorations, self._handle, 0, n.value, arr)
        u = self._offsets.char_of_unit
        return [Decoration(_DECORATION[d.kind] if 0 <= d.kind < 3 else "unknown",
                           (d.rect.min_x, d.rect.min_y, d.rect.max_x - d.rect.min_x, d.rect.max_y - d.rect.min_y),
                           u(d.utf16_start), u(d.utf16_end), d.line) for d in arr[:n.value]]

    # --- queries ----------------------------------------------------------------------------------------

    def _text_hit(self, c: Any, decoration: Optional[str] = None) -> TextHit:
        cb = self._offsets.char_of_byte
        return TextHit(cb(c.utf8_start), cb(c.utf8_end), (c.utf16_start, c.utf16_end), (c.utf8_start, c.utf8_end),
                       c.placement if c.placement >= 0 else None, c.link if c.link >= 0 else None,
                       c.attachment if c.attachment >= 0 else None, decoration, c.character, c.line, c.distance,
                       _KIND[c.kind] if 0 <= c.kind < 3 else "unknown")

    def hit(self, x: float, y: float, radius: float = 0.0, mode: str = "ink") -> Optional[TextHit]:
        """The character, link and attachment under (x, y), view px, within `radius` view px, or None.
        `mode`: ``"ink"`` (holes and gaps miss; decorations are ink), ``"ink-or-empty-glyph-boxes"``,
        ``"character-boxes"``, ``"line-boxes"`` (what box hit-testing answers).

        Raises:
            InvalidArgumentError: a negative or NaN radius, a NaN or infinite point (the library's rules)."""
        m = C.choice(mode, _MODE, "Layout.hit: mode")
        c = N.TextHit()
        decoration = ctypes.c_int64(-1)
        px, py, r = C.number(x, "Layout.hit: x"), C.number(y, "Layout.hit: y"), C.number(radius, "Layout.hit: radius")
        if m == 0:
            _call(N.lib.inkhit_layout_hit_decoration, self._handle, px, py, r, ctypes.byref(c), ctypes.byref(decoration))
        else:
            _call(N.lib.inkhit_layout_hit, self._handle, px, py, r, m, ctypes.byref(c))
        if not c.hit:
            return None
        kind = None
        if decoration.value >= 0:
            kind = self.decorations()[decoration.value].kind
        return self._text_hit(c, kind)

    def link(self, x: float, y: float, radius: float = 0.0) -> Optional[int]:
        """The index (into `links`) of the link under (x, y), view px, within `radius` view px, or None: the
        topmost link glyph whose ink holds the point, else the nearest within the radius."""
        c = N.TextHit()
        _call(N.lib.inkhit_layout_link_hit, self._handle, C.number(x, "Layout.link: x"), C.number(y, "Layout.link: y"),
              C.number(radius, "Layout.link: radius"), ctypes.byref(c))
        return c.link if c.hit and c.link >= 0 else None

    def caret(self, x: float, y: float) -> Optional[Caret]:
        """Where a caret goes for (x, y), view px: the nearest line, then the nearest character edge on it (as
        CTLineGetStringIndexForPosition); None for an empty layout."""
        c = N.Caret()
        _call(N.lib.inkhit_layout_caret, self._handle, C.number(x, "Layout.caret: x"), C.number(y, "Layout.caret: y"),
              ctypes.byref(c))
        if not c.found:
            return None
        return Caret(self._offsets.char_of_byte(c.utf8), c.utf16, c.utf8, c.line,
                     "upstream" if c.affinity == 1 else "downstream")

    def caret_rect(self, offset: int, affinity: str = "downstream") -> Optional[CaretRect]:
        """Where the caret for insertion offset `offset` (str index, 0 … len) is drawn; in mixed-direction text
        `affinity` picks one of an offset's two positions."""
        c = N.CaretRect()
        _call(N.lib.inkhit_layout_caret_rect, self._handle, self._offsets.byte(offset, "Layout.caret_rect: offset"),
              C.choice(affinity, _AFFINITY, "Layout.caret_rect: affinity"), ctypes.byref(c))
        if not c.found:
            return None
        return CaretRect(c.x, c.top, c.bottom, (c.view_top.x, c.view_top.y), (c.view_bottom.x, c.view_bottom.y),
                         c.line, "upstream" if c.affinity == 1 else "downstream")


def _struct_dtype(struct: Any) -> np.dtype:
    """A numpy dtype laid over a ctypes struct (nested rects and points flattened as name_field)."""
    names, formats, offsets = [], [], []
    kinds = {ctypes.c_double: np.float64, ctypes.c_int64: np.int64, ctypes.c_uint32: np.uint32,
             ctypes.c_uint16: np.uint16, ctypes.c_int32: np.int32, ctypes.c_uint64: np.uint64}
    for name, ctype in struct._fields_:
        base = getattr(struct, name).offset
        if ctype in kinds:
            names.append(name); formats.append(kinds[ctype]); offsets.append(base)
        else:
            for sub, stype in ctype._fields_:
                names.append(name + "_" + sub); formats.append(kinds[stype])
                offsets.append(base + getattr(ctype, sub).offset)
    return np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": ctypes.sizeof(struct)})
