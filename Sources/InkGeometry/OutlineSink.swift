/// One vocabulary for outlines: whoever has a path (FreeType, a parser, an analytic shape) drives a sink
/// with these five calls, in the coordinates of its own space (font units for glyph outlines).
///
/// A well-formed stream is `move`, then any number of segments, then `closeSubpath`, repeated.
/// Sinks should tolerate streams that are not well formed; wrap a sink in `NormalizingSink` to get
/// lazy move-to, implicit closing and dropped degenerate segments.
public protocol OutlineSink {
    /// Starts a new contour at `p`.
    mutating func move(to p: Point)
    /// A straight segment from the current point to `p`.
    mutating func addLine(to p: Point)
    /// A quadratic Bézier segment from the current point to `p` with control point `c`.
    mutating func addQuadCurve(to p: Point, control c: Point)
    /// A cubic Bézier segment from the current point to `p` with control points `c1` and `c2`.
    mutating func addCurve(to p: Point, control1 c1: Point, control2 c2: Point)
    /// Ends the current contour (a closing line back to its start is implied).
    mutating func closeSubpath()
}

/// One recorded outline element, in the units of the space it was recorded in.
public enum PathElement: Hashable, Sendable {
    /// Starts a contour at the point.
    case move(Point)
    /// A straight segment to the point.
    case line(Point)
    /// A quadratic Bézier segment with one control point.
    case quad(control: Point, to: Point)
    /// A cubic Bézier segment with two control points.
    case cubic(control1: Point, control2: Point, to: Point)
    /// Ends the contour.
    case close
}

extension Array: OutlineSink where Element == PathElement {
    public mutating func move(to p: Point) { append(.move(p)) }
    public mutating func addLine(to p: Point) { append(.line(p)) }
    public mutating func addQuadCurve(to p: Point, control c: Point) { append(.quad(control: c, to: p)) }
    public mutating func addCurve(to p: Point, control1 c1: Point, control2 c2: Point) {
        append(.cubic(control1: c1, control2: c2, to: p))
    }
    public mutating func closeSubpath() { append(.close) }
}

extension Sequence where Element == PathElement {
    /// Replays the elements into `sink`.
    public func replay<S: OutlineSink>(into sink: inout S) {
        for e in self {
            switch e {
            case .move(let p): sink.move(to: p)
            case .line(let p): sink.addLine(to: p)
            case .quad(let c, let p): sink.addQuadCurve(to: p, control: c)
            case .cubic(let c1, let c2, let p): sink.addCurve(to: p, control1: c1, control2: c2)
            case .close: sink.closeSubpath()
            }
        }
    }
}

/// Records every element (a stock sink; `[PathElement]` is a sink too).
public struct RecordingSink: OutlineSink, Sendable {
    /// Every element received, in order.
    public private(set) var elements: [PathElement] = []
    /// A recorder with no elements.
    public init() {}
    public mutating func move(to p: Point) { elements.move(to: p) }
    public mutating func addLine(to p: Point) { elements.addLine(to: p) }
    public mutating func addQuadCurve(to p: Point, control c: Point) { elements.addQuadCurve(to: p, control: c) }
    public mutating func addCurve(to p: Point, control1 c1: Point, control2 c2: Point) {
        elements.addCurve(to: p, control1: c1, control2: c2)
    }
    public mutating func closeSubpath() { elements.closeSubpath() }
}

/// The bounds of every point handed over, control points included (so it is the control box, a
/// superset of the exact curve bounds), in the units of the incoming space.
public struct BoundsSink: OutlineSink, Sendable {
    /// The box of every point seen so far (`Rect.empty` before the first).
    public private(set) var bounds: Rect = .empty
    /// An empty box.
    public init() {}
    public mutating func move(to p: Point) { bounds.expand(toInclude: p) }
    public mutating func addLine(to p: Point) { bounds.expand(toInclude: p) }
    public mutating func addQuadCurve(to p: Point, control c: Point) { bounds.expand(toInclude: c); bounds.expand(toInclude: p) }
    public mutating func addCurve(to p: Point, control1 c1: Point, control2 c2: Point) {
        bounds.expand(toInclude: c1); bounds.expand(toInclude: c2); bounds.expand(toInclude: p)
    }
    public mutating func closeSubpath() {}
}

/// Writes an SVG path string (`M x y L x y Q cx cy x y C … Z`), coordinates in the incoming space,
/// printed with at most `decimals` fractional digits and no trailing zeros. Also the golden format of the tests.
public struct SVGPathSink: OutlineSink, Sendable {
    /// The path so far.
    public private(set) var path: String = ""
    /// Fractional digits printed per coordinate (0…9).
    public let decimals: Int
    /// A writer printing at most `decimals` (clamped to 0…9) fractional digits per coordinate.
    public init(decimals: Int = 3) { self.decimals = max(0, min(decimals, 9)) }

    private mutating func emit(_ cmd: String, _ pts: Point...) {
        if !path.isEmpty { path += " " }
        path += cmd
        for p in pts { path += " " + DecimalText.string(p.x, maxFractionDigits: decimals) + " " + DecimalText.string(p.y, maxFractionDigits: decimals) }
    }
    public mutating func move(to p: Point) { emit("M", p) }
    public mutating func addLine(to p: Point) { emit("L", p) }
    public mutating func addQuadCurve(to p: Point, control c: Point) { emit("Q", c, p) }
    public mutating func addCurve(to p: Point, control1 c1: Point, control2 c2: Point) { emit("C", c1, c2, p) }
    public mutating func closeSubpath() { emit("Z") }
}

/// Adapter: applies an affine transform to every point, then hands it to `base`.
public struct TransformingSink<Base: OutlineSink>: OutlineSink {
    /// The sink that receives the mapped points.
    public var base: Base
    /// The map applied to every point, from the incoming space to `base`'s.
    public let transform: AffineTransform
    /// Maps every point by `transform` before handing it to `base`.
    public init(_ base: Base, transform: AffineTransform) { self.base = base; self.transform = transform }
    public mutating func move(to p: Point) { base.move(to: p.applying(transform)) }
    public mutating func addLine(to p: Point) { base.addLine(to: p.applying(transform)) }
    public mutating func addQuadCurve(to p: Point, control c: Point) {
        base.addQuadCurve(to: p.applying(transform), control: c.applying(transform))
    }
    public mutating func addCurve(to p: Point, control1 c1: Point, control2 c2: Point) {
        base.addCurve(to: p.applying(transform), control1: c1.applying(transform), control2: c2.applying(transform))
    }
    public mutating func closeSubpath() { base.closeSubpath() }
}

/// Adapter that makes any stream well formed before `base` sees it (after hb-draw's draw state):
/// - `move` is emitted lazily, only when a segment follows it (lone moves vanish);
/// - an open contour is closed (with a line back to its start if needed) at the next `move` and at `finish()`;
/// - degenerate segments (zero length, all points equal) are dropped;
/// - a segment with a non-finite coordinate is dropped and counted in `droppedNonFinite` (never silently:
///   callers that care check the count);
/// - a segment arriving before any `move` starts its contour at the origin (0, 0).
public struct NormalizingSink<Base: OutlineSink>: OutlineSink {
    /// The sink that receives the well-formed stream.
    public var base: Base
    private var start = Point.zero
    private var current = Point.zero
    private var pendingMove = true
    private var open = false
    /// Number of calls dropped because a coordinate was NaN or infinite.
    public private(set) var droppedNonFinite = 0

    /// Normalizes the stream before `base` sees it.
    public init(_ base: Base) { self.base = base }

    private mutating func beginSegment() {
        if pendingMove {
            base.move(to: start)
            pendingMove = false
            open = true
        }
    }
    public mutating func move(to p: Point) {
        guard p.isFinite else { droppedNonFinite += 1; return }
        closeIfOpen()
        start = p; current = p; pendingMove = true
    }
    public mutating func addLine(to p: Point) {
        guard p.isFinite else { droppedNonFinite += 1; return }
        if p == current { return }
        beginSegment()
        base.addLine(to: p); current = p
    }
    public mutating func addQuadCurve(to p: Point, control c: Point) {
        guard p.isFinite && c.isFinite else { droppedNonFinite += 1; return }
        if p == current && c == current { return }
        beginSegment()
        base.addQuadCurve(to: p, control: c); current = p
    }
    public mutating func addCurve(to p: Point, control1 c1: Point, control2 c2: Point) {
        guard p.isFinite && c1.isFinite && c2.isFinite else { droppedNonFinite += 1; return }
        if p == current && c1 == current && c2 == current { return }
        beginSegment()
        base.addCurve(to: p, control1: c1, control2: c2); current = p
    }
    public mutating func closeSubpath() {
        closeIfOpen()
        current = start
        pendingMove = true
    }
    /// Closes a contour left open. Call once after the last element.
    public mutating func finish() { closeIfOpen(); pendingMove = true }

    private mutating func closeIfOpen() {
        guard open else { return }
        if current != start { base.addLine(to: start) }
        base.closeSubpath()
        open = false
        current = start
    }
}
