import InkGeometry
import InkTestSupport
@_spi(RawBuffers) @_spi(Benchmarks) @testable import InkHit
import Testing

/// The class raster (ClassRaster.swift) against the brute-force oracle: its answers on random pages under
/// every kind of transform, far from the origin, with overlapping glyphs, at radii below, at and above the
/// prepared radius; and its classes themselves, cell by cell, against what the oracle says of points in the
/// cell. A raster deliberately made wrong must be caught by the same checks.
struct ClassRasterTests {
    /// `count` random blobs (5 shapes) under transforms of `kind` (0: y-flip scale, 1: similarity,
    /// 2: non-uniform, 3: shear), scaled by `scale` and moved by `offset`.
    static func page(seed: UInt64, kind: Int, count: Int, scale: Double = 1, offset: Point = .zero,
                     preparedRadius: Double = HitIndex.defaultPreparedRadius, fillRule: FillRule = .nonZero,
                     size: Double = 2000) throws -> ([(GlyphShape, AffineTransform)], HitIndex) {
        var rng = SplitMix64(seed: seed)
        var shapes: [GlyphShape] = []
        for _ in 0..<5 { shapes.append(try GlyphShape(polygon: TestShapes.randomBlob(&rng, size: size), fillRule: fillRule)) }
        var items: [(GlyphShape, AffineTransform)] = []
        var b = HitIndex.Builder()
        b.shapeForms = .full
        b.preparedRadius = preparedRadius
        for _ in 0..<count {
            let s = shapes[rng.int(shapes.count)]
            // Glyphs scaled by `scale`, positions over the same 200 px square whatever the scale.
            let t = AffineTransform.scale(scale, scale).concatenating(TestShapes.randomTransform(&rng, kind: kind))
                .concatenating(.translation(offset.x, offset.y))
            try b.add(s, transform: t)
            items.append((s, t))
        }
        return (items, b.build())
    }

    /// Points where `index` and `oracle` disagree (placement, inside flag, or distance beyond 2e-5 px plus
    /// 1e-6 of it), skipping points within 1e-4 px of a decision (an outline, the radius, a tie); also
    /// `topmost(at:)` and `contains` against the oracle's inside answer.
    static func disagreements(_ index: HitIndex, _ oracle: BruteForce, _ points: [Point], radius r: Double) -> [String] {
        var bad: [String] = []
        for p in points {
            let want = oracle.hit(p, radius: r), got = index.hit(at: p, radius: r)
            let top = index.topmost(at: p), inside = want.flatMap { $0.isInside ? $0.placement : nil }
            let same = got?.placement == want?.placement && got?.isInside == want?.isInside
                && isClose((got?.distance ?? 0), (want?.distance ?? 0), within: 2e-5 + 1e-6 * abs(want?.distance ?? 0))
            if same && top == inside && index.contains(p) == (inside != nil) { continue }
            // Within rounding of a decision?
            let m = oracle.margin(p, limit: r + 1)
            if m < 1e-4 || (r > 0 && isClose(m, r, within: 1e-4)) { continue }
            if let g = got, let w = want, !g.isInside, !w.isInside, isClose(g.distance, w.distance, within: 1e-4) { continue }
            bad.append("p=\(p) r=\(r): got \(String(describing: got)) topmost \(String(describing: top)), want \(String(describing: want))")
        }
        return bad
    }

    /// Random points over the page's box (grown by 10 px), plus points on a fine lattice near some outlines.
    static func points(_ oracle: BruteForce, count: Int, seed: UInt64) -> [Point] {
        var rng = SplitMix64(seed: seed)
        var box = Rect.empty
        for b in oracle.boxes where !b.isEmpty { box = box.union(b) }
        var pts: [Point] = []
        for _ in 0..<count {
            pts.append(Point(box.minX - 10 + rng.unit() * (box.width + 20), box.minY - 10 + rng.unit() * (box.height + 20)))
        }
        // Near outlines: a point at a random offset within ±6 px of an edge.
        for k in 0..<min(oracle.count, 40) {
            for e in oracle.edges(of: k).prefix(10) {
                let m = e.start.lerp(e.end, rng.unit())
                pts.append(Point(m.x + rng.range(-6, 6), m.y + rng.range(-6, 6)))
            }
        }
        return pts
    }

    @Test(arguments: [0, 1, 2, 3])
    func randomPagesMatchBruteForceAtEveryRadius(kind: Int) throws {
        // Glyphs of ~10–100 px (blob 2000 units × 0.005–0.05), overlapping: 60 on a 260 px square.
        let (items, index) = try Self.page(seed: 4200 &+ UInt64(kind), kind: kind, count: 60)
        #expect(index.rasterGeometry != nil, "the page has a raster")
        let oracle = BruteForce(items)
        let pts = Self.points(oracle, count: 2500, seed: 9 &+ UInt64(kind))
        for r in [0, 1.5, index.preparedRadius, index.preparedRadius.nextUp, 7] {
            let bad = Self.disagreements(index, oracle, pts, radius: r)
            #expect(bad.isEmpty, "\(bad.count) disagreements, e.g. \(bad.prefix(3))")
        }
    }

    /// Small glyphs (8–16 px text sizes) are what the raster is for: most points are answered by it.
    @Test(arguments: [0, 1, 3])
    func textSizedGlyphsMatchBruteForce(kind: Int) throws {
        let (items, index) = try Self.page(seed: 77 &+ UInt64(kind), kind: kind, count: 300, scale: 0.25)
        let oracle = BruteForce(items)
        let pts = Self.points(oracle, count: 3000, seed: 5 &+ UInt64(kind))
        var coded = 0
        for p in pts { if let c = index.rasterCode(at: p), c >= 0 { coded += 1 } }
        #expect(coded > pts.count / 2)
        for r in [0.0, 2, 3.5, 4, 6] {
            let bad = Self.disagreements(index, oracle, pts, radius: r)
            #expect(bad.isEmpty, "\(bad.count) disagreements, e.g. \(bad.prefix(3))")
        }
    }

    /// Prepared radii of 0 (lists of boxes only), 1.5 and 12: queries below, at and above each.
    @Test(arguments: [0.0, 1.5, 12])
    func preparedRadiiBelowAndAbove(prepared: Double) throws {
        let (items, index) = try Self.page(seed: 31, kind: 1, count: 120, scale: 0.3, preparedRadius: prepared)
        #expect(index.preparedRadius == prepared)
        let oracle = BruteForce(items)
        let pts = Self.points(oracle, count: 2000, seed: 8)
        for r in [0, prepared / 2, prepared, prepared + 0.5, prepared * 2 + 1] {
            let bad = Self.disagreements(index, oracle, pts, radius: r)
            #expect(bad.isEmpty, "prepared \(prepared) r \(r): \(bad.count) disagreements, e.g. \(bad.prefix(3))")
        }
    }

    /// Far from the origin (the raster's cells are found from the page cell; stamps are placed by the
    /// translation's phase on the lattice).
    @Test(arguments: [1e6, -3.3e7, 9e8])
    func translatedPagesMatchBruteForce(offset: Double) throws {
        for kind in [0, 3] {
            let (items, index) = try Self.page(seed: 12 &+ UInt64(kind), kind: kind, count: 80, scale: 0.3,
                                               offset: Point(offset, offset / 7))
            let oracle = BruteForce(items)
            let pts = Self.points(oracle, count: 1500, seed: 2)
            for r in [0.0, 3.5, 9] {
                let bad = Self.disagreements(index, oracle, pts, radius: r)
                #expect(bad.isEmpty, "offset \(offset) kind \(kind) r \(r): \(bad.count), e.g. \(bad.prefix(3))")
            }
        }
    }

    /// Even-odd shapes: the stamps fill by the shape's rule.
    @Test func evenOddPagesMatchBruteForce() throws {
        let (items, index) = try Self.page(seed: 1, kind: 1, count: 150, scale: 0.3, fillRule: .evenOdd)
        let oracle = BruteForce(items)
        let pts = Self.points(oracle, count: 3000, seed: 3)
        for r in [0.0, 3] {
            let bad = Self.disagreements(index, oracle, pts, radius: r)
            #expect(bad.isEmpty, "\(bad.count), e.g. \(bad.prefix(3))")
        }
    }

    /// Non-finite points miss at every radius; non-finite and negative radii count as 0 (or ∞).
    @Test func nonFinitePointsAndRadii() throws {
        let (items, index) = try Self.page(seed: 3, kind: 1, count: 50, scale: 0.3)
        let oracle = BruteForce(items)
        for p in [Point(.nan, 5), Point(5, .nan), Point(.infinity, 5), Point(-.infinity, .infinity), Point(.nan, .nan)] {
            for r in [0, 2, 4, 100, .infinity] { #expect(index.hit(at: p, radius: r) == nil) }
            #expect(index.topmost(at: p) == nil && !index.contains(p))
            #expect(index.rasterCode(at: p) == -1)
        }
        for p in Self.points(oracle, count: 300, seed: 4) {
            #expect(index.hit(at: p, radius: .nan) == index.hit(at: p, radius: 0))
            #expect(index.hit(at: p, radius: -3) == index.hit(at: p, radius: 0))
            #expect(index.hit(at: p, radius: .infinity)?.placement == oracle.hit(p, radius: .infinity)?.placement)
        }
    }

    /// The batch calls answer in stages, 64 points at a time: the same answers as one call per point, for
    /// point counts that are not multiples of 64, with non-finite points among them, at radii below, at and
    /// above the prepared radius.
    @Test(arguments: [0, 3])
    func batchesMatchSinglePointAnswers(kind: Int) throws {
        let (items, index) = try Self.page(seed: 90 &+ UInt64(kind), kind: kind, count: 200, scale: 0.3)
        var pts = Self.points(BruteForce(items), count: 1000, seed: 6)
        pts.insert(Point(.nan, 3), at: 63); pts.insert(Point(4, .infinity), at: 64); pts.append(Point(-.infinity, .nan))
        for r in [0, -1, .nan, 1, 2.5, index.preparedRadius, index.preparedRadius + 1, .infinity] {
            let batch = index.hits(for: pts, radius: r)
            for (i, p) in pts.enumerated() {
                #expect(batch[i] == index.hit(at: p, radius: r), "point \(i) \(p) r \(r)")
            }
        }
        var tops = [Int](repeating: -2, count: pts.count)
        pts.withUnsafeBufferPointer { pp in tops.withUnsafeMutableBufferPointer { index.unsafeTopmost(for: pp, into: $0) } }
        for (i, p) in pts.enumerated() { #expect(tops[i] == (index.topmost(at: p) ?? -1), "point \(i)") }
        // Fewer points than one stage, and none.
        let few = Array(pts.prefix(5))
        #expect(index.hits(for: few, radius: 2) == few.map { index.hit(at: $0, radius: 2) })
        #expect(index.hits(for: [], radius: 0).isEmpty)
    }

    // MARK: The classes themselves

    /// What the oracle says of point `p` for the class check: placements whose ink contains it, and those
    /// whose outline is within `r` (view px).
    static func classViolation(code: Int, list: [Int], p: Point, oracle: BruteForce, radius r: Double) -> String? {
        let close = (0..<oracle.count).filter { !oracle.boxes[$0].isEmpty && oracle.boxes[$0].distance(to: p) <= r }
        let inked = close.filter { oracle.inside($0, p) }
        let near = close.filter { inked.contains($0) || oracle.distance($0, p) <= r }
        func item(_ k: Int) -> Int { k < list.count ? list[k] : -1 }
        switch code {
        case 0: return near.isEmpty ? nil : "far, but \(near) within \(r)"
        case 1, 2: return inked.isEmpty || code == 2 ? nil : "no ink, but \(inked) contain it"
        case 4...7:
            let k = item(code & 3)
            return inked.isEmpty && near.allSatisfy { $0 == k } ? nil : "only \(k) near, but ink \(inked), near \(near)"
        case 8...11:
            let k = item(code & 3)
            return inked.allSatisfy { $0 == k } && near.allSatisfy { $0 == k } ? nil : "\(k) alone, but ink \(inked), near \(near)"
        case 12...15:
            let k = item(code & 3)
            return inked.allSatisfy { $0 == k } ? nil : "only \(k)'s ink, but \(inked)"
        default: return "code \(code)"
        }
    }

    /// Every raster cell of a page, at its corners, edge midpoints, centre and random points: the class must
    /// hold for every one. Returns the violations.
    static func checkClasses(_ index: HitIndex, _ oracle: BruteForce, samples: Int, seed: UInt64) -> [String] {
        classCheck(index, oracle, samples: samples, seed: seed).violations
    }

    static func classCheck(_ index: HitIndex, _ oracle: BruteForce, samples: Int, seed: UInt64)
        -> (violations: [String], checked: [Int]) {
        let s = index.storage
        guard let raster = s.raster else { return (["no raster"], []) }
        var checked = [Int](repeating: 0, count: 16)
        var rng = SplitMix64(seed: seed)
        var bad: [String] = []
        let cell = 1 / s.invRasterCell
        let m = s.rasterMask + 1
        for iy in 0..<Int(s.rasterHeight) {
            for ix in 0..<Int(s.rasterWidth) {
                let x0 = s.originX + Double(ix) * cell, y0 = s.originY + Double(iy) * cell
                let page = (iy / m) * s.nx + ix / m
                let c = (iy % m) * m + ix % m
                let code = Int(raster[page * s.rasterTileBytes + c / 2] >> UInt8((c & 1) * 4)) & 15
                if code == 0 && rng.int(4) != 0 { continue }      // far cells are many: a quarter of them
                checked[code] += 1
                let list = (Int(s.cellStart[page])..<Int(s.cellStart[page + 1])).map { Int(s.cellItems[$0]) }
                var probes = [Point(x0, y0), Point(x0 + cell * 0.5, y0 + cell * 0.5), Point(x0 + cell * 0.999999, y0),
                              Point(x0, y0 + cell * 0.999999), Point(x0 + cell * 0.999999, y0 + cell * 0.999999)]
                for _ in 0..<samples { probes.append(Point(x0 + rng.unit() * cell, y0 + rng.unit() * cell)) }
                for p in probes {
                    if let v = classViolation(code: code, list: list, p: p, oracle: oracle, radius: s.preparedRadius) {
                        bad.append("cell (\(ix), \(iy)) code \(code) at \(p): \(v)")
                        break
                    }
                }
                if bad.count > 10 { return (bad, checked) }
            }
        }
        return (bad, checked)
    }

    @Test(arguments: [0, 2, 3])
    func everyCellsClassHoldsAtItsPoints(kind: Int) throws {
        let (items, index) = try Self.page(seed: 600 &+ UInt64(kind), kind: kind, count: 40, scale: 0.2)
        let oracle = BruteForce(items)
        let (bad, checked) = Self.classCheck(index, oracle, samples: 6, seed: 1)
        #expect(bad.isEmpty, "\(bad.prefix(5))")
        // Every kind of class was checked, many times.
        for code in [0, 1, 4, 8, 12] { #expect(checked[code] > 30, "code \(code): \(checked)") }
    }

    /// The checks can fail: a raster with one cell made `far` where there is ink, or naming the wrong
    /// placement, is caught both by the class check and by the answers.
    @Test func aWrongClassIsCaught() throws {
        let (items, index) = try Self.page(seed: 600, kind: 0, count: 40, scale: 0.2)
        let oracle = BruteForce(items)
        let s = index.storage
        let raster = try #require(s.raster)
        let m = s.rasterMask + 1
        let cell = 1 / s.invRasterCell
        // Corrupt every cell whose code names a placement (touch), making it `far`; then every `nearOne` cell,
        // making it name another item of its list.
        var corrupted: [(Int, UInt8)] = []
        var probes: [Point] = []
        for iy in 0..<Int(s.rasterHeight) {
            for ix in 0..<Int(s.rasterWidth) {
                let page = (iy / m) * s.nx + ix / m, c = (iy % m) * m + ix % m
                let at = page * s.rasterTileBytes + c / 2, shift = UInt8((c & 1) * 4)
                let code = Int(raster[at] >> shift) & 15
                if code >= 8 && corrupted.count < 400 {
                    corrupted.append((at, raster[at]))
                    raster[at] &= ~(15 << shift)                 // → far
                    probes.append(Point(s.originX + (Double(ix) + 0.5) * cell, s.originY + (Double(iy) + 0.5) * cell))
                }
            }
        }
        #expect(!corrupted.isEmpty)
        let classBad = Self.checkClasses(index, oracle, samples: 4, seed: 2)
        let answersBad = Self.disagreements(index, oracle, probes, radius: 0).count
            + Self.disagreements(index, oracle, probes, radius: 2).count
        for (at, v) in corrupted.reversed() { raster[at] = v }
        #expect(!classBad.isEmpty, "the class check catches cells made far")
        #expect(answersBad > 0, "the answers check catches cells made far")
        // Restored: clean again.
        #expect(Self.checkClasses(index, oracle, samples: 2, seed: 3).isEmpty)
        #expect(Self.disagreements(index, oracle, probes, radius: 2).isEmpty)
    }

    // MARK: Bounds on memory and build

    /// Huge sparse layouts, a glyph a million px wide, pages at ±1e9 px: the raster stays within its cap or
    /// is left out (the two-level grid answers alone), and answers stay right.
    @Test func hostileLayoutsKeepTheRasterBounded() throws {
        let sq = try GlyphShape(polygon: Polygon(contours: [[Point(0, 0), Point(1, 0), Point(1, 1), Point(0, 1)]]))
        var rng = SplitMix64(seed: 9)
        // Two glyphs 1e8 px apart.
        var b = HitIndex.Builder()
        b.shapeForms = .full
        try b.add(sq, transform: .scale(10, 10))
        try b.add(sq, transform: AffineTransform.scale(10, 10).concatenating(.translation(1e8, -1e8)))
        var index = b.build()
        #expect(index.bytesBeyondShapes < 1 << 20)
        #expect(index.hit(at: Point(1e8 + 5, -1e8 + 5))?.placement == 1)
        #expect(index.hit(at: Point(1e8 - 2, -1e8 + 5), radius: 3)?.placement == 1)
        // A glyph 1e6 px wide among small ones.
        b = HitIndex.Builder()
        b.shapeForms = .full
        try b.add(sq, transform: .scale(1e6, 1e6))
        var small: [(GlyphShape, AffineTransform)] = [(sq, .scale(1e6, 1e6))]
        for _ in 0..<2000 {
            let t = AffineTransform.scale(8, 8).concatenating(.translation(rng.range(-3e3, 3e3), rng.range(-3e3, 3e3)))
            try b.add(sq, transform: t)
            small.append((sq, t))
        }
        index = b.build()
        #expect(index.bytesBeyondShapes <= 2000 * (64 + ClassRaster.maxBytesPerPlacement) + 4 << 20)
        let oracle = BruteForce(small)
        for p in Self.points(oracle, count: 300, seed: 1) {
            #expect(index.hit(at: p, radius: 2)?.placement == oracle.hit(p, radius: 2)?.placement)
        }
        // Pages at ±1e9 px.
        b = HitIndex.Builder()
        b.shapeForms = .full
        for k in 0..<200 { try b.add(sq, transform: AffineTransform.scale(7, 9).concatenating(.translation(-1e9 + Double(k) * 9, 1e9 - 40))) }
        index = b.build()
        #expect(index.rasterGeometry != nil)
        #expect(index.topmost(at: Point(-1e9 + 9 * 17 + 3.5, 1e9 - 35)) == 17)
        #expect(index.hit(at: Point(-1e9 + 9 * 17 + 3.5, 1e9 - 42), radius: 2.5)?.placement == 17)
    }

    /// A shape placed under many linear maps keeps at most `StampCache.maxSets` of them.
    @Test func stampCacheIsBounded() throws {
        var rng = SplitMix64(seed: 5)
        let shape = try GlyphShape(polygon: TestShapes.randomBlob(&rng, size: 100))
        for k in 0..<12 {
            var b = HitIndex.Builder()
            b.shapeForms = .full
            try b.add(shape, transform: AffineTransform.scale(0.1, 0.1).concatenating(.rotation(Double(k) * 0.1)))
            _ = b.build()
        }
        let stamps = try #require(shape.currentFull?.stamps)
        #expect(stamps.setCount <= StampCache.maxSets)
        #expect(stamps.byteCount <= StampCache.maxSets * ClassRaster.phases * ClassRaster.phases * (ClassRaster.maxStampCells / 4 + 64))
    }
}
