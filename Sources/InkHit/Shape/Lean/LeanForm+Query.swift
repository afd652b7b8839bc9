import InkGeometry

// Queries of a lean form (`LeanForm`) through its `ShapeView`: the winding test over crossing lists of vertex
// indices, distances by a ring search of the winding grid, and every edge for the general-map distance.
// Each computes exactly what the full form's counterpart computes for the same edges (the same canonical
// direction and side tests, the same `NearEdge` arithmetic), so a shape answers alike in either form.

extension ShapeView {
    /// `winding(hotCell:_:_:)` of a lean form: the edges of cell `c` are read through their start vertices and
    /// put in canonical direction here (the full form stores them that way).
    @inline(__always) func leanWinding(hotCell c: Int, _ x: Double, _ y: Double) -> Int32 {
        let cell = hot[c]
        var k = Int(cell.crossStart)
        let end = Int(hot[c + 1].crossStart)
        var w = cell.winding
        let rx = Double(cell.refX), ry = Double(cell.refY)
        let dx = x - rx, dy = y - ry
        let idx = leanCross, v = verts
        while k < end {
            let i = Int(idx[k]) &* 2
            k += 1
            let x0 = v[i], y0 = v[i + 1], x1 = v[i + 2], y1 = v[i + 3]
            let flip = x0 > x1 || (x0 == x1 && y0 > y1)
            let ax = Double(flip ? x1 : x0), ay = Double(flip ? y1 : y0)
            let bx = Double(flip ? x0 : x1), by = Double(flip ? y0 : y1)
            let ex = bx - ax, ey = by - ay
            let refLeft = ex * (ry - ay) - ey * (rx - ax) > 0
            let sa = dx * (ay - ry) - dy * (ax - rx) > 0
            let sb = dx * (by - ry) - dy * (bx - rx) > 0
            let qLeft = ex * (y - ay) - ey * (x - ax) > 0
            let crosses = (sa != sb) && (qLeft != refLeft)
            let s: Int32 = flip ? -1 : 1
            w &+= crosses ? (qLeft ? s : -s) : 0
        }
        return w
    }

    /// Squared distance from (x, y) to the lean edge starting at vertex `i`, by `NearEdge`'s arithmetic (its
    /// direction and 1/length² rounded to `Float`), so both forms measure an edge alike.
    @inline(__always) func leanDist2(_ x: Double, _ y: Double, _ i: Int) -> Double {
        let v = verts
        let ax = v[2 * i], ay = v[2 * i + 1]
        let exf = v[2 * i + 2] - ax, eyf = v[2 * i + 3] - ay
        let ex = Double(exf), ey = Double(eyf)
        let l2 = ex * ex + ey * ey
        let invF = Float(1 / l2)
        let inv = (l2 > 0 && invF.isNormal) ? Double(invF) : 1 / max(l2, .leastNormalMagnitude)
        let apx = x - Double(ax), apy = y - Double(ay)
        let t = clamp01((apx * ex + apy * ey) * inv)
        let qx = apx - ex * t, qy = apy - ey * t
        return qx * qx + qy * qy
    }

    /// Exact distance (shape units) from (x, y) to a lean form's outline when it is ≤ `bound`, else some value
    /// > `bound` (possibly ∞): the winding grid's cells in rings of growing Chebyshev distance around the
    /// point's cell, until a ring's nearest possible point, (r − 1) cells away, is beyond the best so far.
    func leanDistance(_ x: Double, _ y: Double, bound: Double) -> Double {
        let nx = wx, ny = wy
        // The point's cell, possibly outside the grid (clamped far enough that the arithmetic stays in range).
        let fx = min(max((x - wOriginX) * invCell, -1e15), 1e15), fy = min(max((y - wOriginY) * invCell, -1e15), 1e15)
        let ci = Int(fx.rounded(.down)), cj = Int(fy.rounded(.down))
        // The first ring that meets the grid, and the last one that holds any of it.
        let r0 = max(0, -ci, ci - (nx - 1), -cj, cj - (ny - 1))
        let r1 = max(ci, nx - 1 - ci, cj, ny - 1 - cj, r0)
        var best2 = bound < .infinity ? bound * bound * (1 + 1e-12) : .infinity
        var found = false
        let idx = leanCross
        var r = r0
        while r <= r1 {
            let low = Double(r - 1) * cellSize * (1 - 1e-9)
            if low > 0 && low * low > best2 { break }
            forEachRingCell(ci, cj, r, nx, ny) { c in
                var k = Int(hot[c].crossStart)
                let end = Int(hot[c + 1].crossStart)
                while k < end {
                    let d2 = leanDist2(x, y, Int(idx[k]))
                    found = found || d2 <= best2
                    best2 = d2 < best2 ? d2 : best2
                    k += 1
                }
            }
            r += 1
        }
        return found ? best2.squareRoot() : .infinity
    }
}
