import InkGeometry

extension HitIndex {
    /// Phase 4: the page grid's geometry, a uniform grid over the placements' boxes.
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

        /// Phase 5: bins the placements (CSR, topmost first within each cell) and completes each record with
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
