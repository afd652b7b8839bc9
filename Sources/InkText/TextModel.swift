import InkGeometry
import InkHit
import InkFreeType

/// A font fallback chain and a size: for each character the first font that has it is used.
///
/// A font of a variable family is an instance (`Font.withVariations(_:instance:)`): shaping and outlines both
/// use its coordinates. `glyphStyles` says how the renderer draws each font's glyphs (synthetic bold and
/// oblique, hinting); emboldened glyphs' advances grow as `FT_GlyphSlot_Embolden` grows them.
public struct TextStyle: Sendable, Hashable {
    /// Fonts in fallback order; must not be empty.
    public var fonts: [Font]
    /// px per em (layout px).
    public var size: Double
    /// How each font of `fonts` is drawn: one style per font, or empty when every font is drawn plain.
    public var glyphStyles: [GlyphStyle]
    /// A style from a fallback chain and a size, drawn plain.
    public init(fonts: [Font], size: Double) { self.fonts = fonts; self.size = size; self.glyphStyles = [] }
    /// A style from a fallback chain and a size, every font drawn with `glyphStyle`.
    public init(fonts: [Font], size: Double, glyphStyle: GlyphStyle) {
        self.init(fonts: fonts, size: size, glyphStyles: [GlyphStyle](repeating: glyphStyle, count: fonts.count))
    }
    /// A style from a fallback chain and a size, font `i` drawn with `glyphStyles[i]` (empty: all plain).
    public init(fonts: [Font], size: Double, glyphStyles: [GlyphStyle]) {
        self.fonts = fonts; self.size = size; self.glyphStyles = glyphStyles
    }
    /// How font `i` is drawn.
    func glyphStyle(_ i: Int) -> GlyphStyle { glyphStyles.isEmpty ? GlyphStyle() : glyphStyles[i] }
}

/// A link: a half-open UTF-16 range (NSRange-compatible offsets) and the caller's tag.
public struct TextLink: Sendable, Hashable {
    /// The linked text, UTF-16 offsets (half-open; must be non-empty and inside the text).
    public var range: Range<Int>
    /// Whatever the caller wants back when the link is hit (a URL, an id).
    public var tag: String
    /// A link over `range` (UTF-16 offsets) tagged `tag`.
    public init(range: Range<Int>, tag: String) { self.range = range; self.tag = tag }
}

/// An inline object (image, formula) standing on a U+FFFC placeholder at UTF-16 offset `at`.
/// Sizes are layout px; it sits on the baseline (ascent above, descent below). Hit as its box (with
/// corners rounded by `cornerRadius`), before any text, also inside a link range.
public struct TextAttachment: Sendable, Hashable {
    /// UTF-16 offset of the U+FFFC placeholder it stands on.
    public var at: Int
    /// Advance width, layout px (≥ 0).
    public var width: Double
    /// Height above the baseline, layout px.
    public var ascent: Double
    /// Depth below the baseline, layout px (ascent + descent ≥ 0).
    public var descent: Double
    /// Whatever the caller wants back when the attachment is hit.
    public var tag: String
    /// Corner radius of the hit box, layout px (≥ 0; clamped to half the box's shorter side).
    public var cornerRadius: Double
    /// An attachment on the placeholder at UTF-16 offset `at`.
    public init(at: Int, width: Double, ascent: Double, descent: Double, tag: String, cornerRadius: Double = 0) {
        self.at = at; self.width = width; self.ascent = ascent; self.descent = descent
        self.tag = tag; self.cornerRadius = cornerRadius
    }
}

/// Paragraph settings.
public struct ParagraphStyle: Sendable, Hashable {
    /// Where a line's content sits within the wrap width.
    public enum Alignment: String, Sendable, Hashable {
        /// Flush with the left edge.
        case left
        /// Centred.
        case center
        /// Flush with the right edge.
        case right
    }
    /// Wrap width, layout px (nil: no wrapping, only explicit newlines break lines).
    public var width: Double?
    /// Where each line's content sits within `width` (ignored without a width).
    public var alignment: Alignment
    /// Most lines; the last kept line ends with "…" when text was cut (nil: no limit).
    public var maxLines: Int?
    /// Base direction of each paragraph.
    public var direction: Direction
    /// Top-left of the text box in layout px.
    public var origin: Point
    /// A multiple of the natural line height (finite, > 0, at most 1000; default 1): each line's ascent,
    /// descent and line gap — the largest of the primary fonts and sizes on it — are multiplied by it.
    public var lineHeight: Double
    /// Layout px added after each paragraph but the last (finite, ≥ 0, at most 1e6; default 0).
    public var paragraphSpacing: Double
    /// Layout px the first line of each paragraph is indented by, at its start edge (the left in a
    /// left-to-right paragraph, the right in a right-to-left one with a width); finite, at most 1e6 in
    /// magnitude; default 0.
    public var firstLineIndent: Double
    /// Shapes, in layout px (the space of `origin`), that lines flow around: a line may be split into
    /// fragments left and right of them, and no glyph's ink box or attachment overlaps them.
    public var exclusions: [TextExclusion]
    /// A paragraph's base direction.
    public enum Direction: Sendable, Hashable {
        /// From the first strong character (UAX #9 rules P2–P3), left to right when there is none.
        case auto
        /// Left to right.
        case leftToRight
        /// Right to left.
        case rightToLeft
    }

    /// Paragraph settings; the defaults: no wrapping, left aligned, no line limit, automatic direction,
    /// origin (0, 0), natural line height, no paragraph spacing, no indent, no exclusions.
    public init(width: Double? = nil, alignment: Alignment = .left, maxLines: Int? = nil,
                direction: Direction = .auto, origin: Point = .zero, lineHeight: Double = 1,
                paragraphSpacing: Double = 0, firstLineIndent: Double = 0, exclusions: [TextExclusion] = []) {
        self.width = width; self.alignment = alignment; self.maxLines = maxLines
        self.direction = direction; self.origin = origin
        self.lineHeight = lineHeight; self.paragraphSpacing = paragraphSpacing
        self.firstLineIndent = firstLineIndent; self.exclusions = exclusions
    }
}

/// Bounds on the work one layout may do, for layouts of untrusted text: the bytes of the glyph shapes it
/// holds and a deadline. The defaults bound nothing.
public struct LayoutBudget: Sendable, Hashable {
    /// Most bytes of distinct glyph shapes (`GlyphShape.byteCount`) the layout's hit indexes may hold.
    /// Shapes are checked as they are made or found in the cache, so at most one shape beyond the budget
    /// is ever built (a shape has at most `ShapeLimits.maxBytes` bytes, 256 MiB by default).
    public var maxShapeBytes: Int
    /// When the layout must give up (monotonic clock), checked between paragraphs, shaping items, lines and
    /// glyphs; nil for no deadline.
    public var deadline: ContinuousClock.Instant?
    /// Test hook: when set, the layout engine's deadline counts as passed from its check number
    /// `checksBeforeDeadline + 1` on (every place the engine checks its deadline counts one), whatever the
    /// clock says, so a test can stop a layout at a chosen step and read where it stopped.
    package var checksBeforeDeadline: Int? = nil

    /// A budget of `maxShapeBytes` bytes of shapes, ending at `deadline`.
    public init(maxShapeBytes: Int = .max, deadline: ContinuousClock.Instant? = nil) {
        self.maxShapeBytes = maxShapeBytes
        self.deadline = deadline
    }

    var isPastDeadline: Bool { deadline.map { ContinuousClock.now >= $0 } ?? false }
}

/// Why text could not be laid out.
public enum TextError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `TextStyle.fonts` is empty.
    case noFonts
    /// `TextStyle.glyphStyles` is neither empty nor one per font (`count`), or style `font` cannot be applied
    /// at the text's size (`FontError.invalidStyle`).
    case glyphStyle(font: Int, count: Int, FontError?)
    /// The size is not finite and > 0.
    case invalidSize(Double)
    /// The wrap width is not finite and > 0.
    case invalidWidth(Double)
    /// `maxLines` is below 1.
    case invalidMaxLines(Int)
    /// The origin is not finite.
    case invalidOrigin
    /// The layout → view transform is not finite or not invertible.
    case invalidTransform(AffineTransform)
    /// Link `index` has an empty range or one outside the text.
    case linkOutOfRange(index: Int, range: Range<Int>, length: Int)
    /// A range starts or ends between the two UTF-16 units of a character (a surrogate pair): `field` names
    /// the offset (`links[2].start`, `runs[0].end`), `offset` is it.
    case offsetInsideCharacter(field: String, offset: Int)
    /// Attachment `index` does not stand on a U+FFFC.
    case attachmentNotOnPlaceholder(index: Int, at: Int)
    /// Attachment `index` has invalid sizes or shares its placeholder.
    case invalidAttachment(index: Int, reason: String)
    /// The text is longer than `TextLayout.maxLength` UTF-16 units.
    case tooLong(length: Int, limit: Int)
    /// Laid-out glyph `glyph` (an index into `TextLayout.glyphs`) could not be placed: its font's error,
    /// with the UTF-16 offset of the character it draws.
    case glyph(glyph: Int, utf16: Int, FontError)
    /// Attachment `index`'s box could not be placed in the hit index.
    case attachmentPlacement(index: Int, HitIndexError)
    /// The transform or tolerance is not usable by a hit index.
    case index(HitIndexError)
    /// Placing glyph `glyph` (at UTF-16 offset `utf16`) took the layout's distinct shapes beyond
    /// `LayoutBudget.maxShapeBytes` (`limit`).
    case shapeBytes(glyph: Int, utf16: Int, limit: Int)
    /// The layout passed `LayoutBudget.deadline`; `during` says what it was doing.
    case pastDeadline(during: String)
    /// Run `index` (of the runs given) is out of range, empty, names an unknown font or has a value out of
    /// range; `reason` says which.
    case invalidRun(index: Int, reason: String)
    /// Exclusion `index` has a negative or non-finite size, coordinates beyond `ViewSpace.limit`, or a path too
    /// complex to flatten; `reason` says which.
    case invalidExclusion(index: Int, reason: String)
    /// `lineHeight`, `paragraphSpacing` or `firstLineIndent` is out of range; `reason` says which.
    case invalidParagraph(reason: String)
    /// Decoration `index` (of `TextLayout.decorations`) could not be placed in the hit index.
    case decoration(index: Int, reason: String)

    /// A sentence for a user.
    public var description: String {
        switch self {
        case .noFonts: return "text needs at least one font"
        case .glyphStyle(let f, let n, let e):
            if let e { return "glyph style of font \(f): \(e)" }
            return "\(n) glyph styles for \(f) fonts (give one per font, or none)"
        case .invalidSize(let s): return "size must be finite and > 0 (got \(s))"
        case .invalidWidth(let w): return "width must be finite and > 0 (got \(w))"
        case .invalidMaxLines(let n): return "maxLines must be ≥ 1 (got \(n))"
        case .invalidOrigin: return "origin must be finite"
        case .invalidTransform(let t): return "transform \(t) must be finite and invertible"
        case .linkOutOfRange(let i, let r, let n):
            return "links[\(i)] range \(r.lowerBound)..<\(r.upperBound) is outside the text (UTF-16 length \(n)) or empty"
        case .offsetInsideCharacter(let f, let o): return "\(f) \(o) is between the two UTF-16 units of a character"
        case .attachmentNotOnPlaceholder(let i, let at):
            return "attachments[\(i)].at \(at) is not the UTF-16 offset of a U+FFFC in the text"
        case .invalidAttachment(let i, let why): return "attachments[\(i)]: \(why)"
        case .tooLong(let n, let l): return "text has \(n) UTF-16 units, more than the limit \(l)"
        case .glyph(let g, let o, let e): return "glyph \(g) (the character at UTF-16 offset \(o)): \(e)"
        case .attachmentPlacement(let i, let e): return "attachments[\(i)]: \(e.reason)"
        case .index(let e): return e.description
        case .shapeBytes(let g, let o, let l):
            return "glyph \(g) (the character at UTF-16 offset \(o)): the layout's glyph shapes need more than \(l) bytes "
                + "(the limit; each distinct glyph and size class has its own shape)"
        case .pastDeadline(let during): return "the layout ran past its deadline while \(during)"
        case .invalidRun(let i, let why): return "runs[\(i)]: \(why)"
        case .invalidExclusion(let i, let why): return "exclusions[\(i)]: \(why)"
        case .invalidParagraph(let why): return why
        case .decoration(let i, let why): return "decoration \(i): \(why)"
        }
    }
}
