import InkGeometry
import InkFreeType

/// The layout algorithm behind `TextLayout`: paragraphs → bidi levels → items (font, level, script or
/// attachment) → HarfBuzz clusters → greedy lines → visual order → positions → truncation.
struct LayoutEngine {
    let map: TextIndexMap
    let style: TextStyle
    let paragraph: ParagraphStyle
    let attachmentAt: [Int: Int]
    let attachments: [TextAttachment]
    let hb: [HarfBuzzFont]
    let k: [Double]                 // px per font unit, per font
    let grow: [Double]              // font units each non-zero advance grows by (synthetic bold), per font
    /// The text as HarfBuzz sees it: C0/C1 controls (tab, …) replaced by spaces, same UTF-16 offsets, so
    /// they shape as advancing blanks instead of .notdef boxes.
    let shapingText: [UInt16]

    var glyphs: [TextLayout.Glyph] = []
    var lines: [TextLayout.Line] = []
    var placedAttachments: [TextLayout.PlacedAttachment] = []
    var truncated: Range<Int>? = nil
    var carets: [Int: [Double]] = [:]
    /// Deadline of the layout's budget.
    let budget: LayoutBudget
    /// Set when the deadline passed: what the engine was doing (then its results are incomplete).
    var stoppedDuring: String? = nil

    init(map: TextIndexMap, style: TextStyle, paragraph: ParagraphStyle, attachmentAt: [Int: Int],
         attachments: [TextAttachment], budget: LayoutBudget = LayoutBudget()) {
        self.map = map; self.style = style; self.paragraph = paragraph
        self.attachmentAt = attachmentAt; self.attachments = attachments; self.budget = budget
        hb = style.fonts.map(HarfBuzzFont.of)
        k = style.fonts.map { style.size / Double($0.unitsPerEm) }
        grow = style.fonts.indices.map { [k] f in
            style.glyphStyle(f).advanceGrowth(font: style.fonts[f], size: style.size) / k[f]
        }
        shapingText = map.utf16.map { ($0 < 0x20 || ($0 >= 0x7F && $0 < 0xA0)) ? 0x20 : $0 }
    }

    /// True (and `stoppedDuring` set) once the budget's deadline has passed.
    mutating func pastDeadline(_ during: @autoclosure () -> String) -> Bool {
        guard budget.deadline != nil, budget.isPastDeadline else { return false }
        if stoppedDuring == nil { stoppedDuring = during() }
        return true
    }

    /// A shaped cluster in logical order: the unit of line breaking and visual reordering.
    struct Cluster {
        var range: Range<Int>            // UTF-16
        var glyphs: [HarfBuzzFont.Glyph] // visual order within the cluster
        var font: Int                    // -1 for an attachment
        var attachment: Int              // index into attachments, or -1
        var level: UInt8
        var advance: Double              // px
        var isSpace: Bool                // whitespace only (hangs at line end)
        var breakAfter: Bool             // a line may break after this cluster
        var isNewline: Bool
    }

    mutating func run() {
        // Paragraphs end at U+000A, U+000D (CR LF counts once), U+2029.
        var pStart = 0
        var paragraphs: [(Range<Int>, Int)] = []     // (content range, separator length)
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

        var allLines: [[Cluster]] = []
        var paragraphBase: [UInt8] = []
        for (pi, (range, sep)) in paragraphs.enumerated() {
            if pastDeadline("shaping paragraph \(pi) of \(paragraphs.count)") { return }
            let (pcs, base) = shapeParagraph(range)
            if stoppedDuring != nil { return }
            var pLines = breakLines(pcs)
            if stoppedDuring != nil { return }
            if pLines.isEmpty { pLines = [[]] }
            // The separator belongs to the paragraph's last line (it never hits: no ink).
            if sep > 0 {
                let nl = Cluster(range: range.upperBound..<(range.upperBound + sep), glyphs: [], font: -1, attachment: -1,
                                 level: base, advance: 0, isSpace: true, breakAfter: true, isNewline: true)
                pLines[pLines.count - 1].append(nl)
            }
            for l in pLines { allLines.append(l); paragraphBase.append(base) }
        }

        // maxLines: keep the first lines, mark the rest truncated, put an ellipsis on the last kept line.
        var ellipsisOn: Int? = nil
        // An empty last line after a final newline holds nothing to cut.
        var countedLines = allLines.count
        if countedLines > 1, let last = allLines.last, last.isEmpty { countedLines -= 1 }
        if let maxL = paragraph.maxLines, countedLines > maxL {
            let cutStart = allLines[maxL].first?.range.lowerBound ?? map.length
            allLines.removeLast(allLines.count - maxL)
            ellipsisOn = maxL - 1
            truncated = cutStart..<map.length
        }

        var top = paragraph.origin.y
        for (li, var lc) in allLines.enumerated() {
            if pastDeadline("placing line \(li) of \(allLines.count)") { return }
            var ellipsis: (glyphs: [HarfBuzzFont.Glyph], font: Int, width: Double)? = nil
            if li == ellipsisOn {
                ellipsis = shapeEllipsis()
                let ew = ellipsis?.width ?? 0
                // Drop trailing clusters (and trailing spaces) until the line and the ellipsis fit.
                var cutFrom = truncated?.lowerBound ?? map.length
                while let last = lc.last, last.isSpace || last.isNewline { cutFrom = last.range.lowerBound; lc.removeLast() }
                if let w = paragraph.width {
                    // The line has no trailing spaces here and after each cut: its visible width is the sum of
                    // its advances, kept as clusters go (one pass, whatever the line's length).
                    var width = lc.reduce(0) { $0 + $1.advance }
                    while !lc.isEmpty && width + ew > w {
                        let cut = lc.removeLast()
                        cutFrom = cut.range.lowerBound; width -= cut.advance
                        while let last = lc.last, last.isSpace { cutFrom = last.range.lowerBound; width -= last.advance; lc.removeLast() }
                    }
                }
                truncated = cutFrom..<map.length
            }
            top = placeLine(lc, index: li, top: top, base: paragraphBase[li], ellipsis: ellipsis)
            if stoppedDuring != nil { return }
        }
    }

    // MARK: Shaping

    /// Itemizes and shapes one paragraph; returns its clusters in logical order and its base level.
    mutating func shapeParagraph(_ range: Range<Int>) -> ([Cluster], UInt8) {
        let firstScalar = map.scalarIndex(at: range.lowerBound)
        let endScalar = map.scalarIndex(at: range.upperBound)
        let scalars = Array(map.scalars[firstScalar..<endScalar])
        let base: Bidi.Base = paragraph.direction == .auto ? .auto
            : (paragraph.direction == .rightToLeft ? .rightToLeft : .leftToRight)
        let (levels, baseLevel) = Bidi.levels(scalars, base: base)
        guard !scalars.isEmpty else { return ([], baseLevel) }

        // Per scalar: font (by grapheme, the base character decides), script, attachment.
        var fontOf = [Int](repeating: 0, count: scalars.count)
        var scriptOf = [UInt32](repeating: 0, count: scalars.count)
        var g = map.grapheme(at: range.lowerBound)
        var si = 0
        var prevFont = 0
        while si < scalars.count {
            if g & 4095 == 4095, pastDeadline("choosing fonts") { return ([], baseLevel) }
            let gEnd = min(map.graphemeStarts[g + 1], range.upperBound)
            let baseScalar = scalars[si]
            var f = -1
            let isCommon = HarfBuzzFont.script(of: baseScalar) == HarfBuzzFont.scriptCommon
            if isCommon, style.fonts[prevFont].glyph(for: baseScalar) != nil { f = prevFont }
            if f < 0 { f = style.fonts.firstIndex { $0.glyph(for: baseScalar) != nil } ?? 0 }
            prevFont = f
            while si < scalars.count && map.scalarUTF16[firstScalar + si] < gEnd {
                fontOf[si] = f
                scriptOf[si] = HarfBuzzFont.script(of: scalars[si])
                si += 1
            }
            g += 1
        }
        // Common/inherited scripts take the script of the run they are in (previous, else next).
        var last: UInt32 = 0
        for i in scriptOf.indices {
            if scriptOf[i] == HarfBuzzFont.scriptCommon || scriptOf[i] == HarfBuzzFont.scriptInherited
                || scriptOf[i] == HarfBuzzFont.scriptUnknown {
                scriptOf[i] = last
            } else { last = scriptOf[i] }
        }
        var next: UInt32 = 0
        for i in scriptOf.indices.reversed() { if scriptOf[i] == 0 { scriptOf[i] = next } else { next = scriptOf[i] } }

        // Items: maximal runs with the same font, level and script; each attachment alone.
        var clusters: [Cluster] = []
        var itemStart = 0
        func isAttachment(_ s: Int) -> Bool { attachmentAt[map.scalarUTF16[firstScalar + s]] != nil }
        while itemStart < scalars.count {
            let o = map.scalarUTF16[firstScalar + itemStart]
            if pastDeadline("shaping the text at UTF-16 offset \(o)") { return ([], baseLevel) }
            if let ai = attachmentAt[o] {
                let a = attachments[ai]
                clusters.append(Cluster(range: o..<(o + 1), glyphs: [], font: -1, attachment: ai, level: levels[itemStart],
                                        advance: a.width, isSpace: false, breakAfter: false, isNewline: false))
                itemStart += 1
                continue
            }
            var e = itemStart + 1
            while e < scalars.count && fontOf[e] == fontOf[itemStart] && levels[e] == levels[itemStart]
                    && scriptOf[e] == scriptOf[itemStart] && !isAttachment(e) { e += 1 }
            let r = o..<map.scalarUTF16[firstScalar + e]
            clusters.append(contentsOf: shapeItem(r, font: fontOf[itemStart], level: levels[itemStart], script: scriptOf[itemStart]))
            itemStart = e
        }
        // Break opportunities after clusters.
        for ci in clusters.indices {
            if ci & 4095 == 4095, pastDeadline("finding line breaks (cluster \(ci) of \(clusters.count))") { return ([], baseLevel) }
            let r = clusters[ci].range
            let lastScalar = map.scalars[map.scalarIndex(at: r.upperBound - 1)]
            let isSpace = (clusters[ci].attachment < 0) && (r.lowerBound..<r.upperBound).allSatisfy {
                let s = map.scalars[map.scalarIndex(at: $0)]
                return s == " " || s == "\t" || s == "\u{3000}"
            }
            clusters[ci].isSpace = isSpace && !r.isEmpty
            var br = isSpace || lastScalar == "-" || lastScalar == "\u{2010}" || lastScalar == "\u{2013}"
            if ci + 1 < clusters.count {
                let nextScalar = map.scalars[map.scalarIndex(at: clusters[ci + 1].range.lowerBound)]
                if Self.isIdeographic(lastScalar) || Self.isIdeographic(nextScalar) {
                    if !Self.isClosingPunctuation(nextScalar) { br = true }
                }
                if clusters[ci].attachment >= 0 || clusters[ci + 1].attachment >= 0 { br = true }
                if clusters[ci + 1].isSpace { br = false }       // break after the spaces, not before
            }
            clusters[ci].breakAfter = br
        }
        return (clusters, baseLevel)
    }

    /// Longest run of one grapheme HarfBuzz shapes in one piece, UTF-16 units. HarfBuzz positions each
    /// mark by looking back over the marks before it to their base, so a grapheme of n marks costs n²; a
    /// longer grapheme (never in real text: Unicode's stream-safe format allows 30 marks) is shaped in pieces
    /// of this length, whose glyphs go back into the one cluster (the marks of later pieces sit at the pen).
    static let maxShapedGrapheme = 128

    /// Longest piece of text shaped in one HarfBuzz call, UTF-16 units (cut after a space when there is one
    /// in its second half, else between graphemes), so the deadline is checked between pieces of a long
    /// run. The whole text stays HarfBuzz's context, so joining scripts join across the cut.
    static let maxShapedPiece = 4096

    /// Shapes one item into clusters in logical order.
    mutating func shapeItem(_ r: Range<Int>, font: Int, level: UInt8, script: UInt32) -> [Cluster] {
        // Pieces of the item: runs of whole graphemes, and each over-long grapheme cut into pieces (the
        // pieces after its first continue its cluster). One pass over the item's graphemes.
        var pieces: [(range: Range<Int>, continuing: Bool)] = []
        var start = r.lowerBound, o = r.lowerBound
        var afterSpace = -1                               // the end of the last space in the current piece
        var g = map.grapheme(at: r.lowerBound)
        while o < r.upperBound {
            if o - start >= Self.maxShapedPiece {
                let cut = afterSpace > start + Self.maxShapedPiece / 2 ? afterSpace : o
                pieces.append((start..<cut, false))
                start = cut
            }
            let gEnd = min(map.graphemeStarts[g + 1], r.upperBound)
            if gEnd - o == 1 && map.utf16[o] == 0x20 { afterSpace = gEnd }
            if gEnd - o > Self.maxShapedGrapheme {
                if start < o { pieces.append((start..<o, false)) }
                var p = o
                while p < gEnd {
                    var q = min(gEnd, p + Self.maxShapedGrapheme)
                    if q < gEnd && UTF16.isTrailSurrogate(map.utf16[q]) { q += 1 }    // never split a pair
                    pieces.append((p..<q, p > o))
                    p = q
                }
                start = gEnd
            }
            o = gEnd
            g += 1
        }
        if start < r.upperBound { pieces.append((start..<r.upperBound, false)) }

        var out: [Cluster] = []
        let rtl = level & 1 == 1
        // The glyphs of an over-long grapheme's pieces after the first, in logical order, joined into the
        // grapheme's cluster once it ends (in visual order: reversed pieces for right to left).
        var continued: [[HarfBuzzFont.Glyph]] = []
        func join() {
            guard !continued.isEmpty, var last = out.popLast() else { return }
            var all = rtl ? [] : last.glyphs
            all.reserveCapacity(last.glyphs.count + continued.reduce(0) { $0 + $1.count })
            for g in rtl ? continued.reversed() : continued { all.append(contentsOf: g) }
            if rtl { all.append(contentsOf: last.glyphs) }
            last.glyphs = all
            out.append(last)
            continued.removeAll()
        }
        for (n, piece) in pieces.enumerated() {
            if n > 0, pastDeadline("shaping the text at UTF-16 offset \(piece.range.lowerBound)") { join(); return out }
            let clusters = shapePiece(piece.range, font: font, level: level, script: script)
            guard piece.continuing, !out.isEmpty else { join(); out += clusters; continue }
            for c in clusters {
                continued.append(c.glyphs)
                out[out.count - 1].advance += c.advance
                let r = out[out.count - 1].range
                out[out.count - 1].range = r.lowerBound..<max(r.upperBound, c.range.upperBound)
            }
        }
        join()
        return out
    }

    /// Shapes a run of text (in one HarfBuzz call) into clusters in logical order.
    func shapePiece(_ r: Range<Int>, font: Int, level: UInt8, script: UInt32) -> [Cluster] {
        let rtl = level & 1 == 1
        let shaped = shapingText.withUnsafeBufferPointer { shape($0, font: font, range: r, rtl: rtl, script: script) }
        // Group by cluster value; HarfBuzz gives visual order (RTL: descending clusters).
        var groups: [(Int, [HarfBuzzFont.Glyph])] = []
        for g in shaped {
            if let l = groups.last, l.0 == g.cluster { groups[groups.count - 1].1.append(g) } else { groups.append((g.cluster, [g])) }
        }
        if rtl { groups.reverse() }                       // logical order
        var out: [Cluster] = []
        for (gi, grp) in groups.enumerated() {
            let start = grp.0
            let end = gi + 1 < groups.count ? groups[gi + 1].0 : r.upperBound
            let adv = grp.1.reduce(0) { $0 + $1.xAdvance } * k[font]
            out.append(Cluster(range: start..<max(end, start + 1), glyphs: grp.1, font: font, attachment: -1,
                               level: level, advance: adv, isSpace: false, breakAfter: false, isNewline: false))
        }
        return out
    }

    func shapeEllipsis() -> (glyphs: [HarfBuzzFont.Glyph], font: Int, width: Double)? {
        let e: [UInt16] = [0x2026]
        guard let f = style.fonts.firstIndex(where: { $0.glyph(for: "\u{2026}") != nil }) else { return nil }
        let gl = e.withUnsafeBufferPointer { shape($0, font: f, range: 0..<1, rtl: false, script: 0) }
        return (gl, f, gl.reduce(0) { $0 + $1.xAdvance } * k[f])
    }

    /// HarfBuzz's glyphs for `text[range]` in font `font`, each non-zero advance grown by the font's synthetic
    /// bold (as `FT_GlyphSlot_Embolden` grows the advance it reports).
    func shape(_ text: UnsafeBufferPointer<UInt16>, font: Int, range: Range<Int>, rtl: Bool, script: UInt32) -> [HarfBuzzFont.Glyph] {
        var glyphs = hb[font].shape(text, range: range, rtl: rtl, script: script)
        if grow[font] != 0 {
            for i in glyphs.indices where glyphs[i].xAdvance != 0 { glyphs[i].xAdvance += grow[font] }
        }
        return glyphs
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

    // MARK: Lines

    /// Greedy line breaking over logical clusters.
    mutating func breakLines(_ cs: [Cluster]) -> [[Cluster]] {
        guard let width = paragraph.width else { return cs.isEmpty ? [] : [cs] }
        var lines: [[Cluster]] = []
        var start = 0
        while start < cs.count {
            var w = 0.0
            var lastBreak = -1                 // index of the cluster after which we may break
            var i = start
            var end = cs.count
            while i < cs.count {
                if i & 4095 == 4095, pastDeadline("breaking lines at cluster \(i) of \(cs.count)") { return lines }
                let c = cs[i]
                if !c.isSpace && w + c.advance > width && i > start {
                    // Overflow: break at the last opportunity, else between graphemes (clusters).
                    end = lastBreak >= start ? lastBreak + 1 : i
                    break
                }
                w += c.advance
                if c.breakAfter { lastBreak = i }
                i += 1
            }
            // Trailing spaces stay on the line (they hang).
            while end < cs.count && cs[end].isSpace { end += 1 }
            lines.append(Array(cs[start..<end]))
            start = end
        }
        return lines
    }

    /// Positions one line's clusters; returns the top of the next line.
    mutating func placeLine(_ lc: [Cluster], index li: Int, top: Double, base: UInt8,
                            ellipsis: (glyphs: [HarfBuzzFont.Glyph], font: Int, width: Double)?) -> Double {
        // Metrics: the first font of the chain sets every line's ascent, descent and gap (predictable line
        // pitch whatever fallback fonts a line uses); a taller attachment makes its line taller.
        var ascent = Double(style.fonts[0].ascender) * k[0]
        var descent = -Double(style.fonts[0].descender) * k[0]
        for c in lc where c.attachment >= 0 {
            ascent = max(ascent, attachments[c.attachment].ascent)
            descent = max(descent, attachments[c.attachment].descent)
        }
        let gap = max(0, Double(style.fonts[0].lineGap) * k[0])
        let baseline = top + ascent

        // Rule L1: trailing whitespace takes the paragraph level; then L2 on cluster levels.
        var levels = lc.map(\.level)
        var t = levels.count
        while t > 0 && (lc[t - 1].isSpace || lc[t - 1].isNewline) { levels[t - 1] = base; t -= 1 }
        var items = lc
        var itemLevels = levels
        if let e = ellipsis {
            let start = truncated?.lowerBound ?? map.length
            items.append(Cluster(range: start..<max(start, map.length), glyphs: e.glyphs, font: e.font, attachment: -1,
                                 level: base, advance: e.width, isSpace: false, breakAfter: false, isNewline: false))
            itemLevels.append(base)
        }
        let order = Bidi.visualOrder(itemLevels)

        // Width without hanging trailing spaces, for alignment.
        var contentWidth = 0.0
        for (n, c) in items.enumerated() where n < t || !(c.isSpace || c.isNewline) { contentWidth += c.advance }
        var x = paragraph.origin.x
        // In a right-to-left paragraph the hanging trailing spaces sit at the visual left: start that much
        // further left so the content, not the spaces, is what gets aligned.
        if base & 1 == 1 {
            var hang = 0.0
            for n in t..<lc.count { hang += lc[n].advance }
            x -= hang
        }
        if let w = paragraph.width {
            switch paragraph.alignment {
            case .left: break
            case .center: x += (w - contentWidth) / 2
            case .right: x += w - contentWidth
            }
        }
        var contentMinX = Double.infinity, contentMaxX = -Double.infinity
        for (step, n) in order.enumerated() {
            if step & 4095 == 4095, pastDeadline("placing line \(li) (cluster \(step) of \(order.count))") { break }
            let c = items[n]
            let isEllipsis = ellipsis != nil && n == items.count - 1
            if c.attachment >= 0 {
                let a = attachments[c.attachment]
                placedAttachments.append(TextLayout.PlacedAttachment(
                    attachment: a, box: Rect(minX: x, minY: baseline - a.ascent, maxX: x + a.width, maxY: baseline + a.descent), line: li))
            }
            if !(c.isSpace || c.isNewline) || n < t {
                contentMinX = min(contentMinX, x); contentMaxX = max(contentMaxX, x + c.advance)
            }
            if c.font >= 0 {
                let kk = k[c.font]
                let rtl = c.level & 1 == 1
                for g in c.glyphs {
                    glyphs.append(TextLayout.Glyph(
                        font: c.font, id: g.id, x: x + g.xOffset * kk, y: baseline - g.yOffset * kk, size: style.size,
                        utf16: c.range, advance: g.xAdvance * kk, line: li, isRightToLeft: rtl, isEllipsis: isEllipsis))
                    // Ligature carets for glyphs covering several graphemes.
                    if c.glyphs.count == 1, map.graphemeRange(covering: c.range) != c.range || spansGraphemes(c.range) {
                        let cs = hb[c.font].ligatureCarets(g.id, rtl: rtl)
                        if !cs.isEmpty, g.xAdvance > 0 { carets[glyphs.count - 1] = cs.map { $0 / g.xAdvance }.sorted() }
                    }
                    x += g.xAdvance * kk
                }
            } else {
                x += c.advance
            }
        }
        let lineRange = (lc.first?.range.lowerBound ?? map.length)..<(lc.last?.range.upperBound ?? map.length)
        let box = Rect(minX: paragraph.origin.x, minY: top,
                       maxX: max(paragraph.origin.x + (paragraph.width ?? 0), x), maxY: baseline + descent + gap)
        let content = contentMinX <= contentMaxX
            ? Rect(minX: contentMinX, minY: top, maxX: contentMaxX, maxY: baseline + descent)
            : Rect(minX: x, minY: top, maxX: x, maxY: baseline + descent)
        lines.append(TextLayout.Line(box: box, baseline: baseline, utf16: lineRange, contentBox: content))
        return box.maxY
    }

    func spansGraphemes(_ r: Range<Int>) -> Bool {
        map.grapheme(at: r.lowerBound) != map.grapheme(at: max(r.lowerBound, r.upperBound - 1))
    }
}
