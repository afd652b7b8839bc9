import Foundation
import Testing
import InkGeometry
import InkFreeType
import InkTestSupport
@testable import InkText

// Styled runs: each run shaped as hb-shape shapes it with the run's font and size; overlapping runs resolved
// per attribute; mixed sizes on a line checked by hand against the fonts' hhea values (read with fontTools:
// DejaVu Sans and DejaVu Sans Bold ascender 1901, descender −483, line gap 0, upem 2048; Droid Sans Fallback
// 267 / −68 / 0, upem 256).

private let sansBoldPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

/// A layout of `text` over DejaVu Sans (font 0), DejaVu Sans Bold (1) and Droid Sans Fallback (2).
private func styled(_ text: String, runs: [TextRun], size: Double = 16, paragraph: ParagraphStyle = ParagraphStyle(),
                    links: [TextLink] = []) throws -> TextLayout {
    let fonts = [try Fonts.sans, try Fonts.font(sansBoldPath), try Fonts.droid]
    return try TextLayout(text: text, style: TextStyle(fonts: fonts, size: size), runs: runs, paragraph: paragraph,
                          links: links, cache: sharedCache)
}

/// Each run's glyphs are hb-shape's for the run's text in its font, scaled to its size; the pen runs on
/// across runs, and each glyph carries its run's font and size.
@Test func eachRunShapesLikeHbShapeWithItsFontAndSize() throws {
    // (text, font path, font index, size): "AVA" at 16 in Sans, "Wave" at 22.5 in Bold, "To." at 11 in Sans.
    let parts: [(String, String, Int, Double)] = [("AVA ", Fonts.sansPath, 0, 16), ("Wave ", sansBoldPath, 1, 22.5),
                                                  ("To.", Fonts.sansPath, 0, 11)]
    let text = parts.map(\.0).joined()
    var runs: [TextRun] = [], o = 0
    for p in parts {
        runs.append(TextRun(range: o..<(o + p.0.utf16.count), fonts: [p.2], size: p.3))
        o += p.0.utf16.count
    }
    let l = try styled(text, runs: runs, paragraph: ParagraphStyle(origin: Point(3, 5)))
    var expected: [(font: Int, id: UInt32, x: Double, size: Double, utf16: Int)] = []
    var pen = 3.0
    o = 0
    for p in parts {
        let k = p.3 / 2048
        let u16 = HBShape.utf16Offsets(p.0)
        for h in try HBShape.shape(p.0, font: p.1) {
            expected.append((p.2, h.g, pen + Double(h.dx) * k, p.3, o + u16[h.cl]))
            pen += Double(h.ax) * k
        }
        o += p.0.utf16.count
    }
    try #require(l.glyphs.count == expected.count, "\(l.glyphs.map(\.id)) vs \(expected.map(\.id))")
    for (g, e) in zip(l.glyphs, expected) {
        #expect(g.font == e.font && g.id.rawValue == e.id && g.size == e.size && g.utf16.lowerBound == e.utf16, "\(g) vs \(e)")
        #expect(isClose(g.x, e.x, within: 1e-6), "x of glyph at \(e.utf16): \(g.x) vs \(e.x)")
    }
}

/// A run that only decorates, shifts or spaces does not break shaping: "AV" keeps its kerning across the
/// start of an underline, exactly as hb-shape kerns the whole word; a run that changes the size does break
/// it (then each side is shaped alone).
@Test func onlyShapingAttributesBreakShaping() throws {
    let whole = try HBShape.shape("AVA", font: Fonts.sansPath)
    let k = 40.0 / 2048
    let underlined = try styled("AVA", runs: [TextRun(range: 1..<3, underline: .single)], size: 40)
    #expect(isClose(underlined.glyphs[0].advance, Double(whole[0].ax) * k, within: 1e-9), "A kerned before V")
    #expect(whole[0].ax != Int(try Fonts.sans.advance(of: Fonts.sans.glyph(for: "A")!)), "DejaVu Sans kerns AV")
    let shifted = try styled("AVA", runs: [TextRun(range: 1..<3, baselineShift: 3)], size: 40)
    #expect(isClose(shifted.glyphs[0].advance, Double(whole[0].ax) * k, within: 1e-9))
    // The same size written by a run does not break either; another size does.
    let same = try styled("AVA", runs: [TextRun(range: 1..<3, size: 40)], size: 40)
    #expect(isClose(same.glyphs[0].advance, Double(whole[0].ax) * k, within: 1e-9))
    let resized = try styled("AVA", runs: [TextRun(range: 1..<3, size: 41)], size: 40)
    let alone = try HBShape.shape("A", font: Fonts.sansPath)
    #expect(isClose(resized.glyphs[0].advance, Double(alone[0].ax) * k, within: 1e-9), "A shaped alone")
}

/// Overlapping runs: for each attribute the last run that sets it wins.
@Test func laterRunsWinPerAttribute() throws {
    let runs = [TextRun(range: 0..<6, fonts: [1], size: 20, underline: .double),
                TextRun(range: 3..<9, size: 30, baselineShift: 2),
                TextRun(range: 4..<5, fonts: [0], underline: TextRun.Underline.none)]
    let l = try styled("abcdefghij", runs: runs)
    func g(_ o: Int) -> TextLayout.Glyph { l.glyphs.first { $0.utf16.lowerBound == o }! }
    let baseline = l.lines[0].baseline
    #expect(g(0).font == 1 && g(0).size == 20 && g(0).y == baseline)
    #expect(g(3).font == 1 && g(3).size == 30 && g(3).y == baseline - 2)
    #expect(g(4).font == 0 && g(4).size == 30 && g(4).y == baseline - 2)
    #expect(g(6).font == 0 && g(6).size == 30 && g(6).y == baseline - 2)
    #expect(g(9).font == 0 && g(9).size == 16 && g(9).y == baseline)
    // Underlines: 0..<3 (20 px), 3..<4 (30 px, shifted), then none at 4, then 5..<6 — two strokes each.
    let u = l.decorations.filter { $0.kind == .underline }
    #expect(u.map(\.utf16) == [0..<3, 0..<3, 3..<4, 3..<4, 5..<6, 5..<6])
}

/// Letter spacing goes after each grapheme (a ligature of n letters gets it n times), and is part of the
/// pen's advance: the glyphs after move by the sum.
@Test func letterSpacingFollowsEachGrapheme() throws {
    let plain = try styled("office e\u{301}x", runs: [])
    let spaced = try styled("office e\u{301}x", runs: [TextRun(range: 0..<10, letterSpacing: 1.5)])
    #expect(plain.glyphs.map(\.id) == spaced.glyphs.map(\.id), "spacing does not change shaping")
    // o, ffi (3 graphemes), c, e, space, é (one grapheme of 2 units), x: the x after é is 8 graphemes on.
    let last = spaced.glyphs.count - 1
    #expect(isClose(spaced.glyphs[last].x - plain.glyphs[last].x, 8 * 1.5, within: 1e-9))
    let ffi = try #require(spaced.glyphs.firstIndex { $0.utf16 == 1..<4 })
    #expect(isClose(spaced.glyphs[ffi + 1].x - spaced.glyphs[ffi].x - spaced.glyphs[ffi].advance, 3 * 1.5, within: 1e-9))
}

/// Mixed sizes on one line, by hand: the line's ascent and descent are the largest of its primary fonts at
/// their sizes, times the line height; every glyph sits on the one baseline.
@Test func mixedSizesShareTheTallestLineBox() throws {
    let l = try styled("ab漢", runs: [TextRun(range: 1..<2, size: 32), TextRun(range: 2..<3, fonts: [2], size: 20)],
                       paragraph: ParagraphStyle(origin: Point(0, 10)))
    let ascent = max(1901.0 / 2048 * 32, 267.0 / 256 * 20), descent = max(483.0 / 2048 * 32, 68.0 / 256 * 20)
    #expect(isClose(l.lines[0].baseline, (10 + ascent), within: 1e-9))
    #expect(isClose(l.lines[0].box.maxY, (10 + ascent + descent), within: 1e-9))
    #expect(l.glyphs.allSatisfy { $0.y == l.lines[0].baseline })
    // Times 1.5, and a second line (after a newline) starts at the first one's bottom.
    let m = try styled("ab\nc", runs: [TextRun(range: 1..<2, size: 32)],
                       paragraph: ParagraphStyle(origin: Point(0, 10), lineHeight: 1.5))
    let a32 = 1901.0 / 2048 * 32 * 1.5, d32 = 483.0 / 2048 * 32 * 1.5
    #expect(isClose(m.lines[0].baseline, (10 + a32), within: 1e-9))
    #expect(isClose(m.lines[1].box.minY, (10 + a32 + d32), within: 1e-9))
    #expect(isClose(m.lines[1].baseline - m.lines[1].box.minY, 1901.0 / 2048 * 16 * 1.5, within: 1e-9), "line 2 has only 16 px text")
}

/// Paragraph spacing goes between paragraphs; the first-line indent moves each paragraph's first line.
@Test func paragraphSpacingAndFirstLineIndent() throws {
    let text = "one two three four\nfive six"
    let plain = try styled(text, runs: [], paragraph: ParagraphStyle(width: 80, origin: Point(5, 0)))
    let l = try styled(text, runs: [], paragraph: ParagraphStyle(width: 80, origin: Point(5, 0), paragraphSpacing: 7,
                                                                 firstLineIndent: 12))
    let starts = l.lines.map { $0.utf16.lowerBound }
    let firsts = Set([0, text.utf16.count - 8])                      // "five six" starts a paragraph
    for (li, line) in l.lines.enumerated() {
        let first = l.glyphs.first { $0.line == li }!
        #expect(isClose(first.x, (firsts.contains(starts[li]) ? 17 : 5), within: 1e-9), "line \(li)")
        _ = line
    }
    let p2 = try #require(l.lines.firstIndex { $0.utf16.lowerBound == text.utf16.count - 8 })
    let q2 = try #require(plain.lines.firstIndex { $0.utf16.lowerBound == text.utf16.count - 8 })
    // Both layouts keep the same line pitch; the second paragraph moved by the spacing (and any extra line
    // the indent made).
    let pitch = plain.lines[0].box.height
    #expect(isClose(l.lines[p2].box.minY, (Double(p2) * pitch + 7), within: 1e-9))
    #expect(isClose(plain.lines[q2].box.minY, Double(q2) * pitch, within: 1e-9))
}

/// Bad runs and paragraph settings are refused with the run named.
@Test func badRunsAreRefused() throws {
    func error(_ runs: [TextRun], _ p: ParagraphStyle = ParagraphStyle()) -> TextError? {
        do { _ = try styled("abcdef", runs: runs, paragraph: p); return nil } catch let e as TextError { return e } catch { return nil }
    }
    if case .invalidRun(1, _)? = error([TextRun(range: 0..<2), TextRun(range: 4..<9)]) {} else { Issue.record("out of range") }
    if case .invalidRun(0, _)? = error([TextRun(range: 3..<3)]) {} else { Issue.record("empty") }
    if case .invalidRun(0, _)? = error([TextRun(range: 0..<2, fonts: [3])]) {} else { Issue.record("unknown font") }
    if case .invalidRun(0, _)? = error([TextRun(range: 0..<2, fonts: [])]) {} else { Issue.record("no fonts") }
    if case .invalidRun(0, _)? = error([TextRun(range: 0..<2, size: -1)]) {} else { Issue.record("size") }
    if case .invalidRun(0, _)? = error([TextRun(range: 0..<2, letterSpacing: .nan)]) {} else { Issue.record("spacing") }
    if case .invalidRun(1, _)? = error([TextRun(range: 0..<2),
                                        TextRun(range: 0..<2, glyphStyle: GlyphStyle(oblique: 99))]) {} else { Issue.record("style") }
    if case .invalidParagraph? = error([], ParagraphStyle(lineHeight: 0)) {} else { Issue.record("lineHeight") }
    if case .invalidParagraph? = error([], ParagraphStyle(paragraphSpacing: -1)) {} else { Issue.record("spacing") }
    if case .invalidParagraph? = error([], ParagraphStyle(firstLineIndent: .infinity)) {} else { Issue.record("indent") }
}

/// `count` overlapping runs of up to 400 units at random over `length` units.
func overlappingRuns(count: Int, length: Int, seed: UInt64) -> [TextRun] {
    var rng = SplitMix64(seed: seed)
    return (0..<count).map { _ -> TextRun in
        let a = rng.int(length - 1)
        let b = min(length, a + 1 + rng.int(400))
        return TextRun(range: a..<b, size: 10 + Double(rng.int(4)), underline: rng.int(2) == 0 ? .single : nil)
    }
}

/// Many runs resolve in work about linear in their number: 20,000 overlapping runs over 100,000 units are
/// resolved, and twice the runs over twice the text take at most about twice the steps (runs, spans painted,
/// links followed, spans resolved: `StyleMap.init(runs:base:length:steps:)`), where work quadratic in either
/// gives 4× — counted, so the machine's load cannot decide.
@Test func manyOverlappingRunsResolveQuickly() throws {
    let text = String(repeating: "ab cd ", count: 16_667)
    let runs = overlappingRuns(count: 20_000, length: text.utf16.count, seed: 23)
    let base = TextStyle(fonts: [try Fonts.sans], size: 16)
    let map = try StyleMap(runs: runs, base: base, length: text.utf16.count)
    var steps: [Int] = []
    for n in [2_500, 5_000] {
        var s = 0
        _ = try StyleMap(runs: overlappingRuns(count: n, length: 5 * n, seed: 24), base: base, length: 5 * n, steps: &s)
        steps.append(s)
    }
    print("StyleMap steps, 2,500 → 5,000 runs: \(steps[0]) → \(steps[1])")
    // 8 attributes × (runs + spans) plus the spans, painted and resolved once each, and path-halving's links.
    #expect(steps[0] >= 2_500 && Double(steps[1]) <= 2.3 * Double(steps[0]),
            "5,000 runs over 25,000 units vs 2,500 over 12,500: \(steps[0]) → \(steps[1]) steps")
    // Spot checks against the rule, by scanning every run.
    for o in stride(from: 0, to: text.utf16.count, by: 997) {
        let size = runs.last { $0.range.contains(o) && $0.size != nil }?.size ?? 16
        let underline = runs.last { $0.range.contains(o) && $0.underline != nil }?.underline ?? TextRun.Underline.none
        #expect(map[at: o].size == size && map[at: o].underline == underline, "offset \(o)")
    }
}
