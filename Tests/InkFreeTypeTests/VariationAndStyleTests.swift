import Testing
import InkGeometry
import InkHit
import InkTestSupport
@testable import InkFreeType

/// The variation and synthetic-style API: what a variable font reports (checked against the numbers of
/// Inter's `fvar` table as fontTools prints them), clamping, and the errors for what cannot be applied.
struct VariationAndStyleTests {
    @Test func interReportsItsAxesAndInstances() throws {
        let inter = try TestFonts.load(TestFonts.interVariable)
        #expect(inter.variationAxes.map(\.tag) == ["wght", "slnt"])
        let wght = inter.variationAxes[0], slnt = inter.variationAxes[1]
        #expect((wght.minimum, wght.defaultValue, wght.maximum) == (100, 400, 900))
        #expect((slnt.minimum, slnt.defaultValue, slnt.maximum) == (-10, 0, 0))
        #expect(wght.name == "Weight")
        #expect(inter.namedInstances.count == 18)
        let names = inter.namedInstances.compactMap(\.name)
        #expect(names.contains("Bold") && names.contains("Thin Italic"), "\(names)")
        #expect(inter.variationCoordinates == [FontVariation("wght", 400), FontVariation("slnt", 0)])
        #expect(inter.clampedVariations.isEmpty)
        // A static font has none of it.
        let sans = try TestFonts.load(TestFonts.sans)
        #expect(sans.variationAxes.isEmpty && sans.namedInstances.isEmpty && sans.variationCoordinates.isEmpty)
    }

    @Test func instancesStartFromANamedInstanceAndClampAsFreeTypeDoes() throws {
        let inter = try TestFonts.load(TestFonts.interVariable)
        let a = try inter.withVariations([FontVariation("wght", 1200), FontVariation("slnt", 3)])
        #expect(a.variationCoordinates == [FontVariation("wght", 900), FontVariation("slnt", 0)])
        #expect(a.clampedVariations == [VariationClamp(tag: "wght", requested: 1200, applied: 900),
                                        VariationClamp(tag: "slnt", requested: 3, applied: 0)])
        #expect(a.clampedVariations[0].description == "wght 1200 clamped to 900")
        #expect(a.id != inter.id && a != inter, "an instance is its own font (its own shapes)")
        #expect(a.byteCount == inter.byteCount)
        let italic = try inter.withVariations([FontVariation("wght", 500)], instance: .name("thin italic"))
        #expect(italic.variationCoordinates == [FontVariation("wght", 500), FontVariation("slnt", -10)])
        let byIndex = try inter.withVariations([], instance: .index(0))
        #expect(byIndex.variationCoordinates.map(\.value) == inter.namedInstances[0].coordinates)
        // A later setting of one axis wins.
        let twice = try inter.withVariations([FontVariation("wght", 300), FontVariation("wght", 800)])
        #expect(twice.variationCoordinates[0].value == 800)
        #expect(twice.description.hasSuffix("wght=800 slnt=0)"), "\(twice)")
    }

    @Test func whatCannotBeAppliedIsATypedError() throws {
        let inter = try TestFonts.load(TestFonts.interVariable)
        #expect(throws: FontError.unknownAxis(tag: "wdth", axes: ["wght", "slnt"])) {
            try inter.withVariations([FontVariation("wdth", 100)])
        }
        #expect(throws: FontError.self) { try inter.withVariations([FontVariation("", 1)]) }
        #expect(throws: FontError.self) { try inter.withVariations([FontVariation("weight", 1)]) }
        #expect(throws: FontError.self) { try inter.withVariations([FontVariation("wght", .nan)]) }
        #expect(throws: FontError.self) { try inter.withVariations([FontVariation("wght", .infinity)]) }
        #expect(throws: FontError.self) { try inter.withVariations([], instance: .name("Hairline")) }
        #expect(throws: FontError.self) { try inter.withVariations([], instance: .index(18)) }
        let sans = try TestFonts.load(TestFonts.sans)
        #expect(throws: FontError.notVariable) { try sans.withVariations([FontVariation("wght", 700)]) }
        let message = FontError.unknownAxis(tag: "wdth", axes: ["wght", "slnt"]).description
        #expect(message == "the font has no variation axis 'wdth' (its axes: 'wght', 'slnt')")
    }

    @Test func stylesThatCannotBeDrawnAreRefused() throws {
        let sans = try TestFonts.load(TestFonts.sans)
        let g = try #require(sans.glyph(for: "a"))
        let bad: [(GlyphStyle, Double)] = [
            (GlyphStyle(embolden: .uniform(.nan)), 16), (GlyphStyle(embolden: .strength(x: 1, y: .infinity)), 16),
            (GlyphStyle(embolden: .uniform(17)), 16), (GlyphStyle(oblique: .nan), 16), (GlyphStyle(oblique: 5), 16),
            (GlyphStyle(hinting: .full), 20_000), (GlyphStyle(embolden: .freeType), 0.001),
        ]
        for (style, size) in bad {
            let p = GlyphPlacement(font: sans, glyph: g, size: size, style: style)
            var b = HitIndex.Builder()
            #expect(throws: FontError.self, "\(style) at \(size)") { try b.add(p, cache: FontShapeCache()) }
            #expect(throws: FontError.self) { try p.viewBounds() }
        }
        // Oblique alone keeps the exact outline; so does a plain style at any size.
        #expect(GlyphStyle(oblique: 0.3).rendering(size: 16) == .exact)
        #expect(GlyphStyle(hinting: .light).rendering(size: 12).charSize64 == 768)
        #expect(GlyphStyle(embolden: .uniform(1.5)).rendering(size: 12).emboldenX64 == 96)
    }

    /// Oblique is a shear of the placement around the glyph origin: a point of the upright glyph at height
    /// h above the baseline moves right by k·h.
    @Test func obliqueShearsAroundTheOrigin() throws {
        let sans = try TestFonts.load(TestFonts.sans)
        let l = try #require(sans.glyph(for: "l"))
        let k = GlyphStyle.freeTypeOblique
        let upright = GlyphPlacement(font: sans, glyph: l, size: 100, origin: Point(0, 200))
        let slanted = GlyphPlacement(font: sans, glyph: l, size: 100, origin: Point(0, 200), style: GlyphStyle(oblique: k))
        var a = HitIndex.Builder(), b = HitIndex.Builder()
        try a.add(upright, cache: FontShapeCache())
        try b.add(slanted, cache: FontShapeCache())
        let (ia, ib) = (a.build(), b.build())
        for h in stride(from: 5.0, through: 70, by: 5) {
            for x in stride(from: -5.0, through: 30, by: 0.37) {
                let pa = Point(x, 200 - h), pb = Point(x + k * h, 200 - h)
                guard let da = ia.hit(at: pa, radius: 1)?.distance, abs(da) > 0.05 else { continue }
                #expect((ia.hit(at: pa) != nil) == (ib.hit(at: pb) != nil), "h \(h) x \(x)")
            }
        }
        #expect(isClose(k, 0.212555, within: 1e-6))
    }
}
