"""Strict conversion of Python values to the C types of inkhit.h: the binding's own job. A bool is not a number;
a float is not an integer; an integer out of its C field's range is refused, never truncated; point arrays are
(N, 2). Each failure raises `InvalidArgumentError` (a ValueError; `ArgumentTypeError`, also a TypeError, for a
value of the wrong type). The library's own rules (a radius >= 0, a size > 0, a glyph id in the font's range,
finite coordinates where it needs them) stay in the library: nothing here repeats them.
"""
from __future__ import annotations

import numbers
import operator
import warnings
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from . import _native as N
from ._errors import InvalidArgumentError

__all__ = ["ArgumentTypeError", "integer", "number", "pair", "transform", "points", "integers", "array", "items", "bytes_like", "flag",
           "choice"]


class ArgumentTypeError(InvalidArgumentError, TypeError):
    """A value of the wrong type for its C field (a bool or a float where an integer is meant, a str where a
    number is): an `InvalidArgumentError` (a ValueError) and a TypeError."""


#: The range of each C integer type by its name in inkhit.h.
RANGES = {
    "int32_t": (-(1 << 31), (1 << 31) - 1),
    "uint32_t": (0, (1 << 32) - 1),
    "int64_t": (-(1 << 63), (1 << 63) - 1),
    "uint64_t": (0, (1 << 64) - 1),
    "size_t": (0, (1 << 64) - 1),
}

_NUMPY_TYPES = {"int32_t": np.int32, "uint32_t": np.uint32, "int64_t": np.int64, "uint64_t": np.uint64,
                "size_t": np.uint64}


def _is_bool(value: Any) -> bool:
    return isinstance(value, (bool, np.bool_))


def integer(value: Any, what: str, ctype: str) -> int:
    """`value` (an int or a numpy integer) as an integer of C type `ctype`, checked against its range."""
    if _is_bool(value):
        raise ArgumentTypeError("%s must be an integer, not a bool (%r)" % (what, value), 3)
    try:
        v = operator.index(value)
    except TypeError:
        raise ArgumentTypeError("%s must be an integer, not %s (%r)" % (what, type(value).__name__, value), 3) from None
    lo, hi = RANGES[ctype]
    if not lo <= v <= hi:
        raise InvalidArgumentError("%s %d is out of the range of its C type %s (%d ... %d)" % (what, v, ctype, lo, hi), 3)
    return v


def number(value: Any, what: str) -> float:
    """`value` (an int, a float, a numpy number) as a C double. NaN and infinities pass: whether they are allowed
    is the library's rule, which it checks."""
    if _is_bool(value) or not isinstance(value, numbers.Real):
        raise ArgumentTypeError("%s must be a number, not %s (%r)" % (what, type(value).__name__, value), 3)
    try:
        return float(value)
    except OverflowError:
        raise InvalidArgumentError("%s %r is beyond the range of a double" % (what, value), 3) from None


def flag(value: Any, what: str) -> bool:
    """`value` as a C flag: a bool (or numpy bool) only."""
    if not _is_bool(value):
        raise ArgumentTypeError("%s must be True or False, not %s (%r)" % (what, type(value).__name__, value), 3)
    return bool(value)


def choice(value: Any, table: dict, what: str, renamed: Optional[dict] = None) -> Any:
    """The C value `table` maps `value` (a name) to. `renamed` maps an older spelling of a name to the one in
    `table` (docs/vocabulary.md): still accepted, with a DeprecationWarning."""
    if renamed and isinstance(value, str) and value in renamed:
        warnings.warn("%s %r is the old spelling of %r" % (what, value, renamed[value]), DeprecationWarning, 3)
        value = renamed[value]
    try:
        return table[value]
    except (KeyError, TypeError):
        raise InvalidArgumentError("%s is one of %s, not %r" % (what, ", ".join(repr(k) for k in table), value), 3) \
            from None


def items(value: Any, what: str, length: Optional[int] = None) -> List[Any]:
    """The items of a sequence (a list, a tuple, an array; not a str or bytes), `length` of them when given."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__") or not hasattr(value, "__iter__"):
        raise ArgumentTypeError("%s must be a sequence%s, not %s" % (
            what, "" if length is None else " of %d items" % length, type(value).__name__), 3)
    result = list(value)
    if length is not None and len(result) != length:
        raise InvalidArgumentError("%s must have %d items, got %d" % (what, length, len(result)), 3)
    return result


def _sequence(value: Any, length: int, what: str) -> Sequence[Any]:
    return items(value, what, length)


def pair(value: Any, what: str) -> Tuple[float, float]:
    """A point (x, y) as two doubles."""
    x, y = _sequence(value, 2, what)
    return number(x, what + "[0]"), number(y, what + "[1]")


def transform(value: Any, what: str = "transform") -> N.Transform:
    """A 6-sequence (a, b, c, d, tx, ty) as an inkhit_transform; None: the identity."""
    if value is None:
        return N.Transform(*N.IDENTITY)
    items = _sequence(value, 6, what + " (a, b, c, d, tx, ty)")
    return N.Transform(*[number(v, "%s[%d]" % (what, i)) for i, v in enumerate(items)])


def array(value: Any, what: str) -> np.ndarray:
    """`value` as a numpy array of numbers (Python objects converted one by one, as scalars are)."""
    try:
        a = np.asarray(value)
    except (ValueError, TypeError) as e:
        raise InvalidArgumentError("%s is not an array of numbers (%s)" % (what, e), 3) from None
    if a.dtype.kind == "O":
        # Python objects: numbers only, each converted as a scalar would be (bools refused).
        flat = [number(v, what + " item") for v in a.ravel().tolist()]
        a = np.array(flat, dtype=np.float64).reshape(a.shape)
    return a


def points(value: Any, what: str = "points") -> np.ndarray:
    """An (N, 2) array of numbers (view px) as a C-contiguous float64 array (read in place when it already is
    one). An empty sequence is 0 points."""
    a = array(value, what)
    if a.dtype.kind not in "iuf":
        raise ArgumentTypeError("%s must hold numbers, not %s" % (what, "bools" if a.dtype.kind == "b" else a.dtype), 3)
    if a.ndim == 1 and a.shape[0] == 0:
        a = a.reshape(0, 2)
    if a.ndim != 2 or a.shape[1] != 2:
        raise InvalidArgumentError("%s must be an (N, 2) array, got shape %s" % (what, a.shape), 3)
    return np.ascontiguousarray(a, dtype=np.float64)


def integers(value: Any, what: str, ctype: str) -> np.ndarray:
    """A 1-D array of integers (glyph ids, tags) checked against C type `ctype`'s range: floats (NaN glyph ids),
    bools and out-of-range values are refused."""
    a = array(value, what)
    if a.ndim != 1:
        if a.size == 0:
            a = a.reshape(0)
        else:
            raise InvalidArgumentError("%s must be a 1-D array, got shape %s" % (what, a.shape), 3)
    if a.size == 0:
        return np.zeros(0, _NUMPY_TYPES[ctype])
    if a.dtype.kind not in "iu":
        raise ArgumentTypeError("%s must hold integers, not %s" % (what, "bools" if a.dtype.kind == "b" else a.dtype), 3)
    lo, hi = RANGES[ctype]
    least, most = int(a.min()), int(a.max())
    if least < lo or most > hi:
        bad = least if least < lo else most
        raise InvalidArgumentError("%s holds %d, out of the range of its C type %s (%d ... %d)" % (what, bad, ctype, lo, hi),
                                   3)
    return a.astype(_NUMPY_TYPES[ctype])


def bytes_like(value: Any, what: str) -> memoryview:
    """A bytes-like object (bytes, bytearray, memoryview, a contiguous numpy array) as a flat view of its bytes."""
    try:
        view = memoryview(value)
    except TypeError:
        raise ArgumentTypeError("%s must be bytes-like (bytes, bytearray, a uint8 array), not %s" % (
            what, type(value).__name__), 3) from None
    if not view.c_contiguous:
        raise InvalidArgumentError("%s must be contiguous" % what, 3)
    return view.cast("B") if view.ndim != 1 or view.format != "B" else view
