#!/usr/bin/env python3
"""Curve-exact answers for glyph jobs with the font-fidelity fields (variations, named instances,
embolden, oblique, hinting) and for colour and bitmap glyphs (COLR v0/v1, CBDT, SVG-only glyphs).

Usage:
    python3 scripts/curve_exact/fidelity.py JOBS.jsonl > EXPECTED.jsonl
    python3 scripts/curve_exact/fidelity.py JOBS.jsonl --check EXPECTED.jsonl

It answers every glyph job: a job without the new fields and without colour fonts gets exactly
reference.py's answers (same code: reference.answer_job with the shapes built here).  Output format: that
of reference.py, plus "ink": "box" on a hit of a glyph whose ink is its advance box.

The shape of a glyph (the contract the tool is judged by):

* Settings.  Per font entry: "variations" {axis tag: design value} (clamped to the axis range) and
  "instance" (a named instance by subfamily name, ASCII case-insensitive, or a 0-based index; variations
  apply on top).  On the job, a font entry or a glyph (the nearest wins): "embolden" (a number: x = y
  strength in layout px; [x, y]; or
  "freetype": FT_GlyphSlot_Embolden's strength FT_MulFix(units_per_EM, y_scale) / 24 in 26.6), "oblique"
  (k: x += k*y in the glyph's y-up frame; "freetype": 0x0366A / 65536) and "hinting" ("none" | "light" |
  "full").  A zero strength or k is the same as leaving the field out.
* Exact outline: with no embolden and hinting "none", the exact font-unit outline (reference.py) of the
  glyph -- of the static instance made by fontTools' instancer (instantiateVariableFont, every axis
  pinned, saved so coordinates are whole units as in a font file) when the entry has variations or an
  instance.  FreeType varies glyphs in 16.16 fixed point (normalized coordinates not rounded to F2Dot14,
  one rounding of each point's summed delta), fontTools in float64 (F2Dot14 coordinates): the two
  instances may put a point one unit apart in x and y.  Such glyphs get u = sqrt(2) units in view px
  (see below); fidelity_check.py verifies the bound against FreeType for every glyph used.
* FreeType outline: otherwise the outline FreeType gives a renderer, through ftlib.py (the system
  FreeType, as the tool links it; $INKHIT_FREETYPE_LIB chooses another): FT_Set_Var_Design_Coordinates
  (when varied), FT_Set_Char_Size(face, 0, round(size * 64), 72, 72), FT_Load_Glyph(gid, FT_LOAD_NO_BITMAP
  | NO_HINTING / TARGET_LIGHT / TARGET_NORMAL), then FT_Outline_EmboldenXY with round(x * 64),
  round(y * 64) (or the "freetype" strength on both axes).  Points / 64 are px, y-up, from the origin;
  conic tags make exact quadratics (implied on-curve points are exact midpoints), cubic tags cubics.
* Oblique: x += k*y on the control points (font units or px), float64, after emboldening.
* COLR (v1 paint graph if the glyph has one, else v0 layers): the union of the layer glyphs' exact
  outlines, each under the affine map of the transforms above it (PaintTransform, Translate, Scale,
  Rotate, Skew and their AroundCenter / Uniform forms; PaintColrLayers, PaintColrGlyph and both sides of
  PaintComposite are walked), intersected with the glyph's ClipBox when it has one.  Rotation and skew
  angles are counter-clockwise: rotate (x, y) -> (x cos - y sin, x sin + y cos); skew
  (x, y) -> (x - y tan(xSkewAngle), y + x tan(ySkewAngle)).  The ClipBox of a glyph reached through
  PaintColrGlyph is not applied.  Fills outside a PaintGlyph, a PaintGlyph inside a PaintGlyph's fill,
  variable paints and variable clip boxes are refused (not in the contract).
* Bitmap-only fonts (CBDT, no outlines): the strike pixels with alpha >= 128, each a square: the
  smallest strike with ppem >= the glyph's view px per em (size times the transform's largest singular
  value), else the largest; s = size / ppem; pixel (col, row) of a bitmap with bearings (left, top)
  covers layout x in x0 + (left + col) s ... + s, y in y0 - (top - row) s ... + s.  The PNG is decoded
  with Pillow; FreeType is not used.  u = half a strike pixel in view px minus 0.05 px, so points within
  half a pixel of the staircase have margin < 0.05.
* SVG: a glyph with an SVG document and no outline is its advance box, x 0 ... advance, y hhea descender
  ... ascender (font units); hits on it are answered with "ink": "box".
* Embolden, oblique, hinting and variations are refused on colour, bitmap and box glyphs (not defined).

Distances and margins as in reference.py, with the ink boundary flattened at 0.001 px: for a COLR
glyph the boundary of the union (each layer's outline outside the other layers and inside the clip,
and the clip box's edges inside the union: the flattened pieces between crossings, kept by the exact
winding of their midpoints); for a bitmap glyph the pixel staircase.  A shape's u (view px) is
subtracted from every margin term involving it (reference.answer_job).
"""
from __future__ import annotations

import io
import json
import math
import os
import sys
from dataclasses import dataclass

import numpy as np
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables.otTables import PaintFormat as PF
from fontTools.varLib import instancer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ftlib  # noqa: E402  (loads no library until a FreeType outline is needed)
import reference as R  # noqa: E402

VAR_TOLERANCE_UNITS = math.sqrt(2.0)   # instancer vs FreeType: a point may move one unit in x and in y
FREETYPE_OBLIQUE = 0x0366A / 65536.0
BITMAP_ALPHA_MIN = 128
HINTING = ('none', 'light', 'full')


# ------------------------------------------------------------------------------------------ settings

@dataclass(frozen=True)
class Setup:
    """The effective settings of a font entry's glyphs (or of one glyph with its own settings)."""
    path: str
    index: int
    coords: tuple | None          # design coordinates in fvar axis order (clamped); None: not varied
    embolden: tuple | str | None  # (x px, y px), 'freetype', or None
    oblique: float | None
    hinting: str


def parse_embolden(v):
    if v is None or v == 'freetype':
        return v
    if isinstance(v, bool):
        raise ValueError(f'embolden {v!r}')
    if isinstance(v, (int, float)):
        xy = (float(v), float(v))
    elif isinstance(v, list) and len(v) == 2 and all(isinstance(a, (int, float)) and not isinstance(a, bool)
                                                     for a in v):
        xy = (float(v[0]), float(v[1]))
    else:
        raise ValueError(f'embolden {v!r}: a number, [x, y] or "freetype"')
    return None if xy == (0.0, 0.0) else xy


def parse_oblique(v):
    if v is None:
        return None
    if v == 'freetype':
        return FREETYPE_OBLIQUE
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ValueError(f'oblique {v!r}: a number or "freetype"')
    return float(v) or None


def design_coords(tt: TTFont, entry: dict) -> tuple:
    """Design coordinates (fvar axis order) of a font entry's "instance" and "variations", clamped to
    the axis ranges as FreeType clamps them."""
    if 'fvar' not in tt:
        raise ValueError(f"{entry['path']}: variations or instance on a font without fvar")
    fvar = tt['fvar']
    coords = {a.axisTag: a.defaultValue for a in fvar.axes}
    inst = entry.get('instance')
    if inst is not None:
        if isinstance(inst, int) and not isinstance(inst, bool):
            if not 0 <= inst < len(fvar.instances):
                raise ValueError(f'instance {inst} out of range ({len(fvar.instances)} named instances)')
            coords.update(fvar.instances[inst].coordinates)
        elif isinstance(inst, str):
            key = inst.encode().lower()   # ASCII case-insensitive
            found = [i for i in fvar.instances
                     if (tt['name'].getDebugName(i.subfamilyNameID) or '').encode().lower() == key]
            if len(found) != 1:
                raise ValueError(f'instance {inst!r}: {len(found)} named instances have that name')
            coords.update(found[0].coordinates)
        else:
            raise ValueError(f'instance {inst!r}: a name or an index')
    for tag, v in (entry.get('variations') or {}).items():
        if tag not in coords:
            raise ValueError(f'variations: no axis {tag!r}')
        coords[tag] = float(v)
    return tuple(min(max(float(coords[a.axisTag]), a.minValue), a.maxValue) for a in fvar.axes)


STYLE_KEYS = ('embolden', 'oblique', 'hinting')


def font_setup(job: dict, entry: dict, glyph: dict | None = None) -> Setup:
    """The settings of a font entry's glyphs, or of one glyph (its own embolden / oblique / hinting win
    over the entry's, which win over the job's)."""
    def setting(name):
        for where in (glyph or {}, entry):
            if name in where:
                return where[name]
        return job.get(name)
    path, index = entry['path'], int(entry.get('index', 0))
    hinting = setting('hinting') or 'none'
    if hinting not in HINTING:
        raise ValueError(f'hinting {hinting!r}: one of {HINTING}')
    coords = None
    if 'variations' in entry or 'instance' in entry:
        coords = design_coords(source(path, index).tt, entry)
    return Setup(path, index, coords, parse_embolden(setting('embolden')), parse_oblique(setting('oblique')),
                 hinting)


# -------------------------------------------------------------------------------------------- fonts

class Source:
    """A font file as the shapes need it: outlines (reference.FontData), COLR, SVG and CBDT data."""

    def __init__(self, path: str, index: int):
        self.path, self.index = path, index
        tt = self.tt = R.open_font(path, index)
        self.fd = R.FontData(path, index, tt=tt) if ('glyf' in tt or 'CFF ' in tt) else None
        self.order = tt.getGlyphOrder()
        self.upem = tt['head'].unitsPerEm
        self.v0, self.v1, self.layer_list, self.clips = {}, {}, [], {}
        if 'COLR' in tt:
            colr = tt['COLR']
            if colr.version == 0:
                self.v0 = {base: [layer.name for layer in layers] for base, layers in colr.ColorLayers.items()}
            else:
                t = colr.table
                layers = t.LayerRecordArray.LayerRecord if t.LayerRecordArray else []
                for rec in (t.BaseGlyphRecordArray.BaseGlyphRecord if t.BaseGlyphRecordArray else []):
                    self.v0[rec.BaseGlyph] = [layers[i].LayerGlyph for i in
                                              range(rec.FirstLayerIndex, rec.FirstLayerIndex + rec.NumLayers)]
                if t.BaseGlyphList:
                    self.v1 = {rec.BaseGlyph: rec.Paint for rec in t.BaseGlyphList.BaseGlyphPaintRecord}
                self.layer_list = t.LayerList.Paint if t.LayerList else []
                self.clips = t.ClipList.clips if t.ClipList else {}
        self.svg = set()
        if 'SVG ' in tt:
            for doc in tt['SVG '].docList:
                self.svg.update(range(doc.startGlyphID, doc.endGlyphID + 1))
        self.bitmap_only = self.fd is None and 'CBDT' in tt and 'CBLC' in tt

    def kind(self, gid: int) -> str:
        if not 0 <= gid < len(self.order):
            raise ValueError(f'{self.path}: glyph id {gid} out of range ({len(self.order)} glyphs)')
        name = self.order[gid]
        if name in self.v1 or name in self.v0:
            return 'colr'
        if self.bitmap_only:
            return 'bitmap'
        if self.fd is None:
            raise ValueError(f'{self.path}: no outlines, COLR or CBDT')
        if gid in self.svg and not self.fd.outline(gid)[1]:
            return 'box'
        return 'outline'


_sources: dict[tuple, Source] = {}


def source(path: str, index: int) -> Source:
    if (path, index) not in _sources:
        _sources[(path, index)] = Source(path, index)
    return _sources[(path, index)]


_instances: dict[tuple, R.FontData] = {}


def instance_data(path: str, index: int, coords: tuple) -> R.FontData:
    """reference.FontData of the static instance at design coordinates `coords` (fontTools' instancer,
    every axis pinned; saved and reloaded so the glyf coordinates are whole units as in a font file)."""
    key = (path, index, coords)
    if key not in _instances:
        vf = TTFont(path, fontNumber=index) if path.lower().endswith(('.ttc', '.otc')) else TTFont(path)
        loc = {a.axisTag: v for a, v in zip(vf['fvar'].axes, coords)}
        inst = instancer.instantiateVariableFont(vf, loc, static=True)
        buf = io.BytesIO()
        inst.save(buf)
        buf.seek(0)
        _instances[key] = R.FontData(path, index, tt=TTFont(buf))
    return _instances[key]


# ----------------------------------------------------------------------------------- FreeType outlines

_faces: dict[tuple, object] = {}


def ft_face(setup: Setup, size: float):
    """The FreeType face of a setup (one per file, face index and variation coordinates) at size px."""
    key = (setup.path, setup.index, setup.coords)
    if key not in _faces:
        face = ftlib.FreeType().face(setup.path, setup.index)
        if setup.coords is not None:
            face.set_var_design(setup.coords)
        _faces[key] = face
    face = _faces[key]
    face.set_size_px(size)
    return face


def fixed_mul(a: int, b: int) -> int:
    """FT_MulFix: (a * b) / 65536 rounded half away from zero."""
    s = -1 if (a < 0) != (b < 0) else 1
    return s * ((abs(a) * abs(b) + 0x8000) >> 16)


def round26_6(v: float) -> int:
    return int(math.copysign(math.floor(abs(v) * 64.0 + 0.5), v))


def embolden_strength(setup: Setup, size: float) -> tuple[int, int] | None:
    """The embolden strengths (26.6) FT_Outline_EmboldenXY gets for a glyph at size px, or None."""
    if setup.embolden is None:
        return None
    if setup.embolden == 'freetype':   # FT_GlyphSlot_Embolden
        face = ft_face(setup, size)
        s = fixed_mul(face.upem, face.size_metrics.y_scale) // 24
        return s, s
    return round26_6(setup.embolden[0]), round26_6(setup.embolden[1])


def ft_load(setup: Setup, gid: int, size: float, flags: int | None = None):
    """The glyph's outline as FreeType loads (and emboldens) it at size px: (points in 26.6, tags,
    contour ends).  flags default to the setup's hinting mode (with FT_LOAD_NO_BITMAP)."""
    strength = embolden_strength(setup, size)
    face = ft_face(setup, size)
    if flags is None:
        flags = ftlib.FT_LOAD_NO_BITMAP | {'none': ftlib.FT_LOAD_NO_HINTING, 'light': ftlib.FT_LOAD_TARGET_LIGHT,
                                           'full': ftlib.FT_LOAD_TARGET_NORMAL}[setup.hinting]
    face.load(gid, flags)
    if strength is not None:
        face.embolden(*strength)
    return face.outline()


_ft_outlines: dict[tuple, tuple] = {}


def ft_outline(setup: Setup, gid: int, size: float):
    """(points (K,2) px y-up, segments) of the glyph as FreeType loads (and emboldens) it at size px."""
    key = (setup.path, setup.index, setup.coords, setup.embolden, setup.hinting, gid, size)
    if key not in _ft_outlines:
        pts, tags, ends = ft_load(setup, gid, size)
        ops = outline_ops([(x / 64.0, y / 64.0) for x, y in pts], tags, ends)
        p, segs = R.segments_from_recording(ops)
        _ft_outlines[key] = (np.array(p, dtype=np.float64).reshape(-1, 2), segs)
    return _ft_outlines[key]


def outline_ops(points, tags, ends):
    """A FreeType outline (points, tags, contour ends) as pen operations for
    reference.segments_from_recording.  Tags: bit 0 on-curve; off-curve points are conic (quadratic
    control, consecutive ones with implied midpoints) or, with bit 1, cubic (in pairs).  Each contour is
    started at its first on-curve point (the same closed curve as FreeType's decomposition); a contour of
    conic points only is a qCurveTo ending in None."""
    ops = []
    start = 0
    for end in ends:
        idx = list(range(start, end + 1))
        start = end + 1
        on = [bool(tags[i] & ftlib.FT_CURVE_TAG_ON) for i in idx]
        cubic = [not on[j] and bool(tags[i] & ftlib.FT_CURVE_TAG_CUBIC) for j, i in enumerate(idx)]
        if not any(on):
            if any(cubic):
                raise ValueError('a contour of cubic control points only')
            ops.append(('qCurveTo', tuple(points[i] for i in idx) + (None,)))
            ops.append(('closePath', ()))
            continue
        k = on.index(True)
        order = [(idx[(k + j) % len(idx)], on[(k + j) % len(idx)], cubic[(k + j) % len(idx)])
                 for j in range(len(idx))]
        first = points[order[0][0]]
        ops.append(('moveTo', (first,)))
        pending, kinds = [], set()
        for i, is_on, is_cubic in order[1:] + [(order[0][0], True, False)]:
            if not is_on:
                pending.append(points[i])
                kinds.add(is_cubic)
                continue
            p = points[i]
            if not pending:
                ops.append(('lineTo', (p,)))
            elif kinds == {False}:
                ops.append(('qCurveTo', tuple(pending) + (p,)))
            elif kinds == {True} and len(pending) == 2:
                ops.append(('curveTo', (pending[0], pending[1], p)))
            else:
                raise ValueError(f'unsupported control points {len(pending)} (cubic: {kinds})')
            pending, kinds = [], set()
        ops.append(('closePath', ()))
    return ops


# ----------------------------------------------------------------------------------------- geometry

def sigma_max(T) -> float:
    """Largest singular value of the linear part of T = [a, b, c, d, tx, ty]."""
    return float(np.linalg.norm(np.array([[T[0], T[2]], [T[1], T[3]]]), 2))


def font_to_view(k: float, x: float, y: float, T):
    """(A, o): view = A @ (u, v) + o for glyph point (u, v) (y-up, scale k) placed at origin (x, y)."""
    a, b, c, d, tx, ty = T
    A = np.array([[a * k, -c * k], [b * k, -d * k]])
    o = np.array([a * x + c * y + tx, b * x + d * y + ty])
    return A, o


def compose(M, N):
    """M after N, affine maps (a, b, c, d, e, f): x' = a x + c y + e, y' = b x + d y + f."""
    a, b, c, d, e, f = M
    a2, b2, c2, d2, e2, f2 = N
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2,
            a * e2 + c * f2 + e, b * e2 + d * f2 + f)


IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def around(center, M):
    cx, cy = center
    return compose((1.0, 0.0, 0.0, 1.0, cx, cy), compose(M, (1.0, 0.0, 0.0, 1.0, -cx, -cy)))


def apply_affine(M, pts: np.ndarray) -> np.ndarray:
    a, b, c, d, e, f = M
    return np.stack([a * pts[:, 0] + c * pts[:, 1] + e, b * pts[:, 0] + d * pts[:, 1] + f], axis=1)


def segment_crossings(A: np.ndarray, B: np.ndarray, chunk: int = 256):
    """Parameters t on the segments A (n,4) where they cross segments B (m,4): (indices into A, t).
    Parallel pairs are skipped (the shapes here have no collinear overlapping edges)."""
    ia_all, t_all = [], []
    if len(A) == 0 or len(B) == 0:
        return np.zeros(0, dtype=int), np.zeros(0)
    bx0, bx1 = np.minimum(B[:, 0], B[:, 2]), np.maximum(B[:, 0], B[:, 2])
    by0, by1 = np.minimum(B[:, 1], B[:, 3]), np.maximum(B[:, 1], B[:, 3])
    for s in range(0, len(A), chunk):
        a = A[s:s + chunk]
        ax0, ax1 = np.minimum(a[:, 0], a[:, 2]), np.maximum(a[:, 0], a[:, 2])
        ay0, ay1 = np.minimum(a[:, 1], a[:, 3]), np.maximum(a[:, 1], a[:, 3])
        near = ((ax0[:, None] <= bx1[None, :]) & (bx0[None, :] <= ax1[:, None]) &
                (ay0[:, None] <= by1[None, :]) & (by0[None, :] <= ay1[:, None]))
        ii, jj = np.nonzero(near)
        if not len(ii):
            continue
        p, q = a[ii], B[jj]
        rx, ry = p[:, 2] - p[:, 0], p[:, 3] - p[:, 1]
        sx, sy = q[:, 2] - q[:, 0], q[:, 3] - q[:, 1]
        den = rx * sy - ry * sx
        wx, wy = q[:, 0] - p[:, 0], q[:, 1] - p[:, 1]
        with np.errstate(divide='ignore', invalid='ignore'):
            t = (wx * sy - wy * sx) / den
            v = (wx * ry - wy * rx) / den
        ok = (den != 0) & (t >= 0) & (t <= 1) & (v >= 0) & (v <= 1)
        ia_all.append(ii[ok] + s)
        t_all.append(t[ok])
    if not ia_all:
        return np.zeros(0, dtype=int), np.zeros(0)
    return np.concatenate(ia_all), np.concatenate(t_all)


def split_segments(S: np.ndarray, others: np.ndarray):
    """The segments S cut at every crossing with `others`: (pieces (K,4), midpoints (K,2))."""
    ia, t = segment_crossings(S, others)
    cuts = [[0.0, 1.0] for _ in range(len(S))]
    for i, tv in zip(ia.tolist(), t.tolist()):
        cuts[i].append(tv)
    pieces = []
    for i, ts in enumerate(cuts):
        ts = sorted(set(ts))
        x0, y0, x1, y1 = S[i]
        for t0, t1 in zip(ts[:-1], ts[1:]):
            if t1 > t0:
                pieces.append((x0 + t0 * (x1 - x0), y0 + t0 * (y1 - y0), x0 + t1 * (x1 - x0), y0 + t1 * (y1 - y0)))
    P = np.array(pieces, dtype=np.float64).reshape(-1, 4)
    return P, 0.5 * (P[:, 0:2] + P[:, 2:4])


def box_of(flat: np.ndarray):
    if not len(flat):
        return (np.inf, np.inf, -np.inf, -np.inf)
    return (min(flat[:, 0].min(), flat[:, 2].min()), min(flat[:, 1].min(), flat[:, 3].min()),
            max(flat[:, 0].max(), flat[:, 2].max()), max(flat[:, 1].max(), flat[:, 3].max()))


# ------------------------------------------------------------------------------------------- shapes

class UnionShape:
    """A COLR glyph: the union of placed layer outlines (reference.Placed), optionally intersected with
    a clip box given in font units (A, o: the font-to-view map of the glyph)."""

    def __init__(self, layers, clip, A, o, key):
        self.layers, self.key, self.u, self.ink = layers, key, 0.0, None
        self.clip = None
        if clip is not None:
            self.clip = (np.asarray(clip, dtype=np.float64), np.linalg.inv(A), o)
        sets = [g.flat for g in layers]
        if clip is not None:
            x0, y0, x1, y1 = clip
            corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64) @ A.T + o
            sets.append(np.concatenate([corners, np.roll(corners, -1, axis=0)], axis=1))
        kept = []
        for i, S in enumerate(sets):
            others = [sets[j] for j in range(len(sets)) if j != i]
            pieces, mid = split_segments(S, np.concatenate(others, axis=0) if others else np.zeros((0, 4)))
            if clip is not None and i == len(sets) - 1:     # the clip box's edges inside the union
                keep = self._in_layers(mid)
            else:                                           # a layer's outline outside the other layers
                keep = ~self._in_layers(mid, skip=i)
                if clip is not None:
                    keep &= self._in_clip(mid)
            kept.append(pieces[keep])
        self.flat = np.concatenate(kept, axis=0) if kept else np.zeros((0, 4))
        self.fbox = box_of(self.flat)
        boxes = [g.cbox for g in layers if np.isfinite(g.cbox[0])]
        self.cbox = (min(b[0] for b in boxes), min(b[1] for b in boxes),
                     max(b[2] for b in boxes), max(b[3] for b in boxes)) if boxes else (np.inf,) * 2 + (-np.inf,) * 2

    def _in_layers(self, P, skip=None):
        res = np.zeros(len(P), dtype=bool)
        for j, g in enumerate(self.layers):
            if j == skip:
                continue
            m = R.in_box(P, g.cbox) & ~res
            if m.any():
                res[m] = g.contains(P[m])
        return res

    def _in_clip(self, P):
        box, Ainv, o = self.clip
        U = (P - o) @ Ainv.T
        return (U[:, 0] >= box[0]) & (U[:, 0] <= box[2]) & (U[:, 1] >= box[1]) & (U[:, 1] <= box[3])

    def contains(self, P):
        res = self._in_layers(P)
        if self.clip is not None:
            res &= self._in_clip(P)
        return res


class BitmapShape:
    """A bitmap glyph: the union of its ink pixels, squares of side s layout px."""

    def __init__(self, mask: np.ndarray, left: int, top: int, s: float, x: float, y: float, T, key):
        self.mask, self.left, self.top, self.s = mask, left, top, s
        self.key, self.ink = key, None
        a, b, c, d, tx, ty = T
        self.L = np.array([[a, c], [b, d]])
        self.t = np.array([tx, ty])
        self.Linv = np.linalg.inv(self.L)
        self.origin = np.array([x, y])
        self.u = max(0.0, 0.5 * s * sigma_max(T) - 0.05)
        H, W = mask.shape
        pad = np.zeros((H + 2, W + 2), dtype=bool)
        pad[1:-1, 1:-1] = mask
        segs = []
        # horizontal pixel edges at row line r (between rows r-1 and r), runs of equal columns merged
        hor = pad[:-1, 1:-1] != pad[1:, 1:-1]          # (H+1, W)
        for r in range(H + 1):
            for c0, c1 in runs(hor[r]):
                segs.append((c0, r, c1, r))
        ver = pad[1:-1, :-1] != pad[1:-1, 1:]          # (H, W+1)
        for c in range(W + 1):
            for r0, r1 in runs(ver[:, c]):
                segs.append((c, r0, c, r1))
        S = np.array(segs, dtype=np.float64).reshape(-1, 4)
        ends = np.concatenate([self._to_view(S[:, 0:2]), self._to_view(S[:, 2:4])], axis=1)
        self.flat = ends
        self.fbox = self.cbox = box_of(ends)

    def _to_view(self, CR):
        lx = self.origin[0] + (self.left + CR[:, 0]) * self.s
        ly = self.origin[1] - (self.top - CR[:, 1]) * self.s
        return np.stack([lx, ly], axis=1) @ self.L.T + self.t

    def contains(self, P):
        Lp = (P - self.t) @ self.Linv.T
        col = np.floor((Lp[:, 0] - self.origin[0]) / self.s - self.left).astype(np.int64)
        row = np.floor((Lp[:, 1] - self.origin[1]) / self.s + self.top).astype(np.int64)
        H, W = self.mask.shape
        ok = (row >= 0) & (row < H) & (col >= 0) & (col < W)
        res = np.zeros(len(P), dtype=bool)
        res[ok] = self.mask[row[ok], col[ok]]
        return res


def runs(flags: np.ndarray):
    """[(start, end)] of the runs of True in a 1-D boolean array (end exclusive)."""
    d = np.diff(np.concatenate([[0], flags.astype(np.int8), [0]]))
    return list(zip(np.nonzero(d == 1)[0].tolist(), np.nonzero(d == -1)[0].tolist()))


def cbdt_bitmap(src: Source, gid: int, view_ppem: float):
    """(ink mask (rows, cols), left, top, ppem) of a CBDT glyph at the strike chosen for view_ppem."""
    from PIL import Image
    name = src.order[gid]
    strikes = [(st.bitmapSizeTable.ppemY, i) for i, st in enumerate(src.tt['CBLC'].strikes)
               if name in src.tt['CBDT'].strikeData[i]]
    if not strikes:
        raise ValueError(f'{src.path}: glyph {gid} is in no CBDT strike')
    strikes.sort()
    ppem, i = next(((p, i) for p, i in strikes if p >= view_ppem), strikes[-1])
    bm = src.tt['CBDT'].strikeData[i][name]
    m = getattr(bm, 'metrics', None)
    if m is None or not hasattr(bm, 'imageData'):
        raise ValueError(f'{src.path}: glyph {gid}: CBDT format without its own metrics and PNG')
    img = Image.open(io.BytesIO(bm.imageData))
    alpha = np.array(img.convert('RGBA'))[:, :, 3]
    if alpha.shape != (m.height, m.width):
        raise ValueError(f'{src.path}: glyph {gid}: PNG {alpha.shape} vs metrics {(m.height, m.width)}')
    return alpha >= BITMAP_ALPHA_MIN, m.BearingX, m.BearingY, ppem


def colr_layers(src: Source, name: str):
    """[(layer glyph name, affine in font units)] of a COLR base glyph: v1 paint graph, else v0 layers."""
    if name not in src.v1:
        return [(layer, IDENTITY) for layer in src.v0[name]]
    out = []

    def no_glyphs(paint, where):
        if paint.Format in (PF.PaintGlyph, PF.PaintColrGlyph, PF.PaintColrLayers):
            raise ValueError(f'{name}: {paint.getFormatName()} inside the fill of {where} (not in the contract)')
        for child in paint.getChildren(src.tt['COLR'].table):
            no_glyphs(child, where)

    def walk(paint, M, stack):
        f = paint.Format
        if PF(f).is_variable():
            raise ValueError(f'{name}: variable paint {paint.getFormatName()} is not supported')
        if f == PF.PaintColrLayers:
            for j in range(paint.FirstLayerIndex, paint.FirstLayerIndex + paint.NumLayers):
                walk(src.layer_list[j], M, stack)
        elif f == PF.PaintGlyph:
            no_glyphs(paint.Paint, paint.Glyph)
            out.append((paint.Glyph, M))
        elif f == PF.PaintColrGlyph:
            if paint.Glyph in stack or paint.Glyph not in src.v1:
                raise ValueError(f'{name}: PaintColrGlyph {paint.Glyph}: a cycle or no v1 paint')
            walk(src.v1[paint.Glyph], M, stack + (paint.Glyph,))
        elif f == PF.PaintComposite:
            walk(paint.SourcePaint, M, stack)
            walk(paint.BackdropPaint, M, stack)
        elif f in TRANSFORMS:
            walk(paint.Paint, compose(M, TRANSFORMS[f](paint)), stack)
        else:
            raise ValueError(f'{name}: {paint.getFormatName()} outside a PaintGlyph (ink not defined)')

    walk(src.v1[name], IDENTITY, (name,))
    return out


def _rotate(deg):
    t = math.radians(deg)
    return (math.cos(t), math.sin(t), -math.sin(t), math.cos(t), 0.0, 0.0)


def _skew(xdeg, ydeg):
    return (1.0, math.tan(math.radians(ydeg)), -math.tan(math.radians(xdeg)), 1.0, 0.0, 0.0)


TRANSFORMS = {   # paint format -> its affine map (fontTools gives angles in degrees, F2Dot14 x 180)
    PF.PaintTransform: lambda p: (p.Transform.xx, p.Transform.yx, p.Transform.xy, p.Transform.yy,
                                  p.Transform.dx, p.Transform.dy),
    PF.PaintTranslate: lambda p: (1.0, 0.0, 0.0, 1.0, p.dx, p.dy),
    PF.PaintScale: lambda p: (p.scaleX, 0.0, 0.0, p.scaleY, 0.0, 0.0),
    PF.PaintScaleAroundCenter: lambda p: around((p.centerX, p.centerY), (p.scaleX, 0.0, 0.0, p.scaleY, 0.0, 0.0)),
    PF.PaintScaleUniform: lambda p: (p.scale, 0.0, 0.0, p.scale, 0.0, 0.0),
    PF.PaintScaleUniformAroundCenter: lambda p: around((p.centerX, p.centerY), (p.scale, 0.0, 0.0, p.scale, 0.0, 0.0)),
    PF.PaintRotate: lambda p: _rotate(p.angle),
    PF.PaintRotateAroundCenter: lambda p: around((p.centerX, p.centerY), _rotate(p.angle)),
    PF.PaintSkew: lambda p: _skew(p.xSkewAngle, p.ySkewAngle),
    PF.PaintSkewAroundCenter: lambda p: around((p.centerX, p.centerY), _skew(p.xSkewAngle, p.ySkewAngle)),
}


def colr_shape(src: Source, gid: int, size: float, x: float, y: float, T, key) -> UnionShape:
    name = src.order[gid]
    k = size / src.upem
    layers, seen = [], set()
    for layer, M in colr_layers(src, name):
        if (layer, M) in seen:      # an exact duplicate covers the same region
            continue
        seen.add((layer, M))
        pts, segs = src.fd.outline(src.order.index(layer))
        layers.append(R.place_outline(apply_affine(M, pts) if len(pts) else pts, segs, k, x, y, T, None))
    clip = None
    if name in src.v1 and name in src.clips:
        cb = src.clips[name]
        if cb.Format != 1:
            raise ValueError(f'{name}: variable ClipBox is not supported')
        clip = (cb.xMin, cb.yMin, cb.xMax, cb.yMax)
    A, o = font_to_view(k, x, y, T)
    return UnionShape(layers, clip, A, o, key)


def box_shape(src: Source, gid: int, size: float, x: float, y: float, T, key) -> R.Placed:
    adv = src.tt['hmtx'][src.order[gid]][0]
    hhea = src.tt['hhea']
    pts = np.array([[0, hhea.descent], [adv, hhea.descent], [adv, hhea.ascent], [0, hhea.ascent]], dtype=np.float64)
    p = R.place_outline(pts, [('L', [0, 1]), ('L', [1, 2]), ('L', [2, 3]), ('L', [3, 0])], size / src.upem,
                        x, y, T, key)
    p.ink = 'box'
    return p


def glyph_shape(setup: Setup, gid: int, size: float, x: float, y: float, T, key):
    src = source(setup.path, setup.index)
    kind = src.kind(gid)
    if kind != 'outline':
        if setup.coords is not None or setup.embolden or setup.oblique or setup.hinting != 'none':
            raise ValueError(f'{setup.path}: glyph {gid} ({kind}): variations, embolden, oblique and hinting '
                             'are defined for outline glyphs only')
        if kind == 'colr':
            return colr_shape(src, gid, size, x, y, T, key)
        if kind == 'box':
            return box_shape(src, gid, size, x, y, T, key)
        mask, left, top, ppem = cbdt_bitmap(src, gid, size * sigma_max(T))
        return BitmapShape(mask, left, top, size / ppem, x, y, T, key)
    u = 0.0
    if setup.embolden is None and setup.hinting == 'none':
        fd = src.fd if setup.coords is None else instance_data(setup.path, setup.index, setup.coords)
        pts, segs = fd.outline(gid)
        k = size / fd.upem
        if setup.coords is not None:
            u = VAR_TOLERANCE_UNITS * k * sigma_max(T)
    else:
        pts, segs = ft_outline(setup, gid, size)
        k = 1.0
    if setup.oblique and len(pts):
        pts = np.stack([pts[:, 0] + setup.oblique * pts[:, 1], pts[:, 1]], axis=1)
    p = R.place_outline(pts, segs, k, x, y, T, key)
    p.u = u
    return p


def glyph_setups(job: dict) -> list[Setup]:
    """The settings of each glyph of the job."""
    fonts = [font_setup(job, f) for f in job['fonts']]
    out = []
    for gl in job['glyphs']:
        fi = int(gl.get('font', 0))
        own = any(k in gl for k in STYLE_KEYS)
        out.append(font_setup(job, job['fonts'][fi], gl) if own else fonts[fi])
    return out


def glyph_shapes(job: dict) -> list:
    """The job's glyphs placed in view px as shapes for reference.answer_job."""
    T = R.job_transform(job)
    shapes = []
    for gl, setup in zip(job['glyphs'], glyph_setups(job)):
        key = R.glyph_key(gl, job.get('size'))
        _, gid, s, x, y = key
        shapes.append(glyph_shape(setup, gid, s, x, y, T, key))
    return shapes


def answer_job(job: dict) -> list[dict]:
    return R.answer_job(job, glyph_shapes(job))


def main(argv=None):
    return R.main(argv, answer=answer_job, description=__doc__.split('\n')[0])


if __name__ == '__main__':
    sys.exit(main())
