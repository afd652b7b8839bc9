"""inkhit.pango.add_layout with a PyGObject Pango.Layout (the system's python3-gi, seen through
--system-site-packages in a venv that has the wheel): tags against Pango's own character extents (every ink hit
lies within 3 px of its character's logical box: kerning lets a T's bar overhang the next one by 2.5 px), the stem of an "l" found at the middle of its logical box,
and the underline of a link hit as ink tagged with the link's characters. The pixel-exact comparison with
cairo's rendering is the C adapter's own test (scripts/c-abi-test.sh)."""
from __future__ import annotations

import json
import os
import subprocess

import pytest

from conftest import run

HERE = os.path.dirname(os.path.abspath(__file__))


def test_a_pygobject_layout_through_the_adapter(gi_python: str) -> None:
    result = run([gi_python, os.path.join(HERE, "pango_check.py")])
    assert result.returncode == 0, result.stdout + result.stderr
    s = json.loads(result.stdout.splitlines()[-1])
    assert s["adapter_loaded"]
    assert s["placements"] >= s["glyphs"]                 # every glyph, plus the underline's pieces
    assert s["stem_tag"] == s["l_byte"]
    assert s["hits"] > 500 and s["outside_char"] == 0
    assert s["underline_tags"] == s["link_bytes"]
