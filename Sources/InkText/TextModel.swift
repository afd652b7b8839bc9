import InkGeometry
import InkFreeType

/// A font fallback chain and a size: for each character the first font that has it is used.
public struct TextStyle: Sendable, Hashable {
    /// Fonts in fallback order; must not be empty.
    public var fonts: [Font]
    /// px per em (layout px).
    public var size: Double
    public init(fonts: [Font], size: Double) { self.fonts = fonts; self.size = size }
}

/// A link: a half-open UTF-16 range (NSRange-compatible offsets) and the caller's tag.
public struct TextLink: Sendable, Hashable {
    public var range: Range<Int>
    public var tag: String
    public init(range: Range<Int>, tag: String) { self.range = range; self.tag = tag }
}

/// An inline object (image, formula) standing on a U+FFFC placeholder at UTF-16 offset `at`.
/// Sizes are layout px; it sits on the baseline (ascent above, descent below). Hit as its box (with
/// corners rounded by `cornerRadius`), before any text, also inside a link range.
public struct TextAttachment: Sendable, Hashable {
    public var at: Int
    public var width: Double, ascent: Double, descent: Double
    public var tag: String
    public var cornerRadius: Double
    public init(at: Int, width: Double, ascent: Double, descent: Double, tag: String, cornerRadius: Double = 0) {
        self.at = at; self.width = width; self.ascent = ascent; self.descent = descent
        self.tag = tag; self.cornerRadius = cornerRadius
    }
}

/// Paragraph settings.
public struct ParagraphStyle: Sendable, Hashable {
    public enum Alignment: String, Sendable, Hashable { case left, center, right }
    /// Wrap width, layout px (nil: no wrapping, only explicit newlines break lines).
    public var width: Double?
    public var alignment: Alignment
    /// Most lines; the last kept line ends with "…" when text was cut (nil: no limit).
    public var maxLines: Int?
    /// Base direction of each paragraph.
    public var direction: Direction
    /// Top-left of the text box in layout px.
    public var origin: Point
    public enum Direction: Sendable, Hashable { case auto, leftToRight, rightToLeft }

    public init(width: Double? = nil, alignment: Alignment = .left, maxLines: Int? = nil,
                direction: Direction = .auto, origin: Point = .zero) {
        self.width = width; self.alignment = alignment; self.maxLines = maxLines
        self.direction = direction; self.origin = origin
    }
}

/// Why text could not be laid out.
public enum TextError: Error, Sendable, Hashable, CustomStringConvertible {
    case noFonts
    case invalidSize(Double)
    case invalidWidth(Double)
    case invalidMaxLines(Int)
    case invalidOrigin
    case linkOutOfRange(index: Int, range: Range<Int>, length: Int)
    case attachmentNotOnPlaceholder(index: Int, at: Int)
    case invalidAttachment(index: Int, reason: String)
    case tooLong(length: Int, limit: Int)
    case index(String)

    public var description: String {
        switch self {
        case .noFonts: return "text needs at least one font"
        case .invalidSize(let s): return "size must be finite and > 0 (got \(s))"
        case .invalidWidth(let w): return "width must be finite and > 0 (got \(w))"
        case .invalidMaxLines(let n): return "maxLines must be ≥ 1 (got \(n))"
        case .invalidOrigin: return "origin must be finite"
        case .linkOutOfRange(let i, let r, let n):
            return "links[\(i)] range \(r.lowerBound)..<\(r.upperBound) is outside the text (UTF-16 length \(n)) or empty"
        case .attachmentNotOnPlaceholder(let i, let at):
            return "attachments[\(i)].at \(at) is not the UTF-16 offset of a U+FFFC in the text"
        case .invalidAttachment(let i, let why): return "attachments[\(i)]: \(why)"
        case .tooLong(let n, let l): return "text has \(n) UTF-16 units, more than the limit \(l)"
        case .index(let m): return m
        }
    }
}
