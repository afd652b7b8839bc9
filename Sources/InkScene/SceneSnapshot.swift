#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import InkGeometry
@_spi(InkInternals) import InkHit
import InkFreeType
@_spi(InkInternals) import InkText

/// What a point hits in a scene.
public struct SceneHit: Sendable {
    /// The id of the node hit.
    public var node: String
    /// The ids from the root down to that node.
    public var path: [String]
    /// The point in the node's local coordinates.
    public var local: Point
    /// Signed distance to the node's region, root (view) px: negative inside (the depth inside the part of
    /// the region that holds the point: its shape or its enlarged hit box).
    public var distance: Double
    /// True when the point is inside the node's region.
    public var isInside: Bool
    /// For a text or glyph-run node: the index of the glyph hit (into `TextLayout.glyphs` or the run).
    public var glyph: Int?
    /// For a text node hit on a glyph: the character, its UTF-16 range, line and link, as `TextLayout.hit`
    /// gives them.
    public var text: TextHit?
}

/// An immutable scene, indexed for queries: safe to share between threads, unchanged by later edits of the
/// `Scene` it came from.
///
/// **The rule.** Targets are the nodes that may be hit: not taken out by a flag (hidden, not interactive,
/// alpha < 0.01, `pointerEvents` `.none`: the node and its subtree; `.boxNone`: the node alone; `.boxOnly`:
/// its subtree), and every clipping ancestor's hit box contains the point. A node's region is its shape,
/// united with its hit box where `slop` or `minSize` make that larger than its bounds (for a `.box`, the
/// hit box itself). The answer is the topmost target whose region contains the point; otherwise, with a
/// radius, the target whose region is nearest within it, distances equal within 1e-6 × (1 + distance)
/// going to the topmost. Topmost means last in pre-order: children above their parent, later siblings above
/// earlier ones. Distances are Euclidean in root px, exact under any affine transform (curves within the
/// snapshot's tolerance).
public struct SceneSnapshot: Sendable {
    /// One node in pre-order.
    struct Flat: Sendable {
        var id: String
        var parent: Int            // flat index, -1 for the root
        var toRoot: AffineTransform
        var fromRoot: AffineTransform
        var hitBox: Rect
        /// Where the node is reachable, root px: the intersection of its clipping ancestors' hit boxes, as
        /// an index into `clipRegions`; `everywhere` or `nowhere`.
        var reach: Int32
        /// Where its children are reachable (its `reach`, cut by its own hit box when it clips).
        var childReach: Int32
        var shape: NodeShape
    }
    /// A part of a node's region in the index: its node (flat index) and glyph (-1: none), or for a word's
    /// hull its glyphs `glyph ..< glyph + words`.
    struct Part: Sendable {
        var node: Int32
        var glyph: Int32
        var words: Int32 = 0
    }

    static let everywhere: Int32 = -1, nowhere: Int32 = -2

    let flat: [Flat]
    let parts: [Part]
    /// Convex polygons in root px, counter-clockwise in y-up terms (see `ConvexRegion`).
    let clipRegions: [ConvexRegion]
    let index: HitIndex
    /// Flattening tolerance, view px.
    public let tolerance: Double

    /// Number of nodes.
    public var count: Int { flat.count }

    init(_ scene: Scene, tolerance: Double) throws(SceneError) {
        self.tolerance = tolerance
        var builder: HitIndex.Builder
        do { builder = try HitIndex.Builder(tolerance: tolerance) } catch { throw .placement(id: scene.rootID, error) }
        var flat: [Flat] = []
        flat.reserveCapacity(scene.count)
        var parts: [Part] = []
        var clipRegions: [ConvexRegion] = []
        // Pre-order without recursion: (slot, parent flat index, whether an ancestor took the subtree out).
        var stack: [(Int, Int, Bool)] = [(0, -1, false)]
        while let (s, p, ancestorOut) = stack.popLast() {
            let node = scene.nodes[s]!
            try Self.validate(node)
            let toParent = node.transform
            let toRoot = p >= 0 ? toParent.concatenating(flat[p].toRoot) : toParent
            guard toRoot.isFinite else { throw .invalidNode(id: node.id, reason: "its transform from the root is not finite") }
            let fromRoot = toRoot.inverted() ?? AffineTransform(a: 0, b: 0, c: 0, d: 0, tx: .nan, ty: .nan)
            let reach = p < 0 ? Self.everywhere : flat[p].childReach
            var childReach = reach
            if node.clipsChildren && reach != Self.nowhere {
                let box = node.hitBox
                let quad = box.isEmpty ? nil : ConvexRegion(box, toRoot)
                let cut = quad.flatMap { q in reach == Self.everywhere ? q : clipRegions[Int(reach)].intersection(q) }
                if let cut { childReach = Int32(clipRegions.count); clipRegions.append(cut) } else { childReach = Self.nowhere }
            }
            let me = flat.count
            flat.append(Flat(id: node.id, parent: p, toRoot: toRoot, fromRoot: fromRoot, hitBox: node.hitBox,
                             reach: reach, childReach: childReach, shape: node.shape))
            let out = ancestorOut || node.isOut
            if !out && node.takesTouchesItself {
                try Self.addRegion(of: node, flatIndex: me, toRoot: toRoot, tolerance: tolerance, into: &builder, parts: &parts)
            }
            // Children: pushed last first, so the first child is visited next (pre-order).
            let childrenOut = out || !node.passesTouchesToChildren
            for c in scene.children[s].reversed() { stack.append((c, me, childrenOut)) }
        }
        self.flat = flat
        self.parts = parts
        self.clipRegions = clipRegions
        self.index = builder.build()
    }

    static func validate(_ n: Node) throws(SceneError) {
        guard n.transform.isFinite else { throw .invalidNode(id: n.id, reason: "its transform has a NaN or infinite entry") }
        let b = n.bounds
        guard b.isEmpty || (b.minX.isFinite && b.minY.isFinite && b.maxX.isFinite && b.maxY.isFinite) else {
            throw .invalidNode(id: n.id, reason: "its bounds are not finite")
        }
        let s = n.slop
        guard s.top.isFinite, s.left.isFinite, s.bottom.isFinite, s.right.isFinite else {
            throw .invalidNode(id: n.id, reason: "its slop is not finite")
        }
        guard n.minSize.width.isFinite, n.minSize.height.isFinite, n.minSize.width >= 0, n.minSize.height >= 0 else {
            throw .invalidNode(id: n.id, reason: "its minSize must be finite and ≥ 0")
        }
        guard !n.alpha.isNaN else { throw .invalidNode(id: n.id, reason: "its alpha is NaN") }
        if case .roundRect(let r) = n.shape, !(r.isFinite && r >= 0) {
            throw .invalidNode(id: n.id, reason: "its corner radius must be finite and ≥ 0")
        }
    }

    /// Adds the parts of a target's region: its shape and, where larger than the bounds, its hit box.
    static func addRegion(of node: Node, flatIndex: Int, toRoot: AffineTransform, tolerance: Double,
                          into b: inout HitIndex.Builder, parts: inout [Part]) throws(SceneError) {
        let me = Int32(flatIndex)
        func add(_ shape: GlyphShape, glyph: Int = -1) throws(SceneError) {
            do { try b.add(shape, transform: toRoot) } catch { throw .placement(id: node.id, error) }
            parts.append(Part(node: me, glyph: Int32(glyph)))
        }
        let box = node.hitBox
        let scale = toRoot.maxScale
        func built(_ make: () throws(ShapeError) -> GlyphShape) throws(SceneError) -> GlyphShape {
            do { return try make() } catch { throw .shape(id: node.id, error) }
        }
        switch node.shape {
        case .box:
            if !box.isEmpty { try add(try built { () throws(ShapeError) in try Regions.rect(box) }) }
            return                                                // the hit box is the whole region
        case .roundRect(let r):
            if !node.bounds.isEmpty {
                try add(try built { () throws(ShapeError) in
                    try Regions.roundRect(node.bounds, radius: r, viewTolerance: tolerance, maxScale: scale)
                })
            }
        case .ellipse:
            if !node.bounds.isEmpty {
                try add(try built { () throws(ShapeError) in try Regions.ellipse(in: node.bounds, viewTolerance: tolerance, maxScale: scale) })
            }
        case .path(let elements, let rule):
            try add(try built { () throws(ShapeError) in
                try GlyphShape(viewTolerance: tolerance, maxScale: scale, fillRule: rule) { sink in elements.replay(into: &sink) }
            })
        case .text(let layout, let holes):
            try addGlyphs(layout.glyphs.indices.map { layout.placement(of: $0) }, lines: layout.glyphs.map(\.line), holes)
        case .glyphs(let run, let holes):
            try addGlyphs(run, lines: run.map { _ in 0 }, holes)
        case .mask(let mask):
            guard !node.bounds.isEmpty else { break }
            let shape: GlyphShape?
            do throws(ShapeError) { shape = try mask.shape(in: node.bounds) } catch { throw .shape(id: node.id, error) }
            if let shape { try add(shape) }
        }
        // The enlarged hit box, where it reaches beyond the bounds.
        if !box.isEmpty, node.bounds.isEmpty || !(box.minX >= node.bounds.minX && box.minY >= node.bounds.minY
                                                   && box.maxX <= node.bounds.maxX && box.maxY <= node.bounds.maxY) {
            try add(try built { () throws(ShapeError) in try Regions.rect(box) })
        }

        /// Glyphs placed in local px, by the hole policy.
        func addGlyphs(_ local: [GlyphPlacement], lines: [Int], _ holes: HolePolicy) throws(SceneError) {
            func rooted(_ p: GlyphPlacement) -> GlyphPlacement {
                GlyphPlacement(font: p.font, glyph: p.glyph, size: p.size, origin: p.origin, transform: p.transform.concatenating(toRoot))
            }
            switch holes {
            case .ink, .filledCounters:
                for (gi, p) in local.enumerated() {
                    do throws(FontError) {
                        if holes == .ink {
                            _ = try b.add(rooted(p))
                        } else {
                            let (shape, t) = try FilledGlyphs.shape(rooted(p), viewTolerance: tolerance)
                            do { try b.add(shape, transform: t) } catch { throw FontError.placement(error) }
                        }
                        parts.append(Part(node: me, glyph: Int32(gi)))
                    } catch .noOutline {
                        continue                                  // bitmap-only glyphs have no ink to hit
                    } catch {
                        throw .glyph(id: node.id, glyph: gi, error)
                    }
                }
            case .wordHull:
                var inked: [Bool] = []
                for p in local { inked.append(((try? p.font.controlBox(glyph: p.glyph)) ?? .empty).isEmpty == false) }
                for word in WordHulls.words(lines: lines, inked: inked) {
                    let hull: (Polygon, Double)?
                    do { hull = try WordHulls.hull(Array(local[word]), tolerance: tolerance / max(scale, 1e-300)) } catch {
                        throw .glyph(id: node.id, glyph: word.lowerBound, error)
                    }
                    guard let (polygon, achieved) = hull else { continue }
                    let shape = try built { () throws(ShapeError) in try GlyphShape(polygon: polygon, tolerance: achieved) }
                    do { try b.add(shape, transform: toRoot) } catch { throw .placement(id: node.id, error) }
                    parts.append(Part(node: me, glyph: Int32(word.lowerBound), words: Int32(word.count)))
                }
            }
        }
    }

    // MARK: Queries

    /// Whether every clipping ancestor of flat node `n` has the point in its hit box: one convex polygon
    /// test, whatever the depth.
    func reachable(_ n: Int, _ p: Point) -> Bool {
        let r = flat[n].reach
        if r == Self.everywhere { return true }
        if r == Self.nowhere { return false }
        return clipRegions[Int(r)].contains(p)
    }

    /// The best part for `point` by the rule, or nil.
    func best(at point: Point, radius: Double) -> Hit? {
        guard point.isFinite else { return nil }
        let r = radius > 0 ? radius : 0
        var best: Hit? = nil
        index.forEachHit(at: point, radius: r) { h in
            guard reachable(Int(parts[h.placement].node), point) else { return }
            guard let b = best else { best = h; return }
            if h.isInside != b.isInside {
                if h.isInside { best = h }
                return
            }
            if h.isInside {
                if h.placement > b.placement { best = h }
            } else if h.distance < b.distance - 1e-6 * (1 + b.distance) {
                best = h
            } else if h.distance <= b.distance + 1e-6 * (1 + b.distance) && h.placement > b.placement {
                best = h
            }
        }
        return best
    }

    /// The ids from the root to flat node `n`.
    func path(to n: Int) -> [String] {
        var ids: [String] = []
        var k = n
        while k >= 0 { ids.append(flat[k].id); k = flat[k].parent }
        return ids.reversed()
    }

    func answer(_ h: Hit, at point: Point) -> SceneHit {
        let part = parts[h.placement]
        let n = Int(part.node)
        let f = flat[n]
        let local = point.applying(f.fromRoot)
        var glyph = part.glyph >= 0 ? Int(part.glyph) : nil
        if part.words > 0 { glyph = nearestGlyph(f.shape, Int(part.glyph)..<Int(part.glyph + part.words), local) }
        var text: TextHit? = nil
        if case .text(let layout, _) = f.shape, let g = glyph {
            text = layout.textHit(glyph: g, at: local, distance: h.distance, isInside: h.isInside)
        }
        return SceneHit(node: f.id, path: path(to: n), local: local, distance: h.distance, isInside: h.isInside,
                        glyph: glyph, text: text)
    }

    /// The glyph of a word whose ink box is nearest `local` (0 inside; ties to the later glyph).
    func nearestGlyph(_ shape: NodeShape, _ word: Range<Int>, _ local: Point) -> Int {
        var best = word.lowerBound, bestD = Double.infinity
        for gi in word {
            let p: GlyphPlacement
            switch shape {
            case .text(let layout, _): p = layout.placement(of: gi)
            case .glyphs(let run, _): p = run[gi]
            default: return word.lowerBound
            }
            guard let box = try? p.viewBounds(), !box.isEmpty else { continue }
            let dx = max(box.minX - local.x, 0, local.x - box.maxX), dy = max(box.minY - local.y, 0, local.y - box.maxY)
            let d = dx * dx + dy * dy
            if d <= bestD { best = gi; bestD = d }
        }
        return best
    }

    /// The node under `point` (root px) within `radius` (root px) by the rule above; nil when none. A
    /// negative or NaN radius counts as 0; a non-finite point is a miss.
    public func hit(at point: Point, radius: Double = 0) -> SceneHit? {
        best(at: point, radius: radius).map { answer($0, at: point) }
    }

    /// The answers for many touches, in order.
    public func hits(for points: [Point], radius: Double = 0) -> [SceneHit?] {
        points.map { hit(at: $0, radius: radius) }
    }

    /// Every target whose region contains `point`, topmost first, each node once (like the web's
    /// `elementsFromPoint`).
    public func targets(at point: Point) -> [SceneHit] {
        guard point.isFinite else { return [] }
        var inside: [Int: Hit] = [:]
        index.forEachHit(at: point, radius: 0) { h in
            guard h.isInside else { return }
            let n = Int(parts[h.placement].node)
            guard reachable(n, point) else { return }
            if let old = inside[n], old.placement > h.placement { return }
            inside[n] = h
        }
        return inside.values.sorted { $0.placement > $1.placement }.map { answer($0, at: point) }
    }
}

/// Region shapes in local px, flattened on the true curves (polygons inscribed in arcs), so a region is
/// within the tolerance of the shape it names.
enum Regions {
    static func rect(_ r: Rect) throws(ShapeError) -> GlyphShape {
        try GlyphShape(polygon: Polygon(contours: [[Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY)]]))
    }

    /// Segments for an arc of `angle` radians on a circle of radius `radius` view px, so the chords stay
    /// within `tol` of it (sagitta r(1 − cos(θ/2)) ≤ tol), and the bound they achieve.
    static func segments(radius: Double, angle: Double, tol: Double) -> (Int, Double) {
        guard radius > tol else { return (max(1, Int((angle / (Double.pi / 2)).rounded(.up))), radius) }
        let theta = 2 * acos(1 - tol / radius)
        let n = min(100_000, max(1, Int((angle / theta).rounded(.up))))
        let achieved = radius * (1 - cos(angle / Double(n) / 2))
        return (n, achieved)
    }

    static func ellipse(in r: Rect, viewTolerance: Double, maxScale: Double) throws(ShapeError) -> GlyphShape {
        let cx = (r.minX + r.maxX) / 2, cy = (r.minY + r.maxY) / 2, rx = r.width / 2, ry = r.height / 2
        let (n, achieved) = segments(radius: max(rx, ry) * maxScale, angle: 2 * .pi, tol: viewTolerance)
        let count = max(n, 8)
        var ring: [Point] = []
        ring.reserveCapacity(count)
        for k in 0..<count {
            let a = 2 * Double.pi * Double(k) / Double(count)
            ring.append(Point(cx + rx * cos(a), cy + ry * sin(a)))
        }
        return try GlyphShape(polygon: Polygon(contours: [ring]), tolerance: achieved / maxScale)
    }

    static func roundRect(_ r: Rect, radius: Double, viewTolerance: Double, maxScale: Double) throws(ShapeError) -> GlyphShape {
        let rad = min(radius, r.width / 2, r.height / 2)
        guard rad > 0 else { return try rect(r) }
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
        return try GlyphShape(polygon: Polygon(contours: [ring]), tolerance: achieved / maxScale)
    }
}

/// A convex polygon in root px: the intersection of clipping hit boxes (each a parallelogram once
/// transformed), cut by Sutherland–Hodgman against each new box's four half-planes.
struct ConvexRegion: Sendable {
    /// Vertices in counter-clockwise order (positive signed area, x right, y down taken as y up).
    var vertices: [Point]

    /// `box` mapped by `t` (nil when `t` collapses it).
    init?(_ box: Rect, _ t: AffineTransform) {
        var v = [Point(box.minX, box.minY), Point(box.maxX, box.minY), Point(box.maxX, box.maxY), Point(box.minX, box.maxY)]
            .map { $0.applying(t) }
        let area = Self.signedArea(v)
        guard area.isFinite, area != 0 else { return nil }
        if area < 0 { v.reverse() }
        vertices = v
    }

    init(vertices: [Point]) { self.vertices = vertices }

    static func signedArea(_ v: [Point]) -> Double {
        var a = 0.0
        for i in v.indices { let p = v[i], q = v[(i + 1) % v.count]; a += p.x * q.y - q.x * p.y }
        return a / 2
    }

    /// Inside or on the edge (every edge has the point on its left or on it).
    func contains(_ p: Point) -> Bool {
        guard vertices.count >= 3 else { return false }
        for i in vertices.indices {
            let a = vertices[i], b = vertices[(i + 1) % vertices.count]
            if (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) < 0 { return false }
        }
        return true
    }

    /// This region cut by `other` (both convex, counter-clockwise); nil when nothing is left.
    func intersection(_ other: ConvexRegion) -> ConvexRegion? {
        var out = vertices
        for i in other.vertices.indices {
            let a = other.vertices[i], b = other.vertices[(i + 1) % other.vertices.count]
            func side(_ p: Point) -> Double { (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) }
            var next: [Point] = []
            for j in out.indices {
                let p = out[j], q = out[(j + 1) % out.count]
                let sp = side(p), sq = side(q)
                if sp >= 0 { next.append(p) }
                if (sp >= 0) != (sq >= 0) {
                    let t = sp / (sp - sq)
                    next.append(Point(p.x + t * (q.x - p.x), p.y + t * (q.y - p.y)))
                }
            }
            out = next
            if out.count < 3 { return nil }
        }
        return ConvexRegion(vertices: out)
    }
}
