import Testing
import InkGeometry
import InkFreeType
import InkTestSupport
import InkText

/// An emoji the first font lacks falls back to Noto Color Emoji (fonts are chosen by cmap) and its bitmap is
/// hit by its ink: a point on its opaque middle hits the emoji's character, a transparent corner of its box
/// misses.
///
/// The oracle is FreeType's own bitmap of these glyphs in the installed font (FT_LOAD_COLOR at its one
/// strike of 109 px per em; `ColorGlyphTests` reads it through FreeType directly): 136 × 128 px, its top
/// 101 px above the baseline, opaque around its middle (strike px (68, 64)) and transparent at its top left
/// corner (strike px (2, 2)) — a round face and a pizza slice.
struct ColorEmojiTextTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var text: String
        var firstFont: String
        var testDescription: String { "\(text) with \(firstFont.split(separator: "/").last!)" }
    }

    // DejaVu Sans has its own (outline) U+1F600, so the grinning face comes after DejaVu Serif, which lacks it.
    @Test(arguments: [Case(text: "Hi 🍕 there", firstFont: TestFonts.sans), Case(text: "Hi 😀 there", firstFont: TestFonts.serif)])
    func anEmojiFromTheFallbackFontIsHitByItsInk(_ c: Case) throws {
        let emoji = try TestFonts.load(TestFonts.emoji)
        let size = 32.0
        let layout = try TextLayout(text: c.text, style: TextStyle(fonts: [try TestFonts.load(c.firstFont), emoji], size: size),
                                    paragraph: ParagraphStyle(origin: Point(5, 7)))
        let gi = try #require(layout.glyphs.firstIndex { $0.utf16 == 3..<5 })      // the emoji: two UTF-16 units
        let g = layout.glyphs[gi]
        #expect(layout.fonts[g.font] == emoji)
        #expect(try layout.placement(of: gi).ink == .bitmap)
        let k = size / 109                                    // view px per strike px
        let middle = Point(g.x + 68 * k, g.y - (101 - 64) * k)
        let corner = Point(g.x + 2 * k, g.y - (101 - 2) * k)
        let hit = try #require(layout.hit(at: middle))
        #expect(hit.placement == gi && hit.utf16 == 3..<5 && hit.kind == .ink && hit.distance < -5)
        #expect(layout.hit(at: corner) == nil)
        #expect(layout.hit(at: corner, radius: 0.2) == nil)
        // The letters around it still answer by their own ink.
        let h = try #require(layout.glyphs.first { $0.utf16 == 0..<1 })
        #expect(layout.hit(at: Point(h.x + 0.15 * size, h.y - 0.3 * size), radius: 2)?.utf16 == 0..<1)
    }
}
