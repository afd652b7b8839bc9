// The InkHit benchmark suite (ordo-one package-benchmark). Fixtures are built and checked against the
// brute-force oracle in each benchmark's setup; only the work named by the benchmark is measured.
//
// Names: <workload>.<what>[.<variant>]. Query benchmarks answer every point of the workload once per
// iteration (200,000 points; brute force: the first 10,000) and record the custom metric
// "ns per point x100" (median = ns/point × 100). Batch (the safe `hits(for:radius:into:)` on arrays, the
// answer array reused), raw-buffer (`unsafeHits`) and single-point query benchmarks assert zero allocations
// through `thresholds` below and the checked-in files in Thresholds/ (`swift package benchmark thresholds
// check`). `layout.cjk.*` lays out a CJK-fallback paragraph with TextLayout and records the bytes each
// layout allocates (`mallocBytesCount`).
//
// `scene.*` is the chat-log hit scene (InkScene): `ChatScene`, a chat log of 1,000 cells × 10 nodes, with
// 200,000 uniform random points over the list's whole extent, checked in setup against the baseline walk
// (`ChatBaseline`, UIKit's recursive algorithm; 2,000 points at r = 0 and r = 8 root px). `scene.query.*.batch`
// answers every point once per iteration through `SceneSnapshot.hits(for:radius:)` ("ns per point x100" is per
// query); `scene.baseline.*` walks the first 20,000 points; `scene.move.snapshot` is one edit + `snapshot()`
// per iteration; `scene.build` a fresh `Scene` of all nodes + its first snapshot (layouts made: warm). The
// scene queries allocate (each answer carries its path of ids), so they have no zero-allocation thresholds.
//
// `cold.*` (the first sight of a glyph, ColdBenchmarks.swift): shape creation of 600 CJK ideographs from a fresh cache, FreeType's
// load + render of the same glyphs, and the cold build of a page of them.
import Benchmark
import InkBenchRaster
import InkBenchSupport
import InkFreeType
import InkGeometry
@_spi(RawBuffers) import InkHit
import InkScene
import InkText

/// ns per point × 100 (custom metrics are integers).
let nsPerPoint = BenchmarkMetric.custom("ns per point x100", polarity: .prefersSmaller, useScalingFactor: false)

let queryMetrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal, nsPerPoint]
var zeroAllocations: [BenchmarkMetric: BenchmarkThresholds] { [.mallocCountTotal: .init(absolute: [.p90: 0])] }

func queryConfig(zeroAllocs: Bool, seconds: Int = 2) -> Benchmark.Configuration {
    .init(metrics: queryMetrics, timeUnits: .milliseconds, units: [nsPerPoint: .count], warmupIterations: 2,
          maxDuration: .seconds(seconds),
          maxIterations: 1_000, thresholds: zeroAllocs ? zeroAllocations : nil)
}

func buildConfig(seconds: Int = 3, extra: [BenchmarkMetric] = []) -> Benchmark.Configuration {
    .init(metrics: [.wallClock, .throughput, .mallocCountTotal] + extra, timeUnits: .microseconds,
          warmupIterations: 1, maxDuration: .seconds(seconds), maxIterations: 500)
}

/// Times `body` (which answers `points` points) between explicit start/stop, then records ns/point.
@inline(__always)
func measureQuery(_ benchmark: Benchmark, points: Int, _ body: () -> Void) {
    let clock = ContinuousClock()
    benchmark.startMeasurement()
    let t0 = clock.now
    for _ in benchmark.scaledIterations { body() }
    let elapsed = clock.now - t0
    benchmark.stopMeasurement()
    let ns = elapsed.seconds * 1e9 / Double(points * benchmark.scaledIterations.count)
    benchmark.measurement(nsPerPoint, Int((ns * 100).rounded()))
}

enum QueryPath { case batch, unsafe, single, parallel }

func queryBenchmark(_ name: String, radius: Double, path: QueryPath, _ workload: @escaping @Sendable () -> Workload) {
    Benchmark(name, configuration: queryConfig(zeroAllocs: path != .parallel)) { benchmark in
        let w = workload()
        let pts = w.pointBuffer, out = w.answers
        switch path {
        case .batch:
            // The main batch form: arrays in and out, the answer array reused (no allocation once it has
            // the points' count).
            let index = w.index, points = w.points
            var answers = [Hit?](repeating: nil, count: points.count)
            measureQuery(benchmark, points: points.count) { index.hits(for: points, radius: radius, into: &answers) }
            blackHole(answers[0])
        case .unsafe:
            measureQuery(benchmark, points: pts.count) { w.index.unsafeHits(for: pts, radius: radius, into: out) }
        case .parallel:
            measureQuery(benchmark, points: pts.count) { w.index.unsafeConcurrentHits(for: pts, radius: radius, into: out) }
        case .single:
            measureQuery(benchmark, points: pts.count) {
                let index = w.index
                for i in 0..<pts.count { out[i] = index.hit(at: pts[i], radius: radius) }
            }
        }
        blackHole(out[0])
    } setup: {
        _ = workload()
    }
}

let benchmarks: @Sendable () -> Void = {
    // MARK: Query — "page" (2,000 glyphs, 200,000 points)
    for (r, tag) in [(0.0, "r0"), (3.5, "r3.5")] {
        queryBenchmark("page.query.\(tag).batch", radius: r, path: .batch) { Fixtures.page }
        queryBenchmark("page.query.\(tag).unsafe", radius: r, path: .unsafe) { Fixtures.page }
        queryBenchmark("page.query.\(tag).single", radius: r, path: .single) { Fixtures.page }
        queryBenchmark("page.query.\(tag).parallel", radius: r, path: .parallel) { Fixtures.page }
        queryBenchmark("rotated.query.\(tag).batch", radius: r, path: .batch) { Fixtures.rotatedPage }
        queryBenchmark("at200.query.\(tag).batch", radius: r, path: .batch) { Fixtures.at }
        queryBenchmark("cjk.query.\(tag).batch", radius: r, path: .batch) { Fixtures.cjk }
    }

    // MARK: Containment only — "page": which placement's ink holds the point, no distance
    Benchmark("page.topmost.single", configuration: queryConfig(zeroAllocs: true)) { benchmark in
        let w = Fixtures.page, index = w.index, pts = w.pointBuffer
        var sum = 0
        measureQuery(benchmark, points: pts.count) {
            for p in pts { if let k = index.topmost(at: p) { sum &+= k } }
        }
        blackHole(sum)
    } setup: { _ = Fixtures.page }
    Benchmark("page.topmost.batch", configuration: queryConfig(zeroAllocs: true)) { benchmark in
        let w = Fixtures.page, index = w.index, pts = w.pointBuffer
        let out = UnsafeMutableBufferPointer<Int>.allocate(capacity: pts.count)
        out.initialize(repeating: -1)
        measureQuery(benchmark, points: pts.count) { index.unsafeTopmost(for: pts, into: out) }
        blackHole(out[0])
        out.deallocate()
    } setup: { _ = Fixtures.page }

    // MARK: The C interface — "page" (CABIBenchmarks.swift)
    cabiBenchmarks()

    // MARK: Build — "page"
    Benchmark("page.build.warm", configuration: buildConfig()) { benchmark in
        let w = Fixtures.page
        for _ in benchmark.scaledIterations { blackHole(try! w.buildIndex(font: w.font, cache: w.cache)) }
    } setup: { _ = Fixtures.page }
    Benchmark("page.build.cold", configuration: buildConfig()) { benchmark in
        let w = Fixtures.page
        for _ in benchmark.scaledIterations { blackHole(try! w.buildIndexCold()) }
    } setup: { _ = Fixtures.page }

    // MARK: Cold — the first sight of a glyph, next to FreeType's load + render (ColdBenchmarks.swift)
    coldBenchmarks()

    // MARK: Layout — a CJK-fallback paragraph (LayoutWorkload), fonts loaded once
    Benchmark("layout.cjk.shared", configuration: layoutConfig) { benchmark in
        let fonts = LayoutFixtures.fonts, cache = LayoutFixtures.sharedCache
        for _ in benchmark.scaledIterations { blackHole(try! LayoutWorkload.layout(fonts, cache: cache)) }
    } setup: {
        _ = try LayoutWorkload.layout(LayoutFixtures.fonts, cache: LayoutFixtures.sharedCache)   // warm
    }
    Benchmark("layout.cjk.fresh", configuration: layoutConfig) { benchmark in
        let fonts = LayoutFixtures.fonts
        for _ in benchmark.scaledIterations { blackHole(try! LayoutWorkload.layout(fonts, cache: LayoutWorkload.makeCache())) }
    } setup: {
        _ = try LayoutWorkload.layout(LayoutFixtures.fonts, cache: LayoutWorkload.makeCache())
    }

    // MARK: Scaling — 200, 2,000, 20,000, 200,000 glyphs (points uniform over the whole text block)
    for n in Workloads.scalingCounts {
        queryBenchmark("scaling.query.r0.\(n).batch", radius: 0, path: .batch) { Fixtures.scaling(n) }
        queryBenchmark("scaling.query.r3.5.\(n).batch", radius: 3.5, path: .batch) { Fixtures.scaling(n) }
        Benchmark("scaling.build.warm.\(n)", configuration: buildConfig(seconds: 4, extra: [.peakMemoryResident])) { benchmark in
            let w = Fixtures.scaling(n)
            for _ in benchmark.scaledIterations { blackHole(try! w.buildIndex(font: w.font, cache: w.cache)) }
        } setup: { _ = Fixtures.scaling(n) }
    }

    // MARK: Hit scene — the chat log (ChatScene: 10,002 nodes, 200,000 points; baseline on the first 20,000)
    for (r, tag) in zip(ChatFixtures.radii, ["r0", "r8"]) {
        Benchmark("scene.query.\(tag).batch", configuration: queryConfig(zeroAllocs: false)) { benchmark in
            let chat = ChatFixtures.chat, snapshot = chat.snapshot, points = chat.points
            var answers: [SceneHit?] = []
            measureQuery(benchmark, points: points.count) { answers = snapshot.hits(for: points, radius: r) }
            blackHole(answers.count)
        } setup: { _ = ChatFixtures.chat }
        Benchmark("scene.baseline.\(tag)", configuration: queryConfig(zeroAllocs: false, seconds: 3)) { benchmark in
            let base = ChatFixtures.baseline, points = ChatFixtures.chat.points.prefix(ChatFixtures.baselinePoints)
            var hits = 0
            measureQuery(benchmark, points: points.count) {
                for p in points where base.hit(at: p, radius: r) != nil { hits &+= 1 }
            }
            blackHole(hits)
        } setup: { _ = ChatFixtures.baseline }
    }
    Benchmark("scene.move.snapshot", configuration: buildConfig()) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! ChatFixtures.mover.step()) }
    } setup: { _ = ChatFixtures.mover }
    Benchmark("scene.build", configuration: buildConfig()) { benchmark in
        let chat = ChatFixtures.chat
        for _ in benchmark.scaledIterations { blackHole(try! chat.buildAndSnapshot()) }
    } setup: { _ = ChatFixtures.chat }

    // MARK: Baselines on "page", same points
    let brutePoints = 10_000
    for (r, tag) in [(0.0, "r0"), (3.5, "r3.5")] {
        Benchmark("page.baseline.bruteforce.\(tag)", configuration: queryConfig(zeroAllocs: false, seconds: 3)) { benchmark in
            let w = Fixtures.page, oracle = Baselines.bruteForce
            let pts = w.pointBuffer, out = w.answers
            measureQuery(benchmark, points: brutePoints) {
                for i in 0..<brutePoints { out[i] = oracle.hit(pts[i], radius: r) }
            }
            blackHole(out[0])
        } setup: { _ = Baselines.bruteForce }
    }
    Benchmark("page.baseline.glyphboxes", configuration: queryConfig(zeroAllocs: false)) { benchmark in
        let w = Fixtures.page, boxes = Baselines.glyphBoxes
        let pts = w.pointBuffer
        var hits = 0
        measureQuery(benchmark, points: pts.count) {
            for p in pts where boxes.hit(p) >= 0 { hits &+= 1 }
        }
        blackHole(hits)
    } setup: { _ = Baselines.glyphBoxes }
    for (scale, tag) in [(1.0, "1x"), (4.0, "4x")] {
        Benchmark("page.baseline.bitmap\(tag)", configuration: queryConfig(zeroAllocs: false)) { benchmark in
            let w = Fixtures.page, bitmap = Baselines.bitmap(scale)
            let pts = w.pointBuffer
            var hits = 0
            measureQuery(benchmark, points: pts.count) {
                for p in pts where bitmap.isHit(p) { hits &+= 1 }
            }
            blackHole(hits)
        } setup: { _ = Baselines.bitmap(scale) }
        Benchmark("page.baseline.bitmap\(tag).render", configuration: buildConfig()) { benchmark in
            let w = Fixtures.page
            for _ in benchmark.scaledIterations { blackHole(try! Baselines.renderBitmap(w, scale: scale)) }
        } setup: { _ = Fixtures.page }
    }
}

/// One layout per iteration: wall clock, allocations and the bytes they request, peak resident memory.
var layoutConfig: Benchmark.Configuration {
    .init(metrics: [.wallClock, .throughput, .mallocCountTotal, .mallocBytesCount, .peakMemoryResidentDelta],
          timeUnits: .microseconds, warmupIterations: 3, maxDuration: .seconds(3), maxIterations: 2_000)
}

/// The fonts and the shared shape cache of the layout benchmarks, made on first use (in setup).
enum LayoutFixtures {
    static let fonts = try! LayoutWorkload.loadFonts()
    static let sharedCache = LayoutWorkload.makeCache()
}

/// Baselines of the "page" workload, built on first use (in setup).
enum Baselines {
    static let bruteForce = BruteForce(Fixtures.page)
    static let glyphBoxes = GlyphBoxes(Fixtures.page)
    static let bitmap1x = try! renderBitmap(Fixtures.page, scale: 1)
    static let bitmap4x = try! renderBitmap(Fixtures.page, scale: 4)
    static func bitmap(_ scale: Double) -> CoverageBitmap { scale == 1 ? bitmap1x : bitmap4x }

    static func renderBitmap(_ w: Workload, scale: Double) throws -> CoverageBitmap {
        try CoverageBitmap(fontPath: w.fontPath,
                           glyphs: zip(w.glyphs, w.transforms).map { RasterGlyph(id: $0.id.rawValue, transform: $1) },
                           viewBox: w.viewBox, scale: scale)
    }
}
