import InkGeometry
@_spi(InkInternals) import InkHit

/// An 8-bit alpha image, row by row from the top, mapped onto a node's `bounds`: the node is hit where a
/// pixel's alpha is at least `threshold` (SVG's `pointer-events: visiblePainted` on images).
public struct AlphaMask: Sendable, Hashable {
    /// The pixels, behind one reference: a mask is as cheap to copy as a pointer.
    final class Storage: @unchecked Sendable {
        let width: Int, height: Int, alpha: [UInt8], threshold: UInt8
        /// The region in pixel units, built on first use and shared by every node showing the mask (under
        /// `lock`).
        private var shape: Result<GlyphShape?, ShapeError>? = nil
        private let lock = Lock()
        init(width: Int, height: Int, alpha: [UInt8], threshold: UInt8) {
            self.width = width; self.height = height; self.alpha = alpha; self.threshold = threshold
        }
        /// The last index built for a node showing the mask (its bounds, local → L-space map and tolerance):
        /// a list of avatars of one size shares one.
        private var placed: (bounds: Rect, linear: AffineTransform, tolerance: Double, index: HitIndex)? = nil
        func placedIndex(_ bounds: Rect, _ linear: AffineTransform, _ tolerance: Double) -> HitIndex? {
            lock.withLock {
                guard let p = placed, p.bounds == bounds, p.linear == linear, p.tolerance == tolerance else { return nil }
                return p.index
            }
        }
        func keep(_ index: HitIndex, _ bounds: Rect, _ linear: AffineTransform, _ tolerance: Double) {
            lock.withLock { placed = (bounds, linear, tolerance, index) }
        }
        func pixelShape(_ make: () -> Result<GlyphShape?, ShapeError>) -> Result<GlyphShape?, ShapeError> {
            lock.withLock {
                if let shape { return shape }
                let s = make()
                shape = s
                return s
            }
        }
    }
    let storage: Storage

    /// Pixels per row.
    public var width: Int { storage.width }
    /// Rows.
    public var height: Int { storage.height }
    /// `width × height` alpha values, row by row from the top.
    public var alpha: [UInt8] { storage.alpha }
    /// The least alpha that is hit (1…255; 0 would make every pixel hit: use a box).
    public var threshold: UInt8 { storage.threshold }

    /// Equal sizes, pixels and thresholds.
    public static func == (l: AlphaMask, r: AlphaMask) -> Bool {
        l.storage === r.storage || (l.width == r.width && l.height == r.height && l.threshold == r.threshold && l.alpha == r.alpha)
    }
    /// Hashes the size, threshold and pixels.
    public func hash(into h: inout Hasher) { h.combine(width); h.combine(height); h.combine(threshold); h.combine(alpha) }

    /// Most pixels one mask may have (4096 × 4096).
    public static let maxPixels = 4096 * 4096

    /// A mask from its size and pixels; nil unless `alpha` has `width × height` values, both sizes are ≥ 1,
    /// the mask has at most `maxPixels` pixels and `threshold` ≥ 1.
    public init?(width: Int, height: Int, alpha: [UInt8], threshold: UInt8 = 128) {
        guard width >= 1, height >= 1, width <= Self.maxPixels / height, alpha.count == width * height, threshold >= 1 else {
            return nil
        }
        storage = Storage(width: width, height: height, alpha: alpha, threshold: threshold)
    }

    func isInside(_ x: Int, _ y: Int) -> Bool {
        let s = storage
        return x >= 0 && y >= 0 && x < s.width && y < s.height && s.alpha[y * s.width + x] >= s.threshold
    }

    /// The exact outline of the hit pixels in pixel units (x right, y down): closed loops of axis-parallel
    /// edges with the inside on one side, so the nonzero rule gives 1 inside and 0 outside (holes
    /// included). Straight runs are merged into one edge.
    func outline() -> [[Point]] {
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
            for x in 0..<width where isInside(x, y) {
                if !isInside(x, y - 1) { edge(x, y, x + 1, y) }
                if !isInside(x + 1, y) { edge(x + 1, y, x + 1, y + 1) }
                if !isInside(x, y + 1) { edge(x + 1, y + 1, x, y + 1) }
                if !isInside(x - 1, y) { edge(x, y + 1, x, y) }
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
        return loops
    }

    /// The region of the hit pixels in pixel units (x right, y down; exact: a polygon of pixel edges), nil
    /// when no pixel reaches the threshold. Built once per mask and shared.
    func pixelShape() throws(ShapeError) -> GlyphShape? {
        let r = storage.pixelShape { () -> Result<GlyphShape?, ShapeError> in
            let loops = outline()
            guard !loops.isEmpty else { return .success(nil) }
            do throws(ShapeError) { return .success(try GlyphShape(polygon: Polygon(contours: loops))) } catch { return .failure(error) }
        }
        return try r.get()
    }
}
