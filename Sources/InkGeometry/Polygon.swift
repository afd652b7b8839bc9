/// A fill rule: which winding numbers count as inside.
public enum FillRule: Sendable, Hashable, CaseIterable {
    /// Inside where the winding number is not zero (TrueType and CFF glyphs).
    case nonZero
    /// Inside where the winding number is odd.
    case evenOdd

    /// Whether a point with winding number `w` is inside.
    @inlinable public func isInside(winding w: Int) -> Bool {
        switch self {
        case .nonZero: return w != 0
        case .evenOdd: return w & 1 != 0
        }
    }
}

/// A set of closed polygonal contours (each implicitly closed from its last point to its first), in the
/// units of the space it was built in. Built from any outline stream through `PolygonSink`.
public struct Polygon: Hashable, Sendable {
    /// The contours, each a list of vertices (closed implicitly from the last vertex to the first).
    public var contours: [[Point]]
    /// A polygon from its contours.
    public init(contours: [[Point]] = []) { self.contours = contours }

    /// Every edge, closing edges included; zero-length edges are skipped.
    public var edges: [Segment] {
        var out: [Segment] = []
        for c in contours where c.count >= 2 {
            for i in 0..<c.count {
                let a = c[i], b = c[(i + 1) % c.count]
                if a != b { out.append(Segment(a, b)) }
            }
        }
        return out
    }

    /// The bounds of all vertices (`Rect.empty` for a polygon without vertices).
    public var bounds: Rect {
        var r = Rect.empty
        for c in contours { for p in c { r.expand(toInclude: p) } }
        return r
    }

    /// Winding number of `p` (see `Winding.number`).
    public func winding(at p: Point) -> Int {
        var w = 0
        for c in contours where c.count >= 2 {
            for i in 0..<c.count { w += Winding.crossing(p, c[i], c[(i + 1) % c.count]) }
        }
        return w
    }

    /// Whether `p` is inside by `rule` (a point exactly on an edge counts as the half-open crossing rule of
    /// `Winding.crossing` decides).
    public func contains(_ p: Point, rule: FillRule = .nonZero) -> Bool { rule.isInside(winding: winding(at: p)) }

    /// Unsigned distance from `p` to the nearest edge (∞ for an empty polygon).
    public func distance(to p: Point) -> Double {
        var best = Double.infinity
        for c in contours where c.count >= 1 {
            if c.count == 1 { best = min(best, p.distance(to: c[0])); continue }
            for i in 0..<c.count {
                best = min(best, Segment.distanceSquared(p, c[i], c[(i + 1) % c.count]).squareRoot())
            }
        }
        return best
    }

    /// Signed distance to the outline: negative inside (by `rule`), positive outside.
    public func signedDistance(to p: Point, rule: FillRule = .nonZero) -> Double {
        let d = distance(to: p)
        return contains(p, rule: rule) ? -d : d
    }
}

/// Collects a (flattened) outline into a `Polygon`. Curves are replaced by their chord — wrap it in a
/// `FlatteningSink` to keep a tolerance bound.
public struct PolygonSink: OutlineSink, Sendable {
    /// The contours ended so far (see `result` for all of them).
    public private(set) var polygon = Polygon()
    private var current: [Point] = []
    /// An empty collector.
    public init() {}
    public mutating func move(to p: Point) { flush(); current = [p] }
    public mutating func addLine(to p: Point) { current.append(p) }
    public mutating func addQuadCurve(to p: Point, control c: Point) { current.append(p) }
    public mutating func addCurve(to p: Point, control1 c1: Point, control2 c2: Point) { current.append(p) }
    public mutating func closeSubpath() { flush() }
    /// Ends the last contour; reading `result` does this for you.
    public mutating func flush() {
        if current.count >= 2, current.first == current.last { current.removeLast() }
        if !current.isEmpty { polygon.contours.append(current) }
        current = []
    }
    /// Every contour, the last one included.
    public var result: Polygon { var s = self; s.flush(); return s.polygon }
}

/// Winding primitives (half-open crossing rule: a vertex exactly on the ray's height counts as above).
public enum Winding {
    /// Signed contribution of edge `a → b` to the winding number of `p` along the ray from `p` to +x:
    /// +1 for an upward edge crossing strictly right of `p`, −1 for a downward one, 0 otherwise.
    /// Summed over the edges of closed contours it is the winding number (y-up: counter-clockwise > 0).
    @inlinable public static func crossing(_ p: Point, _ a: Point, _ b: Point) -> Int {
        if a.y <= p.y {
            if b.y > p.y && (b - a).cross(p - a) > 0 { return 1 }
        } else if b.y <= p.y {
            if (b - a).cross(p - a) < 0 { return -1 }
        }
        return 0
    }

    /// Winding number of `p` with respect to closed edge soup `edges`.
    public static func number(_ p: Point, edges: [Segment]) -> Int {
        var w = 0
        for e in edges { w += crossing(p, e.start, e.end) }
        return w
    }
}

/// A closed line segment from `start` to `end`, in the units of the space it lies in; its static functions
/// are the segment primitives (distances, rect intersection) on bare points.
public struct Segment: Hashable, Sendable {
    /// Where the segment starts.
    public var start: Point
    /// Where the segment ends.
    public var end: Point
    /// A segment from `start` to `end`.
    @inlinable public init(_ start: Point, _ end: Point) { self.start = start; self.end = end }

    /// Distance from `p` to the segment.
    @inlinable public func distance(to p: Point) -> Double { Segment.distance(p, start, end) }

    /// The segment mapped by `t` (an affine map keeps segments straight).
    @inlinable public func applying(_ t: AffineTransform) -> Segment { Segment(start.applying(t), end.applying(t)) }

    /// Squared distance from `p` to the closed segment `a b` (a point segment when a == b).
    @inlinable public static func distanceSquared(_ p: Point, _ a: Point, _ b: Point) -> Double {
        let ab = b - a, ap = p - a
        let len2 = ab.dot(ab)
        var t = len2 > 0 ? ap.dot(ab) / len2 : 0
        t = t < 0 ? 0 : (t > 1 ? 1 : t)
        let dx = ap.x - ab.x * t, dy = ap.y - ab.y * t
        return dx * dx + dy * dy
    }

    /// Distance from `p` to the closed segment `a b`.
    @inlinable public static func distance(_ p: Point, _ a: Point, _ b: Point) -> Double {
        distanceSquared(p, a, b).squareRoot()
    }

    /// Whether closed segment `a b` meets the closed rect `r` (exact up to rounding; used to bin edges).
    public static func intersects(_ a: Point, _ b: Point, _ r: Rect) -> Bool {
        // Liang–Barsky clipping of the parametric segment against the rect.
        var t0 = 0.0, t1 = 1.0
        let dx = b.x - a.x, dy = b.y - a.y
        func clip(_ p: Double, _ q: Double) -> Bool {
            if p == 0 { return q >= 0 }
            let t = q / p
            if p < 0 { if t > t1 { return false }; if t > t0 { t0 = t } }
            else { if t < t0 { return false }; if t < t1 { t1 = t } }
            return true
        }
        return clip(-dx, a.x - r.minX) && clip(dx, r.maxX - a.x) && clip(-dy, a.y - r.minY) && clip(dy, r.maxY - a.y)
    }
}
