import CFreeType
import InkHit

// The FreeType calls behind `Font.decorationMetrics` and `Font.hasColorGlyphs`: the `post`, `OS/2` and
// `hhea` tables as stored, and the face's color flag. Every call on `face` runs under `lock`.

extension FreeTypeFace {
    /// The raw `post`, `OS/2` and `hhea` values of underlines, strikeouts and overlines, with the fallbacks
    /// `DecorationMetrics` documents for a face without those tables.
    func decorationMetrics() -> DecorationMetrics {
        lock.withLock {
            let upem = unitsPerEm
            var m = DecorationMetrics(underlinePosition: Int(face.pointee.underline_position),
                                      underlineThickness: Int(face.pointee.underline_thickness),
                                      strikeoutPosition: 0, strikeoutSize: 0, ascender: ascender)
            if let post = FT_Get_Sfnt_Table(face, FT_SFNT_POST)?.assumingMemoryBound(to: TT_Postscript.self) {
                m.underlinePosition = Int(post.pointee.underlinePosition)
                m.underlineThickness = Int(post.pointee.underlineThickness)
            }
            if m.underlineThickness <= 0 { m.underlineThickness = max(1, upem / 20) }
            if let hhea = FT_Get_Sfnt_Table(face, FT_SFNT_HHEA)?.assumingMemoryBound(to: TT_HoriHeader.self) {
                m.ascender = Int(hhea.pointee.Ascender)
            }
            if let os2 = FT_Get_Sfnt_Table(face, FT_SFNT_OS2)?.assumingMemoryBound(to: TT_OS2.self),
               os2.pointee.version != 0xFFFF {
                m.strikeoutPosition = Int(os2.pointee.yStrikeoutPosition)
                m.strikeoutSize = Int(os2.pointee.yStrikeoutSize)
            } else {
                m.strikeoutPosition = m.ascender / 3
            }
            if m.strikeoutSize <= 0 { m.strikeoutSize = m.underlineThickness }
            return m
        }
    }

    /// True when FreeType flags the face as having color glyphs (`FT_HAS_COLOR`: `COLR`/`CPAL`, `CBDT`,
    /// `sbix` or `SVG ` tables).
    var hasColorFlag: Bool {
        face.pointee.face_flags & FT_Long(FT_FACE_FLAG_COLOR) != 0
    }
}
