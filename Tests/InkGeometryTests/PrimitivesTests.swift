import Testing
import InkGeometry
import InkTestSupport

/// Segment distance and intersection, winding crossings, polygons and rects against hand-worked answers.
struct PrimitivesTests {
    // MARK: Segment.distance

    struct DistanceCase: Sendable, CustomTestStringConvertible {
        var p: Point, a: Point, b: Point, want: Double, name: String
        var testDescription: String { name }
    }

    static let distanceCases: [DistanceCase] = [
        DistanceCase(p: Point(5, 3), a: Point(0, 0), b: Point(10, 0), want: 3, name: "above the middle"),
        DistanceCase(p: Point(5, -4), a: Point(0, 0), b: Point(10, 0), want: 4, name: "below the middle"),
        DistanceCase(p: Point(13, 4), a: Point(0, 0), b: Point(10, 0), want: 5, name: "beyond the end (3-4-5)"),
        DistanceCase(p: Point(-3, -4), a: Point(0, 0), b: Point(10, 0), want: 5, name: "before the start (3-4-5)"),
        DistanceCase(p: Point(7, 0), a: Point(0, 0), b: Point(10, 0), want: 0, name: "on the segment"),
        DistanceCase(p: Point(10, 0), a: Point(0, 0), b: Point(10, 0), want: 0, name: "at an endpoint"),
        DistanceCase(p: Point(0, 0), a: Point(1, 1), b: Point(3, 3), want: 2.0.squareRoot(), name: "on the line, outside"),
        DistanceCase(p: Point(0, 2), a: Point(0, 0), b: Point(2, 2), want: 2.0.squareRoot(), name: "diagonal, perpendicular foot"),
        DistanceCase(p: Point(4, 6), a: Point(1, 2), b: Point(1, 2), want: 5, name: "point segment"),
        DistanceCase(p: Point(1e6 + 0.5, 1e6), a: Point(1e6, 1e6), b: Point(1e6, 1e6 + 1), want: 0.5, name: "large coordinates"),
    ]

    @Test(arguments: distanceCases)
    func segmentDistance(_ c: DistanceCase) {
        #expect(isClose(Segment.distance(c.p, c.a, c.b), c.want, within: 1e-12))
        #expect(isClose(Segment.distance(c.p, c.b, c.a), c.want, within: 1e-12), "direction must not matter")
        #expect(isClose(Segment.distanceSquared(c.p, c.a, c.b), c.want * c.want, within: 1e-10))
    }

    // MARK: Segment.intersects

    @Test func segmentRectIntersection() {
        let r = Rect(minX: 0, minY: 0, maxX: 10, maxY: 10)
        #expect(Segment.intersects(Point(-5, 5), Point(15, 5), r), "crosses through")
        #expect(Segment.intersects(Point(2, 2), Point(3, 3), r), "inside")
        #expect(Segment.intersects(Point(-5, 5), Point(5, 5), r), "ends inside")
        #expect(Segment.intersects(Point(-1, 1), Point(1, -1), r), "touches the corner (0, 0)")
        #expect(Segment.intersects(Point(10, -3), Point(10, 30), r), "runs along the right side")
        #expect(!Segment.intersects(Point(-5, 11), Point(15, 11), r), "passes above")
        #expect(!Segment.intersects(Point(-2, 1), Point(1, -2), r), "cuts past the corner")
        #expect(!Segment.intersects(Point(11, 11), Point(20, 20), r), "beyond the corner on the diagonal")
        #expect(Segment.intersects(Point(5, 5), Point(5, 5), r), "point segment inside")
        #expect(!Segment.intersects(Point(-5, 5), Point(-5, 5), r), "point segment outside")
    }

    // MARK: Winding.crossing

    /// Unit square counter-clockwise in y-up.
    static let ccwSquare = [Point(0, 0), Point(10, 0), Point(10, 10), Point(0, 10)]

    static func winding(_ p: Point, _ poly: [Point]) -> Int {
        var w = 0
        for i in poly.indices { w += Winding.crossing(p, poly[i], poly[(i + 1) % poly.count]) }
        return w
    }

    @Test(arguments: [Point(5, 5), Point(0.001, 0.001), Point(9.999, 5), Point(5, 9.999), Point(1, 0)])
    func squareWindsPlusOneCounterClockwiseAndMinusOneClockwise(p: Point) {
        #expect(Self.winding(p, Self.ccwSquare) == 1)
        #expect(Self.winding(p, Self.ccwSquare.reversed()) == -1)
    }

    @Test(arguments: [Point(-1, 5), Point(11, 5), Point(5, -1), Point(5, 11), Point(-1, 0), Point(-1, 10), Point(20, 20)])
    func pointsOutsideTheSquareWindZero(p: Point) {
        #expect(Self.winding(p, Self.ccwSquare) == 0)
        #expect(Self.winding(p, Self.ccwSquare.reversed()) == 0)
    }

    @Test func singleEdgeCrossingSigns() {
        let p = Point(0, 5)
        #expect(Winding.crossing(p, Point(3, 0), Point(3, 10)) == 1, "upward edge right of p")
        #expect(Winding.crossing(p, Point(3, 10), Point(3, 0)) == -1, "downward edge right of p")
        #expect(Winding.crossing(p, Point(-3, 0), Point(-3, 10)) == 0, "edge left of p")
        #expect(Winding.crossing(p, Point(3, 6), Point(3, 10)) == 0, "edge above p")
        #expect(Winding.crossing(p, Point(3, 5), Point(9, 5)) == 0, "horizontal edge at p's height")
    }

    /// The ray through a vertex must be counted once (half-open rule), for a diamond in both directions.
    @Test func rayThroughVerticesCountsOnce() {
        let diamond = [Point(1, 0), Point(2, 1), Point(1, 2), Point(0, 1)]
        for p in [Point(0.5, 1), Point(1, 1), Point(1.5, 1), Point(1, 0.5), Point(1, 1.5)] {
            #expect(Self.winding(p, diamond) == 1, "\(p)")
            #expect(Self.winding(p, diamond.reversed()) == -1, "\(p)")
        }
        for p in [Point(-0.5, 1), Point(2.5, 1), Point(1, -1), Point(1, 3), Point(-1, 0), Point(-1, 2)] {
            #expect(Self.winding(p, diamond) == 0, "\(p)")
        }
    }

    // MARK: Polygon and PolygonSink

    @Test func polygonWindingRulesAndDistance() {
        // Square with a same-direction hole: nonzero keeps the hole, even-odd removes it.
        let outer = [Point(0, 0), Point(10, 0), Point(10, 10), Point(0, 10)]
        let hole = [Point(3, 3), Point(7, 3), Point(7, 7), Point(3, 7)]
        let poly = Polygon(contours: [outer, hole])
        #expect(poly.winding(at: Point(5, 5)) == 2)
        #expect(poly.contains(Point(5, 5), rule: .nonZero))
        #expect(!poly.contains(Point(5, 5), rule: .evenOdd))
        #expect(poly.contains(Point(1, 5), rule: .evenOdd))
        #expect(isClose(poly.distance(to: Point(5, 5)), 2, within: 1e-12))
        #expect(isClose(poly.signedDistance(to: Point(1, 5)), -1, within: 1e-12))
        #expect(isClose(poly.signedDistance(to: Point(-4, 5)), 4, within: 1e-12))
        #expect(poly.edges.count == 8)
        #expect(poly.bounds == Rect(minX: 0, minY: 0, maxX: 10, maxY: 10))
        #expect(Polygon().distance(to: .zero) == .infinity)
        #expect(!Polygon().contains(.zero))
    }

    @Test func polygonSinkDropsDuplicateClosingPointAndSplitsContours() {
        var s = PolygonSink()
        s.move(to: Point(0, 0)); s.addLine(to: Point(4, 0)); s.addLine(to: Point(4, 4)); s.addLine(to: Point(0, 0)); s.closeSubpath()
        s.move(to: Point(10, 10)); s.addQuadCurve(to: Point(12, 10), control: Point(11, 30)); s.addLine(to: Point(11, 8))
        let poly = s.result
        #expect(poly.contours.count == 2)
        #expect(poly.contours.first == [Point(0, 0), Point(4, 0), Point(4, 4)])
        // Curves become their chord (the sink does not flatten).
        #expect(poly.contours.last == [Point(10, 10), Point(12, 10), Point(11, 8)])
    }

    // MARK: Rect and BoundsSink

    @Test func rectBasics() {
        #expect(Rect.empty.isEmpty && Rect.empty.width == 0)
        let r = Rect(x: 10, y: 20, width: -4, height: 6)
        #expect(r == Rect(minX: 6, minY: 20, maxX: 10, maxY: 26))
        #expect(r.contains(Point(6, 26)) && !r.contains(Point(5.99, 22)))
        #expect(isClose(r.distance(to: Point(13, 30)), 5, within: 1e-12))
        #expect(r.distance(to: Point(8, 21)) == 0)
        #expect(Rect.empty.union(r) == r && r.union(.empty) == r)
        #expect(!r.intersects(.empty))
    }

    @Test func boundsSinkIncludesControlPoints() {
        var b = BoundsSink()
        #expect(b.bounds.isEmpty)
        b.move(to: Point(1, 1))
        b.addLine(to: Point(3, -2))
        b.addQuadCurve(to: Point(4, 0), control: Point(2, 9))
        b.addCurve(to: Point(5, 1), control1: Point(-7, 0), control2: Point(6, 2))
        b.closeSubpath()
        #expect(b.bounds == Rect(minX: -7, minY: -2, maxX: 6, maxY: 9))
    }

    @Test func boundsSinkOfASinglePointIsThatPoint() {
        var b = BoundsSink()
        b.move(to: Point(-3, 4))
        #expect(b.bounds == Rect(minX: -3, minY: 4, maxX: -3, maxY: 4))
        #expect(!b.bounds.isEmpty && b.bounds.width == 0)
    }
}
