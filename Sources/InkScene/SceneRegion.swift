#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import InkGeometry
@_spi(InkInternals) import InkHit
@_spi(InkInternals) import InkFreeType
@_spi(InkInternals) import InkText

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
    /// flattened within `tolerance` root px.
    ///
    /// Every shape is bounded before it is built (`budget.reserve`, from its edge count) and counted once it
    /// is (`budget.charge`); the build deadline is checked between glyphs and words.
    static func build(_ node: Node, linear: AffineTransform, tolerance: Double, budget: RegionBudget) throws(SceneError) -> Region {
        let region = Region()
        let hitBox = node.hitBox
        let bounds = node.bounds
        let scale = linear == .identity ? 1 : linear.maxScale
        let enlarges = !hitBox.isEmpty && (bounds.isEmpty || !(hitBox.minX >= bounds.minX && hitBox.minY >= bounds.minY
                                                               && hitBox.maxX <= bounds.maxX && hitBox.maxY <= bounds.maxY))
        if case .box = node.shape {
            if !hitBox.isEmpty { region.box = hitBox; region.bounds = hitBox }
            return region
        }
        if enlarges { region.box = hitBox; region.bounds = hitBox }

        var builder: HitIndex.Builder
        do { builder = try HitIndex.Builder(tolerance: tolerance) } catch { throw .placement(id: node.id, error) }
        func built(_ make: () throws(ShapeError) -> GlyphShape) throws(SceneError) -> GlyphShape {
            do { return try make() } catch { throw .shape(id: node.id, error) }
        }
        func add(_ shape: GlyphShape, _ t: AffineTransform) throws(SceneError) {
            try budget.charge(shape, node.id)
            do { try builder.add(shape, transform: t) } catch { throw .placement(id: node.id, error) }
        }
        func finish(_ kind: Kind) {
            guard builder.count > 0 else { return }
            let index = builder.build()
            region.bounds = region.bounds.union(index.bounds.applying(linear.inverted() ?? .identity))
            region.layers.append(Layer(index: index, kind: kind))
            builder = (try? HitIndex.Builder(tolerance: tolerance)) ?? HitIndex.Builder()
        }

        // Convex regions and masks of no area have nothing to hit (as a box of no area), whatever their map.
        let hasArea = bounds.width > 0 && bounds.height > 0
        switch node.shape {
        case .box:
            break
        case .roundRect(let r):
            guard hasArea else { break }
            let rad = min(r, bounds.width / 2, bounds.height / 2)
            if linear == .identity || linear.isSimilarity {
                region.roundRect = (bounds, rad)
                region.bounds = region.bounds.union(bounds)
            } else {
                let n = Regions.roundRectEdges(radius: rad, viewTolerance: tolerance, maxScale: scale)
                try budget.reserve(Regions.estimatedBytes(edges: n, convex: true), node.id)
                try add(try built { () throws(ShapeError) in
                    try Regions.roundRect(bounds, radius: rad, viewTolerance: tolerance, maxScale: scale, limits: budget.shapeLimits)
                }, linear)
                finish(.shape)
            }
        case .ellipse:
            guard hasArea else { break }
            let n = Regions.ellipseEdges(in: bounds, viewTolerance: tolerance, maxScale: scale)
            try budget.reserve(Regions.estimatedBytes(edges: n, convex: true), node.id)
            try add(try built { () throws(ShapeError) in
                try Regions.ellipse(in: bounds, viewTolerance: tolerance, maxScale: scale, limits: budget.shapeLimits)
            }, linear)
            finish(.shape)
        case .path(let elements, let rule):
            let edges: Int
            do throws(ShapeError) { edges = try Regions.pathEdges(elements, tolerance: tolerance / scale).get() } catch {
                throw .shape(id: node.id, error)
            }
            guard edges <= ShapeLimits.default.maxEdges else { throw .shape(id: node.id, .tooManyEdges(limit: ShapeLimits.default.maxEdges)) }
            try budget.reserve(Regions.estimatedBytes(edges: edges, convex: false), node.id)
            try add(try built { () throws(ShapeError) in
                try GlyphShape(viewTolerance: tolerance, maxScale: scale, fillRule: rule, limits: budget.shapeLimits) { sink in
                    elements.replay(into: &sink)
                }
            }, linear)
            finish(.shape)
        case .mask(let mask):
            guard hasArea else { break }
            if let index = mask.storage.placedIndex(bounds, linear, tolerance) {
                region.bounds = region.bounds.union(bounds)
                region.layers.append(Layer(index: index, kind: .shape))
                break
            }
            let shape: GlyphShape?
            do throws(ShapeError) { shape = try mask.pixelShape(limits: budget.shapeLimits) } catch { throw .shape(id: node.id, error) }
            guard let shape else { break }
            let toLocal = AffineTransform(a: bounds.width / Double(mask.width), b: 0, c: 0, d: bounds.height / Double(mask.height),
                                          tx: bounds.minX, ty: bounds.minY)
            try add(shape, toLocal.concatenating(linear))
            finish(.shape)
            if let index = region.layers.last?.index { mask.storage.keep(index, bounds, linear, tolerance) }
        case .glyphs(let run, let holes):
            try glyphs(run, lines: [Int](repeating: 0, count: run.count), holes)
        case .text(let layout, let holes):
            let own = layout.sceneIndexes
            if holes == .ink && linear == .identity && own.ink.tolerance <= tolerance * (1 + 1e-9)
                && own.attachments.tolerance <= tolerance * (1 + 1e-9) {
                // The layout's own indexes are already in this space.
                if own.ink.count > 0 {
                    region.layers.append(Layer(index: own.ink, kind: .glyphs(own.glyph)))
                    region.bounds = region.bounds.union(own.ink.bounds)
                }
                if own.attachments.count > 0 {
                    region.layers.append(Layer(index: own.attachments, kind: .attachments))
                    region.bounds = region.bounds.union(own.attachments.bounds)
                }
            } else {
                try glyphs(layout.glyphs.indices.map { layout.placement(of: $0) }, lines: layout.glyphs.map(\.line), holes)
                let toL = layout.transform.concatenating(linear)
                for k in layout.attachments.indices {
                    let shape: GlyphShape
                    do { shape = try layout.attachmentShape(k, maxScale: toL.maxScale, viewTolerance: tolerance) } catch {
                        throw .invalidNode(id: node.id, reason: "attachment \(k): \(error)")
                    }
                    try add(shape, toL)
                }
                finish(.attachments)
            }
        }
        return region

        /// Glyphs placed in local px (each placement's transform: layout → local), by the hole policy.
        func glyphs(_ local: [GlyphPlacement], lines: [Int], _ holes: HolePolicy) throws(SceneError) {
            func inL(_ p: GlyphPlacement) -> GlyphPlacement {
                GlyphPlacement(font: p.font, glyph: p.glyph, size: p.size, origin: p.origin, transform: p.transform.concatenating(linear),
                               style: p.style)
            }
            var map: [Int] = []
            switch holes {
            case .ink, .filledCounters:
                for (gi, p) in local.enumerated() {
                    if gi & 63 == 63 { try RegionBudget.checkDeadline(node.id) }
                    let made: (GlyphShape, AffineTransform)
                    do throws(FontError) {
                        if holes == .ink {
                            let (shape, t, _) = try inL(p).shape(cache: .shared, viewTolerance: tolerance)
                            made = (shape, t)
                        } else {
                            made = try FilledGlyphs.shape(inL(p), viewTolerance: tolerance)
                        }
                    } catch .noOutline {
                        continue                                  // glyphs with no ink source have nothing to hit
                    } catch .shape(_, _, .timeLimit) {
                        throw .timeLimit(id: node.id)
                    } catch {
                        throw .glyph(id: node.id, glyph: gi, error)
                    }
                    let (shape, t) = made
                    if shape.bounds.isEmpty { continue }
                    try budget.charge(shape, node.id)
                    do { try builder.add(shape, transform: t) } catch { throw .glyph(id: node.id, glyph: gi, .placement(error)) }
                    map.append(gi)
                }
                finish(.glyphs(map))
            case .wordHull:
                // Every glyph's ink is read first, so a glyph that cannot be drawn (a broken color glyph) is
                // this node's error, as it is with the other policies, not a glyph without ink.
                var inked: [Bool] = []
                for (gi, p) in local.enumerated() {
                    if gi & 63 == 63 { try RegionBudget.checkDeadline(node.id) }
                    do throws(FontError) {
                        inked.append(!(try p.viewBounds()).isEmpty)
                    } catch .noOutline {
                        inked.append(false)
                    } catch .shape(_, _, .timeLimit) {
                        throw .timeLimit(id: node.id)
                    } catch {
                        throw .glyph(id: node.id, glyph: gi, error)
                    }
                }
                var words: [Range<Int>] = []
                for word in WordHulls.words(lines: lines, inked: inked) {
                    try RegionBudget.checkDeadline(node.id)
                    let hull: (Polygon, Double)?
                    do { hull = try WordHulls.hull(Array(local[word]), tolerance: tolerance / max(scale, 1e-300)) } catch {
                        if case .shape(_, _, .timeLimit) = error { throw .timeLimit(id: node.id) }
                        throw .glyph(id: node.id, glyph: word.lowerBound, error)
                    }
                    guard let (polygon, achieved) = hull else { continue }
                    try budget.reserve(Regions.estimatedBytes(edges: polygon.contours.reduce(0) { $0 + $1.count }, convex: true), node.id)
                    try add(try built { () throws(ShapeError) in
                        try GlyphShape(polygon: polygon, tolerance: achieved, limits: budget.shapeLimits)
                    }, linear)
                    words.append(word)
                }
                finish(.words(words))
            }
        }
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
        guard radius > tol else { return (max(1, Int((angle / (Double.pi / 2)).rounded(.up))), radius) }
        let theta = 4 * asin((tol / radius / 2).squareRoot())
        let count = (angle / theta).rounded(.up)
        let n = count.isFinite && count < 100_000 ? max(1, Int(count)) : 100_000
        let half = angle / Double(n) / 2
        let achieved = 2 * radius * sin(half / 2) * sin(half / 2)
        return (n, achieved)
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

    static func roundRect(_ r: Rect, radius rad: Double, viewTolerance: Double, maxScale: Double,
                          limits: ShapeLimits = .default) throws(ShapeError) -> GlyphShape {
        guard rad > 0 else {
            return try GlyphShape(polygon: Polygon(contours: [[Point(r.minX, r.minY), Point(r.maxX, r.minY),
                                                               Point(r.maxX, r.maxY), Point(r.minX, r.maxY)]]), limits: limits)
        }
        let (n, achieved) = segments(radius: rad * maxScale, angle: .pi / 2, tol: viewTolerance)
        var ring: [Point] = []
        // Corners clockwise in y-down: top-right, bottom-right, bottom-left, top-left.
        let corners = [(r.maxX - rad, r.minY + rad, -Double.pi / 2), (r.maxX - rad, r.maxY - rad, 0.0),
                       (r.minX + rad, r.maxY - rad, Double.pi / 2), (r.minX + rad, r.minY + rad, Double.pi)]
        for (cx, cy, start) in corners {
            for k in 0...n {
                let a = start + Double.pi / 2 * Double(k) / Double(n)
                ring.append(Point(cx + rad * cos(a), cy + rad * sin(a)))
            }
        }
        return try GlyphShape(polygon: Polygon(contours: [ring]), tolerance: achieved / maxScale, limits: limits,
                              fastDistance: fastDistance(r, maxScale))
    }
}
