import InkGeometry
import InkTestSupport

// Oracles for the geometry tests, written independently of the code under test: plain formulas,
// no InkGeometry algorithm is used to compute an expected value.

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

    static func near(_ a: Double, _ b: Double, _ tol: Double) -> Bool { isClose(a, b, within: tol) }
    static func near(_ p: Point, _ q: Point, _ tol: Double) -> Bool { isClose(p, q, within: tol) }
    static func near(_ t: AffineTransform, _ u: AffineTransform, _ tol: Double) -> Bool {
        isClose(t.a, u.a, within: tol) && isClose(t.b, u.b, within: tol) && isClose(t.c, u.c, within: tol) && isClose(t.d, u.d, within: tol)
            && isClose(t.tx, u.tx, within: tol) && isClose(t.ty, u.ty, within: tol)
    }
}
