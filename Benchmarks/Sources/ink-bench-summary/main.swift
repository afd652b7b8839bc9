// ink-bench-summary: one run → every number of BENCHMARKS.md, as Markdown.
//
//   swift run -c release ink-bench-summary              # full run (a few minutes)
//   swift run -c release ink-bench-summary --quick      # fewer rounds
//   .build/release/ink-bench-summary rss 200000         # peak RSS of building a 200,000-glyph index
//   .build/release/ink-bench-summary profile r0 10      # page batch query loop for 10 s (perf)
//   .build/release/ink-bench-summary profile r3.5 x1    # exactly one pass (callgrind)
//   .build/release/ink-bench-summary profile cold 10    # cold page builds for 10 s (perf)
//   .build/release/ink-bench-summary profile warm 10    # warm page builds for 10 s (perf)
//   .build/release/ink-bench-summary layout             # the CJK-fallback layout benchmark alone
//   .build/release/ink-bench-summary scene              # the hit scene (chat log, 10,000 nodes) alone
//   .build/release/ink-bench-summary profile scene-r8 10  # scene queries / scene-move / scene-build for 10 s (perf)
//   .build/release/ink-bench-summary workloads          # glyph counts, boxes and layout times of the workloads
//   .build/release/ink-bench-summary compare [--quick]  # key/value lines for scripts/bench-compare.sh
//   .build/release/ink-bench-summary cabi [--quick]     # queries through the C interface vs Swift (CABI.swift)
//   .build/release/ink-bench-summary quick [--quick] [--split] [--doc]   # the page's numbers, key/value (Quick.swift)
//   .build/release/ink-bench-summary classes [grid|split|codes|check]    # cell classes of the page (Classes.swift)
//   .build/release/ink-bench-summary ab [--quick] [--no-doc]   # every workload, key/value, baseline-compatible API (AB.swift)
//   .build/release/ink-bench-summary profile topmost|topmost-batch|layout SECONDS   # more loops for perf
//   .build/release/ink-bench-summary cold [--quick]     # first sight of glyphs vs FreeType load + render (Cold.swift)
//   .build/release/ink-bench-summary cold --process [--ink-hit PATH] [--runs N]   # one-off ink-hit vs hb-view
//
// Timings are medians of rounds (each round answers all points once); ns/point = round time / points.
import CMallocCounter
import Foundation
import InkBenchRaster
import InkBenchSupport
import InkFreeType
import InkGeometry
@_spi(RawBuffers) @_spi(Benchmarks) import InkHit

let args = Array(CommandLine.arguments.dropFirst())
let quick = args.contains("--quick")
let minRounds = quick ? 5 : 15
let minSeconds = quick ? 0.2 : 0.6

func f(_ x: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", x) }
func ratio(_ x: Double, _ base: Double) -> String {
    let r = x / base
    return r >= 100 ? String(format: "%.0f×", r) : (r >= 10 ? String(format: "%.1f×", r) : String(format: "%.2f×", r))
}
func pct(_ n: Int, _ of: Int) -> String { String(format: "%d (%.2f %%)", n, 100 * Double(n) / Double(max(of, 1))) }

func peakRSSKiB() -> Int {
    guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in s.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
    return -1
}
func currentRSSKiB() -> Int {
    guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in s.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
    return -1
}

/// ns per point of one pass of `body` over `n` points (median of rounds).
func nsPerPoint(_ n: Int, rounds: Int = minRounds, seconds: Double = minSeconds, _ body: () -> Void) -> Double {
    nsPerPointStats(n, rounds: rounds, seconds: seconds, body).median
}
/// ns per point: median and fastest round.
func nsPerPointStats(_ n: Int, rounds: Int = minRounds, seconds: Double = minSeconds,
                     _ body: () -> Void) -> (median: Double, min: Double) {
    let s = Timing.stats(rounds: rounds, minSeconds: seconds, body)
    return (s.median * 1e9 / Double(n), s.min * 1e9 / Double(n))
}

/// The commit of the InkHit checkout being measured (`INKHIT_COMMIT` overrides; "+ changes" when dirty).
func libraryCommit() -> String {
    if let c = ProcessInfo.processInfo.environment["INKHIT_COMMIT"] { return c }
    func git(_ a: [String]) -> String? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        p.arguments = ["-C", ".."] + a
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return nil }
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { return nil }
        return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
    guard let head = git(["rev-parse", "--short", "HEAD"]) else { return "unknown" }
    let dirty = git(["status", "--porcelain", "--", "Sources", "Package.swift"]).map { !$0.isEmpty } ?? false
    return head + (dirty ? " + uncommitted changes in Sources/" : "")
}

// MARK: - Sub-commands

if args.first == "compare" {
    // The subset scripts/bench-compare.sh compares between two commits (Compare.swift).
    try Compare.run(quick: quick)
    exit(0)
}

if args.first == "cold" {
    // Cold: first sight of glyphs against FreeType's load + render in the same run (Cold.swift), or
    // whole `ink-hit query` processes against hb-view (Cold+Process.swift).
    do {
        if args.contains("--process") {
            try ColdProcess.run(arguments: Array(args.dropFirst()))
        } else if let unknown = args.dropFirst().first(where: { $0 != "--quick" }) {
            throw Cold.Failure(description: "unknown option \(unknown) (cold [--quick], or cold --process …)")
        } else {
            try Cold.run(quick: quick)
        }
    } catch {
        FileHandle.standardError.write("ink-bench-summary cold: \(error)\n".data(using: .utf8)!)
        exit(1)
    }
    exit(0)
}

if args.first == "ab" {
    // Every workload's query times, key/value, with API the class-raster baseline (07d4b99) also has (AB.swift).
    try AB.run(quick: quick)
    exit(0)
}

if args.first == "quick" {
    // The page's query numbers in one short run, for A/B runs of two builds (Quick.swift).
    try Quick.run(quick: quick)
    exit(0)
}

if args.first == "classes" {
    // The measurements before choosing the class raster, and of the raster chosen (Classes.swift):
    //   classes                 the page's points by cell class, cells of 1 ... 0.25 px (exact distances)
    //   classes split [T] [G]   r = 0 and r = 3.5 classes with the one placement's place in a T px cell list
    //                           (boxes grown by G px)
    //   classes grid            page-grid list entries with boxes as they are and grown by R
    //   classes codes           every workload's points by the index's own raster codes
    //   classes check           every workload against brute force at r = 0, 3.5, 8; batches vs single calls
    switch args.dropFirst().first {
    case "grid": try Classes.gridStats()
    case "codes": try Classes.codes()
    case "check": try Classes.check()
    case "split": try Classes.split(tile: Double(args.dropFirst(2).first ?? "8") ?? 8, grow: Double(args.dropFirst(3).first ?? "0") ?? 0)
    default: try Classes.run()
    }
    exit(0)
}

if args.first == "cabi" {
    // The C interface: page queries through the C interface vs the Swift calls (CABI.swift).
    try CABI.run(rounds: minRounds, seconds: minSeconds)
    exit(0)
}

if args.first == "workloads" {
    // What each workload is: glyphs (and the clusters HarfBuzz joined into one glyph), lines box, layout time.
    let list: [(String, () throws -> Workload)] = [
        ("page", { try Workloads.page(pointCount: 0) }), ("at", { try Workloads.at() }), ("cjk", { try Workloads.cjk() }),
    ] + Workloads.scalingCounts.map { n in ("scaling \(n)", { try Workloads.page(glyphs: n, name: "scaling \(n)", pointCount: 0) }) }
    for (key, make) in list {
        let w = try make()
        let joined = w.glyphs.filter { $0.utf16.count > 1 }.count
        print("\(key): \(w.glyphs.count) glyphs (\(w.inkedGlyphs) inked, \(w.uniqueShapes) unique shapes, \(joined) from "
              + "multi-character clusters), lines box \(f(w.layoutBounds.width))×\(f(w.layoutBounds.height)) px, "
              + "TextLayout \(f(w.layoutSeconds * 1e3, 1)) ms")
    }
    exit(0)
}

if args.first == "layout" {
    let l = try LayoutNumbers.measure(rounds: minRounds, seconds: minSeconds)
    print(l.markdown)
    exit(0)
}

if args.first == "scene" {
    print(try SceneNumbers.measure(rounds: minRounds, seconds: minSeconds).markdown)
    exit(0)
}

if args.first == "profile", let kind = args.dropFirst().first, kind.hasPrefix("scene-") {
    try SceneNumbers.profile(String(kind.dropFirst(6)), seconds: Double(args.dropFirst(2).first ?? "") ?? 5)
    exit(0)
}

if args.first == "rss" {
    // Peak RSS of a process that lays out N glyphs and builds their index (fonts, shapes and points included).
    let n = Int(args.dropFirst().first ?? "") ?? 200_000
    let before = peakRSSKiB()
    let w = try Workloads.page(glyphs: n, name: "rss", pointCount: 0)
    let after = peakRSSKiB()
    print("glyphs=\(n) peak_rss_kib=\(after) peak_rss_before_kib=\(before) rss_now_kib=\(currentRSSKiB()) "
          + "bytes_beyond_shapes=\(w.index.bytesBeyondShapes) shape_bytes=\(w.shapeBytes) unique=\(w.uniqueShapes)")
    exit(0)
}

if args.first == "profile", args.dropFirst().first == "layout" {
    // The CJK-fallback layout in a loop (shared cache), for perf.
    let fonts = try LayoutWorkload.loadFonts()
    let cache = LayoutWorkload.makeCache()
    let seconds = Double(args.dropFirst(2).first ?? "") ?? 5
    let clock = ContinuousClock()
    let t0 = clock.now
    var n = 0
    while (clock.now - t0).seconds < seconds { _ = try LayoutWorkload.layout(fonts, cache: cache); n += 1 }
    print("profile layout: \(n) layouts, \(f((clock.now - t0).seconds * 1e3 / Double(n), 3)) ms each")
    exit(0)
}

if args.first == "profile", let kind = args.dropFirst().first, kind == "first-sight" || kind == "freetype" {
    // One pass of a cold glyph set, for callgrind (instruction counts do not depend on the machine's load):
    // `first-sight SET` creates the set's shapes from a fresh cache and font (`FontShapeCache.shape`),
    // `freetype SET` loads and renders them with FreeType; SET is cjk16, cjk48, dejavu or cantarell.
    //   valgrind --tool=callgrind --toggle-collect='*ColdProfile*run*' .build/release/ink-bench-summary profile first-sight cjk16
    let name = args.dropFirst(2).first ?? "cjk16"
    try ColdProfile.run(kind: kind, set: name)
    exit(0)
}

if args.first == "profile", let kind = args.dropFirst().first, kind == "cold" || kind == "warm" {
    // Page builds in a loop, for perf: cold (fresh Font + FontShapeCache each time) or warm (the workload's
    // cache: `Builder.add(_:cache:)` per glyph + build).
    let amount = args.dropFirst(2).first ?? "5"
    let seconds = Double(amount) ?? 5
    let w = try Workloads.page(pointCount: 0)
    let clock = ContinuousClock()
    let t0 = clock.now
    var builds = 0
    while (clock.now - t0).seconds < seconds {
        _ = kind == "cold" ? try w.buildIndexCold() : try w.buildIndex(font: w.font, cache: w.cache)
        builds += 1
    }
    print("profile \(kind) build: \(builds) builds, \(f((clock.now - t0).seconds * 1e3 / Double(builds), 3)) ms each")
    exit(0)
}

if args.first == "profile" {
    // A plain loop for perf/callgrind: page batch queries for SECONDS, or exactly N passes with xN.
    let r = args.dropFirst().first == "r3.5" ? 3.5 : 0.0
    let amount = args.dropFirst(2).first ?? "5"
    let fixedPasses = amount.hasPrefix("x") ? Int(amount.dropFirst()) : nil
    let seconds = Double(amount) ?? 5
    let w = try Workloads.page()
    let index = w.index, points = w.points
    var out = [Hit?](repeating: nil, count: points.count)
    let clock = ContinuousClock()
    let t0 = clock.now
    var passes = 0
    let topmost = args.dropFirst().first == "topmost"
    let topmostBatch = args.dropFirst().first == "topmost-batch"
    var tops = [Int](repeating: -1, count: points.count)
    var sink = 0
    while fixedPasses.map({ passes < $0 }) ?? ((clock.now - t0).seconds < seconds) {
        if topmostBatch {
            points.withUnsafeBufferPointer { pp in tops.withUnsafeMutableBufferPointer { index.unsafeTopmost(for: pp, into: $0) } }
        } else if topmost {
            for p in points { if let k = index.topmost(at: p) { sink &+= k } }
        } else {
            index.hits(for: points, radius: r, into: &out)
        }
        passes += 1
    }
    if sink == -1 { print("") }
    let el = (clock.now - t0).seconds
    print("profile r=\(r): \(passes) passes, \(f(el * 1e9 / Double(passes * w.points.count), 2)) ns/point")
    exit(0)
}

// MARK: - Full summary

func loadAverage() -> String {
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
}

func machine() -> String {
    var model = "?"
    if let s = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) {
        for line in s.split(separator: "\n") where line.hasPrefix("model name") {
            model = line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "?"
            break
        }
    }
    return "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(model), "
        + "\(ProcessInfo.processInfo.physicalMemory >> 30) GiB"
}

print("# InkHit benchmark summary")
print("")
print("- machine: \(machine())")
print("- date: \(Date())")
print("- InkHit commit: \(libraryCommit())")
print("- load average at start: \(loadAverage()) (other processes share these cores: compare with the end)")
print("- mode: \(quick ? "quick" : "full") (medians of ≥ \(minRounds) rounds and ≥ \(minSeconds) s per number)")
print("")

struct Row {
    var name = ""
    var glyphs = 0, inked = 0, unique = 0, points = 0
    var r0 = 0.0, r35 = 0.0, single0 = 0.0, single35 = 0.0, par0 = 0.0, par35 = 0.0, unsafe0 = 0.0, unsafe35 = 0.0
    var r0min = 0.0, r35min = 0.0, par0min = 0.0, par35min = 0.0
    var brute0 = 0.0, brute35 = 0.0, brutePoints = 0
    var boxes = 0.0, bmp1 = 0.0, bmp4 = 0.0
    var check0 = OracleComparison(), check35 = OracleComparison()
    var boxWrong = 0, boxFP = 0, boxFN = 0, boxOther = 0, boxFPspaces = 0
    var bmp1Wrong = (fp: 0, fn: 0), bmp4Wrong = (fp: 0, fn: 0)
    var bmp1Bytes = 0, bmp4Bytes = 0, bmp1Render = 0.0, bmp4Render = 0.0
    var buildWarm = 0.0, buildCold = 0.0
    var bytesPerPlacement = 0.0, bytesPerShape = 0.0, shapeBytes = 0
    var inkFraction = 0.0
    var edgesPerShape = 0.0
    /// Mean over (a subset of) points: placements whose view ink box grown by 3.5 px holds the point, and
    /// placements whose ink is within 3.5 px (`allHits(at:radius:)`).
    var boxCandidates35 = 0.0, inkWithin35 = 0.0
    /// Containment only: a loop of `topmost(at:)` and the batch `unsafeTopmost(for:into:)`, ns per point.
    var top = 0.0, topBatch = 0.0
    /// Index bytes (`bytesBeyondShapes`) and the class raster's cell (px) and bytes (0: none).
    var indexBytes = 0, rasterCell = 0.0, rasterBytes = 0
    /// Points per raster code (index 0: outside the raster or no raster).
    var codes = [Int](repeating: 0, count: 17)
}

func measure(_ w: Workload, brutePoints: Int, builds: Bool) throws -> Row {
    var row = Row()
    row.name = w.name
    row.glyphs = w.glyphs.count
    row.inked = w.inkedGlyphs
    row.unique = w.uniqueShapes
    row.points = w.points.count
    let pts = w.pointBuffer, out = w.answers, n = pts.count
    let index = w.index

    // Correctness first: every point against the brute-force oracle.
    let oracle = BruteForce(w)
    row.check0 = OracleComparison.compare(index: index, oracle: oracle, points: pts, radius: 0)
    row.check35 = OracleComparison.compare(index: index, oracle: oracle, points: pts, radius: 3.5)

    // InkHit: the batch call on arrays (one answer array reused, as an app keeps one), then the same on raw
    // buffers, a loop of single-point calls, and all cores.
    let points = w.points
    var answers = [Hit?](repeating: nil, count: n)
    (row.r0, row.r0min) = nsPerPointStats(n) { index.hits(for: points, radius: 0, into: &answers) }
    (row.r35, row.r35min) = nsPerPointStats(n) { index.hits(for: points, radius: 3.5, into: &answers) }
    row.unsafe0 = nsPerPoint(n) { index.unsafeHits(for: pts, radius: 0, into: out) }
    row.unsafe35 = nsPerPoint(n) { index.unsafeHits(for: pts, radius: 3.5, into: out) }
    row.single0 = nsPerPoint(n) { for i in 0..<n { out[i] = index.hit(at: pts[i], radius: 0) } }
    row.single35 = nsPerPoint(n) { for i in 0..<n { out[i] = index.hit(at: pts[i], radius: 3.5) } }
    var topSum = 0
    row.top = nsPerPoint(n) { for i in 0..<n { if let k = index.topmost(at: pts[i]) { topSum &+= k } } }
    let tops = UnsafeMutableBufferPointer<Int>.allocate(capacity: n)
    tops.initialize(repeating: -1)
    row.topBatch = nsPerPoint(n) { index.unsafeTopmost(for: pts, into: tops) }
    tops.deallocate()
    if topSum == -1 { print("") }
    (row.par0, row.par0min) = nsPerPointStats(n) { index.unsafeConcurrentHits(for: pts, radius: 0, into: out) }
    (row.par35, row.par35min) = nsPerPointStats(n) { index.unsafeConcurrentHits(for: pts, radius: 3.5, into: out) }
    var ink = [Bool](repeating: false, count: n)
    var inkGlyph = [Int](repeating: -1, count: n)
    for i in 0..<n { if let h = index.hit(at: pts[i], radius: 0) { ink[i] = true; inkGlyph[i] = h.placement } }
    row.inkFraction = Double(ink.reduce(0) { $0 + ($1 ? 1 : 0) }) / Double(n)

    // Brute force on the first `brutePoints` points.
    let bn = min(brutePoints, n)
    row.brutePoints = bn
    row.brute0 = nsPerPoint(bn, rounds: 3, seconds: 0.3) { for i in 0..<bn { out[i] = oracle.hit(pts[i], radius: 0) } }
    row.brute35 = nsPerPoint(bn, rounds: 3, seconds: 0.3) { for i in 0..<bn { out[i] = oracle.hit(pts[i], radius: 3.5) } }

    // Glyph boxes.
    let boxes = GlyphBoxes(w)
    var hits = 0
    row.boxes = nsPerPoint(n) { for p in pts where boxes.hit(p) >= 0 { hits &+= 1 } }
    for i in 0..<n {
        let b = boxes.hit(pts[i])
        if b >= 0 && !ink[i] {
            row.boxFP += 1
            if !boxes.inked[b] { row.boxFPspaces += 1 }
        } else if b < 0 && ink[i] { row.boxFN += 1 } else if b >= 0 && b != inkGlyph[i] { row.boxOther += 1 }
    }
    row.boxWrong = row.boxFP + row.boxFN + row.boxOther

    // Coverage bitmaps (FreeType) at 1× and 4×.
    let rg = zip(w.glyphs, w.transforms).map { RasterGlyph(id: $0.id.rawValue, transform: $1) }
    for scale in [1.0, 4.0] {
        var bitmap: CoverageBitmap? = nil
        let render = Timing.median(rounds: 3, minSeconds: 0.2) {
            bitmap = try! CoverageBitmap(fontPath: w.fontPath, glyphs: rg, viewBox: w.viewBox, scale: scale)
        }
        let bm = bitmap!
        let t = nsPerPoint(n) { for p in pts where bm.isHit(p) { hits &+= 1 } }
        var fp = 0, fn = 0
        for i in 0..<n {
            let b = bm.isHit(pts[i])
            if b && !ink[i] { fp += 1 } else if !b && ink[i] { fn += 1 }
        }
        if scale == 1 { row.bmp1 = t; row.bmp1Wrong = (fp, fn); row.bmp1Bytes = bm.byteCount; row.bmp1Render = render }
        else { row.bmp4 = t; row.bmp4Wrong = (fp, fn); row.bmp4Bytes = bm.byteCount; row.bmp4Render = render }
    }
    if hits == -1 { print("") }

    // Build.
    if builds {
        row.buildWarm = Timing.median(rounds: minRounds, minSeconds: minSeconds) {
            _ = try! w.buildIndex(font: w.font, cache: w.cache)
        }
        row.buildCold = Timing.median(rounds: minRounds, minSeconds: minSeconds) { _ = try! w.buildIndexCold() }
    }
    var seen = Set<ObjectIdentifier>(), edges = 0
    for s in w.shapes where s.edgeCount > 0 && seen.insert(ObjectIdentifier(s)).inserted { edges += s.edgeCount }
    row.edgesPerShape = Double(edges) / Double(max(seen.count, 1))
    let sub = min(n, 20_000)
    var grown = 0, within = 0
    var buf: [Hit] = []
    buf.reserveCapacity(64)
    for i in 0..<sub {
        let p = pts[i]
        for k in 0..<oracle.count where !oracle.boxes[k].isEmpty && oracle.boxes[k].distance(to: p) <= 3.5 { grown += 1 }
        index.allHits(at: p, radius: 3.5, into: &buf)
        within += buf.count
    }
    row.boxCandidates35 = Double(grown) / Double(sub)
    row.inkWithin35 = Double(within) / Double(sub)
    row.bytesPerPlacement = Double(index.bytesBeyondShapes) / Double(index.count)
    row.indexBytes = index.bytesBeyondShapes
    if let g = index.rasterGeometry { row.rasterCell = g.cell; row.rasterBytes = g.bytes }
    for i in 0..<n { row.codes[(index.rasterCode(at: pts[i]) ?? -1) + 1] += 1 }
    row.shapeBytes = w.shapeBytes
    row.bytesPerShape = Double(w.shapeBytes) / Double(max(w.uniqueShapes, 1))
    return row
}

var rows: [Row] = []
let builders: [(String, () throws -> Workload)] = [
    ("page", { try Workloads.page() }), ("rotated", { try Workloads.rotatedPage() }),
    ("at", { try Workloads.at() }), ("cjk", { try Workloads.cjk() }),
]
for (key, make) in builders {
    FileHandle.standardError.write("measuring \(key)…\n".data(using: .utf8)!)
    let w = try make()
    rows.append(try measure(w, brutePoints: key == "at" || key == "cjk" ? 20_000 : 10_000, builds: key == "page"))
}
let page = rows[0]

print("## Correctness: InkHit vs brute force on every point")
print("")
print("| workload | glyphs (inked / unique shapes) | points | r = 0: wrong | r = 0: within 1e-4 px | r = 3.5: wrong | r = 3.5: within 1e-4 px |")
print("|---|---|---|---|---|---|---|")
for r in rows {
    print("| \(r.name) | \(r.glyphs) (\(r.inked) / \(r.unique)) | \(r.points) | \(r.check0.wrong) | \(r.check0.borderline) | \(r.check35.wrong) | \(r.check35.borderline) |")
}
for r in rows where r.check0.wrong + r.check35.wrong > 0 {
    print("")
    print("**WRONG ANSWERS on \(r.name)**:")
    print("```")
    print(r.check0.description)
    print(r.check35.description)
    print("```")
}
print("")
print("## Query, ns per point: median (fastest round), single thread unless noted")
print("")
print("| workload | ink hit fraction | InkHit r=0 batch | r=0 raw buffers | r=0 single-point loop | r=0 parallel (\(ProcessInfo.processInfo.activeProcessorCount) cores), speed-up | InkHit r=3.5 batch | r=3.5 raw buffers | r=3.5 single | r=3.5 parallel, speed-up | containment only: `topmost(at:)` loop / batch |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows {
    print("| \(r.name) | \(f(100 * r.inkFraction)) % | **\(f(r.r0))** (\(f(r.r0min))) | \(f(r.unsafe0)) | \(f(r.single0)) | \(f(r.par0)) (\(f(r.par0min))), ×\(f(r.r0 / r.par0, 2)) (fastest ×\(f(r.r0min / r.par0min, 2))) | **\(f(r.r35))** (\(f(r.r35min))) | \(f(r.unsafe35)) | \(f(r.single35)) | \(f(r.par35)) (\(f(r.par35min))), ×\(f(r.r35 / r.par35, 2)) (fastest ×\(f(r.r35min / r.par35min, 2))) | \(f(r.top)) / **\(f(r.topBatch))** |")
}
print("")
print("Batch: `hits(for:radius:into:)` on a `[Point]` into a reused `[Hit?]`; raw buffers: `unsafeHits(for:radius:into:)`; parallel: `unsafeConcurrentHits(for:radius:into:)`; containment only: a loop of `topmost(at:)`, and `unsafeTopmost(for:into:)` on raw buffers.")
print("")
print("## Against the 1× coverage bitmap: InkHit time / bitmap lookup time, same points, same run")
print("")
print("| workload | bitmap 1× ns | r = 0 batch | r = 0 single | r = 3.5 batch | containment `topmost` loop | containment batch |")
print("|---|---|---|---|---|---|---|")
for r in rows {
    print("| \(r.name) | \(f(r.bmp1)) | \(f(r.r0 / r.bmp1, 2))× | \(f(r.single0 / r.bmp1, 2))× | \(f(r.r35 / r.bmp1, 2))× | \(f(r.top / r.bmp1, 2))× | \(f(r.topBatch / r.bmp1, 2))× |")
}
print("")
print("## Class raster: where the points fall (share of all points per cell code)")
print("")
print("| workload | raster cell (px) | raster bytes | outside / far | nearMany | mixed | nearOne | touchOne | touchMany |")
print("|---|---|---|---|---|---|---|---|---|")
for r in rows {
    func p(_ x: Int) -> String { f(100 * Double(x) / Double(max(r.points, 1))) + " %" }
    let c = r.codes
    print("| \(r.name) | \(r.rasterCell) | \(r.rasterBytes) | \(p(c[0])) / \(p(c[1])) | \(p(c[2])) | \(p(c[3])) | \(p(c[5...8].reduce(0, +))) | \(p(c[9...12].reduce(0, +))) | \(p(c[13...16].reduce(0, +))) |")
}
print("")
print("far, nearOne: answered by the raster alone at r = 0 (a miss) and, with nearOne's one distance, at r ≤ the prepared radius; touch*: one winding test at r = 0; nearMany, mixed: the page cell's list.")
print("")
print("## Baselines, ns per point (median) and ratio to InkHit (baseline time / InkHit time)")
print("")
print("| workload | brute force r=0 | brute force r=3.5 | glyph boxes | bitmap 1× | bitmap 4× |")
print("|---|---|---|---|---|---|")
for r in rows {
    print("| \(r.name) | \(f(r.brute0)) (\(ratio(r.brute0, r.r0))) | \(f(r.brute35)) (\(ratio(r.brute35, r.r35))) | \(f(r.boxes)) (\(ratio(r.boxes, r.r0))) | \(f(r.bmp1)) (\(ratio(r.bmp1, r.r0))) | \(f(r.bmp4)) (\(ratio(r.bmp4, r.r0))) |")
}
print("")
print("Brute force is timed on the first \(page.brutePoints) points (page, rotated) / 20,000 ('@', CJK) of the same set.")
print("")
print("## Wrong answers of the baselines at r = 0 (vs InkHit's exact ink answers, all points)")
print("")
print("| workload | glyph boxes: wrong | …hit, no ink (of which spaces) | …ink, no box | …other glyph | bitmap 1×: wrong (false hit / missed ink) | bitmap 4×: wrong (false hit / missed ink) |")
print("|---|---|---|---|---|---|---|")
for r in rows {
    print("| \(r.name) | \(pct(r.boxWrong, r.points)) | \(r.boxFP) (\(r.boxFPspaces)) | \(r.boxFN) | \(r.boxOther) | \(pct(r.bmp1Wrong.fp + r.bmp1Wrong.fn, r.points)) (\(r.bmp1Wrong.fp) / \(r.bmp1Wrong.fn)) | \(pct(r.bmp4Wrong.fp + r.bmp4Wrong.fn, r.points)) (\(r.bmp4Wrong.fp) / \(r.bmp4Wrong.fn)) |")
}
print("")
print("## Memory")
print("")
print("| workload | bytes per placement (bytesBeyondShapes / count) | index bytes / bitmap 1× bytes | index bytes per px² of page (bitmap 1× pixels) | unique shapes | bytes per unique shape | edges per unique shape | bytes per edge | bitmap 1× bytes (render ms) | bitmap 4× bytes (render ms) |")
print("|---|---|---|---|---|---|---|---|---|---|")
for r in rows {
    print("| \(r.name) | \(f(r.bytesPerPlacement)) | \(r.indexBytes) / \(r.bmp1Bytes) = \(f(Double(r.indexBytes) / Double(max(r.bmp1Bytes, 1)), 2)) | \(f(Double(r.indexBytes) / Double(max(r.bmp1Bytes, 1)), 2)) | \(r.unique) | \(f(r.bytesPerShape, 0)) | \(f(r.edgesPerShape)) | \(f(r.bytesPerShape / max(r.edgesPerShape, 1), 0)) | \(r.bmp1Bytes) (\(f(r.bmp1Render * 1e3, 2))) | \(r.bmp4Bytes) (\(f(r.bmp4Render * 1e3, 2))) |")
}
print("")
print("The 1× bitmap has one byte per px² of its page (its pixel count is the page area), so index bytes per px² equals the index/bitmap ratio. Shapes are shared (a cache's, across indexes) and counted apart.")
print("")
print("Work per query at r = 3.5 (mean over the first 20,000 points): placements whose ink box is within 3.5 px of the point / placements whose ink is within 3.5 px:")
print("")
for r in rows { print("- \(r.name): \(f(r.boxCandidates35, 2)) / \(f(r.inkWithin35, 2))") }
print("")
print("## Build (page)")
print("")
print("| build | median ms |")
print("|---|---|")
print("| warm (shapes in a FontShapeCache: `Builder.add(_:cache:)` per glyph + build) | \(f(page.buildWarm * 1e3, 3)) |")
print("| cold (fresh Font + fresh FontShapeCache: file read, FreeType loads, flattening, grids, index) | \(f(page.buildCold * 1e3, 3)) |")
print("")

// MARK: Layout
FileHandle.standardError.write("measuring layout…\n".data(using: .utf8)!)
let layoutNumbers = try LayoutNumbers.measure(rounds: minRounds, seconds: minSeconds)
print(layoutNumbers.markdown)

// MARK: Hit scene
FileHandle.standardError.write("measuring the hit scene…\n".data(using: .utf8)!)
print(try SceneNumbers.measure(rounds: minRounds, seconds: minSeconds).markdown)

// MARK: Scaling
FileHandle.standardError.write("measuring scaling…\n".data(using: .utf8)!)
print("## Scaling (page text continued; points uniform over the whole block)")
print("")
print("| glyphs | lines box (px) | unique shapes | build warm ms | build ns/glyph | query r=0 ns/pt | query r=3.5 ns/pt | r=0, points in a one-page window | r=3.5, one-page window | bytes/placement |")
print("|---|---|---|---|---|---|---|---|---|---|")
var scaleR0: [Double] = [], scaleWin0: [Double] = [], scaleR35: [Double] = []
for n in Workloads.scalingCounts {
    var w: Workload? = try Workloads.scaling(n)
    let pts = w!.points, index = w!.index
    var out = [Hit?](repeating: nil, count: pts.count)
    let r0 = nsPerPoint(pts.count) { index.hits(for: pts, radius: 0, into: &out) }
    let r35 = nsPerPoint(pts.count) { index.hits(for: pts, radius: 3.5, into: &out) }
    let build = Timing.median(rounds: n >= 200_000 ? 5 : minRounds, minSeconds: minSeconds) {
        _ = try! w!.buildIndex(font: w!.font, cache: w!.cache)
    }
    let box = w!.layoutBounds, unique = w!.uniqueShapes
    let bpp = Double(index.bytesBeyondShapes) / Double(index.count)
    w = nil
    let win = try Workloads.scalingWindow(n)
    let wp = win.points, windex = win.index
    var wo = [Hit?](repeating: nil, count: wp.count)
    let w0 = nsPerPoint(wp.count) { windex.hits(for: wp, radius: 0, into: &wo) }
    let w35 = nsPerPoint(wp.count) { windex.hits(for: wp, radius: 3.5, into: &wo) }
    scaleR0.append(r0)
    scaleWin0.append(w0)
    scaleR35.append(r35)
    print("| \(n) | \(f(box.width, 0))×\(f(box.height, 0)) | \(unique) | \(f(build * 1e3, 3)) | \(f(build * 1e9 / Double(n), 0)) | \(f(r0)) | \(f(r35)) | \(f(w0)) | \(f(w35)) | \(f(bpp)) |")
}
print("")

// MARK: The C interface (CABI.swift)
FileHandle.standardError.write("measuring the C interface…\n".data(using: .utf8)!)
try CABI.run(rounds: minRounds, seconds: minSeconds)

// MARK: Cold (Cold.swift)
FileHandle.standardError.write("measuring cold…\n".data(using: .utf8)!)
print(try Cold.measure(quick: quick).markdown)

// MARK: Peak RSS (separate process)
var rssLine = "(not measured)"
do {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    p.arguments = ["rss", "200000"]
    let pipe = Pipe()
    p.standardOutput = pipe
    try p.run()
    p.waitUntilExit()
    rssLine = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
}
print("## Peak RSS, 200,000 glyphs (separate process: font, layout, shapes and index)")
print("")
print("`\(rssLine)`")
print("")

// MARK: Targets
func verdict(_ ok: Bool) -> String { ok ? "met" : "**missed**" }
print("## Targets: exact answers at bitmap speed, page workload")
print("")
let bmp = page.bmp1
let docIndex = Workloads.scalingCounts.firstIndex(of: 200_000) ?? (scaleR0.count - 1)
let pageIndex = Workloads.scalingCounts.firstIndex(of: Workloads.pageGlyphs) ?? 0
print("| target | measured | verdict |")
print("|---|---|---|")
print("| r = 0 ≤ 2.5× the 1× bitmap lookup (\(f(bmp)) ns), 0 wrong | batch \(f(page.r0)) ns = \(f(page.r0 / bmp, 2))×; single calls \(f(page.single0)) ns = \(f(page.single0 / bmp, 2))×; \(page.check0.wrong) wrong | \(verdict(page.r0 <= 2.5 * bmp && page.check0.wrong == 0)) |")
print("| r = 3.5 ≤ 12× the bitmap | batch \(f(page.r35)) ns = \(f(page.r35 / bmp, 2))×; \(page.check35.wrong) wrong | \(verdict(page.r35 <= 12 * bmp && page.check35.wrong == 0)) |")
print("| containment only ≤ 1.5× the bitmap | `topmost(at:)` loop \(f(page.top)) ns = \(f(page.top / bmp, 2))×, batch \(f(page.topBatch)) ns = \(f(page.topBatch / bmp, 2))× | \(verdict(min(page.top, page.topBatch) <= 1.5 * bmp)) |")
print("| index memory ≤ the 1× bitmap of the page | \(page.indexBytes) B vs \(page.bmp1Bytes) B (\(f(page.bytesPerPlacement)) B per placement, \(f(Double(page.indexBytes) / Double(page.bmp1Bytes), 2)) B per px²) | \(verdict(page.indexBytes <= page.bmp1Bytes)) |")
print("| build ≤ 1 ms warm, ≤ 20 ms cold | \(f(page.buildWarm * 1e3, 3)) / \(f(page.buildCold * 1e3, 3)) ms | \(verdict(page.buildWarm <= 1e-3 && page.buildCold <= 20e-3)) |")
if scaleR0.count > docIndex, scaleR35.count > docIndex {
    let d0 = scaleR0[docIndex] / scaleR0[pageIndex], d35 = scaleR35[docIndex] / scaleR35[pageIndex]
    print("| 200,000 glyphs, points uniform: ≤ 2× the page | r = 0: \(f(scaleR0[docIndex])) vs \(f(scaleR0[pageIndex])) ns = ×\(f(d0, 2)); r = 3.5: \(f(scaleR35[docIndex])) vs \(f(scaleR35[pageIndex])) ns = ×\(f(d35, 2)) | \(verdict(d0 <= 2 && d35 <= 2)) |")
}
print("| 0 allocations per query | see `swift package benchmark thresholds check` (and `page.topmost.*`) | — |")
print("| exact (no wrong answers vs brute force, all workloads) | \(rows.map { $0.check0.wrong + $0.check35.wrong }.reduce(0, +)) wrong | \(verdict(rows.allSatisfy { $0.check0.wrong + $0.check35.wrong == 0 })) |")
print("")
print("Load average at the end: \(loadAverage()).")
