import InkGeometry

/// One flattened outline in its own units (font units, y-up, for FreeType glyphs; whatever units an
/// embedder's outlines use), with a small uniform grid that answers "inside?" and "how far from the
/// outline?" by looking at a few edges.
///
/// A shape is built once per (glyph, tolerance class) and shared by every placement of that glyph, in any
/// number of indexes. It is immutable and `Sendable`.
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
    public var edgeCount: Int { edges.count }

    // Buffers handed out by `arena` (one allocation, freed with the shape), so raw views stay valid for
    // the object's life.
    private let arena: Arena
    let edges: UnsafeMutableBufferPointer<FEdge>
    /// Winding data per winding cell (+1 sentinel whose `crossStart` ends the last cell's list): 16 bytes a cell.
    let hot: UnsafeMutableBufferPointer<HotCell>
    /// Distance data per cell of the whole grid.
    let cold: UnsafeMutableBufferPointer<ColdCell>
    let crossEdges: UnsafeMutableBufferPointer<CrossEdge>
    /// Near lists: references into `prepared`, sorted per cell by their lower bound.
    let nearEdges: UnsafeMutableBufferPointer<NearRef>
    /// Every edge prepared for distance queries (start, direction, 1/|direction|²).
    let prepared: UnsafeMutableBufferPointer<NearEdge>
    let grid: ShapeGrid
    /// The shape's footprints in page rasters (`HitIndex`'s class raster), cached per linear map: built by
    /// the first index that needs them, reused by every later one (bounded: see `StampCache`).
    let stamps = StampCache()

    /// Bytes of storage this shape holds (edges, grid cells and their lists; not the raster stamps cached
    /// for indexes, which `StampCache` bounds).
    public var byteCount: Int { arena.byteCount }

    /// Builds a shape from outline calls in the shape's units, flattening curves within `tolerance` of
    /// those units.
    ///
    /// - Parameters:
    ///   - tolerance: the largest Hausdorff distance allowed between a curve and its polyline, shape units
    ///     (finite, > 0); segments grow as 1/√tolerance. An outline without curves is exact whatever it is.
    ///   - fillRule: which winding numbers are ink.
    ///   - limits: bounds on the shape's edges, grid and bytes.
    ///   - fastDistance: how far around the outline's box distance queries are answered from precomputed
    ///     lists, shape units (default: 30 % of the box's longer side); farther points are still exact,
    ///     only slower.
    ///   - draw: draws the outline into the sink, in shape units.
    /// - Throws: `ShapeError.invalidTolerance` for a tolerance that is not finite and > 0,
    ///   `.nonFiniteCoordinate` when the outline has NaN/∞ points, `.toleranceNotMet` when a curve would
    ///   need more than `Flattening.maxSegmentsPerCurve` segments, `.tooManyEdges` / `.tooLarge` beyond
    ///   `limits`, `.coordinateOutOfRange` beyond `Float`'s range.
    public convenience init(tolerance: Double, fillRule: FillRule = .nonZero, limits: ShapeLimits = .default,
                            fastDistance: Double? = nil, outline draw: (inout Sink) -> Void) throws(ShapeError) {
        guard tolerance.isFinite, tolerance > 0 else { throw .invalidTolerance(tolerance) }
        var sink = Sink(tolerance: tolerance)
        draw(&sink)
        let (polygon, achieved) = try sink.finish()
        try self.init(polygon: polygon, tolerance: achieved, fillRule: fillRule, limits: limits, fastDistance: fastDistance)
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
    ///     answered from precomputed lists, at `maxScale`.
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
    ///   `.invalidTolerance` (negative or non-finite).
    public init(polygon: Polygon, tolerance: Double = 0, fillRule: FillRule = .nonZero, limits: ShapeLimits = .default,
                fastDistance: Double? = nil) throws(ShapeError) {
        guard tolerance.isFinite, tolerance >= 0 else { throw .invalidTolerance(tolerance) }
        let list = try Self.storedEdges(of: polygon, limits: limits)
        let built = try ShapeGridBuilder(edges: list, limits: limits, margin: fastDistance).build()
        self.tolerance = tolerance
        self.fillRule = fillRule
        self.bounds = built.bounds
        self.grid = built.grid

        // Winding cells cover the glyph box only (the margin is for distances); their crossing lists are
        // re-packed in winding-grid order.
        let g = built.grid
        var hotCells: [HotCell] = []
        var packed: [CrossEdge] = []
        hotCells.reserveCapacity(g.wx * g.wy + 1)
        packed.reserveCapacity(built.crossEdges.count)
        for j in 0..<g.wy {
            for i in 0..<g.wx {
                let c = built.cells[(j + g.margin) * g.nx + i + g.margin]
                hotCells.append(HotCell(refX: c.refX, refY: c.refY, crossStart: UInt32(packed.count), winding: c.winding))
                let lo = Int(c.crossStart)
                for e in built.crossEdges[lo..<(lo + Int(c.crossCount))] {
                    packed.append(CrossEdge(e, refX: Double(c.refX), refY: Double(c.refY)))
                }
            }
        }
        hotCells.append(HotCell(refX: 0, refY: 0, crossStart: UInt32(packed.count), winding: 0))
        let coldCells = built.cells.map {
            ColdCell(nearStart: $0.nearStart, nearEnd: $0.nearStart + ($0.hasNear ? $0.nearCount : 0),
                     lower: $0.lower, hasNear: $0.hasNear)
        }

        var layout = Arena.Layout()
        let hotSlot = layout.reserve(HotCell.self, count: hotCells.count, alignment: 64)
        let edgeSlot = layout.reserve(FEdge.self, count: list.count)
        let crossSlot = layout.reserve(CrossEdge.self, count: packed.count)
        let coldSlot = layout.reserve(ColdCell.self, count: coldCells.count)
        let nearSlot = layout.reserve(NearRef.self, count: built.nearEdges.count)
        let preparedSlot = layout.reserve(NearEdge.self, count: list.count)
        arena = Arena(layout)
        hot = arena.buffer(hotSlot, from: hotCells)
        edges = arena.buffer(edgeSlot, from: list)
        crossEdges = arena.buffer(crossSlot, from: packed)
        cold = arena.buffer(coldSlot, from: coldCells)
        nearEdges = arena.buffer(nearSlot, from: built.nearEdges)
        prepared = arena.buffer(preparedSlot, from: list.lazy.map(NearEdge.init))
    }

    /// The polygon's edges as `Float` (zero-length ones dropped), checked against `limits`.
    private static func storedEdges(of polygon: Polygon, limits: ShapeLimits) throws(ShapeError) -> [FEdge] {
        var list: [FEdge] = []
        for c in polygon.contours where c.count >= 2 {
            for i in 0..<c.count {
                let a = c[i], b = c[(i + 1) % c.count]
                guard a.isFinite, b.isFinite else { throw .nonFiniteCoordinate }
                let e = FEdge(x0: Float(a.x), y0: Float(a.y), x1: Float(b.x), y1: Float(b.y))
                guard e.x0.isFinite, e.y0.isFinite, e.x1.isFinite, e.y1.isFinite else { throw .coordinateOutOfRange }
                if e.x0 == e.x1 && e.y0 == e.y1 { continue }
                list.append(e)
                if list.count > limits.maxEdges { throw .tooManyEdges(limit: limits.maxEdges) }
            }
        }
        return list
    }

    /// The polygon edges as stored, in the shape's units. For tests and oracles.
    public var storedEdges: [Segment] {
        edges.map { Segment(Point(Double($0.x0), Double($0.y0)), Point(Double($0.x1), Double($0.y1))) }
    }

    /// An SVG path string of the stored polygon, in the shape's units (edges merged into contours).
    public var svgPath: String {
        var s = SVGPathSink(decimals: 2)
        var last: Point? = nil
        var start: Point? = nil
        for e in storedEdges {
            if last != e.start {
                if start != nil { s.closeSubpath() }
                s.move(to: e.start); start = e.start
            }
            s.addLine(to: e.end); last = e.end
            if e.end == start { s.closeSubpath(); start = nil; last = nil }
        }
        if start != nil { s.closeSubpath() }
        return s.path
    }
}

extension GlyphShape {
    /// The sink a shape's outline is drawn into: it normalizes the stream (lazy move-to, open contours
    /// closed, degenerate segments dropped) and flattens curves within the shape's tolerance.
    public struct Sink: OutlineSink {
        private var inner: FlatteningSink<NormalizingSink<PolygonSink>>

        init(tolerance: Double) { inner = FlatteningSink(NormalizingSink(PolygonSink()), tolerance: tolerance) }

        public mutating func move(to p: Point) { inner.move(to: p) }
        public mutating func addLine(to p: Point) { inner.addLine(to: p) }
        public mutating func addQuadCurve(to p: Point, control c: Point) { inner.addQuadCurve(to: p, control: c) }
        public mutating func addCurve(to p: Point, control1 c1: Point, control2 c2: Point) {
            inner.addCurve(to: p, control1: c1, control2: c2)
        }
        public mutating func closeSubpath() { inner.closeSubpath() }

        /// The polygon drawn and the Hausdorff bound its curves achieved.
        mutating func finish() throws(ShapeError) -> (Polygon, Double) {
            inner.base.finish()
            if inner.base.droppedNonFinite > 0 { throw .nonFiniteCoordinate }
            if inner.cappedCurves > 0 { throw .toleranceNotMet(curves: inner.cappedCurves) }
            return (inner.base.base.result, inner.achievedTolerance)
        }
    }
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
    var windingOriginX: Double { originX + Double(margin) * cellSize }
    var windingOriginY: Double { originY + Double(margin) * cellSize }
}
