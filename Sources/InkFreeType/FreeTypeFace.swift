import CFreeType
import InkGeometry
@_spi(InkInternals) import InkHit

// All FreeType calls and pointers of InkFreeType live in this file.

/// One FreeType face with its own `FT_Library`, the bytes it reads, and the lock that serialises every
/// FreeType call on it. Facts that never change (counts, names, metrics) are read once in `init`.
///
/// Thread safety: FreeType objects are not thread-safe, but a library per face plus `lock` around every
/// call that touches `face` after `init` makes this class safe to share (hence `@unchecked Sendable`).
final class FreeTypeFace: @unchecked Sendable {
    let id: UInt64
    let faceIndex: Int
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

    private let library: FT_Library
    private let face: FT_Face            // used only inside `lock.withLock` (or in init/deinit)
    private let lock = Lock()
    let bytes: FontBytes                 // must outlive `face` and the companions: both read it in place
    /// Objects other modules keep per face (InkText's HarfBuzz face and font over `bytes`), created once
    /// and released before the bytes; guarded by `companionLock`.
    private var companions: [ObjectIdentifier: AnyObject] = [:]
    private let companionLock = Lock()

    /// Unscaled, unhinted outlines and metrics in font units, never a bitmap strike.
    private static let loadFlags = FT_Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)
    private static let errInvalidArgument: FT_Error = 0x06

    /// Opens face `faceIndex` of `bytes`.
    ///
    /// - Throws: `.faceIndexOutOfRange`, `.notAFont`, `.notScalable`, `.freeType` (corrupt data etc.).
    init(bytes: FontBytes, faceIndex: Int) throws(FontError) {
        var maybeLibrary: FT_Library?
        let initError = FT_Init_FreeType(&maybeLibrary)
        guard initError == 0, let library = maybeLibrary else {
            throw FontError(freeTypeCode: initError == 0 ? 0x40 : initError)   // 0x40: Out_Of_Memory
        }
        var ownsLibrary = true
        defer { if ownsLibrary { FT_Done_FreeType(library) } }

        let face = try FreeTypeFace.openFace(library, bytes, faceIndex)
        guard face.pointee.units_per_EM > 0 else {
            FT_Done_Face(face)
            throw .notScalable
        }
        // Prefer a Unicode cmap; without one, FreeType keeps whatever cmap it chose (maybe none).
        _ = FT_Select_Charmap(face, FT_ENCODING_UNICODE)

        let rec = face.pointee
        self.id = FontIDs.next()
        self.faceIndex = faceIndex
        self.faceCount = max(1, Int(rec.num_faces))
        self.glyphCount = max(0, Int(rec.num_glyphs))
        self.unitsPerEm = Int(rec.units_per_EM)
        self.familyName = rec.family_name.map { String(cString: $0) }
        self.styleName = rec.style_name.map { String(cString: $0) }
        self.ascender = Int(rec.ascender)
        self.descender = Int(rec.descender)
        self.height = Int(rec.height)
        self.isScalable = rec.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0
        self.hasKerning = rec.face_flags & FT_Long(FT_FACE_FLAG_KERNING) != 0
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

    /// Loads the glyph and copies its outline out of the glyph slot.
    func outline(glyph: GlyphID, maxPoints: Int) throws(FontError) -> GlyphOutline {
        try checkRange(glyph)
        return try lock.withLock { () throws(FontError) -> GlyphOutline in
            let outline = try loadOutline(glyph)
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
            for i in 0..<n {
                points.append(Point(FreeTypeFace.fontUnits(rawPoints[i].x), FreeTypeFace.fontUnits(rawPoints[i].y)))
                tags.append(UInt8(truncatingIfNeeded: rawTags[i]) & (GlyphOutline.onCurveBit | GlyphOutline.cubicBit))
            }
            let ends = (0..<contours).map { Int(rawEnds[$0]) }
            if let problem = GlyphOutline.problem(points: points, tags: tags, contourEnds: ends) {
                throw .brokenOutline(glyph: glyph, reason: problem)
            }
            return GlyphOutline(unchecked: points, tags: tags, contourEnds: ends)
        }
    }

    /// FreeType's own control box of the glyph's outline (`FT_Outline_Get_CBox`), in font units;
    /// `Rect.empty` for an outline without points.
    func controlBox(glyph: GlyphID) throws(FontError) -> Rect {
        try checkRange(glyph)
        return try lock.withLock { () throws(FontError) -> Rect in
            var outline = try loadOutline(glyph)
            guard outline.n_points > 0 else { return .empty }
            var box = FT_BBox()
            FT_Outline_Get_CBox(&outline, &box)
            return Rect(minX: FreeTypeFace.fontUnits(box.xMin), minY: FreeTypeFace.fontUnits(box.yMin),
                        maxX: FreeTypeFace.fontUnits(box.xMax), maxY: FreeTypeFace.fontUnits(box.yMax))
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

    private func checkRange(_ glyph: GlyphID) throws(FontError) {
        guard Int(glyph.rawValue) < glyphCount else { throw .glyphOutOfRange(glyph: glyph, glyphCount: glyphCount) }
    }

    /// Loads `glyph` into the face's glyph slot and returns the slot's outline record (its arrays stay
    /// valid until the next load). Call with `lock` held.
    private func loadOutline(_ glyph: GlyphID) throws(FontError) -> FT_Outline {
        let error = FT_Load_Glyph(face, FT_UInt(glyph.rawValue), FreeTypeFace.loadFlags)
        guard error == 0 else { throw glyphError(glyph, error) }
        guard let slot = face.pointee.glyph, slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE else {
            throw .noOutline(glyph: glyph)
        }
        return slot.pointee.outline
    }

    /// A failed per-glyph call: faces without scalable outlines have nothing to load.
    private func glyphError(_ glyph: GlyphID, _ error: FT_Error) -> FontError {
        isScalable ? FontError(freeTypeCode: error) : .noOutline(glyph: glyph)
    }
}
