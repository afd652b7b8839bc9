import InkGeometry

// Encoding the raster's tiles: per page cell, the stamps of the placements it lists (topmost first) are read as
// bit planes of 64 cells and accumulated (`PlaneAccumulator`); the accumulated planes give each cell's 4-bit code
// by bit logic (`PlaneAccumulator.encode`). Page cells of 8 × 8 raster cells — text sizes — take one word a
// plane, and stamps at most 24 cells wide give a row of 8 cells in one shifted load (`Stamp.packed`).

extension ClassRaster {
    /// What the encoder reads: per placement where its stamp lies, the stamps, and the page grid's lists.
    struct TileLists {
        let placed: UnsafePointer<Placed>
        let refs: UnsafePointer<StampRef>?
        let starts: UnsafePointer<UInt32>
        let entries: UnsafePointer<UInt32>
    }

    /// The planes of 64 raster cells accumulated over a page cell's list: cells touched once (`t1`) and twice or
    /// more (`t2`), near once (`n1`) and more (`n2`), which of the first four list items touch or are near
    /// (two bits each: `it0`/`it1`, `in0`/`in1`), and whether an item beyond the fourth does (`ovT`, `ovN`).
    struct PlaneAccumulator {
        var t1: UInt64 = 0, t2: UInt64 = 0, n1: UInt64 = 0, n2: UInt64 = 0
        var it0: UInt64 = 0, it1: UInt64 = 0, in0: UInt64 = 0, in1: UInt64 = 0, ovT: UInt64 = 0, ovN: UInt64 = 0

        /// Adds list item `k`'s touch and near planes.
        @inline(__always) mutating func add(touch tw: UInt64, near nw: UInt64, item k: Int) {
            t2 |= t1 & tw; t1 |= tw
            n2 |= n1 & nw; n1 |= nw
            if k < 4 {
                if k & 1 != 0 { it0 |= tw; in0 |= nw }
                if k & 2 != 0 { it1 |= tw; in1 |= nw }
            } else {
                ovT |= tw; ovN |= nw
            }
        }

        /// The codes of the 64 cells → 32 bytes of nibbles at `dst` (`bytes` of them: fewer for tiles under 64
        /// cells). See the table in ClassRaster.swift.
        @inline(__always) func encode(into dst: UnsafeMutablePointer<UInt8>, bytes: Int) {
            let mixed = t2 | (t1 & ovT)
            let tOne = t1 & ~mixed
            let empty = ~t1
            let nOne = empty & n1 & ~n2 & ~ovN
            let nMany = empty & n1 & ~nOne
            let b3 = tOne
            let b2 = nOne | (tOne & n2)
            let b1 = (tOne & it1) | (nOne & in1) | mixed
            let b0 = (tOne & it0) | (nOne & in0) | nMany
            var chunk = 0
            while chunk * 8 < bytes {
                let sh = UInt64(chunk * 16)
                let v = spread((b0 &>> sh) & 0xFFFF) | spread((b1 &>> sh) & 0xFFFF) &<< 1
                    | spread((b2 &>> sh) & 0xFFFF) &<< 2 | spread((b3 &>> sh) & 0xFFFF) &<< 3
                let n = min(8, bytes - chunk * 8)
                if n == 8 {
                    UnsafeMutableRawPointer(dst + chunk * 8).storeBytes(of: v.littleEndian, as: UInt64.self)
                } else {
                    withUnsafeBytes(of: v.littleEndian) { src in for i in 0..<n { dst[chunk * 8 + i] = src[i] } }
                }
                chunk += 1
            }
        }
    }

    /// Encodes every tile of the grid into `out` (`g.tileBytes` per page cell).
    static func encode(_ g: Geometry, grid: HitIndex.PageGrid, tiles: TileLists, into out: UnsafeMutablePointer<UInt8>) {
        let wordsPerPlane = max(1, g.m * g.m / 64)
        var accumulators = [PlaneAccumulator](repeating: PlaneAccumulator(), count: wordsPerPlane)
        var touch = [UInt64](repeating: 0, count: wordsPerPlane), near = touch
        for ty in 0..<grid.ny {
            for tx in 0..<grid.nx {
                let tile = ty &* grid.nx &+ tx
                let block = out + tile &* g.tileBytes
                let lo = Int(tiles.starts[tile]), hi = Int(tiles.starts[tile + 1])
                if lo == hi {
                    block.initialize(repeating: 0, count: g.tileBytes)
                    continue
                }
                if g.m == 8 {
                    var acc = PlaneAccumulator()
                    for k in 0..<(hi - lo) {
                        let (tw, nw) = planes8(tiles.placed[Int(tiles.entries[lo + k])], tiles.refs, tx: tx, ty: ty)
                        acc.add(touch: tw, near: nw, item: k)
                    }
                    acc.encode(into: block, bytes: 32)
                    continue
                }
                for w in 0..<wordsPerPlane { accumulators[w] = PlaneAccumulator() }
                for k in 0..<(hi - lo) {
                    planes(tiles.placed[Int(tiles.entries[lo + k])], tiles.refs, g, tx: tx, ty: ty, touch: &touch, near: &near)
                    for w in 0..<wordsPerPlane { accumulators[w].add(touch: touch[w], near: near[w], item: k) }
                }
                for w in 0..<wordsPerPlane {
                    accumulators[w].encode(into: block + w * 32, bytes: min(32, g.tileBytes - w * 32))
                }
            }
        }
    }

    /// A placement's touch and near planes over page cell (tx, ty) of 8 × 8 raster cells: one word each, a
    /// stamp row's 8 cells one byte of it; the whole page cell for a placement without a stamp.
    @inline(__always) static func planes8(_ pp: Placed, _ refs: UnsafePointer<StampRef>?, tx: Int, ty: Int) -> (UInt64, UInt64) {
        guard pp.stamp >= 0, let pl = refs?[Int(pp.stamp)] else { return (~0, ~0) }
        var tw: UInt64 = 0, nw: UInt64 = 0
        let bits = pl.bits
        let x = tx &* 8 &- pp.baseX, yTop = ty &* 8 &- pp.baseY
        let r0 = max(0, -yTop), r1 = min(7, pl.height - 1 - yTop)
        guard r0 <= r1 && x < pl.width && x > -8 else { return (0, 0) }
        let nearRows = bits + pl.height &* pl.words
        if let packed = pl.packed {
            // Both planes in one word per row: shift right by x (or left by −x), 8 cells a row.
            let sr = UInt64(max(x, 0)), sl = UInt64(max(-x, 0))
            var row = packed + (yTop &+ r0)
            var sh = UInt64(r0 &* 8)
            for _ in r0...r1 {
                let v = (row.pointee &>> sr) &<< sl
                tw |= (v & 0xFF) &<< sh
                nw |= ((v &>> 32) & 0xFF) &<< sh
                row += 1; sh &+= 8
            }
        } else {
            for r in r0...r1 {
                let row = (yTop &+ r) &* pl.words
                tw |= Stamp.extract(bits + row, words: pl.words, width: pl.width, from: x, count: 8) &<< UInt64(r &* 8)
                nw |= Stamp.extract(nearRows + row, words: pl.words, width: pl.width, from: x, count: 8) &<< UInt64(r &* 8)
            }
        }
        return (tw, nw)
    }

    /// A placement's touch and near planes over page cell (tx, ty) of m × m raster cells (m a power of two,
    /// 2...64), rows packed into words of 64 cells, into `touch` and `near`; the whole page cell for a placement
    /// without a stamp.
    static func planes(_ pp: Placed, _ refs: UnsafePointer<StampRef>?, _ g: Geometry, tx: Int, ty: Int,
                       touch: inout [UInt64], near: inout [UInt64]) {
        let m = g.m, words = touch.count
        guard pp.stamp >= 0, let pl = refs?[Int(pp.stamp)] else {
            let full: UInt64 = m * m >= 64 ? ~0 : (1 &<< UInt64(m * m)) &- 1
            for w in 0..<words { touch[w] = full; near[w] = full }
            return
        }
        for w in 0..<words { touch[w] = 0; near[w] = 0 }
        let bits = pl.bits
        let x = tx * m - pp.baseX, yTop = ty * m - pp.baseY
        let r0 = max(0, -yTop), r1 = min(m - 1, pl.height - 1 - yTop)
        guard r0 <= r1 else { return }
        let nearRows = bits + pl.height * pl.words
        for r in r0...r1 {
            let bit = r * m, row = (yTop + r) * pl.words
            touch[bit >> 6] |= Stamp.extract(bits + row, words: pl.words, width: pl.width, from: x, count: m) &<< UInt64(bit & 63)
            near[bit >> 6] |= Stamp.extract(nearRows + row, words: pl.words, width: pl.width, from: x, count: m) &<< UInt64(bit & 63)
        }
    }

    /// Bit i of the low 16 bits → bit 4i.
    @inline(__always) static func spread(_ x: UInt64) -> UInt64 {
        spread8[Int(x & 0xFF)] | spread8[Int((x &>> 8) & 0xFF)] &<< 32
    }

    /// Bit i of a byte → bit 4i.
    static let spread8: [UInt64] = (0..<256).map { b in
        var v: UInt64 = 0
        for i in 0..<8 where b & (1 << i) != 0 { v |= 1 << UInt64(4 * i) }
        return v
    }
}
