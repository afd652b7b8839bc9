import CInkHit
import InkFreeType
import InkHit
import InkGeometry

// Qt's raster engine (inkhit.h, "Qt's raster engine"): a QGlyphRun's raw font as an inkhit_qt_raw_font, and
// its glyphs placed by InkFreeType's QtRawFont rules.

/// `inkhit_qt_raw_font_init_sized` (inkhit.h).
@_cdecl("inkhit_qt_raw_font_init_sized")
public func inkhit_qt_raw_font_init_sized(_ font: UnsafeMutablePointer<inkhit_qt_raw_font>?, _ size: Int) -> inkhit_status {
    call("inkhit_qt_raw_font_init_sized") { () throws(CError) in
        guard let font else { throw .null("font") }
        guard StructSizes.qtRawFont.contains(size) else {
            throw .argument("size \(UInt(bitPattern: size)) is not a size of inkhit_qt_raw_font this library knows "
                            + "(\(StructSizes.qtRawFont.map(String.init).joined(separator: " or ")))")
        }
        font.pointee = inkhit_qt_raw_font(struct_size: size, pixel_size: 16, hinting: Int32(INKHIT_HINTING_NONE), weight: 400,
                                          style: Int32(INKHIT_QT_STYLE_NORMAL), stretch: 0, qt_version: 0, flags: 0,
                                          probe_glyph: 0, probe_bounds: inkhit_rect(min_x: 0, min_y: 0, max_x: 0, max_y: 0),
                                          head: nil, head_length: 0)
    }
}

/// `inkhit_qt_hinting` (inkhit.h).
@_cdecl("inkhit_qt_hinting")
public func inkhit_qt_hinting(_ preference: Int32, _ fontconfigHintStyle: Int32, _ highDPI: Int32,
                              _ hintingOut: UnsafeMutablePointer<Int32>?) -> inkhit_status {
    call("inkhit_qt_hinting") { () throws(CError) in
        guard let hintingOut else { throw .null("hinting_out") }
        guard highDPI == 0 || highDPI == 1 else { throw .argument("high_dpi must be 0 or 1 (got \(highDPI))") }
        guard (-1...3).contains(fontconfigHintStyle) else {
            throw .argument("fontconfig_hint_style must be -1 (none) or an FC_HINT_* value 0 … 3 (got \(fontconfigHintStyle))")
        }
        guard let h = QtRawFont.hinting(preference: Int(preference),
                                        fontconfigHintStyle: fontconfigHintStyle < 0 ? nil : Int(fontconfigHintStyle),
                                        highDPIScaling: highDPI == 1) else {
            throw .argument("preference must be a QFont::HintingPreference 0 … 3 (got \(preference))")
        }
        hintingOut.pointee = Int32(h.cValue)
    }
}

/// A C caller's `inkhit_qt_raw_font`, checked (ranges are `QtRawFont.problem`'s, checked with the drawing).
func qtRawFont(_ p: UnsafePointer<inkhit_qt_raw_font>?, _ name: String) throws(CError) -> QtRawFont {
    guard let p else { throw .null(name) }
    let q = p.pointee
    try checkStructSize(UnsafeRawPointer(p), structSize(of: p), known: StructSizes.qtRawFont, name, type: "inkhit_qt_raw_font",
                        init: "inkhit_qt_raw_font_init")
    let hinting: GlyphStyle.Hinting
    switch Int(q.hinting) {
    case INKHIT_HINTING_NONE: hinting = .none
    case INKHIT_HINTING_LIGHT: hinting = .light
    case INKHIT_HINTING_FULL: hinting = .full
    default: throw .argument("\(name)->hinting \(q.hinting) is not an INKHIT_HINTING_* value")
    }
    guard let style = QtRawFont.Style(rawValue: Int(q.style)) else {
        throw .argument("\(name)->style \(q.style) is not an INKHIT_QT_STYLE_* value")
    }
    let vertical = UInt32(INKHIT_QT_VERTICAL_SUBPIXEL_POSITIONING), probe = UInt32(INKHIT_QT_PROBE)
    guard q.flags & ~(vertical | probe | UInt32(INKHIT_QT_LAYOUT_DRAW)) == 0 else { throw .argument("\(name)->flags 0x\(String(q.flags, radix: 16)) has unknown bits") }
    var font = QtRawFont(pixelSize: q.pixel_size, hinting: hinting, weight: Int(q.weight), style: style, stretch: q.stretch == 0 ? nil : Int(q.stretch),
                         qtVersion: q.qt_version == 0 ? QtRawFont.newestKnownVersion : Int(q.qt_version),
                         verticalSubpixelPositioning: q.flags & vertical != 0)
    if q.flags & probe != 0 {
        font.probe = (GlyphID(q.probe_glyph), try rect(q.probe_bounds, "\(name)->probe_bounds"))
    }
    if let head = q.head {
        let n = try count(q.head_length, "\(name)->head_length")
        guard n <= 1 << 16 else { throw .argument("\(name)->head_length \(n) is longer than a head table (at most 65,536 bytes)") }
        font.headTable = Array(UnsafeBufferPointer(start: head, count: n))
    }
    if let problem = font.problem { throw .argument("\(name): " + problem) }
    return font
}

/// Qt's drawing of `font` for a C caller: the settings, font handle and transform checked.
private func qtDrawing(_ fontHandle: OpaquePointer?, _ qt: UnsafePointer<inkhit_qt_raw_font>?,
                       _ transform: UnsafePointer<inkhit_transform>?) throws(CError) -> QtDrawing {
    guard fontHandle != nil else { throw .null("font") }
    let font = try resolve(fontHandle, .font, "font", as: FontBox.self).font
    let settings = try qtRawFont(qt, "qt")
    let t = try transform.map { (p) throws(CError) in try InkHitC.transform(p.pointee, "transform") } ?? .identity
    guard t.singularValues.isPlaceable else {
        throw CError(INKHIT_ERROR_PLACEMENT, "transform \(t) is singular: a painter transform must be invertible")
    }
    do throws(FontError) { return try settings.drawing(of: font, deviceTransform: t) } catch { throw CError(error) }
}

/// `inkhit_qt_glyph_style` (inkhit.h).
@_cdecl("inkhit_qt_glyph_style")
public func inkhit_qt_glyph_style(_ font: OpaquePointer?, _ qt: UnsafePointer<inkhit_qt_raw_font>?,
                                  _ transform: UnsafePointer<inkhit_transform>?,
                                  _ styleOut: UnsafeMutablePointer<inkhit_glyph_style>?,
                                  _ cachedOut: UnsafeMutablePointer<Int32>?) -> inkhit_status {
    call("inkhit_qt_glyph_style") { () throws(CError) in
        guard let styleOut else { throw .null("style_out") }
        let size = structSize(of: styleOut)
        guard StructSizes.glyphStyle.contains(size) else {
            throw .argument("style_out->struct_size \(UInt(bitPattern: size)) is not a size of inkhit_glyph_style this library "
                            + "knows (\(StructSizes.glyphStyle.map(String.init).joined(separator: " or "))): fill it with "
                            + "inkhit_glyph_style_init first")
        }
        let drawing = try qtDrawing(font, qt, transform)
        writeGlyphStyle(drawing.style, to: styleOut, bytes: size)
        cachedOut?.pointee = drawing.isCached ? 1 : 0
    }
}

/// `inkhit_builder_add_qt_glyph_run` (inkhit.h).
@_cdecl("inkhit_builder_add_qt_glyph_run")
public func inkhit_builder_add_qt_glyph_run(_ builder: OpaquePointer?, _ cache: OpaquePointer?, _ font: OpaquePointer?,
                                            _ qt: UnsafePointer<inkhit_qt_raw_font>?,
                                            _ transform: UnsafePointer<inkhit_transform>?, _ origin: inkhit_point,
                                            _ glyphs: UnsafePointer<inkhit_run_glyph>?, _ n: Int,
                                            _ firstOut: UnsafeMutablePointer<Int>?,
                                            _ addedOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    firstOut?.pointee = 0
    addedOut?.pointee = 0
    return call("inkhit_builder_add_qt_glyph_run") { () throws(CError) in
        let box = try resolve(builder, .builder, "builder", as: BuilderBox.self)
        let fonts = try optionalCache(cache)?.glyphs ?? .shared
        let drawing = try qtDrawing(font, qt, transform)
        var o = try point(origin, "origin")
        if let qt, qt.pointee.flags & UInt32(INKHIT_QT_LAYOUT_DRAW) != 0 { o = QtRawFont.fixed(o) }
        let list = try buffer(glyphs, n, "glyphs", countName: "count")
        try addRunGlyphs(list, at: o, originName: "origin", to: box, cache: fonts, firstOut, addedOut) {
            (glyph, at) throws(CError) in drawing.placement(of: GlyphID(glyph), at: at)
        }
    }
}
