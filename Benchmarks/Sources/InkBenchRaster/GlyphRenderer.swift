import CFreeTypeRaster
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The FreeType baseline of a glyph met for the first time: what a renderer pays to draw it —
/// `FT_Load_Glyph(face, g, FT_LOAD_NO_HINTING)` then `FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL)` at
/// `FT_Set_Char_Size(face, 0, size × 64, 72, 72)`, i.e. `size` px per em, unhinted, 8-bit coverage.
///
/// The font file is read into memory once (`init`); each `Face` is a fresh `FT_New_Memory_Face` over those
/// bytes, so a measurement can start from a face that has loaded nothing yet, as InkHit's side starts from a
/// freshly loaded `Font`. The loop over glyphs runs in C (`inkbench_ft_load_render` in CFreeTypeRaster's
/// shim.h): the baseline pays no Swift call per glyph.
public final class GlyphRenderer: @unchecked Sendable {
    let library: FT_Library
    let bytes: UnsafeMutableBufferPointer<UInt8>
    public let fontPath: String

    /// Reads the font file at `fontPath`.
    public init(fontPath: String) throws {
        self.fontPath = fontPath
        guard let file = fopen(fontPath, "rb") else { throw RasterError.freeType("fopen(\(fontPath))", -1) }
        defer { fclose(file) }
        fseek(file, 0, SEEK_END)
        let size = ftell(file)
        fseek(file, 0, SEEK_SET)
        guard size > 0 else { throw RasterError.freeType("ftell(\(fontPath))", -1) }
        bytes = .allocate(capacity: size)
        guard fread(bytes.baseAddress, 1, size, file) == size else {
            bytes.deallocate()
            throw RasterError.freeType("fread(\(fontPath))", -1)
        }
        var maybeLibrary: FT_Library?
        let err = FT_Init_FreeType(&maybeLibrary)
        guard err == 0, let library = maybeLibrary else {
            bytes.deallocate()
            throw RasterError.freeType("FT_Init_FreeType", err)
        }
        self.library = library
    }

    deinit {
        FT_Done_FreeType(library)
        bytes.deallocate()
    }

    /// A fresh face of the font at `size` px per em (`FT_New_Memory_Face` + `FT_Set_Char_Size`).
    public func face(size: Double) throws -> Face {
        var maybeFace: FT_Face?
        var err = FT_New_Memory_Face(library, bytes.baseAddress, FT_Long(bytes.count), 0, &maybeFace)
        guard err == 0, let face = maybeFace else { throw RasterError.freeType("FT_New_Memory_Face(\(fontPath))", err) }
        err = FT_Set_Char_Size(face, 0, FT_F26Dot6((size * 64).rounded()), 72, 72)
        guard err == 0 else {
            FT_Done_Face(face)
            throw RasterError.freeType("FT_Set_Char_Size(\(size))", err)
        }
        return Face(face, owner: self)
    }

    /// One `FT_Face` (released on deinit).
    public final class Face {
        let face: FT_Face
        let owner: GlyphRenderer        // keeps the library and the font bytes alive
        init(_ face: FT_Face, owner: GlyphRenderer) { self.face = face; self.owner = owner }
        deinit { FT_Done_Face(face) }

        /// Loads and renders each glyph of `glyphs` in order (see `GlyphRenderer`).
        public func loadAndRender(_ glyphs: UnsafeBufferPointer<UInt32>) -> Run {
            let r = inkbench_ft_load_render(face, glyphs.baseAddress, glyphs.count)
            return Run(rendered: Int(r.rendered), bitmapBytes: Int(r.bitmapBytes), error: r.error, failedGlyph: r.failedGlyph)
        }
    }

    /// What one `loadAndRender` did.
    public struct Run: Sendable {
        /// Glyphs loaded and rendered without error.
        public var rendered: Int
        /// Bytes of their 8-bit coverage bitmaps (rows × |pitch|, summed).
        public var bitmapBytes: Int
        /// The first FreeType error (0: none), and its glyph.
        public var error: Int32
        public var failedGlyph: UInt32
    }
}
