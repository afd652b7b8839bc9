import Testing
import InkGeometry
import InkTestSupport

/// Pixel staircases bounded by their runs, and segment counts before flattening. Oracles: the
/// pixels themselves (a pixel centre winds once around the staircase exactly when the pixel is inside, and
/// zero times otherwise; winding counted here by crossings, not by `Polygon.winding`), and a recording sink
/// behind a real `FlatteningSink` (what it emits is what the counter must predict).
@Suite struct BoundedBuildTests {
    /// Winding number of `p` around `contours` by upward/downward crossings of a ray to the right.
    static func winding(_ p: Point, _ contours: [[Point]]) -> Int {
        var w = 0
        for c in contours {
            for i in c.indices {
                let a = c[i], b = c[(i + 1) % c.count]
                if a.y <= p.y && b.y > p.y && (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y) > 0 { w += 1 }
                if a.y > p.y && b.y <= p.y && (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y) < 0 { w -= 1 }
            }
        }
        return w
    }

    /// Random pixel sets of many shapes and densities: every pixel centre winds ±1 exactly when it is inside,
    /// and the staircase has at most 4 edges per run.
    @Test(arguments: [(1, 37, 0.5), (37, 1, 0.5), (13, 11, 0.1), (13, 11, 0.5), (13, 11, 0.9), (40, 30, 0.5), (64, 3, 0.97)])
    func theStaircaseWindsOnceAroundExactlyTheInsidePixels(_ w: Int, _ h: Int, _ density: Double) throws {
        var rng = SplitMix64(seed: UInt64(w * 1000 + h) &+ UInt64(density * 100))
        for _ in 0..<8 {
            let inside = (0..<(w * h)).map { _ in rng.unit() < density }
            let polygon = try Polygon.pixelOutline(width: w, height: h, maxEdges: .max) { inside[$1 * w + $0] }
            let runs = Polygon.pixelRunCount(width: w, height: h) { inside[$1 * w + $0] } ?? -1
            let edges = polygon.contours.reduce(0) { $0 + $1.count }
            #expect(edges <= 4 * runs, "\(edges) edges for \(runs) runs")
            for y in 0..<h {
                for x in 0..<w {
                    let wn = Self.winding(Point(Double(x) + 0.5, Double(y) + 0.5), polygon.contours)
                    #expect(abs(wn) == (inside[y * w + x] ? 1 : 0), "pixel (\(x), \(y)) winds \(wn)")
                }
            }
            // Every vertex is a pixel corner and every edge is axis-parallel.
            for c in polygon.contours {
                for i in c.indices {
                    let a = c[i], b = c[(i + 1) % c.count]
                    #expect(a.x == a.x.rounded() && a.y == a.y.rounded() && (a.x == b.x || a.y == b.y))
                }
            }
        }
    }

    /// Bounded before built: beyond `maxEdges` possible edges, one pass over the pixels and no more; a long
    /// opaque row is four edges (memory by runs, not pixels); `shouldStop` stops it.
    @Test func refusedAfterOnePassAndRowsCostRuns() throws {
        var asked = 0
        let n = 512
        do {
            _ = try Polygon.pixelOutline(width: n, height: n, maxEdges: 100_000) { x, y in asked += 1; return (x + y) % 2 == 0 }
            Issue.record("a 512 × 512 checkerboard has 131,072 runs: more than 100,000 edges may be needed")
        } catch {
            guard case .tooManyEdges(let runs, 100_000) = error else { Issue.record("\(error)"); return }
            #expect(runs > 25_000 && runs <= 25_000 + n, "counting stops at the row that passes the bound (\(runs))")
        }
        #expect(asked <= 100 * n, "refused after counting the rows that pass the bound, once each (\(asked) reads)")
        let row = try Polygon.pixelOutline(width: 4_000_000, height: 1, maxEdges: 16) { _, _ in true }
        #expect(row.contours.count == 1 && row.contours[0].count == 4)
        #expect(row.bounds == Rect(minX: 0, minY: 0, maxX: 4_000_000, maxY: 1))
        var checks = 0
        #expect(throws: PixelOutlineError.stopped) {
            try Polygon.pixelOutline(width: 1000, height: 1000, maxEdges: .max, shouldStop: { checks += 1; return checks > 3 }) { _, _ in true }
        }
        #expect(try Polygon.pixelOutline(width: 0, height: 5, maxEdges: 0) { _, _ in true }.contours.isEmpty)
        #expect(try Polygon.pixelOutline(width: 5, height: 5, maxEdges: 0) { _, _ in false }.contours.isEmpty)
    }

    /// Records how many lines a flattening emitted.
    struct LineCounter: OutlineSink {
        var lines = 0
        mutating func move(to p: Point) {}
        mutating func addLine(to p: Point) { lines += 1 }
        mutating func addQuadCurve(to p: Point, control c: Point) {}
        mutating func addCurve(to p: Point, control1 c1: Point, control2 c2: Point) {}
        mutating func closeSubpath() {}
    }

    /// The counter predicts exactly what `FlatteningSink` emits, capped curves included, and never flattens.
    @Test func segmentCountsEqualWhatFlatteningEmits() {
        var rng = SplitMix64(seed: 20)
        for round in 0..<200 {
            let scale = [1.0, 1e3, 1e6, 1e9][round % 4]
            let tolerance = [0.01, 0.25, 1e-4][round % 3]
            var elements: [PathElement] = [.move(Point(0, 0))]
            for _ in 0..<(1 + round % 7) {
                func pt() -> Point { Point(rng.unit() * scale, rng.unit() * scale) }
                switch rng.next() % 3 {
                case 0: elements.append(.line(pt()))
                case 1: elements.append(.quad(control: pt(), to: pt()))
                default: elements.append(.cubic(control1: pt(), control2: pt(), to: pt()))
                }
            }
            elements.append(.close)
            var counter = SegmentCountingSink(tolerance: tolerance)
            elements.replay(into: &counter)
            var flattening = FlatteningSink(LineCounter(), tolerance: tolerance)
            elements.replay(into: &flattening)
            #expect(counter.segments == flattening.base.lines, "round \(round)")
            #expect(counter.cappedCurves == flattening.cappedCurves, "round \(round)")
            #expect(counter.contours == 1 && counter.nonFinitePoints == 0)
        }
        var bad = SegmentCountingSink(tolerance: 0.1)
        bad.move(to: Point(0, .nan))
        bad.addQuadCurve(to: Point(1, 1), control: Point(.infinity, 0))
        #expect(bad.nonFinitePoints == 2 && bad.cappedCurves == 1)
    }
}
