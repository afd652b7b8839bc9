import Testing
import InkGeometry
import InkHit
import InkTestSupport
@testable import InkFreeType

/// Real glyphs through the whole path (FreeType outline → shape → index), checked against points whose
/// answer is known from the glyph's design, and against FreeType's own rasteriser away from edges.
struct RealFontHitTests {
    /// (font, character, point as a fraction of the glyph's control box, expected inside?)
    static let knownPoints: [(String, Character, Double, Double, Bool, String)] = [
        (TestFonts.sans, "o", 0.5, 0.5, false, "counter of o"),
        (TestFonts.sans, "o", 0.04, 0.5, true, "left stroke of o"),
        (TestFonts.sans, "e", 0.5, 0.55, true, "bar of e"),
        (TestFonts.sans, "e", 0.5, 0.75, false, "upper counter of e"),
        (TestFonts.sans, "l", 0.5, 0.5, true, "stem of l"),
        (TestFonts.sans, "T", 0.1, 0.3, false, "under the arm of T"),
        (TestFonts.sans, "T", 0.5, 0.3, true, "stem of T"),
        (TestFonts.serif, "o", 0.5, 0.5, false, "serif counter of o"),
        (TestFonts.serif, "o", 0.03, 0.5, true, "serif left stroke of o"),
        (TestFonts.mono, "o", 0.5, 0.5, false, "mono counter of o"),
        (TestFonts.mono, "0", 0.5, 0.5, true, "mono zero's dot"),
        (TestFonts.mono, "0", 0.5, 0.8, false, "mono zero's counter above the dot"),
        (TestFonts.cjk, "口", 0.5, 0.5, false, "hole of 口"),
        (TestFonts.cjk, "口", 0.03, 0.5, true, "left stroke of 口"),
        (TestFonts.cjk, "中", 0.5, 0.5, true, "crossing of 中"),
        (TestFonts.cjk, "中", 0.25, 0.5, false, "left hole of 中"),
    ]

    @Test(arguments: knownPoints.indices)
    func knownPointIsClassified(_ i: Int) throws {
        let (path, ch, fx, fy, inside, name) = Self.knownPoints[i]
        let font = try Font(path: path)
        let g = try #require(font.glyph(for: ch.unicodeScalars.first!))
        let box = try font.controlBox(glyph: g)
        let u = box.minX + fx * box.width, v = box.minY + fy * box.height
        let cache = FontShapeCache()
        for size in [12.0, 16.0, 48.0, 200.0] {
            let placement = GlyphPlacement(font: font, glyph: g, size: size, origin: Point(30, 300))
            var b = HitIndex.Builder()
            try b.add(placement, cache: cache)
            let index = b.build()
            let p = Point(u, v).applying(placement.fontUnitsToView)
            #expect(index.contains(p) == inside, "\(name) at \(size) px")
            #expect((index.hit(at: p)?.placement != nil) == inside, "\(name) at \(size) px")
        }
    }

    /// Pixels FreeType renders as fully covered (or empty), together with their 8 neighbours, must be
    /// inside (or outside) for the index at the pixel centre.
    @Test(arguments: [
        (TestFonts.sans, "oe@gBQ&%ß"), (TestFonts.serif, "ag§Wž"), (TestFonts.mono, "0@#m"),
        (TestFonts.cjk, "漢字當鬱"),
    ])
    func agreesWithFreeTypeRasteriserAwayFromEdges(_ path: String, _ chars: String) throws {
        let font = try Font(path: path)
        let cache = FontShapeCache()
        let size = 48.0
        let k = size / Double(font.unitsPerEm)
        let w = 80, h = 80
        let ox = 12.3, oyUp = 18.7       // glyph origin in the y-up bitmap, px (a subpixel offset on purpose)
        var checked = 0
        for ch in chars.unicodeScalars {
            let g = try #require(font.glyph(for: ch), "\(ch) missing")
            let cov = try font.coverage(glyph: g, scale: k, origin: Point(ox, oyUp), width: w, height: h)
            // View space = the bitmap flipped to y-down: view (x, y) = bitmap (x, h - y).
            var b = HitIndex.Builder()
            try b.add(GlyphPlacement(font: font, glyph: g, size: size, origin: Point(ox, Double(h) - oyUp)), cache: cache)
            let index = b.build()
            var mismatches: [String] = []
            for row in 1..<(h - 1) {
                for col in 1..<(w - 1) {
                    var all0 = true, all255 = true
                    for dr in -1...1 { for dc in -1...1 {
                        let c = cov[(row + dr) * w + col + dc]
                        if c != 0 { all0 = false }
                        if c != 255 { all255 = false }
                    } }
                    guard all0 || all255 else { continue }
                    let p = Point(Double(col) + 0.5, Double(row) + 0.5)   // rows top first = view y
                    checked += 1
                    if index.contains(p) != all255 { mismatches.append("\(ch) pixel (\(col), \(row))") }
                }
            }
            #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        }
        #expect(checked > 1000)
    }

    static func shapeUnlessBitmapOnly(_ cache: FontShapeCache, _ font: Font, _ g: GlyphID) throws(FontError) -> GlyphShape? {
        do { return try cache.shape(font: font, glyph: g, viewTolerance: 0.01, maxScale: 0.01) } catch {
            if case .noOutline = error { return nil }
            throw error
        }
    }

    /// Glyphs with overlapping contours, composites and many points build and answer like brute force.
    @Test(arguments: [TestFonts.sans, TestFonts.cjk])
    func everyGlyphOfARangeBuilds(_ path: String) throws {
        let font = try Font(path: path)
        let cache = FontShapeCache()
        let step = max(1, font.glyphCount / 300)
        var built = 0
        for g in stride(from: GlyphID(0), to: GlyphID(UInt32(font.glyphCount)), by: step) {
            // Bitmap-only glyphs have no outline; any other error fails the test.
            guard let shape = try Self.shapeUnlessBitmapOnly(cache, font, g) else { continue }
            built += 1
            // Brute-force winding over the stored edges at a few points of the box.
            let edges = shape.storedEdges
            guard !shape.bounds.isEmpty else { continue }
            for (fx, fy) in [(0.5, 0.5), (0.3, 0.7), (0.71, 0.29), (0.13, 0.9)] {
                let p = Point(shape.bounds.minX + fx * shape.bounds.width, shape.bounds.minY + fy * shape.bounds.height)
                // A point exactly on an edge may go either way (both rules are valid there).
                let onEdge = edges.contains { $0.distance(to: p) < 1e-9 }
                if onEdge { continue }
                #expect(shape.contains(p) == (Winding.number(p, edges: edges) != 0), "glyph \(g) at \(p)")
            }
        }
        #expect(built > 100)
    }
}
