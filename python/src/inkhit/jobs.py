"""`ink-hit query` jobs in-process: the same JSON-lines formats, answered by the same code, with the same limits
and strict mode, without a child process."""
from __future__ import annotations

import ctypes
import json
import warnings
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Union

from . import _convert as C
from . import _native as N
from ._errors import JobWarning, _call
from ._handle import Owned

__all__ = ["run_jobs", "JobRunner", "JOB_LIMITS"]

#: The names of the limits a `JobRunner` takes (inkhit_job_runner_options' fields, ink-hit's flags): each a
#: number of bytes, glyphs, … that may be lowered, not raised; ``max_seconds_per_job`` is seconds.
JOB_LIMITS = ("max_seconds_per_job",) + N.JOB_LIMITS

Warn = Union[None, Callable[[str], Any], List[str]]


def _warned(warn: Warn) -> Callable[[str], Any]:
    """Where a runner's warnings go: `warnings.warn` (as `JobWarning`) by default, a callable, or a list."""
    if warn is None:
        return lambda message: warnings.warn(message, JobWarning, stacklevel=3)
    if isinstance(warn, list):
        return warn.append
    if callable(warn):
        return warn
    raise C.ArgumentTypeError("warn must be None, a callable or a list, not %s" % type(warn).__name__, 3)


class JobRunner(Owned):
    """Answers job lines as `ink-hit query` does (glyph, text and scene jobs; the README's "Command line"),
    keeping fonts and glyph shapes across jobs within the job limits. Calls on one runner run one at a time;
    use one runner per thread for parallel work.

    Args:
        tolerance: flattening tolerance, view px (ink-hit's ``--tolerance``; at most 1).
        strict: a job with a member its format does not know (``"radious"``) fails with an error line naming it
            (``ink-hit --strict``); otherwise it is answered and a warning names the member.
        warn: where warnings go (a member ignored, a variation clamped): None, `warnings.warn` with
            `JobWarning`; a callable, called with each message; or a list, appended to.
        limits: ``max_seconds_per_job`` (ink-hit's ``--time-limit``) and the byte and count limits of
            `JOB_LIMITS` (``max_glyphs=…``, ``max_shape_bytes_per_job=…``: ink-hit's ``--max-*`` flags), each
            at most its default; a job beyond one gets its error line. Every call is also held to the library's
            per-call limits (``inkhit_limits``).
    """

    _kind = "JobRunner"

    def __init__(self, tolerance: float = 0.01, strict: bool = False, warn: Warn = None, **limits: Any) -> None:
        o = N.JobRunnerOptions()
        _call(N.lib.inkhit_job_runner_options_init, ctypes.byref(o))
        o.tolerance = C.number(tolerance, "JobRunner: tolerance")
        o.strict = int(C.flag(strict, "JobRunner: strict"))
        for name, value in limits.items():
            if name == "max_seconds_per_job":
                o.max_seconds_per_job = C.number(value, "JobRunner: max_seconds_per_job")
            elif name in N.JOB_LIMITS:
                setattr(o, name, C.integer(value, "JobRunner: " + name, "size_t"))
            else:
                raise C.ArgumentTypeError("JobRunner: no limit %r (the limits: %s)" % (name, ", ".join(JOB_LIMITS)), 3)
        sink = _warned(warn)
        # Kept as long as the runner: the library calls it during `run`.
        self._warn = N.JobWarn(lambda _, message, length: sink(ctypes.string_at(message, length).decode("utf-8",
                                                                                                       "replace")))
        o.warn = self._warn
        handle = ctypes.c_void_p()
        _call(N.lib.inkhit_job_runner_create_with_options, ctypes.byref(o), ctypes.byref(handle))
        self._own(handle.value, N.lib.inkhit_job_runner_release)  # type: ignore[arg-type]
        #: Jobs run so far, and how many of them got an error line.
        self.jobs = 0
        self.failed = 0

    def run(self, text: Union[str, bytes]) -> List[str]:
        """The output lines (JSON text, without newlines) for the job lines in `text` (one or more lines; blank
        lines are skipped). A job that cannot be answered gets one ``{"job": …, "error": …}`` line; the next
        job still runs.

        Raises:
            LimitError: the call passed the library's per-call time limit (``inkhit_limits``); the job running
            then got its error line, the lines after it were not run.
        """
        if isinstance(text, str):
            data = text.encode("utf-8", "surrogatepass")
        elif isinstance(text, (bytes, bytearray, memoryview)):
            data = bytes(text)
        else:
            raise C.ArgumentTypeError("JobRunner.run: text must be str or bytes, not %s" % type(text).__name__, 3)
        lines: List[str] = []

        def emit(_: Any, line: Any, length: int) -> None:
            lines.append(ctypes.string_at(line, length).decode("utf-8", "replace"))

        callback = N.JobEmit(emit)
        jobs, failed = ctypes.c_size_t(), ctypes.c_size_t()
        try:
            _call(N.lib.inkhit_job_runner_run, self._handle, data, len(data), callback, None, ctypes.byref(jobs),
                  ctypes.byref(failed))
        finally:
            self.jobs += jobs.value
            self.failed += failed.value
        return lines


def run_jobs(lines: Union[str, bytes, Iterable[Union[str, bytes]]], tolerance: float = 0.01, raw: bool = False,
             strict: bool = False, warn: Warn = None, **limits: Any) -> Iterator[Union[Dict[str, Any], str]]:
    """Answers `ink-hit query` job lines: yields one dict per output line (``{"job": …, "i": …, "hit": …}`` per
    query point, or ``{"job": …, "error": …}`` for a job that cannot be answered), in order, job by job, as
    `ink-hit query` writes them (``raw=True`` yields the JSON text itself, byte for byte ink-hit's).

    `lines` is an iterable of job lines (a list, an open file, a generator: each item one or more lines) or one
    str/bytes holding them. Jobs are read lazily: each is answered when the iterator reaches it. One runner per
    call (`JobRunner` with `tolerance`, `strict`, `warn` and the `limits`) keeps fonts and shapes across the
    call's jobs; it is released when the iterator ends or is closed.
    """
    if isinstance(lines, (str, bytes)):
        lines = [lines]
    runner = JobRunner(tolerance, strict=strict, warn=warn, **limits)
    try:
        for item in lines:
            for out in runner.run(item):
                yield out if raw else json.loads(out)
    finally:
        runner.close()
