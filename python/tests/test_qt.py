"""inkhit.qt against Qt's own pixels (PySide6, QT_QPA_PLATFORM=offscreen): text laid out by QTextLayout and drawn
by QTextLayout.draw into a QImage (antialiased) with TrueType, CFF and CJK fonts, synthetic bold, italic and
stretch, every hinting preference, pixel sizes below and above Qt's 64 px glyph cache, identity, 2x, rotated and
sheared painters; every run added with inkhit.qt.add_glyph_run, its source found through fontconfig. Every pixel
whose coverage is clear (<= 5 or >= 250) and whose centre lies at least 0.05 px from InkHit's outline must be
answered as Qt drew it: 0 disagreements. Then what the module reads (the engine's hint style, against the
preference the QFont was given), and what it refuses."""
from __future__ import annotations

import ctypes
import math
import os
import subprocess
import sys
from typing import Dict, Iterator, List, Tuple

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# PySide6 is in the test tools (requirements-dev.txt): a missing one fails here rather than skipping the oracle.
from PySide6 import QtCore, QtGui  # noqa: E402

import inkhit  # noqa: E402
import inkhit.qt  # noqa: E402

from PySide6.QtCore import QPointF, QRectF, QSizeF  # noqa: E402
from PySide6.QtGui import (QColor, QFont, QFontDatabase, QGlyphRun, QGuiApplication, QImage, QPainter,  # noqa: E402
                           QRawFont, QTextLayout, QTransform)

SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
CANTARELL = "/usr/share/fonts/opentype/cantarell/Cantarell-Regular.otf"
DROID = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"
INTER = "/usr/share/fonts/truetype/inter-vf/Inter.var.ttf"
TEXTS = {SANS: "Hamburg&@fiQ", CANTARELL: "Wave office", DROID: "永字八法 hxW"}
PREFERENCES = [QFont.HintingPreference.PreferDefaultHinting, QFont.HintingPreference.PreferNoHinting,
               QFont.HintingPreference.PreferVerticalHinting, QFont.HintingPreference.PreferFullHinting]
_C, _S = math.cos(0.349), math.sin(0.349)
PAINTERS = {"identity": QTransform(), "2x": QTransform(2, 0, 0, 2, 0, 0), "rotated": QTransform(_C, _S, -_S, _C, 30, 5),
            "sheared": QTransform(1, 0, 0.3, 1, 0, 0)}


# PySide6 6.12's bindings take one of None's references with every call of a method that returns nothing (on
# Python 3.11, whose None is not immortal): this module's own drawing makes thousands of such calls, so None is
# given references to spare (inkhit.qt gives back the ones it takes: test_inkhit_qt_takes_no_reference_of_none).
if sys.version_info < (3, 12):
    for _ in range(50_000):
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(None))


@pytest.fixture(scope="module")
def families() -> Dict[str, str]:
    app = QGuiApplication.instance() or QGuiApplication([])
    out = {path: QFontDatabase.applicationFontFamilies(QFontDatabase.addApplicationFont(path))[0] for path in TEXTS}
    out["app"] = app  # type: ignore[assignment]  (kept alive with the fixture)
    return out


_FC: Dict[str, List[Tuple[str, str, int]]] = {}
_OPENED: Dict[Tuple[str, int], inkhit.Font] = {}


def sources(raw: QRawFont) -> Iterator[inkhit.Font]:
    """The fonts fontconfig lists for the raw font's family, its own style first, each face also at its default
    coordinates (Qt may draw those for a named instance): the library refuses the ones Qt did not draw."""
    if not _FC:
        out = subprocess.run(["fc-list", "--format", "%{family[0]}|%{style[0]}|%{file}|%{index}\n"], capture_output=True,
                             text=True, check=True).stdout
        for line in out.splitlines():
            family, style, path, index = line.split("|")
            _FC.setdefault(family, []).append((style, path, int(index)))
    for style, path, index in sorted(_FC.get(raw.familyName(), []), key=lambda e: e[0] != raw.styleName()):
        for face in (index, index & 0xFFFF):
            if (path, face) not in _OPENED:
                _OPENED[(path, face)] = inkhit.Font(path, face=face)
            yield _OPENED[(path, face)]


def draw(layout: QTextLayout, transform: QTransform, position: Tuple[float, float]) -> np.ndarray:
    line = layout.lineAt(0)
    box = transform.mapRect(QRectF(QPointF(*position), QSizeF(line.naturalTextWidth() + 20, line.height() + 20)))
    w, h = int(math.ceil(box.right())) + 10, int(math.ceil(box.bottom())) + 10
    image = QImage(w, h, QImage.Format.Format_Grayscale8)
    image.fill(0)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QColor(255, 255, 255))
    painter.setTransform(transform)
    layout.draw(painter, QPointF(*position))
    painter.end()
    return np.frombuffer(bytes(image.constBits()), np.uint8).reshape(h, image.bytesPerLine())[:, :w].copy()


def laid_out(text: str, font: QFont) -> QTextLayout:
    layout = QTextLayout(text, font)
    layout.beginLayout()
    layout.createLine().setLineWidth(100000)
    layout.endLayout()
    return layout


def judge(image: np.ndarray, index: inkhit.Index) -> Tuple[int, int]:
    ys, xs = np.nonzero((image <= 5) | (image >= 250))
    r = index.hits(np.stack([xs + 0.5, ys + 0.5], axis=1), radius=0.05)
    judged = ~(r["hit"] & (~r["inside"] | (r["distance"] > -0.05)))
    wrong = judged & (r["hit"] != (image[ys, xs] >= 250))
    return int(judged.sum()), int(wrong.sum())


def add_layout(builder: inkhit.Builder, layout: QTextLayout, transform: QTransform, position: Tuple[float, float]) -> None:
    for run in layout.glyphRuns():
        refused = None
        for source in sources(run.rawFont()):
            try:
                inkhit.qt.add_glyph_run(builder, run, source=source, transform=transform, origin=position, layout_draw=True)
                break
            except inkhit.FontError as e:
                refused = e
        else:
            raise AssertionError("no source for %s %s: %s" % (run.rawFont().familyName(), run.rawFont().styleName(), refused))


CASES = [(path, size, h, painter, synth)
         for path in TEXTS for size in (11, 17, 30, 70) for h in range(4) for painter in PAINTERS for synth in range(4)
         if (list(TEXTS).index(path) + size + h + list(PAINTERS).index(painter) + synth) % 5 == 0]


def test_the_pixels_qt_draws(families: Dict[str, str]) -> None:
    judged = wrong = 0
    failures = []
    for path, size, h, painter, synth in CASES:
        font = QFont(families[path])
        font.setPixelSize(size)
        font.setHintingPreference(PREFERENCES[h])
        font.setBold(bool(synth & 1))
        font.setItalic(bool(synth & 2))
        if synth == 3:
            font.setStretch(125)
        layout = laid_out(TEXTS[path], font)
        position = (5.3, 7.77)
        image = draw(layout, PAINTERS[painter], position)
        builder = inkhit.Builder()
        add_layout(builder, layout, PAINTERS[painter], position)
        j, w = judge(image, builder.build())
        judged += j
        wrong += w
        if w:
            failures.append((os.path.basename(path), size, h, painter, synth, j, w))
    assert len(CASES) >= 60
    assert judged > 1_000_000
    assert wrong == 0, failures


def test_the_engine_hinting_is_found_by_drawing(families: Dict[str, str]) -> None:
    # The raw fonts of a QTextLayout's runs say PreferDefaultHinting whatever the QFont asked.
    fc = subprocess.run(["fc-match", "-f", "%{hintstyle}", "DejaVu Sans:pixelsize=16"], capture_output=True, text=True)
    default = {"0": "none", "1": "light", "2": "full", "3": "full", "": "full"}[fc.stdout.strip()]
    for preference, expected in zip(PREFERENCES, [default, "none", "light", "full"]):
        font = QFont(families[SANS])
        font.setPixelSize(16)
        font.setHintingPreference(preference)
        run = laid_out("Hamburg", font).glyphRuns()[0]
        assert run.rawFont().hintingPreference() == QFont.HintingPreference.PreferDefaultHinting
        assert inkhit.qt.engine_hinting(run.rawFont(), run.glyphIndexes()) == expected, preference
    # Glyphs without ink say nothing: "none" for an engine not seen hinted yet (another size is another engine),
    # the style found before for an engine already seen hinted (remembered).
    fresh = QRawFont(SANS, 29.5, QFont.HintingPreference.PreferFullHinting)   # a size no other test draws
    assert inkhit.qt.engine_hinting(fresh, fresh.glyphIndexesForString("  ")) == "none"
    raw = QRawFont(SANS, 16, QFont.HintingPreference.PreferFullHinting)
    assert inkhit.qt.engine_hinting(raw, raw.glyphIndexesForString("xo")) == "full"
    assert inkhit.qt.engine_hinting(raw, raw.glyphIndexesForString("  ")) == "full"


def test_a_source_qt_did_not_draw_is_refused(families: Dict[str, str]) -> None:
    font = QFont(families[SANS])
    font.setPixelSize(16)
    run = laid_out("Hamburg", font).glyphRuns()[0]
    builder = inkhit.Builder()
    with pytest.raises(inkhit.FontError, match="head table"):
        inkhit.qt.add_glyph_run(builder, run, source=inkhit.Font(CANTARELL))
    assert len(builder) == 0
    # QRawFont(path) of a variable font draws its first named instance (Thin), not the defaults Font(path) takes.
    raw = QRawFont(INTER, 20)
    glyphs = raw.glyphIndexesForString("Hamburg")
    run = QGlyphRun()
    run.setRawFont(raw)
    run.setGlyphIndexes(glyphs)
    run.setPositions([QPointF(10 + 14 * i, 30) for i in range(len(glyphs))])
    with pytest.raises(inkhit.FontError, match="another file, instance or weight"):
        inkhit.qt.add_glyph_run(builder, run, source=inkhit.Font(INTER))
    assert len(builder) == 0
    thin = inkhit.Font(INTER, instance=raw.styleName())
    added = inkhit.qt.add_glyph_run(builder, run, source=thin, tags=range(100, 100 + len(glyphs)))
    assert added == range(0, len(glyphs))
    index = builder.build()
    assert [index.tag(k) for k in added] == list(range(100, 100 + len(glyphs)))


def test_arguments(families: Dict[str, str]) -> None:
    font = QFont(families[SANS])
    font.setPixelSize(16)
    run = laid_out("Hamburg", font).glyphRuns()[0]
    source = inkhit.Font(SANS)
    builder = inkhit.Builder()
    # A QTransform and its 6-tuple are the same painter; default tags are the glyphs' places in the run.
    a = inkhit.qt.add_glyph_run(builder, run, source=source, transform=QTransform(1, 0, 0.2, 1, 3, 4))
    b = inkhit.qt.add_glyph_run(builder, run, source=source, transform=(1, 0, 0.2, 1, 3, 4))
    index = builder.build()
    assert [index.tag(k) for k in a] == list(range(len(a)))
    points = np.array([[x + 0.5, y + 0.5] for x in range(0, 90, 3) for y in range(0, 30, 2)])
    ra, rb = index.hits(points), index.hits(points)
    assert len(a) == len(b) == 7
    assert np.array_equal(ra["hit"], rb["hit"])
    with pytest.raises(inkhit.InvalidArgumentError):
        inkhit.qt.add_glyph_run(builder, run, source=source, tags=[1, 2])
    with pytest.raises(TypeError):
        inkhit.qt.add_glyph_run(builder, run, source=SANS)
    with pytest.raises(TypeError):
        inkhit.qt.add_glyph_run(builder, "not a run", source=source)
    with pytest.raises(inkhit.InvalidArgumentError):
        inkhit.qt.add_glyph_run(builder, run, source=source, transform=QTransform(1, 0, 0, 0, 1, 0, 0, 0, 2))
    with pytest.raises(inkhit.PlacementError):
        inkhit.qt.add_glyph_run(builder, run, source=source, transform=(0, 0, 0, 0, 0, 0))
    with pytest.raises(TypeError):
        inkhit.qt.add_glyph_run(builder, run, source=source, layout_draw=1)


def test_inkhit_qt_takes_no_reference_of_none(families: Dict[str, str]) -> None:
    # A CJK run at a whole pixel size: its advances cannot tell full hinting, so the module draws (void Qt calls).
    font = QFont(families[DROID])
    font.setPixelSize(20)
    font.setHintingPreference(QFont.HintingPreference.PreferFullHinting)
    run = laid_out("永字", font).glyphRuns()[0]
    assert inkhit.qt.engine_hinting(run.rawFont(), run.glyphIndexes()) == "full"
    source = inkhit.Font(DROID)
    builder = inkhit.Builder()
    before = sys.getrefcount(None)
    for _ in range(100):
        inkhit.qt.add_glyph_run(builder, run, source=source)
    assert sys.getrefcount(None) >= before - 10
