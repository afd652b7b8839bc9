import Foundation
import Testing
import InkGeometry
import InkHit
import InkTestSupport
import InkFreeType

/// `GlyphPlacement`, the one font-units → view mapping, against its documented formula with hand values;
/// its checks; placements without ink; and the process-wide shape cache.
///
/// The formula (GlyphPlacement's documentation): glyph at size `s` and origin `(x, y)` puts font point
/// `(u, v)` at layout `(x + u·s/upem, y − v·s/upem)`; `transform` then takes layout to view
/// (`x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`).
struct GlyphPlacementTests {
    /// numGlyphs from the font file's `maxp` table, read by hand (the oracle for `glyphCount`).
    static func maxpGlyphCount(_ path: String) throws -> Int {
        let b = try Fonts.bytes(path)
        func u16(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
        func u32(_ i: Int) -> Int { u16(i) << 16 | u16(i + 2) }
        for t in 0..<u16(4) where String(decoding: b[(12 + 16 * t)..<(16 + 16 * t)], as: UTF8.self) == "maxp" {
            return u16(u32(12 + 16 * t + 8) + 4)
        }
        throw NoTable(path: path)
    }
    struct NoTable: Error { var path: String }

    @Test func fontUnitsToViewFollowsTheDocumentedFormula() throws {
        let sans = try TestFonts.load(TestFonts.sans)
        try #require(sans.unitsPerEm == 2048)             // DejaVu Sans: 2048 units per em
        let g = try #require(sans.glyph(for: "o"))
        // Size 16, upem 2048: k = 1/128. Font (1024, 512) → layout (10 + 8, 30 − 4) = (18, 26).
        let p = GlyphPlacement(font: sans, glyph: g, size: 16, origin: Point(10, 30))
        #expect(Point(1024, 512).applying(p.fontUnitsToLayout) == Point(18, 26))
        #expect(Point(1024, 512).applying(p.fontUnitsToView) == Point(18, 26))
        #expect(p.fontUnitsToView == AffineTransform(a: 0.0078125, b: 0, c: 0, d: -0.0078125, tx: 10, ty: 30))
        #expect(p.viewPxPerEm == 16)

        // A quarter turn on top: x' = −y + 100, y' = x + 5. Layout (18, 26) → view (74, 23). Composed by hand:
        // x' = −(30 − k·v) + 100 = 70 + k·v, y' = (10 + k·u) + 5 = 15 + k·u, i.e. [a b c d tx ty] = [0 k k 0 70 15].
        var turned = p
        turned.transform = AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 100, ty: 5)
        #expect(Point(1024, 512).applying(turned.fontUnitsToView) == Point(74, 23))
        let t = turned.fontUnitsToView
        #expect(t.a == 0 && t.b == 0.0078125 && t.c == 0.0078125 && t.d == 0 && t.tx == 70 && t.ty == 15)
        #expect(turned.viewPxPerEm == 16)

        // Scale 2 × 3 and a shift (−5, 7): (18, 26) → (31, 85); the view size is 16 × 3 px per em.
        var scaled = p
        scaled.transform = AffineTransform(a: 2, b: 0, c: 0, d: 3, tx: -5, ty: 7)
        #expect(Point(1024, 512).applying(scaled.fontUnitsToView) == Point(31, 85))
        #expect(Point(0, 0).applying(scaled.fontUnitsToView) == Point(15, 97))
        #expect(scaled.viewPxPerEm == 48)

        // viewBounds is the control box through that map: x grows with u, y shrinks with v (the y-flip).
        let cb = try sans.controlBox(glyph: g)
        let k = 16.0 / 2048
        let want = Rect(minX: 2 * (10 + cb.minX * k) - 5, minY: 3 * (30 - cb.maxY * k) + 7,
                        maxX: 2 * (10 + cb.maxX * k) - 5, maxY: 3 * (30 - cb.minY * k) + 7)
        let got = try scaled.viewBounds()
        for (a, b) in [(got.minX, want.minX), (got.minY, want.minY), (got.maxX, want.maxX), (got.maxY, want.maxY)] {
            #expect(isClose(a, b, within: 1e-12))
        }
        // The outline drawn in view px has that control box too (BoundsSink counts control points; this map
        // keeps boxes axis-aligned).
        var bounds = BoundsSink()
        try scaled.outline(into: &bounds)
        let drawn = bounds.bounds
        for (a, b) in [(drawn.minX, want.minX), (drawn.minY, want.minY), (drawn.maxX, want.maxX), (drawn.maxY, want.maxY)] {
            #expect(isClose(a, b, within: 1e-9))
        }
    }

    /// `.invalidPlacement` with `reason` containing `text`.
    func expectInvalidPlacement(_ p: GlyphPlacement, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try p.validate()
            Issue.record("validate() accepted size \(p.size), origin \(p.origin)", sourceLocation: sourceLocation)
        } catch {
            guard case .invalidPlacement(let reason) = error else {
                Issue.record("expected .invalidPlacement, got \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(reason.contains(text), "\(reason)", sourceLocation: sourceLocation)
        }
        // The builder refuses it the same way and stays as it was.
        var b = HitIndex.Builder()
        #expect(throws: FontError.self, sourceLocation: sourceLocation) { try b.add(p, cache: FontShapeCache()) }
        #expect(b.count == 0, sourceLocation: sourceLocation)
    }

    @Test func validateRefusesWhatTheFontCannotCheck() throws {
        let sans = try TestFonts.load(TestFonts.sans)
        let o = try #require(sans.glyph(for: "o"))
        let good = GlyphPlacement(font: sans, glyph: o, size: 16, origin: Point(10, 30))
        try good.validate()

        expectInvalidPlacement(GlyphPlacement(font: sans, glyph: o, size: 0), "size")
        expectInvalidPlacement(GlyphPlacement(font: sans, glyph: o, size: -3), "size")
        expectInvalidPlacement(GlyphPlacement(font: sans, glyph: o, size: .infinity), "size")
        expectInvalidPlacement(GlyphPlacement(font: sans, glyph: o, size: .nan), "size")
        expectInvalidPlacement(GlyphPlacement(font: sans, glyph: o, size: 16, origin: Point(.nan, 30)), "origin")
        expectInvalidPlacement(GlyphPlacement(font: sans, glyph: o, size: 16, origin: Point(0, -.infinity)), "origin")
        // 2e9 view px per em, by size or by transform: beyond the ±1e9 px view range. 1e9 itself is allowed.
        expectInvalidPlacement(GlyphPlacement(font: sans, glyph: o, size: 2e9), "view px per em")
        expectInvalidPlacement(GlyphPlacement(font: sans, glyph: o, size: 1000, transform: .scale(2e6, 2e6)), "view px per em")
        try GlyphPlacement(font: sans, glyph: o, size: 1e9).validate()
        try GlyphPlacement(font: sans, glyph: o, size: 1000, transform: .scale(1e6, 1e6)).validate()

        // Glyph ids: the font's maxp table says how many there are (read by hand above).
        let count = try Self.maxpGlyphCount(TestFonts.sans)
        #expect(sans.glyphCount == count)
        try GlyphPlacement(font: sans, glyph: GlyphID(UInt32(count - 1)), size: 16).validate()
        for id in [UInt32(count), UInt32(count + 1), UInt32.max] {
            #expect(throws: FontError.glyphOutOfRange(glyph: GlyphID(id), glyphCount: count)) {
                try GlyphPlacement(font: sans, glyph: GlyphID(id), size: 16).validate()
            }
        }
    }

    /// A space has no ink: adding it still takes a placement index, and it is never hit, even at r = ∞.
    @Test func spaceIsAPlacementWithoutInk() throws {
        let sans = try TestFonts.load(TestFonts.sans)
        let space = try #require(sans.glyph(for: " "))
        let o = try #require(sans.glyph(for: "o"))
        let cache = FontShapeCache()
        var b = HitIndex.Builder()
        #expect(try b.add(GlyphPlacement(font: sans, glyph: space, size: 40, origin: Point(0, 40)), cache: cache) == 0)
        #expect(b.count == 1)
        let onlySpace = b.build()
        #expect(onlySpace.count == 1 && onlySpace.bounds.isEmpty)
        for p in [Point(5, 30), Point(0, 40), Point(-100, 7)] {
            #expect(onlySpace.hit(at: p, radius: .infinity) == nil)
        }
        // An "o" after it is placement 1.
        let oPlacement = GlyphPlacement(font: sans, glyph: o, size: 40, origin: Point(20, 40))
        #expect(try b.add(oPlacement, cache: cache) == 1)
        let index = b.build()
        #expect(index.count == 2)
        let box = try oPlacement.viewBounds()
        // Left stroke of the "o" (4 % into its box, halfway up): ink of placement 1.
        let stroke = Point(box.minX + 0.04 * box.width, box.center.y)
        #expect(index.hit(at: stroke)?.placement == 1)
        // Over the space's advance, far from the "o": nothing at r = 0; at r = ∞ the nearest ink, the "o".
        #expect(index.hit(at: Point(3, 30)) == nil)
        #expect(index.hit(at: Point(3, 30), radius: .infinity)?.placement == 1)
    }

    /// `FontShapeCache.shared` is one cache: two "layouts" of the same text through the default cache of
    /// `add(_:cache:)` share every glyph shape — the second finds them (same objects), nothing is built for
    /// it. A freshly loaded font gives keys no other test uses.
    @Test func sharedCacheIsSharedAcrossLayouts() throws {
        #expect(FontShapeCache.shared === FontShapeCache.shared)
        let font = try TestFonts.load(TestFonts.serif)
        let text = "Hello"
        func layout(y: Double) throws -> (HitIndex, [GlyphPlacement]) {
            var b = HitIndex.Builder()
            var x = 10.0
            var placements: [GlyphPlacement] = []
            for ch in text.unicodeScalars {
                let p = GlyphPlacement(font: font, glyph: try #require(font.glyph(for: ch)), size: 24, origin: Point(x, y))
                try b.add(p)                              // default cache: .shared
                placements.append(p)
                x += try font.advance(of: p.glyph) * 24 / Double(font.unitsPerEm)
            }
            return (b.build(), placements)
        }
        let (first, p1) = try layout(y: 40)
        let (second, p2) = try layout(y: 90)
        // H, e, l, o: four shapes for five glyphs in each layout.
        #expect(first.uniqueShapeCount == 4 && second.uniqueShapeCount == 4)
        for (a, b) in zip(p1, p2) {
            #expect(try FontShapeCache.shared.shape(for: a) === FontShapeCache.shared.shape(for: b))
        }
        // Every glyph of the layouts is in .shared already (`cachedShape` never builds).
        for p in p2 {
            let s = FontShapeCache.shared.cachedShape(for: p)
            #expect(s != nil && s!.edgeCount > 0, "glyph \(p.glyph) is not in .shared")
        }
        // The same font loaded again is another font (its own id) over the same content (one contentID): its
        // glyphs are in the cache already, built for the first load.
        let again = try TestFonts.load(TestFonts.serif)
        #expect(again.id != font.id && again.contentID == font.contentID)
        #expect(FontShapeCache.shared.cachedShape(
            for: GlyphPlacement(font: again, glyph: p1[0].glyph, size: p1[0].size, origin: p1[0].origin)) != nil)
    }
}
