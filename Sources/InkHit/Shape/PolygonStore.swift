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
