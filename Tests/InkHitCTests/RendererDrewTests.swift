import CInkHit
import Foundation
import InkFreeType
import InkGeometry
import InkHit
import InkTestSupport
import Testing

/// The 1.1 calls for engines that shape and draw themselves: styles, runs, HarfBuzz arrays, markers, tags,
/// ink kinds, variations and borrowed bytes — each through the header, against the Swift API (the same
/// placements built by `HitIndex.Builder` answer bit for bit) or a count the test keeps itself.
struct RendererDrewTests {
    // MARK: Helpers

    static func build(_ builder: inkhit_builder?) -> inkhit_index? {
        var index: inkhit_index?
        ok(inkhit_builder_build(builder, &index))
        return index
    }

    /// A shape cache of the test's own: C and Swift sides each build their shapes independently (a shape a
    /// second index reuses may be read in another form, equal up to the last bit of a distance).
    static func newCache() -> inkhit_shape_cache? {
        var c: inkhit_shape_cache?
        ok(inkhit_shape_cache_create(Int.max, &c))
        return c
    }

    static func newBuilder() -> inkhit_builder? {
        var b: inkhit_builder?
        ok(inkhit_builder_create(0, &b))
        return b
    }

    /// Points on a grid over `rect` (view px).
    static func grid(_ rect: Rect, step: Double) -> [Point] {
        stride(from: rect.minY, through: rect.maxY, by: step).flatMap { y in
            stride(from: rect.minX, through: rect.maxX, by: step).map { Point($0, y) }
        }
    }

    /// The C index's answers equal the Swift index's on `points` at `radius`, bit for bit.
    static func expectSameAnswers(_ c: inkhit_index?, _ swift: HitIndex, _ points: [Point], radius: Double,
                                  sourceLocation: SourceLocation = #_sourceLocation) {
        var differ = 0, hits = 0
        for p in points {
            var h = inkhit_hit()
            ok(inkhit_index_hit(c, p.x, p.y, radius, &h))
            let s = swift.hit(at: p, radius: radius)
            if s != nil { hits += 1 }
            let same = s.map { h.hit == 1 && Int(h.placement) == $0.placement && h.distance.bitPattern == $0.distance.bitPattern
                && (h.inside == 1) == $0.isInside } ?? (h.hit == 0)
            if !same { differ += 1 }
        }
        #expect(differ == 0, "\(differ) of \(points.count) answers differ", sourceLocation: sourceLocation)
        #expect(hits > points.count / 50, "the grid hits ink (\(hits))", sourceLocation: sourceLocation)
    }

    // MARK: Styles and runs

    /// A run with a style (bold, fontconfig's slant, light hinting) answers as the Swift placements with the
    /// same GlyphStyle, and each placement carries its tag.
    @Test(arguments: [(INKHIT_EMBOLDEN_FREETYPE, INKHIT_HINTING_NONE), (INKHIT_EMBOLDEN_STRENGTH, INKHIT_HINTING_LIGHT),
                      (INKHIT_EMBOLDEN_NONE, INKHIT_HINTING_FULL), (INKHIT_EMBOLDEN_NONE, INKHIT_HINTING_NONE)])
    func aStyledRunAnswersAsTheSwiftStyle(_ embolden: Int, _ hinting: Int) throws {
        let font = try loadFont(TestFonts.cjk)
        defer { ok(inkhit_font_release(font)) }
        var style = inkhit_glyph_style()
        ok(inkhit_glyph_style_init(&style))
        style.embolden = Int32(embolden)
        style.hinting = Int32(hinting)
        style.embolden_x = 0.75; style.embolden_y = 0.25
        style.matrix_xy = 0.2                              // fontconfig's synthetic slant
        var run = inkhit_glyph_run()
        ok(inkhit_glyph_run_init(&run))
        run.font = font
        run.size = 22
        run.origin = inkhit_point(x: 8, y: 30)
        run.transform = inkhit_transform(a: 1.5, b: 0, c: 0, d: 1.5, tx: 3, ty: 1)
        let text = Array("永字bold".unicodeScalars)
        var ids: [UInt32] = []
        for ch in text {
            var g: UInt32 = 0
            ok(inkhit_font_glyph(font, ch.value, &g))
            ids.append(g)
        }
        let glyphs = ids.enumerated().map { inkhit_run_glyph(glyph: $1, reserved: 0, x: Double($0) * 23, y: 0, tag: 1000 + UInt64($0)) }
        let builder = Self.newBuilder(), cache = Self.newCache()
        defer { ok(inkhit_builder_release(builder)); ok(inkhit_shape_cache_release(cache)) }
        var added = 0
        try withUnsafePointer(to: &style) { s in
            run.style = s
            ok(inkhit_builder_add_run(builder, cache, &run, glyphs, glyphs.count, &added))
            try #require(added == glyphs.count)
        }
        let index = Self.build(builder)
        defer { ok(inkhit_index_release(index)) }

        let swiftFont = try TestFonts.load(TestFonts.cjk)
        var swiftStyle = GlyphStyle(hinting: [.none, .light, .full][hinting], matrix: .fontconfigSlant)
        swiftStyle.embolden = [.none, .freeType, .strength(x: 0.75, y: 0.25)][embolden]
        var b = HitIndex.Builder()
        for (i, g) in ids.enumerated() {
            try b.add(GlyphPlacement(font: swiftFont, glyph: GlyphID(g), size: 22, origin: Point(8 + Double(i) * 23, 30),
                                     transform: AffineTransform(a: 1.5, b: 0, c: 0, d: 1.5, tx: 3, ty: 1), style: swiftStyle),
                      cache: FontShapeCache())
        }
        let swift = b.build()
        Self.expectSameAnswers(index, swift, Self.grid(swift.bounds.outsetBy(2), step: 0.37), radius: 0)
        Self.expectSameAnswers(index, swift, Self.grid(swift.bounds.outsetBy(2), step: 1.3), radius: 2.5)
        for i in ids.indices {
            var tag: UInt64 = 0
            ok(inkhit_index_placement_tag(index, Int64(i), &tag))
            #expect(tag == 1000 + UInt64(i))
            var ink: Int32 = -1
            ok(inkhit_index_placement_ink(index, Int64(i), &ink))
            #expect(ink == Int32(INKHIT_INK_OUTLINE))
        }
    }

    /// HarfBuzz's arrays: positions in font units with position_scale size/upem, y up, pen summed in units;
    /// tags are tag_base + cluster; the pen after the run is written. Equal to the same glyphs placed one
    /// by one at the positions the header's formula gives.
    @Test func harfBuzzArraysPlaceGlyphsByTheHeadersFormula() throws {
        let font = try loadFont(TestFonts.sans)
        defer { ok(inkhit_font_release(font)) }
        var info = inkhit_font_info()
        ok(inkhit_font_get_info(font, &info))
        let upem = Double(info.units_per_em)
        var ids: [UInt32] = []
        for ch in "Wave, ok".unicodeScalars {
            var g: UInt32 = 0
            ok(inkhit_font_glyph(font, ch.value, &g))
            ids.append(g)
        }
        let infos = ids.enumerated().map { inkhit_hb_glyph_info(codepoint: $1, mask: 0, cluster: UInt32($0 * 2), var1: 0, var2: 0) }
        let positions = ids.enumerated().map { i, _ in
            inkhit_hb_glyph_position(x_advance: 1200 + Int32(i) * 7, y_advance: i == 3 ? 90 : 0, x_offset: i == 2 ? -40 : 0,
                                     y_offset: i == 5 ? 300 : 0, var: 0)
        }
        var run = inkhit_glyph_run()
        ok(inkhit_glyph_run_init(&run))
        run.font = font
        run.size = 18
        run.position_scale = 18 / upem
        run.origin = inkhit_point(x: 5, y: 40)
        run.tag_base = 7_000_000_000
        let builder = Self.newBuilder(), cache = Self.newCache()
        defer { ok(inkhit_builder_release(builder)); ok(inkhit_shape_cache_release(cache)) }
        var pen = inkhit_point(x: -1, y: -1)
        var added = 0
        ok(inkhit_builder_add_shaped(builder, cache, &run, infos, positions, infos.count, &pen, &added))
        #expect(added == ids.count)
        let index = Self.build(builder)
        defer { ok(inkhit_index_release(index)) }

        let swiftFont = try TestFonts.load(TestFonts.sans)
        var b = HitIndex.Builder()
        let swiftCache = FontShapeCache()
        var px: Int64 = 0, py: Int64 = 0
        let k = 18 / upem
        for (g, p) in zip(ids, positions) {
            let x = 5 + Double(px + Int64(p.x_offset)) * k, y = 40 - Double(py + Int64(p.y_offset)) * k
            try b.add(GlyphPlacement(font: swiftFont, glyph: GlyphID(g), size: 18, origin: Point(x, y)), cache: swiftCache)
            px += Int64(p.x_advance); py += Int64(p.y_advance)
        }
        #expect(pen.x == 5 + Double(px) * k && pen.y == 40 - Double(py) * k)
        let swift = b.build()
        Self.expectSameAnswers(index, swift, Self.grid(swift.bounds.outsetBy(1), step: 0.29), radius: 0)
        for i in ids.indices {
            var tag: UInt64 = 0
            ok(inkhit_index_placement_tag(index, Int64(i), &tag))
            #expect(tag == 7_000_000_000 + UInt64(i * 2))
        }
        // Without positions every glyph sits at the origin.
        var atOrigin = inkhit_point()
        ok(inkhit_builder_add_shaped(builder, nil, &run, infos, nil, 2, &atOrigin, &added))
        #expect(added == 2 && atOrigin.x == 5 && atOrigin.y == 40)
    }

    // MARK: Markers

    /// Pango's marker ids never stop a batch: every call adds them as inkless placements with their number
    /// and tag; the glyphs after them are added and hit.
    @Test func markerGlyphIdsKeepTheirNumberAndNeverStopABatch() throws {
        let font = try loadFont(TestFonts.sans)
        defer { ok(inkhit_font_release(font)) }
        var o: UInt32 = 0
        ok(inkhit_font_glyph(font, UInt32(("o" as Unicode.Scalar).value), &o))
        let markers: [UInt32] = [0x0FFF_FFFF, 0x1000_0041, 0x1001_F600, 0xFFFF_FFFF]
        let builder = Self.newBuilder()
        defer { ok(inkhit_builder_release(builder)) }
        // inkhit_builder_add_glyphs: o, four markers, o.
        let ids = [o] + markers + [o]
        let placements = ids.enumerated().map {
            inkhit_glyph_placement(font: font, glyph: $1, size: 20, origin: inkhit_point(x: Double($0) * 20, y: 30), transform: identity)
        }
        var added = 0
        ok(inkhit_builder_add_glyphs(builder, nil, placements, placements.count, &added))
        #expect(added == 6)
        // inkhit_builder_add_glyph: a marker with a NULL font is fine.
        var single = inkhit_glyph_placement(font: nil, glyph: 0x0FFF_FFFF, size: .nan, origin: inkhit_point(), transform: identity)
        var k = 0
        ok(inkhit_builder_add_glyph(builder, nil, &single, &k))
        #expect(k == 6)
        // inkhit_builder_add_run and _add_shaped.
        var run = inkhit_glyph_run()
        ok(inkhit_glyph_run_init(&run))
        run.font = font
        run.size = 20
        let runGlyphs = [markers[0], o, markers[1]].enumerated().map {
            inkhit_run_glyph(glyph: $1, reserved: 0, x: 200 + Double($0) * 20, y: 30, tag: 50 + UInt64($0))
        }
        ok(inkhit_builder_add_run(builder, nil, &run, runGlyphs, 3, &added))
        #expect(added == 3)
        let infos = [markers[3], o].enumerated().map { inkhit_hb_glyph_info(codepoint: $1, mask: 0, cluster: UInt32(60 + $0), var1: 0, var2: 0) }
        run.origin = inkhit_point(x: 300, y: 30)
        ok(inkhit_builder_add_shaped(builder, nil, &run, infos, nil, 2, nil, &added))
        #expect(added == 2)
        let index = Self.build(builder)
        defer { ok(inkhit_index_release(index)) }
        var n = 0
        ok(inkhit_builder_count(builder, &n))
        #expect(n == 12)
        let inks = (0..<12).map { i -> Int32 in
            var ink: Int32 = -1
            ok(inkhit_index_placement_ink(index, Int64(i), &ink))
            return ink
        }
        let none = Int32(INKHIT_INK_NONE), outline = Int32(INKHIT_INK_OUTLINE)
        #expect(inks == [outline, none, none, none, none, outline, none, none, outline, none, none, outline])
        var tag: UInt64 = 0
        ok(inkhit_index_placement_tag(index, 9, &tag))
        #expect(tag == 52, "a marker keeps its tag")
        // The o after the markers is placement 5, hit on its ink (its ring's left side at x ≈ 101.9).
        var h = inkhit_hit()
        ok(inkhit_index_hit(index, 5 * 20 + 2.1, 30 - 5.6, 0, &h))
        #expect(h.hit == 1 && h.placement == 5)
        // Markers are never hit, whatever the radius.
        ok(inkhit_index_hit(index, 20 + 5, 25, 1000, &h))
        #expect(h.hit == 1 && ![1, 2, 3, 4, 6, 7, 9, 10].contains(h.placement))
    }

    // MARK: Tags and ink kinds

    @Test func tagsAndInkKinds() throws {
        let font = try loadFont(TestFonts.sans)
        let emoji = try loadFont(TestFonts.emoji)
        defer { ok(inkhit_font_release(font)); ok(inkhit_font_release(emoji)) }
        var a: UInt32 = 0, smile: UInt32 = 0
        ok(inkhit_font_glyph(font, 0x41, &a))
        ok(inkhit_font_glyph(emoji, 0x1F600, &smile))
        let builder = Self.newBuilder()
        defer { ok(inkhit_builder_release(builder)) }
        var p = inkhit_glyph_placement(font: font, glyph: a, size: 20, origin: inkhit_point(x: 0, y: 20), transform: identity)
        ok(inkhit_builder_add_glyph(builder, nil, &p, nil))
        p.font = emoji; p.glyph = smile; p.origin.x = 30
        ok(inkhit_builder_add_glyph(builder, nil, &p, nil))
        let verbs: [UInt8] = [UInt8(INKHIT_VERB_MOVE), UInt8(INKHIT_VERB_LINE), UInt8(INKHIT_VERB_LINE), UInt8(INKHIT_VERB_CLOSE)]
        let points = [inkhit_point(x: 60, y: 0), inkhit_point(x: 70, y: 0), inkhit_point(x: 70, y: 10)]
        ok(inkhit_builder_add_outline(builder, nil, 0, verbs, 4, points, 3, Int32(INKHIT_FILL_NONZERO), nil, nil))
        p.font = font; p.glyph = 3                                           // DejaVu's space
        ok(inkhit_builder_add_glyph(builder, nil, &p, nil))
        ok(inkhit_builder_set_tag(builder, 1, 0xDEAD_BEEF_CAFE))
        ok(inkhit_builder_set_tag(builder, 2, 42))
        fails(inkhit_builder_set_tag(builder, 4, 1), INKHIT_ERROR_INVALID_ARGUMENT, "placement 4 is not one of the builder's 4")
        let index = Self.build(builder)
        defer { ok(inkhit_index_release(index)) }
        ok(inkhit_builder_set_tag(builder, 2, 43))                           // after the build: the index keeps 42
        let expected: [(UInt64, Int)] = [(0, INKHIT_INK_OUTLINE), (0xDEAD_BEEF_CAFE, INKHIT_INK_BITMAP), (42, INKHIT_INK_PATH),
                                         (0, INKHIT_INK_NONE)]
        for (i, (t, ink)) in expected.enumerated() {
            var tag: UInt64 = 1, kind: Int32 = -1
            ok(inkhit_index_placement_tag(index, Int64(i), &tag))
            ok(inkhit_index_placement_ink(index, Int64(i), &kind))
            #expect(tag == t && kind == Int32(ink), "placement \(i)")
        }
        var tag: UInt64 = 9
        fails(inkhit_index_placement_tag(index, -1, &tag), INKHIT_ERROR_INVALID_ARGUMENT, "-1 is a miss")
        #expect(tag == 0)
        fails(inkhit_index_placement_tag(index, 4, &tag), INKHIT_ERROR_INVALID_ARGUMENT, "not one of the index's 4")
        fails(inkhit_index_placement_tag(index, 0, nil), INKHIT_ERROR_NULL_ARGUMENT, "tag_out is NULL")
        var kind: Int32 = 3
        fails(inkhit_index_placement_ink(nil, 0, &kind), INKHIT_ERROR_NULL_ARGUMENT, "index is NULL")
        #expect(kind == Int32(INKHIT_INK_NONE))
    }

    // MARK: Struct sizes

    @Test func growableStructsCheckTheirSize() throws {
        let font = try loadFont(TestFonts.sans)
        defer { ok(inkhit_font_release(font)) }
        let builder = Self.newBuilder()
        defer { ok(inkhit_builder_release(builder)) }
        var run = inkhit_glyph_run()
        ok(inkhit_glyph_run_init(&run))
        run.font = font
        let g = [inkhit_run_glyph(glyph: 36, reserved: 0, x: 0, y: 20, tag: 0)]
        var added = 0
        run.struct_size -= 8
        fails(inkhit_builder_add_run(builder, nil, &run, g, 1, &added), INKHIT_ERROR_INVALID_ARGUMENT, "inkhit_glyph_run_init")
        run.struct_size = 0
        fails(inkhit_builder_add_run(builder, nil, &run, g, 1, &added), INKHIT_ERROR_INVALID_ARGUMENT, "struct_size is 0")
        // A newer caller's larger struct: zero tail fields are fine, set ones are refused (never dropped).
        var bigger = [UInt8](repeating: 0, count: MemoryLayout<inkhit_glyph_style>.size + 16)
        try bigger.withUnsafeMutableBytes { raw in
            let style = raw.baseAddress!.assumingMemoryBound(to: inkhit_glyph_style.self)
            ok(inkhit_glyph_style_init(style))
            style.pointee.struct_size = raw.count
            run.struct_size = MemoryLayout<inkhit_glyph_run>.size
            run.style = UnsafePointer(style)
            ok(inkhit_builder_add_run(builder, nil, &run, g, 1, &added))
            raw[raw.count - 3] = 1
            fails(inkhit_builder_add_run(builder, nil, &run, g, 1, &added), INKHIT_ERROR_INVALID_ARGUMENT,
                  "sets fields past byte \(MemoryLayout<inkhit_glyph_style>.size)")
            raw[raw.count - 3] = 0
            style.pointee.embolden = 7
            fails(inkhit_builder_add_run(builder, nil, &run, g, 1, &added), INKHIT_ERROR_INVALID_ARGUMENT, "INKHIT_EMBOLDEN_")
            style.pointee.embolden = Int32(INKHIT_EMBOLDEN_NONE)
            style.pointee.matrix_yy = 0; style.pointee.matrix_xx = 0
            fails(inkhit_builder_add_run(builder, nil, &run, g, 1, &added), INKHIT_ERROR_INVALID_ARGUMENT, "must not be singular")
            try #require(added == 0)
        }
        run.style = nil
        var reserved = g
        reserved[0].reserved = 1
        fails(inkhit_builder_add_run(builder, nil, &run, reserved, 1, &added), INKHIT_ERROR_INVALID_ARGUMENT, "glyphs[0]: reserved")
        run.position_scale = 0
        fails(inkhit_builder_add_shaped(builder, nil, &run, [inkhit_hb_glyph_info()], nil, 1, nil, &added),
              INKHIT_ERROR_INVALID_ARGUMENT, "position_scale")
        fails(inkhit_glyph_style_init(nil), INKHIT_ERROR_NULL_ARGUMENT, "style is NULL")
        fails(inkhit_glyph_run_init(nil), INKHIT_ERROR_NULL_ARGUMENT, "run is NULL")
        run.font = nil
        fails(inkhit_builder_add_run(builder, nil, &run, g, 1, &added), INKHIT_ERROR_NULL_ARGUMENT, "run->font is NULL")
        fails(inkhit_builder_add_run(builder, nil, nil, g, 1, &added), INKHIT_ERROR_NULL_ARGUMENT, "run is NULL")
    }

    // MARK: Variations

    @Test func variationsByTagAndNamedInstances() throws {
        let inter = try loadFont(TestFonts.interVariable)
        defer { ok(inkhit_font_release(inter)) }
        var n = 0
        ok(inkhit_font_get_variations(inter, nil, 0, &n))
        #expect(n == 2)
        func tag(_ s: String) -> UInt32 { s.utf8.reduce(0) { $0 << 8 | UInt32($1) } }
        var bold: inkhit_font?
        let request = [inkhit_variation(tag: tag("wght"), value: 1200), inkhit_variation(tag: tag("slnt"), value: -5)]
        ok(inkhit_font_with_variations(inter, request, 2, &bold))
        defer { ok(inkhit_font_release(bold)) }
        var got = [inkhit_variation](repeating: inkhit_variation(), count: 3)
        ok(inkhit_font_get_variations(bold, &got, 3, &n))
        #expect(n == 2 && got[0].tag == tag("wght") && got[0].value == 900 && got[1].tag == tag("slnt") && got[1].value == -5,
                "wght clamped to 900")
        // The packed index fontconfig gives Inter.var.ttf's Bold (FC_INDEX 851968 = 13 << 16): wght 700, slnt 0.
        let packed = try loadFont(TestFonts.interVariable, faceIndex: 13 << 16)
        defer { ok(inkhit_font_release(packed)) }
        ok(inkhit_font_get_variations(packed, &got, 2, &n))
        #expect(got[0].value == 700 && got[1].value == 0)
        // Variations start from the packed instance: only slnt changes.
        var slanted: inkhit_font?
        ok(inkhit_font_with_variations(packed, [inkhit_variation(tag: tag("slnt"), value: -10)], 1, &slanted))
        ok(inkhit_font_get_variations(slanted, &got, 2, &n))
        #expect(got[0].value == 700 && got[1].value == -10)
        ok(inkhit_font_release(slanted))

        var f: inkhit_font?
        fails(inkhit_font_with_variations(inter, [inkhit_variation(tag: 0x0102_0304, value: 1)], 1, &f),
              INKHIT_ERROR_INVALID_ARGUMENT, "not four printable ASCII")
        fails(inkhit_font_with_variations(inter, [inkhit_variation(tag: tag("wght"), value: .nan)], 1, &f),
              INKHIT_ERROR_INVALID_ARGUMENT, "must be finite")
        fails(inkhit_font_with_variations(inter, [inkhit_variation(tag: tag("wdth"), value: 80)], 1, &f), INKHIT_ERROR_FONT, "wdth")
        let sans = try loadFont(TestFonts.sans)
        defer { ok(inkhit_font_release(sans)) }
        fails(inkhit_font_with_variations(sans, request, 1, &f), INKHIT_ERROR_FONT, "not a variable font")
        ok(inkhit_font_get_variations(sans, nil, 0, &n))
        #expect(n == 0)
        fails(inkhit_font_from_path(TestFonts.interVariable, 99 << 16, &f), INKHIT_ERROR_FONT, "#98")
        fails(inkhit_font_from_path(TestFonts.sans, 1 << 16, &f), INKHIT_ERROR_FONT, "packs a named instance")
        fails(inkhit_font_get_variations(inter, nil, 1, &n), INKHIT_ERROR_NULL_ARGUMENT, "out (with capacity 1) is NULL")
    }

    // MARK: Borrowed bytes

    /// The release callback runs exactly once: when the last font over the bytes goes, at once on every
    /// failure, at once when equal bytes are loaded already.
    @Test func borrowedBytesAreReleasedExactlyOnce() throws {
        let serif = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestFonts.serif))) + Array("c-lent \(UInt64.random(in: 0...UInt64.max))".utf8)
        let counter = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        defer { counter.deallocate() }
        let release: inkhit_release_func = { $0!.assumingMemoryBound(to: Int.self).pointee += 1 }
        serif.withUnsafeBufferPointer { bytes in
            counter.pointee = 0
            var font: inkhit_font?
            ok(inkhit_font_from_borrowed_bytes(bytes.baseAddress, bytes.count, 0, release, counter, &font))
            var varied: inkhit_font?                                     // another font over the same bytes
            ok(inkhit_font_with_variations(font, nil, 0, &varied))
            var g: UInt32 = 0
            ok(inkhit_font_glyph(font, 0x67, &g))
            #expect(g > 0)
            ok(inkhit_font_release(font))
            #expect(counter.pointee == 0, "the second font still reads the bytes")
            ok(inkhit_font_release(varied))
            #expect(counter.pointee == 1)
            // Failures: not a font, NULL out, NULL bytes with a length; each releases once before returning.
            for (status, want) in [
                (inkhit_font_from_borrowed_bytes(bytes.baseAddress, 64, 0, release, counter, &font), INKHIT_ERROR_FONT),
                (inkhit_font_from_borrowed_bytes(bytes.baseAddress, bytes.count, 0, release, counter, nil), INKHIT_ERROR_NULL_ARGUMENT),
                (inkhit_font_from_borrowed_bytes(nil, 10, 0, release, counter, &font), INKHIT_ERROR_NULL_ARGUMENT),
                (inkhit_font_from_borrowed_bytes(bytes.baseAddress, 0, 0, release, counter, &font), INKHIT_ERROR_FONT),
            ] {
                #expect(status == inkhit_status(want), "\(lastError)")
            }
            #expect(counter.pointee == 5)
            // Equal bytes already loaded: shared, and the lent ones go back at once.
            var held: inkhit_font?
            ok(inkhit_font_from_bytes(bytes.baseAddress, bytes.count, 0, &held))
            ok(inkhit_font_from_borrowed_bytes(bytes.baseAddress, bytes.count, 0, release, counter, &font))
            #expect(counter.pointee == 6)
            ok(inkhit_font_release(font))
            ok(inkhit_font_release(held))
            #expect(counter.pointee == 6)
            // A NULL release is allowed (the caller keeps the bytes alive).
            ok(inkhit_font_from_borrowed_bytes(bytes.baseAddress, bytes.count, 0, nil, nil, &font))
            ok(inkhit_font_release(font))
        }
    }

    /// Two handles of one file share their shapes in a cache: one shape for the glyph both place.
    @Test func twoHandlesOfOneFileShareShapes() throws {
        let a = try loadFont(TestFonts.serif), b = try loadFont(TestFonts.serif)
        defer { ok(inkhit_font_release(a)); ok(inkhit_font_release(b)) }
        var cache: inkhit_shape_cache?
        ok(inkhit_shape_cache_create(64 << 20, &cache))
        defer { ok(inkhit_shape_cache_release(cache)) }
        let builder = Self.newBuilder()
        defer { ok(inkhit_builder_release(builder)) }
        let placements = [a, b].enumerated().map {
            inkhit_glyph_placement(font: $1, glyph: 70, size: 30, origin: inkhit_point(x: Double($0) * 40, y: 40), transform: identity)
        }
        ok(inkhit_builder_add_glyphs(builder, cache, placements, 2, nil))
        var info = inkhit_shape_cache_info()
        ok(inkhit_shape_cache_get_info(cache, &info))
        #expect(info.glyph_shapes == 1)
    }
}
