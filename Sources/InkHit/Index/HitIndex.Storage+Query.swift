import InkGeometry

// The queries on the index's storage, which the public queries (HitIndex+Query.swift) and the batches
// (HitIndex+Batch.swift, HitIndex+Pipeline.swift) call: raster lookup, page-cell lists, the hit rule and its ties.

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
        let dx = x - (anchorBaseX + Double(r.cellMinX) * cellSize + Double(r.dx))
        let dy = y - (anchorBaseY + Double(r.cellMinY) * cellSize + Double(r.dy))
        let m = maps[Int(r.map)]
        return (v.pointee.wOriginX + (Double(m.m00) * dx + Double(m.m01) * dy),
                v.pointee.wOriginY + (Double(m.m10) * dx + Double(m.m11) * dy))
    }

    /// Topmost placement whose ink contains (x, y), or -1.
    @inline(__always) func topmostContaining(_ x: Double, _ y: Double) -> Int {
        let c = cellOf(x, y)      // NaN and ±∞ fail its range guard
        return c < 0 ? -1 : topmostListed(c, x, y)
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
        let m = maps[Int(r.map)]
        if m.scale > 0 {
            let s = Double(m.scale)
            return ShapeView.distance(v, cell: c, fx, fy, bound: bound / s) * s
        }
        // General linear map: forward = inverse of m.
        let m00 = Double(m.m00), m01 = Double(m.m01), m10 = Double(m.m10), m11 = Double(m.m11)
        let det = m00 * m11 - m01 * m10
        // m maps view → shape as [[m00 m01][m10 m11]]; its inverse maps shape → view.
        let la = m11 / det, lc = -m01 / det, lb = -m10 / det, ld = m00 / det
        return v.pointee.viewDistance(cell: c, fx, fy, la: la, lb: lb, lc: lc, ld: ld, minScale: -Double(m.scale), bound: bound)
    }

    /// The view box extent `e` of the hit rule for placement record `r` of view `v`: the longer side of the
    /// placement's view box (the shape's box mapped by the forward transform).
    @inline(__always) func extent(_ r: PlacementRecord, _ v: UnsafeMutablePointer<ShapeView>) -> Double {
        let w = v.pointee.maxX - v.pointee.minX, h = v.pointee.maxY - v.pointee.minY
        let m = maps[Int(r.map)]
        let m00 = Double(m.m00), m01 = Double(m.m01), m10 = Double(m.m10), m11 = Double(m.m11)
        let det = m00 * m11 - m01 * m10
        let la = m11 / det, lc = -m01 / det, lb = -m10 / det, ld = m00 / det
        return max(abs(la) * w + abs(lc) * h, abs(lb) * w + abs(ld) * h)
    }

    /// The raster cell of (x, y): its 4-bit class code (the table in ClassRaster.swift) and its page cell; code -1
    /// outside the raster (no ink within the prepared radius there) and for non-finite points. Only with a
    /// raster.
    @inline(__always) func rasterLookup(_ raster: UnsafeMutablePointer<UInt8>, _ x: Double, _ y: Double) -> (code: Int, cell: Int) {
        let gx = (x - originX) * invRasterCell, gy = (y - originY) * invRasterCell
        guard gx >= 0, gy >= 0, gx < rasterWidth, gy < rasterHeight else { return (-1, -1) }   // NaN fails too
        let ix = Int(gx), iy = Int(gy)
        let cell = (iy >> rasterShift) &* nx &+ (ix >> rasterShift)
        let c = ((iy & rasterMask) << rasterShift) | (ix & rasterMask)
        let byte = raster[cell &* rasterTileBytes &+ (c >> 1)]
        return (Int(byte >> UInt8(truncatingIfNeeded: (c & 1) << 2)) & 15, cell)
    }

    /// Item `k` of page cell `cell`'s list (topmost first).
    @inline(__always) func listed(_ cell: Int, _ k: Int) -> Int { Int(cellItems[Int(cellStart[cell]) &+ k]) }

    /// The topmost placement whose ink contains (x, y), or -1.
    @inline(__always) func topmost(_ x: Double, _ y: Double) -> Int {
        guard let raster else { return topmostContaining(x, y) }
        let (code, cell) = rasterLookup(raster, x, y)
        if code >= 8 {
            // Only item k's ink may meet the raster cell.
            let p = listed(cell, code & 3)
            let rec = placements[p]
            let v = viewBase + Int(rec.shape)
            let (fx, fy) = toShape(rec, v, x, y)
            return v.pointee.contains(fx, fy) ? p : -1
        }
        return code == Int(ClassRaster.mixed) ? topmostListed(cell, x, y) : -1
    }

    /// `bestHit` at radius 0: the topmost placement whose ink contains the point, with its signed distance.
    /// Inlined into the batch loops, where the storage's fields stay in registers.
    @inline(__always) func inkHit(_ x: Double, _ y: Double) -> Hit? {
        let p: Int
        if let raster {
            let (code, cell) = rasterLookup(raster, x, y)
            if code >= 8 {
                return insideHit(listed(cell, code & 3), x, y)
            }
            if code != Int(ClassRaster.mixed) { return nil }
            p = topmostListed(cell, x, y)
        } else {
            p = topmostContaining(x, y)
        }
        if p < 0 { return nil }
        let rec = placements[p]
        let v = viewBase + Int(rec.shape)
        let (fx, fy) = toShape(rec, v, x, y)
        let d = viewDistance(rec, v, v.pointee.cellIndex(fx, fy), fx, fy, bound: .infinity)
        return Hit(placement: p, distance: -d, isInside: true)
    }

    /// Placement p's answer when its ink contains (x, y), else nil.
    @inline(__always) func insideHit(_ p: Int, _ x: Double, _ y: Double) -> Hit? {
        let rec = placements[p]
        let v = viewBase + Int(rec.shape)
        let (fx, fy) = toShape(rec, v, x, y)
        if !v.pointee.contains(fx, fy) { return nil }
        let d = viewDistance(rec, v, v.pointee.cellIndex(fx, fy), fx, fy, bound: .infinity)
        return Hit(placement: p, distance: -d, isInside: true)
    }

    /// The topmost placement listed in page cell `cell` whose ink contains (x, y), or -1.
    @inline(__always) func topmostListed(_ cell: Int, _ x: Double, _ y: Double) -> Int {
        var k = Int(cellStart[cell])
        let end = Int(cellStart[cell + 1])
        while k < end {
            let p = Int(cellItems[k]); k += 1
            let rec = placements[p]
            let v = viewBase + Int(rec.shape)
            let (fx, fy) = toShape(rec, v, x, y)
            if v.pointee.contains(fx, fy) { return p }
        }
        return -1
    }

    func bestHit(_ x: Double, _ y: Double, radius: Double) -> Hit? {
        guard radius > 0 else { return inkHit(x, y) }     // NaN and negatives count as 0
        if radius <= preparedRadius, let raster {
            let (code, cell) = rasterLookup(raster, x, y)
            if code < 0 { return nil }                     // no ink within the prepared radius (or not finite)
            switch code >> 2 {
            case 0:
                if code == Int(ClassRaster.far) { return nil }
                return listedHit(x, y, radius: radius, own: cell, containment: code == Int(ClassRaster.mixed))
            case 1:                                        // nearOne: only k's ink is within R, none in the cell
                let p = listed(cell, code & 3)
                let d = viewDistance(p, x, y, bound: radius)
                return d <= radius ? Hit(placement: p, distance: d, isInside: false) : nil
            case 2:                                        // touchOne: k alone
                let p = listed(cell, code & 3)
                let rec = placements[p]
                let v = viewBase + Int(rec.shape)
                let (fx, fy) = toShape(rec, v, x, y)
                let c = v.pointee.cellIndex(fx, fy)
                if v.pointee.contains(fx, fy) {
                    return Hit(placement: p, distance: -viewDistance(rec, v, c, fx, fy, bound: .infinity), isInside: true)
                }
                let d = viewDistance(rec, v, c, fx, fy, bound: radius)
                return d <= radius ? Hit(placement: p, distance: d, isInside: false) : nil
            default:                                       // touchMany: k's ink or the nearest of the list
                if let h = insideHit(listed(cell, code & 3), x, y) { return h }
                return listedHit(x, y, radius: radius, own: cell, containment: false)
            }
        }
        if let raster {
            // Above the prepared radius: the raster still says whose ink may contain the point.
            let (code, cell) = rasterLookup(raster, x, y)
            if code >= 8 {
                if let h = insideHit(listed(cell, code & 3), x, y) { return h }
                return listedHit(x, y, radius: radius, own: cell, containment: false)
            }
            if code >= 0 { return listedHit(x, y, radius: radius, own: cell, containment: code == Int(ClassRaster.mixed)) }
        }
        return listedHit(x, y, radius: radius, own: cellOf(x, y), containment: true)
    }

    /// The hit rule over the placements listed in page cell `own` (every candidate when the radius is at
    /// most the prepared radius) and, for larger radii, the window of cells around it. `containment` false:
    /// no listed placement's ink contains the point (the raster said so), only distances matter.
    func listedHit(_ x: Double, _ y: Double, radius: Double, own: Int, containment: Bool) -> Hit? {
        var near = Nearest(radius: radius, slack: tieSlack)
        if own >= 0 {
            // The point's own cell, topmost first: the first placement whose ink contains the point wins;
            // on the way, distances of the others seed the nearest (they are usually the nearest).
            var k = Int(cellStart[own])
            let end = Int(cellStart[own + 1])
            while k < end {
                let p = Int(cellItems[k]); k += 1
                let rec = placements[p]
                let v = viewBase + Int(rec.shape)
                let (fx, fy) = toShape(rec, v, x, y)
                if containment && v.pointee.contains(fx, fy) {
                    let d = viewDistance(rec, v, v.pointee.cellIndex(fx, fy), fx, fy, bound: .infinity)
                    return Hit(placement: p, distance: -d, isInside: true)
                }
                near.offer(viewDistance(rec, v, v.pointee.cellIndex(fx, fy), fx, fy, bound: near.bound), p)
            }
        } else if !(x.isFinite && y.isFinite) {
            return nil
        }
        // Up to the prepared radius the own cell lists every candidate (its list holds every placement whose
        // box grown by that radius holds the point). Beyond it, the rest of the window: placements not listed
        // in the own cell (only their distance matters).
        if radius > preparedRadius {
            forEachCandidate(x, y, radius: radius, skipping: own) { p in
                near.offer(viewDistance(p, x, y, bound: near.bound), p)
            }
        }
        guard near.placement >= 0 else { return nil }
        if near.mayTie { return resolveTie(x, y, radius: radius, own: own, nearest: near) }
        return Hit(placement: near.placement, distance: near.distance, isInside: false)
    }

    /// The second pass of the tie rule, when the first saw another candidate within the tie window of the
    /// nearest: the topmost placement `p` with `d_p − d* ≤ 1e-6 × (d* + max(e_p, e_k*))`.
    func resolveTie(_ x: Double, _ y: Double, radius: Double, own: Int, nearest near: Nearest) -> Hit {
        let dStar = near.distance
        let rk = placements[near.placement]
        let eStar = extent(rk, viewBase + Int(rk.shape))
        // The winner so far, in a value passed inout (a local function capturing two vars made the compiler
        // box them: two allocations per tie).
        var w = (placement: near.placement, distance: dStar)
        if own >= 0 {
            for k in Int(cellStart[own])..<Int(cellStart[own + 1]) {
                considerTie(Int(cellItems[k]), x, y, radius: radius, dStar: dStar, eStar: eStar, winner: &w)
            }
        }
        if radius > preparedRadius {
            forEachCandidate(x, y, radius: radius, skipping: own) {
                considerTie($0, x, y, radius: radius, dStar: dStar, eStar: eStar, winner: &w)
            }
        }
        return Hit(placement: w.placement, distance: w.distance, isInside: false)
    }

    /// `resolveTie`'s test of one candidate: a placement above the winner whose distance lies within its tie
    /// window of `dStar` wins.
    @inline(__always) func considerTie(_ p: Int, _ x: Double, _ y: Double, radius: Double, dStar: Double, eStar: Double,
                                       winner w: inout (placement: Int, distance: Double)) {
        guard p > w.placement else { return }
        let rec = placements[p]
        let v = viewBase + Int(rec.shape)
        let limit = min(radius, dStar + 1e-6 * (dStar + max(extent(rec, v), eStar)))
        let d = viewDistance(p, x, y, bound: limit)
        if d <= limit { w = (p, d) }
    }

    /// The nearest candidate of a radius query so far, and the nearest of the others.
    ///
    /// Candidates are measured exactly up to the tie window above the nearest so far,
    /// `bound = min(radius, d + 2e-6 × d + slack)` with `slack = 2e-6 × e_max` (the index's largest placement
    /// extent): wider than the rule's `1e-6 × (d* + max(e_p, e_k*))`, so a candidate measured beyond its bound
    /// can never tie with the final nearest (the bound only shrinks as the nearest does), and only the
    /// runner-up's distance decides whether the second pass is needed.
    struct Nearest {
        let radius: Double
        let slack: Double
        /// Least distance so far (view px; the radius until a candidate is within it) and its placement
        /// (-1: none yet).
        private(set) var distance: Double
        private(set) var placement = -1
        /// Least distance among the other candidates measured within their bound.
        private var runnerUp = Double.infinity
        /// The bound to measure the next candidate with.
        private(set) var bound: Double

        @inline(__always) init(radius: Double, slack: Double) {
            self.radius = radius; self.slack = slack
            distance = radius; bound = radius
        }

        /// A candidate's distance `d` (exact when ≤ `bound`).
        @inline(__always) mutating func offer(_ d: Double, _ p: Int) {
            if d < distance || (placement < 0 && d <= distance) {
                if placement >= 0 { runnerUp = distance }      // the old nearest was the least of the others
                distance = d; placement = p
                bound = min(radius, d + 2e-6 * d + slack)
            } else if d <= bound {
                runnerUp = min(runnerUp, d)
            }
        }

        /// True when another candidate may be within the tie window of the nearest.
        var mayTie: Bool { runnerUp <= bound }
    }

    func allHits(_ x: Double, _ y: Double, radius: Double, into out: inout [Hit]) {
        forEachHit(x, y, radius: radius) { out.append($0) }
    }

    func forEachHit(_ x: Double, _ y: Double, radius: Double, _ body: (Hit) -> Void) {
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
            let inside = listedInOwn && v.pointee.contains(fx, fy)
            let d = viewDistance(rec, v, v.pointee.cellIndex(fx, fy), fx, fy, bound: inside ? .infinity : r)
            if inside { body(Hit(placement: p, distance: -d, isInside: true)) }
            else if r > 0 && d <= r { body(Hit(placement: p, distance: d, isInside: false)) }
        }
    }

    /// Calls `body` once for every placement whose box grown by the prepared radius meets the square of
    /// half-side `radius − preparedRadius` around (x, y) (every placement whose box lies within `radius`),
    /// except those listed in page cell `skipping` (≥ 0). Each placement is reported from exactly one cell:
    /// the first cell of the window its grown box touches.
    @inline(__always) func forEachCandidate(_ x: Double, _ y: Double, radius: Double, skipping own: Int,
                                            _ body: (Int) -> Void) {
        guard nx > 0 else { return }
        // Lists hold each placement in every cell its box grown by the prepared radius touches, so a placement
        // within `radius` of the point is listed in a cell within `radius − preparedRadius` of it.
        let reach = radius - preparedRadius
        let rr = reach.isFinite ? max(reach, 0) : Double.greatestFiniteMagnitude   // cell arithmetic copes with ±∞
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
