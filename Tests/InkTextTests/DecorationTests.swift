import Foundation
import Testing
import InkGeometry
import InkFreeType
@testable import InkText
import InkTestSupport

// Decorations: rectangles from the font tables (read with fontTools 4.68, independently of FreeType:
// DejaVu Sans post.underlinePosition −40, underlineThickness 90, OS/2 yStrikeoutPosition 530,
// yStrikeoutSize 102, hhea.ascender 1901, upem 2048; Droid Sans Fallback −20, 13, 62, 13, 267, upem 256),
// and the hit rule that takes them as ink.

private func layoutWith(_ text: String, runs: [TextRun], size: Double = 16, width: Double? = nil,
                        links: [TextLink] = [], transform: Transform = .identity) throws -> TextLayout {
    try TextLayout(text: text, style: TextStyle(fonts: [try Fonts.sans, try Fonts.droid], size: size), runs: runs,
                   paragraph: ParagraphStyle(width: width, origin: Point(10, 20)), links: links, transform: transform,
                   cache: sharedCache)
}

@Test func fontTablesAreReadAsStored() throws {
    let m = try Fonts.sans.decorationMetrics
    #expect(m == DecorationMetrics(underlinePosition: -40, underlineThickness: 90, strikeoutPosition: 530, strikeoutSize: 102,
                                   ascender: 1901))
    let d = try Fonts.droid.decorationMetrics
    #expect(d == DecorationMetrics(underlinePosition: -20, underlineThickness: 13, strikeoutPosition: 62, strikeoutSize: 13,
                                   ascender: 267))
}

/// Underline, double underline, strikethrough and overline of "more" in "Read more": from the pen before
/// its "m" to the pen after its "e", at the tables' heights.
@Test func decorationRectanglesFollowTheTables() throws {
    let runs = [TextRun(range: 5..<9, underline: .double, strikethrough: true, overline: true)]
    let l = try layoutWith("Read more", runs: runs)
    let s = 16.0 / 2048, baseline = l.lines[0].baseline
    let m = try #require(l.glyphs.first { $0.utf16 == 5..<6 }), e = try #require(l.glyphs.first { $0.utf16 == 8..<9 })
    let x0 = m.x, x1 = e.x + e.advance
    func rect(_ top: Double, _ h: Double) -> Rect { Rect(minX: x0, minY: top, maxX: x1, maxY: top + h) }
    let expected: [(TextDecoration.Kind, Rect)] = [
        (.underline, rect(baseline + 40 * s, 90 * s)), (.underline, rect(baseline + 40 * s + 180 * s, 90 * s)),
        (.strikethrough, rect(baseline - 530 * s, 102 * s)), (.overline, rect(baseline - 1901 * s - 90 * s, 90 * s))]
    try #require(l.decorations.count == 4)
    for (d, (kind, r)) in zip(l.decorations, expected) {
        #expect(d.kind == kind && d.utf16 == 5..<9 && d.line == 0)
        for (a, b) in [(d.rect.minX, r.minX), (d.rect.minY, r.minY), (d.rect.maxX, r.maxX), (d.rect.maxY, r.maxY)] {
            #expect(isClose(a, b, within: 1e-9), "\(kind): \(d.rect) vs \(r)")
        }
    }
}

/// A segment breaks where the size or the shift changes, each part from its own metrics and baseline;
/// a line's trailing spaces are not decorated, spaces inside are; letter spacing is inside the stroke.
@Test func segmentsBreakAtSizeAndShiftAndSkipTrailingSpaces() throws {
    let runs = [TextRun(range: 0..<15, underline: .single), TextRun(range: 5..<9, size: 24, letterSpacing: 2),
                TextRun(range: 10..<15, baselineShift: 3)]
    let l = try layoutWith("Read more about", runs: runs, width: 150)
    try #require(l.lines.count == 2, "\"Read more \" / \"about\"")
    let u = l.decorations
    try #require(u.count == 3)
    let baseline0 = l.lines[0].baseline, baseline1 = l.lines[1].baseline
    // "Read " at 16 px (the space inside is covered), "more" at 24 px up to the pen after its spacing,
    // "about" on line 1 shifted up by 3.
    let r = l.glyphs.first { $0.utf16 == 0..<1 }!, m = l.glyphs.first { $0.utf16 == 5..<6 }!
    let e = l.glyphs.first { $0.utf16 == 8..<9 }!
    #expect(u[0].utf16 == 0..<5 && u[0].rect.minX == r.x && isClose(u[0].rect.maxX, m.x, within: 1e-9))
    #expect(isClose(u[0].rect.minY, (baseline0 + 40 * 16 / 2048), within: 1e-9))
    #expect(u[1].utf16 == 5..<9 && isClose(u[1].rect.maxX, (e.x + e.advance + 2), within: 1e-9), "the trailing space is not decorated")
    #expect(isClose(u[1].rect.minY, (baseline0 + 40 * 24 / 2048), within: 1e-9) && isClose(u[1].rect.height, 90 * 24 / 2048, within: 1e-9))
    #expect(u[2].utf16 == 10..<15 && u[2].line == 1 && isClose(u[2].rect.minY, (baseline1 - 3 + 40 * 16 / 2048), within: 1e-9))
}

/// The primary font of the chain gives the geometry, whichever font draws the characters: CJK drawn by the
/// fallback font is underlined at DejaVu Sans's position; a run whose chain starts with Droid Sans Fallback
/// at Droid's.
@Test func thePrimaryFontOfTheChainGivesTheGeometry() throws {
    let l = try layoutWith("ab漢字", runs: [TextRun(range: 0..<4, underline: .single)])
    #expect(l.decorations.count == 1, "one segment: the primary font does not change")
    let baseline = l.lines[0].baseline
    #expect(isClose(l.decorations[0].rect.minY, (baseline + 40 * 16 / 2048), within: 1e-9))
    let m = try layoutWith("ab漢字", runs: [TextRun(range: 0..<4, underline: .single), TextRun(range: 2..<4, fonts: [1, 0])])
    #expect(m.decorations.count == 2)
    #expect(isClose(m.decorations[1].rect.minY, (m.lines[0].baseline + 20 * 16 / 256), within: 1e-9) && isClose(m.decorations[1].rect.height, 13 * 16 / 256, within: 1e-9))
}

/// The hit rule: glyph ink first at r = 0; where only the stroke holds the point, the decoration answers
/// with the character whose advance holds x and that character's link; within a radius the nearest ink
/// wins and ties go to the glyph.
@Test func decorationsAreInkUnderTheGlyphs() throws {
    let text = "tap the spy link"
    let link = TextLink(range: 8..<16, tag: "url")
    let l = try layoutWith(text, runs: [TextRun(range: 8..<16, underline: .single)], size: 40, links: [link])
    let u = try #require(l.decorations.first)
    // A point on the underline where the "p" of "spy" descends through it: the glyph's ink wins.
    let p = try glyph(l, containing: 9)
    // Pixels of FreeType's rendering of the "p" alone that it covers fully (their centres are at least 0.5 px
    // inside its ink), whose centres lie in the stroke (0.2 px in from its edges).
    let b = inkBounds(l, p)
    let region = (x0: Int(b.minX) - 1, y0: Int(b.minY) - 1, w: Int(b.width) + 3, h: Int(b.height) + 3)
    let cov = try coverage(l, p, region: region)
    var crossing: [Point] = []
    for r in 0..<region.h {
        for c in 0..<region.w where cov[r * region.w + c] == 255 {
            let q = Point(Double(region.x0 + c) + 0.5, Double(region.y0 + r) + 0.5)
            if u.rect.insetBy(0.2).contains(q) { crossing.append(q) }
        }
    }
    try #require(!crossing.isEmpty, "the p's descender crosses the underline")
    for q in crossing {
        let h = try #require(l.hit(at: q))
        #expect(h.placement == p && h.decoration == nil)
    }
    // Between "spy" and "link" (the space): only the stroke. The character whose advance holds x: the space.
    let space = try glyph(l, containing: 11)
    let mid = Point(l.glyphs[space].x + l.glyphs[space].advance / 2, (u.rect.minY + u.rect.maxY) / 2)
    let h = try #require(l.hit(at: mid))
    #expect(h.placement == nil && h.decoration == .underline && h.utf16 == 11..<12 && h.link == "url" && h.kind == .ink)
    #expect(h.distance < 0 && h.distance >= -u.rect.height / 2 - 1e-9)
    // The link is hit through its underline.
    let lh = try #require(l.link(at: mid))
    #expect(lh.link.tag == "url" && lh.hit.decoration == .underline && lh.hit.utf16 == 11..<12)
    // 1.5 px below the underline, under the space: within 3.5 px only of the stroke.
    let below = Point(mid.x, u.rect.maxY + 1.5)
    let r = try #require(l.hit(at: below, radius: 3.5))
    #expect(r.decoration == .underline && isClose(r.distance, 1.5, within: 1e-6) && r.kind == .radius && r.link == "url")
    #expect(l.hit(at: below) == nil)
    #expect(l.link(at: below, radius: 3.5)?.link.tag == "url")
}

/// Under a transform (rotation and scale), the strokes are hit where they are drawn, and distances are in
/// view px.
@Test func decorationsUnderATransform() throws {
    let t = Transform(a: 2 * cos(0.5), b: 2 * sin(0.5), c: -2 * sin(0.5), d: 2 * cos(0.5), tx: 30, ty: 7)
    let l = try layoutWith("a b", runs: [TextRun(range: 0..<3, strikethrough: true)], size: 30, transform: t)
    let d = try #require(l.decorations.first)
    let space = try glyph(l, containing: 1)
    let x = l.glyphs[space].x + l.glyphs[space].advance / 2
    let inside = Point(x, d.rect.center.y).applying(t)
    #expect(l.hit(at: inside)?.decoration == .strikethrough)
    let above = Point(x, d.rect.minY - 1).applying(t)              // 1 layout px = 2 view px above
    #expect(l.hit(at: above, radius: 1.9) == nil)
    let near = try #require(l.hit(at: above, radius: 2.1))
    #expect(near.decoration == .strikethrough && isClose(near.distance, 2, within: 1e-6))
}
