import Testing
import CFreeType
import InkGeometry
import InkHit
import InkTestSupport
import InkFreeType

/// The renderer rules of a glyph style against independent oracles: FreeType itself for hinting at separate x
/// and y sizes and for CFF stem darkening (the test's own library, darkening set through the CFF driver's
/// `no-stem-darkening` property rather than the face property InkFreeType uses), hand-worked arithmetic for
/// origins, the index's own radius query for a round-joined stroke (fill ∪ band is the outline grown by the
/// half width), and the transforms' structure for the hinting rules.
struct RendererRuleTests {
    // MARK: Origins

    /// The origin is mapped, rounded in view px, and the glyph drawn from there with its own linear map.
    @Test func theOriginIsRoundedInViewSpaceAndTheShapeKeepsItsMap() throws {
        let font = try TestFonts.load(TestFonts.sans)
        let g = try #require(font.glyph(for: "e"))
        let t = AffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 0.1, ty: 0.2)
        let exact = GlyphPlacement(font: font, glyph: g, size: 16, origin: Point(10.3, 20.6), transform: t)
        var rounded = exact
        rounded.style.originRounding = .quarterPixelX
        // The view origin (20.7, 41.4): x ⌊4·20.7 + ½⌋ / 4 = 20.75, y ⌊41.4 + ½⌋ = 41.
        #expect(rounded.viewOrigin == Point(20.75, 41))
        let a = exact.fontUnitsToView, b = rounded.fontUnitsToView
        #expect(a.a == b.a && a.b == b.b && a.c == b.c && a.d == b.d)
        #expect(b.tx == 20.75 && b.ty == 41)
        // Under a rotation the rule still works on view coordinates.
        var turned = rounded
        turned.transform = AffineTransform.rotation(0.5).concatenating(.translation(3.3, 7.9))
        turned.style.originRounding = .wholePixels
        let o = exact.origin.applying(turned.transform)
        #expect(turned.viewOrigin == Point((o.x + 0.5).rounded(.down), (o.y + 0.5).rounded(.down)))
        #expect(turned.fontUnitsToView.tx == turned.viewOrigin.x && turned.fontUnitsToView.ty == turned.viewOrigin.y)
    }

    /// The rounded glyph's ink is the exact glyph's moved by the rounding: hits at p equal the exact glyph's hits
    /// at p − δ over a grid (the shape is shared, only the translation differs).
    @Test func roundedInkIsTheExactInkMoved() throws {
        let font = try TestFonts.load(TestFonts.serif)
        let g = try #require(font.glyph(for: "g"))
        let exact = GlyphPlacement(font: font, glyph: g, size: 20, origin: Point(10.37, 30.61))
        var rounded = exact
        rounded.style.originRounding = OriginRounding(x: .init(grid: 0.25, bias: 1.0 / 64), y: .wholePixel)
        let delta = rounded.viewOrigin - exact.origin
        #expect(isClose(delta.x, 10.25 - 10.37, within: 1e-12) && isClose(delta.y, 31 - 30.61, within: 1e-12))
        var e = HitIndex.Builder(), r = HitIndex.Builder()
        try e.add(exact, cache: FontShapeCache())
        try r.add(rounded, cache: FontShapeCache())
        let ei = e.build(), ri = r.build()
        var differ = 0, inked = 0, moved = 0
        for y in stride(from: 10.0, through: 40, by: 0.17) {
            for x in stride(from: 8.0, through: 24, by: 0.17) {
                let p = Point(x, y)
                let there = ri.hit(at: p) != nil
                if there { inked += 1 }
                if there != (ei.hit(at: p - delta) != nil) { differ += 1 }
                if there != (ei.hit(at: p) != nil) { moved += 1 }
            }
        }
        #expect(differ == 0 && inked > 100)
        #expect(moved > 20, "rounding moved the ink (\(moved) grid points changed)")
    }

    // MARK: Hinting rules

    @Test func hintingIsTurnedOffWhereEachRuleSays() {
        let rotate = AffineTransform.rotation(0.3), quarter = AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 5, ty: 5)
        let scale = AffineTransform.scale(2, 2), flip = AffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: 0)
        let move = AffineTransform.translation(3.5, -2)
        let aligned = GlyphStyle(hinting: .full, hintingUnderTransform: .offWhenNotAxisAligned)
        #expect(aligned.effectiveHinting(under: .identity) == .full)
        #expect(aligned.effectiveHinting(under: scale) == .full)
        #expect(aligned.effectiveHinting(under: flip) == .full)
        #expect(aligned.effectiveHinting(under: quarter) == .full, "a quarter turn keeps the axes on the axes")
        #expect(aligned.effectiveHinting(under: rotate) == .none)
        var skewed = aligned
        skewed.matrix = GlyphMatrix(xx: 1, xy: 0.25, yx: 0, yy: 1)
        #expect(skewed.effectiveHinting(under: .identity) == .none, "Skia's skewX turns hinting off")
        var sheared = aligned
        sheared.oblique = 0.2
        #expect(sheared.effectiveHinting(under: .identity) == .none)
        var stretched = aligned
        stretched.matrix = GlyphMatrix(xx: 1.3, xy: 0, yx: 0, yy: 1)
        #expect(stretched.effectiveHinting(under: scale) == .full, "scaleX keeps hinting")
        let qt = GlyphStyle(hinting: .light, hintingUnderTransform: .offWhenScaledOrRotated)
        #expect(qt.effectiveHinting(under: move) == .light)
        #expect(qt.effectiveHinting(under: scale) == .none && qt.effectiveHinting(under: rotate) == .none)
        #expect(qt.effectiveHinting(under: quarter) == .none)
        var qtStretched = qt
        qtStretched.matrix = GlyphMatrix(xx: 1.5, xy: 0, yx: 0, yy: 1)
        #expect(qtStretched.effectiveHinting(under: move) == .light, "the style's own matrix does not count")
        #expect(GlyphStyle(hinting: .full).effectiveHinting(under: rotate) == .full, "keep is the default")
        // Turned off, hinting leaves the exact outline unless something else renders.
        #expect(aligned.rendering(size: 16, transform: rotate).isExact)
        #expect(!aligned.rendering(size: 16, transform: scale).isExact)
    }

    @Test func theEcosystemsHintingNamesMapOntoFreeTypesLoads() {
        let expected: [(String, GlyphStyle.Hinting?)] = [
            ("none", GlyphStyle.Hinting.none), ("slight", .light), ("light", .light), ("vertical", .light), ("medium", .full),
            ("normal", .full), ("full", .full), ("hintnone", GlyphStyle.Hinting.none), ("hintslight", .light),
            ("hintmedium", .full), ("hintfull", .full), ("Full", nil), ("strong", nil), ("", nil),
        ]
        for (name, h) in expected { #expect(GlyphStyle.Hinting(name: name) == h, "\(name)") }
    }

    // MARK: Skia's fake bold

    @Test func skiasFakeBoldRatioFallsFromOneTwentyFourthToOneThirtySecond() {
        // Hand values: 1/24 at ≤ 9 px, 1/32 at ≥ 36 px, halfway (22.5 px) the mean 7/192.
        #expect(GlyphStyle.skiaFakeBoldRatio(textSize: 4) == 1.0 / 24)
        #expect(GlyphStyle.skiaFakeBoldRatio(textSize: 9) == 1.0 / 24)
        #expect(isClose(GlyphStyle.skiaFakeBoldRatio(textSize: 22.5), 7.0 / 192, within: 1e-15))
        #expect(GlyphStyle.skiaFakeBoldRatio(textSize: 36) == 1.0 / 32)
        #expect(GlyphStyle.skiaFakeBoldRatio(textSize: 100) == 1.0 / 32)
        #expect(GlyphStyle(embolden: .skiaFakeBold).resolvedEmbolden(size: 64) == .stroke(width: 2, join: .miter(limit: 4)))
        #expect(GlyphStyle.Embolden.skiaFakeBoldStroke(textSize: 64, layoutPxPerTextPx: 2) == .stroke(width: 4, join: .miter(limit: 4)))
    }

    /// With round joins the stroke is the Minkowski sum: ink = inside ∪ within width/2 of the outline, which the
    /// index answers for the unstroked outline at radius width/2. Both outlines are FreeType's at the size.
    static let strokeCases: [(String, String, Double, Double)] = [
        (TestFonts.sans, "a&", 24, 1.5), (TestFonts.cantarell, "gS", 30, 2.2), (TestFonts.cjk, "永", 20, 0.9),
    ]

    @Test(arguments: strokeCases)
    func aRoundStrokeIsTheOutlineGrownByHalfItsWidth(path: String, text: String, size: Double, width: Double) throws {
        let font = try TestFonts.load(path)
        for ch in text.unicodeScalars {
            let g = try #require(font.glyph(for: ch))
            let origin = Point(20, 2 * size)
            let plain = GlyphPlacement(font: font, glyph: g, size: size, origin: origin,
                                       style: GlyphStyle(embolden: .stroke(width: 0, join: .round)))
            let bold = GlyphPlacement(font: font, glyph: g, size: size, origin: origin,
                                      style: GlyphStyle(embolden: .stroke(width: width, join: .round)))
            var p = HitIndex.Builder(), b = HitIndex.Builder()
            p.preparedRadius = width / 2
            try p.add(plain, cache: FontShapeCache())
            try b.add(bold, cache: FontShapeCache())
            let pi = p.build(), bi = b.build()
            var checked = 0, differ = 0, grown = 0
            let box = try bold.viewBounds().outsetBy(1)
            for y in stride(from: box.minY, through: box.maxY, by: 0.13) {
                for x in stride(from: box.minX, through: box.maxX, by: 0.13) {
                    let q = Point(x, y)
                    // The oracle's answer, kept only 0.02 px away from its boundary (both tolerances are 0.01).
                    let grownHit = pi.hit(at: q, radius: width / 2 + 0.02) != nil
                    guard grownHit == (pi.hit(at: q, radius: max(0, width / 2 - 0.02)) != nil) else { continue }
                    checked += 1
                    if grownHit != (bi.hit(at: q) != nil) { differ += 1 }
                    if grownHit && pi.hit(at: q) == nil { grown += 1 }
                }
            }
            #expect(differ == 0, "\(ch): \(differ) of \(checked) points differ")
            #expect(grown > 50, "\(ch): the stroke grew the ink")
        }
    }

    /// The stroke's reach enters the view bounds: every ink point of a mitred stroke lies inside them.
    @Test func viewBoundsHoldTheStroke() throws {
        let font = try TestFonts.load(TestFonts.sans)
        let g = try #require(font.glyph(for: "A"))
        let p = GlyphPlacement(font: font, glyph: g, size: 40, origin: Point(10, 60),
                               style: GlyphStyle(embolden: .stroke(width: 4, join: .miter(limit: 4))))
        let plainBox = try GlyphPlacement(font: font, glyph: g, size: 40, origin: Point(10, 60), style: GlyphStyle(embolden: .stroke(width: 0, join: .bevel))).viewBounds()
        let box = try p.viewBounds()
        var b = HitIndex.Builder()
        try b.add(p, cache: FontShapeCache())
        let index = b.build()
        var outside = 0, beyondPlain = 0
        for y in stride(from: plainBox.minY - 10, through: plainBox.maxY + 10, by: 0.25) {
            for x in stride(from: plainBox.minX - 10, through: plainBox.maxX + 10, by: 0.25) where index.hit(at: Point(x, y)) != nil {
                if !box.contains(Point(x, y)) { outside += 1 }
                if !plainBox.contains(Point(x, y)) { beyondPlain += 1 }
            }
        }
        #expect(outside == 0)
        #expect(beyondPlain > 0, "the stroke reaches beyond the outline's box")
    }

    // MARK: FreeType's own renderings

    /// FreeType hinting at x and y sizes apart (`FT_Set_Char_Size(1.3·s, s)`, as Skia's scaleX draws) against
    /// `ppem: .perAxis`; with full hinting, hinting at the em and stretching afterwards (`.uniform`) must fail
    /// the same check (light hinting fits y alone, so there both agree).
    static let perAxisCases: [(String, Double, Int32)] = [
        (TestFonts.sans, 13, FidelityRasterTests.full), (TestFonts.interVariable, 12, FidelityRasterTests.full),
        (TestFonts.sans, 15, FidelityRasterTests.light), (TestFonts.cantarell, 14, FidelityRasterTests.full),
    ]

    @Test(arguments: perAxisCases)
    func hintingAtSeparateXAndYSizesMatchesFreeType(path: String, size: Double, flags: Int32) throws {
        let font = try TestFonts.load(path)
        let renderer = try #require(FidelityRasterTests.Renderer(path: path))
        let hinting: GlyphStyle.Hinting = flags == FidelityRasterTests.full ? .full : .light
        let stretch = GlyphMatrix(xx: 1.3, xy: 0, yx: 0, yy: 1)
        var uniformFailures = 0
        for ch in "mwgRe".unicodeScalars {
            let g = try #require(font.glyph(for: ch))
            let bitmap = try #require(renderer.render(glyph: g.rawValue, xSize: size * 1.3, ySize: size, loadFlags: flags))
            let perAxis = GlyphPlacement(font: font, glyph: g, size: size, origin: Point(50, 80),
                                         style: GlyphStyle(hinting: hinting, matrix: stretch, ppem: .perAxis))
            let report = try FidelityRasterTests.compare(bitmap, perAxis)
            #expect(report.disagreements.isEmpty, "'\(ch)': \(report.disagreements.count) of \(report.checked) disagree, first \(report.disagreements.prefix(3))")
            #expect(report.inside > 50)
            let uniform = GlyphPlacement(font: font, glyph: g, size: size, origin: Point(50, 80),
                                         style: GlyphStyle(hinting: hinting, matrix: stretch))
            uniformFailures += try FidelityRasterTests.compare(bitmap, uniform).disagreements.count
        }
        if flags == FidelityRasterTests.full {
            #expect(uniformFailures > 0, "hinting at the em, then stretching, is another outline")
        } else {
            #expect(uniformFailures == 0, "light hinting fits y only: where x is scaled changes nothing")
        }
    }

    /// A skewed glyph that a Skia-like rule leaves unhinted is FreeType's unhinted outline under the skew; the
    /// hinted outline, skewed, is not.
    @Test func aSkewedGlyphIsUnhintedUnderTheAxisRule() throws {
        let font = try TestFonts.load(TestFonts.sans)
        let renderer = try #require(FidelityRasterTests.Renderer(path: TestFonts.sans))
        let skew = GlyphMatrix(xx: 1, xy: 0.25, yx: 0, yy: 1)
        var keptFailures = 0
        for ch in "Hmg".unicodeScalars {
            let g = try #require(font.glyph(for: ch))
            let bitmap = try #require(renderer.renderUnscaled(glyph: g.rawValue, size: 14, matrix: skew))
            let ruled = GlyphPlacement(font: font, glyph: g, size: 14, origin: Point(50, 80),
                                       style: GlyphStyle(hinting: .full, matrix: skew, hintingUnderTransform: .offWhenNotAxisAligned))
            let report = try FidelityRasterTests.compare(bitmap, ruled)
            #expect(report.disagreements.isEmpty, "'\(ch)': \(report.disagreements.count) of \(report.checked) disagree")
            let kept = GlyphPlacement(font: font, glyph: g, size: 14, origin: Point(50, 80), style: GlyphStyle(hinting: .full, matrix: skew))
            keptFailures += try FidelityRasterTests.compare(bitmap, kept).disagreements.count
        }
        #expect(keptFailures > 0)
    }

    /// CFF stem darkening, hinted and unhinted, against FreeType with its CFF driver's `no-stem-darkening` off;
    /// the undarkened outline must fail, and a TrueType font ignores the setting.
    static let darkeningCases: [(Double, Int32)] = [
        (12, FidelityRasterTests.noHinting), (12, FidelityRasterTests.light), (14, FidelityRasterTests.full), (9, FidelityRasterTests.noHinting),
    ]

    @Test(arguments: darkeningCases)
    func stemDarkeningMatchesFreeTypesCFFDriver(size: Double, flags: Int32) throws {
        let font = try TestFonts.load(TestFonts.cantarell)
        #expect(font.hasPostScriptOutlines)
        let renderer = try #require(FidelityRasterTests.Renderer(path: TestFonts.cantarell))
        var off: FT_Bool = 0
        try #require(FT_Property_Set(renderer.library, "cff", "no-stem-darkening", &off) == 0)
        let hinting: GlyphStyle.Hinting = flags == FidelityRasterTests.full ? .full : flags == FidelityRasterTests.light ? .light : .none
        var plainFailures = 0
        for ch in "mneas".unicodeScalars {
            let g = try #require(font.glyph(for: ch))
            let bitmap = try #require(renderer.render(glyph: g.rawValue, size: size, loadFlags: flags) { _ in })
            let dark = GlyphPlacement(font: font, glyph: g, size: size, origin: Point(50, 80),
                                      style: GlyphStyle(hinting: hinting, stemDarkening: true))
            let report = try FidelityRasterTests.compare(bitmap, dark)
            #expect(report.disagreements.isEmpty, "'\(ch)' \(size) px: \(report.disagreements.count) of \(report.checked) disagree, first \(report.disagreements.prefix(3))")
            let plain = GlyphPlacement(font: font, glyph: g, size: size, origin: Point(50, 80), style: GlyphStyle(hinting: hinting))
            plainFailures += try FidelityRasterTests.compare(bitmap, plain).disagreements.count
        }
        #expect(plainFailures > 0, "darkening moved the ink")
        let sans = try TestFonts.load(TestFonts.sans)
        #expect(!sans.hasPostScriptOutlines)
        let style = GlyphStyle(stemDarkening: true)
        #expect(GlyphPlacement(font: sans, glyph: try #require(sans.glyph(for: "m")), size: 12, style: style).rendering.isExact,
                "a TrueType font ignores CFF darkening")
    }
}

extension FidelityRasterTests.Renderer {
    /// Loads `glyph` at `xSize` by `ySize` px per em (`FT_Set_Char_Size(width, height)`) and renders it ×16.
    func render(glyph: UInt32, xSize: Double, ySize: Double, loadFlags: Int32) -> FidelityRasterTests.Bitmap? {
        guard let face, FT_Set_Char_Size(face, FT_F26Dot6((xSize * 64).rounded()), FT_F26Dot6((ySize * 64).rounded()), 72, 72) == 0,
              FT_Load_Glyph(face, glyph, loadFlags) == 0, let slot = face.pointee.glyph else { return nil }
        return rasterize(&slot.pointee.outline, unitsPerPx: 64)
    }

    /// Loads the unscaled outline, applies `matrix` (y-up, in 16.16 on font units) and renders it at `size`.
    func renderUnscaled(glyph: UInt32, size: Double, matrix: GlyphMatrix) -> FidelityRasterTests.Bitmap? {
        guard let face, FT_Load_Glyph(face, glyph, Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0,
              let slot = face.pointee.glyph else { return nil }
        var m = FT_Matrix(xx: FT_Fixed((matrix.xx * 65536).rounded()), xy: FT_Fixed((matrix.xy * 65536).rounded()),
                          yx: FT_Fixed((matrix.yx * 65536).rounded()), yy: FT_Fixed((matrix.yy * 65536).rounded()))
        FT_Outline_Transform(&slot.pointee.outline, &m)
        return rasterize(&slot.pointee.outline, unitsPerPx: Double(face.pointee.units_per_EM) / size)
    }
}
