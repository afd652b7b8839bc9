"""Ownership of one libInkHit handle: released exactly once, never while a call uses it."""
from __future__ import annotations

import threading
import weakref
from typing import Any, Callable, Optional

from ._errors import InvalidHandleError


def _release(release: Callable[[int], int], handle: int) -> None:
    release(handle)


class Owned:
    """Base of every object that owns a handle (Font, Builder, Index, Layout, Scene, Snapshot, ShapeCache).

    The handle is released when the object is garbage-collected, or earlier by `close()` or a ``with`` block;
    both are idempotent. inkhit.h forbids releasing a handle while another thread is inside a call that uses
    it, so every call takes a use (`_use` / `_done`): `close()` during such a call only marks the object, and
    the last call to finish releases it. Objects made from this one (an index from a builder, a layout from
    its fonts) hold what they need inside the library: closing this one never breaks them.
    """

    __slots__ = ("_handle", "_lock", "_users", "_closing", "_finalizer", "__weakref__")
    _kind = "object"

    def _own(self, handle: int, release: Callable[[int], int]) -> None:
        self._handle: Optional[int] = handle
        self._lock = threading.Lock()
        self._users = 0
        self._closing = False
        self._finalizer = weakref.finalize(self, _release, release, handle)
        # At interpreter exit the process ends anyway: no calls into the library during shutdown.
        self._finalizer.atexit = False

    def _use(self) -> int:
        """The handle, for one call; pair with `_done()` in a ``finally``."""
        with self._lock:
            if self._handle is None or self._closing:
                raise InvalidHandleError("%s was closed" % self._kind, 2)
            self._users += 1
            return self._handle

    def _done(self) -> None:
        with self._lock:
            self._users -= 1
            last = self._closing and self._users == 0 and self._handle is not None
            if last:
                self._handle = None
        if last:
            self._finalizer()

    def close(self) -> None:
        """Releases the library's object now (idempotent; objects made from this one keep working).
        A call running on another thread finishes first: the release happens when it returns."""
        with self._lock:
            if self._handle is None or self._closing:
                return
            self._closing = True
            if self._users:
                return
            self._handle = None
        self._finalizer()

    @property
    def closed(self) -> bool:
        """True once `close()` was called (or the object's ``with`` block ended)."""
        return self._handle is None or self._closing

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
