import InkGeometry

// Oracles for the geometry tests, written independently of the code under test: plain formulas,
// no InkGeometry algorithm is used to compute an expected value.

/// Deterministic random numbers (SplitMix64) so failures reproduce.
struct GeoRng {
    var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func range(_ a: Double, _ b: Double) -> Double { a + (b - a) * unit() }
}

enum Oracle {
    /// Distance from `p` to the closed segment `a b`, by projection (own implementation).
    static func segmentDistance(_ p: (x: Double, y: Double), _ a: Point, _ b: Point) -> Double {
        let vx = b.x - a.x, vy = b.y - a.y
        let wx = p.x - a.x, wy = p.y - a.y
        let len2 = vx * vx + vy * vy
        var t = len2 == 0 ? 0 : (wx * vx + wy * vy) / len2
        t = min(1, max(0, t))
        let dx = wx - t * vx, dy = wy - t * vy
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Distance from `p` to an open polyline (consecutive points joined).
    static func polylineDistance(_ p: Point, _ pts: [Point]) -> Double {
        if pts.count == 1 { return hypot(p.x - pts[0].x, p.y - pts[0].y) }
        var best = Double.infinity
        for i in 0..<(pts.count - 1) { best = min(best, segmentDistance((p.x, p.y), pts[i], pts[i + 1])) }
        return best
    }

    static func hypot(_ x: Double, _ y: Double) -> Double { (x * x + y * y).squareRoot() }

    /// Bernstein form of a quadratic Bézier.
    static func quad(_ p0: Point, _ c: Point, _ p1: Point, _ t: Double) -> Point {
        let u = 1 - t
        return Point(u * u * p0.x + 2 * u * t * c.x + t * t * p1.x, u * u * p0.y + 2 * u * t * c.y + t * t * p1.y)
    }

    /// De Casteljau evaluation of a cubic Bézier (a different algorithm from the Bernstein sum in Sources).
    static func cubic(_ p0: Point, _ c1: Point, _ c2: Point, _ p1: Point, _ t: Double) -> Point {
        func l(_ a: Point, _ b: Point) -> Point { Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t) }
        let ab = l(p0, c1), bc = l(c1, c2), cd = l(c2, p1)
        let abc = l(ab, bc), bcd = l(bc, cd)
        return l(abc, bcd)
    }

    /// Shoelace area of a closed polygon (positive for counter-clockwise in y-up).
    static func shoelace(_ pts: [Point]) -> Double {
        var s = 0.0
        for i in pts.indices {
            let a = pts[i], b = pts[(i + 1) % pts.count]
            s += a.x * b.y - b.x * a.y
        }
        return s / 2
    }

    static func near(_ a: Double, _ b: Double, _ tol: Double) -> Bool { abs(a - b) <= tol }
    static func near(_ p: Point, _ q: Point, _ tol: Double) -> Bool { abs(p.x - q.x) <= tol && abs(p.y - q.y) <= tol }
    static func near(_ t: AffineTransform, _ u: AffineTransform, _ tol: Double) -> Bool {
        abs(t.a - u.a) <= tol && abs(t.b - u.b) <= tol && abs(t.c - u.c) <= tol && abs(t.d - u.d) <= tol
            && abs(t.tx - u.tx) <= tol && abs(t.ty - u.ty) <= tol
    }
}

/// A circle of radius R around the origin, counter-clockwise (y-up), as Bézier arcs.
enum BezierCircle: String, CaseIterable, CustomStringConvertible, Sendable {
    /// Four cubic quarter arcs with the classic k = 0.5522847498 (midpoints exactly on the circle).
    case cubic4
    /// Eight quadratic 45° arcs, control point on the bisector at R / cos(22.5°) (tangent at both ends).
    case quad8

    var description: String { rawValue }

    static let k = 0.5522847498

    /// The arcs as elements, starting with a move to (R, 0) and ending with a close.
    func elements(radius r: Double) -> [PathElement] {
        var out: [PathElement] = [.move(Point(r, 0))]
        switch self {
        case .cubic4:
            let k = Self.k * r
            out += [
                .cubic(control1: Point(r, k), control2: Point(k, r), to: Point(0, r)),
                .cubic(control1: Point(-k, r), control2: Point(-r, k), to: Point(-r, 0)),
                .cubic(control1: Point(-r, -k), control2: Point(-k, -r), to: Point(0, -r)),
                .cubic(control1: Point(k, -r), control2: Point(r, -k), to: Point(r, 0)),
            ]
        case .quad8:
            // Exact values of cos/sin at multiples of 22.5°, written out (no trigonometry under test).
            let c45 = 0.70710678118654752440, rc = r / 0.92387953251128675613 // R / cos 22.5°
            let ends: [(Double, Double)] = [(1, 0), (c45, c45), (0, 1), (-c45, c45), (-1, 0), (-c45, -c45), (0, -1), (c45, -c45), (1, 0)]
            let mids: [(Double, Double)] = [
                (0.92387953251128675613, 0.38268343236508977173), (0.38268343236508977173, 0.92387953251128675613),
                (-0.38268343236508977173, 0.92387953251128675613), (-0.92387953251128675613, 0.38268343236508977173),
                (-0.92387953251128675613, -0.38268343236508977173), (-0.38268343236508977173, -0.92387953251128675613),
                (0.38268343236508977173, -0.92387953251128675613), (0.92387953251128675613, -0.38268343236508977173),
            ]
            for i in 0..<8 {
                out.append(.quad(control: Point(rc * mids[i].0, rc * mids[i].1), to: Point(r * ends[i + 1].0, r * ends[i + 1].1)))
            }
        }
        out.append(.close)
        return out
    }

    /// Every arc as its control polygon: [p0, c, p1] (quadratic) or [p0, c1, c2, p1] (cubic).
    func arcs(radius r: Double) -> [[Point]] {
        var out: [[Point]] = []
        var cur = Point(r, 0)
        for e in elements(radius: r) {
            switch e {
            case .quad(let c, let p): out.append([cur, c, p]); cur = p
            case .cubic(let c1, let c2, let p): out.append([cur, c1, c2, p]); cur = p
            default: break
            }
        }
        return out
    }

    /// Dense samples of one arc (own evaluation).
    static func sample(_ arc: [Point], _ n: Int) -> [Point] {
        (0...n).map { i in
            let t = Double(i) / Double(n)
            return arc.count == 3 ? Oracle.quad(arc[0], arc[1], arc[2], t) : Oracle.cubic(arc[0], arc[1], arc[2], arc[3], t)
        }
    }

    /// Smallest and largest distance from the origin of the true Bézier curve, by dense sampling.
    func radialRange(radius r: Double) -> (min: Double, max: Double) {
        var lo = Double.infinity, hi = 0.0
        for arc in arcs(radius: r) {
            for p in Self.sample(arc, 4000) {
                let d = Oracle.hypot(p.x, p.y)
                lo = min(lo, d); hi = max(hi, d)
            }
        }
        return (lo, hi)
    }
}
