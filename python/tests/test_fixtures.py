"""The curve-exact fixtures (Tests/InkJobsTests/Fixtures: 84 glyph jobs, 41,000 points, answers from an
independent Python reference over the exact curves) through the Python API: Font (variations, named instances),
GlyphStyle (synthetic bold, oblique, hinting), Builder.add_glyph, Index.hits.

- The answers written as `ink-hit query` writes them equal `ink-hit query`'s output byte for byte (the binary,
  run as a process), and `inkhit.run_jobs` gives the same bytes.
- Every point at least 0.05 px from a boundary gets the reference's hit and glyph (0 wrong).
"""
from __future__ import annotations

import os

import pytest

import inkhit
from conftest import run
from glyph_jobs import FIXTURE_SETS, FIXTURES, answer, answer_lines, curve_exact_mismatches, read_jsonl

_FONTS: dict = {}


def _jobs(name: str):
    return read_jsonl(os.path.join(FIXTURES, name + "-jobs.jsonl"))


@pytest.mark.parametrize("name", FIXTURE_SETS)
def test_python_api_equals_ink_hit_byte_for_byte(name: str, ink_hit: str) -> None:
    path = os.path.join(FIXTURES, name + "-jobs.jsonl")
    result = run([ink_hit, "query", path])
    assert result.returncode == 0, result.stderr
    expected = result.stdout.splitlines()
    ours = []
    for job in _jobs(name):
        index, answers = answer(job, _FONTS)
        ours += answer_lines(job, index, answers)
    assert len(ours) == len(expected)
    differing = [(a, b) for a, b in zip(ours, expected) if a != b]
    assert not differing, "%d of %d lines differ, first: %s" % (len(differing), len(ours), differing[:3])
    # The job runner inside libInkHit answers the same file with the same bytes, and warns what ink-hit writes to
    # standard error (the fixtures' "note" members).
    warned: list = []
    with open(path, encoding="utf-8") as f:
        assert list(inkhit.run_jobs(f, raw=True, warn=warned)) == expected
    assert ["ink-hit: " + w for w in warned] == result.stderr.splitlines()


@pytest.mark.parametrize("name", FIXTURE_SETS)
def test_curve_exact_answers_beyond_the_margin(name: str) -> None:
    jobs = _jobs(name)
    answers = {job["id"]: answer(job, _FONTS)[1] for job in jobs}
    checked, wrong, examples = curve_exact_mismatches(jobs, read_jsonl(os.path.join(FIXTURES, name + "-expected.jsonl")),
                                                      answers)
    assert checked > 700 if name != "example" else checked > 500
    assert wrong == 0, "\n".join(examples)
