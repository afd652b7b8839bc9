import InkGeometry

/// Distances to Bézier curves for oracles, independent of InkGeometry's flattening: curves evaluated by de
/// Casteljau's construction, the nearest parameter bracketed by dense sampling and then refined by a
/// golden-section search, to ~1e-12 of the curve's size.
public enum BezierDistance {
    /// Point at `t` of the Bézier with control points `cps` (2, 3 or 4 of them), by de Casteljau.
    public static func evaluate(_ cps: [Point], _ t: Double) -> Point {
        switch cps.count {
        case 3: return evaluate(cps[0], cps[1], cps[2], t)
        case 4: return evaluate(cps[0], cps[1], cps[2], cps[3], t)
        default:
            var q = cps
            while q.count > 1 {
                for i in 0..<(q.count - 1) { q[i] = lerp(q[i], q[i + 1], t) }
                q.removeLast()
            }
            return q[0]
        }
    }

    /// de Casteljau's construction for a quadratic, written out (no array: the oracle runs thousands of
    /// times per test, in debug builds).
    static func evaluate(_ a: Point, _ b: Point, _ c: Point, _ t: Double) -> Point {
        lerp(lerp(a, b, t), lerp(b, c, t), t)
    }

    /// de Casteljau's construction for a cubic, written out.
    static func evaluate(_ a: Point, _ b: Point, _ c: Point, _ d: Point, _ t: Double) -> Point {
        let ab = lerp(a, b, t), bc = lerp(b, c, t), cd = lerp(c, d, t)
        return lerp(lerp(ab, bc, t), lerp(bc, cd, t), t)
    }

    static func lerp(_ p: Point, _ q: Point, _ t: Double) -> Point { Point(p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t) }

    /// A lower bound of the distance from `p` to the curve: the distance to its control points' box, which
    /// holds the curve (convex hull property).
    public static func boxDistance(from p: Point, to cps: [Point]) -> Double {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for c in cps { x0 = min(x0, c.x); y0 = min(y0, c.y); x1 = max(x1, c.x); y1 = max(y1, c.y) }
        let dx = max(x0 - p.x, 0, p.x - x1), dy = max(y0 - p.y, 0, p.y - y1)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Distance from `p` to the curve with control points `cps` (a quadratic or a cubic).
    public static func distance(from p: Point, to cps: [Point]) -> Double {
        let count = cps.count
        let p0 = cps[0], p3 = cps[count - 1], p1 = count > 2 ? cps[1] : p0, p2 = count > 3 ? cps[2] : p1
        func d(_ t: Double) -> Double {
            let q = count == 4 ? evaluate(p0, p1, p2, p3, t) : count == 3 ? evaluate(p0, p1, p3, t) : evaluate(cps, t)
            return ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
        }
        let n = 512
        var bestK = 0, best = Double.infinity
        for k in 0...n {
            let v = d(Double(k) / Double(n))
            if v < best { best = v; bestK = k }
        }
        // Golden-section search in the bracket around the best sample (the distance is unimodal there for
        // the smooth, gently curved arcs the tests use).
        var lo = Double(max(0, bestK - 1)) / Double(n), hi = Double(min(n, bestK + 1)) / Double(n)
        let g = (5.0.squareRoot() - 1) / 2
        var a = hi - g * (hi - lo), b = lo + g * (hi - lo)
        var fa = d(a), fb = d(b)
        for _ in 0..<80 {
            if fa < fb { hi = b; b = a; fb = fa; a = hi - g * (hi - lo); fa = d(a) }
            else { lo = a; a = b; fa = fb; b = lo + g * (hi - lo); fb = d(b) }
        }
        return min(best, fa, fb, d(0), d(1))
    }
}
