import CMallocCounter
import Foundation
import InkBenchRaster
import InkBenchSupport
import InkFreeType
import InkGeometry
import InkHit

/// `ink-bench-summary cold`: what a glyph costs the first time it is seen, each number next to
/// FreeType's load + render of the same glyphs measured in the same process, in alternated rounds
/// (FreeType, InkHit, FreeType, InkHit, …, after one warm-up pair that is not counted):
///
/// - shape creation per distinct glyph: a fresh `FontShapeCache` and a freshly loaded `Font` per round (the
///   load is not timed), `FontShapeCache.shape(font:glyph:maxScale:)` over the glyph set, against
///   `GlyphRenderer` (`FT_Load_Glyph` unhinted + `FT_Render_Glyph` normal, on a fresh `FT_Face` per round);
/// - shape memory of the 600 CJK ideographs at 16 px, next to FreeType's 1× bitmaps of them;
/// - the cold page: the ideographs laid out by `TextLayout`, added to a fresh cache (`Builder.add` +
///   `build()`), against FreeType rendering the page's glyphs;
/// - text layout from a fresh cache (`LayoutWorkload`);
/// - for context, page queries through lean and full shape forms (`HitIndex.Builder.shapeForms`).
enum Cold {
    /// One timed region: wall-clock seconds and the seconds of CPU time the thread spent in it (on a shared
    /// machine, wall time also counts the time other processes held the core).
    struct Span {
        var wall = 0.0, cpu = 0.0
    }

    /// The timed regions of alternated rounds.
    struct Pairs {
        var base: [Span] = [], ours: [Span] = []
        /// Median wall seconds of a round.
        var baseMedian: Double { Cold.median(base.map(\.wall)) }
        var oursMedian: Double { Cold.median(ours.map(\.wall)) }
        /// Median over rounds of (InkHit round / the FreeType round before it), wall clock.
        var ratio: Double { Cold.median(zip(ours, base).map { $0.wall / $1.wall }) }
        /// The same in CPU time.
        var cpuRatio: Double { Cold.median(zip(ours, base).map { $0.cpu / $1.cpu }) }
    }

    static func median(_ xs: [Double]) -> Double {
        let s = xs.sorted(), n = s.count
        guard n > 0 else { return .nan }
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
    }

    /// Pairs of rounds to time: at least `rounds`, and more until the timed regions add up to `seconds`
    /// (at most 101).
    struct Rounds {
        var rounds: Int, seconds: Double
    }

    /// One warm-up pair, then pairs (the baseline, then ours) as `r` says. Each closure does its own untimed
    /// setup and returns its timed region.
    static func alternate(_ r: Rounds, base: () throws -> Span, ours: () throws -> Span) rethrows -> Pairs {
        _ = try base()
        _ = try ours()
        var p = Pairs()
        var total = 0.0
        while p.base.count < 101 && (p.base.count < r.rounds || total < r.seconds) {
            p.base.append(try base())
            p.ours.append(try ours())
            total += p.base[p.base.count - 1].wall + p.ours[p.ours.count - 1].wall
        }
        return p
    }

    /// Seconds `body` takes (ContinuousClock), and the thread's CPU seconds in it.
    @inline(__always) static func seconds(_ body: () throws -> Void) rethrows -> Span {
        let clock = ContinuousClock()
        let c0 = threadCPU()
        let t0 = clock.now
        try body()
        let t1 = clock.now
        return Span(wall: (t1 - t0).seconds, cpu: threadCPU() - c0)
    }

    /// CPU seconds of this thread so far (CLOCK_THREAD_CPUTIME_ID).
    static func threadCPU() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    // MARK: Shape creation

    struct ShapeRow {
        var set: ColdGlyphSet
        /// Passes over the set per round (each with its own fresh cache and font / face).
        var passes = 1
        var pairs = Pairs()
        /// Shapes the last InkHit round's cache held, and their bytes.
        var shapes = 0, shapeBytes = 0
        /// FreeType's 1× bitmap bytes (rows × |pitch|) summed over the set.
        var bitmapBytes = 0
        var perGlyph: Double { Double(set.glyphs.count * passes) }
    }

    /// Shape creation of `set` against FreeType, `passes` passes a round.
    static func shapes(_ set: ColdGlyphSet, passes: Int, rounds: Rounds) throws -> ShapeRow {
        var row = ShapeRow(set: set, passes: passes)
        let renderer = try GlyphRenderer(fontPath: set.fontPath)
        let ids = set.glyphIDs, glyphs = set.glyphs, scale = set.maxScale
        var bitmapBytes = 0, shapeCount = 0, shapeBytes = 0
        let pairs = try alternate(rounds, base: {
            let faces = try (0..<passes).map { _ in try renderer.face(size: set.size) }
            var run: GlyphRenderer.Run? = nil
            let t = ids.withUnsafeBufferPointer { buf in
                withExtendedLifetime(faces) { seconds { for f in faces { run = f.loadAndRender(buf) } } }
            }
            guard let r = run, r.error == 0, r.rendered == ids.count else {
                throw Failure(description: "FreeType failed on \(set.name): \(String(describing: run))")
            }
            bitmapBytes = r.bitmapBytes
            return t
        }, ours: {
            let fonts = try (0..<passes).map { _ in try Font(path: set.fontPath) }
            let caches = (0..<passes).map { _ in FontShapeCache() }
            let t = try withExtendedLifetime((fonts, caches)) {
                try seconds {
                    for k in 0..<passes {
                        let cache = caches[k], font = fonts[k]
                        for g in glyphs { _ = try cache.shape(font: font, glyph: g, maxScale: scale) }
                    }
                }
            }
            shapeCount = caches[0].count
            shapeBytes = caches[0].byteCount
            return t
        })
        (row.pairs, row.bitmapBytes, row.shapes, row.shapeBytes) = (pairs, bitmapBytes, shapeCount, shapeBytes)
        guard row.shapes == glyphs.count else {
            throw Failure(description: "\(set.name): the cache holds \(row.shapes) shapes for \(glyphs.count) glyphs")
        }
        return row
    }

    // MARK: Shape memory

    struct Memory {
        var glyphs = 0
        var cacheBytes = 0
        var counted = false
        var malloc = InkMallocStats()
        var bitmapBytes = 0
    }

    /// Bytes of the shapes of `set` made from a fresh cache and font: the cache's count, and what malloc saw.
    static func memory(_ set: ColdGlyphSet, bitmapBytes: Int) throws -> Memory {
        var m = Memory(glyphs: set.glyphs.count, bitmapBytes: bitmapBytes)
        m.counted = LayoutNumbers.counterWorks()
        let font = try Font(path: set.fontPath)
        let cache = FontShapeCache(), scale = set.maxScale
        ink_malloc_counter_start()
        for g in set.glyphs { _ = try cache.shape(font: font, glyph: g, maxScale: scale) }
        m.malloc = ink_malloc_counter_stop()
        m.cacheBytes = cache.byteCount
        withExtendedLifetime((font, cache)) {}
        return m
    }

    // MARK: Cold page

    struct PageNumbers {
        var page: ColdPage
        var pairs = Pairs()
        /// Seconds of `build()` alone in each InkHit round (the rest: `Builder.add` per placement).
        var builds: [Double] = []
        /// The last cold index against brute force (2,000 points) at r = 0 and 3.5.
        var check0 = OracleComparison(), check35 = OracleComparison()
        var indexBytes = 0, shapeBytes = 0, uniqueShapes = 0
    }

    /// The page from a fresh cache and font (`Builder.add` per placement + `build()`) against FreeType
    /// loading and rendering its glyphs.
    static func page(_ page: ColdPage, rounds: Rounds) throws -> PageNumbers {
        var n = PageNumbers(page: page)
        let renderer = try GlyphRenderer(fontPath: page.fontPath)
        let ids = page.glyphIDs
        var last: (HitIndex, [GlyphPlacement], FontShapeCache)? = nil
        var builds: [Double] = []
        n.pairs = try alternate(rounds, base: {
            let face = try renderer.face(size: page.size)
            var run: GlyphRenderer.Run? = nil
            let t = ids.withUnsafeBufferPointer { buf in withExtendedLifetime(face) { seconds { run = face.loadAndRender(buf) } } }
            guard let r = run, r.error == 0 else { throw Failure(description: "FreeType failed on the page: \(String(describing: run))") }
            return t
        }, ours: {
            let font = try Font(path: page.fontPath)
            let placements = page.placements(font: font)
            let cache = FontShapeCache()
            let clock = ContinuousClock()
            var b = HitIndex.Builder()
            let c0 = threadCPU()
            let t0 = clock.now
            b.reserveCapacity(placements.count)
            for p in placements { try b.add(p, cache: cache) }
            let t1 = clock.now
            let index = b.build()
            let t2 = clock.now
            let c2 = threadCPU()
            builds.append((t2 - t1).seconds)
            last = (index, placements, cache)
            return Span(wall: (t2 - t0).seconds, cpu: c2 - c0)
        })
        n.builds = Array(builds.dropFirst())      // the first: the warm-up round
        guard let (index, placements, cache) = last else { return n }
        n.indexBytes = index.bytesBeyondShapes
        n.shapeBytes = cache.byteCount
        n.uniqueShapes = index.uniqueShapeCount
        let shapes = try placements.map { try cache.shape(for: $0) }
        let oracle = BruteForce(shapes: shapes, transforms: placements.map(\.fontUnitsToView))
        let points = uniformPoints(2_000, in: page.bounds)
        try points.withUnsafeBufferPointer { pts in
            n.check0 = OracleComparison.compare(index: index, oracle: oracle, points: pts, radius: 0)
            n.check35 = OracleComparison.compare(index: index, oracle: oracle, points: pts, radius: 3.5)
            if n.check0.wrong + n.check35.wrong > 0 {
                throw Failure(description: "the cold page's index disagrees with brute force:\n\(n.check0)\n\(n.check35)")
            }
        }
        return n
    }

    static func uniformPoints(_ count: Int, in box: Rect, seed: UInt64 = 0xC01D) -> [Point] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in Point(box.minX + rng.unit() * box.width, box.minY + rng.unit() * box.height) }
    }

    // MARK: Text layout from a fresh cache

    struct LayoutFresh {
        /// Seconds per layout, fonts loaded once (BENCHMARKS.md, "Warm"): median, fastest.
        var freshCache = (median: 0.0, min: 0.0)
        /// Seconds per layout with the fonts loaded again before each (not timed): median, fastest.
        var freshFonts = (median: 0.0, min: 0.0)
        var glyphs = 0
    }

    static func layout(rounds: Int, seconds: Double) throws -> LayoutFresh {
        var l = LayoutFresh()
        let fonts = try LayoutWorkload.loadFonts()
        l.glyphs = try LayoutWorkload.layout(fonts, cache: LayoutWorkload.makeCache()).glyphs.count
        l.freshCache = Timing.stats(rounds: rounds, minSeconds: seconds) {
            _ = try! LayoutWorkload.layout(fonts, cache: LayoutWorkload.makeCache())
        }
        var samples: [Double] = []
        for _ in 0...rounds {
            let fresh = try LayoutWorkload.loadFonts()
            let cache = LayoutWorkload.makeCache()
            samples.append(try withExtendedLifetime((fresh, cache)) {
                try Cold.seconds { _ = try LayoutWorkload.layout(fresh, cache: cache) }.wall
            })
        }
        samples.removeFirst()
        l.freshFonts = (median(samples), samples.min() ?? .nan)
        return l
    }

    // MARK: Lean and full forms: queries

    struct FormsRow {
        var name = ""
        var points = 0
        /// ns per point: [lean, full] × [batch r0, single r0, batch r3.5, single r3.5].
        var ns: [[Double]] = [[], []]
        /// lean / full, median of alternated rounds, in the same order.
        var ratios: [Double] = []
        var bytes: [Int] = []
    }

    /// Queries of `placements` (shapes from `cache`) through indexes built with lean and with full forms,
    /// each checked against brute force first, then timed in alternated rounds (full, lean, …).
    static func forms(name: String, placements: [GlyphPlacement], cache: FontShapeCache, points: [Point],
                      rounds: Rounds) throws -> FormsRow {
        var row = FormsRow(name: name, points: points.count)
        let shapes = try placements.map { try cache.shape(for: $0) }
        let oracle = BruteForce(shapes: shapes, transforms: placements.map(\.fontUnitsToView))
        let lean = try ColdPage.buildIndex(placements, cache: cache, forms: .lean)
        let full = try ColdPage.buildIndex(placements, cache: cache, forms: .full)
        for (index, forms) in [(lean, "lean"), (full, "full")] {
            row.bytes.append(index.bytesBeyondShapes)
            try points.prefix(2_000).withUnsafeBufferPointer { pts in
                for r in [0.0, 3.5] {
                    let c = OracleComparison.compare(index: index, oracle: oracle, points: pts, radius: r)
                    if c.wrong > 0 { throw Failure(description: "\(name), \(forms) forms, r = \(r): \(c)") }
                }
            }
        }
        var answers = [Hit?](repeating: nil, count: points.count)
        var sink = 0
        let perPoint = 1e9 / Double(points.count)
        for r in [0.0, 3.5] {
            for single in [false, true] {
                func pass(_ index: HitIndex) -> Span {
                    seconds {
                        if single {
                            for p in points { if let h = index.hit(at: p, radius: r) { sink &+= h.placement } }
                        } else {
                            index.hits(for: points, radius: r, into: &answers)
                        }
                    }
                }
                let p = alternate(rounds, base: { pass(full) }, ours: { pass(lean) })
                row.ns[0].append(p.oursMedian * perPoint)
                row.ns[1].append(p.baseMedian * perPoint)
                row.ratios.append(p.ratio)
            }
        }
        if sink == -1 { print("") }
        return row
    }

    // MARK: Run

    struct Numbers {
        var rounds = Rounds(rounds: 0, seconds: 0), queryRounds = Rounds(rounds: 0, seconds: 0)
        var shapeRows: [ShapeRow] = []
        var memory = Memory()
        var page: PageNumbers? = nil
        var layout = LayoutFresh()
        var forms: [FormsRow] = []
    }

    static func measure(quick: Bool) throws -> Numbers {
        let rounds = Rounds(rounds: quick ? 5 : 9, seconds: quick ? 0.3 : 1.5)
        let queryRounds = Rounds(rounds: quick ? 3 : 5, seconds: quick ? 0.3 : 1)
        var n = Numbers(rounds: rounds, queryRounds: queryRounds)
        func note(_ s: String) { FileHandle.standardError.write("cold: \(s)…\n".data(using: .utf8)!) }
        for set in try ColdWorkloads.glyphSets() {
            note("shapes of \(set.name)")
            // ≥ ~500 shapes a round, so that a round of the small sets is not a few hundred µs.
            let passes = max(1, (500 + set.glyphs.count - 1) / set.glyphs.count)
            n.shapeRows.append(try shapes(set, passes: passes, rounds: rounds))
        }
        note("memory")
        let cjk16 = n.shapeRows[0]
        n.memory = try memory(cjk16.set, bitmapBytes: cjk16.bitmapBytes)
        note("the cold page")
        let cjkPage = try ColdWorkloads.cjkPage()
        n.page = try page(cjkPage, rounds: rounds)
        note("layout from a fresh cache")
        n.layout = try layout(rounds: quick ? 5 : 15, seconds: quick ? 0.2 : 0.5)
        note("lean and full forms")
        let w = try Workloads.page()
        n.forms.append(try forms(name: "page (\(w.glyphs.count) glyphs, DejaVu Sans 16 px)", placements: w.placements,
                                 cache: w.cache, points: w.points, rounds: queryRounds))
        let cache = FontShapeCache()
        _ = try ColdPage.buildIndex(cjkPage.placements, cache: cache)
        n.forms.append(try forms(name: "cold CJK page (\(cjkPage.placements.count) glyphs)", placements: cjkPage.placements,
                                 cache: cache, points: uniformPoints(50_000, in: cjkPage.bounds), rounds: queryRounds))
        return n
    }

    static func run(quick: Bool) throws {
        print(try measure(quick: quick).markdown)
    }
}
