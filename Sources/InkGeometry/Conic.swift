/// Conic sections as renderers store them (Skia's `kConic_Verb`): a rational quadratic Bézier from `p0` to
/// `p1` with control point `c` and weight `w > 0`,
/// `C(t) = ((1−t)² p0 + 2wt(1−t) c + t² p1) / ((1−t)² + 2wt(1−t) + t²)` — an ellipse arc for `w < 1`
/// (a quarter circle has `w = cos 45°`), a parabola (a plain quadratic) for `w = 1`, a hyperbola for `w > 1`.
///
/// InkHit draws conics as quadratics: the conic is halved at `t = ½` until each half is close enough to the
/// quadratic with the same three points, then that quadratic is used.
///
/// **The bound.** For the quadratic `Q` with the conic's points, `C(t) − Q(t) = (w−1)·B₁(t)·(c − Q(t)) /
/// (1 + (w−1)·B₁(t))` with `B₁ = 2t(1−t) ≤ ½`; since `B₁ / (1 + (w−1)B₁)` grows with `B₁` and
/// `|c − Q(t)| ≤ max(|c − p0|, |c − p1|)`, every point of the conic is within
/// `|w − 1| / (w + 1) · max(|c − p0|, |c − p1|)` of the quadratic's point at the same `t` (so the Hausdorff
/// distance is at most that). Halving maps `w` to `√((1 + w)/2)` and halves the legs, so the bound falls about
/// eightfold per level. (Skia's own estimate, `SkConic::computeQuadPOW2`, is the error at `t = ½`,
/// `|w−1| / (4(w+1)) · |p0 − 2c + p1|`, which this bound is never below.)
public enum Conic {
    /// The deepest halving: 2¹² quadratics per conic. A conic that needs more is cut into that many and its
    /// tolerance is not met (`Flattening.Subdivision.capped`).
    public static let maxDepth = 12

    /// The bound above: how far the conic is from the quadratic with the same points, in their units.
    public static func quadError(from p0: Point, control c: Point, to p1: Point, weight w: Double) -> Double {
        abs(w - 1) / (w + 1) * max((c - p0).length, (c - p1).length)
    }

    /// The two halves of the conic at `t = ½`: each as (start, control, end, weight).
    public static func halves(from p0: Point, control c: Point, to p1: Point, weight w: Double)
        -> ((Point, Point, Point, Double), (Point, Point, Point, Double)) {
        let k = 1 / (1 + w)
        let left = (p0 + c * w) * k
        let right = (c * w + p1) * k
        let mid = (p0 + c * (2 * w) + p1) * (k / 2)
        let half = ((1 + w) / 2).squareRoot()
        return ((p0, left, mid, half), (mid, right, p1, half))
    }

    /// Hands `body` the quadratics (control, end) that stand for the conic within `tolerance` (its points'
    /// units, > 0), in order from `p0`; returns how many, the bound they achieve, and whether the depth
    /// limit stopped short of the tolerance. The weight must be finite and > 0 (callers check it).
    @discardableResult
    public static func quads(from p0: Point, control c: Point, to p1: Point, weight w: Double, tolerance: Double,
                             _ body: (_ control: Point, _ end: Point) -> Void) -> Flattening.Subdivision {
        var count = 0, worst = 0.0, capped = false
        func split(_ a: Point, _ b: Point, _ e: Point, _ w: Double, _ depth: Int) {
            let err = quadError(from: a, control: b, to: e, weight: w)
            if err <= tolerance || depth >= maxDepth || !err.isFinite {
                if !(err <= tolerance) { capped = true }
                worst = max(worst, err.isFinite ? err : .infinity)
                count += 1
                body(b, e)
                return
            }
            let (l, r) = halves(from: a, control: b, to: e, weight: w)
            split(l.0, l.1, l.2, l.3, depth + 1)
            split(r.0, r.1, r.2, r.3, depth + 1)
        }
        split(p0, c, p1, w, 0)
        return Flattening.Subdivision(count: count, capped: capped, error: worst)
    }

    /// The conic's point at parameter `t` (0…1), by its definition.
    public static func point(from p0: Point, control c: Point, to p1: Point, weight w: Double, at t: Double) -> Point {
        let a = (1 - t) * (1 - t), b = 2 * w * t * (1 - t), d = t * t
        return (p0 * a + c * b + p1 * d) * (1 / (a + b + d))
    }
}

/// An outline sink that also takes conics (see `Conic`).
public protocol ConicSink: OutlineSink {
    /// A conic section from the current point to `p` with control point `c` and weight `w` (finite, > 0).
    mutating func addConic(to p: Point, control c: Point, weight w: Double)
}

/// Adapter: hands conics to `base` as quadratics within `tolerance` (the incoming space's units, > 0; see
/// `Conic` for the bound), and everything else as it is. `achievedTolerance` is the largest bound a conic got
/// (0 without conics); `cappedConics` counts conics that needed more than 2^`Conic.maxDepth` quadratics.
public struct ConicToQuadSink<Base: OutlineSink>: ConicSink {
    /// The sink that receives the quadratics.
    public var base: Base
    /// The bound asked for, in the incoming space's units.
    public let tolerance: Double
    /// The largest bound any conic achieved (0 without conics).
    public private(set) var achievedTolerance = 0.0
    /// Conics whose bound was not met.
    public private(set) var cappedConics = 0
    private var current = Point.zero
    private var start = Point.zero

    /// Converts conics within `tolerance` before `base` sees them.
    public init(_ base: Base, tolerance: Double) { self.base = base; self.tolerance = tolerance }

    public mutating func move(to p: Point) { base.move(to: p); current = p; start = p }
    public mutating func addLine(to p: Point) { base.addLine(to: p); current = p }
    public mutating func addQuadCurve(to p: Point, control c: Point) { base.addQuadCurve(to: p, control: c); current = p }
    public mutating func addCurve(to p: Point, control1 c1: Point, control2 c2: Point) {
        base.addCurve(to: p, control1: c1, control2: c2); current = p
    }
    public mutating func closeSubpath() { base.closeSubpath(); current = start }
    public mutating func addConic(to p: Point, control c: Point, weight w: Double) {
        let sub = Conic.quads(from: current, control: c, to: p, weight: w, tolerance: tolerance) { c, e in
            self.base.addQuadCurve(to: e, control: c)
        }
        if sub.capped { cappedConics += 1 }
        if !(sub.error <= achievedTolerance) { achievedTolerance = sub.error }
        current = p
    }
}
