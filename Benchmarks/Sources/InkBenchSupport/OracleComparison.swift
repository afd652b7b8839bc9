import InkGeometry
import InkHit

// The brute-force oracle itself (`BruteForce`) is the library's test support, Tests/InkTestSupport/BruteForce.swift,
// compiled into this module through the symlink BruteForce.swift; what follows is benchmark-specific.

extension BruteForce {
    /// The oracle of a workload's placements (every placement's shape and font units → view transform).
    public convenience init(_ w: Workload) { self.init(shapes: w.shapes, transforms: w.transforms) }
}

/// How two answers differ.
public enum AnswerCheck {
    /// Distances must agree within this, view px (InkHit stores a Float32 inverse per placement and answers
    /// in shape units; the oracle answers in view space).
    public static func distanceTolerance(_ d: Double) -> Double { 1e-5 + 1e-6 * abs(d) }

    /// True when `a` and `b` are the same answer (same placement, same inside flag, distances within
    /// `distanceTolerance`).
    public static func same(_ a: Hit?, _ b: Hit?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (x?, y?):
            return x.placement == y.placement && x.isInside == y.isInside
                && abs(x.distance - y.distance) <= distanceTolerance(y.distance)
        default: return false
        }
    }
}

/// The result of comparing InkHit with the brute-force oracle over a set of points.
public struct OracleComparison: Sendable, CustomStringConvertible {
    public var points = 0
    public var radius = 0.0
    /// Points where the answers differ although the point is farther than `borderline` px from every
    /// decision boundary: real errors.
    public var wrong = 0
    /// Points where the answers differ within `borderline` px of a boundary (rounding of Float32 storage).
    public var borderline = 0
    /// The first few real errors, for a reproducer.
    public var examples: [(point: Point, ink: Hit?, oracle: Hit?)] = []
    public static let borderlinePx = 1e-4

    public init() {}

    public var description: String {
        var s = "\(points) points at r = \(radius): \(wrong) wrong, \(borderline) within \(OracleComparison.borderlinePx) px of a boundary"
        for e in examples.prefix(5) {
            s += "\n  point (\(e.point.x), \(e.point.y)): InkHit \(describe(e.ink)), brute force \(describe(e.oracle))"
        }
        return s
    }

    func describe(_ h: Hit?) -> String {
        guard let h else { return "miss" }
        return "placement \(h.placement) \(h.isInside ? "inside" : "outside") distance \(h.distance)"
    }

    /// Compares `index.hit(at:radius:)` with `oracle.hit(_:radius:)` on `points`.
    public static func compare(index: HitIndex, oracle: BruteForce, points: UnsafeBufferPointer<Point>,
                               radius: Double) -> OracleComparison {
        var c = OracleComparison()
        c.points = points.count
        c.radius = radius
        for p in points {
            let a = index.hit(at: p, radius: radius)
            let b = oracle.hit(p, radius: radius)
            if AnswerCheck.same(a, b) { continue }
            // Near a boundary? (an outline, or the radius circle around the nearest outline)
            let m = oracle.margin(p, limit: radius + 1)
            let nearOutline = m <= borderlinePx
            let nearRadius = radius > 0 && abs(m - radius) <= borderlinePx
            // Ties between two placements at (almost) equal distance.
            var nearTie = false
            if let x = a, let y = b, x.isInside == y.isInside, !x.isInside, abs(x.distance - y.distance) <= borderlinePx {
                nearTie = true
            }
            if nearOutline || nearRadius || nearTie { c.borderline += 1 } else {
                c.wrong += 1
                if c.examples.count < 20 { c.examples.append((p, a, b)) }
            }
        }
        return c
    }
}
