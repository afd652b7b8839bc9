#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import InkGeometry
import InkHit
import InkFreeType
import InkText
import InkScene
import InkTestSupport

/// Snapshots after edits: the incremental snapshot (which rebuilds only what an edit touched) must answer
/// exactly as a scene built afresh from the same nodes, and as the recursive reference of the rule; earlier
/// snapshots must not change; wide and deep scenes must stay correct and be freed without recursion.
@Suite struct SceneEditTests {
    /// The scene's nodes as the reference's tree (pre-order from the root, through the public API only).
    static func refTree(_ scene: Scene) -> [SceneDifferentialTests.RefNode] {
        var out: [SceneDifferentialTests.RefNode] = []
        var index: [String: Int] = [:]
        var stack = [scene.rootID]
        var order: [String] = []
        while let id = stack.popLast() {
            order.append(id)
            stack += (scene.children(of: id) ?? []).reversed()
        }
        for id in order {
            index[id] = out.count
            out.append(.init(node: scene.node(id)!, children: []))
        }
        for id in order { out[index[id]!].children = (scene.children(of: id) ?? []).map { index[$0]! } }
        return out
    }

    /// A scene built afresh (no history) from `scene`'s nodes.
    static func rebuilt(_ scene: Scene) throws -> Scene {
        var fresh = Scene(root: scene.node(scene.rootID)!)
        var stack = [scene.rootID]
        while let id = stack.popLast() {
            for c in scene.children(of: id) ?? [] {
                try fresh.add(scene.node(c)!, to: id)
                stack.append(c)
            }
        }
        return fresh
    }

    /// Same node, same inside flag, same glyph and the same distance (both are exact for the same polygons).
    static func same(_ a: SceneHit?, _ b: SceneHit?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.node == b.node && a.isInside == b.isInside && a.placement == b.placement && a.path == b.path
            && isClose(a.distance, b.distance, within: 1e-9 * (1 + abs(a.distance)))
    }

    @Test(arguments: 1...12)
    func editsAnswerLikeAFreshBuildAndTheReference(seed: Int) throws {
        var (scene, _) = try SceneDifferentialTests.randomScene(seed: UInt64(seed))
        var rng = SplitMix64(seed: UInt64(seed) &* 7919)
        func u(_ a: Double, _ b: Double) -> Double { a + (b - a) * rng.unit() }
        var next = 1000
        var kept: [(SceneSnapshot, [Point], [SceneHit?])] = []
        for round in 0..<12 {
            // A few edits of every kind, then one snapshot.
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let ids = refTreeIDs(scene)
                let id = ids[Int(rng.next() % UInt64(ids.count))]
                switch rng.next() % 8 {
                case 0, 1: try scene.update(id) { $0.transform = $0.transform.concatenating(.translation(u(-30, 30), u(-30, 30))) }
                case 2: try scene.update(id) { $0.transform = AffineTransform.rotation(u(-1, 1)).concatenating($0.transform) }
                case 3: try scene.update(id) { $0.isHidden.toggle() }
                case 4: try scene.update(id) { $0.clipsChildren.toggle(); $0.pointerEvents = [.auto, .boxNone, .boxOnly, .none][Int(rng.next() % 4)] }
                case 5: try scene.update(id) { n in
                    n.bounds = Rect(minX: n.bounds.minX, minY: n.bounds.minY, maxX: n.bounds.minX + u(4, 100), maxY: n.bounds.minY + u(4, 100))
                    n.slop = EdgeInsets(all: u(-10, 3))
                }
                case 6 where id != scene.rootID: try scene.remove(id)
                default:
                    let shapes: [NodeShape] = [.box, .ellipse, .roundRect(radius: u(0, 20))]
                    try scene.add(Node(id: "e\(next)", bounds: Rect(minX: 0, minY: 0, maxX: u(5, 80), maxY: u(5, 80)),
                                       transform: .translation(u(-20, 200), u(-20, 200)), shape: shapes[Int(rng.next() % 3)]), to: id)
                    next += 1
                }
            }
            let incremental = try scene.snapshot()
            let fresh = try Self.rebuilt(scene).snapshot()
            let ref = Self.refTree(scene)
            var points: [Point] = [], answers: [SceneHit?] = []
            var checked = 0
            for k in 0..<150 {
                let p = Point(u(-30, 430), u(-30, 430))
                let r = k % 2 == 0 ? 0.0 : 8.0
                let got = incremental.hit(at: p, radius: r)
                #expect(Self.same(got, fresh.hit(at: p, radius: r)), "seed \(seed) round \(round): \(p) r \(r)")
                let (want, ambiguous) = SceneDifferentialTests.reference(ref, p, radius: r)
                if !ambiguous {
                    checked += 1
                    #expect(got?.node == want, "seed \(seed) round \(round): \(p) r \(r)")
                }
                if r == 0 { points.append(p); answers.append(got) }
            }
            #expect(checked > 100)
            kept.append((incremental, points, answers))
        }
        // Every earlier snapshot still answers as it did.
        for (snapshot, points, answers) in kept {
            for (p, a) in zip(points, answers) { #expect(Self.same(snapshot.hit(at: p), a)) }
        }
    }

    func refTreeIDs(_ scene: Scene) -> [String] { Self.refTree(scene).map(\.node.id) }

    /// Text, glyph-run, mask and path leaves under rotations and moves: the incremental snapshot reuses or
    /// rebuilds their regions; answers (glyph, character, distance) equal a fresh build's.
    @Test func leafRegionsSurviveMovesAndTurns() throws {
        let sans = try TestFonts.load(TestFonts.sans)
        let layout = try TextLayout(text: "Hello, wide world", style: TextStyle(fonts: [sans], size: 24),
                                    links: [TextLink(range: 7..<11, tag: "wide")])
        let run = layout.glyphs.indices.map { layout.placement(of: $0) }
        var alpha = [UInt8](repeating: 0, count: 16 * 16)
        for y in 0..<16 { for x in 0..<16 where (x - 8) * (x - 8) + (y - 8) * (y - 8) < 40 { alpha[y * 16 + x] = 255 } }
        let mask = try #require(AlphaMask(width: 16, height: 16, alpha: alpha))
        let star: [PathElement] = [.move(Point(0, -20)), .line(Point(6, 10)), .line(Point(-10, -8)), .line(Point(10, -8)), .line(Point(-6, 10)), .close]
        var scene = Scene(root: Node(id: "root", bounds: Rect(minX: 0, minY: 0, maxX: 500, maxY: 500), pointerEvents: .boxNone))
        try scene.add(Node(id: "card", bounds: Rect(minX: 0, minY: 0, maxX: 300, maxY: 200), transform: .translation(50, 50)), to: "root")
        try scene.add(Node(id: "text", bounds: layout.lines[0].box, transform: .translation(10, 40), shape: .text(layout)), to: "card")
        try scene.add(Node(id: "run", bounds: layout.lines[0].box, transform: .translation(10, 100), shape: .glyphs(run, holes: .filledCounters)), to: "card")
        try scene.add(Node(id: "mask", bounds: Rect(minX: 0, minY: 0, maxX: 32, maxY: 32), transform: .translation(240, 130), shape: .mask(mask)), to: "card")
        try scene.add(Node(id: "star", bounds: Rect(minX: -20, minY: -20, maxX: 20, maxY: 20), transform: .translation(200, 170),
                           shape: .path(star, fillRule: .evenOdd)), to: "card")
        var rng = SplitMix64(seed: 99)
        let edits: [(inout Scene) throws -> Void] = [
            { try $0.update("card") { $0.transform = $0.transform.concatenating(.translation(13, -7)) } },
            { try $0.update("text") { $0.transform = AffineTransform.rotation(0.3).concatenating($0.transform) } },
            { try $0.update("card") { $0.transform = AffineTransform.scale(1.3, 0.8).concatenating($0.transform) } },
            { try $0.update("mask") { $0.transform = $0.transform.concatenating(.translation(-40, 5)) } },
            { try $0.update("run") { $0.slop = EdgeInsets(all: -6) } },
            { try $0.update("card") { $0.transform = .translation(50, 50) } },
        ]
        for edit in edits {
            try edit(&scene)
            let a = try scene.snapshot(), b = try Self.rebuilt(scene).snapshot()
            var hits = 0
            for k in 0..<3000 {
                let p = Point(40 + 330 * rng.unit(), 40 + 230 * rng.unit())
                let r = k % 3 == 0 ? 4.0 : 0
                let x = a.hit(at: p, radius: r), y = b.hit(at: p, radius: r)
                #expect(Self.same(x, y), "\(p) r \(r): \(String(describing: x?.node)) vs \(String(describing: y?.node))")
                #expect(x?.text?.utf16 == y?.text?.utf16 && x?.text?.link == y?.text?.link)
                if x?.node != "card" && x != nil { hits += 1 }
            }
            #expect(hits > 100, "the leaves are hit")
        }
    }

    /// A text leaf hits its attachments (their boxes lie on top of the text) and reports their tags.
    @Test func textLeavesHitAttachments() throws {
        let sans = try TestFonts.load(TestFonts.sans)
        let text = "pic \u{FFFC} end"
        let layout = try TextLayout(text: text, style: TextStyle(fonts: [sans], size: 20),
                                    attachments: [TextAttachment(at: 4, width: 30, ascent: 18, descent: 4, tag: "img")])
        let box = try #require(layout.attachments.first).box
        for turn in [0.0, 0.4] {
            var scene = Scene(root: Node(id: "root", bounds: Rect(minX: -500, minY: -500, maxX: 500, maxY: 500), pointerEvents: .boxNone))
            let t = AffineTransform.rotation(turn).concatenating(.translation(30, 30))
            try scene.add(Node(id: "t", bounds: layout.lines[0].box, transform: t, shape: .text(layout)), to: "root")
            let s = try scene.snapshot()
            let inside = box.center.applying(t)
            let h = try #require(s.hit(at: inside), "turn \(turn)")
            #expect(h.node == "t" && h.placement == nil && h.text?.attachment == "img" && h.text?.utf16 == 4..<5 && h.isInside)
            // 3 px to the right of the box (and of any ink: the next glyph is a space): hit by radius only.
            let beside = Point(box.maxX + 3, box.center.y).applying(t)
            #expect(s.hit(at: beside) == nil)
            let near = try #require(s.hit(at: beside, radius: 5))
            // Exact up to the query path's rounding (Float32 maps and anchors): 1e-6 × (distance + the box's
            // longest side, 30 px), the hit rule's tie window.
            #expect(near.text?.attachment == "img" && !near.isInside && isClose(near.distance, 3, within: 1e-6 * (3 + 30)),
                    "\(near.distance)")
        }
    }

    /// 10,000 children of one node, scattered (boxes: the reference measures every node for every point), so
    /// the spatial tree must give the rule's answer, also after moving some of them.
    @Test func tenThousandChildren() throws {
        var rng = SplitMix64(seed: 5)
        var scene = Scene(root: Node(id: "root", bounds: Rect(minX: 0, minY: 0, maxX: 1000, maxY: 1000), pointerEvents: .boxNone))
        for k in 0..<10_000 {
            let x = 1000 * rng.unit(), y = 1000 * rng.unit()
            try scene.add(Node(id: "c\(k)", bounds: Rect(minX: 0, minY: 0, maxX: 4 + 10 * rng.unit(), maxY: 4 + 10 * rng.unit()),
                               transform: .translation(x, y)), to: "root")
        }
        func check(_ s: SceneSnapshot) {
            let ref = Self.refTree(scene)
            for k in 0..<120 {
                let p = Point(1000 * rng.unit(), 1000 * rng.unit())
                let r = k % 2 == 0 ? 0.0 : 6.0
                let (want, ambiguous) = SceneDifferentialTests.reference(ref, p, radius: r)
                if !ambiguous { #expect(s.hit(at: p, radius: r)?.node == want, "\(p) r \(r)") }
            }
        }
        check(try scene.snapshot())
        for k in stride(from: 0, to: 10_000, by: 97) {
            try scene.update("c\(k)") { $0.transform = .translation(1000 * rng.unit(), 1000 * rng.unit()) }
        }
        check(try scene.snapshot())
    }

    /// A wide node whose children overlap in random z-order (their order among siblings decides, not their
    /// place in the spatial tree), moved a few at a time over many snapshots (refitted in place, then sorted
    /// again once a quarter of them moved), some removed and added: every snapshot answers as the reference.
    @Test func wideNodeInRandomOrderUnderEdits() throws {
        var rng = SplitMix64(seed: 17)
        var scene = Scene(root: Node(id: "root", bounds: Rect(minX: 0, minY: 0, maxX: 400, maxY: 400), pointerEvents: .boxNone))
        var next = 0
        func addChild() throws {
            try scene.add(Node(id: "c\(next)", bounds: Rect(minX: 0, minY: 0, maxX: 5 + 40 * rng.unit(), maxY: 5 + 40 * rng.unit()),
                               transform: .translation(400 * rng.unit() - 20, 400 * rng.unit() - 20)), to: "root")
            next += 1
        }
        for _ in 0..<600 { try addChild() }
        for round in 0..<8 {
            for _ in 0..<(round == 5 ? 40 : 3) {
                let k = Int(rng.next() % UInt64(next))
                if scene.node("c\(k)") != nil {
                    try scene.update("c\(k)") { $0.transform = .translation(400 * rng.unit() - 20, 400 * rng.unit() - 20) }
                }
            }
            if round == 6 {
                for _ in 0..<10 { let k = Int(rng.next() % UInt64(next)); if scene.node("c\(k)") != nil { try scene.remove("c\(k)") } }
                for _ in 0..<10 { try addChild() }
            }
            let s = try scene.snapshot()
            let ref = Self.refTree(scene)
            var checked = 0
            for k in 0..<100 {
                let p = Point(420 * rng.unit() - 10, 420 * rng.unit() - 10)
                let r = k % 2 == 0 ? 0.0 : 5.0
                let (want, ambiguous) = SceneDifferentialTests.reference(ref, p, radius: r)
                if !ambiguous { checked += 1; #expect(s.hit(at: p, radius: r)?.node == want, "round \(round): \(p) r \(r)") }
            }
            #expect(checked > 50)
            #expect(Self.same(s.hit(at: Point(200, 200), radius: 3), try Self.rebuilt(scene).snapshot().hit(at: Point(200, 200), radius: 3)))
        }
    }

    /// A 10,000-level scene and its snapshots are freed on a thread with a 256 KiB stack (recursive release
    /// of the chain would overflow it).
    @Test func deepScenesAreFreedWithoutRecursion() throws {
        final class Box: @unchecked Sendable { var scene: Scene?; var snapshot: SceneSnapshot? }
        let box = Box()
        var scene = Scene(root: Node(id: "0", bounds: Rect(minX: 0, minY: 0, maxX: 10, maxY: 10)))
        for k in 1...10_000 { try scene.add(Node(id: "\(k)", bounds: Rect(minX: 0, minY: 0, maxX: 10, maxY: 10)), to: "\(k - 1)") }
        box.snapshot = try scene.snapshot()
        try scene.update("5000") { $0.transform = .translation(1, 1) }
        box.scene = scene
        scene = Scene(root: Node(id: "x", bounds: .empty))
        #expect(box.snapshot?.hit(at: Point(5, 5))?.depth == 10_000)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.snapshot = nil
            box.scene = nil
            done.signal()
        }
        thread.stackSize = 256 << 10
        thread.start()
        done.wait()
        #expect(box.scene == nil && box.snapshot == nil)
    }
}
