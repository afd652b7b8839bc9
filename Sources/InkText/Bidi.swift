import CFriBidi

/// The Unicode Bidirectional Algorithm (UAX #9) through GNU FriBidi: embedding levels per code point and
/// the visual reordering of a line (rule L2).
enum Bidi {
    /// Paragraph direction: from the first strong character (`auto`), or forced.
    enum Base: Sendable { case auto, leftToRight, rightToLeft }

    /// Levels for each scalar of `scalars` and the paragraph's base level (0 = LTR, 1 = RTL).
    /// On failure (allocation) every level is the base level (LTR for `.auto`).
    static func levels(_ scalars: [Unicode.Scalar], base: Base) -> (levels: [UInt8], baseLevel: UInt8) {
        let b: Int32 = base == .auto ? -1 : (base == .rightToLeft ? 1 : 0)
        guard !scalars.isEmpty else { return ([], base == .rightToLeft ? 1 : 0) }
        let cps = scalars.map { $0.value }
        var levels = [UInt8](repeating: 0, count: cps.count)
        let r = cps.withUnsafeBufferPointer { c in
            levels.withUnsafeMutableBufferPointer { l in
                inkhit_bidi_levels(c.baseAddress, Int32(c.count), b, l.baseAddress)
            }
        }
        if r < 0 {
            let lvl: UInt8 = base == .rightToLeft ? 1 : 0
            return ([UInt8](repeating: lvl, count: cps.count), lvl)
        }
        return (levels, UInt8(r))
    }

    /// Visual order of items with the given levels (rule L2): from the highest level down to the lowest odd
    /// level, reverse every maximal run at that level or higher. Returns item indices left to right.
    static func visualOrder(_ levels: [UInt8]) -> [Int] {
        var order = Array(levels.indices)
        guard let maxL = levels.max(), maxL > 0 else { return order }
        let minOdd = levels.filter { $0 & 1 == 1 }.min() ?? (maxL + 1)
        var level = maxL
        while level >= minOdd && level > 0 {
            var i = 0
            while i < order.count {
                if levels[order[i]] >= level {
                    var j = i
                    while j < order.count && levels[order[j]] >= level { j += 1 }
                    order[i..<j].reverse()
                    i = j
                } else { i += 1 }
            }
            level -= 1
        }
        return order
    }
}
