import InkGeometry
@testable import InkHit

/// Brute-force oracle: every edge of every placement, transformed to view space in Double, winding by
/// ray casting and distance by point-to-segment — nothing of the index is used but the stored edges.
struct BruteForce {
    var placements: [[(Point, Point)]] = []   // view-space edges per placement

    init(_ items: [(GlyphShape, AffineTransform)]) {
        for (s, t) in items { placements.append(s.storedEdges.map { (t.apply($0.0), t.apply($0.1)) }) }
    }

    func inside(_ k: Int, _ p: Point) -> Bool {
        var w = 0
        for (a, b) in placements[k] { w += Winding.crossing(p, a, b) }
        return w != 0
    }
    func distance(_ k: Int, _ p: Point) -> Double {
        var d = Double.infinity
        for (a, b) in placements[k] { d = min(d, Segment.distance(p, a, b)) }
        return d
    }
    /// The DESIGN.md rule.
    func hit(_ p: Point, radius r: Double) -> Hit? {
        for k in placements.indices.reversed() where inside(k, p) {
            return Hit(placement: k, distance: -distance(k, p), isInside: true)
        }
        var best = r, bestK = -1
        for k in placements.indices {
            let d = distance(k, p)
            if d < best || (d == best && bestK >= 0) { best = d; bestK = k }
        }
        return bestK >= 0 && best <= r ? Hit(placement: bestK, distance: best, isInside: false) : nil
    }
    /// Smallest distance from p to any edge of any placement (how close to a decision boundary it is, roughly).
    func margin(_ p: Point) -> Double {
        var d = Double.infinity
        for k in placements.indices { d = min(d, distance(k, p)) }
        return d
    }
}

/// Deterministic random numbers (SplitMix64) so failures reproduce.
struct Rng {
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
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

enum Shapes {
    /// Square [x0, x1]² with an optional square hole; `holeReversed` chooses the hole's direction.
    static func squareWithHole(outer: Double, hole: Double, holeReversed: Bool) -> Polygon {
        let o = [Point(0, 0), Point(outer, 0), Point(outer, outer), Point(0, outer)]
        let m = (outer - hole) / 2
        var h = [Point(m, m), Point(m + hole, m), Point(m + hole, m + hole), Point(m, m + hole)]
        if holeReversed { h.reverse() }
        return Polygon(contours: [o, h])
    }

    /// A random star-ish polygon (self-intersections allowed) plus a second overlapping contour.
    static func randomBlob(_ rng: inout Rng, size: Double) -> Polygon {
        var contours: [[Point]] = []
        for _ in 0..<(1 + rng.int(3)) {
            let n = 3 + rng.int(14)
            let cx = rng.range(0.2, 0.8) * size, cy = rng.range(0.2, 0.8) * size
            var c: [Point] = []
            for i in 0..<n {
                let ang = Double(i) / Double(n) * 6.283185307179586 + rng.range(-0.2, 0.2)
                let rad = rng.range(0.1, 0.5) * size
                let (s, co) = sinCos(ang)
                c.append(Point(cx + rad * co, cy + rad * s))
            }
            if rng.int(2) == 0 { c.reverse() }
            contours.append(c)
        }
        return Polygon(contours: contours)
    }
}

/// Random transforms: rotation, non-uniform scale, shear, y-flip, translation.
func randomTransform(_ rng: inout Rng, kind: Int) -> AffineTransform {
    let rot = AffineTransform.rotation(rng.range(0, 6.3))
    let s = rng.range(0.005, 0.05)
    switch kind {
    case 0: return AffineTransform.scale(s, -s).concatenating(.translation(rng.range(0, 200), rng.range(0, 200)))
    case 1: return AffineTransform.scale(s, s).concatenating(rot).concatenating(.translation(rng.range(0, 200), rng.range(0, 200)))
    case 2: return AffineTransform.scale(s, s * rng.range(0.3, 3)).concatenating(rot).concatenating(.translation(rng.range(0, 200), rng.range(0, 200)))
    default:
        return AffineTransform.scale(s, -s).concatenating(.shear(rng.range(-0.8, 0.8), rng.range(-0.5, 0.5)))
            .concatenating(rot).concatenating(.translation(rng.range(0, 200), rng.range(0, 200)))
    }
}
