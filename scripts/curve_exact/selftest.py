#!/usr/bin/env python3
"""Cross-checks reference.py against independent implementations, on the glyphs and points of a job file.

Usage:
    python3 scripts/curve_exact/selftest.py Tests/InkJobsTests/Fixtures/heldout-jobs.jsonl
    python3 scripts/curve_exact/selftest.py Tests/InkJobsTests/Fixtures/cff-jobs.jsonl [--all-glyphs]

1. Outline extraction vs FreeType (needs `pip install freetype-py`; skipped if missing): for every glyph
   used (every glyph of every font used, with --all-glyphs), FT_Load_Glyph(FT_LOAD_NO_SCALE |
   FT_LOAD_NO_HINTING) gives the points/tags/contours FreeType itself uses.
   TrueType: the on-curve and off-curve points must equal reference.py's (font units, after the
   lsb - xMin shift) up to FreeType's rounding of composite offsets/scales to whole units.
   CFF: the points, tags (on-curve / cubic control) and contour ends FreeType stores must equal the
   ones of fontTools' charstring drawing (RecordingPen, no shift), with FreeType's storage rules
   (a zero-length lineto adds no point; a closing point equal to the contour's start is not stored);
   and reference.py's segments (FontData.outline) must equal FreeType's own FT_Outline_Decompose
   segments exactly (same kinds, same coordinates, same order; CFF outlines need no implied points).
   Simple TrueType glyphs also check reference.py's pen-recording path (segments_from_recording:
   qCurveTo with implied midpoints) against its glyf path: same segments.
2. Winding vs fontTools' PointInsidePen (its own quadratic and cubic root solving, its own implied-point
   handling through the glyph set's pen protocol, nonzero rule), for every (point, glyph) pair whose
   control box holds the point; points within 1e-6 px of an outline are skipped.
3. Rays through vertices (where PointInsidePen itself is unreliable: it miscounts rays through the
   join of two curves at a y-extremum): for every glyph, points whose y equals exactly a vertex or
   y-extremum of the placed outline (view px, the job's transform) must get the same winding as the same
   point moved up and down by 1e-7 px (points within 1e-3 px of the outline are skipped).
4. Cubic pieces (CFF): every y-monotone piece of every placed cubic is sampled at 1025 parameters; y(t)
   must be monotone (to 1e-9 px) in the direction of (yA, yB), and y'(t) must vanish (to 1e-9 of the
   curve's y extent) at each split parameter inside (0, 1).
"""
from __future__ import annotations

import json
import os
import sys

import numpy as np
from fontTools.pens.pointInsidePen import PointInsidePen
from fontTools.pens.recordingPen import RecordingPen

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


def ft_segments(path, gid):
    """FreeType's FT_Outline_Decompose of the NO_SCALE outline: [(kind, ((x, y), ...)), ...] including
    the start point of each segment; zero-length lines are left out."""
    ft_points(path, gid)  # loads the glyph
    face = ft_points.faces[path]
    out = []
    cur = [None]

    def move_to(a, ctx):
        cur[0] = (float(a.x), float(a.y))
        return 0

    def line_to(a, ctx):
        p = (float(a.x), float(a.y))
        if p != cur[0]:
            out.append(('L', (cur[0], p)))
        cur[0] = p
        return 0

    def conic_to(a, b, ctx):
        out.append(('Q', (cur[0], (float(a.x), float(a.y)), (float(b.x), float(b.y)))))
        cur[0] = (float(b.x), float(b.y))
        return 0

    def cubic_to(a, b, c, ctx):
        out.append(('C', (cur[0], (float(a.x), float(a.y)), (float(b.x), float(b.y)),
                          (float(c.x), float(c.y)))))
        cur[0] = (float(c.x), float(c.y))
        return 0

    face.glyph.outline.decompose(None, move_to, line_to, conic_to, cubic_to)
    return out


def our_segments(pts, segs):
    out = []
    for kind, idx in segs:
        p = tuple((float(pts[i][0]), float(pts[i][1])) for i in idx)
        if kind == 'L' and p[0] == p[1]:
            continue
        out.append((kind, p))
    return out


def cff_ft_style_points(rec):
    """Points, tags (1 on-curve, 2 cubic control) and contour ends as FreeType stores a CFF outline, from
    a RecordingPen recording of fontTools' charstring drawing."""
    pts, tags, ends = [], [], []
    cont = []

    def flush():
        if cont:
            if len(cont) > 1 and cont[-1] == (cont[0][0], 1):
                cont.pop()
            pts.extend(c[0] for c in cont)
            tags.extend(c[1] for c in cont)
            ends.append(len(pts) - 1)
            cont.clear()

    for op, args in rec:
        if op == 'moveTo':
            flush()
            cont.append((tuple(args[0]), 1))
        elif op == 'lineTo':
            if tuple(args[0]) != cont[-1][0]:
                cont.append((tuple(args[0]), 1))
        elif op == 'curveTo' and len(args) == 3:
            cont.extend([(tuple(args[0]), 2), (tuple(args[1]), 2), (tuple(args[2]), 1)])
        elif op in ('closePath', 'endPath'):
            flush()
        else:
            raise ValueError(f'unexpected CFF pen operation {op} {len(args)}')
    flush()
    return np.array(pts, dtype=float).reshape(-1, 2), tags, ends


def check_outlines(jobs, all_glyphs=False):
    try:
        import freetype  # noqa: F401
    except ImportError:
        print('freetype-py not installed: outline check skipped')
        return 0
    seen = set()
    bad = 0
    worst = 0.0
    n_cff = n_tt = n_pen = 0
    wanted = []
    for job in jobs:
        for g in job['glyphs']:
            f = job['fonts'][g['font']]
            wanted.append((f['path'], f.get('index', 0), g['id']))
    if all_glyphs:
        for path, index in sorted({(p, i) for p, i, _ in wanted}):
            n = len(reference.font_data(path, index).order)
            wanted += [(path, index, gid) for gid in range(n)]
    for path, index, gid in wanted:
        key = (path, gid)
        if key in seen:
            continue
        seen.add(key)
        fd = reference.font_data(path, index)
        name = fd.order[gid]
        if fd.kind == 'CFF':
            n_cff += 1
            rec = fd.pen_recording(gid)
            ours, tags, ends = cff_ft_style_points(rec)
            ftp, fttags, contours = ft_points(path, gid)
            if len(ftp) != len(ours) or list(contours) != list(ends) or \
                    [t & 3 for t in fttags] != tags or (len(ours) and np.any(ftp != ours)):
                print('CFF OUTLINE DIFFERS', key, name, len(ftp), len(ours))
                bad += 1
                continue
            pts, segs = fd.outline(gid)
            if our_segments(pts, segs) != ft_segments(path, gid):
                print('CFF SEGMENTS DIFFER FROM FT_Outline_Decompose', key, name)
                bad += 1
            continue
        gl = fd.glyf[name]
        n_tt += 1
        if gl.numberOfContours == 0:
            continue
        if not gl.isComposite():
            # the pen-recording path (qCurveTo with implied midpoints) gives the glyf path's segments.
            # Simple glyphs only: fontTools' glyph set does not apply a composite's lsb - xMin shift to
            # its components (FreeType does; DejaVu Sans uni1F32/uni1F33/uni1F35 have lsb = xMin + 1).
            pts, segs = fd.outline(gid)
            rec = RecordingPen()
            fd.tt.getGlyphSet()[name].draw(rec)
            rp, rs = reference.segments_from_recording(rec.value)
            n_pen += 1
            if sorted(our_segments(pts, segs)) != sorted(our_segments(rp, rs)):
                print('PEN PATH DIFFERS FROM GLYF PATH', key, name)
                bad += 1
        coords, ends, flags = gl.getCoordinates(fd.glyf)
        shift = fd.hmtx[name][1] - gl.xMin
        ours = np.array(coords, dtype=float) + [shift, 0]
        ftp, tags, contours = ft_points(path, gid)
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
    print(f'outline check: {len(seen)} glyphs vs FreeType NO_SCALE ({n_tt} TrueType, max point difference '
          f'{worst:g} font units, {n_pen} simple ones also pen path vs glyf path; {n_cff} CFF: points/tags/contours and '
          f'FT_Outline_Decompose segments exact), {bad} differ')
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
            ys = np.concatenate([pl.lines[:, 1], pl.lines[:, 3], pl.qpieces[:, 8], pl.qpieces[:, 9],
                                 pl.cpieces[:, 10], pl.cpieces[:, 11]])
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


def check_cubic_pieces(jobs, samples=1025):
    n_cubics = n_pieces = n_splits = bad = 0
    seen = set()
    t = np.linspace(0.0, 1.0, samples)
    for job in jobs:
        T = job.get('transform') or [1, 0, 0, 1, 0, 0]
        for g in job['glyphs']:
            f = job['fonts'][g['font']]
            key = (f['path'], g['id'], g.get('size', job['size']), tuple(T))  # placement only shifts
            if key in seen:
                continue
            seen.add(key)
            fd = reference.font_data(f['path'], f.get('index', 0))
            pl = reference.place(fd, g['id'], g['x'], g['y'], g.get('size', job['size']), T, None)
            if not len(pl.cpieces):
                continue
            curves = {}
            for row in pl.cpieces:
                curves.setdefault(tuple(row[:8]), []).append(row[8:])
            for c, pieces in curves.items():
                n_cubics += 1
                y0, y1, y2, y3 = c[1], c[3], c[5], c[7]
                extent = max(y0, y1, y2, y3) - min(y0, y1, y2, y3)
                pieces = sorted(pieces, key=lambda r: r[0])
                if pieces[0][0] != 0.0 or pieces[-1][1] != 1.0 or \
                        any(a[1] != b[0] or a[3] != b[2] for a, b in zip(pieces, pieces[1:])):
                    bad += 1
                    print('CUBIC PIECES DO NOT TILE [0, 1]', job['id'], g['id'], c)
                    continue
                for tA, tB, yA, yB in pieces:
                    n_pieces += 1
                    tt = tA + (tB - tA) * t
                    y = reference.cubic_eval(y0, y1, y2, y3, tt)
                    dy = np.diff(y) * (1.0 if yB >= yA else -1.0)
                    if dy.min() < -1e-9:
                        bad += 1
                        print('CUBIC PIECE NOT MONOTONE', job['id'], g['id'], c, tA, tB, float(dy.min()))
                    if tA > 0.0:
                        n_splits += 1
                        d = 3 * ((1 - tA) ** 2 * (y1 - y0) + 2 * (1 - tA) * tA * (y2 - y1) + tA ** 2 * (y3 - y2))
                        if abs(d) > 1e-9 * max(extent, 1e-300):
                            bad += 1
                            print("CUBIC SPLIT NOT AT y'(t) = 0", job['id'], g['id'], c, tA, d)
    print(f'cubic-piece check: {n_cubics} placed cubics, {n_pieces} y-monotone pieces ({n_splits} splits at '
          f'y-extrema), {bad} bad')
    return bad


def main():
    import argparse
    ap = argparse.ArgumentParser(description='cross-checks of reference.py')
    ap.add_argument('jobs')
    ap.add_argument('--all-glyphs', action='store_true',
                    help='outline check on every glyph of every font the jobs use')
    args = ap.parse_args()
    jobs = [json.loads(l) for l in open(args.jobs) if l.strip()]
    bad = check_outlines(jobs, args.all_glyphs) + check_winding(jobs) + check_vertex_rays(jobs) + \
        check_cubic_pieces(jobs)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
