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
    /// The index refused the placement (a singular transform, coordinates beyond ±1e9 view px, …).
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

    /// The name (as in `FT_Err_<name>`) and a short meaning of a FreeType error code: the one table of
    /// FreeType errors, values from `freetype/fterrdef.h` (FreeType 2.12).
    /// Longer than a screen: one `switch` row per FreeType error code, a table rather than steps.
    static func freeTypeErrorInfo(_ code: Int32) -> (name: String, meaning: String) {
        switch code {
        case 0x00: return ("Ok", "no error")
        case 0x01: return ("Cannot_Open_Resource", "cannot open resource")
        case 0x02: return ("Unknown_File_Format", "unknown file format")
        case 0x03: return ("Invalid_File_Format", "broken file (the font data is corrupt or truncated)")
        case 0x04: return ("Invalid_Version", "invalid FreeType version")
        case 0x05: return ("Lower_Module_Version", "module version is too low")
        case 0x06: return ("Invalid_Argument", "invalid argument")
        case 0x07: return ("Unimplemented_Feature", "feature not implemented by FreeType")
        case 0x08: return ("Invalid_Table", "broken table in the font")
        case 0x09: return ("Invalid_Offset", "broken offset within a font table")
        case 0x0A: return ("Array_Too_Large", "array allocation size too large")
        case 0x0B: return ("Missing_Module", "missing FreeType module")
        case 0x0C: return ("Missing_Property", "missing property")
        case 0x10: return ("Invalid_Glyph_Index", "invalid glyph index")
        case 0x11: return ("Invalid_Character_Code", "invalid character code")
        case 0x12: return ("Invalid_Glyph_Format", "unsupported glyph image format")
        case 0x13: return ("Cannot_Render_Glyph", "cannot render this glyph format")
        case 0x14: return ("Invalid_Outline", "invalid outline")
        case 0x15: return ("Invalid_Composite", "invalid composite glyph")
        case 0x16: return ("Too_Many_Hints", "too many hints")
        case 0x17: return ("Invalid_Pixel_Size", "invalid pixel size")
        case 0x18: return ("Invalid_SVG_Document", "invalid SVG document")
        case 0x20: return ("Invalid_Handle", "invalid object handle")
        case 0x21: return ("Invalid_Library_Handle", "invalid library handle")
        case 0x22: return ("Invalid_Driver_Handle", "invalid module handle")
        case 0x23: return ("Invalid_Face_Handle", "invalid face handle")
        case 0x24: return ("Invalid_Size_Handle", "invalid size handle")
        case 0x25: return ("Invalid_Slot_Handle", "invalid glyph slot handle")
        case 0x26: return ("Invalid_CharMap_Handle", "invalid charmap handle")
        case 0x27: return ("Invalid_Cache_Handle", "invalid cache manager handle")
        case 0x28: return ("Invalid_Stream_Handle", "invalid stream handle")
        case 0x30: return ("Too_Many_Drivers", "too many modules")
        case 0x31: return ("Too_Many_Extensions", "too many extensions")
        case 0x40: return ("Out_Of_Memory", "out of memory")
        case 0x41: return ("Unlisted_Object", "unlisted object")
        case 0x51: return ("Cannot_Open_Stream", "cannot open stream")
        case 0x52: return ("Invalid_Stream_Seek", "invalid stream seek (the font data is truncated?)")
        case 0x53: return ("Invalid_Stream_Skip", "invalid stream skip (the font data is truncated?)")
        case 0x54: return ("Invalid_Stream_Read", "invalid stream read (the font data is truncated?)")
        case 0x55: return ("Invalid_Stream_Operation", "read past the end of the data (a truncated font?)")
        case 0x56: return ("Invalid_Frame_Operation", "invalid frame operation")
        case 0x57: return ("Nested_Frame_Access", "nested frame access")
        case 0x58: return ("Invalid_Frame_Read", "invalid frame read (the font data is truncated?)")
        case 0x60: return ("Raster_Uninitialized", "raster uninitialized")
        case 0x61: return ("Raster_Corrupted", "raster corrupted")
        case 0x62: return ("Raster_Overflow", "raster overflow")
        case 0x63: return ("Raster_Negative_Height", "negative height while rastering")
        case 0x70: return ("Too_Many_Caches", "too many registered caches")
        case 0x80: return ("Invalid_Opcode", "invalid TrueType opcode")
        case 0x81: return ("Too_Few_Arguments", "too few arguments (TrueType bytecode)")
        case 0x82: return ("Stack_Overflow", "stack overflow (TrueType bytecode)")
        case 0x83: return ("Code_Overflow", "code overflow (TrueType bytecode)")
        case 0x84: return ("Bad_Argument", "bad argument (TrueType bytecode)")
        case 0x85: return ("Divide_By_Zero", "division by zero (TrueType bytecode)")
        case 0x86: return ("Invalid_Reference", "invalid reference (TrueType bytecode)")
        case 0x87: return ("Debug_OpCode", "found debug opcode")
        case 0x88: return ("ENDF_In_Exec_Stream", "found ENDF opcode in execution stream")
        case 0x89: return ("Nested_DEFS", "nested DEFS")
        case 0x8A: return ("Invalid_CodeRange", "invalid code range")
        case 0x8B: return ("Execution_Too_Long", "execution context too long")
        case 0x8C: return ("Too_Many_Function_Defs", "too many function definitions")
        case 0x8D: return ("Too_Many_Instruction_Defs", "too many instruction definitions")
        case 0x8E: return ("Table_Missing", "a required SFNT table is missing")
        case 0x8F: return ("Horiz_Header_Missing", "horizontal header (hhea) table missing")
        case 0x90: return ("Locations_Missing", "locations (loca) table missing")
        case 0x91: return ("Name_Table_Missing", "name table missing")
        case 0x92: return ("CMap_Table_Missing", "character map (cmap) table missing")
        case 0x93: return ("Hmtx_Table_Missing", "horizontal metrics (hmtx) table missing")
        case 0x94: return ("Post_Table_Missing", "PostScript (post) table missing")
        case 0x95: return ("Invalid_Horiz_Metrics", "invalid horizontal metrics")
        case 0x96: return ("Invalid_CharMap_Format", "invalid character map (cmap) format")
        case 0x97: return ("Invalid_PPem", "invalid ppem value")
        case 0x98: return ("Invalid_Vert_Metrics", "invalid vertical metrics")
        case 0x99: return ("Could_Not_Find_Context", "could not find context")
        case 0x9A: return ("Invalid_Post_Table_Format", "invalid PostScript (post) table format")
        case 0x9B: return ("Invalid_Post_Table", "invalid PostScript (post) table")
        case 0x9C: return ("DEF_In_Glyf_Bytecode", "found FDEF or IDEF opcode in glyf bytecode")
        case 0x9D: return ("Missing_Bitmap", "missing bitmap in strike")
        case 0x9E: return ("Missing_SVG_Hooks", "SVG hooks have not been set")
        case 0xA0: return ("Syntax_Error", "opcode syntax error (CFF/Type 1)")
        case 0xA1: return ("Stack_Underflow", "argument stack underflow (CFF/Type 1)")
        case 0xA2: return ("Ignore", "ignore")
        case 0xA3: return ("No_Unicode_Glyph_Name", "no Unicode glyph name found")
        case 0xA4: return ("Glyph_Too_Big", "glyph too big for hinting")
        case 0xB0: return ("Missing_Startfont_Field", "`STARTFONT' field missing (BDF)")
        case 0xB1: return ("Missing_Font_Field", "`FONT' field missing (BDF)")
        case 0xB2: return ("Missing_Size_Field", "`SIZE' field missing (BDF)")
        case 0xB3: return ("Missing_Fontboundingbox_Field", "`FONTBOUNDINGBOX' field missing (BDF)")
        case 0xB4: return ("Missing_Chars_Field", "`CHARS' field missing (BDF)")
        case 0xB5: return ("Missing_Startchar_Field", "`STARTCHAR' field missing (BDF)")
        case 0xB6: return ("Missing_Encoding_Field", "`ENCODING' field missing (BDF)")
        case 0xB7: return ("Missing_Bbx_Field", "`BBX' field missing (BDF)")
        case 0xB8: return ("Bbx_Too_Big", "`BBX' too big (BDF)")
        case 0xB9: return ("Corrupted_Font_Header", "font header corrupted or missing fields")
        case 0xBA: return ("Corrupted_Font_Glyphs", "font glyphs corrupted or missing fields")
        default: return ("Unknown_Error", "unknown FreeType error")
        }
    }
}
