import InkGeometry

// The class raster: a page-sized grid of small square view cells (4 bits each, tile by tile: one tile per page
// cell) saying, conservatively, what may lie in or near each cell, so that most queries end after one load.
//
// Per cell, from the placements listed in its page cell (topmost first; their position there is `k`):
//
// | code | meaning | r = 0 | 0 < r ≤ prepared radius |
// |---|---|---|---|
// | 0 `far` | no ink within the prepared radius R of any point of the cell | miss | miss |
// | 1 `nearMany` | no ink in the cell; ink of two or more placements within R | miss | distances of the cell's list |
// | 2 `mixed` | ink of two or more placements may meet the cell | the cell's list | the cell's list |
// | 4 + k `nearOne` | no ink in the cell; only placement k has ink within R | miss | distance of k |
// | 8 + k `touchOne` | only k's ink may meet the cell, and only k's is within R | winding of k | k alone |
// | 12 + k `touchMany` | only k's ink may meet the cell; others' within R | winding of k | k's winding, then distances |
//
// "May meet" and "within R" are supersets of the truth: a cell grown on every side by a margin (the phase bucket
// of the placement's stamp, see below, and the rounding of the query path) is tested against the placement's
// stored edges. So `far` and `nearOne` are exact answers, and `touch*` name the only placement whose ink can
// contain a point of the cell.
//
// Each placed shape contributes a *stamp*: its touch and near bit planes on the raster's lattice, computed for
// the shape's linear map and for one of Q × Q sub-cell positions (phase buckets) of its translation, with cells
// grown by half a bucket so that the stamp holds for every position in its bucket. Stamps are cached in the
// shape (`StampCache`), so an index of the same shapes at the same size builds its raster by copying bits.

/// The class raster's parameters.
enum ClassRaster {
    /// Raster cells are at least this wide, view px (4 bits per px²: half the bytes of a 1× coverage bitmap).
    static let minCell = 1.0
    /// No raster for page cells wider than this (view px): glyphs that large (or layouts that sparse) keep the
    /// two-level grid alone.
    static let maxTile = 256.0
    /// Most raster cells per page-cell side.
    static let maxCellsPerTile = 64
    /// Phase buckets per axis: stamps hold for translations within 1/(2Q) cell of their bucket's centre.
    static let phases = 4
    /// Most cells one stamp may cover; a placement whose footprint is larger marks its page cells `mixed`.
    static let maxStampCells = 1 << 20
    /// Most bytes of raster per placement with ink (beyond a floor of 64 KiB): over it, cells get coarser.
    static let maxBytesPerPlacement = 512

    static let far: UInt8 = 0, nearMany: UInt8 = 1, mixed: UInt8 = 2

    /// Margin (view px) by which cells are grown against the rounding of the query path (Float32 inverse and
    /// anchor, ~1e-7 of the glyph's size plus its distance and page cell) and of view coordinates (±1e9 px
    /// at most: 4 ulp ≈ 5e-7 px).
    static func margin(extent: Double, radius: Double) -> Double { 1e-5 * (extent + radius + maxTile) + 1e-4 }
}

// MARK: - Stamps

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
    var byteCount: Int { (2 * words + (packed == nil ? 0 : 1)) * height * 8 + 64 }

    init(i0: Int, j0: Int, width: Int, height: Int, words: Int, bits: [UInt64]) {
        self.i0 = i0; self.j0 = j0; self.width = width; self.height = height; self.words = words
        self.bits = .allocate(capacity: max(1, bits.count))
        self.bits.initialize(from: bits, count: bits.count)
        if width <= 24 {
            let p = UnsafeMutablePointer<UInt64>.allocate(capacity: max(1, height))
            for j in 0..<height { p[j] = bits[j] | bits[height + j] &<< 32 }
            packed = p
        } else {
            packed = nil
        }
    }

    deinit { bits.deallocate(); packed?.deallocate() }

    /// The stamp of `edges` (shape units) under the linear map (a, b, c, d), on a lattice of `cell` view px,
    /// with the shape's origin at (`phaseX`, `phaseY`) cells from its base cell; cells grown by `grow` cells on
    /// every side; `near` within `radius` view px. Nil when it would cover more than `maxCells` cells.
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

/// The stamps of one shape, per (linear map, cell, radius) and phase bucket; filled by the indexes that need
/// them. Bounded: at most `maxSets` linear maps per shape (the oldest set is dropped for a new one), and a
/// stamp is never larger than `ClassRaster.maxStampCells` cells.
final class StampCache: @unchecked Sendable {
    static let maxSets = 4

    struct Key: Hashable {
        var a: UInt64, b: UInt64, c: UInt64, d: UInt64, cell: UInt64, radius: UInt64
    }

    private final class Entry {
        let key: Key
        var stamps: [Stamp?]
        var made: [Bool]
        init(key: Key, buckets: Int) {
            self.key = key
            stamps = [Stamp?](repeating: nil, count: buckets)
            made = [Bool](repeating: false, count: buckets)
        }
    }

    private let lock = Lock()
    private var entries: [Entry] = []

    /// The stamp for `key` and `bucket`, made by `make` (outside the lock) the first time. Nil when `make`
    /// returned nil (the footprint is too large).
    func stamp(_ key: Key, bucket: Int, buckets: Int, make: () -> Stamp?) -> Stamp? {
        let found: (Bool, Stamp?) = lock.withLock {
            if let e = entries.first(where: { $0.key == key }), e.made[bucket] { return (true, e.stamps[bucket]) }
            return (false, nil)
        }
        if found.0 { return found.1 }
        let s = make()
        return lock.withLock {
            let e: Entry
            if let old = entries.first(where: { $0.key == key }) { e = old } else {
                e = Entry(key: key, buckets: buckets)
                if entries.count >= Self.maxSets { entries.removeFirst() }
                entries.append(e)
            }
            if !e.made[bucket] { e.stamps[bucket] = s; e.made[bucket] = true }
            return e.stamps[bucket]
        }
    }

    /// The stamps made so far for `key`, into `stamps[0..<buckets]` with `made` set for each (one lock).
    func copy(_ key: Key, buckets: Int, into stamps: UnsafeMutablePointer<Stamp?>, made: UnsafeMutablePointer<Bool>) {
        lock.withLock {
            guard let e = entries.first(where: { $0.key == key }) else { return }
            for b in 0..<buckets where e.made[b] { stamps[b] = e.stamps[b]; made[b] = true }
        }
    }

    /// Number of linear maps with stamps.
    var setCount: Int { lock.withLock { entries.count } }

    /// Bytes of the cached stamps.
    var byteCount: Int {
        lock.withLock { entries.reduce(0) { $0 + $1.stamps.reduce(0) { $0 + ($1?.byteCount ?? 0) } } }
    }
}

// MARK: - Building the raster

extension ClassRaster {
    /// The raster's geometry: `m` cells per page-cell side (a power of two), cell side `cell` view px.
    struct Geometry {
        var m: Int, shift: Int, cell: Double
        var tileBytes: Int { max(1, m * m / 2) }
    }

    /// The geometry for a page grid, or nil when the grid gets no raster.
    /// Placements without a full form (`stamped` counts those with one) get no stamp and make their page
    /// cells `mixed` or `touch`: a raster pays only when at least half the placements have stamps.
    static func geometry(_ grid: HitIndex.PageGrid, inked: Int, stamped: Int) -> Geometry? {
        guard inked > 0, stamped * 2 >= inked, grid.nx > 0, grid.cellSize <= maxTile else { return nil }
        var m = 2
        while m < maxCellsPerTile && grid.cellSize / Double(2 * m) >= minCell { m *= 2 }
        // Coarser cells while over the byte cap; none at all when even 2 × 2 per page cell is over.
        let cap = Double(max(1 << 16, maxBytesPerPlacement * inked))
        func bytes(_ m: Int) -> Double { Double(grid.nx) * Double(grid.ny) * Double(max(1, m * m / 2)) }
        while m > 2 && bytes(m) > cap { m /= 2 }
        guard bytes(m) <= cap else { return nil }
        return Geometry(m: m, shift: m.trailingZeroBitCount, cell: grid.cellSize / Double(m))
    }

    /// A stamp's rows, for the tile loop.
    struct StampRef {
        var bits: UnsafePointer<UInt64>
        var packed: UnsafePointer<UInt64>?
        var words: Int, width: Int, height: Int
    }

    /// Where a placement's stamp lies on the raster: the stamp (an index into the build's `StampRef`s, -1:
    /// none — no ink, or a footprint over the cap) and the raster cell of its bit (0, 0). 24 bytes, so a
    /// build's scratch stays small (it is mapped afresh by some allocators every build).
    struct Placed {
        var stamp: Int32 = -1
        var baseX = 0, baseY = 0
    }

    /// Builds the raster: one block of `tileBytes` per page cell, cells as nibbles (see the table above).
    static func build(_ g: Geometry, grid: HitIndex.PageGrid, items: [HitIndex.Builder.Item], table: HitIndex.PlacementTable,
                      radius: Double, starts: [UInt32], entries: [UInt32], into out: UnsafeMutablePointer<UInt8>) {
        let cell = g.cell
        let q = phases
        // Stamps of each (shape, map) pair, by bucket, fetched once per build; kept alive by `held`.
        let shapeCount = table.shapes.count, mapCount = table.maps.count
        let direct = shapeCount * mapCount <= 1 << 16
        var pairOf = [Int32](repeating: -1, count: direct ? shapeCount * mapCount : 0)
        var pairSlots: [Int: Int] = [:]
        var pairStamps: [Stamp?] = [], pairMade: [Bool] = []
        var pairRef: [Int32] = []                           // per pair slot: index into `refs` (-1: none yet)
        var refs: [StampRef] = []
        var placed = [Placed](repeating: Placed(), count: items.count)
        let invCell = 1 / cell
        for k in items.indices {
            let rec = table.records[k]
            if rec.shape == UInt32.max { continue }
            // A shape read in its lean form has no stamps: its page cells take it whole.
            guard case .full(let form) = table.forms[Int(rec.shape)] else { continue }
            let pk = Int(rec.shape) &* mapCount &+ Int(rec.map)
            var pi = direct ? Int(pairOf[pk]) : (pairSlots[pk] ?? -1)
            let item = items[k]
            let t = item.transform
            if pi < 0 {
                pi = pairMade.count / (q * q)
                if direct { pairOf[pk] = Int32(pi) } else { pairSlots[pk] = pi }
                pairStamps.append(contentsOf: repeatElement(nil, count: q * q))
                pairMade.append(contentsOf: repeatElement(false, count: q * q))
                pairRef.append(contentsOf: repeatElement(-1, count: q * q))
                // Every stamp the shape already has for this map, in one look.
                let key = StampCache.Key(a: t.a.bitPattern, b: t.b.bitPattern, c: t.c.bitPattern, d: t.d.bitPattern,
                                         cell: cell.bitPattern, radius: radius.bitPattern)
                pairStamps.withUnsafeMutableBufferPointer { st in
                    pairMade.withUnsafeMutableBufferPointer { md in
                        form.stamps.copy(key, buckets: q * q, into: st.baseAddress! + pi * q * q, made: md.baseAddress! + pi * q * q)
                    }
                }
            }
            let u = (t.tx - grid.originX) * invCell, v = (t.ty - grid.originY) * invCell
            let fu = u.rounded(.down), fv = v.rounded(.down)
            let bx = min(q - 1, max(0, Int((u - fu) * Double(q)))), by = min(q - 1, max(0, Int((v - fv) * Double(q))))
            let slot = pi * q * q + by * q + bx
            if !pairMade[slot] {
                let shape = item.shape
                let box = shape.bounds.applying(AffineTransform(a: t.a, b: t.b, c: t.c, d: t.d, tx: 0, ty: 0))
                let grow = 0.5 / Double(q) + margin(extent: max(box.width, box.height), radius: radius) * invCell
                let key = StampCache.Key(a: t.a.bitPattern, b: t.b.bitPattern, c: t.c.bitPattern, d: t.d.bitPattern,
                                         cell: cell.bitPattern, radius: radius.bitPattern)
                pairStamps[slot] = form.stamps.stamp(key, bucket: by * q + bx, buckets: q * q) {
                    withExtendedLifetime(form) {
                        Stamp.make(edges: UnsafeBufferPointer(form.edges), windingMask: shape.fillRule == .nonZero ? -1 : 1,
                                   a: t.a, b: t.b, c: t.c, d: t.d, cell: cell, radius: radius,
                                   phaseX: (Double(bx) + 0.5) / Double(q), phaseY: (Double(by) + 0.5) / Double(q),
                                   grow: grow, maxCells: maxStampCells)
                    }
                }
                pairMade[slot] = true
            }
            if let st = pairStamps[slot] {
                if pairRef[slot] < 0 {
                    pairRef[slot] = Int32(refs.count)
                    refs.append(StampRef(bits: UnsafePointer(st.bits), packed: st.packed.map { UnsafePointer($0) },
                                         words: st.words, width: st.width, height: st.height))
                }
                // |u|, |v| ≤ ~2e9 / cell: within Int.
                placed[k] = Placed(stamp: pairRef[slot], baseX: Int(fu) + st.i0, baseY: Int(fv) + st.j0)
            }
        }
        withExtendedLifetime(pairStamps) {
            placed.withUnsafeBufferPointer { pl in
                starts.withUnsafeBufferPointer { st in
                    entries.withUnsafeBufferPointer { en in
                        refs.withUnsafeBufferPointer { rf in
                            if g.m == 8 {
                                encodeTiles8(grid: grid, placed: pl.baseAddress!, refs: rf.baseAddress!, starts: st.baseAddress!,
                                             entries: en.baseAddress!, into: out)
                            } else {
                                encodeTiles(g, grid: grid, placed: pl.baseAddress!, refs: rf.baseAddress!, starts: st.baseAddress!,
                                            entries: en.baseAddress!, into: out)
                            }
                        }
                    }
                }
            }
        }
    }

    /// The code planes of a word of 64 cells → 32 bytes of nibbles at `dst` (`bytes` of them: fewer for
    /// tiles under 64 cells). See the table at the top for the codes.
    @inline(__always) static func encode(t1: UInt64, t2: UInt64, n1: UInt64, n2: UInt64, it0: UInt64, it1: UInt64,
                                         in0: UInt64, in1: UInt64, ovT: UInt64, ovN: UInt64,
                                         into dst: UnsafeMutablePointer<UInt8>, bytes: Int) {
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

    /// Page cells of 8 × 8 raster cells: one word per plane, a stamp row's 8 cells one byte of it.
    static func encodeTiles8(grid: HitIndex.PageGrid, placed: UnsafePointer<Placed>, refs: UnsafePointer<StampRef>?, starts: UnsafePointer<UInt32>,
                             entries: UnsafePointer<UInt32>, into out: UnsafeMutablePointer<UInt8>) {
        for ty in 0..<grid.ny {
            for tx in 0..<grid.nx {
                let tile = ty &* grid.nx &+ tx
                let block = out + tile &* 32
                let lo = Int(starts[tile]), hi = Int(starts[tile + 1])
                if lo == hi {
                    UnsafeMutableRawPointer(block).initializeMemory(as: UInt8.self, repeating: 0, count: 32)
                    continue
                }
                var t1: UInt64 = 0, t2: UInt64 = 0, n1: UInt64 = 0, n2: UInt64 = 0
                var it0: UInt64 = 0, it1: UInt64 = 0, in0: UInt64 = 0, in1: UInt64 = 0, ovT: UInt64 = 0, ovN: UInt64 = 0
                for k in 0..<(hi - lo) {
                    let pp = placed[Int(entries[lo + k])]
                    var tw: UInt64 = ~0, nw: UInt64 = ~0             // no stamp: the whole page cell
                    if pp.stamp >= 0, let pl = refs?[Int(pp.stamp)] {
                        let bits = pl.bits
                        tw = 0; nw = 0
                        let x = tx &* 8 &- pp.baseX, yTop = ty &* 8 &- pp.baseY
                        let r0 = max(0, -yTop), r1 = min(7, pl.height - 1 - yTop)
                        if r0 <= r1 && x < pl.width && x > -8 {
                            let near = bits + pl.height &* pl.words
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
                                    nw |= Stamp.extract(near + row, words: pl.words, width: pl.width, from: x, count: 8) &<< UInt64(r &* 8)
                                }
                            }
                        }
                    }
                    t2 |= t1 & tw; t1 |= tw
                    n2 |= n1 & nw; n1 |= nw
                    if k < 4 {
                        if k & 1 != 0 { it0 |= tw; in0 |= nw }
                        if k & 2 != 0 { it1 |= tw; in1 |= nw }
                    } else {
                        ovT |= tw; ovN |= nw
                    }
                }
                encode(t1: t1, t2: t2, n1: n1, n2: n2, it0: it0, it1: it1, in0: in0, in1: in1, ovT: ovT, ovN: ovN,
                       into: block, bytes: 32)
            }
        }
    }

    /// Any page cell of m × m raster cells (m a power of two, 2...64): rows packed into words of 64 cells.
    static func encodeTiles(_ g: Geometry, grid: HitIndex.PageGrid, placed: UnsafePointer<Placed>, refs: UnsafePointer<StampRef>?, starts: UnsafePointer<UInt32>,
                            entries: UnsafePointer<UInt32>, into out: UnsafeMutablePointer<UInt8>) {
        let m = g.m
        let wordsPerPlane = max(1, m * m / 64)
        let full: UInt64 = m * m >= 64 ? ~0 : (1 &<< UInt64(m * m)) &- 1
        let a = UnsafeMutablePointer<UInt64>.allocate(capacity: 12 * wordsPerPlane)
        defer { a.deallocate() }
        let t1 = a, t2 = a + wordsPerPlane, n1 = a + 2 * wordsPerPlane, n2 = a + 3 * wordsPerPlane
        let it0 = a + 4 * wordsPerPlane, it1 = a + 5 * wordsPerPlane
        let in0 = a + 6 * wordsPerPlane, in1 = a + 7 * wordsPerPlane
        let ovT = a + 8 * wordsPerPlane, ovN = a + 9 * wordsPerPlane
        let tw = a + 10 * wordsPerPlane, nw = a + 11 * wordsPerPlane
        let tileBytes = g.tileBytes
        for ty in 0..<grid.ny {
            for tx in 0..<grid.nx {
                let tile = ty * grid.nx + tx
                let block = out + tile * tileBytes
                let lo = Int(starts[tile]), hi = Int(starts[tile + 1])
                if lo == hi { block.initialize(repeating: 0, count: tileBytes); continue }
                a.initialize(repeating: 0, count: 10 * wordsPerPlane)
                for k in 0..<(hi - lo) {
                    let pp = placed[Int(entries[lo + k])]
                    if pp.stamp >= 0, let pl = refs?[Int(pp.stamp)] {
                        let bits = pl.bits
                        tw.initialize(repeating: 0, count: wordsPerPlane); nw.initialize(repeating: 0, count: wordsPerPlane)
                        let x = tx * m - pp.baseX, yTop = ty * m - pp.baseY
                        let r0 = max(0, -yTop), r1 = min(m - 1, pl.height - 1 - yTop)
                        if r0 <= r1 {
                            let near = bits + pl.height * pl.words
                            for r in r0...r1 {
                                let bit = r * m, row = (yTop + r) * pl.words
                                tw[bit >> 6] |= Stamp.extract(bits + row, words: pl.words, width: pl.width, from: x, count: m) &<< UInt64(bit & 63)
                                nw[bit >> 6] |= Stamp.extract(near + row, words: pl.words, width: pl.width, from: x, count: m) &<< UInt64(bit & 63)
                            }
                        }
                    } else {
                        tw.initialize(repeating: full, count: wordsPerPlane); nw.initialize(repeating: full, count: wordsPerPlane)
                    }
                    for w in 0..<wordsPerPlane {
                        let t = tw[w], n = nw[w]
                        t2[w] |= t1[w] & t; t1[w] |= t
                        n2[w] |= n1[w] & n; n1[w] |= n
                        if k < 4 {
                            if k & 1 != 0 { it0[w] |= t; in0[w] |= n }
                            if k & 2 != 0 { it1[w] |= t; in1[w] |= n }
                        } else {
                            ovT[w] |= t; ovN[w] |= n
                        }
                    }
                }
                for w in 0..<wordsPerPlane {
                    encode(t1: t1[w], t2: t2[w], n1: n1[w], n2: n2[w], it0: it0[w], it1: it1[w], in0: in0[w], in1: in1[w],
                           ovT: ovT[w], ovN: ovN[w], into: block + w * 32, bytes: min(32, tileBytes - w * 32))
                }
            }
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

extension HitIndex {
    /// Not API: the class raster's code at `point` (see HitIndex+Raster.swift), -1 outside the raster, nil
    /// without one. For tests and benchmarks.
    @_spi(InkInternals) public func rasterCode(at point: Point) -> Int? {
        let s = storage
        return withExtendedLifetime(s) {
            guard let r = s.raster else { return nil }
            return s.rasterLookup(r, point.x, point.y).code
        }
    }

    /// Not API: the class raster's cell side (view px) and bytes, nil without one.
    @_spi(InkInternals) public var rasterGeometry: (cell: Double, bytes: Int)? {
        let s = storage
        guard s.raster != nil else { return nil }
        return (1 / s.invRasterCell, s.nx * s.ny * s.rasterTileBytes)
    }
}
