#if canImport(Glibc)
import Glibc
#endif
import CInkHit
import Dispatch
import Foundation
import InkTestSupport
import Testing

/// The handle registry: handles are detected when released (also after their slot is reused), of another
/// type, or made up; many handles cross the registry's chunks; handles are made, used and released from
/// several threads at once while others query (clean under ThreadSanitizer in CI).
struct HandleTests {
    @Test func aReleasedHandleStaysInvalidAfterItsSlotIsReused() throws {
        var first: inkhit_builder?
        ok(inkhit_builder_create(0, &first))
        ok(inkhit_builder_release(first))
        // Reuse slots: released slots are handed out last-in first-out, so one of these takes first's slot
        // (other tests running at the same time may take it first: then it is simply never reused here).
        var later: [inkhit_builder?] = []
        for _ in 0..<8 {
            var b: inkhit_builder?
            ok(inkhit_builder_create(0, &b))
            later.append(b)
            #expect(b != first)
        }
        var n = 0
        fails(inkhit_builder_count(first, &n), INKHIT_ERROR_INVALID_HANDLE, "builder is a builder handle that was already released")
        fails(inkhit_builder_release(first), INKHIT_ERROR_INVALID_HANDLE, "already released")
        for b in later {
            ok(inkhit_builder_count(b, &n))
            #expect(n == 0)
            ok(inkhit_builder_release(b))
        }
    }

    @Test func madeUpAndForeignHandles() {
        var n = 0
        // Slot numbers far beyond any handed out, even generations (never live), a wild pointer's bits.
        for bits: UInt in [1, 2, 0x1_0000_0000 | 5_000_000, 0x2_0000_0000, 0xDEAD_BEEF_0000_0007, UInt.max] {
            fails(inkhit_builder_count(OpaquePointer(bitPattern: bits), &n), INKHIT_ERROR_INVALID_HANDLE,
                  "is not a handle InkHit handed out")
            fails(inkhit_index_release(OpaquePointer(bitPattern: bits)), INKHIT_ERROR_INVALID_HANDLE, "not a handle")
        }
        var cache: inkhit_shape_cache?
        ok(inkhit_shape_cache_create(1 << 20, &cache))
        fails(inkhit_builder_count(cache, &n), INKHIT_ERROR_INVALID_HANDLE, "builder is a shape cache handle, not a builder handle")
        fails(inkhit_scene_release(cache), INKHIT_ERROR_INVALID_HANDLE, "scene is a shape cache handle, not a scene handle")
        ok(inkhit_shape_cache_release(cache))
        fails(inkhit_builder_count(nil, &n), INKHIT_ERROR_NULL_ARGUMENT, "builder is NULL")
    }

    /// 10,000 live handles span three chunks of 4,096 slots; all answer, then all are released and refused.
    @Test func tenThousandHandles() {
        var handles: [inkhit_builder?] = []
        for _ in 0..<10_000 {
            var b: inkhit_builder?
            ok(inkhit_builder_create(0, &b))
            handles.append(b)
        }
        #expect(Set(handles.map { UInt(bitPattern: $0) }).count == 10_000)
        #expect(inkhit_handle_count() >= 10_000)
        var n = -1
        for b in handles { ok(inkhit_builder_count(b, &n)) }
        for b in handles { ok(inkhit_builder_release(b)) }
        for b in handles.prefix(100) { fails(inkhit_builder_count(b, &n), INKHIT_ERROR_INVALID_HANDLE, "already released") }
    }

    /// Four threads make, use and release their own handles while four others query one shared index and its
    /// builder takes more placements: answers equal one thread's, every status is OK, and each thread's
    /// message is its own.
    @Test func handlesAcrossThreads() throws {
        let verbs: [UInt8] = [UInt8(INKHIT_VERB_MOVE), UInt8(INKHIT_VERB_LINE), UInt8(INKHIT_VERB_LINE), UInt8(INKHIT_VERB_CLOSE)]
        let triangle = [inkhit_point(x: 0, y: 0), inkhit_point(x: 10, y: 0), inkhit_point(x: 0, y: 10)]
        var builder: inkhit_builder?
        ok(inkhit_builder_create(0, &builder))
        for i in 0..<50 {
            var t = inkhit_transform(a: 1, b: 0, c: 0, d: 1, tx: Double(i % 10) * 12, ty: Double(i / 10) * 12)
            ok(inkhit_builder_add_outline(builder, nil, 0, verbs, verbs.count, triangle, triangle.count,
                                          Int32(INKHIT_FILL_NONZERO), &t, nil))
        }
        var index: inkhit_index?
        ok(inkhit_builder_build(builder, &index))
        var rng = SplitMix64(seed: 3)
        let points = (0..<500).map { _ in inkhit_point(x: rng.range(-5, 125), y: rng.range(-5, 65)) }
        var answers = [inkhit_hit](repeating: inkhit_hit(), count: points.count)
        ok(inkhit_index_hits(index, points, points.count, 1.5, &answers))
        let expected = answers

        let sharedIndex = UInt(bitPattern: index), sharedBuilder = UInt(bitPattern: builder)
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            var wrong = 0
            if worker < 4 {
                for round in 0..<200 {
                    var mine: inkhit_builder?
                    if inkhit_builder_create(0, &mine) != 0 { wrong += 1; continue }
                    var t = inkhit_transform(a: 2, b: 0, c: 0, d: 2, tx: Double(round), ty: 0)
                    if inkhit_builder_add_outline(mine, nil, 0, verbs, verbs.count, triangle, triangle.count,
                                                  Int32(INKHIT_FILL_NONZERO), &t, nil) != 0 { wrong += 1 }
                    var built: inkhit_index?
                    if inkhit_builder_build(mine, &built) != 0 { wrong += 1 }
                    var h = inkhit_hit()
                    if inkhit_index_hit(built, Double(round) + 1, 1, 0, &h) != 0 || h.hit != 1 { wrong += 1 }
                    if inkhit_index_release(built) != 0 || inkhit_builder_release(mine) != 0 { wrong += 1 }
                    if inkhit_builder_release(mine) != inkhit_status(INKHIT_ERROR_INVALID_HANDLE) { wrong += 1 }
                    // This thread's message is about its own double release.
                    if !lastError.hasPrefix("inkhit_builder_release: builder is a builder handle that was already released") {
                        wrong += 1
                    }
                    // More placements on the shared builder (locked), which the shared index does not see.
                    if inkhit_builder_add_outline(OpaquePointer(bitPattern: sharedBuilder), nil, 0, verbs, verbs.count,
                                                  triangle, triangle.count, Int32(INKHIT_FILL_NONZERO), &t, nil) != 0 {
                        wrong += 1
                    }
                }
            } else {
                var answers = [inkhit_hit](repeating: inkhit_hit(), count: points.count)
                for _ in 0..<20 {
                    if inkhit_index_hits(OpaquePointer(bitPattern: sharedIndex), points, points.count, 1.5, &answers) != 0 {
                        wrong += 1
                    }
                    for (a, e) in zip(answers, expected) where a.hit != e.hit || a.placement != e.placement || a.distance != e.distance
                        && !(a.distance.isNaN && e.distance.isNaN) {
                        wrong += 1
                    }
                }
            }
            failures.add(wrong)
        }
        #expect(failures.value == 0)
        var n = 0
        ok(inkhit_builder_count(builder, &n))
        #expect(n == 50 + 4 * 200)
        ok(inkhit_index_release(index))
        ok(inkhit_builder_release(builder))
    }
}

extension HandleTests {
    /// Handles released while other threads are inside calls that use them: queries of an index,
    /// a snapshot and a layout, and a builder taking placements, on three threads, while the main thread
    /// releases each handle in turn. Every call answers whole (its status OK with the answer one thread gets)
    /// or finds the handle released (INVALID_HANDLE with a miss); nothing reads freed memory (this test
    /// runs under AddressSanitizer and ThreadSanitizer in CI).
    @Test func handlesReleasedWhileOtherThreadsUseThem() async throws {
        let verbs: [UInt8] = [UInt8(INKHIT_VERB_MOVE), UInt8(INKHIT_VERB_LINE), UInt8(INKHIT_VERB_LINE), UInt8(INKHIT_VERB_CLOSE)]
        let triangle = [inkhit_point(x: 0, y: 0), inkhit_point(x: 10, y: 0), inkhit_point(x: 0, y: 10)]
        for round in 0..<10 {
            var builder: inkhit_builder?
            ok(inkhit_builder_create(0, &builder))
            var t = identity
            ok(inkhit_builder_add_outline(builder, nil, 0, verbs, verbs.count, triangle, triangle.count, Int32(INKHIT_FILL_NONZERO), &t, nil))
            var index: inkhit_index?
            ok(inkhit_builder_build(builder, &index))
            var node = inkhit_node()
            ok(inkhit_node_init(&node, 1))
            node.bounds = inkhit_rect(min_x: 0, min_y: 0, max_x: 10, max_y: 10)
            node.shape = Int32(INKHIT_SHAPE_ELLIPSE)
            var scene: inkhit_scene?
            ok(inkhit_scene_create(&node, &scene))
            var snapshot: inkhit_snapshot?
            ok(inkhit_scene_snapshot(scene, 0, &snapshot))
            ok(inkhit_scene_release(scene))
            let handles = [UInt(bitPattern: index), UInt(bitPattern: snapshot), UInt(bitPattern: builder)]
            let stop = Counter(), wrong = Counter(), answered = Counter(), finished = Counter()
            // Three threads of their own (not a pool's: they spin until the release, whatever the cores); this
            // test only suspends while they run.
            for worker in 0..<3 {
                Thread.detachNewThread {
                    Self.useUntilStopped(worker, handles, stop: stop, wrong: wrong, answered: answered)
                    finished.add(1)
                }
            }
            // Let them get going, then release the three handles, one after another.
            let start = Date()
            while answered.value < 300 && Date().timeIntervalSince(start) < 30 { try await Task.sleep(for: .milliseconds(1)) }
            ok(inkhit_index_release(index))
            ok(inkhit_snapshot_release(snapshot))
            ok(inkhit_builder_release(builder))
            stop.add(1)
            while finished.value < 3 { try await Task.sleep(for: .milliseconds(1)) }
            #expect(wrong.value == 0, "round \(round)")
            var h = inkhit_hit()
            fails(inkhit_index_hit(index, 2, 2, 0, &h), INKHIT_ERROR_INVALID_HANDLE, "already released")
        }
    }

    /// One thread's calls on a handle of `handles` until `stop` (at least 50 after it): each answer whole or
    /// the handle found released.
    static func useUntilStopped(_ worker: Int, _ handles: [UInt], stop: Counter, wrong: Counter, answered: Counter) {
        let verbs: [UInt8] = [UInt8(INKHIT_VERB_MOVE), UInt8(INKHIT_VERB_LINE), UInt8(INKHIT_VERB_LINE), UInt8(INKHIT_VERB_CLOSE)]
        let triangle = [inkhit_point(x: 0, y: 0), inkhit_point(x: 10, y: 0), inkhit_point(x: 0, y: 10)]
        var calls = 0, after = 0
        while after < 50 {
            if stop.value > 0 { after += 1 }
            calls += 1
            let status: inkhit_status
            var good = true
            switch worker {
            case 0:
                var h = inkhit_hit()
                status = inkhit_index_hit(OpaquePointer(bitPattern: handles[0]), 2, 2, 0, &h)
                good = status == 0 ? h.hit == 1 && h.placement == 0 : h.hit == 0
            case 1:
                var h = inkhit_scene_hit()
                status = inkhit_snapshot_hit(OpaquePointer(bitPattern: handles[1]), 5, 5, 0, &h)
                good = status == 0 ? h.hit == 1 && h.node == 1 : h.hit == 0
            default:
                var t = identity
                status = inkhit_builder_add_outline(OpaquePointer(bitPattern: handles[2]), nil, 0, verbs, verbs.count, triangle,
                                                    triangle.count, Int32(INKHIT_FILL_NONZERO), &t, nil)
            }
            if !good || (status != 0 && status != inkhit_status(INKHIT_ERROR_INVALID_HANDLE)) { wrong.add(1) }
            if status == 0 && calls % 16 == 0 { answered.add(16) }
            if calls > 50_000_000 { wrong.add(1); return }
        }
    }
}

/// A counter shared by worker threads.
final class Counter: @unchecked Sendable {
    private let lock = DispatchQueue(label: "counter")
    private var total = 0
    func add(_ n: Int) { lock.sync { total += n } }
    var value: Int { lock.sync { total } }
}
