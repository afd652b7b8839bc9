/// Colour fonts built in memory, for hostile tests and the structure-aware font fuzzer: `COLR` v1 paint graphs
/// (with clip boxes), a one-colour `CPAL`, `sbix` strikes of PNG images (strikes may share one image's
/// bytes), and the PNG images themselves, compressed by a small deflate encoder (fixed Huffman codes:
/// runs of a repeating pattern cost ~13 bits per 258 bytes, so a 32767 × 32767 one-bit image is ~840 KB).
/// Tables follow the OpenType spec (`COLR` 1.9, `sbix`) and PNG 1.2; every font opens in FreeType.
public enum ColorFont {
    // MARK: COLR v1

    /// One piece of a paint's bytes: raw bytes, or an Offset24 to paint `i` (relative to this paint).
    public enum Part: Sendable { case bytes([UInt8]), ref(Int) }

    /// A clip record: glyphs `first ... last` clipped to the box (font units).
    public struct Clip: Sendable {
        public var first: Int, last: Int
        public var xMin: Int, yMin: Int, xMax: Int, yMax: Int
        public init(first: Int, last: Int, xMin: Int, yMin: Int, xMax: Int, yMax: Int) {
            self.first = first; self.last = last; self.xMin = xMin; self.yMin = yMin; self.xMax = xMax; self.yMax = yMax
        }
    }

    /// A `COLR` version 1 table: base glyphs (glyph, index of its root paint), a layer list of paint indices,
    /// the paints (each its own bytes, `Part.ref(i)` standing for an Offset24 to paint i), and clip records.
    public static func colrV1(base: [(glyph: Int, paint: Int)], layers: [Int], paints: [[Part]], clips: [Clip] = []) -> [UInt8] {
        let header = 34
        let baseList = header, baseSize = 4 + 6 * base.count
        let layerList = baseList + baseSize, layerSize = 4 + 4 * layers.count
        let clipList = layerList + layerSize, clipSize = clips.isEmpty ? 0 : 5 + 7 * clips.count + 9 * clips.count
        var offsets: [Int] = []
        var at = clipList + clipSize
        for p in paints {
            offsets.append(at)
            at += p.reduce(0) { n, part in if case .bytes(let b) = part { return n + b.count }; return n + 3 }
        }
        var out: [UInt8] = []
        out.u16(1); out.u16(0); out.u32(0); out.u32(0); out.u16(0)
        out.u32(baseList); out.u32(layers.isEmpty ? 0 : layerList); out.u32(clips.isEmpty ? 0 : clipList); out.u32(0); out.u32(0)
        out.u32(base.count)
        for b in base.sorted(by: { $0.glyph < $1.glyph }) { out.u16(b.glyph); out.u32(offsets[b.paint] - baseList) }
        out.u32(layers.count)
        for l in layers { out.u32(offsets[l] - layerList) }
        if !clips.isEmpty {
            out.append(1); out.u32(clips.count)
            for (k, c) in clips.enumerated() {
                let box = 5 + 7 * clips.count + 9 * k
                out.u16(c.first); out.u16(c.last); out.u24(box)
            }
            for c in clips { out.append(1); out.i16(c.xMin); out.i16(c.yMin); out.i16(c.xMax); out.i16(c.yMax) }
        }
        for (i, p) in paints.enumerated() {
            for part in p {
                switch part {
                case .bytes(let b): out += b
                case .ref(let j): out.u24(offsets[j] - offsets[i])
                }
            }
        }
        return out
    }

    /// PaintSolid of palette entry 0, alpha 1.
    public static let solid: [Part] = [.bytes([2, 0, 0, 0x40, 0])]
    /// PaintGlyph `glyph` filled by paint `fill`.
    public static func paintGlyph(_ fill: Int, glyph: Int) -> [Part] { [.bytes([10]), .ref(fill), .bytes(be16(glyph))] }
    /// PaintColrLayers of `n` (≤ 255) layers from layer list entry `first`.
    public static func layers(_ n: Int, first: Int) -> [Part] {
        [.bytes([1, UInt8(n), UInt8(truncatingIfNeeded: first >> 24), UInt8(truncatingIfNeeded: first >> 16),
                 UInt8(truncatingIfNeeded: first >> 8), UInt8(truncatingIfNeeded: first)])]
    }
    /// PaintTranslate of paint `child` by (dx, dy) font units.
    public static func translate(_ child: Int, dx: Int = 10, dy: Int = 0) -> [Part] {
        [.bytes([14]), .ref(child), .bytes(be16(dx) + be16(dy))]
    }
    /// PaintTransform of paint `child` by the Affine2x3 [xx, yx, xy, yy, dx, dy] (16.16 fixed; the matrix
    /// follows the paint).
    public static func transform(_ child: Int, _ m: [Double]) -> [Part] {
        var affine: [UInt8] = []
        for v in m { affine.u32(Int((v * 65536).rounded())) }
        return [.bytes([12]), .ref(child), .bytes([0, 0, 7])] + [.bytes(affine)]
    }
    /// PaintColrGlyph of base glyph `glyph`.
    public static func colrGlyph(_ glyph: Int) -> [Part] { [.bytes([11] + be16(glyph))] }

    /// A `CPAL` with one palette of one colour.
    public static let cpal: [UInt8] = {
        var t: [UInt8] = []
        t.u16(0); t.u16(1); t.u16(1); t.u16(1); t.u32(14); t.u16(0)
        return t + [0, 0, 255, 255]
    }()

    /// A TrueType font (`TinyFont`) with `glyphs`, a `COLR` table and `CPAL`.
    public static func colrFont(_ glyphs: [TinyFont.Glyph], colr: [UInt8], unitsPerEm: Int = 1000) -> [UInt8] {
        TinyFont.trueType(glyphs, unitsPerEm: unitsPerEm, extraTables: [("COLR", colr), ("CPAL", cpal)])
    }

    // MARK: sbix

    /// One image of an `sbix` strike.
    public struct Image: Sendable {
        public var glyph: Int
        public var png: [UInt8]
        public init(glyph: Int, png: [UInt8]) { self.glyph = glyph; self.png = png }
    }

    /// An `sbix` table for a font of `glyphCount` glyphs: one strike per entry of `ppems`, each holding
    /// `images`. With `shared`, every strike points at one copy of each image's bytes (as a font may:
    /// offsets are relative to each strike, and nothing forbids two strikes reaching the same data).
    public static func sbix(glyphCount: Int, ppems: [Int], images: [Image], shared: Bool = false) -> [UInt8] {
        let strikeHeader = 4 + 4 * (glyphCount + 1)
        let tableHeader = 8 + 4 * ppems.count
        var blob: [UInt8] = []
        var where_: [Int: Range<Int>] = [:]                     // glyph → its data in `blob`
        for img in images.sorted(by: { $0.glyph < $1.glyph }) {
            let start = blob.count
            blob.i16(0); blob.i16(0); blob += Array("png ".utf8); blob += img.png
            where_[img.glyph] = start..<blob.count
        }
        var out: [UInt8] = []
        out.u16(1); out.u16(1); out.u32(ppems.count)
        // Strike k starts at tableHeader + k × (strikeHeader + its own data, unless shared).
        let perStrike = strikeHeader + (shared ? 0 : blob.count)
        let sharedAt = tableHeader + ppems.count * strikeHeader
        for k in ppems.indices { out.u32(tableHeader + k * perStrike) }
        for (k, ppem) in ppems.enumerated() {
            let strikeStart = tableHeader + k * perStrike
            let dataStart = shared ? sharedAt : strikeStart + strikeHeader
            out.u16(ppem); out.u16(72)
            // Glyph g's data is offsets[g] ..< offsets[g + 1]: the blob holds the images in glyph order, so
            // each offset is where the first image of a glyph ≥ g starts (the blob's end after the last).
            for g in 0...glyphCount {
                let at = where_.filter { $0.key >= g }.map(\.value.lowerBound).min() ?? blob.count
                out.u32(dataStart - strikeStart + at)
            }
            if !shared { out += blob }
        }
        if shared { out += blob }
        return out
    }

    /// A TrueType font of `glyphCount` empty glyphs with an `sbix` table (see `sbix`).
    public static func sbixFont(glyphCount: Int, ppems: [Int], images: [Image], shared: Bool = false) -> [UInt8] {
        TinyFont.trueType([TinyFont.Glyph](repeating: .empty, count: glyphCount),
                          extraTables: [("sbix", sbix(glyphCount: glyphCount, ppems: ppems, images: images, shared: shared))])
    }

    // MARK: PNG

    /// A PNG of `width × height` pixels (`colorType` 0 gray, 4 gray + alpha, 6 RGBA; `bitDepth` 1 or 8) whose
    /// every row is `period` bytes repeated (after the filter byte), `rowPattern(y)` giving row y's period:
    /// zeros everywhere when it returns nil. Rows are compressed by matches at the period's distance, so the
    /// file stays small whatever the size.
    public static func png(width: Int, height: Int, colorType: UInt8 = 6, bitDepth: UInt8 = 8,
                           rowPattern: (Int) -> [UInt8]? = { _ in nil }) -> [UInt8] {
        let channels = [0: 1, 2: 3, 4: 2, 6: 4][Int(colorType)] ?? 4
        let rowBytes = (width * channels * Int(bitDepth) + 7) / 8
        var z = Deflate()
        for y in 0..<height {
            z.literal(0)                                         // filter: none
            if let p = rowPattern(y), !p.isEmpty, p.contains(where: { $0 != 0 }) {
                z.pattern(p, count: rowBytes)
            } else {
                z.zeros(rowBytes)
            }
        }
        var ihdr: [UInt8] = []
        ihdr.u32(width); ihdr.u32(height); ihdr += [bitDepth, colorType, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", z.finish())
            + chunk("IEND", [])
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.u32(data.count)
        let body = Array(type.utf8) + data
        out += body
        out.u32(Int(crc32(body)))
        return out
    }

    static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    static func be16(_ v: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }
}

extension Array where Element == UInt8 {
    /// Appends `v` as a big-endian 24-bit word (the low 24 bits).
    public mutating func u24(_ v: Int) {
        append(UInt8(truncatingIfNeeded: v >> 16)); append(UInt8(truncatingIfNeeded: v >> 8)); append(UInt8(truncatingIfNeeded: v))
    }
}

/// A zlib stream of one fixed-Huffman deflate block (RFC 1950/1951), written as literals and matches, with
/// its Adler-32 kept as it goes (runs of zeros in O(1)).
struct Deflate {
    private var out: [UInt8] = [0x78, 0x01]
    private var bitBuffer: UInt64 = 0
    private var bitCount = 0
    private var a: UInt64 = 1, b: UInt64 = 0
    /// Bytes written so far (a match reaches back into them).
    private var produced = 0

    init() { bits(1, 1); bits(1, 2) }                     // BFINAL, BTYPE = 01 (fixed codes)

    private mutating func bits(_ v: UInt64, _ n: Int) {
        bitBuffer |= v << UInt64(bitCount)
        bitCount += n
        while bitCount >= 8 { out.append(UInt8(truncatingIfNeeded: bitBuffer)); bitBuffer >>= 8; bitCount -= 8 }
    }
    /// A Huffman code, most significant bit first.
    private mutating func code(_ c: Int, _ n: Int) {
        var r: UInt64 = 0
        for k in 0..<n { r |= UInt64((c >> k) & 1) << UInt64(n - 1 - k) }
        bits(r, n)
    }
    private mutating func symbol(_ s: Int) {
        switch s {
        case 0...143: code(0x30 + s, 8)
        case 144...255: code(0x190 + s - 144, 9)
        case 256...279: code(s - 256, 7)
        default: code(0xC0 + s - 280, 8)
        }
    }
    private mutating func adler(_ byte: UInt8) { a = (a + UInt64(byte)) % 65521; b = (b + a) % 65521 }

    mutating func literal(_ byte: UInt8) { symbol(Int(byte)); adler(byte); produced += 1 }

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073]
    static let distExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10]

    /// A match of `length` (3 … 258) bytes at `distance` (1 … 4096) back; the caller keeps Adler-32.
    private mutating func match(_ length: Int, _ distance: Int) {
        var li = Self.lengthBase.count - 1
        while Self.lengthBase[li] > length { li -= 1 }
        symbol(257 + li)
        if Self.lengthExtra[li] > 0 { bits(UInt64(length - Self.lengthBase[li]), Self.lengthExtra[li]) }
        var di = Self.distBase.count - 1
        while Self.distBase[di] > distance { di -= 1 }
        code(di, 5)
        if Self.distExtra[di] > 0 { bits(UInt64(distance - Self.distBase[di]), Self.distExtra[di]) }
        produced += length
    }

    /// `count` bytes that repeat the previous `period` bytes (written already), as matches and literals.
    private mutating func repeatBack(_ count: Int, period: Int, _ byteAt: (Int) -> UInt8) {
        var left = count, k = 0
        while left >= 3 {
            let n = min(258, left)
            let take = left - n > 0 && left - n < 3 ? n - 3 : n      // never leave 1–2 bytes for a match
            match(take, period)
            left -= take; k += take
        }
        while left > 0 { let byte = byteAt(k); symbol(Int(byte)); produced += 1; left -= 1; k += 1 }
    }

    /// `count` zero bytes.
    mutating func zeros(_ count: Int) {
        guard count > 0 else { return }
        var rest = count
        if produced == 0 { literal(0); rest -= 1 }               // nothing to match yet
        // Adler-32 of zeros: a stays, b grows by a per byte. (The match below reaches back to a zero only when
        // the byte before is one: the filter byte written just before is 0.)
        b = (b + a * UInt64(rest % 65521)) % 65521
        repeatBack(rest, period: 1) { _ in 0 }
    }

    /// `count` bytes repeating `p` (its first period as literals, then matches one period back).
    mutating func pattern(_ p: [UInt8], count: Int) {
        let head = min(count, p.count)
        for k in 0..<head { literal(p[k]) }
        guard count > head else { return }
        for k in head..<count { adler(p[k % p.count]) }
        repeatBack(count - head, period: p.count) { p[($0 + head) % p.count] }
    }

    /// The stream: end of block, padding, Adler-32.
    mutating func finish() -> [UInt8] {
        symbol(256)
        if bitCount > 0 { out.append(UInt8(truncatingIfNeeded: bitBuffer)); bitBuffer = 0; bitCount = 0 }
        out.u32(Int(b << 16 | a))
        return out
    }
}
