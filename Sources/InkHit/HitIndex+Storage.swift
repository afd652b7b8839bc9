import InkGeometry

extension HitIndex {
    /// Owned, immutable storage: placement records, shape views and the page grid (CSR, each cell's
    /// placements sorted topmost first).
    final class Storage: @unchecked Sendable {
        let tolerance: Double
        let shapes: [GlyphShape]                         // keeps the shapes (and their buffers) alive
        let views: UnsafeMutableBufferPointer<ShapeView>
        /// `views.baseAddress`: shape views are read in place, never copied (they are ~180 bytes).
        let viewBase: UnsafeMutablePointer<ShapeView>
        let placements: UnsafeMutableBufferPointer<PlacementRecord>
        let cellStart: UnsafeMutableBufferPointer<UInt32>
        let cellItems: UnsafeMutableBufferPointer<UInt32>
        let bounds: Rect
        let originX: Double, originY: Double, invCell: Double, cellSize: Double
        let nx: Int, ny: Int
        let count: Int

        /// Most page-grid cells: a few per placement, never unbounded.
        static func maxCells(for n: Int) -> Int { max(1024, min(4 * n, 1 << 24)) }

        init(items: [(shape: GlyphShape, transform: AffineTransform)], tolerance: Double) {
            self.tolerance = tolerance
            self.count = items.count
            // Unique shapes by identity.
            var shapeIndex: [ObjectIdentifier: UInt32] = [:]
            var shapes: [GlyphShape] = []
            var recs = [PlacementRecord]()
            recs.reserveCapacity(items.count)
            var anchors = [Point]()     // view px (see toShape)
            anchors.reserveCapacity(items.count)
            var boxes = [Rect]()
            boxes.reserveCapacity(items.count)
            var all = Rect.empty
            var sumSize = 0.0, inked = 0
            for (shape, t) in items {
                let inv = t.inverted() ?? .identity    // the builder rejected singular transforms
                let sv = t.singularValues
                var si = UInt32.max
                var box = Rect.empty
                if !shape.bounds.isEmpty {
                    if let s = shapeIndex[ObjectIdentifier(shape)] { si = s } else {
                        si = UInt32(shapes.count); shapeIndex[ObjectIdentifier(shape)] = si; shapes.append(shape)
                    }
                    let b = shape.bounds
                    for p in [Point(b.minX, b.minY), Point(b.maxX, b.minY), Point(b.minX, b.maxY), Point(b.maxX, b.maxY)] {
                        box.add(t.apply(p))
                    }
                    all = all.union(box)
                    sumSize += (box.width + box.height) / 2
                    inked += 1
                }
                boxes.append(box)
                let kappa = sv.max / sv.min
                recs.append(PlacementRecord(
                    dx: 0, dy: 0,
                    m00: Float(inv.a), m01: Float(inv.c), m10: Float(inv.b), m11: Float(inv.d),
                    scale: kappa <= 1 + 1e-6 ? Float(sv.min) : -Float(sv.min),
                    shape: si, cellMinX: 0, cellMinY: 0, cellMaxX: 0, cellMaxY: 0))
                // The anchor: the view position of the shape's winding origin (exactly `ShapeView.wOriginX/Y`),
                // a corner of the glyph box, so its offset from the placement's first page cell is small.
                anchors.append(shape.bounds.isEmpty ? Point(t.tx, t.ty)
                               : t.apply(Point(shape.grid.windingOriginX, shape.grid.windingOriginY)))
            }
            self.shapes = shapes
            self.bounds = all

            // Page grid geometry.
            var cell = inked > 0 ? 0.7 * sumSize / Double(inked) : 1
            if !(cell > 0) || !cell.isFinite { cell = max(all.width, all.height, 1) }
            if !all.isEmpty {
                let maxCells = Double(Self.maxCells(for: inked))
                while ((all.width / cell).rounded(.up) + 1) * ((all.height / cell).rounded(.up) + 1) > maxCells
                        || (all.width / cell) > 60000 || (all.height / cell) > 60000 {
                    cell *= 1.5
                }
                // Bound the entries too: a few page-sized placements among many small ones would be listed
                // in every cell (memory growing as n^1.5). Coarser cells until at most 8 per placement.
                let maxEntries = 8.0 * Double(inked) + 65536
                func entries(_ c: Double) -> Double {
                    var total = 0.0
                    for b in boxes where !b.isEmpty {
                        let w = ((b.maxX - all.minX) / c).rounded(.down) - ((b.minX - all.minX) / c).rounded(.down) + 1
                        let h = ((b.maxY - all.minY) / c).rounded(.down) - ((b.minY - all.minY) / c).rounded(.down) + 1
                        total += w * h
                    }
                    return total
                }
                while entries(cell) > maxEntries { cell *= 1.5 }
            }
            let nx = all.isEmpty ? 0 : Int((all.width / cell).rounded(.down)) + 1
            let ny = all.isEmpty ? 0 : Int((all.height / cell).rounded(.down)) + 1
            let invCell = 1 / cell
            let originX = all.isEmpty ? 0 : all.minX
            let originY = all.isEmpty ? 0 : all.minY
            self.nx = nx; self.ny = ny
            self.cellSize = cell; self.invCell = invCell
            self.originX = originX; self.originY = originY

            // Bin placements (CSR), topmost first within each cell.
            var counts = [UInt32](repeating: 0, count: nx * ny + 1)
            func range(_ b: Rect) -> (Int, Int, Int, Int) {
                let i0 = max(0, min(nx - 1, Int((b.minX - originX) * invCell)))
                let i1 = max(0, min(nx - 1, Int((b.maxX - originX) * invCell)))
                let j0 = max(0, min(ny - 1, Int((b.minY - originY) * invCell)))
                let j1 = max(0, min(ny - 1, Int((b.maxY - originY) * invCell)))
                return (i0, i1, j0, j1)
            }
            for (k, b) in boxes.enumerated() where !b.isEmpty {
                let (i0, i1, j0, j1) = range(b)
                recs[k].cellMinX = UInt16(i0); recs[k].cellMinY = UInt16(j0)
                recs[k].cellMaxX = UInt16(i1); recs[k].cellMaxY = UInt16(j1)
                recs[k].dx = Float(anchors[k].x - (originX + Double(i0) * cell))
                recs[k].dy = Float(anchors[k].y - (originY + Double(j0) * cell))
                for j in j0...j1 { for i in i0...i1 { counts[j * nx + i] += 1 } }
            }
            let starts = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: nx * ny + 1)
            starts[0] = 0
            for c in 0..<(nx * ny) { starts[c + 1] = starts[c] + counts[c] }
            let total = Int(starts[nx * ny])
            let itemsBuf = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: max(total, 1))
            var fill = [UInt32](repeating: 0, count: nx * ny)
            for c in 0..<(nx * ny) { fill[c] = starts[c + 1] }     // fill from the end: descending order
            for (k, b) in boxes.enumerated() where !b.isEmpty {
                let (i0, i1, j0, j1) = range(b)
                for j in j0...j1 {
                    for i in i0...i1 {
                        let c = j * nx + i
                        fill[c] -= 1
                        itemsBuf[Int(fill[c])] = UInt32(k)
                    }
                }
            }
            self.cellStart = starts
            self.cellItems = itemsBuf
            self.placements = .allocate(capacity: max(recs.count, 1))
            _ = self.placements.initialize(from: recs)
            // 64-byte aligned, so each view's winding fields sit in one cache line (see ShapeView).
            assert(MemoryLayout<ShapeView>.stride % 64 == 0, "ShapeView must stay a whole number of cache lines")
            let viewCount = max(shapes.count, 1)
            let raw = UnsafeMutableRawPointer.allocate(byteCount: viewCount * MemoryLayout<ShapeView>.stride, alignment: 64)
            let base = raw.bindMemory(to: ShapeView.self, capacity: viewCount)
            for (k, shape) in shapes.enumerated() { (base + k).initialize(to: ShapeView(shape)) }
            self.views = UnsafeMutableBufferPointer(start: base, count: shapes.count)
            self.viewBase = base
        }

        deinit {
            UnsafeMutableRawPointer(viewBase).deallocate(); placements.deallocate(); cellStart.deallocate(); cellItems.deallocate()
        }
    }
}
