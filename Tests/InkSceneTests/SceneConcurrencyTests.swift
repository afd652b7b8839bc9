import Testing
import InkGeometry
import InkScene
import InkTestSupport

/// Snapshots are values: queries from several tasks on one snapshot, while the scene it came from is
/// edited and snapshotted again, give the answers the snapshot gave alone (run under ThreadSanitizer by
/// `.ci/run`).
@Suite struct SceneConcurrencyTests {
    @Test func queriesDuringEditsSeeTheirSnapshot() async throws {
        var rng = SplitMix64(seed: 42)
        var scene = Scene(root: Node(id: "root", bounds: Rect(minX: 0, minY: 0, maxX: 400, maxY: 400), pointerEvents: .boxNone))
        for k in 0..<200 {
            let x = 380 * rng.unit(), y = 380 * rng.unit()
            try scene.add(Node(id: "n\(k)", bounds: Rect(minX: 0, minY: 0, maxX: 10 + 30 * rng.unit(), maxY: 10 + 30 * rng.unit()),
                               transform: .translation(x, y), shape: k % 3 == 0 ? .ellipse : .box), to: "root")
        }
        let first = try scene.snapshot()
        let points = (0..<500).map { _ in Point(400 * rng.unit(), 400 * rng.unit()) }
        let want = points.map { first.hit(at: $0, radius: 4)?.node }
        #expect(want.compactMap { $0 }.count > 100, "the points land on nodes")
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var bad = 0
                    for _ in 0..<10 {
                        for (p, w) in zip(points, want) where first.hit(at: p, radius: 4)?.node != w { bad += 1 }
                    }
                    return bad
                }
            }
            // Meanwhile: move, restyle, add and remove nodes, and take new snapshots.
            var edits = scene
            for k in 0..<60 {
                try edits.update("n\(k)") { $0.transform = .translation(Double(k), Double(k)); $0.isHidden = k % 2 == 0 }
                try edits.add(Node(id: "new\(k)", bounds: Rect(minX: 0, minY: 0, maxX: 400, maxY: 400)), to: "root")
                if k % 3 == 0 { try edits.remove("n\(199 - k)") }
                let s = try edits.snapshot()
                #expect(s.hit(at: Point(1, 1))?.node == "new\(k)", "the newest full-size node is on top")
            }
            var total = 0
            for try await bad in group { total += bad }
            return total
        }
        #expect(mismatches == 0)
        #expect(points.map { first.hit(at: $0, radius: 4)?.node } == want, "the first snapshot never changed")
    }
}
