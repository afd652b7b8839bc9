/// Uniform-parameter flattening of Bézier curves with a Hausdorff bound.
///
/// Segment counts follow Wang's formula (G. Wang, 1984; see T. Sederberg, *Computer Aided Geometric
/// Design* course notes, §10.6): a polynomial curve whose second derivative is bounded by `M` is within
/// `M h² / 8` of the chord over any parameter interval of length `h`. For a quadratic `M = 2 |P0 − 2P1 + P2|`;
/// for a cubic `M ≤ 6 max(|P0 − 2P1 + P2|, |P1 − 2P2 + P3|)`. Because the bound holds point by point in the
/// parameter, every curve point is within the tolerance of the polyline *and* every polyline point is within
/// the tolerance of the curve: the Hausdorff distance is at most the tolerance. Segments grow as 1/√tolerance.
public enum Flattening {
    /// Most segments one curve may be cut into. A curve that would need more is cut into this many and
    /// its tolerance is not met; `segmentCount` reports that through `capped`.
    public static let maxSegmentsPerCurve = 4096

    /// How a curve is cut: into `count` segments of equal parameter length, within `error` of the curve.
    public struct Subdivision: Hashable, Sendable {
        /// Number of segments (1 … `maxSegmentsPerCurve`).
        public var count: Int
        /// True when the tolerance asked for needed more than `maxSegmentsPerCurve` segments (then `error`
        /// exceeds it).
        public var capped: Bool
        /// The Hausdorff bound these segments achieve, in the curve's units (∞ for a non-finite curve).
        public var error: Double
    }

    /// How to cut a quadratic `p0, c, p1` so that the polyline is within `tolerance` (same units as the
    /// points, > 0) of the curve.
    public static func segmentCount(quad p0: Point, _ c: Point, _ p1: Point, tolerance: Double) -> Subdivision {
        let dd = (p0 - c * 2 + p1).length
        return subdivision(secondDifference: dd, factor: 0.25, tolerance: tolerance)
    }

    /// How to cut a cubic `p0, c1, c2, p1` (see `segmentCount(quad:_:_:tolerance:)`).
    public static func segmentCount(cubic p0: Point, _ c1: Point, _ c2: Point, _ p1: Point, tolerance: Double) -> Subdivision {
        let d1 = (p0 - c1 * 2 + c2).length, d2 = (c1 - c2 * 2 + p1).length
        return subdivision(secondDifference: max(d1, d2), factor: 0.75, tolerance: tolerance)
    }

    /// n = ceil(sqrt(factor * dd / tolerance)), where the chord error for n segments is factor*dd/n².
    private static func subdivision(secondDifference dd: Double, factor: Double, tolerance: Double) -> Subdivision {
        guard dd.isFinite, tolerance.isFinite, tolerance > 0 else {
            return Subdivision(count: maxSegmentsPerCurve, capped: true, error: .infinity)
        }
        let n = (factor * dd / tolerance).squareRoot().rounded(.up)
        if n <= 1 { return Subdivision(count: 1, capped: false, error: factor * dd) }
        let count = n > Double(maxSegmentsPerCurve) ? maxSegmentsPerCurve : Int(n)
        let e = factor * dd / (Double(count) * Double(count))
        return Subdivision(count: count, capped: n > Double(maxSegmentsPerCurve), error: e)
    }

    /// The point at parameter `t` (0…1) of the quadratic `p0, c, p1` (Bernstein form).
    @inlinable public static func evalQuad(_ p0: Point, _ c: Point, _ p1: Point, _ t: Double) -> Point {
        let mt = 1 - t
        let a = mt * mt, b = 2 * mt * t, d = t * t
        return Point(a * p0.x + b * c.x + d * p1.x, a * p0.y + b * c.y + d * p1.y)
    }

    /// The point at parameter `t` (0…1) of the cubic `p0, c1, c2, p1` (Bernstein form).
    @inlinable public static func evalCubic(_ p0: Point, _ c1: Point, _ c2: Point, _ p1: Point, _ t: Double) -> Point {
        let mt = 1 - t
        let a = mt * mt * mt, b = 3 * mt * mt * t, c = 3 * mt * t * t, d = t * t * t
        return Point(a * p0.x + b * c1.x + c * c2.x + d * p1.x, a * p0.y + b * c1.y + c * c2.y + d * p1.y)
    }
}

/// Adapter that turns curves into line segments before `base` sees them.
///
/// `tolerance`: maximum distance, in the units of the incoming space, between each curve and its polyline
/// (a Hausdorff bound, see `Flattening`); segments grow as 1/√tolerance. To flatten for a target
/// tolerance in view px under a transform, pass `tolerancePx / transform.maxScale`.
/// A curve needing more than `Flattening.maxSegmentsPerCurve` segments is cut into that many and counted in
/// `cappedCurves` (its bound is then not met; callers that promise exactness treat it as an error).
/// `achievedTolerance` is the largest bound any curve actually got (0 when there were no curves, so a
/// polygon drawn through the sink is known to be exact).
public struct FlatteningSink<Base: OutlineSink>: OutlineSink {
    /// The sink that receives the lines.
    public var base: Base
    /// The Hausdorff bound asked for, in the units of the incoming space.
    public let tolerance: Double
    /// Curves that needed more than `Flattening.maxSegmentsPerCurve` segments (their bound is not met).
    public private(set) var cappedCurves = 0
    /// The largest Hausdorff bound achieved by any curve so far, in the units of the incoming space
    /// (≤ `tolerance` unless `cappedCurves > 0`; 0 when no curve was flattened).
    public private(set) var achievedTolerance = 0.0
    private var current = Point.zero
    private var start = Point.zero

    /// Flattens into `base` within `tolerance` (units of the incoming space, > 0).
    public init(_ base: Base, tolerance: Double) {
        self.base = base
        self.tolerance = tolerance
    }
    public mutating func move(to p: Point) { base.move(to: p); current = p; start = p }
    public mutating func addLine(to p: Point) { base.addLine(to: p); current = p }
    public mutating func addQuadCurve(to p: Point, control c: Point) {
        let sub = Flattening.segmentCount(quad: current, c, p, tolerance: tolerance)
        record(sub)
        let n = sub.count
        let p0 = current
        let inv = 1.0 / Double(n)
        for i in 1..<n { base.addLine(to: Flattening.evalQuad(p0, c, p, Double(i) * inv)) }
        base.addLine(to: p)
        current = p
    }
    public mutating func addCurve(to p: Point, control1 c1: Point, control2 c2: Point) {
        let sub = Flattening.segmentCount(cubic: current, c1, c2, p, tolerance: tolerance)
        record(sub)
        let n = sub.count
        let p0 = current
        let inv = 1.0 / Double(n)
        for i in 1..<n { base.addLine(to: Flattening.evalCubic(p0, c1, c2, p, Double(i) * inv)) }
        base.addLine(to: p)
        current = p
    }
    public mutating func closeSubpath() { base.closeSubpath(); current = start }

    private mutating func record(_ sub: Flattening.Subdivision) {
        if sub.capped { cappedCurves += 1 }
        if !(sub.error <= achievedTolerance) { achievedTolerance = sub.error }
    }
}
