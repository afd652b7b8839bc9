"""Styled text through inkhit.Layout (runs: fonts, size, underline, strikethrough, overline, baseline shift,
letter spacing; line height, paragraph spacing, first-line indent; links hit through underlines), against the
styled curve-exact fixtures (Tests/InkJobsTests/Fixtures/styled-*.jsonl: an independent Python layout and
reference): every point at least 0.05 px from a boundary gets the reference's hit, glyph, decoration, character,
line and link."""
from __future__ import annotations

import json
import os

import pytest

import inkhit
from inkhit import _native as N
from glyph_jobs import FIXTURES, read_jsonl



def str_index(text: str, unit: int) -> int:
    """The index of the Python string at UTF-16 offset `unit`."""
    n = 0
    for i, ch in enumerate(text):
        if n >= unit:
            return i
        n += 2 if ord(ch) > 0xFFFF else 1
    return len(text)


def layout_of(job: dict, fonts: dict) -> inkhit.Layout:
    text = job["text"]
    chain = []
    for entry in job["fonts"]:
        key = (entry["path"], entry.get("index", 0))
        fonts.setdefault(key, inkhit.Font(entry["path"], face=entry.get("index", 0)))
        chain.append(fonts[key])
    s = lambda u: str_index(text, u)  # noqa: E731
    runs = [inkhit.TextRun(s(r["start"]), s(r["end"]), fonts=r.get("fonts"), size=r.get("size"),
                           underline=r.get("underline"), strikethrough=r.get("strikethrough"),
                           overline=r.get("overline"), baseline_shift=r.get("baselineShift"),
                           letter_spacing=r.get("letterSpacing")) for r in job.get("runs", [])]
    return inkhit.Layout(text, chain, size=job.get("size", 16), width=job.get("width"),
                         origin=tuple(job.get("origin", (0, 0))), transform=job.get("transform"),
                         links=[(s(l["start"]), s(l["end"])) for l in job.get("links", [])], runs=runs,
                         line_height=job.get("lineHeight"), paragraph_spacing=job.get("paragraphSpacing", 0),
                         first_line_indent=job.get("firstLineIndent", 0))


def test_styled_fixtures_through_layout() -> None:
    jobs = {j["id"]: j for j in read_jsonl(os.path.join(FIXTURES, "styled-jobs.jsonl"))}
    fonts: dict = {}
    layouts = {k: layout_of(j, fonts) for k, j in jobs.items()}
    checked = wrong = decorations = link_hits = 0
    examples = []
    for e in read_jsonl(os.path.join(FIXTURES, "styled-expected.jsonl")):
        if e["boundary_margin"] < 0.05:
            continue
        job = jobs[e["job"]]
        h = layouts[e["job"]].hit(*job["points"][e["i"]], job.get("radius", 0))
        tags = [l.get("tag") for l in job.get("links", [])]
        got = (h is not None, None if h is None else h.placement, None if h is None else h.decoration,
               None if h is None else list(h.utf16), None if h is None else h.line,
               None if h is None or h.link is None else tags[h.link])
        want = (e["hit"], e["glyph"], e.get("decoration"), e.get("utf16") if e["hit"] else None,
                e.get("line") if e["hit"] else None, e.get("link"))
        checked += 1
        decorations += e.get("decoration") is not None
        link_hits += e.get("link") is not None
        if got != want:
            wrong += 1
            examples.append("%s %d: got %s, want %s" % (e["job"], e["i"], got, want))
    assert checked > 1000 and decorations > 50 and link_hits > 20
    assert wrong == 0, "\n".join(examples[:10])


def test_decorations_are_listed() -> None:
    font = inkhit.Font("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    layout = inkhit.Layout("Tap the link here", [font], size=16, links=[(8, 12)],
                           runs=[inkhit.TextRun(8, 12, underline="double"), inkhit.TextRun(0, 3, strikethrough=True)])
    kinds = sorted((d.kind, d.start, d.end) for d in layout.decorations())
    assert kinds == [("strikethrough", 0, 3), ("underline", 8, 12), ("underline", 8, 12)]
    under = [d for d in layout.decorations() if d.kind == "underline"][0]
    x, y, w, h = under.rect
    hit = layout.hit(x + w / 2, y + h / 2)
    assert hit is not None and hit.decoration == "underline" and hit.link == 0 and hit.placement is None
