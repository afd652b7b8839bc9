import CInkHit
import Foundation
import InkFreeType
import InkGeometry
import InkHit
import InkJobs
import Testing

/// The curve-exact glyph jobs (46 jobs, 27,000 points: TrueType and CFF; rotations, shears, overlaps, radii 0
/// to 8) answered through the C interface — fonts from paths, placements added in one batch, the batch query
/// and, for every seventh point, the single query — must equal the Swift API's answers bit for bit, and the
/// independent curve-exact reference's on every point at least 0.05 px from a deciding boundary.
struct CurveExactFixtureTests {
    @Test(arguments: ["example", "heldout", "stress", "cff"])
    func answersThroughTheCInterfaceEqualTheSwiftAPIs(_ set: String) throws {
        let jobs = try Fixtures.lines("\(set)-jobs.jsonl")
        let expected = try Fixtures.lines("\(set)-expected.jsonl").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        var e = 0, checked = 0
        for line in jobs {
            let job = try GlyphJob(JSONParser.parse(line))

            // The Swift API. Each side builds its shapes in a cache of its own: two loads of one font file share
            // shapes in a common cache, and a shape an index reuses may be read in another form (equal up to the
            // last bit of a distance); this test compares two independent builds.
            let fonts = try job.fonts.map { try Font(path: $0.path, faceIndex: $0.index) }
            var builder = HitIndex.Builder()
            let swiftCache = FontShapeCache()
            for g in job.glyphs {
                try builder.add(GlyphPlacement(font: fonts[g.font], glyph: g.id, size: g.size, origin: Point(g.x, g.y),
                                               transform: job.transform), cache: swiftCache)
            }
            let index = builder.build()
            let swift = index.hits(for: job.points, radius: job.radius)

            // The C interface.
            let handles = try job.fonts.map { try loadFont($0.path, faceIndex: Int32($0.index)) }
            defer { for h in handles { ok(inkhit_font_release(h)) } }
            let t = job.transform
            let placements = job.glyphs.map {
                inkhit_glyph_placement(font: handles[$0.font], glyph: $0.id.rawValue, size: $0.size,
                                       origin: inkhit_point(x: $0.x, y: $0.y),
                                       transform: inkhit_transform(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx, ty: t.ty))
            }
            var cBuilder: inkhit_builder?
            ok(inkhit_builder_create(0, &cBuilder))
            var added = 0
            var cCache: inkhit_shape_cache?
            ok(inkhit_shape_cache_create(Int.max, &cCache))
            defer { ok(inkhit_shape_cache_release(cCache)) }
            ok(inkhit_builder_add_glyphs(cBuilder, cCache, placements, placements.count, &added))
            #expect(added == placements.count)
            var cIndex: inkhit_index?
            ok(inkhit_builder_build(cBuilder, &cIndex))
            ok(inkhit_builder_release(cBuilder))
            let points = job.points.map { inkhit_point(x: $0.x, y: $0.y) }
            var batch = [inkhit_hit](repeating: inkhit_hit(), count: points.count)
            ok(inkhit_index_hits(cIndex, points, points.count, job.radius, &batch))

            for (i, p) in points.enumerated() {
                let c = batch[i], s = swift[i]
                #expect(c.hit == (s == nil ? 0 : 1), "job \(job.idJSON) point \(i)")
                if let s {
                    #expect(c.placement == Int64(s.placement) && c.inside == (s.isInside ? 1 : 0), "job \(job.idJSON) point \(i)")
                    #expect(c.distance.bitPattern == s.distance.bitPattern, "job \(job.idJSON) point \(i)")
                } else {
                    #expect(c.placement == -1 && c.distance.isNaN)
                }
                if i % 7 == 0 {
                    var single = inkhit_hit()
                    ok(inkhit_index_hit(cIndex, p.x, p.y, job.radius, &single))
                    #expect(single.hit == c.hit && single.placement == c.placement && single.inside == c.inside)
                    #expect(single.hit == 0 || single.distance.bitPattern == c.distance.bitPattern)
                }
                let x = expected[e + i]
                #expect(x["i"] as? Int == i)
                guard (x["boundary_margin"] as! Double) >= 0.05 else { continue }
                checked += 1
                #expect(c.hit == ((x["hit"] as! Bool) ? 1 : 0), "job \(job.idJSON) point \(i)")
                #expect((c.hit == 1 ? Int(c.placement) : nil) == x["glyph"] as? Int, "job \(job.idJSON) point \(i)")
            }
            e += points.count
            ok(inkhit_index_release(cIndex))
        }
        // Every expected answer was read, in order (`"i"` above), by the points of its own job.
        #expect(e == expected.count, "\(e) points in the jobs, \(expected.count) expected answers")
        // Points with margin ≥ 0.05 px: example 793, heldout 6,082, stress 6,449, cff 5,419.
        #expect(checked > (["example": 700, "cff": 5000][set] ?? 6000))
    }
}
