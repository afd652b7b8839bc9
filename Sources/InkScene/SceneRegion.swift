#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import InkGeometry
import InkHit
import InkFreeType
import InkText

/// A node's own region, ready for queries: parts stacked bottom first — the enlarged hit box (exact: a
/// parallelogram once mapped to the root), a rounded rectangle (exact under a similarity), then indexed
/// layers (polygons, glyphs, attachments) in L-space (root px, the node's local origin at 0).
final class Region: @unchecked Sendable {
    /// What an index layer's placements are.
    enum Kind: Sendable {
        /// Parts of the node's shape: answers name no glyph.
        case shape
        /// Glyph ink: placement `k` is glyph `glyph[k]` of the run or layout.
        case glyphs([Int])
        /// Word hulls: placement `k` covers glyphs `words[k]`.
        case words([Range<Int>])
        /// A text leaf's attachments: placement `k` is attachment `k`.
        case attachments
        /// A text leaf's decorations (under its glyphs): placement `k` is decoration `k`.
        case decorations
    }
    struct Layer: Sendable {
        var index: HitIndex
        var kind: Kind
    }

    /// The enlarged hit box (or a `.box` node's whole region), local px. (The fields are set while the
    /// region is built, never after.)
    var box: Rect?
    /// A rounded rectangle in local px with its corner radius, measured exactly (only when the node's map to
    /// the root is a similarity; otherwise it is a polygon layer).
    var roundRect: (rect: Rect, radius: Double)?
    /// Bottom first.
    var layers: [Layer] = []
    /// The region's box, local px.
    var bounds: Rect = .empty

    /// Which part answered.
    enum Part: Sendable {
        case box, roundRect
        case layer(Int, placement: Int)
    }
    /// A region's answer: signed distance in root px (negative inside), and the part.
    struct Answer: Sendable {
        var isInside: Bool
        var distance: Double
        var part: Part
    }

    /// The answer at local point `p` (its L-space image `q`), when the point is inside or within `bound` root
    /// px of the region; nil otherwise. `bound` ≥ 0; 0 asks only whether the point is inside.
    @inline(__always)
    func answer(local p: Point, lspace q: Point, linear: AffineTransform, scale: Double, bound: Double) -> Answer? {
        var best: Answer? = nil
        var limit = bound
        // Topmost first: the first part holding the point wins.
        var k = layers.count
        while k > 0 {
            k -= 1
            guard let h = layers[k].index.hit(at: q, radius: limit) else { continue }
            if h.isInside { return Answer(isInside: true, distance: h.distance, part: .layer(k, placement: h.placement)) }
            if h.distance <= limit && (best == nil || h.distance < best!.distance) {
                best = Answer(isInside: false, distance: h.distance, part: .layer(k, placement: h.placement))
                limit = h.distance
            }
        }
        if let (r, rad) = roundRect {
            let d = Self.roundRectDistance(r, rad, p) * scale
            if d < 0 { return Answer(isInside: true, distance: d, part: .roundRect) }
            if d <= limit && (best == nil || d < best!.distance) { best = Answer(isInside: false, distance: d, part: .roundRect); limit = d }
        }
        if let b = box {
            let inside = p.x >= b.minX && p.x <= b.maxX && p.y >= b.minY && p.y <= b.maxY
            if inside || limit > 0 {
                let d = Self.boxDistance(b, linear, q)
                if inside { return Answer(isInside: true, distance: -d, part: .box) }
                if d <= limit && (best == nil || d < best!.distance) { best = Answer(isInside: false, distance: d, part: .box) }
            }
        }
        return best
    }

    /// Signed distance from `p` to the rounded rectangle, local px (negative inside).
    @inline(__always) static func roundRectDistance(_ r: Rect, _ radius: Double, _ p: Point) -> Double {
        let hw = (r.maxX - r.minX) / 2, hh = (r.maxY - r.minY) / 2
        let qx = abs(p.x - (r.minX + hw)) - (hw - radius), qy = abs(p.y - (r.minY + hh)) - (hh - radius)
        let ox = max(qx, 0), oy = max(qy, 0)
        return (ox * ox + oy * oy).squareRoot() + min(max(qx, qy), 0) - radius
    }

    /// Unsigned distance, root px, from L-space point `q` to the edges of `r` mapped by `linear` (a
    /// parallelogram): the depth when the point is inside, the distance when outside.
    @inline(__always) static func boxDistance(_ r: Rect, _ t: AffineTransform, _ q: Point) -> Double {
        let p0 = Point(r.minX, r.minY).applying(t), p1 = Point(r.maxX, r.minY).applying(t)
        let p2 = Point(r.maxX, r.maxY).applying(t), p3 = Point(r.minX, r.maxY).applying(t)
        @inline(__always) func seg(_ a: Point, _ b: Point) -> Double {
            let dx = b.x - a.x, dy = b.y - a.y, px = q.x - a.x, py = q.y - a.y
            let len2 = dx * dx + dy * dy
            let s = len2 > 0 ? min(max((px * dx + py * dy) / len2, 0), 1) : 0
            let ex = px - s * dx, ey = py - s * dy
            return ex * ex + ey * ey
        }
        return min(min(seg(p0, p1), seg(p1, p2)), min(seg(p2, p3), seg(p3, p0))).squareRoot()
    }
}

extension Region {
    /// Builds the region of `node` (a target) whose local → root linear map is `linear`, its indexed parts
    /// flattened within `tolerance` root px (`RegionBuilder`).
    static func build(_ node: Node, linear: AffineTransform, tolerance: Double, budget: RegionBudget) throws(SceneError) -> Region {
        var b = try RegionBuilder(node, linear: linear, tolerance: tolerance, budget: budget)
        return try b.build()
    }
}

/// Region shapes in local px, flattened on the true curves (polygons inscribed in arcs), so a region is
/// within the tolerance of the shape it names.
enum Regions {
    /// Segments for an arc of `angle` radians on a circle of radius `radius` view px, so the chords stay
    /// within `tol` of it (sagitta r(1 − cos(θ/2)) ≤ tol), and the bound they achieve.
    /// At most 100,000 (a radius so large that it needs more is refused by its estimate before it is built).
    /// The chord angle is 4 asin(√(tol / 2r)) (1 − cos(θ/2) = 2 sin²(θ/4)), exact also where 1 − tol / r
    /// rounds to 1 (radii of 1e15 px: the fuzzers' scenes).
    static func segments(radius: Double, angle: Double, tol: Double) -> (Int, Double) {
        RoundRect.arcSegments(radius: radius, angle: angle, tolerance: tol)
    }

    static func ellipse(in r: Rect, viewTolerance: Double, maxScale: Double, limits: ShapeLimits = .default) throws(ShapeError) -> GlyphShape {
        let cx = (r.minX + r.maxX) / 2, cy = (r.minY + r.maxY) / 2, rx = r.width / 2, ry = r.height / 2
        let (n, achieved) = segments(radius: max(rx, ry) * maxScale, angle: 2 * .pi, tol: viewTolerance)
        let count = max(n, 8)
        var ring: [Point] = []
        ring.reserveCapacity(count)
        for k in 0..<count {
            let a = 2 * Double.pi * Double(k) / Double(count)
            ring.append(Point(cx + rx * cos(a), cy + ry * sin(a)))
        }
        return try GlyphShape(polygon: Polygon(contours: [ring]), tolerance: achieved / maxScale, limits: limits,
                              fastDistance: fastDistance(r, maxScale))
    }

    /// View px around a region's box within which distances are answered from precomputed lists, at most:
    /// as glyph shapes have (`ShapeCache.fastDistancePx`); farther ones are exact too, only slower.
    static let fastDistancePx = 4.0

    /// The distance margin of a region in `r` (local px): `fastDistancePx` view px, but no more than 30 % of
    /// the box (the shape's default), so neither a huge region nor a tiny one gets a grid of mostly margin.
    static func fastDistance(_ r: Rect, _ maxScale: Double) -> Double {
        min(fastDistancePx / maxScale, 0.3 * max(r.width, r.height))
    }

    /// A `.roundRect` region: `RoundRect.shape`, with a region's distance margin.
    static func roundRect(_ r: Rect, radius rad: Double, viewTolerance: Double, maxScale: Double,
                          limits: ShapeLimits = .default) throws(ShapeError) -> GlyphShape {
        try RoundRect.shape(r, radius: rad, viewTolerance: viewTolerance, maxScale: maxScale, limits: limits,
                              fastDistance: fastDistance(r, maxScale))
    }
}
