import InkGeometry
import InkHit
import InkFreeType

extension TextLayout {
    /// The hit indexes of a layout, built from what the engine placed: the ink of every glyph; attachment
    /// boxes; decoration rectangles; and, for `link(at:)`, link glyphs, attachments in link ranges and the
    /// parts of decorations under link characters.
    struct IndexBuild {
        let glyphs: [Glyph]
        let fonts: [Font]
        let styles: [GlyphStyle]
        let attachments: [PlacedAttachment]
        let attachmentAt: [Int: Int]
        let decorations: [TextDecoration]
        let spans: [ClusterSpan]
        let lineSpans: [Int]
        let linkMap: LinkMap
        let transform: AffineTransform
        let tolerance: Double

        struct Built {
            var ink: HitIndex
            var inkGlyph: [Int]
            var attachments: HitIndex
            var decorations: HitIndex
            var links: HitIndex
            var linkItem: [LinkItem]
        }

        func run(builder: HitIndex.Builder, cache: FontShapeCache, budget: LayoutBudget) throws(TextError) -> Built {
            var ink = builder, links = builder
            var inkGlyph: [Int] = [], linkItem: [LinkItem] = []
            try addGlyphs(&ink, &inkGlyph, &links, &linkItem, cache: cache, budget: budget)
            var att = builder
            try addAttachments(&att, &links, &linkItem)
            var deco = builder
            try addDecorations(&deco, &links, &linkItem)
            return Built(ink: ink.build(), inkGlyph: inkGlyph, attachments: att.build(), decorations: deco.build(),
                         links: links.build(), linkItem: linkItem)
        }

        /// Whether a character range is in a link (remembered for the last range asked: a cluster's glyphs
        /// ask in a row).
        final class LinkCache {
            var last: (Range<Int>, Bool)? = nil
        }
        func inLink(_ r: Range<Int>, _ memo: LinkCache) -> Bool {
            if let (cr, v) = memo.last, cr == r { return v }
            let v = linkMap.lastLink(overlapping: r) != nil
            memo.last = (r, v)
            return v
        }

        func addGlyphs(_ ink: inout HitIndex.Builder, _ inkGlyph: inout [Int], _ links: inout HitIndex.Builder,
                       _ linkItem: inout [LinkItem], cache: FontShapeCache, budget: LayoutBudget) throws(TextError) {
            var seenShapes = Set<ObjectIdentifier>()
            var shapeBytes = 0
            let memo = LinkCache()
            for (gi, g) in glyphs.enumerated() {
                if budget.deadline != nil, budget.isPastDeadline {
                    throw .pastDeadline(during: "placing glyph \(gi) of \(glyphs.count)")
                }
                let placement = TextLayout.placement(g, fonts: fonts, styles: styles, transform: transform)
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
                if inLink(g.utf16, memo) && !g.isEllipsis {
                    do { try links.add(shape, transform: t, singularValues: sv) } catch {
                        throw .glyph(glyph: gi, utf16: g.utf16.lowerBound, .placement(error))
                    }
                    linkItem.append(.glyph(gi))
                }
            }
        }

        func addAttachments(_ att: inout HitIndex.Builder, _ links: inout HitIndex.Builder,
                            _ linkItem: inout [LinkItem]) throws(TextError) {
            let memo = LinkCache()
            for (ai, pa) in attachments.enumerated() {
                let shape = try TextLayout.boxShape(pa.box, cornerRadius: pa.attachment.cornerRadius, maxScale: transform.maxScale,
                                                    viewTolerance: tolerance, attachment: attachmentAt[pa.attachment.at] ?? ai)
                do throws(HitIndexError) {
                    try att.add(shape, transform: transform)
                    if inLink(pa.attachment.at..<(pa.attachment.at + 1), memo) {
                        try links.add(shape, transform: transform)
                        linkItem.append(.attachment(ai))
                    }
                } catch {
                    throw .attachmentPlacement(index: ai, error)
                }
            }
        }

        func addDecorations(_ deco: inout HitIndex.Builder, _ links: inout HitIndex.Builder,
                            _ linkItem: inout [LinkItem]) throws(TextError) {
            for (di, d) in decorations.enumerated() {
                try add(d.rect, to: &deco, decoration: di)
                for piece in linkedPieces(of: d) {
                    try add(Rect(minX: piece.lowerBound, minY: d.rect.minY, maxX: piece.upperBound, maxY: d.rect.maxY),
                            to: &links, decoration: di)
                    linkItem.append(.decoration(di, x0: piece.lowerBound, x1: piece.upperBound))
                }
            }
        }

        /// The x-ranges (layout px) of decoration `d` over characters in links: runs of its line's spans
        /// whose characters are in a link, clipped to it.
        func linkedPieces(of d: TextDecoration) -> [ClosedRange<Double>] {
            let line = spans[lineSpans[d.line]..<lineSpans[d.line + 1]]
            var k = line.startIndex, hi = line.endIndex
            while k < hi {                                   // the first span ending after the stroke's start
                let mid = (k + hi) / 2
                if line[mid].x1 <= d.rect.minX { k = mid + 1 } else { hi = mid }
            }
            var out: [ClosedRange<Double>] = []
            var run: ClosedRange<Double>? = nil
            while k < line.endIndex && line[k].x0 < d.rect.maxX {
                let s = line[k]
                k += 1
                let linked = !s.isEllipsis && s.x1 > s.x0 && linkMap.lastLink(overlapping: s.utf16) != nil
                let a = max(s.x0, d.rect.minX), b = min(s.x1, d.rect.maxX)
                guard linked, a < b else {
                    if let r = run { out.append(r); run = nil }
                    continue
                }
                if let r = run, a <= r.upperBound { run = r.lowerBound...max(r.upperBound, b) } else {
                    if let r = run { out.append(r) }
                    run = a...b
                }
            }
            if let r = run { out.append(r) }
            return out
        }

        func add(_ r: Rect, to b: inout HitIndex.Builder, decoration di: Int) throws(TextError) {
            do {
                try TextLayout.addRect(r, to: &b, transform: transform)
            } catch {
                throw .decoration(index: di, reason: "its rectangle cannot be hit-tested: \(error)")
            }
        }
    }

    /// The unit square, an exact shape every decoration shares (placed by the map onto its rectangle).
    static let unitSquare: GlyphShape? = try? GlyphShape(polygon: Polygon(contours: [[Point(0, 0), Point(1, 0), Point(1, 1), Point(0, 1)]]))

    /// Not API: adds rectangle `r` (layout px) to `b` under `transform` (layout → the index's space) as one
    /// placement: the shared unit square mapped onto it, or, for a rectangle too thin for that map (or
    /// without area: an empty shape, never hit), a shape of its own.
    package static func addRect(_ r: Rect, to b: inout HitIndex.Builder, transform: AffineTransform) throws {
        if r.width > 0, r.height > 0, let square = unitSquare {
            let map = AffineTransform(a: r.width, b: 0, c: 0, d: r.height, tx: r.minX, ty: r.minY).concatenating(transform)
            if (try? b.add(square, transform: map)) != nil { return }
        }
        try b.add(try rectShape(r, maxScale: transform.maxScale, viewTolerance: b.tolerance), transform: transform)
    }

    /// Not API: a rectangle as a shape in layout px (exact: no curves), for a transform of largest scale
    /// `maxScale` (InkJobs' glyph jobs hit their decorations with it).
    package static func rectShape(_ r: Rect, maxScale: Double, viewTolerance: Double) throws(ShapeError) -> GlyphShape {
        try GlyphShape(viewTolerance: viewTolerance, maxScale: maxScale) { sink in
            guard r.width > 0, r.height > 0 else { return }
            sink.move(to: Point(r.minX, r.minY)); sink.addLine(to: Point(r.maxX, r.minY))
            sink.addLine(to: Point(r.maxX, r.maxY)); sink.addLine(to: Point(r.minX, r.maxY)); sink.closeSubpath()
        }
    }
}
