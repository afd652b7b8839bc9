import Foundation
import InkFreeType
import InkGeometry
import InkTestSupport
import InkHit
import Testing

/// Hostile fonts, built in memory with `TinyFont` or patched from a copy of DejaVu Sans: degenerate and
/// huge outlines, broken `glyf`/`loca`/CFF data, recursive composites. Every one opens with a typed error
/// or gives outlines that flatten, index and answer queries; nothing traps, nothing hangs.
@Suite("Hostile fonts: degenerate outlines, corrupt tables")
struct HostileFontTests {
    typealias P = TinyFont.P

    /// Font → every glyph's outline → shapes at 16 px and 300 px → index → queries on a grid and far away.
    /// Returns (glyphs that gave a shape, glyphs that threw); checks the index's own invariants.
    @discardableResult
    static func exercise(_ font: Font, maxGlyphs: Int = 64) -> (built: Int, failed: Int) {
        let cache = FontShapeCache()
        var builder = HitIndex.Builder()
        var built = 0, failed = 0
        for g in font.glyphIDs.prefix(maxGlyphs) {
            for size in [16.0, 300.0] {
                let placement = GlyphPlacement(font: font, glyph: g, size: size, origin: Point(Double(g.rawValue) * 20, 400))
                do {
                    try builder.add(placement, cache: cache)
                    built += 1
                } catch {
                    failed += 1       // typed: FontError (the font's, the shape's or the index's refusal)
                }
            }
        }
        let index = builder.build()
        let b = index.bounds.isEmpty ? Rect(minX: 0, minY: 0, maxX: 100, maxY: 100) : index.bounds
        for i in 0...6 {
            for j in 0...6 {
                let p = Point(b.minX + b.width * Double(i) / 6, b.minY + b.height * Double(j) / 6)
                let h0 = index.hit(at: p)
                #expect(index.contains(p) == (h0 != nil))
                if let h3 = index.hit(at: p, radius: 3) { #expect(h3.distance <= 3) } else { #expect(h0 == nil) }
                #expect(index.allHits(at: p, radius: 3).allSatisfy { $0.distance <= 3 })
            }
        }
        if index.uniqueShapeCount > 0 {
            #expect(index.hit(at: Point(-1e8, 1e8), radius: .infinity) != nil, "r = ∞ finds the nearest glyph")
        }
        return (built, failed)
    }

    /// The errors a glyph's data can give (FreeType's, an outline breaking the rules, too many points, no
    /// outline): never one about the font file or the glyph id.
    static func isGlyphDataError(_ e: FontError) -> Bool {
        switch e {
        case .freeType, .brokenOutline, .tooManyPoints, .noOutline: return true
        default: return false
        }
    }

    static func square(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> [P] {
        [P(x: x0, y: y0), P(x: x1, y: y0), P(x: x1, y: y1), P(x: x0, y: y1)]
    }

    // MARK: Degenerate outlines through FreeType

    @Test func onePointAndTwoPointContoursHaveNoInk() throws {
        let font = try Font(bytes: TinyFont.trueType([
            .empty,
            .simple([[P(x: 100, y: 100)]]),                                           // 1 point
            .simple([[P(x: 100, y: 100), P(x: 400, y: 100)]]),                        // 2 points: a segment
            .simple([[P(x: 0, y: 0), P(x: 200, y: 0), P(x: 400, y: 0)]]),             // collinear: zero area
            .simple([[P(x: 0, y: 0), P(x: 200, y: 200, on: false)]]),                 // a point and a control
            .simple([[P(x: 7, y: 7)], [P(x: 7, y: 7)], Self.square(0, 0, 500, 500)]), // dots beside a square
        ]))
        #expect(font.glyphCount == 6)
        let cache = FontShapeCache()
        for g in GlyphID(1)...GlyphID(4) {
            let outline = try font.outline(glyph: g)
            #expect(!outline.points.isEmpty)
            let shape = try cache.shape(font: font, glyph: g, viewTolerance: 0.5, maxScale: 1)
            for p in [Point(100, 100), Point(250, 100), Point(200, 0), Point(200, 1), Point(7, 7)] {
                #expect(!shape.contains(p), "glyph \(g) at \(p): no area, no ink")
            }
        }
        // The segment glyph has a distance (a radius reaches it) but no inside.
        let segment = try cache.shape(font: font, glyph: 2, viewTolerance: 0.5, maxScale: 1)
        #expect(isClose(segment.distance(to: Point(250, 130)), 30, within: 1e-6))
        // Lone points add nothing to the square.
        let dotted = try cache.shape(font: font, glyph: 5, viewTolerance: 0.5, maxScale: 1)
        #expect(dotted.contains(Point(250, 250)) && dotted.contains(Point(7, 8)) && !dotted.contains(Point(501, 7)))
        Self.exercise(font)
    }

    @Test func selfIntersectingContoursUseNonzeroWinding() throws {
        // A pentagram drawn in one stroke: its centre winds twice (ink), its points once (ink).
        let star = (0..<5).map { k -> P in
            let a = Double.pi / 2 + Double(2 * k) * 2 * Double.pi / 5
            return P(x: Int((500 * cos(a)).rounded()), y: Int((500 * sin(a)).rounded()))
        }
        let bowTie = [P(x: 0, y: 0), P(x: 400, y: 400), P(x: 400, y: 0), P(x: 0, y: 400)]
        let font = try Font(bytes: TinyFont.trueType([.empty, .simple([star]), .simple([bowTie])]))
        let cache = FontShapeCache()
        let s = try cache.shape(font: font, glyph: 1, viewTolerance: 0.25, maxScale: 1)
        #expect(s.winding(at: .zero) == 2 || s.winding(at: .zero) == -2)
        #expect(s.contains(.zero) && s.contains(Point(0, 400)) && !s.contains(Point(0, -480)))
        let b = try cache.shape(font: font, glyph: 2, viewTolerance: 0.25, maxScale: 1)
        #expect(b.contains(Point(50, 200)) && b.contains(Point(350, 200)))
        #expect(!b.contains(Point(200, 50)) && !b.contains(Point(200, 350)))
        Self.exercise(font)
    }

    @Test func coordinatesAtAndBeyondTheSixteenBitLimits() throws {
        // ±32767 needs a midpoint per edge (deltas are 16-bit); FreeType also accumulates deltas past 16 bits.
        let extreme = [P(x: -32767, y: -32767), P(x: 0, y: -32767), P(x: 32767, y: -32767), P(x: 32767, y: 0),
                       P(x: 32767, y: 32767), P(x: 0, y: 32767), P(x: -32767, y: 32767), P(x: -32767, y: 0)]
        let beyond = [P(x: 0, y: 0), P(x: 30000, y: 0), P(x: 60000, y: 0), P(x: 90000, y: 0), P(x: 90000, y: 30000),
                      P(x: 60000, y: 30000), P(x: 30000, y: 30000), P(x: 0, y: 30000)]
        let font = try Font(bytes: TinyFont.trueType([.empty, .simple([extreme]), .simple([beyond])], unitsPerEm: 2048))
        let outline = try font.outline(glyph: 1)
        #expect(outline.controlBox == Rect(minX: -32767, minY: -32767, maxX: 32767, maxY: 32767))
        let s = try FontShapeCache().shape(font: font, glyph: 1, viewTolerance: 1, maxScale: 1)
        #expect(s.contains(.zero) && s.contains(Point(32766, -32766)) && !s.contains(Point(32768, 0)))
        #expect(isClose(s.distance(to: Point(0, 32770)), 3, within: 1e-6))
        let wide = try font.outline(glyph: 2)
        #expect(wide.controlBox.maxX == 90000, "FreeType keeps coordinates accumulated past 16 bits")
        // At 2000 px per em the ±32767 square spans 64,000 view px: indexable, and answers are exact.
        let k = 2000.0 / 2048
        var builder = HitIndex.Builder()
        try builder.add(GlyphPlacement(font: font, glyph: 1, size: 2000), cache: FontShapeCache())
        let index = builder.build()
        #expect(index.contains(Point(31_000, -31_000)) && !index.contains(Point(32_100, 0)))
        // Within the index tolerance: placement offsets are Float32, ~6e-8 of the glyph's 64,000 px extent.
        // The slack is the tolerance the index reports, so it must first be the one a builder promises.
        #expect(index.tolerance <= HitIndex.defaultTolerance * (1 + 1e-9), "index tolerance \(index.tolerance)")
        #expect(isClose((index.hit(at: Point(32_767 * k + 2, 0), radius: 5)?.distance ?? -1), 2, within: index.tolerance))
        Self.exercise(font)
    }

    @Test func tensOfThousandsOfPoints() throws {
        // 20,000 on-curve points on a circle of radius 30,000 units (TrueType allows up to 65,535).
        let n = 20_000
        let circle = (0..<n).map { i -> P in
            let a = Double(i) * 2 * Double.pi / Double(n)
            return P(x: Int((30_000 * cos(a)).rounded()), y: Int((30_000 * sin(a)).rounded()))
        }
        let font = try Font(bytes: TinyFont.trueType([.empty, .simple([circle])], unitsPerEm: 2048))
        #expect(throws: FontError.tooManyPoints(glyph: 1, count: n, limit: 10_000)) { try font.outline(glyph: 1, maxPoints: 10_000) }
        let outline = try font.outline(glyph: 1)
        #expect(outline.points.count == n)
        // A coarser shape grid than the default keeps this quick in debug builds (the answers are the same).
        let s = try FontShapeCache(limits: ShapeLimits(maxCellsPerAxis: 48)).shape(font: font, glyph: 1, viewTolerance: 1, maxScale: 1)
        #expect(s.edgeCount == n)
        #expect(s.contains(.zero) && s.contains(Point(29_990, 0)) && !s.contains(Point(30_010, 0)))
        // The polygon's vertex (0, 30000) is the nearest point (no curves: every point is on the outline); the
        // slack is Float32 storage of coordinates near 30,000 (ulp 0.002).
        #expect(isClose(s.distance(to: Point(0, 30_100)), 100, within: 0.004))
    }

    @Test func compositePointCountBeyondThe16BitLimitIsAnErrorOrExact() throws {
        // Three components of 25,000 points: 75,000 points in one glyph, more than FreeType's 16-bit counts.
        let n = 25_000
        let ring = (0..<n).map { i -> P in
            let a = Double(i) * 2 * Double.pi / Double(n)
            return P(x: Int((10_000 * cos(a)).rounded()), y: Int((10_000 * sin(a)).rounded()))
        }
        let font = try Font(bytes: TinyFont.trueType([.empty, .simple([ring]),
                                                      .composite([(1, 0, 0), (1, 20_000, 0), (1, 0, 20_000)])]))
        do {
            let outline = try font.outline(glyph: 2, maxPoints: 200_000)
            #expect(outline.points.count == 3 * n, "either all points or a typed error")
        } catch {
            #expect(Self.isGlyphDataError(error), "\(error)")
        }
        #expect(throws: FontError.self) { try font.outline(glyph: 2, maxPoints: 70_000) }
    }

    @Test func recursiveAndBrokenCompositesAreErrors() throws {
        let font = try Font(bytes: TinyFont.trueType([
            .empty,
            .simple([Self.square(0, 0, 100, 100)]),
            .composite([(2, 0, 0)]),                          // refers to itself
            .composite([(4, 10, 0)]), .composite([(3, 10, 0)]),  // 3 → 4 → 3
            .composite([(1, 0, 0), (999, 0, 0)]),             // component out of range
            .composite([(1, 0, 0), (1, 200, 0)]),             // fine: two squares
        ]))
        for g in GlyphID(2)...GlyphID(5) {
            let e = #expect(throws: FontError.self, "glyph \(g)") { try font.outline(glyph: g) }
            #expect(e.map(Self.isGlyphDataError) == true, "\(String(describing: e))")
        }
        let two = try font.outline(glyph: 6)
        #expect(two.contourCount == 2 && two.controlBox == Rect(minX: 0, minY: 0, maxX: 300, maxY: 100))
        // A chain of 40 composites, each nesting the next: an error or the square, never a trap.
        var chain: [TinyFont.Glyph] = [.empty, .simple([Self.square(0, 0, 100, 100)])]
        for k in 2..<42 { chain.append(.composite([(k + 1 < 42 ? k + 1 : 1, 1, 0)])) }
        let deep = try Font(bytes: TinyFont.trueType(chain))
        do {
            #expect(try deep.outline(glyph: 2).controlBox.width == 100)
        } catch {
            #expect(Self.isGlyphDataError(error), "\(error)")
        }
        Self.exercise(deep)
    }

    // MARK: Broken glyf / loca

    static let brokenGlyphs: [(String, [UInt8])] = {
        var g: [(String, [UInt8])] = []
        func header(_ contours: Int) -> [UInt8] { var b: [UInt8] = []; b.i16(contours); for _ in 0..<4 { b.i16(0) }; return b }
        g.append(("32767 contours, no data", header(32767)))
        g.append(("end points decreasing", header(2) + [0, 5, 0, 2, 0, 0] + [UInt8](repeating: 1, count: 6) + [UInt8](repeating: 0, count: 24)))
        g.append(("end point 65535", header(1) + [0xFF, 0xFF, 0, 0, 1, 1, 1]))
        g.append(("instructions longer than the glyph", header(1) + [0, 2, 0xFF, 0xFF, 1, 1, 1]))
        g.append(("flag repeat past the end", header(1) + [0, 3, 0, 0, 0x08 | 1, 250]))
        g.append(("coordinates cut short", header(1) + [0, 3, 0, 0, 1, 1, 1, 1, 0, 10]))
        g.append(("negative contour count -2", header(-2) + [0, 0x23, 0, 1, 0, 0, 0, 0]))
        g.append(("composite cut short", header(-1) + [0, 0x23, 0, 1]))
        g.append(("header only", header(1)))
        g.append(("three bytes", [0, 1, 0]))
        return g
    }()

    @Test(arguments: brokenGlyphs.indices)
    func brokenGlyphRecordIsAnErrorAndTheOthersStillLoad(_ i: Int) throws {
        let (name, raw) = Self.brokenGlyphs[i]
        let font = try Font(bytes: TinyFont.trueType([.empty, .simple([Self.square(0, 0, 500, 500)]), .raw(raw)]))
        do {
            // If FreeType accepted it, it decomposes within FreeType's own control box.
            let outline = try font.outline(glyph: 2)
            var bounds = BoundsSink()
            outline.decompose(into: &bounds)
            #expect(bounds.bounds == (try font.controlBox(glyph: 2)), "\(name)")
        } catch {
            #expect(Self.isGlyphDataError(error), "\(name): \(error)")
        }
        #expect(try font.outline(glyph: 1).controlBox == Rect(minX: 0, minY: 0, maxX: 500, maxY: 500), "\(name): good glyph")
        Self.exercise(font)
    }

    /// `loca` entries of a copy of DejaVu Sans overwritten (beyond the end of glyf, decreasing, all equal,
    /// pointing into the middle of other glyphs), written to a file and opened by path.
    @Test(arguments: ["beyond glyf", "decreasing", "all zero", "shifted by 3", "random"])
    func corruptedLocaTable(_ how: String) throws {
        var bytes = try Fonts.bytes(Fonts.dejaVuSans)
        let loca = try #require(tableRange("loca", in: bytes))
        let glyfLength = try #require(tableRange("glyf", in: bytes)).count
        let head = try #require(tableRange("head", in: bytes))
        let long = bytes[head.lowerBound + 51] == 1
        let entry = long ? 4 : 2
        var rng = SplitMix64(seed: UInt64(how.utf8.count))
        func put(_ k: Int, _ v: Int) {
            let at = loca.lowerBound + k * entry
            let stored = long ? v : v / 2
            for b in 0..<entry { bytes[at + b] = UInt8(truncatingIfNeeded: stored >> (8 * (entry - 1 - b))) }
        }
        func get(_ k: Int) -> Int {
            var v = 0
            for b in 0..<entry { v = v << 8 | Int(bytes[loca.lowerBound + k * entry + b]) }
            return long ? v : v * 2
        }
        let count = loca.count / entry
        // Glyphs 400 on whose own glyf record is a simple glyph (composites may use the broken ones): their
        // loca entries are left alone, so they must load exactly as in the intact font.
        let glyf = try #require(tableRange("glyf", in: bytes))
        let simpleAfter = (400..<2000).filter { k in
            let at = glyf.lowerBound + get(k)
            return get(k + 1) > get(k) && Int16(bitPattern: UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])) >= 0
        }
        for k in 1..<min(count, 400) {
            switch how {
            case "beyond glyf": if k % 3 == 0 { put(k, glyfLength + 1000 * k) }
            case "decreasing": put(k, max(0, glyfLength - 97 * k))
            case "all zero": put(k, 0)
            case "shifted by 3": put(k, get(k) + 4)
            default: put(k, Int.random(in: 0...(glyfLength + 50_000), using: &rng) & ~3)
            }
        }
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let path = try dir.write("loca-\(how).ttf", bytes)
        // loca is read per glyph: the font opens, broken glyphs are errors, and glyphs whose loca entries
        // were left alone (400 on) load exactly as in the intact font.
        let font = try Font(path: path)
        let intact = try Font(path: Fonts.dejaVuSans)
        for g in font.glyphIDs.prefix(400) {
            do { _ = try font.outline(glyph: g) } catch { #expect(Self.isGlyphDataError(error), "glyph \(g): \(error)") }
        }
        #expect(simpleAfter.count >= 20)
        for k in simpleAfter.prefix(60) {
            let g = GlyphID(UInt32(k))
            #expect(try font.outline(glyph: g) == intact.outline(glyph: g), "untouched glyph \(g)")
        }
        Self.exercise(font, maxGlyphs: 40)
    }

    // MARK: CFF

    @Test func bareCFFFontLoads() throws {
        let font = try Font(bytes: TinyFont.cff([[14], TinyFont.cffPolygon([(0, 0), (500, 0), (500, 700), (0, 700)])]))
        #expect(font.unitsPerEm == 1000 && font.glyphCount == 2)
        #expect(try font.outline(glyph: 1).controlBox == Rect(minX: 0, minY: 0, maxX: 500, maxY: 700))
        Self.exercise(font)
    }

    @Test func cffWithTensOfThousandsOfPointsHitsThePointLimit() throws {
        // A charstring of 120,000 tiny line segments (CFF has no 16-bit point count).
        var cs = TinyFont.cffNumber(0) + TinyFont.cffNumber(0) + [21]
        for k in 0..<120_000 { cs += TinyFont.cffNumber(k % 2 == 0 ? 1 : -1) + TinyFont.cffNumber(1) + [5] }
        cs.append(14)
        let font = try Font(bytes: TinyFont.cff([[14], cs]))
        do {
            _ = try font.outline(glyph: 1)
            Issue.record("expected tooManyPoints or a FreeType error")
        } catch {
            switch error {
            case .tooManyPoints(_, let count, let limit): #expect(count > limit && limit == Font.defaultMaximumPoints)
            case .freeType: break
            default: Issue.record("unexpected \(error)")
            }
        }
    }

    @Test(arguments: 0..<12)
    func corruptedCFFIsAnErrorOrAnOutline(seed: Int) throws {
        let shapes: [[UInt8]] = [[14], TinyFont.cffPolygon([(0, 0), (500, 0), (500, 700), (0, 700)]),
                                 TinyFont.cffPolygon([(-32767, -32767), (32767, -32767), (0, 32767)])]
        var bytes = TinyFont.cff(shapes)
        var rng = SplitMix64(seed: UInt64(seed) &+ 99)
        // Overwrite a few bytes anywhere: header, INDEX offsets, DICT operands, charstrings.
        for _ in 0..<(1 + seed % 4) {
            bytes[Int.random(in: 0..<bytes.count, using: &rng)] = .random(in: 0...255, using: &rng)
        }
        let font: Font
        do { font = try Font(bytes: bytes) } catch {
            switch error {
            case .notAFont, .freeType, .notScalable, .faceIndexOutOfRange: break
            default: Issue.record("unexpected \(error)")
            }
            return
        }
        for g in font.glyphIDs.prefix(16) {
            do { _ = try font.outline(glyph: g).elements } catch { #expect(Self.isGlyphDataError(error), "\(error)") }
        }
        Self.exercise(font)
    }
}
