import CInkHit
import Foundation
import InkFreeType
import InkGeometry
import InkScene
import InkTestSupport
import InkText
import Testing

/// A paragraph and a scene made through the C interface answer every point of a grid as the same paragraph
/// and scene made with the Swift API do: character, link (by index), attachment, line, distance, caret; node,
/// local point, glyph and text.
struct LayoutAndSceneAgreementTests {
    // Bidi, CJK from the fallback font, a ligature-prone word, an attachment, two overlapping links.
    static let text = "Tap the link, שלום 漢字 \u{FFFC} and offer more."
    static let linkRanges = [8..<12, 10..<18]

    @Test func layoutAnswersEqualTheSwiftAPIs() throws {
        let sans = try TestFonts.load(TestFonts.sans), cjk = try TestFonts.load(TestFonts.cjk)
        let utf16 = Array(Self.text.utf16)
        let imageAt = utf16.firstIndex(of: 0xFFFC)!
        let view = InkGeometry.AffineTransform.rotation(0.2).concatenating(.translation(5, 8))
        let swift = try TextLayout(
            text: Self.text, style: TextStyle(fonts: [sans, cjk], size: 16),
            paragraph: ParagraphStyle(width: 150, alignment: .center, maxLines: 4),
            links: Self.linkRanges.enumerated().map { TextLink(range: $1, tag: "link \($0)") },
            attachments: [TextAttachment(at: imageAt, width: 20, ascent: 14, descent: 4, tag: "image", cornerRadius: 3)],
            transform: view)

        let fonts: [inkhit_font?] = [try loadFont(TestFonts.sans), try loadFont(TestFonts.cjk)]
        defer { for f in fonts { ok(inkhit_font_release(f)) } }
        var options = inkhit_layout_options()
        ok(inkhit_layout_options_init(&options))
        let links = Self.linkRanges.map { inkhit_text_link(start: UInt64($0.lowerBound), end: UInt64($0.upperBound)) }
        var attachment = inkhit_text_attachment(at: UInt64(imageAt), width: 20, ascent: 14, descent: 4, corner_radius: 3)
        var layout: inkhit_layout?
        fonts.withUnsafeBufferPointer { f in
            links.withUnsafeBufferPointer { l in
                options.fonts = f.baseAddress
                options.font_count = f.count
                options.width = 150
                options.alignment = Int32(INKHIT_ALIGN_CENTER)
                options.max_lines = 4
                options.transform = inkhit_transform(a: view.a, b: view.b, c: view.c, d: view.d, tx: view.tx, ty: view.ty)
                options.links = l.baseAddress
                options.link_count = l.count
                options.attachment_count = 1
                withUnsafePointer(to: &attachment) { a in
                    options.attachments = a
                    ok(inkhit_layout_create_utf16(utf16, utf16.count, &options, &layout))
                }
            }
        }
        defer { ok(inkhit_layout_release(layout)) }

        var info = inkhit_layout_info()
        ok(inkhit_layout_get_info(layout, &info))
        #expect(Int(info.glyph_count) == swift.glyphs.count && Int(info.line_count) == swift.lines.count)
        #expect(Int(info.utf16_length) == utf16.count && Int(info.utf8_length) == Self.text.utf8.count)
        var glyphs = [inkhit_layout_glyph](repeating: inkhit_layout_glyph(), count: swift.glyphs.count)
        ok(inkhit_layout_glyphs(layout, 0, glyphs.count, &glyphs))
        for (c, s) in zip(glyphs, swift.glyphs) {
            #expect(Int(c.font) == s.font && c.glyph == s.id.rawValue && c.x == s.x && c.y == s.y && c.advance == s.advance)
            #expect(Int(c.utf16_start) == s.utf16.lowerBound && Int(c.utf16_end) == s.utf16.upperBound && Int(c.line) == s.line)
        }

        var rng = SplitMix64(seed: 11)
        let box = swift.lines.reduce(Rect.empty) { $0.union($1.box) }.applying(view).outsetBy(6)
        var hits = 0, linkHits = 0, attachmentHits = 0
        for i in 0..<3000 {
            let p = Point(box.minX + rng.unit() * box.width, box.minY + rng.unit() * box.height)
            let r = [0, 2, 5][i % 3]
            var c = inkhit_text_hit()
            ok(inkhit_layout_hit(layout, p.x, p.y, Double(r), Int32(INKHIT_TEXT_HIT_INK), &c))
            let s = swift.hit(at: p, radius: Double(r))
            #expect(c.hit == (s == nil ? 0 : 1), "point \(p) radius \(r)")
            if let s {
                hits += 1
                #expect(Int(c.utf16_start) == s.utf16.lowerBound && Int(c.utf16_end) == s.utf16.upperBound)
                #expect(Int(c.utf8_start) == s.utf8.lowerBound && Int(c.utf8_end) == s.utf8.upperBound)
                #expect(Int(c.character) == s.character && Int(c.line) == s.line && c.distance == s.distance)
                #expect(Int(c.placement) == (s.placement ?? -1))
                #expect((c.link >= 0 ? "link \(c.link)" : nil) == s.link)
                #expect((c.attachment == 0 ? "image" : nil) == s.attachment)
                if c.attachment == 0 { attachmentHits += 1 }
            }
            var cl = inkhit_text_hit()
            ok(inkhit_layout_link_hit(layout, p.x, p.y, Double(r), &cl))
            let sl = swift.link(at: p, radius: Double(r))
            #expect((cl.link >= 0 ? "link \(cl.link)" : nil) == sl?.link.tag)
            if let sl {
                linkHits += 1
                #expect(Int(cl.utf16_start) == sl.hit.utf16.lowerBound && cl.distance == sl.hit.distance)
            }
            var caret = inkhit_caret()
            ok(inkhit_layout_caret(layout, p.x, p.y, &caret))
            let sc = swift.caret(at: p)
            #expect(Int(caret.utf16) == sc?.utf16 && Int(caret.line) == sc?.line)
            if let sc {
                // The UTF-8 offset of the same position, counted independently.
                let prefix = String(decoding: utf16[..<sc.utf16], as: UTF16.self)
                #expect(Int(caret.utf8) == prefix.utf8.count)
                #expect(caret.affinity == Int32(sc.affinity == .upstream ? INKHIT_AFFINITY_UPSTREAM : INKHIT_AFFINITY_DOWNSTREAM))
            }
        }
        // The grid reaches every kind of answer.
        #expect(hits > 300 && linkHits > 30 && attachmentHits > 3)

        for offset in 0...utf16.count {
            var c = inkhit_caret_rect()
            let status = inkhit_layout_caret_rect(layout, UInt64(offset), Int32(INKHIT_AFFINITY_UPSTREAM), &c)
            // An offset between the two units of a character is refused; the others match Swift.
            if offset < utf16.count && UTF16.isTrailSurrogate(utf16[offset]) {
                fails(status, INKHIT_ERROR_INVALID_TEXT, "between the two UTF-16 units")
                continue
            }
            ok(status)
            let s = swift.caretRect(at: offset, affinity: .upstream)
            #expect(c.found == (s == nil ? 0 : 1) && c.x == (s?.x ?? .nan) && Int(c.line) == (s?.line ?? -1), "offset \(offset)")
        }
    }

    @Test func sceneAnswersEqualTheSwiftAPIs() throws {
        // The README's scene, a text node, a path and a clipped, rotated card with a button inside.
        let sans = try TestFonts.load(TestFonts.sans)
        let swiftLayout = try TextLayout(text: "Tap the link", style: TextStyle(fonts: [sans], size: 18),
                                         links: [TextLink(range: 8..<12, tag: "0")])
        var scene = Scene(root: Node(id: "1", bounds: Rect(minX: 0, minY: 0, maxX: 320, maxY: 480), pointerEvents: .boxNone))
        let card = InkGeometry.AffineTransform.rotation(0.3).concatenating(.translation(150, 200))
        try scene.add(Node(id: "2", bounds: Rect(minX: 0, minY: 0, maxX: 40, maxY: 40), transform: .translation(10, 10),
                           shape: .ellipse), to: "1")
        try scene.add(Node(id: "3", bounds: Rect(minX: 0, minY: 0, maxX: 18, maxY: 18), transform: .translation(60, 21),
                           minSize: (44, 44)), to: "1")
        try scene.add(Node(id: "4", bounds: Rect(minX: 0, minY: 0, maxX: 120, maxY: 30), transform: .translation(20, 80),
                           shape: .text(swiftLayout, holes: .filledCounters), slop: EdgeInsets(all: -4)), to: "1")
        try scene.add(Node(id: "5", bounds: Rect(minX: 0, minY: 0, maxX: 120, maxY: 90), transform: card,
                           shape: .roundRect(radius: 12)), to: "1")
        try scene.add(Node(id: "6", bounds: Rect(minX: 0, minY: 0, maxX: 30, maxY: 30), transform: .translation(100, 70),
                           shape: .path([.move(Point(0, 0)), .line(Point(30, 0)), .quad(control: Point(30, 30), to: Point(0, 30)), .close],
                                        fillRule: .nonZero)), to: "5")
        try scene.add(Node(id: "7", bounds: Rect(minX: 0, minY: 0, maxX: 50, maxY: 50), transform: .translation(0, 300),
                           isInteractive: false), to: "1")
        let swift = try scene.snapshot()

        let font = try loadFont(TestFonts.sans)
        defer { ok(inkhit_font_release(font)) }
        var options = inkhit_layout_options()
        ok(inkhit_layout_options_init(&options))
        var fontList: [inkhit_font?] = [font]
        var link = inkhit_text_link(start: 8, end: 12)
        var layout: inkhit_layout?
        fontList.withUnsafeMutableBufferPointer { f in
            options.fonts = UnsafePointer(f.baseAddress)
            options.font_count = 1
            options.size = 18
            withUnsafePointer(to: &link) { l in
                options.links = l
                options.link_count = 1
                ok(inkhit_layout_create_utf8("Tap the link", 12, &options, &layout))
            }
        }
        func node(_ id: UInt64, _ w: Double, _ h: Double, _ t: InkGeometry.AffineTransform) -> inkhit_node {
            var n = inkhit_node()
            ok(inkhit_node_init(&n, id))
            n.bounds = inkhit_rect(min_x: 0, min_y: 0, max_x: w, max_y: h)
            n.transform = inkhit_transform(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx, ty: t.ty)
            return n
        }
        var root = node(1, 320, 480, .identity)
        root.pointer_events = Int32(INKHIT_POINTER_BOX_NONE)
        var c: inkhit_scene?
        ok(inkhit_scene_create(&root, &c))
        defer { ok(inkhit_scene_release(c)) }
        var avatar = node(2, 40, 40, .translation(10, 10))
        avatar.shape = Int32(INKHIT_SHAPE_ELLIPSE)
        ok(inkhit_scene_add(c, 1, &avatar))
        var like = node(3, 18, 18, .translation(60, 21))
        like.min_width = 44
        like.min_height = 44
        ok(inkhit_scene_add(c, 1, &like))
        var label = node(4, 120, 30, .translation(20, 80))
        label.shape = Int32(INKHIT_SHAPE_TEXT)
        label.text = layout
        label.holes = Int32(INKHIT_HOLES_FILLED_COUNTERS)
        label.slop_top = -4; label.slop_left = -4; label.slop_bottom = -4; label.slop_right = -4
        ok(inkhit_scene_add(c, 1, &label))
        ok(inkhit_layout_release(layout))                  // the scene keeps it
        var cardNode = node(5, 120, 90, card)
        cardNode.shape = Int32(INKHIT_SHAPE_ROUND_RECT)
        cardNode.corner_radius = 12
        ok(inkhit_scene_add(c, 1, &cardNode))
        let verbs: [UInt8] = [UInt8(INKHIT_VERB_MOVE), UInt8(INKHIT_VERB_LINE), UInt8(INKHIT_VERB_QUAD), UInt8(INKHIT_VERB_CLOSE)]
        let points = [inkhit_point(x: 0, y: 0), inkhit_point(x: 30, y: 0), inkhit_point(x: 30, y: 30), inkhit_point(x: 0, y: 30)]
        var path = node(6, 30, 30, .translation(100, 70))
        path.shape = Int32(INKHIT_SHAPE_PATH)
        verbs.withUnsafeBufferPointer { v in
            points.withUnsafeBufferPointer { p in
                path.verbs = v.baseAddress
                path.verb_count = v.count
                path.points = p.baseAddress
                path.point_count = p.count
                ok(inkhit_scene_add(c, 5, &path))
            }
        }
        var off = node(7, 50, 50, .translation(0, 300))
        off.flags = UInt32(INKHIT_NODE_NOT_INTERACTIVE)
        ok(inkhit_scene_add(c, 1, &off))
        var snapshot: inkhit_snapshot?
        ok(inkhit_scene_snapshot(c, 0, &snapshot))
        defer { ok(inkhit_snapshot_release(snapshot)) }

        var rng = SplitMix64(seed: 5)
        var seen = Set<UInt64>()
        var points2: [inkhit_point] = []
        for _ in 0..<4000 { points2.append(inkhit_point(x: rng.unit() * 330 - 5, y: rng.unit() * 380 - 5)) }
        var batch = [inkhit_scene_hit](repeating: inkhit_scene_hit(), count: points2.count)
        ok(inkhit_snapshot_hits(snapshot, points2, points2.count, 3, &batch))
        for (i, p) in points2.enumerated() {
            let s = swift.hit(at: Point(p.x, p.y), radius: 3)
            var h = inkhit_scene_hit()
            ok(inkhit_snapshot_hit(snapshot, p.x, p.y, 3, &h))
            for x in [h, batch[i]] {
                #expect(x.hit == (s == nil ? 0 : 1), "point (\(p.x), \(p.y))")
                guard let s else { continue }
                seen.insert(x.node)
                #expect(String(x.node) == s.node && Int(x.depth) == s.depth && x.distance == s.distance)
                #expect(x.inside == (s.isInside ? 1 : 0) && x.local.x == s.local.x && x.local.y == s.local.y)
                #expect(Int(x.placement) == (s.placement ?? -1) && x.text.hit == (s.text == nil ? 0 : 1))
                if let t = s.text {
                    #expect(Int(x.text.utf16_start) == t.utf16.lowerBound && (x.text.link >= 0 ? String(x.text.link) : nil) == t.link)
                }
            }
            if s != nil, i % 50 == 0 {
                var ids = [UInt64](repeating: 0, count: 8)
                var n = 0
                ok(inkhit_scene_path(c, h.node, &ids, ids.count, &n))
                #expect(ids.prefix(n).map(String.init) == scene.path(to: s!.node))
            }
        }
        #expect(seen == [2, 3, 4, 5, 6])
    }
}
