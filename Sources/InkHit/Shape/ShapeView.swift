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

    var wx: Int { Int(wx16) }
    var wy: Int { Int(wy16) }
    var nx: Int { Int(nx16) }
    var ny: Int { Int(ny16) }
    var edgeCount: Int { Int(edgeCount32) }
    var minX: Double { Double(minX32) }
    var minY: Double { Double(minY32) }
    var maxX: Double { Double(maxX32) }
    var maxY: Double { Double(maxY32) }
    /// True for a view of a lean form.
    var isLean: Bool { cold == nil }
    var cross: UnsafePointer<CrossEdge> { crossRaw.assumingMemoryBound(to: CrossEdge.self) }
    var prepared: UnsafePointer<NearEdge> { preparedRaw.assumingMemoryBound(to: NearEdge.self) }
    var edges: UnsafePointer<FEdge> { edgesRaw.assumingMemoryBound(to: FEdge.self) }
    var leanCross: UnsafePointer<UInt32> { crossRaw.assumingMemoryBound(to: UInt32.self) }
    var verts: UnsafePointer<Float> { edgesRaw.assumingMemoryBound(to: Float.self) }
    var contours: UnsafePointer<UInt32> { preparedRaw.assumingMemoryBound(to: UInt32.self) }

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
    /// of the segment from the reference point to (x, y) with the cell's edges (no branch per edge).
    @inline(__always) func winding(hotCell c: Int, _ x: Double, _ y: Double) -> Int32 {
        if isLean { return leanWinding(hotCell: c, x, y) }
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
    static func distance(_ v: UnsafeMutablePointer<ShapeView>, cell c: Int, _ x: Double, _ y: Double,
                         bound: Double) -> Double {
        v.pointee.distance(cell: c, x, y, bound: bound)
    }

    /// Exact distance (shape units) from (x, y) to the outline when it is ≤ `bound`; otherwise some value
    /// > `bound` (possibly ∞). `cell` is `cellIndex(x, y)`.
    @inline(__always) func distance(cell c: Int, _ x: Double, _ y: Double, bound: Double) -> Double {
        if edgeCount == 0 { return .infinity }
        if isBeyond(cell: c, x, y, bound: bound) { return .infinity }
        guard let cold else { return leanDistance(x, y, bound: bound) }
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
}

extension GlyphShape {
    /// Whether the point (shape units) is on the ink: the winding number of the stored polygon there is ink
    /// by `fillRule`. Non-finite points are not.
    public func contains(_ p: Point) -> Bool {
        guard p.isFinite else { return false }
        return withExtendedLifetime(self) { ShapeView(self, form: queryForm).contains(p.x, p.y) }
    }

    /// Winding number of the stored polygon at `p` (shape units); 0 for non-finite points.
    public func winding(at p: Point) -> Int {
        guard p.isFinite else { return 0 }
        return withExtendedLifetime(self) { Int(ShapeView(self, form: queryForm).windingNumber(p.x, p.y)) }
    }

    /// Unsigned distance (shape units) from `p` to the stored polygon's outline; ∞ for an empty shape
    /// or a non-finite point.
    public func distance(to p: Point) -> Double {
        guard p.isFinite else { return .infinity }
        return withExtendedLifetime(self) {
            let v = ShapeView(self, form: queryForm)
            return v.distance(cell: v.cellIndex(p.x, p.y), p.x, p.y, bound: .infinity)
        }
    }

    /// Signed distance (shape units) from `p` to the stored polygon's outline: negative on the ink.
    public func signedDistance(to p: Point) -> Double {
        let d = distance(to: p)
        return contains(p) ? -d : d
    }
}
