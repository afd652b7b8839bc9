import InkGeometry

/// A shape's polygon, made with the shape: `Float` vertices, contour by contour; each contour ends with a copy
/// of its first vertex, so edge `i` runs from vertex `i` to vertex `i + 1` (the edges of contour `c` start at
/// vertices `contours[c] ..< contours[c + 1] − 1`). One allocation; both forms read it in place.
final class PolygonStore: @unchecked Sendable {
    private let arena: Arena
    /// x, y per vertex (shape units).
    let verts: UnsafeMutableBufferPointer<Float>
    /// Start vertex of each contour, then the vertex count.
    let contours: UnsafeMutableBufferPointer<UInt32>
    let edgeCount: Int
    /// The box of the vertices (empty without edges).
    let bounds: Rect

    /// Bytes of the store.
    var byteCount: Int { arena.byteCount + 48 }

    /// Copies `verts` and the contour starts (each contour closed by a copy of its first vertex), checking the
    /// edge count against `limits`.
    init(verts v: [Float], contourStarts: [UInt32], limits: ShapeLimits) throws(ShapeError) {
        let vertexCount = v.count / 2
        var edges = 0
        for (c, s) in contourStarts.enumerated() {
            let end = c + 1 < contourStarts.count ? Int(contourStarts[c + 1]) : vertexCount
            edges += end - Int(s) - 1
        }
        guard edges <= limits.maxEdges else { throw .tooManyEdges(limit: limits.maxEdges) }
        guard v.count * 4 + contourStarts.count * 4 <= limits.maxBytes else { throw .tooLarge(limit: limits.maxBytes) }
        var layout = Arena.Layout()
        let vertSlot = layout.reserve(Float.self, count: v.count)
        let contourSlot = layout.reserve(UInt32.self, count: contourStarts.count + 1)
        arena = Arena(layout)
        verts = arena.buffer(vertSlot, from: v)
        contours = arena.buffer(contourSlot)
        for (i, s) in contourStarts.enumerated() { contours.initializeElement(at: i, to: s) }
        contours.initializeElement(at: contourStarts.count, to: UInt32(vertexCount))
        edgeCount = edges
        var minX = Float.infinity, minY = Float.infinity, maxX = -Float.infinity, maxY = -Float.infinity
        var k = 0
        while k < v.count {
            minX = min(minX, v[k]); maxX = max(maxX, v[k])
            minY = min(minY, v[k + 1]); maxY = max(maxY, v[k + 1])
            k += 2
        }
        bounds = edges > 0 ? Rect(minX: Double(minX), minY: Double(minY), maxX: Double(maxX), maxY: Double(maxY)) : .empty
    }

    /// Calls `body` with every edge's start vertex, contour by contour.
    @inline(__always) func forEachEdge(_ body: (Int) -> Void) {
        for c in 0..<(contours.count - 1) {
            for i in Int(contours[c])..<(Int(contours[c + 1]) - 1) { body(i) }
        }
    }

    /// The edges as `FEdge`, in polygon order.
    var edges: [FEdge] {
        var out: [FEdge] = []
        out.reserveCapacity(edgeCount)
        forEachEdge { i in
            out.append(FEdge(x0: verts[2 * i], y0: verts[2 * i + 1], x1: verts[2 * i + 2], y1: verts[2 * i + 3]))
        }
        return out
    }
}

/// A shape's lean form: the coarse winding grid over its polygon's box, built by the first index that reads the
/// shape (or the shape's own first query), sized and built like a glyph's first sight should be (a few KiB and
/// a few µs for a CJK ideograph at text sizes).
///
/// - About ½ √edges cells a side: per cell a reference point away from the cell's edges, the winding number
///   there, and the start vertices of the edges that meet the cell (CSR). The winding number of a point is its
///   cell's plus the signed crossings of the segment from the reference point to it with the cell's edges, as
///   in the full form.
/// - Distances search the grid's cells in rings around the point, nearest first, until no ring can hold a
///   nearer edge: exact, with no per-shape distance structure.
///
/// A shape that is placed again (a second index) also gets its full form (`FullForm`), whose near lists answer
/// touch radii faster; see `GlyphShape`.
final class LeanForm: @unchecked Sendable {
    private let arena: Arena
    /// Winding cells, `wx × wy`, row by row, and a sentinel whose `crossStart` ends the last list.
    let hot: UnsafeMutableBufferPointer<HotCell>
    /// Crossing lists: the start vertex of each edge meeting a cell.
    let cross: UnsafeMutableBufferPointer<UInt32>
    /// The winding grid: cell (i, j) spans `origin + (i, j) · cellSize` … `+ cellSize`; the origin is the box's
    /// corner.
    let originX: Double, originY: Double, cellSize: Double, invCell: Double
    let wx: Int, wy: Int

    /// Cells per √edge along the box's longer side: a coarse grid (a few edges a cell) keeps the form small.
    static let density = 0.5

    /// Bytes of the form.
    var byteCount: Int { arena.byteCount + 64 }

    init(arena: Arena, hot: UnsafeMutableBufferPointer<HotCell>, cross: UnsafeMutableBufferPointer<UInt32>,
         grid: LeanGrid) {
        self.arena = arena; self.hot = hot; self.cross = cross
        originX = grid.originX; originY = grid.originY; cellSize = grid.cell; invCell = 1 / grid.cell
        wx = grid.wx; wy = grid.wy
    }

    /// About what the form of `polygon` will take: for budgets counted before it is built.
    static func estimatedBytes(of polygon: PolygonStore, limits: ShapeLimits) -> Int {
        let g = LeanBuilder.grid(polygon.bounds, edgeCount: polygon.edgeCount, limits: limits)
        return (g.wx * g.wy + 1) * MemoryLayout<HotCell>.stride + 3 * polygon.edgeCount * 4 + 64 + 64
    }
}

/// Builds a `LeanForm` from vertices in one walk over the edges: each edge is walked through the rows of cells
/// it meets, giving its cells in each row (the crossing lists) and its crossing of each row's centre line (the
/// reference windings, `Windings`). Bounded before it allocates the form: the edge count and the lists' length
/// are known before the form's arena is made, and checked against the limits.
struct LeanBuilder {
    let polygon: PolygonStore
    let limits: ShapeLimits
    /// One cell over the whole box (every edge in its list): the form a build falls back to when the grid
    /// would pass the limits or the deadline — always within the shape's budget, exact, only slower.
    var singleCell = false

    func build() throws(ShapeError) -> LeanForm {
        let vertexCount = polygon.verts.count / 2
        let edgeCount = polygon.edgeCount
        var g = Self.grid(polygon.bounds, edgeCount: edgeCount, limits: limits)
        if singleCell { g.wx = 1; g.wy = 1; g.cell = max(polygon.bounds.width, polygon.bounds.height, g.cell) * (1 + 1e-9) }
        let cellCount = g.wx * g.wy
        var walk = EdgeWalk(g: g, edges: edgeCount)
        // The cell lists may hold at most what the shape's bytes allow (4 bytes an entry; a single cell holds
        // each edge once): the walk stops past that, before it allocates more.
        let walked = walk.run(UnsafePointer(polygon.verts.baseAddress!),
                              UnsafeBufferPointer(rebasing: polygon.contours[0..<(polygon.contours.count - 1)]),
                              vertexCount: vertexCount, checksDeadline: !singleCell,
                              maxPairs: singleCell ? Int.max : limits.maxBytes / 4)
        switch walked {
        case .done: break
        case .timedOut: throw .timeLimit
        case .tooManyPairs: throw .tooLarge(limit: limits.maxBytes)
        }
        let entries = walk.pairs.count
        if !singleCell {
            let bytes = (cellCount + 1) * MemoryLayout<HotCell>.stride + entries * 4 + vertexCount * 8 + 3 * 64
            guard bytes <= limits.maxBytes else { throw .tooLarge(limit: limits.maxBytes) }
            if BuildDeadline.hasPassed { throw .timeLimit }
        }

        var layout = Arena.Layout()
        let hotSlot = layout.reserve(HotCell.self, count: cellCount + 1, alignment: 64)
        let crossSlot = layout.reserve(UInt32.self, count: entries)
        let arena = Arena(layout)
        let hot = arena.buffer(hotSlot)
        let cross = arena.buffer(crossSlot)
        walk.sortPairs(into: hot, cross)
        try Windings(verts: UnsafeBufferPointer(polygon.verts), hot: hot, cross: UnsafeBufferPointer(cross), g: g,
                     checksDeadline: !singleCell).assign(walk)
        return LeanForm(arena: arena, hot: hot, cross: cross, grid: g)
    }

    /// The winding grid over `bounds`: n ≈ density·√edges cells along the longer side, a cell more for the
    /// far edge (floor indexing), within the per-axis limit.
    static func grid(_ bounds: Rect, edgeCount: Int, limits: ShapeLimits) -> LeanGrid {
        guard edgeCount > 0 else { return LeanGrid(originX: 0, originY: 0, cell: 1, wx: 1, wy: 1) }
        let size = max(bounds.width, bounds.height)
        let avail = limits.maxCellsPerAxis
        let n = max(1, min(avail - 1, Int((Double(edgeCount).squareRoot() * LeanForm.density).rounded(.up))))
        var cell = size / Double(n)
        if !(cell > 0) || !cell.isFinite { cell = max(abs(bounds.minX), abs(bounds.minY), 1) * 1e-3 }
        let wx = min(avail, Int((bounds.width / cell).rounded(.down)) + 1)
        let wy = min(avail, Int((bounds.height / cell).rounded(.down)) + 1)
        return LeanGrid(originX: bounds.minX, originY: bounds.minY, cell: cell, wx: wx, wy: wy)
    }
}

/// The lean winding grid's geometry (shape units).
struct LeanGrid {
    var originX: Double, originY: Double, cell: Double, wx: Int, wy: Int
    /// Growth of a cell against rounding, in cells: 1e-6 of a cell and 1e-13 of the largest coordinate.
    var eps: Double {
        let m = max(abs(originX), abs(originY), abs(originX + Double(wx) * cell), abs(originY + Double(wy) * cell))
        return 1e-6 + 1e-13 * m / cell
    }
    /// y of row j's centre line, as a reference point stores it.
    @inline(__always) func rowY(_ j: Int) -> Double { Double(Float(originY + (Double(j) + 0.5) * cell)) }
    /// x of column i's centres, as a reference point stores it.
    @inline(__always) func columnX(_ i: Int) -> Double { Double(Float(originX + (Double(i) + 0.5) * cell)) }
}

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

/// Phase 2 of a lean build: each cell's reference point (its centre unless an edge of the cell passes within
/// 1e-3 of a cell of it) and the winding number there.
///
/// The centres of a row lie on the row's centre line: the winding number at a centre is the signed count of
/// the edges crossing that line to its right (`EdgeWalk` collects the crossings). So per row: the crossings
/// sorted by x, then one sweep over the row's centres. A centre is the reference when no edge of its cell comes
/// within 1e-3 cell of it (then no crossing lies within rounding of it, and the count is its winding number);
/// otherwise another point of the cell farther from its edges is counted along its own ray.
private struct Windings {
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
