import InkGeometry

/// Builds a full form's grid (`FullForm`): cell classes, crossing lists with reference windings, distance lower
/// bounds and near lists. Build-time only; every result is copied into the form's own storage.
///
/// The build runs in four phases, each a method: `binEdges` (which edges meet which cells),
/// `referenceWindings`, `ringDistances` (distance lower bounds from the nearest boundary cell) and
/// `nearLists` (per 2×2 block, every edge that can be nearest to a point of the block).
struct FullBuilder {
    let edges: [FEdge]
    let limits: ShapeLimits
    /// Distance margin around the box, shape units (nil: 30 % of the longer side).
    let margin: Double?
    /// Grid cells per √edge along the glyph's longer side.
    static let density = 1.6

    struct Output {
        var bounds: Rect = .empty
        var grid = ShapeGrid()
        var cells: [ShapeCell] = []
        var crossEdges: [FEdge] = []
        var nearEdges: [NearRef] = []
    }

    /// The CSR lists of phase 1 plus the plain buffers that phases 2–4 index in their inner loops (no
    /// bounds or uniqueness checks there), all in one scratch arena.
    private struct Scratch {
        let arena: Arena
        /// Edge → last pass that saw it (each pass sees an edge at most once).
        let stamp: UnsafeMutableBufferPointer<Int32>
        /// Cell → start of its crossing list in `cross` (cellCount + 1 entries).
        let starts: UnsafeMutableBufferPointer<Int>
        /// Crossing lists: edge indices.
        let cross: UnsafeMutableBufferPointer<Int32>
        let edges: UnsafeMutableBufferPointer<FEdge>
        /// Edges found by one near-list pass, with their squared distances from the block centre.
        let found: UnsafeMutableBufferPointer<(Double, Int)>
        var token: Int32 = 0

        init(edges list: [FEdge], starts s: [Int], cross c: [Int32]) {
            var layout = Arena.Layout()
            let stampSlot = layout.reserve(Int32.self, count: list.count)
            let startSlot = layout.reserve(Int.self, count: s.count)
            let crossSlot = layout.reserve(Int32.self, count: c.count)
            let edgeSlot = layout.reserve(FEdge.self, count: list.count)
            let foundSlot = layout.reserve((Double, Int).self, count: list.count)
            arena = Arena(layout)
            stamp = arena.buffer(stampSlot, repeating: -1)
            starts = arena.buffer(startSlot, from: s)
            cross = arena.buffer(crossSlot, from: c)
            edges = arena.buffer(edgeSlot, from: list)
            found = arena.buffer(foundSlot)
        }

        /// A new pass: edges stamped before count as unseen.
        mutating func nextPass() -> Int32 { token &+= 1; return token }

        func edge(_ k: Int) -> (Point, Point) {
            let e = edges[k]
            return (Point(Double(e.x0), Double(e.y0)), Point(Double(e.x1), Double(e.y1)))
        }
    }

    func build() throws(ShapeError) -> Output {
        var out = Output()
        guard !edges.isEmpty else { return out }
        var bounds = Rect.empty
        for e in edges {
            bounds.expand(toInclude: Point(Double(e.x0), Double(e.y0)))
            bounds.expand(toInclude: Point(Double(e.x1), Double(e.y1)))
        }
        out.bounds = bounds
        let g = gridGeometry(bounds)
        out.grid = g
        let cellCount = g.nx * g.ny

        let (starts, crossIdx) = binEdges(g)
        // Bytes so far: prepared + stored edges, hot and cold cells, crossing lists.
        let fixedBytes = edges.count * 36 + cellCount * 32 + crossIdx.count * MemoryLayout<CrossEdge>.stride
        guard fixedBytes <= limits.maxBytes else { throw .tooLarge(limit: limits.maxBytes) }
        var cells = [ShapeCell](repeating: ShapeCell(), count: cellCount)
        for c in 0..<cellCount {
            cells[c].crossStart = UInt32(starts[c])
            cells[c].crossCount = UInt32(starts[c + 1] - starts[c])
            cells[c].isBoundary = starts[c + 1] > starts[c]
        }
        out.crossEdges = crossIdx.map { edges[Int($0)] }

        var scratch = Scratch(edges: edges, starts: starts, cross: crossIdx)
        referenceWindings(g, &cells, &scratch)
        let ring = ringDistances(g, &cells)
        out.nearEdges = try nearLists(g, ring, &cells, &scratch, fixedBytes: fixedBytes)
        out.cells = cells
        checkCells(out, edges: edges.count)
        return out
    }

    /// Cell size and margin: n cells span the box's longer side (n ≈ density·√edges); the box needs
    /// n + 1 cells (floor indexing of its far edge), plus m margin cells on each side, within the per-axis
    /// limit.
    private func gridGeometry(_ bounds: Rect) -> ShapeGrid {
        let size = max(bounds.width, bounds.height)
        let avail = limits.maxCellsPerAxis
        let n = max(1, min(avail - 1, Int((Double(edges.count).squareRoot() * Self.density).rounded(.up))))
        var cell = size / Double(n)
        if !(cell > 0) || !cell.isFinite { cell = max(abs(bounds.minX), abs(bounds.minY), 1) * 1e-3 }
        let marginUnits = (margin.map { $0.isFinite && $0 >= 0 ? $0 : 0 }) ?? 0.3 * size
        let marginCells = min((marginUnits / cell).rounded(.up), Double(avail))   // NaN → 0 below
        let m = max(0, min((avail - n - 1) / 2, marginCells >= 0 ? Int(marginCells) : 0))
        var g = ShapeGrid()
        g.cellSize = cell
        g.invCell = 1 / cell
        g.originX = bounds.minX - Double(m) * cell
        g.originY = bounds.minY - Double(m) * cell
        g.windingOriginX = bounds.minX
        g.windingOriginY = bounds.minY
        g.margin = m
        g.wx = Int((bounds.width / cell).rounded(.down)) + 1
        g.wy = Int((bounds.height / cell).rounded(.down)) + 1
        g.nx = g.wx + 2 * m
        g.ny = g.wy + 2 * m
        return g
    }

    /// Phase 1: bins edges into the cells they meet (closed cells, grown by a hair against rounding), as
    /// CSR lists: cell c's edges are `cross[starts[c]..<starts[c + 1]]`.
    private func binEdges(_ g: ShapeGrid) -> (starts: [Int], cross: [Int32]) {
        let nx = g.nx, ny = g.ny, cellCount = nx * ny
        let eps = g.cellSize * 1e-6
        var pairs: [(cell: Int32, edge: Int32)] = []
        pairs.reserveCapacity(edges.count * 3)
        var counts = [Int](repeating: 0, count: cellCount + 1)
        for (k, e) in edges.enumerated() {
            let a = Point(Double(e.x0), Double(e.y0)), b = Point(Double(e.x1), Double(e.y1))
            let i0 = clampIndex((min(a.x, b.x) - eps - g.originX) * g.invCell, nx)
            let i1 = clampIndex((max(a.x, b.x) + eps - g.originX) * g.invCell, nx)
            let j0 = clampIndex((min(a.y, b.y) - eps - g.originY) * g.invCell, ny)
            let j1 = clampIndex((max(a.y, b.y) + eps - g.originY) * g.invCell, ny)
            for j in j0...j1 {
                for i in i0...i1 {
                    let r = cellRect(g, i, j).outsetBy(eps)
                    if (i0 == i1 && j0 == j1) || Segment.intersects(a, b, r) {
                        pairs.append((Int32(j * nx + i), Int32(k)))
                        counts[j * nx + i] += 1
                    }
                }
            }
        }
        var starts = [Int](repeating: 0, count: cellCount + 1)
        for c in 0..<cellCount { starts[c + 1] = starts[c] + counts[c] }
        var fill = starts
        var cross = [Int32](repeating: 0, count: pairs.count)
        for p in pairs { cross[fill[Int(p.cell)]] = p.edge; fill[Int(p.cell)] += 1 }
        ConsistencyChecks.offsets(starts, total: cross.count, "shape grid: crossing-list offsets")
        ConsistencyChecks.indices(cross, below: edges.count, "shape grid: crossing lists' edges")
        return (starts, cross)
    }

    /// Phase 2: for every cell a reference point (boundary cells: a point of the cell away from its edges)
    /// and its winding number, by a ray to +x through the rest of the row.
    private func referenceWindings(_ g: ShapeGrid, _ cells: inout [ShapeCell], _ s: inout Scratch) {
        let nx = g.nx, cell = g.cellSize
        let offsets: [(Double, Double)] = [(0.5, 0.5), (0.31, 0.69), (0.69, 0.31), (0.23, 0.23), (0.77, 0.77),
                                           (0.41, 0.13), (0.13, 0.41), (0.87, 0.59), (0.59, 0.87), (0.5, 0.07)]
        for j in 0..<g.ny {
            for i in 0..<nx {
                let c = j * nx + i
                let r = cellRect(g, i, j)
                var ref = Point(r.minX + 0.5 * cell, r.minY + 0.5 * cell)
                if cells[c].isBoundary {
                    var bestRef = ref, bestClear = -1.0
                    for (fx, fy) in offsets {
                        let cand = Point(Double(Float(r.minX + fx * cell)), Double(Float(r.minY + fy * cell)))
                        var clear = Double.infinity
                        for q in s.starts[c]..<s.starts[c + 1] {
                            let (a, b) = s.edge(Int(s.cross[q]))
                            clear = min(clear, Segment.distance(cand, a, b))
                        }
                        if clear > bestClear { bestClear = clear; bestRef = cand }
                        if clear > 1e-3 * cell { break }
                    }
                    ref = bestRef
                }
                ref = Point(Double(Float(ref.x)), Double(Float(ref.y)))
                let token = s.nextPass()
                var w = 0
                for ii in i..<nx {
                    let cc = j * nx + ii
                    for q in s.starts[cc]..<s.starts[cc + 1] {
                        let k = Int(s.cross[q])
                        if s.stamp[k] == token { continue }
                        s.stamp[k] = token
                        let (a, b) = s.edge(k)
                        w += Winding.crossing(ref, a, b)
                    }
                }
                cells[c].refX = Float(ref.x)
                cells[c].refY = Float(ref.y)
                cells[c].winding = Int32(clamping: w)
            }
        }
    }

    /// Phase 3: Chebyshev ring distance of every cell to the nearest boundary cell (8-connected BFS), and
    /// from it each non-boundary cell's lower bound on its distance to the outline. Returns the rings.
    private func ringDistances(_ g: ShapeGrid, _ cells: inout [ShapeCell]) -> [Int32] {
        let nx = g.nx, ny = g.ny, cellCount = nx * ny
        var ring = [Int32](repeating: Int32.max, count: cellCount)
        var queue: [Int] = []
        queue.reserveCapacity(cellCount)
        for c in 0..<cellCount where cells[c].isBoundary { ring[c] = 0; queue.append(c) }
        var head = 0
        while head < queue.count {
            let c = queue[head]; head += 1
            let ci = c % nx, cj = c / nx
            for dj in -1...1 {
                for di in -1...1 {
                    let ni = ci + di, nj = cj + dj
                    guard ni >= 0, ni < nx, nj >= 0, nj < ny else { continue }
                    let nc = nj * nx + ni
                    if ring[nc] == Int32.max { ring[nc] = ring[c] + 1; queue.append(nc) }
                }
            }
        }
        for c in 0..<cellCount where !cells[c].isBoundary {
            cells[c].lower = Float(Double(max(0, ring[c] - 1)) * g.cellSize * (1 - 1e-6))
        }
        return ring
    }

    /// Phase 4: near lists, one per 2×2 block of cells: every edge that can be nearest to some point of the
    /// block, sorted by distance from the block's centre. Rings start at the block's first boundary ring
    /// (nothing nearer holds an edge).
    /// Longer than a screen: one block's ring walk, filter and sort share the pass token and scratch lists.
    private func nearLists(_ g: ShapeGrid, _ ring: [Int32], _ cells: inout [ShapeCell], _ s: inout Scratch,
                           fixedBytes: Int) throws(ShapeError) -> [NearRef] {
        let nx = g.nx, ny = g.ny, cell = g.cellSize
        let half = cell * 2.0.squareRoot()            // half-diagonal of a 2×2 block
        var near: [NearRef] = []
        for bj in stride(from: 0, to: ny, by: 2) {
            for bi in stride(from: 0, to: nx, by: 2) {
                let c0 = bj * nx + bi
                let firstRing = Int(ring[c0] == Int32.max ? 0 : ring[c0])
                let center = Point(g.originX + Double(bi + 1) * cell, g.originY + Double(bj + 1) * cell)
                // One pass over rings of cells around cell (bi, bj): ring r is at least (r − 1) cells from the
                // block centre (the corner that cell shares with the block's other three). Every edge seen is
                // kept with its squared distance from the centre; once a ring lies farther than the nearest
                // distance so far plus the block's diameter, no edge beyond can be nearest to a point of the
                // block (the bound only shrinks, so no ring that the final bound needs is skipped).
                let token = s.nextPass()
                var foundCount = 0
                var best2 = Double.infinity
                var rr = firstRing
                while rr <= nx + ny {
                    let ringLow = Double(rr - 1) * cell
                    if ringLow > 0 && best2 < .infinity && ringLow > best2.squareRoot() + 2 * half + cell * 1e-6 { break }
                    forEachRingCell(bi, bj, rr, nx, ny) { cc in
                        for q in s.starts[cc]..<s.starts[cc + 1] {
                            let k = Int(s.cross[q])
                            if s.stamp[k] == token { continue }
                            s.stamp[k] = token
                            let (a, b) = s.edge(k)
                            let d2 = Segment.distanceSquared(center, a, b)
                            if d2 < best2 { best2 = d2 }
                            s.found[foundCount] = (d2, k); foundCount += 1
                        }
                    }
                    rr += 1
                }
                let dc = best2.squareRoot()
                let rho = dc + 2 * half + cell * 1e-6
                let rho2 = rho * rho
                let startNear = near.count
                var kept = 0
                for q in 0..<foundCount where s.found[q].0 <= rho2 { s.found[kept] = s.found[q]; kept += 1 }
                // Sorted by distance from the centre (deflated against rounding): a query at p subtracts
                // |p − centre| (triangle inequality) and stops at the first edge that cannot beat its best.
                var list = UnsafeMutableBufferPointer(rebasing: s.found[0..<kept])
                list.sort { $0.0 < $1.0 }
                for (d2, e) in list {
                    near.append(NearRef(edge: UInt32(e), centerDistance: Float(d2.squareRoot() * (1 - 1e-6))))
                }
                guard fixedBytes + near.count * 8 <= limits.maxBytes else { throw .tooLarge(limit: limits.maxBytes) }
                for j in bj..<min(bj + 2, ny) {
                    for i in bi..<min(bi + 2, nx) {
                        let c = j * nx + i
                        cells[c].nearStart = UInt32(startNear)
                        cells[c].nearCount = UInt32(near.count - startNear)
                        cells[c].hasNear = true
                        if !cells[c].isBoundary {
                            cells[c].lower = max(cells[c].lower, Float(max(0, dc - half) * (1 - 1e-6)))
                        }
                    }
                }
            }
        }
        return near
    }

    /// INKHIT_CHECKS: every cell's crossing and near ranges lie within their lists, and the near lists name
    /// edges that exist.
    private func checkCells(_ out: Output, edges: Int) {
        guard ConsistencyChecks.areEnabled else { return }
        ConsistencyChecks.range(0, count: out.cells.count, within: out.grid.nx * out.grid.ny, "shape grid: cells")
        for (c, cell) in out.cells.enumerated() {
            ConsistencyChecks.range(Int(cell.crossStart), count: Int(cell.crossCount), within: out.crossEdges.count,
                                    "shape grid: cell \(c)'s crossing edges")
            ConsistencyChecks.range(Int(cell.nearStart), count: Int(cell.nearCount), within: out.nearEdges.count,
                                    "shape grid: cell \(c)'s near edges")
        }
        ConsistencyChecks.indices(out.nearEdges.lazy.map(\.edge), below: edges, "shape grid: near lists' edges")
    }

    private func clampIndex(_ v: Double, _ n: Int) -> Int {
        if !(v >= 0) { return 0 }
        if v >= Double(n - 1) { return n - 1 }
        return Int(v)
    }

    private func cellRect(_ g: ShapeGrid, _ i: Int, _ j: Int) -> Rect {
        Rect(minX: g.originX + Double(i) * g.cellSize, minY: g.originY + Double(j) * g.cellSize,
             maxX: g.originX + Double(i + 1) * g.cellSize, maxY: g.originY + Double(j + 1) * g.cellSize)
    }
}
