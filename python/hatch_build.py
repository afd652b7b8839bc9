"""hatchling build hook: puts libInkHit (the C interface of InkHit, a Swift release build) into the wheel.

libInkHit is self-contained: install-c links the Swift runtime into it statically (its symbols hidden), so the
wheel carries no Swift runtime library; auditwheel (scripts/python-wheel.sh) then adds only FreeType, HarfBuzz,
FriBidi and their dependencies. The library is stripped (its debug information stays in
``PREFIX/lib/.debug``, not in the wheel).

The library comes from ``$INKHIT_LIB_DIR`` (a directory holding ``libInkHit.so.1``, as ``./inkhit install-c
PREFIX`` leaves it in ``PREFIX/lib``: `./inkhit wheel` sets it to the release build it just made), else this hook
runs ``scripts/install-c.sh`` of the repository around this folder into ``.build-python/prefix`` (a release
build: minutes the first time, seconds when nothing changed). The wheel is tagged ``py3-none-<platform>``: it has
no Python extension, only a shared library loaded with ctypes, so one wheel serves every Python 3 version.
"""
from __future__ import annotations

import os
import subprocess
import sysconfig

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class InkHitLibraryHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def _library_dir(self) -> str:
        given = os.environ.get("INKHIT_LIB_DIR")
        if given:
            return given
        repo = os.path.dirname(os.path.abspath(self.root))
        script = os.path.join(repo, "scripts", "install-c.sh")
        if not os.path.exists(script):
            raise RuntimeError("inkhit: set INKHIT_LIB_DIR to a directory with libInkHit.so.1 (no %s)" % script)
        prefix = os.path.join(repo, ".build-python", "prefix")
        subprocess.run([script, prefix], check=True)
        return os.path.join(prefix, "lib")

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel":
            return
        lib_dir = self._library_dir()
        library = os.path.realpath(os.path.join(lib_dir, "libInkHit.so.1"))
        if not os.path.isfile(library):
            raise RuntimeError("inkhit: %s is missing" % library)
        build_data["force_include"][library] = "inkhit/_lib/libInkHit.so.1"
        build_data["pure_python"] = False
        platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        build_data["tag"] = "py3-none-" + platform
