import Testing
import InkGeometry
import InkHit
import InkFreeType
import InkText
import InkScene
import InkTestSupport

/// Hole policies of text and glyph leaves, on "oo oo" in DejaVu Sans at 40 px: the oracle is where the
/// points are — the middle of an "o" (its counter), the gap between the two o's of a word (below their
/// widest point, outside both outlines but inside the word's hull), the middle of the space between the
/// words — checked first against the ink itself.
@Suite struct HolePolicyTests {
    static func scene(_ holes: HolePolicy, run: Bool = false) throws -> (SceneSnapshot, TextLayout) {
        let sans = try TestFonts.load(TestFonts.sans)
        let layout = try TextLayout(text: "oo oo", style: TextStyle(fonts: [sans], size: 40), cache: FontShapeCache())
        var scene = Scene(root: Node(id: "root", bounds: Rect(minX: 0, minY: 0, maxX: 400, maxY: 100), pointerEvents: .boxNone))
        let shape: NodeShape = run ? .glyphs(layout.glyphs.indices.map { layout.placement(of: $0) }, holes: holes)
                                   : .text(layout, holes: holes)
        try scene.add(Node(id: "t", bounds: layout.lines[0].box, transform: .translation(20, 10), shape: shape), to: "root")
        return (try scene.snapshot(), layout)
    }

    /// (counter of the first "o", gap between the first two o's, middle of the space), in root px.
    static func probes(_ layout: TextLayout) throws -> (Point, Point, Point) {
        let o1 = try layout.placement(of: 0).viewBounds(), o2 = try layout.placement(of: 1).viewBounds()
        let o3 = try layout.placement(of: 3).viewBounds()
        let shift = Point(20, 10)
        // The gap: between the o's boxes horizontally, 8 px below the top of their boxes (where the round
        // outlines have curved away from each other).
        let gap = Point((o1.maxX + o2.minX) / 2, o1.minY + 0.2 * o1.height)
        let space = Point((o2.maxX + o3.minX) / 2, o1.center.y)
        return (Point(o1.center.x + shift.x, o1.center.y + shift.y), Point(gap.x + shift.x, gap.y + shift.y),
                Point(space.x + shift.x, space.y + shift.y))
    }

    @Test(arguments: [false, true])
    func theThreePolicies(run: Bool) throws {
        let (ink, layout) = try Self.scene(.ink, run: run)
        let (counter, gap, space) = try Self.probes(layout)
        // The oracle's premise: all three probes are off the ink.
        #expect(ink.hit(at: counter) == nil && ink.hit(at: gap) == nil && ink.hit(at: space) == nil)
        #expect(ink.hit(at: counter, radius: 30)?.placement == 0, "the counter is inside the first o's outline")

        let (filled, _) = try Self.scene(.filledCounters, run: run)
        let f = try #require(filled.hit(at: counter))
        #expect(f.placement == 0 && f.isInside && f.distance < 0)
        if !run { #expect(f.text?.utf16 == 0..<1) }
        #expect(filled.hit(at: gap) == nil, "between letters is not a counter")
        #expect(filled.hit(at: space) == nil)

        let (hull, _) = try Self.scene(.wordHull, run: run)
        #expect(hull.hit(at: counter)?.placement == 0)
        let g = try #require(hull.hit(at: gap), "the gap is inside the word's hull")
        #expect(g.placement == 0 || g.placement == 1)
        #expect(hull.hit(at: space) == nil, "words are hulled apart")
        #expect(hull.hit(at: space, radius: 40)?.node == "t")
    }
}
