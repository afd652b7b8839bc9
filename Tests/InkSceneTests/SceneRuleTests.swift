import Testing
import InkGeometry
import InkHit
import InkFreeType
import InkText
@testable import InkScene
import InkTestSupport

/// UIKit's cases, `pointerEvents`, slop and `minSize`, snapshots and deep trees: each answer follows from
/// the rule as documented (the oracle is the geometry of the boxes, worked out by hand).
@Suite struct SceneRuleTests {
    static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect {
        Rect(minX: x, minY: y, maxX: x + w, maxY: y + h)
    }
    static func scene(_ children: [(Node, String)]) throws -> SceneSnapshot {
        var s = Scene(root: Node(id: "root", bounds: rect(0, 0, 400, 400), pointerEvents: .boxNone))
        for (n, parent) in children { try s.add(n, to: parent) }
        return try s.snapshot()
    }

    @Test func laterSiblingsAndChildrenAreOnTop() throws {
        let s = try Self.scene([(Node(id: "a", bounds: Self.rect(10, 10, 100, 100)), "root"),
                                (Node(id: "b", bounds: Self.rect(50, 50, 100, 100)), "root"),
                                (Node(id: "a1", bounds: Self.rect(0, 0, 20, 20), transform: .translation(60, 60)), "a")])
        #expect(s.hit(at: Point(20, 20))?.node == "a")
        #expect(s.hit(at: Point(70, 70))?.node == "b", "b is above a and its child")
        #expect(s.hit(at: Point(140, 140))?.node == "b")
        #expect(s.hit(at: Point(5, 5)) == nil, "the root is box-none")
        let path = try #require(s.hit(at: Point(65, 65)))
        #expect(path.node == "b")
        #expect(s.targets(at: Point(65, 65)).map(\.node) == ["b", "a1", "a"], "topmost first")
        let a1 = try #require(Self.scene([(Node(id: "a", bounds: Self.rect(10, 10, 100, 100)), "root"),
                                          (Node(id: "a1", bounds: Self.rect(0, 0, 20, 20), transform: .translation(60, 60)), "a")])
                                .hit(at: Point(75, 75)))
        #expect(a1.node == "a1" && a1.path == ["root", "a", "a1"])
        #expect(isClose(a1.local, Point(15, 15), within: 1e-9), "local = root point through the inverse transforms")
    }

    /// A child outside its parent's bounds is unreachable while the parent clips, and reachable without clip.
    @Test(arguments: [true, false])
    func childOutsideItsParent(clips: Bool) throws {
        let s = try Self.scene([(Node(id: "p", bounds: Self.rect(0, 0, 100, 100), clipsChildren: clips), "root"),
                                (Node(id: "c", bounds: Self.rect(0, 0, 50, 50), transform: .translation(80, 80)), "p")])
        #expect(s.hit(at: Point(90, 90))?.node == "c")
        #expect(s.hit(at: Point(120, 120))?.node == (clips ? nil : "c"))
    }

    /// A child enlarged by slop over its parent's edge is hit there only where the parent's box (its clip)
    /// contains the point; the enlarged child wins over the parent inside.
    @Test func childEnlargedOverItsParent() throws {
        let s = try Self.scene([(Node(id: "p", bounds: Self.rect(100, 100, 100, 100)), "root"),
                                (Node(id: "c", bounds: Self.rect(0, 0, 10, 10), transform: .translation(100, 100), slop: EdgeInsets(all: -15)), "p")])
        // The child sits at the parent's top-left corner (100, 100), its box grown to (85…125).
        #expect(s.hit(at: Point(120, 120))?.node == "c")
        #expect(s.hit(at: Point(90, 90)) == nil, "outside the clipping parent")
        #expect(s.hit(at: Point(130, 130))?.node == "p")
    }

    @Test func hiddenNonInteractiveAndAlpha() throws {
        func answer(_ configure: (inout Node) -> Void) throws -> String? {
            var n = Node(id: "n", bounds: Self.rect(0, 0, 100, 100))
            configure(&n)
            return try Self.scene([(Node(id: "under", bounds: Self.rect(0, 0, 100, 100)), "root"), (n, "root"),
                                   (Node(id: "child", bounds: Self.rect(40, 40, 20, 20)), "n")]).hit(at: Point(50, 50))?.node
        }
        #expect(try answer { _ in } == "child")
        #expect(try answer { $0.isHidden = true } == "under", "hidden: the node and its subtree")
        #expect(try answer { $0.isInteractive = false } == "under")
        #expect(try answer { $0.alpha = 0.009 } == "under")
        #expect(try answer { $0.alpha = 0.01 } == "child")
    }

    @Test(arguments: PointerEvents.allCases)
    func pointerEvents(_ mode: PointerEvents) throws {
        let s = try Self.scene([(Node(id: "under", bounds: Self.rect(0, 0, 200, 200)), "root"),
                                (Node(id: "n", bounds: Self.rect(0, 0, 100, 100), pointerEvents: mode), "root"),
                                (Node(id: "child", bounds: Self.rect(40, 40, 20, 20)), "n")])
        let onChild = s.hit(at: Point(50, 50))?.node, onNode = s.hit(at: Point(10, 10))?.node
        switch mode {
        case .auto: #expect(onChild == "child" && onNode == "n")
        case .none: #expect(onChild == "under" && onNode == "under")
        case .boxNone: #expect(onChild == "child" && onNode == "under")
        case .boxOnly: #expect(onChild == "n" && onNode == "n")
        }
    }

    /// A 20 × 20 button with `minSize` 44 × 44 grows by 12 px on every side; its parent clips at its own box.
    @Test func minSizeGrowsASmallButton() throws {
        let s = try Self.scene([(Node(id: "bar", bounds: Self.rect(0, 0, 300, 100)), "root"),
                                (Node(id: "button", bounds: Self.rect(0, 0, 20, 20), transform: .translation(100, 40),
                                      minSize: (44, 44)), "bar")])
        #expect(s.hit(at: Point(89, 50))?.node == "button")
        #expect(s.hit(at: Point(87, 50))?.node == "bar")
        #expect(s.hit(at: Point(131, 29))?.node == "button")
        #expect(s.hit(at: Point(133, 50))?.node == "bar")
        // With a radius, the nearer region wins: 3 px from the grown box beats the bar only off the bar.
        #expect(s.hit(at: Point(110, 50), radius: 8)?.node == "button")
    }

    /// Shapes: an ellipse inscribed in its box is hit by the ellipse, not the box corner; a rotated box by
    /// the rotated box; distances are in root px under scale.
    @Test func shapesAndTransforms() throws {
        let s = try Self.scene([(Node(id: "e", bounds: Self.rect(0, 0, 100, 50), transform: .translation(100, 100), shape: .ellipse), "root")])
        #expect(s.hit(at: Point(150, 125))?.node == "e")
        #expect(s.hit(at: Point(105, 103)) == nil, "the box's corner is not the ellipse's")
        let d = try #require(s.hit(at: Point(150, 90), radius: 20))
        // The ellipse is flattened within the promised 0.01 px; the rest is Float32 storage near 150 px.
        #expect(isClose(d.distance, 10, within: 0.01 + 1e-4) && !d.isInside, "10 px above the ellipse's top")
        let scaled = try Self.scene([(Node(id: "b", bounds: Self.rect(0, 0, 10, 10), transform: .scale(3, 3)), "root")])
        let near = try #require(scaled.hit(at: Point(36, 15), radius: 10))
        #expect(isClose(near.distance, 6, within: 1e-4), "distance in root px: 36 − 30 (the index stores Float coordinates)")
    }

    /// Touch adjustment by ink: two small adjacent words whose boxes overlap the finger. The point is in the
    /// first word's box, but nearer the second word's ink: the second word wins with a radius.
    @Test func touchAdjustmentPicksTheNearerInk() throws {
        let sans = try TestFonts.load(TestFonts.sans)
        // "Tap " ends in a space: its box (its advance) runs 5 px past the "p"'s ink, up to "it".
        let first = try TextLayout(text: "Tap ", style: TextStyle(fonts: [sans], size: 16), cache: FontShapeCache())
        let second = try TextLayout(text: "it", style: TextStyle(fonts: [sans], size: 16), cache: FontShapeCache())
        let w1 = first.lines[0].box.width
        var scene = Scene(root: Node(id: "root", bounds: Self.rect(0, 0, 300, 100), pointerEvents: .boxNone))
        try scene.add(Node(id: "a", bounds: first.lines[0].box, shape: .text(first)), to: "root")
        try scene.add(Node(id: "b", bounds: second.lines[0].box, transform: .translation(w1, 0), shape: .text(second)), to: "root")
        let s = try scene.snapshot()
        let pInk = try first.placement(of: 2).viewBounds(), iInk = try second.placement(of: 0).viewBounds()
        let p = Point(w1 - 1, (iInk.minY + iInk.maxY) / 2)
        #expect(first.lines[0].box.contains(p), "the point is in the first word's box")
        #expect(p.x - pInk.maxX > 3 && iInk.minX + w1 - p.x < 3, "nearer the i's ink than the p's")
        let h = try #require(s.hit(at: p, radius: 6))
        #expect(h.node == "b" && h.text?.utf16 == 0..<1 && h.placement == 0, "\(h)")
        #expect(h.distance > 0 && h.distance < 3)
        #expect(s.hit(at: p) == nil, "no ink under the point")
    }

    /// The README's example, with the answers its comments give.
    @Test func readmeExample() throws {
        var scene = Scene(root: Node(id: "screen", bounds: Self.rect(0, 0, 320, 480), pointerEvents: .boxNone))
        try scene.add(Node(id: "avatar", bounds: Self.rect(0, 0, 40, 40), transform: .translation(10, 10), shape: .ellipse), to: "screen")
        try scene.add(Node(id: "like", bounds: Self.rect(0, 0, 18, 18), transform: .translation(60, 21), minSize: (44, 44)), to: "screen")
        let s = try scene.snapshot()
        #expect(s.hit(at: Point(12, 12)) == nil)
        let a = try #require(s.hit(at: Point(12, 12), radius: 8))
        #expect(a.node == "avatar" && isClose(a.distance, (18 * 2.0.squareRoot() - 20), within: 0.01))
        #expect(s.hit(at: Point(52, 30))?.path == ["screen", "like"])
    }

    @Test func snapshotsDoNotChangeAfterEdits() throws {
        var scene = Scene(root: Node(id: "root", bounds: Self.rect(0, 0, 100, 100)))
        try scene.add(Node(id: "a", bounds: Self.rect(0, 0, 10, 10)), to: "root")
        let before = try scene.snapshot()
        try scene.update("a") { $0.transform = .translation(50, 50) }
        try scene.add(Node(id: "b", bounds: Self.rect(0, 0, 10, 10)), to: "root")
        let after = try scene.snapshot()
        #expect(before.hit(at: Point(5, 5))?.node == "a" && before.hit(at: Point(55, 55))?.node == "root")
        #expect(after.hit(at: Point(5, 5))?.node == "b" && after.hit(at: Point(55, 55))?.node == "a")
        #expect(throws: SceneError.idChanged(from: "a", to: "z")) { try scene.update("a") { $0.id = "z" } }
        try scene.remove("a")
        #expect(scene.node("a") == nil && scene.count == 2)
        #expect(throws: SceneError.cannotRemoveRoot("root")) { try scene.remove("root") }
    }

    /// 10,000 levels: built, snapshotted, queried and dropped without recursion.
    @Test func tenThousandLevelsDeep() throws {
        var scene = Scene(root: Node(id: "0", bounds: Self.rect(0, 0, 100, 100)))
        for k in 1...10_000 {
            // Every level clips: its children are reachable where all 10,000 boxes overlap (one convex polygon).
            try scene.add(Node(id: "\(k)", bounds: Self.rect(0, 0, 100, 100), transform: .translation(0.001, 0)), to: "\(k - 1)")
        }
        let s = try scene.snapshot()
        let h = try #require(s.hit(at: Point(50, 50)))
        #expect(h.node == "10000" && h.path.count == 10_001)
        // Level k spans x in 0.001k … 100 + 0.001k, under every level above it, which clips it to ≤ 100.
        #expect(s.hit(at: Point(2.5005, 50))?.node == "2500", "the deepest level that reaches x = 2.5005")
        #expect(s.hit(at: Point(99, 50))?.node == "10000")
        #expect(s.hit(at: Point(100.5, 50)) == nil, "outside the root's box, which clips everything below it")
    }

    @Test func badNodesNameTheNode() throws {
        var scene = Scene(root: Node(id: "root", bounds: Self.rect(0, 0, 100, 100)))
        try scene.add(Node(id: "nan", bounds: Self.rect(0, 0, 10, 10), transform: .translation(.nan, 0)), to: "root")
        #expect(throws: SceneError.invalidNode(id: "nan", reason: "its transform has a NaN or infinite entry")) { try scene.snapshot() }
        #expect(throws: SceneError.duplicateID("nan")) { try scene.add(Node(id: "nan", bounds: .empty), to: "root") }
        #expect(throws: SceneError.unknownNode("nowhere")) { try scene.add(Node(id: "x", bounds: .empty), to: "nowhere") }
        try scene.update("nan") { $0.transform = .scale(0, 1) }
        let e = #expect(throws: SceneError.self) { try scene.snapshot() }
        #expect(e?.description.contains("\"nan\"") == true && e?.description.contains("singular") == true, "\(String(describing: e))")
    }
}

