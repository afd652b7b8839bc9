/// Counts what a `FlatteningSink` of the same tolerance would emit, without emitting anything: segments
/// from each curve's control polygon (Wang's formula, `Flattening.segmentCount`), one per line, so a caller
/// can refuse an outline before flattening it (a curve at a scale of a million needs its 4,096 segments
/// computed only if the total is affordable).
///
/// `segments` is exactly the number of lines `FlatteningSink(_, tolerance:)` passes on for the same calls
/// (curves capped at `Flattening.maxSegmentsPerCurve` counted at the cap and in `cappedCurves`). Constant
/// memory; a few flops per call. Wrap it in a `TransformingSink` to count at a placement's scale.
public struct SegmentCountingSink: OutlineSink, Sendable {
    /// The Hausdorff bound the count is for, in the units of the incoming space (> 0).
    public let tolerance: Double
    /// Line segments the flattened outline would have (lines, curve segments and explicit closing lines;
    /// not the implied closing edge of each contour, at most one per `move`).
    public private(set) var segments = 0
    /// Contours begun (`move` calls): each may add one closing edge.
    public private(set) var contours = 0
    /// Curves that would need more than `Flattening.maxSegmentsPerCurve` segments.
    public private(set) var cappedCurves = 0
    /// Points seen that are NaN or infinite.
    public private(set) var nonFinitePoints = 0
    private var current = Point.zero

    /// A count for `tolerance` (units of the incoming space, > 0).
    public init(tolerance: Double) { self.tolerance = tolerance }

    /// The most edges the flattened outline can have: `segments` plus one closing edge per contour.
    public var edgeBound: Int { segments + contours }

    public mutating func move(to p: Point) { check(p); current = p; contours += 1 }
    public mutating func addLine(to p: Point) { check(p); segments += 1; current = p }
    public mutating func addQuadCurve(to p: Point, control c: Point) {
        check(p); check(c)
        count(Flattening.segmentCount(quad: current, c, p, tolerance: tolerance))
        current = p
    }
    public mutating func addCurve(to p: Point, control1 c1: Point, control2 c2: Point) {
        check(p); check(c1); check(c2)
        count(Flattening.segmentCount(cubic: current, c1, c2, p, tolerance: tolerance))
        current = p
    }
    public mutating func closeSubpath() {}

    private mutating func check(_ p: Point) { if !p.isFinite { nonFinitePoints += 1 } }
    private mutating func count(_ s: Flattening.Subdivision) {
        segments += s.count
        if s.capped { cappedCurves += 1 }
    }
}
