import InkGeometry
import InkHit

/// What flattening one outline costs at any scale, from one pass over its curves (its own units): the sum
/// over curves of √(factor · |second difference|), so that under a linear map of largest scale `s` at
/// tolerance `t` the curves need at most √(s / t) · `root` + `curves` segments (Wang's formula: a curve's
/// second difference grows by at most `s`, and rounding up adds less than one segment).
struct OutlineCost: OutlineSink {
    /// Σ √(factor · |P0 − 2P1 + P2|) over quadratics (factor 1/4) and cubics (3/4, larger difference).
    private(set) var root = 0.0
    private(set) var curves = 0
    private(set) var lines = 0
    private(set) var contours = 0
    /// The control box (every point, control points included).
    private(set) var box = Rect.empty
    private var current = Point.zero

    init(_ outline: GlyphOutline) {
        outline.decompose(into: &self)
    }

    /// The most edges the outline flattens to under a map of largest scale `scale` at `tolerance`.
    func bound(scale: Double, tolerance: Double) -> Double {
        (scale / tolerance).squareRoot() * root + Double(curves + lines + contours)
    }

    mutating func move(to p: Point) { current = p; contours += 1; box.expand(toInclude: p) }
    mutating func addLine(to p: Point) { lines += 1; current = p; box.expand(toInclude: p) }
    mutating func addQuadCurve(to p: Point, control c: Point) {
        root += (0.25 * (current - c * 2 + p).length).squareRoot()
        curves += 1; current = p; box.expand(toInclude: c); box.expand(toInclude: p)
    }
    mutating func addCurve(to p: Point, control1 c1: Point, control2 c2: Point) {
        let d = max((current - c1 * 2 + c2).length, (c1 - c2 * 2 + p).length)
        root += (0.75 * d).squareRoot()
        curves += 1; current = p
        box.expand(toInclude: c1); box.expand(toInclude: c2); box.expand(toInclude: p)
    }
    mutating func closeSubpath() {}
}

/// Passes calls on to `base` until the build deadline (`BuildDeadline`) has passed, asking the clock every
/// 4,096 calls; then drops the rest and says so in `stopped`.
struct DeadlineSink<Base: OutlineSink>: OutlineSink {
    var base: Base
    private var calls = 0
    private(set) var stopped = false
    init(_ base: Base) { self.base = base }
    private mutating func go() -> Bool {
        calls &+= 1
        if calls & 4095 == 0 && !stopped && BuildDeadline.hasPassed { stopped = true }
        return !stopped
    }
    mutating func move(to p: Point) { if go() { base.move(to: p) } }
    mutating func addLine(to p: Point) { if go() { base.addLine(to: p) } }
    mutating func addQuadCurve(to p: Point, control c: Point) { if go() { base.addQuadCurve(to: p, control: c) } }
    mutating func addCurve(to p: Point, control1 c1: Point, control2 c2: Point) {
        if go() { base.addCurve(to: p, control1: c1, control2: c2) }
    }
    mutating func closeSubpath() { if go() { base.closeSubpath() } }
}

/// The union of a glyph's layers (or its own outline), bounded before it is built: every layer's segments
/// are counted from its outline's curves at the layer's scale before anything is flattened, clipped layers
/// included (their work is done even when the clip leaves nothing), and layers whose box lies wholly outside
/// a clip are skipped for free. The work of all layers together is held to `maxEdges` segments; the build
/// deadline (`BuildDeadline`) is checked between layers and every 4,096 segments within one.
struct LayerUnion {
    let font: Font
    let glyph: GlyphID
    let ink: GlyphInk
    let rendering: OutlineRendering
    let viewPxPerEm: Double
    let tolerance: Double
    let maxEdges: Int
    private var outlines: [GlyphID: (GlyphOutline, OutlineCost)] = [:]
    /// Segments the layers flatten to (bounds, or exact counts where a bound did not fit), clipped ones included.
    private var work = 0.0
    /// Outline points read to count segments exactly (bounded by `4 × maxEdges`).
    private var examined = 0
    private var contours: [[Point]] = []
    private var edges = 0
    private var achieved = 0.0

    init(font: Font, glyph: GlyphID, ink: GlyphInk, rendering: OutlineRendering, viewPxPerEm: Double,
         tolerance: Double, maxEdges: Int) {
        self.font = font; self.glyph = glyph; self.ink = ink; self.rendering = rendering
        self.viewPxPerEm = viewPxPerEm; self.tolerance = tolerance; self.maxEdges = maxEdges
    }

    private func shapeError(_ e: ShapeError) -> FontError { .shape(glyph: glyph, pxPerEm: viewPxPerEm, e) }

    /// The region of `pieces`.
    mutating func region(_ pieces: [ColorPiece]) throws(FontError) -> InkRegion {
        for (k, piece) in pieces.enumerated() {
            if k & 15 == 15 && BuildDeadline.hasPassed { throw shapeError(.timeLimit) }
            var layer: [[Point]]
            switch piece.source {
            case .glyph(let g):
                guard let flattened = try flatten(g, piece) else { continue }
                layer = flattened
            case .fill(let r):
                guard !r.isEmpty, r.width > 0, r.height > 0 else { continue }
                layer = [ColrV1.quad(r, .identity)]
            }
            if ink != .outline {
                // One layer, one sign: turned so that its area is positive, the layers' nonzero fill is
                // their union.
                if layer.reduce(0.0, { $0 + InkRegion.signedArea($1) }) < 0 { layer = layer.map { $0.reversed() } }
                for q in piece.clips { layer = layer.map { InkRegion.clip($0, to: q) }.filter { $0.count >= 3 } }
            }
            edges += layer.reduce(0) { $0 + $1.count }
            guard edges <= maxEdges else { throw shapeError(.tooManyEdges(limit: maxEdges)) }
            contours += layer
        }
        return InkRegion(polygon: Polygon(contours: contours), tolerance: achieved, ink: ink)
    }

    /// Layer glyph `g`'s outline under `piece.transform`, flattened once its cost is known to fit; nil when
    /// the layer lies wholly outside one of its clips.
    private mutating func flatten(_ g: GlyphID, _ piece: ColorPiece) throws(FontError) -> [[Point]]? {
        let (outline, cost) = try load(g)
        let box = cost.box.applying(piece.transform)
        for q in piece.clips {
            var clipBox = Rect.empty
            for p in q { clipBox.expand(toInclude: p) }
            if box.maxX < clipBox.minX || box.minX > clipBox.maxX || box.maxY < clipBox.minY || box.minY > clipBox.maxY {
                return nil
            }
        }
        try count(outline, cost, piece.transform)
        var sink = TransformingSink(FlatteningSink(DeadlineSink(NormalizingSink(PolygonSink())), tolerance: tolerance),
                                    transform: piece.transform)
        outline.decompose(into: &sink)
        if sink.base.base.stopped { throw shapeError(.timeLimit) }
        sink.base.base.base.finish()
        if sink.base.base.base.droppedNonFinite > 0 { throw shapeError(.nonFiniteCoordinate) }
        if sink.base.cappedCurves > 0 { throw shapeError(.toleranceNotMet(curves: sink.base.cappedCurves)) }
        achieved = max(achieved, sink.base.achievedTolerance)
        var contours = sink.base.base.base.base.result.contours
        // A stroked style: the layer's band, made in the layer glyph's units and mapped like its outline.
        let scale = piece.transform.maxScale
        if let band = try outline.strokeBand(rendering, unitsPerEm: font.unitsPerEm, tolerance: tolerance / scale,
                                             maxEdges: maxEdges, glyph: glyph, pxPerEm: viewPxPerEm) {
            for i in 0..<band.count { contours.append(band.piece(i).map { $0.applying(piece.transform) }) }
            achieved = max(achieved, band.tolerance * scale)
        }
        WorkMeter.count(contours.reduce(0) { $0 + $1.count }, .outlinePoints)
        return contours
    }

    /// Adds the layer's segments to the work, refusing before anything is flattened: a bound from the
    /// outline's cost when it fits, else an exact count from the control polygons at the layer's scale.
    private mutating func count(_ outline: GlyphOutline, _ cost: OutlineCost, _ t: AffineTransform) throws(FontError) {
        let bound = cost.bound(scale: t.maxScale, tolerance: tolerance)
        if work + bound <= Double(maxEdges) { work += bound; return }
        examined += outline.points.count
        guard examined <= 4 * maxEdges else { throw shapeError(.tooManyEdges(limit: maxEdges)) }
        var counter = TransformingSink(SegmentCountingSink(tolerance: tolerance), transform: t)
        outline.decompose(into: &counter)
        let c = counter.base
        if c.nonFinitePoints > 0 { throw shapeError(.nonFiniteCoordinate) }
        if c.cappedCurves > 0 { throw shapeError(.toleranceNotMet(curves: c.cappedCurves)) }
        work += Double(c.edgeBound)
        guard work <= Double(maxEdges) else { throw shapeError(.tooManyEdges(limit: maxEdges)) }
    }

    /// Layer glyph `g`'s outline (as the placement renders it) and its cost, loaded once per union.
    private mutating func load(_ g: GlyphID) throws(FontError) -> (GlyphOutline, OutlineCost) {
        if let known = outlines[g] { return known }
        guard Int(g.rawValue) < font.glyphCount else {
            throw .brokenColorGlyph(glyph: glyph, reason: "a layer is glyph \(g), beyond the font's \(font.glyphCount) glyphs")
        }
        let outline = try font.outline(glyph: g, rendering: rendering)
        let loaded = (outline, OutlineCost(outline))
        outlines[g] = loaded
        return loaded
    }
}
