#!/usr/bin/env python3
"""Builds the "CFF" glyph jobs: Cantarell (OpenType/CFF, cubic outlines) at several weights, sizes and
transforms, one job mixing Cantarell with DejaVu Sans (TrueType), and their curve-exact answers
(reference.py, exact cubics for the winding, Wang-bounded flattening for the distance).

Usage (from the package root; needs fonttools uharfbuzz numpy, fonts-cantarell and fonts-dejavu-core):
    python3 scripts/curve_exact/make_cff_jobs.py --out Tests/InkJobsTests/Fixtures
writes cff-jobs.jsonl and cff-expected.jsonl. Deterministic (seeds: crc32 of each job id + 11).
Shaping and point sampling are make_jobs.py's (HarfBuzz default features; 25 % uniform over the ink's
box grown by r + 2 px, 50 % within 1 px of the outline, 25 % within r + 1 px, or 0.3 px at r = 0).
"""
import argparse
import json
import math
import os
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_jobs as M  # noqa: E402
import reference  # noqa: E402

CANT = '/usr/share/fonts/opentype/cantarell/'
REG = CANT + 'Cantarell-Regular.otf'
BOLD = CANT + 'Cantarell-Bold.otf'
THIN = CANT + 'Cantarell-Thin.otf'
XBOLD = CANT + 'Cantarell-ExtraBold.otf'
LIGHT = CANT + 'Cantarell-Light.otf'
SANS = M.SANS  # DejaVu Sans, TrueType
for _p in [REG, BOLD, THIN, XBOLD, LIGHT, SANS]:
    assert os.path.exists(_p), _p

PARA = [
    'AVATAR Wave To. Yes, Type LAVA, VAT, WA. Tr\u00fc T\u00ebxt',
    'Kerning: AV Ty Te Yo P. F, r. y, \u201cquoted\u201d (parens) {x} [j] g\u00e9',
    'Quick brown fox jumps over the lazy dog: 0123456789 @#&%?! \u00c5\u00c9\u00d1',
]
BOLD_PARA = [
    'Rotated bold: Wave AVATAR, offline & affine, 42%.',
    'Curves hit by ink: gjpqy @ {braces} \u00e6\u00f8\u00e5 \u00df',
]
THIN_PARA = ['Thin hairlines: ellipse @ & 8', 'Wavy AVAWAY \u00d8 \u0153 \u20ac 0123']
SHEAR_PARA = ['Sheared light text, c = 0.3: sQuiggly', 'fjord & waffle \u2014 \u00bfOk? 5678']
ANISO_PARA = ['{[(anisotropic 2.5 \u00d7 0.8)]}', 'ssss mmm www @ % $']


def check_cmap(path, lines):
    cmap = M.hb_font(path)[5].getBestCmap()
    missing = [c for ln in lines for c in ln if ord(c) not in cmap]
    assert not missing, (path, missing)


def jobs():
    out = []

    def add(jid, fonts, size, glyphs, r=0.0, T=None, n=400, note=None):
        out.append((M.base_job(jid, fonts, size, glyphs, radius=r, transform=T, note=note), n))

    # 1-2: Cantarell Regular paragraph, 16 px, 3 lines.
    check_cmap(REG, PARA)
    g = M.paragraph(REG, PARA, 16, 10.0, 8.0)
    for r in (0.0, 3.5):
        add(f'cff-para-regular16-r{r:g}', [REG], 16, g, r,
            note='Cantarell Regular (CFF) 16 px, 3 lines, HarfBuzz kerning')
    # 3-4: Cantarell Thin 48 px (hairline strokes).
    check_cmap(THIN, THIN_PARA)
    g = M.paragraph(THIN, THIN_PARA, 48, 6.0, 4.0)
    for r in (0.0, 2.0):
        add(f'cff-thin48-r{r:g}', [THIN], 48, g, r, note='Cantarell Thin (CFF) 48 px, hairlines')
    # 5-9: single glyphs at 200 px.
    for ch, path, wname in [('g', REG, 'Regular'), ('&', LIGHT, 'Light'), ('@', REG, 'Regular'),
                            ('Q', BOLD, 'Bold'), ('B', XBOLD, 'ExtraBold')]:
        gid = M.glyph_id(path, ch)
        g = [{'font': 0, 'id': gid, 'x': 20.0, 'y': round(20 + M.ascent(path, 200), 6), 'cluster': 0}]
        add(f'cff-single-U+{ord(ch):04X}-{wname.lower()}200', [path], 200, g,
            note=f'Cantarell {wname} (CFF) U+{ord(ch):04X} at 200 px')
    # 10-11: Cantarell Bold 18 px rotated 30 degrees.
    check_cmap(BOLD, BOLD_PARA)
    a = math.radians(30)
    T = [math.cos(a), math.sin(a), -math.sin(a), math.cos(a), 80.0, 10.0]
    g = M.paragraph(BOLD, BOLD_PARA, 18, 0.0, 0.0)
    for r in (0.0, 3.5):
        add(f'cff-rot30-bold18-r{r:g}', [BOLD], 18, g, r, T,
            note='Cantarell Bold (CFF) 18 px rotated 30 degrees')
    # 12-13: overlapping Cantarell ExtraBold glyphs: "OOO" at 30 % of the advance, an "8" twice at one spot.
    s = 64
    o = M.glyph_id(XBOLD, 'O')
    adv = M.advance(XBOLD, o, s)
    base = 10 + M.ascent(XBOLD, s)
    g = [{'font': 0, 'id': o, 'x': round(10 + i * 0.3 * adv, 6), 'y': round(base, 6), 'cluster': i}
         for i in range(3)]
    x = 10 + 2 * 0.3 * adv + adv + 10
    eight = M.glyph_id(XBOLD, '8')
    g += [{'font': 0, 'id': eight, 'x': round(x, 6), 'y': round(base, 6), 'cluster': 3},
          {'font': 0, 'id': eight, 'x': round(x, 6), 'y': round(base, 6), 'cluster': 4}]
    for r in (0.0, 2.0):
        add(f'cff-overlap-xbold64-r{r:g}', [XBOLD], s, g, r,
            note='Cantarell ExtraBold (CFF) 64 px: OOO at 30% of the advance; "8" twice at one spot')
    # 14: CFF and TrueType glyphs in one job: a Cantarell line, a DejaVu Sans line, and a Cantarell "S"
    # overlapped by a DejaVu Sans "S" (per-glyph size).
    s = 28
    check_cmap(REG, ['Cantarell CFF: cubic curves'])
    b1 = 8 + M.ascent(REG, s)
    g1, _ = M.shape_line(REG, 'Cantarell CFF: cubic curves', s, 8.0, b1, 0)
    b2 = b1 + M.line_height(REG, s)
    g2, _ = M.shape_line(SANS, 'DejaVu TrueType: quadratics', s, 8.0, b2, 1, cluster_base=100)
    b3 = b2 + M.line_height(SANS, s) + 20
    g3 = [{'font': 0, 'id': M.glyph_id(REG, 'S'), 'x': 10.0, 'y': round(b3, 6), 'cluster': 200, 'size': 60},
          {'font': 1, 'id': M.glyph_id(SANS, 'S'), 'x': 21.5, 'y': round(b3 + 3.25, 6), 'cluster': 201,
           'size': 56}]
    add('cff-mixed-cantarell-dejavu28-r1.5', [REG, SANS], s, g1 + g2 + g3, 1.5,
        note='Cantarell Regular (CFF) and DejaVu Sans (TrueType) in one job; CFF S under a TrueType S')
    # 15: sheared (c = 0.3) Cantarell Light 22 px.
    check_cmap(LIGHT, SHEAR_PARA)
    g = M.paragraph(LIGHT, SHEAR_PARA, 22, 4.0, 4.0)
    add('cff-shear0.3-light22', [LIGHT], 22, g, 0.0, [1.0, 0.0, 0.3, 1.0, 3.0, 2.0],
        note='Cantarell Light (CFF) 22 px sheared, x += 0.3 y')
    # 16: anisotropic scale 2.5 x 0.8, Cantarell Regular 14 px.
    check_cmap(REG, ANISO_PARA)
    g = M.paragraph(REG, ANISO_PARA, 14, 2.0, 2.0)
    add('cff-aniso2.5x0.8-regular14-r2', [REG], 14, g, 2.0, [2.5, 0.0, 0.0, 0.8, 1.0, 1.0],
        note='Cantarell Regular (CFF) 14 px scaled 2.5 x 0.8')
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', required=True, help='folder for cff-jobs.jsonl / cff-expected.jsonl')
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    jp = os.path.join(args.out, 'cff-jobs.jsonl')
    ep = os.path.join(args.out, 'cff-expected.jsonl')
    with open(jp, 'w') as f:
        for job, n in jobs():
            job['points'] = M.make_points(job, n, zlib.crc32(job['id'].encode()) + 11)
            f.write(json.dumps(job, separators=(',', ':'), ensure_ascii=False) + '\n')
    # expected answers are computed from the file as written (rounded coordinates)
    with open(jp) as f, open(ep, 'w') as g:
        for line in f:
            for rec in reference.answer_job(json.loads(line)):
                g.write(json.dumps(rec) + '\n')
    print(f'wrote {jp} ({os.path.getsize(jp)} bytes) and {ep} ({os.path.getsize(ep)} bytes)')


if __name__ == '__main__':
    main()
