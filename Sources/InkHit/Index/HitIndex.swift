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
    package func isSame(as other: HitIndex) -> Bool { storage === other.storage }
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
