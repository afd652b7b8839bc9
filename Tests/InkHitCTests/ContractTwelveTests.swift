import CInkHit
import Foundation
import InkFreeType
import InkTestSupport
import Testing

/// The C 1.2 contract, in which no status makes a caller guess: batch queries that answer every point and say
/// what they skipped (and write nothing on any error), add calls that say where their placements start, named
/// instances by name, and growable structs that refuse sizes they do not know (inkhit_layout_options among them,
/// issue 28 row 8). The 1.0 calls keep their meaning alongside.
struct ContractTwelveTests {
    /// "Hit" in DejaVu Sans at 40 px, and its index.
    static func index() throws -> (inkhit_font, inkhit_index) {
        let font = try loadFont(TestFonts.sans)
        var builder: inkhit_builder?
        ok(inkhit_builder_create(0, &builder))
        defer { _ = inkhit_builder_release(builder) }
        var g: UInt32 = 0
        for (k, c) in "Hit".unicodeScalars.enumerated() {
            ok(inkhit_font_glyph(font, c.value, &g))
            var p = inkhit_glyph_placement(font: font, glyph: g, size: 40, origin: inkhit_point(x: 10 + 28 * Double(k), y: 50),
                                           transform: identity)
            ok(inkhit_builder_add_glyph(builder, nil, &p, nil))
        }
        var index: inkhit_index?
        ok(inkhit_builder_build(builder, &index))
        return (font, index!)
    }

    /// A grid over the word with non-finite points at known places.
    static var points: [inkhit_point] {
        var pts: [inkhit_point] = []
        for j in 0..<30 { for i in 0..<60 { pts.append(inkhit_point(x: Double(i) * 1.7, y: Double(j) * 2)) } }
        pts[7] = inkhit_point(x: .nan, y: 3)
        pts[100] = inkhit_point(x: 4, y: .infinity)
        pts[1500] = inkhit_point(x: -.infinity, y: .nan)
        return pts
    }

    static let sentinel = inkhit_hit(hit: 7, inside: 7, placement: 77, distance: 7.5)

    @Test func theBatchAnswersEveryPointWithOKAndCountsWhatItSkipped() throws {
        let (font, index) = try Self.index()
        defer { _ = inkhit_index_release(index); _ = inkhit_font_release(font) }
        let pts = Self.points
        for radius in [0.0, 2.5] {
            var out = [inkhit_hit](repeating: Self.sentinel, count: pts.count)
            var skipped = 99
            ok(inkhit_index_hit_batch(index, pts, pts.count, radius, Int32(INKHIT_NON_FINITE_MISS.rawValue), &out, &skipped))
            #expect(skipped == 3)
            var hits = 0
            for (i, p) in pts.enumerated() {
                // Each answer is the single query's (a non-finite point: the miss the single call writes too).
                var one = inkhit_hit()
                let status = inkhit_index_hit(index, p.x, p.y, radius, &one)
                #expect(status == (p.x.isFinite && p.y.isFinite ? 0 : inkhit_status(INKHIT_ERROR_INVALID_ARGUMENT)))
                #expect(out[i].hit == one.hit && out[i].placement == one.placement && out[i].inside == one.inside
                        && (out[i].distance == one.distance || (out[i].distance.isNaN && one.distance.isNaN)), "point \(i)")
                hits += Int(out[i].hit)
            }
            #expect(hits >= 100)
            // 1.0's call answers the same and still returns INVALID_ARGUMENT for the non-finite points.
            var old = [inkhit_hit](repeating: Self.sentinel, count: pts.count)
            fails(inkhit_index_hits(index, pts, pts.count, radius, &old), INKHIT_ERROR_INVALID_ARGUMENT, "points[7] (nan, 3)")
            #expect(lastError.contains("3 such points"))
            #expect(old.map(\.placement) == out.map(\.placement))
        }
        // Without non-finite points: OK and 0 skipped; NULL skipped_out is allowed.
        let finite = Array(pts[200..<400])
        var out = [inkhit_hit](repeating: Self.sentinel, count: finite.count)
        var skipped = 5
        ok(inkhit_index_hit_batch(index, finite, finite.count, 0, 0, &out, &skipped))
        #expect(skipped == 0 && out.allSatisfy { $0.hit == 0 || $0.hit == 1 })
        ok(inkhit_index_hit_batch(index, finite, finite.count, 0, 0, &out, nil))
        ok(inkhit_index_hit_batch(index, nil, 0, 0, 0, nil, &skipped))
    }

    /// Every error means "nothing written": the answers keep their sentinel, the count is 0.
    @Test func anErrorWritesNothing() throws {
        let (font, index) = try Self.index()
        defer { _ = inkhit_index_release(index); _ = inkhit_font_release(font) }
        let pts = Self.points
        var out = [inkhit_hit](repeating: Self.sentinel, count: pts.count)
        var skipped = 99
        func untouched() -> Bool {
            out.allSatisfy { $0.hit == 7 && $0.placement == 77 && $0.distance == 7.5 } && skipped == 0
        }
        fails(inkhit_index_hit_batch(index, pts, pts.count, -1, 0, &out, &skipped), INKHIT_ERROR_INVALID_ARGUMENT, "radius")
        #expect(untouched())
        skipped = 99
        fails(inkhit_index_hit_batch(index, pts, pts.count, .nan, 0, &out, &skipped), INKHIT_ERROR_INVALID_ARGUMENT, "radius")
        #expect(untouched())
        skipped = 99
        fails(inkhit_index_hit_batch(index, pts, pts.count, 1, Int32(INKHIT_NON_FINITE_ERROR.rawValue), &out, &skipped),
              INKHIT_ERROR_INVALID_ARGUMENT, "points[7] (nan, 3) is not finite (3 such points; nothing was answered")
        #expect(untouched())
        skipped = 99
        fails(inkhit_index_hit_batch(index, pts, pts.count, 1, 2, &out, &skipped), INKHIT_ERROR_INVALID_ARGUMENT, "non_finite")
        #expect(untouched())
        skipped = 99
        fails(inkhit_index_hit_batch(nil, pts, pts.count, 1, 0, &out, &skipped), INKHIT_ERROR_NULL_ARGUMENT, "index")
        #expect(untouched())
        skipped = 99
        fails(inkhit_index_hit_batch(index, pts, pts.count, 1, 0, nil, &skipped), INKHIT_ERROR_NULL_ARGUMENT, "out")
        #expect(untouched())
        skipped = 99
        fails(inkhit_index_hit_batch(OpaquePointer(bitPattern: 0x1234), pts, pts.count, 1, 0, &out, &skipped),
              INKHIT_ERROR_INVALID_HANDLE, "index")
        #expect(untouched())
        // Finite points with the error policy: answered, OK.
        let finite = Array(pts[200..<300])
        var answers = [inkhit_hit](repeating: Self.sentinel, count: finite.count)
        ok(inkhit_index_hit_batch(index, finite, finite.count, 1, Int32(INKHIT_NON_FINITE_ERROR.rawValue), &answers, &skipped))
        #expect(skipped == 0 && answers.allSatisfy { $0.hit <= 1 })
    }

    @Test func theSnapshotBatchHasTheSameStatuses() throws {
        var root = inkhit_node(), child = inkhit_node()
        ok(inkhit_node_init(&root, 1))
        root.bounds = inkhit_rect(min_x: 0, min_y: 0, max_x: 100, max_y: 60)
        ok(inkhit_node_init(&child, 2))
        child.bounds = inkhit_rect(min_x: 10, min_y: 10, max_x: 40, max_y: 40)
        child.shape = Int32(INKHIT_SHAPE_ELLIPSE)
        var scene: inkhit_scene?, snapshot: inkhit_snapshot?
        ok(inkhit_scene_create(&root, &scene))
        defer { _ = inkhit_scene_release(scene) }
        ok(inkhit_scene_add(scene, 1, &child))
        ok(inkhit_scene_snapshot(scene, 0, &snapshot))
        defer { _ = inkhit_snapshot_release(snapshot) }
        let pts = Self.points
        var out = [inkhit_scene_hit](repeating: inkhit_scene_hit(), count: pts.count)
        var skipped = 0
        ok(inkhit_snapshot_hit_batch(snapshot, pts, pts.count, 1, 0, &out, &skipped))
        #expect(skipped == 3)
        for (i, p) in pts.enumerated() where i % 7 == 0 || !(p.x.isFinite && p.y.isFinite) {
            var one = inkhit_scene_hit()
            _ = inkhit_snapshot_hit(snapshot, p.x, p.y, 1, &one)
            #expect(out[i].hit == one.hit && out[i].node == one.node, "point \(i)")
        }
        #expect(out.filter { $0.node == 2 }.count > 100 && out.filter { $0.node == 1 }.count > 100)
        // skipped_out may be NULL: the answers are written all the same.
        var again = [inkhit_scene_hit](repeating: inkhit_scene_hit(), count: pts.count)
        ok(inkhit_snapshot_hit_batch(snapshot, pts, pts.count, 1, 0, &again, nil))
        #expect(again.map(\.node) == out.map(\.node))
        var marked = inkhit_scene_hit()
        marked.hit = 9; marked.inside = 9; marked.node = 9; marked.depth = 9; marked.local = inkhit_point(x: 9, y: 9)
        marked.distance = 9; marked.placement = 9
        var untouched = [inkhit_scene_hit](repeating: marked, count: pts.count)
        fails(inkhit_snapshot_hit_batch(snapshot, pts, pts.count, 1, Int32(INKHIT_NON_FINITE_ERROR.rawValue), &untouched, &skipped),
              INKHIT_ERROR_INVALID_ARGUMENT, "nothing was answered")
        fails(inkhit_snapshot_hit_batch(snapshot, pts, pts.count, -2, 0, &untouched, &skipped), INKHIT_ERROR_INVALID_ARGUMENT, "radius")
        #expect(untouched.allSatisfy { $0.hit == 9 && $0.node == 9 } && skipped == 0)
        fails(inkhit_snapshot_hits(snapshot, pts, pts.count, 1, &out), INKHIT_ERROR_INVALID_ARGUMENT, "answered as misses")
    }

    /// Threads adding to one builder: each call's numbers name exactly its own placements (read back by their tags),
    /// and a batch that stops at a bad glyph says which placements it did add.
    @Test func numberedAddsSayWhereTheirPlacementsStart() throws {
        let font = try loadFont(TestFonts.sans)
        defer { _ = inkhit_font_release(font) }
        var builder: inkhit_builder?
        ok(inkhit_builder_create(0, &builder))
        defer { _ = inkhit_builder_release(builder) }
        let handle = UInt(bitPattern: builder), fontBits = UInt(bitPattern: font)
        final class Collected: @unchecked Sendable {
            let lock = NSLock()
            var all: [(Int, Int, Int)] = []
        }
        let collected = Collected()
        do {
            DispatchQueue.concurrentPerform(iterations: 8) { t in
                let b = OpaquePointer(bitPattern: handle), f = OpaquePointer(bitPattern: fontBits)
                var run = inkhit_glyph_run()
                _ = inkhit_glyph_run_init(&run)
                run.font = f
                for k in 0..<20 {
                    let n = 1 + (t + k) % 5
                    let glyphs = (0..<n).map { i in
                        inkhit_run_glyph(glyph: 36 + UInt32(i), reserved: 0, x: Double(i) * 10, y: 20, tag: UInt64(t * 1000 + k))
                    }
                    var first = -1, added = -1
                    let status: inkhit_status
                    switch k % 3 {
                    case 0: status = inkhit_builder_add_run_numbered(b, nil, &run, glyphs, n, &first, &added)
                    case 1:
                        let infos = glyphs.map { inkhit_hb_glyph_info(codepoint: $0.glyph, mask: 0, cluster: 0, var1: 0, var2: 0) }
                        run.tag_base = UInt64(t * 1000 + k)
                        status = inkhit_builder_add_shaped_numbered(b, nil, &run, infos, nil, n, nil, &first, &added)
                    default:
                        let ps = glyphs.map { inkhit_glyph_placement(font: f, glyph: $0.glyph, size: 16, origin: inkhit_point(x: 0, y: 20),
                                                                     transform: identity) }
                        status = inkhit_builder_add_glyphs_numbered(b, nil, ps, n, &first, &added)
                        for j in 0..<added { _ = inkhit_builder_set_tag(b, first + j, UInt64(t * 1000 + k)) }
                    }
                    collected.lock.lock()
                    collected.all.append((first, added, status == 0 ? t * 1000 + k : -1))
                    collected.lock.unlock()
                }
            }
        }
        let ranges = collected.all
        var count = 0
        ok(inkhit_builder_count(builder, &count))
        var index: inkhit_index?
        ok(inkhit_builder_build(builder, &index))
        defer { _ = inkhit_index_release(index) }
        var covered = Set<Int>()
        for (first, added, tag) in ranges {
            #expect(tag >= 0)
            for p in first..<(first + added) {
                #expect(covered.insert(p).inserted, "placement \(p) claimed twice")
                var t: UInt64 = 0
                ok(inkhit_index_placement_tag(index, Int64(p), &t))
                #expect(t == UInt64(tag), "placement \(p)")
            }
        }
        #expect(covered == Set(0..<count) && count == ranges.reduce(0) { $0 + $1.1 })
        // A batch that stops at its third glyph: the two it added, and where.
        var run = inkhit_glyph_run()
        ok(inkhit_glyph_run_init(&run))
        run.font = font
        let bad = [36, 37, 1_000_000, 38].map { inkhit_run_glyph(glyph: UInt32($0), reserved: 0, x: 0, y: 0, tag: 0) }
        var first = 0, added = 0
        fails(inkhit_builder_add_run_numbered(builder, nil, &run, bad, bad.count, &first, &added), INKHIT_ERROR_GLYPH, "glyphs[2]")
        #expect(first == count && added == 2)
        fails(inkhit_builder_add_run_numbered(nil, nil, &run, bad, bad.count, &first, &added), INKHIT_ERROR_NULL_ARGUMENT, "builder")
        #expect(first == 0 && added == 0)
    }

    /// Named instances through the library (FreeType's fvar and name tables): Inter's names, found by name in any
    /// ASCII case, each instance's font equal to the packed face index's, and the errors of fonts without them.
    @Test func namedInstancesByNumberAndByName() throws {
        let inter = try loadFont(TestFonts.interVariable)
        defer { _ = inkhit_font_release(inter) }
        let swift = try Font(path: TestFonts.interVariable)
        var count = 0
        ok(inkhit_font_instance_count(inter, &count))
        #expect(count == swift.namedInstances.count && count >= 18)
        var names: [String] = []
        for i in 0..<count {
            var length = 0
            ok(inkhit_font_instance_name(inter, i, nil, 0, &length))
            var buffer = [CChar](repeating: 1, count: length + 1)
            ok(inkhit_font_instance_name(inter, i, &buffer, buffer.count, &length))
            names.append(buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
            #expect(names[i].utf8.count == length)
        }
        #expect(names == swift.namedInstances.map { $0.name ?? "" })
        #expect(names.contains("Bold") && names.contains("Extra Light Italic"))
        // Cut to the capacity, NUL-terminated, the full length said.
        var small = [CChar](repeating: 1, count: 3)
        var length = 0
        let bold = try #require(names.firstIndex(of: "Bold"))
        ok(inkhit_font_instance_name(inter, bold, &small, 3, &length))
        #expect(length == 4 && small.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } == "Bo")
        var found = 0
        ok(inkhit_font_find_instance(inter, "bOLD", &found))
        #expect(found == bold)
        fails(inkhit_font_find_instance(inter, "Heavy", &found), INKHIT_ERROR_FONT, "no named instance \"Heavy\"")
        #expect(lastError.contains("\"Bold\""))
        fails(inkhit_font_find_instance(inter, nil, &found), INKHIT_ERROR_NULL_ARGUMENT, "name")
        fails(inkhit_font_instance_name(inter, count, nil, 0, &length), INKHIT_ERROR_FONT, "instance \(count) is out of range")
        // The instance's font is the packed face index's: the same coordinates.
        var atBold: inkhit_font?, packed: inkhit_font?
        ok(inkhit_font_with_instance(inter, bold, &atBold))
        defer { _ = inkhit_font_release(atBold) }
        ok(inkhit_font_from_path(TestFonts.interVariable, Int32((bold + 1) << 16), &packed))
        defer { _ = inkhit_font_release(packed) }
        func coordinates(_ f: inkhit_font?) -> [Float] {
            var v = [inkhit_variation](repeating: inkhit_variation(), count: 8)
            var n = 0
            ok(inkhit_font_get_variations(f, &v, v.count, &n))
            return v.prefix(n).map(\.value)
        }
        #expect(coordinates(atBold) == coordinates(packed) && coordinates(atBold).first == 700)
        fails(inkhit_font_with_instance(inter, count, &atBold), INKHIT_ERROR_FONT, "no named instance")
        // A font that does not vary has none.
        let sans = try loadFont(TestFonts.sans)
        defer { _ = inkhit_font_release(sans) }
        ok(inkhit_font_instance_count(sans, &count))
        #expect(count == 0)
        fails(inkhit_font_find_instance(sans, "Bold", &found), INKHIT_ERROR_FONT, "instances: none")
        var none: inkhit_font?
        fails(inkhit_font_with_instance(sans, 0, &none), INKHIT_ERROR_FONT, "not a variable font")
        #expect(none == nil)
    }

    /// inkhit_layout_options is read as the version its size names: 1.0's (what the 1.0 init function writes),
    /// this header's, or a newer header's with nothing set past it; 0, 80, 208 and a newer size with a field set
    /// are refused, never laid out as 1.0 with the runs dropped (issue 28 row 8).
    @Test func layoutOptionsRefuseSizesTheyDoNotKnow() throws {
        let font = try loadFont(TestFonts.sans)
        defer { _ = inkhit_font_release(font) }
        let fonts: [inkhit_font?] = [font]
        let text = "underlined"
        var run = inkhit_text_run()
        run.start = 0; run.end = 10; run.set = UInt32(INKHIT_RUN_UNDERLINE); run.underline = Int32(INKHIT_UNDERLINE_SINGLE)
        let size = MemoryLayout<inkhit_layout_options>.size
        let raw = UnsafeMutableRawPointer.allocate(byteCount: size + 64, alignment: 16)
        defer { raw.deallocate() }
        let o = raw.assumingMemoryBound(to: inkhit_layout_options.self)
        func layout(_ structSize: Int, tail: UInt8 = 0) -> (inkhit_status, Int) {
            raw.initializeMemory(as: UInt8.self, repeating: 0, count: size + 64)
            ok(inkhit_layout_options_init_sized(o, size))
            o.pointee.struct_size = UInt32(structSize)
            (raw + size + 8).storeBytes(of: tail, as: UInt8.self)
            var decorations = -1
            return fonts.withUnsafeBufferPointer { f in
                withUnsafePointer(to: run) { r in
                    o.pointee.fonts = f.baseAddress
                    o.pointee.font_count = 1
                    o.pointee.runs = r
                    o.pointee.run_count = 1
                    var l: inkhit_layout?
                    let status = inkhit_layout_create_utf8(text, text.utf8.count, o, &l)
                    if status == 0 { ok(inkhit_layout_decoration_count(l, &decorations)); _ = inkhit_layout_release(l) }
                    return (status, decorations)
                }
            }
        }
        #expect(layout(size) == (0, 1))
        #expect(layout(size + 16) == (0, 1))                 // a newer header's struct with nothing set past this one's
        let size10 = MemoryLayout<inkhit_layout_options>.offset(of: \inkhit_layout_options.runs)!
        #expect(layout(size10) == (0, 0))                    // 1.0: the runs are past its end, never read
        for bad in [0, 80, size10 - 8, size - 8, 1, size10 + 8, Int(UInt32.max)] {
            let (status, _) = layout(bad)
            #expect(status == inkhit_status(INKHIT_ERROR_INVALID_ARGUMENT), "struct_size \(bad)")
            #expect(lastError.contains("options->struct_size is \(bad)"), "\(lastError)")
        }
        let (status, _) = layout(size + 16, tail: 1)
        #expect(status == inkhit_status(INKHIT_ERROR_INVALID_ARGUMENT) && lastError.contains("past byte \(size)"))
        // The 1.0 init function (a 1.0 program's call) writes 1.0's size, which reads as 1.0.
        raw.initializeMemory(as: UInt8.self, repeating: 0xAB, count: size + 64)
        ok(inkhit_layout_options_init(o))
        #expect(Int(o.pointee.struct_size) == size10 && (raw + size10).load(as: UInt8.self) == 0xAB)
    }
}
