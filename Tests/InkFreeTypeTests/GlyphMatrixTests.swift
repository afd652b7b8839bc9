import CFreeType
import InkGeometry
import InkHit
import InkTestSupport
import Testing
import InkFreeType

/// `GlyphStyle.matrix` against FreeType used as cairo uses it for a font matrix's shape (fontconfig's
/// synthetic slant `FC_MATRIX`): `FT_Set_Transform` before `FT_Load_Glyph` (so after hinting), then
/// `FT_GlyphSlot_Embolden` on the transformed outline, rendered ×16 by the test's own FreeType face
/// (`FidelityRasterTests`' comparison: every pixel whose centre is 0.05 px or more from InkHit's edge).
struct GlyphMatrixTests {
    struct Case: CustomStringConvertible, Sendable {
        var path: String
        var text: String
        var size: Double
        var loadFlags: Int32
        /// 16.16, as cairo hands it to FreeType (0.2 → 13107, truncated).
        var matrix: (xx: Int, xy: Int, yx: Int, yy: Int)
        var embolden: Bool
        var style: GlyphStyle
        var description: String { "\(path.split(separator: "/").last!) \(text) \(size) px \(style.matrix) \(style)" }
    }

    static let slant = (xx: 65536, xy: 13107, yx: 0, yy: 65536)
    static let turn = (xx: 58982, xy: -19660, yx: 19660, yy: 58982)          // [0.9 -0.3; 0.3 0.9]
    static let turnMatrix = GlyphMatrix(xx: 0.9, xy: -0.3, yx: 0.3, yy: 0.9)

    static let cases: [Case] = [
        Case(path: TestFonts.cjk, text: "永字", size: 24, loadFlags: FidelityRasterTests.noHinting, matrix: slant, embolden: true,
             style: GlyphStyle(embolden: .freeType, matrix: .fontconfigSlant)),
        Case(path: TestFonts.sans, text: "ag", size: 40, loadFlags: FidelityRasterTests.noHinting, matrix: slant, embolden: false,
             style: GlyphStyle(matrix: .fontconfigSlant)),
        Case(path: TestFonts.serif, text: "Rg", size: 14, loadFlags: FidelityRasterTests.light, matrix: slant, embolden: false,
             style: GlyphStyle(hinting: .light, matrix: .fontconfigSlant)),
        Case(path: TestFonts.sans, text: "eQ", size: 13, loadFlags: FidelityRasterTests.full, matrix: slant, embolden: true,
             style: GlyphStyle(embolden: .freeType, hinting: .full, matrix: .fontconfigSlant)),
        Case(path: TestFonts.sans, text: "Mw", size: 30, loadFlags: FidelityRasterTests.noHinting, matrix: turn, embolden: true,
             style: GlyphStyle(embolden: .freeType, matrix: turnMatrix)),
    ]

    @Test(arguments: cases)
    func inkMatchesFreeTypeWithATransform(_ c: Case) throws {
        let font = try TestFonts.load(c.path)
        let renderer = try #require(FidelityRasterTests.Renderer(path: c.path))
        for ch in c.text.unicodeScalars {
            let glyph = try #require(font.glyph(for: ch))
            let bitmap = try #require(renderer.render(glyph: glyph.rawValue, size: c.size, loadFlags: c.loadFlags, matrix: c.matrix,
                                                      embolden: c.embolden))
            let placement = GlyphPlacement(font: font, glyph: glyph, size: c.size, origin: Point(50, 80), style: c.style)
            let report = try FidelityRasterTests.compare(bitmap, placement)
            #expect(report.disagreements.isEmpty, "\(c) '\(ch)': \(report.disagreements.count) of \(report.checked) disagree, first \(report.disagreements.prefix(3))")
            #expect(report.checked > bitmap.width * bitmap.height * 8 / 10)
            #expect(report.inside > 50)
        }
    }

    /// The order matters and the check sees it: emboldening before the slant (`oblique`, FreeType's
    /// `FT_GlyphSlot_Oblique` order) is not what cairo draws for a slanted bold fontconfig pattern, and
    /// neither is the upright bold glyph.
    @Test func emboldeningBeforeTheSlantDiffers() throws {
        let font = try TestFonts.load(TestFonts.cjk)
        let renderer = try #require(FidelityRasterTests.Renderer(path: TestFonts.cjk))
        let glyph = try #require(font.glyph(for: "永"))
        let bitmap = try #require(renderer.render(glyph: glyph.rawValue, size: 32, loadFlags: FidelityRasterTests.noHinting,
                                                  matrix: Self.slant, embolden: true))
        for style in [GlyphStyle(embolden: .freeType, oblique: 0.2), GlyphStyle(embolden: .freeType)] {
            let report = try FidelityRasterTests.compare(bitmap, GlyphPlacement(font: font, glyph: glyph, size: 32,
                                                                                origin: Point(50, 80), style: style))
            #expect(report.disagreements.count > 20, "\(style): \(report.disagreements.count)")
        }
    }

    /// A plain style with a matrix is exact: the same as the matrix in the placement's transform.
    @Test func anExactMatrixIsPartOfTheTransform() throws {
        let font = try TestFonts.load(TestFonts.sans)
        let p = GlyphPlacement(font: font, glyph: 36, size: 20, origin: Point(3, 40), style: GlyphStyle(matrix: Self.turnMatrix))
        #expect(!p.matrixInOutline && p.rendering.isExact)
        let k = 20.0 / Double(font.unitsPerEm)
        let expected = Self.turnMatrix.transform.concatenating(AffineTransform(a: k, b: 0, c: 0, d: -k, tx: 3, ty: 40))
        #expect(p.fontUnitsToLayout == expected)
        let bold = GlyphPlacement(font: font, glyph: 36, size: 20, origin: Point(3, 40),
                                  style: GlyphStyle(embolden: .freeType, matrix: Self.turnMatrix))
        #expect(bold.matrixInOutline && bold.rendering.matrix == GlyphMatrix.Fixed(xx: 58982, xy: -19660, yx: 19660, yy: 58982))
    }

    @Test func singularOrHugeMatricesAreRefused() throws {
        for m in [GlyphMatrix(xx: 1, xy: 2, yx: 0.5, yy: 1), GlyphMatrix(xx: .nan, xy: 0, yx: 0, yy: 1),
                  GlyphMatrix(xx: 2000, xy: 0, yx: 0, yy: 1)] {
            #expect(throws: FontError.self) { try GlyphStyle(matrix: m).validate(size: 16) }
        }
        try GlyphStyle(matrix: .fontconfigSlant).validate(size: 16)
    }
}

extension FidelityRasterTests.Renderer {
    /// Loads `glyph` at `size` px per em with `matrix` set by `FT_Set_Transform`, emboldens it when asked
    /// (`FT_GlyphSlot_Embolden`, after the transform: cairo's order), renders ×16.
    func render(glyph: UInt32, size: Double, loadFlags: Int32, matrix: (xx: Int, xy: Int, yx: Int, yy: Int),
                embolden: Bool) -> FidelityRasterTests.Bitmap? {
        guard let face, FT_Set_Char_Size(face, 0, FT_F26Dot6((size * 64).rounded()), 72, 72) == 0 else { return nil }
        var m = FT_Matrix(xx: FT_Fixed(matrix.xx), xy: FT_Fixed(matrix.xy), yx: FT_Fixed(matrix.yx), yy: FT_Fixed(matrix.yy))
        FT_Set_Transform(face, &m, nil)
        defer { FT_Set_Transform(face, nil, nil) }
        guard FT_Load_Glyph(face, glyph, loadFlags) == 0, let slot = face.pointee.glyph else { return nil }
        if embolden { FT_GlyphSlot_Embolden(slot) }
        return rasterize(&slot.pointee.outline, unitsPerPx: 64)
    }
}
