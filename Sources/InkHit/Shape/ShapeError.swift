import InkGeometry

/// Why a shape could not be built.
public enum ShapeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The flattening tolerance (shape units) is not finite and > 0.
    case invalidTolerance(Double)
    /// An outline point is NaN or infinite.
    case nonFiniteCoordinate
    /// An outline coordinate does not fit a 32-bit float.
    case coordinateOutOfRange
    /// This many curves would need more than `Flattening.maxSegmentsPerCurve` segments.
    case toleranceNotMet(curves: Int)
    /// The outline has more edges than `ShapeLimits.maxEdges` after flattening.
    case tooManyEdges(limit: Int)
    /// The shape's storage would exceed `ShapeLimits.maxBytes`.
    case tooLarge(limit: Int)
    /// The build passed the time limit of `BuildDeadline` and gave up.
    case timeLimit

    /// A sentence for a user.
    public var description: String {
        switch self {
        case .invalidTolerance(let t): return "flattening tolerance must be finite and > 0 (got \(t))"
        case .nonFiniteCoordinate: return "outline has a NaN or infinite coordinate"
        case .coordinateOutOfRange: return "outline coordinate does not fit a 32-bit float"
        case .toleranceNotMet(let n):
            return "\(n) curve(s) would need more than \(Flattening.maxSegmentsPerCurve) segments to meet the tolerance"
        case .tooManyEdges(let l): return "outline has more than \(l) edges after flattening"
        case .tooLarge(let l): return "the shape's grid would take more than \(l) bytes (ShapeLimits.maxBytes)"
        case .timeLimit: return "the shape's build passed its time limit"
        }
    }
}
