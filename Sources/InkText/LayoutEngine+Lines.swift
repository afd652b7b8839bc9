import InkGeometry
import InkFreeType

extension LayoutEngine {
    /// A piece of a line between exclusions (TextKit's line fragment), layout px, with the clusters it holds
    /// in logical order.
    struct Fragment {
        var minX: Double
        var maxX: Double
        /// The width lines are filled to: `maxX − minX`, or for a whole line exactly the paragraph's width
        /// less the indent (infinite without a width).
        var width: Double
        /// Whether an exclusion bounds the fragment on that side (then the ink, not only the advances, must
        /// stay inside).
        var leftBlocked = false
        var rightBlocked = false
        var clusters: [Cluster] = []
        /// Where `clusters` come from in the paragraph's clusters.
        var source: Range<Int> = 0..<0
        /// The content's advance (trailing spaces excluded) and ink extent relative to its start, layout px
        /// (the ink only with exclusions).
        var contentWidth = 0.0
        var inkMin = Double.infinity
        var inkMax = -Double.infinity

        var isFree: Bool { !leftBlocked && !rightBlocked }
    }

    /// A line as broken, before placement: its top, vertical metrics and fragments (in logical order).
    struct PlannedLine {
        var top: Double
        var ascent: Double
        var descent: Double
        var gap: Double
        var base: UInt8
        var fragments: [Fragment]
        /// The UTF-16 offset whose style sizes the line when it holds nothing.
        var emptyOffset: Int

        var height: Double { ascent + descent + gap }
        var isEmpty: Bool { fragments.allSatisfy { $0.clusters.isEmpty } }
        var firstCluster: Cluster? { fragments.lazy.compactMap(\.clusters.first).first }

        /// Appends `c` after the line's last cluster (to its last fragment holding one, else its first).
        mutating func appendLogically(_ c: Cluster) {
            guard !fragments.isEmpty else { return }
            let k = fragments.lastIndex { !$0.clusters.isEmpty } ?? 0
            fragments[k].clusters.append(c)
        }
    }

    /// Breaks one paragraph's clusters into lines from `top` (moved to the bottom of the last line).
    mutating func breakParagraph(_ cs: [Cluster], base: UInt8, range: Range<Int>, top: inout Double) -> [PlannedLine] {
        var lines: [PlannedLine] = []
        var inks: [Rect] = [], widest = Rect.empty
        if !exclusions.isEmpty {
            inks = cs.map { inkBox(of: $0) }
            widest = band(of: Array(cs.indices), cs, inks: inks, exact: false)
        }
        var pos = 0
        repeat {
            if pastDeadline("breaking lines at cluster \(pos) of \(cs.count)") { break }
            fillWork += 1
            let line = fitLine(cs, inks: inks, widest: widest, from: pos, base: base, first: lines.isEmpty, top: top,
                               emptyOffset: range.lowerBound)
            lines.append(line.line)
            top = line.line.top + line.line.height
            pos = line.end
        } while pos < cs.count
        return lines
    }

    /// The paragraph's edges for a line (the indent applied on its first line), layout px.
    func edges(base: UInt8, first: Bool) -> Fragment {
        let left = paragraph.origin.x
        let indent = first ? paragraph.firstLineIndent : 0
        guard let w = paragraph.width else {
            return Fragment(minX: left + indent, maxX: .infinity, width: .infinity)
        }
        if base & 1 == 1 { return Fragment(minX: left, maxX: left + w - indent, width: w - indent) }
        return Fragment(minX: left + indent, maxX: left + w, width: w - indent)
    }

    /// One line from cluster `pos` at `top`: without exclusions, the greedy fill of the whole width; with
    /// them, fragments of the band the line's ink and box take, found by growing the band until the content
    /// fits inside it (after 8 rounds, the band `widest` that any line of the paragraph fits in), moving the
    /// line down past the exclusions where nothing fits.
    mutating func fitLine(_ cs: [Cluster], inks: [Rect], widest: Rect, from pos: Int, base: UInt8, first: Bool, top: Double,
                          emptyOffset: Int) -> (line: PlannedLine, end: Int) {
        let whole = edges(base: base, first: first)
        var top = top
        func planned(_ fragments: [Fragment]) -> PlannedLine {
            var line = PlannedLine(top: top, ascent: 0, descent: 0, gap: 0, base: base, fragments: fragments,
                                   emptyOffset: emptyOffset)
            (line.ascent, line.descent, line.gap) = metrics(of: fragments, emptyOffset: emptyOffset)
            return line
        }
        guard !exclusions.isEmpty, pos < cs.count else {
            var f = whole
            let end = pos < cs.count ? (fill(cs, inks: inks, from: pos, into: &f) ?? pos) : pos
            return (planned([f]), end)
        }
        // The band relative to `top`, grown to the content's; after a few rounds, the paragraph's largest.
        var band = self.band(of: [pos], cs, inks: inks, exact: true)
        var rounds = 0
        var isWidest = false
        while true {
            rounds += 1
            if !isWidest && rounds > 8 {
                band = band.union(widest)
                isWidest = true
            }
            if rounds & 15 == 15, pastDeadline("fitting line at cluster \(pos) around the exclusions") { return (planned([]), cs.count) }
            let y0 = top + band.minY, y1 = top + band.maxY
            let fragments = self.fragments(whole, covered: exclusions.covered(y0: y0, y1: y1))
            let (filled, end) = fillFragments(cs, inks: inks, from: pos, fragments, rtl: base & 1 == 1)
            if stoppedDuring != nil { return (planned(filled), cs.count) }
            guard end > pos else {
                // Nothing fits in this band: below the exclusion that ends first.
                let clear = exclusions.lowestClearing(y0: y0, y1: y1) ?? y1
                top = max(top + ExclusionMap.margin, clear - band.minY + ExclusionMap.margin * (1 + abs(clear)))
                continue
            }
            let needed = self.band(of: filled.flatMap { Array($0.source) }, cs, inks: inks, exact: true)
            if isWidest || (needed.minY >= band.minY && needed.maxY <= band.maxY) { return (planned(filled), end) }
            band = band.union(needed)
        }
    }

    /// The vertical extent, relative to a line's top, that clusters `indices` of `cs` take on a line: the
    /// line box (top to the descent below the baseline) and the ink of every cluster. `exact`: the clusters
    /// are the line's content (its baseline is known); else the extent of any line holding some of them.
    func band(of indices: [Int], _ cs: [Cluster], inks: [Rect], exact: Bool) -> Rect {
        var ascent = 0.0, leastAscent = Double.infinity, descent = 0.0, inkTop = 0.0, inkBottom = 0.0
        for i in indices where !cs[i].isNewline {
            let m = metrics(of: cs[i])
            ascent = max(ascent, m.ascent); leastAscent = min(leastAscent, m.ascent); descent = max(descent, m.descent)
            if !inks[i].isEmpty { inkTop = min(inkTop, inks[i].minY); inkBottom = max(inkBottom, inks[i].maxY) }
        }
        let base = exact ? ascent : min(leastAscent, ascent)
        return Rect(minX: 0, minY: min(0, base + inkTop), maxX: 0, maxY: ascent + max(descent, inkBottom))
    }

    /// The parts of `whole` the covered intervals leave, left to right (a single free fragment when nothing
    /// covers it).
    func fragments(_ whole: Fragment, covered: [ClosedRange<Double>]) -> [Fragment] {
        let cuts = covered.filter { $0.upperBound > whole.minX && $0.lowerBound < whole.maxX }
        guard !cuts.isEmpty else { return [whole] }
        var out: [Fragment] = []
        var x = whole.minX, blocked = false
        for c in cuts {
            if c.lowerBound > x { out.append(Fragment(minX: x, maxX: c.lowerBound, width: c.lowerBound - x, leftBlocked: blocked, rightBlocked: true)) }
            x = max(x, c.upperBound)
            blocked = true
        }
        if whole.maxX > x { out.append(Fragment(minX: x, maxX: whole.maxX, width: whole.maxX - x, leftBlocked: true, rightBlocked: false)) }
        return out
    }

    /// Fills the fragments in the paragraph's direction from cluster `pos`; returns them (logical order) and
    /// the first cluster left over.
    mutating func fillFragments(_ cs: [Cluster], inks: [Rect], from pos: Int, _ fragments: [Fragment], rtl: Bool) -> ([Fragment], Int) {
        var out = rtl ? fragments.reversed() : fragments
        var p = pos
        for k in out.indices where p < cs.count {
            if let end = fill(cs, inks: inks, from: p, into: &out[k]) { p = end }
        }
        return (out, p)
    }

    /// Greedy line breaking into one fragment: clusters from `i0` while they fit, the line broken at the last
    /// opportunity (in a free fragment, else between clusters when a word is wider than it); trailing spaces
    /// hang. Returns the first cluster left over, or nil when a fragment bounded by an exclusion cannot take
    /// even the first word. O(1) per cluster: the width without trailing spaces is the width after the last
    /// cluster that is not a space, kept as clusters go (a run of spaces is never walked back over). The
    /// deadline is checked every 4,096 clusters; past it, `stoppedDuring` is set and the line ends there.
    mutating func fill(_ cs: [Cluster], inks: [Rect], from i0: Int, into f: inout Fragment) -> Int? {
        var w = 0.0, a = Double.infinity, b = -Double.infinity
        var lastBreak = -1
        var content = (width: 0.0, a: Double.infinity, b: -Double.infinity)    // up to the last break
        var trimmed = 0.0       // the advance up to the last cluster that is not a space
        var i = i0
        var end = cs.count
        while i < cs.count {
            if (i - i0) & 4095 == 4095, pastDeadline("breaking lines (cluster \(i) of \(cs.count))") { end = i; break }
            let c = cs[i]
            if !c.isSpace {
                var na = a, nb = b
                if !inks.isEmpty, !inks[i].isEmpty { na = min(a, w + inks[i].minX); nb = max(b, w + inks[i].maxX) }
                if !fits(width: w + c.advance, inkMin: na, inkMax: nb, in: f) {
                    if i > i0 || !f.isFree {
                        guard lastBreak >= i0 || (f.isFree && i > i0) else { fillWork += i - i0 + 1; return nil }
                        end = lastBreak >= i0 ? lastBreak + 1 : i
                        if lastBreak < i0 { content = (w, a, b) }
                        break
                    }
                }
                a = na; b = nb
            }
            w += c.advance
            if !c.isSpace { trimmed = w }
            if c.breakAfter { lastBreak = i; content = (trimmed, a, b) }
            i += 1
        }
        fillWork += i - i0 + 1
        if i == cs.count { content = (trimmed, a, b) }
        // Trailing spaces stay on the line (they hang).
        let hangFrom = end
        if stoppedDuring == nil { while end < cs.count && cs[end].isSpace { end += 1 } }
        fillWork += end - hangFrom
        f.clusters = Array(cs[i0..<end])
        f.source = i0..<end
        (f.contentWidth, f.inkMin, f.inkMax) = content
        return end
    }

    /// Whether content of advance `width` and ink `inkMin ... inkMax` (relative to its start) fits in `f`:
    /// the advances within the fill width, the ink within every side an exclusion bounds.
    func fits(width: Double, inkMin: Double, inkMax: Double, in f: Fragment) -> Bool {
        if f.isFree { return !(width > f.width) }
        return startRange(width: width, inkMin: inkMin, inkMax: inkMax, in: f) != nil
    }

    /// Where content may start in a fragment bounded by an exclusion (see `fits`), nil when nowhere.
    func startRange(width: Double, inkMin: Double, inkMax: Double, in f: Fragment) -> ClosedRange<Double>? {
        let lo = f.minX + (f.leftBlocked && inkMin.isFinite ? max(0, -inkMin) : 0)
        let hi = f.maxX - (f.rightBlocked && inkMax.isFinite ? max(width, inkMax) : width)
        return lo <= hi ? lo...hi : nil
    }

    // MARK: Metrics

    /// A cluster's share of its line's metrics: the primary font of its chain at its size, times the line
    /// height (an attachment: that, or its box where taller).
    func metrics(of c: Cluster) -> (ascent: Double, descent: Double, gap: Double) {
        let m = styleMetrics[c.style]
        guard c.attachment >= 0 else { return m }
        let a = attachments[c.attachment]
        return (max(m.ascent, a.ascent), max(m.descent, a.descent), m.gap)
    }

    /// A line's ascent, descent and gap: the largest of its clusters' (newlines aside); a line without
    /// them takes the style at `emptyOffset`.
    func metrics(of fragments: [Fragment], emptyOffset: Int) -> (Double, Double, Double) {
        var m: (Double, Double, Double)? = nil
        for f in fragments {
            for c in f.clusters where !c.isNewline {
                let x = metrics(of: c)
                m = m.map { (max($0.0, x.ascent), max($0.1, x.descent), max($0.2, x.gap)) } ?? x
            }
        }
        return m ?? styleMetrics[styles.style(at: min(emptyOffset, max(0, map.length - 1)))]
    }

    // MARK: Ink

    /// The ink box of cluster `c` relative to its pen start on the baseline (y-down, its baseline shift
    /// applied), layout px: the glyphs' boxes (`GlyphPlacement.viewBounds()`), or an attachment's box.
    mutating func inkBox(of c: Cluster) -> Rect {
        let r = styles.styles[c.style]
        let rtl = c.level & 1 == 1
        var x = rtl ? c.spacing : 0
        if c.attachment >= 0 {
            let a = attachments[c.attachment]
            return Rect(minX: x, minY: -a.ascent - r.baselineShift, maxX: x + a.width, maxY: a.descent - r.baselineShift)
        }
        guard c.font >= 0 else { return .empty }
        let k = scale(c.font, r.size), gs = glyphStyle(r, font: c.font)
        var box = Rect.empty
        for g in c.glyphs {
            let key = InkKey(font: c.font, glyph: g.id, size: r.size, glyphStyle: gs)
            let ink: Rect
            if let known = inkBoxes[key] { ink = known } else {
                let p = GlyphPlacement(font: style.fonts[c.font], glyph: g.id, size: r.size, style: gs)
                ink = (try? p.viewBounds()) ?? .empty
                inkBoxes[key] = ink
            }
            if !ink.isEmpty {
                let dx = x + g.xOffset * k, dy = -r.baselineShift - g.yOffset * k
                box = box.union(Rect(minX: ink.minX + dx, minY: ink.minY + dy, maxX: ink.maxX + dx, maxY: ink.maxY + dy))
            }
            x += g.xAdvance * k
        }
        return box
    }

    // MARK: Truncation

    /// Ends `line` with an ellipsis: drops its trailing clusters (and spaces) until the last fragment with
    /// content and the ellipsis fit.
    mutating func ellipsize(_ line: inout PlannedLine, cutFrom cut: Int) {
        var cutFrom = cut
        guard !line.fragments.isEmpty else { truncated = cut..<map.length; return }
        let k = line.fragments.lastIndex { !$0.clusters.isEmpty } ?? 0
        var lc = line.fragments[k].clusters
        let styleOffset = max(0, min(map.length - 1, (lc.last { !$0.isSpace && !$0.isNewline }?.range.lowerBound ?? cut)))
        var e = shapeEllipsis(styleAt: styleOffset, level: line.base)
        let ew = e?.advance ?? 0
        while let last = lc.last, last.isSpace || last.isNewline { cutFrom = last.range.lowerBound; lc.removeLast() }
        let f = line.fragments[k]
        if f.width.isFinite {
            // The line has no trailing spaces here and after each cut: its visible width is the sum of its
            // advances, kept as clusters go (one pass, whatever the line's length).
            var width = lc.reduce(0) { $0 + $1.advance }
            while !lc.isEmpty && width + ew > f.width {
                let c = lc.removeLast()
                cutFrom = c.range.lowerBound; width -= c.advance
                while let last = lc.last, last.isSpace { cutFrom = last.range.lowerBound; width -= last.advance; lc.removeLast() }
            }
        }
        truncated = cutFrom..<map.length
        if var ell = e {
            ell.range = cutFrom..<max(cutFrom, map.length)
            e = ell
            lc.append(ell)
        }
        line.fragments[k].clusters = lc
        line.fragments[k].contentWidth = lc.reduce(0) { $0 + $1.advance }
        if !exclusions.isEmpty, !line.fragments[k].isFree {
            var ink = (Double.infinity, -Double.infinity), x = 0.0
            for c in lc {
                let b = inkBox(of: c)
                if !b.isEmpty { ink = (min(ink.0, x + b.minX), max(ink.1, x + b.maxX)) }
                x += c.advance
            }
            (line.fragments[k].inkMin, line.fragments[k].inkMax) = ink
        }
        (line.ascent, line.descent, line.gap) = metrics(of: line.fragments, emptyOffset: line.emptyOffset)
    }
}
