/// One verb of a path as a renderer's iterator hands it over, each segment with its start point: Skia's
/// `SkPath::Iter` (`pts[0]` is where the segment starts), CoreGraphics' `CGPathApply` after a move, Qt's
/// `QPainterPath` elements read in pairs. Coordinates are in the path's own units.
///
/// `replay(into:)` checks that every segment starts where the previous one ended (the current point: the last
/// end point, the move's point, the contour's start after a `close`, or (0, 0) before the first move) and
/// hands the path to a `ConicSink` without the start points; conics stay conics for the sink to convert
/// (`GlyphShape.Sink` within its own tolerance, `ConicToQuadSink` within a tolerance you choose).
///
/// ```swift
/// let quarter = 0.5.squareRoot()                      // a quarter circle's weight: cos 45°
/// let disc: [PathVerb] = [
///     .move(Point(1, 0)),
///     .conic(from: Point(1, 0), control: Point(1, 1), to: Point(0, 1), weight: quarter),
///     .conic(from: Point(0, 1), control: Point(-1, 1), to: Point(-1, 0), weight: quarter),
///     .conic(from: Point(-1, 0), control: Point(-1, -1), to: Point(0, -1), weight: quarter),
///     .conic(from: Point(0, -1), control: Point(1, -1), to: Point(1, 0), weight: quarter),
///     .close,
/// ]
/// var sink = ConicToQuadSink(RecordingSink(), tolerance: 1e-3)
/// try disc.replay(into: &sink)
/// print(sink.base.elements.count > 4, sink.achievedTolerance <= 1e-3)   // true true
/// ```
public enum PathVerb: Hashable, Sendable {
    /// Starts a contour at the point.
    case move(Point)
    /// A straight segment.
    case line(from: Point, to: Point)
    /// A quadratic Bézier segment.
    case quad(from: Point, control: Point, to: Point)
    /// A conic section (a rational quadratic; see `Conic`), weight finite and > 0.
    case conic(from: Point, control: Point, to: Point, weight: Double)
    /// A cubic Bézier segment.
    case cubic(from: Point, control1: Point, control2: Point, to: Point)
    /// Ends the contour (a line back to its start is implied).
    case close
}

/// Why verbs could not be replayed: the verb's index and what is wrong with it.
public struct PathVerbError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The index of the verb in the sequence given.
    public var verb: Int
    /// What is wrong (a sentence).
    public var message: String
    /// A verb and what is wrong with it.
    public init(verb: Int, message: String) { self.verb = verb; self.message = message }
    /// "verbs[i]: message".
    public var description: String { "verbs[\(verb)]: \(message)" }
}

extension Sequence where Element == PathVerb {
    /// Checks every verb, then drives `sink` with them (start points dropped, conics as conics). On error the
    /// sink sees nothing.
    ///
    /// - Throws: `PathVerbError` for the first verb with a NaN or infinite coordinate, a conic weight that is
    ///   not finite and > 0, or a start point other than the current point (compared exactly: a renderer's
    ///   iterator hands over the very point it ended at).
    public func replay<S: ConicSink>(into sink: inout S) throws(PathVerbError) {
        try check()
        for v in self {
            switch v {
            case .move(let p): sink.move(to: p)
            case .line(_, let p): sink.addLine(to: p)
            case .quad(_, let c, let p): sink.addQuadCurve(to: p, control: c)
            case .conic(_, let c, let p, let w): sink.addConic(to: p, control: c, weight: w)
            case .cubic(_, let c1, let c2, let p): sink.addCurve(to: p, control1: c1, control2: c2)
            case .close: sink.closeSubpath()
            }
        }
    }

    /// Checks the verbs as `replay(into:)` does.
    ///
    /// - Throws: `PathVerbError` for the first verb that does not pass.
    public func check() throws(PathVerbError) {
        var current = Point.zero, start = Point.zero
        for (i, v) in enumerated() {
            func segment(_ from: Point, _ end: Point, finite: Bool) throws(PathVerbError) {
                guard finite else { throw PathVerbError(verb: i, message: "a point is not finite") }
                guard from == current else {
                    throw PathVerbError(verb: i, message: "starts at \(from), but the current point is \(current)")
                }
                current = end
            }
            switch v {
            case .move(let p):
                guard p.isFinite else { throw PathVerbError(verb: i, message: "a point is not finite") }
                current = p; start = p
            case .line(let a, let p): try segment(a, p, finite: a.isFinite && p.isFinite)
            case .quad(let a, let c, let p): try segment(a, p, finite: a.isFinite && c.isFinite && p.isFinite)
            case .conic(let a, let c, let p, let w):
                guard w.isFinite, w > 0 else {
                    throw PathVerbError(verb: i, message: "the conic weight must be finite and > 0 (got \(DecimalText.short(w)))")
                }
                try segment(a, p, finite: a.isFinite && c.isFinite && p.isFinite)
            case .cubic(let a, let c1, let c2, let p):
                try segment(a, p, finite: a.isFinite && c1.isFinite && c2.isFinite && p.isFinite)
            case .close: current = start
            }
        }
    }
}
