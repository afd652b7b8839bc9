import InkGeometry
import InkFreeType

/// A styled run: a half-open range of UTF-16 offsets (NSRange-compatible) whose characters override some of
/// the paragraph's style. Every attribute is optional: nil keeps what the paragraph (or an earlier run)
/// says.
///
/// Runs may overlap; for each attribute the last run given that sets it wins. Shaping breaks at a run
/// boundary only where an attribute that changes shaping changes there — the font that draws the
/// character, the size or the glyph style — so kerning and ligatures hold across a boundary where only a
/// decoration, the baseline shift or the letter spacing changes.
///
/// ```swift
/// let runs = [TextRun(range: 0..<4, fonts: [1], size: 20),           // font 1 of the style, 20 px
///             TextRun(range: 9..<13, underline: .single, letterSpacing: 0.5)]
/// print(runs.map(\.range))        // TextLayout(text:style:runs:) applies them in this order
/// ```
public struct TextRun: Sendable, Hashable {
    /// How a run is underlined.
    public enum Underline: String, Sendable, Hashable, CaseIterable {
        /// No underline.
        case none
        /// One stroke.
        case single
        /// Two strokes of the same thickness, the second one's top two thicknesses below the first one's.
        case double
    }

    /// The characters styled, UTF-16 offsets (half-open; must be non-empty and inside the text).
    public var range: Range<Int>
    /// The font fallback chain, as indexes into `TextStyle.fonts` in fallback order (non-empty); nil: the
    /// paragraph's whole list.
    public var fonts: [Int]?
    /// px per em, layout px (finite, > 0); nil: the paragraph's size.
    public var size: Double?
    /// How the run's glyphs are drawn (synthetic bold and oblique, hinting), whichever font of the chain
    /// draws them; nil: each font's own style (`TextStyle.glyphStyles`). Variations come with the font.
    public var glyphStyle: GlyphStyle?
    /// Underline (single or double) or none.
    public var underline: Underline?
    /// A strikethrough stroke.
    public var strikethrough: Bool?
    /// An overline stroke.
    public var overline: Bool?
    /// Moves the run's baseline, layout px; positive moves it up (CoreText's baseline offset). Finite, at
    /// most 1e6 in magnitude.
    public var baselineShift: Double?
    /// Layout px added after each grapheme cluster (CSS `letter-spacing`); a ligature of n graphemes gets n
    /// times it. Finite, at most 1e6 in magnitude.
    public var letterSpacing: Double?

    /// A run over `range` (UTF-16 offsets) setting the attributes given (nil ones are inherited).
    public init(range: Range<Int>, fonts: [Int]? = nil, size: Double? = nil, glyphStyle: GlyphStyle? = nil,
                underline: Underline? = nil, strikethrough: Bool? = nil, overline: Bool? = nil,
                baselineShift: Double? = nil, letterSpacing: Double? = nil) {
        self.range = range; self.fonts = fonts; self.size = size; self.glyphStyle = glyphStyle
        self.underline = underline; self.strikethrough = strikethrough; self.overline = overline
        self.baselineShift = baselineShift; self.letterSpacing = letterSpacing
    }
}

/// A shape in layout px that lines flow around (TextKit's exclusion paths, CoreText's frame paths): no
/// glyph's ink box and no attachment of the layout overlaps it. Coordinates are in the space of
/// `ParagraphStyle.origin`, not relative to it.
public enum TextExclusion: Sendable, Hashable {
    /// A rectangle (finite, width and height ≥ 0).
    case rect(Rect)
    /// The ellipse inscribed in a rectangle (finite, width and height ≥ 0).
    case ellipse(Rect)
    /// A path (SVG path data's elements, `SVGPathData.elements(_:)`), filled with the nonzero rule; curves
    /// are flattened within 0.01 layout px and the flattened shape grown by that bound.
    case path([PathElement])

    /// The box that holds the shape, layout px (a path's control points included).
    public var bounds: Rect {
        switch self {
        case .rect(let r), .ellipse(let r): return r
        case .path(let elements):
            var box = Rect.empty
            for e in elements {
                switch e {
                case .move(let p), .line(let p): box.expand(toInclude: p)
                case .quad(let c, let p): box.expand(toInclude: c); box.expand(toInclude: p)
                case .cubic(let c1, let c2, let p): box.expand(toInclude: c1); box.expand(toInclude: c2); box.expand(toInclude: p)
                case .close: break
                }
            }
            return box
        }
    }
}

/// A decoration stroke as laid out: an underline, strikethrough or overline segment of one line, hit as ink.
///
/// A segment runs from the pen position before its first glyph on the line to the pen position after its
/// last glyph (letter spacing included), over the spaces inside it but not over a line's trailing spaces;
/// it breaks where the primary font, the size or the baseline shift changes. Its geometry comes from the
/// primary (first) font of the characters' font chain at their size (`DecorationMetrics`, `s = size /
/// unitsPerEm`), measured from the run's own baseline (after its shift), y-down:
/// - underline: top at `baseline − underlinePosition·s`, height `underlineThickness·s`; a double underline's
///   second stroke has the same height and its top `2 × height` below the first one's;
/// - strikethrough: top at `baseline − strikeoutPosition·s`, height `strikeoutSize·s`;
/// - overline: bottom at `baseline − ascender·s` (`hhea`), height `underlineThickness·s`.
public struct TextDecoration: Sendable, Hashable {
    /// Which stroke.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Below the baseline.
        case underline
        /// Through the text.
        case strikethrough
        /// Above the text.
        case overline
    }
    /// Which stroke it is.
    public var kind: Kind
    /// The stroke's rectangle, layout px.
    public var rect: Rect
    /// The UTF-16 range of the characters it runs under (the run's range on that line, in logical order).
    public var utf16: Range<Int>
    /// Index into `TextLayout.lines`.
    public var line: Int

    /// A stroke of `kind` over `rect` (layout px) for the characters `utf16` on line `line`.
    public init(kind: Kind, rect: Rect, utf16: Range<Int>, line: Int) {
        self.kind = kind; self.rect = rect; self.utf16 = utf16; self.line = line
    }
}
