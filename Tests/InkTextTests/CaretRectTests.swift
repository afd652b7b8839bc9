import Foundation
import Testing
import InkGeometry
import InkFreeType
import InkHit
import InkTestSupport
@testable import InkText

/// `caretRect(at:affinity:)`, `characterBoxes()`' view bounds, `link(at:)` under a transform, and the shape
/// and HarfBuzz sharing behind layouts. Horizontal positions come from `hb-shape` (a separate process: the
/// HBShape oracle), line metrics from the font's `hhea` table read by hand, transforms are applied by hand.
struct CaretRectTests {
    static let size = 40.0
    static let origin = Point(10, 20)

    /// Caret x for every offset of a left-to-right text: the origin plus hb-shape's advances (font units ×
    /// size / upem, kerning included) of the clusters before the offset.
    static func hbCaretXs(_ text: String, font: String, upem: Double, rtl: Bool = false) throws -> [Double] {
        let glyphs = try HBShape.shape(text, font: font, direction: rtl ? "rtl" : "ltr")
        let u16 = HBShape.utf16Offsets(text)
        let k = size / upem
        return (0...text.utf16.count).map { offset in
            let before = glyphs.filter { u16[$0.cl] < offset }.reduce(0) { $0 + $1.ax }
            return Double(before) * k
        }
    }

    /// (ascender, descender, lineGap) of the font's `hhea` table, font units, read from the file.
    static func hhea(_ path: String) throws -> (Int, Int, Int) {
        let b = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u16(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
        func i16(_ i: Int) -> Int { Int(Int16(bitPattern: UInt16(u16(i)))) }
        func u32(_ i: Int) -> Int { u16(i) << 16 | u16(i + 2) }
        for t in 0..<u16(4) where String(decoding: b[(12 + 16 * t)..<(16 + 16 * t)], as: UTF8.self) == "hhea" {
            let o = u32(12 + 16 * t + 8)
            return (i16(o + 4), i16(o + 6), i16(o + 8))
        }
        throw OracleError("no hhea table in \(path)")
    }

    @Test func ltrCaretXIsTheSumOfAdvancesBeforeIt() throws {
        let text = "Tap AVATAR, Wave."          // kerning pairs (AV, VA, TA, Wa, …) move the carets
        let l = try layout(text, size: Self.size, origin: Self.origin)
        try #require(l.lines.count == 1)
        let want = try Self.hbCaretXs(text, font: Fonts.sansPath, upem: Double(try Fonts.sans.unitsPerEm))
        #expect(want.count == text.utf16.count + 1)
        for offset in 0...text.utf16.count {
            for affinity in [CaretPosition.Affinity.downstream, .upstream] {
                let c = try #require(l.caretRect(at: offset, affinity: affinity))
                #expect(isClose(c.x, (Self.origin.x + want[offset]), within: 1e-6), "offset \(offset) \(affinity): \(c.x)")
                #expect(c.utf16 == offset && c.line == 0)
            }
        }
        // Kerning is live here (not every caret is at a plain advance sum): AV kerns in DejaVu Sans.
        let plain = try HBShape.shape(text, font: Fonts.sansPath, features: "-kern")
        #expect(plain.map(\.ax) != (try HBShape.shape(text, font: Fonts.sansPath)).map(\.ax))
    }

    @Test func outsideTheTextThereIsNoCaret() throws {
        let l = try layout("abc", size: Self.size, origin: Self.origin)
        for bad in [-1, 4, 5, Int.min, Int.max] {
            #expect(l.caretRect(at: bad) == nil && l.caretRect(at: bad, affinity: .upstream) == nil, "offset \(bad)")
        }
        for ok in 0...3 { #expect(l.caretRect(at: ok) != nil) }
    }

    /// "alpha beta" wrapped after "alpha ": offset 6 downstream is the start of line 1 (the origin's x),
    /// upstream the end of line 0 (after the space: "alpha " by hb-shape). Tops and bottoms follow hhea.
    @Test func wrapPointHasTwoPositions() throws {
        let text = "alpha beta"
        let upem = Double(try Fonts.sans.unitsPerEm)
        let xs = try Self.hbCaretXs(text, font: Fonts.sansPath, upem: upem)
        // Wide enough for "alpha ", too narrow for the whole text.
        let width = (xs[6] + xs[10]) / 2
        let l = try layout(text, size: Self.size, width: width, origin: Self.origin)
        try #require(l.lines.count == 2 && l.lines[1].utf16.lowerBound == 6, "lines \(l.lines.map(\.utf16))")
        let down = try #require(l.caretRect(at: 6, affinity: .downstream))
        let up = try #require(l.caretRect(at: 6, affinity: .upstream))
        #expect(down.line == 1 && up.line == 0)
        #expect(isClose(down.x, Self.origin.x, within: 1e-9))
        #expect(isClose(up.x, (Self.origin.x + xs[6]), within: 1e-6), "\(up.x) vs \(Self.origin.x + xs[6])")
        // Line 1's carets: x from the line start, by hb-shape's advances of "beta" (shaped in context).
        for o in 7...10 {
            let c = try #require(l.caretRect(at: o))
            #expect(c.line == 1 && isClose(c.x, (Self.origin.x + xs[o] - xs[6]), within: 1e-6), "offset \(o)")
        }
        // Vertically: line 0's content from the origin's y to the descent below the first baseline
        // (origin.y + ascender); line 1 one line pitch (ascender − descender + lineGap) lower.
        let (asc, desc, gap) = try Self.hhea(Fonts.sansPath)
        let k = Self.size / upem
        let pitch = Double(asc - desc + gap) * k
        #expect(isClose(up.top, Self.origin.y, within: 1e-9))
        #expect(isClose(up.bottom, (Self.origin.y + Double(asc - desc) * k), within: 1e-9))
        #expect(isClose(down.top, (Self.origin.y + pitch), within: 1e-9))
        #expect(isClose(down.bottom, (Self.origin.y + pitch + Double(asc - desc) * k), within: 1e-9))
        // Offset 0 and the end have one position each.
        #expect(l.caretRect(at: 0, affinity: .upstream) == l.caretRect(at: 0, affinity: .downstream))
        #expect(l.caretRect(at: 10, affinity: .upstream) == l.caretRect(at: 10, affinity: .downstream))
    }

    /// A right-to-left word: its start (offset 0) is at its right end, its end at its left end, and each
    /// offset in between is hb-shape's advances of the letters before it to the left of the right end.
    @Test func rtlWordStartsAtItsRightEnd() throws {
        let word = "שלום"
        let upem = Double(try Fonts.sans.unitsPerEm)
        let xs = try Self.hbCaretXs(word, font: Fonts.sansPath, upem: upem, rtl: true)
        let width = xs[word.utf16.count]
        #expect(width > 0)
        for direction in [ParagraphStyle.Direction.auto, .rightToLeft] {
            let l = try layout(word, size: Self.size, direction: direction, origin: Self.origin)
            let right = Self.origin.x + width
            let start = try #require(l.caretRect(at: 0))
            let end = try #require(l.caretRect(at: 4))
            #expect(isClose(start.x, right, within: 1e-6), "\(direction): start at \(start.x), right end \(right)")
            #expect(isClose(end.x, Self.origin.x, within: 1e-6), "\(direction): end at \(end.x)")
            for o in 1..<4 {
                let c = try #require(l.caretRect(at: o))
                #expect(isClose(c.x, (right - xs[o]), within: 1e-6), "\(direction) offset \(o)")
            }
        }
    }

    /// Under a quarter turn x' = −y + 200, y' = x, the caret's view ends are its layout ends mapped by hand;
    /// its layout values equal those of the untransformed layout.
    @Test func viewEndsAreTheLayoutEndsMapped() throws {
        let text = "Turn me"
        let quarter = Transform(a: 0, b: 1, c: -1, d: 0, tx: 200, ty: 0)
        let plain = try layout(text, size: Self.size, origin: Self.origin)
        let turned = try layout(text, size: Self.size, origin: Self.origin, transform: quarter)
        for o in 0...text.utf16.count {
            let p = try #require(plain.caretRect(at: o))
            let t = try #require(turned.caretRect(at: o))
            #expect(t.x == p.x && t.top == p.top && t.bottom == p.bottom && t.line == p.line)
            #expect(p.viewTop == Point(p.x, p.top) && p.viewBottom == Point(p.x, p.bottom))
            #expect(t.viewTop == Point(200 - p.top, p.x), "offset \(o)")
            #expect(t.viewBottom == Point(200 - p.bottom, p.x), "offset \(o)")
        }
    }

    /// `viewBounds` of a character box: under scale (2, 3) and a shift (5, −7) exactly the box mapped; under
    /// a rotation the bounding box of its four corners mapped (by hand).
    @Test func characterViewBoundsAreTheBoxesMapped() throws {
        let text = "Box it, ok"
        let plain = try layout(text, size: Self.size, origin: Self.origin)
        let scaled = try layout(text, size: Self.size, origin: Self.origin, transform: Transform(a: 2, b: 0, c: 0, d: 3, tx: 5, ty: -7))
        let angle = 0.5
        let (s, c) = (sin(angle), cos(angle))
        let rotation = Transform(a: c, b: s, c: -s, d: c, tx: 40, ty: 9)
        let rotated = try layout(text, size: Self.size, origin: Self.origin, transform: rotation)
        let boxes = plain.characterBoxes()
        #expect(boxes.count == text.count)
        #expect(scaled.characterBoxes().map(\.box) == boxes.map(\.box))
        #expect(rotated.characterBoxes().map(\.box) == boxes.map(\.box))
        for (b, sb) in zip(boxes, scaled.characterBoxes()) {
            #expect(b.viewBounds == b.box)
            let r = b.box
            let want = Rect(minX: 2 * r.minX + 5, minY: 3 * r.minY - 7, maxX: 2 * r.maxX + 5, maxY: 3 * r.maxY - 7)
            #expect(sb.viewBounds == want, "\(b.utf16)")
        }
        for (b, rb) in zip(boxes, rotated.characterBoxes()) {
            let r = b.box
            let corners = [(r.minX, r.minY), (r.maxX, r.minY), (r.maxX, r.maxY), (r.minX, r.maxY)].map {
                (c * $0.0 - s * $0.1 + 40, s * $0.0 + c * $0.1 + 9)
            }
            let want = Rect(minX: corners.map(\.0).min()!, minY: corners.map(\.1).min()!,
                            maxX: corners.map(\.0).max()!, maxY: corners.map(\.1).max()!)
            for (a, w) in [(rb.viewBounds.minX, want.minX), (rb.viewBounds.minY, want.minY),
                           (rb.viewBounds.maxX, want.maxX), (rb.viewBounds.maxY, want.maxY)] {
                #expect(isClose(a, w, within: 1e-9), "\(b.utf16): \(rb.viewBounds) vs \(want)")
            }
            // Rotated, the bounds are strictly larger than the box (both sides are positive).
            #expect(rb.viewBounds.width > r.width * c && rb.viewBounds.height > r.height * c)
        }
    }

    /// `link(at:)` in view space: a point on the link's ink (FreeType's coverage, mapped by a scale of 1.5
    /// and a shift) answers a `LinkHit` naming the link as given and the character under the point; ink
    /// outside the link answers nil.
    @Test func linkAtUnderATransform() throws {
        let text = "Go to docs now"
        let link = TextLink(range: 6..<10, tag: "docs")
        let t = Transform(a: 1.5, b: 0, c: 0, d: 1.5, tx: 30, ty: 12)
        // 64 px: every glyph has pixels FreeType covers fully with their neighbours.
        let plain = try layout(text, size: 64, origin: Self.origin, links: [link])
        let viewed = try layout(text, size: 64, origin: Self.origin, links: [link], transform: t)
        var linked = 0, unlinked = 0
        for gi in plain.glyphs.indices {
            guard let p = try inkPoints(plain, glyph: gi).first else { continue }
            let v = Point(1.5 * p.x + 30, 1.5 * p.y + 12)
            let r = plain.glyphs[gi].utf16
            if link.range.contains(r.lowerBound) {
                let found = try #require(viewed.link(at: v), "glyph \(gi) \(r)")
                #expect(found.link == link)
                #expect(found.hit.placement == gi && found.hit.utf16 == r && found.hit.kind == .ink && found.hit.link == "docs")
                linked += 1
            } else {
                #expect(viewed.link(at: v) == nil, "glyph \(gi) \(r)")
                #expect(viewed.hit(at: v)?.placement == gi)
                unlinked += 1
            }
        }
        #expect(linked == 4 && unlinked == 7, "linked \(linked), unlinked \(unlinked)")   // d o c s; G o t o n o w
    }

    // MARK: Sharing

    /// Laid out with the default arguments, a text's glyph shapes go to `FontShapeCache.shared`, and laying
    /// it out again adds none: the shared cache's count does not change. A freshly loaded font has its own
    /// id, so no other test holds these keys. (Other tests may use `.shared` at the same time: the count is
    /// compared over a few attempts, each of which must then see no change.)
    @Test func layoutsShareTheProcessWideShapeCache() throws {
        let font = try TestFonts.load(TestFonts.mono)
        let style = TextStyle(fonts: [font], size: 27)
        let text = "Quiz: jump over 0O1l"
        let first = try TextLayout(text: text, style: style)
        var inked = 0
        for gi in first.glyphs.indices {
            let p = first.placement(of: gi)
            guard try !font.controlBox(glyph: p.glyph).isEmpty else { continue }
            inked += 1
            let s = FontShapeCache.shared.cachedShape(for: p)
            #expect(s != nil && s!.edgeCount > 0, "glyph \(p.glyph) is not in .shared")
        }
        #expect(inked >= 15)
        var unchanged = false
        for _ in 0..<5 where !unchanged {
            let before = FontShapeCache.shared.count
            let again = try TextLayout(text: text, style: style)
            unchanged = FontShapeCache.shared.count == before
            #expect(again.glyphs == first.glyphs)
        }
        #expect(unchanged, "laying the text out again added shapes to FontShapeCache.shared")
    }

    /// One HarfBuzz font per loaded `Font`, shared by every layout, reading the font's own bytes in place
    /// (no copy): its blob's data is the font's file buffer, for a font from a path and one from bytes.
    @Test func harfBuzzFontIsTheFontsOwnAndCopiesNothing() throws {
        let fromPath = try TestFonts.load(TestFonts.sans)
        let fromBytes = try Font(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestFonts.serif))))
        for font in [fromPath, fromBytes] {
            let hb = HarfBuzzFont.of(font)
            #expect(HarfBuzzFont.of(font) === hb)
            let (address, count) = hb.blobData
            font.withUnsafeFileBytes { bytes in
                #expect(address == UnsafeRawPointer(bytes.baseAddress))
                #expect(count == bytes.count && count == font.byteCount)
            }
            // Layouts use that one: after two layouts it is still the same object.
            _ = try TextLayout(text: "ab", style: TextStyle(fonts: [font], size: 12), cache: FontShapeCache())
            _ = try TextLayout(text: "ab", style: TextStyle(fonts: [font], size: 30), cache: FontShapeCache())
            #expect(HarfBuzzFont.of(font) === hb)
        }
        // Another load of the same file is another font with its own HarfBuzz font, over the same bytes (one
        // copy per content).
        let again = try TestFonts.load(TestFonts.sans)
        #expect(HarfBuzzFont.of(again) !== HarfBuzzFont.of(fromPath))
        #expect(HarfBuzzFont.of(again).blobData.address == HarfBuzzFont.of(fromPath).blobData.address)
    }
}
