import Testing
import InkGeometry
import InkTestSupport
import InkHit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// GlyphShape and HitIndex against analytic answers: squares, holes, circles, overlaps, degenerate and
/// bad input. Expected values are worked out by hand or from closed forms, never from the code under test.

enum Analytic {
    /// The rectangle [x0, x1] × [y0, y1], counter-clockwise in y-up unless `clockwise`.
    static func square(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, clockwise: Bool = false) -> [Point] {
        let ccw = [Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1)]
        return clockwise ? ccw.reversed() : ccw
    }
    /// A point at radius `rho` and `angle` radians from +x (libm trigonometry).
    static func polar(_ rho: Double, _ angle: Double) -> Point { Point(rho * cos(angle), rho * sin(angle)) }
}

struct GlyphShapeAnalyticTests {
    // MARK: Squares with holes

    struct HoleCase: Sendable, CustomTestStringConvertible {
        var outerClockwise: Bool, holeClockwise: Bool
        var testDescription: String { "outer \(outerClockwise ? "cw" : "ccw"), hole \(holeClockwise ? "cw" : "ccw")" }
        var outerWinding: Int { outerClockwise ? -1 : 1 }
        var holeWinding: Int { outerWinding + (holeClockwise ? -1 : 1) }
    }

    static let holeCases = [false, true].flatMap { o in [false, true].map { h in HoleCase(outerClockwise: o, holeClockwise: h) } }

    /// Outer [0, 100]², hole [30, 70]². Nonzero: a hole in the same direction winds ±2 and stays ink,
    /// a hole in the reverse direction winds 0 and is empty.
    @Test(arguments: holeCases)
    func squareWithHole(_ c: HoleCase) throws {
        let poly = Polygon(contours: [Analytic.square(0, 0, 100, 100, clockwise: c.outerClockwise),
                                      Analytic.square(30, 30, 70, 70, clockwise: c.holeClockwise)])
        let shape = try GlyphShape(polygon: poly)
        #expect(shape.edgeCount == 8)
        #expect(shape.bounds == Rect(minX: 0, minY: 0, maxX: 100, maxY: 100))
        for p in [Point(10, 50), Point(50, 10), Point(90, 90), Point(1, 1), Point(29, 71)] {
            #expect(shape.winding(at: p) == c.outerWinding, "ring \(p)")
            #expect(shape.contains(p))
        }
        for p in [Point(50, 50), Point(31, 31), Point(69, 40)] {
            #expect(shape.winding(at: p) == c.holeWinding, "hole \(p)")
            #expect(shape.contains(p) == (c.holeWinding != 0))
        }
        for p in [Point(-1, 50), Point(101, 50), Point(50, -0.5), Point(50, 100.5), Point(-30, -40), Point(1e5, 0)] {
            #expect(shape.winding(at: p) == 0 && !shape.contains(p), "outside \(p)")
        }
        // Distances: to the nearest of the eight edges, hand-worked.
        let cases: [(Point, Double)] = [(Point(50, 50), 20), (Point(10, 50), 10), (Point(20, 50), 10),
                                        (Point(25, 50), 5), (Point(-3, 50), 3), (Point(-30, -40), 50), (Point(80, 50), 10)]
        for (p, want) in cases {
            #expect(isClose(shape.distance(to: p), want, within: 1e-9), "distance at \(p)")
            let inside = shape.contains(p)
            #expect(isClose(shape.signedDistance(to: p), (inside ? -want : want), within: 1e-9))
        }
    }

    @Test(arguments: [false, true])
    func sharedSquareWithHoleFixture(holeReversed: Bool) throws {
        let shape = try GlyphShape(polygon: TestShapes.squareWithHole(outer: 1000, hole: 400, holeReversed: holeReversed))
        #expect(shape.contains(Point(500, 500)) == !holeReversed)
        #expect(shape.contains(Point(100, 500)))
        #expect(isClose(shape.distance(to: Point(500, 500)), 200, within: 1e-9))
    }

    // MARK: Circles flattened from curves

    static let radius = 100.0

    @Test(arguments: BezierCircle.allCases, [1.0, 0.1, 0.01])
    func circleClassifiesPointsOutsideTheToleranceBand(kind: BezierCircle, tolerance t: Double) throws {
        let r = Self.radius
        let shape = try GlyphShape(elements: kind.elements(radius: r), tolerance: t)
        // The shape records the bound its flattening achieved: at most t, and Wang's count wastes < 4×.
        #expect(shape.tolerance <= t && shape.tolerance > t / 4)
        let (rmin, rmax) = kind.radialRange(radius: r)
        // The polygon lies within t of the curve, whose radius is in [rmin, rmax] (rmin ≈ R; rmax is R plus the
        // Bézier circle's own error, 0.027 % for the cubic and 0.31 % for the quadratic one).
        let inner = min(r, rmin) - 2 * t, outer = rmax + 2 * t
        var wrong = 0, inBand = 0
        for i in 0..<1000 {
            let a = Double(i) * 2 * Double.pi / 1000 + 0.000123
            let pin = Analytic.polar(inner, a), pout = Analytic.polar(outer, a)
            // The probes lie outside the tolerance band by the curve's own distance (not by the algebra that
            // placed them): each is more than t from the Bézier circle, so the polygon must classify it.
            if kind.distance(from: pin, radius: r) <= t || kind.distance(from: pout, radius: r) <= t { inBand += 1 }
            if !shape.contains(pin) || shape.winding(at: pin) != 1 { wrong += 1 }
            if shape.contains(pout) || shape.winding(at: pout) != 0 { wrong += 1 }
        }
        #expect(inBand == 0, "\(inBand) probe pairs lie within t of the curve")
        #expect(wrong == 0, "\(wrong) of 2000 points misclassified at t = \(t)")
        #expect(shape.contains(.zero))
    }

    @Test(arguments: BezierCircle.allCases, [1.0, 0.1, 0.01])
    func circleDistanceIsRadialOffset(kind: BezierCircle, tolerance t: Double) throws {
        let r = Self.radius
        let shape = try GlyphShape(elements: kind.elements(radius: r), tolerance: t)
        let (_, rmax) = kind.radialRange(radius: r)
        // The polygon is within the shape's tolerance of the Bézier curves (Hausdorff), so distances to the
        // two differ by at most that much; the oracle is the distance to the curves themselves.
        // The slack is the tolerance the shape reports, so that tolerance must first keep the request.
        #expect(shape.tolerance <= t * (1 + 1e-9), "reported \(shape.tolerance) for a request of \(t)")
        let slack = shape.tolerance * (1 + 1e-9) + 1e-5   // 1e-5: Float32 storage of coordinates near 100
        for rho in [0, 30, 90, r - 5 * t, r - 2 * t, r + 2 * t, r + 5 * t, 150, 400, 5000] {
            for i in 0..<60 {
                let p = Analytic.polar(rho, Double(i) * 0.1047 + 0.01)
                let d = shape.distance(to: p)
                let exact = kind.distance(from: p, radius: r)
                #expect(isClose(d, exact, within: slack), "ρ = \(rho): d = \(d), curve \(exact)")
                let sd = shape.signedDistance(to: p)
                #expect(isClose(abs(sd), d, within: 1e-12))
                if rho < r - 2 * t || rho > rmax + 2 * t { #expect((sd < 0) == (rho < r), "sign at ρ = \(rho)") }
            }
        }
    }

    // MARK: Overlaps and self-intersections

    @Test func overlappingSquaresInTheSameDirectionUnite() throws {
        let shape = try GlyphShape(polygon: Polygon(contours: [Analytic.square(0, 0, 10, 10), Analytic.square(5, 5, 15, 15)]))
        #expect(shape.winding(at: Point(7.5, 7.5)) == 2)
        #expect(shape.contains(Point(7.5, 7.5)) && shape.contains(Point(2, 2)) && shape.contains(Point(12, 12)))
        #expect(!shape.contains(Point(12, 2)) && !shape.contains(Point(2, 12)))
        #expect(isClose(shape.distance(to: Point(7.5, 7.5)), 2.5, within: 1e-9), "inner edges still count for distance")
    }

    @Test func overlappingSquaresInOppositeDirectionsCancel() throws {
        let shape = try GlyphShape(polygon: Polygon(contours: [Analytic.square(0, 0, 10, 10), Analytic.square(5, 5, 15, 15, clockwise: true)]))
        #expect(shape.winding(at: Point(7.5, 7.5)) == 0)
        #expect(!shape.contains(Point(7.5, 7.5)), "overlap has winding 0")
        #expect(shape.winding(at: Point(2, 2)) == 1 && shape.contains(Point(2, 2)))
        #expect(shape.winding(at: Point(12, 12)) == -1 && shape.contains(Point(12, 12)))
        #expect(isClose(shape.signedDistance(to: Point(7.5, 7.5)), 2.5, within: 1e-9))
    }

    /// (0,0) → (10,10) → (10,0) → (0,10): a left triangle winding +1 and a right one winding −1, both ink;
    /// the top and bottom triangles are empty.
    @Test func bowTie() throws {
        let shape = try GlyphShape(polygon: Polygon(contours: [[Point(0, 0), Point(10, 10), Point(10, 0), Point(0, 10)]]))
        #expect(shape.winding(at: Point(2, 5)) == 1 && shape.contains(Point(2, 5)))
        #expect(shape.winding(at: Point(8, 5)) == -1 && shape.contains(Point(8, 5)))
        #expect(!shape.contains(Point(5, 2)) && !shape.contains(Point(5, 8)))
        #expect(isClose(shape.distance(to: Point(5, 2)), 3 / 2.0.squareRoot(), within: 1e-9))
        #expect(isClose(shape.distance(to: Point(1, 5)), 1, within: 1e-9))
    }

    // MARK: Degenerate input

    @Test func emptyPolygonNeverContainsAndIsInfinitelyFar() throws {
        for poly in [Polygon(), Polygon(contours: [[]]), Polygon(contours: [[Point(3, 4)]]),
                     Polygon(contours: [[Point(3, 4), Point(3, 4), Point(3, 4)]])] {
            let shape = try GlyphShape(polygon: poly)
            #expect(shape.edgeCount == 0 && shape.bounds.isEmpty)
            for p in [Point.zero, Point(3, 4), Point(-1e9, 1e9)] {
                #expect(!shape.contains(p) && shape.winding(at: p) == 0)
                #expect(shape.distance(to: p) == .infinity)
            }
        }
    }

    @Test func twoPointAndZeroAreaContoursHaveNoInsideButADistance() throws {
        let segment = try GlyphShape(polygon: Polygon(contours: [[Point(0, 0), Point(10, 0)]]))
        #expect(segment.edgeCount == 2)
        let collinear = try GlyphShape(polygon: Polygon(contours: [[Point(0, 0), Point(5, 0), Point(10, 0)]]))
        for shape in [segment, collinear] {
            for p in [Point(5, 1e-7), Point(5, -1e-7), Point(-1, 0), Point(11, 0), Point(5, 3)] { #expect(!shape.contains(p), "\(p)") }
            #expect(isClose(shape.distance(to: Point(5, 3)), 3, within: 1e-9))
            #expect(isClose(shape.distance(to: Point(13, 4)), 5, within: 1e-9))
            #expect(isClose(shape.signedDistance(to: Point(5, -2)), 2, within: 1e-9))
        }
    }

    /// Regression (fixed): a point exactly on a zero-area contour (an edge and its reverse) gets
    /// winding ±1 from the grid, while the winding rule of the stored polygon (`Polygon.winding`,
    /// `Winding.crossing`: coincident opposite edges cancel) and the limit from either side say 0.
    @Test(arguments: [Point(5, 0), Point(0, 0), Point(2.5, 0), Point(10, 0)])
    func pointOnAZeroAreaContourIsNotInk(p: Point) throws {
        let poly = Polygon(contours: [[Point(0, 0), Point(10, 0)], [Point(0, 0), Point(5, 0), Point(10, 0)]])
        let shape = try GlyphShape(polygon: poly)
        #expect(poly.winding(at: p) == 0, "oracle")
        #expect(shape.winding(at: p) == 0)
        #expect(!shape.contains(p))
    }

    /// Regression (fixed): two squares sharing an edge (as touching contours of a composite glyph do):
    /// a point exactly on the shared edge is in the interior of the union — winding 1 from both sides, and
    /// 1 by `Polygon.winding` — but the grid's segment-crossing walk counts only one of the two coincident,
    /// opposite edges (the on-the-line tie-break depends on the edge's direction) and answers 0 or 2.
    @Test(arguments: [Point(10, 5), Point(10, 0.5), Point(10, 9.5), Point(10, 3.25)])
    func pointOnTheSharedEdgeOfTouchingContoursIsInk(p: Point) throws {
        let poly = Polygon(contours: [Analytic.square(0, 0, 10, 10), Analytic.square(10, 0, 20, 10)])
        let shape = try GlyphShape(polygon: poly)
        #expect(poly.winding(at: p) == 1, "oracle")
        #expect(shape.winding(at: p) == 1)
        #expect(shape.contains(p))
        let swapped = try GlyphShape(polygon: Polygon(contours: [Analytic.square(10, 0, 20, 10), Analytic.square(0, 0, 10, 10)]))
        #expect(swapped.contains(p))
        let horizontal = try GlyphShape(polygon: Polygon(contours: [Analytic.square(0, 0, 10, 10), Analytic.square(0, 10, 10, 20)]))
        #expect(horizontal.contains(Point(p.y, p.x)), "shared horizontal edge at \(Point(p.y, p.x))")
        // Seen through the index at an integer-aligned placement: a tap exactly on the seam misses at r = 0.
        var b = HitIndex.Builder()
        try b.add(shape, transform: .translation(100, 200))
        #expect(b.build().contains(Point(p.x + 100, p.y + 200)), "HitIndex.contains on the seam")
    }

    @Test func coordinatesAtTheSixteenBitLimits() throws {
        let shape = try GlyphShape(polygon: Polygon(contours: [Analytic.square(-32767, -32767, 32767, 32767)]))
        #expect(shape.contains(.zero) && shape.contains(Point(32766.5, -32766.5)))
        #expect(!shape.contains(Point(32767.5, 0)) && !shape.contains(Point(0, -32768)))
        #expect(isClose(shape.distance(to: .zero), 32767, within: 1e-6))
        #expect(isClose(shape.distance(to: Point(32770, 32771)), 5, within: 1e-6))
    }

    /// A circle of radius 1000 sampled at 50,000 points (inscribed: sagitta R(1 − cos(π/n)) ≈ 2e-6).
    @Test func fiftyThousandEdgeCircle() throws {
        let n = 50_000, r = 1000.0
        let pts = (0..<n).map { Analytic.polar(r, Double($0) * 2 * Double.pi / Double(n)) }
        let shape = try GlyphShape(polygon: Polygon(contours: [pts]))
        #expect(shape.edgeCount == n)
        let tol = 1e-3     // sagitta plus Float32 storage near 1000 (ulp 6e-5)
        let probes: [(Point, Bool, Double)] = [
            (.zero, true, r), (Point(999.5, 0), true, 0.5), (Point(1000.5, 0), false, 0.5),
            (Analytic.polar(990, 1.234), true, 10), (Analytic.polar(1003, -2.5), false, 3), (Point(5000, 5000), false, 5000 * 2.0.squareRoot() - r),
            (Analytic.polar(600, 3), true, 400),
        ]
        for (p, inside, d) in probes {
            #expect(shape.contains(p) == inside, "\(p)")
            #expect(isClose(shape.distance(to: p), d, within: tol), "distance at \(p)")
        }
    }

    // MARK: Bad input

    @Test func nonFiniteCoordinateThrows() {
        #expect(throws: ShapeError.nonFiniteCoordinate) {
            try GlyphShape(polygon: Polygon(contours: [[Point(0, 0), Point(.nan, 1), Point(1, 1)]]))
        }
        #expect(throws: ShapeError.nonFiniteCoordinate) {
            try GlyphShape(polygon: Polygon(contours: [[Point(0, 0), Point(1, .infinity), Point(1, 1)]]))
        }
        for bad in [PathElement.line(Point(.nan, 0)), .quad(control: Point(.infinity, 0), to: Point(5, 5)),
                    .cubic(control1: Point(1, 1), control2: Point(2, -.infinity), to: Point(5, 5)), .move(Point(0, .nan))] {
            #expect(throws: ShapeError.nonFiniteCoordinate, "\(bad)") {
                try GlyphShape(elements: [.move(.zero), .line(Point(10, 0)), bad, .line(Point(0, 10)), .close], tolerance: 0.1)
            }
        }
    }

    @Test func coordinateBeyondFloatRangeThrows() {
        #expect(throws: ShapeError.coordinateOutOfRange) {
            try GlyphShape(polygon: Polygon(contours: [[Point(0, 0), Point(1e39, 0), Point(0, 1)]]))
        }
    }

    @Test(arguments: [0.0, -1.0, Double.nan, Double.infinity, -Double.infinity])
    func invalidFlatteningToleranceThrows(tolerance: Double) {
        let e = #expect(throws: ShapeError.self) { try GlyphShape(elements: BezierCircle.cubic4.elements(radius: 10), tolerance: tolerance) }
        guard case .invalidTolerance = e else { Issue.record("got \(String(describing: e))"); return }
    }

    @Test(arguments: [-1.0, Double.nan, Double.infinity])
    func invalidPolygonToleranceThrows(tolerance: Double) {
        let e = #expect(throws: ShapeError.self) { try GlyphShape(polygon: Polygon(contours: [Analytic.square(0, 0, 1, 1)]), tolerance: tolerance) }
        guard case .invalidTolerance = e else { Issue.record("got \(String(describing: e))"); return }
    }

    @Test func limitsAreTypedErrors() {
        #expect(throws: ShapeError.tooManyEdges(limit: 10)) {
            try GlyphShape(elements: BezierCircle.cubic4.elements(radius: 100), tolerance: 0.01, limits: ShapeLimits(maxEdges: 10))
        }
        #expect(throws: ShapeError.toleranceNotMet(curves: 1)) {
            try GlyphShape(elements: [.move(.zero), .quad(control: Point(5e5, 1e6), to: Point(1e6, 0)), .close], tolerance: 1e-6)
        }
    }
}

/// HitIndex.Builder refusals and the defined answers for empty indexes and odd queries.
struct HitIndexBadInputTests {
    static func square10() throws -> GlyphShape { try GlyphShape(polygon: Polygon(contours: [Analytic.square(0, 0, 10, 10)])) }

    static let nonFiniteTransforms: [AffineTransform] = [
        AffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0),
        AffineTransform(a: 1, b: .nan, c: 0, d: 1, tx: 0, ty: 0),
        AffineTransform(a: 1, b: 0, c: .infinity, d: 1, tx: 0, ty: 0),
        AffineTransform(a: 1, b: 0, c: 0, d: -.infinity, tx: 0, ty: 0),
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: .nan, ty: 0),
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: .infinity),
    ]

    @Test(arguments: nonFiniteTransforms)
    func nonFiniteTransformIsRejected(_ t: AffineTransform) throws {
        let shape = try Self.square10()
        var b = HitIndex.Builder()
        try b.add(shape, transform: .identity)
        #expect(throws: HitIndexError.nonFiniteTransform(placement: 1)) { try b.add(shape, transform: t) }
        #expect(b.count == 1, "a refused placement is not added")
    }

    @Test(arguments: [AffineTransform.scale(0, 1), .scale(1, 0), .scale(0, 0),
                      AffineTransform(a: 2, b: 1, c: 4, d: 2, tx: 5, ty: 5)])
    func singularTransformIsRejected(_ t: AffineTransform) throws {
        var b = HitIndex.Builder()
        #expect(throws: HitIndexError.singularTransform(placement: 0)) { try b.add(try Self.square10(), transform: t) }
        #expect(b.count == 0)
    }

    /// Huge or tiny but finite and invertible scales are out of range, not "singular": the message says
    /// which scale.
    @Test(arguments: [(AffineTransform.scale(1e31, 1e31), 1e31), (.scale(1e300, 2e300), 2e300),
                      (.scale(1e-31, 1e-31), 1e-31), (.scale(1e-300, 1e-300), 1e-300)])
    func hugeOrTinyScaleIsOutOfRange(_ t: AffineTransform, _ scale: Double) throws {
        var b = HitIndex.Builder()
        let e = #expect(throws: HitIndexError.self) { try b.add(try Self.square10(), transform: t) }
        guard case .scaleOutOfRange(0, let s) = e else { Issue.record("got \(String(describing: e))"); return }
        #expect(isClose(s, scale, within: 1e-12 * scale))
        #expect(e?.description.contains("out of range") == true && e?.description.contains("singular") == false)
        #expect(e?.description.count ?? 0 < 120, "short numbers in the message: \(e?.description ?? "")")
        #expect(b.count == 0)
    }

    @Test func shapeFlattenedTooCoarselyForTheScaleIsRejected() throws {
        // Flattened within 1 unit (the bound achieved is what the shape records: a little under 1); at scale 10
        // that is up to 10 px, but the index promises 0.01 px.
        let coarse = try GlyphShape(elements: BezierCircle.cubic4.elements(radius: 100), tolerance: 1)
        #expect(coarse.tolerance <= 1 && coarse.tolerance > 0.5)
        var b = try HitIndex.Builder(tolerance: 0.01)
        let e = #expect(throws: HitIndexError.self) { try b.add(coarse, transform: .scale(10, 10)) }
        if case .shapeTooCoarse(let k, let inView, let required) = e {
            #expect(k == 0 && isClose(inView, 10 * coarse.tolerance, within: 1e-9) && required == 0.01)
        } else { Issue.record("got \(String(describing: e))") }
        // Rotation and translation do not change the scale: still too coarse.
        #expect(throws: HitIndexError.self) { try b.add(coarse, transform: .scale(10, 10).concatenating(.rotation(1)).concatenating(.translation(5, 5))) }
        // Non-uniform: the largest scale decides.
        #expect(throws: HitIndexError.self) { try b.add(coarse, transform: .scale(0.001, 0.5)) }
        // At scale 0.01 the shape is 0.01 px from its outline: accepted.
        #expect(try b.add(coarse, transform: .scale(0.01, 0.01)) == 0)
    }

    @Test func viewCoordinatesBeyondABillionAreRejected() throws {
        var b = HitIndex.Builder()
        #expect(throws: HitIndexError.coordinateOutOfRange(placement: 0)) { try b.add(try Self.square10(), transform: .translation(2e9, 0)) }
    }

    @Test(arguments: [0.0, -1.0, Double.nan, Double.infinity])
    func invalidIndexTolerance(tolerance: Double) {
        let e = #expect(throws: HitIndexError.self) { _ = try HitIndex.Builder(tolerance: tolerance) }
        guard case .invalidTolerance(let t) = e else { Issue.record("got \(String(describing: e))"); return }
        #expect(t == tolerance || (t.isNaN && tolerance.isNaN), "the error names the value given")
    }

    static let oddPoints = [Point.zero, Point(5, 5), Point(-1e9, 1e9), Point(.nan, 0), Point(0, .infinity), Point(-.infinity, .nan)]
    static let oddRadii = [0, 5, Double.infinity, .nan, -1, -Double.infinity]

    @Test func emptyIndexAnswersNothingEverywhere() throws {
        var withEmptyShape = HitIndex.Builder()
        try withEmptyShape.add(try GlyphShape(polygon: Polygon()), transform: .identity)
        for index in [HitIndex.Builder().build(), withEmptyShape.build()] {
            #expect(index.bounds.isEmpty)
            for p in Self.oddPoints {
                #expect(!index.contains(p))
                for r in Self.oddRadii {
                    #expect(index.hit(at: p, radius: r) == nil)
                    #expect(index.allHits(at: p, radius: r).isEmpty)
                }
            }
        }
    }

    @Test func nonFiniteQueryPointsAreMisses() throws {
        var b = HitIndex.Builder()
        try b.add(try Self.square10(), transform: .identity)
        try b.add(try Self.square10(), transform: .translation(-5, -5))
        let index = b.build()
        for p in [Point(.nan, 5), Point(5, .nan), Point(.infinity, 5), Point(5, -.infinity), Point(.nan, .nan)] {
            #expect(!index.contains(p))
            for r in Self.oddRadii {
                #expect(index.hit(at: p, radius: r) == nil, "\(p) r=\(r)")
                #expect(index.allHits(at: p, radius: r).isEmpty)
            }
        }
    }

    @Test(arguments: [-1.0, -Double.infinity, Double.nan, -0.0])
    func negativeAndNaNRadiusActAsZero(radius: Double) throws {
        var b = HitIndex.Builder()
        try b.add(try Self.square10(), transform: .identity)
        let index = b.build()
        let outside = Point(11, 5)         // 1 px right of the square
        #expect(index.hit(at: outside, radius: radius) == nil)
        #expect(index.allHits(at: outside, radius: radius).isEmpty)
        #expect(index.hit(at: outside, radius: 1.5)?.placement == 0, "control: a real radius reaches it")
        let inside = Point(5, 3)           // 3 px above the bottom edge
        let h = try #require(index.hit(at: inside, radius: radius))
        #expect(h.placement == 0 && h.isInside && isClose(h.distance, -3, within: 1e-6))
        #expect(index.allHits(at: inside, radius: radius).map(\.placement) == [0])
    }

    @Test func infiniteRadiusFindsTheNearestPlacementAnywhere() throws {
        var b = HitIndex.Builder()
        let s = try Self.square10()
        try b.add(s, transform: .identity)                   // [0, 10]²
        try b.add(s, transform: .translation(100, 0))       // [100, 110] × [0, 10]
        try b.add(s, transform: .translation(0, 100))       // [0, 10] × [100, 110]
        let index = b.build()
        let p = Point(300, 20)
        let d0 = (290.0 * 290 + 10 * 10).squareRoot(), d1 = (190.0 * 190 + 10 * 10).squareRoot(), d2 = (290.0 * 290 + 80 * 80).squareRoot()
        let h = try #require(index.hit(at: p, radius: .infinity))
        #expect(h.placement == 1 && !h.isInside && isClose(h.distance, d1, within: 1e-6))
        #expect(index.hit(at: p, radius: d1 - 0.01) == nil, "just short of the nearest: a miss")
        let all = index.allHits(at: p, radius: .infinity)
        #expect(all.map(\.placement) == [1, 0, 2])
        for (hit, d) in zip(all, [d1, d0, d2]) { #expect(isClose(hit.distance, d, within: 1e-6)) }
        // Far outside the page grid too.
        #expect(index.hit(at: Point(-1e7, 3e6), radius: .infinity)?.placement == 2, "[0, 10] × [100, 110] is nearest")
    }
}
