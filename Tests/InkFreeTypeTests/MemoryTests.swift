import Foundation
import InkFreeType
import InkGeometry
import InkHit
import InkTestSupport
import Testing

/// Building and dropping 10,000 fonts and indexes keeps memory flat: resident memory (from
/// /proc/self/statm) after the loop is within a few MB of what it was after a warm-up.
///
/// Resident memory is the whole process's, so other suites running in parallel would disturb it: the
/// test runs only when `INKHIT_MEMORY_TEST=1`, which `.ci/run` sets for a process of its own
/// (`INKHIT_MEMORY_TEST=1 swift test --filter 'InkFreeTypeTests\.MemoryTests'`: a bare `MemoryTests`
/// also matches `PeakMemoryTests`, whose allocations in the same process would grow this RSS by ~190 MB).
/// Under AddressSanitizer or ThreadSanitizer, freed memory is held back on purpose (quarantine, shadow
/// memory), so the RSS check is skipped there; ASan's leak checker reports leaks at exit instead.
@Suite("Memory stays flat", .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["INKHIT_MEMORY_TEST"] == "1", "set INKHIT_MEMORY_TEST=1 (run alone)"))
struct MemoryTests {
    /// Resident set size in bytes, or nil where /proc is missing.
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    static let tiny = TinyFont.trueType([.empty, .simple([[TinyFont.P(x: 0, y: 0), TinyFont.P(x: 600, y: 0), TinyFont.P(x: 600, y: 700),
                                                            TinyFont.P(x: 0, y: 700)]]),
                                         .simple([[TinyFont.P(x: 0, y: 0), TinyFont.P(x: 300, y: 700, on: false), TinyFont.P(x: 600, y: 0)]])])

    /// One round: DejaVu Sans Mono and a tiny font loaded from memory, an outline read, shapes built in the
    /// round's own cache (the tiny square always, its curved glyph every 10th round, DejaVu's "o" every
    /// 100th: a debug build grids a square in ~0.5 ms and an "o" in ~5 ms), an index of six placements, a
    /// few queries; everything dropped at the end.
    static func round(_ bytes: [UInt8], _ k: Int) throws -> Int {
        let font = try Font(bytes: bytes)
        let tinyFont = try Font(bytes: Self.tiny)
        let o = font.glyph(for: "o") ?? 0
        _ = try font.outline(glyph: GlyphID(UInt32(k % font.glyphCount)))
        let cache = FontShapeCache()
        var builder = HitIndex.Builder()
        var sources: [(Font, GlyphID)] = [(tinyFont, 1)]
        if k % 10 == 0 { sources.append((tinyFont, 2)) }
        if k % 100 == 0 { sources.append((font, o)) }
        for n in 0..<6 {
            let (f, g) = sources[n % sources.count]
            try builder.add(GlyphPlacement(font: f, glyph: g, size: 16, origin: Point(Double(n) * 30, 40)), cache: cache)
        }
        let index = builder.build()
        var hits = 0
        for i in 0..<8 where index.hit(at: Point(Double(i) * 11, 30), radius: 2) != nil { hits += 1 }
        return hits
    }

    @Test func tenThousandFontsAndIndexesKeepMemoryFlat() throws {
        let bytes = try Fonts.bytes(Fonts.dejaVuSansMono)
        var hits = 0
        for k in 0..<300 { hits += try Self.round(bytes, k) }             // warm-up: allocator pools, caches
        // The suite runs only when asked for; a reading that fails then is a failure, not a pass.
        let before = try #require(Self.residentBytes(), "resident memory could not be read from /proc/self/statm")
        let start = ContinuousClock.now
        for k in 0..<10_000 { hits += try Self.round(bytes, k) }
        let after = try #require(Self.residentBytes(), "resident memory could not be read from /proc/self/statm")
        let growth = Double(after - before) / 1e6
        print("10,000 fonts + indexes: RSS \(before / 1_000_000) MB → \(after / 1_000_000) MB (\(growth) MB) in \(ContinuousClock.now - start)")
        #expect(hits > 0)
        if !Sanitizers.active {
            // A leak of one font (340 kB) per round would be 3.4 GB; of one shape, ~50 MB.
            #expect(growth < 16, "RSS grew by \(growth) MB over 10,000 rounds")
        }
    }
}
