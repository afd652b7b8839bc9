import CMallocCounter
import Foundation
import InkBenchRaster
import InkBenchSupport
import InkGeometry
@_spi(RawBuffers) @_spi(Benchmarks) import InkHit

/// `ink-bench-summary quick [--quick]`: the page's query numbers in one short run, `key<TAB>value` lines (ns per
/// point), for alternating A/B runs of two builds: batch at r = 0 and 3.5, loops of `contains`, `topmost(at:)`
/// (when the build has it) and the 1× coverage bitmap's lookup, and the warm build.
enum Quick {
    static func run(quick: Bool) throws {
        let rounds = quick ? 5 : 15, seconds = quick ? 0.2 : 0.6
        let w = try Workloads.page()
        let index = w.index, points = w.points, pts = w.pointBuffer, n = pts.count
        func ns(_ body: () -> Void) -> Double { Timing.median(rounds: rounds, minSeconds: seconds, body) * 1e9 / Double(n) }
        func emit(_ key: String, _ value: Double) { print("\(key)\t\(String(format: "%.6g", value))") }
        var answers = [Hit?](repeating: nil, count: n)
        let bitmap = try CoverageBitmap(fontPath: w.fontPath,
                                        glyphs: zip(w.glyphs, w.transforms).map { RasterGlyph(id: $0.id.rawValue, transform: $1) },
                                        viewBox: w.viewBox, scale: 1)
        var sink = 0
        emit("page.bitmap1x", ns { for p in pts where bitmap.isHit(p) { sink &+= 1 } })
        emit("page.r0.batch", ns { index.hits(for: points, radius: 0, into: &answers) })
        emit("page.r3.5.batch", ns { index.hits(for: points, radius: 3.5, into: &answers) })
        emit("page.contains", ns { for p in pts where index.contains(p) { sink &+= 1 } })
        emit("page.topmost", ns { for p in pts { if let k = index.topmost(at: p) { sink &+= k } } })
        var tops = [Int](repeating: -1, count: n)
        emit("page.topmost.batch", ns { tops.withUnsafeMutableBufferPointer { index.unsafeTopmost(for: pts, into: $0) } })
        emit("page.bitmap1x.again", ns { for p in pts where bitmap.isHit(p) { sink &+= 1 } })
        if CommandLine.arguments.contains("--split") {
            // The same loops over the points of each raster class alone (ns per point of that class).
            let groups: [(String, (Int) -> Bool)] = [("empty", { $0 >= 0 && $0 < 8 && $0 != 2 }), ("touch", { $0 >= 8 }),
                                                     ("touchOne", { $0 >= 8 && $0 < 12 }), ("nearOne", { $0 >= 4 && $0 < 8 }),
                                                     ("nearMany", { $0 == 1 }), ("touchMany", { $0 >= 12 }), ("far", { $0 == 0 })]
            for (name, test) in groups {
                let sub = points.filter { test(index.rasterCode(at: $0) ?? -1) }
                if sub.isEmpty { continue }
                var out = [Hit?](repeating: nil, count: sub.count)
                func nsSub(_ body: () -> Void) -> Double { Timing.median(rounds: rounds, minSeconds: seconds, body) * 1e9 / Double(sub.count) }
                emit("split.\(name).share", Double(sub.count) / Double(n))
                emit("split.\(name).r0", nsSub { index.hits(for: sub, radius: 0, into: &out) })
                emit("split.\(name).r3.5", nsSub { index.hits(for: sub, radius: 3.5, into: &out) })
                emit("split.\(name).topmost", nsSub { for p in sub { if let k = index.topmost(at: p) { sink &+= k } } })
                var tops = [Int](repeating: -1, count: sub.count)
                emit("split.\(name).topmost.batch", nsSub { sub.withUnsafeBufferPointer { sp in tops.withUnsafeMutableBufferPointer { index.unsafeTopmost(for: sp, into: $0) } } })
            }
        }
        if CommandLine.arguments.contains("--doc") {
            // Points uniform over a 200,000-glyph document.
            let d = try Workloads.scaling(200_000)
            var out = [Hit?](repeating: nil, count: d.points.count)
            let dpts = d.points
            emit("doc.r0.batch", ns { d.index.hits(for: dpts, radius: 0, into: &out) })
            emit("doc.r3.5.batch", ns { d.index.hits(for: dpts, radius: 3.5, into: &out) })
            var dt = [Int](repeating: -1, count: dpts.count)
            emit("doc.topmost.batch", ns { dpts.withUnsafeBufferPointer { pp in dt.withUnsafeMutableBufferPointer { d.index.unsafeTopmost(for: pp, into: $0) } } })
            emit("doc.bytesPerPlacement", Double(d.index.bytesBeyondShapes) / Double(d.index.count))
        }
        if CommandLine.arguments.contains("--allocs") {
            // Allocations of one batch call (the counter itself shows 1 on an empty region here).
            var out = [Hit?](repeating: nil, count: n)
            for r in [0.0, 2, 3.5, 8] {
                index.hits(for: points, radius: r, into: &out)
                ink_malloc_counter_start()
                index.hits(for: points, radius: r, into: &out)
                emit("allocs.batch.r\(r)", Double(ink_malloc_counter_stop().allocations))
            }
        }
        emit("page.build.warm.ms", Timing.median(rounds: rounds, minSeconds: seconds) { _ = try! w.buildIndex(font: w.font, cache: w.cache) } * 1e3)
        emit("page.bytesPerPlacement", Double(index.bytesBeyondShapes) / Double(index.count))
        if sink == -1 { print("") }
    }
}
