import InkGeometry

/// The exclusions of a layout, ready for the one question line breaking asks: which x-intervals of a
/// horizontal band (layout px) do they cover? Rectangles and ellipses are answered exactly; paths are
/// flattened once (within `pathTolerance`) and each contour's part in the band is grown by that bound, so
/// the answer always covers the true shape.
struct ExclusionMap {
    enum Shape {
        case rect(Rect)
        case ellipse(Rect)
        /// Flattened contours (closed), each contour's box, and the flattening bound to grow them by.
        case polygon([[Point]], [Rect], grow: Double)
    }
    private(set) var shapes: [Shape] = []
    private(set) var boxes: [Rect] = []
    /// The shapes sorted by their boxes' top (empty boxes left out), and a max-tree of their bottoms over
    /// that order (`tree[1]` the root, leaves from `leaves`), so a band finds the shapes reaching into it in
    /// O((k + 1) log E) for k shapes found.
    private var order: [Int] = []
    private var tree: [Double] = []
    private var leaves = 1

    /// Flattening tolerance of path exclusions, layout px.
    static let pathTolerance = 0.01
    /// Most flattened points of all path exclusions of a layout together.
    static let maxPathPoints = 1 << 20
    /// Coordinates beyond this magnitude (layout px) are refused.
    /// Margin added around every covered interval and band, layout px, so that touching counts as
    /// overlapping and a line moved below a shape clears it.
    static let margin = 1e-6

    var isEmpty: Bool { shapes.isEmpty }

    /// The map of `exclusions`.
    ///
    /// - Throws: `.invalidExclusion` for a negative or non-finite size, coordinates beyond `ViewSpace.limit`, or paths
    ///   flattening to more than `maxPathPoints` points in all.
    init(_ exclusions: [TextExclusion]) throws(TextError) {
        var points = 0
        for (i, e) in exclusions.enumerated() {
            switch e {
            case .rect(let r), .ellipse(let r):
                guard r.isFinite, r.minX <= r.maxX, r.minY <= r.maxY else {
                    throw .invalidExclusion(index: i, reason: "the box must be finite with width and height ≥ 0")
                }
                guard Self.inRange(r) else { throw .invalidExclusion(index: i, reason: "coordinates beyond \(ViewSpace.limitText) are out of range") }
                if case .rect = e { shapes.append(.rect(r)) } else { shapes.append(.ellipse(r)) }
                boxes.append(r)
            case .path(let elements):
                var sink = FlatteningSink(PolygonSink(), tolerance: Self.pathTolerance)
                var budget = Self.maxPathPoints - points, current = Point.zero, start = Point.zero
                for el in elements {
                    let cost: Int
                    switch el {
                    case .move(let p):
                        guard p.isFinite else { throw Self.nonFinite(i) }
                        sink.move(to: p); current = p; start = p; cost = 1
                    case .line(let p):
                        guard p.isFinite else { throw Self.nonFinite(i) }
                        sink.addLine(to: p); current = p; cost = 1
                    case .quad(let c, let p):
                        guard c.isFinite, p.isFinite else { throw Self.nonFinite(i) }
                        cost = Flattening.segmentCount(quad: current, c, p, tolerance: Self.pathTolerance).count
                        if cost <= budget { sink.addQuadCurve(to: p, control: c) }
                        current = p
                    case .cubic(let c1, let c2, let p):
                        guard c1.isFinite, c2.isFinite, p.isFinite else { throw Self.nonFinite(i) }
                        cost = Flattening.segmentCount(cubic: current, c1, c2, p, tolerance: Self.pathTolerance).count
                        if cost <= budget { sink.addCurve(to: p, control1: c1, control2: c2) }
                        current = p
                    case .close: sink.closeSubpath(); current = start; cost = 0
                    }
                    budget -= cost
                    guard budget >= 0 else {
                        throw .invalidExclusion(index: i, reason: "the paths flatten to more than \(Self.maxPathPoints) points")
                    }
                }
                sink.closeSubpath()
                let contours = sink.base.polygon.contours.filter { !$0.isEmpty }
                points += contours.reduce(0) { $0 + $1.count }
                let box = Polygon(contours: contours).bounds
                guard box.isEmpty || Self.inRange(box) else {
                    throw .invalidExclusion(index: i, reason: "coordinates beyond \(ViewSpace.limitText) are out of range")
                }
                let grow = max(sink.achievedTolerance, 0)
                shapes.append(.polygon(contours, contours.map { Polygon(contours: [$0]).bounds }, grow: grow))
                boxes.append(box.isEmpty ? .empty : box.outsetBy(grow))
            }
        }
        buildSearch()
    }

    /// Sorts the shapes by top and builds the max-tree of their bottoms.
    mutating func buildSearch() {
        order = boxes.indices.filter { !boxes[$0].isEmpty }.sorted { boxes[$0].minY < boxes[$1].minY }
        while leaves < order.count { leaves *= 2 }
        tree = [Double](repeating: -.infinity, count: 2 * leaves)
        for (k, i) in order.enumerated() { tree[leaves + k] = boxes[i].maxY }
        var n = leaves - 1
        while n >= 1 { tree[n] = max(tree[2 * n], tree[2 * n + 1]); n -= 1 }
    }

    /// Calls `body` with every shape whose box reaches into the band `y0 ... y1` (edges included).
    func forEach(inBand y0: Double, _ y1: Double, _ body: (Int) -> Void) {
        // The shapes whose top is at most y1 are a prefix of `order`.
        var lo = 0, hi = order.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if boxes[order[mid]].minY <= y1 { lo = mid + 1 } else { hi = mid }
        }
        let prefix = lo
        guard prefix > 0 else { return }
        // Among them, those whose bottom is at least y0: descend where a subtree's largest bottom reaches y0.
        var stack: [(node: Int, lo: Int, hi: Int)] = [(1, 0, leaves)]
        while let (node, a, b) = stack.popLast() {
            guard a < prefix, tree[node] >= y0 else { continue }
            if b - a == 1 { body(order[a]); continue }
            let m = (a + b) / 2
            stack.append((2 * node + 1, m, b))
            stack.append((2 * node, a, m))
        }
    }

    static func nonFinite(_ i: Int) -> TextError { .invalidExclusion(index: i, reason: "the path has a non-finite coordinate") }
    static func inRange(_ r: Rect) -> Bool {
        max(abs(r.minX), abs(r.maxX), abs(r.minY), abs(r.maxY)) <= ViewSpace.limit
    }

    /// The x-intervals (sorted, merged, grown by `margin`) that the exclusions cover within the band
    /// `y0 ... y1` (edges included), layout px.
    func covered(y0: Double, y1: Double) -> [ClosedRange<Double>] {
        var out: [ClosedRange<Double>] = []
        forEach(inBand: y0, y1) { k in
            switch shapes[k] {
            case .rect(let r):
                out.append((r.minX - Self.margin)...(r.maxX + Self.margin))
            case .ellipse(let r):
                let cy = (r.minY + r.maxY) / 2, ry = (r.maxY - r.minY) / 2, cx = (r.minX + r.maxX) / 2, rx = (r.maxX - r.minX) / 2
                let y = min(max(cy, y0), y1)                       // the band's row nearest the centre: the widest
                let t = ry > 0 ? (y - cy) / ry : 0
                let hw = rx * max(0, 1 - t * t).squareRoot()
                out.append((cx - hw - Self.margin)...(cx + hw + Self.margin))
            case .polygon(let contours, let cboxes, let grow):
                for (c, ring) in contours.enumerated() where cboxes[c].minY <= y1 + grow && cboxes[c].maxY >= y0 - grow {
                    if let span = Self.span(of: ring, y0: y0 - grow, y1: y1 + grow) {
                        out.append((span.lowerBound - grow - Self.margin)...(span.upperBound + grow + Self.margin))
                    }
                }
            }
        }
        return Self.merged(out)
    }

    /// The least bottom edge (layout px) of the exclusions whose boxes reach into the band `y0 ... y1`:
    /// where a line that found no room in the band can try next.
    func lowestClearing(y0: Double, y1: Double) -> Double? {
        var best: Double? = nil
        forEach(inBand: y0, y1) { k in best = min(best ?? boxes[k].maxY, boxes[k].maxY) }
        return best
    }

    /// The x-extent of the part of a closed ring within the band `y0 ... y1`: the x-range of its edges
    /// clipped to the band (a bounded region meeting a band has edges in it).
    static func span(of ring: [Point], y0: Double, y1: Double) -> ClosedRange<Double>? {
        var lo = Double.infinity, hi = -Double.infinity
        for j in ring.indices {
            let p = ring[j], q = ring[j + 1 == ring.count ? 0 : j + 1]
            let ymin = min(p.y, q.y), ymax = max(p.y, q.y)
            guard ymax >= y0, ymin <= y1 else { continue }
            if ymax == ymin {
                lo = min(lo, p.x, q.x); hi = max(hi, p.x, q.x); continue
            }
            let ta = max(0, min(1, (y0 - p.y) / (q.y - p.y))), tb = max(0, min(1, (y1 - p.y) / (q.y - p.y)))
            let xa = p.x + (q.x - p.x) * ta, xb = p.x + (q.x - p.x) * tb
            lo = min(lo, xa, xb); hi = max(hi, xa, xb)
        }
        return lo <= hi ? lo...hi : nil
    }

    /// Sorted, overlapping intervals merged.
    static func merged(_ xs: [ClosedRange<Double>]) -> [ClosedRange<Double>] {
        var out: [ClosedRange<Double>] = []
        for r in xs.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, r.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return out
    }
}
