import InkGeometry
import InkHit

/// The oracle, and benchmark baseline 1: every placement's stored polygon (`GlyphShape.storedEdges`)
/// transformed to view space in `Double`, answered by winding (ray casting, `Winding.crossing`) under the
/// shape's fill rule and point-to-segment distance over *all* its edges, with only a per-placement
/// bounding-box reject. Nothing of InkHit's grids is used, so agreeing with it checks the index.
///
/// The rule is the index's (see `HitIndex`): the topmost (last placed) placement whose ink contains the
/// point; otherwise the placement with the nearest outline within `radius` (a distance equal to the radius
/// counts), where distances within `1e-6 × (d* + max(e_p, e_k*))` of the least, `d*`, tie and go to the
/// topmost (`e`: the longer side of a placement's view box, the shape's box mapped by its transform).
public final class BruteForce: @unchecked Sendable {
    /// View-space edges of all placements, 4 doubles each: x0, y0, x1, y1.
    let edges: [Double]
    /// Placement k owns edges `start[k] ..< start[k + 1]`.
    let start: [Int]
    /// View-space bounding boxes of the edges (empty for placements without ink).
    public let boxes: [Rect]
    /// The `e` of the tie rule per placement.
    public let extents: [Double]
    let rules: [FillRule]
    public var count: Int { boxes.count }
    public var edgeCount: Int { start.last ?? 0 }
    public var byteCount: Int { edges.count * 8 + start.count * 8 + boxes.count * 40 }

    public init(shapes: [GlyphShape], transforms: [AffineTransform]) {
        var flat: [Double] = []
        var start = [0]
        var boxes: [Rect] = [], extents: [Double] = []
        for (s, t) in zip(shapes, transforms) {
            var box = Rect.empty
            for e in s.storedEdges {
                let p = e.start.applying(t), q = e.end.applying(t)
                flat += [p.x, p.y, q.x, q.y]
                box.expand(toInclude: p); box.expand(toInclude: q)
            }
            start.append(flat.count / 4)
            boxes.append(box)
            let vb = s.bounds.applying(t)
            extents.append(max(vb.width, vb.height))
        }
        self.edges = flat
        self.start = start
        self.boxes = boxes
        self.extents = extents
        self.rules = shapes.map(\.fillRule)
    }

    /// The oracle of placements given as (shape, transform) pairs.
    public convenience init(_ items: [(GlyphShape, AffineTransform)]) {
        self.init(shapes: items.map(\.0), transforms: items.map(\.1))
    }

    /// Placement `k`'s edges in view px.
    public func edges(of k: Int) -> [Segment] {
        (start[k]..<start[k + 1]).map { let (a, b) = edge($0); return Segment(a, b) }
    }

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

    /// Whether `p` is on placement `k`'s ink (its fill rule on the winding number).
    public func inside(_ k: Int, _ p: Point) -> Bool {
        boxes[k].contains(p) && rules[k].isInside(winding: winding(k, p))
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

    /// The answer `HitIndex.hit(at:radius:)` must give.
    public func hit(_ p: Point, radius: Double) -> Hit? {
        guard p.isFinite else { return nil }
        var k = boxes.count - 1
        while k >= 0 {
            if inside(k, p) { return Hit(placement: k, distance: -distance(k, p), isInside: true) }
            k -= 1
        }
        let r = radius > 0 ? radius : 0
        if r == 0 { return nil }
        var dist = [Double](repeating: .infinity, count: boxes.count)
        var best = Double.infinity, bestK = -1
        for k in boxes.indices where !boxes[k].isEmpty && boxes[k].distance(to: p) <= r {
            dist[k] = distance(k, p)
            if dist[k] <= r && (dist[k] < best || (dist[k] == best && k > bestK)) { best = dist[k]; bestK = k }
        }
        guard bestK >= 0 else { return nil }
        var winner = bestK
        for k in boxes.indices where k > winner && dist[k] <= r
                && dist[k] - best <= 1e-6 * (best + max(extents[k], extents[bestK])) {
            winner = k
        }
        return Hit(placement: winner, distance: dist[winner], isInside: false)
    }

    /// Distance from `p` to the nearest outline of any placement whose box is within `limit` (how close `p`
    /// is to a decision boundary at radius 0), or `limit` when none is nearer.
    public func margin(_ p: Point, limit: Double = .infinity) -> Double {
        var m = limit
        for k in boxes.indices where !boxes[k].isEmpty && boxes[k].distance(to: p) <= m {
            m = min(m, distance(k, p))
        }
        return m
    }
}
