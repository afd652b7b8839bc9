"""Index builders, indexes and their answers."""
from __future__ import annotations

import ctypes
import sys
from dataclasses import dataclass
from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

from . import _convert as C
from . import _native as N
from ._errors import _call
from ._handle import Owned
from .fonts import Font, GlyphStyle, ShapeCache, _cache_handle

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

_VERBS = {"M": 0, "L": 1, "Q": 2, "C": 3, "Z": 4, "K": 5}
_VERB_POINTS = (1, 1, 2, 3, 0)
_FILL = {"nonzero": 0, "evenodd": 1, "even-odd": 1}
_INK = ("none", "outline", "colorLayers", "colorPaint", "bitmap", "box", "path")

Transform6 = Union[Sequence[float], np.ndarray]


def _font_handle(font: Any, what: str) -> int:
    if not isinstance(font, Font):
        raise C.ArgumentTypeError("%s must be an inkhit.Font, not %s" % (what, type(font).__name__), 3)
    return font._handle


def _non_finite(value: str, what: str) -> int:
    return C.choice(value, N.NON_FINITE, what + ": non_finite")


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
_SHAPE_FORMS = {"whenReused": 0, "full": 1, "lean": 2}
_SHAPE_FORMS_RENAMED = {"when_reused": "whenReused"}


class Builder(Owned):
    """Collects placements (glyphs, outlines) for an `Index`. Calls from several threads are safe, and each add
    returns the numbers of the placements it added (the library says where they start).

    Args:
        tolerance: flattening tolerance, view px: the Hausdorff bound between each curve and its polyline. Every
            point at least that far from an outline is answered as a curve-exact test answers it.
        prepared_radius: the largest query radius (view px) the built index answers from its own page cell (the
            fast path); larger radii are answered exactly too, by a wider search. Clamped to 256.
        cache: where glyph shapes come from (None: the process-wide cache).
        shape_forms: which form of its shapes an index reads: "whenReused" (the default: a shape's first index
            reads its lean form, later ones its full form), "full" (every shape's full form: for an index that
            answers many queries; 3.3x faster at radius 0 on a page) or "lean". Answers never depend on it.
            ("when_reused", its spelling before 1.3, is still accepted, with a DeprecationWarning.)

    Spaces: a glyph of `size` px per em at `origin` (layout px, y down, on the baseline) puts font point (u, v)
    at layout (x + u*size/upem, y - v*size/upem); `transform` = (a, b, c, d, tx, ty) maps layout px to view px
    (x' = a*x + c*y + tx, y' = b*x + d*y + ty), where query points and radii live.
    """

    _kind = "Builder"

    def __init__(self, tolerance: float = 0.01, prepared_radius: float = N.DEFAULT_PREPARED_RADIUS,
                 cache: Optional[ShapeCache] = None, shape_forms: str = "whenReused") -> None:
        forms = C.choice(shape_forms, _SHAPE_FORMS, "Builder: shape_forms", _SHAPE_FORMS_RENAMED)
        _cache_handle(cache)
        handle = ctypes.c_void_p()
        _call(N.lib.inkhit_builder_create, C.number(tolerance, "Builder: tolerance"), ctypes.byref(handle))
        self._own(handle.value, N.lib.inkhit_builder_release)  # type: ignore[arg-type]
        try:
            _call(N.lib.inkhit_builder_set_prepared_radius, self._handle,
                  C.number(prepared_radius, "Builder: prepared_radius"))
            _call(N.lib.inkhit_builder_set_shape_forms, self._handle, forms)
        except BaseException:
            self.close()
            raise
        self.tolerance = float(tolerance) if tolerance else 0.01
        self.cache = cache

    def _run(self, font: Font, size: float, origin: Tuple[float, float], transform: Optional[Transform6],
             style: Optional[GlyphStyle], what: str) -> N.GlyphRun:
        """The inkhit_glyph_run of one add call (its style struct kept alive by the run object)."""
        run = N.GlyphRun()
        _call(N.lib.inkhit_glyph_run_init, ctypes.byref(run))
        run.font = _font_handle(font, what + ": font")
        run.size = C.number(size, what + ": size")
        run.origin = N.Point(*C.pair(origin, what + ": origin"))
        run.transform = C.transform(transform, what + ": transform")
        style = GlyphStyle.of(style)
        if style is not None:
            c_style = style._struct()
            run.style = ctypes.pointer(c_style)
        return run

    def __len__(self) -> int:
        """How many placements the builder holds."""
        n = ctypes.c_size_t()
        _call(N.lib.inkhit_builder_count, self._handle, ctypes.byref(n))
        return n.value

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
        record = np.zeros(1, RUN_GLYPH_DTYPE)
        record["glyph"] = C.integer(glyph, "Builder.add_glyph: glyph", "uint32_t")
        record["tag"] = 0 if tag is None else C.integer(tag, "Builder.add_glyph: tag", "uint64_t")
        return self._add_run(self._run(font, size, origin, transform, style, "Builder.add_glyph"), record).start

    def add_glyphs(self, font: Font, glyphs: Any, origins: Any, size: float, transform: Optional[Transform6] = None,
                   style: Optional[GlyphStyle] = None, tags: Any = None) -> range:
        """Adds ``len(glyphs)`` glyphs of one font, size, transform and style in one call: `glyphs` an (N,)
        array of glyph ids (integers), `origins` an (N, 2) array of origins (layout px, on the baseline), `tags`
        an optional (N,) array of tags. Returns the placement numbers (a range). Stops at the first glyph that
        fails (the error names it; the glyphs before it stay added).
        """
        ids = C.integers(glyphs, "Builder.add_glyphs: glyphs", "uint32_t")
        xy = C.points(origins, "Builder.add_glyphs: origins")
        if xy.shape[0] != ids.shape[0]:
            raise C.InvalidArgumentError("Builder.add_glyphs: %d glyphs but %d origins" % (ids.shape[0], xy.shape[0]), 3)
        records = np.zeros(ids.shape[0], RUN_GLYPH_DTYPE)
        records["glyph"] = ids
        records["x"] = xy[:, 0]
        records["y"] = xy[:, 1]
        if tags is not None:
            t = C.integers(tags, "Builder.add_glyphs: tags", "uint64_t")
            if t.shape != ids.shape:
                raise C.InvalidArgumentError("Builder.add_glyphs: %d glyphs but %d tags" % (ids.shape[0], t.shape[0]), 3)
            records["tag"] = t
        return self._add_run(self._run(font, size, (0.0, 0.0), transform, style, "Builder.add_glyphs"), records)

    def _add_run(self, run: N.GlyphRun, records: np.ndarray) -> range:
        first, added = ctypes.c_size_t(), ctypes.c_size_t()
        _call(N.lib.inkhit_builder_add_run_numbered, self._handle, _cache_handle(self.cache), ctypes.byref(run),
              records.ctypes.data, records.shape[0], ctypes.byref(first), ctypes.byref(added))
        return range(first.value, first.value + added.value)

    def add_shaped(self, font: Font, infos: Any, positions: Any, size: float, position_scale: float,
                   origin: Tuple[float, float] = (0.0, 0.0), transform: Optional[Transform6] = None,
                   style: Optional[GlyphStyle] = None, tag_base: int = 0) -> Tuple[range, Tuple[float, float]]:
        """Adds a run as HarfBuzz shaped it: `infos` and `positions` are arrays of `HB_GLYPH_INFO_DTYPE` and
        `HB_GLYPH_POSITION_DTYPE` (HarfBuzz's own memory viewed as numpy), or uharfbuzz's ``buf.glyph_infos`` /
        ``buf.glyph_positions`` as they are (objects with ``codepoint`` and ``cluster``, and ``x_advance``,
        ``y_advance``, ``x_offset``, ``y_offset``: what the library reads; HarfBuzz's internal ``mask`` is not
        needed), or sequences of tuples or dicts with those fields. `position_scale` is layout px per position
        unit (size / the hb_font_t's scale, e.g. ``size / font.scale[0]`` for a uharfbuzz font); the pen starts at
        `origin` (layout px, on the baseline) and moves by the advances, x right and y up, so a vertical (TTB)
        buffer's negative y advances move it down. Each placement's tag is ``tag_base + cluster``. Returns the
        placement numbers and the pen after the run.
        """
        info = _records(infos, HB_GLYPH_INFO_DTYPE, ("codepoint", "cluster"))
        pos = None if positions is None else _records(positions, HB_GLYPH_POSITION_DTYPE,
                                                       ("x_advance", "y_advance", "x_offset", "y_offset"))
        if pos is not None and pos.shape != info.shape:
            raise C.InvalidArgumentError("Builder.add_shaped: infos and positions have different lengths (%d, %d)" % (
                info.shape[0], pos.shape[0]), 3)
        run = self._run(font, size, origin, transform, style, "Builder.add_shaped")
        run.position_scale = C.number(position_scale, "Builder.add_shaped: position_scale")
        run.tag_base = C.integer(tag_base, "Builder.add_shaped: tag_base", "uint64_t")
        first, added, pen = ctypes.c_size_t(), ctypes.c_size_t(), N.Point()
        _call(N.lib.inkhit_builder_add_shaped_numbered, self._handle, _cache_handle(self.cache), ctypes.byref(run),
              info.ctypes.data, None if pos is None else pos.ctypes.data, info.shape[0], ctypes.byref(pen),
              ctypes.byref(first), ctypes.byref(added))
        return range(first.value, first.value + added.value), (pen.x, pen.y)

    def add_outline(self, verbs: Any, points: Any, transform: Optional[Transform6] = None, fill_rule: str = "nonzero",
                    tag: Optional[int] = None, key: Optional[int] = None, *, weights: Any = None,
                    start_points: bool = False) -> int:
        """Adds an outline of your own: `verbs` a sequence of ``"M" "L" "Q" "K" "C" "Z"`` (K a conic; or inkhit.h's
        INKHIT_VERB_* numbers, 0…5), `points` an (N, 2) array consumed in order (M and L one point, Q and K two, C
        three, Z none), in the outline's own units, placed by `transform` (outline units → view px; None: the
        identity). A path as a renderer iterates it (Skia's ``SkPath::Iter``, `inkhit.skia.add_path`) gives each L,
        Q, K and C its start point first: say ``start_points=True`` (the library checks that each starts where the
        previous verb ended). `weights` are the conics' weights, one per K in order (Skia's ``conicWeight``; the
        library turns each conic into quadratics within the tolerance). `fill_rule` ``"nonzero"`` or
        ``"evenodd"``. With the builder's `cache` and a `key`, the flattened shape is kept and reused for the same
        key. Returns the placement's number; its `Index.ink` is ``"path"``.
        """
        codes = _verbs(verbs, "Builder.add_outline: verbs")
        pts = C.points(points, "Builder.add_outline: points")
        rule = C.choice(fill_rule, _FILL, "Builder.add_outline: fill_rule")
        t = C.transform(transform, "Builder.add_outline: transform")
        key_value = 0 if key is None else C.integer(key, "Builder.add_outline: key", "uint64_t")
        tag_value = None if tag is None else C.integer(tag, "Builder.add_outline: tag", "uint64_t")
        starts = C.flag(start_points, "Builder.add_outline: start_points")
        index = ctypes.c_size_t()
        cache = _cache_handle(self.cache) if key is not None else None
        if weights is None and not starts and not (codes == _VERBS["K"]).any():
            _call(N.lib.inkhit_builder_add_outline, self._handle, cache, key_value, codes.ctypes.data, codes.shape[0],
                  pts.ctypes.data, pts.shape[0], rule, ctypes.byref(t), ctypes.byref(index))
        else:
            w = np.zeros(0) if weights is None else C.array(weights, "Builder.add_outline: weights").astype(np.float64).ravel()
            w = np.ascontiguousarray(w)
            _call(N.lib.inkhit_builder_add_path, self._handle, cache, key_value, codes.ctypes.data, codes.shape[0],
                  pts.ctypes.data, pts.shape[0], w.ctypes.data if w.shape[0] else None, w.shape[0],
                  1 if starts else 0, rule, ctypes.byref(t), ctypes.byref(index))
        if tag_value is not None:
            _call(N.lib.inkhit_builder_set_tag, self._handle, index.value, tag_value)
        return index.value

    def set_tag(self, placement: int, tag: int) -> None:
        """Sets placement `placement`'s tag (an unsigned 64-bit value); indexes keep the tags of their build."""
        _call(N.lib.inkhit_builder_set_tag, self._handle, C.integer(placement, "Builder.set_tag: placement", "size_t"),
              C.integer(tag, "Builder.set_tag: tag", "uint64_t"))

    def build(self) -> "Index":
        """An immutable index of the placements added so far (the builder can go on collecting for another).
        The index holds its glyph shapes and fonts inside the library: closing the builder or the fonts never
        breaks it."""
        handle = ctypes.c_void_p()
        _call(N.lib.inkhit_builder_build, self._handle, ctypes.byref(handle))
        return Index._adopt(handle.value)  # type: ignore[arg-type]


def _verbs(verbs: Any, what: str) -> np.ndarray:
    """Path verbs (``"M" "L" "Q" "K" "C" "Z"`` letters, a string of them, or inkhit.h's numbers 0…5) as uint8 codes;
    the library checks that they are verbs and match the points."""
    given = list(verbs) if isinstance(verbs, str) else C.items(verbs.tolist() if isinstance(verbs, np.ndarray) else verbs, what)
    codes = [C.choice(v.upper(), _VERBS, what) if isinstance(v, str) else C.integer(v, what, "uint32_t") for v in given]
    if any(c > 255 for c in codes):
        raise C.InvalidArgumentError("%s holds %d, beyond a verb byte" % (what, max(codes)), 3)
    return np.array(codes, dtype=np.uint8)


def _records(values: Any, dtype: np.dtype, names: Sequence[str]) -> np.ndarray:
    if isinstance(values, np.ndarray) and values.dtype == dtype:
        return np.ascontiguousarray(values)
    if isinstance(values, np.ndarray) and values.dtype.names is None:
        raise C.ArgumentTypeError("expected an array of %s, got dtype %s" % (dtype, values.dtype), 3)
    given = C.items(values, "records of %s" % (dtype,))
    out = np.zeros(len(given), dtype)
    for name in names:
        try:
            column = [getattr(v, name) if not isinstance(v, (tuple, dict)) else
                      (v[name] if isinstance(v, dict) else v[dtype.names.index(name)]) for v in given]
        except (AttributeError, KeyError, IndexError, TypeError) as e:
            raise C.ArgumentTypeError("records of %s: no %r in an item (%s)" % (dtype, name, e), 3) from None
        kind = "uint32_t" if dtype[name].kind == "u" else "int32_t"
        out[name] = C.integers(column, "%s (%s)" % (name, kind), kind)
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
        _call(N.lib.inkhit_index_get_info, handle, ctypes.byref(info))
        index._count = info.placements
        return index

    def __len__(self) -> int:
        """Number of placements (inkless ones included)."""
        return self._count

    def info(self) -> dict:
        """``placements``, ``unique_shapes``, ``bytes_beyond_shapes``, ``tolerance`` (view px) and ``bounds``
        (min_x, min_y, max_x, max_y of the ink, view px)."""
        out = N.IndexInfo()
        _call(N.lib.inkhit_index_get_info, self._handle, ctypes.byref(out))
        b = out.bounds
        return {"placements": out.placements, "unique_shapes": out.unique_shapes,
                "bytes_beyond_shapes": out.bytes_beyond_shapes, "tolerance": out.tolerance,
                "bounds": (b.min_x, b.min_y, b.max_x, b.max_y)}

    def hit(self, x: float, y: float, radius: float = 0.0) -> Optional[Hit]:
        """The placement at (x, y), view px, within `radius` view px (>= 0; ``math.inf`` finds the nearest
        placement anywhere), or None on a miss.

        Raises:
            InvalidArgumentError: a negative or NaN radius, a NaN or infinite point (the library's rules for a
            single query; `hits` answers non-finite points as misses).
        """
        out = N.Hit()
        _call(N.lib.inkhit_index_hit, self._handle, C.number(x, "Index.hit: x"), C.number(y, "Index.hit: y"),
              C.number(radius, "Index.hit: radius"), ctypes.byref(out))
        if not out.hit:
            return None
        return Hit(out.placement, bool(out.inside), out.distance, self.tag(out.placement))

    def hits(self, points: Any, radius: float = 0.0, out: Optional[np.ndarray] = None,
             non_finite: str = "miss") -> np.ndarray:
        """The answers for every point of `points`, an (N, 2) array of view px, within `radius` view px: a
        structured array of `HIT_DTYPE` (``hit``, ``inside``, ``placement`` -1 on a miss, ``distance`` NaN on a
        miss) written by the library's batch call straight into its memory (into `out` when given: an (N,)
        array of `HIT_DTYPE`). A float64 C-contiguous (N, 2) array is read in place; anything else is converted
        first. Each answer equals `hit`'s for the same point. `non_finite`: ``"miss"`` (a point with a NaN or
        infinite coordinate is answered as a miss) or ``"error"`` (such a point raises, and nothing is answered).

        Raises:
            InvalidArgumentError: a negative or NaN radius, `points` not (N, 2), `out` of another shape or dtype,
            a non-finite point with ``non_finite="error"``.
        """
        pts = C.points(points, "Index.hits: points")
        n = pts.shape[0]
        if out is None:
            out = np.empty(n, HIT_DTYPE)
        elif not isinstance(out, np.ndarray) or out.dtype != HIT_DTYPE or out.shape != (n,) \
                or not out.flags.c_contiguous or not out.flags.writeable:
            raise C.InvalidArgumentError("Index.hits: out must be a writeable C-contiguous (%d,) array of "
                                         "inkhit.HIT_DTYPE" % n, 3)
        _call(N.lib.inkhit_index_hit_batch, self._handle, pts.ctypes.data, n, C.number(radius, "Index.hits: radius"),
              _non_finite(non_finite, "Index.hits"), out.ctypes.data, None)
        return out

    def contains(self, x: float, y: float) -> bool:
        """Whether (x, y), view px, is on the ink of any placement (containment only).

        Raises:
            InvalidArgumentError: a NaN or infinite point."""
        out = ctypes.c_int32()
        _call(N.lib.inkhit_index_contains, self._handle, C.number(x, "Index.contains: x"),
              C.number(y, "Index.contains: y"), ctypes.byref(out))
        return bool(out.value)

    def topmost(self, x: float, y: float) -> Optional[int]:
        """The topmost placement whose ink contains (x, y), view px, or None: containment only, no distance,
        the cheapest question (what `hit` answers at radius 0 for points on ink).

        Raises:
            InvalidArgumentError: a NaN or infinite point."""
        out = ctypes.c_int64()
        _call(N.lib.inkhit_index_topmost, self._handle, C.number(x, "Index.topmost: x"),
              C.number(y, "Index.topmost: y"), ctypes.byref(out))
        return None if out.value < 0 else out.value

    def tag(self, placement: int) -> int:
        """The tag of placement `placement` (a hit's), 0 when none was given.

        Raises:
            InvalidArgumentError: no such placement (a miss's -1 too).
        """
        out = ctypes.c_uint64()
        _call(N.lib.inkhit_index_placement_tag, self._handle, C.integer(placement, "Index.tag: placement", "int64_t"),
              ctypes.byref(out))
        return out.value

    def tags(self, placements: Any) -> np.ndarray:
        """The tags of an array of placements (-1 entries, misses, give 0): ``index.tags(answers["placement"])``."""
        given = C.array(placements, "Index.tags: placements")
        shape = given.shape
        ps = C.integers(given.ravel(), "Index.tags: placements", "int64_t")
        result = np.zeros(ps.shape[0], np.uint64)
        out = ctypes.c_uint64()
        for i, p in enumerate(ps.tolist()):
            if p >= 0:
                _call(N.lib.inkhit_index_placement_tag, self._handle, p, ctypes.byref(out))
                result[i] = out.value
        return result.reshape(shape)

    def ink(self, placement: int) -> str:
        """What placement `placement`'s ink is made of: ``"none"`` (a space, a marker), ``"outline"``,
        ``"colorLayers"``, ``"colorPaint"`` (COLR), ``"bitmap"`` (a colour strike), ``"box"`` (an SVG glyph),
        ``"path"`` (`Builder.add_outline`): the names of the JSON answers' ``"ink"`` (before 1.3:
        ``"color-layers"``, ``"color-paint"``)."""
        out = ctypes.c_int32()
        _call(N.lib.inkhit_index_placement_ink, self._handle, C.integer(placement, "Index.ink: placement", "int64_t"),
              ctypes.byref(out))
        return _INK[out.value] if 0 <= out.value < len(_INK) else "unknown"
