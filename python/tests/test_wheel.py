"""The wheel as a user gets it: installed with pip into a fresh venv (only the wheel and its numpy dependency),
run with the Swift toolchain hidden — a mount namespace (`unshare -m`) with a tmpfs over the toolchain — and the
system's FreeType, HarfBuzz, FriBidi, GLib and PCRE2 hidden too (an empty file bind-mounted over each). Inside, the
curve-exact fixtures are built with Builder.add_glyph and answered with Index.hits: 0 wrong answers beyond
0.05 px, and every one of those libraries is the wheel's own copy (/proc/self/maps), while no Swift runtime library
is loaded at all: the runtime is inside libInkHit (scripts/install-c.sh), and the wheel ships no libswift*,
libdispatch or libBlocksRuntime."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

from conftest import run

HERE = os.path.dirname(os.path.abspath(__file__))


def _toolchain_root() -> str:
    swift = shutil.which("swift")
    if not swift:
        return ""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(swift))))   # .../usr/bin/swift
    return root if root not in ("/", "/usr") else os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(swift))),
                                                               "lib", "swift")


def _system_library(soname: str) -> str:
    out = run(["/sbin/ldconfig", "-p"]).stdout
    for line in out.splitlines():
        if line.strip().startswith(soname + " ") and "x86-64" in line or line.strip().startswith(soname + " (libc6)"):
            return os.path.realpath(line.split("=>")[-1].strip())
    return ""


@pytest.fixture(scope="module")
def fresh_venv(wheel: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    base = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
    venv = str(tmp_path_factory.mktemp("fresh") / "venv")
    subprocess.run([base, "-m", "venv", venv], check=True)
    result = run([os.path.join(venv, "bin", "pip"), "install", "--quiet", "--disable-pip-version-check", wheel])
    assert result.returncode == 0, result.stderr
    return os.path.join(venv, "bin", "python")


def test_the_wheel_answers_curve_exact_without_swift_or_system_libraries(fresh_venv: str, tmp_path) -> None:
    if os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.fail("this test hides the toolchain in a mount namespace: it needs root and unshare (util-linux)")
    toolchain = _toolchain_root()
    assert toolchain and os.path.isdir(toolchain), "no Swift toolchain found to hide"
    # PCRE2 last: `mount` itself needs it (through libselinux).
    wanted = ("libfreetype.so.6", "libharfbuzz.so.0", "libfribidi.so.0", "libglib-2.0.so.0", "libpcre2-8.so.0")
    hidden = [p for p in (_system_library(s) for s in wanted) if p]
    assert len(hidden) == len(wanted), hidden
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    script = ["set -e", "mount -t tmpfs tmpfs %s" % toolchain]
    script += ["mount --bind %s %s" % (empty, lib) for lib in hidden]
    script += ["! command -v swift >/dev/null 2>&1 || ! swift --version >/dev/null 2>&1",
               "cd %s" % os.path.dirname(os.path.dirname(HERE)),
               "PYTHONPATH=%s exec %s %s/wheel_check.py" % (HERE, fresh_venv, HERE)]
    result = run(["unshare", "-m", "sh", "-c", "\n".join(script)], env={"PATH": "/usr/bin:/bin:/usr/sbin:/sbin",
                                                                         "HOME": os.environ.get("HOME", "/root")})
    assert result.returncode == 0, result.stdout + result.stderr
    summary = json.loads(result.stdout.splitlines()[-1])
    print(json.dumps({k: v for k, v in summary.items() if k != "sets"}, indent=1))
    for name, s in summary["sets"].items():
        assert s["wrong"] == 0, (name, s["examples"])
        assert s["checked"] > 500, name
    assert sum(s["checked"] for s in summary["sets"].values()) > 29000      # 29,911 points in 5 sets
    venv_root = os.path.dirname(os.path.dirname(fresh_venv))
    swift_runtime = ("libswift", "libdispatch", "libBlocksRuntime")
    for key, paths in summary["loaded"].items():
        if key in swift_runtime:
            assert paths == [], (key, paths)
        else:
            assert len(paths) == 1 and paths[0].startswith(venv_root), (key, paths)


def test_the_wheel_ships_no_swift_runtime_library(wheel: str) -> None:
    with zipfile.ZipFile(wheel) as z:
        names = [os.path.basename(n) for n in z.namelist()]
    assert "libInkHit.so.1" in names
    assert not [n for n in names if n.startswith(("libswift", "libdispatch", "libBlocksRuntime"))], names
