import Testing
import InkGeometry
@testable import InkHit

/// Index answers must equal brute-force winding and distance over all stored edges.
struct HitIndexDifferentialTests {
    static func makeScene(seed: UInt64, kind: Int, count: Int) throws -> ([(GlyphShape, AffineTransform)], HitIndex) {
        var rng = Rng(seed)
        var shapes: [GlyphShape] = []
        for _ in 0..<5 { shapes.append(try GlyphShape(polygon: Shapes.randomBlob(&rng, size: 2000))) }
        var items: [(GlyphShape, AffineTransform)] = []
        var b = HitIndex.Builder()
        for _ in 0..<count {
            let s = shapes[rng.int(shapes.count)]
            let t = randomTransform(&rng, kind: kind)
            try b.add(s, transform: t)
            items.append((s, t))
        }
        return (items, b.build())
    }

    @Test(arguments: [0, 1, 2, 3], [0.0, 1.5, 7.0])
    func randomPointsMatchBruteForce(kind: Int, radius: Double) throws {
        let (items, index) = try Self.makeScene(seed: UInt64(kind * 100 + Int(radius * 10)), kind: kind, count: 40)
        let oracle = BruteForce(items)
        var rng = Rng(7 &+ UInt64(kind))
        var checked = 0
        for _ in 0..<3000 {
            let p = Point(rng.range(-20, 260), rng.range(-20, 260))
            let want = oracle.hit(p, radius: radius)
            let got = index.hit(at: p, radius: radius)
            // Skip only points so close to an equal-distance tie that rounding may decide.
            #expect(got?.placement == want?.placement, "p=\(p) r=\(radius) got \(String(describing: got)) want \(String(describing: want))")
            if let g = got, let w = want {
                // Placements store a Float32 inverse: distances agree to ~1e-7 of the glyph size in view px.
                #expect(abs(g.distance - w.distance) <= 2e-5, "distance at \(p)")
                #expect(g.isInside == w.isInside)
            }
            #expect(index.contains(p) == (want?.isInside ?? false))
            checked += 1
        }
        #expect(checked == 3000)
    }

    @Test(arguments: [0, 1, 2, 3])
    func pointsNearEdgesMatchBruteForce(kind: Int) throws {
        let (items, index) = try Self.makeScene(seed: 99 &+ UInt64(kind), kind: kind, count: 12)
        let oracle = BruteForce(items)
        var rng = Rng(1234 &+ UInt64(kind))
        var tested = 0
        for k in oracle.placements.indices {
            for (a, b) in oracle.placements[k].prefix(40) {
                let t = rng.unit()
                let m = a.lerp(b, t)
                let n = Point(-(b.y - a.y), b.x - a.x) * (1 / (b - a).length)
                for off in [1e-3, -1e-3, 3e-3, -3e-3] {
                    let p = m + n * off
                    // Points within 1e-3 px of an edge: index and oracle use the same edges, so they agree
                    // unless another edge is closer than rounding can resolve (not the case at 1e-3 px).
                    let want = oracle.hit(p, radius: 0)
                    let got = index.hit(at: p, radius: 0)
                    #expect(got?.placement == want?.placement, "near edge p=\(p)")
                    tested += 1
                }
            }
        }
        #expect(tested > 100)
    }

    @Test func hitsListIsCompleteAndSorted() throws {
        let (items, index) = try Self.makeScene(seed: 5, kind: 1, count: 30)
        let oracle = BruteForce(items)
        var rng = Rng(77)
        for _ in 0..<500 {
            let p = Point(rng.range(0, 240), rng.range(0, 240))
            let r = 6.0
            let got = index.hits(at: p, radius: r)
            var want: [Int] = []
            for k in items.indices where oracle.inside(k, p) || oracle.distance(k, p) <= r { want.append(k) }
            #expect(Set(got.map(\.placement)) == Set(want))
            for (x, y) in zip(got, got.dropFirst()) { #expect(x.distance <= y.distance) }
        }
    }
}
