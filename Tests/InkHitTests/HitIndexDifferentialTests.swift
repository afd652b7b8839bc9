import Testing
import InkGeometry
import InkTestSupport
@testable import InkHit

/// Index answers must equal brute-force winding and distance over all stored edges (`BruteForce` in
/// InkTestSupport computes in Double from the stored edges and the placements' Double transforms, and
/// applies the same hit rule, ties included).
struct HitIndexDifferentialTests {
    /// Random blobs placed under transforms of `kind`; the index reads the shapes in `forms` (a new scene's
    /// shapes have only their lean form: `.whenReused` reads that, `.full` builds and reads the full form).
    static func makeScene(seed: UInt64, kind: Int, count: Int, offset: Point = .zero,
                          fillRule: FillRule = .nonZero, forms: ShapeForms = .whenReused) throws -> ([(GlyphShape, AffineTransform)], HitIndex) {
        var rng = SplitMix64(seed: seed)
        var shapes: [GlyphShape] = []
        for _ in 0..<5 { shapes.append(try GlyphShape(polygon: TestShapes.randomBlob(&rng, size: 2000), fillRule: fillRule)) }
        var items: [(GlyphShape, AffineTransform)] = []
        var b = HitIndex.Builder()
        b.shapeForms = forms
        for _ in 0..<count {
            let s = shapes[rng.int(shapes.count)]
            let t = TestShapes.randomTransform(&rng, kind: kind).concatenating(.translation(offset.x, offset.y))
            try b.add(s, transform: t)
            items.append((s, t))
        }
        return (items, b.build())
    }

    /// How the answers of a sweep were distributed: a sweep that never hits ink, or never needs the radius,
    /// tests less than it claims.
    struct Coverage {
        var inside = 0, withinRadius = 0, misses = 0
        mutating func count(_ h: Hit?) {
            guard let h else { misses += 1; return }
            if h.isInside { inside += 1 } else { withinRadius += 1 }
        }
    }

    /// Both forms of the shapes (lean and full) against the oracle.
    static let forms: [ShapeForms] = [.lean, .full]

    @Test(arguments: [0, 1, 2, 3], [0.0, 1.5, 7.0])
    func randomPointsMatchBruteForce(kind: Int, radius: Double) throws {
        for forms in Self.forms { try randomPointsMatchBruteForce(kind: kind, radius: radius, forms: forms) }
    }

    func randomPointsMatchBruteForce(kind: Int, radius: Double, forms: ShapeForms) throws {
        let (items, index) = try Self.makeScene(seed: UInt64(kind * 100 + Int(radius * 10)), kind: kind, count: 40,
                                                forms: forms)
        let oracle = BruteForce(items)
        var rng = SplitMix64(seed: 7 &+ UInt64(kind))
        var coverage = Coverage()
        for _ in 0..<3000 {
            let p = Point(rng.range(-20, 260), rng.range(-20, 260))
            let want = oracle.hit(p, radius: radius)
            let got = index.hit(at: p, radius: radius)
            coverage.count(want)
            #expect(got?.placement == want?.placement, "p=\(p) r=\(radius) got \(String(describing: got)) want \(String(describing: want))")
            if let g = got, let w = want {
                // Placements store a Float32 inverse: distances agree to ~1e-7 of the glyph size in view px.
                #expect(isClose(g.distance, w.distance, within: 2e-5), "distance at \(p)")
                #expect(g.isInside == w.isInside)
            }
            #expect(index.contains(p) == (want?.isInside ?? false))
        }
        // The sweep reaches every kind of answer (random blobs cover a fair share of the window).
        #expect(coverage.inside > 300 && coverage.misses > 300, "\(coverage)")
        #expect(radius == 0 ? coverage.withinRadius == 0 : coverage.withinRadius > 100, "\(coverage)")
    }

    @Test(arguments: [0, 1, 2, 3], forms)
    func pointsNearEdgesMatchBruteForce(kind: Int, forms: ShapeForms) throws {
        let (items, index) = try Self.makeScene(seed: 99 &+ UInt64(kind), kind: kind, count: 12, forms: forms)
        let oracle = BruteForce(items)
        var rng = SplitMix64(seed: 1234 &+ UInt64(kind))
        var pairs = 0, straddling = 0
        for k in 0..<oracle.count {
            for e in oracle.edges(of: k).prefix(40) {
                let (a, b) = (e.start, e.end)
                let m = a.lerp(b, rng.unit())
                let n = Point(-(b.y - a.y), b.x - a.x) * (1 / (b - a).length)
                for off in [1e-3, 3e-3] {
                    let sides = [m + n * off, m - n * off]
                    for p in sides {
                        // Points within 1e-3 px of an edge: index and oracle use the same edges, so they agree
                        // unless another edge is closer than rounding can resolve (not the case at 1e-3 px).
                        let want = oracle.hit(p, radius: 0)
                        let got = index.hit(at: p, radius: 0)
                        #expect(got?.placement == want?.placement, "near edge p=\(p)")
                    }
                    pairs += 1
                    if oracle.winding(k, sides[0]) != oracle.winding(k, sides[1]) { straddling += 1 }
                }
            }
        }
        // The probes test the edges only if they straddle them: the brute-force winding of the edge's own
        // placement must differ on the two sides of (almost) every pair; a pair can fail only where another
        // edge of the same shape passes within 3e-3 px of the probe.
        #expect(straddling >= pairs * 95 / 100 && pairs > 0, "\(straddling) of \(pairs) probe pairs straddle their edge")
    }

    @Test(arguments: forms)
    func hitsListIsCompleteAndSorted(forms: ShapeForms) throws {
        let (items, index) = try Self.makeScene(seed: 5, kind: 1, count: 30, forms: forms)
        let oracle = BruteForce(items)
        var rng = SplitMix64(seed: 77)
        var nonEmpty = 0
        for _ in 0..<500 {
            let p = Point(rng.range(0, 240), rng.range(0, 240))
            let r = 6.0
            let got = index.allHits(at: p, radius: r)
            var want: [Int] = []
            for k in items.indices where oracle.inside(k, p) || oracle.distance(k, p) <= r { want.append(k) }
            #expect(Set(got.map(\.placement)) == Set(want))
            for (x, y) in zip(got, got.dropFirst()) { #expect(x.distance <= y.distance) }
            if got.count >= 2 { nonEmpty += 1 }
        }
        #expect(nonEmpty > 50, "the sweep must see overlapping candidates")
    }

    /// Pages far from the origin: the index stores each placement relative to its page cell, so answers keep
    /// their precision wherever the page is (up to the ±1e9 px view range). Points at least 1e-4 px from
    /// every decision are compared with the Double brute force.
    @Test(arguments: [1e5, 1e6, 1e7, 1e8])
    func translatedPagesMatchDoubleBruteForce(offset: Double) throws {
        for kind in 0..<4 {
            let forms = Self.forms[kind % 2]
            let (items, index) = try Self.makeScene(seed: 31 &+ UInt64(kind), kind: kind, count: 30,
                                                    offset: Point(offset, -offset / 3), forms: forms)
            let oracle = BruteForce(items)
            var rng = SplitMix64(seed: 3 &+ UInt64(kind))
            var compared = 0
            for _ in 0..<1500 {
                let p = Point(offset + rng.range(-20, 260), -offset / 3 + rng.range(-20, 260))
                for r in [0, 3.5] {
                    var ds = (0..<oracle.count).map { oracle.distance($0, p) }.sorted()
                    ds = Array(ds.prefix(2))
                    if ds[0] < 1e-4 || isClose(ds[0], r, within: 1e-4) || (ds.count > 1 && ds[1] - ds[0] < 1e-4) { continue }
                    let want = oracle.hit(p, radius: r), got = index.hit(at: p, radius: r)
                    #expect(got?.placement == want?.placement, "offset \(offset) p=\(p) r=\(r)")
                    if let g = got, let w = want { #expect(isClose(g.distance, w.distance, within: 2e-5 + 1e-6 * abs(w.distance))) }
                    compared += 1
                }
            }
            #expect(compared > 2500, "offset \(offset) kind \(kind): \(compared) points compared")
        }
    }

    /// Even-odd shapes: random blobs (self-intersecting, overlapping contours) and squares with a
    /// same-direction hole, where the two fill rules disagree on a good share of the points.
    @Test(arguments: [0, 1, 2, 3])
    func evenOddShapesMatchBruteForce(kind: Int) throws {
        var rng = SplitMix64(seed: 500 &+ UInt64(kind))
        var items: [(GlyphShape, AffineTransform)] = [], nzItems: [(GlyphShape, AffineTransform)] = []
        var b = HitIndex.Builder()
        for k in 0..<30 {
            let poly = k % 2 == 0 ? TestShapes.squareWithHole(outer: 2000, hole: 900, holeReversed: false)
                                  : TestShapes.randomBlob(&rng, size: 2000)
            let t = TestShapes.randomTransform(&rng, kind: kind)
            let shape = try GlyphShape(polygon: poly, fillRule: .evenOdd)
            try b.add(shape, transform: t)
            items.append((shape, t))
            nzItems.append((try GlyphShape(polygon: poly), t))
        }
        let index = b.build()
        let oracle = BruteForce(items), nonZero = BruteForce(nzItems)
        rng = SplitMix64(seed: 8 &+ UInt64(kind))
        var rulesDiffer = 0
        for _ in 0..<2000 {
            let p = Point(rng.range(-20, 260), rng.range(-20, 260))
            if oracle.margin(p) < 1e-4 { continue }
            let want = oracle.hit(p, radius: 0)
            #expect(index.hit(at: p)?.placement == want?.placement, "p=\(p)")
            #expect(index.contains(p) == (want != nil))
            if (want != nil) != (nonZero.hit(p, radius: 0) != nil) { rulesDiffer += 1 }
        }
        #expect(rulesDiffer > 20, "the scene must have points where the fill rules disagree (\(rulesDiffer))")
    }
}

/// Points at exactly the radius, and at exactly equal distances from two placements.
struct RadiusBoundaryAndTieTests {
    static let square = [Point(0, 0), Point(10, 0), Point(10, 10), Point(0, 10)]

    /// Vertex distances are exact in Float32 and Double alike (3-4-5 triangles from a corner), so the rule
    /// `distance ≤ radius` decides at exactly the radius.
    @Test(arguments: [Point(0, 0), Point(1000.5, -250), Point(123456, 98765)])
    func distanceEqualToTheRadiusIsAHit(offset: Point) throws {
        var b = HitIndex.Builder()
        try b.add(try GlyphShape(polygon: Polygon(contours: [Self.square])), transform: .translation(offset.x, offset.y))
        let index = b.build()
        let oracle = BruteForce([(try GlyphShape(polygon: Polygon(contours: [Self.square])), .translation(offset.x, offset.y))])
        for (dx, dy, d) in [(13.0, 14.0, 5.0), (-3.0, -4.0, 5.0), (16.0, 18.0, 10.0), (-5.0, 22.0, 13.0)] {
            let p = Point(offset.x + dx, offset.y + dy)
            #expect(oracle.distance(0, p) == d, "the oracle measures exactly")
            let h = try #require(index.hit(at: p, radius: d), "at exactly r = \(d)")
            #expect(h.distance == d && !h.isInside)
            #expect(oracle.hit(p, radius: d)?.placement == 0)
            #expect(index.hit(at: p, radius: d.nextDown) == nil, "just below the distance")
            #expect(oracle.hit(p, radius: d.nextDown) == nil)
            #expect(index.allHits(at: p, radius: d).map(\.placement) == [0])
            #expect(index.allHits(at: p, radius: d.nextDown).isEmpty)
        }
    }

    /// Two shapes mirrored across a line through the point are exactly equally far from it; the query path's
    /// Float32 rounding makes the two computed distances differ in the last digits. By the rule, they tie and
    /// the topmost wins, in either order, at any scale, rotation and position.
    @Test(arguments: [0.0, 1e5])
    func mirroredTwinsTieAndTheTopmostWins(offset: Double) throws {
        var rng = SplitMix64(seed: 2026)
        let blob = try GlyphShape(polygon: TestShapes.randomBlob(&rng, size: 100))
        var distinctDistances = 0
        for _ in 0..<200 {
            let s = rng.range(0.05, 3)
            let t = AffineTransform.scale(s, s).concatenating(.rotation(rng.range(0, 6.3)))
                .concatenating(.translation(offset + rng.range(-50, 50), rng.range(-50, 50)))
            // The point sits on the mirror line x = offset + 200 (outside the blob), the twin is reflected across it.
            let p = Point(offset + 200, rng.range(-40, 40))
            let mirror = AffineTransform(a: -1, b: 0, c: 0, d: 1, tx: 2 * p.x, ty: 0)
            let twin = t.concatenating(mirror)
            let r = 1e6
            for (first, second) in [(t, twin), (twin, t)] {
                var b = HitIndex.Builder()
                try b.add(blob, transform: first)
                try b.add(blob, transform: second)
                let index = b.build()
                let h = try #require(index.hit(at: p, radius: r))
                #expect(h.placement == 1, "the topmost of two equally distant placements wins (s \(s), p \(p))")
                #expect(BruteForce([(blob, first), (blob, second)]).hit(p, radius: r)?.placement == 1)
                let all = index.allHits(at: p, radius: r)
                if all.count == 2 && all[0].distance != all[1].distance { distinctDistances += 1 }
            }
        }
        // The test is only worth something if rounding does split the twins' distances.
        #expect(distinctDistances > 20, "\(distinctDistances) of 400 ties had unequal computed distances")
    }

    /// A difference far beyond rounding is no tie: the nearer placement wins even when it is below.
    @Test func nearerWinsWhenNotATie() throws {
        let sq = try GlyphShape(polygon: Polygon(contours: [Self.square]))
        var b = HitIndex.Builder()
        try b.add(sq, transform: .translation(0, 0))           // right edge at x = 10
        try b.add(sq, transform: .translation(20.001, 0))      // left edge at x = 20.001
        let index = b.build()
        let h = try #require(index.hit(at: Point(15, 5), radius: 6))
        #expect(h.placement == 0 && isClose(h.distance, 5, within: 1e-9))
    }
}
