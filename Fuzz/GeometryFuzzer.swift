// Structure-aware fuzzer for InkGeometry + InkHit (fontations' fuzz_skrifa_outline.rs style): the input
// bytes decode into outline-sink calls, a flattening tolerance, grid limits, placements with transforms
// (degenerate and non-finite included), radii and query points. Every call must return a typed error or
// an answer, and the answers must agree with brute force over the shape's stored edges — the library's one
// oracle, `BruteForce` (Tests/InkTestSupport/BruteForce.swift, compiled in by scripts/fuzz.sh):
// - GlyphShape: winding == brute-force winding, distance == brute-force distance (away from edges);
// - HitIndex: contains / hit / allHits agree with brute force in view space away from decision boundaries
//   (where the nearest placement is clear of the tie rule's window, hit() picks the oracle's placement);
//   allHits only grow with the radius; hit() is consistent with allHits(); the batch calls (hits(for:),
//   hits(for:into:), concurrentHits) answer exactly as hit(at:) does point by point.
// Build: scripts/fuzz.sh. Run one input: .build-fuzz/bin/geometry-fuzzer FILE.

#if canImport(Glibc)
import Glibc
#endif
import InkGeometry
@_spi(RawBuffers) import InkHit

@_cdecl("LLVMFuzzerTestOneInput")
public func geometryFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    var r = ByteReader(UnsafeBufferPointer(start: data, count: size))
    GeometryFuzz.run(&r)
    return 0
}

enum GeometryFuzz {
    /// Small enough for ~100 inputs/s: a shape's grid costs up to ~10 kB per edge (reported as unbounded).
    static let maxEdges = 2048
    static let maxOps = 400

    static func run(_ r: inout ByteReader) {
        let mode = r.u8()
        let tolerance = r.magnitude()
        // 1 and 2 cells per axis are left out: a known InkHit issue (reported; regression test
        // ShapeGridHostileTests.windingIsRightWithTinyGridLimits) makes their winding wrong.
        let cellsPerAxis = [192, 3, 4, 7, 8, 1024, 5, 64][Int(r.u8() % 8)]
        let limits = ShapeLimits(maxEdges: maxEdges, maxCellsPerAxis: cellsPerAxis)

        // 1. The outline, as sink calls (also kept as raw contours for the polygon initializer).
        var elements: [PathElement] = []
        var contours: [[Point]] = [[]]
        var ops = 0
        while !r.isAtEnd && ops < maxOps && r.u8() & 0x80 == 0 {
            ops += 1
            switch r.u8() % 6 {
            case 0: let p = r.point(); elements.append(.move(p)); contours.append([p])
            case 1, 5: let p = r.point(); elements.append(.line(p)); contours[contours.count - 1].append(p)
            case 2:
                let c = r.point(), p = r.point()
                elements.append(.quad(control: c, to: p)); contours[contours.count - 1].append(p)
            case 3:
                let c1 = r.point(), c2 = r.point(), p = r.point()
                elements.append(.cubic(control1: c1, control2: c2, to: p)); contours[contours.count - 1].append(p)
            default: elements.append(.close); contours.append([])
            }
        }

        fuzzContext = ["mode \(mode) tolerance \(tolerance) cells/axis \(cellsPerAxis)", "elements \(elements)"]
        let shape: GlyphShape
        do {
            if mode & 1 == 0 {
                shape = try GlyphShape(elements: elements, tolerance: tolerance, limits: limits)
            } else {
                shape = try GlyphShape(polygon: Polygon(contours: contours), tolerance: tolerance.isFinite ? abs(tolerance) : 0,
                                       limits: limits)
            }
        } catch {
            // Typed throws: only a ShapeError can get here.
            if error.description.isEmpty { violated("empty ShapeError message") }
            return
        }
        fuzzContext.append("shape: \(shape.edgeCount) edges, tolerance \(shape.tolerance), bounds \(shape.bounds)")
        checkShape(shape, &r)
        checkIndex(shape, &r)
    }

    // MARK: GlyphShape against brute force

    static func checkShape(_ shape: GlyphShape, _ r: inout ByteReader) {
        let edges = shape.storedEdges
        if edges.count != shape.edgeCount { violated("storedEdges.count != edgeCount") }
        if edges.count > maxEdges { violated("more edges than the limit: \(edges.count)") }
        for e in edges where !e.start.isFinite || !e.end.isFinite { violated("non-finite stored edge \(e)") }
        let b = shape.bounds
        if edges.isEmpty != b.isEmpty { violated("bounds \(b) vs \(edges.count) edges") }
        if !b.isEmpty && !b.isFinite { violated("non-finite bounds \(b)") }
        let scale = b.isEmpty ? 1 : max(1, abs(b.minX), abs(b.maxX), abs(b.minY), abs(b.maxY))
        // The oracle over the shape's own units (one placement, identity transform).
        let oracle = BruteForce(shapes: [shape], transforms: [.identity])

        for p in probes(shape, edges, &r) {
            let w = shape.winding(at: p)
            let c = shape.contains(p)
            if c != (w != 0) { violated("contains \(c) but winding \(w) at \(p)") }
            guard p.isFinite else {
                if w != 0 || shape.distance(to: p) != .infinity { violated("non-finite point \(p) answered") }
                continue
            }
            let bd = oracle.distance(0, p)
            let pScale = max(scale, abs(p.x), abs(p.y))
            // Winding: exact for the stored polygon away from its edges.
            if bd > 1e-9 * pScale {
                let bw = oracle.winding(0, p)
                if w != bw { violated("winding \(w) != brute \(bw) at \(p) (distance \(bd))") }
            }
            // Distance: exact up to Float rounding of the stored edge vectors. Known InkHit issue (reported;
            // regression test ShapeGridHostileTests.distanceToEdgesLongerThan1e19): beyond ~1e19 shape units
            // an edge's 1/length² underflows Float32, so such shapes are not checked.
            let d = shape.distance(to: p)
            if bd.isFinite && bd < 1e30 && scale < 1e18 {
                if !(abs(d - bd) <= 1e-6 * pScale + 1e-9 * bd) { violated("distance \(d) != brute \(bd) at \(p)") }
            }
            let sd = shape.signedDistance(to: p)
            if !(sd.isNaN == d.isNaN) || (c ? sd != -d : sd != d) { violated("signedDistance \(sd) vs \(d), inside \(c)") }
        }
    }

    /// Query points in shape units: from the input, the box corners and centre, and points just beside edges.
    static func probes(_ shape: GlyphShape, _ edges: [Segment], _ r: inout ByteReader) -> [Point] {
        var out: [Point] = []
        for _ in 0..<Int(r.u8() % 8) { out.append(r.point()) }
        let b = shape.bounds
        if !b.isEmpty {
            out += [b.center, Point(b.minX, b.minY), Point(b.maxX, b.maxY), Point(b.minX - 1, b.center.y)]
        }
        let step = max(1, edges.count / 12)
        var k = Int(r.u8()) % max(1, step)
        while k < edges.count {
            let a = edges[k].start, e = edges[k].end
            let m = a.lerp(e, 0.37)
            let n = Point(-(e.y - a.y), e.x - a.x)
            let len = n.length
            if len > 0 && len.isFinite {
                for delta in [1e-3, 0.25, 3.0] {
                    let off = n * (delta / len)
                    out.append(m + off); out.append(m - off)
                }
            }
            k += step
        }
        return out
    }

    // MARK: HitIndex against brute force

    struct Placed {
        var transform: AffineTransform
        var edgeCount: Int
        var kappa: Double
        /// The `e` of the tie rule: the longer side of the placement's view box.
        var extent: Double
        /// View position of a corner of the shape's box: the index maps points into the shape through their
        /// offset from (about) there.
        var anchor: Point
    }

    static func checkIndex(_ shape: GlyphShape, _ r: inout ByteReader) {
        let toleranceChoice = r.u8() % 4
        var builder: HitIndex.Builder
        switch toleranceChoice {
        case 0:
            builder = HitIndex.Builder()
            if builder.tolerance != HitIndex.defaultTolerance { violated("default builder at tolerance \(builder.tolerance)") }
        case 1:
            do { builder = try HitIndex.Builder(tolerance: 1e30) } catch { violated("tolerance 1e30 refused: \(error)") }
        default:
            // A tolerance is accepted exactly when it is finite and > 0, and refused with its own value.
            let t = r.magnitude()
            do {
                builder = try HitIndex.Builder(tolerance: t)
                if !(t.isFinite && t > 0) { violated("invalid tolerance \(t) accepted") }
                if builder.tolerance != t { violated("tolerance \(t) stored as \(builder.tolerance)") }
            } catch {
                if t.isFinite && t > 0 { violated("valid tolerance \(t) refused: \(error)") }
                guard case .invalidTolerance(let bad) = error, bad == t || (bad.isNaN && t.isNaN) else {
                    violated("tolerance \(t) refused with \(error)")
                }
                if error.description.isEmpty { violated("empty HitIndexError message") }
                builder = HitIndex.Builder()
            }
        }
        var placed: [Placed] = []
        let count = 1 + Int(r.u8() % 12)
        for _ in 0..<count {
            let t = r.transform()
            do {
                let k = try builder.add(shape, transform: t)
                fuzzContext.append("placement \(k): \(t)")
                if k != placed.count { violated("placement index \(k), expected \(placed.count)") }
                let sv = t.singularValues
                let b = shape.bounds
                let vb = shape.bounds.applying(t)
                placed.append(Placed(transform: t, edgeCount: shape.edgeCount, kappa: sv.max / sv.min,
                                     extent: max(vb.width, vb.height),
                                     anchor: b.isEmpty ? Point(t.tx, t.ty) : Point(b.minX, b.minY).applying(t)))
            } catch {
                if error.description.isEmpty { violated("empty HitIndexError message") }
                // A refused transform must really be bad (non-finite, singular, too coarse, or out of range).
                let b = shape.bounds
                let extent = b.isEmpty ? 0 : max(abs(b.minX), abs(b.maxX), abs(b.minY), abs(b.maxY))
                if t.isFinite, t.minScale > 1e-3, t.maxScale < 1e3, max(abs(t.tx), abs(t.ty)) < 1e6, extent < 1e5,
                   shape.tolerance * t.maxScale <= builder.tolerance * 0.5 {
                    violated("reasonable transform \(t) refused: \(error)")
                }
            }
        }
        let index = builder.build()
        if index.count != placed.count { violated("index.count \(index.count) != \(placed.count)") }

        // View-space probes: the input's, plus shape probes carried through each placement.
        var points: [Point] = []
        for _ in 0..<Int(r.u8() % 6) { points.append(r.point()) }
        let shapeProbes = probes(shape, shape.storedEdges, &r)
        for (k, p) in placed.enumerated() where k < 3 {
            for q in shapeProbes.prefix(24) { points.append(q.applying(p.transform)) }
        }
        var radii: [Double] = [0, r.magnitude(), r.magnitude()]
        radii.append([Double.infinity, 1e300, -1, .nan, 2.5, 1e-9][Int(r.u8() % 6)])
        let sortedRadii = radii.filter { !$0.isNaN }.map { max($0, 0) }.sorted()

        var edgeCount = 0
        for p in placed { edgeCount += p.edgeCount }
        // The oracle: every placement's stored edges in view space, in Double.
        let oracle = edgeCount * points.count <= 400_000
            ? BruteForce(shapes: placed.map { _ in shape }, transforms: placed.map(\.transform)) : nil

        checkBatches(index, points, radii: radii)

        for p in points {
            let c = index.contains(p)
            let h0 = index.hit(at: p)
            if c != (h0 != nil) { violated("contains \(c) but hit(r: 0) \(String(describing: h0)) at \(p)") }
            if let h0, !h0.isInside || !(h0.distance <= 0) { violated("r = 0 hit not inside: \(h0)") }
            guard p.isFinite else {
                for rad in radii where index.hit(at: p, radius: rad) != nil || !index.allHits(at: p, radius: rad).isEmpty {
                    violated("non-finite point \(p) hit at radius \(rad)")
                }
                continue
            }
            // Monotone in r, and hit() consistent with hits().
            var previous: Set<Int> = []
            var previousHit = false
            // Known InkHit issue (reported; HitIndexHostileTests.infiniteRadiusReachesPointsFarFromThePage):
            // r = ∞ searches a ±1e12 px window, and squared distances overflow beyond ~1e154 px.
            let farFromPage = !index.bounds.isEmpty && index.bounds.distance(to: p) > 1e11
            // Known InkHit issue (reported; FuzzRegressionTests.fuzzing_test_case_04): hit() and hits() map
            // the point into each placement through Float32 offsets from different page cells, so within
            // ~1e-7 of the coordinates' magnitude of an outline they may disagree about inside and outside.
            let page = index.bounds.isEmpty ? 0 : max(index.bounds.width, index.bounds.height)
            let rounding = 1e-6 * max(1, abs(p.x), abs(p.y), page) * placed.reduce(1) { max($0, min($1.kappa, 1e6)) }
            for rad in sortedRadii where !(farFromPage && rad > 1e11) {
                let h = index.hit(at: p, radius: rad)
                let all = index.allHits(at: p, radius: rad)
                let set = Set(all.map(\.placement))
                let nearOutline = all.contains { abs($0.distance) <= rounding } || (h.map { abs($0.distance) <= rounding } ?? false)
                    || abs(rad) <= rounding
                if set.count != all.count { violated("hits lists a placement twice") }
                for (a, b) in zip(all, all.dropFirst()) where a.distance > b.distance { violated("hits not sorted: \(all)") }
                if let h, h.distance.isNaN || (!h.isInside && h.distance > rad) { violated("hit \(h) beyond radius \(rad)") }
                if nearOutline { previous = set; previousHit = h != nil; continue }
                if !previous.isSubset(of: set) { violated("hits shrank from \(previous) to \(set) at radius \(rad), \(p)") }
                if previousHit && h == nil { violated("hit vanished as the radius grew to \(rad) at \(p)") }
                if (h == nil) != all.isEmpty { violated("hit \(String(describing: h)) but hits \(all) at \(p) r \(rad)") }
                if let h {
                    if !set.contains(h.placement) { violated("hit \(h) not among hits \(all)") }
                    // The nearest, or a placement that ties with it (the tie rule: within 1e-6 × (d* + max(e)) of
                    // the least distance d*, the topmost wins).
                    if !h.isInside, let first = all.first, first.isInside
                        || h.distance - first.distance > tieWindow(first.distance, placed)
                            + 1e-9 * (1 + abs(h.distance)) {
                        violated("hit \(h) is neither the nearest of \(all) nor tied with it at \(p) (x bits \(p.x.bitPattern), y bits \(p.y.bitPattern)), r \(rad)")
                    }
                }
                previous = set
                previousHit = h != nil
            }
            if let oracle { compareWithBruteForce(index, placed, oracle, p, radii: sortedRadii) }
        }
    }

    /// How far beyond the least distance `d` a placement may still tie with the nearest one (view px): the
    /// tie rule's `1e-6 × (d* + max(e_p, e_k*))` with the largest extent of any placement (which placement is
    /// `k*` among equally near ones is the index's choice).
    static func tieWindow(_ d: Double, _ placed: [Placed]) -> Double {
        1e-6 * (d + placed.reduce(0) { max($0, $1.extent) })
    }

    /// The batch forms answer exactly what `hit(at:radius:)` answers point by point: `hits(for:)`,
    /// `hits(for:into:)` into an array of another length (it must be resized) and into the same array again,
    /// `unsafeHits` on raw buffers, and `concurrentHits` split into a few chunks.
    static func checkBatches(_ index: HitIndex, _ points: [Point], radii: [Double]) {
        var reused: [Hit?] = [Hit(placement: -1, distance: 0, isInside: false)]
        for rad in radii {
            let expected = points.map { index.hit(at: $0, radius: rad) }
            func same(_ got: [Hit?], _ call: String) {
                if got.count != expected.count { violated("\(call) gave \(got.count) answers for \(points.count) points") }
                for (k, (g, e)) in zip(got, expected).enumerated() where g != e {
                    violated("\(call) at r \(rad), point \(k) \(points[k]): \(String(describing: g)), hit(at:) \(String(describing: e))")
                }
            }
            same(index.hits(for: points, radius: rad), "hits(for:)")
            index.hits(for: points, radius: rad, into: &reused)
            same(reused, "hits(for:into:)")
            for i in reused.indices { reused[i] = Hit(placement: -1, distance: 0, isInside: false) }   // stale answers
            index.hits(for: points, radius: rad, into: &reused)
            same(reused, "hits(for:into:) reusing its array")
            var raw = [Hit?](repeating: nil, count: points.count)
            points.withUnsafeBufferPointer { p in raw.withUnsafeMutableBufferPointer { index.unsafeHits(for: p, radius: rad, into: $0) } }
            same(raw, "unsafeHits(for:into:)")
            same(index.concurrentHits(for: points, radius: rad, chunks: 1 + points.count % 3), "concurrentHits(for:)")
        }
    }

    static func compareWithBruteForce(_ index: HitIndex, _ placed: [Placed], _ oracle: BruteForce, _ p: Point,
                                      radii: [Double]) {
        guard !placed.isEmpty else { return }
        var inside: [Bool] = [], dist: [Double] = []
        var margin = 0.0
        for (k, pl) in placed.enumerated() {
            inside.append(oracle.inside(k, p)); dist.append(oracle.distance(k, p))
            // The index stores each placement's inverse and its anchor (a corner of the glyph box, relative
            // to a page-grid cell corner) as Float32: answers are exact up to ~1e-7 of the view distances
            // involved — from the point to the anchor, and from the anchor to its page cell (up to the
            // page's extent) — times the transform's anisotropy.
            let page = index.bounds.isEmpty ? 0 : max(index.bounds.width, index.bounds.height)
            let offset = max(abs(p.x - pl.anchor.x), abs(p.y - pl.anchor.y), page, 1)
            margin = max(margin, 1e-6 * offset * min(pl.kappa, 1e6))
        }
        guard margin < 1e6, dist.allSatisfy({ $0.isFinite }) else { return }
        let nearEdge = dist.contains { $0 <= margin }
        let top = inside.lastIndex(of: true)
        if !nearEdge {
            if index.contains(p) != (top != nil) {
                violated("contains \(index.contains(p)), brute force \(top != nil) at \(p), distances \(dist)")
            }
            if let top, let h = index.hit(at: p), h.placement != top {
                violated("hit \(h) but the topmost containing placement is \(top) at \(p)")
            }
        }
        guard top == nil, !nearEdge else { return }
        let dmin = dist.min()!
        for rad in radii where abs(dmin - rad) > margin {
            let h = index.hit(at: p, radius: rad)
            if (h != nil) != (dmin <= rad) {
                violated("hit \(String(describing: h)) at radius \(rad), brute-force nearest distance \(dmin) at \(p)")
            }
            if let h {
                if abs(h.distance - dist[h.placement]) > margin + 1e-9 * dist[h.placement] {
                    violated("hit distance \(h.distance) != brute \(dist[h.placement]) for placement \(h.placement) at \(p)")
                }
                if h.distance > dmin + margin + tieWindow(dmin, placed) {
                    violated("hit \(h) is neither the nearest nor tied with it (brute force \(dmin))")
                }
                // The oracle's placement (nearest, ties → topmost) where rounding cannot change it: every other
                // placement is either beyond the tie window (1e-6 × (d* + max(e))) by more than twice the margin,
                // or the same placement again (same transform: the index stores it bit for bit the same, so the
                // two tie exactly and the topmost must win).
                if let o = oracle.hit(p, radius: rad), o.placement != h.placement {
                    let w = o.placement
                    let decided = dist.indices.allSatisfy { k in
                        k == w || placed[k].transform == placed[w].transform
                            || abs(dist[k] - dist[w]) > 2 * margin + tieWindow(dist[w], placed)
                    }
                    if decided { violated("hit \(h) but the oracle's answer (ties → topmost) is \(o) at \(p), r \(rad), distances \(dist)") }
                }
            }
        }
    }
}

// MARK: Seeds

/// `scripts/fuzz.sh` runs the fuzzer once with INKHIT_FUZZ_WRITE_SEEDS=DIR to write the seed corpus: shapes
/// encoded in the byte format `GeometryFuzz.run` decodes (kept next to the decoder so they stay in step).
@_cdecl("LLVMFuzzerInitialize")
public func geometryFuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>?,
                                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    if let dir = getenv("INKHIT_FUZZ_WRITE_SEEDS") {
        GeometrySeeds.write(to: String(cString: dir))
        exit(0)
    }
    return 0
}

enum GeometrySeeds {
    static func coord(_ v: Int) -> [UInt8] {             // tag 2 (mod 16): an Int16, little-endian
        let u = UInt16(bitPattern: Int16(v))
        return [2, UInt8(u & 0xFF), UInt8(u >> 8)]
    }
    static func op(_ kind: UInt8, _ points: (Int, Int)...) -> [UInt8] {   // continue byte, op byte, points
        [0, kind] + points.flatMap { coord($0.0) + coord($0.1) }
    }
    /// mode, tolerance (tag 2: u8 / 16), cells-per-axis choice, ops, stop byte, then probe/index bytes.
    static func shape(mode: UInt8, tolerance: UInt8, cells: UInt8, _ body: [UInt8], _ tail: [UInt8]) -> [UInt8] {
        [mode, 2, tolerance, cells] + body + [0x80] + tail
    }
    static func write(to dir: String) {
        let square = op(0, (0, 0)) + op(1, (100, 0)) + op(1, (100, 100)) + op(1, (0, 100)) + op(4)
        let hole = op(0, (30, 30)) + op(1, (30, 70)) + op(1, (70, 70)) + op(1, (70, 30)) + op(4)
        let circle = op(0, (100, 0)) + op(2, (100, 100), (0, 100)) + op(2, (-100, 100), (-100, 0))
            + op(2, (-100, -100), (0, -100)) + op(2, (100, -100), (100, 0)) + op(4)
        let cubic = op(0, (0, 0)) + op(3, (0, 500), (500, 500), (500, 0)) + op(4)
        let bowTie = op(0, (0, 0)) + op(1, (10, 10)) + op(1, (10, 0)) + op(1, (0, 10)) + op(4)
        let segment = op(0, (0, 0)) + op(1, (10, 0))
        let extremes = op(0, (-32767, -32767)) + op(1, (32767, -32767)) + op(1, (32767, 32767)) + op(1, (-32767, 32767)) + op(4)
        // Index part: tolerance choice 1 (accept all), 3 placements (transform kinds 2, 3, 4), probes, radii.
        let tail: [UInt8] = [3, 0, 1, 3, 2, 16, 2, 10, 0, 2, 20, 0, 3, 8, 2, 30, 0, 2, 30, 0, 2, 7, 0, 0, 0, 2, 40, 2, 80, 5]
        let seeds: [(String, [UInt8])] = [
            ("square", shape(mode: 0, tolerance: 16, cells: 0, square, tail)),
            ("square-hole", shape(mode: 0, tolerance: 16, cells: 0, square + hole, tail)),
            ("circle-quads", shape(mode: 0, tolerance: 1, cells: 0, circle, tail)),
            ("cubic", shape(mode: 0, tolerance: 4, cells: 3, cubic, tail)),
            ("bowtie", shape(mode: 1, tolerance: 0, cells: 0, bowTie, tail)),
            ("segment", shape(mode: 1, tolerance: 0, cells: 1, segment, tail)),
            ("extremes", shape(mode: 0, tolerance: 16, cells: 5, extremes, tail)),
            ("empty", [0, 2, 16, 0, 0x80] + tail),
        ]
        for (name, bytes) in seeds {
            guard let f = fopen(dir + "/" + name, "wb") else { continue }
            _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
            fclose(f)
        }
    }
}
