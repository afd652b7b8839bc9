#!/usr/bin/env python3
"""Cross-checks fidelity.py's inputs against FreeType and other independent readings, on the glyphs of a
job file (the oracle itself uses FreeType only for emboldened and hinted outlines).

Usage:
    python3 scripts/curve_exact/fidelity_check.py Tests/InkJobsTests/Fixtures/fidelity-jobs.jsonl \\
        [--all-glyphs] [--other-lib PATH]

1. Variation instances: for every varied font entry, the glyphs used (every glyph with --all-glyphs) of
   fontTools' static instance (fidelity.instance_data: points after the lsb - xMin shift, contour ends,
   on-curve flags) against FreeType's FT_LOAD_NO_SCALE outline after FT_Set_Var_Design_Coordinates.
   fidelity.py assumes a used glyph's points are at most one unit apart in x and in y (u = sqrt(2) units).
2. FreeType builds: the system FreeType (the tool's) against another build (default: the one freetype-py
   bundles), each in its own process: every emboldened / hinted outline the jobs use (points, tags,
   contours, and the "freetype" embolden strength), the varied NO_SCALE outlines of check 1, and how
   each treats a 12.5 px request on a font whose head flags ask for integer ppem (bit 3).
3. CBDT: the ink mask (alpha >= 128) and bearings fidelity.py decodes from the PNG (Pillow) against
   FreeType's FT_LOAD_COLOR bitmap at the same strike (FT_Select_Size), for the glyphs used (all glyphs
   of the strike with --all-glyphs).
4. COLR: v0 layers against FT_Get_Color_Glyph_Layer; each v1 glyph's layers and their affine maps
   (fidelity.colr_layers, fontTools' reading) against the ones built from FreeType's paint records
   (FT_Get_Color_Glyph_Paint / FT_Get_Paint, angles and centres as FreeType reports them); every
   transform paint's map against fontTools' own Paint.getTransform(); clip boxes against
   FT_Get_Color_Glyph_ClipBox at 1 px per unit.
5. COLR unions: every boundary piece of every placed colour glyph (fidelity.UnionShape.flat) has the
   ink on exactly one side (points 0.003 px either side of its midpoint, along the normal), unless
   another piece passes within 0.003 px of that midpoint (at crossings).
6. hb-shape (HarfBuzz's CLI) shapes the colour test font's code points to the glyphs its cmap names.
7. Emboldened / hinted outlines: inside or not, for every job point in the box of such a glyph, by the
   reference (its conversion of FreeType's points and tags, exact curves) and by fontTools'
   PointInsidePen on FreeType's own FT_Outline_Decompose segments (points >= 0.05 px from the outline).
Exit status 1 if any check fails.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import shutil
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fidelity as F  # noqa: E402
import ftlib  # noqa: E402
import reference as R  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROBE_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'


def bundled_lib():
    spec = importlib.util.find_spec('freetype')
    return os.path.join(spec.submodule_search_locations[0], 'libfreetype.so') if spec else None


def load_jobs(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def inventory(jobs):
    """What the jobs use: varied exact outlines {(path, index, coords): gids}, FreeType outlines
    {(setup, gid, size)}, bitmap glyphs {(path, index): gids}, colour fonts {(path, index)}, placed
    colour glyphs [UnionShape]."""
    varied, ft, bitmaps, colr, unions = {}, set(), {}, set(), []
    for job in jobs:
        for gl, st, shape in zip(job['glyphs'], F.glyph_setups(job), F.glyph_shapes(job)):
            gid, size = int(gl['id']), float(gl.get('size', job.get('size')))
            src = F.source(st.path, st.index)
            kind = src.kind(gid)
            if kind == 'colr':
                colr.add((st.path, st.index))
                unions.append(shape)
            elif kind == 'bitmap':
                bitmaps.setdefault((st.path, st.index), set()).add(gid)
            elif kind == 'outline' and (st.embolden is not None or st.hinting != 'none'):
                ft.add((st, gid, size))
            elif kind == 'outline' and st.coords is not None:
                varied.setdefault((st.path, st.index, st.coords), set()).add(gid)
    return varied, ft, bitmaps, colr, unions


def every_glyph(varied, bitmaps):
    """--all-glyphs: every glyph of the varied fonts, every glyph of the bitmap fonts' strikes."""
    varied = {key: set(range(len(F.source(key[0], key[1]).order))) for key in varied}
    out = {}
    for key in bitmaps:
        src = F.source(*key)
        names = set().union(*[set(d) for d in src.tt['CBDT'].strikeData])
        out[key] = {i for i, n in enumerate(src.order) if n in names}
    return varied, out


def no_scale_setup(path, index, coords):
    return F.Setup(path, index, coords, None, None, 'none')


# ------------------------------------------------------------------------------ 1. variation instances

def check_instances(varied, used):
    ok = True
    for (path, index, coords), gids in sorted(varied.items(), key=lambda kv: kv[0][2]):
        fd = F.instance_data(path, index, coords)
        setup = no_scale_setup(path, index, coords)
        worst, differ, worst_used = 0.0, 0, 0.0
        for gid in sorted(gids):
            name = fd.order[gid]
            g = fd.glyf[name]
            pts, tags, ends = F.ft_load(setup, gid, 1.0, ftlib.FT_LOAD_NO_SCALE | ftlib.FT_LOAD_NO_HINTING)
            if g.numberOfContours == 0:
                a, e, on = np.zeros((0, 2)), [], []
            else:
                c, e, flags = g.getCoordinates(fd.glyf)
                shift = fd.hmtx[name][1] - getattr(g, 'xMin', 0)
                a = np.array([(x + shift, y) for x, y in c], dtype=np.float64).reshape(-1, 2)
                on = [bool(f & 1) for f in flags]
            b = np.array(pts, dtype=np.float64).reshape(-1, 2)
            if list(e) != list(ends) or on != [bool(t & 1) for t in tags] or a.shape != b.shape:
                print(f'  FAIL {os.path.basename(path)} {coords} glyph {gid} {name}: structure differs')
                ok = False
                continue
            d = float(np.abs(a - b).max()) if len(a) else 0.0
            differ += d > 0
            worst = max(worst, d)
            if (path, index, coords, gid) in used:
                worst_used = max(worst_used, d)
        bad = worst_used > 1.0
        ok &= not bad
        print(f'  {"FAIL" if bad else "ok  "} {os.path.basename(path)} at {coords}: {len(gids)} glyphs, {differ} '
              f'differ, max {worst:g} units (glyphs the jobs use: max {worst_used:g}; allowed 1)')
    return ok


# --------------------------------------------------------------------------------- 2. FreeType builds

def dump(jobs_path, all_glyphs):
    """Everything checks 2 and 4 take from the FreeType this process loads, as JSON on stdout."""
    varied, ft, bitmaps, colr, _ = inventory(load_jobs(jobs_path))
    if all_glyphs:
        varied, _ = every_glyph(varied, bitmaps)
    lib = ftlib.FreeType()
    out = {'version': '.'.join(map(str, lib.version)), 'outlines': {}, 'strengths': {}, 'probe': {}, 'colr': {}}
    for st, gid, size in sorted(ft, key=repr):
        key = repr((os.path.basename(st.path), st.coords, st.embolden, st.oblique, st.hinting, gid, size))
        out['outlines'][key] = F.ft_load(st, gid, size)
        out['strengths'][key] = F.embolden_strength(st, size)
    for (path, index, coords), gids in varied.items():
        setup = no_scale_setup(path, index, coords)
        for gid in sorted(gids):
            key = repr((os.path.basename(path), coords, 'NO_SCALE', gid))
            out['outlines'][key] = F.ft_load(setup, gid, 1.0, ftlib.FT_LOAD_NO_SCALE | ftlib.FT_LOAD_NO_HINTING)
    src = F.source(PROBE_FONT, 0)
    gid = src.order.index(src.tt.getBestCmap()[ord('H')])
    for mode in F.HINTING:
        st = F.Setup(PROBE_FONT, 0, None, None, None, mode)
        res = {str(size): F.ft_load(st, gid, size) for size in (12, 12.5, 13)}
        m = F.ft_face(st, 12.5).size_metrics
        res['metrics_12.5'] = [m.x_ppem, m.y_ppem, m.x_scale, m.y_scale]
        out['probe'][mode] = res
    for path, index in colr:
        src = F.source(path, index)
        face = lib.face(path, index)
        face.set_size_px(src.upem)   # 1 px per font unit: FreeType's clip box in 26.6 = units * 64
        trees = {n: face.paint_tree(i) for i, n in enumerate(src.order)}
        out['colr'][path] = {
            'v0': {n: face.color_layers(i) for i, n in enumerate(src.order) if n in src.v0},
            'v1': {n: ft_layers(face, t, F.IDENTITY, src.order) for n, t in trees.items() if t is not None},
            'clips': {n: face.clip_box(i) for i, n in enumerate(src.order) if face.clip_box(i) is not None}}
    json.dump(out, sys.stdout)


def run_dump(jobs_path, all_glyphs, lib):
    env = dict(os.environ, INKHIT_FREETYPE_LIB=lib)
    args = [sys.executable, os.path.abspath(__file__), jobs_path, '--dump'] + (['--all-glyphs'] if all_glyphs else [])
    return json.loads(subprocess.run(args, env=env, check=True, capture_output=True, text=True, cwd=ROOT).stdout)


def check_builds(a, b):
    """Compares the dumps of two FreeType builds (a: the system one)."""
    same = differ = 0
    worst = 0
    for key, oa in a['outlines'].items():
        ob = b['outlines'][key]
        if oa == ob:
            same += 1
            continue
        differ += 1
        if oa[1:] != ob[1:] or len(oa[0]) != len(ob[0]):
            print(f'    {key}: tags/contours differ')
            worst = math.inf
        else:
            d = max(max(abs(p[0] - q[0]), abs(p[1] - q[1])) for p, q in zip(oa[0], ob[0]))
            worst = max(worst, d)
            print(f'    {key}: points differ by up to {d} (1/64 px, or font units for NO_SCALE)')
    strengths = sum(a['strengths'][k] != b['strengths'][k] for k in a['strengths'])
    verdict = 'ok  ' if differ == strengths == 0 else 'FAIL'
    print(f'  {verdict} outlines: {same} identical, {differ} differ (max {worst}); '
          f'embolden strengths differing: {strengths}')
    for mode in a['probe']:
        for name, d in (('system', a), ('other', b)):
            r = d['probe'][mode]
            like = [s for s in ('12', '13') if r[s] == r['12.5']]
            outline = f'equals the {like[0]} px one' if like else 'is its own (scale 12.5)'
            print(f'  12.5 px, hinting {mode!r}, FreeType {d["version"]}: size metrics x_ppem, y_ppem, x_scale, '
                  f'y_scale {r["metrics_12.5"]}; outline {outline}')
    return differ == 0 and strengths == 0


# ---------------------------------------------------------------------------------------- 3. CBDT

def check_bitmaps(bitmaps):
    ok = True
    lib = ftlib.FreeType()
    for (path, index), gids in bitmaps.items():
        src = F.source(path, index)
        face = lib.face(path, index)
        for si, strike in enumerate(src.tt['CBLC'].strikes):
            ppem = strike.bitmapSizeTable.ppemY
            face.select_size(si)
            names = src.tt['CBDT'].strikeData[si]
            same = bad = 0
            for gid in sorted(gids):
                if src.order[gid] not in names:
                    continue
                mask, left, top, _ = F.cbdt_bitmap(src, gid, ppem)
                rows, fl, ftop = face.color_bitmap(gid)
                fmask = np.array([np.frombuffer(r, dtype=np.uint8) for r in rows]) >= F.BITMAP_ALPHA_MIN
                if fmask.shape == mask.shape and (fmask == mask).all() and (fl, ftop) == (left, top):
                    same += 1
                else:
                    bad += 1
                    print(f'    glyph {gid}: mask {mask.shape} vs FreeType {fmask.shape}, bearings {(left, top)} '
                          f'vs {(fl, ftop)}')
            ok &= bad == 0
            print(f'  {"ok  " if bad == 0 else "FAIL"} {os.path.basename(path)} strike {ppem} ppem: {same} glyphs '
                  f'identical (mask alpha >= {F.BITMAP_ALPHA_MIN} and bearings), {bad} differ')
    return ok


# ---------------------------------------------------------------------------------------- 4. COLR

def ft_layers(face, tree, M, order):
    """[(layer glyph name, affine)] from FreeType's paint tree (ftlib.Face.paint_tree)."""
    kind = tree[0]
    if kind == 'layers':
        return [x for child in tree[1] for x in ft_layers(face, child, M, order)]
    if kind == 'glyph':
        return [(order[tree[1]], M)]
    if kind == 'colr_glyph':
        return ft_layers(face, face.paint_tree(tree[1]), M, order)
    if kind == 'composite':
        return ft_layers(face, tree[1], M, order) + ft_layers(face, tree[2], M, order)
    v, child = tree[1], tree[2]
    if kind == 'transform':
        N = v
    elif kind == 'translate':
        N = (1.0, 0.0, 0.0, 1.0, v[0], v[1])
    elif kind == 'scale':
        N = F.around((v[2], v[3]), (v[0], 0.0, 0.0, v[1], 0.0, 0.0))
    elif kind == 'rotate':      # FreeType: the angle in units of 180 degrees, as stored
        t = math.pi * v[0]
        N = F.around((v[1], v[2]), (math.cos(t), math.sin(t), -math.sin(t), math.cos(t), 0.0, 0.0))
    elif kind == 'skew':
        N = F.around((v[2], v[3]), (1.0, math.tan(math.pi * v[1]), -math.tan(math.pi * v[0]), 1.0, 0.0, 0.0))
    else:
        raise ValueError(f'unexpected paint {kind}')
    return ft_layers(face, child, F.compose(M, N), order)


def check_colr(colr, dumps):
    """fontTools' reading of the COLR tables (fidelity.py's) against the FreeType builds' (dumps)."""
    ok = True
    for path, index in colr:
        src = F.source(path, index)
        gid = {n: i for i, n in enumerate(src.order)}
        tf_same = tf_all = 0
        for paint in all_paints(src):
            if paint.Format in F.TRANSFORMS:
                tf_all += 1
                d = max(abs(x - y) for x, y in zip(F.TRANSFORMS[paint.Format](paint), tuple(paint.getTransform())))
                tf_same += d < 1e-12
        ok &= tf_same == tf_all
        print(f'  {"ok  " if tf_same == tf_all else "FAIL"} {os.path.basename(path)}: {tf_same}/{tf_all} transform '
              f'paints map as fontTools\' Paint.getTransform() does')
        v1_seen = False
        for d in dumps:
            c = d['colr'][path]
            v0_same = sum(c['v0'].get(b) == [[gid[n], p] for n, p in v0_records(src, b)] for b in src.v0)
            good = v0_same == len(src.v0)
            msg = f'v0 layers equal for {v0_same}/{len(src.v0)} base glyphs; '
            if not c['v1'] and not c['clips']:
                msg += 'no COLR v1 paint and no clip box for any glyph (this build has no COLR v1 API)'
            else:
                v1_seen = True
                v1_same, worst = 0, 0.0
                for base in src.v1:
                    mine, theirs = F.colr_layers(src, base), c['v1'].get(base, [])
                    if [n for n, _ in mine] == [n for n, _ in theirs]:
                        dm = max(max(abs(x - y) for x, y in zip(m1, m2)) for (_, m1), (_, m2) in zip(mine, theirs))
                        worst = max(worst, dm)
                        v1_same += dm < 1e-9
                clip_same = sum(c['clips'].get(n) == [[cb.xMin * 64, cb.yMin * 64], [cb.xMin * 64, cb.yMax * 64],
                                                       [cb.xMax * 64, cb.yMax * 64], [cb.xMax * 64, cb.yMin * 64]]
                                for n, cb in src.clips.items())
                extra = len(c['v1']) - len(src.v1)
                good &= v1_same == len(src.v1) and clip_same == len(src.clips) == len(c['clips']) and extra == 0
                msg += (f'v1 layers and their maps equal those built from FreeType\'s paint records for {v1_same}/'
                        f'{len(src.v1)} base glyphs (max difference {worst:.2g}), FreeType finds {extra} other glyphs '
                        f'with paint; clip boxes {clip_same}/{len(src.clips)}')
            ok &= good
            print(f'  {"ok  " if good else "FAIL"} FreeType {d["version"]}: {msg}')
        if not v1_seen:
            print('  FAIL no FreeType build checked the COLR v1 reading')
            ok = False
    return ok


def v0_records(src, base):
    t = src.tt['COLR'].table
    rec = next(r for r in t.BaseGlyphRecordArray.BaseGlyphRecord if r.BaseGlyph == base)
    layers = t.LayerRecordArray.LayerRecord[rec.FirstLayerIndex:rec.FirstLayerIndex + rec.NumLayers]
    return [(layer.LayerGlyph, layer.PaletteIndex) for layer in layers]


def all_paints(src):
    table = src.tt['COLR'].table
    out = []

    def visit(p):
        out.append(p)
        for c in p.getChildren(table):
            visit(c)
    for p in src.v1.values():
        visit(p)
    return out


# ------------------------------------------------------------------------------------ 5. COLR unions

def check_unions(unions):
    """Each boundary piece must have the ink on exactly one side: points eps = 3 x the flattening
    tolerance either side of its midpoint (the flattened piece is within the tolerance of the exact
    outline).  Near a crossing the probes can reach past another piece; those pieces (another piece
    within eps of the midpoint) are counted apart."""
    eps = 3 * R.FLATTEN_TOL
    pieces = one_side = near_other = 0
    for u in unions:
        S = u.flat
        d = S[:, 2:4] - S[:, 0:2]
        n = np.stack([-d[:, 1], d[:, 0]], axis=1) / np.hypot(d[:, 0], d[:, 1])[:, None]
        mid = 0.5 * (S[:, 0:2] + S[:, 2:4])
        good = u.contains(mid + eps * n) != u.contains(mid - eps * n)
        pieces += len(S)
        one_side += int(good.sum())
        for i in np.nonzero(~good)[0]:
            near_other += R.seg_distance(mid[i:i + 1], np.delete(S, i, axis=0))[0] < eps
    ok = one_side + near_other == pieces
    print(f'  {"ok  " if ok else "FAIL"} {len(unions)} placed colour glyphs, {pieces} boundary pieces: '
          f'{one_side} have the ink on exactly one side ({eps:g} px), {near_other} lie within {eps:g} px of another piece (crossings), '
          f'{pieces - one_side - near_other} neither')
    return ok


# ------------------------------------------------------------------------------------- 6. hb-shape

def check_hb_shape(colr):
    if not shutil.which('hb-shape'):
        print('  skipped: no hb-shape')
        return True
    ok = True
    for path, index in colr:
        src = F.source(path, index)
        cmap = src.tt.getBestCmap()
        cps = sorted(cp for cp in cmap if cp >= 0xE000)
        res = subprocess.run(['hb-shape', '--no-clusters', '--no-positions', path,
                              '-u', ','.join(f'{cp:X}' for cp in cps)], check=True, capture_output=True,
                             text=True, cwd=ROOT).stdout.strip()
        got = res.strip('[]').split('|')
        want = [cmap[cp] for cp in cps]
        good = got == want
        ok &= good
        print(f'  {"ok  " if good else "FAIL"} hb-shape {os.path.basename(path)} U+{cps[0]:04X}..U+{cps[-1]:04X}: '
              f'{res}')
    return ok


# ------------------------------------------------------------------------------ 7. FreeType outlines

def check_ft_winding(jobs, min_distance=0.05):
    """Inside/outside of every job point against every FreeType-path glyph whose box holds it: the
    reference (outline_ops, exact curves) against fontTools' PointInsidePen on FreeType's own
    FT_Outline_Decompose segments (FreeType makes the implied points, as integer 26.6 midpoints: pairs
    closer than min_distance px to the outline are skipped)."""
    from fontTools.pens.pointInsidePen import PointInsidePen
    from fontTools.pens.transformPen import TransformPen
    pairs = same = skipped = 0
    for job in jobs:
        T = R.job_transform(job)
        P = np.array(job['points'], dtype=np.float64)
        for gl, st, shape in zip(job['glyphs'], F.glyph_setups(job), F.glyph_shapes(job)):
            if not isinstance(shape, R.Placed) or shape.ink or (st.embolden is None and st.hinting == 'none'):
                continue
            F.ft_load(st, int(gl['id']), float(gl.get('size', job.get('size'))))
            ops = F.ft_face(st, float(gl.get('size', job.get('size')))).decompose()
            A, o = F.font_to_view(1.0, float(gl['x']), float(gl['y']), T)
            m = R.in_box(P, shape.cbox)
            if not m.any():
                continue
            Q = P[m]
            far = R.seg_distance(Q, shape.flat) >= min_distance
            ref = shape.contains(Q)
            UV = (Q - o) @ np.linalg.inv(A).T
            k = st.oblique or 0.0
            for q, f, r in zip(UV, far, ref):
                if not f:
                    skipped += 1
                    continue
                pen = PointInsidePen(None, (float(q[0]), float(q[1])))
                tp = TransformPen(pen, (1 / 64, 0, k / 64, 1 / 64, 0, 0))
                for op, args in ops:
                    getattr(tp, op)(*args)
                pairs += 1
                same += pen.getResult() == bool(r)
    ok = same == pairs
    print(f'  {"ok  " if ok else "FAIL"} {same}/{pairs} (point, glyph) pairs agree '
          f'({skipped} within {min_distance} px of the outline skipped)')
    return ok


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('jobs')
    ap.add_argument('--all-glyphs', action='store_true')
    ap.add_argument('--other-lib', default=bundled_lib(), help="another FreeType build (default: freetype-py's)")
    ap.add_argument('--dump', action='store_true', help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    jobs_path = os.path.abspath(args.jobs)
    os.chdir(ROOT)   # job font paths may be relative to the package root
    if args.dump:
        return dump(jobs_path, args.all_glyphs)
    varied, ft, bitmaps, colr, unions = inventory(load_jobs(jobs_path))
    used = {(p, i, c, g) for (p, i, c), gids in varied.items() for g in gids}
    if args.all_glyphs:
        varied, bitmaps = every_glyph(varied, bitmaps)
    dumps = [run_dump(jobs_path, args.all_glyphs, ftlib.SYSTEM_LIB)]
    if args.other_lib and os.path.exists(args.other_lib):
        dumps.append(run_dump(jobs_path, args.all_glyphs, args.other_lib))
    print(f'system FreeType {dumps[0]["version"]} ({ftlib.SYSTEM_LIB})'
          + (f'; other FreeType {dumps[1]["version"]} ({args.other_lib})' if len(dumps) > 1 else ''))
    ok = True
    print('1. variation instances (fontTools instancer) vs FreeType NO_SCALE outlines')
    ok &= check_instances(varied, used)
    print('2. FreeType builds')
    if len(dumps) > 1:
        ok &= check_builds(*dumps)
    else:
        print('  skipped: no other FreeType build')
    print('3. CBDT bitmaps (Pillow PNG decode) vs FreeType FT_LOAD_COLOR')
    ok &= check_bitmaps(bitmaps)
    print('4. COLR tables (fontTools) vs FreeType')
    ok &= check_colr(colr, dumps)
    print('5. COLR union boundaries')
    ok &= check_unions(unions)
    print('6. hb-shape')
    ok &= check_hb_shape(colr)
    print('7. FreeType-path outlines: winding vs PointInsidePen on FreeType\'s FT_Outline_Decompose')
    ok &= check_ft_winding(load_jobs(jobs_path))
    print('all checks passed' if ok else 'SOME CHECKS FAILED')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
