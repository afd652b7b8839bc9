import InkGeometry
import InkHit

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
        /// The shape `make` builds, kept when it is one (or nil, or an error the mask itself causes); an
        /// error of the build's circumstances (a deadline, a byte budget smaller than the default) is not kept.
        func pixelShape(_ make: () -> Result<GlyphShape?, ShapeError>) -> Result<GlyphShape?, ShapeError> {
            lock.withLock {
                if let shape { return shape }
                let s = make()
                switch s {
                case .failure(.timeLimit), .failure(.tooLarge): break
                default: shape = s
                }
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
    /// included). Straight runs are merged into one edge (`Polygon.pixelOutline`, shared with bitmap glyphs).
    /// Bounded before it is built: more than `maxEdges` possible edges (4 per run of hit pixels in a row) is
    /// `.tooManyEdges`; the build deadline (`BuildDeadline`) is checked as the pixels are read.
    func outline(maxEdges: Int = ShapeLimits.default.maxEdges) throws(ShapeError) -> [[Point]] {
        let s = storage
        do {
            return try Polygon.pixelOutline(width: s.width, height: s.height, maxEdges: maxEdges,
                                            shouldStop: { BuildDeadline.hasPassed }) { x, y in
                s.alpha[y &* s.width &+ x] >= s.threshold
            }.contours
        } catch {
            switch error {
            case .tooManyEdges: throw .tooManyEdges(limit: maxEdges)
            case .stopped: throw .timeLimit
            }
        }
    }

    /// The region of the hit pixels in pixel units (x right, y down; exact: a polygon of pixel edges), nil
    /// when no pixel reaches the threshold. Built once per mask and shared (a failure that comes from the
    /// mask itself is kept too; one from a deadline or a smaller byte budget is not).
    func pixelShape(limits: ShapeLimits = .default) throws(ShapeError) -> GlyphShape? {
        let r = storage.pixelShape { () -> Result<GlyphShape?, ShapeError> in
            do throws(ShapeError) {
                let loops = try outline(maxEdges: limits.maxEdges)
                guard !loops.isEmpty else { return .success(nil) }
                return .success(try GlyphShape(polygon: Polygon(contours: loops), limits: limits))
            } catch {
                return .failure(error)
            }
        }
        return try r.get()
    }
}
