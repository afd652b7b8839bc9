import Testing
import InkGeometry
import InkHit
import InkFreeType
import InkTestSupport
@testable import InkText

/// An instance of a variable font shapes as `hb-shape --variations` shapes it (advances, kerning,
/// substitutions follow the coordinates), and synthetic bold widens each advance as `FT_GlyphSlot_Embolden`
/// does.
struct VariableFontShapingTests {
    static let text = "AVATAR Wave office, 1/2 To."

    @Test(arguments: [[100.0, 0], [650, 0], [900, -10], [400, -5]])
    func instanceShapesAsHbShapeWithVariations(_ c: [Double]) throws {
        let base = try TestFonts.load(TestFonts.interVariable)
        let font = try base.withVariations([FontVariation("wght", c[0]), FontVariation("slnt", c[1])])
        let hb = try HBShape.shape(Self.text, font: TestFonts.interVariable,
                                   variations: "wght=\(c[0]),slnt=\(c[1])")
        let size = 28.0, k = size / Double(font.unitsPerEm)
        let l = try TextLayout(text: Self.text, style: TextStyle(fonts: [font], size: size), paragraph: ParagraphStyle(origin: .zero))
        try #require(l.glyphs.count == hb.count, "\(c): \(l.glyphs.map(\.id)) vs \(hb.map(\.g))")
        var pen = 0.0
        for (i, (g, h)) in zip(l.glyphs, hb).enumerated() {
            #expect(g.id.rawValue == h.g, "\(c) glyph \(i)")
            #expect(isClose(g.advance, Double(h.ax) * k, within: 1e-9), "\(c) glyph \(i): advance \(g.advance) vs \(Double(h.ax) * k)")
            #expect(isClose(g.x, (pen + Double(h.dx) * k), within: 1e-6), "\(c) glyph \(i): x")
            pen += Double(h.ax) * k
        }
        // The coordinates matter: the default instance's advances differ from a bold or thin one's.
        let plain = try HBShape.shape(Self.text, font: TestFonts.interVariable)
        if c[0] != 400 { #expect(plain.map(\.ax) != hb.map(\.ax)) }
    }

    @Test func namedInstanceShapesAsItsCoordinates() throws {
        let base = try TestFonts.load(TestFonts.interVariable)
        let bold = try base.withVariations([], instance: .name("bold"))
        let wght = try #require(bold.variationCoordinates.first { $0.tag == "wght" })
        #expect(wght.value == 700)
        let hb = try HBShape.shape(Self.text, font: TestFonts.interVariable, variations: "wght=700,slnt=0")
        let l = try TextLayout(text: Self.text, style: TextStyle(fonts: [bold], size: Double(bold.unitsPerEm)))
        #expect(l.glyphs.map(\.advance) == hb.map { Double($0.ax) })
    }

    /// Each glyph with a non-zero advance grows by the x strength; marks keep their zero advance.
    @Test(arguments: [GlyphStyle.Embolden.uniform(1.25), .strength(x: 2, y: 0.5), .freeType])
    func emboldenedAdvancesGrowByTheStrength(_ e: GlyphStyle.Embolden) throws {
        let font = try TestFonts.load(TestFonts.sans)
        let text = "Wave e\u{301}!", size = 16.0
        let plain = try TextLayout(text: text, style: TextStyle(fonts: [font], size: size))
        let bold = try TextLayout(text: text, style: TextStyle(fonts: [font], size: size, glyphStyle: GlyphStyle(embolden: e)))
        let grow: Double
        switch e {
        case .strength(let x, _): grow = x
        case .freeType: grow = Double(Int((size * 64).rounded()) / 24) / 64       // FT_MulFix(upem, y_scale) / 24
        case .none, .stroke, .skiaFakeBold: grow = 0       // a stroke (Skia's fake bold) keeps advances
        }
        try #require(plain.glyphs.count == bold.glyphs.count)
        var shift = 0.0
        for (p, b) in zip(plain.glyphs, bold.glyphs) {
            #expect(isClose(b.x, (p.x + shift), within: 1e-9))
            #expect(isClose(b.advance, (p.advance == 0 ? 0 : p.advance + grow), within: 1e-9))
            if p.advance != 0 { shift += grow }
        }
        #expect(shift > 0)
        #expect(bold.glyphStyles == [GlyphStyle(embolden: e)])
    }
}
