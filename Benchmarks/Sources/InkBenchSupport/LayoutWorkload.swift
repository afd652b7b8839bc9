import InkFreeType
import InkText

/// The layout workload: a paragraph of about 120 characters mixing Latin and CJK, laid out by `TextLayout`
/// (HarfBuzz shaping, font fallback, greedy wrapping) with DejaVu Sans first and Droid Sans Fallback (a
/// ~4 MB font file) for what DejaVu Sans lacks, at 16 px in a 300 px wide column.
///
/// The fonts are loaded once; each layout is what an app does per paragraph: shaping, line breaking, glyph
/// placements and the layout's hit indexes, with its glyph shapes from a shape cache — either one cache
/// shared by every layout (`shared`: warm after the first) or a fresh one per layout (`fresh`: every shape
/// flattened again).
public enum LayoutWorkload {
    /// 122 Unicode scalars, 33 of them CJK (Analects 1.1, kanji and kana).
    public static let text = "Hit-test 子曰：「學而時習之，不亦說乎？」 in Latin from DejaVu Sans and 漢字とかな from Droid Sans "
        + "Fallback: 有朋自遠方來，不亦樂乎！ Lines wrap at 300 px."
    public static let fontPaths = [FontFiles.dejaVuSans, FontFiles.droidSansFallback]
    /// px per em.
    public static let size = 16.0
    /// Wrap width, layout px.
    public static let width = 300.0

    /// The fonts of the fallback chain, loaded once.
    public static func loadFonts() throws -> [Font] { try fontPaths.map { try Font(path: $0) } }

    /// A shape cache for `layout(_:cache:)`: one kept across layouts is the shared case.
    public static func makeCache() -> FontShapeCache { FontShapeCache() }

    /// One layout of `text`.
    public static func layout(_ fonts: [Font], cache: FontShapeCache) throws -> TextLayout {
        try TextLayout(text: text, style: TextStyle(fonts: fonts, size: size), paragraph: ParagraphStyle(width: width),
                       cache: cache)
    }
}
