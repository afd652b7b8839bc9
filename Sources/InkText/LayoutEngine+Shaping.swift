import InkGeometry
import InkFreeType

extension LayoutEngine {
    /// Itemizes and shapes one paragraph; returns its clusters in logical order and its base level.
    mutating func shapeParagraph(_ range: Range<Int>) -> ([Cluster], UInt8) {
        let firstScalar = map.scalarIndex(at: range.lowerBound)
        let endScalar = map.scalarIndex(at: range.upperBound)
        let scalars = Array(map.scalars[firstScalar..<endScalar])
        let base: Bidi.Base = paragraph.direction == .auto ? .auto
            : (paragraph.direction == .rightToLeft ? .rightToLeft : .leftToRight)
        let (levels, baseLevel) = Bidi.levels(scalars, base: base)
        guard !scalars.isEmpty else { return ([], baseLevel) }
        guard let (fontOf, styleOf) = chooseFonts(range, scalars: scalars, firstScalar: firstScalar) else { return ([], baseLevel) }
        let scriptOf = scripts(scalars)
        guard var clusters = shapeItems(scalars, firstScalar: firstScalar, levels: levels, fontOf: fontOf, styleOf: styleOf,
                                        scriptOf: scriptOf) else { return ([], baseLevel) }
        applyStyles(&clusters)
        guard markBreaks(&clusters) else { return ([], baseLevel) }
        return (clusters, baseLevel)
    }

    /// Per scalar: its script; common/inherited scripts take the script of the run they are in (previous,
    /// else next).
    func scripts(_ scalars: [Unicode.Scalar]) -> [UInt32] {
        var scriptOf = scalars.map(HarfBuzzFont.script)
        var last: UInt32 = 0
        for i in scriptOf.indices {
            if scriptOf[i] == HarfBuzzFont.scriptCommon || scriptOf[i] == HarfBuzzFont.scriptInherited
                || scriptOf[i] == HarfBuzzFont.scriptUnknown {
                scriptOf[i] = last
            } else { last = scriptOf[i] }
        }
        var next: UInt32 = 0
        for i in scriptOf.indices.reversed() { if scriptOf[i] == 0 { scriptOf[i] = next } else { next = scriptOf[i] } }
        return scriptOf
    }

    /// How scalar `s` (of a paragraph whose first scalar is `firstScalar`) is shaped.
    func shapeKey(_ s: Int, fontOf: [Int], styleOf: [Int]) -> ShapeKey {
        let r = styles.styles[styleOf[s]]
        return ShapeKey(font: fontOf[s], size: r.size, glyphStyle: glyphStyle(r, font: fontOf[s]))
    }

    /// Items — maximal runs with the same font, level, script, size and glyph style; each attachment alone
    /// — shaped into clusters in logical order; nil when the deadline passed.
    mutating func shapeItems(_ scalars: [Unicode.Scalar], firstScalar: Int, levels: [UInt8], fontOf: [Int], styleOf: [Int],
                             scriptOf: [UInt32]) -> [Cluster]? {
        var clusters: [Cluster] = []
        var itemStart = 0
        func isAttachment(_ s: Int) -> Bool { attachmentAt[map.scalarUTF16[firstScalar + s]] != nil }
        while itemStart < scalars.count {
            let o = map.scalarUTF16[firstScalar + itemStart]
            if pastDeadline("shaping the text at UTF-16 offset \(o)") { return nil }
            if let ai = attachmentAt[o] {
                let a = attachments[ai]
                clusters.append(Cluster(range: o..<(o + 1), glyphs: [], font: -1, attachment: ai, level: levels[itemStart],
                                        advance: a.width, isSpace: false, breakAfter: false, isNewline: false))
                itemStart += 1
                continue
            }
            let key = shapeKey(itemStart, fontOf: fontOf, styleOf: styleOf)
            var e = itemStart + 1
            while e < scalars.count && fontOf[e] == fontOf[itemStart] && levels[e] == levels[itemStart]
                    && scriptOf[e] == scriptOf[itemStart] && !isAttachment(e)
                    && (styleOf[e] == styleOf[itemStart] || shapeKey(e, fontOf: fontOf, styleOf: styleOf) == key) { e += 1 }
            let r = o..<map.scalarUTF16[firstScalar + e]
            clusters.append(contentsOf: shapeItem(r, key: key, level: levels[itemStart], script: scriptOf[itemStart]))
            itemStart = e
        }
        return clusters
    }

    /// Each cluster's resolved style (its first character's), and its letter spacing added to its advance.
    func applyStyles(_ clusters: inout [Cluster]) {
        for ci in clusters.indices {
            let s = styles.style(at: clusters[ci].range.lowerBound)
            clusters[ci].style = s
            let spacing = styles.styles[s].letterSpacing
            if spacing != 0 {
                clusters[ci].spacing = spacing * Double(graphemeCount(clusters[ci].range))
                clusters[ci].advance += clusters[ci].spacing
            }
        }
    }

    /// Break opportunities after clusters; false when the deadline passed. Two passes: which clusters are
    /// whitespace (space, tab, U+3000), then the breaks, which read the next cluster's whitespace (a run of
    /// spaces is one opportunity, after its last space: never before a space).
    mutating func markBreaks(_ clusters: inout [Cluster]) -> Bool {
        for ci in clusters.indices {
            if ci & 4095 == 4095, pastDeadline("finding line breaks (cluster \(ci) of \(clusters.count))") { return false }
            let r = clusters[ci].range
            clusters[ci].isSpace = clusters[ci].attachment < 0 && !r.isEmpty && (r.lowerBound..<r.upperBound).allSatisfy {
                let s = map.scalars[map.scalarIndex(at: $0)]
                return s == " " || s == "\t" || s == "\u{3000}"
            }
        }
        for ci in clusters.indices {
            if ci & 4095 == 4095, pastDeadline("finding line breaks (cluster \(ci) of \(clusters.count))") { return false }
            let r = clusters[ci].range
            let lastScalar = map.scalars[map.scalarIndex(at: r.upperBound - 1)]
            var br = clusters[ci].isSpace || lastScalar == "-" || lastScalar == "\u{2010}" || lastScalar == "\u{2013}"
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
        return true
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

    /// Pieces of an item: runs of whole graphemes, and each over-long grapheme cut into pieces (the pieces
    /// after its first continue its cluster). One pass over the item's graphemes.
    func pieces(of r: Range<Int>) -> [(range: Range<Int>, continuing: Bool)] {
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
        return pieces
    }

    /// Shapes one item into clusters in logical order.
    mutating func shapeItem(_ r: Range<Int>, key: ShapeKey, level: UInt8, script: UInt32) -> [Cluster] {
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
        for (n, piece) in pieces(of: r).enumerated() {
            if n > 0, pastDeadline("shaping the text at UTF-16 offset \(piece.range.lowerBound)") { join(); return out }
            let clusters = shapePiece(piece.range, key: key, level: level, script: script)
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
    mutating func shapePiece(_ r: Range<Int>, key: ShapeKey, level: UInt8, script: UInt32) -> [Cluster] {
        let rtl = level & 1 == 1
        let grow = advanceGrowth(key)
        let shaped = shapingText.withUnsafeBufferPointer { shape($0, font: key.font, grow: grow, range: r, rtl: rtl, script: script) }
        // Group by cluster value; HarfBuzz gives visual order (RTL: descending clusters).
        var groups: [(Int, [HarfBuzzFont.Glyph])] = []
        for g in shaped {
            if let l = groups.last, l.0 == g.cluster { groups[groups.count - 1].1.append(g) } else { groups.append((g.cluster, [g])) }
        }
        if rtl { groups.reverse() }                       // logical order
        let k = scale(key.font, key.size)
        var out: [Cluster] = []
        for (gi, grp) in groups.enumerated() {
            let start = grp.0
            let end = gi + 1 < groups.count ? groups[gi + 1].0 : r.upperBound
            let adv = grp.1.reduce(0) { $0 + $1.xAdvance } * k
            out.append(Cluster(range: start..<max(end, start + 1), glyphs: grp.1, font: key.font, attachment: -1,
                               level: level, advance: adv, isSpace: false, breakAfter: false, isNewline: false))
        }
        return out
    }

    /// Font units each non-zero advance of `key` grows by (as `FT_GlyphSlot_Embolden` grows the advance it
    /// reports), remembered per key.
    mutating func advanceGrowth(_ key: ShapeKey) -> Double {
        if let g = growth[key] { return g }
        let g = key.glyphStyle.advanceGrowth(font: style.fonts[key.font], size: key.size) / scale(key.font, key.size)
        growth[key] = g
        return g
    }

    /// The "…" that ends a truncated line, in the style of the character at `offset`: the first font of its
    /// chain that has U+2026, at its size and glyph style.
    mutating func shapeEllipsis(styleAt offset: Int, level: UInt8) -> Cluster? {
        let s = styles.style(at: offset)
        let r = styles.styles[s]
        guard let f = r.chain.first(where: { style.fonts[$0].glyph(for: "\u{2026}") != nil }) else { return nil }
        let key = ShapeKey(font: f, size: r.size, glyphStyle: glyphStyle(r, font: f))
        let grow = advanceGrowth(key)
        let e: [UInt16] = [0x2026]
        let gl = e.withUnsafeBufferPointer { shape($0, font: f, grow: grow, range: 0..<1, rtl: false, script: 0) }
        let start = truncated?.lowerBound ?? map.length
        var c = Cluster(range: start..<max(start, map.length), glyphs: gl, font: f, attachment: -1, level: level,
                        advance: gl.reduce(0) { $0 + $1.xAdvance } * scale(f, r.size), isSpace: false, breakAfter: false,
                        isNewline: false)
        c.style = s
        c.isEllipsis = true
        return c
    }

    /// HarfBuzz's glyphs for `text[range]` in font `font`, each non-zero advance grown by `grow` font units
    /// (synthetic bold).
    func shape(_ text: UnsafeBufferPointer<UInt16>, font: Int, grow: Double, range: Range<Int>, rtl: Bool,
               script: UInt32) -> [HarfBuzzFont.Glyph] {
        var glyphs = hb[font].shape(text, range: range, rtl: rtl, script: script)
        if grow != 0 {
            for i in glyphs.indices where glyphs[i].xAdvance != 0 { glyphs[i].xAdvance += grow }
        }
        return glyphs
    }
}
