import CInkHit
import InkGeometry
import InkHit

// Checks of what C callers pass, before any of it reaches an API that could trap: counts (size_t arrives as
// Int: values above Int.max are negative here), pointers, numbers, UTF-8 and UTF-16, path commands.

/// `count` as an Int, refusing size_t values beyond Int.max (negative here).
func count(_ n: Int, _ name: String) throws(CError) -> Int {
    guard n >= 0 else { throw .argument("\(name) (\(UInt(bitPattern: n))) is beyond the address space") }
    return n
}

/// `n` elements at `p` (NULL allowed when `n` is 0).
func buffer<T>(_ p: UnsafePointer<T>?, _ n: Int, _ name: String, countName: String) throws(CError) -> UnsafeBufferPointer<T> {
    let n = try count(n, countName)
    guard n > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
    guard let p else { throw .null("\(name) (with \(countName) \(n))") }
    return UnsafeBufferPointer(start: p, count: n)
}

/// `n` writable elements at `p` (NULL allowed when `n` is 0).
func mutableBuffer<T>(_ p: UnsafeMutablePointer<T>?, _ n: Int, _ name: String,
                      countName: String) throws(CError) -> UnsafeMutableBufferPointer<T> {
    let n = try count(n, countName)
    guard n > 0 else { return UnsafeMutableBufferPointer(start: nil, count: 0) }
    guard let p else { throw .null("\(name) (with \(countName) \(n))") }
    return UnsafeMutableBufferPointer(start: p, count: n)
}

/// A number in a message: "nan", "-inf", "1e+300", "3.5".
func show(_ v: Double) -> String { DecimalText.short(v) }

func finite(_ v: Double, _ name: String) throws(CError) -> Double {
    guard v.isFinite else { throw .argument("\(name) must be finite (got \(show(v)))") }
    return v
}

func point(_ p: inkhit_point, _ name: String) throws(CError) -> Point {
    guard p.x.isFinite, p.y.isFinite else { throw .argument("\(name) (\(show(p.x)), \(show(p.y))) must be finite") }
    return Point(p.x, p.y)
}

func transform(_ t: inkhit_transform, _ name: String) throws(CError) -> AffineTransform {
    let m = AffineTransform(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx, ty: t.ty)
    guard m.isFinite else { throw .argument("\(name) \(describe(t)) has a NaN or infinite entry") }
    return m
}

func rect(_ r: inkhit_rect, _ name: String) throws(CError) -> Rect {
    guard r.min_x.isFinite, r.min_y.isFinite, r.max_x.isFinite, r.max_y.isFinite else {
        throw .argument("\(name) (\(show(r.min_x)), \(show(r.min_y)), \(show(r.max_x)), \(show(r.max_y))) must be finite")
    }
    return Rect(minX: r.min_x, minY: r.min_y, maxX: r.max_x, maxY: r.max_y)
}

func describe(_ t: inkhit_transform) -> String {
    "[\(show(t.a)), \(show(t.b)), \(show(t.c)), \(show(t.d)), \(show(t.tx)), \(show(t.ty))]"
}

/// A radius of a query: >= 0 (+inf allowed), not NaN.
@inline(__always) func radiusIsValid(_ r: Double) -> Bool { r >= 0 }

/// Whether a query's point and radius are usable — x and y finite, the radius >= 0 (+inf allowed), not NaN — in
/// five instructions and one branch: `v - v` is 0 for a finite `v` and NaN for NaN or an infinity.
@inline(__always) func queryIsValid(_ x: Double, _ y: Double, _ radius: Double) -> Bool {
    (x - x) + (y - y) == 0 && radius >= 0
}

func radiusError(_ r: Double) -> CError { .argument("radius must be >= 0 and not NaN (got \(show(r)))") }

func pointError(_ x: Double, _ y: Double) -> CError { .argument("the point (\(show(x)), \(show(y))) is not finite") }

/// A tolerance argument: 0 selects the default, else finite and > 0.
func tolerance(_ t: Double) throws(CError) -> Double {
    if t == 0 { return HitIndex.defaultTolerance }
    guard t.isFinite, t > 0 else { throw .argument("tolerance must be finite and > 0, or 0 for the default (got \(show(t)))") }
    return t
}

func fillRule(_ v: Int32, _ name: String) throws(CError) -> FillRule {
    switch Int(v) {
    case INKHIT_FILL_NONZERO: return .nonZero
    case INKHIT_FILL_EVEN_ODD: return .evenOdd
    default: throw .argument("\(name) \(v) is not a fill rule (INKHIT_FILL_NONZERO or INKHIT_FILL_EVEN_ODD)")
    }
}

// MARK: Text

/// The NUL-terminated UTF-8 string at `p`.
func cString(_ p: UnsafePointer<CChar>, _ name: String) throws(CError) -> String {
    let n = strlenLite(p)
    return try p.withMemoryRebound(to: UInt8.self, capacity: n + 1) { (bytes) throws(CError) -> String in
        try utf8String(UnsafeBufferPointer(start: bytes, count: n), name)
    }
}

private func strlenLite(_ p: UnsafePointer<CChar>) -> Int {
    var n = 0
    while p[n] != 0 { n += 1 }
    return n
}

/// The offset (in code units of `encoding`) of the first invalid sequence in `units` — an invalid UTF-8
/// sequence, an unpaired UTF-16 surrogate — or nil when it is all valid.
func firstInvalid<E: Unicode.Encoding>(_ units: UnsafeBufferPointer<E.CodeUnit>, in encoding: E.Type) -> Int? {
    var parser = E.ForwardParser()
    var it = units.makeIterator()
    var offset = 0
    while true {
        switch parser.parseScalar(from: &it) {
        case .valid(let s): offset += s.count
        case .emptyInput: return nil
        case .error: return offset
        }
    }
}

func utf8String(_ bytes: UnsafeBufferPointer<UInt8>, _ name: String) throws(CError) -> String {
    if let bad = firstInvalid(bytes, in: Unicode.UTF8.self) {
        throw CError(INKHIT_ERROR_INVALID_TEXT, "\(name) is not valid UTF-8 (an invalid sequence at byte \(bad))")
    }
    return String(decoding: bytes, as: UTF8.self)
}

func utf16String(_ units: UnsafeBufferPointer<UInt16>, _ name: String) throws(CError) -> String {
    if let bad = firstInvalid(units, in: Unicode.UTF16.self) {
        throw CError(INKHIT_ERROR_INVALID_TEXT, "\(name) is not valid UTF-16 (an unpaired surrogate at unit \(bad))")
    }
    return String(decoding: units, as: UTF16.self)
}

// MARK: Path commands

/// Verbs, points and conic weights checked against each other: every verb known, exactly the points (and
/// weights) the verbs consume, every point finite, every weight finite and > 0, at most INKHIT_MAX_PATH_VERBS
/// verbs; with `withStarts` (INKHIT_PATH_START_POINTS) each segment's first point is its start, equal to the
/// current point. Conics come only with weights (inkhit_builder_add_path).
struct PathCommands {
    let verbs: UnsafeBufferPointer<UInt8>
    let points: UnsafeBufferPointer<inkhit_point>
    let weights: UnsafeBufferPointer<Double>
    let withStarts: Bool

    init(verbs v: UnsafePointer<UInt8>?, verbCount: Int, points p: UnsafePointer<inkhit_point>?, pointCount: Int,
         weights w: UnsafePointer<Double>? = nil, weightCount: Int = 0, conics: Bool = false, withStarts: Bool = false,
         prefix: String = "") throws(CError) {
        verbs = try buffer(v, verbCount, prefix + "verbs", countName: prefix + "verb_count")
        points = try buffer(p, pointCount, prefix + "points", countName: prefix + "point_count")
        weights = try buffer(w, weightCount, prefix + "weights", countName: prefix + "weight_count")
        self.withStarts = withStarts
        guard verbs.count <= Int(INKHIT_MAX_PATH_VERBS) else {
            throw CError(INKHIT_ERROR_LIMIT, "\(prefix)verb_count \(verbs.count) is more than the limit of \(INKHIT_MAX_PATH_VERBS)")
        }
        let start = withStarts ? 1 : 0
        var needed = 0, conicCount = 0
        for (i, verb) in verbs.enumerated() {
            switch Int(verb) {
            case INKHIT_VERB_MOVE: needed += 1
            case INKHIT_VERB_LINE: needed += 1 + start
            case INKHIT_VERB_QUAD: needed += 2 + start
            case INKHIT_VERB_CUBIC: needed += 3 + start
            case INKHIT_VERB_CLOSE: break
            case INKHIT_VERB_CONIC where conics: needed += 2 + start; conicCount += 1
            case INKHIT_VERB_CONIC:
                throw .argument("\(prefix)verbs[\(i)] is INKHIT_VERB_CONIC, which needs a weight: pass conics to inkhit_builder_add_path")
            default:
                throw .argument("\(prefix)verbs[\(i)] is \(verb), not a verb (INKHIT_VERB_MOVE ... INKHIT_VERB_\(conics ? "CONIC" : "CLOSE"))")
            }
        }
        guard needed == points.count else {
            throw .argument("the \(verbs.count) \(prefix)verbs take \(needed) points, but \(prefix)point_count is \(points.count)")
        }
        guard conicCount == weights.count else {
            throw .argument("the \(conicCount) conics among \(prefix)verbs take \(conicCount) weights, but \(prefix)weight_count is \(weights.count)")
        }
        for (i, q) in points.enumerated() where !(q.x.isFinite && q.y.isFinite) {
            throw .argument("\(prefix)points[\(i)] (\(show(q.x)), \(show(q.y))) must be finite")
        }
        for (i, w) in weights.enumerated() where !(w.isFinite && w > 0) {
            throw .argument("\(prefix)weights[\(i)] is \(show(w)): a conic's weight must be finite and > 0")
        }
        if withStarts { try checkStarts(prefix) }
    }

    /// Each segment's start point against the current point (the last end, the move's point, the contour's
    /// start after CLOSE, (0, 0) before any MOVE), compared exactly.
    private func checkStarts(_ prefix: String) throws(CError) {
        var k = 0
        var current = Point.zero, start = Point.zero
        for (i, verb) in verbs.enumerated() {
            func at(_ j: Int) -> Point { Point(points[j].x, points[j].y) }
            switch Int(verb) {
            case INKHIT_VERB_MOVE: current = at(k); start = current; k += 1
            case INKHIT_VERB_CLOSE: current = start
            default:
                let from = at(k)
                guard from == current else {
                    throw .argument("\(prefix)verbs[\(i)] starts at \(prefix)points[\(k)] (\(show(from.x)), \(show(from.y))), but the "
                                    + "path is at (\(show(current.x)), \(show(current.y))): with INKHIT_PATH_START_POINTS each segment "
                                    + "gives its start point first")
                }
                let n = Int(verb) == INKHIT_VERB_LINE ? 2 : Int(verb) == INKHIT_VERB_CUBIC ? 4 : 3
                current = at(k + n - 1)
                k += n
            }
        }
    }

    /// Drives `sink` with the commands (start points dropped, conics as conics).
    func replay<S: ConicSink>(into sink: inout S) {
        var k = 0, w = 0
        func next() -> Point { let q = points[k]; k += 1; return Point(q.x, q.y) }
        let skip = withStarts ? 1 : 0
        for verb in verbs {
            switch Int(verb) {
            case INKHIT_VERB_MOVE: sink.move(to: next())
            case INKHIT_VERB_LINE: k += skip; sink.addLine(to: next())
            case INKHIT_VERB_QUAD:
                k += skip
                let c = next()
                sink.addQuadCurve(to: next(), control: c)
            case INKHIT_VERB_CONIC:
                k += skip
                let control = next()
                sink.addConic(to: next(), control: control, weight: weights[w])
                w += 1
            case INKHIT_VERB_CUBIC:
                k += skip
                let c1 = next(), c2 = next()
                sink.addCurve(to: next(), control1: c1, control2: c2)
            default: sink.closeSubpath()
            }
        }
    }

    /// The commands as elements (no conics: paths with conics are not made into elements).
    var elements: [PathElement] {
        var out = ConicToQuadSink([PathElement](), tolerance: 1e-3)
        out.base.reserveCapacity(verbs.count)
        replay(into: &out)
        return out.base
    }
}
