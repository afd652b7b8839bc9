import InkGeometry

/// One flattened outline in its own units (font units, y-up, for FreeType glyphs; whatever units an
/// embedder's outlines use), with a small uniform grid that answers "inside?" and "how far from the
/// outline?" by looking at a few edges.
///
/// A shape is built once per (glyph, tolerance class) and shared by every placement of that glyph, in any
/// number of indexes. What it answers never changes, and it is `Sendable`.
///
/// Making a shape costs its outline's load and flattening: the shape keeps its polygon (`Float` vertices).
/// The structures that answer queries come in two forms, built when an index first needs them (once, under
/// the shape's lock, never during a query):
/// - the **lean form** — a coarse winding grid (about ½ √edges cells a side, each with the edges that meet it
///   and the winding number at a reference point) — for the first index that places the shape (or the shape's
///   own first query): a glyph's first sight;
/// - the **full form** — a finer grid with edge copies, per-cell distance bounds, near lists and the page
///   raster's stamps — from the second index on (`HitIndex.Builder.shapeForms`): glyphs that come back get
///   fast.
/// Both answer alike, bit for bit. `byteCount` counts the lean form from the start (estimated until it is
/// built) and the full form once there is one.
///
/// Build one from outline calls, in view-px terms (the library works out the shape tolerance):
///
/// ```swift
/// // A 10 × 10 square with a same-direction square hole: even-odd makes the hole empty.
/// let frame = try GlyphShape(fillRule: .evenOdd) { sink in
///     for (lo, hi) in [(0.0, 10.0), (3.0, 7.0)] {
///         sink.move(to: Point(lo, lo)); sink.addLine(to: Point(hi, lo))
///         sink.addLine(to: Point(hi, hi)); sink.addLine(to: Point(lo, hi)); sink.closeSubpath()
///     }
/// }
/// // Curves are flattened for the largest scale the shape will be placed at (here 2 view px per unit).
/// let disc = try GlyphShape(viewTolerance: 0.01, maxScale: 2) { sink in
///     sink.move(to: Point(10, 0))
///     sink.addQuadCurve(to: Point(0, 10), control: Point(10, 10))
///     sink.addQuadCurve(to: Point(-10, 0), control: Point(-10, 10))
///     sink.addQuadCurve(to: Point(0, -10), control: Point(-10, -10))
///     sink.addQuadCurve(to: Point(10, 0), control: Point(10, -10))
///     sink.closeSubpath()
/// }
/// print(frame.contains(Point(5, 5)), disc.contains(.zero))   // false true
/// ```
///
/// # Guarantees
/// - `tolerance` is the Hausdorff distance, in the shape's units, between the source outline and the
///   polygon the shape answers for: the bound the flattening achieved, 0 when the outline had no curves.
///   Placed with a transform whose largest scale is `s`, answers are exact for the true outline at every
///   view point farther than `tolerance * s` from it.
/// - Edge coordinates are finite and stored as `Float`; every answer is computed from those stored edges,
///   in `Double`.
/// - `fillRule` decides what is ink from the winding number of the stored polygon (nonzero for TrueType
///   and CFF glyphs, where overlapping contours are normal; even-odd for SVG/Skia paths that ask for it).
public final class GlyphShape: @unchecked Sendable {
    /// Hausdorff bound of the flattening, in the shape's units (0 for a polygon taken as exact).
    public let tolerance: Double
    /// Which winding numbers are ink.
    public let fillRule: FillRule
    /// Bounds of the polygon (the ink), in the shape's units. Empty for a shape without edges.
    public let bounds: Rect
    /// Number of polygon edges.
    public var edgeCount: Int { polygon.edgeCount }

    /// The polygon (`PolygonStore`), made with the shape.
    let polygon: PolygonStore
    /// What the forms are built with.
    let limits: ShapeLimits
    /// How far around the box the full form answers distances from near lists, shape units (nil: 30 % of the
    /// box's longer side).
    let fastDistance: Double?
    /// What `byteCount` counts for the lean form before it is built (budgets see it from the start).
    let leanEstimate: Int
    /// The forms built so far, the index builds that placed the shape and the account its forms are charged
    /// to (GlyphShape+Forms.swift); read and written under `formLock` only.
    var forms = FormSlots()

    /// Bytes of storage this shape holds: its polygon, its lean form (counted from the start, as estimated
    /// until an index builds it) and, once it has one, its full form (not the raster stamps cached for
    /// indexes, which `StampCache` bounds).
    public var byteCount: Int {
        let (l, f) = formLock.withLock { (forms.lean, forms.full) }
        return 128 + polygon.byteCount + (l?.byteCount ?? leanEstimate) + (f?.byteCount ?? 0)
    }

    /// Builds a shape from outline calls in the shape's units, flattening curves within `tolerance` of
    /// those units.
    ///
    /// - Parameters:
    ///   - tolerance: the largest Hausdorff distance allowed between a curve and its polyline, shape units
    ///     (finite, > 0); segments grow as 1/√tolerance. An outline without curves is exact whatever it is.
    ///   - fillRule: which winding numbers are ink.
    ///   - limits: bounds on the shape's edges, grid and bytes.
    ///   - fastDistance: how far around the outline's box distance queries are answered from precomputed
    ///     lists once the shape has its full form, shape units (default: 30 % of the box's longer side);
    ///     farther points are still exact, only slower.
    ///   - draw: draws the outline into the sink, in shape units.
    /// - Throws: `ShapeError.invalidTolerance` for a tolerance that is not finite and > 0,
    ///   `.nonFiniteCoordinate` when the outline has NaN/∞ points, `.toleranceNotMet` when a curve would
    ///   need more than `Flattening.maxSegmentsPerCurve` segments, `.tooManyEdges` / `.tooLarge` beyond
    ///   `limits` (checked before the work: a curve's segments are counted from its control points),
    ///   `.coordinateOutOfRange` beyond `Float`'s range, `.timeLimit` past `BuildDeadline.current`.
    public convenience init(tolerance: Double, fillRule: FillRule = .nonZero, limits: ShapeLimits = .default,
                            fastDistance: Double? = nil, outline draw: (inout Sink) -> Void) throws(ShapeError) {
        guard tolerance.isFinite, tolerance > 0 else { throw .invalidTolerance(tolerance) }
        var sink = Sink(tolerance: tolerance, maxEdges: limits.maxEdges)
        draw(&sink)
        WorkMeter.count(sink.made, .outlinePoints)
        let (verts, contours, achieved) = try sink.finish()
        try self.init(verts: verts, contours: contours, tolerance: achieved, fillRule: fillRule, limits: limits,
                      fastDistance: fastDistance)
    }

    /// Builds a shape from an outline already drawn into `sink` (`Sink.init(tolerance:limits:)`), flattened at
    /// the sink's tolerance: for a caller that draws where the outline lives (under a font's lock, say) and
    /// builds the shape afterwards.
    ///
    /// - Throws: as `init(tolerance:fillRule:limits:fastDistance:outline:)`.
    public convenience init(drawn sink: GlyphShape.Sink, fillRule: FillRule = .nonZero, limits: ShapeLimits = .default,
                            fastDistance: Double? = nil) throws(ShapeError) {
        guard sink.tolerance.isFinite, sink.tolerance > 0 else { throw .invalidTolerance(sink.tolerance) }
        var s = sink
        WorkMeter.count(s.made, .outlinePoints)
        let (verts, contours, achieved) = try s.finish()
        try self.init(verts: verts, contours: contours, tolerance: achieved, fillRule: fillRule, limits: limits,
                      fastDistance: fastDistance)
    }

    /// Builds a shape from outline calls for placements whose largest scale (view px per shape unit) is at
    /// most `maxScale`: curves are flattened at `viewTolerance / maxScale` shape units, so every placement
    /// meets `viewTolerance` view px, the default of `HitIndex.Builder`.
    ///
    /// - Parameters:
    ///   - viewTolerance: the Hausdorff bound wanted in view px (finite, > 0).
    ///   - maxScale: the largest singular value of any transform the shape will be placed with (1 when the
    ///     outline is already in view px).
    ///   - fillRule: which winding numbers are ink.
    ///   - limits: bounds on the shape's edges, grid and bytes.
    ///   - fastDistancePx: view px around the outline's box within which distance queries (touch radii) are
    ///     answered from precomputed lists once the shape has its full form, at `maxScale`.
    ///   - draw: draws the outline into the sink, in shape units.
    /// - Throws: as `init(tolerance:fillRule:limits:fastDistance:outline:)`; `.invalidTolerance` also when
    ///   `viewTolerance / maxScale` is not a positive normal number.
    public convenience init(viewTolerance: Double = HitIndex.defaultTolerance, maxScale: Double = 1,
                            fillRule: FillRule = .nonZero, limits: ShapeLimits = .default, fastDistancePx: Double = 4,
                            outline draw: (inout Sink) -> Void) throws(ShapeError) {
        let t = viewTolerance / maxScale
        guard viewTolerance.isFinite, viewTolerance > 0, t.isNormal, t > 0 else { throw .invalidTolerance(t) }
        let fast = fastDistancePx.isFinite && fastDistancePx >= 0 ? fastDistancePx / maxScale : nil
        try self.init(tolerance: t, fillRule: fillRule, limits: limits, fastDistance: fast, outline: draw)
    }

    /// Builds a shape from recorded elements, flattening curves within `tolerance` (in the elements' units);
    /// see `init(tolerance:fillRule:limits:fastDistance:outline:)`.
    public convenience init(elements: some Sequence<PathElement>, tolerance: Double, fillRule: FillRule = .nonZero,
                            limits: ShapeLimits = .default, fastDistance: Double? = nil) throws(ShapeError) {
        try self.init(tolerance: tolerance, fillRule: fillRule, limits: limits, fastDistance: fastDistance) { sink in
            elements.replay(into: &sink)
        }
    }

    /// Builds a shape from a polygon taken as is; `tolerance` records how far it is from the true outline,
    /// in the polygon's units (0 when the polygon *is* the shape).
    ///
    /// - Throws: `ShapeError.nonFiniteCoordinate`, `.coordinateOutOfRange`, `.tooManyEdges`, `.tooLarge`,
    ///   `.invalidTolerance` (negative or non-finite), `.timeLimit`.
    public convenience init(polygon: Polygon, tolerance: Double = 0, fillRule: FillRule = .nonZero,
                            limits: ShapeLimits = .default, fastDistance: Double? = nil) throws(ShapeError) {
        guard tolerance.isFinite, tolerance >= 0 else { throw .invalidTolerance(tolerance) }
        var points = 0
        for c in polygon.contours where c.count >= 2 { points += c.count }
        WorkMeter.count(points, .outlinePoints)
        guard points <= limits.maxEdges else { throw .tooManyEdges(limit: limits.maxEdges) }
        var sink = Sink(tolerance: 1, maxEdges: limits.maxEdges)
        for c in polygon.contours where c.count >= 2 {
            guard c.allSatisfy(\.isFinite) else { throw .nonFiniteCoordinate }
            sink.move(to: c[0])
            for p in c.dropFirst() { sink.addLine(to: p) }
            sink.closeSubpath()
        }
        let (verts, contours, _) = try sink.finish()
        try self.init(verts: verts, contours: contours, tolerance: tolerance, fillRule: fillRule, limits: limits,
                      fastDistance: fastDistance)
    }

    /// The designated initializer: a shape of `Float` vertices (contours closed by a copy of their first
    /// vertex, starting at `contours`); its forms are built when an index (or its own first query) needs them.
    private init(verts: [Float], contours: [UInt32], tolerance: Double, fillRule: FillRule, limits: ShapeLimits,
                 fastDistance: Double?) throws(ShapeError) {
        polygon = try PolygonStore(verts: verts, contourStarts: contours, limits: limits)
        leanEstimate = LeanForm.estimatedBytes(of: polygon, limits: limits)
        guard polygon.byteCount + leanEstimate <= limits.maxBytes else { throw .tooLarge(limit: limits.maxBytes) }
        self.tolerance = tolerance
        self.fillRule = fillRule
        self.bounds = polygon.bounds
        self.limits = limits
        self.fastDistance = fastDistance
    }

    /// The polygon edges as stored, in the shape's units. For tests and oracles.
    public var storedEdges: [Segment] {
        polygon.edges.map { Segment(Point(Double($0.x0), Double($0.y0)), Point(Double($0.x1), Double($0.y1))) }
    }

    /// An SVG path string of the stored polygon, in the shape's units (one subpath per contour).
    public var svgPath: String {
        var s = SVGPathSink(decimals: 2)
        let v = polygon.verts, c = polygon.contours
        for k in 0..<(c.count - 1) {
            let lo = Int(c[k]), hi = Int(c[k + 1]) - 1
            s.move(to: Point(Double(v[2 * lo]), Double(v[2 * lo + 1])))
            for i in (lo + 1)..<hi { s.addLine(to: Point(Double(v[2 * i]), Double(v[2 * i + 1]))) }
            s.closeSubpath()
        }
        return s.path
    }
}
