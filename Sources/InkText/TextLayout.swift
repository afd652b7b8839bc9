import InkGeometry
import InkHit
import InkFreeType

/// Attributed text laid out into lines of positioned glyphs (layout px, y-down), with hit indexes so that
/// points in view space map back to glyphs, characters, links and attachments by the shape of the ink.
///
/// ```swift
/// let sans = try Font(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
/// let layout = try TextLayout(text: "Tap the link, not the gap.", style: TextStyle(fonts: [sans], size: 16),
///                             paragraph: ParagraphStyle(width: 200),
///                             links: [TextLink(range: 8..<12, tag: "url")])
/// if let hit = layout.hit(at: Point(70, 12), radius: 3.5) { print(hit.utf16, hit.link ?? "-") }
/// ```
///
/// Glyph shapes come from a `FontShapeCache` (the process-wide `.shared` one unless another is given), so
/// laying out the same fonts again costs shaping and placement only.
///
/// Shaping is HarfBuzz's (its OpenType functions, as `hb-shape`), on the same font bytes as FreeType;
/// bidi is UAX #9 through FriBidi; lines break at spaces, between CJK ideographs and after hyphens, and a
/// word longer than the line breaks between graphemes. Immutable and `Sendable` once built.
public struct TextLayout: Sendable {
    /// One positioned glyph.
    public struct Glyph: Sendable, Hashable {
        /// Index into `fonts`.
        public var font: Int
        /// The glyph in that font.
        public var id: GlyphID
        /// Index into the layout's table of glyph styles (`TextLayout.glyphStyle(of:)` reads it).
        var styleID: Int32
        /// Origin on the baseline, layout px (a run's baseline shift included).
        public var x: Double, y: Double
        /// px per em.
        public var size: Double
        /// UTF-16 range of the glyph's cluster (for the ellipsis: the truncated range).
        public var utf16: Range<Int>
        /// Advance along the line, layout px (letter spacing not included).
        public var advance: Double
        /// Index into `lines`.
        public var line: Int
        /// True in a right-to-left run.
        public var isRightToLeft: Bool
        /// True for the "…" that ends a line cut by `maxLines`.
        public var isEllipsis: Bool
    }
    /// One line.
    public struct Line: Sendable, Hashable {
        /// Line box (layout px): from the top of the tallest ascent to the bottom of the line gap.
        public var box: Rect
        /// The baseline's y, layout px.
        public var baseline: Double
        /// UTF-16 range of the line's text in logical order (trailing spaces and newline included).
        public var utf16: Range<Int>
        /// Box of the inked and advancing content (no trailing spaces), layout px: from the top of the
        /// line box to the descent below the baseline.
        public var contentBox: Rect
        /// The line's fragments (TextKit's line fragments), layout px, in logical order: the parts of the
        /// line the exclusions leave, each as tall as the line box (one fragment, the whole width, when no
        /// exclusion reaches the line; without a width, a fragment's right edge is where its text ends).
        public var fragments: [Rect]
    }
    /// An attachment as placed.
    public struct PlacedAttachment: Sendable, Hashable {
        /// The attachment as given.
        public var attachment: TextAttachment
        /// Box on the baseline, layout px.
        public var box: Rect
        /// Index into `lines`.
        public var line: Int
    }
    /// Where a cluster's advance lies on its line (for the character under a decoration): 40 bytes.
    struct ClusterSpan: Sendable {
        /// Pen before and after the cluster, layout px (letter spacing included).
        var x0: Double, x1: Double
        var start: Int32, end: Int32
        /// Its first glyph (an index into `glyphs`) and how many it has (0 for an attachment).
        var glyph: Int32, glyphCount: Int32
        var isEllipsis: Bool
        var utf16: Range<Int> { Int(start)..<Int(end) }
        var glyphs: Range<Int> { Int(glyph)..<Int(glyph + glyphCount) }
    }

    /// The text laid out.
    public let text: String
    /// Fonts referenced by `glyphs[i].font`.
    public let fonts: [Font]
    /// How each font's glyphs are drawn (one per font of `fonts`) where no run says otherwise.
    public let glyphStyles: [GlyphStyle]
    /// The distinct styles glyphs are drawn with (`Glyph.styleID` indexes it).
    let styleTable: [GlyphStyle]
    /// Every glyph, line by line in visual order (left to right).
    public let glyphs: [Glyph]
    /// The lines, top to bottom.
    public let lines: [Line]
    /// The attachments, in the order they were placed.
    public let attachments: [PlacedAttachment]
    /// The links as given.
    public let links: [TextLink]
    /// The styled runs as given.
    public let runs: [TextRun]
    /// The underline, strikethrough and overline strokes, line by line: ink, hit after the glyphs.
    public let decorations: [TextDecoration]
    /// The shapes the lines flowed around (`ParagraphStyle.exclusions`), layout px.
    public let exclusions: [TextExclusion]
    /// Layout → view.
    public let transform: AffineTransform
    /// View → layout (the transform is checked invertible at init).
    let inverse: AffineTransform
    /// The part of the text cut by `maxLines` (nil when nothing was cut).
    public let truncated: Range<Int>?

    let map: TextIndexMap
    let inkIndex: HitIndex
    /// placement → glyph index, for `inkIndex`.
    let inkGlyph: [Int]
    /// glyph index → has an outline in `inkIndex`.
    let glyphHasInk: [Bool]
    let attachmentIndex: HitIndex
    /// The decorations' rectangles (placement `k` is `decorations[k]`).
    let decorationIndex: HitIndex
    let linkIndex: HitIndex
    /// placement → what it is, for `linkIndex`.
    let linkItem: [LinkItem]
    let carets: [Int: [Double]]   // glyph index → ligature caret fractions (0...1) along the advance
    let charBoxes: [CharacterBox]
    /// UTF-16 offset → first glyph whose cluster holds it (-1: none).
    let glyphAt: [Int32]
    /// UTF-16 offset → last link covering it.
    let linkMap: LinkMap
    /// Every placed cluster's advance, line by line, each line's sorted by x (only when the layout has
    /// decorations: they are what asks).
    let spans: [ClusterSpan]
    /// Line `l`'s spans are `spans[lineSpans[l] ..< lineSpans[l + 1]]`.
    let lineSpans: [Int]
    /// Steps of line breaking the layout took: one per line planned, and each cluster line filling visited
    /// (measured, or hung as a trailing space, in every fitting round). Linear in the text, whitespace runs
    /// included; a test hook that counts work.
    package let lineFillingWork: Int

    /// What a placement of the link index is.
    enum LinkItem: Sendable {
        case glyph(Int)
        case attachment(Int)
        /// Decoration `decoration`'s part over the link characters from `x0` to `x1` (layout px).
        case decoration(Int, x0: Double, x1: Double)
    }

    /// Most UTF-16 units one layout accepts.
    public static let maxLength = 1 << 22

    /// Lays out `text`.
    ///
    /// - Parameters:
    ///   - text: the text; offsets everywhere are UTF-16 offsets into it.
    ///   - style: the font fallback chain and the size.
    ///   - runs: styled ranges over `style` (fonts, size, glyph style, decorations, baseline shift, letter
    ///     spacing); for each attribute the last run setting it wins.
    ///   - paragraph: wrap width, alignment, line limit, direction, origin, line height, paragraph spacing,
    ///     first-line indent and exclusions.
    ///   - links: UTF-16 ranges with tags; a range must be non-empty and inside the text.
    ///   - attachments: inline boxes, each on a U+FFFC of the text.
    ///   - transform: layout → view (the space of query points and radii).
    ///   - tolerance: flattening tolerance, view px.
    ///   - cache: glyph shapes are shared through it (one per font, glyph and size class); the process-wide
    ///     `FontShapeCache.shared` unless given another.
    ///   - budget: most bytes of glyph shapes and a deadline, for untrusted text (unbounded by default).
    ///   - shapeForms: which form of the glyph shapes the layout's hit indexes read (`HitIndex.Builder.shapeForms`):
    ///     `.full` for a layout that will answer many queries, `.whenReused` (cheapest on first sight) by default.
    /// - Throws: `TextError` for invalid settings, runs, exclusions, links or attachments, (as `.glyph`) a
    ///   font's error for a glyph that cannot be placed, `.shapeBytes` / `.pastDeadline` when the budget runs
    ///   out.
    public init(text: String, style: TextStyle, runs: [TextRun] = [], paragraph: ParagraphStyle = ParagraphStyle(),
                links: [TextLink] = [], attachments: [TextAttachment] = [],
                transform: AffineTransform = .identity, tolerance: Double = HitIndex.defaultTolerance,
                cache: FontShapeCache = .shared, budget: LayoutBudget = LayoutBudget(),
                shapeForms: ShapeForms = .whenReused) throws(TextError) {
        let (map, attachmentAt, styles, exclusions) = try Self.checkInputs(text: text, style: style, runs: runs,
                                                                          paragraph: paragraph, links: links,
                                                                          attachments: attachments)
        var builder: HitIndex.Builder
        do { builder = try HitIndex.Builder(tolerance: tolerance) } catch { throw .index(error) }
        builder.shapeForms = shapeForms
        guard let inverse = transform.inverted() else { throw .invalidTransform(transform) }
        var engine = LayoutEngine(map: map, style: style, paragraph: paragraph, attachmentAt: attachmentAt,
                                  attachments: attachments, styles: styles, exclusions: exclusions, budget: budget)
        engine.run()
        if let during = engine.stoppedDuring { throw .pastDeadline(during: during) }

        self.text = text
        self.map = map
        self.fonts = style.fonts
        self.glyphStyles = style.fonts.indices.map(style.glyphStyle)
        self.styleTable = engine.styleTable
        self.glyphs = engine.glyphs
        self.lines = engine.lines
        self.attachments = engine.placedAttachments
        self.links = links
        self.runs = runs
        self.decorations = engine.decorations
        self.exclusions = paragraph.exclusions
        self.transform = transform
        self.inverse = inverse
        self.truncated = engine.truncated
        self.lineFillingWork = engine.fillWork
        self.carets = engine.carets
        self.charBoxes = Self.computeCharacterBoxes(glyphs: engine.glyphs, lines: engine.lines,
                                                    attachments: engine.placedAttachments, map: map, transform: transform)
        self.glyphAt = Self.firstGlyphs(engine.glyphs, length: map.length)
        self.linkMap = LinkMap(links: links, length: map.length)
        self.spans = engine.spans
        self.lineSpans = engine.lineSpans

        let indexes = try IndexBuild(glyphs: engine.glyphs, fonts: style.fonts, styles: engine.styleTable,
                                     attachments: engine.placedAttachments,
                                     attachmentAt: attachmentAt, decorations: engine.decorations, spans: self.spans,
                                     lineSpans: self.lineSpans, linkMap: self.linkMap, transform: transform,
                                     tolerance: tolerance).run(builder: builder, cache: cache, budget: budget)
        self.inkIndex = indexes.ink
        self.inkGlyph = indexes.inkGlyph
        var hasInk = [Bool](repeating: false, count: engine.glyphs.count)
        for gi in indexes.inkGlyph { hasInk[gi] = true }
        self.glyphHasInk = hasInk
        self.attachmentIndex = indexes.attachments
        self.decorationIndex = indexes.decorations
        self.linkIndex = indexes.links
        self.linkItem = indexes.linkItem
    }

    // MARK: Steps of init

    /// Step 1: checks everything the caller gave before any work: the style and paragraph settings, the
    /// text's length, the links' ranges, the attachments, the runs and their glyph styles, the exclusions.
    /// Returns the text's index map, each attachment's UTF-16 offset → attachment, the style runs and the
    /// exclusion map.
    static func checkInputs(text: String, style: TextStyle, runs: [TextRun], paragraph: ParagraphStyle,
                            links: [TextLink], attachments: [TextAttachment])
        throws(TextError) -> (TextIndexMap, [Int: Int], StyleMap, ExclusionMap) {
        try validate(style: style, paragraph: paragraph)
        let map = TextIndexMap(text)
        guard map.length <= maxLength else { throw .tooLong(length: map.length, limit: maxLength) }
        for (i, l) in links.enumerated() {
            if l.range.isEmpty || l.range.lowerBound < 0 || l.range.upperBound > map.length {
                throw .linkOutOfRange(index: i, range: l.range, length: map.length)
            }
            try map.checkBoundaries(l.range, "links[\(i)]")
        }
        for (i, r) in runs.enumerated() where r.range.lowerBound >= 0 && r.range.upperBound <= map.length {
            try map.checkBoundaries(r.range, "runs[\(i)]")
        }
        let attachmentAt = try validate(attachments: attachments, map: map)
        let styles = try StyleMap(runs: runs, base: style, length: map.length)
        try validateGlyphStyles(styles, base: style)
        return (map, attachmentAt, styles, try ExclusionMap(paragraph.exclusions))
    }

    /// Checks the style and the paragraph settings.
    static func validate(style: TextStyle, paragraph: ParagraphStyle) throws(TextError) {
        guard !style.fonts.isEmpty else { throw .noFonts }
        guard style.size.isFinite, style.size > 0 else { throw .invalidSize(style.size) }
        guard style.glyphStyles.isEmpty || style.glyphStyles.count == style.fonts.count else {
            throw .glyphStyle(font: style.fonts.count, count: style.glyphStyles.count, nil)
        }
        for (i, s) in style.glyphStyles.enumerated() {
            do { try s.validate(size: style.size) } catch { throw .glyphStyle(font: i, count: style.glyphStyles.count, error) }
        }
        if let w = paragraph.width, !(w.isFinite && w > 0) { throw .invalidWidth(w) }
        if let m = paragraph.maxLines, m < 1 { throw .invalidMaxLines(m) }
        guard paragraph.origin.isFinite else { throw .invalidOrigin }
        guard paragraph.lineHeight.isFinite, paragraph.lineHeight > 0, paragraph.lineHeight <= 1000 else {
            throw .invalidParagraph(reason: "lineHeight must be finite, > 0 and at most 1000 (got \(paragraph.lineHeight))")
        }
        guard paragraph.paragraphSpacing.isFinite, paragraph.paragraphSpacing >= 0, paragraph.paragraphSpacing <= 1e6 else {
            throw .invalidParagraph(reason: "paragraphSpacing must be finite, ≥ 0 and at most 1e6 px (got \(paragraph.paragraphSpacing))")
        }
        guard paragraph.firstLineIndent.isFinite, abs(paragraph.firstLineIndent) <= 1e6 else {
            throw .invalidParagraph(reason: "firstLineIndent must be finite and at most 1e6 px in magnitude (got \(paragraph.firstLineIndent))")
        }
    }

    /// Checks the attachments; returns the attachment standing on each placeholder offset.
    static func validate(attachments: [TextAttachment], map: TextIndexMap) throws(TextError) -> [Int: Int] {
        var attachmentAt: [Int: Int] = [:]
        for (i, a) in attachments.enumerated() {
            guard a.at >= 0, a.at < map.length, map.utf16[a.at] == 0xFFFC else {
                throw .attachmentNotOnPlaceholder(index: i, at: a.at)
            }
            guard a.width.isFinite, a.width >= 0, a.ascent.isFinite, a.descent.isFinite, a.ascent + a.descent >= 0,
                  a.cornerRadius.isFinite, a.cornerRadius >= 0 else {
                throw .invalidAttachment(index: i, reason: "width, ascent, descent and cornerRadius must be finite, width ≥ 0, height ≥ 0")
            }
            guard a.width <= ViewSpace.limit, ViewSpace.contains(a.ascent), ViewSpace.contains(a.descent),
                  a.cornerRadius <= ViewSpace.limit else {
                throw .invalidAttachment(index: i, reason: "width, ascent, descent and cornerRadius beyond \(ViewSpace.limitText) are out of range")
            }
            if attachmentAt[a.at] != nil { throw .invalidAttachment(index: i, reason: "two attachments at offset \(a.at)") }
            attachmentAt[a.at] = i
        }
        return attachmentAt
    }

    /// Checks that every glyph style the runs bring, and every font's style, can be drawn at the sizes the
    /// runs give.
    static func validateGlyphStyles(_ styles: StyleMap, base: TextStyle) throws(TextError) {
        for (id, r) in styles.styles.enumerated() {
            if let gs = r.glyphStyle {
                do { try gs.validate(size: r.size) } catch {
                    throw .invalidRun(index: styles.glyphStyleRun[id] ?? 0, reason: "glyph style: \(error)")
                }
            } else if r.size != base.size {
                for f in r.chain {
                    do { try base.glyphStyle(f).validate(size: r.size) } catch {
                        throw .glyphStyle(font: f, count: base.glyphStyles.count, error)
                    }
                }
            }
        }
    }

    /// UTF-16 offset → the first glyph whose cluster holds it. The glyphs of a cluster are contiguous and
    /// share its range: each range is walked once, so this is linear in the text even for one letter under
    /// 100,000 combining marks.
    static func firstGlyphs(_ glyphs: [Glyph], length: Int) -> [Int32] {
        var glyphAt = [Int32](repeating: -1, count: length + 1)
        var lastRange: Range<Int>? = nil
        for (gi, g) in glyphs.enumerated() where !g.isEllipsis && g.utf16 != lastRange {
            lastRange = g.utf16
            for o in g.utf16 where o >= 0 && o < glyphAt.count && glyphAt[o] < 0 { glyphAt[o] = Int32(gi) }
        }
        return glyphAt
    }

    /// Glyph `index` of `glyphs` as a placement: its font, id, size, style and origin, seen through
    /// `transform`. Its `outline(into:)` draws the glyph in view px; `fontUnitsToView` is the map the hit
    /// index uses.
    public func placement(of index: Int) -> GlyphPlacement {
        Self.placement(glyphs[index], fonts: fonts, styles: styleTable, transform: transform)
    }

    /// How glyph `index` of `glyphs` is drawn: its run's glyph style, else its font's (`glyphStyles[font]`).
    public func glyphStyle(of index: Int) -> GlyphStyle { styleTable[Int(glyphs[index].styleID)] }

    static func placement(_ g: Glyph, fonts: [Font], styles: [GlyphStyle], transform: AffineTransform) -> GlyphPlacement {
        GlyphPlacement(font: fonts[g.font], glyph: g.id, size: g.size, origin: Point(g.x, g.y), transform: transform,
                       style: styles[Int(g.styleID)])
    }

    /// A (rounded) box as a shape in layout px, its corners circular arcs flattened for `viewTolerance`
    /// under a transform of largest scale `maxScale` (`RoundRect`, as scene regions; a box without
    /// rounding is exact).
    ///
    /// - Throws: `.invalidAttachment` when the box does not fit the index's `Float` coordinates or its
    ///   corners are too large to flatten within the tolerance.
    static func boxShape(_ r: Rect, cornerRadius: Double, maxScale: Double, viewTolerance: Double,
                         attachment: Int) throws(TextError) -> GlyphShape {
        let rad = min(cornerRadius, r.width / 2, r.height / 2)
        do throws(ShapeError) {
            guard r.width > 0, r.height > 0 else { return try GlyphShape(polygon: Polygon(contours: [])) }
            return try RoundRect.shape(r, radius: max(0, rad), viewTolerance: viewTolerance, maxScale: maxScale)
        } catch {
            throw .invalidAttachment(index: attachment, reason: "its box cannot be hit-tested: \(error)")
        }
    }
}
