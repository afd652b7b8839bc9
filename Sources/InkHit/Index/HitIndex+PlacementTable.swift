import InkGeometry

extension HitIndex {
    /// Phase 1: the distinct shapes with ink (by identity, in the order first placed) and, per placement, the
    /// position of its shape among them (`UInt32.max` for a shape without ink). The form choice
    /// (`ShapeFormChoice`) runs on these before the placement table is built.
    struct DistinctShapes {
        var shapes: [GlyphShape] = []
        /// Per placement, its shape's position in `shapes`; `UInt32.max` without ink.
        var index: [UInt32] = []

        init(_ items: [Builder.Item]) {
            index.reserveCapacity(items.count)
            var known: [ObjectIdentifier: UInt32] = [:]
            var recent = [(id: ObjectIdentifier?, index: UInt32)](repeating: (nil, 0), count: 64)
            for item in items {
                let shape = item.shape
                guard !shape.bounds.isEmpty else { index.append(UInt32.max); continue }
                // A direct-mapped memo on the object's address before the dictionary: text repeats a few dozen
                // shapes.
                let id = ObjectIdentifier(shape)
                let slot = Int(truncatingIfNeeded: ((UInt(bitPattern: id) &>> 4) &* 0x9E37_79B9_7F4A_7C15) &>> 58)
                let si: UInt32
                if recent[slot].id == id { si = recent[slot].index }
                else if let s = known[id] { si = s; recent[slot] = (id, s) }
                else { si = UInt32(shapes.count); known[id] = si; shapes.append(shape); recent[slot] = (id, si) }
                index.append(si)
            }
        }
    }

    /// Phase 3 (after the form choice): one query record per placement, its box in view px and its anchor,
    /// with linear maps de-duplicated by value.
    struct PlacementTable {
        var records: [PlacementRecord] = []
        var maps: [LinearMap] = []
        /// View box per placement grown by the prepared radius (and a rounding margin); empty for a shape
        /// without ink. The page grid lists a placement in every cell its grown box touches.
        var boxes: [Rect] = []
        /// View position of each shape's anchor: its winding origin (`ShapeView.wOriginX/Y`), a corner of
        /// the glyph box, so its offset from the placement's first page cell is small.
        var anchors: [Point] = []
        /// The distinct shapes with ink (`DistinctShapes`).
        let shapes: [GlyphShape]
        /// Per shape, the form this index reads (the form choice's answer).
        let forms: [ShapeForm]
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

        init(_ items: [Builder.Item], shapes distinct: DistinctShapes, forms: [ShapeForm], grow: Double) {
            self.grow = grow
            self.shapes = distinct.shapes
            self.forms = forms
            // Both forms' winding grids start at the box's corner: a shape's anchor.
            let origins = distinct.shapes.map { Point($0.bounds.minX, $0.bounds.minY) }
            var mapIndex: [LinearMapKey: UInt32] = [:]
            var lastMap = -1
            records.reserveCapacity(items.count)
            boxes.reserveCapacity(items.count)
            anchors.reserveCapacity(items.count)
            var sumSize = 0.0
            for (item, si) in zip(items, distinct.index) {
                let (shape, t, inv, sv) = (item.shape, item.transform, item.inverse, item.singularValues)
                var box = Rect.empty
                if si != UInt32.max {
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
}
