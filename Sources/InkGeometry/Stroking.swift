/// How two pieces of a stroked outline meet at a corner (SVG's `stroke-linejoin`, Skia's `SkPaint::Join`).
public enum StrokeJoin: Sendable, Hashable, CustomStringConvertible {
    /// The outer edges extended until they meet, unless the miter would be longer than `limit` times the
    /// stroke width (measured as SVG and Skia do: `1 / sin(φ/2) > limit`, φ the angle between the pieces);
    /// then `bevel`. Skia's default paint joins `.miter(limit: 4)`.
    case miter(limit: Double)
    /// A circular arc around the corner.
    case round
    /// The outer corners joined by a straight line.
    case bevel

    /// Skia's default: a miter with limit 4.
    public static let skiaDefault = StrokeJoin.miter(limit: 4)

    /// `miter 4`, `round`, `bevel`.
    public var description: String {
        switch self {
        case .miter(let limit): return "miter \(DecimalText.short(limit))"
        case .round: return "round"
        case .bevel: return "bevel"
        }
    }
}

/// Why an outline cannot be stroked.
public enum StrokeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The band would need more than `limit` edges (counted before they are made).
    case tooManyEdges(limit: Int)
    /// A width, tolerance or miter limit that is not finite and in range (the sentence says which).
    case invalidArgument(String)

    /// A sentence.
    public var description: String {
        switch self {
        case .tooManyEdges(let limit): return "the stroke would have more than \(limit) edges"
        case .invalidArgument(let s): return s
        }
    }
}

/// The band an outline's stroke covers, as pieces to be filled with the nonzero rule: a rectangle around
/// each edge of the flattened outline and a wedge at each corner, every piece wound the same way, so they
/// unite without cancelling (and unite with a fill wound that way: `Stroking.band`).
///
/// # Guarantees
/// - Every piece is a convex polygon of ≥ 3 vertices with nonzero area, wound as `winding` says.
/// - The union of the pieces is within `tolerance` (Hausdorff, the outline's units) of the exact stroke of
///   the outline (its contours closed) with the stated width and join; 0 when it is exact (an outline of lines
///   with miter or bevel joins).
public struct StrokeBand: Sendable, Hashable {
    /// The vertices of every piece, one after another (`starts` says where each begins).
    public private(set) var points: [Point] = []
    /// Where each piece begins in `points`; a piece ends where the next begins.
    public private(set) var starts: [Int] = []
    /// +1 when every piece winds counter-clockwise in a y-up frame (positive area), −1 clockwise.
    public let winding: Int
    /// The Hausdorff distance between the pieces' union and the exact stroke, in the outline's units.
    public internal(set) var tolerance: Double = 0

    init(winding: Int) { self.winding = winding }

    /// Number of pieces.
    public var count: Int { starts.count }
    /// Number of edges over all pieces.
    public var edgeCount: Int { points.count }

    /// The vertices of piece `i`.
    public func piece(_ i: Int) -> ArraySlice<Point> {
        points[starts[i]..<(i + 1 < starts.count ? starts[i + 1] : points.count)]
    }

    /// Draws every piece into `sink` as a closed contour.
    public func draw<S: OutlineSink>(into sink: inout S) {
        for i in 0..<starts.count {
            let p = piece(i)
            sink.move(to: p[p.startIndex])
            for q in p.dropFirst() { sink.addLine(to: q) }
            sink.closeSubpath()
        }
    }

    /// Appends a piece, wound as `winding` (reversed when it is not); a piece without area is left out.
    mutating func append(_ piece: [Point]) {
        var area = 0.0
        for i in 0..<piece.count { area += piece[i].cross(piece[(i + 1) % piece.count]) }
        guard area != 0, area.isFinite else { return }
        starts.append(points.count)
        if (area > 0) == (winding > 0) { points.append(contentsOf: piece) } else { points.append(contentsOf: piece.reversed()) }
    }
}

/// Stroking an outline's contours centred, as renderers' fake bold does (Skia fills a glyph together with its
/// stroke): the band of every point within `width / 2` of the outline, corners joined as stated.
///
/// The band is made of pieces (see `StrokeBand`): the outline is flattened within half the tolerance, and each
/// edge contributes the rectangle of points within `width / 2` of it; at each vertex the outer side gets a
/// wedge — the stated join (miter, round or bevel, decided from the curves' exact end tangents, as Skia
/// does) where two segments meet, a round wedge between the chords of one curve (a curve's offset is smooth),
/// its arc split until its sagitta is within the other half of the tolerance. Corners turned by less than
/// 1 − cos θ ≤ 1/4096 get no miter or bevel (Skia's "nearly a line"). The pieces are wound alike, with the sign
/// of the fill's area, so their union with the fill under the nonzero rule covers fill ∪ band and never
/// cancels where contours wind the way the fill's area says (every font's outer contours do).
///
/// Contours are closed (a fill's contours are: the last point joins the first, and a join is made there).
///
/// ```swift
/// let square: [PathElement] = [.move(Point(0, 0)), .line(Point(10, 0)), .line(Point(10, 10)), .line(Point(0, 10)), .close]
/// let band = try Stroking.band(of: square, width: 2, join: .miter(limit: 4), tolerance: 0.01)
/// var all = PolygonSink(); square.replay(into: &all); band.draw(into: &all)
/// let ink = all.result
/// print(ink.contains(Point(10.9, 10.9)), ink.contains(Point(11.1, 5)), band.tolerance)   // true false 0.0
/// ```
public enum Stroking {
    /// Most subdivisions of one round join's arc: 2¹² pieces.
    public static let maxArcPieces = 4096

    /// The band of `outline` (in its own units) stroked with `width` (the same units, ≥ 0), joined by
    /// `join`, within `tolerance` (the same units, > 0), wound as `winding` (+1, −1) or, when nil, as the
    /// sign of the flattened outline's signed area (+1 for an outline without area).
    ///
    /// - Throws: `StrokeError.invalidArgument` for a width or tolerance that is not finite (or a negative
    ///   width, a tolerance ≤ 0, a miter limit that is not finite); `.tooManyEdges` when the band would need
    ///   more than `maxEdges` edges (counted from the curves' control points before anything is made).
    public static func band(of outline: some Sequence<PathElement>, width: Double, join: StrokeJoin, tolerance: Double,
                            winding: Int? = nil, maxEdges: Int = 1_000_000) throws(StrokeError) -> StrokeBand {
        guard width.isFinite, width >= 0 else { throw .invalidArgument("the stroke width must be finite and ≥ 0 (got \(DecimalText.short(width)))") }
        guard tolerance.isFinite, tolerance > 0 else { throw .invalidArgument("the tolerance must be finite and > 0 (got \(DecimalText.short(tolerance)))") }
        if case .miter(let limit) = join, !limit.isFinite {
            throw .invalidArgument("the miter limit must be finite (got \(DecimalText.short(limit)))")
        }
        let contours = try StrokeContours(outline, tolerance: tolerance / 2, maxEdges: maxEdges)
        var w = winding ?? (contours.area < 0 ? -1 : 1)
        if w == 0 { w = 1 }
        var builder = BandBuilder(band: StrokeBand(winding: w > 0 ? 1 : -1), radius: width / 2, join: join,
                                  arcTolerance: tolerance / 2, maxEdges: maxEdges)
        if width > 0 {
            for c in contours.contours { try builder.add(c) }
        }
        builder.band.tolerance = builder.band.count == 0 ? 0 : contours.achieved + builder.arcError
        return builder.band
    }
}

/// One segment of a contour after flattening: its chord points (the end included, the start not) and its exact
/// start and end tangents.
struct StrokeSegment {
    var points: [Point]
    var startTangent: Point
    var endTangent: Point
}

/// A closed contour: its start and its segments.
struct StrokeContour {
    var start: Point
    var segments: [StrokeSegment] = []
}

/// An outline read into closed contours of flattened segments (degenerate segments dropped, non-finite ones too).
struct StrokeContours {
    var contours: [StrokeContour] = []
    /// The signed area of the flattened contours (y-up: counter-clockwise > 0).
    var area = 0.0
    /// The largest Hausdorff bound of a flattened curve.
    var achieved = 0.0

    init(_ outline: some Sequence<PathElement>, tolerance: Double, maxEdges: Int) throws(StrokeError) {
        var reader = Reader(tolerance: tolerance, maxEdges: maxEdges)
        for e in outline {
            switch e {
            case .move(let p):
                reader.close()
                guard p.isFinite else { continue }
                reader.at = p
                reader.current = StrokeContour(start: p)
            case .close:
                reader.close()
            case .line(let p):
                guard p.isFinite, p != reader.at else { continue }
                try reader.segment([p], sub: nil, startTangent: p - reader.at, endTangent: p - reader.at)
            case .quad(let c, let p):
                guard p.isFinite, c.isFinite, !(p == reader.at && c == reader.at) else { continue }
                let p0 = reader.at
                let sub = Flattening.segmentCount(quad: p0, c, p, tolerance: tolerance)
                try reader.segment(sub, p, { Flattening.evalQuad(p0, c, p, $0) },
                                   startTangent: firstNonZero(c - p0, p - p0), endTangent: firstNonZero(p - c, p - p0))
            case .cubic(let c1, let c2, let p):
                guard p.isFinite, c1.isFinite, c2.isFinite, !(p == reader.at && c1 == reader.at && c2 == reader.at) else { continue }
                let p0 = reader.at
                let sub = Flattening.segmentCount(cubic: p0, c1, c2, p, tolerance: tolerance)
                try reader.segment(sub, p, { Flattening.evalCubic(p0, c1, c2, p, $0) },
                                   startTangent: firstNonZero(c1 - p0, c2 - p0, p - p0), endTangent: firstNonZero(p - c2, p - c1, p - p0))
            }
        }
        reader.close()
        contours = reader.contours
        achieved = reader.achieved
        for c in contours {
            var prev = c.start
            for s in c.segments { for p in s.points { area += prev.cross(p); prev = p } }
        }
        area /= 2
    }

    /// The outline read so far: the current point, the open contour, the closed ones, the edges counted.
    private struct Reader {
        let tolerance: Double
        let maxEdges: Int
        var contours: [StrokeContour] = []
        var current: StrokeContour? = nil
        var at = Point.zero
        var edges = 0
        var achieved = 0.0

        init(tolerance: Double, maxEdges: Int) { self.tolerance = tolerance; self.maxEdges = maxEdges }

        /// Counts `n` more edges; each makes a rectangle (4) and up to a wedge (≥ 3): refused before any is made.
        mutating func count(_ n: Int) throws(StrokeError) {
            edges += n
            if edges > maxEdges / 7 { throw .tooManyEdges(limit: maxEdges) }
        }

        /// Appends a segment ending in `points` (its chord points), from the current point.
        mutating func segment(_ points: [Point], sub: Flattening.Subdivision?, startTangent: Point, endTangent: Point) throws(StrokeError) {
            if current == nil { current = StrokeContour(start: at) }
            try count(points.count)
            if let sub { achieved = max(achieved, sub.error) }
            current!.segments.append(StrokeSegment(points: points, startTangent: startTangent, endTangent: endTangent))
            at = points[points.count - 1]
        }

        /// Appends a curve cut as `sub` says, its points from `eval` at t in (0, 1], ending exactly at `end`.
        mutating func segment(_ sub: Flattening.Subdivision, _ end: Point, _ eval: (Double) -> Point,
                              startTangent: Point, endTangent: Point) throws(StrokeError) {
            if sub.capped { throw .tooManyEdges(limit: maxEdges) }
            try count(sub.count)
            edges -= sub.count                          // counted once, in segment(_:sub:…) below
            let inv = 1.0 / Double(sub.count)
            var pts: [Point] = []
            pts.reserveCapacity(sub.count)
            for i in 1..<sub.count { pts.append(eval(Double(i) * inv)) }
            pts.append(end)
            try segment(pts, sub: sub, startTangent: startTangent, endTangent: endTangent)
        }

        /// Closes the open contour (with a line back to its start when it ends elsewhere).
        mutating func close() {
            guard let k = current else { return }
            var closed = k
            if at != k.start { closed.segments.append(StrokeSegment(points: [k.start], startTangent: k.start - at, endTangent: k.start - at)) }
            if !closed.segments.isEmpty { contours.append(closed) }
            at = k.start
            current = nil
        }
    }
}

/// The first vector that is not zero (the last one when all are).
private func firstNonZero(_ v: Point...) -> Point {
    for x in v where x != .zero { return x }
    return v[v.count - 1]
}

/// `v` scaled to length 1 (zero stays zero).
private func unit(_ v: Point) -> Point {
    let l = v.length
    return l > 0 ? Point(v.x / l, v.y / l) : .zero
}

/// Makes the pieces of a band, counting their edges.
struct BandBuilder {
    var band: StrokeBand
    let radius: Double
    let join: StrokeJoin
    let arcTolerance: Double
    let maxEdges: Int
    /// The largest sagitta of a round wedge's chords (or of a wedge left out as too small).
    var arcError = 0.0

    init(band: StrokeBand, radius: Double, join: StrokeJoin, arcTolerance: Double, maxEdges: Int) {
        self.band = band; self.radius = radius; self.join = join; self.arcTolerance = arcTolerance; self.maxEdges = maxEdges
    }

    mutating func add(_ c: StrokeContour) throws(StrokeError) {
        let segs = c.segments
        // Where each segment starts (the contour is closed: the last one ends at the first one's start).
        var starts = [c.start]
        for s in segs.dropLast() { starts.append(s.points[s.points.count - 1]) }
        for (i, s) in segs.enumerated() {
            let v = starts[i]
            // The corner where the segment starts: chord in → tangent in, tangent in → tangent out (the stated
            // join), tangent out → chord out.
            let j = (i + segs.count - 1) % segs.count
            let before = segs[j]
            let chordFrom = before.points.count >= 2 ? before.points[before.points.count - 2] : starts[j]
            let chordIn = unit(v - chordFrom), chordOut = unit(s.points[0] - v)
            let tIn = unit(before.endTangent), tOut = unit(s.startTangent)
            try wedge(at: v, chordIn, tIn, round: true)
            try wedge(at: v, tIn, tOut, round: false)
            try wedge(at: v, tOut, chordOut, round: true)
            // The chords of the segment, with round wedges between them (a curve's offset is smooth).
            var a = v
            for (k, b) in s.points.enumerated() {
                try rectangle(a, b)
                if k + 1 < s.points.count { try wedge(at: b, unit(b - a), unit(s.points[k + 1] - b), round: true) }
                a = b
            }
        }
    }

    private mutating func count(_ n: Int) throws(StrokeError) {
        if band.edgeCount + n > maxEdges { throw .tooManyEdges(limit: maxEdges) }
    }

    /// The rectangle of points within `radius` of edge `a b`.
    private mutating func rectangle(_ a: Point, _ b: Point) throws(StrokeError) {
        let d = unit(b - a)
        guard d != .zero else { return }
        try count(4)
        let n = Point(-d.y * radius, d.x * radius)
        band.append([a + n, b + n, b - n, a - n])
    }

    /// The wedge on the outer side of a turn at `v` from direction `da` to `db` (unit vectors): round, or the
    /// stated join.
    private mutating func wedge(at v: Point, _ da: Point, _ db: Point, round: Bool) throws(StrokeError) {
        guard da != .zero, db != .zero else { return }
        let dot = da.dot(db), cross = da.cross(db)
        // 1 − cos θ, precisely also for small turns.
        let vers = dot > 0 ? cross * cross / (1 + dot) : 1 - dot
        guard vers > 0 else { return }
        // The outer side: right of the path for a left turn, left for a right turn (a reversal: either).
        let side: Double = cross > 0 || (cross == 0 && dot < 0) ? -1 : 1
        let na = Point(-da.y * side, da.x * side), nb = Point(-db.y * side, db.x * side)
        let r = radius
        switch round ? StrokeJoin.round : join {
        case .bevel:
            guard vers > 1.0 / 4096 else { return }
            try count(3)
            band.append([v, v + na * r, v + nb * r])
        case .miter(let limit):
            guard vers > 1.0 / 4096 else { return }
            // Skia's test: bevel when sin(φ/2) = √((1 + cos θ) / 2) < 1 / limit.
            let sinHalf = ((1 + dot) / 2).squareRoot()
            if !(limit > 1) || sinHalf < 1 / limit {
                try count(3)
                band.append([v, v + na * r, v + nb * r])
            } else {
                try count(4)
                band.append([v, v + na * r, v + (na + nb) * (r / (1 + dot)), v + nb * r])
            }
        case .round:
            // Halve the arc until each chord's sagitta r·(1 − cos(φ/2)) is within the tolerance.
            var pieces = 1
            var half = halfVers(vers)                 // 1 − cos(θ / 2): the sagitta of one chord over θ, per r
            while r * half > arcTolerance && pieces < Stroking.maxArcPieces {
                pieces *= 2
                half = halfVers(half)
            }
            arcError = max(arcError, r * half)
            try count(pieces + 2)
            // Rotate na toward nb by φ = θ / pieces: cos φ = 1 − vers(φ), sin φ by the turn's sign.
            var stepVers = vers
            var p = pieces
            while p > 1 { stepVers = halfVers(stepVers); p /= 2 }
            let cosStep = 1 - stepVers
            let sinStep = (stepVers * (2 - stepVers)).squareRoot() * (cross > 0 || (cross == 0 && dot < 0) ? 1 : -1)
            var arc: [Point] = [v]
            arc.reserveCapacity(pieces + 2)
            var n = na
            arc.append(v + n * r)
            for _ in 1..<pieces {
                n = Point(n.x * cosStep - n.y * sinStep, n.x * sinStep + n.y * cosStep)
                arc.append(v + n * r)
            }
            arc.append(v + nb * r)
            band.append(arc)
        }
    }
}

/// 1 − cos(θ/2) from v = 1 − cos θ (0 ≤ v ≤ 2), without cancellation.
@inline(__always) private func halfVers(_ v: Double) -> Double {
    let c = (1 - v / 2).squareRoot()         // cos(θ/2) ≥ 0 for θ ≤ π
    return (v / 2) / (1 + c)
}
