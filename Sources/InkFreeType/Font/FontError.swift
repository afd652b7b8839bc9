import InkGeometry
import InkHit

/// Why a font could not be opened or a glyph could not be read.
///
/// Every failure of `Font` and `GlyphOutline` is one of these cases; nothing in `InkFreeType` traps on
/// bad input (a missing file, a directory, random bytes, a truncated or corrupt font, an out-of-range
/// face or glyph). `description` is a sentence meant for a user (it names the path, glyph or limit).
public enum FontError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing exists at `path` (or a directory on the way does not exist).
    case fileNotFound(path: String)
    /// `path` exists but is not a regular file (a directory, a device, a FIFO, a socket).
    case notAFile(path: String)
    /// `path` is a regular file but could not be read: permissions, an I/O error, or it is larger than
    /// `Font.maximumFileSize`. `reason` says which.
    case unreadable(path: String, reason: String)
    /// The font data has zero bytes (an empty file or an empty array).
    case emptyData
    /// FreeType does not recognise the data as any font format it supports. Also reported for data too
    /// short for FreeType to probe (it reads past the end: a stream error while opening) and for a font
    /// cut short before its required tables (FreeType tries every format and all fail).
    case notAFont
    /// The face has no units per em (`units_per_EM == 0`), as in bitmap-only formats such as BDF or PCF.
    /// Such faces have no outlines in font units, so `Font` refuses to open them.
    case notScalable
    /// `index` is negative or not below `faceCount` (a `.ttf` has one face; a `.ttc` collection several).
    case faceIndexOutOfRange(index: Int, faceCount: Int)
    /// The glyph id is not below the font's `glyphCount`.
    case glyphOutOfRange(glyph: GlyphID, glyphCount: Int)
    /// The glyph exists but has no vector outline (a bitmap-only glyph, e.g. a color emoji strike).
    case noOutline(glyph: GlyphID)
    /// The glyph's outline has `count` points, more than the `limit` the caller allowed.
    case tooManyPoints(glyph: GlyphID, count: Int, limit: Int)
    /// The glyph's outline is inconsistent (contour ends out of order or out of range, unpaired cubic
    /// control points, …); `reason` says what was wrong.
    case brokenOutline(glyph: GlyphID, reason: String)
    /// Any other FreeType failure: `code` is the FreeType error code (`FT_Err_*`, see
    /// `freetype/fterrdef.h`), `name` its name without the `FT_Err_` prefix, e.g. `"Invalid_Table"`.
    case freeType(code: Int32, name: String)
    /// A placement's size (px per em) is not finite and > 0, or its origin is not finite.
    case invalidPlacement(reason: String)
    /// The glyph's outline could not be made into a shape at the placement's scale (`pxPerEm`: view px per
    /// em, the size times the transform's largest scale).
    case shape(glyph: GlyphID, pxPerEm: Double, ShapeError)
    /// The index refused the placement (a singular transform, coordinates beyond `ViewSpace.limit`, …).
    case placement(HitIndexError)
    /// Variations were asked of a font that has no variation axes.
    case notVariable
    /// The font has no axis `tag`; `axes` are the tags it has.
    case unknownAxis(tag: String, axes: [String])
    /// A variation setting is malformed: a tag that is not 1…4 printable ASCII characters, or a value that
    /// is not finite.
    case invalidVariation(tag: String, reason: String)
    /// No named instance has this name (or index, written `#i`); `available` are the instances' names.
    case unknownInstance(String, available: [String])
    /// A synthetic style or hinting setting cannot be applied (`GlyphStyle`).
    case invalidStyle(reason: String)
    /// The glyph's `COLR` data cannot be read: an offset outside the table, an unknown paint format, a
    /// layer beyond the layer list, a transform out of range; `reason` says which.
    case brokenColorGlyph(glyph: GlyphID, reason: String)
    /// The glyph's `COLR` v1 paint graph reaches a paint again below itself (a cycle).
    case colorPaintCycle(glyph: GlyphID)
    /// The glyph's color data goes beyond a bound (`Font.maximumColorPaintDepth`, `maximumColorPaints`,
    /// `maximumColorLayers`): `what` names it ("layers").
    case colorGlyphTooComplex(glyph: GlyphID, what: String, limit: Int)
    /// The glyph's bitmap cannot be used: no strike loads it, a pixel mode without alpha, or too large.
    case brokenBitmap(glyph: GlyphID, reason: String)
    /// The font is not the one a renderer drew the glyphs with: another file, another named instance or
    /// style of a variable font (`QtRawFont.check(source:)`); `reason` says what differs and what to pass.
    case notTheDrawnFont(reason: String)

    public var description: String {
        switch self {
        case .fileNotFound(let path):
            return "font file not found: \(path)"
        case .notAFile(let path):
            return "not a regular file (a directory or device?): \(path)"
        case .unreadable(let path, let reason):
            return "cannot read font file \(path): \(reason)"
        case .emptyData:
            return "font data is empty (0 bytes)"
        case .notAFont:
            return "not a font: FreeType recognises no font format in the data (also reported for a font cut short)"
        case .notScalable:
            return "font has no scalable outlines (units per em is 0, e.g. a bitmap-only BDF/PCF font)"
        case .faceIndexOutOfRange(let index, let faceCount):
            let packed = index > 0xFFFF ? "; above 0xFFFF an index packs a named instance, (n << 16) | face, "
                + "and this face has none" : ""
            return "face index \(index) is out of range: the font has \(faceCount) face\(faceCount == 1 ? "" : "s")"
                + " (valid: 0..<\(faceCount)\(packed))"
        case .glyphOutOfRange(let glyph, let glyphCount):
            return "glyph id \(glyph) is out of range: the font has \(glyphCount) glyphs (valid: 0..<\(glyphCount))"
        case .noOutline(let glyph):
            return "glyph \(glyph) has no vector outline (bitmap-only glyph?)"
        case .tooManyPoints(let glyph, let count, let limit):
            return "glyph \(glyph) has \(count) outline points, more than the limit of \(limit)"
        case .brokenOutline(let glyph, let reason):
            return "glyph \(glyph) has a broken outline: \(reason)"
        case .freeType(let code, let name):
            let hex = String(code, radix: 16, uppercase: true)
            return "FreeType error 0x\(hex) (\(name)): \(FontError.freeTypeErrorInfo(code).meaning)"
        case .invalidPlacement(let reason):
            return reason
        case .shape(let glyph, let pxPerEm, let e):
            if case .toleranceNotMet = e {
                return "glyph \(glyph) at \(DecimalText.short(pxPerEm)) view px per em: \(e); use a larger tolerance or a smaller size"
            }
            return "glyph \(glyph): \(e)"
        case .placement(let e):
            return e.description
        case .notVariable:
            return "the font has no variation axes (it is not a variable font)"
        case .unknownAxis(let tag, let axes):
            return "the font has no variation axis '\(tag)'"
                + (axes.isEmpty ? "" : " (its axes: \(axes.map { "'\($0)'" }.joined(separator: ", ")))")
        case .invalidVariation(let tag, let reason):
            return "variation '\(tag)': \(reason)"
        case .unknownInstance(let name, let available):
            return "the font has no named instance \"\(name)\" (its instances: "
                + (available.isEmpty ? "none" : available.map { "\"\($0)\"" }.joined(separator: ", ")) + ")"
        case .invalidStyle(let reason):
            return reason
        case .brokenColorGlyph(let glyph, let reason):
            return "glyph \(glyph) has broken color data: \(reason)"
        case .colorPaintCycle(let glyph):
            return "glyph \(glyph) has a COLR paint graph with a cycle (a paint reached again below itself)"
        case .colorGlyphTooComplex(let glyph, let what, let limit):
            return "glyph \(glyph) has more than \(limit) \(what) in its color data"
        case .brokenBitmap(let glyph, let reason):
            return "glyph \(glyph) has a broken bitmap: \(reason)"
        case .notTheDrawnFont(let reason):
            return "not the font the renderer drew with: \(reason)"
        }
    }
}

extension FontError {
    /// The error for a failed FreeType call that returned `code` (never 0).
    ///
    /// `Unknown_File_Format` becomes `.notAFont`; every other code becomes `.freeType(code:name:)`.
    /// Module-specific error bits (the high byte, only set when FreeType was built with
    /// `FT_CONFIG_OPTION_USE_MODULE_ERRORS`) are stripped first, as `FT_ERROR_BASE` does.
    init(freeTypeCode rawCode: Int32) {
        let code = rawCode & 0xFF
        if code == 0x02 {
            self = .notAFont
        } else {
            self = .freeType(code: code, name: FontError.freeTypeErrorInfo(code).name)
        }
    }

    /// The error for a failed `FT_Open_Face` that returned `code` (never 0).
    ///
    /// FreeType probes its font drivers in turn and stops at the first one that fails with anything but
    /// `Unknown_File_Format`; for short data (under ~128 bytes) that is a driver reading past the end of
    /// the data (`Invalid_Stream_Operation` and kin, codes 0x51…0x58), which says nothing about the data
    /// except that it is no font: so those become `.notAFont` too.
    init(openingFaceCode rawCode: Int32) {
        let code = rawCode & 0xFF
        if (0x51...0x58).contains(code) {
            self = .notAFont
        } else {
            self.init(freeTypeCode: code)
        }
    }

    /// The name (as in `FT_Err_<name>`) and a short meaning of a FreeType error code, looked up in
    /// `freeTypeErrors`; `Unknown_Error` for a code FreeType does not define.
    static func freeTypeErrorInfo(_ code: Int32) -> (name: String, meaning: String) {
        guard let row = freeTypeErrors.first(where: { $0.code == code }) else {
            return ("Unknown_Error", "unknown FreeType error")
        }
        return (row.name, row.meaning)
    }

    /// The one table of FreeType errors: code, name (as in `FT_Err_<name>`) and a short meaning, values from
    /// `freetype/fterrdef.h` (FreeType 2.12), in code order.
    package static let freeTypeErrors: [(code: Int32, name: String, meaning: String)] = [
        (0x00, "Ok", "no error"),
        (0x01, "Cannot_Open_Resource", "cannot open resource"),
        (0x02, "Unknown_File_Format", "unknown file format"),
        (0x03, "Invalid_File_Format", "broken file (the font data is corrupt or truncated)"),
        (0x04, "Invalid_Version", "invalid FreeType version"),
        (0x05, "Lower_Module_Version", "module version is too low"),
        (0x06, "Invalid_Argument", "invalid argument"),
        (0x07, "Unimplemented_Feature", "feature not implemented by FreeType"),
        (0x08, "Invalid_Table", "broken table in the font"),
        (0x09, "Invalid_Offset", "broken offset within a font table"),
        (0x0A, "Array_Too_Large", "array allocation size too large"),
        (0x0B, "Missing_Module", "missing FreeType module"),
        (0x0C, "Missing_Property", "missing property"),
        (0x10, "Invalid_Glyph_Index", "invalid glyph index"),
        (0x11, "Invalid_Character_Code", "invalid character code"),
        (0x12, "Invalid_Glyph_Format", "unsupported glyph image format"),
        (0x13, "Cannot_Render_Glyph", "cannot render this glyph format"),
        (0x14, "Invalid_Outline", "invalid outline"),
        (0x15, "Invalid_Composite", "invalid composite glyph"),
        (0x16, "Too_Many_Hints", "too many hints"),
        (0x17, "Invalid_Pixel_Size", "invalid pixel size"),
        (0x18, "Invalid_SVG_Document", "invalid SVG document"),
        (0x20, "Invalid_Handle", "invalid object handle"),
        (0x21, "Invalid_Library_Handle", "invalid library handle"),
        (0x22, "Invalid_Driver_Handle", "invalid module handle"),
        (0x23, "Invalid_Face_Handle", "invalid face handle"),
        (0x24, "Invalid_Size_Handle", "invalid size handle"),
        (0x25, "Invalid_Slot_Handle", "invalid glyph slot handle"),
        (0x26, "Invalid_CharMap_Handle", "invalid charmap handle"),
        (0x27, "Invalid_Cache_Handle", "invalid cache manager handle"),
        (0x28, "Invalid_Stream_Handle", "invalid stream handle"),
        (0x30, "Too_Many_Drivers", "too many modules"),
        (0x31, "Too_Many_Extensions", "too many extensions"),
        (0x40, "Out_Of_Memory", "out of memory"),
        (0x41, "Unlisted_Object", "unlisted object"),
        (0x51, "Cannot_Open_Stream", "cannot open stream"),
        (0x52, "Invalid_Stream_Seek", "invalid stream seek (the font data is truncated?)"),
        (0x53, "Invalid_Stream_Skip", "invalid stream skip (the font data is truncated?)"),
        (0x54, "Invalid_Stream_Read", "invalid stream read (the font data is truncated?)"),
        (0x55, "Invalid_Stream_Operation", "read past the end of the data (a truncated font?)"),
        (0x56, "Invalid_Frame_Operation", "invalid frame operation"),
        (0x57, "Nested_Frame_Access", "nested frame access"),
        (0x58, "Invalid_Frame_Read", "invalid frame read (the font data is truncated?)"),
        (0x60, "Raster_Uninitialized", "raster uninitialized"),
        (0x61, "Raster_Corrupted", "raster corrupted"),
        (0x62, "Raster_Overflow", "raster overflow"),
        (0x63, "Raster_Negative_Height", "negative height while rastering"),
        (0x70, "Too_Many_Caches", "too many registered caches"),
        (0x80, "Invalid_Opcode", "invalid TrueType opcode"),
        (0x81, "Too_Few_Arguments", "too few arguments (TrueType bytecode)"),
        (0x82, "Stack_Overflow", "stack overflow (TrueType bytecode)"),
        (0x83, "Code_Overflow", "code overflow (TrueType bytecode)"),
        (0x84, "Bad_Argument", "bad argument (TrueType bytecode)"),
        (0x85, "Divide_By_Zero", "division by zero (TrueType bytecode)"),
        (0x86, "Invalid_Reference", "invalid reference (TrueType bytecode)"),
        (0x87, "Debug_OpCode", "found debug opcode"),
        (0x88, "ENDF_In_Exec_Stream", "found ENDF opcode in execution stream"),
        (0x89, "Nested_DEFS", "nested DEFS"),
        (0x8A, "Invalid_CodeRange", "invalid code range"),
        (0x8B, "Execution_Too_Long", "execution context too long"),
        (0x8C, "Too_Many_Function_Defs", "too many function definitions"),
        (0x8D, "Too_Many_Instruction_Defs", "too many instruction definitions"),
        (0x8E, "Table_Missing", "a required SFNT table is missing"),
        (0x8F, "Horiz_Header_Missing", "horizontal header (hhea) table missing"),
        (0x90, "Locations_Missing", "locations (loca) table missing"),
        (0x91, "Name_Table_Missing", "name table missing"),
        (0x92, "CMap_Table_Missing", "character map (cmap) table missing"),
        (0x93, "Hmtx_Table_Missing", "horizontal metrics (hmtx) table missing"),
        (0x94, "Post_Table_Missing", "PostScript (post) table missing"),
        (0x95, "Invalid_Horiz_Metrics", "invalid horizontal metrics"),
        (0x96, "Invalid_CharMap_Format", "invalid character map (cmap) format"),
        (0x97, "Invalid_PPem", "invalid ppem value"),
        (0x98, "Invalid_Vert_Metrics", "invalid vertical metrics"),
        (0x99, "Could_Not_Find_Context", "could not find context"),
        (0x9A, "Invalid_Post_Table_Format", "invalid PostScript (post) table format"),
        (0x9B, "Invalid_Post_Table", "invalid PostScript (post) table"),
        (0x9C, "DEF_In_Glyf_Bytecode", "found FDEF or IDEF opcode in glyf bytecode"),
        (0x9D, "Missing_Bitmap", "missing bitmap in strike"),
        (0x9E, "Missing_SVG_Hooks", "SVG hooks have not been set"),
        (0xA0, "Syntax_Error", "opcode syntax error (CFF/Type 1)"),
        (0xA1, "Stack_Underflow", "argument stack underflow (CFF/Type 1)"),
        (0xA2, "Ignore", "ignore"),
        (0xA3, "No_Unicode_Glyph_Name", "no Unicode glyph name found"),
        (0xA4, "Glyph_Too_Big", "glyph too big for hinting"),
        (0xB0, "Missing_Startfont_Field", "`STARTFONT' field missing (BDF)"),
        (0xB1, "Missing_Font_Field", "`FONT' field missing (BDF)"),
        (0xB2, "Missing_Size_Field", "`SIZE' field missing (BDF)"),
        (0xB3, "Missing_Fontboundingbox_Field", "`FONTBOUNDINGBOX' field missing (BDF)"),
        (0xB4, "Missing_Chars_Field", "`CHARS' field missing (BDF)"),
        (0xB5, "Missing_Startchar_Field", "`STARTCHAR' field missing (BDF)"),
        (0xB6, "Missing_Encoding_Field", "`ENCODING' field missing (BDF)"),
        (0xB7, "Missing_Bbx_Field", "`BBX' field missing (BDF)"),
        (0xB8, "Bbx_Too_Big", "`BBX' too big (BDF)"),
        (0xB9, "Corrupted_Font_Header", "font header corrupted or missing fields"),
        (0xBA, "Corrupted_Font_Glyphs", "font glyphs corrupted or missing fields"),
    ]
}
