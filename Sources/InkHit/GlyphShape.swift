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
    /// What the full form is built with.
    private let limits: ShapeLimits
    private let fastDistance: Double?
    /// Guards `full`, `builds` and `fullFailed` (one of a few locks shared by all shapes: a lock per shape
    /// would cost an allocation per glyph, and promotions are rare).
    private var promotionLock: Lock { GlyphShape.promotionLocks[Int(bitPattern: UInt(bitPattern: ObjectIdentifier(self).hashValue) &>> 6) & 63] }
    private static let promotionLocks = (0..<64).map { _ in Lock() }
    /// The lean form (`LeanForm`), built by the first index that reads it (or the shape's own first query).
    private var lean: LeanForm?
    /// What `byteCount` counts for the lean form before it is built (budgets see it from the start).
    private let leanEstimate: Int
    /// The full form (`FullForm`), built when the shape is placed by its second index.
    private var full: FullForm?
    /// Index builds that placed this shape so far.
    private var builds = 0
    private var fullFailed = false
    /// The cache holding this shape, told the bytes of its full form when it gains one.
    private var ledger: ShapeLedger?

    /// Bytes of storage this shape holds: its polygon, its lean form (counted from the start, as estimated
    /// until an index builds it) and, once it has one, its full form (not the raster stamps cached for
    /// indexes, which `StampCache` bounds).
    public var byteCount: Int {
        let (l, f) = promotionLock.withLock { (lean, full) }
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
    /// vertex, starting at `contours`), with its lean form.
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

// MARK: - Promotion

extension GlyphShape {
    /// The form an index build should read, counting the build: a shape's first index reads its lean form,
    /// built then if it has none; from its second on, the shape is worth its full form, which is built then.
    /// Both are built once, under the shape's lock (concurrent builds wait rather than build twice), and read by
    /// every later index. Shapes without edges, and shapes whose full form cannot be built within their limits,
    /// keep the lean form. Never called on the query path.
    func formForBuild(_ forms: ShapeForms = .whenReused) -> ShapeForm {
        // Decide under the lock; build outside it (a form of a big shape takes a while, and the lock is shared
        // by other shapes); publish under it. Two builds racing on one shape may both build a form: the first
        // published wins, the other is dropped.
        let (wantFull, current) = promotionLock.withLock { () -> (Bool, ShapeForm?) in
            builds += 1
            let wantFull = forms != .lean && full == nil && !fullFailed && (builds >= 2 || forms == .full)
                && polygon.edgeCount > 0
            if forms != .lean, let full { return (false, .full(full)) }
            if !wantFull, let lean { return (false, .lean(lean)) }
            return (wantFull, nil)
        }
        if let current { return current }
        if wantFull {
            let built: FullForm?
            do throws(ShapeError) { built = try FullForm(edges: polygon.edges, limits: limits, fastDistance: fastDistance) }
            catch { built = nil }
            let published = promotionLock.withLock { () -> FullForm? in
                if full == nil, let built {
                    full = built
                    ledger?.add(built.byteCount)
                } else if built == nil {
                    fullFailed = true
                }
                return full
            }
            if let published { return .full(published) }
        }
        return .lean(leanForm())
    }

    /// The lean form, built if the shape has none yet (outside the lock, published under it). A grid beyond the
    /// shape's limits, or past the build's deadline, falls back to a single cell: exact, slower to query,
    /// never larger than the budget the shape was made within.
    func leanForm() -> LeanForm {
        if let lean = promotionLock.withLock({ lean }) { return lean }
        let built: LeanForm
        do throws(ShapeError) {
            built = try LeanBuilder(polygon: polygon, limits: limits).build()
        } catch {
            built = (try? LeanBuilder(polygon: polygon, limits: limits, singleCell: true).build())
                ?? { preconditionFailure("a single-cell lean form is built whatever the limits and the time") }()
        }
        return promotionLock.withLock {
            if let lean { return lean }
            lean = built
            ledger?.add(built.byteCount - leanEstimate)
            return built
        }
    }

    /// The form the shape's own queries read (`contains`, `distance(to:)`): the full one if it has it, else the
    /// lean one, built on the first such query.
    var queryForm: ShapeForm {
        if let full = promotionLock.withLock({ full }) { return .full(full) }
        return .lean(leanForm())
    }

    /// The full form if the shape has one.
    var currentFull: FullForm? { promotionLock.withLock { full } }

    /// Not API: gives the shape its full form now, as a second index would. For tests and benchmarks that
    /// compare the two forms.
    @_spi(InkInternals) public func promote() { _ = formForBuild(.full) }

    /// Not API: whether the shape has its full form.
    @_spi(InkInternals) public var hasFullForm: Bool { currentFull != nil }

    /// Not API: whether the shape has its lean form (built by its first index).
    @_spi(InkInternals) public var hasLeanForm: Bool { promotionLock.withLock { lean != nil } }

    /// Not API: makes the shape report the bytes of a full form it gains to `ledger` (nil: to nobody). A
    /// `ShapeCache` calls it when it stores and when it evicts the shape.
    @usableFromInline func report(to ledger: ShapeLedger?) {
        promotionLock.withLock { self.ledger = ledger }
    }

}

/// The form of a shape an index reads.
enum ShapeForm {
    case lean(LeanForm)
    case full(FullForm)
}

/// Bytes of full forms gained by the shapes of one cache since it last looked (`ShapeCache`): shapes add,
/// the cache takes.
@usableFromInline final class ShapeLedger: @unchecked Sendable {
    private let lock = Lock()
    private var pending = 0
    @usableFromInline init() {}
    func add(_ n: Int) { lock.withLock { pending += n } }
    @usableFromInline func take() -> Int { lock.withLock { defer { pending = 0 }; return pending } }
}

/// Limits on the work and memory one shape may take. Exceeding one is a typed error, never a crash.
public struct ShapeLimits: Sendable, Hashable {
    /// Most polygon edges (after flattening) per shape.
    public var maxEdges: Int
    /// Most grid cells along one axis of a shape's grid.
    public var maxCellsPerAxis: Int
    /// Most bytes one shape's storage may take (edges, grid, crossing and near lists).
    public var maxBytes: Int
    /// `maxCellsPerAxis` is clamped to 2...1024 (a grid needs two cells to cover a glyph box), `maxEdges`
    /// to 0...2³¹ − 1 (edge and list indices are 32-bit).
    public init(maxEdges: Int = 1_000_000, maxCellsPerAxis: Int = 192, maxBytes: Int = 256 << 20) {
        self.maxEdges = max(0, min(maxEdges, Int(Int32.max)))
        self.maxCellsPerAxis = max(2, min(maxCellsPerAxis, 1024))
        self.maxBytes = max(0, maxBytes)
    }
    /// 1,000,000 edges, 192 cells per axis, 256 MiB.
    public static let `default` = ShapeLimits()
}

/// Why a shape could not be built.
public enum ShapeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The flattening tolerance (shape units) is not finite and > 0.
    case invalidTolerance(Double)
    /// An outline point is NaN or infinite.
    case nonFiniteCoordinate
    /// An outline coordinate does not fit a 32-bit float.
    case coordinateOutOfRange
    /// This many curves would need more than `Flattening.maxSegmentsPerCurve` segments.
    case toleranceNotMet(curves: Int)
    /// The outline has more edges than `ShapeLimits.maxEdges` after flattening.
    case tooManyEdges(limit: Int)
    /// The shape's storage would exceed `ShapeLimits.maxBytes`.
    case tooLarge(limit: Int)
    /// The build passed the time limit of `BuildDeadline` and gave up.
    case timeLimit

    /// A sentence for a user.
    public var description: String {
        switch self {
        case .invalidTolerance(let t): return "flattening tolerance must be finite and > 0 (got \(t))"
        case .nonFiniteCoordinate: return "outline has a NaN or infinite coordinate"
        case .coordinateOutOfRange: return "outline coordinate does not fit a 32-bit float"
        case .toleranceNotMet(let n):
            return "\(n) curve(s) would need more than \(Flattening.maxSegmentsPerCurve) segments to meet the tolerance"
        case .tooManyEdges(let l): return "outline has more than \(l) edges after flattening"
        case .tooLarge(let l): return "the shape's grid would take more than \(l) bytes (ShapeLimits.maxBytes)"
        case .timeLimit: return "the shape's build passed its time limit"
        }
    }
}

/// A stored edge, shape units.
struct FEdge: Sendable {
    var x0: Float, y0: Float, x1: Float, y1: Float
}

/// An edge of a winding cell's crossing list, in canonical direction (smaller x first, then smaller y, so an
/// edge and its reverse make exactly opposite decisions), with what the cell's reference point makes
/// constant: the edge's original direction (`sign`) and the side of the edge line the reference point is on.
struct CrossEdge: Sendable {
    var ax: Float, ay: Float, bx: Float, by: Float
    /// +1 when the edge runs a → b as stored in the polygon, −1 when it was reversed.
    var sign: Int16
    /// 1 when the reference point lies strictly left of a → b (cross product > 0), else 0.
    var refLeft: Int16

    init(_ e: FEdge, refX rx: Double, refY ry: Double) {
        var ax = e.x0, ay = e.y0, bx = e.x1, by = e.y1
        sign = 1
        if ax > bx || (ax == bx && ay > by) { swap(&ax, &bx); swap(&ay, &by); sign = -1 }
        self.ax = ax; self.ay = ay; self.bx = bx; self.by = by
        let ex = Double(bx) - Double(ax), ey = Double(by) - Double(ay)
        refLeft = ex * (ry - Double(ay)) - ey * (rx - Double(ax)) > 0 ? 1 : 0
    }
}

/// An edge prepared for distance queries: start, direction and 1/|direction|² (no division per query).
struct NearEdge: Sendable {
    var ax: Float, ay: Float, ex: Float, ey: Float, invLen2: Float
    init(_ e: FEdge) {
        ax = e.x0; ay = e.y0
        ex = e.x1 - e.x0; ey = e.y1 - e.y0
        let l2 = Double(ex) * Double(ex) + Double(ey) * Double(ey)
        let inv = Float(1 / l2)
        // Edges so long that 1/length² is not a normal Float (beyond ~1e19 units) divide at query time.
        invLen2 = (l2 > 0 && inv.isNormal) ? inv : -1
    }
}

/// A near-list entry: an edge of `prepared` and (a hair less than) its distance from the centre of the
/// 2×2 block of cells the list belongs to — the corner shared by the block's four cells. For a point p,
/// `centerDistance − |p − centre|` is a lower bound on the edge's distance from p.
struct NearRef: Sendable {
    var edge: UInt32
    var centerDistance: Float
}

/// One grid cell of a shape.
struct ShapeCell: Sendable {
    /// Reference point (boundary cells): a point of the cell, away from every edge, whose winding is `winding`.
    var refX: Float = 0, refY: Float = 0
    var crossStart: UInt32 = 0
    var nearStart: UInt32 = 0
    /// Lower bound on the distance from any point of the cell to the outline (0 for boundary cells).
    var lower: Float = 0
    var crossCount: UInt32 = 0
    var nearCount: UInt32 = 0
    /// Winding number at the reference point (boundary cells) or of the whole cell (others).
    var winding: Int32 = 0
    /// 0 = no edge meets the cell, 1 = edges meet the cell.
    var isBoundary: Bool = false
    /// True when `near` lists every edge that can be nearest to a point of the cell.
    var hasNear: Bool = false
}

/// The part of a cell the winding test reads (16 bytes).
struct HotCell: Sendable {
    var refX: Float, refY: Float
    var crossStart: UInt32
    var winding: Int32
}

/// The part of a cell distance queries read.
struct ColdCell: Sendable {
    var nearStart: UInt32, nearEnd: UInt32
    var lower: Float
    var hasNear: Bool
}

/// Geometry of a shape's grid (shape units).
struct ShapeGrid: Sendable {
    var originX: Double = 0, originY: Double = 0
    var cellSize: Double = 1
    var invCell: Double = 1
    var nx: Int = 0, ny: Int = 0
    /// Margin in cells on every side of the glyph box; the winding grid is the `wx × wy` cells starting
    /// at cell (margin, margin), i.e. at `winding origin = origin + margin * cellSize`.
    var margin: Int = 0
    var wx: Int = 0, wy: Int = 0
    /// The winding grid's corner: exactly the glyph box's (the lean form's too, so a placement's anchor, and
    /// with it every point mapped into the shape, is the same whichever form an index reads); `origin` is it
    /// moved out by the margin, to within rounding.
    var windingOriginX: Double = 0, windingOriginY: Double = 0
}

extension GlyphShape {
    /// Not API: the lean form's winding grid (cells per axis) and its crossing-list entries. For benchmarks.
    @_spi(InkInternals) public var leanGridStats: (wx: Int, wy: Int, entries: Int) {
        let l = leanForm()
        return (l.wx, l.wy, l.cross.count)
    }
}
