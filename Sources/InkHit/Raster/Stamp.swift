import InkGeometry

/// A placed shape's footprint on a raster lattice for one linear map, cell size, radius and phase bucket: the
/// cells its ink may meet (`touch`) and those within the radius of its ink (`near`), as bit rows.
final class Stamp: @unchecked Sendable {
    /// Cell of bit 0 of row 0, relative to the placement's base cell (the cell holding its translation).
    let i0: Int, j0: Int
    let width: Int, height: Int, words: Int
    /// `height` touch rows, then `height` near rows, `words` words each (bit i of a row: cell i0 + i).
    let bits: UnsafeMutablePointer<UInt64>
    /// Stamps at most 24 cells wide also keep both planes in one word per row (touch in bits 0..<32, near in
    /// 32..<64), so a page cell's row of 8 reads one word, shifted by up to 23 cells either way.
    let packed: UnsafeMutablePointer<UInt64>?
    /// Where `bits` and `packed` live.
    private let arena: Arena
    var byteCount: Int { (2 * words + (packed == nil ? 0 : 1)) * height * 8 + 64 }

    init(i0: Int, j0: Int, width: Int, height: Int, words: Int, bits: [UInt64]) {
        self.i0 = i0; self.j0 = j0; self.width = width; self.height = height; self.words = words
        var layout = Arena.Layout()
        let bitSlot = layout.reserve(UInt64.self, count: bits.count)
        let packedSlot = width <= 24 ? layout.reserve(UInt64.self, count: height) : nil
        arena = Arena(layout)
        self.bits = arena.buffer(bitSlot, from: bits).baseAddress!
        if let packedSlot {
            let p = arena.buffer(packedSlot).baseAddress!
            for j in 0..<height { p[j] = bits[j] | bits[height + j] &<< 32 }
            packed = p
        } else {
            packed = nil
        }
    }

    /// The stamp of `edges` (shape units) under the linear map (a, b, c, d), on a lattice of `cell` view px,
    /// with the shape's origin at (`phaseX`, `phaseY`) cells from its base cell; cells grown by `grow` cells on
    /// every side; `near` within `radius` view px. Nil when it would cover more than `maxCells` cells.
    /// Longer than a screen: one pass over the stamp's cells whose locals the loops share (measured build path).
    static func make(edges: UnsafeBufferPointer<FEdge>, windingMask: Int32, a: Double, b: Double, c: Double, d: Double,
                     cell: Double, radius: Double, phaseX: Double, phaseY: Double, grow δ: Double,
                     maxCells: Int) -> Stamp? {
        let n = edges.count
        guard n > 0 else { return nil }
        let inv = 1 / cell
        // Edges in cell units, relative to the base cell.
        var e = [Double](repeating: 0, count: 4 * n)
        var bx0 = Double.infinity, by0 = Double.infinity, bx1 = -Double.infinity, by1 = -Double.infinity
        for k in 0..<n {
            let f = edges[k]
            let x0 = Double(f.x0), y0 = Double(f.y0), x1 = Double(f.x1), y1 = Double(f.y1)
            let px = (a * x0 + c * y0) * inv + phaseX, py = (b * x0 + d * y0) * inv + phaseY
            let qx = (a * x1 + c * y1) * inv + phaseX, qy = (b * x1 + d * y1) * inv + phaseY
            e[4 * k] = px; e[4 * k + 1] = py; e[4 * k + 2] = qx; e[4 * k + 3] = qy
            bx0 = min(bx0, px, qx); bx1 = max(bx1, px, qx); by0 = min(by0, py, qy); by1 = max(by1, py, qy)
        }
        let rc = radius * inv
        let pad = rc + 2 * δ + 3
        guard (bx1 - bx0 + 2 * pad + 1) * (by1 - by0 + 2 * pad + 1) <= Double(maxCells) else { return nil }
        let i0 = Int((bx0 - pad).rounded(.down)), j0 = Int((by0 - pad).rounded(.down))
        let width = Int((bx1 + pad).rounded(.down)) - i0 + 1, height = Int((by1 + pad).rounded(.down)) - j0 + 1
        let words = (width + 63) >> 6
        for k in 0..<n {
            e[4 * k] -= Double(i0); e[4 * k + 2] -= Double(i0)
            e[4 * k + 1] -= Double(j0); e[4 * k + 3] -= Double(j0)
        }
        var bits = [UInt64](repeating: 0, count: 2 * words * height)
        bits.withUnsafeMutableBufferPointer { buf in
            let touch = buf.baseAddress!, near = touch + words * height
            // 1. Cells whose grown square meets an edge: per row band, the x-range of the edge within it.
            for k in 0..<n {
                let x0 = e[4 * k], y0 = e[4 * k + 1], x1 = e[4 * k + 2], y1 = e[4 * k + 3]
                let ylo = min(y0, y1), yhi = max(y0, y1)
                let ja = max(0, Int((ylo - 1 - δ).rounded(.up))), jb = min(height - 1, Int((yhi + δ).rounded(.down)))
                if ja > jb { continue }
                for j in ja...jb {
                    var xa = min(x0, x1), xb = max(x0, x1)
                    if y0 != y1 {
                        let t0 = (Double(j) - δ - y0) / (y1 - y0), t1 = (Double(j) + 1 + δ - y0) / (y1 - y0)
                        let tlo = max(0, min(t0, t1)), thi = min(1, max(t0, t1))
                        let u = x0 + (x1 - x0) * tlo, v = x0 + (x1 - x0) * thi
                        xa = min(u, v); xb = max(u, v)
                    }
                    let ia = max(0, Int((xa - 1 - δ).rounded(.up))), ib = min(width - 1, Int((xb + δ).rounded(.down)))
                    if ia <= ib { setBits(touch + j * words, ia, ib) }
                }
            }
            // 2. Cells inside the ink: the winding number at each row's centre line, between crossings.
            var xs: [(Double, Int32)] = []
            xs.reserveCapacity(16)
            for j in 0..<height {
                let yc = Double(j) + 0.5
                xs.removeAll(keepingCapacity: true)
                for k in 0..<n {
                    let y0 = e[4 * k + 1], y1 = e[4 * k + 3]
                    if (y0 <= yc && yc < y1) || (y1 <= yc && yc < y0) {
                        let x0 = e[4 * k], x1 = e[4 * k + 2]
                        xs.append((x0 + (yc - y0) * (x1 - x0) / (y1 - y0), y1 > y0 ? 1 : -1))
                    }
                }
                if xs.isEmpty { continue }
                xs.sort { $0.0 < $1.0 }
                var w: Int32 = 0
                for q in 0..<(xs.count - 1) {
                    w &+= xs[q].1
                    if w & windingMask == 0 { continue }
                    // Cells whose centre lies between the two crossings (cells holding a crossing are boundary).
                    let ia = max(0, Int((xs[q].0 - 0.5).rounded(.up))), ib = min(width - 1, Int((xs[q + 1].0 - 0.5).rounded(.down)))
                    if ia <= ib { setBits(touch + j * words, ia, ib) }
                }
            }
            // 3. Near: cells whose grown square lies within the radius of a touched cell's square.
            dilate(touch, into: near, words: words, width: width, height: height, radius: rc, grow: δ)
        }
        return Stamp(i0: i0, j0: j0, width: width, height: height, words: words, bits: bits)
    }

    /// Sets bits lo...hi of a row.
    @inline(__always) static func setBits(_ row: UnsafeMutablePointer<UInt64>, _ lo: Int, _ hi: Int) {
        var i = lo
        while i <= hi {
            let w = i >> 6, b = i & 63
            let count = min(64 - b, hi - i + 1)
            let mask: UInt64 = count == 64 ? ~0 : ((1 << UInt64(count)) - 1) << UInt64(b)
            row[w] |= mask
            i += count
        }
    }

    /// `near` = cells c with a `touch` cell t such that the square of c grown by `grow` lies within `radius`
    /// (cells) of the square of t: a disc of rows, each row dilated sideways by its half-width.
    static func dilate(_ touch: UnsafeMutablePointer<UInt64>, into near: UnsafeMutablePointer<UInt64>, words: Int,
                       width: Int, height: Int, radius rc: Double, grow δ: Double) {
        let k = Int((rc + 1 + δ).rounded(.down))
        // Half-width per row offset (−1: none).
        var half = [Int](repeating: -1, count: k + 1)
        for dj in 0...k {
            let gy = max(Double(dj) - 1 - δ, 0)
            if gy > rc { continue }
            half[dj] = Int((1 + δ + (rc * rc - gy * gy).squareRoot()).rounded(.down))
        }
        if k > 24 {
            // A wide radius: the square (a superset) is cheaper than the disc.
            for dj in 0...k { half[dj] = half[0] }
        }
        // Each touch row dilated once per distinct half-width.
        var widths: [Int] = []
        for h in half where h >= 0 && !widths.contains(h) { widths.append(h) }
        var dilated = [UInt64](repeating: 0, count: widths.count * words * height)
        var tmp = [UInt64](repeating: 0, count: words)
        dilated.withUnsafeMutableBufferPointer { dbuf in
            tmp.withUnsafeMutableBufferPointer { t in
                for (wi, h) in widths.enumerated() {
                    for j in 0..<height {
                        dilateRow(touch + j * words, into: dbuf.baseAddress! + (wi * height + j) * words, words: words, by: h, tmp: t.baseAddress!)
                    }
                }
            }
            for j in 0..<height {
                let out = near + j * words
                for dj in -k...k {
                    let h = half[abs(dj)]
                    let src = j + dj
                    if h < 0 || src < 0 || src >= height { continue }
                    let row = dbuf.baseAddress! + (widths.firstIndex(of: h)! * height + src) * words
                    for w in 0..<words { out[w] |= row[w] }
                }
            }
        }
        // Bits beyond the width stay clear.
        let extra = words * 64 - width
        if extra > 0 {
            let mask: UInt64 = ~0 >> UInt64(extra)
            for j in 0..<height { near[j * words + words - 1] &= mask }
        }
    }

    /// out = row dilated sideways by `by` cells (OR of its shifts −by...by).
    static func dilateRow(_ row: UnsafeMutablePointer<UInt64>, into out: UnsafeMutablePointer<UInt64>, words: Int, by: Int,
                          tmp: UnsafeMutablePointer<UInt64>) {
        for w in 0..<words { out[w] = row[w] }
        var covered = 0
        while covered < by {                // toward higher bits
            let step = min(covered + 1, by - covered)
            shift(out, into: tmp, words: words, by: step)
            for w in 0..<words { out[w] |= tmp[w] }
            covered += step
        }
        covered = 0
        while covered < by {                // toward lower bits
            let step = min(covered + 1, by - covered)
            shift(out, into: tmp, words: words, by: -step)
            for w in 0..<words { out[w] |= tmp[w] }
            covered += step
        }
    }

    /// out = row shifted by `by` bits (positive: toward higher bit indices).
    @inline(__always) static func shift(_ row: UnsafeMutablePointer<UInt64>, into out: UnsafeMutablePointer<UInt64>,
                                        words: Int, by: Int) {
        let q = abs(by) >> 6, b = UInt64(abs(by) & 63)
        for w in 0..<words {
            if by >= 0 {
                let src = w - q
                var v: UInt64 = src >= 0 ? row[src] << b : 0
                if b > 0 && src - 1 >= 0 { v |= row[src - 1] >> (64 - b) }
                out[w] = v
            } else {
                let src = w + q
                var v: UInt64 = src < words ? row[src] >> b : 0
                if b > 0 && src + 1 < words { v |= row[src + 1] << (64 - b) }
                out[w] = v
            }
        }
    }

    /// `count` (≤ 64) bits of row `r` of a plane (0: touch, 1: near) starting at cell `from` (any integer;
    /// cells outside the stamp read as 0).
    @inline(__always) func extract(plane: Int, row r: Int, from: Int, count: Int) -> UInt64 {
        Stamp.extract(bits + (plane * height + r) * words, words: words, width: width, from: from, count: count)
    }

    /// `count` (≤ 64) bits of a row of `words` words and `width` cells, from cell `from` (outside: 0).
    @inline(__always) static func extract(_ row: UnsafePointer<UInt64>, words: Int, width: Int, from: Int, count: Int) -> UInt64 {
        if from >= width || from + count <= 0 { return 0 }
        var v: UInt64
        if from >= 0 {
            let w = from &>> 6, b = UInt64(from & 63)
            v = row[w] &>> b
            if b > 0 && w + 1 < words { v |= row[w + 1] &<< (64 - b) }
        } else {
            v = row[0] &<< UInt64(-from)             // 0 < -from < count ≤ 64
        }
        return count == 64 ? v : v & ((1 &<< UInt64(count)) &- 1)
    }
}
