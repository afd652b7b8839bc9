import Testing
import InkGeometry
import InkFreeType
@testable import InkText
import InkTestSupport

/// Paragraph layout checked by properties that define greedy line breaking, measured on an unwrapped
/// layout of the same text: (1) lines cover the text in order; (2) a line ends at a break opportunity
/// (after spaces, after a hyphen, next to a CJK ideograph), or, for a word longer than the line, at a
/// Character boundary; (3) no line is wider than the width unless it holds one Character; (4) greedy:
/// the next piece (up to the next opportunity) would not have fit.
struct Wrapper {
    let text: String
    let u: [UInt16]
    let swift: SwiftOffsets
    /// Advance of each cluster (UTF-16 range) on one unwrapped line.
    let clusters: [(range: Range<Int>, advance: Double)]

    init(_ text: String, fonts: [Font], size: Double) throws {
        self.text = text
        u = Array(text.utf16)
        swift = SwiftOffsets(text)
        let flat = try layout(text, fonts: fonts, size: size)
        var adv: [Range<Int>: Double] = [:]
        for g in flat.glyphs { adv[g.utf16, default: 0] += g.advance }
        clusters = adv.map { ($0.key, $0.value) }.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    static func isCJK(_ c: UInt16) -> Bool { (0x3040...0x30FF).contains(c) || (0x4E00...0x9FFF).contains(c) }
    static func isSpace(_ c: UInt16) -> Bool { c == 0x20 }
    static let noStart: Set<UInt16> = [0x3002, 0x3001, 0xFF0C, 0x2E, 0x2C, 0x21, 0x3F]   // 。、，.,!?

    /// UAX #14 for the characters used here.
    func isOpportunity(_ o: Int) -> Bool {
        guard o > 0, o < u.count, !Self.isSpace(u[o]) else { return false }
        let a = u[o - 1], b = u[o]
        if Self.isSpace(a) || a == 0x2D || a == 0x0A { return true }
        if (Self.isCJK(a) || Self.isCJK(b)) && !Self.noStart.contains(b) { return true }
        return false
    }

    /// Width of `r` without trailing spaces.
    func width(_ r: Range<Int>) -> Double {
        var end = r.upperBound
        while end > r.lowerBound && Self.isSpace(u[end - 1]) { end -= 1 }
        return clusters.filter { $0.range.lowerBound >= r.lowerBound && $0.range.upperBound <= end }
            .reduce(0) { $0 + $1.advance }
    }

    func check(_ l: TextLayout, width w: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        let starts = l.lines.map(\.utf16.lowerBound)
        #expect(starts.first == 0, sourceLocation: sourceLocation)
        #expect(l.lines.last?.utf16.upperBound == u.count, sourceLocation: sourceLocation)
        for (a, b) in zip(l.lines, l.lines.dropFirst()) {
            #expect(a.utf16.upperBound == b.utf16.lowerBound, "lines cover the text", sourceLocation: sourceLocation)
        }
        for (i, line) in l.lines.enumerated() {
            let r = line.utf16
            let chars = swift.characterRanges.filter { $0.lowerBound >= r.lowerBound && $0.upperBound <= r.upperBound }
            let measured = width(r)
            #expect(measured <= w + 1e-9 || chars.count == 1,
                    "width \(w): line \(i) \(r) is \(measured) wide", sourceLocation: sourceLocation)
            // The glyphs of the line agree with the measurement.
            let ink = l.glyphs.filter { $0.line == i && !Self.isSpace(u[$0.utf16.lowerBound]) }
            if let x1 = ink.map({ $0.x + $0.advance }).max() {
                #expect(x1 - 10 <= max(w, measured) + 1e-9, sourceLocation: sourceLocation)
            }
            guard i + 1 < l.lines.count else { continue }
            let e = r.upperBound
            let opportunities = (r.lowerBound + 1..<e).filter(isOpportunity)
            if u[e - 1] == 0x0A { continue }      // mandatory break
            if isOpportunity(e) {
                // Greedy: the next piece would not have fit.
                let next = (e + 1...u.count).first { $0 == u.count || isOpportunity($0) }!
                #expect(width(r.lowerBound..<next) > w, "width \(w): line \(i) \(r) could have taken \(e)..<\(next)",
                        sourceLocation: sourceLocation)
            } else {
                // An over-long word broken between Characters: no opportunity on the line, and one more
                // Character would not have fit.
                #expect(opportunities.isEmpty, "width \(w): line \(i) \(r) ends at \(e), not at a break opportunity",
                        sourceLocation: sourceLocation)
                #expect(swift.characterStarts.contains(e), "break inside a Character at \(e)", sourceLocation: sourceLocation)
                if let nextChar = swift.characterRanges.first(where: { $0.lowerBound == e }) {
                    #expect(width(r.lowerBound..<nextChar.upperBound) > w, sourceLocation: sourceLocation)
                }
            }
        }
    }
}

struct WrapCase: CustomTestStringConvertible, Sendable {
    var name: String, text: String, fonts: [String], size: Double, widths: [Double]
    var testDescription: String { name }
}

let wrapCases: [WrapCase] = [
    WrapCase(name: "Latin prose", text: "The quick brown fox jumps over the lazy dog. AVATAR Wave To office affluent.",
             fonts: [Fonts.sansPath], size: 20, widths: stride(from: 61.3, through: 400, by: 23.7).map { $0 }),
    WrapCase(name: "hyphens", text: "well-known state-of-the-art long-term fine-tuning",
             fonts: [Fonts.sansPath], size: 20, widths: stride(from: 45.1, through: 300, by: 17.3).map { $0 }),
    WrapCase(name: "CJK", text: "漢字のテストです。日本語の文章を折り返す、長い行。",
             fonts: [Fonts.droidPath], size: 20, widths: [45, 61, 70.5, 99.9, 130, 201]),
    WrapCase(name: "CJK and Latin with fallback", text: "Hello 漢字テスト world 日本語",
             fonts: [Fonts.sansPath, Fonts.droidPath], size: 20, widths: [50, 71, 90, 133, 170]),
    WrapCase(name: "over-long words", text: "Supercalifragilisticexpialidocious is longer than a line",
             fonts: [Fonts.sansPath], size: 20, widths: [30, 55.5, 80, 120]),
    WrapCase(name: "over-long word with marks and astral letters",
             text: "e\u{301}e\u{301}q\u{303}\u{1D5A0}\u{1D5A1}e\u{301}q\u{303}q\u{303}\u{1D5A2}e\u{301} ok",
             fonts: [Fonts.sansPath], size: 30, widths: [20, 35, 50.5]),
]

@Test(arguments: wrapCases)
func wrappingIsGreedyAtBreakOpportunities(_ c: WrapCase) throws {
    let fonts = try c.fonts.map(Fonts.font)
    let oracle = try Wrapper(c.text, fonts: fonts, size: c.size)
    var multiLine = false
    for w in c.widths {
        let l = try layout(c.text, fonts: fonts, size: c.size, width: w)
        oracle.check(l, width: w)
        if l.lines.count > 1 { multiLine = true }
        for (i, line) in l.lines.enumerated() where i + 1 < l.lines.count {
            let next = oracle.u[line.utf16.upperBound]
            #expect(!Wrapper.noStart.contains(next), "\(c.name) width \(w): line \(i + 1) starts with closing punctuation")
        }
    }
    #expect(multiLine)
}

@Test func wordsThatFitAreNotSplit() throws {
    let text = "alpha beta gamma delta epsilon"
    let l = try layout(text, size: 20, width: 120)
    #expect(l.lines.count > 1)
    for line in l.lines {
        let s = Array(text.utf16)
        #expect(line.utf16.lowerBound == 0 || s[line.utf16.lowerBound - 1] == 0x20, "line starts at a word")
    }
}

@Test func explicitNewlinesStartNewLines() throws {
    let text = "one\ntwo\r\nthree\u{2029}four\n\nsix"
    let l = try layout(text, size: 20, origin: Point(10, 20))
    #expect(l.lines.map(\.utf16.lowerBound) == [0, 4, 9, 15, 20, 21])
    #expect(l.lines.map(\.utf16) == [0..<4, 4..<9, 9..<15, 15..<20, 20..<21, 21..<24])
    // DejaVu Sans (fontTools): hhea ascender 1901, descender -483, line gap 0, upem 2048.
    let k = 20.0 / 2048
    for (i, line) in l.lines.enumerated() {
        #expect(isClose(line.box.minY, (20 + Double(i) * 2384 * k), within: 1e-9), "line \(i) top")
        #expect(isClose(line.baseline - line.box.minY, 1901 * k, within: 1e-9), "line \(i) ascent")
        #expect(isClose(line.box.height, 2384 * k, within: 1e-9))
    }
    for g in l.glyphs { #expect(g.y == l.lines[g.line].baseline && g.x >= 10) }
    // The first glyph of each non-empty line is at the left edge.
    for i in [0, 1, 2, 3, 5] {
        let first = l.glyphs.filter { $0.line == i }.map(\.x).min()
        #expect(first.map { isClose($0, 10, within: 1e-9) } == true, "line \(i)")
    }
    // Newline glyphs never appear; the text after a newline is on the next line.
    #expect(!l.glyphs.contains { [3, 7, 8, 14, 19, 20].contains($0.utf16.lowerBound) })
    #expect(l.glyphs.first { $0.utf16.lowerBound == 4 }?.line == 1)
}

@Test func newlinesAndWrappingTogether() throws {
    let text = "a long first paragraph here\nshort\nanother long paragraph to wrap"
    let w = 100.0
    let l = try layout(text, size: 20, width: w)
    try Wrapper(text, fonts: [Fonts.sans], size: 20).check(l, width: w)
    let nl = Array(text.utf16).indices.filter { Array(text.utf16)[$0] == 0x0A }
    for o in nl { #expect(l.lines.contains { $0.utf16.upperBound == o + 1 }, "a line ends after the newline at \(o)") }
}

@Test(arguments: [ParagraphStyle.Alignment.center, .right])
func alignmentMovesLinesByTheirSlack(_ a: ParagraphStyle.Alignment) throws {
    let text = "The quick brown fox jumps over the lazy dog\nand back"
    let w = 170.0
    let left = try layout(text, size: 20, width: w, origin: Point(10, 20))
    let moved = try layout(text, size: 20, width: w, alignment: a, origin: Point(10, 20))
    #expect(left.glyphs.count == moved.glyphs.count && left.lines.count == moved.lines.count)
    #expect(left.lines.count >= 3)
    let u = Array(text.utf16)
    for i in left.lines.indices {
        // Content: glyphs that are not spaces; the slack is the width minus the content's extent.
        let ink = left.glyphs.filter { $0.line == i && u[$0.utf16.lowerBound] != 0x20 }
        let extent = (ink.map { $0.x + $0.advance }.max() ?? 10) - 10
        let shift = a == .center ? (w - extent) / 2 : w - extent
        for (g, h) in zip(left.glyphs, moved.glyphs) where g.line == i {
            #expect(isClose(h.x, (g.x + shift), within: 1e-9), "line \(i): \(h.x) vs \(g.x) + \(shift)")
        }
        #expect(isClose(moved.lines[i].contentBox.minX, (10 + shift), within: 1e-9))
    }
    // Hits follow the glyphs.
    for gi in moved.glyphs.indices {
        guard let p = try inkPoints(moved, glyph: gi).first else { continue }
        #expect(moved.hit(at: p)?.placement == gi)
    }
}

@Test func originMovesEverything() throws {
    let a = try layout("Hi office", size: 30, width: 80, origin: Point(0, 0))
    let b = try layout("Hi office", size: 30, width: 80, origin: Point(37.5, -12.25))
    for (g, h) in zip(a.glyphs, b.glyphs) {
        #expect(isClose(h.x - g.x, 37.5, within: 1e-9) && isClose(h.y - g.y, -12.25, within: 1e-9))
    }
}

// MARK: - maxLines and the ellipsis

@Test func truncationEndsWithEllipsisThatHitsTheCutRange() throws {
    let text = "one two three four five six seven eight nine"
    let w = 240.0
    let l = try layout(text, size: 40, width: w, maxLines: 2)
    let swift = SwiftOffsets(text)
    #expect(l.lines.count == 2)
    let cut = try #require(l.truncated)
    #expect(cut.upperBound == text.utf16.count)
    // The cut starts at the end of the kept words (the spaces before the first cut word are cut too), and
    // everything before it is laid out.
    let u = Array(text.utf16)
    #expect(u[cut.lowerBound - 1] != 0x20 && (u[cut.lowerBound] == 0x20 || u[cut.lowerBound - 1] == 0x20))
    let shown = Set(l.glyphs.filter { !$0.isEllipsis }.flatMap { Array($0.utf16) }.filter { u[$0] != 0x20 })
    #expect(shown == Set((0..<cut.lowerBound).filter { u[$0] != 0x20 }))
    // The last glyph of the last line (visually) is the ellipsis, and the line still fits.
    let last = try #require(l.glyphs.filter { $0.line == 1 }.max { $0.x < $1.x })
    #expect(last.isEllipsis && last.utf16 == cut)
    #expect(last.x + last.advance - 10 <= w + 1e-9)
    #expect(l.glyphs.filter { $0.isEllipsis }.count == 1)
    #expect(l.lines[1].utf16.upperBound == cut.lowerBound, "the last line's range ends where the cut begins")
    // A hit on the ellipsis reports the truncated range.
    let ei = try #require(l.glyphs.firstIndex { $0.isEllipsis })
    let p = try #require(try inkPoints(l, glyph: ei).first, "the ellipsis has ink")
    let h = try #require(l.hit(at: p))
    #expect(h.placement == ei && h.utf16 == cut && h.kind == .ink)
    #expect(h.utf8 == swift.utf8(cut) && h.character == swift.character(cut.lowerBound))
    #expect(h.line == 1)
}

@Test func truncationWithoutWidthCutsLines() throws {
    let text = "a\nb\nc\nd"
    let l = try layout(text, size: 20, maxLines: 2)
    #expect(l.lines.count == 2)
    let cut = try #require(l.truncated)
    #expect(cut.upperBound == 7 && (3...4).contains(cut.lowerBound), "cut \(cut)")
    #expect(l.glyphs.contains { $0.utf16 == 2..<3 && !$0.isEllipsis }, "b stays")
    #expect(!l.glyphs.contains { !$0.isEllipsis && $0.utf16.lowerBound >= 4 })
    let e = try #require(l.glyphs.first { $0.isEllipsis })
    #expect(e.line == 1 && e.utf16 == cut)
}

@Test func textThatFitsIsNotTruncated() throws {
    for (text, w, m) in [("one two", 200.0, 1), ("one two three", 70.0, 3), ("a\nb", 100.0, 2)] {
        let l = try layout(text, size: 20, width: w, maxLines: m)
        #expect(l.truncated == nil, "\(text)")
        #expect(!l.glyphs.contains { $0.isEllipsis })
    }
}

@Test func oneLineTruncationOfALongWordStillFits() throws {
    let text = "Incomprehensibilities everywhere"
    let w = 90.0
    let l = try layout(text, size: 20, width: w, maxLines: 1)
    #expect(l.lines.count == 1)
    let cut = try #require(l.truncated)
    #expect(cut.upperBound == text.utf16.count && cut.lowerBound > 0)
    let right = l.glyphs.map { $0.x + $0.advance }.max()!
    #expect(right - 10 <= w + 1e-9, "line with ellipsis is \(right - 10) wide")
    #expect(l.glyphs.last { $0.line == 0 }?.isEllipsis == true)
}

/// A text ending with a newline has an empty last line; cutting only that line cuts nothing visible, so
/// there is no ellipsis (as with "a\nb" and maxLines 2).
@Test func trailingNewlineAloneIsNotTruncated() throws {
    let l = try layout("a\nb\n", size: 20, maxLines: 2)
    #expect(l.truncated == nil, "truncated \(String(describing: l.truncated))")
    #expect(!l.glyphs.contains { $0.isEllipsis }, "an ellipsis after \"b\" although nothing visible was cut")
}

/// Right-to-left paragraphs: trailing spaces of a wrapped line hang at the line's visual end, which is
/// its left side; alignment must place the content (not the spaces) at the edges.
@Test(arguments: [ParagraphStyle.Alignment.left, .center, .right])
func rightToLeftWrappedLinesAlignTheirContent(_ a: ParagraphStyle.Alignment) throws {
    let text = "שלום עולם שלום עולם"
    let w = 120.0
    let l = try layout(text, size: 20, width: w, alignment: a, origin: Point(0, 0))
    #expect(l.lines.count == 2)
    let u = Array(text.utf16)
    for i in l.lines.indices {
        let ink = l.glyphs.filter { $0.line == i && u[$0.utf16.lowerBound] != 0x20 }
        let minX = ink.map(\.x).min()!, maxX = ink.map { $0.x + $0.advance }.max()!
        switch a {
        case .left: #expect(isClose(minX, 0, within: 1e-9), "line \(i) content starts at \(minX), not at the left edge")
        case .right: #expect(isClose(maxX, w, within: 1e-9), "line \(i) content ends at \(maxX), not at the right edge \(w)")
        case .center: #expect(isClose((minX + maxX) / 2, w / 2, within: 1e-9), "line \(i) content centred at \((minX + maxX) / 2)")
        }
        #expect(maxX <= w + 1e-9, "line \(i) overflows the width: \(maxX)")
    }
}

/// UAX #14 mandatory breaks other than LF, CR and U+2029: line separator U+2028, NEL U+0085, VT and FF.
/// Each ends the line, and, being a control/separator, draws no ink (HarfBuzz maps VT, FF and NEL to
/// .notdef in DejaVu Sans, whose box would otherwise be hit).
@Test(arguments: [0x2028, 0x0085, 0x000B, 0x000C] as [UInt32])
func mandatoryBreaksOtherThanNewlineStartNewLines(_ sep: UInt32) throws {
    let text = "one" + String(Unicode.Scalar(sep)!) + "two"
    let l = try layout(text, size: 40)
    #expect(l.lines.count == 2, "U+\(String(sep, radix: 16)) does not end the line: \(l.lines.map(\.utf16))")
    #expect(l.glyphs.first { $0.utf16.lowerBound == 4 }?.line == 1)
    for gi in l.glyphs.indices where l.glyphs[gi].utf16.contains(3) {
        #expect(inkBounds(l, gi).isEmpty, "U+\(String(sep, radix: 16)) is drawn with glyph \(l.glyphs[gi].id), which has ink")
    }
}

/// A tab is whitespace: it breaks lines and has no ink. DejaVu Sans has no glyph for U+0009 and HarfBuzz
/// gives .notdef (a box outline) for it, which must not be drawn or hit.
@Test func tabHasNoInk() throws {
    let l = try layout("a\tb", size: 40)
    let tab = try glyph(l, containing: 1)
    #expect(inkBounds(l, tab).isEmpty, "the tab is drawn with glyph \(l.glyphs[tab].id) (.notdef is 0)")
    let g = l.glyphs[tab]
    var tabHits = 0
    for f in stride(from: 0.05, to: 1, by: 0.05) {
        for y in stride(from: l.lines[0].box.minY, to: l.lines[0].box.maxY, by: 1.0) {
            if l.hit(at: Point(g.x + f * g.advance, y))?.utf16 == 1..<2 { tabHits += 1 }
        }
    }
    #expect(tabHits == 0, "\(tabHits) points over the tab hit it")
    #expect(l.hit(at: Point(g.x + g.advance / 2, l.lines[0].baseline - 5), mode: .ink(boxesForGlyphsWithoutInk: true))?.utf16 == 1..<2,
            "as a glyph without ink, it answers as a box when asked")
}

/// Each paragraph finds its own base direction (`.auto`): after a newline, a Hebrew paragraph is RTL.
@Test func eachParagraphHasItsOwnDirection() throws {
    let text = "abc def\nשלום abc"
    let l = try layout(text)
    let shin = l.glyphs[try glyph(l, containing: 8)]
    let a = l.glyphs[try glyph(l, containing: 13)]
    #expect(shin.line == 1 && a.line == 1)
    #expect(a.x < shin.x, "RTL paragraph: \"abc\" (logically last) is left of the Hebrew")
    #expect(l.glyphs[try glyph(l, containing: 0)].x < l.glyphs[try glyph(l, containing: 4)].x)
}
