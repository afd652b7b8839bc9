#!/usr/bin/env python3
"""Builds Tests/Fonts/InkColorTest.ttf ("InkHit Color Test"): a small TrueType font for the colour-glyph
tests, made of DejaVu Sans outlines (upem 2048) with COLR v0 and v1 colour glyphs, a CPAL palette and one
SVG-only glyph.

Usage (from the package root; needs fonttools and fonts-dejavu-core):
    python3 Tests/Fonts/make_color_font.py [--out Tests/Fonts/InkColorTest.ttf]
The output is deterministic (fixed head timestamps, no hinting, no compression).

Glyphs (glyph order; code points in parentheses):
  .notdef, space (U+0020), A O o x g R (their letters), filledbox (U+25A0): DejaVu Sans outlines as they are.
  x.small, o.right, hyphen.wide: layer glyphs (no code point), DejaVu's x scaled 0.5625 and moved,
      o moved right 700 units, the hyphen stretched 2.5 x -- coordinates rounded to whole units.
  colr0.Ox (U+E000): COLR v0, layers O + x.small (overlapping); its own outline is the filled box (a
      fallback for renderers without COLR, not ink).
  colr0.three (U+E001): COLR v0, layers A + o.right + hyphen.wide; no outline of its own.
  colr1.layers (U+E010): PaintColrLayers of PaintGlyph A (solid), x.small (linear gradient), o.right
      (radial gradient).
  colr1.transform (U+E011): PaintTransform [0.875 0.25 -0.3125 0.75 200 -150] around PaintGlyph R.
  colr1.rotate (U+E012): PaintRotateAroundCenter 45 degrees about (700, 700) around PaintGlyph A, plus
      an untransformed PaintGlyph o on top.
  colr1.scale (U+E013): PaintScaleAroundCenter (0.625, 1.25) about (800, 700) around PaintGlyph O, plus
      PaintTranslate (900, -300) of PaintScaleUniform 0.5 of PaintGlyph g.
  colr1.skew (U+E014): PaintSkewAroundCenter (x 22.5, y 0 degrees) about (700, 0) around PaintGlyph R, plus
      PaintRotate -11.25 degrees of PaintScale (1.125, 0.75) of PaintGlyph o.
  colr1.colrglyph (U+E015): PaintColrGlyph colr1.layers, plus PaintTranslate (1200, 200) of PaintColrGlyph
      colr1.transform.
  colr1.composite (U+E016): PaintComposite (SRC_OVER) of PaintGlyph O over PaintTranslate (400, 0) of
      PaintGlyph x.small.
  colr1.clipped (U+E017): PaintColrLayers of PaintGlyph O and PaintGlyph A, ClipBox (150, -100, 1100, 1250)
      cutting away O's right side and top.
  svg.box (U+E0F0): an SVG table document (a circle) and no outline; advance 1400.
All angles, scales and transform values are exact in their F2Dot14 / Fixed fields.  The COLR v1 base
glyphs have no outline; only colr1.clipped has a ClipBox.
"""
import argparse
import copy
import os

from fontTools.colorLib.builder import buildCOLR, buildCPAL
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.transformPen import TransformPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont, newTable
from fontTools.ttLib.tables import ttProgram
from fontTools.ttLib.tables.otTables import PaintFormat as PF
from fontTools.ttLib.tables.S_V_G_ import SVGDocument

DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'
HERE = os.path.dirname(os.path.abspath(__file__))
TIMESTAMP = 3786825600  # 2024-01-01 00:00:00 UTC in seconds since 1904 (head created/modified)

PLAIN = ['.notdef', 'space', 'A', 'O', 'o', 'x', 'g', 'R', 'filledbox']
# name: (source glyph, affine (xx, xy, yx, yy, dx, dy) as fontTools' Transform takes it)
LAYER_GLYPHS = {
    'x.small': ('x', (0.5625, 0, 0, 0.5625, 900, 420)),
    'o.right': ('o', (1, 0, 0, 1, 700, 0)),
    'hyphen.wide': ('hyphen', (2.5, 0, 0, 1, -190, 150)),
}
COLOR_GLYPHS = [  # name, code point, advance
    ('colr0.Ox', 0xE000, 1650), ('colr0.three', 0xE001, 1900),
    ('colr1.layers', 0xE010, 1900), ('colr1.transform', 0xE011, 1700), ('colr1.rotate', 0xE012, 1700),
    ('colr1.scale', 0xE013, 1800), ('colr1.skew', 0xE014, 1900), ('colr1.colrglyph', 0xE015, 3200),
    ('colr1.composite', 0xE016, 2000), ('colr1.clipped', 0xE017, 1300),
]
SVG_GLYPH = ('svg.box', 0xE0F0, 1400)

PALETTE = [(0.85, 0.1, 0.1, 1.0), (0.1, 0.45, 0.9, 1.0), (0.95, 0.75, 0.1, 1.0), (0.2, 0.7, 0.3, 1.0),
           (0.5, 0.2, 0.7, 0.8)]

LICENSE_NOTE = (
    'InkHit Color Test is a modified version of DejaVu Sans (glyph outlines copied and transformed, colour '
    'tables added); it is not DejaVu, Bitstream Vera or Arev.\n\n')


def solid(i):
    return {'Format': PF.PaintSolid, 'PaletteIndex': i, 'Alpha': 1.0}


def glyph(name, fill):
    return {'Format': PF.PaintGlyph, 'Glyph': name, 'Paint': fill}


def color_line(a, b):
    return {'Extend': 'pad', 'ColorStop': [{'StopOffset': 0.0, 'PaletteIndex': a, 'Alpha': 1.0},
                                           {'StopOffset': 1.0, 'PaletteIndex': b, 'Alpha': 1.0}]}


def color_glyphs():
    linear = {'Format': PF.PaintLinearGradient, 'ColorLine': color_line(1, 2),
              'x0': 900, 'y0': 400, 'x1': 1500, 'y1': 1000, 'x2': 1200, 'y2': 100}
    radial = {'Format': PF.PaintRadialGradient, 'ColorLine': color_line(3, 4),
              'x0': 1300, 'y0': 560, 'r0': 0, 'x1': 1300, 'y1': 560, 'r1': 600}
    return {
        'colr0.Ox': [('O', 0), ('x.small', 1)],
        'colr0.three': [('A', 2), ('o.right', 3), ('hyphen.wide', 1)],
        'colr1.layers': {'Format': PF.PaintColrLayers, 'Layers': [
            glyph('A', solid(0)), glyph('x.small', linear), glyph('o.right', radial)]},
        'colr1.transform': {'Format': PF.PaintTransform, 'Paint': glyph('R', solid(1)),
                            'Transform': {'xx': 0.875, 'yx': 0.25, 'xy': -0.3125, 'yy': 0.75,
                                          'dx': 200, 'dy': -150}},
        'colr1.rotate': {'Format': PF.PaintColrLayers, 'Layers': [
            {'Format': PF.PaintRotateAroundCenter, 'Paint': glyph('A', solid(2)), 'angle': 45.0,
             'centerX': 700, 'centerY': 700},
            glyph('o', solid(3))]},
        'colr1.scale': {'Format': PF.PaintColrLayers, 'Layers': [
            {'Format': PF.PaintScaleAroundCenter, 'Paint': glyph('O', solid(0)), 'scaleX': 0.625,
             'scaleY': 1.25, 'centerX': 800, 'centerY': 700},
            {'Format': PF.PaintTranslate, 'dx': 900, 'dy': -300, 'Paint': {
                'Format': PF.PaintScaleUniform, 'scale': 0.5, 'Paint': glyph('g', solid(1))}}]},
        'colr1.skew': {'Format': PF.PaintColrLayers, 'Layers': [
            {'Format': PF.PaintSkewAroundCenter, 'Paint': glyph('R', solid(2)), 'xSkewAngle': 22.5,
             'ySkewAngle': 0.0, 'centerX': 700, 'centerY': 0},
            {'Format': PF.PaintRotate, 'angle': -11.25, 'Paint': {
                'Format': PF.PaintScale, 'scaleX': 1.125, 'scaleY': 0.75, 'Paint': glyph('o', solid(3))}}]},
        'colr1.colrglyph': {'Format': PF.PaintColrLayers, 'Layers': [
            {'Format': PF.PaintColrGlyph, 'Glyph': 'colr1.layers'},
            {'Format': PF.PaintTranslate, 'dx': 1200, 'dy': 200,
             'Paint': {'Format': PF.PaintColrGlyph, 'Glyph': 'colr1.transform'}}]},
        'colr1.composite': {'Format': PF.PaintComposite, 'CompositeMode': 'src_over',
                            'SourcePaint': glyph('O', solid(0)),
                            'BackdropPaint': {'Format': PF.PaintTranslate, 'dx': 400, 'dy': 0,
                                              'Paint': glyph('x.small', solid(1))}},
        'colr1.clipped': {'Format': PF.PaintColrLayers, 'Layers': [
            glyph('O', solid(3)), glyph('A', solid(4))]},
    }


def copied_glyph(src, name):
    g = copy.deepcopy(src['glyf'][name])
    if g.numberOfContours > 0:
        g.program = ttProgram.Program()
        g.program.fromBytecode(b'')
    return g


def transformed_glyph(src, name, affine):
    pen = TTGlyphPen(None)
    src.getGlyphSet()[name].draw(TransformPen(pen, affine))
    return pen.glyph()  # coordinates rounded to whole units


def svg_document(gid):
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 -1901 1400 2384">'
            f'<circle id="glyph{gid}" cx="700" cy="-700" r="600" fill="#2a7"/></svg>')


def build():
    src = TTFont(DEJAVU)
    names = [n for n, _, _ in COLOR_GLYPHS]
    order = PLAIN + list(LAYER_GLYPHS) + names + [SVG_GLYPH[0]]
    glyphs = {n: copied_glyph(src, n) for n in PLAIN}
    for n, (base, affine) in LAYER_GLYPHS.items():
        glyphs[n] = transformed_glyph(src, base, affine)
    empty = TTGlyphPen(None).glyph()
    for n in names + [SVG_GLYPH[0]]:
        glyphs[n] = copy.deepcopy(empty)
    glyphs['colr0.Ox'] = copied_glyph(src, 'filledbox')

    cmap = {ord(c): c for c in 'AOoxgR'}
    cmap.update({0x20: 'space', 0x25A0: 'filledbox'})
    cmap.update({cp: n for n, cp, _ in COLOR_GLYPHS})
    cmap[SVG_GLYPH[1]] = SVG_GLYPH[0]

    fb = FontBuilder(2048, isTTF=True)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap(cmap)
    fb.setupGlyf(glyphs)
    advances = {n: src['hmtx'][n][0] for n in PLAIN}
    advances.update({n: src['hmtx'][base][0] for n, (base, _) in LAYER_GLYPHS.items()})
    advances.update({n: adv for n, _, adv in COLOR_GLYPHS})
    advances[SVG_GLYPH[0]] = SVG_GLYPH[2]
    glyf = fb.font['glyf']
    fb.setupHorizontalMetrics({n: (advances[n], getattr(glyf[n], 'xMin', 0)) for n in order})
    hhea = src['hhea']
    fb.setupHorizontalHeader(ascent=hhea.ascent, descent=hhea.descent, lineGap=hhea.lineGap)
    fb.setupHead(unitsPerEm=2048, created=TIMESTAMP, modified=TIMESTAMP, fontRevision=1.0,
                 flags=src['head'].flags)
    sname = src['name']
    fb.setupNameTable({
        'copyright': sname.getDebugName(0),
        'familyName': 'InkHit Color Test',
        'styleName': 'Regular',
        'uniqueFontIdentifier': 'InkHit Color Test Regular 1.000',
        'fullName': 'InkHit Color Test Regular',
        'version': 'Version 1.000',
        'psName': 'InkHitColorTest-Regular',
        'description': 'Colour-glyph test font for InkHit (COLR v0, COLR v1, CPAL, SVG), '
                       'made by Tests/Fonts/make_color_font.py from DejaVu Sans 2.37 outlines.',
        'licenseDescription': LICENSE_NOTE + sname.getDebugName(13),
        'licenseInfoURL': sname.getDebugName(14),
    }, mac=False)
    fb.setupOS2(sTypoAscender=src['OS/2'].sTypoAscender, sTypoDescender=src['OS/2'].sTypoDescender,
                sTypoLineGap=src['OS/2'].sTypoLineGap, usWinAscent=src['OS/2'].usWinAscent,
                usWinDescent=src['OS/2'].usWinDescent, achVendID='NONE')
    fb.setupPost()
    fb.font['COLR'] = buildCOLR(color_glyphs(), glyphMap=fb.font.getReverseGlyphMap(),
                                clipBoxes={'colr1.clipped': (150, -100, 1100, 1250)})
    fb.font['CPAL'] = buildCPAL([PALETTE])
    svg = newTable('SVG ')
    gid = order.index(SVG_GLYPH[0])
    svg.docList = [SVGDocument(svg_document(gid), gid, gid, False)]
    fb.font['SVG '] = svg
    return fb.font


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', default=os.path.join(HERE, 'InkColorTest.ttf'))
    args = ap.parse_args(argv)
    font = build()
    font.save(args.out)
    print(f'wrote {args.out} ({os.path.getsize(args.out)} bytes)')


if __name__ == '__main__':
    main()
