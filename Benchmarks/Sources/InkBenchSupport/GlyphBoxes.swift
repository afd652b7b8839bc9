import InkGeometry

/// Baseline 2: box-based hit-testing with per-character frames, as a CoreText/TextKit text view does it
/// (`CTLineGetStringIndexForPosition`, `boundingRectForGlyphRange`): each glyph owns the box
/// `[x, x + advance] × [baseline − ascent, baseline + descent]` in layout space, spaces included.
///
/// A query maps the point to layout space (inverse of the view transform), finds the line directly (lines of
/// one height: `(y − top) / lineHeight`; otherwise by binary search over line tops) and the glyph by binary
/// search over glyph origins in that line: O(log glyphs per line), no allocation.
public final class GlyphBoxes: @unchecked Sendable {
    struct Line { var top: Double; var bottom: Double; var first: Int; var end: Int }
    let lines: [Line]
    let xs: UnsafeMutableBufferPointer<Double>      // glyph origins (layout px), in glyph order
    let ends: UnsafeMutableBufferPointer<Double>    // origin + advance
    let inverse: AffineTransform
    let isIdentity: Bool
    /// When every line has the same top-to-top distance: the first top and that distance (else 0).
    let firstTop: Double, pitch: Double
    /// Whether glyph k has ink (spaces have none), to count wrong answers both ways.
    public let inked: [Bool]
    public var byteCount: Int { lines.count * MemoryLayout<Line>.stride + xs.count * 16 }

    public init(glyphs: [LaidGlyph], ascent: Double, descent: Double, view: AffineTransform, inked: [Bool]) {
        var lines: [Line] = []
        for (k, g) in glyphs.enumerated() {
            if let last = lines.last, last.top == g.y - ascent {
                lines[lines.count - 1].end = k + 1
            } else {
                lines.append(Line(top: g.y - ascent, bottom: g.y + descent, first: k, end: k + 1))
            }
        }
        self.lines = lines
        var pitch = lines.count >= 2 ? lines[1].top - lines[0].top : 0
        for i in lines.indices.dropFirst() where abs(lines[i].top - lines[0].top - Double(i) * pitch) > 1e-9 * max(1, abs(lines[i].top)) {
            pitch = 0
        }
        self.pitch = pitch
        self.firstTop = lines.first?.top ?? 0
        xs = .allocate(capacity: max(glyphs.count, 1))
        ends = .allocate(capacity: max(glyphs.count, 1))
        for (k, g) in glyphs.enumerated() { xs[k] = g.x; ends[k] = g.x + g.advance }
        inverse = view.inverted() ?? .identity
        isIdentity = view == .identity
        self.inked = inked
    }

    public convenience init(_ w: Workload) {
        self.init(glyphs: w.glyphs, ascent: w.ascent, descent: w.descent, view: w.view,
                  inked: w.shapes.map { $0.edgeCount > 0 })
    }

    deinit { xs.deallocate(); ends.deallocate() }

    /// Index of the glyph whose frame contains `p` (view px), or -1.
    @inline(__always) public func hit(_ p: Point) -> Int {
        let q = isIdentity ? p : p.applying(inverse)
        // Last line whose top ≤ y.
        var lo = 0
        if pitch > 0 {
            let f = (q.y - firstTop) / pitch
            guard f >= 0, f < Double(lines.count) else { return -1 }
            lo = Int(f) + 1
        } else {
            var hi = lines.count
            while lo < hi {
                let mid = (lo + hi) >> 1
                if lines[mid].top <= q.y { lo = mid + 1 } else { hi = mid }
            }
        }
        if lo == 0 { return -1 }
        let line = lines[lo - 1]
        guard q.y < line.bottom else { return -1 }
        // Last glyph of the line whose origin ≤ x.
        var a = line.first, b = line.end
        while a < b {
            let mid = (a + b) >> 1
            if xs[mid] <= q.x { a = mid + 1 } else { b = mid }
        }
        if a == line.first { return -1 }
        return q.x < ends[a - 1] ? a - 1 : -1
    }
}
