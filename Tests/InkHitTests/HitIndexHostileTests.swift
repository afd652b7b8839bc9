import InkGeometry
import InkTestSupport
@testable import InkHit
import Testing

/// Hostile input at the `GlyphShape` / `HitIndex` level that the analytic and bad-input suites do not
/// already cover: enormous radii on big indexes (fast, never a hang), many self-intersections, outlines
/// with non-finite points through the sink API, and the resource bounds of shapes and pages.
struct HitIndexHostileTests {
    /// `count` unit-ish blobs scattered over a `side` × `side` page.
    static func scatteredIndex(count: Int, side: Double, seed: UInt64 = 5) throws -> ([(GlyphShape, AffineTransform)], HitIndex) {
        var rng = SplitMix64(seed: seed)
        let shapes = try (0..<8).map { _ in try GlyphShape(polygon: TestShapes.randomBlob(&rng, size: 1000)) }
        var items: [(GlyphShape, AffineTransform)] = []
        var b = HitIndex.Builder()
        for _ in 0..<count {
            let t = AffineTransform.scale(0.01, -0.01).concatenating(.translation(rng.range(0, side), rng.range(0, side)))
            let s = shapes[rng.int(shapes.count)]
            try b.add(s, transform: t)
            items.append((s, t))
        }
        return (items, b.build())
    }

    /// r = 1e300, the largest finite radius and +∞ all mean "the nearest glyph anywhere": the same answer
    /// as brute force, even on 20,000 placements from far outside the page (a hang fails the time limit).
    @Test(.timeLimit(.minutes(10)), arguments: [1e300, Double.greatestFiniteMagnitude, Double.infinity])
    func enormousRadiusAnswersTheNearestGlyph(radius: Double) throws {
        let (items, index) = try Self.scatteredIndex(count: 20_000, side: 3000)
        let probes = [Point(-5000, 1500), Point(1500, 1e6), Point(1e9, -1e9), Point(1500.5, 1499.5), Point(-1e11, 7)]
        var answers: [Hit?] = []
        for p in probes { answers.append(index.hit(at: p, radius: radius)) }
        for (p, h) in zip(probes, answers) {
            let hit = try #require(h, "\(p): a glyph is always within r = \(radius)")
            // Brute force over every placement's stored edges, in view space.
            var best = Double.infinity
            for (s, t) in items {
                for e in s.storedEdges { best = min(best, e.applying(t).distance(to: p)) }
            }
            #expect(isClose(abs(hit.distance), best, within: 1e-6 * max(1, best)), "\(p): \(hit.distance) vs brute \(best)")
        }
    }

    /// Found while writing the test above (fixed): r = +∞ searched only a ±1e12 px window, so a point 1e15 px
    /// away missed at r = ∞ but hit at r = 1e300. Also checked: a finite
    /// point beyond ~1e154 px misses at any r (its squared distance overflows), though the hit rule promises
    /// "+∞ means nearest glyph anywhere".
    @Test func infiniteRadiusReachesPointsFarFromThePage() throws {
        var b = HitIndex.Builder()
        try b.add(try GlyphShape(polygon: Polygon(contours: [[Point(0, 0), Point(10, 0), Point(10, 10), Point(0, 10)]])),
                  transform: .identity)
        let index = b.build()
        let far = Point(-1e15, 5)
        #expect(index.hit(at: far, radius: 1e300)?.placement == 0)
        #expect(index.hit(at: far, radius: .infinity)?.placement == 0)
        #expect(index.hit(at: Point(-1e300, 5), radius: .infinity)?.placement == 0)
    }

    /// A contour that winds around the same point 50 times (a spiral of loops) and a 2,000-point star with
    /// edges crossing each other everywhere: answers equal brute-force winding away from edges.
    @Test func manySelfIntersections() throws {
        var loops: [Point] = []
        for k in 0..<(50 * 16) {
            let a = Double(k) * 2 * Double.pi / 16
            loops.append(Point(100 + Double(k % 16), 0).applying(.rotation(a)))
        }
        var star: [Point] = []
        for k in 0..<2000 {
            star.append(Point(500, 0).applying(.rotation(Double(k) * 2 * Double.pi * 997 / 2000)))
        }
        var rng = SplitMix64(seed: 11)
        for poly in [Polygon(contours: [loops]), Polygon(contours: [star])] {
            let shape = try GlyphShape(polygon: poly)
            let edges = shape.storedEdges
            for _ in 0..<300 {
                let p = Point(rng.range(-550, 550), rng.range(-550, 550))
                var d = Double.infinity
                for e in edges { d = min(d, e.distance(to: p)) }
                guard d > 1e-6 else { continue }
                #expect(shape.winding(at: p) == Winding.number(p, edges: edges), "\(p)")
                #expect(isClose(shape.distance(to: p), d, within: 1e-4))
            }
        }
        // 50 loops around the centre: winding ±50.
        #expect(abs(try GlyphShape(polygon: Polygon(contours: [loops])).winding(at: .zero)) == 50)
    }

    /// NaN and ∞ anywhere in a sink stream — move, line, quad and cubic points and controls — is a typed
    /// error, never a shape with a poisoned grid; an open contour is closed; a stream of only moves is empty.
    @Test func nonFiniteAndMalformedSinkStreams() throws {
        let bad: [Double] = [.nan, .infinity, -.infinity]
        for v in bad {
            for k in 0..<6 {
                var e: [PathElement] = [.move(Point(0, 0)), .line(Point(10, 0)), .quad(control: Point(10, 10), to: Point(0, 10)),
                                        .cubic(control1: Point(-5, 8), control2: Point(-5, 2), to: Point(0, 0)), .close]
                switch k {
                case 0: e[0] = .move(Point(v, 0))
                case 1: e[1] = .line(Point(10, v))
                case 2: e[2] = .quad(control: Point(v, 10), to: Point(0, 10))
                case 3: e[2] = .quad(control: Point(10, 10), to: Point(0, v))
                case 4: e[3] = .cubic(control1: Point(-5, v), control2: Point(-5, 2), to: Point(0, 0))
                default: e[3] = .cubic(control1: Point(-5, 8), control2: Point(-5, 2), to: Point(v, 0))
                }
                #expect(throws: ShapeError.nonFiniteCoordinate, "\(v) at \(k)") { try GlyphShape(elements: e, tolerance: 0.1) }
            }
        }
        let open = try GlyphShape(elements: [.move(.zero), .line(Point(10, 0)), .line(Point(10, 10))], tolerance: 0.1)
        #expect(open.contains(Point(8, 2)) && !open.contains(Point(2, 8)), "closed back to the start")
        let movesOnly = try GlyphShape(elements: [.move(.zero), .move(Point(5, 5)), .close, .close], tolerance: 0.1)
        #expect(movesOnly.edgeCount == 0 && !movesOnly.contains(.zero))
        let noMove = try GlyphShape(elements: [.line(Point(10, 0)), .line(Point(10, 10)), .close], tolerance: 0.1)
        #expect(noMove.contains(Point(8, 2)), "a segment before any move starts at the origin")
    }

    /// A denormal or huge tolerance is a shape error or a coarse-but-honest shape, never a hang: a tolerance
    /// far below the curve's size caps the curve (`toleranceNotMet`) instead of cutting it into millions;
    /// a huge one leaves each curve a single chord whose recorded error is the true bound (0.25·|P0−2C+P1|).
    @Test(.timeLimit(.minutes(10)), arguments: [Double.leastNonzeroMagnitude, 1e-300, 1e-12, 1e300, Double.greatestFiniteMagnitude])
    func extremeFlatteningTolerances(tolerance: Double) throws {
        let circle: [PathElement] = [.move(Point(100, 0)), .quad(control: Point(100, 100), to: Point(0, 100)),
                                     .quad(control: Point(-100, 100), to: Point(-100, 0)), .close]
        if tolerance < 1 {
            #expect(throws: ShapeError.toleranceNotMet(curves: 2)) { try GlyphShape(elements: circle, tolerance: tolerance) }
        } else {
            let s = try GlyphShape(elements: circle, tolerance: tolerance)
            // Two chords and the closing line; each quadratic's chord is 0.25·|(100,0) − 2(100,100) + (0,100)| away.
            #expect(s.edgeCount == 3)
            #expect(isClose(s.tolerance, 0.25 * 100 * 2.0.squareRoot(), within: 1e-9))
        }
    }

    /// A shape's grid costs more per edge the longer its edges are (each edge is listed in every cell it
    /// crosses): before `ShapeLimits.maxBytes`, a 65,535-point TrueType-sized zigzag took 659 MB and a
    /// 1,000,000-edge circle 2.3 GB. Storage now stays within `maxBytes`, or the build is a typed error.
    @Test(arguments: [1 << 20, 8 << 20, ShapeLimits.default.maxBytes])
    func denseShapeStaysWithinTheByteLimit(maxBytes: Int) throws {
        var zigzag: [Point] = []
        for i in 0..<2000 { zigzag.append(Point(Double(i % 2) * 1000, Double(i) * 1000 / 2000)) }
        do {
            let shape = try GlyphShape(polygon: Polygon(contours: [zigzag]), limits: ShapeLimits(maxBytes: maxBytes))
            #expect(shape.byteCount <= maxBytes, "\(shape.byteCount) bytes")
            #expect(shape.winding(at: Point(500, 0.1)) == Winding.number(Point(500, 0.1), edges: shape.storedEdges))
        } catch {
            guard case .tooLarge(let limit) = error else { Issue.record("unexpected \(error)"); return }
            #expect(limit == maxBytes)
        }
    }

    /// The budget: ≤ 64 bytes per placement beyond the shapes. Before the page grid bounded its entries, a
    /// few placements spanning the whole page among many small ones were listed in every page cell, so
    /// memory grew as n^1.5 (measured: 20,000 + 60 big → ~600 B per placement; 1,000,000 + 1,000 big →
    /// 8 GB and 47 s to build).
    @Test(.timeLimit(.minutes(10)), arguments: [0, 60, 600])
    func pageGridMemoryPerPlacement(big: Int) throws {
        let sq = try GlyphShape(polygon: Polygon(contours: [[Point(0, 0), Point(1, 0), Point(1, 1), Point(0, 1)]]))
        var rng = SplitMix64(seed: 3)
        var b = try HitIndex.Builder(tolerance: 1)
        for _ in 0..<big { try b.add(sq, transform: .scale(1e6, 1e6)) }
        for _ in 0..<20_000 { try b.add(sq, transform: .translation(rng.range(0, 1e6), rng.range(0, 1e6))) }
        let index = b.build()
        #expect(index.bytesBeyondShapes <= 64 * index.count + 4 << 20, "\(index.bytesBeyondShapes / index.count) B per placement")
        // Still right: inside a big square everything is ink; a small one far from others is found by r.
        #expect(big == 0 || index.contains(Point(5e5, 5e5)))
    }

    /// `validate(transform:)` is `add`'s own transform check: for transforms on either side of each bound (NaN
    /// and ∞ entries, singular and nearly singular, scales at 1e±30, the view limit), it throws exactly what
    /// `add` of a tiny shape throws, and nothing where `add` accepts (the shape stays within `ViewSpace.limit`).
    @Test func validateTransformIsTheCheckOfAdd() throws {
        let dot = try GlyphShape(polygon: Polygon(contours: [[Point(0, 0), Point(1e-3, 0), Point(0, 1e-3)]]))
        let transforms: [AffineTransform] = [
            .identity, .scale(2, 3), .rotation(0.3), AffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0),
            AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: .infinity, ty: 0), AffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 0, ty: 0),
            .scale(1, 1e-11), .scale(1, 1e-13), .scale(1e-29, 1e-29), .scale(1e-31, 1e-31), .scale(1e11, 1e11),
            .scale(1e31, 1e31), .translation(ViewSpace.limit * 0.99, 0), .scale(0, 0),
        ]
        var refused = 0
        for t in transforms {
            var b = HitIndex.Builder()
            let checked: HitIndexError?
            do { try b.validate(transform: t); checked = nil } catch { checked = error }
            let added: HitIndexError?
            do { try b.add(dot, transform: t); added = nil } catch { added = error }
            #expect(checked == added, "\(t): validate \(String(describing: checked)), add \(String(describing: added))")
            refused += checked == nil ? 0 : 1
        }
        #expect(refused == 7, "the list reaches each refusal (\(refused))")
    }
}
