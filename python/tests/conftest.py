"""pytest setup: the tests import the installed `inkhit` (the wheel, as users get it: scripts/python-test.sh
installs dist/inkhit-*.whl into the test venv), and find the repository's fixtures and the `ink-hit` binary."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from glyph_jobs import REPO  # noqa: E402


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--ink-hit", default=os.environ.get("INKHIT_INK_HIT"),
                     help="the ink-hit binary to compare with (default: the debug build in .build)")
    parser.addoption("--wheel", default=os.environ.get("INKHIT_WHEEL"), help="the wheel file to test in a fresh venv")


@pytest.fixture(scope="session")
def ink_hit(request: pytest.FixtureRequest) -> str:
    path = request.config.getoption("--ink-hit")
    if not path:
        for config in ("debug", "release"):
            candidate = os.path.join(REPO, ".build", config, "ink-hit")
            if os.path.exists(candidate):
                path = candidate
                break
    if not path or not os.path.exists(path):
        pytest.fail("no ink-hit binary: build it (swift build --product ink-hit) or pass --ink-hit PATH")
    return path


@pytest.fixture(scope="session")
def wheel(request: pytest.FixtureRequest) -> str:
    path = request.config.getoption("--wheel")
    if not path:
        dist = os.path.join(REPO, "dist")
        found = sorted(f for f in os.listdir(dist) if f.startswith("inkhit-") and f.endswith(".whl")) \
            if os.path.isdir(dist) else []
        path = os.path.join(dist, found[-1]) if found else None
    if not path or not os.path.exists(path):
        pytest.fail("no wheel: run ./inkhit wheel (or pass --wheel PATH)")
    return path


@pytest.fixture(autouse=True)
def _repository_cwd(monkeypatch: pytest.MonkeyPatch) -> None:
    # Job files name some fonts relative to the repository root, as ink-hit reads them from there.
    monkeypatch.chdir(REPO)


def run(cmd, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def which(name: str) -> str:
    return shutil.which(name) or ""


@pytest.fixture(scope="session")
def gi_python(wheel: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A Python with the system's PyGObject (python3-gi: Pango, GTK 4) and the wheel: a venv made with
    --system-site-packages from /usr/bin/python3 (test_pango.py, test_gtk.py)."""
    if run(["/usr/bin/python3", "-c", "import gi; gi.require_version('PangoCairo', '1.0')"]).returncode != 0:
        pytest.fail("no PyGObject with PangoCairo for /usr/bin/python3 (./inkhit deps installs python3-gi and "
                    "gir1.2-pango-1.0)")
    venv = str(tmp_path_factory.mktemp("gi") / "venv")
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", venv], check=True)
    result = run([os.path.join(venv, "bin", "pip"), "install", "--quiet", "--disable-pip-version-check", wheel])
    assert result.returncode == 0, result.stderr
    return os.path.join(venv, "bin", "python")
