import InkGeometry

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
    /// The placed shape reaches beyond `ViewSpace.limit` (view px).
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
        case .coordinateOutOfRange: return "view coordinates beyond \(ViewSpace.limitText)"
        case .scaleOutOfRange(_, let s):
            return "transform scales by \(DecimalText.short(s)), out of range (scales must lie within 1e-30 … 1e30)"
        case .tooManyPlacements(let l): return "more than \(l) placements"
        }
    }
}
