import InkGeometry
import InkHit
import InkFreeType
import InkText

/// What one snapshot may spend on the regions it builds: bytes of shapes and time. Every region is estimated
/// from cheap bounds before anything is allocated (an ellipse's or round rectangle's segments from its
/// radius, a path's from its curves' control polygons, a mask's edges from the runs of its rows) and refused
/// with a `SceneError` when it would not fit; what is built is then counted.
///
/// ```swift
/// let scene = Scene(root: Node(id: "huge", bounds: Rect(minX: 0, minY: 0, maxX: 1e7, maxY: 1e7), shape: .ellipse))
/// let budget = SceneBudget(maxShapeBytes: 64 << 20, deadline: .now + .milliseconds(250))
/// do { _ = try scene.snapshot(budget: budget) } catch { print(error) }   // refused before it is built
/// ```
public struct SceneBudget: Sendable, Hashable {
    /// Most bytes of distinct shapes (`GlyphShape.byteCount`) the regions one snapshot builds may hold:
    /// polygons of ellipses, round rectangles, paths, masks and word hulls, and the glyph shapes of glyph
    /// and text nodes (a text node's own layout indexes, built with the layout, are not counted again).
    /// Regions kept from an earlier snapshot cost nothing. Default: no limit beyond each shape's own
    /// (`ShapeLimits.maxBytes`, 256 MiB).
    public var maxShapeBytes: Int
    /// When the snapshot gives up (monotonic clock): checked between nodes and inside long region builds
    /// (through `BuildDeadline`, whose enclosing limit also applies). nil: none.
    public var deadline: ContinuousClock.Instant?

    /// A budget of `maxShapeBytes` bytes of new shapes, ending at `deadline`.
    public init(maxShapeBytes: Int = .max, deadline: ContinuousClock.Instant? = nil) {
        self.maxShapeBytes = max(0, maxShapeBytes)
        self.deadline = deadline
    }
}

/// One snapshot's running account: the bytes of shapes its regions hold so far (each shape once).
final class RegionBudget {
    let limit: Int
    private(set) var spent = 0
    private var seen = Set<ObjectIdentifier>()

    /// Where glyph nodes' shapes come from (the snapshot's `cache` argument).
    let cache: FontShapeCache

    init(_ budget: SceneBudget, cache: FontShapeCache) { limit = budget.maxShapeBytes; self.cache = cache }

    /// Bytes still free.
    var left: Int { max(0, limit - spent) }

    /// The limits a shape built now must keep: the default ones, with no more bytes than are left.
    var shapeLimits: ShapeLimits {
        var l = ShapeLimits.default
        l.maxBytes = min(l.maxBytes, left)
        return l
    }

    /// Refuses a shape estimated at `bytes` before it is built: beyond a shape's own limit, or beyond what is
    /// left of the snapshot's.
    func reserve(_ bytes: Int, _ id: String) throws(SceneError) {
        if bytes > ShapeLimits.default.maxBytes { throw .shape(id: id, .tooLarge(limit: ShapeLimits.default.maxBytes)) }
        if bytes > left { throw .shapeBytes(id: id, limit: limit) }
    }

    /// Counts `shape` (once, however many regions use it).
    func charge(_ shape: GlyphShape, _ id: String) throws(SceneError) {
        guard seen.insert(ObjectIdentifier(shape)).inserted else { return }
        spent += shape.byteCount
        if spent > limit { throw .shapeBytes(id: id, limit: limit) }
    }

    /// Throws `.timeLimit` naming node `id` once the build deadline has passed.
    static func checkDeadline(_ id: String) throws(SceneError) {
        if BuildDeadline.hasPassed { throw .timeLimit(id: id) }
    }
}

extension Regions {
    /// An estimate, from above, of what `GlyphShape(polygon:)` stores for a polygon of `edges` edges with its
    /// default distance margin: edges, grid cells and crossing lists, and for `convex` shapes their
    /// near lists, whose inner 2 × 2 blocks of cells can each be near a large share of the edges: at most
    /// every edge for every block, and (measured on circles of 71 to 5,000 edges: 30 · n^1.5 bytes in all)
    /// at most 64 · n^1.5 bytes. Non-convex shapes (paths) are held to their byte limit by the build itself.
    static func estimatedBytes(edges n: Int, convex: Bool) -> Int {
        guard n > 0 else { return 0 }
        // n ≈ 1.6 √edges cells span the box, and the default distance margin (30 % of the box) adds as many again.
        let span = Int((Double(n).squareRoot() * 1.6).rounded(.up)) + 1
        let axis = min(ShapeLimits.default.maxCellsPerAxis, span + 2 * Int((0.3 * Double(span)).rounded(.up)))
        let cells = axis * axis
        let fixed = Double(n * 36 + cells * 32 + (2 * n + 4 * axis) * 24)
        guard convex else { return Int(fixed) }
        let blocks = Double((axis / 2 + 1) * (axis / 2 + 1))
        let near = min(blocks * Double(n) * 8, 64 * Double(n) * Double(n).squareRoot())
        return Int(min(fixed + near, 1e15))
    }

    /// The segments of an ellipse in `r` (local px) flattened for `maxScale` root px per local px, without
    /// building it (see `ellipse(in:viewTolerance:maxScale:)`).
    static func ellipseEdges(in r: Rect, viewTolerance: Double, maxScale: Double) -> Int {
        max(segments(radius: max(r.width, r.height) / 2 * maxScale, angle: 2 * .pi, tol: viewTolerance).0, 8)
    }

    /// The edges of a rounded rectangle's polygon (see `roundRect(_:radius:viewTolerance:maxScale:)`).
    static func roundRectEdges(radius rad: Double, viewTolerance: Double, maxScale: Double) -> Int {
        RoundRect.edges(radius: rad, viewTolerance: viewTolerance, maxScale: maxScale)
    }

    /// The edges a path flattens to within `tolerance` local px, counted from its curves' control polygons
    /// without flattening it; nil with the error when a curve cannot meet the tolerance or a point is not
    /// finite.
    static func pathEdges(_ elements: [PathElement], tolerance: Double) -> Result<Int, ShapeError> {
        var counter = SegmentCountingSink(tolerance: tolerance)
        elements.replay(into: &counter)
        if counter.nonFinitePoints > 0 { return .failure(.nonFiniteCoordinate) }
        if counter.cappedCurves > 0 { return .failure(.toleranceNotMet(curves: counter.cappedCurves)) }
        return .success(counter.edgeBound)
    }
}
