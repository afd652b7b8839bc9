import CInkHit
import CInkHitRuntime
import InkGeometry
import InkHit
import InkText

// Rich text in the C interface (inkhit.h, since 1.1): the grown `inkhit_layout_options` (runs, exclusions,
// line height, paragraph spacing, first-line indent), the layout's decorations and the hit that names them.

/// Where `inkhit_layout_options` grew.
enum LayoutOptionsLayout {
    /// Bytes of version 1.0's struct: its fields end where `runs` begins (`struct_size` is in its padding).
    static let size10 = MemoryLayout<inkhit_layout_options>.offset(of: \inkhit_layout_options.runs)!
    /// Bytes of this version's struct.
    static let size = MemoryLayout<inkhit_layout_options>.size
    static let structSizeOffset = MemoryLayout<inkhit_layout_options>.offset(of: \inkhit_layout_options.struct_size)!
}

/// Writes the defaults into the first `bytes` bytes of `*options` (never more: a 1.0 caller's struct is
/// shorter than this one), with `struct_size` set to `structSize`.
func writeDefaults(_ options: UnsafeMutablePointer<inkhit_layout_options>, bytes: Int, structSize: UInt32) {
    var d = inkhit_layout_options(
        fonts: nil, font_count: 0, size: 16, width: 0, origin: inkhit_point(x: 0, y: 0),
        transform: inkhit_transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0), tolerance: 0,
        links: nil, link_count: 0, attachments: nil, attachment_count: 0, cache: nil,
        max_lines: 0, alignment: Int32(INKHIT_ALIGN_LEFT), direction: Int32(INKHIT_DIRECTION_AUTO),
        struct_size: structSize, runs: nil, run_count: 0, exclusions: nil, exclusion_count: 0,
        line_height: 0, paragraph_spacing: 0, first_line_indent: 0)
    withUnsafeBytes(of: &d) { UnsafeMutableRawPointer(options).copyMemory(from: $0.baseAddress!, byteCount: bytes) }
}

/// The caller's options, read as the version its `struct_size` names and never past it: all of them for this
/// version's size (or a newer header's, whose extra bytes must be zero: `checkStructSize`), version 1.0's fields
/// for 1.0's size (the rest left at their defaults; the 1.0 init function writes that size). Any other size (0,
/// a struct filled by hand) is refused, never laid out as 1.0 with its runs and exclusions dropped.
func readOptions(_ p: UnsafePointer<inkhit_layout_options>) throws(CError) -> inkhit_layout_options {
    let raw = UnsafeRawPointer(p)
    let size = Int(raw.loadUnaligned(fromByteOffset: LayoutOptionsLayout.structSizeOffset, as: UInt32.self))
    try checkStructSize(raw, size, known: [LayoutOptionsLayout.size10, LayoutOptionsLayout.size], "options",
                        type: "inkhit_layout_options", init: "inkhit_layout_options_init")
    if size >= LayoutOptionsLayout.size { return p.pointee }
    var o = inkhit_layout_options()
    withUnsafeMutableBytes(of: &o) { $0.baseAddress!.copyMemory(from: raw, byteCount: LayoutOptionsLayout.size10) }
    return o
}

/// `inkhit_layout_options_init_sized` (inkhit.h).
@_cdecl("inkhit_layout_options_init_sized")
public func inkhit_layout_options_init_sized(_ options: UnsafeMutablePointer<inkhit_layout_options>?, _ size: Int) -> inkhit_status {
    call("inkhit_layout_options_init_sized") { () throws(CError) in
        guard let options else { throw .null("options") }
        guard size == LayoutOptionsLayout.size10 || size == LayoutOptionsLayout.size else {
            throw .argument("size \(UInt(bitPattern: size)) is not a size of inkhit_layout_options this library knows "
                            + "(\(LayoutOptionsLayout.size10) for version 1.0, \(LayoutOptionsLayout.size) for 1.1 and 1.2)")
        }
        writeDefaults(options, bytes: size, structSize: UInt32(size))
    }
}

/// The runs of the options (offsets in the text's units), with the exclusions, line height, paragraph
/// spacing and indent put into `paragraph`.
func richText(_ o: inkhit_layout_options, offsets: OffsetMap, fontCount: Int,
              paragraph: inout ParagraphStyle) throws(CError) -> [TextRun] {
    guard Int(o.struct_size) >= LayoutOptionsLayout.size else { return [] }
    if o.line_height != 0 {
        let lh = try finite(o.line_height, "options->line_height")
        guard lh > 0 else { throw .argument("options->line_height must be > 0, or 0 for 1 (got \(show(lh)))") }
        paragraph.lineHeight = lh
    }
    paragraph.paragraphSpacing = try finite(o.paragraph_spacing, "options->paragraph_spacing")
    guard paragraph.paragraphSpacing >= 0 else {
        throw .argument("options->paragraph_spacing must be >= 0 (got \(show(paragraph.paragraphSpacing)))")
    }
    paragraph.firstLineIndent = try finite(o.first_line_indent, "options->first_line_indent")
    var runs: [TextRun] = []
    for (i, r) in try buffer(o.runs, o.run_count, "options->runs", countName: "options->run_count").enumerated() {
        runs.append(try run(r, "options->runs[\(i)]", offsets: offsets, fontCount: fontCount))
    }
    for (i, e) in try buffer(o.exclusions, o.exclusion_count, "options->exclusions", countName: "options->exclusion_count").enumerated() {
        paragraph.exclusions.append(try exclusion(e, "options->exclusions[\(i)]"))
    }
    return runs
}

private func run(_ r: inkhit_text_run, _ name: String, offsets: OffsetMap, fontCount: Int) throws(CError) -> TextRun {
    let known = UInt32(INKHIT_RUN_FONTS | INKHIT_RUN_SIZE | INKHIT_RUN_UNDERLINE | INKHIT_RUN_STRIKETHROUGH
                       | INKHIT_RUN_OVERLINE | INKHIT_RUN_BASELINE_SHIFT | INKHIT_RUN_LETTER_SPACING)
    guard r.set & ~known == 0 else { throw .argument("\(name).set has bits that are not INKHIT_RUN_ values (\(r.set))") }
    let start = try offsets.utf16(r.start, name + ".start", pastEnd: INKHIT_ERROR_LAYOUT)
    let end = try offsets.utf16(r.end, name + ".end", pastEnd: INKHIT_ERROR_LAYOUT)
    var run = TextRun(range: start..<max(start, end))
    guard start < end else { throw CError(INKHIT_ERROR_LAYOUT, "\(name) \(r.start)..<\(r.end) is empty or reversed") }
    func has(_ bit: Int) -> Bool { r.set & UInt32(bit) != 0 }
    if has(INKHIT_RUN_FONTS) {
        let chain = try buffer(r.fonts, r.font_count, name + ".fonts", countName: name + ".font_count")
        guard !chain.isEmpty, chain.count <= 4096 else { throw .argument("\(name).font_count must be 1 to 4096 (got \(chain.count))") }
        if let bad = chain.first(where: { Int($0) >= fontCount }) {
            throw CError(INKHIT_ERROR_LAYOUT, "\(name).fonts names font \(bad); options->font_count is \(fontCount)")
        }
        run.fonts = chain.map(Int.init)
    }
    if has(INKHIT_RUN_SIZE) { run.size = try finite(r.size, name + ".size") }
    if has(INKHIT_RUN_UNDERLINE) {
        switch Int(r.underline) {
        case INKHIT_UNDERLINE_NONE: run.underline = TextRun.Underline.none
        case INKHIT_UNDERLINE_SINGLE: run.underline = .single
        case INKHIT_UNDERLINE_DOUBLE: run.underline = .double
        default: throw .argument("\(name).underline \(r.underline) is not an INKHIT_UNDERLINE_ value")
        }
    }
    for (bit, value, field) in [(INKHIT_RUN_STRIKETHROUGH, r.strikethrough, "strikethrough"), (INKHIT_RUN_OVERLINE, r.overline, "overline")]
    where has(bit) {
        guard value == 0 || value == 1 else { throw .argument("\(name).\(field) must be 0 or 1 (got \(value))") }
        if bit == INKHIT_RUN_STRIKETHROUGH { run.strikethrough = value == 1 } else { run.overline = value == 1 }
    }
    if has(INKHIT_RUN_BASELINE_SHIFT) { run.baselineShift = try finite(r.baseline_shift, name + ".baseline_shift") }
    if has(INKHIT_RUN_LETTER_SPACING) { run.letterSpacing = try finite(r.letter_spacing, name + ".letter_spacing") }
    return run
}

private func exclusion(_ e: inkhit_exclusion, _ name: String) throws(CError) -> TextExclusion {
    switch Int(e.kind) {
    case INKHIT_EXCLUSION_RECT: return .rect(try rect(e.rect, name + ".rect"))
    case INKHIT_EXCLUSION_ELLIPSE: return .ellipse(try rect(e.rect, name + ".rect"))
    case INKHIT_EXCLUSION_PATH:
        let bytes = try buffer(e.path, e.path_length, name + ".path", countName: name + ".path_length")
        let d = try bytes.withMemoryRebound(to: UInt8.self) { (b) throws(CError) -> String in try utf8String(b, name + ".path") }
        do { return .path(try SVGPathData.elements(d)) } catch {
            throw CError(INKHIT_ERROR_LAYOUT, "\(name).path: \(error)")
        }
    default: throw .argument("\(name).kind \(e.kind) is not an INKHIT_EXCLUSION_ value")
    }
}

/// `inkhit_layout_decoration_count` (inkhit.h).
@_cdecl("inkhit_layout_decoration_count")
public func inkhit_layout_decoration_count(_ layout: OpaquePointer?, _ out: UnsafeMutablePointer<Int>?) -> inkhit_status {
    call("inkhit_layout_decoration_count") { () throws(CError) in
        guard let out else { throw .null("out") }
        out.pointee = try resolve(layout, .layout, "layout", as: LayoutBox.self).layout.decorations.count
    }
}

/// `inkhit_layout_decorations` (inkhit.h).
@_cdecl("inkhit_layout_decorations")
public func inkhit_layout_decorations(_ layout: OpaquePointer?, _ first: Int, _ n: Int,
                                      _ out: UnsafeMutablePointer<inkhit_layout_decoration>?) -> inkhit_status {
    call("inkhit_layout_decorations") { () throws(CError) in
        let l = try resolve(layout, .layout, "layout", as: LayoutBox.self).layout
        let f = try count(first, "first"), k = try count(n, "count")
        guard f <= l.decorations.count, k <= l.decorations.count - f else {
            throw .argument("decorations \(f) ..< \(UInt(f) + UInt(k)) go past the layout's \(l.decorations.count) decorations")
        }
        let dest = try mutableBuffer(out, k, "out", countName: "count")
        for j in 0..<k {
            let d = l.decorations[f + j]
            dest[j] = inkhit_layout_decoration(kind: Int32(decorationKind(d.kind)), reserved: 0, rect: cRect(d.rect),
                                               utf16_start: Int64(d.utf16.lowerBound), utf16_end: Int64(d.utf16.upperBound),
                                               line: Int64(d.line))
        }
    }
}

func decorationKind(_ k: TextDecoration.Kind) -> Int {
    switch k {
    case .underline: return INKHIT_DECORATION_UNDERLINE
    case .strikethrough: return INKHIT_DECORATION_STRIKETHROUGH
    case .overline: return INKHIT_DECORATION_OVERLINE
    }
}

/// `inkhit_layout_hit_decoration` (inkhit.h).
@_cdecl("inkhit_layout_hit_decoration")
public func inkhit_layout_hit_decoration(_ layout: OpaquePointer?, _ x: Double, _ y: Double, _ radius: Double,
                                         _ out: UnsafeMutablePointer<inkhit_text_hit>?,
                                         _ decorationOut: UnsafeMutablePointer<Int64>?) -> inkhit_status {
    let thread = ihr_current()
    defer { ihr_unprotect_in(thread) }      // ends the protection `lookup` gives, on every path
    let function: StaticString = "inkhit_layout_hit_decoration"
    guard let out else { return CError.null("out").report(function) }
    out.pointee = missTextHit
    guard let decorationOut else { return CError.null("decoration_out").report(function) }
    decorationOut.pointee = -1
    guard let box = lookup(layout, .layout, as: LayoutBox.self, in: thread) else {
        return handleError(layout, .layout, "layout").report(function)
    }
    guard radiusIsValid(radius) else { return radiusError(radius).report(function) }
    guard x.isFinite, y.isFinite else { return pointError(x, y).report(function) }
    box.withBorrowed { b in
        let p = Point(x, y)
        let h = b.layout.hit(at: p, radius: radius)
        out.pointee = cTextHit(h)
        // The stroke the hit is on: the decoration index answers the same query.
        if h?.decoration != nil, let d = b.layout.sceneDecorations.hit(at: p, radius: radius) {
            decorationOut.pointee = Int64(d.placement)
        }
    }
    return inkhit_status(INKHIT_OK)
}
