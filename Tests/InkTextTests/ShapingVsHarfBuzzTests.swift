import Foundation
import Testing
import InkGeometry
import InkFreeType
@testable import InkText
import InkTestSupport

/// Shaping compared with HarfBuzz's own command-line shaper on the same fonts: glyph ids, clusters (hb-shape
/// gives scalar indices, InkText gives UTF-16 offsets), advances and offsets (font units × size / upem).
struct ShapingCase: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var font: String
    var size: Double = 40
    var testDescription: String { name }
}

let shapingCases: [ShapingCase] = [
    ShapingCase(name: "Latin with kerning", text: "AVATAR Wave To.", font: Fonts.sansPath),
    ShapingCase(name: "Latin with kerning, serif", text: "AVATAR Wave To.", font: Fonts.serifPath),
    ShapingCase(name: "ligatures", text: "office affluent fl", font: Fonts.sansPath),
    ShapingCase(name: "monospace", text: "office -> 0O", font: Fonts.monoPath, size: 17),
    ShapingCase(name: "combining marks", text: "e\u{301} n\u{303} q\u{303}", font: Fonts.sansPath),
    ShapingCase(name: "decomposed marks without a precomposed form", text: "q\u{303}\u{323}x\u{30C}", font: Fonts.sansPath),
    ShapingCase(name: "astral letters", text: "\u{1D5A0}\u{1D5A1}\u{1D5BA} \u{1D5A2}", font: Fonts.sansPath),
    ShapingCase(name: "CJK in Droid Sans Fallback", text: "漢字のテスト", font: Fonts.droidPath, size: 24),
    ShapingCase(name: "Hebrew", text: "שלום עולם", font: Fonts.sansPath),
    ShapingCase(name: "Hebrew with points", text: "שָׁלוֹם", font: Fonts.sansPath),
    ShapingCase(name: "Hebrew with mirrored parentheses", text: "(שלום)", font: Fonts.sansPath),
    ShapingCase(name: "Arabic", text: "مرحبا بالعالم", font: Fonts.sansPath),
    ShapingCase(name: "Arabic lam-alef ligature", text: "لا سلام", font: Fonts.sansPath),
    ShapingCase(name: "fractional size", text: "Wave AVA", font: Fonts.sansPath, size: 13.37),
]

@Test(arguments: shapingCases)
func shapingMatchesHbShape(_ c: ShapingCase) throws {
    let font = try Fonts.font(c.font)
    let hb = try HBShape.shape(c.text, font: c.font)
    let origin = Point(5, 7)
    let l = try layout(c.text, fonts: [font], size: c.size, origin: origin)
    try #require(l.lines.count == 1)
    let glyphs = l.glyphs.filter { !$0.isEllipsis }
    try #require(glyphs.count == hb.count, "\(c.name): InkText \(glyphs.map(\.id)) vs hb-shape \(hb.map(\.g))")
    let k = c.size / Double(font.unitsPerEm)
    let ranges = HBShape.clusterRanges(hb, text: c.text)
    let baseline = l.lines[0].baseline
    var pen = origin.x
    for (i, (g, h)) in zip(glyphs, hb).enumerated() {
        #expect(g.id.rawValue == h.g, "\(c.name) glyph \(i): id \(g.id) vs hb-shape \(h.g)")
        #expect(g.utf16 == ranges[i], "\(c.name) glyph \(i): cluster \(g.utf16) vs hb-shape \(ranges[i])")
        #expect(isClose(g.advance, Double(h.ax) * k, within: 1e-9), "\(c.name) glyph \(i): advance \(g.advance) vs \(Double(h.ax) * k)")
        #expect(isClose(g.x, (pen + Double(h.dx) * k), within: 1e-6), "\(c.name) glyph \(i): x \(g.x) vs \(pen + Double(h.dx) * k)")
        #expect(isClose(g.y, (baseline - Double(h.dy) * k), within: 1e-6), "\(c.name) glyph \(i): y")
        #expect(g.font == 0 && g.size == c.size)
        pen += Double(h.ax) * k
    }
}

/// The kerning case only proves something if kerning changes the answer: hb-shape without `kern` differs,
/// and InkText follows the kerned one.
@Test func kerningIsAppliedAsHbShapeDoes() throws {
    let text = "AVATAR To."
    let kerned = try HBShape.shape(text, font: Fonts.sansPath)
    let plain = try HBShape.shape(text, font: Fonts.sansPath, features: "-kern")
    #expect(kerned.map(\.ax) != plain.map(\.ax), "DejaVu Sans kerns AV and To")
    let l = try layout(text, size: 2048, origin: .zero)   // 1 px per font unit
    for (g, h) in zip(l.glyphs, kerned) { #expect(isClose(g.advance, Double(h.ax), within: 1e-9)) }
    // "A" before "V" is narrower than its nominal advance.
    let nominal = try Fonts.sans.advance(of: Fonts.sans.glyph(for: "A")!)
    #expect(l.glyphs[0].advance < nominal - 1)
}

/// Ligatures exist (otherwise the ligature tests below test nothing): hb-shape forms ffi, ffl and fl in
/// DejaVu Sans and InkText gives one glyph for each, whose cluster covers all its letters.
@Test func ligaturesFormOneGlyphPerCluster() throws {
    let text = "office affluent fl"
    let hb = try HBShape.shape(text, font: Fonts.sansPath)
    let noLiga = try HBShape.shape(text, font: Fonts.sansPath, features: "-liga")
    #expect(hb.count == noLiga.count - 5, "ffi, ffl, fl are 3 glyphs instead of 8")
    let l = try layout(text)
    #expect(l.glyphs.count == hb.count)
    #expect(l.glyphs.contains { $0.utf16 == 1..<4 })      // ffi
    #expect(l.glyphs.contains { $0.utf16 == 8..<11 })     // ffl
    #expect(l.glyphs.contains { $0.utf16 == 16..<18 })    // fl
}

/// Text split into items (scripts, fonts) shapes each item as hb-shape shapes that item alone, and the
/// pen continues across items.
@Test func itemsShapeLikeHbShapeRunByRun() throws {
    let runs: [(String, String)] = [("Hello ", Fonts.sansPath), ("漢字", Fonts.droidPath), ("AVA.", Fonts.sansPath)]
    let text = runs.map(\.0).joined()
    let l = try layout(text, fonts: [Fonts.sans, Fonts.droid], size: 30, origin: .zero)
    var expected: [(font: Int, id: UInt32, x: Double, utf16: Int)] = []
    var pen = 0.0, offset = 0
    for (s, path) in runs {
        let f = try Fonts.font(path)
        let k = 30 / Double(f.unitsPerEm)
        let u16 = HBShape.utf16Offsets(s)
        for h in try HBShape.shape(s, font: path) {
            expected.append((path == Fonts.droidPath ? 1 : 0, h.g, pen + Double(h.dx) * k, offset + u16[h.cl]))
            pen += Double(h.ax) * k
        }
        offset += s.utf16.count
    }
    try #require(l.glyphs.count == expected.count, "\(l.glyphs.map(\.id)) vs \(expected.map(\.id))")
    for (g, e) in zip(l.glyphs, expected) {
        #expect(g.font == e.font && g.id.rawValue == e.id && g.utf16.lowerBound == e.utf16, "\(g) vs \(e)")
        #expect(isClose(g.x, e.x, within: 1e-6), "x of glyph at \(e.utf16): \(g.x) vs \(e.x)")
    }
}

/// Font fallback: for each character the first font that has it.
@Test func fallbackUsesTheSecondFontForCJK() throws {
    let text = "Hello 漢字"
    let l = try layout(text, fonts: [Fonts.sans, Fonts.droid], size: 30)
    for g in l.glyphs {
        if g.utf16.lowerBound >= 6 {
            #expect(g.font == 1, "CJK glyph at \(g.utf16) from font \(g.font)")
            let ch = Unicode.Scalar(text.utf16[text.utf16.index(text.utf16.startIndex, offsetBy: g.utf16.lowerBound)])!
            #expect(try g.id == Fonts.droid.glyph(for: ch))
        } else {
            #expect(g.font == 0, "Latin glyph at \(g.utf16) from font \(g.font)")
        }
    }
    // Line metrics come from the first font of the chain (hhea, read with fontTools: DejaVu Sans 1901/−483
    // of 2048), whatever fallback a line uses, so the line pitch is predictable.
    for t in ["Hello 漢字", "Hello", "漢字"] {
        let m = try layout(t, fonts: [Fonts.sans, Fonts.droid], size: 30)
        #expect(isClose(m.lines[0].baseline - m.lines[0].box.minY, 1901.0 / 2048 * 30, within: 1e-9), "\(t)")
        #expect(isClose(m.lines[0].contentBox.maxY - m.lines[0].baseline, 483.0 / 2048 * 30, within: 1e-9), "\(t)")
    }
    // Fonts in the other order: Droid Sans Fallback has no Latin letters, so they come from font 1.
    let l2 = try layout(text, fonts: [Fonts.droid, Fonts.sans], size: 30)
    for g in l2.glyphs where g.utf16.lowerBound < 5 { #expect(g.font == 1, "Latin at \(g.utf16)") }
    for g in l2.glyphs where g.utf16.lowerBound >= 6 { #expect(g.font == 0, "CJK at \(g.utf16)") }
    // A character no font has: the first font's .notdef, no crash.
    let l3 = try layout("a\u{10FFFD}b", fonts: [Fonts.sans, Fonts.droid])
    #expect(l3.glyphs.contains { $0.id == 0 && $0.font == 0 && $0.utf16 == 1..<3 })
}

/// Combining marks take the font of their base character even when a later font would also have them.
@Test func marksStayWithTheirBaseFont() throws {
    let text = "漢\u{301}a\u{301}"
    let l = try layout(text, fonts: [Fonts.sans, Fonts.droid])
    for g in l.glyphs where g.utf16.contains(0) || g.utf16.contains(1) { #expect(g.font == 1) }
    for g in l.glyphs where g.utf16.contains(2) || g.utf16.contains(3) { #expect(g.font == 0) }
}

/// The ellipsis of truncation is HarfBuzz's glyph for U+2026.
@Test func ellipsisGlyphIsTheFontsEllipsis() throws {
    let hb = try HBShape.shape("\u{2026}", font: Fonts.sansPath)
    let l = try layout("one two three four five six seven", width: 150, maxLines: 1)
    let e = try #require(l.glyphs.last { $0.isEllipsis })
    #expect(e.id.rawValue == hb[0].g)
    #expect(isClose(e.advance, Double(hb[0].ax) * 40 / 2048, within: 1e-9))
}
