"""Errors: one class per status code of inkhit.h, each carrying the library's message."""
from __future__ import annotations

from typing import Dict, Type

from ._native import lib

__all__ = ["Error", "NullArgumentError", "InvalidHandleError", "InvalidArgumentError", "InvalidTextError",
           "FileError", "FontError", "GlyphError", "ShapeError", "PlacementError", "LayoutError", "SceneError",
           "LimitError", "JobWarning", "_call"]


class Error(Exception):
    """A call into libInkHit failed.

    Attributes:
        status: the inkhit.h status code (1 … 12).
        status_name: its name, ``"INKHIT_ERROR_FONT"``.
        message: the library's message, which names the function and the argument
            (``"inkhit_font_from_path: /x.ttf: no such file"``).
    """

    status: int = -1

    def __init__(self, message: str, status: int = -1) -> None:
        super().__init__(message)
        if status >= 0:
            self.status = status
        self.message = message

    @property
    def status_name(self) -> str:
        """The status code's name in inkhit.h (``"INKHIT_ERROR_FONT"``)."""
        return lib.inkhit_status_name(self.status).decode()


class NullArgumentError(Error):
    """INKHIT_ERROR_NULL_ARGUMENT: a required argument was missing."""
    status = 1


class InvalidHandleError(Error):
    """INKHIT_ERROR_INVALID_HANDLE: an object used after it was closed (or a handle the library never made)."""
    status = 2


class InvalidArgumentError(Error, ValueError):
    """INKHIT_ERROR_INVALID_ARGUMENT: a NaN or infinite number, a value out of its range, an unknown option."""
    status = 3


class InvalidTextError(Error, ValueError):
    """INKHIT_ERROR_INVALID_TEXT: text that is not valid Unicode, an offset inside a character."""
    status = 4


class FileError(Error):
    """INKHIT_ERROR_FILE: a font file that does not exist, is not a regular file or cannot be read."""
    status = 5


class FontError(Error):
    """INKHIT_ERROR_FONT: data that is not a font, a face or named instance the font lacks, an unknown axis."""
    status = 6


class GlyphError(Error):
    """INKHIT_ERROR_GLYPH: a glyph id out of the font's range, a broken outline."""
    status = 7


class ShapeError(Error):
    """INKHIT_ERROR_SHAPE: an outline that cannot be made into a shape within the limits."""
    status = 8


class PlacementError(Error):
    """INKHIT_ERROR_PLACEMENT: a singular transform, coordinates or scales out of range."""
    status = 9


class LayoutError(Error):
    """INKHIT_ERROR_LAYOUT: a link, attachment or run out of range, a bad exclusion."""
    status = 10


class SceneError(Error):
    """INKHIT_ERROR_SCENE: a node id used twice, an unknown node, removing the root."""
    status = 11


class LimitError(Error):
    """INKHIT_ERROR_LIMIT: more than a documented limit allows (text length, placements, live handles, …)."""
    status = 12


_BY_STATUS: Dict[int, Type[Error]] = {c.status: c for c in (
    NullArgumentError, InvalidHandleError, InvalidArgumentError, InvalidTextError, FileError, FontError, GlyphError,
    ShapeError, PlacementError, LayoutError, SceneError, LimitError)}


class JobWarning(UserWarning):
    """A job was answered but something in it was ignored or adjusted: a member its format does not know
    (``"radious"``), a variation coordinate clamped to its axis (`run_jobs`, `JobRunner`; what ``ink-hit``
    writes to standard error)."""


def error(status: int) -> Error:
    """The exception for `status` with the calling thread's last message."""
    message = lib.inkhit_last_error().decode("utf-8", "replace")
    cls = _BY_STATUS.get(status, Error)
    return cls(message, status)


def _call(function, *args) -> None:
    """Calls `function` (an inkhit.h function returning an inkhit_status) with `args` and raises the exception of
    its status unless it is INKHIT_OK (0): the one place a status becomes an exception."""
    status = function(*args)
    if status != 0:
        raise error(status)
