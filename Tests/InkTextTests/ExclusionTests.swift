import Foundation
import Testing
import InkGeometry
import InkFreeType
import InkTestSupport
@testable import InkText

// Exclusions: on random shapes and texts no glyph's ink box (FreeType's control box of the glyph as
// placed) and no attachment box overlaps a shape — checked against the shapes' own geometry here (box vs.
// rectangle, box vs. ellipse in the ellipse's unit circle, box vs. convex polygon by separating axes) —
// and every line keeps to the width.

/// Whether the closed boxes `a` and `b` overlap with positive area.
private func boxesOverlap(_ a: Rect, _ b: Rect) -> Bool {
    a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY
}

/// Whether box `b` overlaps the ellipse inscribed in `e` (the nearest point of the box to the centre, in the
/// ellipse's unit-circle coordinates, lies strictly inside).
private func boxOverlapsEllipse(_ b: Rect, _ e: Rect) -> Bool {
    let cx = e.center.x, cy = e.center.y, rx = e.width / 2, ry = e.height / 2
    guard rx > 0, ry > 0 else { return false }
    let nx = min(max(cx, b.minX), b.maxX), ny = min(max(cy, b.minY), b.maxY)
    let dx = (nx - cx) / rx, dy = (ny - cy) / ry
    return dx * dx + dy * dy < 1 - 1e-12
}

/// Whether box `b` overlaps the convex polygon `poly` (separating axis theorem: the box's axes and the
/// polygon's edge normals).
private func boxOverlapsConvex(_ b: Rect, _ poly: [Point]) -> Bool {
    let corners = [Point(b.minX, b.minY), Point(b.maxX, b.minY), Point(b.maxX, b.maxY), Point(b.minX, b.maxY)]
    var axes = [Point(1, 0), Point(0, 1)]
    for i in poly.indices {
        let p = poly[i], q = poly[(i + 1) % poly.count]
        axes.append(Point(-(q.y - p.y), q.x - p.x))
    }
    for a in axes {
        let pa = corners.map { $0.x * a.x + $0.y * a.y }, pb = poly.map { $0.x * a.x + $0.y * a.y }
        let eps = 1e-9 * (abs(a.x) + abs(a.y)) * 1000
        if pa.max()! <= pb.min()! + eps || pb.max()! <= pa.min()! + eps { return false }
    }
    return true
}

private enum Shape {
    case rect(Rect), ellipse(Rect), triangle([Point])
    var exclusion: TextExclusion {
        switch self {
        case .rect(let r): return .rect(r)
        case .ellipse(let r): return .ellipse(r)
        case .triangle(let t): return .path([.move(t[0]), .line(t[1]), .line(t[2]), .close])
        }
    }
    func overlaps(_ b: Rect) -> Bool {
        switch self {
        case .rect(let r): return boxesOverlap(b, r)
        case .ellipse(let r): return boxOverlapsEllipse(b, r)
        case .triangle(let t): return boxOverlapsConvex(b, t)
        }
    }
}

@Test(arguments: 0..<12)
func noInkBoxOverlapsAnExclusion(seed: Int) throws {
    var rng = SplitMix64(seed: UInt64(seed) &* 0x9E37 &+ 5)
    let words = ["ink", "hit", "glyph", "Wave", "AVATAR", "tap", "the", "link", "jumpy", "fox", "quiz", "ÄÖ", "g'", "()", "漢字"]
    var text = ""
    for _ in 0..<(30 + rng.int(50)) { text += words[rng.int(words.count)] + (rng.int(9) == 0 ? "\u{FFFC} " : " ") }
    let n = text.utf16.count
    let attachments = text.utf16.indices.compactMap { i -> TextAttachment? in
        let o = text.utf16.distance(from: text.utf16.startIndex, to: i)
        return text.utf16[i] == 0xFFFC ? TextAttachment(at: o, width: 12, ascent: 14, descent: 3, tag: "img\(o)") : nil
    }
    var runs: [TextRun] = []
    for _ in 0..<rng.int(6) {
        let a = rng.int(n - 1), b = min(n, a + 1 + rng.int(30))
        runs.append(TextRun(range: a..<b, size: 10 + rng.range(0, 20), glyphStyle: rng.int(3) == 0 ? GlyphStyle(oblique: 0.3) : nil,
                            baselineShift: rng.int(3) == 0 ? rng.range(-4, 6) : nil))
    }
    let width = 180 + rng.range(0, 200), origin = Point(rng.range(-20, 20), rng.range(-10, 10))
    var shapes: [Shape] = []
    for _ in 0..<(1 + rng.int(4)) {
        let x = origin.x + rng.range(-30, width), y = origin.y + rng.range(0, 200)
        let w = rng.range(5, width / 2), h = rng.range(5, 90)
        switch rng.int(3) {
        case 0: shapes.append(.rect(Rect(x: x, y: y, width: w, height: h)))
        case 1: shapes.append(.ellipse(Rect(x: x, y: y, width: w, height: h)))
        default: shapes.append(.triangle([Point(x, y), Point(x + w, y + rng.range(0, h)), Point(x + rng.range(0, w), y + h)]))
        }
    }
    let size = 12 + rng.range(0, 8)
    let l = try TextLayout(text: text, style: TextStyle(fonts: [try Fonts.sans, try Fonts.droid], size: size), runs: runs,
                           paragraph: ParagraphStyle(width: width, alignment: [.left, .center, .right][rng.int(3)], origin: origin,
                                                     exclusions: shapes.map(\.exclusion)),
                           attachments: attachments, cache: sharedCache)
    #expect(l.glyphs.filter { !$0.isEllipsis }.count > 0)
    for gi in l.glyphs.indices {
        let box = inkBounds(l, gi)
        guard !box.isEmpty else { continue }
        for (k, s) in shapes.enumerated() {
            #expect(!s.overlaps(box), "seed \(seed): glyph \(gi) (UTF-16 \(l.glyphs[gi].utf16)) box \(box) overlaps shape \(k) \(s)")
        }
    }
    for a in l.attachments {
        for (k, s) in shapes.enumerated() { #expect(!s.overlaps(a.box), "seed \(seed): attachment \(a.box) overlaps shape \(k)") }
    }
    // Lines keep to the width: every advance inside [origin.x, origin.x + width].
    for g in l.glyphs where !(l.text.utf16[l.text.utf16.index(l.text.utf16.startIndex, offsetBy: g.utf16.lowerBound)] == 0x20) {
        #expect(g.x >= origin.x - 1e-6 - max(0, -g.advance) && g.x + g.advance <= origin.x + width + 1e-6,
                "seed \(seed): glyph \(g.id) at \(g.utf16) line \(g.line) \(l.lines[g.line].fragments) from \(g.x) to \(g.x + g.advance) outside \(origin.x) … \(origin.x + width)")
    }
    // Every character was laid out (nothing dropped): the lines cover the text in order.
    #expect(l.lines.first?.utf16.lowerBound == 0 && l.lines.last?.utf16.upperBound == n)
    for (a, b) in zip(l.lines, l.lines.dropFirst()) { #expect(a.utf16.upperBound == b.utf16.lowerBound) }
}

/// Text flows around an image on the left: the lines beside it start right of it, in one fragment; the
/// lines below start at the left edge again. A rectangle in the middle splits lines into two fragments,
/// and `line` stays the line's index for both.
@Test func linesFlowAroundShapesInFragments() throws {
    let text = String(repeating: "flow around the image ", count: 12)
    let image = Rect(x: 0, y: 0, width: 60, height: 50)
    let l = try TextLayout(text: text, style: TextStyle(fonts: [try Fonts.sans], size: 14),
                           paragraph: ParagraphStyle(width: 300, exclusions: [.rect(image)]), cache: sharedCache)
    for (li, line) in l.lines.enumerated() {
        let first = l.glyphs.first { $0.line == li }!
        let beside = line.box.minY < image.maxY && line.box.maxY > image.minY
        if beside {
            #expect(first.x >= image.maxX && line.fragments.count == 1 && line.fragments[0].minX >= image.maxX, "line \(li)")
        } else if line.box.minY > image.maxY + 5 {
            #expect(first.x == 0 && line.fragments == [Rect(minX: 0, minY: line.box.minY, maxX: 300, maxY: line.box.maxY)])
        }
    }
    let middle = Rect(x: 120, y: 10, width: 40, height: 30)
    let m = try TextLayout(text: text, style: TextStyle(fonts: [try Fonts.sans], size: 14),
                           paragraph: ParagraphStyle(width: 300, exclusions: [.rect(middle)]), cache: sharedCache)
    let split = m.lines.enumerated().filter { $0.element.fragments.count == 2 }
    #expect(!split.isEmpty)
    for (li, line) in split {
        let onLine = m.glyphs.filter { $0.line == li }
        #expect(onLine.contains { $0.x + $0.advance <= middle.minX } && onLine.contains { $0.x >= middle.maxX }, "line \(li) both sides")
        #expect(line.fragments[0].maxX <= middle.minX && line.fragments[1].minX >= middle.maxX)
        let last = m.glyphs.indices.last { m.glyphs[$0].line == li && !inkBounds(m, $0).isEmpty }!
        let h = try #require(m.hit(at: inkBounds(m, last).center, radius: 2))
        #expect(h.line == li)
    }
    // maxLines counts lines, not fragments.
    let cut = try TextLayout(text: text, style: TextStyle(fonts: [try Fonts.sans], size: 14),
                             paragraph: ParagraphStyle(width: 300, maxLines: 2, exclusions: [.rect(middle)]), cache: sharedCache)
    #expect(cut.lines.count == 2 && cut.truncated != nil && cut.glyphs.last?.isEllipsis == true)
}

/// A shape as wide as the paragraph pushes lines below it; one wider than a word to its side leaves the
/// words to the other side.
@Test func aFullWidthShapePushesLinesDown() throws {
    let l = try TextLayout(text: "one two three four five", style: TextStyle(fonts: [try Fonts.sans], size: 16),
                           paragraph: ParagraphStyle(width: 100, exclusions: [.rect(Rect(x: -5, y: 5, width: 200, height: 40))]),
                           cache: sharedCache)
    for gi in l.glyphs.indices where !inkBounds(l, gi).isEmpty { #expect(inkBounds(l, gi).minY >= 45 || inkBounds(l, gi).maxY <= 5) }
    #expect(l.lines[0].box.minY >= 45 - 1e-6 || l.lines[0].box.maxY <= 5, "the first line can only go below")
}

@Test func badExclusionsAreRefused() throws {
    func error(_ e: [TextExclusion]) -> TextError? {
        do {
            _ = try TextLayout(text: "abc", style: TextStyle(fonts: [try Fonts.sans], size: 16), paragraph: ParagraphStyle(exclusions: e))
            return nil
        } catch let e as TextError { return e } catch { return nil }
    }
    if case .invalidExclusion(1, _)? = error([.rect(Rect(x: 0, y: 0, width: 1, height: 1)), .rect(Rect(minX: 0, minY: 0, maxX: -1, maxY: 1))]) {} else { Issue.record("negative") }
    if case .invalidExclusion(0, _)? = error([.ellipse(Rect(x: .nan, y: 0, width: 1, height: 1))]) {} else { Issue.record("nan") }
    if case .invalidExclusion(0, _)? = error([.path([.move(Point(0, 0)), .line(Point(1e12, 0)), .line(Point(0, 1))])]) {} else { Issue.record("huge") }
    if case .invalidExclusion(0, _)? = error([.path([.move(Point(0, 0)), .line(Point(.infinity, 0))])]) {} else { Issue.record("inf") }
}

/// Emoji presentation: Emoji_Presentation=Yes or VS16 prefer the chain's first color font, VS15 its first
/// font without color glyphs; other characters go by the cmap alone.
@Test func emojiPresentationPicksTheColorFont() throws {
    let emoji = try TestFonts.load(TestFonts.emoji)
    let style = TextStyle(fonts: [try Fonts.sans, emoji], size: 32)
    func font(_ s: String) throws -> Int { try TextLayout(text: s, style: style, cache: sharedCache).glyphs[0].font }
    #expect(try font("\u{1F600}") == 1, "U+1F600 is Emoji_Presentation=Yes; DejaVu Sans has it too")
    #expect(try font("\u{1F600}\u{FE0E}") == 0, "text presentation")
    #expect(try font("\u{263A}") == 0, "U+263A is text by default")
    #expect(try font("\u{263A}\u{FE0F}") == 1, "emoji presentation by VS16")
    #expect(try font("a\u{2614}") == 0 && TextLayout(text: "a\u{2614}", style: style, cache: sharedCache).glyphs[1].font == 1)
    // A chain without a color font: the cmap decides.
    #expect(try TextLayout(text: "\u{1F600}", style: TextStyle(fonts: [try Fonts.sans], size: 32), cache: sharedCache).glyphs[0].font == 0)
    // The answer says which font drew it: a hit on the color emoji is on a bitmap glyph.
    let l = try TextLayout(text: "\u{1F600}", style: style, cache: sharedCache)
    #expect(try l.placement(of: 0).ink == .bitmap)
}
