"""GTK 4 windows against inkhit.pango.add_layout(renderer=...): gtk_check.py's window of seven labels (TrueType,
CFF and CJK fonts, bold and italic, underline, strikethrough, 9 to 28 px, hex boxes of characters no font has)
under Xvfb, with GTK's cairo renderer and its GL renderer (Mesa's llvmpipe) at scales 1 and 2, screenshots by
xwd: 0 disagreements on the clearly black or white pixels (<= 5, >= 250) at least 0.05 px from InkHit's outline.
And the rules are told apart: each renderer's screenshot judged with the other renderer's rules disagrees."""
from __future__ import annotations

import json
import os
import subprocess
from typing import Dict, Iterator, Tuple

import pytest

from conftest import run, which

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    for tool in ("Xvfb", "xwd"):
        if not which(tool):
            pytest.fail("no %s (./inkhit deps installs xvfb and x11-apps)" % tool)
    if run(["/usr/bin/python3", "-c", "import gi; gi.require_version('Gtk', '4.0')"]).returncode != 0:
        pytest.fail("no GTK 4 for PyGObject (./inkhit deps installs gir1.2-gtk-4.0)")
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                              pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as f:
        number = f.readline().strip()
    try:
        yield ":" + number
    finally:
        server.terminate()
        server.wait(10)


def window(gi_python: str, display: str, gsk: str, scale: int, rules: str, tmp: str) -> Dict:
    env = dict(os.environ, DISPLAY=display, GSK_RENDERER=gsk, GDK_SCALE=str(scale), GDK_BACKEND="x11",
               NO_AT_BRIDGE="1", GTK_A11Y="none")
    result = run([gi_python, os.path.join(HERE, "gtk_check.py"), rules, os.path.join(tmp, "%s-%d.xwd" % (gsk, scale))],
                 env=env, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout.splitlines()[-1])


CONFIGURATIONS = [("cairo", "cairo", 1), ("cairo", "cairo", 2), ("gl", "gsk-gl", 1), ("gl", "gsk-gl", 2)]


@pytest.mark.parametrize("gsk,rules,scale", CONFIGURATIONS)
def test_a_gtk4_window(gi_python: str, display: str, tmp_path, gsk: str, rules: str, scale: int) -> None:
    s = window(gi_python, display, gsk, scale, rules, str(tmp_path))
    assert s["gsk"] == {"cairo": "CairoRenderer", "gl": "GLRenderer"}[gsk]
    assert s["scale"] == scale
    assert s["placements"] > 150
    assert s["judged"] > 35000 * scale * scale
    assert s["wrong"] == 0, s


def test_the_rules_are_told_apart(gi_python: str, display: str, tmp_path) -> None:
    # At scale 2 every glyph's origin differs between the two rules; judged with the other's, each fails.
    gl = window(gi_python, display, "gl", 2, "cairo", str(tmp_path))
    cairo = window(gi_python, display, "cairo", 2, "gsk-gl", str(tmp_path))
    assert gl["wrong"] > 100 and cairo["wrong"] > 100, (gl, cairo)
