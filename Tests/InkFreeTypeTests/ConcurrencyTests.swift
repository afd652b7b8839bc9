import Dispatch
import Foundation
import InkFreeType
import InkGeometry
import Testing

@Suite("Font is Sendable: one face shared by many threads")
struct ConcurrencyTests {
    /// Results written by many threads, read after they finish.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var byThread: [Int: [GlyphOutline]] = [:]
        private var advancesByThread: [Int: [Double]] = [:]

        func store(_ thread: Int, _ outlines: [GlyphOutline], _ advances: [Double]) {
            lock.lock(); defer { lock.unlock() }
            byThread[thread] = outlines
            advancesByThread[thread] = advances
        }
        func outlines(_ thread: Int) -> [GlyphOutline]? { lock.lock(); defer { lock.unlock() }; return byThread[thread] }
        func advances(_ thread: Int) -> [Double]? { lock.lock(); defer { lock.unlock() }; return advancesByThread[thread] }
    }

    @Test func eightThreadsGetTheSingleThreadedOutlines() throws {
        let font = try Fonts.load(Fonts.dejaVuSans)
        let glyphs = (0..<200).map { GlyphID(UInt32(($0 * 31) % font.glyphCount)) }
        let expected = try glyphs.map { try font.outline(glyph: $0) }
        let expectedAdvances = try glyphs.map { try font.advance(of: $0) }

        let results = Results()
        let multipliers = [1, 3, 7, 9, 11, 13, 17, 19]             // coprime to 200: permutations
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var outlines: [GlyphOutline] = []
            var advances: [Double] = []
            // Each thread walks the glyphs in its own order, so threads interleave differently.
            for k in 0..<glyphs.count {
                let i = (k * multipliers[thread]) % glyphs.count
                outlines.append((try? font.outline(glyph: glyphs[i])) ?? .empty)
                advances.append((try? font.advance(of: glyphs[i])) ?? -1)
                _ = font.kerning(glyphs[i], glyphs[(i + 1) % glyphs.count])
                _ = font.glyph(for: "a")
            }
            // Undo the thread's order.
            var ordered = [GlyphOutline](repeating: .empty, count: glyphs.count)
            var orderedAdvances = [Double](repeating: -1, count: glyphs.count)
            for k in 0..<glyphs.count {
                let i = (k * multipliers[thread]) % glyphs.count
                ordered[i] = outlines[k]
                orderedAdvances[i] = advances[k]
            }
            results.store(thread, ordered, orderedAdvances)
        }
        for thread in 0..<8 {
            #expect(results.outlines(thread) == expected, "thread \(thread)")
            #expect(results.advances(thread) == expectedAdvances, "thread \(thread)")
        }
    }

    @Test func fontsLoadedConcurrentlyGetDistinctIDs() throws {
        let bytes = try Fonts.bytes(Fonts.dejaVuSansMono)
        let lock = NSLock()
        nonisolated(unsafe) var ids: [UInt64] = []
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            guard let font = try? Font(bytes: bytes) else { return }
            lock.lock(); ids.append(font.id); lock.unlock()
        }
        #expect(ids.count == 16)
        #expect(Set(ids).count == 16)
    }
}
