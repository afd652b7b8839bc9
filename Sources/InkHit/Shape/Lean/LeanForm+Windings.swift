import InkGeometry

/// Phase 2 of a lean build: each cell's reference point (its centre unless an edge of the cell passes within
/// 1e-3 of a cell of it) and the winding number there.
///
/// The centres of a row lie on the row's centre line: the winding number at a centre is the signed count of
/// the edges crossing that line to its right (`EdgeWalk` collects the crossings). So per row: the crossings
/// sorted by x, then one sweep over the row's centres. A centre is the reference when no edge of its cell comes
/// within 1e-3 cell of it (then no crossing lies within rounding of it, and the count is its winding number);
/// otherwise another point of the cell farther from its edges is counted along its own ray.
struct Windings {
    let verts: UnsafeBufferPointer<Float>
    let hot: UnsafeMutableBufferPointer<HotCell>
    let cross: UnsafeBufferPointer<UInt32>
    let g: LeanGrid
    /// False for the fallback single-cell form, which is built whatever the time.
    var checksDeadline = true
    /// A mark per vertex and the current token.
    final class Marks {
        private let arena: Arena
        let marks: UnsafeMutablePointer<Int32>
        private var token: Int32 = 0
        init(count n: Int) {
            var layout = Arena.Layout()
            let slot = layout.reserve(Int32.self, count: n)
            arena = Arena(layout)
            marks = arena.buffer(slot, repeating: -1).baseAddress!
        }
        func next() -> Int32 { token &+= 1; return token }
    }

    /// Other reference points tried, as fractions of the cell, when the centre is too close to an edge.
    static let offsets: [(Double, Double)] = [(0.31, 0.69), (0.69, 0.31), (0.23, 0.23), (0.77, 0.77),
                                              (0.41, 0.13), (0.13, 0.41), (0.87, 0.59), (0.59, 0.87), (0.5, 0.07)]

    @inline(__always) func edge(_ i: Int) -> (Double, Double, Double, Double) {
        (Double(verts[2 * i]), Double(verts[2 * i + 1]), Double(verts[2 * i + 2]), Double(verts[2 * i + 3]))
    }

    /// `Winding.crossing` on doubles.
    @inline(__always) static func crossing(_ px: Double, _ py: Double, _ e: (Double, Double, Double, Double)) -> Int {
        let (ax, ay, bx, by) = e
        let cr = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
        if ay <= py {
            if by > py && cr > 0 { return 1 }
        } else if by <= py {
            if cr < 0 { return -1 }
        }
        return 0
    }

    /// Sorts a row's crossings `lo..<hi` by x, their signs with them: by insertion when the row holds a few
    /// (most do), else by the standard library's O(n log n) sort (a row a zigzag crosses a million times).
    static func sortRow(_ xb: UnsafeMutablePointer<Double>, _ sb: UnsafeMutablePointer<Int>, _ lo: Int, _ hi: Int) {
        if hi - lo > 32 {
            var row = (lo..<hi).map { (xb[$0], sb[$0]) }
            row.sort { $0.0 < $1.0 }
            for (k, c) in row.enumerated() { xb[lo + k] = c.0; sb[lo + k] = c.1 }
            return
        }
        var k = lo + 1
        while k < hi {
            let x = xb[k], sg = sb[k]
            var m = k
            while m > lo && xb[m - 1] > x { xb[m] = xb[m - 1]; sb[m] = sb[m - 1]; m -= 1 }
            xb[m] = x; sb[m] = sg
            k += 1
        }
    }

    func assign(_ walk: borrowing EdgeWalk) throws(ShapeError) {
        let wx = g.wx, wy = g.wy
        // Crossings bucketed by row (counting sort), then sorted by x within each row.
        let n = walk.crossings.count
        let scratch = Arena.scratch(rows: wy, crossings: n)
        let start = scratch.start, xb = scratch.xs, sb = scratch.signs
        let cr = walk.crossings.base
        for k in 0..<n { start[(cr[k].rowSign &>> 1) &+ 1] &+= 1 }
        for j in 0..<wy { start[j + 1] &+= start[j] }
        for k in 0..<n {
            let j = cr[k].rowSign &>> 1
            let at = start[j]
            xb[at] = cr[k].x; sb[at] = (cr[k].rowSign & 1) != 0 ? 1 : -1
            start[j] = at &+ 1
        }
        var j = wy
        while j > 0 { start[j] = start[j - 1]; j -= 1 }
        start[0] = 0
        var marks: Marks? = nil                         // made by the first cell that needs its own ray
        for j in 0..<wy {
            if checksDeadline && j & 63 == 63 && BuildDeadline.hasPassed { throw .timeLimit }
            let lo = start[j], hi = start[j + 1]
            Self.sortRow(xb, sb, lo, hi)
            var k: Int
            // Sweep the centres right to left, adding crossings as they fall to the right of the centre.
            let y = g.rowY(j)
            var w = 0
            k = hi
            var i = wx - 1
            while i >= 0 {
                let x = g.columnX(i)
                while k > lo && xb[k - 1] > x { k -= 1; w += sb[k] }
                setReference(j, i, x: x, y: y, rayCount: w, marks: &marks)
                i -= 1
            }
        }
        withExtendedLifetime(scratch) {}
    }

    /// Cell (i, j)'s reference: the centre (x, y), whose ray count is `rayCount`, when no edge of the cell passes
    /// within 1e-3 cell of it; else the listed point of the cell farthest from its edges, counted along its ray
    /// through the row.
    @inline(__always) private func setReference(_ j: Int, _ i: Int, x: Double, y: Double, rayCount: Int,
                                                marks: inout Marks?) {
        let c = j * g.wx + i
        let lo = Int(hot[c].crossStart), hi = Int(hot[c + 1].crossStart)
        let need = 1e-6 * g.cell * g.cell                  // (1e-3 cell)²
        if lo == hi || isClear(x, y, lo, hi, need2: need * (1 + 1e-9)) {
            hot[c].refX = Float(x); hot[c].refY = Float(y); hot[c].winding = Int32(clamping: rayCount)
            return
        }
        var best = (x: x, y: y, clear: clearance2(x, y, lo, hi))
        if best.clear > need {
            hot[c].refX = Float(x); hot[c].refY = Float(y); hot[c].winding = Int32(clamping: rayCount)
            return
        }
        let x0 = g.originX + Double(i) * g.cell, y0 = g.originY + Double(j) * g.cell
        for (fx, fy) in Self.offsets {
            let cx = Double(Float(x0 + fx * g.cell)), cy = Double(Float(y0 + fy * g.cell))
            let d = clearance2(cx, cy, lo, hi)
            if d > best.clear { best = (cx, cy, d) }
            if d > need { break }
        }
        hot[c].refX = Float(best.x); hot[c].refY = Float(best.y)
        if best.x == x && best.y == y { hot[c].winding = Int32(clamping: rayCount); return }
        let seen = marks ?? Marks(count: verts.count / 2)
        marks = seen
        // A ray at another height: every edge of the row's cells from this one rightwards (an edge crossing the
        // ray meets one of them), each once.
        var w = 0
        let rowEnd = j * g.wx + g.wx
        let token = seen.next()
        for cc in c..<rowEnd {
            for q in Int(hot[cc].crossStart)..<Int(hot[cc + 1].crossStart) {
                let k = Int(cross[q])
                if seen.marks[k] == token { continue }
                seen.marks[k] = token
                w += Self.crossing(best.x, best.y, edge(k))
            }
        }
        hot[c].winding = Int32(clamping: w)
    }

    /// Squared distance from (x, y) to the nearest of cell list `lo..<hi`'s edges (∞ for none).
    private func clearance2(_ x: Double, _ y: Double, _ lo: Int, _ hi: Int) -> Double {
        var best = Double.infinity
        for q in lo..<hi {
            let (ax, ay, bx, by) = edge(Int(cross[q]))
            let abx = bx - ax, aby = by - ay, apx = x - ax, apy = y - ay
            let l2 = abx * abx + aby * aby
            let t = l2 > 0 ? max(0, min(1, (apx * abx + apy * aby) / l2)) : 0
            let qx = apx - abx * t, qy = apy - aby * t
            best = min(best, qx * qx + qy * qy)
        }
        return best
    }

    /// Whether every edge of cell list `lo..<hi` passes farther than √`need2` from (x, y): the usual case,
    /// decided without a division.
    private func isClear(_ x: Double, _ y: Double, _ lo: Int, _ hi: Int, need2: Double) -> Bool {
        for q in lo..<hi {
            let (ax, ay, bx, by) = edge(Int(cross[q]))
            let abx = bx - ax, aby = by - ay, apx = x - ax, apy = y - ay
            let dot = apx * abx + apy * aby, l2 = abx * abx + aby * aby
            if dot <= 0 {
                if apx * apx + apy * apy <= need2 { return false }
            } else if dot >= l2 {
                let bpx = x - bx, bpy = y - by
                if bpx * bpx + bpy * bpy <= need2 { return false }
            } else {
                let cr = apx * aby - apy * abx
                if cr * cr <= need2 * l2 { return false }
            }
        }
        return true
    }
}
