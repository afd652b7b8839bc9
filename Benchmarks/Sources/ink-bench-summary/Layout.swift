import CMallocCounter
import Foundation
import InkBenchSupport

/// The layout benchmark: `LayoutWorkload`'s CJK-fallback paragraph laid out again and again with the fonts
/// loaded once, through one shape cache kept across layouts (shared) and through a fresh cache per layout
/// (fresh); wall-clock medians, and the bytes each layout allocates, counted by the malloc wrapper
/// (CMallocCounter) over `memoryLayouts` layouts. Copied into older commits by scripts/bench-compare.sh (see
/// Compare.swift): it uses only `LayoutWorkload` and `Timing`.
struct LayoutNumbers {
    var glyphs = 0, lines = 0
    /// Seconds per layout: median and fastest round.
    var shared = (median: 0.0, min: 0.0), fresh = (median: 0.0, min: 0.0)
    /// Per layout (mean over `memoryLayouts`): allocation calls, bytes requested, and the highest growth of
    /// live heap bytes during the layouts.
    var sharedAllocs = 0.0, sharedBytes = 0.0, sharedPeak = 0.0
    var freshAllocs = 0.0, freshBytes = 0.0, freshPeak = 0.0
    /// The first layout after loading the fonts (shared cache empty): bytes requested.
    var firstBytes = 0.0
    var memoryLayouts = 0
    var counted = false
    var fontFileBytes: [Int] = []

    /// Keeps an allocation alive where the optimizer cannot see through it.
    nonisolated(unsafe) static var sink: [UInt8] = []

    /// True when allocations of Swift code reach the counter.
    static func counterWorks() -> Bool {
        guard ink_malloc_counter_available() != 0 else { return false }
        ink_malloc_counter_start()
        sink = [UInt8](repeating: 1, count: 4096 + sink.count)
        let s = ink_malloc_counter_stop()
        return s.bytes >= 4096
    }

    static func measure(rounds: Int, seconds: Double, memoryLayouts: Int = 20) throws -> LayoutNumbers {
        var n = LayoutNumbers()
        n.memoryLayouts = memoryLayouts
        n.counted = counterWorks()
        let fonts = try LayoutWorkload.loadFonts()
        n.fontFileBytes = LayoutWorkload.fontPaths.map(fileSize)
        let cache = LayoutWorkload.makeCache()
        ink_malloc_counter_start()
        let first = try LayoutWorkload.layout(fonts, cache: cache)
        n.firstBytes = Double(ink_malloc_counter_stop().bytes)
        n.glyphs = first.glyphs.count
        n.lines = first.lines.count

        n.shared = Timing.stats(rounds: rounds, minSeconds: seconds) { _ = try! LayoutWorkload.layout(fonts, cache: cache) }
        n.fresh = Timing.stats(rounds: rounds, minSeconds: seconds) {
            _ = try! LayoutWorkload.layout(fonts, cache: LayoutWorkload.makeCache())
        }

        let k = Double(memoryLayouts)
        ink_malloc_counter_start()
        for _ in 0..<memoryLayouts { _ = try LayoutWorkload.layout(fonts, cache: cache) }
        var s = ink_malloc_counter_stop()
        (n.sharedAllocs, n.sharedBytes, n.sharedPeak) = (Double(s.allocations) / k, Double(s.bytes) / k, Double(s.peakLiveBytes))
        ink_malloc_counter_start()
        for _ in 0..<memoryLayouts { _ = try LayoutWorkload.layout(fonts, cache: LayoutWorkload.makeCache()) }
        s = ink_malloc_counter_stop()
        (n.freshAllocs, n.freshBytes, n.freshPeak) = (Double(s.allocations) / k, Double(s.bytes) / k, Double(s.peakLiveBytes))
        return n
    }

    static func fileSize(_ path: String) -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : -1
    }

    var markdown: String {
        func ms(_ s: Double) -> String { String(format: "%.3f", s * 1e3) }
        func kib(_ b: Double) -> String { String(format: "%.1f KiB", b / 1024) }
        var s = "## Layout: CJK-fallback paragraph (TextLayout)\n\n"
        s += "\(LayoutWorkload.text.unicodeScalars.count) characters, fonts \(LayoutWorkload.fontPaths.map { ($0 as NSString).lastPathComponent }.joined(separator: " → ")) "
        s += "(files: \(fontFileBytes.map { kib(Double($0)) }.joined(separator: ", "))), "
        s += "\(Int(LayoutWorkload.size)) px, width \(Int(LayoutWorkload.width)) px: \(glyphs) glyphs in \(lines) lines. "
        s += "Fonts loaded once; one layout = shaping, lines, placements and the layout's hit indexes.\n\n"
        s += "| shape cache | median ms per layout (fastest) | allocations per layout | bytes allocated per layout | peak live heap growth |\n"
        s += "|---|---|---|---|---|\n"
        s += "| shared (one cache for every layout, warm) | **\(ms(shared.median))** (\(ms(shared.min))) | \(Int(sharedAllocs.rounded())) | **\(kib(sharedBytes))** | \(kib(sharedPeak)) |\n"
        s += "| fresh (a new cache per layout) | **\(ms(fresh.median))** (\(ms(fresh.min))) | \(Int(freshAllocs.rounded())) | \(kib(freshBytes)) | \(kib(freshPeak)) |\n"
        s += "\nBytes: what malloc & co. were asked for (mean of \(memoryLayouts) layouts)"
        s += counted ? "" : " — **not counted** (the malloc wrapper is not active in this process)"
        s += "; the first layout after loading the fonts allocated \(kib(firstBytes)).\n"
        return s
    }
}
