"""The Dask example (examples/dask_jobs.py): a directory of job files answered on a distributed.LocalCluster (two
worker processes), one inkhit.run_jobs per partition; each answer file equals `ink-hit query` on its job file,
byte for byte."""
from __future__ import annotations

import os
import shutil
import sys

import pytest

from conftest import run
from glyph_jobs import FIXTURES

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples"))


def test_a_directory_of_jobs_on_a_local_cluster(tmp_path, ink_hit: str) -> None:
    import distributed  # in the test tools (requirements-dev.txt): missing, it fails rather than skips
    import dask_jobs
    jobs_dir, answers_dir = tmp_path / "jobs", tmp_path / "answers"
    jobs_dir.mkdir()
    for name in ("example-jobs.jsonl", "heldout-jobs.jsonl", "cff-jobs.jsonl"):
        shutil.copy(os.path.join(FIXTURES, name), jobs_dir / name)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster):
        written = dask_jobs.answer_directory(str(jobs_dir), str(answers_dir))
    assert [os.path.basename(p) for p in written] == ["cff-jobs.jsonl", "example-jobs.jsonl", "heldout-jobs.jsonl"]
    for path in written:
        expected = run([ink_hit, "query", str(jobs_dir / os.path.basename(path))])
        assert expected.returncode == 0
        with open(path, encoding="utf-8") as f:
            assert f.read() == expected.stdout, path
