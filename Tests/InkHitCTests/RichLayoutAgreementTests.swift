import CInkHit
import Foundation
import InkFreeType
import InkGeometry
import InkTestSupport
import InkText
import Testing

/// A styled paragraph made through the C interface (runs, exclusions, line height, paragraph spacing,
/// indent in the grown `inkhit_layout_options`) is the Swift API's: the same glyphs and decorations, and the
/// same answers — decoration index included — on random points.
struct RichLayoutAgreementTests {
    static let text = "Read more about the ink, 漢字 and more.\nA second paragraph under it."

    @Test func richLayoutAnswersEqualTheSwiftAPIs() throws {
        let sans = try TestFonts.load(TestFonts.sans), bold = try TestFonts.load(TestFonts.sansBold)
        let view = InkGeometry.AffineTransform.rotation(-0.15).concatenating(.translation(10, 30))
        let swiftRuns = [TextRun(range: 0..<4, fonts: [1, 0], size: 20),
                         TextRun(range: 16..<23, underline: .single, baselineShift: 2, letterSpacing: 0.5),
                         TextRun(range: 5..<9, strikethrough: true, overline: true), TextRun(range: 40..<48, underline: .double)]
        let exclusions: [TextExclusion] = [.rect(Rect(minX: 150, minY: 0, maxX: 200, maxY: 30)),
                                           .ellipse(Rect(minX: 0, minY: 45, maxX: 40, maxY: 80))]
        let swift = try TextLayout(text: Self.text, style: TextStyle(fonts: [sans, bold], size: 16), runs: swiftRuns,
                                   paragraph: ParagraphStyle(width: 200, lineHeight: 1.25, paragraphSpacing: 5, firstLineIndent: 9,
                                                             exclusions: exclusions),
                                   links: [TextLink(range: 16..<23, tag: "0")], transform: view)

        let fonts: [inkhit_font?] = [try loadFont(TestFonts.sans), try loadFont(TestFonts.sansBold)]
        defer { for f in fonts { ok(inkhit_font_release(f)) } }
        var options = inkhit_layout_options()
        ok(inkhit_layout_options_init_sized(&options, MemoryLayout<inkhit_layout_options>.size))
        let chain: [UInt32] = [1, 0]
        let utf16 = Array(Self.text.utf16)
        var layout: inkhit_layout?
        var link = inkhit_text_link(start: 16, end: 23)
        chain.withUnsafeBufferPointer { c in
            let runs = [
                inkhit_text_run(start: 0, end: 4, set: UInt32(INKHIT_RUN_FONTS | INKHIT_RUN_SIZE), underline: 0, fonts: c.baseAddress,
                                font_count: 2, size: 20, strikethrough: 0, overline: 0, baseline_shift: 0, letter_spacing: 0),
                inkhit_text_run(start: 16, end: 23, set: UInt32(INKHIT_RUN_UNDERLINE | INKHIT_RUN_BASELINE_SHIFT | INKHIT_RUN_LETTER_SPACING),
                                underline: Int32(INKHIT_UNDERLINE_SINGLE), fonts: nil, font_count: 0, size: 0, strikethrough: 0,
                                overline: 0, baseline_shift: 2, letter_spacing: 0.5),
                inkhit_text_run(start: 5, end: 9, set: UInt32(INKHIT_RUN_STRIKETHROUGH | INKHIT_RUN_OVERLINE), underline: 0, fonts: nil,
                                font_count: 0, size: 0, strikethrough: 1, overline: 1, baseline_shift: 0, letter_spacing: 0),
                inkhit_text_run(start: 40, end: 48, set: UInt32(INKHIT_RUN_UNDERLINE), underline: Int32(INKHIT_UNDERLINE_DOUBLE),
                                fonts: nil, font_count: 0, size: 0, strikethrough: 0, overline: 0, baseline_shift: 0, letter_spacing: 0)]
            let ex = [inkhit_exclusion(kind: Int32(INKHIT_EXCLUSION_RECT), rect: inkhit_rect(min_x: 150, min_y: 0, max_x: 200, max_y: 30),
                                       path: nil, path_length: 0),
                      inkhit_exclusion(kind: Int32(INKHIT_EXCLUSION_ELLIPSE), rect: inkhit_rect(min_x: 0, min_y: 45, max_x: 40, max_y: 80),
                                       path: nil, path_length: 0)]
            fonts.withUnsafeBufferPointer { f in
                runs.withUnsafeBufferPointer { r in
                    ex.withUnsafeBufferPointer { e in
                        withUnsafePointer(to: &link) { l in
                            options.fonts = f.baseAddress; options.font_count = f.count
                            options.width = 200; options.line_height = 1.25; options.paragraph_spacing = 5; options.first_line_indent = 9
                            options.transform = inkhit_transform(a: view.a, b: view.b, c: view.c, d: view.d, tx: view.tx, ty: view.ty)
                            options.runs = r.baseAddress; options.run_count = r.count
                            options.exclusions = e.baseAddress; options.exclusion_count = e.count
                            options.links = l; options.link_count = 1
                            ok(inkhit_layout_create_utf16(utf16, utf16.count, &options, &layout))
                        }
                    }
                }
            }
        }
        defer { ok(inkhit_layout_release(layout)) }

        var glyphs = [inkhit_layout_glyph](repeating: inkhit_layout_glyph(), count: swift.glyphs.count)
        ok(inkhit_layout_glyphs(layout, 0, glyphs.count, &glyphs))
        for (c, s) in zip(glyphs, swift.glyphs) {
            #expect(Int(c.font) == s.font && c.glyph == s.id.rawValue && c.x == s.x && c.y == s.y && c.size == s.size)
        }
        var n = 0
        ok(inkhit_layout_decoration_count(layout, &n))
        try #require(n == swift.decorations.count && n >= 6)
        var decorations = [inkhit_layout_decoration](repeating: inkhit_layout_decoration(), count: n)
        ok(inkhit_layout_decorations(layout, 0, n, &decorations))
        for (c, s) in zip(decorations, swift.decorations) {
            #expect(Int(c.kind) == [TextDecoration.Kind.underline, .strikethrough, .overline].firstIndex(of: s.kind)!)
            #expect(c.rect.min_x == s.rect.minX && c.rect.min_y == s.rect.minY && c.rect.max_x == s.rect.maxX && c.rect.max_y == s.rect.maxY)
            #expect(Int(c.utf16_start) == s.utf16.lowerBound && Int(c.utf16_end) == s.utf16.upperBound && Int(c.line) == s.line)
        }

        var rng = SplitMix64(seed: 23)
        let box = swift.lines.reduce(Rect.empty) { $0.union($1.box) }.applying(view).outsetBy(4)
        var onDecorations = 0
        for i in 0..<2500 {
            let p = Point(box.minX + rng.unit() * box.width, box.minY + rng.unit() * box.height)
            let r = [0.0, 1.5, 3.5][i % 3]
            var c = inkhit_text_hit()
            var which: Int64 = -2
            ok(inkhit_layout_hit_decoration(layout, p.x, p.y, r, &c, &which))
            let s = swift.hit(at: p, radius: r)
            #expect(c.hit == (s == nil ? 0 : 1), "point \(p) radius \(r)")
            guard let s else { #expect(which == -1); continue }
            #expect(Int(c.utf16_start) == s.utf16.lowerBound && Int(c.line) == s.line && c.distance == s.distance)
            #expect(c.placement == Int64(s.placement ?? -1) && c.link == (s.link.flatMap { Int64($0) } ?? -1))
            if let kind = s.decoration {
                onDecorations += 1
                #expect(which >= 0 && swift.decorations[Int(which)].kind == kind && c.placement == -1)
            } else {
                #expect(which == -1)
            }
        }
        #expect(onDecorations > 10)
    }
}
