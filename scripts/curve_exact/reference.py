#!/usr/bin/env python3
"""Curve-exact reference answers for `ink-hit query` glyph jobs (an oracle independent of the Swift code).

Usage:
    python3 scripts/curve_exact/reference.py JOBS.jsonl > EXPECTED.jsonl
    python3 scripts/curve_exact/reference.py JOBS.jsonl --check EXPECTED.jsonl   # compare with another reference

For every query point of every glyph job (format: DESIGN.md, "Command-line tool `ink-hit`") it writes
    {"job", "i", "hit", "glyph", "inside", "outline_distance", "boundary_margin"}
in the format of shared/examples/expected.jsonl.

How it computes them (all geometry in float64, in view px):

* Outlines: fontTools `glyf` data.  `Glyph.getCoordinates(glyf)` decomposes composites in floating
  point; the outline is shifted by `lsb - xMin` (hmtx left side bearing minus the glyf header's xMin),
  which is what FreeType does with FT_LOAD_NO_SCALE (it translates by -pp1.x) and what fontTools'
  glyph set does.  Implied on-curve points between two off-curve points are the exact midpoints;
  a contour with no on-curve point starts at the midpoint of its last and first points.
  Only TrueType (`glyf`) fonts are supported (CFF would need a cubic pen).
* Placement (DESIGN.md "Conventions"): font (u, v) -> layout (x + u*s/upem, y - v*s/upem) -> view by the
  job's affine transform [a, b, c, d, tx, ty].  Lines and quadratic Béziers stay lines and quadratics
  under an affine map, so the control points are mapped and the curves are used as they are.
* inside: nonzero winding of the horizontal ray towards +x against the exact curves.  Every quadratic is
  split at its y-extremum (t* = (y0-y1)/(y0-2y1+y2)) into y-monotone parameter ranges; a monotone piece
  or line from yA to yB is crossed iff min(yA,yB) <= py < max(yA,yB) (half-open, so a ray through a
  shared endpoint is counted exactly once; the split value y(t*) is computed once and shared by both
  pieces).  The crossing parameter is the root of the quadratic y(t) = py in that range (numerically
  stable formula, clamped to the range); the crossing counts +-1 (by direction) if x(t) > px.
  No flattening is involved.
* outline_distance: unsigned distance to the nearest outline of any glyph of the job, where outlines
  are flattened at 0.001 px in view space (uniform parameter steps, n = ceil(sqrt(|P0-2P1+P2| / 0.004)),
  a Hausdorff bound of 0.001 px), so it is within 0.001 px of the exact curve distance.
* hit / glyph (DESIGN.md): topmost (last in `glyphs`) glyph whose ink contains the point; otherwise the
  glyph whose outline is nearest, if that distance <= radius (ties -> topmost); otherwise a miss.
* boundary_margin (capped at 1.0): a lower bound on how far the point must move before the answer
  (hit, glyph, inside) can change:
    - min over all glyphs g of d_g (crossing any outline),
    - if radius r > 0: min over all g of |d_g - r| (crossing an r-offset curve), and, for a point that
      is in no ink but within r of its nearest glyph g1, min over other glyphs g of
      max(d_g - r, (d_g - d1)/2) (another glyph must come within r *and* closer than g1; glyphs that are
      exact duplicates of g1 -- same font, id, size and origin -- are skipped: they tie everywhere and the
      tie always goes to the topmost one).
  Distances are 1-Lipschitz in the point, so each term is a valid lower bound; the margin is conservative.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass

import numpy as np
from fontTools.ttLib import TTFont

FLATTEN_TOL = 0.001  # view px


# --------------------------------------------------------------------------------------------- fonts

class FontData:
    def __init__(self, path: str, index: int):
        self.tt = TTFont(path, fontNumber=index, lazy=True) if path.lower().endswith(('.ttc', '.otc')) \
            else TTFont(path, lazy=True)
        if 'glyf' not in self.tt:
            raise ValueError(f"{path}: only TrueType (glyf) fonts are supported by this reference")
        self.upem = self.tt['head'].unitsPerEm
        self.glyf = self.tt['glyf']
        self.hmtx = self.tt['hmtx']
        self.order = self.tt.getGlyphOrder()
        self._cache: dict[int, tuple[np.ndarray, list[tuple[str, list[int]]]]] = {}

    def outline(self, gid: int):
        """(points (K,2) float64 in font units, segments [('L', [i0,i1]) | ('Q', [i0,i1,i2])]).

        Segment entries index `points`, so segments that share an endpoint share the very same float
        values after any transform (needed for the half-open crossing rule)."""
        if gid in self._cache:
            return self._cache[gid]
        name = self.order[gid]
        g = self.glyf[name]
        pts_out: list[tuple[float, float]] = []
        segs: list[tuple[str, list[int]]] = []
        if g.numberOfContours != 0:
            coords, end_pts, flags = g.getCoordinates(self.glyf)
            lsb = self.hmtx[name][1]
            x_min = getattr(g, 'xMin', lsb)
            shift = float(lsb - x_min)  # FreeType: translate by -pp1.x = lsb - xMin
            coords = [(float(x) + shift, float(y)) for x, y in coords]
            start = 0
            for end in end_pts:
                cpts = coords[start:end + 1]
                con = [bool(f & 1) for f in flags[start:end + 1]]
                start = end + 1
                self._contour(cpts, con, pts_out, segs)
        pts = np.array(pts_out, dtype=np.float64).reshape(-1, 2)
        self._cache[gid] = (pts, segs)
        return self._cache[gid]

    @staticmethod
    def _contour(cpts, on, pts_out, segs):
        n = len(cpts)
        if n < 2:
            return  # a single point encloses nothing and has no edge
        def add(p):
            pts_out.append(p)
            return len(pts_out) - 1
        def mid(p, q):
            return ((p[0] + q[0]) * 0.5, (p[1] + q[1]) * 0.5)
        if any(on):
            k = on.index(True)
            seq = [(cpts[(k + i) % n], on[(k + i) % n]) for i in range(n)]
            first = add(seq[0][0])
            rest = seq[1:]
        else:
            first = add(mid(cpts[-1], cpts[0]))
            rest = [(p, False) for p in cpts]
        cur = first
        pending = None  # index of a pending off-curve point
        for p, is_on in rest:
            if is_on:
                ip = add(p)
                if pending is None:
                    segs.append(('L', [cur, ip]))
                else:
                    segs.append(('Q', [cur, pending, ip]))
                    pending = None
                cur = ip
            else:
                if pending is None:
                    pending = add(p)
                else:
                    m = add(mid(pts_out[pending], p))
                    segs.append(('Q', [cur, pending, m]))
                    cur = m
                    pending = add(p)
        if pending is None:
            if cur != first:
                segs.append(('L', [cur, first]))
        else:
            segs.append(('Q', [cur, pending, first]))


_fonts: dict[tuple[str, int], FontData] = {}


def font_data(path: str, index: int) -> FontData:
    key = (path, index)
    if key not in _fonts:
        _fonts[key] = FontData(path, index)
    return _fonts[key]


# ------------------------------------------------------------------------------------ placed glyphs

@dataclass
class Placed:
    lines: np.ndarray      # (L, 4): x0 y0 x1 y1 (view px)
    qpieces: np.ndarray    # (Q, 10): x0 y0 x1 y1 x2 y2 tA tB yA yB, y-monotone parameter ranges
    flat: np.ndarray       # (F, 4): flattened segments x0 y0 x1 y1
    cbox: tuple            # control-point box (xmin, ymin, xmax, ymax): the ink lies inside it
    fbox: tuple            # box of the flattened outline
    key: tuple             # (font, id, size, x, y) -- duplicates tie everywhere


def place(fd: FontData, gid: int, x: float, y: float, size: float, T, key) -> Placed:
    pts, segs = fd.outline(gid)
    a, b, c, d, tx, ty = T
    k = size / fd.upem
    # view = M @ (u, v) + o  with lx = x + u k, ly = y - v k
    m00, m01, o0 = a * k, -c * k, a * x + c * y + tx
    m10, m11, o1 = b * k, -d * k, b * x + d * y + ty
    if len(pts):
        vx = m00 * pts[:, 0] + m01 * pts[:, 1] + o0
        vy = m10 * pts[:, 0] + m11 * pts[:, 1] + o1
    else:
        vx = vy = np.zeros(0)
    lines, qs = [], []
    for kind, idx in segs:
        if kind == 'L':
            lines.append((vx[idx[0]], vy[idx[0]], vx[idx[1]], vy[idx[1]]))
        else:
            qs.append((vx[idx[0]], vy[idx[0]], vx[idx[1]], vy[idx[1]], vx[idx[2]], vy[idx[2]]))
    lines = np.array(lines, dtype=np.float64).reshape(-1, 4)
    qs = np.array(qs, dtype=np.float64).reshape(-1, 6)

    # y-monotone pieces of the quadratics
    pieces = []
    for (x0, y0, x1, y1, x2, y2) in qs:
        den = y0 - 2.0 * y1 + y2
        ts = None
        if den != 0.0:
            t = (y0 - y1) / den
            if 0.0 < t < 1.0:
                ts = t
        if ts is None:
            pieces.append((x0, y0, x1, y1, x2, y2, 0.0, 1.0, y0, y2))
        else:
            mt = 1.0 - ts
            ym = mt * mt * y0 + 2.0 * ts * mt * y1 + ts * ts * y2
            pieces.append((x0, y0, x1, y1, x2, y2, 0.0, ts, y0, ym))
            pieces.append((x0, y0, x1, y1, x2, y2, ts, 1.0, ym, y2))
    qpieces = np.array(pieces, dtype=np.float64).reshape(-1, 10)

    # flattening at FLATTEN_TOL (view px)
    flat = [lines]
    if len(qs):
        D = np.hypot(qs[:, 0] - 2 * qs[:, 2] + qs[:, 4], qs[:, 1] - 2 * qs[:, 3] + qs[:, 5])
        ns = np.maximum(1, np.ceil(np.sqrt(D / (4.0 * FLATTEN_TOL)))).astype(int)
        for q, n in zip(qs, ns):
            t = np.linspace(0.0, 1.0, n + 1)
            mt = 1.0 - t
            px = mt * mt * q[0] + 2 * t * mt * q[2] + t * t * q[4]
            py = mt * mt * q[1] + 2 * t * mt * q[3] + t * t * q[5]
            px[0], py[0], px[-1], py[-1] = q[0], q[1], q[4], q[5]
            flat.append(np.stack([px[:-1], py[:-1], px[1:], py[1:]], axis=1))
    flat = np.concatenate(flat, axis=0) if flat else np.zeros((0, 4))

    if len(vx):
        cbox = (vx.min(), vy.min(), vx.max(), vy.max())
    else:
        cbox = (np.inf, np.inf, -np.inf, -np.inf)
    if len(flat):
        fbox = (min(flat[:, 0].min(), flat[:, 2].min()), min(flat[:, 1].min(), flat[:, 3].min()),
                max(flat[:, 0].max(), flat[:, 2].max()), max(flat[:, 1].max(), flat[:, 3].max()))
    else:
        fbox = (np.inf, np.inf, -np.inf, -np.inf)
    return Placed(lines, qpieces, flat, cbox, fbox, key)


# ------------------------------------------------------------------------------------------ winding

def winding(P: np.ndarray, g: Placed) -> np.ndarray:
    """Nonzero-winding numbers of points P (N,2) against the exact curves of g (ray towards +x)."""
    N = len(P)
    w = np.zeros(N, dtype=np.int64)
    if N == 0:
        return w
    px, py = P[:, 0], P[:, 1]
    # lines
    if len(g.lines):
        L = g.lines
        y0, y1 = L[None, :, 1], L[None, :, 3]
        Y = py[:, None]
        up = (y0 <= Y) & (Y < y1)
        dn = (y1 <= Y) & (Y < y0)
        ii, jj = np.nonzero(up | dn)
        if len(ii):
            x0, yy0, x1, yy1 = L[jj, 0], L[jj, 1], L[jj, 2], L[jj, 3]
            xc = x0 + (py[ii] - yy0) * (x1 - x0) / (yy1 - yy0)
            # exact vertex hits use the vertex itself
            xc = np.where(py[ii] == yy0, x0, xc)
            s = np.where(yy1 > yy0, 1, -1)
            np.add.at(w, ii, np.where(xc > px[ii], s, 0))
    # monotone quadratic pieces
    if len(g.qpieces):
        Qp = g.qpieces
        yA, yB = Qp[None, :, 8], Qp[None, :, 9]
        Y = py[:, None]
        up = (yA <= Y) & (Y < yB)
        dn = (yB <= Y) & (Y < yA)
        ii, jj = np.nonzero(up | dn)
        if len(ii):
            q = Qp[jj]
            x0, y0, x1, y1, x2, y2, tA, tB, qa, qb = (q[:, i] for i in range(10))
            yp = py[ii]
            A = y0 - 2.0 * y1 + y2
            B = 2.0 * (y1 - y0)
            C = y0 - yp
            scale = np.abs(y0) + np.abs(y1) + np.abs(y2) + 1e-300
            lin = np.abs(A) <= 1e-13 * scale
            disc = np.maximum(B * B - 4.0 * A * C, 0.0)
            sq = np.sqrt(disc)
            qq = -0.5 * (B + np.copysign(sq, B))
            with np.errstate(divide='ignore', invalid='ignore'):
                r1 = np.where(A != 0, qq / A, np.inf)
                r2 = np.where(qq != 0, C / qq, np.where(A != 0, -B / (2 * np.where(A != 0, A, 1)), np.inf))
                rl = np.where(B != 0, -C / np.where(B != 0, B, 1), 0.5 * (tA + tB))
            def dist_to_range(r):
                return np.where(np.isfinite(r), np.maximum(np.maximum(tA - r, r - tB), 0.0), np.inf)
            d1, d2 = dist_to_range(r1), dist_to_range(r2)
            t = np.where(d1 <= d2, r1, r2)
            t = np.where(lin, rl, t)
            t = np.where(np.isfinite(t), t, 0.5 * (tA + tB))
            t = np.clip(t, tA, tB)
            # endpoints hit exactly
            t = np.where(yp == qa, tA, t)
            mt = 1.0 - t
            xc = mt * mt * x0 + 2.0 * t * mt * x1 + t * t * x2
            s = np.where(qb > qa, 1, -1)
            np.add.at(w, ii, np.where(xc > px[ii], s, 0))
    return w


# ----------------------------------------------------------------------------------------- distance

def seg_distance(P: np.ndarray, S: np.ndarray, chunk: int = 2_000_000) -> np.ndarray:
    """min distance from each point P (N,2) to segments S (F,4)."""
    N, F = len(P), len(S)
    out = np.full(N, np.inf)
    if N == 0 or F == 0:
        return out
    ax, ay = S[:, 0], S[:, 1]
    dx, dy = S[:, 2] - ax, S[:, 3] - ay
    ll = dx * dx + dy * dy
    inv = np.where(ll > 0, 1.0 / np.where(ll > 0, ll, 1.0), 0.0)
    step = max(1, chunk // F)
    for s in range(0, N, step):
        p = P[s:s + step]
        rx = p[:, 0:1] - ax[None, :]
        ry = p[:, 1:2] - ay[None, :]
        t = np.clip((rx * dx + ry * dy) * inv, 0.0, 1.0)
        ex = rx - t * dx
        ey = ry - t * dy
        out[s:s + step] = np.sqrt((ex * ex + ey * ey).min(axis=1))
    return out


def box_distance(P: np.ndarray, box) -> np.ndarray:
    x0, y0, x1, y1 = box
    if not np.isfinite(x0):
        return np.full(len(P), np.inf)
    dx = np.maximum(np.maximum(x0 - P[:, 0], P[:, 0] - x1), 0.0)
    dy = np.maximum(np.maximum(y0 - P[:, 1], P[:, 1] - y1), 0.0)
    return np.hypot(dx, dy)


def in_box(P: np.ndarray, box) -> np.ndarray:
    x0, y0, x1, y1 = box
    return (P[:, 0] >= x0) & (P[:, 0] <= x1) & (P[:, 1] >= y0) & (P[:, 1] <= y1)


# ------------------------------------------------------------------------------------------- a job

def answer_job(job: dict) -> list[dict]:
    jid = job['id']
    fonts = [font_data(f['path'], int(f.get('index', 0))) for f in job['fonts']]
    size = job.get('size')
    T = job.get('transform') or [1, 0, 0, 1, 0, 0]
    T = [float(v) for v in T]
    r = float(job.get('radius') or 0.0)
    placed = []
    for gl in job['glyphs']:
        fi = int(gl.get('font', 0))
        s = float(gl.get('size', size))
        key = (fi, int(gl['id']), s, float(gl['x']), float(gl['y']))
        placed.append(place(fonts[fi], int(gl['id']), float(gl['x']), float(gl['y']), s, T, key))
    G = len(placed)
    P_all = np.array([[float(v) if v is not None else np.nan for v in p] for p in job['points']],
                     dtype=np.float64).reshape(-1, 2)
    N = len(P_all)
    finite = np.all(np.isfinite(P_all), axis=1)
    P = np.where(finite[:, None], P_all, 0.0)

    # inside per glyph
    inside = np.zeros((N, G), dtype=bool)
    for gi, g in enumerate(placed):
        m = in_box(P, g.cbox) & finite
        if m.any():
            inside[m, gi] = winding(P[m], g) != 0

    # distances: exact for every glyph within r + 2 px (by box lower bound), then the nearest for the rest
    LB = np.stack([box_distance(P, g.fbox) for g in placed], axis=1) if G else np.zeros((N, 0))
    D = np.full((N, G), np.inf)
    near = LB <= r + 2.0 + 1e-9
    for gi, g in enumerate(placed):
        m = near[:, gi] & finite
        if m.any():
            D[m, gi] = seg_distance(P[m], g.flat)
    best = D.min(axis=1) if G else np.full(N, np.inf)
    for pi in range(N):
        if not finite[pi] or G == 0:
            continue
        order = np.argsort(LB[pi], kind='stable')
        for gi in order:
            if LB[pi, gi] > best[pi]:
                break
            if not np.isfinite(D[pi, gi]):
                D[pi, gi] = seg_distance(P[pi:pi + 1], placed[gi].flat)[0]
                best[pi] = min(best[pi], D[pi, gi])

    out = []
    for pi in range(N):
        rec = {'job': jid, 'i': pi}
        if not finite[pi] or G == 0:
            rec.update(hit=False, glyph=None, inside=False,
                       outline_distance=None if not finite[pi] else None, boundary_margin=1.0)
            out.append(rec)
            continue
        d = D[pi]
        ins = np.nonzero(inside[pi])[0]
        dmin = float(np.min(d))
        margin = dmin
        glyph = None
        if len(ins):
            glyph = int(ins[-1])
        elif r > 0:
            g1 = None
            for gi in range(G):  # ties -> topmost: later index wins on <=
                if d[gi] <= r and (g1 is None or d[gi] <= d[g1]):
                    g1 = gi
            glyph = g1
            if g1 is not None:
                d1 = d[g1]
                for gi in range(G):
                    if gi == g1 or placed[gi].key == placed[g1].key:
                        continue
                    if np.isfinite(d[gi]):
                        margin = min(margin, max(d[gi] - r, (d[gi] - d1) / 2.0))
        if r > 0:
            fin = d[np.isfinite(d)]
            if len(fin):
                margin = min(margin, float(np.min(np.abs(fin - r))))
        margin = min(1.0, max(0.0, margin))
        rec.update(hit=glyph is not None, glyph=glyph, inside=bool(len(ins)),
                   outline_distance=round(dmin, 4), boundary_margin=round(margin, 4))
        out.append(rec)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('jobs', help='glyph jobs, one JSON object per line')
    ap.add_argument('--check', metavar='EXPECTED', help='compare with an expected.jsonl instead of printing')
    ap.add_argument('--min-margin', type=float, default=0.05)
    args = ap.parse_args(argv)
    results = []
    with open(args.jobs) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            job = json.loads(line)
            res = answer_job(job)
            if args.check:
                results.extend(res)
            else:
                for rec in res:
                    sys.stdout.write(json.dumps(rec) + '\n')
    if args.check:
        return check(results, args.check, args.min_margin)
    return 0


def check(results, expected_path, min_margin):
    exp = {}
    with open(expected_path) as f:
        for line in f:
            if line.strip():
                e = json.loads(line)
                exp[(e['job'], e['i'])] = e
    n = nm = bad = 0
    dmax = 0.0
    inside_all = hitglyph_all = 0
    for r in results:
        e = exp.get((r['job'], r['i']))
        if e is None:
            print('missing expected', r['job'], r['i'])
            bad += 1
            continue
        n += 1
        if e['outline_distance'] is not None and r['outline_distance'] is not None:
            dmax = max(dmax, abs(e['outline_distance'] - r['outline_distance']))
        same = (r['hit'], r['glyph'], r['inside']) == (e['hit'], e['glyph'], e['inside'])
        if same:
            inside_all += 1
        if e['boundary_margin'] >= min_margin:
            nm += 1
            if not same:
                bad += 1
                print('MISMATCH', json.dumps(r), 'expected', json.dumps(e))
    print(f'points: {n}; identical hit/glyph/inside on all points: {inside_all}/{n}; '
          f'points with expected boundary_margin >= {min_margin}: {nm}, mismatches among them: {bad}; '
          f'max |outline_distance difference|: {dmax:.4f}')
    return 1 if bad or dmax > 0.002 else 0


if __name__ == '__main__':
    sys.exit(main())
