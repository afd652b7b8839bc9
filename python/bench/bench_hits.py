"""Index.hits against the C batch call on the page workload (Benchmarks/Sources/InkBenchSupport/Workload.swift:
the first 2,000 characters of the Alice text in DejaVu Sans 16 px, wrapped at 600 px, 200,000 points uniform over
the lines' box), measured in one run, in alternated rounds, medians of per-round ratios:

- ``C batch``: inkhit_index_hit_batch called directly (ctypes, one call, preallocated buffers: the library's batch
  call and nothing else);
- ``Index.hits``: the Python API as users call it (converts nothing, allocates the answers array);
- ``Index.hits(out=)``: the same into a preallocated array;
- ``C program`` (when a C compiler is found): the same page built by a C program against the same libInkHit,
  timing inkhit_index_hits in its own process (no Python at all).

Times are the calling thread's CPU time (time.thread_time, CLOCK_THREAD_CPUTIME_ID): on a shared machine a
descheduled process does not count against it.

    .build-python/venv/bin/python python/bench/bench_hits.py [--rounds 15] [--json]

Also reports the import time of `inkhit` and of numpy alone (fresh interpreters, medians of 5) and the
installed wheel's size.
"""
from __future__ import annotations

import argparse
import ctypes
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import inkhit
from inkhit import _native as N

HERE = os.path.dirname(os.path.abspath(__file__))
SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def alice(scalars: int) -> str:
    path = os.path.join(HERE, "..", "..", "Benchmarks", "Sources", "InkBenchSupport", "SampleText.swift")
    with open(path, encoding="utf-8") as f:
        source = f.read()
    body = source.split('public static let english = """', 1)[1].split('"""', 1)[0]
    text = "".join(line.strip().rstrip("\\") for line in body.strip().splitlines())
    unit = text + " "
    return (unit * (scalars // len(unit) + 1))[:scalars]


def page(points: int = 200_000, seed: int = 0x1AC4817):
    font = inkhit.Font(SANS)
    layout = inkhit.Layout(alice(2000), [font], size=16, width=600)
    g = layout.glyphs()
    builder = inkhit.Builder()
    builder.add_glyphs(font, g["glyph"], np.stack([g["x"], g["y"]], axis=1), 16)
    index = builder.build()
    x0, y0, x1, y1 = layout.bounds
    rng = np.random.default_rng(seed)
    pts = np.ascontiguousarray(np.stack([rng.uniform(x0, x1, points), rng.uniform(y0, y1, points)], axis=1))
    return font, g, index, pts


def c_program(g: np.ndarray, pts: np.ndarray, radius: float, rounds: int, work: str):
    cc = shutil.which("cc")
    if not cc:
        return None
    include = os.path.join(HERE, "..", "..", "Sources", "CInkHit", "include")
    src = os.path.join(HERE, "bench_hits.c")
    exe = os.path.join(work, "bench_hits")
    lib = os.path.realpath(N.library_path())
    if subprocess.run([cc, "-O2", "-std=c11", "-I", include, src, lib, "-Wl,-rpath," + os.path.dirname(lib), "-o", exe],
                      capture_output=True).returncode != 0:
        return None
    np.stack([g["glyph"].astype(np.float64), g["x"], g["y"]], axis=1).tofile(os.path.join(work, "glyphs.bin"))
    pts.tofile(os.path.join(work, "points.bin"))
    out = subprocess.run([exe, SANS, os.path.join(work, "glyphs.bin"), os.path.join(work, "points.bin"), str(radius),
                          str(rounds)], capture_output=True, text=True, check=True).stdout
    return float(out.split()[0])


def import_time(module: str) -> float:
    """Median of 5 fresh interpreters' time to import `module`, s."""
    times = []
    for _ in range(5):
        out = subprocess.run([sys.executable, "-c", "import time; t = time.perf_counter(); import %s; "
                              "print(time.perf_counter() - t)" % module], capture_output=True, text=True,
                             check=True).stdout
        times.append(float(out))
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    font, g, index, pts = page()
    n = pts.shape[0]
    out = np.empty(n, inkhit.HIT_DTYPE)
    raw = np.empty(n, inkhit.HIT_DTYPE)
    handle = index._handle
    report = {"glyphs": int(len(g)), "points": n, "python": sys.version.split()[0], "radii": {}}
    for radius in (0.0, 3.5):
        def c_batch() -> float:
            t = time.thread_time()
            N.lib.inkhit_index_hit_batch(handle, pts.ctypes.data, n, radius, 0, raw.ctypes.data, None)
            return time.thread_time() - t

        def api() -> float:
            t = time.thread_time()
            index.hits(pts, radius)
            return time.thread_time() - t

        def api_out() -> float:
            t = time.thread_time()
            index.hits(pts, radius, out=out)
            return time.thread_time() - t

        for f in (c_batch, api, api_out):
            f()                                            # warm
        rows = {"c_batch": [], "api": [], "api_out": []}
        for _ in range(args.rounds):
            for name, f in (("c_batch", c_batch), ("api", api), ("c_batch", c_batch), ("api_out", api_out)):
                rows[name].append(f() / n * 1e9)
        cb = rows["c_batch"]
        ratios = [a / ((cb[2 * i] + cb[2 * i + 1]) / 2) for i, a in enumerate(rows["api"])]
        ratios_out = [a / ((cb[2 * i] + cb[2 * i + 1]) / 2) for i, a in enumerate(rows["api_out"])]
        assert np.array_equal(index.hits(pts, radius)["placement"], raw["placement"])
        with tempfile.TemporaryDirectory() as work:
            c_ns = c_program(g, pts, radius, args.rounds, work)
        report["radii"][str(radius)] = {
            "c_batch_ns": statistics.median(cb), "index_hits_ns": statistics.median(rows["api"]),
            "index_hits_out_ns": statistics.median(rows["api_out"]), "ratio": statistics.median(ratios),
            "ratio_out": statistics.median(ratios_out), "c_program_ns": c_ns,
            "hit_fraction": float(raw["hit"].mean())}
    report["import_seconds"] = import_time("inkhit")
    report["numpy_import_seconds"] = import_time("numpy")
    site = os.path.dirname(os.path.dirname(inkhit.__file__))
    report["installed_bytes"] = sum(os.path.getsize(p) for d in ("inkhit", "inkhit.libs")
                                    for p in glob.glob(os.path.join(site, d, "**", "*"), recursive=True)
                                    if os.path.isfile(p))
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print("page: %d glyphs, %d points, Python %s" % (report["glyphs"], n, report["python"]))
    for r, v in report["radii"].items():
        print("r = %s: C batch %.1f ns/point, Index.hits %.1f (x%.3f), Index.hits(out=) %.1f (x%.3f), C program %s, "
              "%.0f%% hits" % (r, v["c_batch_ns"], v["index_hits_ns"], v["ratio"], v["index_hits_out_ns"],
                               v["ratio_out"], "%.1f ns" % v["c_program_ns"] if v["c_program_ns"] else "-",
                               100 * v["hit_fraction"]))
    print("import inkhit: %.0f ms (numpy alone: %.0f ms); installed: %.1f MB" % (
        report["import_seconds"] * 1e3, report["numpy_import_seconds"] * 1e3, report["installed_bytes"] / 1e6))


if __name__ == "__main__":
    main()
