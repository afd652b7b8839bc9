import CInkHit
import InkFreeType
import InkGeometry
import InkHit
import InkTestSupport
import Testing

/// Skia's rules through the header (inkhit_skia_font, inkhit_glyph_style_for_skia): the style C writes is the one
/// Swift's `GlyphStyle.skia` makes for the same settings, field by field and in the glyphs it draws; SkFont's
/// defaults; every bad value named.
struct SkiaCTests {
    static func font(_ set: (inout inkhit_skia_font) -> Void = { _ in }) -> inkhit_skia_font {
        var f = inkhit_skia_font()
        ok(inkhit_skia_font_init_sized(&f, MemoryLayout<inkhit_skia_font>.size))
        set(&f)
        return f
    }

    static func style(for f: inkhit_skia_font, _ t: inkhit_transform) -> (inkhit_status, inkhit_glyph_style) {
        var f = f, t = t
        var s = inkhit_glyph_style()
        ok(inkhit_glyph_style_init_sized(&s, MemoryLayout<inkhit_glyph_style>.size))
        let status = inkhit_glyph_style_for_skia(&f, &t, &s)
        return (status, s)
    }

    @Test func theDefaultsAreSkFonts() {
        let f = Self.font()
        #expect(f.struct_size == MemoryLayout<inkhit_skia_font>.size && f.size == 12 && f.scale_x == 1 && f.skew_x == 0)
        #expect(f.hinting == Int32(INKHIT_SKIA_HINTING_NORMAL) && f.edging == Int32(INKHIT_SKIA_EDGING_ANTI_ALIAS))
        #expect(f.embolden == 0 && f.subpixel == 0 && f.baseline_snap == 1 && f.force_auto_hinting == 0)
        var g = inkhit_skia_font()
        #expect(inkhit_skia_font_init_sized(&g, 24) == inkhit_status(INKHIT_ERROR_INVALID_ARGUMENT))
        #expect(inkhit_skia_font_init_sized(nil, MemoryLayout<inkhit_skia_font>.size) == inkhit_status(INKHIT_ERROR_NULL_ARGUMENT))
    }

    /// (settings, canvas matrix): C's style is Swift's, and both draw the same glyphs.
    static let cases: [(String, @Sendable (inout inkhit_skia_font) -> Void, inkhit_transform)] = [
        ("defaults", { $0.size = 17 }, inkhit_transform(a: 1, b: 0, c: 0, d: 1, tx: 0.3, ty: 0.2)),
        ("subpixel bold at 2×", { $0.size = 15; $0.subpixel = 1; $0.embolden = 1 }, inkhit_transform(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0)),
        ("skew, slight, rotated", { $0.size = 19; $0.skew_x = -0.25; $0.hinting = Int32(INKHIT_SKIA_HINTING_SLIGHT); $0.subpixel = 1 },
         inkhit_transform(a: 0.8775825619, b: 0.4794255386, c: -0.4794255386, d: 0.8775825619, tx: 40, ty: 0)),
        ("scaleX, alias", { $0.size = 13; $0.scale_x = 1.3; $0.edging = Int32(INKHIT_SKIA_EDGING_ALIAS) }, inkhit_transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)),
        ("a path", { $0.size = 140; $0.embolden = 1 }, inkhit_transform(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0)),
        ("quarter turn, no snap", { $0.size = 16; $0.subpixel = 1; $0.baseline_snap = 0; $0.hinting = Int32(INKHIT_SKIA_HINTING_FULL) },
         inkhit_transform(a: 0, b: 1, c: -1, d: 0, tx: 50, ty: 0)),
    ]

    @Test(arguments: cases.indices)
    func cWritesSwiftsStyle(_ i: Int) throws {
        let (name, set, t) = Self.cases[i]
        let f = Self.font(set)
        let (status, c) = Self.style(for: f, t)
        #expect(status == inkhit_status(INKHIT_OK), "\(name): \(String(cString: inkhit_last_error()))")
        let transform = AffineTransform(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx, ty: t.ty)
        let swift = try GlyphStyle.skia(SkiaFont(size: f.size, scaleX: f.scale_x, skewX: f.skew_x, embolden: f.embolden == 1,
                                                 hinting: SkiaFont.Hinting(rawValue: Int(f.hinting))!, subpixel: f.subpixel == 1,
                                                 edging: SkiaFont.Edging(rawValue: Int(f.edging))!, baselineSnap: f.baseline_snap == 1),
                                        transform: transform)
        #expect(c.struct_size == MemoryLayout<inkhit_glyph_style>.size)
        #expect(c.matrix_xx == swift.matrix.xx && c.matrix_xy == swift.matrix.xy && c.matrix_yx == 0 && c.matrix_yy == 1, "\(name)")
        #expect(c.origin_rounding.x.grid == swift.originRounding.x.grid && c.origin_rounding.x.bias == swift.originRounding.x.bias)
        #expect(c.origin_rounding.y.grid == swift.originRounding.y.grid && c.origin_rounding.y.bias == swift.originRounding.y.bias)
        #expect(c.hinting_under_transform == Int32(INKHIT_HINTING_UNDER_TRANSFORM_OFF_WHEN_NOT_AXIS_ALIGNED))
        if case .stroke(let w, .miter(let limit)) = swift.embolden {
            #expect(c.embolden == Int32(INKHIT_EMBOLDEN_STROKE) && c.stroke_width == w && c.miter_limit == limit && c.stroke_join == Int32(INKHIT_JOIN_MITER))
        } else {
            #expect(c.embolden == Int32(INKHIT_EMBOLDEN_NONE) && swift.embolden == .none)
        }
        // The glyphs C adds with that style answer as Swift's.
        let cFont = try loadFont(TestFonts.sans)
        defer { ok(inkhit_font_release(cFont)) }
        var style = c
        var run = inkhit_glyph_run()
        ok(inkhit_glyph_run_init(&run))
        run.font = cFont
        run.size = f.size
        run.transform = t
        var ids: [UInt32] = []
        for ch in "Hag".unicodeScalars {
            var g: UInt32 = 0
            ok(inkhit_font_glyph(cFont, ch.value, &g))
            ids.append(g)
        }
        let positions = ids.indices.map { Point(5.37 + Double($0) * f.size * 0.7, f.size * 1.2 + 0.41 + Double($0) * 0.37) }
        let glyphs = ids.indices.map { inkhit_run_glyph(glyph: ids[$0], reserved: 0, x: positions[$0].x, y: positions[$0].y, tag: 0) }
        let builder = RendererDrewTests.newBuilder(), cache = RendererDrewTests.newCache()
        defer { ok(inkhit_builder_release(builder)); ok(inkhit_shape_cache_release(cache)) }
        withUnsafePointer(to: &style) { s in
            run.style = s
            ok(inkhit_builder_add_run(builder, cache, &run, glyphs, glyphs.count, nil))
        }
        let index = RendererDrewTests.build(builder)
        defer { ok(inkhit_index_release(index)) }
        let sans = try TestFonts.load(TestFonts.sans)
        var b = HitIndex.Builder()
        for (k, g) in ids.enumerated() {
            try b.add(GlyphPlacement(font: sans, glyph: GlyphID(g), size: f.size, origin: positions[k], transform: transform, style: swift),
                      cache: FontShapeCache())
        }
        let reference = b.build()
        let box = reference.bounds.outsetBy(1)
        RendererDrewTests.expectSameAnswers(index, reference, RendererDrewTests.grid(box, step: max(0.37, max(box.width, box.height) / 200)), radius: 0)
    }

    @Test func badSettingsAreNamed() {
        let identity = inkhit_transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        let bad: [(String, @Sendable (inout inkhit_skia_font) -> Void, inkhit_transform)] = [
            ("size", { $0.size = -3 }, identity), ("scaleX", { $0.scale_x = 0 }, identity), ("skewX", { $0.skew_x = .nan }, identity),
            ("hinting", { $0.hinting = 4 }, identity), ("edging", { $0.edging = -1 }, identity), ("embolden", { $0.embolden = 2 }, identity),
            ("subpixel", { $0.subpixel = 7 }, identity), ("baseline_snap", { $0.baseline_snap = -1 }, identity),
            ("forceAutoHinting", { $0.force_auto_hinting = 1 }, identity),
            ("invertible", { _ in }, inkhit_transform(a: 1, b: 2, c: 2, d: 4, tx: 0, ty: 0)),
            ("NaN", { _ in }, inkhit_transform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)),
            ("struct_size", { $0.struct_size = 16 }, identity),
        ]
        for (word, set, t) in bad {
            let (status, _) = Self.style(for: Self.font(set), t)
            #expect(status == inkhit_status(INKHIT_ERROR_INVALID_ARGUMENT), "\(word)")
            #expect(String(cString: inkhit_last_error()).contains(word), "\(word): \(String(cString: inkhit_last_error()))")
        }
        var f = Self.font(), t = identity
        var short = inkhit_glyph_style()
        ok(inkhit_glyph_style_init_sized(&short, MemoryLayout<inkhit_glyph_style>.offset(of: \inkhit_glyph_style.stroke_width)!))
        #expect(inkhit_glyph_style_for_skia(&f, &t, &short) == inkhit_status(INKHIT_ERROR_INVALID_ARGUMENT), "a 1.1 struct cannot hold the style")
        #expect(inkhit_glyph_style_for_skia(nil, &t, &short) == inkhit_status(INKHIT_ERROR_NULL_ARGUMENT))
        #expect(inkhit_glyph_style_for_skia(&f, nil, &short) == inkhit_status(INKHIT_ERROR_NULL_ARGUMENT))
        #expect(inkhit_glyph_style_for_skia(&f, &t, nil) == inkhit_status(INKHIT_ERROR_NULL_ARGUMENT))
    }
}
