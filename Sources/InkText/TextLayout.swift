import InkGeometry
@_spi(InkInternals) import InkHit
@_spi(InkInternals) import InkFreeType

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
        /// Origin on the baseline, layout px.
        public var x: Double, y: Double
        /// px per em.
        public var size: Double
        /// UTF-16 range of the glyph's cluster (for the ellipsis: the truncated range).
        public var utf16: Range<Int>
        /// Advance along the line, layout px.
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

    /// The text laid out.
    public let text: String
    /// Fonts referenced by `glyphs[i].font`.
    public let fonts: [Font]
    /// How each font's glyphs are drawn (one per font of `fonts`).
    public let glyphStyles: [GlyphStyle]
    /// Every glyph, line by line in visual order (left to right).
    public let glyphs: [Glyph]
    /// The lines, top to bottom.
    public let lines: [Line]
    /// The attachments, in the order they were placed.
    public let attachments: [PlacedAttachment]
    /// The links as given.
    public let links: [TextLink]
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
    let linkIndex: HitIndex
    /// placement → (glyph index or -1 - attachment index), for `linkIndex`.
    let linkItem: [Int]
    let carets: [Int: [Double]]   // glyph index → ligature caret fractions (0...1) along the advance
    let charBoxes: [CharacterBox]
    /// UTF-16 offset → first glyph whose cluster holds it (-1: none).
    let glyphAt: [Int32]
    /// UTF-16 offset → last link covering it.
    let linkMap: LinkMap

    /// Most UTF-16 units one layout accepts.
    public static let maxLength = 1 << 22

    /// Lays out `text`.
    ///
    /// - Parameters:
    ///   - text: the text; offsets everywhere are UTF-16 offsets into it.
    ///   - style: the font fallback chain and the size.
    ///   - paragraph: wrap width, alignment, line limit, direction and origin.
    ///   - links: UTF-16 ranges with tags; a range must be non-empty and inside the text.
    ///   - attachments: inline boxes, each on a U+FFFC of the text.
    ///   - transform: layout → view (the space of query points and radii).
    ///   - tolerance: flattening tolerance, view px.
    ///   - cache: glyph shapes are shared through it (one per font, glyph and size class); the process-wide
    ///     `FontShapeCache.shared` unless given another.
    ///   - budget: most bytes of glyph shapes and a deadline, for untrusted text (unbounded by default).
    ///   - shapeForms: which form of the glyph shapes the layout's hit indexes read (`HitIndex.Builder.shapeForms`):
    ///     `.full` for a layout that will answer many queries, `.whenReused` (cheapest on first sight) by default.
    /// - Throws: `TextError` for invalid settings, links or attachments, (as `.glyph`) a font's error for a
    ///   glyph that cannot be placed, `.shapeBytes` / `.pastDeadline` when the budget runs out.
    public init(text: String, style: TextStyle, paragraph: ParagraphStyle = ParagraphStyle(),
                links: [TextLink] = [], attachments: [TextAttachment] = [],
                transform: AffineTransform = .identity, tolerance: Double = HitIndex.defaultTolerance,
                cache: FontShapeCache = .shared, budget: LayoutBudget = LayoutBudget(),
                shapeForms: ShapeForms = .whenReused) throws(TextError) {
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
        let map = TextIndexMap(text)
        guard map.length <= Self.maxLength else { throw .tooLong(length: map.length, limit: Self.maxLength) }
        for (i, l) in links.enumerated() where l.range.isEmpty || l.range.lowerBound < 0 || l.range.upperBound > map.length {
            throw .linkOutOfRange(index: i, range: l.range, length: map.length)
        }
        var attachmentAt: [Int: Int] = [:]
        for (i, a) in attachments.enumerated() {
            guard a.at >= 0, a.at < map.length, map.utf16[a.at] == 0xFFFC else {
                throw .attachmentNotOnPlaceholder(index: i, at: a.at)
            }
            guard a.width.isFinite, a.width >= 0, a.ascent.isFinite, a.descent.isFinite, a.ascent + a.descent >= 0,
                  a.cornerRadius.isFinite, a.cornerRadius >= 0 else {
                throw .invalidAttachment(index: i, reason: "width, ascent, descent and cornerRadius must be finite, width ≥ 0, height ≥ 0")
            }
            guard a.width <= 1e9, abs(a.ascent) <= 1e9, abs(a.descent) <= 1e9, a.cornerRadius <= 1e9 else {
                throw .invalidAttachment(index: i, reason: "width, ascent, descent and cornerRadius beyond ±1e9 px are out of range")
            }
            if attachmentAt[a.at] != nil { throw .invalidAttachment(index: i, reason: "two attachments at offset \(a.at)") }
            attachmentAt[a.at] = i
        }
        var indexTolerance: HitIndex.Builder
        do { indexTolerance = try HitIndex.Builder(tolerance: tolerance) } catch { throw .index(error) }
        indexTolerance.shapeForms = shapeForms
        guard let inverse = transform.inverted() else { throw .invalidTransform(transform) }
        var engine = LayoutEngine(map: map, style: style, paragraph: paragraph, attachmentAt: attachmentAt,
                                  attachments: attachments, budget: budget)
        engine.run()
        if let during = engine.stoppedDuring { throw .pastDeadline(during: during) }

        self.text = text
        self.map = map
        self.fonts = style.fonts
        self.glyphStyles = style.fonts.indices.map(style.glyphStyle)
        self.glyphs = engine.glyphs
        self.lines = engine.lines
        self.attachments = engine.placedAttachments
        self.links = links
        self.transform = transform
        self.inverse = inverse
        self.truncated = engine.truncated
        self.carets = engine.carets
        self.charBoxes = Self.computeCharacterBoxes(glyphs: engine.glyphs, lines: engine.lines,
                                                    attachments: engine.placedAttachments, map: map, transform: transform)
        // The glyphs of a cluster are contiguous and share its range: each range is walked once, so this is
        // linear in the text even for one letter under 100,000 combining marks.
        var glyphAt = [Int32](repeating: -1, count: map.length + 1)
        var lastRange: Range<Int>? = nil
        for (gi, g) in engine.glyphs.enumerated() where !g.isEllipsis && g.utf16 != lastRange {
            lastRange = g.utf16
            for o in g.utf16 where o >= 0 && o < glyphAt.count && glyphAt[o] < 0 { glyphAt[o] = Int32(gi) }
        }
        self.glyphAt = glyphAt
        let linkMap = LinkMap(links: links, length: map.length)
        self.linkMap = linkMap

        // Hit indexes: ink of every glyph; attachment boxes; link glyphs and attachments in link ranges.
        var inLinkCache: (Range<Int>, Bool)? = nil
        func inLink(_ r: Range<Int>) -> Bool {
            if let (cr, v) = inLinkCache, cr == r { return v }
            let v = linkMap.lastLink(overlapping: r) != nil
            inLinkCache = (r, v)
            return v
        }
        var ink = indexTolerance, linkB = indexTolerance
        var inkGlyph: [Int] = [], linkItem: [Int] = []
        var seenShapes = Set<ObjectIdentifier>()
        var shapeBytes = 0
        for (gi, g) in engine.glyphs.enumerated() {
            if budget.deadline != nil, budget.isPastDeadline {
                throw .pastDeadline(during: "placing glyph \(gi) of \(engine.glyphs.count)")
            }
            let placement = Self.placement(g, fonts: style.fonts, styles: glyphStyles, transform: transform)
            let shape: GlyphShape, t: AffineTransform, sv: SingularValues
            do throws(FontError) {
                (shape, t, sv) = try placement.shape(cache: cache, viewTolerance: tolerance)
            } catch .noOutline {
                continue                                          // no ink source at all: nothing to hit
            } catch {
                throw .glyph(glyph: gi, utf16: g.utf16.lowerBound, error)
            }
            if seenShapes.insert(ObjectIdentifier(shape)).inserted {
                shapeBytes += shape.byteCount
                if shapeBytes > budget.maxShapeBytes {
                    throw .shapeBytes(glyph: gi, utf16: g.utf16.lowerBound, limit: budget.maxShapeBytes)
                }
            }
            if shape.bounds.isEmpty { continue }
            do { try ink.add(shape, transform: t, singularValues: sv) } catch {
                throw .glyph(glyph: gi, utf16: g.utf16.lowerBound, .placement(error))
            }
            inkGlyph.append(gi)
            if inLink(g.utf16) && !g.isEllipsis {
                do { try linkB.add(shape, transform: t, singularValues: sv) } catch {
                    throw .glyph(glyph: gi, utf16: g.utf16.lowerBound, .placement(error))
                }
                linkItem.append(gi)
            }
        }
        var att = indexTolerance
        for (ai, pa) in engine.placedAttachments.enumerated() {
            let shape = try Self.boxShape(pa.box, cornerRadius: pa.attachment.cornerRadius, maxScale: transform.maxScale,
                                          viewTolerance: tolerance, attachment: attachmentAt[pa.attachment.at] ?? ai)
            do throws(HitIndexError) {
                try att.add(shape, transform: transform)
                if inLink(pa.attachment.at..<(pa.attachment.at + 1)) {
                    try linkB.add(shape, transform: transform)
                    linkItem.append(-1 - ai)
                }
            } catch {
                throw .attachmentPlacement(index: ai, error)
            }
        }
        self.inkIndex = ink.build()
        self.inkGlyph = inkGlyph
        var hasInk = [Bool](repeating: false, count: engine.glyphs.count)
        for gi in inkGlyph { hasInk[gi] = true }
        self.glyphHasInk = hasInk
        self.attachmentIndex = att.build()
        self.linkIndex = linkB.build()
        self.linkItem = linkItem
    }

    /// Glyph `index` of `glyphs` as a placement: its font, id, size and origin, seen through `transform`.
    /// Its `outline(into:)` draws the glyph in view px; `fontUnitsToView` is the map the hit index uses.
    public func placement(of index: Int) -> GlyphPlacement {
        Self.placement(glyphs[index], fonts: fonts, styles: glyphStyles, transform: transform)
    }

    static func placement(_ g: Glyph, fonts: [Font], styles: [GlyphStyle], transform: AffineTransform) -> GlyphPlacement {
        GlyphPlacement(font: fonts[g.font], glyph: g.id, size: g.size, origin: Point(g.x, g.y), transform: transform,
                       style: styles[g.font])
    }

    /// A (rounded) box as a shape in layout px, flattened for `viewTolerance` under a transform of largest
    /// scale `maxScale` (a box without rounding is exact).
    ///
    /// - Throws: `.invalidAttachment` when the box does not fit the index's `Float` coordinates or its
    ///   corners are too large to flatten within the tolerance.
    static func boxShape(_ r: Rect, cornerRadius: Double, maxScale: Double, viewTolerance: Double,
                         attachment: Int) throws(TextError) -> GlyphShape {
        let rad = min(cornerRadius, r.width / 2, r.height / 2)
        do {
            return try GlyphShape(viewTolerance: viewTolerance, maxScale: maxScale) { sink in
                guard r.width > 0, r.height > 0 else { return }
                guard rad > 0 else {
                    sink.move(to: Point(r.minX, r.minY)); sink.addLine(to: Point(r.maxX, r.minY))
                    sink.addLine(to: Point(r.maxX, r.maxY)); sink.addLine(to: Point(r.minX, r.maxY)); sink.closeSubpath()
                    return
                }
                let k = 0.5522847498 * rad
                sink.move(to: Point(r.minX + rad, r.minY))
                sink.addLine(to: Point(r.maxX - rad, r.minY))
                sink.addCurve(to: Point(r.maxX, r.minY + rad), control1: Point(r.maxX - rad + k, r.minY), control2: Point(r.maxX, r.minY + rad - k))
                sink.addLine(to: Point(r.maxX, r.maxY - rad))
                sink.addCurve(to: Point(r.maxX - rad, r.maxY), control1: Point(r.maxX, r.maxY - rad + k), control2: Point(r.maxX - rad + k, r.maxY))
                sink.addLine(to: Point(r.minX + rad, r.maxY))
                sink.addCurve(to: Point(r.minX, r.maxY - rad), control1: Point(r.minX + rad - k, r.maxY), control2: Point(r.minX, r.maxY - rad + k))
                sink.addLine(to: Point(r.minX, r.minY + rad))
                sink.addCurve(to: Point(r.minX + rad, r.minY), control1: Point(r.minX, r.minY + rad - k), control2: Point(r.minX + rad - k, r.minY))
                sink.closeSubpath()
            }
        } catch {
            throw .invalidAttachment(index: attachment, reason: "its box cannot be hit-tested: \(error)")
        }
    }
}
