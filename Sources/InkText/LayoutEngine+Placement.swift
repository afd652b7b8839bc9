import InkGeometry
import InkFreeType

extension LayoutEngine {
    /// Positions a planned line: each fragment's clusters in visual order, aligned within the fragment;
    /// then its box, content box and decorations.
    mutating func place(_ line: PlannedLine, index li: Int) {
        let baseline = line.top + line.ascent
        var content = Rect.empty
        var end = paragraph.origin.x
        var fragmentBoxes: [Rect] = []
        for f in line.fragments {
            let placed = placeFragment(f, line: li, baseline: baseline, base: line.base)
            if stoppedDuring != nil { return }
            end = max(end, placed.end)
            if placed.content.minX <= placed.content.maxX { content = content.union(placed.content) }
            fragmentBoxes.append(Rect(minX: f.minX, minY: line.top, maxX: f.maxX.isFinite ? f.maxX : max(placed.end, f.minX),
                                      maxY: baseline + line.descent + line.gap))
        }
        // The line's text in logical order (the ellipsis stands for cut text, not the line's).
        let logical = line.fragments.flatMap { $0.clusters.filter { !$0.isEllipsis } }
        let lineRange = (logical.first?.range.lowerBound ?? map.length)..<(logical.last?.range.upperBound ?? map.length)
        let box = Rect(minX: paragraph.origin.x, minY: line.top,
                       maxX: max(paragraph.origin.x + (paragraph.width ?? 0), end), maxY: baseline + line.descent + line.gap)
        let contentBox = content.isEmpty
            ? Rect(minX: end, minY: line.top, maxX: end, maxY: baseline + line.descent)
            : Rect(minX: content.minX, minY: line.top, maxX: content.maxX, maxY: baseline + line.descent)
        lines.append(TextLayout.Line(box: box, baseline: baseline, utf16: lineRange, contentBox: contentBox,
                                     fragments: fragmentBoxes))
        if recordsSpans {
            let first = lineSpans[lineSpans.count - 1]
            spans[first...].sort { ($0.x0, $0.x1) < ($1.x0, $1.x1) }
            lineSpans.append(spans.count)
        }
    }

    /// One visual step of a fragment: the cluster (index into the fragment's clusters), where it went, and
    /// whether it is a trailing space (hanging, never decorated).
    struct Placed {
        var cluster: Int
        var x0: Double
        var x1: Double
        var isTrailing: Bool
    }

    /// Positions one fragment's clusters; returns the pen's end and the content's extent (x only).
    mutating func placeFragment(_ f: Fragment, line li: Int, baseline: Double, base: UInt8) -> (end: Double, content: Rect) {
        let lc = f.clusters
        // Rule L1: trailing whitespace takes the paragraph level; then L2 on cluster levels.
        var levels = lc.map(\.level)
        var t = levels.count
        while t > 0 && (lc[t - 1].isSpace || lc[t - 1].isNewline) { levels[t - 1] = base; t -= 1 }
        let order = Bidi.visualOrder(levels)
        var x = fragmentStart(f, order: order, trailing: t, base: base)
        var contentMinX = Double.infinity, contentMaxX = -Double.infinity
        var steps: [Placed] = []
        if recordsSpans { steps.reserveCapacity(order.count) }
        for (step, n) in order.enumerated() {
            if step & 4095 == 4095, pastDeadline("placing line \(li) (cluster \(step) of \(order.count))") { break }
            let c = lc[n]
            let x0 = x
            x = placeCluster(c, at: x, line: li, baseline: baseline)
            if !(c.isSpace || c.isNewline) || n < t {
                contentMinX = min(contentMinX, x0); contentMaxX = max(contentMaxX, x)
            }
            if recordsSpans { steps.append(Placed(cluster: n, x0: x0, x1: x, isTrailing: n >= t)) }
        }
        if recordsSpans { decorate(lc, steps, line: li, baseline: baseline) }
        return (x, Rect(minX: contentMinX, minY: 0, maxX: contentMaxX, maxY: 0))
    }

    /// Where a fragment's content starts: aligned within its width (`paragraph.alignment`); in a fragment
    /// bounded by an exclusion, kept where its ink stays inside. In a right-to-left paragraph the hanging
    /// trailing spaces sit at the visual left: the start moves that much further left, so the content, not
    /// the spaces, is what gets aligned.
    mutating func fragmentStart(_ f: Fragment, order: [Int], trailing t: Int, base: UInt8) -> Double {
        let lc = f.clusters
        var contentWidth = 0.0, hang = 0.0
        for (n, c) in lc.enumerated() {
            if n < t || !(c.isSpace || c.isNewline) { contentWidth += c.advance } else { hang += c.advance }
        }
        var x: Double
        if f.isFree || exclusions.isEmpty {
            x = f.minX
            if paragraph.width != nil, f.width.isFinite {
                switch paragraph.alignment {
                case .left: break
                case .center: x += (f.width - contentWidth) / 2
                case .right: x += f.width - contentWidth
                }
            }
        } else {
            // The ink as the content lies in visual order, relative to its start.
            var inkMin = Double.infinity, inkMax = -Double.infinity, pen = 0.0
            for n in order where n < t || !(lc[n].isSpace || lc[n].isNewline) {
                let b = inkBox(of: lc[n])
                if !b.isEmpty { inkMin = min(inkMin, pen + b.minX); inkMax = max(inkMax, pen + b.maxX) }
                pen += lc[n].advance
            }
            guard let room = startRange(width: contentWidth, inkMin: inkMin, inkMax: inkMax, in: f) else { return f.minX }
            switch paragraph.alignment {
            case .left: x = room.lowerBound
            case .right: x = room.upperBound
            case .center: x = min(max((f.minX + f.maxX - contentWidth) / 2, room.lowerBound), room.upperBound)
            }
        }
        if base & 1 == 1 { x -= hang }
        return x
    }

    /// Places cluster `c` with its pen at `x`: its glyphs (or its attachment), letter spacing after it in
    /// logical order; returns the pen after it.
    mutating func placeCluster(_ c: Cluster, at x: Double, line li: Int, baseline: Double) -> Double {
        let r = resolved(c)
        let rtl = c.level & 1 == 1
        let firstGlyph = glyphs.count
        var x = x
        let x0 = x
        if c.attachment >= 0 {
            let a = attachments[c.attachment]
            let ax = x + (rtl ? c.spacing : 0), y = baseline - r.baselineShift
            placedAttachments.append(TextLayout.PlacedAttachment(
                attachment: a, box: Rect(minX: ax, minY: y - a.ascent, maxX: ax + a.width, maxY: y + a.descent), line: li))
        }
        if c.font >= 0 {
            let kk = scale(c.font, r.size), sid = styleID(style: c.style, font: c.font)
            if rtl { x += c.spacing }
            for g in c.glyphs {
                glyphs.append(TextLayout.Glyph(
                    font: c.font, id: g.id, styleID: sid, x: x + g.xOffset * kk, y: baseline - r.baselineShift - g.yOffset * kk,
                    size: r.size, utf16: c.range, advance: g.xAdvance * kk, line: li, isRightToLeft: rtl, isEllipsis: c.isEllipsis))
                // Ligature carets for glyphs covering several graphemes.
                if c.glyphs.count == 1, map.graphemeRange(covering: c.range) != c.range || spansGraphemes(c.range) {
                    let cs = hb[c.font].ligatureCarets(g.id, rtl: rtl)
                    if !cs.isEmpty, g.xAdvance > 0 { carets[glyphs.count - 1] = cs.map { $0 / g.xAdvance }.sorted() }
                }
                x += g.xAdvance * kk
            }
            if !rtl { x += c.spacing }
        } else {
            x += c.advance
        }
        if recordsSpans && !c.isNewline {
            let n = c.font >= 0 ? glyphs.count - firstGlyph : 0
            spans.append(TextLayout.ClusterSpan(x0: x0, x1: x, start: Int32(c.range.lowerBound), end: Int32(c.range.upperBound),
                                                glyph: Int32(firstGlyph), glyphCount: Int32(n), isEllipsis: c.isEllipsis))
        }
        return x
    }
}
