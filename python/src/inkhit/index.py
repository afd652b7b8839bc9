"""Index builders, indexes and their answers."""
from __future__ import annotations

import ctypes
import math
import sys
import threading
from dataclasses import dataclass
from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native as N
from ._errors import InvalidArgumentError, check, error
from ._handle import Owned
from .fonts import Font, GlyphStyle, ShapeCache

__all__ = ["Builder", "Index", "Hit", "HIT_DTYPE", "HB_GLYPH_INFO_DTYPE", "HB_GLYPH_POSITION_DTYPE", "RUN_GLYPH_DTYPE"]

_BIG = sys.byteorder == "big"

#: The answers of `Index.hits`: one record per point, laid over inkhit_hit (24 bytes) so that the library's
#: batch call writes straight into the array. ``hit`` and ``inside`` read the low byte of the C ``int32``
#: fields (0 or 1), ``placement`` is -1 on a miss and ``distance`` (view px, negative on the ink) NaN.
HIT_DTYPE = np.dtype({"names": ["hit", "inside", "placement", "distance"],
                      "formats": [np.bool_, np.bool_, np.int64, np.float64],
                      "offsets": [3 if _BIG else 0, 7 if _BIG else 4, 8, 16], "itemsize": 24})
#: hb_glyph_info_t as HarfBuzz lays it out (``codepoint`` is the glyph id after shaping).
HB_GLYPH_INFO_DTYPE = np.dtype([("codepoint", np.uint32), ("mask", np.uint32), ("cluster", np.uint32),
                                ("var1", np.uint32), ("var2", np.uint32)])
#: hb_glyph_position_t (units of the hb_font_t's scale, y up).
HB_GLYPH_POSITION_DTYPE = np.dtype([("x_advance", np.int32), ("y_advance", np.int32), ("x_offset", np.int32),
                                    ("y_offset", np.int32), ("var", np.uint32)])
#: inkhit_run_glyph: a glyph id, its origin relative to the run's (layout px) and its tag.
RUN_GLYPH_DTYPE = np.dtype({"names": ["glyph", "reserved", "x", "y", "tag"],
                            "formats": [np.uint32, np.uint32, np.float64, np.float64, np.uint64],
                            "offsets": [0, 4, 8, 16, 24], "itemsize": 32})

_VERBS = {"M": 0, "L": 1, "Q": 2, "C": 3, "Z": 4}
_VERB_POINTS = (1, 1, 2, 3, 0)
_FILL = {"nonzero": 0, "evenodd": 1, "even-odd": 1}
_INK = ("none", "outline", "color-layers", "color-paint", "bitmap", "box", "path")

Transform6 = Union[Sequence[float], np.ndarray]


def _pair(p: Any, what: str) -> Tuple[float, float]:
    x, y = p
    return float(x), float(y)


def _cache_handle(cache: Optional[ShapeCache]) -> Tuple[Optional[int], Optional[ShapeCache]]:
    return (cache._use(), cache) if cache is not None else (None, None)


@dataclass(frozen=True)
class Hit:
    """What a point hit in an `Index`.

    Attributes:
        placement: the placement's number, in the order placements were added (``add_*`` return it).
        inside: True when the point is on the placement's ink (nonzero winding), False when only within the radius.
        distance: signed distance from the point to the placement's outline, view px, negative on the ink.
        tag: the placement's tag (``add_glyph(tag=…)``, a shaper's cluster, 0 when none was given).
    """

    placement: int
    inside: bool
    distance: float
    tag: int


# `shape_forms` names and inkhit.h's INKHIT_SHAPE_FORMS_* values.
_SHAPE_FORMS = {"when_reused": 0, "full": 1, "lean": 2}


class Builder(Owned):
    """Collects placements (glyphs, outlines) for an `Index`. Calls from several threads are safe.

    Args:
        tolerance: flattening tolerance, view px: the Hausdorff bound between each curve and its polyline. Every
            point at least that far from an outline is answered as a curve-exact test answers it.
        prepared_radius: the largest query radius (view px) the built index answers from its own page cell (the
            fast path); larger radii are answered exactly too, by a wider search. Clamped to 256.
        cache: where glyph shapes come from (None: the process-wide cache).
        shape_forms: which form of its shapes an index reads: "when_reused" (the default: a shape's first index
            reads its lean form, later ones its full form), "full" (every shape's full form: for an index that
            answers many queries; 3.3x faster at radius 0 on a page) or "lean". Answers never depend on it.

    Spaces: a glyph of `size` px per em at `origin` (layout px, y down, on the baseline) puts font point (u, v)
    at layout (x + u*size/upem, y - v*size/upem); `transform` = (a, b, c, d, tx, ty) maps layout px to view px
    (x' = a*x + c*y + tx, y' = b*x + d*y + ty), where query points and radii live.
    """

    _kind = "Builder"

    def __init__(self, tolerance: float = 0.01, prepared_radius: float = N.DEFAULT_PREPARED_RADIUS,
                 cache: Optional[ShapeCache] = None, shape_forms: str = "when_reused") -> None:
        forms = _SHAPE_FORMS.get(shape_forms) if isinstance(shape_forms, str) else None
        if forms is None:
            raise InvalidArgumentError(f"shape_forms must be 'when_reused', 'full' or 'lean' (got {shape_forms!r})", 3)
        handle = ctypes.c_void_p()
        check(N.lib.inkhit_builder_create(float(tolerance), ctypes.byref(handle)))
        self._own(handle.value, N.lib.inkhit_builder_release)  # type: ignore[arg-type]
        status = N.lib.inkhit_builder_set_prepared_radius(handle, float(prepared_radius))
        if not status:
            status = N.lib.inkhit_builder_set_shape_forms(handle, forms)
        if status:
            err = error(status)
            self.close()
            raise err
        self.tolerance = float(tolerance) if tolerance else 0.01
        self.cache = cache
        # Placement numbers are read as the count before an add: adds through this object run one at a time.
        self._add_lock = threading.Lock()
        self._run_template = N.GlyphRun()
        check(N.lib.inkhit_glyph_run_init(ctypes.byref(self._run_template)))

    def _run(self, font: Font, size: float, origin: Tuple[float, float], transform: Optional[Transform6],
             style: Optional[GlyphStyle], font_handle: int) -> Tuple[N.GlyphRun, Any]:
        run = N.GlyphRun.from_buffer_copy(self._run_template)
        run.font = font_handle
        run.size = float(size)
        run.origin = N.Point(*origin)
        run.transform = N.transform(transform)
        style = GlyphStyle.of(style)
        c_style = style._struct() if style is not None else None
        if c_style is not None:
            run.style = ctypes.pointer(c_style)
        return run, c_style

    def _count(self, h: int) -> int:
        n = ctypes.c_size_t()
        check(N.lib.inkhit_builder_count(h, ctypes.byref(n)))
        return n.value

    def __len__(self) -> int:
        """How many placements the builder holds."""
        h = self._use()
        try:
            return self._count(h)
        finally:
            self._done()

    def add_glyph(self, font: Font, glyph: int, size: float, origin: Tuple[float, float] = (0.0, 0.0),
                  transform: Optional[Transform6] = None, style: Optional[GlyphStyle] = None,
                  tag: Optional[int] = None) -> int:
        """Adds glyph `glyph` of `font` at `size` px per em with its origin at `origin` (layout px, on the
        baseline), seen through `transform` (layout px → view px; None: the identity), drawn with `style` (a
        `GlyphStyle`, or a mapping of the job format's ``embolden``/``oblique``/``hinting`` values),
        tagged `tag` (an unsigned 64-bit value of yours, read back by `Index.tag`). A glyph without ink (a
        space, Pango's marker ids) is added too and never hit. Returns the placement's number.

        Raises:
            GlyphError (an id out of range), InvalidArgumentError, PlacementError, ShapeError, LimitError.
        """
        glyphs = np.zeros(1, RUN_GLYPH_DTYPE)
        glyphs["glyph"] = int(glyph)
        glyphs["tag"] = 0 if tag is None else int(tag)
        return self._add_run(font, glyphs, size, _pair(origin, "origin"), transform, style).start

    def add_glyphs(self, font: Font, glyphs: Any, origins: Any, size: float, transform: Optional[Transform6] = None,
                   style: Optional[GlyphStyle] = None, tags: Any = None) -> range:
        """Adds ``len(glyphs)`` glyphs of one font, size, transform and style in one call: `glyphs` an (N,)
        array of glyph ids, `origins` an (N, 2) array of origins (layout px, on the baseline), `tags` an
        optional (N,) array of tags. Returns the placement numbers (a range). Stops at the first glyph that
        fails (the error names it; the glyphs before it stay added).
        """
        ids = np.asarray(glyphs)
        xy = np.asarray(origins, dtype=np.float64)
        if ids.ndim != 1 or xy.shape != (ids.shape[0], 2):
            raise ValueError("glyphs must be (N,) and origins (N, 2); got %s and %s" % (ids.shape, xy.shape))
        records = np.zeros(ids.shape[0], RUN_GLYPH_DTYPE)
        if ids.size and (ids.min() < 0 or ids.max() > 0xFFFFFFFF):
            raise ValueError("glyph ids are 0 ... 2**32 - 1")
        records["glyph"] = ids
        records["x"] = xy[:, 0]
        records["y"] = xy[:, 1]
        if tags is not None:
            records["tag"] = np.asarray(tags, dtype=np.uint64)
        return self._add_run(font, records, size, (0.0, 0.0), transform, style)

    def _add_run(self, font: Font, records: np.ndarray, size: float, origin: Tuple[float, float],
                 transform: Optional[Transform6], style: Optional[GlyphStyle]) -> range:
        fh = font._use()
        try:
            run, c_style = self._run(font, size, origin, transform, style, fh)
            ch, cache = _cache_handle(self.cache)
            try:
                h = self._use()
                try:
                    added = ctypes.c_size_t()
                    with self._add_lock:
                        first = self._count(h)
                        status = N.lib.inkhit_builder_add_run(h, ch, ctypes.byref(run), records.ctypes.data,
                                                              records.shape[0], ctypes.byref(added))
                    check(status)
                finally:
                    self._done()
            finally:
                if cache is not None:
                    cache._done()
        finally:
            font._done()
        del c_style
        return range(first, first + added.value)

    def add_shaped(self, font: Font, infos: Any, positions: Any, size: float, position_scale: float,
                   origin: Tuple[float, float] = (0.0, 0.0), transform: Optional[Transform6] = None,
                   style: Optional[GlyphStyle] = None, tag_base: int = 0) -> Tuple[range, Tuple[float, float]]:
        """Adds a run as HarfBuzz shaped it: `infos` and `positions` are arrays of `HB_GLYPH_INFO_DTYPE` and
        `HB_GLYPH_POSITION_DTYPE` (HarfBuzz's own memory viewed as numpy, or built from uharfbuzz's
        ``buf.glyph_infos`` / ``buf.glyph_positions``, whose objects are taken too). `position_scale` is layout px
        per position unit (size / the hb_font_t's scale); the pen starts at `origin` (layout px, on the baseline).
        Each placement's tag is ``tag_base + cluster``. Returns the placement numbers and the pen after the run.
        """
        info = _records(infos, HB_GLYPH_INFO_DTYPE, ("codepoint", "mask", "cluster"))
        pos = None if positions is None else _records(positions, HB_GLYPH_POSITION_DTYPE,
                                                       ("x_advance", "y_advance", "x_offset", "y_offset"))
        if pos is not None and pos.shape != info.shape:
            raise ValueError("infos and positions have different lengths (%d, %d)" % (info.shape[0], pos.shape[0]))
        fh = font._use()
        try:
            run, c_style = self._run(font, size, _pair(origin, "origin"), transform, style, fh)
            run.position_scale = float(position_scale)
            run.tag_base = int(tag_base)
            ch, cache = _cache_handle(self.cache)
            try:
                h = self._use()
                try:
                    added, pen = ctypes.c_size_t(), N.Point()
                    with self._add_lock:
                        first = self._count(h)
                        status = N.lib.inkhit_builder_add_shaped(
                            h, ch, ctypes.byref(run), info.ctypes.data, None if pos is None else pos.ctypes.data,
                            info.shape[0], ctypes.byref(pen), ctypes.byref(added))
                    check(status)
                finally:
                    self._done()
            finally:
                if cache is not None:
                    cache._done()
        finally:
            font._done()
        del c_style
        return range(first, first + added.value), (pen.x, pen.y)

    def add_outline(self, verbs: Any, points: Any, transform: Optional[Transform6] = None, fill_rule: str = "nonzero",
                    tag: Optional[int] = None, key: Optional[int] = None) -> int:
        """Adds an outline of your own: `verbs` a sequence of ``"M" "L" "Q" "C" "Z"`` (or inkhit.h's 0…4), `points`
        an (N, 2) array consumed in order (M and L one point, Q two, C three, Z none), in the outline's own units,
        placed by `transform` (outline units → view px; None: the identity). `fill_rule` ``"nonzero"`` or
        ``"evenodd"``. With the builder's `cache` and a `key`, the flattened shape is kept and reused for the same
        key. Returns the placement's number; its `Index.ink` is ``"path"``.
        """
        codes = np.array([_VERBS[v.upper()] if isinstance(v, str) else int(v) for v in verbs], dtype=np.uint8)
        pts = np.ascontiguousarray(np.asarray(points, dtype=np.float64).reshape(-1, 2))
        if fill_rule not in _FILL:
            raise ValueError("fill_rule is \"nonzero\" or \"evenodd\", got %r" % (fill_rule,))
        t = N.transform(transform)
        ch, cache = _cache_handle(self.cache if key is not None else None)
        try:
            h = self._use()
            try:
                index = ctypes.c_size_t()
                with self._add_lock:
                    check(N.lib.inkhit_builder_add_outline(h, ch, 0 if key is None else int(key), codes.ctypes.data,
                                                           codes.shape[0], pts.ctypes.data, pts.shape[0],
                                                           _FILL[fill_rule], ctypes.byref(t), ctypes.byref(index)))
                    if tag is not None:
                        check(N.lib.inkhit_builder_set_tag(h, index.value, int(tag)))
            finally:
                self._done()
        finally:
            if cache is not None:
                cache._done()
        return index.value

    def set_tag(self, placement: int, tag: int) -> None:
        """Sets placement `placement`'s tag (an unsigned 64-bit value); indexes keep the tags of their build."""
        h = self._use()
        try:
            check(N.lib.inkhit_builder_set_tag(h, int(placement), int(tag)))
        finally:
            self._done()

    def build(self) -> "Index":
        """An immutable index of the placements added so far (the builder can go on collecting for another).
        The index holds its glyph shapes and fonts inside the library: closing the builder or the fonts never
        breaks it."""
        handle = ctypes.c_void_p()
        h = self._use()
        try:
            check(N.lib.inkhit_builder_build(h, ctypes.byref(handle)))
        finally:
            self._done()
        return Index._adopt(handle.value)  # type: ignore[arg-type]


def _records(values: Any, dtype: np.dtype, names: Sequence[str]) -> np.ndarray:
    if isinstance(values, np.ndarray) and values.dtype == dtype:
        return np.ascontiguousarray(values)
    if isinstance(values, np.ndarray) and values.dtype.names is None:
        raise ValueError("expected an array of %s, got dtype %s" % (dtype, values.dtype))
    items = list(values)
    out = np.zeros(len(items), dtype)
    for name in names:
        out[name] = [getattr(v, name) if not isinstance(v, (tuple, dict)) else
                     (v[name] if isinstance(v, dict) else v[dtype.names.index(name)]) for v in items]
    return out


class Index(Owned):
    """An immutable spatial index of placed shapes: which placement a point (view px) is on, exactly.

    Any number of threads may query one index at once (the batch call releases the GIL). The hit rule: the
    topmost (last added) placement whose ink holds the point; otherwise the one whose outline is nearest within
    the radius (ties go to the topmost). Distances are Euclidean in view px, under any transform.
    """

    _kind = "Index"

    @classmethod
    def _adopt(cls, handle: int) -> "Index":
        index = cls.__new__(cls)
        index._own(handle, N.lib.inkhit_index_release)
        info = N.IndexInfo()
        check(N.lib.inkhit_index_get_info(handle, ctypes.byref(info)))
        index._count = info.placements
        return index

    def __len__(self) -> int:
        """Number of placements (inkless ones included)."""
        return self._count

    def info(self) -> dict:
        """``placements``, ``unique_shapes``, ``bytes_beyond_shapes``, ``tolerance`` (view px) and ``bounds``
        (min_x, min_y, max_x, max_y of the ink, view px)."""
        out = N.IndexInfo()
        h = self._use()
        try:
            check(N.lib.inkhit_index_get_info(h, ctypes.byref(out)))
        finally:
            self._done()
        b = out.bounds
        return {"placements": out.placements, "unique_shapes": out.unique_shapes,
                "bytes_beyond_shapes": out.bytes_beyond_shapes, "tolerance": out.tolerance,
                "bounds": (b.min_x, b.min_y, b.max_x, b.max_y)}

    def hit(self, x: float, y: float, radius: float = 0.0) -> Optional[Hit]:
        """The placement at (x, y), view px, within `radius` view px (>= 0; ``math.inf`` finds the nearest
        placement anywhere), or None on a miss. A non-finite point is a miss.

        Raises:
            InvalidArgumentError: a negative or NaN radius.
        """
        out = N.Hit()
        tag = ctypes.c_uint64()
        h = self._use()
        try:
            status = N.lib.inkhit_index_hit(h, x, y, radius, ctypes.byref(out))
            if status:
                if status == 3 and radius >= 0 and not (math.isfinite(x) and math.isfinite(y)):
                    return None
                raise error(status)
            if not out.hit:
                return None
            N.lib.inkhit_index_placement_tag(h, out.placement, ctypes.byref(tag))
        finally:
            self._done()
        return Hit(out.placement, bool(out.inside), out.distance, tag.value)

    def hits(self, points: Any, radius: float = 0.0, out: Optional[np.ndarray] = None) -> np.ndarray:
        """The answers for every point of `points`, an (N, 2) array of view px, within `radius` view px: a
        structured array of `HIT_DTYPE` (``hit``, ``inside``, ``placement`` -1 on a miss, ``distance`` NaN on a
        miss) written by the library's batch call straight into its memory (into `out` when given: an (N,)
        array of `HIT_DTYPE`). A float64 C-contiguous (N, 2) array is read in place; anything else is converted
        first. Non-finite points are misses. Each answer equals `hit`'s for the same point.

        Raises:
            InvalidArgumentError: a negative or NaN radius; ValueError: `points` not (N, 2), `out` of another
            shape or dtype.
        """
        pts = np.ascontiguousarray(points, dtype=np.float64)
        if pts.ndim != 2 or pts.shape[1] != 2:
            if pts.size == 0:
                pts = pts.reshape(0, 2)
            else:
                raise ValueError("points must be an (N, 2) array, got shape %s" % (pts.shape,))
        n = pts.shape[0]
        if out is None:
            out = np.empty(n, HIT_DTYPE)
        elif out.dtype != HIT_DTYPE or out.shape != (n,) or not out.flags.c_contiguous or not out.flags.writeable:
            raise ValueError("out must be a writeable C-contiguous (%d,) array of inkhit.HIT_DTYPE" % n)
        if not radius >= 0:
            raise InvalidArgumentError("Index.hits: radius must be >= 0 and not NaN (got %r)" % (radius,), 3)
        h = self._use()
        try:
            status = N.lib.inkhit_index_hits(h, pts.ctypes.data, n, float(radius), out.ctypes.data)
        finally:
            self._done()
        if status and status != 3:  # 3: non-finite points, answered as misses
            raise error(status)
        return out

    def contains(self, x: float, y: float) -> bool:
        """Whether (x, y), view px, is on the ink of any placement (containment only; a non-finite point is not)."""
        out = ctypes.c_int32()
        h = self._use()
        try:
            N.lib.inkhit_index_contains(h, x, y, ctypes.byref(out))
        finally:
            self._done()
        return bool(out.value)

    def topmost(self, x: float, y: float) -> Optional[int]:
        """The topmost placement whose ink contains (x, y), view px, or None: containment only, no distance,
        the cheapest question (what `hit` answers at radius 0 for points on ink)."""
        out = ctypes.c_int64()
        h = self._use()
        try:
            N.lib.inkhit_index_topmost(h, x, y, ctypes.byref(out))
        finally:
            self._done()
        return None if out.value < 0 else out.value

    def tag(self, placement: int) -> int:
        """The tag of placement `placement` (a hit's), 0 when none was given.

        Raises:
            InvalidArgumentError: no such placement (a miss's -1 too).
        """
        out = ctypes.c_uint64()
        h = self._use()
        try:
            check(N.lib.inkhit_index_placement_tag(h, int(placement), ctypes.byref(out)))
        finally:
            self._done()
        return out.value

    def tags(self, placements: Any) -> np.ndarray:
        """The tags of an array of placements (-1 entries, misses, give 0): ``index.tags(answers["placement"])``."""
        ps = np.asarray(placements, dtype=np.int64).ravel()
        result = np.zeros(ps.shape[0], np.uint64)
        out = ctypes.c_uint64()
        h = self._use()
        try:
            for i, p in enumerate(ps.tolist()):
                if p >= 0 and N.lib.inkhit_index_placement_tag(h, p, ctypes.byref(out)) == 0:
                    result[i] = out.value
        finally:
            self._done()
        return result.reshape(np.shape(placements))

    def ink(self, placement: int) -> str:
        """What placement `placement`'s ink is made of: ``"none"`` (a space, a marker), ``"outline"``,
        ``"color-layers"``, ``"color-paint"`` (COLR), ``"bitmap"`` (a colour strike), ``"box"`` (an SVG glyph),
        ``"path"`` (`Builder.add_outline`)."""
        out = ctypes.c_int32()
        h = self._use()
        try:
            check(N.lib.inkhit_index_placement_ink(h, int(placement), ctypes.byref(out)))
        finally:
            self._done()
        return _INK[out.value] if 0 <= out.value < len(_INK) else "unknown"
