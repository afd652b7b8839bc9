/// Why `Polygon.pixelOutline(width:height:maxEdges:shouldStop:isInside:)` gave up before building.
public enum PixelOutlineError: Error, Sendable, Hashable {
    /// The pixels have `runs` runs (maximal horizontal stretches of inside pixels), so the outline may have
    /// up to 4 × `runs` edges: more than `limit`. Found by counting alone, before anything is allocated.
    case tooManyEdges(runs: Int, limit: Int)
    /// `shouldStop` answered true (checked every 65,536 pixels scanned and every 4,096 edges linked).
    case stopped
}

extension Polygon {
    /// How many runs (maximal horizontal stretches of inside pixels) a `width × height` pixel set has: the
    /// outline `pixelOutline` makes of it has at most 4 × that many edges (each run has a left and a right
    /// side, and the rows' top and bottom edges between two rows are at most as many as the runs of both).
    /// One pass over the pixels; allocates nothing. Stops early (returning what it counted so far, then more
    /// than `stopAbove`) once the count passes `stopAbove`, and returns nil when `shouldStop` answers true.
    public static func pixelRunCount(width: Int, height: Int, stopAbove: Int = .max, shouldStop: () -> Bool = { false },
                                     isInside: (Int, Int) -> Bool) -> Int? {
        guard width > 0, height > 0 else { return 0 }
        var runs = 0, scanned = 0
        for y in 0..<height {
            var was = false
            for x in 0..<width {
                let now = isInside(x, y)
                if now && !was { runs += 1 }
                was = now
            }
            if runs > stopAbove { return runs }
            scanned += width
            if scanned >= 1 << 16 {
                scanned = 0
                if shouldStop() { return nil }
            }
        }
        return runs
    }

    /// The exact outline of a set of pixels: pixel `(x, y)` of a `width × height` grid is the unit square
    /// `x … x + 1` × `y … y + 1`, in the grid's own units (x right, y down), and it belongs to the set when
    /// `isInside(x, y)` is true (`isInside` is only asked about `0 ≤ x < width`, `0 ≤ y < height`).
    ///
    /// The result is closed loops of axis-parallel edges (a pixel staircase) with the inside on one side, so
    /// the nonzero rule gives winding ±1 inside and 0 outside, holes included; straight runs are merged into
    /// one edge. Empty when no pixel is inside.
    ///
    /// **Bounded before built.** The pixels are first counted by runs (`pixelRunCount`, nothing allocated):
    /// when 4 × runs, the most edges the outline can have, exceeds `maxEdges`, it throws
    /// `.tooManyEdges` without building anything. Then the outline is made from the runs of each row (memory
    /// linear in the runs and edges, never in the pixels): a one-row mask of 16,777,216 inside pixels is
    /// four edges and a few bytes; a 4096 × 4096 checkerboard is refused after one pass. Time is linear in
    /// the pixels plus E log E for E edges. `shouldStop` is asked every 65,536 pixels and every 4,096 edges
    /// (a deadline): true throws `.stopped`.
    ///
    /// Used for alpha masks (InkScene's `AlphaMask`) and bitmap glyphs (InkFreeType), so both hit the same
    /// staircase.
    public static func pixelOutline(width: Int, height: Int, maxEdges: Int, shouldStop: () -> Bool = { false },
                                    isInside: (Int, Int) -> Bool) throws(PixelOutlineError) -> Polygon {
        guard width > 0, height > 0 else { return Polygon() }
        let limit = max(0, maxEdges)
        guard let runs = pixelRunCount(width: width, height: height, stopAbove: limit / 4, shouldStop: shouldStop,
                                       isInside: isInside) else { throw .stopped }
        guard runs <= limit / 4 else { throw .tooManyEdges(runs: runs, limit: limit) }
        guard runs > 0 else { return Polygon() }
        let rows = try PixelRuns(width: width, height: height, runs: runs, shouldStop: shouldStop, isInside: isInside)
        return try rows.outline(shouldStop: shouldStop)
    }

    /// `pixelOutline(width:height:maxEdges:shouldStop:isInside:)` without a bound (it cannot fail).
    public static func pixelOutline(width: Int, height: Int, isInside: (Int, Int) -> Bool) -> Polygon {
        (try? pixelOutline(width: width, height: height, maxEdges: .max, isInside: isInside)) ?? Polygon()
    }
}

/// The runs of inside pixels of each row (`starts[k] ..< ends[k]`, rows' runs from `rowStart[y]`), and the
/// staircase made from them.
private struct PixelRuns {
    let width: Int, height: Int
    var starts: [Int32] = [], ends: [Int32] = []
    var rowStart: [Int] = []

    init(width: Int, height: Int, runs: Int, shouldStop: () -> Bool, isInside: (Int, Int) -> Bool) throws(PixelOutlineError) {
        self.width = width; self.height = height
        starts.reserveCapacity(runs); ends.reserveCapacity(runs); rowStart.reserveCapacity(height + 1)
        var scanned = 0
        for y in 0..<height {
            rowStart.append(starts.count)
            var x = 0
            while x < width {
                guard isInside(x, y) else { x += 1; continue }
                let a = x
                while x < width && isInside(x, y) { x += 1 }
                starts.append(Int32(a)); ends.append(Int32(x))
            }
            scanned += width
            if scanned >= 1 << 16 {
                scanned = 0
                if shouldStop() { throw .stopped }
            }
        }
        rowStart.append(starts.count)
    }

    /// Directed boundary edges with the inside on the right in y-down terms (top edges run +x, right edges
    /// +y, bottom edges −x, left edges −y), linked into loops whose straight runs are merged.
    func outline(shouldStop: () -> Bool) throws(PixelOutlineError) -> Polygon {
        let w1 = width + 1
        // (start vertex, end vertex), vertex v = y·(width + 1) + x.
        var edges: [(Int, Int)] = []
        edges.reserveCapacity(4 * starts.count)
        for y in 0..<height {
            for k in rowStart[y]..<rowStart[y + 1] {
                let a = Int(starts[k]), b = Int(ends[k])
                edges.append(((y + 1) * w1 + a, y * w1 + a))          // left side, upwards
                edges.append((y * w1 + b, (y + 1) * w1 + b))          // right side, downwards
            }
        }
        // Between row y − 1 (above) and row y (below): a top edge where only the row below is inside, a
        // bottom edge where only the row above is, split wherever either row's runs begin or end.
        for y in 0...height {
            horizontalEdges(y) { x0, x1, insideBelow in
                edges.append(insideBelow ? (y * w1 + x0, y * w1 + x1) : (y * w1 + x1, y * w1 + x0))
            }
            if y & 4095 == 4095, shouldStop() { throw .stopped }
        }
        return try Self.link(edges, w1: w1, shouldStop: shouldStop)
    }

    /// Calls `emit(x0, x1, insideBelow)` for each maximal stretch `x0 ..< x1` of the line y where exactly one of
    /// rows y − 1 and y is inside, with the same one all along.
    private func horizontalEdges(_ y: Int, _ emit: (Int, Int, Bool) -> Void) {
        let above = y > 0 ? rowStart[y - 1]..<rowStart[y] : 0..<0
        let below = y < height ? rowStart[y]..<rowStart[y + 1] : 0..<0
        var i = above.lowerBound, j = below.lowerBound
        var x = 0
        var open: (x: Int, below: Bool)? = nil
        // Sweep the breakpoints of both rows in order; the state between breakpoints is (inAbove, inBelow).
        while true {
            let nextA = i < above.upperBound ? Int(x < Int(starts[i]) ? starts[i] : ends[i]) : Int.max
            let nextB = j < below.upperBound ? Int(x < Int(starts[j]) ? starts[j] : ends[j]) : Int.max
            let inA = i < above.upperBound && x >= Int(starts[i]) && x < Int(ends[i])
            let inB = j < below.upperBound && x >= Int(starts[j]) && x < Int(ends[j])
            let state: Bool? = inA == inB ? nil : inB
            if let o = open, state != o.below { emit(o.x, x, o.below); open = nil }
            if open == nil, let s = state { open = (x, s) }
            let next = min(nextA, nextB)
            if next == Int.max { break }
            x = next
            if i < above.upperBound && x >= Int(ends[i]) { i += 1 }
            if j < below.upperBound && x >= Int(ends[j]) { j += 1 }
        }
        if let o = open { emit(o.x, x, o.below) }
    }

    /// Closed loops from directed edges where every vertex has as many edges in as out (walking unused edges
    /// closes loops), with the middle vertices of straight runs dropped.
    private static func link(_ unsorted: [(Int, Int)], w1: Int, shouldStop: () -> Bool) throws(PixelOutlineError) -> Polygon {
        var edges = unsorted
        edges.sort { $0.0 < $1.0 }
        var taken = [Bool](repeating: false, count: edges.count)
        /// An unused edge leaving `v` (at most two leave a vertex: pixels touching at a corner).
        func take(_ v: Int) -> Int? {
            var lo = 0, hi = edges.count
            while lo < hi { let mid = (lo + hi) / 2; if edges[mid].0 < v { lo = mid + 1 } else { hi = mid } }
            var k = lo
            while k < edges.count && edges[k].0 == v {
                if !taken[k] { taken[k] = true; return edges[k].1 }
                k += 1
            }
            return nil
        }
        var loops: [[Point]] = []
        var walked = 0
        for first in edges.indices where !taken[first] {
            let start = edges[first].0
            taken[first] = true
            var loop: [Int] = [start]
            var v = edges[first].1
            while v != start, let next = take(v) {
                loop.append(v)
                v = next
                walked += 1
                if walked & 4095 == 0, shouldStop() { throw .stopped }
            }
            let pts = loop.map { Point(Double($0 % w1), Double($0 / w1)) }
            var corners: [Point] = []
            corners.reserveCapacity(pts.count)
            for k in pts.indices {
                let a = pts[(k + pts.count - 1) % pts.count], b = pts[k], c = pts[(k + 1) % pts.count]
                if !((a.x == b.x && b.x == c.x) || (a.y == b.y && b.y == c.y)) { corners.append(b) }
            }
            loops.append(corners.count >= 3 ? corners : pts)
        }
        return Polygon(contours: loops)
    }
}
