import InkFreeType
import InkGeometry
import Testing

/// Hand-made outlines for the cases the installed (TrueType) fonts do not show: cubic (CFF) controls,
/// contours that start off the curve, one-point contours, and rejected arrays.
@Suite("GlyphOutline.decompose on hand-made outlines")
struct DecomposeTests {
    static let on: UInt8 = 1, conic: UInt8 = 0, cubic: UInt8 = 2

    func outline(_ points: [(Double, Double)], _ tags: [UInt8], _ ends: [Int]) throws -> GlyphOutline {
        try GlyphOutline(points: points.map { Point($0.0, $0.1) }, tags: tags, contourEnds: ends)
    }

    @Test func cubicPair() throws {
        let o = try outline([(0, 0), (10, 20), (30, 20), (40, 0)], [Self.on, Self.cubic, Self.cubic, Self.on], [3])
        #expect(svg(o) == "M 0 0 C 10 20 30 20 40 0 L 0 0 Z")
    }

    @Test func cubicPairClosingTheContour() throws {
        let o = try outline([(40, 0), (0, 0), (10, 20), (30, 20)], [Self.on, Self.on, Self.cubic, Self.cubic], [3])
        #expect(svg(o) == "M 40 0 L 0 0 C 10 20 30 20 40 0 Z")
    }

    @Test func contourStartingWithCubicStartsAtLastPoint() throws {
        let o = try outline([(10, 20), (30, 20), (40, 0), (0, 0)], [Self.cubic, Self.cubic, Self.on, Self.on], [3])
        #expect(svg(o) == "M 0 0 C 10 20 30 20 40 0 L 0 0 Z")
    }

    /// A cubic pair split by the contour's seam (FreeType refuses it): start at the first on-curve point.
    @Test func cubicPairAcrossTheSeam() throws {
        let o = try outline([(30, 20), (40, 0), (0, 0), (10, 20)], [Self.cubic, Self.on, Self.on, Self.cubic], [3])
        #expect(svg(o) == "M 40 0 L 0 0 C 10 20 30 20 40 0 Z")
    }

    @Test func contourStartingOffCurveStartsAtLastOnCurvePoint() throws {
        let o = try outline([(0, 10), (10, 0), (0, 0)], [Self.conic, Self.on, Self.on], [2])
        #expect(svg(o) == "M 0 0 Q 0 10 10 0 L 0 0 Z")
    }

    /// All points off the curve (TrueType allows it): start at the midpoint of the last and first points.
    @Test func allOffCurveContourStartsAtMidpoint() throws {
        let o = try outline([(0, 0), (3, 0), (3, 3), (0, 3)], [Self.conic, Self.conic, Self.conic, Self.conic], [3])
        #expect(svg(o) == "M 0 1.5 Q 0 0 1.5 0 Q 3 0 3 1.5 Q 3 3 1.5 3 Q 0 3 0 1.5 Z")
    }

    @Test func onePointContourIsMoveAndClose() throws {
        let o = try outline([(5, 5), (0, 0), (1, 0), (1, 1)], [Self.on, Self.on, Self.on, Self.on], [0, 3])
        #expect(svg(o) == "M 5 5 Z M 0 0 L 1 0 L 1 1 L 0 0 Z")
        let lone = try outline([(7, 7)], [Self.conic], [0])
        #expect(svg(lone) == "M 7 7 Z")
    }

    @Test func twoPointContours() throws {
        let line = try outline([(0, 0), (4, 0)], [Self.on, Self.on], [1])
        #expect(svg(line) == "M 0 0 L 4 0 L 0 0 Z")
        let bump = try outline([(0, 0), (2, 4)], [Self.on, Self.conic], [1])
        #expect(svg(bump) == "M 0 0 Q 2 4 0 0 Z")
    }

    /// Tag 3 (on-curve and cubic bits) is on-curve: bit 0 wins.
    @Test func onCurveBitWins() throws {
        let o = try outline([(0, 0), (4, 0), (4, 4)], [3, 3, 3], [2])
        #expect(svg(o) == "M 0 0 L 4 0 L 4 4 L 0 0 Z")
    }

    @Test func emptyOutline() throws {
        let o = try GlyphOutline(points: [], tags: [], contourEnds: [])
        #expect(o == .empty)
        #expect(o.elements.isEmpty)
    }

    static let broken: [(points: [(Double, Double)], tags: [UInt8], ends: [Int], reason: String)] = [
        ([(0, 0), (1, 1)], [1], [1], "2 points but 1 tags"),
        ([], [], [0], "1 contours but no points"),
        ([(0, 0)], [1], [], "1 points but no contours"),
        ([(0, 0), (1, 1), (2, 2)], [1, 1, 1], [1, 0], "contour 1 ends at point 0, not after the previous contour's end 1"),
        ([(0, 0), (1, 1)], [1, 1], [2], "contour 0 ends at point 2, but there are only 2 points"),
        ([(0, 0), (1, 1), (2, 2)], [1, 1, 1], [1], "the last contour ends at point 1, leaving points 2..<3 outside any contour"),
        ([(0, 0), (.nan, 1)], [1, 1], [1], "point 1 is not finite: (nan, 1.0)"),
        ([(0, 0), (1, 1)], [1, 4], [1], "point 1 has tag 4; only tags 0…3 are allowed"),
        ([(0, 0), (1, 1), (2, 2)], [1, 2, 1], [2], "cubic control point 1 is not one of a pair between on-curve points"),
        ([(0, 0), (1, 1), (2, 2), (3, 3)], [1, 2, 2, 2], [3], "cubic control point 1 is not one of a pair between on-curve points"),
        ([(0, 0), (1, 1), (2, 2)], [1, 0, 2], [2], "cubic control point 2 is not one of a pair between on-curve points"),
        ([(0, 0), (1, 1)], [2, 2], [1], "cubic control point 0 is not one of a pair between on-curve points"),
    ]

    @Test(arguments: 0..<broken.count)
    func brokenArraysAreRejected(_ i: Int) {
        let c = Self.broken[i]
        #expect(throws: FontError.brokenOutline(glyph: 9, reason: c.reason)) {
            try GlyphOutline(points: c.points.map { Point($0.0, $0.1) }, tags: c.tags, contourEnds: c.ends, glyph: 9)
        }
    }

    /// Decomposing through a transforming sink equals transforming the recorded elements.
    @Test func decomposeComposesWithAdapters() throws {
        let o = try outline([(0, 0), (3, 0), (3, 3), (0, 3)], [Self.conic, Self.conic, Self.conic, Self.conic], [3])
        let t = AffineTransform.scale(2, -2).concatenating(.translation(10, 20))
        var transformed = TransformingSink(RecordingSink(), transform: t)
        o.decompose(into: &transformed)
        var direct = RecordingSink()
        var viaTransform = TransformingSink(direct, transform: t)
        o.elements.replay(into: &viaTransform)
        direct = viaTransform.base
        #expect(transformed.base.elements == direct.elements)
        #expect(transformed.base.elements.first == .move(Point(10, 17)))
    }
}
