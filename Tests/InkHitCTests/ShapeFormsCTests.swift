import CInkHit
import InkTestSupport
import Testing

/// `inkhit_builder_set_shape_forms`: which form of its shapes a C index reads. Seen from outside through
/// the shape cache's bytes (a full form adds its grid, near lists and stamps to the shapes the cache holds)
/// and the index's own bytes (the class raster is built for indexes of full forms), and answers that never
/// depend on it.
struct ShapeFormsCTests {
    struct Built {
        var cacheBytes: Int64
        var indexBytes: Int64
        var answers: [inkhit_hit]
    }

    /// 60 DejaVu glyphs on two lines built `builds` times into a fresh cache with `forms`, the last index
    /// asked at every point of a 0.5 px grid over the text at `radius`.
    static func build(forms: Int32?, builds: Int = 1, radius: Double) throws -> Built {
        let font = try loadFont(TestFonts.sans)
        defer { _ = inkhit_font_release(font) }
        var cache: inkhit_shape_cache?
        ok(inkhit_shape_cache_create(0, &cache))
        defer { _ = inkhit_shape_cache_release(cache) }
        let identity = inkhit_transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        var placements: [inkhit_glyph_placement] = []
        for k in 0..<60 {
            let column = Double(k % 30), line = Double(k / 30)
            let origin = inkhit_point(x: column * 11, y: 20 + 24 * line)
            placements.append(inkhit_glyph_placement(font: font, glyph: UInt32(36 + k % 30), size: 18, origin: origin,
                                                     transform: identity))
        }
        var index: inkhit_index?
        for _ in 0..<builds {
            _ = inkhit_index_release(index)
            var builder: inkhit_builder?
            ok(inkhit_builder_create(0, &builder))
            if let forms { ok(inkhit_builder_set_shape_forms(builder, forms)) }
            var added = 0
            ok(inkhit_builder_add_glyphs(builder, cache, placements, placements.count, &added))
            ok(inkhit_builder_build(builder, &index))
            ok(inkhit_builder_release(builder))
        }
        defer { _ = inkhit_index_release(index) }
        var cacheInfo = inkhit_shape_cache_info(), indexInfo = inkhit_index_info()
        ok(inkhit_shape_cache_get_info(cache, &cacheInfo))
        ok(inkhit_index_get_info(index, &indexInfo))
        var answers: [inkhit_hit] = []
        var y = 0.0
        while y < 56 {
            var x = -2.0
            while x < 335 {
                var h = inkhit_hit()
                ok(inkhit_index_hit(index, x, y, radius, &h))
                answers.append(h)
                x += 0.5
            }
            y += 0.5
        }
        return Built(cacheBytes: cacheInfo.glyph_bytes, indexBytes: indexInfo.bytes_beyond_shapes, answers: answers)
    }

    static func same(_ a: [inkhit_hit], _ b: [inkhit_hit]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy {
            $0.hit == $1.hit && $0.inside == $1.inside && $0.placement == $1.placement
                && $0.distance.bitPattern == $1.distance.bitPattern      // a miss's NaN too
        }
    }

    @Test(arguments: [0.0, 2.0])
    func fullFormsOnTheFirstBuildAnswerAsLeanOnes(radius: Double) throws {
        let lean = try Self.build(forms: nil, radius: radius)            // the default, built once: lean forms
        let full = try Self.build(forms: Int32(INKHIT_SHAPE_FORMS_FULL.rawValue), radius: radius)
        let again = try Self.build(forms: nil, builds: 2, radius: radius) // the default's second build: full forms
        let leanOnly = try Self.build(forms: Int32(INKHIT_SHAPE_FORMS_LEAN.rawValue), builds: 2, radius: radius)
        #expect(lean.answers.contains { $0.hit == 1 } && lean.answers.contains { $0.hit == 0 })
        #expect(Self.same(lean.answers, full.answers) && Self.same(lean.answers, again.answers)
                && Self.same(lean.answers, leanOnly.answers))
        // Full forms take more of the cache than lean ones (several times), whichever build made them.
        #expect(full.cacheBytes > 2 * lean.cacheBytes, "full \(full.cacheBytes) B, lean \(lean.cacheBytes) B")
        #expect(again.cacheBytes > 2 * lean.cacheBytes, "the second build's full forms: \(again.cacheBytes) B")
        #expect(leanOnly.cacheBytes == lean.cacheBytes, "lean forms only, built twice")
        // The index of full forms has its class raster; the lean one has none.
        #expect(full.indexBytes > lean.indexBytes && again.indexBytes == full.indexBytes)
    }

    @Test func badValuesAreRefusedAndTheSettingKept() throws {
        var builder: inkhit_builder?
        ok(inkhit_builder_create(0, &builder))
        defer { _ = inkhit_builder_release(builder) }
        fails(inkhit_builder_set_shape_forms(builder, 3), Int(INKHIT_ERROR_INVALID_ARGUMENT), "(got 3)")
        fails(inkhit_builder_set_shape_forms(builder, -1), Int(INKHIT_ERROR_INVALID_ARGUMENT), "shape forms must be")
        fails(inkhit_builder_set_shape_forms(nil, 0), Int(INKHIT_ERROR_NULL_ARGUMENT), "builder")
        ok(inkhit_builder_set_shape_forms(builder, Int32(INKHIT_SHAPE_FORMS_LEAN.rawValue)))
    }
}
