import InkGeometry
import InkHit
import InkFreeType
import InkTestSupport
import Testing

/// A glyph's first sight through a shape cache: one FreeType load decides its ink and draws its outline in
/// place. The result must be the very shape the long way gives (the outline copied out, then decomposed), and
/// small: the lean form of a CJK ideograph at text sizes takes a few KiB.
struct FirstSightTests {
    /// Per font, glyphs of every kind of contour: TrueType quadratics (DejaVu, Droid Sans Fallback) and CFF
    /// cubics (Cantarell).
    @Test(arguments: [(TestFonts.sans, 0x21, 16.0), (TestFonts.cantarell, 0x21, 16.0), (TestFonts.cjk, 0x4E00, 16.0),
                      (TestFonts.cjk, 0x4E00, 48.0), (TestFonts.sans, 0x21, 500.0)])
    func firstSightDrawsWhatTheCopiedOutlineDraws(path: String, first: Int, size: Double) throws {
        let font = try TestFonts.load(path)
        let cache = FontShapeCache()
        let scale = size / Double(font.unitsPerEm)
        var compared = 0
        for code in first..<(first + 60) {
            guard let scalar = Unicode.Scalar(code), let glyph = font.glyph(for: scalar) else { continue }
            let shape = try cache.shape(font: font, glyph: glyph, maxScale: scale)
            // The long way, at the class tolerance the cache chose.
            let outline = try font.outline(glyph: glyph)
            let reference = try GlyphShape(tolerance: FontShapeCache.toleranceClass(HitIndex.defaultTolerance / scale)) { sink in
                outline.decompose(into: &sink)
            }
            let a = shape.storedEdges, b = reference.storedEdges
            #expect(a.count == b.count, "U+\(String(code, radix: 16)): \(a.count) vs \(b.count) edges")
            for (x, y) in zip(a, b) where x != y {
                Issue.record("U+\(String(code, radix: 16)): edge \(x) vs \(y)")
                break
            }
            #expect(shape.tolerance == reference.tolerance)
            compared += 1
        }
        #expect(compared >= 50)
    }

    /// The first-sight memory target: the lean forms of 300 ideographs at 16 px average at most 4 KiB.
    @Test func ideographsAtTextSizesTakeAFewKiB() throws {
        let font = try TestFonts.load(TestFonts.cjk)
        let cache = FontShapeCache()
        var shapes = 0, bytes = 0
        for k in 0..<300 {
            guard let glyph = font.glyph(for: Unicode.Scalar(0x4E00 + 7 * k)!) else { continue }
            let shape = try cache.shape(font: font, glyph: glyph, maxScale: 16 / Double(font.unitsPerEm))
            #expect(!shape.hasFullForm)
            shapes += 1
            bytes += shape.byteCount
        }
        #expect(shapes > 250)
        #expect(bytes / shapes <= 4096, "\(bytes / shapes) bytes per shape")
    }

    /// A glyph's ink is decided on its first sight whatever path comes first, and the shape cache then agrees
    /// with `Font.ink(of:)` (a space has no ink; an outline glyph is `.outline`).
    @Test func inkDecidedOnFirstSightAgrees() throws {
        let font = try TestFonts.load(TestFonts.sans)
        let cache = FontShapeCache()
        for scalar in "a @ Ω".unicodeScalars {
            let glyph = try #require(font.glyph(for: scalar))
            let shape = try cache.shape(font: font, glyph: glyph, maxScale: 0.01)
            #expect(try font.ink(of: glyph) == .outline)
            #expect(shape.bounds.isEmpty == (scalar == " "))
        }
    }
}

/// Glyph shapes read in their lean and their full forms answer alike, distances to the bit, under the
/// transforms text meets (scale, rotation, shear) and far from the origin.
struct FormsOfGlyphShapesTests {
    @Test(arguments: [AffineTransform.identity, .rotation(0.3), AffineTransform(a: 1, b: 0, c: 0.25, d: 1.1, tx: 0, ty: 0)],
          [Point(0, 0), Point(54321.125, -12345.5)])
    func glyphsAnswerAlikeInBothForms(view: AffineTransform, offset: Point) throws {
        let font = try TestFonts.load(TestFonts.serif)
        var lean = HitIndex.Builder(), full = HitIndex.Builder()
        lean.shapeForms = .lean
        full.shapeForms = .full
        let cache = FontShapeCache()
        var pen = 5.0
        for scalar in "Ink @gÅ".unicodeScalars {
            let g = try #require(font.glyph(for: scalar))
            let t = view.concatenating(.translation(offset.x, offset.y))
            let p = GlyphPlacement(font: font, glyph: g, size: 37, origin: Point(pen, 50), transform: t)
            try lean.add(p, cache: cache)
            try full.add(p, cache: cache)
            pen += try font.advance(of: g) * 37 / Double(font.unitsPerEm)
        }
        let a = lean.build(), b = full.build()
        var rng = SplitMix64(seed: 3)
        let box = a.bounds
        var hits = 0
        for _ in 0..<6000 {
            let p = Point(box.minX - 5 + rng.unit() * (box.width + 10), box.minY - 5 + rng.unit() * (box.height + 10))
            for r in [0, 3.5] {
                let x = a.hit(at: p, radius: r), y = b.hit(at: p, radius: r)
                #expect(x?.placement == y?.placement && x?.isInside == y?.isInside, "p=\(p) r=\(r)")
                if let x, let y {
                    #expect(x.distance.bitPattern == y.distance.bitPattern, "p=\(p) r=\(r): \(x.distance) vs \(y.distance)")
                    hits += 1
                }
            }
        }
        #expect(hits > 1000)
    }
}
