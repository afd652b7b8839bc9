import InkGeometry

/// An immutable, `Sendable` spatial index of placed glyph shapes, answering "which glyph's ink is at
/// this point (or within r of it)?" in view space.
///
/// ```swift
/// var builder = HitIndex.Builder()                       // tolerance: 0.01 view px
/// let square = try GlyphShape(polygon: Polygon(contours: [[Point(0, 0), Point(10, 0), Point(10, 10), Point(0, 10)]]))
/// try builder.add(square, transform: .translation(20, 20))   // shape units → view px
/// let index = builder.build()
/// if let hit = index.hit(at: Point(32, 25), radius: 3.5) {
///     print(hit.placement, hit.isInside, hit.distance)   // 0 false 2.0: within the radius, 2 px away
/// }
/// ```
///
/// # The hit rule
/// The topmost (last added) placement whose ink contains the point wins; otherwise the placement whose
/// outline is nearest, if it is within the radius. Distances that agree within the query path's rounding
/// are ties, and ties go to the topmost: when `d*` is the least distance (its placement `k*`), a placement
/// `p` with `d_p − d* ≤ 1e-6 × (d* + max(e_p, e_k*))` ties with it, `e` being the longer side of a
/// placement's view box (view px). The winner is the topmost of `k*` and the placements that tie with it.
///
/// # Guarantees
/// - Every answer is exact for the stored polygons of the shapes (nonzero winding per placement; distances
///   Euclidean in view px, also under non-uniform scale or shear), up to the Float32 rounding of each
///   placement's inverse transform and anchor: ~1e-7 of the glyph's size near its ink, and of the point's
///   distance from the glyph farther out (a point 1,000 px away is measured to ~1e-4 px). The builder
///   checked that every shape was flattened within `tolerance` view px of its true outline, so answers are
///   exact for the true outlines at every point farther than `tolerance` from the relevant boundary.
/// - Built once, never changes; queries allocate nothing (except those that return arrays) and are safe
///   from any number of threads at once.
/// - Memory beyond the shared shapes (`bytesBeyondShapes`): a 24-byte record per placement, the page grid's
///   lists, and the class raster (4 bits per cell of 1 px for text sizes: about half a byte per px² of the
///   page). The raster is capped at 512 bytes per placement with ink (64 KiB at least) and left out for
///   page cells wider than 256 px; without it every answer is the same, only slower.
/// - Query points and radii are in view px. A non-finite point is a miss. A negative or NaN radius is
///   treated as 0 (documented, not an error: the query path does not throw); `+∞` means "nearest glyph
///   anywhere".
public struct HitIndex: Sendable {
    /// Default flattening tolerance, in view px: far below the 0.05 px margin at which answers must match
    /// a curve-exact test.
    public static let defaultTolerance = 0.01
    /// Default prepared radius, view px (see `Builder.preparedRadius`): the touch radius of this library's examples.
    public static let defaultPreparedRadius = 3.5

    let storage: Storage

    /// An index without placements: every point is a miss.
    public init() { self = Builder().build() }

    init(storage: Storage) { self.storage = storage }

    /// Number of placements (including ones without ink).
    public var count: Int { storage.count }
    /// Union of the placements' ink boxes, view px (empty when no placement has ink).
    public var bounds: Rect { storage.bounds }
    /// The flattening tolerance every placement meets, view px.
    public var tolerance: Double { storage.tolerance }
    /// The radius (view px) the index was prepared for (`Builder.preparedRadius`, clamped): queries with a
    /// radius up to it read only the point's own page cell.
    public var preparedRadius: Double { storage.preparedRadius }

    /// Memory held by this index beyond the shared shapes, in bytes (placement records, linear maps, shape
    /// views, page grid and class raster).
    public var bytesBeyondShapes: Int { storage.byteCount }
    /// Number of distinct shapes referenced.
    public var uniqueShapeCount: Int { storage.shapes.count }

    /// Not API: whether both values are the same built index (one storage), for InkScene's reuse checks.
    @_spi(InkInternals) public func isSame(as other: HitIndex) -> Bool { storage === other.storage }
}

/// Which form of its shapes an index reads. Every shape has a lean form from the start (its polygon and a
/// coarse winding grid: a few KiB and a few µs for a glyph at text sizes); a full form adds a finer grid,
/// near lists for touch radii and raster stamps (several times the memory and build time of the lean form),
/// and answers queries faster, radius queries most. Both answer exactly alike.
public enum ShapeForms: Sendable, Hashable {
    /// A shape's first index reads its lean form; from the second index that places it on, every index reads
    /// its full form, built then. Glyphs seen once stay cheap; glyphs that come back get fast. The default.
    case whenReused
    /// Every shape's full form, built now if it has none: for an index that will answer many queries.
    case full
    /// Lean forms only (the full forms shapes already have are not used).
    case lean
}

/// What the builder refuses, with the offending placement.
public enum HitIndexError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The builder's tolerance (view px) is not finite and > 0.
    case invalidTolerance(Double)
    /// The placement's transform has a NaN or infinite entry.
    case nonFiniteTransform(placement: Int)
    /// The placement's transform collapses the shape to a line or a point (its smallest scale is below
    /// 1e-12 of its largest).
    case singularTransform(placement: Int)
    /// The placement's transform scales by more than 1e30 or less than 1e-30 (`scale`: its largest or
    /// smallest scale), beyond what the index's `Float` inverse can represent.
    case scaleOutOfRange(placement: Int, scale: Double)
    /// The shape was flattened for `shapeTolerance` view px under this transform, coarser than the builder's
    /// `required` tolerance.
    case shapeTooCoarse(placement: Int, shapeTolerance: Double, required: Double)
    /// The placed shape reaches beyond ±1e9 view px.
    case coordinateOutOfRange(placement: Int)
    /// More placements than `HitIndex.Builder.maxPlacements`.
    case tooManyPlacements(limit: Int)

    /// A sentence for a user, naming the placement.
    public var description: String {
        switch self {
        case .invalidTolerance, .tooManyPlacements: return reason
        case .nonFiniteTransform(let p), .singularTransform(let p), .shapeTooCoarse(let p, _, _),
             .coordinateOutOfRange(let p), .scaleOutOfRange(let p, _):
            return "placement \(p): " + reason
        }
    }

    /// The message without the placement number.
    public var reason: String {
        switch self {
        case .invalidTolerance(let t): return "index tolerance must be finite and > 0 (got \(t))"
        case .nonFiniteTransform: return "transform has a NaN or infinite entry"
        case .singularTransform: return "transform is singular (collapses the glyph to a line or point)"
        case .shapeTooCoarse(_, let s, let r):
            return "shape flattened at \(s) px in view space, index requires \(r) px; flatten it finer"
        case .coordinateOutOfRange: return "view coordinates beyond ±1e9 px"
        case .scaleOutOfRange(_, let s):
            return "transform scales by \(DecimalText.short(s)), out of range (scales must lie within 1e-30 … 1e30)"
        case .tooManyPlacements(let l): return "more than \(l) placements"
        }
    }
}

/// One answer: which placement, how far, and whether the point is on its ink.
public struct Hit: Sendable, Hashable {
    /// Index of the placement, in the order it was added to the builder.
    public var placement: Int
    /// Signed distance from the point to the placement's outline, view px: negative on the ink.
    public var distance: Double
    /// True when the point is on the placement's ink (nonzero winding).
    public var isInside: Bool

    /// An answer from its parts.
    public init(placement: Int, distance: Double, isInside: Bool) {
        self.placement = placement; self.distance = distance; self.isInside = isInside
    }
}

/// Per-placement query record: 24 bytes.
struct PlacementRecord: Sendable {
    /// View position of the shape's anchor (its winding origin, a corner of the glyph box), relative to the
    /// corner of the placement's first page cell moved in by the prepared radius
    /// (`anchorBaseX + cellMinX * cellSize`, `anchorBaseX = originX + preparedRadius`): an offset of about the
    /// glyph's size, which Float32 keeps to ~1e-7 of it.
    var dx: Float, dy: Float
    /// Index into the index's linear maps (placements with the same linear part share one).
    var map: UInt32
    /// Index into the shape views; `UInt32.max` for a placement without ink.
    var shape: UInt32
    /// Page-grid cells the placement's box touches (for de-duplication and the origin).
    var cellMinX: UInt16, cellMinY: UInt16, cellMaxX: UInt16, cellMaxY: UInt16
}

/// The linear part of a placement, shared by every placement with the same one: 20 bytes.
struct LinearMap: Sendable {
    /// Inverse linear part (view → shape units): fx = m00*dx + m01*dy, fy = m10*dx + m11*dy.
    var m00: Float, m01: Float, m10: Float, m11: Float
    /// Smallest singular value of the forward map (view px per shape unit); negative when the map is not
    /// a similarity (then distances need the general path).
    var scale: Float

    /// Whether two maps are the same bit for bit (what de-duplication needs: `-0` and `0` differ).
    func isIdentical(to o: LinearMap) -> Bool {
        m00.bitPattern == o.m00.bitPattern && m01.bitPattern == o.m01.bitPattern && m10.bitPattern == o.m10.bitPattern
            && m11.bitPattern == o.m11.bitPattern && scale.bitPattern == o.scale.bitPattern
    }
}

/// A `LinearMap` as a dictionary key (its bit patterns).
struct LinearMapKey: Hashable {
    var a: UInt64, b: UInt64, c: UInt32
    init(_ m: LinearMap) {
        a = UInt64(m.m00.bitPattern) << 32 | UInt64(m.m01.bitPattern)
        b = UInt64(m.m10.bitPattern) << 32 | UInt64(m.m11.bitPattern)
        c = m.scale.bitPattern
    }
}

extension HitIndex {
    /// Collects placements, validates them and builds the index.
    ///
    /// Every check happens in `add(_:transform:)`, so `build()` cannot fail: a built index holds only
    /// finite, invertible placements whose shapes meet `tolerance`.
    public struct Builder: Sendable {
        /// Flattening tolerance every placement must meet, view px.
        public let tolerance: Double
        /// Most placements one index may hold.
        public static let maxPlacements = 50_000_000
        /// The largest prepared radius, view px: larger values are clamped to it.
        public static let maxPreparedRadius = 256.0

        /// The largest query radius (view px) the index is prepared for; default
        /// `HitIndex.defaultPreparedRadius` (3.5 px). A query with a radius up to it finds every candidate in the
        /// point's own page cell, whose list holds every placement whose box lies within this radius; a larger
        /// radius is still answered exactly, by a wider search. Larger values make page cells list more
        /// placements (memory grows about with (glyph size + 2 × radius)²). NaN and negative values count as 0;
        /// values above `maxPreparedRadius` as that.
        public var preparedRadius: Double = HitIndex.defaultPreparedRadius

        /// Which form of its shapes the index reads (see `GlyphShape`): `.whenReused` by default.
        public var shapeForms: ShapeForms = .whenReused

        /// A placement as added: its shape, its transform, and what `add` worked out from the transform
        /// (computed once: the build reuses them).
        struct Item {
            var shape: GlyphShape
            var transform: AffineTransform
            var inverse: AffineTransform
            var singularValues: SingularValues
        }
        var items: [Item] = []

        /// A builder whose placements must meet `HitIndex.defaultTolerance` (0.01 view px).
        public init() { tolerance = HitIndex.defaultTolerance }

        /// A builder whose placements must meet `tolerance` view px: shapes must have been flattened at
        /// `tolerance / maxScale` shape units or finer (see `GlyphShape.tolerance`).
        ///
        /// - Throws: `HitIndexError.invalidTolerance` unless `tolerance` is finite and > 0.
        public init(tolerance: Double) throws(HitIndexError) {
            guard tolerance.isFinite, tolerance > 0 else { throw .invalidTolerance(tolerance) }
            self.tolerance = tolerance
        }

        /// Number of placements added so far.
        public var count: Int { items.count }
        /// Reserves room for `n` placements.
        public mutating func reserveCapacity(_ n: Int) { items.reserveCapacity(n) }

        /// Adds `shape` placed by `transform` (shape units → view px). Returns the placement's index: the
        /// number of placements added before it. Later placements lie on top of earlier ones.
        ///
        /// - Throws: `.nonFiniteTransform`, `.singularTransform`, `.shapeTooCoarse` (the shape's tolerance
        ///   times the transform's largest scale exceeds the builder's tolerance), `.coordinateOutOfRange`,
        ///   `.tooManyPlacements`. A failed `add` leaves the builder as it was.
        @discardableResult
        public mutating func add(_ shape: GlyphShape, transform: AffineTransform) throws(HitIndexError) -> Int {
            guard transform.isFinite else { throw .nonFiniteTransform(placement: items.count) }
            return try add(shape, transform: transform, singularValues: transform.singularValues)
        }

        /// Not API: `add(_:transform:)` with the transform's singular values already at hand (a caller that
        /// needed them to choose the shape passes them on instead of having them computed again).
        @_spi(InkInternals) @discardableResult
        public mutating func add(_ shape: GlyphShape, transform: AffineTransform,
                                 singularValues sv: SingularValues) throws(HitIndexError) -> Int {
            let k = items.count
            guard k < Self.maxPlacements else { throw .tooManyPlacements(limit: Self.maxPlacements) }
            guard transform.isFinite else { throw .nonFiniteTransform(placement: k) }
            guard sv.isMaxWithinScaleRange else { throw .scaleOutOfRange(placement: k, scale: sv.max) }
            guard sv.isPlaceable else { throw .singularTransform(placement: k) }
            guard sv.isMinWithinScaleRange else { throw .scaleOutOfRange(placement: k, scale: sv.min) }
            guard let inverse = transform.inverted(singularValues: sv) else { throw .scaleOutOfRange(placement: k, scale: sv.max) }
            let inView = shape.tolerance * sv.max
            if inView > tolerance * (1 + 1e-9) {
                throw .shapeTooCoarse(placement: k, shapeTolerance: inView, required: tolerance)
            }
            if !shape.bounds.isEmpty {
                let box = shape.bounds.applying(transform)
                guard box.minX >= -1e9, box.maxX <= 1e9, box.minY >= -1e9, box.maxY <= 1e9 else {
                    throw .coordinateOutOfRange(placement: k)
                }
            }
            items.append(Item(shape: shape, transform: transform, inverse: inverse, singularValues: sv))
            return k
        }

        /// Builds the immutable index (the builder can go on collecting for another).
        public func build() -> HitIndex {
            let r = preparedRadius >= 0 ? min(preparedRadius, Self.maxPreparedRadius) : 0    // NaN → 0
            return HitIndex(storage: Storage(items: items, tolerance: tolerance, preparedRadius: r, forms: shapeForms))
        }
    }
}
