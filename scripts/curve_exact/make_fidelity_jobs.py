#!/usr/bin/env python3
"""Builds the "fidelity" glyph jobs -- variable-font instances, named instances, emboldening, oblique,
hinting, CBDT bitmap emoji, COLR v0/v1 colour glyphs and an SVG-only glyph -- and their answers
(fidelity.py).

Usage (from the package root; needs fonttools uharfbuzz numpy pillow, the system FreeType (libfreetype6)
and fonts-dejavu-core, fonts-cantarell, fonts-inter-variable, fonts-noto-color-emoji):
    python3 scripts/curve_exact/make_fidelity_jobs.py --out Tests/InkJobsTests/Fixtures
writes fidelity-jobs.jsonl and fidelity-expected.jsonl.  Deterministic (seeds: crc32 of each job id + 17)
for a given FreeType (the answers of emboldened and hinted jobs are FreeType's outlines).
Shaping as in make_jobs.py (HarfBuzz default features; variable fonts shaped at the entry's design
coordinates), with two additions: an emboldened font's glyphs with a non-zero advance advance by the x
strength more (as FT_GlyphSlot_Embolden grows the advance), and hinted jobs put every origin on a
whole pixel.  Point sampling is make_jobs.py's, around the shapes' ink boundaries (fidelity.py).
"""
import argparse
import json
import math
import os
import sys
import zlib

import uharfbuzz as hb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fidelity  # noqa: E402
import make_jobs as M  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INTER = '/usr/share/fonts/truetype/inter-vf/Inter.var.ttf'
EMOJI = '/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf'
CANTARELL = '/usr/share/fonts/opentype/cantarell/Cantarell-Regular.otf'
SANS, SANS_BOLD, SERIF = M.SANS, M.SANS_BOLD, M.SERIF
COLOR = 'Tests/Fonts/InkColorTest.ttf'   # relative to the package root, as `ink-hit query` is run there
for _p in [INTER, EMOJI, CANTARELL, SANS, SANS_BOLD, SERIF, os.path.join(ROOT, COLOR)]:
    assert os.path.exists(_p), _p

SANS_PARA = [
    'Emboldened: AVATAR Wave To. Yes, Type LAVA, 42%',
    'Kerning: AV Ty Te Yo P. F, r. y, "quoted" (parens) {x}',
    'Quick brown fox jumps over the lazy dog: gjpqy @#&',
]
INTER_LINES = ['Inter wght 100: Thin hairlines @ 0123', 'Inter wght 650: Semibold Wave AVATAR',
               'Inter wght 900: Black & heavy gjpqy', 'Inter slnt -10: Italic slant Quick fox']
SERIF_PARA = ['Rotated, emboldened, oblique: Wave AVATAR', 'Serifs & ink: gjpqy @ {braces} 42%']
HINT_PARA = ['Hinted text: The quick brown fox jumps', 'over the lazy dog. 0123456789 @&% gjpqy']
EMOJI_LINE = '\U0001F600\U0001F389\U0001F40D\U0001F680\U0001F469\u200D\U0001F4BB\U0001F30D'
COLR_LINES = ['\ue000\ue001\ue010\ue011\ue012', '\ue013\ue014\ue015\ue016\ue017']


class Shaper:
    """HarfBuzz shaping of one font entry (its file, variation coordinates and emboldening)."""

    def __init__(self, job, entry):
        path = entry['path'] if os.path.isabs(entry['path']) else os.path.join(ROOT, entry['path'])
        self.setup = fidelity.font_setup(job, dict(entry, path=path))
        self.font = hb.Font(hb.Face(hb.Blob.from_file_path(path)))
        src = fidelity.source(path, 0)
        if self.setup.coords is not None:
            self.font.set_variations({a.axisTag: v for a, v in zip(src.tt['fvar'].axes, self.setup.coords)})
        self.upem = src.upem
        hhea = src.tt['hhea']
        self.ascent, self.descent, self.gap = hhea.ascent, hhea.descent, hhea.lineGap
        self.cmap = src.tt.getBestCmap()

    def line_height(self, size):
        return (self.ascent - self.descent + self.gap) * size / self.upem

    def shape(self, text, size, x, baseline, font_index, cluster_base=0, whole_px=False):
        """Job glyph dicts of one line; every code point must be in the font's cmap."""
        missing = [c for c in text if ord(c) not in self.cmap and c != '\u200d']
        assert not missing, missing
        buf = hb.Buffer()
        buf.add_codepoints([ord(c) for c in text])
        buf.guess_segment_properties()
        hb.shape(self.font, buf, {})
        k = size / self.upem
        strength = fidelity.embolden_strength(self.setup, size)
        grow = strength[0] / 64.0 if strength else 0.0
        out, pen = [], x
        for info, pos in zip(buf.glyph_infos, buf.glyph_positions):
            gx, gy = pen + pos.x_offset * k, baseline - pos.y_offset * k
            if whole_px:
                gx, gy = float(math.floor(gx + 0.5)), float(math.floor(gy + 0.5))
            out.append({'font': font_index, 'id': int(info.codepoint), 'x': round(gx, 6), 'y': round(gy, 6),
                        'cluster': int(info.cluster) + cluster_base})
            pen += pos.x_advance * k + (grow if pos.x_advance else 0.0)
        return out


def lines_job(jid, entries, size, lines, r=0.0, T=None, settings=None, whole_px=False, x=8.0, top=6.0,
              fonts_per_line=None, note=None):
    """A job of text lines; line i is shaped with font entry fonts_per_line[i] (default: entry 0)."""
    job = {'id': jid, 'fonts': entries, 'size': size}
    job.update(settings or {})
    if T is not None:
        job['transform'] = [round(v, 15) for v in T]
    job['radius'] = r
    shapers = [Shaper(job, e) for e in entries]
    glyphs, cl = [], 0
    base = top + shapers[0].ascent * size / shapers[0].upem
    for i, text in enumerate(lines):
        fi = fonts_per_line[i] if fonts_per_line else 0
        glyphs += shapers[fi].shape(text, size, x, base, fi, cluster_base=cl, whole_px=whole_px)
        cl += len(text) + 1
        base += shapers[fi].line_height(size)
    job['glyphs'] = glyphs
    if note:
        job['note'] = note
    return job


def rotation(deg, tx, ty):
    a = math.radians(deg)
    return [math.cos(a), math.sin(a), -math.sin(a), math.cos(a), tx, ty]


def jobs():
    out = []

    def add(job, n=350):
        out.append((job, n))

    # 1-2: Inter (glyf + gvar) 16 px, one line per instance: wght 100, 650, 900 and slnt -10.
    entries = [{'path': INTER, 'variations': {'wght': 100}}, {'path': INTER, 'variations': {'wght': 650}},
               {'path': INTER, 'variations': {'wght': 900}}, {'path': INTER, 'variations': {'slnt': -10}}]
    for r in (0.0, 3.5):
        add(lines_job(f'var-inter16-4instances-r{r:g}', entries, 16, INTER_LINES, r, fonts_per_line=[0, 1, 2, 3],
                      note='Inter.var 16 px, one line each at wght 100, wght 650, wght 900, slnt -10 '
                           '(per-font-entry variations)'), 400)
    # 3-6: single glyphs at 200 px, wght 750; 'R' at wght 1200 (clamped to 900).
    for ch, wght in [('g', 750), ('@', 750), ('R', 750), ('R', 1200)]:
        add(lines_job(f'var-inter200-wght{wght}-U+{ord(ch):04X}', [{'path': INTER, 'variations': {'wght': wght}}],
                      200, [ch], x=20.0, top=10.0,
                      note=f'Inter.var U+{ord(ch):04X} at 200 px, wght {wght}'
                           + (' (clamped to 900)' if wght > 900 else '')))
    # 7: named instances: by name, and by index with variations on top.
    entries = [{'path': INTER, 'instance': 'Semi Bold Italic'},
               {'path': INTER, 'instance': 4, 'variations': {'slnt': -5}}]
    add(lines_job('var-inter24-named-instances-r1.5', entries, 24,
                  ['Named instance: Semi Bold Italic', 'Instance 4 (Light) with slnt -5 on top'], 1.5,
                  fonts_per_line=[0, 1],
                  note='Inter.var 24 px: instance "Semi Bold Italic"; instance 4 (Light) + variations slnt -5'))
    # 8: a variable font through FreeType: wght 650 emboldened.
    add(lines_job('var-inter24-wght650-embolden-freetype', [{'path': INTER, 'variations': {'wght': 650}}], 24,
                  ['FreeType-varied and emboldened', 'Inter wght 650 + embolden'], settings={'embolden': 'freetype'},
                  note='Inter.var wght 650 at 24 px, embolden "freetype" (FT_Set_Var_Design_Coordinates, '
                       'then FT_Outline_EmboldenXY)'))
    # 9-14: DejaVu Sans emboldened.
    for r in (0.0, 3.5):
        add(lines_job(f'emb-freetype-sans16-r{r:g}', [{'path': SANS}], 16, SANS_PARA, r,
                      settings={'embolden': 'freetype'},
                      note='DejaVu Sans 16 px, 3 lines, job-level embolden "freetype"'), 400)
    for jid, emb, r in [('emb1.5-sans48-r0', 1.5, 0.0), ('emb2x0.5-sans48-r2', [2, 0.5], 2.0),
                        ('emb-freetype-sans48-r0', 'freetype', 0.0)]:
        add(lines_job(jid, [{'path': SANS}], 48, ['Bold? gAV@&8', 'Wave 42%'], r, settings={'embolden': emb},
                      note=f'DejaVu Sans 48 px, embolden {json.dumps(emb)}'))
    entries = [{'path': SANS}, {'path': SANS, 'embolden': [2, 0.5]}, {'path': SANS_BOLD}]
    add(lines_job('emb-mixed-sans20-r1', entries, 20,
                  ['Job-level embolden 1.5 px', 'Font override [2, 0.5] px', 'DejaVu Sans Bold + 1.5 px'], 1.0,
                  settings={'embolden': 1.5}, fonts_per_line=[0, 1, 2],
                  note='job-level embolden 1.5; font 1 overrides it with [2, 0.5]; font 2 is DejaVu Sans Bold'))
    # 15-16: oblique alone (exact outline, sheared) and with emboldening.
    add(lines_job('obl-freetype-sans32-r0', [{'path': SANS}], 32, ['Oblique "freetype": Wave gjpqy', 'AVATAR @&%'],
                  settings={'oblique': 'freetype'}, note='DejaVu Sans 32 px, oblique "freetype" (0x0366A/65536)'))
    add(lines_job('obl0.3-emb-freetype-sans32-r2', [{'path': SANS}], 32, ['Oblique 0.3, emboldened', 'AVATAR gjpqy'],
                  2.0, settings={'oblique': 0.3, 'embolden': 'freetype'},
                  note='DejaVu Sans 32 px, oblique 0.3 after embolden "freetype"'))
    # 17-18: rotated, emboldened, oblique DejaVu Serif paragraph.
    for r in (0.0, 3.5):
        add(lines_job(f'rot30-emb1-obl-serif18-r{r:g}', [{'path': SERIF}], 18, SERIF_PARA, r, rotation(30, 80, 10),
                      settings={'embolden': 1, 'oblique': 'freetype'}, x=0.0, top=0.0,
                      note='DejaVu Serif 18 px, embolden 1 px, oblique "freetype", rotated 30 degrees'), 400)
    # 19-20: CFF (cubic) emboldened.
    add(lines_job('cff-emb-freetype-cantarell24-r0', [{'path': CANTARELL}], 24,
                  ['Cantarell CFF emboldened', 'Curves: gjpqy @ & S 8'], settings={'embolden': 'freetype'},
                  note='Cantarell Regular (CFF) 24 px, embolden "freetype"'))
    add(lines_job('cff-emb3x1.5-cantarell200-g', [{'path': CANTARELL}], 200, ['g'], settings={'embolden': [3, 1.5]},
                  x=20.0, top=10.0, note='Cantarell Regular (CFF) g at 200 px, embolden [3, 1.5]'))
    # 21-25: hinting, origins on whole pixels.
    for jid, path, size, mode, T, r, extra in [
            ('hint-light-sans12-zoom3', SANS, 12, 'light', [3, 0, 0, 3, 2, 2], 0.0, {}),
            ('hint-full-sans13', SANS, 13, 'full', None, 0.0, {}),
            ('hint-light-serif13-r2', SERIF, 13, 'light', None, 2.0, {}),
            ('hint-full-serif12-zoom3', SERIF, 12, 'full', [3, 0, 0, 3, 2, 2], 0.0, {}),
            ('hint-full-emb-freetype-sans13', SANS, 13, 'full', None, 0.0, {'embolden': 'freetype'})]:
        name = 'DejaVu Sans' if path == SANS else 'DejaVu Serif'
        add(lines_job(jid, [{'path': path}], size, HINT_PARA, r, T, settings=dict(hinting=mode, **extra),
                      whole_px=True, x=4.0, top=3.0,
                      note=f'{name} {size} px, hinting "{mode}"' + (', embolden "freetype"' if extra else '')
                           + (', view scaled 3x' if T else '') + ', origins on whole pixels'), 400)
    # 26-28: a fractional size on fonts whose head flags ask for integer ppem (FreeType hints "full" at
    # 13 ppem, scales unhinted and "light" outlines by 12.5), viewed 4x.
    for mode, extra in [('none', {'embolden': 'freetype'}), ('full', {}), ('light', {})]:
        add(lines_job(f'frac12.5-{mode}' + ('-emb-freetype' if extra else '') + '-sans-zoom4', [{'path': SANS}], 12.5,
                      ['Size 12.5: Wave gjpqy @&', 'AVATAR 0123 %'], T=[4, 0, 0, 4, 2, 2],
                      settings=dict(hinting=mode, **extra), whole_px=True, x=2.0, top=2.0,
                      note=f'DejaVu Sans 12.5 px (head flags bit 3: integer ppem), hinting "{mode}"'
                           + (', embolden "freetype"' if extra else '') + ', view scaled 4x'))
    # 29: per-glyph overrides of the job's embolden: oblique, embolden, hinting on single glyphs.
    job = lines_job('glyph-overrides-sans24-r1', [{'path': SANS}], 24,
                    ['Per-glyph styles: Wave gjpqy', 'AVATAR @&% 0123'], 1.0, settings={'embolden': 1}, whole_px=True,
                    note='DejaVu Sans 24 px, job-level embolden 1; glyphs 0, 3, 6, ... oblique 0.25; glyphs 1, 6, '
                         '11, ... embolden [0.5, 2]; glyphs 2, 9, 16, ... hinting "full" '
                         '(a glyph\'s own setting wins)')
    for i, g in enumerate(job['glyphs']):
        if i % 3 == 0:
            g['oblique'] = 0.25
        if i % 5 == 1:
            g['embolden'] = [0.5, 2]
        if i % 7 == 2:
            g['hinting'] = 'full'
    add(job)
    # 30-33: Noto Color Emoji (CBDT, one strike at 109 ppem).
    for r in (0.0, 2.0):
        add(lines_job(f'cbdt-emoji32-r{r:g}', [{'path': EMOJI}], 32, [EMOJI_LINE], r,
                      note='Noto Color Emoji 32 px (CBDT strike 109 ppem): 5 emoji and a ZWJ sequence '
                           '(one glyph); ink = pixels with alpha >= 128'))
    for r in (0.0, 2.0):
        add(lines_job(f'cbdt-emoji128-r{r:g}', [{'path': EMOJI}], 128, ['\U0001F98A'], r, x=10.0, top=10.0,
                      note='Noto Color Emoji U+1F98A at 128 px (strike 109 ppem scaled 128/109)'))
    # 34-37: the colour test font: COLR v0 and v1.
    for size in (64, 150):
        lines = COLR_LINES if size == 64 else ['\ue000\ue011\ue017', '\ue012\ue015', '\ue014\ue016\ue001']
        for r in (0.0, 2.0):
            add(lines_job(f'colr-{size}-r{r:g}', [{'path': COLOR}], size, lines, r,
                          note=f'InkHit Color Test {size} px: COLR v0 and v1 glyphs (union of layers, transforms, '
                               'PaintColrGlyph, PaintComposite, ClipBox)'), 400)
    # 38: an SVG-only glyph (advance box) between outline glyphs.
    add(lines_job('svg-box64-r2', [{'path': COLOR}], 64, ['A\ue0f0o', '\ue0f0\ue0f0'], 2.0,
                  note='InkHit Color Test 64 px: svg.box (SVG document, no outline: its advance box, "ink": "box") '
                       'between A and o; two boxes side by side'), 300)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', required=True, help='folder for fidelity-jobs.jsonl / fidelity-expected.jsonl')
    args = ap.parse_args(argv)
    out = os.path.abspath(args.out)
    os.chdir(ROOT)   # the colour font's path in the jobs is relative to the package root
    os.makedirs(out, exist_ok=True)
    jp = os.path.join(out, 'fidelity-jobs.jsonl')
    ep = os.path.join(out, 'fidelity-expected.jsonl')
    with open(jp, 'w') as f:
        for job, n in jobs():
            job['points'] = M.make_points(job, n, zlib.crc32(job['id'].encode()) + 17,
                                          shapes=fidelity.glyph_shapes(job))
            f.write(json.dumps(job, separators=(',', ':'), ensure_ascii=False) + '\n')
    # expected answers are computed from the file as written (rounded coordinates)
    with open(jp) as f, open(ep, 'w') as g:
        for line in f:
            for rec in fidelity.answer_job(json.loads(line)):
                g.write(json.dumps(rec) + '\n')
    print(f'wrote {jp} ({os.path.getsize(jp)} bytes) and {ep} ({os.path.getsize(ep)} bytes)')


if __name__ == '__main__':
    main()
