import Testing
import InkGeometry
import InkFreeType
@testable import InkText
import InkTestSupport

/// Bidi order on mixed lines. Oracle: UAX #9 worked by hand for these simple lines (runs of strong
/// characters; neutrals between two runs of the same direction take it, otherwise the paragraph's), and
/// hb-shape for the glyphs inside each right-to-left run.

/// x of the (first) glyph of each UTF-16 offset in `r`.
func xs(_ l: TextLayout, _ r: Range<Int>) throws -> [Double] {
    try r.map { o in l.glyphs[try glyph(l, containing: o)].x }
}
func isIncreasing(_ v: [Double]) -> Bool { zip(v, v.dropFirst()).allSatisfy { $0 < $1 } }
func isDecreasing(_ v: [Double]) -> Bool { zip(v, v.dropFirst()).allSatisfy { $0 > $1 } }

@Test func hebrewRunInLatinLineRunsRightToLeft() throws {
    let text = "abc שלום def"          // a b c _ ש ל ו ם _ d e f
    let l = try layout(text)
    let latin1 = try xs(l, 0..<3), hebrew = try xs(l, 4..<8), latin2 = try xs(l, 9..<12)
    #expect(isIncreasing(latin1) && isIncreasing(latin2))
    #expect(isDecreasing(hebrew), "Hebrew x by logical offset: \(hebrew)")
    #expect(latin1.max()! < hebrew.min()! && hebrew.max()! < latin2.min()!, "abc | םולש | def")
    for o in 4..<8 { #expect(l.glyphs[try glyph(l, containing: o)].isRightToLeft) }
    for o in [0, 1, 2, 3, 8, 9, 10, 11] { #expect(!l.glyphs[try glyph(l, containing: o)].isRightToLeft) }
    // The Hebrew glyphs, left to right, are hb-shape's right-to-left shaping of the word.
    let hb = try HBShape.shape("שלום", font: Fonts.sansPath)
    let heb = l.glyphs.filter { (4..<8).contains($0.utf16.lowerBound) }
    #expect(heb.map(\.id.rawValue) == hb.map(\.g))
    #expect(heb.map { $0.utf16.lowerBound } == hb.map { 4 + $0.cl })
}

@Test func arabicParagraphWithLatinRun() throws {
    let text = "مرحبا hello عالم"      // auto direction: first strong is Arabic → RTL paragraph
    let l = try layout(text)
    let arabic1 = try xs(l, 0..<5), latin = try xs(l, 6..<11), arabic2 = try xs(l, 12..<16)
    #expect(isDecreasing(arabic1) && isDecreasing(arabic2), "\(arabic1) \(arabic2)")
    #expect(isIncreasing(latin), "\(latin)")
    // Visual: ملاع hello ابحرم — the first logical word at the right.
    #expect(arabic2.max()! < latin.min()! && latin.max()! < arabic1.min()!)
    let first = l.glyphs[try glyph(l, containing: 0)]
    #expect(l.glyphs.allSatisfy { $0.x <= first.x + 1e-9 }, "the first logical character is the rightmost")
}

@Test func arabicWordInsideLatinParagraph() throws {
    let text = "Say مرحبا now"
    let l = try layout(text)
    let arabic = try xs(l, 4..<9)
    #expect(isDecreasing(arabic))
    let say = try xs(l, 0..<3), now = try xs(l, 10..<13)
    #expect(say.max()! < arabic.min()! && arabic.max()! < now.min()!)
    let hb = try HBShape.shape("مرحبا", font: Fonts.sansPath)
    let glyphsAr = l.glyphs.filter { (4..<9).contains($0.utf16.lowerBound) }
    #expect(glyphsAr.map(\.id.rawValue) == hb.map(\.g), "joined (contextual) forms as hb-shape gives them")
}

@Test(arguments: [ParagraphStyle.Direction.leftToRight, .auto, .rightToLeft])
func baseDirectionOrdersRuns(_ dir: ParagraphStyle.Direction) throws {
    let text = "abc שלום"
    let l = try layout(text, direction: dir)
    let latin = try xs(l, 0..<3), hebrew = try xs(l, 4..<8)
    #expect(isIncreasing(latin) && isDecreasing(hebrew))
    if dir == .rightToLeft {
        // RTL paragraph: runs go right to left, so "abc" (first) is at the right of the Hebrew.
        #expect(hebrew.max()! < latin.min()!, "םולש abc")
        let a = l.glyphs[try glyph(l, containing: 0)]
        #expect(l.glyphs.filter { !$0.isRightToLeft && $0.utf16.lowerBound < 3 }.allSatisfy { $0.x >= a.x })
        #expect(l.glyphs.filter { $0.isRightToLeft }.allSatisfy { $0.x < a.x })
    } else {
        #expect(latin.max()! < hebrew.min()!, "abc םולש")
        let a = l.glyphs[try glyph(l, containing: 0)]
        #expect(l.glyphs.allSatisfy { $0.x >= 10 - 1e-9 } && isClose(a.x, 10, within: 1e-9))
    }
}

/// A forced right-to-left paragraph of Hebrew: the first logical character is at the right end.
@Test func rightToLeftBasePutsFirstCharacterAtTheRight() throws {
    let text = "שלום עולם"
    let l = try layout(text, direction: .rightToLeft)
    let first = l.glyphs[try glyph(l, containing: 0)]
    #expect(l.glyphs.allSatisfy { $0.x <= first.x + 1e-9 })
    #expect(isDecreasing(try xs(l, 0..<9)))
}

/// European digits inside a right-to-left paragraph stay left to right (level 2).
@Test func digitsInRightToLeftTextStayLeftToRight() throws {
    let text = "שלום 123 עולם"
    let l = try layout(text)
    let digits = try xs(l, 5..<8)
    #expect(isIncreasing(digits), "\(digits)")
    let olam = try xs(l, 9..<13), shalom = try xs(l, 0..<4)
    #expect(olam.max()! < digits.min()! && digits.max()! < shalom.min()!)
}

/// Mirrored brackets: in a right-to-left run "(" is drawn with the ")" glyph, as hb-shape does.
@Test func bracketsAreMirroredInRightToLeftRuns() throws {
    let text = "(שלום)"
    let l = try layout(text)
    let hb = try HBShape.shape(text, font: Fonts.sansPath)
    #expect(l.glyphs.map(\.id.rawValue) == hb.map(\.g))
    let open = l.glyphs[try glyph(l, containing: 0)]
    #expect(try open.id == Fonts.sans.glyph(for: ")"), "the opening bracket shows as ')' at the right")
    #expect(l.glyphs.allSatisfy { $0.x <= open.x })
}

/// Hits in a mixed line land on the character under the point, whatever the visual order.
@Test func hitsInMixedLineLandOnTheCharacterUnderThePoint() throws {
    let text = "abc שלום def مرحبا"
    let l = try layout(text, size: 48)
    let swift = SwiftOffsets(text)
    var n = 0
    for gi in l.glyphs.indices {
        guard let p = try inkPoints(l, glyph: gi).first else { continue }
        let h = try #require(l.hit(at: p))
        #expect(h.placement == gi && h.utf16 == l.glyphs[gi].utf16)
        #expect(h.utf8 == swift.utf8(h.utf16) && h.character == swift.character(h.utf16.lowerBound))
        n += 1
    }
    #expect(n >= 14)
}

/// Caret positions in a right-to-left run: the left edge of a Hebrew letter is after it logically.
@Test func caretInRightToLeftRunUsesLogicalOffsets() throws {
    let l = try layout("abc שלום", size: 40)
    let shin = l.glyphs[try glyph(l, containing: 4)]         // ש: rightmost Hebrew letter
    let y = l.lines[0].baseline - 5
    let right = try #require(l.caret(at: Point(shin.x + shin.advance - 0.5, y)))
    let left = try #require(l.caret(at: Point(shin.x + 0.5, y)))
    #expect(right.utf16 == 4, "right edge of ש is before it")
    #expect(left.utf16 == 5, "left edge of ש is after it")
}

/// Rule L2 on hand-worked level sequences.
@Test func visualOrderReversesRunsFromTheHighestLevel() {
    #expect(Bidi.visualOrder([0, 0, 1, 1, 2, 2, 1, 0]) == [0, 1, 6, 4, 5, 3, 2, 7])
    #expect(Bidi.visualOrder([1, 1, 1]) == [2, 1, 0])
    #expect(Bidi.visualOrder([0, 0]) == [0, 1])
    #expect(Bidi.visualOrder([2, 2, 1, 2]) == [3, 2, 0, 1])
    #expect(Bidi.visualOrder([]) == [])
}

/// FriBidi levels for the lines above, and the resolved paragraph level.
@Test func bidiLevelsMatchUAX9() {
    let (lv, base) = Bidi.levels(Array("abc שלום def".unicodeScalars), base: .auto)
    #expect(base == 0)
    #expect(lv == [0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0])
    let (lv2, base2) = Bidi.levels(Array("שלום 12".unicodeScalars), base: .auto)
    #expect(base2 == 1 && lv2 == [1, 1, 1, 1, 1, 2, 2])
    let (lv3, base3) = Bidi.levels(Array("abc".unicodeScalars), base: .rightToLeft)
    #expect(base3 == 1 && lv3 == [2, 2, 2])
}
