import InkGeometry

/// Distances to Bézier curves for oracles, independent of InkGeometry's flattening: curves evaluated by de
/// Casteljau's construction, the nearest parameter bracketed by dense sampling and then refined by a
/// golden-section search, to ~1e-12 of the curve's size.
public enum BezierDistance {
    /// Point at `t` of the Bézier with control points `cps` (2, 3 or 4 of them), by de Casteljau.
    public static func evaluate(_ cps: [Point], _ t: Double) -> Point {
        var q = cps
        while q.count > 1 {
            for i in 0..<(q.count - 1) { q[i] = Point(q[i].x + (q[i + 1].x - q[i].x) * t, q[i].y + (q[i + 1].y - q[i].y) * t) }
            q.removeLast()
        }
        return q[0]
    }

    /// Distance from `p` to the curve with control points `cps` (a quadratic or a cubic).
    public static func distance(from p: Point, to cps: [Point]) -> Double {
        func d(_ t: Double) -> Double { let q = evaluate(cps, t); return ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot() }
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
