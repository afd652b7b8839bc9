import InkGeometry

/// A shape's full form: a finer winding grid whose crossing lists hold copies of the edges (in canonical
/// direction, with the reference point's side), a distance grid grown around the box with a lower bound per
/// cell and near lists per 2×2 block (every edge that can be nearest to a point of the block, sorted), every
/// edge prepared for distance queries, and the raster stamps of the indexes that place it.
///
/// It is built for shapes that come back (the form choice, `ShapeForms.whenReused`): its build costs a few times
/// a lean one and its storage ten times, and it answers touch radii several times faster.
final class FullForm: @unchecked Sendable {
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

    /// Bytes of the form's storage (not the stamps, which `StampCache` bounds).
    var byteCount: Int { arena.byteCount + 160 }

    /// The full form of the polygon `list` (shape units, `FEdge`s in polygon order).
    init(edges list: [FEdge], limits: ShapeLimits, fastDistance: Double?) throws(ShapeError) {
        let built = try FullBuilder(edges: list, limits: limits, margin: fastDistance).build()
        grid = built.grid

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
}
