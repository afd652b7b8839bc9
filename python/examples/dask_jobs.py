"""Bulk jobs on an existing engine: a directory of `ink-hit query` job files answered on a Dask cluster, one
`inkhit.run_jobs` per partition (each file is a partition), the answers written beside as ANSWERS_DIR/NAME.jsonl.

    python examples/dask_jobs.py JOBS_DIR ANSWERS_DIR                     # a LocalCluster on this machine
    python examples/dask_jobs.py JOBS_DIR ANSWERS_DIR --scheduler tcp://host:8786   # an existing cluster

Every worker needs `pip install inkhit` (the wheel) and the fonts the jobs name. The answers are those of
`ink-hit query FILE`, byte for byte, line for line.
"""
from __future__ import annotations

import argparse
import glob
import os
from typing import Iterable, List

import dask.bag as db

import inkhit


def answer_partition(lines: Iterable[str]) -> List[str]:
    """The answer lines of one partition's job lines: one job runner (fonts and shapes kept across its jobs)."""
    return list(inkhit.run_jobs(lines, raw=True))


def answer_directory(jobs_dir: str, answers_dir: str) -> List[str]:
    """Answers every JOBS_DIR/*.jsonl into ANSWERS_DIR/<name>.jsonl on the current Dask client (or the default
    scheduler); returns the paths written."""
    paths = sorted(glob.glob(os.path.join(jobs_dir, "*.jsonl")))
    if not paths:
        raise SystemExit("no *.jsonl job files in %s" % jobs_dir)
    os.makedirs(answers_dir, exist_ok=True)
    names = [os.path.basename(p) for p in paths]
    # blocksize=None: one partition per file, so a file's jobs run in order on one worker.
    bag = db.read_text(paths, blocksize=None, linedelimiter="\n").map(lambda line: line.rstrip("\n"))
    answers = bag.map_partitions(answer_partition)
    targets = [os.path.join(answers_dir, n) for n in names]
    answers.to_textfiles(targets, last_endline=True)
    return targets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("jobs_dir")
    parser.add_argument("answers_dir")
    parser.add_argument("--scheduler", help="address of an existing Dask scheduler (default: a LocalCluster)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    from distributed import Client, LocalCluster
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        client = Client(LocalCluster(n_workers=args.workers, threads_per_worker=1))
    with client:
        for path in answer_directory(args.jobs_dir, args.answers_dir):
            print(path)


if __name__ == "__main__":
    main()
