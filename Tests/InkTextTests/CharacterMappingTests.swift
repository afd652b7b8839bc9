import Testing
import InkGeometry
import InkFreeType
@testable import InkText
import InkTestSupport

/// Hits on the ink map back to characters: the glyph, its UTF-16 range (from hb-shape's clusters), the
/// UTF-8 range (Swift's `String.utf8`) and the `Character` index (Swift's `Character` iteration).
struct MappingCase: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var fonts: [String]
    var testDescription: String { name }
}

let mappingCases: [MappingCase] = [
    MappingCase(name: "astral letters (surrogate pairs)", text: "x\u{1D5A0}\u{1D5A1}y\u{1D5BA}", fonts: [Fonts.sansPath]),
    MappingCase(name: "combining marks", text: "ae\u{301}n\u{303}q\u{303}\u{323}z", fonts: [Fonts.sansPath]),
    MappingCase(name: "CJK", text: "漢字かな", fonts: [Fonts.droidPath]),
    MappingCase(name: "Latin and CJK with fallback", text: "Hé 漢字 \u{1D5A0}", fonts: [Fonts.sansPath, Fonts.droidPath]),
    MappingCase(name: "emoji ZWJ sequence between letters", text: "a👩‍👩‍👧b", fonts: [Fonts.sansPath]),
    MappingCase(name: "Hebrew with points", text: "שָׁלוֹם", fonts: [Fonts.sansPath]),
]

@Test(arguments: mappingCases)
func inkHitsReportRangesFromSwiftAndHarfBuzz(_ c: MappingCase) throws {
    let fonts = try c.fonts.map(Fonts.font)
    let l = try layout(c.text, fonts: fonts, size: 48)
    let swift = SwiftOffsets(c.text)
    var checked = 0
    for gi in l.glyphs.indices {
        let g = l.glyphs[gi]
        // Expected cluster: the Characters the glyph's cluster covers (a cluster never splits a Character).
        let chars = swift.characterRanges.filter { $0.overlaps(g.utf16) }
        try #require(chars.count >= 1)
        #expect(g.utf16 == chars.first!.lowerBound..<chars.last!.upperBound,
                "\(c.name): glyph \(gi) cluster \(g.utf16) is not whole Characters \(chars)")
        guard let p = try inkPoints(l, glyph: gi).first else { continue }
        let h = try #require(l.hit(at: p), "\(c.name): no hit on the ink of glyph \(gi) at \(p)")
        #expect(h.placement == gi, "\(c.name): hit glyph \(String(describing: h.placement)) at \(p), expected \(gi)")
        #expect(h.kind == .ink && h.distance < 0)
        #expect(h.utf16 == g.utf16, "\(c.name): hit \(h.utf16) on a glyph of cluster \(g.utf16)")
        #expect(h.utf8 == swift.utf8(h.utf16), "\(c.name): UTF-8 \(h.utf8) vs Swift \(swift.utf8(h.utf16))")
        #expect(h.character == swift.character(h.utf16.lowerBound), "\(c.name): Character \(h.character)")
        #expect(h.line == 0 && h.link == nil && h.attachment == nil)
        checked += 1
    }
    #expect(checked >= 2, "\(c.name): only \(checked) glyphs had ink points")
}

/// The clusters agree with hb-shape's (converted from scalar indices to UTF-16 offsets).
@Test(arguments: mappingCases.filter { $0.fonts.count == 1 })
func clustersAreHbShapeClustersInUTF16(_ c: MappingCase) throws {
    let hb = try HBShape.shape(c.text, font: c.fonts[0])
    let l = try layout(c.text, fonts: [Fonts.font(c.fonts[0])], size: 48)
    #expect(l.glyphs.map(\.utf16) == HBShape.clusterRanges(hb, text: c.text))
}

/// The emoji ZWJ sequence has no glyph in these fonts: it becomes .notdef boxes and zero-width joiners,
/// one cluster for the whole family, one Character; box hits over it report the whole sequence.
@Test func emojiZWJSequenceMapsToOneCharacter() throws {
    let text = "a👩‍👩‍👧b c"
    let swift = SwiftOffsets(text)
    let l = try layout(text, size: 48)
    let family = 1..<9
    #expect(swift.characterRanges[1] == family)
    let gs = l.glyphs.indices.filter { l.glyphs[$0].utf16 == family }
    #expect(gs.count == 5, "three .notdef and two joiners, as hb-shape gives")
    // Over the family's advance, at mid height, every hit (ink or box) is the whole family.
    let x0 = gs.map { l.glyphs[$0].x }.min()!
    let x1 = gs.map { l.glyphs[$0].x + l.glyphs[$0].advance }.max()!
    let y = l.lines[0].baseline - 10
    var answered = 0
    for i in 1..<40 {
        let p = Point(x0 + (x1 - x0) * Double(i) / 40, y)
        for mode in [TextHitMode.ink(boxesForGlyphsWithoutInk: true), .ink, .characterBoxes] {
            guard let h = l.hit(at: p, mode: mode) else { continue }
            if mode == .characterBoxes && (p.x - x0 < 0.01 || x1 - p.x < 0.01) { continue }
            #expect(h.utf16 == family, "\(mode) at \(p): \(h.utf16)")
            #expect(h.utf8 == swift.utf8(family) && h.utf8 == 1..<19)
            #expect(h.character == 1)
            answered += 1
        }
    }
    #expect(answered >= 39, "character boxes answer every point over the family")
    // The space's box answers only when asked for boxes of glyphs without ink.
    let space = try glyph(l, containing: 10)
    let sp = Point(l.glyphs[space].x + l.glyphs[space].advance / 2, y)
    #expect(l.hit(at: sp) == nil)
    let hb = try #require(l.hit(at: sp, mode: .ink(boxesForGlyphsWithoutInk: true)))
    #expect(hb.kind == .box && hb.utf16 == 10..<11 && hb.placement == space && hb.character == 3)
}

// MARK: - Ligature splitting

/// DejaVu Sans has no GDEF ligature carets for ffi/ffl (so the split is equal by graphemes); if a font
/// update adds them, the expectation follows them.
func ligatureParts(_ l: TextLayout, glyph gi: Int, parts: Int) -> [Double] {
    if let cs = l.carets[gi], cs.count == parts - 1 { return [0] + cs.sorted() + [1] }
    return (0...parts).map { Double($0) / Double(parts) }
}

@Test(arguments: [("office", 1..<4, Fonts.sansPath), ("affluent", 1..<4, Fonts.sansPath),
                  ("fluffier", 3..<5, Fonts.serifPath)])
func pointOnLigatureThirdReportsItsLetter(_ text: String, _ lig: Range<Int>, _ path: String) throws {
    let l = try layout(text, fonts: [Fonts.font(path)], size: 60)
    let swift = SwiftOffsets(text)
    let gi = try #require(l.glyphs.firstIndex { $0.utf16 == lig }, "no ligature glyph for \(lig) in \(text)")
    let g = l.glyphs[gi]
    let edges = ligatureParts(l, glyph: gi, parts: lig.count)
    var seen = Set<Int>()
    for p in try inkPoints(l, glyph: gi) {
        let f = (p.x - g.x) / g.advance
        guard let n = edges.indices.dropLast().first(where: { f >= edges[$0] + 0.02 && f < edges[$0 + 1] - 0.02 }) else { continue }
        let h = try #require(l.hit(at: p))
        let expected = (lig.lowerBound + n)..<(lig.lowerBound + n + 1)
        #expect(h.placement == gi)
        #expect(h.utf16 == expected, "\(text): point at fraction \(f) of the ligature hit \(h.utf16), expected \(expected)")
        #expect(h.utf8 == swift.utf8(expected) && h.character == expected.lowerBound)
        seen.insert(n)
    }
    #expect(seen == Set(0..<lig.count), "every component has ink points: \(seen)")
}

@Test func dejaVuHasNoLigatureCaretsSoTheSplitIsEqual() throws {
    // Checked with fontTools: GDEF LigCaretList has LigGlyphCount 0 in DejaVu Sans.
    let l = try layout("office affluent", size: 60)
    #expect(l.carets.isEmpty)
}

/// A link on only the "i" of the ffi ligature: the glyph's left part is not the link, its right part is.
@Test func linkOnOneLigatureComponentCoversOnlyThatPart() throws {
    let l = try layout("office", size: 60, links: [TextLink(range: 3..<4, tag: "i")])
    let gi = try #require(l.glyphs.firstIndex { $0.utf16 == 1..<4 })
    let g = l.glyphs[gi]
    let pts = try inkPoints(l, glyph: gi)
    let left = try #require(pts.first { ($0.x - g.x) / g.advance < 0.3 })
    let right = try #require(pts.first { ($0.x - g.x) / g.advance > 0.7 })
    #expect(l.hit(at: left)?.link == nil)
    #expect(l.link(at: left) == nil)
    #expect(l.hit(at: right)?.link == "i")
    #expect(l.link(at: right)?.link.tag == "i")
    #expect(l.link(at: right)?.hit.utf16 == 3..<4)
}

/// Right-to-left ligature (Arabic lam-alef): the right half is the first logical letter (lam).
@Test func rightToLeftLigatureSplitsFromTheRight() throws {
    let text = "لا"
    let hb = try HBShape.shape(text, font: Fonts.sansPath)
    try #require(hb.count == 1, "DejaVu Sans forms the lam-alef ligature")
    let l = try layout(text, size: 80)
    try #require(l.glyphs.count == 1)
    let g = l.glyphs[0]
    #expect(g.isRightToLeft && g.utf16 == 0..<2)
    var sides = Set<Int>()
    for p in try inkPoints(l, glyph: 0) {
        let f = (p.x - g.x) / g.advance
        guard abs(f - 0.5) > 0.03 else { continue }
        let h = try #require(l.hit(at: p))
        #expect(h.utf16 == (f > 0.5 ? 0..<1 : 1..<2), "fraction \(f) from the left hit \(h.utf16)")
        sides.insert(f > 0.5 ? 0 : 1)
    }
    #expect(sides == [0, 1])
}

// MARK: - Character boxes

/// Per-character boxes tile each line: sorted by x they touch end to end, their widths add up to the
/// advances, and each covers one Character (a ligature's box is split between its letters).
@Test(arguments: ["office affluent", "e\u{301} n\u{303} q\u{303}", "x\u{1D5A0}漢字", "abc שלום def", "שָׁלוֹם", "مرحبا بالعالم"])
func characterBoxesTileTheLine(_ text: String) throws {
    let l = try layout(text, fonts: [Fonts.sans, Fonts.droid], size: 30)
    let boxes = l.characterBoxes().sorted { $0.box.minX < $1.box.minX }
    let swift = SwiftOffsets(text)
    #expect(Set(boxes.map(\.utf16)) == Set(swift.characterRanges), "one box per Character")
    let total = l.glyphs.reduce(0) { $0 + $1.advance }
    #expect(isClose(boxes.reduce(0) { $0 + $1.box.width }, total, within: 1e-6))
    for (a, b) in zip(boxes, boxes.dropFirst()) {
        #expect(isClose(a.box.maxX, b.box.minX, within: 1e-6), "\(text): box \(a.utf16) ends at \(a.box.maxX), \(b.utf16) starts at \(b.box.minX)")
    }
    #expect(isClose(boxes.first!.box.minX, 10, within: 1e-6), "the line starts at the origin")
    for b in boxes { #expect(b.line == 0 && b.box.minY == l.lines[0].box.minY && b.box.maxY == l.lines[0].box.maxY) }
}

@Test func characterBoxModeAnswersTheBoxUnderThePoint() throws {
    let l = try layout("Hi office", size: 30)
    for b in l.characterBoxes() {
        let h = try #require(l.hit(at: b.box.center, mode: .characterBoxes))
        #expect(h.utf16 == b.utf16 && h.kind == .box && h.distance == 0)
    }
    let lineHit = try #require(l.hit(at: Point(12, l.lines[0].baseline), mode: .lineBoxes))
    #expect(lineHit.utf16 == 0..<9 && lineHit.placement == nil && lineHit.kind == .box)
    #expect(l.hit(at: Point(12, l.lines[0].box.maxY + 5), mode: .lineBoxes) == nil)
}
