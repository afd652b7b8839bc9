import InkGeometry

extension HitIndex {
    /// Owned, immutable storage: placement records, shape views and the page grid (CSR, each cell's
    /// placements sorted topmost first), all in one arena.
    ///
    /// Built in steps, each a type of its own file: `DistinctShapes` (the distinct shapes with ink), the form
    /// choice (`ShapeFormChoice`: which form of each the index reads, built if needed), `PlacementTable` (a
    /// record, a view box and an anchor per placement), `PageGrid` (the cell size, bounded in cells and in list
    /// entries), binning (`PageGrid.bin`: the CSR lists, and each record's cell range and anchor offset) and the
    /// class raster (`ClassRaster.build`). `@usableFromInline` for
    /// `HitIndex.unsafeHit(storage:at:radius:)` alone (the C interface's single query).
    @usableFromInline final class Storage: @unchecked Sendable {
        let tolerance: Double
        /// The radius the page grid's lists are grown by (view px): a query with r ≤ it reads its own cell only.
        let preparedRadius: Double
        let shapes: [GlyphShape]                         // keeps the shapes (and their buffers) alive
        private let arena: Arena
        /// Shape views, 64-byte aligned, read in place and never copied (they are 128 bytes).
        let viewBase: UnsafeMutablePointer<ShapeView>
        let placements: UnsafeMutableBufferPointer<PlacementRecord>
        /// The distinct linear maps of the placements (`PlacementRecord.map`).
        let maps: UnsafeMutableBufferPointer<LinearMap>
        let cellStart: UnsafeMutableBufferPointer<UInt32>
        let cellItems: UnsafeMutableBufferPointer<UInt32>
        let bounds: Rect
        let originX: Double, originY: Double, invCell: Double, cellSize: Double
        /// `PageGrid.anchorBaseX/Y`: what records' anchor offsets are relative to (with their first cell).
        let anchorBaseX: Double, anchorBaseY: Double
        let nx: Int, ny: Int
        let count: Int
        /// `2e-6 ×` the longest side of any placement's view box: the constant part of the tie window.
        let tieSlack: Double
        /// The class raster (`ClassRaster`, Raster/): one block of `rasterTileBytes` per page cell, 4 bits per
        /// raster cell; nil when the grid has none (no ink, page cells over `ClassRaster.maxTile`, or over its
        /// byte cap).
        let raster: UnsafeMutablePointer<UInt8>?
        /// Raster cells per page-cell side = 1 << rasterShift.
        let rasterShift: Int, rasterMask: Int, rasterTileBytes: Int
        /// 1 / raster cell side (view px) and the raster's size in cells.
        let invRasterCell: Double, rasterWidth: Double, rasterHeight: Double

        /// Bytes of the arena: records, views and page grid.
        var byteCount: Int { arena.byteCount }

        init(items: [Builder.Item], tolerance: Double, preparedRadius: Double, forms: ShapeForms) {
            self.tolerance = tolerance
            self.preparedRadius = preparedRadius
            self.count = items.count
            let distinct = DistinctShapes(items)
            let chosen = ShapeFormChoice.forms(of: distinct.shapes, wanted: forms)
            var table = PlacementTable(items, shapes: distinct, forms: chosen, grow: preparedRadius)
            let grid = PageGrid(table)
            let (starts, entries) = grid.bin(&table)

            var layout = Arena.Layout()
            let viewSlot = layout.reserve(ShapeView.self, count: table.shapes.count, alignment: 64)
            let recordSlot = layout.reserve(PlacementRecord.self, count: table.records.count)
            let mapSlot = layout.reserve(LinearMap.self, count: table.maps.count)
            let startSlot = layout.reserve(UInt32.self, count: starts.count)
            let itemSlot = layout.reserve(UInt32.self, count: entries.count)
            let rg = ClassRaster.geometry(grid, inked: table.inked, stamped: table.inkedFull)
            let rasterSlot = rg.map { layout.reserve(UInt8.self, count: grid.nx * grid.ny * $0.tileBytes, alignment: 64) }
            arena = Arena(layout)
            assert(MemoryLayout<ShapeView>.stride % 64 == 0, "ShapeView must stay a whole number of cache lines")
            viewBase = arena.buffer(viewSlot, from: zip(table.shapes, table.forms).map { ShapeView($0, form: $1) }).baseAddress!
            placements = arena.buffer(recordSlot, from: table.records)
            maps = arena.buffer(mapSlot, from: table.maps)
            cellStart = arena.buffer(startSlot, from: starts)
            cellItems = arena.buffer(itemSlot, from: entries)
            shapes = table.shapes
            bounds = table.bounds
            nx = grid.nx; ny = grid.ny
            cellSize = grid.cellSize; invCell = grid.invCell
            originX = grid.originX; originY = grid.originY
            anchorBaseX = grid.anchorBaseX; anchorBaseY = grid.anchorBaseY
            tieSlack = 2e-6 * table.maxExtent
            if let rg, let rasterSlot {
                let r = arena.buffer(rasterSlot).baseAddress!
                ClassRaster.build(rg, grid: grid, items: items, table: table, radius: preparedRadius,
                                  starts: starts, entries: entries, into: r)
                raster = r
                rasterShift = rg.shift; rasterMask = rg.m - 1; rasterTileBytes = rg.tileBytes
                invRasterCell = 1 / rg.cell
                rasterWidth = Double(grid.nx * rg.m); rasterHeight = Double(grid.ny * rg.m)
            } else {
                raster = nil
                rasterShift = 0; rasterMask = 0; rasterTileBytes = 0
                invRasterCell = 0; rasterWidth = 0; rasterHeight = 0
            }
        }
    }
}

/// Per-placement query record: 24 bytes.
struct PlacementRecord: Sendable {
    /// View position of the shape's anchor (its winding origin, a corner of the glyph box), relative to the
    /// corner of the placement's first page cell moved in by the prepared radius
    /// (`anchorBaseX + cellMinX * cellSize`, `anchorBaseX = originX + preparedRadius`): an offset of about the
    /// glyph's size, which Float32 keeps to ~1e-7 of it.
    var dx: Float, dy: Float
    /// Index into the index's linear maps (placements with the same linear part share one).
    var map: UInt32
    /// Index into the shape views; `UInt32.max` for a placement without ink.
    var shape: UInt32
    /// Page-grid cells the placement's box touches (for de-duplication and the origin).
    var cellMinX: UInt16, cellMinY: UInt16, cellMaxX: UInt16, cellMaxY: UInt16
}

/// The linear part of a placement, shared by every placement with the same one: 20 bytes.
struct LinearMap: Sendable {
    /// Inverse linear part (view → shape units): fx = m00*dx + m01*dy, fy = m10*dx + m11*dy.
    var m00: Float, m01: Float, m10: Float, m11: Float
    /// Smallest singular value of the forward map (view px per shape unit); negative when the map is not
    /// a similarity (then distances need the general path).
    var scale: Float

    /// Whether two maps are the same bit for bit (what de-duplication needs: `-0` and `0` differ).
    func isIdentical(to o: LinearMap) -> Bool {
        m00.bitPattern == o.m00.bitPattern && m01.bitPattern == o.m01.bitPattern && m10.bitPattern == o.m10.bitPattern
            && m11.bitPattern == o.m11.bitPattern && scale.bitPattern == o.scale.bitPattern
    }
}

/// A `LinearMap` as a dictionary key (its bit patterns).
struct LinearMapKey: Hashable {
    var a: UInt64, b: UInt64, c: UInt32
    init(_ m: LinearMap) {
        a = UInt64(m.m00.bitPattern) << 32 | UInt64(m.m01.bitPattern)
        b = UInt64(m.m10.bitPattern) << 32 | UInt64(m.m11.bitPattern)
        c = m.scale.bitPattern
    }
}
