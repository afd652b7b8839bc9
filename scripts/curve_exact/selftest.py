#!/usr/bin/env python3
"""Cross-checks reference.py against independent implementations, on the glyphs and points of a job file.

Usage:
    python3 scripts/curve_exact/selftest.py Tests/InkJobsTests/Fixtures/heldout-jobs.jsonl

1. Outline extraction vs FreeType (needs `pip install freetype-py`; skipped if missing): for every glyph
   used, FT_Load_Glyph(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING) gives the points/tags/contours FreeType
   itself uses; the on-curve and off-curve points must equal reference.py's (font units, after the
   lsb - xMin shift) up to FreeType's rounding of composite offsets/scales to whole units.
2. Winding vs fontTools' PointInsidePen (its own quadratic root solving, its own implied-point handling
   through the glyph set's pen protocol, nonzero rule), for every (point, glyph) pair whose control box
   holds the point; points within 1e-6 px of an outline are skipped.
3. Rays through vertices (where PointInsidePen itself is unreliable: it miscounts rays through the
   join of two curves at a y-extremum): for every glyph, points whose y equals exactly a vertex or
   y-extremum of the placed outline (view px, the job's transform) must get the same winding as the same
   point moved up and down by 1e-7 px (points within 1e-3 px of the outline are skipped).
"""
from __future__ import annotations

import json
import os
import sys

import numpy as np
from fontTools.pens.pointInsidePen import PointInsidePen

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference  # noqa: E402


def ft_points(path, gid):
    import freetype
    face = ft_points.faces.get(path)
    if face is None:
        face = ft_points.faces[path] = freetype.Face(path)
    face.load_glyph(gid, freetype.FT_LOAD_NO_SCALE | freetype.FT_LOAD_NO_HINTING)
    o = face.glyph.outline
    return np.array(o.points, dtype=float).reshape(-1, 2), list(o.tags), list(o.contours)


ft_points.faces = {}


def check_outlines(jobs):
    try:
        import freetype  # noqa: F401
    except ImportError:
        print('freetype-py not installed: outline check skipped')
        return 0
    seen = set()
    bad = 0
    worst = 0.0
    for job in jobs:
        for g in job['glyphs']:
            f = job['fonts'][g['font']]
            key = (f['path'], g['id'])
            if key in seen:
                continue
            seen.add(key)
            fd = reference.font_data(f['path'], f.get('index', 0))
            name = fd.order[g['id']]
            gl = fd.glyf[name]
            if gl.numberOfContours == 0:
                continue
            coords, ends, flags = gl.getCoordinates(fd.glyf)
            shift = fd.hmtx[name][1] - gl.xMin
            ours = np.array(coords, dtype=float) + [shift, 0]
            ftp, tags, contours = ft_points(f['path'], g['id'])
            if len(ftp) != len(ours) or list(contours) != list(ends) or \
                    [t & 1 for t in tags] != [int(fl) & 1 for fl in flags]:
                print('OUTLINE STRUCTURE DIFFERS', key, name, len(ftp), len(ours))
                bad += 1
                continue
            err = float(np.abs(ftp - ours).max()) if len(ours) else 0.0
            worst = max(worst, err)
            if err > 0.5:
                print('OUTLINE POINTS DIFFER', key, name, err)
                bad += 1
    print(f'outline check: {len(seen)} glyphs vs FreeType NO_SCALE, {bad} differ, '
          f'max point difference {worst:g} font units')
    return bad


def check_winding(jobs):
    pairs = bad = skipped = 0
    for job in jobs:
        T = job.get('transform') or [1, 0, 0, 1, 0, 0]
        a, b, c, d, tx, ty = T
        det = a * d - b * c
        P = np.array(job['points'], dtype=float)
        for g in job['glyphs']:
            f = job['fonts'][g['font']]
            fd = reference.font_data(f['path'], f.get('index', 0))
            s = g.get('size', job['size'])
            pl = reference.place(fd, g['id'], g['x'], g['y'], s, T, None)
            m = reference.in_box(P, pl.cbox)
            if not m.any():
                continue
            idx = np.nonzero(m)[0]
            w = reference.winding(P[idx], pl)
            dist = reference.seg_distance(P[idx], pl.flat)
            gs = fd.tt.getGlyphSet()
            name = fd.order[g['id']]
            k = s / fd.upem
            for j, pi in enumerate(idx):
                if dist[j] < 1e-6:
                    skipped += 1
                    continue
                X, Y = P[pi] - [tx, ty]
                lx = (d * X - c * Y) / det
                ly = (-b * X + a * Y) / det
                u, v = (lx - g['x']) / k, (g['y'] - ly) / k
                pen = PointInsidePen(gs, (u, v), evenOdd=False)
                gs[name].draw(pen)
                pairs += 1
                if pen.getResult() != (w[j] != 0):
                    bad += 1
                    print('WINDING DIFFERS', job['id'], int(pi), g['id'], 'ours', int(w[j]),
                          'PointInsidePen', pen.getResult(), 'distance', float(dist[j]))
    print(f'winding check: {pairs} (point, glyph) pairs vs fontTools PointInsidePen, {bad} differ '
          f'({skipped} skipped within 1e-6 px of an outline)')
    return bad


def check_vertex_rays(jobs, per_glyph=200, seed=7):
    rng = np.random.default_rng(seed)
    n = bad = 0
    for job in jobs:
        T = job.get('transform') or [1, 0, 0, 1, 0, 0]
        for g in job['glyphs']:
            f = job['fonts'][g['font']]
            fd = reference.font_data(f['path'], f.get('index', 0))
            pl = reference.place(fd, g['id'], g['x'], g['y'], g.get('size', job['size']), T, None)
            ys = np.concatenate([pl.lines[:, 1], pl.lines[:, 3], pl.qpieces[:, 8], pl.qpieces[:, 9]])
            if not len(ys):
                continue
            x0, _, x1, _ = pl.cbox
            P = np.stack([rng.uniform(x0 - 1, x1 + 1, per_glyph), rng.choice(ys, per_glyph)], axis=1)
            keep = reference.seg_distance(P, pl.flat) > 1e-3
            P = P[keep]
            w = reference.winding(P, pl)
            wu = reference.winding(P - [0, 1e-7], pl)
            wd = reference.winding(P + [0, 1e-7], pl)
            n += len(P)
            for j in np.nonzero((w != wu) | (w != wd))[0]:
                bad += 1
                print('VERTEX RAY', job['id'], g['id'], P[j].tolist(), int(w[j]), int(wu[j]), int(wd[j]))
    print(f'vertex-ray check: {n} points on rays through vertices/extrema, {bad} inconsistent')
    return bad


def main():
    jobs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    bad = check_outlines(jobs) + check_winding(jobs) + check_vertex_rays(jobs)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
