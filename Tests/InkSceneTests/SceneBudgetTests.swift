import Foundation
@testable import InkScene
import InkFreeType
import InkGeometry
import InkHit
import InkTestSupport
import Testing

/// Scene regions bounded before they are built: estimates that are never below what a region
/// costs (oracle: `GlyphShape.byteCount` of the region built), the snapshot's byte budget and deadline as
/// typed errors naming the node, zero-area masks like zero-size boxes, and glyph nodes whose color data is
/// broken failing whatever their hole policy.
@Suite struct SceneBudgetTests {
    static func root() -> Node { Node(id: "root", bounds: Rect(minX: 0, minY: 0, maxX: 100, maxY: 100), clipsChildren: false) }

    /// The estimate is an upper bound of what ellipses and round rectangles (under a shear, where they are
    /// polygons) take, and within a small factor of it (so it refuses only what is really big).
    @Test(arguments: [(4.0, 4.0), (40.0, 40.0), (400.0, 400.0), (4000.0, 40.0), (2.0, 3000.0)])
    func estimatesBoundWhatRegionsTake(_ w: Double, _ h: Double) throws {
        let r = Rect(minX: 0, minY: 0, maxX: w, maxY: h)
        let n = Regions.ellipseEdges(in: r, viewTolerance: 0.01, maxScale: 1)
        let ellipse = try Regions.ellipse(in: r, viewTolerance: 0.01, maxScale: 1)
        #expect(ellipse.edgeCount == n)
        let estimate = Regions.estimatedBytes(edges: n, convex: true)
        // The estimate bounds the most a region's shape can take: its polygon, lean form and full form (which
        // a shape placed by a second index builds), so the full form is built here before it is counted.
        try Self.buildFullForm(ellipse)
        // Round ones are near the bound (their inner cells are near many edges); long thin ones far below it.
        #expect(estimate >= ellipse.byteCount && estimate <= (w == h ? 8 : 64) * ellipse.byteCount,
                "\(w) × \(h): \(estimate) vs \(ellipse.byteCount)")
        let radius = min(w, h) / 4
        let m = Regions.roundRectEdges(radius: radius, viewTolerance: 0.01, maxScale: 2)
        let round = try Regions.roundRect(r, radius: radius, viewTolerance: 0.01, maxScale: 2)
        try Self.buildFullForm(round)
        #expect(round.edgeCount <= m)
        #expect(Regions.estimatedBytes(edges: m, convex: true) >= round.byteCount)
    }

    /// Places `shape` in an index that asks for full forms, so its `byteCount` counts every form it can have.
    static func buildFullForm(_ shape: GlyphShape) throws {
        var b = HitIndex.Builder()
        b.shapeForms = .full
        try b.add(shape, transform: .identity)
        _ = b.build()
    }

    @Test func aBudgetRefusesTheNodeBeyondIt() throws {
        var scene = Scene(root: Self.root())
        for k in 0..<6 {
            try scene.add(Node(id: "e\(k)", bounds: Rect(minX: 0, minY: 0, maxX: 2000, maxY: 2000), shape: .ellipse), to: "root")
        }
        let r = Rect(minX: 0, minY: 0, maxX: 2000, maxY: 2000)
        let one = try Regions.ellipse(in: r, viewTolerance: 0.01, maxScale: 1).byteCount
        let estimate = Regions.estimatedBytes(edges: Regions.ellipseEdges(in: r, viewTolerance: 0.01, maxScale: 1), convex: true)
        // Each region is refused when its estimate does not fit what the ones before it left; each built one
        // costs what it holds. So with room for `estimate` after three, the fourth is refused.
        let limit = 3 * one + estimate - 1
        #expect(throws: SceneError.shapeBytes(id: "e3", limit: limit)) { try scene.snapshot(budget: SceneBudget(maxShapeBytes: limit)) }
        // The scene keeps its edits and what was built; with room, it is indexed.
        let s = try scene.snapshot(budget: SceneBudget(maxShapeBytes: 5 * one + estimate))
        #expect(s.hit(at: Point(1000, 1000))?.node == "e5")
        // A 1e7 px ellipse is refused by its estimate (more than a shape's 256 MiB) before anything is built.
        var huge = Scene(root: Self.root())
        try huge.add(Node(id: "huge", bounds: Rect(minX: 0, minY: 0, maxX: 1e7, maxY: 1e7), shape: .ellipse), to: "root")
        let meter = WorkMeter()
        #expect(throws: SceneError.shape(id: "huge", .tooLarge(limit: ShapeLimits.default.maxBytes))) {
            try meter.during { try huge.snapshot() }
        }
        #expect(meter[.outlinePoints] == 0, "refused by its estimate: \(meter[.outlinePoints]) outline points made")
        // The meter sees a scene's builds: a 100 px ellipse's ring is counted.
        var small = Scene(root: Self.root())
        try small.add(Node(id: "small", bounds: Rect(minX: 0, minY: 0, maxX: 100, maxY: 100), shape: .ellipse), to: "root")
        let built = WorkMeter()
        _ = try built.during { try small.snapshot() }
        #expect(built[.outlinePoints] > 16, "a 100 px ellipse: \(built[.outlinePoints]) outline points")
    }

    @Test func aDeadlineStopsTheSnapshotBetweenNodes() throws {
        var scene = Scene(root: Self.root())
        for k in 0..<200 {
            try scene.add(Node(id: "e\(k)", bounds: Rect(minX: Double(k % 50), minY: Double(k / 50), maxX: Double(k % 50) + 1,
                                                        maxY: Double(k / 50) + 1), shape: .ellipse), to: "root")
        }
        let start = ContinuousClock.now, cpu = threadCPUSeconds()
        do {
            _ = try scene.snapshot(budget: SceneBudget(deadline: .now + .milliseconds(5)))
            Issue.record("200 ellipses in 5 ms")
        } catch {
            guard case .timeLimit = error else { Issue.record("\(error)"); return }
        }
        // The deadline plus the documented ~100 ms overrun, on the wall clock or, when the thread was
        // descheduled meanwhile, in the thread's CPU time.
        let wall = ContinuousClock.now - start, used = threadCPUSeconds() - cpu
        #expect(wall < .milliseconds(110) || used < 0.105, "\(wall), \(used) s of CPU")
        #expect(try scene.snapshot().count == 201, "without a deadline the snapshot goes on")
    }

    /// A mask, an ellipse and a round rect of no area have no region, as a zero-size box has none; a hit
    /// box grown by `minSize` still takes touches.
    @Test func zeroAreaShapesAreLikeZeroSizeBoxes() throws {
        let mask = try #require(AlphaMask(width: 2, height: 2, alpha: [255, 255, 255, 255]))
        var scene = Scene(root: Self.root())
        for (k, shape) in [NodeShape.mask(mask), .ellipse, .roundRect(radius: 2), .box].enumerated() {
            try scene.add(Node(id: "w\(k)", bounds: Rect(minX: 10, minY: 10, maxX: 10, maxY: 20), shape: shape), to: "root")
            try scene.add(Node(id: "h\(k)", bounds: Rect(minX: 10, minY: 10, maxX: 20, maxY: 10), shape: shape), to: "root")
        }
        try scene.add(Node(id: "grown", bounds: Rect(minX: 50, minY: 50, maxX: 50, maxY: 60), shape: .mask(mask), minSize: (10, 10)),
                      to: "root")
        let s = try scene.snapshot()
        #expect(s.hit(at: Point(10, 15))?.node == "root")
        #expect(s.hit(at: Point(15, 10))?.node == "root")
        #expect(s.hit(at: Point(52, 55))?.node == "grown")
    }

    /// A mask whose staircase would have more than a million edges is refused after one pass over its pixels.
    @Test func aCheckerboardMaskIsRefusedByItsRuns() throws {
        let n = 2048
        var alpha = [UInt8](repeating: 0, count: n * n)
        for y in 0..<n { for x in stride(from: y % 2, to: n, by: 2) { alpha[y * n + x] = 255 } }
        let mask = try #require(AlphaMask(width: n, height: n, alpha: alpha))
        var scene = Scene(root: Self.root())
        try scene.add(Node(id: "m", bounds: Rect(minX: 0, minY: 0, maxX: 100, maxY: 100), shape: .mask(mask)), to: "root")
        #expect(throws: SceneError.shape(id: "m", .tooManyEdges(limit: ShapeLimits.default.maxEdges))) { try scene.snapshot() }
    }

    /// A glyph whose paint graph has a cycle is the node's error under every hole policy (it used to be
    /// taken for a glyph without ink by `wordHull`).
    @Test(arguments: HolePolicy.allCases)
    func aBrokenColorGlyphFailsWhateverTheHolePolicy(_ holes: HolePolicy) throws {
        let font = try Font(bytes: HostileFonts.colrCycle())
        let run = (0..<100).map { GlyphPlacement(font: font, glyph: GlyphID(2), size: 16, origin: Point(Double($0) * 2, 20)) }
        var scene = Scene(root: Self.root())
        try scene.add(Node(id: "g", bounds: Rect(minX: 0, minY: 0, maxX: 100, maxY: 40), shape: .glyphs(run, holes: holes)), to: "root")
        #expect(throws: SceneError.glyph(id: "g", glyph: 0, .colorPaintCycle(glyph: GlyphID(2)))) { try scene.snapshot() }
        // The well-formed glyph of the same font is ink under every policy.
        let good = [GlyphPlacement(font: font, glyph: GlyphID(3), size: 16, origin: Point(0, 20))]
        try scene.update("g") { $0.shape = .glyphs(good, holes: holes) }
        #expect(try scene.snapshot().hit(at: Point(4, 16))?.node == "g")
    }

    /// The scenes fuzzer's first finding: an ellipse 1e9 px wide under a scale of 1e6 (a radius of 5e14 px)
    /// trapped converting an infinite segment count to Int (1 − tol / r rounded to 1, so the chord angle was 0).
    /// It is refused by its estimate, and the segment count of huge radii is finite and capped.
    @Test func fuzzing_test_case_scene_01() throws {
        var scene = Scene(root: Self.root())
        try scene.add(Node(id: "n1", bounds: Rect(minX: 0, minY: 0, maxX: 1e9, maxY: 1e9), transform: .scale(1e6, 1e6), shape: .ellipse),
                      to: "root")
        #expect(throws: SceneError.shape(id: "n1", .tooLarge(limit: ShapeLimits.default.maxBytes))) { try scene.snapshot() }
        for r in [1e3, 1e9, 1e15, 1e300] {
            let (n, achieved) = Regions.segments(radius: r, angle: 2 * Double.pi, tol: 0.01)
            #expect(n >= 8 && n <= 100_000 && achieved.isFinite, "radius \(r): \(n) segments, within \(achieved)")
        }
        // Where the count is not capped, the chords meet the tolerance: sagitta r (1 − cos(π / n)) ≤ tol.
        let (n, achieved) = Regions.segments(radius: 1e6, angle: 2 * Double.pi, tol: 0.01)
        #expect(n < 100_000 && achieved <= 0.01 && 1e6 * (1 - cos(Double.pi / Double(n))) <= 0.01 * (1 + 1e-6))
    }
}
