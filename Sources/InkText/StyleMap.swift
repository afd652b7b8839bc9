import InkFreeType

/// The paragraph's style with the runs applied: the text cut into spans of UTF-16 offsets, each with its
/// resolved style (for every attribute, the last run setting it over the span, else the paragraph's).
///
/// Built in O((R + S) log S) for R runs over S spans, whatever the text's length: per attribute the runs
/// paint the spans from the last one back, skipping spans already painted (a "next unpainted" forest).
struct StyleMap {
    /// Every attribute of a character, resolved.
    struct Resolved: Hashable {
        /// Indexes into `TextStyle.fonts`, in fallback order (non-empty).
        var chain: [Int]
        /// px per em.
        var size: Double
        /// Overrides every font's glyph style; nil: `TextStyle.glyphStyles`.
        var glyphStyle: GlyphStyle?
        var underline: TextRun.Underline = .none
        var strikethrough = false
        var overline = false
        /// Layout px, positive up.
        var baselineShift = 0.0
        /// Layout px after each grapheme.
        var letterSpacing = 0.0

        var hasDecoration: Bool { underline != .none || strikethrough || overline }
    }

    /// Distinct resolved styles; style 0 is the paragraph's own when there are no runs.
    private(set) var styles: [Resolved]
    /// Span starts (UTF-16 offsets, ascending, the first 0) and each span's index into `styles`.
    private var starts: [Int]
    private var ids: [Int32]
    /// For a style whose glyph style comes from a run: that run's index (for error messages).
    private(set) var glyphStyleRun: [Int: Int] = [:]

    /// The styles of `length` UTF-16 units under `runs`, over the paragraph style `base`.
    ///
    /// - Throws: `.invalidRun` for a run out of range or empty, an unknown or empty font chain, a size,
    ///   shift or spacing out of range.
    init(runs: [TextRun], base: TextStyle, length: Int) throws(TextError) {
        var steps = 0
        try self.init(runs: runs, base: base, length: length, steps: &steps)
    }

    /// The same, adding the runs, spans painted, links followed and spans resolved to `steps` (the work, which
    /// the package's tests count).
    init(runs: [TextRun], base: TextStyle, length: Int, steps: inout Int) throws(TextError) {
        let root = Resolved(chain: Array(base.fonts.indices), size: base.size, glyphStyle: nil)
        guard !runs.isEmpty else {
            styles = [root]; starts = [0]; ids = [0]
            return
        }
        for (i, r) in runs.enumerated() { try Self.validate(r, index: i, fontCount: base.fonts.count, length: length) }
        var cuts = Set<Int>([0, length])
        for r in runs { cuts.insert(r.range.lowerBound); cuts.insert(r.range.upperBound) }
        let bounds = cuts.sorted()                               // span s = bounds[s] ..< bounds[s + 1]
        let spanCount = max(1, bounds.count - 1)
        func spans(of r: TextRun) -> Range<Int> {
            Self.index(of: r.range.lowerBound, in: bounds)..<Self.index(of: r.range.upperBound, in: bounds)
        }
        let owners = (0..<8).map { attribute in
            Self.paint(runs, spanCount: spanCount, spans: spans, steps: &steps) { Self.sets($0, attribute) }
        }
        var table: [Resolved: Int] = [:]
        var styles: [Resolved] = [], starts: [Int] = [], ids: [Int32] = [], glyphStyleRun: [Int: Int] = [:]
        for s in 0..<spanCount {
            steps += 1
            var v = root
            func run(_ a: Int) -> TextRun? { owners[a][s] >= 0 ? runs[Int(owners[a][s])] : nil }
            if let r = run(0) { v.chain = r.fonts! }
            if let r = run(1) { v.size = r.size! }
            if let r = run(2) { v.glyphStyle = r.glyphStyle }
            if let r = run(3) { v.underline = r.underline! }
            if let r = run(4) { v.strikethrough = r.strikethrough! }
            if let r = run(5) { v.overline = r.overline! }
            if let r = run(6) { v.baselineShift = r.baselineShift! }
            if let r = run(7) { v.letterSpacing = r.letterSpacing! }
            let id: Int
            if let known = table[v] { id = known } else {
                id = styles.count; table[v] = id; styles.append(v)
                if owners[2][s] >= 0 { glyphStyleRun[id] = Int(owners[2][s]) }
            }
            if ids.last.map({ Int($0) != id }) ?? true { starts.append(bounds[s]); ids.append(Int32(id)) }
        }
        self.styles = styles; self.starts = starts; self.ids = ids; self.glyphStyleRun = glyphStyleRun
    }

    /// The index into `styles` of the character at UTF-16 offset `o` (offsets past the end: the last one's).
    func style(at o: Int) -> Int {
        var lo = 0, hi = starts.count                      // starts[lo] <= o < starts[hi]
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if starts[mid] <= o { lo = mid } else { hi = mid }
        }
        return Int(ids[lo])
    }

    /// The resolved style of the character at `o`.
    subscript(at o: Int) -> Resolved { styles[style(at: o)] }

    // MARK: Building

    /// Most fonts in one run's chain.
    static let maxChain = 4096

    static func validate(_ r: TextRun, index i: Int, fontCount: Int, length: Int) throws(TextError) {
        guard r.range.lowerBound >= 0, r.range.upperBound <= length, !r.range.isEmpty else {
            throw .invalidRun(index: i, reason: "range \(r.range.lowerBound)..<\(r.range.upperBound) is empty or outside the text "
                              + "(UTF-16 length \(length))")
        }
        if let f = r.fonts {
            guard !f.isEmpty, f.count <= maxChain else {
                throw .invalidRun(index: i, reason: "fonts must list 1 to \(maxChain) font indexes (got \(f.count))")
            }
            if let bad = f.first(where: { $0 < 0 || $0 >= fontCount }) {
                throw .invalidRun(index: i, reason: "font \(bad) is not one of the \(fontCount) fonts")
            }
        }
        if let s = r.size, !(s.isFinite && s > 0 && s <= 1e6) {
            throw .invalidRun(index: i, reason: "size must be finite, > 0 and at most 1e6 (got \(s))")
        }
        for (name, v) in [("baselineShift", r.baselineShift), ("letterSpacing", r.letterSpacing)] {
            if let v, !(v.isFinite && abs(v) <= 1e6) {
                throw .invalidRun(index: i, reason: "\(name) must be finite and at most 1e6 in magnitude (got \(v))")
            }
        }
    }

    /// Whether run `r` sets attribute `a` (0 fonts, 1 size, 2 glyph style, 3 underline, 4 strikethrough,
    /// 5 overline, 6 baseline shift, 7 letter spacing).
    static func sets(_ r: TextRun, _ a: Int) -> Bool {
        switch a {
        case 0: return r.fonts != nil
        case 1: return r.size != nil
        case 2: return r.glyphStyle != nil
        case 3: return r.underline != nil
        case 4: return r.strikethrough != nil
        case 5: return r.overline != nil
        case 6: return r.baselineShift != nil
        default: return r.letterSpacing != nil
        }
    }

    /// For each span, the last run that sets the attribute and covers it (-1: none). Runs paint from the
    /// last back; `next[s]` leads past painted spans (path-halving), so each span is painted once.
    static func paint(_ runs: [TextRun], spanCount: Int, spans: (TextRun) -> Range<Int>, steps: inout Int,
                      sets: (TextRun) -> Bool) -> [Int32] {
        var owner = [Int32](repeating: -1, count: spanCount)
        var next = Array(0...spanCount)                        // next[s]: the first unpainted span ≥ s
        var links = 0
        func find(_ s: Int) -> Int {
            var s = s
            while next[s] != s { next[s] = next[next[s]]; s = next[s]; links += 1 }
            return s
        }
        defer { steps += links }
        for ri in runs.indices.reversed() where sets(runs[ri]) {
            steps += 1
            let r = spans(runs[ri])
            var s = find(r.lowerBound)
            while s < r.upperBound {
                steps += 1
                owner[s] = Int32(ri)
                next[s] = s + 1
                s = find(s + 1)
            }
        }
        return owner
    }

    /// The index of `o` in the sorted `bounds` (it is there).
    static func index(of o: Int, in bounds: [Int]) -> Int {
        var lo = 0, hi = bounds.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if bounds[mid] < o { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
