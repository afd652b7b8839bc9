"""Ownership of one libInkHit handle: an object owns its handle and releases it once, in `close()` or its
finalizer."""
from __future__ import annotations

import weakref
from typing import Any, Callable


class Owned:
    """Base of every object that owns a handle (Font, Builder, Index, Layout, Scene, Snapshot, ShapeCache,
    JobRunner).

    The handle is released when the object is garbage-collected, or earlier by `close()` or a ``with`` block
    (idempotent). Nothing is counted per call: the library makes a release safe while other threads are inside
    calls that use the handle (their calls finish with the object; inkhit.h, "Threads"), and a call made with a
    released handle raises `InvalidHandleError` (the library keeps a released handle's number distinct from every
    later one). Objects made from this one (an index from a builder, a layout from its fonts) hold what they need
    inside the library: closing this one never breaks them.
    """

    __slots__ = ("_handle", "_finalizer", "__weakref__")
    _kind = "object"

    def _own(self, handle: int, release: Callable[[int], int]) -> None:
        self._handle: int = handle
        self._finalizer = weakref.finalize(self, release, handle)
        # At interpreter exit the process ends anyway: no calls into the library during shutdown.
        self._finalizer.atexit = False

    def close(self) -> None:
        """Releases the library's object now (idempotent; objects made from this one keep working). Calls on
        other threads that are using it finish first; later calls raise `InvalidHandleError`."""
        self._finalizer()

    @property
    def closed(self) -> bool:
        """True once `close()` was called (or the object's ``with`` block ended)."""
        return not self._finalizer.alive

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
