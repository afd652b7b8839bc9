/// The fonts of the bounded-build hostile rows, built in memory (`TinyFont`, `ColorFont`): small files whose glyphs
/// would take seconds and gigabytes if they were built before being bounded. Each is within every documented
/// limit (glyph counts, paint depth, layer count, transform range, file size); what makes it hostile is the
/// work it asks for.
public enum HostileFonts {
    /// Glyph 1: one contour of `quads` off-curve points (so as many quadratics), zigzagging around a circle of
    /// radius ~10,000 units (upem 1000): ~8 bytes a point in `glyf`.
    public static func manyQuadratics(_ quads: Int = 32_000) -> TinyFont.Glyph {
        var ring: [TinyFont.P] = []
        ring.reserveCapacity(quads)
        for k in 0..<quads {
            let a = Double(k) * 2 * Double.pi / Double(quads)
            let r = k % 2 == 0 ? 10_000.0 : 9_000.0
            ring.append(TinyFont.P(x: Int((r * cosine(a)).rounded()), y: Int((r * sine(a)).rounded()), on: false))
        }
        return .simple([ring])
    }

    /// Glyph 1 is `manyQuadratics`; glyph 2 is a `COLR` v1 glyph: PaintTransform(scale `scale`) of
    /// PaintTransform(scale `scale`) of PaintGlyph 1. At 16 px per em and scale 4096 (the product 2²⁴ is the
    /// largest transform the table may reach), its curves need millions of segments each.
    public static func colrTransformChain(quads: Int = 32_000, scale: Double = 4096) -> [UInt8] {
        let colr = ColorFont.colrV1(base: [(2, 0)], layers: [],
                                    paints: [ColorFont.transform(1, [scale, 0, 0, scale, 0, 0]),
                                             ColorFont.transform(2, [scale, 0, 0, scale, 0, 0]),
                                             ColorFont.paintGlyph(3, glyph: 1), ColorFont.solid])
        return ColorFont.colrFont([.empty, manyQuadratics(quads), .empty], colr: colr)
    }

    /// Glyph 1 is a ring of 48 quadratics (x 100 … 900, y 0 … 800); glyph 2 is a `COLR` v1 glyph of `layers`
    /// layers (PaintColrLayers of up to 255 PaintColrLayers of 255 PaintGlyph 1, each translated), clipped by
    /// the ClipBox `clip` (default 1 × 1 at the origin: every layer lies wholly
    /// outside it). 9,945 = 39 × 255 layers is what the bounded-build rows measure.
    ///
    /// Layer k is translated by (`spread` · (k mod 100), k / 100) units.
    public static func colrClippedLayers(layers: Int = 9945, clip: (Int, Int, Int, Int) = (0, 0, 1, 1), spread: Int = 1) -> [UInt8] {
        let groups = (layers + 254) / 255
        // Paint 0: the root PaintColrLayers of the groups; paints 1…groups: each group's PaintColrLayers;
        // then per layer a PaintTranslate of PaintGlyph, and the solid fill last.
        var paints: [[ColorFont.Part]] = [ColorFont.layers(groups, first: 0)]
        var layerList = Array(1...groups)
        let firstLayerPaint = 1 + groups
        for g in 0..<groups {
            let n = min(255, layers - 255 * g)
            paints.append(ColorFont.layers(n, first: layerList.count))
            for k in 0..<n { layerList.append(firstLayerPaint + 2 * (255 * g + k)) }
        }
        let solid = firstLayerPaint + 2 * layers
        for k in 0..<layers {
            paints.append(ColorFont.translate(paints.count + 1, dx: spread * (k % 100), dy: k / 100))
            paints.append(ColorFont.paintGlyph(solid, glyph: 1))
        }
        paints.append(ColorFont.solid)
        let colr = ColorFont.colrV1(base: [(2, 0)], layers: layerList, paints: paints,
                                    clips: [ColorFont.Clip(first: 2, last: 2, xMin: clip.0, yMin: clip.1, xMax: clip.2, yMax: clip.3)])
        return ColorFont.colrFont([.empty, ring48(), .empty], colr: colr)
    }

    /// A ring of 48 quadratics around (500, 400), radii 400 and 300 (off-curve points; a hole).
    static func ring48() -> TinyFont.Glyph {
        func circle(_ r: Double, _ reverse: Bool) -> [TinyFont.P] {
            let pts = (0..<24).map { k -> TinyFont.P in
                let a = Double(k) * 2 * Double.pi / 24
                return TinyFont.P(x: 500 + Int((r * cosine(a)).rounded()), y: 400 + Int((r * sine(a)).rounded()), on: false)
            }
            return reverse ? pts.reversed() : pts
        }
        return .simple([circle(400, false), circle(300, true)])
    }

    /// Glyph 1 is a square; glyph 2 a `COLR` v1 glyph whose paint is PaintColrGlyph of itself (a cycle);
    /// glyph 3 a well-formed one (PaintGlyph 1).
    public static func colrCycle() -> [UInt8] {
        let square = [TinyFont.P(x: 0, y: 0), TinyFont.P(x: 0, y: 500), TinyFont.P(x: 500, y: 500), TinyFont.P(x: 500, y: 0)]
        let colr = ColorFont.colrV1(base: [(2, 0), (3, 1)], layers: [],
                                    paints: [ColorFont.colrGlyph(2), ColorFont.paintGlyph(2, glyph: 1), ColorFont.solid])
        return ColorFont.colrFont([.empty, .simple([square]), .empty, .empty], colr: colr)
    }

    /// An `sbix` font whose glyph 1 is one PNG of `width × height` zero pixels (one bit of gray each: ~840 KB
    /// for 32767 × 32767), in `strikes` strikes (16 px per em up) that share its bytes.
    public static func sbixHuge(width: Int = 32767, height: Int = 32767, strikes: Int = 1) -> [UInt8] {
        let png = ColorFont.png(width: width, height: height, colorType: 0, bitDepth: 1)
        return ColorFont.sbixFont(glyphCount: 2, ppems: (0..<strikes).map { 16 << min($0, 8) },
                                  images: [ColorFont.Image(glyph: 1, png: png)], shared: strikes > 1)
    }

    /// What an `sbixPattern` image holds.
    public enum Pattern: Sendable {
        /// Alternate pixels opaque and clear, shifted by one every row.
        case checkerboard
        /// Rows alternately opaque and clear.
        case rows
        /// Columns alternately opaque and clear.
        case columns
    }

    /// An `sbix` font (one strike at 64 px per em) whose glyph 1 is a `size × size` gray + alpha PNG of
    /// `pattern`.
    public static func sbixPattern(_ pattern: Pattern, size: Int = 4096) -> [UInt8] {
        let on: [UInt8] = [0, 255], off: [UInt8] = [0, 0]
        let png = ColorFont.png(width: size, height: size, colorType: 4, bitDepth: 8) { y in
            switch pattern {
            case .checkerboard: return y % 2 == 0 ? on + off : off + on
            case .rows: return y % 2 == 0 ? on : nil
            case .columns: return on + off
            }
        }
        return ColorFont.sbixFont(glyphCount: 2, ppems: [64], images: [ColorFont.Image(glyph: 1, png: png)])
    }

    // Sine and cosine without Foundation (InkTestSupport's other files need none): Taylor series after
    // reducing to [−π, π], plenty for integer font units.
    static func sine(_ x: Double) -> Double {
        var a = x.truncatingRemainder(dividingBy: 2 * Double.pi)
        if a > Double.pi { a -= 2 * Double.pi } else if a < -Double.pi { a += 2 * Double.pi }
        var term = a, sum = a
        for n in stride(from: 3.0, through: 31, by: 2) { term *= -a * a / ((n - 1) * n); sum += term }
        return sum
    }
    static func cosine(_ x: Double) -> Double { sine(x + Double.pi / 2) }
}
