import InkGeometry

/// `v` when positive, else 0 (for NaN too): a `maxsd`, no branch.
@inline(__always) func positive(_ v: Double) -> Double { v > 0 ? v : 0 }

/// `v` clamped to 0...1 (NaN → 0), without a branch.
@inline(__always) func clamp01(_ v: Double) -> Double {
    let lo = v > 0 ? v : 0
    return lo < 1 ? lo : 1
}

/// A plain view of a shape's storage for the query path: pointers and scalars only (no reference
/// counting in hot loops). Valid while the owning `GlyphShape` (and the form it was made from) is alive.
///
/// It reads either form of a shape (see `GlyphShape`): the full form (`FullForm`: crossing lists of edge
/// copies, a distance grid with near lists) or the lean form (`LeanForm`: crossing lists of vertex indices,
/// distances by a ring search of the winding grid), told apart by `cold` (nil for a lean form).
struct ShapeView: @unchecked Sendable {
    // Two 64-byte lines (the index allocates views 64-byte aligned; 128 bytes a view): the winding test
    // reads only the first, distance queries both.
    // Line 0 — winding: cells and crossing lists, `wx × wy` cells from (wOriginX, wOriginY); distance cells.
    let hot: UnsafePointer<HotCell>
    /// Full form: `CrossEdge`s; lean form: `UInt32` start vertices.
    private let crossRaw: UnsafeRawPointer
    let wOriginX: Double, wOriginY: Double
    let invCell: Double
    /// Full form: its distance grid's cells; nil for a lean form.
    let cold: UnsafePointer<ColdCell>?
    let near: UnsafePointer<NearRef>
    // Grid sizes fit 16 bits (`ShapeLimits.maxCellsPerAxis` ≤ 1024).
    private let wx16: UInt16, wy16: UInt16, nx16: UInt16, ny16: UInt16
    // Line 1 — the whole grid (`nx × ny` cells from (originX, originY); a lean form's is its winding grid),
    // edges, the glyph box (exact as Float: it is the box of the Float edges).
    /// Full form: `NearEdge`s; lean form: the `UInt32` contour starts.
    private let preparedRaw: UnsafeRawPointer
    /// Full form: `FEdge`s; lean form: the `Float` vertices.
    private let edgesRaw: UnsafeRawPointer
    let originX: Double, originY: Double
    let cellSize: Double
    private let minX32: Float, minY32: Float, maxX32: Float, maxY32: Float
    private let edgeCount32: UInt32
    /// `FillRule` as a mask on the winding number: ink where `w & windingMask != 0` (−1: nonzero, 1: even-odd).
    let windingMask: Int32

    @inline(__always) var wx: Int { Int(wx16) }
    @inline(__always) var wy: Int { Int(wy16) }
    @inline(__always) var nx: Int { Int(nx16) }
    @inline(__always) var ny: Int { Int(ny16) }
    @inline(__always) var edgeCount: Int { Int(edgeCount32) }
    @inline(__always) var minX: Double { Double(minX32) }
    @inline(__always) var minY: Double { Double(minY32) }
    @inline(__always) var maxX: Double { Double(maxX32) }
    @inline(__always) var maxY: Double { Double(maxY32) }
    /// True for a view of a lean form.
    @inline(__always) var isLean: Bool { cold == nil }
    @inline(__always) var cross: UnsafePointer<CrossEdge> { crossRaw.assumingMemoryBound(to: CrossEdge.self) }
    @inline(__always) var prepared: UnsafePointer<NearEdge> { preparedRaw.assumingMemoryBound(to: NearEdge.self) }
    @inline(__always) var edges: UnsafePointer<FEdge> { edgesRaw.assumingMemoryBound(to: FEdge.self) }
    @inline(__always) var leanCross: UnsafePointer<UInt32> { crossRaw.assumingMemoryBound(to: UInt32.self) }
    @inline(__always) var verts: UnsafePointer<Float> { edgesRaw.assumingMemoryBound(to: Float.self) }
    @inline(__always) var contours: UnsafePointer<UInt32> { preparedRaw.assumingMemoryBound(to: UInt32.self) }

    /// A view of `s` in `form`.
    init(_ s: GlyphShape, form: ShapeForm) {
        windingMask = s.fillRule == .nonZero ? -1 : 1
        edgeCount32 = UInt32(s.edgeCount)             // ShapeLimits caps edges below 2³¹
        if s.bounds.isEmpty { minX32 = 1; minY32 = 1; maxX32 = -1; maxY32 = -1 } else {
            minX32 = Float(s.bounds.minX); minY32 = Float(s.bounds.minY)
            maxX32 = Float(s.bounds.maxX); maxY32 = Float(s.bounds.maxY)
        }
        // Arena buffers always have a base address, also when empty.
        switch form {
        case .full(let f):
            edgesRaw = UnsafeRawPointer(f.edges.baseAddress!)
            hot = UnsafePointer(f.hot.baseAddress!)
            cold = UnsafePointer(f.cold.baseAddress!)
            crossRaw = UnsafeRawPointer(f.crossEdges.baseAddress!)
            near = UnsafePointer(f.nearEdges.baseAddress!)
            preparedRaw = UnsafeRawPointer(f.prepared.baseAddress!)
            originX = f.grid.originX; originY = f.grid.originY; invCell = f.grid.invCell; cellSize = f.grid.cellSize
            nx16 = UInt16(f.grid.nx); ny16 = UInt16(f.grid.ny)
            wOriginX = f.grid.windingOriginX; wOriginY = f.grid.windingOriginY
            wx16 = UInt16(f.grid.wx); wy16 = UInt16(f.grid.wy)
        case .lean(let l):
            let p = s.polygon
            edgesRaw = UnsafeRawPointer(p.verts.baseAddress!)
            hot = UnsafePointer(l.hot.baseAddress!)
            cold = nil
            crossRaw = UnsafeRawPointer(l.cross.baseAddress!)
            near = UnsafePointer(bitPattern: 64)!        // never read: lean views have no near lists
            preparedRaw = UnsafeRawPointer(p.contours.baseAddress!)
            originX = l.originX; originY = l.originY; invCell = l.invCell; cellSize = l.cellSize
            wOriginX = l.originX; wOriginY = l.originY
            nx16 = UInt16(l.wx); ny16 = UInt16(l.wy); wx16 = UInt16(l.wx); wy16 = UInt16(l.wy)
        }
    }

    /// Cell index of a point, or -1 outside the grid.
    @inline(__always) func cellIndex(_ x: Double, _ y: Double) -> Int {
        let fx = (x - originX) * invCell, fy = (y - originY) * invCell
        guard fx >= 0, fy >= 0, fx < Double(nx), fy < Double(ny) else { return -1 }
        return Int(fy) &* nx &+ Int(fx)
    }

    /// Whether (x, y), shape units, is ink by the shape's fill rule.
    @inline(__always) func contains(_ x: Double, _ y: Double) -> Bool {
        windingNumber(x, y) & windingMask != 0
    }

    /// The winding cell of (x, y), shape units, or -1 outside the glyph box.
    @inline(__always) func windingCell(_ x: Double, _ y: Double) -> Int {
        let fx = (x - wOriginX) * invCell, fy = (y - wOriginY) * invCell
        guard fx >= 0, fy >= 0, fx < Double(wx), fy < Double(wy) else { return -1 }
        return Int(fy) &* wx &+ Int(fx)
    }

    /// Winding number at (x, y), shape units (0 outside the glyph box).
    @inline(__always) func windingNumber(_ x: Double, _ y: Double) -> Int32 {
        let fx = (x - wOriginX) * invCell, fy = (y - wOriginY) * invCell
        guard fx >= 0, fy >= 0, fx < Double(wx), fy < Double(wy) else { return 0 }
        return winding(hotCell: Int(fy) &* wx &+ Int(fx), x, y)
    }

    /// Winding number at (x, y) in winding cell `c`: the cell's reference winding plus the signed crossings
    /// of the segment from the reference point to (x, y) with the cell's edges (no branch per edge), by the
    /// form's own test (LeanForm+Query.swift, FullForm+Query.swift).
    @inline(__always) func winding(hotCell c: Int, _ x: Double, _ y: Double) -> Int32 {
        isLean ? leanWinding(hotCell: c, x, y) : fullWinding(hotCell: c, x, y)
    }

    /// Whether the outline is certainly farther than `bound` (shape units) from (x, y): the glyph box first
    /// (its fields share the view's cache line with the grid's, so most radius candidates end here without
    /// loading a cell), then the lower bound of cell `c` (`cellIndex(x, y)`, -1 outside the grid).
    @inline(__always) func isBeyond(cell c: Int, _ x: Double, _ y: Double, bound: Double) -> Bool {
        guard let cold else { return boxDistance2(x, y) > bound * bound }
        return boxDistance2(x, y) > bound * bound || (c >= 0 && Double(cold[c].lower) > bound)
    }

    /// Distance (shape units) from (x, y) to the glyph box: a lower bound that reads no cell.
    @inline(__always) func boxDistance(_ x: Double, _ y: Double) -> Double {
        boxDistance2(x, y).squareRoot()
    }

    /// The square of `boxDistance`, without a branch (at most one of the two gaps per axis is positive).
    @inline(__always) func boxDistance2(_ x: Double, _ y: Double) -> Double {
        let dx = positive(minX - x) + positive(x - maxX), dy = positive(minY - y) + positive(y - maxY)
        return dx * dx + dy * dy
    }

    /// `distance(cell:_:_:bound:)` of the view at `v`, read in place (calling the method on `v.pointee`
    /// from a call that is not inlined copies the whole view first).
    /// Out of line on purpose: the query loops that call it stay small enough for their own accessors to be
    /// inlined (callgrind: inlined into the staged batch, it made the view's accessors calls).
    @inline(never)
    static func distance(_ v: UnsafeMutablePointer<ShapeView>, cell c: Int, _ x: Double, _ y: Double,
                         bound: Double) -> Double {
        v.pointee.distance(cell: c, x, y, bound: bound)
    }

    /// Exact distance (shape units) from (x, y) to the outline when it is ≤ `bound`; otherwise some value
    /// > `bound` (possibly ∞). `cell` is `cellIndex(x, y)`.
    @inline(__always) func distance(cell c: Int, _ x: Double, _ y: Double, bound: Double) -> Double {
        if edgeCount == 0 { return .infinity }
        if isBeyond(cell: c, x, y, bound: bound) { return .infinity }
        return isLean ? leanDistance(x, y, bound: bound) : fullDistance(cell: c, x, y, bound: bound)
    }

    /// Exact view-space distance to the outline under a general linear map `(la, lb, lc, ld)` (shape → view,
    /// CGAffineTransform order) when it is ≤ `bound` (view px); otherwise some value > `bound`.
    /// `minScale` is the map's smallest singular value.
    func viewDistance(cell c: Int, _ x: Double, _ y: Double, la: Double, lb: Double, lc: Double, ld: Double,
                      minScale: Double, bound: Double) -> Double {
        if edgeCount == 0 { return .infinity }
        // `minScale` is the exact transform's, rounded to Float32, while distances below go through the
        // Float32 inverse: the two differ by ~1e-7, so the bound is deflated to stay a lower bound (without
        // it, a far point could be refused its truly nearest placement for a rival 3e-9 farther).
        if isBeyond(cell: c, x, y, bound: bound / (minScale * (1 - 1e-6))) { return .infinity }
        var best2 = Double.infinity
        forEachEdge { e in
            let ax = Double(e.x0) - x, ay = Double(e.y0) - y, bx = Double(e.x1) - x, by = Double(e.y1) - y
            let vax = la * ax + lc * ay, vay = lb * ax + ld * ay
            let vbx = la * bx + lc * by, vby = lb * bx + ld * by
            let abx = vbx - vax, aby = vby - vay
            let len2 = abx * abx + aby * aby
            var t = len2 > 0 ? -(vax * abx + vay * aby) / len2 : 0
            t = t < 0 ? 0 : (t > 1 ? 1 : t)
            let qx = vax + abx * t, qy = vay + aby * t
            best2 = min(best2, qx * qx + qy * qy)
        }
        return best2.squareRoot()
    }

    /// Calls `body` with every edge of the view's form, in polygon order.
    @inline(__always) func forEachEdge(_ body: (FEdge) -> Void) {
        if !isLean {
            for k in 0..<edgeCount { body(edges[k]) }
            return
        }
        let v = verts, cs = contours
        var done = 0, c = 0
        while done < edgeCount {
            let lo = Int(cs[c]), hi = Int(cs[c + 1]) - 1
            for i in lo..<hi { body(FEdge(x0: v[2 * i], y0: v[2 * i + 1], x1: v[2 * i + 2], y1: v[2 * i + 3])) }
            done += hi - lo
            c += 1
        }
    }
}

/// Calls `body` with the index of every in-grid cell at Chebyshev distance exactly `r` from (i, j).
@inline(__always)
func forEachRingCell(_ i: Int, _ j: Int, _ r: Int, _ nx: Int, _ ny: Int, _ body: (Int) -> Void) {
    if r == 0 {
        if i >= 0 && i < nx && j >= 0 && j < ny { body(j * nx + i) }
        return
    }
    let xlo = max(0, i - r), xhi = min(nx - 1, i + r)
    if xlo <= xhi {
        // Bottom and top rows.
        if j - r >= 0 && j - r < ny { let b = (j - r) * nx; for x in xlo...xhi { body(b + x) } }
        if j + r >= 0 && j + r < ny { let b = (j + r) * nx; for x in xlo...xhi { body(b + x) } }
    }
    // Left and right columns, corners excluded.
    let ylo = max(0, j - r + 1), yhi = min(ny - 1, j + r - 1)
    if ylo <= yhi {
        if i - r >= 0 && i - r < nx { for y in ylo...yhi { body(y * nx + i - r) } }
        if i + r >= 0 && i + r < nx { for y in ylo...yhi { body(y * nx + i + r) } }
    }
}
