import InkGeometry
import InkHit

/// Baseline 1, and the oracle: every placement's stored polygon (`GlyphShape.storedEdges`) transformed to
/// view space in `Double`, answered by nonzero winding (ray casting, `Winding.crossing`) and point-to-segment
/// distance over *all* its edges, with only a per-placement bounding-box reject. Nothing of InkHit's grids is
/// used, so agreeing with it checks the index.
///
/// The rule is DESIGN.md's: the topmost (last placed) placement whose ink contains the point; otherwise the
/// placement with the nearest outline within `radius` (ties → topmost).
public final class BruteForce: @unchecked Sendable {
    /// View-space edges of all placements, 4 doubles each: x0, y0, x1, y1.
    let edges: UnsafeMutableBufferPointer<Double>
    /// Placement k owns edges `start[k] ..< start[k + 1]`.
    let start: [Int]
    /// View-space bounding boxes (empty for placements without ink).
    public let boxes: [Rect]
    public var count: Int { boxes.count }
    public var edgeCount: Int { start.last ?? 0 }
    public var byteCount: Int { edges.count * 8 + start.count * 8 + boxes.count * 32 }

    public init(shapes: [GlyphShape], transforms: [AffineTransform]) {
        var flat: [Double] = []
        var start = [0]
        var boxes: [Rect] = []
        for (s, t) in zip(shapes, transforms) {
            var box = Rect.empty
            for (a, b) in s.storedEdges {
                let p = t.apply(a), q = t.apply(b)
                flat += [p.x, p.y, q.x, q.y]
                box.add(p); box.add(q)
            }
            start.append(flat.count / 4)
            boxes.append(box)
        }
        edges = .allocate(capacity: max(flat.count, 1))
        _ = edges.initialize(from: flat)
        self.start = start
        self.boxes = boxes
    }

    public convenience init(_ w: Workload) { self.init(shapes: w.shapes, transforms: w.transforms) }

    deinit { edges.deallocate() }

    @inline(__always) func edge(_ e: Int) -> (Point, Point) {
        (Point(edges[4 * e], edges[4 * e + 1]), Point(edges[4 * e + 2], edges[4 * e + 3]))
    }

    /// Winding number of placement `k` at `p`.
    public func winding(_ k: Int, _ p: Point) -> Int {
        var w = 0
        for e in start[k]..<start[k + 1] {
            let (a, b) = edge(e)
            w += Winding.crossing(p, a, b)
        }
        return w
    }

    /// Distance (view px) from `p` to placement `k`'s outline (∞ without ink).
    public func distance(_ k: Int, _ p: Point) -> Double {
        var d2 = Double.infinity
        for e in start[k]..<start[k + 1] {
            let (a, b) = edge(e)
            d2 = min(d2, Segment.distanceSquared(p, a, b))
        }
        return d2.squareRoot()
    }

    /// The answer InkHit must give (`HitIndex.hit(at:radius:)`).
    public func hit(_ p: Point, radius: Double) -> Hit? {
        guard p.isFinite else { return nil }
        var k = boxes.count - 1
        while k >= 0 {
            if boxes[k].contains(p) && winding(k, p) != 0 {
                return Hit(placement: k, distance: -distance(k, p), isInside: true)
            }
            k -= 1
        }
        let r = radius > 0 ? radius : 0
        if r == 0 { return nil }
        var best = r, bestK = -1
        for k in boxes.indices where !boxes[k].isEmpty && boxes[k].distance(to: p) <= best {
            let d = distance(k, p)
            if d < best || (d == best && k > bestK) { best = d; bestK = k }
        }
        return bestK >= 0 ? Hit(placement: bestK, distance: best, isInside: false) : nil
    }

    /// Distance from `p` to the nearest outline of any placement whose box is within `limit` (how close `p`
    /// is to a decision boundary at radius 0), or `limit` when none is nearer.
    public func margin(_ p: Point, limit: Double) -> Double {
        var m = limit
        for k in boxes.indices where !boxes[k].isEmpty && boxes[k].distance(to: p) <= m {
            m = min(m, distance(k, p))
        }
        return m
    }
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
