/// Builds small fonts in memory for hostile-input tests: TrueType (`glyf`/`loca`) with any contours —
/// 1- and 2-point contours, zero area, self-intersections, coordinates at the 16-bit limits, tens of
/// thousands of points, composite glyphs that refer to themselves — and bare CFF (Type 2 charstrings).
/// Only what FreeType needs to open a face is written; no font file is checked in.
public enum TinyFont {
    /// One point of a TrueType contour, in font units (y-up).
    public struct P {
        public var x: Int, y: Int, on: Bool
        public init(x: Int, y: Int, on: Bool = true) { self.x = x; self.y = y; self.on = on }
    }

    public enum Glyph {
        /// No outline (a space).
        case empty
            /// Simple glyph: contours of points (coordinates are written as 16-bit deltas; consecutive points
        /// must differ by at most ±32767 in each coordinate, and the box must fit 16 bits).
        case simple([[P]])
        /// Composite glyph: components (glyph id, offset).
        case composite([(glyph: Int, dx: Int, dy: Int)])
        /// Raw `glyf` bytes for the glyph.
        case raw([UInt8])
    }

    // MARK: TrueType

    /// A TrueType font with `glyphs` (glyph 0 first), `unitsPerEm` units per em, every advance 600, and
    /// `extraTables` (tag, bytes) as given (`COLR`, `CPAL`, …).
    public static func trueType(_ glyphs: [Glyph], unitsPerEm: Int = 1000, extraTables: [(String, [UInt8])] = []) -> [UInt8] {
        var glyf: [UInt8] = []
        var loca: [Int] = []
        var maxPoints = 0, maxContours = 0
        var box = (xMin: 0, yMin: 0, xMax: 0, yMax: 0)
        var lsb: [Int] = []                 // = each glyph's xMin, as FreeType shifts outlines to match it
        for g in glyphs {
            loca.append(glyf.count)
            lsb.append(0)
            switch g {
            case .empty: break
            case .raw(let bytes): glyf += bytes
            case .simple(let contours):
                let pts = contours.flatMap { $0 }
                maxPoints = max(maxPoints, pts.count); maxContours = max(maxContours, contours.count)
                let xs = pts.map(\.x), ys = pts.map(\.y)
                let b = (xs.min() ?? 0, ys.min() ?? 0, xs.max() ?? 0, ys.max() ?? 0)
                box = (min(box.xMin, b.0), min(box.yMin, b.1), max(box.xMax, b.2), max(box.yMax, b.3))
                lsb[lsb.count - 1] = b.0
                glyf.i16(contours.count)
                glyf.i16(b.0); glyf.i16(b.1); glyf.i16(b.2); glyf.i16(b.3)
                var end = -1
                for c in contours { end += c.count; glyf.u16(end) }
                glyf.u16(0)                                           // no instructions
                for p in pts { glyf.append(p.on ? 1 : 0) }            // 16-bit x and y deltas
                var last = 0
                for p in pts { glyf.i16(p.x - last); last = p.x }
                last = 0
                for p in pts { glyf.i16(p.y - last); last = p.y }
            case .composite(let parts):
                glyf.i16(-1)
                glyf.i16(0); glyf.i16(0); glyf.i16(600); glyf.i16(800)
                for (k, part) in parts.enumerated() {
                    // ARG_1_AND_2_ARE_WORDS | ARGS_ARE_XY_VALUES, MORE_COMPONENTS except on the last.
                    glyf.u16(0x0003 | (k < parts.count - 1 ? 0x0020 : 0))
                    glyf.u16(part.glyph)
                    glyf.i16(part.dx); glyf.i16(part.dy)
                }
            }
            while glyf.count % 4 != 0 { glyf.append(0) }
        }
        loca.append(glyf.count)

        var head: [UInt8] = []
        head.u32(0x0001_0000); head.u32(0x0001_0000); head.u32(0); head.u32(0x5F0F_3CF5)
        head.u16(0x000B); head.u16(unitsPerEm)
        head += [UInt8](repeating: 0, count: 16)                  // created, modified
        head.i16(box.xMin); head.i16(box.yMin); head.i16(box.xMax); head.i16(box.yMax)
        head.u16(0); head.u16(8); head.i16(2); head.i16(1); head.i16(0)   // macStyle, lowestRecPPEM, hint, long loca, format
        var hhea: [UInt8] = []
        hhea.u32(0x0001_0000); hhea.i16(800); hhea.i16(-200); hhea.i16(0); hhea.u16(600)
        hhea.i16(0); hhea.i16(0); hhea.i16(600); hhea.i16(1); hhea.i16(0); hhea.i16(0)
        hhea += [UInt8](repeating: 0, count: 8); hhea.i16(0); hhea.u16(glyphs.count)
        var maxp: [UInt8] = []
        maxp.u32(0x0001_0000); maxp.u16(glyphs.count); maxp.u16(min(maxPoints, 0xFFFF)); maxp.u16(maxContours)
        maxp.u16(0); maxp.u16(0); maxp.u16(2); maxp.u16(0); maxp.u16(0); maxp.u16(0); maxp.u16(0)
        maxp.u16(0); maxp.u16(0); maxp.u16(4); maxp.u16(4)
        var hmtx: [UInt8] = []
        for l in lsb { hmtx.u16(600); hmtx.i16(l) }
        var locaBytes: [UInt8] = []
        for o in loca { locaBytes.u32(o) }
        return sfnt(version: 0x0001_0000, tables: [("glyf", glyf), ("head", head), ("hhea", hhea), ("hmtx", hmtx),
                                                   ("loca", locaBytes), ("maxp", maxp)] + extraTables)
    }

    /// An sfnt wrapper: table directory (tags sorted) and 4-byte aligned tables.
    public static func sfnt(version: UInt32, tables: [(String, [UInt8])]) -> [UInt8] {
        let sorted = tables.sorted { $0.0 < $1.0 }
        var out: [UInt8] = []
        out.u32(Int(version)); out.u16(sorted.count); out.u16(0); out.u16(0); out.u16(0)
        var offset = 12 + 16 * sorted.count
        var data: [UInt8] = []
        for (tag, bytes) in sorted {
            out += Array(tag.utf8)
            out.u32(checksum(bytes)); out.u32(offset); out.u32(bytes.count)
            data += bytes
            while data.count % 4 != 0 { data.append(0) }
            offset = 12 + 16 * sorted.count + data.count
        }
        return out + data
    }

    public static func checksum(_ b: [UInt8]) -> Int {
        var sum: UInt32 = 0
        var i = 0
        while i < b.count {
            var word: UInt32 = 0
            for k in 0..<4 { word = word << 8 | UInt32(i + k < b.count ? b[i + k] : 0) }
            sum &+= word
            i += 4
        }
        return Int(sum)
    }

    /// The byte range of table `tag` in a font made by `trueType`.
    public static func table(_ tag: String, in font: [UInt8]) -> Range<Int>? {
        func u16(_ i: Int) -> Int { Int(font[i]) << 8 | Int(font[i + 1]) }
        func u32(_ i: Int) -> Int { u16(i) << 16 | u16(i + 2) }
        for t in 0..<u16(4) where String(decoding: font[(12 + 16 * t)..<(16 + 16 * t)], as: UTF8.self) == tag {
            return u32(12 + 16 * t + 8)..<(u32(12 + 16 * t + 8) + u32(12 + 16 * t + 12))
        }
        return nil
    }

    // MARK: Bare CFF

    /// A bare CFF font (FreeType opens these without an sfnt wrapper; 1000 units per em) whose glyph `i` is
    /// drawn by the Type 2 charstring `charstrings[i]` (use `cffSquare` or hand-made bytes).
    public static func cff(_ charstrings: [[UInt8]]) -> [UInt8] {
        func index(_ items: [[UInt8]]) -> [UInt8] {
            var out: [UInt8] = []
            out.u16(items.count)
            guard !items.isEmpty else { return out }
            out.append(4)                                            // offSize 4
            var off = 1
            out.u32(off)
            for it in items { off += it.count; out.u32(off) }
            for it in items { out += it }
            return out
        }
        func dictInt(_ v: Int) -> [UInt8] {                          // 5-byte integer operand
            [29, UInt8(truncatingIfNeeded: v >> 24), UInt8(truncatingIfNeeded: v >> 16),
             UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
        }
        let header: [UInt8] = [1, 0, 4, 4]
        let name = index([Array("InkHitTiny".utf8)])
        let strings = index([])
        let globalSubrs = index([])
        let charStrings = index(charstrings)
        let priv: [UInt8] = [139, 20, 139, 21]                       // defaultWidthX 0, nominalWidthX 0
        // Top DICT: CharStrings (17) and Private (18) offsets; its size does not depend on their values.
        func topDict(_ charStringsOffset: Int, _ privateOffset: Int) -> [UInt8] {
            dictInt(charStringsOffset) + [17] + dictInt(priv.count) + dictInt(privateOffset) + [18]
        }
        let topSize = index([topDict(0, 0)]).count
        let charStringsOffset = header.count + name.count + topSize + strings.count + globalSubrs.count
        let privateOffset = charStringsOffset + charStrings.count
        let top = index([topDict(charStringsOffset, privateOffset)])
        return header + name + top + strings + globalSubrs + charStrings + priv
    }

    /// A Type 2 number operand.
    public static func cffNumber(_ v: Int) -> [UInt8] {
        if (-107...107).contains(v) { return [UInt8(v + 139)] }
        return [28, UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }

    /// A charstring drawing the closed polygon `points` (absolute font units), then `endchar`.
    public static func cffPolygon(_ points: [(Int, Int)]) -> [UInt8] {
        guard let first = points.first else { return [14] }
        var out = cffNumber(first.0) + cffNumber(first.1) + [21]    // rmoveto
        var last = first
        for p in points.dropFirst() {
            out += cffNumber(p.0 - last.0) + cffNumber(p.1 - last.1) + [5]   // rlineto
            last = p
        }
        return out + [14]
    }
}

extension Array where Element == UInt8 {
    /// Appends `v` as a big-endian 16-bit word (the low 16 bits).
    public mutating func u16(_ v: Int) { append(UInt8(truncatingIfNeeded: v >> 8)); append(UInt8(truncatingIfNeeded: v)) }
    /// Appends `v` as a big-endian signed 16-bit word.
    public mutating func i16(_ v: Int) { u16(v) }
    /// Appends `v` as a big-endian 32-bit word (the low 32 bits).
    public mutating func u32(_ v: Int) { u16(v >> 16); u16(v) }
}
