import Foundation
import InkBenchRaster
import InkBenchSupport
import InkGeometry
import InkHit

/// `ink-bench-summary ab [--quick]`: every workload's query times as `key<TAB>value` lines (ns per point), for
/// alternating runs of two builds by `scripts`-style A/B loops. Uses only API the baseline of the class-raster work (commit
/// 07d4b99) also has — `hits(for:radius:into:)`, `hit(at:radius:)`, `contains` — so the same file builds on both
/// sides: page, rotated page, '@', CJK line (batch r = 0 and 3.5, a loop of single calls at r = 0, a loop of
/// `contains`), the 1× bitmap, the 200,000-glyph document (points uniform over it, and in a one-page window).
enum AB {
    static func run(quick: Bool) throws {
        let rounds = quick ? 5 : 11, seconds = quick ? 0.2 : 0.5
        func emit(_ key: String, _ value: Double) { print("\(key)\t\(String(format: "%.6g", value))") }
        func time(_ n: Int, _ body: () -> Void) -> Double { Timing.median(rounds: rounds, minSeconds: seconds, body) * 1e9 / Double(n) }
        let make: [(String, () throws -> Workload)] = [
            ("page", { try Workloads.page() }), ("rotated", { try Workloads.rotatedPage() }),
            ("at", { try Workloads.at() }), ("cjk", { try Workloads.cjk() }),
        ]
        var sink = 0
        for (key, build) in make {
            let w = try build()
            let index = w.index, points = w.points, pts = w.pointBuffer, n = points.count
            var out = [Hit?](repeating: nil, count: n)
            emit("\(key).r0.batch", time(n) { index.hits(for: points, radius: 0, into: &out) })
            emit("\(key).r3.5.batch", time(n) { index.hits(for: points, radius: 3.5, into: &out) })
            emit("\(key).r0.single", time(n) { for p in pts { if index.hit(at: p, radius: 0) != nil { sink &+= 1 } } })
            emit("\(key).r3.5.single", time(n) { for p in pts { if index.hit(at: p, radius: 3.5) != nil { sink &+= 1 } } })
            emit("\(key).contains", time(n) { for p in pts where index.contains(p) { sink &+= 1 } })
            emit("\(key).bytes", Double(index.bytesBeyondShapes))
            if key == "page" {
                let bitmap = try CoverageBitmap(fontPath: w.fontPath,
                                                glyphs: zip(w.glyphs, w.transforms).map { RasterGlyph(id: $0.id.rawValue, transform: $1) },
                                                viewBox: w.viewBox, scale: 1)
                emit("page.bitmap1x", time(n) { for p in pts where bitmap.isHit(p) { sink &+= 1 } })
                emit("page.bitmap1x.bytes", Double(bitmap.byteCount))
                emit("page.build.warm.ms", Timing.median(rounds: rounds, minSeconds: seconds) { _ = try! w.buildIndex(font: w.font, cache: w.cache) } * 1e3)
                // Minor page faults per warm build (fresh pages the allocator maps for the index).
                var u0 = rusage(), u1 = rusage()
                getrusage(RUSAGE_SELF.rawValue, &u0)
                for _ in 0..<50 { _ = try! w.buildIndex(font: w.font, cache: w.cache) }
                getrusage(RUSAGE_SELF.rawValue, &u1)
                emit("page.build.warm.faults", Double(u1.ru_minflt - u0.ru_minflt) / 50)
                emit("page.build.cold.ms", Timing.median(rounds: rounds, minSeconds: seconds) { _ = try! w.buildIndexCold() } * 1e3)
            }
        }
        if !CommandLine.arguments.contains("--no-doc") {
            let d = try Workloads.scaling(200_000)
            var out = [Hit?](repeating: nil, count: d.points.count)
            let dp = d.points
            emit("doc.r0.batch", time(dp.count) { d.index.hits(for: dp, radius: 0, into: &out) })
            emit("doc.r3.5.batch", time(dp.count) { d.index.hits(for: dp, radius: 3.5, into: &out) })
            emit("doc.bytes", Double(d.index.bytesBeyondShapes))
        }
        if sink == -1 { print("") }
    }
}
