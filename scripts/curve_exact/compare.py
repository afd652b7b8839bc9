#!/usr/bin/env python3
"""Compares `ink-hit query` output with curve-exact expected answers.

Usage:
    python3 scripts/curve_exact/compare.py EXPECTED.jsonl TOOL_OUTPUT.jsonl [--jobs JOBS.jsonl] [--min-margin 0.05]

Counts, per job, the points whose expected boundary_margin >= min-margin and whose `hit` or `glyph`
differs -- or, on a hit, whose `"ink": "box"` (a glyph answered by its advance box, fidelity.py) is
present in one answer and not the other -- and prints every such mismatch with both answers and the
expected inside / outline_distance / boundary_margin.  With --jobs it also recomputes (fidelity.py's
shapes, which are reference.py's outlines for jobs without the font-fidelity fields) the distance from
each point to the ink boundary of the glyph the tool reported and shows the largest |tool |distance| -
reference distance| and sign errors (distance must be negative exactly when the point is in that
glyph's ink; checked farther than 0.05 px plus the glyph's uncertainty u from the boundary).
Exit status 1 if there is any mismatch or any job is missing/errored.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections import OrderedDict

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def load(path):
    out = OrderedDict()
    errors = {}
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            e = json.loads(line)
            if 'error' in e:
                errors[e['job']] = e['error']
                continue
            out[(e['job'], e['i'])] = e
    return out, errors


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument('expected')
    ap.add_argument('output')
    ap.add_argument('--jobs')
    ap.add_argument('--min-margin', type=float, default=0.05)
    args = ap.parse_args(argv)
    exp, _ = load(args.expected)
    got, errors = load(args.output)
    per_job = OrderedDict()
    mism = []
    for key, e in exp.items():
        j = per_job.setdefault(e['job'], {'points': 0, 'checked': 0, 'mismatches': 0, 'missing': 0,
                                          'all_points_differ': 0})
        j['points'] += 1
        g = got.get(key)
        if g is None:
            j['missing'] += 1
            continue
        differ = ((g['hit'], g['glyph']) != (e['hit'], e['glyph'])
                  or (e['hit'] and (g.get('ink') == 'box') != (e.get('ink') == 'box')))
        j['all_points_differ'] += differ
        if e['boundary_margin'] >= args.min_margin:
            j['checked'] += 1
            if differ:
                j['mismatches'] += 1
                mism.append((e, g))
    dist_stats = None
    if args.jobs:
        dist_stats = distance_check(args.jobs, got)
    w = max(len(k) for k in per_job) if per_job else 10
    print(f"{'job':<{w}}  points  checked  mismatches  (differ incl. margin<{args.min_margin})  missing")
    tot = {'points': 0, 'checked': 0, 'mismatches': 0, 'missing': 0, 'all_points_differ': 0}
    for k, v in per_job.items():
        for kk in tot:
            tot[kk] += v[kk]
        err = f'  ERROR: {errors[k]}' if k in errors else ''
        print(f"{k:<{w}}  {v['points']:6d}  {v['checked']:7d}  {v['mismatches']:10d}  "
              f"{v['all_points_differ']:27d}  {v['missing']:7d}{err}")
    print(f"{'TOTAL':<{w}}  {tot['points']:6d}  {tot['checked']:7d}  {tot['mismatches']:10d}  "
          f"{tot['all_points_differ']:27d}  {tot['missing']:7d}")
    for e, g in mism:
        print('MISMATCH', e['job'], 'point', e['i'], 'tool:', {'hit': g['hit'], 'glyph': g['glyph'],
              'ink': g.get('ink'), 'distance': g.get('distance')},
              'reference:', {'hit': e['hit'], 'glyph': e['glyph'], 'ink': e.get('ink'),
              'inside': e['inside'], 'outline_distance': e['outline_distance'],
              'boundary_margin': e['boundary_margin']})
    if dist_stats:
        print(dist_stats)
    return 1 if tot['mismatches'] or tot['missing'] or errors else 0


def distance_check(jobs_path, got):
    import fidelity
    import reference
    worst = 0.0
    worst_at = None
    sign_err = 0
    n = 0
    with open(jobs_path) as f:
        for line in f:
            if not line.strip():
                continue
            job = json.loads(line)
            hits = [(i, p, got[(job['id'], i)]) for i, p in enumerate(job['points'])
                    if got.get((job['id'], i)) and got[(job['id'], i)]['glyph'] is not None
                    and got[(job['id'], i)].get('distance') is not None]
            if not hits:
                continue
            shapes = fidelity.glyph_shapes(job)
            for i, p, g in hits:
                shape = shapes[g['glyph']]
                P = np.array([p], dtype=float)
                d = float(reference.seg_distance(P, shape.flat)[0])
                ins = bool(shape.contains(P)[0]) if reference.in_box(P, shape.cbox)[0] else False
                n += 1
                diff = abs(abs(g['distance']) - d)
                if diff > worst:
                    worst, worst_at = diff, (job['id'], i)
                if d > 0.05 + shape.u and (g['distance'] < 0) != ins:
                    sign_err += 1
    return (f'distance check: {n} hits; max | |tool distance| - reference distance to that glyph | = '
            f'{worst:.4f} px at {worst_at}; sign errors (>0.05 px + u from the ink boundary): {sign_err}')


if __name__ == '__main__':
    sys.exit(main())
