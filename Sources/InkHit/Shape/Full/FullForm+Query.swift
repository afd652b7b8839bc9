import InkGeometry

// Queries of a full form (`FullForm`) through its `ShapeView`: the winding test over crossing lists of edge copies,
// and distances from the near lists of the distance grid. The lean form's counterparts (LeanForm+Query.swift)
// compute exactly the same numbers for the same edges.

extension ShapeView {
    /// `winding(hotCell:_:_:)` of a full form: its crossing lists hold the edges in canonical direction, with
    /// their sign and the reference point's side.
    @inline(__always) func fullWinding(hotCell c: Int, _ x: Double, _ y: Double) -> Int32 {
        let cell = hot[c]
        var k = Int(cell.crossStart)
        let end = Int(hot[c + 1].crossStart)
        var w = cell.winding
        let rx = Double(cell.refX), ry = Double(cell.refY)
        let dx = x - rx, dy = y - ry
        while k < end {
            let e = cross[k]
            k += 1
            let ax = Double(e.ax), ay = Double(e.ay), bx = Double(e.bx), by = Double(e.by)
            // Sides of the edge's ends relative to the path line r → q (on the line counts as "not left"),
            // and of q relative to the edge line (r's side is stored).
            let sa = dx * (ay - ry) - dy * (ax - rx) > 0
            let sb = dx * (by - ry) - dy * (bx - rx) > 0
            let qLeft = (bx - ax) * (y - ay) - (by - ay) * (x - ax) > 0
            let crosses = (sa != sb) && (qLeft != (e.refLeft != 0))
            let s = Int32(e.sign)
            w &+= crosses ? (qLeft ? s : -s) : 0
        }
        return w
    }

    /// `distance(cell:_:_:bound:)` of a full form, past the box and cell bounds: the near list of the point's
    /// 2×2 block, or every prepared edge for a point outside the distance grid.
    @inline(__always) func fullDistance(cell c: Int, _ x: Double, _ y: Double, bound: Double) -> Double {
        let cold = cold.unsafelyUnwrapped
        if c >= 0 && cold[c].hasNear {
            // Near edges come sorted by their distance from the block centre (the far corner of the block's
            // first cell); minus |p − centre| that bounds the distance from p: stop at the first edge whose
            // bound cannot reach `best`.
            let cell = cold[c]
            var k = Int(cell.nearStart)
            let end = Int(cell.nearEnd)
            let cx = originX + Double((Int((x - originX) * invCell) & ~1) &+ 1) * cellSize
            let cy = originY + Double((Int((y - originY) * invCell) & ~1) &+ 1) * cellSize
            let pc = ((x - cx) * (x - cx) + (y - cy) * (y - cy)).squareRoot() * (1 + 1e-12)
            var best2 = bound < .infinity ? bound * bound : .infinity
            var found = false
            // No branch per entry but the loops' own (random points make every other test a coin toss):
            // entries within |p − centre| of the centre cannot be excluded; beyond, the bound decides.
            while k < end {
                let e = near[k]
                if Double(e.centerDistance) > pc { break }
                let d2 = Self.dist2(x, y, prepared[Int(e.edge)])
                found = found || d2 <= best2
                best2 = d2 < best2 ? d2 : best2
                k += 1
            }
            while k < end {
                let e = near[k]
                let lo = Double(e.centerDistance) - pc
                if lo * lo > best2 { break }
                let d2 = Self.dist2(x, y, prepared[Int(e.edge)])
                found = found || d2 <= best2
                best2 = d2 < best2 ? d2 : best2
                k += 1
            }
            return found ? best2.squareRoot() : .infinity
        }
        var best2 = Double.infinity
        for k in 0..<edgeCount { best2 = min(best2, Self.dist2(x, y, prepared[k])) }
        return best2.squareRoot()
    }

    /// Squared distance from (x, y) to edge `e` (shape units).
    @inline(__always) static func dist2(_ x: Double, _ y: Double, _ e: FEdge) -> Double {
        let ax = Double(e.x0), ay = Double(e.y0)
        let abx = Double(e.x1) - ax, aby = Double(e.y1) - ay
        let apx = x - ax, apy = y - ay
        let len2 = abx * abx + aby * aby
        var t = (apx * abx + apy * aby) / len2
        t = t < 0 ? 0 : (t > 1 ? 1 : t)
        let qx = apx - abx * t, qy = apy - aby * t
        return qx * qx + qy * qy
    }

    /// Squared distance from (x, y) to a prepared edge (shape units).
    @inline(__always) static func dist2(_ x: Double, _ y: Double, _ e: NearEdge) -> Double {
        let apx = x - Double(e.ax), apy = y - Double(e.ay)
        let ex = Double(e.ex), ey = Double(e.ey)
        let inv = e.invLen2 > 0 ? Double(e.invLen2) : 1 / max(ex * ex + ey * ey, .leastNormalMagnitude)
        let t = clamp01((apx * ex + apy * ey) * inv)
        let qx = apx - ex * t, qy = apy - ey * t
        return qx * qx + qy * qy
    }
}
