import InkGeometry

/// One face of a font file (TrueType, OpenType/CFF, a collection member, …) loaded through FreeType:
/// glyph lookup, metrics and unhinted outlines, all in **font units, y-up**.
///
/// ```swift
/// let font = try Font(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
/// let o = font.glyph(for: "o")!                       // its GlyphID
/// var svg = SVGPathSink()
/// try font.outline(glyph: o, into: &svg)              // font units, y-up
/// print(try font.advance(of: o) * 16 / Double(font.unitsPerEm))     // advance at 16 px per em
/// ```
///
/// # Thread safety
/// `Font` is `Sendable` and may be used from any number of threads at once. A FreeType face is not
/// thread-safe, so each font owns its own `FT_Library` and `FT_Face` and serialises every FreeType call on
/// them with a lock; properties are read once at load time and need no lock. Calls on *different*
/// fonts never contend. For parallel outline extraction from one face, load the face once per thread.
///
/// # Identity
/// A `Font` is a handle: copies share one loaded face, and `==`/`hash` compare the loaded face, not the file.
/// Loading the same file twice gives two unequal fonts with different `id`s — which share one copy of the
/// bytes and one `contentID`, so their glyph shapes are built once.
///
/// # Guarantees
/// `unitsPerEm > 0` (faces without it, such as bitmap-only BDF/PCF, are refused with `.notScalable`);
/// `0 <= faceIndex < faceCount`; glyph ids are valid when `< glyphCount`.
public struct Font: Sendable, Hashable, Identifiable, CustomStringConvertible {
    let face: FreeTypeFace

    /// The largest font file `init(path:faceIndex:)` reads: 1 GiB (the largest common fonts, CJK
    /// collections, are near 120 MB). Larger files are refused with `FontError.unreadable`.
    public static let maximumFileSize = 1 << 30

    /// The default bound on points per glyph for `outline(glyph:maxPoints:)`: 100,000. Real glyphs have
    /// at most a few thousand; TrueType cannot store more than 65,535.
    public static let defaultMaximumPoints = 100_000

    /// Loads face `faceIndex` of the font file at `path`. The whole file is read into memory (at most
    /// `maximumFileSize` bytes); later changes to the file do not affect the font. A file whose bytes equal
    /// those of a font already loaded is held once: the fonts share the memory and their glyph shapes
    /// (`contentID`).
    ///
    /// `faceIndex` may be FreeType's (and fontconfig's `FC_INDEX`) packed form `(n << 16) | face`: named
    /// instance `n` of a variable font (1-based, `namedInstances[n - 1]`; 0 for none) of face `face`.
    ///
    /// - Throws: `.fileNotFound`, `.notAFile` (directory, device, FIFO), `.unreadable`, `.emptyData`,
    ///   `.notAFont`, `.faceIndexOutOfRange` (negative, or not below the file's face count),
    ///   `.notScalable`, `.notVariable` / `.unknownInstance` (a packed instance the face does not have), or
    ///   `.freeType` for corrupt or truncated fonts.
    public init(path: String, faceIndex: Int = 0) throws(FontError) {
        let bytes = try FontBytes(contentsOfFile: path, maximumSize: Font.maximumFileSize)
        face = try FreeTypeFace(bytes: FontContents.intern(bytes), faceIndex: faceIndex)
    }

    /// Loads face `faceIndex` (packed as for `init(path:faceIndex:)`) of a font held in memory. The bytes are
    /// copied (unless equal bytes are already loaded: then they are shared); the array may be dropped
    /// afterwards.
    ///
    /// - Throws: `.emptyData`, `.notAFont`, `.faceIndexOutOfRange`, `.notScalable`, `.notVariable`,
    ///   `.unknownInstance`, or `.freeType` for corrupt or truncated fonts.
    public init(bytes: [UInt8], faceIndex: Int = 0) throws(FontError) {
        face = try FreeTypeFace(bytes: FontContents.intern(FontBytes(copying: bytes)), faceIndex: faceIndex)
    }

    /// Loads face `faceIndex` (packed as for `init(path:faceIndex:)`) of font bytes the caller lends: nothing
    /// is copied. The bytes must stay valid and unchanged until `release` is called. `release` is called
    /// exactly once, on whichever thread drops the last user of the bytes (this font, fonts made from it
    /// with `withVariations(_:instance:)`, shapes and indexes holding its face): right away when loading
    /// fails, and right away when equal bytes are already loaded (the font then shares those). Lend the
    /// bytes of a memory-mapped file, an `hb_blob_t`'s data, or an `FT_Face` made with
    /// `FT_New_Memory_Face`.
    ///
    /// - Throws: as `init(bytes:faceIndex:)`; `.emptyData` for an empty buffer or one without a base address.
    public init(borrowing bytes: UnsafeRawBufferPointer, faceIndex: Int = 0,
                release: (@Sendable () -> Void)? = nil) throws(FontError) {
        guard bytes.count > 0, bytes.baseAddress != nil else {
            release?()
            throw .emptyData
        }
        // A failed load drops the lent bytes at once (their deinit calls `release`).
        face = try FreeTypeFace(bytes: FontContents.intern(FontBytes(borrowing: bytes, release: release)),
                                faceIndex: faceIndex)
    }

    /// A font over an opened face (an instance of another font's file).
    init(face: FreeTypeFace) { self.face = face }

    // MARK: Identity

    /// A number unique to this loaded font within the process (1, 2, 3, … in load order), stable for
    /// its lifetime.
    public var id: UInt64 { face.id }

    /// A number shared by every live font over the same content — equal bytes (from one file loaded any
    /// number of times, or equal bytes in memory), the same face and the same design coordinates — and by
    /// no other: the key of its glyph shapes in a `FontShapeCache`, so two handles of one file build each
    /// shape once. A content no font holds any more is forgotten; loaded again later, it gets a new number.
    public var contentID: UInt64 { face.contentID }

    /// The named instance of a variable font this font's coordinates started from (an index into
    /// `namedInstances`): from a packed face index or `withVariations(_:instance:)`; nil for the defaults.
    public var namedInstanceIndex: Int? { face.namedInstance }

    /// True when both handles share one loaded face.
    public static func == (lhs: Font, rhs: Font) -> Bool { lhs.face === rhs.face }
    /// Hashes the loaded face's `id`.
    public func hash(into hasher: inout Hasher) { hasher.combine(face.id) }

    /// `Font(#id "Family Style", face i of n, glyphs, units/em)`, with the design coordinates of a variable
    /// font (`wght=650 slnt=0`).
    public var description: String {
        let name = [familyName, styleName].compactMap { $0 }.joined(separator: " ")
        let axes = variationCoordinates.isEmpty ? "" : ", " + variationCoordinates.map(\.description).joined(separator: " ")
        return "Font(#\(id) \"\(name)\", face \(faceIndex) of \(faceCount), \(glyphCount) glyphs, \(unitsPerEm) units/em\(axes))"
    }

    // MARK: Face facts (read once at load; no lock)

    /// Bytes of font data this font holds in memory: the whole file (or byte array) it was loaded from.
    /// FreeType's own tables for the face come on top (usually far less).
    public var byteCount: Int { face.bytes.buffer.count }

    /// Which face of the file this is (0 for a single-face file).
    public var faceIndex: Int { face.faceIndex }
    /// How many faces the file holds (1 for a `.ttf`/`.otf`, more for a `.ttc` collection).
    public var faceCount: Int { face.faceCount }
    /// The number of glyphs; valid glyph ids are `0..<glyphCount` (glyph 0 is `.notdef`).
    public var glyphCount: Int { face.glyphCount }
    /// Every valid glyph id, `0..<glyphCount`.
    public var glyphIDs: Range<GlyphID> { GlyphID(0)..<GlyphID(UInt32(glyphCount)) }
    /// Font units per em (2048 for DejaVu, 1000 for most CFF fonts); always > 0. A glyph drawn at `s`
    /// px per em scales font units by `s / unitsPerEm`.
    public var unitsPerEm: Int { face.unitsPerEm }
    /// The family name ("DejaVu Sans"), or nil if the font has none.
    public var familyName: String? { face.familyName }
    /// The style name ("Book", "Bold Oblique"), or nil if the font has none.
    public var styleName: String? { face.styleName }
    /// Typographic ascender, in font units, y-up (positive above the baseline).
    public var ascender: Int { face.ascender }
    /// Typographic descender, in font units, y-up (usually negative: below the baseline).
    public var descender: Int { face.descender }
    /// Default baseline-to-baseline distance, in font units: `ascender - descender + lineGap`.
    public var height: Int { face.height }
    /// Extra space between lines, in font units: `height - (ascender - descender)` (may be 0).
    public var lineGap: Int { face.height - (face.ascender - face.descender) }
    /// True when the face has vector outlines (TrueType, CFF, Type 1). Faces that are not scalable
    /// (e.g. color-bitmap emoji fonts) open, but their glyphs throw `.noOutline`.
    public var isScalable: Bool { face.isScalable }
    /// True when the face's outlines are PostScript ones, read by FreeType's CFF engine: OpenType CFF and
    /// CFF2, Type 1, CID-keyed fonts (`FT_Get_Font_Format`: "CFF", "Type 1", "CID Type 1"). CFF stem
    /// darkening (`GlyphStyle.stemDarkening`) applies to these faces only.
    public var hasPostScriptOutlines: Bool { face.hasPostScriptOutlines }

    /// True when the face has a legacy `kern` table that `kerning(_:_:)` reads. GPOS kerning (used by most
    /// modern fonts) is applied by a shaper, not here.
    public var hasKerning: Bool { face.hasKerning }

    // MARK: Glyphs (each call takes the font's lock)

    /// The glyph for a Unicode scalar through the font's Unicode cmap, or nil when the font maps it to
    /// no glyph (FreeType's glyph 0) or has no Unicode cmap.
    public func glyph(for scalar: Unicode.Scalar) -> GlyphID? {
        face.glyph(for: scalar)
    }

    /// The horizontal advance of `glyph`, in font units (unscaled, unhinted).
    ///
    /// - Throws: `.glyphOutOfRange` when `glyph >= glyphCount`; `.noOutline` for glyphs of faces that are
    ///   not scalable; `.freeType` for corrupt metrics.
    public func advance(of glyph: GlyphID) throws(FontError) -> Double {
        try face.advance(of: glyph)
    }

    /// The horizontal kerning between two glyphs from the font's legacy `kern` table, in font units
    /// (add it to the left glyph's advance; usually negative). 0 when the font has no `kern` table
    /// (see `hasKerning`), when either glyph id is out of range, or when the table has no such pair.
    public func kerning(_ left: GlyphID, _ right: GlyphID) -> Double {
        face.kerning(left, right)
    }

    /// The unhinted outline of `glyph`, in font units (y-up), copied out of FreeType once.
    ///
    /// - Parameters:
    ///   - glyph: the glyph, `0..<glyphCount`.
    ///   - maxPoints: refuse glyphs with more outline points than this (a bound on work for untrusted fonts).
    /// - Throws: `.glyphOutOfRange` (checked before FreeType is called), `.noOutline` (bitmap-only glyph),
    ///   `.tooManyPoints`, `.brokenOutline` (contours that break the rules on `GlyphOutline`), or
    ///   `.freeType` (e.g. `Invalid_Outline`, `Invalid_Composite`, `Invalid_Table` for corrupt glyph data).
    public func outline(glyph: GlyphID, maxPoints: Int = Font.defaultMaximumPoints) throws(FontError) -> GlyphOutline {
        try face.outline(glyph: glyph, maxPoints: maxPoints)
    }

    /// The outline of `glyph` as `rendering` makes it (`GlyphStyle.rendering(size:)`: hinted and/or emboldened
    /// by FreeType at a size), in font units (y-up): FreeType's 26.6 px points scaled by
    /// `unitsPerEm / size`. `.exact` gives `outline(glyph:maxPoints:)`.
    ///
    /// - Throws: as `outline(glyph:maxPoints:)`, and `.freeType` when FreeType refuses the size.
    public func outline(glyph: GlyphID, rendering: OutlineRendering,
                        maxPoints: Int = Font.defaultMaximumPoints) throws(FontError) -> GlyphOutline {
        try face.outline(glyph: glyph, maxPoints: maxPoints, rendering: rendering)
    }

    /// Drives `sink` with the unhinted outline of `glyph`, in font units (y-up): `outline(glyph:)` then
    /// `GlyphOutline.decompose(into:)`. On error the sink sees nothing.
    ///
    /// - Throws: as `outline(glyph:maxPoints:)`.
    public func outline<S: OutlineSink>(glyph: GlyphID, into sink: inout S,
                                        maxPoints: Int = Font.defaultMaximumPoints) throws(FontError) {
        try face.outline(glyph: glyph, maxPoints: maxPoints).decompose(into: &sink)
    }

    /// FreeType's control box of `glyph` (`FT_Outline_Get_CBox`: the bounds of all outline points, control
    /// points included), in font units (y-up); `Rect.empty` for a glyph without points. An independent
    /// check of `GlyphOutline.controlBox`. With a `rendering`, the box of that outline (font units).
    ///
    /// - Throws: as `outline(glyph:maxPoints:)`, except `.tooManyPoints` and `.brokenOutline`.
    public func controlBox(glyph: GlyphID, rendering: OutlineRendering = .exact) throws(FontError) -> Rect {
        try face.controlBox(glyph: glyph, rendering: rendering)
    }

    /// FreeType's own anti-aliased rendering of `glyph` (unhinted): the outline scaled by `scale` px per font
    /// unit, its origin at `origin` px in a **y-up** bitmap of `width × height` px; bytes returned row by row,
    /// top row first (0 = no ink, 255 = full coverage). A reference rasteriser for tests and benchmark
    /// baselines, not part of the hit path. Sizes are limited to 16 Mpx (larger requests throw).
    ///
    /// - Throws: as `outline(glyph:maxPoints:)`, and `.unreadable` for a bitmap over 16 Mpx or a non-finite scale.
    public func coverage(glyph: GlyphID, scale: Double, origin: Point, width: Int, height: Int) throws(FontError) -> [UInt8] {
        guard width >= 0, height >= 0, width <= 1 << 24, height <= 1 << 24, width * height <= 1 << 24,
              scale.isFinite, scale > 0, scale < 1e3, origin.isFinite, abs(origin.x) < 1e6, abs(origin.y) < 1e6 else {
            throw .unreadable(path: "coverage", reason: "bitmap larger than 16 Mpx or non-finite scale/origin")
        }
        return try face.coverage(glyph: glyph, scale: scale, originX: origin.x, originY: origin.y, width: width, height: height)
    }

    /// Calls `body` with the font file's bytes (immutable, alive for the call; the whole file, all faces).
    /// For other engines that read the same font, such as a shaper.
    public func withUnsafeFileBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(face.bytes.buffer))
    }

    /// Not API: the object of type `T` that lives as long as this font's face (made by `make` on first use,
    /// once), for another module's per-font state over the same bytes, such as InkText's HarfBuzz font.
    /// `T` must not keep the `Font` alive (that would be a cycle); it may read the file bytes for as long as
    /// it lives: they are freed after it.
    package func companion<T: AnyObject>(_ type: T.Type, make: () -> T) -> T {
        face.companion(type, make: make)
    }
}
