import InkGeometry

/// One walk over the edges. For each edge and each row of cells it meets (closed cells grown by
/// `LeanGrid.eps`): the cells of that row it meets, from its x-range within the row's band, as
/// `cell << 32 | start vertex` pairs; and, when it crosses the row's centre line by the half-open rule of
/// `Winding.crossing` (a line at the height of a vertex counts as below it), that crossing (x, ±1).
struct EdgeWalk: ~Copyable {
    /// A crossing of a row's centre line: x, and the row and sign (`row << 1 | (sign > 0 ? 1 : 0)`).
    struct Crossing { var x: Double, rowSign: Int }

    let g: LeanGrid
    var pairs: ScratchBuffer<UInt64>
    /// Crossings of the rows' centre lines, in walk order.
    var crossings: ScratchBuffer<Crossing>

    init(g: LeanGrid, edges: Int) {
        self.g = g
        pairs = ScratchBuffer(capacity: 3 * edges + 16)
        crossings = ScratchBuffer(capacity: 2 * edges + 16)
    }

    /// How a walk ended.
    enum Outcome { case done, timedOut, tooManyPairs }

    /// Walks every edge, unless `checksDeadline` and the build's deadline passed (checked every 4,096 edges)
    /// or the cell lists passed `maxPairs` entries (checked after each edge, which adds at most a few rows'
    /// cells): then the walk is left unfinished.
    /// Longer than a screen: the edge walk's inner loop keeps its row state in locals (the lean build's hot loop).
    mutating func run(_ v: UnsafePointer<Float>, _ cs: UnsafeBufferPointer<UInt32>, vertexCount: Int,
                      checksDeadline: Bool, maxPairs: Int) -> Outcome {
        let e = g.eps, inv = 1 / g.cell, ox = g.originX, oy = g.originY, cell = g.cell
        let wx = g.wx, wy = g.wy
        // Cell coordinates lie within the grid (−1 … wx + 1): floor and ceil by truncation after an offset.
        @inline(__always) func floorI(_ x: Double) -> Int { Int(x + 8.0) &- 8 }
        @inline(__always) func ceilI(_ x: Double) -> Int { 8 &- Int(8.0 - x) }
        // y of row j's centre line, as `LeanGrid.rowY` stores it.
        @inline(__always) func rowY(_ j: Int) -> Double { Double(Float(oy + (Double(j) + 0.5) * cell)) }
        if wx == 1 && wy == 1 { return runSingleCell(v, cs, vertexCount: vertexCount, y: rowY(0)) }
        for ci in 0..<cs.count {
            let first = Int(cs[ci])
            let end = ci + 1 < cs.count ? Int(cs[ci + 1]) : vertexCount
            var i = first
            var bx = Double(v[2 * i]), by = Double(v[2 * i + 1])
            var u1 = (bx - ox) * inv, v1 = (by - oy) * inv
            while i < end - 1 {
                if checksDeadline && i & 4095 == 4095 && BuildDeadline.hasPassed { return .timedOut }
                if pairs.count > maxPairs { return .tooManyPairs }
                let ax = bx, ay = by, u0 = u1, v0 = v1
                bx = Double(v[2 * i + 2]); by = Double(v[2 * i + 3])
                u1 = (bx - ox) * inv; v1 = (by - oy) * inv
                let vertex = UInt64(i)
                i += 1
                let ulo = u0 < u1 ? u0 : u1, uhi = u0 < u1 ? u1 : u0
                let vlo = v0 < v1 ? v0 : v1, vhi = v0 < v1 ? v1 : v0
                let ja = max(0, ceilI(vlo - 1 - e)), jb = min(wy - 1, floorI(vhi + e))
                let ia = max(0, ceilI(ulo - 1 - e)), ib = min(wx - 1, floorI(uhi + e))
                // Row by row: the crossing of the row's centre line, if any (row j's line lies ½ cell inside
                // its band, so every line the edge crosses is that of a row it meets), then the row's cells —
                // the edge's box for an edge within one row or one column (or a horizontal one), else its
                // x-range within the row's band (grown by a further eps for the parameter's rounding).
                let exact = ja == jb || ia == ib || v0 == v1
                let crosses = ay != by
                let ylo = ay < by ? ay : by, yhi = ay < by ? by : ay
                let up = by > ay ? 1 : 0
                let slope = crosses ? (bx - ax) / (by - ay) : 0
                let dv = exact ? 0 : 1 / (v1 - v0), du = u1 - u0
                var j = ja
                while j <= jb {
                    if crosses {
                        let y = rowY(j)
                        if y >= ylo && y < yhi { crossings.append(Crossing(x: ax + (y - ay) * slope, rowSign: j &<< 1 | up)) }
                    }
                    var ra = ia, rb = ib
                    if !exact {
                        let t0 = (Double(j) - e - v0) * dv, t1 = (Double(j) + 1 + e - v0) * dv
                        let tlo = max(0, min(t0, t1)), thi = min(1, max(t0, t1))
                        let a = u0 + du * tlo, b = u0 + du * thi
                        ra = max(ia, ceilI((a < b ? a : b) - 1 - 2 * e))
                        rb = min(ib, floorI((a < b ? b : a) + 2 * e))
                    }
                    var c = j &* wx &+ ra
                    let cEnd = j &* wx &+ rb
                    while c <= cEnd { pairs.append(UInt64(truncatingIfNeeded: c) &<< 32 | vertex); c &+= 1 }
                    j &+= 1
                }
            }
        }
        return .done
    }

    /// The walk of a one-cell grid (the fallback form): every edge in the cell's list, and its crossing of
    /// the cell's centre line `y`.
    private mutating func runSingleCell(_ v: UnsafePointer<Float>, _ cs: UnsafeBufferPointer<UInt32>, vertexCount: Int,
                                        y: Double) -> Outcome {
        for ci in 0..<cs.count {
            let end = ci + 1 < cs.count ? Int(cs[ci + 1]) : vertexCount
            var i = Int(cs[ci])
            while i < end - 1 {
                let ax = Double(v[2 * i]), ay = Double(v[2 * i + 1]), bx = Double(v[2 * i + 2]), by = Double(v[2 * i + 3])
                let ylo = ay < by ? ay : by, yhi = ay < by ? by : ay
                if ay != by && y >= ylo && y < yhi {
                    crossings.append(Crossing(x: ax + (y - ay) * ((bx - ax) / (by - ay)), rowSign: by > ay ? 1 : 0))
                }
                pairs.append(UInt64(i))
                i += 1
            }
        }
        return .done
    }

    /// The pairs counted into the cells' list starts (`hot[c].crossStart`, sentinel included) and the lists.
    func sortPairs(into hot: UnsafeMutableBufferPointer<HotCell>, _ cross: UnsafeMutableBufferPointer<UInt32>) {
        let n = g.wx * g.wy
        // The starts live in the hot cells' `crossStart` (one more cell than there are cells: the sentinel).
        let h = hot.baseAddress!, out = cross.baseAddress!
        for c in 0...n { h[c] = HotCell(refX: 0, refY: 0, crossStart: 0, winding: 0) }
        let pb = pairs.buffer
        for p in pb { h[Int(p &>> 32) &+ 1].crossStart &+= 1 }
        for c in 0..<n { h[c + 1].crossStart &+= h[c].crossStart }
        for p in pb {
            let c = Int(p &>> 32)
            out[Int(h[c].crossStart)] = UInt32(truncatingIfNeeded: p)
            h[c].crossStart &+= 1
        }
        // Each start moved to the next cell's: shift back.
        var c = n
        while c > 0 { h[c].crossStart = h[c - 1].crossStart; c -= 1 }
        h[0].crossStart = 0
    }
}
