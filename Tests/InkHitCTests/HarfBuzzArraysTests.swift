import CHarfBuzz
import CInkHit
import Foundation
import InkFreeType
import InkGeometry
import InkHit
import InkJobs
import InkTestSupport
import Testing

/// `inkhit_builder_add_shaped` with HarfBuzz's own arrays (this process's libharfbuzz, `hb_shape`), against
/// the glyph job of the same glyphs answered by the Swift API: bit for bit. The mirror structs are checked
/// against hb.h's.
struct HarfBuzzArraysTests {
    @Test func theMirrorStructsAreLaidOutAsHarfBuzzs() {
        #expect(MemoryLayout<inkhit_hb_glyph_info>.size == MemoryLayout<hb_glyph_info_t>.size)
        #expect(MemoryLayout<inkhit_hb_glyph_info>.stride == MemoryLayout<hb_glyph_info_t>.stride)
        #expect(MemoryLayout<inkhit_hb_glyph_info>.offset(of: \.codepoint) == MemoryLayout<hb_glyph_info_t>.offset(of: \.codepoint))
        #expect(MemoryLayout<inkhit_hb_glyph_info>.offset(of: \.cluster) == MemoryLayout<hb_glyph_info_t>.offset(of: \.cluster))
        #expect(MemoryLayout<inkhit_hb_glyph_position>.size == MemoryLayout<hb_glyph_position_t>.size)
        #expect(MemoryLayout<inkhit_hb_glyph_position>.stride == MemoryLayout<hb_glyph_position_t>.stride)
        #expect(MemoryLayout<inkhit_hb_glyph_position>.offset(of: \.x_advance) == MemoryLayout<hb_glyph_position_t>.offset(of: \.x_advance))
        #expect(MemoryLayout<inkhit_hb_glyph_position>.offset(of: \.y_advance) == MemoryLayout<hb_glyph_position_t>.offset(of: \.y_advance))
        #expect(MemoryLayout<inkhit_hb_glyph_position>.offset(of: \.x_offset) == MemoryLayout<hb_glyph_position_t>.offset(of: \.x_offset))
        #expect(MemoryLayout<inkhit_hb_glyph_position>.offset(of: \.y_offset) == MemoryLayout<hb_glyph_position_t>.offset(of: \.y_offset))
        #expect(MemoryLayout<inkhit_variation>.size == MemoryLayout<hb_variation_t>.size)
        #expect(MemoryLayout<inkhit_variation>.offset(of: \.value) == MemoryLayout<hb_variation_t>.offset(of: \.value))
    }

    struct Case: Sendable, CustomStringConvertible {
        var name: String, path: String, text: String, rtl: Bool, size: Double
        var transform: [Double]
        var embolden: Bool
        var wght: Float
        var description: String { name }
    }

    static let cases = [
        Case(name: "latin ligatures", path: TestFonts.sans, text: "office affine AVATAR fjord", rtl: false, size: 17,
             transform: [1, 0, 0, 1, 0, 0], embolden: false, wght: 0),
        Case(name: "hebrew points, transformed", path: TestFonts.sans, text: "שָׁלוֹם עוֹלָם", rtl: true, size: 21,
             transform: [1.3, 0.2, -0.25, 1.1, 7, 3], embolden: false, wght: 0),
        Case(name: "arabic marks", path: TestFonts.sans, text: "بِسْمِ ٱللَّٰهِ", rtl: true, size: 24,
             transform: [1, 0, 0, 1, 0, 0], embolden: false, wght: 0),
        Case(name: "cjk synthetic bold", path: TestFonts.cjk, text: "永字八法", rtl: false, size: 26,
             transform: [1, 0, 0, 1, 0, 0], embolden: true, wght: 0),
        Case(name: "inter wght 650 at 2x", path: TestFonts.interVariable, text: "Variable 650", rtl: false, size: 15,
             transform: [2, 0, 0, 2, 0, 0], embolden: false, wght: 650),
    ]

    @Test(arguments: cases)
    func shapedArraysAnswerAsTheGlyphJob(_ c: Case) throws {
        // HarfBuzz: the font at its default scale (units per em).
        let blob = try #require(hb_blob_create_from_file(c.path))
        let face = try #require(hb_face_create(blob, 0))
        let hb = try #require(hb_font_create(face))
        defer { hb_font_destroy(hb); hb_face_destroy(face); hb_blob_destroy(blob) }
        var tag = hb_tag_t(0)
        if c.wght > 0 {
            tag = "wght".utf8.reduce(0) { $0 << 8 | UInt32($1) }
            var v = hb_variation_t(tag: tag, value: c.wght)
            hb_font_set_variations(hb, &v, 1)
        }
        let buffer = try #require(hb_buffer_create())
        defer { hb_buffer_destroy(buffer) }
        hb_buffer_add_utf8(buffer, c.text, -1, 0, -1)
        hb_buffer_set_direction(buffer, c.rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(hb, buffer, nil, 0)
        var n: UInt32 = 0
        let infos = try #require(hb_buffer_get_glyph_infos(buffer, &n))
        let positions = try #require(hb_buffer_get_glyph_positions(buffer, &n))
        let count = Int(n)
        let k = c.size / Double(hb_face_get_upem(face))

        // The C interface, with the arrays as they are.
        let base = try loadFont(c.path)
        var font = base
        if c.wght > 0 {
            var varied: inkhit_font?
            ok(inkhit_font_with_variations(base, [inkhit_variation(tag: tag, value: c.wght)], 1, &varied))
            ok(inkhit_font_release(base))
            font = try #require(varied)
        }
        defer { ok(inkhit_font_release(font)) }
        var style = inkhit_glyph_style()
        ok(inkhit_glyph_style_init(&style))
        style.embolden = Int32(c.embolden ? INKHIT_EMBOLDEN_FREETYPE : INKHIT_EMBOLDEN_NONE)
        var run = inkhit_glyph_run()
        ok(inkhit_glyph_run_init(&run))
        run.font = font
        run.size = c.size
        run.origin = inkhit_point(x: 9.75, y: 33.5)
        let t = c.transform
        run.transform = inkhit_transform(a: t[0], b: t[1], c: t[2], d: t[3], tx: t[4], ty: t[5])
        run.position_scale = k
        var builder: inkhit_builder?, cache: inkhit_shape_cache?    // each side's shapes in a cache of its own
        ok(inkhit_builder_create(0, &builder))
        ok(inkhit_shape_cache_create(Int.max, &cache))
        defer { ok(inkhit_builder_release(builder)); ok(inkhit_shape_cache_release(cache)) }
        var added = 0
        withUnsafePointer(to: &style) { s in
            run.style = s
            infos.withMemoryRebound(to: inkhit_hb_glyph_info.self, capacity: count) { i in
                positions.withMemoryRebound(to: inkhit_hb_glyph_position.self, capacity: count) { p in
                    ok(inkhit_builder_add_shaped(builder, cache, &run, i, p, count, nil, &added))
                }
            }
        }
        #expect(added == count)
        var index: inkhit_index?
        ok(inkhit_builder_build(builder, &index))
        defer { ok(inkhit_index_release(index)) }
        for i in 0..<count {
            var placementTag: UInt64 = 0
            ok(inkhit_index_placement_tag(index, Int64(i), &placementTag))
            #expect(placementTag == UInt64(infos[i].cluster), "glyph \(i)")
        }

        // The glyph job: positions by the header's formula, written as JSON (17 digits: exact), parsed.
        var px: Int64 = 0, py: Int64 = 0
        var glyphs: [String] = []
        for i in 0..<count {
            let x = 9.75 + Double(px + Int64(positions[i].x_offset)) * k, y = 33.5 - Double(py + Int64(positions[i].y_offset)) * k
            glyphs.append("{\"font\":0,\"id\":\(infos[i].codepoint),\"x\":\(x),\"y\":\(y)}")
            px += Int64(positions[i].x_advance); py += Int64(positions[i].y_advance)
        }
        var fontJSON = "{\"path\":\"\(c.path)\",\"index\":0"
        if c.embolden { fontJSON += ",\"embolden\":\"freetype\"" }
        if c.wght > 0 { fontJSON += ",\"variations\":{\"wght\":\(c.wght)}" }
        fontJSON += "}"
        var info = inkhit_index_info()
        ok(inkhit_index_get_info(index, &info))
        let bounds = Rect(minX: info.bounds.min_x, minY: info.bounds.min_y, maxX: info.bounds.max_x, maxY: info.bounds.max_y).outsetBy(3)
        let points = stride(from: bounds.minY, through: bounds.maxY, by: 0.61).flatMap { y in
            stride(from: bounds.minX, through: bounds.maxX, by: 0.23).map { Point($0, y) }
        }
        let line = "{\"id\":\"hb\",\"fonts\":[\(fontJSON)],\"size\":\(c.size),\"transform\":\(c.transform),\"glyphs\":["
            + glyphs.joined(separator: ",") + "],\"points\":[[0,0]]}"
        let job = try GlyphJob(JSONParser.parse(line))
        #expect(job.glyphs.count == count)
        var swiftFont = try Font(path: c.path)
        if c.wght > 0 { swiftFont = try swiftFont.withVariations([FontVariation("wght", Double(c.wght))]) }
        var b = HitIndex.Builder()
        let swiftCache = FontShapeCache()
        for g in job.glyphs {
            try b.add(GlyphPlacement(font: swiftFont, glyph: g.id, size: g.size, origin: Point(g.x, g.y), transform: job.transform,
                                     style: g.style), cache: swiftCache)
        }
        let swift = b.build()
        var differ = 0, hits = 0
        for radius in [0, 2.5] {
            for p in points {
                var h = inkhit_hit()
                ok(inkhit_index_hit(index, p.x, p.y, radius, &h))
                let s = swift.hit(at: p, radius: radius)
                if s != nil { hits += 1 }
                let same = s.map { h.hit == 1 && Int(h.placement) == $0.placement && h.distance.bitPattern == $0.distance.bitPattern }
                    ?? (h.hit == 0)
                if !same { differ += 1 }
            }
        }
        #expect(differ == 0, "\(differ) of \(2 * points.count) answers differ from the glyph job's")
        #expect(hits > points.count / 10)
    }
}
