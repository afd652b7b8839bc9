// The first sight of a glyph: InkHit's shape creation and a cold page build, each next to
// FreeType's load + render of the same glyphs in the same run (`GlyphRenderer`: `FT_Load_Glyph` unhinted +
// `FT_Render_Glyph` normal at `FT_Set_Char_Size(face, 0, 16 × 64, 72, 72)`).
//
// - `cold.cjk16.shapes`: the 600 CJK ideographs of `ColdWorkloads.cjk(size: 16)` (Droid Sans Fallback),
//   `FontShapeCache.shape(font:glyph:maxScale:)` each, from a fresh cache and a freshly loaded `Font` per
//   iteration (the load is outside the measured region: `startMeasurement()` follows it).
// - `cold.cjk16.freetype`: the same glyphs loaded and rendered on a fresh `FT_Face` per iteration (the face
//   is made outside the measured region). The baseline of both `cold.cjk16.shapes` and `cold.page.build`
//   (the page's glyphs are these, in the same order).
// - `cold.page.build`: those ideographs laid out by `TextLayout` (16 px, 640 px wide; in setup), moved to a
//   fresh `Font` and added to a fresh `FontShapeCache` per iteration: `HitIndex.Builder.add(_:cache:)` each,
//   then `build()`.
//
// Metrics: wall clock, throughput, allocations, and "ns per glyph" (the measured region / glyphs). No
// thresholds: these times move with the machine's load, and their allocation counts with the library's
// design (the ratios are read from one run; `ink-bench-summary cold` prints them).
import Benchmark
import InkBenchRaster
import InkBenchSupport
import InkFreeType
import InkHit

/// ns per glyph of the measured region (custom metrics are integers).
let nsPerGlyph = BenchmarkMetric.custom("ns per glyph", polarity: .prefersSmaller, useScalingFactor: false)

enum ColdFixtures {
    static let cjk16 = try! ColdWorkloads.cjk(size: 16)
    static let cjk16IDs = cjk16.glyphIDs
    static let renderer = try! GlyphRenderer(fontPath: FontFiles.droidSansFallback)
    static let page = try! ColdWorkloads.cjkPage()
}

var coldConfig: Benchmark.Configuration {
    .init(metrics: [.wallClock, .throughput, .mallocCountTotal, nsPerGlyph], timeUnits: .microseconds,
          units: [nsPerGlyph: .count], warmupIterations: 1, maxDuration: .seconds(3), maxIterations: 200)
}

/// Runs `body` between `startMeasurement()` and `stopMeasurement()` and records ns per glyph.
@inline(__always)
func measureGlyphs(_ benchmark: Benchmark, glyphs: Int, _ body: () throws -> Void) rethrows {
    let clock = ContinuousClock()
    benchmark.startMeasurement()
    let t0 = clock.now
    try body()
    let elapsed = clock.now - t0
    benchmark.stopMeasurement()
    benchmark.measurement(nsPerGlyph, Int((elapsed.seconds * 1e9 / Double(max(glyphs, 1))).rounded()))
}

func coldBenchmarks() {
    Benchmark("cold.cjk16.shapes", configuration: coldConfig) { benchmark in
        let set = ColdFixtures.cjk16, glyphs = set.glyphs, scale = set.maxScale
        let font = try! Font(path: set.fontPath)
        let cache = FontShapeCache()
        measureGlyphs(benchmark, glyphs: glyphs.count) {
            for g in glyphs { blackHole(try! cache.shape(font: font, glyph: g, maxScale: scale)) }
        }
        blackHole(cache.count)
    } setup: {
        _ = ColdFixtures.cjk16
    }
    Benchmark("cold.cjk16.freetype", configuration: coldConfig) { benchmark in
        let ids = ColdFixtures.cjk16IDs
        let face = try! ColdFixtures.renderer.face(size: ColdFixtures.cjk16.size)
        var run: GlyphRenderer.Run? = nil
        ids.withUnsafeBufferPointer { buf in
            measureGlyphs(benchmark, glyphs: buf.count) { run = face.loadAndRender(buf) }
        }
        precondition(run?.error == 0 && run?.rendered == ids.count, "FreeType failed: \(String(describing: run))")
        blackHole(run?.bitmapBytes)
    } setup: {
        _ = (ColdFixtures.cjk16IDs, ColdFixtures.renderer)
    }
    Benchmark("cold.page.build", configuration: coldConfig) { benchmark in
        let page = ColdFixtures.page
        let font = try! Font(path: page.fontPath)
        let placements = page.placements(font: font)
        let cache = FontShapeCache()
        var index: HitIndex? = nil
        measureGlyphs(benchmark, glyphs: placements.count) {
            index = try! ColdPage.buildIndex(placements, cache: cache)
        }
        blackHole(index?.count)
    } setup: {
        _ = ColdFixtures.page
    }
}
