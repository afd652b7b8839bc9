import Testing
import InkGeometry
import InkTestSupport
import InkHit

/// Invariance oracles for HitIndex: answers only grow with the radius, are unchanged when shapes and
/// points move together under a similarity (distances scale with it), and follow the topmost rule.
struct InvarianceTests {
    typealias Item = (GlyphShape, AffineTransform)

    /// Five random blobs (2000 units) placed `count` times with `TestShapes.randomTransform(kind:)` (view ~[0, 250]²).
    static func scene(seed: UInt64, kind: Int, count: Int) throws -> [Item] {
        var rng = SplitMix64(seed: seed)
        var shapes: [GlyphShape] = []
        for _ in 0..<5 { shapes.append(try GlyphShape(polygon: TestShapes.randomBlob(&rng, size: 2000))) }
        return (0..<count).map { _ in (shapes[rng.int(shapes.count)], TestShapes.randomTransform(&rng, kind: kind)) }
    }

    static func index(_ items: [Item], then g: AffineTransform = .identity) throws -> HitIndex {
        var b = HitIndex.Builder()
        for (s, t) in items { try b.add(s, transform: t.concatenating(g)) }
        return b.build()
    }

    // MARK: (a) Hits only grow with r

    static let radii = [0, 0.25, 1, 3, 8, 20, Double.infinity]

    @Test(arguments: [0, 1, 2, 3])
    func hitsOnlyGrowWithRadius(kind: Int) throws {
        let index = try Self.index(try Self.scene(seed: 300 &+ UInt64(kind), kind: kind, count: 40))
        var rng = SplitMix64(seed: 41 &+ UInt64(kind))
        for _ in 0..<1500 {
            let p = Point(rng.range(-30, 280), rng.range(-30, 280))
            var previousSet: [Int: Hit] = [:]
            var previousHit: Hit? = nil
            for (i, r) in Self.radii.enumerated() {
                let hits = index.allHits(at: p, radius: r)
                let set = Dictionary(hits.map { ($0.placement, $0) }, uniquingKeysWith: { a, _ in a })
                #expect(set.count == hits.count, "a placement is listed once")
                for (k, h) in previousSet {
                    let now = set[k]
                    #expect(now != nil, "p=\(p): placement \(k) hit at r=\(Self.radii[i - 1]) but not at r=\(r)")
                    if let now { #expect(isClose(now.distance, h.distance, within: 1e-12) && now.isInside == h.isInside) }
                }
                let hit = index.hit(at: p, radius: r)
                if let prev = previousHit {
                    // Once something is within r1, the best answer is already the global one: it cannot change.
                    #expect(hit?.placement == prev.placement, "p=\(p): r=\(Self.radii[i - 1]) → \(prev), r=\(r) → \(String(describing: hit))")
                    #expect(isClose((hit?.distance ?? .nan), prev.distance, within: 1e-12))
                }
                // hit(at:) agrees with hits(at:): topmost inside, else the first (nearest, ties → topmost).
                #expect((hit == nil) == hits.isEmpty)
                if let hit {
                    let insides = hits.filter(\.isInside).map(\.placement)
                    if let top = insides.max() { #expect(hit.placement == top && hit.isInside) }
                    else { #expect(hit.placement == hits[0].placement && isClose(hit.distance, hits[0].distance, within: 1e-12)) }
                    #expect(hit.distance <= r || hit.isInside)
                }
                previousSet = set; previousHit = hit
            }
        }
    }

    // MARK: (b) Transform invariance

    enum GKind: String, CaseIterable, Sendable, CustomStringConvertible {
        case similarity, yFlip, flippedSimilarity
        var description: String { rawValue }

        /// G and its scale s.
        func make(_ rng: inout SplitMix64) -> (AffineTransform, Double) {
            switch self {
            case .similarity:
                let s = rng.range(0.5, 3)
                return (AffineTransform.scale(s, s).concatenating(.rotation(rng.range(-3.1, 3.1)))
                            .concatenating(.translation(rng.range(-500, 500), rng.range(-500, 500))), s)
            case .yFlip:
                return (.yFlip(height: 300), 1)
            case .flippedSimilarity:
                let s = rng.range(0.25, 4)
                return (AffineTransform.yFlip(height: 250).concatenating(.rotation(rng.range(-3.1, 3.1)))
                            .concatenating(.scale(s, s)).concatenating(.translation(rng.range(-100, 100), 40)), s)
            }
        }
    }

    /// Whether p is too close to a decision for rounding not to matter: near some outline (inside/outside),
    /// near the radius, or with two outlines at nearly the same distance (nearest-wins tie).
    static func isNearADecision(_ oracle: BruteForce, _ p: Point, radius r: Double) -> Bool {
        var ds = (0..<oracle.count).map { oracle.distance($0, p) }
        ds.sort()
        if let first = ds.first, first < 1e-3 { return true }
        if ds.contains(where: { isClose($0, r, within: 1e-3) }) { return true }
        if ds.count >= 2 && ds[1] - ds[0] < 1e-3 && ds[0] <= r { return true }
        return false
    }

    @Test(arguments: [0, 1, 2, 3], GKind.allCases)
    func answersAreUnchangedUnderASimilarityOfShapesAndPoints(kind: Int, g gKind: GKind) throws {
        let items = try Self.scene(seed: 900 &+ UInt64(kind), kind: kind, count: 30)
        var rng = SplitMix64(seed: 17 &+ UInt64(kind) &* 31)
        let (g, s) = gKind.make(&rng)
        #expect(g.isSimilarity && isClose(g.maxScale, s, within: 1e-12 * s), "test setup: G is a similarity of scale s")
        let a = try Self.index(items), b = try Self.index(items, then: g)
        let oracle = BruteForce(items)
        var compared = 0
        for _ in 0..<800 {
            let p = Point(rng.range(-20, 270), rng.range(-20, 270))
            for r in [0, 2, 6.0] {
                if Self.isNearADecision(oracle, p, radius: r) { continue }
                let q = p.applying(g)
                let ha = a.hit(at: p, radius: r), hb = b.hit(at: q, radius: s * r)
                #expect(ha?.placement == hb?.placement, "p=\(p) r=\(r): \(String(describing: ha)) vs \(String(describing: hb))")
                #expect(ha?.isInside == hb?.isInside)
                if let ha, let hb {
                    let want = s * ha.distance
                    #expect(isClose(hb.distance, want, within: 1e-4 * max(abs(want), s)), "distance \(hb.distance) vs s·\(ha.distance)")
                }
                #expect(a.contains(p) == b.contains(q))
                let la = a.allHits(at: p, radius: r), lb = b.allHits(at: q, radius: s * r)
                #expect(Set(la.map(\.placement)) == Set(lb.map(\.placement)), "hits at p=\(p) r=\(r)")
                compared += 1
            }
        }
        #expect(compared > 1500, "too many points skipped as near-degenerate: \(compared)")
    }

    /// Translating everything by a whole number of pixels is exact, so the answers must match to the bit
    /// modulo Float32 storage: same placement, distances equal to 1e-9.
    @Test func pureTranslationGivesIdenticalAnswers() throws {
        let items = try Self.scene(seed: 4242, kind: 1, count: 25)
        let t = AffineTransform.translation(1024, -2048)
        let a = try Self.index(items), b = try Self.index(items, then: t)
        var rng = SplitMix64(seed: 5)
        for _ in 0..<1000 {
            let p = Point(rng.range(0, 250), rng.range(0, 250))
            let ha = a.hit(at: p, radius: 4), hb = b.hit(at: p.applying(t), radius: 4)
            #expect(ha?.placement == hb?.placement)
            if let ha, let hb { #expect(isClose(ha.distance, hb.distance, within: 1e-6)) }
        }
    }

    // MARK: (c) Placement order: the topmost rule

    static func squareShape(_ size: Double = 10) throws -> GlyphShape {
        try GlyphShape(polygon: Polygon(contours: [[Point(0, 0), Point(size, 0), Point(size, size), Point(0, size)]]))
    }

    @Test(arguments: [2, 3, 7])
    func lastAddedOfIdenticalShapesWins(copies: Int) throws {
        let shape = try Self.squareShape()
        for distinctObjects in [false, true] {
            var b = HitIndex.Builder()
            for _ in 0..<copies { try b.add(distinctObjects ? try Self.squareShape() : shape, transform: .translation(3, 4)) }
            let index = b.build()
            for p in [Point(8, 9), Point(3.5, 4.5), Point(12.9, 13.9)] {
                let h = try #require(index.hit(at: p))
                #expect(h.placement == copies - 1 && h.isInside)
                #expect(index.allHits(at: p).map(\.placement) == Array((0..<copies).reversed()), "ties → topmost first")
            }
            // Outside, equidistant from every copy: ties go to the topmost too.
            let h = try #require(index.hit(at: Point(15, 9), radius: 3))
            #expect(h.placement == copies - 1 && isClose(h.distance, 2, within: 1e-9))
        }
    }

    @Test func overlapGoesToTheLaterPlacementWhicheverItIs() throws {
        let s = try Self.squareShape()
        for order in [[0, 1], [1, 0]] {
            let transforms = [AffineTransform.identity, .translation(5, 5)]
            var b = HitIndex.Builder()
            for k in order { try b.add(s, transform: transforms[k]) }
            let index = b.build()
            // Placement indices follow the add order: placement i has transform transforms[order[i]].
            let placementOf = { (k: Int) in order.firstIndex(of: k)! }
            #expect(index.hit(at: Point(7, 7))?.placement == 1, "overlap: the second added")
            #expect(index.hit(at: Point(2, 2))?.placement == placementOf(0))
            #expect(index.hit(at: Point(12, 12))?.placement == placementOf(1))
        }
    }

    @Test func insideBeatsANearerOutlineOnTop() throws {
        var b = HitIndex.Builder()
        try b.add(try Self.squareShape(100), transform: .identity)                       // 0: [0, 100]²
        try b.add(try Self.squareShape(10), transform: .translation(50.5, 10))           // 1: [50.5, 60.5] × [10, 20]
        let index = b.build()
        let p = Point(50, 15)     // inside 0 (15 from its edge), 0.5 from 1's outline
        let h = try #require(index.hit(at: p, radius: 5))
        #expect(h.placement == 0 && h.isInside && isClose(h.distance, -15, within: 1e-6))
        let all = index.allHits(at: p, radius: 5)
        #expect(all.map(\.placement) == [0, 1])
        #expect(isClose(all[1].distance, 0.5, within: 1e-6) && !all[1].isInside)
        // Inside both: the later one wins even though the point is deeper in the earlier one.
        let q = Point(51, 15)
        #expect(index.hit(at: q)?.placement == 1)
    }
}
