import InkGeometry

/// One flattened glyph outline in its own units (font units, y-up for FreeType glyphs), with a small
/// uniform grid that answers "inside?" and "how far from the outline?" by looking at a few edges.
///
/// A shape is built once per (font, glyph, tolerance class) and shared by every placement of that glyph,
/// in any number of indexes. It is immutable and `Sendable`.
///
/// # Guarantees
/// - `tolerance` is the Hausdorff distance, in the shape's units, between the source outline and the
///   polygon the shape answers for (0 for a polygon taken as is). Placed with a transform whose largest
///   scale is `s`, answers are exact for the true outline at every view point farther than
///   `tolerance * s` from it.
/// - Edge coordinates are finite and stored as `Float`; every answer is computed from those stored edges,
///   in `Double`.
/// - Fill rule: nonzero winding over all contours (overlapping contours are normal).
public final class GlyphShape: @unchecked Sendable {
    /// Hausdorff bound of the flattening, in the shape's units.
    public let tolerance: Double
    /// Bounds of the polygon (the ink), in the shape's units. Empty for a shape without edges.
    public let bounds: Rect
    /// Number of polygon edges.
    public var edgeCount: Int { edges.count }

    // Storage, owned (allocated in init, freed in deinit), so raw views stay valid for the object's life.
    let edges: UnsafeMutableBufferPointer<FEdge>
    /// Winding data per cell (+1 sentinel whose `crossStart` ends the last cell's list): 16 bytes a cell.
    let hot: UnsafeMutableBufferPointer<HotCell>
    /// Distance data per cell.
    let cold: UnsafeMutableBufferPointer<ColdCell>
    let crossEdges: UnsafeMutableBufferPointer<FEdge>
    /// Near lists: references into `prepared`, sorted per cell by their lower bound.
    let nearEdges: UnsafeMutableBufferPointer<NearRef>
    /// Every edge prepared for distance queries (start, direction, 1/|direction|²).
    let prepared: UnsafeMutableBufferPointer<NearEdge>
    let grid: ShapeGrid

    /// Bytes of storage this shape holds (edges, grid cells and their lists).
    public var byteCount: Int {
        MemoryLayout<FEdge>.stride * (edges.count + crossEdges.count) + MemoryLayout<NearRef>.stride * nearEdges.count
            + MemoryLayout<NearEdge>.stride * prepared.count
            + MemoryLayout<HotCell>.stride * hot.count + MemoryLayout<ColdCell>.stride * cold.count
    }

    /// Builds a shape from an outline stream by flattening it at `tolerance` (in the outline's units).
    ///
    /// - Throws: `ShapeError.invalidTolerance` for a tolerance that is not finite and > 0,
    ///   `ShapeError.nonFiniteCoordinate` when the outline has NaN/∞ points,
    ///   `ShapeError.toleranceNotMet` when a curve would need more than `Flattening.maxSegmentsPerCurve` segments,
    ///   `ShapeError.tooManyEdges` beyond `limits.maxEdges`.
    public convenience init(
        tolerance: Double, limits: ShapeLimits = .default, margin: Double? = nil,
        outline draw: (inout FlatteningSink<NormalizingSink<PolygonSink>>) throws -> Void
    ) throws {
        guard tolerance.isFinite, tolerance > 0 else { throw ShapeError.invalidTolerance(tolerance) }
        var sink = FlatteningSink(NormalizingSink(PolygonSink()), tolerance: tolerance)
        try draw(&sink)
        sink.base.finish()
        if sink.base.droppedNonFinite > 0 { throw ShapeError.nonFiniteCoordinate }
        if sink.cappedCurves > 0 { throw ShapeError.toleranceNotMet(curves: sink.cappedCurves) }
        try self.init(polygon: sink.base.base.result, tolerance: tolerance, limits: limits, margin: margin)
    }

    /// Builds a shape from recorded elements, flattening curves at `tolerance` (in the elements' units).
    public convenience init(elements: [PathElement], tolerance: Double, limits: ShapeLimits = .default,
                            margin: Double? = nil) throws {
        try self.init(tolerance: tolerance, limits: limits, margin: margin) { sink in elements.replay(into: &sink) }
    }

    /// Builds a shape from a polygon taken as is (`tolerance` records how far it is from the true outline,
    /// in the polygon's units; 0 if the polygon *is* the shape).
    ///
    /// - Throws: `ShapeError.nonFiniteCoordinate`, `ShapeError.tooManyEdges`, `ShapeError.invalidTolerance`.
    ///
    /// `margin` (shape units): how far around the glyph box distance queries are fast (precomputed near
    /// lists); farther points are still exact, only slower. Default: 30 % of the box's longer side.
    public init(polygon: Polygon, tolerance: Double = 0, limits: ShapeLimits = .default, margin: Double? = nil) throws {
        guard tolerance.isFinite, tolerance >= 0 else { throw ShapeError.invalidTolerance(tolerance) }
        var list: [FEdge] = []
        for c in polygon.contours where c.count >= 2 {
            for i in 0..<c.count {
                let a = c[i], b = c[(i + 1) % c.count]
                guard a.isFinite, b.isFinite else { throw ShapeError.nonFiniteCoordinate }
                let e = FEdge(x0: Float(a.x), y0: Float(a.y), x1: Float(b.x), y1: Float(b.y))
                guard e.x0.isFinite, e.y0.isFinite, e.x1.isFinite, e.y1.isFinite else {
                    throw ShapeError.coordinateOutOfRange
                }
                if e.x0 == e.x1 && e.y0 == e.y1 { continue }
                list.append(e)
                if list.count > limits.maxEdges { throw ShapeError.tooManyEdges(limit: limits.maxEdges) }
            }
        }
        self.tolerance = tolerance
        let built = try ShapeGridBuilder(edges: list, limits: limits, margin: margin).build()
        self.bounds = built.bounds
        self.grid = built.grid
        self.edges = .allocate(capacity: list.count)
        _ = self.edges.initialize(from: list)
        // Winding cells cover the glyph box only (the margin is for distances); their crossing lists are
        // re-packed in winding-grid order.
        var hotCells: [HotCell] = []
        var packed: [FEdge] = []
        let g = built.grid
        hotCells.reserveCapacity(g.wx * g.wy + 1)
        for j in 0..<g.wy {
            for i in 0..<g.wx {
                let c = built.cells[(j + g.margin) * g.nx + i + g.margin]
                hotCells.append(HotCell(refX: c.refX, refY: c.refY, crossStart: UInt32(packed.count), winding: c.winding))
                let lo = Int(c.crossStart)
                packed.append(contentsOf: built.crossEdges[lo..<(lo + Int(c.crossCount))])
            }
        }
        hotCells.append(HotCell(refX: 0, refY: 0, crossStart: UInt32(packed.count), winding: 0))
        self.hot = .allocate(capacity: hotCells.count)
        _ = self.hot.initialize(from: hotCells)
        self.cold = .allocate(capacity: max(1, built.cells.count))
        _ = self.cold.initialize(from: built.cells.map {
            ColdCell(nearStart: $0.nearStart, nearEnd: $0.nearStart + ($0.hasNear ? $0.nearCount : 0),
                     lower: $0.lower, hasNear: $0.hasNear)
        })
        self.crossEdges = .allocate(capacity: max(1, packed.count))
        _ = self.crossEdges.initialize(from: packed)
        self.nearEdges = .allocate(capacity: max(1, built.nearEdges.count))
        _ = self.nearEdges.initialize(from: built.nearEdges)
        self.prepared = .allocate(capacity: max(1, list.count))
        _ = self.prepared.initialize(from: list.map { NearEdge($0) })
    }

    deinit {
        edges.deallocate(); hot.deallocate(); cold.deallocate(); crossEdges.deallocate(); nearEdges.deallocate(); prepared.deallocate()
    }

    /// The polygon edges as stored (start, end), in the shape's units. For tests and oracles.
    public var storedEdges: [(Point, Point)] {
        edges.map { (Point(Double($0.x0), Double($0.y0)), Point(Double($0.x1), Double($0.y1))) }
    }

    /// An SVG path string of the stored polygon (each edge `M … L …` merged into contours).
    public var svgPath: String {
        var s = SVGPathSink(decimals: 2)
        var last: Point? = nil
        var start: Point? = nil
        for (a, b) in storedEdges {
            if last != a {
                if start != nil { s.closeSubpath() }
                s.move(to: a); start = a
            }
            s.addLine(to: b); last = b
            if b == start { s.closeSubpath(); start = nil; last = nil }
        }
        if start != nil { s.closeSubpath() }
        return s.path
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
    public static let `default` = ShapeLimits()
}

/// Why a shape could not be built.
public enum ShapeError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidTolerance(Double)
    case nonFiniteCoordinate
    case coordinateOutOfRange
    case toleranceNotMet(curves: Int)
    case tooManyEdges(limit: Int)
    case tooLarge(limit: Int)

    public var description: String {
        switch self {
        case .invalidTolerance(let t): return "flattening tolerance must be finite and > 0 (got \(t))"
        case .nonFiniteCoordinate: return "outline has a NaN or infinite coordinate"
        case .coordinateOutOfRange: return "outline coordinate does not fit a 32-bit float"
        case .toleranceNotMet(let n):
            return "\(n) curve(s) would need more than \(Flattening.maxSegmentsPerCurve) segments to meet the tolerance"
        case .tooManyEdges(let l): return "outline has more than \(l) edges after flattening"
        case .tooLarge(let l): return "the shape's grid would take more than \(l) bytes (ShapeLimits.maxBytes)"
        }
    }
}

/// A stored edge, shape units.
struct FEdge: Sendable {
    var x0: Float, y0: Float, x1: Float, y1: Float
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
