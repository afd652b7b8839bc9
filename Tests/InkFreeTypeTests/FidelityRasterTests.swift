import Testing
import CFreeType
import InkGeometry
import InkHit
import InkTestSupport
import InkFreeType

/// Synthetic bold, synthetic oblique, hinting and variation instances against FreeType itself used the way a
/// renderer uses it: the test opens its own FreeType face (no InkFreeType code), loads the glyph at the size,
/// applies `FT_GlyphSlot_Embolden` / `FT_Outline_EmboldenXY` / `FT_GlyphSlot_Oblique` or the hinting load
/// flags, and renders the outline anti-aliased at 16× (pixels of 1/16 px). A pixel of that bitmap whose
/// centre lies at least 0.05 px from InkHit's edge lies wholly on one side of it (its half-diagonal is
/// 0.044 px), so it must be fully covered (≥ 253) when InkHit says inside and empty (≤ 2) when it says
/// outside: every such pixel is checked, partially covered ones included.
struct FidelityRasterTests {
    static let scale = 16

    /// What the renderer does to the slot after loading.
    enum Synthesis { case none, embolden, emboldenXY(Int, Int), oblique, emboldenOblique }

    struct Case: CustomStringConvertible, Sendable {
        var path: String
        var text: String
        var size: Double
        var loadFlags: Int32
        var synthesis: Synthesis
        var style: GlyphStyle
        var description: String { "\(path.split(separator: "/").last!) \(text) \(size) px \(style)" }
    }

    static let noHinting = Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)
    static let light = Int32(FT_LOAD_NO_BITMAP) | Int32(FT_RENDER_MODE_LIGHT.rawValue & 15) << 16
    static let full = Int32(FT_LOAD_NO_BITMAP)

    static let cases: [Case] = [
        Case(path: TestFonts.sans, text: "ag&", size: 16, loadFlags: noHinting, synthesis: .embolden,
             style: GlyphStyle(embolden: .freeType)),
        Case(path: TestFonts.sans, text: "Og", size: 48, loadFlags: noHinting, synthesis: .embolden,
             style: GlyphStyle(embolden: .freeType)),
        Case(path: TestFonts.sans, text: "e@", size: 24, loadFlags: noHinting, synthesis: .emboldenXY(96, 96),
             style: GlyphStyle(embolden: .uniform(1.5))),
        Case(path: TestFonts.serif, text: "Rk", size: 32, loadFlags: noHinting, synthesis: .emboldenXY(128, 32),
             style: GlyphStyle(embolden: .strength(x: 2, y: 0.5))),
        Case(path: TestFonts.sans, text: "Aj", size: 40, loadFlags: noHinting, synthesis: .oblique,
             style: GlyphStyle(oblique: GlyphStyle.freeTypeOblique)),
        Case(path: TestFonts.serif, text: "fQ", size: 30, loadFlags: noHinting, synthesis: .emboldenOblique,
             style: GlyphStyle(embolden: .freeType, oblique: GlyphStyle.freeTypeOblique)),
        Case(path: TestFonts.cantarell, text: "gS", size: 36, loadFlags: noHinting, synthesis: .embolden,
             style: GlyphStyle(embolden: .freeType)),
        Case(path: TestFonts.sans, text: "aegR", size: 12, loadFlags: light, synthesis: .none,
             style: GlyphStyle(hinting: .light)),
        Case(path: TestFonts.sans, text: "aegR", size: 12, loadFlags: full, synthesis: .none,
             style: GlyphStyle(hinting: .full)),
        Case(path: TestFonts.serif, text: "mwq", size: 13, loadFlags: full, synthesis: .none,
             style: GlyphStyle(hinting: .full)),
        Case(path: TestFonts.serif, text: "mwq", size: 13, loadFlags: light, synthesis: .embolden,
             style: GlyphStyle(embolden: .freeType, hinting: .light)),
        Case(path: TestFonts.cantarell, text: "ag", size: 12, loadFlags: full, synthesis: .none,
             style: GlyphStyle(hinting: .full)),
    ]

    @Test(arguments: cases)
    func inkMatchesFreeTypesRendering(_ c: Case) throws {
        let font = try TestFonts.load(c.path)
        let renderer = try #require(Renderer(path: c.path))
        for ch in c.text.unicodeScalars {
            let glyph = try #require(font.glyph(for: ch))
            let bitmap = try #require(renderer.render(glyph: glyph.rawValue, size: c.size, loadFlags: c.loadFlags) { slot in
                switch c.synthesis {
                case .none: break
                case .embolden: FT_GlyphSlot_Embolden(slot)
                case .emboldenXY(let x, let y): _ = FT_Outline_EmboldenXY(&slot.pointee.outline, FT_Pos(x), FT_Pos(y))
                case .oblique: FT_GlyphSlot_Oblique(slot)
                case .emboldenOblique: FT_GlyphSlot_Embolden(slot); FT_GlyphSlot_Oblique(slot)
                }
            })
            let placement = GlyphPlacement(font: font, glyph: glyph, size: c.size, origin: Point(50, 80), style: c.style)
            let report = try Self.compare(bitmap, placement)
            #expect(report.disagreements.isEmpty, "\(c) '\(ch)': \(report.disagreements.count) of \(report.checked) pixels disagree, first \(report.disagreements.prefix(3))")
            #expect(report.checked > bitmap.width * bitmap.height * 8 / 10, "\(c) '\(ch)': only \(report.checked) pixels checked")
            #expect(report.inside > 50, "\(c) '\(ch)': the glyph has ink")
        }
    }

    /// Inter at non-default weights and slants (FreeType's variation API on the test's own face, the
    /// unscaled outline scaled by the bitmap's transform) against `Font.withVariations`.
    @Test(arguments: [[700.0, 0], [100, 0], [900, -10], [430, -4]])
    func variationInstanceMatchesFreeTypesRendering(_ coordinates: [Double]) throws {
        let base = try TestFonts.load(TestFonts.interVariable)
        let font = try base.withVariations([FontVariation("wght", coordinates[0]), FontVariation("slnt", coordinates[1])])
        let renderer = try #require(Renderer(path: TestFonts.interVariable, design: coordinates))
        for ch in "Rag&".unicodeScalars {
            let glyph = try #require(font.glyph(for: ch))
            let bitmap = try #require(renderer.renderUnscaled(glyph: glyph.rawValue, size: 40))
            let report = try Self.compare(bitmap, GlyphPlacement(font: font, glyph: glyph, size: 40, origin: Point(50, 80)))
            #expect(report.disagreements.isEmpty, "\(coordinates) '\(ch)': \(report.disagreements.count) of \(report.checked) disagree, first \(report.disagreements.prefix(3))")
            #expect(report.checked > bitmap.width * bitmap.height * 8 / 10)
        }
        // The default instance differs from the bold one where the stems grew: the check can fail.
        let l = try #require(base.glyph(for: "l"))
        let plain = try Self.compare(try #require(renderer.renderUnscaled(glyph: l.rawValue, size: 40)),
                                     GlyphPlacement(font: base, glyph: l, size: 40, origin: Point(50, 80)))
        if coordinates[0] != 400 { #expect(!plain.disagreements.isEmpty, "the default instance must not pass for \(coordinates)") }
    }

    /// The synthetic styles move ink: the plain glyph must fail the emboldened rendering's check.
    @Test func plainGlyphFailsTheEmboldenedRendering() throws {
        let font = try TestFonts.load(TestFonts.sans)
        let renderer = try #require(Renderer(path: TestFonts.sans))
        let g = try #require(font.glyph(for: "l"))
        let bitmap = try #require(renderer.render(glyph: g.rawValue, size: 16, loadFlags: Self.noHinting) { FT_GlyphSlot_Embolden($0) })
        let report = try Self.compare(bitmap, GlyphPlacement(font: font, glyph: g, size: 16, origin: Point(50, 80)))
        #expect(report.disagreements.count > 100)
    }

    // MARK: Comparison

    struct Report { var checked = 0, inside = 0, disagreements: [String] = [] }

    /// Every pixel of `bitmap` whose centre is at least 0.05 px from the placement's edge, against its coverage.
    static func compare(_ bitmap: Bitmap, _ placement: GlyphPlacement) throws -> Report {
        var b = HitIndex.Builder()
        try b.add(placement, cache: FontShapeCache())
        let index = b.build()
        var r = Report()
        let s = Double(scale)
        for row in 0..<bitmap.height {
            for col in 0..<bitmap.width {
                // The pixel centre in glyph px (y-up from the origin), then in layout px.
                let gx = bitmap.minX + (Double(col) + 0.5) / s
                let gy = bitmap.minY + (Double(bitmap.height - row) - 0.5) / s
                let p = Point(placement.origin.x + gx, placement.origin.y - gy)
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

    /// An anti-aliased 16× rendering: `pixels` rows top first; pixel (col, row) covers glyph px
    /// `minX + col/16 …` and, from the bottom, `minY + (height − 1 − row)/16 …` (y-up from the glyph origin).
    struct Bitmap { var width: Int, height: Int, minX: Double, minY: Double, pixels: [UInt8] }

    /// A FreeType library and face of the test's own.
    final class Renderer {
        var library: FT_Library?
        var face: FT_Face?

        init?(path: String, design: [Double] = []) {
            guard FT_Init_FreeType(&library) == 0, FT_New_Face(library, path, 0, &face) == 0, let face else { return nil }
            if !design.isEmpty {
                var coords = design.map { FT_Fixed(($0 * 65536).rounded()) }
                guard FT_Set_Var_Design_Coordinates(face, FT_UInt(coords.count), &coords) == 0 else { return nil }
            }
        }
        deinit { FT_Done_Face(face); FT_Done_FreeType(library) }

        /// Loads `glyph` at `size` px per em with `loadFlags`, lets `synthesize` change the slot, renders ×16.
        func render(glyph: UInt32, size: Double, loadFlags: Int32, synthesize: (FT_GlyphSlot) -> Void) -> Bitmap? {
            guard let face, FT_Set_Char_Size(face, 0, FT_F26Dot6((size * 64).rounded()), 72, 72) == 0,
                  FT_Load_Glyph(face, glyph, loadFlags) == 0, let slot = face.pointee.glyph else { return nil }
            synthesize(slot)
            return rasterize(&slot.pointee.outline, unitsPerPx: 64)
        }

        /// Loads the unscaled outline (font units) and renders it at `size` px per em ×16.
        func renderUnscaled(glyph: UInt32, size: Double) -> Bitmap? {
            guard let face, FT_Load_Glyph(face, glyph, Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0,
                  let slot = face.pointee.glyph else { return nil }
            return rasterize(&slot.pointee.outline, unitsPerPx: Double(face.pointee.units_per_EM) / size)
        }

        /// Renders `outline` (`unitsPerPx` outline units per glyph px) at 16 pixels per glyph px, 1 px margin.
        func rasterize(_ outline: inout FT_Outline, unitsPerPx: Double) -> Bitmap? {
            var box = FT_BBox()
            FT_Outline_Get_CBox(&outline, &box)
            let minX = (Double(box.xMin) / unitsPerPx).rounded(.down) - 1, minY = (Double(box.yMin) / unitsPerPx).rounded(.down) - 1
            let maxX = (Double(box.xMax) / unitsPerPx).rounded(.up) + 1, maxY = (Double(box.yMax) / unitsPerPx).rounded(.up) + 1
            let s = Double(FidelityRasterTests.scale)
            let width = Int((maxX - minX) * s), height = Int((maxY - minY) * s)
            // Outline units → 26.6 pixels of the bitmap: ×(16 · 64 / unitsPerPx), then move (minX, minY) to 0.
            let m = FT_Fixed((s * 64 / unitsPerPx * 65536).rounded())
            var matrix = FT_Matrix(xx: m, xy: 0, yx: 0, yy: m)
            FT_Outline_Transform(&outline, &matrix)
            FT_Outline_Translate(&outline, FT_Pos(-minX * s * 64), FT_Pos(-minY * s * 64))
            var pixels = [UInt8](repeating: 0, count: width * height)
            let ok = pixels.withUnsafeMutableBufferPointer { buf -> Bool in
                var bitmap = FT_Bitmap()
                bitmap.rows = UInt32(height)
                bitmap.width = UInt32(width)
                bitmap.pitch = Int32(width)
                bitmap.buffer = buf.baseAddress
                bitmap.num_grays = 256
                bitmap.pixel_mode = UInt8(FT_PIXEL_MODE_GRAY.rawValue)
                return FT_Outline_Get_Bitmap(library, &outline, &bitmap) == 0
            }
            return ok ? Bitmap(width: width, height: height, minX: minX, minY: minY, pixels: pixels) : nil
        }
    }
}
