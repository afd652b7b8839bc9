"""`ink-hit query` jobs in-process: the same JSON-lines formats, answered by the same code, without a child
process."""
from __future__ import annotations

import ctypes
import json
from typing import Any, Dict, Iterable, Iterator, List, Union

from . import _native as N
from ._errors import check
from ._handle import Owned

__all__ = ["run_jobs", "JobRunner"]


class JobRunner(Owned):
    """Answers job lines as `ink-hit query` does (glyph, text and scene jobs; the README's "Command line"),
    keeping fonts and glyph shapes across jobs within the job limits. Calls on one runner run one at a time;
    use one runner per thread for parallel work.

    Args:
        tolerance: flattening tolerance, view px (ink-hit's ``--tolerance``; at most 1).
    """

    _kind = "JobRunner"

    def __init__(self, tolerance: float = 0.01) -> None:
        if not N.HAS_JOBS:
            raise NotImplementedError("this libInkHit has no job runner (inkhit_job_runner_create)")
        handle = ctypes.c_void_p()
        check(N.lib.inkhit_job_runner_create(float(tolerance), ctypes.byref(handle)))
        self._own(handle.value, N.lib.inkhit_job_runner_release)  # type: ignore[arg-type]
        #: Jobs run so far, and how many of them got an error line.
        self.jobs = 0
        self.failed = 0

    def run(self, text: Union[str, bytes]) -> List[str]:
        """The output lines (JSON text, without newlines) for the job lines in `text` (one or more lines; blank
        lines are skipped). A job that cannot be answered gets one ``{"job": …, "error": …}`` line; the next
        job still runs."""
        data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
        lines: List[str] = []

        def emit(_: Any, line: Any, length: int) -> None:
            lines.append(ctypes.string_at(line, length).decode("utf-8", "replace"))

        callback = N.JobEmit(emit)
        jobs, failed = ctypes.c_size_t(), ctypes.c_size_t()
        h = self._use()
        try:
            check(N.lib.inkhit_job_runner_run(h, data, len(data), callback, None, ctypes.byref(jobs),
                                              ctypes.byref(failed)))
        finally:
            self._done()
        self.jobs += jobs.value
        self.failed += failed.value
        return lines


def run_jobs(lines: Union[str, bytes, Iterable[Union[str, bytes]]], tolerance: float = 0.01,
             raw: bool = False) -> Iterator[Union[Dict[str, Any], str]]:
    """Answers `ink-hit query` job lines: yields one dict per output line (``{"job": …, "i": …, "hit": …}`` per
    query point, or ``{"job": …, "error": …}`` for a job that cannot be answered), in order, job by job, as
    `ink-hit query` writes them (``raw=True`` yields the JSON text itself, byte for byte ink-hit's).

    `lines` is an iterable of job lines (a list, an open file, a generator: each item one or more lines) or one
    str/bytes holding them. Jobs are read lazily: each is answered when the iterator reaches it. One runner per
    call keeps fonts and shapes across the call's jobs; it is released when the iterator ends or is closed.
    """
    if isinstance(lines, (str, bytes)):
        lines = [lines]
    runner = JobRunner(tolerance)
    try:
        for item in lines:
            for out in runner.run(item):
                yield out if raw else json.loads(out)
    finally:
        runner.close()
