"""Glyph jobs (the `ink-hit query` format) answered through the Python API — Font, GlyphStyle, Builder.add_glyph,
Index.hits — and written as `ink-hit query` writes its answer lines, so the two can be compared byte for byte.
Also the curve-exact check of the fixtures' expected answers. Used by the tests and by the wheel check that runs
in a fresh venv (so: the standard library, numpy and inkhit only)."""
from __future__ import annotations

import json
import math
import os
from typing import Any, Dict, Iterable, List, Optional, Tuple

import numpy as np

import inkhit

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(REPO, "Tests", "InkJobsTests", "Fixtures")
FIXTURE_SETS = ["example", "heldout", "stress", "cff", "fidelity"]


def read_jsonl(path: str) -> List[Dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _style_fields(obj: Dict[str, Any], base: Dict[str, Any]) -> Dict[str, Any]:
    out = dict(base)
    for key in ("embolden", "oblique", "hinting", "alphaThreshold"):
        if key in obj:
            out[key] = obj[key]
    return out


def _style(fields: Dict[str, Any]) -> Optional[inkhit.GlyphStyle]:
    embolden = fields.get("embolden")
    if isinstance(embolden, list):
        embolden = tuple(embolden)
    style = inkhit.GlyphStyle(embolden=embolden, oblique=fields.get("oblique", 0.0),
                              hinting=fields.get("hinting", "none"), alpha_threshold=fields.get("alphaThreshold", 0.5))
    return None if style == inkhit.GlyphStyle() else style


def build_index(job: Dict[str, Any], cache: Optional[Dict[Any, inkhit.Font]] = None) -> Tuple[inkhit.Index, float]:
    """The job's glyphs through `Builder.add_glyph`, in order (placement = the job's glyph index)."""
    cache = {} if cache is None else cache
    job_style = _style_fields(job, {})
    fonts, styles = [], []
    for entry in job["fonts"]:
        variations = entry.get("variations")
        key = (entry["path"], entry.get("index", 0), json.dumps(variations, sort_keys=True), json.dumps(entry.get("instance")))
        if key not in cache:
            cache[key] = inkhit.Font(os.path.join(REPO, entry["path"]), face=entry.get("index", 0),
                                     variations=variations, instance=entry.get("instance"))
        fonts.append(cache[key])
        styles.append(_style_fields(entry, job_style))
    builder = inkhit.Builder()
    transform = job.get("transform")
    for k, g in enumerate(job["glyphs"]):
        f = g.get("font", 0)
        placement = builder.add_glyph(fonts[f], g["id"], g.get("size", job.get("size")), origin=(g["x"], g["y"]),
                                      transform=transform, style=_style(_style_fields(g, styles[f])))
        assert placement == k
    return builder.build(), float(job.get("radius", 0.0))


def answer(job: Dict[str, Any], cache: Optional[Dict[Any, inkhit.Font]] = None) -> Tuple[inkhit.Index, np.ndarray]:
    index, radius = build_index(job, cache)
    return index, index.hits(np.array(job["points"], dtype=np.float64).reshape(-1, 2), radius)


def decimal(v: float, digits: int = 4) -> str:
    """InkGeometry's DecimalText.string(v, maxFractionDigits: digits): what ink-hit writes distances with."""
    if not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    a = abs(v)
    scale = 10.0 ** digits
    x = a * scale
    n = math.floor(x)
    if x - n >= 0.5:           # Swift's rounded(): to nearest, ties away from zero
        n += 1
    n = int(n)
    if n == 0:
        return "0"
    frac_digits = digits
    while frac_digits > 0 and n % 10 == 0:
        n //= 10
        frac_digits -= 1
    p10 = 10 ** frac_digits
    text = str(n // p10)
    if frac_digits:
        text += "." + str(n % p10).rjust(frac_digits, "0")
    return ("-" if v < 0 else "") + text


_INK_FIELD = {"colorLayers": ',"ink":"colorLayers"', "colorPaint": ',"ink":"colorPaint"', "bitmap": ',"ink":"bitmap"',
              "box": ',"ink":"box"'}


def answer_lines(job: Dict[str, Any], index: inkhit.Index, answers: np.ndarray) -> List[str]:
    """The answers as `ink-hit query` writes them for a glyph job."""
    prefix = '{"job":' + json.dumps(job["id"], ensure_ascii=False, separators=(",", ":")) + ',"i":'
    inks: Dict[int, str] = {}
    lines = []
    for i, (hit, placement, inside, distance) in enumerate(zip(answers["hit"].tolist(), answers["placement"].tolist(),
                                                               answers["inside"].tolist(), answers["distance"].tolist())):
        if not hit:
            lines.append(prefix + str(i) + ',"hit":false,"glyph":null,"placement":null,"inside":false,"distance":null}')
            continue
        if placement not in inks:
            inks[placement] = _INK_FIELD.get(index.ink(placement), "")
        lines.append(prefix + str(i) + ',"hit":true,"glyph":' + str(placement) + ',"placement":' + str(placement)
                     + inks[placement] + ',"inside":' + ("true" if inside else "false") + ',"distance":' + decimal(distance) + "}")
    return lines


def curve_exact_mismatches(jobs: Iterable[Dict[str, Any]], expected: List[Dict[str, Any]],
                           answers: Dict[str, np.ndarray], margin: float = 0.05) -> Tuple[int, int, List[str]]:
    """Points whose boundary margin is at least `margin` px and whose hit or glyph differs from the curve-exact
    reference: (checked, wrong, examples)."""
    checked, wrong, examples = 0, 0, []
    for e in expected:
        if e.get("boundary_margin", 0.0) < margin:
            continue
        a = answers[e["job"]][e["i"]]
        checked += 1
        glyph = int(a["placement"]) if a["hit"] else None
        if bool(a["hit"]) != e["hit"] or glyph != e["glyph"]:
            wrong += 1
            if len(examples) < 10:
                examples.append("%s point %d: got hit %s glyph %s, expected %s %s (margin %.4f)" % (
                    e["job"], e["i"], bool(a["hit"]), glyph, e["hit"], e["glyph"], e["boundary_margin"]))
    return checked, wrong, examples
