#!/usr/bin/env python3
"""Curve-exact reference answers for `ink-hit query` glyph jobs (an oracle independent of the Swift code).

Usage:
    python3 scripts/curve_exact/reference.py JOBS.jsonl > EXPECTED.jsonl
    python3 scripts/curve_exact/reference.py JOBS.jsonl --check EXPECTED.jsonl   # compare with another reference

For every query point of every glyph job (format: README.md "Command line" and `ink-hit query --help`)
it writes
    {"job", "i", "hit", "glyph", "inside", "outline_distance", "boundary_margin"}
in the format of Tests/InkJobsTests/Fixtures/example-expected.jsonl.

How it computes them (all geometry in float64, in view px):

* Outlines, TrueType (`glyf`): `Glyph.getCoordinates(glyf)` decomposes composites in floating
  point; the outline is shifted by `lsb - xMin` (hmtx left side bearing minus the glyf header's xMin),
  which is what FreeType does with FT_LOAD_NO_SCALE (it translates by -pp1.x) and what fontTools'
  glyph set does.  Implied on-curve points between two off-curve points are the exact midpoints;
  a contour with no on-curve point starts at the midpoint of its last and first points.
* Outlines, CFF (`CFF ` table, FontMatrix = 1/unitsPerEm): fontTools' glyph set draws the Type 2
  charstring into a RecordingPen; the coordinates are font units with the glyph origin at (0, 0) and are
  used unchanged (no lsb shift: FreeType's FT_LOAD_NO_SCALE outline of a CFF glyph is the charstring's
  outline as it is).  Every contour is closed (closepath is implied in CFF: a line back to the start
  unless the last point is the start); lineTo to the current point is dropped, as FreeType does;
  curveTo segments are cubic Béziers (qCurveTo from other pens: quadratics, exact implied midpoints).
  selftest.py checks points, tags, contours and segments against FreeType (exactly equal on all glyphs
  of Cantarell, whose charstrings hold integer coordinates only; fractional charstring coordinates
  might be rounded differently by FreeType's 16.16 arithmetic -- the self-test would show it).
* Placement (README.md "Glossary"): font (u, v) -> layout (x + u*s/upem, y - v*s/upem) -> view by the
  job's affine transform [a, b, c, d, tx, ty].  Lines and quadratic and cubic Béziers stay lines,
  quadratics and cubics under an affine map, so the control points are mapped and the curves are used as
  they are.
* inside: nonzero winding of the horizontal ray towards +x against the exact curves.  Curves are split
  into y-monotone parameter ranges: a quadratic at its y-extremum (t* = (y0-y1)/(y0-2y1+y2)), a cubic at
  the real roots of y'(t) in (0, 1) (a quadratic in t, numerically stable formula).  A monotone piece or
  line from yA to yB is crossed iff min(yA,yB) <= py < max(yA,yB) (half-open, so a ray through a shared
  endpoint is counted exactly once; a split value y(t*) is computed once and shared by both pieces).
  The crossing parameter is, for a quadratic, the root of y(t) = py in that range (numerically stable
  formula, clamped to the range); for a cubic, found by bisection on [tA, tB] down to adjacent float64
  values (the bracket holds by the crossing rule, so it never leaves the piece).  The crossing counts
  +-1 (by direction) if x(t) > px.  No flattening is involved.
* outline_distance: unsigned distance to the nearest outline of any glyph of the job, where outlines
  are flattened at 0.001 px in view space with uniform parameter steps and Wang's bound, so the
  Hausdorff distance to the exact curve is at most 0.001 px: a quadratic gets
  n = ceil(sqrt(|P0-2P1+P2| / 0.004)) segments, a cubic n = ceil(sqrt(0.75 * max(|P0-2P1+P2|,
  |P1-2P2+P3|) / 0.001)).  So it is within 0.001 px of the exact curve distance.
* hit / glyph (README.md "The hit rule"): topmost (last in `glyphs`) glyph whose ink contains the point;
  otherwise the glyph whose outline is nearest, if that distance <= radius (ties -> topmost); otherwise a
  miss.
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
from dataclasses import dataclass, field

import numpy as np
from fontTools.pens.basePen import decomposeQuadraticSegment, decomposeSuperBezierSegment
from fontTools.pens.recordingPen import RecordingPen
from fontTools.ttLib import TTFont

FLATTEN_TOL = 0.001  # view px


# --------------------------------------------------------------------------------------------- fonts

def open_font(path: str, index: int) -> TTFont:
    """The font at path, face `index` of a collection (.ttc/.otc), loaded lazily."""
    if path.lower().endswith(('.ttc', '.otc')):
        return TTFont(path, fontNumber=index, lazy=True)
    return TTFont(path, lazy=True)


class FontData:
    def __init__(self, path: str, index: int, tt: TTFont | None = None):
        """The font at path (face index for collections), or `tt` when given (fidelity.py passes a static
        instance of a variable font made by fontTools' instancer)."""
        self.tt = tt if tt is not None else open_font(path, index)
        self.upem = self.tt['head'].unitsPerEm
        self.hmtx = self.tt['hmtx']
        self.order = self.tt.getGlyphOrder()
        if 'glyf' in self.tt:
            self.kind = 'glyf'
            self.glyf = self.tt['glyf']
        elif 'CFF ' in self.tt:
            self.kind = 'CFF'
            self.glyf = None
            top = self.tt['CFF '].cff.topDictIndex[0]
            fm = [float(v) for v in getattr(top, 'FontMatrix', [0.001, 0, 0, 0.001, 0, 0])]
            # fontTools draws charstrings in charstring units; FreeType scales by FontMatrix * upem.
            # They agree only when FontMatrix is the 1/upem identity (the case for the fonts used here).
            if any(abs(a - b) > 1e-12 for a, b in zip(fm, [1.0 / self.upem, 0, 0, 1.0 / self.upem, 0, 0])):
                raise ValueError(f"{path}: CFF FontMatrix {fm} is not 1/unitsPerEm; not supported")
            self.glyph_set = self.tt.getGlyphSet()
        else:
            raise ValueError(f"{path}: only TrueType (glyf) and CFF outlines are supported here "
                             "(bitmap-only fonts: fidelity.py)")
        self._cache: dict[int, tuple[np.ndarray, list[tuple[str, list[int]]]]] = {}

    def outline(self, gid: int):
        """(points (K,2) float64 in font units,
            segments [('L', [i0,i1]) | ('Q', [i0,i1,i2]) | ('C', [i0,i1,i2,i3])]).

        Segment entries index `points`, so segments that share an endpoint share the very same float
        values after any transform (needed for the half-open crossing rule).  TrueType outlines have
        only 'L' and 'Q'; CFF outlines 'L' and 'C'."""
        if gid in self._cache:
            return self._cache[gid]
        if self.kind == 'CFF':
            self._cache[gid] = self._pen_outline(gid)
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

    def pen_recording(self, gid: int):
        """The glyph drawn by fontTools' glyph set into a RecordingPen (CFF: the T2 charstring
        interpreter; coordinates in font units, glyph origin at (0, 0), no lsb shift)."""
        pen = RecordingPen()
        self.glyph_set[self.order[gid]].draw(pen)
        return pen.value

    def _pen_outline(self, gid: int):
        pts, segs = segments_from_recording(self.pen_recording(gid))
        return np.array(pts, dtype=np.float64).reshape(-1, 2), segs

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


def segments_from_recording(ops):
    """Points and segments (the format of FontData.outline) from a fontTools RecordingPen recording.

    Every contour is closed (a fill): closePath and endPath both close it with a line back to the
    contour's start unless the last point is the start already (CFF's closepath is implied).
    Zero-length lineTo segments are dropped (FreeType drops them too; they change neither winding
    nor distance).  curveTo with more than two control points is a fontTools "super Bezier"
    (decomposeSuperBezierSegment); qCurveTo with several off-curve points has exact implied midpoints
    (decomposeQuadraticSegment); qCurveTo ending in None is a TrueType contour with no on-curve point
    (starts and ends at the midpoint of its last and first points).  A contour with a single point
    encloses nothing and has no segments."""
    pts: list[tuple[float, float]] = []
    segs: list[tuple[str, list[int]]] = []

    def add(p):
        pts.append((float(p[0]), float(p[1])))
        return len(pts) - 1

    start = cur = None

    def close():
        nonlocal start, cur
        if start is not None and cur is not None and pts[cur] != pts[start]:
            segs.append(('L', [cur, start]))
        start = cur = None

    for op, args in ops:
        if op == 'moveTo':
            close()
            start = cur = add(args[0])
        elif op == 'lineTo':
            if cur is None:
                raise ValueError('lineTo without moveTo')
            if (float(args[0][0]), float(args[0][1])) != pts[cur]:
                i = add(args[0])
                segs.append(('L', [cur, i]))
                cur = i
        elif op == 'curveTo':
            if cur is None:
                raise ValueError('curveTo without moveTo')
            parts = [args] if len(args) == 3 else decomposeSuperBezierSegment(list(args))
            for c1, c2, p in parts:
                i1, i2, i3 = add(c1), add(c2), add(p)
                segs.append(('C', [cur, i1, i2, i3]))
                cur = i3
        elif op == 'qCurveTo':
            if args[-1] is None:  # closed contour of off-curve points only
                close()
                offs = list(args[:-1])
                m = ((offs[-1][0] + offs[0][0]) * 0.5, (offs[-1][1] + offs[0][1]) * 0.5)
                start = cur = add(m)
                parts = decomposeQuadraticSegment(offs + [m])
                for c, p in parts[:-1]:
                    ic, ip = add(c), add(p)
                    segs.append(('Q', [cur, ic, ip]))
                    cur = ip
                ic = add(parts[-1][0])
                segs.append(('Q', [cur, ic, start]))
                cur = start
                continue
            if cur is None:
                raise ValueError('qCurveTo without moveTo')
            for c, p in decomposeQuadraticSegment(list(args)):
                ic, ip = add(c), add(p)
                segs.append(('Q', [cur, ic, ip]))
                cur = ip
        elif op in ('closePath', 'endPath'):
            close()
        else:
            raise ValueError(f'unsupported pen operation {op}')
    close()
    return pts, segs


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
    cpieces: np.ndarray = field(default_factory=lambda: np.zeros((0, 12)))
    #                        (C, 12): x0 y0 x1 y1 x2 y2 x3 y3 tA tB yA yB, y-monotone cubic pieces
    u: float = 0.0         # how far (view px) the true outline may lie from this one (answer_job)
    ink: str | None = None  # 'box' for a glyph whose ink is its advance box (fidelity.py), echoed on hits

    def contains(self, P: np.ndarray) -> np.ndarray:
        """Whether each point (N,2) lies in the ink (nonzero winding against the exact curves)."""
        return winding(P, self) != 0


def cubic_eval(c0, c1, c2, c3, t):
    """Bernstein form of a cubic coordinate; exactly c0 at t = 0 and exactly c3 at t = 1."""
    mt = 1.0 - t
    return mt * mt * mt * c0 + 3.0 * mt * mt * t * c1 + 3.0 * mt * t * t * c2 + t * t * t * c3


def cubic_y_extrema(y0, y1, y2, y3):
    """Sorted distinct parameters t in (0, 1) where y'(t) = 0 (real roots of the derivative).

    y'(t)/3 = a t^2 + b t + c with a = -y0 + 3y1 - 3y2 + y3, b = 2(y0 - 2y1 + y2), c = y1 - y0; roots by
    the numerically stable formula (q = -(b + sign(b) sqrt(disc))/2, t = q/a and c/q).  A negative
    discriminant or a derivative that vanishes identically gives no split (the cubic is monotone in y)."""
    a = -y0 + 3.0 * y1 - 3.0 * y2 + y3
    b = 2.0 * (y0 - 2.0 * y1 + y2)
    c = y1 - y0
    roots = []
    if a == 0.0:
        if b != 0.0:
            roots.append(-c / b)
    else:
        disc = b * b - 4.0 * a * c
        if disc >= 0.0:
            q = -0.5 * (b + math.copysign(math.sqrt(disc), b))
            roots.append(q / a)
            if q != 0.0:
                roots.append(c / q)
    return sorted({t for t in roots if 0.0 < t < 1.0})


def place(fd: FontData, gid: int, x: float, y: float, size: float, T, key) -> Placed:
    pts, segs = fd.outline(gid)
    return place_outline(pts, segs, size / fd.upem, x, y, T, key)


def place_outline(pts: np.ndarray, segs, k: float, x: float, y: float, T, key) -> Placed:
    """An outline (points and segments in the format of FontData.outline, y-up) placed at origin (x, y):
    glyph point (u, v) -> layout (x + u k, y - v k) -> view by T.  k = size / upem for font units,
    1 for outlines already in px."""
    a, b, c, d, tx, ty = T
    # view = M @ (u, v) + o  with lx = x + u k, ly = y - v k
    m00, m01, o0 = a * k, -c * k, a * x + c * y + tx
    m10, m11, o1 = b * k, -d * k, b * x + d * y + ty
    if len(pts):
        vx = m00 * pts[:, 0] + m01 * pts[:, 1] + o0
        vy = m10 * pts[:, 0] + m11 * pts[:, 1] + o1
    else:
        vx = vy = np.zeros(0)
    lines, qs, cs = [], [], []
    for kind, idx in segs:
        if kind == 'L':
            lines.append((vx[idx[0]], vy[idx[0]], vx[idx[1]], vy[idx[1]]))
        elif kind == 'Q':
            qs.append((vx[idx[0]], vy[idx[0]], vx[idx[1]], vy[idx[1]], vx[idx[2]], vy[idx[2]]))
        else:
            cs.append(tuple(float(v) for i in idx for v in (vx[i], vy[i])))
    lines = np.array(lines, dtype=np.float64).reshape(-1, 4)
    qs = np.array(qs, dtype=np.float64).reshape(-1, 6)
    cs = np.array(cs, dtype=np.float64).reshape(-1, 8)

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

    # y-monotone pieces of the cubics: split at the real roots of y'(t) in (0, 1); each split value
    # y(t_k) is computed once and shared by the two pieces that meet there (half-open rule).
    cpieces = []
    for c in cs:
        ts = cubic_y_extrema(c[1], c[3], c[5], c[7])
        tk = [0.0] + ts + [1.0]
        yk = [c[1]] + [cubic_eval(c[1], c[3], c[5], c[7], t) for t in ts] + [c[7]]
        for j in range(len(tk) - 1):
            cpieces.append(tuple(c) + (tk[j], tk[j + 1], yk[j], yk[j + 1]))
    cpieces = np.array(cpieces, dtype=np.float64).reshape(-1, 12)

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
    if len(cs):
        # Wang's formula for cubics: |B''| <= 6 max|second differences|, chord error <= |B''| h^2 / 8
        # pointwise in t, so n = ceil(sqrt(0.75 * max(|P0-2P1+P2|, |P1-2P2+P3|) / tol)) segments bound
        # the Hausdorff distance by tol.
        D1 = np.hypot(cs[:, 0] - 2 * cs[:, 2] + cs[:, 4], cs[:, 1] - 2 * cs[:, 3] + cs[:, 5])
        D2 = np.hypot(cs[:, 2] - 2 * cs[:, 4] + cs[:, 6], cs[:, 3] - 2 * cs[:, 5] + cs[:, 7])
        ns = np.maximum(1, np.ceil(np.sqrt(0.75 * np.maximum(D1, D2) / FLATTEN_TOL))).astype(int)
        for c, n in zip(cs, ns):
            t = np.linspace(0.0, 1.0, n + 1)
            px = cubic_eval(c[0], c[2], c[4], c[6], t)
            py = cubic_eval(c[1], c[3], c[5], c[7], t)
            px[0], py[0], px[-1], py[-1] = c[0], c[1], c[6], c[7]
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
    return Placed(lines, qpieces, flat, cbox, fbox, key, cpieces)


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
    # monotone cubic pieces: the crossing parameter by bisection on [tA, tB] to full float64 precision
    if len(g.cpieces):
        Cp = g.cpieces
        yA, yB = Cp[None, :, 10], Cp[None, :, 11]
        Y = py[:, None]
        up = (yA <= Y) & (Y < yB)
        dn = (yB <= Y) & (Y < yA)
        ii, jj = np.nonzero(up | dn)
        if len(ii):
            t = cubic_crossing(Cp[jj], py[ii])
            c = Cp[jj]
            xc = cubic_eval(c[:, 0], c[:, 2], c[:, 4], c[:, 6], t)
            s = np.where(c[:, 11] > c[:, 10], 1, -1)
            np.add.at(w, ii, np.where(xc > px[ii], s, 0))
    return w


def cubic_crossing(c: np.ndarray, yp: np.ndarray) -> np.ndarray:
    """Parameter t in [tA, tB] where the y-monotone cubic piece c (rows of cpieces) reaches yp, for rows
    with min(yA, yB) <= yp < max(yA, yB).

    Bisection keeps the bracket f(lo) <= 0 <= f(hi) with f = (y(t) - yp) * sign(yB - yA), starting from
    [tA, tB] where it holds by the crossing rule, and halves until the midpoint equals an end (adjacent
    float64 values); so it never leaves the piece and needs no derivative.  yp == yA gives tA exactly.
    The end with the smaller |f| is returned."""
    y0, y1, y2, y3, tA, tB, qa, qb = (c[:, i] for i in (1, 3, 5, 7, 8, 9, 10, 11))
    sgn = np.where(qb > qa, 1.0, -1.0)
    lo, hi = tA.copy(), tB.copy()
    active = np.ones(len(c), dtype=bool)
    for _ in range(1100):
        mid = 0.5 * (lo + hi)
        active &= (mid > lo) & (mid < hi)
        if not active.any():
            break
        f = (cubic_eval(y0, y1, y2, y3, mid) - yp) * sgn
        go_right = active & (f <= 0.0)
        go_left = active & ~(f <= 0.0)
        lo = np.where(go_right, mid, lo)
        hi = np.where(go_left, mid, hi)
    flo = np.abs(cubic_eval(y0, y1, y2, y3, lo) - yp)
    fhi = np.abs(cubic_eval(y0, y1, y2, y3, hi) - yp)
    t = np.where(flo <= fhi, lo, hi)
    return np.where(yp == qa, tA, t)


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

FIDELITY_KEYS = ('variations', 'instance', 'embolden', 'oblique', 'hinting')
FIDELITY_TABLES = ('COLR', 'SVG ')


def job_transform(job: dict) -> list[float]:
    return [float(v) for v in (job.get('transform') or [1, 0, 0, 1, 0, 0])]


def glyph_key(gl: dict, size) -> tuple:
    """(font, id, size, x, y): glyphs with equal keys are exact duplicates (they tie everywhere)."""
    return (int(gl.get('font', 0)), int(gl['id']), float(gl.get('size', size)), float(gl['x']), float(gl['y']))


def glyph_shapes(job: dict) -> list[Placed]:
    """The job's glyphs placed in view px with their exact font-unit outlines.  Jobs that use the
    font-fidelity fields or colour fonts are fidelity.py's (it calls answer_job with its own shapes)."""
    for where in [job] + list(job['fonts']) + list(job['glyphs']):
        used = [k for k in FIDELITY_KEYS if k in where]
        if used:
            raise ValueError(f"job {job['id']!r} uses {used}: answer it with fidelity.py")
    fonts = [font_data(f['path'], int(f.get('index', 0))) for f in job['fonts']]
    for f, fd in zip(job['fonts'], fonts):
        tables = [t for t in FIDELITY_TABLES if t in fd.tt]
        if tables:
            raise ValueError(f"{f['path']} has {tables}: answer job {job['id']!r} with fidelity.py")
    T = job_transform(job)
    placed = []
    for gl in job['glyphs']:
        key = glyph_key(gl, job.get('size'))
        fi, gid, s, x, y = key
        placed.append(place(fonts[fi], gid, x, y, s, T, key))
    return placed


def answer_job(job: dict, shapes: list | None = None) -> list[dict]:
    """Answers for every point of a glyph job.  `shapes` (default: glyph_shapes(job)) are the placed
    glyphs: objects with contains(P), flat, cbox, fbox, key, u and ink like Placed.  A shape's u widens
    the uncertain band around its outline: every margin term involving the shape is reduced by its u."""
    jid = job['id']
    r = float(job.get('radius') or 0.0)
    placed = glyph_shapes(job) if shapes is None else shapes
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
            inside[m, gi] = g.contains(P[m])

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

    U = np.array([g.u for g in placed], dtype=np.float64)
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
        margin = float(np.min(d - U))
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
                        margin = min(margin, max(d[gi] - r, (d[gi] - d1) / 2.0) - U[gi] - U[g1])
        if r > 0:
            fin = np.isfinite(d)
            if fin.any():
                margin = min(margin, float(np.min(np.abs(d[fin] - r) - U[fin])))
        margin = min(1.0, max(0.0, margin))
        rec.update(hit=glyph is not None, glyph=glyph, inside=bool(len(ins)),
                   outline_distance=round(dmin, 4), boundary_margin=round(margin, 4))
        if glyph is not None and placed[glyph].ink:
            rec['ink'] = placed[glyph].ink
        out.append(rec)
    return out


def main(argv=None, answer=None, description=None):
    """Answers (or, with --check, checks) a jobs file with `answer` (default: this module's answer_job)."""
    answer = answer or answer_job
    ap = argparse.ArgumentParser(description=description or __doc__.split('\n')[0])
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
            res = answer(json.loads(line))
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
