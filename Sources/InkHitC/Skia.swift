import CInkHit
import InkFreeType
import InkGeometry

// Skia's rules for C hosts (inkhit.h, inkhit_skia_font, inkhit_glyph_style_for_skia): the settings of an SkFont
// in, the glyph style Skia draws with out. The rules are InkFreeType's (GlyphStyle.skia); this file converts.

/// `inkhit_skia_font_init_sized` (inkhit.h).
@_cdecl("inkhit_skia_font_init_sized")
public func inkhit_skia_font_init_sized(_ font: UnsafeMutablePointer<inkhit_skia_font>?, _ size: Int) -> inkhit_status {
    call("inkhit_skia_font_init_sized") { () throws(CError) in
        guard let font else { throw .null("font") }
        guard StructSizes.skiaFont.contains(size) else {
            throw .argument("size \(UInt(bitPattern: size)) is not a size of inkhit_skia_font this library knows "
                            + "(\(StructSizes.skiaFont.map(String.init).joined(separator: " or ")))")
        }
        let d = SkiaFont()
        font.pointee = inkhit_skia_font(struct_size: size, size: d.size, scale_x: d.scaleX, skew_x: d.skewX,
                                        hinting: Int32(d.hinting.rawValue), edging: Int32(d.edging.rawValue), embolden: 0,
                                        subpixel: 0, baseline_snap: 1, force_auto_hinting: 0)
    }
}

/// A C caller's SkFont settings, checked field by field (ranges are `SkiaFont.problem`'s).
func skiaFont(_ p: UnsafePointer<inkhit_skia_font>) throws(CError) -> SkiaFont {
    let f = p.pointee
    try checkStructSize(UnsafeRawPointer(p), structSize(of: p), known: StructSizes.skiaFont, "font", type: "inkhit_skia_font",
                        init: "inkhit_skia_font_init")
    func flag(_ v: Int32, _ name: String) throws(CError) -> Bool {
        guard v == 0 || v == 1 else { throw .argument("font->\(name) must be 0 or 1 (got \(v))") }
        return v == 1
    }
    guard let hinting = SkiaFont.Hinting(rawValue: Int(f.hinting)) else {
        throw .argument("font->hinting \(f.hinting) is not an INKHIT_SKIA_HINTING_* value")
    }
    guard let edging = SkiaFont.Edging(rawValue: Int(f.edging)) else {
        throw .argument("font->edging \(f.edging) is not an INKHIT_SKIA_EDGING_* value")
    }
    return SkiaFont(size: f.size, scaleX: f.scale_x, skewX: f.skew_x, embolden: try flag(f.embolden, "embolden"),
                    hinting: hinting, subpixel: try flag(f.subpixel, "subpixel"), edging: edging,
                    baselineSnap: try flag(f.baseline_snap, "baseline_snap"),
                    forceAutoHinting: try flag(f.force_auto_hinting, "force_auto_hinting"))
}

/// `style` as the fields of a 1.2 `inkhit_glyph_style` (`struct_size` set to `structSize`).
func cGlyphStyle(_ style: GlyphStyle, structSize: Int) -> inkhit_glyph_style {
    var s = inkhit_glyph_style()
    _ = inkhit_glyph_style_init_sized(&s, GlyphStyleLayout.size)
    s.struct_size = structSize
    switch style.embolden {
    case .none: s.embolden = Int32(INKHIT_EMBOLDEN_NONE)
    case .freeType: s.embolden = Int32(INKHIT_EMBOLDEN_FREETYPE)
    case .strength(let x, let y): s.embolden = Int32(INKHIT_EMBOLDEN_STRENGTH); s.embolden_x = x; s.embolden_y = y
    case .skiaFakeBold: s.embolden = Int32(INKHIT_EMBOLDEN_SKIA)
    case .stroke(let w, let join):
        s.embolden = Int32(INKHIT_EMBOLDEN_STROKE)
        s.stroke_width = w
        switch join {
        case .miter(let limit): s.stroke_join = Int32(INKHIT_JOIN_MITER); s.miter_limit = limit
        case .round: s.stroke_join = Int32(INKHIT_JOIN_ROUND)
        case .bevel: s.stroke_join = Int32(INKHIT_JOIN_BEVEL)
        }
    }
    s.hinting = Int32(style.hinting.cValue)
    s.matrix_xx = style.matrix.xx; s.matrix_xy = style.matrix.xy; s.matrix_yx = style.matrix.yx; s.matrix_yy = style.matrix.yy
    s.oblique = style.oblique
    s.alpha_threshold = style.alphaThreshold
    switch style.hintingUnderTransform {
    case .keep: s.hinting_under_transform = Int32(INKHIT_HINTING_UNDER_TRANSFORM_KEEP)
    case .offWhenNotAxisAligned: s.hinting_under_transform = Int32(INKHIT_HINTING_UNDER_TRANSFORM_OFF_WHEN_NOT_AXIS_ALIGNED)
    case .offWhenScaledOrRotated: s.hinting_under_transform = Int32(INKHIT_HINTING_UNDER_TRANSFORM_OFF_WHEN_SCALED_OR_ROTATED)
    }
    let o = style.originRounding
    s.origin_rounding = inkhit_origin_rounding(x: inkhit_origin_rounding_axis(grid: o.x.grid, bias: o.x.bias),
                                               y: inkhit_origin_rounding_axis(grid: o.y.grid, bias: o.y.bias))
    switch style.ppem {
    case .uniform: s.ppem = Int32(INKHIT_PPEM_UNIFORM)
    case .perAxis: s.ppem = Int32(INKHIT_PPEM_PER_AXIS)
    case .view: s.ppem = Int32(INKHIT_PPEM_VIEW)
    }
    s.stem_darkening = style.stemDarkening ? 1 : 0
    return s
}

extension GlyphStyle.Hinting {
    /// The `INKHIT_HINTING_*` value.
    var cValue: Int {
        switch self {
        case .none: return INKHIT_HINTING_NONE
        case .light: return INKHIT_HINTING_LIGHT
        case .full: return INKHIT_HINTING_FULL
        case .mono: return INKHIT_HINTING_MONO
        }
    }
}

/// `inkhit_glyph_style_for_skia` (inkhit.h).
@_cdecl("inkhit_glyph_style_for_skia")
public func inkhit_glyph_style_for_skia(_ font: UnsafePointer<inkhit_skia_font>?, _ transform: UnsafePointer<inkhit_transform>?,
                                        _ styleOut: UnsafeMutablePointer<inkhit_glyph_style>?) -> inkhit_status {
    call("inkhit_glyph_style_for_skia") { () throws(CError) in
        guard let font else { throw .null("font") }
        guard let transform else { throw .null("transform") }
        guard let styleOut else { throw .null("style_out") }
        let size = UnsafeRawPointer(styleOut).loadUnaligned(as: Int.self)
        guard size >= GlyphStyleLayout.size, size <= 1 << 16 else {
            throw .argument("style_out->struct_size is \(UInt(bitPattern: size)): fill it with inkhit_glyph_style_init "
                            + "(a 1.2 header's, \(GlyphStyleLayout.size) bytes or more) first")
        }
        let settings = try skiaFont(font)
        let t = try InkHitC.transform(transform.pointee, "transform")
        let style: GlyphStyle
        do throws(FontError) { style = try GlyphStyle.skia(settings, transform: t) } catch { throw CError(error, "") }
        // Only the fields this library knows are written; a newer header's fields past them keep their values.
        var s = cGlyphStyle(style, structSize: size)
        withUnsafeBytes(of: &s) { UnsafeMutableRawPointer(styleOut).copyMemory(from: $0.baseAddress!, byteCount: GlyphStyleLayout.size) }
    }
}
