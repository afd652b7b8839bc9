import CFreeType
import InkGeometry
import InkHit

// The FreeType calls of color glyphs: which kind of ink a glyph has, COLR v0 layers, bitmap strikes and the
// color tables' bytes. Every call on `face` runs under `lock`.

/// What a face learnt about its color glyphs (guarded by `FreeTypeFace.lock`).
struct ColorState {
    /// Each glyph's ink, once decided.
    var kinds = GlyphKinds()
    /// The `COLR` v1 table: nil until read, then `.some(nil)` when the face has none (or no `CPAL`).
    var colr: ColrV1??
    /// The glyph ranges of the `SVG ` table's documents, sorted: nil until read.
    var svgRanges: [ClosedRange<UInt32>]?
    /// Why a color glyph's layers could not be read (a cycle, a broken offset, a graph beyond the limits),
    /// remembered so that a glyph placed many times is walked once.
    var failures: [UInt32: FontError] = [:]
}

/// Each glyph's ink once decided: one byte per glyph (0: not yet), allocated on the first glyph decided.
struct GlyphKinds {
    private var codes: [UInt8] = []
    private static let all = GlyphInk.allCases

    /// The ink of `glyph`, nil when not decided yet (or beyond the face's glyphs).
    subscript(glyph: UInt32) -> GlyphInk? {
        get {
            let g = Int(glyph)
            guard g < codes.count, codes[g] != 0 else { return nil }
            return Self.all[Int(codes[g]) - 1]
        }
        set {
            guard let newValue, let k = Self.all.firstIndex(of: newValue) else { return }
            let g = Int(glyph)
            if g >= codes.count { codes += [UInt8](repeating: 0, count: max(g + 1, 2 * codes.count, 256) - codes.count) }
            codes[g] = UInt8(k + 1)
        }
    }
}

/// A bitmap glyph's alpha, rows from the top, with FreeType's placement of it at its strike.
struct AlphaBitmap: Sendable {
    var width: Int
    var height: Int
    /// `width × height` alpha values (0 … 255), row by row from the top.
    var alpha: [UInt8]
    /// FreeType's `bitmap_left` and `bitmap_top`: strike px from the origin to the left edge and up to the
    /// top edge.
    var left: Int
    var top: Int
    /// The strike (an index into `FreeTypeFace.strikes`).
    var strike: Int
}

extension FreeTypeFace {
    static let tagCOLR: FT_ULong = 0x434F_4C52
    static let tagCPAL: FT_ULong = 0x4350_414C
    static let tagSVG: FT_ULong = 0x5356_4720

    /// The largest bitmap a glyph may have: 16 Mpx.
    static let maximumBitmapPixels = 1 << 24

    /// The order in which strikes are tried for a glyph drawn at `viewPxPerEm`: strikes of at least that size
    /// smallest first, then the smaller ones largest first (so the first is the smallest strike ≥ the size,
    /// else the largest).
    static func strikeOrder(_ strikes: [BitmapStrike], viewPxPerEm: Double) -> [Int] {
        let big = strikes.indices.filter { strikes[$0].yPixelsPerEm >= viewPxPerEm }
            .sorted { (strikes[$0].yPixelsPerEm, $0) < (strikes[$1].yPixelsPerEm, $1) }
        let small = strikes.indices.filter { !(strikes[$0].yPixelsPerEm >= viewPxPerEm) }
            .sorted { (strikes[$0].yPixelsPerEm, $1) > (strikes[$1].yPixelsPerEm, $0) }
        return big + small
    }

    /// `glyph`'s ink (see `GlyphInk`), decided once and remembered.
    func ink(of glyph: GlyphID) throws(FontError) -> GlyphInk {
        try checkRange(glyph)
        return try lock.withLock { () throws(FontError) -> GlyphInk in
            if let k = color.kinds[glyph.rawValue] { return k }
            let k = try classify(glyph)
            color.kinds[glyph.rawValue] = k
            return k
        }
    }

    /// `glyph`'s ink if it was decided before (nil: not yet, or out of range).
    func knownInk(of glyph: GlyphID) -> GlyphInk? {
        lock.withLock { color.kinds[glyph.rawValue] }
    }

    /// Decides `glyph`'s ink. Call with `lock` held.
    func classify(_ glyph: GlyphID) throws(FontError) -> GlyphInk {
        let g = FT_UInt(glyph.rawValue)
        if colrTable()?.rootPaint(of: glyph) != nil { return .colorPaint }
        var iterator = FT_LayerIterator(num_layers: 0, layer: 0, p: nil)
        var layer: FT_UInt = 0, colorIndex: FT_UInt = 0
        if FT_Get_Color_Glyph_Layer(face, g, &layer, &colorIndex, &iterator) != 0 { return .colorLayers }
        var outlineError: FontError? = nil
        if isScalable {
            let error = FT_Load_Glyph(face, g, FreeTypeFace.loadFlags)
            if error != 0 {
                outlineError = glyphError(glyph, error)
            } else if let slot = face.pointee.glyph, slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE,
                      slot.pointee.outline.n_points > 0 {
                return .outline
            }
        }
        if hasBitmap(g) { return .bitmap }
        if hasSVGDocument(glyph.rawValue) { return .box }
        if let outlineError { throw outlineError }
        guard isScalable else { throw .noOutline(glyph: glyph) }
        return .outline
    }

    /// True when the glyph has `COLR` data (a version 1 paint graph or version 0 layers). Call with `lock` held.
    func hasColorLayers(_ glyph: GlyphID) -> Bool {
        if colrTable()?.rootPaint(of: glyph) != nil { return true }
        var iterator = FT_LayerIterator(num_layers: 0, layer: 0, p: nil)
        var layer: FT_UInt = 0, colorIndex: FT_UInt = 0
        return FT_Get_Color_Glyph_Layer(face, FT_UInt(glyph.rawValue), &layer, &colorIndex, &iterator) != 0
    }

    /// True when one of the strikes has a bitmap for glyph `g` (metrics only: no image is decoded). Call
    /// with `lock` held; leaves the face at the last strike tried.
    private func hasBitmap(_ g: FT_UInt) -> Bool {
        for i in strikes.indices {
            guard FT_Select_Size(face, FT_Int(i)) == 0,
                  FT_Load_Glyph(face, g, FT_Int32(FT_LOAD_COLOR | FT_LOAD_BITMAP_METRICS_ONLY)) == 0,
                  let slot = face.pointee.glyph else { continue }
            if slot.pointee.format == FT_GLYPH_FORMAT_BITMAP { return true }
        }
        return false
    }

    /// Bytes `offset ..< offset + count` of table `tag` (all of it from `offset` when `count` is nil), or nil
    /// when the face has no such table or it is shorter. Call with `lock` held.
    private func tableBytes(_ tag: FT_ULong, offset: Int = 0, count: Int? = nil) -> [UInt8]? {
        var length: FT_ULong = 0
        guard FT_Load_Sfnt_Table(face, tag, 0, nil, &length) == 0, offset >= 0, Int(length) >= offset else { return nil }
        let n = count ?? (Int(length) - offset)
        guard n >= 0, offset + n <= Int(length) else { return nil }
        if n == 0 { return [] }
        var bytes = [UInt8](repeating: 0, count: n)
        var got = FT_ULong(n)
        let error = bytes.withUnsafeMutableBufferPointer { FT_Load_Sfnt_Table(face, tag, FT_Long(offset), $0.baseAddress, &got) }
        return error == 0 && Int(got) == n ? bytes : nil
    }

    /// The face's `COLR` table if it has version 1 paints (and a `CPAL` table, which FreeType requires of
    /// every `COLR`), read once. Call with `lock` held.
    private func colrTable() -> ColrV1? {
        if let t = color.colr { return t }
        var t: ColrV1? = nil
        if tableBytes(FreeTypeFace.tagCPAL, count: 0) != nil, let bytes = tableBytes(FreeTypeFace.tagCOLR) {
            t = ColrV1(bytes)
        }
        color.colr = .some(t)
        return t
    }

    /// True when the face's `SVG ` table has a document for glyph `g` (its document index is read once).
    /// Call with `lock` held.
    private func hasSVGDocument(_ g: UInt32) -> Bool {
        if color.svgRanges == nil {
            var ranges: [ClosedRange<UInt32>] = []
            // Header: version, offset to the document list (from the table's start), reserved. The list: a
            // count, then (startGlyphID, endGlyphID, offset, length) records, sorted.
            if let header = tableBytes(FreeTypeFace.tagSVG, count: 6) {
                let list = Int(header[2]) << 24 | Int(header[3]) << 16 | Int(header[4]) << 8 | Int(header[5])
                if let c = tableBytes(FreeTypeFace.tagSVG, offset: list, count: 2) {
                    let n = Int(c[0]) << 8 | Int(c[1])
                    if let recs = tableBytes(FreeTypeFace.tagSVG, offset: list + 2, count: 12 * n) {
                        for k in 0..<n {
                            let a = UInt32(recs[12 * k]) << 8 | UInt32(recs[12 * k + 1])
                            let b = UInt32(recs[12 * k + 2]) << 8 | UInt32(recs[12 * k + 3])
                            if a <= b { ranges.append(a...b) }
                        }
                    }
                }
            }
            color.svgRanges = ranges.sorted { $0.lowerBound < $1.lowerBound }
        }
        return color.svgRanges!.contains { $0.contains(g) }
    }

    /// The pieces of a color glyph (`ink` is `.colorLayers` or `.colorPaint`), in its font units: `COLR` v0
    /// layers through FreeType, a v1 paint graph through `ColrV1`.
    ///
    /// - Throws: `.colorGlyphTooComplex`, `.colorPaintCycle`, `.brokenColorGlyph`.
    func colorPieces(_ glyph: GlyphID, ink: GlyphInk) throws(FontError) -> [ColorPiece] {
        if let known = lock.withLock({ color.failures[glyph.rawValue] }) { throw known }
        do {
            return try readColorPieces(glyph, ink: ink)
        } catch {
            lock.withLock { color.failures[glyph.rawValue] = error }
            throw error
        }
    }

    /// `colorPieces`, without the memory of failures.
    private func readColorPieces(_ glyph: GlyphID, ink: GlyphInk) throws(FontError) -> [ColorPiece] {
        let limits = ColorLimits()
        if ink == .colorLayers {
            return try lock.withLock { () throws(FontError) -> [ColorPiece] in
                var iterator = FT_LayerIterator(num_layers: 0, layer: 0, p: nil)
                var layer: FT_UInt = 0, colorIndex: FT_UInt = 0
                var pieces: [ColorPiece] = []
                while FT_Get_Color_Glyph_Layer(face, FT_UInt(glyph.rawValue), &layer, &colorIndex, &iterator) != 0 {
                    guard pieces.count < limits.maxLayers else {
                        throw .colorGlyphTooComplex(glyph: glyph, what: "layers", limit: limits.maxLayers)
                    }
                    pieces.append(ColorPiece(source: .glyph(GlyphID(UInt32(layer))), transform: .identity, clips: []))
                }
                return pieces
            }
        }
        guard let table = lock.withLock({ colrTable() }) else { return [] }
        // A fill outside any glyph without a clip box covers the glyph's box (none when its advance is unreadable).
        let box = Rect(minX: 0, minY: Double(descender), maxX: (try? advance(of: glyph)) ?? 0, maxY: Double(ascender))
        do throws(ColrV1.WalkError) {
            return try table.pieces(of: glyph, box: box, limits: limits)
        } catch {
            switch error {
            case .broken(let reason): throw .brokenColorGlyph(glyph: glyph, reason: reason)
            case .cycle: throw .colorPaintCycle(glyph: glyph)
            case .tooComplex(let what, let limit): throw .colorGlyphTooComplex(glyph: glyph, what: what, limit: limit)
            }
        }
    }

    /// The bitmap of `glyph` from the first strike of `order` that has one (FT_Select_Size, then FT_Load_Glyph
    /// with FT_LOAD_COLOR), as alpha; nil when none has.
    ///
    /// Bounded before FreeType decodes: the image's size is read first (an `sbix` PNG's header, following
    /// `dupe` records, and FreeType's metrics-only load, which reads no pixels), and an image over 16 Mpx is
    /// refused without being decoded. (`CBDT`/`EBDT` images are at most 255 × 255 px: their metrics are bytes,
    /// and FreeType checks a PNG's header against them before decoding it.)
    ///
    /// - Throws: `.brokenBitmap` for a pixel mode without alpha (LCD) or a bitmap over 16 Mpx;
    ///   `.shape(…, .timeLimit)` when the build deadline (`BuildDeadline`) passes while pixels are copied.
    func bitmap(_ glyph: GlyphID, order: [Int]) throws(FontError) -> AlphaBitmap? {
        try checkRange(glyph)
        return try lock.withLock { () throws(FontError) -> AlphaBitmap? in
            for i in order where strikes.indices.contains(i) {
                guard FT_Select_Size(face, FT_Int(i)) == 0 else { continue }
                try checkImageSize(glyph, strike: i)
                guard FT_Load_Glyph(face, FT_UInt(glyph.rawValue), FT_Int32(FT_LOAD_COLOR)) == 0,
                      let slot = face.pointee.glyph, slot.pointee.format == FT_GLYPH_FORMAT_BITMAP else { continue }
                let b = slot.pointee.bitmap
                let w = Int(b.width), h = Int(b.rows)
                try Self.checkPixels(w, h, glyph)
                WorkMeter.count(w * h, .bitmapPixels)
                var alpha = [UInt8](repeating: 0, count: w * h)
                if w > 0 && h > 0 {
                    guard let buffer = b.buffer else { throw .brokenBitmap(glyph: glyph, reason: "FreeType gave no pixels") }
                    let pitch = Int(b.pitch)
                    let mode = UInt32(b.pixel_mode)
                    let grays = max(2, Int(b.num_grays))
                    for row in 0..<h {
                        if row & 255 == 255 && BuildDeadline.hasPassed {
                            throw .shape(glyph: glyph, pxPerEm: strikes[i].yPixelsPerEm, .timeLimit)
                        }
                        // A negative pitch: the rows are stored bottom first.
                        let line = buffer + (pitch >= 0 ? row * pitch : (h - 1 - row) * -pitch)
                        for col in 0..<w {
                            let a: Int
                            switch mode {
                            case FT_PIXEL_MODE_MONO.rawValue: a = (Int(line[col >> 3]) >> (7 - col & 7)) & 1 == 1 ? 255 : 0
                            case FT_PIXEL_MODE_GRAY2.rawValue: a = ((Int(line[col >> 2]) >> (6 - 2 * (col & 3))) & 3) * 255 / 3
                            case FT_PIXEL_MODE_GRAY4.rawValue: a = ((Int(line[col >> 1]) >> (4 - 4 * (col & 1))) & 15) * 255 / 15
                            case FT_PIXEL_MODE_GRAY.rawValue: a = min(255, Int(line[col]) * 255 / (grays - 1))
                            case FT_PIXEL_MODE_BGRA.rawValue: a = Int(line[4 * col + 3])      // premultiplied: alpha is alpha
                            default:
                                throw .brokenBitmap(glyph: glyph, reason: "its bitmap has pixel mode \(mode), which has no alpha")
                            }
                            alpha[row * w + col] = UInt8(a)
                        }
                    }
                }
                return AlphaBitmap(width: w, height: h, alpha: alpha, left: Int(slot.pointee.bitmap_left),
                                   top: Int(slot.pointee.bitmap_top), strike: i)
            }
            return nil
        }
    }

    /// Refuses a bitmap of more than 16 Mpx (either side alone over 16 M included), naming its size.
    static func checkPixels(_ w: Int, _ h: Int, _ glyph: GlyphID) throws(FontError) {
        guard w >= 0, h >= 0, w <= maximumBitmapPixels, h <= maximumBitmapPixels, w * h <= maximumBitmapPixels else {
            throw .brokenBitmap(glyph: glyph, reason: "its \(w) × \(h) px bitmap is larger than 16 Mpx")
        }
    }

    /// Refuses `glyph`'s image in strike `i` (selected) when it has more than 16 Mpx, reading only its size:
    /// the `sbix` PNG headers of the strikes with that size, and FreeType's metrics (FT_LOAD_BITMAP_METRICS_ONLY
    /// decodes no pixels). Call with `lock` held.
    private func checkImageSize(_ glyph: GlyphID, strike i: Int) throws(FontError) {
        for size in sbixImageSizes(glyph.rawValue, ppem: strikes[i].yPixelsPerEm) {
            try Self.checkPixels(size.width, size.height, glyph)
        }
        let flags = FT_Int32(FT_LOAD_COLOR | FT_LOAD_BITMAP_METRICS_ONLY)
        guard FT_Load_Glyph(face, FT_UInt(glyph.rawValue), flags) == 0, let slot = face.pointee.glyph,
              slot.pointee.format == FT_GLYPH_FORMAT_BITMAP else { return }
        let m = slot.pointee.metrics
        try Self.checkPixels(Int((m.width + 63) >> 6), Int((m.height + 63) >> 6), glyph)
    }

    static let tagSbix: FT_ULong = 0x7362_6978

    /// The PNG sizes (from each image's IHDR) of `g` in the `sbix` strikes of `ppem` px per em (a `dupe`
    /// record followed once); empty without an `sbix` table or a PNG image there. Reads a few bytes per
    /// strike. Call with `lock` held.
    private func sbixImageSizes(_ g: UInt32, ppem: Double) -> [(width: Int, height: Int)] {
        func u32(_ b: [UInt8], _ o: Int) -> Int { Int(b[o]) << 24 | Int(b[o + 1]) << 16 | Int(b[o + 2]) << 8 | Int(b[o + 3]) }
        guard let head = tableBytes(Self.tagSbix, count: 8) else { return [] }
        let count = min(u32(head, 4), 4096)
        guard count > 0, let offsets = tableBytes(Self.tagSbix, offset: 8, count: 4 * count) else { return [] }
        var sizes: [(width: Int, height: Int)] = []
        for k in 0..<count {
            let strike = u32(offsets, 4 * k)
            guard let ppemBytes = tableBytes(Self.tagSbix, offset: strike, count: 2),
                  Double(Int(ppemBytes[0]) << 8 | Int(ppemBytes[1])) == ppem else { continue }
            var glyph = g
            for _ in 0..<2 {
                guard let range = tableBytes(Self.tagSbix, offset: strike + 4 + 4 * Int(glyph), count: 8) else { break }
                let start = u32(range, 0), end = u32(range, 4)
                guard end >= start + 10, let data = tableBytes(Self.tagSbix, offset: strike + start, count: min(end - start, 32)) else { break }
                let type = String(decoding: data[4..<8], as: UTF8.self)
                if type == "dupe" {
                    glyph = UInt32(Int(data[8]) << 8 | Int(data[9]))
                    continue
                }
                // A PNG: the signature, then the IHDR chunk (length, "IHDR", width, height).
                if type == "png ", data.count >= 32, data[8] == 0x89, data[9] == 0x50,
                   String(decoding: data[20..<24], as: UTF8.self) == "IHDR" {
                    sizes.append((u32(data, 24), u32(data, 28)))
                }
                break
            }
        }
        return sizes
    }
}
