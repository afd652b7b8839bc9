import Testing
import CFreeType
import InkGeometry
import InkHit
import InkTestSupport
import InkFreeType

/// Skia's rules (`GlyphStyle.skia`) and the pieces they stand on — FreeType's sizes in view px (`ppem: .view`)
/// and 1-bit hinting (`.mono`) — against independent oracles: FreeType itself (the test's own library, loading at
/// the sizes and with the transforms Skia's FreeType port sets), hand-worked values from Skia's source for the
/// rule table, and the same glyph drawn under the identity for where a stroke is applied. Skia's own pixels judge
/// the whole in python/tests/test_skia.py.
struct SkiaRuleTests {
    // MARK: The rule table

    /// Each row: an SkFont's settings and a canvas matrix, and what Skia does, worked out from its source:
    /// `SkTypeface_FreeType::onFilterRec` (kFull → kNormal without LCD; no hinting unless skewX is 0 and the
    /// device 2×2 has zeros off its diagonal or on it), `SkScalerContext_FreeType` (kAlias → FT_LOAD_TARGET_MONO
    /// unless kNone), `SkGlyphPositionRoundingSpec` (½ on both axes without subpixel; ⅛ on the axes the text's x
    /// axis is not snapped to, `computeAxisAlignmentForHText` and baseline snap), `SkStrikeSpec::ShouldDrawAsPath`
    /// (either text axis over 256 device px per em).
    struct Row: CustomTestStringConvertible {
        var name: String
        var font: SkiaFont
        var transform: AffineTransform
        var hinting: GlyphStyle.Hinting
        var rounding: OriginRounding
        var ppem: GlyphStyle.PixelsPerEm = .view
        var testDescription: String { name }
    }

    static let q = OriginRounding.Axis.quarterPixel, w = OriginRounding.Axis.wholePixel
    static let quarterTurn = AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 40, ty: 3)
    static let rotated = AffineTransform.rotation(0.5).concatenating(.translation(10, 20))
    static let rows: [Row] = [
        Row(name: "SkFont's defaults", font: SkiaFont(size: 17), transform: .identity, hinting: .full, rounding: .wholePixels),
        Row(name: "kNone", font: SkiaFont(size: 17, hinting: .none), transform: .identity, hinting: .none, rounding: .wholePixels),
        Row(name: "kSlight", font: SkiaFont(size: 17, hinting: .slight), transform: .identity, hinting: .light, rounding: .wholePixels),
        Row(name: "kFull is kNormal", font: SkiaFont(size: 17, hinting: .full), transform: .identity, hinting: .full, rounding: .wholePixels),
        Row(name: "LCD edging draws gray here", font: SkiaFont(size: 17, hinting: .full, edging: .subpixelAntiAlias),
            transform: .identity, hinting: .full, rounding: .wholePixels),
        Row(name: "kAlias hints for 1-bit", font: SkiaFont(size: 17, hinting: .slight, edging: .alias), transform: .identity,
            hinting: .mono, rounding: .wholePixels),
        Row(name: "kAlias unhinted", font: SkiaFont(size: 17, hinting: .none, edging: .alias), transform: .identity,
            hinting: .none, rounding: .wholePixels),
        Row(name: "subpixel", font: SkiaFont(size: 17, subpixel: true), transform: .identity, hinting: .full,
            rounding: OriginRounding(x: q, y: w)),
        Row(name: "subpixel without baseline snap", font: SkiaFont(size: 17, subpixel: true, baselineSnap: false),
            transform: .identity, hinting: .full, rounding: OriginRounding(x: q, y: q)),
        Row(name: "skewX: unhinted, still horizontal", font: SkiaFont(size: 17, skewX: -0.25, subpixel: true), transform: .identity,
            hinting: .none, rounding: OriginRounding(x: q, y: w)),
        Row(name: "scaleX keeps hinting", font: SkiaFont(size: 17, scaleX: 1.3), transform: .identity, hinting: .full, rounding: .wholePixels),
        Row(name: "2× canvas", font: SkiaFont(size: 17, subpixel: true), transform: .scale(2, 2), hinting: .full,
            rounding: OriginRounding(x: q, y: w)),
        Row(name: "flipped canvas", font: SkiaFont(size: 17), transform: AffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: 90),
            hinting: .full, rounding: .wholePixels),
        Row(name: "quarter turn: hinted, y on the ¼ grid", font: SkiaFont(size: 17, subpixel: true), transform: quarterTurn,
            hinting: .full, rounding: OriginRounding(x: w, y: q)),
        Row(name: "rotation: unhinted, both ¼", font: SkiaFont(size: 17, subpixel: true), transform: rotated, hinting: .none,
            rounding: OriginRounding(x: q, y: q)),
        Row(name: "rotation without subpixel", font: SkiaFont(size: 17), transform: rotated, hinting: .none, rounding: .wholePixels),
        Row(name: "canvas skew along x keeps x horizontal", font: SkiaFont(size: 17, subpixel: true),
            transform: AffineTransform(a: 1, b: 0, c: -0.3, d: 1, tx: 0, ty: 0), hinting: .none, rounding: OriginRounding(x: q, y: w)),
        Row(name: "canvas skew along y", font: SkiaFont(size: 17, subpixel: true),
            transform: AffineTransform(a: 1, b: 0.2, c: 0, d: 1, tx: 0, ty: 0), hinting: .none, rounding: OriginRounding(x: q, y: q)),
        Row(name: "256 device px per em is still a mask", font: SkiaFont(size: 128, subpixel: true), transform: .scale(2, 2),
            hinting: .full, rounding: OriginRounding(x: q, y: w)),
        Row(name: "over 256: a path", font: SkiaFont(size: 128.5, subpixel: true), transform: .scale(2, 2), hinting: .none,
            rounding: .none, ppem: .perAxis),
        Row(name: "scaleX over 256: a path", font: SkiaFont(size: 200, scaleX: 1.3), transform: .identity, hinting: .none,
            rounding: .none, ppem: .perAxis),
    ]

    @Test(arguments: rows)
    func skiasRules(row: Row) throws {
        let style = try GlyphStyle.skia(row.font, transform: row.transform)
        let effective = style.effectiveHinting(under: row.transform)
        #expect(effective == row.hinting)
        #expect(style.originRounding == row.rounding)
        #expect(style.ppem == row.ppem)
        #expect(style.hintingUnderTransform == .offWhenNotAxisAligned)
        #expect(style.matrix == GlyphMatrix(xx: row.font.scaleX, xy: -row.font.skewX, yx: 0, yy: 1))
        #expect(style.embolden == .none && style.oblique == 0 && !style.stemDarkening)
        #expect(row.font.drawsAsPaths(transform: row.transform) == (row.ppem == .perAxis))
    }

    /// Fake bold: `size × ratio(size)` in the mask regime (in user px: the placement's size is the SkFont's),
    /// `size / 32` for glyphs drawn as paths (stroked at the canonical 64 px, then scaled).
    @Test func fakeBoldIsAStrokeInUserPx() throws {
        let at17 = try GlyphStyle.skia(SkiaFont(size: 17, embolden: true), transform: .scale(3, 3))
        let r17 = GlyphStyle.skiaFakeBoldRatio(textSize: 17)
        #expect(at17.embolden == .stroke(width: 17 * r17, join: .miter(limit: 4)))
        let hand: Double = 17.0 / 24 + 17.0 * 8 / 27 * (1.0 / 32 - 1.0 / 24)     // 8/27 of the way from 9 to 36 px
        #expect(isClose(17 * r17, hand, within: 1e-15))
        let small = try GlyphStyle.skia(SkiaFont(size: 8, embolden: true), transform: .scale(40, 40))
        #expect(small.embolden == .stroke(width: 0.25, join: .miter(limit: 4)), "a path: 8 / 32, not 8 / 24")
    }

    @Test func settingsSkiaCannotDrawAreRefused() {
        let bad: [(SkiaFont, AffineTransform, String)] = [
            (SkiaFont(size: 0), .identity, "size"), (SkiaFont(size: .nan), .identity, "size"), (SkiaFont(size: 20_000), .identity, "size"),
            (SkiaFont(size: 12, scaleX: 0), .identity, "scaleX"), (SkiaFont(size: 12, skewX: .infinity), .identity, "skewX"),
            (SkiaFont(size: 12, forceAutoHinting: true), .identity, "forceAutoHinting"),
            (SkiaFont(size: 12), .scale(1, 0), "invertible"), (SkiaFont(size: 12), AffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0), "finite"),
        ]
        for (font, t, word) in bad {
            #expect(throws: FontError.self) { try GlyphStyle.skia(font, transform: t) }
            #expect(font.problem(transform: t)?.contains(word) == true, "\(word): \(font.problem(transform: t) ?? "nil")")
        }
    }

    /// A canvas so small that FreeType would be set below 1/64 px per em keeps the user-space outline, unhinted.
    @Test func aVanishingCanvasKeepsTheUserSpaceOutline() throws {
        let style = try GlyphStyle.skia(SkiaFont(size: 12, embolden: true), transform: .scale(0.001, 0.001))
        #expect(style.ppem == .perAxis && style.hinting == .none)
        let font = try TestFonts.load(TestFonts.sans)
        let p = GlyphPlacement(font: font, glyph: try #require(font.glyph(for: "H")), size: 12, origin: Point(100, 100),
                               transform: .scale(0.001, 0.001), style: style)
        var b = HitIndex.Builder()
        try b.add(p, cache: FontShapeCache())
    }

    // MARK: FreeType at view sizes

    /// FreeType's sizes under `.view`, hand-worked: Skia's `SkScalarToFDot6` truncates (12.7 × 64 = 812.8 → 812),
    /// after single precision (10 × 0.7 in float is 7.0, × 64 = 448, where double arithmetic gives 447.99…).
    @Test func viewSizesAreTruncatedToSixtyFourths() {
        let style = GlyphStyle(hinting: .light, ppem: .view)
        let r = style.rendering(size: 12.7, transform: .identity)
        #expect(r.ppemX64 == 812 && r.ppemY64 == 812 && r.matrix.isIdentity && r.outlineMatrix.isIdentity)
        let f = style.rendering(size: 10, transform: .scale(Double(Float(0.7)), Double(Float(0.7))))
        #expect(f.ppemY64 == 448)
        let turned = style.rendering(size: 16, transform: AffineTransform(a: 0, b: 2, c: -2, d: 0, tx: 0, ty: 0))
        #expect(turned.ppemX64 == 2048 && turned.ppemY64 == 2048)
        #expect(turned.matrix == GlyphMatrix(xx: 0, xy: 1, yx: -1, yy: 0).fixed16, "a quarter turn left for FreeType")
        #expect(turned.outlineMatrix == GlyphMatrix(xx: 0, xy: -0.5, yx: 0.5, yy: 0))
        #expect(turned != style.rendering(size: 16, transform: .scale(2, 2)), "the cache key holds the map back")
    }

    struct ViewCase: CustomTestStringConvertible {
        var name: String
        var path: String
        var text: String
        var size: Double
        var matrix: GlyphMatrix = .identity
        var transform: AffineTransform
        var hinting: GlyphStyle.Hinting
        /// A layout-px style that must fail (hinting at the layout size), or nil.
        var wrong: GlyphStyle.PixelsPerEm? = .perAxis
        var testDescription: String { name }
    }

    static let viewCases: [ViewCase] = [
        ViewCase(name: "2× canvas, full hinting at 26 px", path: TestFonts.sans, text: "mwg", size: 13, transform: .scale(2, 2), hinting: .full),
        ViewCase(name: "anisotropic canvas and scaleX, light", path: TestFonts.interVariable, text: "Rae", size: 11,
                 matrix: GlyphMatrix(xx: 1.2, xy: 0, yx: 0, yy: 1), transform: .scale(1.5, 1.25), hinting: .light),
        ViewCase(name: "quarter turn, full hinting, then turned", path: TestFonts.sans, text: "Hms", size: 14,
                 transform: AffineTransform(a: 0, b: 1.5, c: -1.5, d: 0, tx: 60, ty: 5), hinting: .full),
        ViewCase(name: "CFF at 1.5×", path: TestFonts.cantarell, text: "gS", size: 15, transform: .scale(1.5, 1.5), hinting: .full),
        ViewCase(name: "12.7 px truncated to 812/64", path: TestFonts.sans, text: "eaw", size: 12.7, transform: .identity,
                 hinting: .light, wrong: nil),
    ]

    /// The glyph as FreeType loads it at Skia's device sizes with the rest of the map as its transform, rendered
    /// ×16 in device px: `.view` agrees; the same style in layout px (hinted at the layout size, then
    /// transformed) does not.
    @Test(arguments: viewCases)
    func viewSizesMatchFreeTypeOnTheDevice(c: ViewCase) throws {
        let font = try TestFonts.load(c.path)
        let renderer = try #require(FidelityRasterTests.Renderer(path: c.path))
        let flags = c.hinting == .full ? FidelityRasterTests.full : FidelityRasterTests.light
        var wrongFailures = 0
        for ch in c.text.unicodeScalars {
            let g = try #require(font.glyph(for: ch))
            let style = GlyphStyle(hinting: c.hinting, matrix: c.matrix, ppem: .view)
            let placement = GlyphPlacement(font: font, glyph: g, size: c.size, origin: Point(20.5, 40), transform: c.transform, style: style)
            let v = style.viewSizes(size: c.size, transform: c.transform)
            // Skia's conversion, written out: single precision, × 64, truncated.
            let x64 = FT_F26Dot6(Double(Float(v.x)) * 64), y64 = FT_F26Dot6(Double(Float(v.y)) * 64)
            let bitmap = try #require(renderer.renderDevice(glyph: g.rawValue, x64: x64, y64: y64, matrix: v.remaining, loadFlags: flags))
            let report = try Self.compareInView(bitmap, placement)
            #expect(report.disagreements.isEmpty, "'\(ch)': \(report.disagreements.count) of \(report.checked) disagree, first \(report.disagreements.prefix(3))")
            #expect(report.inside > 40)
            if let wrong = c.wrong {
                var layout = placement
                layout.style.ppem = wrong
                wrongFailures += try Self.compareInView(bitmap, layout).disagreements.count
            }
        }
        if c.wrong != nil { #expect(wrongFailures > 0, "hinting at the layout size, then transforming, is another outline") }
    }

    /// A stroke under `.view` is applied in layout px, before the transform (Skia strokes fake bold in user space):
    /// under an anisotropic transform the ink is the identity placement's ink mapped, not a stroke of the
    /// transformed outline (which `.perAxis` with the scale in the matrix draws, and which must differ).
    @Test func aViewStrokeIsAppliedInLayoutPx() throws {
        let font = try TestFonts.load(TestFonts.sans)
        let stretch = AffineTransform.scale(2.5, 1)
        var differs = 0
        for ch in "Hx".unicodeScalars {
            let g = try #require(font.glyph(for: ch))
            let stroke = GlyphStyle.Embolden.stroke(width: 1.6, join: .miter(limit: 4))
            let user = GlyphPlacement(font: font, glyph: g, size: 30, origin: Point(10, 40), style: GlyphStyle(embolden: stroke, ppem: .view))
            var device = user
            device.transform = stretch
            var wide = GlyphPlacement(font: font, glyph: g, size: 30, origin: Point(25, 40),
                                      style: GlyphStyle(embolden: .stroke(width: 1.6, join: .miter(limit: 4)),
                                                        matrix: GlyphMatrix(xx: 2.5, xy: 0, yx: 0, yy: 1), ppem: .perAxis))
            wide.transform = .identity
            var u = HitIndex.Builder(), d = HitIndex.Builder(), s = HitIndex.Builder()
            try u.add(user, cache: FontShapeCache())
            try d.add(device, cache: FontShapeCache())
            try s.add(wide, cache: FontShapeCache())
            let ui = u.build(), di = d.build(), si = s.build()
            var checked = 0, wrong = 0
            let box = try device.viewBounds().outsetBy(1)
            for y in stride(from: box.minY, through: box.maxY, by: 0.29) {
                for x in stride(from: box.minX, through: box.maxX, by: 0.29) {
                    let p = Point(x, y)
                    // Judged where the device index is sure (0.05 view px); the oracle is the user ink mapped back.
                    let h = di.hit(at: p)
                    if let h, h.distance > -0.05 { continue }
                    if h == nil, di.hit(at: p, radius: 0.05) != nil { continue }
                    let q = Point(x / 2.5, y)
                    if let o = ui.hit(at: q), o.distance > -0.03 { continue }
                    if ui.hit(at: q) == nil, ui.hit(at: q, radius: 0.03) != nil { continue }
                    checked += 1
                    if (h != nil) != (ui.hit(at: q) != nil) { wrong += 1 }
                    if (h != nil) != (si.hit(at: p) != nil) { differs += 1 }
                }
            }
            #expect(wrong == 0 && checked > 1000, "'\(ch)': \(wrong) of \(checked)")
        }
        #expect(differs > 50, "a stroke after the stretch is thinner across x")
    }

    // MARK: 1-bit hinting

    /// `.mono` is FreeType's `FT_LOAD_TARGET_MONO` (TrueType bytecode in full mode, the auto-hinter on both
    /// axes); `.full` (`TARGET_NORMAL`) is another outline for these fonts.
    static let monoCases: [(String, Double)] = [(TestFonts.sans, 13), (TestFonts.interVariable, 12), (TestFonts.serif, 15)]

    @Test(arguments: monoCases)
    func monoHintingMatchesFreeTypesMonoTarget(path: String, size: Double) throws {
        let font = try TestFonts.load(path)
        let renderer = try #require(FidelityRasterTests.Renderer(path: path))
        let mono = Int32(FT_LOAD_NO_BITMAP) | Int32(FT_RENDER_MODE_MONO.rawValue & 15) << 16
        var fullFailures = 0
        for ch in "amwgR".unicodeScalars {
            let g = try #require(font.glyph(for: ch))
            let bitmap = try #require(renderer.render(glyph: g.rawValue, size: size, loadFlags: mono) { _ in })
            let p = GlyphPlacement(font: font, glyph: g, size: size, origin: Point(50, 80), style: GlyphStyle(hinting: .mono))
            let report = try FidelityRasterTests.compare(bitmap, p)
            #expect(report.disagreements.isEmpty, "'\(ch)': \(report.disagreements.count) of \(report.checked) disagree")
            var full = p
            full.style.hinting = .full
            fullFailures += try FidelityRasterTests.compare(bitmap, full).disagreements.count
        }
        #expect(fullFailures > 0)
        #expect(GlyphStyle.Hinting(name: "mono") == .mono)
    }

    // MARK: Support

    /// `FidelityRasterTests.compare` for a bitmap drawn in view px (y-up from the placement's view origin).
    static func compareInView(_ bitmap: FidelityRasterTests.Bitmap, _ placement: GlyphPlacement) throws -> FidelityRasterTests.Report {
        var b = HitIndex.Builder()
        try b.add(placement, cache: FontShapeCache())
        let index = b.build()
        let o = placement.viewOrigin
        var r = FidelityRasterTests.Report()
        let s = Double(FidelityRasterTests.scale)
        for row in 0..<bitmap.height {
            for col in 0..<bitmap.width {
                let gx = bitmap.minX + (Double(col) + 0.5) / s, gy = bitmap.minY + (Double(bitmap.height - row) - 0.5) / s
                let p = Point(o.x + gx, o.y - gy)
                let cover = bitmap.pixels[row * bitmap.width + col]
                let inside: Bool
                if let h = index.hit(at: p) {
                    guard h.distance <= -0.05 else { continue }
                    inside = true
                } else {
                    guard index.hit(at: p, radius: 0.05) == nil else { continue }
                    inside = false
                }
                r.checked += 1
                if inside { r.inside += 1 }
                if inside ? cover < 253 : cover > 2 {
                    r.disagreements.append("(\(gx), \(gy)) px: InkHit \(inside ? "inside" : "outside"), coverage \(cover)")
                }
            }
        }
        return r
    }
}

extension FidelityRasterTests.Renderer {
    /// Loads `glyph` at `x64` by `y64` (26.6 px per em) with `matrix` set as FreeType's transform (y-up, 16.16
    /// rounded), and renders it ×16.
    func renderDevice(glyph: UInt32, x64: FT_F26Dot6, y64: FT_F26Dot6, matrix: GlyphMatrix, loadFlags: Int32) -> FidelityRasterTests.Bitmap? {
        guard let face, FT_Set_Char_Size(face, x64, y64, 72, 72) == 0 else { return nil }
        var m = FT_Matrix(xx: FT_Fixed(matrix.xx * 65536), xy: FT_Fixed(matrix.xy * 65536),
                          yx: FT_Fixed(matrix.yx * 65536), yy: FT_Fixed(matrix.yy * 65536))
        FT_Set_Transform(face, &m, nil)
        defer { FT_Set_Transform(face, nil, nil) }
        guard FT_Load_Glyph(face, glyph, loadFlags) == 0, let slot = face.pointee.glyph else { return nil }
        return rasterize(&slot.pointee.outline, unitsPerPx: 64)
    }
}
