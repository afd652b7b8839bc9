import Testing
import InkGeometry
import InkTestSupport

/// Flattening: the Hausdorff bound against the Bézier curves themselves (sampled densely by an
/// independent evaluator), segment counts ~ 1/√tolerance, and the area of a flattened circle.
struct FlatteningTests {
    static let radius = 100.0
    static let tolerances = [1.0, 0.1, 0.01]

    /// Flattens one arc on its own: the polyline, starting with the arc's first point.
    static func flatten(_ arc: [Point], tolerance: Double) -> (points: [Point], capped: Int) {
        var s = FlatteningSink(RecordingSink(), tolerance: tolerance)
        s.move(to: arc[0])
        if arc.count == 3 { s.addQuadCurve(to: arc[2], control: arc[1]) }
        else { s.addCurve(to: arc[3], control1: arc[1], control2: arc[2]) }
        var pts: [Point] = []
        for e in s.base.elements {
            switch e {
            case .move(let p), .line(let p): pts.append(p)
            default: Issue.record("FlatteningSink passed a curve through: \(e)")
            }
        }
        return (pts, s.cappedCurves)
    }

    /// Flattens the whole circle through the sink chain: the closed polygon's vertices.
    static func flattenCircle(_ kind: BezierCircle, tolerance: Double) -> [Point] {
        var s = FlatteningSink(RecordingSink(), tolerance: tolerance)
        kind.elements(radius: radius).replay(into: &s)
        var pts: [Point] = []
        for e in s.base.elements {
            switch e {
            case .move(let p), .line(let p): pts.append(p)
            case .close: break
            default: Issue.record("curve passed through: \(e)")
            }
        }
        if let f = pts.first, let l = pts.last, f == l { pts.removeLast() }
        return pts
    }

    @Test(arguments: BezierCircle.allCases, tolerances)
    func hausdorffDistanceToTheBezierIsWithinTolerance(kind: BezierCircle, tolerance: Double) {
        var worstCurveToPoly = 0.0, worstPolyToCurve = 0.0
        for arc in kind.arcs(radius: Self.radius) {
            let (poly, capped) = Self.flatten(arc, tolerance: tolerance)
            #expect(capped == 0)
            #expect(poly.first == arc.first && poly.last == arc.last, "polyline keeps the arc's end points")
            let dense = BezierCircle.sample(arc, 1000)
            // (a) every curve sample is within `tolerance` of the polyline.
            for q in dense { worstCurveToPoly = max(worstCurveToPoly, Oracle.polylineDistance(q, poly)) }
            // (b) every polyline point is within `tolerance` of the curve: points along each segment, measured
            // to the curve itself (nearest parameter refined to ~1e-12, not a sample spacing).
            for i in 0..<(poly.count - 1) {
                for k in 0...20 {
                    let t = Double(k) / 20
                    let q = Point(poly[i].x + (poly[i + 1].x - poly[i].x) * t, poly[i].y + (poly[i + 1].y - poly[i].y) * t)
                    worstPolyToCurve = max(worstPolyToCurve, BezierDistance.distance(from: q, to: arc))
                }
            }
        }
        #expect(worstCurveToPoly <= tolerance * (1 + 1e-9), "curve → polyline \(worstCurveToPoly)")
        #expect(worstPolyToCurve <= tolerance * (1 + 1e-9), "polyline → curve \(worstPolyToCurve)")
        // Not wasteful: Wang's bound is within a small factor of the true error for circular arcs.
        #expect(worstCurveToPoly >= tolerance / 4, "segments wasted: worst error \(worstCurveToPoly) ≪ \(tolerance)")
    }

    @Test(arguments: BezierCircle.allCases)
    func segmentCountsGrowAsInverseSquareRootOfTolerance(kind: BezierCircle) {
        func count(_ tol: Double) -> Int {
            kind.arcs(radius: Self.radius).map { Self.flatten($0, tolerance: tol).points.count - 1 }.reduce(0, +)
        }
        let coarse = count(1), medium = count(0.1), fine = count(0.01)
        #expect(coarse < medium && medium < fine)
        let ratio = Double(fine) / Double(coarse)
        #expect(ratio >= 7 && ratio <= 13, "tol 1 → \(coarse) segments, tol 0.01 → \(fine): ratio \(ratio), √100 = 10")
        let ratio2 = Double(fine) / Double(medium)
        #expect(ratio2 >= 2.5 && ratio2 <= 4, "tol 0.1 → \(medium), tol 0.01 → \(fine): ratio \(ratio2), √10 ≈ 3.16")
    }

    /// Area by the shoelace formula. The polygon's vertices lie on the curve and its chords within
    /// `tolerance` of it, so it lies in the annulus [rmin − t, rmax] around the origin and winds once:
    /// its area is between π(rmin − t)² and π rmax², where [rmin, rmax] is the curve's radial range (positive:
    /// the circles run counter-clockwise in y-up).
    @Test(arguments: BezierCircle.allCases, tolerances)
    func circleAreaIsNearPiRSquared(kind: BezierCircle, tolerance: Double) {
        let pts = Self.flattenCircle(kind, tolerance: tolerance)
        let area = Oracle.shoelace(pts)
        let (rmin, rmax) = kind.radialRange(radius: Self.radius)
        #expect(rmin >= Self.radius * (1 - 1e-9), "Bézier circles of this kind do not dip inside the circle (k is rounded: −1.6e-11 R)")
        let lo = Double.pi * (rmin - tolerance) * (rmin - tolerance), hi = Double.pi * (rmax + 1e-6) * (rmax + 1e-6)
        #expect(area >= lo && area <= hi, "area \(area) not in [\(lo), \(hi)]")
        // And against πR² directly: within 2πR·(t + (rmax − R)) (first order in both errors).
        let piR2 = Double.pi * Self.radius * Self.radius
        #expect(isClose(area, piR2, within: 2 * Double.pi * Self.radius * (tolerance + (rmax - Self.radius)) * 1.01))
    }

    @Test func radialErrorOfTheReferenceCirclesIsTheKnownOne() {
        // Classic results: with k = 0.5522847498 a cubic quarter arc strays at most ~0.027 % outside the circle;
        // a quadratic 45° arc with tangent end points peaks at the midpoint, R (1 + cos² 22.5°) / (2 cos 22.5°).
        let (c0, c1) = BezierCircle.cubic4.radialRange(radius: 1)
        #expect(isClose(c0, 1, within: 1e-9) && c1 > 1.0002 && c1 < 1.0003)
        let (q0, q1) = BezierCircle.quad8.radialRange(radius: 1)
        let cos22 = 0.92387953251128675613
        #expect(isClose(q0, 1, within: 1e-9))
        #expect(isClose(q1, (1 + cos22 * cos22) / (2 * cos22), within: 1e-9))
    }

    // MARK: Segment counts (Wang's formula)

    @Test func straightCurvesNeedOneSegment() {
        let a = Point(0, 0), b = Point(30, 0)
        #expect(Flattening.segmentCount(quad: a, Point(15, 0), b, tolerance: 0.001).count == 1)
        #expect(Flattening.segmentCount(cubic: a, Point(10, 0), Point(20, 0), b, tolerance: 0.001).count == 1)
    }

    /// For a parabola y = x² on [0, 1] (quad (0,0) (0.5,0) (1,1)) the second difference is |(0,1)| = 1, so
    /// n = ⌈√(0.25 / t)⌉; the cubic with the same curve (degree-elevated) has second difference 1/3: n = ⌈√(0.25 / t)⌉.
    @Test(arguments: [(0.2, 2), (0.011, 5), (0.0024, 11), (0.000099, 51), (0.00009, 53)])
    func wangCountsForAParabola(_ c: (tol: Double, n: Int)) {
        let p0 = Point(0, 0), q = Point(0.5, 0), p1 = Point(1, 1)
        #expect(Flattening.segmentCount(quad: p0, q, p1, tolerance: c.tol).count == c.n)
        let c1 = Point(1.0 / 3, 0), c2 = Point(2.0 / 3, 1.0 / 3)
        #expect(Flattening.segmentCount(cubic: p0, c1, c2, p1, tolerance: c.tol).count == c.n)
    }

    @Test(arguments: [0.0, -1.0, Double.nan, Double.infinity])
    func invalidToleranceIsReportedAsCapped(tol: Double) {
        let r = Flattening.segmentCount(quad: .zero, Point(1, 5), Point(2, 0), tolerance: tol)
        #expect(r.capped && r.count == Flattening.maxSegmentsPerCurve)
    }

    @Test func hugeCurveIsCappedAndCounted() {
        var s = FlatteningSink(RecordingSink(), tolerance: 1e-6)
        s.move(to: .zero)
        s.addCurve(to: Point(1e6, 0), control1: Point(0, 1e6), control2: Point(1e6, 1e6))
        s.move(to: .zero)
        s.addQuadCurve(to: Point(2, 0), control: Point(1, 1))   // ⌈√(0.25 · 2 / 1e-6)⌉ = 708 segments: not capped
        #expect(s.cappedCurves == 1)
        let lines = s.base.elements.filter { if case .line = $0 { return true } else { return false } }
        #expect(lines.count == Flattening.maxSegmentsPerCurve + 708)
    }

    /// Regression (fixed): after `closeSubpath()` the current point is the subpath's start (SVG rules,
    /// and `NormalizingSink` follows them), but `FlatteningSink` keeps the last point and flattens a following
    /// curve from there. `GlyphShape(elements:)` chains FlatteningSink → NormalizingSink, so a stream
    /// `M L L Z Q` becomes a polygon whose curve starts at the wrong point.
    @Test func curveAfterCloseIsFlattenedFromTheSubpathStart() {
        let a = Point(0, 0), b = Point(100, 0), c = Point(100, 100)
        let ctrl = Point(-50, 50), end = Point(0, 100)
        var s = FlatteningSink(NormalizingSink(RecordingSink()), tolerance: 0.01)
        s.move(to: a); s.addLine(to: b); s.addLine(to: c); s.closeSubpath()
        s.addQuadCurve(to: end, control: ctrl)          // no move: starts at `a`
        s.base.finish()
        let elements = s.base.base.elements
        let second = Array(elements.drop(while: { $0 != .close }).dropFirst())
        #expect(second.first == .move(a))
        // Oracle: the exact distance to the quad (BezierDistance), not to samples of it, so the bound is the
        // flattening's own tolerance plus rounding at coordinates near 100.
        var worst = 0.0
        for e in second {
            if case .line(let p) = e, p != a {   // the closing line back to `a` ends on the curve's start
                worst = max(worst, BezierDistance.distance(from: p, to: [a, ctrl, end]))
            }
        }
        #expect(worst <= 0.01 + 1e-9 * 100, "flattened points are up to \(worst) from the quad that starts at \(a)")
    }
}
