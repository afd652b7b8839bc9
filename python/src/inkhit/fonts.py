"""Fonts and glyph styles."""
from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass, field
from typing import Dict, Iterable, Mapping, Optional, Tuple, Union

from . import _native as N
from ._errors import FontError, check
from ._handle import Owned
from ._opentype import instance_names

__all__ = ["Font", "GlyphStyle", "ShapeCache"]

PathOrBytes = Union[str, bytes, bytearray, memoryview, "os.PathLike[str]"]
Variations = Union[Mapping[str, float], Iterable[Tuple[str, float]]]


def _tag(name: str) -> int:
    raw = name.encode("ascii", "replace")
    if not 1 <= len(raw) <= 4:
        raise ValueError("an axis tag is 1 to 4 ASCII characters, got %r" % name)
    raw = raw.ljust(4, b" ")
    return int.from_bytes(raw, "big")


def _tag_name(value: int) -> str:
    return value.to_bytes(4, "big").decode("latin-1").rstrip(" ") or " "


class Font(Owned):
    """One face of a font file (TrueType, OpenType/CFF, a collection), loaded by FreeType. Immutable.

    Args:
        path_or_bytes: a file path (str or path-like), or the font's bytes (copied: equal bytes loaded twice,
            or a file and its bytes, share one copy and their glyph shapes inside the library).
        face: the face index in a collection (FreeType's packed ``(instance << 16) | face`` is accepted too).
        variations: design coordinates of a variable font by axis tag, ``{"wght": 650, "slnt": -5}`` (axis
            units: wght 100…900, wdth %, slnt degrees); values beyond an axis are clamped as FreeType clamps them.
        instance: a named instance to start from: its 0-based index in the font's list, or its subfamily name
            (``"Semi Bold Italic"``, ASCII case-insensitive), as a job's ``"instance"``. Variations apply on top.

    Font units are the glyph design grid, y up; `units_per_em` of them make one em. Closing a font never breaks
    an index, layout or scene made with it.

    Raises:
        FileError: no such file, not a regular file, unreadable. FontError: not a font, a face, instance or axis
        the font lacks.
    """

    _kind = "Font"

    def __init__(self, path_or_bytes: PathOrBytes, face: int = 0, variations: Optional[Variations] = None,
                 instance: Union[int, str, None] = None) -> None:
        data: Optional[bytes] = None
        if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
            data = bytes(path_or_bytes)
            self.path: Optional[str] = None
        else:
            self.path = os.fspath(path_or_bytes)
        packed = int(face)
        if instance is not None:
            if isinstance(instance, str):
                if data is None:
                    with open(self.path, "rb") as f:  # type: ignore[arg-type]
                        source = f.read()
                else:
                    source = data
                names = instance_names(source, packed & 0xFFFF)
                wanted = [i for i, n in enumerate(names) if n is not None and n.lower() == instance.lower()]
                if not wanted:
                    raise FontError("Font: no named instance %r (the font has: %s)" % (
                        instance, ", ".join(repr(n) for n in names) or "none"), 6)
                index = wanted[0]
            else:
                index = int(instance)
                if index < 0 or index >= 0x7FFF:
                    raise FontError("Font: instance %d is out of range (0-based)" % index, 6)
            packed = (packed & 0xFFFF) | ((index + 1) << 16)
        handle = ctypes.c_void_p()
        if data is None:
            check(N.lib.inkhit_font_from_path(os.fsencode(self.path), packed, ctypes.byref(handle)))  # type: ignore
        else:
            check(N.lib.inkhit_font_from_bytes(data, len(data), packed, ctypes.byref(handle)))
        if variations:
            items = list(variations.items()) if isinstance(variations, Mapping) else list(variations)
            array = (N.Variation * len(items))(*[N.Variation(_tag(t), float(v)) for t, v in items])
            varied = ctypes.c_void_p()
            status = N.lib.inkhit_font_with_variations(handle, array, len(items), ctypes.byref(varied))
            N.lib.inkhit_font_release(handle)
            check(status)
            handle = varied
        self._own(handle.value, N.lib.inkhit_font_release)  # type: ignore[arg-type]
        info = N.FontInfo()
        check(N.lib.inkhit_font_get_info(handle, ctypes.byref(info)))
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

    def glyph(self, codepoint: Union[int, str]) -> int:
        """The glyph id the font's cmap maps `codepoint` (an int, or a one-character str) to; 0 (.notdef) when
        it maps none. For text, a `Layout` shapes with HarfBuzz and falls back between fonts."""
        cp = ord(codepoint) if isinstance(codepoint, str) else int(codepoint)
        out = ctypes.c_uint32()
        h = self._use()
        try:
            check(N.lib.inkhit_font_glyph(h, cp, ctypes.byref(out)))
        finally:
            self._done()
        return out.value

    def advance(self, glyph: int) -> float:
        """The horizontal advance of `glyph`, font units (unscaled, unhinted; scale by size / units_per_em for
        layout px)."""
        out = ctypes.c_double()
        h = self._use()
        try:
            check(N.lib.inkhit_font_advance(h, int(glyph), ctypes.byref(out)))
        finally:
            self._done()
        return out.value

    @property
    def variations(self) -> Dict[str, float]:
        """The design coordinates this font draws with, by axis tag in the font's order (empty: not variable)."""
        h = self._use()
        try:
            n = ctypes.c_size_t()
            check(N.lib.inkhit_font_get_variations(h, None, 0, ctypes.byref(n)))
            array = (N.Variation * max(1, n.value))()
            check(N.lib.inkhit_font_get_variations(h, array, n.value, ctypes.byref(n)))
        finally:
            self._done()
        return {_tag_name(v.tag): float(v.value) for v in array[:n.value]}

    def __repr__(self) -> str:
        return "Font(%r, face=%d)" % (self.path if self.path is not None else "<bytes>", self.face_index)


_FREETYPE_OBLIQUE = 0x0366A / 65536
_HINTING = {"none": 0, "light": 1, "full": 2}


@dataclass(frozen=True)
class GlyphStyle:
    """How a renderer draws a glyph beyond its outline (inkhit_glyph_style; the job format's fields).

    Attributes:
        embolden: None; ``"freetype"`` (FT_GlyphSlot_Embolden: 1/24 em, what cairo draws for fontconfig's
            FC_EMBOLDEN); a strength in layout px at the glyph's size (the ink grows by it in width and height);
            or ``(x, y)`` strengths.
        oblique: a shear ``x += oblique * y`` (y up) after emboldening; ``"freetype"`` is FT_GlyphSlot_Oblique's
            0.2126. ``|oblique| <= 4``.
        hinting: ``"none"`` (the exact outline), ``"light"`` or ``"full"``, as FreeType hints at the glyph's size.
        matrix: ``(xx, xy, yx, yy)``, a 2×2 matrix about the origin in the glyph's y-up frame (fontconfig's
            FC_MATRIX; synthetic slant is ``(1, 0.2, 0, 1)``).
        alpha_threshold: for bitmap glyphs, the least alpha that is ink (0 < t <= 1).

    A style that neither hints nor emboldens is exact; one that does is FreeType's outline at the glyph's size.
    """

    embolden: Union[None, str, float, Tuple[float, float]] = None
    oblique: Union[float, str] = 0.0
    hinting: str = "none"
    matrix: Tuple[float, float, float, float] = (1.0, 0.0, 0.0, 1.0)
    alpha_threshold: float = 0.5
    _c: list = field(default_factory=list, init=False, repr=False, compare=False, hash=False)

    @staticmethod
    def of(style: Union["GlyphStyle", Mapping[str, object], None]) -> Optional["GlyphStyle"]:
        """`style` as a GlyphStyle: a GlyphStyle, None, or a mapping with the job format's keys (``embolden``,
        ``oblique``, ``hinting``, ``matrix``, ``alphaThreshold`` or ``alpha_threshold``)."""
        if style is None or isinstance(style, GlyphStyle):
            return style
        fields = dict(style)
        if "alphaThreshold" in fields:
            fields["alpha_threshold"] = fields.pop("alphaThreshold")
        if isinstance(fields.get("embolden"), list):
            fields["embolden"] = tuple(fields["embolden"])  # type: ignore[arg-type]
        return GlyphStyle(**fields)  # type: ignore[arg-type]

    def _struct(self) -> N.GlyphStyle:
        if self._c:
            return self._c[0]
        s = N.GlyphStyle()
        check(N.lib.inkhit_glyph_style_init(ctypes.byref(s)))
        if self.embolden is None or self.embolden is False:
            pass
        elif self.embolden == "freetype":
            s.embolden = 1
        elif isinstance(self.embolden, (tuple, list)):
            s.embolden, s.embolden_x, s.embolden_y = 2, float(self.embolden[0]), float(self.embolden[1])
        elif isinstance(self.embolden, (int, float)):
            s.embolden, s.embolden_x, s.embolden_y = 2, float(self.embolden), float(self.embolden)
        else:
            raise ValueError("embolden is None, \"freetype\", a strength in px or (x, y), got %r" % (self.embolden,))
        if s.embolden == 2 and s.embolden_x == 0 and s.embolden_y == 0:
            s.embolden = 0
        s.oblique = _FREETYPE_OBLIQUE if self.oblique == "freetype" else float(self.oblique)  # type: ignore[arg-type]
        if self.hinting not in _HINTING:
            raise ValueError("hinting is \"none\", \"light\" or \"full\", got %r" % (self.hinting,))
        s.hinting = _HINTING[self.hinting]
        s.matrix_xx, s.matrix_xy, s.matrix_yx, s.matrix_yy = (float(v) for v in self.matrix)
        s.alpha_threshold = float(self.alpha_threshold)
        self._c.append(s)
        return s


class ShapeCache(Owned):
    """A cache of flattened glyph shapes and custom outlines, shared by builders and layouts (thread-safe).
    Keeps at most `max_bytes` bytes of glyph shapes and as many of outlines, oldest evicted first (None: no
    bound; 0: the default, 64 MiB, as 0 means the default in every size and budget; 1: keeps nothing).
    Without one, calls use the process-wide cache (64 MiB of glyph shapes)."""

    _kind = "ShapeCache"

    def __init__(self, max_bytes: Optional[int] = None) -> None:
        handle = ctypes.c_void_p()
        limit = (1 << 64) - 1 if max_bytes is None else int(max_bytes)
        check(N.lib.inkhit_shape_cache_create(limit, ctypes.byref(handle)))
        self._own(handle.value, N.lib.inkhit_shape_cache_release)  # type: ignore[arg-type]

    def info(self) -> Dict[str, int]:
        """What the cache holds: ``glyph_shapes``, ``outline_shapes``, ``glyph_bytes``, ``outline_bytes``."""
        out = N.ShapeCacheInfo()
        h = self._use()
        try:
            check(N.lib.inkhit_shape_cache_get_info(h, ctypes.byref(out)))
        finally:
            self._done()
        return {n: getattr(out, n) for n, _ in N.ShapeCacheInfo._fields_}

    def clear(self) -> None:
        """Drops every shape (indexes and layouts that use them keep them)."""
        h = self._use()
        try:
            check(N.lib.inkhit_shape_cache_clear(h))
        finally:
            self._done()
