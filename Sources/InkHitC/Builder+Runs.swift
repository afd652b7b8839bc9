import CInkHit
import InkFreeType
import InkHit
import InkGeometry

// Glyphs as a renderer drew them (inkhit.h, "What the renderer drew"): glyph styles, runs placed by the
// caller, HarfBuzz's arrays, marker glyph ids; and the one way every glyph call adds a placement with its
// tag and ink kind.

// MARK: Growable structs

/// Checks a growable struct's `struct_size` against the sizes this library knows (`known`: each version's sizeof,
/// oldest first; `name` names the struct in messages), so a caller's struct is never read as another version:
/// a known size is read as that version; a larger one (a newer header's) only when every byte past this
/// library's version is zero (fields it cannot honour are refused, never dropped); any other size is refused.
func checkStructSize(_ p: UnsafeRawPointer, _ structSize: Int, known: [Int], _ name: String, type: String,
                     init initName: String) throws(CError) {
    guard !known.contains(structSize) else { return }
    let newest = known.last!
    let sizes = known.map(String.init).joined(separator: " or ")
    guard structSize > newest, structSize <= 1 << 16 else {
        throw .argument("\(name)->struct_size is \(UInt(bitPattern: structSize)), not a size of \(type) this library "
                        + "(\(INKHIT_VERSION_MAJOR).\(INKHIT_VERSION_MINOR)) knows (\(sizes)): fill the struct with \(initName)")
    }
    for i in newest..<structSize where p.load(fromByteOffset: i, as: UInt8.self) != 0 {
        throw .argument("\(name) sets fields past byte \(newest), which this library (\(INKHIT_VERSION_MAJOR)."
                        + "\(INKHIT_VERSION_MINOR)) does not know: use a library at least as new as your inkhit.h")
    }
}

// MARK: Glyph styles

/// The sizes of `inkhit_glyph_style` this library knows: version 1.1's (its fields end at `alpha_threshold`)
/// and this version's.
enum GlyphStyleLayout {
    /// Bytes of version 1.1's struct: its fields end where `stroke_width` begins.
    static let size11 = MemoryLayout<inkhit_glyph_style>.offset(of: \inkhit_glyph_style.stroke_width)!
    /// Bytes of this version's struct.
    static let size = MemoryLayout<inkhit_glyph_style>.size
}

/// The defaults of every field, with `struct_size` set to `structSize`.
private func glyphStyleDefaults(structSize: Int) -> inkhit_glyph_style {
    let none = inkhit_origin_rounding_axis(grid: 0, bias: 0)
    return inkhit_glyph_style(
        struct_size: structSize, embolden: Int32(INKHIT_EMBOLDEN_NONE),
        hinting: Int32(INKHIT_HINTING_NONE), embolden_x: 0, embolden_y: 0, matrix_xx: 1, matrix_xy: 0, matrix_yx: 0,
        matrix_yy: 1, oblique: 0, alpha_threshold: GlyphStyle.defaultAlphaThreshold, stroke_width: 0,
        stroke_join: Int32(INKHIT_JOIN_MITER), hinting_under_transform: Int32(INKHIT_HINTING_UNDER_TRANSFORM_KEEP),
        miter_limit: 4, origin_rounding: inkhit_origin_rounding(x: none, y: none), ppem: Int32(INKHIT_PPEM_UNIFORM),
        stem_darkening: 0)
}

/// Writes the defaults into the first `bytes` bytes of `*style` (never more: a 1.1 caller's struct is shorter).
private func writeGlyphStyleDefaults(_ style: UnsafeMutablePointer<inkhit_glyph_style>, bytes: Int) {
    var d = glyphStyleDefaults(structSize: bytes)
    withUnsafeBytes(of: &d) { UnsafeMutableRawPointer(style).copyMemory(from: $0.baseAddress!, byteCount: bytes) }
}

/// `inkhit_glyph_style_init` (inkhit.h): version 1.1's fields, for programs built against 1.1.
@_cdecl("inkhit_glyph_style_init")
public func inkhit_glyph_style_init(_ style: UnsafeMutablePointer<inkhit_glyph_style>?) -> inkhit_status {
    guard let style else { return CError.null("style").report("inkhit_glyph_style_init") }
    writeGlyphStyleDefaults(style, bytes: GlyphStyleLayout.size11)
    return inkhit_status(INKHIT_OK)
}

/// `inkhit_glyph_style_init_sized` (inkhit.h).
@_cdecl("inkhit_glyph_style_init_sized")
public func inkhit_glyph_style_init_sized(_ style: UnsafeMutablePointer<inkhit_glyph_style>?, _ size: Int) -> inkhit_status {
    call("inkhit_glyph_style_init_sized") { () throws(CError) in
        guard let style else { throw .null("style") }
        guard size == GlyphStyleLayout.size11 || size == GlyphStyleLayout.size else {
            throw .argument("size \(UInt(bitPattern: size)) is not a size of inkhit_glyph_style this library knows "
                            + "(\(GlyphStyleLayout.size11) for version 1.1, \(GlyphStyleLayout.size) for 1.2)")
        }
        writeGlyphStyleDefaults(style, bytes: size)
    }
}

/// `inkhit_skia_fake_bold_width` (inkhit.h).
@_cdecl("inkhit_skia_fake_bold_width")
public func inkhit_skia_fake_bold_width(_ textSize: Double, _ widthOut: UnsafeMutablePointer<Double>?) -> inkhit_status {
    call("inkhit_skia_fake_bold_width") { () throws(CError) in
        guard let widthOut else { throw .null("width_out") }
        guard textSize.isFinite, textSize > 0 else {
            throw .argument("text_size must be finite and > 0 (got \(show(textSize)))")
        }
        widthOut.pointee = textSize * GlyphStyle.skiaFakeBoldRatio(textSize: textSize)
    }
}

/// The style a C caller gave (NULL: plain). Ranges are checked with the placement (`GlyphStyle.validate`),
/// which knows the glyph's size; enum values and struct sizes here. A 1.1 caller's struct (`struct_size` of
/// that version) is read only as far as it goes; the rest keeps its defaults.
func glyphStyle(_ p: UnsafePointer<inkhit_glyph_style>?, _ name: String) throws(CError) -> GlyphStyle {
    guard let p else { return GlyphStyle() }
    let size = structSize(of: p)
    try checkStructSize(UnsafeRawPointer(p), size, known: StructSizes.glyphStyle, name, type: "inkhit_glyph_style",
                        init: "inkhit_glyph_style_init")
    var s = glyphStyleDefaults(structSize: size)
    withUnsafeMutableBytes(of: &s) { $0.baseAddress!.copyMemory(from: UnsafeRawPointer(p), byteCount: min(size, GlyphStyleLayout.size)) }
    var style = GlyphStyle()
    switch Int(s.embolden) {
    case INKHIT_EMBOLDEN_NONE: style.embolden = .none
    case INKHIT_EMBOLDEN_FREETYPE: style.embolden = .freeType
    case INKHIT_EMBOLDEN_STRENGTH: style.embolden = .strength(x: s.embolden_x, y: s.embolden_y)
    case INKHIT_EMBOLDEN_STROKE where size != GlyphStyleLayout.size11:
        let join: StrokeJoin
        switch Int(s.stroke_join) {
        case INKHIT_JOIN_MITER: join = .miter(limit: s.miter_limit)
        case INKHIT_JOIN_ROUND: join = .round
        case INKHIT_JOIN_BEVEL: join = .bevel
        default: throw .argument("\(name)->stroke_join \(s.stroke_join) is not an INKHIT_JOIN_* value")
        }
        style.embolden = .stroke(width: s.stroke_width, join: join)
    case INKHIT_EMBOLDEN_SKIA where size != GlyphStyleLayout.size11: style.embolden = .skiaFakeBold
    default: throw .argument("\(name)->embolden \(s.embolden) is not an INKHIT_EMBOLDEN_* value")
    }
    switch Int(s.hinting) {
    case INKHIT_HINTING_NONE: style.hinting = .none
    case INKHIT_HINTING_LIGHT: style.hinting = .light
    case INKHIT_HINTING_FULL: style.hinting = .full
    case INKHIT_HINTING_MONO where size != GlyphStyleLayout.size11: style.hinting = .mono
    default: throw .argument("\(name)->hinting \(s.hinting) is not an INKHIT_HINTING_* value")
    }
    switch Int(s.hinting_under_transform) {
    case INKHIT_HINTING_UNDER_TRANSFORM_KEEP: style.hintingUnderTransform = .keep
    case INKHIT_HINTING_UNDER_TRANSFORM_OFF_WHEN_NOT_AXIS_ALIGNED: style.hintingUnderTransform = .offWhenNotAxisAligned
    case INKHIT_HINTING_UNDER_TRANSFORM_OFF_WHEN_SCALED_OR_ROTATED: style.hintingUnderTransform = .offWhenScaledOrRotated
    default: throw .argument("\(name)->hinting_under_transform \(s.hinting_under_transform) is not an INKHIT_HINTING_UNDER_TRANSFORM_* value")
    }
    switch Int(s.ppem) {
    case INKHIT_PPEM_UNIFORM: style.ppem = .uniform
    case INKHIT_PPEM_PER_AXIS: style.ppem = .perAxis
    case INKHIT_PPEM_VIEW: style.ppem = .view
    default: throw .argument("\(name)->ppem \(s.ppem) is not an INKHIT_PPEM_* value")
    }
    switch s.stem_darkening {
    case 0: style.stemDarkening = false
    case 1: style.stemDarkening = true
    default: throw .argument("\(name)->stem_darkening must be 0 or 1 (got \(s.stem_darkening))")
    }
    let o = s.origin_rounding
    style.originRounding = OriginRounding(x: .init(grid: o.x.grid, bias: o.x.bias), y: .init(grid: o.y.grid, bias: o.y.bias))
    style.matrix = GlyphMatrix(xx: s.matrix_xx, xy: s.matrix_xy, yx: s.matrix_yx, yy: s.matrix_yy)
    style.oblique = s.oblique
    style.alphaThreshold = s.alpha_threshold
    return style
}

/// Writes `style` into the first `bytes` bytes of `*out` (a 1.1 struct gets the fields it has; `struct_size`
/// is set to `bytes`).
func writeGlyphStyle(_ style: GlyphStyle, to out: UnsafeMutablePointer<inkhit_glyph_style>, bytes: Int) {
    var s = cGlyphStyle(style, structSize: bytes)
    withUnsafeBytes(of: &s) { UnsafeMutableRawPointer(out).copyMemory(from: $0.baseAddress!, byteCount: min(bytes, GlyphStyleLayout.size)) }
}

// MARK: Adding one placement (the builder's lock held)

/// The shape of a marker glyph id: no ink.
private let markerShape: GlyphShape = {
    // An outline with no commands flattens to an empty shape at any tolerance.
    // swiftlint:disable:next force_try
    try! GlyphShape(viewTolerance: HitIndex.defaultTolerance, maxScale: 1, fillRule: .nonZero) { _ in }
}()

/// True for the ids inkhit.h calls markers (INKHIT_GLYPH_EMPTY, INKHIT_GLYPH_UNKNOWN_FLAG set).
@inline(__always) func isMarker(_ glyph: UInt32) -> Bool {
    glyph == UInt32(INKHIT_GLYPH_EMPTY) || glyph & UInt32(INKHIT_GLYPH_UNKNOWN_FLAG) != 0
}

extension BuilderBox {
    /// Adds an inkless placement for a marker glyph id, with `tag`. Call with `lock` held.
    func addMarkerLocked(tag: UInt64, _ prefix: String) throws(CError) -> Int {
        let k: Int
        do throws(HitIndexError) { k = try builder.add(markerShape, transform: .identity) } catch { throw CError(error, prefix) }
        meta.record(k, tag: tag, ink: Int32(INKHIT_INK_NONE))
        return k
    }

    /// Adds `placement` (its shape from `cache`, counted in `tally`, the call's shape bytes) with `tag`,
    /// recording its ink kind; past the call's deadline, LIMIT. Call with `lock` held.
    func addLocked(_ placement: GlyphPlacement, cache: FontShapeCache, tag: UInt64, tally: inout ShapeTally,
                   _ prefix: String) throws(CError) -> Int {
        let shape: GlyphShape, t: AffineTransform, sv: SingularValues
        do throws(FontError) {
            (shape, t, sv) = try placement.shape(cache: cache, viewTolerance: builder.tolerance)
        } catch {
            throw CError(error, prefix)
        }
        try tally.add(shape, prefix)
        if BuildDeadline.hasPassed {
            throw CError(INKHIT_ERROR_LIMIT, prefix + "the call passed its time limit (inkhit_limits.max_seconds_per_call)")
        }
        let k: Int
        do throws(HitIndexError) { k = try builder.add(shape, transform: t, singularValues: sv) } catch { throw CError(error, prefix) }
        let ink = shape.edgeCount == 0 ? Int32(INKHIT_INK_NONE)
            : (try? placement.font.ink(of: placement.glyph))?.cValue ?? Int32(INKHIT_INK_OUTLINE)
        meta.record(k, tag: tag, ink: ink)
        return k
    }
}

// MARK: Runs

/// `inkhit_glyph_run_init` (inkhit.h).
@_cdecl("inkhit_glyph_run_init")
public func inkhit_glyph_run_init(_ run: UnsafeMutablePointer<inkhit_glyph_run>?) -> inkhit_status {
    guard let run else { return CError.null("run").report("inkhit_glyph_run_init") }
    run.pointee = inkhit_glyph_run(struct_size: MemoryLayout<inkhit_glyph_run>.size, font: nil, size: 16,
                                   origin: inkhit_point(x: 0, y: 0), transform: inkhit_transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0),
                                   style: nil, position_scale: 1, tag_base: 0)
    return inkhit_status(INKHIT_OK)
}

/// A C run, checked: its font, size, origin, transform (finite and invertible) and style.
struct CheckedRun {
    let font: Font
    let size: Double
    let origin: Point
    let transform: AffineTransform
    let style: GlyphStyle
    let positionScale: Double
    let tagBase: UInt64

    init(_ p: UnsafePointer<inkhit_glyph_run>?) throws(CError) {
        guard let p else { throw .null("run") }
        try checkStructSize(UnsafeRawPointer(p), structSize(of: p), known: StructSizes.glyphRun, "run", type: "inkhit_glyph_run",
                            init: "inkhit_glyph_run_init")
        let r = p.pointee
        guard r.font != nil else { throw .null("run->font") }
        font = try resolve(r.font, .font, "run->font", as: FontBox.self).font
        size = try finite(r.size, "run->size")
        guard size > 0 else { throw .argument("run->size must be > 0 (got \(show(size)))") }
        origin = try point(r.origin, "run->origin")
        transform = try InkHitC.transform(r.transform, "run->transform")
        let sv = transform.singularValues
        guard sv.isPlaceable else {
            throw CError(INKHIT_ERROR_PLACEMENT, "run->transform \(describe(r.transform)) is singular (a struct of zeros is "
                         + "not the identity: start from inkhit_glyph_run_init)")
        }
        style = try glyphStyle(r.style, "run->style")
        positionScale = r.position_scale
        tagBase = r.tag_base
    }

    /// The placement of `glyph` at layout `(x, y)`.
    func placement(_ glyph: UInt32, _ x: Double, _ y: Double) -> GlyphPlacement {
        GlyphPlacement(font: font, glyph: GlyphID(glyph), size: size, origin: Point(x, y), transform: transform, style: style)
    }
}

/// `inkhit_builder_add_run` (inkhit.h).
@_cdecl("inkhit_builder_add_run")
public func inkhit_builder_add_run(_ builder: OpaquePointer?, _ cache: OpaquePointer?, _ run: UnsafePointer<inkhit_glyph_run>?,
                                   _ glyphs: UnsafePointer<inkhit_run_glyph>?, _ n: Int,
                                   _ addedOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    addRun("inkhit_builder_add_run", builder, cache, run, glyphs, n, nil, addedOut)
}

/// `inkhit_builder_add_run_numbered` (inkhit.h, 1.2).
@_cdecl("inkhit_builder_add_run_numbered")
public func inkhit_builder_add_run_numbered(_ builder: OpaquePointer?, _ cache: OpaquePointer?,
                                            _ run: UnsafePointer<inkhit_glyph_run>?, _ glyphs: UnsafePointer<inkhit_run_glyph>?,
                                            _ n: Int, _ firstOut: UnsafeMutablePointer<Int>?,
                                            _ addedOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    addRun("inkhit_builder_add_run_numbered", builder, cache, run, glyphs, n, firstOut, addedOut)
}

/// Adds a run's glyphs under one lock, writing the first one's number and how many were added.
func addRun(_ function: StaticString, _ builder: OpaquePointer?, _ cache: OpaquePointer?, _ run: UnsafePointer<inkhit_glyph_run>?,
            _ glyphs: UnsafePointer<inkhit_run_glyph>?, _ n: Int, _ firstOut: UnsafeMutablePointer<Int>?,
            _ addedOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    firstOut?.pointee = 0
    addedOut?.pointee = 0
    return call(function) { () throws(CError) in
        let box = try resolve(builder, .builder, "builder", as: BuilderBox.self)
        let fonts = try optionalCache(cache)?.glyphs ?? .shared
        let r = try CheckedRun(run)
        let list = try buffer(glyphs, n, "glyphs", countName: "count")
        try addRunGlyphs(list, at: r.origin, originName: "the origin run->origin", to: box, cache: fonts, firstOut, addedOut) {
            (glyph, origin) throws(CError) in try r.placement(glyph, origin.x, origin.y)
        }
    }
}

/// Adds `list` (an `inkhit_run_glyph` array) to `box` under one lock and the call's shape limits: markers as
/// markers, each other glyph at `origin` + its (x, y) through `placement`; writes the first placement's number
/// and, after each glyph, how many were added. `originName` names the origin in the message of a sum that is
/// not finite.
func addRunGlyphs(_ list: UnsafeBufferPointer<inkhit_run_glyph>, at origin: Point, originName: String, to box: BuilderBox,
                  cache fonts: FontShapeCache, _ firstOut: UnsafeMutablePointer<Int>?, _ addedOut: UnsafeMutablePointer<Int>?,
                  placement: (UInt32, Point) throws(CError) -> GlyphPlacement) throws(CError) {
    try CallLimits.bounded { (limits, _) throws(CError) in
        var tally = ShapeTally(limit: limits.shapeBytes)
        try box.lock.withLock { () throws(CError) in
            firstOut?.pointee = box.builder.count
            for (i, g) in list.enumerated() {
                let prefix = "glyphs[\(i)]: "
                guard g.reserved == 0 else { throw .argument(prefix + "reserved must be 0 (got \(g.reserved))") }
                if isMarker(g.glyph) {
                    _ = try box.addMarkerLocked(tag: g.tag, prefix)
                } else {
                    let x = try finite(g.x, prefix + "x"), y = try finite(g.y, prefix + "y")
                    let at = Point(origin.x + x, origin.y + y)
                    guard at.isFinite else { throw .argument(prefix + originName + " + (x, y) is not finite") }
                    _ = try box.addLocked(placement(g.glyph, at), cache: fonts, tag: g.tag, tally: &tally, prefix)
                }
                addedOut?.pointee = i + 1
            }
        }
    }
}

/// `inkhit_builder_add_shaped` (inkhit.h): HarfBuzz's arrays; the pen sums whole position units (Int64), so
/// each origin is one multiplication from exact.
@_cdecl("inkhit_builder_add_shaped")
public func inkhit_builder_add_shaped(_ builder: OpaquePointer?, _ cache: OpaquePointer?, _ run: UnsafePointer<inkhit_glyph_run>?,
                                      _ infos: UnsafePointer<inkhit_hb_glyph_info>?,
                                      _ positions: UnsafePointer<inkhit_hb_glyph_position>?, _ n: Int,
                                      _ penOut: UnsafeMutablePointer<inkhit_point>?,
                                      _ addedOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    addShaped("inkhit_builder_add_shaped", builder, cache, run, infos, positions, n, penOut, nil, addedOut)
}

/// `inkhit_builder_add_shaped_numbered` (inkhit.h, 1.2).
@_cdecl("inkhit_builder_add_shaped_numbered")
public func inkhit_builder_add_shaped_numbered(_ builder: OpaquePointer?, _ cache: OpaquePointer?,
                                               _ run: UnsafePointer<inkhit_glyph_run>?,
                                               _ infos: UnsafePointer<inkhit_hb_glyph_info>?,
                                               _ positions: UnsafePointer<inkhit_hb_glyph_position>?, _ n: Int,
                                               _ penOut: UnsafeMutablePointer<inkhit_point>?,
                                               _ firstOut: UnsafeMutablePointer<Int>?,
                                               _ addedOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    addShaped("inkhit_builder_add_shaped_numbered", builder, cache, run, infos, positions, n, penOut, firstOut, addedOut)
}

/// Adds HarfBuzz's arrays under one lock, writing the first placement's number, how many were added and the pen.
func addShaped(_ function: StaticString, _ builder: OpaquePointer?, _ cache: OpaquePointer?,
               _ run: UnsafePointer<inkhit_glyph_run>?, _ infos: UnsafePointer<inkhit_hb_glyph_info>?,
               _ positions: UnsafePointer<inkhit_hb_glyph_position>?, _ n: Int, _ penOut: UnsafeMutablePointer<inkhit_point>?,
               _ firstOut: UnsafeMutablePointer<Int>?, _ addedOut: UnsafeMutablePointer<Int>?) -> inkhit_status {
    firstOut?.pointee = 0
    addedOut?.pointee = 0
    return call(function) { () throws(CError) in
        let box = try resolve(builder, .builder, "builder", as: BuilderBox.self)
        let fonts = try optionalCache(cache)?.glyphs ?? .shared
        let r = try CheckedRun(run)
        let k = r.positionScale
        guard k.isFinite, k > 0 else { throw .argument("run->position_scale must be finite and > 0 (got \(show(k)))") }
        let glyphs = try buffer(infos, n, "infos", countName: "count")
        let places = positions.map { UnsafeBufferPointer(start: $0, count: glyphs.count) }
        var px: Int64 = 0, py: Int64 = 0
        try CallLimits.bounded { (limits, _) throws(CError) in
            var tally = ShapeTally(limit: limits.shapeBytes)
            try box.lock.withLock { () throws(CError) in
                firstOut?.pointee = box.builder.count
                for (i, info) in glyphs.enumerated() {
                    let prefix = "glyphs[\(i)]: "
                    let p = places?[i]
                    let x = r.origin.x + Double(px + Int64(p?.x_offset ?? 0)) * k
                    let y = r.origin.y - Double(py + Int64(p?.y_offset ?? 0)) * k
                    let tag = r.tagBase &+ UInt64(info.cluster)
                    if isMarker(info.codepoint) {
                        _ = try box.addMarkerLocked(tag: tag, prefix)
                    } else {
                        guard x.isFinite, y.isFinite else { throw .argument(prefix + "its origin (\(show(x)), \(show(y))) is not finite") }
                        _ = try box.addLocked(r.placement(info.codepoint, x, y), cache: fonts, tag: tag, tally: &tally, prefix)
                    }
                    px += Int64(p?.x_advance ?? 0)
                    py += Int64(p?.y_advance ?? 0)
                    addedOut?.pointee = i + 1
                }
            }
        }
        penOut?.pointee = inkhit_point(x: r.origin.x + Double(px) * k, y: r.origin.y - Double(py) * k)
    }
}
