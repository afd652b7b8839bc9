/// Where a font puts underlines, strikethrough and overlines, in font units (y-up, from the baseline), as its
/// tables store them — not FreeType's adjusted `underline_position` (which moves the line down by half its
/// thickness).
///
/// - `underlinePosition`, `underlineThickness`: `post.underlinePosition` (the top of the underline) and
///   `post.underlineThickness`;
/// - `strikeoutPosition`, `strikeoutSize`: `OS/2.yStrikeoutPosition` (the top of the stroke) and
///   `OS/2.yStrikeoutSize`;
/// - `ascender`: `hhea.ascender` (where an overline's bottom edge sits).
///
/// Fallbacks, for faces without those tables (or with zero sizes): FreeType's `underline_position` and
/// `underline_thickness` without `post`; a thickness that is not positive becomes `unitsPerEm / 20` (at least
/// 1); without `OS/2`, the strikeout sits at a third of the ascender; a strikeout size that is not positive
/// becomes the underline thickness; without `hhea`, FreeType's ascender. Variable fonts give their default
/// instance's values (`MVAR` deltas are not applied).
public struct DecorationMetrics: Sendable, Hashable {
    /// The top of the underline, font units, y-up (negative: below the baseline).
    public var underlinePosition: Int
    /// The underline's thickness, font units (> 0); overlines use it too.
    public var underlineThickness: Int
    /// The top of the strikethrough stroke, font units, y-up.
    public var strikeoutPosition: Int
    /// The strikethrough's thickness, font units (> 0).
    public var strikeoutSize: Int
    /// The `hhea` ascender, font units, y-up: the bottom of an overline.
    public var ascender: Int

    /// Metrics as given (font units, y-up).
    public init(underlinePosition: Int, underlineThickness: Int, strikeoutPosition: Int, strikeoutSize: Int, ascender: Int) {
        self.underlinePosition = underlinePosition; self.underlineThickness = underlineThickness
        self.strikeoutPosition = strikeoutPosition; self.strikeoutSize = strikeoutSize; self.ascender = ascender
    }
}

extension Font {
    /// Where the font draws underlines, strikethrough and overlines, read from its tables (see
    /// `DecorationMetrics`). Takes the font's lock.
    public var decorationMetrics: DecorationMetrics { face.decorationMetrics() }

    /// True when the font has color glyphs (`COLR`/`CPAL`, `CBDT`, `sbix` or `SVG ` tables, as FreeType's
    /// `FT_HAS_COLOR` says): a "color font" for emoji presentation.
    public var hasColorGlyphs: Bool { face.hasColorFlag }
}
