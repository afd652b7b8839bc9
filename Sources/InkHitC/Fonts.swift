import CInkHit
import InkFreeType
import InkHit

// Fonts and shape caches (inkhit.h, "Fonts" and "Shape caches"). Each function's contract is its comment in
// the header; these are its implementations.

/// `inkhit_font_from_path` (inkhit.h).
@_cdecl("inkhit_font_from_path")
public func inkhit_font_from_path(_ path: UnsafePointer<CChar>?, _ faceIndex: Int32,
                                  _ out: UnsafeMutablePointer<OpaquePointer?>?) -> inkhit_status {
    call("inkhit_font_from_path") { () throws(CError) in
        guard let path else { throw .null("path") }
        guard let out else { throw .null("out") }
        let p = try cString(path, "path")
        let font: Font
        do throws(FontError) { font = try Font(path: p, faceIndex: Int(faceIndex)) } catch { throw CError(error) }
        try publish(FontBox(font), .font, to: out)
    }
}

/// `inkhit_font_from_bytes` (inkhit.h).
@_cdecl("inkhit_font_from_bytes")
public func inkhit_font_from_bytes(_ bytes: UnsafePointer<UInt8>?, _ length: Int, _ faceIndex: Int32,
                                   _ out: UnsafeMutablePointer<OpaquePointer?>?) -> inkhit_status {
    call("inkhit_font_from_bytes") { () throws(CError) in
        guard let out else { throw .null("out") }
        let n = try count(length, "length")
        guard n <= Font.maximumFileSize else {
            throw CError(INKHIT_ERROR_LIMIT, "length \(n) is more than the limit of \(Font.maximumFileSize) bytes")
        }
        let data = try buffer(bytes, n, "bytes", countName: "length")
        let font: Font
        do throws(FontError) { font = try Font(bytes: Array(data), faceIndex: Int(faceIndex)) } catch { throw CError(error) }
        try publish(FontBox(font), .font, to: out)
    }
}

/// `inkhit_font_get_info` (inkhit.h).
@_cdecl("inkhit_font_get_info")
public func inkhit_font_get_info(_ font: OpaquePointer?, _ out: UnsafeMutablePointer<inkhit_font_info>?) -> inkhit_status {
    call("inkhit_font_get_info") { () throws(CError) in
        guard let out else { throw .null("out") }
        let f = try resolve(font, .font, "font", as: FontBox.self).font
        out.pointee = inkhit_font_info(glyph_count: Int64(f.glyphCount), units_per_em: Int64(f.unitsPerEm),
                                       face_index: Int64(f.faceIndex), face_count: Int64(f.faceCount),
                                       ascender: Int64(f.ascender), descender: Int64(f.descender), height: Int64(f.height))
    }
}

/// `inkhit_font_glyph` (inkhit.h).
@_cdecl("inkhit_font_glyph")
public func inkhit_font_glyph(_ font: OpaquePointer?, _ codepoint: UInt32, _ glyphOut: UnsafeMutablePointer<UInt32>?) -> inkhit_status {
    call("inkhit_font_glyph") { () throws(CError) in
        guard let glyphOut else { throw .null("glyph_out") }
        let f = try resolve(font, .font, "font", as: FontBox.self).font
        guard let scalar = Unicode.Scalar(codepoint) else {
            throw .argument("codepoint 0x\(String(codepoint, radix: 16, uppercase: true)) is not a Unicode scalar value "
                            + "(above 0x10FFFF or a surrogate)")
        }
        glyphOut.pointee = f.glyph(for: scalar)?.rawValue ?? 0
    }
}

/// `inkhit_font_advance` (inkhit.h).
@_cdecl("inkhit_font_advance")
public func inkhit_font_advance(_ font: OpaquePointer?, _ glyph: UInt32, _ advanceOut: UnsafeMutablePointer<Double>?) -> inkhit_status {
    call("inkhit_font_advance") { () throws(CError) in
        guard let advanceOut else { throw .null("advance_out") }
        let f = try resolve(font, .font, "font", as: FontBox.self).font
        do throws(FontError) { advanceOut.pointee = try f.advance(of: GlyphID(glyph)) } catch { throw CError(error) }
    }
}

/// `inkhit_font_release` (inkhit.h).
@_cdecl("inkhit_font_release")
public func inkhit_font_release(_ font: OpaquePointer?) -> inkhit_status {
    releaseHandle(font, .font, function: "inkhit_font_release")
}

// MARK: Shape caches

/// `INKHIT_SHAPE_CACHE_DEFAULT_BYTES` (inkhit.h): the budget of a cache created with 0.
let defaultShapeCacheBytes = 64 << 20

/// `inkhit_shape_cache_create` (inkhit.h).
@_cdecl("inkhit_shape_cache_create")
public func inkhit_shape_cache_create(_ maxBytes: Int, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> inkhit_status {
    call("inkhit_shape_cache_create") { () throws(CError) in
        guard let out else { throw .null("out") }
        // 0 means the default budget (as 0 does for every size, budget and tolerance in inkhit.h);
        // size_t values beyond Int.max (SIZE_MAX among them) mean no bound.
        let budget = maxBytes == 0 ? defaultShapeCacheBytes : (maxBytes < 0 ? Int.max : maxBytes)
        try publish(ShapeCacheBox(maxBytes: budget), .shapeCache, to: out)
    }
}

/// `inkhit_shape_cache_get_info` (inkhit.h).
@_cdecl("inkhit_shape_cache_get_info")
public func inkhit_shape_cache_get_info(_ cache: OpaquePointer?,
                                        _ out: UnsafeMutablePointer<inkhit_shape_cache_info>?) -> inkhit_status {
    call("inkhit_shape_cache_get_info") { () throws(CError) in
        guard let out else { throw .null("out") }
        let c = try resolve(cache, .shapeCache, "cache", as: ShapeCacheBox.self)
        out.pointee = inkhit_shape_cache_info(glyph_shapes: Int64(c.glyphs.count), outline_shapes: Int64(c.outlines.count),
                                              glyph_bytes: Int64(c.glyphs.byteCount), outline_bytes: Int64(c.outlines.byteCount))
    }
}

/// `inkhit_shape_cache_clear` (inkhit.h).
@_cdecl("inkhit_shape_cache_clear")
public func inkhit_shape_cache_clear(_ cache: OpaquePointer?) -> inkhit_status {
    call("inkhit_shape_cache_clear") { () throws(CError) in
        let c = try resolve(cache, .shapeCache, "cache", as: ShapeCacheBox.self)
        c.glyphs.removeAll()
        c.outlines.removeAll()
    }
}

/// `inkhit_shape_cache_release` (inkhit.h).
@_cdecl("inkhit_shape_cache_release")
public func inkhit_shape_cache_release(_ cache: OpaquePointer?) -> inkhit_status {
    releaseHandle(cache, .shapeCache, function: "inkhit_shape_cache_release")
}

/// The cache a call was given: the box's, or nil for NULL (the caller picks the process-wide default).
func optionalCache(_ cache: OpaquePointer?, _ name: String = "cache") throws(CError) -> ShapeCacheBox? {
    guard cache != nil else { return nil }
    return try resolve(cache, .shapeCache, name, as: ShapeCacheBox.self)
}

// MARK: Named instances (since 1.2)

/// `inkhit_font_instance_count` (inkhit.h).
@_cdecl("inkhit_font_instance_count")
public func inkhit_font_instance_count(_ font: OpaquePointer?, _ countOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    countOut?.pointee = 0
    return call("inkhit_font_instance_count") { () throws(CError) in
        guard let countOut else { throw .null("count_out") }
        countOut.pointee = try resolve(font, .font, "font", as: FontBox.self).font.namedInstances.count
    }
}

/// `inkhit_font_instance_name` (inkhit.h): the name cut at a character boundary to fit `capacity` with its NUL.
@_cdecl("inkhit_font_instance_name")
public func inkhit_font_instance_name(_ font: OpaquePointer?, _ instance: Int, _ name: UnsafeMutablePointer<CChar>?,
                                      _ capacity: Int, _ lengthOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    lengthOut?.pointee = 0
    return call("inkhit_font_instance_name") { () throws(CError) in
        guard let lengthOut else { throw .null("length_out") }
        let dest = try mutableBuffer(name, capacity, "name", countName: "capacity")
        let f = try resolve(font, .font, "font", as: FontBox.self).font
        let k = try count(instance, "instance")
        let instances = f.namedInstances
        guard k < instances.count else {
            throw CError(INKHIT_ERROR_FONT, "instance \(k) is out of range: the font has \(instances.count) named instance"
                         + (instances.count == 1 ? "" : "s"))
        }
        let utf8 = Array((instances[k].name ?? "").utf8)
        lengthOut.pointee = utf8.count
        guard dest.count > 0 else { return }
        var n = min(utf8.count, dest.count - 1)
        while n > 0 && n < utf8.count && utf8[n] & 0xC0 == 0x80 { n -= 1 }   // never half a character
        for i in 0..<n { dest[i] = CChar(bitPattern: utf8[i]) }
        dest[n] = 0
    }
}

/// `inkhit_font_find_instance` (inkhit.h).
@_cdecl("inkhit_font_find_instance")
public func inkhit_font_find_instance(_ font: OpaquePointer?, _ name: UnsafePointer<CChar>?,
                                      _ instanceOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    call("inkhit_font_find_instance") { () throws(CError) in
        guard let instanceOut else { throw .null("instance_out") }
        guard let name else { throw .null("name") }
        let f = try resolve(font, .font, "font", as: FontBox.self).font
        let wanted = try cString(name, "name")
        do throws(FontError) { instanceOut.pointee = try f.namedInstance(.name(wanted)) } catch { throw CError(error) }
    }
}

/// `inkhit_font_with_instance` (inkhit.h).
@_cdecl("inkhit_font_with_instance")
public func inkhit_font_with_instance(_ font: OpaquePointer?, _ instance: Int,
                                      _ out: UnsafeMutablePointer<OpaquePointer?>?) -> inkhit_status {
    call("inkhit_font_with_instance") { () throws(CError) in
        guard let out else { throw .null("out") }
        let f = try resolve(font, .font, "font", as: FontBox.self).font
        let k = try count(instance, "instance")
        let made: Font
        do throws(FontError) { made = try f.withVariations([], instance: .index(k)) } catch { throw CError(error) }
        try publish(FontBox(made), .font, to: out)
    }
}
