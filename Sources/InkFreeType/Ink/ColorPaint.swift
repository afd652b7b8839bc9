import InkGeometry
import InkHit

// COLR version 1 paint graphs, read from the table's bytes (OpenType 1.9 `COLR`): what a glyph's paints
// fill, as a list of glyph outlines under transforms, clipped by clip boxes. Pure Swift on a copy of the
// table, every offset checked; no FreeType call: Debian's FreeType 2.12.1 (bookworm) disables the COLR v1 API
// (`disable_COLRv1.patch`): `FT_Get_Color_Glyph_Paint`, `FT_Get_Paint`, `FT_Get_Paint_Layers` and
// `FT_Get_Color_Glyph_ClipBox` are exported but always answer false. Offsets, formats and transforms follow
// the OpenType spec as fontTools reads it (Affine2x3 xx, yx, xy, yy, dx, dy; angles in half turns, skew
// x' = x − tan(xSkew)·y).

/// One piece of a color glyph's ink, in the base glyph's font units (y-up).
struct ColorPiece: Sendable, Hashable {
    enum Source: Sendable, Hashable {
        /// A glyph's outline, mapped by the piece's transform.
        case glyph(GlyphID)
        /// A fill outside any glyph: the whole plane, here this rectangle (the clip box, else the glyph's
        /// box), before the clips.
        case fill(Rect)
    }
    var source: Source
    /// The piece's font units → the base glyph's font units.
    var transform: AffineTransform
    /// Convex quadrilaterals (base glyph font units) the piece is clipped to, each counter-clockwise.
    var clips: [[Point]]
}

/// Bounds on the work one color glyph may take: exceeding one is `FontError.colorGlyphTooComplex`.
struct ColorLimits: Sendable {
    var maxDepth = Font.maximumColorPaintDepth
    var maxPaints = Font.maximumColorPaints
    var maxLayers = Font.maximumColorLayers
}

/// A `COLR` table of version ≥ 1: its base glyph list, layer list and clip list.
struct ColrV1: Sendable {
    private let data: [UInt8]
    private let baseGlyphList: Int
    private let layerList: Int
    private let clipList: Int
    private let layerCount: Int
    private let baseCount: Int

    /// The table, or nil when it is not a version 1 table with a base glyph list that fits it.
    init?(_ data: [UInt8]) {
        self.data = data
        func u16(_ o: Int) -> Int? { o >= 0 && o + 2 <= data.count ? Int(data[o]) << 8 | Int(data[o + 1]) : nil }
        func u32(_ o: Int) -> Int? {
            guard let hi = u16(o), let lo = u16(o + 2) else { return nil }
            return hi << 16 | lo
        }
        guard let version = u16(0), version >= 1, data.count >= 34,
              let base = u32(14), base > 0, let baseCount = u32(base), base + 4 + 6 * baseCount <= data.count else { return nil }
        baseGlyphList = base
        self.baseCount = baseCount
        let layers = u32(18) ?? 0
        if layers > 0, let n = u32(layers), layers + 4 + 4 * n <= data.count {
            layerList = layers; layerCount = n
        } else {
            layerList = 0; layerCount = 0
        }
        clipList = u32(22) ?? 0
    }

    private func u8(_ o: Int) -> Int? { o >= 0 && o < data.count ? Int(data[o]) : nil }
    private func u16(_ o: Int) -> Int? { o >= 0 && o + 2 <= data.count ? Int(data[o]) << 8 | Int(data[o + 1]) : nil }
    private func i16(_ o: Int) -> Int? { u16(o).map { Int(Int16(truncatingIfNeeded: $0)) } }
    private func u24(_ o: Int) -> Int? {
        guard let hi = u8(o), let lo = u16(o + 1) else { return nil }
        return hi << 16 | lo
    }
    private func u32(_ o: Int) -> Int? {
        guard let hi = u16(o), let lo = u16(o + 2) else { return nil }
        return hi << 16 | lo
    }
    private func fixed(_ o: Int) -> Double? { u32(o).map { Double(Int32(truncatingIfNeeded: $0)) / 65536 } }
    private func f2dot14(_ o: Int) -> Double? { i16(o).map { Double($0) / 16384 } }

    /// The offset (in the table) of `glyph`'s root paint, or nil when it has no BaseGlyphPaintRecord.
    func rootPaint(of glyph: GlyphID) -> Int? {
        guard glyph.rawValue <= 0xFFFF else { return nil }
        let g = Int(glyph.rawValue)
        var lo = 0, hi = baseCount
        while lo < hi {
            let mid = (lo + hi) / 2
            let rec = baseGlyphList + 4 + 6 * mid
            guard let gid = u16(rec) else { return nil }
            if gid < g { lo = mid + 1 } else if gid > g { hi = mid } else {
                guard let off = u32(rec + 2), off > 0 else { return nil }
                return baseGlyphList + off
            }
        }
        return nil
    }

    /// `glyph`'s clip box (font units), nil when the table has none for it. ClipBox formats 1 and 2 (the
    /// variable one at its default values).
    ///
    /// - Throws: `Reason` when the clip list is malformed.
    func clipBox(of glyph: GlyphID) throws(Reason) -> Rect? {
        guard clipList > 0 else { return nil }
        guard u8(clipList) == 1, let count = u32(clipList + 1) else { throw Reason("its clip list is malformed") }
        guard clipList + 5 + 7 * count <= data.count else { throw Reason("its clip list runs past the table") }
        let g = Int(glyph.rawValue)
        var lo = 0, hi = count
        while lo < hi {                                      // clips are sorted and do not overlap
            let mid = (lo + hi) / 2
            let rec = clipList + 5 + 7 * mid
            guard let start = u16(rec), let end = u16(rec + 2), let off = u24(rec + 4) else { return nil }
            if end < g { lo = mid + 1 } else if start > g { hi = mid } else {
                let box = clipList + off
                guard off > 0, let format = u8(box), format == 1 || format == 2,
                      let x0 = i16(box + 1), let y0 = i16(box + 3), let x1 = i16(box + 5), let y1 = i16(box + 7) else {
                    throw Reason("its clip box is malformed")
                }
                return Rect(minX: Double(min(x0, x1)), minY: Double(min(y0, y1)), maxX: Double(max(x0, x1)), maxY: Double(max(y0, y1)))
            }
        }
        return nil
    }

    /// Why a paint graph cannot be read (a sentence fragment: "its paint at byte 12 …").
    struct Reason: Error, Sendable {
        var text: String
        init(_ text: String) { self.text = text }
    }

    /// Why a walk stopped.
    enum WalkError: Error, Sendable {
        case broken(String)
        case cycle
        case tooComplex(what: String, limit: Int)
    }

    /// The pieces `glyph`'s paint graph fills, in its own font units: every PaintGlyph reached from its
    /// root paint outside another PaintGlyph, under the transforms above it, clipped to the clip boxes of
    /// the glyphs whose paints hold it (the base glyph's and those of PaintColrGlyph). Fills (solid and
    /// gradient paints) outside any PaintGlyph cover `box` (the base glyph's clip box, else its glyph box).
    /// Every paint below a PaintGlyph is walked too (so cycles and limits are found wherever they are), but
    /// adds nothing: what fills a glyph is taken to cover it. PaintComposite is the union of its source and
    /// backdrop, whatever its mode.
    ///
    /// - Throws: `.cycle` when a paint is reached again below itself; `.tooComplex` beyond `limits`;
    ///   `.broken` for an offset outside the table, an unknown paint format, a layer index beyond the layer
    ///   list, or a transform beyond ±2²⁴.
    func pieces(of glyph: GlyphID, box: Rect, limits: ColorLimits) throws(WalkError) -> [ColorPiece] {
        guard let root = rootPaint(of: glyph) else { return [] }
        var walk = Walk(table: self, limits: limits)
        var clips: [[Point]] = []
        let clip: Rect?
        do { clip = try clipBox(of: glyph) } catch { throw .broken(error.text) }
        if let clip { clips.append(Self.quad(clip, .identity)) }
        defer { WorkMeter.count(walk.visited, .paintsVisited) }
        try walk.visit(root, .identity, clips, insideGlyph: false, fillBox: clip ?? box)
        return walk.pieces
    }

    /// A rectangle mapped by `t`, counter-clockwise (y-up).
    static func quad(_ r: Rect, _ t: AffineTransform) -> [Point] {
        let q = [Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY)].map { $0.applying(t) }
        return t.determinant < 0 ? q.reversed() : q
    }

    /// One walk of a paint graph: the pieces found, the paints on the current path (for cycles) and the
    /// counts the limits bound.
    private struct Walk {
        let table: ColrV1
        let limits: ColorLimits
        var pieces: [ColorPiece] = []
        var path: [Int] = []
        var visited = 0

        /// Visits `paint` under `t` (the paint's font units → the glyph's), clipped by `clips`: one `case` per
        /// kind of COLRv1 paint; the transform paints' own transforms are read by `transform(of:format:)`.
        mutating func visit(_ paint: Int, _ t: AffineTransform, _ clips: [[Point]], insideGlyph: Bool,
                            fillBox: Rect) throws(WalkError) {
            visited += 1
            guard visited <= limits.maxPaints else { throw .tooComplex(what: "paint tables visited", limit: limits.maxPaints) }
            guard path.count < limits.maxDepth else { throw .tooComplex(what: "levels of nested paints", limit: limits.maxDepth) }
            guard !path.contains(paint) else { throw .cycle }
            path.append(paint)
            defer { path.removeLast() }
            let d = table
            guard let format = d.u8(paint) else { throw broken(paint, "lies outside the table") }
            switch format {
            case 1:                                                    // PaintColrLayers
                guard let n = d.u8(paint + 1), let first = d.u32(paint + 2) else { throw broken(paint, "is cut short") }
                guard d.layerList > 0, first + n <= d.layerCount else { throw broken(paint, "names layers beyond the layer list") }
                for i in first..<(first + n) {
                    guard let off = d.u32(d.layerList + 4 + 4 * i), off > 0, d.layerList + off < d.data.count else {
                        throw broken(paint, "has a layer outside the table")
                    }
                    try visit(d.layerList + off, t, clips, insideGlyph: insideGlyph, fillBox: fillBox)
                }
            case 2...9:                                                // solid and gradient fills
                if (4...9).contains(format) { _ = try child(paint, 1) }   // the color line must be there
                if !insideGlyph { try add(ColorPiece(source: .fill(fillBox), transform: .identity, clips: clips)) }
            case 10:                                                   // PaintGlyph
                guard let g = d.u16(paint + 4) else { throw broken(paint, "is cut short") }
                if !insideGlyph { try add(ColorPiece(source: .glyph(GlyphID(UInt32(g))), transform: t, clips: clips)) }
                try visit(try child(paint, 1), t, clips, insideGlyph: true, fillBox: fillBox)
            case 11:                                                   // PaintColrGlyph
                guard let g = d.u16(paint + 1) else { throw broken(paint, "is cut short") }
                let glyph = GlyphID(UInt32(g))
                guard let root = d.rootPaint(of: glyph) else { return }   // no paint: draws nothing
                var inner = clips
                let box: Rect?
                do { box = try d.clipBox(of: glyph) } catch { throw .broken(error.text) }
                if let box { inner.append(ColrV1.quad(box, t)) }
                try visit(root, t, inner, insideGlyph: insideGlyph, fillBox: fillBox)
            case 12...31:                                              // transform, translate, scale, rotate, skew
                let n = try transform(of: paint, format: format).concatenating(t)
                guard n.isFinite, max(abs(n.a), abs(n.b), abs(n.c), abs(n.d), abs(n.tx), abs(n.ty)) <= 16_777_216 else {
                    throw broken(paint, "transforms beyond ±2²⁴ font units")
                }
                try visit(try child(paint, 1), n, clips, insideGlyph: insideGlyph, fillBox: fillBox)
            case 32:                                                   // PaintComposite: the union of both
                guard d.u8(paint + 4) != nil else { throw broken(paint, "is cut short") }
                try visit(try child(paint, 1), t, clips, insideGlyph: insideGlyph, fillBox: fillBox)
                try visit(try child(paint, 5), t, clips, insideGlyph: insideGlyph, fillBox: fillBox)
            default:
                throw broken(paint, "has unknown format \(format)")
            }
        }

        /// The transform a transform paint (formats 12–31) applies to its child paint, in font units.
        func transform(of paint: Int, format: Int) throws(WalkError) -> AffineTransform {
            let d = table
            func number(_ v: Double?) throws(WalkError) -> Double {
                guard let v else { throw broken(paint, "is cut short") }
                return v
            }
            func int16(_ at: Int) throws(WalkError) -> Double { try number(d.i16(paint + at).map(Double.init)) }
            func around(_ m: AffineTransform, _ cx: Double, _ cy: Double) -> AffineTransform {
                AffineTransform.translation(-cx, -cy).concatenating(m).concatenating(.translation(cx, cy))
            }
            switch format {
            case 12, 13:                                               // PaintTransform, PaintVarTransform
                guard let at = d.u24(paint + 4), at > 0 else { throw broken(paint, "has no transform") }
                let m = paint + at
                let v = [d.fixed(m), d.fixed(m + 4), d.fixed(m + 8), d.fixed(m + 12), d.fixed(m + 16), d.fixed(m + 20)]
                guard v.allSatisfy({ $0 != nil }) else { throw broken(paint, "has a transform outside the table") }
                // Affine2x3 is xx, yx, xy, yy, dx, dy: x' = xx·x + xy·y + dx, y' = yx·x + yy·y + dy.
                return AffineTransform(a: v[0]!, b: v[1]!, c: v[2]!, d: v[3]!, tx: v[4]!, ty: v[5]!)
            case 14, 15:                                               // PaintTranslate
                return .translation(try int16(4), try int16(6))
            case 16...23:                                              // PaintScale and its variants
                let uniform = format >= 20, centred = format == 18 || format == 19 || format >= 22
                let sx = try number(d.f2dot14(paint + 4))
                let sy = uniform ? sx : try number(d.f2dot14(paint + 6))
                let c = uniform ? 6 : 8
                let m = AffineTransform.scale(sx, sy)
                return centred ? around(m, try int16(c), try int16(c + 2)) : m
            case 24...27:                                              // PaintRotate, around a center
                // Counter-clockwise, 180° per 1.0.
                let (co, si) = Self.circle(try number(d.f2dot14(paint + 4)))
                let m = AffineTransform(a: co, b: si, c: -si, d: co, tx: 0, ty: 0)
                return format >= 26 ? around(m, try int16(6), try int16(8)) : m
            default:                                                   // 28…31, PaintSkew, around a center
                // x' = x − tan(xSkew)·y, y' = y + tan(ySkew)·x (the angles counter-clockwise, 180° per 1.0).
                let (cx, sx) = Self.circle(try number(d.f2dot14(paint + 4)))
                let (cy, sy) = Self.circle(try number(d.f2dot14(paint + 6)))
                guard cx != 0, cy != 0 else { throw broken(paint, "skews by 90°") }
                let m = AffineTransform(a: 1, b: sy / cy, c: -sx / cx, d: 1, tx: 0, ty: 0)
                return format >= 30 ? around(m, try int16(8), try int16(10)) : m
            }
        }

        /// The error of a paint the walk cannot read.
        func broken(_ paint: Int, _ what: String) -> WalkError { .broken("its paint at byte \(paint) of the COLR table \(what)") }

        /// The child paint at the Offset24 `at` bytes into `paint`.
        func child(_ paint: Int, _ at: Int) throws(WalkError) -> Int {
            guard let off = table.u24(paint + at), off > 0, paint + off < table.data.count else {
                throw broken(paint, "points outside the table")
            }
            return paint + off
        }

        mutating func add(_ piece: ColorPiece) throws(WalkError) {
            guard pieces.count < limits.maxLayers else { throw .tooComplex(what: "layers", limit: limits.maxLayers) }
            pieces.append(piece)
        }

        /// (cos, sin) of `halfTurns` · 180°, exact at multiples of 90° (quarter turns are common in fonts and
        /// must not leave 6e-17 shears behind).
        static func circle(_ halfTurns: Double) -> (Double, Double) {
            let q = halfTurns * 2
            if q == q.rounded(), abs(q) < Double(Int32.max) {
                switch ((Int(q) % 4) + 4) % 4 {
                case 0: return (1, 0)
                case 1: return (0, 1)
                case 2: return (-1, 0)
                default: return (0, -1)
                }
            }
            let r = AffineTransform.rotation(halfTurns * Double.pi)
            return (r.a, r.b)
        }
    }
}
