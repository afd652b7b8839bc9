import InkGeometry

extension HitIndex {
    /// Whether `point` (view px) is on the ink of any placement. Non-finite points are a miss.
    public func contains(_ point: Point) -> Bool {
        let s = storage
        return withExtendedLifetime(s) { s.topmostContaining(point.x, point.y) >= 0 }
    }

    /// The best hit at `point` (view px) within `radius` (view px), by the rule of DESIGN.md:
    /// the topmost (last added) placement whose ink contains the point; otherwise the placement whose
    /// outline is nearest, if it is within `radius` (ties → topmost). Nil on a miss.
    ///
    /// `distance` in the result is the exact signed distance (view px) to that placement's outline.
    /// A negative or NaN radius counts as 0; a non-finite point is a miss. Allocates nothing.
    public func hit(at point: Point, radius: Double = 0) -> Hit? {
        let s = storage
        return withExtendedLifetime(s) { s.bestHit(point.x, point.y, radius: radius) }
    }

    /// Every placement whose ink is within `radius` of `point` (signed distance ≤ radius), nearest first
    /// (by signed distance; ties → topmost). At radius 0 only placements whose ink contains the point
    /// (as `hit(at:radius:)`: a point exactly on an outline counts as the winding rule decides).
    /// Allocates the returned array.
    public func hits(at point: Point, radius: Double = 0) -> [Hit] {
        var out: [Hit] = []
        hits(at: point, radius: radius, into: &out)
        return out
    }

    /// Like `hits(at:radius:)`, writing into `out` (cleared first). Reuses `out`'s capacity, so a caller
    /// that keeps one buffer allocates only when it must grow.
    public func hits(at point: Point, radius: Double = 0, into out: inout [Hit]) {
        out.removeAll(keepingCapacity: true)
        let s = storage
        withExtendedLifetime(s) { s.allHits(point.x, point.y, radius: radius, into: &out) }
        out.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.placement > $1.placement }
    }
}

extension HitIndex.Storage {
    @inline(__always) func cellOf(_ x: Double, _ y: Double) -> Int {
        let fx = (x - originX) * invCell, fy = (y - originY) * invCell
        guard fx >= 0, fy >= 0, fx < Double(nx), fy < Double(ny) else { return -1 }
        return Int(fy) &* nx &+ Int(fx)
    }

    /// Shape-space coordinates of a view point for placement record `r` of shape view `v`: the offset from
    /// the shape's anchor (its winding origin, the glyph box's corner) mapped by the Float32 inverse, added
    /// to the anchor. Rounding is ~1e-7 of the point's distance from the anchor (for points on or near the
    /// ink: of the glyph's size), wherever the glyph's origin is.
    @inline(__always) func toShape(_ r: PlacementRecord, _ v: UnsafeMutablePointer<ShapeView>,
                                   _ x: Double, _ y: Double) -> (Double, Double) {
        let dx = x - (originX + Double(r.cellMinX) * cellSize + Double(r.dx))
        let dy = y - (originY + Double(r.cellMinY) * cellSize + Double(r.dy))
        return (v.pointee.wOriginX + (Double(r.m00) * dx + Double(r.m01) * dy),
                v.pointee.wOriginY + (Double(r.m10) * dx + Double(r.m11) * dy))
    }

    /// Topmost placement whose ink contains (x, y), or -1.
    @inline(__always) func topmostContaining(_ x: Double, _ y: Double) -> Int {
        let c = cellOf(x, y)      // NaN and ±∞ fail its range guard
        if c < 0 { return -1 }
        var k = Int(cellStart[c])
        let end = Int(cellStart[c + 1])
        while k < end {
            let p = Int(cellItems[k]); k += 1
            let r = placements[p]
            let v = viewBase + Int(r.shape)
            let (fx, fy) = toShape(r, v, x, y)
            if v.pointee.contains(fx, fy) { return p }
        }
        return -1
    }

    /// Exact view distance from (x, y) to placement `p`'s outline if ≤ bound, else a value > bound.
    @inline(__always) func viewDistance(_ p: Int, _ x: Double, _ y: Double, bound: Double) -> Double {
        let r = placements[p]
        let v = viewBase + Int(r.shape)
        let (fx, fy) = toShape(r, v, x, y)
        return viewDistance(r, v, v.pointee.cellIndex(fx, fy), fx, fy, bound: bound)
    }

    @inline(__always) func viewDistance(_ r: PlacementRecord, _ v: UnsafeMutablePointer<ShapeView>, _ c: Int,
                                        _ fx: Double, _ fy: Double, bound: Double) -> Double {
        if r.scale > 0 {
            let s = Double(r.scale)
            return ShapeView.distance(v, cell: c, fx, fy, bound: bound / s) * s
        }
        // General linear map: forward = inverse of m.
        let m00 = Double(r.m00), m01 = Double(r.m01), m10 = Double(r.m10), m11 = Double(r.m11)
        let det = m00 * m11 - m01 * m10
        // m maps view → shape as [[m00 m01][m10 m11]]; its inverse maps shape → view.
        let la = m11 / det, lc = -m01 / det, lb = -m10 / det, ld = m00 / det
        return v.pointee.viewDistance(cell: c, fx, fy, la: la, lb: lb, lc: lc, ld: ld, minScale: -Double(r.scale), bound: bound)
    }

    /// `bestHit` at radius 0: the topmost placement listed in the point's own cell whose ink contains it,
    /// with its signed distance. Inlined into the batch loops, where the storage's fields stay in registers.
    @inline(__always) func inkHit(_ x: Double, _ y: Double) -> Hit? {
        let p = topmostContaining(x, y)
        if p < 0 { return nil }
        let rec = placements[p]
        let v = viewBase + Int(rec.shape)
        let (fx, fy) = toShape(rec, v, x, y)
        let d = viewDistance(rec, v, v.pointee.cellIndex(fx, fy), fx, fy, bound: .infinity)
        return Hit(placement: p, distance: -d, isInside: true)
    }

    func bestHit(_ x: Double, _ y: Double, radius: Double) -> Hit? {
        guard radius > 0 else { return inkHit(x, y) }     // NaN and negatives count as 0
        let r = radius
        let own = cellOf(x, y)               // NaN and ±∞ fail its range guard
        var best = r, bestK = -1
        if own >= 0 {
            // The point's own cell, topmost first: the first placement whose ink contains the point wins;
            // on the way, distances of the others seed `best` (they are usually the nearest).
            var k = Int(cellStart[own])
            let end = Int(cellStart[own + 1])
            while k < end {
                let p = Int(cellItems[k]); k += 1
                let rec = placements[p]
                let v = viewBase + Int(rec.shape)
                let (fx, fy) = toShape(rec, v, x, y)
                if v.pointee.contains(fx, fy) {
                    let d = viewDistance(rec, v, v.pointee.cellIndex(fx, fy), fx, fy, bound: .infinity)
                    return Hit(placement: p, distance: -d, isInside: true)
                }
                let d = viewDistance(rec, v, v.pointee.cellIndex(fx, fy), fx, fy, bound: best)
                if d < best || (d == best && p > bestK) { best = d; bestK = p }
            }
        } else if !(x.isFinite && y.isFinite) {
            return nil
        }
        // The rest of the window: placements not listed in the own cell (their boxes do not contain the
        // point, so only their distance matters).
        forEachCandidate(x, y, radius: r, skipping: own) { p in
            let d = viewDistance(p, x, y, bound: best)
            if d < best || (d == best && p > bestK) { best = d; bestK = p }
        }
        return bestK >= 0 ? Hit(placement: bestK, distance: best, isInside: false) : nil
    }

    func allHits(_ x: Double, _ y: Double, radius: Double, into out: inout [Hit]) {
        guard x.isFinite, y.isFinite else { return }
        let r = radius > 0 ? radius : 0
        // Only placements listed in the point's own cell can contain it (the rule `hit` and `contains` use,
        // so the three agree even within Float32 rounding of an outline).
        let own = cellOf(x, y)
        let oi = own >= 0 ? own % nx : -1, oj = own >= 0 ? own / nx : -1
        forEachCandidate(x, y, radius: r, skipping: -1) { p in
            let rec = placements[p]
            let v = viewBase + Int(rec.shape)
            let (fx, fy) = toShape(rec, v, x, y)
            let listedInOwn = oi >= Int(rec.cellMinX) && oi <= Int(rec.cellMaxX) && oj >= Int(rec.cellMinY) && oj <= Int(rec.cellMaxY)
            let inside = listedInOwn && v.pointee.windingNumber(fx, fy) != 0
            let d = viewDistance(rec, v, v.pointee.cellIndex(fx, fy), fx, fy, bound: inside ? .infinity : r)
            if inside { out.append(Hit(placement: p, distance: -d, isInside: true)) }
            else if r > 0 && d <= r { out.append(Hit(placement: p, distance: d, isInside: false)) }
        }
    }

    /// Calls `body` once for every placement whose box meets the square of half-side `radius` around
    /// (x, y), except those listed in page cell `skipping` (≥ 0). Each placement is reported from exactly
    /// one cell: the first cell of the window its box touches.
    @inline(__always) func forEachCandidate(_ x: Double, _ y: Double, radius: Double, skipping own: Int,
                                            _ body: (Int) -> Void) {
        guard nx > 0 else { return }
        let rr = radius.isFinite ? radius : Double.greatestFiniteMagnitude   // cell arithmetic copes with ±∞
        let fx0 = (x - rr - originX) * invCell, fx1 = (x + rr - originX) * invCell
        let fy0 = (y - rr - originY) * invCell, fy1 = (y + rr - originY) * invCell
        guard fx1 >= 0, fy1 >= 0, fx0 < Double(nx), fy0 < Double(ny) else { return }
        let i0 = fx0 <= 0 ? 0 : Int(fx0), j0 = fy0 <= 0 ? 0 : Int(fy0)
        let i1 = fx1 >= Double(nx - 1) ? nx - 1 : Int(fx1), j1 = fy1 >= Double(ny - 1) ? ny - 1 : Int(fy1)
        let oi = own >= 0 ? own % nx : -1, oj = own >= 0 ? own / nx : -1
        for j in j0...j1 {
            for i in i0...i1 {
                let c = j * nx + i
                if c == own { continue }
                var k = Int(cellStart[c])
                let end = Int(cellStart[c + 1])
                while k < end {
                    let p = Int(cellItems[k]); k += 1
                    let rec = placements[p]
                    // Designated cell only.
                    if !((i == i0 || i == Int(rec.cellMinX)) && (j == j0 || j == Int(rec.cellMinY))) { continue }
                    // Already seen in the own cell?
                    if oi >= Int(rec.cellMinX) && oi <= Int(rec.cellMaxX) && oj >= Int(rec.cellMinY) && oj <= Int(rec.cellMaxY) { continue }
                    body(p)
                }
            }
        }
    }
}
