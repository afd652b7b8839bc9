import Foundation
import InkBenchSupport
import InkHit

/// `ink-bench-summary compare [--quick]`: the numbers scripts/bench-compare.sh puts side by side for two
/// commits, one `key<TAB>value` line each (times in ns per point or ms, sizes in bytes). Every name means
/// the same work on both sides: `PageQueries` and `LayoutWorkload` are written in each commit's API.
///
/// The script copies this file, Layout.swift and Sources/CMallocCounter/ into the older commit's benchmarks
/// as they are (scripts/bench-compare/ patches in the rest), so they may use only what the benchmarks of
/// c65446c also have: `PageQueries`, `LayoutWorkload`, `Workloads.page()`, `Timing`, and the `Workload`
/// members `points`, `glyphs`, `inkedGlyphs`, `uniqueShapes`, `layoutBounds`, `index`, `shapes`, `transforms`,
/// `shapeBytes`, `font`, `cache`, `buildIndex(font:cache:)`, `buildIndexCold()`; and of InkHit only
/// `HitIndex.Builder()`, `add(_:transform:)`, `reserveCapacity(_:)`, `build()`, `count`, `bytesBeyondShapes`.
enum Compare {
    static func run(quick: Bool) throws {
        let rounds = quick ? 5 : 15, seconds = quick ? 0.2 : 0.6
        func emit(_ key: String, _ value: Double) { print("\(key)\t\(String(format: "%.6g", value))") }
        func emit(_ key: String, _ value: String) { print("\(key)\t\(value)") }

        emit("info.batch", PageQueries.batchAPI)
        emit("info.rawBuffers", PageQueries.rawBuffersAPI)
        let w = try Workloads.page()
        let n = w.points.count
        emit("page.glyphs", Double(w.glyphs.count))
        emit("page.inked", Double(w.inkedGlyphs))
        emit("page.uniqueShapes", Double(w.uniqueShapes))
        emit("page.width", w.layoutBounds.width)
        emit("page.height", w.layoutBounds.height)
        let q = PageQueries(w)
        for (r, tag) in [(0.0, "r0"), (3.5, "r3.5")] {
            func ns(_ body: () -> Void) -> Double { Timing.median(rounds: rounds, minSeconds: seconds, body) * 1e9 / Double(n) }
            emit("page.\(tag).batch", ns { q.batch(radius: r) })
            emit("page.\(tag).rawBuffers", ns { q.rawBuffers(radius: r) })
            emit("page.\(tag).single", ns { q.single(radius: r) })
        }
        emit("page.bytesPerPlacement", Double(w.index.bytesBeyondShapes) / Double(w.index.count))
        emit("page.bytesPerShape", Double(w.shapeBytes) / Double(max(w.uniqueShapes, 1)))
        emit("page.build.warm", Timing.median(rounds: rounds, minSeconds: seconds) {
            _ = try! w.buildIndex(font: w.font, cache: w.cache)
        } * 1e3)
        emit("page.build.cold", Timing.median(rounds: rounds, minSeconds: seconds) { _ = try! w.buildIndexCold() } * 1e3)
        // The index alone: the workload's shapes and transforms handed to `add(_:transform:)`, then `build()`
        // (no cache lookups, no placement checks).
        let shapes = w.shapes, transforms = w.transforms
        emit("page.build.indexOnly", Timing.median(rounds: rounds, minSeconds: seconds) {
            var b = HitIndex.Builder()
            b.reserveCapacity(shapes.count)
            for k in shapes.indices { try! b.add(shapes[k], transform: transforms[k]) }
            _ = b.build()
        } * 1e3)

        let l = try LayoutNumbers.measure(rounds: rounds, seconds: seconds)
        emit("layout.glyphs", Double(l.glyphs))
        emit("layout.lines", Double(l.lines))
        emit("layout.shared.ms", l.shared.median * 1e3)
        emit("layout.fresh.ms", l.fresh.median * 1e3)
        emit("layout.shared.bytes", l.counted ? l.sharedBytes : .nan)
        emit("layout.shared.allocs", l.counted ? l.sharedAllocs : .nan)
        emit("layout.shared.peak", l.counted ? l.sharedPeak : .nan)
        emit("layout.fresh.bytes", l.counted ? l.freshBytes : .nan)
        emit("layout.first.bytes", l.counted ? l.firstBytes : .nan)
    }
}
