import InkGeometry

// Building the raster: each placement's stamp (made once per shape, linear map and phase bucket, then cached
// in the shape's full form), then the tiles encoded from the stamps of the placements each page cell lists.

extension ClassRaster {
    /// Builds the raster: one block of `tileBytes` per page cell, cells as nibbles (see the table in
    /// ClassRaster.swift).
    static func build(_ g: Geometry, grid: HitIndex.PageGrid, items: [HitIndex.Builder.Item], table: HitIndex.PlacementTable,
                      radius: Double, starts: [UInt32], entries: [UInt32], into out: UnsafeMutablePointer<UInt8>) {
        var stamps = PlacedStamps(g, grid: grid, table: table, radius: radius, placements: items.count)
        for k in items.indices { stamps.place(k, items[k]) }
        withExtendedLifetime(stamps.held) {
            stamps.placed.withUnsafeBufferPointer { pl in
                starts.withUnsafeBufferPointer { st in
                    entries.withUnsafeBufferPointer { en in
                        stamps.refs.withUnsafeBufferPointer { rf in
                            encode(g, grid: grid, tiles: TileLists(placed: pl.baseAddress!, refs: rf.baseAddress,
                                                                   starts: st.baseAddress!, entries: en.baseAddress!),
                                   into: out)
                        }
                    }
                }
            }
        }
    }

    /// The stamps of a build's placements: per (shape, linear map) pair its `phases²` buckets, fetched from the
    /// shape's cache in one look and made on first use; per placement where its stamp lies.
    struct PlacedStamps {
        let g: Geometry, grid: HitIndex.PageGrid, table: HitIndex.PlacementTable
        let radius: Double
        let q = ClassRaster.phases
        private let direct: Bool
        /// (shape, map) → pair slot, directly indexed when the product is small, else hashed.
        private var pairOf: [Int32]
        private var pairSlots: [Int: Int] = [:]
        /// Per pair and bucket: the stamp (nil: none, or too large), whether it was looked for, and its index
        /// into `refs` (-1: none yet).
        private(set) var held: [Stamp?] = []
        private var made: [Bool] = []
        private var refIndex: [Int32] = []
        private(set) var refs: [StampRef] = []
        private(set) var placed: [Placed]

        init(_ g: Geometry, grid: HitIndex.PageGrid, table: HitIndex.PlacementTable, radius: Double, placements: Int) {
            self.g = g; self.grid = grid; self.table = table; self.radius = radius
            let pairs = table.shapes.count * table.maps.count
            direct = pairs <= 1 << 16
            pairOf = [Int32](repeating: -1, count: direct ? pairs : 0)
            placed = [Placed](repeating: Placed(), count: placements)
        }

        /// Finds or makes placement `k`'s stamp and records where it lies. A shape read in its lean form has
        /// no stamps: its page cells take it whole.
        mutating func place(_ k: Int, _ item: HitIndex.Builder.Item) {
            let rec = table.records[k]
            guard rec.shape != UInt32.max, case .full(let form) = table.forms[Int(rec.shape)] else { return }
            let t = item.transform
            let key = StampCache.Key(a: t.a.bitPattern, b: t.b.bitPattern, c: t.c.bitPattern, d: t.d.bitPattern,
                                     cell: g.cell.bitPattern, radius: radius.bitPattern)
            let pi = pair(Int(rec.shape) &* table.maps.count &+ Int(rec.map), form, key)
            let invCell = 1 / g.cell
            let u = (t.tx - grid.originX) * invCell, v = (t.ty - grid.originY) * invCell
            let fu = u.rounded(.down), fv = v.rounded(.down)
            let bx = min(q - 1, max(0, Int((u - fu) * Double(q)))), by = min(q - 1, max(0, Int((v - fv) * Double(q))))
            let slot = pi * q * q + by * q + bx
            if !made[slot] {
                held[slot] = makeStamp(item.shape, form, key, t, bucket: (bx, by))
                made[slot] = true
            }
            guard let st = held[slot] else { return }
            if refIndex[slot] < 0 {
                refIndex[slot] = Int32(refs.count)
                refs.append(StampRef(bits: UnsafePointer(st.bits), packed: st.packed.map { UnsafePointer($0) },
                                     words: st.words, width: st.width, height: st.height))
            }
            // |u|, |v| ≤ ~2e9 / cell: within Int.
            placed[k] = Placed(stamp: refIndex[slot], baseX: Int(fu) + st.i0, baseY: Int(fv) + st.j0)
        }

        /// The slot of (shape, map) pair `pk`: on its first use, every stamp the shape already has for the map,
        /// in one look.
        private mutating func pair(_ pk: Int, _ form: FullForm, _ key: StampCache.Key) -> Int {
            let known = direct ? Int(pairOf[pk]) : (pairSlots[pk] ?? -1)
            if known >= 0 { return known }
            let pi = made.count / (q * q)
            if direct { pairOf[pk] = Int32(pi) } else { pairSlots[pk] = pi }
            held.append(contentsOf: repeatElement(nil, count: q * q))
            made.append(contentsOf: repeatElement(false, count: q * q))
            refIndex.append(contentsOf: repeatElement(-1, count: q * q))
            let n = q * q
            held.withUnsafeMutableBufferPointer { st in
                made.withUnsafeMutableBufferPointer { md in
                    form.stamps.copy(key, buckets: n, into: st.baseAddress! + pi * n, made: md.baseAddress! + pi * n)
                }
            }
            return pi
        }

        /// The stamp of `shape` under `t`'s linear map in phase bucket `bucket`, from its full form's cache or
        /// made (cells grown by half a bucket and the query path's rounding margin).
        private func makeStamp(_ shape: GlyphShape, _ form: FullForm, _ key: StampCache.Key, _ t: AffineTransform,
                               bucket: (x: Int, y: Int)) -> Stamp? {
            let box = shape.bounds.applying(AffineTransform(a: t.a, b: t.b, c: t.c, d: t.d, tx: 0, ty: 0))
            let grow = 0.5 / Double(q) + margin(extent: max(box.width, box.height), radius: radius) * (1 / g.cell)
            let (cell, radius, q) = (g.cell, self.radius, self.q)
            return form.stamps.stamp(key, bucket: bucket.y * q + bucket.x, buckets: q * q) {
                withExtendedLifetime(form) {
                    Stamp.make(edges: UnsafeBufferPointer(form.edges), windingMask: shape.fillRule == .nonZero ? -1 : 1,
                               a: t.a, b: t.b, c: t.c, d: t.d, cell: cell, radius: radius,
                               phaseX: (Double(bucket.x) + 0.5) / Double(q), phaseY: (Double(bucket.y) + 0.5) / Double(q),
                               grow: grow, maxCells: maxStampCells)
                }
            }
        }
    }
}
