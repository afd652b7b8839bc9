// Fuzzer for the C interface (inkhit.h) as a C program sees it: the input bytes are decoded into a sequence
// of calls — fonts, caches, builders, indexes, layouts, scenes and snapshots made, used and released, with
// hostile arguments everywhere (NaN, ±∞, huge and negative numbers, made-up and stale handles, handles of
// the wrong kind, NULL pointers, counts that do not match, invalid UTF-8, shapes far too big to build,
// limits changed between calls). Invariants: every status is one the header defines; a call that makes an
// object writes a live handle and one that fails writes none; a handle released once is INVALID_HANDLE
// from then on; `inkhit_handle_count` always equals the handles the sequence holds; releasing them all
// brings it back to where it started. Seeds: written by the fuzzer itself (INKHIT_FUZZ_WRITE_SEEDS=DIR).
//
// Stepped around (the bounded GlyphShape build: `BoundedBuildCLITests.rowsOfBoundedFlattening`):
// plain outlines are placed at most 10,000 view px per em and custom outlines at moderate scales, since
// flattening them is not yet bounded before it allocates.

#if canImport(Glibc)
import Glibc
#endif
import CInkHit
import InkGeometry

@_cdecl("LLVMFuzzerTestOneInput")
public func capiFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    var vm = CallSequence(ByteReader(UnsafeBufferPointer(start: data, count: size)))
    vm.run()
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func capiFuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    if let dir = getenv("INKHIT_FUZZ_WRITE_SEEDS") { CallSequence.writeSeeds(String(cString: dir)); exit(0) }
    return 0
}

/// One input's calls and the handles they hold.
struct CallSequence {
    var r: ByteReader
    /// Live handles by kind (0 font, 1 cache, 2 builder, 3 index, 4 layout, 5 scene, 6 snapshot).
    var live: [[OpaquePointer]] = Array(repeating: [], count: 7)
    /// Handles released by this sequence (stale ones, for hostile calls).
    var released: [OpaquePointer] = []
    let baseline = inkhit_handle_count()
    var nodes: [UInt64] = [0]

    init(_ r: ByteReader) { self.r = r }

    static let fonts = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
                        "/nonexistent.ttf", "/dev/zero", "/"]

    mutating func run() {
        var limits = inkhit_limits(max_seconds_per_call: 2, max_shape_bytes_per_call: 256 << 20)
        check(inkhit_limits_set(&limits), "limits_set")
        var steps = 0
        while !r.isAtEnd && steps < 64 {
            steps += 1
            step()
            let count = inkhit_handle_count()
            if count != baseline + live.reduce(0, { $0 + $1.count }) {
                violated("inkhit_handle_count \(count), the sequence holds \(live.map(\.count)) over \(baseline)")
            }
        }
        for (kind, handles) in live.enumerated() { for h in handles { check(release(kind, h), "final release") } }
        if inkhit_handle_count() != baseline { violated("handles left: \(inkhit_handle_count()) vs \(baseline)") }
    }

    func check(_ status: inkhit_status, _ what: String) {
        guard (0...12).contains(status) else { violated("\(what): unknown status \(status)") }
        if status != 0 && strlen(inkhit_last_error()) == 0 { violated("\(what): failed without a message") }
    }

    /// A handle of `kind`: a live one mostly, else a stale one, one of another kind, NULL or made up.
    mutating func handle(_ kind: Int) -> OpaquePointer? {
        switch r.u8() % 10 {
        case 0: return nil
        case 1: return released.isEmpty ? nil : released[Int(r.u8()) % released.count]
        case 2: let other = live[Int(r.u8()) % 7]; return other.isEmpty ? nil : other[Int(r.u8()) % other.count]
        case 3: return OpaquePointer(bitPattern: UInt(r.u64() | 1))
        default: return live[kind].isEmpty ? nil : live[kind][Int(r.u8()) % live[kind].count]
        }
    }

    mutating func keep(_ status: inkhit_status, _ h: OpaquePointer?, _ kind: Int, _ what: String) {
        check(status, what)
        if status == 0 {
            guard let h else { violated("\(what): OK without a handle") }
            live[kind].append(h)
        } else if h != nil { violated("\(what): failed (\(status)) but wrote a handle") }
    }

    func release(_ kind: Int, _ h: OpaquePointer?) -> inkhit_status {
        switch kind {
        case 0: return inkhit_font_release(h)
        case 1: return inkhit_shape_cache_release(h)
        case 2: return inkhit_builder_release(h)
        case 3: return inkhit_index_release(h)
        case 4: return inkhit_layout_release(h)
        case 5: return inkhit_scene_release(h)
        default: return inkhit_snapshot_release(h)
        }
    }

    mutating func number() -> Double { r.coordinate() }
    mutating func transform(maxScale: Double) -> inkhit_transform {
        let t = r.transform()
        let s = max(abs(t.a), abs(t.b), abs(t.c), abs(t.d))
        let k = s.isFinite && s > maxScale ? maxScale / s : 1
        return inkhit_transform(a: t.a * k, b: t.b * k, c: t.c * k, d: t.d * k, tx: t.tx, ty: t.ty)
    }

    mutating func step() {
        switch r.u8() % 14 {
        case 0:
            var f: inkhit_font?
            keep(inkhit_font_from_path(Self.fonts[Int(r.u8()) % Self.fonts.count], Int32(r.u8() % 3) - 1, &f), f, 0, "font_from_path")
        case 1:
            var f: inkhit_font?
            let bytes = (0..<Int(r.u8())).map { _ in r.u8() }
            keep(inkhit_font_from_bytes(bytes, bytes.count, 0, &f), f, 0, "font_from_bytes")
        case 2:
            var c: inkhit_shape_cache?
            keep(inkhit_shape_cache_create([0, 1000, 1 << 20, Int.max][Int(r.u8() % 4)], &c), c, 1, "shape_cache_create")
        case 3:
            var b: inkhit_builder?
            keep(inkhit_builder_create(r.magnitude(), &b), b, 2, "builder_create")
        case 4: addGlyph()
        case 5: addOutline()
        case 6:
            var i: inkhit_index?
            keep(inkhit_builder_build(handle(2), &i), i, 3, "builder_build")
        case 7: queryIndex()
        case 8: makeLayout()
        case 9: queryLayout()
        case 10: editScene()
        case 11:
            var s: inkhit_snapshot?
            keep(inkhit_scene_snapshot(handle(5), r.magnitude(), &s), s, 6, "scene_snapshot")
            var hit = inkhit_scene_hit()
            check(inkhit_snapshot_hit(handle(6), number(), number(), r.magnitude(), &hit), "snapshot_hit")
        case 12:
            let kind = Int(r.u8() % 7)
            guard !live[kind].isEmpty else { return }
            let h = live[kind].remove(at: Int(r.u8()) % live[kind].count)
            if release(kind, h) != 0 { violated("release of a live handle failed: \(String(cString: inkhit_last_error()))") }
            if release(kind, h) != inkhit_status(INKHIT_ERROR_INVALID_HANDLE) { violated("a double release was not INVALID_HANDLE") }
            released.append(h)
        default:
            var limits = inkhit_limits(max_seconds_per_call: [0, 2, 1e-6, .nan, -1][Int(r.u8() % 5)],
                                       max_shape_bytes_per_call: [0, 64, 1 << 20, UInt64.max][Int(r.u8() % 4)])
            check(inkhit_limits_set(&limits), "limits_set")
            var back = inkhit_limits()
            check(inkhit_limits_get(&back), "limits_get")
            if back.max_seconds_per_call == 0 || back.max_seconds_per_call > 2 {
                var bounded = inkhit_limits(max_seconds_per_call: 2, max_shape_bytes_per_call: back.max_shape_bytes_per_call)
                check(inkhit_limits_set(&bounded), "limits_set")          // every input stays within seconds
            }
        }
    }

    mutating func addGlyph() {
        var size = r.magnitude() * 64
        if !(abs(size) <= 10_000) { size = 16 }                    // plain outlines: see the note at the top
        var p = inkhit_glyph_placement(font: handle(0), glyph: UInt32(r.u16()) % 7000, size: size,
                                       origin: inkhit_point(x: number(), y: number()), transform: transform(maxScale: 1))
        var index = 0
        check(inkhit_builder_add_glyph(handle(2), handle(1), &p, &index), "builder_add_glyph")
        var many = [p, p]
        many[1].glyph = UInt32(r.u16())
        var added = 0
        check(inkhit_builder_add_glyphs(handle(2), handle(1), many, Int(r.u8() % 3), &added), "builder_add_glyphs")
    }

    mutating func addOutline() {
        let n = Int(r.u8() % 64)
        var verbs: [UInt8] = [], points: [inkhit_point] = []
        for _ in 0..<n {
            let v = r.u8() % 6                                      // 5: not a verb
            verbs.append(v)
            let need = [1, 1, 2, 3, 0, 1][Int(v)]
            for _ in 0..<need { points.append(inkhit_point(x: Double(r.i16()) / 32, y: Double(r.i16()) / 32)) }
        }
        if r.u8() % 8 == 0 { points.append(inkhit_point(x: .nan, y: 0)) }
        var t = transform(maxScale: 10)
        var index = 0
        let (builder, cache, key, fill, identity) = (handle(2), handle(1), r.u64(), Int32(r.u8() % 3), r.u8() % 4 == 0)
        let status = withUnsafePointer(to: &t) { tp in
            inkhit_builder_add_outline(builder, cache, key, verbs, verbs.count, points, points.count, fill, identity ? nil : tp, &index)
        }
        check(status, "builder_add_outline")
    }

    mutating func queryIndex() {
        let idx = handle(3)
        var h = inkhit_hit()
        check(inkhit_index_hit(idx, number(), number(), r.magnitude() * (r.u8() % 8 == 0 ? -1 : 1), &h), "index_hit")
        let pts = (0..<Int(r.u8() % 8)).map { _ in inkhit_point(x: number(), y: number()) }
        var out = [inkhit_hit](repeating: inkhit_hit(), count: pts.count)
        check(inkhit_index_hits(idx, pts, pts.count, r.magnitude(), &out), "index_hits")
        var inside: Int32 = 0, placement: Int64 = 0
        check(inkhit_index_contains(idx, number(), number(), &inside), "index_contains")
        check(inkhit_index_topmost(idx, number(), number(), &placement), "index_topmost")
        var info = inkhit_index_info()
        check(inkhit_index_get_info(idx, &info), "index_get_info")
    }

    mutating func makeLayout() {
        var options = inkhit_layout_options()
        check(inkhit_layout_options_init(&options), "layout_options_init")
        let fonts = (0..<Int(r.u8() % 3)).map { _ in handle(0) }
        let text = (0..<Int(r.u8() % 48)).map { _ in r.u8() % 4 == 0 ? r.u8() : UInt8(0x20 + r.u8() % 90) }
        let links = (0..<Int(r.u8() % 3)).map { _ in inkhit_text_link(start: UInt64(r.u8() % 50), end: UInt64(r.u8() % 50)) }
        let attachments = (0..<Int(r.u8() % 2)).map { _ in
            inkhit_text_attachment(at: UInt64(r.u8() % 50), width: number(), ascent: number(), descent: number(), corner_radius: number())
        }
        var size = r.magnitude() * 16
        if !(abs(size) <= 2000) { size = 16 }                      // plain outlines: see the note at the top
        var layout: inkhit_layout?
        fonts.withUnsafeBufferPointer { f in
            links.withUnsafeBufferPointer { l in
                attachments.withUnsafeBufferPointer { a in
                    options.fonts = f.baseAddress; options.font_count = f.count
                    options.size = size; options.width = r.magnitude() * 40
                    options.links = l.baseAddress; options.link_count = l.count
                    options.attachments = a.baseAddress; options.attachment_count = a.count
                    options.max_lines = UInt32(r.u8() % 4); options.alignment = Int32(r.u8() % 4); options.direction = Int32(r.u8() % 4)
                    options.transform = transform(maxScale: 4)
                    options.cache = handle(1)
                    keep(text.withUnsafeBufferPointer { t in
                        t.withMemoryRebound(to: CChar.self) { inkhit_layout_create_utf8($0.baseAddress, t.count, &options, &layout) }
                    }, layout, 4, "layout_create_utf8")
                }
            }
        }
    }

    mutating func queryLayout() {
        let l = handle(4)
        var hit = inkhit_text_hit()
        check(inkhit_layout_hit(l, number(), number(), r.magnitude(), Int32(r.u8() % 5), &hit), "layout_hit")
        check(inkhit_layout_link_hit(l, number(), number(), r.magnitude(), &hit), "layout_link_hit")
        var caret = inkhit_caret(), rect = inkhit_caret_rect()
        check(inkhit_layout_caret(l, number(), number(), &caret), "layout_caret")
        check(inkhit_layout_caret_rect(l, UInt64(r.u8()), Int32(r.u8() % 3), &rect), "layout_caret_rect")
        var info = inkhit_layout_info()
        check(inkhit_layout_get_info(l, &info), "layout_get_info")
        var glyphs = [inkhit_layout_glyph](repeating: inkhit_layout_glyph(), count: 4)
        check(inkhit_layout_glyphs(l, Int(r.u8() % 8), Int(r.u8() % 5), &glyphs), "layout_glyphs")
    }

    mutating func editScene() {
        var node = inkhit_node()
        check(inkhit_node_init(&node, UInt64(r.u8() % 16)), "node_init")
        let big = r.u8() % 4 == 0 ? 1e7 : 100
        node.bounds = inkhit_rect(min_x: number(), min_y: number(), max_x: Double(r.u8()) * big / 255, max_y: Double(r.u8()) * big / 255)
        node.transform = transform(maxScale: r.u8() % 8 == 0 ? 1e6 : 2)
        node.shape = Int32(r.u8() % 6)
        node.corner_radius = number()
        node.flags = UInt32(r.u8() % 9)
        let verbs: [UInt8] = [0, 2, 2, 3, 4], points = (0..<8).map { _ in inkhit_point(x: number(), y: number()) }
        let layout = handle(4)
        node.text = layout
        let status: inkhit_status = verbs.withUnsafeBufferPointer { v in
            points.withUnsafeBufferPointer { p in
                node.verbs = v.baseAddress; node.verb_count = v.count; node.points = p.baseAddress; node.point_count = p.count
                switch r.u8() % 5 {
                case 0:
                    var s: inkhit_scene?
                    let st = inkhit_scene_create(&node, &s)
                    keep(st, s, 5, "scene_create")
                    return st
                case 1: return inkhit_scene_add(handle(5), UInt64(r.u8() % 16), &node)
                case 2: return inkhit_scene_update(handle(5), &node)
                case 3: var t = transform(maxScale: 1e6); return inkhit_scene_set_transform(handle(5), UInt64(r.u8() % 16), &t)
                default: return inkhit_scene_remove(handle(5), UInt64(r.u8() % 16))
                }
            }
        }
        check(status, "scene edit")
    }

    static func writeSeeds(_ dir: String) {
        // A font, a builder, glyphs and outlines, an index and its queries, a layout, a scene and a snapshot,
        // releases in between.
        let seeds: [(String, [UInt8])] = [
            ("index", [0, 0, 1, 3, 40, 4, 9, 4, 4, 0, 2, 0, 5, 40, 5, 9, 6, 4, 7, 4, 12, 3, 7, 9]),
            ("layout", [0, 0, 1, 2, 0, 8, 1, 4, 20, 40, 41, 42, 43, 44, 45, 46, 47, 9, 4, 12, 4]),
            ("scene", [10, 0, 0, 4, 0, 0, 9, 9, 2, 10, 1, 4, 2, 9, 9, 3, 11, 4, 4, 12, 5, 11]),
        ]
        for (name, bytes) in seeds {
            guard let f = fopen(dir + "/" + name, "wb") else { continue }
            _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
            fclose(f)
        }
    }
}
