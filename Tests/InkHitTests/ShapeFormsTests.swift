import InkGeometry
import InkTestSupport
import InkHit
import Testing

/// The two forms of a shape (`GlyphShape`): the lean form every shape has from the start and the full form
/// built when a second index places it. Both must answer bit for bit alike (the brute-force comparisons of
/// `HitIndexDifferentialTests` run on each form; here they are compared with each other, exactly), the
/// promotion rule must do what `ShapeForms` says, and the lean form must stay small and bounded.
struct ShapeFormsTests {
    /// The same random page built twice, reading lean and full forms: every answer equal, distances to the bit
    /// (also far from the origin, where a placement's anchor must be the same point in both).
    @Test(arguments: [0, 1, 2, 3], [0.0, 2.0, 3.5, 9.0])
    func leanAndFullFormsAnswerAlike(kind: Int, radius: Double) throws {
        try leanAndFullFormsAnswerAlike(kind: kind, radius: radius, offset: .zero)
        try leanAndFullFormsAnswerAlike(kind: kind, radius: radius, offset: Point(12345.678, -98765.4321))
    }

    func leanAndFullFormsAnswerAlike(kind: Int, radius: Double, offset: Point) throws {
        var rng = SplitMix64(seed: 4000 &+ UInt64(kind))
        var shapes: [GlyphShape] = []
        for _ in 0..<4 { shapes.append(try GlyphShape(polygon: TestShapes.randomBlob(&rng, size: 2000))) }
        var lean = HitIndex.Builder(), full = HitIndex.Builder()
        lean.shapeForms = .lean
        full.shapeForms = .full
        for _ in 0..<30 {
            let s = shapes[rng.int(shapes.count)]
            let t = TestShapes.randomTransform(&rng, kind: kind).concatenating(.translation(offset.x, offset.y))
            try lean.add(s, transform: t)
            try full.add(s, transform: t)
        }
        let a = lean.build(), b = full.build()
        let promoted = shapes.filter { $0.hasFullForm }.count
        #expect(promoted == shapes.count, "the full index built every shape's full form")
        var inside = 0, near = 0
        for _ in 0..<4000 {
            let p = Point(rng.range(-20, 260) + offset.x, rng.range(-20, 260) + offset.y)
            let x = a.hit(at: p, radius: radius), y = b.hit(at: p, radius: radius)
            #expect(x?.placement == y?.placement && x?.isInside == y?.isInside, "p=\(p) r=\(radius): \(String(describing: x)) vs \(String(describing: y))")
            if let x, let y {
                #expect(x.distance.bitPattern == y.distance.bitPattern, "p=\(p): \(x.distance) vs \(y.distance)")
                if x.isInside { inside += 1 } else { near += 1 }
            }
            #expect(a.topmost(at: p) == b.topmost(at: p))
        }
        #expect(inside > 200, "the sweep hits ink (\(inside))")
        #expect(radius == 0 ? near == 0 : near > 50, "the sweep reaches the radius (\(near))")
    }

    /// The shape's own queries (winding and distance anywhere, however far) agree between the forms.
    @Test func shapeQueriesAgreeBeforeAndAfterPromotion() throws {
        var rng = SplitMix64(seed: 77)
        let shape = try GlyphShape(polygon: TestShapes.randomBlob(&rng, size: 2000))
        let points = (0..<3000).map { _ in Point(rng.range(-3000, 5000), rng.range(-3000, 5000)) }
        let before = points.map { (shape.winding(at: $0), shape.distance(to: $0)) }
        #expect(!shape.hasFullForm)
        shape.promote()
        #expect(shape.hasFullForm)
        for (p, (w, d)) in zip(points, before) {
            #expect(shape.winding(at: p) == w, "winding at \(p)")
            #expect(shape.distance(to: p).bitPattern == d.bitPattern, "distance at \(p): \(shape.distance(to: p)) vs \(d)")
        }
    }

    /// `.whenReused`: the first index reads the lean form (no full form is built), the second builds and reads
    /// the full one; `.lean` never builds it; `.full` builds it at once.
    @Test func promotionFollowsShapeForms() throws {
        var rng = SplitMix64(seed: 12)
        let reused = try GlyphShape(polygon: TestShapes.randomBlob(&rng, size: 500))
        let lean = try GlyphShape(polygon: TestShapes.randomBlob(&rng, size: 500))
        let full = try GlyphShape(polygon: TestShapes.randomBlob(&rng, size: 500))
        func build(_ s: GlyphShape, _ f: ShapeForms) throws {
            var b = HitIndex.Builder()
            b.shapeForms = f
            try b.add(s, transform: .scale(0.1, 0.1))
            try b.add(s, transform: AffineTransform.scale(0.1, 0.1).concatenating(.translation(60, 0)))
            _ = b.build()
        }
        #expect(!reused.hasLeanForm, "a shape is made without its grid: the first index builds it")
        try build(reused, .whenReused)
        #expect(reused.hasLeanForm)
        #expect(!reused.hasFullForm, "one index, placed twice, is still the first sight")
        let leanBytes = reused.byteCount
        try build(reused, .whenReused)
        #expect(reused.hasFullForm)
        #expect(reused.byteCount > leanBytes)
        for _ in 0..<3 { try build(lean, .lean) }
        #expect(!lean.hasFullForm)
        try build(full, .full)
        #expect(full.hasFullForm)
    }

    /// Building a shape's full form from many threads at once builds it once and every index answers alike.
    @Test func concurrentPromotionIsSafe() async throws {
        var rng = SplitMix64(seed: 99)
        let shape = try GlyphShape(polygon: TestShapes.randomBlob(&rng, size: 800))
        let probe = Point(40, 40)
        let answers = await withTaskGroup(of: Bool?.self) { group in
            for k in 0..<8 {
                group.addTask {
                    var b = HitIndex.Builder()
                    b.shapeForms = k % 2 == 0 ? .full : .whenReused
                    _ = try? b.add(shape, transform: .scale(0.1, 0.1))
                    return b.build().hit(at: probe, radius: 5)?.isInside
                }
            }
            var all: [Bool?] = []
            for await a in group { all.append(a) }
            return all
        }
        #expect(Set(answers.map { $0.map { $0 ? 1 : 0 } ?? -1 }).count == 1, "\(answers)")
        #expect(shape.hasFullForm)
    }

    /// The sink counts each curve's segments from its control points before it makes them: an outline that
    /// would need more edges than the limit, or a curve beyond `Flattening.maxSegmentsPerCurve`, is refused
    /// without making them (a deliberately tiny tolerance would otherwise ask for ~10⁸ segments).
    ///
    /// Judged by the work done, not by the clock: the sink counts the points it makes (`pointsMade`). Each
    /// quadratic below has a second difference of 80, so any polyline within `t` of it needs at least
    /// √(80 / 8t) segments (a chord over a parameter step h strays 80 h² / 8): 100 at t = 1e-3, 400 at 1e-3 / 16,
    /// so the 5,000 curves ask for at least 500,000 or 2,000,000 segments. The refusal comes with at most the
    /// 1,000 edges the limit allows made (and the contour's first point), whatever was asked for.
    @Test func flatteningIsBoundedBeforeItIsDone() throws {
        for tolerance in [1e-3, 1e-3 / 16] {
            var made = -1
            #expect(throws: ShapeError.tooManyEdges(limit: 1000)) {
                try GlyphShape(tolerance: tolerance, limits: ShapeLimits(maxEdges: 1000)) { sink in
                    sink.move(to: Point(0, 0))
                    for k in 0..<5000 { sink.addQuadCurve(to: Point(Double(k + 1), 0), control: Point(Double(k) + 0.5, 40)) }
                    sink.closeSubpath()
                    made = sink.pointsMade
                }
            }
            let asked = 5000 * Int((80 / (8 * tolerance)).squareRoot().rounded(.down))
            #expect(made > 0 && made <= 1001, "tolerance \(tolerance): \(made) points made before the refusal of \(asked)+ segments")
        }
        // A curve beyond maxSegmentsPerCurve (1.6 × 10⁶ segments at 1e-9): refused at the first, nothing made.
        var made = -1
        #expect(throws: ShapeError.toleranceNotMet(curves: 30000)) {
            try GlyphShape(tolerance: 1e-9) { sink in
                sink.move(to: Point(0, 0))
                for k in 0..<30000 { sink.addQuadCurve(to: Point(Double(k + 1), 0), control: Point(Double(k) + 0.5, 1e4)) }
                sink.closeSubpath()
                made = sink.pointsMade
            }
        }
        #expect(made == 0, "\(made) points made of 30,000 curves past maxSegmentsPerCurve")
    }

    /// A build past `BuildDeadline` gives up with `.timeLimit`.
    @Test func aPassedDeadlineStopsTheBuild() throws {
        let past = ContinuousClock.now - .seconds(1)
        #expect(throws: ShapeError.timeLimit) {
            try BuildDeadline.within(past) { () throws(ShapeError) -> GlyphShape in
                try GlyphShape(tolerance: 0.01) { sink in
                    sink.move(to: Point(0, 0))
                    for k in 0..<20000 { sink.addQuadCurve(to: Point(Double(k + 1), 0), control: Point(Double(k) + 0.5, 1)) }
                    sink.closeSubpath()
                }
            }
        }
        // Without a limit (or with one in the future) the same outline is built.
        let later = ContinuousClock.now + .seconds(600)
        let shape = try BuildDeadline.within(later) { () throws(ShapeError) -> GlyphShape in
            try GlyphShape(tolerance: 0.01) { sink in
                sink.move(to: Point(0, 0))
                for k in 0..<2000 { sink.addQuadCurve(to: Point(Double(k + 1), 0), control: Point(Double(k) + 0.5, 1)) }
                sink.closeSubpath()
            }
        }
        #expect(shape.edgeCount > 2000)
    }
}

extension ShapeFormsTests {
    /// A cached shape's full form counts against its cache's budget: `byteCount` grows when a second index
    /// promotes the shape, and a shape evicted before its promotion is no longer counted.
    @Test func fullFormsCountInTheCache() throws {
        let cache = ShapeCache<Int>()
        func blob(_ k: Int) throws -> GlyphShape {
            try cache.shape(for: k, viewTolerance: 0.01, maxScale: 0.01) { sink in
                var rng = SplitMix64(seed: UInt64(k))
                let poly = TestShapes.randomBlob(&rng, size: 1000)
                for c in poly.contours {
                    sink.move(to: c[0]); for p in c.dropFirst() { sink.addLine(to: p) }; sink.closeSubpath()
                }
            }
        }
        let a = try blob(1), b = try blob(2)
        let lean = cache.byteCount
        #expect(lean == a.byteCount + b.byteCount)
        a.promote()
        #expect(cache.byteCount == a.byteCount + b.byteCount)
        #expect(cache.byteCount > lean)

        // A cache just big enough for one promoted shape evicts the older one to make room for a third.
        let small = ShapeCache<Int>(maxBytes: a.byteCount + 1)
        let first = try small.shape(for: 1, viewTolerance: 0.01, maxScale: 1) { sink in
            sink.move(to: Point(0, 0)); sink.addLine(to: Point(1, 0)); sink.addLine(to: Point(0, 1)); sink.closeSubpath()
        }
        first.promote()
        #expect(small.byteCount == first.byteCount)
        _ = try small.shape(for: 2, viewTolerance: 0.01, maxScale: 1) { sink in
            sink.move(to: Point(0, 0)); sink.addLine(to: Point(2, 0)); sink.addLine(to: Point(0, 2)); sink.closeSubpath()
        }
        #expect(small.count == 1 || small.byteCount <= a.byteCount + 1)
        #expect(small.byteCount <= small.maxBytes)
    }
}
