/// A glyph's number in its font (not a character: fonts map characters to glyphs through their cmap,
/// and shaping may pick other glyphs). Valid ids of a font are `0..<glyphCount`; glyph 0 is `.notdef`.
public struct GlyphID: RawRepresentable, Hashable, Strideable, Sendable, ExpressibleByIntegerLiteral,
    CustomStringConvertible {
    /// The glyph number as fonts store it (16 bits in OpenType; FreeType and HarfBuzz use 32).
    public var rawValue: UInt32

    /// The glyph with number `rawValue`.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The glyph with number `rawValue`.
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    /// A glyph id written as a number literal.
    public init(integerLiteral value: UInt32) { rawValue = value }

    /// The `.notdef` glyph, which fonts draw for characters they lack.
    public static let notdef = GlyphID(0)

    public static func < (a: GlyphID, b: GlyphID) -> Bool { a.rawValue < b.rawValue }
    /// The number of glyph ids from this one to `other` (negative when `other` is smaller).
    public func distance(to other: GlyphID) -> Int { Int(other.rawValue) - Int(rawValue) }
    /// The glyph id `n` after this one (wrapping is not checked: stay within a font's range).
    public func advanced(by n: Int) -> GlyphID { GlyphID(UInt32(truncatingIfNeeded: Int(rawValue) + n)) }
    /// The number, in decimal.
    public var description: String { String(rawValue) }
}
