import CInkHit
import CInkHitRuntime
import InkFreeType
import InkGeometry
import InkHit
import InkText

// Text layouts (inkhit.h, "Text layout"). Links and attachments are given to `TextLayout` with their index as
// the tag ("0", "1", …: short strings, stored inline), so a hit names them by index without a table.

/// `inkhit_layout_options_init` (inkhit.h): version 1.0's fields only (a 1.0 caller's struct is that long).
@_cdecl("inkhit_layout_options_init")
public func inkhit_layout_options_init(_ options: UnsafeMutablePointer<inkhit_layout_options>?) -> inkhit_status {
    call("inkhit_layout_options_init") { () throws(CError) in
        guard let options else { throw .null("options") }
        writeDefaults(options, bytes: LayoutOptionsLayout.size10, structSize: UInt32(LayoutOptionsLayout.size10))
    }
}

/// The text's own offsets (UTF-8 bytes or UTF-16 units) → UTF-16 offsets, checked on scalar boundaries.
struct OffsetMap {
    let text: String
    let isUTF8: Bool
    let length: Int

    /// The UTF-16 offset of text offset `o` (0 ... length) named `name`; past the end is `pastEnd`.
    func utf16(_ o: UInt64, _ name: String, pastEnd: Int = INKHIT_ERROR_INVALID_ARGUMENT) throws(CError) -> Int {
        guard o <= UInt64(length) else {
            throw CError(pastEnd, "\(name) \(o) is past the end of the text (\(length) \(isUTF8 ? "bytes" : "UTF-16 units"))")
        }
        let o = Int(o)
        if isUTF8 {
            let i = text.utf8.index(text.utf8.startIndex, offsetBy: o)
            guard i == text.utf8.endIndex || text.utf8[i] & 0xC0 != 0x80 else {
                throw CError(INKHIT_ERROR_INVALID_TEXT, "\(name) \(o) is inside the UTF-8 encoding of a character")
            }
            return text.utf16.distance(from: text.utf16.startIndex, to: i)
        }
        let i = text.utf16.index(text.utf16.startIndex, offsetBy: o)
        guard !isInsideSurrogatePair(text.utf16, at: i) else {         // the layout's own rule
            throw CError(INKHIT_ERROR_INVALID_TEXT, "\(name) \(o) is between the two UTF-16 units of a character")
        }
        return o
    }
}

private func makeLayout(_ text: String, isUTF8: Bool, length: Int,
                        _ optionsIn: UnsafePointer<inkhit_layout_options>?) throws(CError) -> LayoutBox {
    guard let optionsIn else { throw .null("options") }
    let o = try readOptions(optionsIn)
    let fontHandles = try buffer(o.fonts, o.font_count, "options->fonts", countName: "options->font_count")
    guard !fontHandles.isEmpty else { throw .argument("options->font_count is 0: a layout needs at least one font") }
    var fonts: [Font] = []
    fonts.reserveCapacity(fontHandles.count)
    for (i, h) in fontHandles.enumerated() {
        fonts.append(try resolve(h, .font, "options->fonts[\(i)]", as: FontBox.self).font)
    }
    let size = try finite(o.size, "options->size")
    guard size > 0 else { throw .argument("options->size must be > 0 (got \(show(size)))") }
    let width = try finite(o.width, "options->width")
    guard width >= 0 else { throw .argument("options->width must be > 0, or 0 for no wrapping (got \(show(width)))") }
    let origin = try point(o.origin, "options->origin")
    let t = try transform(o.transform, "options->transform")
    guard t.inverted() != nil else { throw .argument("options->transform \(describe(o.transform)) is not invertible") }
    let tol = try tolerance(o.tolerance)
    let alignment: ParagraphStyle.Alignment
    switch Int(o.alignment) {
    case INKHIT_ALIGN_LEFT: alignment = .left
    case INKHIT_ALIGN_CENTER: alignment = .center
    case INKHIT_ALIGN_RIGHT: alignment = .right
    default: throw .argument("options->alignment \(o.alignment) is not an INKHIT_ALIGN_ value")
    }
    let direction: ParagraphStyle.Direction
    switch Int(o.direction) {
    case INKHIT_DIRECTION_AUTO: direction = .auto
    case INKHIT_DIRECTION_LEFT_TO_RIGHT: direction = .leftToRight
    case INKHIT_DIRECTION_RIGHT_TO_LEFT: direction = .rightToLeft
    default: throw .argument("options->direction \(o.direction) is not an INKHIT_DIRECTION_ value")
    }
    let cache = try optionalCache(o.cache, "options->cache")?.glyphs ?? .shared
    let offsets = OffsetMap(text: text, isUTF8: isUTF8, length: length)
    let links = try layoutLinks(o, offsets)
    let attachments = try layoutAttachments(o, offsets)
    var paragraph = ParagraphStyle(width: width > 0 ? width : nil, alignment: alignment,
                                   maxLines: o.max_lines > 0 ? Int(o.max_lines) : nil, direction: direction, origin: origin)
    let runs = try richText(o, offsets: offsets, fontCount: fonts.count, paragraph: &paragraph)
    let layout = try CallLimits.bounded { (limits, deadline) throws(CError) -> TextLayout in
        do throws(TextError) {
            return try TextLayout(text: text, style: TextStyle(fonts: fonts, size: size), runs: runs, paragraph: paragraph,
                                  links: links, attachments: attachments, transform: t, tolerance: tol, cache: cache,
                                  budget: LayoutBudget(maxShapeBytes: limits.shapeBytes, deadline: deadline))
        } catch {
            throw CError(error)
        }
    }
    return LayoutBox(layout, isUTF8: isUTF8, utf16Length: isUTF8 ? text.utf16.count : length,
                     utf8Length: isUTF8 ? length : text.utf8.count)
}

/// `options->links`: UTF-16 ranges (from the caller's offsets), tagged by their index.
private func layoutLinks(_ o: inkhit_layout_options, _ offsets: OffsetMap) throws(CError) -> [TextLink] {
    let linkList = try buffer(o.links, o.link_count, "options->links", countName: "options->link_count")
    var links: [TextLink] = []
    links.reserveCapacity(linkList.count)
    for (i, l) in linkList.enumerated() {
        let start = try offsets.utf16(l.start, "options->links[\(i)].start", pastEnd: INKHIT_ERROR_LAYOUT)
        let end = try offsets.utf16(l.end, "options->links[\(i)].end", pastEnd: INKHIT_ERROR_LAYOUT)
        guard start < end else {
            throw CError(INKHIT_ERROR_LAYOUT, "options->links[\(i)] \(l.start)..<\(l.end) is empty or reversed")
        }
        links.append(TextLink(range: start..<end, tag: String(i)))
    }
    return links
}

/// `options->attachments`: placeholders' offsets and boxes, tagged by their index.
private func layoutAttachments(_ o: inkhit_layout_options, _ offsets: OffsetMap) throws(CError) -> [TextAttachment] {
    let attachmentList = try buffer(o.attachments, o.attachment_count, "options->attachments",
                                    countName: "options->attachment_count")
    var attachments: [TextAttachment] = []
    attachments.reserveCapacity(attachmentList.count)
    for (i, a) in attachmentList.enumerated() {
        let name = "options->attachments[\(i)]"
        let at = try offsets.utf16(a.at, name + ".at", pastEnd: INKHIT_ERROR_LAYOUT)
        attachments.append(TextAttachment(at: at, width: try finite(a.width, name + ".width"),
                                          ascent: try finite(a.ascent, name + ".ascent"),
                                          descent: try finite(a.descent, name + ".descent"), tag: String(i),
                                          cornerRadius: try finite(a.corner_radius, name + ".corner_radius")))
    }
    return attachments
}

/// The most UTF-8 bytes a text may have before it is decoded: 3 per UTF-16 unit of the layout limit.
private let maxUTF8Bytes = 3 * TextLayout.maxLength

/// `inkhit_layout_create_utf8` (inkhit.h).
@_cdecl("inkhit_layout_create_utf8")
public func inkhit_layout_create_utf8(_ text: UnsafePointer<CChar>?, _ length: Int,
                                      _ options: UnsafePointer<inkhit_layout_options>?,
                                      _ out: UnsafeMutablePointer<OpaquePointer?>?) -> inkhit_status {
    call("inkhit_layout_create_utf8") { () throws(CError) in
        guard let out else { throw .null("out") }
        let n = try count(length, "length")
        guard n <= maxUTF8Bytes else {
            throw CError(INKHIT_ERROR_LIMIT, "length \(n) bytes is more than a layout takes (\(maxUTF8Bytes) bytes, "
                         + "\(TextLayout.maxLength) UTF-16 units)")
        }
        let raw = try buffer(text, n, "text", countName: "length")
        let string = try raw.withMemoryRebound(to: UInt8.self) { (bytes) throws(CError) -> String in
            try utf8String(bytes, "text")
        }
        try publish(try makeLayout(string, isUTF8: true, length: n, options), .layout, to: out)
    }
}

/// `inkhit_layout_create_utf16` (inkhit.h).
@_cdecl("inkhit_layout_create_utf16")
public func inkhit_layout_create_utf16(_ text: UnsafePointer<UInt16>?, _ length: Int,
                                       _ options: UnsafePointer<inkhit_layout_options>?,
                                       _ out: UnsafeMutablePointer<OpaquePointer?>?) -> inkhit_status {
    call("inkhit_layout_create_utf16") { () throws(CError) in
        guard let out else { throw .null("out") }
        let n = try count(length, "length")
        guard n <= TextLayout.maxLength else {
            throw CError(INKHIT_ERROR_LIMIT, "length \(n) is more than the limit of \(TextLayout.maxLength) UTF-16 units")
        }
        let units = try buffer(text, n, "text", countName: "length")
        let string = try utf16String(units, "text")
        try publish(try makeLayout(string, isUTF8: false, length: n, options), .layout, to: out)
    }
}

/// `inkhit_layout_get_info` (inkhit.h).
@_cdecl("inkhit_layout_get_info")
public func inkhit_layout_get_info(_ layout: OpaquePointer?, _ out: UnsafeMutablePointer<inkhit_layout_info>?) -> inkhit_status {
    call("inkhit_layout_get_info") { () throws(CError) in
        guard let out else { throw .null("out") }
        let box = try resolve(layout, .layout, "layout", as: LayoutBox.self)
        let l = box.layout
        let bounds = l.lines.reduce(Rect.empty) { $0.union($1.box) }
        out.pointee = inkhit_layout_info(glyph_count: Int64(l.glyphs.count), line_count: Int64(l.lines.count),
                                         utf16_length: Int64(box.utf16Length), utf8_length: Int64(box.utf8Length),
                                         truncated_start: Int64(l.truncated?.lowerBound ?? -1),
                                         truncated_end: Int64(l.truncated?.upperBound ?? -1), bounds: cRect(bounds))
    }
}

/// `first ..< first + count` within `0 ..< total`, or an error naming what is counted.
private func range(_ first: Int, _ n: Int, total: Int, _ what: String) throws(CError) -> Range<Int> {
    let first = try count(first, "first"), n = try count(n, "count")
    guard first <= total, n <= total - first else {
        throw .argument("\(what) \(first) ..< \(UInt(first) + UInt(n)) go past the layout's \(total) \(what)")
    }
    return first..<(first + n)
}

/// `inkhit_layout_glyphs` (inkhit.h).
@_cdecl("inkhit_layout_glyphs")
public func inkhit_layout_glyphs(_ layout: OpaquePointer?, _ first: Int, _ n: Int,
                                 _ out: UnsafeMutablePointer<inkhit_layout_glyph>?) -> inkhit_status {
    call("inkhit_layout_glyphs") { () throws(CError) in
        let l = try resolve(layout, .layout, "layout", as: LayoutBox.self).layout
        let r = try range(first, n, total: l.glyphs.count, "glyphs")
        let dest = try mutableBuffer(out, r.count, "out", countName: "count")
        for (k, i) in r.enumerated() {
            let g = l.glyphs[i]
            dest[k] = inkhit_layout_glyph(font: Int64(g.font), glyph: g.id.rawValue, right_to_left: g.isRightToLeft ? 1 : 0,
                                          ellipsis: g.isEllipsis ? 1 : 0, x: g.x, y: g.y, size: g.size, advance: g.advance,
                                          utf16_start: Int64(g.utf16.lowerBound), utf16_end: Int64(g.utf16.upperBound),
                                          line: Int64(g.line))
        }
    }
}

/// `inkhit_layout_lines` (inkhit.h).
@_cdecl("inkhit_layout_lines")
public func inkhit_layout_lines(_ layout: OpaquePointer?, _ first: Int, _ n: Int,
                                _ out: UnsafeMutablePointer<inkhit_layout_line>?) -> inkhit_status {
    call("inkhit_layout_lines") { () throws(CError) in
        let l = try resolve(layout, .layout, "layout", as: LayoutBox.self).layout
        let r = try range(first, n, total: l.lines.count, "lines")
        let dest = try mutableBuffer(out, r.count, "out", countName: "count")
        for (k, i) in r.enumerated() {
            let line = l.lines[i]
            dest[k] = inkhit_layout_line(box: cRect(line.box), baseline: line.baseline,
                                         utf16_start: Int64(line.utf16.lowerBound), utf16_end: Int64(line.utf16.upperBound),
                                         content_box: cRect(line.contentBox))
        }
    }
}

let missTextHit = textHit(hit: 0, kind: 0, placement: -1, link: -1, attachment: -1, utf16: -1 ..< -1, utf8: -1 ..< -1,
                          character: -1, line: -1, distance: .nan)

/// An `inkhit_text_hit` from its fields (written one by one: `placement` shares its storage with the 1.0 name).
func textHit(hit: Int32, kind: Int32, placement: Int64, link: Int64, attachment: Int64, utf16: Range<Int64>,
             utf8: Range<Int64>, character: Int64, line: Int64, distance: Double) -> inkhit_text_hit {
    var h = inkhit_text_hit()
    h.hit = hit; h.kind = kind; h.placement = placement; h.link = link; h.attachment = attachment
    h.utf16_start = utf16.lowerBound; h.utf16_end = utf16.upperBound
    h.utf8_start = utf8.lowerBound; h.utf8_end = utf8.upperBound
    h.character = character; h.line = line; h.distance = distance
    return h
}

/// A `TextHit` of a layout made here: its link and attachment tags are their indexes.
func cTextHit(_ t: TextHit?) -> inkhit_text_hit {
    guard let t else { return missTextHit }
    let kind: Int
    switch t.kind {
    case .ink: kind = INKHIT_TEXT_HIT_KIND_INK
    case .radius: kind = INKHIT_TEXT_HIT_KIND_RADIUS
    case .box: kind = INKHIT_TEXT_HIT_KIND_BOX
    }
    return textHit(hit: 1, kind: Int32(kind), placement: Int64(t.placement ?? -1),
                   link: t.link.flatMap { Int64($0) } ?? -1, attachment: t.attachment.flatMap { Int64($0) } ?? -1,
                   utf16: Int64(t.utf16.lowerBound) ..< Int64(t.utf16.upperBound),
                   utf8: Int64(t.utf8.lowerBound) ..< Int64(t.utf8.upperBound),
                   character: Int64(t.character), line: Int64(t.line), distance: t.distance)
}

/// `inkhit_layout_hit` (inkhit.h).
@_cdecl("inkhit_layout_hit")
public func inkhit_layout_hit(_ layout: OpaquePointer?, _ x: Double, _ y: Double, _ radius: Double, _ mode: Int32,
                              _ out: UnsafeMutablePointer<inkhit_text_hit>?) -> inkhit_status {
    let thread = ihr_current()
    defer { ihr_unprotect_in(thread) }
    let function: StaticString = "inkhit_layout_hit"
    guard let out else { return CError.null("out").report(function) }
    out.pointee = missTextHit
    guard let box = lookup(layout, .layout, as: LayoutBox.self, in: thread) else { return handleError(layout, .layout, "layout").report(function) }
    guard radiusIsValid(radius) else { return radiusError(radius).report(function) }
    guard x.isFinite, y.isFinite else { return pointError(x, y).report(function) }
    let m: TextHitMode
    switch Int(mode) {
    case INKHIT_TEXT_HIT_INK: m = .ink
    case INKHIT_TEXT_HIT_INK_OR_EMPTY_GLYPH_BOXES: m = .ink(boxesForGlyphsWithoutInk: true)
    case INKHIT_TEXT_HIT_CHARACTER_BOXES: m = .characterBoxes
    case INKHIT_TEXT_HIT_LINE_BOXES: m = .lineBoxes
    default: return CError.argument("mode \(mode) is not an INKHIT_TEXT_HIT_ value").report(function)
    }
    out.pointee = cTextHit(box.withBorrowed { $0.layout.hit(at: Point(x, y), radius: radius, mode: m) })
    return inkhit_status(INKHIT_OK)
}

/// `inkhit_layout_link_hit` (inkhit.h).
@_cdecl("inkhit_layout_link_hit")
public func inkhit_layout_link_hit(_ layout: OpaquePointer?, _ x: Double, _ y: Double, _ radius: Double,
                                   _ out: UnsafeMutablePointer<inkhit_text_hit>?) -> inkhit_status {
    let thread = ihr_current()
    defer { ihr_unprotect_in(thread) }
    let function: StaticString = "inkhit_layout_link_hit"
    guard let out else { return CError.null("out").report(function) }
    out.pointee = missTextHit
    guard let box = lookup(layout, .layout, as: LayoutBox.self, in: thread) else { return handleError(layout, .layout, "layout").report(function) }
    guard radiusIsValid(radius) else { return radiusError(radius).report(function) }
    guard x.isFinite, y.isFinite else { return pointError(x, y).report(function) }
    if let l = box.withBorrowed({ $0.layout.link(at: Point(x, y), radius: radius) }) {
        var h = cTextHit(l.hit)
        h.link = Int64(l.link.tag) ?? -1
        out.pointee = h
    }
    return inkhit_status(INKHIT_OK)
}

/// The UTF-8 offset of UTF-16 offset `o` of `text`.
private func utf8Offset(_ text: String, utf16 o: Int) -> Int {
    let i = text.utf16.index(text.utf16.startIndex, offsetBy: o)
    return text.utf8.distance(from: text.utf8.startIndex, to: i)
}

/// `inkhit_layout_caret` (inkhit.h).
@_cdecl("inkhit_layout_caret")
public func inkhit_layout_caret(_ layout: OpaquePointer?, _ x: Double, _ y: Double,
                                _ out: UnsafeMutablePointer<inkhit_caret>?) -> inkhit_status {
    call("inkhit_layout_caret") { () throws(CError) in
        guard let out else { throw .null("out") }
        out.pointee = inkhit_caret(found: 0, affinity: 0, utf16: -1, utf8: -1, line: -1)
        let l = try resolve(layout, .layout, "layout", as: LayoutBox.self).layout
        guard x.isFinite, y.isFinite else { throw pointError(x, y) }
        guard let c = l.caret(at: Point(x, y)) else { return }
        out.pointee = inkhit_caret(found: 1, affinity: Int32(c.affinity == .upstream ? INKHIT_AFFINITY_UPSTREAM : INKHIT_AFFINITY_DOWNSTREAM),
                                   utf16: Int64(c.utf16), utf8: Int64(utf8Offset(l.text, utf16: c.utf16)), line: Int64(c.line))
    }
}

/// `inkhit_layout_caret_rect` (inkhit.h).
@_cdecl("inkhit_layout_caret_rect")
public func inkhit_layout_caret_rect(_ layout: OpaquePointer?, _ offset: UInt64, _ affinity: Int32,
                                     _ out: UnsafeMutablePointer<inkhit_caret_rect>?) -> inkhit_status {
    call("inkhit_layout_caret_rect") { () throws(CError) in
        guard let out else { throw .null("out") }
        let origin = inkhit_point(x: .nan, y: .nan)
        out.pointee = inkhit_caret_rect(found: 0, affinity: affinity, line: -1, x: .nan, top: .nan, bottom: .nan,
                                        view_top: origin, view_bottom: origin)
        let box = try resolve(layout, .layout, "layout", as: LayoutBox.self)
        let a: CaretPosition.Affinity
        switch Int(affinity) {
        case INKHIT_AFFINITY_DOWNSTREAM: a = .downstream
        case INKHIT_AFFINITY_UPSTREAM: a = .upstream
        default: throw .argument("affinity \(affinity) is not an INKHIT_AFFINITY_ value")
        }
        let map = OffsetMap(text: box.layout.text, isUTF8: box.isUTF8, length: box.isUTF8 ? box.utf8Length : box.utf16Length)
        let u = try map.utf16(offset, "offset")
        guard let r = box.layout.caretRect(at: u, affinity: a) else { return }
        out.pointee = inkhit_caret_rect(found: 1, affinity: affinity, line: Int64(r.line), x: r.x, top: r.top, bottom: r.bottom,
                                        view_top: cPoint(r.viewTop), view_bottom: cPoint(r.viewBottom))
    }
}

/// `inkhit_layout_release` (inkhit.h).
@_cdecl("inkhit_layout_release")
public func inkhit_layout_release(_ layout: OpaquePointer?) -> inkhit_status {
    releaseHandle(layout, .layout, function: "inkhit_layout_release")
}
