extension Polygon {
    /// The exact outline of a set of pixels: pixel `(x, y)` of a `width × height` grid is the unit square
    /// `x … x + 1` × `y … y + 1`, in the grid's own units (x right, y down), and it belongs to the set when
    /// `isInside(x, y)` is true (`isInside` is only asked about `0 ≤ x < width`, `0 ≤ y < height`).
    ///
    /// The result is closed loops of axis-parallel edges (a pixel staircase) with the inside on one side, so
    /// the nonzero rule gives winding ±1 inside and 0 outside, holes included; straight runs are merged into
    /// one edge. Linear in the pixel count (plus the number of boundary edges). Empty when no pixel is inside.
    ///
    /// Used for alpha masks (InkScene's `AlphaMask`) and bitmap glyphs (InkFreeType), so both hit the same
    /// staircase.
    public static func pixelOutline(width: Int, height: Int, isInside: (Int, Int) -> Bool) -> Polygon {
        guard width > 0, height > 0 else { return Polygon() }
        func inside(_ x: Int, _ y: Int) -> Bool { x >= 0 && y >= 0 && x < width && y < height && isInside(x, y) }
        // Directed boundary edges, keyed by their start vertex (v = y·(width+1) + x), the inside on the right
        // in y-down terms: top edges run +x, right edges +y, bottom edges −x, left edges −y.
        let w1 = width + 1
        var out: [Int: [Int]] = [:]          // start vertex → end vertices
        var starts: [Int] = []
        func edge(_ ax: Int, _ ay: Int, _ bx: Int, _ by: Int) {
            let a = ay * w1 + ax
            if out[a] == nil { starts.append(a) }
            out[a, default: []].append(by * w1 + bx)
        }
        for y in 0..<height {
            for x in 0..<width where inside(x, y) {
                if !inside(x, y - 1) { edge(x, y, x + 1, y) }
                if !inside(x + 1, y) { edge(x + 1, y, x + 1, y + 1) }
                if !inside(x, y + 1) { edge(x + 1, y + 1, x, y + 1) }
                if !inside(x - 1, y) { edge(x, y + 1, x, y) }
            }
        }
        // Every vertex has as many edges in as out: walking unused edges closes loops. Starts are tried in the
        // order their edges were made, so the whole walk is linear in the number of edges.
        var loops: [[Point]] = []
        for start in starts where out[start] != nil {
            while let first = out[start], !first.isEmpty {
                var loop: [Int] = [start]
                var v = start
                while true {
                    guard var ends = out[v], let next = ends.popLast() else { break }
                    out[v] = ends.isEmpty ? nil : ends
                    if next == start { break }
                    loop.append(next)
                    v = next
                }
                // Drop the middle vertices of straight runs (one pass, keeping corners only).
                let pts = loop.map { Point(Double($0 % w1), Double($0 / w1)) }
                var corners: [Point] = []
                corners.reserveCapacity(pts.count)
                for k in pts.indices {
                    let a = pts[(k + pts.count - 1) % pts.count], b = pts[k], c = pts[(k + 1) % pts.count]
                    if !((a.x == b.x && b.x == c.x) || (a.y == b.y && b.y == c.y)) { corners.append(b) }
                }
                loops.append(corners.count >= 3 ? corners : pts)
            }
        }
        return Polygon(contours: loops)
    }
}
