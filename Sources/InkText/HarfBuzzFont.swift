import CHarfBuzz
import InkFreeType

/// A HarfBuzz font over the same bytes and face index as a FreeType `Font`, with HarfBuzz's own OpenType
/// functions (the ones `hb-shape` uses), scaled to font units. Immutable after init, so shaping from many
/// threads at once is safe (HarfBuzz fonts are thread-safe once immutable). All HarfBuzz calls live here.
///
/// One per loaded `Font`, made on first use and kept as the font's companion: it reads the font's own
/// bytes in place (`HB_MEMORY_MODE_READONLY`, no copy) and is released with the font, before its bytes.
final class HarfBuzzFont: @unchecked Sendable {
    private let blob: OpaquePointer
    private let face: OpaquePointer
    private let hbFont: OpaquePointer
    let unitsPerEm: Int

    /// The HarfBuzz font of `font`, shared by every layout that uses it.
    static func of(_ font: Font) -> HarfBuzzFont { font.companion(HarfBuzzFont.self) { HarfBuzzFont(font) } }

    private init(_ font: Font) {
        let (b, f, hf) = font.withUnsafeFileBytes { raw -> (OpaquePointer, OpaquePointer, OpaquePointer) in
            let base = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
            // The bytes outlive this object (the font frees them after its companions), so HarfBuzz may read
            // them in place.
            let blob = hb_blob_create(base, UInt32(clamping: raw.count), HB_MEMORY_MODE_READONLY, nil, nil)!
            let face = hb_face_create(blob, UInt32(clamping: font.faceIndex))!
            let hbFont = hb_font_create(face)!
            return (blob, face, hbFont)
        }
        blob = b; face = f; hbFont = hf
        unitsPerEm = font.unitsPerEm
        hb_ot_font_set_funcs(hbFont)
        hb_font_set_scale(hbFont, Int32(clamping: unitsPerEm), Int32(clamping: unitsPerEm))
        // An instance of a variable font: the same design coordinates as its outlines (all axes, so a
        // named instance's values are passed too), for advances, kerning and substitutions.
        var settings = font.variationCoordinates.compactMap { v -> hb_variation_t? in
            guard let tag = v.tagValue else { return nil }
            return hb_variation_t(tag: tag, value: Float(v.value))
        }
        if !settings.isEmpty { hb_font_set_variations(hbFont, &settings, UInt32(settings.count)) }
        hb_font_make_immutable(hbFont)
    }

    /// The bytes HarfBuzz reads (its blob's data and length), for tests that check it reads the font's own
    /// bytes in place.
    var blobData: (address: UnsafeRawPointer?, count: Int) {
        var n: UInt32 = 0
        let p = hb_blob_get_data(blob, &n)
        return (p.map { UnsafeRawPointer($0) }, Int(n))
    }

    deinit {
        hb_font_destroy(hbFont)
        hb_face_destroy(face)
        hb_blob_destroy(blob)
    }

    /// One shaped glyph, font units (y-up offsets), cluster = UTF-16 offset into the whole paragraph.
    struct Glyph: Sendable, Hashable {
        var id: GlyphID
        var cluster: Int
        var xAdvance: Double, yAdvance: Double
        var xOffset: Double, yOffset: Double
    }

    /// Shapes `text[range]` (UTF-16 offsets) with the rest of `text` as context, in `rtl` direction and
    /// `script` (an ISO 15924 tag as HarfBuzz's `hb_script_t`, 0 to let HarfBuzz guess). Glyphs come in
    /// visual order (left to right), as HarfBuzz returns them.
    func shape(_ text: UnsafeBufferPointer<UInt16>, range: Range<Int>, rtl: Bool, script: UInt32) -> [Glyph] {
        guard !range.isEmpty, let buf = hb_buffer_create() else { return [] }
        defer { hb_buffer_destroy(buf) }
        hb_buffer_add_utf16(buf, text.baseAddress, Int32(clamping: text.count), UInt32(range.lowerBound),
                            Int32(clamping: range.count))
        hb_buffer_set_direction(buf, rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        if script != 0 { hb_buffer_set_script(buf, hb_script_t(script)) }
        hb_buffer_guess_segment_properties(buf)
        hb_shape(hbFont, buf, nil, 0)
        var n: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buf, &n), let pos = hb_buffer_get_glyph_positions(buf, &n) else {
            return []
        }
        var out: [Glyph] = []
        out.reserveCapacity(Int(n))
        for i in 0..<Int(n) {
            out.append(Glyph(id: GlyphID(infos[i].codepoint), cluster: Int(infos[i].cluster),
                             xAdvance: Double(pos[i].x_advance), yAdvance: Double(pos[i].y_advance),
                             xOffset: Double(pos[i].x_offset), yOffset: Double(pos[i].y_offset)))
        }
        return out
    }

    /// The font's GDEF ligature caret positions for `glyph` (font units along the advance), empty if none.
    func ligatureCarets(_ glyph: GlyphID, rtl: Bool) -> [Double] {
        var count: UInt32 = 16
        var carets = [hb_position_t](repeating: 0, count: 16)
        let total = hb_ot_layout_get_ligature_carets(hbFont, rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR,
                                                     glyph.rawValue, 0, &count, &carets)
        guard total > 0 else { return [] }
        return carets.prefix(Int(min(count, total))).map(Double.init)
    }

    /// The Unicode script of a code point (HarfBuzz's default Unicode functions), as an `hb_script_t` value.
    static func script(of scalar: Unicode.Scalar) -> UInt32 {
        UInt32(hb_unicode_script(hb_unicode_funcs_get_default(), scalar.value).rawValue)
    }
    static let scriptCommon = UInt32(HB_SCRIPT_COMMON.rawValue)
    static let scriptInherited = UInt32(HB_SCRIPT_INHERITED.rawValue)
    static let scriptUnknown = UInt32(HB_SCRIPT_UNKNOWN.rawValue)
}
