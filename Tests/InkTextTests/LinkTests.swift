import Testing
import InkGeometry
import InkFreeType
@testable import InkText
import InkTestSupport

/// Links and carets. Ink positions come from FreeType's rasteriser (`inkPoints`, coverage rows), not from
/// InkText's shapes.

/// Columns (layout px centres) where glyph `gi` has any ink on the pixel row at layout y `row`.
func inkColumns(_ l: TextLayout, _ gi: Int, row y: Double) throws -> [Double] {
    let b = inkBounds(l, gi)
    let x0 = Int(b.minX.rounded(.down)) - 2, w = Int(b.maxX.rounded(.up)) + 2 - x0
    let y0 = Int(y.rounded(.down))
    let c = try coverage(l, gi, region: (x0: x0, y0: y0, w: w, h: 1))
    return c.indices.filter { c[$0] > 0 }.map { Double(x0 + $0) + 0.5 }
}

@Test func linkAtReturnsTheLinkOnItsInk() throws {
    let text = "Tap the link here"
    let l = try layout(text, links: [TextLink(range: 8..<12, tag: "url")])
    for gi in l.glyphs.indices {
        guard let p = try inkPoints(l, glyph: gi).first else { continue }
        let inLink = (8..<12).contains(l.glyphs[gi].utf16.lowerBound)
        let found = l.link(at: p)
        #expect(found?.link.tag == (inLink ? "url" : nil), "glyph \(gi) at \(l.glyphs[gi].utf16)")
        #expect(l.hit(at: p)?.link == (inLink ? "url" : nil))
        if let found {
            #expect(found.link == TextLink(range: 8..<12, tag: "url"))
            #expect(found.hit.placement == gi && found.hit.kind == .ink && found.hit.utf16 == l.glyphs[gi].utf16)
        }
    }
}

@Test(arguments: [0.0, 2.0, 4.0])
func spaceAfterLinkAtLineEndNeverHitsIt(_ radius: Double) throws {
    let text = "see docs more words"
    // The link covers "docs" and, in the second layout, its trailing space too.
    for range in [4..<8, 4..<9] {
        let l = try layout(text, size: 40, width: 190, links: [TextLink(range: range, tag: "docs")])
        try #require(l.lines.count >= 2 && l.lines[0].utf16 == 0..<9, "\"see docs \" is the first line: \(l.lines.map(\.utf16))")
        let space = try glyph(l, containing: 8)
        let g = l.glyphs[space]
        let line = l.lines[0]
        var probed = 0
        // Points over the space's advance and on to the line's right end, top to bottom.
        var x = g.x
        while x < 10 + 190 {
            for y in stride(from: line.box.minY + 1, to: line.box.maxY - 1, by: 2.0) {
                let p = Point(x, y)
                if try anyInkNear(l, p, margin: radius + 0.5) { continue }
                #expect(l.link(at: p, radius: radius) == nil, "\(range), radius \(radius): link at \(p)")
                #expect(l.hit(at: p, radius: radius)?.link == nil)
                probed += 1
            }
            x += 1.3
        }
        #expect(probed > 50)
        // Asking for boxes of glyphs without ink: the space answers as itself; it is a link only if the
        // caller put it in the link.
        let box = try #require(l.hit(at: Point(g.x + g.advance / 2, line.baseline - 3), mode: .ink(boxesForGlyphsWithoutInk: true)))
        #expect(box.placement == space && box.kind == .box && box.utf16 == 8..<9)
        #expect(box.link == (range.contains(8) ? "docs" : nil))
    }
}

/// Two links on adjacent vertical stems ("ll"): within a radius that reaches both, the nearer ink wins.
@Test func nearestLinkInkWinsWithinTheRadius() throws {
    let l = try layout("ll", size: 60, links: [TextLink(range: 0..<1, tag: "A"), TextLink(range: 1..<2, tag: "B")])
    let y = l.lines[0].baseline - 20 + 0.5
    // "l" is a plain vertical stem: its control box edges are its ink edges (checked on a pixel row).
    let gapStart = inkBounds(l, 0).maxX, gapEnd = inkBounds(l, 1).minX
    let a = try inkColumns(l, 0, row: y), b = try inkColumns(l, 1, row: y)
    #expect(isClose(a.max()!, gapStart, within: 1) && isClose(b.min()!, gapEnd, within: 1))
    let gap = gapEnd - gapStart
    try #require(gap > 5, "gap between the stems: \(gap)")
    for (f, tag) in [(0.2, "A"), (0.35, "A"), (0.65, "B"), (0.8, "B")] {
        let p = Point(gapStart + f * gap, y)
        let found = try #require(l.link(at: p, radius: gap + 1))
        #expect(found.link.tag == tag, "at \(f) of the gap")
        #expect(found.hit.kind == .radius)
        let expected = tag == "A" ? p.x - gapStart : gapEnd - p.x
        // The stems are straight and vertical: exact but for Float32 storage of coordinates.
        #expect(isClose(found.hit.distance, expected, within: 1e-4), "distance \(found.hit.distance) vs ≈ \(expected)")
        #expect(l.hit(at: p, radius: gap + 1)?.link == tag)
    }
    // Out of reach of both: no link.
    #expect(l.link(at: Point(gapStart + gap / 2, y), radius: gap / 2 - 1) == nil)
    // Hits grow with the radius: whatever answers at r answers at r' > r.
    for r in stride(from: 0.0, through: gap, by: 0.5) {
        for f in stride(from: 0.05, to: 1.0, by: 0.1) {
            let p = Point(gapStart + f * gap, y)
            if l.link(at: p, radius: r) != nil { #expect(l.link(at: p, radius: r + 0.5) != nil) }
        }
    }
}

/// Tapping the right half of a one-letter link hits the link; the caret for the same point goes after it.
@Test func rightHalfOfOneLetterLinkHitsTheLinkButTheCaretGoesAfterIt() throws {
    let text = "Press X now"
    let l = try layout(text, size: 48, links: [TextLink(range: 6..<7, tag: "X")])
    let gi = try glyph(l, containing: 6)
    let g = l.glyphs[gi]
    let mid = g.x + g.advance / 2
    var right = 0, left = 0
    for p in try inkPoints(l, glyph: gi) where abs(p.x - mid) > 1 {
        let h = try #require(l.hit(at: p))
        #expect(h.link == "X" && h.placement == gi && h.utf16 == 6..<7)
        #expect(l.link(at: p)?.link.tag == "X")
        let caret = try #require(l.caret(at: p))
        if p.x > mid {
            #expect(caret.utf16 == 7, "caret after X for the right half, got \(caret.utf16)"); right += 1
        } else {
            #expect(caret.utf16 == 6, "caret before X for the left half, got \(caret.utf16)"); left += 1
        }
        #expect(caret.line == 0)
    }
    #expect(right >= 3 && left >= 3, "ink points on both halves: \(left), \(right)")
}

/// Just off the ink, within the radius: a radius hit, with the distance to the outline.
@Test func radiusHitNearALinkGlyph() throws {
    let l = try layout("a l b", size: 60, links: [TextLink(range: 2..<3, tag: "L")])
    let gi = try glyph(l, containing: 2)
    let y = l.lines[0].baseline - 20 + 0.5
    let edge = inkBounds(l, gi).maxX
    #expect(isClose(try inkColumns(l, gi, row: y).max()!, edge, within: 1))
    let p = Point(edge + 1.5, y)
    let found = try #require(l.link(at: p, radius: 3))
    #expect(found.link.tag == "L" && found.hit.kind == .radius)
    #expect(isClose(found.hit.distance, 1.5, within: 1e-4), "a straight stem: exact but for Float32 storage")
    let h = try #require(l.hit(at: p, radius: 3))
    #expect(h.placement == gi && h.kind == .radius && h.link == "L")
    #expect(l.link(at: p, radius: 0.5) == nil && l.hit(at: p) == nil)
    #expect(l.hit(at: p, radius: -1) == nil && l.hit(at: p, radius: .nan) == nil, "negative or NaN radius counts as 0")
}

@Test func caretPositionsAcrossLines() throws {
    let text = "alpha beta\ngamma"
    let l = try layout(text, size: 20, width: 90)
    #expect(l.lines.map(\.utf16) == [0..<6, 6..<11, 11..<16])
    let y0 = l.lines[0].baseline - 5, y1 = l.lines[1].baseline - 5, y2 = l.lines[2].baseline - 5
    #expect(l.caret(at: Point(-100, y0)) == CaretPosition(utf16: 0, affinity: .downstream, line: 0))
    // The right end of a wrapped line: the offset after its trailing space, sticking to that line.
    #expect(l.caret(at: Point(500, y0)) == CaretPosition(utf16: 6, affinity: .upstream, line: 0))
    // The end of a line that ends with a newline: before the newline.
    #expect(l.caret(at: Point(500, y1))?.utf16 == 10)
    #expect(l.caret(at: Point(500, y2)) == CaretPosition(utf16: 16, affinity: .downstream, line: 2))
    // Above the first and below the last line: the nearest line.
    #expect(l.caret(at: Point(-5, -100))?.line == 0)
    #expect(l.caret(at: Point(500, 1000))?.utf16 == 16)
}

/// The hit rule: "a non-finite query point is a miss" — `hit` and `link` guard it, `caret` must too.
@Test func caretAtNonFinitePointIsNil() throws {
    let l = try layout("alpha beta", size: 20)
    for p in [Point(.nan, 3), Point(3, .nan), Point(.infinity, 3), Point(3, -.infinity)] {
        #expect(l.caret(at: p) == nil, "caret at \(p): \(String(describing: l.caret(at: p)))")
    }
}

@Test func caretSnapsToCharacterEdges() throws {
    let text = "office"
    let l = try layout(text, size: 60)
    let boxes = l.characterBoxes()
    for b in boxes {
        let y = l.lines[0].baseline - 10
        #expect(l.caret(at: Point(b.box.minX + b.box.width * 0.3, y))?.utf16 == b.utf16.lowerBound)
        #expect(l.caret(at: Point(b.box.minX + b.box.width * 0.7, y))?.utf16 == b.utf16.upperBound)
    }
    #expect(boxes.count == 6, "the ffi ligature has a box per letter")
}

@Test func nonFinitePointsMiss() throws {
    let l = try layout("Hi", links: [TextLink(range: 0..<2, tag: "t")])
    for p in [Point(.nan, 10), Point(10, .infinity), Point(-.infinity, .nan)] {
        #expect(l.hit(at: p, radius: 5) == nil)
        #expect(l.link(at: p, radius: 5) == nil)
        for mode in [TextHitMode.characterBoxes, .lineBoxes, .ink(boxesForGlyphsWithoutInk: true)] {
            #expect(l.hit(at: p, mode: mode) == nil)
        }
    }
}

@Test func emptyTextHasOneEmptyLine() throws {
    let l = try layout("")
    #expect(l.glyphs.isEmpty && l.lines.count == 1 && l.truncated == nil)
    #expect(l.hit(at: Point(12, 30), radius: 10) == nil)
    #expect(l.caret(at: Point(12, 30))?.utf16 == 0)
}

/// `caret(at:)` and the `.characterBoxes` mode once rebuilt `characterBoxes()` at every query, scanning every
/// glyph for each glyph (quadratic): 37 s per caret query on a 10,800-character paragraph in a debug build.
/// Judged by the work counted, not by the clock (`TextLayout+Testing.swift`): a query looks at each line and
/// character box at most once, and making the boxes takes at most a step per glyph, grapheme and attachment;
/// so doubling the text (756 → 1,512 units) at most about doubles each count, where quadratic work gives 4×.
@Test func caretQueryIsNotQuadraticInTextLength() throws {
    let word = "lorem ipsum dolor sit amet "                                   // 27 UTF-16 units
    var work: [(caret: Int, boxHit: Int, boxSteps: Int)] = []
    for n in [28, 56] {
        let l = try layout(String(repeating: word, count: n), size: 12, width: 400)
        let boxes = l.characterBoxes().count, units = 27 * n
        #expect(boxes >= units - n && boxes <= units, "\(boxes) character boxes for \(units) units")
        // The caret for a point on the second line; the box hit for a point below the text (a miss after
        // looking at every box: the most a box hit looks at).
        let (caret, caretVisits) = l.caretCountingWork(at: Point(50, 30))
        #expect(caret == l.caret(at: Point(50, 30)) && caret != nil)
        let below = Point(50, l.lines.last!.box.maxY + 100)
        let (miss, boxVisits) = l.boxHitCountingWork(at: below, mode: .characterBoxes)
        #expect(miss == nil && l.hit(at: below, mode: .characterBoxes) == nil)
        let steps = l.characterBoxSteps
        #expect(caretVisits <= boxes + l.lines.count, "caret(at:) looked at \(caretVisits) of \(boxes) boxes, \(l.lines.count) lines")
        #expect(boxVisits <= boxes, ".characterBoxes looked at \(boxVisits) of \(boxes) boxes")
        #expect(steps <= l.glyphs.count + units + l.attachments.count, "\(steps) steps for \(l.glyphs.count) glyphs, \(units) units")
        work.append((caretVisits, boxVisits, steps))
    }
    print("caret(at:), .characterBoxes hit, character boxes: \(work[0]) → \(work[1]) at 2× the text")
    for (name, a, b) in [("caret(at:)", work[0].caret, work[1].caret), (".characterBoxes hit", work[0].boxHit, work[1].boxHit),
                         ("character boxes", work[0].boxSteps, work[1].boxSteps)] {
        #expect(a > 0 && Double(b) <= 2.2 * Double(a), "\(name): \(a) → \(b) steps at 2× the text")
    }
}
