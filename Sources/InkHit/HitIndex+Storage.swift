import InkGeometry

extension HitIndex {
    /// Owned, immutable storage: placement records, shape views and the page grid (CSR, each cell's
    /// placements sorted topmost first), all in one arena.
    ///
    /// Built in three phases: `PlacementTable` (a record, a view box and an anchor per placement, shapes
    /// de-duplicated), `PageGrid` (the cell size, bounded in cells and in list entries) and binning (the
    /// CSR lists, and each record's cell range and anchor offset). `@usableFromInline` for
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
        /// The class raster (HitIndex+Raster.swift): one block of `rasterTileBytes` per page cell, 4 bits per
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
            var table = PlacementTable(items, grow: preparedRadius, forms: forms)
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

    /// Phase 1: one query record per placement, its box in view px and its anchor, with shapes
    /// de-duplicated by identity and linear maps by value.
    struct PlacementTable {
        var records: [PlacementRecord] = []
        var maps: [LinearMap] = []
        /// View box per placement grown by the prepared radius (and a rounding margin); empty for a shape
        /// without ink. The page grid lists a placement in every cell its grown box touches.
        var boxes: [Rect] = []
        /// View position of each shape's anchor: its winding origin (`ShapeView.wOriginX/Y`), a corner of
        /// the glyph box, so its offset from the placement's first page cell is small.
        var anchors: [Point] = []
        var shapes: [GlyphShape] = []
        /// Per shape, the form this index reads (`GlyphShape.formForBuild(_:)`).
        var forms: [ShapeForm] = []
        /// Per shape, its winding origin (the corner of the box its view's coordinates are relative to).
        var origins: [Point] = []
        /// Placements with ink whose shape this index reads in its full form (they get raster stamps).
        var inkedFull = 0
        /// Union of the ink boxes (not grown).
        var bounds = Rect.empty
        /// Union of the grown boxes: the page grid's extent.
        var gridBounds = Rect.empty
        /// Mean of (width + height) / 2 over placements with ink, and their number.
        var meanSize = 0.0, inked = 0
        /// The longest side of any placement's view box.
        var maxExtent = 0.0

        /// The radius the boxes are grown by (before margins).
        var grow = 0.0

        init(_ items: [Builder.Item], grow: Double, forms wanted: ShapeForms) {
            self.grow = grow
            var shapeIndex: [ObjectIdentifier: UInt32] = [:]
            var recent = [(id: ObjectIdentifier?, index: UInt32)](repeating: (nil, 0), count: 64)
            var mapIndex: [LinearMapKey: UInt32] = [:]
            var lastMap = -1
            records.reserveCapacity(items.count)
            boxes.reserveCapacity(items.count)
            anchors.reserveCapacity(items.count)
            var sumSize = 0.0
            for item in items {
                let (shape, t, inv, sv) = (item.shape, item.transform, item.inverse, item.singularValues)
                var si = UInt32.max
                var box = Rect.empty
                if !shape.bounds.isEmpty {
                    // A direct-mapped memo on the object's address before the dictionary: text repeats a few
                    // dozen shapes.
                    let id = ObjectIdentifier(shape)
                    let slot = Int(truncatingIfNeeded: ((UInt(bitPattern: id) &>> 4) &* 0x9E37_79B9_7F4A_7C15) &>> 58)
                    if recent[slot].id == id { si = recent[slot].index }
                    else if let s = shapeIndex[id] { si = s; recent[slot] = (id, s) }
                    else {
                        si = UInt32(shapes.count); shapeIndex[id] = si; shapes.append(shape)
                        forms.append(shape.formForBuild(wanted))
                        // Both forms' winding grids start at the box's corner.
                        origins.append(Point(shape.bounds.minX, shape.bounds.minY))
                        recent[slot] = (id, si)
                    }
                    if case .full = forms[Int(si)] { inkedFull += 1 }
                    let ink = shape.bounds.applying(t)
                    bounds = bounds.union(ink)
                    sumSize += (ink.width + ink.height) / 2
                    maxExtent = max(maxExtent, ink.width, ink.height)
                    inked += 1
                    // Grown by the radius and a margin for the rounding of the query path (its Float32 inverse:
                    // ~1e-7 of the glyph's size and of the distance) and of the box's own coordinates.
                    let g = grow + 1e-5 * (grow + max(ink.width, ink.height))
                        + 4 * max(abs(ink.minX), abs(ink.maxX), abs(ink.minY), abs(ink.maxY)).ulp
                    box = Rect(minX: ink.minX - g, minY: ink.minY - g, maxX: ink.maxX + g, maxY: ink.maxY + g)
                    gridBounds = gridBounds.union(box)
                }
                boxes.append(box)
                let kappa = sv.max / sv.min
                let map = LinearMap(m00: Float(inv.a), m01: Float(inv.c), m10: Float(inv.b), m11: Float(inv.d),
                                    scale: kappa <= 1 + 1e-6 ? Float(sv.min) : -Float(sv.min))
                // Runs of placements share their map (text of one size): compare with the last one first.
                let mi: UInt32
                if lastMap >= 0, maps[lastMap].isIdentical(to: map) { mi = UInt32(lastMap) }
                else if let m = mapIndex[LinearMapKey(map)] { mi = m }
                else { mi = UInt32(maps.count); mapIndex[LinearMapKey(map)] = mi; maps.append(map) }
                lastMap = Int(mi)
                records.append(PlacementRecord(dx: 0, dy: 0, map: mi, shape: si,
                                               cellMinX: 0, cellMinY: 0, cellMaxX: 0, cellMaxY: 0))
                anchors.append(si == UInt32.max ? Point(t.tx, t.ty) : origins[Int(si)].applying(t))
            }
            meanSize = inked > 0 ? sumSize / Double(inked) : 0
        }
    }

    /// Phase 2: the page grid's geometry, a uniform grid over the placements' boxes.
    struct PageGrid {
        var originX = 0.0, originY = 0.0, cellSize = 1.0, invCell = 1.0
        var nx = 0, ny = 0
        /// The grid origin moved in by the radius the boxes were grown by: records keep their anchor relative to
        /// `anchorBase + first cell × cellSize`, so the offset is about the glyph's size (the growth does not
        /// cost Float32 digits).
        var anchorBaseX = 0.0, anchorBaseY = 0.0

        /// Most page-grid cells: a few per placement, never unbounded.
        static func maxCells(for n: Int) -> Int { max(1024, min(4 * n, 1 << 24)) }

        /// Square cells whose side is a power of two (view px): the one nearest 0.7 of the mean placement
        /// size, doubled until the grid has at most `maxCells` cells, 60,000 per axis, and 16 list entries
        /// per placement (+ 65,536): a few page-sized placements among many small ones would otherwise be
        /// listed in every cell. The grid covers the grown boxes.
        init(_ table: PlacementTable) {
            let all = table.gridBounds
            guard !all.isEmpty else { return }
            var cell = table.inked > 0 ? 0.7 * table.meanSize : 1
            if !(cell > 0) || !cell.isFinite { cell = max(all.width, all.height, 1) }
            cell = Self.nearestPowerOfTwo(cell)
            let maxCells = Double(Self.maxCells(for: table.inked))
            while ((all.width / cell).rounded(.up) + 2) * ((all.height / cell).rounded(.up) + 2) > maxCells
                    || (all.width / cell) > 60000 || (all.height / cell) > 60000 {
                cell *= 2
            }
            let maxEntries = 16.0 * Double(table.inked) + 65536
            func entries(_ c: Double) -> Double {
                var total = 0.0
                for b in table.boxes where !b.isEmpty {
                    let w = (b.maxX / c).rounded(.down) - (b.minX / c).rounded(.down) + 1
                    let h = (b.maxY / c).rounded(.down) - (b.minY / c).rounded(.down) + 1
                    total += w * h
                }
                return total
            }
            while entries(cell) > maxEntries { cell *= 2 }
            cellSize = cell
            invCell = 1 / cell
            // The origin on the lattice of multiples of the cell size, so records' anchor offsets are as exact
            // as the anchors themselves (a glyph at whole or half pixels keeps exact distances).
            originX = (all.minX / cell).rounded(.down) * cell
            originY = (all.minY / cell).rounded(.down) * cell
            nx = Int(((all.maxX - originX) / cell).rounded(.down)) + 1
            ny = Int(((all.maxY - originY) / cell).rounded(.down)) + 1
            anchorBaseX = originX + table.grow; anchorBaseY = originY + table.grow
        }

        /// The power of two nearest `x` (> 0, finite), within 2^±1000.
        static func nearestPowerOfTwo(_ x: Double) -> Double {
            let e = max(-1000, min(1000, Int(x.exponent) + (x.significand >= 2.0.squareRoot() ? 1 : 0)))
            return Double(sign: .plus, exponent: e, significand: 1)
        }

        /// The cells a view box touches (clamped to the grid).
        func cells(of b: Rect) -> (i0: Int, i1: Int, j0: Int, j1: Int) {
            let inv = invCell
            return (max(0, min(nx - 1, Int((b.minX - originX) * inv))), max(0, min(nx - 1, Int((b.maxX - originX) * inv))),
                    max(0, min(ny - 1, Int((b.minY - originY) * inv))), max(0, min(ny - 1, Int((b.maxY - originY) * inv))))
        }

        /// Phase 3: bins the placements (CSR, topmost first within each cell) and completes each record with
        /// its cell range and its anchor relative to its first cell's corner.
        func bin(_ table: inout PlacementTable) -> (starts: [UInt32], entries: [UInt32]) {
            var starts = [UInt32](repeating: 0, count: nx * ny + 1)
            for (k, b) in table.boxes.enumerated() where !b.isEmpty {
                let (i0, i1, j0, j1) = cells(of: b)
                table.records[k].cellMinX = UInt16(i0); table.records[k].cellMinY = UInt16(j0)
                table.records[k].cellMaxX = UInt16(i1); table.records[k].cellMaxY = UInt16(j1)
                table.records[k].dx = Float(table.anchors[k].x - (anchorBaseX + Double(i0) * cellSize))
                table.records[k].dy = Float(table.anchors[k].y - (anchorBaseY + Double(j0) * cellSize))
                for j in j0...j1 { for i in i0...i1 { starts[j * nx + i + 1] += 1 } }
            }
            for c in 0..<(nx * ny) { starts[c + 1] += starts[c] }
            var entries = [UInt32](repeating: 0, count: Int(starts[nx * ny]))
            var fill = Array(starts.dropFirst())           // fill from the end: descending order
            for (k, b) in table.boxes.enumerated() where !b.isEmpty {
                let (i0, i1, j0, j1) = cells(of: b)
                for j in j0...j1 {
                    for i in i0...i1 {
                        let c = j * nx + i
                        fill[c] -= 1
                        entries[Int(fill[c])] = UInt32(k)
                    }
                }
            }
            ConsistencyChecks.offsets(starts, total: entries.count, "page grid: cell offsets")
            ConsistencyChecks.indices(entries, below: table.records.count, "page grid: cells' placements")
            if ConsistencyChecks.areEnabled {
                for (k, r) in table.records.enumerated() where !table.boxes[k].isEmpty {
                    ConsistencyChecks.range(Int(r.cellMinX), count: Int(r.cellMaxX) - Int(r.cellMinX) + 1, within: nx,
                                            "page grid: placement \(k)'s cell columns")
                    ConsistencyChecks.range(Int(r.cellMinY), count: Int(r.cellMaxY) - Int(r.cellMinY) + 1, within: ny,
                                            "page grid: placement \(k)'s cell rows")
                }
            }
            return (starts, entries)
        }
    }
}
