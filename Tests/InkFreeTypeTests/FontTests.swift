import InkFreeType
import InkGeometry
import Testing

@Suite("Font: loading, metrics, identity")
struct FontTests {
    @Test(arguments: [Fonts.dejaVuSans, Fonts.dejaVuSerif, Fonts.dejaVuSansMono])
    func dejaVuHas2048UnitsPerEm(_ path: String) throws {
        let font = try Fonts.load(path)
        #expect(font.unitsPerEm == 2048)
        #expect(font.faceIndex == 0)
        #expect(font.faceCount == 1)
        #expect(font.isScalable)
        #expect(font.glyphCount > 3000)
        #expect(font.familyName?.hasPrefix("DejaVu") == true)
    }

    @Test func droidFallbackOpens() throws {
        let font = try Fonts.load(Fonts.droidFallback)
        #expect(font.unitsPerEm == 256)            // yes: a 256-unit em
        #expect(font.glyphCount > 40_000)
        let zhong = try #require(font.glyph(for: "中"))
        #expect(try font.outline(glyph: zhong).contourCount >= 2)
        #expect(try font.advance(of: zhong) == 256)
    }

    @Test func dejaVuSansMetrics() throws {
        let font = try Fonts.load(Fonts.dejaVuSans)
        #expect(font.familyName == "DejaVu Sans")
        #expect(font.styleName == "Book")
        #expect(font.glyphCount == 6253)
        #expect(font.ascender == 1901)
        #expect(font.descender == -483)
        #expect(font.height == 2384)
        #expect(font.lineGap == 0)
        #expect(font.height == font.ascender - font.descender + font.lineGap)
    }

    @Test func glyphLookup() throws {
        let font = try Fonts.load(Fonts.dejaVuSans)
        #expect(font.glyph(for: "l") == 79)
        #expect(font.glyph(for: "o") == 82)
        #expect(font.glyph(for: "\u{10FFFD}") == nil)     // private use, unmapped
        #expect(font.glyph(for: "\u{0}") == nil)
    }

    @Test func advancesInFontUnits() throws {
        let sans = try Fonts.load(Fonts.dejaVuSans)
        #expect(try sans.advance(of: sans.glyph(for: "l")!) == 569)
        #expect(try sans.advance(of: sans.glyph(for: "o")!) == 1253)
        #expect(try sans.advance(of: sans.glyph(for: " ")!) == 651)

        let mono = try Fonts.load(Fonts.dejaVuSansMono)
        for scalar in "Wil.0 @mM".unicodeScalars {
            #expect(try mono.advance(of: #require(mono.glyph(for: scalar))) == 1233)
        }
    }

    @Test func kerningFromKernTable() throws {
        let sans = try Fonts.load(Fonts.dejaVuSans)
        #expect(sans.hasKerning)
        let a = try #require(sans.glyph(for: "A")), v = try #require(sans.glyph(for: "V"))
        #expect(sans.kerning(a, v) == -131)
        #expect(sans.kerning(a, a) == 57)                      // yes, DejaVu spaces "AA" apart
        #expect(sans.kerning(sans.glyph(for: "T")!, sans.glyph(for: "o")!) == -348)
        #expect(sans.kerning(sans.glyph(for: "l")!, sans.glyph(for: "l")!) == 0)
        #expect(sans.kerning(a, 1_000_000) == 0)               // out of range: 0, no trap

        let mono = try Fonts.load(Fonts.dejaVuSansMono)
        #expect(!mono.hasKerning)
        #expect(mono.kerning(mono.glyph(for: "A")!, mono.glyph(for: "V")!) == 0)
    }

    @Test func identityIsTheLoadedFace() throws {
        let a = try Fonts.load(Fonts.dejaVuSans)
        let b = try Fonts.load(Fonts.dejaVuSans)
        let copy = a
        #expect(a == copy)
        #expect(a.id == copy.id)
        #expect(a != b)
        #expect(a.id != b.id)
        #expect(Set([a, b, copy]).count == 2)
        #expect(a.description.contains("DejaVu Sans"))
    }

    @Test func bytesInitializerMatchesPathInitializer() throws {
        let fromPath = try Fonts.load(Fonts.dejaVuSerif)
        var bytes = try Fonts.bytes(Fonts.dejaVuSerif)
        let fromBytes = try Font(bytes: bytes)
        bytes = []                                             // the font keeps its own copy
        #expect(fromBytes != fromPath)
        #expect(fromBytes.glyphCount == fromPath.glyphCount)
        #expect(fromBytes.unitsPerEm == fromPath.unitsPerEm)
        #expect(fromBytes.familyName == fromPath.familyName)
        for glyph in fromPath.glyphIDs {
            #expect(try fromBytes.outline(glyph: glyph) == fromPath.outline(glyph: glyph))
            #expect(try fromBytes.advance(of: glyph) == fromPath.advance(of: glyph))
        }
        #expect(bytes.isEmpty)
    }
}
