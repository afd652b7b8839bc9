import InkFreeType
import InkGeometry
import InkHit
import InkText

extension FontFiles {
    /// Cantarell Regular, a CFF (cubic outlines) font (Debian package fonts-cantarell).
    public static let cantarell = "/usr/share/fonts/opentype/cantarell/Cantarell-Regular.otf"
}

/// Distinct glyphs of one font at one size, each to be met for the first time: a glyph set of the cold
/// benchmarks, where InkHit's shape creation is timed next to FreeType's load + render of the same
/// glyphs.
public struct ColdGlyphSet: Sendable {
    /// A short label, e.g. "600 CJK ideographs, Droid Sans Fallback, 16 px".
    public var name: String
    public let fontPath: String
    /// px per em (a placement of `size` with the identity transform: view px).
    public let size: Double
    /// The characters whose glyphs these are, in code point order (characters the font does not map, and
    /// characters whose glyph came earlier, left out).
    public let scalars: [Unicode.Scalar]
    /// Their glyphs: distinct, in the same order.
    public let glyphs: [GlyphID]
    /// Units per em of the font.
    public let unitsPerEm: Int

    /// Maps `codePoints` through the font's character map.
    public init(name: String, fontPath: String, size: Double, codePoints: [UInt32]) throws {
        let font = try Font(path: fontPath)
        var seen = Set<GlyphID>()
        var scalars: [Unicode.Scalar] = [], glyphs: [GlyphID] = []
        for cp in codePoints {
            guard let s = Unicode.Scalar(cp), let g = font.glyph(for: s), g.rawValue != 0, seen.insert(g).inserted else { continue }
            scalars.append(s)
            glyphs.append(g)
        }
        self.name = name
        self.fontPath = fontPath
        self.size = size
        self.scalars = scalars
        self.glyphs = glyphs
        self.unitsPerEm = font.unitsPerEm
    }

    /// The glyph ids as FreeType takes them.
    public var glyphIDs: [UInt32] { glyphs.map(\.rawValue) }
    /// Font units → view px of a glyph drawn at `size` px per em: the `maxScale` its shape is made for.
    public var maxScale: Double { size / Double(unitsPerEm) }
    /// The characters as a string.
    public var text: String {
        var v = String.UnicodeScalarView()
        v.append(contentsOf: scalars)
        return String(v)
    }
}

/// Text laid out once (`TextLayout`, one font, no fallback) for the cold benchmarks: its placements, to be
/// added to a fresh shape cache again and again with a freshly loaded copy of the font, and its lines, for a
/// renderer that draws text line by line (hb-view).
public struct ColdPage: Sendable {
    public let name: String
    public let text: String
    public let fontPath: String
    /// px per em, and the wrap width (layout px).
    public let size: Double, width: Double
    /// Every glyph as `TextLayout.placement(of:)` places it (with the font of the layout's own load).
    public let placements: [GlyphPlacement]
    /// UTF-16 range of each line.
    public let lines: [Range<Int>]
    /// The box of all line boxes, layout px (= view px: no transform).
    public let bounds: Rect

    /// Lays out `text` in `fontPath` at `size` px per em, wrapped at `width` px (through a shape cache of its
    /// own, so no shape of this layout is left in any other cache).
    public init(name: String, text: String, fontPath: String, size: Double, width: Double) throws {
        let font = try Font(path: fontPath)
        let layout = try TextLayout(text: text, style: TextStyle(fonts: [font], size: size),
                                    paragraph: ParagraphStyle(width: width), cache: FontShapeCache())
        self.name = name
        self.text = text
        self.fontPath = fontPath
        self.size = size
        self.width = width
        placements = layout.glyphs.indices.map { layout.placement(of: $0) }
        lines = layout.lines.map(\.utf16)
        bounds = layout.lines.reduce(Rect.empty) { $0.union($1.box) }
    }

    /// The glyph ids of the placements, in order (for FreeType).
    public var glyphIDs: [UInt32] { placements.map(\.glyph.rawValue) }
    /// Distinct glyphs of the page.
    public var distinctGlyphs: Int { Set(placements.map(\.glyph)).count }

    /// The placements moved to `font` (a fresh load of the same file).
    public func placements(font: Font) -> [GlyphPlacement] {
        placements.map { p in
            var q = p
            q.font = font
            return q
        }
    }

    /// The text with a line feed between the lines `TextLayout` made (each line without its trailing
    /// spaces): the same lines for a renderer that draws one line per line of its input.
    public var linesText: String {
        let u = Array(text.utf16)
        return lines.map { r in
            var s = String(decoding: u[r], as: UTF16.self)
            while let last = s.last, last.isWhitespace { s.removeLast() }
            return s
        }.joined(separator: "\n")
    }

    /// `HitIndex.Builder.add(_:cache:)` per placement, then `build()`, with `forms`.
    public static func buildIndex(_ placements: [GlyphPlacement], cache: FontShapeCache,
                                  forms: ShapeForms = .whenReused) throws -> HitIndex {
        var b = HitIndex.Builder()
        b.shapeForms = forms
        b.reserveCapacity(placements.count)
        for p in placements { try b.add(p, cache: cache) }
        return b.build()
    }
}

/// The workloads of the cold benchmarks: glyph sets met for the first time and pages of them.
public enum ColdWorkloads {
    /// U+4E00 + 3k, k = 0 ..< 600: CJK ideographs spread over the first ~1,800 of the block.
    public static let cjkCodePoints: [UInt32] = (0..<600).map { 0x4E00 + 3 * UInt32($0) }
    /// U+0021 … U+007E: the 94 printable ASCII characters other than the space.
    public static let asciiCodePoints: [UInt32] = Array(0x21...0x7E)

    /// The ideographs of `cjkCodePoints` that Droid Sans Fallback maps, at `size` px per em.
    public static func cjk(size: Double) throws -> ColdGlyphSet {
        var set = try ColdGlyphSet(name: "", fontPath: FontFiles.droidSansFallback, size: size, codePoints: cjkCodePoints)
        set.name = "\(set.glyphs.count) CJK ideographs, Droid Sans Fallback, \(Int(size)) px"
        return set
    }

    /// The 94 ASCII glyphs of DejaVu Sans (TrueType) at 16 px.
    public static func dejaVuASCII() throws -> ColdGlyphSet {
        try ColdGlyphSet(name: "94 ASCII, DejaVu Sans (TrueType), 16 px", fontPath: FontFiles.dejaVuSans, size: 16,
                         codePoints: asciiCodePoints)
    }

    /// The 94 ASCII glyphs of Cantarell Regular (CFF) at 16 px.
    public static func cantarellASCII() throws -> ColdGlyphSet {
        try ColdGlyphSet(name: "94 ASCII, Cantarell Regular (CFF), 16 px", fontPath: FontFiles.cantarell, size: 16,
                         codePoints: asciiCodePoints)
    }

    /// The four glyph sets of the shape-creation target (≤ 3× FreeType's load + render).
    public static func glyphSets() throws -> [ColdGlyphSet] {
        [try cjk(size: 16), try cjk(size: 48), try dejaVuASCII(), try cantarellASCII()]
    }

    /// Page size and wrap width (layout px) of the cold pages and of `ink-bench-summary cold --process`.
    public static let pageSize = 16.0, pageWidth = 640.0

    /// The ideographs of `cjk(size:)` as one paragraph of Droid Sans Fallback at 16 px, wrapped at 640 px
    /// by `TextLayout` (40 a line, 15 lines): every placement a distinct glyph.
    public static func cjkPage() throws -> ColdPage {
        let set = try cjk(size: pageSize)
        return try ColdPage(name: "\(set.glyphs.count) CJK ideographs, Droid Sans Fallback 16 px, 640 px wide",
                            text: set.text, fontPath: FontFiles.droidSansFallback, size: pageSize, width: pageWidth)
    }

    /// `latinText()` in DejaVu Sans at 16 px, wrapped at 640 px.
    public static func latinPage() throws -> ColdPage {
        try ColdPage(name: "1,500 characters of Latin text, DejaVu Sans 16 px, 640 px wide", text: latinText(),
                     fontPath: FontFiles.dejaVuSans, size: pageSize, width: pageWidth)
    }

    /// Words of `latinText`: common English words, a few capitalised or with punctuation.
    static let words = [
        "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be", "by", "on",
        "not", "he", "I", "this", "are", "or", "his", "from", "at", "which", "but", "have", "an", "had", "they",
        "you", "were", "their", "one", "all", "we", "can", "her", "has", "there", "been", "if", "more", "when",
        "will", "would", "who", "so", "no", "time,", "people.", "Water", "quickly", "jumped", "over", "lazy",
        "brown", "foxes;", "Zebra", "(quiet)", "\"yes\"", "river's", "Mountain", "village,", "x-ray", "journey!",
        "question?", "42", "1,500", "Wolf", "kingdom", "Hypothesis", "Vivid", "gravity",
    ]

    /// `characters` Unicode scalars of words from `words` drawn with SplitMix64 (fixed seed), separated by
    /// single spaces, cut to exactly `characters`: the same text on every run and machine.
    public static func latinText(characters: Int = 1_500, seed: UInt64 = 0x1A7_1500) -> String {
        var rng = SplitMix64(seed: seed)
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(characters + 16)
        while scalars.count < characters {
            if !scalars.isEmpty { scalars.append(" ") }
            scalars.append(contentsOf: words[rng.int(words.count)].unicodeScalars)
        }
        var v = String.UnicodeScalarView()
        v.append(contentsOf: scalars.prefix(characters))
        return String(v)
    }
}
