"""inkhit.skia as a user runs it: the wheel and skia-python 144.1 (the version of python/requirements-dev.txt)
installed with pip into a fresh venv, and Skia's pixels of random cases (fonts, weights, sizes, settings,
canvases: skia_check.random_case) against inkhit.skia.add_glyphs there — 0 wrong judged pixels."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from conftest import run
from glyph_jobs import REPO

HERE = os.path.dirname(os.path.abspath(__file__))


def _pinned(name: str) -> str:
    with open(os.path.join(REPO, "python", "requirements-dev.txt"), encoding="utf-8") as f:
        for line in f:
            if line.strip().lower().startswith(name + "=="):
                return line.strip()
    raise AssertionError("%s is not pinned in python/requirements-dev.txt" % name)


@pytest.fixture(scope="module")
def skia_venv(wheel: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    base = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
    venv = str(tmp_path_factory.mktemp("skia") / "venv")
    subprocess.run([base, "-m", "venv", venv], check=True)
    result = run([os.path.join(venv, "bin", "pip"), "install", "--quiet", "--disable-pip-version-check", wheel,
                  _pinned("skia-python")])
    assert result.returncode == 0, result.stderr
    return os.path.join(venv, "bin", "python")


def test_random_skia_cases_from_the_wheel_in_a_fresh_venv(skia_venv: str) -> None:
    # skia_check.py runs from the tests' folder (its own imports), not the repository's python/src.
    result = run([skia_venv, os.path.join(HERE, "skia_check.py"), "16", "7"], cwd=HERE)
    assert result.returncode == 0, result.stdout + result.stderr
    m = re.search(r"(\d+) cases: (\d+) judged pixels, (\d+) wrong", result.stdout)
    assert m, result.stdout
    cases, judged, wrong = map(int, m.groups())
    assert cases == 16 and judged > 200_000 and wrong == 0, result.stdout
    located = run([skia_venv, "-c", "import inkhit, os; print(os.path.dirname(inkhit.__file__))"], cwd=HERE).stdout.strip()
    assert located.startswith(os.path.dirname(os.path.dirname(skia_venv))), located
