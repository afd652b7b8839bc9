import CFreeType
import InkGeometry
import InkHit

// The FreeType calls and pointers of InkFreeType live in this file and, for color glyphs (COLR layers,
// bitmap strikes, color tables), in FreeTypeFace+Color.swift.

/// FreeType's outline arrays read in place, in font units: an unscaled load's points times 1, a hinted one's
/// (26.6 px at its char size) times em / char size (`FreeTypeFace.outlineScale`), each mapped first by the
/// rendering's `OutlineRendering.outlineMatrix` when it is not the identity (as `copyOutline` maps them).
struct FreeTypePoints: OutlinePointSource {
    let points: UnsafeMutablePointer<FT_Vector>
    let tags: UnsafeMutablePointer<CChar>
    let scale: Double
    let matrix: GlyphMatrix
    let mapped: Bool
    init(points: UnsafeMutablePointer<FT_Vector>, tags: UnsafeMutablePointer<CChar>, scale: Double, matrix: GlyphMatrix) {
        self.points = points
        self.tags = tags
        self.scale = scale
        self.matrix = matrix
        self.mapped = !matrix.isIdentity
    }
    @inline(__always) func point(_ i: Int) -> Point {
        let x = Double(points[i].x), y = Double(points[i].y)
        guard mapped else { return Point(x * scale, y * scale) }
        let m = matrix
        return Point((m.xx * x + m.xy * y) * scale, (m.yx * x + m.yy * y) * scale)
    }
    @inline(__always) func tag(_ i: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: tags[i]) & (GlyphOutline.onCurveBit | GlyphOutline.cubicBit)
    }
}

/// One FreeType face with its own `FT_Library`, the bytes it reads, and the lock that serialises every
/// FreeType call on it. Facts that never change (counts, names, metrics) are read once in `init`.
///
/// Thread safety: FreeType objects are not thread-safe, but a library per face plus `lock` around every
/// call that touches `face` after `init` makes this class safe to share (hence `@unchecked Sendable`).
final class FreeTypeFace: @unchecked Sendable {
    let id: UInt64
    /// The shape namespace of this face's content (`FontBytes.namespace(faceIndex:coordinates:)`): shared by
    /// every face over equal bytes with the same face index and design coordinates.
    let contentID: UInt64
    let faceIndex: Int
    /// The named instance (0-based, `fvar` order) the coordinates started from, or nil for the defaults.
    let namedInstance: Int?
    let faceCount: Int
    let glyphCount: Int
    let unitsPerEm: Int
    let familyName: String?
    let styleName: String?
    let ascender: Int
    let descender: Int
    let height: Int
    let isScalable: Bool
    let hasKerning: Bool
    /// True when FreeType reads the face with a PostScript driver (font formats "CFF", "Type 1",
    /// "CID Type 1": OpenType CFF and CFF2 among them), whose engine stem darkening applies to.
    let hasPostScriptOutlines: Bool
    /// `FT_Get_Font_Format`: "TrueType", "CFF" (OpenType CFF and CFF2), "Type 1", "CID Type 1", … ("" if none).
    let format: String
    /// FreeType's style flags (`FT_STYLE_FLAG_BOLD`, `FT_STYLE_FLAG_ITALIC`: from `OS/2` fsSelection or `head`
    /// macStyle), as the face says of itself.
    let isBoldFace: Bool
    let isItalicFace: Bool
    /// `FT_IS_FIXED_WIDTH`: every glyph has the same advance (a monospaced face).
    let isFixedPitch: Bool
    /// `FT_HAS_COLOR`: the face has color glyphs (COLR, CBDT, sbix).
    let hasColorGlyphs: Bool
    /// The `OS/2` table's `usWeightClass`, or nil when the face has no `OS/2` table.
    let weightClass: Int?
    /// The face's bitmap strikes (`available_sizes`), in its order; empty for a face without any.
    let strikes: [BitmapStrike]
    /// Axes, named instances and the coordinates this face was set to (all empty when it does not vary).
    let variation: FaceVariation

    let library: FT_Library
    let face: FT_Face                    // used only inside `lock.withLock` (or in init/deinit)
    let lock = Lock()
    let bytes: FontBytes                 // must outlive `face` and the companions: both read it in place
    /// Objects other modules keep per face (InkText's HarfBuzz face and font over `bytes`), created once
    /// and released before the bytes; guarded by `companionLock`.
    private var companions: [ObjectIdentifier: AnyObject] = [:]
    private let companionLock = Lock()
    /// What the face's color glyph calls learnt (each glyph's ink, its color tables): guarded by `lock`
    /// (FreeTypeFace+Color.swift).
    var color = ColorState()

    /// Unscaled, unhinted outlines and metrics in font units, never a bitmap strike.
    static let loadFlags = FT_Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)
    private static let errInvalidArgument: FT_Error = 0x06

    /// Opens face `faceIndex` of `bytes`, at the design coordinates of `instance` and `variations` when
    /// either is given. A `faceIndex` above 0xFFFF is FreeType's (and fontconfig's) packed form
    /// `(n << 16) | face`: named instance n (1-based; 0 for none) of face `face`, used when `instance` is nil.
    ///
    /// - Throws: `.faceIndexOutOfRange`, `.notAFont`, `.notScalable`, `.freeType` (corrupt data etc.);
    ///   `.unknownInstance` for a packed instance number the face does not have; with variations, as
    ///   `Font.withVariations(_:instance:)`.
    init(bytes: FontBytes, faceIndex packedIndex: Int, variations: [FontVariation] = [],
         instance explicitInstance: NamedInstanceSelector? = nil) throws(FontError) {
        let faceIndex = packedIndex >= 0 && packedIndex <= 0x7FFF_FFFF ? packedIndex & 0xFFFF : packedIndex
        let packedInstance = packedIndex > 0xFFFF && packedIndex <= 0x7FFF_FFFF ? packedIndex >> 16 : 0
        let instance = explicitInstance ?? (packedInstance > 0 ? .index(packedInstance - 1) : nil)
        var maybeLibrary: FT_Library?
        let initError = FT_Init_FreeType(&maybeLibrary)
        guard initError == 0, let library = maybeLibrary else {
            throw FontError(freeTypeCode: initError == 0 ? 0x40 : initError)   // 0x40: Out_Of_Memory
        }
        var ownsLibrary = true
        defer { if ownsLibrary { FT_Done_FreeType(library) } }

        let face = try FreeTypeFace.openFace(library, bytes, faceIndex)
        // FreeType leaves units per em (and the metrics) 0 for an sfnt without outlines (CBDT/CBLC, sbix
        // only, such as Noto Color Emoji); its `head` and `hhea` tables still say them.
        let sfntMetrics = face.pointee.units_per_EM > 0 ? nil : FreeTypeFace.bitmapOnlyMetrics(face)
        guard face.pointee.units_per_EM > 0 || sfntMetrics != nil else {
            FT_Done_Face(face)
            throw .notScalable
        }
        // Prefer a Unicode cmap; without one, FreeType keeps whatever cmap it chose (maybe none).
        _ = FT_Select_Charmap(face, FT_ENCODING_UNICODE)
        // A packed index on a face without named instances names no face (FreeType refuses it too).
        if packedInstance > 0 && explicitInstance == nil && face.pointee.face_flags & FT_Long(FT_FACE_FLAG_MULTIPLE_MASTERS) == 0 {
            let count = Int(face.pointee.num_faces)
            FT_Done_Face(face)
            throw .faceIndexOutOfRange(index: packedIndex, faceCount: count)
        }
        do {
            variation = try FreeTypeFace.setVariations(library, face, variations, instance)
        } catch {
            FT_Done_Face(face)
            throw error
        }

        let rec = face.pointee
        self.id = FontIDs.next()
        self.contentID = bytes.namespace(faceIndex: faceIndex, coordinates: variation.fixedCoordinates)
        self.faceIndex = faceIndex
        self.namedInstance = variation.instance
        self.faceCount = max(1, Int(rec.num_faces))
        self.glyphCount = max(0, Int(rec.num_glyphs))
        self.unitsPerEm = sfntMetrics?.unitsPerEm ?? Int(rec.units_per_EM)
        self.familyName = rec.family_name.map { String(cString: $0) }
        self.styleName = rec.style_name.map { String(cString: $0) }
        self.ascender = sfntMetrics?.ascender ?? Int(rec.ascender)
        self.descender = sfntMetrics?.descender ?? Int(rec.descender)
        self.height = sfntMetrics?.height ?? Int(rec.height)
        self.isScalable = rec.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0
        self.hasKerning = rec.face_flags & FT_Long(FT_FACE_FLAG_KERNING) != 0
        self.hasPostScriptOutlines = FreeTypeFace.hasPostScriptOutlines(face)
        self.format = FT_Get_Font_Format(face).map { String(cString: $0) } ?? ""
        self.isBoldFace = rec.style_flags & FT_Long(FT_STYLE_FLAG_BOLD) != 0
        self.isItalicFace = rec.style_flags & FT_Long(FT_STYLE_FLAG_ITALIC) != 0
        self.isFixedPitch = rec.face_flags & FT_Long(FT_FACE_FLAG_FIXED_WIDTH) != 0
        self.hasColorGlyphs = rec.face_flags & FT_Long(FT_FACE_FLAG_COLOR) != 0
        self.weightClass = FT_Get_Sfnt_Table(face, FT_SFNT_OS2).map { Int($0.assumingMemoryBound(to: TT_OS2.self).pointee.usWeightClass) }
        self.strikes = FreeTypeFace.strikes(rec)
        self.library = library
        self.face = face
        self.bytes = bytes
        ownsLibrary = false
    }

    deinit {
        companions.removeAll()           // before `bytes` goes: companions may read it
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    /// The companion of type `T`, made by `make` on first use (under a lock, so once per face).
    func companion<T: AnyObject>(_ type: T.Type, make: () -> T) -> T {
        companionLock.withLock {
            if let c = companions[ObjectIdentifier(type)] as? T { return c }
            let c = make()
            companions[ObjectIdentifier(type)] = c
            return c
        }
    }

    /// The bytes of the face's sfnt table `tag` (`FT_Load_Sfnt_Table`), or nil when it has none or it is larger
    /// than `maximumBytes`.
    func sfntTable(_ tag: UInt32, maximumBytes: Int = 1 << 20) -> [UInt8]? {
        lock.withLock {
            var length: FT_ULong = 0
            guard FT_Load_Sfnt_Table(face, FT_ULong(tag), 0, nil, &length) == 0, length > 0, Int(length) <= maximumBytes else {
                return nil
            }
            var bytes = [UInt8](repeating: 0, count: Int(length))
            let error = bytes.withUnsafeMutableBufferPointer { FT_Load_Sfnt_Table(face, FT_ULong(tag), 0, $0.baseAddress, &length) }
            return error == 0 ? bytes : nil
        }
    }

    /// Units per em and vertical metrics of an sfnt face FreeType opened without them (a face of bitmap
    /// strikes only): `head` units per em (16…16384) and `hhea` ascender, descender and line gap, or nil
    /// when the face has no strikes or no such tables.
    private static func bitmapOnlyMetrics(_ face: FT_Face) -> (unitsPerEm: Int, ascender: Int, descender: Int, height: Int)? {
        guard face.pointee.num_fixed_sizes > 0, face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SFNT) != 0,
              let head = FT_Get_Sfnt_Table(face, FT_SFNT_HEAD)?.assumingMemoryBound(to: TT_Header.self),
              (16...16384).contains(Int(head.pointee.Units_Per_EM)) else { return nil }
        let upem = Int(head.pointee.Units_Per_EM)
        guard let hhea = FT_Get_Sfnt_Table(face, FT_SFNT_HHEA)?.assumingMemoryBound(to: TT_HoriHeader.self) else {
            return (upem, upem, 0, upem)
        }
        let a = Int(hhea.pointee.Ascender), d = Int(hhea.pointee.Descender), gap = Int(hhea.pointee.Line_Gap)
        return (upem, a, d, a - d + gap)
    }

    /// The face's bitmap strikes (`available_sizes`), in its order.
    private static func strikes(_ rec: FT_FaceRec) -> [BitmapStrike] {
        (0..<max(0, Int(rec.num_fixed_sizes))).compactMap { i in
            guard let sizes = rec.available_sizes else { return nil }
            return BitmapStrike(xPixelsPerEm: Double(sizes[i].x_ppem) / 64, yPixelsPerEm: Double(sizes[i].y_ppem) / 64)
        }
    }

    /// True when FreeType reads `face` with a PostScript driver (`FT_Get_Font_Format`: "CFF", "Type 1",
    /// "CID Type 1").
    private static func hasPostScriptOutlines(_ face: FT_Face) -> Bool {
        let format = FT_Get_Font_Format(face).map { String(cString: $0) } ?? ""
        return format == "CFF" || format == "Type 1" || format == "CID Type 1"
    }

    /// Opens face `index`, or explains why not. Face indices are checked against the face count FreeType
    /// reports (`FT_Open_Face` with index -1 only counts), because FreeType reads the high 16 bits of the
    /// index as a named-instance number and answers a too-large index with a bare `Invalid_Argument`.
    private static func openFace(_ library: FT_Library, _ bytes: FontBytes, _ index: Int) throws(FontError) -> FT_Face {
        func open(_ i: Int) -> (FT_Face?, FT_Error) {
            var face: FT_Face?
            let base = bytes.buffer.baseAddress!.assumingMemoryBound(to: FT_Byte.self)
            let error = FT_New_Memory_Face(library, base, FT_Long(bytes.buffer.count), FT_Long(i), &face)
            return (error == 0 ? face : nil, error)
        }
        func countFaces() throws(FontError) -> Int {
            let (face, error) = open(-1)
            guard error == 0, let face else { throw FontError(openingFaceCode: error == 0 ? 0x06 : error) }
            let count = Int(face.pointee.num_faces)
            FT_Done_Face(face)
            return count
        }
        guard index >= 0 && index <= 0xFFFF else {
            throw .faceIndexOutOfRange(index: index, faceCount: try countFaces())
        }
        let (face, error) = open(index)
        if error == 0, let face { return face }
        if error & 0xFF == errInvalidArgument && index > 0 {
            let count = try countFaces()
            if index >= count { throw .faceIndexOutOfRange(index: index, faceCount: count) }
        }
        throw FontError(openingFaceCode: error == 0 ? errInvalidArgument : error)
    }

    /// Reads the face's axes and named instances and, when asked, sets its design coordinates.
    private static func setVariations(_ library: FT_Library, _ face: FT_Face, _ requests: [FontVariation],
                                      _ instance: NamedInstanceSelector?) throws(FontError) -> FaceVariation {
        let asked = !requests.isEmpty || instance != nil
        var mmVar: UnsafeMutablePointer<FT_MM_Var>?
        guard face.pointee.face_flags & FT_Long(FT_FACE_FLAG_MULTIPLE_MASTERS) != 0,
              FT_Get_MM_Var(face, &mmVar) == 0, let mm = mmVar else {
            if asked { throw .notVariable }
            return FaceVariation()
        }
        defer { FT_Done_MM_Var(library, mm) }
        let axisCount = Int(mm.pointee.num_axis)
        var v = FaceVariation()
        for i in 0..<axisCount {
            let a = mm.pointee.axis[i]
            let tag = FontVariation.tagString(UInt32(truncatingIfNeeded: a.tag))
            let name = a.name.map { String(cString: $0) } ?? tag
            v.axes.append(VariationAxis(tag: tag, name: name.isEmpty ? tag : name, minimum: fixed(a.minimum),
                                        defaultValue: fixed(a.def), maximum: fixed(a.maximum)))
        }
        for i in 0..<Int(mm.pointee.num_namedstyles) {
            let style = mm.pointee.namedstyle[i]
            let coordinates = (0..<axisCount).map { fixed(style.coords[$0]) }
            v.instances.append(NamedInstance(name: sfntName(face, id: style.strid), coordinates: coordinates))
        }
        v.instance = try instance.map { (s) throws(FontError) in try v.instanceIndex(s) }
        let start = v.instance.map { v.instances[$0].coordinates } ?? v.axes.map(\.defaultValue)
        let (coordinates, clamps) = try v.resolve(requests, from: start)
        v.clamps = clamps
        if asked {
            var raw = coordinates.map { FT_Fixed(($0 * 65536).rounded()) }
            let error = FT_Set_Var_Design_Coordinates(face, FT_UInt(axisCount), &raw)
            guard error == 0 else { throw FontError(freeTypeCode: error) }
            v.fixedCoordinates = raw.map { Int($0) }
        }
        v.coordinates = coordinates
        return v
    }

    /// A 16.16 fixed-point number of an `fvar` table (a signed 32-bit value: FreeType 2.12 leaves the named
    /// instances' coordinates unsigned in its 64-bit `FT_Fixed`, so −10 reads as 65526 unless sign-extended).
    private static func fixed(_ v: FT_Fixed) -> Double { Double(Int32(truncatingIfNeeded: v)) / 65536 }

    /// Entry `id` of the face's `name` table (Windows Unicode, English preferred; else a Macintosh Roman
    /// entry read as ASCII), or nil.
    private static func sfntName(_ face: FT_Face, id: FT_UInt) -> String? {
        var best: String?
        for i in 0..<FT_Get_Sfnt_Name_Count(face) {
            var n = FT_SfntName()
            guard FT_Get_Sfnt_Name(face, i, &n) == 0, FT_UInt(n.name_id) == id, let bytes = n.string else { continue }
            let count = Int(n.string_len)
            if n.platform_id == 3 || n.platform_id == 0 {
                let units = (0..<count / 2).map { UInt16(bytes[2 * $0]) << 8 | UInt16(bytes[2 * $0 + 1]) }
                let s = String(decoding: units, as: UTF16.self)
                if n.platform_id == 3 && n.language_id == 0x409 { return s }
                best = best ?? s
            } else if n.platform_id == 1 && best == nil {
                best = String(decoding: (0..<count).map { bytes[$0] & 0x7F }, as: UTF8.self)
            }
        }
        return best
    }

    /// The one conversion of FreeType numbers: with `FT_LOAD_NO_SCALE` and `FT_KERNING_UNSCALED`,
    /// FreeType's `FT_Pos`/`FT_Fixed` values are plain font units (not 26.6 or 16.16 fixed point).
    @inline(__always)
    private static func fontUnits(_ v: FT_Pos) -> Double { Double(v) }

    // MARK: Per-glyph calls (all under `lock`)

    func glyph(for scalar: Unicode.Scalar) -> GlyphID? {
        let g = lock.withLock { FT_Get_Char_Index(face, FT_ULong(scalar.value)) }
        return g == 0 || Int(g) >= glyphCount ? nil : GlyphID(UInt32(g))
    }

    func advance(of glyph: GlyphID) throws(FontError) -> Double {
        try checkRange(glyph)
        var value: FT_Fixed = 0
        let error = lock.withLock { FT_Get_Advance(face, FT_UInt(glyph.rawValue), FreeTypeFace.loadFlags, &value) }
        guard error == 0 else { throw glyphError(glyph, error) }
        return FreeTypeFace.fontUnits(value)
    }

    func kerning(_ left: GlyphID, _ right: GlyphID) -> Double {
        guard hasKerning, Int(left.rawValue) < glyphCount, Int(right.rawValue) < glyphCount else { return 0 }
        var vector = FT_Vector()
        let error = lock.withLock {
            FT_Get_Kerning(face, FT_UInt(left.rawValue), FT_UInt(right.rawValue), FT_UInt(FT_KERNING_UNSCALED.rawValue), &vector)
        }
        return error == 0 ? FreeTypeFace.fontUnits(vector.x) : 0
    }

    /// Loads the glyph as `rendering` says and copies its outline out of the glyph slot, in font units.
    func outline(glyph: GlyphID, maxPoints: Int, rendering: OutlineRendering = .exact) throws(FontError) -> GlyphOutline {
        try checkRange(glyph)
        return try lock.withLock { () throws(FontError) -> GlyphOutline in
            try copyOutline(try loadOutline(glyph, rendering), glyph: glyph, maxPoints: maxPoints, rendering: rendering)
        }
    }

    /// The one route from FreeType to a shape's polygon (`FontShapeCache`): the glyph's outline as `rendering`
    /// loads it, drawn into `sink` straight from FreeType's arrays (checked by `GlyphOutline`'s rules first;
    /// nothing is copied), in font units. On the glyph's first sight the same load also decides its ink (in
    /// `classify`'s order, then remembered): one FreeType load for a new glyph. A glyph whose ink is not an
    /// outline is not drawn; its ink is returned. With `copy`, the outline is also returned as a `GlyphOutline`
    /// (what a stroked style's band is made from).
    func drawOutline(glyph: GlyphID, rendering: OutlineRendering, maxPoints: Int, copy: Bool,
                     into sink: inout GlyphShape.Sink) throws(FontError) -> (ink: GlyphInk, outline: GlyphOutline?) {
        try checkRange(glyph)
        return try lock.withLock { () throws(FontError) -> (ink: GlyphInk, outline: GlyphOutline?) in
            var loaded: FT_Outline? = nil
            if let k = color.kinds[glyph.rawValue] {
                guard k == .outline else { return (k, nil) }
            } else if isScalable && !hasColorLayers(glyph),
                      FT_Load_Glyph(face, FT_UInt(glyph.rawValue), FreeTypeFace.loadFlags) == 0,
                      let slot = face.pointee.glyph, slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE,
                      slot.pointee.outline.n_points > 0 {
                // The order of `classify`: color data first, then an outline with points from one load — the
                // outline drawn below when the rendering is exact.
                color.kinds[glyph.rawValue] = .outline
                if rendering.isExact { loaded = slot.pointee.outline }
            } else {
                let k = try classify(glyph)
                color.kinds[glyph.rawValue] = k
                guard k == .outline else { return (k, nil) }
            }
            let outline: FT_Outline
            if let loaded { outline = loaded } else { outline = try loadOutline(glyph, rendering) }
            try drawInPlace(outline, glyph: glyph, rendering: rendering, maxPoints: maxPoints, into: &sink)
            guard copy else { return (.outline, nil) }
            return (.outline, try copyOutline(outline, glyph: glyph, maxPoints: maxPoints, rendering: rendering))
        }
    }

    /// Font units per unit of the outline FreeType loads for `rendering`: 1 for an unscaled (exact) load, and
    /// em / char size for a hinted or emboldened one (loaded in 26.6 px at the char size).
    private func outlineScale(_ rendering: OutlineRendering) -> Double {
        rendering.isExact ? 1 : Double(unitsPerEm) / Double(rendering.charSize64)
    }

    /// Draws the outline FreeType left in the glyph slot into `sink`, in font units, without copying it, after
    /// the checks `GlyphOutline` makes (an outline without points draws nothing). Call with `lock` held.
    private func drawInPlace(_ outline: FT_Outline, glyph: GlyphID, rendering: OutlineRendering, maxPoints: Int,
                             into sink: inout GlyphShape.Sink) throws(FontError) {
        let n = Int(outline.n_points), contours = Int(outline.n_contours)
        guard n >= 0, contours >= 0 else {
            throw .brokenOutline(glyph: glyph, reason: "FreeType reports \(n) points and \(contours) contours")
        }
        guard n <= maxPoints else { throw .tooManyPoints(glyph: glyph, count: n, limit: maxPoints) }
        if n == 0 && contours == 0 { return }
        guard let rawPoints = outline.points, let rawTags = outline.tags, let rawEnds = outline.contours else {
            throw .brokenOutline(glyph: glyph, reason: "FreeType returned an outline without point arrays")
        }
        if n == 0 { throw .brokenOutline(glyph: glyph, reason: "\(contours) contours but no points") }
        let ends = UnsafeBufferPointer(start: rawEnds, count: contours).lazy.map { Int($0) }
        let mask = GlyphOutline.onCurveBit | GlyphOutline.cubicBit
        if let problem = GlyphOutline.contourEndProblem(count: n, contourEnds: ends)
            ?? GlyphOutline.cubicPairingProblem(tags: { UInt8(truncatingIfNeeded: rawTags[$0]) & mask }, contourEnds: ends) {
            throw .brokenOutline(glyph: glyph, reason: problem)
        }
        sink.reserveCapacity(vertices: 2 * n + 2 * contours)
        let source = FreeTypePoints(points: rawPoints, tags: rawTags, scale: outlineScale(rendering), matrix: rendering.outlineMatrix)
        OutlineWalk(source: source).all(contourEnds: ends, into: &sink)
    }

    /// The outline FreeType left in the glyph slot, copied out in font units and checked. Call with `lock` held.
    private func copyOutline(_ outline: FT_Outline, glyph: GlyphID, maxPoints: Int,
                             rendering: OutlineRendering) throws(FontError) -> GlyphOutline {
        let k = outlineScale(rendering)
        let n = Int(outline.n_points), contours = Int(outline.n_contours)
        guard n >= 0, contours >= 0 else {
            throw .brokenOutline(glyph: glyph, reason: "FreeType reports \(n) points and \(contours) contours")
        }
        guard n <= maxPoints else { throw .tooManyPoints(glyph: glyph, count: n, limit: maxPoints) }
        if n == 0 && contours == 0 { return .empty }
        guard let rawPoints = outline.points, let rawTags = outline.tags, let rawEnds = outline.contours else {
            throw .brokenOutline(glyph: glyph, reason: "FreeType returned an outline without point arrays")
        }
        var points: [Point] = []
        var tags: [UInt8] = []
        points.reserveCapacity(n)
        tags.reserveCapacity(n)
        let m = rendering.outlineMatrix
        for i in 0..<n {
            var p = Point(FreeTypeFace.fontUnits(rawPoints[i].x), FreeTypeFace.fontUnits(rawPoints[i].y))
            if !m.isIdentity { p = Point(m.xx * p.x + m.xy * p.y, m.yx * p.x + m.yy * p.y) }
            points.append(Point(p.x * k, p.y * k))
            tags.append(UInt8(truncatingIfNeeded: rawTags[i]) & (GlyphOutline.onCurveBit | GlyphOutline.cubicBit))
        }
        let ends = (0..<contours).map { Int(rawEnds[$0]) }
        if let problem = GlyphOutline.problem(points: points, tags: tags, contourEnds: ends) {
            throw .brokenOutline(glyph: glyph, reason: problem)
        }
        return GlyphOutline(unchecked: points, tags: tags, contourEnds: ends)
    }

    /// FreeType's own control box of the glyph's outline (`FT_Outline_Get_CBox`), in font units;
    /// `Rect.empty` for an outline without points.
    func controlBox(glyph: GlyphID, rendering: OutlineRendering = .exact) throws(FontError) -> Rect {
        try checkRange(glyph)
        let k = outlineScale(rendering)
        return try lock.withLock { () throws(FontError) -> Rect in
            var outline = try loadOutline(glyph, rendering)
            guard outline.n_points > 0 else { return .empty }
            var box = FT_BBox()
            FT_Outline_Get_CBox(&outline, &box)
            let r = Rect(minX: FreeTypeFace.fontUnits(box.xMin) * k, minY: FreeTypeFace.fontUnits(box.yMin) * k,
                         maxX: FreeTypeFace.fontUnits(box.xMax) * k, maxY: FreeTypeFace.fontUnits(box.yMax) * k)
            // The outline is mapped back by the rendering's matrix: the box of the mapped corners holds it.
            return rendering.outlineMatrix.isIdentity ? r : r.applying(rendering.outlineMatrix.transform)
        }
    }

    /// `FT_GlyphSlot_Embolden`'s strength at `charSize64` (1/64 px per em), in px: `FT_MulFix(units_per_EM,
    /// y_scale) / 24` from the size FreeType sets (0 if it refuses the size).
    func freeTypeEmboldenStrength(charSize64: Int32) -> Double {
        lock.withLock {
            guard FT_Set_Char_Size(face, 0, FT_F26Dot6(charSize64), 72, 72) == 0, let size = face.pointee.size else { return 0 }
            return Double(FT_MulFix(FT_Long(face.pointee.units_per_EM), size.pointee.metrics.y_scale) / 24) / 64
        }
    }

    /// FreeType's anti-aliased coverage of `glyph` (unhinted), scaled by `scale` px per font unit with its
    /// origin at `(originX, originY)` px in a y-up `width × height` bitmap; rows returned top first, one byte
    /// per pixel (0 = no ink, 255 = full). A reference rasteriser for tests and benchmark baselines.
    func coverage(glyph: GlyphID, scale: Double, originX: Double, originY: Double,
                  width: Int, height: Int) throws(FontError) -> [UInt8] {
        try checkRange(glyph)
        var pixels = [UInt8](repeating: 0, count: width * height)
        guard width > 0, height > 0 else { return pixels }
        try lock.withLock { () throws(FontError) -> Void in
            let slotOutline = try loadOutline(glyph)
            guard slotOutline.n_points > 0 else { return }
            guard let slot = face.pointee.glyph else { return }
            let m = FT_Fixed((scale * 64 * 65536).rounded())
            var matrix = FT_Matrix(xx: m, xy: 0, yx: 0, yy: m)
            FT_Outline_Transform(&slot.pointee.outline, &matrix)
            FT_Outline_Translate(&slot.pointee.outline, FT_Pos((originX * 64).rounded()), FT_Pos((originY * 64).rounded()))
            pixels.withUnsafeMutableBufferPointer { buf in
                var bitmap = FT_Bitmap()
                bitmap.rows = UInt32(height)
                bitmap.width = UInt32(width)
                bitmap.pitch = Int32(width)
                bitmap.buffer = buf.baseAddress
                bitmap.num_grays = 256
                bitmap.pixel_mode = UInt8(FT_PIXEL_MODE_GRAY.rawValue)
                _ = FT_Outline_Get_Bitmap(library, &slot.pointee.outline, &bitmap)
            }
        }
        return pixels
    }

    // MARK: Helpers

    func checkRange(_ glyph: GlyphID) throws(FontError) {
        guard Int(glyph.rawValue) < glyphCount else { throw .glyphOutOfRange(glyph: glyph, glyphCount: glyphCount) }
    }

    /// Loads `glyph` into the face's glyph slot and returns the slot's outline record (its arrays stay
    /// valid until the next load). Call with `lock` held.
    ///
    /// A rendered load (`rendering` not exact) sets the face's size, loads the scaled outline (hinted as asked)
    /// and emboldens it in place, as a FreeType renderer does; its points are then 26.6 px.
    private func loadOutline(_ glyph: GlyphID, _ rendering: OutlineRendering = .exact) throws(FontError) -> FT_Outline {
        // A face without outlines (bitmap strikes only) would load an empty one: it has none.
        guard isScalable else { throw .noOutline(glyph: glyph) }
        var flags = FreeTypeFace.loadFlags
        if !rendering.isExact {
            // The char size, per axis when the style asks (FT_Set_Char_Size(width, height)); 0 means "as the other".
            let width = rendering.ppemX64 > 0 ? rendering.ppemX64 : rendering.charSize64
            let height = rendering.ppemY64 > 0 ? rendering.ppemY64 : rendering.charSize64
            let error = FT_Set_Char_Size(face, FT_F26Dot6(width), FT_F26Dot6(height), 72, 72)
            guard error == 0 else { throw FontError(freeTypeCode: error) }
            flags = FT_Int32(FT_LOAD_NO_BITMAP)
            switch rendering.hinting {
            case .none: flags |= FT_Int32(FT_LOAD_NO_HINTING)
            case .light: flags |= FT_Int32(FT_RENDER_MODE_LIGHT.rawValue & 15) << 16    // FT_LOAD_TARGET_LIGHT
            case .full: break                                                           // FT_LOAD_TARGET_NORMAL
            case .mono: flags |= FT_Int32(FT_RENDER_MODE_MONO.rawValue & 15) << 16      // FT_LOAD_TARGET_MONO
            }
        }
        // A rendering's matrix is applied by FreeType after hinting (FT_Set_Transform, as cairo does); it is
        // set for this load only (the color code loads bitmaps with the face too).
        var matrix = FT_Matrix(xx: FT_Fixed(rendering.matrix.xx), xy: FT_Fixed(rendering.matrix.xy),
                               yx: FT_Fixed(rendering.matrix.yx), yy: FT_Fixed(rendering.matrix.yy))
        let transformed = !rendering.isExact && !rendering.matrix.isIdentity
        if transformed { FT_Set_Transform(face, &matrix, nil) }
        // Stem darkening is a property of the face, set for this load only (FreeType reads it per load).
        let darkened = !rendering.isExact && rendering.stemDarkening && hasPostScriptOutlines
        if darkened { setStemDarkening(true) }
        let error = FT_Load_Glyph(face, FT_UInt(glyph.rawValue), flags)
        if darkened { setStemDarkening(nil) }
        if transformed { FT_Set_Transform(face, nil, nil) }
        guard error == 0 else { throw glyphError(glyph, error) }
        guard let slot = face.pointee.glyph, slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE else {
            throw .noOutline(glyph: glyph)
        }
        if rendering.emboldenFreeType {
            FT_GlyphSlot_Embolden(slot)
        } else if rendering.emboldenX64 != 0 || rendering.emboldenY64 != 0 {
            // Like FT_GlyphSlot_Embolden, a renderer draws an outline FreeType cannot embolden (no
            // orientation: a degenerate glyph) as it is.
            _ = FT_Outline_EmboldenXY(&slot.pointee.outline, FT_Pos(rendering.emboldenX64), FT_Pos(rendering.emboldenY64))
        }
        return slot.pointee.outline
    }

    /// `FT_PARAM_TAG_STEM_DARKENING` ('dark').
    private static let stemDarkeningTag = FT_ULong(0x6461_726B)

    /// Sets the face's stem darkening (`FT_Face_Properties`; nil: back to the driver's default). Call with
    /// `lock` held.
    private func setStemDarkening(_ on: Bool?) {
        var value: FT_Bool = on == true ? 1 : 0
        withUnsafeMutablePointer(to: &value) { v in
            var property = FT_Parameter(tag: FreeTypeFace.stemDarkeningTag, data: on == nil ? nil : UnsafeMutableRawPointer(v))
            _ = FT_Face_Properties(face, 1, &property)
        }
    }

    /// A failed per-glyph call: faces without scalable outlines have nothing to load.
    func glyphError(_ glyph: GlyphID, _ error: FT_Error) -> FontError {
        isScalable ? FontError(freeTypeCode: error) : .noOutline(glyph: glyph)
    }
}
