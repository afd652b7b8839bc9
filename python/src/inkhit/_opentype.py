"""The subfamily names of a variable font's named instances (fvar + name tables), read from its bytes: the one
thing `Font(..., instance="Bold")` needs that inkhit.h does not give (it takes instances by number)."""
from __future__ import annotations

import struct
from typing import List, Optional


def _tables(data: bytes, face: int) -> dict:
    offset = 0
    if data[:4] == b"ttcf":
        count = struct.unpack_from(">I", data, 8)[0]
        if not 0 <= face < count:
            return {}
        offset = struct.unpack_from(">I", data, 12 + 4 * face)[0]
    num = struct.unpack_from(">H", data, offset + 4)[0]
    tables = {}
    for i in range(num):
        tag, _, off, length = struct.unpack_from(">4sIII", data, offset + 12 + 16 * i)
        tables[tag.decode("latin-1")] = (off, length)
    return tables


def _names(data: bytes, off: int) -> dict:
    _, count, strings = struct.unpack_from(">HHH", data, off)
    found: dict = {}
    for i in range(count):
        platform, encoding, language, name_id, length, at = struct.unpack_from(">6H", data, off + 6 + 12 * i)
        raw = data[off + strings + at: off + strings + at + length]
        if platform == 3 and encoding in (0, 1, 10):
            rank, text = (0 if language == 0x409 else 1), raw.decode("utf-16-be", "replace")
        elif platform == 0:
            rank, text = 2, raw.decode("utf-16-be", "replace")
        elif platform == 1 and encoding == 0:
            rank, text = 3, raw.decode("mac-roman", "replace")
        else:
            continue
        if name_id not in found or rank < found[name_id][0]:
            found[name_id] = (rank, text)
    return {k: v[1] for k, v in found.items()}


def instance_names(data: bytes, face: int) -> List[Optional[str]]:
    """The subfamily name of each named instance of face `face`, in fvar order (None where the font gives none);
    empty for a font that does not vary or that cannot be read."""
    try:
        tables = _tables(data, face)
        if "fvar" not in tables:
            return []
        off = tables["fvar"][0]
        _, _, axes_off, _, axis_count, axis_size, count, instance_size = struct.unpack_from(">8H", data, off)
        names = _names(data, tables["name"][0]) if "name" in tables else {}
        result: List[Optional[str]] = []
        base = off + axes_off + axis_count * axis_size
        for i in range(count):
            name_id = struct.unpack_from(">H", data, base + i * instance_size)[0]
            result.append(names.get(name_id))
        return result
    except (struct.error, IndexError):
        return []
