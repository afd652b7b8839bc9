"""Hit scenes: a tree of nodes (views, buttons, text) hit-tested the UIKit way, with ink-exact text leaves."""
from __future__ import annotations

import ctypes
import sys
import warnings
from dataclasses import dataclass
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from . import _convert as C
from . import _native as N
from ._errors import _call
from ._handle import Owned
from .fonts import Font
from .index import _verbs
from .layout import Layout, TextHit

__all__ = ["Node", "Scene", "Snapshot", "SceneHit", "SCENE_HIT_DTYPE"]

_POINTER = {"auto": 0, "none": 1, "box-none": 2, "box-only": 3}
_SHAPE = {"box": 0, "roundRect": 1, "ellipse": 2, "path": 3, "text": 4, "glyphs": 5, "mask": 6}
_SHAPE_RENAMED = {"round-rect": "roundRect"}
_HOLES = {"ink": 0, "filled-counters": 1, "word-hull": 2}
_VERBS = {"M": 0, "L": 1, "Q": 2, "C": 3, "Z": 4}
_BIG = sys.byteorder == "big"

#: The answers of `Snapshot.hits`, laid over inkhit_scene_hit so that the batch call writes into the array:
#: ``hit``, ``inside`` (bools), ``node`` (id), ``depth``, ``local_x``, ``local_y`` (the point in the node's
#: local px), ``distance`` (view px), ``placement``, and for text nodes ``text_hit``, ``text_kind``,
#: ``text_placement``, ``link``, ``attachment``, ``utf16_start``, ``utf16_end``, ``utf8_start``, ``utf8_end``,
#: ``character``, ``line``, ``text_distance``. ``glyph`` and ``text_glyph`` are the placements' names before 1.3
#: (the same fields; deprecated).
SCENE_HIT_DTYPE = np.dtype({
    "names": ["hit", "inside", "node", "depth", "local_x", "local_y", "distance", "placement", "text_hit", "text_kind",
              "text_placement", "link", "attachment", "utf16_start", "utf16_end", "utf8_start", "utf8_end", "character",
              "line", "text_distance", "glyph", "text_glyph"],
    "formats": [np.bool_, np.bool_, np.uint64, np.int64, np.float64, np.float64, np.float64, np.int64, np.bool_,
                np.int32] + [np.int64] * 9 + [np.float64, np.int64, np.int64],
    "offsets": [3 if _BIG else 0, 7 if _BIG else 4, 8, 16, 24, 32, 40, 48, 59 if _BIG else 56, 60,
                64, 72, 80, 88, 96, 104, 112, 120, 128, 136, 48, 64],
    "itemsize": 144})


@dataclass
class Node:
    """One node of a scene. Local px are the node's own coordinates; `transform` maps them to its parent's (the
    root's parent space is view px).

    Attributes:
        id: unique in its scene (a counter, a view's address). transform: (a, b, c, d, tx, ty), local → parent.
        bounds: the node's box (min_x, min_y, max_x, max_y), local px. hidden, interactive: UIKit's isHidden and
        isUserInteractionEnabled. clips_children: children are hit only inside this node's hit box (`clips`, its
        name before 1.3, still works, with a DeprecationWarning). pointer_events:
        ``"auto"``, ``"none"``, ``"box-none"`` (only its children), ``"box-only"`` (only itself). alpha: below
        0.01 takes the subtree out. slop: insets of the hit box (top, left, bottom, right), negative enlarges.
        min_size: the least hit box (w, h), grown about its centre (the 44 × 44 rule). shape: ``"box"``,
        ``"roundRect"`` (corner_radius; ``"round-rect"`` before 1.3), ``"ellipse"``, ``"path"`` (path: (verbs, points), fill_rule) or
        ``"text"`` (text: a `Layout` whose view space is the node's local space; holes: ``"ink"``,
        ``"filled-counters"``, ``"word-hull"``), ``"glyphs"`` (glyphs: (font, glyph id, size, (x, y)) tuples
        placed in local px; holes as for text) or ``"mask"`` (mask: (width, height, alpha bytes row by row,
        threshold 1 ... 255 or 0 for the default 128), stretched over the bounds; a mask of no pixels is never
        hit). Glyph ids and mask bytes are copied; the scene keeps the fonts alive.
    """
    id: int
    bounds: Tuple[float, float, float, float] = (0.0, 0.0, -1.0, -1.0)
    transform: Optional[Sequence[float]] = None
    hidden: bool = False
    interactive: bool = True
    clips_children: bool = True
    pointer_events: str = "auto"
    alpha: float = 1.0
    slop: Tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    min_size: Tuple[float, float] = (0.0, 0.0)
    shape: str = "box"
    corner_radius: float = 0.0
    path: Optional[Tuple[Sequence[Any], Any]] = None
    fill_rule: str = "nonzero"
    text: Optional[Layout] = None
    holes: str = "ink"
    glyphs: Optional[Sequence[Tuple[Any, int, float, Tuple[float, float]]]] = None
    mask: Optional[Tuple[int, int, bytes, int]] = None
    #: `clips_children` under its name before 1.3 (deprecated): when given, it sets `clips_children`.
    clips: Optional[bool] = None

    def __post_init__(self) -> None:
        if self.clips is not None:
            warnings.warn("Node(clips=...) is Node(clips_children=...)", DeprecationWarning, 3)
            self.clips_children, self.clips = self.clips, None

    def _shape_data(self, keep: List[Any]) -> Optional[N.NodeShape]:
        """The inkhit_node_shape of a glyph-run or mask node (None for other shapes)."""
        what = "Node %r" % (self.id,)
        # A member only another shape reads would be dropped without a word: refused instead.
        for member in ("path", "text", "glyphs", "mask"):
            if getattr(self, member) is not None and self.shape != member:
                raise C.InvalidArgumentError("%s: %s is given, but the node's shape is %r (shape=%r reads it)"
                                             % (what, member, self.shape, member), 4)
        if self.shape not in ("glyphs", "mask"):
            return None
        d = N.NodeShape()
        _call(N.lib.inkhit_node_shape_init, ctypes.byref(d))
        d.holes = C.choice(self.holes, _HOLES, what + ": holes")
        if self.shape == "glyphs":
            glyphs = C.items(self.glyphs or (), what + ": glyphs")
            placements = (N.GlyphPlacement * max(1, len(glyphs)))()
            for k, item in enumerate(glyphs):
                font, glyph, size, origin = C.items(item, "%s: glyphs[%d] (font, glyph, size, (x, y))" % (what, k), 4)
                if not isinstance(font, Font):
                    raise C.ArgumentTypeError("%s: glyphs[%d] font must be an inkhit.Font" % (what, k), 3)
                placements[k] = N.GlyphPlacement(font._handle, C.integer(glyph, "%s: glyphs[%d] glyph" % (what, k), "uint32_t"),
                                                  C.number(size, "%s: glyphs[%d] size" % (what, k)),
                                                  N.Point(*C.pair(origin, "%s: glyphs[%d] origin" % (what, k))),
                                                  C.transform(None))
            keep.append(placements)
            d.glyphs, d.glyph_count = placements, len(glyphs)
        else:
            width, height, alpha, threshold = C.items(self.mask if self.mask is not None else (0, 0, b"", 0),
                                                      what + ": mask (width, height, alpha bytes, threshold)", 4)
            data = C.bytes_like(alpha, what + ": mask bytes")
            # The library is told how many bytes there are (mask_length) and refuses a count that is not
            # width x height: nothing is computed or read here beyond them.
            buffer = (ctypes.c_uint8 * max(1, len(data))).from_buffer_copy(data.tobytes() or b"\0")
            keep.append(buffer)
            d.mask_width = C.integer(width, what + ": mask width", "uint32_t")
            d.mask_height = C.integer(height, what + ": mask height", "uint32_t")
            d.mask_alpha = buffer
            d.mask_length = len(data)
            d.mask_threshold = C.integer(threshold, what + ": mask threshold", "uint32_t")
        return d

    def _c(self, keep: List[Any]) -> N.Node:
        what = "Node %r" % (self.id,)
        n = N.Node()
        _call(N.lib.inkhit_node_init, ctypes.byref(n), C.integer(self.id, "Node: id", "uint64_t"))
        n.transform = C.transform(self.transform, what + ": transform")
        bounds = C.items(self.bounds, what + ": bounds (min_x, min_y, max_x, max_y)", 4)
        n.bounds = N.Rect(*[C.number(v, what + ": bounds") for v in bounds])
        n.flags = (1 if C.flag(self.hidden, what + ": hidden") else 0) \
            | (0 if C.flag(self.interactive, what + ": interactive") else 2) | (0 if C.flag(self.clips_children, what + ": clips_children") else 4)
        n.pointer_events = C.choice(self.pointer_events, _POINTER, what + ": pointer_events")
        n.shape = C.choice(self.shape, _SHAPE, what + ": shape", _SHAPE_RENAMED)
        n.holes = C.choice(self.holes, _HOLES, what + ": holes")
        n.alpha = C.number(self.alpha, what + ": alpha")
        n.slop_top, n.slop_left, n.slop_bottom, n.slop_right = (
            C.number(v, what + ": slop") for v in C.items(self.slop, what + ": slop (top, left, bottom, right)", 4))
        n.min_width, n.min_height = C.pair(self.min_size, what + ": min_size")
        n.corner_radius = C.number(self.corner_radius, what + ": corner_radius")
        n.fill_rule = C.choice(self.fill_rule, {"nonzero": 0, "evenodd": 1}, what + ": fill_rule")
        if self.path is not None:
            verbs, points = C.items(self.path, what + ": path (verbs, points)", 2)
            codes = _verbs(verbs, what + ": path verbs")
            pts = C.points(points, what + ": path points")
            keep += [codes, pts]
            n.verbs = ctypes.cast(codes.ctypes.data, ctypes.POINTER(ctypes.c_uint8))
            n.verb_count = codes.shape[0]
            n.points = ctypes.cast(pts.ctypes.data, ctypes.POINTER(N.Point))
            n.point_count = pts.shape[0]
        if self.text is not None:
            if not isinstance(self.text, Layout):
                raise C.ArgumentTypeError("%s: text must be an inkhit.Layout" % what, 3)
            n.text = self.text._handle
        return n


@dataclass(frozen=True)
class SceneHit:
    """What a point hit in a scene: the node's `id`, its `depth` (0: the root; `Scene.path` gives the ancestors),
    `inside` (in its region, or only within the radius), `local` (the point in the node's local px), `distance`
    (to the node's region, view px, negative inside), and for a text or glyph-run node the `placement` hit (an
    index into the node's layout glyphs or run, not a glyph id; None for other nodes, attachments, decorations and
    the enlarged box) and the `text` hit."""
    node: int
    depth: int
    inside: bool
    local: Tuple[float, float]
    distance: float
    placement: Optional[int]
    text: Optional[TextHit]

    @property
    def glyph(self) -> Optional[int]:
        """`placement` under its name before 1.3 (deprecated: it holds a placement, never a glyph id)."""
        warnings.warn("SceneHit.glyph is SceneHit.placement", DeprecationWarning, 2)
        return self.placement


def _with_node(node: Node, call: Any) -> None:
    """Calls `call` with the node's inkhit_node (and its inkhit_node_shape, for glyph-run and mask nodes), keeping
    what they point to alive for the call."""
    keep: List[Any] = []
    c = node._c(keep)
    data = node._shape_data(keep)
    if data is None:
        call(c)
    else:
        call(c, data)


class Scene(Owned):
    """A tree of nodes holding only `root` at first. Edits are locked (safe from several threads); queries go
    to immutable `Snapshot`s, which later edits never change. The scene keeps the layouts of its text nodes."""

    _kind = "Scene"

    def __init__(self, root: Node) -> None:
        handle = ctypes.c_void_p()
        self._layouts: dict = {}
        _with_node(root, lambda c, d=None: _call(N.lib.inkhit_scene_create, ctypes.byref(c), ctypes.byref(handle)))
        self._own(handle.value, N.lib.inkhit_scene_release)  # type: ignore[arg-type]
        self._remember(root)

    def add(self, parent: int, node: Node) -> None:
        """Adds `node` as the last (topmost) child of node `parent`."""
        p = C.integer(parent, "Scene.add: parent", "uint64_t")
        _with_node(node, lambda c, d=None: _call(N.lib.inkhit_scene_add, self._handle, p, ctypes.byref(c)) if d is None
                   else _call(N.lib.inkhit_scene_add_shaped, self._handle, p, ctypes.byref(c), ctypes.byref(d)))
        self._remember(node)

    def update(self, node: Node) -> None:
        """Replaces every setting of node `node.id` with `node` (its place in the tree stays)."""
        _with_node(node, lambda c, d=None: _call(N.lib.inkhit_scene_update, self._handle, ctypes.byref(c)) if d is None
                   else _call(N.lib.inkhit_scene_update_shaped, self._handle, ctypes.byref(c), ctypes.byref(d)))
        self._remember(node)

    def _remember(self, node: Node) -> None:
        # Text hits are reported as indexes of the node's Python string: snapshots map them with its layout.
        if node.text is not None:
            self._layouts[node.id] = node.text
        else:
            self._layouts.pop(node.id, None)

    def set_transform(self, node: int, transform: Sequence[float]) -> None:
        """Moves node `node`: its local px → parent px transform (a, b, c, d, tx, ty). The cheap edit."""
        t = C.transform(transform, "Scene.set_transform: transform")
        _call(N.lib.inkhit_scene_set_transform, self._handle, C.integer(node, "Scene.set_transform: node", "uint64_t"),
              ctypes.byref(t))

    def remove(self, node: int) -> None:
        """Removes node `node` and everything below it (snapshots taken before keep them)."""
        _call(N.lib.inkhit_scene_remove, self._handle, C.integer(node, "Scene.remove: node", "uint64_t"))

    def path(self, node: int) -> List[int]:
        """The ids from the root down to node `node`."""
        k = C.integer(node, "Scene.path: node", "uint64_t")
        count = ctypes.c_size_t()
        _call(N.lib.inkhit_scene_path, self._handle, k, None, 0, ctypes.byref(count))
        ids = (ctypes.c_uint64 * max(1, count.value))()
        _call(N.lib.inkhit_scene_path, self._handle, k, ids, count.value, ctypes.byref(count))
        return list(ids[:count.value])

    def __len__(self) -> int:
        """How many nodes the scene has."""
        count = ctypes.c_size_t()
        _call(N.lib.inkhit_scene_count, self._handle, ctypes.byref(count))
        return count.value

    def snapshot(self, tolerance: float = 0.01) -> "Snapshot":
        """An immutable, indexed copy of the scene, flattened within `tolerance` view px (only what changed since
        the last snapshot is rebuilt)."""
        handle = ctypes.c_void_p()
        _call(N.lib.inkhit_scene_snapshot, self._handle, C.number(tolerance, "Scene.snapshot: tolerance"),
              ctypes.byref(handle))
        snap = Snapshot.__new__(Snapshot)
        snap._own(handle.value, N.lib.inkhit_snapshot_release)  # type: ignore[arg-type]
        snap._layouts = dict(self._layouts)
        return snap


class Snapshot(Owned):
    """An immutable, indexed copy of a `Scene` (any number of threads may query it at once)."""

    _kind = "Snapshot"

    def hit(self, x: float, y: float, radius: float = 0.0) -> Optional[SceneHit]:
        """The node under (x, y), view px, within `radius` view px, the UIKit way (hidden, non-interactive and
        transparent subtrees out, children clipped, later siblings on top), or None. For a text node, `text` is
        the hit on its layout (`TextHit.start`/`end` index the layout's Python string).

        Raises:
            InvalidArgumentError: a negative or NaN radius, a NaN or infinite point (the library's rules)."""
        c = N.SceneHit()
        _call(N.lib.inkhit_snapshot_hit, self._handle, C.number(x, "Snapshot.hit: x"), C.number(y, "Snapshot.hit: y"),
              C.number(radius, "Snapshot.hit: radius"), ctypes.byref(c))
        if not c.hit:
            return None
        t = c.text
        text = None
        layout = self._layouts.get(c.node)
        if t.hit and layout is not None:
            text = layout._text_hit(t)
        return SceneHit(c.node, c.depth, bool(c.inside), (c.local.x, c.local.y), c.distance,
                        c.placement if c.placement >= 0 else None, text)

    def hits(self, points: Any, radius: float = 0.0, non_finite: str = "miss") -> np.ndarray:
        """The answers for an (N, 2) array of view px, as `SCENE_HIT_DTYPE` records written by the batch call;
        `non_finite` as for `Index.hits` (``"miss"`` or ``"error"``)."""
        pts = C.points(points, "Snapshot.hits: points")
        out = np.empty(pts.shape[0], SCENE_HIT_DTYPE)
        _call(N.lib.inkhit_snapshot_hit_batch, self._handle, pts.ctypes.data, pts.shape[0],
              C.number(radius, "Snapshot.hits: radius"), C.choice(non_finite, N.NON_FINITE, "Snapshot.hits: non_finite"),
              out.ctypes.data, None)
        return out
