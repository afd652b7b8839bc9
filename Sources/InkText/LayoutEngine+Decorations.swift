import InkGeometry
import InkFreeType

extension LayoutEngine {
    /// What a decoration segment shares: its kind (with the underline's style), the primary font, the size
    /// and the baseline shift. A segment breaks where any of them changes.
    struct DecorationKey: Equatable {
        var kind: TextDecoration.Kind
        var double: Bool
        var font: Int
        var size: Double
        var shift: Double
    }

    /// The decoration key of cluster `c` for `kind`, nil when `c` has no such decoration (attachments,
    /// newlines and the ellipsis have none).
    func decorationKey(_ c: Cluster, _ kind: TextDecoration.Kind) -> DecorationKey? {
        guard c.font >= 0, !c.isEllipsis, !c.isNewline else { return nil }
        let r = resolved(c)
        guard r.hasDecoration else { return nil }
        let on: Bool
        switch kind {
        case .underline: on = r.underline != .none
        case .strikethrough: on = r.strikethrough
        case .overline: on = r.overline
        }
        guard on else { return nil }
        return DecorationKey(kind: kind, double: kind == .underline && r.underline == .double, font: r.chain[0], size: r.size,
                             shift: r.baselineShift)
    }

    /// The decorations of one placed fragment (`steps` in visual order), per kind: maximal runs of
    /// visually adjacent clusters with the same key, trailing spaces left out.
    mutating func decorate(_ lc: [Cluster], _ steps: [Placed], line li: Int, baseline: Double) {
        guard lc.contains(where: { resolved($0).hasDecoration }) else { return }
        for kind in TextDecoration.Kind.allCases {
            var current: (key: DecorationKey, x0: Double, x1: Double, utf16: Range<Int>)? = nil
            func flush() {
                if let s = current, s.x1 > s.x0 { emit(s.key, x0: s.x0, x1: s.x1, utf16: s.utf16, line: li, baseline: baseline) }
                current = nil
            }
            for step in steps {
                let c = lc[step.cluster]
                guard !step.isTrailing, let key = decorationKey(c, kind) else { flush(); continue }
                if let s = current, s.key == key {
                    current = (key, s.x0, step.x1, min(s.utf16.lowerBound, c.range.lowerBound)..<max(s.utf16.upperBound, c.range.upperBound))
                } else {
                    flush()
                    current = (key, step.x0, step.x1, c.range)
                }
            }
            flush()
        }
    }

    /// Adds the strokes of one segment from `x0` to `x1` (layout px) on a line whose baseline is at
    /// `baseline`, from the primary font's tables (`DecorationMetrics`).
    mutating func emit(_ key: DecorationKey, x0: Double, x1: Double, utf16: Range<Int>, line li: Int, baseline: Double) {
        let m = metrics(font: key.font)
        let s = key.size / upem[key.font]
        let y = baseline - key.shift
        func add(_ top: Double, _ height: Double) {
            decorations.append(TextDecoration(kind: key.kind, rect: Rect(minX: x0, minY: top, maxX: x1, maxY: top + height),
                                              utf16: utf16, line: li))
        }
        switch key.kind {
        case .underline:
            let top = y - Double(m.underlinePosition) * s, h = Double(m.underlineThickness) * s
            add(top, h)
            if key.double { add(top + 2 * h, h) }
        case .strikethrough:
            add(y - Double(m.strikeoutPosition) * s, Double(m.strikeoutSize) * s)
        case .overline:
            let h = Double(m.underlineThickness) * s
            add(y - Double(m.ascender) * s - h, h)
        }
    }

    /// Font `f`'s decoration metrics, read once.
    mutating func metrics(font f: Int) -> DecorationMetrics {
        if let m = decorationMetrics[f] { return m }
        let m = style.fonts[f].decorationMetrics
        decorationMetrics[f] = m
        return m
    }
}
