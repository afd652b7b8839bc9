"""InkHit: hit-testing text by the shape of its ink.

Is this point on the text — and on which glyph, character or link? InkHit answers by the glyphs' outlines
(FreeType), not their boxes: the hole of an "o" and the gap after a word miss, unless you ask for a touch
radius. Exactly (every point farther than the tolerance from an outline gets a curve-exact answer), and about as
fast as reading a bitmap.

    import numpy as np, inkhit
    font = inkhit.Font("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    builder = inkhit.Builder()
    for i, ch in enumerate("ink"):
        builder.add_glyph(font, font.glyph(ch), 32, origin=(10 + 20 * i, 40))
    index = builder.build()
    index.hit(13, 30)                                  # Hit(placement=0, inside=True, distance=-1.2, tag=0)
    answers = index.hits(np.array([[13, 30], [1, 1]]), radius=3.5)   # numpy records: hit, inside, placement, distance

Spaces and units. Font units: the glyph design grid, y up, `units_per_em` per em. Layout px: y down, a glyph's
origin on its baseline; a glyph of size s at (x, y) puts font point (u, v) at (x + u*s/upem, y - v*s/upem).
View px: layout px through a transform (a, b, c, d, tx, ty): x' = a*x + c*y + tx, y' = b*x + d*y + ty. Query
points, radii and distances are view px. The hit rule: the topmost (last added) placement whose ink holds the
point, else the one whose outline is nearest within the radius (ties go to the topmost).

Objects own library handles: they are released when collected, or early with ``close()`` / ``with``; what one
object needs from another (an index its glyph shapes and fonts, a layout its text) is kept inside the library.
Immutable objects (Font, Index, Layout, Snapshot) may be queried from many threads at once; calls release the GIL.
Arguments are converted strictly (a bool is not a number, an integer must fit its C field, point arrays are
(N, 2)); every other rule is the library's, and every failure raises its `Error` subclass with its message.
"""
from __future__ import annotations

from . import _native
from ._errors import (Error, FileError, FontError, GlyphError, InvalidArgumentError, InvalidHandleError,
                      InvalidTextError, JobWarning, LayoutError, LimitError, NullArgumentError, PlacementError,
                      SceneError, ShapeError)
from .fonts import Font, GlyphStyle, ShapeCache
from .index import (HB_GLYPH_INFO_DTYPE, HB_GLYPH_POSITION_DTYPE, HIT_DTYPE, RUN_GLYPH_DTYPE, Builder, Hit, Index)
from .jobs import JOB_LIMITS, JobRunner, run_jobs
from .layout import Attachment, Caret, CaretRect, Decoration, Exclusion, Layout, TextHit, TextRun
from .scene import SCENE_HIT_DTYPE, Node, Scene, SceneHit, Snapshot

__version__ = "1.3.0"

#: The loaded libInkHit's version, "MAJOR.MINOR.PATCH".
library_version: str = _native.lib.inkhit_version_string().decode()

#: Glyph ids that stand for no glyph (Pango's): added without ink, never an error.
GLYPH_EMPTY = _native.GLYPH_EMPTY
GLYPH_UNKNOWN_FLAG = _native.GLYPH_UNKNOWN_FLAG

#: The view range, px: view coordinates lie within +-VIEW_LIMIT and glyphs are drawn at most VIEW_LIMIT px per em
#: (beyond it the library refuses the call). C's INKHIT_VIEW_LIMIT, Swift's ViewSpace.limit.
VIEW_LIMIT: float = _native.VIEW_LIMIT


def handle_count() -> int:
    """How many library handles are live in this process (a leak check)."""
    return int(_native.lib.inkhit_handle_count())


__all__ = ["Font", "GlyphStyle", "ShapeCache", "Builder", "Index", "Hit", "HIT_DTYPE", "HB_GLYPH_INFO_DTYPE",
           "HB_GLYPH_POSITION_DTYPE", "RUN_GLYPH_DTYPE", "Layout", "TextHit", "TextRun", "Attachment", "Exclusion",
           "Decoration", "Caret", "CaretRect", "Scene", "Snapshot", "Node", "SceneHit", "SCENE_HIT_DTYPE", "run_jobs",
           "JobRunner", "JOB_LIMITS", "JobWarning", "Error", "NullArgumentError", "InvalidHandleError",
           "InvalidArgumentError", "InvalidTextError", "FileError", "FontError", "GlyphError", "ShapeError",
           "PlacementError", "LayoutError", "SceneError", "LimitError", "handle_count", "library_version",
           "GLYPH_EMPTY", "GLYPH_UNKNOWN_FLAG", "VIEW_LIMIT"]
