import InkGeometry
import InkHit
import InkFreeType
import InkText

/// Builds one node's `Region`: its enlarged hit box, then its shape's parts, one method per kind of shape.
/// Every shape is bounded before it is built (`budget.reserve`, from its edge count: `Regions`) and counted
/// once it is (`budget.charge`); the build deadline is checked between glyphs and words.
struct RegionBuilder {
    let node: Node
    /// Local → L-space (root px, the node's origin at 0), and its largest scale.
    let linear: AffineTransform
    let scale: Double
    let tolerance: Double
    let budget: RegionBudget
    let region = Region()
    /// The layer being collected.
    private var builder: HitIndex.Builder

    init(_ node: Node, linear: AffineTransform, tolerance: Double, budget: RegionBudget) throws(SceneError) {
        self.node = node; self.linear = linear; self.tolerance = tolerance; self.budget = budget
        scale = linear == .identity ? 1 : linear.maxScale
        do { builder = try HitIndex.Builder(tolerance: tolerance) } catch { throw .placement(id: node.id, error) }
    }

    mutating func build() throws(SceneError) -> Region {
        let hitBox = node.hitBox, bounds = node.bounds
        let enlarges = !hitBox.isEmpty && (bounds.isEmpty || !(hitBox.minX >= bounds.minX && hitBox.minY >= bounds.minY
                                                               && hitBox.maxX <= bounds.maxX && hitBox.maxY <= bounds.maxY))
        if case .box = node.shape {
            if !hitBox.isEmpty { region.box = hitBox; region.bounds = hitBox }
            return region
        }
        if enlarges { region.box = hitBox; region.bounds = hitBox }
        // Convex regions and masks of no area have nothing to hit (as a box of no area), whatever their map.
        let hasArea = bounds.width > 0 && bounds.height > 0
        switch node.shape {
        case .box: break
        case .roundRect(let r): if hasArea { try roundRect(r) }
        case .ellipse: if hasArea { try ellipse() }
        case .path(let elements, let rule): try path(elements, rule)
        case .mask(let m): if hasArea { try mask(m) }
        case .glyphs(let run, let holes): try glyphs(run, lines: [Int](repeating: 0, count: run.count), holes)
        case .text(let layout, let holes): try text(layout, holes)
        }
        return region
    }

    // MARK: Shapes

    mutating func roundRect(_ r: Double) throws(SceneError) {
        let bounds = node.bounds
        let rad = min(r, bounds.width / 2, bounds.height / 2)
        if linear == .identity || linear.isSimilarity {
            region.roundRect = (bounds, rad)
            region.bounds = region.bounds.union(bounds)
            return
        }
        try reserve(edges: Regions.roundRectEdges(radius: rad, viewTolerance: tolerance, maxScale: scale), convex: true)
        let (tol, s, limits) = (tolerance, scale, budget.shapeLimits)
        try add(try built { () throws(ShapeError) in try Regions.roundRect(bounds, radius: rad, viewTolerance: tol, maxScale: s, limits: limits) },
                linear)
        finish(.shape)
    }

    mutating func ellipse() throws(SceneError) {
        let bounds = node.bounds
        try reserve(edges: Regions.ellipseEdges(in: bounds, viewTolerance: tolerance, maxScale: scale), convex: true)
        let (tol, s, limits) = (tolerance, scale, budget.shapeLimits)
        try add(try built { () throws(ShapeError) in try Regions.ellipse(in: bounds, viewTolerance: tol, maxScale: s, limits: limits) }, linear)
        finish(.shape)
    }

    mutating func path(_ elements: [PathElement], _ rule: FillRule) throws(SceneError) {
        let edges: Int
        do throws(ShapeError) { edges = try Regions.pathEdges(elements, tolerance: tolerance / scale).get() } catch {
            throw .shape(id: node.id, error)
        }
        guard edges <= ShapeLimits.default.maxEdges else { throw .shape(id: node.id, .tooManyEdges(limit: ShapeLimits.default.maxEdges)) }
        try reserve(edges: edges, convex: false)
        let (tol, s, limits) = (tolerance, scale, budget.shapeLimits)
        try add(try built { () throws(ShapeError) in
            try GlyphShape(viewTolerance: tol, maxScale: s, fillRule: rule, limits: limits) { sink in elements.replay(into: &sink) }
        }, linear)
        finish(.shape)
    }

    mutating func mask(_ mask: AlphaMask) throws(SceneError) {
        let bounds = node.bounds
        if let index = mask.storage.placedIndex(bounds, linear, tolerance) {
            region.bounds = region.bounds.union(bounds)
            region.layers.append(Region.Layer(index: index, kind: .shape))
            return
        }
        let shape: GlyphShape?
        do throws(ShapeError) { shape = try mask.pixelShape(limits: budget.shapeLimits) } catch { throw .shape(id: node.id, error) }
        guard let shape else { return }
        let toLocal = AffineTransform(a: bounds.width / Double(mask.width), b: 0, c: 0, d: bounds.height / Double(mask.height),
                                      tx: bounds.minX, ty: bounds.minY)
        try add(shape, toLocal.concatenating(linear))
        finish(.shape)
        if let index = region.layers.last?.index { mask.storage.keep(index, bounds, linear, tolerance) }
    }

    mutating func text(_ layout: TextLayout, _ holes: HolePolicy) throws(SceneError) {
        let own = layout.sceneIndexes
        if holes == .ink && linear == .identity && own.ink.tolerance <= tolerance * (1 + 1e-9)
            && own.attachments.tolerance <= tolerance * (1 + 1e-9) {
            // The layout's own indexes are already in this space; decorations lie under the glyphs.
            let decorations = layout.sceneDecorations
            if decorations.count > 0 {
                region.layers.append(Region.Layer(index: decorations, kind: .decorations))
                region.bounds = region.bounds.union(decorations.bounds)
            }
            if own.ink.count > 0 {
                region.layers.append(Region.Layer(index: own.ink, kind: .glyphs(own.glyph)))
                region.bounds = region.bounds.union(own.ink.bounds)
            }
            if own.attachments.count > 0 {
                region.layers.append(Region.Layer(index: own.attachments, kind: .attachments))
                region.bounds = region.bounds.union(own.attachments.bounds)
            }
            return
        }
        let toL = layout.transform.concatenating(linear)
        for (k, d) in layout.decorations.enumerated() {
            do { try TextLayout.addRect(d.rect, to: &builder, transform: toL) } catch {
                throw .invalidNode(id: node.id, reason: "decoration \(k): \(error)")
            }
        }
        finish(.decorations)
        try glyphs(layout.glyphs.indices.map { layout.placement(of: $0) }, lines: layout.glyphs.map(\.line), holes)
        for k in layout.attachments.indices {
            let shape: GlyphShape
            do { shape = try layout.attachmentShape(k, maxScale: toL.maxScale, viewTolerance: tolerance) } catch {
                throw .invalidNode(id: node.id, reason: "attachment \(k): \(error)")
            }
            try add(shape, toL)
        }
        finish(.attachments)
    }

    // MARK: Glyphs

    /// Glyphs placed in local px (each placement's transform: layout → local), by the hole policy.
    mutating func glyphs(_ local: [GlyphPlacement], lines: [Int], _ holes: HolePolicy) throws(SceneError) {
        if holes == .wordHull { return try wordHulls(local, lines: lines) }
        var map: [Int] = []
        for (gi, p) in local.enumerated() {
            if gi & 63 == 63 { try RegionBudget.checkDeadline(node.id) }
            let made: (GlyphShape, AffineTransform)
            do throws(FontError) {
                if holes == .ink {
                    let (shape, t, _) = try inL(p).shape(cache: budget.cache, viewTolerance: tolerance)
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
    }

    /// The convex hull of each word's ink. Every glyph's ink is read first, so a glyph that cannot be drawn
    /// (a broken color glyph) is this node's error, as it is with the other policies, not a glyph without ink.
    mutating func wordHulls(_ local: [GlyphPlacement], lines: [Int]) throws(SceneError) {
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
            try reserve(edges: polygon.contours.reduce(0) { $0 + $1.count }, convex: true)
            let limits = budget.shapeLimits
            try add(try built { () throws(ShapeError) in try GlyphShape(polygon: polygon, tolerance: achieved, limits: limits) }, linear)
            words.append(word)
        }
        finish(.words(words))
    }

    // MARK: Helpers

    /// `p` placed in L-space.
    func inL(_ p: GlyphPlacement) -> GlyphPlacement {
        GlyphPlacement(font: p.font, glyph: p.glyph, size: p.size, origin: p.origin, transform: p.transform.concatenating(linear),
                       style: p.style)
    }

    /// Refuses a shape of `edges` edges before it is built when its estimated bytes do not fit.
    func reserve(edges: Int, convex: Bool) throws(SceneError) {
        try budget.reserve(Regions.estimatedBytes(edges: edges, convex: convex), node.id)
    }

    func built(_ make: () throws(ShapeError) -> GlyphShape) throws(SceneError) -> GlyphShape {
        do { return try make() } catch { throw .shape(id: node.id, error) }
    }

    /// Adds `shape` to the layer being collected, placed by `t` (counted in the budget).
    mutating func add(_ shape: GlyphShape, _ t: AffineTransform) throws(SceneError) {
        try budget.charge(shape, node.id)
        do { try builder.add(shape, transform: t) } catch { throw .placement(id: node.id, error) }
    }

    /// Ends the layer being collected (when it has placements) as a layer of `kind`.
    mutating func finish(_ kind: Region.Kind) {
        guard builder.count > 0 else { return }
        let index = builder.build()
        region.bounds = region.bounds.union(index.bounds.applying(linear.inverted() ?? .identity))
        region.layers.append(Region.Layer(index: index, kind: kind))
        builder = (try? HitIndex.Builder(tolerance: tolerance)) ?? HitIndex.Builder()
    }
}
