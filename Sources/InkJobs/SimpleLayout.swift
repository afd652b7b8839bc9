import InkGeometry
import InkFreeType

/// A minimal one-font line layout for demos and benchmarks (no shaping library): glyphs from the font's
/// character map, advances and `kern`-table kerning, greedy wrapping at spaces, explicit newlines.
/// Real text (HarfBuzz shaping, fallback fonts, bidi) is a later module's job.
public struct SimpleLayout: Sendable {
    public struct Glyph: Sendable, Hashable {
        public var id: UInt32
        /// Origin in layout px (y-down, on the baseline).
        public var x: Double, y: Double
        /// Index of the character (Unicode scalar) in the source text.
        public var cluster: Int
        public var scalar: Unicode.Scalar
    }
    public var glyphs: [Glyph] = []
    /// Box of all line boxes, layout px.
    public var bounds: Rect = .empty
    public var lineCount = 0

    /// Lays out `text` at `size` px per em, lines at most `width` px wide, starting with the top-left of the
    /// first line box at `origin`. Characters the font lacks map to glyph 0 (.notdef), as FreeType does.
    public init(text: String, font: Font, size: Double, width: Double = .infinity,
                origin: Point = .zero, lineHeight: Double? = nil) {
        let k = size / Double(font.unitsPerEm)
        let ascent = Double(font.ascender) * k
        let lh = lineHeight ?? Double(font.height) * k
        let scalars = Array(text.unicodeScalars)
        // Split into words (runs ending after a space) and hard breaks.
        var lines: [[Int]] = [[]]          // scalar indices per line
        var word: [Int] = []
        var lineWidth = 0.0
        func advance(_ i: Int) -> Double {
            let g = font.glyphIndex(for: scalars[i]) ?? 0
            return ((try? font.advance(of: g)) ?? 0) * k
        }
        func widthOf(_ w: [Int]) -> Double { w.reduce(0) { $0 + advance($1) } }
        func flushWord() {
            guard !word.isEmpty else { return }
            // Trailing spaces do not count toward the wrap width.
            var trimmed = word
            while let l = trimmed.last, scalars[l] == " " { trimmed.removeLast() }
            let ww = widthOf(word), tw = widthOf(trimmed)
            if !lines[lines.count - 1].isEmpty && lineWidth + tw > width {
                lines.append([]); lineWidth = 0
            }
            lines[lines.count - 1].append(contentsOf: word)
            lineWidth += ww
            word = []
        }
        for i in scalars.indices {
            if scalars[i] == "\n" { flushWord(); lines.append([]); lineWidth = 0; continue }
            word.append(i)
            if scalars[i] == " " { flushWord() }
        }
        flushWord()
        var y = origin.y + ascent
        for line in lines {
            var x = origin.x
            var prev: UInt32? = nil
            for i in line {
                let g = font.glyphIndex(for: scalars[i]) ?? 0
                if let p = prev { x += font.kerning(p, g) * k }
                glyphs.append(Glyph(id: g, x: x, y: y, cluster: i, scalar: scalars[i]))
                x += ((try? font.advance(of: g)) ?? 0) * k
                prev = g
            }
            bounds = bounds.union(Rect(minX: origin.x, minY: y - ascent, maxX: x, maxY: y - ascent + lh))
            y += lh
            lineCount += 1
        }
    }
}
