import Testing
import InkGeometry
import InkHit
import InkTestSupport

/// Outlines an embedder draws itself (no font): `GlyphShape(viewTolerance:maxScale:fillRule:…) { sink in … }`,
/// `ShapeCache<Int>` keyed by the embedder's own ids, and fill rules. Expected values are hand-computed or
/// come from the Bézier oracles of InkTestSupport (de Casteljau + golden-section distances) and the
/// brute-force oracle, never from the code under test.
struct CustomOutlineTests {
    /// The square [x0, x1] × [y0, y1], counter-clockwise in y-up, drawn through a sink.
    static func drawSquare(_ sink: inout GlyphShape.Sink, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        sink.move(to: Point(x0, y0)); sink.addLine(to: Point(x1, y0))
        sink.addLine(to: Point(x1, y1)); sink.addLine(to: Point(x0, y1)); sink.closeSubpath()
    }

    /// A circle of radius `r` around the origin drawn as four cubic arcs (BezierCircle.cubic4).
    static func drawCircle(_ sink: inout GlyphShape.Sink, radius r: Double) {
        BezierCircle.cubic4.elements(radius: r).replay(into: &sink)
    }

    // MARK: Polygons are exact

    /// A polygon drawn through the sink has no curve to flatten: its tolerance is 0, so the builder takes
    /// it at any scale — 1e6 view px per unit here, where a tolerance of even 1e-9 units would be refused.
    @Test func polygonThroughTheSinkIsExactAtAnyScale() throws {
        let shape = try GlyphShape(viewTolerance: 0.01, maxScale: 1) { sink in
            // A triangle (0, 0), (10, 0), (0, 10) and an open contour the sink closes.
            sink.move(to: Point(0, 0)); sink.addLine(to: Point(10, 0)); sink.addLine(to: Point(0, 10)); sink.closeSubpath()
        }
        #expect(shape.tolerance == 0)
        #expect(shape.edgeCount == 3)
        #expect(shape.bounds == Rect(minX: 0, minY: 0, maxX: 10, maxY: 10))
        var b = HitIndex.Builder()
        let k = try b.add(shape, transform: .scale(1e6, 1e6))
        #expect(k == 0)
        let index = b.build()
        // Triangle x + y ≤ 10 units, i.e. ≤ 1e7 view px. (2e6, 3e6) is inside, 2e6 px from the edge x = 0;
        // (6e6, 6e6) is outside, (6e6 + 6e6 − 1e7)/√2 = 2e6/√2 px from the hypotenuse.
        let inside = try #require(index.hit(at: Point(2e6, 3e6)))
        #expect(inside.isInside && inside.placement == 0)
        #expect(isClose(inside.distance, -2e6, within: 2e6 * 1e-6))
        #expect(index.hit(at: Point(6e6, 6e6)) == nil)
        let near = try #require(index.hit(at: Point(6e6, 6e6), radius: 1.5e6))
        #expect(!near.isInside && isClose(near.distance, 2e6 / 2.0.squareRoot(), within: 2e6 * 1e-6))
        // The scale check is live: the same triangle declared 1e-7 units from its true outline is 0.1 px off
        // at this scale, more than the builder's 0.01 px.
        let coarse = try GlyphShape(polygon: Polygon(contours: [[Point(0, 0), Point(10, 0), Point(0, 10)]]), tolerance: 1e-7)
        expectTooCoarse(placement: 1, viewError: 0.1) { try b.add(coarse, transform: .scale(1e6, 1e6)) }
    }

    // MARK: Curves meet the view tolerance at maxScale

    struct CurveCase: Sendable, CustomTestStringConvertible {
        var circle: BezierCircle
        var radius: Double
        var maxScale: Double
        var testDescription: String { "\(circle) r=\(radius) at maxScale \(maxScale)" }
    }

    static let curveCases: [CurveCase] = [
        CurveCase(circle: .cubic4, radius: 10, maxScale: 20),
        CurveCase(circle: .quad8, radius: 10, maxScale: 20),
        CurveCase(circle: .cubic4, radius: 1000, maxScale: 0.05),
        CurveCase(circle: .quad8, radius: 300, maxScale: 1),
    ]

    /// Flattened for maxScale m, the polygon is within viewTolerance / m units of the true curve both ways
    /// (Hausdorff): every point of every stored edge is that close to the curve (BezierDistance), and every
    /// curve point that close to the polygon (brute force over the stored edges). Placed at scale m the
    /// builder accepts it; at 3m it must refuse it as too coarse.
    @Test(arguments: curveCases)
    func curvesMeetTheViewToleranceAtMaxScale(_ c: CurveCase) throws {
        let viewTolerance = 0.01
        let shape = try GlyphShape(viewTolerance: viewTolerance, maxScale: c.maxScale) { sink in
            c.circle.elements(radius: c.radius).replay(into: &sink)
        }
        let unitTolerance = viewTolerance / c.maxScale
        #expect(shape.tolerance > 0 && shape.tolerance <= unitTolerance)
        // Stored edges are Float: allow their rounding (half an ulp of the largest coordinate, per axis).
        let rounding = Double(Float(c.radius).ulp)
        let edges = shape.storedEdges
        #expect(edges.count >= 16)
        var worstEdge = 0.0
        for e in edges {
            for t in stride(from: 0.0, through: 1.0, by: 0.125) {
                let p = e.start.lerp(e.end, t)
                worstEdge = max(worstEdge, c.circle.distance(from: p, radius: c.radius))
            }
        }
        #expect(worstEdge <= unitTolerance + rounding, "polygon → curve \(worstEdge) units, allowed \(unitTolerance)")
        let oracle = BruteForce(shapes: [shape], transforms: [.identity])
        var worstCurve = 0.0
        for arc in c.circle.arcs(radius: c.radius) {
            for p in BezierCircle.sample(arc, 400) { worstCurve = max(worstCurve, oracle.distance(0, p)) }
        }
        #expect(worstCurve <= unitTolerance + rounding, "curve → polygon \(worstCurve) units, allowed \(unitTolerance)")
        // Not vacuous: the flattening used most of its allowance (Wang's bound with many segments per arc).
        #expect(worstCurve > unitTolerance / 10)

        var b = HitIndex.Builder()
        #expect(b.tolerance == viewTolerance)
        try b.add(shape, transform: .scale(c.maxScale, c.maxScale))
        // Refused at 3m: the shape's own bound is more than a third of the allowance (Wang's bound with many
        // segments per arc lands close to it; checked above through worstCurve), so 3m exceeds 0.01 px.
        expectTooCoarse(placement: 1, viewError: shape.tolerance * 3 * c.maxScale) {
            try b.add(shape, transform: .scale(3 * c.maxScale, 3 * c.maxScale))
        }
        // A rotation at scale m has the same largest scale: accepted.
        try b.add(shape, transform: AffineTransform.scale(c.maxScale, c.maxScale).concatenating(.rotation(0.7)))
        #expect(b.count == 2)
    }

    /// `body` must throw `.shapeTooCoarse` for `placement`, with `viewError` view px (to 1e-9 relative) against
    /// the builder's 0.01 px.
    func expectTooCoarse(placement: Int, viewError: Double, sourceLocation: SourceLocation = #_sourceLocation,
                         _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("expected .shapeTooCoarse", sourceLocation: sourceLocation)
        } catch {
            guard case .shapeTooCoarse(let p, let s, let r)? = error as? HitIndexError else {
                Issue.record("expected .shapeTooCoarse, got \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(p == placement && r == 0.01, sourceLocation: sourceLocation)
            #expect(isClose(s, viewError, within: 1e-9 * viewError), "\(s) vs \(viewError)", sourceLocation: sourceLocation)
        }
    }

    // MARK: ShapeCache<Int>

    /// Counts how often an outline closure runs.
    final class Counter: @unchecked Sendable { var n = 0 }

    /// Keyed by the embedder's ids: the same (key, tolerance class, fill rule) is the same object and is
    /// built once; another key, class or fill rule is another shape.
    ///
    /// Classes: the shape tolerance is 0.01 / maxScale units, rounded down to a power of two. maxScale 2 →
    /// 0.005 and maxScale 2.5 → 0.004 both lie in [2⁻⁸, 2⁻⁷) = [0.00390625, 0.0078125); maxScale 3 → 0.00333
    /// lies in [2⁻⁹, 2⁻⁸) and maxScale 1.5 → 0.00667 in [2⁻⁸, 2⁻⁷) again.
    @Test func sameKeyClassAndRuleIsOneSharedShape() throws {
        let cache = ShapeCache<Int>()
        let builds = Counter()
        func shape(_ key: Int, _ maxScale: Double, _ rule: FillRule = .nonZero) throws -> GlyphShape {
            try cache.shape(for: key, viewTolerance: 0.01, maxScale: maxScale, fillRule: rule) { sink in
                builds.n += 1
                Self.drawCircle(&sink, radius: 10)
            }
        }
        let a = try shape(7, 2)
        #expect(builds.n == 1 && cache.count == 1 && cache.byteCount == a.byteCount)
        #expect(try shape(7, 2) === a)
        #expect(try shape(7, 2.5) === a)
        #expect(try shape(7, 1.5) === a)
        #expect(builds.n == 1)
        // The class tolerance is a power of two ≤ the request: 2⁻⁸ units at most.
        #expect(a.tolerance <= 0x1p-8)

        let finer = try shape(7, 3)
        #expect(finer !== a && builds.n == 2)
        #expect(finer.tolerance <= 0x1p-9)
        let other = try shape(8, 2)
        #expect(other !== a && builds.n == 3)
        let evenOdd = try shape(7, 2, .evenOdd)
        #expect(evenOdd !== a && evenOdd.fillRule == .evenOdd && a.fillRule == .nonZero && builds.n == 4)
        #expect(cache.count == 4)
        #expect(cache.byteCount == a.byteCount + finer.byteCount + other.byteCount + evenOdd.byteCount)
        // Asking again for any of them builds nothing.
        #expect(try shape(7, 3) === finer && shape(8, 2.5) === other && shape(7, 2, .evenOdd) === evenOdd)
        #expect(builds.n == 4)
        // A tolerance that cannot be met is a typed error, and nothing is built or stored.
        #expect(throws: ShapeError.invalidTolerance(0.01 / 0)) { try shape(9, 0) }
        #expect(builds.n == 4 && cache.count == 4)
    }

    /// An exact shape (no curves: tolerance 0) serves every tolerance class: one entry per key and rule.
    @Test func exactShapeIsKeptOncePerKeyAndRule() throws {
        let cache = ShapeCache<Int>()
        let builds = Counter()
        func square(_ maxScale: Double) throws -> GlyphShape {
            try cache.shape(for: 1, viewTolerance: 0.01, maxScale: maxScale) { sink in
                builds.n += 1
                Self.drawSquare(&sink, 0, 0, 10, 10)
            }
        }
        let s = try square(1)
        #expect(s.tolerance == 0)
        #expect(try square(1000) === s && square(0.001) === s)
        #expect(builds.n == 1 && cache.count == 1)
    }

    /// `maxBytes`: storing past the budget evicts the oldest entries first; an evicted key is built again
    /// when asked for; a shape larger than the whole budget is returned but not kept.
    @Test func byteBudgetEvictsOldestFirst() throws {
        func circle(_ sink: inout GlyphShape.Sink) { Self.drawCircle(&sink, radius: 10) }
        // The size of one such shape, from a cache without a budget (the budget is defined on byteCount).
        let probe = try ShapeCache<Int>().shape(for: 0, viewTolerance: 0.01, maxScale: 2, outline: circle)
        let size = probe.byteCount
        #expect(size > 0)

        let cache = ShapeCache<Int>(maxBytes: 2 * size)
        let builds = Counter()
        func shape(_ key: Int) throws -> GlyphShape {
            try cache.shape(for: key, viewTolerance: 0.01, maxScale: 2) { sink in builds.n += 1; circle(&sink) }
        }
        let one = try shape(1), two = try shape(2)
        #expect(one.byteCount == size && two.byteCount == size)
        #expect(cache.count == 2 && cache.byteCount == 2 * size && builds.n == 2)
        // A third does not fit: the oldest (1) goes.
        let three = try shape(3)
        #expect(cache.count == 2 && cache.byteCount == 2 * size && builds.n == 3)
        #expect(try shape(2) === two && shape(3) === three)
        #expect(builds.n == 3)
        // 1 was evicted: asking again builds a new shape (and evicts 2, now the oldest).
        let oneAgain = try shape(1)
        #expect(oneAgain !== one && builds.n == 4)
        #expect(cache.count == 2 && cache.byteCount == 2 * size)
        #expect(try shape(3) === three && shape(1) === oneAgain)
        #expect(builds.n == 4)
        let twoAgain = try shape(2)
        #expect(twoAgain !== two && builds.n == 5)
        // The evicted shape stays usable by whoever holds it.
        #expect(one.contains(Point(0, 0)) && !one.contains(Point(11, 0)))

        // Bigger than the whole budget: returned, correct, not kept, built again on every request.
        let tiny = ShapeCache<Int>(maxBytes: size - 1)
        let tinyBuilds = Counter()
        func big() throws -> GlyphShape {
            try tiny.shape(for: 5, viewTolerance: 0.01, maxScale: 2) { sink in tinyBuilds.n += 1; circle(&sink) }
        }
        let b1 = try big()
        #expect(b1.contains(Point(9.9, 0)) && !b1.contains(Point(10.1, 0)))
        #expect(tiny.count == 0 && tiny.byteCount == 0 && tinyBuilds.n == 1)
        let b2 = try big()
        #expect(b2 !== b1 && tinyBuilds.n == 2 && tiny.count == 0)
        // removeAll empties a cache: the next request builds again.
        cache.removeAll()
        #expect(cache.count == 0 && cache.byteCount == 0)
        #expect(try shape(2) !== twoAgain)
    }

    // MARK: Fill rules

    /// A 10 × 10 square with a same-direction 4 × 4 hole [3, 7]²: the winding number in the hole is 2, so
    /// even-odd leaves it empty and nonzero fills it. Hand-computed points; then the same through HitIndex.
    @Test func evenOddHoleIsAMissNonzeroIsInk() throws {
        func frame(_ rule: FillRule) throws -> GlyphShape {
            try GlyphShape(viewTolerance: 0.01, maxScale: 1, fillRule: rule) { sink in
                Self.drawSquare(&sink, 0, 0, 10, 10)
                Self.drawSquare(&sink, 3, 3, 7, 7)
            }
        }
        let evenOdd = try frame(.evenOdd), nonZero = try frame(.nonZero)
        #expect(evenOdd.fillRule == .evenOdd && nonZero.fillRule == .nonZero)
        for s in [evenOdd, nonZero] {
            #expect(s.winding(at: Point(5, 5)) == 2)        // the hole: inside both squares
            #expect(s.winding(at: Point(1.5, 5)) == 1)      // the ring
            #expect(s.winding(at: Point(11, 5)) == 0)       // outside
            #expect(s.contains(Point(1.5, 5)) && s.contains(Point(8, 9)) && !s.contains(Point(11, 5)))
        }
        for p in [Point(5, 5), Point(3.5, 3.5), Point(6.9, 4)] {
            #expect(!evenOdd.contains(p), "even-odd hole \(p)")
            #expect(nonZero.contains(p), "nonzero hole \(p)")
        }
        // Signed distance at the hole's centre: 2 units from the hole's edges; outside for even-odd.
        #expect(isClose(evenOdd.signedDistance(to: Point(5, 5)), 2, within: 1e-12))
        #expect(isClose(nonZero.signedDistance(to: Point(5, 5)), -2, within: 1e-12))

        // Through the index, each at scale 2 and moved: even-odd at (100, 0), nonzero at (0, 0).
        var b = HitIndex.Builder()
        try b.add(nonZero, transform: AffineTransform.scale(2, 2))
        try b.add(evenOdd, transform: AffineTransform.scale(2, 2).concatenating(.translation(100, 0)))
        let index = b.build()
        // Nonzero hole centre (10, 10): ink, 4 px from the hole's edges.
        let n = try #require(index.hit(at: Point(10, 10)))
        #expect(n.placement == 0 && n.isInside && isClose(n.distance, -4, within: 1e-5))
        // Even-odd hole centre (110, 10): a miss at r = 0, within r = 5 (4 px away), outside the ink.
        #expect(index.hit(at: Point(110, 10)) == nil)
        #expect(!index.contains(Point(110, 10)) && index.contains(Point(101, 10)))
        let e = try #require(index.hit(at: Point(110, 10), radius: 5))
        #expect(e.placement == 1 && !e.isInside && isClose(e.distance, 4, within: 1e-5))
        // The even-odd ring is ink: (103, 10) is 3 px right of the outer edge x = 100 and 3 px left of the
        // hole's edge x = 106.
        let ring = try #require(index.hit(at: Point(103, 10)))
        #expect(ring.placement == 1 && ring.isInside && isClose(ring.distance, -3, within: 1e-5))
        // The brute-force oracle agrees on a grid over both frames.
        let oracle = BruteForce(shapes: [nonZero, evenOdd], transforms: [.scale(2, 2), AffineTransform.scale(2, 2).concatenating(.translation(100, 0))])
        var misses = 0
        for x in stride(from: -3.25, through: 125, by: 0.5) {
            for y in stride(from: -3.25, through: 23, by: 0.5) {
                let p = Point(x, y)
                let want = oracle.hit(p, radius: 0)
                let got = index.hit(at: p)
                #expect(got?.placement == want?.placement, "at \(p)")
                if want == nil { misses += 1 }
            }
        }
        #expect(misses > 100)
    }
}
