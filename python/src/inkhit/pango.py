"""Pango from Python: what ``PangoCairo.show_layout`` draws for a PyGObject ``Pango.Layout``, recorded into a
`Builder` through InkHit's Pango adapter (libInkHitPango, inkhit_pango.h).

The adapter is loaded when this module is first used. It is linked against the system's Pango, cairo,
fontconfig and GLib — the ones PyGObject already loaded, so the layout's objects are the adapter's own — and is
not bundled with them: using it needs the system's Pango (``gir1.2-pango-1.0`` and ``python3-gi`` on Debian).
"""
from __future__ import annotations

import ctypes
import os
from typing import Any, Optional, Sequence

from . import _convert as C
from . import _native as N
from ._errors import _call
from .fonts import ShapeCache, _cache_handle
from .index import Builder

__all__ = ["add_layout", "layout_pointer", "SNAP_ORIGINS", "GSK_GL", "RENDERERS"]

#: Round each glyph origin to whole device pixels, half up, as cairo 1.16's image surfaces draw glyphs.
SNAP_ORIGINS = 1
#: GTK 4's GL renderer's rules (INKHIT_PANGO_GSK_GL).
GSK_GL = 2

#: The renderers whose rules `add_layout` applies (``renderer=``), with the adapter's flag for each:
#: ``"cairo"``, cairo 1.16 drawing to an image surface (``PangoCairo.show_layout``; GTK 4 with
#: ``GSK_RENDERER=cairo``); ``"gsk-gl"``, GTK 4's GL renderer (GTK's default); None: origins as Pango gives them
#: (a vector surface: PDF, SVG).
RENDERERS = {None: 0, "cairo": SNAP_ORIGINS, "gsk-gl": GSK_GL}

_adapter: Optional[ctypes.CDLL] = None


def _load() -> ctypes.CDLL:
    global _adapter
    if _adapter is None:
        path = os.environ.get("INKHIT_PANGO_LIBRARY") or os.path.join(
            os.path.dirname(N.library_path()), "libInkHitPango.so.1")
        if not os.path.exists(path):
            raise ImportError("inkhit.pango: the Pango adapter %s is missing (this build of inkhit has none)" % path)
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            raise ImportError("inkhit.pango needs the system's Pango, cairo and fontconfig (Debian: gir1.2-pango-1.0, "
                              "libpangocairo-1.0-0): %s" % e) from e
        f = lib.inkhit_pango_add_layout
        f.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_double, ctypes.c_double,
                      ctypes.POINTER(N.Transform), ctypes.c_uint32, ctypes.POINTER(ctypes.c_size_t)]
        f.restype = ctypes.c_int32
        _adapter = lib
    return _adapter


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_capsule_pointer.restype = ctypes.c_void_p


def layout_pointer(layout: Any) -> int:
    """The ``PangoLayout *`` of `layout`: a PyGObject ``Pango.Layout`` (its ``__gpointer__`` capsule, PyGObject's
    public handle on the wrapped GObject, checked to be a PangoLayout), or an int address as is."""
    if isinstance(layout, int) and not isinstance(layout, bool):
        return layout
    gtype = getattr(layout, "__gtype__", None)
    capsule = getattr(layout, "__gpointer__", None)
    if gtype is None or capsule is None or not _is_a(gtype, "PangoLayout"):
        raise C.ArgumentTypeError("expected a Pango.Layout (PyGObject) or a PangoLayout address, got %r" % (
            type(layout),), 3)
    return _capsule_pointer(capsule, None) or 0


def _is_a(gtype: Any, name: str) -> bool:
    while gtype is not None:
        if getattr(gtype, "name", None) == name:
            return True
        parent = getattr(gtype, "parent", None)
        if parent is None or parent == gtype:
            return False
        gtype = parent
    return False


def add_layout(builder: Builder, layout: Any, x: float = 0.0, y: float = 0.0,
               transform: Optional[Sequence[float]] = None, snap_origins: bool = False,
               cache: Optional[ShapeCache] = None, renderer: Optional[str] = None) -> range:
    """Adds to `builder` what ``PangoCairo.show_layout`` draws for `layout` with its top-left at (x, y), layout px
    (cairo's current point), under `transform` (the cairo CTM, (xx, yx, xy, yy, x0, y0): user space → device
    space = view px; None: the identity): every glyph with the font, size, synthetic bold and slant, variations
    and hinting that fontconfig and cairo use, the underlines, overlines and strikethroughs, and the boxes of
    unknown glyphs. `renderer` says whose rules place the glyphs (`RENDERERS`): ``"cairo"`` rounds glyph origins
    to whole device pixels as cairo 1.16's image surfaces do (so does `snap_origins`); ``"gsk-gl"`` places them as
    GTK 4's GL renderer does, whose transform must only scale (the widget's scale factor) and translate.
    For a GTK 4 widget's layout (a ``Gtk.Label``'s ``get_layout()``), `transform` maps the widget's layout to the
    window's device pixels: the scale factor times (the widget's place in the window's surface + the layout's
    offsets); the README's "GTK 4" section shows it.
    Each placement's tag (`Index.tag`) is the UTF-8 byte index, in ``layout.get_text()``, of the first character
    of its cluster. Returns the placement numbers. The layout must stay unchanged during the call (Pango's rule:
    one thread at a time per layout).
    """
    adapter = _load()
    pointer = layout_pointer(layout)
    t = C.transform(transform, "add_layout: transform")
    if not isinstance(builder, Builder):
        raise C.ArgumentTypeError("add_layout: builder must be an inkhit.Builder", 3)
    flags = C.choice(renderer, RENDERERS, "add_layout: renderer")
    if C.flag(snap_origins, "add_layout: snap_origins"):
        if renderer == "gsk-gl":
            raise C.InvalidArgumentError("add_layout: snap_origins is cairo's rule; renderer=\"gsk-gl\" has its own", 3)
        flags |= SNAP_ORIGINS
    added = ctypes.c_size_t()
    # The adapter makes several calls on the builder; its placements are the ones after the count before it
    # (when no other thread adds to this builder meanwhile).
    first = len(builder)
    _call(adapter.inkhit_pango_add_layout, builder._handle, _cache_handle(cache), pointer,
          C.number(x, "add_layout: x"), C.number(y, "add_layout: y"), ctypes.byref(t),
          flags, ctypes.byref(added))
    return range(first, first + added.value)
