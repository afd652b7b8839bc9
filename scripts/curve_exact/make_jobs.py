#!/usr/bin/env python3
"""Builds the held-out glyph jobs (HarfBuzz-shaped text + seeded random query points) and their
curve-exact answers.

Usage (from the package root):
    python3 scripts/curve_exact/make_jobs.py --out Tests/InkJobsTests/Fixtures
writes  heldout-jobs.jsonl      one `ink-hit query` glyph job per line (`ink-hit query --help` format)
        heldout-expected.jsonl  one answer per point, in job order (scripts/curve_exact/reference.py)

Requires: pip install fonttools uharfbuzz numpy; fonts-dejavu-core/-extra and fonts-droid-fallback.
Everything is deterministic: fixed seeds per job (crc32 of the job id).

Shaping: uharfbuzz with the font's default features (kerning, ligatures, mark positioning), code
points added one by one so `cluster` is the code-point index in the line's text.  A glyph's origin is
(pen_x + x_offset*s/upem, baseline - y_offset*s/upem) with pen_x advanced by x_advance*s/upem
(HarfBuzz positions are y-up font units; layout space is y-down px).  Lines are spaced by the font's
hhea ascender - descender + lineGap.

Query points (view px), per job:
    25 %  uniform over the view-space box of the ink, grown by radius + 2 px;
    50 %  on the outline (a point of the view-space outline, chosen by arc length), then moved in a
          uniformly random direction by a uniform distance in [0, 1] px;
    25 %  the same with distance in [0, radius + 1] px when radius > 0, or in [0, 0.3] px when radius = 0
          (points very close to the ink, which a coarse flattening would get wrong).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import zlib

import numpy as np
import uharfbuzz as hb
from fontTools.ttLib import TTFont

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference  # noqa: E402

DV = '/usr/share/fonts/truetype/dejavu/'
SANS = DV + 'DejaVuSans.ttf'
SANS_BOLD = DV + 'DejaVuSans-Bold.ttf'
SERIF = DV + 'DejaVuSerif.ttf'
MONO = DV + 'DejaVuSansMono.ttf'
MATH = DV + 'DejaVuMathTeXGyre.ttf'
DROID = '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf'

_hb_fonts: dict[str, tuple] = {}


def hb_font(path):
    if path not in _hb_fonts:
        blob = hb.Blob.from_file_path(path)
        face = hb.Face(blob)
        font = hb.Font(face)
        tt = TTFont(path, lazy=True)
        hhea = tt['hhea']
        _hb_fonts[path] = (font, face.upem, hhea.ascent, hhea.descent, hhea.lineGap, tt)
    return _hb_fonts[path]


def line_height(path, size):
    _, upem, asc, desc, gap, _ = hb_font(path)
    return (asc - desc + gap) * size / upem


def ascent(path, size):
    _, upem, asc, _, _, _ = hb_font(path)
    return asc * size / upem


def shape_line(path, text, size, x, baseline, font_index, cluster_base=0, size_override=False):
    """Shaped glyphs of one line as job glyph dicts, and the pen position after the line."""
    font, upem, *_ = hb_font(path)
    buf = hb.Buffer()
    buf.add_codepoints([ord(c) for c in text])
    buf.guess_segment_properties()
    hb.shape(font, buf, {})
    k = size / upem
    out = []
    pen = x
    for info, pos in zip(buf.glyph_infos, buf.glyph_positions):
        g = {'font': font_index, 'id': int(info.codepoint),
             'x': round(pen + pos.x_offset * k, 6), 'y': round(baseline - pos.y_offset * k, 6),
             'cluster': int(info.cluster) + cluster_base}
        if size_override:
            g['size'] = size
        out.append(g)
        pen += pos.x_advance * k
    return out, pen


def paragraph(path, lines, size, x, top, font_index=0):
    glyphs = []
    base = top + ascent(path, size)
    cl = 0
    for ln in lines:
        gs, _ = shape_line(path, ln, size, x, base, font_index, cluster_base=cl)
        glyphs += gs
        cl += len(ln) + 1
        base += line_height(path, size)
    return glyphs


def glyph_id(path, ch):
    tt = hb_font(path)[5]
    name = tt.getBestCmap()[ord(ch)]
    return tt.getGlyphID(name)


def advance(path, gid, size):
    tt = hb_font(path)[5]
    return tt['hmtx'].metrics[tt.getGlyphOrder()[gid]][0] * size / tt['head'].unitsPerEm


# ------------------------------------------------------------------------------------------ points

def make_points(job, n, seed, shapes=None):
    """Query points around the outlines of `shapes` (default: reference.glyph_shapes(job))."""
    rng = np.random.default_rng(seed)
    r = float(job.get('radius', 0) or 0)
    if shapes is None:
        shapes = reference.glyph_shapes(job)
    S = np.concatenate([p.flat for p in shapes], axis=0)
    lens = np.hypot(S[:, 2] - S[:, 0], S[:, 3] - S[:, 1])
    cdf = np.cumsum(lens)
    cdf /= cdf[-1]
    pad = r + 2.0
    x0 = min(S[:, 0].min(), S[:, 2].min()) - pad
    x1 = max(S[:, 0].max(), S[:, 2].max()) + pad
    y0 = min(S[:, 1].min(), S[:, 3].min()) - pad
    y1 = max(S[:, 1].max(), S[:, 3].max()) + pad

    def on_outline(m, dmax):
        idx = np.searchsorted(cdf, rng.random(m))
        idx = np.minimum(idx, len(S) - 1)
        t = rng.random(m)
        px = S[idx, 0] + t * (S[idx, 2] - S[idx, 0])
        py = S[idx, 1] + t * (S[idx, 3] - S[idx, 1])
        ang = rng.random(m) * 2 * math.pi
        d = rng.random(m) * dmax
        return np.stack([px + d * np.cos(ang), py + d * np.sin(ang)], axis=1)

    n_uni = n // 4
    n_near = n // 2
    n_r = n - n_uni - n_near
    uni = np.stack([rng.uniform(x0, x1, n_uni), rng.uniform(y0, y1, n_uni)], axis=1)
    near = on_outline(n_near, 1.0)
    far = on_outline(n_r, r + 1.0 if r > 0 else 0.3)
    P = np.concatenate([uni, near, far], axis=0)
    P = P[rng.permutation(len(P))]
    return [[round(float(a), 4), round(float(b), 4)] for a, b in P]


# -------------------------------------------------------------------------------------------- jobs

LATIN = [
    'AVATAR Wave To. Yes, Type LAVA, VAT, WA. Tr\u00fc T\u00ebxt',
    'Kerning: AV Ty Te Yo P. F, r. y, "quoted" (parens) {x} [j] g\u00e9',
    'Quick brown fox jumps over the lazy dog: 0123456789 @#&%?! \u00c5\u00c9\u00d1',
]
SERIF_PARA = [
    'Rotated text: Wave AVATAR, offline & affine, 42%.',
    'Serifs hit by ink: gjpqy @ {braces} \u00e6\u00f8\u00e5 \u00df',
    'The quick brown fox \u2014 jumps over the lazy dog.',
]
MONO_PARA = [
    'func hit(_ p: Point) -> Glyph? {',
    '    return index.query(p, r: 3.5) // O0 Il1 {}[]',
    '}  @ #include <stdio.h> ~!$%^&*',
]


def base_job(jid, fonts, size, glyphs, radius=0.0, transform=None, note=None):
    job = {'id': jid, 'fonts': [{'path': f, 'index': 0} for f in fonts], 'size': size}
    if transform is not None:
        job['transform'] = [round(v, 15) for v in transform]
    job['radius'] = radius
    job['glyphs'] = glyphs
    if note:
        job['note'] = note
    return job


def jobs():
    out = []
    # 1-2: Latin paragraph, DejaVu Sans 16 px, kerning, 3 lines.
    g = paragraph(SANS, LATIN, 16, 10.0, 8.0)
    for r in (0.0, 3.5):
        out.append((base_job(f'latin-sans16-r{r:g}', [SANS], 16, g, radius=r,
                             note='DejaVu Sans 16 px, 3 lines, HarfBuzz kerning'), 500))
    # 3: ligatures, DejaVu Sans (ffi, fl ligatures) + DejaVu Serif (ff ligature), two fonts in one job.
    b1 = 10 + ascent(SANS, 36)
    g1, _ = shape_line(SANS, 'ffi fl office flow', 36, 10.0, b1, 0)
    g2, _ = shape_line(SERIF, 'ffi fl affluent', 36, 10.0, b1 + line_height(SANS, 36), 1, cluster_base=100)
    out.append((base_job('ligatures-sans-serif36', [SANS, SERIF], 36, g1 + g2,
                         note='DejaVu Sans ffi/fl ligatures, DejaVu Serif ff ligature'), 450))
    # 4: combining marks positioned by HarfBuzz (some compose to precomposed composite glyphs).
    b1 = 10 + ascent(SANS, 40)
    g1, _ = shape_line(SANS, 'e\u0301 a\u0308 n\u0303 o\u0323\u0302 q\u0303 x\u0301 k\u0302 b\u0330 j\u0308',
                       40, 10.0, b1, 0)
    g2, _ = shape_line(SERIF, 'q\u0303 k\u0302 \u014b\u0308 p\u0307\u0323 y\u0323\u0302 g\u0301', 40, 10.0,
                       b1 + line_height(SANS, 40), 1, cluster_base=100)
    out.append((base_job('marks-sans-serif40', [SANS, SERIF], 40, g1 + g2,
                         note='combining marks, overlapping their bases; composites (precomposed)'), 500))
    # 5: astral-plane letters (Mathematical Alphanumerics) from three fonts, per-glyph size override.
    b1 = 10 + ascent(SANS, 32)
    g1, p = shape_line(SANS, '\U0001D5A0\U0001D5A1\U0001D5A2\U0001D5BA\U0001D5BB \U0001D538\U0001D539\U0001D552',
                       32, 10.0, b1, 0)
    g2, _ = shape_line(SERIF, '\U0001D434\U0001D435\U0001D44E\U0001D44F\U0001D450', 32, 10.0,
                       b1 + line_height(SANS, 32), 1, cluster_base=100)
    g3, _ = shape_line(MATH, '\U0001D400\U0001D401\U0001D41A\U0001D41B\U0001D6A8', 40, 10.0,
                       b1 + 2 * line_height(SANS, 32) + 6, 2, cluster_base=200, size_override=True)
    out.append((base_job('astral-math-letters', [SANS, SERIF, MATH], 32, g1 + g2 + g3,
                         note='U+1D5A0.. (Sans), U+1D434.. (Serif), U+1D400.. (MathTeXGyre, upem 1000, size 40)'),
                450))
    # 6: CJK line, Droid Sans Fallback 24 px.
    g = paragraph(DROID, ['漢字の当たり判定テスト', '鬱蒼とした森、龍の鳴き声。「ー」'], 24, 10.0, 8.0)
    out.append((base_job('cjk-droid24', [DROID], 24, g, note='Droid Sans Fallback 24 px'), 500))
    # 7-8: overlapping glyphs: "OOO" at 30 % of the advance, a glyph drawn twice at the same spot, more.
    s = 64
    o = glyph_id(SANS_BOLD, 'O')
    adv = advance(SANS_BOLD, o, s)
    base = 10 + ascent(SANS_BOLD, s)
    g = [{'font': 0, 'id': o, 'x': round(10 + i * 0.3 * adv, 6), 'y': round(base, 6), 'cluster': i}
         for i in range(3)]
    x = 10 + 2 * 0.3 * adv + adv + 10
    eight = glyph_id(SANS_BOLD, '8')
    g += [{'font': 0, 'id': eight, 'x': round(x, 6), 'y': round(base, 6), 'cluster': 3},
          {'font': 0, 'id': eight, 'x': round(x, 6), 'y': round(base, 6), 'cluster': 4}]
    x += advance(SANS_BOLD, eight, s) + 10
    for j, (ch, dx, dy) in enumerate([('o', 0.0, 0.0), ('x', 7.25, -3.5), ('g', 3.125, 1.75),
                                      ('o', 21.0, 0.0)]):
        gid = glyph_id(SANS_BOLD, ch)
        g.append({'font': 0, 'id': gid, 'x': round(x + dx, 6), 'y': round(base + dy, 6), 'cluster': 5 + j})
    for r in (0.0, 2.0):
        out.append((base_job(f'overlap-sansbold64-r{r:g}', [SANS_BOLD], s, g, radius=r,
                             note='OOO at 30% advance; "8" twice at one spot; o x g o overlapping'), 450))
    # 9-12: single glyphs at 200 px.
    for jid, path, ch in [('single-at-sans200', SANS, '@'), ('single-g-serif200', SERIF, 'g'),
                          ('single-B-mono200', MONO, 'B'), ('single-cjk-droid200', DROID, '鬱')]:
        gid = glyph_id(path, ch)
        g = [{'font': 0, 'id': gid, 'x': 20.0, 'y': round(20 + ascent(path, 200), 6), 'cluster': 0}]
        out.append((base_job(jid, [path], 200, g, note=f'U+{ord(ch):04X} at 200 px'), 350))
    # 13-14: 30 degree rotation of a DejaVu Serif paragraph.
    a = math.radians(30)
    T = [math.cos(a), math.sin(a), -math.sin(a), math.cos(a), 80.0, 10.0]
    g = paragraph(SERIF, SERIF_PARA, 18, 0.0, 0.0)
    for r in (0.0, 3.5):
        out.append((base_job(f'rot30-serif18-r{r:g}', [SERIF], 18, g, radius=r, transform=T,
                             note='DejaVu Serif 18 px rotated 30 degrees'), 500))
    # 15-16: 2.5x scale of a DejaVu Sans Mono paragraph.
    T = [2.5, 0.0, 0.0, 2.5, 5.0, 5.0]
    g = paragraph(MONO, MONO_PARA, 12, 4.0, 2.0)
    for r in (0.0, 3.5):
        out.append((base_job(f'scale2.5-mono12-r{r:g}', [MONO], 12, g, radius=r, transform=T,
                             note='DejaVu Sans Mono 12 px scaled 2.5x'), 500))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', required=True, help='folder for heldout-jobs.jsonl / heldout-expected.jsonl')
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    jp = os.path.join(args.out, 'heldout-jobs.jsonl')
    ep = os.path.join(args.out, 'heldout-expected.jsonl')
    with open(jp, 'w') as f:
        for job, n in jobs():
            job['points'] = make_points(job, n, zlib.crc32(job['id'].encode()))
            f.write(json.dumps(job, separators=(',', ':'), ensure_ascii=False) + '\n')
    # expected answers are computed from the file as written (rounded coordinates)
    with open(jp) as f, open(ep, 'w') as g:
        for line in f:
            job = json.loads(line)
            for rec in reference.answer_job(job):
                g.write(json.dumps(rec) + '\n')
    print(f'wrote {jp} ({os.path.getsize(jp)} bytes) and {ep} ({os.path.getsize(ep)} bytes)')


if __name__ == '__main__':
    main()
