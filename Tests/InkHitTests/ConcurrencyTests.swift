import Dispatch
import Foundation
import InkGeometry
import InkTestSupport
@_spi(RawBuffers) import InkHit
import Testing

/// `HitIndex` is immutable and `Sendable`: one index queried from many threads at once gives exactly the
/// single-threaded answers (run under `swift test --sanitize=thread` by `.ci/run`).
struct ConcurrencyTests {
    static func scene() throws -> (HitIndex, [Point]) {
        var rng = SplitMix64(seed: 2024)
        let shapes = try (0..<6).map { _ in try GlyphShape(polygon: TestShapes.randomBlob(&rng, size: 1000)) }
        var b = HitIndex.Builder()
        for k in 0..<1500 { try b.add(shapes[k % shapes.count], transform: TestShapes.randomTransform(&rng, kind: k % 4)) }
        let points = (0..<3000).map { _ in Point(rng.range(-10, 260), rng.range(-10, 260)) }
        return (b.build(), points)
    }

    struct Answers: Equatable {
        var hits: [[Hit?]]          // per radius
        var contains: [Bool]
        var all: [[Hit]]            // hits(at:radius: 2.5)
    }
    static let radii = [0, 2.5, Double.infinity]

    static func answer(_ index: HitIndex, _ points: [Point], order: [Int]) -> Answers {
        var a = Answers(hits: radii.map { _ in [Hit?](repeating: nil, count: points.count) },
                        contains: [Bool](repeating: false, count: points.count),
                        all: [[Hit]](repeating: [], count: points.count))
        var buffer: [Hit] = []
        for i in order {
            for (k, r) in radii.enumerated() { a.hits[k][i] = index.hit(at: points[i], radius: r) }
            a.contains[i] = index.contains(points[i])
            index.allHits(at: points[i], radius: 2.5, into: &buffer)
            a.all[i] = buffer
        }
        return a
    }

    /// Results written by the threads, read after they finish.
    final class Box: @unchecked Sendable {
        let lock = NSLock()
        var byThread: [Int: Answers] = [:]
        func put(_ t: Int, _ a: Answers) { lock.lock(); byThread[t] = a; lock.unlock() }
    }

    @Test func tenThreadsGetTheSingleThreadedAnswers() throws {
        let (index, points) = try Self.scene()
        let expected = Self.answer(index, points, order: Array(points.indices))
        let box = Box()
        let threads = 10
        let done = DispatchGroup()
        for t in 0..<threads {
            done.enter()
            // Real threads (not a pool sized by the core count), each walking the points in its own order.
            let thread = Thread {
                let n = points.count
                let step = [1, 7, 11, 13, 17, 19, 23, 29, 31, 37][t]
                let order = (0..<n).map { ($0 * step + t) % n }
                box.put(t, Self.answer(index, points, order: order))
                done.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        done.wait()
        #expect(box.byThread.count == threads)
        for t in 0..<threads { #expect(box.byThread[t] == expected, "thread \(t)") }
    }

    @Test func batchAndConcurrentBatchMatchSingleQueries() throws {
        let (index, points) = try Self.scene()
        for r in Self.radii {
            let single = points.map { index.hit(at: $0, radius: r) }
            #expect(index.hits(for: points, radius: r) == single)
            var out = [Hit?](repeating: nil, count: points.count)
            points.withUnsafeBufferPointer { p in
                out.withUnsafeMutableBufferPointer { o in index.unsafeConcurrentHits(for: p, radius: r, into: o, chunks: 16) }
            }
            #expect(out == single, "r = \(r)")
        }
    }

    /// Indexes built on several threads at once from the same shared shapes are identical.
    @Test func buildingFromSharedShapesOnManyThreads() throws {
        var rng = SplitMix64(seed: 9)
        let shapes = try (0..<4).map { _ in try GlyphShape(polygon: TestShapes.randomBlob(&rng, size: 1000)) }
        let transforms = (0..<400).map { k in TestShapes.randomTransform(&rng, kind: k % 4) }
        let points = (0..<500).map { _ in Point(rng.range(0, 220), rng.range(0, 220)) }
        @Sendable func build() throws(HitIndexError) -> [Hit?] {
            var b = HitIndex.Builder()
            for (k, t) in transforms.enumerated() { try b.add(shapes[k % 4], transform: t) }
            let index = b.build()
            return points.map { index.hit(at: $0, radius: 1.5) }
        }
        let expected = try build()
        #expect(expected.contains { $0 != nil } && expected.contains { $0 == nil }, "the points see hits and misses")
        final class Results: @unchecked Sendable { let lock = NSLock(); var all: [Result<[Hit?], HitIndexError>] = [] }
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let r = Result { () throws(HitIndexError) in try build() }
            results.lock.lock(); results.all.append(r); results.lock.unlock()
        }
        #expect(results.all.count == 8 && results.all.allSatisfy { (try? $0.get()) == expected })
    }
}
