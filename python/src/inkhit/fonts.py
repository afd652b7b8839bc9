"""Fonts and glyph styles."""
from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Mapping, Optional, Tuple, Union

from . import _convert as C
from . import _native as N
from ._errors import _call
from ._handle import Owned

__all__ = ["Font", "GlyphStyle", "ShapeCache"]

PathOrBytes = Union[str, bytes, bytearray, memoryview, "os.PathLike[str]"]
Variations = Union[Mapping[str, float], Iterable[Tuple[str, float]]]


def _tag(name: str) -> int:
    if not isinstance(name, str):
        raise C.ArgumentTypeError("an axis tag is a str, not %r" % (name,), 3)
    raw = name.encode("ascii", "replace")
    if not 1 <= len(raw) <= 4:
        raise C.InvalidArgumentError("an axis tag is 1 to 4 ASCII characters, got %r" % name, 3)
    return int.from_bytes(raw.ljust(4, b" "), "big")


def _tag_name(value: int) -> str:
    return value.to_bytes(4, "big").decode("latin-1").rstrip(" ") or " "


def _new_font(make, *args) -> int:
    handle = ctypes.c_void_p()
    _call(make, *args, ctypes.byref(handle))
    return handle.value  # type: ignore[return-value]


class Font(Owned):
    """One face of a font file (TrueType, OpenType/CFF, a collection), loaded by FreeType. Immutable.

    Args:
        path_or_bytes: a file path (str or path-like), or the font's bytes (copied: equal bytes loaded twice,
            or a file and its bytes, share one copy and their glyph shapes inside the library).
        face: the face index in a collection (FreeType's packed ``(instance << 16) | face`` is accepted too).
        variations: design coordinates of a variable font by axis tag, ``{"wght": 650, "slnt": -5}`` (axis
            units: wght 100…900, wdth %, slnt degrees); values beyond an axis are clamped as FreeType clamps them.
        instance: a named instance to start from: its 0-based index in `instances`, or its name (``"Semi Bold
            Italic"``, ASCII case-insensitive), as a job's ``"instance"``. Variations apply on top. The library
            resolves it (fvar and name tables through FreeType); Python reads no file.

    Font units are the glyph design grid, y up; `units_per_em` of them make one em. Closing a font never breaks
    an index, layout or scene made with it.

    Raises:
        FileError: no such file, not a regular file (a directory, a FIFO, a device), unreadable. FontError: not a
        font, a face, instance or axis the font lacks. InvalidArgumentError: a face, instance or coordinate of
        the wrong type or out of its C range.
    """

    _kind = "Font"

    def __init__(self, path_or_bytes: PathOrBytes, face: int = 0, variations: Optional[Variations] = None,
                 instance: Union[int, str, None] = None) -> None:
        packed = C.integer(face, "Font: face", "int32_t")
        if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
            raw = path_or_bytes if isinstance(path_or_bytes, bytes) else C.bytes_like(path_or_bytes, "Font: bytes").tobytes()
            self.path: Optional[str] = None
            handle = _new_font(N.lib.inkhit_font_from_bytes, raw, len(raw), packed)
        else:
            self.path = os.fspath(path_or_bytes)
            handle = _new_font(N.lib.inkhit_font_from_path, os.fsencode(self.path), packed)
        try:
            if instance is not None:
                if isinstance(instance, str):
                    index = ctypes.c_size_t()
                    _call(N.lib.inkhit_font_find_instance, handle, instance.encode("utf-8", "surrogatepass"),
                          ctypes.byref(index))
                    number = index.value
                else:
                    number = C.integer(instance, "Font: instance", "size_t")
                handle = self._replace(handle, N.lib.inkhit_font_with_instance, number)
            if variations:
                items = list(variations.items()) if isinstance(variations, Mapping) else list(variations)
                array = (N.Variation * len(items))(*[
                    N.Variation(_tag(t), C.number(v, "Font: variation %r" % (t,))) for t, v in items])
                handle = self._replace(handle, N.lib.inkhit_font_with_variations, array, len(items))
        except BaseException:
            N.lib.inkhit_font_release(handle)
            raise
        self._adopt_handle(handle)

    def _adopt_handle(self, handle: int) -> None:
        """Owns `handle` and reads the face's numbers."""
        self._own(handle, N.lib.inkhit_font_release)
        info = N.FontInfo()
        _call(N.lib.inkhit_font_get_info, handle, ctypes.byref(info))
        #: Font units per em.
        self.units_per_em: int = info.units_per_em
        #: Valid glyph ids are 0 ..< glyph_count (glyph 0 is .notdef).
        self.glyph_count: int = info.glyph_count
        #: The face of the file this is, and how many the file has.
        self.face_index: int = info.face_index
        self.face_count: int = info.face_count
        #: Typographic ascender, descender (usually negative) and line height, font units.
        self.ascender: int = info.ascender
        self.descender: int = info.descender
        self.height: int = info.height

    def with_variations(self, variations: Variations) -> "Font":
        """A new font: this one's file and face at other design coordinates (``{"wght": 650}`` or (tag, value)
        pairs), starting from this font's own; the bytes are shared (inkhit_font_with_variations). Values beyond
        an axis are clamped as FreeType clamps them."""
        items = list(variations.items()) if isinstance(variations, Mapping) else C.items(variations, "Font.with_variations")
        array = (N.Variation * max(1, len(items)))(*[
            N.Variation(_tag(t), C.number(v, "Font.with_variations: %r" % (t,))) for t, v in items])
        handle = _new_font(N.lib.inkhit_font_with_variations, self._handle, array, len(items))
        font = Font.__new__(Font)
        font.path = self.path
        try:
            font._adopt_handle(handle)
        except BaseException:
            N.lib.inkhit_font_release(handle)
            raise
        return font

    @staticmethod
    def _at(font: "Font", position: Iterable[Tuple[str, float]]) -> "Font":
        """`font` at a variation position given as (tag, value) pairs."""
        return font.with_variations(list(position))

    @staticmethod
    def _replace(handle: int, make, *args) -> int:
        """A font made from `handle` by `make` (inkhit_font_with_*); `handle` is released either way."""
        try:
            return _new_font(make, handle, *args)
        finally:
            N.lib.inkhit_font_release(handle)

    def glyph(self, codepoint: Union[int, str]) -> int:
        """The glyph id the font's cmap maps `codepoint` (an int, or a one-character str) to; 0 (.notdef) when
        it maps none. For text, a `Layout` shapes with HarfBuzz and falls back between fonts."""
        if isinstance(codepoint, str):
            if len(codepoint) != 1:
                raise C.InvalidArgumentError("Font.glyph: a str codepoint is one character, got %r" % (codepoint,), 3)
            cp = ord(codepoint)
        else:
            cp = C.integer(codepoint, "Font.glyph: codepoint", "uint32_t")
        out = ctypes.c_uint32()
        _call(N.lib.inkhit_font_glyph, self._handle, cp, ctypes.byref(out))
        return out.value

    def advance(self, glyph: int) -> float:
        """The horizontal advance of `glyph`, font units (unscaled, unhinted; scale by size / units_per_em for
        layout px)."""
        out = ctypes.c_double()
        _call(N.lib.inkhit_font_advance, self._handle, C.integer(glyph, "Font.advance: glyph", "uint32_t"),
              ctypes.byref(out))
        return out.value

    @property
    def variations(self) -> Dict[str, float]:
        """The design coordinates this font draws with, by axis tag in the font's order (empty: not variable)."""
        n = ctypes.c_size_t()
        _call(N.lib.inkhit_font_get_variations, self._handle, None, 0, ctypes.byref(n))
        array = (N.Variation * max(1, n.value))()
        _call(N.lib.inkhit_font_get_variations, self._handle, array, n.value, ctypes.byref(n))
        return {_tag_name(v.tag): float(v.value) for v in array[:n.value]}

    @property
    def instances(self) -> List[str]:
        """The names of the face's named instances, in the font's (fvar) order; ``Font(..., instance=i)`` takes
        one by its index here or by its name ("" for an instance the name table gives no name). Empty for a font
        that does not vary."""
        count = ctypes.c_size_t()
        _call(N.lib.inkhit_font_instance_count, self._handle, ctypes.byref(count))
        names = []
        for i in range(count.value):
            length = ctypes.c_size_t()
            _call(N.lib.inkhit_font_instance_name, self._handle, i, None, 0, ctypes.byref(length))
            buffer = ctypes.create_string_buffer(length.value + 1)
            _call(N.lib.inkhit_font_instance_name, self._handle, i, buffer, length.value + 1, ctypes.byref(length))
            names.append(buffer.value.decode("utf-8", "replace"))
        return names

    def __repr__(self) -> str:
        return "Font(%r, face=%d)" % (self.path if self.path is not None else "<bytes>", self.face_index)


_FREETYPE_OBLIQUE = 0x0366A / 65536
# inkhit.h's INKHIT_HINTING_* and the ecosystems' names the header maps onto them (cairo, fontconfig, Skia, Qt).
_HINTING = {"none": 0, "light": 1, "full": 2, "mono": 3, "slight": 1, "vertical": 1, "medium": 2, "normal": 2,
            "hintnone": 0, "hintslight": 1, "hintmedium": 2, "hintfull": 2}
_HINTING_NAME = {0: "none", 1: "light", 2: "full", 3: "mono"}
_JOIN = {"miter": 0, "round": 1, "bevel": 2}
_EMBOLDEN_NAMES = {"freetype": 1, "skia": 4}      # the named kinds of inkhit_glyph_style.embolden
_UNDER_TRANSFORM = {"keep": 0, "offWhenNotAxisAligned": 1, "offWhenScaledOrRotated": 2}
_PPEM = {"uniform": 0, "perAxis": 1, "view": 2}
# originRounding's names, as the job format spells them: ((x grid, x bias), (y grid, y bias)).
_ROUNDING = {"none": ((0.0, 0.0), (0.0, 0.0)), "wholePixels": ((1.0, 0.5), (1.0, 0.5)),
             "quarterPixelX": ((0.25, 0.125), (1.0, 0.5))}
_AXIS = {"exact": (0.0, 0.0), "wholePixel": (1.0, 0.5), "quarterPixel": (0.25, 0.125)}
# The job format's camelCase keys, accepted by GlyphStyle.of.
_KEYS = {"alphaThreshold": "alpha_threshold", "originRounding": "origin_rounding",
         "hintingUnderTransform": "hinting_under_transform", "stemDarkening": "stem_darkening"}


@dataclass(frozen=True)
class GlyphStyle:
    """How a renderer draws a glyph beyond its outline (inkhit_glyph_style; the job format's fields, with the
    same values). The order is FreeType's: load (hinted or not) at the glyph's size, `matrix`, embolden, then
    `oblique`; the origin is then snapped in view px (`origin_rounding`).

    Attributes:
        embolden: synthetic bold, growing the ink by what each value says:
            None: not emboldened.
            ``"freetype"``: FT_GlyphSlot_Embolden, 1/24 em (cairo's FC_EMBOLDEN). Like a strength, it moves
            points **right and up only**: the ink grows to the right of the origin and upwards, not on every side.
            A number ``px`` or ``(x, y)``: FT_Outline_EmboldenXY strengths in layout px at the glyph's size (the
            ink grows by x in width, rightwards, and y in height, upwards).
            ``"skia"``: Skia's fake bold, the outline stroked centred ``size × 1/24 … 1/32`` wide (miter join,
            limit 4): the ink grows on every side by half that.
            ``{"stroke": px, "join": "miter" | "round" | "bevel", "miter_limit": 4}``: a centred stroke of that
            width (layout px); ``join`` and ``miter_limit`` (``miterLimit``) are optional.
            Not a bool: ``embolden=True`` raises (say which: ``"freetype"`` or ``"skia"``).
        oblique: a shear ``x += oblique * y`` (y up) after emboldening; ``"freetype"`` is FT_GlyphSlot_Oblique's
            0.2126. ``|oblique| <= 4``.
        hinting: ``"none"`` (the exact outline), ``"light"``, ``"full"`` or ``"mono"`` (FT_LOAD_TARGET_MONO,
            1-bit text), as FreeType hints at the glyph's size; the ecosystems' names are accepted too
            (``"slight"``, ``"vertical"``, ``"medium"``, ``"normal"``, ``"hintfull"``, …) and read back as these.
        matrix: ``(xx, xy, yx, yy)``, a 2×2 matrix about the origin in the glyph's y-up frame (fontconfig's
            FC_MATRIX; synthetic slant is ``(1, 0.2, 0, 1)``; Skia's scaleX s and skewX k are ``(s, -k, 0, 1)``).
        alpha_threshold: for bitmap glyphs, the least alpha that is ink (0 < t <= 1).
        origin_rounding: where the renderer snaps the glyph's origin in view px, per axis ``v' = grid ·
            floor((v + bias) / grid)``: ``"none"``, ``"wholePixels"``, ``"quarterPixelX"`` (Skia with subpixel
            positioning), or ``((x_grid, x_bias), (y_grid, y_bias))``.
        hinting_under_transform: ``"keep"``, ``"offWhenNotAxisAligned"`` (Skia) or ``"offWhenScaledOrRotated"``
            (Qt).
        ppem: FreeType's size per axis: ``"uniform"``, ``"perAxis"`` (the matrix's axis scales) or ``"view"``
            (sizes on the device, as Skia sets them; strokes stay in layout px).
        stem_darkening: CFF stem darkening (True or False).

    A style that neither hints, emboldens nor darkens is exact; one that does is FreeType's outline at the
    glyph's size. `inkhit.skia.glyph_style` makes the style Skia draws an ``skia.Font`` with.
    """

    embolden: Union[None, str, float, Tuple[float, float], Mapping[str, object]] = None
    oblique: Union[float, str] = 0.0
    hinting: str = "none"
    matrix: Tuple[float, float, float, float] = (1.0, 0.0, 0.0, 1.0)
    alpha_threshold: float = 0.5
    origin_rounding: Union[str, Tuple[Tuple[float, float], Tuple[float, float]]] = "none"
    hinting_under_transform: str = "keep"
    ppem: str = "uniform"
    stem_darkening: bool = False
    _c: list = field(default_factory=list, init=False, repr=False, compare=False, hash=False)

    @staticmethod
    def of(style: Union["GlyphStyle", Mapping[str, object], None]) -> Optional["GlyphStyle"]:
        """`style` as a GlyphStyle: a GlyphStyle, None, or a mapping with the job format's keys (``embolden``,
        ``oblique``, ``hinting``, ``matrix``, ``alphaThreshold``, ``originRounding``, ``hintingUnderTransform``,
        ``ppem``, ``stemDarkening``; or the attribute names)."""
        if style is None or isinstance(style, GlyphStyle):
            return style
        fields = {_KEYS.get(k, k): v for k, v in dict(style).items()}
        if isinstance(fields.get("embolden"), list):
            fields["embolden"] = tuple(fields["embolden"])  # type: ignore[arg-type]
        if isinstance(fields.get("matrix"), list):
            fields["matrix"] = tuple(fields["matrix"])  # type: ignore[arg-type]
        if isinstance(fields.get("origin_rounding"), Mapping):
            fields["origin_rounding"] = _rounding_pairs(fields["origin_rounding"], "GlyphStyle.origin_rounding")
        return GlyphStyle(**fields)  # type: ignore[arg-type]

    def _struct(self) -> N.GlyphStyle:
        """The inkhit_glyph_style (made once per style): each field converted by its own function below."""
        if self._c:
            return self._c[0]
        s = N.GlyphStyle()
        _call(N.lib.inkhit_glyph_style_init_sized, ctypes.byref(s), ctypes.sizeof(s))
        _set_embolden(s, self.embolden)
        s.oblique = _FREETYPE_OBLIQUE if self.oblique == "freetype" else C.number(self.oblique, "GlyphStyle.oblique")
        s.hinting = C.choice(self.hinting, _HINTING, "GlyphStyle.hinting")
        s.matrix_xx, s.matrix_xy, s.matrix_yx, s.matrix_yy = _matrix(self.matrix)
        s.alpha_threshold = C.number(self.alpha_threshold, "GlyphStyle.alpha_threshold")
        (s.origin_rounding.x.grid, s.origin_rounding.x.bias), (s.origin_rounding.y.grid, s.origin_rounding.y.bias) = \
            _origin_rounding(self.origin_rounding)
        s.hinting_under_transform = C.choice(self.hinting_under_transform, _UNDER_TRANSFORM, "GlyphStyle.hinting_under_transform")
        s.ppem = C.choice(self.ppem, _PPEM, "GlyphStyle.ppem")
        s.stem_darkening = 1 if C.flag(self.stem_darkening, "GlyphStyle.stem_darkening") else 0
        self._c.append(s)
        return s

    @staticmethod
    def _from_struct(s: N.GlyphStyle) -> "GlyphStyle":
        """The style an inkhit_glyph_style the library filled stands for, keeping that struct as its own."""
        kind = s.embolden
        if kind == 1:
            embolden: object = "freetype"
        elif kind == 2:
            embolden = (s.embolden_x, s.embolden_y)
        elif kind == 3:
            join = {v: k for k, v in _JOIN.items()}[s.stroke_join]
            embolden = {"stroke": s.stroke_width, "join": join, "miter_limit": s.miter_limit} if join == "miter" else \
                {"stroke": s.stroke_width, "join": join}
        elif kind == 4:
            embolden = "skia"
        else:
            embolden = None
        o = s.origin_rounding
        pairs = ((o.x.grid, o.x.bias), (o.y.grid, o.y.bias))
        rounding = next((name for name, value in _ROUNDING.items() if value == pairs), pairs)
        style = GlyphStyle(embolden=embolden, oblique=s.oblique, hinting=_HINTING_NAME[s.hinting],  # type: ignore[arg-type]
                           matrix=(s.matrix_xx, s.matrix_xy, s.matrix_yx, s.matrix_yy), alpha_threshold=s.alpha_threshold,
                           origin_rounding=rounding,
                           hinting_under_transform={v: k for k, v in _UNDER_TRANSFORM.items()}[s.hinting_under_transform],
                           ppem={v: k for k, v in _PPEM.items()}[s.ppem], stem_darkening=bool(s.stem_darkening))
        style._c.append(s)
        return style


def _set_embolden(s: N.GlyphStyle, value: object) -> None:
    """GlyphStyle.embolden into inkhit_glyph_style's embolden fields (see GlyphStyle). A bool is none of the
    forms: `embolden=True` is an error, not 1 px."""
    what = "GlyphStyle.embolden (None, \"freetype\", \"skia\", a strength in px, (x, y) or {\"stroke\": px})"
    if value is None:
        s.embolden = 0
    elif isinstance(value, str):
        s.embolden = C.choice(value, _EMBOLDEN_NAMES, what)
    elif isinstance(value, Mapping):
        unknown = set(value) - {"stroke", "join", "miter_limit", "miterLimit"}
        if unknown or "stroke" not in value:
            raise C.InvalidArgumentError("%s: a stroke is {\"stroke\": px, \"join\", \"miter_limit\"}, got %r" % (what, dict(value)), 3)
        s.embolden = 3
        s.stroke_width = C.number(value["stroke"], "GlyphStyle.embolden stroke")
        s.stroke_join = C.choice(value.get("join", "miter"), _JOIN, "GlyphStyle.embolden join")
        s.miter_limit = C.number(value.get("miter_limit", value.get("miterLimit", 4.0)), "GlyphStyle.embolden miter_limit")
    else:
        if isinstance(value, (tuple, list)):
            x, y = C.pair(value, what)
        else:
            x = y = C.number(value, what)
        if x != 0 or y != 0:
            s.embolden, s.embolden_x, s.embolden_y = 2, x, y


def _rounding_pairs(value: Mapping, what: str) -> Tuple[Tuple[float, float], Tuple[float, float]]:
    """The job format's ``{"x": axis, "y": axis}`` (an axis ``"exact"``, ``"wholePixel"``, ``"quarterPixel"``,
    ``{"grid", "bias"}`` or a (grid, bias) pair) as pairs."""
    def axis(a: object) -> Tuple[float, float]:
        if a is None or isinstance(a, str):
            return C.choice("exact" if a is None else a, _AXIS, what)
        if isinstance(a, Mapping):
            return C.number(a.get("grid"), what + " grid"), C.number(a.get("bias", 0.0), what + " bias")
        return C.pair(a, what)
    unknown = set(value) - {"x", "y"}
    if unknown:
        raise C.InvalidArgumentError("%s has %r, not \"x\" or \"y\"" % (what, sorted(unknown)[0]), 3)
    return axis(value.get("x")), axis(value.get("y"))


def _origin_rounding(value: object) -> Tuple[Tuple[float, float], Tuple[float, float]]:
    """GlyphStyle.origin_rounding as ((x grid, x bias), (y grid, y bias)); the library checks the ranges."""
    what = "GlyphStyle.origin_rounding"
    if isinstance(value, str):
        return C.choice(value, _ROUNDING, what)
    if isinstance(value, Mapping):
        return _rounding_pairs(value, what)
    x, y = C.items(value, what + " ((x_grid, x_bias), (y_grid, y_bias))", 2)
    return C.pair(x, what + " x"), C.pair(y, what + " y")


def _matrix(value: object) -> Tuple[float, float, float, float]:
    """GlyphStyle.matrix (xx, xy, yx, yy) as four doubles."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__") or len(value) != 4:  # type: ignore[arg-type]
        raise C.InvalidArgumentError("GlyphStyle.matrix is 4 numbers (xx, xy, yx, yy), got %r" % (value,), 3)
    xx, xy, yx, yy = (C.number(v, "GlyphStyle.matrix") for v in value)  # type: ignore[union-attr]
    return xx, xy, yx, yy


class ShapeCache(Owned):
    """A cache of flattened glyph shapes and custom outlines, shared by builders and layouts (thread-safe).
    Keeps at most `max_bytes` bytes of glyph shapes and as many of outlines, oldest evicted first (None: no
    bound; 0: the default, 64 MiB, as 0 means the default in every size and budget; 1: keeps nothing).
    Without one, calls use the process-wide cache (64 MiB of glyph shapes)."""

    _kind = "ShapeCache"

    def __init__(self, max_bytes: Optional[int] = None) -> None:
        handle = ctypes.c_void_p()
        limit = (1 << 64) - 1 if max_bytes is None else C.integer(max_bytes, "ShapeCache: max_bytes", "size_t")
        _call(N.lib.inkhit_shape_cache_create, limit, ctypes.byref(handle))
        self._own(handle.value, N.lib.inkhit_shape_cache_release)  # type: ignore[arg-type]

    def info(self) -> Dict[str, int]:
        """What the cache holds: ``glyph_shapes``, ``outline_shapes``, ``glyph_bytes``, ``outline_bytes``."""
        out = N.ShapeCacheInfo()
        _call(N.lib.inkhit_shape_cache_get_info, self._handle, ctypes.byref(out))
        return {n: getattr(out, n) for n, _ in N.ShapeCacheInfo._fields_}

    def clear(self) -> None:
        """Drops every shape (indexes and layouts that use them keep them)."""
        _call(N.lib.inkhit_shape_cache_clear, self._handle)


def _cache_handle(cache: Optional[ShapeCache]) -> Optional[int]:
    """The handle of `cache` (None: the process-wide cache)."""
    if cache is None:
        return None
    if not isinstance(cache, ShapeCache):
        raise C.ArgumentTypeError("cache must be an inkhit.ShapeCache or None, not %s" % type(cache).__name__, 3)
    return cache._handle
