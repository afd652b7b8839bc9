import InkGeometry

/// A shape's lean form: the coarse winding grid over its polygon's box, built by the first index that reads the
/// shape (or the shape's own first query), sized and built like a glyph's first sight should be (a few KiB and
/// a few µs for a CJK ideograph at text sizes).
///
/// - About ½ √edges cells a side: per cell a reference point away from the cell's edges, the winding number
///   there, and the start vertices of the edges that meet the cell (CSR). The winding number of a point is its
///   cell's plus the signed crossings of the segment from the reference point to it with the cell's edges, as
///   in the full form.
/// - Distances search the grid's cells in rings around the point, nearest first, until no ring can hold a
///   nearer edge: exact, with no per-shape distance structure.
///
/// A shape that is placed again (a second index) also gets its full form (`FullForm`), whose near lists answer
/// touch radii faster; see `GlyphShape`.
final class LeanForm: @unchecked Sendable {
    private let arena: Arena
    /// Winding cells, `wx × wy`, row by row, and a sentinel whose `crossStart` ends the last list.
    let hot: UnsafeMutableBufferPointer<HotCell>
    /// Crossing lists: the start vertex of each edge meeting a cell.
    let cross: UnsafeMutableBufferPointer<UInt32>
    /// The winding grid: cell (i, j) spans `origin + (i, j) · cellSize` … `+ cellSize`; the origin is the box's
    /// corner.
    let originX: Double, originY: Double, cellSize: Double, invCell: Double
    let wx: Int, wy: Int

    /// Cells per √edge along the box's longer side: a coarse grid (a few edges a cell) keeps the form small.
    static let density = 0.5

    /// Bytes of the form.
    var byteCount: Int { arena.byteCount + 64 }

    init(arena: Arena, hot: UnsafeMutableBufferPointer<HotCell>, cross: UnsafeMutableBufferPointer<UInt32>,
         grid: LeanGrid) {
        self.arena = arena; self.hot = hot; self.cross = cross
        originX = grid.originX; originY = grid.originY; cellSize = grid.cell; invCell = 1 / grid.cell
        wx = grid.wx; wy = grid.wy
    }

    /// About what the form of `polygon` will take: for budgets counted before it is built.
    static func estimatedBytes(of polygon: PolygonStore, limits: ShapeLimits) -> Int {
        let g = LeanBuilder.grid(polygon.bounds, edgeCount: polygon.edgeCount, limits: limits)
        return (g.wx * g.wy + 1) * MemoryLayout<HotCell>.stride + 3 * polygon.edgeCount * 4 + 64 + 64
    }
}
