#!/usr/bin/env python3
"""Curve-exact answers for styled text jobs (runs, decorations, line height, paragraph spacing, first-line
indent), from an independent layout: uharfbuzz per run, fontTools for the font tables, reference.py for the
exact outlines and the hit rule.

Usage (from the package root):
    python3 scripts/curve_exact/styled.py JOBS.jsonl > EXPECTED.jsonl      # answers, one per point
    python3 scripts/curve_exact/styled.py JOBS.jsonl --layout > LAYOUT.jsonl  # glyphs and decorations

The contract (what a styled text job means), for the jobs this reference takes:
- Runs `{"start", "end", "fonts"?, "size"?, "underline"?: "single"|"double"|false, "strikethrough"?,
  "overline"?, "baselineShift"?, "letterSpacing"?}` override the job's style per UTF-16 offset; for each
  attribute the last run that sets it wins.  A run's `fonts` index the job's fonts as a fallback chain
  (default: all of them).
- Text is cut into paragraphs at "\\n"; each paragraph is one line (no "width"). Items are maximal runs
  of characters with the same font and size; each item is shaped alone by HarfBuzz (default features) at
  the font's upem scale, so glyph positions are HarfBuzz's times size / upem.
- The pen starts at origin.x, plus "firstLineIndent" (every line starts a paragraph here).  After each
  HarfBuzz cluster it advances by the cluster's advances plus letterSpacing times the number of its
  characters (the jobs have no combining marks: a character is a code point).  A glyph sits at
  (pen + x_offset·k, baseline − baselineShift − y_offset·k).
- A line's ascent, descent and gap are the largest, over its characters, of the hhea ascender, −descender
  and lineGap of the first font of the character's chain at its size, times "lineHeight"; the baseline is
  the line's top plus its ascent; the next line starts at the baseline plus descent plus gap, plus
  "paragraphSpacing" between paragraphs.  The first top is origin.y.
- Decorations: per line, maximal sequences of clusters with the same decoration, first font of the chain,
  size and baseline shift, trailing spaces of the line left out; from the pen before the first cluster to
  the pen after the last (letter spacing included).  With s = size / upem of that font (fontTools):
  underline top = baseline − shift − post.underlinePosition·s, height post.underlineThickness·s (double:
  a second one 2·height lower); strikethrough top = baseline − shift − OS/2.yStrikeoutPosition·s, height
  OS/2.yStrikeoutSize·s; overline bottom = baseline − shift − hhea.ascent·s, height
  post.underlineThickness·s.
- Hits: the decorations are shapes below every glyph (reference.answer_job with the decoration rectangles
  first), so glyph ink wins at r = 0 and ties within a radius go to the glyph.  A glyph hit answers its
  cluster (utf16, char = code-point index of its start); a decoration hit answers the character whose
  advance on that line holds the point's x (layout px), else the nearest, and `boundary_margin` is also
  bounded by the point's view distance to the x where that choice changes.  `link` is the last link over
  the character.

Restrictions the jobs keep (refused otherwise): no "width", no exclusions or attachments, no glyph styles,
every character drawn by the first font of its chain (and a space or punctuation mark never follows a
character drawn by another font of its chain), no combining marks, no ligatures (checked: one glyph per
character).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys

import numpy as np
import uharfbuzz as hb
from fontTools.ttLib import TTFont

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference  # noqa: E402

_fonts: dict[str, dict] = {}


def font(path):
    """HarfBuzz font and the tables the layout reads, per path (read once)."""
    if path not in _fonts:
        face = hb.Face(hb.Blob.from_file_path(path))
        tt = TTFont(path, lazy=True)
        _fonts[path] = {
            'hb': hb.Font(face), 'upem': tt['head'].unitsPerEm, 'cmap': tt.getBestCmap(),
            'asc': tt['hhea'].ascent, 'desc': tt['hhea'].descent, 'gap': tt['hhea'].lineGap,
            'ulPos': tt['post'].underlinePosition, 'ulThick': tt['post'].underlineThickness,
            'stPos': tt['OS/2'].yStrikeoutPosition, 'stSize': tt['OS/2'].yStrikeoutSize,
        }
    return _fonts[path]


ATTRS = ('fonts', 'size', 'underline', 'strikethrough', 'overline', 'baselineShift', 'letterSpacing')


def resolve(job, offset):
    """The attributes of the character at UTF-16 `offset`: the job's, each overridden by the last run
    over the offset that sets it."""
    a = {'fonts': list(range(len(job['fonts']))), 'size': float(job['size']), 'underline': False,
         'strikethrough': False, 'overline': False, 'baselineShift': 0.0, 'letterSpacing': 0.0}
    for r in job.get('runs', []):
        if r['start'] <= offset < r['end']:
            for k in ATTRS:
                if k in r and r[k] is not None:
                    a[k] = r[k]
    return a


def layout(job):
    """Glyphs, decorations, lines and cluster spans of a styled text job (see the module docstring)."""
    for k in ('width', 'exclusions', 'attachments', 'embolden', 'oblique', 'hinting'):
        if job.get(k):
            raise ValueError(f"job {job['id']}: {k} is not supported by this reference")
    paths = [f['path'] for f in job['fonts']]
    text = job['text']
    ox, oy = (job.get('origin') or [0, 0])
    lh = float(job.get('lineHeight', 1))
    spacing = float(job.get('paragraphSpacing', 0))
    indent = float(job.get('firstLineIndent', 0))
    glyphs, decorations, lines, spans = [], [], [], []
    top, u16 = float(oy), 0
    paragraphs = text.split('\n')
    for pi, para in enumerate(paragraphs):
        chars = []                                         # (utf16 offset, char, attrs, font index)
        prev_font = None
        for ch in para:
            a = resolve(job, u16)
            fi = a['fonts'][0]
            if ord(ch) not in font(paths[fi])['cmap']:
                raise ValueError(f"job {job['id']}: {ch!r} is not in the first font of its chain")
            if ch in ' .,;:!?' and prev_font is not None and prev_font != fi and prev_font in a['fonts']:
                raise ValueError(f"job {job['id']}: {ch!r} at {u16} follows another font of its chain")
            chars.append((u16, ch, a, fi))
            prev_font = fi
            u16 += len(ch.encode('utf-16-le')) // 2
        # line metrics
        asc = desc = gap = 0.0
        for _, _, a, fi in chars or [(0, '', resolve(job, u16), resolve(job, u16)['fonts'][0])]:
            f = font(paths[fi])
            k = a['size'] / f['upem'] * lh
            asc, desc, gap = max(asc, f['asc'] * k), max(desc, -f['desc'] * k), max(gap, f['gap'] * k)
        baseline = top + asc
        # items shaped alone
        pen = float(ox) + indent
        clusters = []                                      # (start, end, x0, x1, attrs, font)
        i = 0
        while i < len(chars):
            j = i + 1
            while j < len(chars) and chars[j][3] == chars[i][3] and chars[j][2]['size'] == chars[i][2]['size']:
                j += 1
            item = chars[i:j]
            f = font(paths[item[0][3]])
            buf = hb.Buffer()
            buf.add_codepoints([ord(c[1]) for c in item])
            buf.guess_segment_properties()
            hb.shape(f['hb'], buf, {})
            if len(buf.glyph_infos) != len(item):
                raise ValueError(f"job {job['id']}: HarfBuzz formed ligatures in {''.join(c[1] for c in item)!r}")
            for info, pos in zip(buf.glyph_infos, buf.glyph_positions):
                off, ch, a, fi = item[info.cluster]
                k = a['size'] / f['upem']
                x0 = pen
                glyphs.append({'font': fi, 'id': int(info.codepoint), 'x': pen + pos.x_offset * k,
                               'y': baseline - a['baselineShift'] - pos.y_offset * k, 'size': a['size'],
                               'utf16': [off, off + len(ch.encode('utf-16-le')) // 2], 'line': pi})
                pen += pos.x_advance * k + a['letterSpacing']
                clusters.append((off, glyphs[-1]['utf16'][1], x0, pen, a, fi, ch))
            i = j
        for c in clusters:
            spans.append({'line': pi, 'x0': c[2], 'x1': c[3], 'utf16': [c[0], c[1]]})
        decorations += decorate(clusters, paths, baseline, pi)
        lines.append({'top': top, 'baseline': baseline, 'bottom': baseline + desc + gap})
        top = baseline + desc + gap + (spacing if pi + 1 < len(paragraphs) else 0.0)
        u16 += 1                                           # the "\n"
    # grapheme (code point) index of each glyph's character
    starts = []
    o = 0
    for ch in text:
        starts.append(o)
        o += len(ch.encode('utf-16-le')) // 2
    index_of = {s: n for n, s in enumerate(starts)}
    for g in glyphs:
        g['char'] = index_of[g['utf16'][0]]
    return {'glyphs': glyphs, 'decorations': decorations, 'lines': lines, 'spans': spans, 'char_of': index_of}


def decorate(clusters, paths, baseline, line):
    """The decoration rectangles of one line's clusters (in order), trailing spaces left out."""
    end = len(clusters)
    while end > 0 and clusters[end - 1][6] in ' \t\u3000':
        end -= 1
    out = []
    for kind in ('underline', 'strikethrough', 'overline'):
        seg = None
        for c in clusters[:end] + [None]:
            key = None
            if c is not None:
                a = c[4]
                on = a[kind] not in (False, None, 'none')
                if on:
                    key = (a[kind], a['fonts'][0], a['size'], a['baselineShift'])
            if seg is not None and (key is None or key != seg['key']):
                out += rects(kind, seg, paths, baseline, line)
                seg = None
            if key is not None:
                if seg is None:
                    seg = {'key': key, 'x0': c[2], 'x1': c[3], 'utf16': [c[0], c[1]]}
                else:
                    seg['x1'] = c[3]
                    seg['utf16'][1] = c[1]
    return out


def rects(kind, seg, paths, baseline, line):
    style, fi, size, shift = seg['key']
    f = font(paths[fi])
    s = size / f['upem']
    y = baseline - shift
    if kind == 'underline':
        top, h = y - f['ulPos'] * s, f['ulThick'] * s
        tops = [top, top + 2 * h] if style == 'double' else [top]
    elif kind == 'strikethrough':
        tops, h = [y - f['stPos'] * s], f['stSize'] * s
    else:
        h = f['ulThick'] * s
        tops = [y - f['asc'] * s - h]
    return [{'kind': kind, 'rect': [seg['x0'], t, seg['x1'] - seg['x0'], h], 'utf16': list(seg['utf16']), 'line': line}
            for t in tops]


def rect_shape(r, T, key):
    """A rectangle [x, y, w, h] (layout px) as a reference.Placed shape of straight edges."""
    x, y, w, h = r
    pts = np.array([(x, -y), (x + w, -y), (x + w, -(y + h)), (x, -(y + h))], dtype=np.float64)
    segs = [('L', [0, 1]), ('L', [1, 2]), ('L', [2, 3]), ('L', [3, 0])]
    return reference.place_outline(pts, segs, 1.0, 0.0, 0.0, T, key)


def answer(job):
    """Every point's answer: reference.answer_job's fields plus decoration, utf16, char, line and link."""
    L = layout(job)
    T = reference.job_transform(job)
    fonts = [reference.font_data(f['path'], int(f.get('index', 0))) for f in job['fonts']]
    decos = [rect_shape(d['rect'], T, ('decoration', n)) for n, d in enumerate(L['decorations'])]
    glyphs = [reference.place(fonts[g['font']], g['id'], g['x'], g['y'], g['size'], T,
                              (g['font'], g['id'], g['size'], g['x'], g['y'])) for g in L['glyphs']]
    D = len(decos)
    recs = reference.answer_job({'id': job['id'], 'radius': job.get('radius', 0), 'points': job['points']},
                                decos + glyphs)
    a, b, c, d, tx, ty = T
    det = a * d - b * c
    smin = min(np.linalg.svd(np.array([[a, c], [b, d]]), compute_uv=False))
    links = job.get('links', [])
    for rec, p in zip(recs, job['points']):
        k = rec.pop('glyph')
        rec.update(glyph=None, decoration=None, utf16=None, char=None, line=None, link=None)
        if k is None:
            continue
        if k >= D:
            g = L['glyphs'][k - D]
            rec.update(glyph=k - D, utf16=g['utf16'], char=g['char'], line=g['line'])
        else:
            dec = L['decorations'][k]
            # the point in layout px; the character whose advance holds its x (else the nearest)
            vx, vy = p[0] - tx, p[1] - ty
            lx = (d * vx - c * vy) / det
            spans = [s for s in L['spans'] if s['line'] == dec['line']]
            best = min(spans, key=lambda s: 0.0 if s['x0'] <= lx < s['x1'] else min(abs(lx - s['x0']), abs(lx - s['x1'])))
            cuts = [s['x0'] for s in spans[1:]]
            if cuts:
                rec['boundary_margin'] = round(min(rec['boundary_margin'], min(abs(lx - x) for x in cuts) * smin), 4)
            rec.update(decoration=dec['kind'], utf16=best['utf16'], char=L['char_of'][best['utf16'][0]], line=dec['line'])
        lo, hi = rec['utf16']
        for ln in links:
            if ln['start'] < hi and ln['end'] > lo:
                rec['link'] = ln['tag']
    return recs


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('jobs', help='styled text jobs, one JSON object per line')
    ap.add_argument('--layout', action='store_true', help='write each job\'s glyphs and decorations instead')
    args = ap.parse_args(argv)
    with open(args.jobs) as f:
        for line in f:
            if not line.strip():
                continue
            job = json.loads(line)
            if args.layout:
                L = layout(job)
                out = {'job': job['id'], 'glyphs': [{k: g[k] for k in ('font', 'id', 'x', 'y', 'size', 'utf16')} for g in L['glyphs']],
                       'decorations': [{k: d[k] for k in ('kind', 'rect', 'utf16', 'line')} for d in L['decorations']],
                       'lines': L['lines']}
                sys.stdout.write(json.dumps(out) + '\n')
            else:
                for rec in answer(job):
                    sys.stdout.write(json.dumps(rec) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
