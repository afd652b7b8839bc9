import Foundation
import Testing
import CFreeType
import InkGeometry
import InkHit
import InkTestSupport
import InkFreeType

/// Color glyphs answer as their ink says (`GlyphInk`), each checked against an oracle that shares nothing
/// with the code under test but the font's own outlines:
/// - COLR v0 and v1 glyphs of `Tests/Fonts/InkColorTest.ttf` against the union of their layer glyphs'
///   outlines (`Font.outline`), mapped by transforms written out here from the generator's description
///   (`make_color_font.py`) and the OpenType formulas, sampled densely and tested by winding, clip box
///   applied here;
/// - Noto Color Emoji's bitmaps against FreeType's own FT_LOAD_COLOR bitmap, read here through CFreeType;
/// - the SVG glyph against its box, from the generator's advance and the `hhea` table read by hand.
@Suite struct ColorGlyphTests {
    static let colorTestPath: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(2)                                   // InkFreeTypeTests/ColorGlyphTests.swift
        return parts.joined(separator: "/") + "/Fonts/InkColorTest.ttf"
    }()
    static let emojiPath = TestFonts.emoji

    // MARK: The layer oracle

    /// A map of the font's y-up plane, written as the formula it is.
    typealias Map = @Sendable (Point) -> Point
    static let identity: Map = { $0 }
    static func translate(_ dx: Double, _ dy: Double, _ m: @escaping Map = identity) -> Map {
        { p in let q = m(p); return Point(q.x + dx, q.y + dy) }
    }
    /// Counter-clockwise by `degrees` about `c` (COLR PaintRotate / PaintRotateAroundCenter).
    static func rotate(_ degrees: Double, about c: Point = Point(0, 0), _ m: @escaping Map = identity) -> Map {
        let r = degrees * Double.pi / 180, co = cos(r), si = sin(r)
        return { p in let q = m(p); return Point(c.x + (q.x - c.x) * co - (q.y - c.y) * si, c.y + (q.x - c.x) * si + (q.y - c.y) * co) }
    }
    static func scale(_ sx: Double, _ sy: Double, about c: Point = Point(0, 0), _ m: @escaping Map = identity) -> Map {
        { p in let q = m(p); return Point(c.x + (q.x - c.x) * sx, c.y + (q.y - c.y) * sy) }
    }
    /// COLR PaintSkew: x' = x − tan(xSkew)·y, y' = y + tan(ySkew)·x, about `c`.
    static func skew(x ax: Double, y ay: Double, about c: Point, _ m: @escaping Map = identity) -> Map {
        let tx = tan(ax * Double.pi / 180), ty = tan(ay * Double.pi / 180)
        return { p in
            let q = m(p), dx = q.x - c.x, dy = q.y - c.y
            return Point(c.x + dx - tx * dy, c.y + dy + ty * dx)
        }
    }
    /// `colr1.transform`'s PaintTransform: xx 0.875, yx 0.25, xy −0.3125, yy 0.75, dx 200, dy −150.
    static let transformR: Map = { p in Point(0.875 * p.x - 0.3125 * p.y + 200, 0.25 * p.x + 0.75 * p.y - 150) }

    /// One color glyph of the test font as its generator describes it.
    struct ColorCase: CustomTestStringConvertible, Sendable {
        var name: String
        var scalar: UInt32
        var ink: GlyphInk
        /// (layer glyph, map of its outline into the base glyph's font units).
        var layers: [(glyph: String, map: Map)]
        var clip: Rect? = nil
        var style = GlyphStyle()
        var testDescription: String { name + (style.isPlain ? "" : " (styled)") }
    }

    /// Glyph ids by name (the generator's glyph order; layer glyphs have no code point).
    static let glyphIDs: [String: UInt32] = [
        "A": 2, "O": 3, "o": 4, "x": 5, "g": 6, "R": 7, "filledbox": 8, "x.small": 9, "o.right": 10, "hyphen.wide": 11,
    ]

    static let colorCases: [ColorCase] = {
        var cases = [
            ColorCase(name: "colr0.Ox", scalar: 0xE000, ink: .colorLayers, layers: [("O", identity), ("x.small", identity)]),
            ColorCase(name: "colr0.three", scalar: 0xE001, ink: .colorLayers,
                      layers: [("A", identity), ("o.right", identity), ("hyphen.wide", identity)]),
            ColorCase(name: "colr1.layers", scalar: 0xE010, ink: .colorPaint,
                      layers: [("A", identity), ("x.small", identity), ("o.right", identity)]),
            ColorCase(name: "colr1.transform", scalar: 0xE011, ink: .colorPaint, layers: [("R", transformR)]),
            ColorCase(name: "colr1.rotate", scalar: 0xE012, ink: .colorPaint,
                      layers: [("A", rotate(45, about: Point(700, 700))), ("o", identity)]),
            ColorCase(name: "colr1.scale", scalar: 0xE013, ink: .colorPaint,
                      layers: [("O", scale(0.625, 1.25, about: Point(800, 700))), ("g", translate(900, -300, scale(0.5, 0.5)))]),
            ColorCase(name: "colr1.skew", scalar: 0xE014, ink: .colorPaint,
                      layers: [("R", skew(x: 22.5, y: 0, about: Point(700, 0))), ("o", rotate(-11.25, scale(1.125, 0.75)))]),
            ColorCase(name: "colr1.colrglyph", scalar: 0xE015, ink: .colorPaint,
                      layers: [("A", identity), ("x.small", identity), ("o.right", identity), ("R", translate(1200, 200, transformR))]),
            ColorCase(name: "colr1.composite", scalar: 0xE016, ink: .colorPaint,
                      layers: [("O", identity), ("x.small", translate(400, 0))]),
            ColorCase(name: "colr1.clipped", scalar: 0xE017, ink: .colorPaint, layers: [("O", identity), ("A", identity)],
                      clip: Rect(minX: 150, minY: -100, maxX: 1100, maxY: 1250)),
        ]
        // Synthetic styles reach every layer: emboldened v0 layers, hinted and emboldened v1 layers, oblique.
        var bold = cases[1]
        bold.style = GlyphStyle(embolden: .uniform(1))
        var hinted = cases[3]
        hinted.style = GlyphStyle(embolden: .freeType, hinting: .full)
        var slanted = cases[9]
        slanted.style = GlyphStyle(oblique: GlyphStyle.freeTypeOblique)
        cases += [bold, hinted, slanted]
        return cases
    }()

    /// The union of layers, in view px: each layer's outline sampled at 32 chords per curve (de Casteljau;
    /// within 0.01 px of the curves at 48 px per em), mapped by its map and the placement; inside = some
    /// layer winds around the point (and the clip holds it).
    struct LayerOracle {
        var rings: [[Point]] = []
        var clip: [Point]? = nil
        var bounds = Rect.empty

        init(font: Font, layers: [(glyph: GlyphID, map: Map)], clip: Rect?, placement: GlyphPlacement) throws {
            let toView = placement.fontUnitsToView
            var layerRings: [[[Point]]] = []
            for layer in layers {
                let outline = try font.outline(glyph: layer.glyph, rendering: placement.rendering)
                var rec = RecordingSink()
                outline.decompose(into: &rec)
                var ringsOfLayer: [[Point]] = []
                var ring: [Point] = []
                var current = Point(0, 0)
                func add(_ p: Point) { ring.append(layer.map(p).applying(toView)) }
                for e in rec.elements {
                    switch e {
                    case .move(let p):
                        if ring.count > 1 { ringsOfLayer.append(ring) }
                        ring = []; add(p); current = p
                    case .line(let p): add(p); current = p
                    case .quad(let c, let p):
                        for k in 1...32 { add(BezierDistance.evaluate([current, c, p], Double(k) / 32)) }
                        current = p
                    case .cubic(let c1, let c2, let p):
                        for k in 1...32 { add(BezierDistance.evaluate([current, c1, c2, p], Double(k) / 32)) }
                        current = p
                    case .close: break
                    }
                }
                if ring.count > 1 { ringsOfLayer.append(ring) }
                layerRings.append(ringsOfLayer)
            }
            self.layers = layerRings
            rings = layerRings.flatMap { $0 }
            if let clip {
                self.clip = [Point(clip.minX, clip.minY), Point(clip.maxX, clip.minY), Point(clip.maxX, clip.maxY),
                             Point(clip.minX, clip.maxY)].map { $0.applying(toView) }
            }
            for r in rings { for p in r { bounds.expand(toInclude: p) } }
        }
        var layers: [[[Point]]] = []

        static func winding(_ p: Point, _ ring: [Point]) -> Int {
            var w = 0
            for i in ring.indices { w += Winding.crossing(p, ring[i], ring[(i + 1) % ring.count]) }
            return w
        }
        func inside(_ p: Point) -> Bool {
            if let clip, Self.winding(p, clip) == 0 { return false }
            return layers.contains { layer in layer.reduce(0) { $0 + Self.winding(p, $1) } != 0 }
        }
        /// Distance to the nearest edge of any layer or of the clip.
        func margin(_ p: Point) -> Double {
            var m = Double.infinity
            for r in rings + (clip.map { [$0] } ?? []) {
                for i in r.indices { m = min(m, Segment.distance(p, r[i], r[(i + 1) % r.count])) }
            }
            return m
        }
    }

    @Test(arguments: colorCases)
    func colorGlyphsHitTheUnionOfTheirLayers(_ c: ColorCase) throws {
        let font = try Font(path: Self.colorTestPath)
        let glyph = try #require(font.glyph(for: Unicode.Scalar(c.scalar)!))
        #expect(try font.ink(of: glyph) == c.ink)
        let placement = GlyphPlacement(font: font, glyph: glyph, size: 48, origin: Point(20, 70), style: c.style)
        #expect(try placement.ink == c.ink)
        let layers = c.layers.map { (GlyphID(Self.glyphIDs[$0.glyph]!), $0.map) }
        let oracle = try LayerOracle(font: font, layers: layers, clip: c.clip, placement: placement)
        var builder = HitIndex.Builder()
        try builder.add(placement, cache: FontShapeCache())
        let index = builder.build()

        let inkBox = oracle.bounds
        var insideBox = Rect.empty
        var checked = 0, inside = 0
        var wrong: [String] = []
        let step = 0.4137
        var y = inkBox.minY - 2
        while y <= inkBox.maxY + 2 {
            var x = inkBox.minX - 2
            while x <= inkBox.maxX + 2 {
                let p = Point(x, y)
                x += step
                guard oracle.margin(p) >= 0.05 else { continue }
                let want = oracle.inside(p)
                let got = index.hit(at: p)
                checked += 1
                if want { inside += 1; insideBox.expand(toInclude: p) }
                if (got != nil) != want { wrong.append("\(p): want \(want)") }
                if let got, got.distance >= 0 { wrong.append("\(p): inside with distance \(got.distance)") }
            }
            y += step
        }
        #expect(wrong.isEmpty, "\(wrong.count) of \(checked): \(wrong.prefix(5))")
        #expect(inside > 500 && checked - inside > 500, "\(inside) inside of \(checked)")
        // viewBounds holds the ink: every point the oracle finds inside.
        let vb = try placement.viewBounds()
        #expect(vb.minX <= insideBox.minX && vb.minY <= insideBox.minY && vb.maxX >= insideBox.maxX && vb.maxY >= insideBox.maxY,
                "\(vb) vs \(insideBox)")
    }

    /// The clip box cuts ink away: at 1 view px per font unit, a point of `O`'s right stroke (beyond the
    /// clip's x = 1100) misses though `O` alone holds it, and one of its left stroke (inside the clip) hits.
    @Test func theClipBoxCutsAwayInk() throws {
        let font = try Font(path: Self.colorTestPath)
        let clipped = try #require(font.glyph(for: "\u{E017}"))
        let placement = GlyphPlacement(font: font, glyph: clipped, size: 2048, origin: Point(0, 2048))
        let o = try LayerOracle(font: font, layers: [(GlyphID(3), Self.identity)], clip: nil, placement: placement)
        var builder = HitIndex.Builder()
        try builder.add(placement, cache: FontShapeCache())
        let index = builder.build()
        let y = 2048 - 729.0                                  // mid-height of O, in view px
        let right = try #require(stride(from: 1300.0, to: 1100, by: -1).first { o.inside(Point($0, y)) && o.margin(Point($0, y)) > 5 })
        let left = try #require(stride(from: 160.0, to: 400, by: 1).first { o.inside(Point($0, y)) && o.margin(Point($0, y)) > 5 })
        #expect(index.hit(at: Point(right, y)) == nil)
        #expect(index.hit(at: Point(left, y)) != nil)
        // viewBounds: within the clip box, give or take its flattening bound (upem / 1024 units).
        let vb = try placement.viewBounds()
        #expect(vb.maxX <= 1100 + 2 && vb.minX >= 150 - 2 && vb.minY >= 2048 - 1250 - 2, "\(vb)")
    }

    // MARK: SVG glyphs

    @Test func anSVGGlyphWithoutAnOutlineIsItsBox() throws {
        let font = try Font(path: Self.colorTestPath)
        let g = try #require(font.glyph(for: "\u{E0F0}"))
        #expect(try font.ink(of: g) == .box)
        // hhea ascender and descender, read from the file (bytes 4 and 6 of the table), and the generator's
        // advance.
        let bytes = try Fonts.bytes(Self.colorTestPath)
        let hhea = try #require(tableRange("hhea", in: bytes)).lowerBound
        func i16(_ i: Int) -> Double { Double(Int16(bitPattern: UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))) }
        let ascender = i16(hhea + 4), descender = i16(hhea + 6), advance = 1400.0
        let size = 64.0, k = size / 2048, origin = Point(10, 80)
        let p = GlyphPlacement(font: font, glyph: g, size: size, origin: origin)
        var builder = HitIndex.Builder()
        try builder.add(p, cache: FontShapeCache())
        let index = builder.build()
        let box = Rect(minX: origin.x, minY: origin.y - ascender * k, maxX: origin.x + advance * k, maxY: origin.y - descender * k)
        #expect(try p.viewBounds() == box)
        var rng = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let q = Point(rng.range(box.minX - 5, box.maxX + 5), rng.range(box.minY - 5, box.maxY + 5))
            let inside = box.contains(q)
            let edge = min(abs(q.x - box.minX), abs(q.x - box.maxX), abs(q.y - box.minY), abs(q.y - box.maxY))
            guard edge > 1e-6 else { continue }
            let hit = index.hit(at: q)
            #expect((hit != nil) == inside, "\(q)")
            if let hit, inside { #expect(isClose(-hit.distance, edge, within: 1e-4), "\(q): \(hit.distance) vs \(edge)") }
        }
    }

    @Test func inkKindsFollowTheRendererOrder() throws {
        let font = try Font(path: Self.colorTestPath)
        #expect(try font.ink(of: GlyphID(8)) == .outline)               // filledbox: a plain outline
        #expect(try font.ink(of: GlyphID(1)) == .outline)               // space: no ink at all
        // colr0.Ox has an outline of its own (a filled box) but COLR layers win, as in a color renderer.
        #expect(try font.outline(glyph: GlyphID(12)).points.count > 0)
        #expect(try font.ink(of: GlyphID(12)) == .colorLayers)
        #expect(throws: FontError.glyphOutOfRange(glyph: GlyphID(23), glyphCount: 23)) { try font.ink(of: GlyphID(23)) }
        let sans = try Font(path: Fonts.dejaVuSans)
        #expect(try sans.ink(of: try #require(sans.glyph(for: "a"))) == .outline)
        let emoji = try Font(path: Self.emojiPath)
        #expect(try emoji.ink(of: try #require(emoji.glyph(for: "\u{1F600}"))) == .bitmap)
    }

    // MARK: Bitmap glyphs

    /// A bitmap-only font opens with its head and hhea metrics and reports its strike.
    @Test func aBitmapOnlyFontOpensWithItsSfntMetrics() throws {
        let emoji = try Font(path: Self.emojiPath)
        let bytes = try Fonts.bytes(Self.emojiPath)
        func u16(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
        let head = try #require(tableRange("head", in: bytes)).lowerBound
        let hhea = try #require(tableRange("hhea", in: bytes)).lowerBound
        #expect(emoji.unitsPerEm == u16(head + 18))
        #expect(emoji.ascender == Int(Int16(bitPattern: UInt16(u16(hhea + 4)))))
        #expect(emoji.descender == Int(Int16(bitPattern: UInt16(u16(hhea + 6)))))
        #expect(!emoji.isScalable)
        #expect(emoji.bitmapStrikes == [BitmapStrike(xPixelsPerEm: 109, yPixelsPerEm: 109)])
        #expect(emoji.strike(forViewPxPerEm: 16) == 0 && emoji.strike(forViewPxPerEm: 500) == 0)
        let g = try #require(emoji.glyph(for: "\u{1F600}"))
        #expect(throws: FontError.noOutline(glyph: g)) { try emoji.outline(glyph: g) }
    }

    /// FreeType's FT_LOAD_COLOR bitmap of one glyph at the font's only strike, read directly: the oracle.
    struct StrikeBitmap {
        var width = 0, height = 0, left = 0, top = 0
        var ppem = 0.0
        var alpha: [UInt8] = []

        init(path: String, glyph: UInt32) throws {
            var library: FT_Library?
            try #require(FT_Init_FreeType(&library) == 0)
            defer { FT_Done_FreeType(library) }
            var face: FT_Face?
            try #require(FT_New_Face(library, path, 0, &face) == 0)
            let f = try #require(face)
            try #require(f.pointee.num_fixed_sizes == 1)
            try #require(FT_Select_Size(f, 0) == 0)
            try #require(FT_Load_Glyph(f, glyph, FT_Int32(FT_LOAD_COLOR)) == 0)
            let slot = try #require(f.pointee.glyph)
            let b = slot.pointee.bitmap
            try #require(b.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue))
            width = Int(b.width); height = Int(b.rows)
            left = Int(slot.pointee.bitmap_left); top = Int(slot.pointee.bitmap_top)
            ppem = Double(f.pointee.available_sizes[0].y_ppem) / 64
            for row in 0..<height { for col in 0..<width { alpha.append(b.buffer[row * Int(b.pitch) + 4 * col + 3]) } }
        }

        func isInk(_ col: Int, _ row: Int, _ threshold: UInt8) -> Bool {
            col >= 0 && row >= 0 && col < width && row < height && alpha[row * width + col] >= threshold
        }
    }

    struct BitmapCase: CustomTestStringConvertible, Sendable {
        var scalar: UInt32
        var size: Double
        var threshold = 0.5
        var testDescription: String { "U+\(String(scalar, radix: 16, uppercase: true)) at \(size) px, alpha ≥ \(threshold)" }
    }

    @Test(arguments: [BitmapCase(scalar: 0x1F600, size: 32), BitmapCase(scalar: 0x1F600, size: 128),
                      BitmapCase(scalar: 0x1F355, size: 32), BitmapCase(scalar: 0x1F355, size: 128),
                      BitmapCase(scalar: 0x1F44D, size: 128), BitmapCase(scalar: 0x1F355, size: 32, threshold: 0.9)])
    func bitmapGlyphsHitWhereTheStrikesAlphaSays(_ c: BitmapCase) throws {
        let emoji = try Font(path: Self.emojiPath)
        let g = try #require(emoji.glyph(for: Unicode.Scalar(c.scalar)!))
        let strike = try StrikeBitmap(path: Self.emojiPath, glyph: g.rawValue)
        let threshold = UInt8((c.threshold * 255).rounded(.up))
        let origin = Point(7.25, 150.5)
        let placement = GlyphPlacement(font: emoji, glyph: g, size: c.size, origin: origin,
                                       style: GlyphStyle(alphaThreshold: c.threshold))
        #expect(try placement.ink == .bitmap)
        var builder = HitIndex.Builder()
        try builder.add(placement, cache: FontShapeCache())
        let index = builder.build()
        // View px → strike px (x right, y down from the bitmap's top left): u = (x − ox)·upem/size font
        // units, then × ppem/upem strike px, less `left`; rows count down from `top`.
        let s = strike.ppem / c.size
        func strikePoint(_ p: Point) -> Point { Point((p.x - origin.x) * s - Double(strike.left), Double(strike.top) + (p.y - origin.y) * s) }
        let pixelInView = 1 / s
        var checked = 0, inside = 0, wrong: [String] = []
        var py = origin.y - (Double(strike.top) + 2) * pixelInView
        while py <= origin.y + (Double(strike.height - strike.top) + 2) * pixelInView {
            var px = origin.x + (Double(strike.left) - 2) * pixelInView
            while px <= origin.x + (Double(strike.left + strike.width) + 2) * pixelInView {
                let p = Point(px, py)
                px += 0.37 * pixelInView
                let q = strikePoint(p)
                let col = Int(q.x.rounded(.down)), row = Int(q.y.rounded(.down))
                let ink = strike.isInk(col, row, threshold)
                // Farther than half a strike pixel from every pixel of the other kind: from the staircase.
                var near = false
                for dr in -1...1 { for dc in -1...1 where strike.isInk(col + dc, row + dr, threshold) != ink {
                    let dx = max(Double(col + dc) - q.x, 0, q.x - Double(col + dc + 1))
                    let dy = max(Double(row + dr) - q.y, 0, q.y - Double(row + dr + 1))
                    if (dx * dx + dy * dy).squareRoot() <= 0.5 { near = true }
                } }
                if near { continue }
                checked += 1
                if ink { inside += 1 }
                let hit = index.hit(at: p)
                if (hit != nil) != ink { wrong.append("\(p) (strike px \(col), \(row)): want \(ink)") }
                if let hit, hit.distance > -0.5 * pixelInView + 1e-4 { wrong.append("\(p): distance \(hit.distance)") }
            }
            py += 0.37 * pixelInView
        }
        #expect(wrong.isEmpty, "\(wrong.count) of \(checked): \(wrong.prefix(5))")
        #expect(inside > 1000 && checked - inside > 1000, "\(inside) inside of \(checked)")
        // viewBounds holds every ink pixel.
        let vb = try placement.viewBounds()
        for row in 0..<strike.height { for col in 0..<strike.width where strike.isInk(col, row, threshold) {
            let center = Point(origin.x + (Double(strike.left + col) + 0.5) * pixelInView,
                               origin.y + (Double(row - strike.top) + 0.5) * pixelInView)
            if !vb.contains(center) { wrong.append("pixel \(col), \(row) outside viewBounds") }
        } }
        #expect(wrong.isEmpty, "\(wrong.prefix(3))")
    }

    /// Emboldening and hinting do not apply to bitmaps: the same shape; oblique does.
    @Test func stylesOfBitmapGlyphs() throws {
        let emoji = try Font(path: Self.emojiPath)
        let g = try #require(emoji.glyph(for: "\u{1F600}"))
        let cache = FontShapeCache()
        let plain = try cache.shape(for: GlyphPlacement(font: emoji, glyph: g, size: 32))
        let bold = try cache.shape(for: GlyphPlacement(font: emoji, glyph: g, size: 32,
                                                       style: GlyphStyle(embolden: .freeType, hinting: .full)))
        #expect(plain === bold)
        let finer = try cache.shape(for: GlyphPlacement(font: emoji, glyph: g, size: 32, style: GlyphStyle(alphaThreshold: 0.9)))
        #expect(plain !== finer && finer.edgeCount > 0)
        let slanted = GlyphPlacement(font: emoji, glyph: g, size: 32, style: GlyphStyle(oblique: 0.5))
        #expect(slanted.fontUnitsToView.c != 0)
        #expect(throws: FontError.self) {
            try GlyphPlacement(font: emoji, glyph: g, size: 32, style: GlyphStyle(alphaThreshold: 0)).validate()
        }
    }

    // MARK: Hostile color data

    /// A tiny TrueType font: glyph 0 and 1 empty, glyph 2 a square, glyph 3 empty, with `COLR` and a one-color
    /// `CPAL` (`ColorFont`).
    static func colorFont(colr: [UInt8]) throws -> Font {
        let square = [TinyFont.P(x: 0, y: 0), TinyFont.P(x: 0, y: 500), TinyFont.P(x: 500, y: 500), TinyFont.P(x: 500, y: 0)]
        return try Font(bytes: ColorFont.colrFont([.empty, .empty, .simple([square]), .empty], colr: colr))
    }

    static func shapeError(_ font: Font) -> FontError? {
        do { _ = try FontShapeCache().shape(font: font, glyph: GlyphID(1), maxScale: 0.05); return nil } catch { return error }
    }

    @Test(.timeLimit(.minutes(10))) func aWellFormedPaintGraphOfTheTinyFontWorks() throws {
        // Glyph 1: PaintTranslate (10, 0) of PaintGlyph 2 (the square), filled solid.
        let font = try Self.colorFont(colr: ColorFont.colrV1(base: [(1, 0)], layers: [],
                                                        paints: [ColorFont.translate(1), ColorFont.paintGlyph(2, glyph: 2), ColorFont.solid]))
        #expect(try font.ink(of: GlyphID(1)) == .colorPaint)
        let region = try font.inkRegion(of: GlyphID(1), viewPxPerEm: 50, tolerance: 0.1)
        #expect(region.polygon.bounds == Rect(minX: 10, minY: 0, maxX: 510, maxY: 500))
        #expect(Self.shapeError(font) == nil)
    }

    @Test(.timeLimit(.minutes(10))) func paintCyclesAreTypedErrors() throws {
        // A PaintColrLayers whose only layer is itself.
        let selfLayer = try Self.colorFont(colr: ColorFont.colrV1(base: [(1, 0)], layers: [0], paints: [ColorFont.layers(1, first: 0)]))
        #expect(Self.shapeError(selfLayer) == .colorPaintCycle(glyph: GlyphID(1)))
        // A glyph whose paint is PaintColrGlyph of itself, and two glyphs that refer to each other.
        let selfGlyph = try Self.colorFont(colr: ColorFont.colrV1(base: [(1, 0)], layers: [], paints: [ColorFont.colrGlyph(1)]))
        #expect(Self.shapeError(selfGlyph) == .colorPaintCycle(glyph: GlyphID(1)))
        let mutual = try Self.colorFont(colr: ColorFont.colrV1(base: [(1, 0), (3, 1)], layers: [],
                                                          paints: [ColorFont.colrGlyph(3), ColorFont.colrGlyph(1)]))
        #expect(Self.shapeError(mutual) == .colorPaintCycle(glyph: GlyphID(1)))
        // A cycle below a PaintGlyph (in what fills it) is found too. (Offset24s point forward only: cycles
        // go through the layer list or PaintColrGlyph.)
        let underGlyph = try Self.colorFont(colr: ColorFont.colrV1(base: [(1, 0)], layers: [],
                                                              paints: [ColorFont.paintGlyph(1, glyph: 2), ColorFont.colrGlyph(1)]))
        #expect(Self.shapeError(underGlyph) == .colorPaintCycle(glyph: GlyphID(1)))
        // The layout, index and view bounds paths give the same error.
        #expect(throws: FontError.colorPaintCycle(glyph: GlyphID(1))) {
            try GlyphPlacement(font: selfLayer, glyph: GlyphID(1), size: 16).viewBounds()
        }
    }

    @Test(.timeLimit(.minutes(10))) func runawayPaintGraphsAreTypedErrors() throws {
        // 255 × 255 layers, each a PaintGlyph: more layers than allowed (no cycle: level 1 → level 0 → glyph).
        let wide = try Self.colorFont(colr: ColorFont.colrV1(base: [(1, 0)], layers: Array(repeating: 1, count: 255) + Array(repeating: 2, count: 255),
                                                        paints: [ColorFont.layers(255, first: 0), ColorFont.layers(255, first: 255),
                                                                 ColorFont.paintGlyph(3, glyph: 2), ColorFont.solid]))
        #expect(Self.shapeError(wide) == .colorGlyphTooComplex(glyph: GlyphID(1), what: "layers", limit: Font.maximumColorLayers))
        // 255³ paint visits without a single glyph: more paints than allowed, found long before 16 million.
        let deep = try Self.colorFont(colr: ColorFont.colrV1(base: [(1, 0)],
                                                        layers: Array(repeating: 1, count: 255) + Array(repeating: 2, count: 255)
                                                            + Array(repeating: 3, count: 255),
                                                        paints: [ColorFont.layers(255, first: 0), ColorFont.layers(255, first: 255),
                                                                 ColorFont.layers(255, first: 510), ColorFont.translate(4), ColorFont.colrGlyph(9)]))
        #expect(Self.shapeError(deep) == .colorGlyphTooComplex(glyph: GlyphID(1), what: "paint tables visited",
                                                               limit: Font.maximumColorPaints))
        // 100 nested PaintTranslates: deeper than allowed.
        let chain = (0..<100).map { ColorFont.translate($0 + 1) } + [ColorFont.paintGlyph(101, glyph: 2), ColorFont.solid]
        let nested = try Self.colorFont(colr: ColorFont.colrV1(base: [(1, 0)], layers: [], paints: chain))
        #expect(Self.shapeError(nested) == .colorGlyphTooComplex(glyph: GlyphID(1), what: "levels of nested paints",
                                                                 limit: Font.maximumColorPaintDepth))
        // A child offset past the end of the table, and an unknown format.
        var broken = ColorFont.colrV1(base: [(1, 0)], layers: [], paints: [ColorFont.paintGlyph(1, glyph: 2), ColorFont.solid])
        broken[broken.count - 10] = 0x7F                      // PaintGlyph's offset: far past the table
        let far = try Self.colorFont(colr: broken)
        guard case .brokenColorGlyph(GlyphID(1), _)? = Self.shapeError(far) else {
            Issue.record("\(String(describing: Self.shapeError(far)))"); return
        }
        let unknown = try Self.colorFont(colr: ColorFont.colrV1(base: [(1, 0)], layers: [], paints: [[.bytes([99, 0, 0, 0])]]))
        guard case .brokenColorGlyph(GlyphID(1), let reason)? = Self.shapeError(unknown) else {
            Issue.record("\(String(describing: Self.shapeError(unknown)))"); return
        }
        #expect(reason.contains("unknown format 99"))
    }

    @Test(.timeLimit(.minutes(10))) func tooManyV0LayersAreATypedError() throws {
        let n = 20_000
        var colr: [UInt8] = []
        colr.u16(0); colr.u16(1); colr.u32(14); colr.u32(20); colr.u16(n)   // header: one base glyph, n layers
        colr.u16(1); colr.u16(0); colr.u16(n)                                // glyph 1: layers 0 ..< n
        for _ in 0..<n { colr.u16(2); colr.u16(0) }
        let font = try Self.colorFont(colr: colr)
        #expect(try font.ink(of: GlyphID(1)) == .colorLayers)
        #expect(Self.shapeError(font) == .colorGlyphTooComplex(glyph: GlyphID(1), what: "layers", limit: Font.maximumColorLayers))
    }
}

extension ColorGlyphTests {
    /// A PaintGlyph naming a glyph the font does not have, and a fill outside any glyph (it covers the
    /// glyph's box: x 0 … advance 600, y descender −200 … ascender 800 of the tiny font).
    @Test(.timeLimit(.minutes(10))) func layerGlyphsOutOfRangeAndBareFills() throws {
        let missing = try Self.colorFont(colr: ColorFont.colrV1(base: [(1, 0)], layers: [], paints: [ColorFont.paintGlyph(1, glyph: 200), ColorFont.solid]))
        guard case .brokenColorGlyph(GlyphID(1), let reason)? = Self.shapeError(missing) else {
            Issue.record("\(String(describing: Self.shapeError(missing)))"); return
        }
        #expect(reason.contains("glyph 200"))
        let bare = try Self.colorFont(colr: ColorFont.colrV1(base: [(1, 0)], layers: [], paints: [ColorFont.solid]))
        let region = try bare.inkRegion(of: GlyphID(1), viewPxPerEm: 16, tolerance: 0.5)
        #expect(region.polygon.bounds == Rect(minX: 0, minY: -200, maxX: 600, maxY: 800))
    }
}
