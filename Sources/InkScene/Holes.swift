import InkGeometry
import InkHit
import InkFreeType
import InkText

/// What a text or glyph-run node does with the holes in its ink — a choice no toolkit offers.
public enum HolePolicy: String, Sendable, Hashable, CaseIterable {
    /// By the ink: the hole of an "o" and the gaps between letters miss (the default).
    case ink
    /// Every contour filled: a tap in the hole of an "o" hits the "o"; gaps between letters still miss.
    case filledCounters
    /// The convex hull of each word's ink (a word: consecutive glyphs with ink on one line): the hole, the
    /// gaps between letters and the notches of a word hit it; the spaces between words miss.
    case wordHull
}

/// Glyph shapes with every contour filled, shared by all snapshots (keys: font and glyph; 64 MiB). A color,
/// bitmap or SVG glyph's contours are those of its ink (`GlyphInk`): its layers', its pixel staircase's.
enum FilledGlyphs {
    static let cache = ShapeCache<FontGlyph>(maxBytes: 64 << 20)

    /// The filled shape of `placement` and its font-units → root transform.
    static func shape(_ placement: GlyphPlacement, viewTolerance: Double) throws(FontError) -> (GlyphShape, AffineTransform) {
        let t = placement.fontUnitsToView
        let sv = t.singularValues
        try placement.validate()
        let font = placement.font, glyph = placement.glyph, rendering = placement.rendering
        let ink = try placement.ink
        let pxPerEm = sv.max * Double(font.unitsPerEm)
        let key = FontGlyph(font: font, glyph: glyph, ink: ink, rendering: rendering, viewPxPerEm: pxPerEm)
        let shape = try cache.shape(for: key, viewTolerance: viewTolerance, maxScale: sv.max,
                                    invalid: { FontError.shape(glyph: glyph, pxPerEm: placement.viewPxPerEm, .invalidTolerance($0)) }) {
            (tolerance, fastDistance) throws(FontError) -> GlyphShape in
            let region = try font.inkRegion(of: glyph, rendering: key.rendering, viewPxPerEm: pxPerEm, tolerance: tolerance)
            let filled = Polygon(contours: region.polygon.contours.map { WordHulls.signedArea($0) < 0 ? $0.reversed() : $0 })
            do throws(ShapeError) {
                return try GlyphShape(polygon: filled, tolerance: region.tolerance, fillRule: .nonZero, fastDistance: fastDistance)
            } catch {
                throw .shape(glyph: glyph, pxPerEm: placement.viewPxPerEm, error)
            }
        }
        return (shape, t)
    }
}

/// Convex hulls of words, in local px.
enum WordHulls {
    /// Runs of consecutive inked glyphs on one line: (first glyph, glyph count).
    static func words(lines: [Int], inked: [Bool]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = -1
        for i in 0...inked.count {
            let continues = i < inked.count && inked[i] && (start < 0 || lines[i] == lines[start])
            if continues { if start < 0 { start = i }; continue }
            if start >= 0 { out.append(start..<i) }
            start = i < inked.count && inked[i] ? i : -1
        }
        return out
    }

    /// The hull of the outlines of `placements` (in their view space, the node's local px), flattened within
    /// `tolerance` local px; nil when they have no ink. Bounded before anything is flattened: each glyph's
    /// segments are counted from its curves' control polygons, and a word whose glyphs would need more than
    /// `maxEdges` points, or a curve more than `Flattening.maxSegmentsPerCurve` segments, is refused.
    static func hull(_ placements: [GlyphPlacement], tolerance: Double,
                     maxEdges: Int = ShapeLimits.default.maxEdges) throws(FontError) -> (Polygon, Double)? {
        var points: [Point] = []
        var achieved = 0.0, total = 0
        for p in placements {
            func refuse(_ e: ShapeError) -> FontError { .shape(glyph: p.glyph, pxPerEm: p.viewPxPerEm, e) }
            var counter = SegmentCountingSink(tolerance: tolerance)
            try p.inkOutline(into: &counter, viewTolerance: tolerance)
            if counter.nonFinitePoints > 0 { throw refuse(.nonFiniteCoordinate) }
            if counter.cappedCurves > 0 { throw refuse(.toleranceNotMet(curves: counter.cappedCurves)) }
            total += counter.edgeBound
            guard total <= maxEdges else { throw refuse(.tooManyEdges(limit: maxEdges)) }
            if BuildDeadline.hasPassed { throw refuse(.timeLimit) }
            var sink = FlatteningSink(PolygonSink(), tolerance: tolerance)
            try p.inkOutline(into: &sink, viewTolerance: tolerance)
            achieved = max(achieved, sink.achievedTolerance)
            for c in sink.base.result.contours { points += c }
        }
        let h = convexHull(points)
        return h.count >= 3 ? (Polygon(contours: [h]), achieved) : nil
    }

    /// The signed area of a ring (positive counter-clockwise with y up).
    static func signedArea(_ v: [Point]) -> Double {
        var a = 0.0
        for i in v.indices { let p = v[i], q = v[(i + 1) % v.count]; a += p.x * q.y - q.x * p.y }
        return a / 2
    }

    /// Andrew's monotone chain; counter-clockwise (positive signed area), no collinear points.
    static func convexHull(_ pts: [Point]) -> [Point] {
        let p = pts.filter { $0.isFinite }.sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
        guard p.count >= 3 else { return p }
        func cross(_ o: Point, _ a: Point, _ b: Point) -> Double { (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x) }
        var lower: [Point] = [], upper: [Point] = []
        for q in p {
            while lower.count >= 2 && cross(lower[lower.count - 2], lower[lower.count - 1], q) <= 0 { lower.removeLast() }
            lower.append(q)
        }
        for q in p.reversed() {
            while upper.count >= 2 && cross(upper[upper.count - 2], upper[upper.count - 1], q) <= 0 { upper.removeLast() }
            upper.append(q)
        }
        return Array(lower.dropLast() + upper.dropLast())
    }
}
