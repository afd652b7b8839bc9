import CInkHit
import Foundation
import InkFreeType
import InkGeometry
import InkHit
import InkTestSupport
import Testing

/// The 1.2 renderer rules through the header: the new inkhit_glyph_style fields answer as the Swift style with
/// the same values (bit for bit), a 1.1 caller's shorter struct is written and read only as far as it goes,
/// bad values are named; inkhit_builder_add_path's conics and start points against a circle.
struct RendererRulesCTests {
    static func style() -> inkhit_glyph_style {
        var s = inkhit_glyph_style()
        ok(inkhit_glyph_style_init_sized(&s, MemoryLayout<inkhit_glyph_style>.size))
        return s
    }

    /// (C fields set, the Swift style they stand for).
    static let cases: [(String, @Sendable (inout inkhit_glyph_style) -> Void, GlyphStyle)] = [
        ("stroke miter", { $0.embolden = Int32(INKHIT_EMBOLDEN_STROKE); $0.stroke_width = 1.2; $0.miter_limit = 3 },
         GlyphStyle(embolden: .stroke(width: 1.2, join: .miter(limit: 3)))),
        ("stroke round, hinted", { $0.embolden = Int32(INKHIT_EMBOLDEN_STROKE); $0.stroke_width = 0.8; $0.stroke_join = Int32(INKHIT_JOIN_ROUND); $0.hinting = Int32(INKHIT_HINTING_FULL) },
         GlyphStyle(embolden: .stroke(width: 0.8, join: .round), hinting: .full)),
        ("skia bold", { $0.embolden = Int32(INKHIT_EMBOLDEN_SKIA) }, GlyphStyle(embolden: .skiaFakeBold)),
        ("qt origins", { $0.origin_rounding = inkhit_origin_rounding(x: .init(grid: 0.25, bias: 1.0 / 64), y: .init(grid: 1, bias: 0.5)) },
         GlyphStyle(originRounding: OriginRounding(x: .init(grid: 0.25, bias: 1.0 / 64), y: .wholePixel))),
        ("axis rule", { $0.hinting = Int32(INKHIT_HINTING_FULL); $0.hinting_under_transform = Int32(INKHIT_HINTING_UNDER_TRANSFORM_OFF_WHEN_NOT_AXIS_ALIGNED); $0.matrix_xy = 0.25 },
         GlyphStyle(hinting: .full, matrix: GlyphMatrix(xx: 1, xy: 0.25, yx: 0, yy: 1), hintingUnderTransform: .offWhenNotAxisAligned)),
        ("scaled rule", { $0.hinting = Int32(INKHIT_HINTING_LIGHT); $0.hinting_under_transform = Int32(INKHIT_HINTING_UNDER_TRANSFORM_OFF_WHEN_SCALED_OR_ROTATED) },
         GlyphStyle(hinting: .light, hintingUnderTransform: .offWhenScaledOrRotated)),
        ("per-axis ppem", { $0.hinting = Int32(INKHIT_HINTING_FULL); $0.ppem = Int32(INKHIT_PPEM_PER_AXIS); $0.matrix_xx = 1.3 },
         GlyphStyle(hinting: .full, matrix: GlyphMatrix(xx: 1.3, xy: 0, yx: 0, yy: 1), ppem: .perAxis)),
        ("darkened", { $0.stem_darkening = 1 }, GlyphStyle(stemDarkening: true)),
        ("mono hinting", { $0.hinting = Int32(INKHIT_HINTING_MONO) }, GlyphStyle(hinting: .mono)),
        ("view ppem, stroked", { $0.hinting = Int32(INKHIT_HINTING_LIGHT); $0.ppem = Int32(INKHIT_PPEM_VIEW); $0.embolden = Int32(INKHIT_EMBOLDEN_STROKE); $0.stroke_width = 0.7 },
         GlyphStyle(embolden: .stroke(width: 0.7, join: .miter(limit: 4)), hinting: .light, ppem: .view)),
    ]

    @Test(arguments: cases.indices)
    func eachNewFieldAnswersAsTheSwiftStyle(_ i: Int) throws {
        let (name, set, swiftStyle) = Self.cases[i]
        for path in [TestFonts.sans, TestFonts.cantarell] {
            let font = try loadFont(path)
            defer { ok(inkhit_font_release(font)) }
            var style = Self.style()
            set(&style)
            var run = inkhit_glyph_run()
            ok(inkhit_glyph_run_init(&run))
            run.font = font
            run.size = 15
            run.origin = inkhit_point(x: 6.3, y: 20.45)
            run.transform = inkhit_transform(a: 1.25, b: 0, c: 0, d: 1.25, tx: 0.3, ty: 0.1)
            var ids: [UInt32] = []
            for ch in "Rag&".unicodeScalars {
                var g: UInt32 = 0
                ok(inkhit_font_glyph(font, ch.value, &g))
                ids.append(g)
            }
            let glyphs = ids.enumerated().map { inkhit_run_glyph(glyph: $1, reserved: 0, x: Double($0) * 9.7, y: 0, tag: 0) }
            let builder = RendererDrewTests.newBuilder(), cache = RendererDrewTests.newCache()
            defer { ok(inkhit_builder_release(builder)); ok(inkhit_shape_cache_release(cache)) }
            var added = 0
            withUnsafePointer(to: &style) { s in
                run.style = s
                ok(inkhit_builder_add_run(builder, cache, &run, glyphs, glyphs.count, &added))
            }
            #expect(added == glyphs.count, "\(name)")
            let index = RendererDrewTests.build(builder)
            defer { ok(inkhit_index_release(index)) }
            let swiftFont = try TestFonts.load(path)
            var b = HitIndex.Builder()
            for (k, g) in ids.enumerated() {
                try b.add(GlyphPlacement(font: swiftFont, glyph: GlyphID(g), size: 15, origin: Point(6.3 + Double(k) * 9.7, 20.45),
                                         transform: AffineTransform(a: 1.25, b: 0, c: 0, d: 1.25, tx: 0.3, ty: 0.1), style: swiftStyle),
                          cache: FontShapeCache())
            }
            let swift = b.build()
            RendererDrewTests.expectSameAnswers(index, swift, RendererDrewTests.grid(swift.bounds.outsetBy(1), step: 0.29), radius: 0)
        }
    }

    /// A program built against 1.1 calls inkhit_glyph_style_init on its 80-byte struct: nothing past it is
    /// written, and a struct of that size is read without its tail (garbage there changes nothing).
    @Test func aVersion11StructIsWrittenAndReadOnlyAsFarAsItGoes() throws {
        let size11 = MemoryLayout<inkhit_glyph_style>.offset(of: \inkhit_glyph_style.stroke_width)!
        #expect(size11 == 80)
        let raw = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<inkhit_glyph_style>.size + 16, alignment: 16)
        defer { raw.deallocate() }
        raw.initializeMemory(as: UInt8.self, repeating: 0xAB, count: MemoryLayout<inkhit_glyph_style>.size + 16)
        let p = raw.assumingMemoryBound(to: inkhit_glyph_style.self)
        ok(inkhit_glyph_style_init(p))
        #expect(p.pointee.struct_size == size11 && p.pointee.alpha_threshold == 0.5 && p.pointee.matrix_yy == 1)
        for k in size11..<(MemoryLayout<inkhit_glyph_style>.size + 16) { #expect(raw.load(fromByteOffset: k, as: UInt8.self) == 0xAB) }
        // The tail holds 0xAB bytes (an embolden value of garbage, NaN-like widths): unread.
        p.pointee.embolden = Int32(INKHIT_EMBOLDEN_FREETYPE)
        let font = try loadFont(TestFonts.sans)
        defer { ok(inkhit_font_release(font)) }
        var run = inkhit_glyph_run()
        ok(inkhit_glyph_run_init(&run))
        run.font = font
        run.style = UnsafePointer(p)
        let builder = RendererDrewTests.newBuilder()
        defer { ok(inkhit_builder_release(builder)) }
        let glyph = inkhit_run_glyph(glyph: 36, reserved: 0, x: 0, y: 20, tag: 0)
        withUnsafePointer(to: glyph) { ok(inkhit_builder_add_run(builder, nil, &run, $0, 1, nil)) }
        // The sized init writes the whole struct with this version's size; other sizes are refused.
        var s = inkhit_glyph_style()
        ok(inkhit_glyph_style_init_sized(&s, MemoryLayout<inkhit_glyph_style>.size))
        #expect(s.struct_size == MemoryLayout<inkhit_glyph_style>.size && s.miter_limit == 4 && s.stroke_join == Int32(INKHIT_JOIN_MITER))
        fails(inkhit_glyph_style_init_sized(&s, 100), INKHIT_ERROR_INVALID_ARGUMENT, "size 100")
        fails(inkhit_glyph_style_init_sized(nil, 80), INKHIT_ERROR_NULL_ARGUMENT, "style")
    }

    @Test func badValuesAreNamed() throws {
        let font = try loadFont(TestFonts.sans)
        defer { ok(inkhit_font_release(font)) }
        let builder = RendererDrewTests.newBuilder()
        defer { ok(inkhit_builder_release(builder)) }
        let bad: [((inout inkhit_glyph_style) -> Void, String)] = [
            ({ $0.embolden = 9 }, "embolden 9"),
            ({ $0.embolden = Int32(INKHIT_EMBOLDEN_STROKE); $0.stroke_join = 7 }, "stroke_join 7"),
            ({ $0.embolden = Int32(INKHIT_EMBOLDEN_STROKE); $0.stroke_width = -1 }, "stroke width"),
            ({ $0.embolden = Int32(INKHIT_EMBOLDEN_STROKE); $0.stroke_width = 1; $0.miter_limit = .nan }, "miter limit"),
            ({ $0.hinting_under_transform = 3 }, "hinting_under_transform 3"),
            ({ $0.ppem = 3 }, "ppem 3"),
            ({ $0.hinting = 4 }, "hinting 4"),
            ({ $0.stem_darkening = 2 }, "stem_darkening must be 0 or 1"),
            ({ $0.origin_rounding.x.grid = -1 }, "x grid"),
            ({ $0.origin_rounding.y.bias = 0.5 }, "not rounded"),
            ({ $0.ppem = Int32(INKHIT_PPEM_PER_AXIS); $0.matrix_xx = 1e-5; $0.hinting = Int32(INKHIT_HINTING_FULL) }, "x size"),
        ]
        for (set, needle) in bad {
            var style = Self.style()
            set(&style)
            var run = inkhit_glyph_run()
            ok(inkhit_glyph_run_init(&run))
            run.font = font
            let glyph = inkhit_run_glyph(glyph: 36, reserved: 0, x: 0, y: 20, tag: 0)
            withUnsafePointer(to: &style) { s in
                run.style = s
                withUnsafePointer(to: glyph) { fails(inkhit_builder_add_run(builder, nil, &run, $0, 1, nil), INKHIT_ERROR_INVALID_ARGUMENT, needle) }
            }
        }
    }

    @Test func skiasFakeBoldWidth() {
        var w = 0.0
        ok(inkhit_skia_fake_bold_width(9, &w)); #expect(w == 0.375)
        ok(inkhit_skia_fake_bold_width(36, &w)); #expect(w == 1.125)
        ok(inkhit_skia_fake_bold_width(22.5, &w)); #expect(isClose(w, 22.5 * 7 / 192, within: 1e-15))
        fails(inkhit_skia_fake_bold_width(0, &w), INKHIT_ERROR_INVALID_ARGUMENT, "text_size")
        fails(inkhit_skia_fake_bold_width(.nan, &w), INKHIT_ERROR_INVALID_ARGUMENT, "text_size")
        fails(inkhit_skia_fake_bold_width(12, nil), INKHIT_ERROR_NULL_ARGUMENT, "width_out")
    }

    // MARK: Paths as renderers iterate them

    static let quarter = 0.5.squareRoot()
    /// A circle of radius 10 around (30, 30): four conics, each with its start point (SkPath::Iter's order).
    static let disc: (verbs: [UInt8], points: [inkhit_point], weights: [Double]) = {
        let c = [(40.0, 30.0), (40, 40), (30, 40), (20, 40), (20, 30), (20, 20), (30, 20), (40, 20), (40, 30)]
        var verbs: [UInt8] = [UInt8(INKHIT_VERB_MOVE)], points = [inkhit_point(x: 40, y: 30)]
        for k in 0..<4 {
            verbs.append(UInt8(INKHIT_VERB_CONIC))
            for j in 0...2 { points.append(inkhit_point(x: c[2 * k + j].0, y: c[2 * k + j].1)) }
        }
        verbs.append(UInt8(INKHIT_VERB_CLOSE))
        return (verbs, points, [quarter, quarter, quarter, quarter])
    }()

    static func add(_ builder: inkhit_builder?, _ verbs: [UInt8], _ points: [inkhit_point], _ weights: [Double], flags: UInt32) -> inkhit_status {
        inkhit_builder_add_path(builder, nil, 0, verbs, verbs.count, points, points.count, weights, weights.count, flags,
                                Int32(INKHIT_FILL_NONZERO), nil, nil)
    }

    @Test func conicsWithStartPointsDrawACircle() throws {
        let builder = RendererDrewTests.newBuilder()
        defer { ok(inkhit_builder_release(builder)) }
        let d = Self.disc
        ok(Self.add(builder, d.verbs, d.points, d.weights, flags: UInt32(INKHIT_PATH_START_POINTS)))
        // The same circle without start points (every segment's first point dropped).
        var plain: [inkhit_point] = [d.points[0]]
        for k in 0..<4 { plain += [d.points[2 + 3 * k], d.points[3 + 3 * k]] }
        ok(Self.add(builder, d.verbs, plain, d.weights, flags: 0))
        let index = RendererDrewTests.build(builder)
        defer { ok(inkhit_index_release(index)) }
        for k in 0..<720 {
            let a = Double(k) / 720 * 2 * Double.pi
            for (r, inside) in [(9.985, true), (10.015, false)] {
                var hit = inkhit_hit()
                ok(inkhit_index_hit(index, 30 + r * cos(a), 30 + r * sin(a), 0, &hit))
                #expect((hit.hit == 1) == inside, "angle \(a), radius \(r)")
                if inside { #expect(hit.placement == 1, "the later placement is on top and has the same ink") }
            }
        }
    }

    @Test func pathsThatDoNotAddUpAreRefused() {
        let builder = RendererDrewTests.newBuilder()
        defer { ok(inkhit_builder_release(builder)) }
        let d = Self.disc
        var moved = d.points
        moved[4] = inkhit_point(x: 30, y: 40.5)         // the second conic's start is not where the first ended
        fails(Self.add(builder, d.verbs, moved, d.weights, flags: UInt32(INKHIT_PATH_START_POINTS)), INKHIT_ERROR_INVALID_ARGUMENT, "verbs[2] starts at points[4]")
        fails(Self.add(builder, d.verbs, d.points, Array(d.weights.dropLast()), flags: UInt32(INKHIT_PATH_START_POINTS)),
              INKHIT_ERROR_INVALID_ARGUMENT, "take 4 weights")
        fails(Self.add(builder, d.verbs, d.points, [1, 0, 1, 1], flags: UInt32(INKHIT_PATH_START_POINTS)), INKHIT_ERROR_INVALID_ARGUMENT, "weights[1]")
        fails(Self.add(builder, d.verbs, d.points, d.weights, flags: 6), INKHIT_ERROR_INVALID_ARGUMENT, "flags")
        fails(Self.add(builder, d.verbs, d.points, d.weights, flags: 0), INKHIT_ERROR_INVALID_ARGUMENT, "take 9 points")
        fails(inkhit_builder_add_outline(builder, nil, 0, d.verbs, d.verbs.count, d.points, d.points.count, Int32(INKHIT_FILL_NONZERO), nil, nil),
              INKHIT_ERROR_INVALID_ARGUMENT, "inkhit_builder_add_path")
        var count = 0
        ok(inkhit_builder_count(builder, &count))
        #expect(count == 0, "a failed call adds nothing")
    }
}
