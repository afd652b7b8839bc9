"""The Python rows of the robustness round four (issue 28) and the thin binding of inkhit.h 1.2 (issue 29).

Each hostile case runs in a child process under an address-space cap and a timeout, so a segfault, an abort, a
hang or an allocation past the cap fails its test instead of taking the suite down; where time is the contract,
the child's own CPU time is read from its rusage after it exits, with the slack stated.

- row 3: a scene mask is given with its byte length (the library refuses a short or long one; Python computes
  nothing): ``Node(mask=(4096, 4096, b"\\xff", 0))`` segfaulted, ``(64, 64, b"\\x00", 0)`` read heap memory;
- row 4: the in-process runner takes ink-hit's limits and strict mode, hands its warnings to the caller, and
  obeys the library's per-call limits;
- row 5: ``Font(path, instance="Bold")`` on a FIFO, /dev/zero or a directory answers at once with the library's
  FileError (Python opened the file itself and hung, read 2 GB, or raised IsADirectoryError);
- row 8: inkhit_layout_options of a size the library does not know is refused;
- row 9: strict conversion: a bool is not a number, an integer must fit its C field, a float is not an integer,
  point arrays are (N, 2).
"""
from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import pytest

import inkhit
from inkhit import _native as N
from glyph_jobs import REPO

SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
INTER = "/usr/share/fonts/truetype/inter-vf/Inter.var.ttf"
#: The address-space cap of the children: the interpreter, numpy and the library map ~0.2 GB.
CAP_BYTES = 1_500_000_000


def run_child(code: str, seconds: float = 60, cap: int = CAP_BYTES) -> dict:
    """Runs `code` in a child Python (this interpreter, this ``inkhit``) under an address-space cap (prlimit, which
    execs the interpreter in its own process) and a timeout; returns its status, output, wall seconds and CPU
    seconds (user + system, from the rusage os.wait4 gives for it after it exits)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(os.path.dirname(inkhit.__file__)),
                                         os.path.dirname(os.path.abspath(__file__)), env.get("PYTHONPATH", "")])
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        child = subprocess.Popen(["prlimit", "--as=%d" % cap, sys.executable, "-c", code], stdout=out, stderr=err,
                                 env=env, cwd=REPO)
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - start > seconds:
                child.kill()
                os.wait4(child.pid, 0)
                child.returncode = -9
                pytest.fail("the child did not end within %s s (a hang)" % seconds)
            time.sleep(0.01)
        child.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        return {"status": child.returncode, "out": out.read().decode(), "err": err.read().decode(), "wall": wall,
                "cpu": usage.ru_utime + usage.ru_stime}


def answers(result: dict) -> dict:
    assert result["status"] == 0, "the child ended with %s: %s" % (result["status"], result["err"][-3000:])
    return json.loads(result["out"].splitlines()[-1])


# --- row 3: masks ------------------------------------------------------------------------------------------

MASK_CHILD = """
import json, inkhit
scene = inkhit.Scene(inkhit.Node(1, bounds=(0, 0, 100, 100)))
out = {}
for name, mask in [("4096x4096 from one byte", (4096, 4096, b"\\xff", 0)), ("64x64 from one byte", (64, 64, b"\\x00", 0)),
                   ("2x2 from five bytes", (2, 2, b"\\xff" * 5, 0)), ("width 2**32 + 1", (2**32 + 1, 1, b"\\xff", 0))]:
    try:
        scene.add(1, inkhit.Node(2, bounds=(0, 0, 50, 50), shape="mask", mask=mask))
        out[name] = "added"
    except inkhit.Error as e:
        out[name] = [type(e).__name__, str(e)]
scene.add(1, inkhit.Node(3, bounds=(0, 0, 50, 50), shape="mask", mask=(2, 1, bytes([255, 0]), 0)))
snap = scene.snapshot()
out["opaque"] = snap.hit(10, 25).node
out["transparent"] = snap.hit(40, 25).node
print(json.dumps(out))
"""


def test_a_mask_is_given_with_its_length_and_a_short_one_is_refused() -> None:
    out = answers(run_child(MASK_CHILD))
    kind, message = out["4096x4096 from one byte"]
    assert kind == "InvalidArgumentError" and "mask_length is 1" in message and "inkhit_scene_add_shaped" in message
    kind, message = out["64x64 from one byte"]
    assert kind == "InvalidArgumentError" and "64 x 64 pixels has 4096 bytes" in message
    assert out["2x2 from five bytes"][0] == "InvalidArgumentError" and "mask_length is 5" in out["2x2 from five bytes"][1]
    kind, message = out["width 2**32 + 1"]
    assert kind == "InvalidArgumentError" and "uint32_t" in message          # never truncated to 1
    assert out["opaque"] == 3 and out["transparent"] == 1


# --- row 5: fonts the library refuses before Python touches them ----------------------------------------------

FONT_CHILD = """
import json, os, resource, tempfile, inkhit
d = tempfile.mkdtemp()
fifo = os.path.join(d, "font.fifo")
os.mkfifo(fifo)
out = {}
for name, path in [("fifo", fifo), ("/dev/zero", "/dev/zero"), ("directory", d)]:
    for instance in ("Bold", 3):
        try:
            inkhit.Font(path, instance=instance)
            out[name + str(instance)] = "loaded"
        except inkhit.Error as e:
            out[name + str(instance)] = [type(e).__name__, str(e)]
        except Exception as e:
            out[name + str(instance)] = ["other", type(e).__name__, str(e)]
out["max_rss_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps(out))
"""


def test_font_instances_never_make_python_open_the_file() -> None:
    result = run_child(FONT_CHILD, seconds=30)
    out = answers(result)
    for name in ("fifo", "/dev/zero", "directory"):
        for instance in ("Bold", "3"):
            kind, message = out[name + instance][:2]
            assert kind == "FileError" and message.startswith("inkhit_font_from_path: not a regular file"), out
    # At once: no read of /dev/zero (it would fill memory), no wait on the FIFO. The child's whole run, interpreter
    # and numpy start included (~0.3 s of CPU), stays under 3 s of CPU (and 30 s of wall time on a loaded
    # machine), its memory near the interpreter's (a read of /dev/zero would stop at the cap instead).
    assert result["cpu"] < 3 and result["wall"] < 30 and out["max_rss_kb"] < 400_000, (result, out["max_rss_kb"])


def test_the_library_resolves_instance_names(tmp_path) -> None:
    # Names come from the font through FreeType; the package has no font parser left.
    package = os.path.dirname(inkhit.__file__)
    assert not os.path.exists(os.path.join(package, "_opentype.py"))
    bold = inkhit.Font(INTER, instance="BOLD")
    assert bold.variations["wght"] == 700
    assert inkhit.Font(INTER, instance=bold.instances.index("Bold")).variations == bold.variations
    with pytest.raises(inkhit.FontError, match="inkhit_font_with_instance"):
        inkhit.Font(INTER, instance=len(bold.instances))
    with pytest.raises(inkhit.FontError, match="inkhit_font_find_instance: the font has no named instance"):
        inkhit.Font(SANS, instance="Bold")
    with pytest.raises(inkhit.FontError, match="inkhit_font_from_bytes"):
        inkhit.Font(b"\x00" * 64, instance="Bold")


# --- row 4: the in-process runner ------------------------------------------------------------------------------

def _job(id_: str, points: str, extra: str = "") -> str:
    return ('{"id":"%s","fonts":[{"path":"%s"}],"size":40,"glyphs":[{"font":0,"id":36,"x":0,"y":40}]%s,"points":%s}'
            % (id_, SANS, extra, points))


def test_the_runner_reports_misspelled_members_and_has_a_strict_mode() -> None:
    typo = _job("typo", "[[5,5],[12,30]]", ',"radious":3')
    warned: list = []
    lines = list(inkhit.run_jobs(typo, warn=warned))
    assert len(lines) == 2 and all("error" not in line for line in lines)
    assert len(warned) == 1 and "radious" in warned[0] and "typo" in warned[0]
    with pytest.warns(inkhit.JobWarning, match="radious"):
        assert len(list(inkhit.run_jobs(typo))) == 2
    seen: list = []
    list(inkhit.run_jobs(typo, warn=seen.append))
    assert seen == warned
    strict = list(inkhit.run_jobs([typo, _job("fine", "[[5,5]]")], strict=True, warn=warned))
    assert "radious" in strict[0]["error"] and strict[1]["job"] == "fine" and len(warned) == 1


def test_the_runner_takes_ink_hits_limits(ink_hit: str) -> None:
    jobs = [_job("two", "[[5,5],[12,30]]"), _job("one", "[[5,5]]")]
    ours = list(inkhit.run_jobs(jobs, raw=True, max_points=1))
    cli = subprocess.run([ink_hit, "query", "--max-points", "1"], input="\n".join(jobs) + "\n", capture_output=True,
                         text=True, cwd=REPO)
    assert ours == cli.stdout.splitlines() and "error" in ours[0] and "error" not in ours[1]
    with pytest.raises(inkhit.InvalidArgumentError, match="max_points must be at most"):
        inkhit.JobRunner(max_points=10**9)
    with pytest.raises(inkhit.InvalidArgumentError, match="no limit 'max_poinst'"):
        inkhit.JobRunner(max_poinst=1)
    with pytest.raises(inkhit.InvalidArgumentError, match="bool"):
        inkhit.JobRunner(max_points=True)


SLOW_RUNNER_CHILD = """
import json, time, inkhit
from inkhit import _native as N
SANS = %r
slow = ('{"id":"slow","fonts":[{"path":"%%s"}],"size":40,"glyphs":[{"font":0,"id":36,"x":0,"y":40}],"points":['
        %% SANS) + ",".join(["[5,5]"] * 3000000) + "]}"
quick = '{"id":"quick","fonts":[{"path":"%%s"}],"size":40,"glyphs":[{"font":0,"id":36,"x":0,"y":40}],"points":[[5,5]]}' %% SANS
out = {}
text = slow + "\\n" + quick
if %r == "job":
    runner = inkhit.JobRunner(max_seconds_per_job=0.5)
    cpu, wall = time.process_time(), time.monotonic()
    lines = runner.run(text)
    out["last_two"] = lines[-2:]
    out["jobs"], out["failed"] = runner.jobs, runner.failed
else:
    N.lib.inkhit_limits_set(N.Limits(0.5, 0))
    runner = inkhit.JobRunner()
    cpu, wall = time.process_time(), time.monotonic()
    try:
        runner.run(text)
        out["raised"] = None
    except inkhit.Error as e:
        out["raised"] = [type(e).__name__, str(e)]
    out["jobs"], out["failed"] = runner.jobs, runner.failed
out["cpu"], out["wall"] = time.process_time() - cpu, time.monotonic() - wall
print(json.dumps(out))
"""


@pytest.mark.parametrize("which", ["job", "call"])
def test_a_slow_job_stops_at_its_time_limit(which: str) -> None:
    # 3,000,000 points take seconds without a limit (a job ink-hit stops at 1.2 s ran 11.3 s in-process). The child
    # builds the 18 MB line, then runs it with 0.5 s: the runner's own limit (the job gets its error line, the next
    # job runs) or the library's per-call limit (the call raises LimitError after the job it cut).
    result = run_child(SLOW_RUNNER_CHILD % (SANS, which), seconds=60)
    out = answers(result)
    # The call's CPU time (the child's own clock around the call): the 0.5 s limit, ~0.1 s of overrun, and the
    # work outside any job's clock (splitting and decoding the 18 MB line) within 0.7 s more.
    assert out["cpu"] < 1.2 and out["wall"] < 20, out
    if which == "job":
        assert out["jobs"] == 2 and out["failed"] == 1
        assert "0.5 s" in out["last_two"][0] and '"job":"quick"' in out["last_two"][1]
    else:
        kind, message = out["raised"]
        assert kind == "LimitError" and "max_seconds_per_call" in message and out["jobs"] == 1 and out["failed"] == 1


# --- row 8: layout options of unknown sizes ----------------------------------------------------------------------

def test_layout_options_of_a_size_the_library_does_not_know_are_refused() -> None:
    font = inkhit.Font(SANS)
    runs = (N.TextRun * 1)()
    runs[0].start, runs[0].end, runs[0].set, runs[0].underline = 0, 3, 4, 1
    fonts = (ctypes.c_void_p * 1)(font._handle)
    for size in (0, 80, 208, ctypes.sizeof(N.LayoutOptions), 160):
        o = N.LayoutOptions()
        inkhit._errors._call(N.lib.inkhit_layout_options_init_sized, ctypes.byref(o), ctypes.sizeof(o))
        o.fonts, o.font_count, o.runs, o.run_count = ctypes.cast(fonts, ctypes.POINTER(ctypes.c_void_p)), 1, runs, 1
        o.struct_size = size
        handle = ctypes.c_void_p()
        status = N.lib.inkhit_layout_create_utf8(b"abc", 3, ctypes.byref(o), ctypes.byref(handle))
        if size in (0, 80, 208):
            assert status == 3 and b"options->struct_size is %d" % size in N.lib.inkhit_last_error()
        else:
            assert status == 0
            count = ctypes.c_size_t()
            N.lib.inkhit_layout_decoration_count(handle, ctypes.byref(count))
            assert count.value == (1 if size > 160 else 0)           # 1.0's size: the runs are past its end
            N.lib.inkhit_layout_release(handle)


# --- row 9: strict conversion ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def index_and_builder():
    font = inkhit.Font(SANS)
    builder = inkhit.Builder()
    builder.add_glyph(font, 36, 40, origin=(0, 40), tag=9)
    return font, builder, builder.build()


@pytest.mark.parametrize("call, needle", [
    (lambda f, b, i: i.tag(2**64), "int64_t"),
    (lambda f, b, i: i.tag(True), "bool"),
    (lambda f, b, i: inkhit.Font(SANS, face=2**40), "int32_t"),
    (lambda f, b, i: inkhit.Font(SANS, face=1.0), "float"),
    (lambda f, b, i: b.add_glyph(f, float("nan"), 16), "float"),
    (lambda f, b, i: b.add_glyph(f, 36.0, 16), "float"),
    (lambda f, b, i: b.add_glyph(f, -1, 16), "uint32_t"),
    (lambda f, b, i: b.add_glyph(f, 2**32, 16), "uint32_t"),
    (lambda f, b, i: b.add_glyph(f, 36, True), "bool"),
    (lambda f, b, i: b.add_glyph(f, 36, 16, tag=2**64), "uint64_t"),
    (lambda f, b, i: b.add_glyphs(f, np.array([36.0, float("nan")]), [[0, 0], [1, 1]], 16), "integers"),
    (lambda f, b, i: b.add_glyphs(f, np.array([True]), [[0, 0]], 16), "bools"),
    (lambda f, b, i: b.add_glyphs(f, [36, 2**33], [[0, 0], [1, 1]], 16), "uint32_t"),
    (lambda f, b, i: b.set_tag(0, 2**64), "uint64_t"),
    (lambda f, b, i: b.set_tag(-1, 1), "size_t"),
    (lambda f, b, i: b.add_glyph(f, 36, 16, style=inkhit.GlyphStyle(embolden=True)), "embolden"),
    (lambda f, b, i: b.add_glyph(f, 36, 16, style=inkhit.GlyphStyle(embolden=False)), "embolden"),
    (lambda f, b, i: b.add_glyph(f, 36, 16, style={"embolden": True}), "embolden"),
    (lambda f, b, i: i.hit(True, 3), "bool"),
    (lambda f, b, i: i.hit("3", 3), "str"),
    (lambda f, b, i: i.hits(np.zeros((4, 3))), "(N, 2)"),
    (lambda f, b, i: i.hits(np.zeros(4)), "(N, 2)"),
    (lambda f, b, i: i.hits(np.zeros((2, 2), bool)), "bools"),
    (lambda f, b, i: inkhit.Scene(inkhit.Node(1)).snapshot().hits(np.zeros((4, 3))), "(N, 2)"),
    (lambda f, b, i: inkhit.Scene(inkhit.Node(2**64)), "uint64_t"),
    (lambda f, b, i: inkhit.Scene(inkhit.Node(1, hidden=1)), "True or False"),
    (lambda f, b, i: inkhit.ShapeCache(-1), "size_t"),
    (lambda f, b, i: inkhit.Layout("ab", [f], max_lines=2**32), "uint32_t"),
    (lambda f, b, i: inkhit.Layout("ab", [f], links=[(0, 1.5)]), "float"),
])
def test_python_converts_strictly(index_and_builder, call, needle) -> None:
    font, builder, index = index_and_builder
    count = len(builder)
    with pytest.raises(inkhit.InvalidArgumentError) as caught:
        call(font, builder, index)
    assert isinstance(caught.value, ValueError) and needle in str(caught.value), str(caught.value)
    assert len(builder) == count                               # nothing was added on the way
    assert index.tag(0) == 9                                   # and the truncation it once was would have read 0


def test_conversion_accepts_what_fits() -> None:
    font = inkhit.Font(SANS)
    b = inkhit.Builder()
    assert b.add_glyph(font, np.uint16(36), np.float32(16), origin=(np.int64(0), 40), tag=2**64 - 1) == 0
    assert b.add_glyphs(font, np.array([36, 37], np.int64), [[10, 40], [30, 40]], 16) == range(1, 3)
    index = b.build()
    assert index.tag(0) == 2**64 - 1
    assert index.hits([]).shape == (0,) and index.hits(np.zeros((0, 2))).shape == (0,)
    assert index.hits([[3, 30]], radius=np.float64(1.0))["hit"].dtype == bool


# --- the binding is thin ---------------------------------------------------------------------------------------

def test_nothing_is_counted_per_call_and_no_file_is_parsed() -> None:
    package = os.path.dirname(inkhit.__file__)
    source = "".join(open(os.path.join(package, f)).read() for f in os.listdir(package) if f.endswith(".py"))
    for counted in ("_use(", "_done(", "_add_lock", "_users"):
        assert counted not in source, counted
    # inkhit.skia, an adapter, reads skia-python's serialized text blobs (Skia's format: skia-python's run iterator
    # gives no positions or font settings); it opens no file and parses no font.
    core = "".join(open(os.path.join(package, f)).read() for f in os.listdir(package) if f.endswith(".py") and f != "skia.py")
    for parsed in ("struct.unpack", "open(", '"fvar"', "'fvar'"):
        assert parsed not in core, parsed
    adapter = open(os.path.join(package, "skia.py")).read()
    for parsed in ("open(", '"fvar"', "'fvar'"):
        assert parsed not in adapter, parsed
    assert "__gpointer__" in source and "object.__basicsize__" not in source      # layout_pointer's capsule
