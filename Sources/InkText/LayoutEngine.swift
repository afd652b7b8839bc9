import InkGeometry
import InkFreeType

/// The layout algorithm behind `TextLayout`, in named steps: paragraphs → bidi levels → fonts per grapheme
/// (LayoutEngine+Fonts) → items (font, level, script, size and glyph style, or an attachment) → HarfBuzz
/// clusters (LayoutEngine+Shaping) → lines of fragments around the exclusions (LayoutEngine+Lines) →
/// truncation → visual order, positions and decorations (LayoutEngine+Placement).
struct LayoutEngine {
    let map: TextIndexMap
    let style: TextStyle
    let paragraph: ParagraphStyle
    let attachmentAt: [Int: Int]
    let attachments: [TextAttachment]
    /// The runs applied: each offset's resolved style.
    let styles: StyleMap
    let exclusions: ExclusionMap
    let hb: [HarfBuzzFont]
    /// Units per em, per font.
    let upem: [Double]
    /// Whether each font has color glyphs (for emoji presentation).
    let isColorFont: [Bool]
    /// The text as HarfBuzz sees it: C0/C1 controls (tab, …) replaced by spaces, same UTF-16 offsets, so
    /// they shape as advancing blanks instead of .notdef boxes.
    let shapingText: [UInt16]
    /// Deadline of the layout's budget.
    let budget: LayoutBudget

    var glyphs: [TextLayout.Glyph] = []
    var lines: [TextLayout.Line] = []
    var placedAttachments: [TextLayout.PlacedAttachment] = []
    var decorations: [TextDecoration] = []
    /// Each placed cluster's advance on its line, line by line, each line's sorted by x; recorded only when
    /// some run decorates (the character under a decoration is found by them).
    var spans: [TextLayout.ClusterSpan] = []
    /// Line `l`'s spans are `spans[lineSpans[l] ..< lineSpans[l + 1]]`.
    var lineSpans: [Int] = [0]
    let recordsSpans: Bool
    /// Per resolved style: whether its chain has a color font (else emoji presentation cannot change the
    /// font), and its line metrics (ascent, descent, gap, line height applied).
    let chainHasColor: [Bool]
    let styleMetrics: [(ascent: Double, descent: Double, gap: Double)]
    /// The last (style, font) → glyph style id asked (clusters in a row share it).
    var lastStyleID: (style: Int, font: Int, id: Int32) = (-1, -1, 0)
    /// The distinct glyph styles of the glyphs placed (`Glyph.styleID`), and where each is.
    var styleTable: [GlyphStyle] = []
    var styleIDs: [GlyphStyle: Int32] = [:]
    var truncated: Range<Int>? = nil
    var carets: [Int: [Double]] = [:]
    /// Set when the deadline passed: what the engine was doing (then its results are incomplete).
    var stoppedDuring: String? = nil
    /// Steps of line breaking: one per line planned, and each cluster line filling visited (`fill`: each it
    /// measured, each trailing space it hung), over every fitting round; the work a test hook counts
    /// (`TextLayout.lineFillingWork`).
    var fillWork = 0
    /// Deadline checks made (counted only under `LayoutBudget.checksBeforeDeadline`).
    var deadlineChecks = 0

    /// Font units each non-zero advance grows by (synthetic bold), per shaping key.
    var growth: [ShapeKey: Double] = [:]
    /// Ink boxes of glyphs relative to their origin, layout px (only with exclusions).
    var inkBoxes: [InkKey: Rect] = [:]
    /// Decoration metrics per font, read when first needed.
    var decorationMetrics: [Int: DecorationMetrics] = [:]

    /// How a run of text is shaped: the font, the size and the glyph style it is drawn with.
    struct ShapeKey: Hashable {
        var font: Int
        var size: Double
        var glyphStyle: GlyphStyle
    }
    struct InkKey: Hashable {
        var font: Int
        var glyph: GlyphID
        var size: Double
        var glyphStyle: GlyphStyle
    }

    init(map: TextIndexMap, style: TextStyle, paragraph: ParagraphStyle, attachmentAt: [Int: Int],
         attachments: [TextAttachment], styles: StyleMap, exclusions: ExclusionMap, budget: LayoutBudget = LayoutBudget()) {
        self.map = map; self.style = style; self.paragraph = paragraph
        self.attachmentAt = attachmentAt; self.attachments = attachments; self.budget = budget
        self.styles = styles; self.exclusions = exclusions
        hb = style.fonts.map(HarfBuzzFont.of)
        upem = style.fonts.map { Double($0.unitsPerEm) }
        isColorFont = style.fonts.map(\.hasColorGlyphs)
        shapingText = map.utf16.map { ($0 < 0x20 || ($0 >= 0x7F && $0 < 0xA0)) ? 0x20 : $0 }
        recordsSpans = styles.styles.contains { $0.hasDecoration }
        let colors = isColorFont
        chainHasColor = styles.styles.map { $0.chain.contains { colors[$0] } }
        styleMetrics = styles.styles.map { r in
            let f = r.chain[0], font = style.fonts[f], k = r.size / Double(font.unitsPerEm) * paragraph.lineHeight
            return (Double(font.ascender) * k, -Double(font.descender) * k, max(0, Double(font.lineGap) * k))
        }
    }

    /// The index in `styleTable` of how font `f` is drawn under resolved style `s`, added when new.
    mutating func styleID(style s: Int, font f: Int) -> Int32 {
        if lastStyleID.style == s && lastStyleID.font == f { return lastStyleID.id }
        let gs = glyphStyle(styles.styles[s], font: f)
        let id: Int32
        if let known = styleIDs[gs] { id = known } else {
            id = Int32(styleTable.count)
            styleTable.append(gs)
            styleIDs[gs] = id
        }
        lastStyleID = (s, f, id)
        return id
    }

    /// True (and `stoppedDuring` set) once the budget's deadline has passed.
    mutating func pastDeadline(_ during: @autoclosure () -> String) -> Bool {
        if let n = budget.checksBeforeDeadline {
            deadlineChecks += 1
            guard deadlineChecks > n else { return false }
        } else {
            guard budget.deadline != nil, budget.isPastDeadline else { return false }
        }
        if stoppedDuring == nil { stoppedDuring = during() }
        return true
    }

    /// A shaped cluster in logical order: the unit of line breaking and visual reordering.
    struct Cluster {
        var range: Range<Int>            // UTF-16
        var glyphs: [HarfBuzzFont.Glyph] // visual order within the cluster
        var font: Int                    // -1 for an attachment
        var attachment: Int              // index into attachments, or -1
        var advance: Double              // px, letter spacing included
        /// The letter spacing in `advance`, layout px.
        var spacing: Double = 0
        /// Index into `styles.styles` (32 bits, next to the small fields: a cluster takes 72 bytes).
        var styleIndex: Int32 = 0
        var level: UInt8
        var isSpace: Bool                // whitespace only (hangs at line end)
        var breakAfter: Bool             // a line may break after this cluster
        var isNewline: Bool
        /// An ellipsis of truncation.
        var isEllipsis = false

        init(range: Range<Int>, glyphs: [HarfBuzzFont.Glyph], font: Int, attachment: Int, level: UInt8, advance: Double,
             isSpace: Bool, breakAfter: Bool, isNewline: Bool) {
            self.range = range; self.glyphs = glyphs; self.font = font; self.attachment = attachment; self.level = level
            self.advance = advance; self.isSpace = isSpace; self.breakAfter = breakAfter; self.isNewline = isNewline
        }

        /// Index into `styles.styles`.
        var style: Int {
            get { Int(styleIndex) }
            set { styleIndex = Int32(newValue) }
        }
    }

    /// The resolved style of cluster `c`.
    func resolved(_ c: Cluster) -> StyleMap.Resolved { styles.styles[c.style] }

    /// How font `f` is drawn under resolved style `s`.
    func glyphStyle(_ s: StyleMap.Resolved, font f: Int) -> GlyphStyle { s.glyphStyle ?? style.glyphStyle(f) }

    /// px per font unit of font `f` at `size`.
    func scale(_ f: Int, _ size: Double) -> Double { size / upem[f] }

    // MARK: The steps

    mutating func run() {
        var planned: [PlannedLine] = []
        var top = paragraph.origin.y
        let paragraphs = splitParagraphs()
        for (pi, (range, sep)) in paragraphs.enumerated() {
            if pastDeadline("shaping paragraph \(pi) of \(paragraphs.count)") { return }
            let (pcs, base) = shapeParagraph(range)
            if stoppedDuring != nil { return }
            var pLines = breakParagraph(pcs, base: base, range: range, top: &top)
            if stoppedDuring != nil { return }
            // The separator belongs to the paragraph's last line (it never hits: no ink).
            if sep > 0 {
                let o = range.upperBound
                var nl = Cluster(range: o..<(o + sep), glyphs: [], font: -1, attachment: -1, level: base, advance: 0,
                                 isSpace: true, breakAfter: true, isNewline: true)
                nl.style = styles.style(at: o)
                pLines[pLines.count - 1].appendLogically(nl)
            }
            planned += pLines
            if pi + 1 < paragraphs.count { top += paragraph.paragraphSpacing }
        }
        truncate(&planned)
        for (li, line) in planned.enumerated() {
            if pastDeadline("placing line \(li) of \(planned.count)") { return }
            place(line, index: li)
            if stoppedDuring != nil { return }
        }
    }

    /// Paragraphs (content range, separator length): they end at U+000A, U+000D (CR LF counts once), U+2029
    /// and the other mandatory breaks.
    func splitParagraphs() -> [(Range<Int>, Int)] {
        var pStart = 0
        var paragraphs: [(Range<Int>, Int)] = []
        var i = 0
        let u = map.utf16
        while i < u.count {
            if Self.isMandatoryBreak(u[i]) && u[i] != 0x0D { paragraphs.append((pStart..<i, 1)); i += 1; pStart = i; continue }
            if u[i] == 0x0D {
                let n = (i + 1 < u.count && u[i + 1] == 0x0A) ? 2 : 1
                paragraphs.append((pStart..<i, n)); i += n; pStart = i; continue
            }
            i += 1
        }
        paragraphs.append((pStart..<u.count, 0))
        return paragraphs
    }

    /// maxLines: keeps the first lines, marks the rest truncated, puts an ellipsis on the last kept line.
    mutating func truncate(_ planned: inout [PlannedLine]) {
        // An empty last line after a final newline holds nothing to cut.
        var counted = planned.count
        if counted > 1, let last = planned.last, last.isEmpty { counted -= 1 }
        guard let maxL = paragraph.maxLines, counted > maxL else { return }
        let cutStart = planned[maxL].firstCluster?.range.lowerBound ?? map.length
        planned.removeLast(planned.count - maxL)
        truncated = cutStart..<map.length
        ellipsize(&planned[maxL - 1], cutFrom: cutStart)
    }

    /// UAX #14 mandatory breaks (classes BK, CR, LF, NL): LF, VT, FF, CR, NEL, LS, PS.
    static func isMandatoryBreak(_ u: UInt16) -> Bool {
        u == 0x0A || u == 0x0B || u == 0x0C || u == 0x0D || u == 0x85 || u == 0x2028 || u == 0x2029
    }

    static func isIdeographic(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x2E80...0x2FFF, 0x3005...0x3007, 0x3021...0x3029, 0x3040...0x30FF, 0x3100...0x31FF,
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7AF, 0xF900...0xFAFF,
             0xFF66...0xFF9F, 0x20000...0x3FFFF:
            return true
        default: return false
        }
    }
    /// Characters that must not start a line (a few common ones of UAX #14 class CL/EX/IS).
    static func isClosingPunctuation(_ s: Unicode.Scalar) -> Bool {
        "、。，．：；！？）」』】〕〉》〟ー…,.;:!?)]}".unicodeScalars.contains(s)
    }

    func spansGraphemes(_ r: Range<Int>) -> Bool {
        map.grapheme(at: r.lowerBound) != map.grapheme(at: max(r.lowerBound, r.upperBound - 1))
    }

    /// How many graphemes start in `r`.
    func graphemeCount(_ r: Range<Int>) -> Int {
        guard !r.isEmpty else { return 0 }
        let a = map.grapheme(at: r.lowerBound), b = map.grapheme(at: r.upperBound - 1)
        return b - a + (map.graphemeStarts[a] == r.lowerBound ? 1 : 0)
    }
}
