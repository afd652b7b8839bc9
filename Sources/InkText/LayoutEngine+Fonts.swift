import InkFreeType

extension LayoutEngine {
    /// Per scalar of a paragraph: the font that draws it (by grapheme: the base character and its chain
    /// decide) and its resolved style; nil when the deadline passed.
    mutating func chooseFonts(_ range: Range<Int>, scalars: [Unicode.Scalar], firstScalar: Int) -> ([Int], [Int])? {
        var fontOf = [Int](repeating: 0, count: scalars.count)
        var styleOf = [Int](repeating: 0, count: scalars.count)
        var g = map.grapheme(at: range.lowerBound)
        var si = 0
        var prevFont = -1
        while si < scalars.count {
            if g & 4095 == 4095, pastDeadline("choosing fonts") { return nil }
            let gEnd = min(map.graphemeStarts[g + 1], range.upperBound)
            var end = si
            while end < scalars.count && map.scalarUTF16[firstScalar + end] < gEnd { end += 1 }
            let s = styles.style(at: map.scalarUTF16[firstScalar + si])
            let f = font(for: scalars[si..<max(end, si + 1)], chain: styles.styles[s].chain, previous: prevFont,
                         colors: chainHasColor[s])
            prevFont = f
            for k in si..<max(end, si + 1) where k < scalars.count {
                fontOf[k] = f
                styleOf[k] = styles.style(at: map.scalarUTF16[firstScalar + k])
            }
            si = max(end, si + 1)
            g += 1
        }
        return (fontOf, styleOf)
    }

    /// The font of `chain` that draws the grapheme `grapheme` (its scalars), by its base character:
    /// - emoji presentation (`Emoji_Presentation=Yes`, or a VS16 in the grapheme, without a VS15): the
    ///   first color font of the chain that has the character (`colors`: whether the chain has one);
    /// - text presentation (a VS15): the first font without color glyphs that has it;
    /// - a character of the Common script stays in the previous grapheme's font when that font (of this
    ///   chain) has it;
    /// - else the first font that has it; the chain's first font when none has it.
    func font(for grapheme: ArraySlice<Unicode.Scalar>, chain: [Int], previous: Int, colors: Bool) -> Int {
        let base = grapheme.first!
        let fonts = style.fonts
        // Presentation matters only with a color font in the chain (Emoji_Presentation starts at U+231A).
        if colors && (base.value >= 0x231A || grapheme.count > 1) {
            let vs16 = grapheme.contains("\u{FE0F}"), vs15 = grapheme.contains("\u{FE0E}")
            if !vs15 && (vs16 || base.properties.isEmojiPresentation),
               let f = chain.first(where: { isColorFont[$0] && fonts[$0].glyph(for: base) != nil }) {
                return f
            }
            if vs15, let f = chain.first(where: { !isColorFont[$0] && fonts[$0].glyph(for: base) != nil }) { return f }
        }
        if previous >= 0, HarfBuzzFont.script(of: base) == HarfBuzzFont.scriptCommon, chain.contains(previous),
           fonts[previous].glyph(for: base) != nil {
            return previous
        }
        return chain.first { fonts[$0].glyph(for: base) != nil } ?? chain[0]
    }
}
