import CInkHit
import Foundation
import InkFreeType
import InkGeometry
import InkScene
import InkTestSupport
import Testing

/// Glyph-run and mask nodes made through the C interface (`inkhit_scene_add_shaped`) answer as the same
/// nodes made with the Swift API, and a mask's pixels answer as their alpha says.
struct SceneGlyphsAndMaskTests {
    /// A 4 × 4 mask stretched over 40 × 40 px: each pixel is 10 × 10 px.
    static let alpha: [UInt8] = [0, 255, 0, 200,
                                 127, 128, 129, 0,
                                 255, 255, 0, 0,
                                 0, 1, 254, 255]
    static let maskOrigin = Point(100, 0)

    /// The C scene: root 1 (200 × 60, box-none), glyphs node 2 ("H" and "o" of DejaVu Sans at 40 px), mask
    /// node 3; its C snapshot.
    static func cSnapshot(_ font: inkhit_font?) throws -> inkhit_snapshot? {
        var root = inkhit_node(), glyphsNode = inkhit_node(), maskNode = inkhit_node()
        ok(inkhit_node_init(&root, 1))
        root.bounds = inkhit_rect(min_x: 0, min_y: 0, max_x: 200, max_y: 60)
        root.pointer_events = Int32(INKHIT_POINTER_BOX_NONE)
        var scene: inkhit_scene?
        ok(inkhit_scene_create(&root, &scene))
        defer { ok(inkhit_scene_release(scene)) }
        ok(inkhit_node_init(&glyphsNode, 2))
        glyphsNode.bounds = inkhit_rect(min_x: 0, min_y: 0, max_x: 80, max_y: 60)
        glyphsNode.shape = Int32(INKHIT_SHAPE_GLYPHS)
        let glyphs = [inkhit_glyph_placement(font: font, glyph: 43, size: 40, origin: inkhit_point(x: 0, y: 40), transform: identity),
                      inkhit_glyph_placement(font: font, glyph: 82, size: 40, origin: inkhit_point(x: 30, y: 40), transform: identity)]
        var data = inkhit_node_shape()
        ok(inkhit_node_shape_init(&data))
        // The plain call refuses a shape that needs its data.
        fails(inkhit_scene_add(scene, 1, &glyphsNode), INKHIT_ERROR_INVALID_ARGUMENT, "inkhit_scene_add_shaped")
        fails(inkhit_scene_add_shaped(scene, 1, &glyphsNode, nil), INKHIT_ERROR_NULL_ARGUMENT, "shape")
        glyphs.withUnsafeBufferPointer { g in
            data.glyphs = g.baseAddress
            data.glyph_count = g.count
            ok(inkhit_scene_add_shaped(scene, 1, &glyphsNode, &data))
        }
        ok(inkhit_node_init(&maskNode, 3))
        maskNode.bounds = inkhit_rect(min_x: 0, min_y: 0, max_x: 40, max_y: 40)
        maskNode.transform = inkhit_transform(a: 1, b: 0, c: 0, d: 1, tx: maskOrigin.x, ty: maskOrigin.y)
        maskNode.shape = Int32(INKHIT_SHAPE_MASK)
        ok(inkhit_node_shape_init(&data))
        data.mask_width = 4
        data.mask_height = 4
        Self.alpha.withUnsafeBufferPointer { a in
            data.mask_alpha = a.baseAddress
            data.mask_length = a.count
            ok(inkhit_scene_add_shaped(scene, 1, &maskNode, &data))      // threshold 0: the default, 128
        }
        var snapshot: inkhit_snapshot?
        ok(inkhit_scene_snapshot(scene, 0, &snapshot))
        return snapshot
    }

    /// The same scene with the Swift API.
    static func swiftSnapshot(_ font: Font) throws -> SceneSnapshot {
        var scene = Scene(root: Node(id: "1", bounds: Rect(minX: 0, minY: 0, maxX: 200, maxY: 60), pointerEvents: .boxNone))
        try scene.add(Node(id: "2", bounds: Rect(minX: 0, minY: 0, maxX: 80, maxY: 60),
                           shape: .glyphs([GlyphPlacement(font: font, glyph: 43, size: 40, origin: Point(0, 40)),
                                           GlyphPlacement(font: font, glyph: 82, size: 40, origin: Point(30, 40))])), to: "1")
        try scene.add(Node(id: "3", bounds: Rect(minX: 0, minY: 0, maxX: 40, maxY: 40), transform: .translation(maskOrigin.x, maskOrigin.y),
                           shape: .mask(AlphaMask(width: 4, height: 4, alpha: alpha)!)), to: "1")
        return try scene.snapshot()
    }

    @Test func answersEqualTheSwiftScenesAndTheMasksAlpha() throws {
        let cFont = try loadFont(TestFonts.sans)
        defer { ok(inkhit_font_release(cFont)) }
        let c = try Self.cSnapshot(cFont)
        defer { ok(inkhit_snapshot_release(c)) }
        let swift = try Self.swiftSnapshot(try TestFonts.load(TestFonts.sans))
        var hits = [0, 0, 0, 0]
        for radius in [0.0, 2.0] {
            for j in 0..<31 {
                for i in 0..<75 {
                    let p = Point(Double(i) * 2 + 0.37, Double(j) * 2 + 0.41)
                    var h = inkhit_scene_hit()
                    ok(inkhit_snapshot_hit(c, p.x, p.y, radius, &h))
                    let s = swift.hit(at: p, radius: radius)
                    #expect((h.hit == 1) == (s != nil), "\(p) r \(radius)")
                    guard let s else { continue }
                    #expect(String(h.node) == s.node && (h.inside == 1) == s.isInside && h.placement == Int64(s.placement ?? -1))
                    #expect(h.distance == s.distance && h.local.x == s.local.x && h.local.y == s.local.y)
                    hits[Int(h.node)] += 1
                }
            }
        }
        #expect(hits[2] > 50 && hits[3] > 50, "\(hits)")
        // Each mask pixel's centre: ink exactly when its alpha reaches 128 (the default threshold).
        for k in 0..<16 {
            let x = Self.maskOrigin.x + Double(k % 4) * 10 + 5, y = Self.maskOrigin.y + Double(k / 4) * 10 + 5
            var h = inkhit_scene_hit()
            ok(inkhit_snapshot_hit(c, x, y, 0, &h))
            #expect((h.hit == 1 && h.node == 3) == (Self.alpha[k] >= 128), "pixel \(k) alpha \(Self.alpha[k])")
        }
        // The counter of the "o" misses; its stroke is glyph 1.
        var h = inkhit_scene_hit()
        ok(inkhit_snapshot_hit(c, 30 + 12, 29, 0, &h))
        #expect(h.hit == 0 || h.node != 2)
        ok(inkhit_snapshot_hit(c, 30 + 4, 29, 0, &h))
        #expect(h.hit == 1 && h.node == 2 && h.placement == 1 && h.inside == 1)
    }

    /// Masks are bounded as boxes are: over 4096 × 4096 pixels is LIMIT before anything is copied, no
    /// pixels is a node never hit, NULL bytes with pixels are an error; a threshold over 255 is refused.
    @Test func masksAreBounded() throws {
        var root = inkhit_node(), node = inkhit_node()
        ok(inkhit_node_init(&root, 1))
        root.bounds = inkhit_rect(min_x: 0, min_y: 0, max_x: 100, max_y: 100)
        var scene: inkhit_scene?
        ok(inkhit_scene_create(&root, &scene))
        defer { ok(inkhit_scene_release(scene)) }
        ok(inkhit_node_init(&node, 2))
        node.bounds = inkhit_rect(min_x: 0, min_y: 0, max_x: 50, max_y: 50)
        node.shape = Int32(INKHIT_SHAPE_MASK)
        var data = inkhit_node_shape()
        ok(inkhit_node_shape_init(&data))
        data.mask_width = 4097
        data.mask_height = 4096
        data.mask_alpha = nil           // never read: the size is refused first
        fails(inkhit_scene_add_shaped(scene, 1, &node, &data), INKHIT_ERROR_LIMIT, "4096")
        data.mask_width = 3
        data.mask_height = 3
        data.mask_alpha = nil
        data.mask_length = 9
        fails(inkhit_scene_add_shaped(scene, 1, &node, &data), INKHIT_ERROR_NULL_ARGUMENT, "mask_alpha")
        // The length bounds the read (issue 28 row 3: a 4096 x 4096 mask of one byte was read past its end):
        // a short or long one is refused before a byte is read, a 1.1-sized struct reads width x height.
        let one: [UInt8] = [255]
        one.withUnsafeBufferPointer { b in
            data.mask_alpha = b.baseAddress
            data.mask_length = 1
            data.mask_width = 4096
            data.mask_height = 4096
            fails(inkhit_scene_add_shaped(scene, 1, &node, &data), INKHIT_ERROR_INVALID_ARGUMENT, "mask_length is 1")
            data.mask_width = 64
            data.mask_height = 64
            fails(inkhit_scene_add_shaped(scene, 1, &node, &data), INKHIT_ERROR_INVALID_ARGUMENT, "64 x 64 pixels has 4096 bytes")
            data.mask_width = 1
            data.mask_height = 1
            data.mask_length = 2
            fails(inkhit_scene_add_shaped(scene, 1, &node, &data), INKHIT_ERROR_INVALID_ARGUMENT, "mask_length is 2")
            data.mask_length = 1
            var old = data
            old.struct_size = MemoryLayout<inkhit_node_shape>.offset(of: \inkhit_node_shape.mask_length)!
            old.mask_length = 12345                    // not read: a 1.1 caller has no such field
            var n99 = node
            n99.id = 99
            ok(inkhit_scene_add_shaped(scene, 1, &n99, &old))
            ok(inkhit_scene_remove(scene, 99))
            for size in [0, 8, old.struct_size + 4, MemoryLayout<inkhit_node_shape>.size - 1] {
                old.struct_size = size
                fails(inkhit_scene_add_shaped(scene, 1, &n99, &old), INKHIT_ERROR_INVALID_ARGUMENT, "struct_size is \(size)")
            }
        }
        data.mask_alpha = nil
        data.mask_length = 0
        data.mask_width = 0
        data.mask_threshold = 256
        fails(inkhit_scene_add_shaped(scene, 1, &node, &data), INKHIT_ERROR_INVALID_ARGUMENT, "mask_threshold")
        data.mask_threshold = 0
        ok(inkhit_scene_add_shaped(scene, 1, &node, &data))
        var snapshot: inkhit_snapshot?
        ok(inkhit_scene_snapshot(scene, 0, &snapshot))
        defer { ok(inkhit_snapshot_release(snapshot)) }
        var h = inkhit_scene_hit()
        ok(inkhit_snapshot_hit(snapshot, 25, 25, 0, &h))
        #expect(h.hit == 1 && h.node == 1, "a mask of no pixels is never hit (the root answers)")
    }
}
