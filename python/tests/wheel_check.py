"""Run inside a fresh venv that has only the wheel (and numpy) installed, with the Swift toolchain and the system's
FreeType, HarfBuzz and FriBidi hidden (test_wheel.py): answers the curve-exact fixtures with Builder.add_glyph and
Index.hits and prints a JSON summary — points checked and wrong beyond 0.05 px, where each library was loaded
from, the import time."""
from __future__ import annotations

import json
import os
import sys
import time

start = time.perf_counter()
import inkhit  # noqa: E402
import_seconds = time.perf_counter() - start

from glyph_jobs import FIXTURE_SETS, FIXTURES, answer, curve_exact_mismatches, read_jsonl  # noqa: E402


def main() -> int:
    summary = {"import_seconds": import_seconds, "library_version": inkhit.library_version,
               "inkhit_file": inkhit.__file__, "sets": {}}
    fonts: dict = {}
    for name in sys.argv[1:] or FIXTURE_SETS:
        jobs = read_jsonl(os.path.join(FIXTURES, name + "-jobs.jsonl"))
        answers = {job["id"]: answer(job, fonts)[1] for job in jobs}
        checked, wrong, examples = curve_exact_mismatches(
            jobs, read_jsonl(os.path.join(FIXTURES, name + "-expected.jsonl")), answers)
        summary["sets"][name] = {"jobs": len(jobs), "checked": checked, "wrong": wrong, "examples": examples}
    with open("/proc/self/maps") as f:
        paths = sorted({line.split()[-1] for line in f if ".so" in line})
    summary["loaded"] = {key: [p for p in paths if key in os.path.basename(p)]
                         for key in ("libswift", "libdispatch", "libBlocksRuntime", "libfreetype", "libharfbuzz",
                                     "libfribidi", "libglib-2", "libpcre2-8", "libInkHit")}
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
