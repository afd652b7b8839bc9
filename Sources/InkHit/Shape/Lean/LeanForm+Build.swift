import InkGeometry

/// Builds a `LeanForm` from vertices in one walk over the edges: each edge is walked through the rows of cells
/// it meets, giving its cells in each row (the crossing lists) and its crossing of each row's centre line (the
/// reference windings, `Windings`). Bounded before it allocates the form: the edge count and the lists' length
/// are known before the form's arena is made, and checked against the limits.
struct LeanBuilder {
    let polygon: PolygonStore
    let limits: ShapeLimits
    /// One cell over the whole box (every edge in its list): the form a build falls back to when the grid
    /// would pass the limits or the deadline — always within the shape's budget, exact, only slower.
    var singleCell = false

    func build() throws(ShapeError) -> LeanForm {
        let vertexCount = polygon.verts.count / 2
        let edgeCount = polygon.edgeCount
        var g = Self.grid(polygon.bounds, edgeCount: edgeCount, limits: limits)
        if singleCell { g.wx = 1; g.wy = 1; g.cell = max(polygon.bounds.width, polygon.bounds.height, g.cell) * (1 + 1e-9) }
        let cellCount = g.wx * g.wy
        var walk = EdgeWalk(g: g, edges: edgeCount)
        // The cell lists may hold at most what the shape's bytes allow (4 bytes an entry; a single cell holds
        // each edge once): the walk stops past that, before it allocates more.
        let walked = walk.run(UnsafePointer(polygon.verts.baseAddress!),
                              UnsafeBufferPointer(rebasing: polygon.contours[0..<(polygon.contours.count - 1)]),
                              vertexCount: vertexCount, checksDeadline: !singleCell,
                              maxPairs: singleCell ? Int.max : limits.maxBytes / 4)
        switch walked {
        case .done: break
        case .timedOut: throw .timeLimit
        case .tooManyPairs: throw .tooLarge(limit: limits.maxBytes)
        }
        let entries = walk.pairs.count
        if !singleCell {
            let bytes = (cellCount + 1) * MemoryLayout<HotCell>.stride + entries * 4 + vertexCount * 8 + 3 * 64
            guard bytes <= limits.maxBytes else { throw .tooLarge(limit: limits.maxBytes) }
            if BuildDeadline.hasPassed { throw .timeLimit }
        }

        var layout = Arena.Layout()
        let hotSlot = layout.reserve(HotCell.self, count: cellCount + 1, alignment: 64)
        let crossSlot = layout.reserve(UInt32.self, count: entries)
        let arena = Arena(layout)
        let hot = arena.buffer(hotSlot)
        let cross = arena.buffer(crossSlot)
        walk.sortPairs(into: hot, cross)
        try Windings(verts: UnsafeBufferPointer(polygon.verts), hot: hot, cross: UnsafeBufferPointer(cross), g: g,
                     checksDeadline: !singleCell).assign(walk)
        return LeanForm(arena: arena, hot: hot, cross: cross, grid: g)
    }

    /// The winding grid over `bounds`: n ≈ density·√edges cells along the longer side, a cell more for the
    /// far edge (floor indexing), within the per-axis limit.
    static func grid(_ bounds: Rect, edgeCount: Int, limits: ShapeLimits) -> LeanGrid {
        guard edgeCount > 0 else { return LeanGrid(originX: 0, originY: 0, cell: 1, wx: 1, wy: 1) }
        let size = max(bounds.width, bounds.height)
        let avail = limits.maxCellsPerAxis
        let n = max(1, min(avail - 1, Int((Double(edgeCount).squareRoot() * LeanForm.density).rounded(.up))))
        var cell = size / Double(n)
        if !(cell > 0) || !cell.isFinite { cell = max(abs(bounds.minX), abs(bounds.minY), 1) * 1e-3 }
        let wx = min(avail, Int((bounds.width / cell).rounded(.down)) + 1)
        let wy = min(avail, Int((bounds.height / cell).rounded(.down)) + 1)
        return LeanGrid(originX: bounds.minX, originY: bounds.minY, cell: cell, wx: wx, wy: wy)
    }
}

/// The lean winding grid's geometry (shape units).
struct LeanGrid {
    var originX: Double, originY: Double, cell: Double, wx: Int, wy: Int
    /// Growth of a cell against rounding, in cells: 1e-6 of a cell and 1e-13 of the largest coordinate.
    var eps: Double {
        let m = max(abs(originX), abs(originY), abs(originX + Double(wx) * cell), abs(originY + Double(wy) * cell))
        return 1e-6 + 1e-13 * m / cell
    }
    /// y of row j's centre line, as a reference point stores it.
    @inline(__always) func rowY(_ j: Int) -> Double { Double(Float(originY + (Double(j) + 0.5) * cell)) }
    /// x of column i's centres, as a reference point stores it.
    @inline(__always) func columnX(_ i: Int) -> Double { Double(Float(originX + (Double(i) + 0.5) * cell)) }
}
