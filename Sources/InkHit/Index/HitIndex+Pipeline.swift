import InkGeometry

// Batch queries in stages. A point's answer is a chain of dependent loads (raster cell → page list → record →
// shape view → shape cell → edges); one point at a time, each waits for the last. The batch calls answer
// points 64 at a time, stage by stage — all their raster cells, then the named placements' records, then
// the shape cells, then the winding tests — so the loads of one stage are independent and overlap.

extension HitIndex.Storage {
    /// Points per stage.
    static let lanes = 64

    /// The stages' scratch on the stack (no allocation): 8 × 64 `Int32` and 2 × 64 `Double`.
    @inline(__always)
    static func withLanes(_ body: (UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Double>) -> Void) {
        var words = (SIMD64<UInt64>(), SIMD64<UInt64>(), SIMD64<UInt64>(), SIMD64<UInt64>(), SIMD64<UInt64>(), SIMD64<UInt64>())
        withUnsafeMutableBytes(of: &words) { raw in
            let ints = raw.baseAddress!.bindMemory(to: Int32.self, capacity: 8 * lanes)
            let dbl = (raw.baseAddress! + 32 * lanes).bindMemory(to: Double.self, capacity: 2 * lanes)
            body(ints, dbl)
        }
    }

    /// The raster code and page cell of (x, y) without a branch on the range: code 0 (`far`) outside the
    /// raster and for non-finite points.
    @inline(__always) func laneLookup(_ raster: UnsafeMutablePointer<UInt8>, _ x: Double, _ y: Double) -> (code: Int, cell: Int) {
        let gx = (x - originX) * invRasterCell, gy = (y - originY) * invRasterCell
        let ok = gx >= 0 && gy >= 0 && gx < rasterWidth && gy < rasterHeight      // NaN: false
        let ix = Int(ok ? gx : 0), iy = Int(ok ? gy : 0)
        let cell = (iy &>> rasterShift) &* nx &+ (ix &>> rasterShift)
        let c = ((iy & rasterMask) &<< rasterShift) | (ix & rasterMask)
        let byte = raster[cell &* rasterTileBytes &+ (c &>> 1)]
        let code = Int(byte &>> UInt8(truncatingIfNeeded: (c & 1) &<< 2)) & 15
        return (ok ? code : 0, cell)
    }

    /// `topmost` for `n` points, in stages, into `out` (-1: none).
    func topmostStaged(_ pts: UnsafePointer<Point>, _ n: Int, into out: UnsafeMutablePointer<Int>,
                       raster: UnsafeMutablePointer<UInt8>) {
        inkStaged(pts, n, raster: raster, distances: false, clear: { out[$0] = -1 }, emit: { i, q, _ in out[i] = q })
    }

    /// The stages at radius 0: `clear(i)` for every point, then `emit(i, placement, distance)` for those on
    /// ink (distance 0 unless `distances`).
    /// Longer than a screen: the stages share one 64-point block of registers and buffers; split, they cost the batch query.
    @inline(__always)
    func inkStaged(_ pts: UnsafePointer<Point>, _ n: Int, raster: UnsafeMutablePointer<UInt8>, distances: Bool,
                   clear: (Int) -> Void, emit: (Int, Int, Double) -> Void) {
        let k = Self.lanes
        Self.withLanes { ints, dbl in
            let lane = ints, mixed = lane + k, pl = lane + 2 * k, cellOf = lane + 3 * k
            let shp = lane + 4 * k, mp = lane + 5 * k, hc = lane + 6 * k
            let fxs = dbl, fys = fxs + k
            var base = 0
            while base < n {
                let count = min(k, n - base)
                let p = pts + base
                // 1. Raster cells; points naming a placement listed, mixed ones apart.
                var nt = 0, nm = 0
                for j in 0..<count {
                    let (code, cell) = laneLookup(raster, p[j].x, p[j].y)
                    clear(base &+ j)
                    lane[nt] = Int32(truncatingIfNeeded: j)
                    cellOf[nt] = Int32(truncatingIfNeeded: cell &* 4 &+ (code & 3))
                    nt &+= code >= 8 ? 1 : 0
                    mixed[nm] = Int32(truncatingIfNeeded: j)
                    nm &+= code == Int(ClassRaster.mixed) ? 1 : 0
                }
                // 2. The named placements.
                for t in 0..<nt {
                    let ck = Int(cellOf[t])
                    pl[t] = Int32(truncatingIfNeeded: listed(ck &>> 2, ck & 3))
                }
                // 3. Records: the point relative to the anchor, and the shape.
                stageRecords(nt, p, lane, pl, fxs, fys, shp, mp)
                // 4. Maps and views: shape coordinates, and the winding cell (its reference point and
                //    crossing range read here, so the next stage's loads are the edges only).
                for t in 0..<nt {
                    let v = viewBase + Int(shp[t])
                    let (fx, fy) = stageToShape(t, v, fxs, fys, mp)
                    hc[t] = Int32(truncatingIfNeeded: v.pointee.windingCell(fx, fy))
                }
                // 5. Winding tests; the inside ones kept.
                var ni = 0
                for t in 0..<nt {
                    let v = viewBase + Int(shp[t])
                    let c = Int(hc[t])
                    let w = c < 0 ? 0 : v.pointee.winding(hotCell: c, fxs[t], fys[t])
                    let inside = w & v.pointee.windingMask != 0
                    lane[ni] = lane[t]; pl[ni] = pl[t]; fxs[ni] = fxs[t]; fys[ni] = fys[t]
                    ni &+= inside ? 1 : 0
                }
                // 6. Distances of the inside ones.
                for t in 0..<ni {
                    let j = Int(lane[t]), q = Int(pl[t])
                    var d = 0.0
                    if distances {
                        let rec = placements[q]
                        let v = viewBase + Int(rec.shape)
                        d = viewDistance(rec, v, v.pointee.cellIndex(fxs[t], fys[t]), fxs[t], fys[t], bound: .infinity)
                    }
                    emit(base &+ j, q, d)
                }
                // 7. Mixed cells: the page cell's list.
                for t in 0..<nm {
                    let j = Int(mixed[t])
                    let x = p[j].x, y = p[j].y
                    let (_, cell) = laneLookup(raster, x, y)
                    let q = topmostListed(cell, x, y)
                    if q < 0 { continue }
                    var d = 0.0
                    if distances {
                        let rec = placements[q]
                        let v = viewBase + Int(rec.shape)
                        let (fx, fy) = toShape(rec, v, x, y)
                        d = viewDistance(rec, v, v.pointee.cellIndex(fx, fy), fx, fy, bound: .infinity)
                    }
                    emit(base &+ j, q, d)
                }
                base += count
            }
        }
    }

    /// Answers for `n` points at a radius 0 < r ≤ the prepared radius, in stages: the raster cells; the one
    /// placement a cell names (its record, map and view, winding and distance cells; its winding test when its
    /// ink may contain the point; its distance); then the points whose cell has several candidates, by the
    /// page cell's list (`listedHit`). `emit(i, hit)` for every point.
    /// Longer than a screen: as `inkStaged`, the stages share one block of buffers on the hot path.
    @inline(__always)
    func nearStaged(_ pts: UnsafePointer<Point>, _ n: Int, radius: Double, raster: UnsafeMutablePointer<UInt8>,
                    emit: (Int, Hit?) -> Void) {
        let k = Self.lanes
        Self.withLanes { ints, dbl in
            let lane = ints, many = lane + k, pl = lane + 2 * k, cellOf = lane + 3 * k
            let shp = lane + 4 * k, mp = lane + 5 * k, hc = lane + 6 * k, codes = lane + 7 * k
            let fxs = dbl, fys = fxs + k
            var base = 0
            while base < n {
                let count = min(k, n - base)
                let p = pts + base
                // 1. Raster cells: one named candidate (nearOne, touchOne, touchMany) or the list (nearMany,
                //    mixed); far cells and points outside the raster miss.
                var nc = 0, nl = 0
                for j in 0..<count {
                    let (code, cell) = laneLookup(raster, p[j].x, p[j].y)
                    lane[nc] = Int32(truncatingIfNeeded: j)
                    cellOf[nc] = Int32(truncatingIfNeeded: cell &* 4 &+ (code & 3))
                    codes[nc] = Int32(truncatingIfNeeded: code)
                    nc &+= code >= 4 ? 1 : 0
                    many[nl] = Int32(truncatingIfNeeded: j)
                    nl &+= code == 1 || code == 2 ? 1 : 0
                    if code == 0 { emit(base &+ j, nil) }
                }
                // 2. The named placements.
                for t in 0..<nc {
                    let ck = Int(cellOf[t])
                    pl[t] = Int32(truncatingIfNeeded: listed(ck &>> 2, ck & 3))
                }
                // 3. Records.
                stageRecords(nc, p, lane, pl, fxs, fys, shp, mp)
                // 4. Maps and views: shape coordinates, the winding cell (touch codes) and the distance cell.
                for t in 0..<nc {
                    let v = viewBase + Int(shp[t])
                    let (fx, fy) = stageToShape(t, v, fxs, fys, mp)
                    hc[t] = Int32(truncatingIfNeeded: codes[t] >= 8 ? v.pointee.windingCell(fx, fy) : -1)
                    cellOf[t] = Int32(truncatingIfNeeded: v.pointee.cellIndex(fx, fy))
                }
                // 5. Winding tests (touch codes), then distances.
                for t in 0..<nc {
                    let j = Int(lane[t]), q = Int(pl[t])
                    let rec = placements[q]
                    let v = viewBase + Int(shp[t])
                    let c = Int(hc[t])
                    if c >= 0 && v.pointee.winding(hotCell: c, fxs[t], fys[t]) & v.pointee.windingMask != 0 {
                        let d = viewDistance(rec, v, Int(cellOf[t]), fxs[t], fys[t], bound: .infinity)
                        emit(base &+ j, Hit(placement: q, distance: -d, isInside: true))
                    } else if codes[t] >= 12 {
                        // touchMany, not on k's ink: the nearest of the list.
                        many[nl] = lane[t]; nl &+= 1
                        codes[t] = -1
                    } else {
                        let d = viewDistance(rec, v, Int(cellOf[t]), fxs[t], fys[t], bound: radius)
                        emit(base &+ j, d <= radius ? Hit(placement: q, distance: d, isInside: false) : nil)
                    }
                }
                // 6. Several candidates: the page cell's list.
                for t in 0..<nl {
                    let j = Int(many[t])
                    let x = p[j].x, y = p[j].y
                    let (code, cell) = laneLookup(raster, x, y)
                    emit(base &+ j, listedHit(x, y, radius: radius, own: cell, containment: code == Int(ClassRaster.mixed)))
                }
                base += count
            }
        }
    }

    /// Stage 3 of a batch: for the `n` lanes, the point `p[lane[t]]` relative to placement `pl[t]`'s anchor
    /// (into `fxs`, `fys`) and the placement's shape and map (into `shp`, `mp`).
    @inline(__always)
    func stageRecords(_ n: Int, _ p: UnsafePointer<Point>, _ lane: UnsafeMutablePointer<Int32>,
                      _ pl: UnsafeMutablePointer<Int32>, _ fxs: UnsafeMutablePointer<Double>,
                      _ fys: UnsafeMutablePointer<Double>, _ shp: UnsafeMutablePointer<Int32>,
                      _ mp: UnsafeMutablePointer<Int32>) {
        for t in 0..<n {
            let j = Int(lane[t])
            let rec = placements[Int(pl[t])]
            fxs[t] = p[j].x - (anchorBaseX + Double(rec.cellMinX) * cellSize + Double(rec.dx))
            fys[t] = p[j].y - (anchorBaseY + Double(rec.cellMinY) * cellSize + Double(rec.dy))
            shp[t] = Int32(bitPattern: rec.shape); mp[t] = Int32(bitPattern: rec.map)
        }
    }

    /// Stage 4's common part: lane `t`'s anchor-relative point through its map into shape units of view `v`,
    /// stored back in `fxs[t]`, `fys[t]` and returned.
    @inline(__always)
    func stageToShape(_ t: Int, _ v: UnsafeMutablePointer<ShapeView>, _ fxs: UnsafeMutablePointer<Double>,
                      _ fys: UnsafeMutablePointer<Double>, _ mp: UnsafeMutablePointer<Int32>) -> (Double, Double) {
        let m = maps[Int(mp[t])]
        let dx = fxs[t], dy = fys[t]
        let fx = v.pointee.wOriginX + (Double(m.m00) * dx + Double(m.m01) * dy)
        let fy = v.pointee.wOriginY + (Double(m.m10) * dx + Double(m.m11) * dy)
        fxs[t] = fx; fys[t] = fy
        return (fx, fy)
    }
}
