#!/usr/bin/env python3
"""Builds the styled text jobs (runs, decorations, line height, paragraph spacing, first-line indent, links;
several transforms and radii), their curve-exact answers and their layouts, from styled.py's independent
reference.

Usage (from the package root):
    python3 scripts/curve_exact/make_styled_jobs.py --out Tests/InkJobsTests/Fixtures
writes  styled-jobs.jsonl      one `ink-hit query` text job per line
        styled-expected.jsonl  one answer per point, in job order (styled.py)
        styled-layout.jsonl    per job, the glyphs (font, id, x, y, size, utf16) and decorations (kind,
                               rect [x, y, w, h], utf16, line) the reference lays out

Requires: pip install fonttools uharfbuzz numpy; fonts-dejavu-core and fonts-droid-fallback.
Deterministic: points seeded by crc32(job id) + 23, sampled as make_jobs.py samples them (around the glyph
outlines and the decoration rectangles).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_jobs  # noqa: E402
import reference  # noqa: E402
import styled  # noqa: E402

DV = '/usr/share/fonts/truetype/dejavu/'
FONTS = [DV + 'DejaVuSans.ttf', DV + 'DejaVuSans-Bold.ttf', DV + 'DejaVuSerif.ttf',
         '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf']


def job(jid, text, size, runs, radius, transform=None, **extra):
    j = {'id': jid, 'text': text, 'fonts': [{'path': p} for p in FONTS], 'size': size, 'runs': runs}
    j.update(extra)
    if transform is not None:
        j['transform'] = [round(v, 15) for v in transform]
    j['radius'] = radius
    return j


def jobs():
    out = []
    # 1-2: the paragraph: a bold 20 px "Read", "more" struck through and overlined, "the ink"
    # underlined, spaced and shifted up, a double underline, a link; line height, spacing, indent.
    text = 'Read more about the ink.\nLinks hit through underlines; tap here now'
    runs = [{'start': 0, 'end': 5, 'fonts': [1, 3], 'size': 20},
            {'start': 16, 'end': 23, 'underline': 'single', 'letterSpacing': 0.5, 'baselineShift': 2},
            {'start': 5, 'end': 9, 'strikethrough': True, 'overline': True},
            {'start': 25, 'end': 30, 'underline': 'double'},
            {'start': text.index('tap'), 'end': text.index('now'), 'underline': 'single', 'size': 18}]
    links = [{'start': 16, 'end': 23, 'tag': 'ink'}, {'start': text.index('tap'), 'end': text.index('tap') + 3, 'tag': 'tap'}]
    for r in (0.0, 3.5):
        out.append((job(f'styled-issue-r{r:g}', text, 16, runs, r, links=links, origin=[8, 6], lineHeight=1.25,
                        paragraphSpacing=6, firstLineIndent=12), 700))
    # 3-4: mixed sizes and fonts on one line, CJK from its own chain, superscript and subscript shifts, an
    # underline across a size change, rotated 20 degrees.
    text = 'Big small 漢字 E=mc2 H2O under'
    runs = [{'start': 0, 'end': 4, 'size': 30, 'fonts': [2]}, {'start': 10, 'end': 13, 'fonts': [3], 'size': 22},
            {'start': 17, 'end': 18, 'size': 10, 'baselineShift': 7}, {'start': 20, 'end': 21, 'size': 10, 'baselineShift': -3},
            {'start': 4, 'end': 9, 'underline': 'single'}, {'start': 23, 'end': 28, 'underline': 'double', 'size': 20},
            {'start': 0, 'end': 9, 'overline': True}]
    a = math.radians(20)
    T = [math.cos(a), math.sin(a), -math.sin(a), math.cos(a), 40.0, 5.0]
    for r in (0.0, 2.0):
        out.append((job(f'styled-mixed-rot20-r{r:g}', text, 16, runs, r, transform=T,
                        links=[{'start': 23, 'end': 28, 'tag': 'u'}]), 700))
    # 5-6: two paragraphs scaled 1.7 x 0.9 with a shear: serif, strikethrough over a link, overline and
    # underline together, letter spacing across the line.
    text = 'Serif words, struck link\nOver and under: the end'
    runs = [{'start': 0, 'end': 24, 'fonts': [2]}, {'start': 13, 'end': 24, 'strikethrough': True},
            {'start': 25, 'end': 40, 'overline': True, 'underline': 'single', 'letterSpacing': 1.25},
            {'start': 41, 'end': 48, 'size': 24, 'strikethrough': True}]
    T = [1.7, 0.0, 0.35, 0.9, 3.0, 4.0]
    for r in (0.0, 3.5):
        out.append((job(f'styled-serif-shear-r{r:g}', text, 18, runs, r, transform=T, lineHeight=1.5,
                        links=[{'start': 20, 'end': 24, 'tag': 'link'}], paragraphSpacing=4), 700))
    return out


def shapes(j):
    L = styled.layout(j)
    T = reference.job_transform(j)
    fonts = [reference.font_data(f['path'], 0) for f in j['fonts']]
    return [styled.rect_shape(d['rect'], T, ('d', n)) for n, d in enumerate(L['decorations'])] + \
        [reference.place(fonts[g['font']], g['id'], g['x'], g['y'], g['size'], T, (n,)) for n, g in enumerate(L['glyphs'])]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', required=True, help='folder for styled-jobs.jsonl, styled-expected.jsonl, styled-layout.jsonl')
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    jp, ep, lp = (os.path.join(args.out, f'styled-{n}.jsonl') for n in ('jobs', 'expected', 'layout'))
    with open(jp, 'w') as f:
        for j, n in jobs():
            j['points'] = make_jobs.make_points(j, n, zlib.crc32(j['id'].encode()) + 23, shapes=shapes(j))
            f.write(json.dumps(j, separators=(',', ':'), ensure_ascii=False) + '\n')
    with open(jp) as f, open(ep, 'w') as e, open(lp, 'w') as lo:
        for line in f:
            j = json.loads(line)
            for rec in styled.answer(j):
                e.write(json.dumps(rec) + '\n')
            L = styled.layout(j)
            lo.write(json.dumps({'job': j['id'],
                                 'glyphs': [{k: g[k] for k in ('font', 'id', 'x', 'y', 'size', 'utf16')} for g in L['glyphs']],
                                 'decorations': [{k: d[k] for k in ('kind', 'rect', 'utf16', 'line')} for d in L['decorations']],
                                 'lines': L['lines']}) + '\n')
    for p in (jp, ep, lp):
        print(f'wrote {p} ({os.path.getsize(p)} bytes)')


if __name__ == '__main__':
    main()
