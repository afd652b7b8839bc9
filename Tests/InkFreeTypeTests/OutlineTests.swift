import InkFreeType
import InkGeometry
import Testing

@Suite("Outlines of real fonts")
struct OutlineTests {
    @Test func lowercaseOHasTwoContours() throws {
        let font = try Fonts.load(Fonts.dejaVuSans)
        let outline = try font.outline(glyph: #require(font.glyph(for: "o")))
        #expect(outline.contourCount == 2)
        #expect(outline.contourEnds == [11, 23])
        #expect(contours(of: outline.elements).count == 2)
    }

    /// Golden: "l" is a rectangle; every number can be checked by eye against the raw points.
    @Test func goldenLowercaseL() throws {
        let font = try Fonts.load(Fonts.dejaVuSans)
        let outline = try font.outline(glyph: #require(font.glyph(for: "l")))
        #expect(outline.points == [Point(193, 1556), Point(377, 1556), Point(377, 0), Point(193, 0)])
        #expect(outline.tags == [1, 1, 1, 1])
        #expect(outline.contourEnds == [3])
        #expect(svg(outline) == "M 193 1556 L 377 1556 L 377 0 L 193 0 L 193 1556 Z")

        var viaFont = SVGPathSink()
        try font.outline(glyph: #require(font.glyph(for: "l")), into: &viaFont)
        #expect(viaFont.path == svg(outline))
    }

    @Test func goldenCapitalI() throws {
        let font = try Fonts.load(Fonts.dejaVuSans)
        let outline = try font.outline(glyph: #require(font.glyph(for: "I")))
        #expect(outline.points == [Point(201, 1493), Point(403, 1493), Point(403, 0), Point(201, 0)])
        #expect(svg(outline) == "M 201 1493 L 403 1493 L 403 0 L 201 0 L 201 1493 Z")
    }

    /// Golden with implied points: (479 + 307) / 2 = 393, (991 + 760) / 2 = 875.5, …
    /// `FT_Outline_Decompose` would print 875 and 392 (it truncates to whole font units).
    @Test func goldenLowercaseOKeepsHalfUnits() throws {
        let font = try Fonts.load(Fonts.dejaVuSans)
        let outline = try font.outline(glyph: #require(font.glyph(for: "o")))
        #expect(svg(outline) == """
            M 627 991 Q 479 991 393 875.5 Q 307 760 307 559 Q 307 358 392.5 242.5 Q 478 127 627 127 \
            Q 774 127 860 243 Q 946 359 946 559 Q 946 758 860 874.5 Q 774 991 627 991 Z \
            M 627 1147 Q 867 1147 1004 991 Q 1141 835 1141 559 Q 1141 284 1004 127.5 Q 867 -29 627 -29 \
            Q 386 -29 249.5 127.5 Q 113 284 113 559 Q 113 835 249.5 991 Q 386 1147 627 1147 Z
            """)
        // Raw points 4 and 5 are consecutive quadratic controls with odd sums.
        #expect(outline.tags[4] == 0 && outline.tags[5] == 0)
        #expect(outline.points[4] == Point(307, 358) && outline.points[5] == Point(478, 127))
        #expect(outline.elements.contains(.quad(control: Point(307, 358), to: Point(392.5, 242.5))))
    }

    /// Every implied on-curve point is the exact midpoint of its two raw control points, .5 included.
    @Test(arguments: [Fonts.dejaVuSans, Fonts.dejaVuSerif])
    func impliedPointsAreExactMidpoints(_ path: String) throws {
        let font = try Fonts.load(path)
        var halves = 0
        for scalar in "abcdefghijklmnopqrstuvwxyzOQS&@%8".unicodeScalars {
            let outline = try font.outline(glyph: #require(font.glyph(for: scalar)))
            let emitted = Set(outline.elements.compactMap { e -> Point? in
                if case .quad(_, let p) = e { return p } else { return nil }
            })
            for c in 0..<outline.contourCount {
                let range = outline.contourRange(c)
                for i in range {
                    let j = i + 1 == range.upperBound ? range.lowerBound : i + 1
                    guard outline.tags[i] == 0, outline.tags[j] == 0 else { continue }
                    let a = outline.points[i], b = outline.points[j]
                    let mid = Point((a.x + b.x) / 2, (a.y + b.y) / 2)
                    #expect(emitted.contains(mid), "\(scalar): midpoint of points \(i), \(j)")
                    if mid.x.rounded(.towardZero) != mid.x || mid.y.rounded(.towardZero) != mid.y { halves += 1 }
                }
            }
        }
        #expect(halves > 20)
    }

    /// Every contour: one move, segments, a closing segment back to the start, `close`; and the bounds of
    /// everything emitted equal the raw control box and FreeType's `FT_Outline_Get_CBox`.
    @Test(arguments: Fonts.all)
    func everyContourIsClosedAndBoundsMatch(_ path: String) throws {
        let font = try Fonts.load(path)
        let step = max(1, font.glyphCount / 3000)               // about 3,000 glyphs per font
        for glyph in stride(from: GlyphID(0), to: GlyphID(UInt32(font.glyphCount)), by: step) {
            let outline = try font.outline(glyph: glyph)
            let elements = outline.elements
            let parts = contours(of: elements)
            #expect(parts.count == outline.contourCount, "glyph \(glyph)")
            for part in parts {
                guard case .move(let start) = part.first, part.last == .close, part.count >= 2 else {
                    Issue.record("glyph \(glyph): contour not move…close: \(part)")
                    continue
                }
                let moves = part.filter { if case .move = $0 { return true } else { return false } }
                #expect(moves.count == 1)
                if part.count > 2 { #expect(endPoint(part[part.count - 2]) == start, "glyph \(glyph) not closed") }
            }
            var bounds = BoundsSink()
            outline.decompose(into: &bounds)
            #expect(bounds.bounds == outline.controlBox, "glyph \(glyph)")
            #expect(try font.controlBox(glyph: glyph) == outline.controlBox, "glyph \(glyph)")
            for (p, tag) in zip(outline.points, outline.tags) where tag & GlyphOutline.onCurveBit != 0 {
                #expect(bounds.bounds.contains(p))
            }
        }
    }

    @Test func spaceHasAnEmptyOutline() throws {
        let font = try Fonts.load(Fonts.dejaVuSans)
        let outline = try font.outline(glyph: #require(font.glyph(for: " ")))
        #expect(outline == .empty)
        #expect(outline.isEmpty)
        #expect(outline.elements.isEmpty)
        #expect(outline.controlBox.isEmpty)
        #expect(try font.controlBox(glyph: font.glyph(for: " ")!).isEmpty)
    }

    /// A composite glyph (é = e + acute) comes out flattened into one simple outline.
    @Test func compositeGlyphs() throws {
        let font = try Fonts.load(Fonts.dejaVuSans)
        let eAcute = try font.outline(glyph: #require(font.glyph(for: "é")))
        let e = try font.outline(glyph: #require(font.glyph(for: "e")))
        #expect(eAcute.contourCount == e.contourCount + 1)
        #expect(Array(eAcute.points.prefix(e.points.count)) == e.points)
    }
}
