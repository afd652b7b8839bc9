import Foundation
import InkBenchSupport
import InkGeometry
@_spi(RawBuffers) @_spi(Benchmarks) import InkHit

/// `ink-bench-summary classes`: how the page's query points fall into square view cells of a few sizes,
/// by what a conservative cell class could answer without geometry (measured before choosing a raster).
///
/// A cell of side s (half-diagonal h) is classified from the signed distances at its centre c of every
/// placement within R + h (R = 3.5 px), by `allHits(at:radius:)`: a placement whose |d| > h neither crosses
/// the cell nor leaves it partly inside. Classes: **empty-far** (no ink within R of any point of the cell),
/// **empty-near** (no ink in the cell, some within R), **inside** (the cell lies wholly inside the topmost
/// placement touching it), **only** (a single placement has ink within R of the cell: one exact test answers
/// any r ≤ R), **mixed** (the rest).
enum Classes {
    static func run() throws {
        let w = try Workloads.page()
        let index = w.index
        let box = w.viewBox
        let R = 3.5
        print("| cell (px) | cells over the page | empty-far | empty-near | inside | only (crossed) | mixed | r = 0 answered without geometry | r = 3.5 answered with ≤ 1 placement |")
        print("|---|---|---|---|---|---|---|---|---|")
        var buf: [Hit] = []
        for s in [1.0, 0.75, 0.65, 0.5, 0.35, 0.25] {
            let h = s * 0.5.squareRoot()
            var memo: [Int: Int] = [:]     // cell → class
            var counts = [Int](repeating: 0, count: 6)
            let nx = Int((box.width / s).rounded(.up)) + 1
            for p in w.points {
                let i = Int((p.x - box.minX) / s), j = Int((p.y - box.minY) / s)
                let key = j * nx + i
                let cls: Int
                if let c = memo[key] { cls = c } else {
                    let c = Point(box.minX + (Double(i) + 0.5) * s, box.minY + (Double(j) + 0.5) * s)
                    index.allHits(at: c, radius: R + h + 1e-6, into: &buf)
                    let touching = buf.filter { $0.isInside || $0.distance <= h + 1e-6 }
                    if buf.isEmpty { cls = 0 }
                    else if touching.isEmpty { cls = buf.count == 1 ? 4 : 1 }
                    else {
                        let top = touching.max { $0.placement < $1.placement }!
                        if top.isInside && -top.distance > h + 1e-6 { cls = 2 }
                        else if buf.count == 1 { cls = 3 }
                        else { cls = 5 }
                    }
                    memo[key] = cls
                }
                counts[cls] += 1
            }
            let n = Double(w.points.count)
            func p(_ k: Int) -> String { String(format: "%.1f %%", 100 * Double(counts[k]) / n) }
            let fast0 = Double(counts[0] + counts[1] + counts[2] + counts[4]) / n
            let fast35 = Double(counts[0] + counts[2] + counts[3] + counts[4]) / n
            let cells = Int((box.width / s).rounded(.up) * (box.height / s).rounded(.up))
            print("| \(s) | \(cells) | \(p(0)) | \(p(1)) | \(p(2)) | \(p(3)) + \(p(4)) near-only | \(p(5)) | "
                  + String(format: "%.1f %%", 100 * fast0) + " | " + String(format: "%.1f %%", 100 * fast35) + " |")
        }
    }
}

extension Classes {
    /// Page-grid list entries with boxes as they are and grown by R (for a grid that answers r ≤ R from the
    /// point's own cell).
    static func gridStats() throws {
        let w = try Workloads.page()
        let oracle = BruteForce(w)
        var sum = 0.0, inked = 0
        var all = Rect.empty
        for b in oracle.boxes where !b.isEmpty { sum += (b.width + b.height) / 2; inked += 1; all = all.union(b) }
        let mean = sum / Double(inked)
        for factor in [0.35, 0.5, 0.7, 1.0] {
            let cell = factor * mean
            let nx = Int(all.width / cell) + 1, ny = Int(all.height / cell) + 1
            for R in [0.0, 3.5, 4.0] {
                var entries = 0
                for b in oracle.boxes where !b.isEmpty {
                    let i0 = max(0, Int((b.minX - R - all.minX) / cell)), i1 = min(nx - 1, Int((b.maxX + R - all.minX) / cell))
                    let j0 = max(0, Int((b.minY - R - all.minY) / cell)), j1 = min(ny - 1, Int((b.maxY + R - all.minY) / cell))
                    entries += (i1 - i0 + 1) * (j1 - j0 + 1)
                }
                print("cell \(String(format: "%.2f", cell)) px (\(factor) × mean \(String(format: "%.2f", mean))): \(nx)×\(ny) = \(nx * ny) cells, R = \(R): \(entries) entries, \(String(format: "%.2f", Double(entries) / Double(nx * ny))) per cell, bytes \((nx * ny + 1) * 4 + entries * 4)")
            }
        }
    }
}

extension Classes {
    /// Finer split: at r = 0 by the placements whose ink meets the cell, at r = 3.5 by those within R; with the
    /// position of the one placement in a T px tile's topmost-first list of boxes.
    static func split(tile T: Double, grow G: Double = 0) throws {
        let w = try Workloads.page()
        let index = w.index
        let oracle = BruteForce(w)
        let box = w.viewBox
        let R = 3.5
        var all = Rect.empty
        for b in oracle.boxes where !b.isEmpty { all = all.union(b) }
        let tnx = Int(all.width / T) + 1
        var lists: [Int: [Int]] = [:]
        for (k, b0) in oracle.boxes.enumerated() where !b0.isEmpty {
            let b = Rect(minX: b0.minX - G, minY: b0.minY - G, maxX: b0.maxX + G, maxY: b0.maxY + G)
            all = all.union(b)
        }
        for (k, b0) in oracle.boxes.enumerated() where !b0.isEmpty {
            let b = Rect(minX: b0.minX - G, minY: b0.minY - G, maxX: b0.maxX + G, maxY: b0.maxY + G)
            for j in Int((b.minY - all.minY) / T)...Int((b.maxY - all.minY) / T) {
                for i in Int((b.minX - all.minX) / T)...Int((b.maxX - all.minX) / T) { lists[j * tnx + i, default: []].insert(k, at: 0) }
            }
        }
        print("tile \(T) px grown \(G): \(lists.count) non-empty tiles, max list \(lists.values.map(\.count).max() ?? 0), entries \(lists.values.map(\.count).reduce(0, +))")
        print("| cell | r0 miss | r0 inside (k≤2) | r0 one touching (k≤2) | r0 ≥2 touching | r3.5 far | r3.5 one within R (k≤2 / in tile list) | r3.5 two | r3.5 ≥3 |")
        print("|---|---|---|---|---|---|---|---|---|")
        var buf: [Hit] = []
        for s in [1.0, 0.8, 0.5] {
            let h = s * 0.5.squareRoot()
            var c = [String: Int]()
            for p in w.points {
                let i = ((p.x - all.minX) / s).rounded(.down), j = ((p.y - all.minY) / s).rounded(.down)
                let ctr = Point(all.minX + (i + 0.5) * s, all.minY + (j + 0.5) * s)
                let tile = Int((ctr.y - all.minY) / T) * tnx + Int((ctr.x - all.minX) / T)
                let list = lists[tile] ?? []
                func pos(_ k: Int) -> Int { list.firstIndex(of: k) ?? 99 }
                index.allHits(at: ctr, radius: R + h + 1e-6, into: &buf)
                let touching = buf.filter { $0.isInside || $0.distance <= h + 1e-6 }
                if touching.isEmpty { c["r0miss", default: 0] += 1 } else {
                    let top = touching.max { $0.placement < $1.placement }!
                    if top.isInside && -top.distance > h + 1e-6 { c[pos(top.placement) <= 2 ? "r0in" : "r0inK", default: 0] += 1 }
                    else if touching.count == 1 { c[pos(top.placement) <= 2 ? "r0one" : "r0oneK", default: 0] += 1 }
                    else { c["r0mixed", default: 0] += 1 }
                }
                if buf.isEmpty { c["far", default: 0] += 1 }
                else if let top = touching.max(by: { $0.placement < $1.placement }), top.isInside && -top.distance > h + 1e-6 { c["in35", default: 0] += 1 }
                else if buf.count == 1 { c[pos(buf[0].placement) <= 2 ? "one" : (pos(buf[0].placement) < 99 ? "oneK" : "oneOut"), default: 0] += 1 }
                else if buf.count == 2 { c["two", default: 0] += 1 }
                else { c["many", default: 0] += 1 }
            }
            let n = Double(w.points.count)
            func p(_ k: String) -> String { String(format: "%.1f", 100 * Double(c[k] ?? 0) / n) }
            print("| \(s) | \(p("r0miss")) | \(p("r0in")) (+\(p("r0inK"))) | \(p("r0one")) (+\(p("r0oneK"))) | \(p("r0mixed")) | \(p("far")) | \(p("one")) / +\(p("oneK")) / +\(p("oneOut")) out; inside \(p("in35")) | \(p("two")) | \(p("many")) |")
        }
    }
}

extension Classes {
    /// Every workload's points against the brute-force oracle at r = 0, 3.5, 8 (above the prepared radius),
    /// and `topmost(at:)` / `contains` against `hit(at:)`'s inside answers.
    static func check() throws {
        for make in [{ try Workloads.page() }, { try Workloads.rotatedPage() }, { try Workloads.at() }, { try Workloads.cjk() }] {
            let w = try make()
            let oracle = BruteForce(w)
            let pts = UnsafeBufferPointer(rebasing: w.pointBuffer[0..<min(w.pointBuffer.count, 50_000)])
            var line = "\(w.name):"
            for r in [0.0, 3.5, 8.0] {
                let c = OracleComparison.compare(index: w.index, oracle: oracle, points: pts, radius: r)
                line += " r=\(r): \(c.wrong) wrong (\(c.borderline) borderline)"
                if c.wrong > 0 { print(c.description) }
            }
            var bad = 0
            // The batch calls against the single ones.
            for r in [0.0, 3.5, 8.0] {
                let batch = w.index.hits(for: Array(pts), radius: r)
                for (i, p) in pts.enumerated() where batch[i] != w.index.hit(at: p, radius: r) { bad += 1 }
            }
            var tops = [Int](repeating: -2, count: pts.count)
            tops.withUnsafeMutableBufferPointer { w.index.unsafeTopmost(for: pts, into: $0) }
            for (i, p) in pts.enumerated() where tops[i] != (w.index.topmost(at: p) ?? -1) { bad += 1 }
            for p in pts {
                let h = w.index.hit(at: p)
                let t = w.index.topmost(at: p)
                if t != h?.placement || w.index.contains(p) != (h != nil) { bad += 1 }
            }
            print(line + "; topmost/contains/batch disagreements: \(bad)")
        }
    }
}

extension Classes {
    /// How the page's points fall into the index's own raster codes.
    static func codes() throws {
        for make in [{ try Workloads.page() }, { try Workloads.rotatedPage() }, { try Workloads.at() }, { try Workloads.cjk() }] {
            let w = try make()
            var hist = [Int](repeating: 0, count: 17)
            for p in w.points { hist[(w.index.rasterCode(at: p) ?? -1) + 1] += 1 }
            let n = Double(w.points.count)
            func f(_ x: Int) -> String { String(format: "%.1f", 100 * Double(x) / n) }
            let g = w.index.rasterGeometry
            print("\(w.name): cell \(g?.cell ?? 0) px, \(g?.bytes ?? 0) B raster; outside \(f(hist[0])) far \(f(hist[1])) nearMany \(f(hist[2])) mixed \(f(hist[3])) nearOne \(f(hist[5...8].reduce(0, +))) touchOne \(f(hist[9...12].reduce(0, +))) touchMany \(f(hist[13...16].reduce(0, +))) (k: " + (5...16).map { "\(hist[$0])" }.joined(separator: " ") + ")")
        }
    }
}
